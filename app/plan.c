/* plan.c: inverse planning over a plan file's candidate clusters (contract
 * in clustersim/app/plan.h; the method, bounds and cost bases in
 * docs/plan.md). Each candidate is independent (its own scenario, search,
 * run model and cost), so the workers take candidates from a shared counter
 * and the result does not depend on the thread count. */
#define _POSIX_C_SOURCE 200809L
#include "clustersim/app/plan.h"

#include "clustersim/app/pipeline.h"
#include "clustersim/app/search.h"
#include "clustersim/app/uncertainty.h"
#include "clustersim/base/units.h"
#include "clustersim/base/xmalloc.h"
#include "clustersim/config/config.h"
#include "clustersim/models/facility.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const cs_plan_state_names[] = {"evaluated", "pruned", "no-fit", "failed", "other-shard", NULL};

#define HOURS_PER_YEAR 8760.0

void cs_app_plan_opts_default(struct cs_app_plan_opts *o)
{
    memset(o, 0, sizeof *o);
    o->threads = 1;
}

double cs_plan_time_bound(const struct cs_workload *w, const struct cs_gpu_spec *gpu, long gpus)
{
    double peak = (unsigned)w->precision < CS_PREC_COUNT ? gpu->peak_flops[w->precision] : NAN;
    /* The input embedding is a lookup, not a GEMM; the output layer (tied
     * or not) is a GEMM the count below leaves out when tied: a bound. */
    double gemm_params = cs_workload_params_active(&w->model) - (double)w->model.vocab * w->model.hidden;
    if (!(peak > 0) || !(gpus > 0) || !(gemm_params > 0) || !isfinite(w->tokens))
        return NAN;
    return 6.0 * gemm_params * w->tokens / ((double)gpus * peak);
}

size_t cs_plan_pareto(const double *t, const double *c, size_t n, size_t *idx)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(t[i]) && isfinite(c[i]))
            idx[m++] = i;
    /* Insertion sort by (t, c, index): n is a few thousand at most. */
    for (size_t i = 1; i < m; i++) {
        size_t k = idx[i], j = i;
        while (j > 0 && (t[idx[j - 1]] > t[k] || (t[idx[j - 1]] == t[k] && c[idx[j - 1]] > c[k])))
            idx[j] = idx[j - 1], j--;
        idx[j] = k;
    }
    size_t f = 0;
    double best = INFINITY;
    for (size_t i = 0; i < m; i++)
        if (c[idx[i]] < best) {
            best = c[idx[i]];
            idx[f++] = idx[i];
        }
    return f;
}

/* The money signed for under option o for a run of `wall_h` hours. */
static double commitment(const struct cs_cost_inputs *in, const struct cs_cost_option_result *r,
                         enum cs_cost_option o, double run_usd, double wall_h)
{
    switch (o) {
    case CS_OPT_ON_DEMAND:
    case CS_OPT_SPOT:
        return run_usd;
    case CS_OPT_RESERVED_1Y:
    case CS_OPT_RESERVED_3Y: {
        double term_h = (o == CS_OPT_RESERVED_1Y ? 1.0 : 3.0) * HOURS_PER_YEAR;
        double rate = in->v[o == CS_OPT_RESERVED_1Y ? CS_CIN_RESERVED_1Y : CS_CIN_RESERVED_3Y];
        double terms = fmax(1.0, ceil(wall_h / term_h - 1e-9));
        return in->gpus * term_h * terms * rate;
    }
    default:
        /* Owned and hybrid: the total over the horizon; a run longer than
         * the horizon keeps the cluster longer, pro rata. */
        return r->total_usd * fmax(1.0, wall_h / (in->years * HOURS_PER_YEAR));
    }
}

/* The plans of one set of prices: each option's time, run cost,
 * commitment, TCO and verdicts (`tm`: the wall-clock time usd_per_run is
 * for, the run model's mean). */
static void fill_own(const struct cs_plan_info *pi, const struct cs_plan_cand *c, const struct cs_cost_inputs *in,
                     const struct cs_cost_result *cr, double tm, struct cs_plan_own *own)
{
    for (int o = 0; o < CS_OPT_COUNT; o++) {
        struct cs_plan_own *po = &own[o];
        const struct cs_cost_option_result *r = &cr->opt[o];
        po->available = r->available && isfinite(r->usd_per_run);
        if (!po->available)
            continue;
        double stretch = o == CS_OPT_SPOT && in->spot_loss_fraction > 0 && in->spot_loss_fraction < 1
                             ? 1.0 / (1.0 - in->spot_loss_fraction)
                             : 1.0;
        double ts[3] = {c->time_s.mean * stretch, c->time_s.p05 * stretch, c->time_s.p95 * stretch};
        /* (the spot rate already carries the loss: its rental is for the
         * unstretched hours at the loaded rate) */
        double tr[3] = {c->time_s.mean, c->time_s.p05, c->time_s.p95};
        for (int k = 0; k < 3; k++) {
            po->time_s[k] = ts[k];
            po->run_usd[k] = tm > 0 ? r->usd_per_run * tr[k] / tm : r->usd_per_run;
            po->commitment_usd[k] = commitment(in, r, (enum cs_cost_option)o, po->run_usd[k], ts[k] / 3600.0);
            po->cost_usd[k] = pi->basis == CS_PLAN_BASIS_RUN ? po->run_usd[k] : po->commitment_usd[k];
        }
        po->tco_usd = r->total_usd;
        po->meets_deadline = po->time_s[2] <= pi->deadline_s;
        po->within_budget = po->cost_usd[2] <= pi->budget_usd;
    }
}

const struct cs_plan_own *cs_plan_own_of(const struct cs_plan_cand *c, struct cs_plan_ref r)
{
    return r.offer < 0 ? &c->own[r.opt] : &c->offers[r.offer].own[r.opt];
}

const char *cs_plan_offer_of(const struct cs_plan_cand *c, struct cs_plan_ref r)
{
    if (cs_cost_option_owned(r.opt))
        return "";
    return r.offer < 0 ? c->offer0 : c->offers[r.offer].name;
}

struct work {
    const cs_plan *p;
    const cs_catalog *cat;
    struct cs_unc_spec *spec;       /* per GPU type (--uncertainty) */
    const struct cs_app_plan_opts *o;
    struct cs_app_plan *out;
    pthread_mutex_t mu;
    size_t next, done;
};

static void first_error(const cs_diags *d, char *buf, size_t n)
{
    const struct cs_diag *e = cs_diags_first_error(d);
    snprintf(buf, n, "%s", e ? e->msg : "failed");
}

static void eval_one(struct work *wk, struct cs_plan_cand *c)
{
    const struct cs_plan_info *pi = cs_plan_info(wk->p);
    cs_netmodel *net = NULL;
    cs_diags d;
    cs_diags_init(&d);
    struct cs_scenario s;
    memset(&s, 0, sizeof s);
    cs_status st = cs_plan_candidate(wk->p, c->gi, c->ni, c->fi, wk->cat, &d, &s);
    if (st != CS_OK) {
        c->state = CS_PLAN_FAILED;
        first_error(&d, c->why, sizeof c->why);
        goto done;
    }
    c->gpus = (long)s.cluster.nodes * s.cluster.gpus_per_node;
    c->racks = s.facility.res.racks;
    c->kw_per_rack = s.facility.res.kw_per_rack;
    snprintf(c->cooling, sizeof c->cooling, "%s", cs_cooling_name((enum cs_cooling)s.facility.cooling));
    c->cooling_ok = s.facility.res.cooling_ok;
    c->bound_s = cs_plan_time_bound(&s.workload, &s.cluster.gpu, c->gpus);
    if (isfinite(c->bound_s) && c->bound_s > pi->deadline_s) {
        char a[32], b[32];
        cs_units_format(c->bound_s, CS_UNIT_TIME, a, sizeof a);
        cs_units_format(pi->deadline_s, CS_UNIT_TIME, b, sizeof b);
        c->state = CS_PLAN_PRUNED;
        snprintf(c->why, sizeof c->why, "even at the GPU's peak the run takes %s > the %s deadline", a, b);
        goto done;
    }
    /* One network model for the search and the evaluation: the chosen
     * configuration's communicators are costed once. */
    st = cs_app_netmodel(&s, false, &d, &net); /* a plan has no neighbours (config/plan.c) */
    if (st != CS_OK) {
        c->state = CS_PLAN_FAILED;
        first_error(&d, c->why, sizeof c->why);
        goto done;
    }
    struct cs_app_search_opts so;
    cs_app_search_opts_default(&so);
    so.net = net;
    so.top = 1;
    so.space.threads = 1;
    so.space.best_only = true;
    struct cs_app_search sr;
    st = cs_app_search(&s, &so, &d, &sr);
    c->configs = sr.res.n;
    if (st == CS_ENOFIT) {
        c->state = CS_PLAN_NOFIT;
        snprintf(c->why, sizeof c->why, "no configuration fits in memory (%zu considered)",
                 sr.res.considered);
        cs_app_search_fini(&sr);
        goto done;
    }
    if (st != CS_OK) {
        c->state = CS_PLAN_FAILED;
        first_error(&d, c->why, sizeof c->why);
        cs_app_search_fini(&sr);
        goto done;
    }
    s.workload = sr.res.points[0].w;
    cs_app_search_fini(&sr);
    struct cs_app_eval_opts eo;
    cs_app_eval_opts_default(&eo);
    eo.goal = CS_APP_GOAL_COST;
    eo.only_priced = true;
    eo.net = net;
    eo.replicas = wk->o->replicas > 0 ? wk->o->replicas
                  : pi->replicas_given ? s.run.replicas
                                       : CS_PLAN_DEFAULT_REPLICAS;
    struct cs_app_result res;
    memset(&res, 0, sizeof res);
    st = cs_app_evaluate(&s, &eo, &d, &res);
    if (st != CS_OK || !res.has_step || !res.step.fits || !res.has_cost) {
        c->state = st == CS_ENOFIT || (res.has_step && !res.step.fits) ? CS_PLAN_NOFIT : CS_PLAN_FAILED;
        if (st != CS_OK)
            first_error(&d, c->why, sizeof c->why);
        else
            snprintf(c->why, sizeof c->why, "%s", !res.has_cost ? "not priced" : "does not fit");
        cs_app_result_fini(&res);
        goto done;
    }
    c->state = CS_PLAN_EVALUATED;
    c->w = s.workload;
    c->step_time_s = res.step.time_s;
    c->tokens_per_s = res.step.tokens_per_s;
    c->mfu = res.step.mfu;
    c->comm_share = res.step.time_s > 0 ? res.step.exposed_comm_s / res.step.time_s : NAN;
    if (res.run.enabled && isfinite(res.run.time_to_train_s.mean)) {
        c->time_s = res.run.time_to_train_s;
        double wall = res.run.time_to_train_s.mean;
        c->failure_share = wall > 0 ? (res.run.lost_work_s.mean + res.run.downtime_s.mean) / wall : NAN;
        c->checkpoint_share = wall > 0 ? res.run.checkpoint_overhead_s.mean / wall : NAN;
        c->interruptions = res.run.interruptions.mean;
    } else {
        double t = res.cost_run.wall_hours * 3600.0;
        c->time_s.mean = c->time_s.p05 = c->time_s.p95 = t;
        c->failure_share = c->checkpoint_share = 0;
        c->interruptions = 0;
    }
    if (wk->o->uncertainty && wk->spec) {
        struct cs_app_uncertainty u;
        st = cs_app_uncertainty(&s, &res.step, &wk->spec[c->gi], eo.replicas, 1, NULL, NULL, &d, &u);
        if (st == CS_OK && u.has_time) {
            c->time_s.mean = u.time_to_train_s.mean;
            c->time_s.p05 = u.time_to_train_s.p05;
            c->time_s.p95 = u.time_to_train_s.p95;
            c->uncertainty = true;
            c->n_tornado = u.n_tornado;
            memcpy(c->tornado, u.tornado, sizeof c->tornado);
        }
        cs_app_uncertainty_fini(&u);
    }
    fill_own(pi, c, res.cost_in, res.cost, res.cost_run.wall_hours * 3600.0, c->own);
    snprintf(c->offer0, sizeof c->offer0, "%s", s.cost.cloud_offer);
    if (pi->offers_all || pi->n_offers > 0) {
        /* The cloud options once per offer of this GPU, the other inputs
         * as they are (the offer sets only the four cloud prices); the
         * scenario's own offer then stands for the owned and hybrid
         * options alone. */
        static const enum cs_cost_option cloud[] = {CS_OPT_ON_DEMAND, CS_OPT_RESERVED_1Y,
                                                    CS_OPT_RESERVED_3Y, CS_OPT_SPOT};
        size_t no = cs_catalog_count(wk->cat, CS_CATALOG_CLOUD);
        for (size_t k = 0; k < no && c->n_offers < CS_PLAN_MAX_OFFERS; k++) {
            struct cs_catalog_entry_info ei;
            if (!cs_catalog_entry(wk->cat, CS_CATALOG_CLOUD, k, &ei))
                continue;
            const struct cs_cloud_offer *of = cs_catalog_cloud(wk->cat, ei.name);
            if (!of || strcmp(of->gpu, s.cluster.gpu.name) != 0)
                continue;
            bool listed = pi->offers_all;
            for (int j = 0; j < pi->n_offers && !listed; j++)
                listed = strcmp(pi->offers[j], of->name) == 0;
            if (!listed)
                continue;
            /* The offer must fit the cluster (cs_cost_offer_fits, as
             * `tco` chooses its prices): instances of at least a node, and
             * for several nodes a stated scale-out bandwidth per instance
             * of at least the node's NICs x line rate. */
            if (!cs_cost_offer_fits(of, &s.cluster, NULL, 0))
                continue;
            struct cs_cost_inputs in2 = *res.cost_in;
            double price[4] = {of->on_demand_usd_per_gpu_h, of->reserved_1y_usd_per_gpu_h,
                               of->reserved_3y_usd_per_gpu_h, of->spot_usd_per_gpu_h};
            enum cs_cost_input key[4] = {CS_CIN_ON_DEMAND, CS_CIN_RESERVED_1Y, CS_CIN_RESERVED_3Y, CS_CIN_SPOT};
            for (int j = 0; j < 4; j++) {
                in2.v[key[j]] = price[j];
                in2.available[cloud[j]] = isfinite(price[j]) && price[j] > 0;
            }
            struct cs_cost_result cr;
            cs_cost_evaluate(&in2, &cr);
            struct cs_plan_offer *po = &c->offers[c->n_offers++];
            snprintf(po->name, sizeof po->name, "%s", of->name);
            fill_own(pi, c, &in2, &cr, res.cost_run.wall_hours * 3600.0, po->own);
            for (int o = 0; o < CS_OPT_COUNT; o++) {
                bool is_cloud = o == CS_OPT_ON_DEMAND || o == CS_OPT_RESERVED_1Y || o == CS_OPT_RESERVED_3Y ||
                                o == CS_OPT_SPOT;
                if (!is_cloud)
                    po->own[o].available = false;
            }
        }
        for (int j = 0; j < 4; j++)
            c->own[cloud[j]].available = false;
    }
    cs_app_result_fini(&res);
done:
    cs_netmodel_destroy(net);
    if (s.cluster.nodes || s.has_workload)
        cs_scenario_fini(&s);
    cs_diags_fini(&d);
}

static void *worker(void *arg)
{
    struct work *wk = arg;
    for (;;) {
        pthread_mutex_lock(&wk->mu);
        size_t i = wk->next++;
        pthread_mutex_unlock(&wk->mu);
        if (i >= wk->out->n)
            break;
        if (wk->o->shard_n > 1 && (int)(i % (size_t)wk->o->shard_n) != wk->o->shard_k - 1)
            wk->out->c[i].state = CS_PLAN_OTHER_SHARD;
        else
            eval_one(wk, &wk->out->c[i]);
        pthread_mutex_lock(&wk->mu);
        wk->done++;
        if (wk->o->progress)
            wk->o->progress(wk->done, wk->out->n, wk->o->progress_ctx);
        pthread_mutex_unlock(&wk->mu);
    }
    return NULL;
}

static void days(double s, char *buf, size_t n)
{
    snprintf(buf, n, "%.1f days", s / 86400.0);
}

static void usd(double v, char *buf, size_t n) { cs_units_format(v, CS_UNIT_MONEY, buf, n); }

static void choose(struct cs_app_plan *r)
{
    const struct cs_plan_info *pi = &r->info;
    struct cs_plan_ref *all = NULL;
    double *t = NULL, *cost = NULL;
    /* Every (cluster, option, offer) plan that is priced and listed, in
     * the candidates' order, the scenario's prices first, then the offers. */
    size_t np = 0;
    for (int pass = 0; pass < 2; pass++) {
        size_t k = 0;
        for (size_t i = 0; i < r->n; i++) {
            const struct cs_plan_cand *c = &r->c[i];
            if (c->state != CS_PLAN_EVALUATED)
                continue;
            for (int f = -1; f < c->n_offers; f++)
                for (int j = 0; j < pi->n_ownership; j++) {
                    struct cs_plan_ref ref = {(int)i, pi->ownership[j], f};
                    const struct cs_plan_own *po = cs_plan_own_of(c, ref);
                    if (!po->available)
                        continue;
                    if (pass == 1) {
                        all[k] = ref;
                        t[k] = po->time_s[0];
                        cost[k] = po->cost_usd[0];
                    }
                    k++;
                }
        }
        if (pass == 0) {
            np = k;
            all = cs_xcalloc(np ? np : 1, sizeof *all);
            t = cs_xcalloc(np ? np : 1, sizeof *t);
            cost = cs_xcalloc(np ? np : 1, sizeof *cost);
        }
    }
    size_t *idx = cs_xcalloc(np ? np : 1, sizeof *idx);
    r->nfront = cs_plan_pareto(t, cost, np, idx);
    r->front = cs_xcalloc(r->nfront ? r->nfront : 1, sizeof *r->front);
    for (size_t i = 0; i < r->nfront; i++)
        r->front[i] = all[idx[i]];
    /* Cheapest meeting the deadline; fastest within budget; any meeting both. */
    double best_c = INFINITY, best_t = INFINITY, fastest_any = INFINITY, cheapest_any = INFINITY;
    size_t fa = 0, ca = 0;
    double both_c = INFINITY;
    for (size_t i = 0; i < np; i++) {
        const struct cs_plan_cand *c = &r->c[all[i].cand];
        const struct cs_plan_own *po = cs_plan_own_of(c, all[i]);
        if (po->meets_deadline &&
            (cost[i] < best_c || (cost[i] == best_c && t[i] < cs_plan_own_of(&r->c[r->cheapest.cand], r->cheapest)->time_s[0]))) {
            best_c = cost[i];
            r->cheapest = all[i];
            r->has_cheapest = true;
        }
        if (po->within_budget && (t[i] < best_t || (t[i] == best_t && cost[i] < cs_plan_own_of(&r->c[r->fastest.cand], r->fastest)->cost_usd[0]))) {
            best_t = t[i];
            r->fastest = all[i];
            r->has_fastest = true;
        }
        if (po->meets_deadline && po->within_budget && cost[i] < both_c)
            both_c = cost[i];
        if (po->time_s[2] < fastest_any) {
            fastest_any = po->time_s[2];
            fa = i;
        }
        if (po->cost_usd[2] < cheapest_any) {
            cheapest_any = po->cost_usd[2];
            ca = i;
        }
    }
    r->both = isfinite(both_c);
    char a[48], b[48], e[48];
    if (r->both) {
        r->binding[0] = '\0';
    } else if (np == 0) {
        /* Nothing simulated: every candidate pruned, unfit or failed. */
        double lb = INFINITY;
        for (size_t i = 0; i < r->n; i++)
            if (isfinite(r->c[i].bound_s) && r->c[i].bound_s < lb)
                lb = r->c[i].bound_s;
        days(pi->deadline_s, b, sizeof b);
        if (r->pruned && isfinite(lb)) {
            days(lb, a, sizeof a);
            snprintf(r->binding, sizeof r->binding,
                     "deadline: no candidate could be evaluated; even at peak FLOPs the fastest "
                     "candidate needs %s against the %s deadline (%.0f%% over); %zu pruned, %zu do not "
                     "fit, %zu failed, %zu evaluated without a priced option",
                     a, b, 100 * (lb / pi->deadline_s - 1), r->pruned, r->nofit, r->failed, r->evaluated);
        } else {
            snprintf(r->binding, sizeof r->binding,
                     "no candidate could be evaluated: %zu pruned by the deadline, %zu do not fit in "
                     "memory, %zu failed, %zu evaluated without a priced option (see the candidates)",
                     r->pruned, r->nofit, r->failed, r->evaluated);
        }
    } else if (!r->has_cheapest) {
        const struct cs_plan_cand *c = &r->c[all[fa].cand];
        double tp = cs_plan_own_of(c, all[fa])->time_s[2];
        days(tp, a, sizeof a);
        days(pi->deadline_s, b, sizeof b);
        snprintf(r->binding, sizeof r->binding,
                 "deadline: no candidate meets it at p95; the fastest (%ld x %s, %s) takes %s at p95 "
                 "against %s (%.0f%% over)",
                 c->gpus, cs_plan_gpu(r->plan, c->gi), cs_plan_fabric(r->plan, c->fi), a, b,
                 100 * (tp / pi->deadline_s - 1));
    } else if (!r->has_fastest) {
        const struct cs_plan_cand *c = &r->c[all[ca].cand];
        usd(cs_plan_own_of(c, all[ca])->cost_usd[2], a, sizeof a);
        usd(pi->budget_usd, b, sizeof b);
        snprintf(r->binding, sizeof r->binding,
                 "budget: no candidate is within it; the cheapest (%ld x %s, %s) costs %s at p95 "
                 "against %s (%.0f%% over)",
                 c->gpus, cs_plan_gpu(r->plan, c->gi), cs_cost_option_name(all[ca].opt), a, b,
                 100 * (cs_plan_own_of(c, all[ca])->cost_usd[2] / pi->budget_usd - 1));
    } else {
        const struct cs_plan_cand *cc = &r->c[r->cheapest.cand], *fc = &r->c[r->fastest.cand];
        usd(cs_plan_own_of(cc, r->cheapest)->cost_usd[2], a, sizeof a);
        usd(pi->budget_usd, e, sizeof e);
        double fp95 = cs_plan_own_of(fc, r->fastest)->time_s[2];
        days(fp95, b, sizeof b);
        char dl[48];
        days(pi->deadline_s, dl, sizeof dl);
        snprintf(r->binding, sizeof r->binding,
                 "deadline and budget together: the cheapest plan that meets the deadline costs %s at "
                 "p95 (%.0f%% over the %s budget); the fastest within budget takes %s at p95 (%.0f%% "
                 "over the %s deadline)",
                 a, 100 * (cs_plan_own_of(cc, r->cheapest)->cost_usd[2] / pi->budget_usd - 1), e, b,
                 100 * (fp95 / pi->deadline_s - 1), dl);
    }
    free(idx);
    free(all);
    free(t);
    free(cost);
}

/* The counts and the choice, once every candidate is filled. */
static void finish(struct cs_app_plan *out)
{
    out->evaluated = out->pruned = out->nofit = out->failed = out->configs = 0;
    for (size_t i = 0; i < out->n; i++) {
        switch (out->c[i].state) {
        case CS_PLAN_EVALUATED: out->evaluated++; break;
        case CS_PLAN_PRUNED: out->pruned++; break;
        case CS_PLAN_NOFIT: out->nofit++; break;
        case CS_PLAN_FAILED: out->failed++; break;
        case CS_PLAN_OTHER_SHARD: break;
        }
        out->configs += out->c[i].configs;
    }
    choose(out);
}

/* The candidate table in the plan's order (gpu-major, then nodes, then
 * fabric), nothing evaluated yet. */
static void init_cands(const cs_plan *p, struct cs_app_plan *out)
{
    const struct cs_plan_info *pi = cs_plan_info(p);
    out->n = (size_t)pi->n_gpus * pi->n_nodes * pi->n_variants;
    out->c = cs_xcalloc(out->n, sizeof *out->c);
    size_t k = 0;
    for (int g = 0; g < pi->n_gpus; g++)
        for (int n = 0; n < pi->n_nodes; n++)
            for (int f = 0; f < pi->n_variants; f++, k++) {
                out->c[k].gi = g;
                out->c[k].ni = n;
                out->c[k].fi = f;
                out->c[k].nodes = cs_plan_nodes(p, n);
                out->c[k].time_s.mean = out->c[k].time_s.p05 = out->c[k].time_s.p95 = NAN;
                out->c[k].bound_s = NAN;
            }
}

cs_status cs_app_plan(const cs_plan *p, const cs_catalog *cat, const struct cs_app_plan_opts *o,
                      cs_diags *d, struct cs_app_plan *out)
{
    memset(out, 0, sizeof *out);
    const struct cs_plan_info *pi = cs_plan_info(p);
    out->info = *pi;
    cs_status cst = cs_plan_check_offers(p, cat, d);
    if (cst != CS_OK)
        return cst;
    /* Bad input first: every GPU (on the first node count and fabric) and
     * every fabric (on the first GPU) must bind; their errors are the
     * plan file's, reported once, before anything is simulated. */
    for (int g = 0; g < pi->n_gpus + pi->n_variants; g++) {
        struct cs_scenario s;
        memset(&s, 0, sizeof s);
        int gi = g < pi->n_gpus ? g : 0, fi = g < pi->n_gpus ? 0 : g - pi->n_gpus;
        cs_status st = cs_plan_candidate(p, gi, 0, fi, cat, d, &s);
        if (st != CS_OK)
            return st == CS_EIO ? CS_ECONFIG : st;
        cs_scenario_fini(&s);
    }
    init_cands(p, out);
    struct work wk = {.p = p, .cat = cat, .o = o, .out = out};
    if (o->uncertainty) {
        /* the distributions per GPU type: the validation error differs */
        wk.spec = cs_xcalloc((size_t)pi->n_gpus, sizeof *wk.spec);
        for (int g = 0; g < pi->n_gpus; g++) {
            struct cs_scenario s;
            memset(&s, 0, sizeof s);
            if (cs_plan_candidate(p, g, 0, 0, cat, d, &s) == CS_OK) {
                cs_app_unc_spec(cat, &s, &wk.spec[g]);
                cs_scenario_fini(&s);
            }
        }
    }
    pthread_mutex_init(&wk.mu, NULL);
    int nt = o->threads < 1 ? 1 : o->threads > CS_PLAN_MAX_THREADS ? CS_PLAN_MAX_THREADS : o->threads;
    if ((size_t)nt > out->n)
        nt = (int)out->n;
    pthread_t th[CS_PLAN_MAX_THREADS];
    int started = 0;
    for (int i = 1; i < nt; i++)
        if (pthread_create(&th[started], NULL, worker, &wk) == 0)
            started++;
    worker(&wk);
    for (int i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    pthread_mutex_destroy(&wk.mu);
    free(wk.spec);
    out->plan = p;
    out->uncertainty = o->uncertainty;
    finish(out);
    return CS_OK;
}

void cs_app_plan_fini(struct cs_app_plan *r)
{
    if (!r)
        return;
    free(r->c);
    free(r->front);
    memset(r, 0, sizeof *r);
}

/* ---- shards ---- */

static void add3(cJSON *o, const char *k, const double *v)
{
    cJSON *a = cJSON_AddArrayToObject(o, k);
    for (int i = 0; i < 3; i++)
        cJSON_AddItemToArray(a, isfinite(v[i]) ? cJSON_CreateNumber(v[i]) : cJSON_CreateNull());
}

static void addn(cJSON *o, const char *k, double v)
{
    if (isfinite(v))
        cJSON_AddNumberToObject(o, k, v);
    else
        cJSON_AddNullToObject(o, k);
}

char *cs_app_plan_shard_header(const struct cs_app_plan *r, int k, int n)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "clustersim_plan_shard", r->info.name);
    char h[32];
    snprintf(h, sizeof h, "%016llx", (unsigned long long)r->info.hash);
    cJSON_AddStringToObject(o, "hash", h);
    cJSON_AddNumberToObject(o, "shard", k);
    cJSON_AddNumberToObject(o, "of", n);
    cJSON_AddNumberToObject(o, "candidates", (double)r->n);
    cJSON_AddBoolToObject(o, "uncertainty", r->uncertainty);
    char *s = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    return s;
}

static cJSON *own_json(const struct cs_plan_own *own)
{
    cJSON *a = cJSON_CreateArray();
    for (int k = 0; k < CS_OPT_COUNT; k++) {
        const struct cs_plan_own *po = &own[k];
        cJSON *j = cJSON_CreateObject();
        cJSON_AddBoolToObject(j, "available", po->available);
        if (po->available) {
            add3(j, "time", po->time_s);
            add3(j, "run", po->run_usd);
            add3(j, "commitment", po->commitment_usd);
            add3(j, "cost", po->cost_usd);
            addn(j, "tco", po->tco_usd);
            cJSON_AddBoolToObject(j, "deadline", po->meets_deadline);
            cJSON_AddBoolToObject(j, "budget", po->within_budget);
        }
        cJSON_AddItemToArray(a, j);
    }
    return a;
}

char *cs_app_plan_cand_line(const struct cs_app_plan *r, size_t i)
{
    const struct cs_plan_cand *c = &r->c[i];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "i", (double)i);
    cJSON_AddStringToObject(o, "state", cs_plan_state_names[c->state]);
    cJSON_AddStringToObject(o, "why", c->why);
    cJSON_AddNumberToObject(o, "gpus", (double)c->gpus);
    addn(o, "bound_s", c->bound_s);
    cJSON_AddNumberToObject(o, "configs", (double)c->configs);
    cJSON_AddBoolToObject(o, "uncertainty", c->uncertainty);
    if (c->state == CS_PLAN_EVALUATED) {
        const struct cs_parallel *q = &c->w.par;
        int par[] = {q->tp, q->pp, q->dp, q->cp, q->vp, q->ep, q->etp, (int)q->fsdp, (int)q->sp,
                     c->w.micro_batch, (int)c->w.recompute, c->w.recompute_layers, c->w.offload_layers};
        cJSON_AddItemToObject(o, "par", cJSON_CreateIntArray(par, (int)(sizeof par / sizeof par[0])));
        double st[] = {c->step_time_s, c->tokens_per_s, c->mfu, c->comm_share, c->failure_share,
                       c->checkpoint_share, c->interruptions};
        cJSON *a = cJSON_AddArrayToObject(o, "step");
        for (size_t k = 0; k < sizeof st / sizeof st[0]; k++)
            cJSON_AddItemToArray(a, isfinite(st[k]) ? cJSON_CreateNumber(st[k]) : cJSON_CreateNull());
        double t[3] = {c->time_s.mean, c->time_s.p05, c->time_s.p95};
        add3(o, "time", t);
        cJSON_AddItemToObject(o, "own", own_json(c->own));
        cJSON *tor = cJSON_AddArrayToObject(o, "tornado");
        for (int k = 0; k < c->n_tornado; k++) {
            double v[4] = {c->tornado[k].low_factor, c->tornado[k].high_factor, c->tornado[k].low, c->tornado[k].high};
            cJSON *j = cJSON_CreateDoubleArray(v, 4);
            cJSON_AddItemToArray(j, cJSON_CreateNumber((double)c->tornado[k].input));
            cJSON_AddItemToArray(tor, j);
        }
        cJSON_AddStringToObject(o, "offer0", c->offer0);
        cJSON *ofs = cJSON_AddArrayToObject(o, "offers");
        for (int f = 0; f < c->n_offers; f++) {
            cJSON *j = cJSON_CreateObject();
            cJSON_AddStringToObject(j, "name", c->offers[f].name);
            cJSON_AddItemToObject(j, "own", own_json(c->offers[f].own));
            cJSON_AddItemToArray(ofs, j);
        }
    }
    char *s = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    return s;
}

static double num_of(const cJSON *v)
{
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static void get3(const cJSON *o, const char *k, double *v)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, k);
    for (int i = 0; i < 3; i++)
        v[i] = num_of(cJSON_GetArrayItem(a, i));
}

static int state_of(const char *s)
{
    for (int i = 0; cs_plan_state_names[i]; i++)
        if (s && strcmp(s, cs_plan_state_names[i]) == 0)
            return i;
    return -1;
}

static bool own_from(const cJSON *a, struct cs_plan_own *own)
{
    if (cJSON_GetArraySize(a) != CS_OPT_COUNT)
        return false;
    for (int k = 0; k < CS_OPT_COUNT; k++) {
        const cJSON *j = cJSON_GetArrayItem(a, k);
        struct cs_plan_own *po = &own[k];
        po->available = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "available"));
        if (!po->available)
            continue;
        get3(j, "time", po->time_s);
        get3(j, "run", po->run_usd);
        get3(j, "commitment", po->commitment_usd);
        get3(j, "cost", po->cost_usd);
        po->tco_usd = num_of(cJSON_GetObjectItemCaseSensitive(j, "tco"));
        po->meets_deadline = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "deadline"));
        po->within_budget = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "budget"));
    }
    return true;
}

/* Fills candidate c from line `o`; false with the reason in why. */
static bool cand_from(const cs_plan *p, const cs_catalog *cat, const cJSON *o, struct cs_plan_cand *c,
                      cs_diags *d, char *why, size_t wl)
{
    int st = state_of(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "state")));
    if (st < 0 || st == CS_PLAN_OTHER_SHARD) {
        snprintf(why, wl, "a candidate line without a known state");
        return false;
    }
    c->state = (enum cs_plan_state)st;
    const char *w = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "why"));
    snprintf(c->why, sizeof c->why, "%s", w ? w : "");
    c->gpus = (long)num_of(cJSON_GetObjectItemCaseSensitive(o, "gpus"));
    c->bound_s = num_of(cJSON_GetObjectItemCaseSensitive(o, "bound_s"));
    double cf = num_of(cJSON_GetObjectItemCaseSensitive(o, "configs"));
    c->configs = isfinite(cf) && cf >= 0 ? (size_t)cf : 0;
    c->uncertainty = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "uncertainty"));
    if (c->state != CS_PLAN_EVALUATED)
        return true;
    /* the workload: the candidate's own, with the configuration chosen */
    struct cs_scenario s;
    memset(&s, 0, sizeof s);
    if (cs_plan_candidate(p, c->gi, c->ni, c->fi, cat, d, &s) != CS_OK) {
        snprintf(why, wl, "the candidate no longer binds");
        return false;
    }
    c->w = s.workload;
    c->racks = s.facility.res.racks; /* the facility is the binding's, as in eval_one */
    c->kw_per_rack = s.facility.res.kw_per_rack;
    snprintf(c->cooling, sizeof c->cooling, "%s", cs_cooling_name((enum cs_cooling)s.facility.cooling));
    c->cooling_ok = s.facility.res.cooling_ok;
    cs_scenario_fini(&s);
    const cJSON *par = cJSON_GetObjectItemCaseSensitive(o, "par");
    if (cJSON_GetArraySize(par) != 13) {
        snprintf(why, wl, "an evaluated candidate without its configuration");
        return false;
    }
    int v[13];
    for (int k = 0; k < 13; k++)
        v[k] = (int)num_of(cJSON_GetArrayItem(par, k));
    c->w.par.tp = v[0];
    c->w.par.pp = v[1];
    c->w.par.dp = v[2];
    c->w.par.cp = v[3];
    c->w.par.vp = v[4];
    c->w.par.ep = v[5];
    c->w.par.etp = v[6];
    c->w.par.fsdp = (enum cs_fsdp)v[7];
    c->w.par.sp = v[8] != 0;
    c->w.micro_batch = v[9];
    c->w.recompute = (enum cs_recompute)v[10];
    c->w.recompute_layers = v[11];
    c->w.offload_layers = v[12];
    cs_workload_layout_fit(&c->w);
    const cJSON *stp = cJSON_GetObjectItemCaseSensitive(o, "step");
    double *dst[] = {&c->step_time_s, &c->tokens_per_s, &c->mfu, &c->comm_share, &c->failure_share,
                     &c->checkpoint_share, &c->interruptions};
    for (int k = 0; k < 7; k++)
        *dst[k] = num_of(cJSON_GetArrayItem(stp, k));
    double t[3];
    get3(o, "time", t);
    c->time_s.mean = t[0];
    c->time_s.p05 = t[1];
    c->time_s.p95 = t[2];
    if (!own_from(cJSON_GetObjectItemCaseSensitive(o, "own"), c->own)) {
        snprintf(why, wl, "an evaluated candidate without its %d ownership options", CS_OPT_COUNT);
        return false;
    }
    const cJSON *tor = cJSON_GetObjectItemCaseSensitive(o, "tornado");
    c->n_tornado = 0;
    for (int k = 0; k < cJSON_GetArraySize(tor) && k < CS_UNC_COUNT; k++) {
        const cJSON *j = cJSON_GetArrayItem(tor, k);
        int in = (int)num_of(cJSON_GetArrayItem(j, 4));
        if (in < 0 || in >= CS_UNC_COUNT)
            continue;
        struct cs_unc_tornado *tt = &c->tornado[c->n_tornado++];
        tt->input = (enum cs_unc_input)in;
        tt->low_factor = num_of(cJSON_GetArrayItem(j, 0));
        tt->high_factor = num_of(cJSON_GetArrayItem(j, 1));
        tt->low = num_of(cJSON_GetArrayItem(j, 2));
        tt->high = num_of(cJSON_GetArrayItem(j, 3));
    }
    const char *o0 = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "offer0"));
    snprintf(c->offer0, sizeof c->offer0, "%s", o0 ? o0 : "");
    const cJSON *ofs = cJSON_GetObjectItemCaseSensitive(o, "offers");
    int nof = cJSON_GetArraySize(ofs);
    if (nof < 0 || nof > CS_PLAN_MAX_OFFERS) {
        snprintf(why, wl, "more than %d cloud offers", CS_PLAN_MAX_OFFERS);
        return false;
    }
    c->n_offers = 0;
    for (int f = 0; f < nof; f++) {
        const cJSON *j = cJSON_GetArrayItem(ofs, f);
        const char *nm = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "name"));
        struct cs_plan_offer *po = &c->offers[c->n_offers++];
        snprintf(po->name, sizeof po->name, "%s", nm ? nm : "");
        if (!own_from(cJSON_GetObjectItemCaseSensitive(j, "own"), po->own)) {
            snprintf(why, wl, "a cloud offer without its options");
            return false;
        }
    }
    return true;
}

cs_status cs_app_plan_merge(const cs_plan *p, const cs_catalog *cat, const char *const *files, size_t nfiles,
                            cs_diags *d, struct cs_app_plan *out)
{
    memset(out, 0, sizeof *out);
    const struct cs_plan_info *pi = cs_plan_info(p);
    out->info = *pi;
    out->plan = p;
    init_cands(p, out);
    char *seen = cs_xcalloc(out->n ? out->n : 1, 1);
    char hash[32];
    snprintf(hash, sizeof hash, "%016llx", (unsigned long long)pi->hash);
    int of = -1, unc = -1;
    cs_status st = CS_OK;
    for (size_t f = 0; f < nfiles && st == CS_OK; f++) {
        FILE *fp = fopen(files[f], "r");
        if (!fp) {
            cs_diag_error(d, files[f], 0, 0, "cannot read the shard: %s", strerror(errno));
            st = CS_EIO;
            break;
        }
        char *line = NULL;
        size_t cap = 0;
        long ln = 0;
        ssize_t len;
        while (st == CS_OK && (len = getline(&line, &cap, fp)) >= 0) {
            ln++;
            cJSON *o = cJSON_ParseWithLength(line, (size_t)len);
            if (!o) {
                cs_diag_error(d, files[f], (int)ln, 0, "not a line of a plan shard (JSON)");
                st = CS_ECONFIG;
                break;
            }
            if (ln == 1) {
                const char *h = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "hash"));
                int n = (int)num_of(cJSON_GetObjectItemCaseSensitive(o, "of"));
                int u = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "uncertainty"));
                if (!h || strcmp(h, hash) != 0) {
                    cs_diag_error(d, files[f], 1, 0, "a shard of another plan (hash %s, this plan's %s: "
                                  "the plan file or its --set overrides differ)", h ? h : "none", hash);
                    st = CS_ECONFIG;
                } else if ((of >= 0 && n != of) || (unc >= 0 && u != unc)) {
                    cs_diag_error(d, files[f], 1, 0, "a shard of a %d-way split%s, the others are "
                                  "of a %d-way one%s", n, u ? " with --uncertainty" : "", of,
                                  unc ? " with --uncertainty" : "");
                    st = CS_ECONFIG;
                }
                of = n;
                unc = u;
                cJSON_Delete(o);
                continue;
            }
            double di = num_of(cJSON_GetObjectItemCaseSensitive(o, "i"));
            if (!(di >= 0) || di >= (double)out->n || di != floor(di)) {
                cs_diag_error(d, files[f], (int)ln, 0, "candidate index %g is not one of the plan's 0..%zu",
                              di, out->n ? out->n - 1 : 0);
                st = CS_ECONFIG;
            } else if (seen[(size_t)di]) {
                cs_diag_error(d, files[f], (int)ln, 0, "candidate %zu (%s, %d nodes, %s) is in two shards",
                              (size_t)di, cs_plan_gpu(p, out->c[(size_t)di].gi), out->c[(size_t)di].nodes,
                              cs_plan_fabric(p, out->c[(size_t)di].fi));
                st = CS_ECONFIG;
            } else {
                char why[160];
                if (!cand_from(p, cat, o, &out->c[(size_t)di], d, why, sizeof why)) {
                    cs_diag_error(d, files[f], (int)ln, 0, "%s", why);
                    st = CS_ECONFIG;
                }
                seen[(size_t)di] = 1;
            }
            cJSON_Delete(o);
        }
        free(line);
        if (ferror(fp) && st == CS_OK) {
            cs_diag_error(d, files[f], 0, 0, "read error: %s", strerror(errno));
            st = CS_EIO;
        }
        fclose(fp);
    }
    for (size_t i = 0; i < out->n && st == CS_OK; i++)
        if (!seen[i]) {
            cs_diag_error(d, NULL, 0, 0, "candidate %zu (%s, %d nodes, %s) is in none of the shards", i,
                          cs_plan_gpu(p, out->c[i].gi), out->c[i].nodes, cs_plan_fabric(p, out->c[i].fi));
            st = CS_ECONFIG;
        }
    free(seen);
    if (st != CS_OK)
        return st;
    out->uncertainty = unc > 0;
    finish(out);
    return CS_OK;
}
