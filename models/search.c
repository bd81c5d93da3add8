/* search.c: exhaustive search of parallel configurations (search.h).
 * The space: tp over the divisors of the GPUs per node that divide the
 * heads; pp over the divisors of the layers; cp over powers of two dividing
 * the sequence; dp what is left; vp (interleaving) over divisors of the
 * layers per stage; micro-batch over powers of two; sharding none, ZeRO-1/2,
 * FSDP full and hybrid (dp > 1); recomputation none, selective, full. Every
 * combination is checked with cs_step_check, then the memory model, and
 * only configurations that fit are simulated (the memory check is ~100x
 * cheaper than a simulation). */
#include "clustersim/search.h"

#include "clustersim/xmalloc.h"

#include <stdlib.h>
#include <string.h>

void cs_search_space_default(struct cs_search_space *sp)
{
    memset(sp, 0, sizeof *sp);
    sp->vary_tp = sp->vary_pp = sp->vary_dp_sharding = sp->vary_cp = sp->vary_vp = true;
    sp->vary_micro_batch = sp->vary_recompute = true;
    sp->max_micro_batch = 16;
    sp->max_vp = 8;
    sp->max_cp = 8;
    sp->include_unfit = false;
}

static int cs__cmp(const void *a, const void *b)
{
    const struct cs_search_point *x = a, *y = b;
    if (x->r.fits != y->r.fits)
        return x->r.fits ? -1 : 1;
    double tx = x->r.fits ? x->r.tokens_per_s : -x->r.memory.total_bytes;
    double ty = y->r.fits ? y->r.tokens_per_s : -y->r.memory.total_bytes;
    if (tx > ty)
        return -1;
    if (tx < ty)
        return 1;
    /* deterministic tie-break on the configuration */
    const struct cs_parallel *p = &x->w.par, *q = &y->w.par;
    int kx[] = {p->tp, p->pp, p->cp, p->vp, x->w.micro_batch, (int)p->fsdp, (int)x->w.recompute};
    int ky[] = {q->tp, q->pp, q->cp, q->vp, y->w.micro_batch, (int)q->fsdp, (int)y->w.recompute};
    for (size_t i = 0; i < sizeof kx / sizeof kx[0]; i++)
        if (kx[i] != ky[i])
            return kx[i] < ky[i] ? -1 : 1;
    return 0;
}

struct cs__acc {
    struct cs_search_point *pts;
    size_t n, cap;
};

static void cs__add(struct cs__acc *a, const struct cs_workload *w, const struct cs_step_result *r)
{
    if (a->n == a->cap) {
        a->cap = a->cap ? a->cap * 2 : 256;
        a->pts = cs_xrealloc(a->pts, a->cap, sizeof *a->pts);
    }
    a->pts[a->n].w = *w;
    a->pts[a->n].r = *r;
    a->n++;
}

cs_status cs_search_run(const struct cs_cluster_cfg *c, const struct cs_workload *base,
                        const struct cs_step_options *o, const struct cs_search_space *sp,
                        cs_search_progress progress, void *ctx, struct cs_search_result *out)
{
    long gpus = (long)c->nodes * c->gpus_per_node;
    const struct cs_model_shape *m = &base->model;
    struct cs__acc acc = {NULL, 0, 0};
    size_t considered = 0, invalid = 0, unfit = 0;
    static const enum cs_fsdp shard_all[] = {CS_FSDP_NONE, CS_FSDP_ZERO1, CS_FSDP_ZERO2,
                                             CS_FSDP_FULL, CS_FSDP_HYBRID};
    static const enum cs_recompute rc_all[] = {CS_RECOMPUTE_NONE, CS_RECOMPUTE_SELECTIVE,
                                               CS_RECOMPUTE_FULL};
    cs_diags d;
    cs_diags_init(&d);
    d.max_items = 1;
    for (int tp = 1; tp <= c->gpus_per_node; tp++) {
        if (!sp->vary_tp && tp != base->par.tp)
            continue;
        if (c->gpus_per_node % tp || m->heads % tp || gpus % tp)
            continue;
        for (int pp = 1; pp <= m->layers && (long)tp * pp <= gpus; pp++) {
            if (!sp->vary_pp && pp != base->par.pp)
                continue;
            if (m->layers % pp || gpus % ((long)tp * pp))
                continue;
            for (int cp = 1; cp <= (sp->vary_cp ? sp->max_cp : base->par.cp); cp *= 2) {
                if (!sp->vary_cp && cp != base->par.cp)
                    continue;
                if (gpus % ((long)tp * pp * cp) || m->seq_len % (2 * cp))
                    continue;
                int dp = (int)(gpus / ((long)tp * pp * cp));
                for (int vp = 1; vp <= (sp->vary_vp ? sp->max_vp : base->par.vp); vp++) {
                    if (!sp->vary_vp && vp != base->par.vp)
                        continue;
                    if (vp > 1 && (pp < 2 || m->layers % (pp * vp)))
                        continue;
                    for (int mb = 1; mb <= (sp->vary_micro_batch ? sp->max_micro_batch
                                                                 : base->micro_batch);
                         mb *= 2) {
                        if (!sp->vary_micro_batch && mb != base->micro_batch)
                            continue;
                        long per = (long)dp * mb;
                        if (base->global_batch % per)
                            continue;
                        if (vp > 1 && (base->global_batch / per) % pp)
                            continue;
                        for (size_t fi = 0; fi < 5; fi++) {
                            enum cs_fsdp fs = shard_all[fi];
                            if (!sp->vary_dp_sharding && fs != base->par.fsdp)
                                continue;
                            if (dp == 1 && fs != CS_FSDP_NONE)
                                continue;
                            for (size_t ri = 0; ri < 3; ri++) {
                                enum cs_recompute rc = rc_all[ri];
                                if (!sp->vary_recompute && rc != base->recompute)
                                    continue;
                                struct cs_workload w = *base;
                                w.par.tp = tp;
                                w.par.pp = pp;
                                w.par.cp = cp;
                                w.par.dp = dp;
                                w.par.vp = vp;
                                w.par.sp = tp > 1;
                                w.par.fsdp = fs;
                                w.micro_batch = mb;
                                w.recompute = rc;
                                considered++;
                                if (cs_step_check(c, &w, o, &d) != CS_OK) {
                                    cs_diags_fini(&d);
                                    cs_diags_init(&d);
                                    d.max_items = 1;
                                    invalid++;
                                    continue;
                                }
                                struct cs_step_result r;
                                memset(&r, 0, sizeof r);
                                if (cs_memory_per_gpu_params(&w, &c->gpu, &o->compute,
                                                             &r.memory) != CS_OK) {
                                    invalid++;
                                    continue;
                                }
                                if (!r.memory.fits) {
                                    unfit++;
                                    if (sp->include_unfit) {
                                        r.fits = false;
                                        cs__add(&acc, &w, &r);
                                    }
                                    continue;
                                }
                                if (cs_step_simulate(c, &w, o, &d, &r) != CS_OK) {
                                    cs_diags_fini(&d);
                                    cs_diags_init(&d);
                                    d.max_items = 1;
                                    invalid++;
                                    continue;
                                }
                                cs__add(&acc, &w, &r);
                                if (progress && considered % 256 == 0)
                                    progress(considered, 0, ctx);
                                /* a cheaper recomputation that fits beats a
                                 * costlier one: stop at the first that fits */
                                break;
                            }
                        }
                    }
                }
            }
        }
    }
    cs_diags_fini(&d);
    if (acc.n > 1)
        qsort(acc.pts, acc.n, sizeof *acc.pts, cs__cmp);
    out->points = acc.pts;
    out->n = acc.n;
    out->considered = considered;
    out->invalid = invalid;
    out->unfit = unfit;
    if (progress)
        progress(considered, considered, ctx);
    return CS_OK;
}

void cs_search_result_fini(struct cs_search_result *r)
{
    if (!r)
        return;
    free(r->points);
    r->points = NULL;
    r->n = 0;
}
