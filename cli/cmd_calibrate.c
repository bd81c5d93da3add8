/* cmd_calibrate.c: `clustersim calibrate`: fits the models to measured
 * nccl-tests logs, GEMM timings, fio results and step times (calib.h),
 * writes the calibration overlay a scenario includes, prints the fit
 * quality and draws measured against fitted busbw with gnuplot (run with
 * fork + execvp, never through a shell). */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include "clustersim/report/calib_report.h"
#include "clustersim/base/sha256.h"
#include "clustersim/config/fileio.h"
#include "clustersim/config/calib_io.h"
#include "clustersim/report/gnuplot.h"
#include "clustersim/base/xmalloc.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

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
};

struct cs__cal {
    cs_catalog *cat;
    cs_diags d;
    struct cs_calib_overlay ov;
    size_t cap_fits, cap_inputs;
    bool have_base;
    struct cs_scenario base;
};

static struct cs_calib_fit *cs__new_fit(struct cs__cal *c)
{
    if (c->ov.n_fits == c->cap_fits) {
        c->cap_fits = c->cap_fits ? 2 * c->cap_fits : 16;
        c->ov.fits = cs_xrealloc(c->ov.fits, c->cap_fits, sizeof *c->ov.fits);
    }
    struct cs_calib_fit *f = &c->ov.fits[c->ov.n_fits++];
    memset(f, 0, sizeof *f);
    return f;
}

/* Records an input file with its sha256; false when it cannot be read. */
static bool cs__input(struct cs__cal *c, const char *kind, const char *path)
{
    char *buf;
    size_t len;
    char why[256];
    if (cs_file_slurp_why(path, (size_t)1 << 30, &buf, &len, why, sizeof why) != CS_OK) {
        fprintf(stderr, "%s: cannot read the file: %s\n", cs_path_display(path), why);
        return false;
    }
    if (c->ov.n_inputs == c->cap_inputs) {
        c->cap_inputs = c->cap_inputs ? 2 * c->cap_inputs : 8;
        c->ov.inputs = cs_xrealloc(c->ov.inputs, c->cap_inputs, sizeof *c->ov.inputs);
    }
    struct cs_calib_input *in = &c->ov.inputs[c->ov.n_inputs++];
    memset(in, 0, sizeof *in);
    snprintf(in->kind, sizeof in->kind, "%s", kind);
    snprintf(in->file, sizeof in->file, "%s", path);
    cs_sha256_hex(buf, len, in->sha256);
    free(buf);
    return true;
}

/* A refused fit, or one over the residual threshold, is said on stderr
 * (and recorded in the overlay by cs_calib_write_overlay): never silent. */
static void cs__report_fit(const struct cs_calib_fit *f, cs_status st)
{
    if (st != CS_OK)
        fprintf(stderr, "clustersim calibrate: warning: %s: %s\n", f->name, f->msg);
    else if (f->warning[0])
        fprintf(stderr, "clustersim calibrate: warning: %s: %s\n", f->name, f->warning);
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

static bool cs__nccl_files(struct cs__cal *c, char **files, int nf, struct cs_nccl_log *logs, bool strict)
{
    bool ok = true;
    for (int i = 0; i < nf; i++) {
        enum cs_coll_op hint = CS_COLL_OP_COUNT;
        enum cs_coll_algo algo = CS_COLL_AUTO;
        bool have_algo = false;
        struct stat st;
        /* FILE@OP@ALGO: only when FILE itself does not exist under the full name. */
        char *at = stat(files[i], &st) != 0 ? strchr(files[i], '@') : NULL;
        if (at) {
            *at = '\0';
            for (char *tok = at + 1; tok && *tok;) {
                char *next = strchr(tok, '@');
                if (next)
                    *next++ = '\0';
                if (cs_coll_op_parse(tok, &hint) != CS_OK) {
                    if (cs_coll_algo_parse(tok, &algo) == CS_OK) {
                        have_algo = true;
                    } else {
                        fprintf(stderr, "clustersim calibrate: --nccl %s@%s: expected a collective (all_reduce, ...) "
                                        "or an algorithm (ring, tree, nvls, ...), got \"%s\"\n",
                                files[i], at + 1, tok);
                        return false;
                    }
                }
                tok = next;
            }
        }
        if (!cs__input(c, "nccl", files[i]))
            return false;
        if (cs_nccl_parse_file_ex(files[i], hint, strict ? CS_NCCL_STRICT : 0, &c->d, &logs[i]) != CS_OK) {
            ok = false;
            continue;
        }
        c->ov.inputs[c->ov.n_inputs - 1].skipped_rows = logs[i].skipped_rows;
        if (have_algo)
            for (size_t r = 0; r < logs[i].n_runs; r++)
                logs[i].runs[r].algo = algo;
    }
    return ok;
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

    struct cs__cal c;
    memset(&c, 0, sizeof c);
    cs_diags_init(&c.d);
    int rc = CS_EXIT_OK;
    struct cs_nccl_log *logs = cs_xcalloc((size_t)nf + 1, sizeof *logs);
    struct cs_scenario *run_scen = NULL;
    struct cs_calib_coll_input *cin = NULL;
    size_t n_runs = 0;
    struct cs_gemm_row *grows = NULL;
    size_t ng = 0;
    struct cs_fio_job *jobs = NULL;
    size_t nj = 0;
    struct cs_steps_row *srows = NULL;
    size_t ns = 0;
    struct cs_scenario *sscen = NULL;
    struct cs_calib_step_case *scases = NULL;
    size_t ns_loaded = 0;
    struct cs_calib_cfg *cal = &c.ov.cal;
    cal->intra_efficiency = cal->net_efficiency = cal->nvls_efficiency = cal->launch_floor_s = NAN;
    cal->gemm_eff_max = cal->gemm_dim_half = cal->compute_scale = cal->overlap_slowdown = NAN;

    const char *cdir = cs_cli_get(cmd, a, "catalog");
    if (!cdir)
        cdir = cs_catalog_default_dir();
    if (cs_catalog_load_dir(cdir, &c.d, &c.cat) != CS_OK) {
        cs_cli_print_diags(&c.d);
        fprintf(stderr, "clustersim: cannot load the hardware catalog from %s\n", cdir);
        rc = CS_EXIT_FAIL;
        goto done;
    }
    if (base_path) {
        if (!cs__input(&c, "base", base_path) ||
            cs_cfg_load_scenario(base_path, c.cat, &c.d, &c.base, NULL) != CS_OK) {
            cs_cli_print_diags_for(&c.d, base_path);
            rc = CS_EXIT_BADINPUT;
            goto done;
        }
        c.have_base = true;
    }

    /* 1. nccl-tests: one curve per run, then the closed form's parameters. */
    if (!cs__nccl_files(&c, files, nf, logs, cs_cli_get(cmd, a, "strict") != NULL)) {
        cs_cli_print_diags(&c.d);
        if (cs_cli_get(cmd, a, "strict"))
            fprintf(stderr, "clustersim calibrate: --strict: a malformed nccl-tests row is an error\n");
        rc = CS_EXIT_BADINPUT;
        goto done;
    }
    /* The warnings (malformed rows skipped) now, once. */
    cs_cli_print_diags(&c.d);
    cs_diags_fini(&c.d);
    cs_diags_init(&c.d);
    for (int i = 0; i < nf; i++)
        n_runs += logs[i].n_runs;
    run_scen = cs_xcalloc(n_runs + 1, sizeof *run_scen);
    cin = cs_xcalloc(n_runs + 1, sizeof *cin);
    {
        size_t k = 0;
        for (int i = 0; i < nf; i++) {
            for (size_t r = 0; r < logs[i].n_runs; r++) {
                const struct cs_nccl_run *run = &logs[i].runs[r];
                struct cs_calib_fit *f = cs__new_fit(&c);
                struct cs_calib_curve cv;
                cs_status st = cs_calib_fit_curve(run, &cv, f);
                cs__report_fit(f, st);
                if (st == CS_OK) {
                    /* A later run of the same (op, ranks, nodes, algo) replaces an earlier one. */
                    int slot = cal->n_curves;
                    for (int q = 0; q < cal->n_curves; q++)
                        if (cal->curves[q].op == cv.op && cal->curves[q].ranks == cv.ranks &&
                            cal->curves[q].nodes == cv.nodes && cal->curves[q].algo == cv.algo)
                            slot = q;
                    if (slot < cal->n_curves)
                        fprintf(stderr, "clustersim calibrate: warning: %s:%d: a later run of %s replaces the "
                                        "earlier curve (one curve per op, ranks, nodes and algorithm)\n",
                                run->file, run->line, f->name);
                    if (slot >= CS_CALIB_MAX_CURVES)
                        fprintf(stderr, "clustersim calibrate: warning: more than %d curves; %s:%d ignored\n",
                                CS_CALIB_MAX_CURVES, run->file, run->line);
                    else {
                        cal->curves[slot] = cv;
                        if (slot == cal->n_curves)
                            cal->n_curves++;
                    }
                    cal->enabled = true;
                }
                if (cs_nccl_run_scenario(run, base_path, c.cat, &c.d, &run_scen[k]) != CS_OK) {
                    cs_cli_print_diags(&c.d);
                    rc = CS_EXIT_BADINPUT;
                    goto done;
                }
                cin[k].run = run;
                cin[k].cluster = &run_scen[k].cluster;
                k++;
            }
        }
        if (n_runs > 0) {
            struct cs_coll_params p;
            cs_coll_params_default(&p);
            struct cs_calib_fit *f = cs__new_fit(&c);
            cs__report_fit(f, cs_calib_fit_collective(cin, n_runs, &p, cal, f));
        }
    }

    /* 2. GEMM. */
    if (gemm) {
        const struct cs_gpu_spec *gpu = c.have_base ? &c.base.cluster.gpu : n_runs ? &run_scen[0].cluster.gpu : NULL;
        if (!gpu) {
            fprintf(stderr, "clustersim calibrate: --gemm needs the GPU: give --scenario (or an nccl-tests log)\n");
            rc = CS_EXIT_BADINPUT;
            goto done;
        }
        if (!cs__input(&c, "gemm", gemm) || cs_gemm_csv_load(gemm, &c.d, &grows, &ng) != CS_OK) {
            cs_cli_print_diags(&c.d);
            rc = CS_EXIT_BADINPUT;
            goto done;
        }
        struct cs_compute_params cp;
        cs_compute_params_default(gpu, &cp);
        struct cs_calib_fit *f = cs__new_fit(&c);
        cs__report_fit(f, cs_calib_fit_gemm(grows, ng, gpu, &cp, cal, f));
    }

    /* 3. Storage. */
    if (fio) {
        if (!cs__input(&c, "fio", fio) || cs_fio_json_load(fio, &c.d, &jobs, &nj) != CS_OK) {
            cs_cli_print_diags(&c.d);
            rc = CS_EXIT_BADINPUT;
            goto done;
        }
        const char *tier = cs_cli_get(cmd, a, "fio-tier");
        if (!tier)
            tier = c.have_base && c.base.cluster.storage.n_tiers > 0 ? c.base.cluster.storage.tiers[0].name : "nvme";
        snprintf(c.ov.storage.tier, sizeof c.ov.storage.tier, "%s", tier);
        struct cs_calib_fit *f = cs__new_fit(&c);
        cs_status st = cs_calib_fit_storage(jobs, nj, &c.ov.storage, f);
        cs__report_fit(f, st);
        c.ov.has_storage = st == CS_OK;
    }

    /* 4. Step times, on top of what was fitted above. */
    if (steps) {
        if (!cs__input(&c, "steps", steps) || cs_steps_csv_load(steps, &c.d, &srows, &ns) != CS_OK) {
            cs_cli_print_diags(&c.d);
            rc = CS_EXIT_BADINPUT;
            goto done;
        }
        sscen = cs_xcalloc(ns, sizeof *sscen);
        scases = cs_xcalloc(ns, sizeof *scases);
        for (size_t i = 0; i < ns; i++) {
            if (cs_steps_row_scenario(&srows[i], steps, base_path, c.cat, &c.d, &sscen[i]) != CS_OK) {
                cs_cli_print_diags(&c.d);
                rc = CS_EXIT_BADINPUT;
                goto done;
            }
            ns_loaded++;
            if (!sscen[i].has_workload) {
                fprintf(stderr, "%s:%d: the scenario of this step has no workload: nothing to simulate\n", steps,
                        srows[i].line);
                rc = CS_EXIT_BADINPUT;
                goto done;
            }
            struct cs_calib_cfg tmp = *cal;
            tmp.compute_scale = tmp.overlap_slowdown = NAN;
            tmp.enabled = true;
            sscen[i].calibration = tmp;
            struct cs_calib_step_case *sc = &scases[i];
            snprintf(sc->label, sizeof sc->label, "%.63s", srows[i].label);
            sc->cluster = &sscen[i].cluster;
            sc->workload = &sscen[i].workload;
            cs_step_options_from_scenario(&sscen[i], &sc->opts);
            sc->measured = srows[i].measured_s;
        }
        struct cs_calib_fit *f = cs__new_fit(&c);
        cs__report_fit(f, cs_calib_fit_steps(scases, ns, cal, f));
    }

    /* The overlay, the report and the figure. */
    {
        time_t now = time(NULL);
        const char *sde = getenv("SOURCE_DATE_EPOCH"); /* reproducible builds convention */
        if (sde && *sde)
            now = (time_t)strtoll(sde, NULL, 10);
        struct tm *tm = gmtime(&now);
        if (!tm || !strftime(c.ov.date, sizeof c.ov.date, "%Y-%m-%dT%H:%M:%SZ", tm))
            snprintf(c.ov.date, sizeof c.ov.date, "unknown");
        char *dir, *bname, *stem;
        cs__split(out_path, &dir, &bname, &stem);
        struct cs_cli_out o;
        bool ok = cs_cli_out_open(&o, dir, bname);
        if (ok) {
            ok = cs_calib_write_overlay(o.fp, &c.ov);
            ok = cs_cli_out_close(&o, ok) && ok;
        }
        cs_calib_write_report(stdout, &c.ov, cs_cli_get(cmd, a, "points") != NULL);
        if (ok && !cs_cli_get(cmd, a, "no-plot") && cal->n_curves > 0) {
            char *dat = cs_xasprintf("%s_busbw.dat", stem), *gp = cs_xasprintf("%s_busbw.gp", stem);
            char *png = cs_xasprintf("%s_busbw.png", stem);
            struct cs_cli_out od, og;
            bool pok = cs_cli_out_open(&od, dir, dat);
            if (pok) {
                bool w = cs_calib_write_plot_data(od.fp, &c.ov);
                pok = cs_cli_out_close(&od, w) && w;
            }
            if (pok && cs_cli_out_open(&og, dir, gp)) {
                bool w = cs_calib_write_plot_script(og.fp, &c.ov, dat, png);
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
    cs_diags_fini(&c.d);
    for (int i = 0; i < nf; i++) {
        cs_nccl_log_fini(&logs[i]);
        free(files[i]);
    }
    free(logs);
    if (run_scen)
        for (size_t i = 0; i < n_runs; i++)
            cs_scenario_fini(&run_scen[i]);
    free(run_scen);
    free(cin);
    free(grows);
    free(jobs);
    for (size_t i = 0; i < ns_loaded; i++)
        cs_scenario_fini(&sscen[i]);
    free(sscen);
    free(scases);
    cs_steps_rows_free(srows, ns);
    if (c.have_base)
        cs_scenario_fini(&c.base);
    cs_calib_overlay_fini(&c.ov);
    cs_catalog_destroy(c.cat);
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
