/* trace.c: job-trace importers (config layer): the native CSV of DESIGN.md
 * and the published GPU-cluster traces, streamed line by line into a
 * struct cs_trace (include/clustersim/config/trace.h). Each CSV format is a table
 * of header names mapped to job fields plus a row function that applies the
 * trace's own rules (what "never ran" means, units of GPU shares); the
 * mapping of every format is documented in docs/replay.md. */
#include "clustersim/base/csv.h"
#include "clustersim/base/numparse.h"
#include "clustersim/config/trace.h"
#include "clustersim/config/fileio.h"

#include "clustersim/base/xmalloc.h"

#include <cjson/cJSON.h>

#include <errno.h>
#include <stdarg.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))
#define CS__MAX_FIELDS 64
#define CS__MAX_LINE ((size_t)1 << 20)  /* longest accepted line: 1 MiB */
/* Largest |submission time| (relative to the trace's origin), run time and
 * their sum accepted: 1e9 s, 31.7 years, against the +-292 years of the
 * simulator's nanosecond clock (cs_time, sim.h); the scheduler shifts
 * submissions by the earliest one and adds run times, so the worst sum it
 * forms, 3e9 s, stays a factor 3 inside that clock. The longest published
 * trace (Helios, SC'21) spans six months. */
#define CS__MAX_TIME_S 1e9

/* ------------------------------------------------------------------------ */
/* Names.                                                                    */

cs_status cs_trace_format_parse(const char *s, enum cs_trace_format *out)
{
    if (!s)
        return CS_EINVAL;
    for (int i = 0; i < CS_TRACE_FORMAT_COUNT; i++)
        if (strcmp(s, cs_trace_format_name((enum cs_trace_format)i)) == 0) {
            *out = (enum cs_trace_format)i;
            return CS_OK;
        }
    return CS_EINVAL;
}

/* ------------------------------------------------------------------------ */
/* Options.                                                                  */

void cs_trace_options_default(struct cs_trace_options *o)
{
    o->format = CS_TRACE_AUTO;
    o->from_s = -INFINITY;
    o->to_s = NAN;
    o->limit = 0;
}

/* ------------------------------------------------------------------------ */
/* Date and time.                                                            */

/* Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant,
 * "chrono-Compatible Low-Level Date Algorithms", days_from_civil). */
static long cs__days_from_civil(long y, long m, long d)
{
    y -= m <= 2;
    long era = (y >= 0 ? y : y - 399) / 400;
    long yoe = y - era * 400;
    long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

static int cs__digits(const char *s, size_t len, size_t *pos, int n, long *out)
{
    long v = 0;
    for (int i = 0; i < n; i++) {
        if (*pos >= len || s[*pos] < '0' || s[*pos] > '9')
            return 0;
        v = v * 10 + (s[(*pos)++] - '0');
    }
    *out = v;
    return 1;
}

cs_status cs_trace_parse_datetime(const char *s, size_t len, double *out)
{
    size_t p = 0;
    long y, mo, d, h, mi, se;
    if (!cs__digits(s, len, &p, 4, &y) || p >= len || s[p++] != '-' ||
        !cs__digits(s, len, &p, 2, &mo) || p >= len || s[p++] != '-' ||
        !cs__digits(s, len, &p, 2, &d) || p >= len || (s[p] != ' ' && s[p] != 'T'))
        return CS_EINVAL;
    p++;
    if (!cs__digits(s, len, &p, 2, &h) || p >= len || s[p++] != ':' ||
        !cs__digits(s, len, &p, 2, &mi) || p >= len || s[p++] != ':' ||
        !cs__digits(s, len, &p, 2, &se))
        return CS_EINVAL;
    if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || se > 60)
        return CS_EINVAL;
    double frac = 0;
    if (p < len && s[p] == '.') {  /* fractional seconds */
        double scale = 0.1;
        for (p++; p < len && s[p] >= '0' && s[p] <= '9'; p++, scale /= 10)
            frac += (s[p] - '0') * scale;
    }
    long off = 0;
    if (p < len && (s[p] == '+' || s[p] == '-')) {
        int sign = s[p++] == '-' ? -1 : 1;
        long oh, om;
        if (!cs__digits(s, len, &p, 2, &oh))
            return CS_EINVAL;
        if (p < len && s[p] == ':')
            p++;
        if (!cs__digits(s, len, &p, 2, &om))
            return CS_EINVAL;
        off = sign * (oh * 3600 + om * 60);
    } else if (p < len && s[p] == 'Z') {
        p++;
    }
    if (p != len)
        return CS_EINVAL;
    *out = (double)(cs__days_from_civil(y, mo, d) * 86400L + h * 3600 + mi * 60 + se - off) + frac;
    return CS_OK;
}

/* ------------------------------------------------------------------------ */
/* Line reader: a growing buffer over a FILE or a memory block.             */

struct cs__reader {
    cs_infile *fp;
    const char *mem;
    size_t mem_len, mem_pos;
    char *buf;
    size_t cap, start, end;
    int eof;
    long line;
};

/* Next line without its '\n' (and a trailing '\r'). Returns 1 with the line,
 * 0 at end of input, -1 for a line over CS__MAX_LINE or a read error.
 * *had_nl tells whether the line ended with '\n'. */
static int cs__next_line(struct cs__reader *r, const char **line, size_t *len, int *had_nl)
{
    if (r->mem) {
        if (r->mem_pos >= r->mem_len)
            return 0;
        const char *s = r->mem + r->mem_pos;
        const char *nl = memchr(s, '\n', r->mem_len - r->mem_pos);
        size_t n = nl ? (size_t)(nl - s) : r->mem_len - r->mem_pos;
        r->mem_pos += n + (nl != NULL);
        *had_nl = nl != NULL;
        if (n > 0 && s[n - 1] == '\r')
            n--;
        *line = s;
        *len = n;
        r->line++;
        return 1;
    }
    for (;;) {
        char *s = r->buf ? r->buf + r->start : NULL;
        char *nl = r->end > r->start ? memchr(s, '\n', r->end - r->start) : NULL;
        if (nl || (r->eof && r->end > r->start)) {
            size_t n = nl ? (size_t)(nl - s) : r->end - r->start;
            r->start += n + (nl != NULL);
            *had_nl = nl != NULL;
            if (n > 0 && s[n - 1] == '\r')
                n--;
            *line = s;
            *len = n;
            r->line++;
            return 1;
        }
        if (r->eof)
            return 0;
        if (r->start > 0) {  /* slide the partial line to the front */
            memmove(r->buf, r->buf + r->start, r->end - r->start);
            r->end -= r->start;
            r->start = 0;
        }
        if (r->end == r->cap) {
            if (r->cap >= CS__MAX_LINE)
                return -1;
            r->cap = r->cap ? 2 * r->cap : 65536;
            r->buf = cs_xrealloc(r->buf, r->cap, 1);
        }
        size_t got = 0;
        char why[256];
        if (cs_infile_read_why(r->fp, r->buf + r->end, r->cap - r->end, &got, why, sizeof why) != CS_OK)
            return -1;
        r->end += got;
        if (got == 0)
            r->eof = 1;
    }
}

/* ------------------------------------------------------------------------ */
/* CSV fields.                                                               */

struct cs__field {
    const char *s;
    size_t len;
    size_t col;  /* 1-based column (character) of the field */
};

/* Splits a line at commas (base/csv.h: quotes dropped, "" inside a quoted
 * field kept as is, blanks trimmed). Returns the field count, -1 past
 * CS__MAX_FIELDS, -2 for a quote that does not end or text after one. */
static int cs__split(const char *line, size_t len, struct cs__field *f)
{
    struct cs_csv_field cf[CS__MAX_FIELDS];
    int n = cs_csv_split(line, len, cf, CS__MAX_FIELDS, NULL);
    for (int k = 0; k < n; k++) {
        f[k].s = cf[k].s;
        f[k].len = cf[k].len;
        f[k].col = (size_t)cf[k].col;
    }
    return n;
}

static int cs__field_is(const struct cs__field *f, const char *s)
{
    size_t n = strlen(s);
    return f->len == n && memcmp(f->s, s, n) == 0;
}

/* ------------------------------------------------------------------------ */
/* Import context.                                                           */

/* Logical columns that the CSV formats map their headers onto. */
enum cs__col {
    C_ID, C_SUBMIT, C_GPUS, C_DURATION, C_USER, C_PARTITION, C_PRIORITY, C_GPU_TYPE, C_WORKLOAD,
    C_GPU_MILLI, C_START, C_END, C_STATE, C_QUEUE, C_INST, C_TASK,
    C_COUNT
};

struct cs__ctx {
    const char *file;
    struct cs_trace *t;
    const struct cs_trace_options *o;
    cs_diags *d;
    enum cs_trace_format fmt;
    int col[C_COUNT];     /* field index of each logical column, -1 absent */
    int nfields;          /* fields a row must have */
    long line;
    int errors;
    bool have_origin;     /* datetime formats: origin taken from the first row */
    struct cs_strtab pai_jobs;  /* PAI: job_name -> index into t->jobs */
    double *pai_end;      /* PAI: latest task end per job (absolute) */
    size_t pai_cap;
};

static void cs__err(struct cs__ctx *c, const struct cs__field *f, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static void cs__err(struct cs__ctx *c, const struct cs__field *f, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    cs_diag_error(c->d, c->file, (int)c->line, f ? (int)f->col : 0, "%s", msg);
    c->errors++;
}

/* Copies a field into a NUL-terminated scratch buffer (truncating). */
static const char *cs__str(const struct cs__field *f, char *buf, size_t cap)
{
    size_t n = f->len < cap - 1 ? f->len : cap - 1;
    memcpy(buf, f->s, n);
    buf[n] = '\0';
    return buf;
}

/* Parses a finite number. Returns 1 ok, 0 empty, -1 malformed (error added). */
static int cs__num(struct cs__ctx *c, const struct cs__field *fs, int col, const char *what,
                   double *out)
{
    if (col < 0)
        return 0;
    const struct cs__field *f = &fs[col];
    if (f->len == 0)
        return 0;
    char buf[64];
    cs__str(f, buf, sizeof buf);
    double v = 0;
    if (f->len >= sizeof buf || !cs_num_parse_double(buf, &v)) {
        cs__err(c, f, "column '%s': expected a number, got \"%.*s\"", what,
                (int)(f->len > 40 ? 40 : f->len), f->s);
        return -1;
    }
    *out = v;
    return 1;
}

/* A time column: a number of seconds, or a date-time ("None"/"" = empty).
 * Returns 1, 0 (empty) or -1 (error added). */
static int cs__time(struct cs__ctx *c, const struct cs__field *fs, int col, const char *what,
                    double *out)
{
    if (col < 0 || fs[col].len == 0 || cs__field_is(&fs[col], "None") ||
        cs__field_is(&fs[col], "NaN") || cs__field_is(&fs[col], "nan"))
        return 0;
    const struct cs__field *f = &fs[col];
    if (f->len >= 10 && f->s[4] == '-') {
        if (cs_trace_parse_datetime(f->s, f->len, out) != CS_OK) {
            cs__err(c, f, "column '%s': expected a time like \"2020-06-09 18:41:01\", got \"%.*s\"",
                    what, (int)(f->len > 40 ? 40 : f->len), f->s);
            return -1;
        }
        return 1;
    }
    return cs__num(c, fs, col, what, out);
}

static int cs__intern_opt(struct cs_strtab *tab, const struct cs__field *fs, int col)
{
    if (col < 0 || fs[col].len == 0)
        return -1;
    return cs_strtab_intern(tab, fs[col].s, fs[col].len);
}

static void cs__set_id(struct cs_trace_job *j, const struct cs__field *fs, int col, long line)
{
    if (col >= 0 && fs[col].len > 0)
        cs__str(&fs[col], j->id, sizeof j->id);
    else
        snprintf(j->id, sizeof j->id, "line-%ld", line);
}

/* Window and limit, then add. `abs_submit` is in the trace's own clock. */
/* Refuses a job whose times the simulator's clock cannot hold; true when
 * the job is in range. `line` 0: the job has no line (Philly JSON). */
static bool cs__times_ok(struct cs__ctx *c, const struct cs_trace_job *j, long line)
{
    if (fabs(j->submit_s) <= CS__MAX_TIME_S && j->duration_s <= CS__MAX_TIME_S &&
        fabs(j->submit_s + j->duration_s) <= CS__MAX_TIME_S)
        return true;
    const char *what = fabs(j->submit_s) > CS__MAX_TIME_S ? "submission time"
                       : j->duration_s > CS__MAX_TIME_S    ? "run time"
                                                          : "end (submission + run time)";
    cs_diag_error(c->d, c->file, (int)line, 0,
                  "job %s: %s out of range: submitted at %g s (from the trace's start), running %g s; "
                  "expected times within +-%g s (31.7 years)",
                  j->id, what, j->submit_s, j->duration_s, CS__MAX_TIME_S);
    c->errors++;
    return false;
}

static void cs__keep(struct cs__ctx *c, struct cs_trace_job *j)
{
    struct cs_trace_counts *k = &c->t->counts;
    j->submit_s -= c->t->origin_s;
    if (!cs__times_ok(c, j, c->line))
        return;
    if (j->submit_s < c->o->from_s || (!isnan(c->o->to_s) && j->submit_s >= c->o->to_s)) {
        k->skipped_window++;
        return;
    }
    if (c->o->limit > 0 && k->jobs >= c->o->limit) {
        k->skipped_limit++;
        return;
    }
    j->line = c->line;
    k->jobs++;
    cs_trace_add(c->t, j);
}

static void cs__job_init(struct cs_trace_job *j)
{
    memset(j, 0, sizeof *j);
    j->queue_s = NAN;
    j->user = j->partition = j->gpu_type = j->workload = -1;
}

/* Takes the origin from the first row of a datetime-clocked trace. */
static void cs__origin(struct cs__ctx *c, double abs_submit)
{
    if (!c->have_origin) {
        c->t->origin_s = abs_submit;
        c->have_origin = true;
    }
}

/* ------------------------------------------------------------------------ */
/* Row functions, one per CSV format.                                        */

static void cs__row_native(struct cs__ctx *c, const struct cs__field *fs)
{
    struct cs_trace_job j;
    cs__job_init(&j);
    struct cs_trace_counts *k = &c->t->counts;
    double submit = 0, gpus = 0, dur = 0, prio = 0;
    int a = cs__num(c, fs, c->col[C_SUBMIT], "submit_s", &submit);
    int b = cs__num(c, fs, c->col[C_GPUS], "gpus", &gpus);
    int e = cs__num(c, fs, c->col[C_DURATION], "duration_s", &dur);
    int p = cs__num(c, fs, c->col[C_PRIORITY], "priority", &prio);
    if (a < 0 || b < 0 || e < 0 || p < 0)
        return;
    const char *names[3] = {"submit_s", "gpus", "duration_s"};
    int got[3] = {a, b, e}, cols[3] = {c->col[C_SUBMIT], c->col[C_GPUS], c->col[C_DURATION]};
    for (int i = 0; i < 3; i++)
        if (got[i] == 0) {
            cs__err(c, &fs[cols[i]], "column '%s': a value is required", names[i]);
            return;
        }
    if (gpus < 0 || dur < 0 || prio != floor(prio) || fabs(prio) > 1e6) {
        const struct cs__field *f = gpus < 0 ? &fs[c->col[C_GPUS]]
                                    : dur < 0 ? &fs[c->col[C_DURATION]] : &fs[c->col[C_PRIORITY]];
        cs__err(c, f, "%s", gpus < 0 ? "column 'gpus': expected >= 0"
                            : dur < 0 ? "column 'duration_s': expected >= 0"
                                      : "column 'priority': expected an integer in [-1e6, 1e6]");
        return;
    }
    if (gpus > 1e6) {
        cs__err(c, &fs[c->col[C_GPUS]], "column 'gpus': %g GPUs is more than any cluster", gpus);
        return;
    }
    int miss = 0;
    for (int col = C_USER; col <= C_WORKLOAD; col++)
        if (c->col[col] >= 0 && fs[c->col[col]].len == 0 && col != C_PRIORITY)
            miss = 1;
    if (p == 0 && c->col[C_PRIORITY] >= 0)
        miss = 1;
    k->missing_values += miss;
    if (gpus == 0) {
        k->skipped_cpu_only++;
        return;
    }
    if (dur == 0) {
        k->skipped_zero_duration++;
        return;
    }
    cs__set_id(&j, fs, c->col[C_ID], c->line);
    j.submit_s = submit;
    j.gpus = gpus;
    j.duration_s = dur;
    j.priority = (int)prio;
    j.user = cs__intern_opt(&c->t->users, fs, c->col[C_USER]);
    j.partition = cs__intern_opt(&c->t->partitions, fs, c->col[C_PARTITION]);
    j.gpu_type = cs__intern_opt(&c->t->gpu_types, fs, c->col[C_GPU_TYPE]);
    j.workload = cs__intern_opt(&c->t->workloads, fs, c->col[C_WORKLOAD]);
    cs__keep(c, &j);
}

/* Microsoft ITP 2021: every row is a job that ran (duration >= 600 s). */
static void cs__row_itp(struct cs__ctx *c, const struct cs__field *fs)
{
    struct cs_trace_job j;
    cs__job_init(&j);
    double submit = 0, gpus = 0, dur = 0;
    int a = cs__num(c, fs, c->col[C_SUBMIT], "submission_time", &submit);
    int b = cs__num(c, fs, c->col[C_GPUS], "num_gpu", &gpus);
    int e = cs__num(c, fs, c->col[C_DURATION], "duration", &dur);
    if (a < 0 || b < 0 || e < 0)
        return;
    if (a == 0 || b == 0 || e == 0 || gpus < 0 || dur < 0) {
        cs__err(c, NULL, "expected submission_time, duration and num_gpu >= 0 in every row");
        return;
    }
    if (gpus == 0) {
        c->t->counts.skipped_cpu_only++;
        return;
    }
    if (dur == 0) {
        c->t->counts.skipped_zero_duration++;
        return;
    }
    cs__set_id(&j, fs, c->col[C_ID], c->line);
    j.submit_s = submit;
    j.gpus = gpus;
    j.duration_s = dur;
    cs__keep(c, &j);
}

/* Alibaba openb 2023: Pending pods (no scheduled_time) never ran; num_gpu 0
 * pods are CPU-only; a one-GPU pod with gpu_milli < 1000 shares a GPU. */
static void cs__row_openb(struct cs__ctx *c, const struct cs__field *fs)
{
    struct cs_trace_job j;
    cs__job_init(&j);
    struct cs_trace_counts *k = &c->t->counts;
    double create = 0, del = 0, sched = 0, ngpu = 0, milli = 1000;
    int a = cs__num(c, fs, c->col[C_SUBMIT], "creation_time", &create);
    int b = cs__num(c, fs, c->col[C_END], "deletion_time", &del);
    int s = cs__num(c, fs, c->col[C_START], "scheduled_time", &sched);
    int g = cs__num(c, fs, c->col[C_GPUS], "num_gpu", &ngpu);
    int m = cs__num(c, fs, c->col[C_GPU_MILLI], "gpu_milli", &milli);
    if (a < 0 || b < 0 || s < 0 || g < 0 || m < 0)
        return;
    if (a == 0 || g == 0 || ngpu < 0 || milli < 0 || milli > 1000) {
        cs__err(c, NULL, "expected creation_time and num_gpu >= 0 and 0 <= gpu_milli <= 1000");
        return;
    }
    if (ngpu == 0) {
        k->skipped_cpu_only++;
        return;
    }
    if (s == 0) {
        k->skipped_never_ran++;
        return;
    }
    if (b == 0) {
        k->missing_values++;
        k->skipped_never_ran++;
        return;
    }
    if (del <= sched) {
        k->skipped_zero_duration++;
        return;
    }
    cs__set_id(&j, fs, c->col[C_ID], c->line);
    j.submit_s = create;
    j.gpus = (ngpu == 1 && m == 1 && milli > 0 && milli < 1000) ? milli / 1000.0 : ngpu;
    j.duration_s = del - sched;
    j.queue_s = sched - create;
    j.partition = cs__intern_opt(&c->t->partitions, fs, c->col[C_PARTITION]);
    if (c->col[C_GPU_TYPE] >= 0 && fs[c->col[C_GPU_TYPE]].len > 0) {
        /* gpu_spec lists allowed types joined by '|': the first is taken */
        const struct cs__field *f = &fs[c->col[C_GPU_TYPE]];
        const char *bar = memchr(f->s, '|', f->len);
        j.gpu_type = cs_strtab_intern(&c->t->gpu_types, f->s, bar ? (size_t)(bar - f->s) : f->len);
    }
    if (c->col[C_STATE] >= 0 && cs__field_is(&fs[c->col[C_STATE]], "Failed"))
        k->failed++;
    cs__keep(c, &j);
}

/* Helios (SC'21) and Acme (NSDI'24): Slurm accounting rows with date-times.
 * A row without start_time never ran; gpu_num 0 is a CPU job. */
static void cs__row_slurm(struct cs__ctx *c, const struct cs__field *fs)
{
    struct cs_trace_job j;
    cs__job_init(&j);
    struct cs_trace_counts *k = &c->t->counts;
    double submit = 0, start = 0, end = 0, gpus = 0, dur = NAN;
    int a = cs__time(c, fs, c->col[C_SUBMIT], "submit_time", &submit);
    int s = cs__time(c, fs, c->col[C_START], "start_time", &start);
    int e = cs__time(c, fs, c->col[C_END], "end_time", &end);
    int g = cs__num(c, fs, c->col[C_GPUS], "gpu_num", &gpus);
    int du = cs__num(c, fs, c->col[C_DURATION], "duration", &dur);
    if (a < 0 || s < 0 || e < 0 || g < 0 || du < 0)
        return;
    if (a == 0 || g == 0 || gpus < 0) {
        cs__err(c, NULL, "expected submit_time and gpu_num >= 0 in every row");
        return;
    }
    if (gpus == 0) {
        k->skipped_cpu_only++;
        return;
    }
    if (s == 0) {
        k->skipped_never_ran++;
        return;
    }
    if (du == 0) {  /* duration missing: end - start, as the README defines it */
        k->missing_values++;
        if (e == 0) {
            k->skipped_never_ran++;
            return;
        }
        dur = end - start;
    }
    if (!(dur > 0)) {
        k->skipped_zero_duration++;
        return;
    }
    cs__origin(c, submit);
    cs__set_id(&j, fs, c->col[C_ID], c->line);
    j.submit_s = submit;
    j.gpus = gpus;
    j.duration_s = dur;
    j.queue_s = start - submit;
    j.user = cs__intern_opt(&c->t->users, fs, c->col[C_USER]);
    j.partition = cs__intern_opt(&c->t->partitions, fs, c->col[C_PARTITION]);
    if (c->col[C_STATE] >= 0) {
        const struct cs__field *st = &fs[c->col[C_STATE]];
        if (cs__field_is(st, "FAILED") || cs__field_is(st, "TIMEOUT") || cs__field_is(st, "NODE_FAIL"))
            k->failed++;
        else if (st->len >= 9 && memcmp(st->s, "CANCELLED", 9) == 0)
            k->cancelled++;
    }
    cs__keep(c, &j);
}

/* Alibaba PAI 2020 task table (no header): job_name,task_name,inst_num,
 * status,start_time,end_time,plan_cpu,plan_mem,plan_gpu,gpu_type. plan_gpu is
 * in percent of one GPU per instance. The tasks of a job are merged: GPUs
 * add up, the job starts with its first task and ends with its last. The
 * table has no submission time: the start is used, so queueing is unknown. */
static void cs__row_pai(struct cs__ctx *c, const struct cs__field *fs)
{
    struct cs_trace_counts *k = &c->t->counts;
    double inst = 1, start = 0, end = 0, plan = 0;
    int i = cs__num(c, fs, 2, "inst_num", &inst);
    int s = cs__num(c, fs, 4, "start_time", &start);
    int e = cs__num(c, fs, 5, "end_time", &end);
    int p = cs__num(c, fs, 8, "plan_gpu", &plan);
    if (i < 0 || s < 0 || e < 0 || p < 0)
        return;
    if (fs[0].len == 0) {
        cs__err(c, &fs[0], "column 'job_name': a value is required");
        return;
    }
    if (plan <= 0 || inst <= 0) {
        k->skipped_cpu_only++;
        return;
    }
    if (s == 0 || start <= 0 || e == 0 || end <= 0) {
        k->skipped_never_ran++;
        return;
    }
    if (end <= start) {
        k->skipped_zero_duration++;
        return;
    }
    size_t before = c->pai_jobs.n;
    int idx = cs_strtab_intern(&c->pai_jobs, fs[0].s, fs[0].len);
    if ((size_t)idx == before) {  /* a new job */
        struct cs_trace_job j;
        cs__job_init(&j);
        cs__set_id(&j, fs, 0, c->line);
        j.submit_s = start;
        j.gpus = inst * plan / 100.0;
        j.duration_s = end - start;
        j.line = c->line;
        j.gpu_type = cs__intern_opt(&c->t->gpu_types, fs, 9);
        if (cs__field_is(&fs[3], "Failed"))
            k->failed++;
        cs_trace_add(c->t, &j);
        if (c->t->n > c->pai_cap) {
            c->pai_cap = c->t->cap;
            c->pai_end = cs_xrealloc(c->pai_end, c->pai_cap, sizeof *c->pai_end);
        }
        c->pai_end[c->t->n - 1] = end;
        return;
    }
    k->rows--;  /* a further task of a job already counted */
    struct cs_trace_job *j = &c->t->jobs[idx];
    j->gpus += inst * plan / 100.0;
    if (start < j->submit_s)
        j->submit_s = start;
    if (end > c->pai_end[idx])
        c->pai_end[idx] = end;
    j->duration_s = c->pai_end[idx] - j->submit_s;
}

/* ------------------------------------------------------------------------ */
/* Header detection.                                                         */

struct cs__colname {
    const char *name;
    enum cs__col col;
    bool required;
};

static const struct cs__colname cs__native_cols[] = {
    {"job_id", C_ID, true},       {"submit_s", C_SUBMIT, true},     {"gpus", C_GPUS, true},
    {"duration_s", C_DURATION, true}, {"user", C_USER, false},      {"partition", C_PARTITION, false},
    {"priority", C_PRIORITY, false},  {"gpu_type", C_GPU_TYPE, false}, {"workload", C_WORKLOAD, false},
};
static const struct cs__colname cs__itp_cols[] = {
    {"job_id", C_ID, true}, {"submission_time", C_SUBMIT, true}, {"duration", C_DURATION, true},
    {"num_gpu", C_GPUS, true},
};
static const struct cs__colname cs__openb_cols[] = {
    {"name", C_ID, true},          {"num_gpu", C_GPUS, true},         {"gpu_milli", C_GPU_MILLI, false},
    {"gpu_spec", C_GPU_TYPE, false}, {"qos", C_PARTITION, false},     {"pod_phase", C_STATE, false},
    {"creation_time", C_SUBMIT, true}, {"deletion_time", C_END, true}, {"scheduled_time", C_START, true},
};
static const struct cs__colname cs__helios_cols[] = {
    {"job_id", C_ID, true},          {"user", C_USER, false},       {"vc", C_PARTITION, false},
    {"gpu_num", C_GPUS, true},       {"state", C_STATE, false},     {"submit_time", C_SUBMIT, true},
    {"start_time", C_START, true},   {"end_time", C_END, true},     {"duration", C_DURATION, false},
};
static const struct cs__colname cs__acme_cols[] = {
    {"job_id", C_ID, true},          {"user", C_USER, false},       {"type", C_PARTITION, false},
    {"gpu_num", C_GPUS, true},       {"state", C_STATE, false},     {"submit_time", C_SUBMIT, true},
    {"start_time", C_START, true},   {"end_time", C_END, true},     {"duration", C_DURATION, false},
};

struct cs__fmtdef {
    enum cs_trace_format fmt;
    const struct cs__colname *cols;
    size_t ncols;
    const char *marker;  /* a header name that identifies the format */
};
static const struct cs__fmtdef cs__fmts[] = {
    {CS_TRACE_NATIVE, cs__native_cols, NELEM(cs__native_cols), "submit_s"},
    {CS_TRACE_ITP, cs__itp_cols, NELEM(cs__itp_cols), "submission_time"},
    {CS_TRACE_OPENB, cs__openb_cols, NELEM(cs__openb_cols), "gpu_milli"},
    {CS_TRACE_HELIOS, cs__helios_cols, NELEM(cs__helios_cols), "vc"},
    {CS_TRACE_ACME, cs__acme_cols, NELEM(cs__acme_cols), "type"},
};

static int cs__header_has(const struct cs__field *fs, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (cs__field_is(&fs[i], name))
            return i;
    return -1;
}

/* Maps the header onto logical columns. Returns 0 ok, -1 error added. */
static int cs__map_header(struct cs__ctx *c, const struct cs__field *fs, int n)
{
    const struct cs__fmtdef *def = NULL;
    for (size_t i = 0; i < NELEM(cs__fmts); i++) {
        if (c->fmt != CS_TRACE_AUTO && c->fmt != cs__fmts[i].fmt)
            continue;
        if (c->fmt != CS_TRACE_AUTO || cs__header_has(fs, n, cs__fmts[i].marker) >= 0) {
            def = &cs__fmts[i];
            break;
        }
    }
    if (!def && c->fmt == CS_TRACE_AUTO && cs__header_has(fs, n, "submit_time") >= 0 &&
        cs__header_has(fs, n, "gpu_num") >= 0)
        def = &cs__fmts[3];  /* a Slurm-style log without vc or type: read as Helios */
    if (!def) {
        cs__err(c, NULL,
                "cannot tell the trace format from the header \"%.*s\": expected the native header "
                "job_id,submit_s,gpus,duration_s,user,partition,priority,gpu_type,workload or a "
                "known trace's (itp, openb, helios, acme); pass --format for pai or philly",
                (int)(fs[n - 1].s + fs[n - 1].len - fs[0].s > 200 ? 200
                                                                  : fs[n - 1].s + fs[n - 1].len - fs[0].s),
                fs[0].s);
        return -1;
    }
    c->fmt = def->fmt;
    c->t->format = def->fmt;
    for (int i = 0; i < C_COUNT; i++)
        c->col[i] = -1;
    int bad = 0;
    for (size_t i = 0; i < def->ncols; i++) {
        int at = cs__header_has(fs, n, def->cols[i].name);
        if (at < 0 && def->cols[i].required) {
            cs__err(c, NULL, "%s trace header: missing column '%s'", cs_trace_format_name(def->fmt),
                    def->cols[i].name);
            bad = 1;
        }
        c->col[def->cols[i].col] = at;
    }
    if (def->fmt == CS_TRACE_NATIVE)  /* unknown columns are errors in our own format */
        for (int i = 0; i < n; i++) {
            int known = 0;
            for (size_t k = 0; k < def->ncols; k++)
                known |= cs__field_is(&fs[i], def->cols[k].name);
            if (!known) {
                cs__err(c, &fs[i], "native trace header: unknown column \"%.*s\" (expected "
                        "job_id,submit_s,gpus,duration_s,user,partition,priority,gpu_type,workload)",
                        (int)(fs[i].len > 40 ? 40 : fs[i].len), fs[i].s);
                bad = 1;
            }
        }
    c->nfields = n;
    return bad ? -1 : 0;
}

/* ------------------------------------------------------------------------ */
/* Philly (JSON).                                                            */

static int cs__json_time(const cJSON *o, const char *key, double *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsString(v) || strcmp(v->valuestring, "None") == 0)
        return 0;
    return cs_trace_parse_datetime(v->valuestring, strlen(v->valuestring), out) == CS_OK ? 1 : -1;
}

/* msr-fiddle/philly-traces cluster_job_log: a JSON array of jobs with
 * status, vc, jobid, user, submitted_time and attempts[] (start_time,
 * end_time, detail[] of {ip, gpus[]}). A job without an attempt that
 * started never ran; the run time spans the first attempt's start to the
 * last attempt's end (retries included), the GPUs are those of the first
 * attempt, the queueing delay is first start - submission. */
static cs_status cs__load_philly(struct cs__ctx *c, const char *buf, size_t len)
{
    const char *nul = memchr(buf, '\0', len);
    if (nul) {  /* cJSON would stop there; names would be cut at it */
        long line = 1;
        for (const char *p = buf; p < nul; p++)
            line += *p == '\n';
        c->line = line;
        cs__err(c, NULL, "philly trace: expected a text file, found a NUL byte (binary file?)");
        return CS_ECONFIG;
    }
    cJSON *root = cJSON_ParseWithLength(buf, len);
    if (!root) {
        const char *at = cJSON_GetErrorPtr();
        long line = 1;
        for (const char *p = buf; at && p < at && p < buf + len; p++)
            line += *p == '\n';
        c->line = line;
        cs__err(c, NULL, "philly trace: malformed JSON");
        return CS_ECONFIG;
    }
    if (!cJSON_IsArray(root)) {
        cJSON_Delete(root);
        c->line = 1;
        cs__err(c, NULL, "philly trace: expected a JSON array of jobs");
        return CS_ECONFIG;
    }
    struct cs_trace_counts *k = &c->t->counts;
    long idx = 0;
    const cJSON *job;
    cJSON_ArrayForEach(job, root) {
        idx++;
        c->line = 0;
        k->rows++;
        double submit, start, end, last_end = NAN;
        int a = cs__json_time(job, "submitted_time", &submit);
        if (a <= 0) {
            cs_diag_error(c->d, c->file, 0, 0, "philly trace: job %ld: 'submitted_time': expected a time "
                          "like \"2017-10-03 04:44:26\"", idx);
            c->errors++;
            continue;
        }
        const cJSON *atts = cJSON_GetObjectItemCaseSensitive(job, "attempts");
        int n_att = cJSON_IsArray(atts) ? cJSON_GetArraySize(atts) : 0;
        const cJSON *first = n_att > 0 ? cJSON_GetArrayItem(atts, 0) : NULL;
        if (!first || cs__json_time(first, "start_time", &start) <= 0) {
            k->skipped_never_ran++;
            continue;
        }
        for (int i = n_att - 1; i >= 0 && isnan(last_end); i--)
            if (cs__json_time(cJSON_GetArrayItem(atts, i), "end_time", &end) > 0)
                last_end = end;
        double gpus = 0;
        const cJSON *det = cJSON_GetObjectItemCaseSensitive(first, "detail"), *m;
        cJSON_ArrayForEach(m, det) {
            const cJSON *g = cJSON_GetObjectItemCaseSensitive(m, "gpus");
            if (cJSON_IsArray(g))
                gpus += cJSON_GetArraySize(g);
        }
        if (gpus == 0) {
            k->skipped_cpu_only++;
            continue;
        }
        if (isnan(last_end)) {  /* still running when the trace ends */
            k->skipped_never_ran++;
            continue;
        }
        if (!(last_end > start)) {
            k->skipped_zero_duration++;
            continue;
        }
        struct cs_trace_job j;
        cs__job_init(&j);
        const cJSON *id = cJSON_GetObjectItemCaseSensitive(job, "jobid");
        if (cJSON_IsString(id))
            snprintf(j.id, sizeof j.id, "%s", id->valuestring);
        else
            snprintf(j.id, sizeof j.id, "job-%ld", idx);
        cs__origin(c, submit);
        j.submit_s = submit;
        j.gpus = gpus;
        j.duration_s = last_end - start;
        j.queue_s = start - submit;
        const cJSON *u = cJSON_GetObjectItemCaseSensitive(job, "user");
        const cJSON *vc = cJSON_GetObjectItemCaseSensitive(job, "vc");
        const cJSON *st = cJSON_GetObjectItemCaseSensitive(job, "status");
        if (cJSON_IsString(u))
            j.user = cs_strtab_intern(&c->t->users, u->valuestring, strlen(u->valuestring));
        if (cJSON_IsString(vc))
            j.partition = cs_strtab_intern(&c->t->partitions, vc->valuestring, strlen(vc->valuestring));
        if (cJSON_IsString(st)) {
            if (strcmp(st->valuestring, "Failed") == 0)
                k->failed++;
            else if (strcmp(st->valuestring, "Killed") == 0)
                k->cancelled++;
        }
        cs__keep(c, &j);
        if (c->d->truncated)
            break;
    }
    cJSON_Delete(root);
    return c->errors ? CS_ECONFIG : CS_OK;
}

/* ------------------------------------------------------------------------ */
/* Driver.                                                                   */

static int cs__job_cmp(const void *pa, const void *pb)
{
    const struct cs_trace_job *a = pa, *b = pb;
    if (a->submit_s != b->submit_s)
        return a->submit_s < b->submit_s ? -1 : 1;
    return (a->line > b->line) - (a->line < b->line);
}

static cs_status cs__load_csv(struct cs__ctx *c, struct cs__reader *r)
{
    struct cs__field fs[CS__MAX_FIELDS];
    const char *line;
    size_t len;
    int had_nl = 1, rc, header_done = c->fmt == CS_TRACE_PAI;
    if (c->fmt == CS_TRACE_PAI) {
        c->nfields = 10;
        c->t->format = CS_TRACE_PAI;
    }
    while ((rc = cs__next_line(r, &line, &len, &had_nl)) == 1) {
        c->line = r->line;
        if (len == 0)
            continue;  /* blank lines (a trailing one, too) are ignored */
        if (memchr(line, '\0', len)) {
            cs__err(c, NULL, "expected a text file, found a NUL byte at column %zu (binary file?)",
                    (size_t)((const char *)memchr(line, '\0', len) - line) + 1);
            return CS_ECONFIG;
        }
        int n = cs__split(line, len, fs);
        if (n < 0) {
            if (n == -1)
                cs__err(c, NULL, "more than %d fields", CS__MAX_FIELDS);
            else
                cs__err(c, NULL, "a quoted field does not end, or text follows its closing quote");
            if (c->d->truncated)
                break;
            continue;
        }
        if (!header_done) {
            header_done = 1;
            if (cs__map_header(c, fs, n) < 0)
                return CS_ECONFIG;
            continue;
        }
        c->t->counts.rows++;
        if (n != c->nfields) {
            cs__err(c, NULL, "expected %d fields as in the %s, got %d", c->nfields,
                    c->fmt == CS_TRACE_PAI ? "PAI task table" : "header", n);
        } else {
            switch (c->fmt) {
            case CS_TRACE_NATIVE: cs__row_native(c, fs); break;
            case CS_TRACE_ITP: cs__row_itp(c, fs); break;
            case CS_TRACE_OPENB: cs__row_openb(c, fs); break;
            case CS_TRACE_HELIOS:
            case CS_TRACE_ACME: cs__row_slurm(c, fs); break;
            case CS_TRACE_PAI: cs__row_pai(c, fs); break;
            default: break;
            }
        }
        if (c->d->truncated)
            break;
    }
    if (rc < 0) {
        cs_diag_error(c->d, c->file, (int)r->line + 1, 0, "line longer than %zu bytes or read error",
                      CS__MAX_LINE);
        return CS_EIO;
    }
    if (!header_done) {
        cs_diag_error(c->d, c->file, 0, 0, "empty trace: expected a header line");
        return CS_ECONFIG;
    }
    c->t->counts.no_final_newline = !had_nl;
    return c->errors ? CS_ECONFIG : CS_OK;
}

/* PAI: window and limit are applied after the tasks were merged. */
static void cs__pai_finish(struct cs__ctx *c)
{
    struct cs_trace *t = c->t;
    struct cs_trace_counts *k = &t->counts;
    size_t w = 0;
    double origin = INFINITY;
    for (size_t i = 0; i < t->n; i++)
        if (t->jobs[i].submit_s < origin)
            origin = t->jobs[i].submit_s;
    t->origin_s = t->n ? origin : 0;
    k->jobs = 0;
    for (size_t i = 0; i < t->n; i++) {
        struct cs_trace_job j = t->jobs[i];
        j.submit_s -= t->origin_s;
        if (!cs__times_ok(c, &j, j.line))
            continue;
        if (j.submit_s < c->o->from_s || (!isnan(c->o->to_s) && j.submit_s >= c->o->to_s)) {
            k->skipped_window++;
            continue;
        }
        if (c->o->limit > 0 && k->jobs >= c->o->limit) {
            k->skipped_limit++;
            continue;
        }
        k->jobs++;
        t->jobs[w++] = j;
    }
    t->n = w;
}

static cs_status cs__load(const char *name, cs_infile *fp, const char *buf, size_t len,
                          const struct cs_trace_options *o, struct cs_trace *t, cs_diags *d)
{
    struct cs_trace_options def;
    if (!o) {
        cs_trace_options_default(&def);
        o = &def;
    }
    struct cs__ctx c;
    memset(&c, 0, sizeof c);
    c.file = name;
    c.t = t;
    c.o = o;
    c.d = d;
    c.fmt = o->format;
    cs_strtab_init(&c.pai_jobs);
    free(t->file);
    t->file = cs_xstrdup(name);
    cs_status st;
    if (c.fmt == CS_TRACE_AUTO) {  /* a JSON array is Philly's cluster_job_log */
        size_t n = strlen(name);
        if (n >= 3 && strcmp(name + n - 3, ".gz") == 0)
            n -= 3;  /* cluster_job_log.json.gz is JSON too */
        if (n >= 5 && strncmp(name + n - 5, ".json", 5) == 0)
            c.fmt = CS_TRACE_PHILLY;
    }
    if (c.fmt == CS_TRACE_PHILLY) {
        t->format = CS_TRACE_PHILLY;
        char *whole = NULL;
        if (fp) {  /* JSON is parsed whole: read the file into memory */
            size_t cap = 1 << 16, got = 0, k = 0;
            whole = cs_xmalloc(cap);
            cs_status rs;
            while ((rs = cs_infile_read(fp, whole + got, cap - got, &k, d)) == CS_OK && k > 0) {
                got += k;
                if (got == cap)
                    whole = cs_xrealloc(whole, cap *= 2, 1);
            }
            if (rs != CS_OK) {
                free(whole);
                return CS_EIO;
            }
            buf = whole;
            len = got;
        }
        st = cs__load_philly(&c, buf, len);
        free(whole);
    } else {
        struct cs__reader r;
        memset(&r, 0, sizeof r);
        r.fp = fp;
        r.mem = fp ? NULL : buf;
        r.mem_len = len;
        if (!fp && !buf)
            r.mem = "";
        st = cs__load_csv(&c, &r);
        free(r.buf);
        if (c.fmt == CS_TRACE_PAI)
            cs__pai_finish(&c);
    }
    cs_strtab_fini(&c.pai_jobs);
    free(c.pai_end);
    /* the rows were read in file order; replay needs submission order */
    if (t->n > 1)
        qsort(t->jobs, t->n, sizeof *t->jobs, cs__job_cmp);
    return st;
}

cs_status cs_trace_load(const char *path, const struct cs_trace_options *o, struct cs_trace *out,
                        cs_diags *d)
{
    cs_infile *fp;
    char why[256];
    if (cs_infile_open_why(path, &fp, why, sizeof why) != CS_OK) {
        cs_diag_error(d, cs_path_display(path), 0, 0, "cannot open the trace: %s", why);
        return CS_EIO;
    }
    cs_status st = cs__load(cs_path_display(path), fp, NULL, 0, o, out, d);
    cs_infile_close(fp);
    return st;
}

cs_status cs_trace_load_buffer(const char *name, const char *buf, size_t len,
                               const struct cs_trace_options *o, struct cs_trace *out, cs_diags *d)
{
    return cs__load(name, NULL, buf ? buf : "", buf ? len : 0, o, out, d);
}

/* ------------------------------------------------------------------------ */
/* Node lists.                                                               */

/* The node list from `fp`, or from buf[len] when fp is NULL. */
static cs_status cs__load_nodes(const char *path, cs_infile *fp, const char *mem, size_t mem_len,
                                struct cs_trace_nodes *out, cs_diags *d)
{
    struct cs_trace_nodes res;
    memset(&res, 0, sizeof res);
    struct cs__reader r;
    memset(&r, 0, sizeof r);
    r.fp = fp;
    r.mem = fp ? NULL : mem;
    r.mem_len = mem_len;
    struct cs__field fs[CS__MAX_FIELDS];
    const char *line;
    size_t len;
    int had_nl, rc, errors = 0, gcol = -1, tcol = -1, first = 1;
    while ((rc = cs__next_line(&r, &line, &len, &had_nl)) == 1) {
        if (len == 0)
            continue;
        if (memchr(line, '\0', len)) {
            cs_diag_error(d, path, (int)r.line, (int)((const char *)memchr(line, '\0', len) - line) + 1,
                          "node list: expected a text file, found a NUL byte (binary file?)");
            errors++;
            break;
        }
        int n = cs__split(line, len, fs);
        if (n < 0) {
            cs_diag_error(d, path, (int)r.line, 1,
                          n == -1 ? "node list: more than 64 fields"
                                  : "node list: a quoted field does not end, or text follows its closing quote");
            errors++;
            break;
        }
        if (first) {
            first = 0;
            gcol = n > 0 ? cs__header_has(fs, n, "gpu") : -1;
            tcol = n > 0 ? cs__header_has(fs, n, "model") : -1;
            if (gcol >= 0 && tcol >= 0)
                continue;  /* openb header sn,cpu_milli,memory_mib,gpu,model */
            if (n == 5) {  /* PAI machine spec: machine,gpu_type,cap_cpu,cap_mem,cap_gpu */
                gcol = 4;
                tcol = 1;
                if (cs__field_is(&fs[0], "machine"))
                    continue;
            } else {
                cs_diag_error(d, path, (int)r.line, 1,
                              "node list: expected the openb header sn,cpu_milli,memory_mib,gpu,model or "
                              "the 5 PAI machine-spec columns machine,gpu_type,cap_cpu,cap_mem,cap_gpu");
                errors++;
                break;
            }
        }
        if (n <= gcol || n <= tcol) {
            cs_diag_error(d, path, (int)r.line, 1, "node list: expected at least %d fields, got %d",
                          (gcol > tcol ? gcol : tcol) + 1, n);
            if (++errors >= 20)
                break;
            continue;
        }
        char buf[32];
        cs__str(&fs[gcol], buf, sizeof buf);
        long g = -1;
        if (fs[gcol].len == 0 || fs[gcol].len >= sizeof buf || !cs_num_parse_long(buf, 10, 0, 72, &g)) {
            cs_diag_error(d, path, (int)r.line, (int)fs[gcol].col,
                          "node list: GPU count: expected an integer in 0..72, got \"%s\"", buf);
            if (++errors >= 20)
                break;
            continue;
        }
        res.nodes++;
        if (g == 0) {
            res.cpu_only_nodes++;
            continue;
        }
        res.gpus += g;
        char type[sizeof res.groups[0].gpu_type];
        if (fs[tcol].len >= sizeof type) {
            /* a longer name would be cut, and two types sharing the first
             * 63 characters would merge into one group */
            cs_diag_error(d, path, (int)r.line, (int)fs[tcol].col,
                          "node list: GPU type: expected at most %zu characters, got %zu",
                          sizeof type - 1, fs[tcol].len);
            if (++errors >= 20)
                break;
            continue;
        }
        cs__str(&fs[tcol], type, sizeof type);
        int k;
        for (k = 0; k < res.n_groups; k++)
            if (res.groups[k].gpus_per_node == g && strcmp(res.groups[k].gpu_type, type) == 0)
                break;
        if (k == res.n_groups) {
            if (res.n_groups == CS_TRACE_MAX_NODE_GROUPS) {
                cs_diag_error(d, path, (int)r.line, 1, "node list: more than %d (GPU type, GPUs per node) groups",
                              CS_TRACE_MAX_NODE_GROUPS);
                errors++;
                break;
            }
            snprintf(res.groups[k].gpu_type, sizeof res.groups[k].gpu_type, "%s", type);
            res.groups[k].gpus_per_node = (int)g;
            res.n_groups++;
        }
        res.groups[k].nodes++;
    }
    free(r.buf);
    if (rc < 0) {
        cs_diag_error(d, path, (int)r.line + 1, 0, "read error or overlong line");
        return CS_EIO;
    }
    if (errors)
        return CS_ECONFIG;
    if (res.n_groups == 0) {
        cs_diag_error(d, path, 0, 0, "node list: no node with a GPU");
        return CS_ECONFIG;
    }
    *out = res;
    return CS_OK;
}

cs_status cs_trace_load_nodes(const char *path, struct cs_trace_nodes *out, cs_diags *d)
{
    cs_infile *fp;
    char why[256];
    if (cs_infile_open_why(path, &fp, why, sizeof why) != CS_OK) {
        cs_diag_error(d, cs_path_display(path), 0, 0, "cannot open the node list: %s", why);
        return CS_EIO;
    }
    cs_status st = cs__load_nodes(cs_path_display(path), fp, NULL, 0, out, d);
    cs_infile_close(fp);
    return st;
}

cs_status cs_trace_load_nodes_buffer(const char *name, const char *buf, size_t len, struct cs_trace_nodes *out,
                                     cs_diags *d)
{
    return cs__load_nodes(name, NULL, buf ? buf : "", buf ? len : 0, out, d);
}
