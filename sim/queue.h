/* queue.h: the engine's pending-event queue (internal to sim/). A pooled,
 * array-backed 4-ary min-heap keyed by (time, seq). Event records (handler,
 * payload) live in a pool that grows by doubling, with a LIFO free list (no
 * malloc per event); the heap holds only small (time, seq, slot) entries, and
 * a per-slot position table makes cancel O(log n). */
#ifndef CLUSTERSIM_SIM_QUEUE_H
#define CLUSTERSIM_SIM_QUEUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clustersim/sim.h"

/* One heap entry: the full ordering key plus the pool slot it stands for.
 * 24 bytes, so sifting moves little data and never touches the payload. */
struct cs_sim__qent {
    cs_time time;
    uint64_t seq;
    uint32_t slot;
};

/* One pooled event record: what the heap entry does not already hold.
 * Exactly one 64-byte cache line (the pool is line-aligned), so firing an
 * event touches one line of the pool. */
struct cs_sim__qrec {
    int32_t handler;
    uint32_t len; /* payload bytes; links the free list while the slot is free */
    _Alignas(16) unsigned char payload[CS_SIM_PAYLOAD_MAX];
};

/* Per-slot bookkeeping, kept apart from the (80-byte) event records so the
 * position updates done while sifting stay in a compact array. */
struct cs_sim__qmeta {
    uint32_t pos; /* index in heap while live; CS_SIM__QFREE when free */
    uint32_t gen; /* bumped when the slot is freed; never 0 */
};

#define CS_SIM__QFREE UINT32_MAX

struct cs_sim__queue {
    struct cs_sim__qent *heap; /* [cap]; first n are the heap */
    struct cs_sim__qrec *rec;  /* [cap] pool of records, 64-byte aligned */
    struct cs_sim__qmeta *meta;/* [cap] */
    uint32_t n;                /* heap entries, the hole included */
    uint32_t cap;              /* pool and heap capacity */
    uint32_t used;             /* slots ever handed out (high-water mark) */
    uint32_t free_head;        /* head of the free list, CS_SIM__QFREE if empty */
    uint32_t hole;             /* 1 when heap[0] is a deferred-removal hole */
    uint64_t next_seq;
};

void cs_sim__queue_init(struct cs_sim__queue *q);
void cs_sim__queue_fini(struct cs_sim__queue *q);

/* Inserts an event; `payload` holds `len` <= CS_SIM_PAYLOAD_MAX bytes (the
 * caller has checked). Returns its id, or CS_EVENT_NONE when the queue holds
 * CS_SIM_MAX_PENDING events already. O(log n) amortized. */
cs_event_id cs_sim__queue_push(struct cs_sim__queue *q, cs_time t,
                               int32_t handler, const void *payload,
                               size_t len);

/* Events pending (a deferred root removal does not count). */
static inline uint32_t cs_sim__queue_size(const struct cs_sim__queue *q)
{
    return q->n - q->hole;
}

/* Time of the minimum; the queue must not be empty. Completes a deferred
 * removal first. */
cs_time cs_sim__queue_peek_time(struct cs_sim__queue *q);

/* The same without modifying the queue (scans the root's children while a
 * removal is deferred). */
cs_time cs_sim__queue_min_time(const struct cs_sim__queue *q);

/* Removes the minimum and copies its record into *out; the queue must not be
 * empty. The slot is freed before returning, so its id is stale.
 * The heap repair is deferred: the root is left as a hole that the next push
 * fills (one sift-down for a pop + push pair, as heapq.heapreplace does, which
 * is what a handler scheduling its successor does) or that the next other
 * operation closes. O(log n). */
void cs_sim__queue_pop(struct cs_sim__queue *q, struct cs_event *out);

/* Removes the event `id` if it is pending. O(log n). */
bool cs_sim__queue_cancel(struct cs_sim__queue *q, cs_event_id id);

/* Completes a deferred removal, if any; for tests and for cancel. */
void cs_sim__queue_settle(struct cs_sim__queue *q);

/* Checks the heap property and the position table; for tests. O(n). The
 * queue must be settled. */
bool cs_sim__queue_check(const struct cs_sim__queue *q);

#endif
