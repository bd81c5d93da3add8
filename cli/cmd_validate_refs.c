/* cmd_validate_refs.c: `clustersim validate-refs [CSV...]`: run the
 * published step-time measurements through the step model and print
 * predicted against measured, with the error per row and per file. */
#include "cli.h"

#include "clustersim/datadir.h"
#include "clustersim/refs.h"
#include "clustersim/table.h"
#include "clustersim/xmalloc.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct cs_cli_opt cs__vr_opts[] = {
    {"format", 'f', "FMT", "output format: text (default), json or csv"},
    {"check", 0, NULL, "exit 1 unless each file's MAPE <= 10% and every row <= 25%"},
    {"catalog", 0, "DIR", "hardware catalog directory (default: the bundled scenarios/catalog)"},
};

static const char *const cs__default_refs[] = {
    "megatron-sc21-a100-weak-scaling.csv",
    "korthikanti-2022-a100-iteration-times.csv",
    "megatron-core-h100-weak-scaling.csv",
};

#define CS__MAX_FILES 16

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
    char *paths[CS__MAX_FILES];
    int np = 0;
    if (a->npos > CS__MAX_FILES) {
        fprintf(stderr, "clustersim validate-refs: at most %d files\n", CS__MAX_FILES);
        cs_catalog_destroy(cat);
        return CS_EXIT_BADINPUT;
    }
    if (a->npos == 0) {
        for (size_t i = 0; i < sizeof cs__default_refs / sizeof *cs__default_refs; i++)
            paths[np++] = cs_xasprintf("%s/validation/step/%s", cs_data_dir(), cs__default_refs[i]);
    } else {
        for (int i = 0; i < a->npos; i++)
            paths[np++] = cs_xstrdup(a->pos[i]);
    }
    struct cs_ref_case *cases = NULL;
    size_t n = 0;
    int rc = CS_EXIT_OK;
    for (int i = 0; i < np; i++)
        if (cs_refs_load(paths[i], cat, &d, &cases, &n) != CS_OK)
            rc = CS_EXIT_BADINPUT;
    cs_cli_print_diags(&d);
    cs_diags_fini(&d);
    if (rc != CS_EXIT_OK) {
        cs_refs_free(cases, n);
        for (int i = 0; i < np; i++)
            free(paths[i]);
        cs_catalog_destroy(cat);
        return rc;
    }

    cJSON *root = cJSON_CreateObject();
    cJSON *rows = cJSON_AddArrayToObject(root, "rows");
    const char *hdr[] = {"file:line", "case", "metric", ">measured", ">predicted", ">error",
                         "mb", "recompute"};
    cs_table *t = cs_table_create(8, hdr);
    if (fmt == CS_FMT_CSV)
        printf("file,line,case,metric,measured,predicted,error,micro_batch,recompute\n");
    bool ok = true;
    for (int f = 0; f < np; f++) {
        const char *base = strrchr(paths[f], '/') ? strrchr(paths[f], '/') + 1 : paths[f];
        double sum = 0, worst = 0;
        int cnt = 0;
        for (size_t i = 0; i < n; i++) {
            const struct cs_ref_case *c = &cases[i];
            if (strcmp(c->file, base) != 0)
                continue;
            struct cs_step_options o;
            cs_refs_options(c, &o);
            cs_diags_init(&d);
            double pred = NAN;
            struct cs_step_result r;
            struct cs_workload w = c->scen.workload;
            cs_status st = cs_refs_predict(c, &o, &d, &pred, &r, &w);
            cs_cli_print_diags_for(&d, c->file);
            cs_diags_fini(&d);
            double err = st == CS_OK ? (pred - c->measured) / c->measured : NAN;
            if (st == CS_OK) {
                sum += fabs(err);
                worst = fabs(err) > worst ? fabs(err) : worst;
                cnt++;
            } else {
                ok = false;
            }
            char fl[300], ms[32], ps[32], es[32], mb[16];
            snprintf(fl, sizeof fl, "%s:%d", c->file, c->line);
            snprintf(ms, sizeof ms, "%.4g", c->measured);
            snprintf(ps, sizeof ps, st == CS_OK ? "%.4g" : "n/a", pred);
            if (st == CS_OK)
                snprintf(es, sizeof es, "%+.1f%%", 100 * err);
            else
                snprintf(es, sizeof es, "%s", cs_strerror(st));
            snprintf(mb, sizeof mb, "%d", w.micro_batch);
            const char *cells[] = {fl, c->label, cs_ref_metric_name(c->metric), ms, ps, es, mb,
                                   cs_recompute_name(w.recompute)};
            cs_table_add_row(t, cells);
            if (fmt == CS_FMT_CSV)
                printf("%s,%d,\"%s\",%s,%.6g,%.6g,%.6g,%d,%s\n", c->file, c->line, c->label,
                       cs_ref_metric_name(c->metric), c->measured, pred, err, w.micro_batch,
                       cs_recompute_name(w.recompute));
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
            cJSON_AddNumberToObject(o2, "micro_batch", w.micro_batch);
            cJSON_AddStringToObject(o2, "recompute", cs_recompute_name(w.recompute));
            cJSON_AddItemToArray(rows, o2);
        }
        double mape = cnt ? sum / cnt : NAN;
        if (!(mape <= 0.10) || worst > 0.25)
            ok = false;
        char ms[32], ws[32], cn[16];
        snprintf(ms, sizeof ms, "%.1f%%", 100 * mape);
        snprintf(ws, sizeof ws, "%.1f%%", 100 * worst);
        snprintf(cn, sizeof cn, "%d rows", cnt);
        const char *cells[] = {base, "MAPE (mean |error|)", cn, "", "", ms, "worst", ws};
        cs_table_add_row(t, cells);
        cJSON *fo = cJSON_CreateObject();
        cJSON_AddStringToObject(fo, "file", base);
        cJSON_AddNumberToObject(fo, "rows", cnt);
        cJSON_AddNumberToObject(fo, "mape", mape);
        cJSON_AddNumberToObject(fo, "worst", worst);
        cJSON_AddItemToArray(cJSON_AddArrayToObject(root, base), fo);
    }
    if (fmt == CS_FMT_TEXT) {
        printf("Step model against published measurements (error = predicted/measured - 1)\n\n");
        cs_table_write(t, stdout, 0);
        printf("\ntolerance: MAPE <= 10%% per file, every row within 25%%: %s\n",
               ok ? "met" : "NOT met");
    } else if (fmt == CS_FMT_JSON) {
        cJSON_AddBoolToObject(root, "within_tolerance", ok);
        char *txt = cJSON_Print(root);
        printf("%s\n", txt);
        cJSON_free(txt);
    }
    cJSON_Delete(root);
    cs_table_destroy(t);
    cs_refs_free(cases, n);
    for (int i = 0; i < np; i++)
        free(paths[i]);
    cs_catalog_destroy(cat);
    if (cs_cli_get(cmd, a, "check") && !ok)
        return CS_EXIT_FAIL;
    return CS_EXIT_OK;
}

const struct cs_cli_cmd cs_cmd_validate_refs = {
    "validate-refs",
    "validate-refs [options] [CSV...]",
    "compare the step model with published step-time measurements",
    "Without files: the three tables of validation/step/ in the data directory\n"
    "(Megatron SC21 Table 1, Korthikanti et al. 2022 Table 5, Megatron-Core H100;\n"
    "clustersim --version names the directory, $CLUSTERSIM_DATA overrides it).\n"
    "Unstated settings follow one policy\n"
    "per file (docs/step.md): micro-batch searched over 1,2,4,8, and for the\n"
    "H100 table the cheapest recomputation that fits.",
    cs__vr_opts,
    (int)(sizeof cs__vr_opts / sizeof cs__vr_opts[0]),
    cs__vr,
};
