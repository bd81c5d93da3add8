/* calibrate.c: the calibration run of `clustersim calibrate`: inputs read
 * and hashed, scenarios built, fits in order, overlay assembled (contract
 * in clustersim/app/calibrate.h; the fits are models/calibrate.c's). */
#include "clustersim/app/calibrate.h"

#include "clustersim/base/sha256.h"
#include "clustersim/base/xmalloc.h"
#include "clustersim/config/calib_io.h"
#include "clustersim/config/config.h"
#include "clustersim/config/fileio.h"
#include "clustersim/models/compute.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct cal {
    struct cs_app_calib *r;
    cs_diags *d;
    size_t cap_fits, cap_inputs;
};

void cs_app_calib_fini(struct cs_app_calib *r)
{
    if (!r)
        return;
    cs_calib_overlay_fini(&r->ov);
    memset(r, 0, sizeof *r);
}

static struct cs_calib_fit *new_fit(struct cal *c)
{
    struct cs_calib_overlay *ov = &c->r->ov;
    if (ov->n_fits == c->cap_fits) {
        c->cap_fits = c->cap_fits ? 2 * c->cap_fits : 16;
        ov->fits = cs_xrealloc(ov->fits, c->cap_fits, sizeof *ov->fits);
    }
    struct cs_calib_fit *f = &ov->fits[ov->n_fits++];
    memset(f, 0, sizeof *f);
    return f;
}

/* Records an input file with the sha256 of its contents (gzip as stored:
 * the bytes the user can hash themselves); CS_EIO with an error naming the
 * file when it cannot be read. */
static cs_status add_input(struct cal *c, const char *kind, const char *path)
{
    char *buf;
    size_t len;
    char why[256];
    /* 64 MiB: the most any calibration reader accepts (nccl-tests logs,
     * config/nccl.c; the CSV, fio and YAML readers stop at 16 MiB), so an
     * input is never read whole past the limit of the parser that follows
     * (it once read up to 1 GiB here first). */
    if (cs_file_slurp_why(path, (size_t)64 << 20, &buf, &len, why, sizeof why) != CS_OK) {
        cs_diag_error(c->d, cs_path_display(path), 0, 0, "cannot read the file: %s", why);
        return CS_EIO;
    }
    struct cs_calib_overlay *ov = &c->r->ov;
    if (ov->n_inputs == c->cap_inputs) {
        c->cap_inputs = c->cap_inputs ? 2 * c->cap_inputs : 8;
        ov->inputs = cs_xrealloc(ov->inputs, c->cap_inputs, sizeof *ov->inputs);
    }
    struct cs_calib_input *in = &ov->inputs[ov->n_inputs++];
    memset(in, 0, sizeof *in);
    snprintf(in->kind, sizeof in->kind, "%s", kind);
    snprintf(in->file, sizeof in->file, "%s", path);
    cs_sha256_hex(buf, len, in->sha256);
    free(buf);
    return CS_OK;
}

/* A refused fit, or one over the residual threshold, is a warning (and is
 * recorded in the overlay by cs_calib_write_overlay): never silent. */
static void fit_said(struct cal *c, const struct cs_calib_fit *f, cs_status st)
{
    if (st != CS_OK)
        cs_diag_add(c->d, CS_SEV_WARNING, NULL, 0, 0, "%s: %s", f->name, f->msg);
    else if (f->warning[0])
        cs_diag_add(c->d, CS_SEV_WARNING, NULL, 0, 0, "%s: %s", f->name, f->warning);
}

/* Appends a copy of every item of from to d; `file` names the items that
 * have none (NULL: left without). */
static void copy_diags(cs_diags *d, const cs_diags *from, const char *file)
{
    for (size_t i = 0; i < from->n; i++) {
        const struct cs_diag *g = &from->items[i];
        cs_diag_add(d, g->sev, g->file ? g->file : file, g->line, g->col, "%s", g->msg);
    }
}

/* Keeps a curve; a later run of the same (op, ranks, nodes, algo) replaces
 * an earlier one. */
static void keep_curve(struct cal *c, const struct cs_nccl_run *run, const struct cs_calib_fit *f,
                       const struct cs_calib_curve *cv)
{
    struct cs_calib_cfg *cal = &c->r->ov.cal;
    int slot = cal->n_curves;
    for (int q = 0; q < cal->n_curves; q++)
        if (cal->curves[q].op == cv->op && cal->curves[q].ranks == cv->ranks &&
            cal->curves[q].nodes == cv->nodes && cal->curves[q].algo == cv->algo)
            slot = q;
    if (slot < cal->n_curves)
        cs_diag_add(c->d, CS_SEV_WARNING, NULL, 0, 0,
                    "%s:%d: a later run of %s replaces the earlier curve (one curve per op, ranks, "
                    "nodes and algorithm)",
                    run->file, run->line, f->name);
    if (slot >= CS_CALIB_MAX_CURVES) {
        cs_diag_add(c->d, CS_SEV_WARNING, NULL, 0, 0, "more than %d curves; %s:%d ignored",
                    CS_CALIB_MAX_CURVES, run->file, run->line);
    } else {
        cal->curves[slot] = *cv;
        if (slot == cal->n_curves)
            cal->n_curves++;
    }
    cal->enabled = true;
}

/* Reads and parses every log (all of them, so that every malformed one is
 * reported), unless one cannot be read. */
static cs_status read_logs(struct cal *c, const struct cs_app_calib_opts *o, struct cs_nccl_log *logs)
{
    cs_status first = CS_OK;
    for (size_t i = 0; i < o->n_nccl; i++) {
        const struct cs_app_calib_nccl *in = &o->nccl[i];
        cs_status st = add_input(c, "nccl", in->path);
        if (st != CS_OK)
            return st;
        st = cs_nccl_parse_file_ex(in->path, in->op, o->strict ? CS_NCCL_STRICT : 0, c->d, &logs[i]);
        if (st != CS_OK) {
            if (first == CS_OK)
                first = st;
            continue;
        }
        c->r->ov.inputs[c->r->ov.n_inputs - 1].skipped_rows = logs[i].skipped_rows;
        if (in->have_algo)
            for (size_t r = 0; r < logs[i].n_runs; r++)
                logs[i].runs[r].algo = in->algo;
    }
    return first;
}

/* What the function allocates on the way; freed by free_work. */
struct work {
    struct cs_nccl_log *logs;
    size_t n_runs, n_run_scen;
    struct cs_scenario *run_scen;
    struct cs_calib_coll_input *cin;
    struct cs_gemm_row *grows;
    struct cs_fio_job *jobs;
    struct cs_steps_row *srows;
    size_t ns, ns_loaded;
    struct cs_scenario *sscen;
    struct cs_calib_step_case *scases;
    bool have_base;
    struct cs_scenario base;
    cs_diags late;                /* diagnostics of the steps after the logs */
};

static void free_work(struct work *w, size_t n_nccl)
{
    for (size_t i = 0; i < n_nccl; i++)
        cs_nccl_log_fini(&w->logs[i]);
    free(w->logs);
    for (size_t i = 0; i < w->n_run_scen; i++)
        cs_scenario_fini(&w->run_scen[i]);
    free(w->run_scen);
    free(w->cin);
    free(w->grows);
    free(w->jobs);
    for (size_t i = 0; i < w->ns_loaded; i++)
        cs_scenario_fini(&w->sscen[i]);
    free(w->sscen);
    free(w->scases);
    cs_steps_rows_free(w->srows, w->ns);
    if (w->have_base)
        cs_scenario_fini(&w->base);
    cs_diags_fini(&w->late);
}

/* Step 1 after the logs: a curve per run, the cluster each run measured,
 * then the closed form's parameters over every run. */
static cs_status fit_nccl(struct cal *c, const struct cs_app_calib_opts *o, const cs_catalog *cat,
                          struct work *w)
{
    struct cs_calib_cfg *cal = &c->r->ov.cal;
    for (size_t i = 0; i < o->n_nccl; i++)
        w->n_runs += w->logs[i].n_runs;
    w->run_scen = cs_xcalloc(w->n_runs + 1, sizeof *w->run_scen);
    w->cin = cs_xcalloc(w->n_runs + 1, sizeof *w->cin);
    size_t k = 0;
    for (size_t i = 0; i < o->n_nccl; i++) {
        for (size_t r = 0; r < w->logs[i].n_runs; r++) {
            if (o->progress)
                o->progress(o->progress_ctx, "nccl-tests runs", k, w->n_runs);
            const struct cs_nccl_run *run = &w->logs[i].runs[r];
            struct cs_calib_fit *f = new_fit(c);
            struct cs_calib_curve cv;
            cs_status st = cs_calib_fit_curve(run, &cv, f);
            fit_said(c, f, st);
            if (st == CS_OK)
                keep_curve(c, run, f, &cv);
            st = cs_nccl_run_scenario(run, o->base, cat, &w->late, &w->run_scen[k]);
            if (st != CS_OK) {
                copy_diags(c->d, &w->late, NULL);
                c->r->failed = CS_APP_CALIB_RUNS;
                return st;
            }
            w->n_run_scen = ++k;
            w->cin[k - 1].run = run;
            w->cin[k - 1].cluster = &w->run_scen[k - 1].cluster;
        }
    }
    if (w->n_runs > 0) {
        struct cs_coll_params p;
        cs_coll_params_default(&p);
        struct cs_calib_fit *f = new_fit(c);
        fit_said(c, f, cs_calib_fit_collective(w->cin, w->n_runs, &p, cal, f));
    }
    return CS_OK;
}

static cs_status fit_gemm(struct cal *c, const struct cs_app_calib_opts *o, struct work *w)
{
    const struct cs_gpu_spec *gpu = w->have_base ? &w->base.cluster.gpu
                                    : w->n_runs  ? &w->run_scen[0].cluster.gpu
                                                 : NULL;
    c->r->failed = CS_APP_CALIB_GEMM;
    if (!gpu) {
        cs_diag_error(c->d, NULL, 0, 0,
                      "--gemm needs the GPU: give --scenario (or an nccl-tests log)");
        return CS_EINVAL;
    }
    size_t ng = 0;
    cs_status st = add_input(c, "gemm", o->gemm);
    if (st == CS_OK)
        st = cs_gemm_csv_load(o->gemm, &w->late, &w->grows, &ng);
    if (st != CS_OK) {
        copy_diags(c->d, &w->late, NULL);
        return st;
    }
    struct cs_compute_params cp;
    cs_compute_params_default(gpu, &cp);
    struct cs_calib_fit *f = new_fit(c);
    fit_said(c, f, cs_calib_fit_gemm(w->grows, ng, gpu, &cp, &c->r->ov.cal, f));
    c->r->failed = CS_APP_CALIB_NONE;
    return CS_OK;
}

static cs_status fit_fio(struct cal *c, const struct cs_app_calib_opts *o, struct work *w)
{
    size_t nj = 0;
    cs_status st = add_input(c, "fio", o->fio);
    if (st == CS_OK)
        st = cs_fio_json_load(o->fio, &w->late, &w->jobs, &nj);
    if (st != CS_OK) {
        copy_diags(c->d, &w->late, NULL);
        c->r->failed = CS_APP_CALIB_FIO;
        return st;
    }
    struct cs_calib_overlay *ov = &c->r->ov;
    const char *tier = o->fio_tier;
    if (!tier)
        tier = w->have_base && w->base.cluster.storage.n_tiers > 0 ? w->base.cluster.storage.tiers[0].name
                                                                    : "nvme";
    snprintf(ov->storage.tier, sizeof ov->storage.tier, "%s", tier);
    struct cs_calib_fit *f = new_fit(c);
    st = cs_calib_fit_storage(w->jobs, nj, &ov->storage, f);
    fit_said(c, f, st);
    ov->has_storage = st == CS_OK;
    return CS_OK;
}

/* A models-layer progress callback forwarded with its stage name. */
struct stage_cb {
    const struct cs_app_calib_opts *o;
    const char *stage;
};

static void stage_progress(void *ctx, uint64_t done, uint64_t total)
{
    const struct stage_cb *sc = ctx;
    sc->o->progress(sc->o->progress_ctx, sc->stage, done, total);
}

/* Step times, on top of what was fitted above: each row's scenario gets
 * the calibration so far without the two factors being fitted. */
static cs_status fit_steps(struct cal *c, const struct cs_app_calib_opts *o, const cs_catalog *cat,
                           struct work *w)
{
    struct cs_calib_cfg *cal = &c->r->ov.cal;
    c->r->failed = CS_APP_CALIB_STEPS;
    cs_status st = add_input(c, "steps", o->steps);
    if (st == CS_OK)
        st = cs_steps_csv_load(o->steps, &w->late, &w->srows, &w->ns);
    if (st != CS_OK) {
        copy_diags(c->d, &w->late, NULL);
        return st;
    }
    w->sscen = cs_xcalloc(w->ns + 1, sizeof *w->sscen);
    w->scases = cs_xcalloc(w->ns + 1, sizeof *w->scases);
    for (size_t i = 0; i < w->ns; i++) {
        if (o->progress)
            o->progress(o->progress_ctx, "step scenarios", i, w->ns);
        struct cs_scenario *s = &w->sscen[i];
        st = cs_steps_row_scenario(&w->srows[i], o->steps, o->base, cat, &w->late, s);
        if (st != CS_OK) {
            copy_diags(c->d, &w->late, NULL);
            return st;
        }
        w->ns_loaded++;
        if (!s->has_workload) {
            cs_diag_error(c->d, o->steps, w->srows[i].line, 0,
                          "the scenario of this step has no workload: nothing to simulate");
            return CS_EINVAL;
        }
        struct cs_calib_cfg tmp = *cal;
        tmp.compute_scale = tmp.overlap_slowdown = NAN;
        tmp.enabled = true;
        s->calibration = tmp;
        struct cs_calib_step_case *sc = &w->scases[i];
        snprintf(sc->label, sizeof sc->label, "%.63s", w->srows[i].label);
        sc->cluster = &s->cluster;
        sc->workload = &s->workload;
        cs_step_options_from_scenario(s, &sc->opts);
        sc->measured = w->srows[i].measured_s;
    }
    struct cs_calib_fit *f = new_fit(c);
    struct stage_cb sc = {o, "step simulations (fit)"};
    fit_said(c, f, cs_calib_fit_steps_progress(w->scases, w->ns, cal, f, o->progress ? stage_progress : NULL, &sc));
    c->r->failed = CS_APP_CALIB_NONE;
    return CS_OK;
}

cs_status cs_app_calibrate(const cs_catalog *cat, const struct cs_app_calib_opts *o, cs_diags *d,
                           struct cs_app_calib *out)
{
    memset(out, 0, sizeof *out);
    struct cs_calib_cfg *cal = &out->ov.cal;
    cal->intra_efficiency = cal->net_efficiency = cal->nvls_efficiency = cal->launch_floor_s = NAN;
    cal->gemm_eff_max = cal->gemm_dim_half = cal->compute_scale = cal->overlap_slowdown = NAN;
    snprintf(out->ov.date, sizeof out->ov.date, "%s", o->date ? o->date : "unknown");
    struct cal c = {out, d, 0, 0};
    struct work w;
    memset(&w, 0, sizeof w);
    cs_diags_init(&w.late);
    w.logs = cs_xcalloc(o->n_nccl + 1, sizeof *w.logs);
    cs_status st = CS_OK;

    if (o->base) {
        cs_diags bd;
        cs_diags_init(&bd);
        st = add_input(&c, "base", o->base);
        if (st == CS_OK)
            st = cs_cfg_load_scenario(o->base, cat, &bd, &w.base, NULL);
        /* A failed load's diagnostics without a file are the base's. */
        copy_diags(d, &bd, st != CS_OK ? o->base : NULL);
        cs_diags_fini(&bd);
        if (st != CS_OK) {
            out->failed = CS_APP_CALIB_BASE;
            goto done;
        }
        w.have_base = true;
    }
    st = read_logs(&c, o, w.logs);
    if (st != CS_OK) {
        out->failed = CS_APP_CALIB_NCCL;
        goto done;
    }
    st = fit_nccl(&c, o, cat, &w);
    if (st == CS_OK && o->gemm)
        st = fit_gemm(&c, o, &w);
    if (st == CS_OK && o->fio)
        st = fit_fio(&c, o, &w);
    if (st == CS_OK && o->steps)
        st = fit_steps(&c, o, cat, &w);
done:
    free_work(&w, o->n_nccl);
    return st;
}
