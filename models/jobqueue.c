/* jobqueue.c: the replay's queue of waiting jobs (models layer; see
 * sched_internal.h). Jobs are ordered by cs_sched__qcmp (priority, then the
 * shortest first under SJF, then submit time, then index) in a treap keyed
 * by that order with subtree sizes (the k-th job, for the backfill window),
 * and each job also sits in the treap of its shape class (whole GPUs,
 * slices, allowed groups) with the subtree minimum of its estimated run
 * time, so that a scheduling pass can ask "the next job of this shape after
 * job x that is no longer than D" in O(log n) instead of rescanning the
 * queue. Every operation is O(log n) expected: a node's treap priority is a
 * hash of its job index salted once per replay from the clock, so that no
 * trace can order its jobs to match the priorities and degenerate the trees
 * (a list of 10 million nodes would overflow the recursion). The salt
 * changes the trees' shape only: the order, and so every output, is the
 * keys'. Nodes are job indices; -1 is the empty tree. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "sched_internal.h"

#include "clustersim/base/xmalloc.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The order on the keys copied at insert (cs__keys): a waiting job's
 * priority, submit time and trace duration do not change while it waits,
 * and three compact arrays are kinder to the cache than the job records. */
static inline int cs__kcmp(const struct cs__sim *s, long a, long b)
{
    const struct cs__jq *q = &s->jq;
    if (q->kp[a] != q->kp[b])
        return q->kp[a] > q->kp[b] ? -1 : 1;
    if (q->sjf && q->kd[a] != q->kd[b])
        return q->kd[a] < q->kd[b] ? -1 : 1;
    if (q->ks[a] != q->ks[b])
        return q->ks[a] < q->ks[b] ? -1 : 1;
    return (a > b) - (a < b);
}

int cs_sched__qcmp(const struct cs__sim *s, long a, long b)
{
    const struct cs__job *x = &s->jobs[a], *y = &s->jobs[b];
    if (x->prio != y->prio)
        return x->prio > y->prio ? -1 : 1;
    if (s->cfg->policy == CS_SCHED_SJF) {
        double dx = s->tr->jobs[a].duration_s, dy = s->tr->jobs[b].duration_s;
        if (dx != dy)
            return dx < dy ? -1 : 1;
    }
    if (x->submit != y->submit)
        return x->submit < y->submit ? -1 : 1;
    return (a > b) - (a < b);
}

static uint32_t cs__hash(uint32_t x)
{
    /* a 32-bit integer hash (Chris Wellons' "lowbias32"): a fixed,
     * well-mixed treap priority per job index */
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

static inline uint32_t cs__pri(const struct cs__jq *q, int x)
{
    return cs__hash((uint32_t)x ^ q->salt);
}

void cs_sched__jq_init(struct cs__sim *s, long n_jobs)
{
    struct cs__jq *q = &s->jq;
    memset(q, 0, sizeof *q);
    size_t n = (size_t)n_jobs + 1;
    q->root = -1;
    q->gl = cs_xmalloc(n * sizeof *q->gl);
    q->gr = cs_xmalloc(n * sizeof *q->gr);
    q->gsz = cs_xmalloc(n * sizeof *q->gsz);
    q->cl = cs_xmalloc(n * sizeof *q->cl);
    q->cr = cs_xmalloc(n * sizeof *q->cr);
    q->cmn = cs_xmalloc(n * sizeof *q->cmn);
    q->est = cs_xmalloc(n * sizeof *q->est);
    q->cls = cs_xmalloc(n * sizeof *q->cls);
    q->kp = cs_xmalloc(n * sizeof *q->kp);
    q->ks = cs_xmalloc(n * sizeof *q->ks);
    q->kd = cs_xmalloc(n * sizeof *q->kd);
    q->cprev = cs_xmalloc(n * sizeof *q->cprev);
    q->cnext = cs_xmalloc(n * sizeof *q->cnext);
    q->sjf = s->cfg->policy == CS_SCHED_SJF;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    q->salt = (uint32_t)ts.tv_nsec ^ (uint32_t)((uintptr_t)q >> 4) ^ (uint32_t)ts.tv_sec * 2654435761u;
}

void cs_sched__jq_fini(struct cs__sim *s)
{
    struct cs__jq *q = &s->jq;
    free(q->gl);
    free(q->gr);
    free(q->gsz);
    free(q->cl);
    free(q->cr);
    free(q->cmn);
    free(q->est);
    free(q->cls);
    free(q->classes);
    free(q->stk);
    free(q->kp);
    free(q->ks);
    free(q->kd);
    free(q->cprev);
    free(q->cnext);
    memset(q, 0, sizeof *q);
}

/* ---- the order treap (sizes) ---- */

static int cs__gsz(const struct cs__jq *q, int t) { return t < 0 ? 0 : q->gsz[t]; }
static void cs__gfix(struct cs__jq *q, int t) { q->gsz[t] = 1 + cs__gsz(q, q->gl[t]) + cs__gsz(q, q->gr[t]); }

/* Splits t into *a (keys before x; with `incl`, x too) and *b (the rest). */
static void cs__gsplit(struct cs__sim *s, int t, long x, bool incl, int *a, int *b)
{
    struct cs__jq *q = &s->jq;
    if (t < 0) {
        *a = *b = -1;
        return;
    }
    int c = cs__kcmp(s, t, x);
    if (c < 0 || (incl && c == 0)) {
        cs__gsplit(s, q->gr[t], x, incl, &q->gr[t], b);
        *a = t;
    } else {
        cs__gsplit(s, q->gl[t], x, incl, a, &q->gl[t]);
        *b = t;
    }
    cs__gfix(q, t);
}

static int cs__gmerge(struct cs__jq *q, int a, int b)
{
    if (a < 0)
        return b;
    if (b < 0)
        return a;
    if (cs__pri(q, a) > cs__pri(q, b)) {
        q->gr[a] = cs__gmerge(q, q->gr[a], b);
        cs__gfix(q, a);
        return a;
    }
    q->gl[b] = cs__gmerge(q, a, q->gl[b]);
    cs__gfix(q, b);
    return b;
}

/* ---- the class treaps (subtree minimum of est) ---- */

static void cs__cfix(struct cs__jq *q, int t)
{
    cs_time m = q->est[t];
    if (q->cl[t] >= 0 && q->cmn[q->cl[t]] < m)
        m = q->cmn[q->cl[t]];
    if (q->cr[t] >= 0 && q->cmn[q->cr[t]] < m)
        m = q->cmn[q->cr[t]];
    q->cmn[t] = m;
}

static void cs__csplit(struct cs__sim *s, int t, long x, bool incl, int *a, int *b)
{
    struct cs__jq *q = &s->jq;
    if (t < 0) {
        *a = *b = -1;
        return;
    }
    int c = cs__kcmp(s, t, x);
    if (c < 0 || (incl && c == 0)) {
        cs__csplit(s, q->cr[t], x, incl, &q->cr[t], b);
        *a = t;
    } else {
        cs__csplit(s, q->cl[t], x, incl, a, &q->cl[t]);
        *b = t;
    }
    cs__cfix(q, t);
}

static int cs__cmerge(struct cs__jq *q, int a, int b)
{
    if (a < 0)
        return b;
    if (b < 0)
        return a;
    if (cs__pri(q, a) > cs__pri(q, b)) {
        q->cr[a] = cs__cmerge(q, q->cr[a], b);
        cs__cfix(q, a);
        return a;
    }
    q->cl[b] = cs__cmerge(q, a, q->cl[b]);
    cs__cfix(q, b);
    return b;
}

/* The class of job j's shape, created on first use. */
static int cs__class(struct cs__jq *q, const struct cs__job *j)
{
    for (int c = 0; c < q->nclass; c++)
        if (q->classes[c].whole == j->whole && q->classes[c].slices == j->slices &&
            q->classes[c].groups == j->groups)
            return c;
    if (q->nclass == q->capclass) {
        q->capclass = q->capclass ? 2 * q->capclass : 16;
        q->classes = cs_xrealloc(q->classes, (size_t)q->capclass, sizeof *q->classes);
    }
    struct cs__jq_class *k = &q->classes[q->nclass];
    memset(k, 0, sizeof *k);
    k->whole = j->whole;
    k->slices = j->slices;
    k->groups = j->groups;
    k->root = k->first = k->last = -1;
    return q->nclass++;
}

/* Insert x into the order treap t (x's fields set): descends to where x's
 * priority puts it, then splits the subtree there. */
static int cs__ginsert(struct cs__sim *s, int t, int x)
{
    struct cs__jq *q = &s->jq;
    if (t < 0)
        return x;
    if (cs__pri(q, x) > cs__pri(q, t)) {
        cs__gsplit(s, t, x, false, &q->gl[x], &q->gr[x]);
        cs__gfix(q, x);
        return x;
    }
    if (cs__kcmp(s, x, t) < 0)
        q->gl[t] = cs__ginsert(s, q->gl[t], x);
    else
        q->gr[t] = cs__ginsert(s, q->gr[t], x);
    cs__gfix(q, t);
    return t;
}

static int cs__gerase(struct cs__sim *s, int t, int x)
{
    struct cs__jq *q = &s->jq;
    assert(t >= 0);
    if (t == x)
        return cs__gmerge(q, q->gl[t], q->gr[t]);
    if (cs__kcmp(s, x, t) < 0)
        q->gl[t] = cs__gerase(s, q->gl[t], x);
    else
        q->gr[t] = cs__gerase(s, q->gr[t], x);
    cs__gfix(q, t);
    return t;
}

static int cs__cinsert(struct cs__sim *s, int t, int x)
{
    struct cs__jq *q = &s->jq;
    if (t < 0)
        return x;
    if (cs__pri(q, x) > cs__pri(q, t)) {
        cs__csplit(s, t, x, false, &q->cl[x], &q->cr[x]);
        cs__cfix(q, x);
        return x;
    }
    if (cs__kcmp(s, x, t) < 0)
        q->cl[t] = cs__cinsert(s, q->cl[t], x);
    else
        q->cr[t] = cs__cinsert(s, q->cr[t], x);
    cs__cfix(q, t);
    return t;
}

static int cs__cerase(struct cs__sim *s, int t, int x)
{
    struct cs__jq *q = &s->jq;
    assert(t >= 0);
    if (t == x)
        return cs__cmerge(q, q->cl[t], q->cr[t]);
    if (cs__kcmp(s, x, t) < 0)
        q->cl[t] = cs__cerase(s, q->cl[t], x);
    else
        q->cr[t] = cs__cerase(s, q->cr[t], x);
    cs__cfix(q, t);
    return t;
}

void cs_sched__jq_insert(struct cs__sim *s, long ji, cs_time est)
{
    struct cs__jq *q = &s->jq;
    int x = (int)ji;
    q->gl[x] = q->gr[x] = -1;
    q->gsz[x] = 1;
    q->cl[x] = q->cr[x] = -1;
    q->est[x] = q->cmn[x] = est;
    q->kp[x] = s->jobs[ji].prio;
    q->ks[x] = s->jobs[ji].submit;
    q->kd[x] = s->tr->jobs[ji].duration_s;
    q->root = cs__ginsert(s, q->root, x);
    int c = cs__class(q, &s->jobs[ji]);
    struct cs__jq_class *k = &q->classes[c];
    q->cls[x] = c;
    k->root = cs__cinsert(s, k->root, x);
    /* the class's list in queue order: x goes before its successor */
    int succ = -1;
    for (int t = k->root; t >= 0;) {
        if (cs__kcmp(s, t, x) > 0) {
            succ = t;
            t = q->cl[t];
        } else {
            t = q->cr[t];
        }
    }
    int pred = succ >= 0 ? q->cprev[succ] : k->last;
    q->cprev[x] = pred;
    q->cnext[x] = succ;
    if (pred >= 0)
        q->cnext[pred] = x;
    else
        k->first = x;
    if (succ >= 0)
        q->cprev[succ] = x;
    else
        k->last = x;
    k->n++;
    q->n++;
}

void cs_sched__jq_erase(struct cs__sim *s, long ji)
{
    struct cs__jq *q = &s->jq;
    q->root = cs__gerase(s, q->root, (int)ji);
    int c = q->cls[ji];
    struct cs__jq_class *k = &q->classes[c];
    k->root = cs__cerase(s, k->root, (int)ji);
    k->n--;
    q->n--;
    /* unlinked; cnext[ji] is kept: a pass goes on from it */
    int pred = q->cprev[ji], succ = q->cnext[ji];
    if (pred >= 0)
        q->cnext[pred] = succ;
    else
        k->first = succ;
    if (succ >= 0)
        q->cprev[succ] = pred;
    else
        k->last = pred;
}

long cs_sched__jq_first(const struct cs__sim *s)
{
    const struct cs__jq *q = &s->jq;
    int t = q->root;
    if (t < 0)
        return -1;
    while (q->gl[t] >= 0)
        t = q->gl[t];
    return t;
}

long cs_sched__jq_next(const struct cs__sim *s, long x)
{
    const struct cs__jq *q = &s->jq;
    int t = q->root, best = -1;
    while (t >= 0) {
        if (cs__kcmp(s, t, x) > 0) {
            best = t;
            t = q->gl[t];
        } else {
            t = q->gr[t];
        }
    }
    return best;
}

long cs_sched__jq_select(const struct cs__sim *s, long k)
{
    const struct cs__jq *q = &s->jq;
    int t = q->root;
    while (t >= 0) {
        int l = cs__gsz(q, q->gl[t]);
        if (k < l) {
            t = q->gl[t];
        } else if (k == l) {
            return t;
        } else {
            k -= l + 1;
            t = q->gr[t];
        }
    }
    return -1;
}

/* The first node of class tree t after x (x < 0: from the start) whose est
 * is at most dmax. */
static int cs__cfind(const struct cs__sim *s, int t, long x, cs_time dmax)
{
    const struct cs__jq *q = &s->jq;
    if (t < 0 || q->cmn[t] > dmax)
        return -1;
    if (x >= 0 && cs__kcmp(s, t, x) <= 0)
        return cs__cfind(s, q->cr[t], x, dmax);
    int r = cs__cfind(s, q->cl[t], x, dmax);
    if (r >= 0)
        return r;
    if (q->est[t] <= dmax)
        return t;
    return cs__cfind(s, q->cr[t], x, dmax);
}

long cs_sched__jq_class_next(const struct cs__sim *s, int c, long x, cs_time dmax)
{
    return cs__cfind(s, s->jq.classes[c].root, x, dmax);
}

/* ---- in-order iteration (an explicit stack of the nodes whose left
 * subtree holds the position: O(1) amortized per step) ---- */

static void cs__push(struct cs__jq *q, int t)
{
    if (q->nstk == q->capstk) {
        q->capstk = q->capstk ? 2 * q->capstk : 128;
        q->stk = cs_xrealloc(q->stk, (size_t)q->capstk, sizeof *q->stk);
    }
    q->stk[q->nstk++] = t;
}

long cs_sched__jq_seek(struct cs__sim *s, long x)
{
    struct cs__jq *q = &s->jq;
    q->nstk = 0;
    for (int t = q->root; t >= 0;) {
        if (x < 0 || cs__kcmp(s, t, x) > 0) {
            cs__push(q, t);
            t = q->gl[t];
        } else {
            t = q->gr[t];
        }
    }
    return q->nstk ? q->stk[q->nstk - 1] : -1;
}

long cs_sched__jq_step(struct cs__sim *s)
{
    struct cs__jq *q = &s->jq;
    if (q->nstk == 0)
        return -1;
    int u = q->stk[--q->nstk];
    for (int t = q->gr[u]; t >= 0; t = q->gl[t])
        cs__push(q, t);
    return q->nstk ? q->stk[q->nstk - 1] : -1;
}

long cs_sched__jq_class_after(const struct cs__sim *s, long x)
{
    return s->jq.cnext[x];
}

long cs_sched__jq_class_first(const struct cs__sim *s, int c)
{
    return s->jq.classes[c].first;
}
