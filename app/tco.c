/* tco.c: break-even, sensitivity, Monte Carlo and the claim of a TCO
 * (contract in clustersim/app/tco.h; equations in docs/cost.md). */
#include "clustersim/app/tco.h"

#include "clustersim/models/cost.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void cs_app_tco_analyze(const struct cs_scenario *s, const struct cs_app_result *res,
                        double sens_step, int mc_samples, cs_diags *d, struct cs_tco_report *r)
{
    memset(r, 0, sizeof *r);
    const struct cs_cost_inputs *in = res->cost_in;
    r->s = s;
    r->in = in;
    r->res = *res->cost;
    r->n_be = cs_cost_break_even_all(in, r->be);
    r->sens_step = sens_step;
    r->n_sens = cs_cost_sensitivity(in, sens_step, r->sens);
    r->has_step = res->cost_run.has_step;
    r->run = res->cost_run;
    if (mc_samples > 0 && s->cost.ext.n_ranges > 0 &&
        cs_cost_monte_carlo(in, s->cost.ext.ranges, s->cost.ext.n_ranges, mc_samples, s->seed,
                            &r->mc) == CS_OK)
        r->has_mc = true;
    if (s->cost.ext.claim.metric != CS_CLAIM_NONE &&
        cs_cost_claim_evaluate(s, in, d, &r->claim) == CS_OK)
        r->has_claim = true;
}

void cs_app_tco_offers(const cs_catalog *cat, const struct cs_scenario *s, struct cs_tco_report *r)
{
    r->n_offers = 0;
    static const enum cs_cost_option opt[4] = {CS_OPT_ON_DEMAND, CS_OPT_RESERVED_1Y,
                                               CS_OPT_RESERVED_3Y, CS_OPT_SPOT};
    static const enum cs_cost_input key[4] = {CS_CIN_ON_DEMAND, CS_CIN_RESERVED_1Y,
                                              CS_CIN_RESERVED_3Y, CS_CIN_SPOT};
    size_t n = cs_catalog_count(cat, CS_CATALOG_CLOUD);
    for (size_t k = 0; k < n && r->n_offers < CS_TCO_MAX_OFFERS; k++) {
        struct cs_catalog_entry_info ei;
        if (!cs_catalog_entry(cat, CS_CATALOG_CLOUD, k, &ei))
            continue;
        const struct cs_cloud_offer *of = cs_catalog_cloud(cat, ei.name);
        if (!of || strcmp(of->gpu, s->cluster.gpu.name) != 0)
            continue;
        struct cs_tco_offer_row *o = &r->offers[r->n_offers++];
        memset(o, 0, sizeof *o);
        snprintf(o->name, sizeof o->name, "%s", of->name);
        snprintf(o->provider, sizeof o->provider, "%s", of->provider);
        snprintf(o->instance, sizeof o->instance, "%s", of->instance);
        snprintf(o->region, sizeof o->region, "%s", of->region);
        snprintf(o->source, sizeof o->source, "%s", of->source);
        snprintf(o->date, sizeof o->date, "%s", of->date);
        o->gpus = of->gpus;
        o->price[0] = of->on_demand_usd_per_gpu_h;
        o->price[1] = of->reserved_1y_usd_per_gpu_h;
        o->price[2] = of->reserved_3y_usd_per_gpu_h;
        o->price[3] = of->spot_usd_per_gpu_h;
        o->scaleout_bw_bytes_per_s = of->scaleout_bw_bytes_per_s;
        o->fits = cs_cost_offer_fits(of, &s->cluster, o->why, sizeof o->why);
        struct cs_cost_inputs in2 = *r->in;
        for (int j = 0; j < 4; j++) {
            if (!strcmp(s->cost.cloud_offer_for[j], of->name) &&
                s->cost.cloud_offer_rule[j] != CS_OFFER_SCENARIO)
                o->used_mask |= 1u << j;
            in2.v[key[j]] = o->price[j];
            in2.available[opt[j]] = isfinite(o->price[j]) && o->price[j] > 0;
        }
        struct cs_cost_result cr;
        cs_cost_evaluate(&in2, &cr);
        for (int j = 0; j < 4; j++)
            o->total_usd[j] = in2.available[opt[j]] ? cr.opt[opt[j]].total_usd : NAN;
    }
}

void cs_app_tco_assumptions(const struct cs_provenance *prov, const struct cs_scenario *s,
                            struct cs_tco_report *r)
{
    r->n_assumptions = 0;
    size_t flen = s->file ? strlen(s->file) : 0;
    for (size_t i = 0; prov && i < prov->n && r->n_assumptions < CS_TCO_MAX_ASSUMPTIONS; i++) {
        const struct cs_prov_entry *e = &prov->items[i];
        if (strncmp(e->path, "cost.", 5) != 0)
            continue;
        /* The claim and the published reference figures are not inputs. */
        if (!strncmp(e->path, "cost.claim", 10) || !strncmp(e->path, "cost.reference", 14))
            continue;
        struct cs_tco_assumption *a = &r->assumptions[r->n_assumptions++];
        snprintf(a->key, sizeof a->key, "%s", e->path);
        snprintf(a->value, sizeof a->value, "%s", e->value);
        snprintf(a->origin, sizeof a->origin, "%s", e->origin);
        a->defaulted = !(flen > 0 && strncmp(e->origin, s->file, flen) == 0);
    }
}

void cs_app_tco_report(const cs_catalog *cat, const struct cs_provenance *prov,
                       const struct cs_scenario *s, const struct cs_app_result *res,
                       double sens_step, int mc_samples, cs_diags *d, struct cs_tco_report *r)
{
    cs_app_tco_analyze(s, res, sens_step, mc_samples, d, r);
    cs_app_tco_offers(cat, s, r);
    cs_app_tco_assumptions(prov, s, r);
}
