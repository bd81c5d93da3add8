#define _XOPEN_SOURCE 700 /* mkdtemp, symlink */
/* check_yaml.c: Check suite for config/yamltree.c: trees with marks, every
 * limit and malformed input refused with a located diagnostic (quickly, for
 * the hostile ones), and include: merge semantics. Inputs are in
 * tests/data/yaml/ or generated here. */
#include "../config/yamltree.h"

#include "clustersim/base/diag.h"
#include "clustersim/base/xmalloc.h"
#include "clustersim/config/config.h"
#include "clustersim/config/sweep.h"

#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- helpers ---- */

static char *data_path(const char *rel)
{
    char full[512];
    snprintf(full, sizeof full, "tests/data/yaml/%s", rel);
    return cs_xstrdup(cs_test_path(full));
}

static cs_ydoc *load_ok(const char *rel, cs_diags *d)
{
    char *path = data_path(rel);
    cs_ydoc *doc = NULL;
    cs_status st = cs_ydoc_load_file(path, d, &doc);
    if (st != CS_OK) {
        char *m = d->n ? cs_diag_format(&d->items[0]) : cs_xstrdup("(no diagnostic)");
        ck_abort_msg("%s: %s: %s", rel, cs_strerror(st), m);
    }
    free(path);
    return doc;
}

static cs_ydoc *buf_ok(const char *text, cs_diags *d)
{
    cs_ydoc *doc = NULL;
    cs_status st = cs_ydoc_load_buffer("mem.yaml", text, strlen(text), d, &doc);
    ck_assert_msg(st == CS_OK, "%s: %s", cs_strerror(st),
                  d->n ? d->items[0].msg : "(no diagnostic)");
    return doc;
}

/* Asserts that some error diagnostic contains `msg` (and, when line > 0, is
 * at line:col, and when file_suffix is given, in a file ending so). */
static void expect_diag(const cs_diags *d, const char *file_suffix, int line, int col,
                        const char *msg)
{
    for (size_t i = 0; i < d->n; i++) {
        const struct cs_diag *g = &d->items[i];
        if (g->sev != CS_SEV_ERROR || !strstr(g->msg, msg))
            continue;
        if (line > 0 && (g->line != line || g->col != col))
            continue;
        if (file_suffix) {
            size_t fl = g->file ? strlen(g->file) : 0, sl = strlen(file_suffix);
            if (fl < sl || strcmp(g->file + fl - sl, file_suffix) != 0)
                continue;
        }
        return;
    }
    char all[4096] = "";
    for (size_t i = 0; i < d->n; i++) {
        char *f = cs_diag_format(&d->items[i]);
        strncat(all, f, sizeof all - strlen(all) - 2);
        strncat(all, "\n", sizeof all - strlen(all) - 1);
        free(f);
    }
    ck_abort_msg("no diagnostic %s:%d:%d \"%s\" among:\n%s", file_suffix ? file_suffix : "*",
                 line, col, msg, all);
}

static void expect_fail_buf(const char *text, size_t len, cs_status want, int line, int col,
                            const char *msg)
{
    cs_diags d;
    cs_diags_init(&d);
    cs_ydoc *doc = (cs_ydoc *)&d; /* sentinel: must stay untouched */
    cs_status st = cs_ydoc_load_buffer("mem.yaml", text, len, &d, &doc);
    ck_assert_msg(st == want, "got %s, want %s", cs_strerror(st), cs_strerror(want));
    ck_assert_ptr_eq(doc, (cs_ydoc *)&d);
    expect_diag(&d, "mem.yaml", line, col, msg);
    cs_diags_fini(&d);
}

static void expect_fail_file(const char *rel, cs_status want, const char *file_suffix, int line,
                             int col, const char *msg)
{
    cs_diags d;
    cs_diags_init(&d);
    char *path = data_path(rel);
    cs_ydoc *doc = NULL;
    cs_status st = cs_ydoc_load_file(path, &d, &doc);
    ck_assert_msg(st == want, "%s: got %s, want %s", rel, cs_strerror(st), cs_strerror(want));
    ck_assert_ptr_null(doc);
    expect_diag(&d, file_suffix, line, col, msg);
    free(path);
    cs_diags_fini(&d);
}

static void expect_scalar(const struct cs_ynode *n, const char *value, int line, int col)
{
    ck_assert_ptr_nonnull(n);
    ck_assert_int_eq(n->kind, CS_YNODE_SCALAR);
    ck_assert_str_eq(n->scalar, value);
    ck_assert_uint_eq(n->len, strlen(value));
    ck_assert_int_eq(n->line, line);
    ck_assert_int_eq(n->col, col);
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* ---- structure and marks ---- */

START_TEST(test_yaml_marks)
{
    /* Columns counted by hand: "  list: [1, \"two\", 'three']" has '[' at
     * 9, 1 at 10, "two" at 13, 'three' at 20. */
    const char *text = "name: test\n"
                       "cluster:\n"
                       "  nodes: 64\n"
                       "  list: [1, \"two\", 'three']\n"
                       "  block:\n"
                       "    - a\n"
                       "    - {k: v}\n"
                       "empty:\n";
    cs_diags d;
    cs_diags_init(&d);
    cs_ydoc *doc = buf_ok(text, &d);
    const struct cs_ynode *r = cs_ydoc_root(doc);
    ck_assert_int_eq(r->kind, CS_YNODE_MAP);
    ck_assert_uint_eq(r->n, 3);
    ck_assert_str_eq(r->file, "mem.yaml");
    ck_assert_int_eq(r->line, 1);
    ck_assert_int_eq(r->col, 1);
    expect_scalar(r->pairs[0].key, "name", 1, 1);
    expect_scalar(cs_ynode_map_get(r, "name"), "test", 1, 7);
    ck_assert_int_eq(cs_ynode_map_get(r, "name")->plain, 1);

    const struct cs_ynode *c = cs_ynode_map_get(r, "cluster");
    ck_assert_int_eq(c->kind, CS_YNODE_MAP);
    ck_assert_int_eq(c->line, 3);
    ck_assert_int_eq(c->col, 3);
    expect_scalar(cs_ynode_map_get(c, "nodes"), "64", 3, 10);

    const struct cs_ynode *l = cs_ynode_map_get(c, "list");
    ck_assert_int_eq(l->kind, CS_YNODE_SEQ);
    ck_assert_int_eq(l->line, 4);
    ck_assert_int_eq(l->col, 9);
    ck_assert_uint_eq(l->n, 3);
    expect_scalar(l->items[0], "1", 4, 10);
    expect_scalar(l->items[1], "two", 4, 13);
    expect_scalar(l->items[2], "three", 4, 20);
    ck_assert_int_eq(l->items[0]->plain, 1);
    ck_assert_int_eq(l->items[1]->plain, 0);
    ck_assert_int_eq(l->items[2]->plain, 0);

    const struct cs_ynode *b = cs_ynode_map_get(c, "block");
    ck_assert_int_eq(b->kind, CS_YNODE_SEQ);
    ck_assert_int_eq(b->line, 6);
    ck_assert_int_eq(b->col, 5);
    expect_scalar(b->items[0], "a", 6, 7);
    ck_assert_int_eq(b->items[1]->kind, CS_YNODE_MAP);
    ck_assert_int_eq(b->items[1]->line, 7);
    ck_assert_int_eq(b->items[1]->col, 7);
    expect_scalar(cs_ynode_map_get(b->items[1], "k"), "v", 7, 11);

    const struct cs_ynode *e = cs_ynode_map_get(r, "empty");
    ck_assert(cs_ynode_is_null(e));
    ck_assert_ptr_null(cs_ynode_map_get(r, "absent"));
    ck_assert_ptr_null(cs_ynode_map_get(l, "x")); /* not a map */
    ck_assert_ptr_null(cs_ynode_map_get(NULL, "x"));
    ck_assert_uint_eq(d.n, 0);
    cs_ydoc_destroy(doc);
    cs_diags_fini(&d);
}
END_TEST

START_TEST(test_yaml_null_and_names)
{
    cs_diags d;
    cs_diags_init(&d);
    cs_ydoc *doc = buf_ok("a: ~\nb: null\nc: Null\nd: NULL\ne: \"null\"\nf: nil\ng: ''\n", &d);
    const struct cs_ynode *r = cs_ydoc_root(doc);
    ck_assert(cs_ynode_is_null(cs_ynode_map_get(r, "a")));
    ck_assert(cs_ynode_is_null(cs_ynode_map_get(r, "b")));
    ck_assert(cs_ynode_is_null(cs_ynode_map_get(r, "c")));
    ck_assert(cs_ynode_is_null(cs_ynode_map_get(r, "d")));
    ck_assert(!cs_ynode_is_null(cs_ynode_map_get(r, "e"))); /* quoted: a string */
    ck_assert(!cs_ynode_is_null(cs_ynode_map_get(r, "f")));
    ck_assert(!cs_ynode_is_null(cs_ynode_map_get(r, "g"))); /* quoted empty string */
    ck_assert(!cs_ynode_is_null(r));
    ck_assert(!cs_ynode_is_null(NULL));
    ck_assert_str_eq(cs_ynode_kind_name(CS_YNODE_SCALAR), "a scalar");
    ck_assert_str_eq(cs_ynode_kind_name(CS_YNODE_MAP), "a mapping");
    ck_assert_str_eq(cs_ynode_kind_name(CS_YNODE_SEQ), "a sequence");
    ck_assert_str_eq(cs_ynode_describe(cs_ynode_map_get(r, "a")), "null");
    ck_assert_str_eq(cs_ynode_describe(r), "a mapping");
    cs_ydoc_destroy(doc);
    cs_ydoc_destroy(NULL);
    cs_diags_fini(&d);
}
END_TEST

START_TEST(test_yaml_embedded_nul_scalar)
{
    /* A double-quoted "\0" escape is valid YAML; len keeps the whole value. */
    cs_diags d;
    cs_diags_init(&d);
    cs_ydoc *doc = buf_ok("k: \"a\\0b\"\n", &d);
    const struct cs_ynode *v = cs_ynode_map_get(cs_ydoc_root(doc), "k");
    ck_assert_uint_eq(v->len, 3);
    ck_assert(memcmp(v->scalar, "a\0b", 3) == 0);
    cs_ydoc_destroy(doc);
    cs_diags_fini(&d);
}
END_TEST

START_TEST(test_yaml_empty)
{
    static const char *const files[] = {"empty.yaml", "comment_only.yaml"};
    for (size_t i = 0; i < 2; i++) {
        cs_diags d;
        cs_diags_init(&d);
        cs_ydoc *doc = load_ok(files[i], &d);
        ck_assert_ptr_null(cs_ydoc_root(doc));
        ck_assert_uint_eq(d.n, 0);
        cs_ydoc_destroy(doc);
        cs_diags_fini(&d);
    }
    static const char *const texts[] = {"", "---\n", "--- ~\n...\n", "\n\n   \n"};
    for (size_t i = 0; i < 4; i++) {
        cs_diags d;
        cs_diags_init(&d);
        cs_ydoc *doc = buf_ok(texts[i], &d);
        ck_assert_msg(cs_ydoc_root(doc) == NULL, "text %zu", i);
        cs_ydoc_destroy(doc);
        cs_diags_fini(&d);
    }
}
END_TEST

/* ---- malformed input ---- */

START_TEST(test_yaml_duplicate_key)
{
    expect_fail_file("dup.yaml", CS_ECONFIG, "dup.yaml", 3, 1,
                     "duplicate key \"a\" (first defined at line 1)");
    /* Nested, and a third occurrence still points at the first. */
    const char *t = "top:\n  x: 1\n  y: 2\n  x: 3\n  x: 4\n";
    expect_fail_buf(t, strlen(t), CS_ECONFIG, 4, 3, "duplicate key \"x\" (first defined at line 2)");
    expect_fail_buf(t, strlen(t), CS_ECONFIG, 5, 3, "duplicate key \"x\" (first defined at line 2)");
    /* Quoting does not make a key different. */
    const char *q = "{a: 1, \"a\": 2}";
    expect_fail_buf(q, strlen(q), CS_ECONFIG, 1, 8, "duplicate key \"a\"");
}
END_TEST

START_TEST(test_yaml_nonscalar_key)
{
    const char *t = "? [a, b]\n: 1\n";
    expect_fail_buf(t, strlen(t), CS_ECONFIG, 1, 3, "mapping keys must be scalars, found a sequence");
    const char *u = "{{x: 1}: 2}";
    expect_fail_buf(u, strlen(u), CS_ECONFIG, 1, 2, "mapping keys must be scalars, found a mapping");
}
END_TEST

START_TEST(test_yaml_syntax_error)
{
    /* Unclosed flow sequence opened at 2:4: libyaml reports it where the
     * stream ends (3:1), and names where the sequence began. */
    const char *t = "a: 1\nb: [1, 2\n";
    expect_fail_buf(t, strlen(t), CS_ECONFIG, 3, 1,
                    "invalid YAML: did not find expected ',' or ']' (while parsing a flow "
                    "sequence at 2:4)");
    /* A tab cannot indent: a scanner error at the tab. */
    const char *u = "a:\n\tb: 1\n";
    expect_fail_buf(u, strlen(u), CS_ECONFIG, 2, 1,
                    "invalid YAML: found character that cannot start any token");
    /* Unterminated quoted scalar. */
    const char *q = "a: 'x\n";
    expect_fail_buf(q, strlen(q), CS_ECONFIG, 2, 1,
                    "found unexpected end of stream (while scanning a quoted scalar at 1:4)");
}
END_TEST

START_TEST(test_yaml_multidoc)
{
    expect_fail_file("multidoc.yaml", CS_ECONFIG, "multidoc.yaml", 2, 1,
                     "expected one YAML document");
}
END_TEST

START_TEST(test_yaml_binary_garbage)
{
    /* NUL is the 4th character of line 2 ("b: " then NUL). */
    expect_fail_file("binary.yaml", CS_ECONFIG, "binary.yaml", 2, 4,
                     "not valid YAML text (binary or not UTF-8?): control characters are not allowed");
    unsigned char junk[4096];
    unsigned x = 12345;
    for (size_t i = 0; i < sizeof junk; i++) {
        x = x * 1103515245u + 12345u;
        junk[i] = (unsigned char)(x >> 16);
    }
    expect_fail_buf((const char *)junk, sizeof junk, CS_ECONFIG, 0, 0, "not valid YAML text");
}
END_TEST

START_TEST(test_yaml_invalid_utf8)
{
    /* Line 2 is "model: caf" then 0xC3 0x28: 0xC3 opens a 2-byte sequence
     * at character 11 and 0x28 is no continuation byte; libyaml points at
     * that byte, character 12. */
    expect_fail_file("bad_utf8.yaml", CS_ECONFIG, "bad_utf8.yaml", 2, 12,
                     "not valid YAML text (binary or not UTF-8?): invalid trailing UTF-8 octet");
    /* A lone continuation byte after two 2-byte characters: column 3. */
    const char t[] = "\xC3\xA9\xC3\xA9\x80\n";
    expect_fail_buf(t, sizeof t - 1, CS_ECONFIG, 1, 3, "invalid leading UTF-8 octet");
}
END_TEST

START_TEST(test_yaml_missing_file)
{
    cs_diags d;
    cs_diags_init(&d);
    cs_ydoc *doc = NULL;
    char *path = data_path("does-not-exist.yaml");
    ck_assert_int_eq(cs_ydoc_load_file(path, &d, &doc), CS_EIO);
    ck_assert_ptr_null(doc);
    ck_assert_uint_eq(d.n, 1);
    ck_assert_str_eq(d.items[0].file, path);
    ck_assert(strstr(d.items[0].msg, "cannot read file") != NULL);
    free(path);
    cs_diags_fini(&d);

    /* A directory is not a YAML file, whatever size it claims. */
    cs_diags_init(&d);
    path = data_path("inc");
    ck_assert_int_eq(cs_ydoc_load_file(path, &d, &doc), CS_EIO);
    ck_assert_ptr_null(doc);
    ck_assert(strstr(d.items[0].msg, "cannot read file") != NULL);
    free(path);
    cs_diags_fini(&d);
}
END_TEST

/* ---- limits ---- */

static double seconds_since(clock_t t0) { return (double)(clock() - t0) / CLOCKS_PER_SEC; }

START_TEST(test_yaml_deep_nesting)
{
    /* 20,000 nested flow sequences: refused at the 65th '[' (column 65). */
    enum { DEPTH = 20000 };
    char *t = cs_xmalloc(2 * DEPTH + 1);
    memset(t, '[', DEPTH);
    memset(t + DEPTH, ']', DEPTH);
    t[2 * DEPTH] = '\0';
    clock_t t0 = clock();
    expect_fail_buf(t, 2 * DEPTH, CS_ECONFIG, 1, 65, "nesting deeper than 64 levels");
    ck_assert_msg(seconds_since(t0) < 1.0, "took %.2f s", seconds_since(t0));
    free(t);

    /* "a: {a: {a: ... 1}}}": the k-th '{' is at column 4 + 4*(k-1) and opens
     * mapping k+1 (the block root is mapping 1), so mapping 65 opens at
     * column 4 + 4*63 = 256. */
    size_t cap = DEPTH * 6 + 16, o = 0;
    char *m = cs_xmalloc(cap);
    o += (size_t)snprintf(m + o, cap - o, "a: ");
    for (int i = 0; i < DEPTH; i++)
        o += (size_t)snprintf(m + o, cap - o, "{a: ");
    o += (size_t)snprintf(m + o, cap - o, "1");
    for (int i = 0; i < DEPTH; i++)
        m[o++] = '}';
    m[o] = '\0';
    t0 = clock();
    expect_fail_buf(m, o, CS_ECONFIG, 1, 256, "nesting deeper than 64 levels");
    ck_assert_msg(seconds_since(t0) < 1.0, "took %.2f s", seconds_since(t0));
    free(m);
}
END_TEST

START_TEST(test_yaml_depth_64_accepted)
{
    enum { DEPTH = 64 };
    char t[2 * DEPTH + 1];
    memset(t, '[', DEPTH);
    memset(t + DEPTH, ']', DEPTH);
    t[2 * DEPTH] = '\0';
    cs_diags d;
    cs_diags_init(&d);
    cs_ydoc *doc = buf_ok(t, &d);
    const struct cs_ynode *n = cs_ydoc_root(doc);
    int depth = 0;
    while (n && n->kind == CS_YNODE_SEQ) {
        depth++;
        n = n->n ? n->items[0] : NULL;
    }
    ck_assert_int_eq(depth, 64);
    cs_ydoc_destroy(doc);
    cs_diags_fini(&d);
}
END_TEST

START_TEST(test_yaml_alias_bomb)
{
    clock_t t0 = clock();
    expect_fail_file("alias_bomb.yaml", CS_ECONFIG, "alias_bomb.yaml", 2, 4,
                     "anchors and aliases are not supported in scenarios");
    ck_assert(seconds_since(t0) < 1.0);
    const char *t = "a: 1\nb: *x\n"; /* an alias, even to nothing */
    expect_fail_buf(t, strlen(t), CS_ECONFIG, 2, 4, "anchors and aliases are not supported");
    const char *u = "a: &x 1\n";
    expect_fail_buf(u, strlen(u), CS_ECONFIG, 1, 4, "anchors and aliases are not supported");
}
END_TEST

START_TEST(test_yaml_file_too_big)
{
    /* 17 MiB in memory: refused before parsing. */
    size_t len = (size_t)17 * 1024 * 1024;
    char *big = cs_xmalloc(len);
    memset(big, ' ', len);
    memcpy(big, "a: 1\n", 5);
    clock_t t0 = clock();
    expect_fail_buf(big, len, CS_ECONFIG, 0, 0, "over the limit of 16777216 bytes (16 MiB)");
    ck_assert(seconds_since(t0) < 1.0);
    free(big);

    /* The same as a file: a sparse 17 MiB file is refused from its size. */
    char path[256];
    snprintf(path, sizeof path, "/tmp/check_yaml_big_%lx.yaml", (unsigned long)(size_t)&path);
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    fputs("a: 1\n", f);
    ck_assert_int_eq(fseek(f, (long)len, SEEK_SET), 0);
    fputc('\n', f);
    fclose(f);
    cs_diags d;
    cs_diags_init(&d);
    cs_ydoc *doc = NULL;
    ck_assert_int_eq(cs_ydoc_load_file(path, &d, &doc), CS_ECONFIG);
    ck_assert_ptr_null(doc);
    expect_diag(&d, NULL, 0, 0, "file is larger than 16777216 bytes");
    cs_diags_fini(&d);
    remove(path);

    /* Exactly at the limit is accepted (spaces after a tiny mapping). */
    char *edge = cs_xmalloc(CS_YAML_MAX_FILE_BYTES);
    memset(edge, ' ', CS_YAML_MAX_FILE_BYTES);
    memcpy(edge, "a: 1\n", 5);
    cs_diags_init(&d);
    ck_assert_int_eq(cs_ydoc_load_buffer("edge.yaml", edge, CS_YAML_MAX_FILE_BYTES, &d, &doc),
                     CS_OK);
    cs_ydoc_destroy(doc);
    cs_diags_fini(&d);
    free(edge);
}
END_TEST

START_TEST(test_yaml_scalar_too_long)
{
    size_t n = CS_YAML_MAX_SCALAR_BYTES + 1;
    char *t = cs_xmalloc(n + 16);
    memcpy(t, "k: ", 3);
    memset(t + 3, 'x', n);
    t[3 + n] = '\n';
    expect_fail_buf(t, n + 4, CS_ECONFIG, 1, 4, "scalar of 1048577 bytes is over the limit");
    free(t);
}
END_TEST

START_TEST(test_yaml_node_budget)
{
    /* [0,0,...] with CS_YAML_MAX_NODES items is one node too many (the
     * sequence itself counts). */
    size_t items = CS_YAML_MAX_NODES, len = 2 * items + 2;
    char *t = cs_xmalloc(len + 1);
    t[0] = '[';
    for (size_t i = 0; i < items; i++) {
        t[1 + 2 * i] = '0';
        t[2 + 2 * i] = ',';
    }
    t[len - 2] = ' '; /* replaces the last comma */
    t[len - 1] = ']';
    t[len] = '\0';
    expect_fail_buf(t, len, CS_ECONFIG, 0, 0, "more than 1000000 YAML nodes");
    free(t);
}
END_TEST

/* ---- include: ---- */

START_TEST(test_yaml_include_merge)
{
    cs_diags d;
    cs_diags_init(&d);
    cs_ydoc *doc = load_ok("inc/main.yaml", &d);
    const struct cs_ynode *r = cs_ydoc_root(doc);
    ck_assert_ptr_null(cs_ynode_map_get(r, "include"));
    /* main.yaml's keys first (name, cluster, list), then base.yaml's seed. */
    ck_assert_uint_eq(r->n, 4);
    ck_assert_str_eq(r->pairs[0].key->scalar, "name");
    ck_assert_str_eq(r->pairs[1].key->scalar, "cluster");
    ck_assert_str_eq(r->pairs[2].key->scalar, "list");
    ck_assert_str_eq(r->pairs[3].key->scalar, "seed");

    const struct cs_ynode *name = cs_ynode_map_get(r, "name");
    expect_scalar(name, "main", 1, 7); /* including file wins */
    ck_assert(ends_with(name->file, "inc/main.yaml"));

    const struct cs_ynode *c = cs_ynode_map_get(r, "cluster");
    expect_scalar(cs_ynode_map_get(c, "nodes"), "8", 4, 10);
    const struct cs_ynode *gpn = cs_ynode_map_get(c, "gpus_per_node");
    expect_scalar(gpn, "8", 4, 18); /* from base.yaml line 4 */
    ck_assert(ends_with(gpn->file, "inc/base.yaml"));

    const struct cs_ynode *fab = cs_ynode_map_get(c, "fabric");
    ck_assert_uint_eq(fab->n, 2);
    expect_scalar(cs_ynode_map_get(fab, "link"), "ib-ndr", 6, 11);
    ck_assert(ends_with(cs_ynode_map_get(fab, "link")->file, "main.yaml"));
    const struct cs_ynode *topo = cs_ynode_map_get(fab, "topology");
    expect_scalar(topo, "fat-tree", 7, 15);
    ck_assert(ends_with(topo->file, "inc/base.yaml"));

    /* Sequences are replaced, not merged. */
    const struct cs_ynode *list = cs_ynode_map_get(r, "list");
    ck_assert_uint_eq(list->n, 1);
    expect_scalar(list->items[0], "x", 7, 8);

    const struct cs_ynode *seed = cs_ynode_map_get(r, "seed");
    expect_scalar(seed, "42", 9, 7);
    ck_assert(ends_with(seed->file, "inc/base.yaml"));
    ck_assert_uint_eq(d.n, 0);
    cs_ydoc_destroy(doc);
    cs_diags_fini(&d);
}
END_TEST

START_TEST(test_yaml_include_multi_nested)
{
    /* multi.yaml: include [one, two]; two includes three; cost includes
     * sub/cost.yaml which includes ../leaf.yaml. Later files win over
     * earlier ones, the including mapping over all. */
    cs_diags d;
    cs_diags_init(&d);
    cs_ydoc *doc = load_ok("inc/multi.yaml", &d);
    const struct cs_ynode *r = cs_ydoc_root(doc);
    ck_assert_uint_eq(r->n, 5);
    static const char *const order[] = {"cost", "a", "b", "m", "c"};
    for (size_t i = 0; i < 5; i++)
        ck_assert_str_eq(r->pairs[i].key->scalar, order[i]);
    expect_scalar(cs_ynode_map_get(r, "a"), "1", 1, 4);
    const struct cs_ynode *b = cs_ynode_map_get(r, "b");
    expect_scalar(b, "2", 1, 4); /* two.yaml beats one.yaml and three.yaml */
    ck_assert(ends_with(b->file, "inc/two.yaml"));
    const struct cs_ynode *m = cs_ynode_map_get(r, "m");
    ck_assert_uint_eq(m->n, 3);
    expect_scalar(cs_ynode_map_get(m, "x"), "1", 3, 8);
    expect_scalar(cs_ynode_map_get(m, "y"), "2", 2, 8);
    expect_scalar(cs_ynode_map_get(m, "z"), "2", 2, 14);
    const struct cs_ynode *cc = cs_ynode_map_get(r, "c");
    expect_scalar(cc, "3", 1, 4);
    ck_assert(ends_with(cc->file, "inc/three.yaml"));

    const struct cs_ynode *cost = cs_ynode_map_get(r, "cost");
    ck_assert_uint_eq(cost->n, 3);
    expect_scalar(cost->pairs[0].value, "5", 4, 10);
    ck_assert_str_eq(cost->pairs[1].key->scalar, "pue");
    ck_assert(ends_with(cost->pairs[1].value->file, "inc/sub/cost.yaml"));
    const struct cs_ynode *leaf = cs_ynode_map_get(cost, "leaf");
    expect_scalar(leaf, "true", 1, 7);
    /* "sub/../leaf.yaml" is normalized. */
    ck_assert(ends_with(leaf->file, "/inc/leaf.yaml"));
    ck_assert(strstr(leaf->file, "sub/..") == NULL);
    cs_ydoc_destroy(doc);
    cs_diags_fini(&d);
}
END_TEST

START_TEST(test_yaml_include_cycle)
{
    cs_diags d;
    cs_diags_init(&d);
    char *a = data_path("inc/cyc_a.yaml");
    cs_ydoc *doc = NULL;
    clock_t t0 = clock();
    ck_assert_int_eq(cs_ydoc_load_file(a, &d, &doc), CS_ECONFIG);
    ck_assert(seconds_since(t0) < 1.0);
    ck_assert_ptr_null(doc);
    char *b = data_path("inc/cyc_b.yaml");
    char *want = cs_xasprintf("include cycle: %s -> %s -> %s", a, b, a);
    expect_diag(&d, "inc/cyc_b.yaml", 1, 10, want);
    free(want);
    free(a);
    free(b);
    cs_diags_fini(&d);

    /* A file including itself, from memory. */
    char *name = data_path("inc/self.yaml");
    cs_diags_init(&d);
    const char *t = "include: self.yaml\n";
    ck_assert_int_eq(cs_ydoc_load_buffer(name, t, strlen(t), &d, &doc), CS_ECONFIG);
    want = cs_xasprintf("include cycle: %s -> %s", name, name);
    expect_diag(&d, "inc/self.yaml", 1, 10, want);
    free(want);
    free(name);
    cs_diags_fini(&d);
}
END_TEST

START_TEST(test_yaml_include_missing)
{
    char *resolved = data_path("inc/nope.yaml");
    char *want = cs_xasprintf("cannot read included file \"%s\"", resolved);
    expect_fail_file("inc/missing.yaml", CS_ECONFIG, "inc/missing.yaml", 2, 10, want);
    free(want);
    free(resolved);
}
END_TEST

START_TEST(test_yaml_include_bad)
{
    expect_fail_file("inc/badvalue.yaml", CS_ECONFIG, "inc/badvalue.yaml", 1, 10,
                     "include: expected a file path or a list of file paths, got a mapping");
    expect_fail_file("inc/notmap.yaml", CS_ECONFIG, "inc/list.yaml", 1, 1,
                     "expected a mapping at the root of an included file, got a sequence");
    /* A syntax error in an included file points into that file. */
    expect_fail_file("inc/includes_bad.yaml", CS_ECONFIG, "inc/bad_syntax.yaml", 3, 1,
                     "invalid YAML: did not find expected ',' or ']'");
    const char *t = "include: [one.yaml, [x], ~]\n";
    expect_fail_buf(t, strlen(t), CS_ECONFIG, 1, 21, "include: expected a file path, got a sequence");
    expect_fail_buf(t, strlen(t), CS_ECONFIG, 1, 26, "include: expected a file path, got null");
    const char *u = "include:\n";
    expect_fail_buf(u, strlen(u), CS_ECONFIG, 1, 9, "got null");
}
END_TEST

START_TEST(test_yaml_include_depth)
{
    /* A chain of 18 files in /tmp: top + 16 nested includes is allowed,
     * the 17th nested include is refused. */
    char prefix[128];
    snprintf(prefix, sizeof prefix, "/tmp/check_yaml_inc_%lx", (unsigned long)(size_t)&prefix);
    enum { N = 18 };
    char path[N][160];
    for (int i = 0; i < N; i++) {
        snprintf(path[i], sizeof path[i], "%s_%d.yaml", prefix, i);
        FILE *f = fopen(path[i], "w");
        ck_assert_ptr_nonnull(f);
        if (i + 1 < N)
            fprintf(f, "v%d: %d\ninclude: %s_%d.yaml\n", i, i, strrchr(prefix, '/') + 1, i + 1);
        else
            fprintf(f, "v%d: %d\n", i, i);
        fclose(f);
    }
    cs_diags d;
    cs_diags_init(&d);
    cs_ydoc *doc = NULL;
    /* From file 1: 16 nested includes (2..17): accepted, 17 keys. */
    ck_assert_int_eq(cs_ydoc_load_file(path[1], &d, &doc), CS_OK);
    ck_assert_uint_eq(cs_ydoc_root(doc)->n, 17);
    cs_ydoc_destroy(doc);
    doc = NULL;
    /* From file 0: the include in file 16 would be the 17th level. */
    ck_assert_int_eq(cs_ydoc_load_file(path[0], &d, &doc), CS_ECONFIG);
    ck_assert_ptr_null(doc);
    char suffix[64];
    snprintf(suffix, sizeof suffix, "_%d.yaml", 16);
    expect_diag(&d, suffix, 2, 10, "includes nested deeper than 16 levels");
    cs_diags_fini(&d);
    for (int i = 0; i < N; i++)
        remove(path[i]);
}
END_TEST

START_TEST(test_yaml_include_depth_counts_nesting)
{
    /* A mapping 60 deep including a file whose mappings nest 10 deep: the
     * merged tree would be 69 deep. At depth 50 it fits (59). */
    for (int outer = 60; outer >= 50; outer -= 10) {
        char *name = data_path("inc/virtual.yaml");
        size_t cap = (size_t)outer * 8 + 64, o = 0;
        char *t = cs_xmalloc(cap);
        for (int i = 0; i < outer - 1; i++)
            o += (size_t)snprintf(t + o, cap - o, "k: {");
        o += (size_t)snprintf(t + o, cap - o, "include: deep10.yaml");
        for (int i = 0; i < outer - 1; i++)
            t[o++] = '}';
        t[o] = '\0';
        cs_diags d;
        cs_diags_init(&d);
        cs_ydoc *doc = NULL;
        cs_status st = cs_ydoc_load_buffer(name, t, o, &d, &doc);
        if (outer == 60) {
            ck_assert_int_eq(st, CS_ECONFIG);
            expect_diag(&d, "inc/deep10.yaml", 0, 0, "nesting deeper than 64 levels");
        } else {
            ck_assert_int_eq(st, CS_OK);
            cs_ydoc_destroy(doc);
        }
        cs_diags_fini(&d);
        free(t);
        free(name);
    }
}
END_TEST

START_TEST(test_yaml_include_fanout_files)
{
    /* 1000 includes of one small file: with the including file that is
     * 1001 files, one more than CS_YAML_MAX_FILES, so the 1000th entry is
     * refused. In "include: [leaf.yaml, leaf.yaml, ...]" entry i (from 0)
     * starts at column 11 + 11*i. */
    enum { N = 1000 };
    size_t cap = 16 + N * 11, o = 0;
    char *t = cs_xmalloc(cap);
    o += (size_t)snprintf(t + o, cap - o, "include: [");
    for (int i = 0; i < N; i++)
        o += (size_t)snprintf(t + o, cap - o, i ? ", leaf.yaml" : "leaf.yaml");
    o += (size_t)snprintf(t + o, cap - o, "]\n");
    char *name = data_path("inc/virtual.yaml");
    cs_diags d;
    cs_diags_init(&d);
    cs_ydoc *doc = NULL;
    ck_assert_int_eq(cs_ydoc_load_buffer(name, t, o, &d, &doc), CS_ECONFIG);
    ck_assert_ptr_null(doc);
    expect_diag(&d, "inc/virtual.yaml", 1, 11 + 11 * (N - 1), "more than 1000 files included in all");
    ck_assert_uint_eq(d.n_errors, 1);
    cs_diags_fini(&d);
    free(name);
    free(t);
}
END_TEST

START_TEST(test_yaml_include_fanout_bytes)
{
    /* A 12 MiB file (a tab, which libyaml refuses at once, then spaces)
     * included 8 times: five reads make 60 MiB, the sixth would pass
     * 64 MiB and stops the load; the last two are never read. */
    char path[256];
    snprintf(path, sizeof path, "/tmp/check_yaml_fat_%lx.yaml", (unsigned long)(size_t)&path);
    const size_t len = (size_t)12 * 1024 * 1024;
    char *fat = cs_xmalloc(len);
    memset(fat, ' ', len);
    fat[0] = '\t';
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(fat, 1, len, f), len);
    fclose(f);
    free(fat);
    const char *base = strrchr(path, '/') + 1;
    char *t = cs_xasprintf("include:\n  - %s\n  - %s\n  - %s\n  - %s\n  - %s\n  - %s\n  - %s\n  - %s\n",
                           base, base, base, base, base, base, base, base);
    cs_diags d;
    cs_diags_init(&d);
    cs_ydoc *doc = NULL;
    clock_t t0 = clock();
    ck_assert_int_eq(cs_ydoc_load_buffer("/tmp/virtual.yaml", t, strlen(t), &d, &doc),
                     CS_ECONFIG);
    ck_assert_msg(seconds_since(t0) < 5.0, "took %.2f s", seconds_since(t0));
    expect_diag(&d, "/tmp/virtual.yaml", 7, 5, "included files add up to more than 67108864 bytes");
    /* Five tab errors, then the budget; nothing about lines 8 and 9. */
    ck_assert_uint_eq(d.n_errors, 6);
    cs_diags_fini(&d);
    free(t);
    remove(path);
}
END_TEST

/* ---- confinement (cs_ypath_check: include:, a sweep's base:, a
 * neighbour's scenario:) ---- */

static void spit_file(const char *dir, const char *name, const char *text)
{
    char *p = cs_xasprintf("%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
    free(p);
}

/* All diagnostics of d in one string; caller frees. */
static char *all_diags(const cs_diags *d)
{
    char *out = cs_xstrdup("");
    for (size_t i = 0; i < d->n; i++) {
        char *m = cs_diag_format(&d->items[i]);
        char *n = cs_xasprintf("%s%s\n", out, m);
        free(m);
        free(out);
        out = n;
    }
    return out;
}

/* Loads dir/name as a YAML file; returns the status, the diagnostics in
 * *msgs (caller frees). */
static cs_status load_msgs(const char *dir, const char *name, char **msgs)
{
    char *p = cs_xasprintf("%s/%s", dir, name);
    cs_diags d;
    cs_diags_init(&d);
    cs_ydoc *doc = NULL;
    cs_status st = cs_ydoc_load_file(p, &d, &doc);
    cs_ydoc_destroy(doc);
    *msgs = all_diags(&d);
    cs_diags_fini(&d);
    free(p);
    return st;
}

/* Outside the data directory (a temporary tree): a top file in A may
 * include below A only; "..", an absolute path, a link leading out and a
 * file that is not .yaml are refused without opening the file (its secret
 * never shows), until --allow-include names the directory. */
START_TEST(test_yaml_include_confined)
{
    char root[] = "/tmp/cs_confine_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(root));
    char *a = cs_xasprintf("%s/a", root), *b = cs_xasprintf("%s/b", root), *sub = cs_xasprintf("%s/a/sub", root);
    ck_assert_int_eq(mkdir(a, 0700), 0);
    ck_assert_int_eq(mkdir(b, 0700), 0);
    ck_assert_int_eq(mkdir(sub, 0700), 0);
    spit_file(b, "secret.yaml", "password: hunter2\n");
    spit_file(b, "secret.txt", "password: hunter2\n");
    spit_file(sub, "leaf.yaml", "leaf: 1\n");
    spit_file(sub, "up.yaml", "include: ../sibling.yaml\n"); /* still inside a */
    spit_file(a, "sibling.yaml", "sibling: 2\n");
    char *abs_inc = cs_xasprintf("include: %s/secret.yaml\n", b);
    spit_file(a, "abs.yaml", abs_inc);
    spit_file(a, "dotdot.yaml", "include: ../b/secret.yaml\n");
    spit_file(a, "deep.yaml", "include: sub/up.yaml\nx: 1\n");
    spit_file(a, "etc.yaml", "include: /etc/passwd\n");
    spit_file(a, "txt.yaml", "include: ../b/secret.txt\n");
    spit_file(a, "link.yaml", "include: link.yaml.yaml\n");
    char *lnk = cs_xasprintf("%s/link.yaml.yaml", a), *tgt = cs_xasprintf("%s/secret.yaml", b);
    ck_assert_int_eq(symlink(tgt, lnk), 0);
    spit_file(a, "tlink.yaml", "include: t.yaml\n");
    char *lnk2 = cs_xasprintf("%s/t.yaml", a), *tgt2 = cs_xasprintf("%s/secret.txt", b);
    ck_assert_int_eq(symlink(tgt2, lnk2), 0);

    char *m = NULL;
    ck_assert_int_eq(load_msgs(a, "deep.yaml", &m), CS_OK); /* sub/up.yaml -> ../sibling.yaml: inside a */
    free(m);
    static const char *const refused[] = {"abs.yaml", "dotdot.yaml", "link.yaml"};
    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(load_msgs(a, refused[i], &m), CS_ECONFIG);
        ck_assert_msg(strstr(m, "refused: outside the directory of") && strstr(m, "--allow-include DIR"),
                      "%s: %s", refused[i], m);
        ck_assert_msg(!strstr(m, "hunter2") && !strstr(m, "password"), "%s quotes the file: %s", refused[i], m);
        free(m);
    }
    ck_assert_int_eq(load_msgs(a, "etc.yaml", &m), CS_ECONFIG);
    ck_assert_msg(strstr(m, "etc.yaml:1:10: error: include: \"/etc/passwd\" refused: expected a .yaml or .yml file"),
                  "%s", m);
    ck_assert(!strstr(m, "root:"));
    free(m);

    /* --allow-include B: the .yaml files of B load; a non-YAML file or a
     * .yaml link to one is still refused, its content unread. */
    char why[256];
    ck_assert_int_eq(cs_cfg_allow_include_dir(b, why, sizeof why), CS_OK);
    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(load_msgs(a, refused[i], &m), CS_OK);
        free(m);
    }
    ck_assert_int_eq(load_msgs(a, "txt.yaml", &m), CS_ECONFIG);
    ck_assert_msg(strstr(m, "refused: expected a .yaml or .yml file") && !strstr(m, "hunter2"), "%s", m);
    free(m);
    ck_assert_int_eq(load_msgs(a, "tlink.yaml", &m), CS_ECONFIG);
    ck_assert_msg(strstr(m, "a link to a file that is not .yaml or .yml") && !strstr(m, "hunter2"), "%s", m);
    free(m);
    cs_cfg_allow_include_reset();
    ck_assert_int_eq(cs_cfg_allow_include_dir("/nonexistent/dir", why, sizeof why), CS_EIO);

    /* The same rule for a sweep's base and a neighbour's scenario. */
    spit_file(b, "base.yaml", "schema_version: 1\n");
    spit_file(a, "sweep.yaml", "base: ../b/base.yaml\naxes:\n  cluster.nodes: [1, 2]\n");
    char *sp = cs_xasprintf("%s/sweep.yaml", a);
    cs_diags d;
    cs_diags_init(&d);
    cs_sweep *sw = NULL;
    ck_assert_int_eq(cs_sweep_load(sp, &d, &sw), CS_ECONFIG);
    m = all_diags(&d);
    ck_assert_msg(strstr(m, "sweep.yaml:1:7: error: base: refused") && strstr(m, "outside the directory of"), "%s",
                  m);
    free(m);
    cs_diags_fini(&d);
    free(sp);
    spit_file(a, "nb.yaml", "schema_version: 1\nneighbours:\n  - {scenario: ../b/base.yaml}\n");
    char *np = cs_xasprintf("%s/nb.yaml", a);
    cs_diags_init(&d);
    struct cs_scenario sc;
    ck_assert_int_eq(cs_cfg_load_scenario(np, NULL, &d, &sc, NULL), CS_ECONFIG);
    m = all_diags(&d);
    ck_assert_msg(strstr(m, "nb.yaml:3:16: error: neighbours[0].scenario: refused") &&
                      strstr(m, "outside the directory of"),
                  "%s", m);
    free(m);
    cs_diags_fini(&d);
    free(np);

    char *cmd = cs_xasprintf("rm -rf '%s'", root);
    ck_assert_int_eq(system(cmd), 0);
    free(cmd);
    free(a);
    free(b);
    free(sub);
    free(abs_inc);
    free(lnk);
    free(tgt);
    free(lnk2);
    free(tgt2);
}
END_TEST

static Suite *yaml_suite(void)
{
    Suite *s = suite_create("yaml");
    TCase *tc = tcase_create("tree");
    tcase_set_timeout(tc, 10);
    tcase_add_test(tc, test_yaml_marks);
    tcase_add_test(tc, test_yaml_null_and_names);
    tcase_add_test(tc, test_yaml_embedded_nul_scalar);
    tcase_add_test(tc, test_yaml_empty);
    suite_add_tcase(s, tc);

    TCase *tb = tcase_create("bad");
    tcase_set_timeout(tb, 10);
    tcase_add_test(tb, test_yaml_duplicate_key);
    tcase_add_test(tb, test_yaml_nonscalar_key);
    tcase_add_test(tb, test_yaml_syntax_error);
    tcase_add_test(tb, test_yaml_multidoc);
    tcase_add_test(tb, test_yaml_binary_garbage);
    tcase_add_test(tb, test_yaml_invalid_utf8);
    tcase_add_test(tb, test_yaml_missing_file);
    suite_add_tcase(s, tb);

    TCase *tl = tcase_create("limits");
    tcase_set_timeout(tl, 30);
    tcase_add_test(tl, test_yaml_deep_nesting);
    tcase_add_test(tl, test_yaml_depth_64_accepted);
    tcase_add_test(tl, test_yaml_alias_bomb);
    tcase_add_test(tl, test_yaml_file_too_big);
    tcase_add_test(tl, test_yaml_scalar_too_long);
    tcase_add_test(tl, test_yaml_node_budget);
    suite_add_tcase(s, tl);

    TCase *ti = tcase_create("include");
    tcase_set_timeout(ti, 30);
    tcase_add_test(ti, test_yaml_include_merge);
    tcase_add_test(ti, test_yaml_include_multi_nested);
    tcase_add_test(ti, test_yaml_include_cycle);
    tcase_add_test(ti, test_yaml_include_missing);
    tcase_add_test(ti, test_yaml_include_bad);
    tcase_add_test(ti, test_yaml_include_depth);
    tcase_add_test(ti, test_yaml_include_depth_counts_nesting);
    tcase_add_test(ti, test_yaml_include_fanout_files);
    tcase_add_test(ti, test_yaml_include_fanout_bytes);
    tcase_add_test(ti, test_yaml_include_confined);
    suite_add_tcase(s, ti);
    return s;
}

int main(void) { return cs_test_run(yaml_suite()); }
