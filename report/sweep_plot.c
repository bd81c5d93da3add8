/* sweep_plot.c: a sweep directory read back (sweep.json + results.jsonl)
 * and the data files of its figures (templates plots/sweep_*.gp), for
 * `clustersim plot` and `clustersim report sweep`. Report layer: files in,
 * files out, no printing. */
#define _POSIX_C_SOURCE 200809L
#include "clustersim/base/numparse.h"
#include "clustersim/report/gnuplot.h"
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
    "sweep_scaling", "sweep_topology", "sweep_cost", "sweep_goodput"};
static const char *const cs__fig_titles[CS_SWEEP_FIG_COUNT] = {
    "scaling efficiency against GPUs", "throughput per topology and oversubscription",
    "cost per utilized GPU-hour against utilization", "goodput against checkpoint interval"};

const char *cs_sweep_fig_name(enum cs_sweep_fig f)
{
    return (unsigned)f < CS_SWEEP_FIG_COUNT ? cs__fig_names[f] : "?";
}

const char *cs_sweep_fig_title(enum cs_sweep_fig f)
{
    return (unsigned)f < CS_SWEEP_FIG_COUNT ? cs__fig_titles[f] : "?";
}

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

/* Axis column index (in cols) of the i-th axis. */
static size_t cs__axis(const struct cs_sweep_results *r, size_t i)
{
    (void)r; /* the variable columns follow point, key, status, reason */
    return 4 + i;
}

static size_t cs__axis_named(const struct cs_sweep_results *r, const char *name)
{
    for (size_t i = 0; i < r->naxes; i++)
        if (!strcmp(r->cols[cs__axis(r, i)], name))
            return cs__axis(r, i);
    return CS__NOCOL;
}

static size_t cs__axis_prefixed(const struct cs_sweep_results *r, const char *prefix)
{
    for (size_t i = 0; i < r->naxes; i++)
        if (!strncmp(r->cols[cs__axis(r, i)], prefix, strlen(prefix)))
            return cs__axis(r, i);
    return CS__NOCOL;
}

/* Series label of a row: "key=value" of every axis not excluded (the last
 * key of the path), joined by ", "; "all points" when none. Caller frees. */
static char *cs__series(const struct cs_sweep_results *r, size_t row, size_t x_col, bool no_gpu)
{
    size_t cap = 256, n = 0;
    char *s = cs_xmalloc(cap);
    s[0] = '\0';
    for (size_t i = 0; i < r->naxes; i++) {
        size_t c = cs__axis(r, i);
        if (c == x_col || (no_gpu && cs__is_gpu_axis(r->cols[c])))
            continue;
        const char *k = strrchr(r->cols[c], '.');
        k = k ? k + 1 : r->cols[c];
        const char *v = cs__cell_at(r, row, c);
        char *part = cs_xasprintf("%s%s=%s", n ? ", " : "", k, v ? v : "");
        size_t pl = strlen(part);
        if (n + pl + 1 > cap) {
            cap = 2 * (n + pl + 1);
            s = cs_xrealloc(s, cap, 1);
        }
        memcpy(s + n, part, pl + 1);
        n += pl;
        free(part);
    }
    if (!n) {
        free(s);
        return cs_xstrdup("all points");
    }
    return s;
}

/* A gnuplot data-file string: double quotes, inner quotes and backslashes
 * replaced, since gnuplot has no escape inside quoted data fields. */
static void cs__gp_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++)
        fputc(*s == '"' ? '\'' : *s == '\\' ? '/' : (*s == '\n' ? ' ' : *s), f);
    fputc('"', f);
}

struct cs__pt {
    double x, y[8];
    const char *xlabel;
};

static int cs__cmp_pt(const void *a, const void *b)
{
    const struct cs__pt *p = a, *q = b;
    return (p->x > q->x) - (p->x < q->x);
}

/* Groups the ok rows into series (first appearance order) and calls emit
 * for each series with its points sorted by x. */
struct cs__plot {
    const struct cs_sweep_results *r;
    size_t x_col;          /* excluded from the series key */
    bool no_gpu;           /* gpu axes excluded from the series key too */
    /* fills pt from a row; false drops the row */
    bool (*point)(const struct cs__plot *p, size_t row, struct cs__pt *pt);
    size_t ny;
    size_t xcat;           /* with a category x: its column */
    char **cats;           /* distinct category values, in order */
    size_t ncats;
    size_t ref_col;        /* for scaling: tokens/s per GPU */
};

static bool cs__write_blocks(const struct cs__plot *P, FILE *f, const char *xname,
                             const char *const *ynames, bool scale_first)
{
    const struct cs_sweep_results *r = P->r;
    char **labels = cs_xcalloc(r->nrows ? r->nrows : 1, sizeof *labels);
    size_t nl = 0;
    for (size_t i = 0; i < r->nrows; i++) {
        if (!cs__row_ok(r, i))
            continue;
        char *l = cs__series(r, i, P->x_col, P->no_gpu);
        bool seen = false;
        for (size_t k = 0; k < nl && !seen; k++)
            seen = !strcmp(labels[k], l);
        if (seen)
            free(l);
        else
            labels[nl++] = l;
    }
    struct cs__pt *pts = cs_xcalloc(r->nrows ? r->nrows : 1, sizeof *pts);
    size_t blocks = 0;
    for (size_t k = 0; k < nl; k++) {
        size_t np = 0;
        for (size_t i = 0; i < r->nrows; i++) {
            if (!cs__row_ok(r, i))
                continue;
            char *l = cs__series(r, i, P->x_col, P->no_gpu);
            bool mine = !strcmp(l, labels[k]);
            free(l);
            struct cs__pt pt;
            memset(&pt, 0, sizeof pt);
            if (mine && P->point(P, i, &pt) && isfinite(pt.x))
                pts[np++] = pt;
        }
        if (!np)
            continue;
        qsort(pts, np, sizeof *pts, cs__cmp_pt);
        if (scale_first) { /* efficiency in % of the smallest point's y[0] */
            double ref = pts[0].y[0];
            for (size_t i = 0; i < np; i++) {
                pts[i].y[1] = pts[i].y[0];
                pts[i].y[0] = ref > 0 ? 100.0 * pts[i].y[0] / ref : NAN;
            }
        }
        if (blocks++)
            fputs("\n\n", f);
        fprintf(f, "%s ", xname);
        cs__gp_str(f, labels[k]);
        for (size_t y = 1; y < P->ny; y++)
            fprintf(f, " %s", ynames[y]);
        fputs(P->xcat != CS__NOCOL ? " xlabel\n" : "\n", f);
        for (size_t i = 0; i < np; i++) {
            fprintf(f, "%.10g", pts[i].x);
            for (size_t y = 0; y < P->ny; y++) {
                if (isfinite(pts[i].y[y]))
                    fprintf(f, " %.10g", pts[i].y[y]);
                else
                    fputs(" NaN", f);
            }
            if (P->xcat != CS__NOCOL) {
                fputc(' ', f);
                cs__gp_str(f, pts[i].xlabel ? pts[i].xlabel : "");
            }
            fputc('\n', f);
        }
    }
    for (size_t k = 0; k < nl; k++)
        free(labels[k]);
    free(labels);
    free(pts);
    return blocks > 0;
}

static bool cs__pt_scaling(const struct cs__plot *P, size_t row, struct cs__pt *pt)
{
    pt->x = cs__num(P->r, row, cs_sweep_results_col(P->r, "gpus"));
    pt->y[0] = cs__num(P->r, row, P->ref_col);
    pt->y[2] = cs__num(P->r, row, cs_sweep_results_col(P->r, "mfu"));
    return isfinite(pt->y[0]);
}

static bool cs__pt_topology(const struct cs__plot *P, size_t row, struct cs__pt *pt)
{
    const struct cs_sweep_results *r = P->r;
    pt->y[0] = cs__num(r, row, cs_sweep_results_col(r, "tokens_per_s_per_gpu"));
    pt->y[1] = cs__num(r, row, cs_sweep_results_col(r, "step_time_s"));
    pt->y[2] = cs__num(r, row, cs_sweep_results_col(r, "exposed_comm_s"));
    const char *v = cs__cell_at(r, row, P->xcat);
    pt->xlabel = v;
    if (P->xcat == P->x_col && !P->cats) {
        pt->x = cs__num(r, row, P->x_col);
        return isfinite(pt->x);
    }
    pt->x = NAN;
    for (size_t i = 0; v && i < P->ncats; i++)
        if (!strcmp(P->cats[i], v))
            pt->x = (double)i;
    return true;
}

static bool cs__pt_cost(const struct cs__plot *P, size_t row, struct cs__pt *pt)
{
    static const char *const opts[7] = {"on-prem", "colocation", "cloud-on-demand",
                                        "cloud-reserved-1y", "cloud-reserved-3y", "cloud-spot",
                                        "hybrid"};
    const struct cs_sweep_results *r = P->r;
    pt->x = cs__num(r, row, P->x_col);
    for (int o = 0; o < 7; o++) {
        char name[96];
        snprintf(name, sizeof name, "tco.%s.usd_per_utilized_gpu_hour", opts[o]);
        pt->y[o] = cs__num(r, row, cs_sweep_results_col(r, name));
    }
    return true;
}

static bool cs__pt_goodput(const struct cs__plot *P, size_t row, struct cs__pt *pt)
{
    const struct cs_sweep_results *r = P->r;
    pt->x = cs__num(r, row, cs_sweep_results_col(r, "run.checkpoint_interval_s")) / 60.0;
    pt->y[0] = 100.0 * cs__num(r, row, cs_sweep_results_col(r, "run.goodput"));
    pt->y[1] = cs__num(r, row, cs_sweep_results_col(r, "run.time_to_train_s")) / 3600.0;
    pt->y[2] = cs__num(r, row, cs_sweep_results_col(r, "run.interruptions"));
    return isfinite(pt->y[0]);
}

/* Distinct ok-row values of column c in first-appearance order. */
static size_t cs__distinct(const struct cs_sweep_results *r, size_t c, char ***out)
{
    char **v = cs_xcalloc(r->nrows ? r->nrows : 1, sizeof *v);
    size_t n = 0;
    for (size_t i = 0; i < r->nrows; i++) {
        const char *s = cs__cell_at(r, i, c);
        if (!s || !cs__row_ok(r, i))
            continue;
        bool seen = false;
        for (size_t k = 0; k < n && !seen; k++)
            seen = !strcmp(v[k], s);
        if (!seen)
            v[n++] = cs_xstrdup(s);
    }
    *out = v;
    return n;
}

static void cs__free_strs(char **v, size_t n)
{
    for (size_t i = 0; v && i < n; i++)
        free(v[i]);
    free(v);
}

cs_status cs_sweep_plot_data(const struct cs_sweep_results *r, const char *dir,
                             bool made[CS_SWEEP_FIG_COUNT], cs_diags *d)
{
    for (int f = 0; f < CS_SWEEP_FIG_COUNT; f++)
        made[f] = false;
    for (int f = 0; f < CS_SWEEP_FIG_COUNT; f++) {
        struct cs__plot P;
        memset(&P, 0, sizeof P);
        P.r = r;
        P.x_col = P.xcat = P.ref_col = CS__NOCOL;
        const char *xname = "x";
        static const char *const y_scaling[] = {"efficiency_pct", "tokens_per_s_per_gpu", "mfu"};
        static const char *const y_topo[] = {"tokens_per_s_per_gpu", "step_time_s",
                                             "exposed_comm_s"};
        static const char *const y_cost[] = {"on-prem", "colocation", "cloud-on-demand",
                                             "cloud-reserved-1y", "cloud-reserved-3y",
                                             "cloud-spot", "hybrid"};
        static const char *const y_good[] = {"goodput_pct", "time_to_train_h", "interruptions"};
        const char *const *ynames = NULL;
        bool scale_first = false;
        size_t topo = cs__axis_named(r, "cluster.fabric.topology");
        size_t over = cs__axis_named(r, "cluster.fabric.oversubscription");
        switch ((enum cs_sweep_fig)f) {
        case CS_SWEEP_FIG_SCALING: {
            bool any = false;
            for (size_t i = 0; i < r->naxes; i++)
                any = any || cs__is_gpu_axis(r->cols[cs__axis(r, i)]);
            P.ref_col = cs_sweep_results_col(r, "tokens_per_s_per_gpu");
            if (!any || P.ref_col == CS__NOCOL)
                continue;
            char **g = NULL;
            size_t ng = cs__distinct(r, cs_sweep_results_col(r, "gpus"), &g);
            cs__free_strs(g, ng);
            if (ng < 2)
                continue; /* one GPU count: no curve */
            P.no_gpu = true;
            P.point = cs__pt_scaling;
            P.ny = 3;
            xname = "gpus";
            ynames = y_scaling;
            scale_first = true;
            break;
        }
        case CS_SWEEP_FIG_TOPOLOGY:
            if (topo == CS__NOCOL && over == CS__NOCOL)
                continue;
            P.x_col = P.xcat = over != CS__NOCOL ? over : topo;
            if (over == CS__NOCOL)
                P.ncats = cs__distinct(r, topo, &P.cats);
            P.point = cs__pt_topology;
            P.ny = 3;
            xname = over != CS__NOCOL ? "oversubscription" : "topology";
            ynames = y_topo;
            break;
        case CS_SWEEP_FIG_COST: {
            if (cs_sweep_results_col(r, "tco.on-prem.usd_per_utilized_gpu_hour") == CS__NOCOL ||
                r->naxes == 0)
                continue;
            P.x_col = cs__axis_named(r, "cost.utilization");
            if (P.x_col == CS__NOCOL)
                P.x_col = cs__axis_prefixed(r, "cost."); /* another cost axis */
            if (P.x_col == CS__NOCOL)
                continue; /* tco columns of a base with cost:, but no cost axis */
            P.point = cs__pt_cost;
            P.ny = 7;
            xname = r->cols[P.x_col];
            ynames = y_cost;
            break;
        }
        case CS_SWEEP_FIG_GOODPUT:
            if (cs_sweep_results_col(r, "run.goodput") == CS__NOCOL)
                continue;
            P.x_col = cs__axis_prefixed(r, "checkpoint.interval");
            if (P.x_col == CS__NOCOL)
                continue;
            P.point = cs__pt_goodput;
            P.ny = 3;
            xname = "interval_min";
            ynames = y_good;
            break;
        default:
            continue;
        }
        char *path = cs_xasprintf("%s/%s.dat", dir, cs__fig_names[f]);
        cs_outfile *of = cs_outfile_open_d(path, d);
        if (!of) {
            free(path);
            cs__free_strs(P.cats, P.ncats);
            return CS_EIO;
        }
        FILE *fp = cs_outfile_fp(of);
        fprintf(fp, "# %s: %s (clustersim plot; template plots/%s.gp)\n", cs__fig_names[f],
                cs__fig_titles[f], cs__fig_names[f]);
        bool any = cs__write_blocks(&P, fp, xname, ynames, scale_first);
        if (!any) {
            cs_outfile_abort(of);
            remove(path); /* no ok point for this figure */
        } else if (cs_outfile_commit_d(of, d) != CS_OK) {
            free(path);
            cs__free_strs(P.cats, P.ncats);
            return CS_EIO;
        }
        made[f] = any;
        free(path);
        cs__free_strs(P.cats, P.ncats);
    }
    return CS_OK;
}

cs_status cs_sweep_plot_render(const struct cs_sweep_results *r, const char *dir,
                               bool made[CS_SWEEP_FIG_COUNT], bool rendered[CS_SWEEP_FIG_COUNT],
                               bool *no_gnuplot, cs_diags *d)
{
    *no_gnuplot = false;
    for (int f = 0; f < CS_SWEEP_FIG_COUNT; f++)
        rendered[f] = false;
    cs_status st = cs_sweep_plot_data(r, dir, made, d);
    if (st != CS_OK)
        return st;
    for (int f = 0; f < CS_SWEEP_FIG_COUNT; f++) {
        if (!made[f])
            continue;
        char script[64];
        snprintf(script, sizeof script, "%s.gp", cs__fig_names[f]);
        cs_status cst = cs_gnuplot_copy_template(dir, script, d);
        if (cst != CS_OK)
            return cst;
        if (*no_gnuplot)
            continue;
        int rc = cs_gnuplot_run(dir, script);
        if (rc == CS_GNUPLOT_MISSING)
            *no_gnuplot = true;
        rendered[f] = rc == 0;
    }
    return CS_OK;
}
