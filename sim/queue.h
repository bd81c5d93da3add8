/* queue.h: the engine's pending-event queue (internal to sim/). A pooled,
 * array-backed 4-ary min-heap keyed by (time, seq). Event records live in a
 * pool that grows by doubling, with a LIFO free list (no malloc per event);
 * the heap holds only small (time, seq, slot) entries, and a per-slot
 * position table makes cancel O(log n). */
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

/* Per-slot bookkeeping, kept apart from the (80-byte) event records so the
 * position updates done while sifting stay in a compact array. */
struct cs_sim__qmeta {
    uint32_t pos; /* index in heap while live; CS_SIM__QFREE when free */
    uint32_t gen; /* bumped when the slot is freed; never 0 */
};

#define CS_SIM__QFREE UINT32_MAX

struct cs_sim__queue {
    struct cs_sim__qent *heap; /* [cap]; first n are the heap */
    struct cs_event *ev;       /* [cap] pool of event records */
    struct cs_sim__qmeta *meta;/* [cap] */
    uint32_t n;                /* pending events */
    uint32_t cap;              /* pool and heap capacity */
    uint32_t used;             /* slots ever handed out (high-water mark) */
    uint32_t free_head;        /* head of the free list, CS_SIM__QFREE if empty */
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

/* Time of the minimum; the queue must not be empty. */
static inline cs_time cs_sim__queue_top_time(const struct cs_sim__queue *q)
{
    return q->heap[0].time;
}

/* Removes the minimum and copies its record into *out; the queue must not be
 * empty. The slot is freed before returning, so its id is stale. O(log n). */
void cs_sim__queue_pop(struct cs_sim__queue *q, struct cs_event *out);

/* Removes the event `id` if it is pending. O(log n). */
bool cs_sim__queue_cancel(struct cs_sim__queue *q, cs_event_id id);

/* Checks the heap property and the position table; for tests. O(n). */
bool cs_sim__queue_check(const struct cs_sim__queue *q);

#endif
