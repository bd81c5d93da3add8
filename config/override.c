/* override.c: key-path overrides of a scenario's YAML tree, applied
 * copy-on-write before binding (config layer; see override.h and
 * clustersim/config/sweep.h). Used by sweeps and cs_cfg_load_scenario_with. */
#include "override.h"

#include "clustersim/config/sweep.h"
#include "clustersim/base/xmalloc.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cs_ovl_init(struct cs_ovl *o) { memset(o, 0, sizeof *o); }

void cs_ovl_fini(struct cs_ovl *o)
{
    if (!o)
        return;
    for (size_t i = 0; i < o->n; i++)
        free(o->blocks[i]);
    free(o->blocks);
    free(o->owned);
    memset(o, 0, sizeof *o);
}

static void *ovl_alloc(struct cs_ovl *o, size_t n)
{
    void *p = cs_xcalloc(1, n ? n : 1);
    if (o->n == o->cap) {
        o->cap = o->cap ? o->cap * 2 : 16;
        o->blocks = cs_xrealloc(o->blocks, o->cap, sizeof *o->blocks);
    }
    o->blocks[o->n++] = p;
    return p;
}

struct cs_ynode *cs_ovl_scalar(struct cs_ovl *o, const char *text, const char *file, int line,
                               int col)
{
    struct cs_ynode *n = ovl_alloc(o, sizeof *n);
    size_t len = strlen(text);
    n->kind = CS_YNODE_SCALAR;
    n->file = file;
    n->line = line;
    n->col = col;
    n->scalar = ovl_alloc(o, len + 1);
    memcpy(n->scalar, text, len + 1);
    n->len = len;
    n->plain = 1;
    return n;
}

static void mark_owned(struct cs_ovl *o, struct cs_ynode *n);

static struct cs_ynode *new_map(struct cs_ovl *o, const char *file, int line, int col)
{
    struct cs_ynode *n = ovl_alloc(o, sizeof *n);
    n->kind = CS_YNODE_MAP;
    n->file = file;
    n->line = line;
    n->col = col;
    mark_owned(o, n);
    return n;
}

static void mark_owned(struct cs_ovl *o, struct cs_ynode *n)
{
    if (o->n_owned == o->cap_owned) {
        o->cap_owned = o->cap_owned ? o->cap_owned * 2 : 16;
        o->owned = cs_xrealloc(o->owned, o->cap_owned, sizeof *o->owned);
    }
    o->owned[o->n_owned++] = n;
}

/* The overlay's own copy of collection n (copied on first write). Linear in
 * the number of copied nodes, which is a few per override. */
static struct cs_ynode *own(struct cs_ovl *o, const struct cs_ynode *n)
{
    for (size_t i = 0; i < o->n_owned; i++)
        if (o->owned[i] == n)
            return o->owned[i];
    struct cs_ynode *c = ovl_alloc(o, sizeof *c);
    *c = *n;
    if (n->kind == CS_YNODE_MAP) {
        c->pairs = ovl_alloc(o, (n->n + 1) * sizeof *c->pairs);
        if (n->n)
            memcpy(c->pairs, n->pairs, n->n * sizeof *c->pairs);
    } else if (n->kind == CS_YNODE_SEQ) {
        c->items = ovl_alloc(o, (n->n + 1) * sizeof *c->items);
        if (n->n)
            memcpy(c->items, n->items, n->n * sizeof *c->items);
    }
    mark_owned(o, c);
    return c;
}

/* Appends key -> value to an owned mapping (a new pairs array each time:
 * the arrays are small and freed with the overlay). */
static void map_append(struct cs_ovl *o, struct cs_ynode *map, struct cs_ynode *key,
                       struct cs_ynode *value)
{
    struct cs_ypair *p = ovl_alloc(o, (map->n + 1) * sizeof *p);
    if (map->n)
        memcpy(p, map->pairs, map->n * sizeof *p);
    p[map->n].key = key;
    p[map->n].value = value;
    map->pairs = p;
    map->n++;
}

static long map_index(const struct cs_ynode *map, const char *key, size_t len)
{
    for (size_t i = 0; i < map->n; i++) {
        const struct cs_ynode *k = map->pairs[i].key;
        if (k->kind == CS_YNODE_SCALAR && k->len == len && memcmp(k->scalar, key, len) == 0)
            return (long)i;
    }
    return -1;
}

/* A decimal index segment, or -1. */
static long seg_index(const char *s, size_t len)
{
    if (len == 0 || len > 9)
        return -1;
    long v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (s[i] - '0');
    }
    return v;
}

static const char *where_of(const struct cs_ynode *n, char *buf, size_t len)
{
    snprintf(buf, len, "%s:%d:%d", n->file ? n->file : "?", n->line, n->col);
    return buf;
}

bool cs_ovl_set(struct cs_ovl *o, const struct cs_ynode **root, const char *path,
                const struct cs_ynode *value, const char *file, int line, int col, cs_diags *d)
{
    if (!file)
        file = "<override>";
    size_t plen = strlen(path);
    if (plen == 0) {
        cs_diag_error(d, file, line, col, "override: empty key path");
        return false;
    }
    for (size_t i = 0, start = 0; i <= plen; i++) {
        if (i == plen || path[i] == '.') {
            if (i == start) {
                cs_diag_error(d, file, line, col,
                              "%s: empty segment in the key path (expected KEY.KEY..., like "
                              "cluster.nodes)", path);
                return false;
            }
            start = i + 1;
        }
    }
    if (!*root || (*root)->kind != CS_YNODE_MAP) {
        cs_diag_error(d, file, line, col,
                      "%s: cannot set it: the base scenario's top level is %s, not a mapping",
                      path, cs_ynode_describe(*root));
        return false;
    }
    /* Work on a copy of the path down from the root; commit *root at the end
     * (the copies are harmless if we fail: they belong to the overlay). */
    struct cs_ynode *top = own(o, *root);
    struct cs_ynode *cur = top;
    const char *seg = path;
    for (;;) {
        const char *dot = strchr(seg, '.');
        size_t len = dot ? (size_t)(dot - seg) : strlen(seg);
        bool last = dot == NULL;
        struct cs_ynode **slot = NULL; /* where the child pointer lives */
        if (cur->kind == CS_YNODE_MAP) {
            long k = map_index(cur, seg, len);
            if (k < 0) {
                char keybuf[256];
                size_t kl = len < sizeof keybuf - 1 ? len : sizeof keybuf - 1;
                memcpy(keybuf, seg, kl);
                keybuf[kl] = '\0';
                struct cs_ynode *key = cs_ovl_scalar(o, keybuf, file, line, col);
                struct cs_ynode *child =
                    last ? (struct cs_ynode *)value : new_map(o, file, line, col);
                map_append(o, cur, key, child);
                if (last)
                    break;
                cur = child;
                seg = dot + 1;
                continue;
            }
            slot = &cur->pairs[k].value;
        } else if (cur->kind == CS_YNODE_SEQ) {
            long k = seg_index(seg, len);
            if (k < 0 || (size_t)k > cur->n || (!last && (size_t)k == cur->n)) {
                cs_diag_error(d, file, line, col,
                              "%s: \"%.*s\" is not an index of the sequence written at %s:%d "
                              "(expected 0 to %zu)",
                              path, (int)len, seg, cur->file ? cur->file : "?", cur->line,
                              cur->n ? cur->n - (last ? 0 : 1) : 0);
                return false;
            }
            if ((size_t)k == cur->n) { /* append one item */
                struct cs_ynode **items = ovl_alloc(o, (cur->n + 1) * sizeof *items);
                if (cur->n)
                    memcpy(items, cur->items, cur->n * sizeof *items);
                items[cur->n] = (struct cs_ynode *)value;
                cur->items = items;
                cur->n++;
                break;
            }
            slot = &cur->items[k];
        }
        if (last) {
            *slot = (struct cs_ynode *)value;
            break;
        }
        const struct cs_ynode *child = *slot;
        if (child->kind == CS_YNODE_MAP || child->kind == CS_YNODE_SEQ) {
            cur = own(o, child);
        } else if (cs_ynode_is_null(child)) {
            cur = new_map(o, file, line, col);
        } else {
            char wb[512];
            cs_diag_error(d, file, line, col,
                          "%s: cannot set it: %.*s is a scalar (\"%.40s\" at %s), not a "
                          "mapping",
                          path, (int)(dot - path), path, child->scalar ? child->scalar : "",
                          where_of(child, wb, sizeof wb));
            return false;
        }
        *slot = cur;
        seg = dot + 1;
    }
    *root = top;
    return true;
}

const struct cs_ynode *cs_ovl_get(const struct cs_ynode *root, const char *path)
{
    const struct cs_ynode *cur = root;
    const char *seg = path;
    while (cur) {
        const char *dot = strchr(seg, '.');
        size_t len = dot ? (size_t)(dot - seg) : strlen(seg);
        const struct cs_ynode *next = NULL;
        if (cur->kind == CS_YNODE_MAP) {
            long k = map_index(cur, seg, len);
            if (k >= 0)
                next = cur->pairs[k].value;
        } else if (cur->kind == CS_YNODE_SEQ) {
            long k = seg_index(seg, len);
            if (k >= 0 && (size_t)k < cur->n)
                next = cur->items[k];
        }
        if (!dot)
            return next;
        cur = next;
        seg = dot + 1;
    }
    return NULL;
}

/* Re-marks every node of a parsed override value with the override's own
 * place, so the binder's messages point at the override, not at line 1 of a
 * buffer. The nodes live in a document we own (arena memory, writable). */
static void remark(struct cs_ynode *n, const char *file, int line, int col, int depth)
{
    if (!n || depth > CS_YAML_MAX_DEPTH)
        return;
    n->file = file;
    n->line = line;
    n->col = col;
    if (n->kind == CS_YNODE_MAP)
        for (size_t i = 0; i < n->n; i++) {
            remark(n->pairs[i].key, file, line, col, depth + 1);
            remark(n->pairs[i].value, file, line, col, depth + 1);
        }
    else if (n->kind == CS_YNODE_SEQ)
        for (size_t i = 0; i < n->n; i++)
            remark(n->items[i], file, line, col, depth + 1);
}

bool cs_cfg_key_path_ok(const char *s, size_t len)
{
    bool ok = len > 0 && len < 256 && s[0] != '.' && s[len - 1] != '.';
    for (size_t i = 0; ok && i < len; i++)
        ok = (s[i] == '.' && s[i + 1] != '.') || s[i] == '_' || s[i] == '-' ||
             (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
             (s[i] >= '0' && s[i] <= '9');
    return ok;
}

bool cs_ovl_apply(struct cs_ovl *o, const struct cs_ynode **root, const struct cs_cfg_override *ov,
                  size_t n, cs_ydoc **vals, cs_diags *d)
{
    size_t errors_before = cs_diags_errors(d);
    for (size_t i = 0; i < n; i++) {
        const char *file = ov[i].file ? ov[i].file : "<override>";
        const char *text = ov[i].value ? ov[i].value : "";
        const char *p = ov[i].path ? ov[i].path : "";
        size_t pl = strlen(p);
        bool empty_seg = pl == 0 || p[0] == '.' || p[pl - 1] == '.' || strstr(p, "..");
        if (!empty_seg && !cs_cfg_key_path_ok(p, pl)) { /* cs_ovl_set names empty segments */
            cs_diag_error(d, file, ov[i].line, ov[i].col,
                          "\"%.60s\": expected a key path like cluster.nodes or "
                          "workload.parallelism.tp", p);
            continue;
        }
        if (cs_ydoc_load_buffer(file, text, strlen(text), d, &vals[i]) != CS_OK)
            continue;
        /* The root of a document we loaded ourselves: its nodes are ours to
         * re-mark (arena memory, never const-defined). */
        struct cs_ynode *v = (struct cs_ynode *)cs_ydoc_root(vals[i]);
        if (!v)
            v = cs_ovl_scalar(o, "", file, ov[i].line, ov[i].col);
        else
            remark(v, file, ov[i].line, ov[i].col, 0);
        cs_ovl_set(o, root, ov[i].path, v, file, ov[i].line, ov[i].col, d);
    }
    return cs_diags_errors(d) == errors_before;
}

/* Applies the overrides to the loaded `base` and binds; destroys base. */
static cs_status load_with(cs_ydoc *base, const char *path, const struct cs_cfg_override *ov,
                           size_t n, const cs_catalog *cat, cs_diags *d, struct cs_scenario *out,
                           struct cs_provenance *prov)
{
    cs_status st;
    cs_ydoc **vals = cs_xcalloc(n ? n : 1, sizeof *vals);
    struct cs_ovl o;
    cs_ovl_init(&o);
    const struct cs_ynode *root = cs_ydoc_root(base);
    if (!cs_ovl_apply(&o, &root, ov, n, vals, d))
        st = CS_ECONFIG;
    else
        st = cs_cfg__bind_root(root, path, cat, d, out, prov);
    cs_ovl_fini(&o);
    for (size_t i = 0; i < n; i++)
        cs_ydoc_destroy(vals[i]);
    free(vals);
    cs_ydoc_destroy(base);
    return st;
}

cs_status cs_cfg_load_scenario_with(const char *path, const struct cs_cfg_override *ov, size_t n,
                                    const cs_catalog *cat, cs_diags *d, struct cs_scenario *out,
                                    struct cs_provenance *prov)
{
    cs_ydoc *base = NULL;
    cs_status st = cs_ydoc_load_file(path, d, &base);
    if (st != CS_OK)
        return st;
    return load_with(base, path, ov, n, cat, d, out, prov);
}

cs_status cs_cfg_load_scenario_buffer_with(const char *name, const char *buf, size_t len,
                                           const struct cs_cfg_override *ov, size_t n,
                                           const cs_catalog *cat, cs_diags *d,
                                           struct cs_scenario *out, struct cs_provenance *prov)
{
    cs_ydoc *base = NULL;
    cs_status st = cs_ydoc_load_buffer(name, buf, len, d, &base);
    if (st != CS_OK)
        return st;
    return load_with(base, name, ov, n, cat, d, out, prov);
}
