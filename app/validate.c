/* validate.c: predicted against measured step times, per row, file and
 * role (contract in clustersim/app/validate.h). */
#include "clustersim/app/validate.h"

#include "clustersim/base/xmalloc.h"
#include "clustersim/models/refcase.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void cs_app_validate_fini(struct cs_app_validate *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->nrows; i++)
        cs_diags_fini(&r->rows[i].diags);
    free(r->rows);
    for (int i = 0; i < r->nfiles; i++)
        free(r->files[i].path);
    free(r->files);
    cs_refs_free(r->cases, r->ncases);
    if (r->have_ix)
        cs_valindex_fini(&r->ix);
    memset(r, 0, sizeof *r);
}

/* Appends a copy of every item of `from` to d. */
static void copy_diags(cs_diags *d, const cs_diags *from)
{
    for (size_t i = 0; i < from->n; i++) {
        const struct cs_diag *g = &from->items[i];
        cs_diag_add(d, g->sev, g->file, g->line, g->col, "%s", g->msg);
    }
}

/* The rows of file f, in the order of the cases, without their
 * predictions (predict_rows). */
static void assign_file(struct cs_app_validate *r, struct cs_app_val_file *f)
{
    f->first_row = r->nrows;
    for (size_t i = 0; i < r->ncases; i++) {
        const struct cs_ref_case *c = &r->cases[i];
        if (strcmp(c->file, f->base) != 0)
            continue;
        struct cs_app_val_row *w = &r->rows[r->nrows++];
        w->c = c;
        cs_diags_init(&w->diags);
        w->st = CS_EUNSUPPORTED;
        w->pred = w->err = w->host_issue_s = w->measured_step_s = NAN;
    }
    f->nrows = r->nrows - f->first_row;
}

/* One row's prediction: touches only the row (its case's network model,
 * c->net, is its own and locks itself), so rows run in any order and on
 * any thread with the same result. */
static void predict_row(struct cs_app_val_row *w)
{
    const struct cs_ref_case *c = w->c;
    if (c->not_expressible[0])
        return;
    struct cs_step_options o;
    cs_refs_options(c, &o);
    double pred = NAN;
    struct cs_step_result sr;
    struct cs_workload wl = c->scen.workload;
    w->st = cs_refs_predict(c, &o, &w->diags, &pred, &sr, &wl);
    w->pred = pred;
    w->err = w->st == CS_OK ? (pred - c->measured) / c->measured : NAN;
    w->micro_batch = wl.micro_batch;
    w->recompute = wl.recompute;
    w->recompute_layers = wl.recompute_layers;
    w->offload_layers = wl.offload_layers;
    if (w->st == CS_OK && c->metric != CS_REF_PEAK_MEMORY_GIB && c->measured > 0 && pred > 0) {
        w->host_issue_s = sr.host_issue_s;
        /* a throughput is the inverse of the step: the measured step is the
         * predicted one times predicted over measured */
        w->measured_step_s = c->metric == CS_REF_ITER_S ? c->measured : sr.time_s * pred / c->measured;
    }
}

struct row_pool {
    struct cs_app_val_row *rows;
    size_t n;
    size_t next;   /* the next row to take, under lock */
    pthread_mutex_t lock;
};

static void *row_worker(void *arg)
{
    struct row_pool *p = arg;
    for (;;) {
        pthread_mutex_lock(&p->lock);
        size_t i = p->next++;
        pthread_mutex_unlock(&p->lock);
        if (i >= p->n)
            return NULL;
        predict_row(&p->rows[i]);
    }
}

/* Every row predicted, on as many threads as the machine has online CPUs
 * (at most CS_APP_VAL_MAX_THREADS; the rows are independent). */
#define CS_APP_VAL_MAX_THREADS 16
static void predict_rows(struct cs_app_val_row *rows, size_t n)
{
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    int nth = ncpu > 1 ? (int)(ncpu < CS_APP_VAL_MAX_THREADS ? ncpu : CS_APP_VAL_MAX_THREADS) : 1;
    if ((size_t)nth > n)
        nth = n > 0 ? (int)n : 1;
    struct row_pool p = {rows, n, 0, PTHREAD_MUTEX_INITIALIZER};
    pthread_t th[CS_APP_VAL_MAX_THREADS];
    int started = 0;
    for (int t = 1; t < nth; t++) {
        if (pthread_create(&th[started], NULL, row_worker, &p) != 0)
            break;   /* the calling thread takes the rest */
        started++;
    }
    row_worker(&p);
    for (int t = 0; t < started; t++)
        pthread_join(th[t], NULL);
    pthread_mutex_destroy(&p.lock);
}

/* File f's figures from its predicted rows, and its role's summary. */
static void score_file(struct cs_app_validate *r, struct cs_app_val_file *f)
{
    for (size_t i = f->first_row; i < f->first_row + f->nrows; i++) {
        const struct cs_app_val_row *w = &r->rows[i];
        const struct cs_ref_case *c = w->c;
        if (c->not_expressible[0]) {
            f->not_expressible++;
        } else if (w->st == CS_OK && c->flagged[0]) {
            f->flagged++;   /* shown, not scored */
        } else if (w->st == CS_OK) {
            f->sum += fabs(w->err);
            f->worst = fabs(w->err) > f->worst ? fabs(w->err) : f->worst;
            f->cnt++;
        } else {
            r->ok = false;
        }
    }
    f->mape = f->cnt ? f->sum / f->cnt : NAN;
    if (!(f->mape <= CS_APP_VAL_MAPE_MAX) || f->worst > CS_APP_VAL_ROW_MAX)
        r->ok = false;
    if (f->vt) {
        /* held-out MoE tables apart: their own target (docs/moe.md); the
         * small-work tables apart too (docs/validation.md) */
        bool small = strcmp(f->vt->kind, "step-small") == 0;
        int k = f->vt->role != CS_VAL_HOLDOUT           ? (small ? 5 : 0)
                : strcmp(f->vt->kind, "step-moe") == 0    ? 2
                : strcmp(f->vt->kind, "step-small") == 0  ? 3
                : strcmp(f->vt->kind, "step-memory") == 0 ? 4
                                                          : 1;
        struct cs_app_val_agg *g = &r->agg[k];
        g->files++;
        g->rows += f->cnt;
        g->sum += f->sum;
        g->worst = f->worst > g->worst ? f->worst : g->worst;
        g->not_expressible += f->not_expressible;
        g->flagged += f->flagged;
    }
}

cs_status cs_app_validate(const cs_catalog *cat, const char *const *paths, int n, cs_diags *d,
                          struct cs_app_validate *out)
{
    memset(out, 0, sizeof *out);
    /* The index gives each table its role; with no files, its step tables
     * are the ones compared. */
    cs_diags ixd;
    cs_diags_init(&ixd);
    cs_status st = cs_valindex_load_data(&ixd, &out->ix);
    out->have_ix = st == CS_OK;
    if (out->have_ix || n == 0) /* explicit files: the roles are only a label */
        copy_diags(d, &ixd);
    cs_diags_fini(&ixd);
    if (!out->have_ix) {
        memset(&out->ix, 0, sizeof out->ix);
        if (n == 0)
            return st;
    }
    const struct cs_valindex *ix = &out->ix;
    out->files = cs_xcalloc((size_t)(n > 0 ? n : (int)ix->n) + 1, sizeof *out->files);
    if (n == 0) {
        for (size_t i = 0; i < ix->n; i++)
            if (strcmp(ix->tables[i].kind, "step") == 0 ||
                strncmp(ix->tables[i].kind, "step-", 5) == 0)
                out->files[out->nfiles++].path = cs_xasprintf("%s/%s", ix->dir, ix->tables[i].file);
    } else {
        for (int i = 0; i < n; i++)
            out->files[out->nfiles++].path = cs_xstrdup(paths[i]);
    }
    cs_status ret = CS_OK;
    for (int i = 0; i < out->nfiles; i++) {
        const char *slash = strrchr(out->files[i].path, '/');
        const struct cs_val_table *vt =
            out->have_ix ? cs_valindex_find(ix, slash ? slash + 1 : out->files[i].path) : NULL;
        st = cs_refs_load_table(out->files[i].path, vt, cat, d, &out->cases, &out->ncases);
        if (st != CS_OK && ret == CS_OK)
            ret = st;
    }
    if (ret != CS_OK)
        return ret;
    /* A file named twice is compared twice: count the rows first. */
    size_t nrows = 0;
    for (int i = 0; i < out->nfiles; i++) {
        struct cs_app_val_file *f = &out->files[i];
        const char *slash = strrchr(f->path, '/');
        f->base = slash ? slash + 1 : f->path;
        for (size_t k = 0; k < out->ncases; k++)
            nrows += strcmp(out->cases[k].file, f->base) == 0;
    }
    out->rows = cs_xcalloc(nrows + 1, sizeof *out->rows);
    out->ok = true;
    for (int i = 0; i < out->nfiles; i++) {
        struct cs_app_val_file *f = &out->files[i];
        f->vt = cs_valindex_find(ix, f->base);
        f->role = f->vt ? cs_val_role_name(f->vt->role) : "unlisted";
        assign_file(out, f);
    }
    predict_rows(out->rows, out->nrows);
    for (int i = 0; i < out->nfiles; i++)
        score_file(out, &out->files[i]);
    return CS_OK;
}

cs_status cs_app_validate_all(const cs_catalog *cat, struct cs_app_validate *v)
{
    cs_diags d;
    cs_diags_init(&d);
    cs_status st = cs_app_validate(cat, NULL, 0, &d, v);
    cs_diags_fini(&d);
    if (st != CS_OK)
        cs_app_validate_fini(v);
    return st;
}

/* A row whose error counts in a step-time summary: predicted, scored (not
 * flagged by its source), a step time or throughput, and not from the
 * small-work tables (CI-scale runs, docs/validation.md, reported on their
 * own) or the peak-memory ones (their error is not a step time's). Its
 * table's index entry into *vt (NULL: unlisted). */
static bool cs__step_row(const struct cs_app_validate *v, const struct cs_app_val_row *r,
                         const struct cs_val_table **vt)
{
    const struct cs_ref_case *c = r->c;
    if (c->not_expressible[0] || c->flagged[0] || r->st != CS_OK || !isfinite(r->err) ||
        c->metric == CS_REF_PEAK_MEMORY_GIB)
        return false;
    *vt = cs_valindex_find(&v->ix, c->file);
    return !(*vt && (strcmp((*vt)->kind, "step-small") == 0 || strcmp((*vt)->kind, "step-memory") == 0));
}

cs_status cs_app_validated_range(const cs_catalog *cat, const char *gpu, enum cs_stack stack,
                                 struct cs_app_vrange *out)
{
    return cs_app_validated_range_kind(cat, gpu, stack, false, out);
}

cs_status cs_app_validated_range_kind(const cs_catalog *cat, const char *gpu, enum cs_stack stack,
                                      bool moe, struct cs_app_vrange *out)
{
    struct cs_app_validate v;
    cs_status st = cs_app_validate_all(cat, &v);
    if (st != CS_OK) {
        memset(out, 0, sizeof *out);
        return st;
    }
    cs_app_vrange_of(&v, gpu, stack, moe, out);
    cs_app_validate_fini(&v);
    return CS_OK;
}

void cs_app_vrange_of(const struct cs_app_validate *v, const char *gpu, enum cs_stack stack, bool moe,
                      struct cs_app_vrange *out)
{
    memset(out, 0, sizeof *out);
    out->moe = moe;
    snprintf(out->gpu, sizeof out->gpu, "%s", gpu);
    out->stack = stack;
    out->mape[0] = out->mape[1] = out->bias[0] = out->bias[1] = NAN;
    out->params_min = INFINITY;
    out->params_max = 0;
    out->seq_min = out->gpus_min = -1;
    double sum[2] = {0, 0}, sumb[2] = {0, 0};
    for (size_t i = 0; i < v->nrows; i++) {
        const struct cs_app_val_row *r = &v->rows[i];
        const struct cs_ref_case *c = r->c;
        const struct cs_val_table *vt = NULL;
        if (!cs__step_row(v, r, &vt))
            continue;
        if (strcmp(gpu, "*") != 0 && strcmp(c->scen.cluster.gpu.name, gpu) != 0)
            continue;
        if (stack != CS_STACK_CUSTOM && c->stack != stack)
            continue;
        if (cs_model_is_moe(&c->scen.workload.model) != moe)
            continue;   /* dense and MoE runs are validated apart */
        int k = vt && vt->role == CS_VAL_HOLDOUT;
        out->rows[k]++;
        sum[k] += fabs(r->err);
        sumb[k] += r->err;
        const struct cs_workload *w = &c->scen.workload;
        double P = cs_workload_params(&w->model);
        long g = cs_job_gpus(&c->scen.cluster, w);
        out->params_min = fmin(out->params_min, P);
        out->params_max = fmax(out->params_max, P);
        if (out->seq_min < 0 || w->model.seq_len < out->seq_min)
            out->seq_min = w->model.seq_len;
        if (w->model.seq_len > out->seq_max)
            out->seq_max = w->model.seq_len;
        if (out->gpus_min < 0 || g < out->gpus_min)
            out->gpus_min = g;
        if (g > out->gpus_max)
            out->gpus_max = g;
        out->tp_max = w->par.tp > out->tp_max ? w->par.tp : out->tp_max;
        out->pp_max = w->par.pp > out->pp_max ? w->par.pp : out->pp_max;
        out->cp_max = w->par.cp > out->cp_max ? w->par.cp : out->cp_max;
        out->ep_max = w->par.ep > out->ep_max ? w->par.ep : out->ep_max;
    }
    for (int k = 0; k < 2; k++) {
        out->mape[k] = out->rows[k] ? sum[k] / out->rows[k] : NAN;
        out->bias[k] = out->rows[k] ? sumb[k] / out->rows[k] : NAN;
    }
}

bool cs_app_same_architecture(const struct cs_model_shape *a, const struct cs_model_shape *b)
{
    const struct cs_moe_shape *x = &a->moe, *y = &b->moe;
    bool same = a->layers == b->layers && a->hidden == b->hidden && a->heads == b->heads &&
                a->kv_heads == b->kv_heads && a->activation == b->activation &&
                a->attention == b->attention && a->sliding_window == b->sliding_window &&
                a->sliding_every == b->sliding_every &&
                cs_model_qk_head_dim(a) == cs_model_qk_head_dim(b) &&
                cs_model_v_head_dim(a) == cs_model_v_head_dim(b) && x->experts == y->experts;
    if (!same)
        return false;
    if (x->experts > 0) /* an MoE model's dense width matters only in its dense layers */
        return x->top_k == y->top_k && x->expert_ffn_hidden == y->expert_ffn_hidden &&
               x->shared_experts == y->shared_experts && x->first_dense_layers == y->first_dense_layers &&
               x->moe_every == y->moe_every &&
               (x->first_dense_layers == 0 || a->ffn_hidden == b->ffn_hidden);
    return a->ffn_hidden == b->ffn_hidden;
}

cs_status cs_app_validated_model(const cs_catalog *cat, const struct cs_workload *w,
                                 struct cs_app_vmodel *out)
{
    struct cs_app_validate v;
    cs_status st = cs_app_validate_all(cat, &v);
    if (st != CS_OK) {
        memset(out, 0, sizeof *out);
        return st;
    }
    cs_app_vmodel_of(&v, w, out);
    cs_app_validate_fini(&v);
    return CS_OK;
}

void cs_app_vmodel_of(const struct cs_app_validate *v, const struct cs_workload *w, struct cs_app_vmodel *out)
{
    memset(out, 0, sizeof *out);
    for (int k = 0; k < 2; k++) {
        out->mape[k] = out->bias[k] = out->rms_log[k] = NAN;
        out->err_min[k] = out->err_max[k] = NAN;
    }
    double sum[2] = {0, 0}, sgn[2] = {0, 0}, sq[2] = {0, 0};
    const char *last_file[2] = {NULL, NULL};
    size_t gl = 0;
    for (size_t i = 0; i < v->nrows; i++) {
        const struct cs_app_val_row *r = &v->rows[i];
        const struct cs_ref_case *c = r->c;
        const struct cs_val_table *vt = NULL;
        if (!cs__step_row(v, r, &vt) || !(r->err > -1.0))
            continue;
        if (!cs_app_same_architecture(&c->scen.workload.model, &w->model))
            continue;
        int k = vt && vt->role == CS_VAL_HOLDOUT;
        if (out->rows[k] == 0) {
            out->err_min[k] = out->err_max[k] = r->err;
        } else {
            out->err_min[k] = fmin(out->err_min[k], r->err);
            out->err_max[k] = fmax(out->err_max[k], r->err);
        }
        out->rows[k]++;
        sum[k] += fabs(r->err);
        sgn[k] += r->err;
        double l = log1p(r->err);
        sq[k] += l * l;
        if (!last_file[k] || strcmp(last_file[k], c->file) != 0) {
            out->tables[k]++;   /* rows come file by file */
            last_file[k] = c->file;
        }
        /* the GPUs, each once */
        const char *g = c->scen.cluster.gpu.name;
        size_t gn = strlen(g);
        bool seen = false;
        for (const char *p = out->gpus; (p = strstr(p, g)) != NULL; p += gn)
            if ((p == out->gpus || p[-1] == ' ') && (p[gn] == ',' || p[gn] == '\0')) {
                seen = true;
                break;
            }
        if (!seen && gl + gn + 6 < sizeof out->gpus) {
            gl += (size_t)snprintf(out->gpus + gl, sizeof out->gpus - gl, "%s%s", gl ? ", " : "", g);
        } else if (!seen && gl + 4 < sizeof out->gpus && !strstr(out->gpus, "...")) {
            gl += (size_t)snprintf(out->gpus + gl, sizeof out->gpus - gl, "%s", gl ? ", ..." : "...");
        }
    }
    for (int k = 0; k < 2; k++)
        if (out->rows[k]) {
            out->mape[k] = sum[k] / out->rows[k];
            out->bias[k] = sgn[k] / out->rows[k];
            out->rms_log[k] = sqrt(sq[k] / out->rows[k]);
        }
}

bool cs_app_vrange_inside(const struct cs_app_vrange *v, const struct cs_workload *w, long gpus,
                          char *why, size_t len)
{
    size_t n = 0;
    why[0] = '\0';
#define CS__OUT(...)                                                                        \
    do {                                                                                   \
        if (n < len)                                                                       \
            n += (size_t)snprintf(why + n, len - n, "%s", n ? ", " : "");                  \
        if (n < len)                                                                       \
            n += (size_t)snprintf(why + n, len - n, __VA_ARGS__);                          \
    } while (0)
    /* dense and MoE runs have ranges of their own */
    if (cs_model_is_moe(&w->model) != v->moe)
        CS__OUT("%s", v->moe ? "a dense model (this range is MoE runs')"
                             : "mixture of experts (this range is dense runs')");
    if (v->moe && w->par.ep > v->ep_max)
        CS__OUT("ep %d", w->par.ep);
    if (v->rows[0] + v->rows[1] == 0) {
        CS__OUT("no measurement on %s", v->gpu);
        return false;
    }
    double P = cs_workload_params(&w->model);
    if (P < v->params_min || P > v->params_max)
        CS__OUT("%.3gB parameters", P / 1e9);
    if (w->model.seq_len < v->seq_min || w->model.seq_len > v->seq_max)
        CS__OUT("sequence %d", w->model.seq_len);
    if (gpus < v->gpus_min || gpus > v->gpus_max)
        CS__OUT("%ld GPUs", gpus);
    if (w->par.tp > v->tp_max)
        CS__OUT("tp %d", w->par.tp);
    if (w->par.pp > v->pp_max)
        CS__OUT("pp %d", w->par.pp);
    if (w->par.cp > v->cp_max)
        CS__OUT("cp %d", w->par.cp);
#undef CS__OUT
    return n == 0;
}

/* ---- the host bound ------------------------------------------------- */

bool cs_app_validate_host_over(const struct cs_app_val_row *r)
{
    if (r->st != CS_OK || r->c->flagged[0] || r->c->not_expressible[0] ||
        !(isfinite(r->host_issue_s) && isfinite(r->measured_step_s) && r->measured_step_s > 0))
        return false;
    if (r->c->search_micro_batch || (r->c->search_recompute && r->recompute != CS_RECOMPUTE_NONE))
        return false;
    return r->host_issue_s > r->measured_step_s;
}

/* ---- precision pairs ------------------------------------------------ */

const char *const cs_app_pair_names[CS_APP_PAIR_COUNT] = {"fp8", "fp8 block-wise", "mxfp8", "nvfp4"};

/* The row's group, or -1 for bf16 and the unquantized precisions. */
static int pair_group(const struct cs_workload *w)
{
    switch (w->precision) {
    case CS_PREC_FP8: return w->fp8_recipe == 1 ? CS_APP_PAIR_FP8_BLOCK : CS_APP_PAIR_FP8;
    case CS_PREC_MXFP8: return CS_APP_PAIR_MXFP8;
    case CS_PREC_NVFP4: return CS_APP_PAIR_NVFP4;
    default: return -1;
    }
}

/* A row that can enter a pair: predicted, scored, a throughput or time. */
static bool pair_usable(const struct cs_app_val_row *r)
{
    return r->st == CS_OK && isfinite(r->pred) && r->pred > 0 && r->c->measured > 0 &&
           !r->c->flagged[0] && !r->c->not_expressible[0] && r->c->metric != CS_REF_PEAK_MEMORY_GIB;
}

/* The same run but for its precision (the row's stated configuration). */
static bool pair_same(const struct cs_ref_case *a, const struct cs_ref_case *b)
{
    const struct cs_cluster_cfg *ca = &a->scen.cluster, *cb = &b->scen.cluster;
    const struct cs_workload *x = &a->scen.workload, *y = &b->scen.workload;
    return strcmp(a->file, b->file) == 0 && a->metric == b->metric &&
           strcmp(ca->gpu.name, cb->gpu.name) == 0 && ca->nodes == cb->nodes &&
           ca->gpus_per_node == cb->gpus_per_node && x->model.layers == y->model.layers &&
           x->model.hidden == y->model.hidden && x->model.seq_len == y->model.seq_len &&
           x->global_batch == y->global_batch && x->micro_batch == y->micro_batch &&
           a->search_micro_batch == b->search_micro_batch &&
           a->search_recompute == b->search_recompute && x->recompute == y->recompute &&
           x->par.tp == y->par.tp && x->par.pp == y->par.pp && x->par.cp == y->par.cp &&
           x->par.dp == y->par.dp && x->par.ep == y->par.ep && x->par.vp == y->par.vp &&
           x->cuda_graphs == y->cuda_graphs && x->cuda_graph_scope == y->cuda_graph_scope;
}

void cs_app_validate_pairs(const struct cs_app_validate *v, struct cs_app_val_pairs *out)
{
    double sm[CS_APP_PAIR_COUNT] = {0}, sp[CS_APP_PAIR_COUNT] = {0};
    double sr[CS_APP_PAIR_COUNT] = {0}, sa[CS_APP_PAIR_COUNT] = {0};
    int n[CS_APP_PAIR_COUNT] = {0};
    for (size_t i = 0; i < v->nrows; i++) {
        const struct cs_app_val_row *b = &v->rows[i];
        if (!pair_usable(b) || b->c->scen.workload.precision != CS_PREC_BF16)
            continue;
        for (size_t j = 0; j < v->nrows; j++) {
            const struct cs_app_val_row *q = &v->rows[j];
            int g = pair_usable(q) ? pair_group(&q->c->scen.workload) : -1;
            if (g < 0 || !pair_same(b->c, q->c))
                continue;
            /* quantized over bf16: throughput up, time down */
            bool time = b->c->metric == CS_REF_ITER_S;
            double meas = time ? b->c->measured / q->c->measured : q->c->measured / b->c->measured;
            double mod = time ? b->pred / q->pred : q->pred / b->pred;
            n[g]++;
            sm[g] += meas;
            sp[g] += mod;
            sr[g] += mod / meas;
            sa[g] += fabs(mod / meas - 1.0);
        }
    }
    for (int g = 0; g < CS_APP_PAIR_COUNT; g++) {
        out[g].n = n[g];
        out[g].measured = n[g] ? sm[g] / n[g] : NAN;
        out[g].model = n[g] ? sp[g] / n[g] : NAN;
        out[g].ratio = n[g] ? sr[g] / n[g] : NAN;
        out[g].mape = n[g] ? sa[g] / n[g] : NAN;
    }
}
