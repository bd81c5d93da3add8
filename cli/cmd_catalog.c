/* cmd_catalog.c: `clustersim catalog [NAME]`: list the hardware and price
 * catalog, or show one entry with every field's source and date. */
#include "cli.h"

#include "clustersim/base/suggest.h"
#include "clustersim/report/table.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

static const struct cs_cli_opt cs__cat_opts[] = {
    {"kind", 'k', "KIND",
     "only this kind: gpu, link, intra, storage, site, cloud, switch, nic, optic or cable"},
    {"format", 'f', "FMT", "output format: text (default) or json"},
    CS_CLI_OPT_CATALOG,
};

static int cs__show(const cs_catalog *c, const char *name, enum cs_cli_format fmt)
{
    for (int k = 0; k < CS_CATALOG_KIND_COUNT; k++) {
        size_t n;
        const struct cs_catalog_field *f = cs_catalog_fields(c, (enum cs_catalog_kind)k, name, &n);
        if (!f)
            continue;
        struct cs_catalog_entry_info info;
        memset(&info, 0, sizeof info);
        for (size_t i = 0; i < cs_catalog_count(c, (enum cs_catalog_kind)k); i++) {
            cs_catalog_entry(c, (enum cs_catalog_kind)k, i, &info);
            if (strcmp(info.name, name) == 0)
                break;
        }
        if (fmt == CS_FMT_JSON) {
            cJSON *root = cJSON_CreateObject();
            cJSON_AddStringToObject(root, "name", name);
            cJSON_AddStringToObject(root, "kind", cs_catalog_kind_name((enum cs_catalog_kind)k));
            cJSON_AddStringToObject(root, "source", info.source);
            cJSON_AddStringToObject(root, "date", info.date);
            cJSON_AddBoolToObject(root, "estimate", info.estimate);
            cJSON *arr = cJSON_AddArrayToObject(root, "fields");
            for (size_t i = 0; i < n; i++) {
                cJSON *o = cJSON_CreateObject();
                cJSON_AddStringToObject(o, "key", f[i].key);
                cJSON_AddStringToObject(o, "value", f[i].value);
                cJSON_AddStringToObject(o, "source", f[i].source);
                cJSON_AddStringToObject(o, "date", f[i].date);
                cJSON_AddBoolToObject(o, "estimate", f[i].estimate);
                cJSON_AddItemToArray(arr, o);
            }
            char *txt = cJSON_Print(root);
            printf("%s\n", txt);
            cJSON_free(txt);
            cJSON_Delete(root);
            return CS_EXIT_OK;
        }
        printf("%s (%s), defined in %s:%d\n", name, cs_catalog_kind_name((enum cs_catalog_kind)k),
               info.file, info.line);
        printf("  source: %s%s%s%s\n", info.source, info.date[0] ? " (" : "", info.date,
               info.date[0] ? ")" : "");
        if (info.estimate)
            printf("  ESTIMATE: %s\n", info.basis);
        if (info.notes[0])
            printf("  notes: %s\n", info.notes);
        printf("\n");
        const char *hdr[] = {"field", "value", "source (date)"};
        cs_table *t = cs_table_create(3, hdr);
        for (size_t i = 0; i < n; i++) {
            char src[1200];
            snprintf(src, sizeof src, "%s%s%s%s%s%s", f[i].estimate ? "ESTIMATE " : "",
                     strcmp(f[i].source, info.source) == 0 ? "(entry source)" : f[i].source,
                     f[i].date[0] ? " (" : "", f[i].date, f[i].date[0] ? ")" : "",
                     f[i].basis[0] ? "" : "");
            const char *cells[] = {f[i].key, f[i].value, src};
            cs_table_add_row(t, cells);
        }
        cs_table_write(t, stdout, 2);
        cs_table_destroy(t);
        return CS_EXIT_OK;
    }
    /* Not found: suggest across every kind (a family first: "H100"). */
    char best[512];
    bool have = false;
    for (int k = 0; k < CS_CATALOG_KIND_COUNT && !have; k++) {
        size_t n;
        const char **names = cs_catalog_names(c, (enum cs_catalog_kind)k, &n);
        if (names)
            have = cs_suggest_phrase(name, names, n, best, sizeof best);
        free(names);
    }
    if (have)
        fprintf(stderr, "clustersim catalog: no entry named \"%s\" (%s)\n", name, best);
    else
        fprintf(stderr, "clustersim catalog: no entry named \"%s\" (run 'clustersim catalog' "
                        "for the list)\n", name);
    return CS_EXIT_BADINPUT;
}

static int cs__list(const cs_catalog *c, int only, enum cs_cli_format fmt)
{
    cJSON *root = fmt == CS_FMT_JSON ? cJSON_CreateArray() : NULL;
    for (int k = 0; k < CS_CATALOG_KIND_COUNT; k++) {
        if (only >= 0 && k != only)
            continue;
        size_t n = cs_catalog_count(c, (enum cs_catalog_kind)k);
        if (n == 0)
            continue;
        const char *kind = cs_catalog_kind_name((enum cs_catalog_kind)k);
        cs_table *t = NULL;
        if (!root) {
            printf("%s%s (%zu)\n", k && only < 0 ? "\n" : "", kind, n);
            const char *hdr[] = {"name", "date", "source"};
            t = cs_table_create(3, hdr);
        }
        for (size_t i = 0; i < n; i++) {
            struct cs_catalog_entry_info info;
            if (!cs_catalog_entry(c, (enum cs_catalog_kind)k, i, &info))
                continue;
            if (root) {
                cJSON *o = cJSON_CreateObject();
                cJSON_AddStringToObject(o, "kind", kind);
                cJSON_AddStringToObject(o, "name", info.name);
                cJSON_AddStringToObject(o, "date", info.date);
                cJSON_AddStringToObject(o, "source", info.source);
                cJSON_AddBoolToObject(o, "estimate", info.estimate);
                cJSON_AddItemToArray(root, o);
                continue;
            }
            char src[100];
            size_t len = strlen(info.source);
            snprintf(src, sizeof src, "%.*s%s", len > 90 ? 87 : (int)len, info.source,
                     len > 90 ? "..." : "");
            const char *cells[] = {info.name, info.date[0] ? info.date : "-", src};
            cs_table_add_row(t, cells);
        }
        if (t) {
            cs_table_write(t, stdout, 2);
            cs_table_destroy(t);
        }
    }
    if (root) {
        char *txt = cJSON_Print(root);
        printf("%s\n", txt);
        cJSON_free(txt);
        cJSON_Delete(root);
    } else {
        printf("\n'clustersim catalog NAME' shows an entry's fields with their sources.\n");
    }
    return CS_EXIT_OK;
}

static int cs__catalog(const struct cs_cli_cmd *cmd, const struct cs_cli_args *a)
{
    enum cs_cli_format fmt;
    if (!cs_cli_format(cs_cli_get(cmd, a, "format"), &fmt))
        return CS_EXIT_BADINPUT;
    if (fmt == CS_FMT_CSV) {
        fprintf(stderr, "clustersim catalog: --format csv is not supported (text or json)\n");
        return CS_EXIT_BADINPUT;
    }
    int only = -1;
    const char *kind = cs_cli_get(cmd, a, "kind");
    if (kind) {
        enum cs_catalog_kind k;
        if (cs_catalog_kind_parse(kind, &k) != CS_OK) {
            fprintf(stderr, "clustersim catalog: --kind: expected gpu, link, intra, storage, site "
                            "or cloud, got \"%s\"\n", kind);
            return CS_EXIT_BADINPUT;
        }
        only = (int)k;
    }
    if (a->npos > 1) {
        fprintf(stderr, "clustersim catalog: expected at most one NAME\n");
        return CS_EXIT_BADINPUT;
    }
    const char *dir = cs_cli_get(cmd, a, "catalog");
    if (!dir)
        dir = cs_catalog_default_dir();
    cs_diags d;
    cs_diags_init(&d);
    cs_catalog *c = NULL;
    cs_status st = cs_catalog_load_dir(dir, &d, &c);
    cs_cli_print_diags_for(&d, dir);
    cs_diags_fini(&d);
    if (st != CS_OK) {
        fprintf(stderr, "clustersim catalog: cannot load %s: %s\n", dir, cs_strerror(st));
        return CS_EXIT_BADINPUT;
    }
    int rc = a->npos == 1 ? cs__show(c, a->pos[0], fmt) : cs__list(c, only, fmt);
    cs_catalog_destroy(c);
    return rc;
}

const struct cs_cli_cmd cs_cmd_catalog = {
    "catalog",
    "catalog [options] [NAME]",
    "list the hardware and price catalog, or show one entry with its sources",
    "Without NAME: every entry by kind with its date and source. With NAME\n"
    "(e.g. H100-SXM5-80GB, ib-hdr, nvswitch): each field as written, with the\n"
    "field's source and date; estimates are marked.",
    cs__cat_opts,
    (int)(sizeof cs__cat_opts / sizeof cs__cat_opts[0]),
    cs__catalog,
};
