/* cmd_run.c: `clustersim run FILE`: resolve the scenario, simulate one
 * training step and report it (text, JSON or CSV). */
#include "cli.h"

#include "clustersim/app/pipeline.h"
#include "clustersim/config/catalog.h"
#include "clustersim/config/config.h"
#include "clustersim/config/fileio.h"
#include "clustersim/report/run_report.h"
#include "clustersim/report/run_level.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct cs_cli_opt cs__run_opts[] = {
    {"format", 'f', "FMT", "output format: text (default), json or csv"},
    {"output", 'o', "DIR", "write run.txt / run.json / run.csv into DIR instead of stdout"},
    CS_CLI_OPT_CATALOG,
    CS_CLI_OPT_SET,
};

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
    struct cs_app_eval_opts eo;
    cs_app_eval_opts_default(&eo);
    eo.threads = 2;
    eo.quiet_nofit = true;
    struct cs_app_result res;
    cs_status st = cs_cli_evaluate(s, path, &eo, &res);
    if (st != CS_OK && st != CS_ENOFIT) {
        cs_app_result_fini(&res);
        cs_cli_scenario_fini(&sc);
        return cs_cli_exit_for(st);
    }
    bool have_step = res.has_step;
    const struct cs_step_result *r = &res.step;

    const char *ext = fmt == CS_FMT_JSON ? "run.json" : fmt == CS_FMT_CSV ? "run.csv" : "run.txt";
    struct cs_cli_out out;
    if (!cs_cli_out_open(&out, cs_cli_get(cmd, a, "output"), ext)) {
        cs_app_result_fini(&res);
        cs_cli_scenario_fini(&sc);
        return CS_EXIT_FAIL;
    }
    bool ok = true;
    struct cs_claim_verdict verdict =
        cs_claim_judge(&s->claim, have_step ? cs_claim_metric_value(&s->claim, r) : NAN, NAN);
    if (fmt == CS_FMT_JSON) {
        cJSON *root = cJSON_CreateObject();
        cJSON_AddStringToObject(root, "clustersim_version", CLUSTERSIM_VERSION);
        cJSON_AddStringToObject(root, "scenario", s->name);
        cJSON_AddStringToObject(root, "file", path);
        cJSON_AddItemToObject(root, "cluster", cs_out_cluster_json(s));
        if (have_step) {
            cJSON_AddItemToObject(root, "workload", cs_out_workload_json(&s->workload));
            cs_out_step_json(root, r);
            cs_out_data_json(root, &res.data);
            cs_out_run_level_json(root, &res.run);
        }
        cs_out_claim_json(root, &s->claim, &verdict);
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
            cs_out_claim_text(out.fp, &s->claim, &verdict);
        } else {
            fprintf(out.fp, "\n(no workload: add a `workload:` section to simulate a step)\n");
        }
    }
    if (ferror(out.fp))
        ok = false;
    bool closed = cs_cli_out_close(&out, ok);
    bool fits = !have_step || r->fits;
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
    "with `claim:` clustersim's verdict is printed. Exit status 1 when the\n"
    "configuration does not fit in GPU memory (the report says so and shows the\n"
    "breakdown).",
    cs__run_opts,
    (int)(sizeof cs__run_opts / sizeof cs__run_opts[0]),
    cs__run,
};
