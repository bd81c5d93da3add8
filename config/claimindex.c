/* claimindex.c: reads scenarios/claims/INDEX.yaml (config layer; contract in
 * clustersim/config/claimindex.h). */
#define _POSIX_C_SOURCE 200809L /* access */
#include "clustersim/config/claimindex.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clustersim/base/xmalloc.h"
#include "yamltree.h"

static const char *const cs__cmd_names[] = {"run", "compare", "tco", "tco-table", "replay", "none"};

const char *cs_claimix_cmd_name(enum cs_claimix_cmd c)
{
    return (unsigned)c <= CS_CLAIMIX_NONE ? cs__cmd_names[c] : "?";
}

static void cs__entry_free(struct cs_claimix_entry *e)
{
    free(e->id);
    free(e->text);
    for (size_t k = 0; k < e->n_files; k++)
        free(e->files[k]);
    free(e->trace);
    free(e->not_expressible);
    free(e->note);
}

void cs_claimix_fini(struct cs_claimix *ix)
{
    if (!ix)
        return;
    for (size_t i = 0; i < ix->n; i++)
        cs__entry_free(&ix->e[i]);
    free(ix->e);
    free(ix->path);
    free(ix->dir);
    memset(ix, 0, sizeof *ix);
}

/* A non-empty string scalar or an error at the node (or at the entry when
 * the key is missing). */
static char *cs__str(const struct cs_ynode *e, const char *key, size_t i, bool required, cs_diags *d)
{
    const struct cs_ynode *v = cs_ynode_map_get(e, key);
    if (!v) {
        if (required)
            cs_diag_error(d, e->file, e->line, e->col, "claims[%zu]: missing key \"%s\"", i, key);
        return NULL;
    }
    if (v->kind != CS_YNODE_SCALAR || cs_ynode_is_null(v) || v->len == 0 || strlen(v->scalar) != v->len) {
        cs_diag_error(d, v->file, v->line, v->col, "claims[%zu].%s: expected a non-empty string, got %s", i,
                      key, cs_ynode_describe(v));
        return NULL;
    }
    return cs_xstrdup(v->scalar);
}

/* The file exists beside the index, else an error at node v. */
static void cs__exists(const struct cs_claimix *ix, const struct cs_ynode *v, size_t i, const char *key,
                       const char *rel, cs_diags *d)
{
    char *full = rel[0] == '/' ? cs_xstrdup(rel) : cs_xasprintf("%s/%s", ix->dir, rel);
    if (access(full, R_OK) != 0)
        cs_diag_error(d, v->file, v->line, v->col, "claims[%zu].%s: \"%s\" does not exist (looked for %s)", i,
                      key, rel, full);
    free(full);
}

static void cs__entry(struct cs_claimix *ix, const struct cs_ynode *e, size_t i, cs_diags *d)
{
    static const char *const keys[] = {"id", "text", "command", "files", "trace", "not_expressible", "note"};
    size_t before = cs_diags_errors(d);
    for (size_t k = 0; k < e->n; k++) {
        const struct cs_ynode *kn = e->pairs[k].key;
        bool known = false;
        for (size_t j = 0; j < sizeof keys / sizeof keys[0]; j++)
            known |= strcmp(kn->scalar, keys[j]) == 0;
        if (!known)
            cs_diag_error(d, kn->file, kn->line, kn->col,
                          "claims[%zu]: unknown key \"%s\" (expected id, text, command, files, trace, "
                          "not_expressible, note)",
                          i, kn->scalar);
    }
    struct cs_claimix_entry en;
    memset(&en, 0, sizeof en);
    en.line = e->line;
    en.id = cs__str(e, "id", i, true, d);
    en.text = cs__str(e, "text", i, true, d);
    char *cmd = cs__str(e, "command", i, true, d);
    en.trace = cs__str(e, "trace", i, false, d);
    en.not_expressible = cs__str(e, "not_expressible", i, false, d);
    en.note = cs__str(e, "note", i, false, d);
    const struct cs_ynode *cn = cs_ynode_map_get(e, "command");
    int c = -1;
    if (cmd) {
        for (int j = 0; j <= CS_CLAIMIX_NONE; j++)
            if (strcmp(cmd, cs__cmd_names[j]) == 0)
                c = j;
        if (c < 0)
            cs_diag_error(d, cn->file, cn->line, cn->col,
                          "claims[%zu].command: expected run, compare, tco, tco-table, replay or none, got "
                          "\"%s\"",
                          i, cmd);
    }
    free(cmd);
    en.cmd = c < 0 ? CS_CLAIMIX_NONE : (enum cs_claimix_cmd)c;
    const struct cs_ynode *fn = cs_ynode_map_get(e, "files");
    if (fn) {
        if (fn->kind != CS_YNODE_SEQ || fn->n == 0 || fn->n > CS_CLAIMIX_MAX_FILES) {
            cs_diag_error(d, fn->file, fn->line, fn->col,
                          "claims[%zu].files: expected a list of 1 to %d scenario files, got %s", i,
                          CS_CLAIMIX_MAX_FILES, cs_ynode_describe(fn));
        } else {
            for (size_t k = 0; k < fn->n; k++) {
                const struct cs_ynode *v = fn->items[k];
                if (v->kind != CS_YNODE_SCALAR || cs_ynode_is_null(v) || v->len == 0 ||
                    strlen(v->scalar) != v->len) {
                    cs_diag_error(d, v->file, v->line, v->col,
                                  "claims[%zu].files[%zu]: expected a file name, got %s", i, k,
                                  cs_ynode_describe(v));
                    continue;
                }
                cs__exists(ix, v, i, "files", v->scalar, d);
                en.files[en.n_files++] = cs_xstrdup(v->scalar);
            }
        }
    }
    if (en.trace)
        cs__exists(ix, cs_ynode_map_get(e, "trace"), i, "trace", en.trace, d);
    if (c >= 0) {
        /* what each command takes */
        static const int min_files[] = {1, 2, 1, 2, 1, 0}, max_files[] = {2, CS_CLAIMIX_MAX_FILES, 1,
                                                                          CS_CLAIMIX_MAX_FILES, 1, 0};
        if (!fn && c != CS_CLAIMIX_NONE)
            cs_diag_error(d, e->file, e->line, e->col, "claims[%zu]: command %s needs `files`", i,
                          cs__cmd_names[c]);
        else if (fn && (en.n_files < (size_t)min_files[c] || en.n_files > (size_t)max_files[c]))
            cs_diag_error(d, fn->file, fn->line, fn->col,
                          "claims[%zu].files: command %s takes %d to %d files, got %zu", i, cs__cmd_names[c],
                          min_files[c], max_files[c], en.n_files);
        if (c == CS_CLAIMIX_REPLAY && !en.trace)
            cs_diag_error(d, e->file, e->line, e->col, "claims[%zu]: command replay needs `trace`", i);
        if (c != CS_CLAIMIX_REPLAY && en.trace)
            cs_diag_error(d, e->file, e->line, e->col, "claims[%zu].trace: only command replay takes a trace",
                          i);
        if (c == CS_CLAIMIX_NONE && !en.not_expressible)
            cs_diag_error(d, e->file, e->line, e->col,
                          "claims[%zu]: command none needs `not_expressible` (why the model cannot express it)",
                          i);
        if (c != CS_CLAIMIX_NONE && en.not_expressible)
            cs_diag_error(d, e->file, e->line, e->col,
                          "claims[%zu].not_expressible: only with command none (this entry names a command)", i);
    }
    if (cs_diags_errors(d) > before) {
        cs__entry_free(&en);
        return;
    }
    ix->e[ix->n++] = en;
}

cs_status cs_claimix_load(const char *path, cs_diags *d, struct cs_claimix *out)
{
    cs_ydoc *doc = NULL;
    cs_status st = cs_ydoc_load_file(path, d, &doc);
    if (st != CS_OK)
        return st;
    size_t before = cs_diags_errors(d);
    const struct cs_ynode *root = cs_ydoc_root(doc);
    struct cs_claimix ix;
    memset(&ix, 0, sizeof ix);
    ix.path = cs_xstrdup(path);
    const char *slash = strrchr(path, '/');
    ix.dir = slash ? cs_xasprintf("%.*s", (int)(slash - path), path) : cs_xstrdup(".");
    const struct cs_ynode *list = root && root->kind == CS_YNODE_MAP ? cs_ynode_map_get(root, "claims") : NULL;
    if (root && root->kind == CS_YNODE_MAP)
        for (size_t k = 0; k < root->n; k++)
            if (strcmp(root->pairs[k].key->scalar, "claims") != 0)
                cs_diag_error(d, root->pairs[k].key->file, root->pairs[k].key->line, root->pairs[k].key->col,
                              "unknown key \"%s\" (expected claims)", root->pairs[k].key->scalar);
    if (!list || list->kind != CS_YNODE_SEQ || list->n == 0) {
        cs_diag_error(d, path, root ? root->line : 1, root ? root->col : 1,
                      "claims: expected a list of {id, text, command, files}");
    } else {
        ix.e = cs_xcalloc(list->n, sizeof *ix.e);
        for (size_t i = 0; i < list->n; i++) {
            const struct cs_ynode *e = list->items[i];
            if (e->kind != CS_YNODE_MAP) {
                cs_diag_error(d, e->file, e->line, e->col, "claims[%zu]: expected a mapping, got %s", i,
                              cs_ynode_describe(e));
                continue;
            }
            cs__entry(&ix, e, i, d);
        }
    }
    cs_ydoc_destroy(doc);
    if (cs_diags_errors(d) > before) {
        cs_claimix_fini(&ix);
        return CS_ECONFIG;
    }
    *out = ix;
    return CS_OK;
}
