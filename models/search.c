/* search.c: exhaustive search of parallel configurations (search.h).
 * The space: tp over the divisors of the GPUs per node that divide the
 * heads; pp over the divisors of the layers; cp over powers of two dividing
 * the sequence; dp what is left; vp (interleaving) over divisors of the
 * layers per stage; micro-batch over powers of two; for mixture-of-experts
 * models expert parallelism (ep) and expert tensor parallelism (etp) over
 * powers of two; sharding none, ZeRO-1/2,
 * FSDP full and hybrid (dp > 1); recomputation none, selective, full (with
 * the fewest fully recomputed layers per stage that fit, or, where the host
 * link is fast, the fewest layers offloaded to host memory). Every
 * combination is checked with cs_step_check, then the memory model, and
 * only configurations that fit are simulated (the memory check is ~100x
 * cheaper than a simulation). */
#include "clustersim/models/search.h"

#include "clustersim/base/xmalloc.h"
#include "clustersim/models/compute.h"

#include <math.h>
#include <pthread.h>
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
    sp->vary_ep = true;
    sp->partial_recompute = true;
    sp->try_offload = true;
    sp->max_ep = 256;
    sp->max_etp = 8;
    sp->include_unfit = false;
    sp->threads = 1;
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
    int kx[] = {p->tp, p->pp, p->cp, p->vp, x->w.micro_batch, (int)p->fsdp, (int)x->w.recompute,
                p->ep, p->etp, p->account_for_embedding};
    int ky[] = {q->tp, q->pp, q->cp, q->vp, y->w.micro_batch, (int)q->fsdp, (int)y->w.recompute,
                q->ep, q->etp, q->account_for_embedding};
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

/* One work item: a configuration with its recomputation choices (the
 * cheapest that fits wins, so they are tried in order by one worker). */
struct cs__item {
    struct cs_workload w;
    int nrc;
    enum cs_recompute rc[3];
    double bound_s;      /* best_only: a lower bound on the step time (cs__bound) */
};

struct cs__work {
    const struct cs_cluster_cfg *c;
    const struct cs_step_options *o;
    const struct cs_search_space *sp;
    const struct cs__item *items;
    size_t nitems;
    int stride, first;
    struct cs__acc acc;
    size_t considered, invalid, unfit;
    cs_engine *engine;   /* the scratch engine of this worker's steps (only a step that
                            goes wrong runs on it, see cs_step_simulate_on) */
};

static void cs__eval(struct cs__work *wk, const struct cs__item *it)
{
    cs_diags d;
    cs_diags_init(&d);
    d.max_items = 1;
    for (int j = 0; j < it->nrc; j++) {
        struct cs_workload w = it->w;
        w.recompute = it->rc[j];
        wk->considered++;
        if (cs_step_check(wk->c, &w, wk->o, &d) != CS_OK) {
            wk->invalid++;
            break;
        }
        struct cs_step_result r;
        memset(&r, 0, sizeof r);
        if (cs_memory_per_gpu_params(&w, &wk->c->gpu, &wk->o->compute, &r.memory) != CS_OK) {
            wk->invalid++;
            break;
        }
        if (!r.memory.fits) {
            wk->unfit++;
            if (wk->sp->include_unfit) {
                r.fits = false;
                cs__add(&wk->acc, &w, &r);
            }
            continue;
        }
        if (w.recompute == CS_RECOMPUTE_FULL && w.recompute_layers == 0 && wk->sp->partial_recompute) {
            /* The fewest fully recomputed layers per (virtual) stage that
             * still fit (memory falls as the count grows; Megatron's
             * --recompute-method block --recompute-num-layers N): each
             * layer not recomputed saves its forward again. Bisection on
             * the memory model, then one simulation. */
            int nvirt = w.par.pp * (w.par.vp > 1 ? w.par.vp : 1);
            int all = (w.model.layers + nvirt - 1) / nvirt;
            int lo = cs_memory_fewest_that_fit(&w, &wk->c->gpu, &wk->o->compute, &w.recompute_layers,
                                               all);
            if (lo < all) {
                w.recompute_layers = lo;
                cs_memory_per_gpu_params(&w, &wk->c->gpu, &wk->o->compute, &r.memory);
            }
        }
        if (!wk->engine)
            wk->engine = cs_sim_create(0);
        if (cs_step_simulate_on(wk->c, &w, wk->o, wk->engine, &d, &r) != CS_OK) {
            wk->invalid++;
            break;
        }
        if (w.recompute == CS_RECOMPUTE_FULL && wk->sp->try_offload && w.offload_layers == 0 &&
            isfinite(wk->c->gpu.host_bw_bytes_per_s) && wk->c->gpu.host_bw_bytes_per_s > 0) {
            /* The other way to make the activations fit where the host
             * link is fast (a catalog host_bw: Grace's NVLink-C2C): the
             * fewest layers per GPU whose activations wait in host memory,
             * nothing recomputed; taken when it is faster. Over PCIe it is
             * left to the scenario (activation_offload_layers): trying it
             * for every GPU halved the search's speed. */
            struct cs_workload wo = w;
            wo.recompute = CS_RECOMPUTE_NONE;
            wo.recompute_layers = 0;
            int per_gpu = (wo.model.layers + wo.par.pp - 1) / wo.par.pp;
            wo.offload_layers = cs_memory_fewest_that_fit(&wo, &wk->c->gpu, &wk->o->compute,
                                                          &wo.offload_layers, per_gpu);
            struct cs_step_result ro;
            memset(&ro, 0, sizeof ro);
            if (cs_step_simulate_on(wk->c, &wo, wk->o, wk->engine, &d, &ro) == CS_OK && ro.fits &&
                ro.tokens_per_s > r.tokens_per_s) {
                w = wo;
                r = ro;
            }
        }
        cs__add(&wk->acc, &w, &r);
        /* a cheaper recomputation that fits beats a costlier one */
        break;
    }
    cs_diags_fini(&d);
}

static void *cs__worker(void *arg)
{
    struct cs__work *wk = arg;
    for (size_t i = (size_t)wk->first; i < wk->nitems; i += (size_t)wk->stride)
        cs__eval(wk, &wk->items[i]);
    return NULL;
}

/* Enumerates the space into work items (cheap: no simulation). */
static struct cs__item *cs__enumerate(const struct cs_cluster_cfg *c,
                                      const struct cs_workload *base,
                                      const struct cs_search_space *sp, size_t *nout)
{
    long gpus = cs_job_gpus(c, base); /* the job's GPUs (workload.gpus), not the cluster's */
    const struct cs_model_shape *m = &base->model;
    static const enum cs_fsdp shard_all[] = {CS_FSDP_NONE, CS_FSDP_ZERO1, CS_FSDP_ZERO2,
                                             CS_FSDP_FULL, CS_FSDP_HYBRID};
    static const enum cs_recompute rc_all[] = {CS_RECOMPUTE_NONE, CS_RECOMPUTE_SELECTIVE,
                                               CS_RECOMPUTE_FULL};
    struct cs__item *items = NULL;
    size_t n = 0, cap = 0;
    bool moe = cs_model_is_moe(m);
    int base_ep = base->par.ep > 0 ? base->par.ep : 1, base_etp = base->par.etp > 0 ? base->par.etp : 1;
    int max_ep = sp->max_ep > 0 ? sp->max_ep : 1, max_etp = sp->max_etp > 0 ? sp->max_etp : 1;
    if (!moe)
        base_ep = base_etp = 1;
    /* DeepSpeed's pipeline engine: no context parallelism, no
     * interleaving, no ZeRO-2/3 with pipeline stages (the scenario checks
     * refuse the same, config/scenario.c) */
    bool ds = base->stack == CS_STACK_MEGATRON_DEEPSPEED;
    for (int tp = 1; tp <= c->gpus_per_node; tp++) {
        if (!sp->vary_tp && tp != base->par.tp)
            continue;
        if (c->gpus_per_node % tp || m->heads % tp || gpus % tp)
            continue;
        for (int pp = 1; pp <= m->layers && (long)tp * pp <= gpus; pp++) {
            if (!sp->vary_pp && pp != base->par.pp)
                continue;
            if (gpus % ((long)tp * pp))
                continue;
            for (int cp = 1; cp <= (sp->vary_cp ? sp->max_cp : base->par.cp); cp *= 2) {
                if (!sp->vary_cp && cp != base->par.cp)
                    continue;
                if (gpus % ((long)tp * pp * cp) || m->seq_len % (2 * cp))
                    continue;
                int dp = (int)(gpus / ((long)tp * pp * cp));
                if (ds && cp > 1)
                    continue;
                for (int vp = 1; vp <= (sp->vary_vp ? sp->max_vp : base->par.vp); vp++) {
                    if (!sp->vary_vp && vp != base->par.vp)
                        continue;
                    /* More virtual stages than layers: only with the
                     * embedding and the loss as a layer each of the split
                     * (Megatron-Core's account_for_*_in_pipeline_split, the
                     * Llama 3 405B layout: 126 + 2 layers on 16 x 8), where
                     * the scenario states no layout of its own. */
                    bool acc = vp > 1 && pp >= 2 && m->layers < pp * vp &&
                               (m->layers + 2) % (pp * vp) == 0 && m->mtp_layers == 0 &&
                               !base->par.layout_text[0] && !base->par.account_for_embedding &&
                               !base->par.account_for_loss;
                    if (vp > 1 && (pp < 2 || m->layers < pp * vp) && !acc)
                        continue;
                    if (ds && vp > 1)
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
                        long stage = (long)tp * cp * dp;
                        for (int ep = 1; ep <= (moe && sp->vary_ep ? max_ep : base_ep); ep *= 2) {
                          if (moe && !sp->vary_ep && ep != base_ep)
                              continue;
                          if (moe && (m->moe.experts % ep || stage % ep))
                              continue;
                          for (int etp = 1; etp <= (moe && sp->vary_ep ? max_etp : base_etp);
                               etp *= 2) {
                            if (moe && !sp->vary_ep && etp != base_etp)
                                continue;
                            if (moe && (stage % ((long)ep * etp) || m->moe.expert_ffn_hidden % etp ||
                                        c->gpus_per_node % etp))
                                continue;
                            for (size_t fi = 0; fi < 5; fi++) {
                                enum cs_fsdp fs = shard_all[fi];
                                if (!sp->vary_dp_sharding && fs != base->par.fsdp)
                                    continue;
                                if (dp == 1 && fs != CS_FSDP_NONE)
                                    continue;
                                if (ds && pp > 1 && fs != CS_FSDP_NONE && fs != CS_FSDP_ZERO1)
                                    continue;
                                if (n == cap) {
                                    cap = cap ? 2 * cap : 1024;
                                    items = cs_xrealloc(items, cap, sizeof *items);
                                }
                                struct cs__item *it = &items[n++];
                                it->w = *base;
                                it->w.par.tp = tp;
                                it->w.par.pp = pp;
                                it->w.par.cp = cp;
                                it->w.par.dp = dp;
                                it->w.par.vp = vp;
                                /* sequence parallelism with tp; under
                                 * megatron-deepspeed only where the
                                 * scenario has it (Microsoft's fork has
                                 * it since its 2023-07 upstream merge,
                                 * BigScience's not) */
                                it->w.par.sp = tp > 1 && (!ds || base->par.sp);
                                it->w.par.fsdp = fs;
                                it->w.par.ep = ep;
                                it->w.par.etp = etp;
                                if (acc)
                                    it->w.par.account_for_embedding = it->w.par.account_for_loss = true;
                                it->w.micro_batch = mb;
                                /* a stated pipeline layout holds for its
                                 * own pp x vp only */
                                cs_workload_layout_fit(&it->w);
                                it->nrc = 0;
                                for (size_t ri = 0; ri < 3; ri++)
                                    if (sp->vary_recompute || rc_all[ri] == base->recompute)
                                        it->rc[it->nrc++] = rc_all[ri];
                            }
                          }
                        }
                    }
                }
            }
        }
    }
    *nout = n;
    return items;
}

/* A lower bound on the step time of item `it`: the busiest stage computes
 * every micro-batch through its ceil(layers / pp) layers, forward and
 * backward, at the compute model's speed, and the pipeline cannot be
 * fuller than its schedule allows: the last stage's first forward waits for
 * the first micro-batch to cross the pp - 1 stages before it, and the first
 * stage's last backward for the last one to come back, each a chunk of
 * floor(layers / (pp vp)) layers (the 1F1B and interleaved bubble,
 * Narayanan et al. 2021, section 2.2). Nothing recomputed, no
 * communication, no imbalance: all of those only add. An MoE model's
 * layers count at the cheaper of its dense and MoE layers' costs. 0 (no
 * bound) when the compute model refuses the shape. */
static double cs__bound(const struct cs_cluster_cfg *c, const struct cs_step_options *o,
                        const struct cs_search_space *sp, const struct cs__item *it)
{
    /* The recomputation the item will run with: the first of its choices
     * that fits (cs__eval's rule); none fits: it is never simulated. Full
     * recomputation counts only the fewest layers that fit, and nothing
     * where the activation offload may replace it. */
    struct cs_workload w = it->w;
    double rc_share = -1;
    for (int j = 0; j < it->nrc && rc_share < 0; j++) {
        w.recompute = it->rc[j];
        w.recompute_layers = 0;
        struct cs_memory_breakdown mem;
        if (cs_memory_per_gpu_params(&w, &c->gpu, &o->compute, &mem) != CS_OK)
            return 0.0;
        if (!mem.fits)
            continue;
        rc_share = 1.0;
        if (w.recompute == CS_RECOMPUTE_FULL) {
            bool offload = sp->try_offload && isfinite(c->gpu.host_bw_bytes_per_s) &&
                           c->gpu.host_bw_bytes_per_s > 0;
            int nvirt = w.par.pp * (w.par.vp > 1 ? w.par.vp : 1);
            int all = (w.model.layers + nvirt - 1) / nvirt;
            if (offload)
                rc_share = 0.0;
            else if (sp->partial_recompute && all > 0)
                rc_share = (double)cs_memory_fewest_that_fit(&w, &c->gpu, &o->compute,
                                                             &w.recompute_layers, all) / all;
        }
    }
    if (rc_share < 0)
        return INFINITY;
    struct cs_layer_cost ly, emb, lg;
    if (cs_compute_layer(&w, &c->gpu, &o->compute, &ly) != CS_OK ||
        cs_compute_embedding(&w, &c->gpu, &o->compute, &emb) != CS_OK ||
        cs_compute_logits(&w, &c->gpu, &o->compute, &lg) != CS_OK)
        return 0.0;
    double per = ly.fwd_s + ly.bwd_s + rc_share * ly.recompute_s;
    if (cs_model_is_hybrid(&w.model)) {
        /* a bound: the cheapest block kind the pattern holds */
        per = INFINITY;
        int cnt[CS_BLOCK_COUNT];
        cs_model_slots_in(&w.model, 0, w.model.layers, cnt);
        for (int k = 0; k < CS_BLOCK_COUNT; k++) {
            struct cs_layer_cost bc;
            if (cnt[k] == 0)
                continue;
            if (cs_compute_block(&w, &c->gpu, &o->compute, (enum cs_block)k, &bc) != CS_OK)
                return 0.0;
            double pb = bc.fwd_s + bc.bwd_s + rc_share * bc.recompute_s;
            if (pb < per)
                per = pb;
        }
    } else if (cs_model_is_moe(&w.model)) {
        struct cs_layer_cost ml;
        if (cs_compute_moe_layer(&w, &c->gpu, &o->compute, &ml) != CS_OK)
            return 0.0;
        double pm = ml.fwd_s + ml.bwd_s + rc_share * ml.recompute_s;
        if (pm < per)
            per = pm;
    }
    long per_step = (long)w.par.dp * w.micro_batch;
    if (per_step <= 0 || w.global_batch % per_step)
        return 0.0;
    double m = (double)(w.global_batch / per_step);
    int pp = w.par.pp;
    int lmax = (w.model.layers + pp - 1) / pp;
    int vp = w.par.vp > 1 ? w.par.vp : 1;
    int chunk = w.model.layers / (pp * vp);
    double e = emb.fwd_s + emb.bwd_s, l = lg.fwd_s + lg.bwd_s;
    /* the embedding and the output layer: both on the one stage, or one
     * each on the first and last (the busiest when the layers divide
     * evenly) */
    double ends = pp == 1 ? e + l : w.model.layers % pp == 0 ? (e < l ? e : l) : 0.0;
    double b = m * (lmax * per + ends) + (double)(pp - 1) * chunk * per;
    return isfinite(b) && b > 0 ? b : 0.0;
}

static int cs__cmp_bound(const void *a, const void *b)
{
    const struct cs__item *x = a, *y = b;
    return x->bound_s < y->bound_s ? -1 : x->bound_s > y->bound_s ? 1 : 0;
}

cs_status cs_search_run(const struct cs_cluster_cfg *c, const struct cs_workload *base,
                        const struct cs_step_options *o, const struct cs_search_space *sp,
                        cs_search_progress progress, void *ctx, struct cs_search_result *out)
{
    size_t nitems;
    struct cs__item *items = cs__enumerate(c, base, sp, &nitems);
    size_t bounded = 0;
    if (sp->best_only) {
        for (size_t i = 0; i < nitems; i++)
            items[i].bound_s = cs__bound(c, o, sp, &items[i]);
        /* (equal bounds in any order: every item whose bound does not exceed
         * the fastest step is simulated, so the first point does not depend
         * on it) */
        if (nitems > 1)
            qsort(items, nitems, sizeof *items, cs__cmp_bound);
    }
    int nth = sp->threads > 0 && !sp->best_only ? sp->threads : 1;
    if (nth > CS_SEARCH_MAX_THREADS)
        nth = CS_SEARCH_MAX_THREADS;
    if ((size_t)nth > nitems)
        nth = nitems > 0 ? (int)nitems : 1;
    struct cs__work wk[CS_SEARCH_MAX_THREADS];
    memset(wk, 0, sizeof wk);
    for (int t = 0; t < nth; t++) {
        wk[t].c = c;
        wk[t].o = o;
        wk[t].sp = sp;
        wk[t].items = items;
        wk[t].nitems = nitems;
        wk[t].stride = nth;
        wk[t].first = t;
    }
    if (sp->best_only) {
        /* Best first by the bound; stop once the bound exceeds the fastest
         * step found: no later item can beat (or tie) it. */
        double best = INFINITY;
        size_t i = 0;
        for (; i < nitems && !(items[i].bound_s > best); i++) {
            size_t before = wk[0].acc.n;
            cs__eval(&wk[0], &items[i]);
            for (size_t k = before; k < wk[0].acc.n; k++)
                if (wk[0].acc.pts[k].r.fits && wk[0].acc.pts[k].r.time_s < best)
                    best = wk[0].acc.pts[k].r.time_s;
            if (progress && i % 256 == 255)
                progress(i + 1, nitems, ctx);
        }
        bounded = nitems - i;
    } else if (nth == 1) {
        /* in the calling thread, with progress reports */
        for (size_t i = 0; i < nitems; i++) {
            cs__eval(&wk[0], &items[i]);
            if (progress && i % 256 == 255)
                progress(i + 1, nitems, ctx);
        }
    } else {
        pthread_t th[CS_SEARCH_MAX_THREADS];
        int started = 0;
        for (int t = 1; t < nth; t++)
            if (pthread_create(&th[t], NULL, cs__worker, &wk[t]) == 0)
                started = t;
            else
                break;
        /* threads that failed to start: their share runs here */
        for (int t = started + 1; t < nth; t++)
            cs__worker(&wk[t]);
        cs__worker(&wk[0]);
        for (int t = 1; t <= started; t++)
            pthread_join(th[t], NULL);
    }
    free(items);
    struct cs__acc acc = {NULL, 0, 0};
    size_t considered = 0, invalid = 0, unfit = 0;
    for (int t = 0; t < nth; t++) {
        for (size_t i = 0; i < wk[t].acc.n; i++)
            cs__add(&acc, &wk[t].acc.pts[i].w, &wk[t].acc.pts[i].r);
        free(wk[t].acc.pts);
        cs_sim_destroy(wk[t].engine);
        considered += wk[t].considered;
        invalid += wk[t].invalid;
        unfit += wk[t].unfit;
    }
    /* the sort's tie-break makes the order independent of the thread count */
    if (acc.n > 1)
        qsort(acc.pts, acc.n, sizeof *acc.pts, cs__cmp);
    out->points = acc.pts;
    out->n = acc.n;
    out->considered = considered;
    out->invalid = invalid;
    out->unfit = unfit;
    out->bounded = bounded;
    if (progress)
        progress(nitems, nitems, ctx);
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
