/* validate.c: predicts the published step-time measurements (refs.h) with
 * the step model, applying each file's documented policy for what the row
 * does not state. */
#include "clustersim/models/refcase.h"
#include "clustersim/models/compute.h"
#include "clustersim/models/memory.h"

#include <math.h>
#include <string.h>

void cs_refs_options(const struct cs_ref_case *c, struct cs_step_options *o)
{
    cs_step_options_default(&c->scen.cluster.gpu, o);
    struct cs_stack_preset p;
    if (!cs_stack_preset(c->stack, &p))
        (void)cs_stack_preset(CS_STACK_MCORE_2024, &p);
    o->dp_overlap = p.dp_overlap;
    o->tp_overlap = p.tp_comm_overlap;
    /* a table whose recipes ran without TP communication overlap says so
     * (the index's no_tp_comm_overlap: the scenario's tp_comm_overlap 0) */
    if (isfinite(c->scen.workload.tp_comm_overlap))
        o->tp_overlap = c->scen.workload.tp_comm_overlap;
    o->compute.fused_attention = p.fused_attention;
    o->compute.fp8_linear_factor = cs_compute_fp8_linear_factor(&c->scen.workload, &c->scen.cluster.gpu);
    /* a row that states its attention kernels (the attention column) */
    if (c->scen.workload.fused_attention == 1)
        o->compute.fused_attention = true;
    else if (c->scen.workload.fused_attention == 2)
        o->compute.fused_attention = false;
}

const char *cs_ref_stack_name(enum cs_stack s)
{
    return (unsigned)s < CS_STACK_COUNT ? cs_stack_names[s] : "?";
}

bool cs_ref_stack_parse(const char *name, enum cs_stack *out)
{
    for (int i = 1; i < CS_STACK_COUNT; i++)
        if (strcmp(name, cs_stack_names[i]) == 0) {
            *out = (enum cs_stack)i;
            return true;
        }
    return false;
}

static double cs__metric(const struct cs_ref_case *c, const struct cs_step_result *r)
{
    switch (c->metric) {
    case CS_REF_ITER_S: return r->time_s;
    case CS_REF_TFLOPS_HW: return r->tflops_per_gpu;
    case CS_REF_TFLOPS_MODEL:
        return r->mfu * c->scen.cluster.gpu.peak_flops[c->scen.workload.precision] / 1e12;
    case CS_REF_TOKENS_PER_GPU: {
        long g = cs_job_gpus(&c->scen.cluster, &c->scen.workload);
        return g > 0 ? r->tokens_per_s / (double)g : NAN;
    }
    case CS_REF_PEAK_MEMORY_GIB:
        return NAN;   /* not from a step: cs_refs_predict answers it from the memory model */
    }
    return NAN;
}

static cs_status cs__predict(const struct cs_ref_case *c, const struct cs_step_options *o, cs_diags *d,
                             double *predicted, struct cs_step_result *r, struct cs_workload *chosen);

cs_status cs_refs_predict(const struct cs_ref_case *c, const struct cs_step_options *o,
                          cs_diags *d, double *predicted, struct cs_step_result *r,
                          struct cs_workload *chosen)
{
    const struct cs_workload *base = &c->scen.workload;
    if (c->metric == CS_REF_PEAK_MEMORY_GIB) {
        /* the memory model's peak per GPU (its most loaded stage), the
         * stated configuration as it is; the step is not simulated */
        struct cs_memory_breakdown mb;
        cs_status mst = cs_memory_per_gpu_params(base, &c->scen.cluster.gpu, &o->compute, &mb);
        if (mst != CS_OK) {
            cs_diag_error(d, c->file, c->line, 0, "the memory model refused the row's configuration");
            return mst;
        }
        *predicted = mb.total_bytes / 1073741824.0;
        if (r)
            memset(r, 0, sizeof *r);
        if (chosen)
            *chosen = *base;
        return CS_OK;
    }
    /* The network model of the row's job (its placement on its fabric), as
     * every other answer uses, unless the caller brought one. */
    struct cs_step_options on_net = *o;
    cs_netmodel *net = NULL;
    if (!o->net && c->net) {
        on_net.net = c->net;
    } else if (!o->net && c->scen.cluster.nodes > 1) {
        cs_status nst = cs_netmodel_create(&c->scen.cluster, cs_job_gpus(&c->scen.cluster, base), NULL, 0,
                                           c->scen.seed, &net, NULL, 0);
        if (nst == CS_OK)
            on_net.net = net;
    }
    o = &on_net;
    cs_status rc = cs__predict(c, o, d, predicted, r, chosen);
    cs_netmodel_destroy(net);
    return rc;
}

static cs_status cs__predict(const struct cs_ref_case *c, const struct cs_step_options *o, cs_diags *d,
                             double *predicted, struct cs_step_result *r, struct cs_workload *chosen)
{
    static const int mbs[] = {1, 2, 4, 8};
    static const enum cs_recompute rcs[] = {CS_RECOMPUTE_NONE, CS_RECOMPUTE_SELECTIVE,
                                            CS_RECOMPUTE_FULL};
    const struct cs_workload *base = &c->scen.workload;
    int nmb = c->search_micro_batch ? 4 : 1;
    int nrc = c->search_recompute ? 3 : 1;
    bool found = false;
    double best_tput = 0;
    struct cs_step_result best;
    struct cs_workload best_w;
    memset(&best, 0, sizeof best);
    memset(&best_w, 0, sizeof best_w);
    cs_status last = CS_ENOFIT;
    for (int i = 0; i < nmb; i++) {
        struct cs_workload w = *base;
        if (c->search_micro_batch) {
            w.micro_batch = mbs[i];
            long per = (long)w.par.dp * w.micro_batch;
            if (w.global_batch % per != 0)
                continue;
            long m = w.global_batch / per;
            if (w.par.vp > 1 && m % w.par.pp != 0)
                continue;
        }
        for (int j = 0; j < nrc; j++) {
            if (c->search_recompute) {
                w.recompute = rcs[j];
                w.recompute_layers = 0;
                w.offload_layers = base->offload_layers;
            }
            struct cs_step_result res;
            cs_status st = cs_step_simulate(&c->scen.cluster, &w, o, d, &res);
            if (st != CS_OK)
                return st;
            if (res.fits && c->search_recompute && w.recompute == CS_RECOMPUTE_FULL) {
                /* The fewest fully recomputed layers per virtual stage that
                 * fit (memory falls as the count grows): what a recipe
                 * tunes with --recompute-num-layers. */
                int nvirt = w.par.pp * (w.par.vp > 1 ? w.par.vp : 1);
                int all = (w.model.layers + nvirt - 1) / nvirt;
                int lo = cs_memory_fewest_that_fit(&w, &c->scen.cluster.gpu, &o->compute,
                                                   &w.recompute_layers, all);
                if (lo < all) {
                    w.recompute_layers = lo;
                    if ((st = cs_step_simulate(&c->scen.cluster, &w, o, d, &res)) != CS_OK)
                        return st;
                }
                /* The other way a recipe makes the activations fit: keep
                 * them in host memory (Megatron-Bridge's GB200/GB300
                 * recipes, cpu_offloading_num_layers). The fewest offloaded
                 * layers that fit, without recomputation; taken when it is
                 * faster. */
                if (cs_step_host_bw(&c->scen.cluster.gpu, &o->coll) > 0) {
                    struct cs_workload wo = w;
                    wo.recompute = CS_RECOMPUTE_NONE;
                    wo.recompute_layers = 0;
                    int per_gpu = (wo.model.layers + wo.par.pp - 1) / wo.par.pp;
                    wo.offload_layers = cs_memory_fewest_that_fit(&wo, &c->scen.cluster.gpu, &o->compute,
                                                              &wo.offload_layers, per_gpu);
                    struct cs_step_result ro;
                    if ((st = cs_step_simulate(&c->scen.cluster, &wo, o, d, &ro)) != CS_OK)
                        return st;
                    if (ro.fits && (!res.fits || ro.tokens_per_s > res.tokens_per_s)) {
                        res = ro;
                        w = wo;
                    }
                }
            }
            if (!res.fits)
                continue;
            if (!found || res.tokens_per_s > best_tput) {
                found = true;
                best_tput = res.tokens_per_s;
                best = res;
                best_w = w;
            }
            last = CS_OK;
            break; /* the cheapest recomputation that fits */
        }
    }
    if (!found)
        return last;
    *predicted = cs__metric(c, &best);
    *r = best;
    if (chosen)
        *chosen = best_w;
    return CS_OK;
}

const char *cs_ref_metric_name(enum cs_ref_metric m)
{
    switch (m) {
    case CS_REF_ITER_S: return "iteration s";
    case CS_REF_TFLOPS_HW: return "TFLOP/s/GPU (hw)";
    case CS_REF_TFLOPS_MODEL: return "TFLOP/s/GPU (model)";
    case CS_REF_TOKENS_PER_GPU: return "tokens/s/GPU";
    case CS_REF_PEAK_MEMORY_GIB: return "peak GiB/GPU";
    }
    return "?";
}
