/* results_json.c: the JSON objects of run, search, collective, tco and
 * plan (results_json.h), moved here from cli/cmd_*.c unchanged so that the
 * command line and the library's request entry point (api/api.c) build
 * them once. */
#include "clustersim/app/results_json.h"

#include "clustersim/app/validate.h"
#include "clustersim/models/topology.h"
#include "clustersim/report/run_level.h"
#include "clustersim/report/run_report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char *cs_app_recompute_label(const struct cs_workload *w, char *buf, size_t len)
{
    if (w->recompute == CS_RECOMPUTE_FULL && w->recompute_layers > 0)
        snprintf(buf, len, "full:%d", w->recompute_layers);
    else if (w->recompute == CS_RECOMPUTE_NONE && w->offload_layers > 0)
        snprintf(buf, len, "off:%d", w->offload_layers);
    else
        snprintf(buf, len, "%s", cs_recompute_name(w->recompute));
    return buf;
}

/* ---- run ---- */

static void cs__unc_dist_json(cJSON *o, const char *key, const struct cs_unc_dist *x)
{
    cJSON *j = cJSON_AddObjectToObject(o, key);
    cJSON_AddNumberToObject(j, "p05", x->p05);
    cJSON_AddNumberToObject(j, "p50", x->p50);
    cJSON_AddNumberToObject(j, "p95", x->p95);
    cJSON_AddNumberToObject(j, "mean", x->mean);
}

static void cs__unc_json(cJSON *root, const struct cs_app_uncertainty *u)
{
    cJSON *o = cJSON_AddObjectToObject(root, "uncertainty");
    cJSON_AddNumberToObject(o, "samples", u->samples);
    cs__unc_dist_json(o, "step_time_s", &u->step_time_s);
    if (u->has_time)
        cs__unc_dist_json(o, "time_to_train_s", &u->time_to_train_s);
    cJSON *in = cJSON_AddObjectToObject(o, "inputs");
    cJSON *st = cJSON_AddObjectToObject(in, "step_time");
    cJSON_AddNumberToObject(st, "mean_abs_error", u->spec.step_mape);
    cJSON_AddNumberToObject(st, "sigma", u->spec.step_sigma);
    cJSON_AddStringToObject(st, "source", u->spec.step_source);
    cJSON *mt = cJSON_AddArrayToObject(in, "mtbf");
    cJSON_AddItemToArray(mt, cJSON_CreateNumber(u->spec.mtbf_lo));
    cJSON_AddItemToArray(mt, cJSON_CreateNumber(u->spec.mtbf_hi));
    cJSON *rs = cJSON_AddArrayToObject(in, "restart");
    cJSON_AddItemToArray(rs, cJSON_CreateNumber(u->spec.restart_lo));
    cJSON_AddItemToArray(rs, cJSON_CreateNumber(u->spec.restart_hi));
    cJSON *t = cJSON_AddArrayToObject(o, "tornado");
    for (int i = 0; i < u->n_tornado; i++) {
        cJSON *j = cJSON_CreateObject();
        cJSON_AddStringToObject(j, "input", cs_unc_input_names[u->tornado[i].input]);
        cJSON_AddStringToObject(j, "figure", u->has_time ? "time_to_train_s" : "step_time_s");
        cJSON_AddNumberToObject(j, "low", u->tornado[i].low);
        cJSON_AddNumberToObject(j, "high", u->tornado[i].high);
        cJSON_AddNumberToObject(j, "low_factor", u->tornado[i].low_factor);
        cJSON_AddNumberToObject(j, "high_factor", u->tornado[i].high_factor);
        cJSON_AddItemToArray(t, j);
    }
}

cJSON *cs_app_run_json(const struct cs_scenario *s, const char *path, const struct cs_app_result *res,
                       const struct cs_app_uncertainty *unc)
{
    bool have_step = res->has_step;
    const struct cs_step_result *r = &res->step;
    struct cs_claim_verdict verdict =
        cs_claim_judge(&s->claim, have_step ? cs_claim_metric_value_scn(&s->claim, s, r, &res->run) : NAN, NAN);
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "clustersim_version", CLUSTERSIM_VERSION);
    cJSON_AddStringToObject(root, "scenario", s->name);
    cJSON_AddStringToObject(root, "file", path);
    cJSON_AddItemToObject(root, "cluster", cs_out_cluster_json(s));
    cs_out_facility_json(root, s);
    if (have_step) {
        cJSON_AddItemToObject(root, "workload", cs_out_workload_json(&s->workload));
        cs_out_step_json(root, r);
        cs_out_data_json(root, &res->data);
        cs_out_run_level_json(root, &res->run);
        if (unc)
            cs__unc_json(root, unc);
    }
    cs_out_claim_json(root, &s->claim, &verdict);
    return root;
}

/* ---- search ---- */

cJSON *cs_app_search_json(const struct cs_scenario *s, const cs_catalog *cat, const struct cs_app_search *sr)
{
    const struct cs_search_result *res = &sr->res;
    /* The range the step model was validated over on this GPU (and stack),
     * and its error there: the uncertainty of every figure. */
    struct cs_app_validate val;
    bool have_vr = cs_app_validate_all(cat, &val) == CS_OK;
    struct cs_app_vrange vr;
    struct cs_app_vmodel vm;
    if (have_vr) { /* one comparison for the range and the architecture */
        cs_app_vrange_of(&val, s->cluster.gpu.name, s->workload.stack, cs_model_is_moe(&s->workload.model),
                         &vr);
        cs_app_vmodel_of(&val, &s->workload, &vm);
        cs_app_validate_fini(&val);
    }
    int vk = have_vr && vr.rows[1] > 0 ? 1 : 0; /* held-out error where there is one */
    double verr = have_vr && vr.rows[vk] > 0 ? vr.mape[vk] : NAN;
    size_t show = sr->shown;
    cJSON *root = cJSON_CreateObject();
    cJSON *so = cJSON_AddObjectToObject(root, "search");
    cJSON_AddNumberToObject(so, "considered", (double)res->considered);
    cJSON_AddNumberToObject(so, "invalid", (double)res->invalid);
    cJSON_AddNumberToObject(so, "unfit", (double)res->unfit);
    cJSON_AddNumberToObject(so, "simulated", (double)res->n);
    if (have_vr) {
        cJSON *v = cJSON_AddObjectToObject(so, "validated_range");
        cJSON_AddStringToObject(v, "gpu", vr.gpu);
        cJSON_AddStringToObject(v, "stack", cs_stack_names[vr.stack]);
        cJSON_AddStringToObject(v, "kind", vr.moe ? "moe" : "dense");
        cJSON_AddNumberToObject(v, "fit_rows", vr.rows[0]);
        cJSON_AddNumberToObject(v, "holdout_rows", vr.rows[1]);
        if (vr.rows[0]) {
            cJSON_AddNumberToObject(v, "fit_mape", vr.mape[0]);
            cJSON_AddNumberToObject(v, "fit_mean_error", vr.bias[0]);
        }
        if (vr.rows[1]) {
            cJSON_AddNumberToObject(v, "holdout_mape", vr.mape[1]);
            cJSON_AddNumberToObject(v, "holdout_mean_error", vr.bias[1]);
        }
        if (vr.rows[0] + vr.rows[1]) {
            cJSON_AddNumberToObject(v, "params_min", vr.params_min);
            cJSON_AddNumberToObject(v, "params_max", vr.params_max);
            cJSON_AddNumberToObject(v, "seq_min", (double)vr.seq_min);
            cJSON_AddNumberToObject(v, "seq_max", (double)vr.seq_max);
            cJSON_AddNumberToObject(v, "gpus_min", (double)vr.gpus_min);
            cJSON_AddNumberToObject(v, "gpus_max", (double)vr.gpus_max);
        }
    }
    if (have_vr && vm.rows[0] + vm.rows[1] > 0) {
        cJSON *v = cJSON_AddObjectToObject(so, "validated_model");
        cJSON_AddStringToObject(v, "model", s->workload.model.name);
        cJSON_AddStringToObject(v, "gpus", vm.gpus);
        const char *role[2] = {"fit", "holdout"};
        for (int k = 0; k < 2; k++) {
            char key[32];
            snprintf(key, sizeof key, "%s_rows", role[k]);
            cJSON_AddNumberToObject(v, key, vm.rows[k]);
            if (!vm.rows[k])
                continue;
            snprintf(key, sizeof key, "%s_tables", role[k]);
            cJSON_AddNumberToObject(v, key, vm.tables[k]);
            snprintf(key, sizeof key, "%s_mape", role[k]);
            cJSON_AddNumberToObject(v, key, vm.mape[k]);
            snprintf(key, sizeof key, "%s_mean_error", role[k]);
            cJSON_AddNumberToObject(v, key, vm.bias[k]);
            snprintf(key, sizeof key, "%s_error_min", role[k]);
            cJSON_AddNumberToObject(v, key, vm.err_min[k]);
            snprintf(key, sizeof key, "%s_error_max", role[k]);
            cJSON_AddNumberToObject(v, key, vm.err_max[k]);
        }
    }
    cJSON *arr = cJSON_AddArrayToObject(so, "configs");
    for (size_t i = 0; i < show; i++) {
        const struct cs_search_point *p = &res->points[i];
        cJSON *o2 = cJSON_CreateObject();
        cJSON_AddNumberToObject(o2, "rank", (double)(i + 1));
        cJSON_AddItemToObject(o2, "workload", cs_out_workload_json(&p->w));
        cs_out_step_json(o2, &p->r);
        if (have_vr) {
            char why[160];
            bool in = cs_app_vrange_inside(&vr, &p->w, cs_job_gpus(&s->cluster, &p->w), why,
                                           sizeof why);
            cJSON_AddBoolToObject(o2, "inside_validated_range", in);
            if (!in)
                cJSON_AddStringToObject(o2, "outside", why);
            if (isfinite(verr) && p->r.fits)
                cJSON_AddNumberToObject(o2, "tokens_per_s_uncertainty", verr * p->r.tokens_per_s);
        }
        cJSON_AddItemToArray(arr, o2);
    }
    return root;
}

/* ---- collective ---- */

cJSON *cs_app_coll_json(const struct cs_scenario *s, const char *path, const struct cs_app_coll_req *q,
                        const struct cs_app_coll_labels *lab, const struct cs_app_coll *res)
{
    enum cs_coll_op op = q->op;
    const struct cs_cluster_cfg *cp = &res->cluster;
    long n = res->n, k = res->nrows;
    const struct cs_app_coll_row *rows = res->rows;
    const char *redop_col = op == CS_COLL_ALL_REDUCE || op == CS_COLL_REDUCE_SCATTER ? lab->redop : "none";
    const char *model = q->flow ? "flow" : "closed-form";
    const char *placement = cp->fabric.placement == CS_PLACEMENT_SCATTERED ? "scattered" : "packed";
    double bus_sum = 0;
    for (long i = 0; i < k; i++)
        bus_sum += rows[i].busbw;
    cJSON *root_js = cJSON_CreateObject();
    cJSON_AddStringToObject(root_js, "clustersim_version", CLUSTERSIM_VERSION);
    cJSON_AddStringToObject(root_js, "scenario", s->name);
    cJSON_AddStringToObject(root_js, "file", path);
    cJSON_AddStringToObject(root_js, "op", cs_coll_op_name(op));
    cJSON_AddStringToObject(root_js, "redop", redop_col);
    cJSON_AddStringToObject(root_js, "datatype", lab->datatype);
    cJSON_AddNumberToObject(root_js, "ranks", (double)n);
    cJSON_AddStringToObject(root_js, "ranks_from", lab->ranks_given ? "--ranks" : "cluster");
    cJSON_AddStringToObject(root_js, "ranks_why", res->ranks_why);
    cJSON_AddNumberToObject(root_js, "processes", (double)res->nprocs);
    cJSON_AddNumberToObject(root_js, "threads_per_process", (double)q->nthreads);
    cJSON_AddNumberToObject(root_js, "gpus_per_thread", (double)q->ngpus);
    cJSON_AddNumberToObject(root_js, "nodes", res->nodes);
    cJSON_AddNumberToObject(root_js, "ranks_per_node", res->ppn);
    cJSON_AddStringToObject(root_js, "model", model);
    cJSON_AddStringToObject(root_js, "placement", placement);
    cJSON_AddStringToObject(root_js, "topology", cs_topology_name(cp->fabric.topology));
    cJSON_AddStringToObject(root_js, "link", cp->fabric.link.name);
    cJSON *arr = cJSON_AddArrayToObject(root_js, "rows");
    for (long i = 0; i < k; i++) {
        const struct cs_app_coll_row *r = &rows[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "size_bytes", r->size);
        cJSON_AddNumberToObject(o, "count", r->count);
        cJSON_AddNumberToObject(o, "time_us", r->time_s * 1e6);
        cJSON_AddNumberToObject(o, "algbw_gb_per_s", r->algbw / 1e9);
        cJSON_AddNumberToObject(o, "busbw_gb_per_s", r->busbw / 1e9);
        cJSON_AddStringToObject(o, "algo", cs_coll_algo_name(r->algo));
        if (r->has_proto)
            cJSON_AddStringToObject(o, "proto", cs_coll_proto_name(r->proto));
        cJSON_AddItemToArray(arr, o);
    }
    cJSON_AddNumberToObject(root_js, "avg_busbw_gb_per_s", k > 0 ? bus_sum / (double)k / 1e9 : 0.0);
    return root_js;
}

/* ---- tco ---- */

static void cost_unc_json(cJSON *root, const struct cs_app_cost_unc *u, const struct cs_cost_result *base)
{
    cJSON *o = cJSON_AddObjectToObject(root, "uncertainty");
    cJSON_AddNumberToObject(o, "samples", u->samples);
    cJSON_AddStringToObject(o, "ranges_from", u->stated ? "stated (+-cost.sensitivity)" : "cost.ranges");
    cJSON *rg = cJSON_AddObjectToObject(o, "ranges");
    for (int i = 0; i < u->n_ranges; i++) {
        cJSON *a = cJSON_AddArrayToObject(rg, u->ranges[i].key);
        cJSON_AddItemToArray(a, cJSON_CreateNumber(u->ranges[i].low));
        cJSON_AddItemToArray(a, cJSON_CreateNumber(u->ranges[i].high));
    }
    cJSON *t = cJSON_AddObjectToObject(o, "total_usd");
    for (int k = 0; k < CS_OPT_COUNT; k++) {
        if (!base->opt[k].available)
            continue;
        cJSON *j = cJSON_AddObjectToObject(t, cs_cost_option_name((enum cs_cost_option)k));
        cJSON_AddNumberToObject(j, "p05", u->mc.p05[k]);
        cJSON_AddNumberToObject(j, "p50", u->mc.p50[k]);
        cJSON_AddNumberToObject(j, "p95", u->mc.p95[k]);
        cJSON_AddNumberToObject(j, "cheapest_share", u->mc.cheapest_share[k]);
    }
    cJSON_AddStringToObject(o, "tornado_option", cs_cost_option_name(u->tornado_option));
    cJSON *tr = cJSON_AddArrayToObject(o, "tornado");
    int op = (int)u->tornado_option;
    for (int i = 0; i < u->n_tornado; i++) {
        cJSON *j = cJSON_CreateObject();
        cJSON_AddStringToObject(j, "input", cs_cost_input_name(u->tornado[i].input));
        cJSON_AddNumberToObject(j, "low", u->tornado[i].low_usd[op]);
        cJSON_AddNumberToObject(j, "high", u->tornado[i].high_usd[op]);
        cJSON_AddNumberToObject(j, "low_value", u->tornado[i].low_value);
        cJSON_AddNumberToObject(j, "high_value", u->tornado[i].high_value);
        cJSON_AddItemToArray(tr, j);
    }
}

cJSON *cs_app_tco_json(const struct cs_scenario *s, const char *path, const struct cs_tco_report *r,
                       const struct cs_app_cost_unc *cu, const struct cs_cost_result *base)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "clustersim_version", CLUSTERSIM_VERSION);
    cJSON_AddStringToObject(root, "scenario", s->name);
    cJSON_AddStringToObject(root, "file", path);
    cJSON_AddItemToObject(root, "cluster", cs_out_cluster_json(s));
    cs_out_tco_json(root, r);
    if (cu)
        cost_unc_json(root, cu, base);
    return root;
}

/* ---- plan ---- */

static cJSON *cs__dist(double m, double lo, double hi)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "mean", m);
    cJSON_AddNumberToObject(o, "p05", lo);
    cJSON_AddNumberToObject(o, "p95", hi);
    return o;
}

static cJSON *cs__plan_json(const struct cs_app_plan *r, struct cs_plan_ref ref)
{
    const struct cs_plan_cand *c = &r->c[ref.cand];
    const struct cs_plan_own *po = cs_plan_own_of(c, ref);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "gpu", cs_plan_gpu(r->plan, c->gi));
    cJSON_AddNumberToObject(o, "gpus", (double)c->gpus);
    cJSON_AddNumberToObject(o, "nodes", c->nodes);
    cJSON_AddStringToObject(o, "fabric", cs_plan_fabric(r->plan, c->fi));
    cJSON *pw = cs_out_workload_json(&c->w);
    cJSON *par = cJSON_DetachItemFromObject(pw, "parallelism");
    cJSON_AddItemToObject(o, "parallelism", par ? par : cJSON_CreateObject());
    cJSON_AddNumberToObject(o, "micro_batch", c->w.micro_batch);
    char rc[32];
    cJSON_AddStringToObject(o, "recompute", cs_app_recompute_label(&c->w, rc, sizeof rc));
    cJSON_Delete(pw);
    cJSON_AddStringToObject(o, "ownership", cs_cost_option_name(ref.opt));
    if (cs_plan_offer_of(c, ref)[0]) /* "" for an owned option */
        cJSON_AddStringToObject(o, "offer", cs_plan_offer_of(c, ref));
    cJSON_AddItemToObject(o, "time_to_train_s", cs__dist(po->time_s[0], po->time_s[1], po->time_s[2]));
    cJSON_AddItemToObject(o, "cost_usd", cs__dist(po->cost_usd[0], po->cost_usd[1], po->cost_usd[2]));
    cJSON_AddNumberToObject(o, "run_usd", po->run_usd[0]);
    cJSON_AddNumberToObject(o, "commitment_usd", po->commitment_usd[0]);
    cJSON_AddNumberToObject(o, "tco_usd", po->tco_usd);
    cJSON_AddBoolToObject(o, "meets_deadline", po->meets_deadline);
    cJSON_AddBoolToObject(o, "within_budget", po->within_budget);
    cJSON_AddNumberToObject(o, "step_time_s", c->step_time_s);
    cJSON_AddNumberToObject(o, "tokens_per_s", c->tokens_per_s);
    cJSON_AddNumberToObject(o, "mfu", c->mfu);
    cJSON *sh = cJSON_AddObjectToObject(o, "shares");
    cJSON_AddNumberToObject(sh, "failures", c->failure_share);
    cJSON_AddNumberToObject(sh, "checkpoints", c->checkpoint_share);
    cJSON_AddNumberToObject(sh, "communication", c->comm_share);
    cJSON_AddNumberToObject(o, "interruptions", c->interruptions);
    if (c->racks > 0) { /* the candidate's racks and cooling verdict (docs/plan.md) */
        cJSON *f = cJSON_AddObjectToObject(o, "facility");
        cJSON_AddNumberToObject(f, "racks", c->racks);
        cJSON_AddNumberToObject(f, "kw_per_rack", c->kw_per_rack);
        cJSON_AddStringToObject(f, "cooling", c->cooling);
        cJSON_AddBoolToObject(f, "cooling_ok", c->cooling_ok);
    }
    if (c->uncertainty) {
        cJSON *t = cJSON_AddArrayToObject(o, "tornado");
        for (int k = 0; k < c->n_tornado; k++) {
            cJSON *j = cJSON_CreateObject();
            cJSON_AddStringToObject(j, "input", cs_unc_input_names[c->tornado[k].input]);
            cJSON_AddNumberToObject(j, "low", c->tornado[k].low);
            cJSON_AddNumberToObject(j, "high", c->tornado[k].high);
            cJSON_AddNumberToObject(j, "low_factor", c->tornado[k].low_factor);
            cJSON_AddNumberToObject(j, "high_factor", c->tornado[k].high_factor);
            cJSON_AddItemToArray(t, j);
        }
    }
    return o;
}

cJSON *cs_app_plan_json(const struct cs_app_plan *r, bool all)
{
    const struct cs_plan_info *pi = &r->info;
    cJSON *root = cJSON_CreateObject();
    cJSON *p = cJSON_AddObjectToObject(root, "plan");
    cJSON_AddStringToObject(p, "name", pi->name);
    cJSON_AddNumberToObject(p, "deadline_s", pi->deadline_s);
    if (isfinite(pi->budget_usd))
        cJSON_AddNumberToObject(p, "budget_usd", pi->budget_usd);
    else
        cJSON_AddNullToObject(p, "budget_usd");
    cJSON_AddStringToObject(p, "budget_basis", cs_plan_basis_names[pi->basis]);
    cJSON *cc = cJSON_AddObjectToObject(p, "candidates");
    cJSON_AddNumberToObject(cc, "clusters", (double)r->n);
    cJSON_AddNumberToObject(cc, "evaluated", (double)r->evaluated);
    cJSON_AddNumberToObject(cc, "pruned", (double)r->pruned);
    cJSON_AddNumberToObject(cc, "nofit", (double)r->nofit);
    cJSON_AddNumberToObject(cc, "failed", (double)r->failed);
    cJSON_AddNumberToObject(cc, "configurations", (double)r->configs);
    if (r->has_cheapest)
        cJSON_AddItemToObject(p, "cheapest", cs__plan_json(r, r->cheapest));
    else
        cJSON_AddNullToObject(p, "cheapest");
    if (r->has_fastest)
        cJSON_AddItemToObject(p, "fastest", cs__plan_json(r, r->fastest));
    else
        cJSON_AddNullToObject(p, "fastest");
    cJSON *fr = cJSON_AddArrayToObject(p, "front");
    for (size_t i = 0; i < r->nfront; i++)
        cJSON_AddItemToArray(fr, cs__plan_json(r, r->front[i]));
    if (r->binding[0])
        cJSON_AddStringToObject(p, "binding", r->binding);
    else
        cJSON_AddNullToObject(p, "binding");
    if (all) {
        cJSON *arr = cJSON_AddArrayToObject(p, "clusters");
        for (size_t i = 0; i < r->n; i++) {
            const struct cs_plan_cand *c = &r->c[i];
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "gpu", cs_plan_gpu(r->plan, c->gi));
            cJSON_AddNumberToObject(o, "nodes", c->nodes);
            cJSON_AddNumberToObject(o, "gpus", (double)c->gpus);
            cJSON_AddStringToObject(o, "fabric", cs_plan_fabric(r->plan, c->fi));
            cJSON_AddStringToObject(o, "state", cs_plan_state_names[c->state]);
            if (isfinite(c->bound_s))
                cJSON_AddNumberToObject(o, "time_bound_s", c->bound_s);
            if (c->state != CS_PLAN_EVALUATED)
                cJSON_AddStringToObject(o, "reason", c->why);
            cJSON_AddItemToArray(arr, o);
        }
    }
    return root;
}
