/* queue.c: the engine's pending-event queue (sim/ layer, internal): a 4-ary
 * min-heap of (time, seq, slot) entries over a pool of event records.
 *
 * Why 4-ary: the four children of a node are adjacent, so one sift-down level
 * reads one or two cache lines and the tree is half as deep as a binary
 * heap's (LaMarca & Ladner, "The influence of caches on the performance of
 * heaps", JEA 1996). Sifts move a hole instead of swapping, so each level
 * writes one entry and one position. */
#include "queue.h"

#include <stdlib.h>
#include <string.h>

#include "clustersim/xmalloc.h"

#define CS_SIM__QARITY 4
#define CS_SIM__QINITIAL 64

static inline bool cs_sim__qless(const struct cs_sim__qent *a,
                                 const struct cs_sim__qent *b)
{
    return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

void cs_sim__queue_init(struct cs_sim__queue *q)
{
    memset(q, 0, sizeof *q);
    q->free_head = CS_SIM__QFREE;
}

void cs_sim__queue_fini(struct cs_sim__queue *q)
{
    free(q->heap);
    free(q->ev);
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
    q->ev = cs_xrealloc(q->ev, cap, sizeof *q->ev);
    q->meta = cs_xrealloc(q->meta, cap, sizeof *q->meta);
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
        q->free_head = q->ev[s].len;
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
    q->ev[s].len = q->free_head;
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

cs_event_id cs_sim__queue_push(struct cs_sim__queue *q, cs_time t,
                               int32_t handler, const void *payload,
                               size_t len)
{
    uint32_t s = cs_sim__queue_alloc(q);
    if (s == CS_SIM__QFREE)
        return CS_EVENT_NONE;
    cs_event_id id = ((uint64_t)q->meta[s].gen << 32) | s;
    uint64_t seq = q->next_seq++;

    struct cs_event *ev = &q->ev[s];
    ev->time = t;
    ev->seq = seq;
    ev->id = id;
    ev->handler = handler;
    ev->len = (uint32_t)len;
    /* Zero the tail so stale bytes of an earlier event never leak into a
     * handler (and so output cannot depend on pool history). */
    memset(ev->payload, 0, sizeof ev->payload);
    if (len)
        memcpy(ev->payload, payload, len);

    struct cs_sim__qent x = {t, seq, s};
    cs_sim__sift_up(q, q->n++, x);
    return id;
}

void cs_sim__queue_pop(struct cs_sim__queue *q, struct cs_event *out)
{
    uint32_t s = q->heap[0].slot;
    *out = q->ev[s];
    cs_sim__queue_release(q, s);
    if (--q->n > 0)
        cs_sim__sift_down(q, 0, q->heap[q->n]);
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
    if (q->n > q->used || q->used > q->cap)
        return false;
    for (uint32_t i = 0; i < q->n; i++) {
        const struct cs_sim__qent *x = &q->heap[i];
        if (x->slot >= q->used || q->meta[x->slot].pos != i)
            return false;
        if (q->ev[x->slot].time != x->time || q->ev[x->slot].seq != x->seq)
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
