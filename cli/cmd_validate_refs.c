/* cmd_validate_refs.c: `clustersim validate-refs [CSV...]`: run the
 * published step-time measurements through the step model and print
 * predicted against measured, with the error per row and per file. */
#include "cli.h"

#include "clustersim/base/csv.h"

#include "clustersim/app/validate.h"
#include "clustersim/app/validate_coll.h"
#include "clustersim/app/validate_ep.h"
#include "clustersim/base/xmalloc.h"
#include "clustersim/report/numfmt.h"
#include "clustersim/report/table.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct cs_cli_opt cs__vr_opts[] = {
    {"format", 'f', "FMT", "output format: text (default), json or csv"},
    {"check", 0, NULL, "exit 1 unless each file's MAPE <= 10% and every row <= 25%"},
    {"collectives", 0, NULL, "compare the collective model with the index's nccl-tests/rccl-tests logs instead"},
    {"ep-dispatch", 0, NULL, "compare the EP all-to-all model with the index's measured MoE dispatch and combine latencies instead"},
    {"scenario", 0, "FILE:LINE", "print the scenario a row is predicted with (its searched micro-batch and recomputation filled in), to run or edit"},
    CS_CLI_OPT_CATALOG,
};

#define CS__MAX_FILES 64

static void cs__agg_json(cJSON *parent, const char *name, const struct cs_app_val_agg *g)
{
    cJSON *o = cJSON_AddObjectToObject(parent, name);
    cJSON_AddNumberToObject(o, "files", g->files);
    cJSON_AddNumberToObject(o, "rows", g->rows);
    if (g->rows) {
        cJSON_AddNumberToObject(o, "mape", g->sum / g->rows);
        cJSON_AddNumberToObject(o, "worst", g->worst);
    } else {
        cJSON_AddNullToObject(o, "mape");
        cJSON_AddNullToObject(o, "worst");
    }
}

static void cs__agg_text(const char *name, const struct cs_app_val_agg *g)
{
    if (g->rows)
        printf("%-8s %2d tables, %3d rows: MAPE %.1f%%, worst %.1f%%\n", name, g->files, g->rows,
               100 * g->sum / g->rows, 100 * g->worst);
    else
        printf("%-8s no tables%s\n", name,
               strcmp(name, "holdout:") == 0 ? " (every figure above is in-sample)" : "");
}

/* What each quantized precision buys over bf16 on the same configuration,
 * measured and predicted (cs_app_validate_pairs). */
static void cs__pairs_text(const struct cs_app_validate *v)
{
    struct cs_app_val_pairs p[CS_APP_PAIR_COUNT];
    cs_app_validate_pairs(v, p);
    bool any = false;
    for (int g = 0; g < CS_APP_PAIR_COUNT; g++)
        any = any || p[g].n > 0;
    if (!any)
        return;
    printf("precision pairs (one table's rows of the same configuration at bf16 and quantized; "
           "speedup over bf16):\n");
    for (int g = 0; g < CS_APP_PAIR_COUNT; g++)
        if (p[g].n > 0)
            printf("  %-15s %3d pairs: measured %.2fx, predicted %.2fx (predicted/measured %.3f, "
                   "mean |difference| %.1f%%)\n",
                   cs_app_pair_names[g], p[g].n, p[g].measured, p[g].model, p[g].ratio, 100 * p[g].mape);
}

static void cs__pairs_json(cJSON *parent, const struct cs_app_validate *v)
{
    struct cs_app_val_pairs p[CS_APP_PAIR_COUNT];
    cs_app_validate_pairs(v, p);
    cJSON *arr = cJSON_AddArrayToObject(parent, "precision_pairs");
    for (int g = 0; g < CS_APP_PAIR_COUNT; g++) {
        if (p[g].n == 0)
            continue;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "precision", cs_app_pair_names[g]);
        cJSON_AddNumberToObject(o, "pairs", p[g].n);
        cJSON_AddNumberToObject(o, "measured_speedup", p[g].measured);
        cJSON_AddNumberToObject(o, "predicted_speedup", p[g].model);
        cJSON_AddNumberToObject(o, "ratio", p[g].ratio);
        cJSON_AddNumberToObject(o, "mape", p[g].mape);
        cJSON_AddItemToArray(arr, o);
    }
}

/* Rows whose predicted host dispatch alone outlasts the step they measured
 * (cs_app_validate_host_over): the host model is too slow for that run. */
static void cs__host_over_text(const struct cs_app_validate *v)
{
    int n = 0;
    for (size_t i = 0; i < v->nrows; i++)
        n += cs_app_validate_host_over(&v->rows[i]);
    if (!n)
        return;
    printf("host over the measured step: %d rows (the model's host dispatch alone outlasts the step "
           "the row measured; docs/models.md 2.6):\n",
           n);
    for (size_t i = 0; i < v->nrows; i++) {
        const struct cs_app_val_row *r = &v->rows[i];
        if (cs_app_validate_host_over(r))
            printf("  %s:%d host %.3f s, measured step %.3f s (+%.1f%%)\n", r->c->file, r->c->line,
                   r->host_issue_s, r->measured_step_s,
                   100.0 * (r->host_issue_s / r->measured_step_s - 1.0));
    }
}

static void cs__host_over_json(cJSON *parent, const struct cs_app_validate *v)
{
    cJSON *arr = cJSON_AddArrayToObject(parent, "host_over_measured");
    for (size_t i = 0; i < v->nrows; i++) {
        const struct cs_app_val_row *r = &v->rows[i];
        if (!cs_app_validate_host_over(r))
            continue;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "file", r->c->file);
        cJSON_AddNumberToObject(o, "line", r->c->line);
        cJSON_AddNumberToObject(o, "host_issue_s", r->host_issue_s);
        cJSON_AddNumberToObject(o, "measured_step_s", r->measured_step_s);
        cJSON_AddItemToArray(arr, o);
    }
}

/* The rows the models cannot express yet, counted by reason: the list of
 * features to build (validation/README.md). */
static void cs__not_expressible_text(const struct cs_app_validate *v)
{
    int total = 0;
    for (size_t i = 0; i < v->nrows; i++)
        total += v->rows[i].c->not_expressible[0] != 0;
    if (!total)
        return;
    printf("not expressible: %d rows (features to build, or rows whose cells are inconsistent), by reason:\n", total);
    bool *done = cs_xcalloc(v->nrows + 1, sizeof *done);
    for (size_t i = 0; i < v->nrows; i++) {
        const char *why = v->rows[i].c->not_expressible;
        if (!why[0] || done[i])
            continue;
        int k = 0;
        for (size_t j = i; j < v->nrows; j++)
            if (!done[j] && strcmp(v->rows[j].c->not_expressible, why) == 0) {
                done[j] = true;
                k++;
            }
        printf("  %4d  %s\n", k, why);
    }
    free(done);
}

/* The rows their sources flag (the index's flagged_lines): predicted and
 * shown above, in no error figure; listed with the source's reason. */
static void cs__flagged_text(const struct cs_app_validate *v)
{
    int total = 0;
    for (size_t i = 0; i < v->nrows; i++)
        total += v->rows[i].c->flagged[0] != 0;
    if (!total)
        return;
    printf("flagged by their source: %d rows (predicted above, in no error figure):\n", total);
    for (size_t i = 0; i < v->nrows; i++) {
        const struct cs_app_val_row *r = &v->rows[i];
        if (!r->c->flagged[0])
            continue;
        char e[32] = "n/a";
        if (r->st == CS_OK)
            snprintf(e, sizeof e, "%+.1f%%", 100 * r->err);
        printf("  %s:%d (%s): %s\n", r->c->file, r->c->line, e, r->c->flagged);
    }
}

static const char *const cs__band_names[CS_APP_CVAL_BANDS] = {">= 64 MiB", "1-64 MiB"};
static const char *const cs__band_keys[CS_APP_CVAL_BANDS] = {"ge_64mib", "1_to_64mib"};

static double cs__mape(int n, double sum)
{
    return n > 0 ? sum / n : NAN;
}

static void cs__pct(char *buf, size_t len, int n, double sum)
{
    if (n > 0)
        snprintf(buf, len, "%.1f%% (%d)", 100 * sum / n, n);
    else
        snprintf(buf, len, "-");
}

static void cs__num_or_null(cJSON *o, const char *k, double v)
{
    if (isfinite(v))
        cJSON_AddNumberToObject(o, k, v);
    else
        cJSON_AddNullToObject(o, k);
}

/* validate-refs --collectives: the logs of the index against the closed
 * form (app/validate_coll.c). */
/* Why a log could not be compared: its first diagnostic, without the
 * severity (the list it is printed in says "failed"). Heap string. */
static char *cs__reason(const struct cs_app_cval_file *f)
{
    return f->diags.n ? cs_cli_diag_plain(&f->diags.items[0]) : cs_xstrdup(cs_strerror(f->st));
}

/* A log not compared: its status ("not-expressible" or "failed") and why
 * (heap string); NULL for a compared log. */
static char *cs__not_compared(const struct cs_app_cval_file *f, const char **status)
{
    if (!f->expressible) {
        *status = "not-expressible";
        return cs_xstrdup(f->vt->not_expressible ? f->vt->not_expressible : "no scenario in the index");
    }
    if (f->st != CS_OK) {
        *status = "failed";
        return cs__reason(f);
    }
    *status = "ok";
    return NULL;
}

/* Prints a report's JSON tree on standard output and frees it. */
static int cs__print_json(cJSON *root)
{
    char *txt = cJSON_Print(root);
    printf("%s\n", txt);
    cJSON_free(txt);
    cJSON_Delete(root);
    return CS_EXIT_OK;
}

/* validate-refs --ep-dispatch: measured MoE dispatch and combine
 * latencies against the EP all-to-all model (app/validate_ep.c). */
static int cs__vr_ep_dispatch(const struct cs_app_epval *v, enum cs_cli_format fmt)
{
    if (fmt == CS_FMT_JSON) {
        cJSON *root = cJSON_CreateObject();
        cJSON *rows = cJSON_AddArrayToObject(root, "rows");
        for (int i = 0; i < v->n; i++) {
            const struct cs_app_epval_row *r = &v->rows[i];
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "file", r->file);
            cJSON_AddNumberToObject(o, "line", r->line);
            cJSON_AddStringToObject(o, "platform", r->platform);
            cJSON_AddStringToObject(o, "dispatcher", r->dispatcher);
            cJSON_AddStringToObject(o, "op", r->op);
            cJSON_AddNumberToObject(o, "ep", r->ep);
            cJSON_AddNumberToObject(o, "bytes_per_rank", r->bytes);
            cJSON_AddNumberToObject(o, "measured_us", r->measured_us);
            cJSON_AddNumberToObject(o, "predicted_us", r->predicted_us);
            cJSON_AddNumberToObject(o, "error", r->error);
            cJSON_AddItemToArray(rows, o);
        }
        cJSON *groups = cJSON_AddArrayToObject(root, "groups");
        for (int i = 0; i < v->ngroups; i++) {
            const struct cs_app_epval_group *g = &v->groups[i];
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "platform", g->platform);
            cJSON_AddStringToObject(o, "dispatcher", g->dispatcher);
            cJSON_AddNumberToObject(o, "rows", g->n);
            cJSON_AddNumberToObject(o, "mape", g->sum / g->n);
            cJSON_AddNumberToObject(o, "worst", g->worst);
            cJSON_AddItemToArray(groups, o);
        }
        cJSON *sum = cJSON_AddObjectToObject(root, "holdout");
        cJSON_AddNumberToObject(sum, "tables", v->tables);
        cJSON_AddNumberToObject(sum, "rows", v->n);
        cJSON_AddNumberToObject(sum, "mape", v->sum / v->n);
        cJSON_AddNumberToObject(sum, "worst", v->worst);
        return cs__print_json(root);
    }
    if (fmt == CS_FMT_CSV) {
        printf("file,line,platform,dispatcher,op,ep,bytes_per_rank,measured_us,predicted_us,error\n");
        for (int i = 0; i < v->n; i++) {
            const struct cs_app_epval_row *r = &v->rows[i];
            cs_csv_fput_text(stdout, r->file, false);
            printf(",%d,", r->line);
            cs_csv_fput_text(stdout, r->platform, false);
            printf(",%s,%s,%d,%.0f,%.6g,%.6g,%.6g\n", r->dispatcher, r->op, r->ep, r->bytes, r->measured_us,
                   r->predicted_us, r->error);
        }
        return CS_EXIT_OK;
    }
    const char *hdr[] = {"file:line", "platform", "dispatcher", "op", ">ep", ">MB per rank", ">measured us",
                         ">predicted us", ">error"};
    cs_table *t = cs_table_create(9, hdr);
    for (int i = 0; i < v->n; i++) {
        const struct cs_app_epval_row *r = &v->rows[i];
        const char *base = strrchr(r->file, '/') ? strrchr(r->file, '/') + 1 : r->file;
        char fl[160], ep[16], mb[32], me[32], pr[32], er[32];
        snprintf(fl, sizeof fl, "%s:%d", base, r->line);
        snprintf(ep, sizeof ep, "%d", r->ep);
        snprintf(mb, sizeof mb, "%.1f", r->bytes / 1e6);
        snprintf(me, sizeof me, "%.0f", r->measured_us);
        snprintf(pr, sizeof pr, "%.0f", r->predicted_us);
        snprintf(er, sizeof er, "%+.1f%%", 100 * r->error);
        const char *cells[] = {fl, r->platform, r->dispatcher, r->op, ep, mb, me, pr, er};
        cs_table_add_row(t, cells);
    }
    printf("EP all-to-all model (as the step costs a token dispatch or combine) against measured latencies\n"
           "(error = predicted / measured - 1; alltoall: NCCL, one copy per routed expert; hybridep/deepep: one\n"
           "copy per destination GPU and per destination node, docs/moe.md)\n\n");
    cs_table_write(t, stdout, 0);
    cs_table_destroy(t);
    printf("\n");
    for (int i = 0; i < v->ngroups; i++) {
        const struct cs_app_epval_group *g = &v->groups[i];
        printf("  %-8s %-9s %2d rows: MAPE %.1f%%, worst %.1f%%\n", g->platform, g->dispatcher, g->n,
               100 * g->sum / g->n, 100 * g->worst);
    }
    printf("holdout: %d table%s, %d rows: MAPE %.1f%%, worst %.1f%%\n", v->tables, v->tables == 1 ? "" : "s", v->n,
           100 * v->sum / v->n, 100 * v->worst);
    return CS_EXIT_OK;
}

static int cs__vr_collectives(const struct cs_app_cval *v, enum cs_cli_format fmt)
{
    if (fmt == CS_FMT_JSON) {
        cJSON *root = cJSON_CreateObject();
        cJSON *logs = cJSON_AddArrayToObject(root, "logs");
        for (int i = 0; i < v->nfiles; i++) {
            const struct cs_app_cval_file *f = &v->files[i];
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "file", f->vt->file);
            cJSON_AddStringToObject(o, "role", f->role);
            const char *status;
            char *why = cs__not_compared(f, &status);
            cJSON_AddStringToObject(o, "status", status);
            if (why) {
                cJSON_AddStringToObject(o, "reason", why);
                free(why);
            } else {
                cJSON_AddStringToObject(o, "op", f->op);
                cJSON_AddNumberToObject(o, "ranks", (double)f->ranks);
                cJSON_AddNumberToObject(o, "nodes", f->nodes);
                for (int b = 0; b < CS_APP_CVAL_BANDS; b++) {
                    cJSON *x = cJSON_AddObjectToObject(o, cs__band_keys[b]);
                    cJSON_AddNumberToObject(x, "rows", f->n[b]);
                    cs__num_or_null(x, "mape", cs__mape(f->n[b], f->sum[b]));
                }
                cJSON_AddNumberToObject(o, "worst", f->worst);
                cJSON_AddNumberToObject(o, "excluded_rows", f->excluded);
                cJSON *rows = cJSON_AddArrayToObject(o, "rows");
                for (int k = 0; k < f->nrows; k++) {
                    const struct cs_app_cval_row *r = &f->rows[k];
                    cJSON *x = cJSON_CreateObject();
                    cJSON_AddNumberToObject(x, "line", r->line);
                    cJSON_AddNumberToObject(x, "size_bytes", r->size_bytes);
                    cJSON_AddStringToObject(x, "band", cs__band_keys[r->band]);
                    cJSON_AddNumberToObject(x, "measured_busbw_gbps", r->measured_gbps);
                    cJSON_AddNumberToObject(x, "predicted_busbw_gbps", r->predicted_gbps);
                    cJSON_AddNumberToObject(x, "error", r->error);
                    cJSON_AddStringToObject(x, "algo", cs_coll_algo_name(r->algo));
                    if (r->has_proto)
                        cJSON_AddStringToObject(x, "proto", cs_coll_proto_name(r->proto));
                    else
                        cJSON_AddNullToObject(x, "proto");
                    cJSON_AddItemToArray(rows, x);
                }
            }
            cJSON_AddItemToArray(logs, o);
        }
        cJSON *sum = cJSON_AddObjectToObject(root, "summary");
        static const char *const roles[2] = {"fit", "holdout"};
        for (int r = 0; r < 2; r++) {
            cJSON *o = cJSON_AddObjectToObject(sum, roles[r]);
            cJSON_AddNumberToObject(o, "logs", v->agg[r].logs);
            for (int b = 0; b < CS_APP_CVAL_BANDS; b++) {
                cJSON *x = cJSON_AddObjectToObject(o, cs__band_keys[b]);
                cJSON_AddNumberToObject(x, "rows", v->agg[r].n[b]);
                cs__num_or_null(x, "mape", cs__mape(v->agg[r].n[b], v->agg[r].sum[b]));
            }
            cJSON_AddNumberToObject(o, "excluded_rows", v->agg[r].excluded);
            /* the logs that add most to each band's MAPE (text output) */
            for (int b = 0; b < CS_APP_CVAL_BANDS; b++) {
                int idx[3];
                int k = cs_app_cval_largest(v, r, b, 3, idx);
                cJSON *x = cJSON_GetObjectItemCaseSensitive(o, cs__band_keys[b]);
                cJSON *arr = cJSON_AddArrayToObject(x, "largest");
                for (int j = 0; j < k; j++) {
                    const struct cs_app_cval_file *f = &v->files[idx[j]];
                    cJSON *e = cJSON_CreateObject();
                    cJSON_AddStringToObject(e, "file", f->vt->file);
                    cJSON_AddNumberToObject(e, "mape_points", 100.0 * f->sum[b] / v->agg[r].n[b]);
                    cJSON_AddItemToArray(arr, e);
                }
            }
        }
        cJSON_AddNumberToObject(sum, "not_expressible", v->not_expressible);
        cJSON_AddNumberToObject(sum, "failed", v->failed);
        return cs__print_json(root);
    }
    if (fmt == CS_FMT_CSV) {
        /* One line per compared row; a log not compared gets one line with
         * its status and reason and empty row cells. */
        printf("file,role,status,op,ranks,nodes,line,size_bytes,band,measured_busbw_gbps,"
               "predicted_busbw_gbps,error,algo,proto,reason\n");
        for (int i = 0; i < v->nfiles; i++) {
            const struct cs_app_cval_file *f = &v->files[i];
            const char *status;
            char *why = cs__not_compared(f, &status);
            if (why) {
                cs_csv_fput_text(stdout, f->vt->file, false);
                printf(",%s,%s,,,,,,,,,,,,", f->role, status);
                cs_csv_fput_text(stdout, why, false);
                putchar('\n');
                free(why);
                continue;
            }
            for (int k = 0; k < f->nrows; k++) {
                const struct cs_app_cval_row *r = &f->rows[k];
                cs_csv_fput_text(stdout, f->vt->file, false);
                printf(",%s,ok,%s,%ld,%d,%d,%.0f,%s,%.6g,%.6g,%.6g,%s,%s,\n", f->role, f->op, f->ranks,
                       f->nodes, r->line, r->size_bytes, cs__band_keys[r->band], r->measured_gbps,
                       r->predicted_gbps, r->error, cs_coll_algo_name(r->algo),
                       r->has_proto ? cs_coll_proto_name(r->proto) : "");
            }
        }
        return CS_EXIT_OK;
    }
    const char *hdr[] = {"log", "role", "op", ">ranks", ">nodes", ">MAPE >= 64 MiB (rows)", ">MAPE 1-64 MiB (rows)",
                         ">worst"};
    cs_table *t = cs_table_create(8, hdr);
    for (int i = 0; i < v->nfiles; i++) {
        const struct cs_app_cval_file *f = &v->files[i];
        if (!f->expressible || f->st != CS_OK)
            continue;
        char rk[16], nd[16], b0[32], b1[32], w[16];
        snprintf(rk, sizeof rk, "%ld", f->ranks);
        snprintf(nd, sizeof nd, "%d", f->nodes);
        cs__pct(b0, sizeof b0, f->n[0], f->sum[0]);
        cs__pct(b1, sizeof b1, f->n[1], f->sum[1]);
        snprintf(w, sizeof w, "%.1f%%", 100 * f->worst);
        const char *base = strrchr(f->vt->file, '/') ? strrchr(f->vt->file, '/') + 1 : f->vt->file;
        const char *cells[] = {base, f->role, f->op, rk, nd, b0, b1, w};
        cs_table_add_row(t, cells);
    }
    printf("Collective model (closed form, as clustersim collective) against nccl-tests/rccl-tests logs\n"
           "(out-of-place bus bandwidth, error = predicted / measured - 1, rows of at least 1 MiB)\n\n");
    cs_table_write(t, stdout, 0);
    cs_table_destroy(t);
    printf("\n");
    static const char *const roles[2] = {"fit:", "holdout:"};
    for (int r = 0; r < 2; r++) {
        char b[CS_APP_CVAL_BANDS][48];
        for (int k = 0; k < CS_APP_CVAL_BANDS; k++)
            cs__pct(b[k], sizeof b[k], v->agg[r].n[k], v->agg[r].sum[k]);
        printf("%-9s %2d logs: MAPE %s %s, %s %s\n", roles[r], v->agg[r].logs, cs__band_names[0], b[0],
               cs__band_names[1], b[1]);
    }
    /* Which held-out logs carry the figure: a few logs far off (a system
     * that was not healthy when measured) can hold a band above its target
     * whatever the model predicts for the others. */
    printf("\nholdout, the logs that add most to each MAPE (points; in brackets the MAPE that would\n"
           "remain were every other held-out log predicted exactly):\n");
    for (int b = 0; b < CS_APP_CVAL_BANDS; b++) {
        int idx[3];
        int k = cs_app_cval_largest(v, 1, b, 3, idx);
        double acc = 0.0;
        if (k == 0)
            printf("  %-10s none\n", cs__band_names[b]);
        for (int j = 0; j < k; j++) {
            const struct cs_app_cval_file *f = &v->files[idx[j]];
            const char *base = strrchr(f->vt->file, '/') ? strrchr(f->vt->file, '/') + 1 : f->vt->file;
            double pts = 100.0 * f->sum[b] / v->agg[1].n[b];
            acc += pts;
            printf("  %-10s %5.1f  (%5.1f%%)  %s\n", j ? "" : cs__band_names[b], pts, acc, base);
        }
    }
    int excl = v->agg[0].excluded + v->agg[1].excluded;
    if (excl) {
        printf("\nleft out: %d row%s whose out-of-place and in-place bus bandwidths differ by more than "
               "%gx (a timing glitch):\n", excl, excl == 1 ? "" : "s", CS_APP_CVAL_GLITCH);
        for (int i = 0; i < v->nfiles; i++)
            if (v->files[i].expressible && v->files[i].st == CS_OK && v->files[i].excluded)
                printf("  %s: %d\n", v->files[i].vt->file, v->files[i].excluded);
    }
    if (v->failed) {
        printf("\nnot compared (failed):\n");
        for (int i = 0; i < v->nfiles; i++)
            if (v->files[i].expressible && v->files[i].st != CS_OK) {
                char *why = cs__reason(&v->files[i]);
                printf("  %s: %s\n", v->files[i].vt->file, why);
                free(why);
            }
    }
    if (v->not_expressible) {
        printf("\nnot expressible (%d logs; features to build):\n", v->not_expressible);
        for (int i = 0; i < v->nfiles; i++)
            if (!v->files[i].expressible)
                printf("  %s: %s\n", v->files[i].vt->file,
                       v->files[i].vt->not_expressible ? v->files[i].vt->not_expressible : "no scenario");
    }
    return CS_EXIT_OK;
}


/* `--scenario FILE:LINE`: the row's scenario text as the reader wrote it,
 * with the micro-batch and recomputation the prediction chose in place of
 * the reader's placeholders, so `clustersim run` on it reproduces the
 * row's prediction (a test checks that). */
static int cs__vr_scenario(const struct cs_app_validate *v, const char *which)
{
    const char *colon = strrchr(which, ':');
    char *end = NULL;
    long line = colon ? strtol(colon + 1, &end, 10) : 0;
    if (!colon || colon == which || !end || *end || line < 1) {
        fprintf(stderr, "clustersim validate-refs: --scenario: expected FILE:LINE (as the first "
                        "column prints it, e.g. mbridge-25.11-moe.csv:52), got \"%s\"\n", which);
        return CS_EXIT_BADINPUT;
    }
    size_t flen = (size_t)(colon - which);
    for (size_t i = 0; i < v->nrows; i++) {
        const struct cs_app_val_row *r = &v->rows[i];
        const struct cs_ref_case *c = r->c;
        if (c->line != line || strlen(c->file) != flen || strncmp(c->file, which, flen) != 0)
            continue;
        if (c->not_expressible[0] || !c->text) {
            fprintf(stderr, "clustersim validate-refs: %s: not expressible: %s\n", which,
                    c->not_expressible[0] ? c->not_expressible : "no scenario");
            return CS_EXIT_BADINPUT;
        }
        printf("# %s:%d (%s), written by clustersim validate-refs --scenario\n", c->file, c->line,
               c->label);
        printf("# measured %.6g %s", c->measured, cs_ref_metric_name(c->metric));
        if (r->st == CS_OK)
            printf(", predicted %.6g (%+.1f%%)\n", r->pred, 100 * r->err);
        else
            printf(", not predicted: %s\n", cs_strerror(r->st));
        if (c->search_micro_batch || c->search_recompute)
            printf("# searched by the reader (not stated by the row):%s%s\n",
                   c->search_micro_batch ? " micro_batch" : "",
                   c->search_recompute ? " recompute" : "");
        const char *p = c->text;
        while (*p) {
            const char *nl = strchr(p, '\n');
            size_t len = nl ? (size_t)(nl - p) : strlen(p);
            if (r->st == CS_OK && len >= 14 && strncmp(p, "  micro_batch:", 14) == 0) {
                printf("  micro_batch: %d\n", r->micro_batch);
            } else if (r->st == CS_OK && len >= 12 && strncmp(p, "  recompute:", 12) == 0) {
                printf("  recompute: %s\n", cs_recompute_name(r->recompute));
                if (r->recompute_layers > 0)
                    printf("  recompute_layers: %d\n", r->recompute_layers);
                if (r->offload_layers > 0)
                    printf("  activation_offload_layers: %d\n", r->offload_layers);
            } else if (r->st == CS_OK && ((len >= 19 && strncmp(p, "  recompute_layers:", 19) == 0) ||
                                          (len >= 28 && strncmp(p, "  activation_offload_layers:", 28) == 0))) {
                /* printed with the recompute line above */
            } else {
                printf("%.*s\n", (int)len, p);
            }
            p += len + (nl ? 1 : 0);
        }
        return CS_EXIT_OK;
    }
    fprintf(stderr, "clustersim validate-refs: --scenario: no row %s in the tables compared "
                    "(the first column of the table output names them)\n", which);
    return CS_EXIT_BADINPUT;
}

static int cs__vr(const struct cs_cli_cmd *cmd, const struct cs_cli_args *a)
{
    enum cs_cli_format fmt;
    if (!cs_cli_format(cs_cli_get(cmd, a, "format"), &fmt))
        return CS_EXIT_BADINPUT;
    const char *catdir = cs_cli_get(cmd, a, "catalog");
    if (!catdir)
        catdir = cs_catalog_default_dir();
    cs_diags d;
    cs_diags_init(&d);
    cs_catalog *cat = NULL;
    if (cs_catalog_load_dir(catdir, &d, &cat) != CS_OK) {
        cs_cli_print_diags_for(&d, catdir);
        cs_diags_fini(&d);
        return CS_EXIT_BADINPUT;
    }
    bool coll = cs_cli_get(cmd, a, "collectives") != NULL, epd = cs_cli_get(cmd, a, "ep-dispatch") != NULL;
    if (coll || epd) {
        /* the index's own measurement files, no step tables */
        const char *why = coll && epd        ? "--collectives and --ep-dispatch are two reports: give one"
                          : a->npos > 0 && coll ? "--collectives reads the index's logs: no files"
                          : a->npos > 0         ? "--ep-dispatch reads the index's tables: no files"
                                                : NULL;
        int rc = CS_EXIT_BADINPUT;
        if (why) {
            fprintf(stderr, "clustersim validate-refs: %s\n", why);
        } else if (coll) {
            struct cs_app_cval cv;
            cs_status cst = cs_app_validate_collectives(cat, &d, &cv);
            cs_cli_print_diags(&d);
            if (cst == CS_OK)
                rc = cs__vr_collectives(&cv, fmt);
            cs_app_cval_fini(&cv);
        } else {
            struct cs_app_epval ev;
            cs_status est = cs_app_validate_ep_dispatch(cat, &d, &ev);
            cs_cli_print_diags(&d);
            if (est == CS_OK)
                rc = cs__vr_ep_dispatch(&ev, fmt);
            cs_app_epval_fini(&ev);
        }
        cs_diags_fini(&d);
        cs_catalog_destroy(cat);
        return rc;
    }
    if (a->npos > CS__MAX_FILES) {
        fprintf(stderr, "clustersim validate-refs: at most %d files\n", CS__MAX_FILES);
        cs_catalog_destroy(cat);
        return CS_EXIT_BADINPUT;
    }
    /* Index, tables, every row predicted (app/validate.c). */
    struct cs_app_validate v;
    cs_status vst = cs_app_validate(cat, a->pos, a->npos, &d, &v);
    cs_cli_print_diags(&d);
    cs_diags_fini(&d);
    if (vst != CS_OK) {
        cs_app_validate_fini(&v);
        cs_catalog_destroy(cat);
        return CS_EXIT_BADINPUT;
    }
    const char *which = cs_cli_get(cmd, a, "scenario");
    if (which) {
        int src = cs__vr_scenario(&v, which);
        cs_app_validate_fini(&v);
        cs_catalog_destroy(cat);
        return src;
    }
    const struct cs_valindex ix = v.ix;
    const bool have_ix = v.have_ix;
    const struct cs_app_val_agg *agg = v.agg;
    bool ok = v.ok;

    cJSON *root = cJSON_CreateObject();
    cJSON *rows = cJSON_AddArrayToObject(root, "rows");
    const char *hdr[] = {"file:line", "case", "metric", ">measured", ">predicted", ">error",
                         "mb", "recompute", "role"};
    cs_table *t = cs_table_create(9, hdr);
    if (fmt == CS_FMT_CSV)
        printf("file,line,case,metric,measured,predicted,error,micro_batch,recompute,role,"
               "not_predicted\n");
    for (int f = 0; f < v.nfiles; f++) {
        const struct cs_app_val_file *vf = &v.files[f];
        const char *base = vf->base, *role = vf->role;
        for (size_t i = vf->first_row; i < vf->first_row + vf->nrows; i++) {
            const struct cs_app_val_row *vr = &v.rows[i];
            const struct cs_ref_case *c = vr->c;
            cs_cli_print_diags_for(&vr->diags, c->file);
            cs_status st = vr->st;
            double pred = vr->pred, err = vr->err;
            char fl[300], ms[32], ps[32], es[32], mb[16];
            snprintf(fl, sizeof fl, "%s:%d", c->file, c->line);
            cs_fmt_g4(c->measured, ms, sizeof ms);
            if (st == CS_OK)
                cs_fmt_g4(pred, ps, sizeof ps);
            else
                snprintf(ps, sizeof ps, "n/a");
            if (c->not_expressible[0])
                snprintf(mb, sizeof mb, "-");
            if (st == CS_OK)
                snprintf(es, sizeof es, "%+.1f%%", 100 * err);
            else if (c->not_expressible[0])
                snprintf(es, sizeof es, "not expressible");
            else
                snprintf(es, sizeof es, "%s", cs_strerror(st));
            if (!c->not_expressible[0])
                snprintf(mb, sizeof mb, "%d", vr->micro_batch);
            else if (!isfinite(c->measured))
                snprintf(ms, sizeof ms, "-");
            char rcs[32];
            if (c->not_expressible[0])
                snprintf(rcs, sizeof rcs, "-");
            else if (vr->offload_layers > 0)
                snprintf(rcs, sizeof rcs, "off:%d", vr->offload_layers);
            else if (vr->recompute == CS_RECOMPUTE_FULL && vr->recompute_layers > 0)
                snprintf(rcs, sizeof rcs, "full:%d", vr->recompute_layers);
            else
                snprintf(rcs, sizeof rcs, "%s", cs_recompute_name(vr->recompute));
            /* a row its source flags is shown, and labelled, but not scored */
            const char *rrole = c->flagged[0] ? "flagged" : role;
            const char *cells[] = {fl, c->label, cs_ref_metric_name(c->metric), ms, ps, es, mb,
                                   rcs, rrole};
            cs_table_add_row(t, cells);
            if (fmt == CS_FMT_CSV) {
                cs_csv_fput_text(stdout, c->file, false);
                printf(",%d,", c->line);
                cs_csv_fput_text(stdout, c->label, true);
                /* a value that was not measured or not predicted is an empty
                 * cell; why, in the last column */
                printf(",%s,", cs_ref_metric_name(c->metric));
                const double nums[3] = {c->measured, pred, err};
                for (int k = 0; k < 3; k++) {
                    if (isfinite(nums[k]))
                        printf("%.6g", nums[k]);
                    putchar(',');
                }
                printf("%d,%s,%s,", vr->micro_batch, rcs, rrole);
                /* a flagged row is predicted: its role cell says flagged */
                cs_csv_fput_text(stdout,
                                 c->not_expressible[0] ? c->not_expressible
                                                       : st == CS_OK ? "" : cs_strerror(st),
                                 false);
                putchar('\n');
            }
            cJSON *o2 = cJSON_CreateObject();
            cJSON_AddStringToObject(o2, "file", c->file);
            cJSON_AddNumberToObject(o2, "line", c->line);
            cJSON_AddStringToObject(o2, "case", c->label);
            cJSON_AddStringToObject(o2, "metric", cs_ref_metric_name(c->metric));
            cJSON_AddNumberToObject(o2, "measured", c->measured);
            if (st == CS_OK) {
                cJSON_AddNumberToObject(o2, "predicted", pred);
                cJSON_AddNumberToObject(o2, "error", err);
            } else {
                cJSON_AddNullToObject(o2, "predicted");
                cJSON_AddNullToObject(o2, "error");
            }
            cJSON_AddNumberToObject(o2, "micro_batch", vr->micro_batch);
            cJSON_AddStringToObject(o2, "recompute", cs_recompute_name(vr->recompute));
            cJSON_AddNumberToObject(o2, "recompute_layers", vr->recompute_layers);
            cJSON_AddNumberToObject(o2, "offload_layers", vr->offload_layers);
            cJSON_AddStringToObject(o2, "role", role);
            if (c->not_expressible[0])
                cJSON_AddStringToObject(o2, "not_expressible", c->not_expressible);
            if (c->flagged[0])
                cJSON_AddStringToObject(o2, "flagged", c->flagged);
            cJSON_AddItemToArray(rows, o2);
        }
        char ms[32], ws[32], cn[16];
        snprintf(ms, sizeof ms, "%.1f%%", 100 * vf->mape);
        snprintf(ws, sizeof ws, "%.1f%%", 100 * vf->worst);
        snprintf(cn, sizeof cn, "%d rows", vf->cnt);
        if (vf->cnt == 0) {
            snprintf(ms, sizeof ms, "-");
            snprintf(ws, sizeof ws, "-");
        }
        const char *cells[] = {base, "MAPE (mean |error|)", cn, "", "", ms, "worst", ws, role};
        cs_table_add_row(t, cells);
        cJSON *fo = cJSON_CreateObject();
        cJSON_AddStringToObject(fo, "file", base);
        cJSON_AddStringToObject(fo, "role", role);
        cJSON_AddNumberToObject(fo, "rows", vf->cnt);
        cJSON_AddNumberToObject(fo, "not_expressible", vf->not_expressible);
        cJSON_AddNumberToObject(fo, "flagged", vf->flagged);
        if (vf->cnt) {
            cJSON_AddNumberToObject(fo, "mape", vf->mape);
            cJSON_AddNumberToObject(fo, "worst", vf->worst);
        } else {
            cJSON_AddNullToObject(fo, "mape");
            cJSON_AddNullToObject(fo, "worst");
        }
        cJSON_AddItemToArray(cJSON_AddArrayToObject(root, base), fo);
    }
    if (fmt == CS_FMT_TEXT) {
        printf("Step model against published measurements (error = predicted/measured - 1)\n\n");
        cs_table_write(t, stdout, 0);
        printf("\nroles from %s (fit: global parameters were fitted on it; holdout: never)\n",
               have_ix ? ix.path : "no index");
        cs__agg_text("fit:", &agg[0]);
        if (agg[5].files > 0)
            cs__agg_text("fit small-work:", &agg[5]);
        cs__agg_text("holdout:", &agg[1]);
        if (agg[2].files > 0)
            cs__agg_text("holdout MoE:", &agg[2]);
        if (agg[3].files > 0)
            cs__agg_text("holdout small-work:", &agg[3]);
        if (agg[4].files > 0)
            cs__agg_text("holdout memory:", &agg[4]);
        cs__pairs_text(&v);
        cs__host_over_text(&v);
        cs__not_expressible_text(&v);
        cs__flagged_text(&v);
        printf("\ntolerance: MAPE <= 10%% per file, every row within 25%%: %s\n",
               ok ? "met" : "NOT met");
    } else if (fmt == CS_FMT_JSON) {
        cJSON *sum = cJSON_AddObjectToObject(root, "summary");
        cs__agg_json(sum, "fit", &agg[0]);
        cs__agg_json(sum, "fit_small_work", &agg[5]);
        cs__agg_json(sum, "holdout", &agg[1]);
        cs__agg_json(sum, "holdout_moe", &agg[2]);
        cs__agg_json(sum, "holdout_small_work", &agg[3]);
        cs__agg_json(sum, "holdout_memory", &agg[4]);
        cJSON_AddNumberToObject(sum, "not_expressible",
                                agg[0].not_expressible + agg[1].not_expressible +
                                    agg[2].not_expressible + agg[3].not_expressible +
                                    agg[4].not_expressible + agg[5].not_expressible);
        cJSON_AddNumberToObject(sum, "flagged",
                                agg[0].flagged + agg[1].flagged + agg[2].flagged + agg[3].flagged +
                                    agg[4].flagged + agg[5].flagged);
        cs__pairs_json(sum, &v);
        cs__host_over_json(sum, &v);
        cJSON_AddBoolToObject(root, "within_tolerance", ok);
        char *txt = cJSON_Print(root);
        printf("%s\n", txt);
        cJSON_free(txt);
    }
    cJSON_Delete(root);
    cs_table_destroy(t);
    cs_app_validate_fini(&v);
    cs_catalog_destroy(cat);
    if (cs_cli_get(cmd, a, "check") && !ok)
        return CS_EXIT_FAIL;
    return CS_EXIT_OK;
}

const struct cs_cli_cmd cs_cmd_validate_refs = {
    "validate-refs",
    "validate-refs [options] [CSV...]",
    "compare the step and collective models with published measurements",
    "Without files: every step table that validation/INDEX.yaml in the data\n"
    "directory lists (clustersim --version names the directory, $CLUSTERSIM_DATA\n"
    "overrides it). Each table's role comes from the index: fit (global\n"
    "parameters were fitted on it) or holdout (never); a summary line is printed\n"
    "for each, and only the holdout line says how the model generalizes.\n"
    "The tables in the common schema (validation/step/SOURCES.md) take their\n"
    "stack, scale-out link, dropout and FLOP convention from their index entry.\n"
    "A table with a peak_memory_gib column (kind step-memory) is compared with\n"
    "the memory model's peak per GPU instead (summary line: holdout memory).\n"
    "Unstated settings follow one policy for every table (docs/validation.md):\n"
    "an empty micro-batch is searched over 1,2,4,8, an empty recomputation is\n"
    "the cheapest that fits (none, selective, full on the fewest layers per\n"
    "virtual stage, full). Rows the models cannot express yet are listed with\n"
    "their reason, never dropped. --collectives compares the collective model with the index's\n"
    "nccl-tests/rccl-tests logs, each on the cluster its entry names, in two\n"
    "size bands (>= 64 MiB, 1-64 MiB), leaving out rows whose out-of-place and\n"
    "in-place bus bandwidths differ by more than 2x (timing glitches, listed),\n"
    "and lists the logs not expressible yet; it names the three held-out logs\n"
    "that add most to each band's MAPE (points, and the MAPE that would remain\n"
    "were every other held-out log exact). Its json (`rows` per log, `largest`\n"
    "per band) and csv (one line per row) give each row's measured and\n"
    "predicted bus bandwidth, error and the algorithm and protocol the model\n"
    "chose.",
    cs__vr_opts,
    (int)(sizeof cs__vr_opts / sizeof cs__vr_opts[0]),
    cs__vr,
};
