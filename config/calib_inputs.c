/* calib_inputs.c: the GEMM CSV, fio JSON and measured-step CSV of
 * `clustersim calibrate` -> plain data (config layer; calib.h), and the
 * scenarios the measurements ran on, resolved through the normal loader. */
#define _POSIX_C_SOURCE 200809L /* getcwd */
#include "clustersim/base/csv.h"
#include "clustersim/base/numparse.h"
#include "clustersim/config/fileio.h"
#include "clustersim/config/calib_io.h"
#include "clustersim/config/config.h"
#include "clustersim/base/units.h"
#include "clustersim/base/strbuf.h"
#include "clustersim/base/xmalloc.h"
#include "override.h"
#include "yamltree.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CS__CSV_MAX_BYTES ((size_t)16 * 1024 * 1024)
#define CS__CSV_MAX_COLS 64
#define CS__CSV_MAX_ROWS 1000000

/* ---- a small CSV reader: fields split at commas, optional "quotes" ---- */

struct cs__csv_line {
    int n;
    char *f[CS__CSV_MAX_COLS];
    int col[CS__CSV_MAX_COLS];
};

/* Splits `line` in place (base/csv.h: unquoted, unescaped, trimmed).
 * Returns false (with *bad_col) for an unterminated quote or too many
 * fields. */
static bool cs__csv_split(char *line, struct cs__csv_line *out, int *bad_col)
{
    int n = cs_csv_split_inplace(line, out->f, out->col, CS__CSV_MAX_COLS, bad_col);
    if (n < 0)
        return false;
    out->n = n;
    return true;
}

/* Iterates over the lines of buf: returns the next line (a heap copy the
 * caller frees), without the newline and a trailing CR; NULL at the end. */
static char *cs__next_line(const char *buf, size_t len, size_t *pos, int *lineno)
{
    if (*pos >= len)
        return NULL;
    size_t e = *pos;
    while (e < len && buf[e] != '\n')
        e++;
    size_t l = e - *pos;
    char *s = cs_xmalloc(l + 1);
    memcpy(s, buf + *pos, l);
    if (l > 0 && s[l - 1] == '\r')
        l--;
    s[l] = '\0';
    *pos = e + 1;
    (*lineno)++;
    return s;
}

static bool cs__blank_or_comment(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return *s == '\0' || *s == '#';
}

static bool cs__parse_num(const char *t, double *v)
{
    return cs_num_parse_double(t, v);
}

static bool cs__check_binary(const char *name, const char *buf, size_t len, cs_diags *d)
{
    if (memchr(buf, '\0', len)) {
        cs_diag_error(d, name, 1, 1, "expected a text file, found a NUL byte (binary file?)");
        return false;
    }
    return true;
}

static cs_status cs__load(const char *path, cs_diags *d, char **buf, size_t *len)
{
    char why[256];
    cs_status st = cs_file_slurp_why(path, CS__CSV_MAX_BYTES, buf, len, why, sizeof why);
    if (st != CS_OK) {
        cs_diag_error(d, cs_path_display(path), 0, 0, "%s%s",
                      st == CS_ERANGE ? "file larger than 16 MiB" : "cannot read the file: ",
                      st == CS_ERANGE ? "" : why);
        return st == CS_ERANGE ? CS_ECONFIG : CS_EIO;
    }
    return CS_OK;
}

/* ---------------------------------------------------------------- GEMM CSV */


enum { G_M, G_N, G_K, G_DTYPE, G_SECONDS, G_TFLOPS, G_BATCH, G_NAME, G_NCOLS };
static const char *const cs__gemm_cols[] = {"m", "n", "k", "dtype", "seconds", "tflops", "batch", "name"};

cs_status cs_gemm_csv_parse(const char *name, const char *buf, size_t len, cs_diags *d,
                            struct cs_gemm_row **rows, size_t *n)
{
    if (!cs__check_binary(name, buf, len, d))
        return CS_ECONFIG;
    size_t pos = 0, nr = 0, cap = 0;
    int lineno = 0, idx[G_NCOLS];
    for (int i = 0; i < G_NCOLS; i++)
        idx[i] = -1;
    bool have_header = false, failed = false;
    struct cs_gemm_row *out = NULL;
    char *line;
    size_t errors0 = cs_diags_errors(d);
    while ((line = cs__next_line(buf, len, &pos, &lineno)) != NULL) {
        struct cs__csv_line L;
        int bad = 0;
        if (cs__blank_or_comment(line)) {
            free(line);
            continue;
        }
        if (!cs__csv_split(line, &L, &bad)) {
            cs_diag_error(d, name, lineno, bad, "malformed CSV (unterminated quote or more than %d columns)",
                          CS__CSV_MAX_COLS);
            failed = true;
            free(line);
            break;
        }
        if (!have_header) {
            have_header = true;
            for (int c = 0; c < L.n; c++) {
                int found = -1;
                const char *h = L.f[c];
                for (int j = 0; j < G_NCOLS; j++)
                    if (strcmp(h, cs__gemm_cols[j]) == 0)
                        found = j;
                if (strcmp(h, "time_s") == 0)
                    found = G_SECONDS;
                if (found < 0) {
                    cs_diag_error(d, name, lineno, L.col[c],
                                  "unknown column \"%s\" (expected m, n, k, dtype, seconds or tflops, batch, name)", h);
                    failed = true;
                } else if (idx[found] >= 0) {
                    cs_diag_error(d, name, lineno, L.col[c], "column \"%s\" given twice", h);
                    failed = true;
                } else {
                    idx[found] = c;
                }
            }
            if (!failed && (idx[G_M] < 0 || idx[G_N] < 0 || idx[G_K] < 0)) {
                cs_diag_error(d, name, lineno, 1, "header: expected columns m, n and k");
                failed = true;
            }
            if (!failed && (idx[G_SECONDS] < 0) == (idx[G_TFLOPS] < 0)) {
                cs_diag_error(d, name, lineno, 1, "header: expected exactly one of the columns seconds and tflops");
                failed = true;
            }
            free(line);
            if (failed)
                break;
            continue;
        }
        struct cs_gemm_row r;
        memset(&r, 0, sizeof r);
        r.line = lineno;
        r.batch = 1;
        r.dtype = CS_PREC_BF16;
        bool ok = true;
        for (int j = 0; j < G_NCOLS && ok; j++) {
            int c = idx[j];
            if (c < 0)
                continue;
            if (c >= L.n) {
                cs_diag_error(d, name, lineno, 1, "%s: missing (the row has %d fields, the header %s)",
                              cs__gemm_cols[j], L.n, "more");
                ok = false;
                break;
            }
            const char *t = L.f[c];
            double v = 0;
            switch (j) {
            case G_M: case G_N: case G_K: case G_BATCH:
                if (!cs__parse_num(t, &v) || v < 1 || v > 1e9 || v != floor(v)) {
                    cs_diag_error(d, name, lineno, L.col[c], "%s: expected a whole number from 1 to 1e9, got \"%s\"",
                                  cs__gemm_cols[j], t);
                    ok = false;
                }
                if (j == G_M) r.m = v;
                else if (j == G_N) r.n = v;
                else if (j == G_K) r.k = v;
                else r.batch = v;
                break;
            case G_DTYPE: {
                int p = -1;
                for (int q = 0; q < CS_PREC_COUNT; q++)
                    if (strcmp(t, cs_precision_names[q]) == 0)
                        p = q;
                if (p < 0) {
                    cs_diag_error(d, name, lineno, L.col[c],
                                  "dtype: expected fp32, tf32, bf16, fp16, fp8, mxfp8 or nvfp4, "
                                  "got \"%s\"",
                                  t);
                    ok = false;
                } else {
                    r.dtype = (enum cs_precision)p;
                }
                break;
            }
            case G_SECONDS:
                if (!cs__parse_num(t, &v) || !(v > 0) || v > 1e6) {
                    cs_diag_error(d, name, lineno, L.col[c], "seconds: expected a positive time in seconds, got \"%s\"",
                                  t);
                    ok = false;
                }
                r.seconds = v;
                break;
            case G_TFLOPS:
                if (!cs__parse_num(t, &v) || !(v > 0) || v > 1e6) {
                    cs_diag_error(d, name, lineno, L.col[c], "tflops: expected a positive TFLOP/s, got \"%s\"", t);
                    ok = false;
                }
                r.tflops = v;
                break;
            case G_NAME:
                snprintf(r.name, sizeof r.name, "%s", t);
                break;
            default:
                break;
            }
        }
        free(line);
        if (!ok) {
            failed = true;
            if (cs_diags_errors(d) - errors0 >= 20)
                break;
            continue;
        }
        double flops = 2.0 * r.m * r.n * r.k * r.batch;
        if (idx[G_TFLOPS] >= 0)
            r.seconds = flops / (r.tflops * 1e12);
        else
            r.tflops = flops / r.seconds / 1e12;
        if (nr >= CS__CSV_MAX_ROWS) {
            cs_diag_error(d, name, lineno, 1, "more than %d rows", CS__CSV_MAX_ROWS);
            failed = true;
            break;
        }
        if (nr == cap) {
            cap = cap ? 2 * cap : 16;
            out = cs_xrealloc(out, cap, sizeof *out);
        }
        out[nr++] = r;
    }
    if (!failed && !have_header) {
        cs_diag_error(d, name, 1, 1, "empty GEMM CSV: expected a header like \"m,n,k,dtype,seconds\"");
        failed = true;
    }
    if (!failed && nr == 0) {
        cs_diag_error(d, name, lineno, 1, "no GEMM rows after the header");
        failed = true;
    }
    if (failed) {
        free(out);
        return CS_ECONFIG;
    }
    *rows = out;
    *n = nr;
    return CS_OK;
}

cs_status cs_gemm_csv_load(const char *path, cs_diags *d, struct cs_gemm_row **rows, size_t *n)
{
    char *buf;
    size_t len;
    cs_status st = cs__load(path, d, &buf, &len);
    if (st != CS_OK)
        return st;
    st = cs_gemm_csv_parse(path, buf, len, d, rows, n);
    free(buf);
    return st;
}

/* ---------------------------------------------------------------- fio JSON */

/* Line of the i-th (0-based) occurrence of "\"jobname\"" in buf[start,
 * len), or 0. Bounded by len: the buffer has no terminator of its own (the
 * fuzzer found strstr reading past it). */
static int cs__job_line(const char *buf, size_t len, size_t start, int i)
{
    static const char key[] = "\"jobname\"";
    const size_t kl = sizeof key - 1;
    int k = 0;
    for (size_t p = start; p + kl <= len; p++) {
        if (buf[p] != '"' || memcmp(buf + p, key, kl) != 0)
            continue;
        if (k++ == i) {
            int l, c;
            cs_text_line_col(buf, p, &l, &c);
            return l;
        }
    }
    return 0;
}

/* A job option: a number with an optional K/M/G (fio: binary by default). */
static double cs__fio_size(const char *s)
{
    if (!s)
        return NAN;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || errno)
        return NAN;
    double m = 1;
    switch (*end) {
    case 'k': case 'K': m = 1024.0; end++; break;
    case 'm': case 'M': m = 1048576.0; end++; break;
    case 'g': case 'G': m = 1073741824.0; end++; break;
    case '\0': break;
    default: return NAN;
    }
    if (*end == 'i')
        end++;
    if (*end == 'B' || *end == 'b')
        end++;
    return *end ? NAN : v * m;
}

static const char *cs__opt(const cJSON *job, const cJSON *global, const char *key)
{
    const cJSON *o = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(job, "job options"), key);
    if (!cJSON_IsString(o))
        o = cJSON_GetObjectItemCaseSensitive(global, key);
    return cJSON_IsString(o) ? o->valuestring : NULL;
}

cs_status cs_fio_json_parse(const char *name, const char *buf, size_t len, cs_diags *d,
                            struct cs_fio_job **jobs, size_t *n)
{
    if (!cs__check_binary(name, buf, len, d))
        return CS_ECONFIG;
    /* fio may print notes before the JSON document. */
    const char *start = memchr(buf, '{', len);
    if (!start) {
        cs_diag_error(d, name, 1, 1, "expected fio JSON output (fio --output-format=json), found no '{'");
        return CS_ECONFIG;
    }
    size_t off = (size_t)(start - buf);
    const char *endp = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(start, len - off, &endp, 0);
    if (!root) {
        const char *e = cJSON_GetErrorPtr();
        int l = 1, c = 1;
        if (e && e >= start && e <= buf + len)
            cs_text_line_col(buf, (size_t)(e - buf), &l, &c);
        cs_diag_error(d, name, l, c, "malformed JSON (expected fio --output-format=json output)");
        return CS_ECONFIG;
    }
    const cJSON *arr = cJSON_GetObjectItemCaseSensitive(root, "jobs");
    const cJSON *global = cJSON_GetObjectItemCaseSensitive(root, "global options");
    int rl, rc;
    cs_text_line_col(buf, off, &rl, &rc);
    if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) == 0) {
        cs_diag_error(d, name, rl, rc, "jobs: expected a non-empty array of fio jobs");
        cJSON_Delete(root);
        return CS_ECONFIG;
    }
    size_t nj = 0, cap = 0;
    struct cs_fio_job *out = NULL;
    bool failed = false;
    int i = 0;
    const cJSON *job;
    cJSON_ArrayForEach(job, arr)
    {
        int jl = cs__job_line(buf, len, off, i);
        const cJSON *jn = cJSON_GetObjectItemCaseSensitive(job, "jobname");
        for (int w = 0; w < 2; w++) {
            const char *dir = w ? "write" : "read";
            const cJSON *sec = cJSON_GetObjectItemCaseSensitive(job, dir);
            if (!sec)
                continue;
            if (!cJSON_IsObject(sec)) {
                cs_diag_error(d, name, jl, 0, "jobs[%d].%s: expected an object", i, dir);
                failed = true;
                continue;
            }
            const cJSON *iob = cJSON_GetObjectItemCaseSensitive(sec, "io_bytes");
            const cJSON *bw = cJSON_GetObjectItemCaseSensitive(sec, "bw_bytes");
            const cJSON *bwk = cJSON_GetObjectItemCaseSensitive(sec, "bw"); /* KiB/s in older fio */
            const cJSON *iops = cJSON_GetObjectItemCaseSensitive(sec, "iops");
            if (!cJSON_IsNumber(iob) || iob->valuedouble < 0) {
                cs_diag_error(d, name, jl, 0, "jobs[%d].%s.io_bytes: expected a non-negative number", i, dir);
                failed = true;
                continue;
            }
            if (iob->valuedouble == 0)
                continue; /* this direction moved nothing */
            double b = cJSON_IsNumber(bw) ? bw->valuedouble : cJSON_IsNumber(bwk) ? bwk->valuedouble * 1024.0 : NAN;
            if (!(b > 0) || !isfinite(b)) {
                cs_diag_error(d, name, jl, 0, "jobs[%d].%s.bw_bytes: expected a positive bandwidth in bytes/s", i,
                              dir);
                failed = true;
                continue;
            }
            struct cs_fio_job f;
            memset(&f, 0, sizeof f);
            snprintf(f.jobname, sizeof f.jobname, "%s", cJSON_IsString(jn) ? jn->valuestring : "?");
            f.write = w == 1;
            f.bw_bytes_per_s = b;
            f.io_bytes = iob->valuedouble;
            f.iops = cJSON_IsNumber(iops) ? iops->valuedouble : NAN;
            const cJSON *clat = cJSON_GetObjectItemCaseSensitive(sec, "clat_ns");
            const cJSON *mean = cJSON_GetObjectItemCaseSensitive(clat, "mean");
            f.clat_mean_s = cJSON_IsNumber(mean) ? mean->valuedouble * 1e-9 : NAN;
            const char *bs = cs__opt(job, global, w ? "bs" : "bs");
            const char *bsd = cs__opt(job, global, w ? "bs_write" : "bs_read");
            f.bs_bytes = cs__fio_size(bsd ? bsd : bs);
            if (bs && isnan(f.bs_bytes)) {
                cs_diag_error(d, name, jl, 0, "jobs[%d] job options.bs: expected a block size like 4k or 1M, got \"%s\"",
                              i, bs);
                failed = true;
                continue;
            }
            const char *qd = cs__opt(job, global, "iodepth");
            f.iodepth = qd ? cs__fio_size(qd) : NAN;
            if (nj == cap) {
                cap = cap ? 2 * cap : 8;
                out = cs_xrealloc(out, cap, sizeof *out);
            }
            out[nj++] = f;
        }
        i++;
    }
    cJSON_Delete(root);
    if (!failed && nj == 0) {
        cs_diag_error(d, name, rl, rc, "no fio job read or wrote any data (every io_bytes is 0)");
        failed = true;
    }
    if (failed) {
        free(out);
        return CS_ECONFIG;
    }
    *jobs = out;
    *n = nj;
    return CS_OK;
}

cs_status cs_fio_json_load(const char *path, cs_diags *d, struct cs_fio_job **jobs, size_t *n)
{
    char *buf;
    size_t len;
    cs_status st = cs__load(path, d, &buf, &len);
    if (st != CS_OK)
        return st;
    st = cs_fio_json_parse(path, buf, len, d, jobs, n);
    free(buf);
    return st;
}

/* --------------------------------------------------------------- steps CSV */

void cs_steps_rows_free(struct cs_steps_row *rows, size_t n)
{
    if (!rows)
        return;
    for (size_t i = 0; i < n; i++) {
        free(rows[i].scenario);
        for (int j = 0; j < rows[i].n_over; j++) {
            free(rows[i].keys[j]);
            free(rows[i].values[j]);
        }
    }
    free(rows);
}

/* A key path: dot-separated identifiers. */
static bool cs__key_ok(const char *k)
{
    if (!*k || *k == '.')
        return false;
    for (const char *p = k; *p; p++) {
        if (*p == '.' && (p[1] == '.' || p[1] == '\0'))
            return false;
        if (!(isalnum((unsigned char)*p) || *p == '_' || *p == '.' || *p == '-'))
            return false;
    }
    return true;
}

/* A value written into YAML as a plain scalar: letters, digits and . _ - + /
 * % $ and inner spaces; anything else could change the document's shape. */
static bool cs__value_ok(const char *v)
{
    if (!*v)
        return false;
    for (const char *p = v; *p; p++)
        if (!(isalnum((unsigned char)*p) || strchr("._-+/%$ ", *p)))
            return false;
    return true;
}

cs_status cs_steps_csv_parse(const char *name, const char *buf, size_t len, cs_diags *d,
                             struct cs_steps_row **rows, size_t *n)
{
    if (!cs__check_binary(name, buf, len, d))
        return CS_ECONFIG;
    size_t pos = 0, nr = 0, cap = 0;
    int lineno = 0, ncols = 0, c_scen = -1, c_meas = -1, c_label = -1;
    char *hdr[CS__CSV_MAX_COLS];
    bool have_header = false, failed = false;
    struct cs_steps_row *out = NULL;
    char *line;
    while ((line = cs__next_line(buf, len, &pos, &lineno)) != NULL) {
        struct cs__csv_line L;
        int bad = 0;
        if (cs__blank_or_comment(line)) {
            free(line);
            continue;
        }
        if (!cs__csv_split(line, &L, &bad)) {
            cs_diag_error(d, name, lineno, bad, "malformed CSV (unterminated quote or more than %d columns)",
                          CS__CSV_MAX_COLS);
            failed = true;
            free(line);
            break;
        }
        if (!have_header) {
            have_header = true;
            ncols = L.n;
            int n_over = 0;
            for (int c = 0; c < L.n; c++) {
                hdr[c] = cs_xstrdup(L.f[c]);
                if (strcmp(L.f[c], "scenario") == 0)
                    c_scen = c;
                else if (strcmp(L.f[c], "step_time_s") == 0 || strcmp(L.f[c], "measured_s") == 0)
                    c_meas = c;
                else if (strcmp(L.f[c], "label") == 0)
                    c_label = c;
                else if (!cs__key_ok(L.f[c]) || !strchr(L.f[c], '.')) {
                    cs_diag_error(d, name, lineno, L.col[c],
                                  "column \"%s\": expected scenario, step_time_s, label or a key path like "
                                  "workload.parallelism.tp",
                                  L.f[c]);
                    failed = true;
                } else if (++n_over > CS_STEPS_MAX_OVERRIDES) {
                    cs_diag_error(d, name, lineno, L.col[c], "more than %d override columns", CS_STEPS_MAX_OVERRIDES);
                    failed = true;
                }
            }
            if (!failed && c_meas < 0) {
                cs_diag_error(d, name, lineno, 1, "header: expected a column step_time_s (measured seconds per step)");
                failed = true;
            }
            free(line);
            if (failed)
                break;
            continue;
        }
        if (L.n != ncols) {
            cs_diag_error(d, name, lineno, 1, "expected %d fields as the header has, got %d", ncols, L.n);
            failed = true;
            free(line);
            continue;
        }
        struct cs_steps_row r;
        memset(&r, 0, sizeof r);
        r.line = lineno;
        bool ok = true;
        double v = NAN; /* stays NAN when the field does not parse */
        if (!cs__parse_num(L.f[c_meas], &v) || !(v > 0) || v > 1e7) {
            cs_diag_error(d, name, lineno, L.col[c_meas], "step_time_s: expected a positive number of seconds, got \"%s\"",
                          L.f[c_meas]);
            ok = false;
        }
        r.measured_s = v;
        if (c_label >= 0)
            snprintf(r.label, sizeof r.label, "%s", L.f[c_label]);
        else
            snprintf(r.label, sizeof r.label, "%s:%d", name, lineno);
        if (c_scen >= 0 && L.f[c_scen][0])
            r.scenario = cs_xstrdup(L.f[c_scen]);
        for (int c = 0; c < L.n && ok; c++) {
            if (c == c_scen || c == c_meas || c == c_label || !L.f[c][0])
                continue;
            if (!cs__value_ok(L.f[c])) {
                cs_diag_error(d, name, lineno, L.col[c],
                              "%s: expected a plain value (letters, digits, . _ - + / %% $), got \"%s\"", hdr[c],
                              L.f[c]);
                ok = false;
                break;
            }
            r.keys[r.n_over] = cs_xstrdup(hdr[c]);
            r.values[r.n_over] = cs_xstrdup(L.f[c]);
            r.n_over++;
        }
        free(line);
        if (!ok) {
            free(r.scenario);
            for (int j = 0; j < r.n_over; j++) {
                free(r.keys[j]);
                free(r.values[j]);
            }
            failed = true;
            continue;
        }
        if (nr == cap) {
            cap = cap ? 2 * cap : 8;
            out = cs_xrealloc(out, cap, sizeof *out);
        }
        out[nr++] = r;
    }
    if (have_header)
        for (int c = 0; c < ncols; c++)
            free(hdr[c]);
    if (!failed && !have_header) {
        cs_diag_error(d, name, 1, 1, "empty steps CSV: expected a header like \"scenario,step_time_s,cluster.nodes\"");
        failed = true;
    }
    if (!failed && nr == 0) {
        cs_diag_error(d, name, lineno, 1, "no measured steps after the header");
        failed = true;
    }
    if (failed) {
        cs_steps_rows_free(out, nr);
        return CS_ECONFIG;
    }
    *rows = out;
    *n = nr;
    return CS_OK;
}

cs_status cs_steps_csv_load(const char *path, cs_diags *d, struct cs_steps_row **rows, size_t *n)
{
    char *buf;
    size_t len;
    cs_status st = cs__load(path, d, &buf, &len);
    if (st != CS_OK)
        return st;
    st = cs_steps_csv_parse(path, buf, len, d, rows, n);
    free(buf);
    return st;
}

/* ------------------------------------------- scenarios from measurements */

/* A growing string. */
struct cs__sb { char *s; size_t n, cap; };
static void cs__sb_add(struct cs__sb *b, const char *t)
{
    size_t l = strlen(t);
    if (b->n + l + 1 > b->cap) {
        b->cap = (b->n + l + 1) * 2;
        b->s = cs_xrealloc(b->s, b->cap, 1);
    }
    memcpy(b->s + b->n, t, l + 1);
    b->n += l;
}
/* A YAML double-quoted string. */
static void cs__sb_quoted(struct cs__sb *b, const char *t)
{
    cs__sb_add(b, "\"");
    char one[8];
    for (const unsigned char *p = (const unsigned char *)t; *p; p++) {
        if (*p == '"' || *p == '\\')
            snprintf(one, sizeof one, "\\%c", *p);
        else if (*p < 0x20)
            snprintf(one, sizeof one, "\\x%02x", *p);
        else
            snprintf(one, sizeof one, "%c", *p);
        cs__sb_add(b, one);
    }
    cs__sb_add(b, "\"");
}

/* Writes the overrides as nested YAML mappings. Keys sharing a prefix must
 * land in the same mapping (YAML refuses duplicate keys), so the keys are
 * emitted grouped by their prefixes, recursively. */
static void cs__emit(struct cs__sb *b, const char *const *keys, const char *const *vals, int n, int depth)
{
    bool *done = cs_xcalloc((size_t)n + 1, sizeof *done);
    for (int i = 0; i < n; i++) {
        if (done[i])
            continue;
        const char *dot = strchr(keys[i], '.');
        size_t hl = dot ? (size_t)(dot - keys[i]) : strlen(keys[i]);
        for (int s = 0; s < depth; s++)
            cs__sb_add(b, "  ");
        char head[256];
        snprintf(head, sizeof head, "%.*s:", (int)(hl < 200 ? hl : 200), keys[i]);
        cs__sb_add(b, head);
        if (!dot) {
            cs__sb_add(b, " ");
            cs__sb_add(b, vals[i]);
            cs__sb_add(b, "\n");
            done[i] = true;
            continue;
        }
        cs__sb_add(b, "\n");
        const char **sk = cs_xmalloc((size_t)n * sizeof *sk);
        const char **sv = cs_xmalloc((size_t)n * sizeof *sv);
        int m = 0;
        for (int j = i; j < n; j++) {
            const char *dj = strchr(keys[j], '.');
            if (!done[j] && dj && (size_t)(dj - keys[j]) == hl && strncmp(keys[j], keys[i], hl) == 0) {
                sk[m] = dj + 1;
                sv[m] = vals[j];
                m++;
                done[j] = true;
            }
        }
        cs__emit(b, sk, sv, m, depth + 1);
        free(sk);
        free(sv);
    }
    free(done);
}

/* `top`: the file whose directory confines the include (cs_ypath_check):
 * the base scenario itself when the user named it (--scenario), the CSV
 * when the include comes from the CSV's scenario column. */
static cs_status cs__load_with(const char *name, const char *top, const char *include, const char *const *keys,
                               const char *const *vals, int n,
                               const cs_catalog *cat, cs_diags *d, struct cs_scenario *out)
{
    struct cs__sb b = {0};
    cs__sb_add(&b, "");
    if (include) {
        cs__sb_add(&b, "include: ");
        cs__sb_quoted(&b, include);
        cs__sb_add(&b, "\n");
    }
    cs__emit(&b, keys, vals, n, 0);
    cs_ydoc *doc = NULL;
    cs_status st = cs_ydoc_load_buffer_top(name, top, b.s, b.n, d, &doc);
    free(b.s);
    if (st != CS_OK)
        return st;
    st = cs_cfg__bind_root_top(cs_ydoc_root(doc), name, top ? top : name, cat, d, out, NULL);
    cs_ydoc_destroy(doc);
    return st;
}

cs_status cs_steps_row_scenario(const struct cs_steps_row *row, const char *csv_path, const char *base,
                                const cs_catalog *cat, cs_diags *d, struct cs_scenario *out)
{
    if (!row->scenario && !base) {
        cs_diag_error(d, csv_path, row->line, 1,
                      "no scenario for this measured step: add a scenario column or give a base scenario "
                      "(--scenario)");
        return CS_ECONFIG;
    }
    /* The buffer is named after the CSV line, so that diagnostics of an
     * override point at it; its includes resolve against the CSV's
     * directory, where a scenario column's paths are relative already. A
     * relative base path (relative to the working directory) is made
     * absolute. */
    char *inc;
    if (row->scenario) {
        inc = cs_xstrdup(row->scenario);
    } else if (base[0] == '/' || !strchr(csv_path, '/')) {
        inc = cs_xstrdup(base);
    } else {
        char cwd[4096];
        if (!getcwd(cwd, sizeof cwd)) {
            cs_diag_error(d, csv_path, row->line, 1, "cannot resolve the base scenario path %s", base);
            return CS_EIO;
        }
        inc = cs_xmalloc(strlen(cwd) + strlen(base) + 2);
        sprintf(inc, "%s/%s", cwd, base);
    }
    char name[600];
    snprintf(name, sizeof name, "%s#line%d", csv_path, row->line);
    cs_status st = cs__load_with(name, row->scenario ? csv_path : inc, inc, (const char *const *)row->keys,
                                 (const char *const *)row->values, row->n_over, cat, d, out);
    free(inc);
    return st;
}

cs_status cs_nccl_run_scenario(const struct cs_nccl_run *run, const char *base, const cs_catalog *cat,
                               cs_diags *d, struct cs_scenario *out)
{
    char nodes[32], gpn[32];
    int nn = run->nodes > 0 ? run->nodes : 1;
    if (run->ranks % nn != 0) {
        cs_diag_error(d, run->file, run->line, 1, "%d ranks on %d hosts: not the same number per host", run->ranks,
                      nn);
        return CS_ECONFIG;
    }
    snprintf(nodes, sizeof nodes, "%d", nn);
    snprintf(gpn, sizeof gpn, "%d", run->ranks / nn);
    const char *keys[4] = {"cluster.nodes", "cluster.gpus_per_node", "schema_version", "cluster.gpu"};
    const char *vals[4] = {nodes, gpn, "1", NULL};
    int n = 2;
    if (!base) {
        const char *g = cs_calib_gpu_catalog_name(run->gpu);
        if (!g) {
            cs_diag_error(d, run->file, run->line, 1,
                          "unknown GPU \"%s\" in the log's device list: give a base scenario (--scenario) naming "
                          "the cluster",
                          run->gpu[0] ? run->gpu : "(none)");
            return CS_ECONFIG;
        }
        vals[3] = g;
        /* Reorder: schema_version first for the top level. */
        const char *k2[4] = {keys[2], keys[3], keys[0], keys[1]};
        const char *v2[4] = {vals[2], vals[3], vals[0], vals[1]};
        char name[300];
        snprintf(name, sizeof name, "%s#run-line%d", run->file, run->line);
        return cs__load_with(name, NULL, NULL, k2, v2, 4, cat, d, out);
    }
    /* The base's workload and run-level sections are dropped: they need not
     * be valid on the measured cluster's size. */
    const char *k3[5] = {keys[0], keys[1], "workload", "run", "checkpoint"};
    const char *v3[5] = {vals[0], vals[1], "~", "~", "~"};
    (void)n;
    return cs__load_with("calibrate-base", base, base, k3, v3, 5, cat, d, out);
}
