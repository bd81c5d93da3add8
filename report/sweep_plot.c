/* sweep_plot.c: a sweep directory read back (sweep.json + results.jsonl)
 * and its figures (data files and the gnuplot scripts written for them),
 * for `clustersim plot` and `clustersim report sweep`. Report layer: files
 * in, files out, no printing (warnings go to the caller's diagnostics).
 *
 * A figure's axes each get a role (sweep_plot.h): the x axis; fixed (one
 * value among the rows drawn: named once in the title, never in a legend);
 * series (the legend: at most CS_SWEEP_MAX_SERIES, the palette of
 * report/palette.c, so no colour repeats); panels (one per combination,
 * CS_SWEEP_PANELS_PER_PAGE to a page, CS_SWEEP_MAX_PAGES pages, the rest
 * left out with a warning and a note on the figure). Values are written
 * for people: base/numfmt.c digits, base/units.c units. */
#define _POSIX_C_SOURCE 200809L
#include "clustersim/base/numfmt.h"
#include "clustersim/base/numparse.h"
#include "clustersim/base/strbuf.h"
#include "clustersim/base/units.h"
#include "clustersim/report/gnuplot.h"
#include "clustersim/report/palette.h"
#include "clustersim/report/sweep_plot.h"
#include "clustersim/base/outfile.h"
#include "clustersim/base/xmalloc.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#define CS__NOCOL ((size_t)-1)

/* Whole file into a NUL-terminated buffer (refuses above 1 GiB, and a
 * file that is not a regular one: a FIFO planted as DIR/results.jsonl would
 * block in open, so it is opened non-blocking and checked first). */
static char *cs__slurp(const char *path, size_t *len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    struct stat sb;
    if (fd < 0)
        return NULL;
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        int e = S_ISDIR(sb.st_mode) ? EISDIR : EINVAL; /* what the caller's message names */
        close(fd);
        errno = e;
        return NULL;
    }
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        close(fd);
        return NULL;
    }
    size_t cap = 65536, n = 0;
    char *b = cs_xmalloc(cap);
    size_t k;
    while ((k = fread(b + n, 1, cap - n - 1, f)) > 0) {
        n += k;
        if (cap - n - 1 == 0) {
            if (cap > ((size_t)1 << 30)) {
                free(b);
                fclose(f);
                return NULL;
            }
            cap *= 2;
            b = cs_xrealloc(b, cap, 1);
        }
    }
    bool bad = ferror(f);
    fclose(f);
    if (bad) {
        free(b);
        return NULL;
    }
    b[n] = '\0';
    *len = n;
    return b;
}

static char *cs__cell(const cJSON *v)
{
    if (cJSON_IsString(v))
        return cs_xstrdup(v->valuestring);
    if (cJSON_IsNumber(v))
        return cs_xasprintf("%.17g", v->valuedouble);
    if (cJSON_IsBool(v))
        return cs_xstrdup(cJSON_IsTrue(v) ? "true" : "false");
    if (cJSON_IsNull(v))
        return cs_xstrdup("");
    char *s = cJSON_PrintUnformatted(v);
    char *out = cs_xstrdup(s ? s : "");
    cJSON_free(s);
    return out;
}

cs_status cs_sweep_results_load(const char *dir, struct cs_sweep_results *out, cs_diags *d)
{
    memset(out, 0, sizeof *out);
    char *mpath = cs_xasprintf("%s/sweep.json", dir);
    size_t len = 0;
    char *text = cs__slurp(mpath, &len);
    if (!text) {
        cs_diag_error(d, mpath, 0, 0, "%s: not a sweep output directory (run `clustersim sweep FILE "
                      "-o %s` first)", strerror(errno ? errno : EIO), dir);
        free(mpath);
        return CS_EIO;
    }
    cJSON *m = cJSON_Parse(text);
    free(text);
    const cJSON *cols = cJSON_GetObjectItemCaseSensitive(m, "columns");
    if (!cJSON_IsArray(cols) || cJSON_GetArraySize(cols) < 4) {
        cs_diag_error(d, mpath, 0, 0, "expected a JSON object with a \"columns\" array (sweep.json "
                      "of clustersim sweep)");
        cJSON_Delete(m);
        free(mpath);
        return CS_ECONFIG;
    }
    size_t nc = (size_t)cJSON_GetArraySize(cols);
    out->cols = cs_xcalloc(nc, sizeof *out->cols);
    const cJSON *c;
    cJSON_ArrayForEach(c, cols)
    {
        out->cols[out->ncols++] = cs_xstrdup(cJSON_IsString(c) ? c->valuestring : "?");
    }
    const cJSON *na = cJSON_GetObjectItemCaseSensitive(m, "axes");
    const cJSON *nv = cJSON_GetObjectItemCaseSensitive(m, "variables");
    size_t gpus = cs_sweep_results_col(out, "gpus");
    size_t vars_guess = gpus != CS__NOCOL && gpus >= 4 ? gpus - 4 : 0;
    if (cJSON_IsNumber(na) && cJSON_IsNumber(nv) && nv->valuedouble >= na->valuedouble &&
        (size_t)nv->valuedouble == vars_guess) {
        out->naxes = (size_t)na->valuedouble;
        out->nvars = (size_t)nv->valuedouble;
    } else {
        /* Written by an older clustersim: no axis/derived split known. */
        out->naxes = out->nvars = vars_guess;
    }
    cJSON_Delete(m);
    free(mpath);

    char *jpath = cs_xasprintf("%s/results.jsonl", dir);
    text = cs__slurp(jpath, &len);
    if (!text) {
        cs_diag_error(d, jpath, 0, 0, "%s", strerror(errno ? errno : EIO));
        free(jpath);
        cs_sweep_results_fini(out);
        return CS_EIO;
    }
    size_t cap = 0, line = 0;
    char *p = text;
    while (*p) {
        char *nl = strchr(p, '\n');
        line++;
        if (!nl)
            break; /* a partial last line: a sweep still running or killed */
        *nl = '\0';
        if (*p) {
            cJSON *o = cJSON_Parse(p);
            if (!cJSON_IsObject(o)) {
                cs_diag_error(d, jpath, (int)line, 0, "expected one JSON object per line");
                cJSON_Delete(o);
                free(text);
                free(jpath);
                cs_sweep_results_fini(out);
                return CS_ECONFIG;
            }
            if (out->nrows == cap) {
                cap = cap ? cap * 2 : 256;
                out->cells = cs_xrealloc(out->cells, cap * out->ncols, sizeof *out->cells);
            }
            char **row = out->cells + out->nrows * out->ncols;
            for (size_t k = 0; k < out->ncols; k++) {
                const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, out->cols[k]);
                row[k] = v ? cs__cell(v) : NULL;
            }
            out->nrows++;
            cJSON_Delete(o);
        }
        p = nl + 1;
    }
    free(text);
    free(jpath);
    return CS_OK;
}

void cs_sweep_results_fini(struct cs_sweep_results *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->nrows * r->ncols; i++)
        free(r->cells[i]);
    free(r->cells);
    for (size_t i = 0; i < r->ncols; i++)
        free(r->cols[i]);
    free(r->cols);
    memset(r, 0, sizeof *r);
}

size_t cs_sweep_results_col(const struct cs_sweep_results *r, const char *name)
{
    for (size_t i = 0; i < r->ncols; i++)
        if (!strcmp(r->cols[i], name))
            return i;
    return CS__NOCOL;
}

const char *cs_sweep_results_get(const struct cs_sweep_results *r, size_t row, const char *name)
{
    size_t c = cs_sweep_results_col(r, name);
    return c == CS__NOCOL || row >= r->nrows ? NULL : r->cells[row * r->ncols + c];
}

/* ---- figures ---- */

static const char *const cs__fig_names[CS_SWEEP_FIG_COUNT] = {
    "sweep_scaling", "sweep_topology", "sweep_cost", "sweep_goodput", "sweep_throughput"};
static const char *const cs__fig_titles[CS_SWEEP_FIG_COUNT] = {
    "scaling efficiency against GPUs", "throughput per topology and oversubscription",
    "cost per utilized GPU-hour against utilization", "goodput against checkpoint interval",
    "throughput against the first varying axis"};

const char *cs_sweep_fig_name(enum cs_sweep_fig f)
{
    return (unsigned)f < CS_SWEEP_FIG_COUNT ? cs__fig_names[f] : "?";
}

const char *cs_sweep_fig_title(enum cs_sweep_fig f)
{
    return (unsigned)f < CS_SWEEP_FIG_COUNT ? cs__fig_titles[f] : "?";
}

void cs_sweep_page_stem(enum cs_sweep_fig f, size_t page, char *buf, size_t buflen)
{
    if (page == 0)
        snprintf(buf, buflen, "%s", cs_sweep_fig_name(f));
    else
        snprintf(buf, buflen, "%s_p%zu", cs_sweep_fig_name(f), page + 1);
}

void cs_sweep_paginate(size_t npanels, size_t *shown, size_t *pages)
{
    size_t cap = (size_t)CS_SWEEP_PANELS_PER_PAGE * CS_SWEEP_MAX_PAGES;
    *shown = npanels < cap ? npanels : cap;
    *pages = (*shown + CS_SWEEP_PANELS_PER_PAGE - 1) / CS_SWEEP_PANELS_PER_PAGE;
}

/* ---- units of axis values, by the key's last component ---- */

enum cs__unit {
    CS__U_NONE,
    CS__U_RATIO,    /* a fraction, shown in % */
    CS__U_MONEY,    /* USD */
    CS__U_BYTES,
    CS__U_COUNT,    /* tokens: "300B" */
    CS__U_TIME,     /* seconds */
    CS__U_OVERSUB,  /* N:1 */
    CS__U_USD_GPU_H /* USD per GPU-hour */
};

/* The scenario keys with a unit (config/cfg_*.c: their CS_UNIT_* fields),
 * by last component; the sweep's cells hold them as written (a number, or
 * text such as "30min" that base/units.c parses). */
static const struct {
    const char *leaf;
    enum cs__unit u;
} cs__leaf_units[] = {
    {"utilization", CS__U_RATIO},       {"cost_of_capital", CS__U_RATIO},
    {"idle_power_fraction", CS__U_RATIO}, {"tp_comm_overlap", CS__U_RATIO},
    {"sensitivity", CS__U_RATIO},       {"efficiency", CS__U_RATIO},
    {"load_cv", CS__U_RATIO},           {"network_cost_fraction", CS__U_RATIO},
    {"gpu_price", CS__U_MONEY},         {"server_price", CS__U_MONEY},
    {"staff_per_year", CS__U_MONEY},    {"liquid_cooling_per_kw", CS__U_MONEY},
    {"price", CS__U_MONEY},             {"dp_bucket", CS__U_BYTES},
    {"size", CS__U_BYTES},              {"bytes", CS__U_BYTES},
    {"egress", CS__U_BYTES},            {"storage", CS__U_BYTES},
    {"sample_bytes", CS__U_BYTES},      {"capacity", CS__U_BYTES},
    {"hbm", CS__U_BYTES},               {"tokens", CS__U_COUNT},
    {"interval", CS__U_TIME},           {"mtbf", CS__U_TIME},
    {"repair", CS__U_TIME},             {"detection", CS__U_TIME},
    {"restart", CS__U_TIME},            {"duration", CS__U_TIME},
    {"latency", CS__U_TIME},            {"batch_time", CS__U_TIME},
    {"spot_lost", CS__U_TIME},          {"max_duration", CS__U_TIME},
    {"oversubscription", CS__U_OVERSUB}, {"on_demand", CS__U_USD_GPU_H},
    {"reserved_1y", CS__U_USD_GPU_H},   {"reserved_3y", CS__U_USD_GPU_H},
    {"spot", CS__U_USD_GPU_H},
};

static const char *cs__leaf(const char *key)
{
    const char *k = strrchr(key, '.');
    return k ? k + 1 : key;
}

static enum cs__unit cs__unit_of(const char *key)
{
    const char *leaf = cs__leaf(key);
    for (size_t i = 0; i < sizeof cs__leaf_units / sizeof cs__leaf_units[0]; i++)
        if (!strcmp(cs__leaf_units[i].leaf, leaf))
            return cs__leaf_units[i].u;
    return CS__U_NONE;
}

static bool cs__unit_kind(enum cs__unit u, enum cs_unit_kind *k)
{
    switch (u) {
    case CS__U_RATIO: *k = CS_UNIT_RATIO; return true;
    case CS__U_MONEY: *k = CS_UNIT_MONEY; return true;
    case CS__U_BYTES: *k = CS_UNIT_BYTES; return true;
    case CS__U_COUNT: *k = CS_UNIT_COUNT; return true;
    case CS__U_TIME: *k = CS_UNIT_TIME; return true;
    case CS__U_USD_GPU_H: *k = CS_UNIT_USD_PER_GPU_HOUR; return true;
    default: return false;
    }
}

/* An axis value for people: numbers at CS_NUM_LABEL_DIGITS significant
 * digits, with the key's unit where it has one ("10%", "$30K", "2:1");
 * text as written. Caller frees. */
static char *cs__value_text(const char *key, const char *cell)
{
    double v = NAN;
    if (!cell)
        return cs_xstrdup("");
    if (!cs_num_parse_double(cell, &v) || !isfinite(v))
        return cs_xstrdup(cell);
    char b[96];
    enum cs__unit u = cs__unit_of(key);
    enum cs_unit_kind k;
    if (u == CS__U_OVERSUB)
        return cs_xasprintf("%s:1", cs_num_format(v, CS_NUM_LABEL_DIGITS, b, sizeof b));
    if (cs__unit_kind(u, &k))
        return cs_xstrdup(cs_units_format(v, k, b, sizeof b));
    return cs_xstrdup(cs_num_format(v, CS_NUM_LABEL_DIGITS, b, sizeof b));
}

/* An axis value as a number on a figure's x axis, in the unit of
 * cs__unit_title: fractions in %, bytes in GB, the rest in SI. NaN when the
 * cell is neither a number nor a quantity of the key's kind. */
static double cs__value_num(const char *key, const char *cell)
{
    double v = NAN;
    if (!cell)
        return NAN;
    enum cs__unit u = cs__unit_of(key);
    enum cs_unit_kind k;
    if (!cs_num_parse_double(cell, &v)) {
        if (!cs__unit_kind(u, &k) || cs_units_parse(cell, k, &v, NULL, 0) != CS_OK)
            return NAN;
    }
    if (u == CS__U_RATIO)
        return 100 * v;
    if (u == CS__U_BYTES)
        return v / 1e9;
    return v;
}

/* " (%)", " (USD)", ...: the unit of cs__value_num for an axis title. */
static const char *cs__unit_title(const char *key)
{
    switch (cs__unit_of(key)) {
    case CS__U_RATIO: return " (%)";
    case CS__U_MONEY: return " (USD)";
    case CS__U_BYTES: return " (GB)";
    case CS__U_COUNT: return " (count)";
    case CS__U_TIME: return " (s)";
    case CS__U_OVERSUB: return " (N:1)";
    case CS__U_USD_GPU_H: return " (USD per GPU-hour)";
    default: break;
    }
    /* Plain counts whose unit the key implies. */
    static const char *const plain[][2] = {
        {"tp", " (GPUs)"}, {"pp", " (stages)"}, {"dp", " (replicas)"}, {"ep", " (GPUs)"},
        {"cp", " (GPUs)"}, {"nodes", " (nodes)"}, {"gpus_per_node", " (GPUs per node)"},
        {"replicas", " (Monte Carlo replicas)"}, {"global_batch", " (sequences)"},
        {"micro_batch", " (sequences)"}, {"seq_len", " (tokens)"}};
    for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++)
        if (!strcmp(cs__leaf(key), plain[i][0]))
            return plain[i][1];
    return "";
}

/* ---- the figure model: rows, the axes' roles, series and panels ---- */

static const char *cs__cell_at(const struct cs_sweep_results *r, size_t row, size_t col)
{
    return col == CS__NOCOL ? NULL : r->cells[row * r->ncols + col];
}

static double cs__num(const struct cs_sweep_results *r, size_t row, size_t col)
{
    const char *s = cs__cell_at(r, row, col);
    double v = NAN;
    return s && cs_num_parse_double(s, &v) ? v : NAN;
}

static bool cs__is_gpu_axis(const char *name)
{
    return !strcmp(name, "cluster.nodes") || !strcmp(name, "cluster.gpus_per_node");
}

static bool cs__row_ok(const struct cs_sweep_results *r, size_t row)
{
    const char *st = cs_sweep_results_get(r, row, "status");
    return st && !strcmp(st, "ok");
}

/* Column index (in cols) of the i-th axis: the variable columns follow
 * point, key, status, reason. */
static size_t cs__axis(size_t i)
{
    return 4 + i;
}

static size_t cs__axis_named(const struct cs_sweep_results *r, const char *name)
{
    for (size_t i = 0; i < r->naxes; i++)
        if (!strcmp(r->cols[cs__axis(i)], name))
            return cs__axis(i);
    return CS__NOCOL;
}

static size_t cs__axis_prefixed(const struct cs_sweep_results *r, const char *prefix)
{
    for (size_t i = 0; i < r->naxes; i++)
        if (!strncmp(r->cols[cs__axis(i)], prefix, strlen(prefix)))
            return cs__axis(i);
    return CS__NOCOL;
}

/* Single-quoted gnuplot string (no escapes inside; a quote doubled;
 * control characters as spaces). */
static void cs__gp_sq(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++) {
        if (*s == '\'')
            fputs("''", f);
        else
            fputc((unsigned char)*s < 0x20 ? ' ' : *s, f);
    }
    fputc('\'', f);
}

/* A gnuplot data-file string: double quotes, inner quotes and backslashes
 * replaced, since gnuplot has no escape inside quoted data fields. */
static void cs__gp_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++)
        fputc(*s == '"' ? '\'' : *s == '\\' ? '/' : ((unsigned char)*s < 0x20 ? ' ' : *s), f);
    fputc('"', f);
}

#define CS__NY 8

struct cs__pt {
    double x, y[CS__NY];
    char *xlabel; /* owned by the figure */
};

static int cs__cmp_pt(const void *a, const void *b)
{
    const struct cs__pt *p = a, *q = b;
    return (p->x > q->x) - (p->x < q->x);
}

struct cs__fig {
    const struct cs_sweep_results *r;
    enum cs_sweep_fig f;
    size_t x_col;    /* the axis on x; CS__NOCOL for scaling (x = GPUs) */
    bool no_gpu;     /* scaling: the GPU axes are on x too */
    bool xcat;       /* categorical x: x = index into cats */
    char **cats;
    size_t ncats;
    bool xlabels;    /* the data's last column is the x tic label */
    size_t ref_col;
    bool (*point)(const struct cs__fig *F, size_t row, struct cs__pt *pt);
    size_t ny;
    const char *const *ynames;
    bool scale_first; /* y[0] in % of the series' smallest point */
    bool multi_y;     /* the y columns are the series (cost: 7 options) */
    const char *xname;
    /* the rows drawn */
    size_t n;
    size_t *rows;
    struct cs__pt *pts;
    enum cs_sweep_role *role; /* per axis */
    size_t *sid, *gid;        /* per drawn row: series, panel */
    char **slab, **glab;      /* series and panel labels, first appearance order */
    size_t ns, ng;
    char *fixed;              /* "key=value, ..." of the fixed axes; NULL when none */
    char *note;               /* the title's second line (fixed axes, rows not drawn) */
    char *heading;            /* the title's first line */
};

static const char *const cs__options[7] = {"on-prem", "colocation", "cloud-on-demand",
                                           "cloud-reserved-1y", "cloud-reserved-3y",
                                           "cloud-spot", "hybrid"};

static bool cs__pt_scaling(const struct cs__fig *F, size_t row, struct cs__pt *pt)
{
    pt->x = cs__num(F->r, row, cs_sweep_results_col(F->r, "gpus"));
    pt->y[0] = cs__num(F->r, row, F->ref_col);
    pt->y[2] = cs__num(F->r, row, cs_sweep_results_col(F->r, "mfu"));
    return isfinite(pt->y[0]);
}

static bool cs__pt_topology(const struct cs__fig *F, size_t row, struct cs__pt *pt)
{
    const struct cs_sweep_results *r = F->r;
    pt->y[0] = cs__num(r, row, cs_sweep_results_col(r, "tokens_per_s_per_gpu"));
    pt->y[1] = cs__num(r, row, cs_sweep_results_col(r, "step_time_s"));
    pt->y[2] = cs__num(r, row, cs_sweep_results_col(r, "exposed_comm_s"));
    const char *v = cs__cell_at(r, row, F->x_col);
    if (!F->xcat) {
        pt->x = cs__num(r, row, F->x_col);
        return isfinite(pt->x) && isfinite(pt->y[0]);
    }
    pt->x = NAN;
    for (size_t i = 0; v && i < F->ncats; i++)
        if (!strcmp(F->cats[i], v))
            pt->x = (double)i;
    return isfinite(pt->y[0]);
}

static bool cs__pt_cost(const struct cs__fig *F, size_t row, struct cs__pt *pt)
{
    const struct cs_sweep_results *r = F->r;
    pt->x = cs__value_num(r->cols[F->x_col], cs__cell_at(r, row, F->x_col));
    for (int o = 0; o < 7; o++) {
        char name[96];
        snprintf(name, sizeof name, "tco.%s.usd_per_utilized_gpu_hour", cs__options[o]);
        pt->y[o] = cs__num(r, row, cs_sweep_results_col(r, name));
    }
    /* A row without any option's cost is not drawn (a panel of such rows
     * alone would stop gnuplot: nothing to plot). */
    for (int o = 0; o < 7; o++)
        if (isfinite(pt->y[o]))
            return true;
    return false;
}

static bool cs__pt_goodput(const struct cs__fig *F, size_t row, struct cs__pt *pt)
{
    const struct cs_sweep_results *r = F->r;
    pt->x = cs__num(r, row, cs_sweep_results_col(r, "run.checkpoint_interval_s")) / 60.0;
    pt->y[0] = 100.0 * cs__num(r, row, cs_sweep_results_col(r, "run.goodput"));
    pt->y[1] = cs__num(r, row, cs_sweep_results_col(r, "run.time_to_train_s")) / 3600.0;
    pt->y[2] = cs__num(r, row, cs_sweep_results_col(r, "run.interruptions"));
    return isfinite(pt->y[0]);
}

static bool cs__pt_throughput(const struct cs__fig *F, size_t row, struct cs__pt *pt)
{
    const struct cs_sweep_results *r = F->r;
    pt->y[0] = cs__num(r, row, cs_sweep_results_col(r, "tokens_per_s_per_gpu"));
    pt->y[1] = cs__num(r, row, cs_sweep_results_col(r, "step_time_s"));
    pt->y[2] = cs__num(r, row, cs_sweep_results_col(r, "mfu"));
    const char *v = cs__cell_at(r, row, F->x_col);
    if (!F->xcat) {
        pt->x = cs__value_num(r->cols[F->x_col], v);
        return isfinite(pt->y[0]);
    }
    pt->x = NAN;
    for (size_t i = 0; v && i < F->ncats; i++)
        if (!strcmp(F->cats[i], v))
            pt->x = (double)i;
    return isfinite(pt->y[0]);
}

/* Index of s in v[0..n), else appended (a copy); returns the index. */
static size_t cs__intern(char ***v, size_t *n, size_t *cap, const char *s)
{
    for (size_t k = 0; k < *n; k++)
        if (!strcmp((*v)[k], s))
            return k;
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 16;
        *v = cs_xrealloc(*v, *cap, sizeof **v);
    }
    (*v)[*n] = cs_xstrdup(s);
    return (*n)++;
}

static void cs__free_strs(char **v, size_t n)
{
    for (size_t i = 0; v && i < n; i++)
        free(v[i]);
    free(v);
}

/* Distinct ok-row values of column c in first-appearance order. */
static size_t cs__distinct(const struct cs_sweep_results *r, size_t c, char ***out)
{
    char **v = NULL;
    size_t n = 0, cap = 0;
    for (size_t i = 0; i < r->nrows; i++) {
        const char *s = cs__cell_at(r, i, c);
        if (s && cs__row_ok(r, i))
            cs__intern(&v, &n, &cap, s);
    }
    *out = v;
    return n;
}

/* The name of axis i in a legend: the key's last component, or the whole
 * key when another axis ends the same way. */
static const char *cs__axis_label_name(const struct cs_sweep_results *r, size_t i)
{
    const char *key = r->cols[cs__axis(i)], *leaf = cs__leaf(key);
    for (size_t j = 0; j < r->naxes; j++)
        if (j != i && !strcmp(cs__leaf(r->cols[cs__axis(j)]), leaf))
            return key;
    return leaf;
}

/* "name=value, ..." of the axes whose flag is set, for drawn row k; "" when
 * none. full: whole keys. Caller frees. */
static char *cs__label(const struct cs__fig *F, size_t k, const bool *take, bool full)
{
    const struct cs_sweep_results *r = F->r;
    struct cs_strbuf b = {0};
    cs_strbuf_puts(&b, "");
    for (size_t i = 0; i < r->naxes; i++) {
        if (!take[i])
            continue;
        const char *key = r->cols[cs__axis(i)];
        char *v = cs__value_text(key, cs__cell_at(r, F->rows[k], cs__axis(i)));
        if (b.n)
            cs_strbuf_puts(&b, ", ");
        cs_strbuf_puts(&b, full ? key : cs__axis_label_name(r, i));
        cs_strbuf_puts(&b, "=");
        cs_strbuf_puts(&b, v);
        free(v);
    }
    return b.s;
}

/* Distinct labels over the drawn rows for the axes in take. */
static size_t cs__count_combos(const struct cs__fig *F, const bool *take)
{
    char **v = NULL;
    size_t n = 0, cap = 0;
    for (size_t k = 0; k < F->n; k++) {
        char *l = cs__label(F, k, take, false);
        cs__intern(&v, &n, &cap, l);
        free(l);
    }
    cs__free_strs(v, n);
    return n;
}

static void cs__fig_fini(struct cs__fig *F)
{
    cs__free_strs(F->cats, F->ncats);
    for (size_t k = 0; F->pts && k < F->n; k++)
        free(F->pts[k].xlabel);
    free(F->pts);
    free(F->rows);
    free(F->role);
    free(F->sid);
    free(F->gid);
    cs__free_strs(F->slab, F->ns);
    cs__free_strs(F->glab, F->ng);
    free(F->fixed);
    free(F->note);
    free(F->heading);
    memset(F, 0, sizeof *F);
}

static bool cs__fig_build(const struct cs_sweep_results *r, enum cs_sweep_fig f,
                          struct cs__fig *F);

/* Chooses the figure's x, y and point reader; false when the results do
 * not allow the figure. */
static bool cs__fig_select(const struct cs_sweep_results *r, enum cs_sweep_fig f,
                           struct cs__fig *F)
{
    static const char *const y_scaling[] = {"efficiency_pct", "tokens_per_s_per_gpu", "mfu"};
    static const char *const y_topo[] = {"tokens_per_s_per_gpu", "step_time_s",
                                         "exposed_comm_s"};
    static const char *const y_good[] = {"goodput_pct", "time_to_train_h", "interruptions"};
    static const char *const y_thr[] = {"tokens_per_s_per_gpu", "step_time_s", "mfu"};
    size_t topo = cs__axis_named(r, "cluster.fabric.topology");
    size_t over = cs__axis_named(r, "cluster.fabric.oversubscription");
    switch (f) {
    case CS_SWEEP_FIG_SCALING: {
        bool any = false;
        for (size_t i = 0; i < r->naxes; i++)
            any = any || cs__is_gpu_axis(r->cols[cs__axis(i)]);
        F->ref_col = cs_sweep_results_col(r, "tokens_per_s_per_gpu");
        if (!any || F->ref_col == CS__NOCOL)
            return false;
        char **g = NULL;
        size_t ng = cs__distinct(r, cs_sweep_results_col(r, "gpus"), &g);
        cs__free_strs(g, ng);
        if (ng < 2)
            return false; /* one GPU count: no curve */
        F->no_gpu = true;
        F->point = cs__pt_scaling;
        F->ny = 3;
        F->xname = "gpus";
        F->ynames = y_scaling;
        F->scale_first = true;
        return true;
    }
    case CS_SWEEP_FIG_TOPOLOGY:
        if (topo == CS__NOCOL && over == CS__NOCOL)
            return false;
        F->x_col = over != CS__NOCOL ? over : topo;
        if (over == CS__NOCOL) {
            F->xcat = true;
            F->ncats = cs__distinct(r, topo, &F->cats);
        }
        F->xlabels = true;
        F->point = cs__pt_topology;
        F->ny = 3;
        F->xname = over != CS__NOCOL ? "oversubscription" : "topology";
        F->ynames = y_topo;
        return true;
    case CS_SWEEP_FIG_COST:
        if (cs_sweep_results_col(r, "tco.on-prem.usd_per_utilized_gpu_hour") == CS__NOCOL ||
            r->naxes == 0)
            return false;
        F->x_col = cs__axis_named(r, "cost.utilization");
        if (F->x_col == CS__NOCOL)
            F->x_col = cs__axis_prefixed(r, "cost."); /* another cost axis */
        if (F->x_col == CS__NOCOL)
            return false; /* tco columns of a base with cost:, but no cost axis */
        F->point = cs__pt_cost;
        F->ny = 7;
        F->xname = r->cols[F->x_col];
        F->ynames = cs__options;
        F->multi_y = true;
        F->xlabels = true;
        return true;
    case CS_SWEEP_FIG_GOODPUT:
        if (cs_sweep_results_col(r, "run.goodput") == CS__NOCOL)
            return false;
        F->x_col = cs__axis_prefixed(r, "checkpoint.interval");
        if (F->x_col == CS__NOCOL)
            return false;
        F->point = cs__pt_goodput;
        F->ny = 3;
        F->xname = "interval_min";
        F->ynames = y_good;
        F->xlabels = true;
        return true;
    case CS_SWEEP_FIG_THROUGHPUT: {
        /* Only for results none of the other figures draws. */
        for (int g = 0; g < CS_SWEEP_FIG_THROUGHPUT; g++) {
            struct cs__fig o;
            bool made = cs__fig_build(r, (enum cs_sweep_fig)g, &o);
            cs__fig_fini(&o);
            if (made)
                return false;
        }
        if (cs_sweep_results_col(r, "tokens_per_s_per_gpu") == CS__NOCOL)
            return false;
        /* x: the first axis with two values or more among the ok rows
         * (numbers preferred, else categories). */
        size_t num = CS__NOCOL, cat = CS__NOCOL;
        for (size_t i = 0; i < r->naxes; i++) {
            size_t c = cs__axis(i);
            char **v = NULL;
            size_t n = cs__distinct(r, c, &v);
            bool numeric = n > 0;
            for (size_t k = 0; k < n && numeric; k++)
                numeric = isfinite(cs__value_num(r->cols[c], v[k]));
            cs__free_strs(v, n);
            if (n < 2)
                continue;
            if (numeric && num == CS__NOCOL)
                num = c;
            if (!numeric && cat == CS__NOCOL)
                cat = c;
        }
        F->x_col = num != CS__NOCOL ? num : cat;
        if (F->x_col == CS__NOCOL)
            return false;
        if (num == CS__NOCOL) {
            F->xcat = true;
            F->ncats = cs__distinct(r, F->x_col, &F->cats);
        }
        F->xlabels = true;
        F->point = cs__pt_throughput;
        F->ny = 3;
        F->xname = r->cols[F->x_col];
        F->ynames = y_thr;
        return true;
    }
    default:
        return false;
    }
}

/* The title's first line. Caller frees. */
static char *cs__heading(const struct cs__fig *F)
{
    switch (F->f) {
    case CS_SWEEP_FIG_SCALING:
        return cs_xstrdup("Scaling efficiency: tokens/s per GPU in % of the line's smallest point");
    case CS_SWEEP_FIG_TOPOLOGY:
        return cs_xstrdup("Throughput per topology and oversubscription");
    case CS_SWEEP_FIG_COST:
        return cs_xasprintf("Cost per utilized GPU-hour of each ownership option against %s",
                            F->r->cols[F->x_col]);
    case CS_SWEEP_FIG_GOODPUT:
        return cs_xstrdup("Goodput (failure-free over actual time to train) against checkpoint "
                          "interval");
    default:
        return cs_xasprintf("Throughput (tokens/s per GPU) against %s", F->r->cols[F->x_col]);
    }
}

/* "fixed: key=value, ...; not drawn: 4 of 8 points (4 nofit)", either part
 * alone, or NULL. Caller frees. */
static char *cs__not_drawn_note(const struct cs__fig *F)
{
    const struct cs_sweep_results *r = F->r;
    char **st = NULL;
    size_t nst = 0, cap = 0, *cnt = cs_xcalloc(r->nrows + 1, sizeof *cnt);
    bool *drawn = cs_xcalloc(r->nrows + 1, sizeof *drawn);
    for (size_t k = 0; k < F->n; k++)
        drawn[F->rows[k]] = true;
    size_t left = 0;
    for (size_t i = 0; i < r->nrows; i++) {
        if (drawn[i])
            continue;
        const char *s = cs_sweep_results_get(r, i, "status");
        s = !s ? "no status" : !strcmp(s, "ok") ? "without this figure's values" : s;
        cnt[cs__intern(&st, &nst, &cap, s)]++;
        left++;
    }
    struct cs_strbuf b = {0};
    if (F->fixed) {
        cs_strbuf_puts(&b, "fixed: ");
        cs_strbuf_puts(&b, F->fixed);
    }
    if (left) {
        char *h = cs_xasprintf("%snot drawn: %zu of %zu points (", b.n ? "; " : "", left,
                               r->nrows);
        cs_strbuf_puts(&b, h);
        free(h);
        for (size_t k = 0; k < nst; k++) {
            char *p = cs_xasprintf("%s%zu %s", k ? ", " : "", cnt[k], st[k]);
            cs_strbuf_puts(&b, p);
            free(p);
        }
        cs_strbuf_puts(&b, ")");
    }
    cs__free_strs(st, nst);
    free(cnt);
    free(drawn);
    return b.s;
}

/* Figure f of the results: the rows it draws, the role of every axis,
 * series and panels. False (F empty, nothing to free) when the results do
 * not make it. */
static bool cs__fig_build(const struct cs_sweep_results *r, enum cs_sweep_fig f,
                          struct cs__fig *F)
{
    memset(F, 0, sizeof *F);
    F->r = r;
    F->f = f;
    F->x_col = F->ref_col = CS__NOCOL;
    if (!cs__fig_select(r, f, F)) {
        cs__fig_fini(F);
        return false;
    }
    size_t cap = r->nrows ? r->nrows : 1;
    F->rows = cs_xcalloc(cap, sizeof *F->rows);
    F->pts = cs_xcalloc(cap, sizeof *F->pts);
    for (size_t i = 0; i < r->nrows; i++) {
        if (!cs__row_ok(r, i))
            continue;
        struct cs__pt pt;
        memset(&pt, 0, sizeof pt);
        for (int y = 0; y < CS__NY; y++)
            pt.y[y] = NAN;
        if (!F->point(F, i, &pt) || !isfinite(pt.x))
            continue;
        if (F->xlabels)
            pt.xlabel = cs__value_text(r->cols[F->x_col], cs__cell_at(r, i, F->x_col));
        F->rows[F->n] = i;
        F->pts[F->n++] = pt;
    }
    if (F->n == 0) {
        cs__fig_fini(F);
        return false;
    }
    /* Roles: x; fixed (one value among the drawn rows: the title); varying
     * axes are series (legend) while the series stay within the palette,
     * the innermost (last) axes first, and panels past that. The cost
     * figure's series are its seven options: all its varying axes are
     * panels. */
    size_t na = r->naxes;
    F->role = cs_xcalloc(na ? na : 1, sizeof *F->role);
    bool *take = cs_xcalloc(na ? na : 1, sizeof *take);
    bool *fixed = cs_xcalloc(na ? na : 1, sizeof *fixed);
    for (size_t i = 0; i < na; i++) {
        size_t c = cs__axis(i);
        if (c == F->x_col || (F->no_gpu && cs__is_gpu_axis(r->cols[c]))) {
            F->role[i] = CS_SWEEP_ROLE_X;
            continue;
        }
        memset(take, 0, na * sizeof *take);
        take[i] = true;
        size_t nv = cs__count_combos(F, take);
        F->role[i] = nv <= 1 ? CS_SWEEP_ROLE_FIXED : CS_SWEEP_ROLE_PANEL;
        fixed[i] = nv <= 1;
    }
    memset(take, 0, na * sizeof *take);
    if (!F->multi_y)
        for (size_t i = na; i-- > 0;) {
            if (F->role[i] != CS_SWEEP_ROLE_PANEL)
                continue;
            take[i] = true;
            if (cs__count_combos(F, take) <= CS_SWEEP_MAX_SERIES)
                F->role[i] = CS_SWEEP_ROLE_SERIES;
            else
                take[i] = false;
        }
    bool *panel = cs_xcalloc(na ? na : 1, sizeof *panel);
    for (size_t i = 0; i < na; i++)
        panel[i] = F->role[i] == CS_SWEEP_ROLE_PANEL;
    F->sid = cs_xcalloc(F->n, sizeof *F->sid);
    F->gid = cs_xcalloc(F->n, sizeof *F->gid);
    size_t scap = 0, gcap = 0;
    for (size_t k = 0; k < F->n; k++) {
        char *s = cs__label(F, k, take, false), *g = cs__label(F, k, panel, false);
        F->sid[k] = cs__intern(&F->slab, &F->ns, &scap, s[0] ? s : "all points");
        F->gid[k] = cs__intern(&F->glab, &F->ng, &gcap, g);
        free(s);
        free(g);
    }
    bool anyfixed = false;
    for (size_t i = 0; i < na; i++)
        anyfixed = anyfixed || fixed[i];
    if (anyfixed)
        F->fixed = cs__label(F, 0, fixed, true);
    F->note = cs__not_drawn_note(F);
    F->heading = cs__heading(F);
    free(take);
    free(fixed);
    free(panel);
    return true;
}

bool cs_sweep_fig_layout(const struct cs_sweep_results *r, enum cs_sweep_fig f,
                         struct cs_sweep_layout *out)
{
    memset(out, 0, sizeof *out);
    struct cs__fig F;
    if ((unsigned)f >= CS_SWEEP_FIG_COUNT || !cs__fig_build(r, f, &F))
        return false;
    out->naxes = r->naxes;
    out->role = F.role;
    F.role = NULL;
    out->nseries = F.multi_y ? 7 : F.ns;
    out->npanels = F.ng;
    cs_sweep_paginate(F.ng, &out->shown, &out->pages);
    if (F.fixed)
        out->fixed = cs_xstrdup(F.fixed);
    out->series = cs_xcalloc(out->nseries, sizeof *out->series);
    for (size_t s = 0; s < out->nseries; s++)
        out->series[s] = cs_xstrdup(F.multi_y ? cs__options[s] : F.slab[s]);
    out->panels = cs_xcalloc(F.ng, sizeof *out->panels);
    for (size_t g = 0; g < F.ng; g++)
        out->panels[g] = cs_xstrdup(F.glab[g]);
    cs__fig_fini(&F);
    return true;
}

void cs_sweep_layout_fini(struct cs_sweep_layout *l)
{
    if (!l)
        return;
    free(l->role);
    free(l->fixed);
    cs__free_strs(l->series, l->nseries);
    cs__free_strs(l->panels, l->npanels);
    memset(l, 0, sizeof *l);
}

size_t cs_sweep_fig_pages(const struct cs_sweep_results *r, enum cs_sweep_fig f)
{
    struct cs_sweep_layout l;
    if (!cs_sweep_fig_layout(r, f, &l))
        return 0;
    size_t p = l.pages;
    cs_sweep_layout_fini(&l);
    return p;
}

/* ---- data ---- */

/* Writes the blocks (one per panel and series, panels first) and sets
 * blk[g * ns + s] to the block index, or -1 when that pair has no row. */
static void cs__write_blocks(const struct cs__fig *F, FILE *f, long *blk)
{
    size_t ns = F->multi_y ? 1 : F->ns;
    struct cs__pt *pts = cs_xcalloc(F->n, sizeof *pts);
    long blocks = 0;
    for (size_t g = 0; g < F->ng; g++) {
        for (size_t s = 0; s < ns; s++) {
            size_t np = 0;
            for (size_t k = 0; k < F->n; k++)
                if (F->gid[k] == g && (F->multi_y || F->sid[k] == s))
                    pts[np++] = F->pts[k];
            blk[g * ns + s] = -1;
            if (!np)
                continue;
            qsort(pts, np, sizeof *pts, cs__cmp_pt);
            if (F->scale_first) { /* efficiency in % of the smallest point's y[0] */
                double ref = pts[0].y[0];
                for (size_t i = 0; i < np; i++) {
                    pts[i].y[1] = pts[i].y[0];
                    pts[i].y[0] = ref > 0 ? 100.0 * pts[i].y[0] / ref : NAN;
                }
            }
            if (blocks)
                fputs("\n\n", f);
            blk[g * ns + s] = blocks++;
            if (F->ng > 1 && !F->multi_y)
                fprintf(f, "# panel %zu: %s\n", g + 1, F->glab[g]);
            fprintf(f, "%s ", F->xname);
            if (F->multi_y)
                cs__gp_str(f, F->glab[g][0] ? F->glab[g] : "all points");
            else
                cs__gp_str(f, F->slab[s]);
            for (size_t y = 1; y < F->ny; y++)
                fprintf(f, " %s", F->ynames[y]);
            fputs(F->xlabels ? " xlabel\n" : "\n", f);
            for (size_t i = 0; i < np; i++) {
                fprintf(f, "%.10g", pts[i].x);
                for (size_t y = 0; y < F->ny; y++) {
                    if (isfinite(pts[i].y[y]))
                        fprintf(f, " %.10g", pts[i].y[y]);
                    else
                        fputs(" NaN", f);
                }
                if (F->xlabels) {
                    fputc(' ', f);
                    cs__gp_str(f, pts[i].xlabel ? pts[i].xlabel : "");
                }
                fputc('\n', f);
            }
        }
    }
    free(pts);
}

/* ---- script ---- */

/* Figure title, axis titles and scales. */
static void cs__script_axes(FILE *f, const struct cs__fig *F)
{
    const struct cs_sweep_results *r = F->r;
    const char *xl = "", *yl = "";
    char *xbuf = NULL;
    switch (F->f) {
    case CS_SWEEP_FIG_SCALING:
        xl = "GPUs (log scale)";
        yl = "scaling efficiency (%)";
        fputs("set logscale x 2\nset yrange [0:110<*] noextend\n", f); /* 110% at least */
        break;
    case CS_SWEEP_FIG_TOPOLOGY:
        xl = F->xcat ? "fabric topology" : "leaf oversubscription (N:1)";
        yl = "throughput (tokens/s per GPU)";
        fputs("set yrange [0:*]\nset offsets 0.3, 0.3, 0, 0\n", f);
        break;
    case CS_SWEEP_FIG_COST:
        if (!strcmp(r->cols[F->x_col], "cost.utilization"))
            xl = "utilization of the owned fleet (%)";
        else
            xl = xbuf = cs_xasprintf("%s%s", r->cols[F->x_col], cs__unit_title(r->cols[F->x_col]));
        yl = "USD per utilized GPU-hour (log scale)";
        /* Labels at 1-2-5 steps: decades alone are too few to read a cost. */
        fputs("set logscale y\nset ytics add ('0.2' 0.2, '0.5' 0.5, '2' 2, '5' 5, '20' 20, "
              "'50' 50, '200' 200, '500' 500)\n", f);
        break;
    case CS_SWEEP_FIG_GOODPUT:
        xl = "checkpoint interval (minutes, log scale)";
        yl = "goodput (%)";
        fputs("set logscale x\n", f);
        break;
    case CS_SWEEP_FIG_THROUGHPUT:
        xl = xbuf = cs_xasprintf("%s%s", r->cols[F->x_col],
                                 F->xcat ? "" : cs__unit_title(r->cols[F->x_col]));
        yl = "throughput (tokens/s per GPU)";
        fputs("set yrange [0:*]\nset offsets 0.3, 0.3, 0, 0\n", f);
        break;
    default:
        break;
    }
    fputs("xl = ", f);
    cs__gp_sq(f, xl);
    fputs("\nyl = ", f);
    cs__gp_sq(f, yl);
    fputs("\nset xlabel xl\nset ylabel yl\nset grid\n", f);
    free(xbuf);
}

/* The x tic labels: the data's label column when the figure has one and
 * at most 16 distinct x values (6 on a grid of panels; gnuplot's own tics past that). */
static bool cs__use_xtics(const struct cs__fig *F)
{
    size_t most = F->ng > 1 ? 6 : 16; /* panels are narrower */
    if (!F->xlabels)
        return false;
    if (F->xcat)
        return true;
    double seen[17];
    size_t n = 0;
    for (size_t k = 0; k < F->n && n <= most; k++) {
        bool dup = false;
        for (size_t j = 0; j < n && !dup; j++)
            dup = seen[j] == F->pts[k].x;
        if (!dup)
            seen[n++] = F->pts[k].x;
    }
    return n <= most;
}

/* The plot command of panel g. */
static void cs__script_panel(FILE *f, const struct cs__fig *F, const char *dat, size_t g,
                             const long *blk)
{
    bool xt = cs__use_xtics(F);
    int lcol = (int)F->ny + 2; /* x, y..., label */
    bool first = true;
    fputs("plot ", f);
    if (F->multi_y) {
        long b = blk[g];
        for (size_t c = 0; c < 7 && b >= 0; c++) {
            fprintf(f, "%s", first ? "" : ", \\\n     ");
            cs__gp_sq(f, first ? dat : "");
            fprintf(f, " index %ld using 1:%zu", b, c + 2);
            if (xt && first)
                fprintf(f, ":xtic(%d)", lcol);
            fprintf(f, " with linespoints lt %zu title ", c + 1);
            cs__gp_sq(f, cs__options[c]);
            first = false;
        }
    } else {
        for (size_t s = 0; s < F->ns; s++) {
            long b = blk[g * F->ns + s];
            if (b < 0)
                continue;
            fprintf(f, "%s", first ? "" : ", \\\n     ");
            cs__gp_sq(f, first ? dat : "");
            fprintf(f, " index %ld using 1:2", b);
            if (xt)
                fprintf(f, ":xtic(%d)", lcol);
            fprintf(f, " with linespoints lt %zu title ", s + 1);
            cs__gp_sq(f, F->slab[s]);
            first = false;
        }
    }
    fputc('\n', f);
}

/* The shared key of a page of panels, in the band [0, kh) of the page's
 * height: one entry per series, drawn by an empty plot (its curves lie
 * out of range) whose key is placed on the screen. */
static void cs__script_key_panel(FILE *f, const struct cs__fig *F, double kh, size_t kcols)
{
    fprintf(f, "unset title\nunset xlabel\nunset ylabel\nunset border\nunset tics\nunset grid\n"
               "unset logscale\nunset offsets\nset xrange [0:1]\nset yrange [0:1]\n"
               "set origin 0, 0\nset size 1, %.4f\n"
               "set lmargin 0\nset rmargin 0\nset tmargin 0\nset bmargin 0\n"
               "set key at screen 0.5, screen %.4f center center horizontal maxcols %zu "
               "Left reverse samplen 3 width 2\nplot ", kh, kh / 2, kcols);
    size_t n = F->multi_y ? 7 : F->ns;
    for (size_t s = 0; s < n; s++) {
        fprintf(f, "%s2 with linespoints lt %zu title ", s ? ", \\\n     " : "", s + 1);
        cs__gp_sq(f, F->multi_y ? cs__options[s] : F->slab[s]);
    }
    fputc('\n', f);
}

/* The list of panels left out, for the warning and the figure's note. */
static char *cs__left_out(const struct cs__fig *F, size_t shown)
{
    struct cs_strbuf b = {0};
    char *head = cs_xasprintf("%zu of %zu panels left out (at most %d pages of %d): ",
                              F->ng - shown, F->ng, CS_SWEEP_MAX_PAGES,
                              CS_SWEEP_PANELS_PER_PAGE);
    cs_strbuf_puts(&b, head);
    free(head);
    size_t listed = 0;
    for (size_t g = shown; g < F->ng && listed < 3; g++, listed++) {
        if (listed)
            cs_strbuf_puts(&b, "; ");
        cs_strbuf_puts(&b, F->glab[g]);
    }
    if (F->ng - shown > listed) {
        char *more = cs_xasprintf("; and %zu more", F->ng - shown - listed);
        cs_strbuf_puts(&b, more);
        free(more);
    }
    return b.s;
}

/* One page of the figure for one terminal. A lone panel is one plot with
 * its key on the right; several are placed on a grid by hand (origin and
 * size per panel), under the title and above a band with the shared key;
 * only the bottom row has x titles and the left column y titles. */
static void cs__script_page(FILE *f, const struct cs__fig *F, const char *dat, const long *blk,
                            size_t page, size_t pages, size_t shown, bool svg)
{
    size_t g0 = page * CS_SWEEP_PANELS_PER_PAGE;
    size_t g1 = g0 + CS_SWEEP_PANELS_PER_PAGE < shown ? g0 + CS_SWEEP_PANELS_PER_PAGE : shown;
    size_t n = g1 - g0;
    size_t nkeys = F->multi_y ? 7 : F->ns;
    bool multi = F->ng > 1;
    bool keyband = multi && nkeys > 1;
    /* The columns of the first page on every page (the same width for
     * the title). */
    size_t ngrid = shown < CS_SWEEP_PANELS_PER_PAGE ? shown : CS_SWEEP_PANELS_PER_PAGE;
    size_t cols = ngrid <= 1 ? 1 : ngrid <= 4 ? 2 : ngrid <= 9 ? 3 : 4;
    size_t rows = (n + cols - 1) / cols; /* a last page's unused rows dropped */
    /* Pixels: panels 460 x 320, 70 for the title, the key band by its rows
     * (entries about 8 px per character plus the sample). */
    size_t longest = 0;
    for (size_t s = 0; s < nkeys; s++) {
        size_t l = strlen(F->multi_y ? cs__options[s] : F->slab[s]);
        longest = l > longest ? l : longest;
    }
    int w = multi ? (int)(cols * 460) : 1100;
    size_t kcols = (size_t)(w - 40) / (longest * 8 + 70);
    kcols = kcols < 1 ? 1 : kcols > nkeys ? nkeys : kcols;
    size_t krows = keyband ? (nkeys + kcols - 1) / kcols : 0;
    int title_px = F->note ? 64 : 44, key_px = keyband ? (int)(krows * 20 + 24) : 0;
    int h = multi ? (int)(rows * 320) + title_px + key_px : 640;
    char stem[160];
    cs_sweep_page_stem(F->f, page, stem, sizeof stem);
    fputs("\nreset\n", f);
    cs_palette_write_gnuplot(f);
    fputs("set datafile missing 'NaN'\n", f);
    if (svg)
        fprintf(f, "set terminal svg size %d,%d noenhanced font 'sans,%d' background '#ffffff'\n",
                w, h, multi ? 11 : 12);
    else
        fprintf(f, "set terminal pngcairo size %d,%d noenhanced font 'sans,%d'\n", w, h,
                multi ? 10 : 11);
    fprintf(f, "set output '%s.%s'\n", stem, svg ? "svg" : "png");
    cs__script_axes(f, F);
    /* The title: the figure, the page, the fixed axes, the rows not drawn. */
    fputs("fig_title = ", f);
    char *head = pages > 1 ? cs_xasprintf("%s (page %zu of %zu: panels %zu-%zu of %zu)",
                                          F->heading, page + 1, pages, g0 + 1, g1,
                                          F->ng)
                           : cs_xstrdup(F->heading);
    cs__gp_sq(f, head);
    free(head);
    if (F->note) {
        fputs(".\"\\n\".", f);
        cs__gp_sq(f, F->note);
    }
    fputc('\n', f);
    char *left = page + 1 == pages && shown < F->ng ? cs__left_out(F, shown) : NULL;
    if (left) {
        fputs("set label 99 ", f);
        cs__gp_sq(f, left);
        fputs(" at screen 0.01, screen 0.012 left font ',9' tc rgb '#be0032' front\n", f);
        free(left);
    }
    if (!multi) {
        fputs("set title fig_title\n", f);
        if (nkeys > 1)
            fputs("set key outside right top Left reverse samplen 3\n", f);
        else
            fputs("unset key\n", f);
        cs__script_panel(f, F, dat, 0, blk);
        return;
    }
    double top = 1.0 - (double)title_px / h, bot = (double)(key_px + (left ? 14 : 0)) / h;
    double pw = 1.0 / (double)cols, ph = (top - bot) / (double)rows;
    fprintf(f, "set multiplot title fig_title font ',%d'\nunset key\n", svg ? 13 : 12);
    for (size_t g = g0; g < g1; g++) {
        size_t i = g - g0, rr = i / cols, cc = i % cols;
        fprintf(f, "set origin %.4f, %.4f\nset size %.4f, %.4f\n", (double)cc * pw,
                top - (double)(rr + 1) * ph, pw, ph);
        fputs(rr + 1 == rows || i + cols >= n ? "set xlabel xl\n" : "unset xlabel\n", f);
        fputs(cc == 0 ? "set ylabel yl\n" : "unset ylabel\n", f);
        fputs("set title ", f);
        cs__gp_sq(f, F->glab[g]);
        fputc('\n', f);
        cs__script_panel(f, F, dat, g, blk);
        if (g == g0)
            fputs("unset label 99\n", f);
    }
    if (keyband)
        cs__script_key_panel(f, F, (double)key_px / h, kcols);
    fputs("unset multiplot\n", f);
}

static void cs__write_script(FILE *f, const struct cs__fig *F, const long *blk, size_t shown,
                             size_t pages)
{
    const char *stem = cs__fig_names[F->f];
    char dat[96];
    snprintf(dat, sizeof dat, "%s.dat", stem);
    fprintf(f, "# %s.gp: %s (written by clustersim plot with %s; run in this directory:\n"
               "# gnuplot %s.gp). %zu panel(s) on %zu page(s), %zu series per panel at most.\n",
            stem, cs__fig_titles[F->f], dat, stem, shown, pages, F->multi_y ? (size_t)7 : F->ns);
    for (int svg = 0; svg < 2; svg++)
        for (size_t p = 0; p < pages; p++)
            cs__script_page(f, F, dat, blk, p, pages, shown, svg == 1);
}

static cs_status cs__write_file(const char *dir, const char *name, const struct cs__fig *F,
                                long *blk, size_t shown, size_t pages, bool script,
                                cs_diags *d)
{
    char *path = cs_xasprintf("%s/%s", dir, name);
    cs_outfile *of = cs_outfile_open_d(path, d);
    free(path);
    if (!of)
        return CS_EIO;
    FILE *fp = cs_outfile_fp(of);
    if (script) {
        cs__write_script(fp, F, blk, shown, pages);
    } else {
        fprintf(fp, "# %s: %s (clustersim plot; script %s.gp)\n", cs__fig_names[F->f],
                cs__fig_titles[F->f], cs__fig_names[F->f]);
        cs__write_blocks(F, fp, blk);
    }
    return cs_outfile_commit_d(of, d);
}

static cs_status cs__fig_files(const struct cs_sweep_results *r, const char *dir,
                               bool made[CS_SWEEP_FIG_COUNT], size_t pages[CS_SWEEP_FIG_COUNT],
                               cs_diags *d)
{
    for (int f = 0; f < CS_SWEEP_FIG_COUNT; f++) {
        made[f] = false;
        pages[f] = 0;
    }
    for (int f = 0; f < CS_SWEEP_FIG_COUNT; f++) {
        struct cs__fig F;
        if (!cs__fig_build(r, (enum cs_sweep_fig)f, &F))
            continue;
        size_t ns = F.multi_y ? 1 : F.ns;
        long *blk = cs_xcalloc(F.ng * ns, sizeof *blk);
        size_t shown, np;
        cs_sweep_paginate(F.ng, &shown, &np);
        char name[96];
        snprintf(name, sizeof name, "%s.dat", cs__fig_names[f]);
        cs_status st = cs__write_file(dir, name, &F, blk, shown, np, false, d);
        if (st == CS_OK) {
            snprintf(name, sizeof name, "%s.gp", cs__fig_names[f]);
            st = cs__write_file(dir, name, &F, blk, shown, np, true, d);
        }
        if (st == CS_OK && shown < F.ng) {
            char *lo = cs__left_out(&F, shown);
            cs_diag_add(d, CS_SEV_WARNING, NULL, 0, 0, "warning: %s: %s", cs__fig_names[f], lo);
            free(lo);
        }
        free(blk);
        cs__fig_fini(&F);
        if (st != CS_OK)
            return st;
        made[f] = true;
        pages[f] = np;
    }
    return CS_OK;
}

cs_status cs_sweep_plot_data(const struct cs_sweep_results *r, const char *dir,
                             bool made[CS_SWEEP_FIG_COUNT], cs_diags *d)
{
    size_t pages[CS_SWEEP_FIG_COUNT];
    return cs__fig_files(r, dir, made, pages, d);
}

cs_status cs_sweep_plot_render(const struct cs_sweep_results *r, const char *dir,
                               bool made[CS_SWEEP_FIG_COUNT], bool rendered[CS_SWEEP_FIG_COUNT],
                               bool *no_gnuplot, cs_diags *d)
{
    *no_gnuplot = false;
    for (int f = 0; f < CS_SWEEP_FIG_COUNT; f++)
        rendered[f] = false;
    size_t pages[CS_SWEEP_FIG_COUNT];
    cs_status st = cs__fig_files(r, dir, made, pages, d);
    if (st != CS_OK)
        return st;
    for (int f = 0; f < CS_SWEEP_FIG_COUNT; f++) {
        if (!made[f] || *no_gnuplot)
            continue;
        char script[64];
        snprintf(script, sizeof script, "%s.gp", cs__fig_names[f]);
        int rc = cs_gnuplot_run(dir, script);
        if (rc == CS_GNUPLOT_MISSING)
            *no_gnuplot = true;
        rendered[f] = rc == 0;
    }
    return CS_OK;
}

void cs_sweep_plot_remove(const char *dir)
{
    static const char *const ext[] = {"dat", "gp", "png", "svg"};
    for (int f = 0; f < CS_SWEEP_FIG_COUNT; f++)
        for (size_t p = 0; p < CS_SWEEP_MAX_PAGES; p++)
            for (int e = 0; e < 4; e++) {
                if (p > 0 && e < 2)
                    continue; /* one data file and one script per figure */
                char stem[160];
                cs_sweep_page_stem((enum cs_sweep_fig)f, p, stem, sizeof stem);
                char *path = cs_xasprintf("%s/%s.%s", dir, stem, ext[e]);
                unlink(path);
                free(path);
            }
}
