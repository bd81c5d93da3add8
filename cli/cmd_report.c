/* cmd_report.c: `clustersim report run FILE | compare A B... | sweep DIR`:
 * a self-contained HTML page (report/html.c) of one run, a comparison of
 * scenarios or a sweep directory: tables and inline SVG figures. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include "clustersim/config/fileio.h"
#include "clustersim/report/html.h"
#include "clustersim/report/run_report.h"
#include "clustersim/report/run_level.h"
#include "clustersim/app/pipeline.h"
#include "clustersim/app/sweep_run.h"
#include "clustersim/config/sweep.h"
#include "clustersim/report/sweep_plot.h"
#include "clustersim/base/xmalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct cs_cli_opt cs__report_opts[] = {
    {"output", 'o', "DIR", "write DIR/report.html (default: the page on stdout)"},
    CS_CLI_OPT_CATALOG,
    CS_CLI_OPT_SET,
};

/* A scenario (YAML) evaluated like `clustersim run --format json`, or a
 * JSON file written by it. NULL after printing why. */
static cJSON *cs__run_json(const char *path, const char *catalog, const struct cs_cli_args *a,
                           int *rc)
{
    /* Read once (standard input cannot be read twice), then sniff. */
    char *b = NULL;
    size_t n = 0;
    char why[256];
    if (cs_file_slurp_why(path, (size_t)64 << 20, &b, &n, why, sizeof why) != CS_OK) {
        fprintf(stderr, "clustersim report: %s: cannot read: %s\n", cs_path_display(path), why);
        *rc = CS_EXIT_BADINPUT;
        return NULL;
    }
    size_t i0 = 0;
    while (i0 < n && (b[i0] == ' ' || b[i0] == '\n' || b[i0] == '\t' || b[i0] == '\r'))
        i0++;
    if (i0 < n && b[i0] == '{') { /* run JSON */
        cJSON *o = cJSON_Parse(b);
        free(b);
        if (!cJSON_IsObject(o)) {
            fprintf(stderr, "clustersim report: %s: expected the JSON of `clustersim run "
                            "--format json` or a scenario YAML\n", cs_path_display(path));
            cJSON_Delete(o);
            *rc = CS_EXIT_BADINPUT;
            return NULL;
        }
        return o;
    }
    struct cs_cli_scenario sc;
    *rc = cs_cli_load_scenario_buffer(cs_path_display(path), b, n, catalog, a, &sc);
    free(b);
    if (*rc != CS_EXIT_OK)
        return NULL;
    const struct cs_scenario *s = &sc.scenario;
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "scenario", s->name);
    cJSON_AddStringToObject(root, "file", path);
    cJSON_AddItemToObject(root, "cluster", cs_out_cluster_json(s));
    if (s->has_workload) {
        /* As `clustersim run` evaluates it (app/pipeline.c). */
        struct cs_app_eval_opts eo;
        cs_app_eval_opts_default(&eo);
        eo.threads = 2;
        eo.quiet_nofit = true;
        struct cs_app_result res;
        cs_status st = cs_cli_evaluate(s, path, &eo, &res);
        if (st != CS_OK && st != CS_ENOFIT) {
            cs_app_result_fini(&res);
            cJSON_Delete(root);
            cs_cli_scenario_fini(&sc);
            *rc = cs_cli_exit_for(st);
            return NULL;
        }
        cJSON_AddItemToObject(root, "workload", cs_out_workload_json(&s->workload));
        cs_out_step_json(root, &res.step);
        cs_out_data_json(root, &res.data);
        cs_out_run_level_json(root, &res.run);
        cs_app_result_fini(&res);
    }
    cs_cli_scenario_fini(&sc);
    return root;
}

static double cs__jnum(const cJSON *root, const char *a, const char *b)
{
    const cJSON *o = cJSON_GetObjectItemCaseSensitive(root, a);
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, b);
    if (cJSON_IsObject(v)) /* {mean, p05, p95} */
        v = cJSON_GetObjectItemCaseSensitive(v, "mean");
    if (cJSON_IsBool(v))
        return cJSON_IsTrue(v) ? 1 : 0;
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static const char *cs__jstr(const cJSON *root, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, k);
    return cJSON_IsString(v) ? v->valuestring : "?";
}

/* Headline rows: label, JSON object, key. */
static const char *const cs__head[][3] = {
    {"step time (s)", "step", "time_s"},
    {"compute (s)", "step", "compute_s"},
    {"exposed communication (s)", "step", "exposed_comm_s"},
    {"pipeline bubble (s)", "step", "bubble_s"},
    {"data stall (s)", "step", "data_stall_s"},
    {"tokens/s", "throughput", "tokens_per_s"},
    {"TFLOP/s per GPU", "throughput", "tflops_per_gpu"},
    {"MFU", "throughput", "mfu"},
    {"memory per GPU (bytes)", "memory", "bytes_per_gpu"},
    {"fits in HBM (1 = yes)", "memory", "fits"},
    {"time to train (s, mean)", "run", "time_to_train_s"},
    {"goodput (mean)", "run", "goodput"},
    {"interruptions (mean)", "run", "interruptions"},
};
#define CS__NHEAD (sizeof cs__head / sizeof cs__head[0])

static void cs__fmt(char *buf, size_t n, double v)
{
    if (isfinite(v))
        snprintf(buf, n, "%.6g", v);
    else
        snprintf(buf, n, "n/a");
}

/* Headline table with one value column per document, then bar charts. */
static void cs__summary(FILE *f, cJSON *const *docs, size_t n)
{
    size_t ncols = n + 1;
    const char **head = cs_xcalloc(ncols, sizeof *head);
    char (*cells)[48] = cs_xcalloc(CS__NHEAD * ncols, sizeof *cells);
    const char **cp = cs_xcalloc(CS__NHEAD * ncols, sizeof *cp);
    head[0] = "figure";
    for (size_t j = 0; j < n; j++)
        head[j + 1] = cs__jstr(docs[j], "scenario");
    for (size_t i = 0; i < CS__NHEAD; i++) {
        cp[i * ncols] = cs__head[i][0];
        for (size_t j = 0; j < n; j++) {
            cs__fmt(cells[i * ncols + j + 1], sizeof cells[0],
                    cs__jnum(docs[j], cs__head[i][1], cs__head[i][2]));
            cp[i * ncols + j + 1] = cells[i * ncols + j + 1];
        }
    }
    cs_html_table(f, ncols, head, CS__NHEAD, cp);
    free(cp);
    free(cells);
    free(head);
}

static void cs__figures_run(FILE *f, const cJSON *doc)
{
    const char *labels[] = {"compute", "exposed communication", "pipeline bubble", "data stall"};
    double v[] = {cs__jnum(doc, "step", "compute_s"), cs__jnum(doc, "step", "exposed_comm_s"),
                  cs__jnum(doc, "step", "bubble_s"), cs__jnum(doc, "step", "data_stall_s")};
    cs_html_svg_bars(f, "Step time breakdown", "s", 4, labels, v);
}

static void cs__figures_compare(FILE *f, cJSON *const *docs, size_t n)
{
    const char **labels = cs_xcalloc(n, sizeof *labels);
    double *v = cs_xcalloc(n, sizeof *v);
    static const char *const what[][4] = {
        {"Throughput", "tokens/s", "throughput", "tokens_per_s"},
        {"Step time", "s", "step", "time_s"},
        {"Model FLOPs utilization", "MFU", "throughput", "mfu"},
    };
    for (size_t w = 0; w < 3; w++) {
        for (size_t j = 0; j < n; j++) {
            labels[j] = cs__jstr(docs[j], "scenario");
            v[j] = cs__jnum(docs[j], what[w][2], what[w][3]);
        }
        cs_html_svg_bars(f, what[w][0], what[w][1], n, labels, v);
    }
    free(v);
    free(labels);
}

/* The sweep page: figures rendered by gnuplot into a temporary directory
 * and inlined, then the rows. */
static int cs__sweep_page(FILE *f, const char *dir)
{
    struct cs_sweep_results r;
    cs_diags d;
    cs_diags_init(&d);
    cs_status st = cs_sweep_results_load(dir, &r, &d);
    if (st != CS_OK) {
        cs_cli_print_diags_prefixed(&d, "clustersim report");
        cs_diags_fini(&d);
        return CS_EXIT_BADINPUT; /* not a (readable) sweep directory */
    }
    char *title = cs_xasprintf("clustersim sweep: %s", dir);
    cs_html_begin(f, title);
    cs_html_heading(f, 1, title);
    free(title);
    size_t ok = 0;
    for (size_t i = 0; i < r.nrows; i++) {
        const char *s = cs_sweep_results_get(&r, i, "status");
        ok += s && !strcmp(s, "ok");
    }
    char line[256];
    snprintf(line, sizeof line, "%zu points in the results, %zu ok; %zu axes, %zu derived values.",
             r.nrows, ok, r.naxes, r.nvars - r.naxes);
    cs_html_para(f, line);
    char tmpl[] = "/tmp/clustersim-report.XXXXXX";
    char *tmp = mkdtemp(tmpl);
    bool made[CS_SWEEP_FIG_COUNT] = {false}, rendered[CS_SWEEP_FIG_COUNT] = {false};
    bool no_gp = false;
    if (!tmp)
        fprintf(stderr, "clustersim report: warning: no temporary directory: no figures\n");
    else if (cs_sweep_plot_render(&r, tmp, made, rendered, &no_gp, &d) != CS_OK)
        for (size_t i = 0; i < d.n; i++) {
            char *s = cs_cli_diag_plain(&d.items[i]);
            fprintf(stderr, "clustersim report: warning: %s: no figures\n", s);
            free(s);
        }
    cs_diags_fini(&d);
    if (no_gp) {
        fprintf(stderr, "clustersim report: warning: gnuplot not found: the page has no figures\n");
        cs_html_para(f, "gnuplot was not installed when this page was made: no figures.");
    }
    for (int g = 0; g < CS_SWEEP_FIG_COUNT; g++) {
        if (!rendered[g])
            continue;
        cs_html_heading(f, 2, cs_sweep_fig_title((enum cs_sweep_fig)g));
        char *svg = cs_xasprintf("%s/%s.svg", tmp, cs_sweep_fig_name((enum cs_sweep_fig)g));
        if (!cs_html_svg_file(f, svg))
            fprintf(stderr, "clustersim report: warning: %s: cannot inline\n", svg);
        free(svg);
    }
    if (tmp) { /* remove what the figures left */
        for (int g = 0; g < CS_SWEEP_FIG_COUNT; g++) {
            static const char *const ext[] = {"dat", "gp", "png", "svg"};
            for (int e = 0; e < 4; e++) {
                char *p = cs_xasprintf("%s/%s.%s", tmp, cs_sweep_fig_name((enum cs_sweep_fig)g),
                                       ext[e]);
                unlink(p);
                free(p);
            }
        }
        rmdir(tmp);
    }
    /* Results: point, status, reason, variables, then the main outputs. */
    static const char *const outs[] = {"gpus", "step_time_s", "tokens_per_s_per_gpu", "mfu",
                                       "run.goodput", "tco.on-prem.usd_per_utilized_gpu_hour",
                                       "tco.cloud-on-demand.usd_per_utilized_gpu_hour"};
    const char *cols[CS_SWEEP_MAX_AXES * 2 + 16];
    size_t nc = 0;
    cols[nc++] = "point";
    cols[nc++] = "status";
    cols[nc++] = "reason";
    for (size_t v = 0; v < r.nvars && nc < CS_SWEEP_MAX_AXES * 2 + 3; v++)
        cols[nc++] = r.cols[4 + v];
    for (size_t o = 0; o < sizeof outs / sizeof outs[0]; o++)
        if (cs_sweep_results_col(&r, outs[o]) != (size_t)-1)
            cols[nc++] = outs[o];
    cs_html_heading(f, 2, "Results");
    const char **cells = cs_xcalloc(r.nrows * nc + 1, sizeof *cells);
    for (size_t i = 0; i < r.nrows; i++)
        for (size_t c = 0; c < nc; c++)
            cells[i * nc + c] = cs_sweep_results_get(&r, i, cols[c]);
    cs_html_table(f, nc, cols, r.nrows, cells);
    free(cells);
    cs_html_end(f);
    cs_sweep_results_fini(&r);
    return CS_EXIT_OK;
}

static int cs__report(const struct cs_cli_cmd *cmd, const struct cs_cli_args *a)
{
    const char *kind = a->npos > 0 ? a->pos[0] : "";
    bool run = !strcmp(kind, "run"), cmp = !strcmp(kind, "compare"), sw = !strcmp(kind, "sweep");
    if (!(run || cmp || sw) || (run && a->npos != 2) || (sw && a->npos != 2) ||
        (cmp && a->npos < 3)) {
        fprintf(stderr, "clustersim report: expected `run FILE`, `compare A B...` or `sweep DIR` "
                        "(see 'clustersim help report')\n");
        return CS_EXIT_BADINPUT;
    }
    const char *catalog = cs_cli_get(cmd, a, "catalog");
    size_t n = (size_t)a->npos - 1;
    cJSON **docs = cs_xcalloc(n, sizeof *docs);
    int rc = CS_EXIT_OK;
    for (size_t i = 0; i < n && !sw && rc == CS_EXIT_OK; i++)
        docs[i] = cs__run_json(a->pos[i + 1], catalog, a, &rc);
    struct cs_cli_out out;
    if (rc == CS_EXIT_OK && !cs_cli_out_open(&out, cs_cli_get(cmd, a, "output"), "report.html"))
        rc = CS_EXIT_FAIL;
    if (rc == CS_EXIT_OK) {
        FILE *f = out.fp;
        if (sw) {
            rc = cs__sweep_page(f, a->pos[1]);
        } else {
            char *title = run ? cs_xasprintf("clustersim run: %s", cs__jstr(docs[0], "scenario"))
                              : cs_xasprintf("clustersim comparison of %zu scenarios", n);
            cs_html_begin(f, title);
            cs_html_heading(f, 1, title);
            free(title);
            cs_html_heading(f, 2, "Summary");
            cs__summary(f, docs, n);
            cs_html_heading(f, 2, "Figures");
            if (run)
                cs__figures_run(f, docs[0]);
            else
                cs__figures_compare(f, docs, n);
            for (size_t i = 0; i < n; i++) {
                char *h = cs_xasprintf("All figures: %s (%s)", cs__jstr(docs[i], "scenario"),
                                       a->pos[i + 1]);
                cs_html_heading(f, 2, h);
                free(h);
                cs_html_json_table(f, docs[i]);
            }
            cs_html_end(f);
        }
        if (!cs_cli_out_close(&out, rc == CS_EXIT_OK) && rc == CS_EXIT_OK)
            rc = CS_EXIT_FAIL;
    }
    for (size_t i = 0; i < n; i++)
        cJSON_Delete(docs[i]);
    free(docs);
    return rc;
}

const struct cs_cli_cmd cs_cmd_report = {
    "report",
    "report [-o DIR] run FILE | compare A B... | sweep DIR",
    "write a self-contained HTML page of a run, a comparison or a sweep",
    "run FILE: a scenario (simulated as by `clustersim run`) or the JSON of\n"
    "`clustersim run --format json`. compare A B...: the same for several, side by\n"
    "side. sweep DIR: a `clustersim sweep` output directory, with its figures\n"
    "(gnuplot SVG, when gnuplot is installed) and every row. Tables and SVG\n"
    "figures are inline; the page loads nothing from elsewhere.",
    cs__report_opts,
    (int)(sizeof cs__report_opts / sizeof cs__report_opts[0]),
    cs__report,
};
