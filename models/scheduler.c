/* scheduler.c: trace replay on a simulated cluster (models layer; see
 * include/clustersim/models/scheduler.h): the policies (FIFO, EASY
 * backfill, SJF, preemption) and the event loop. Two engine handlers,
 * arrival and finish, and one scheduling pass per distinct event time (a
 * "pass" event queued behind the others of that instant). Placement,
 * partitions, MIG slices and workload contention are in placement.c,
 * partitions.c, mig.c and contention.c (sched_internal.h). */
#include "sched_internal.h"
#include "clustersim/models/netmodel.h"

#include "clustersim/base/xmalloc.h"
#include "clustersim/models/cluster.h"

#include <assert.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


const char *const cs_sched_policy_names[] = {"fifo", "backfill", "sjf", NULL};
const char *const cs_sched_place_names[] = {"packed", "scattered", "bestfit", NULL};

const char *cs_sched_policy_name(enum cs_sched_policy p)
{
    return (unsigned)p < 3 ? cs_sched_policy_names[p] : "?";
}

cs_status cs_sched_policy_parse(const char *s, enum cs_sched_policy *out)
{
    for (int i = 0; s && i < 3; i++)
        if (strcmp(s, cs_sched_policy_names[i]) == 0) {
            *out = (enum cs_sched_policy)i;
            return CS_OK;
        }
    return CS_EINVAL;
}

const char *cs_sched_place_name(enum cs_sched_place p)
{
    return (unsigned)p < 3 ? cs_sched_place_names[p] : "?";
}

cs_status cs_sched_place_parse(const char *s, enum cs_sched_place *out)
{
    for (int i = 0; s && i < 3; i++)
        if (strcmp(s, cs_sched_place_names[i]) == 0) {
            *out = (enum cs_sched_place)i;
            return CS_OK;
        }
    if (s && strcmp(s, "best-fit") == 0) {
        *out = CS_SCHED_BESTFIT;
        return CS_OK;
    }
    return CS_EINVAL;
}

void cs_sched_config_default(struct cs_sched_config *c)
{
    memset(c, 0, sizeof *c);
    c->policy = CS_SCHED_FIFO;
    c->place = CS_SCHED_PACKED;
    c->backfill_depth = 1000;
    c->timeline_bins = 200;
    c->seed = 1;
}

/* ------------------------------------------------------------------------ */
/* Queue and running list.                                                   */

/* Job ji waits: into the queue (jobqueue.c), with the run time a pass
 * estimates for it (the trace's duration times its current factor). */
static void cs__enqueue(struct cs__sim *s, long ji)
{
    struct cs__job *j = &s->jobs[ji];
    cs_sched__jq_insert(s, ji, cs_time_from_s(s->tr->jobs[ji].duration_s * j->slowdown));
    s->qlen++;
    s->wait_slices += j->need;
    j->state = JS_QUEUED;
    if (s->qlen > s->qcap)
        s->qcap = s->qlen;
}

static int cs__rcmp(const struct cs__sim *s, long a, long b)
{
    const struct cs__job *x = &s->jobs[a], *y = &s->jobs[b];
    if (x->end != y->end)
        return x->end < y->end ? -1 : 1;
    return (a > b) - (a < b);
}

static long cs__rfind(const struct cs__sim *s, long ji)
{
    long lo = 0, hi = s->rlen;
    while (lo < hi) {
        long mid = (lo + hi) / 2;
        if (cs__rcmp(s, s->running[mid], ji) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static void cs__record(struct cs__sim *s)
{
    cs_time now = cs_sim_now(s->e);
    double alloc = (double)s->used_slices / S7;
    int np = s->cfg->n_partitions + 1;
    if (s->nchg > 0 && s->chg[s->nchg - 1].t == now) {
        s->nchg--;  /* several changes at one instant: keep the last */
    } else if (s->nchg == s->chgcap) {
        s->chgcap = s->chgcap ? 2 * s->chgcap : 4096;
        s->chg = cs_xrealloc(s->chg, (size_t)s->chgcap, sizeof *s->chg);
        s->part_chg = cs_xrealloc(s->part_chg, (size_t)s->chgcap * (size_t)np, sizeof *s->part_chg);
    }
    s->chg[s->nchg] = (struct cs__change){now, alloc, s->busy, (double)s->wait_slices / S7};
    for (int p = 0; p < np; p++)
        s->part_chg[s->nchg * np + p] = (double)s->part_used[p] / S7;
    s->nchg++;
}

static void cs__run_insert(struct cs__sim *s, long ji)
{
    long at = cs__rfind(s, ji);
    memmove(s->running + at + 1, s->running + at, (size_t)(s->rlen - at) * sizeof *s->running);
    s->running[at] = (int)ji;
    s->rlen++;
}

static void cs__run_remove(struct cs__sim *s, long ji)
{
    long at = cs__rfind(s, ji);
    assert(at < s->rlen && s->running[at] == ji);
    memmove(s->running + at, s->running + at + 1, (size_t)(s->rlen - at - 1) * sizeof *s->running);
    s->rlen--;
}

/* Running job ji changes its run-time factor to `slow` now: the wall time
 * left stretches by slow / old factor; its finish event moves. */
static void cs__retime(struct cs__sim *s, long ji, double slow)
{
    struct cs__job *j = &s->jobs[ji];
    if (fabs(slow - j->slowdown) <= 1e-12 * slow)
        return;
    cs_time now = cs_sim_now(s->e);
    cs__run_remove(s, ji);
    double left = (double)(j->end - now) * slow / j->slowdown;
    j->ran += now - j->seg_start;
    j->seg_start = now;
    j->remaining = (cs_time)llround(left);
    if (j->remaining < 1)
        j->remaining = 1;
    j->slowdown = slow;
    j->end = now + j->remaining;
    cs__run_insert(s, ji);
    cs_sim_cancel(s->e, j->fin);
    uint32_t payload = (uint32_t)ji;
    cs_status st = cs_sim_schedule_at(s->e, j->end, s->h_finish, &payload, sizeof payload, &j->fin);
    if (st != CS_OK)
        s->err = st;
}

/* Recomputes every running cross job's bandwidth share and retimes those
 * whose share changed (docs/replay.md, "Contention"): the jobs' rings
 * simulated together on the fabric by the flow model, the same round as
 * the step's network model (cs_net_ring_shares); the leaf-demand estimate
 * (cs_sched__job_share) only where the cluster has no fabric graph. */
static void cs__recontend(struct cs__sim *s)
{
    double *shares = NULL;
    if (s->cfg->fabric && s->nx > 0) {
        const int **rings = cs_xmalloc((size_t)s->nx * sizeof *rings);
        long *sizes = cs_xmalloc((size_t)s->nx * sizeof *sizes);
        for (long k = 0; k < s->nx; k++) {
            long ji = s->xjobs[k];
            rings[k] = s->gpu_list + s->gpu_off[ji];
            sizes[k] = s->jobs[ji].n_gpu;
        }
        shares = cs_xmalloc((size_t)s->nx * sizeof *shares);
        if (cs_net_ring_shares(s->cfg->fabric, rings, sizes, (int)s->nx, shares) != CS_OK) {
            free(shares);
            shares = NULL;
        }
        free(rings);
        free(sizes);
    }
    for (long k = 0; k < s->nx; k++) {
        long ji = s->xjobs[k];
        struct cs__job *j = &s->jobs[ji];
        double share = shares ? shares[k] : cs_sched__job_share(s, ji, s->leaf_dem);
        if (share < j->share_min)
            j->share_min = share;
        cs__retime(s, ji, cs_sched__wl_slowdown(s, ji, share));
    }
    free(shares);
}

static void cs__start(struct cs__sim *s, long ji, int g)
{
    struct cs__job *j = &s->jobs[ji];
    cs_time now = cs_sim_now(s->e);
    cs_sched__place(s, ji, g);
    if (j->first_start < 0)
        j->first_start = now;
    const struct cs_trace_job *tj = &s->tr->jobs[ji];
    bool recontend = false;
    if (tj->workload >= 0 && s->wl && g == 0) {
        if (j->step1_s == 0) {
            double t1 = cs_sched__wl_step(s, tj->workload, j->n_gpu, 1.0);
            j->step1_s = t1 > 0 ? t1 : -1;
            if (!(t1 > 0))
                s->wl_unfit++;
        }
        if (j->step1_s > 0 && s->geo.tiers > 1 && cs_sched__cross_edges(s, ji, s->leaf_dem, +1) > 0) {
            j->cross = true;
            s->xjobs[s->nx++] = (int)ji;
            recontend = true;
        }
        /* alone or in one leaf the job runs at share 1 until recontend says otherwise */
        j->remaining = (cs_time)llround((double)j->remaining / j->slowdown);
        j->slowdown = 1.0;
    }
    j->start = j->seg_start = now;
    j->end = now + j->remaining;
    j->state = JS_RUNNING;
    s->used_slices += j->need;
    s->part_used[j->part] += j->need;
    s->busy += j->busy;
    cs__run_insert(s, ji);
    uint32_t payload = (uint32_t)ji;
    cs_status st = cs_sim_schedule_at(s->e, j->end, s->h_finish, &payload, sizeof payload, &j->fin);
    if (st != CS_OK)
        s->err = st;
    if (recontend)
        cs__recontend(s);
}

/* Stops a running job (finish or eviction): frees its GPUs, and if its ring
 * crossed leaves, gives its uplink bandwidth back to the others. */
static void cs__stop(struct cs__sim *s, long ji)
{
    struct cs__job *j = &s->jobs[ji];
    cs__run_remove(s, ji);
    j->ran += cs_sim_now(s->e) - j->seg_start;
    j->seg_start = cs_sim_now(s->e);
    bool recontend = false;
    if (j->cross) {
        cs_sched__cross_edges(s, ji, s->leaf_dem, -1);
        for (long k = 0; k < s->nx; k++)
            if (s->xjobs[k] == ji) {
                s->xjobs[k] = s->xjobs[--s->nx];
                break;
            }
        j->cross = false;
        recontend = true;
    }
    cs_sched__release(s, ji);
    s->used_slices -= j->need;
    s->part_used[j->part] -= j->need;
    s->busy -= j->busy;
    if (recontend)
        cs__recontend(s);
}

/* Evicts lower-priority running jobs (lowest priority, latest start first)
 * until j fits; nothing is evicted unless enough capacity would come free.
 * Evicted jobs keep their progress (checkpoint-resume) and queue again. */
static int cs__preempt(struct cs__sim *s, long ji)
{
    struct cs__job *j = &s->jobs[ji];
    long avail = 0, n = 0;
    for (int g = 0; g < s->cfg->n_groups; g++)
        if (j->groups >> g & 1u)
            avail += j->whole ? s->grp_free_whole[g] * S7 : s->grp_free_slices[g];
    long *vict = cs_xmalloc((size_t)(s->rlen + 1) * sizeof *vict);
    for (long i = 0; i < s->rlen; i++) {
        const struct cs__job *r = &s->jobs[s->running[i]];
        if (r->prio < j->prio && (j->groups >> r->group & 1u)) {
            vict[n++] = s->running[i];
            avail += r->need;
        }
    }
    int g = -1;
    if (avail >= j->need && n > 0) {
        /* lowest priority first, then the most recently started */
        for (long i = 1; i < n; i++) {
            long v = vict[i], k = i;
            while (k > 0) {
                const struct cs__job *a = &s->jobs[vict[k - 1]], *b = &s->jobs[v];
                if (!(b->prio < a->prio || (b->prio == a->prio && b->start > a->start)))
                    break;
                vict[k] = vict[k - 1];
                k--;
            }
            vict[k] = v;
        }
        cs_time now = cs_sim_now(s->e);
        for (long i = 0; i < n && g < 0; i++) {
            long v = vict[i];
            struct cs__job *r = &s->jobs[v];
            cs_sim_cancel(s->e, r->fin);
            cs__stop(s, v);
            r->remaining = r->end - now;
            r->preempt++;
            cs__enqueue(s, v);
            g = cs_sched__fit_group(s, j);
        }
    }
    free(vict);
    return g;
}

/* EASY reservation for blocked job r: the earliest time, by the running
 * jobs' expected ends, when r fits by shape (a node with enough whole free
 * GPUs for a one-node job, a GPU with enough free slices for a MIG job,
 * enough whole free GPUs for a multi-node job, which takes them on any
 * nodes), and how many slices of its groups are spare then (counted in
 * slices; for a one-node job, *node is the node it waits for, which jobs
 * backfilled past the shadow time may not use; -1 otherwise).
 * Releases are replayed on lazily copied per-node and per-GPU counters:
 * O(GPUs released before the shadow time). */
static void cs__reserve(struct cs__sim *s, const struct cs__job *r, cs_time *shadow, long *extra, int *node)
{
    *node = -1;
    long avail = 0, fit = 0, whole = 0;
    int G = s->cfg->n_groups;
    bool multi = false;  /* a group where r spans nodes */
    bool single = false; /* a group where r fits in one node */
    for (int g = 0; g < G; g++) {
        if (!(r->groups >> g & 1u))
            continue;
        avail += r->whole ? s->grp_free_whole[g] * S7 : s->grp_free_slices[g];
        whole += s->grp_free_whole[g];
        multi = multi || (r->whole > cs__gpn(s, g));
        single = single || (r->whole <= cs__gpn(s, g));
        if (r->whole == 0)
            for (int k = r->slices; k <= S7; k++)
                fit += cs__gbs(s, g)[k];
        else if (r->whole <= cs__gpn(s, g))
            for (int k = r->whole; k <= cs__gpn(s, g); k++)
                fit += cs__nbf(s, g)[k];
    }
    *shadow = CS_TIME_MAX;
    *extra = 0;
    unsigned stamp = ++s->stamp;
    for (long i = 0; i < s->rlen; i++) {
        long xi = s->running[i];
        const struct cs__job *x = &s->jobs[xi];
        if (!(r->groups >> x->group & 1u))
            continue;
        avail += x->need;
        int g = x->group, gpn = cs__gpn(s, g), n0 = s->grp_node0[g];
        const int *list = s->gpu_list + s->gpu_off[xi];
        if (x->whole > 0 && r->whole > 0 && (r->whole > gpn || !single)) {
            whole += x->n_gpu;  /* whole GPUs back; no node of this group can hold r alone */
        } else
        for (int k = 0; k < x->n_gpu; k++) {
            int gp = list[k], v = n0 + (gp - s->node_gpu0[n0]) / gpn;
            if (s->gpu_stamp[gp] != stamp) {
                s->gpu_stamp[gp] = stamp;
                s->tmp_gpu[gp] = s->gpu_free[gp];
            }
            if (s->node_stamp[v] != stamp) {
                s->node_stamp[v] = stamp;
                s->tmp_node[v] = s->node_free[v];
            }
            int old = s->tmp_gpu[gp], now = old + x->slices;
            s->tmp_gpu[gp] = now;
            if (r->whole == 0 && old < r->slices && now >= r->slices)
                fit++;
            if (now == S7 && old < S7) {
                int nf = ++s->tmp_node[v];
                whole++;
                if (r->whole > 0 && r->whole <= gpn && nf == r->whole && fit++ == 0)
                    *node = v;
            }
        }
        bool fits = fit > 0 || (multi && whole >= r->whole);
        if (fits && avail >= r->need) {
            *shadow = x->end;
            *extra = avail - r->need;
            return;
        }
    }
}

/* True when, in a memo pass, a job of this shape is known not to fit (a job
 * of its kind no larger did not). */
static bool cs__memo_skip(int whole, int slices, int gpn0, int fail_single, int fail_multi,
                          int fail_slices)
{
    return whole == 0 ? slices >= fail_slices : whole <= gpn0 ? whole >= fail_single : whole >= fail_multi;
}

/* The indexed backfill pass's choice of the next job to look at: the
 * earliest (queue order) of the classes' next candidates, dropping the
 * classes that have none left or are known not to fit. -1: the pass ends. */
static long cs__pick(struct cs__sim *s, int *act, int *nact, int gpn0, int fs, int fm, int fsl)
{
    long best = -1;
    for (int i = 0; i < *nact;) {
        struct cs__jq_class *k = &s->jq.classes[act[i]];
        if (k->next < 0 || cs__memo_skip(k->whole, k->slices, gpn0, fs, fm, fsl)) {
            act[i] = act[--*nact];
            continue;
        }
        if (best < 0 || cs_sched__qcmp(s, k->next, best) < 0)
            best = k->next;
        i++;
    }
    return best;
}

/* One scheduling pass: the first backfill_depth waiting jobs in queue
 * order, each started when it fits (FIFO and SJF stop at the first that
 * does not; EASY backfill reserves for it and goes on with jobs that do
 * not delay it).
 *
 * Backfill on one node group without preemption (the common case, and the
 * one whose queue grows to millions on an overloaded trace) does not walk
 * the window job by job: within a pass capacity only shrinks, so every job
 * of a shape class (jobqueue.c) that the walk would look at after one of
 * its class failed the fit, or failed the reservation test while longer
 * than the shadow time allows, would be skipped with no effect. The pass
 * asks each class for its next candidate instead (its next job, or its
 * next job short enough to end by the shadow time) and takes the earliest:
 * the jobs started, their order and the reservation are those of the walk,
 * at O(classes + log n) per job looked at rather than O(window). */
static void cs__pass(struct cs__sim *s)
{
    bool have_res = false;
    cs_time shadow = 0;
    long extra = 0;
    uint32_t res_groups = 0;
    int res_node = -1;
    cs_time now = cs_sim_now(s->e);
    /* Within a pass free capacity only shrinks (without preemption), so on
     * one node group a job no smaller than one that did not fit does not
     * fit either (one-node, multi-node and MIG shapes kept apart): skip
     * the fit test for it. */
    bool memo = s->cfg->n_groups == 1 && !s->cfg->preempt;
    bool indexed = memo && s->cfg->policy == CS_SCHED_BACKFILL && !s->cfg->walk_queue;
    int gpn0 = s->cfg->groups[0].gpus_per_node;
    int fail_single = INT_MAX, fail_multi = INT_MAX, fail_slices = INT_MAX;
    long depth = s->cfg->backfill_depth;
    int *act = NULL, nact = 0;
    long ji;
    if (indexed) {
        /* the window: the first `depth` waiting jobs (no job joins the
         * queue during such a pass) */
        long wend = s->qlen > 0 ? cs_sched__jq_select(s, (s->qlen < depth ? s->qlen : depth) - 1) : -1;
        if (s->jq_actcap < s->jq.nclass) {
            s->jq_actcap = s->jq.nclass;
            s->jq_act = cs_xrealloc(s->jq_act, (size_t)s->jq_actcap, sizeof *s->jq_act);
        }
        act = s->jq_act;
        for (int c = 0; c < s->jq.nclass && wend >= 0; c++) {
            struct cs__jq_class *k = &s->jq.classes[c];
            k->long_out = false;
            k->next = cs_sched__jq_class_first(s, c);
            if (k->next >= 0 && cs_sched__qcmp(s, k->next, wend) <= 0)
                act[nact++] = c;
        }
        s->jq_wend = wend;
        ji = cs__pick(s, act, &nact, gpn0, fail_single, fail_multi, fail_slices);
    } else {
        ji = cs_sched__jq_seek(s, -1);
    }
    bool moved = false; /* the queue changed since the iterator's seek */
    long scanned = 0;
    while (ji >= 0 && scanned < depth) {
        struct cs__job *j = &s->jobs[ji];
        long cur = ji;
        s->examined++;
        bool long_out = false; /* indexed: j's class can start only jobs that end by the shadow time */
        scanned++;
        if (!cs_sched__quota_ok(s, j))
            goto next;
        if (memo && cs__memo_skip(j->whole, j->slices, gpn0, fail_single, fail_multi, fail_slices)) {
            if (s->cfg->policy != CS_SCHED_BACKFILL)
                break;
            goto next;  /* a reservation exists already: the first blocked job made it */
        }
        int g = cs_sched__fit_group(s, j);
        if (g < 0 && memo) {
            if (j->whole == 0)
                fail_slices = j->slices < fail_slices ? j->slices : fail_slices;
            else if (j->whole <= gpn0)
                fail_single = j->whole < fail_single ? j->whole : fail_single;
            else
                fail_multi = j->whole < fail_multi ? j->whole : fail_multi;
        }
        bool hidden = false;
        unsigned char saved[CS__MAX_GPN];
        if (g >= 0 && have_res && (res_groups >> g & 1u)) {
            cs_time est_end = now + cs_time_from_s(s->tr->jobs[ji].duration_s * j->slowdown);
            if (est_end > shadow) {
                if (j->need > extra) {
                    long_out = true; /* extra only shrinks: so do the class's later long jobs */
                    goto next;
                }
                if (res_node >= 0) {
                    /* keep the reserved node out of its reach: hide its GPUs while it is placed */
                    int gpn = cs__gpn(s, s->node_group[res_node]), g0 = s->node_gpu0[res_node];
                    for (int k = 0; k < gpn; k++) {
                        saved[k] = s->gpu_free[g0 + k];
                        cs_sched__gpu_set(s, res_node, g0 + k, 0);
                    }
                    hidden = true;
                    g = cs_sched__fit_group(s, j);
                }
                if (g >= 0)
                    extra -= j->need;
            }
        }
        if (hidden && g < 0) {
            int gpn = cs__gpn(s, s->node_group[res_node]), g0 = s->node_gpu0[res_node];
            for (int k = 0; k < gpn; k++)
                cs_sched__gpu_set(s, res_node, g0 + k, saved[k]);
            long_out = true; /* the capacity beside the reserved node only shrinks */
            goto next;
        }
        if (g < 0 && s->cfg->preempt && !have_res) {
            long q0 = s->qlen;
            g = cs__preempt(s, ji);
            moved = moved || s->qlen != q0; /* evicted jobs queued again */
        }
        if (g >= 0) {
            cs_sched__jq_erase(s, ji);
            moved = true;
            s->qlen--;
            s->wait_slices -= s->jobs[ji].need;
            cs__start(s, ji, g);
            if (hidden) {
                int gpn = cs__gpn(s, s->node_group[res_node]), g0 = s->node_gpu0[res_node];
                for (int k = 0; k < gpn; k++)
                    cs_sched__gpu_set(s, res_node, g0 + k, saved[k]);
            }
            goto next;
        }
        if (s->cfg->policy != CS_SCHED_BACKFILL)
            break;
        if (!have_res) {
            cs__reserve(s, j, &shadow, &extra, &res_node);
            res_groups = j->groups;
            have_res = true;
        }
    next:
        if (!indexed) {
            /* after a change, the job after cur by the key order (cur may
             * have left the queue: the order needs no position) */
            ji = moved ? cs_sched__jq_seek(s, cur) : cs_sched__jq_step(s);
            moved = false;
            continue;
        }
        {
            /* the class's next candidate: its next job (its list), or once
             * its long jobs are out, its next job short enough */
            int c = s->jq.cls[cur];
            struct cs__jq_class *k = &s->jq.classes[c];
            if (long_out)
                k->long_out = true;
            if (k->long_out)
                k->next = cs_sched__jq_class_next(s, c, cur, shadow - now);
            else
                k->next = cs_sched__jq_class_after(s, cur);
            moved = false;
            if (k->next >= 0 && cs_sched__qcmp(s, k->next, s->jq_wend) > 0)
                k->next = -1;
        }
        ji = cs__pick(s, act, &nact, gpn0, fail_single, fail_multi, fail_slices);
    }
    cs__record(s);
    double free_gpus = s->qlen > 0 ? (double)(s->total_slices - s->used_slices) / S7 : 0.0;
    cs_stat_timeavg_set(&s->frag, now, free_gpus);
}

static void cs__want_pass(struct cs__sim *s)
{
    if (s->pass_pending)
        return;
    s->pass_pending = true;
    cs_status st = cs_sim_schedule_in(s->e, 0, s->h_pass, NULL, 0, NULL);
    if (st != CS_OK)
        s->err = st;
}

/* Schedules the arrival event of the next submit time, if any. */
static void cs__next_arrival(struct cs__sim *s)
{
    if (s->arr_next >= s->arr_n)
        return;
    cs_status st = cs_sim_schedule_at(s->e, s->jobs[s->arr_order[s->arr_next]].submit, s->h_arrive,
                                      NULL, 0, NULL);
    if (st != CS_OK)
        s->err = st;
}

/* Every job submitted now, in trace order, joins the queue; then the next
 * submit time is scheduled. (Scheduling every arrival up front fired them
 * in the same order, each before any pass of its instant, but held one
 * queued event per job: 10^7 of them for a 10^7-job trace.) */
static void cs__on_arrive(cs_engine *e, const struct cs_event *ev, void *ctx)
{
    (void)ev;
    struct cs__sim *s = ctx;
    cs_time now = cs_sim_now(e);
    while (s->arr_next < s->arr_n && s->jobs[s->arr_order[s->arr_next]].submit == now)
        cs__enqueue(s, s->arr_order[s->arr_next++]);
    cs__next_arrival(s);
    cs__want_pass(s);
}

/* qsort order of accepted jobs: submit time, then trace index. */
struct cs__arr_key {
    cs_time t;
    uint32_t i;
};
static int cs__arr_cmp(const void *a, const void *b)
{
    const struct cs__arr_key *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

static void cs__on_finish(cs_engine *e, const struct cs_event *ev, void *ctx)
{
    struct cs__sim *s = ctx;
    uint32_t ji;
    memcpy(&ji, ev->payload, sizeof ji);
    cs__stop(s, ji);
    struct cs__job *j = &s->jobs[ji];
    j->state = JS_DONE;
    j->remaining = 0;
    j->end = cs_sim_now(e);
    s->n_ended++;
    if (s->cfg->progress && (s->n_ended & 1023) == 0)
        s->cfg->progress(s->cfg->progress_ctx, (uint64_t)s->n_ended, (uint64_t)s->n_jobs);
    cs__want_pass(s);
}

static void cs__on_pass(cs_engine *e, const struct cs_event *ev, void *ctx)
{
    (void)e;
    (void)ev;
    struct cs__sim *s = ctx;
    s->pass_pending = false;
    cs__pass(s);
}

/* ------------------------------------------------------------------------ */
/* Setup, run, results.                                                      */

static cs_status cs__check(const struct cs_sched_config *c, cs_diags *d)
{
    int bad = 0;
    if (c->n_groups < 1 || c->n_groups > CS_SCHED_MAX_GROUPS) {
        cs_diag_error(d, NULL, 0, 0, "replay: the cluster needs 1 to %d node groups, got %d",
                      CS_SCHED_MAX_GROUPS, c->n_groups);
        return CS_EINVAL;
    }
    long gpus = 0;
    for (int g = 0; g < c->n_groups; g++) {
        if (c->groups[g].nodes < 1 || c->groups[g].nodes > 1000000 || c->groups[g].gpus_per_node < 1 ||
            c->groups[g].gpus_per_node > CS__MAX_GPN) {
            cs_diag_error(d, NULL, 0, 0, "replay: node group %d (%s): expected 1..1000000 nodes of "
                          "1..%d GPUs, got %d x %d", g, c->groups[g].gpu_type, CS__MAX_GPN,
                          c->groups[g].nodes, c->groups[g].gpus_per_node);
            bad = 1;
        }
        gpus += (long)c->groups[g].nodes * c->groups[g].gpus_per_node;
    }
    if (gpus > 4000000) {
        cs_diag_error(d, NULL, 0, 0, "replay: %ld GPUs is more than the replay supports (4,000,000)", gpus);
        bad = 1;
    }
    if (c->n_partitions < 0 || c->n_partitions > CS_SCHED_MAX_PARTITIONS) {
        cs_diag_error(d, NULL, 0, 0, "replay: at most %d partitions", CS_SCHED_MAX_PARTITIONS);
        return CS_EINVAL;
    }
    if (!cs_sched__check_quotas(c, d))
        bad = 1;
    if (c->backfill_depth < 1 || c->timeline_bins < 1 || c->timeline_bins > 100000 ||
        c->mig_slices < 0 || c->mig_slices > CS_SCHED_MIG_SLICES) {
        cs_diag_error(d, NULL, 0, 0, "replay: backfill depth >= 1, 1..100000 timeline bins and 0..%d MIG "
                      "slices per GPU are required", CS_SCHED_MIG_SLICES);
        bad = 1;
    }
    if (c->fabric && (long)cs_fabric_gpus(c->fabric) !=
                         (long)c->groups[0].nodes * c->groups[0].gpus_per_node) {
        cs_diag_error(d, NULL, 0, 0, "replay: the fabric has %d GPUs but node group 0 has %ld",
                      cs_fabric_gpus(c->fabric), (long)c->groups[0].nodes * c->groups[0].gpus_per_node);
        bad = 1;
    }
    return bad ? CS_EINVAL : CS_OK;
}

static void cs__summary(struct cs_stat_sample *x, struct cs_sched_summary *o)
{
    o->mean = o->p50 = o->p95 = NAN;
    if (cs_stat_sample_count(x) == 0)
        return;
    o->mean = cs_stat_sample_mean(x);
    cs_stat_sample_quantile(x, 0.5, &o->p50);
    cs_stat_sample_quantile(x, 0.95, &o->p95);
}

static void cs__free_sim(struct cs__sim *s)
{
    free(s->node_group);
    free(s->node_leaf);
    free(s->node_free);
    free(s->node_gpu0);
    free(s->gpu_free);
    free(s->grp_node0);
    free(s->nodes_by_free);
    free(s->gpus_by_slices);
    free(s->leaf_free);
    free(s->part_used);
    free(s->jobs);
    free(s->arr_order);
    free(s->gpu_list);
    free(s->gpu_off);
    cs_sched__jq_fini(s);
    free(s->jq_act);
    free(s->running);
    free(s->chg);
    free(s->part_chg);
    free(s->scratch);
    free(s->scratch2);
    free(s->leaf_dem);
    free(s->xjobs);
    free(s->gpu_stamp);
    free(s->node_stamp);
    free(s->tmp_node);
    free(s->tmp_gpu);
    free(s->wl);
    free(s->wcache);
    if (s->rng)
        gsl_rng_free(s->rng);
    cs_sim_destroy(s->e);
}

/* Builds the timeline bins from the change points (piecewise constant). */
static void cs__timeline(struct cs__sim *s, cs_time t0, cs_time t1, struct cs_sched_result *r)
{
    int nb = s->cfg->timeline_bins, np = s->cfg->n_partitions + 1;
    r->n_bins = nb;
    r->t_s = cs_xcalloc((size_t)nb, sizeof *r->t_s);
    r->alloc_gpus = cs_xcalloc((size_t)nb, sizeof *r->alloc_gpus);
    r->busy_gpus = cs_xcalloc((size_t)nb, sizeof *r->busy_gpus);
    r->part_gpus = cs_xcalloc((size_t)nb * (size_t)np, sizeof *r->part_gpus);
    r->wait_gpus = cs_xcalloc((size_t)nb, sizeof *r->wait_gpus);
    double span = cs_time_to_s(t1 - t0);
    if (!(span > 0))
        span = 1;
    r->bin_s = span / nb;
    for (int b = 0; b < nb; b++)
        r->t_s[b] = b * r->bin_s;
    for (long i = 0; i < s->nchg; i++) {
        double a = cs_time_to_s(s->chg[i].t - t0);
        double z = i + 1 < s->nchg ? cs_time_to_s(s->chg[i + 1].t - t0) : span;
        if (z > span)
            z = span;
        while (a < z) {
            int b = (int)(a / r->bin_s);
            while (b < nb && (b + 1) * r->bin_s <= a)  /* rounding put a on an edge */
                b++;
            if (b >= nb)
                break;
            double edge = (b + 1) * r->bin_s, e = z < edge ? z : edge, w = (e - a) / r->bin_s;
            r->alloc_gpus[b] += w * s->chg[i].alloc;
            r->busy_gpus[b] += w * s->chg[i].busy;
            r->wait_gpus[b] += w * s->chg[i].wait;
            for (int p = 0; p < np; p++)
                r->part_gpus[(long)b * np + p] += w * s->part_chg[i * np + p];
            if (e <= a)
                break;
            a = e;
        }
    }
}

cs_status cs_sched_run(const struct cs_sched_config *cfg, const struct cs_trace *t, cs_diags *d,
                       struct cs_sched_result *out)
{
    cs_status st = cs__check(cfg, d);
    if (st != CS_OK)
        return st;
    /* The importer keeps only finite submit times and positive durations
     * (jobs.h); a trace built otherwise is a caller's error, refused here
     * rather than converted to 0 s by the engine's clock. */
    for (size_t i = 0; i < t->n; i++)
        if (!isfinite(t->jobs[i].submit_s) || !isfinite(t->jobs[i].duration_s) || !(t->jobs[i].duration_s >= 0)) {
            cs_diag_error(d, t->file, (int)t->jobs[i].line, 0,
                          "replay: job \"%s\": submit time %g s and duration %g s must be finite, the duration "
                          ">= 0",
                          t->jobs[i].id, t->jobs[i].submit_s, t->jobs[i].duration_s);
            return CS_EINVAL;
        }
    struct cs__sim s;
    memset(&s, 0, sizeof s);
    s.cfg = cfg;
    s.tr = t;
    s.d = d;
    s.S = cfg->mig_slices > 0 ? cfg->mig_slices : CS_SCHED_MIG_SLICES;
    /* workloads: each name must be a model preset */
    if (t->workloads.n > 0) {
        if (!cfg->fabric)
            cs_diag_add(d, CS_SEV_WARNING, t->file, 0, 0,
                        "replay: jobs name workloads but the cluster has no fabric: trace durations used");
        else {
            s.wl = cs_xcalloc(t->workloads.n, sizeof *s.wl);
            for (size_t w = 0; w < t->workloads.n; w++)
                if (cs_workload_preset(t->workloads.names[w], &s.wl[w]) != CS_OK) {
                    long line = 0;
                    for (size_t i = 0; i < t->n && !line; i++)
                        if (t->jobs[i].workload == (int)w)
                            line = t->jobs[i].line;
                    cs_diag_error(d, t->file, (int)line, 0,
                                  "workload \"%s\" is not a model preset (see 'clustersim catalog')",
                                  t->workloads.names[w]);
                    st = CS_EINVAL;
                }
            if (st != CS_OK) {
                free(s.wl);
                return st;
            }
        }
    }
    /* cluster */
    int G = cfg->n_groups;
    s.grp_node0 = cs_xcalloc((size_t)G + 1, sizeof *s.grp_node0);
    for (int g = 0; g < G; g++) {
        s.grp_node0[g] = s.n_nodes;
        s.n_nodes += cfg->groups[g].nodes;
    }
    s.grp_node0[G] = s.n_nodes;
    s.node_group = cs_xmalloc((size_t)s.n_nodes * sizeof *s.node_group);
    s.node_leaf = cs_xmalloc((size_t)s.n_nodes * sizeof *s.node_leaf);
    s.node_free = cs_xmalloc((size_t)s.n_nodes * sizeof *s.node_free);
    s.node_gpu0 = cs_xmalloc((size_t)s.n_nodes * sizeof *s.node_gpu0);
    s.scratch = cs_xmalloc((size_t)s.n_nodes * sizeof *s.scratch);
    s.scratch2 = cs_xmalloc((size_t)s.n_nodes * sizeof *s.scratch2);
    s.nodes_by_free = cs_xcalloc((size_t)G * (CS__MAX_GPN + 1), sizeof *s.nodes_by_free);
    s.gpus_by_slices = cs_xcalloc((size_t)G * (s.S + 1), sizeof *s.gpus_by_slices);
    int npl = cfg->nodes_per_leaf > 0 ? cfg->nodes_per_leaf : 16;
    for (int g = 0; g < G; g++) {
        int gpn = cfg->groups[g].gpus_per_node;
        for (int k = 0; k < cfg->groups[g].nodes; k++) {
            int v = s.grp_node0[g] + k;
            s.node_group[v] = g;
            s.node_gpu0[v] = s.n_gpus;
            s.node_free[v] = gpn;
            if (g == 0 && cfg->fabric && cfg->nodes_per_leaf <= 0)
                s.node_leaf[v] = cs_fabric_leaf_of(cfg->fabric, s.n_gpus);
            else
                s.node_leaf[v] = s.n_leaves + k / npl;
            s.n_gpus += gpn;
        }
        int maxleaf = s.n_leaves;
        for (int k = 0; k < cfg->groups[g].nodes; k++)
            if (s.node_leaf[s.grp_node0[g] + k] + 1 > maxleaf)
                maxleaf = s.node_leaf[s.grp_node0[g] + k] + 1;
        s.n_leaves = maxleaf;
        cs__nbf(&s, g)[gpn] = cfg->groups[g].nodes;
        cs__gbs(&s, g)[s.S] = (long)cfg->groups[g].nodes * gpn;
        s.grp_free_whole[g] = (long)cfg->groups[g].nodes * gpn;
        s.grp_free_slices[g] = s.grp_free_whole[g] * s.S;
        s.grp_total_slices[g] = s.grp_free_slices[g];
        s.total_slices += s.grp_free_slices[g];
    }
    s.gpu_free = cs_xmalloc((size_t)s.n_gpus);
    memset(s.gpu_free, s.S, (size_t)s.n_gpus);
    s.leaf_free = cs_xcalloc((size_t)s.n_leaves + 1, sizeof *s.leaf_free);
    s.gpu_stamp = cs_xcalloc((size_t)s.n_gpus + 1, sizeof *s.gpu_stamp);
    s.node_stamp = cs_xcalloc((size_t)s.n_nodes + 1, sizeof *s.node_stamp);
    s.tmp_node = cs_xcalloc((size_t)s.n_nodes + 1, sizeof *s.tmp_node);
    s.tmp_gpu = cs_xcalloc((size_t)s.n_gpus + 1, sizeof *s.tmp_gpu);
    s.leaf_dem = cs_xcalloc((size_t)s.n_leaves + 1, sizeof *s.leaf_dem);
    if (cfg->fabric) {
        const struct cs_cluster_cfg *fc = cs_fabric_cluster(cfg->fabric);
        if (cs_fabric_geometry(fc, &s.geo) != CS_OK)
            s.geo.tiers = 1;  /* no uplink model: shares stay 1 */
        s.ports_per_node = s.geo.rail ? 1 : cs_cluster_ports_per_node(fc);
    }
    for (int v = 0; v < s.n_nodes; v++)
        s.leaf_free[s.node_leaf[v]] += s.node_free[v];
    int NP = cfg->n_partitions;
    s.part_used = cs_xcalloc((size_t)NP + 1, sizeof *s.part_used);
    /* jobs */
    s.n_jobs = (long)t->n;
    s.jobs = cs_xcalloc((size_t)s.n_jobs + 1, sizeof *s.jobs);
    s.gpu_off = cs_xmalloc(((size_t)s.n_jobs + 1) * sizeof *s.gpu_off);
    cs_sched__jq_init(&s, s.n_jobs);
    s.running = cs_xmalloc(((size_t)s.n_jobs + 1) * sizeof *s.running);
    s.xjobs = cs_xmalloc(((size_t)s.n_jobs + 1) * sizeof *s.xjobs);
    /* trace partitions and GPU types: as many as the trace interned */
    int *part_of_trace = cs_sched__partition_map(cfg, t);
    size_t ntp = t->partitions.n;
    uint32_t *type_mask = cs_sched__type_masks(cfg, t);
    size_t ntt = t->gpu_types.n;
    uint32_t all = G >= 32 ? 0xffffffffu : (1u << G) - 1;
    double t_first = t->n ? t->jobs[0].submit_s : 0;
    long off = 0;
    for (long i = 0; i < s.n_jobs; i++) {
        const struct cs_trace_job *tj = &t->jobs[i];
        struct cs__job *j = &s.jobs[i];
        if (tj->submit_s < t_first)
            t_first = tj->submit_s;
        j->first_start = -1;
        j->slowdown = 1.0;
        j->share_min = 1.0;
        j->remaining = cs_time_from_s(tj->duration_s);
        if (j->remaining < 1)
            j->remaining = 1;
        cs_sched__job_shape(s.S, cfg->mig, tj->gpus, j);
        j->busy = tj->gpus;
        cs_sched__assign_partition(cfg, part_of_trace, ntp, tj, j);
        j->groups = tj->gpu_type >= 0 && (size_t)tj->gpu_type < ntt ? type_mask[tj->gpu_type] : all;
        s.gpu_off[i] = off;
        off += j->whole ? j->whole : 1;
    }
    free(part_of_trace);
    free(type_mask);
    s.gpu_off[s.n_jobs] = off;
    s.gpu_list = cs_xmalloc(((size_t)off + 1) * sizeof *s.gpu_list);
    /* engine */
    s.e = cs_sim_create(cfg->seed);
    s.rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(s.rng, (unsigned long)cfg->seed);
    s.h_arrive = cs_sim_register(s.e, "replay.arrive", cs__on_arrive, &s);
    s.h_finish = cs_sim_register(s.e, "replay.finish", cs__on_finish, &s);
    s.h_pass = cs_sim_register(s.e, "replay.pass", cs__on_pass, &s);
    cs_stat_timeavg_init(&s.frag, 0, 0);
    bool warned_type = false, warned_size = false;
    s.arr_order = cs_xmalloc(((size_t)s.n_jobs + 1) * sizeof *s.arr_order);
    s.arr_n = s.arr_next = 0;
    for (long i = 0; i < s.n_jobs; i++) {
        struct cs__job *j = &s.jobs[i];
        const struct cs_trace_job *tj = &t->jobs[i];
        j->submit = cs_time_from_s(tj->submit_s - t_first);
        /* could it ever fit? */
        bool ever = false;
        for (int g = 0; g < G && !ever; g++) {
            if (!(j->groups >> g & 1u))
                continue;
            long cap = (long)cfg->groups[g].nodes * cfg->groups[g].gpus_per_node;
            ever = j->whole == 0 || (j->whole <= cfg->groups[g].gpus_per_node) || j->whole <= cap;
            if (!cs_sched__quota_ever(cfg, j, s.total_slices))
                ever = false;
        }
        if (!ever) {
            j->state = JS_REJECTED;
            if (j->groups == 0) {
                s.rejected_type++;
                if (!warned_type)
                    cs_diag_add(d, CS_SEV_WARNING, t->file, (int)tj->line, 0,
                                "job %s asks for GPU type \"%s\", which the cluster does not have: "
                                "rejected (and any others like it)", tj->id, t->gpu_types.names[tj->gpu_type]);
                warned_type = true;
            } else {
                s.rejected_size++;
                if (!warned_size)
                    cs_diag_add(d, CS_SEV_WARNING, t->file, (int)tj->line, 0,
                                "job %s asks for %g GPUs, more than its GPU type or partition quota "
                                "holds: rejected (and any others like it)", tj->id, tj->gpus);
                warned_size = true;
            }
            continue;
        }
        s.arr_order[s.arr_n++] = (uint32_t)i;
    }
    /* the accepted jobs by submit time (a trace is usually in that order
     * already: then nothing is sorted) */
    bool sorted = true;
    for (long k = 1; k < s.arr_n && sorted; k++)
        sorted = s.jobs[s.arr_order[k - 1]].submit <= s.jobs[s.arr_order[k]].submit;
    if (!sorted) {
        struct cs__arr_key *k = cs_xmalloc((size_t)s.arr_n * sizeof *k);
        for (long a = 0; a < s.arr_n; a++)
            k[a] = (struct cs__arr_key){s.jobs[s.arr_order[a]].submit, s.arr_order[a]};
        qsort(k, (size_t)s.arr_n, sizeof *k, cs__arr_cmp);
        for (long a = 0; a < s.arr_n; a++)
            s.arr_order[a] = k[a].i;
        free(k);
    }
    cs__next_arrival(&s);
    if (s.err != CS_OK)
        st = s.err;
    /* Budgets (sim.h): a replay fires an arrival, a finish and at most two
     * passes per job, plus a finish per preemption; 64 per job is far more
     * than a replay needs and bounds a hostile trace. */
    uint64_t max_events = cfg->max_events ? cfg->max_events : 64 * ((uint64_t)s.n_jobs + 1) + 1000000;
    cs_sim_set_limits(s.e, max_events, cfg->max_wall_s);
    s.n_ended = s.rejected_type + s.rejected_size;
    if (cfg->progress)
        cfg->progress(cfg->progress_ctx, (uint64_t)s.n_ended, (uint64_t)s.n_jobs);
    if (st == CS_OK)
        st = cs_sim_run(s.e, CS_SIM_FOREVER);
    if (st == CS_OK && s.err != CS_OK)
        st = s.err;
    if (st == CS_EBUDGET) {
        cs_diag_error(d, NULL, 0, 0, "replay: did not complete: it reached its budget of %llu events or "
                      "%.0f s of wall time at simulated time %.0f s (%ld jobs waiting); no figures",
                      (unsigned long long)max_events,
                      cfg->max_wall_s > 0 ? cfg->max_wall_s : CS_SIM_DEFAULT_MAX_WALL_S,
                      cs_time_to_s(cs_sim_now(s.e)), s.qlen);
        cs__free_sim(&s);
        return st;
    }
    if (st != CS_OK) {
        cs_diag_error(d, NULL, 0, 0, "replay: the engine failed: %s", cs_strerror(st));
        cs__free_sim(&s);
        return st;
    }
    /* results */
    struct cs_sched_result r;
    memset(&r, 0, sizeof r);
    r.gpus = s.n_gpus;
    r.jobs = s.n_jobs;
    r.rejected = s.rejected_type + s.rejected_size;
    r.first_submit_s = t_first;
    struct cs_stat_sample q, jct;
    cs_stat_sample_init(&q);
    cs_stat_sample_init(&jct);
    cs_time last = 0;
    double alloc_h = 0, busy_h = 0, trace_h = 0, slow_sum = 0, wl_jct = 0;
    double part_h[CS_SCHED_MAX_PARTITIONS + 1] = {0}, part_q[CS_SCHED_MAX_PARTITIONS + 1] = {0};
    long part_n[CS_SCHED_MAX_PARTITIONS + 1] = {0};
    struct cs_stat_sample part_qs[CS_SCHED_MAX_PARTITIONS + 1];
    for (int p = 0; p <= cfg->n_partitions; p++)
        cs_stat_sample_init(&part_qs[p]);
    if (cfg->keep_jobs)
        r.per_job = cs_xcalloc((size_t)s.n_jobs + 1, sizeof *r.per_job);
    if (cfg->keep_times) {
        r.job_queue_s = cs_xmalloc(((size_t)s.n_jobs + 1) * sizeof *r.job_queue_s);
        r.job_jct_s = cs_xmalloc(((size_t)s.n_jobs + 1) * sizeof *r.job_jct_s);
        r.job_gpu_h = cs_xmalloc(((size_t)s.n_jobs + 1) * sizeof *r.job_gpu_h);
        r.job_part = cs_xmalloc(((size_t)s.n_jobs + 1) * sizeof *r.job_part);
    }
    for (long i = 0; i < s.n_jobs; i++) {
        const struct cs__job *j = &s.jobs[i];
        const struct cs_trace_job *tj = &t->jobs[i];
        if (r.per_job) {
            struct cs_sched_job_result *pj = &r.per_job[i];
            pj->submit_s = tj->submit_s;
            pj->rejected = j->state == JS_REJECTED;
            pj->start_s = pj->end_s = NAN;
            if (j->state == JS_DONE) {
                pj->start_s = t_first + cs_time_to_s(j->first_start);
                pj->end_s = t_first + cs_time_to_s(j->end);
            }
            pj->run_s = cs_time_to_s(j->ran);
            pj->slowdown = j->state == JS_DONE ? pj->run_s / tj->duration_s : NAN;
            pj->share_min = j->share_min;
            pj->step_s = j->step1_s > 0 ? j->step1_s : NAN;
            pj->nodes = j->nodes;
            pj->leaves = j->leaves;
            pj->preemptions = j->preempt;
        }
        if (r.job_queue_s) {
            bool done = j->state == JS_DONE;
            r.job_queue_s[i] = done ? cs_time_to_s(j->first_start - j->submit) : NAN;
            r.job_jct_s[i] = done ? cs_time_to_s(j->end - j->submit) : NAN;
            r.job_gpu_h[i] = done ? cs_time_to_s(j->ran) * j->need / (double)s.S / 3600 : 0;
            r.job_part[i] = j->part;
        }
        if (j->state != JS_DONE)
            continue;
        r.completed++;
        r.preemptions += j->preempt;
        double run = cs_time_to_s(j->ran);
        double qs = cs_time_to_s(j->first_start - j->submit);
        cs_stat_sample_add(&q, qs);
        cs_stat_sample_add(&jct, cs_time_to_s(j->end - j->submit));
        if (j->end > last)
            last = j->end;
        alloc_h += run * j->need / (double)s.S;
        busy_h += run * j->busy;
        trace_h += tj->duration_s * tj->gpus;
        part_h[j->part] += run * j->need / (double)s.S;
        part_q[j->part] += qs;
        cs_stat_sample_add(&part_qs[j->part], qs);
        part_n[j->part]++;
        if (tj->workload >= 0 && s.wl && j->step1_s > 0) {
            r.workload_jobs++;
            slow_sum += run / tj->duration_s;
            wl_jct += cs_time_to_s(j->end - j->submit);
        }
    }
    r.makespan_s = cs_time_to_s(last);
    r.allocated_gpu_h = alloc_h / 3600;
    r.busy_gpu_h = busy_h / 3600;
    r.trace_gpu_h = trace_h / 3600;
    double cap = (double)s.n_gpus * r.makespan_s;
    r.utilization = cap > 0 ? alloc_h / cap : 0;
    r.busy_utilization = cap > 0 ? busy_h / cap : 0;
    r.workload_slowdown_mean = r.workload_jobs ? slow_sum / r.workload_jobs : NAN;
    r.workload_jct_mean_s = r.workload_jobs ? wl_jct / r.workload_jobs : NAN;
    r.workload_unfit = s.wl_unfit;
    cs__summary(&q, &r.queue_s);
    cs__summary(&jct, &r.jct_s);
    double fr = 0;
    if (last > 0 && cs_stat_timeavg_mean(&s.frag, last, &fr) == CS_OK)
        r.fragmentation = fr / s.n_gpus;
    r.max_queue = s.qcap;
    r.n_parts = NP + 1;
    for (int p = 0; p <= NP; p++) {
        struct cs_sched_part_result *pr = &r.parts[p];
        snprintf(pr->name, sizeof pr->name, "%s", p < NP ? cfg->partitions[p].name : "(none)");
        pr->quota = p < NP ? cfg->partitions[p].quota : NAN;
        pr->jobs = part_n[p];
        pr->gpu_hours = part_h[p] / 3600;
        pr->share = alloc_h > 0 ? part_h[p] / alloc_h : 0;
        pr->queue_mean_s = part_n[p] ? part_q[p] / part_n[p] : NAN;
        pr->queue_p95_s = NAN;
        if (part_n[p])
            cs_stat_sample_quantile(&part_qs[p], 0.95, &pr->queue_p95_s);
        cs_stat_sample_fini(&part_qs[p]);
    }
    cs__timeline(&s, 0, last, &r);
    r.n_jct = (long)cs_stat_sample_count(&jct);
    r.jct_sorted = cs_xmalloc(((size_t)r.n_jct + 1) * sizeof *r.jct_sorted);
    if (r.n_jct > 0) {
        double dummy;
        cs_stat_sample_quantile(&jct, 0.5, &dummy);  /* sorts in place */
        memcpy(r.jct_sorted, jct.values, (size_t)r.n_jct * sizeof *r.jct_sorted);
    }
    r.events = cs_sim_events_processed(s.e);
    r.examined = s.examined;
    if (cfg->progress)
        cfg->progress(cfg->progress_ctx, (uint64_t)s.n_jobs, (uint64_t)s.n_jobs);
    cs_stat_sample_fini(&q);
    cs_stat_sample_fini(&jct);
    cs__free_sim(&s);
    *out = r;
    return CS_OK;
}

void cs_sched_result_fini(struct cs_sched_result *r)
{
    if (!r)
        return;
    free(r->t_s);
    free(r->alloc_gpus);
    free(r->busy_gpus);
    free(r->part_gpus);
    free(r->wait_gpus);
    free(r->jct_sorted);
    free(r->per_job);
    free(r->job_queue_s);
    free(r->job_jct_s);
    free(r->job_gpu_h);
    free(r->job_part);
    memset(r, 0, sizeof *r);
}
