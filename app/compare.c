/* compare.c: one scenario's column of `clustersim compare` (contract in
 * clustersim/app/compare.h). */
#include "clustersim/app/compare.h"

#include "clustersim/app/pipeline.h"
#include "clustersim/models/collective.h"
#include "clustersim/models/compute.h"
#include "clustersim/models/memory.h"
#include "clustersim/models/step.h"
#include "clustersim/report/run_report.h" /* cs_claim_metric_value */

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Time, bus bandwidth (nccl-tests' busbw convention) and the algorithm the
 * closed-form model picks for `op` of `bytes` over group g. */
static void coll_at(const struct cs_cluster_cfg *c, const struct cs_coll_params *p,
                    enum cs_coll_op op, double bytes, const struct cs_coll_group *g,
                    double *time_s, double *busbw, char *algo, size_t alen)
{
    enum cs_coll_algo a = CS_COLL_AUTO;
    /* NAN here is the report's "no such collective" cell (printed as -). */
    double t = NAN;
    if (g->ranks > 1 && bytes > 0 &&
        cs_coll_time_ex(c, p, op, bytes, g, CS_COLL_AUTO, &t, &a, NULL) != CS_OK)
        t = NAN;
    *time_s = t;
    *busbw = t > 0 ? bytes / t * cs_coll_busbw_factor(op, g->ranks) : NAN;
    snprintf(algo, alen, "%s", g->ranks > 1 ? cs_coll_algo_name(a) : "-");
}

cs_status cs_app_compare_eval(const struct cs_scenario *s, const char *file, cs_diags *d,
                              struct cs_app_compare *r)
{
    memset(r, 0, sizeof *r);
    r->file = file;
    snprintf(r->name, sizeof r->name, "%s", s->name);
    r->gpus = cs_scenario_gpus(s);
    const struct cs_cluster_cfg *c = &s->cluster;
    snprintf(r->topology, sizeof r->topology, "%s", cs_topology_name(c->fabric.topology));
    snprintf(r->link, sizeof r->link, "%s", c->fabric.link.name);
    snprintf(r->placement, sizeof r->placement, "%s",
             c->fabric.placement == CS_PLACEMENT_SCATTERED ? "scattered" : "packed");
    r->oversub = c->fabric.oversubscription;
    r->step_s = r->mfu = r->tokens_per_s = r->exposed_comm_s = r->dp_comm_total_s = NAN;
    r->busy_s = r->dp_net_share = r->network_slowdown = NAN;
    r->ep_comm_s = r->moe_imbalance_s = r->ep_net_share = NAN;
    r->moe = s->has_workload && cs_model_is_moe(&s->workload.model);
    r->ep = s->has_workload && s->workload.par.ep > 0 ? s->workload.par.ep : 1;
    r->dp_msg_bytes = r->dp_busbw = r->dp_time_s = NAN;
    r->tp_msg_bytes = r->tp_busbw = r->tp_time_s = NAN;
    snprintf(r->dp_algo, sizeof r->dp_algo, "-");
    snprintf(r->tp_algo, sizeof r->tp_algo, "-");
    cs_fabric *f = NULL;
    if (cs_fabric_create(c, s->seed, &f) == CS_OK) {
        cs_fabric_counts(f, &r->counts);
        r->has_counts = true;
        cs_fabric_destroy(f);
    }
    if (!s->has_workload)
        return CS_OK;
    /* The step alone, as the step model gives it: no data stall, no run. */
    struct cs_app_eval_opts eo;
    cs_app_eval_opts_default(&eo);
    eo.data = false;
    eo.run = false;
    eo.quiet_nofit = true;
    struct cs_app_result res;
    cs_status st = cs_app_evaluate(s, &eo, d, &res);
    if (st != CS_OK && st != CS_ENOFIT) {
        cs_app_result_fini(&res);
        return st;
    }
    const struct cs_step_options *opt = &res.step_opt;
    r->has_step = true;
    r->fits = res.step.fits;
    r->claim = s->claim;
    /* the step alone: a data-stall claim has no figure here (NAN) */
    r->claim_metric = s->claim.metric == CS_CLAIM_DATA_STALL_FRACTION
                          ? NAN
                          : cs_claim_metric_value(&s->claim, &res.step);
    if (res.step.fits) {
        r->step_s = res.step.time_s;
        r->mfu = res.step.mfu;
        r->tokens_per_s = res.step.tokens_per_s;
        r->exposed_comm_s = res.step.exposed_comm_s;
        r->dp_comm_total_s = res.step.dp_comm_total_s;
        r->busy_s = res.step.compute_s;
        r->dp_net_share = res.step.dp_net_share;
        r->network_slowdown = res.network_slowdown;
        r->ep_comm_s = res.step.ep_comm_s;
        r->moe_imbalance_s = res.step.moe_imbalance_s;
        r->ep_net_share = res.step.ep_net_share;
    }
    /* The job's collectives at their message sizes, as the step model sends
     * them: DP gradients in buckets (all_reduce, or reduce_scatter with
     * ZeRO/FSDP), TP activations per layer (all_reduce). */
    const struct cs_parallel *p = &s->workload.par;
    int g = c->gpus_per_node;
    struct cs_coll_group dpg = cs_step_group(p->dp, (long)p->tp * p->cp, g);
    struct cs_coll_group tpg = cs_step_group(p->tp, 1, g);
    /* at the shares the flow model gave them in the step */
    dpg.job_nodes = tpg.job_nodes = (int)(cs_job_gpus(c, &s->workload) / g);
    if (r->dp_net_share > 0)
        dpg.net_share = r->dp_net_share;
    if (res.step.tp_net_share > 0)
        tpg.net_share = res.step.tp_net_share;
    r->dp_ranks = p->dp;
    r->tp_ranks = p->tp;
    double grad = cs_memory_grad_reduce_bytes(&s->workload);
    struct cs_layer_cost L;
    double stage_grad = NAN;
    if (cs_compute_layer(&s->workload, &c->gpu, &opt->compute, &L) == CS_OK) {
        r->tp_msg_bytes = L.tp_msg_bytes;
        stage_grad = L.params * grad * ((double)s->workload.model.layers / (p->pp > 0 ? p->pp : 1));
    }
    double bucket = opt->dp_bucket_bytes;
    r->dp_msg_bytes = isfinite(stage_grad) && stage_grad < bucket ? stage_grad : bucket;
    enum cs_coll_op dp_op = p->fsdp == CS_FSDP_NONE ? CS_COLL_ALL_REDUCE : CS_COLL_REDUCE_SCATTER;
    coll_at(c, &opt->coll, dp_op, r->dp_msg_bytes, &dpg, &r->dp_time_s, &r->dp_busbw, r->dp_algo,
            sizeof r->dp_algo);
    if (isfinite(r->tp_msg_bytes))
        coll_at(c, &opt->coll, CS_COLL_ALL_REDUCE, r->tp_msg_bytes, &tpg, &r->tp_time_s,
                &r->tp_busbw, r->tp_algo, sizeof r->tp_algo);
    cs_app_result_fini(&res);
    return CS_OK;
}

double cs_app_compare_metric(const struct cs_claim_cfg *c, const struct cs_app_compare *r)
{
    if (!r->has_step || !r->fits)
        return NAN;
    switch ((enum cs_claim_metric)c->metric) {
    case CS_CLAIM_MFU: return r->mfu;
    case CS_CLAIM_TOKENS_PER_S: return r->tokens_per_s;
    case CS_CLAIM_STEP_TIME_S: return r->step_s;
    case CS_CLAIM_EXPOSED_COMM_FRACTION: return r->exposed_comm_s / r->step_s;
    case CS_CLAIM_GPU_BUSY_FRACTION: return r->busy_s / r->step_s;
    /* compare simulates the step alone: no data pipeline, no run */
    case CS_CLAIM_DATA_STALL_FRACTION:
    case CS_CLAIM_GOODPUT:
    case CS_CLAIM_CHECKPOINT_OVERHEAD_S:
    case CS_CLAIM_CHECKPOINT_BLOCKING_S:
    case CS_CLAIM_NODE_POWER_W: /* facility claims: `clustersim run` judges them */
    case CS_CLAIM_KW_PER_RACK:
    case CS_CLAIM_COOLING_OK:
    case CS_CLAIM_TIME_TO_THROTTLE_S:
    case CS_CLAIM_METRIC_COUNT: break;
    }
    return NAN;
}
