/* pipeline.c: the scenario -> step -> data pipeline -> run -> cost
 * evaluation, once (contract in clustersim/app/pipeline.h). The order is the
 * models' data flow: the data stall lengthens the step (models/datapipe.c),
 * the run level takes that step (models/run.c), and the cost per run takes
 * the run's time and goodput (models/cost.c, docs/cost.md). */
#include "clustersim/app/pipeline.h"

#include "clustersim/base/xmalloc.h"
#include "clustersim/models/calib.h"
#include "clustersim/models/storage.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void cs_app_eval_opts_default(struct cs_app_eval_opts *o)
{
    memset(o, 0, sizeof *o);
    o->goal = CS_APP_GOAL_STEP;
    o->data = true;
    o->run = true;
    o->threads = 1;
}

void cs_app_result_fini(struct cs_app_result *r)
{
    if (!r)
        return;
    free(r->cost_in);
    free(r->cost);
    memset(r, 0, sizeof *r);
}

static cs_status failed(struct cs_app_result *out, enum cs_app_stage stage, cs_status st)
{
    out->failed = stage;
    return st;
}

/* The cost stage: the time per training run, the inputs (catalog prices
 * and the scenario's cost: section, resolved at load time), the TCO. */
static cs_status cost_stage(const struct cs_scenario *s, const struct cs_app_eval_opts *o,
                            cs_diags *d, struct cs_app_result *out)
{
    cs_cost_run_from(s, out->has_step ? &out->step : NULL, out->run.enabled ? &out->run : NULL,
                     d, &out->cost_run);
    double run_hours = out->cost_run.has_step ? out->cost_run.ideal_hours : NAN;
    struct cs_cost_inputs *in = cs_xcalloc(1, sizeof *in);
    cs_status st = cs_cost_inputs_from_scenario(s, run_hours, o->only_priced, d, in);
    if (st != CS_OK) {
        free(in);
        return st;
    }
    /* $/run over the run model's goodput (1 without it). */
    in->run_goodput = out->cost_run.goodput;
    out->cost_in = in;
    out->cost = cs_xcalloc(1, sizeof *out->cost);
    cs_cost_evaluate(in, out->cost);
    out->has_cost = true;
    return CS_OK;
}

cs_status cs_app_netmodel(const struct cs_scenario *s, bool neighbours, cs_diags *d, cs_netmodel **out)
{
    *out = NULL;
    const struct cs_cluster_cfg *c = &s->cluster;
    long job = s->has_workload ? cs_job_gpus(c, &s->workload) : (long)c->nodes * c->gpus_per_node;
    int n_nb = neighbours ? s->n_neighbours : 0;
    if (job <= c->gpus_per_node && n_nb == 0)
        return CS_OK;
    char why[256] = "";
    cs_status st = cs_netmodel_create(c, job, s->neighbours, n_nb, s->seed, out, why, sizeof why);
    if (st != CS_OK)
        cs_diag_error(d, s->file, 0, 0, "network model: %s", why[0] ? why : cs_strerror(st));
    return st;
}

/* The step on the network model of the scenario (with or without its
 * neighbours, with the storage loads ld[0..n_ld)); the model lives only for
 * the simulation. */
static cs_status step_on_net(const struct cs_scenario *s, bool neighbours, const struct cs_net_storage_load *ld,
                             int n_ld, cs_netmodel *shared, struct cs_step_options *opt, cs_diags *d,
                             struct cs_step_result *out)
{
    if (shared && n_ld == 0 && (!neighbours || s->n_neighbours == 0)) {
        /* the caller's model of this cluster (eval opts `net`): kept */
        opt->net = shared;
        cs_status st = cs_step_simulate(&s->cluster, &s->workload, opt, d, out);
        opt->net = NULL;
        return st;
    }
    cs_netmodel *net = NULL;
    cs_status st = cs_app_netmodel(s, neighbours, d, &net);
    if (st != CS_OK)
        return st;
    if (net && n_ld > 0 && (st = cs_netmodel_set_storage(net, ld, n_ld)) != CS_OK) {
        cs_diag_error(d, s->file, 0, 0, "network model: bad storage load: %s", cs_strerror(st));
        cs_netmodel_destroy(net);
        return st;
    }
    opt->net = net;
    st = cs_step_simulate(&s->cluster, &s->workload, opt, d, out);
    opt->net = NULL;
    cs_netmodel_destroy(net);
    return st;
}

/* The job's own remote storage traffic that runs on the compute fabric
 * while it trains (docs/fabric.md 3c): dataset reads (a fraction read_s /
 * step of the time) and asynchronous checkpoint writes and background
 * uploads (write / interval). Synchronous checkpoints stop training, so
 * they overlap no collective. Returns how many loads were written to ld. */
static int storage_loads(const struct cs_scenario *s, const struct cs_app_result *r, struct cs_net_storage_load *ld)
{
    const struct cs_cluster_cfg *c = &s->cluster;
    long nodes = cs_job_gpus(c, s->has_workload ? &s->workload : NULL) / c->gpus_per_node;
    if (c->storage_network == CS_STORAGE_NET_SEPARATE || nodes < 2 || !r->has_step || !(r->step.time_s > 0))
        return 0;
    int n = 0;
    if (r->data.enabled && r->data.read_s > 0) {
        const struct cs_storage_spec *t = cs_storage_find(&c->storage, s->data.tier);
        if (t && cs_storage_remote(t))
            ld[n++] = (struct cs_net_storage_load){nodes, cs_storage_node_bw(t, false),
                                                   t->aggregate_bw_bytes_per_s > 0 ? t->aggregate_bw_bytes_per_s
                                                                                   : INFINITY,
                                                   false, fmin(1.0, r->data.read_s / r->step.time_s)};
    }
    const struct cs_ckpt_plan *p = &r->run.ckpt;
    if (r->run.enabled && p->enabled && s->checkpoint.mode == CS_CKPT_ASYNC && p->interval_s > 0) {
        const char *names[2] = {p->tier, p->upload};
        double secs[2] = {p->write_s, p->upload_s};
        for (int k = 0; k < 2 && n < CS_NET_MAX_STORAGE; k++) {
            const struct cs_storage_spec *t = names[k][0] ? cs_storage_find(&c->storage, names[k]) : NULL;
            if (!t || !cs_storage_remote(t) || !(secs[k] > 0))
                continue;
            ld[n++] = (struct cs_net_storage_load){p->writer_nodes, cs_storage_node_bw(t, true),
                                                   t->aggregate_bw_bytes_per_s > 0 ? t->aggregate_bw_bytes_per_s
                                                                                   : INFINITY,
                                                   true, fmin(1.0, secs[k] / p->interval_s)};
        }
    }
    return n;
}

/* The data pipeline and the run level from out->step (the data stall
 * folded into it). On an error *stage names where; best_effort keeps a
 * failed run's status in out->run_status and goes on. */
static cs_status data_and_run(const struct cs_scenario *s, const struct cs_app_eval_opts *o, bool timed, cs_diags *d,
                              struct cs_app_result *out, enum cs_app_stage *stage)
{
    if (timed && o->data) {
        cs_status st = cs_data_evaluate(s, &out->step, d, &out->data);
        if (st != CS_OK) {
            *stage = CS_APP_STAGE_DATA;
            return st;
        }
        cs_data_apply(&out->data, &out->step);
    }
    if (timed && o->run && (s->run.enabled || s->workload.tokens > 0)) {
        struct cs_run_options ro;
        cs_run_options_default(&ro);
        ro.threads = o->threads > 0 ? o->threads : 1;
        ro.replicas = o->replicas > 0 ? o->replicas : 0;
        ro.max_events = o->max_events;
        ro.progress = o->progress;
        ro.progress_ctx = o->progress_ctx;
        cs_status st = cs_run_simulate(s, &out->step, &ro, d, &out->run);
        if (st != CS_OK) {
            memset(&out->run, 0, sizeof out->run);
            if (!o->best_effort) {
                *stage = CS_APP_STAGE_RUN;
                return st;
            }
            out->run_status = st;
        }
    }
    return CS_OK;
}

cs_status cs_app_evaluate(const struct cs_scenario *s, const struct cs_app_eval_opts *o,
                          cs_diags *d, struct cs_app_result *out)
{
    struct cs_app_eval_opts def;
    if (!o) {
        cs_app_eval_opts_default(&def);
        o = &def;
    }
    memset(out, 0, sizeof *out);
    out->run_status = out->cost_status = CS_OK;
    out->step_alone_s = out->network_slowdown = NAN;
    bool cost_goal = o->goal == CS_APP_GOAL_COST;
    cs_step_options_from_scenario(s, &out->step_opt); /* calib.h: defaults + calibration */

    /* The COST goal needs the step only to time a run of workload.tokens. */
    if (s->has_workload && (!cost_goal || s->workload.tokens > 0)) {
        cs_status st = step_on_net(s, true, NULL, 0, o->net, &out->step_opt, d, &out->step);
        if (st != CS_OK)
            return failed(out, CS_APP_STAGE_STEP, st);
        out->has_step = true;
        if (s->n_neighbours > 0 && out->step.fits) {
            struct cs_step_result alone;
            cs_diags quiet; /* the same step again: its warnings are already in d */
            cs_diags_init(&quiet);
            st = step_on_net(s, false, NULL, 0, NULL, &out->step_opt, &quiet, &alone);
            cs_diags_fini(&quiet);
            if (st != CS_OK)
                return failed(out, CS_APP_STAGE_STEP, st);
            out->step_alone_s = alone.time_s;
            out->network_slowdown = out->step.time_s / alone.time_s;
            out->step.network_slowdown = out->network_slowdown;
        }
        if (!out->step.fits && !cost_goal) {
            if (!o->quiet_nofit) {
                const struct cs_memory_breakdown *m = &out->step.memory;
                cs_diag_error(d, s->file, 0, 0,
                              "workload: does not fit in GPU memory: %.2f GiB per GPU, %.2f GiB "
                              "usable of %.2f GiB (see the memory breakdown of `clustersim run`)",
                              m->total_bytes / 1073741824.0,
                              (m->capacity_bytes - m->reserve_bytes) / 1073741824.0,
                              m->capacity_bytes / 1073741824.0);
            }
            return failed(out, CS_APP_STAGE_STEP, CS_ENOFIT);
        }
    }
    /* A step that does not fit (COST goal) has no time: no data stall, no
     * run; the cost stage warns that there is no cost per run. */
    bool timed = out->has_step && out->step.fits && (!cost_goal || out->step.tokens_per_s > 0);
    struct cs_step_result raw = out->step; /* before the data stall */
    cs_diags first;
    cs_diags_init(&first);
    enum cs_app_stage where = CS_APP_STAGE_NONE;
    cs_status st = data_and_run(s, o, timed, &first, out, &where);
    /* The job's own storage traffic on the compute fabric slows its
     * collectives: the step again with those loads, then the data stall and
     * the run from that step (one fixed-point iteration; the loads' duties
     * come from the first pass). */
    struct cs_net_storage_load ld[CS_NET_MAX_STORAGE];
    int n_ld = st == CS_OK && timed ? storage_loads(s, out, ld) : 0;
    if (n_ld > 0) {
        cs_diags_fini(&first);
        struct cs_step_result st2;
        cs_diags quiet; /* the same step again: its warnings are already in d */
        cs_diags_init(&quiet);
        st = step_on_net(s, true, ld, n_ld, NULL, &out->step_opt, &quiet, &st2);
        cs_diags_fini(&quiet);
        if (st != CS_OK)
            return failed(out, CS_APP_STAGE_STEP, st);
        st2.network_slowdown = raw.network_slowdown;
        st2.storage_slowdown = st2.time_s / raw.time_s;
        out->step = st2;
        memset(&out->data, 0, sizeof out->data);
        memset(&out->run, 0, sizeof out->run);
        st = data_and_run(s, o, timed, d, out, &where);
    } else {
        for (size_t k = 0; k < first.n; k++)
            cs_diag_add(d, first.items[k].sev, first.items[k].file, first.items[k].line, first.items[k].col, "%s",
                        first.items[k].msg);
        cs_diags_fini(&first);
    }
    if (st != CS_OK)
        return failed(out, where, st);
    if (cost_goal || (o->cost && out->has_step)) {
        st = cost_stage(s, o, d, out);
        if (st != CS_OK) {
            if (!o->best_effort)
                return failed(out, CS_APP_STAGE_COST, st);
            out->cost_status = st;
        }
    }
    return CS_OK;
}
