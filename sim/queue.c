/* queue.c: the engine's pending-event queue (sim/ layer, internal): a 4-ary
 * min-heap of (time, seq, slot) entries over a pool of event records.
 *
 * Why 4-ary: the four children of a node are adjacent, so one sift-down level
 * reads one or two cache lines and the tree is half as deep as a binary
 * heap's (LaMarca & Ladner, "The influence of caches on the performance of
 * heaps", JEA 1996). Sifts move a hole instead of swapping, so each level
 * writes one entry and one position. A pop leaves the root as a hole that the
 * next push fills with a single sift-down (the common "handler schedules its
 * successor" case), comparisons are branch-free, and the next level's family
 * and the next events' records are prefetched. With 1M pending events the
 * heap (24 MB) and pool (64 MB) exceed the caches, so the time per event is
 * set by the two or three dependent DRAM misses of the lower heap levels; see
 * bench/bench_engine.c. */
#include "queue.h"

#include <stdlib.h>
#include <string.h>

#include "clustersim/xmalloc.h"

#define CS_SIM__QARITY 4
#define CS_SIM__QINITIAL 64

_Static_assert(sizeof(struct cs_sim__qrec) == 64,
               "a pool record is one cache line");

/* A read prefetch hint; a no-op where the compiler has none. */
#if defined(__GNUC__)
#define CS_SIM__PREFETCH(p) __builtin_prefetch((p), 0, 3)
#else
#define CS_SIM__PREFETCH(p) ((void)(p))
#endif

static inline bool cs_sim__qless(const struct cs_sim__qent *a,
                                 const struct cs_sim__qent *b)
{
    /* Bitwise, not short-circuit: the compiler emits flag arithmetic instead
     * of two data-dependent branches, which random keys mispredict half the
     * time (measured: -12% time per event at 10k pending). */
    return (a->time < b->time) | ((a->time == b->time) & (a->seq < b->seq));
}

void cs_sim__queue_init(struct cs_sim__queue *q)
{
    memset(q, 0, sizeof *q);
    q->free_head = CS_SIM__QFREE;
}

void cs_sim__queue_fini(struct cs_sim__queue *q)
{
    free(q->heap);
    free(q->rec);
    free(q->meta);
    cs_sim__queue_init(q);
}

/* Doubles every array. Returns false when the pool is at its cap. */
static bool cs_sim__queue_grow(struct cs_sim__queue *q)
{
    size_t cap = q->cap ? (size_t)q->cap * 2 : CS_SIM__QINITIAL;
    if (cap > CS_SIM_MAX_PENDING)
        cap = CS_SIM_MAX_PENDING;
    if (cap <= q->cap)
        return false;
    q->heap = cs_xrealloc(q->heap, cap, sizeof *q->heap);
    q->meta = cs_xrealloc(q->meta, cap, sizeof *q->meta);
    /* C11 aligned_alloc keeps each record on its own cache line; realloc
     * could not promise the alignment, so copy by hand. The size is a
     * multiple of the alignment, as C11 requires. */
    struct cs_sim__qrec *rec = aligned_alloc(64, cap * sizeof *rec);
    if (!rec) /* let cs_xmalloc report out-of-memory and abort */
        rec = cs_xmalloc(SIZE_MAX);
    if (q->cap)
        memcpy(rec, q->rec, (size_t)q->cap * sizeof *rec);
    free(q->rec);
    q->rec = rec;
    for (size_t i = q->cap; i < cap; i++) {
        q->meta[i].pos = CS_SIM__QFREE;
        q->meta[i].gen = 1;
    }
    q->cap = (uint32_t)cap;
    return true;
}

/* Returns a free slot (LIFO, so a just-freed, cache-hot record is reused
 * first), or CS_SIM__QFREE when full. While a slot is free its record's
 * `len` field links the free list. */
static inline uint32_t cs_sim__queue_alloc(struct cs_sim__queue *q)
{
    if (q->free_head != CS_SIM__QFREE) {
        uint32_t s = q->free_head;
        q->free_head = q->rec[s].len;
        return s;
    }
    if (q->used == q->cap && !cs_sim__queue_grow(q))
        return CS_SIM__QFREE;
    return q->used++;
}

static inline void cs_sim__queue_release(struct cs_sim__queue *q, uint32_t s)
{
    struct cs_sim__qmeta *m = &q->meta[s];
    m->pos = CS_SIM__QFREE;
    /* A new generation makes every id issued for this slot stale. Skipping 0
     * keeps ids nonzero; a stale id can only match again after 2^32 - 1
     * reuses of the same slot. */
    if (++m->gen == 0)
        m->gen = 1;
    q->rec[s].len = q->free_head;
    q->free_head = s;
}

/* Moves the hole at i up until x fits, then stores x there. */
static inline void cs_sim__sift_up(struct cs_sim__queue *q, uint32_t i,
                                   struct cs_sim__qent x)
{
    struct cs_sim__qent *h = q->heap;
    while (i > 0) {
        uint32_t p = (i - 1) / CS_SIM__QARITY;
        if (!cs_sim__qless(&x, &h[p]))
            break;
        h[i] = h[p];
        q->meta[h[i].slot].pos = i;
        i = p;
    }
    h[i] = x;
    q->meta[x.slot].pos = i;
}

/* Moves the hole at i down (towards the smallest child) until x fits, then
 * stores x there. */
static inline void cs_sim__sift_down(struct cs_sim__queue *q, uint32_t i,
                                     struct cs_sim__qent x)
{
    struct cs_sim__qent *h = q->heap;
    const uint32_t n = q->n;
    for (;;) {
        uint32_t c = CS_SIM__QARITY * i + 1;
        if (c >= n)
            break;
        uint32_t m = c;
        /* Start loading the 16 grandchildren (384 bytes) now, so that the
         * next level's family is in flight while this level compares: in a
         * large heap the lower levels miss every cache. */
        uint32_t g = CS_SIM__QARITY * c + 1;
        if (g < n) {
            const char *p = (const char *)&h[g];
            for (size_t k = 0; k < CS_SIM__QARITY * CS_SIM__QARITY * sizeof *h;
                 k += 64)
                CS_SIM__PREFETCH(p + k);
        }
        if (c + CS_SIM__QARITY <= n) {
            /* Full family: a tournament of two pairs. */
            uint32_t a = cs_sim__qless(&h[c + 1], &h[c]) ? c + 1 : c;
            uint32_t b = cs_sim__qless(&h[c + 3], &h[c + 2]) ? c + 3 : c + 2;
            m = cs_sim__qless(&h[b], &h[a]) ? b : a;
        } else {
            for (uint32_t k = c + 1; k < n; k++)
                if (cs_sim__qless(&h[k], &h[m]))
                    m = k;
        }
        if (!cs_sim__qless(&h[m], &x))
            break;
        h[i] = h[m];
        q->meta[h[i].slot].pos = i;
        i = m;
    }
    h[i] = x;
    q->meta[x.slot].pos = i;
}

/* Starts loading the records of the root and of its children: the next
 * events to fire, whose records would otherwise be a cache miss each (the
 * pool is far larger than the caches when many events are pending). */
static inline void cs_sim__prefetch_next(const struct cs_sim__queue *q)
{
    uint32_t end = q->n < 1 + CS_SIM__QARITY ? q->n : 1 + CS_SIM__QARITY;
    for (uint32_t k = 0; k < end; k++)
        CS_SIM__PREFETCH(&q->rec[q->heap[k].slot]);
}

cs_event_id cs_sim__queue_push(struct cs_sim__queue *q, cs_time t,
                               int32_t handler, const void *payload,
                               size_t len)
{
    uint32_t s = cs_sim__queue_alloc(q);
    if (s == CS_SIM__QFREE)
        return CS_EVENT_NONE;
    cs_event_id id = ((uint64_t)q->meta[s].gen << 32) | s;
    uint64_t seq = q->next_seq++;

    struct cs_sim__qrec *r = &q->rec[s];
    r->handler = handler;
    r->len = (uint32_t)len;
    /* Zero the tail so stale bytes of an earlier event never leak into a
     * handler (and so output cannot depend on pool history). */
    memset(r->payload, 0, sizeof r->payload);
    if (len)
        memcpy(r->payload, payload, len);

    struct cs_sim__qent x = {t, seq, s};
    if (q->hole) {
        /* Replace the removed root by x: one sift-down does both. */
        q->hole = 0;
        cs_sim__sift_down(q, 0, x);
        cs_sim__prefetch_next(q);
    } else {
        cs_sim__sift_up(q, q->n++, x);
    }
    return id;
}

void cs_sim__queue_settle(struct cs_sim__queue *q)
{
    if (!q->hole)
        return;
    q->hole = 0;
    if (--q->n > 0) {
        cs_sim__sift_down(q, 0, q->heap[q->n]);
        cs_sim__prefetch_next(q);
    }
}

cs_time cs_sim__queue_peek_time(struct cs_sim__queue *q)
{
    cs_sim__queue_settle(q);
    return q->heap[0].time;
}

cs_time cs_sim__queue_min_time(const struct cs_sim__queue *q)
{
    if (!q->hole)
        return q->heap[0].time;
    /* The minimum is the smallest child of the hole (n >= 2 here). */
    const struct cs_sim__qent *m = &q->heap[1];
    for (uint32_t k = 2; k <= CS_SIM__QARITY && k < q->n; k++)
        if (cs_sim__qless(&q->heap[k], m))
            m = &q->heap[k];
    return m->time;
}

void cs_sim__queue_pop(struct cs_sim__queue *q, struct cs_event *out)
{
    cs_sim__queue_settle(q);
    const struct cs_sim__qent *top = &q->heap[0];
    uint32_t s = top->slot;
    const struct cs_sim__qrec *r = &q->rec[s];
    out->time = top->time;
    out->seq = top->seq;
    out->id = ((uint64_t)q->meta[s].gen << 32) | s;
    out->handler = r->handler;
    out->len = r->len;
    memcpy(out->payload, r->payload, sizeof out->payload);
    cs_sim__queue_release(q, s);
    q->hole = 1;
}

bool cs_sim__queue_cancel(struct cs_sim__queue *q, cs_event_id id)
{
    uint32_t s = (uint32_t)(id & 0xffffffffu);
    uint32_t gen = (uint32_t)(id >> 32);
    if (s >= q->used)
        return false;
    const struct cs_sim__qmeta *m = &q->meta[s];
    if (m->pos == CS_SIM__QFREE || m->gen != gen)
        return false;

    cs_sim__queue_settle(q); /* may move the entry: read pos after */
    uint32_t i = m->pos;
    cs_sim__queue_release(q, s);
    if (i == --q->n)
        return true; /* it was the last entry: nothing to refill */
    struct cs_sim__qent x = q->heap[q->n];
    if (i > 0 && cs_sim__qless(&x, &q->heap[(i - 1) / CS_SIM__QARITY]))
        cs_sim__sift_up(q, i, x);
    else
        cs_sim__sift_down(q, i, x);
    return true;
}

bool cs_sim__queue_check(const struct cs_sim__queue *q)
{
    if (q->hole || q->n > q->used || q->used > q->cap)
        return false;
    for (uint32_t i = 0; i < q->n; i++) {
        const struct cs_sim__qent *x = &q->heap[i];
        if (x->slot >= q->used || q->meta[x->slot].pos != i)
            return false;
        if (i > 0 && cs_sim__qless(x, &q->heap[(i - 1) / CS_SIM__QARITY]))
            return false;
    }
    uint32_t live = 0;
    for (uint32_t s = 0; s < q->used; s++)
        if (q->meta[s].pos != CS_SIM__QFREE)
            live++;
    return live == q->n;
}
