/* valindex.c: reads validation/INDEX.yaml (config layer) into the list of
 * validation tables with their roles. */
#define _POSIX_C_SOURCE 200809L /* access */
#include "clustersim/config/valindex.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clustersim/base/datadir.h"
#include "clustersim/base/xmalloc.h"
#include "yamltree.h"

const char *cs_val_role_name(enum cs_val_role r)
{
    return r == CS_VAL_HOLDOUT ? "holdout" : "fit";
}

static const char *cs__base(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

void cs_valindex_fini(struct cs_valindex *ix)
{
    if (!ix)
        return;
    for (size_t i = 0; i < ix->n; i++) {
        free(ix->tables[i].file);
        free(ix->tables[i].kind);
        free(ix->tables[i].source);
        free(ix->tables[i].scenario);
        free(ix->tables[i].algo);
        free(ix->tables[i].op);
        free(ix->tables[i].not_expressible);
        free(ix->tables[i].nccl_env);
        free(ix->tables[i].stack);
        free(ix->tables[i].link);
        free(ix->tables[i].dropout);
        free(ix->tables[i].flops);
        free(ix->tables[i].moe_routing);
        free(ix->tables[i].grad_reduce);
        free(ix->tables[i].workload_flags);
        free(ix->tables[i].cross_entropy);
        free(ix->tables[i].nics_per_node);
        free(ix->tables[i].flagged_lines);
        free(ix->tables[i].flagged_reason);
    }
    free(ix->tables);
    free(ix->path);
    free(ix->dir);
    memset(ix, 0, sizeof *ix);
}

const struct cs_val_table *cs_valindex_find(const struct cs_valindex *ix, const char *base)
{
    for (size_t i = 0; i < ix->n; i++)
        if (strcmp(cs__base(ix->tables[i].file), base) == 0)
            return &ix->tables[i];
    return NULL;
}

/* A non-empty string scalar or an error at the node. */
static const char *cs__str(const struct cs_ynode *v, const char *key, cs_diags *d)
{
    if (!v || v->kind != CS_YNODE_SCALAR || cs_ynode_is_null(v) || v->len == 0) {
        cs_diag_error(d, v ? v->file : NULL, v ? v->line : 0, v ? v->col : 0,
                      "tables[].%s: expected a non-empty string, got %s", key,
                      v ? cs_ynode_describe(v) : "nothing");
        return NULL;
    }
    return v->scalar;
}

cs_status cs_valindex_load(const char *path, cs_diags *d, struct cs_valindex *out)
{
    cs_ydoc *doc = NULL;
    cs_status st = cs_ydoc_load_file(path, d, &doc);
    if (st != CS_OK)
        return st;
    size_t before = cs_diags_errors(d);
    const struct cs_ynode *root = cs_ydoc_root(doc);
    struct cs_valindex ix;
    memset(&ix, 0, sizeof ix);
    ix.path = cs_xstrdup(path);
    const char *slash = strrchr(path, '/');
    ix.dir = slash ? cs_xasprintf("%.*s", (int)(slash - path), path) : cs_xstrdup(".");
    const struct cs_ynode *tabs = root && root->kind == CS_YNODE_MAP ? cs_ynode_map_get(root, "tables") : NULL;
    if (!tabs || tabs->kind != CS_YNODE_SEQ) {
        cs_diag_error(d, path, root ? root->line : 1, root ? root->col : 1,
                      "tables: expected a list of {file, kind, role, source}");
    } else {
        ix.tables = cs_xcalloc(tabs->n ? tabs->n : 1, sizeof *ix.tables);
        for (size_t i = 0; i < tabs->n; i++) {
            const struct cs_ynode *e = tabs->items[i];
            if (e->kind != CS_YNODE_MAP) {
                cs_diag_error(d, e->file, e->line, e->col, "tables[%zu]: expected a mapping, got %s", i,
                              cs_ynode_describe(e));
                continue;
            }
            bool bad = false;
            for (size_t k = 0; k < e->n; k++) {
                const char *key = e->pairs[k].key->scalar;
                if (strcmp(key, "file") && strcmp(key, "kind") && strcmp(key, "role") && strcmp(key, "source") &&
                    strcmp(key, "scenario") && strcmp(key, "algo") && strcmp(key, "op") &&
                    strcmp(key, "not_expressible") && strcmp(key, "nccl_env") && strcmp(key, "stack") &&
                    strcmp(key, "link") && strcmp(key, "nics_per_node") && strcmp(key, "dropout") && strcmp(key, "flops") &&
                    strcmp(key, "moe_routing") && strcmp(key, "grad_reduce") &&
                    strcmp(key, "workload_flags") && strcmp(key, "cross_entropy") &&
                    strcmp(key, "flagged_lines") && strcmp(key, "flagged_reason")) {
                    cs_diag_error(d, e->pairs[k].key->file, e->pairs[k].key->line, e->pairs[k].key->col,
                                  "tables[%zu]: unknown key \"%s\" (expected file, kind, role, source, "
                                  "scenario, algo, op, not_expressible, nccl_env, stack, link, nics_per_node, "
                                  "dropout, flops, "
                                  "moe_routing, grad_reduce, workload_flags, cross_entropy, "
                                  "flagged_lines, flagged_reason)",
                                  i, key);
                    bad = true;
                }
            }
            const char *file = cs__str(cs_ynode_map_get(e, "file"), "file", d);
            const char *kind = cs__str(cs_ynode_map_get(e, "kind"), "kind", d);
            const struct cs_ynode *rn = cs_ynode_map_get(e, "role");
            const char *role = cs__str(rn, "role", d);
            const struct cs_ynode *sn = cs_ynode_map_get(e, "source");
            if (!file || !kind || !role || bad)
                continue;
            enum cs_val_role r;
            if (strcmp(role, "fit") == 0)
                r = CS_VAL_FIT;
            else if (strcmp(role, "holdout") == 0)
                r = CS_VAL_HOLDOUT;
            else {
                cs_diag_error(d, rn->file, rn->line, rn->col,
                              "tables[%zu].role: expected fit or holdout, got \"%s\"", i, role);
                continue;
            }
            if (cs_valindex_find(&ix, cs__base(file))) {
                cs_diag_error(d, e->file, e->line, e->col, "tables[%zu].file: \"%s\" is listed twice", i, file);
                continue;
            }
            char *full = cs_xasprintf("%s/%s", ix.dir, file);
            if (access(full, R_OK) != 0)
                cs_diag_error(d, e->file, e->line, e->col,
                              "tables[%zu].file: \"%s\" does not exist (looked for %s)", i, file, full);
            free(full);
            struct cs_val_table *t = &ix.tables[ix.n++];
            t->file = cs_xstrdup(file);
            t->kind = cs_xstrdup(kind);
            t->role = r;
            t->source = cs_xstrdup(sn && sn->kind == CS_YNODE_SCALAR && sn->scalar ? sn->scalar : "");
            t->line = e->line;
            static const char *const opt[] = {"scenario", "algo", "op", "not_expressible", "nccl_env",
                                              "stack", "link", "nics_per_node", "dropout", "flops", "moe_routing",
                                              "grad_reduce", "workload_flags", "cross_entropy",
                                              "flagged_lines", "flagged_reason"};
            char **dst[] = {&t->scenario, &t->algo, &t->op, &t->not_expressible, &t->nccl_env,
                            &t->stack, &t->link, &t->nics_per_node, &t->dropout, &t->flops, &t->moe_routing,
                            &t->grad_reduce, &t->workload_flags, &t->cross_entropy,
                            &t->flagged_lines, &t->flagged_reason};
            for (size_t k = 0; k < sizeof opt / sizeof opt[0]; k++) {
                const struct cs_ynode *on = cs_ynode_map_get(e, opt[k]);
                if (!on)
                    continue;
                const char *v = cs__str(on, opt[k], d);
                if (v)
                    *dst[k] = cs_xstrdup(v);
            }
            if (t->nics_per_node) {
                char *end = NULL;
                long v = strtol(t->nics_per_node, &end, 10);
                if (end == t->nics_per_node || *end || v < 1 || v > 64)
                    cs_diag_error(d, e->file, e->line, e->col,
                                  "tables[%zu].nics_per_node: expected a whole number of NICs from "
                                  "1 to 64, got \"%s\"",
                                  i, t->nics_per_node);
            }
            if (t->flagged_lines || t->flagged_reason) {
                /* line numbers (positive integers, space-separated) and a
                 * reason, both or neither */
                const char *q = t->flagged_lines ? t->flagged_lines : "";
                bool ok = t->flagged_lines && t->flagged_reason && t->flagged_reason[0];
                int count = 0;
                while (ok && *q) {
                    while (*q == ' ')
                        q++;
                    if (!*q)
                        break;
                    char *end = NULL;
                    long v = strtol(q, &end, 10);
                    if (end == q || v < 1 || v > 100000000 || (*end && *end != ' '))
                        ok = false;
                    else
                        count++;
                    q = end;
                }
                if (!ok || count == 0)
                    cs_diag_error(d, e->file, e->line, e->col,
                                  "tables[%zu]: flagged_lines expects line numbers of the file "
                                  "(positive integers separated by spaces) together with a "
                                  "non-empty flagged_reason",
                                  i);
            }
            if (t->scenario) {
                char *sp = cs_xasprintf("%s/%s", ix.dir, t->scenario);
                if (access(sp, R_OK) != 0)
                    cs_diag_error(d, e->file, e->line, e->col,
                                  "tables[%zu].scenario: \"%s\" does not exist (looked for %s)", i, t->scenario, sp);
                free(sp);
            }
        }
    }
    cs_ydoc_destroy(doc);
    if (cs_diags_errors(d) > before) {
        cs_valindex_fini(&ix);
        return CS_ECONFIG;
    }
    *out = ix;
    return CS_OK;
}

cs_status cs_valindex_load_data(cs_diags *d, struct cs_valindex *out)
{
    char *path = cs_data_path("validation/INDEX.yaml");
    cs_status st = cs_valindex_load(path, d, out);
    free(path);
    return st;
}
