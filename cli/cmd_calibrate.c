/* cmd_calibrate.c: `clustersim calibrate`: parses the inputs' arguments,
 * runs the calibration (app/calibrate.c fits the models to measured
 * nccl-tests logs, GEMM timings, fio results and step times), writes the
 * calibration overlay a scenario includes, prints the fit quality and
 * draws measured against fitted busbw with gnuplot (run with fork +
 * execvp, never through a shell). */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "progress.h"

#include "clustersim/app/calibrate.h"
#include "clustersim/base/xmalloc.h"
#include "clustersim/report/calib_report.h"
#include "clustersim/report/gnuplot.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>

static const struct cs_cli_opt cs__cal_opts[] = {
    {"nccl", 0, "FILES", "nccl-tests logs, comma-separated (also positional); FILE@OP and FILE@ALGO name the "
                         "collective or algorithm when the log does not"},
    {"gemm", 0, "FILE", "GEMM CSV: m,n,k,dtype,seconds|tflops (bench/cuda/gemm_bench prints it)"},
    {"fio", 0, "FILE", "fio --output-format=json output"},
    {"fio-tier", 0, "NAME", "storage tier the fio run measured (default: the base scenario's first tier)"},
    {"steps", 0, "FILE", "measured step times CSV: scenario,step_time_s,<key.path>..."},
    {"scenario", 0, "FILE", "base scenario: the cluster the measurements ran on"},
    {"output", 'o', "FILE", "overlay YAML to write (required); plot files go next to it"},
    CS_CLI_OPT_CATALOG,
    {"strict", 0, NULL, "a malformed nccl-tests row is an error (exit 2), not a warning and a skip"},
    {"points", 0, NULL, "print every point's residual, not only the summary"},
    {"no-plot", 0, NULL, "do not write or render the busbw figure"},
    {"quiet", 'q', NULL, "no progress line on standard error, even on a terminal"},
};

/* Prints the calibration's diagnostics: those without a file (the fits'
 * warnings) are the command's own. */
static void cs__print_diags(const cs_diags *d)
{
    for (size_t i = 0; i < d->n; i++) {
        char *s = cs_diag_format(&d->items[i]);
        fprintf(stderr, "%s%s\n", d->items[i].file ? "" : "clustersim calibrate: ", s);
        free(s);
    }
    if (d->truncated)
        fprintf(stderr, "clustersim: too many errors (%zu in all); only the first %zu are shown\n",
                d->n_errors, d->n);
}

/* Splits "dir/name.yaml" into dir ("." when none) and the stem "name". */
static void cs__split(const char *out, char **dir, char **base, char **stem)
{
    const char *sl = strrchr(out, '/');
    *dir = sl ? cs_xasprintf("%.*s", (int)(sl - out), out) : cs_xstrdup(".");
    if (sl && sl == out) {
        free(*dir);
        *dir = cs_xstrdup("/");
    }
    *base = cs_xstrdup(sl ? sl + 1 : out);
    size_t l = strlen(*base);
    if (l > 5 && strcmp(*base + l - 5, ".yaml") == 0)
        *stem = cs_xasprintf("%.*s", (int)(l - 5), *base);
    else if (l > 4 && strcmp(*base + l - 4, ".yml") == 0)
        *stem = cs_xasprintf("%.*s", (int)(l - 4), *base);
    else
        *stem = cs_xstrdup(*base);
}

/* FILE@OP@ALGO: the hints, only when FILE itself does not exist under the
 * full name. Cuts `file` at the first '@'; false for an unknown hint. */
static bool cs__nccl_arg(char *file, struct cs_app_calib_nccl *in)
{
    in->path = file;
    in->op = CS_COLL_OP_COUNT;
    in->algo = CS_COLL_AUTO;
    in->have_algo = false;
    struct stat st;
    char *at = stat(file, &st) != 0 ? strchr(file, '@') : NULL;
    if (!at)
        return true;
    *at = '\0';
    for (char *tok = at + 1; tok && *tok;) {
        char *next = strchr(tok, '@');
        if (next)
            *next++ = '\0';
        if (cs_coll_op_parse(tok, &in->op) != CS_OK) {
            if (cs_coll_algo_parse(tok, &in->algo) == CS_OK) {
                in->have_algo = true;
            } else {
                fprintf(stderr, "clustersim calibrate: --nccl %s@%s: expected a collective (all_reduce, ...) "
                                "or an algorithm (ring, tree, nvls, ...), got \"%s\"\n",
                        file, at + 1, tok);
                return false;
            }
        }
        tok = next;
    }
    return true;
}

static int cs__calibrate(const struct cs_cli_cmd *cmd, const struct cs_cli_args *a)
{
    const char *out_path = cs_cli_get(cmd, a, "output");
    if (out_path && strcmp(out_path, "-") == 0) {
        fprintf(stderr, "clustersim calibrate: -o -: the overlay is a file that scenarios include: "
                        "and its figure goes next to it; name a file\n");
        return CS_EXIT_BADINPUT;
    }
    if (!out_path) {
        fprintf(stderr, "clustersim calibrate: -o OUT.yaml is required (see 'clustersim help calibrate')\n");
        return CS_EXIT_BADINPUT;
    }
    const char *nccl_arg = cs_cli_get(cmd, a, "nccl"), *gemm = cs_cli_get(cmd, a, "gemm");
    const char *fio = cs_cli_get(cmd, a, "fio"), *steps = cs_cli_get(cmd, a, "steps");
    const char *base_path = cs_cli_get(cmd, a, "scenario");
    /* The nccl files: --nccl's list and the positional arguments. */
    char *list = nccl_arg ? cs_xstrdup(nccl_arg) : NULL;
    char *files[CS_CLI_MAX_POS + 64];
    int nf = 0;
    for (char *tok = list; tok && *tok && nf < 64;) {
        char *comma = strchr(tok, ',');
        if (comma)
            *comma++ = '\0';
        if (*tok)
            files[nf++] = cs_xstrdup(tok);
        tok = comma;
    }
    for (int i = 0; i < a->npos; i++)
        files[nf++] = cs_xstrdup(a->pos[i]);
    free(list);
    if (nf == 0 && !gemm && !fio && !steps) {
        fprintf(stderr, "clustersim calibrate: nothing to calibrate: give --nccl, --gemm, --fio or --steps\n");
        return CS_EXIT_BADINPUT;
    }

    struct cs_app_calib_nccl *logs = cs_xcalloc((size_t)nf + 1, sizeof *logs);
    struct cs_app_calib res;
    memset(&res, 0, sizeof res);
    cs_diags d;
    cs_diags_init(&d);
    cs_catalog *cat = NULL;
    int rc = CS_EXIT_OK;
    const char *cdir = cs_cli_get(cmd, a, "catalog");
    if (!cdir)
        cdir = cs_catalog_default_dir();
    if (cs_catalog_load_dir(cdir, &d, &cat) != CS_OK) {
        cs_cli_print_diags(&d);
        fprintf(stderr, "clustersim: cannot load the hardware catalog from %s\n", cdir);
        rc = CS_EXIT_FAIL;
        goto done;
    }
    for (int i = 0; i < nf; i++) {
        if (!cs__nccl_arg(files[i], &logs[i])) {
            rc = CS_EXIT_BADINPUT;
            goto done;
        }
    }

    /* The date the overlay records: now, or SOURCE_DATE_EPOCH (the
     * reproducible-builds convention). */
    char date[32];
    {
        time_t now = time(NULL);
        const char *sde = getenv("SOURCE_DATE_EPOCH");
        if (sde && *sde)
            now = (time_t)strtoll(sde, NULL, 10);
        struct tm *tm = gmtime(&now);
        if (!tm || !strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", tm))
            snprintf(date, sizeof date, "unknown");
    }
    struct cs_app_calib_opts co = {
        .nccl = logs,
        .n_nccl = (size_t)nf,
        .gemm = gemm,
        .fio = fio,
        .fio_tier = cs_cli_get(cmd, a, "fio-tier"),
        .steps = steps,
        .base = base_path,
        .strict = cs_cli_get(cmd, a, "strict") != NULL,
        .date = date,
    };
    struct cs_cli_progress pg; /* cli/progress.h: one stage after another */
    cs_cli_progress_init(&pg, "calibrate", "", cs_cli_get(cmd, a, "quiet") != NULL);
    co.progress = cs_cli_progress_stage_cb;
    co.progress_ctx = &pg;
    cs_status st = cs_app_calibrate(cat, &co, &d, &res);
    cs_cli_progress_end(&pg);
    cs__print_diags(&d);
    if (st != CS_OK) {
        if (res.failed == CS_APP_CALIB_NCCL && co.strict)
            fprintf(stderr, "clustersim calibrate: --strict: a malformed nccl-tests row is an error\n");
        rc = CS_EXIT_BADINPUT;
        goto done;
    }
    const struct cs_calib_cfg *cal = &res.ov.cal;

    /* The overlay, the report and the figure. */
    {
        char *dir, *bname, *stem;
        cs__split(out_path, &dir, &bname, &stem);
        struct cs_cli_out o;
        bool ok = cs_cli_out_open(&o, dir, bname);
        if (ok) {
            ok = cs_calib_write_overlay(o.fp, &res.ov);
            ok = cs_cli_out_close(&o, ok) && ok;
        }
        cs_calib_write_report(stdout, &res.ov, cs_cli_get(cmd, a, "points") != NULL);
        if (ok && !cs_cli_get(cmd, a, "no-plot") && cal->n_curves > 0) {
            char *dat = cs_xasprintf("%s_busbw.dat", stem), *gp = cs_xasprintf("%s_busbw.gp", stem);
            char *png = cs_xasprintf("%s_busbw.png", stem);
            struct cs_cli_out od, og;
            bool pok = cs_cli_out_open(&od, dir, dat);
            if (pok) {
                bool w = cs_calib_write_plot_data(od.fp, &res.ov);
                pok = cs_cli_out_close(&od, w) && w;
            }
            if (pok && cs_cli_out_open(&og, dir, gp)) {
                bool w = cs_calib_write_plot_script(og.fp, &res.ov, dat, png);
                pok = cs_cli_out_close(&og, w) && w;
            } else {
                pok = false;
            }
            if (pok) {
                int g = cs_gnuplot_run(dir, gp);
                if (g == 127)
                    fprintf(stderr, "clustersim calibrate: warning: gnuplot not found: wrote %s/%s and its data "
                                    "but no PNG\n", dir, gp);
                else if (g != 0)
                    fprintf(stderr, "clustersim calibrate: warning: gnuplot %s exited with %d\n", gp, g);
                else
                    printf("\nfigure: %s/%s (measured vs fitted busbw)\n", dir, png);
            }
            free(dat), free(gp), free(png);
        }
        if (ok)
            printf("overlay: %s (include it from a scenario: `include: %s`)\n", out_path, bname);
        else
            rc = CS_EXIT_FAIL;
        free(dir), free(bname), free(stem);
    }

done:
    cs_diags_fini(&d);
    cs_app_calib_fini(&res);
    cs_catalog_destroy(cat);
    for (int i = 0; i < nf; i++)
        free(files[i]);
    free(logs);
    return rc;
}

const struct cs_cli_cmd cs_cmd_calibrate = {
    "calibrate",
    "calibrate [options] -o OUT.yaml [NCCL_LOG...]",
    "fit the models to measured nccl-tests, GEMM, fio and step times; write a calibration overlay",
    "Fits, with GSL's nonlinear least squares (docs/calibration.md):\n"
    "  --nccl   one nccl-tests time curve per run (op, ranks, nodes; latency and bus\n"
    "           bandwidth per protocol regime, launch floor) and the closed-form\n"
    "           model's intra-node, network and NVLS efficiencies and launch floor;\n"
    "  --gemm   gemm_eff_max and gemm_dim_half of the compute model;\n"
    "  --fio    the read/write bandwidth and latency of one storage tier;\n"
    "  --steps  a compute scale and the overlap slowdown of the step model.\n"
    "Writes OUT.yaml (a `calibration:` section recording the inputs' sha256 and the\n"
    "date; SOURCE_DATE_EPOCH overrides the date), OUT_busbw.dat/.gp/.png next to it,\n"
    "and prints each fit's parameters and residuals (MAPE, max, RMS). A fit with fewer\n"
    "points than parameters + 1 is refused with a warning; a fit whose relative RMS\n"
    "residual exceeds 15% is kept but warned about, on stderr and in OUT.yaml.\n"
    "nccl-tests logs: nccl-tests 2.13+ and rccl-tests text (device lines, -S, -C, -I,\n"
    "-c 0, -N cycles averaged, -d/-o all split per type, mpirun/srun prefixes and other\n"
    "programs' lines ignored) or nccl-tests -J JSON; any input may be .gz. A malformed\n"
    "row is skipped with a FILE:LINE warning and counted in the report; --strict makes\n"
    "it an error (exit 2).",
    cs__cal_opts,
    (int)(sizeof cs__cal_opts / sizeof cs__cal_opts[0]),
    cs__calibrate,
};
