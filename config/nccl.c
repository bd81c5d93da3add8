/* nccl.c: nccl-tests output -> struct cs_nccl_log (config layer; calib.h).
 * The table layout follows nccl-tests src/common.cu (PrintHeader and
 * TimeTest's per-row print): size, count, type, redop, root (since 2.10),
 * then time/algbw/busbw/#wrong out-of-place and, for most tests, in-place. */
#include "clustersim/fileio.h"
#include "clustersim/calib.h"
#include "clustersim/xmalloc.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CS__NCCL_MAX_BYTES ((size_t)64 * 1024 * 1024)
#define CS__NCCL_MAX_ROWS 100000
#define CS__NCCL_MAX_HOSTS 4096

struct cs__nstate {
    const char *name;
    cs_diags *d;
    struct cs_nccl_log log;
    size_t cap_runs;
    struct cs_nccl_run cur;
    size_t cap_rows;
    bool open;                  /* cur has a header or rows */
    char pending_op[64];        /* last X_perf name seen */
    int pending_op_line;
    enum cs_coll_algo algo;     /* NCCL_ALGO seen so far */
    char **hosts;               /* distinct hosts of cur's Using devices block */
    int n_hosts, rank_lines;
    enum cs_coll_op hint;
    bool failed;
};

static void cs__reset_cur(struct cs__nstate *s, int line)
{
    memset(&s->cur, 0, sizeof s->cur);
    snprintf(s->cur.file, sizeof s->cur.file, "%s", s->name);
    s->cur.line = line;
    s->cur.op = CS_COLL_OP_COUNT;
    s->cap_rows = 0;
    for (int i = 0; i < s->n_hosts; i++)
        free(s->hosts[i]);
    s->n_hosts = 0;
    s->rank_lines = 0;
    s->open = false;
}

/* Finishes the current run: op, ranks and nodes; appends it when it has rows. */
static void cs__close_run(struct cs__nstate *s)
{
    struct cs_nccl_run *r = &s->cur;
    if (r->n_rows == 0) {
        free(r->rows);
        cs__reset_cur(s, 0);
        return;
    }
    if (r->op == CS_COLL_OP_COUNT) {
        enum cs_coll_op op;
        if (s->pending_op[0] && cs_coll_op_parse(s->pending_op, &op) == CS_OK) {
            r->op = op;
        } else if (s->pending_op[0]) {
            cs_diag_error(s->d, s->name, s->pending_op_line, 1,
                          "%s: clustersim does not model this nccl-tests collective (expected all_reduce_perf, "
                          "all_gather_perf, reduce_scatter_perf, alltoall_perf, broadcast_perf or sendrecv_perf)",
                          s->pending_op);
            s->failed = true;
        } else if (s->hint != CS_COLL_OP_COUNT) {
            r->op = s->hint;
        } else {
            cs_diag_error(s->d, s->name, r->line, 1,
                          "cannot tell which collective this run measured (no \"Collective test starting: X_perf\" "
                          "or X_perf command line before its table); name it (e.g. --nccl FILE@all_reduce)");
            s->failed = true;
        }
    }
    r->algo = s->algo;
    if (s->rank_lines > 0) {
        r->ranks = s->rank_lines;
        r->nodes = s->n_hosts > 0 ? s->n_hosts : 1;
    } else {
        int t = r->n_threads > 0 ? r->n_threads : 1, g = r->n_gpus > 0 ? r->n_gpus : 1;
        r->ranks = t * g;
        r->nodes = 1;
    }
    if (s->log.n_runs == s->cap_runs) {
        s->cap_runs = s->cap_runs ? 2 * s->cap_runs : 4;
        s->log.runs = cs_xrealloc(s->log.runs, s->cap_runs, sizeof *s->log.runs);
    }
    s->log.runs[s->log.n_runs++] = *r;
    r->rows = NULL;
    r->n_rows = 0;
    s->pending_op[0] = '\0';
    cs__reset_cur(s, 0);
}

/* A header line starts a new run when the current one already has rows. */
static void cs__header(struct cs__nstate *s, int line)
{
    if (s->cur.n_rows > 0)
        cs__close_run(s);
    if (!s->open) {
        cs__reset_cur(s, line);
        s->open = true;
    }
}

/* Finds "X_perf" in a line (a word ending in _perf, after any directory). */
static bool cs__find_perf(const char *line, char *out, size_t n)
{
    const char *p = strstr(line, "_perf");
    while (p) {
        const char *e = p + 5;
        if (!(isalnum((unsigned char)*e) || *e == '_')) {
            const char *b = p;
            while (b > line && (isalnum((unsigned char)b[-1]) || b[-1] == '_'))
                b--;
            size_t len = (size_t)(e - b);
            if (len > 5 && len < n) {
                memcpy(out, b, len);
                out[len] = '\0';
                return true;
            }
        }
        p = strstr(p + 1, "_perf");
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

/* "#  Rank  0 Group  0 Pid  50781 on HOST device  0 [0x00] NVIDIA A100-SXM4-80GB" */
static void cs__rank_line(struct cs__nstate *s, const char *line)
{
    const char *on = strstr(line, " on ");
    const char *dev = on ? strstr(on + 4, " device ") : NULL;
    if (!on || !dev)
        return;
    s->rank_lines++;
    const char *h = on + 4;
    while (*h == ' ')
        h++;
    size_t hl = (size_t)(dev - h);
    while (hl > 0 && h[hl - 1] == ' ')
        hl--;
    bool seen = false;
    for (int i = 0; i < s->n_hosts; i++)
        if (strlen(s->hosts[i]) == hl && strncmp(s->hosts[i], h, hl) == 0)
            seen = true;
    if (!seen && s->n_hosts < CS__NCCL_MAX_HOSTS) {
        char *copy = cs_xmalloc(hl + 1);
        memcpy(copy, h, hl);
        copy[hl] = '\0';
        s->hosts = cs_xrealloc(s->hosts, (size_t)s->n_hosts + 1, sizeof *s->hosts);
        s->hosts[s->n_hosts++] = copy;
    }
    if (s->rank_lines == 1) {
        const char *m = strchr(dev, ']');
        if (m) {
            m++;
            while (*m == ' ')
                m++;
            snprintf(s->cur.gpu, sizeof s->cur.gpu, "%s", m);
            size_t l = strlen(s->cur.gpu);
            while (l > 0 && isspace((unsigned char)s->cur.gpu[l - 1]))
                s->cur.gpu[--l] = '\0';
        }
    }
}

static void cs__comment(struct cs__nstate *s, const char *line, int lineno)
{
    char perf[64];
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
            s->cur.n_threads = t;
            s->cur.n_gpus = g;
        }
        return;
    }
    if (strstr(line, " Rank ") && strstr(line, " Pid ")) {
        if (s->cur.n_rows > 0 || !s->open)
            cs__header(s, lineno);
        cs__rank_line(s, line);
        return;
    }
    if (s->cur.n_rows == 0 && cs__find_perf(line, perf, sizeof perf)) {
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
    char *end;
    errno = 0;
    double x = strtod(t, &end);
    if (end == t || *end || errno == ERANGE || !isfinite(x))
        return false;
    *v = x;
    return true;
}

static bool cs__wrong(const char *t, long *v)
{
    if (strcmp(t, "N/A") == 0) {
        *v = -1;
        return true;
    }
    double x;
    if (!cs__num(t, &x) || x < 0)
        return false;
    *v = (long)x;
    return true;
}

static void cs__row(struct cs__nstate *s, char *line, int lineno)
{
    char *f[16];
    int col[16];
    int n = cs__fields(line, f, col, 16);
    /* With a root column (nccl-tests >= 2.10): 5 + 4 [+ 4]; without: 4 + 4 [+ 4]. */
    int lead;
    if (n == 9 || n == 13)
        lead = 5;
    else if (n == 8 || n == 12)
        lead = 4;
    else {
        cs_diag_error(s->d, s->name, lineno, 1,
                      "expected an nccl-tests row (size count type redop [root] time algbw busbw #wrong [time algbw "
                      "busbw #wrong]), got %d fields",
                      n);
        s->failed = true;
        return;
    }
    struct cs_nccl_row r;
    memset(&r, 0, sizeof r);
    r.line = lineno;
    static const char *const what[] = {"time (us)", "algbw (GB/s)", "busbw (GB/s)", "#wrong"};
    if (!cs__num(f[0], &r.size_bytes) || r.size_bytes < 0 || r.size_bytes != floor(r.size_bytes)) {
        cs_diag_error(s->d, s->name, lineno, col[0], "size: expected a whole number of bytes, got \"%s\"", f[0]);
        s->failed = true;
        return;
    }
    if (!cs__num(f[1], &r.count) || r.count < 0) {
        cs_diag_error(s->d, s->name, lineno, col[1], "count: expected a number of elements, got \"%s\"", f[1]);
        s->failed = true;
        return;
    }
    for (int h = 0; h < 2; h++) {
        r.time_us[h] = r.algbw_gbps[h] = r.busbw_gbps[h] = NAN;
        r.wrong[h] = 0;
        if (h == 1 && n < lead + 8)
            break;
        for (int j = 0; j < 4; j++) {
            int i = lead + 4 * h + j;
            bool ok;
            double v = 0;
            if (j == 3)
                ok = cs__wrong(f[i], &r.wrong[h]);
            else
                ok = cs__num(f[i], &v) && v >= 0;
            if (!ok) {
                cs_diag_error(s->d, s->name, lineno, col[i], "%s %s: expected a non-negative number, got \"%s\"",
                              h ? "in-place" : "out-of-place", what[j], f[i]);
                s->failed = true;
                return;
            }
            if (j == 0)
                r.time_us[h] = v;
            else if (j == 1)
                r.algbw_gbps[h] = v;
            else if (j == 2)
                r.busbw_gbps[h] = v;
        }
    }
    if (r.size_bytes > 0 && !(r.time_us[0] > 0)) {
        cs_diag_error(s->d, s->name, lineno, col[lead], "out-of-place time: expected a positive time for %.0f bytes",
                      r.size_bytes);
        s->failed = true;
        return;
    }
    if (!s->open) {
        cs__reset_cur(s, lineno);
        s->open = true;
    }
    if (s->cur.n_rows == 0)
        snprintf(s->cur.dtype, sizeof s->cur.dtype, "%s", f[2]);
    if (s->cur.n_rows >= CS__NCCL_MAX_ROWS) {
        cs_diag_error(s->d, s->name, lineno, 1, "more than %d rows in one run", CS__NCCL_MAX_ROWS);
        s->failed = true;
        return;
    }
    if (s->cur.n_rows == s->cap_rows) {
        s->cap_rows = s->cap_rows ? 2 * s->cap_rows : 32;
        s->cur.rows = cs_xrealloc(s->cur.rows, s->cap_rows, sizeof *s->cur.rows);
    }
    s->cur.rows[s->cur.n_rows++] = r;
}

void cs_nccl_log_fini(struct cs_nccl_log *l)
{
    if (!l)
        return;
    for (size_t i = 0; i < l->n_runs; i++)
        free(l->runs[i].rows);
    free(l->runs);
    l->runs = NULL;
    l->n_runs = 0;
}

cs_status cs_nccl_parse_buffer(const char *name, const char *buf, size_t len, enum cs_coll_op op_hint,
                               cs_diags *d, struct cs_nccl_log *out)
{
    struct cs__nstate s;
    memset(&s, 0, sizeof s);
    s.name = name;
    s.d = d;
    s.hint = op_hint;
    s.algo = CS_COLL_AUTO;
    cs__reset_cur(&s, 0);
    if (memchr(buf, '\0', len)) {
        cs_diag_error(d, name, 1, 1, "expected nccl-tests text output, found a NUL byte (binary file?)");
        return CS_ECONFIG;
    }
    size_t pos = 0;
    int lineno = 0;
    char *line = NULL;
    size_t cap = 0;
    while (pos < len && !s.failed) {
        size_t e = pos;
        while (e < len && buf[e] != '\n')
            e++;
        size_t l = e - pos;
        if (l + 1 > cap) {
            cap = l + 1;
            line = cs_xrealloc(line, cap, 1);
        }
        memcpy(line, buf + pos, l);
        if (l > 0 && line[l - 1] == '\r')
            l--;
        line[l] = '\0';
        lineno++;
        pos = e + 1;
        const char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '#') {
            cs__comment(&s, line, lineno);
        } else if (isdigit((unsigned char)*p)) {
            cs__row(&s, line, lineno);
        } else {
            cs__find_algo(&s, line);
            char perf[64];
            if (s.cur.n_rows == 0 && cs__find_perf(line, perf, sizeof perf)) {
                snprintf(s.pending_op, sizeof s.pending_op, "%s", perf);
                s.pending_op_line = lineno;
            }
        }
        if (*p == '#')
            cs__find_algo(&s, line);
    }
    free(line);
    if (!s.failed)
        cs__close_run(&s);
    free(s.cur.rows);
    for (int i = 0; i < s.n_hosts; i++)
        free(s.hosts[i]);
    free(s.hosts);
    if (!s.failed && s.log.n_runs == 0) {
        cs_diag_error(d, name, lineno > 0 ? lineno : 1, 1,
                      "no nccl-tests result rows found (expected lines like \"  33554432  8388608  float  sum  -1  "
                      "650.2  51.61  96.76  0 ...\")");
        s.failed = true;
    }
    if (s.failed) {
        cs_nccl_log_fini(&s.log);
        return CS_ECONFIG;
    }
    *out = s.log;
    return CS_OK;
}

cs_status cs_nccl_parse_file(const char *path, enum cs_coll_op op_hint, cs_diags *d, struct cs_nccl_log *out)
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
    st = cs_nccl_parse_buffer(cs_path_display(path), buf, len, op_hint, d, out);
    free(buf);
    return st;
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
