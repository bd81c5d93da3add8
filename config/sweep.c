/* sweep.c: sweep files (base, mode, axes with lists and ranges, derive,
 * constraints) -> numbered points, each a scenario built by overriding the
 * base tree (config layer; contract in clustersim/config/sweep.h, docs/sweep.md).
 * derive: and constraints: are evaluated by config/expr.c (expr.h). */
#include "clustersim/base/numparse.h"
#include "clustersim/base/sha256.h"
#include "clustersim/base/strbuf.h"
#include "clustersim/config/sweep.h"

#include "clustersim/base/suggest.h"
#include "clustersim/config/expr.h"
#include "clustersim/base/xmalloc.h"
#include "override.h"
#include "yamltree.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Flow-style text of a node: scalars as written (double-quoted when they
 * hold characters that flow style would misread), {k: v, ...}, [a, b]. */
static void render(struct cs_strbuf *b, const struct cs_ynode *n, int depth)
{
    if (!n) {
        cs_strbuf_puts(b, "null");
        return;
    }
    if (depth > CS_YAML_MAX_DEPTH) {
        cs_strbuf_puts(b, "...");
        return;
    }
    if (n->kind == CS_YNODE_SCALAR) {
        bool quote = !n->plain && n->len == 0;
        for (size_t i = 0; i < n->len && !quote; i++)
            if (strchr(",:[]{}#\"'\\\n\r\t", n->scalar[i]) || (unsigned char)n->scalar[i] < 0x20)
                quote = true;
        if (!quote) {
            cs_strbuf_putn(b, n->scalar, n->len);
            return;
        }
        cs_strbuf_putn(b, "\"", 1);
        for (size_t i = 0; i < n->len; i++) {
            unsigned char c = (unsigned char)n->scalar[i];
            char esc[8];
            if (c == '"' || c == '\\') {
                esc[0] = '\\';
                esc[1] = (char)c;
                cs_strbuf_putn(b, esc, 2);
            } else if (c < 0x20) {
                snprintf(esc, sizeof esc, "\\x%02x", c);
                cs_strbuf_puts(b, esc);
            } else {
                cs_strbuf_putn(b, (const char *)&n->scalar[i], 1);
            }
        }
        cs_strbuf_putn(b, "\"", 1);
    } else if (n->kind == CS_YNODE_MAP) {
        cs_strbuf_puts(b, "{");
        for (size_t i = 0; i < n->n; i++) {
            if (i)
                cs_strbuf_puts(b, ", ");
            render(b, n->pairs[i].key, depth + 1);
            cs_strbuf_puts(b, ": ");
            render(b, n->pairs[i].value, depth + 1);
        }
        cs_strbuf_puts(b, "}");
    } else {
        cs_strbuf_puts(b, "[");
        for (size_t i = 0; i < n->n; i++) {
            if (i)
                cs_strbuf_puts(b, ", ");
            render(b, n->items[i], depth + 1);
        }
        cs_strbuf_puts(b, "]");
    }
}


/* ---- the sweep ---- */
struct axis {
    char *path;
    const struct cs_ynode *key;     /* for diagnostics */
    const struct cs_ynode **values; /* borrowed from the sweep doc or the overlay */
    size_t n;
    const struct cs_ynode *range;   /* a {from, to, ...} range, expanded once counted */
};

struct derive {
    char *path;
    const struct cs_ynode *key;
    const struct cs_ynode *expr;    /* scalar */
};

struct cs_sweep {
    char *file;
    char *base_path;
    cs_ydoc *doc;                   /* the sweep file */
    cs_ydoc *base;                  /* the base scenario's tree (includes resolved) */
    struct cs_ovl mem;              /* range values */
    enum cs_sweep_mode mode;
    struct axis axes[CS_SWEEP_MAX_AXES];
    size_t naxes;
    struct derive derives[CS_SWEEP_MAX_AXES];
    size_t nderives;
    const struct cs_ynode **constraints;
    size_t nconstraints;
    uint64_t points;
    uint64_t hash;
};

static const char *const top_keys[] = {"base", "mode", "axes", "derive", "constraints", "name",
                                       "description"};
#define NTOP (sizeof top_keys / sizeof top_keys[0])

static void err_at(cs_diags *d, const struct cs_ynode *n, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static void err_at(cs_diags *d, const struct cs_ynode *n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cs_diag_vadd(d, CS_SEV_ERROR, n ? n->file : NULL, n ? n->line : 0, n ? n->col : 0, fmt, ap);
    va_end(ap);
}

static bool scalar_number(const struct cs_ynode *n, double *out)
{
    if (!n || n->kind != CS_YNODE_SCALAR || n->len == 0)
        return false;
    return cs_num_parse_double(n->scalar, out);
}

static void fmt_number(char *buf, size_t n, double v)
{
    if (fabs(v) < 9e15 && v == floor(v))
        snprintf(buf, n, "%.0f", v);
    else
        snprintf(buf, n, "%.15g", v);
}

/* `{from, to, factor | step, unit}` -> values. With `fill` false only the
 * count is checked and set (ax->n; nothing is allocated), so that the sweep's
 * size is known before any range is expanded; the second call, with `fill`,
 * makes the values of a range the first call accepted. */
static bool expand_range(cs_sweep *sw, struct axis *ax, const struct cs_ynode *m, bool fill, cs_diags *d)
{
    static const char *const keys[] = {"from", "to", "factor", "step", "unit"};
    for (size_t i = 0; i < m->n; i++) {
        const char *k = m->pairs[i].key->scalar;
        bool ok = false;
        for (size_t j = 0; j < 5; j++)
            ok = ok || strcmp(k, keys[j]) == 0;
        if (!ok) {
            const char *s = cs_suggest(k, keys, 5);
            err_at(d, m->pairs[i].key, "axes.%s.%s: unknown key in a range%s%s%s (expected from, "
                   "to and factor or step, optionally unit)", ax->path, k, s ? " (did you mean \"" : "",
                   s ? s : "", s ? "\"?)" : "");
            return false;
        }
    }
    const struct cs_ynode *nf = cs_ynode_map_get(m, "from"), *nt = cs_ynode_map_get(m, "to");
    const struct cs_ynode *nfac = cs_ynode_map_get(m, "factor"), *nst = cs_ynode_map_get(m, "step");
    const struct cs_ynode *nu = cs_ynode_map_get(m, "unit");
    double from, to, by;
    if (!nf || !scalar_number(nf, &from)) {
        err_at(d, nf ? nf : m, "axes.%s.from: expected a number (a range needs from, to and "
               "factor or step)", ax->path);
        return false;
    }
    if (!nt || !scalar_number(nt, &to)) {
        err_at(d, nt ? nt : m, "axes.%s.to: expected a number", ax->path);
        return false;
    }
    if ((nfac != NULL) == (nst != NULL)) {
        err_at(d, m, "axes.%s: a range needs exactly one of factor and step", ax->path);
        return false;
    }
    if (nu && (nu->kind != CS_YNODE_SCALAR || nu->len == 0 || nu->len > 16)) {
        err_at(d, nu, "axes.%s.unit: expected a unit like min, h, GB or Gbps", ax->path);
        return false;
    }
    const struct cs_ynode *nby = nfac ? nfac : nst;
    if (!scalar_number(nby, &by)) {
        err_at(d, nby, "axes.%s.%s: expected a number", ax->path, nfac ? "factor" : "step");
        return false;
    }
    double count;
    if (nfac) {
        if (!(from > 0) || !(to > 0) || !(by > 0) || by == 1 || (to > from) != (by > 1)) {
            if (from != to || !(from > 0)) {
                err_at(d, nfac, "axes.%s.factor: a geometric range needs from and to > 0 and a "
                       "factor > 1 from %g up to %g (or < 1 going down)", ax->path, from, to);
                return false;
            }
        }
        count = from == to ? 1 : floor(log(to / from) / log(by) + 1e-9) + 1;
    } else {
        if (by == 0 || (to - from) * by < 0) {
            err_at(d, nst, "axes.%s.step: expected a step that goes from %g towards %g, got %g",
                   ax->path, from, to, by);
            return false;
        }
        count = floor((to - from) / by + 1e-9) + 1;
    }
    if (!(count >= 1) || count > CS_SWEEP_MAX_VALUES) {
        err_at(d, m, "axes.%s: the range has %.0f values (at most %d)", ax->path, count,
               CS_SWEEP_MAX_VALUES);
        return false;
    }
    ax->n = (size_t)count;
    if (!fill)
        return true;
    ax->values = cs_xcalloc(ax->n, sizeof *ax->values);
    for (size_t i = 0; i < ax->n; i++) {
        /* Computed from the index, not accumulated, so no drift: 8 x 2^9 is
         * 4096 exactly. */
        double v = nfac ? from * pow(by, (double)i) : from + by * (double)i;
        if (nfac && fabs(v - nearbyint(v)) < 1e-9 * fabs(v))
            v = nearbyint(v);
        char num[64], text[96];
        fmt_number(num, sizeof num, v);
        snprintf(text, sizeof text, "%s%s", num, nu ? nu->scalar : "");
        ax->values[i] = cs_ovl_scalar(&sw->mem, text, m->file, m->line, m->col);
    }
    return true;
}

/* Syntax check of an expression at load: every name resolves to 1. */
static bool any_name(void *ctx, const char *name, size_t len, double *out)
{
    (void)ctx;
    (void)name;
    (void)len;
    *out = 1;
    return true;
}

static bool check_expr(const struct cs_ynode *n, const char *what, cs_diags *d)
{
    if (!n || n->kind != CS_YNODE_SCALAR || n->len == 0) {
        err_at(d, n, "%s: expected an expression as a string, like \"gpus / (tp * pp)\", got %s",
               what, cs_ynode_describe(n));
        return false;
    }
    double v;
    char err[256];
    if (!cs_expr_eval(n->scalar, any_name, NULL, &v, err, sizeof err)) {
        if (strstr(err, "division by zero") || strstr(err, "finite"))
            return true; /* depends on the values */
        err_at(d, n, "%s: %s in \"%s\"", what, err, n->scalar);
        return false;
    }
    return true;
}

void cs_sweep_destroy(cs_sweep *sw)
{
    if (!sw)
        return;
    for (size_t i = 0; i < sw->naxes; i++) {
        free(sw->axes[i].path);
        free(sw->axes[i].values);
    }
    for (size_t i = 0; i < sw->nderives; i++)
        free(sw->derives[i].path);
    free(sw->constraints);
    cs_ovl_fini(&sw->mem);
    cs_ydoc_destroy(sw->doc);
    cs_ydoc_destroy(sw->base);
    free(sw->file);
    free(sw->base_path);
    free(sw);
}

static bool valid_path(const struct cs_ynode *k, const char *what, cs_diags *d)
{
    bool ok = cs_cfg_key_path_ok(k->scalar, k->len); /* the rule --set uses too */
    if (!ok)
        err_at(d, k, "%s: \"%.60s\": expected a key path like cluster.nodes or "
               "workload.parallelism.tp", what, k->scalar);
    return ok;
}

static bool parse_sweep(cs_sweep *sw, const struct cs_ynode *root, cs_diags *d)
{
    if (!root || root->kind != CS_YNODE_MAP) {
        cs_diag_error(d, sw->file, root ? root->line : 1, root ? root->col : 1,
                      "expected a sweep: a mapping with base:, mode: and axes:, got %s",
                      cs_ynode_describe(root));
        return false;
    }
    bool ok = true;
    for (size_t i = 0; i < root->n; i++) {
        const char *k = root->pairs[i].key->scalar;
        bool known = false;
        for (size_t j = 0; j < NTOP; j++)
            known = known || strcmp(k, top_keys[j]) == 0;
        if (!known) {
            const char *s = cs_suggest(k, top_keys, NTOP);
            if (s)
                err_at(d, root->pairs[i].key, "%s: unknown key in a sweep (did you mean \"%s\"?)",
                       k, s);
            else
                err_at(d, root->pairs[i].key, "%s: unknown key in a sweep (expected base, mode, "
                       "axes, derive, constraints, name, description)", k);
            ok = false;
        }
    }
    const struct cs_ynode *base = cs_ynode_map_get(root, "base");
    if (!base || base->kind != CS_YNODE_SCALAR || base->len == 0 || cs_ynode_is_null(base)) {
        err_at(d, base ? base : root, "base: expected the base scenario's file name (relative to "
               "the sweep file), got %s", base ? cs_ynode_describe(base) : "nothing");
        return false;
    }
    sw->base_path = cs_ypath_resolve(sw->file, base->scalar);
    char why[512], *real = NULL;
    cs_status cst = cs_ypath_check(sw->file, sw->base_path, &real, why, sizeof why);
    free(real);
    if (cst != CS_OK) {
        err_at(d, base, "base: %s \"%s\": %s", cst == CS_EIO ? "cannot read the base scenario" : "refused",
               sw->base_path, why);
        return false;
    }
    const struct cs_ynode *mode = cs_ynode_map_get(root, "mode");
    sw->mode = CS_SWEEP_GRID;
    if (mode) {
        if (mode->kind == CS_YNODE_SCALAR && strcmp(mode->scalar, "grid") == 0) {
            sw->mode = CS_SWEEP_GRID;
        } else if (mode->kind == CS_YNODE_SCALAR && strcmp(mode->scalar, "zip") == 0) {
            sw->mode = CS_SWEEP_ZIP;
        } else {
            err_at(d, mode, "mode: expected grid or zip, got \"%.40s\"",
                   mode->kind == CS_YNODE_SCALAR ? mode->scalar : cs_ynode_describe(mode));
            ok = false;
        }
    }
    const struct cs_ynode *axes = cs_ynode_map_get(root, "axes");
    if (!axes || axes->kind != CS_YNODE_MAP || axes->n == 0) {
        err_at(d, axes ? axes : root, "axes: expected a mapping of key paths to lists of values "
               "(like cluster.nodes: [1, 2, 4]), got %s", axes ? cs_ynode_describe(axes) : "nothing");
        return false;
    }
    if (axes->n > CS_SWEEP_MAX_AXES) {
        err_at(d, axes, "axes: %zu axes (at most %d)", axes->n, CS_SWEEP_MAX_AXES);
        return false;
    }
    for (size_t i = 0; i < axes->n; i++) {
        const struct cs_ynode *k = axes->pairs[i].key, *v = axes->pairs[i].value;
        if (!valid_path(k, "axes", d)) {
            ok = false;
            continue;
        }
        struct axis *ax = &sw->axes[sw->naxes++];
        ax->path = cs_xstrdup(k->scalar);
        ax->key = k;
        if (v->kind == CS_YNODE_SEQ) {
            if (v->n == 0) {
                err_at(d, v, "axes.%s: expected at least one value, got an empty list", ax->path);
                ok = false;
                continue;
            }
            ax->n = v->n;
            ax->values = cs_xcalloc(v->n, sizeof *ax->values);
            for (size_t j = 0; j < v->n; j++)
                ax->values[j] = v->items[j];
        } else if (v->kind == CS_YNODE_MAP && (cs_ynode_map_get(v, "from") ||
                                               cs_ynode_map_get(v, "to"))) {
            ax->range = v;
            ok = expand_range(sw, ax, v, false, d) && ok;
        } else {
            err_at(d, v, "axes.%s: expected a list of values or a range {from, to, factor|step}, "
                   "got %s", ax->path, cs_ynode_describe(v));
            ok = false;
        }
    }
    const struct cs_ynode *der = cs_ynode_map_get(root, "derive");
    if (der && !cs_ynode_is_null(der)) {
        if (der->kind != CS_YNODE_MAP || der->n > CS_SWEEP_MAX_AXES) {
            err_at(d, der, "derive: expected a mapping of key paths to expressions (at most %d), "
                   "got %s", CS_SWEEP_MAX_AXES, cs_ynode_describe(der));
            ok = false;
        } else {
            for (size_t i = 0; i < der->n; i++) {
                const struct cs_ynode *k = der->pairs[i].key, *v = der->pairs[i].value;
                if (!valid_path(k, "derive", d)) {
                    ok = false;
                    continue;
                }
                char what[300];
                snprintf(what, sizeof what, "derive.%s", k->scalar);
                if (!check_expr(v, what, d)) {
                    ok = false;
                    continue;
                }
                for (size_t j = 0; j < sw->naxes; j++)
                    if (strcmp(sw->axes[j].path, k->scalar) == 0) {
                        err_at(d, k, "derive.%s: this key is already an axis (line %d)",
                               k->scalar, sw->axes[j].key->line);
                        ok = false;
                    }
                struct derive *dv = &sw->derives[sw->nderives++];
                dv->path = cs_xstrdup(k->scalar);
                dv->key = k;
                dv->expr = v;
            }
        }
    }
    const struct cs_ynode *con = cs_ynode_map_get(root, "constraints");
    if (con && !cs_ynode_is_null(con)) {
        if (con->kind != CS_YNODE_SEQ) {
            err_at(d, con, "constraints: expected a list of expressions like \"tp * pp <= gpus\", "
                   "got %s", cs_ynode_describe(con));
            ok = false;
        } else {
            sw->constraints = cs_xcalloc(con->n ? con->n : 1, sizeof *sw->constraints);
            for (size_t i = 0; i < con->n; i++) {
                char what[64];
                snprintf(what, sizeof what, "constraints[%zu]", i);
                if (check_expr(con->items[i], what, d))
                    sw->constraints[sw->nconstraints++] = con->items[i];
                else
                    ok = false;
            }
        }
    }
    if (!ok)
        return false;
    /* Point count, with overflow and size checks. */
    uint64_t n = 1;
    if (sw->mode == CS_SWEEP_ZIP) {
        n = sw->axes[0].n;
        for (size_t i = 1; i < sw->naxes; i++)
            if (sw->axes[i].n != n) {
                err_at(d, sw->axes[i].key, "axes.%s: %zu values, but zip mode needs every axis to "
                       "have as many as the first (%s: %llu)", sw->axes[i].path, sw->axes[i].n,
                       sw->axes[0].path, (unsigned long long)n);
                ok = false;
            }
    } else {
        for (size_t i = 0; i < sw->naxes; i++) {
            if (n > CS_SWEEP_MAX_POINTS / sw->axes[i].n) {
                err_at(d, axes, "axes: the grid has more than %llu points; split it or use zip mode",
                       (unsigned long long)CS_SWEEP_MAX_POINTS);
                return false;
            }
            n *= sw->axes[i].n;
        }
    }
    /* Every value is a node of about 130 bytes: bound them all (zip mode
     * multiplies points by axes) before a range is expanded. */
    uint64_t values = 0;
    for (size_t i = 0; i < sw->naxes; i++)
        values += sw->axes[i].n;
    if (values > CS_SWEEP_MAX_TOTAL_VALUES) {
        err_at(d, axes, "axes: %llu values in all (at most %d); split the sweep",
               (unsigned long long)values, CS_SWEEP_MAX_TOTAL_VALUES);
        return false;
    }
    if (!ok)
        return false;
    for (size_t i = 0; i < sw->naxes; i++)
        if (sw->axes[i].range && !expand_range(sw, &sw->axes[i], sw->axes[i].range, true, d))
            return false;
    sw->points = n;
    return ok;
}

cs_status cs_sweep_load(const char *path, cs_diags *d, cs_sweep **out)
{
    cs_sweep *sw = cs_xcalloc(1, sizeof *sw);
    sw->file = cs_xstrdup(path);
    cs_ovl_init(&sw->mem);
    cs_status st = cs_ydoc_load_file(path, d, &sw->doc);
    if (st != CS_OK) {
        cs_sweep_destroy(sw);
        return st;
    }
    if (!parse_sweep(sw, cs_ydoc_root(sw->doc), d)) {
        cs_sweep_destroy(sw);
        return CS_ECONFIG;
    }
    size_t before = cs_diags_errors(d);
    st = cs_ydoc_load_file(sw->base_path, d, &sw->base);
    if (st != CS_OK) {
        if (cs_diags_errors(d) == before || st == CS_EIO) {
            const struct cs_ynode *b = cs_ynode_map_get(cs_ydoc_root(sw->doc), "base");
            err_at(d, b, "base: cannot load the base scenario \"%s\"", sw->base_path);
        }
        cs_sweep_destroy(sw);
        return st == CS_EIO ? CS_ECONFIG : st;
    }
    struct cs_strbuf b = {0};
    render(&b, cs_ydoc_root(sw->base), 0);
    cs_strbuf_puts(&b, "\n");
    render(&b, cs_ydoc_root(sw->doc), 0);
    for (size_t i = 0; i < sw->naxes; i++) {
        cs_strbuf_puts(&b, "\n");
        for (size_t j = 0; j < sw->axes[i].n; j++)
            render(&b, sw->axes[i].values[j], 0);
    }
    sw->hash = cs_fnv1a(CS_FNV_OFFSET, b.s, b.n);
    free(b.s);
    *out = sw;
    return CS_OK;
}

uint64_t cs_sweep_points(const cs_sweep *sw) { return sw->points; }
enum cs_sweep_mode cs_sweep_mode_of(const cs_sweep *sw) { return sw->mode; }
const char *cs_sweep_base_path(const cs_sweep *sw) { return sw->base_path; }
const char *cs_sweep_file(const cs_sweep *sw) { return sw->file; }
uint64_t cs_sweep_hash(const cs_sweep *sw) { return sw->hash; }
size_t cs_sweep_ncols(const cs_sweep *sw) { return sw->naxes + sw->nderives; }

const char *cs_sweep_col(const cs_sweep *sw, size_t i)
{
    return i < sw->naxes ? sw->axes[i].path : sw->derives[i - sw->naxes].path;
}

bool cs_sweep_col_derived(const cs_sweep *sw, size_t i) { return i >= sw->naxes; }

/* ---- names in expressions ---- */
struct lookup_ctx {
    const cs_sweep *sw;
    const struct cs_ynode *root;
    char detail[512];
};

static const struct {
    const char *name, *path;
    double def; /* NAN: no default */
} aliases[] = {
    {"nodes", "cluster.nodes", 1},
    {"gpus_per_node", "cluster.gpus_per_node", 8},
    {"oversubscription", "cluster.fabric.oversubscription", 1},
    {"tp", "workload.parallelism.tp", 1},
    {"pp", "workload.parallelism.pp", 1},
    {"dp", "workload.parallelism.dp", NAN},
    {"cp", "workload.parallelism.cp", 1},
    {"vp", "workload.parallelism.vp", 1},
    {"global_batch", "workload.global_batch", NAN},
    {"micro_batch", "workload.micro_batch", 1},
    {"layers", "workload.model.layers", NAN},
    {"hidden", "workload.model.hidden", NAN},
    {"heads", "workload.model.heads", NAN},
    {"seq_len", "workload.model.seq_len", NAN},
    {"utilization", "cost.utilization", 0.7},
    {"years", "cost.years", 3},
    {"replicas", "run.replicas", 1},
};

static bool path_value(struct lookup_ctx *c, const char *path, double def, double *out)
{
    const struct cs_ynode *n = cs_ovl_get(c->root, path);
    if (!n || cs_ynode_is_null(n)) {
        if (isnan(def)) {
            snprintf(c->detail, sizeof c->detail, "%s is not set in the scenario", path);
            return false;
        }
        *out = def;
        return true;
    }
    if (!scalar_number(n, out)) {
        snprintf(c->detail, sizeof c->detail, "%s is \"%.40s\" (%s:%d), not a plain number", path,
                 n->kind == CS_YNODE_SCALAR ? n->scalar : cs_ynode_describe(n),
                 n->file ? n->file : "?", n->line);
        return false;
    }
    return true;
}

static bool lookup_name(void *ctx, const char *name, size_t len, double *out)
{
    struct lookup_ctx *c = ctx;
    char nm[256];
    if (len >= sizeof nm)
        return false;
    memcpy(nm, name, len);
    nm[len] = '\0';
    if (strcmp(nm, "gpus") == 0) {
        double a, b;
        if (!path_value(c, "cluster.nodes", 1, &a) || !path_value(c, "cluster.gpus_per_node", 8, &b))
            return false;
        *out = a * b;
        return true;
    }
    if (strchr(nm, '.'))
        return path_value(c, nm, NAN, out);
    /* A column whose last segment is the name, then the aliases. */
    for (size_t i = 0; i < cs_sweep_ncols(c->sw); i++) {
        const char *p = cs_sweep_col(c->sw, i);
        const char *last = strrchr(p, '.');
        last = last ? last + 1 : p;
        if (strcmp(last, nm) == 0)
            return path_value(c, p, NAN, out);
    }
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (strcmp(aliases[i].name, nm) == 0)
            return path_value(c, aliases[i].path, aliases[i].def, out);
    snprintf(c->detail, sizeof c->detail, "unknown name \"%.60s\" (use a key path like "
             "cluster.nodes, an axis's last key, gpus, or one of nodes, gpus_per_node, tp, pp, dp, "
             "cp, vp, global_batch, micro_batch, layers, hidden, heads, seq_len)", nm);
    return false;
}

void cs_sweep_point_fini(struct cs_sweep_point *pt)
{
    if (!pt)
        return;
    for (size_t i = 0; i < pt->nvalues; i++)
        free(pt->values[i]);
    memset(pt, 0, sizeof *pt);
}

/* The skip reason, truncated to fit (it is for people; the row stays). */
static void set_reason(struct cs_sweep_point *pt, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void set_reason(struct cs_sweep_point *pt, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(pt->reason, sizeof pt->reason, fmt, ap);
    va_end(ap);
}

cs_status cs_sweep_point_build(const cs_sweep *sw, uint64_t i, const cs_catalog *cat, cs_diags *d,
                               struct cs_sweep_point *pt, struct cs_scenario *out)
{
    memset(pt, 0, sizeof *pt);
    pt->index = i;
    size_t idx[CS_SWEEP_MAX_AXES];
    uint64_t rest = i;
    for (size_t a = sw->naxes; a-- > 0;) {
        if (sw->mode == CS_SWEEP_ZIP) {
            idx[a] = (size_t)i;
        } else {
            idx[a] = (size_t)(rest % sw->axes[a].n);
            rest /= sw->axes[a].n;
        }
    }
    struct cs_ovl o;
    cs_ovl_init(&o);
    const struct cs_ynode *root = cs_ydoc_root(sw->base);
    cs_status st = CS_OK;
    size_t items_before = d->n;
    uint64_t h = CS_FNV_OFFSET;
    struct cs_strbuf b = {0};
    for (size_t a = 0; a < sw->naxes; a++) {
        const struct cs_ynode *v = sw->axes[a].values[idx[a]];
        b.n = 0;
        render(&b, v, 0);
        pt->values[pt->nvalues++] = cs_xstrdup(b.s ? b.s : "");
        h = cs_fnv1a(h, sw->axes[a].path, strlen(sw->axes[a].path));
        h = cs_fnv1a(h, "=", 1);
        h = cs_fnv1a(h, b.s ? b.s : "", b.n);
        h = cs_fnv1a(h, "\n", 1);
        const struct cs_ynode *k = sw->axes[a].key;
        if (!cs_ovl_set(&o, &root, sw->axes[a].path, v, k->file, k->line, k->col, d))
            st = CS_ECONFIG;
    }
    free(b.s);
    struct lookup_ctx lc = {sw, NULL, ""};
    for (size_t j = 0; st == CS_OK && j < sw->nderives; j++) {
        const struct derive *dv = &sw->derives[j];
        lc.root = root;
        lc.detail[0] = '\0';
        double v;
        char err[256];
        if (!cs_expr_eval(dv->expr->scalar, lookup_name, &lc, &v, err, sizeof err)) {
            pt->skipped = true;
            set_reason(pt, "derive.%s (%s:%d): %s", dv->path,
                     dv->key->file, dv->key->line, lc.detail[0] ? lc.detail : err);
            pt->values[pt->nvalues++] = cs_xstrdup("");
            continue;
        }
        char text[64];
        fmt_number(text, sizeof text, v);
        pt->values[pt->nvalues++] = cs_xstrdup(text);
        struct cs_ynode *sn = cs_ovl_scalar(&o, text, dv->key->file, dv->key->line, dv->key->col);
        if (!cs_ovl_set(&o, &root, dv->path, sn, dv->key->file, dv->key->line, dv->key->col, d))
            st = CS_ECONFIG;
    }
    while (pt->nvalues < sw->naxes + sw->nderives)
        pt->values[pt->nvalues++] = cs_xstrdup("");
    pt->key = h;
    for (size_t j = 0; st == CS_OK && !pt->skipped && j < sw->nconstraints; j++) {
        const struct cs_ynode *c = sw->constraints[j];
        lc.root = root;
        lc.detail[0] = '\0';
        double v;
        char err[256];
        if (!cs_expr_eval(c->scalar, lookup_name, &lc, &v, err, sizeof err)) {
            pt->skipped = true;
            set_reason(pt, "constraint \"%s\" (%s:%d): %s", c->scalar,
                     c->file, c->line, lc.detail[0] ? lc.detail : err);
        } else if (v == 0) {
            pt->skipped = true;
            set_reason(pt, "constraint \"%s\" (%s:%d) is false",
                     c->scalar, c->file, c->line);
        }
    }
    if (st == CS_OK && !pt->skipped)
        st = cs_cfg__bind_root(root, sw->base_path, cat, d, out, NULL);
    if (st != CS_OK) {
        for (size_t k = items_before; k < d->n; k++)
            if (d->items[k].sev == CS_SEV_ERROR) {
                const struct cs_diag *dg = &d->items[k];
                set_reason(pt, "%s:%d: %s", dg->file ? dg->file : "",
                         dg->line, dg->msg);
                break;
            }
        if (!pt->reason[0])
            set_reason(pt, "the scenario does not load: %s",
                     cs_strerror(st));
    }
    cs_ovl_fini(&o);
    return st;
}

bool cs_sweep_sets(const cs_sweep *sw, const char *prefix)
{
    size_t pl = strlen(prefix);
    for (size_t i = 0; i < cs_sweep_ncols(sw); i++) {
        const char *c = cs_sweep_col(sw, i);
        if (strncmp(c, prefix, pl) == 0 && (c[pl] == '\0' || c[pl] == '.'))
            return true;
    }
    const struct cs_ynode *n = cs_ovl_get(cs_ydoc_root(sw->base), prefix);
    return n && !cs_ynode_is_null(n);
}

uint64_t cs_sweep_point_key(const cs_sweep *sw, uint64_t i)
{
    uint64_t h = CS_FNV_OFFSET, rest = i;
    size_t idx[CS_SWEEP_MAX_AXES];
    for (size_t a = sw->naxes; a-- > 0;) {
        idx[a] = sw->mode == CS_SWEEP_ZIP ? (size_t)i : (size_t)(rest % sw->axes[a].n);
        if (sw->mode != CS_SWEEP_ZIP)
            rest /= sw->axes[a].n;
    }
    struct cs_strbuf b = {0};
    for (size_t a = 0; a < sw->naxes; a++) {
        b.n = 0;
        render(&b, sw->axes[a].values[idx[a]], 0);
        h = cs_fnv1a(h, sw->axes[a].path, strlen(sw->axes[a].path));
        h = cs_fnv1a(h, "=", 1);
        h = cs_fnv1a(h, b.s ? b.s : "", b.n);
        h = cs_fnv1a(h, "\n", 1);
    }
    free(b.s);
    return h;
}

cs_status cs_sweep_check(const cs_sweep *sw, const cs_catalog *cat, cs_diags *d)
{
    static const char *const structural[] = {"unknown key", "cannot set it", "not an index",
                                             "empty segment", "did you mean"};
    cs_diags tmp;
    cs_diags_init(&tmp);
    struct cs_sweep_point pt;
    struct cs_scenario s;
    cs_status st = cs_sweep_point_build(sw, 0, cat, &tmp, &pt, &s);
    if (st == CS_OK && !pt.skipped)
        cs_scenario_fini(&s);
    cs_sweep_point_fini(&pt);
    cs_status out = CS_OK;
    for (size_t i = 0; i < tmp.n; i++) {
        const struct cs_diag *g = &tmp.items[i];
        if (g->sev != CS_SEV_ERROR || !g->file || strcmp(g->file, sw->file) != 0)
            continue;
        for (size_t k = 0; k < sizeof structural / sizeof structural[0]; k++)
            if (strstr(g->msg, structural[k])) {
                cs_diag_add(d, CS_SEV_ERROR, g->file, g->line, g->col, "%s", g->msg);
                out = CS_ECONFIG;
                break;
            }
    }
    cs_diags_fini(&tmp);
    return out;
}
