/* cmd_run.c: `clustersim run FILE`: resolve the scenario, simulate one
 * training step and report it (text, JSON or CSV). */
#include "cli.h"
#include "progress.h"

#include "clustersim/app/pipeline.h"
#include "clustersim/app/results_json.h"
#include "clustersim/app/uncertainty.h"
#include "clustersim/base/numparse.h"
#include "clustersim/base/units.h"
#include "clustersim/config/catalog.h"
#include "clustersim/config/config.h"
#include "clustersim/config/fileio.h"
#include "clustersim/report/run_report.h"
#include "clustersim/report/run_level.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct cs_cli_opt cs__run_opts[] = {
    {"format", 'f', "FMT", "output format: text (default), json or csv"},
    {"output", 'o', "DIR", "write run.txt / run.json / run.csv into DIR instead of stdout"},
    {"uncertainty", 0, NULL, "confidence intervals on the step time and the time to train from the "
                             "model's own parameters (Monte Carlo; uncertainty: in the scenario; "
                             "docs/uncertainty.md)"},
    {"jobs", 'j', "N", "threads for the Monte Carlo (run replicas, uncertainty samples; default 2; "
                       "results do not depend on N)"},
    {"quiet", 'q', NULL, "no progress line on standard error, even on a terminal"},
    CS_CLI_OPT_CATALOG,
    CS_CLI_OPT_SET,
};

static void cs__unc_text(FILE *f, const struct cs_app_uncertainty *u)
{
    char a[32], b[32], c[32];
    fprintf(f, "\nUncertainty (%d Monte Carlo samples over the model's parameters; docs/uncertainty.md)\n",
            u->samples);
    fprintf(f, "  inputs: step time x log-normal(sigma %.3f) from the %s; MTBF x [%.3g, %.3g] "
               "log-uniform; detection + restart x [%.3g, %.3g] uniform\n",
            u->spec.step_sigma, u->spec.step_source, u->spec.mtbf_lo, u->spec.mtbf_hi,
            u->spec.restart_lo, u->spec.restart_hi);
    cs_units_format(u->step_time_s.p05, CS_UNIT_TIME, a, sizeof a);
    cs_units_format(u->step_time_s.p50, CS_UNIT_TIME, b, sizeof b);
    cs_units_format(u->step_time_s.p95, CS_UNIT_TIME, c, sizeof c);
    fprintf(f, "  step time       p05 %-10s p50 %-10s p95 %s\n", a, b, c);
    if (u->has_time)
        fprintf(f, "  time to train   p05 %-10.2f p50 %-10.2f p95 %.2f days\n",
                u->time_to_train_s.p05 / 86400, u->time_to_train_s.p50 / 86400,
                u->time_to_train_s.p95 / 86400);
    fprintf(f, "  tornado (%s with one input at its p05 and p95, the others nominal):\n",
            u->has_time ? "mean time to train" : "step time");
    for (int i = 0; i < u->n_tornado; i++) {
        const struct cs_unc_tornado *t = &u->tornado[i];
        if (u->has_time)
            fprintf(f, "    %-10s x%-6.3g %.2f d   x%-6.3g %.2f d\n", cs_unc_input_names[t->input],
                    t->low_factor, t->low / 86400, t->high_factor, t->high / 86400);
        else
            fprintf(f, "    %-10s x%-6.3g %.4g s   x%-6.3g %.4g s\n", cs_unc_input_names[t->input],
                    t->low_factor, t->low, t->high_factor, t->high);
    }
}

static int cs__run(const struct cs_cli_cmd *cmd, const struct cs_cli_args *a)
{
    enum cs_cli_format fmt;
    if (!cs_cli_format(cs_cli_get(cmd, a, "format"), &fmt))
        return CS_EXIT_BADINPUT;
    if (a->npos != 1) {
        fprintf(stderr, "clustersim run: expected one scenario FILE (see 'clustersim help run')\n");
        return CS_EXIT_BADINPUT;
    }
    const char *path = cs_path_display(a->pos[0]);
    struct cs_cli_scenario sc;
    int rc = cs_cli_load_scenario(a->pos[0], cs_cli_get(cmd, a, "catalog"), a, &sc);
    if (rc != CS_EXIT_OK)
        return rc;
    const struct cs_scenario *s = &sc.scenario;

    /* Step, memory fit, data pipeline, and the run level when the scenario
     * asks for it (app/pipeline.c); a configuration that does not fit is
     * reported below with its memory breakdown. */
    long jobs = 2;
    const char *js = cs_cli_get(cmd, a, "jobs");
    if (js && !cs_num_parse_long(js, 10, 1, CS_UNC_MAX_THREADS, &jobs)) {
        fprintf(stderr, "clustersim run: --jobs: expected a whole number from 1 to %d, got \"%s\"\n",
                CS_UNC_MAX_THREADS, js);
        cs_cli_scenario_fini(&sc);
        return CS_EXIT_BADINPUT;
    }
    struct cs_app_eval_opts eo;
    cs_app_eval_opts_default(&eo);
    eo.threads = (int)jobs;
    eo.quiet_nofit = true;
    struct cs_cli_progress pg; /* the Monte Carlo's progress on a terminal (cli/progress.h) */
    cs_cli_progress_init(&pg, "run", "replicas", cs_cli_get(cmd, a, "quiet") != NULL);
    eo.progress = cs_cli_progress_cb;
    eo.progress_ctx = &pg;
    struct cs_app_result res;
    cs_status st = cs_cli_evaluate(s, path, &eo, &res); /* the line is cleared when the replicas end */
    if (st != CS_OK && st != CS_ENOFIT) {
        cs_app_result_fini(&res);
        cs_cli_scenario_fini(&sc);
        return cs_cli_exit_for(st);
    }
    bool have_step = res.has_step;
    const struct cs_step_result *r = &res.step;
    /* --uncertainty: the Monte Carlo over the model's parameters. */
    struct cs_app_uncertainty unc;
    memset(&unc, 0, sizeof unc);
    bool have_unc = false;
    if (cs_cli_get(cmd, a, "uncertainty")) {
        if (!have_step || !r->fits) {
            fprintf(stderr, "clustersim run: --uncertainty: %s\n",
                    have_step ? "the configuration does not fit: no intervals"
                              : "the scenario has no workload: no intervals");
        } else {
            struct cs_unc_spec spec;
            cs_app_unc_spec(sc.catalog, s, &spec);
            cs_diags d;
            cs_diags_init(&d);
            cs_cli_progress_stage(&pg, "run --uncertainty", "samples");
            cs_status ust = cs_app_uncertainty(s, r, &spec, s->uncertainty.samples, (int)jobs,
                                               cs_cli_progress_cb_int, &pg, &d, &unc);
            cs_cli_progress_end(&pg);
            cs_cli_print_diags_for(&d, path);
            cs_diags_fini(&d);
            if (ust != CS_OK) {
                cs_app_uncertainty_fini(&unc);
                cs_app_result_fini(&res);
                cs_cli_scenario_fini(&sc);
                return cs_cli_exit_for(ust);
            }
            have_unc = true;
        }
    }

    const char *ext = fmt == CS_FMT_JSON ? "run.json" : fmt == CS_FMT_CSV ? "run.csv" : "run.txt";
    struct cs_cli_out out;
    if (!cs_cli_out_open(&out, cs_cli_get(cmd, a, "output"), ext)) {
        cs_app_result_fini(&res);
        cs_cli_scenario_fini(&sc);
        return CS_EXIT_FAIL;
    }
    bool ok = true;
    struct cs_claim_verdict verdict =
        cs_claim_judge(&s->claim, have_step ? cs_claim_metric_value_scn(&s->claim, s, r, &res.run) : NAN, NAN);
    if (fmt == CS_FMT_JSON) {
        cJSON *root = cs_app_run_json(s, path, &res, have_unc ? &unc : NULL);
        ok = cs_out_json_write(out.fp, root);
        cJSON_Delete(root);
    } else if (fmt == CS_FMT_CSV) {
        if (have_step)
            cs_out_run_csv(out.fp, s, r, 1);
        else
            fprintf(stderr, "clustersim run: %s has no workload: nothing to write as CSV\n", path);
    } else {
        fprintf(out.fp, "clustersim %s: scenario \"%s\" (%s)\n\n", CLUSTERSIM_VERSION, s->name,
                path);
        cs_out_cluster_text(out.fp, s);
        if (have_step) {
            fputc('\n', out.fp);
            cs_out_workload_text(out.fp, &s->workload);
            fputc('\n', out.fp);
            cs_out_step_text(out.fp, s, r);
            cs_out_data_text(out.fp, &res.data);
            if (res.run.enabled) {
                fputc('\n', out.fp);
                cs_out_run_level_text(out.fp, &res.run);
            }
            if (have_unc)
                cs__unc_text(out.fp, &unc);
            cs_out_claim_text(out.fp, &s->claim, &verdict);
        } else {
            fprintf(out.fp, "\n(no workload: add a `workload:` section to simulate a step)\n");
        }
    }
    if (ferror(out.fp))
        ok = false;
    bool closed = cs_cli_out_close(&out, ok);
    bool fits = !have_step || r->fits;
    cs_app_uncertainty_fini(&unc);
    cs_app_result_fini(&res);
    cs_cli_scenario_fini(&sc);
    if (!closed)
        return CS_EXIT_FAIL;
    return fits ? CS_EXIT_OK : CS_EXIT_FAIL;
}

const struct cs_cli_cmd cs_cmd_run = {
    "run",
    "run [options] FILE",
    "simulate one training step of a scenario and report it",
    "Resolves the scenario (file, catalog, defaults), checks the parallelism and\n"
    "the memory fit, simulates one optimizer step on the discrete-event engine\n"
    "and prints the cluster, the step breakdown, throughput (tokens/s, TFLOP/s\n"
    "per GPU, MFU) and the memory per GPU. With a `data:` section the data\n"
    "pipeline's stall is added; with `run:` or `workload.tokens` the whole run is\n"
    "simulated with failures and checkpoints (Monte Carlo over `run.replicas`);\n"
    "with `claim:` clustersim's verdict is printed. --uncertainty adds confidence\n"
    "intervals (p05, p50, p95) on the step time and the time to train from the\n"
    "model's own parameters (the step model's validation error, failure rates,\n"
    "restart times; `uncertainty:` in the scenario) and a tornado of the inputs\n"
    "that move them most. Exit status 1 when the\n"
    "configuration does not fit in GPU memory (the report says so and shows the\n"
    "breakdown).",
    cs__run_opts,
    (int)(sizeof cs__run_opts / sizeof cs__run_opts[0]),
    cs__run,
};
