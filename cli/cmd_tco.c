/* cmd_tco.c: `clustersim tco FILE`: three-year (cost.years) TCO of the
 * scenario's cluster for on-prem, colocation, cloud and hybrid, with
 * break-even, sensitivity, Monte Carlo, a claim verdict, and gnuplot
 * figures under -o DIR (gnuplot is run directly, never through a shell). */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include "clustersim/base/numparse.h"
#include "clustersim/app/pipeline.h"
#include "clustersim/app/results_json.h"
#include "clustersim/app/tco.h"
#include "clustersim/app/uncertainty.h"
#include "clustersim/config/fileio.h"
#include "clustersim/report/cost_report.h"
#include "clustersim/report/gnuplot.h"
#include "clustersim/report/run_report.h"
#include "clustersim/base/units.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static const struct cs_cli_opt cs__tco_opts[] = {
    {"format", 'f', "FMT", "output format: text (default), json or csv"},
    {"output", 'o', "DIR", "write tco.txt / tco.json / tco.csv and the figures into DIR"},
    CS_CLI_OPT_CATALOG,
    CS_CLI_OPT_SET,
    {"sensitivity", 0, "STEP", "relative step of the sensitivity table (default cost.sensitivity, 20%)"},
    {"samples", 0, "N", "Monte Carlo samples over cost.ranges (default cost.monte_carlo)"},
    {"only-priced", 0, NULL, "leave out the options whose prices are missing instead of failing"},
    {"uncertainty", 0, NULL, "p05/p50/p95 of every option's total and a tornado, by Monte Carlo over "
                             "cost.ranges (else stated +-cost.sensitivity ranges on the prices; "
                             "uncertainty.samples; docs/uncertainty.md)"},
    {"no-plots", 0, NULL, "with -o: write no figures"},
    {"no-run-model", 0, NULL, "cost per run from the step model alone (goodput 1): skip the "
                              "run model's failures and checkpoints"},
    {"table", 0, NULL, "FILE... : one row per scenario: relative throughput, cost per hour, "
                       "per year and per run beside cost.reference"},
};

static void cost_unc_text(FILE *f, const struct cs_app_cost_unc *u, const struct cs_cost_result *base)
{
    fprintf(f, "\nUncertainty (%d Monte Carlo samples; inputs uniform on %s)\n", u->samples,
            u->stated ? "stated +-cost.sensitivity ranges around the priced inputs" : "cost.ranges");
    for (int k = 0; k < CS_OPT_COUNT; k++) {
        if (!base->opt[k].available)
            continue;
        char a[32], b[32], c[32];
        cs_units_format(u->mc.p05[k], CS_UNIT_MONEY, a, sizeof a);
        cs_units_format(u->mc.p50[k], CS_UNIT_MONEY, b, sizeof b);
        cs_units_format(u->mc.p95[k], CS_UNIT_MONEY, c, sizeof c);
        fprintf(f, "  %-20s p05 %-10s p50 %-10s p95 %-10s cheapest in %.0f%%\n",
                cs_cost_option_name((enum cs_cost_option)k), a, b, c, 100 * u->mc.cheapest_share[k]);
    }
    int op = (int)u->tornado_option;
    fprintf(f, "  tornado (%s total, one input at -/+ the step):\n", cs_cost_option_name(u->tornado_option));
    for (int i = 0; i < u->n_tornado && i < 8; i++) {
        char a[32], b[32];
        cs_units_format(u->tornado[i].low_usd[op], CS_UNIT_MONEY, a, sizeof a);
        cs_units_format(u->tornado[i].high_usd[op], CS_UNIT_MONEY, b, sizeof b);
        fprintf(f, "    %-24s %-10s %s\n", cs_cost_input_name(u->tornado[i].input), a, b);
    }
}

/* Copies plots/NAME (the template) into dir (report/gnuplot.c). */
static bool copy_template(const char *dir, const char *name)
{
    cs_diags d;
    cs_diags_init(&d);
    bool ok = cs_gnuplot_copy_template(dir, name, &d) == CS_OK;
    for (size_t i = 0; i < d.n; i++) {
        char *s = cs_cli_diag_plain(&d.items[i]);
        fprintf(stderr, "clustersim tco: warning: %s: figure skipped\n", s);
        free(s);
    }
    cs_diags_fini(&d);
    return ok;
}

/* False when the figures' data could not be written (the message printed):
 * the command fails. A missing template or gnuplot is a warning. */
static bool figures(const char *dir, const struct cs_tco_report *r)
{
    cs_diags d;
    cs_diags_init(&d);
    cs_status st = cs_out_tco_plot_data(dir, r, &d);
    cs_cli_print_diags_prefixed(&d, "clustersim tco");
    cs_diags_fini(&d);
    if (st != CS_OK)
        return false;
    static const char *const scripts[] = {"tco_bars.gp", "tco_util.gp", "tco_tornado.gp"};
    for (size_t i = 0; i < sizeof scripts / sizeof scripts[0]; i++) {
        if (!copy_template(dir, scripts[i]))
            continue;
        int rc = cs_gnuplot_run(dir, scripts[i]);
        if (rc == 127) {
            fprintf(stderr, "clustersim tco: warning: gnuplot not found: wrote %s/%s and its "
                            "data but no PNG\n", dir, scripts[i]);
            return true;
        }
        if (rc != 0)
            fprintf(stderr, "clustersim tco: warning: gnuplot %s exited with %d\n", scripts[i], rc);
    }
    return true;
}

/* The pipeline with the COST goal (app/pipeline.c): the step, data and run
 * models time a run of workload.tokens (the run model unless
 * --no-run-model, on 2 threads), then the cost inputs and the TCO. */
static void tco_eval_opts(const struct cs_cli_cmd *cmd, const struct cs_cli_args *a,
                          bool only_priced, struct cs_app_eval_opts *eo)
{
    cs_app_eval_opts_default(eo);
    eo->goal = CS_APP_GOAL_COST;
    eo->run = cs_cli_get(cmd, a, "no-run-model") == NULL;
    eo->only_priced = only_priced;
    eo->threads = 2;
}

static int tco_table(const struct cs_cli_cmd *cmd, const struct cs_cli_args *a,
                     enum cs_cli_format fmt);

static int cs__tco(const struct cs_cli_cmd *cmd, const struct cs_cli_args *a)
{
    enum cs_cli_format fmt;
    if (!cs_cli_format(cs_cli_get(cmd, a, "format"), &fmt))
        return CS_EXIT_BADINPUT;
    if (cs_cli_get(cmd, a, "table"))
        return tco_table(cmd, a, fmt);
    if (a->npos != 1) {
        fprintf(stderr, "clustersim tco: expected one scenario FILE, or --table FILE... (see "
                        "'clustersim help tco')\n");
        return CS_EXIT_BADINPUT;
    }
    const char *path = cs_path_display(a->pos[0]);
    double step = NAN;
    const char *sv = cs_cli_get(cmd, a, "sensitivity");
    if (sv) {
        char e[256];
        if (cs_units_parse(sv, CS_UNIT_RATIO, &step, e, sizeof e) != CS_OK || !(step > 0) ||
            step >= 1) {
            fprintf(stderr, "clustersim tco: --sensitivity: expected a step like 0.2 or 20%%, "
                            "got \"%s\"\n", sv);
            return CS_EXIT_BADINPUT;
        }
    }
    long samples = -1;
    const char *nv = cs_cli_get(cmd, a, "samples");
    if (nv) {
        if (!cs_num_parse_long(nv, 10, 0, 1000000, &samples)) {
            fprintf(stderr, "clustersim tco: --samples: expected 0 to 1000000, got \"%s\"\n", nv);
            return CS_EXIT_BADINPUT;
        }
    }
    struct cs_cli_scenario sc;
    int rc = cs_cli_load_scenario(a->pos[0], cs_cli_get(cmd, a, "catalog"), a, &sc);
    if (rc != CS_EXIT_OK)
        return rc;
    const struct cs_scenario *s = &sc.scenario;
    struct cs_tco_report *r = calloc(1, sizeof *r);
    if (!r) {
        fprintf(stderr, "clustersim tco: out of memory\n");
        cs_cli_scenario_fini(&sc);
        return CS_EXIT_FAIL;
    }

    /* Time per training run, cost inputs and TCO. */
    struct cs_app_eval_opts eo;
    tco_eval_opts(cmd, a, cs_cli_get(cmd, a, "only-priced") != NULL, &eo);
    struct cs_app_result res;
    cs_status st = cs_cli_evaluate(s, path, &eo, &res);
    if (st != CS_OK) {
        bool prices = res.failed == CS_APP_STAGE_COST;
        if (prices && st == CS_ECONFIG)
            fprintf(stderr, "clustersim tco: give the missing prices in the scenario's cost: "
                            "section, or pass --only-priced\n");
        cs_app_result_fini(&res);
        free(r);
        cs_cli_scenario_fini(&sc);
        if (st == CS_EBUDGET)
            return CS_EXIT_FAIL;
        return !prices || st == CS_ECONFIG ? CS_EXIT_BADINPUT : CS_EXIT_FAIL;
    }
    int n_mc = samples >= 0 ? (int)samples : s->cost.ext.monte_carlo;
    if (n_mc > 0 && s->cost.ext.n_ranges == 0)
        fprintf(stderr, "clustersim tco: warning: %s: Monte Carlo asked for but cost.ranges is "
                        "empty: skipped\n", path);
    /* Break-even, sensitivity, Monte Carlo, claim (app/tco.c). */
    cs_diags d;
    cs_diags_init(&d);
    cs_app_tco_report(sc.catalog, &sc.prov, s, &res, isfinite(step) ? step : s->cost.ext.sensitivity,
                      n_mc, &d, r);
    cs_cli_print_diags_for(&d, path);
    cs_diags_fini(&d);
    struct cs_app_cost_unc *cu = NULL;
    if (cs_cli_get(cmd, a, "uncertainty") && res.has_cost) {
        cu = calloc(1, sizeof *cu);
        if (!cu || cs_app_cost_uncertainty(s, res.cost_in, res.cost, s->uncertainty.samples, cu) != CS_OK) {
            fprintf(stderr, "clustersim tco: --uncertainty: no priced input to vary\n");
            free(cu);
            cu = NULL;
        }
    }

    const char *dir = cs_cli_get(cmd, a, "output");
    const char *name = fmt == CS_FMT_JSON ? "tco.json" : fmt == CS_FMT_CSV ? "tco.csv" : "tco.txt";
    struct cs_cli_out out;
    bool ok = cs_cli_out_open(&out, dir, name);
    if (ok) {
        if (fmt == CS_FMT_JSON) {
            cJSON *root = cs_app_tco_json(s, path, r, cu, res.cost);
            ok = cs_out_json_write(out.fp, root);
            cJSON_Delete(root);
        } else if (fmt == CS_FMT_CSV) {
            cs_out_tco_csv(out.fp, r);
        } else {
            fprintf(out.fp, "clustersim %s: scenario \"%s\" (%s)\n\n", CLUSTERSIM_VERSION,
                    s->name, path);
            cs_out_tco_text(out.fp, r);
            if (cu)
                cost_unc_text(out.fp, cu, res.cost);
        }
        if (ferror(out.fp))
            ok = false;
        ok = cs_cli_out_close(&out, ok) && ok;
    }
    if (ok && !cs_cli_out_is_stdout(dir) && !cs_cli_get(cmd, a, "no-plots")) /* -o -: no figures */
        ok = figures(dir, r);
    free(cu);
    free(r);
    cs_app_result_fini(&res);
    cs_cli_scenario_fini(&sc);
    return ok ? CS_EXIT_OK : CS_EXIT_FAIL;
}

/* `tco --table A.yaml B.yaml ...`: missing prices leave cells empty
 * (warnings), as --only-priced. */
static int tco_table(const struct cs_cli_cmd *cmd, const struct cs_cli_args *a,
                     enum cs_cli_format fmt)
{
    if (a->npos < 1) {
        fprintf(stderr, "clustersim tco: --table: expected one or more scenario FILEs\n");
        return CS_EXIT_BADINPUT;
    }
    int n = a->npos;
    struct cs_cli_scenario *sc = calloc((size_t)n, sizeof *sc);
    struct cs_tco_table_row *rows = calloc((size_t)n, sizeof *rows);
    if (!sc || !rows) {
        fprintf(stderr, "clustersim tco: out of memory\n");
        free(sc);
        free(rows);
        return CS_EXIT_FAIL;
    }
    struct cs_app_eval_opts eo;
    tco_eval_opts(cmd, a, true, &eo);
    int loaded = 0, rc = CS_EXIT_OK;
    for (int i = 0; i < n && rc == CS_EXIT_OK; i++) {
        const char *path = cs_path_display(a->pos[i]);
        rc = cs_cli_load_scenario(a->pos[i], cs_cli_get(cmd, a, "catalog"), a, &sc[i]);
        if (rc != CS_EXIT_OK)
            break;
        loaded++;
        const struct cs_scenario *s = &sc[i].scenario;
        struct cs_tco_table_row *r = &rows[i];
        r->s = s;
        r->file = path;
        struct cs_app_result res;
        cs_status st = cs_cli_evaluate(s, path, &eo, &res);
        if (st == CS_OK) {
            r->run = res.cost_run;
            r->in = *res.cost_in;
            r->res = *res.cost;
        }
        cs_app_result_fini(&res);
        if (st != CS_OK) {
            rc = st == CS_ECONFIG || st == CS_EINVAL ? CS_EXIT_BADINPUT : CS_EXIT_FAIL;
            break;
        }
    }
    if (rc == CS_EXIT_OK) {
        cs_out_tco_table_fill(rows, n);
        const char *name = fmt == CS_FMT_JSON ? "tco_table.json"
                           : fmt == CS_FMT_CSV ? "tco_table.csv"
                                               : "tco_table.txt";
        struct cs_cli_out out;
        bool ok = cs_cli_out_open(&out, cs_cli_get(cmd, a, "output"), name);
        if (ok) {
            if (fmt == CS_FMT_JSON) {
                cJSON *root = cJSON_CreateObject();
                cJSON_AddStringToObject(root, "clustersim_version", CLUSTERSIM_VERSION);
                cs_out_tco_table_json(root, rows, n);
                ok = cs_out_json_write(out.fp, root);
                cJSON_Delete(root);
            } else if (fmt == CS_FMT_CSV) {
                cs_out_tco_table_csv(out.fp, rows, n);
            } else {
                fprintf(out.fp, "clustersim %s: %d scenarios\n\n", CLUSTERSIM_VERSION, n);
                cs_out_tco_table_text(out.fp, rows, n);
            }
            if (ferror(out.fp))
                ok = false;
            ok = cs_cli_out_close(&out, ok) && ok;
        }
        if (!ok)
            rc = CS_EXIT_FAIL;
    }
    for (int i = 0; i < loaded; i++)
        cs_cli_scenario_fini(&sc[i]);
    free(sc);
    free(rows);
    return rc;
}

const struct cs_cli_cmd cs_cmd_tco = {
    "tco",
    "tco [options] FILE | tco --table [options] FILE...",
    "total cost of ownership: on-prem, colocation, cloud and hybrid",
    "Prices the scenario's cluster (bill of materials counted from the built\n"
    "fabric, catalog prices unless `cost:` overrides them) over cost.years for\n"
    "on-prem, colocation, cloud on-demand, reserved 1y/3y, spot and a hybrid of an\n"
    "owned baseline plus cloud burst. Prints totals by category and year, $ per\n"
    "GPU-hour available and utilized, $ per training run (workload.tokens at the\n"
    "step model's tokens/s, over the run model's goodput unless --no-run-model),\n"
    "break-even utilizations, a ranked sensitivity table,\n"
    "Monte Carlo percentiles over cost.ranges, and a verdict when the scenario has\n"
    "cost.claim. With -o DIR also writes tco_*.dat, tco_*.gp and, when gnuplot is\n"
    "installed, tco_bars.png, tco_util.png and tco_tornado.png. A price that\n"
    "neither the catalog nor the scenario gives is an error naming its key\n"
    "(exit 2) unless --only-priced. With --table, one row per scenario: relative\n"
    "throughput of the same workload, cost per hour, per year, per run and per\n"
    "unit of throughput, beside the scenario's cost.reference figures.\n"
    "Equations: docs/cost.md.",
    cs__tco_opts,
    (int)(sizeof cs__tco_opts / sizeof cs__tco_opts[0]),
    cs__tco,
};
