/* queue.h: the engine's pending-event queue (internal to sim/): a monotone
 * multi-level radix queue of (time, seq) keys over a pool of event records.
 *
 * Design
 * ------
 * The engine only ever schedules at or after its clock, and the clock only
 * moves forward, so the queue is a *monotone* priority queue: every key
 * pushed is >= the last key removed. That allows a radix heap (Ahuja,
 * Mehlhorn, Orlin & Tarjan, "Faster algorithms for the shortest path
 * problem", JACM 37(2), 1990), here with 8-bit digits as in multi-level
 * bucket / radix-sort queues (Cherkassky, Goldberg & Silverstein, "Buckets,
 * heaps, lists and monotone priority queues", SIAM J. Comput. 28(4), 1999):
 *
 * - The queue keeps a reference time `last` (<= every key in the buckets).
 *   A key with time t sits in bucket (L, d), where L is the index of the
 *   highest 8-bit digit in which t and `last` differ (0 when equal) and d is
 *   t's digit number L. 8 levels x 256 digits = 2048 buckets. Keys in a
 *   lower level, or the same level and a lower digit, are all smaller.
 * - A level-0 bucket holds a single time value. Its keys are in seq order
 *   (see below), so the minimum is its first key: pops take it in O(1).
 * - The next events to fire sit in one sorted array, the "run", popped from
 *   the front. When the run, level 0 and the early heap (below) are empty,
 *   the run is refilled from the lowest non-empty buckets (L > 0), one at a
 *   time, until it holds 32 keys or nothing is left:
 *   - a big bucket (> 64 keys) is redistributed: `last` becomes its minimum
 *     time (kept per bucket on append) and every key moves to a level < L,
 *     the level-0 ones straight onto the run (a stable counting sort on the
 *     last digit, as they share all the others);
 *   - a small bucket is sorted (insertion, stable) onto the run whole, and
 *     `last` becomes its largest time.
 *   Either way the other buckets keep their places relative to the new
 *   `last`, because they all lie above the bucket taken. A key therefore
 *   moves at most 7 times over its life, usually 2 or 3. This is what adapts
 *   the structure to the event density without any tuning: dense regions
 *   are split digit by digit, sparse ones are taken whole (so the run still
 *   holds enough upcoming events to prefetch for), empty ranges are jumped
 *   over by the bitmaps.
 * - The minimum is the smallest (by time, then seq) of the run's front, the
 *   first level-0 bucket's front and the early heap's top; all three
 *   precede every key of levels >= 1.
 * - Keys reach a bucket either by a push (its seq is the largest so far) or
 *   by a redistribution into lower levels, which are empty at that moment and
 *   receive keys in their source bucket's order; so every bucket is in seq
 *   order and equal times fire FIFO without comparing seqs.
 * - A push earlier than `last` (possible when a refill moved `last` past the
 *   clock: into the middle of the run, or beyond a cs_sim_run `until`) goes
 *   into a small binary "early" heap. Its keys are below `last`, hence below
 *   every bucketed key; the merge above orders them against the run. It
 *   only receives events due before the run's last one, a short window.
 *
 * Storage: a key is 24 bytes (time, seq, slot, generation). Buckets are
 * chains of fixed-size chunks from one pooled array with a LIFO free list, so
 * appends and redistributions stream through memory and a redistribution
 * reuses the chunks it has just freed while they are in cache. The 64-byte
 * event records (handler, payload) live in a separate pool and are touched
 * only at push (the slot just freed by the previous pop, usually in cache)
 * and at pop; the record of the event 15 places behind the front of the run
 * is prefetched at each pop (the first 16 when the run is refilled), so that
 * DRAM miss overlaps the work on the events before it.
 *
 * Cancel is lazy: it frees the record slot at once (bumping the slot's
 * generation, so the id becomes stale and the slot is reused) and leaves the
 * key in its bucket, where it is recognized as dead (generation mismatch)
 * and dropped when it reaches the front. When dead keys outnumber live ones
 * (and exceed a small constant) all buckets are compacted, so memory stays
 * within about twice the live events.
 *
 * Complexity (n pending events, 64-bit keys, 8-bit digits): push O(1); pop
 * O(1) amortized, paying for the key's at most 7 moves between levels and
 * its place in a sort (O(1) per key plus O(256) per counting sort; O(64)
 * per key at most in the insertion sort of a small bucket); cancel
 * O(1) amortized (the compaction is O(n) per >= n/2 cancels); peek O(1)
 * amortized; memory O(n). Worst cases stay bounded: all-equal times are one
 * FIFO bucket or run; times near INT64_MAX use the top level; times spread
 * over the whole range cost at most the 7 moves; the early heap is O(log m)
 * for its m keys.
 *
 * Versus the previous pooled 4-ary heap (O(log n), 2-3 dependent DRAM misses
 * per operation at 1M pending), the hot path here is sequential, and the one
 * random access per event (the record) is prefetched. */
#ifndef CLUSTERSIM_SIM_QUEUE_H
#define CLUSTERSIM_SIM_QUEUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clustersim/sim/sim.h"

/* Radix: bits per digit, buckets per level, levels. */
#define CS_SIM__QDBITS 8
#define CS_SIM__QDIGITS (1u << CS_SIM__QDBITS)
#define CS_SIM__QLEVELS (64 / CS_SIM__QDBITS)
/* Keys per chunk: 64 x 24 bytes = 1.5 KiB, a good run for the streaming
 * prefetcher without wasting much in the many tiny level-0 buckets. */
#define CS_SIM__QCHUNK 64
#define CS_SIM__QNONE UINT32_MAX

/* One key: the full ordering key, the record slot it stands for, and the
 * slot generation when it was pushed (a mismatch means "cancelled"). */
struct cs_sim__qkey {
    cs_time time;
    uint64_t seq;
    uint32_t slot;
    uint32_t gen;
};

/* One pooled event record, exactly one 64-byte cache line (line-aligned). */
struct cs_sim__qrec {
    int32_t handler; /* -1 while the slot is free */
    uint32_t len;    /* payload bytes */
    uint32_t gen;    /* current generation; bumped when freed; never 0 */
    uint32_t next;   /* free-list link while free */
    _Alignas(16) unsigned char payload[CS_SIM_PAYLOAD_MAX];
};

/* A chunk of keys; its link to the next chunk of its bucket (or of the free
 * list) is kept apart in cs_sim__queue.cnext, so a chunk is exactly 1.5 KiB
 * and following the free list does not touch the chunks themselves. */
struct cs_sim__qchunk {
    struct cs_sim__qkey k[CS_SIM__QCHUNK];
};

/* A bucket: a chain of chunks, consumed from the head (level 0 only) and
 * appended at the tail. */
struct cs_sim__qbucket {
    uint32_t head, tail; /* chunk indices; CS_SIM__QNONE when empty */
    uint32_t hpos;       /* first unconsumed key in the head chunk */
    uint32_t tpos;       /* keys filled in the tail chunk */
    uint32_t count;      /* keys in the bucket, dead ones included */
    uint32_t pad_;
    cs_time min;         /* smallest key time ever appended since emptied */
};

struct cs_sim__queue {
    struct cs_sim__qbucket b[CS_SIM__QLEVELS][CS_SIM__QDIGITS];
    uint64_t bits[CS_SIM__QLEVELS][CS_SIM__QDIGITS / 64]; /* non-empty */
    uint32_t levels;  /* bit L set when level L has a non-empty bucket */
    cs_time last;     /* reference time; <= every bucketed key */
    uint64_t nkeys;   /* keys in buckets and the early heap, dead included */
    uint32_t live;    /* pending events */
    uint32_t fstate;  /* where the settled minimum is; 0: not settled */
    uint32_t fdigit;  /* its level-0 digit when it is in a bucket */

    /* The run: the next keys, run[ri..nrun), sorted by (time, seq). */
    struct cs_sim__qkey *run;
    uint32_t ri, nrun, caprun;
    struct cs_sim__qkey *stage; /* scratch for building the run */
    uint32_t capstage;

    struct cs_sim__qkey *early; /* binary heap of keys pushed below last */
    uint32_t nearly, capearly;

    struct cs_sim__qchunk *chunk; /* [capchunk] */
    uint32_t *cnext;              /* [capchunk] chain links */
    uint32_t capchunk, usedchunk, freechunk, nfreechunk;

    struct cs_sim__qrec *rec; /* [cap], 64-byte aligned */
    uint32_t cap;             /* record slots allocated */
    uint32_t used;            /* slots ever handed out (high-water mark) */
    uint32_t free_head;       /* free slot list, CS_SIM__QNONE if empty */
    uint64_t next_seq;
};

void cs_sim__queue_init(struct cs_sim__queue *q);
void cs_sim__queue_fini(struct cs_sim__queue *q);
/* Empties the queue as init does, keeping its allocated arrays. */
void cs_sim__queue_clear(struct cs_sim__queue *q);

/* Inserts an event at time t >= now, where `now` is the engine clock: the
 * caller guarantees that no push, now or later, is before `now` (and that
 * `now` never decreases and is >= every popped time). `payload` holds
 * `len` <= CS_SIM_PAYLOAD_MAX bytes (checked by the caller). Returns its id,
 * or CS_EVENT_NONE when CS_SIM_MAX_PENDING events are pending already.
 * O(1) amortized. */
cs_event_id cs_sim__queue_push(struct cs_sim__queue *q, cs_time now,
                               cs_time t, int32_t handler,
                               const void *payload, size_t len);

/* Events pending (cancelled ones do not count). */
static inline uint32_t cs_sim__queue_size(const struct cs_sim__queue *q)
{
    return q->live;
}

/* Brings the minimum to the front (dropping dead keys and redistributing as
 * needed) and returns its time; the queue must not be empty. O(1)
 * amortized. */
cs_time cs_sim__queue_peek_time(struct cs_sim__queue *q);

/* The minimum's time without modifying the queue; the queue must not be
 * empty. O(1) when the front is settled (after a peek); otherwise it looks
 * at the early heap (all of it: usually empty), the run and the level-0
 * buckets up to their first live keys and, when those are empty, the lowest
 * bucket with a live key: usually O(1), at worst O(size of that bucket +
 * dead keys passed). */
cs_time cs_sim__queue_min_time(const struct cs_sim__queue *q);

/* Removes the minimum and copies it into *out; the queue must not be empty.
 * Its slot is freed before returning, so its id is stale. O(1) amortized. */
void cs_sim__queue_pop(struct cs_sim__queue *q, struct cs_event *out);

/* Cancels the event `id` if it is pending (its key is dropped later, see
 * above). Returns whether it was pending. O(1) amortized. */
bool cs_sim__queue_cancel(struct cs_sim__queue *q, cs_event_id id);

/* Drops every dead key now (the compaction cancel triggers on its own). */
void cs_sim__queue_compact(struct cs_sim__queue *q);

/* Checks every structural invariant (bucket placement relative to `last`,
 * bitmaps, counts, bucket minima, seq order inside buckets, the early heap,
 * the live count, one live key per live slot, the free lists); for tests.
 * O(n + slots). */
bool cs_sim__queue_check(const struct cs_sim__queue *q);

#endif
