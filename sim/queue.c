/* queue.c: the engine's pending-event queue (sim/ layer, internal): a
 * monotone multi-level radix queue of (time, seq) keys in pooled chunk
 * chains, over a pool of 64-byte event records. The design, its invariants
 * and its complexity are documented in queue.h.
 *
 * History: this replaced a pooled 4-ary min-heap whose operations each paid
 * two or three dependent cache misses once the heap (24 MB) and pool (64 MB)
 * outgrew the caches at 1M pending events (about 2 M events/s in
 * bench/bench_engine.c). Here the keys are appended and rescanned
 * sequentially, and the single random access per event (the record) is
 * prefetched a few events before it fires. */
#include "queue.h"

#include <stdlib.h>
#include <string.h>

#include "clustersim/base/xmalloc.h"

#define CS_SIM__QINITIAL 64
/* Compaction runs when dead keys exceed both the live ones and this. */
#define CS_SIM__QCOMPACT_MIN 4096u
/* Records are prefetched this many events ahead of the front of the run: at
 * some 50-100 ns of work per event, enough to cover a DRAM miss. */
#define CS_SIM__QLOOKAHEAD 16u
/* A run this short is sorted by insertion rather than by counting. */
#define CS_SIM__QSMALLRUN 16u
/* The run is refilled to at least this many keys when possible ... */
#define CS_SIM__QMINRUN 32u
/* ... taking whole buckets of at most this many keys without splitting. */
#define CS_SIM__QABSORB 64u

/* Where the settled minimum is (q->fstate). */
enum {
    CS_SIM__FUNKNOWN = 0,
    CS_SIM__FEARLY = 1,
    CS_SIM__FRUN = 2,
    CS_SIM__FBUCKET = 3
};

_Static_assert(sizeof(struct cs_sim__qrec) == 64,
               "a pool record is one cache line");
_Static_assert(sizeof(struct cs_sim__qkey) == 24, "a key is 24 bytes");
_Static_assert(CS_SIM__QDIGITS % 64 == 0, "bitmap words");

#if defined(__GNUC__)
#define CS_SIM__PREFETCH(p) __builtin_prefetch((p), 0, 3)
#define CS_SIM__LIKELY(x) __builtin_expect(!!(x), 1)
#define CS_SIM__UNLIKELY(x) __builtin_expect(!!(x), 0)
/* Leading / trailing zero bits of x != 0. */
static inline unsigned cs_sim__clz64(uint64_t x)
{
    return (unsigned)__builtin_clzll(x);
}
static inline unsigned cs_sim__ctz64(uint64_t x)
{
    return (unsigned)__builtin_ctzll(x);
}
#else
#define CS_SIM__PREFETCH(p) ((void)(p))
#define CS_SIM__LIKELY(x) (x)
#define CS_SIM__UNLIKELY(x) (x)
static inline unsigned cs_sim__clz64(uint64_t x)
{
    unsigned n = 0;
    while (!(x & ((uint64_t)1 << 63))) {
        x <<= 1;
        n++;
    }
    return n;
}
static inline unsigned cs_sim__ctz64(uint64_t x)
{
    unsigned n = 0;
    while (!(x & 1)) {
        x >>= 1;
        n++;
    }
    return n;
}
#endif

/* ---- keys ---------------------------------------------------------------- */

static inline bool cs_sim__qless(const struct cs_sim__qkey *a,
                                 const struct cs_sim__qkey *b)
{
    /* Bitwise, not short-circuit: no data-dependent branches. */
    return (a->time < b->time) | ((a->time == b->time) & (a->seq < b->seq));
}

/* Order-preserving map of a signed time to unsigned (flips the sign bit), so
 * digits compare like times. */
static inline uint64_t cs_sim__qu(cs_time t)
{
    return (uint64_t)t ^ ((uint64_t)1 << 63);
}

/* Level of time t relative to `last` (t >= last): the index of the highest
 * 8-bit digit in which they differ, 0 when equal. */
static inline unsigned cs_sim__qlevel(cs_time t, cs_time last)
{
    uint64_t x = (uint64_t)t ^ (uint64_t)last;
    return (63u - cs_sim__clz64(x | 1)) / CS_SIM__QDBITS;
}

static inline unsigned cs_sim__qdigit(cs_time t, unsigned level)
{
    return (unsigned)(cs_sim__qu(t) >> (level * CS_SIM__QDBITS)) &
           (CS_SIM__QDIGITS - 1);
}

static inline bool cs_sim__qlive(const struct cs_sim__queue *q,
                                 const struct cs_sim__qkey *k)
{
    return q->rec[k->slot].gen == k->gen;
}

/* ---- lifetime and pools -------------------------------------------------- */

void cs_sim__queue_init(struct cs_sim__queue *q)
{
    memset(q, 0, sizeof *q);
    for (unsigned l = 0; l < CS_SIM__QLEVELS; l++)
        for (unsigned d = 0; d < CS_SIM__QDIGITS; d++)
            q->b[l][d].head = q->b[l][d].tail = CS_SIM__QNONE;
    q->freechunk = CS_SIM__QNONE;
    q->free_head = CS_SIM__QNONE;
}

void cs_sim__queue_clear(struct cs_sim__queue *q)
{
    /* Drops every pending event but keeps the allocated arrays, so a reused
     * queue costs no allocation (and no page faults) in the next run. */
    for (unsigned l = 0; l < CS_SIM__QLEVELS; l++)
        for (unsigned d = 0; d < CS_SIM__QDIGITS; d++) {
            struct cs_sim__qbucket *b = &q->b[l][d];
            b->head = b->tail = CS_SIM__QNONE;
            b->hpos = b->tpos = b->count = 0;
            b->min = 0;
        }
    memset(q->bits, 0, sizeof q->bits);
    q->levels = 0;
    q->last = 0;
    q->nkeys = 0;
    q->live = 0;
    q->fstate = 0;
    q->fdigit = 0;
    q->ri = q->nrun = 0;
    q->nearly = 0;
    q->usedchunk = 0;
    q->freechunk = CS_SIM__QNONE;
    q->nfreechunk = 0;
    q->used = 0;
    q->free_head = CS_SIM__QNONE;
    q->next_seq = 0;
}

void cs_sim__queue_fini(struct cs_sim__queue *q)
{
    free(q->early);
    free(q->run);
    free(q->stage);
    free(q->chunk);
    free(q->cnext);
    free(q->rec);
    cs_sim__queue_init(q);
}

/* Doubles the record pool. Returns false when it is at its cap. */
static bool cs_sim__queue_grow(struct cs_sim__queue *q)
{
    size_t cap = q->cap ? (size_t)q->cap * 2 : CS_SIM__QINITIAL;
    if (cap > CS_SIM_MAX_PENDING)
        cap = CS_SIM_MAX_PENDING;
    if (cap <= q->cap)
        return false;
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
    q->cap = (uint32_t)cap;
    return true;
}

/* Returns a free slot (LIFO, so a just-freed, cache-hot record is reused
 * first), or CS_SIM__QNONE when full. */
static inline uint32_t cs_sim__slot_alloc(struct cs_sim__queue *q)
{
    if (q->free_head != CS_SIM__QNONE) {
        uint32_t s = q->free_head;
        q->free_head = q->rec[s].next;
        return s;
    }
    if (q->used == q->cap && !cs_sim__queue_grow(q))
        return CS_SIM__QNONE;
    q->rec[q->used].gen = 1;
    return q->used++;
}

static inline void cs_sim__slot_release(struct cs_sim__queue *q, uint32_t s)
{
    struct cs_sim__qrec *r = &q->rec[s];
    r->handler = -1;
    /* A new generation makes the id and the key of the freed event stale.
     * Skipping 0 keeps ids nonzero; a stale id or key can only match again
     * after 2^32 - 1 reuses of the same slot. */
    if (++r->gen == 0)
        r->gen = 1;
    r->next = q->free_head;
    q->free_head = s;
}

/* Makes sure `need` chunks can be allocated without moving the chunk array,
 * so callers may hold chunk pointers across cs_sim__chunk_alloc. */
static void cs_sim__chunk_reserve(struct cs_sim__queue *q, size_t need)
{
    size_t avail = (size_t)(q->capchunk - q->usedchunk) + q->nfreechunk;
    if (avail >= need)
        return;
    size_t cap = q->capchunk ? (size_t)q->capchunk : 16;
    while (cap - q->usedchunk + q->nfreechunk < need)
        cap *= 2;
    if (cap >= CS_SIM__QNONE) /* indices are uint32 with NONE reserved */
        cap = CS_SIM__QNONE - 1;
    if (cap - q->usedchunk + q->nfreechunk < need)
        q->chunk = cs_xmalloc(SIZE_MAX); /* reports and aborts */
    q->chunk = cs_xrealloc(q->chunk, cap, sizeof *q->chunk);
    q->cnext = cs_xrealloc(q->cnext, cap, sizeof *q->cnext);
    q->capchunk = (uint32_t)cap;
}

static inline uint32_t cs_sim__chunk_alloc(struct cs_sim__queue *q)
{
    if (q->freechunk != CS_SIM__QNONE) {
        uint32_t c = q->freechunk;
        q->freechunk = q->cnext[c];
        q->nfreechunk--;
        return c;
    }
    if (CS_SIM__UNLIKELY(q->usedchunk == q->capchunk))
        cs_sim__chunk_reserve(q, 1);
    return q->usedchunk++;
}

static inline void cs_sim__chunk_free(struct cs_sim__queue *q, uint32_t c)
{
    q->cnext[c] = q->freechunk;
    q->freechunk = c;
    q->nfreechunk++;
}

/* ---- buckets ------------------------------------------------------------- */

static inline void cs_sim__bucket_mark(struct cs_sim__queue *q, unsigned l,
                                       unsigned d)
{
    q->bits[l][d >> 6] |= (uint64_t)1 << (d & 63);
    q->levels |= 1u << l;
}

static inline void cs_sim__bucket_unmark(struct cs_sim__queue *q, unsigned l,
                                         unsigned d)
{
    uint64_t *w = q->bits[l];
    w[d >> 6] &= ~((uint64_t)1 << (d & 63));
    uint64_t any = 0;
    for (unsigned i = 0; i < CS_SIM__QDIGITS / 64; i++)
        any |= w[i];
    if (!any)
        q->levels &= ~(1u << l);
}

/* Lowest non-empty digit of level l, which must have one. */
static inline unsigned cs_sim__bucket_first(const struct cs_sim__queue *q,
                                            unsigned l)
{
    const uint64_t *w = q->bits[l];
    unsigned i = 0;
    while (!w[i])
        i++;
    return i * 64 + cs_sim__ctz64(w[i]);
}

/* Appends a copy of *k to bucket (l, d). May allocate a chunk. */
static inline void cs_sim__bucket_append(struct cs_sim__queue *q, unsigned l,
                                         unsigned d,
                                         const struct cs_sim__qkey *k)
{
    struct cs_sim__qbucket *b = &q->b[l][d];
    if (b->count == 0) {
        uint32_t c = cs_sim__chunk_alloc(q);
        b->head = b->tail = c;
        b->hpos = b->tpos = 0;
        b->min = k->time;
        cs_sim__bucket_mark(q, l, d);
    } else {
        if (b->tpos == CS_SIM__QCHUNK) {
            uint32_t c = cs_sim__chunk_alloc(q);
            q->cnext[b->tail] = c;
            b->tail = c;
            b->tpos = 0;
        }
        if (k->time < b->min)
            b->min = k->time;
    }
    q->chunk[b->tail].k[b->tpos++] = *k;
    b->count++;
}

/* Removes the first key of level-0 bucket d (which must have one). */
static inline void cs_sim__bucket_drop_front(struct cs_sim__queue *q,
                                             unsigned d)
{
    struct cs_sim__qbucket *b = &q->b[0][d];
    if (--b->count == 0) {
        cs_sim__chunk_free(q, b->head);
        b->head = b->tail = CS_SIM__QNONE;
        cs_sim__bucket_unmark(q, 0, d);
        return;
    }
    if (++b->hpos == CS_SIM__QCHUNK) {
        uint32_t next = q->cnext[b->head];
        cs_sim__chunk_free(q, b->head);
        b->head = next;
        b->hpos = 0;
    }
}

/* Grows *arr to hold at least n keys. */
static void cs_sim__keys_reserve(struct cs_sim__qkey **arr, uint32_t *cap,
                                 size_t n)
{
    if (n <= *cap)
        return;
    size_t c = *cap ? *cap : 64;
    while (c < n)
        c *= 2;
    *arr = cs_xrealloc(*arr, c, sizeof **arr);
    *cap = (uint32_t)c;
}

/* Appends the n staged keys to the run, sorted by time (stably: staged keys
 * are in seq order within each time). `level0`: they all share every digit
 * but the last, so a counting sort on that digit sorts them. */
static void cs_sim__run_append(struct cs_sim__queue *q, uint32_t n,
                               bool level0)
{
    cs_sim__keys_reserve(&q->run, &q->caprun, (size_t)q->nrun + n);
    const struct cs_sim__qkey *in = q->stage;
    struct cs_sim__qkey *out = q->run + q->nrun;
    if (n <= CS_SIM__QSMALLRUN || !level0) {
        for (uint32_t i = 0; i < n; i++) {
            struct cs_sim__qkey x = in[i];
            uint32_t j = i;
            for (; j > 0 && out[j - 1].time > x.time; j--)
                out[j] = out[j - 1];
            out[j] = x;
        }
    } else {
        uint32_t pos[CS_SIM__QDIGITS];
        memset(pos, 0, sizeof pos);
        for (uint32_t i = 0; i < n; i++)
            pos[cs_sim__qdigit(in[i].time, 0)]++;
        uint32_t sum = 0;
        for (unsigned d = 0; d < CS_SIM__QDIGITS; d++) {
            uint32_t c = pos[d];
            pos[d] = sum;
            sum += c;
        }
        for (uint32_t i = 0; i < n; i++)
            out[pos[cs_sim__qdigit(in[i].time, 0)]++] = in[i];
    }
    q->nrun += n;
}

/* Removes the front key of the run. */
static inline void cs_sim__run_advance(struct cs_sim__queue *q)
{
    if (++q->ri == q->nrun) {
        q->ri = q->nrun = 0;
        return;
    }
    /* Keep the records of the next events on their way into the cache. */
    uint32_t ahead = q->ri + CS_SIM__QLOOKAHEAD - 1;
    if (ahead < q->nrun)
        CS_SIM__PREFETCH(&q->rec[q->run[ahead].slot]);
}

/* Empties bucket (l, d), l > 0, the lowest non-empty bucket, whose keys all
 * follow the run's: a small bucket is sorted onto the end of the run and
 * its largest time becomes `last`; a big one is redistributed relative to
 * its minimum, which becomes `last`, its keys for level 0 going onto the end
 * of the run and the others to the (empty) levels 1 to l - 1. Either way
 * every other bucket keeps its place relative to the new `last`, since it
 * lies above (l, d). */
static void cs_sim__take_bucket(struct cs_sim__queue *q, unsigned l,
                                unsigned d)
{
    struct cs_sim__qbucket *src = &q->b[l][d];
    uint32_t c = src->head, tail = src->tail, tpos = src->tpos;
    uint32_t i = src->hpos, count = src->count;
    bool absorb = count <= CS_SIM__QABSORB;
    /* The targets need at most one chunk each beyond their share of the
     * keys; reserving that up front keeps the chunk pointers below valid. */
    size_t targets = (size_t)(l - 1) * CS_SIM__QDIGITS;
    if (!absorb)
        cs_sim__chunk_reserve(q, (size_t)count / CS_SIM__QCHUNK + 1 +
                                     (count < targets ? count : targets));
    cs_sim__keys_reserve(&q->stage, &q->capstage, count);
    const cs_time last = src->min;
    cs_time max = last;
    src->head = src->tail = CS_SIM__QNONE;
    src->count = src->hpos = src->tpos = 0;
    cs_sim__bucket_unmark(q, l, d);

    struct cs_sim__qkey *stage = q->stage;
    uint32_t nstage = 0;
    for (;;) {
        const struct cs_sim__qchunk *ch = &q->chunk[c];
        uint32_t n = c == tail ? tpos : CS_SIM__QCHUNK;
        if (c != tail) {
            /* Chunks of a big bucket were written long ago and are scattered:
             * start loading the next one while this one is processed. */
            const char *p = (const char *)&q->chunk[q->cnext[c]];
            for (size_t o = 0; o < sizeof *ch; o += 64)
                CS_SIM__PREFETCH(p + o);
        }
        if (absorb) {
            for (; i < n; i++) {
                stage[nstage++] = ch->k[i];
                if (ch->k[i].time > max)
                    max = ch->k[i].time;
            }
        } else {
            for (; i < n; i++) {
                const struct cs_sim__qkey *k = &ch->k[i];
                unsigned kl = cs_sim__qlevel(k->time, last);
                if (kl == 0)
                    stage[nstage++] = *k;
                else
                    cs_sim__bucket_append(q, kl, cs_sim__qdigit(k->time, kl),
                                          k);
            }
        }
        uint32_t next = q->cnext[c];
        /* Freed after reading, so the appends reuse it while it is hot. */
        cs_sim__chunk_free(q, c);
        if (c == tail)
            break;
        c = next;
        i = 0;
    }
    q->last = absorb ? max : last;
    cs_sim__run_append(q, nstage, !absorb);
}

/* Refills the run, which is empty like level 0 and the early heap, from the
 * lowest buckets until it holds CS_SIM__QMINRUN keys or nothing is left, so
 * that the records of the next events can be prefetched even when events
 * are sparse; then prefetches the first records. */
static void cs_sim__refill(struct cs_sim__queue *q)
{
    q->ri = q->nrun = 0;
    while (q->nrun < CS_SIM__QMINRUN && q->levels) {
        /* Level 0 stays empty: taking a bucket never fills it. */
        unsigned l = cs_sim__ctz64(q->levels);
        cs_sim__take_bucket(q, l, cs_sim__bucket_first(q, l));
    }
    uint32_t ahead =
        q->nrun < CS_SIM__QLOOKAHEAD ? q->nrun : CS_SIM__QLOOKAHEAD;
    for (uint32_t i = 0; i < ahead; i++)
        CS_SIM__PREFETCH(&q->rec[q->run[i].slot]);
}

/* ---- the early heap (keys below `last`) ---------------------------------- */

static void cs_sim__early_push(struct cs_sim__queue *q,
                               const struct cs_sim__qkey *k)
{
    if (q->nearly == q->capearly) {
        q->capearly = q->capearly ? q->capearly * 2 : 16;
        q->early = cs_xrealloc(q->early, q->capearly, sizeof *q->early);
    }
    struct cs_sim__qkey *h = q->early;
    uint32_t i = q->nearly++;
    while (i > 0) {
        uint32_t p = (i - 1) / 2;
        if (!cs_sim__qless(k, &h[p]))
            break;
        h[i] = h[p];
        i = p;
    }
    h[i] = *k;
}

static void cs_sim__early_sift_down(struct cs_sim__queue *q, uint32_t i)
{
    struct cs_sim__qkey *h = q->early;
    const uint32_t n = q->nearly;
    struct cs_sim__qkey x = h[i];
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && cs_sim__qless(&h[c + 1], &h[c]))
            c++;
        if (!cs_sim__qless(&h[c], &x))
            break;
        h[i] = h[c];
        i = c;
    }
    h[i] = x;
}

static void cs_sim__early_pop(struct cs_sim__queue *q)
{
    if (--q->nearly > 0) {
        q->early[0] = q->early[q->nearly];
        cs_sim__early_sift_down(q, 0);
    }
}

/* ---- operations ---------------------------------------------------------- */

/* The settled front key. */
static inline const struct cs_sim__qkey *
cs_sim__front(const struct cs_sim__queue *q)
{
    if (CS_SIM__LIKELY(q->fstate == CS_SIM__FRUN))
        return &q->run[q->ri];
    if (q->fstate == CS_SIM__FEARLY)
        return &q->early[0];
    const struct cs_sim__qbucket *b = &q->b[0][q->fdigit];
    return &q->chunk[b->head].k[b->hpos];
}

cs_event_id cs_sim__queue_push(struct cs_sim__queue *q, cs_time now,
                               cs_time t, int32_t handler,
                               const void *payload, size_t len)
{
    uint32_t s = cs_sim__slot_alloc(q);
    if (s == CS_SIM__QNONE)
        return CS_EVENT_NONE;
    struct cs_sim__qrec *r = &q->rec[s];
    r->handler = handler;
    r->len = (uint32_t)len;
    /* Zero the tail so stale bytes of an earlier event never leak into a
     * handler (and so output cannot depend on pool history). */
    memset(r->payload, 0, sizeof r->payload);
    if (len)
        memcpy(r->payload, payload, len);

    struct cs_sim__qkey k = {t, q->next_seq++, s, r->gen};
    if (q->nkeys == 0) {
        /* Nothing stored, not even dead keys: restart the radix from the
         * clock, a lower bound of every later push. */
        q->last = now;
        q->fstate = CS_SIM__FUNKNOWN;
    }
    q->nkeys++;
    q->live++;
    if (CS_SIM__LIKELY(t >= q->last)) {
        unsigned l = cs_sim__qlevel(t, q->last);
        unsigned d = cs_sim__qdigit(t, l);
        /* Only an earlier time can precede the settled front: at an equal
         * time the new key comes after it (larger seq). */
        if (l == 0 && q->fstate != CS_SIM__FUNKNOWN &&
            t < cs_sim__front(q)->time)
            q->fstate = CS_SIM__FUNKNOWN;
        cs_sim__bucket_append(q, l, d, &k);
    } else {
        cs_sim__early_push(q, &k);
        q->fstate = CS_SIM__FUNKNOWN;
    }
    return ((uint64_t)k.gen << 32) | s;
}

/* Brings the smallest live key to the front, dropping dead keys and
 * redistributing as needed, and records where it is in q->fstate (and
 * q->fdigit). Returns false when no event is pending. */
static bool cs_sim__settle(struct cs_sim__queue *q)
{
    if (CS_SIM__LIKELY(q->fstate != CS_SIM__FUNKNOWN))
        return true;
    for (;;) {
        /* The minimum is the smallest of the early heap's top, the run's
         * front and the first level-0 bucket's front, when any exists:
         * all three precede every key of the higher levels. */
        const struct cs_sim__qkey *best = NULL;
        uint32_t where = CS_SIM__FUNKNOWN, d = 0;
        if (CS_SIM__UNLIKELY(q->nearly > 0)) {
            if (!cs_sim__qlive(q, &q->early[0])) {
                cs_sim__early_pop(q);
                q->nkeys--;
                continue;
            }
            best = &q->early[0];
            where = CS_SIM__FEARLY;
        }
        if (CS_SIM__LIKELY(q->ri < q->nrun)) {
            const struct cs_sim__qkey *k = &q->run[q->ri];
            if (!cs_sim__qlive(q, k)) {
                cs_sim__run_advance(q);
                q->nkeys--;
                continue;
            }
            if (!best || cs_sim__qless(k, best)) {
                best = k;
                where = CS_SIM__FRUN;
            }
        }
        if (q->levels & 1u) {
            d = cs_sim__bucket_first(q, 0);
            const struct cs_sim__qbucket *b = &q->b[0][d];
            const struct cs_sim__qkey *k = &q->chunk[b->head].k[b->hpos];
            if (!cs_sim__qlive(q, k)) {
                cs_sim__bucket_drop_front(q, d);
                q->nkeys--;
                continue;
            }
            if (!best || cs_sim__qless(k, best)) {
                best = k;
                where = CS_SIM__FBUCKET;
            }
        }
        if (best) {
            q->fstate = where;
            q->fdigit = d;
            return true;
        }
        if (!q->levels)
            return false;
        cs_sim__refill(q);
    }
}

cs_time cs_sim__queue_peek_time(struct cs_sim__queue *q)
{
    if (!cs_sim__settle(q))
        return CS_TIME_MAX;
    return cs_sim__front(q)->time;
}

/* The smallest live key of a bucket (its first live one at level 0, where
 * keys are in order), or NULL. */
static const struct cs_sim__qkey *
cs_sim__bucket_min_live(const struct cs_sim__queue *q, unsigned l, unsigned d)
{
    const struct cs_sim__qbucket *b = &q->b[l][d];
    const struct cs_sim__qkey *best = NULL;
    uint32_t c = b->head, i = b->hpos;
    for (uint32_t left = b->count; left > 0; left--) {
        if (i == CS_SIM__QCHUNK) {
            c = q->cnext[c];
            i = 0;
        }
        const struct cs_sim__qkey *k = &q->chunk[c].k[i++];
        if (cs_sim__qlive(q, k) && (!best || cs_sim__qless(k, best))) {
            best = k;
            if (l == 0)
                break;
        }
    }
    return best;
}

cs_time cs_sim__queue_min_time(const struct cs_sim__queue *q)
{
    if (q->fstate != CS_SIM__FUNKNOWN)
        return cs_sim__front(q)->time;
    /* The smallest live key among the early heap, the run and the level-0
     * buckets (in digit order, so the first with a live key), as in
     * cs_sim__settle; failing those, the first higher bucket with one. */
    const struct cs_sim__qkey *best = NULL;
    for (uint32_t i = 0; i < q->nearly; i++)
        if (cs_sim__qlive(q, &q->early[i]) &&
            (!best || cs_sim__qless(&q->early[i], best)))
            best = &q->early[i];
    for (uint32_t i = q->ri; i < q->nrun; i++)
        if (cs_sim__qlive(q, &q->run[i])) {
            if (!best || cs_sim__qless(&q->run[i], best))
                best = &q->run[i];
            break;
        }
    for (unsigned l = 0; l < CS_SIM__QLEVELS; l++) {
        if (l > 0 && best)
            break;
        if (!(q->levels & (1u << l)))
            continue;
        for (unsigned d = 0; d < CS_SIM__QDIGITS; d++) {
            if (!(q->bits[l][d >> 6] & ((uint64_t)1 << (d & 63))))
                continue;
            const struct cs_sim__qkey *k = cs_sim__bucket_min_live(q, l, d);
            if (k) {
                if (!best || cs_sim__qless(k, best))
                    best = k;
                break;
            }
        }
    }
    return best ? best->time : CS_TIME_MAX; /* CS_TIME_MAX: only dead keys */
}

void cs_sim__queue_pop(struct cs_sim__queue *q, struct cs_event *out)
{
    if (!cs_sim__settle(q))
        return; /* empty: the caller checks cs_sim__queue_size first */
    const struct cs_sim__qkey *k = cs_sim__front(q);
    uint32_t s = k->slot;
    const struct cs_sim__qrec *r = &q->rec[s];
    out->time = k->time;
    out->seq = k->seq;
    out->id = ((uint64_t)k->gen << 32) | s;
    out->handler = r->handler;
    out->len = r->len;
    memcpy(out->payload, r->payload, sizeof out->payload);
    cs_sim__slot_release(q, s);
    if (CS_SIM__LIKELY(q->fstate == CS_SIM__FRUN))
        cs_sim__run_advance(q);
    else if (q->fstate == CS_SIM__FEARLY)
        cs_sim__early_pop(q);
    else
        cs_sim__bucket_drop_front(q, q->fdigit);
    q->fstate = CS_SIM__FUNKNOWN;
    q->nkeys--;
    q->live--;
}

bool cs_sim__queue_cancel(struct cs_sim__queue *q, cs_event_id id)
{
    uint32_t s = (uint32_t)(id & 0xffffffffu);
    uint32_t gen = (uint32_t)(id >> 32);
    if (s >= q->used)
        return false;
    const struct cs_sim__qrec *r = &q->rec[s];
    if (r->handler < 0 || r->gen != gen)
        return false;
    cs_sim__slot_release(q, s); /* its key is now dead */
    q->live--;
    q->fstate = CS_SIM__FUNKNOWN;
    uint64_t dead = q->nkeys - q->live;
    if (dead > q->live && dead > CS_SIM__QCOMPACT_MIN)
        cs_sim__queue_compact(q);
    return true;
}

/* Drops the dead keys of bucket (l, d) in place (a writer trailing the
 * reader along the same chain) and recomputes its minimum. */
static void cs_sim__bucket_compact(struct cs_sim__queue *q, unsigned l,
                                   unsigned d)
{
    struct cs_sim__qbucket *b = &q->b[l][d];
    uint32_t rc = b->head, ri = b->hpos;
    uint32_t wc = b->head, wi = 0, kept = 0;
    cs_time min = CS_TIME_MAX;
    for (uint32_t left = b->count; left > 0; left--) {
        if (ri == CS_SIM__QCHUNK) {
            rc = q->cnext[rc];
            ri = 0;
        }
        const struct cs_sim__qkey k = q->chunk[rc].k[ri++];
        if (!cs_sim__qlive(q, &k))
            continue;
        if (wi == CS_SIM__QCHUNK) {
            wc = q->cnext[wc];
            wi = 0;
        }
        q->chunk[wc].k[wi++] = k;
        kept++;
        if (k.time < min)
            min = k.time;
    }
    q->nkeys -= b->count - kept;
    if (kept == 0) {
        wc = CS_SIM__QNONE; /* free the whole chain below */
        rc = b->head;
    } else {
        rc = q->cnext[wc]; /* chunks after the writer's are surplus */
    }
    /* Free the surplus chunks: from rc up to and including the old tail. */
    if (kept == 0 || wc != b->tail) {
        for (;;) {
            uint32_t next = q->cnext[rc];
            bool end = rc == b->tail;
            cs_sim__chunk_free(q, rc);
            if (end)
                break;
            rc = next;
        }
    }
    if (kept == 0) {
        b->head = b->tail = CS_SIM__QNONE;
        b->count = b->hpos = b->tpos = 0;
        cs_sim__bucket_unmark(q, l, d);
        return;
    }
    b->tail = wc;
    b->tpos = wi;
    b->hpos = 0;
    b->count = kept;
    b->min = min;
}

void cs_sim__queue_compact(struct cs_sim__queue *q)
{
    for (unsigned l = 0; l < CS_SIM__QLEVELS; l++)
        for (unsigned w = 0; w < CS_SIM__QDIGITS / 64; w++) {
            uint64_t bits = q->bits[l][w];
            while (bits) {
                unsigned d = w * 64 + cs_sim__ctz64(bits);
                bits &= bits - 1;
                cs_sim__bucket_compact(q, l, d);
            }
        }
    uint32_t n = 0;
    for (uint32_t i = q->ri; i < q->nrun; i++)
        if (cs_sim__qlive(q, &q->run[i]))
            q->run[n++] = q->run[i];
    q->nkeys -= q->nrun - q->ri - n;
    q->ri = 0;
    q->nrun = n;
    n = 0;
    for (uint32_t i = 0; i < q->nearly; i++)
        if (cs_sim__qlive(q, &q->early[i]))
            q->early[n++] = q->early[i];
    q->nkeys -= q->nearly - n;
    q->nearly = n;
    for (uint32_t i = n / 2; i-- > 0;)
        cs_sim__early_sift_down(q, i);
    q->fstate = CS_SIM__FUNKNOWN;
}

/* ---- invariant check (tests) --------------------------------------------- */

bool cs_sim__queue_check(const struct cs_sim__queue *q)
{
    bool ok = true;
    uint64_t nkeys = 0, live = 0;
    struct cs_sim__qkey best = {CS_TIME_MAX, UINT64_MAX, 0, 0};
    struct cs_sim__qkey high = best; /* smallest key of levels >= 1 */
    /* How often each slot's live key was seen; chunk ownership. */
    unsigned char *seen = calloc((size_t)q->used + 1, 1);
    unsigned char *owned = calloc((size_t)q->usedchunk + 1, 1);
    if (!seen || !owned) {
        free(seen);
        free(owned);
        return false;
    }
    for (unsigned l = 0; l < CS_SIM__QLEVELS && ok; l++) {
        uint64_t any = 0;
        for (unsigned d = 0; d < CS_SIM__QDIGITS && ok; d++) {
            const struct cs_sim__qbucket *b = &q->b[l][d];
            bool bit = (q->bits[l][d >> 6] >> (d & 63)) & 1;
            any |= bit;
            if (bit != (b->count > 0)) {
                ok = false;
                break;
            }
            if (!b->count) {
                ok = b->head == CS_SIM__QNONE;
                continue;
            }
            uint32_t c = b->head, i = b->hpos;
            cs_time min = CS_TIME_MAX;
            uint64_t prev_seq = 0;
            if (c >= q->usedchunk || owned[c]++)
                ok = false;
            for (uint32_t left = b->count; left > 0 && ok; left--) {
                if (i == CS_SIM__QCHUNK) {
                    if (c == b->tail) {
                        ok = false;
                        break;
                    }
                    c = q->cnext[c];
                    i = 0;
                    if (c >= q->usedchunk || owned[c]++) {
                        ok = false;
                        break;
                    }
                }
                const struct cs_sim__qkey *k = &q->chunk[c].k[i++];
                if (k->time < q->last ||
                    cs_sim__qlevel(k->time, q->last) != l ||
                    cs_sim__qdigit(k->time, l) != d || k->slot >= q->used ||
                    (left != b->count && k->seq <= prev_seq))
                    ok = false;
                prev_seq = k->seq;
                if (k->time < min)
                    min = k->time;
                if (l > 0 && cs_sim__qless(k, &high))
                    high = *k;
                nkeys++;
                if (cs_sim__qlive(q, k)) {
                    live++;
                    if (seen[k->slot]++)
                        ok = false;
                    if (cs_sim__qless(k, &best))
                        best = *k;
                }
            }
            if (ok && (c != b->tail || i != b->tpos ||
                       (l > 0 && b->min != min) || (l == 0 && b->min > min)))
                ok = false;
        }
        if (ok && (any != 0) != ((q->levels >> l) & 1))
            ok = false;
    }
    /* The run: sorted, and before every key of levels >= 1. */
    if (q->ri > q->nrun || (q->ri == q->nrun && q->nrun != 0))
        ok = false;
    if (ok && q->nrun > 0 && !cs_sim__qless(&q->run[q->nrun - 1], &high))
        ok = false;
    for (uint32_t i = q->ri; i < q->nrun && ok; i++) {
        const struct cs_sim__qkey *k = &q->run[i];
        if (k->slot >= q->used ||
            (i > q->ri && !cs_sim__qless(&q->run[i - 1], k)))
            ok = false;
        nkeys++;
        if (cs_sim__qlive(q, k)) {
            live++;
            if (seen[k->slot]++)
                ok = false;
            if (cs_sim__qless(k, &best))
                best = *k;
        }
    }
    for (uint32_t i = 0; i < q->nearly && ok; i++) {
        const struct cs_sim__qkey *k = &q->early[i];
        if (k->time >= q->last || k->slot >= q->used ||
            (i > 0 && cs_sim__qless(k, &q->early[(i - 1) / 2])))
            ok = false;
        nkeys++;
        if (cs_sim__qlive(q, k)) {
            live++;
            if (seen[k->slot]++)
                ok = false;
            if (cs_sim__qless(k, &best))
                best = *k;
        }
    }
    /* Slots: live ones have a live key; the free list holds the rest. */
    uint64_t live_slots = 0;
    for (uint32_t s = 0; s < q->used && ok; s++)
        if (q->rec[s].handler >= 0) {
            live_slots++;
            ok = seen[s] == 1;
        } else {
            ok = seen[s] == 0;
        }
    uint64_t nfree = 0;
    for (uint32_t s = q->free_head; s != CS_SIM__QNONE && ok;
         s = q->rec[s].next)
        if (s >= q->used || q->rec[s].handler >= 0 || ++nfree > q->used)
            ok = false;
    for (uint32_t c = q->freechunk; c != CS_SIM__QNONE && ok; c = q->cnext[c])
        if (c >= q->usedchunk || owned[c]++)
            ok = false;
    for (uint32_t c = 0; c < q->usedchunk && ok; c++)
        ok = owned[c] == 1;
    ok = ok && nkeys == q->nkeys && live == q->live && live_slots == live &&
         nfree + live == q->used;
    /* A settled front is the smallest live key, and the const lookahead
     * finds the same time whether settled or not. */
    if (ok && q->fstate != CS_SIM__FUNKNOWN) {
        const struct cs_sim__qkey *f = cs_sim__front(q);
        ok = f->time == best.time && f->seq == best.seq;
    }
    if (ok && live > 0)
        ok = cs_sim__queue_min_time(q) == best.time;
    free(seen);
    free(owned);
    return ok;
}
