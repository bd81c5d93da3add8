/* sweep_run.c: evaluating sweep points into result rows (JSON lines and
 * CSV), running a sweep into a directory on N threads with resume, and
 * merging shard directories (app layer; contract in clustersim/app/sweep_run.h,
 * file format and fsync policy in docs/sweep.md). */
#define _POSIX_C_SOURCE 200809L
#include "clustersim/app/sweep_run.h"

#include "clustersim/app/pipeline.h"
#include "clustersim/base/csv.h"
#include "clustersim/base/outfile.h"
#include "clustersim/base/strbuf.h"
#include "clustersim/base/xmalloc.h"
#include "clustersim/models/cost.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Shortest of %.15g / %.17g that reads back as v (as cJSON prints). */
static void fmt_double(char *buf, size_t n, double v)
{
    snprintf(buf, n, "%.15g", v);
    if (strtod(buf, NULL) != v)
        snprintf(buf, n, "%.17g", v);
}

static void json_str(struct cs_strbuf *b, const char *s)
{
    cs_strbuf_putn(b, "\"", 1);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        char esc[8];
        if (*p == '"' || *p == '\\') {
            esc[0] = '\\';
            esc[1] = (char)*p;
            cs_strbuf_putn(b, esc, 2);
        } else if (*p < 0x20) {
            snprintf(esc, sizeof esc, "\\u%04x", *p);
            cs_strbuf_puts(b, esc);
        } else {
            cs_strbuf_putn(b, (const char *)p, 1);
        }
    }
    cs_strbuf_putn(b, "\"", 1);
}

/* JSON number grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
static bool is_json_number(const char *s)
{
    const char *p = s;
    if (*p == '-')
        p++;
    if (*p == '0')
        p++;
    else if (*p >= '1' && *p <= '9')
        while (*p >= '0' && *p <= '9')
            p++;
    else
        return false;
    if (*p == '.') {
        p++;
        if (!(*p >= '0' && *p <= '9'))
            return false;
        while (*p >= '0' && *p <= '9')
            p++;
    }
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-')
            p++;
        if (!(*p >= '0' && *p <= '9'))
            return false;
        while (*p >= '0' && *p <= '9')
            p++;
    }
    return *p == '\0' && p - s < 40;
}

/* ---- columns ---- */
static const char *const step_cols[] = {"gpus",           "fits",          "step_time_s",
                                        "tokens_per_s",   "tokens_per_s_per_gpu",
                                        "mfu",            "tflops_per_gpu", "bytes_per_gpu",
                                        "compute_s",      "exposed_comm_s", "bubble_s",
                                        "data_stall_s",   "dp_network_share", "network_slowdown",
                                        "ep_comm_s",      "moe_imbalance_s"};
#define N_STEP_COLS (sizeof step_cols / sizeof step_cols[0])
static const char *const run_cols[] = {"run.time_to_train_s", "run.goodput", "run.interruptions",
                                       "run.checkpoint_interval_s"};
#define N_RUN_COLS (sizeof run_cols / sizeof run_cols[0])
static const char *const facility_cols[] = {"facility.racks_placed",    "facility.kw_per_rack",
                                            "facility.cooling_ok",      "facility.gpu_power_cap_w",
                                            "facility.facility_power_w", "facility.pue_ratio",
                                            "facility.time_to_throttle_s"};
#define N_FACILITY_COLS (sizeof facility_cols / sizeof facility_cols[0])

static void add_col(struct cs_sweep_table *t, size_t *cap, char *name)
{
    if (t->ncols == *cap) {
        *cap = *cap ? *cap * 2 : 64;
        t->cols = cs_xrealloc(t->cols, *cap, sizeof *t->cols);
    }
    t->cols[t->ncols++] = name;
}

void cs_sweep_table_init(struct cs_sweep_table *t, const cs_sweep *sw)
{
    memset(t, 0, sizeof *t);
    size_t cap = 0;
    add_col(t, &cap, cs_xstrdup("point"));
    add_col(t, &cap, cs_xstrdup("key"));
    add_col(t, &cap, cs_xstrdup("status"));
    add_col(t, &cap, cs_xstrdup("reason"));
    for (size_t i = 0; i < cs_sweep_ncols(sw); i++) {
        add_col(t, &cap, cs_xstrdup(cs_sweep_col(sw, i)));
        t->naxes += !cs_sweep_col_derived(sw, i);
    }
    t->nvars = cs_sweep_ncols(sw);
    for (size_t i = 0; i < N_STEP_COLS; i++)
        add_col(t, &cap, cs_xstrdup(step_cols[i]));
    if (cs_sweep_sets(sw, "run") || cs_sweep_sets(sw, "workload.tokens")) {
        t->outputs |= CS_SWEEP_OUT_RUN;
        for (size_t i = 0; i < N_RUN_COLS; i++)
            add_col(t, &cap, cs_xstrdup(run_cols[i]));
    }
    if (cs_sweep_sets(sw, "facility")) {
        t->outputs |= CS_SWEEP_OUT_FACILITY;
        for (size_t i = 0; i < N_FACILITY_COLS; i++)
            add_col(t, &cap, cs_xstrdup(facility_cols[i]));
    }
    if (cs_sweep_sets(sw, "cost")) {
        t->outputs |= CS_SWEEP_OUT_TCO;
        for (int o = 0; o < CS_OPT_COUNT; o++) {
            add_col(t, &cap, cs_xasprintf("tco.%s.total_usd", cs_cost_option_name(o)));
            add_col(t, &cap,
                    cs_xasprintf("tco.%s.usd_per_utilized_gpu_hour", cs_cost_option_name(o)));
        }
    }
    t->points = cs_sweep_points(sw);
    t->hash = cs_sweep_hash(sw);
}

void cs_sweep_table_fini(struct cs_sweep_table *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->ncols; i++)
        free(t->cols[i]);
    free(t->cols);
    memset(t, 0, sizeof *t);
}

/* ---- one row ---- */
struct row {
    struct cs_strbuf b;
    bool first;
};

static void row_key(struct row *r, const char *k)
{
    cs_strbuf_puts(&r->b, r->first ? "{" : ",");
    r->first = false;
    json_str(&r->b, k);
    cs_strbuf_putn(&r->b, ":", 1);
}

static void row_num(struct row *r, const char *k, double v)
{
    row_key(r, k);
    if (!isfinite(v)) {
        cs_strbuf_puts(&r->b, "null");
        return;
    }
    char buf[64];
    fmt_double(buf, sizeof buf, v);
    cs_strbuf_puts(&r->b, buf);
}

static void row_str(struct row *r, const char *k, const char *v)
{
    row_key(r, k);
    if (v)
        json_str(&r->b, v);
    else
        cs_strbuf_puts(&r->b, "null");
}

static void first_error(const cs_diags *d, char *buf, size_t n)
{
    const struct cs_diag *e = cs_diags_first_error(d);
    snprintf(buf, n, "%s", e ? e->msg : "rejected without a message");
}

char *cs_sweep_eval(const cs_sweep *sw, const struct cs_sweep_table *t, const cs_catalog *cat,
                    uint64_t i)
{
    struct cs_sweep_point pt;
    struct cs_scenario s;
    cs_diags d;
    cs_diags_init(&d);
    cs_status st = cs_sweep_point_build(sw, i, cat, &d, &pt, &s);
    bool loaded = st == CS_OK && !pt.skipped;
    const char *status = "ok";
    char reason[600] = "";
    struct cs_app_result res;
    memset(&res, 0, sizeof res);
    bool have_step = false;
    if (!loaded) {
        status = "skipped";
        snprintf(reason, sizeof reason, "%s", pt.reason);
    } else if (!s.has_workload) {
        status = "skipped";
        snprintf(reason, sizeof reason, "the scenario has no workload: nothing to simulate");
    } else {
        /* The pipeline of `clustersim run` (app/pipeline.c); the run and
         * cost stages as the table's columns ask, and best effort: a point
         * whose run model or prices fail keeps its step row, the first
         * error as its reason. */
        struct cs_app_eval_opts eo;
        cs_app_eval_opts_default(&eo);
        eo.run = (t->outputs & CS_SWEEP_OUT_RUN) != 0;
        eo.cost = (t->outputs & CS_SWEEP_OUT_TCO) && s.cost.enabled;
        eo.only_priced = true;
        eo.best_effort = true;
        eo.quiet_nofit = true;
        eo.threads = 1; /* the sweep's threads are the parallelism */
        cs_diags_fini(&d);
        cs_diags_init(&d);
        cs_status est = cs_app_evaluate(&s, &eo, &d, &res);
        if (est == CS_ENOFIT) {
            status = "nofit";
            have_step = true;
        } else if (est != CS_OK) { /* the step or the data pipeline rejected it */
            status = "skipped";
            first_error(&d, reason, sizeof reason);
        } else {
            have_step = true;
            if (res.run_status != CS_OK)
                first_error(&d, reason, sizeof reason);
            if (res.cost_status != CS_OK && !reason[0])
                first_error(&d, reason, sizeof reason);
        }
    }
    const struct cs_step_result r = res.step;
    const struct cs_run_result *run = &res.run;
    const struct cs_cost_result *cost = res.has_cost ? res.cost : NULL;

    struct row w = {{0}, true};
    row_num(&w, "point", (double)i);
    char key[20];
    snprintf(key, sizeof key, "%016llx", (unsigned long long)pt.key);
    row_str(&w, "key", key);
    row_str(&w, "status", status);
    row_str(&w, "reason", reason[0] ? reason : NULL);
    for (size_t c = 0; c < cs_sweep_ncols(sw); c++) {
        const char *v = c < pt.nvalues ? pt.values[c] : "";
        row_key(&w, cs_sweep_col(sw, c));
        if (!v[0])
            cs_strbuf_puts(&w.b, "null");
        else if (is_json_number(v))
            cs_strbuf_puts(&w.b, v);
        else
            json_str(&w.b, v);
    }
    long gpus = loaded ? cs_scenario_gpus(&s) : 0;
    row_num(&w, "gpus", loaded ? (double)gpus : NAN);
    row_key(&w, "fits");
    cs_strbuf_puts(&w.b, have_step ? (r.fits ? "true" : "false") : "null");
    bool ok = have_step && r.fits;
    row_num(&w, "step_time_s", ok ? r.time_s : NAN);
    row_num(&w, "tokens_per_s", ok ? r.tokens_per_s : NAN);
    /* per GPU of the job (workload.gpus; the cluster's when it takes them all) */
    long job_gpus = loaded && s.has_workload ? cs_job_gpus(&s.cluster, &s.workload) : gpus;
    row_num(&w, "tokens_per_s_per_gpu", ok && job_gpus > 0 ? r.tokens_per_s / (double)job_gpus : NAN);
    row_num(&w, "mfu", ok ? r.mfu : NAN);
    row_num(&w, "tflops_per_gpu", ok ? r.tflops_per_gpu : NAN);
    row_num(&w, "bytes_per_gpu", have_step ? r.memory.total_bytes : NAN);
    row_num(&w, "compute_s", ok ? r.compute_s : NAN);
    row_num(&w, "exposed_comm_s", ok ? r.exposed_comm_s : NAN);
    row_num(&w, "bubble_s", ok ? r.bubble_s : NAN);
    row_num(&w, "data_stall_s", ok ? r.data_stall_s : NAN);
    row_num(&w, "dp_network_share", ok ? r.dp_net_share : NAN);
    row_num(&w, "network_slowdown", ok ? r.network_slowdown : NAN);
    /* mixture of experts (0 for dense models; docs/moe.md) */
    row_num(&w, "ep_comm_s", ok ? r.ep_comm_s : NAN);
    row_num(&w, "moe_imbalance_s", ok ? r.moe_imbalance_s : NAN);
    if (t->outputs & CS_SWEEP_OUT_RUN) {
        bool re = ok && run->enabled;
        row_num(&w, "run.time_to_train_s", re ? run->time_to_train_s.mean : NAN);
        row_num(&w, "run.goodput", re ? run->goodput.mean : NAN);
        row_num(&w, "run.interruptions", re ? run->interruptions.mean : NAN);
        row_num(&w, "run.checkpoint_interval_s",
                re && run->ckpt.enabled ? run->ckpt.interval_s : NAN);
    }
    if (t->outputs & CS_SWEEP_OUT_FACILITY) {
        /* the loaded point's facility (docs/run.md "Facility"); a point the
         * loader refused has none */
        const struct cs_facility_result *f = loaded ? &s.facility.res : NULL;
        bool fr = f && f->racks > 0;
        row_num(&w, "facility.racks_placed", fr ? (double)f->racks : NAN);
        row_num(&w, "facility.kw_per_rack", fr ? f->kw_per_rack : NAN);
        row_key(&w, "facility.cooling_ok");
        cs_strbuf_puts(&w.b, fr ? (f->cooling_ok ? "true" : "false") : "null");
        row_num(&w, "facility.gpu_power_cap_w", fr ? f->gpu_power_cap_w : NAN);
        row_num(&w, "facility.facility_power_w", fr ? f->facility_power_w : NAN);
        row_num(&w, "facility.pue_ratio", fr && f->it_power_w > 0 ? f->facility_power_w / f->it_power_w : NAN);
        row_num(&w, "facility.time_to_throttle_s", fr && isfinite(f->time_to_throttle_s) ? f->time_to_throttle_s : NAN);
    }
    if (t->outputs & CS_SWEEP_OUT_TCO) {
        for (int o = 0; o < CS_OPT_COUNT; o++) {
            char k1[96], k2[96];
            snprintf(k1, sizeof k1, "tco.%s.total_usd", cs_cost_option_name(o));
            snprintf(k2, sizeof k2, "tco.%s.usd_per_utilized_gpu_hour", cs_cost_option_name(o));
            bool av = cost && cost->opt[o].available;
            row_num(&w, k1, av ? cost->opt[o].total_usd : NAN);
            row_num(&w, k2, av ? cost->opt[o].usd_per_utilized_gpu_hour : NAN);
        }
    }
    cs_strbuf_puts(&w.b, "}\n");
    cs_app_result_fini(&res);
    if (loaded)
        cs_scenario_fini(&s);
    cs_sweep_point_fini(&pt);
    cs_diags_fini(&d);
    return w.b.s;
}

/* ---- CSV ---- */
/* Text cells: base/csv.h's writer (RFC 4180, formulas neutralised). */
static void csv_field(struct cs_strbuf *b, const char *s)
{
    cs_csv_text(b, s, false);
}

char *cs_sweep_csv_header(const struct cs_sweep_table *t)
{
    struct cs_strbuf b = {0};
    for (size_t i = 0; i < t->ncols; i++) {
        if (i)
            cs_strbuf_putn(&b, ",", 1);
        csv_field(&b, t->cols[i]);
    }
    cs_strbuf_puts(&b, "\n");
    return b.s;
}

static char *csv_from_obj(const struct cs_sweep_table *t, const cJSON *o)
{
    struct cs_strbuf b = {0};
    for (size_t i = 0; i < t->ncols; i++) {
        if (i)
            cs_strbuf_putn(&b, ",", 1);
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, t->cols[i]);
        if (cJSON_IsNumber(v)) {
            char buf[64];
            fmt_double(buf, sizeof buf, v->valuedouble);
            cs_strbuf_puts(&b, buf);
        } else if (cJSON_IsString(v)) {
            csv_field(&b, v->valuestring);
        } else if (cJSON_IsBool(v)) {
            cs_strbuf_puts(&b, cJSON_IsTrue(v) ? "true" : "false");
        }
    }
    cs_strbuf_puts(&b, "\n");
    if (!b.s)
        cs_strbuf_puts(&b, "");
    return b.s;
}

char *cs_sweep_json_to_csv(const struct cs_sweep_table *t, const char *json_line)
{
    cJSON *o = cJSON_Parse(json_line);
    if (!cJSON_IsObject(o)) {
        cJSON_Delete(o);
        return NULL;
    }
    char *s = csv_from_obj(t, o);
    cJSON_Delete(o);
    return s;
}

/* ---- result files ---- */
struct rrow {
    uint64_t index;
    char *key;
    char *line;      /* the JSON line with its "\n" */
    const char *src; /* file it came from */
};

struct rset {
    struct rrow *v;
    size_t n, cap;
};

static void rset_fini(struct rset *s)
{
    for (size_t i = 0; i < s->n; i++) {
        free(s->v[i].key);
        free(s->v[i].line);
    }
    free(s->v);
    memset(s, 0, sizeof *s);
}

/* fopen for reading a file of the sweep directory, refusing what is not a
 * regular file (a FIFO planted there would block a resume or a merge): the
 * open does not wait (O_NONBLOCK), then fstat decides. NULL with errno set
 * (EINVAL for a non-regular file). */
static FILE *open_regular(const char *path, const char *mode)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return NULL;
    struct stat st;
    int fl;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (fl = fcntl(fd, F_GETFL)) < 0 ||
        fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0) {
        int e = (fstat(fd, &st) == 0 && !S_ISREG(st.st_mode)) ? EINVAL : errno;
        close(fd);
        errno = e;
        return NULL;
    }
    FILE *f = fdopen(fd, mode);
    if (!f) {
        int e = errno;
        close(fd);
        errno = e;
    }
    return f;
}

/* Reads the complete lines of a results.jsonl (a trailing line without its
 * newline, cut by a kill, is dropped: the point runs again). A missing file
 * is an empty set. */
static cs_status read_rows(const char *path, struct rset *out, cs_diags *d)
{
    FILE *f = open_regular(path, "r");
    if (!f) {
        if (errno == ENOENT)
            return CS_OK;
        cs_diag_error(d, path, 0, 0, "cannot read it: %s",
                      errno == EINVAL ? "not a regular file" : strerror(errno));
        return CS_EIO;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    long lineno = 0;
    cs_status st = CS_OK;
    while ((len = getline(&line, &cap, f)) > 0) {
        lineno++;
        if (line[len - 1] != '\n')
            break; /* partial last line */
        cJSON *o = cJSON_Parse(line);
        const cJSON *p = cJSON_GetObjectItemCaseSensitive(o, "point");
        const cJSON *k = cJSON_GetObjectItemCaseSensitive(o, "key");
        if (!cJSON_IsNumber(p) || !cJSON_IsString(k) || p->valuedouble < 0) {
            cs_diag_error(d, path, (int)lineno, 0, "not a result row (expected a JSON object with "
                          "point and key)");
            cJSON_Delete(o);
            st = CS_ECONFIG;
            break;
        }
        if (out->n == out->cap) {
            out->cap = out->cap ? out->cap * 2 : 256;
            out->v = cs_xrealloc(out->v, out->cap, sizeof *out->v);
        }
        out->v[out->n].index = (uint64_t)p->valuedouble;
        out->v[out->n].key = cs_xstrdup(k->valuestring);
        out->v[out->n].line = cs_xstrndup(line, (size_t)len);
        out->v[out->n].src = path;
        out->n++;
        cJSON_Delete(o);
    }
    free(line);
    fclose(f);
    return st;
}

static int cmp_rows(const void *a, const void *b)
{
    const struct rrow *x = a, *y = b;
    return x->index < y->index ? -1 : x->index > y->index;
}

static bool write_all(int fd, const char *s, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, s, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        s += w;
        n -= (size_t)w;
    }
    return true;
}

/* Writes path atomically (base/outfile.h: a mkstemp file beside it, fsync,
 * rename): the parts one after another. */
static bool write_file(const char *path, const char *const *parts, size_t n, cs_diags *d)
{
    cs_outfile *f = cs_outfile_open_d(path, d);
    if (!f)
        return false;
    for (size_t i = 0; i < n; i++)
        fputs(parts[i], cs_outfile_fp(f));
    return cs_outfile_commit_d(f, d) == CS_OK;
}

/* Sorts rows by point and writes DIR/results.jsonl and DIR/results.csv. */
static bool write_sorted(const char *dir, const struct cs_sweep_table *t, struct rset *rows,
                         cs_diags *d)
{
    if (rows->n > 1) /* qsort(NULL, 0) is undefined */
        qsort(rows->v, rows->n, sizeof *rows->v, cmp_rows);
    const char **parts = cs_xcalloc(rows->n + 1, sizeof *parts);
    for (size_t i = 0; i < rows->n; i++)
        parts[i] = rows->v[i].line;
    char *jp = cs_xasprintf("%s/results.jsonl", dir);
    bool ok = write_file(jp, parts, rows->n, d);
    free(jp);
    char **csv = cs_xcalloc(rows->n + 1, sizeof *csv);
    csv[0] = cs_sweep_csv_header(t);
    for (size_t i = 0; ok && i < rows->n; i++) {
        csv[i + 1] = cs_sweep_json_to_csv(t, rows->v[i].line);
        if (!csv[i + 1])
            csv[i + 1] = cs_xstrdup("\n");
    }
    char *cp = cs_xasprintf("%s/results.csv", dir);
    if (ok)
        ok = write_file(cp, (const char *const *)csv, rows->n + 1, d);
    free(cp);
    for (size_t i = 0; i <= rows->n; i++)
        free(csv[i]);
    free(csv);
    free(parts);
    return ok;
}

/* sweep.json: what the directory holds, for resume and merge. */
static char *manifest_text(const struct cs_sweep_table *t, int k, int n)
{
    cJSON *m = cJSON_CreateObject();
    char h[20];
    snprintf(h, sizeof h, "%016llx", (unsigned long long)t->hash);
    cJSON_AddStringToObject(m, "sweep_hash", h);
    cJSON_AddNumberToObject(m, "points", (double)t->points);
    cJSON_AddNumberToObject(m, "shard_k", k);
    cJSON_AddNumberToObject(m, "shard_n", n);
    cJSON_AddNumberToObject(m, "axes", (double)t->naxes);
    cJSON_AddNumberToObject(m, "variables", (double)t->nvars);
    cJSON *cols = cJSON_AddArrayToObject(m, "columns");
    for (size_t i = 0; i < t->ncols; i++)
        cJSON_AddItemToArray(cols, cJSON_CreateString(t->cols[i]));
    char *s = cJSON_Print(m);
    cJSON_Delete(m);
    char *out = cs_xasprintf("%s\n", s);
    cJSON_free(s);
    return out;
}

static cJSON *read_json_file(const char *path)
{
    FILE *f = open_regular(path, "rb");
    if (!f)
        return NULL;
    struct cs_strbuf b = {0};
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0 && b.n < ((size_t)16 << 20))
        cs_strbuf_putn(&b, buf, n);
    fclose(f);
    cJSON *o = b.s ? cJSON_Parse(b.s) : NULL;
    free(b.s);
    return o;
}

/* ---- the run ---- */
struct runner {
    const cs_sweep *sw;
    const cs_catalog *cat;
    const struct cs_sweep_table *t;
    const struct cs_sweep_run_opts *o;
    unsigned char *done;        /* per point: already in DIR */
    uint64_t next;              /* next point to consider (under lock) */
    uint64_t finished, total, skipped;
    int jfd, cfd;
    bool io_error;
    int io_errno;
    double last_sync;
    pthread_mutex_t lock;
};

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void *worker(void *arg)
{
    struct runner *R = arg;
    uint64_t N = cs_sweep_points(R->sw);
    uint64_t step = (uint64_t)R->o->shard_n;
    for (;;) {
        pthread_mutex_lock(&R->lock);
        uint64_t i = R->next;
        while (i < N && R->done[i])
            i += step;
        R->next = i + step;
        bool stop = R->io_error;
        pthread_mutex_unlock(&R->lock);
        if (i >= N || stop)
            break;
        char *json = cs_sweep_eval(R->sw, R->t, R->cat, i);
        char *csv = cs_sweep_json_to_csv(R->t, json);
        bool sk = strstr(json, "\"status\":\"skipped\"") != NULL;
        pthread_mutex_lock(&R->lock);
        /* One write() of a whole line per file (O_APPEND): a kill leaves at
         * most a partial last line, which the next start drops. The JSON
         * lines are the record; the CSV is rebuilt from them on restart. */
        if (!R->io_error && (!write_all(R->jfd, json, strlen(json)) ||
                             !write_all(R->cfd, csv ? csv : "\n", strlen(csv ? csv : "\n")))) {
            R->io_error = true;
            R->io_errno = errno;
        }
        R->finished++;
        if (sk)
            R->skipped++;
        double now = mono_s();
        if (now - R->last_sync > 2.0) {
            fdatasync(R->jfd);
            R->last_sync = now;
        }
        if (R->o->progress)
            R->o->progress(R->o->progress_ctx, R->finished, R->total);
        pthread_mutex_unlock(&R->lock);
        free(json);
        free(csv);
    }
    return NULL;
}

cs_status cs_sweep_run(const cs_sweep *sw, const cs_catalog *cat, const char *dir,
                       const struct cs_sweep_run_opts *o, struct cs_sweep_run_stats *stats,
                       cs_diags *d)
{
    struct cs_sweep_run_stats zs = {0};
    if (o->threads < 1 || o->shard_n < 1 || o->shard_k < 1 || o->shard_k > o->shard_n) {
        cs_diag_error(d, NULL, 0, 0, "bad threads or shard (%d, %d/%d)", o->threads, o->shard_k,
                      o->shard_n);
        return CS_EINVAL;
    }
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
        cs_diag_error(d, dir, 0, 0, "cannot create the directory: %s", strerror(errno));
        return CS_EIO;
    }
    /* One sweep per directory at a time: a second one on the same
     * directory would interleave its rows with ours and rewrite the files
     * under it. The lock is released when this returns (or the process
     * dies, so a kill -9 leaves nothing to clean). */
    char lwhy[512];
    int lock = cs_dirlock_acquire(dir, lwhy, sizeof lwhy);
    if (lock < 0) {
        cs_diag_error(d, NULL, 0, 0, "%s", lwhy);
        return CS_EIO;
    }
    struct cs_sweep_table t;
    cs_sweep_table_init(&t, sw);
    char *mpath = cs_xasprintf("%s/sweep.json", dir);
    char *jpath = cs_xasprintf("%s/results.jsonl", dir);
    char *cpath = cs_xasprintf("%s/results.csv", dir);
    char hash[20];
    snprintf(hash, sizeof hash, "%016llx", (unsigned long long)t.hash);
    cs_status st = CS_OK;
    struct rset rows = {0};
    unsigned char *done = NULL;
    struct runner R;
    memset(&R, 0, sizeof R);
    R.jfd = R.cfd = -1;
    /* Resume: the directory must hold this sweep (same hash and shard). */
    cJSON *m = read_json_file(mpath);
    if (m) {
        const cJSON *h = cJSON_GetObjectItemCaseSensitive(m, "sweep_hash");
        const cJSON *k = cJSON_GetObjectItemCaseSensitive(m, "shard_k");
        const cJSON *n = cJSON_GetObjectItemCaseSensitive(m, "shard_n");
        bool same = cJSON_IsString(h) && strcmp(h->valuestring, hash) == 0 && cJSON_IsNumber(k) &&
                    cJSON_IsNumber(n) && (int)k->valuedouble == o->shard_k &&
                    (int)n->valuedouble == o->shard_n;
        cJSON_Delete(m);
        if (!same) {
            cs_diag_error(d, NULL, 0, 0, "%s holds the results of another sweep or shard (sweep.json "
                          "differs): use another -o DIR or remove it", dir);
            st = CS_ECONFIG;
            goto out;
        }
    } else if (access(jpath, F_OK) == 0) {
        cs_diag_error(d, NULL, 0, 0, "%s has results.jsonl but no sweep.json: not a sweep directory "
                      "of this clustersim; use another -o DIR", dir);
        st = CS_ECONFIG;
        goto out;
    } else {
        char *mt = manifest_text(&t, o->shard_k, o->shard_n);
        const char *parts[] = {mt};
        bool ok = write_file(mpath, parts, 1, d);
        free(mt);
        if (!ok) {
            st = CS_EIO;
            goto out;
        }
    }
    st = read_rows(jpath, &rows, d);
    if (st != CS_OK)
        goto out;
    uint64_t N = cs_sweep_points(sw);
    done = cs_xcalloc(N ? N : 1, 1);
    for (size_t r = 0; r < rows.n; r++) {
        uint64_t i = rows.v[r].index;
        char want[20];
        if (i < N)
            snprintf(want, sizeof want, "%016llx", (unsigned long long)cs_sweep_point_key(sw, i));
        if (i >= N || strcmp(want, rows.v[r].key) != 0 || done[i]) {
            cs_diag_error(d, jpath, 0, 0, "row of point %llu does not belong to this sweep (or is "
                          "repeated): use another -o DIR", (unsigned long long)i);
            st = CS_ECONFIG;
            goto out;
        }
        done[i] = 1;
        zs.resumed++;
        if (strstr(rows.v[r].line, "\"status\":\"skipped\""))
            zs.skipped++;
    }
    /* Rewrite what we have (drops a partial last line, rebuilds the CSV). */
    if (!write_sorted(dir, &t, &rows, d)) {
        st = CS_EIO;
        goto out;
    }
    rset_fini(&rows);
    for (uint64_t i = (uint64_t)(o->shard_k - 1); i < N; i += (uint64_t)o->shard_n)
        zs.total++;
    R.sw = sw;
    R.cat = cat;
    R.t = &t;
    R.o = o;
    R.done = done;
    R.next = (uint64_t)(o->shard_k - 1);
    R.total = zs.total - zs.resumed;
    R.last_sync = mono_s();
    /* Appended in place (a kill leaves whole lines, see worker); never
     * through a symlink planted in DIR: write_sorted renamed fresh files
     * over both names just above. */
    R.jfd = open(jpath, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
    R.cfd = open(cpath, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (R.jfd < 0 || R.cfd < 0) {
        cs_diag_error(d, dir, 0, 0, "cannot open the results for appending: %s", strerror(errno));
        st = CS_EIO;
        goto out;
    }
    pthread_mutex_init(&R.lock, NULL);
    int nt = o->threads;
    pthread_t *th = cs_xcalloc((size_t)nt, sizeof *th);
    int started = 0;
    for (int k = 1; k < nt; k++) {
        if (pthread_create(&th[k], NULL, worker, &R) != 0)
            break;
        started++;
    }
    worker(&R);
    for (int k = 1; k <= started; k++)
        pthread_join(th[k], NULL);
    free(th);
    pthread_mutex_destroy(&R.lock);
    zs.ran = R.finished;
    zs.skipped += R.skipped;
    if (R.io_error) {
        cs_diag_error(d, dir, 0, 0, "cannot write the results: %s; finished rows are kept, run the "
                      "same command again to continue", strerror(R.io_errno));
        st = CS_EIO;
        goto out;
    }
    fdatasync(R.jfd);
    close(R.jfd);
    close(R.cfd);
    R.jfd = R.cfd = -1;
    /* Final: sorted by point, so the files do not depend on -j. */
    st = read_rows(jpath, &rows, d);
    if (st == CS_OK && !write_sorted(dir, &t, &rows, d))
        st = CS_EIO;
out:
    if (R.jfd >= 0)
        close(R.jfd);
    if (R.cfd >= 0)
        close(R.cfd);
    rset_fini(&rows);
    free(done);
    free(mpath);
    free(jpath);
    free(cpath);
    cs_sweep_table_fini(&t);
    cs_dirlock_release(lock);
    if (stats)
        *stats = zs;
    return st;
}

cs_status cs_sweep_merge(const char *dir, const char *const *shards, size_t n, cs_diags *d)
{
    if (n == 0) {
        cs_diag_error(d, NULL, 0, 0, "no shard directories to merge");
        return CS_EINVAL;
    }
    struct cs_sweep_table t;
    memset(&t, 0, sizeof t);
    size_t cap = 0;
    char hash[20] = "";
    double points = -1;
    struct rset rows = {0};
    cs_status st = CS_OK;
    char **paths = cs_xcalloc(n, sizeof *paths);
    for (size_t s = 0; s < n && st == CS_OK; s++) {
        char *mp = cs_xasprintf("%s/sweep.json", shards[s]);
        cJSON *m = read_json_file(mp);
        free(mp);
        const cJSON *h = cJSON_GetObjectItemCaseSensitive(m, "sweep_hash");
        const cJSON *p = cJSON_GetObjectItemCaseSensitive(m, "points");
        const cJSON *cols = cJSON_GetObjectItemCaseSensitive(m, "columns");
        if (!cJSON_IsString(h) || !cJSON_IsNumber(p) || !cJSON_IsArray(cols)) {
            cs_diag_error(d, shards[s], 0, 0, "no valid sweep.json: not a sweep output directory");
            st = CS_ECONFIG;
        } else if (s == 0) {
            snprintf(hash, sizeof hash, "%s", h->valuestring);
            points = p->valuedouble;
            const cJSON *na = cJSON_GetObjectItemCaseSensitive(m, "axes");
            const cJSON *nv = cJSON_GetObjectItemCaseSensitive(m, "variables");
            if (cJSON_IsNumber(na) && cJSON_IsNumber(nv)) {
                t.naxes = (size_t)na->valuedouble;
                t.nvars = (size_t)nv->valuedouble;
            }
            const cJSON *c;
            cJSON_ArrayForEach(c, cols)
            {
                if (cJSON_IsString(c))
                    add_col(&t, &cap, cs_xstrdup(c->valuestring));
            }
        } else if (strcmp(hash, h->valuestring) != 0 || points != p->valuedouble) {
            cs_diag_error(d, NULL, 0, 0, "%s comes from another sweep than %s (sweep_hash %s vs %s)",
                          shards[s], shards[0], h->valuestring, hash);
            st = CS_ECONFIG;
        }
        cJSON_Delete(m);
        if (st == CS_OK) {
            paths[s] = cs_xasprintf("%s/results.jsonl", shards[s]);
            st = read_rows(paths[s], &rows, d);
        }
    }
    if (st == CS_OK) {
        if (rows.n > 1)
            qsort(rows.v, rows.n, sizeof *rows.v, cmp_rows);
        uint64_t want = 0;
        for (size_t r = 0; r < rows.n && st == CS_OK; r++) {
            if (r > 0 && rows.v[r].index == rows.v[r - 1].index) {
                cs_diag_error(d, NULL, 0, 0, "point %llu is in two shards (%s and %s): refusing to merge",
                              (unsigned long long)rows.v[r].index, rows.v[r - 1].src,
                              rows.v[r].src);
                st = CS_ECONFIG;
            } else if (rows.v[r].index != want) {
                cs_diag_error(d, NULL, 0, 0, "point %llu is missing from every shard: refusing to merge "
                              "(run its shard again with the same command to finish it)",
                              (unsigned long long)want);
                st = CS_ECONFIG;
            }
            want++;
        }
        if (st == CS_OK && (double)want != points) {
            cs_diag_error(d, NULL, 0, 0, "point %llu is missing from every shard (the sweep has %.0f "
                          "points): refusing to merge", (unsigned long long)want, points);
            st = CS_ECONFIG;
        }
    }
    if (st == CS_OK) {
        if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
            cs_diag_error(d, dir, 0, 0, "cannot create the directory: %s", strerror(errno));
            st = CS_EIO;
        }
    }
    int lock = -1;
    if (st == CS_OK) {
        char lwhy[512];
        lock = cs_dirlock_acquire(dir, lwhy, sizeof lwhy);
        if (lock < 0) {
            cs_diag_error(d, NULL, 0, 0, "%s", lwhy);
            st = CS_EIO;
        }
    }
    if (st == CS_OK) {
        t.points = (uint64_t)points;
        t.hash = strtoull(hash, NULL, 16);
        char *mt = manifest_text(&t, 1, 1);
        const char *parts[] = {mt};
        char *mp = cs_xasprintf("%s/sweep.json", dir);
        if (!write_sorted(dir, &t, &rows, d) || !write_file(mp, parts, 1, d))
            st = CS_EIO;
        free(mp);
        free(mt);
    }
    cs_dirlock_release(lock);
    rset_fini(&rows);
    for (size_t s = 0; s < n; s++)
        free(paths[s]);
    free(paths);
    cs_sweep_table_fini(&t);
    return st;
}
