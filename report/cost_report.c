/* cost_report.c: the `tco` report (report layer): bill of materials,
 * options with their breakdown, years, break-even, sensitivity, Monte
 * Carlo and claim verdict as aligned text, the `tco.*` JSON contract, CSV,
 * and the data files of the gnuplot figures (templates in plots/). */
#include "clustersim/report/numfmt.h"
#include "clustersim/report/cost_report.h"
#include "clustersim/report/run_report.h"
#include "clustersim/base/outfile.h"

#include "clustersim/report/table.h"
#include "csv.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void num(cJSON *o, const char *k, double v)
{
    if (isfinite(v))
        cJSON_AddNumberToObject(o, k, v);
    else
        cJSON_AddNullToObject(o, k);
}

/* "$1.23M", "$456K", "$789", "-" for NAN. */
static const char *money(double v, char *buf, size_t n)
{
    return cs_out_money(v, buf, n);
}

const char *cs_out_money(double v, char *buf, size_t n)
{
    if (!isfinite(v))
        snprintf(buf, n, "-");
    else if (fabs(v) >= 1e9)
        snprintf(buf, n, "$%.2fB", v / 1e9);
    else if (fabs(v) >= 1e6)
        snprintf(buf, n, "$%.2fM", v / 1e6);
    else if (fabs(v) >= 1e4)
        snprintf(buf, n, "$%.0fK", v / 1e3);
    else
        snprintf(buf, n, "$%.0f", v);
    return buf;
}

/* How the network was priced: every counted item priced (or inside another
 * price), some, none (the fraction), or nothing to buy (one node). */
static const char *net_basis(const struct cs_cost_bom *b, bool json)
{
    long items = 0;
    for (int k = 0; k < CS_NET_ITEM_COUNT; k++)
        items += b->net[k].count;
    if (items == 0)
        return json ? "none" : "none: no scale-out fabric";
    if (b->network_priced)
        return "priced";
    if (b->network_priced_usd > 0)
        return json ? "partly_priced" : "partly priced";
    return json ? "network_cost_fraction" : "fraction";
}

/* The scenario's cloud price p (enum cs_cloud_price) and how it was
 * chosen, in words. */
static const char *const cloud_price_key[4] = {"on_demand", "reserved_1y", "reserved_3y", "spot"};
static const enum cs_cost_option cloud_price_opt[4] = {CS_OPT_ON_DEMAND, CS_OPT_RESERVED_1Y,
                                                       CS_OPT_RESERVED_3Y, CS_OPT_SPOT};
static const char *offer_rule_name(int rule)
{
    switch (rule) {
    case CS_OFFER_SCENARIO: return "scenario";
    case CS_OFFER_NAMED: return "named-offer";
    case CS_OFFER_CHEAPEST_FIT: return "cheapest-fitting";
    case CS_OFFER_CHEAPEST_UNFIT: return "cheapest-not-fitting";
    default: return "none";
    }
}
static void offer_reason(const struct cs_tco_report *r, int p, char *buf, size_t n)
{
    const struct cs_cost_cfg *c = &r->s->cost;
    const char *gpu = r->s->cluster.gpu.name;
    switch (c->cloud_offer_rule[p]) {
    case CS_OFFER_SCENARIO: snprintf(buf, n, "given in the scenario (cost.cloud.%s)", cloud_price_key[p]); break;
    case CS_OFFER_NAMED: snprintf(buf, n, "%s, named by cost.cloud.offer", c->cloud_offer_for[p]); break;
    case CS_OFFER_CHEAPEST_FIT:
        snprintf(buf, n, "%s, the cheapest of the %d catalog offers for %s that fit this cluster "
                         "(%d offers in all)",
                 c->cloud_offer_for[p], c->cloud_offers_fitting, gpu, c->cloud_offers_total);
        break;
    case CS_OFFER_CHEAPEST_UNFIT:
        snprintf(buf, n, "%s, the cheapest %s offer with this price, although it does not fit (%s): "
                         "no offer that fits states one",
                 c->cloud_offer_for[p], gpu, c->cloud_unfit_why[p]);
        break;
    default: snprintf(buf, n, "no catalog offer for %s states this price", gpu); break;
    }
}

static void offers_json(cJSON *t, const struct cs_tco_report *r)
{
    const struct cs_cost_cfg *c = &r->s->cost;
    cJSON *of = cJSON_AddObjectToObject(t, "offer");
    cJSON_AddStringToObject(of, "name", c->cloud_offer);
    char why[512];
    offer_reason(r, CS_CLOUD_ON_DEMAND, why, sizeof why);
    cJSON_AddStringToObject(of, "reason", why);
    cJSON *pr = cJSON_AddObjectToObject(of, "prices");
    for (int p = 0; p < 4; p++) {
        cJSON *j = cJSON_AddObjectToObject(pr, cloud_price_key[p]);
        num(j, "usd_per_gpu_hour", r->in->v[CS_CIN_ON_DEMAND + p]);
        cJSON_AddStringToObject(j, "offer", c->cloud_offer_for[p]);
        cJSON_AddStringToObject(j, "rule", offer_rule_name(c->cloud_offer_rule[p]));
        offer_reason(r, p, why, sizeof why);
        cJSON_AddStringToObject(j, "reason", why);
    }
    num(of, "offers_fitting", c->cloud_offers_fitting);
    num(of, "offers_total", c->cloud_offers_total);
    cJSON *a = cJSON_AddArrayToObject(t, "offers");
    for (int i = 0; i < r->n_offers; i++) {
        const struct cs_tco_offer_row *o = &r->offers[i];
        cJSON *j = cJSON_CreateObject();
        cJSON_AddStringToObject(j, "name", o->name);
        cJSON_AddStringToObject(j, "provider", o->provider);
        cJSON_AddStringToObject(j, "instance", o->instance);
        cJSON_AddStringToObject(j, "region", o->region);
        num(j, "gpus_per_instance", o->gpus);
        for (int p = 0; p < 4; p++) {
            char k[48];
            snprintf(k, sizeof k, "%s_usd_per_gpu_hour", cloud_price_key[p]);
            num(j, k, o->price[p]);
        }
        num(j, "scaleout_bw_bytes_per_s", o->scaleout_bw_bytes_per_s);
        cJSON_AddBoolToObject(j, "fits", o->fits);
        if (o->fits)
            cJSON_AddNullToObject(j, "why_not");
        else
            cJSON_AddStringToObject(j, "why_not", o->why);
        cJSON *u = cJSON_AddArrayToObject(j, "used_for");
        for (int p = 0; p < 4; p++)
            if (o->used_mask & (1u << p))
                cJSON_AddItemToArray(u, cJSON_CreateString(cs_cost_option_name(cloud_price_opt[p])));
        cJSON *tot = cJSON_AddObjectToObject(j, "total_usd");
        for (int p = 0; p < 4; p++)
            num(tot, cs_cost_option_name(cloud_price_opt[p]), o->total_usd[p]);
        cJSON_AddStringToObject(j, "source", o->source);
        cJSON_AddStringToObject(j, "date", o->date);
        cJSON_AddItemToArray(a, j);
    }
}

static void assumptions_json(cJSON *t, const struct cs_tco_report *r)
{
    cJSON *a = cJSON_AddArrayToObject(t, "assumptions");
    for (int i = 0; i < r->n_assumptions; i++) {
        const struct cs_tco_assumption *x = &r->assumptions[i];
        cJSON *j = cJSON_CreateObject();
        cJSON_AddStringToObject(j, "key", x->key);
        cJSON_AddStringToObject(j, "value", x->value);
        cJSON_AddStringToObject(j, "source", x->origin);
        cJSON_AddBoolToObject(j, "defaulted", x->defaulted);
        cJSON_AddItemToArray(a, j);
    }
}

void cs_out_tco_json(cJSON *root, const struct cs_tco_report *r)
{
    const struct cs_cost_inputs *in = r->in;
    cJSON *t = cJSON_AddObjectToObject(root, "tco");
    num(t, "years", in->years);
    num(t, "gpus", in->gpus);
    num(t, "utilization", in->v[CS_CIN_UTILIZATION]);
    cJSON *bom = cJSON_AddObjectToObject(t, "bom");
    num(bom, "servers", (double)in->bom.servers);
    num(bom, "servers_usd", in->bom.servers_usd);
    num(bom, "nics", (double)in->bom.fabric.nics);
    num(bom, "switches", (double)in->bom.switches);
    num(bom, "optics", (double)in->bom.fabric.optics);
    num(bom, "cables", (double)in->bom.fabric.cables);
    num(bom, "network_usd", r->res.network_usd);
    cJSON_AddStringToObject(bom, "network_basis", net_basis(&in->bom, true));
    cJSON *net = cJSON_AddObjectToObject(bom, "network");
    num(net, "priced_usd", in->bom.network_priced_usd);
    num(net, "unpriced_usd", r->res.network_unpriced_usd);
    num(net, "power_w", in->bom.network_power_w);
    cJSON *items = cJSON_AddArrayToObject(net, "items");
    for (int k = 0; k < CS_NET_ITEM_COUNT; k++) {
        const struct cs_cost_net_item *x = &in->bom.net[k];
        cJSON *j = cJSON_CreateObject();
        cJSON_AddStringToObject(j, "item", cs_cost_net_part_name((enum cs_net_part)k));
        num(j, "count", (double)x->count);
        cJSON_AddStringToObject(j, "model", x->model);
        cJSON_AddStringToObject(j, "paid", cs_cost_net_pay_name(x->pay));
        num(j, "unit_usd", x->unit_usd);
        num(j, "usd", x->pay == CS_PAY_PRICED ? x->usd : NAN);
        cJSON_AddStringToObject(j, "price_from", x->price_from);
        cJSON_AddStringToObject(j, "price_basis", cs_price_basis_name(x->basis));
        num(j, "unit_w", x->unit_w);
        num(j, "power_w", x->power_w);
        cJSON_AddItemToArray(items, j);
    }
    num(bom, "storage_usd", in->bom.storage_usd);
    num(bom, "capex_hw_usd", r->res.capex_hw_usd);
    num(bom, "it_power_w", r->res.it_power_kw * 1000);
    num(bom, "avg_power_w", r->res.avg_power_kw * 1000);
    num(bom, "switches_without_power", (double)in->bom.unpowered_switches);
    num(bom, "optics_without_power", (double)in->bom.unpowered_optics);
    cJSON_AddStringToObject(bom, "storage_without_capacity", in->bom.unsized_storage);
    cJSON *sto = cJSON_AddArrayToObject(bom, "storage");
    for (int i = 0; i < in->bom.n_store; i++) {
        const struct cs_cost_store *x = &in->bom.store[i];
        cJSON *j = cJSON_CreateObject();
        cJSON_AddStringToObject(j, "tier", x->tier);
        num(j, "dataset_bytes", x->dataset_bytes);
        num(j, "checkpoint_bytes", x->checkpoint_bytes);
        num(j, "capacity_bytes", x->capacity_bytes);
        cJSON_AddBoolToObject(j, "sized", x->sized);
        cJSON_AddBoolToObject(j, "short_of_need", x->short_of_need);
        num(j, "usd", x->usd);
        cJSON_AddItemToArray(sto, j);
    }
    if (r->has_step) {
        const struct cs_cost_run *cr = &r->run;
        cJSON *run = cJSON_AddObjectToObject(t, "run");
        num(run, "step_time_s", cr->step_time_s);
        num(run, "tokens_per_s", cr->tokens_per_s);
        cJSON_AddBoolToObject(run, "run_model", cr->run_model);
        num(run, "goodput", cr->goodput);
        num(run, "goodput_mean", cr->goodput_mean);
        num(run, "goodput_p05", cr->goodput_p05);
        num(run, "goodput_p95", cr->goodput_p95);
        num(run, "interruptions", cr->interruptions);
        num(run, "replicas", cr->replicas);
        num(run, "failure_free_s", cr->ideal_hours * 3600);
        num(run, "time_to_train_s", cr->wall_hours * 3600);
    }
    cJSON *opts = cJSON_AddArrayToObject(t, "options");
    for (int o = 0; o < CS_OPT_COUNT; o++) {
        const struct cs_cost_option_result *x = &r->res.opt[o];
        if (!x->available)
            continue;
        cJSON *j = cJSON_CreateObject();
        cJSON_AddStringToObject(j, "name", cs_cost_option_name((enum cs_cost_option)o));
        num(j, "total_usd", x->total_usd);
        cJSON *b = cJSON_AddObjectToObject(j, "breakdown_usd");
        for (int c = 0; c < CS_CAT_COUNT; c++)
            num(b, cs_cost_cat_name((enum cs_cost_cat)c), x->by_cat_usd[c]);
        /* The network's part of capex and power (inside them, not added). */
        if (o == CS_OPT_ONPREM || o == CS_OPT_COLO || o == CS_OPT_HYBRID) {
            cJSON *nb = cJSON_AddObjectToObject(b, "network_usd");
            for (int k = 0; k < CS_NET_PART_COUNT; k++)
                num(nb, cs_cost_net_part_name((enum cs_net_part)k), x->network_usd[k]);
        }
        cJSON *y = cJSON_AddArrayToObject(j, "by_year_usd");
        cJSON *cy = cJSON_AddArrayToObject(j, "cash_by_year_usd");
        for (int k = 0; k < x->n_years; k++) {
            cJSON_AddItemToArray(y, cJSON_CreateNumber(x->by_year_usd[k]));
            cJSON_AddItemToArray(cy, cJSON_CreateNumber(x->cash_by_year_usd[k]));
        }
        num(j, "upfront_usd", x->upfront_usd);
        num(j, "gpu_hours", x->gpu_hours);
        num(j, "utilized_gpu_hours", x->utilized_gpu_hours);
        num(j, "usd_per_gpu_hour", x->usd_per_gpu_hour);
        num(j, "usd_per_utilized_gpu_hour", x->usd_per_utilized_gpu_hour);
        num(j, "usd_per_run", x->usd_per_run);
        if (o == CS_OPT_HYBRID)
            num(j, "baseline_gpus", x->hybrid_baseline_gpus);
        for (int p = 0; p < 4; p++)
            if (cloud_price_opt[p] == (enum cs_cost_option)o ||
                (o == CS_OPT_HYBRID && cloud_price_opt[p] == in->hybrid_burst))
                cJSON_AddStringToObject(j, "offer", r->s->cost.cloud_offer_for[p]);
        cJSON_AddItemToArray(opts, j);
    }
    offers_json(t, r);
    assumptions_json(t, r);
    cs_out_facility_json(root, r->s);
    cJSON *be = cJSON_AddArrayToObject(t, "break_even");
    for (int i = 0; i < r->n_be; i++) {
        cJSON *j = cJSON_CreateObject();
        cJSON_AddStringToObject(j, "owned", cs_cost_option_name(r->be[i].owned));
        cJSON_AddStringToObject(j, "cloud", cs_cost_option_name(r->be[i].cloud));
        num(j, "utilization", r->be[i].utilization);
        cJSON_AddStringToObject(j, "owned_cheaper", r->be[i].owned_cheaper);
        cJSON_AddItemToArray(be, j);
    }
    cJSON *sens = cJSON_AddObjectToObject(t, "sensitivity");
    num(sens, "step", r->sens_step);
    cJSON *rows = cJSON_AddArrayToObject(sens, "rows");
    for (int i = 0; i < r->n_sens; i++) {
        const struct cs_cost_sens_row *s = &r->sens[i];
        cJSON *j = cJSON_CreateObject();
        cJSON_AddStringToObject(j, "input", cs_cost_input_name(s->input));
        num(j, "base", s->base_value);
        num(j, "low", s->low_value);
        num(j, "high", s->high_value);
        num(j, "swing_usd", s->swing_usd);
        cJSON *lo = cJSON_AddObjectToObject(j, "low_total_usd");
        cJSON *hi = cJSON_AddObjectToObject(j, "high_total_usd");
        for (int o = 0; o < CS_OPT_COUNT; o++) {
            if (!r->res.opt[o].available)
                continue;
            num(lo, cs_cost_option_name((enum cs_cost_option)o), s->low_usd[o]);
            num(hi, cs_cost_option_name((enum cs_cost_option)o), s->high_usd[o]);
        }
        cJSON_AddItemToArray(rows, j);
    }
    if (r->has_mc) {
        cJSON *mc = cJSON_AddObjectToObject(t, "monte_carlo");
        num(mc, "samples", r->mc.samples);
        cJSON *a = cJSON_AddArrayToObject(mc, "options");
        for (int o = 0; o < CS_OPT_COUNT; o++) {
            if (!r->res.opt[o].available)
                continue;
            cJSON *j = cJSON_CreateObject();
            cJSON_AddStringToObject(j, "name", cs_cost_option_name((enum cs_cost_option)o));
            cJSON *tot = cJSON_AddObjectToObject(j, "total_usd");
            num(tot, "mean", r->mc.mean[o]);
            num(tot, "p05", r->mc.p05[o]);
            num(tot, "p50", r->mc.p50[o]);
            num(tot, "p95", r->mc.p95[o]);
            num(j, "cheapest_share", r->mc.cheapest_share[o]);
            cJSON_AddItemToArray(a, j);
        }
    }
    if (r->has_claim) {
        const struct cs_cost_claim *c = &r->s->cost.ext.claim;
        cJSON *v = cJSON_AddObjectToObject(t, "verdict");
        cJSON_AddStringToObject(v, "claim", c->id);
        cJSON_AddStringToObject(v, "text", c->text);
        num(v, "claimed", c->claimed);
        num(v, "claimed_low", c->low);
        num(v, "claimed_high", c->high);
        num(v, "computed", r->claim.computed);
        cJSON_AddStringToObject(v, "verdict", cs_cost_verdict_name(r->claim.verdict));
        cJSON_AddStringToObject(v, "explanation", r->claim.explanation);
    }
}

/* Where each cloud price came from, and every catalog offer of the GPU
 * priced for this cluster. */
static void text_offers(FILE *out, const struct cs_tco_report *r)
{
    fprintf(out, "\nCloud prices used\n");
    char why[512];
    for (int p = 0; p < 4; p++) {
        if (!r->res.opt[cloud_price_opt[p]].available && r->s->cost.cloud_offer_rule[p] == CS_OFFER_NONE)
            continue;
        offer_reason(r, p, why, sizeof why);
        fprintf(out, "  %-18s $%.2f/GPU-h: %s\n", cs_cost_option_name(cloud_price_opt[p]),
                r->in->v[CS_CIN_ON_DEMAND + p], why);
    }
    if (r->n_offers == 0)
        return;
    fprintf(out, "\nCatalog cloud offers for %s (totals over %g years at these prices)\n",
            r->s->cluster.gpu.name, r->in->years);
    static const char *const h[] = {"offer", ">GPUs", ">on-demand", ">1y", ">3y", ">spot",
                                    ">scale-out", "fits", ">on-demand total", ">cheapest cloud",
                                    "used for"};
    cs_table *t = cs_table_create(11, h);
    for (int i = 0; i < r->n_offers; i++) {
        const struct cs_tco_offer_row *o = &r->offers[i];
        char c[11][192];
        snprintf(c[0], sizeof c[0], "%s", o->name);
        snprintf(c[1], sizeof c[1], "%d", o->gpus);
        for (int p = 0; p < 4; p++) {
            if (isfinite(o->price[p]))
                snprintf(c[2 + p], sizeof c[2 + p], "$%.2f", o->price[p]);
            else
                snprintf(c[2 + p], sizeof c[2 + p], "-");
        }
        if (isfinite(o->scaleout_bw_bytes_per_s))
            snprintf(c[6], sizeof c[6], "%.0f Gb/s", o->scaleout_bw_bytes_per_s * 8e-9);
        else
            snprintf(c[6], sizeof c[6], "-");
        snprintf(c[7], sizeof c[7], "%s", o->fits ? "yes" : "no");
        money(o->total_usd[0], c[8], sizeof c[8]);
        double best = NAN;
        int bp = -1;
        for (int p = 0; p < 4; p++)
            if (isfinite(o->total_usd[p]) && (!isfinite(best) || o->total_usd[p] < best)) {
                best = o->total_usd[p];
                bp = p;
            }
        if (bp >= 0) {
            char m[32];
            snprintf(c[9], sizeof c[9], "%s %s", money(best, m, sizeof m),
                     cs_cost_option_name(cloud_price_opt[bp]) + 6 /* less "cloud-" */);
        } else
            snprintf(c[9], sizeof c[9], "-");
        c[10][0] = 0;
        for (int p = 0; p < 4; p++)
            if (o->used_mask & (1u << p)) {
                size_t l = strlen(c[10]);
                snprintf(c[10] + l, sizeof c[10] - l, "%s%s", l ? ", " : "",
                         cs_cost_option_name(cloud_price_opt[p]) + 6);
            }
        const char *cells[11];
        for (int k = 0; k < 11; k++)
            cells[k] = c[k];
        cs_table_add_row(t, cells);
    }
    cs_table_write(t, out, 2);
    cs_table_destroy(t);
    for (int i = 0; i < r->n_offers; i++)
        if (!r->offers[i].fits)
            fprintf(out, "  %s does not fit: %s\n", r->offers[i].name, r->offers[i].why);
}

/* The inputs the scenario did not set: the catalog's and the defaults'
 * values with their sources. */
static void text_assumptions(FILE *out, const struct cs_tco_report *r)
{
    int n = 0;
    for (int i = 0; i < r->n_assumptions; i++)
        n += r->assumptions[i].defaulted;
    if (n == 0)
        return;
    fprintf(out, "\nInputs the scenario does not set (%d; from the catalog or a default, with "
                 "the source; set them under cost: to change them)\n", n);
    for (int i = 0; i < r->n_assumptions; i++) {
        const struct cs_tco_assumption *a = &r->assumptions[i];
        if (a->defaulted)
            fprintf(out, "  %-32s %-16s %s\n", a->key, a->value, a->origin);
    }
}

static void text_options(FILE *out, const struct cs_tco_report *r)
{
    static const char *const h[] = {"option", ">total", ">capex", ">power", ">site",
                                    ">operations", ">cloud", ">$/GPU-h", ">$/utilized GPU-h",
                                    ">$/run"};
    cs_table *t = cs_table_create(10, h);
    for (int o = 0; o < CS_OPT_COUNT; o++) {
        const struct cs_cost_option_result *x = &r->res.opt[o];
        if (!x->available)
            continue;
        char c[10][32];
        snprintf(c[0], sizeof c[0], "%s", cs_cost_option_name((enum cs_cost_option)o));
        money(x->total_usd, c[1], sizeof c[1]);
        for (int k = 0; k < CS_CAT_COUNT; k++)
            money(x->by_cat_usd[k], c[2 + k], sizeof c[2 + k]);
        snprintf(c[7], sizeof c[7], "%.2f", x->usd_per_gpu_hour);
        snprintf(c[8], sizeof c[8], "%.2f", x->usd_per_utilized_gpu_hour);
        money(x->usd_per_run, c[9], sizeof c[9]);
        const char *cells[10];
        for (int k = 0; k < 10; k++)
            cells[k] = c[k];
        cs_table_add_row(t, cells);
    }
    cs_table_write(t, out, 2);
    cs_table_destroy(t);
}

static void text_years(FILE *out, const struct cs_tco_report *r)
{
    int ny = r->res.opt[CS_OPT_ON_DEMAND].n_years;
    for (int o = 0; o < CS_OPT_COUNT; o++)
        if (r->res.opt[o].n_years > ny)
            ny = r->res.opt[o].n_years;
    if (ny > 10)
        ny = 10;
    const char *h[12];
    char hb[12][24];
    h[0] = "option";
    for (int y = 0; y < ny; y++) {
        snprintf(hb[y], sizeof hb[y], ">year %d", y + 1);
        h[1 + y] = hb[y];
    }
    h[1 + ny] = ">cash year 1";
    cs_table *t = cs_table_create(ny + 2, h);
    for (int o = 0; o < CS_OPT_COUNT; o++) {
        const struct cs_cost_option_result *x = &r->res.opt[o];
        if (!x->available)
            continue;
        char c[12][32];
        const char *cells[12];
        snprintf(c[0], sizeof c[0], "%s", cs_cost_option_name((enum cs_cost_option)o));
        for (int y = 0; y < ny; y++)
            money(y < x->n_years ? x->by_year_usd[y] : NAN, c[1 + y], sizeof c[1 + y]);
        money(x->cash_by_year_usd[0], c[1 + ny], sizeof c[1 + ny]);
        for (int k = 0; k < ny + 2; k++)
            cells[k] = c[k];
        cs_table_add_row(t, cells);
    }
    cs_table_write(t, out, 2);
    cs_table_destroy(t);
}

void cs_out_tco_text(FILE *out, const struct cs_tco_report *r)
{
    const struct cs_scenario *s = r->s;
    const struct cs_cost_inputs *in = r->in;
    char a[32], b[32];
    fprintf(out, "TCO of %ld x %s (%d nodes, %s %s) over %g years at %.0f%% utilization\n",
            (long)in->gpus, s->cluster.gpu.name, s->cluster.nodes,
            cs_topology_name(s->cluster.fabric.topology), s->cluster.fabric.link.name, in->years,
            100 * in->v[CS_CIN_UTILIZATION]);
    fprintf(out, "site %s, cloud offer %s\n\n", s->cost.site,
            s->cost.cloud_offer[0] ? s->cost.cloud_offer : "(none)");

    fprintf(out, "Bill of materials\n");
    static const char *const bh[] = {"item", ">count", ">total"};
    cs_table *t = cs_table_create(3, bh);
    cs_table_add_rowf(t, "GPU servers (%s per GPU)\t%ld\t%s",
                      money(in->v[CS_CIN_GPU_PRICE], a, sizeof a), in->bom.servers,
                      money(in->bom.servers_usd, b, sizeof b));
    static const char *const labels[CS_NET_ITEM_COUNT] = {
        "leaf switches", "spine switches", "core switches", "NICs", "optics", "optical cables",
        "copper cables (NIC-leaf)"};
    for (int k = 0; k < CS_NET_ITEM_COUNT; k++) {
        const struct cs_cost_net_item *x = &in->bom.net[k];
        if (x->count == 0)
            continue;
        char how[160];
        const char *model = x->model[0] ? x->model : "no model named";
        switch (x->pay) {
        case CS_PAY_PRICED:
            snprintf(how, sizeof how, "%s, %s each%s%s", model, money(x->unit_usd, b, sizeof b),
                     x->basis != CS_PRICE_NONE ? " " : " (link price)",
                     x->basis != CS_PRICE_NONE ? cs_price_basis_name(x->basis) : "");
            break;
        case CS_PAY_IN_SERVER: snprintf(how, sizeof how, "%s, in the server price", model); break;
        case CS_PAY_IN_CABLE: snprintf(how, sizeof how, "%s, in the cable price", model); break;
        case CS_PAY_FRACTION: snprintf(how, sizeof how, "%s, NO PRICE", model); break;
        case CS_PAY_NONE: snprintf(how, sizeof how, "-"); break;
        }
        cs_table_add_rowf(t, "%s (%s)\t%ld\t%s", labels[k], how, x->count,
                          x->pay == CS_PAY_PRICED ? money(x->usd, a, sizeof a) : "");
    }
    if (in->bom.network_fraction)
        cs_table_add_rowf(t, "items with NO PRICE (%.0f%% of cluster cost, Epoch, less the priced "
                             "items)\t\t%s",
                          100 * in->v[CS_CIN_NETWORK_FRACTION],
                          money(r->res.network_unpriced_usd, a, sizeof a));
    cs_table_add_rowf(t, "network (%s)\t\t%s", net_basis(&in->bom, false),
                      money(r->res.network_usd, a, sizeof a));
    cs_table_add_rowf(t, "network power (switches, optics, cables)\t%.1f kW\t",
                      in->bom.network_power_w / 1000.0);
    for (int i = 0; i < in->bom.n_store; i++) {
        const struct cs_cost_store *x = &in->bom.store[i];
        if (!(x->dataset_bytes > 0 || x->checkpoint_bytes > 0 || x->usd > 0))
            continue;
        cs_table_add_rowf(t, "  storage %s: dataset %.4g TB + checkpoints %.4g TB, %s %.4g TB%s\t\t%s",
                          x->tier, x->dataset_bytes / 1e12, x->checkpoint_bytes / 1e12,
                          x->sized ? "sized to" : "holds", x->capacity_bytes / 1e12,
                          x->short_of_need ? " (SHORT)" : x->sized ? " (80% full)" : "",
                          money(x->usd, b, sizeof b));
    }
    cs_table_add_rowf(t, "storage (capital)\t\t%s", money(in->bom.storage_usd, a, sizeof a));
    cs_table_add_rowf(t, "hardware capital\t\t%s", money(r->res.capex_hw_usd, a, sizeof a));
    cs_table_add_rowf(t, "IT load, nameplate / average\t%.1f kW\t%.1f kW", r->res.it_power_kw,
                      r->res.avg_power_kw);
    cs_table_write(t, out, 2);
    cs_table_destroy(t);
    if (r->has_step) {
        const struct cs_cost_run *cr = &r->run;
        fprintf(out, "\nTraining run (workload.tokens on the whole cluster): step %.3f s, %.0f "
                     "tokens/s, %.1f h without losses\n",
                cr->step_time_s, cr->tokens_per_s, cr->ideal_hours);
        if (cr->run_model)
            fprintf(out, "  run model (%d replicas): mean time to train %.1f h, %.2f "
                         "interruptions; goodput per replica %.4f [p05 %.4f, p95 %.4f]\n"
                         "  $/run pays the mean time to train: effective goodput %.4f "
                         "(failure-free / mean time to train)\n",
                    cr->replicas, cr->wall_hours, cr->interruptions, cr->goodput_mean,
                    cr->goodput_p05, cr->goodput_p95, cr->goodput);
        else
            fprintf(out, "  run model not used (--no-run-model or nothing to simulate): goodput "
                         "taken as 1\n");
    }

    fprintf(out, "\nOptions (totals over %g years)\n", in->years);
    text_options(out, r);
    fprintf(out, "\nBy year (capital as a yearly charge; cash year 1 pays owned capital up front)\n");
    text_years(out, r);
    if (r->res.opt[CS_OPT_HYBRID].available)
        fprintf(out, "\nhybrid: %d owned GPUs (%s) + %s burst\n",
                r->res.opt[CS_OPT_HYBRID].hybrid_baseline_gpus,
                cs_cost_option_name(in->hybrid_owned), cs_cost_option_name(in->hybrid_burst));

    text_offers(out, r);
    fprintf(out, "\nBreak-even utilization (owned vs cloud)\n");
    static const char *const eh[] = {"owned", "cloud", ">break-even", "owned cheaper"};
    t = cs_table_create(4, eh);
    for (int i = 0; i < r->n_be; i++) {
        char u[32];
        if (isfinite(r->be[i].utilization))
            snprintf(u, sizeof u, "%.1f%%", 100 * r->be[i].utilization);
        else
            snprintf(u, sizeof u, "-");
        cs_table_add_rowf(t, "%s\t%s\t%s\t%s%s", cs_cost_option_name(r->be[i].owned),
                          cs_cost_option_name(r->be[i].cloud), u, r->be[i].owned_cheaper,
                          isfinite(r->be[i].utilization) ? " it" : "");
    }
    cs_table_write(t, out, 2);
    cs_table_destroy(t);

    fprintf(out, "\nSensitivity: change of each total when one input moves -%.0f%% / +%.0f%% "
                 "(ranked)\n",
            100 * r->sens_step, 100 * r->sens_step);
    const char *sh[2 + CS_OPT_COUNT];
    char shb[CS_OPT_COUNT][40];
    int nc = 0;
    sh[nc++] = "input";
    sh[nc++] = ">base";
    int cols[CS_OPT_COUNT], ncols = 0;
    for (int o = 0; o < CS_OPT_COUNT; o++)
        if (r->res.opt[o].available) {
            snprintf(shb[ncols], sizeof shb[ncols], ">%s", cs_cost_option_name((enum cs_cost_option)o));
            sh[nc++] = shb[ncols];
            cols[ncols++] = o;
        }
    t = cs_table_create(nc, sh);
    for (int i = 0; i < r->n_sens; i++) {
        const struct cs_cost_sens_row *sr = &r->sens[i];
        char c[2 + CS_OPT_COUNT][48];
        const char *cells[2 + CS_OPT_COUNT];
        snprintf(c[0], sizeof c[0], "%s", cs_cost_input_name(sr->input));
        cs_fmt_g4(sr->base_value, c[1], sizeof c[1]); /* "31,905", never "3.19e+04" */
        for (int k = 0; k < ncols; k++) {
            int o = cols[k];
            double base = r->res.opt[o].total_usd;
            char lo[20], hi[20];
            money(sr->low_usd[o] - base, lo, sizeof lo);
            money(sr->high_usd[o] - base, hi, sizeof hi);
            if (fabs(sr->low_usd[o] - base) < 0.5 && fabs(sr->high_usd[o] - base) < 0.5)
                snprintf(c[2 + k], sizeof c[2 + k], "0");
            else
                snprintf(c[2 + k], sizeof c[2 + k], "%s/%s", lo, hi);
        }
        for (int k = 0; k < nc; k++)
            cells[k] = c[k];
        cs_table_add_row(t, cells);
    }
    cs_table_write(t, out, 2);
    cs_table_destroy(t);

    if (r->has_mc) {
        fprintf(out, "\nMonte Carlo (%d samples, inputs uniform on cost.ranges)\n", r->mc.samples);
        static const char *const mh[] = {"option", ">p05", ">p50", ">p95", ">mean", ">cheapest"};
        t = cs_table_create(6, mh);
        for (int o = 0; o < CS_OPT_COUNT; o++) {
            if (!r->res.opt[o].available)
                continue;
            char c1[24], c2[24], c3[24], c4[24];
            cs_table_add_rowf(t, "%s\t%s\t%s\t%s\t%s\t%.0f%%",
                              cs_cost_option_name((enum cs_cost_option)o),
                              money(r->mc.p05[o], c1, sizeof c1), money(r->mc.p50[o], c2, sizeof c2),
                              money(r->mc.p95[o], c3, sizeof c3), money(r->mc.mean[o], c4, sizeof c4),
                              100 * r->mc.cheapest_share[o]);
        }
        cs_table_write(t, out, 2);
        cs_table_destroy(t);
    }

    fprintf(out, "\nAssumptions\n");
    fprintf(out, "  staff: %s per year%s\n", money(in->v[CS_CIN_STAFF], a, sizeof a),
            in->v[CS_CIN_STAFF] == 0 ? " (not given: cost.staff_per_year)" : "");
    fprintf(out, "  capital: %g-year life at %.1f%% cost of capital; build-out over %g years\n",
            in->v[CS_CIN_DEPRECIATION], 100 * in->v[CS_CIN_COST_OF_CAPITAL],
            isfinite(in->v[CS_CIN_FACILITY_LIFE]) ? in->v[CS_CIN_FACILITY_LIFE]
                                                  : in->v[CS_CIN_DEPRECIATION]);
    fprintf(out, "  power: %.2f x GPU TDP per GPU, %.0f%% of it while busy, %.0f%% idle; PUE %.2f; "
                 "$%.4f/kWh\n",
            in->v[CS_CIN_POWER_MULT], 100 * in->v[CS_CIN_POWER_UTIL],
            100 * (isfinite(in->v[CS_CIN_IDLE_FRACTION]) ? in->v[CS_CIN_IDLE_FRACTION]
                                                         : in->v[CS_CIN_POWER_UTIL]),
            in->v[CS_CIN_PUE], in->v[CS_CIN_ELECTRICITY]);
    fprintf(out, "  cooling: %s\n", in->liquid_cooling ? "liquid" : "air");
    if (in->bom.unpowered_switches > 0 || in->bom.unpowered_optics > 0)
        fprintf(out, "  NOT COUNTED: power of %ld switches and %ld optics (no sourced figure in "
                     "the catalog; give cluster.fabric.link_overrides.switch_power / "
                     "optic_power)\n",
                in->bom.unpowered_switches, in->bom.unpowered_optics);
    if (in->bom.unsized_storage[0])
        fprintf(out, "  NOT COUNTED: storage tiers without a capacity: %s (give "
                     "cluster.storage[i].capacity and price_per_tb)\n",
                in->bom.unsized_storage);
    if (in->spot_loss_fraction > 0)
        fprintf(out, "  spot: %.1f%% of GPU-hours lost to preemptions\n",
                100 * in->spot_loss_fraction);
    fprintf(out, "\nFacility\n");
    cs_out_facility_text(out, r->s);
    text_assumptions(out, r);

    if (r->has_claim) {
        const struct cs_cost_claim *c = &s->cost.ext.claim;
        fprintf(out, "\nVerdict on claim %s\n  claim: %s\n", c->id, c->text);
        if (isfinite(c->claimed))
            fprintf(out, "  claimed: %.4g (tolerance %.0f%%)\n", c->claimed, 100 * c->tolerance);
        else
            fprintf(out, "  claimed: %.4g .. %.4g\n", c->low, c->high);
        fprintf(out, "  computed: %.4g\n  clustersim: %s\n  verdict: %s\n", r->claim.computed,
                r->claim.explanation, cs_cost_verdict_name(r->claim.verdict));
    }
}

void cs_out_tco_csv(FILE *out, const struct cs_tco_report *r)
{
    fprintf(out, "option,total_usd");
    for (int c = 0; c < CS_CAT_COUNT; c++)
        fprintf(out, ",%s_usd", cs_cost_cat_name((enum cs_cost_cat)c));
    fprintf(out, ",usd_per_gpu_hour,usd_per_utilized_gpu_hour,usd_per_run\n");
    for (int o = 0; o < CS_OPT_COUNT; o++) {
        const struct cs_cost_option_result *x = &r->res.opt[o];
        if (!x->available)
            continue;
        fprintf(out, "%s,%.2f", cs_cost_option_name((enum cs_cost_option)o), x->total_usd);
        for (int c = 0; c < CS_CAT_COUNT; c++)
            fprintf(out, ",%.2f", x->by_cat_usd[c]);
        fprintf(out, ",%.6f,%.6f,", x->usd_per_gpu_hour, x->usd_per_utilized_gpu_hour);
        if (isfinite(x->usd_per_run))
            fprintf(out, "%.2f", x->usd_per_run);
        fputc('\n', out);
    }
}

/* DIR/NAME through base/outfile.h (temporary file, then rename); the
 * stream in *fp. NULL after adding the error to d. */
static cs_outfile *open_in(const char *dir, const char *name, FILE **fp, cs_diags *d)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    cs_outfile *of = cs_outfile_open_d(path, d);
    *fp = of ? cs_outfile_fp(of) : NULL;
    return of;
}

static bool close_ok(cs_outfile *of, cs_diags *d)
{
    return cs_outfile_commit_d(of, d) == CS_OK;
}

/* Break-even marks of the cost-vs-utilization figure with their label
 * heights: a label sits above its point, raised by a factor 1.35 (the y
 * axis is logarithmic) per earlier label it would otherwise overlap (within
 * 12 points of utilization and a factor 1.35 in height), so that labels of
 * nearly equal crossovers (on-prem and colocation against the same cloud
 * option) stack instead of printing over each other. */
static int util_marks(const struct cs_tco_report *r, double denom_h, double *mu, double *my,
                      double *ly, int *idx)
{
    const struct cs_cost_inputs *in = r->in;
    int n = 0;
    for (int i = 0; i < r->n_be; i++) {
        double u = r->be[i].utilization;
        if (!isfinite(u))
            continue;
        mu[n] = u;
        my[n] = cs_cost_option_total(in, r->be[i].owned, u) / (denom_h * u);
        double y = my[n] * 1.35;
        for (bool moved = true; moved;) {
            moved = false;
            for (int k = 0; k < n; k++)
                if (fabs(mu[k] - u) < 0.12 && fmax(ly[k], y) / fmin(ly[k], y) < 1.35) {
                    y = ly[k] * 1.35;
                    moved = true;
                }
        }
        ly[n] = y;
        idx[n++] = i;
    }
    return n;
}

cs_status cs_out_tco_plot_data(const char *dir, const struct cs_tco_report *r, cs_diags *d)
{
    const struct cs_cost_inputs *in = r->in;
    /* Tornado option: on-prem, else the first available option. */
    int opt = CS_OPT_ONPREM;
    while (opt < CS_OPT_COUNT && !r->res.opt[opt].available)
        opt++;

    /* Values the templates read (plots/tco_*.gp `load 'tco_meta.gp'`):
     * which options have columns, the scenario's utilization, the
     * tornado's option and step. */
    FILE *fp;
    cs_outfile *of = open_in(dir, "tco_meta.gp", &fp, d);
    if (!of)
        return CS_EIO;
    char names[256] = "";
    int ncurve = 0, nowned = 0;
    for (int o = 0; o < CS_OPT_HYBRID; o++)
        if (in->available[o]) {
            size_t len = strlen(names);
            snprintf(names + len, sizeof names - len, "%s%s", len ? " " : "",
                     cs_cost_option_name((enum cs_cost_option)o));
            ncurve++;
            nowned += cs_cost_option_owned((enum cs_cost_option)o);
        }
    char base[32];
    fprintf(fp, "# written by clustersim tco: values for the tco_*.gp templates\n");
    fprintf(fp, "util_names = \"%s\"\nutil_ncurves = %d\nutil_nowned = %d\n", names, ncurve,
            nowned);
    fprintf(fp, "utilization = %.6f\n", in->v[CS_CIN_UTILIZATION]);
    /* The x axis starts at 5% unless a crossover lies below (down to 1%). */
    int nmarks = 0;
    double xmin = 5;
    for (int i = 0; i < r->n_be; i++)
        if (isfinite(r->be[i].utilization)) {
            nmarks++;
            xmin = fmin(xmin, fmax(1, floor(80 * r->be[i].utilization)));
        }
    fprintf(fp, "util_nmarks = %d\nutil_xmin = %g\n", nmarks, xmin);
    fprintf(fp, "tornado_option = \"%s\"\ntornado_base = \"%s\"\ntornado_step_pct = %.0f\n",
            opt < CS_OPT_COUNT ? cs_cost_option_name((enum cs_cost_option)opt) : "none",
            opt < CS_OPT_COUNT ? money(r->res.opt[opt].total_usd, base, sizeof base) : "-",
            100 * r->sens_step);
    fprintf(fp, "scenario_gpus = %.0f\nscenario_years = %g\n", in->gpus, in->years);
    if (!close_ok(of, d))
        return CS_EIO;

    /* Stacked bars: one row per option, one column per category, then the
     * total, $M. The hybrid's label names its owned baseline. */
    of = open_in(dir, "tco_bars.dat", &fp, d);
    if (!of)
        return CS_EIO;
    fprintf(fp, "# option");
    for (int c = 0; c < CS_CAT_COUNT; c++)
        fprintf(fp, " %s_musd", cs_cost_cat_name((enum cs_cost_cat)c));
    fprintf(fp, " total_musd\n");
    for (int o = 0; o < CS_OPT_COUNT; o++) {
        if (!r->res.opt[o].available)
            continue;
        if (o == CS_OPT_HYBRID)
            fprintf(fp, "\"hybrid (%d owned)\"", r->res.opt[o].hybrid_baseline_gpus);
        else
            fprintf(fp, "\"%s\"", cs_cost_option_name((enum cs_cost_option)o));
        for (int c = 0; c < CS_CAT_COUNT; c++)
            fprintf(fp, " %.6f", r->res.opt[o].by_cat_usd[c] / 1e6);
        fprintf(fp, " %.6f\n", r->res.opt[o].total_usd / 1e6);
    }
    if (!close_ok(of, d))
        return CS_EIO;

    /* Cost per utilized GPU-hour against utilization: one column per
     * available owned/cloud option, owned first (tco_meta.gp names them). */
    of = open_in(dir, "tco_util.dat", &fp, d);
    if (!of)
        return CS_EIO;
    fprintf(fp, "# utilization %s\n", names);
    double denom_h = in->gpus * in->years * 8760.0;
    for (int k = 1; k <= 100; k++) {
        double u = k / 100.0;
        fprintf(fp, "%.2f", u);
        for (int o = 0; o < CS_OPT_HYBRID; o++)
            if (in->available[o])
                fprintf(fp, " %.6f",
                        cs_cost_option_total(in, (enum cs_cost_option)o, u) / (denom_h * u));
        fputc('\n', fp);
    }
    if (!close_ok(of, d))
        return CS_EIO;
    of = open_in(dir, "tco_util_marks.dat", &fp, d);
    if (!of)
        return CS_EIO;
    fprintf(fp, "# utilization usd_per_utilized_gpu_hour label_y label\n");
    double mu[8], my[8], ly[8];
    int idx[8];
    int nm = util_marks(r, denom_h, mu, my, ly, idx);
    for (int k = 0; k < nm; k++) {
        const struct cs_cost_break_even *b = &r->be[idx[k]];
        fprintf(fp, "%.6f %.6f %.6f \"%s = %s at %.1f%%\"\n", mu[k], my[k], ly[k],
                cs_cost_option_name(b->owned), cs_cost_option_name(b->cloud), 100 * mu[k]);
    }
    if (!close_ok(of, d))
        return CS_EIO;

    /* Tornado: largest swing at the top. Columns: rank, input, low delta,
     * high delta ($M, relative to the base total). */
    of = open_in(dir, "tco_tornado.dat", &fp, d);
    if (!of)
        return CS_EIO;
    fprintf(fp, "# option %s, step %.0f%%\n# rank input low_delta_musd high_delta_musd\n",
            opt < CS_OPT_COUNT ? cs_cost_option_name((enum cs_cost_option)opt) : "none",
            100 * r->sens_step);
    if (opt < CS_OPT_COUNT) {
        double b0 = r->res.opt[opt].total_usd;
        int rank = 0;
        for (int i = 0; i < r->n_sens && rank < 12; i++) {
            const struct cs_cost_sens_row *sr = &r->sens[i];
            double lo = (sr->low_usd[opt] - b0) / 1e6, hi = (sr->high_usd[opt] - b0) / 1e6;
            if (fabs(lo) < 1e-9 && fabs(hi) < 1e-9)
                continue;
            fprintf(fp, "%d %s %.6f %.6f\n", rank++, cs_cost_input_name(sr->input), lo, hi);
        }
    }
    return close_ok(of, d) ? CS_OK : CS_EIO;
}

/* ------------------------------------------------------------------------ */
/* Cost-per-throughput table across scenarios (tco --table).                 */

void cs_out_tco_table_fill(struct cs_tco_table_row *rows, int n)
{
    double base = NAN, ref_base = NAN;
    for (int i = 0; i < n; i++) {
        struct cs_tco_table_row *r = &rows[i];
        const struct cs_cost_inputs *in = &r->in;
        const struct cs_cost_reference *ref = &r->s->cost.ext.reference;
        r->effective_tokens_per_s =
            r->run.has_step ? r->s->workload.tokens / (r->run.wall_hours * 3600.0) : NAN;
        if (i == 0) {
            base = r->effective_tokens_per_s;
            ref_base = ref->throughput;
        }
        r->rel_throughput = r->effective_tokens_per_s / base;
        r->ref_rel_throughput = ref->throughput / ref_base;
        r->on_demand_usd_per_h = in->available[CS_OPT_ON_DEMAND]
                                     ? in->gpus * in->v[CS_CIN_ON_DEMAND]
                                     : NAN;
        r->reserved_usd_per_year = in->available[CS_OPT_RESERVED_1Y]
                                       ? in->gpus * 8760.0 * in->v[CS_CIN_RESERVED_1Y]
                                       : NAN;
        r->owned_usd = r->res.opt[CS_OPT_ONPREM].available ? r->res.opt[CS_OPT_ONPREM].total_usd
                                                           : NAN;
        r->usd_per_h_per_throughput = r->on_demand_usd_per_h / r->rel_throughput;
        r->ref_usd_per_h_per_throughput = ref->on_demand_usd_per_h / r->ref_rel_throughput;
        r->has_verdict = i > 0 && isfinite(r->rel_throughput) && isfinite(r->ref_rel_throughput);
        r->verdict = CS_VERDICT_UNDECIDED;
        if (r->has_verdict)
            r->verdict = fabs(r->rel_throughput - r->ref_rel_throughput) <=
                                 ref->tolerance * r->ref_rel_throughput
                             ? CS_VERDICT_SUPPORTED
                             : CS_VERDICT_NOT_SUPPORTED;
    }
}

/* "A (B)": clustersim's figure and the reference's in parentheses. */
static void pair_money(double v, double ref, char *buf, size_t n)
{
    char a[24], b[24];
    money(v, a, sizeof a);
    if (isfinite(ref))
        snprintf(buf, n, "%s (%s)", a, money(ref, b, sizeof b));
    else
        snprintf(buf, n, "%s", a);
}

static void pair_num(double v, double ref, const char *fmt, char *buf, size_t n)
{
    char a[24], b[24];
    if (isfinite(v))
        snprintf(a, sizeof a, fmt, v);
    else
        snprintf(a, sizeof a, "-");
    if (isfinite(ref)) {
        snprintf(b, sizeof b, fmt, ref);
        snprintf(buf, n, "%s (%s)", a, b);
    } else {
        snprintf(buf, n, "%s", a);
    }
}

void cs_out_tco_table_text(FILE *out, const struct cs_tco_table_row *rows, int n)
{
    fprintf(out, "Cost per throughput: the same workload on each cluster; throughput relative "
                 "to the first row;\nthe reference's figures (cost.reference) in parentheses\n");
    static const char *const h[] = {"scenario", ">GPUs", ">tokens/s", ">goodput",
                                    ">rel. throughput", ">on-demand $/h", ">reserved-1y $/yr",
                                    ">on-prem total", ">$/h per throughput", ">on-demand $/run",
                                    ">on-prem $/run", "throughput verdict"};
    cs_table *t = cs_table_create(12, h);
    for (int i = 0; i < n; i++) {
        const struct cs_tco_table_row *r = &rows[i];
        const struct cs_cost_reference *ref = &r->s->cost.ext.reference;
        char c[12][136];
        const char *cells[12];
        snprintf(c[0], sizeof c[0], "%s", r->s->name);
        snprintf(c[1], sizeof c[1], "%.0f", r->in.gpus);
        if (r->run.has_step)
            snprintf(c[2], sizeof c[2], "%.0f", r->run.tokens_per_s);
        else
            snprintf(c[2], sizeof c[2], "-");
        if (r->run.has_step)
            snprintf(c[3], sizeof c[3], "%.4f%s", r->run.goodput, r->run.run_model ? "" : "*");
        else
            snprintf(c[3], sizeof c[3], "-");
        pair_num(r->rel_throughput, r->ref_rel_throughput, "%.2fx", c[4], sizeof c[4]);
        pair_money(r->on_demand_usd_per_h, ref->on_demand_usd_per_h, c[5], sizeof c[5]);
        pair_money(r->reserved_usd_per_year, ref->reserved_usd_per_year, c[6], sizeof c[6]);
        pair_money(r->owned_usd, ref->owned_usd, c[7], sizeof c[7]);
        pair_money(r->usd_per_h_per_throughput, r->ref_usd_per_h_per_throughput, c[8],
                   sizeof c[8]);
        money(r->res.opt[CS_OPT_ON_DEMAND].available ? r->res.opt[CS_OPT_ON_DEMAND].usd_per_run
                                                      : NAN,
              c[9], sizeof c[9]);
        money(r->res.opt[CS_OPT_ONPREM].available ? r->res.opt[CS_OPT_ONPREM].usd_per_run : NAN,
              c[10], sizeof c[10]);
        if (i == 0)
            snprintf(c[11], sizeof c[11], "baseline");
        else if (r->has_verdict)
            snprintf(c[11], sizeof c[11], "%s (+-%.0f%%)", cs_cost_verdict_name(r->verdict),
                     100 * ref->tolerance);
        else
            snprintf(c[11], sizeof c[11], "-");
        for (int k = 0; k < 12; k++)
            cells[k] = c[k];
        cs_table_add_row(t, cells);
    }
    cs_table_write(t, out, 2);
    cs_table_destroy(t);
    int sup = 0, dec = 0;
    bool any_star = false;
    for (int i = 0; i < n; i++) {
        if (rows[i].has_verdict) {
            dec++;
            sup += rows[i].verdict == CS_VERDICT_SUPPORTED;
        }
        any_star |= rows[i].run.has_step && !rows[i].run.run_model;
    }
    fprintf(out, "\nrel. throughput: workload.tokens / time to train (step model, data "
                 "pipeline%s) over the first row's.\n",
            any_star ? "; * = run model not used, goodput 1" : ", run model");
    fprintf(out, "$/h per throughput: on-demand $/h / rel. throughput. On-prem and on-demand "
                 "over cost.years at cost.utilization; $/run at the time to train.\n");
    if (dec > 0)
        fprintf(out, "Verdict: relative throughput within tolerance of the reference in %d of %d "
                     "rows\n",
                sup, dec);
}

void cs_out_tco_table_json(cJSON *root, const struct cs_tco_table_row *rows, int n)
{
    cJSON *t = cJSON_AddObjectToObject(root, "tco_table");
    cJSON *a = cJSON_AddArrayToObject(t, "rows");
    for (int i = 0; i < n; i++) {
        const struct cs_tco_table_row *r = &rows[i];
        const struct cs_cost_reference *ref = &r->s->cost.ext.reference;
        cJSON *j = cJSON_CreateObject();
        cJSON_AddStringToObject(j, "scenario", r->s->name);
        cJSON_AddStringToObject(j, "file", r->file);
        cJSON_AddStringToObject(j, "gpu", r->s->cluster.gpu.name);
        num(j, "gpus", r->in.gpus);
        num(j, "tokens_per_s", r->run.has_step ? r->run.tokens_per_s : NAN);
        num(j, "goodput", r->run.has_step ? r->run.goodput : NAN);
        cJSON_AddBoolToObject(j, "run_model", r->run.run_model);
        num(j, "time_to_train_s", r->run.has_step ? r->run.wall_hours * 3600 : NAN);
        num(j, "effective_tokens_per_s", r->effective_tokens_per_s);
        num(j, "relative_throughput", r->rel_throughput);
        num(j, "on_demand_usd_per_h", r->on_demand_usd_per_h);
        num(j, "reserved_1y_usd_per_year", r->reserved_usd_per_year);
        num(j, "on_prem_total_usd", r->owned_usd);
        num(j, "usd_per_h_per_throughput", r->usd_per_h_per_throughput);
        for (int o = 0; o < CS_OPT_HYBRID; o++) {
            char k[64];
            snprintf(k, sizeof k, "%s_usd_per_run", cs_cost_option_name((enum cs_cost_option)o));
            for (char *c = k; *c; c++)
                if (*c == '-')
                    *c = '_'; /* snake_case keys: on_prem_usd_per_run */
            num(j, k, r->res.opt[o].available ? r->res.opt[o].usd_per_run : NAN);
        }
        cJSON *rf = cJSON_AddObjectToObject(j, "reference");
        cJSON_AddStringToObject(rf, "id", ref->id);
        num(rf, "on_demand_usd_per_h", ref->on_demand_usd_per_h);
        num(rf, "reserved_usd_per_year", ref->reserved_usd_per_year);
        num(rf, "owned_total_usd", ref->owned_usd);
        num(rf, "throughput", ref->throughput);
        num(rf, "relative_throughput", r->ref_rel_throughput);
        num(rf, "usd_per_h_per_throughput", r->ref_usd_per_h_per_throughput);
        if (r->has_verdict)
            cJSON_AddStringToObject(j, "throughput_verdict", cs_cost_verdict_name(r->verdict));
        else
            cJSON_AddNullToObject(j, "throughput_verdict");
        cJSON_AddItemToArray(a, j);
    }
}

static void csv_num(FILE *out, double v)
{
    if (isfinite(v))
        fprintf(out, ",%.6g", v);
    else
        fputc(',', out);
}

void cs_out_tco_table_csv(FILE *out, const struct cs_tco_table_row *rows, int n)
{
    fprintf(out, "scenario,gpus,tokens_per_s,goodput,relative_throughput,on_demand_usd_per_h,"
                 "reserved_1y_usd_per_year,on_prem_total_usd,usd_per_h_per_throughput,"
                 "on_demand_usd_per_run,on_prem_usd_per_run,ref_relative_throughput,"
                 "ref_on_demand_usd_per_h,ref_reserved_usd_per_year,ref_owned_total_usd,"
                 "throughput_verdict\n");
    for (int i = 0; i < n; i++) {
        const struct cs_tco_table_row *r = &rows[i];
        const struct cs_cost_reference *ref = &r->s->cost.ext.reference;
        cs_out_csv_quoted(out, r->s->name);
        csv_num(out, r->in.gpus);
        csv_num(out, r->run.has_step ? r->run.tokens_per_s : NAN);
        csv_num(out, r->run.has_step ? r->run.goodput : NAN);
        csv_num(out, r->rel_throughput);
        csv_num(out, r->on_demand_usd_per_h);
        csv_num(out, r->reserved_usd_per_year);
        csv_num(out, r->owned_usd);
        csv_num(out, r->usd_per_h_per_throughput);
        csv_num(out, r->res.opt[CS_OPT_ON_DEMAND].available
                         ? r->res.opt[CS_OPT_ON_DEMAND].usd_per_run : NAN);
        csv_num(out, r->res.opt[CS_OPT_ONPREM].available ? r->res.opt[CS_OPT_ONPREM].usd_per_run
                                                         : NAN);
        csv_num(out, r->ref_rel_throughput);
        csv_num(out, ref->on_demand_usd_per_h);
        csv_num(out, ref->reserved_usd_per_year);
        csv_num(out, ref->owned_usd);
        fprintf(out, ",%s\n", r->has_verdict ? cs_cost_verdict_name(r->verdict) : "");
    }
}
