/* scheduler.c: trace replay on a simulated cluster (models layer; see
 * include/clustersim/models/scheduler.h). Two engine handlers, arrival and finish,
 * and one scheduling pass per distinct event time (a "pass" event queued
 * behind the others of that instant). Capacity is tracked per GPU in MIG
 * slices, with per-group histograms (nodes by free GPUs, GPUs by free
 * slices) so that "does it fit?" costs O(GPUs per node), not O(nodes). */
#include "clustersim/models/scheduler.h"

#include "clustersim/sim/sim.h"
#include "clustersim/sim/stats.h"
#include "clustersim/models/step.h"
#include "clustersim/models/workload.h"
#include "clustersim/base/xmalloc.h"

#include <gsl/gsl_rng.h>

#include <assert.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define S7 (s->S) /* slices per GPU of this replay */
#define CS__MAX_GPN 72

static const char *const cs__policy_names[] = {"fifo", "backfill", "sjf"};
static const char *const cs__place_names[] = {"packed", "scattered", "bestfit"};

const char *cs_sched_policy_name(enum cs_sched_policy p)
{
    return (unsigned)p < 3 ? cs__policy_names[p] : "?";
}

cs_status cs_sched_policy_parse(const char *s, enum cs_sched_policy *out)
{
    for (int i = 0; s && i < 3; i++)
        if (strcmp(s, cs__policy_names[i]) == 0) {
            *out = (enum cs_sched_policy)i;
            return CS_OK;
        }
    return CS_EINVAL;
}

const char *cs_sched_place_name(enum cs_sched_place p)
{
    return (unsigned)p < 3 ? cs__place_names[p] : "?";
}

cs_status cs_sched_place_parse(const char *s, enum cs_sched_place *out)
{
    for (int i = 0; s && i < 3; i++)
        if (strcmp(s, cs__place_names[i]) == 0) {
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
/* State.                                                                    */

enum { JS_PENDING, JS_QUEUED, JS_RUNNING, JS_DONE, JS_REJECTED };

struct cs__job {
    int state;
    int whole;            /* whole GPUs asked (0 for a MIG slice job) */
    int slices;           /* slices per GPU: S7, or 1..6 for a MIG slice job */
    int need;             /* total slices held while running */
    double busy;          /* GPUs counted busy while running (the trace's share) */
    int prio;
    int part;             /* config partition index, or n_partitions for none */
    uint32_t groups;      /* allowed groups, bitmask */
    cs_time submit, first_start, start, end;
    cs_time remaining;    /* run time still to do (ns) */
    double slowdown;      /* current run-time factor (workload jobs) */
    double step1_s;       /* workload jobs: step time alone at share 1; 0 otherwise */
    double share_min;     /* smallest bandwidth share seen */
    bool cross;           /* running, workload job whose ring leaves a leaf */
    cs_time seg_start;    /* start of the current constant-rate segment */
    cs_time ran;          /* wall time run in finished segments */
    cs_event_id fin;
    int group;            /* placed group */
    int n_gpu;            /* GPUs in the placement */
    int nodes, leaves;
    int preempt;
};

struct cs__change { cs_time t; double alloc, busy; };

struct cs__wl_cache {
    int wl, n;
    double share;
    double step_s;                 /* NAN: no parallelism fits */
    struct cs_parallel par;        /* the rule's choice at share 1 */
    enum cs_recompute recompute;
};

struct cs__sim {
    const struct cs_sched_config *cfg;
    const struct cs_trace *tr;
    cs_diags *d;
    cs_engine *e;
    int h_arrive, h_finish, h_pass;
    bool pass_pending;
    /* cluster */
    int n_nodes, n_gpus, n_leaves;
    int *node_group, *node_leaf, *node_free, *node_gpu0;  /* node_free: whole free GPUs */
    unsigned char *gpu_free;                              /* free slices per GPU */
    int *grp_node0;
    long grp_free_slices[CS_SCHED_MAX_GROUPS];
    long grp_free_whole[CS_SCHED_MAX_GROUPS];
    long grp_total_slices[CS_SCHED_MAX_GROUPS];
    long *nodes_by_free;   /* [group][0..gpn] */
    long *gpus_by_slices;  /* [group][0..7] */
    long *leaf_free;       /* whole free GPUs per leaf */
    long total_slices;
    long used_slices;
    double busy;
    long *part_used;       /* slices per partition (n_partitions + 1) */
    /* jobs */
    struct cs__job *jobs;
    long n_jobs;
    int *gpu_list;         /* placements: job i owns gpu_list[gpu_off[i] ..] */
    long *gpu_off;
    int *queue;
    long qlen, qcap;
    int *running;          /* sorted by (end, index) */
    long rlen;
    /* metrics */
    struct cs_stat_timeavg frag;
    struct cs__change *chg;
    long nchg, chgcap;
    double *part_chg;      /* per change: allocated GPUs per partition */
    gsl_rng *rng;
    int *scratch, *scratch2; /* nodes */
    int S;                 /* slices per GPU */
    long rejected_type, rejected_size;
    /* workload model */
    struct cs_model_shape *wl;   /* per trace workload index; NULL when no fabric */
    struct cs__wl_cache *wcache;
    int nwcache, wcap;
    struct cs_fabric_geom geo;   /* of the fabric (group 0) */
    int ports_per_node;          /* NIC ports a node drives into its leaf */
    long *leaf_dem;              /* uplink demand per leaf (ports), cross jobs running */
    int *xjobs;                  /* running cross jobs */
    long nx;
    long wl_unfit;               /* workload jobs the step model could not run */
    /* EASY reservation scratch (cs__reserve) */
    unsigned stamp;
    unsigned *gpu_stamp, *node_stamp;
    int *tmp_node;
    unsigned char *tmp_gpu;
    cs_status err;
};

static int cs__gpn(const struct cs__sim *s, int g) { return s->cfg->groups[g].gpus_per_node; }
static long *cs__nbf(struct cs__sim *s, int g) { return s->nodes_by_free + (long)g * (CS__MAX_GPN + 1); }
static long *cs__gbs(struct cs__sim *s, int g) { return s->gpus_by_slices + (long)g * (S7 + 1); }

/* Changes one GPU's free slices, keeping every aggregate in step. */
static void cs__gpu_set(struct cs__sim *s, int node, int gpu, int slices)
{
    int g = s->node_group[node];
    int old = s->gpu_free[gpu];
    if (old == slices)
        return;
    cs__gbs(s, g)[old]--;
    cs__gbs(s, g)[slices]++;
    s->grp_free_slices[g] += slices - old;
    int dwhole = (slices == S7) - (old == S7);
    if (dwhole) {
        cs__nbf(s, g)[s->node_free[node]]--;
        s->node_free[node] += dwhole;
        cs__nbf(s, g)[s->node_free[node]]++;
        s->grp_free_whole[g] += dwhole;
        s->leaf_free[s->node_leaf[node]] += dwhole;
    }
    s->gpu_free[gpu] = (unsigned char)slices;
}

/* ------------------------------------------------------------------------ */
/* Fit and placement.                                                        */

static bool cs__fits_group(struct cs__sim *s, const struct cs__job *j, int g)
{
    if (j->whole == 0) {
        const long *h = cs__gbs(s, g);
        for (int k = j->slices; k <= S7; k++)
            if (h[k] > 0)
                return true;
        return false;
    }
    int gpn = cs__gpn(s, g);
    if (j->whole <= gpn) {
        const long *h = cs__nbf(s, g);
        for (int k = j->whole; k <= gpn; k++)
            if (h[k] > 0)
                return true;
        return false;
    }
    return s->grp_free_whole[g] >= j->whole;
}

static int cs__fit_group(struct cs__sim *s, const struct cs__job *j)
{
    for (int g = 0; g < s->cfg->n_groups; g++)
        if ((j->groups >> g & 1u) && cs__fits_group(s, j, g))
            return g;
    return -1;
}

static bool cs__quota_ok(const struct cs__sim *s, const struct cs__job *j)
{
    if (j->part >= s->cfg->n_partitions)
        return true;
    double q = s->cfg->partitions[j->part].quota;
    if (isnan(q))
        return true;
    return (double)(s->part_used[j->part] + j->need) <= q * (double)s->total_slices + 1e-9;
}

static void cs__take(struct cs__sim *s, int node, int gpu, int slices, int *list, int *n)
{
    cs__gpu_set(s, node, gpu, s->gpu_free[gpu] - slices);
    list[(*n)++] = gpu;
}

/* Nodes of `g` with whole free GPUs, in the order the policy takes them:
 * leaves chosen first (one leaf when one has room), nodes with most free
 * GPUs first inside a leaf (fewest nodes per job). Returns the count. */
static int cs__multi_nodes(struct cs__sim *s, int g, int need, int *out)
{
    int n0 = s->grp_node0[g], n1 = n0 + s->cfg->groups[g].nodes, cnt = 0;
    enum cs_sched_place pl = s->cfg->place;
    if (pl == CS_SCHED_SCATTERED) {
        for (int v = n0; v < n1; v++)
            if (s->node_free[v] > 0)
                out[cnt++] = v;
        for (int i = cnt - 1; i > 0; i--) {  /* Fisher-Yates */
            int k = (int)gsl_rng_uniform_int(s->rng, (unsigned long)i + 1), tmp = out[i];
            out[i] = out[k];
            out[k] = tmp;
        }
        return cnt;
    }
    /* one leaf that holds the whole job: lowest (packed) or tightest (bestfit) */
    int best = -1;
    for (int v = n0; v < n1; v++) {
        int L = s->node_leaf[v];
        if (v > n0 && s->node_leaf[v - 1] == L)
            continue;
        if (s->leaf_free[L] >= need &&
            (best < 0 || (pl == CS_SCHED_BESTFIT && s->leaf_free[L] < s->leaf_free[best])))
            best = L;
        if (best >= 0 && pl == CS_SCHED_PACKED)
            break;
    }
    for (int v = n0; v < n1; v++)
        if (s->node_free[v] > 0 && (best < 0 || s->node_leaf[v] == best))
            out[cnt++] = v;
    /* most free first; leaves with most free first when spanning; stable */
    for (int i = 1; i < cnt; i++) {
        int v = out[i], k = i;
        while (k > 0) {
            int u = out[k - 1];
            long lu = s->leaf_free[s->node_leaf[u]], lv = s->leaf_free[s->node_leaf[v]];
            bool before = best < 0 && s->node_leaf[u] != s->node_leaf[v] ? lv > lu
                                                                          : s->node_free[v] > s->node_free[u];
            if (!before)
                break;
            out[k] = u;
            k--;
        }
        out[k] = v;
    }
    return cnt;
}

/* Places job j (known to fit in g): takes the GPUs and records them. */
static void cs__place(struct cs__sim *s, long ji, int g)
{
    struct cs__job *j = &s->jobs[ji];
    int *list = s->gpu_list + s->gpu_off[ji], n = 0;
    int n0 = s->grp_node0[g], n1 = n0 + s->cfg->groups[g].nodes, gpn = cs__gpn(s, g);
    enum cs_sched_place pl = s->cfg->place;
    if (j->whole == 0) {  /* MIG slice: the GPU with the fewest free slices that fit */
        int bg = -1, bn = -1;
        for (int v = n0; v < n1; v++)
            for (int k = 0; k < gpn; k++) {
                int gp = s->node_gpu0[v] + k, f = s->gpu_free[gp];
                if (f >= j->slices && (bg < 0 || f < s->gpu_free[bg])) {
                    bg = gp;
                    bn = v;
                }
            }
        assert(bg >= 0);
        cs__take(s, bn, bg, j->slices, list, &n);
    } else if (j->whole <= gpn) {  /* one node */
        int pick = -1;
        if (pl == CS_SCHED_SCATTERED) {
            long fit = 0;
            for (int k = j->whole; k <= gpn; k++)
                fit += cs__nbf(s, g)[k];
            long want = (long)gsl_rng_uniform_int(s->rng, (unsigned long)fit);
            for (int v = n0; v < n1 && pick < 0; v++)
                if (s->node_free[v] >= j->whole && want-- == 0)
                    pick = v;
        } else {
            for (int v = n0; v < n1; v++)
                if (s->node_free[v] >= j->whole &&
                    (pick < 0 || (pl == CS_SCHED_BESTFIT && s->node_free[v] < s->node_free[pick]))) {
                    pick = v;
                    if (pl == CS_SCHED_PACKED || s->node_free[v] == j->whole)
                        break;
                }
        }
        assert(pick >= 0);
        for (int k = 0; k < gpn && n < j->whole; k++)
            if (s->gpu_free[s->node_gpu0[pick] + k] == S7)
                cs__take(s, pick, s->node_gpu0[pick] + k, S7, list, &n);
    } else {  /* several nodes */
        int cnt = cs__multi_nodes(s, g, j->whole, s->scratch);
        int *order = s->scratch;
        for (int i = 0; i < cnt && n < j->whole; i++) {
            int v = order[i];
            for (int k = 0; k < gpn && n < j->whole; k++)
                if (s->gpu_free[s->node_gpu0[v] + k] == S7)
                    cs__take(s, v, s->node_gpu0[v] + k, S7, list, &n);
        }
    }
    assert(n == (j->whole ? j->whole : 1));
    j->n_gpu = n;
    j->group = g;
    /* nodes and leaves spanned (list is grouped by node) */
    int nodes = 0, leaves = 0, last_node = -1;
    for (int i = 0; i < n; i++) {
        int v = n0 + (list[i] - s->node_gpu0[n0]) / gpn;
        if (v != last_node) {
            nodes++;
            bool seen = false;
            for (int k = 0; k < i && !seen; k++)
                seen = s->node_leaf[n0 + (list[k] - s->node_gpu0[n0]) / gpn] == s->node_leaf[v];
            leaves += !seen;
            last_node = v;
        }
    }
    j->nodes = nodes;
    j->leaves = leaves;
}

static void cs__release(struct cs__sim *s, long ji)
{
    struct cs__job *j = &s->jobs[ji];
    const int *list = s->gpu_list + s->gpu_off[ji];
    int g = j->group, gpn = cs__gpn(s, g), n0 = s->grp_node0[g];
    for (int i = 0; i < j->n_gpu; i++) {
        int v = n0 + (list[i] - s->node_gpu0[n0]) / gpn;
        cs__gpu_set(s, v, list[i], s->gpu_free[list[i]] + j->slices);
    }
}

/* ------------------------------------------------------------------------ */
/* Workload model: step time from the step model, slowed by the share of    */
/* leaf-uplink bandwidth the job gets beside the jobs running with it.      */

/* The largest divisor of n that is at most cap. */
static int cs__divisor_le(int n, int cap)
{
    for (int k = cap < n ? cap : n; k > 1; k--)
        if (n % k == 0)
            return k;
    return 1;
}

/* The step-model cluster of a job of n GPUs on the fabric's cluster: the
 * largest divisor of n that fits in one node as GPUs per node, n / that as
 * nodes, a non-blocking fabric (oversubscription 1, packed: the placement
 * and the contention enter through the bandwidth share) whose link rate is
 * scaled by `share`. */
static void cs__wl_cluster(const struct cs__sim *s, int n, double share, struct cs_cluster_cfg *c)
{
    *c = *cs_fabric_cluster(s->cfg->fabric);
    c->gpus_per_node = cs__divisor_le(n, c->gpus_per_node);
    c->nodes = n / c->gpus_per_node;
    c->fabric.oversubscription = 1;
    c->fabric.placement = CS_PLACEMENT_PACKED;
    c->fabric.link.bw_bytes_per_s *= share;
}

/* One step of workload wl on n GPUs at bandwidth share `share`, with the
 * parallelism of the documented rule (docs/replay.md): micro-batch 1, one
 * sequence per data-parallel replica per step, bf16, no FSDP; of the
 * power-of-two tp (dividing the heads, at most the node's GPUs) with
 * recompute none or full and pp = 1, the fastest step whose memory fits;
 * if none fits, tp = the node's GPUs and the smallest pp (dividing the
 * layers) that fits with full recompute.
 * For share < 1 the parallelism found at share 1 is reused. Returns NAN when
 * nothing fits or the step model refuses every choice. Cached. */
static double cs__wl_step(struct cs__sim *s, int wl, int n, double share)
{
    share = round(share * 1024.0) / 1024.0;  /* cache key: 1/1024 steps */
    if (share < 1.0 / 1024)
        share = 1.0 / 1024;
    for (int i = 0; i < s->nwcache; i++) {
        const struct cs__wl_cache *c = &s->wcache[i];
        if (c->wl == wl && c->n == n && c->share == share)
            return c->step_s;
    }
    struct cs__wl_cache e;
    memset(&e, 0, sizeof e);
    e.wl = wl;
    e.n = n;
    e.share = share;
    e.step_s = NAN;
    struct cs_cluster_cfg cc;
    cs__wl_cluster(s, n, share, &cc);
    struct cs_step_options o;
    cs_step_options_default(&cc.gpu, &o);
    struct cs_workload w;
    memset(&w, 0, sizeof w);
    w.model = s->wl[wl];
    w.micro_batch = 1;
    w.precision = CS_PREC_BF16;
    w.tokens = NAN;
    w.par.cp = w.par.vp = 1;
    w.par.fsdp = CS_FSDP_NONE;
    /* the parallelism found at share 1 (same wl and n) */
    const struct cs__wl_cache *base = NULL;
    for (int i = 0; i < s->nwcache && !base; i++)
        if (s->wcache[i].wl == wl && s->wcache[i].n == n && s->wcache[i].share == 1.0)
            base = &s->wcache[i];
    struct cs_parallel tries[64];
    enum cs_recompute rtry[64];
    int nt = 0;
    if (base && base->par.tp > 0) {
        tries[nt] = base->par;
        rtry[nt++] = base->recompute;
    } else if (!base) {
        for (int tp = 1; tp <= cc.gpus_per_node && nt < 40; tp *= 2)
            for (int r = 0; r < 2; r++) {
                memset(&tries[nt], 0, sizeof tries[nt]);
                tries[nt].tp = tp;
                tries[nt].pp = 1;
                rtry[nt++] = r ? CS_RECOMPUTE_FULL : CS_RECOMPUTE_NONE;
            }
        int tpn = 1;
        while (tpn * 2 <= cc.gpus_per_node && cc.gpus_per_node % (tpn * 2) == 0)
            tpn *= 2;
        for (int pp = 2; pp <= n / tpn && nt < 64; pp *= 2) {
            memset(&tries[nt], 0, sizeof tries[nt]);
            tries[nt].tp = tpn;
            tries[nt].pp = pp;
            rtry[nt++] = CS_RECOMPUTE_FULL;
        }
    }
    for (int i = 0; i < nt; i++) {
        struct cs_parallel p = tries[i];
        if (n % (p.tp * p.pp) != 0 || w.model.heads % p.tp != 0 || w.model.layers % p.pp != 0)
            continue;
        p.cp = p.vp = 1;
        p.dp = n / (p.tp * p.pp);
        w.par = p;
        w.recompute = rtry[i];
        w.global_batch = p.dp;
        cs_diags d;
        cs_diags_init(&d);
        struct cs_step_result r;
        cs_status st = cs_step_simulate(&cc, &w, &o, &d, &r);
        cs_diags_fini(&d);
        if (st == CS_OK && r.fits && r.time_s > 0 && !(r.time_s >= e.step_s)) {
            e.step_s = r.time_s;
            e.par = p;
            e.recompute = rtry[i];
        }
        if (p.pp > 1 && e.step_s > 0)
            break;  /* the smallest pp that fits */
        if (i + 1 < nt && tries[i + 1].pp > 1 && e.step_s > 0)
            break;  /* pp = 1 fits: no pipeline */
    }
    if (s->nwcache == s->wcap) {
        s->wcap = s->wcap ? 2 * s->wcap : 64;
        s->wcache = cs_xrealloc(s->wcache, (size_t)s->wcap, sizeof *s->wcache);
    }
    s->wcache[s->nwcache++] = e;
    return e.step_s;
}

/* Node sequence of job ji's placement (gpu_list is grouped by node, in the
 * order the placement took them: the order of its ranks and of its ring).
 * Writes the nodes to out (room for n_gpu) and returns their count. */
static int cs__job_nodes(const struct cs__sim *s, long ji, int *out)
{
    const struct cs__job *j = &s->jobs[ji];
    const int *list = s->gpu_list + s->gpu_off[ji];
    int g = j->group, gpn = s->cfg->groups[g].gpus_per_node, n0 = s->grp_node0[g], cnt = 0;
    for (int i = 0; i < j->n_gpu; i++) {
        int v = n0 + (list[i] - s->node_gpu0[n0]) / gpn;
        if (cnt == 0 || out[cnt - 1] != v)
            out[cnt++] = v;
    }
    return cnt;
}

/* Ring edges of job ji that leave a leaf, counted per source leaf into
 * dem[] (NIC ports of demand: each edge carries its node's whole egress).
 * Returns the job's number of such edges. */
static int cs__cross_edges(struct cs__sim *s, long ji, long *dem, int sign)
{
    int m = cs__job_nodes(s, ji, s->scratch2), x = 0;
    if (m < 2)
        return 0;
    for (int i = 0; i < m; i++) {
        int a = s->node_leaf[s->scratch2[i]], b = s->node_leaf[s->scratch2[(i + 1) % m]];
        if (a != b) {
            if (dem)
                dem[a] += sign * s->ports_per_node;
            x++;
        }
    }
    return x;
}

/* The bandwidth share of job ji given the leaf demand dem[]: the smallest
 * uplinks / demand over the leaves its ring leaves from, at most 1. */
static double cs__job_share(struct cs__sim *s, long ji, const long *dem)
{
    int m = cs__job_nodes(s, ji, s->scratch2);
    double share = 1.0;
    for (int i = 0; i < m && m > 1; i++) {
        int a = s->node_leaf[s->scratch2[i]], b = s->node_leaf[s->scratch2[(i + 1) % m]];
        if (a != b && dem[a] > s->geo.up) {
            double f = (double)s->geo.up / (double)dem[a];
            if (f < share)
                share = f;
        }
    }
    return share;
}

/* Slowdown of running workload job ji at bandwidth share `share`: step time
 * at that share over step time at share 1 (the trace duration is the run
 * time at share 1). 1 when the step model cannot run it. */
static double cs__wl_slowdown(struct cs__sim *s, long ji, double share)
{
    struct cs__job *j = &s->jobs[ji];
    if (!(j->step1_s > 0) || share >= 1.0)
        return 1.0;
    double t = cs__wl_step(s, s->tr->jobs[ji].workload, j->n_gpu, share);
    return t > 0 ? t / j->step1_s : 1.0;
}

/* ------------------------------------------------------------------------ */
/* Queue and running list.                                                   */

static int cs__qcmp(const struct cs__sim *s, long a, long b)
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

static void cs__enqueue(struct cs__sim *s, long ji)
{
    long lo = 0, hi = s->qlen;
    while (lo < hi) {
        long mid = (lo + hi) / 2;
        if (cs__qcmp(s, s->queue[mid], ji) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    memmove(s->queue + lo + 1, s->queue + lo, (size_t)(s->qlen - lo) * sizeof *s->queue);
    s->queue[lo] = (int)ji;
    s->qlen++;
    s->jobs[ji].state = JS_QUEUED;
    if (s->qlen > 0 && (long)s->qlen > s->qcap)
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
    s->chg[s->nchg] = (struct cs__change){now, alloc, s->busy};
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

/* Recomputes every running cross job's bandwidth share from the leaf
 * demand (docs/replay.md, "Contention") and retimes those whose share
 * changed. O(cross jobs x their nodes). */
static void cs__recontend(struct cs__sim *s)
{
    for (long k = 0; k < s->nx; k++) {
        long ji = s->xjobs[k];
        struct cs__job *j = &s->jobs[ji];
        double share = cs__job_share(s, ji, s->leaf_dem);
        if (share < j->share_min)
            j->share_min = share;
        cs__retime(s, ji, cs__wl_slowdown(s, ji, share));
    }
}

static void cs__start(struct cs__sim *s, long ji, int g)
{
    struct cs__job *j = &s->jobs[ji];
    cs_time now = cs_sim_now(s->e);
    cs__place(s, ji, g);
    if (j->first_start < 0)
        j->first_start = now;
    const struct cs_trace_job *tj = &s->tr->jobs[ji];
    bool recontend = false;
    if (tj->workload >= 0 && s->wl && g == 0) {
        if (j->step1_s == 0) {
            double t1 = cs__wl_step(s, tj->workload, j->n_gpu, 1.0);
            j->step1_s = t1 > 0 ? t1 : -1;
            if (!(t1 > 0))
                s->wl_unfit++;
        }
        if (j->step1_s > 0 && s->geo.tiers > 1 && cs__cross_edges(s, ji, s->leaf_dem, +1) > 0) {
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
        cs__cross_edges(s, ji, s->leaf_dem, -1);
        for (long k = 0; k < s->nx; k++)
            if (s->xjobs[k] == ji) {
                s->xjobs[k] = s->xjobs[--s->nx];
                break;
            }
        j->cross = false;
        recontend = true;
    }
    cs__release(s, ji);
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
            g = cs__fit_group(s, j);
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
    int gpn0 = s->cfg->groups[0].gpus_per_node;
    int fail_single = INT_MAX, fail_multi = INT_MAX, fail_slices = INT_MAX;
    long qi = 0, scanned = 0;
    while (qi < s->qlen && scanned < s->cfg->backfill_depth) {
        long ji = s->queue[qi];
        struct cs__job *j = &s->jobs[ji];
        scanned++;
        if (!cs__quota_ok(s, j)) {
            qi++;
            continue;
        }
        if (memo && (j->whole == 0 ? j->slices >= fail_slices
                                   : j->whole <= gpn0 ? j->whole >= fail_single : j->whole >= fail_multi)) {
            if (s->cfg->policy != CS_SCHED_BACKFILL)
                break;
            qi++;  /* a reservation exists already: the first blocked job made it */
            continue;
        }
        int g = cs__fit_group(s, j);
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
                    qi++;
                    continue;
                }
                if (res_node >= 0) {
                    /* keep the reserved node out of its reach: hide its GPUs while it is placed */
                    int gpn = cs__gpn(s, s->node_group[res_node]), g0 = s->node_gpu0[res_node];
                    for (int k = 0; k < gpn; k++) {
                        saved[k] = s->gpu_free[g0 + k];
                        cs__gpu_set(s, res_node, g0 + k, 0);
                    }
                    hidden = true;
                    g = cs__fit_group(s, j);
                }
                if (g >= 0)
                    extra -= j->need;
            }
        }
        if (hidden && g < 0) {
            int gpn = cs__gpn(s, s->node_group[res_node]), g0 = s->node_gpu0[res_node];
            for (int k = 0; k < gpn; k++)
                cs__gpu_set(s, res_node, g0 + k, saved[k]);
            qi++;
            continue;
        }
        if (g < 0 && s->cfg->preempt && !have_res)
            g = cs__preempt(s, ji);
        if (g >= 0) {
            memmove(s->queue + qi, s->queue + qi + 1, (size_t)(s->qlen - qi - 1) * sizeof *s->queue);
            s->qlen--;
            cs__start(s, ji, g);
            if (hidden) {
                int gpn = cs__gpn(s, s->node_group[res_node]), g0 = s->node_gpu0[res_node];
                for (int k = 0; k < gpn; k++)
                    cs__gpu_set(s, res_node, g0 + k, saved[k]);
            }
            continue;
        }
        if (s->cfg->policy != CS_SCHED_BACKFILL)
            break;
        if (!have_res) {
            cs__reserve(s, j, &shadow, &extra, &res_node);
            res_groups = j->groups;
            have_res = true;
        }
        qi++;
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

static void cs__on_arrive(cs_engine *e, const struct cs_event *ev, void *ctx)
{
    (void)e;
    struct cs__sim *s = ctx;
    uint32_t ji;
    memcpy(&ji, ev->payload, sizeof ji);
    cs__enqueue(s, ji);
    cs__want_pass(s);
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
    double qsum = 0;
    for (int p = 0; p < c->n_partitions; p++) {
        double q = c->partitions[p].quota;
        if (!isnan(q) && !(q >= 0 && q <= 1)) {
            cs_diag_error(d, NULL, 0, 0, "replay: partition %s: quota %g is outside [0, 1]",
                          c->partitions[p].name, q);
            bad = 1;
        }
        if (!isnan(q))
            qsum += q;
    }
    if (qsum > 1 + 1e-9) {
        cs_diag_error(d, NULL, 0, 0, "replay: partition quotas add up to %.3g, more than the whole cluster", qsum);
        bad = 1;
    }
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
    free(s->gpu_list);
    free(s->gpu_off);
    free(s->queue);
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
        s.ports_per_node = s.geo.rail ? 1 : (fc->fabric.nics_per_node > 0 ? fc->fabric.nics_per_node : 1);
    }
    for (int v = 0; v < s.n_nodes; v++)
        s.leaf_free[s.node_leaf[v]] += s.node_free[v];
    int NP = cfg->n_partitions;
    s.part_used = cs_xcalloc((size_t)NP + 1, sizeof *s.part_used);
    /* jobs */
    s.n_jobs = (long)t->n;
    s.jobs = cs_xcalloc((size_t)s.n_jobs + 1, sizeof *s.jobs);
    s.gpu_off = cs_xmalloc(((size_t)s.n_jobs + 1) * sizeof *s.gpu_off);
    s.queue = cs_xmalloc(((size_t)s.n_jobs + 1) * sizeof *s.queue);
    s.running = cs_xmalloc(((size_t)s.n_jobs + 1) * sizeof *s.running);
    s.xjobs = cs_xmalloc(((size_t)s.n_jobs + 1) * sizeof *s.xjobs);
    int part_of_trace[4096];
    size_t ntp = t->partitions.n < 4096 ? t->partitions.n : 4096;
    for (size_t p = 0; p < ntp; p++) {
        part_of_trace[p] = NP;
        for (int q = 0; q < NP; q++)
            if (strcmp(cfg->partitions[q].name, t->partitions.names[p]) == 0)
                part_of_trace[p] = q;
    }
    uint32_t type_mask_cache[256];
    size_t ntt = t->gpu_types.n < 256 ? t->gpu_types.n : 256;
    for (size_t k = 0; k < ntt; k++) {
        type_mask_cache[k] = 0;
        for (int g = 0; g < G; g++)
            if (strcmp(cfg->groups[g].gpu_type, t->gpu_types.names[k]) == 0)
                type_mask_cache[k] |= 1u << g;
    }
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
        if (tj->gpus < 1 && cfg->mig) {
            j->whole = 0;
            j->slices = (int)ceil(tj->gpus * s.S - 1e-9);
            if (j->slices < 1)
                j->slices = 1;
            j->need = j->slices;
        } else {
            j->whole = (int)ceil(tj->gpus - 1e-9);
            if (j->whole < 1)
                j->whole = 1;
            j->slices = s.S;
            j->need = j->whole * s.S;
        }
        j->busy = tj->gpus;
        j->part = tj->partition >= 0 && (size_t)tj->partition < ntp ? part_of_trace[tj->partition] : NP;
        for (int q = 0; j->part == NP && q < NP; q++) {
            const struct cs_sched_partition *pp = &cfg->partitions[q];
            if (pp->rule && !(tj->gpus < pp->min_gpus) && !(tj->gpus > pp->max_gpus) &&
                !(tj->duration_s > pp->max_duration_s))
                j->part = q;
        }
        j->prio = tj->priority + (j->part < NP ? cfg->partitions[j->part].priority : 0);
        j->groups = tj->gpu_type >= 0 && (size_t)tj->gpu_type < ntt ? type_mask_cache[tj->gpu_type] : all;
        s.gpu_off[i] = off;
        off += j->whole ? j->whole : 1;
    }
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
            if (j->part < NP && !isnan(cfg->partitions[j->part].quota) &&
                j->need > cfg->partitions[j->part].quota * (double)s.total_slices + 1e-9)
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
        uint32_t payload = (uint32_t)i;
        st = cs_sim_schedule_at(s.e, j->submit, s.h_arrive, &payload, sizeof payload, NULL);
        if (st != CS_OK)
            break;
    }
    if (st == CS_OK)
        st = cs_sim_run(s.e, CS_SIM_FOREVER);
    if (st == CS_OK && s.err != CS_OK)
        st = s.err;
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
    free(r->jct_sorted);
    free(r->per_job);
    memset(r, 0, sizeof *r);
}
