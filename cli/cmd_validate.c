/* cmd_validate.c: `clustersim validate FILE...`: check scenarios and show
 * every resolved value with where it came from (file:line, catalog, default). */
#include "cli.h"

#include "clustersim/base/csv.h"

#include "clustersim/config/fileio.h"
#include "clustersim/models/calib.h"
#include "clustersim/report/table.h"

#include <cjson/cJSON.h>
#include <string.h>

static const struct cs_cli_opt cs__val_opts[] = {
    {"format", 'f', "FMT", "output format: text (default), json or csv"},
    {"quiet", 'q', NULL, "only check; print nothing but errors"},
    CS_CLI_OPT_CATALOG,
    CS_CLI_OPT_SET,
};

static void cs__print(const struct cs_provenance *p, enum cs_cli_format fmt, const char *path)
{
    if (fmt == CS_FMT_JSON) {
        cJSON *root = cJSON_CreateObject();
        cJSON_AddStringToObject(root, "file", path);
        cJSON_AddBoolToObject(root, "valid", 1);
        cJSON *arr = cJSON_AddArrayToObject(root, "values");
        for (size_t i = 0; i < p->n; i++) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "key", p->items[i].path);
            cJSON_AddStringToObject(o, "value", p->items[i].value ? p->items[i].value : "");
            cJSON_AddStringToObject(o, "origin", p->items[i].origin ? p->items[i].origin : "");
            cJSON_AddItemToArray(arr, o);
        }
        char *txt = cJSON_Print(root);
        printf("%s\n", txt);
        cJSON_free(txt);
        cJSON_Delete(root);
        return;
    }
    if (fmt == CS_FMT_CSV) {
        printf("key,value,origin\n");
        for (size_t i = 0; i < p->n; i++) {
            cs_csv_fput_text(stdout, p->items[i].path, false);
            putchar(',');
            const char *val = p->items[i].value ? p->items[i].value : "";
            /* Booleans as every CSV writes them: true / false (the YAML
             * reader also takes True and TRUE). */
            if (!strcmp(val, "True") || !strcmp(val, "TRUE"))
                val = "true";
            else if (!strcmp(val, "False") || !strcmp(val, "FALSE"))
                val = "false";
            cs_csv_fput_text(stdout, val, true);
            putchar(',');
            cs_csv_fput_text(stdout, p->items[i].origin ? p->items[i].origin : "", true);
            putchar('\n');
        }
        return;
    }
    printf("%s: valid\n\n", path);
    const char *hdr[] = {"key", "value", "from"};
    cs_table *t = cs_table_create(3, hdr);
    for (size_t i = 0; i < p->n; i++) {
        const char *cells[] = {p->items[i].path, p->items[i].value, p->items[i].origin};
        cs_table_add_row(t, cells);
    }
    cs_table_write(t, stdout, 2);
    cs_table_destroy(t);
}

static int cs__validate(const struct cs_cli_cmd *cmd, const struct cs_cli_args *a)
{
    enum cs_cli_format fmt;
    if (!cs_cli_format(cs_cli_get(cmd, a, "format"), &fmt))
        return CS_EXIT_BADINPUT;
    if (a->npos < 1) {
        fprintf(stderr, "clustersim validate: expected at least one scenario FILE\n");
        return CS_EXIT_BADINPUT;
    }
    bool quiet = cs_cli_get(cmd, a, "quiet") != NULL;
    int worst = CS_EXIT_OK;
    for (int i = 0; i < a->npos; i++) {
        struct cs_cli_scenario sc;
        int rc = cs_cli_load_scenario(a->pos[i], cs_cli_get(cmd, a, "catalog"), a, &sc);
        if (rc != CS_EXIT_OK) {
            worst = rc;
            continue;
        }
        /* The loader has checked the workload with the step model's rules
         * (cs_step_rules, with file positions): nothing more to check here. */
        if (!quiet && worst == CS_EXIT_OK)
            cs__print(&sc.prov, fmt, cs_path_display(a->pos[i]));
        cs_cli_scenario_fini(&sc);
    }
    return worst;
}

const struct cs_cli_cmd cs_cmd_validate = {
    "validate",
    "validate [options] FILE...",
    "check scenarios and show every resolved value and where it came from",
    "Loads each scenario with its includes and the hardware catalog, reports\n"
    "every error with file:line:col, and prints the resolved values with their\n"
    "origin: the file and line that set them, the catalog entry (with its\n"
    "source and date), or 'default'. Exit status 2 when a file is invalid.",
    cs__val_opts,
    (int)(sizeof cs__val_opts / sizeof cs__val_opts[0]),
    cs__validate,
};
