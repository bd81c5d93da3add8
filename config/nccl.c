/* nccl.c: nccl-tests and rccl-tests output -> struct cs_nccl_log (config
 * layer; calib.h). The formats, as the tools print them:
 * - the table of nccl-tests src/common.cu (PrintHeader, BenchTime) and,
 *   since 2.17.3, src/util.cu (writeResultHeader, writeBenchmarkLine*):
 *   "%12li  %12li  %8s  %6s  %6s" size, count, type, redop, root (root since
 *   2.10), then per half (out-of-place, in-place) time, algbw, busbw and
 *   #wrong ("N/A" under -c 0); -I adds i_min, i_max, i_p99, i_cv% to each
 *   half (2.19.2+); -S appends "%Y-%m-%d %H:%M:%S" to the row (2.17.6+);
 *   -C prints "cputime" for "time" in the header; -N repeats the sweep in
 *   the same table;
 * - the device lines "#  Rank %2d Group %2d Pid %6d on %10s device %2d
 *   [%04x:%02x:%02x] %s" (2.15+; "#   Rank %2d Pid %6d on %10s device %2d
 *   [0x%02x] %s" in 2.13), and rccl-tests' "[0000:05:00.0]" bus ids, its
 *   "rccl-tests: Version ..." line, "# Testing N cycle." stress cycles and
 *   -O 0 in-place-only tables (ROCm/rccl-tests src/common.cu);
 * - the JSON document of -J (src/util.cu jsonOutputInit and the writers
 *   above): {args, env, config {nthreads, ngpus, devices [{hostname,
 *   device_info}]}, results [{size, count, type, redop, root, out_of_place
 *   {time|cpu_time, alg_bw, bus_bw, nwrong}, in_place {...}}]}. */
#include "clustersim/base/numparse.h"
#include "clustersim/config/fileio.h"
#include "clustersim/config/calib_io.h"
#include "clustersim/base/strbuf.h"
#include "clustersim/base/xmalloc.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CS__NCCL_MAX_BYTES ((size_t)64 * 1024 * 1024)
#define CS__NCCL_MAX_ROWS 100000
#define CS__NCCL_MAX_ROW_WARNINGS 10

/* What a run's header said; kept when a table is split by type/redop. */
struct cs__ctx {
    int line;
    int n_threads, n_gpus;
    char gpu[64];
    char **hosts; /* distinct hosts of the Using devices block */
    int n_hosts, rank_lines;
    char tool[16], version[48];
    bool cputime, per_iter, in_place_only;
};

struct cs__nstate {
    const char *name;
    cs_diags *d;
    bool strict, json;
    struct cs_nccl_log log;
    size_t cap_runs;
    struct cs__ctx ctx;
    bool open;                /* a header or rows were seen for the current run */
    struct cs_nccl_row *rows; /* current run's rows as read (merged at close) */
    size_t n_rows, cap_rows;
    char dtype[16], redop[16];
    /* -N cycles: a size below the previous row's starts another sweep of
     * the table, whose j-th row is averaged into the first sweep's j-th
     * when their sizes agree (else it is kept as a row of its own). */
    int cycle;
    size_t cycle_pos, n0;
    double last_size;
    char pending_op[64];      /* last X_perf name seen */
    int pending_op_line;
    enum cs_coll_algo algo;   /* NCCL_ALGO seen so far */
    enum cs_coll_op hint;
    bool failed;
};

static void cs__ctx_reset(struct cs__nstate *s, int line)
{
    for (int i = 0; i < s->ctx.n_hosts; i++)
        free(s->ctx.hosts[i]);
    char **hosts = s->ctx.hosts;
    memset(&s->ctx, 0, sizeof s->ctx);
    s->ctx.hosts = hosts;
    s->ctx.line = line;
}

static double cs__mean_add(double acc, double v, int k) { return acc + (v - acc) / (double)k; }

/* Averages row r into m (a later cycle of the same size). */
static void cs__merge_row(struct cs_nccl_row *m, const struct cs_nccl_row *r)
{
    int k = ++m->cycles;
    for (int h = 0; h < 2; h++) {
        m->time_us[h] = cs__mean_add(m->time_us[h], r->time_us[h], k);
        m->algbw_gbps[h] = cs__mean_add(m->algbw_gbps[h], r->algbw_gbps[h], k);
        m->busbw_gbps[h] = cs__mean_add(m->busbw_gbps[h], r->busbw_gbps[h], k);
        m->iter_min_us[h] = cs__mean_add(m->iter_min_us[h], r->iter_min_us[h], k);
        m->iter_max_us[h] = cs__mean_add(m->iter_max_us[h], r->iter_max_us[h], k);
        m->iter_p99_us[h] = cs__mean_add(m->iter_p99_us[h], r->iter_p99_us[h], k);
        m->iter_cv_pct[h] = cs__mean_add(m->iter_cv_pct[h], r->iter_cv_pct[h], k);
        if (r->wrong[h] > m->wrong[h])
            m->wrong[h] = r->wrong[h];
    }
}

/* Finishes the current run: op, ranks and nodes; appends it when it has
 * rows. keep_ctx: the next run continues the same table (another type or
 * redop), so the header context and the operation stay. */
static void cs__close_run(struct cs__nstate *s, bool keep_ctx)
{
    if (s->n_rows > 0) {
        struct cs_nccl_run r;
        memset(&r, 0, sizeof r);
        snprintf(r.file, sizeof r.file, "%s", s->name);
        r.line = s->ctx.line > 0 ? s->ctx.line : s->rows[0].line;
        r.op = CS_COLL_OP_COUNT;
        enum cs_coll_op op;
        if (s->pending_op[0] && cs_coll_op_parse(s->pending_op, &op) == CS_OK) {
            r.op = op;
        } else if (s->pending_op[0]) {
            cs_diag_error(s->d, s->name, s->pending_op_line, 1,
                          "%s: clustersim does not model this nccl-tests collective (expected all_reduce_perf, "
                          "all_gather_perf, reduce_scatter_perf, alltoall_perf, broadcast_perf or sendrecv_perf)",
                          s->pending_op);
            s->failed = true;
        } else if (s->hint != CS_COLL_OP_COUNT) {
            r.op = s->hint;
        } else {
            cs_diag_error(s->d, s->name, r.line, 1,
                          "cannot tell which collective this run measured (no \"Collective test starting: X_perf\" "
                          "or X_perf command line before its table); name it (e.g. --nccl FILE@all_reduce)");
            s->failed = true;
        }
        r.algo = s->algo;
        r.n_threads = s->ctx.n_threads;
        r.n_gpus = s->ctx.n_gpus;
        if (s->ctx.rank_lines > 0) {
            r.ranks = s->ctx.rank_lines;
            r.nodes = s->ctx.n_hosts > 0 ? s->ctx.n_hosts : 1;
        } else {
            int t = r.n_threads > 0 ? r.n_threads : 1, g = r.n_gpus > 0 ? r.n_gpus : 1;
            r.ranks = t * g;
            r.nodes = 1;
        }
        snprintf(r.gpu, sizeof r.gpu, "%s", s->ctx.gpu);
        snprintf(r.dtype, sizeof r.dtype, "%s", s->dtype);
        snprintf(r.redop, sizeof r.redop, "%s", s->redop);
        snprintf(r.tool, sizeof r.tool, "%s", s->ctx.tool);
        snprintf(r.version, sizeof r.version, "%s", s->ctx.version);
        r.json = s->json;
        r.cputime = s->ctx.cputime;
        r.per_iter = s->ctx.per_iter;
        r.in_place_only = s->ctx.in_place_only;
        r.cycles = s->cycle + 1;
        r.n_rows = s->n_rows;
        r.rows = s->rows;
        s->rows = NULL;
        s->n_rows = s->cap_rows = 0;
        s->cycle = 0;
        s->cycle_pos = s->n0 = 0;
        if (s->log.n_runs == s->cap_runs) {
            s->cap_runs = s->cap_runs ? 2 * s->cap_runs : 4;
            s->log.runs = cs_xrealloc(s->log.runs, s->cap_runs, sizeof *s->log.runs);
        }
        s->log.runs[s->log.n_runs++] = r;
    }
    if (!keep_ctx) {
        s->pending_op[0] = '\0';
        cs__ctx_reset(s, 0);
        s->open = false;
    }
}

/* A header line starts a new run when the current one already has rows. */
static void cs__header(struct cs__nstate *s, int line)
{
    if (s->n_rows > 0)
        cs__close_run(s, false);
    if (!s->open) {
        cs__ctx_reset(s, line);
        s->open = true;
    }
}

/* Finds "X_perf" in a line (a word ending in _perf, after any directory;
 * "X_perf_SUFFIX" of a NAME_SUFFIX build gives X_perf). A collective
 * clustersim knows wins over other X_perf words (a directory
 * "nccl_perf_tests"); else the first X_perf that ends a word. */
static bool cs__find_perf(const char *line, char *out, size_t n)
{
    const char *p = strstr(line, "_perf");
    const char *fb = NULL;
    size_t fbl = 0;
    while (p) {
        const char *e = p + 5;
        if (!isalnum((unsigned char)*e)) {
            const char *b = p;
            while (b > line && (isalnum((unsigned char)b[-1]) || b[-1] == '_'))
                b--;
            size_t len = (size_t)(e - b);
            if (len > 5 && len < n) {
                char w[64];
                memcpy(w, b, len);
                w[len] = '\0';
                enum cs_coll_op op;
                if (cs_coll_op_parse(w, &op) == CS_OK) {
                    memcpy(out, w, len + 1);
                    return true;
                }
                if (!fb && *e != '_') {
                    fb = b;
                    fbl = len;
                }
            }
        }
        p = strstr(p + 1, "_perf");
    }
    if (fb) {
        memcpy(out, fb, fbl);
        out[fbl] = '\0';
        return true;
    }
    return false;
}

/* "NCCL_ALGO=Ring" or "NCCL_ALGO set by environment to Ring". */
static void cs__find_algo(struct cs__nstate *s, const char *line)
{
    const char *p = strstr(line, "NCCL_ALGO");
    if (!p)
        return;
    p += 9;
    if (*p == '=')
        p++;
    else if (strncmp(p, " set by environment to ", 23) == 0)
        p += 23;
    else
        return;
    char w[16];
    size_t i = 0;
    while (isalpha((unsigned char)p[i]) && i + 1 < sizeof w) {
        w[i] = (char)tolower((unsigned char)p[i]);
        i++;
    }
    w[i] = '\0';
    enum cs_coll_algo a;
    if (cs_coll_algo_parse(w, &a) == CS_OK)
        s->algo = a;
}

static void cs__add_host(struct cs__nstate *s, const char *h, size_t hl)
{
    for (int i = 0; i < s->ctx.n_hosts; i++)
        if (strlen(s->ctx.hosts[i]) == hl && strncmp(s->ctx.hosts[i], h, hl) == 0)
            return;
    /* No cap: a run's node count is its number of distinct hosts, so
     * dropping hosts past a fixed table would undercount its nodes. */
    char *copy = cs_xmalloc(hl + 1);
    memcpy(copy, h, hl);
    copy[hl] = '\0';
    s->ctx.hosts = cs_xrealloc(s->ctx.hosts, (size_t)s->ctx.n_hosts + 1, sizeof *s->ctx.hosts);
    s->ctx.hosts[s->ctx.n_hosts++] = copy;
}

static void cs__set_gpu(struct cs__nstate *s, const char *m)
{
    while (*m == ' ')
        m++;
    snprintf(s->ctx.gpu, sizeof s->ctx.gpu, "%s", m);
    size_t l = strlen(s->ctx.gpu);
    while (l > 0 && isspace((unsigned char)s->ctx.gpu[l - 1]))
        s->ctx.gpu[--l] = '\0';
}

/* "#  Rank  0 Group  0 Pid  50781 on HOST device  0 [0000:1b:00] NVIDIA A100-SXM4-80GB" */
static void cs__bad_row(struct cs__nstate *s, int lineno, int col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static void cs__rank_line(struct cs__nstate *s, const char *line, int lineno)
{
    const char *on = strstr(line, " on ");
    const char *dev = on ? strstr(on + 4, " device ") : NULL;
    if (!on || !dev)
        return;
    const char *h = on + 4;
    while (*h == ' ' && h < dev)
        h++;
    /* "on  device": no host name between them (the blanks before " device "
     * were skipped up to it); counting the rank would give it no node. */
    if (h >= dev) {
        cs__bad_row(s, lineno, (int)(on - line) + 2, "rank line: expected a host name after \"on\"");
        return;
    }
    s->ctx.rank_lines++;
    size_t hl = (size_t)(dev - h);
    while (hl > 0 && h[hl - 1] == ' ')
        hl--;
    cs__add_host(s, h, hl);
    if (s->ctx.rank_lines == 1) {
        const char *m = strchr(dev, ']');
        if (m)
            cs__set_gpu(s, m + 1);
    }
}

/* "nccl-tests version 2.17.8 nccl-headers=..." / "rccl-tests: Version develop:83d38d9". */
static bool cs__tool_line(struct cs__nstate *s, const char *p)
{
    const char *tool = strstr(p, "ccl-tests");
    if (!tool || tool == p || (tool[-1] != 'n' && tool[-1] != 'r'))
        return false;
    const char *v = tool + 9;
    if (*v == ':')
        v++;
    while (*v == ' ')
        v++;
    if (strncmp(v, "version ", 8) != 0 && strncmp(v, "Version ", 8) != 0)
        return false;
    v += 8;
    while (*v == ' ')
        v++;
    size_t vl = strcspn(v, " \t");
    snprintf(s->ctx.tool, sizeof s->ctx.tool, "%c%s", tool[-1], "ccl-tests");
    snprintf(s->ctx.version, sizeof s->ctx.version, "%.*s", (int)(vl < 47 ? vl : 47), v);
    return true;
}

static void cs__comment(struct cs__nstate *s, const char *line, int lineno)
{
    char perf[64];
    const char *p = line;
    while (*p == ' ' || *p == '\t' || *p == '#')
        p++;
    if (strncmp(p, "nccl-tests version ", 19) == 0 || strncmp(p, "rccl-tests version ", 19) == 0) {
        cs__header(s, lineno);
        cs__tool_line(s, p);
        return;
    }
    const char *k = strstr(line, "Collective test starting:");
    if (k) {
        cs__header(s, lineno);
        if (cs__find_perf(k, perf, sizeof perf)) {
            snprintf(s->pending_op, sizeof s->pending_op, "%s", perf);
            s->pending_op_line = lineno;
        }
        return;
    }
    if (strstr(line, "Collective test concluded"))
        return;
    const char *nt = strstr(line, "nThread");
    if (nt && strstr(line, "nGpus")) {
        cs__header(s, lineno);
        int t = 0, g = 0;
        if (sscanf(nt, "nThread %d nGpus %d", &t, &g) == 2) {
            s->ctx.n_threads = t;
            s->ctx.n_gpus = g;
        }
        return;
    }
    if (strstr(line, " Rank ") && strstr(line, " Pid ")) {
        if (s->n_rows > 0 || !s->open)
            cs__header(s, lineno);
        cs__rank_line(s, line, lineno);
        return;
    }
    /* The table header: "out-of-place ... in-place" over the column names. */
    bool oop = strstr(line, "out-of-place") != NULL, ip = strstr(line, "in-place") != NULL;
    if ((oop || ip) && s->n_rows == 0) {
        s->ctx.in_place_only = ip && !oop;
        return;
    }
    if (strstr(line, " size ") && strstr(line, " count ") && strstr(line, " busbw ")) {
        if (strstr(line, "cputime"))
            s->ctx.cputime = true;
        if (strstr(line, "i_min"))
            s->ctx.per_iter = true;
        return;
    }
    if (s->n_rows == 0 && cs__find_perf(line, perf, sizeof perf)) {
        snprintf(s->pending_op, sizeof s->pending_op, "%s", perf);
        s->pending_op_line = lineno;
    }
}

/* Splits a line into at most `max` whitespace-separated fields; returns the count. */
static int cs__fields(char *line, char **f, int *col, int max)
{
    int n = 0;
    char *p = line;
    while (*p) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p)
            break;
        if (n < max) {
            f[n] = p;
            col[n] = (int)(p - line) + 1;
        }
        n++;
        while (*p && *p != ' ' && *p != '\t')
            p++;
        if (*p)
            *p++ = '\0';
    }
    return n;
}

static bool cs__num(const char *t, double *v)
{
    return cs_num_parse_double(t, v);
}

static bool cs__wrong(const char *t, long *v)
{
    if (strcmp(t, "N/A") == 0) {
        *v = -1;
        return true;
    }
    double x;
    if (!cs__num(t, &x) || x < 0 || x > 1e18)
        return false;
    *v = (long)x;
    return true;
}

static bool cs__digits(const char *t)
{
    if (!*t)
        return false;
    for (; *t; t++)
        if (!isdigit((unsigned char)*t))
            return false;
    return true;
}

static bool cs__integer(const char *t)
{
    if (*t == '-' || *t == '+')
        t++;
    return cs__digits(t);
}

/* "YYYY-MM-DD" and "HH:MM:SS" (TIME_STRING_FORMAT of nccl-tests util.cu). */
static bool cs__pattern(const char *t, const char *pat)
{
    for (; *pat; t++, pat++) {
        if (*pat == '9' ? !isdigit((unsigned char)*t) : *t != *pat)
            return false;
    }
    return *t == '\0';
}

/* A malformed row: a warning and a skip, or (strict) an error. */
static void cs__bad_row(struct cs__nstate *s, int lineno, int col, const char *fmt, ...)
{
    char why[320];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    if (s->strict) {
        cs_diag_error(s->d, s->name, lineno, col, "%s", why);
        s->failed = true;
        return;
    }
    s->log.skipped_rows++;
    if (s->log.skipped_rows > CS__NCCL_MAX_ROW_WARNINGS)
        return;
    if (col > 0)
        cs_diag_add(s->d, CS_SEV_WARNING, s->name, lineno, 0,
                    "%s at column %d; row skipped (--strict makes it an error)", why, col);
    else
        cs_diag_add(s->d, CS_SEV_WARNING, s->name, lineno, 0, "%s; row skipped (--strict makes it an error)", why);
}

static void cs__row_init(struct cs_nccl_row *r, int lineno)
{
    memset(r, 0, sizeof *r);
    r->line = lineno;
    r->cycles = 1;
    for (int h = 0; h < 2; h++) {
        r->time_us[h] = r->algbw_gbps[h] = r->busbw_gbps[h] = NAN;
        r->iter_min_us[h] = r->iter_max_us[h] = r->iter_p99_us[h] = r->iter_cv_pct[h] = NAN;
        r->wrong[h] = 0;
    }
}

/* Appends a checked row to the current run; a change of type or redop
 * closes the run and starts another with the same header. */
static void cs__add_row(struct cs__nstate *s, const struct cs_nccl_row *r, const char *dtype, const char *redop)
{
    if (!s->open) {
        cs__ctx_reset(s, r->line);
        s->open = true;
    }
    if (s->n_rows > 0 && (strcmp(s->dtype, dtype) != 0 || strcmp(s->redop, redop) != 0))
        cs__close_run(s, true);
    if (s->n_rows == 0) {
        snprintf(s->dtype, sizeof s->dtype, "%s", dtype);
        snprintf(s->redop, sizeof s->redop, "%s", redop);
    }
    if (s->n_rows > 0 && r->size_bytes < s->last_size) {
        s->cycle++;
        s->cycle_pos = 0;
    }
    s->last_size = r->size_bytes;
    if (s->cycle > 0) {
        size_t j = s->cycle_pos++;
        if (j < s->n0 && s->rows[j].size_bytes == r->size_bytes) {
            cs__merge_row(&s->rows[j], r);
            return;
        }
    }
    if (s->n_rows >= CS__NCCL_MAX_ROWS) {
        cs_diag_error(s->d, s->name, r->line, 1, "more than %d rows in one run", CS__NCCL_MAX_ROWS);
        s->failed = true;
        return;
    }
    if (s->n_rows == s->cap_rows) {
        s->cap_rows = s->cap_rows ? 2 * s->cap_rows : 32;
        s->rows = cs_xrealloc(s->rows, s->cap_rows, sizeof *s->rows);
    }
    s->rows[s->n_rows++] = *r;
    if (s->cycle == 0)
        s->n0 = s->n_rows;
}

/* `off`: characters of a prefix removed before `line` (columns count from
 * the line as it is in the file). */
static void cs__row(struct cs__nstate *s, char *line, int lineno, int off)
{
    char *f[32];
    int col[32];
    int n = cs__fields(line, f, col, 32);
    for (int i = 0; i < n && i < 32; i++)
        col[i] += off;
    if (n > 32) {
        cs__bad_row(s, lineno, 1 + off, "expected an nccl-tests row, got %d fields", n);
        return;
    }
    struct cs_nccl_row r;
    cs__row_init(&r, lineno);
    /* -S: the row ends in a date and a time. */
    if (n >= 2 && cs__pattern(f[n - 2], "9999-99-99") && cs__pattern(f[n - 1], "99:99:99")) {
        snprintf(r.stamp, sizeof r.stamp, "%s %s", f[n - 2], f[n - 1]);
        n -= 2;
    }
    /* With a root column (nccl-tests >= 2.10): 5 + 4 [+ 4], or 5 + 8 + 8 with
     * -I; without: 4 + 4 [+ 4]. */
    int lead, width;
    if (n == 9 || n == 13)
        lead = 5, width = 4;
    else if (n == 21)
        lead = 5, width = 8;
    else if (n == 8 || n == 12)
        lead = 4, width = 4;
    else {
        cs__bad_row(s, lineno, 1 + off,
                    "expected an nccl-tests row (size count type redop [root] time algbw busbw #wrong [time algbw "
                    "busbw #wrong]), got %d fields",
                    n);
        return;
    }
    int halves = (n - lead) / width;
    int first = halves == 1 && s->ctx.in_place_only ? 1 : 0;
    static const char *const what[] = {"time (us)", "algbw (GB/s)", "busbw (GB/s)", "#wrong",
                                       "i_min (us)", "i_max (us)", "i_p99 (us)", "i_cv%"};
    if (!cs__num(f[0], &r.size_bytes) || r.size_bytes < 0 || r.size_bytes != floor(r.size_bytes)) {
        cs__bad_row(s, lineno, col[0], "size: expected a whole number of bytes, got \"%s\"", f[0]);
        return;
    }
    if (!cs__num(f[1], &r.count) || r.count < 0) {
        cs__bad_row(s, lineno, col[1], "count: expected a number of elements, got \"%s\"", f[1]);
        return;
    }
    if (lead == 5 && !cs__integer(f[4])) {
        cs__bad_row(s, lineno, col[4], "root: expected a rank number (-1 for none), got \"%s\"", f[4]);
        return;
    }
    for (int k = 0; k < halves; k++) {
        int h = first + k;
        for (int j = 0; j < width; j++) {
            int i = lead + width * k + j;
            bool ok;
            double v = 0;
            if (j == 3)
                ok = cs__wrong(f[i], &r.wrong[h]);
            else
                ok = cs__num(f[i], &v) && v >= 0;
            if (!ok) {
                cs__bad_row(s, lineno, col[i], "%s %s: expected a non-negative number, got \"%s\"",
                            h ? "in-place" : "out-of-place", what[j], f[i]);
                return;
            }
            double *dst[] = {&r.time_us[h], &r.algbw_gbps[h], &r.busbw_gbps[h], NULL,
                             &r.iter_min_us[h], &r.iter_max_us[h], &r.iter_p99_us[h], &r.iter_cv_pct[h]};
            if (dst[j])
                *dst[j] = v;
        }
    }
    if (r.size_bytes > 0 && !(r.time_us[first] > 0)) {
        cs__bad_row(s, lineno, col[lead], "%s time: expected a positive time for %.0f bytes",
                    first ? "in-place" : "out-of-place", r.size_bytes);
        return;
    }
    if (width == 8)
        s->ctx.per_iter = true;
    cs__add_row(s, &r, f[2], f[3]);
}

/* True when the n bytes at s contain "rank=" (a launcher's worker tag). */
static bool cs__has_rank_tag(const char *s, size_t n)
{
    for (size_t i = 0; i + 5 <= n; i++)
        if (memcmp(s + i, "rank=", 5) == 0)
            return true;
    return false;
}

/* Removes an Open MPI --tag-output prefix "[1,0]<stdout>:", a Slurm
 * --label prefix "0: " and a Ray/SkyPilot worker prefix "(head, rank=0,
 * pid=3808) " (any of them, in any order). */
static const char *cs__strip_prefix(const char *p)
{
    for (int k = 0; k < 3; k++) {
        const char *q = p;
        while (*q == ' ' || *q == '\t')
            q++;
        if (*q == '(') {
            /* "(name, rank=N, pid=N) ": a parenthesized word list that
             * names a rank, then a blank */
            const char *t = strchr(q, ')');
            if (!t || t[1] != ' ' || !cs__has_rank_tag(q, (size_t)(t - q)))
                break;
            p = t + 2;
        } else if (*q == '[') {
            const char *t = q + 1;
            if (!isdigit((unsigned char)*t))
                break;
            while (isdigit((unsigned char)*t))
                t++;
            if (*t++ != ',' || !isdigit((unsigned char)*t))
                break;
            while (isdigit((unsigned char)*t))
                t++;
            if (*t++ != ']' || *t++ != '<')
                break;
            while (isalpha((unsigned char)*t))
                t++;
            if (*t++ != '>' || *t++ != ':')
                break;
            p = t;
        } else if (isdigit((unsigned char)*q)) {
            const char *t = q;
            while (isdigit((unsigned char)*t))
                t++;
            if (t[0] != ':' || (t[1] != ' ' && t[1] != '\t'))
                break;
            p = t + 1;
        } else {
            break;
        }
    }
    return p;
}

/* True when the line's first two words are whole numbers, or when it is
 * indented (nccl-tests right-aligns the size, "%12li") and its first word
 * is one: an nccl-tests row or a broken one (a row cut by other output).
 * Anything else is another program's output. */
static bool cs__row_like(const char *p)
{
    bool indented = *p == ' ' || *p == '\t';
    while (*p == ' ' || *p == '\t')
        p++;
    if (!isdigit((unsigned char)*p))
        return false;
    while (isdigit((unsigned char)*p))
        p++;
    if (indented && (*p == ' ' || *p == '\t' || *p == '\0'))
        return true;
    if (*p != ' ' && *p != '\t')
        return false;
    while (*p == ' ' || *p == '\t')
        p++;
    if (!isdigit((unsigned char)*p))
        return false;
    while (isdigit((unsigned char)*p))
        p++;
    return *p == ' ' || *p == '\t' || *p == '\0';
}

static void cs__parse_text(struct cs__nstate *s, const char *buf, size_t len, int *lines)
{
    size_t pos = 0;
    int lineno = 0;
    char *line = NULL;
    size_t cap = 0;
    while (pos < len && !s->failed) {
        size_t e = pos;
        while (e < len && buf[e] != '\n')
            e++;
        const char *src = buf + pos;
        size_t l = e - pos;
        lineno++;
        pos = e + 1;
        if (l + 1 > cap) {
            cap = l + 1;
            line = cs_xrealloc(line, cap, 1);
        }
        memcpy(line, src, l);
        if (l > 0 && line[l - 1] == '\r')
            l--;
        line[l] = '\0';
        const char *p0 = cs__strip_prefix(line);
        /* Work on the text after the prefix, in place. */
        size_t off = (size_t)(p0 - line);
        if (off)
            memmove(line, line + off, l - off + 1);
        const char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '#') {
            cs__comment(s, line, lineno);
            cs__find_algo(s, line);
        } else if (cs__row_like(line)) {
            cs__row(s, line, lineno, (int)off);
        } else {
            cs__find_algo(s, line);
            if (cs__tool_line(s, p))
                continue;
            char perf[64];
            if (s->n_rows == 0 && cs__find_perf(line, perf, sizeof perf)) {
                snprintf(s->pending_op, sizeof s->pending_op, "%s", perf);
                s->pending_op_line = lineno;
            }
        }
    }
    free(line);
    *lines = lineno;
}

/* ------------------------------------------------------------------ JSON */

/* Walks the "size" keys of results[] in order, counting lines, so that
 * each entry's diagnostics name its line (1 for nccl-tests' one-line
 * document; the real line of a pretty-printed one). */
struct cs__jcursor {
    const char *p, *end;
    int line;
};

static void cs__jcursor_init(struct cs__jcursor *c, const char *buf, size_t len)
{
    c->p = buf;
    c->end = buf + len;
    c->line = 1;
    for (const char *q = buf; q + 9 <= c->end; q++) {
        if (*q == '\n')
            c->line++;
        else if (*q == '"' && memcmp(q, "\"results\"", 9) == 0) {
            c->p = q + 9;
            return;
        }
    }
    c->p = c->end;
}

static int cs__jcursor_next(struct cs__jcursor *c)
{
    for (const char *q = c->p; q + 6 <= c->end; q++) {
        if (*q == '\n')
            c->line++;
        else if (*q == '"' && memcmp(q, "\"size\"", 6) == 0) {
            c->p = q + 6;
            return c->line;
        }
    }
    c->p = c->end;
    return c->line;
}

static const char *cs__jstr(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* A JSON number >= 0 (nccl-tests writes NaN as the string "nan"). */
static bool cs__jnum(const cJSON *o, const char *key, double *v)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsNumber(x) || !isfinite(x->valuedouble) || x->valuedouble < 0)
        return false;
    *v = x->valuedouble;
    return true;
}

/* One results[] entry -> a row; false (diagnosed) when malformed. */
static bool cs__json_result(struct cs__nstate *s, const cJSON *e, int i, int line, struct cs_nccl_row *r,
                            const char **dtype, const char **redop)
{
    cs__row_init(r, line);
    if (!cJSON_IsObject(e)) {
        cs__bad_row(s, line, 0, "results[%d]: expected an object, got %s", i,
                    cJSON_IsNull(e) ? "null" : "another value");
        return false;
    }
    if (!cs__jnum(e, "size", &r->size_bytes) || r->size_bytes != floor(r->size_bytes)) {
        cs__bad_row(s, line, 0, "results[%d].size: expected a whole number of bytes", i);
        return false;
    }
    if (!cs__jnum(e, "count", &r->count))
        r->count = NAN;
    *dtype = cs__jstr(e, "type");
    *redop = cs__jstr(e, "redop");
    if (!*dtype || !*redop) {
        cs__bad_row(s, line, 0, "results[%d]: expected strings \"type\" and \"redop\"", i);
        return false;
    }
    static const char *const half[] = {"out_of_place", "in_place"};
    static const char *const per[] = {"out_of_place_per_iter", "in_place_per_iter"};
    int present = 0;
    for (int h = 0; h < 2; h++) {
        const cJSON *o = cJSON_GetObjectItemCaseSensitive(e, half[h]);
        if (!o || cJSON_IsNull(o))
            continue;
        if (!cJSON_IsObject(o)) {
            cs__bad_row(s, line, 0, "results[%d].%s: expected an object", i, half[h]);
            return false;
        }
        const char *tk = cJSON_GetObjectItemCaseSensitive(o, "cpu_time") ? "cpu_time" : "time";
        if (tk[0] == 'c')
            s->ctx.cputime = true;
        static const char *const keys[] = {"alg_bw", "bus_bw"};
        if (!cs__jnum(o, tk, &r->time_us[h])) {
            cs__bad_row(s, line, 0, "results[%d].%s.%s: expected a non-negative number of microseconds", i,
                        half[h], tk);
            return false;
        }
        double *dst[] = {&r->algbw_gbps[h], &r->busbw_gbps[h]};
        for (int k = 0; k < 2; k++)
            if (!cs__jnum(o, keys[k], dst[k])) {
                cs__bad_row(s, line, 0, "results[%d].%s.%s: expected a non-negative number of GB/s", i, half[h],
                            keys[k]);
                return false;
            }
        const cJSON *w = cJSON_GetObjectItemCaseSensitive(o, "nwrong");
        if (cJSON_IsNumber(w) && w->valuedouble >= 0 && w->valuedouble < 1e18)
            r->wrong[h] = (long)w->valuedouble;
        else if (!w || cJSON_IsNull(w))
            r->wrong[h] = -1; /* -c 0 writes null */
        else {
            cs__bad_row(s, line, 0, "results[%d].%s.nwrong: expected a count or null", i, half[h]);
            return false;
        }
        const cJSON *pi = cJSON_GetObjectItemCaseSensitive(e, per[h]);
        if (cJSON_IsObject(pi)) {
            s->ctx.per_iter = true;
            double v;
            if (cs__jnum(pi, "min_us", &v))
                r->iter_min_us[h] = v;
            if (cs__jnum(pi, "max_us", &v))
                r->iter_max_us[h] = v;
            if (cs__jnum(pi, "p99_us", &v))
                r->iter_p99_us[h] = v;
            if (cs__jnum(pi, "cv_pct", &v))
                r->iter_cv_pct[h] = v;
        }
        present |= 1 << h;
    }
    if (!present) {
        cs__bad_row(s, line, 0, "results[%d]: expected out_of_place or in_place results", i);
        return false;
    }
    int first = (present & 1) ? 0 : 1;
    if (r->size_bytes > 0 && !(r->time_us[first] > 0)) {
        cs__bad_row(s, line, 0, "results[%d].%s.time: expected a positive time for %.0f bytes", i, half[first],
                    r->size_bytes);
        return false;
    }
    if (present == 2)
        s->ctx.in_place_only = true;
    return true;
}

static void cs__parse_json(struct cs__nstate *s, const char *buf, size_t len)
{
    s->json = true;
    const char *endp = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(buf, len, &endp, 0);
    if (!root) {
        const char *e = cJSON_GetErrorPtr();
        int l = 1, c = 1;
        if (e && e >= buf && e <= buf + len)
            cs_text_line_col(buf, (size_t)(e - buf), &l, &c);
        cs_diag_error(s->d, s->name, l, c, "malformed JSON (expected the document nccl-tests -J writes)");
        s->failed = true;
        return;
    }
    const cJSON *results = cJSON_GetObjectItemCaseSensitive(root, "results");
    if (!cJSON_IsArray(results)) {
        cs_diag_error(s->d, s->name, 1, 1, "results: expected the array of rows nccl-tests -J writes");
        s->failed = true;
        cJSON_Delete(root);
        return;
    }
    cs__ctx_reset(s, 1);
    s->open = true;
    snprintf(s->ctx.tool, sizeof s->ctx.tool, "nccl-tests");
    const cJSON *ver = cJSON_GetObjectItemCaseSensitive(root, "nccl_version");
    if (cJSON_IsNumber(ver))
        snprintf(s->ctx.version, sizeof s->ctx.version, "json, nccl %d", ver->valueint);
    /* The collective: args[0] is the binary. */
    const cJSON *args = cJSON_GetObjectItemCaseSensitive(root, "args");
    const cJSON *a0 = cJSON_IsArray(args) ? cJSON_GetArrayItem(args, 0) : NULL;
    if (cJSON_IsString(a0) && cs__find_perf(a0->valuestring, s->pending_op, sizeof s->pending_op))
        s->pending_op_line = 1;
    const cJSON *env = cJSON_GetObjectItemCaseSensitive(root, "env");
    const cJSON *ev;
    cJSON_ArrayForEach(ev, env)
    {
        if (cJSON_IsString(ev) && strncmp(ev->valuestring, "NCCL_ALGO=", 10) == 0)
            cs__find_algo(s, ev->valuestring);
    }
    const cJSON *cfg = cJSON_GetObjectItemCaseSensitive(root, "config");
    const cJSON *nt = cJSON_GetObjectItemCaseSensitive(cfg, "nthreads");
    const cJSON *ng = cJSON_GetObjectItemCaseSensitive(cfg, "ngpus");
    if (cJSON_IsNumber(nt) && cJSON_IsNumber(ng)) {
        s->ctx.n_threads = nt->valueint;
        s->ctx.n_gpus = ng->valueint;
    }
    /* One entry per process (util.cu parses the first device line of each
     * process's block), each process driving nthreads x ngpus ranks. */
    const cJSON *devs = cJSON_GetObjectItemCaseSensitive(cfg, "devices");
    const cJSON *dv;
    int procs = 0;
    cJSON_ArrayForEach(dv, devs)
    {
        if (!cJSON_IsObject(dv))
            continue;
        const char *h = cs__jstr(dv, "hostname");
        if (h)
            cs__add_host(s, h, strlen(h));
        const char *info = cs__jstr(dv, "device_info");
        if (procs++ == 0 && info)
            cs__set_gpu(s, info);
    }
    if (procs > 0) {
        int t = s->ctx.n_threads > 0 ? s->ctx.n_threads : 1, g = s->ctx.n_gpus > 0 ? s->ctx.n_gpus : 1;
        s->ctx.rank_lines = procs * t * g;
    }
    struct cs__jcursor cur;
    cs__jcursor_init(&cur, buf, len);
    int i = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, results)
    {
        if (s->failed)
            break;
        int line = cs__jcursor_next(&cur);
        struct cs_nccl_row r;
        const char *dtype = NULL, *redop = NULL;
        if (cs__json_result(s, e, i, line, &r, &dtype, &redop))
            cs__add_row(s, &r, dtype, redop);
        i++;
    }
    cJSON_Delete(root);
}

/* ------------------------------------------------------------------ API */

cs_status cs_nccl_parse_buffer_ex(const char *name, const char *buf, size_t len, enum cs_coll_op op_hint,
                                  unsigned flags, cs_diags *d, struct cs_nccl_log *out)
{
    struct cs__nstate s;
    memset(&s, 0, sizeof s);
    s.name = name;
    s.d = d;
    s.hint = op_hint;
    s.strict = (flags & CS_NCCL_STRICT) != 0;
    s.algo = CS_COLL_AUTO;
    if (memchr(buf, '\0', len)) {
        cs_diag_error(d, name, 1, 1, "expected nccl-tests text output, found a NUL byte (binary file?)");
        return CS_ECONFIG;
    }
    size_t lead = 0;
    while (lead < len && isspace((unsigned char)buf[lead]))
        lead++;
    int lines = 0;
    if (lead < len && buf[lead] == '{')
        cs__parse_json(&s, buf, len);
    else
        cs__parse_text(&s, buf, len, &lines);
    if (!s.failed)
        cs__close_run(&s, false);
    free(s.rows);
    for (int i = 0; i < s.ctx.n_hosts; i++)
        free(s.ctx.hosts[i]);
    free(s.ctx.hosts);
    if (!s.failed && s.log.skipped_rows > CS__NCCL_MAX_ROW_WARNINGS)
        cs_diag_add(d, CS_SEV_WARNING, name, 0, 0, "%zu malformed rows skipped in all (the first %d are named above)",
                    s.log.skipped_rows, CS__NCCL_MAX_ROW_WARNINGS);
    if (!s.failed && s.log.n_runs == 0) {
        if (s.json)
            cs_diag_error(d, name, 1, 1, "no nccl-tests results in the JSON document%s",
                          s.log.skipped_rows ? " (every row was malformed and skipped)" : "");
        else
            cs_diag_error(d, name, lines > 0 ? lines : 1, 1,
                          "no nccl-tests result rows found%s (expected lines like \"  33554432  8388608  float  sum  "
                          "-1  650.2  51.61  96.76  0 ...\")",
                          s.log.skipped_rows ? " (every row was malformed and skipped)" : "");
        s.failed = true;
    }
    if (s.failed) {
        cs_nccl_log_fini(&s.log);
        return CS_ECONFIG;
    }
    *out = s.log;
    return CS_OK;
}

cs_status cs_nccl_parse_buffer(const char *name, const char *buf, size_t len, enum cs_coll_op op_hint,
                               cs_diags *d, struct cs_nccl_log *out)
{
    return cs_nccl_parse_buffer_ex(name, buf, len, op_hint, 0, d, out);
}

cs_status cs_nccl_parse_file_ex(const char *path, enum cs_coll_op op_hint, unsigned flags, cs_diags *d,
                                struct cs_nccl_log *out)
{
    char *buf;
    size_t len;
    char why[256];
    cs_status st = cs_file_slurp_why(path, CS__NCCL_MAX_BYTES, &buf, &len, why, sizeof why);
    if (st != CS_OK) {
        cs_diag_error(d, cs_path_display(path), 0, 0, "%s%s",
                      st == CS_ERANGE ? "file larger than 64 MiB: not an nccl-tests log? " : "cannot read the file: ",
                      st == CS_ERANGE ? "" : why);
        return st == CS_ERANGE ? CS_ECONFIG : CS_EIO;
    }
    st = cs_nccl_parse_buffer_ex(cs_path_display(path), buf, len, op_hint, flags, d, out);
    free(buf);
    return st;
}

cs_status cs_nccl_parse_file(const char *path, enum cs_coll_op op_hint, cs_diags *d, struct cs_nccl_log *out)
{
    return cs_nccl_parse_file_ex(path, op_hint, 0, d, out);
}

/* nvidia-smi / ROCm device names -> catalog names (scenarios/catalog/gpus.yaml). */
const char *cs_calib_gpu_catalog_name(const char *dev)
{
    if (!dev)
        return NULL;
    if (strstr(dev, "GB200"))
        return "GB200";
    if (strstr(dev, "B200"))
        return "B200";
    if (strstr(dev, "H200"))
        return "H200-SXM-141GB";
    if (strstr(dev, "H100"))
        return strstr(dev, "PCIe") ? "H100-PCIe-80GB" : "H100-SXM5-80GB";
    if (strstr(dev, "A100"))
        return strstr(dev, "40GB") ? "A100-SXM4-40GB" : "A100-SXM4-80GB";
    if (strstr(dev, "MI325X"))
        return "MI325X";
    if (strstr(dev, "MI300X"))
        return "MI300X";
    if (strstr(dev, "L40S"))
        return "L40S";
    if (strstr(dev, "4090"))
        return "RTX-4090";
    return NULL;
}
