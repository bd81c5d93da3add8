/* cmd_claims.c: `clustersim claims`: every bundled seed claim
 * (scenarios/claims/INDEX.yaml) run through the command that reproduces it,
 * one table of verdicts (app/claims.c; docs/claims.md). */
#include "cli.h"

#include "clustersim/app/claims.h"
#include "clustersim/base/datadir.h"
#include "clustersim/base/xmalloc.h"
#include "clustersim/config/claimindex.h"
#include "clustersim/report/run_report.h"
#include "clustersim/report/table.h"

#include <stdlib.h>
#include <string.h>

static const struct cs_cli_opt cs__claims_opts[] = {
    {"format", 'f', "FMT", "output format: text (default) or json"},
    {"only", 0, "ID", "only the claim with this id (as in CLAIMS.md, e.g. N4)"},
    {"index", 0, "FILE", "the claims index (default: DATA/scenarios/claims/INDEX.yaml)"},
    {"output", 'o', "DIR", "write claims.txt / claims.json into DIR instead of stdout"},
    CS_CLI_OPT_CATALOG,
};

static void cs__text(FILE *fp, const char *index, const struct cs_claims_result *r)
{
    size_t ids = 0;
    for (size_t i = 0; i < r->n; i++) {
        bool seen = false;
        for (size_t k = 0; k < i && !seen; k++)
            seen = strcmp(r->rows[k].id, r->rows[i].id) == 0;
        ids += !seen;
    }
    fprintf(fp, "clustersim %s: %zu claim%s of %s, %zu row%s\n\n", CLUSTERSIM_VERSION, ids, ids == 1 ? "" : "s",
            index, r->n, r->n == 1 ? "" : "s");
    static const char *const h[] = {"id", "claim", "claimed", "clustersim", "verdict", "command"};
    cs_table *t = cs_table_create(6, h);
    int count[4] = {0, 0, 0, 0};
    for (size_t i = 0; i < r->n; i++) {
        const struct cs_claims_row *w = &r->rows[i];
        const char *cells[6] = {w->id,  w->part[0] ? w->part : w->text, w->claimed, w->simulated,
                                cs_claims_verdict_name(w->verdict), w->command[0] ? w->command : "-"};
        cs_table_add_row(t, cells);
        if ((unsigned)w->verdict < 4)
            count[w->verdict]++;
    }
    cs_table_write(t, fp, 0);
    cs_table_destroy(t);
    fprintf(fp, "\n%d supported, %d contradicted, %d direction-holds, %d not-expressible\n",
            count[CS_CLAIMS_SUPPORTED], count[CS_CLAIMS_CONTRADICTED], count[CS_CLAIMS_DIRECTION_HOLDS],
            count[CS_CLAIMS_NOT_EXPRESSIBLE]);
    bool any = false;
    for (size_t i = 0; i < r->n; i++) {
        const struct cs_claims_row *w = &r->rows[i];
        if (!w->reason[0])
            continue;
        if (!any)
            fprintf(fp, "\nNotes:\n");
        any = true;
        fprintf(fp, "  %s%s%s: %s\n", w->id, w->part[0] ? " " : "", w->part[0] ? w->part : "", w->reason);
    }
}

static cJSON *cs__json(const char *index, const struct cs_claims_result *r)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "clustersim_version", CLUSTERSIM_VERSION);
    cJSON_AddStringToObject(root, "index", index);
    cJSON *a = cJSON_AddArrayToObject(root, "claims");
    for (size_t i = 0; i < r->n; i++) {
        const struct cs_claims_row *w = &r->rows[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "id", w->id);
        cJSON_AddStringToObject(o, "text", w->text);
        if (w->part[0])
            cJSON_AddStringToObject(o, "part", w->part);
        cJSON_AddStringToObject(o, "claimed", w->claimed);
        cJSON_AddStringToObject(o, "simulated", w->simulated);
        cJSON_AddStringToObject(o, "verdict", cs_claims_verdict_name(w->verdict));
        if (w->judge[0])
            cJSON_AddStringToObject(o, "judge", w->judge);
        cJSON_AddStringToObject(o, "command", w->command);
        if (w->reason[0])
            cJSON_AddStringToObject(o, "reason", w->reason);
        cJSON_AddItemToArray(a, o);
    }
    return root;
}

static int cs__claims(const struct cs_cli_cmd *cmd, const struct cs_cli_args *a)
{
    enum cs_cli_format fmt;
    if (!cs_cli_format(cs_cli_get(cmd, a, "format"), &fmt))
        return CS_EXIT_BADINPUT;
    if (fmt == CS_FMT_CSV) {
        fprintf(stderr, "clustersim claims: --format: expected text or json, got \"csv\"\n");
        return CS_EXIT_BADINPUT;
    }
    if (a->npos != 0) {
        fprintf(stderr, "clustersim claims: takes no FILE (the claims are listed in the index; see "
                        "'clustersim help claims')\n");
        return CS_EXIT_BADINPUT;
    }
    const char *given = cs_cli_get(cmd, a, "index");
    char *path = given ? NULL : cs_data_path("scenarios/claims/INDEX.yaml");
    const char *ixpath = given ? given : path;
    /* the commands name the bundled files as the source tree does (paths
     * relative to the data directory); a given index, as given */
    char *ddir = NULL;
    if (given) {
        const char *slash = strrchr(given, '/');
        ddir = slash ? cs_xstrndup(given, (size_t)(slash - given)) : cs_xstrdup(".");
    } else {
        ddir = cs_xstrdup("scenarios/claims");
    }
    const char *shown = given ? given : "scenarios/claims/INDEX.yaml";
    int rc = CS_EXIT_OK;
    cs_diags d;
    cs_diags_init(&d);
    struct cs_claimix ix;
    cs_catalog *cat = NULL;
    struct cs_claims_result res = {NULL, 0};
    cs_status st = cs_claimix_load(ixpath, &d, &ix);
    cs_cli_print_diags_for(&d, ixpath);
    cs_diags_fini(&d);
    if (st != CS_OK) {
        if (st == CS_EIO)
            fprintf(stderr, "clustersim claims: cannot read the claims index %s\n", ixpath);
        free(path);
        free(ddir);
        return CS_EXIT_BADINPUT;
    }
    const char *catdir = cs_cli_get(cmd, a, "catalog");
    if (!catdir)
        catdir = cs_catalog_default_dir();
    cs_diags_init(&d);
    st = cs_catalog_load_dir(catdir, &d, &cat);
    cs_cli_print_diags_for(&d, catdir);
    cs_diags_fini(&d);
    if (st != CS_OK) {
        fprintf(stderr, "clustersim claims: cannot load the hardware catalog from %s: %s\n", catdir,
                cs_strerror(st));
        rc = CS_EXIT_BADINPUT;
        goto done;
    }
    cs_diags_init(&d);
    st = cs_app_claims_run(&ix, ddir, cat, cs_cli_get(cmd, a, "only"), &d, &res);
    cs_cli_print_diags_prefixed(&d, "clustersim claims");
    cs_diags_fini(&d);
    if (st != CS_OK) {
        rc = st == CS_EBUDGET ? CS_EXIT_FAIL : CS_EXIT_BADINPUT;
        goto done;
    }
    {
        struct cs_cli_out out;
        if (!cs_cli_out_open(&out, cs_cli_get(cmd, a, "output"),
                             fmt == CS_FMT_JSON ? "claims.json" : "claims.txt")) {
            rc = CS_EXIT_FAIL;
            goto done;
        }
        bool ok = true;
        if (fmt == CS_FMT_JSON) {
            cJSON *root = cs__json(shown, &res);
            ok = cs_out_json_write(out.fp, root);
            cJSON_Delete(root);
        } else {
            cs__text(out.fp, shown, &res);
        }
        if (ferror(out.fp))
            ok = false;
        if (!cs_cli_out_close(&out, ok))
            rc = CS_EXIT_FAIL;
    }
done:
    cs_claims_result_fini(&res);
    cs_catalog_destroy(cat);
    cs_claimix_fini(&ix);
    free(path);
    free(ddir);
    return rc;
}

const struct cs_cli_cmd cs_cmd_claims = {
    "claims",
    "claims [options]",
    "put the seed articles' claims to the test: one table of verdicts",
    "Runs every claim of the claims index (scenarios/claims/INDEX.yaml in the data\n"
    "directory: the seed articles' quantitative claims, N1..N24) through the\n"
    "command that reproduces it (run, compare, tco, tco --table or replay) and\n"
    "prints one row per judged claim: its id, the seed's words, the figure\n"
    "claimed, clustersim's figure, the verdict and that command. Verdicts:\n"
    "supported (within the claim's tolerance or bound), contradicted (outside it),\n"
    "direction-holds (a ratio on the claimed side of 1 whose size is off), and\n"
    "not-expressible (the model cannot evaluate it; the notes say why). Each\n"
    "command's own judge decides (docs/claims.md); the claimed figures and\n"
    "tolerances are the scenarios' claim keys. Paths in the commands are relative\n"
    "to the data directory (clustersim --data-dir). A contradicted claim is a\n"
    "result, not a failure: the exit status is 0 unless a claim cannot be run.",
    cs__claims_opts,
    (int)(sizeof cs__claims_opts / sizeof cs__claims_opts[0]),
    cs__claims,
};
