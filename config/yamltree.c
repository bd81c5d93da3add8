#define _XOPEN_SOURCE 700 /* realpath */
/* yamltree.c: YAML files -> cs_ynode trees with file:line:col marks, limits
 * and include: merging (config layer; see yamltree.h for the semantics).
 * libyaml's event parser feeds an explicit stack, so limits are checked as
 * events arrive and no code here recurses deeper than CS_YAML_MAX_DEPTH.
 * All nodes and strings of a document live in one arena freed at once. */
#include "yamltree.h"

#include "clustersim/config/config.h"
#include "clustersim/config/fileio.h"
#include "clustersim/base/datadir.h"
#include "clustersim/base/xmalloc.h"

#include <yaml.h>

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdalign.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- arena ---- */

#define CS__CHUNK_BYTES ((size_t)64 * 1024)

struct cs__chunk {
    struct cs__chunk *next;
    size_t used, cap;
    max_align_t data[]; /* cap bytes */
};

struct cs_ydoc {
    struct cs__chunk *chunks;
    struct cs_ynode *root;
    size_t n_nodes; /* across all files, against CS_YAML_MAX_NODES */
};

/* Bump allocation from the document's arena; never fails (aborts on OOM).
 * Large requests get a chunk of their own behind the current one, so the
 * current chunk's free space is not abandoned. */
static void *cs__alloc(cs_ydoc *doc, size_t n)
{
    const size_t a = alignof(max_align_t);
    n = n ? (n + a - 1) / a * a : a;
    struct cs__chunk *c = doc->chunks;
    if (n > CS__CHUNK_BYTES / 4) {
        struct cs__chunk *big = cs_xmalloc(sizeof *big + n);
        big->used = big->cap = n;
        if (c) {
            big->next = c->next;
            c->next = big;
        } else {
            big->next = NULL;
            doc->chunks = big;
        }
        return big->data;
    }
    if (!c || c->cap - c->used < n) {
        c = cs_xmalloc(sizeof *c + CS__CHUNK_BYTES);
        c->used = 0;
        c->cap = CS__CHUNK_BYTES;
        c->next = doc->chunks;
        doc->chunks = c;
    }
    void *p = (unsigned char *)c->data + c->used;
    c->used += n;
    return p;
}

static char *cs__strndup(cs_ydoc *doc, const char *s, size_t n)
{
    char *p = cs__alloc(doc, n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

void cs_ydoc_destroy(cs_ydoc *doc)
{
    if (!doc)
        return;
    struct cs__chunk *c = doc->chunks;
    while (c) {
        struct cs__chunk *next = c->next;
        free(c);
        c = next;
    }
    free(doc);
}

const struct cs_ynode *cs_ydoc_root(const cs_ydoc *doc) { return doc ? doc->root : NULL; }

/* ---- node queries ---- */

const struct cs_ynode *cs_ynode_map_get(const struct cs_ynode *map, const char *key)
{
    if (!map || map->kind != CS_YNODE_MAP || !key)
        return NULL;
    size_t klen = strlen(key);
    for (size_t i = 0; i < map->n; i++) {
        const struct cs_ynode *k = map->pairs[i].key;
        if (k->kind == CS_YNODE_SCALAR && k->len == klen && memcmp(k->scalar, key, klen) == 0)
            return map->pairs[i].value;
    }
    return NULL;
}

bool cs_ynode_is_null(const struct cs_ynode *n)
{
    if (!n || n->kind != CS_YNODE_SCALAR || !n->plain)
        return false;
    static const char *const nulls[] = {"", "~", "null", "Null", "NULL"};
    for (size_t i = 0; i < sizeof nulls / sizeof nulls[0]; i++) {
        if (n->len == strlen(nulls[i]) && memcmp(n->scalar, nulls[i], n->len) == 0)
            return true;
    }
    return false;
}

const char *cs_ynode_kind_name(enum cs_ynode_kind k)
{
    switch (k) {
    case CS_YNODE_SCALAR: return "a scalar";
    case CS_YNODE_MAP: return "a mapping";
    case CS_YNODE_SEQ: return "a sequence";
    }
    return "a node";
}

const char *cs_ynode_describe(const struct cs_ynode *n)
{
    if (!n)
        return "nothing";
    if (cs_ynode_is_null(n))
        return "null";
    return cs_ynode_kind_name(n->kind);
}

/* ---- loader state and diagnostics ---- */

struct cs__loader {
    cs_ydoc *doc;
    cs_diags *d;            /* may be NULL: count errors only */
    size_t errors;          /* errors this load reported */
    size_t total_bytes;     /* bytes of all files read, against CS_YAML_MAX_TOTAL_BYTES */
    size_t n_files;         /* files loaded, against CS_YAML_MAX_FILES */
    bool fatal;             /* a whole-document budget ran out: stop loading includes */
    const char *chain[CS_YAML_MAX_INCLUDE_DEPTH + 1]; /* normalized paths being loaded */
    int chain_len;
    const char *top;        /* the file the load started from: includes are confined to its directory */
};

static void cs__diag(struct cs__loader *L, enum cs_severity sev, const char *file, int line,
                     int col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

static void cs__diag(struct cs__loader *L, enum cs_severity sev, const char *file, int line,
                     int col, const char *fmt, ...)
{
    if (sev == CS_SEV_ERROR)
        L->errors++;
    if (!L->d)
        return;
    va_list ap;
    va_start(ap, fmt);
    cs_diag_vadd(L->d, sev, file, line, col, fmt, ap);
    va_end(ap);
}

#define CS__ERR(L, file, line, col, ...) cs__diag((L), CS_SEV_ERROR, (file), (line), (col), __VA_ARGS__)
#define CS__ERRN(L, node, ...) CS__ERR((L), (node)->file, (node)->line, (node)->col, __VA_ARGS__)

/* Longest key or path echoed back in a message. */
#define CS__ECHO 80

static int cs__mark(size_t v)
{
    return v >= (size_t)INT_MAX ? INT_MAX : (int)v + 1;
}

/* Line and column (1-based, column in UTF-8 characters) of a byte offset. */
static void cs__offset_pos(const char *buf, size_t len, size_t off, int *line, int *col)
{
    size_t l = 1, c = 1;
    if (off > len)
        off = len;
    for (size_t i = 0; i < off; i++) {
        unsigned char b = (unsigned char)buf[i];
        if (b == '\n') {
            l++;
            c = 1;
        } else if ((b & 0xC0) != 0x80) {
            c++;
        }
    }
    *line = l >= (size_t)INT_MAX ? INT_MAX : (int)l;
    *col = c >= (size_t)INT_MAX ? INT_MAX : (int)c;
}

/* Translates libyaml's failure state (it returned 0) into one diagnostic. */
static void cs__libyaml_error(struct cs__loader *L, const char *file, const yaml_parser_t *p,
                              const char *buf, size_t len)
{
    const char *problem = p->problem ? p->problem : "unknown error";
    switch (p->error) {
    case YAML_READER_ERROR: {
        int line, col;
        cs__offset_pos(buf, len, p->problem_offset, &line, &col);
        if (p->problem_value >= 0)
            CS__ERR(L, file, line, col, "not valid YAML text (binary or not UTF-8?): %s (#x%X)",
                    problem, (unsigned)p->problem_value);
        else
            CS__ERR(L, file, line, col, "not valid YAML text (binary or not UTF-8?): %s",
                    problem);
        return;
    }
    case YAML_SCANNER_ERROR:
    case YAML_PARSER_ERROR:
        if (p->context)
            CS__ERR(L, file, cs__mark(p->problem_mark.line), cs__mark(p->problem_mark.column),
                    "invalid YAML: %s (%s at %d:%d)", problem, p->context,
                    cs__mark(p->context_mark.line), cs__mark(p->context_mark.column));
        else
            CS__ERR(L, file, cs__mark(p->problem_mark.line), cs__mark(p->problem_mark.column),
                    "invalid YAML: %s", problem);
        return;
    case YAML_MEMORY_ERROR:
        CS__ERR(L, file, 0, 0, "out of memory while parsing YAML");
        return;
    default:
        CS__ERR(L, file, 0, 0, "invalid YAML: %s", problem);
        return;
    }
}

/* ---- keys: sorting for duplicate detection and merging ---- */

struct cs__keyref {
    const struct cs_ynode *key;
    size_t pos;
};

static int cs__keycmp(const struct cs_ynode *a, const struct cs_ynode *b)
{
    size_t n = a->len < b->len ? a->len : b->len;
    int c = memcmp(a->scalar, b->scalar, n);
    if (c)
        return c;
    return a->len < b->len ? -1 : a->len > b->len ? 1 : 0;
}

static int cs__keyref_cmp(const void *pa, const void *pb)
{
    const struct cs__keyref *a = pa, *b = pb;
    int c = cs__keycmp(a->key, b->key);
    if (c)
        return c;
    return a->pos < b->pos ? -1 : a->pos > b->pos ? 1 : 0;
}

/* Scalar keys of `map` sorted by (string, position); caller frees. Sets *n. */
static struct cs__keyref *cs__sorted_keys(const struct cs_ynode *map, size_t *n)
{
    struct cs__keyref *r = cs_xcalloc(map->n ? map->n : 1, sizeof *r);
    size_t k = 0;
    for (size_t i = 0; i < map->n; i++) {
        if (map->pairs[i].key->kind == CS_YNODE_SCALAR) {
            r[k].key = map->pairs[i].key;
            r[k].pos = i;
            k++;
        }
    }
    qsort(r, k, sizeof *r, cs__keyref_cmp);
    *n = k;
    return r;
}

/* Position of `key` in map via the sorted index, or SIZE_MAX. */
static size_t cs__find_sorted(const struct cs__keyref *idx, size_t n, const struct cs_ynode *key)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = cs__keycmp(idx[mid].key, key);
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && cs__keycmp(idx[lo].key, key) == 0 ? idx[lo].pos : SIZE_MAX;
}

/* Reports non-scalar keys and duplicate keys of a freshly built mapping, in
 * the order they appear. O(n log n). */
static void cs__check_keys(struct cs__loader *L, const struct cs_ynode *map)
{
    for (size_t i = 0; i < map->n; i++) {
        const struct cs_ynode *k = map->pairs[i].key;
        if (k->kind != CS_YNODE_SCALAR)
            CS__ERRN(L, k, "mapping keys must be scalars, found %s", cs_ynode_kind_name(k->kind));
    }
    size_t n;
    struct cs__keyref *idx = cs__sorted_keys(map, &n);
    size_t *first = NULL;
    for (size_t i = 1; i < n; i++) {
        if (cs__keycmp(idx[i - 1].key, idx[i].key) != 0)
            continue;
        if (!first) {
            first = cs_xmalloc(map->n * sizeof *first);
            for (size_t j = 0; j < map->n; j++)
                first[j] = SIZE_MAX;
        }
        /* idx[i-1] is either the first occurrence or points back to it. */
        size_t f = first[idx[i - 1].pos] != SIZE_MAX ? first[idx[i - 1].pos] : idx[i - 1].pos;
        first[idx[i].pos] = f;
    }
    if (first) {
        for (size_t j = 0; j < map->n; j++) {
            if (first[j] == SIZE_MAX)
                continue;
            const struct cs_ynode *k = map->pairs[j].key, *k0 = map->pairs[first[j]].key;
            int show = (int)(k->len > CS__ECHO ? CS__ECHO : k->len);
            CS__ERRN(L, k, "duplicate key \"%.*s\" (first defined at line %d)", show, k->scalar,
                     k0->line);
        }
    }
    free(first);
    free(idx);
}

/* ---- parsing one file's bytes ---- */

struct cs__frame {
    struct cs_ynode *node;
    struct cs_ynode **kids; /* MAP: key, value, key, value, ... */
    size_t n, cap;
};

static struct cs_ynode *cs__new_node(struct cs__loader *L, enum cs_ynode_kind kind,
                                     const char *file, const yaml_mark_t *m)
{
    if (L->doc->n_nodes >= CS_YAML_MAX_NODES) {
        L->fatal = true;
        CS__ERR(L, file, cs__mark(m->line), cs__mark(m->column),
                "more than %zu YAML nodes in all; refusing to load more", CS_YAML_MAX_NODES);
        return NULL;
    }
    L->doc->n_nodes++;
    struct cs_ynode *n = cs__alloc(L->doc, sizeof *n);
    memset(n, 0, sizeof *n);
    n->kind = kind;
    n->file = file;
    n->line = cs__mark(m->line);
    n->col = cs__mark(m->column);
    return n;
}

static void cs__frame_push(struct cs__frame *f, struct cs_ynode *kid)
{
    if (f->n == f->cap) {
        f->cap = f->cap ? f->cap * 2 : 8;
        f->kids = cs_xrealloc(f->kids, f->cap, sizeof *f->kids);
    }
    f->kids[f->n++] = kid;
}

/* Moves a closed frame's children into the arena node. */
static void cs__frame_close(struct cs__loader *L, struct cs__frame *f)
{
    struct cs_ynode *node = f->node;
    if (node->kind == CS_YNODE_SEQ) {
        node->n = f->n;
        if (f->n) {
            node->items = cs__alloc(L->doc, f->n * sizeof *node->items);
            memcpy(node->items, f->kids, f->n * sizeof *node->items);
        }
    } else {
        node->n = f->n / 2; /* libyaml always pairs keys with values */
        if (node->n) {
            node->pairs = cs__alloc(L->doc, node->n * sizeof *node->pairs);
            for (size_t i = 0; i < node->n; i++) {
                node->pairs[i].key = f->kids[2 * i];
                node->pairs[i].value = f->kids[2 * i + 1];
            }
        }
        cs__check_keys(L, node);
    }
    free(f->kids);
    f->kids = NULL;
    f->n = f->cap = 0;
}

static const char cs__no_anchors[] =
    "anchors and aliases are not supported in scenarios (write the value out, or use include:)";

/* Parses `len` bytes as one YAML document into nodes whose file is `file`
 * (an arena string). `base_depth` is the depth of the mapping this file is
 * merged into, minus one (0 for the top file), so the depth limit holds for
 * the merged tree. Returns CS_OK with *root_out set (NULL for an empty
 * document) or CS_ECONFIG after reporting. */
static cs_status cs__parse(struct cs__loader *L, const char *file, const char *buf, size_t len,
                           int base_depth, struct cs_ynode **root_out)
{
    if (len > CS_YAML_MAX_FILE_BYTES) {
        CS__ERR(L, file, 0, 0, "file is %zu bytes, over the limit of %zu bytes (16 MiB)", len,
                CS_YAML_MAX_FILE_BYTES);
        return CS_ECONFIG;
    }
    size_t errors0 = L->errors;
    yaml_parser_t p;
    if (!yaml_parser_initialize(&p)) {
        CS__ERR(L, file, 0, 0, "cannot initialize the YAML parser");
        return CS_ECONFIG;
    }
    yaml_parser_set_input_string(&p, (const unsigned char *)buf, len);

    struct cs__frame st[CS_YAML_MAX_DEPTH];
    int top = 0;
    struct cs_ynode *root = NULL;
    int ndocs = 0;
    bool done = false, failed = false;
    while (!done && !failed) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&p, &ev)) {
            cs__libyaml_error(L, file, &p, buf, len);
            failed = true;
            break;
        }
        const yaml_mark_t *m = &ev.start_mark;
        int line = cs__mark(m->line), col = cs__mark(m->column);
        struct cs_ynode *node = NULL;
        switch (ev.type) {
        case YAML_STREAM_END_EVENT:
            done = true;
            break;
        case YAML_DOCUMENT_START_EVENT:
            if (ndocs++ > 0) {
                CS__ERR(L, file, line, col,
                        "expected one YAML document, found a second one here");
                failed = true;
            }
            break;
        case YAML_ALIAS_EVENT:
            CS__ERR(L, file, line, col, "%s", cs__no_anchors);
            failed = true;
            break;
        case YAML_SCALAR_EVENT:
            if (ev.data.scalar.anchor) {
                CS__ERR(L, file, line, col, "%s", cs__no_anchors);
                failed = true;
            } else if (ev.data.scalar.length > CS_YAML_MAX_SCALAR_BYTES) {
                CS__ERR(L, file, line, col,
                        "scalar of %zu bytes is over the limit of %zu bytes (1 MiB)",
                        ev.data.scalar.length, CS_YAML_MAX_SCALAR_BYTES);
                failed = true;
            } else if ((node = cs__new_node(L, CS_YNODE_SCALAR, file, m)) == NULL) {
                failed = true;
            } else {
                node->len = ev.data.scalar.length;
                node->scalar = cs__strndup(L->doc, (const char *)ev.data.scalar.value, node->len);
                node->plain = ev.data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
            }
            break;
        case YAML_SEQUENCE_START_EVENT:
        case YAML_MAPPING_START_EVENT: {
            bool is_map = ev.type == YAML_MAPPING_START_EVENT;
            const yaml_char_t *anchor =
                is_map ? ev.data.mapping_start.anchor : ev.data.sequence_start.anchor;
            if (anchor) {
                CS__ERR(L, file, line, col, "%s", cs__no_anchors);
                failed = true;
            } else if (base_depth + top + 1 > CS_YAML_MAX_DEPTH) {
                CS__ERR(L, file, line, col, "nesting deeper than %d levels%s", CS_YAML_MAX_DEPTH,
                        base_depth ? " (counting the including files)" : "");
                failed = true;
            } else {
                struct cs_ynode *c =
                    cs__new_node(L, is_map ? CS_YNODE_MAP : CS_YNODE_SEQ, file, m);
                if (!c) {
                    failed = true;
                } else {
                    st[top].node = c;
                    st[top].kids = NULL;
                    st[top].n = st[top].cap = 0;
                    top++;
                }
            }
            break;
        }
        case YAML_SEQUENCE_END_EVENT:
        case YAML_MAPPING_END_EVENT:
            top--;
            cs__frame_close(L, &st[top]);
            node = st[top].node;
            break;
        default: /* stream start, document end, no event */
            break;
        }
        if (node) {
            if (top > 0)
                cs__frame_push(&st[top - 1], node);
            else
                root = node;
        }
        yaml_event_delete(&ev);
    }
    for (int i = 0; i < top; i++)
        free(st[i].kids);
    yaml_parser_delete(&p);
    if (failed || L->errors > errors0)
        return CS_ECONFIG;
    if (root && cs_ynode_is_null(root))
        root = NULL;
    *root_out = root;
    return CS_OK;
}

/* ---- files and paths ---- */

/* Lexical normalization: drops "." and empty components and folds "x/..";
 * keeps a leading "/" and leading ".." of relative paths. Caller frees. */
static char *cs__normalize(const char *path)
{
    size_t n = strlen(path);
    char *out = cs_xmalloc(n + 2);
    size_t *starts = cs_xmalloc((n / 2 + 2) * sizeof *starts); /* component starts in out */
    size_t ncomp = 0, o = 0;
    bool abs = path[0] == '/';
    if (abs)
        out[o++] = '/';
    size_t base = o;
    const char *s = path;
    while (*s) {
        while (*s == '/')
            s++;
        if (!*s)
            break;
        const char *e = s;
        while (*e && *e != '/')
            e++;
        size_t cl = (size_t)(e - s);
        if (cl == 1 && s[0] == '.') {
            /* skip */
        } else if (cl == 2 && s[0] == '.' && s[1] == '.') {
            bool prev_dotdot = ncomp > 0 && o - starts[ncomp - 1] == 2 &&
                               out[starts[ncomp - 1]] == '.' && out[starts[ncomp - 1] + 1] == '.';
            if (ncomp > 0 && !prev_dotdot) {
                ncomp--;
                o = starts[ncomp] > base ? starts[ncomp] - 1 : base; /* drop "/comp" */
            } else if (!abs) {
                if (o > base)
                    out[o++] = '/';
                starts[ncomp++] = o;
                out[o++] = '.';
                out[o++] = '.';
            }
        } else {
            if (o > base)
                out[o++] = '/';
            starts[ncomp++] = o;
            memcpy(out + o, s, cl);
            o += cl;
        }
        s = e;
    }
    if (o == 0)
        out[o++] = '.';
    out[o] = '\0';
    free(starts);
    return out;
}

/* `rel` resolved against the directory of file `from`, normalized; caller frees. */
char *cs_ypath_resolve(const char *from, const char *rel)
{
    const char *slash = strrchr(from, '/');
    char *joined;
    if (rel[0] == '/' || !slash)
        joined = cs_xstrdup(rel);
    else
        joined = cs_xasprintf("%.*s/%s", (int)(slash - from), from, rel);
    char *norm = cs__normalize(joined);
    free(joined);
    return norm;
}

/* ---- confinement of file references ---- */

#define CS__MAX_ALLOWED 16
static pthread_mutex_t cs__allow_mu = PTHREAD_MUTEX_INITIALIZER;
static char *cs__allowed[CS__MAX_ALLOWED]; /* real paths of --allow-include directories */
static int cs__n_allowed;

cs_status cs_cfg_allow_include_dir(const char *dir, char *why, size_t whylen)
{
    char *rp = realpath(dir, NULL);
    if (!rp) {
        snprintf(why, whylen, "%s", strerror(errno));
        return CS_EIO;
    }
    struct stat sb;
    if (stat(rp, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
        snprintf(why, whylen, "not a directory");
        free(rp);
        return CS_EIO;
    }
    pthread_mutex_lock(&cs__allow_mu);
    cs_status st = CS_OK;
    if (cs__n_allowed == CS__MAX_ALLOWED) {
        snprintf(why, whylen, "at most %d directories", CS__MAX_ALLOWED);
        free(rp);
        st = CS_EFULL;
    } else {
        cs__allowed[cs__n_allowed++] = rp;
    }
    pthread_mutex_unlock(&cs__allow_mu);
    return st;
}

void cs_cfg_allow_include_reset(void)
{
    pthread_mutex_lock(&cs__allow_mu);
    for (int i = 0; i < cs__n_allowed; i++)
        free(cs__allowed[i]);
    cs__n_allowed = 0;
    pthread_mutex_unlock(&cs__allow_mu);
}

/* True when real path `p` is `dir` or below it (both real paths). */
static bool cs__under(const char *p, const char *dir)
{
    size_t n = strlen(dir);
    if (n == 1 && dir[0] == '/')
        return true;
    return strncmp(p, dir, n) == 0 && (p[n] == '/' || p[n] == '\0');
}

/* True when `p` ends in .yaml or .yml, optionally followed by .gz. */
static bool cs__yaml_name(const char *p)
{
    size_t n = strlen(p);
    if (n > 3 && strcmp(p + n - 3, ".gz") == 0)
        n -= 3;
    return (n > 5 && strncmp(p + n - 5, ".yaml", 5) == 0) || (n > 4 && strncmp(p + n - 4, ".yml", 4) == 0);
}

cs_status cs_ypath_check(const char *top, const char *path, char **real, char *why, size_t whylen)
{
    if (!cs__yaml_name(path)) {
        snprintf(why, whylen, "expected a .yaml or .yml file");
        return CS_ECONFIG;
    }
    /* The place is checked first through the file's directory, so that a
     * refused file is neither opened nor told apart from a missing one;
     * then through the file itself, for a link that leads elsewhere. */
    const char *pslash = strrchr(path, '/');
    char *pdir = pslash ? cs_xasprintf("%.*s", pslash == path ? 1 : (int)(pslash - path), path) : cs_xstrdup(".");
    char *rdir = realpath(pdir, NULL);
    free(pdir);
    char *rp = NULL;
    if (!rdir) {
        snprintf(why, whylen, "%s", strerror(errno));
        return CS_EIO;
    }
    {
        char *lex = cs_xasprintf("%s/%s", strcmp(rdir, "/") == 0 ? "" : rdir, pslash ? pslash + 1 : path);
        free(rdir);
        rdir = lex; /* the real directory + the file's own name */
    }
    const char *slash = top ? strrchr(top, '/') : NULL;
    char *topdir = slash ? cs_xasprintf("%.*s", slash == top ? 1 : (int)(slash - top), top) : cs_xstrdup(".");
    char *datadir = realpath(cs_data_dir(), NULL), *rtop = realpath(topdir, NULL);
    bool ok = false;
    for (int pass = 0; pass < 2; pass++) {
        const char *cand = pass == 0 ? rdir : rp;
        ok = cand && ((rtop && cs__under(cand, rtop)) || (datadir && cs__under(cand, datadir)));
        pthread_mutex_lock(&cs__allow_mu);
        for (int i = 0; i < cs__n_allowed && cand && !ok; i++)
            ok = cs__under(cand, cs__allowed[i]);
        pthread_mutex_unlock(&cs__allow_mu);
        if (!ok || pass == 1)
            break;
        rp = realpath(path, NULL);
        if (!rp) {
            snprintf(why, whylen, "%s", strerror(errno));
            free(rdir);
            free(topdir);
            free(datadir);
            free(rtop);
            return CS_EIO;
        }
        if (!cs__yaml_name(rp)) {
            snprintf(why, whylen, "it is a link to a file that is not .yaml or .yml");
            free(rp);
            free(rdir);
            free(topdir);
            free(datadir);
            free(rtop);
            return CS_ECONFIG;
        }
    }
    free(rdir);
    free(datadir);
    free(rtop);
    if (!ok) {
        snprintf(why, whylen,
                 "outside the directory of %s (%s) and the data directory; --allow-include DIR allows another "
                 "directory",
                 top && *top ? top : "the input", topdir);
        free(topdir);
        free(rp);
        return CS_ECONFIG;
    }
    free(topdir);
    *real = rp;
    return CS_OK;
}

/* ---- include: merging ---- */

/* Merges mapping src into mapping dst. For a key in both: two mappings merge
 * recursively, otherwise the value of the winner stays (src when src_wins).
 * Keys only src has are appended in src order. src's nodes move into dst;
 * nothing is copied, so no node ends up in two places. */
static void cs__merge(cs_ydoc *doc, struct cs_ynode *dst, struct cs_ynode *src, bool src_wins)
{
    size_t nidx;
    struct cs__keyref *idx = cs__sorted_keys(dst, &nidx);
    struct cs_ypair *added = cs_xcalloc(src->n ? src->n : 1, sizeof *added);
    size_t nadded = 0;
    for (size_t i = 0; i < src->n; i++) {
        struct cs_ypair *sp = &src->pairs[i];
        size_t pos = cs__find_sorted(idx, nidx, sp->key);
        if (pos == SIZE_MAX) {
            added[nadded++] = *sp;
            continue;
        }
        struct cs_ypair *dp = &dst->pairs[pos];
        if (dp->value->kind == CS_YNODE_MAP && sp->value->kind == CS_YNODE_MAP)
            cs__merge(doc, dp->value, sp->value, src_wins);
        else if (src_wins)
            *dp = *sp;
    }
    if (nadded) {
        struct cs_ypair *np = cs__alloc(doc, (dst->n + nadded) * sizeof *np);
        if (dst->n)
            memcpy(np, dst->pairs, dst->n * sizeof *np);
        memcpy(np + dst->n, added, nadded * sizeof *np);
        dst->pairs = np;
        dst->n += nadded;
    }
    free(added);
    free(idx);
}

static cs_status cs__load(struct cs__loader *L, const char *display, const char *norm,
                          const char *buf, size_t len, int base_depth,
                          struct cs_ynode **root_out);

/* Loads the file named by scalar `pn` for a mapping at depth `depth`.
 * Returns its root mapping, or NULL after reporting. */
static struct cs_ynode *cs__include_one(struct cs__loader *L, const struct cs_ynode *pn,
                                        int depth)
{
    int show = (int)(pn->len > CS__ECHO ? CS__ECHO : pn->len);
    if (pn->len == 0 || strlen(pn->scalar) != pn->len) {
        CS__ERRN(L, pn, "include: \"%.*s\" is not a file path", show, pn->scalar);
        return NULL;
    }
    char *path = cs_ypath_resolve(pn->file, pn->scalar);
    for (int i = 0; i < L->chain_len; i++) {
        if (strcmp(L->chain[i], path) != 0)
            continue;
        char *msg = cs_xstrdup("include cycle:");
        for (int j = i; j <= L->chain_len; j++) {
            char *next = cs_xasprintf("%s%s%s", msg, j == i ? " " : " -> ",
                                      j < L->chain_len ? L->chain[j] : path);
            free(msg);
            msg = next;
        }
        CS__ERRN(L, pn, "%s", msg);
        free(msg);
        free(path);
        return NULL;
    }
    if (L->chain_len > CS_YAML_MAX_INCLUDE_DEPTH) {
        CS__ERRN(L, pn, "includes nested deeper than %d levels", CS_YAML_MAX_INCLUDE_DEPTH);
        free(path);
        return NULL;
    }
    if (L->n_files >= CS_YAML_MAX_FILES) {
        CS__ERRN(L, pn, "more than %d files included in all", CS_YAML_MAX_FILES);
        L->fatal = true;
        free(path);
        return NULL;
    }
    char *buf = NULL;
    size_t len = 0;
    char why[512];
    char *real = NULL;
    cs_status cst = cs_ypath_check(L->top, path, &real, why, sizeof why);
    if (cst != CS_OK) {
        if (cst == CS_EIO)
            CS__ERRN(L, pn, "cannot read included file \"%s\": %s", path, why);
        else
            CS__ERRN(L, pn, "include: \"%s\" refused: %s", path, why);
        free(path);
        return NULL;
    }
    cs_status rst = cs_file_slurp_why(real, CS_YAML_MAX_FILE_BYTES, &buf, &len, why, sizeof why);
    free(real);
    if (rst != CS_OK) {
        if (rst == CS_ERANGE)
            CS__ERRN(L, pn, "included file \"%s\" is larger than %zu bytes (16 MiB)", path,
                     CS_YAML_MAX_FILE_BYTES);
        else
            CS__ERRN(L, pn, "cannot read included file \"%s\": %s", path, why);
        free(path);
        return NULL;
    }
    if (len > CS_YAML_MAX_TOTAL_BYTES - L->total_bytes) {
        CS__ERRN(L, pn, "included files add up to more than %zu bytes (64 MiB)",
                 CS_YAML_MAX_TOTAL_BYTES);
        L->fatal = true;
        free(buf);
        free(path);
        return NULL;
    }
    struct cs_ynode *root = NULL;
    cs_status st = cs__load(L, path, path, buf, len, depth - 1, &root);
    free(buf);
    if (st != CS_OK) {
        cs__diag(L, CS_SEV_NOTE, pn->file, pn->line, pn->col, "in the file included from here");
        root = NULL;
    } else if (!root) {
        CS__ERRN(L, pn, "included file \"%s\" is empty; expected a mapping at its root", path);
    } else if (root->kind != CS_YNODE_MAP) {
        CS__ERRN(L, root, "expected a mapping at the root of an included file, got %s",
                 cs_ynode_describe(root));
        cs__diag(L, CS_SEV_NOTE, pn->file, pn->line, pn->col, "included from here");
        root = NULL;
    }
    free(path);
    return root;
}

/* Resolves the `include` pair at position `at` of `map` (at depth `depth`). */
static void cs__do_include(struct cs__loader *L, struct cs_ynode *map, size_t at, int depth)
{
    const struct cs_ynode *v = map->pairs[at].value;
    memmove(&map->pairs[at], &map->pairs[at + 1], (map->n - at - 1) * sizeof *map->pairs);
    map->n--;

    const struct cs_ynode *one[1] = {v};
    const struct cs_ynode *const *paths = one;
    size_t npaths = 1;
    if (v->kind == CS_YNODE_SEQ) {
        paths = (const struct cs_ynode *const *)v->items;
        npaths = v->n;
    } else if (v->kind != CS_YNODE_SCALAR || cs_ynode_is_null(v)) {
        CS__ERRN(L, v, "include: expected a file path or a list of file paths, got %s",
                 cs_ynode_describe(v));
        return;
    }
    struct cs_ynode *acc = NULL;
    for (size_t i = 0; i < npaths && !L->fatal; i++) {
        const struct cs_ynode *pn = paths[i];
        if (pn->kind != CS_YNODE_SCALAR || cs_ynode_is_null(pn)) {
            CS__ERRN(L, pn, "include: expected a file path, got %s", cs_ynode_describe(pn));
            continue;
        }
        struct cs_ynode *r = cs__include_one(L, pn, depth);
        if (!r)
            continue;
        if (!acc)
            acc = r;
        else
            cs__merge(L->doc, acc, r, true);
    }
    if (acc)
        cs__merge(L->doc, map, acc, false);
}

/* Resolves every include: in the tree of one file, innermost first; the
 * nodes merged in were resolved when their own file was loaded. Recursion is
 * bounded by the depth limit. `depth` is n's depth (the root is 1). */
static void cs__walk(struct cs__loader *L, struct cs_ynode *n, int depth)
{
    if (L->fatal)
        return;
    if (n->kind == CS_YNODE_SEQ) {
        for (size_t i = 0; i < n->n; i++) {
            if (n->items[i]->kind != CS_YNODE_SCALAR)
                cs__walk(L, n->items[i], depth + 1);
        }
    } else if (n->kind == CS_YNODE_MAP) {
        size_t inc = SIZE_MAX;
        for (size_t i = 0; i < n->n; i++) {
            const struct cs_ynode *k = n->pairs[i].key;
            if (k->kind == CS_YNODE_SCALAR && k->len == 7 && memcmp(k->scalar, "include", 7) == 0)
                inc = i;
            else if (n->pairs[i].value->kind != CS_YNODE_SCALAR)
                cs__walk(L, n->pairs[i].value, depth + 1);
        }
        if (inc != SIZE_MAX && !L->fatal)
            cs__do_include(L, n, inc, depth);
    }
}

/* Parses one file and resolves its includes. `display` is the file name for
 * nodes and messages, `norm` its normalized path for cycle detection. */
static cs_status cs__load(struct cs__loader *L, const char *display, const char *norm,
                          const char *buf, size_t len, int base_depth,
                          struct cs_ynode **root_out)
{
    size_t errors0 = L->errors;
    L->n_files++;
    L->total_bytes += len < CS_YAML_MAX_TOTAL_BYTES ? len : CS_YAML_MAX_TOTAL_BYTES;
    const char *file = cs__strndup(L->doc, display, strlen(display));
    struct cs_ynode *root = NULL;
    cs_status st = cs__parse(L, file, buf, len, base_depth, &root);
    if (st != CS_OK)
        return st;
    if (root) {
        L->chain[L->chain_len++] = norm;
        cs__walk(L, root, base_depth + 1);
        L->chain_len--;
    }
    if (L->errors > errors0)
        return CS_ECONFIG;
    *root_out = root;
    return CS_OK;
}

/* ---- public entry points ---- */

cs_status cs_ydoc_load_buffer(const char *name, const char *buf, size_t len, cs_diags *d,
                              cs_ydoc **out)
{
    return cs_ydoc_load_buffer_top(name, NULL, buf, len, d, out);
}

cs_status cs_ydoc_load_buffer_top(const char *name, const char *top, const char *buf, size_t len, cs_diags *d,
                                  cs_ydoc **out)
{
    if (!name || !*name)
        name = "<buffer>";
    if (!top)
        top = name;
    if (!buf)
        len = 0;
    cs_ydoc *doc = cs_xcalloc(1, sizeof *doc);
    struct cs__loader L = {.doc = doc, .d = d, .top = top};
    char *norm = cs__normalize(name);
    struct cs_ynode *root = NULL;
    cs_status st = cs__load(&L, name, norm, buf ? buf : "", len, 0, &root);
    free(norm);
    if (st != CS_OK) {
        cs_ydoc_destroy(doc);
        return st;
    }
    doc->root = root;
    *out = doc;
    return CS_OK;
}

cs_status cs_ydoc_load_file(const char *path, cs_diags *d, cs_ydoc **out)
{
    char *buf = NULL;
    size_t len = 0;
    char why[256];
    cs_status rst = cs_file_slurp_why(path, CS_YAML_MAX_FILE_BYTES, &buf, &len, why, sizeof why);
    if (rst == CS_ERANGE) {
        if (d)
            cs_diag_error(d, cs_path_display(path), 0, 0, "file is larger than %zu bytes (16 MiB)",
                          CS_YAML_MAX_FILE_BYTES);
        return CS_ECONFIG;
    }
    if (rst != CS_OK) {
        if (d)
            cs_diag_error(d, cs_path_display(path), 0, 0, "cannot read file: %s", why);
        return CS_EIO;
    }
    cs_status st = cs_ydoc_load_buffer(cs_path_display(path), buf, len, d, out);
    free(buf);
    return st;
}
