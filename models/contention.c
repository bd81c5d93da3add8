/* contention.c: run time of workload jobs in a replay (models layer; see
 * sched_internal.h and docs/replay.md, "Run time from a workload"): the
 * step time of the job's model from the step model on the GPUs it got,
 * slowed by the share of leaf-uplink bandwidth it gets beside the jobs
 * running with it. */
#include "sched_internal.h"

#include "clustersim/base/xmalloc.h"

#include <math.h>
#include <string.h>

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
double cs_sched__wl_step(struct cs__sim *s, int wl, int n, double share)
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
int cs_sched__cross_edges(struct cs__sim *s, long ji, long *dem, int sign)
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
double cs_sched__job_share(struct cs__sim *s, long ji, const long *dem)
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
double cs_sched__wl_slowdown(struct cs__sim *s, long ji, double share)
{
    struct cs__job *j = &s->jobs[ji];
    if (!(j->step1_s > 0) || share >= 1.0)
        return 1.0;
    double t = cs_sched__wl_step(s, s->tr->jobs[ji].workload, j->n_gpu, share);
    return t > 0 ? t / j->step1_s : 1.0;
}
