/* check_report.c: the report layer's writers (the files of report/) against the
 * output contract (README "JSON output", DESIGN.md's keys): for each JSON
 * writer the required keys with their types, a unit in the name of every
 * numeric key (or a reason it has none), no NaN or infinity (cJSON prints
 * them as null: a null is allowed only where it is documented); for each
 * CSV writer a header, the same field count on every row under RFC 4180
 * quoting, booleans as true/false, no nan/inf; for each text writer its
 * headings and a value worked out by hand from the input. Inputs are built
 * in the test, or come from the real models on scenarios/default.yaml
 * where the struct is too big to fill by hand. The checkers are tested
 * first on bad input, so that each of them can be seen to fail. */
#define _POSIX_C_SOURCE 200809L
#include "clustersim/app/pipeline.h"
#include "clustersim/app/tco.h"
#include "clustersim/config/catalog.h"
#include "clustersim/config/config.h"
#include "clustersim/config/trace.h"
#include "clustersim/models/calib.h"
#include "clustersim/models/cost.h"
#include "clustersim/models/datapipe.h"
#include "clustersim/models/run.h"
#include "clustersim/models/scheduler.h"
#include "clustersim/models/step.h"
#include "clustersim/report/calib_report.h"
#include "clustersim/report/cost_report.h"
#include "clustersim/report/gnuplot.h"
#include "clustersim/report/html.h"
#include "clustersim/report/replay_report.h"
#include "clustersim/report/run_report.h"
#include "clustersim/report/run_level.h"
#include "clustersim/report/table.h"
#include "clustersim/base/xmalloc.h"
#include "test_util.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* ------------------------------------------------------------------------ */
/* Capturing a writer's output.                                              */

struct mem {
    char *buf;
    size_t len;
    FILE *f;
};

static FILE *mem_open(struct mem *m)
{
    m->buf = NULL;
    m->len = 0;
    m->f = open_memstream(&m->buf, &m->len);
    ck_assert_ptr_nonnull(m->f);
    return m->f;
}

/* Closes the stream; the text (owned by m) stays in m->buf. */
static char *mem_close(struct mem *m)
{
    ck_assert_int_eq(fclose(m->f), 0);
    m->f = NULL;
    return m->buf;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    struct mem m;
    FILE *o = mem_open(&m);
    int c;
    while ((c = fgetc(f)) != EOF)
        fputc(c, o);
    fclose(f);
    return mem_close(&m);
}

/* Case-insensitive strstr (strcasestr is not POSIX). */
static bool ci_contains(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++)
        if (strncasecmp(hay, needle, n) == 0)
            return true;
    return false;
}

#define assert_has(text, needle)                                                              \
    ck_assert_msg(strstr((text), (needle)) != NULL, "expected \"%s\" in:\n%s", (needle), (text))

/* Problems found by a checker, one per line. */
struct probs {
    size_t n;
    char text[8192];
};

static void prob(struct probs *p, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void prob(struct probs *p, const char *fmt, ...)
{
    p->n++;
    size_t len = strlen(p->text);
    if (len + 2 >= sizeof p->text)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->text + len, sizeof p->text - len - 1, fmt, ap);
    va_end(ap);
    len = strlen(p->text);
    if (len + 1 < sizeof p->text) {
        p->text[len] = '\n';
        p->text[len + 1] = '\0';
    }
}

/* ------------------------------------------------------------------------ */
/* Units in key names.                                                       */

/* A key carries its unit when one of its '_'-separated words is a unit:
 * seconds (s, ms, us), bytes, US dollars (usd, musd), watts (w), FLOPs,
 * TFLOP/s (tflops), hours (h, hour, hours), years, days, steps, GB (gb,
 * 10^9 bytes). */
static const char *const unit_words[] = {"s",     "ms",    "us",     "bytes", "usd",  "musd",
                                         "w",     "flops", "tflops", "h",     "hour", "hours",
                                         "year",  "years", "days",   "steps", "gb",
                                         "kw",    "m2",    "j",     NULL};
/* Dimensionless quantities: a word naming a fraction or a ratio. */
static const char *const ratio_words[] = {"mfu",        "goodput",   "utilization", "fraction",
                                          "share",      "ratio",     "efficiency",  "slowdown",
                                          "tolerance",  "quota",     "error",       "relative",
                                          "fragmentation", "oversubscription", "mape", "rms", "factor",
                                          "load", /* replay.demand.offered_load: demand / capacity */
                                          NULL};
/* Counts (whole things), by their full key name. */
static const char *const count_keys[] = {
    "nodes", "gpus", "gpus_per_node", "nics_per_node", "nic_ports", "params", "layers", "hidden",
    "heads", "kv_heads", "ffn_hidden", "vocab", "seq_len", "global_batch", "micro_batch", "tp",
    "pp", "dp", "cp", "vp", "tokens", "microbatches", "critical_stage", "replicas",
    "replicas_completed", "interruptions", "interruptions_by_cause", "preemptions",
    "writer_nodes", "servers", "nics",
    "switches", "optics", "cables", "switches_without_power", "optics_without_power",
    "count", /* tco.bom.network.items[].count: units of one network item */
    "offers_fitting", "offers_total", "gpus_per_instance", /* tco.offer, tco.offers[] */
    "racks", "nodes_per_rack", /* facility */
    "ranks_simulated", "steps_simulated", /* data: the loader simulation */
    "maintenances", "straggler_removals", /* run: planned stops, slow GPUs */
    "interruptions_by_scope", "storage_outages", "checkpoints_skipped", "spares_lost", /* run: fault domains */
    "leaves", "spines", "nodes_per_leaf", "spare_nodes", /* run.fault_domains */
    "baseline_gpus", "samples", "samples_per_rank", "jobs", "completed", "rejected", "max_queue",
    "workload_jobs", "workload_unfit", "rows", "skipped_never_ran", "skipped_cpu_only",
    "skipped_zero_duration", "skipped_window", "skipped_limit", "missing_values", "failed",
    "cancelled", "points", "params_total", "params_active", "experts", "top_k", "shared_experts",
    "expert_ffn_hidden", "first_dense_layers", "ep", "etp", "recompute_layers",
    "activation_offload_layers",
    "capacity_gpus", "largest_job_gpus", "jobs_larger_than_cluster", /* replay.demand */
    NULL};
/* Statistics and containers whose children take the unit of the parent:
 * time_to_train_s.mean, breakdown_usd.capex, by_year_usd[0]. */
static const char *const stat_keys[] = {"mean", "p05", "p50", "p95", "p99", "max", NULL};
static const char *const map_keys[] = {"breakdown_usd", "low_total_usd", "high_total_usd",
                                       "interruptions_by_cause", "total_usd", "network_usd",
                                       "interruptions_by_scope", "lost_time_by_scope_s",
                                       NULL};
/* Numbers whose unit a sibling names, so no key name can carry it. */
static const char *const sibling_unit_paths[] = {
    "tco.sensitivity.rows[].base", /* in the unit of the input named by `input` */
    "tco.sensitivity.rows[].low",  "tco.sensitivity.rows[].high",
    "tco.sensitivity.step",        /* the relative step (0.2 = +-20%) of every input */
    "tco.verdict.claimed",         /* in the unit of the claim's metric (`claim`, `text`) */
    "tco.verdict.claimed_low",     "tco.verdict.claimed_high", "tco.verdict.computed",
    "claim.claimed",               /* in the unit of `metric` */
    "claim.simulated",             "claim.claimed_at_least", "claim.claimed_at_most",
    "tco_table.rows[].reference.throughput", /* the reference's own figure, in its unit */
    NULL};

static bool in_list(const char *const *list, const char *s)
{
    for (; list && *list; list++)
        if (strcmp(*list, s) == 0)
            return true;
    return false;
}

static bool has_word(const char *key, const char *const *words)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%s", key);
    for (char *save = NULL, *w = strtok_r(buf, "_-", &save); w; w = strtok_r(NULL, "_-", &save))
        if (in_list(words, w))
            return true;
    return false;
}

/* The key names its unit, is a ratio or a count. */
static bool key_tagged(const char *key)
{
    return has_word(key, unit_words) || has_word(key, ratio_words) || in_list(count_keys, key);
}

/* Components of a path: keys, and "[]" for an array element. */
struct path {
    int n;
    const char *c[32];
};

static void path_str(const struct path *p, char *buf, size_t n)
{
    buf[0] = '\0';
    for (int i = 0; i < p->n; i++) {
        size_t len = strlen(buf);
        bool idx = strcmp(p->c[i], "[]") == 0;
        snprintf(buf + len, n - len, "%s%s", i && !idx ? "." : "", p->c[i]);
    }
}

/* Whether the number at p carries a unit: its key, or for a statistic, an
 * array element or a member of a map, the nearest ancestor that does. */
static bool path_tagged(const struct path *p, const char *full)
{
    if (in_list(sibling_unit_paths, full))
        return true;
    for (int i = p->n - 1; i >= 0; i--) {
        const char *k = p->c[i];
        if (strcmp(k, "[]") != 0 && key_tagged(k))
            return true;
        bool inherit = strcmp(k, "[]") == 0 || in_list(stat_keys, k) ||
                       (i > 0 && in_list(map_keys, p->c[i - 1]));
        if (!inherit)
            return false;
    }
    return false;
}

static void json_walk(const cJSON *o, struct path *p, const char *const *nullable,
                      struct probs *pr)
{
    char full[512];
    path_str(p, full, sizeof full);
    if (cJSON_IsObject(o) || cJSON_IsArray(o)) {
        const cJSON *c;
        cJSON_ArrayForEach(c, o)
        {
            if (p->n >= 31) {
                prob(pr, "%s: nested too deep", full);
                return;
            }
            p->c[p->n++] = cJSON_IsArray(o) ? "[]" : c->string;
            json_walk(c, p, nullable, pr);
            p->n--;
        }
        return;
    }
    if (cJSON_IsNumber(o)) {
        if (!isfinite(o->valuedouble))
            prob(pr, "%s: %g is not a finite number", full, o->valuedouble);
        if (!path_tagged(p, full))
            prob(pr, "%s: a number without a unit in its name", full);
    } else if (cJSON_IsNull(o)) {
        /* a nullable string (a verdict) is null too: the unit of a
         * nullable number is checked where it is a number */
        if (!in_list(nullable, full))
            prob(pr, "%s: null (NaN or infinity?) where a value is documented", full);
    }
}

/* Checks the tree as written: printed by cs_out_json_write and parsed
 * back (what a script reads: NaN and infinity come back as null), and the
 * tree itself (a non-finite number names its path). */
static size_t json_problems(const cJSON *root, const char *const *nullable, struct probs *pr)
{
    memset(pr, 0, sizeof *pr);
    struct path p = {0};
    json_walk(root, &p, nullable, pr);
    struct mem m;
    FILE *f = mem_open(&m);
    ck_assert(cs_out_json_write(f, root));
    char *txt = mem_close(&m);
    ck_assert_msg(m.len > 0 && txt[m.len - 1] == '\n', "JSON written without a final newline");
    cJSON *back = cJSON_Parse(txt);
    if (!back)
        prob(pr, "the JSON written does not parse back");
    else {
        struct probs again = {0};
        json_walk(back, &p, nullable, &again);
        if (again.n > pr->n) /* only what printing added (NaN turned null) */
            prob(pr, "as printed:\n%s", again.text);
        cJSON_Delete(back);
    }
    free(txt);
    return pr->n;
}

static void assert_json_clean(const cJSON *root, const char *const *nullable)
{
    struct probs pr;
    ck_assert_msg(json_problems(root, nullable, &pr) == 0, "JSON schema:\n%s", pr.text);
}

/* The item at a dotted path (objects only). */
static const cJSON *jget(const cJSON *root, const char *path)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", path);
    const cJSON *o = root;
    for (char *save = NULL, *k = strtok_r(buf, ".", &save); k && o; k = strtok_r(NULL, ".", &save))
        o = cJSON_GetObjectItemCaseSensitive(o, k);
    return o;
}

static double jnum(const cJSON *root, const char *path)
{
    const cJSON *o = jget(root, path);
    ck_assert_msg(cJSON_IsNumber(o), "%s: expected a number", path);
    return o->valuedouble;
}

static void jnum_or_null(const cJSON *root, const char *path)
{
    const cJSON *o = jget(root, path);
    ck_assert_msg(cJSON_IsNumber(o) || cJSON_IsNull(o), "%s: expected a number or null", path);
}

static void jbool(const cJSON *root, const char *path)
{
    ck_assert_msg(cJSON_IsBool(jget(root, path)), "%s: expected true or false", path);
}

static const char *jstr(const cJSON *root, const char *path)
{
    const cJSON *o = jget(root, path);
    ck_assert_msg(cJSON_IsString(o), "%s: expected a string", path);
    return o->valuestring;
}

/* {mean, p05, p95} (run level) or {mean, p50, p95} (replay) numbers. */
static void jdist(const cJSON *root, const char *path, const char *low)
{
    char k[256];
    const char *const st[] = {"mean", low, "p95"};
    for (int i = 0; i < 3; i++) {
        snprintf(k, sizeof k, "%s.%s", path, st[i]);
        jnum(root, k);
    }
}

/* ------------------------------------------------------------------------ */
/* CSV (RFC 4180).                                                           */

struct csv {
    size_t nrows; /* header included */
    size_t ncells[64];
    char *cell[64][40];
};

static void csv_free(struct csv *c)
{
    for (size_t r = 0; r < c->nrows; r++)
        for (size_t k = 0; k < c->ncells[r]; k++)
            free(c->cell[r][k]);
    memset(c, 0, sizeof *c);
}

/* Parses text into c (at most 64 rows of 40 fields) and reports: a quote
 * that does not follow the rules, a missing final newline, rows whose
 * field count differs from the header's, empty or repeated header names,
 * nan/inf in any field, a column in bool_cols holding anything but
 * true/false, yes/no/True/FALSE anywhere, and numeric columns whose header
 * carries no unit. */
static size_t csv_problems(const char *text, const char *const *bool_cols, struct csv *c,
                           struct probs *pr)
{
    memset(pr, 0, sizeof *pr);
    memset(c, 0, sizeof *c);
    const char *s = text;
    if (!*s) {
        prob(pr, "empty: no header row");
        return pr->n;
    }
    while (*s && c->nrows < 64) {
        size_t r = c->nrows++;
        for (;;) {
            char field[1024];
            size_t n = 0;
            if (*s == '"') {
                s++;
                for (;;) {
                    if (!*s) {
                        prob(pr, "row %zu: a quoted field is not closed", r + 1);
                        break;
                    }
                    if (*s == '"' && s[1] == '"') {
                        s += 2;
                        if (n < sizeof field - 1)
                            field[n++] = '"';
                    } else if (*s == '"') {
                        s++;
                        break;
                    } else if (n < sizeof field - 1) {
                        field[n++] = *s++;
                    } else {
                        s++;
                    }
                }
                if (*s && *s != ',' && *s != '\n' && *s != '\r')
                    prob(pr, "row %zu: text after a closing quote", r + 1);
                while (*s && *s != ',' && *s != '\n')
                    s++;
            } else {
                while (*s && *s != ',' && *s != '\n' && *s != '\r') {
                    if (*s == '"')
                        prob(pr, "row %zu: a quote inside an unquoted field", r + 1);
                    if (n < sizeof field - 1)
                        field[n++] = *s;
                    s++;
                }
                if (*s == '\r')
                    s++;
            }
            field[n] = '\0';
            if (c->ncells[r] < 40)
                c->cell[r][c->ncells[r]++] = strdup(field);
            if (*s == ',') {
                s++;
                continue;
            }
            if (*s == '\n')
                s++;
            else
                prob(pr, "row %zu: no final newline", r + 1);
            break;
        }
    }
    size_t nh = c->ncells[0];
    for (size_t k = 0; k < nh; k++) {
        if (!c->cell[0][k][0])
            prob(pr, "header: column %zu has no name", k + 1);
        for (size_t j = 0; j < k; j++)
            if (strcmp(c->cell[0][j], c->cell[0][k]) == 0)
                prob(pr, "header: column %s twice", c->cell[0][k]);
    }
    static const char *const bad[] = {"nan", "-nan", "inf", "-inf", "infinity", "-infinity",
                                      "yes", "no", NULL};
    for (size_t r = 1; r < c->nrows; r++) {
        if (c->ncells[r] != nh)
            prob(pr, "row %zu: %zu fields, the header has %zu", r + 1, c->ncells[r], nh);
        for (size_t k = 0; k < c->ncells[r] && k < nh; k++) {
            const char *v = c->cell[r][k], *col = c->cell[0][k];
            for (const char *const *b = bad; *b; b++)
                if (strcasecmp(v, *b) == 0)
                    prob(pr, "row %zu, %s: \"%s\"", r + 1, col, v);
            if ((strcasecmp(v, "true") == 0 || strcasecmp(v, "false") == 0) &&
                strcmp(v, "true") != 0 && strcmp(v, "false") != 0)
                prob(pr, "row %zu, %s: boolean \"%s\" (true/false expected)", r + 1, col, v);
            if (in_list(bool_cols, col) && strcmp(v, "true") != 0 && strcmp(v, "false") != 0)
                prob(pr, "row %zu, %s: \"%s\" in a boolean column", r + 1, col, v);
            char *end;
            if (*v && (strtod(v, &end), *end == '\0') && !key_tagged(col) &&
                !in_list(bool_cols, col))
                prob(pr, "column %s: numbers without a unit in its name", col);
        }
    }
    return pr->n;
}

static void assert_csv_clean(const char *text, const char *const *bool_cols, struct csv *c)
{
    struct probs pr;
    ck_assert_msg(csv_problems(text, bool_cols, c, &pr) == 0, "CSV:\n%s\n%s", pr.text, text);
}

/* Cell of row r (1 = first data row) in column `name`. */
static const char *csv_get(const struct csv *c, size_t r, const char *name)
{
    ck_assert_uint_lt(r, c->nrows);
    for (size_t k = 0; k < c->ncells[0]; k++)
        if (strcmp(c->cell[0][k], name) == 0)
            return c->cell[r][k];
    ck_abort_msg("no CSV column %s", name);
    return NULL;
}

/* ------------------------------------------------------------------------ */
/* gnuplot data files: blocks of whitespace-separated rows.                 */

/* Every row of a block (blocks end at a blank line) has the same number of
 * fields ("double-quoted labels" count as one); no nan or inf. Lines
 * starting with '#' are comments. */
static size_t dat_problems(const char *text, struct probs *pr)
{
    memset(pr, 0, sizeof *pr);
    int line = 0, width = -1;
    for (const char *s = text; *s;) {
        const char *e = strchr(s, '\n');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        line++;
        char buf[4096];
        snprintf(buf, sizeof buf, "%.*s", (int)(len < sizeof buf ? len : sizeof buf - 1), s);
        s += len + (e ? 1 : 0);
        if (!e)
            prob(pr, "line %d: no final newline", line);
        if (!buf[0]) {
            width = -1;
            continue;
        }
        if (buf[0] == '#')
            continue;
        int n = 0;
        for (char *p = buf; *p;) {
            while (*p == ' ' || *p == '\t')
                p++;
            if (!*p)
                break;
            char *start = p;
            if (*p == '"') {
                p = strchr(p + 1, '"');
                if (!p) {
                    prob(pr, "line %d: a label is not closed", line);
                    break;
                }
                p++;
            } else {
                while (*p && *p != ' ' && *p != '\t')
                    p++;
            }
            char tok[256];
            snprintf(tok, sizeof tok, "%.*s", (int)(p - start), start);
            const char *num = tok[0] == '-' || tok[0] == '+' ? tok + 1 : tok;
            if (strncasecmp(num, "nan", 3) == 0 || strncasecmp(num, "inf", 3) == 0)
                prob(pr, "line %d: \"%s\"", line, tok);
            n++;
        }
        if (width >= 0 && n != width)
            prob(pr, "line %d: %d fields, the block's rows have %d", line, n, width);
        width = n;
    }
    return pr->n;
}

static void assert_dat_clean(const char *path)
{
    char *t = slurp(path);
    struct probs pr;
    ck_assert_msg(dat_problems(t, &pr) == 0, "%s:\n%s", path, pr.text);
    free(t);
}

/* ------------------------------------------------------------------------ */
/* The checkers fail on bad input.                                           */

START_TEST(test_checker_json_catches_problems)
{
    cJSON *root = cJSON_CreateObject();
    cJSON *st = cJSON_AddObjectToObject(root, "step");
    cJSON_AddNumberToObject(st, "time_s", 1.5);
    cJSON_AddNumberToObject(st, "latency", 2e-6);   /* no unit */
    cJSON_AddNumberToObject(st, "bubble_s", NAN);   /* NaN: printed as null */
    cJSON_AddNullToObject(st, "compute_s");         /* null, not documented as nullable */
    cJSON *d = cJSON_AddObjectToObject(root, "run");
    cJSON *t = cJSON_AddObjectToObject(d, "time_to_train_s");
    cJSON_AddNumberToObject(t, "mean", 3);          /* unit from the parent */
    cJSON *g = cJSON_AddObjectToObject(d, "size");
    cJSON_AddNumberToObject(g, "mean", 3);          /* parent without a unit either */
    struct probs pr;
    ck_assert_uint_ge(json_problems(root, NULL, &pr), 4);
    assert_has(pr.text, "step.latency: a number without a unit");
    assert_has(pr.text, "step.bubble_s: nan is not a finite number");
    assert_has(pr.text, "step.compute_s: null");
    assert_has(pr.text, "run.size.mean: a number without a unit");
    ck_assert_ptr_null(strstr(pr.text, "time_to_train_s"));
    /* documented as nullable: no complaint about the null itself */
    const char *const nullable[] = {"step.compute_s", NULL};
    json_problems(root, nullable, &pr);
    ck_assert_ptr_null(strstr(pr.text, "step.compute_s"));
    cJSON_Delete(root);
}
END_TEST

START_TEST(test_checker_csv_catches_problems)
{
    struct csv c;
    struct probs pr;
    const char *const bools[] = {"fits", NULL};
    /* a good file: a quoted field with a comma and a doubled quote */
    ck_assert_uint_eq(
        csv_problems("name,fits,time_s\n\"a, \"\"b\"\"\",true,1.5\n", bools, &c, &pr), 0);
    ck_assert_str_eq(csv_get(&c, 1, "name"), "a, \"b\"");
    csv_free(&c);
    ck_assert_uint_gt(csv_problems("name,fits,time_s\n\"a \"b\", c\",true,1\n", bools, &c, &pr), 0);
    assert_has(pr.text, "text after a closing quote");
    csv_free(&c);
    ck_assert_uint_gt(csv_problems("name,fits,time_s\nx,1,2\n", bools, &c, &pr), 0);
    assert_has(pr.text, "fits: \"1\" in a boolean column");
    csv_free(&c);
    ck_assert_uint_gt(csv_problems("name,fits,time_s\nx,true,nan\ny,false\n", bools, &c, &pr), 0);
    assert_has(pr.text, "time_s: \"nan\"");
    assert_has(pr.text, "row 3: 2 fields, the header has 3");
    csv_free(&c);
    ck_assert_uint_gt(csv_problems("name,fits,latency\nx,TRUE,3\n", bools, &c, &pr), 0);
    assert_has(pr.text, "boolean \"TRUE\"");
    assert_has(pr.text, "column latency: numbers without a unit");
    csv_free(&c);
    ck_assert_uint_gt(csv_problems("name\nx", NULL, &c, &pr), 0);
    assert_has(pr.text, "no final newline");
    csv_free(&c);
    ck_assert_uint_gt(dat_problems("# x y\n1 2\n3\n\n5 -nan\n", &pr), 0);
    assert_has(pr.text, "line 3: 1 fields");
    assert_has(pr.text, "\"-nan\"");
}
END_TEST

/* ------------------------------------------------------------------------ */
/* Inputs.                                                                   */

static cs_catalog *cat;

static void setup(void)
{
    cs_diags d;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_catalog_load_dir(cs_test_data("scenarios/catalog"), &d, &cat), CS_OK);
    cs_diags_fini(&d);
}

static void teardown(void)
{
    cs_catalog_destroy(cat);
    cat = NULL;
}

static void load_scenario(const char *rel, struct cs_scenario *s)
{
    cs_diags d;
    cs_diags_init(&d);
    cs_status st = cs_cfg_load_scenario(cs_test_data(rel), cat, &d, s, NULL);
    for (size_t i = 0; i < d.n; i++)
        if (d.items[i].sev == CS_SEV_ERROR)
            fprintf(stderr, "%s\n", d.items[i].msg);
    cs_diags_fini(&d);
    ck_assert_int_eq(st, CS_OK);
}

/* What `clustersim run` computes: step (options from the scenario), data
 * pipeline, run level. */
static void simulate(const struct cs_scenario *s, struct cs_step_result *r,
                     struct cs_data_result *dr, struct cs_run_result *run)
{
    memset(r, 0, sizeof *r);
    memset(dr, 0, sizeof *dr);
    memset(run, 0, sizeof *run);
    struct cs_step_options opt;
    cs_step_options_from_scenario(s, &opt);
    cs_diags d;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_step_simulate(&s->cluster, &s->workload, &opt, &d, r), CS_OK);
    ck_assert_int_eq(cs_data_evaluate(s, r, &d, dr), CS_OK);
    cs_data_apply(dr, r);
    struct cs_run_options ro;
    cs_run_options_default(&ro);
    ro.threads = 1;
    if (r->fits && (s->run.enabled || s->workload.tokens > 0))
        ck_assert_int_eq(cs_run_simulate(s, r, &ro, &d, run), CS_OK);
    cs_diags_fini(&d);
}

/* A step by hand: the parts add up to 2.5 s (1.8 compute + 0.2 TP + 0.1 PP
 * + 0.1 DP exposed + 0.25 bubble + 0.05 optimizer); 1,048,576 tokens per
 * step (128 x 8192) / 2.5 s = 419,430.4 tokens/s; memory 48 GB of 80 GB. */
static struct cs_step_result hand_step(void)
{
    struct cs_step_result r;
    memset(&r, 0, sizeof r);
    r.fits = true;
    r.memory = (struct cs_memory_breakdown){.weights_bytes = 10e9, .grads_bytes = 10e9,
                                            .optimizer_bytes = 20e9, .activations_bytes = 5e9,
                                            .comm_buffers_bytes = 1e9, .workspace_bytes = 2e9,
                                            .total_bytes = 48e9, .capacity_bytes = 80e9,
                                            .fits = true};
    r.microbatches = 16;
    r.critical_stage = 3;
    r.time_s = 2.5;
    r.compute_s = 1.8;
    r.host_wait_s = 0.5;
    r.host_issue_s = 1.2;
    r.tp_comm_s = 0.2;
    r.pp_comm_s = 0.1;
    r.dp_comm_s = 0.1;
    r.exposed_comm_s = 0.4;
    r.bubble_s = 0.25;
    r.optimizer_s = 0.05;
    r.data_stall_s = 0;
    r.dp_comm_total_s = 0.3;
    r.tokens_per_s = 128.0 * 8192 / 2.5;
    r.hw_flops_per_iter = 4e17;
    r.model_flops_per_iter = 3e17;
    r.tflops_per_gpu = 412.3;
    r.mfu = 0.41;
    return r;
}

/* ------------------------------------------------------------------------ */
/* run: cluster, workload, step, CSV.                                        */

static const char *const step_nullable[] = {
    /* README: values the model could not compute (no fit) are null */
    "step.time_s", "step.compute_s", "step.exposed_comm_s", "step.bubble_s", "step.tp_comm_s",
    "step.pp_comm_s", "step.dp_comm_s", "step.dp_comm_total_s", "step.optimizer_s",
    "step.data_stall_s", "step.host_wait_s", "step.host_issue_s", "throughput.tokens_per_s",
    "throughput.tflops_per_gpu", "throughput.mfu", NULL};

START_TEST(test_report_step_json_contract)
{
    struct cs_step_result r = hand_step();
    cJSON *root = cJSON_CreateObject();
    cs_out_step_json(root, &r);
    assert_json_clean(root, NULL); /* it fits: no null anywhere */
    ck_assert_double_eq(jnum(root, "step.time_s"), 2.5);
    ck_assert_double_eq(jnum(root, "step.compute_s"), 1.8);
    ck_assert_double_eq(jnum(root, "step.host_wait_s"), 0.5);
    ck_assert_double_eq(jnum(root, "step.host_issue_s"), 1.2);
    ck_assert_double_eq(jnum(root, "step.exposed_comm_s"), 0.4);
    ck_assert_double_eq(jnum(root, "step.bubble_s"), 0.25);
    ck_assert_double_eq(jnum(root, "throughput.tokens_per_s"), 419430.4);
    ck_assert_double_eq(jnum(root, "throughput.tflops_per_gpu"), 412.3);
    ck_assert_double_eq(jnum(root, "throughput.mfu"), 0.41);
    ck_assert_double_eq(jnum(root, "memory.bytes_per_gpu"), 48e9);
    ck_assert(cJSON_IsTrue(jget(root, "memory.fits")));
    ck_assert_double_eq(jnum(root, "memory.breakdown.optimizer_bytes"), 20e9);
    ck_assert_double_eq(jnum(root, "step.microbatches"), 16);
    cJSON_Delete(root);

    /* Does not fit: timings null (documented), memory still numbers. */
    r.fits = r.memory.fits = false;
    r.memory.total_bytes = 96e9;
    root = cJSON_CreateObject();
    cs_out_step_json(root, &r);
    assert_json_clean(root, step_nullable);
    ck_assert(cJSON_IsNull(jget(root, "step.time_s")));
    ck_assert(cJSON_IsNull(jget(root, "throughput.mfu")));
    ck_assert(cJSON_IsFalse(jget(root, "memory.fits")));
    ck_assert_double_eq(jnum(root, "memory.bytes_per_gpu"), 96e9);
    cJSON_Delete(root);
}
END_TEST

START_TEST(test_report_step_text_by_hand)
{
    struct cs_scenario s;
    load_scenario("scenarios/default.yaml", &s);
    struct cs_step_result r = hand_step();
    struct mem m;
    cs_out_step_text(mem_open(&m), &s, &r);
    char *t = mem_close(&m);
    assert_has(t, "Memory per GPU");
    assert_has(t, "\nStep (critical pipeline stage 3; 16 micro-batches per step)");
    assert_has(t, "\nThroughput\n");
    /* 1.8 / 2.5 = 72.0%; 0.25 / 2.5 = 10.0%; step time 2.5 s = 100%
     * (right-aligned under ">time" 6 wide and ">share" 6 wide) */
    assert_has(t, "compute (incl. recompute)   1.8 s   72.0%\n");
    assert_has(t, "pipeline bubble            250 ms   10.0%\n");
    assert_has(t, "step time                   2.5 s  100.0%\n");
    /* 48 GB of 80 GB = 60.0% */
    assert_has(t, "48 GB   60.0%");
    assert_has(t, "fits          yes (48 GB of 80 GB HBM)");
    assert_has(t, "tokens/s      419430\n");
    assert_has(t, "TFLOP/s/GPU   412.3 ");
    assert_has(t, "MFU           41.0% ");
    /* hidden DP: 0.3 - 0.1 = 0.2 s */
    assert_has(t, "DP/FSDP comm in all 300 ms (hidden behind compute: 200 ms)");
    /* 0.5 s of the 1.8 s compute waits on the host: 20.0% of the 2.5 s step */
    assert_has(t, "host-bound    500 ms of the compute time (20.0% of the step) the GPU waits on the host");
    /* 20B tokens / 419,430.4 tokens/s = 47,683.7 s = 13.2455 h */
    assert_has(t, "20B tokens in 13.25 h at this rate");
    free(t);

    /* layers and modules at another precision get their own line; none
     * for a workload without them */
    cs_out_workload_text(mem_open(&m), &s.workload);
    t = mem_close(&m);
    ck_assert_ptr_null(strstr(t, "bf16 layers"));
    free(t);
    struct cs_workload wq = s.workload;
    wq.precision = CS_PREC_FP8;
    wq.bf16_layers_end = 2;
    wq.module_precision[CS_QMOD_ATTN_PROJ] = CS_PREC_BF16 + 1;
    wq.module_precision[CS_QMOD_MLP] = CS_PREC_FP8 + 1; /* the layer's own: not listed */
    cs_out_workload_text(mem_open(&m), &wq);
    t = mem_close(&m);
    assert_has(t, "  precision     fp8; bf16 layers: first 0, last 2; modules: attn_proj bf16\n");
    free(t);

    r.fits = r.memory.fits = false;
    cs_out_step_text(mem_open(&m), &s, &r);
    t = mem_close(&m);
    assert_has(t, "fits          NO");
    assert_has(t, "does not fit in GPU memory: no step was simulated");
    ck_assert_ptr_null(strstr(t, "Throughput"));
    free(t);
    cs_scenario_fini(&s);
}
END_TEST

START_TEST(test_report_cluster_workload_json_and_text)
{
    struct cs_scenario s;
    load_scenario("scenarios/default.yaml", &s);
    cJSON *c = cs_out_cluster_json(&s);
    assert_json_clean(c, NULL);
    ck_assert_str_eq(jstr(c, "gpu"), "H100-SXM5-80GB");
    ck_assert_double_eq(jnum(c, "gpus"), 32);                 /* 4 nodes x 8 */
    ck_assert_double_eq(jnum(c, "gpu_power_w"), 32 * s.cluster.gpu.tdp_w);
    ck_assert_double_eq(jnum(c, "peak_flops_total"), 32 * jnum(c, "peak_flops_per_gpu"));
    /* 8 HDR NICs of 200 Gb/s = 8 x 25 GB/s per node; bisection 32 ports x
     * 25 GB/s / 2 (per direction, non-blocking) = 400 GB/s */
    ck_assert_double_eq(jnum(c, "fabric.link_bw_bytes_per_s"), 25e9);
    ck_assert_double_eq(jnum(c, "fabric.node_injection_bytes_per_s"), 200e9);
    ck_assert_double_eq(jnum(c, "fabric.bisection_bytes_per_s"), 400e9);
    jbool(c, "fabric.in_network_reduction");
    jstr(c, "fabric.topology");
    const cJSON *st = jget(c, "storage");
    ck_assert(cJSON_IsArray(st));
    ck_assert_int_eq(cJSON_GetArraySize(st), 3);
    cJSON_Delete(c);

    cJSON *w = cs_out_workload_json(&s.workload);
    assert_json_clean(w, NULL);
    ck_assert_double_eq(jnum(w, "model.layers"), 80);
    ck_assert_double_eq(jnum(w, "parallelism.tp"), 8);
    ck_assert_double_eq(jnum(w, "parallelism.pp"), 4);
    ck_assert_double_eq(jnum(w, "global_batch"), 128);
    ck_assert_double_eq(jnum(w, "tokens"), 20e9);
    jbool(w, "parallelism.sp");
    ck_assert_str_eq(jstr(w, "recompute"), "full");
    ck_assert_str_eq(jstr(w, "precision"), "bf16");
    cJSON_Delete(w);

    struct mem m;
    cs_out_cluster_text(mem_open(&m), &s);
    char *t = mem_close(&m);
    assert_has(t, "Cluster\n");
    assert_has(t, "GPUs          32 x H100-SXM5-80GB (4 nodes x 8)");
    assert_has(t, "bisection     400 GB/s per direction (oversubscription 1:1)");
    /* 32 x 700 W = 22.4 kW */
    assert_has(t, "GPU power     22.4 kW at TDP (700 W per GPU)");
    free(t);
    cs_out_workload_text(mem_open(&m), &s.workload);
    t = mem_close(&m);
    assert_has(t, "Workload\n");
    assert_has(t, "parallelism   tp 8, pp 4, dp 1, cp 1, vp 1, sp on, fsdp none");
    assert_has(t, "batch         128 sequences x 8192 tokens, micro-batch 1; recompute full; bf16");
    free(t);
    /* MTP: two modules, or (Nemotron 3 Super's mtp_use_repeated_layer) two
     * passes of one module whose weights are counted once */
    s.workload.model.mtp_layers = 2;
    s.workload.model.mtp_shared = false;
    double two = cs_workload_mtp_params(&s.workload.model);
    cs_out_workload_text(mem_open(&m), &s.workload);
    t = mem_close(&m);
    assert_has(t, "MTP           2 multi-token-prediction modules (");
    free(t);
    s.workload.model.mtp_shared = true;
    ck_assert_double_eq_tol(cs_workload_mtp_params(&s.workload.model), two / 2.0, 1e-6 * two);
    cs_out_workload_text(mem_open(&m), &s.workload);
    t = mem_close(&m);
    assert_has(t, "MTP           2 multi-token-prediction passes of one module (shared weights; ");
    free(t);
    cs_scenario_fini(&s);
}
END_TEST

START_TEST(test_report_run_csv)
{
    struct cs_scenario s;
    load_scenario("scenarios/default.yaml", &s);
    struct cs_step_result r = hand_step();
    struct mem m;
    FILE *f = mem_open(&m);
    cs_out_run_csv(f, &s, &r, 1);
    r.fits = r.memory.fits = false;
    cs_out_run_csv(f, &s, &r, 0);
    char *t = mem_close(&m);
    const char *const bools[] = {"fits", NULL};
    struct csv c;
    assert_csv_clean(t, bools, &c);
    ck_assert_uint_eq(c.nrows, 3);
    ck_assert_str_eq(csv_get(&c, 1, "name"), "seed004-4x8-h100-hdr");
    ck_assert_str_eq(csv_get(&c, 1, "fits"), "true");
    ck_assert_str_eq(csv_get(&c, 1, "step_time_s"), "2.5");
    ck_assert_str_eq(csv_get(&c, 1, "bubble_s"), "0.25");
    ck_assert_str_eq(csv_get(&c, 1, "tokens_per_s"), "419430"); /* %.6g of 419,430.4 */
    ck_assert_str_eq(csv_get(&c, 1, "mfu"), "0.41");
    ck_assert_str_eq(csv_get(&c, 1, "bytes_per_gpu"), "4.8e+10");
    ck_assert_str_eq(csv_get(&c, 1, "gpus"), "32");
    /* no fit: false, and the timings empty (not computed), never 0 or nan */
    ck_assert_str_eq(csv_get(&c, 2, "fits"), "false");
    ck_assert_str_eq(csv_get(&c, 2, "step_time_s"), "");
    ck_assert_str_eq(csv_get(&c, 2, "mfu"), "");
    csv_free(&c);
    free(t);

    /* A scenario name with a comma and quotes stays one field. */
    snprintf(s.name, sizeof s.name, "big \"test\", 2");
    r = hand_step();
    f = mem_open(&m);
    cs_out_run_csv(f, &s, &r, 1);
    t = mem_close(&m);
    assert_csv_clean(t, bools, &c);
    ck_assert_str_eq(csv_get(&c, 1, "name"), "big \"test\", 2");
    ck_assert_str_eq(csv_get(&c, 1, "step_time_s"), "2.5");
    csv_free(&c);
    free(t);
    cs_scenario_fini(&s);
}
END_TEST

/* The real model on the bundled scenario: the whole `run` document. */
START_TEST(test_report_run_document_default_scenario)
{
    struct cs_scenario s;
    load_scenario("scenarios/default.yaml", &s);
    struct cs_step_result r;
    struct cs_data_result dr;
    struct cs_run_result run;
    simulate(&s, &r, &dr, &run);
    ck_assert(r.fits);
    ck_assert(run.enabled);
    cJSON *root = cJSON_CreateObject();
    cJSON_AddItemToObject(root, "cluster", cs_out_cluster_json(&s));
    cJSON_AddItemToObject(root, "workload", cs_out_workload_json(&s.workload));
    cs_out_step_json(root, &r);
    cs_out_data_json(root, &dr);
    cs_out_run_level_json(root, &run);
    assert_json_clean(root, NULL);
    static const char *const nums[] = {
        "step.time_s", "step.compute_s", "step.exposed_comm_s", "step.bubble_s",
        "throughput.tokens_per_s", "throughput.tflops_per_gpu", "throughput.mfu",
        "memory.bytes_per_gpu", "run.replicas", "run.checkpoint.interval_s",
        "run.checkpoint.write_s", NULL};
    for (const char *const *k = nums; *k; k++)
        jnum(root, *k);
    jbool(root, "memory.fits");
    jdist(root, "run.time_to_train_s", "p05");
    jdist(root, "run.goodput", "p05");
    jdist(root, "run.interruptions", "p05");
    ck_assert_double_eq(jnum(root, "run.replicas"), 200); /* run.replicas in the scenario */
    /* the step's parts add up to the step */
    ck_assert_double_eq_tol(jnum(root, "step.compute_s") + jnum(root, "step.exposed_comm_s") +
                                jnum(root, "step.bubble_s") + jnum(root, "step.optimizer_s") +
                                jnum(root, "step.data_stall_s"),
                            jnum(root, "step.time_s"), 1e-9 * r.time_s);
    ck_assert_ptr_null(jget(root, "data")); /* no data: section */
    cJSON_Delete(root);

    struct mem m;
    cs_out_run_level_text(mem_open(&m), &run);
    char *t = mem_close(&m);
    assert_has(t, "run (to the token target, 200 Monte Carlo replicas");
    assert_has(t, "failures: 2 classes");
    assert_has(t, "checkpoint interval:");
    free(t);
    cs_scenario_fini(&s);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* run level and data pipeline, by hand.                                     */

static struct cs_run_result hand_run(void)
{
    struct cs_run_result r;
    memset(&r, 0, sizeof r);
    r.enabled = true;
    r.replicas = 10;
    r.completed = 10;
    r.failures = false;
    r.mtbi_s = INFINITY; /* no failures */
    r.target_s = 2 * 86400.0;
    r.time_to_train_s =
        (struct cs_run_dist){.mean = 2.5 * 86400, .p05 = 2.25 * 86400, .p95 = 3 * 86400};
    r.goodput = (struct cs_run_dist){.mean = 0.8, .p05 = 0.75, .p95 = 0.9};
    r.interruptions = (struct cs_run_dist){.mean = 3, .p05 = 1, .p95 = 5};
    r.lost_gpu_hours = (struct cs_run_dist){.mean = 100, .p05 = 50, .p95 = 150};
    r.checkpoint_overhead_s = (struct cs_run_dist){.mean = 7200, .p05 = 3600, .p95 = 10800};
    r.lost_work_s = (struct cs_run_dist){.mean = 3600, .p05 = 0, .p95 = 7200};
    r.downtime_s = (struct cs_run_dist){.mean = 1800, .p05 = 0, .p95 = 3600};
    r.tokens = (struct cs_run_dist){.mean = 1e9, .p05 = 1e9, .p95 = 1e9};
    r.ckpt.enabled = false;
    return r;
}

START_TEST(test_report_run_level_by_hand)
{
    struct cs_run_result r = hand_run();
    cJSON *root = cJSON_CreateObject();
    cs_out_run_level_json(root, &r);
    /* mtbi_s is infinite without failures: written as null */
    const char *const nullable[] = {"run.mtbi_s", NULL};
    assert_json_clean(root, nullable);
    ck_assert(cJSON_IsNull(jget(root, "run.mtbi_s")));
    ck_assert_double_eq(jnum(root, "run.time_to_train_s.mean"), 2.5 * 86400);
    ck_assert_double_eq(jnum(root, "run.goodput.p05"), 0.75);
    ck_assert_double_eq(jnum(root, "run.interruptions.p95"), 5);
    ck_assert_double_eq(jnum(root, "run.replicas"), 10);
    ck_assert_str_eq(jstr(root, "run.mode"), "tokens");
    ck_assert(cJSON_IsFalse(jget(root, "run.checkpoint.enabled")));
    ck_assert_ptr_null(jget(root, "run.checkpoint.write_s"));
    cJSON_Delete(root);

    struct mem m;
    cs_out_run_level_text(mem_open(&m), &r);
    char *t = mem_close(&m);
    assert_has(t, "run (to the token target, 10 Monte Carlo replicas, 10 completed):");
    assert_has(t, "no `failures:` section");
    assert_has(t, "failure-free time");
    /* 2.5 days [p05 2.25, p95 3]; goodput 80% [75, 90]; overhead 2 h */
    assert_has(t, "2.5 days   [p05 2.25, p95 3]");
    assert_has(t, "80 %      [p05 75, p95 90]");
    assert_has(t, "2 h      [p05 1, p95 3]");
    assert_has(t, "no `checkpoint:` section");
    free(t);

    /* Duration mode: time_to_train_s is null (docs/run.md). */
    r.duration_mode = true;
    r.time_to_train_s = (struct cs_run_dist){NAN, NAN, NAN};
    root = cJSON_CreateObject();
    cs_out_run_level_json(root, &r);
    const char *const nullable2[] = {"run.mtbi_s", "run.time_to_train_s.mean",
                                     "run.time_to_train_s.p05", "run.time_to_train_s.p95", NULL};
    assert_json_clean(root, nullable2);
    ck_assert_str_eq(jstr(root, "run.mode"), "duration");
    cJSON_Delete(root);

    /* Nothing simulated: no "run" object; one line of text. */
    r.enabled = false;
    root = cJSON_CreateObject();
    cs_out_run_level_json(root, &r);
    ck_assert_ptr_null(jget(root, "run"));
    cJSON_Delete(root);
    cs_out_run_level_text(mem_open(&m), &r);
    t = mem_close(&m);
    assert_has(t, "run: not simulated");
    free(t);
}
END_TEST

START_TEST(test_report_data_pipeline_by_hand)
{
    /* loader 45 ms (cpu 45, read 10) against 40 ms of step: stall 5 ms per
     * step, starved 5 / 45 = 11.1% */
    struct cs_data_result dr = {.enabled = true, .samples_per_rank = 4, .cpu_s = 0.045,
                                .read_s = 0.010, .gpu_s = 0, .load_s = 0.045,
                                .compute_s = 0.040, .stall_s = 0.005,
                                .starved_fraction = 0.005 / 0.045};
    cJSON *root = cJSON_CreateObject();
    cs_out_data_json(root, &dr);
    assert_json_clean(root, NULL);
    ck_assert_double_eq(jnum(root, "data.stall_s"), 0.005);
    ck_assert_double_eq(jnum(root, "data.load_s"), 0.045);
    jnum(root, "data.starved_fraction");
    cJSON_Delete(root);
    struct mem m;
    cs_out_data_text(mem_open(&m), &dr);
    char *t = mem_close(&m);
    assert_has(t, "data pipeline: load 45 ms per step (cpu 45 ms, read 10 ms");
    assert_has(t, "against 40 ms of step: stall 5 ms, GPUs starved 11.1%");
    free(t);
    dr.enabled = false;
    cs_out_data_text(mem_open(&m), &dr);
    t = mem_close(&m);
    ck_assert_uint_eq(m.len, 0);
    free(t);
}
END_TEST

START_TEST(test_report_claim_by_hand)
{
    struct cs_claim_cfg c;
    memset(&c, 0, sizeof c);
    c.enabled = true;
    snprintf(c.text, sizeof c.text, "MFU of 40%%");
    snprintf(c.source, sizeof c.source, "paper");
    c.metric = CS_CLAIM_MFU;
    c.value = 0.4;
    c.ratio = NAN;
    c.tolerance = 0.05;
    struct cs_step_result r = hand_step();
    /* 0.41 / 0.4 - 1 = +2.5%, inside 5%: supported */
    struct cs_claim_verdict v = cs_claim_judge(&c, cs_claim_metric_value(&c, &r), NAN);
    cJSON *root = cJSON_CreateObject();
    cs_out_claim_json(root, &c, &v);
    assert_json_clean(root, NULL);
    ck_assert_str_eq(jstr(root, "claim.verdict"), "supported");
    ck_assert_str_eq(jstr(root, "claim.metric"), "MFU");
    ck_assert_double_eq_tol(jnum(root, "claim.error"), 0.025, 1e-12);
    jbool(root, "claim.ratio");
    cJSON_Delete(root);
    struct mem m;
    cs_out_claim_text(mem_open(&m), &c, &v);
    char *t = mem_close(&m);
    assert_has(t, "Claim (paper): \"MFU of 40%\"");
    assert_has(t, "MFU: claimed 0.4, clustersim 0.41 (+2.5%, tolerance 5%)");
    assert_has(t, "verdict: supported");
    free(t);
    /* a ratio claim without its baseline is not evaluated: no numbers */
    c.ratio = 1.5;
    v = cs_claim_judge(&c, 0.41, NAN);
    root = cJSON_CreateObject();
    cs_out_claim_json(root, &c, &v);
    assert_json_clean(root, NULL);
    ck_assert_ptr_null(jget(root, "claim.claimed"));
    ck_assert_str_eq(jstr(root, "claim.verdict"), "not evaluated");
    cJSON_Delete(root);
}
END_TEST

/* Bounds (at_least / at_most and their ratio forms): inside is supported,
 * outside "not supported" for a value and "contradicted" for a ratio; the
 * run-level metrics read the run's means. */
START_TEST(test_report_claim_bounds)
{
    struct cs_claim_cfg c;
    memset(&c, 0, sizeof c);
    c.enabled = true;
    snprintf(c.text, sizeof c.text, "goodput above 90%%");
    c.metric = CS_CLAIM_GOODPUT;
    c.value = c.ratio = c.at_most = c.ratio_at_least = c.ratio_at_most = NAN;
    c.at_least = 0.9;
    c.tolerance = 0.15;
    struct cs_claim_verdict v = cs_claim_judge(&c, 0.95, NAN);
    ck_assert_str_eq(v.verdict, "supported");
    ck_assert(v.is_bound && !v.is_ratio);
    ck_assert_double_eq_tol(v.claimed, 0.9, 1e-12);
    ck_assert(isnan(v.error));
    v = cs_claim_judge(&c, 0.85, NAN);
    ck_assert_str_eq(v.verdict, "not supported");
    c.at_most = 0.92; /* a range [0.9, 0.92] */
    ck_assert_str_eq(cs_claim_judge(&c, 0.93, NAN).verdict, "not supported");
    ck_assert_str_eq(cs_claim_judge(&c, 0.91, NAN).verdict, "supported");
    struct mem m;
    v = cs_claim_judge(&c, 0.91, NAN);
    cs_out_claim_text(mem_open(&m), &c, &v);
    char *t = mem_close(&m);
    assert_has(t, "goodput: claimed at least 0.9 and at most 0.92, clustersim 0.91");
    free(t);
    cJSON *root = cJSON_CreateObject();
    cs_out_claim_json(root, &c, &v);
    assert_json_clean(root, NULL);
    ck_assert_double_eq_tol(jnum(root, "claim.claimed_at_least"), 0.9, 1e-12);
    ck_assert_double_eq_tol(jnum(root, "claim.claimed_at_most"), 0.92, 1e-12);
    ck_assert_ptr_null(jget(root, "claim.claimed"));
    cJSON_Delete(root);
    /* a ratio bound: 1.2 / 1.0 = 1.2 >= 1 holds; 0.9 / 1.0 does not */
    c.at_least = c.at_most = NAN;
    c.ratio_at_least = 1.0;
    c.metric = CS_CLAIM_TOKENS_PER_S;
    v = cs_claim_judge(&c, 1.2, 1.0);
    ck_assert_str_eq(v.verdict, "supported");
    ck_assert(v.is_ratio && v.is_bound);
    ck_assert_double_eq_tol(v.simulated, 1.2, 1e-12);
    ck_assert_str_eq(cs_claim_judge(&c, 0.9, 1.0).verdict, "contradicted");
    ck_assert_str_eq(cs_claim_judge(&c, 0.9, NAN).verdict, "not evaluated");
    /* run-level metrics: the run's means; NAN without a run */
    struct cs_step_result r = hand_step();
    struct cs_run_result run;
    memset(&run, 0, sizeof run);
    c.metric = CS_CLAIM_GOODPUT;
    ck_assert(isnan(cs_claim_metric_value_run(&c, &r, &run)));
    ck_assert(isnan(cs_claim_metric_value(&c, &r)));
    run.enabled = true;
    run.completed = 3;
    run.goodput.mean = 0.97;
    run.checkpoint_overhead_s.mean = 3600;
    ck_assert_double_eq_tol(cs_claim_metric_value_run(&c, &r, &run), 0.97, 1e-12);
    c.metric = CS_CLAIM_CHECKPOINT_OVERHEAD_S;
    ck_assert_double_eq_tol(cs_claim_metric_value_run(&c, &r, &run), 3600, 1e-9);
    c.metric = CS_CLAIM_MFU; /* a step metric: the step's */
    ck_assert_double_eq_tol(cs_claim_metric_value_run(&c, &r, &run), r.mfu, 1e-12);
    /* the data stall's share of the step */
    c.metric = CS_CLAIM_DATA_STALL_FRACTION;
    r.data_stall_s = 0.25 * r.time_s;
    ck_assert_double_eq_tol(cs_claim_metric_value(&c, &r), 0.25, 1e-12);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* tco.                                                                      */

struct tco_fix {
    struct cs_scenario s;
    struct cs_cost_inputs in;
    struct cs_tco_report r;
};

/* What `clustersim tco FILE` computes (app/pipeline.c's COST goal and
 * app/tco.c; run model on one thread, no Monte Carlo). */
static struct tco_fix *tco_fix(const char *rel)
{
    struct tco_fix *x = calloc(1, sizeof *x);
    ck_assert_ptr_nonnull(x);
    load_scenario(rel, &x->s);
    cs_diags d;
    cs_diags_init(&d);
    struct cs_app_eval_opts eo;
    cs_app_eval_opts_default(&eo);
    eo.goal = CS_APP_GOAL_COST;
    struct cs_app_result res;
    ck_assert_int_eq(cs_app_evaluate(&x->s, &eo, &d, &res), CS_OK);
    x->in = *res.cost_in;
    cs_app_tco_analyze(&x->s, &res, x->s.cost.ext.sensitivity, 0, &d, &x->r);
    x->r.in = &x->in; /* the fixture's copy outlives res */
    cs_app_result_fini(&res);
    cs_diags_fini(&d);
    return x;
}

static void tco_fix_free(struct tco_fix *x)
{
    cs_scenario_fini(&x->s);
    free(x);
}

static const char *const option_names[] = {"on-prem", "colocation", "cloud-on-demand",
                                           "cloud-reserved-1y", "cloud-reserved-3y",
                                           "cloud-spot", "hybrid"};

/* no crossover: "always"/"never" cheaper (README: break_even utilization) */
static const char *const tco_nullable[] = {"tco.break_even[].utilization",
                                           "tco.options[].usd_per_run", /* no run time */
                                           /* an item without a price or power figure */
                                           "tco.bom.network.items[].unit_usd",
                                           "tco.bom.network.items[].usd",
                                           "tco.bom.network.items[].unit_w",
                                           /* no rack over its cooling limit */
                                           "facility.gpu_power_cap_w", "facility.time_to_throttle_s", "facility.time_to_throttle_air_s",
                                           /* an offer without one of the prices or a
                                            * stated scale-out */
                                           "tco.offers[].reserved_1y_usd_per_gpu_hour",
                                           "tco.offers[].reserved_3y_usd_per_gpu_hour",
                                           "tco.offers[].spot_usd_per_gpu_hour",
                                           "tco.offers[].scaleout_bw_bytes_per_s",
                                           "tco.offers[].total_usd.cloud-reserved-1y",
                                           "tco.offers[].total_usd.cloud-reserved-3y",
                                           "tco.offers[].total_usd.cloud-spot",
                                           "tco.offers[].why_not", NULL};

START_TEST(test_report_tco_json_contract)
{
    struct tco_fix *x = tco_fix("scenarios/default.yaml");
    /* a Monte Carlo by hand: the same figures, on-prem always cheapest */
    x->r.has_mc = true;
    x->r.mc.samples = 100;
    for (int o = 0; o < CS_OPT_COUNT; o++) {
        x->r.mc.mean[o] = x->r.mc.p50[o] = x->r.res.opt[o].total_usd;
        x->r.mc.p05[o] = 0.9 * x->r.res.opt[o].total_usd;
        x->r.mc.p95[o] = 1.1 * x->r.res.opt[o].total_usd;
        x->r.mc.cheapest_share[o] = o == CS_OPT_ONPREM;
    }
    cJSON *root = cJSON_CreateObject();
    cs_out_tco_json(root, &x->r);
    assert_json_clean(root, tco_nullable);
    const cJSON *opts = jget(root, "tco.options");
    ck_assert(cJSON_IsArray(opts));
    ck_assert_int_eq(cJSON_GetArraySize(opts), 7);
    bool seen[7] = {false};
    const cJSON *o;
    cJSON_ArrayForEach(o, opts)
    {
        const char *name = jstr(o, "name");
        int k = 0;
        while (k < 7 && strcmp(option_names[k], name) != 0)
            k++;
        ck_assert_msg(k < 7, "unknown option name %s", name);
        ck_assert_msg(!seen[k], "option %s twice", name);
        seen[k] = true;
        double total = jnum(o, "total_usd");
        const cJSON *b = jget(o, "breakdown_usd");
        ck_assert(cJSON_IsObject(b));
        /* the five categories add up to the total; owned options add the
         * network's part of them (network_usd, inside capex and power) */
        double sum = 0;
        const cJSON *c;
        cJSON_ArrayForEach(c, b)
            if (cJSON_IsNumber(c))
                sum += c->valuedouble;
        bool owned = k == 0 || k == 1 || k == 6;
        ck_assert_int_eq(cJSON_GetArraySize(b), owned ? 6 : 5);
        ck_assert_double_eq_tol(sum, total, 1e-6 * total);
        if (owned) {
            const cJSON *nb = cJSON_GetObjectItemCaseSensitive(b, "network_usd");
            ck_assert(cJSON_IsObject(nb));
            ck_assert_int_eq(cJSON_GetArraySize(nb), 9);
            double capex_part = 0;
            cJSON_ArrayForEach(c, nb)
                if (strcmp(c->string, "power") != 0)
                    capex_part += c->valuedouble;
            ck_assert(capex_part <= jnum(b, "capex") && (k == 6 || capex_part > 0));
            ck_assert(jnum(nb, "power") <= jnum(b, "power"));
        }
        /* 32 GPUs x 3 years x 8760 h = 840,960 GPU-h; at 70%: 588,672 */
        ck_assert_double_eq(jnum(o, "gpu_hours"), 840960);
        ck_assert_double_eq_tol(jnum(o, "utilized_gpu_hours"), 588672, 1e-6);
        ck_assert_double_eq_tol(jnum(o, "usd_per_gpu_hour"), total / 840960, 1e-9 * total);
        ck_assert_double_eq_tol(jnum(o, "usd_per_utilized_gpu_hour"), total / 588672,
                                1e-9 * total);
        jnum(o, "usd_per_run"); /* 20B tokens: a run time exists */
    }
    const cJSON *be = jget(root, "tco.break_even");
    ck_assert(cJSON_IsArray(be));
    ck_assert_int_gt(cJSON_GetArraySize(be), 0);
    cJSON_ArrayForEach(o, be)
    {
        jstr(o, "owned");
        jstr(o, "cloud");
        jnum_or_null(o, "utilization");
        jstr(o, "owned_cheaper");
    }
    ck_assert_double_eq(jnum(root, "tco.years"), 3);
    ck_assert_double_eq(jnum(root, "tco.utilization"), 0.7);
    jnum(root, "tco.run.time_to_train_s");
    jnum(root, "tco.run.goodput");
    jbool(root, "tco.run.run_model");
    ck_assert_double_eq(jnum(root, "tco.monte_carlo.samples"), 100);
    cJSON_Delete(root);
    tco_fix_free(x);
}
END_TEST

START_TEST(test_report_tco_claim_json)
{
    /* a scenario with a cost claim: the verdict object; its figures are in
     * the claim's unit (listed in sibling_unit_paths) */
    struct tco_fix *x = tco_fix("scenarios/claims/cost-n11-savings.yaml");
    ck_assert(x->r.has_claim);
    cJSON *root = cJSON_CreateObject();
    cs_out_tco_json(root, &x->r);
    const char *const nullable[] = {"tco.break_even[].utilization", "tco.options[].usd_per_run",
                                    "tco.bom.network.items[].unit_usd",
                                    "tco.bom.network.items[].usd",
                                    "tco.bom.network.items[].unit_w",
                                    "facility.gpu_power_cap_w", "facility.time_to_throttle_s", "facility.time_to_throttle_air_s",
                                    /* a claim states a value or a range, not both */
                                    "tco.verdict.claimed", "tco.verdict.claimed_low",
                                    "tco.verdict.claimed_high", NULL};
    assert_json_clean(root, nullable);
    jstr(root, "tco.verdict.verdict");
    jnum(root, "tco.verdict.computed");
    cJSON_Delete(root);
    tco_fix_free(x);
}
END_TEST

START_TEST(test_report_tco_text_and_csv)
{
    struct tco_fix *x = tco_fix("scenarios/default.yaml");
    struct mem m;
    cs_out_tco_text(mem_open(&m), &x->r);
    char *t = mem_close(&m);
    assert_has(t, "TCO of 32 x H100-SXM5-80GB (4 nodes, fat-tree ib-hdr) over 3 years at 70% "
                  "utilization");
    assert_has(t, "\nBill of materials\n");
    assert_has(t, "\nOptions (totals over 3 years)\n");
    assert_has(t, "\nBreak-even utilization (owned vs cloud)\n");
    assert_has(t, "\nSensitivity:");
    assert_has(t, "\nAssumptions\n");
    for (int k = 0; k < 7; k++)
        assert_has(t, option_names[k]);
    /* on-demand $/utilized GPU-h: total / 588,672 GPU-h, 2 decimals */
    char want[64];
    const struct cs_cost_option_result *od = &x->r.res.opt[CS_OPT_ON_DEMAND];
    snprintf(want, sizeof want, "%.2f", od->total_usd / 588672);
    assert_has(t, want);
    free(t);

    FILE *f = mem_open(&m);
    cs_out_tco_csv(f, &x->r);
    t = mem_close(&m);
    struct csv c;
    assert_csv_clean(t, NULL, &c);
    ck_assert_uint_eq(c.nrows, 8); /* header + seven options */
    for (int k = 0; k < 7; k++)
        ck_assert_str_eq(csv_get(&c, (size_t)k + 1, "option"), option_names[k]);
    snprintf(want, sizeof want, "%.2f", od->total_usd);
    ck_assert_str_eq(csv_get(&c, 3, "total_usd"), want);
    snprintf(want, sizeof want, "%.6f", od->total_usd / 588672);
    ck_assert_str_eq(csv_get(&c, 3, "usd_per_utilized_gpu_hour"), want);
    /* the five categories add up to the total */
    double sum = 0;
    static const char *const cats[] = {"capex_usd", "power_usd", "site_usd", "operations_usd",
                                       "cloud_usd"};
    for (int k = 0; k < 5; k++)
        sum += strtod(csv_get(&c, 1, cats[k]), NULL);
    ck_assert_double_eq_tol(sum, strtod(csv_get(&c, 1, "total_usd"), NULL), 0.05);
    csv_free(&c);
    free(t);

    /* No run time (duration mode): usd_per_run empty, not nan. */
    for (int o = 0; o < CS_OPT_COUNT; o++)
        x->r.res.opt[o].usd_per_run = NAN;
    f = mem_open(&m);
    cs_out_tco_csv(f, &x->r);
    t = mem_close(&m);
    assert_csv_clean(t, NULL, &c);
    ck_assert_str_eq(csv_get(&c, 1, "usd_per_run"), "");
    csv_free(&c);
    free(t);
    tco_fix_free(x);
}
END_TEST

START_TEST(test_report_tco_table)
{
    /* the same workload on two clusters (N10's A100 and H100 nodes) */
    struct tco_fix *a = tco_fix("scenarios/claims/cost-n10-1x8-a100.yaml");
    struct tco_fix *b = tco_fix("scenarios/claims/cost-n10-1x8-h100.yaml");
    struct cs_tco_table_row rows[2];
    memset(rows, 0, sizeof rows);
    struct tco_fix *fx[2] = {a, b};
    for (int i = 0; i < 2; i++) {
        rows[i].s = &fx[i]->s;
        rows[i].file = i ? "h100.yaml" : "a100.yaml";
        rows[i].in = fx[i]->in;
        rows[i].res = fx[i]->r.res;
        rows[i].run = fx[i]->r.run;
    }
    cs_out_tco_table_fill(rows, 2);
    /* the baseline's relative throughput is 1 by definition */
    ck_assert_double_eq(rows[0].rel_throughput, 1);
    cJSON *root = cJSON_CreateObject();
    cs_out_tco_table_json(root, rows, 2);
    /* rows without a reference figure or price have nulls (NAN where not
     * applicable, cost_report.h); the baseline has no verdict */
    const char *const nullable[] = {
        "tco_table.rows[].reference.on_demand_usd_per_h",
        "tco_table.rows[].reference.reserved_usd_per_year",
        "tco_table.rows[].reference.owned_total_usd", "tco_table.rows[].reference.throughput",
        "tco_table.rows[].reference.relative_throughput",
        "tco_table.rows[].reference.usd_per_h_per_throughput",
        "tco_table.rows[].throughput_verdict", "tco_table.rows[].reserved_1y_usd_per_year",
        "tco_table.rows[].cloud_reserved_1y_usd_per_run",
        "tco_table.rows[].cloud_reserved_3y_usd_per_run",
        "tco_table.rows[].cloud_spot_usd_per_run", NULL};
    assert_json_clean(root, nullable);
    const cJSON *arr = jget(root, "tco_table.rows");
    ck_assert_int_eq(cJSON_GetArraySize(arr), 2);
    const cJSON *r0 = cJSON_GetArrayItem(arr, 0);
    ck_assert_str_eq(jstr(r0, "file"), "a100.yaml");
    ck_assert_double_eq(jnum(r0, "relative_throughput"), 1);
    ck_assert_double_eq(jnum(r0, "gpus"), 8);
    cJSON_Delete(root);

    struct mem m;
    FILE *f = mem_open(&m);
    cs_out_tco_table_csv(f, rows, 2);
    char *t = mem_close(&m);
    struct csv c;
    assert_csv_clean(t, NULL, &c);
    ck_assert_uint_eq(c.nrows, 3);
    ck_assert_str_eq(csv_get(&c, 1, "relative_throughput"), "1");
    ck_assert_str_eq(csv_get(&c, 1, "gpus"), "8");
    ck_assert_str_eq(csv_get(&c, 1, "scenario"), a->s.name);
    csv_free(&c);
    free(t);
    /* a scenario name with quotes and a comma stays one field */
    snprintf(a->s.name, sizeof a->s.name, "a100 \"8x\", one node");
    f = mem_open(&m);
    cs_out_tco_table_csv(f, rows, 2);
    t = mem_close(&m);
    assert_csv_clean(t, NULL, &c);
    ck_assert_str_eq(csv_get(&c, 1, "scenario"), "a100 \"8x\", one node");
    ck_assert_str_eq(csv_get(&c, 1, "gpus"), "8");
    csv_free(&c);
    free(t);

    cs_out_tco_table_text(mem_open(&m), rows, 2);
    t = mem_close(&m);
    assert_has(t, "Cost per throughput");
    assert_has(t, "baseline");
    assert_has(t, "1.00x");
    assert_has(t, a->s.name);
    assert_has(t, b->s.name);
    free(t);
    tco_fix_free(a);
    tco_fix_free(b);
}
END_TEST

static char *tmpdir(void)
{
    char tmpl[] = "/tmp/cs_check_report_XXXXXX";
    char *d = mkdtemp(tmpl);
    ck_assert_ptr_nonnull(d);
    return strdup(d);
}

static void rm_files(const char *dir, const char *const *names)
{
    char p[512];
    for (; *names; names++) {
        snprintf(p, sizeof p, "%s/%s", dir, *names);
        unlink(p);
    }
    rmdir(dir);
}

START_TEST(test_report_tco_plot_data)
{
    struct tco_fix *x = tco_fix("scenarios/default.yaml");
    char *dir = tmpdir();
    cs_diags d;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_out_tco_plot_data(dir, &x->r, &d), CS_OK);
    ck_assert_uint_eq(d.n, 0);
    cs_diags_fini(&d);
    static const char *const files[] = {"tco_bars.dat", "tco_util.dat", "tco_util_marks.dat",
                                        "tco_tornado.dat", "tco_meta.gp", NULL};
    char p[512];
    for (int i = 0; i < 4; i++) {
        snprintf(p, sizeof p, "%s/%s", dir, files[i]);
        assert_dat_clean(p);
    }
    snprintf(p, sizeof p, "%s/tco_util.dat", dir);
    char *t = slurp(p);
    /* 100 utilization rows, 1% .. 100% */
    assert_has(t, "\n0.01 ");
    assert_has(t, "\n1.00 ");
    free(t);
    snprintf(p, sizeof p, "%s/tco_meta.gp", dir);
    t = slurp(p);
    assert_has(t, "utilization = 0.700000\n");
    assert_has(t, "scenario_gpus = 32\nscenario_years = 3\n");
    ck_assert(!ci_contains(t, "nan"));
    free(t);
    /* A directory that does not exist: CS_EIO and one error whose file is
     * the first file written, tco_meta.gp. */
    char *nodir = cs_xasprintf("%s/missing", dir), *want = cs_xasprintf("%s/tco_meta.gp", nodir);
    cs_diags_init(&d);
    ck_assert_int_eq(cs_out_tco_plot_data(nodir, &x->r, &d), CS_EIO);
    ck_assert_uint_eq(d.n, 1);
    ck_assert_str_eq(d.items[0].file, want);
    ck_assert_str_eq(d.items[0].msg, strerror(ENOENT));
    cs_diags_fini(&d);
    free(want);
    free(nodir);
    rm_files(dir, files);
    free(dir);
    tco_fix_free(x);
}
END_TEST

/* cs_gnuplot_copy_template: a copy of the bundled template; a template
 * that does not exist and a destination that cannot be written each give
 * one error whose file is the path at fault. */
START_TEST(test_report_gnuplot_copy_template)
{
    setenv("CLUSTERSIM_DATA", cs_test_path("."), 1);
    char *dir = tmpdir();
    cs_diags d;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_gnuplot_copy_template(dir, "tco_bars.gp", &d), CS_OK);
    ck_assert_uint_eq(d.n, 0);
    char p[512];
    snprintf(p, sizeof p, "%s/tco_bars.gp", dir);
    char *copy = slurp(p);
    snprintf(p, sizeof p, "%s/tco_bars.gp", cs_gnuplot_template_dir());
    char *orig = slurp(p);
    ck_assert_str_eq(copy, orig);
    free(copy);
    free(orig);
    ck_assert_int_eq(cs_gnuplot_copy_template(dir, "no_such_template.gp", &d), CS_EIO);
    ck_assert_uint_eq(d.n, 1);
    snprintf(p, sizeof p, "%s/no_such_template.gp", cs_gnuplot_template_dir());
    ck_assert_str_eq(d.items[0].file, p);
    ck_assert_str_eq(d.items[0].msg, strerror(ENOENT));
    cs_diags_fini(&d);
    cs_diags_init(&d);
    char *nodir = cs_xasprintf("%s/missing", dir);
    ck_assert_int_eq(cs_gnuplot_copy_template(nodir, "tco_bars.gp", &d), CS_EIO);
    ck_assert_uint_eq(d.n, 1);
    snprintf(p, sizeof p, "%s/tco_bars.gp", nodir);
    ck_assert_str_eq(d.items[0].file, p);
    ck_assert_str_eq(d.items[0].msg, strerror(ENOENT));
    cs_diags_fini(&d);
    free(nodir);
    static const char *const files[] = {"tco_bars.gp", NULL};
    rm_files(dir, files);
    free(dir);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* replay.                                                                   */

/* One GPU, FIFO (check_replay.c: test_replay_one_gpu_fifo_running_sums):
 * starts 0, 10, 30, 100; queue 0, 10, 30, 0 (mean 10); JCT 10, 30, 60, 5
 * (mean 26.25); makespan 105 s; busy 65 of 105 GPU-s. */
static void replay_fix(struct cs_trace *t, struct cs_sched_config *c, struct cs_sched_result *r)
{
    const char *csv = "job_id,submit_s,gpus,duration_s\na,0,1,10\nb,0,1,20\nc,0,1,30\nd,100,1,5\n";
    cs_diags d;
    cs_diags_init(&d);
    cs_trace_init(t);
    ck_assert_int_eq(cs_trace_load_buffer("t.csv", csv, strlen(csv), NULL, t, &d), CS_OK);
    cs_sched_config_default(c);
    c->n_groups = 1;
    snprintf(c->groups[0].gpu_type, sizeof c->groups[0].gpu_type, "H100-SXM5-80GB");
    c->groups[0].nodes = 1;
    c->groups[0].gpus_per_node = 1;
    ck_assert_int_eq(cs_sched_run(c, t, &d, r), CS_OK);
    cs_diags_fini(&d);
}

START_TEST(test_report_replay_json_contract)
{
    struct cs_trace t;
    struct cs_sched_config c;
    struct cs_sched_result r;
    replay_fix(&t, &c, &r);
    cJSON *o = cs_out_replay_json(&c, &t, &r);
    cJSON *root = cJSON_CreateObject();
    cJSON_AddItemToObject(root, "replay", o);
    assert_json_clean(root, NULL);
    ck_assert_double_eq(jnum(root, "replay.jobs"), 4);
    ck_assert_double_eq_tol(jnum(root, "replay.makespan_s"), 105, 1e-9);
    ck_assert_double_eq_tol(jnum(root, "replay.utilization"), 65.0 / 105, 1e-9);
    jdist(root, "replay.queue_s", "p50");
    jdist(root, "replay.jct_s", "p50");
    ck_assert_double_eq_tol(jnum(root, "replay.queue_s.mean"), 10, 1e-9);
    ck_assert_double_eq_tol(jnum(root, "replay.jct_s.mean"), 26.25, 1e-9);
    ck_assert_str_eq(jstr(root, "replay.policy"), "fifo");
    jbool(root, "replay.mig");
    ck_assert_double_eq(jnum(root, "replay.trace.jobs"), 4);
    ck_assert(cJSON_IsArray(jget(root, "replay.partitions")));
    cJSON_Delete(root);
    cs_sched_result_fini(&r);
    cs_trace_fini(&t);
}
END_TEST

START_TEST(test_report_replay_text_csv_plot)
{
    struct cs_trace t;
    struct cs_sched_config c;
    struct cs_sched_result r;
    replay_fix(&t, &c, &r);
    struct mem m;
    cs_out_replay_text(mem_open(&m), &c, &t, &r);
    char *s = mem_close(&m);
    assert_has(s, "trace t.csv (");
    assert_has(s, "\nreplay\n");
    assert_has(s, "jobs completed / rejected             4 / 0");
    /* times in the unit their size calls for: 105 s = 1.75 min */
    assert_has(s, "makespan                       1.75 min (105 s)");
    /* 65 / 105 = 61.90% */
    assert_has(s, "utilization (allocated)           61.90 %");
    /* queue 0, 0, 10, 30: mean 10, p50 (type 7, h = 1.5) 5, p95 (h = 2.85)
     * 10 + 0.85 x 20 = 27; JCT 5, 10, 30, 60: mean 26.25, p50 20, p95
     * 30 + 0.85 x 30 = 55.5 */
    assert_has(s, "queueing delay                     10 s          5 s         27 s");
    assert_has(s, "job completion time             26.25 s         20 s       55.5 s");
    free(s);

    FILE *f = mem_open(&m);
    cs_out_replay_csv(f, &c, &t, &r, 1);
    s = mem_close(&m);
    const char *const bools[] = {"mig", NULL};
    struct csv cv;
    assert_csv_clean(s, bools, &cv);
    ck_assert_uint_eq(cv.nrows, 2);
    ck_assert_str_eq(csv_get(&cv, 1, "makespan_s"), "105.000");
    ck_assert_str_eq(csv_get(&cv, 1, "utilization"), "0.619048");
    ck_assert_str_eq(csv_get(&cv, 1, "queue_mean_s"), "10.000");
    ck_assert_str_eq(csv_get(&cv, 1, "jct_mean_s"), "26.250");
    ck_assert_str_eq(csv_get(&cv, 1, "mig"), "false");
    ck_assert_str_eq(csv_get(&cv, 1, "trace"), "t.csv");
    csv_free(&cv);
    free(s);
    /* a trace path with a comma stays one field */
    free(t.file);
    t.file = strdup("runs,2024/t.csv");
    f = mem_open(&m);
    cs_out_replay_csv(f, &c, &t, &r, 1);
    s = mem_close(&m);
    assert_csv_clean(s, bools, &cv);
    ck_assert_str_eq(csv_get(&cv, 1, "trace"), "runs,2024/t.csv");
    ck_assert_str_eq(csv_get(&cv, 1, "makespan_s"), "105.000");
    csv_free(&cv);
    free(s);

    char *dir = tmpdir();
    cs_diags d;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_out_replay_plot_data(dir, &c, &r, &d), CS_OK);
    ck_assert_uint_eq(d.n, 0);
    cs_diags_fini(&d);
    char p[512];
    snprintf(p, sizeof p, "%s/replay_util.dat", dir);
    assert_dat_clean(p);
    snprintf(p, sizeof p, "%s/replay_jct.dat", dir);
    assert_dat_clean(p);
    s = slurp(p);
    /* JCT CDF: 5, 10, 30, 60 s in hours, 1/4 .. 4/4 */
    assert_has(s, "0.001389 0.250000\n");
    assert_has(s, "0.016667 1.000000\n");
    free(s);
    /* A directory that does not exist: one error naming replay_util.dat. */
    char *nodir = cs_xasprintf("%s/missing", dir), *want = cs_xasprintf("%s/replay_util.dat", nodir);
    cs_diags_init(&d);
    ck_assert_int_eq(cs_out_replay_plot_data(nodir, &c, &r, &d), CS_EIO);
    ck_assert_uint_eq(d.n, 1);
    ck_assert_str_eq(d.items[0].file, want);
    ck_assert_str_eq(d.items[0].msg, strerror(ENOENT));
    cs_diags_fini(&d);
    free(want);
    free(nodir);
    static const char *const files[] = {"replay_util.dat", "replay_jct.dat", NULL};
    rm_files(dir, files);
    free(dir);
    cs_sched_result_fini(&r);
    cs_trace_fini(&t);
}
END_TEST

/* The breakdowns in JSON and text (models/replay_stats.h), on the
 * fixture above: four 1-GPU jobs (size class "1"), no users or
 * partitions. Queue 0, 0, 10, 30: p95 27; JCT p95 55.5 (as above). The
 * no-wait window runs from 0 to d's end at 100 + 5 = 105 s: 65 GPU-s /
 * 105 s = 0.619 GPUs on 1, no warning (utilization 61.9%). */
START_TEST(test_report_replay_breakdown_json)
{
    struct cs_trace t;
    struct cs_sched_config c;
    struct cs_sched_result r;
    const char *csv = "job_id,submit_s,gpus,duration_s\na,0,1,10\nb,0,1,20\nc,0,1,30\nd,100,1,5\n";
    cs_diags d;
    cs_diags_init(&d);
    cs_trace_init(&t);
    ck_assert_int_eq(cs_trace_load_buffer("t.csv", csv, strlen(csv), NULL, &t, &d), CS_OK);
    cs_sched_config_default(&c);
    c.n_groups = 1;
    snprintf(c.groups[0].gpu_type, sizeof c.groups[0].gpu_type, "H100-SXM5-80GB");
    c.groups[0].nodes = 1;
    c.groups[0].gpus_per_node = 1;
    c.keep_times = true;
    ck_assert_int_eq(cs_sched_run(&c, &t, &d, &r), CS_OK);
    cs_diags_fini(&d);
    struct cs_replay_stats st;
    ck_assert_int_eq(cs_replay_stats_compute(&c, &t, &r, 10, &st), CS_OK);
    cJSON *o = cs_out_replay_json(&c, &t, &r);
    cs_out_replay_stats_json(o, &st);
    cJSON *root = cJSON_CreateObject();
    cJSON_AddItemToObject(root, "replay", o);
    /* the empty size classes have no queueing or JCT: null */
    static const char *const nullable[] = {
        "replay.by_size[].queue_s.mean", "replay.by_size[].queue_s.p50", "replay.by_size[].queue_s.p95",
        "replay.by_size[].jct_s.mean",   "replay.by_size[].jct_s.p50",   "replay.by_size[].jct_s.p95", NULL};
    assert_json_clean(root, nullable);
    const cJSON *bs = jget(root, "replay.by_size");
    ck_assert(cJSON_IsArray(bs));
    ck_assert_int_eq(cJSON_GetArraySize(bs), 6);
    const cJSON *one = cJSON_GetArrayItem(bs, 1);
    ck_assert_str_eq(jstr(one, "name"), "1");
    ck_assert_double_eq(jnum(one, "jobs"), 4);
    ck_assert_double_eq(jnum(one, "completed"), 4);
    ck_assert_double_eq(jnum(one, "rejected"), 0);
    ck_assert_double_eq_tol(jnum(one, "gpu_hours"), 65.0 / 3600, 1e-12);
    ck_assert_double_eq_tol(jnum(one, "share"), 1, 1e-12);
    ck_assert_double_eq_tol(jnum(one, "queue_s.p95"), 27, 1e-9);
    ck_assert_double_eq_tol(jnum(one, "jct_s.p95"), 55.5, 1e-9);
    ck_assert(cJSON_IsNull(jget(cJSON_GetArrayItem(bs, 0), "queue_s.mean")));
    const cJSON *bu = jget(root, "replay.by_user");
    ck_assert_int_eq(cJSON_GetArraySize(bu), 1);
    ck_assert_str_eq(jstr(cJSON_GetArrayItem(bu, 0), "name"), "(none)");
    ck_assert_str_eq(jstr(root, "replay.by_partition_source"), "trace");
    ck_assert_int_eq(cJSON_GetArraySize(jget(root, "replay.by_partition")), 1);
    ck_assert_double_eq_tol(jnum(root, "replay.demand.gpu_hours"), 65.0 / 3600, 1e-12);
    ck_assert_double_eq_tol(jnum(root, "replay.demand.span_s"), 100, 1e-12);
    ck_assert_double_eq_tol(jnum(root, "replay.demand.window_s"), 105, 1e-12);
    ck_assert_double_eq_tol(jnum(root, "replay.demand.gpus"), 65.0 / 105, 1e-12);
    ck_assert_double_eq_tol(jnum(root, "replay.demand.offered_load"), 65.0 / 105, 1e-12);
    ck_assert_double_eq(jnum(root, "replay.demand.capacity_gpus"), 1);
    ck_assert_double_eq(jnum(root, "replay.demand.largest_job_gpus"), 1);
    ck_assert_double_eq(jnum(root, "replay.demand.jobs_larger_than_cluster"), 0);
    ck_assert(cJSON_IsArray(jget(root, "replay.warnings")));
    ck_assert_int_eq(cJSON_GetArraySize(jget(root, "replay.warnings")), 0);
    cJSON_Delete(root);

    struct mem m;
    cs_out_replay_breakdown_text(mem_open(&m), &st);
    char *s = mem_close(&m);
    assert_has(s, "  no-wait window                 1.75 min (first submission to the last end");
    assert_has(s, "GPUs needed on average              0.6 over the no-wait window, against 1 GPUs: offered "
                  "load 0.619");
    /* size 1: 4 jobs, 0.02 GPU-hours, 100%, queue 10 s / 5 s / 27 s, JCT 26.25 s / 20 s / 55.5 s */
    assert_has(s, "  1                         4        0         0.02  100.0%        10 s         5 s        27 s"
                  "     26.25 s        20 s      55.5 s\n");
    assert_has(s, "by user: no job of the trace names a user\n");
    ck_assert_ptr_null(strstr(s, "warnings"));
    free(s);

    /* the figures' data */
    char *dir = tmpdir();
    cs_diags_init(&d);
    ck_assert_int_eq(cs_out_replay_stats_plot_data(dir, &r, &t, &st, &d), CS_OK);
    ck_assert_uint_eq(d.n, 0);
    cs_diags_fini(&d);
    char p[512];
    snprintf(p, sizeof p, "%s/replay_size_cdf.dat", dir);
    s = slurp(p);
    /* one block (class "1"): its title, the CDF's 0, then 1/4 .. 4/4 with
     * queueing 0, 0, 10, 30 and JCT 5, 10, 30, 60 */
    assert_has(s, "\"1 GPU, 4 jobs\" queue_s jct_s\n0.000000 0.000 5.000\n0.250000 0.000 5.000\n");
    assert_has(s, "1.000000 30.000 60.000\n");
    free(s);
    snprintf(p, sizeof p, "%s/replay_timeline.dat", dir);
    s = slurp(p);
    assert_has(s, "# time_h capacity_gpus allocated_gpus busy_gpus allocated_plus_waiting_gpus trace_demand_gpus\n");
    free(s);
    static const char *const files[] = {"replay_timeline.dat", "replay_size_cdf.dat", NULL};
    rm_files(dir, files);
    free(dir);
    cs_replay_stats_fini(&st);
    cs_sched_result_fini(&r);
    cs_trace_fini(&t);
}
END_TEST

/* A trace of which nothing can run (a 2-GPU job on one GPU): the queue
 * and JCT statistics of no completed job are undefined. Neither JSON nor
 * CSV may carry a NaN; in CSV they are empty fields (README: a value the
 * model could not compute is an empty field). */
START_TEST(test_report_replay_nothing_completed)
{
    const char *csv = "job_id,submit_s,gpus,duration_s\na,0,2,10\n";
    struct cs_trace t;
    struct cs_sched_config c;
    struct cs_sched_result r;
    cs_diags d;
    cs_diags_init(&d);
    cs_trace_init(&t);
    ck_assert_int_eq(cs_trace_load_buffer("t.csv", csv, strlen(csv), NULL, &t, &d), CS_OK);
    cs_sched_config_default(&c);
    c.n_groups = 1;
    snprintf(c.groups[0].gpu_type, sizeof c.groups[0].gpu_type, "H100-SXM5-80GB");
    c.groups[0].nodes = 1;
    c.groups[0].gpus_per_node = 1;
    ck_assert_int_eq(cs_sched_run(&c, &t, &d, &r), CS_OK);
    cs_diags_fini(&d);
    ck_assert_int_eq(r.completed, 0);
    ck_assert_int_eq(r.rejected, 1);
    cJSON *root = cJSON_CreateObject();
    cJSON_AddItemToObject(root, "replay", cs_out_replay_json(&c, &t, &r));
    /* No job completed: the queue and JCT statistics are undefined, so
     * null (README: null, never a made-up number), not 0. */
    static const char *const undefined[] = {"replay.queue_s.mean", "replay.queue_s.p50", "replay.queue_s.p95",
                                            "replay.jct_s.mean",   "replay.jct_s.p50",   "replay.jct_s.p95",
                                            NULL};
    assert_json_clean(root, undefined);
    for (int i = 0; undefined[i]; i++) {
        const cJSON *x = root;
        char key[64];
        snprintf(key, sizeof key, "%s", undefined[i]);
        for (char *tok = strtok(key, "."); tok; tok = strtok(NULL, "."))
            x = cJSON_GetObjectItemCaseSensitive(x, tok);
        ck_assert_msg(cJSON_IsNull(x), "%s should be null", undefined[i]);
    }
    cJSON_Delete(root);
    struct mem m;
    FILE *f = mem_open(&m);
    cs_out_replay_csv(f, &c, &t, &r, 1);
    char *s = mem_close(&m);
    const char *const bools[] = {"mig", NULL};
    struct csv cv;
    assert_csv_clean(s, bools, &cv);
    ck_assert_str_eq(csv_get(&cv, 1, "completed"), "0");
    ck_assert_str_eq(csv_get(&cv, 1, "rejected"), "1");
    ck_assert_str_eq(csv_get(&cv, 1, "queue_mean_s"), "");
    ck_assert_str_eq(csv_get(&cv, 1, "jct_p95_s"), "");
    csv_free(&cv);
    free(s);
    cs_sched_result_fini(&r);
    cs_trace_fini(&t);
}
END_TEST

START_TEST(test_report_replay_claim)
{
    struct cs_scn_scheduler cl;
    memset(&cl, 0, sizeof cl);
    snprintf(cl.claim_id, sizeof cl.claim_id, "N19");
    snprintf(cl.claim_text, sizeof cl.claim_text, "quotas hold");
    cl.claim_tolerance = 0.05;
    struct cs_sched_config c;
    cs_sched_config_default(&c);
    struct cs_sched_result r;
    memset(&r, 0, sizeof r);
    r.gpus = 8;
    r.n_parts = 3;
    r.parts[0] = (struct cs_sched_part_result){"a", 0.4, 1, 1, 0.43, 0, 0};
    r.parts[1] = (struct cs_sched_part_result){"b", 0.6, 1, 1, 0.57, 0, 0};
    r.parts[2] = (struct cs_sched_part_result){"(none)", NAN, 0, 0, 0, 0, 0};
    cJSON *o = cs_out_replay_claim_json(&cl, &c, &r, NULL, NULL);
    cJSON *root = cJSON_CreateObject();
    cJSON_AddItemToObject(root, "claim", o);
    assert_json_clean(root, NULL);
    ck_assert(cJSON_IsTrue(jget(root, "claim.holds"))); /* |0.43 - 0.40| = 0.03 <= 0.05 */
    ck_assert_str_eq(jstr(root, "claim.compare"), "none");
    ck_assert_str_eq(jstr(root, "claim.id"), "N19");
    assert_has(jstr(root, "claim.verdict"), "a 43.0% (quota 40%)");
    ck_assert_double_eq(jnum(root, "claim.tolerance"), 0.05);
    cJSON_Delete(root);

    /* mig: 90/100 busy with MIG, 80/100 without: +12.5% > 5%; "other" */
    cl.claim_compare = CS_SCN_COMPARE_MIG;
    c.mig = true;
    struct cs_sched_config c2 = c;
    c2.mig = false;
    struct cs_sched_result r2 = r;
    r.busy_gpu_h = 90;
    r.allocated_gpu_h = 100;
    r2.busy_gpu_h = 80;
    r2.allocated_gpu_h = 100;
    r.utilization = 0.9;
    r2.utilization = 0.8;
    root = cJSON_CreateObject();
    cJSON_AddItemToObject(root, "claim", cs_out_replay_claim_json(&cl, &c, &r, &c2, &r2));
    assert_json_clean(root, NULL);
    ck_assert(cJSON_IsTrue(jget(root, "claim.holds")));
    ck_assert_double_eq(jnum(root, "claim.other.utilization"), 0.8);
    jdist(root, "claim.other.queue_s", "p50");
    cJSON_Delete(root);
    struct mem m;
    cs_out_replay_claim_text(mem_open(&m), &cl, &c, &r, &c2, &r2, 4);
    char *t = mem_close(&m);
    assert_has(t, "claim N19: quotas hold");
    assert_has(t, "MIG (7 slices)");
    assert_has(t, "no MIG");
    assert_has(t, "+12.5% relative");
    free(t);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* calibration, tables, HTML.                                                */

START_TEST(test_report_calib_writers)
{
    struct cs_calib_overlay o;
    memset(&o, 0, sizeof o);
    snprintf(o.date, sizeof o.date, "2025-01-02T03:04:05Z");
    struct cs_calib_input in = {.kind = "nccl", .file = "log.txt", .skipped_rows = 2};
    memset(in.sha256, 'a', 64);
    o.n_inputs = 1;
    o.inputs = &in;
    o.cal.intra_efficiency = NAN;
    o.cal.net_efficiency = 0.9;
    o.cal.nvls_efficiency = NAN;
    o.cal.launch_floor_s = 5e-6;
    o.cal.gemm_eff_max = o.cal.gemm_dim_half = o.cal.compute_scale = o.cal.overlap_slowdown = NAN;
    /* one curve fit, 3 points: errors +2%, -2%, +2% -> MAPE 2%, max 2% */
    struct cs_calib_point pts[3] = {{"1 MB", 1e6, 50, 51, 0.02},
                                    {"16 MB", 16e6, 100, 98, -0.02},
                                    {"256 MB", 256e6, 150, 153, 0.02}};
    struct cs_calib_fit fits[2];
    memset(fits, 0, sizeof fits);
    snprintf(fits[0].kind, sizeof fits[0].kind, "curve");
    snprintf(fits[0].name, sizeof fits[0].name, "all_reduce ring 8 ranks");
    snprintf(fits[0].unit, sizeof fits[0].unit, "GB/s");
    fits[0].ok = true;
    fits[0].n_params = 1;
    snprintf(fits[0].param_names[0], sizeof fits[0].param_names[0], "busbw_GBps");
    fits[0].params[0] = 152.5;
    fits[0].n = 3;
    fits[0].pts = pts;
    fits[0].mape = fits[0].max_err = fits[0].rms = 0.02;
    snprintf(fits[1].kind, sizeof fits[1].kind, "gemm");
    snprintf(fits[1].name, sizeof fits[1].name, "gemm efficiency");
    fits[1].ok = false;
    snprintf(fits[1].msg, sizeof fits[1].msg, "too few shapes");
    o.n_fits = 2;
    o.fits = fits;

    struct mem m;
    ck_assert(cs_calib_write_overlay(mem_open(&m), &o));
    char *t = mem_close(&m);
    assert_has(t, "calibration:\n  date: \"2025-01-02T03:04:05Z\"\n");
    assert_has(t, "skipped_rows: 2}");
    assert_has(t, "    net_efficiency: 0.9\n");
    assert_has(t, "    launch_floor: 5e-06s\n"); /* the unit written with the value */
    ck_assert_ptr_null(strstr(t, "intra_efficiency"));  /* NAN: not fitted, not written */
    assert_has(t, "curve_0: {points: 3, mape: 0.02000, max_error: 0.02000, rms: 0.02000}");
    assert_has(t, "gemm_1: {points: 0, refused: \"too few shapes\"}");
    ck_assert(!ci_contains(t, "nan"));
    free(t);

    ck_assert(cs_calib_write_report(mem_open(&m), &o, true));
    t = mem_close(&m);
    assert_has(t, "clustersim calibrate: 1 input file, 2025-01-02T03:04:05Z\n");
    assert_has(t, "(2 malformed rows skipped)");
    assert_has(t, "\n[curve] all_reduce ring 8 ranks\n");
    assert_has(t, "busbw_GBps         152.5\n");
    assert_has(t, "-2.0%");
    assert_has(t, "residuals (GB/s): MAPE 2.00%, max 2.00%, RMS 2.00% over 3 points");
    assert_has(t, "\n[gemm] gemm efficiency\n  too few shapes\n");
    free(t);

    ck_assert(cs_calib_write_plot_data(mem_open(&m), &o));
    t = mem_close(&m);
    struct probs pr;
    ck_assert_msg(dat_problems(t, &pr) == 0, "%s", pr.text);
    assert_has(t, "# size_bytes measured_busbw_gbps fitted_busbw_gbps\n");
    assert_has(t, "16000000 100 98\n");
    free(t);

    ck_assert(cs_calib_write_plot_script(mem_open(&m), &o, "it's.dat", "out.png"));
    t = mem_close(&m);
    assert_has(t, "set output 'out.png'");
    /* a quote in a file name doubled inside the gnuplot string */
    assert_has(t, "'it''s.dat' index 0 using 1:2");
    assert_has(t, "(MAPE 2.0%)");
    free(t);
}
END_TEST

START_TEST(test_report_table_layout)
{
    /* widths: column 1 max(1, 3, 1) = 3, column 2 (right) max(2, 1, 2) = 2;
     * the rule is 3 + 2 + 2 = 7 dashes; the last left column is not padded */
    const char *const h[] = {"a", ">bb"};
    cs_table *t = cs_table_create(2, h);
    const char *const r1[] = {"xyz", "1"};
    cs_table_add_row(t, r1);
    cs_table_add_rowf(t, "%s\t%d", "q", 22);
    struct mem m;
    cs_table_write(t, mem_open(&m), 2);
    char *s = mem_close(&m);
    ck_assert_str_eq(s, "  a    bb\n  -------\n  xyz   1\n  q    22\n");
    free(s);
    cs_table_destroy(t);
}
END_TEST

START_TEST(test_report_html_json_table)
{
    cJSON *root = cJSON_Parse("{\"a\": {\"b\": 1.5, \"c\": [true, \"<x>\"]}, \"n\": null}");
    ck_assert_ptr_nonnull(root);
    struct mem m;
    FILE *f = mem_open(&m);
    cs_html_begin(f, "T <1>");
    cs_html_heading(f, 2, "H & h");
    cs_html_para(f, "p");
    cs_html_json_table(f, root);
    cs_html_end(f);
    char *s = mem_close(&m);
    assert_has(s, "<title>T &lt;1&gt;</title>");
    assert_has(s, "<h2>H &amp; h</h2>");
    assert_has(s, "<tr><td>a.b</td><td class=\"n\">1.5</td></tr>");
    assert_has(s, "<tr><td>a.c[0]</td><td>true</td></tr>");
    assert_has(s, "<tr><td>a.c[1]</td><td>&lt;x&gt;</td></tr>");
    assert_has(s, "<tr><td>n</td><td>null</td></tr>");
    assert_has(s, "</body>\n</html>\n");
    free(s);
    cJSON_Delete(root);
}
END_TEST

static Suite *report_suite(void)
{
    Suite *s = suite_create("report");
    TCase *tc = tcase_create("checkers");
    tcase_add_test(tc, test_checker_json_catches_problems);
    tcase_add_test(tc, test_checker_csv_catches_problems);
    suite_add_tcase(s, tc);
    tc = tcase_create("run");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_report_step_json_contract);
    tcase_add_test(tc, test_report_step_text_by_hand);
    tcase_add_test(tc, test_report_cluster_workload_json_and_text);
    tcase_add_test(tc, test_report_run_csv);
    tcase_add_test(tc, test_report_run_document_default_scenario);
    tcase_add_test(tc, test_report_run_level_by_hand);
    tcase_add_test(tc, test_report_data_pipeline_by_hand);
    tcase_add_test(tc, test_report_claim_by_hand);
    tcase_add_test(tc, test_report_claim_bounds);
    suite_add_tcase(s, tc);
    tc = tcase_create("tco");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_report_tco_json_contract);
    tcase_add_test(tc, test_report_tco_claim_json);
    tcase_add_test(tc, test_report_tco_text_and_csv);
    tcase_add_test(tc, test_report_tco_table);
    tcase_add_test(tc, test_report_tco_plot_data);
    tcase_add_test(tc, test_report_gnuplot_copy_template);
    suite_add_tcase(s, tc);
    tc = tcase_create("replay");
    tcase_add_test(tc, test_report_replay_json_contract);
    tcase_add_test(tc, test_report_replay_text_csv_plot);
    tcase_add_test(tc, test_report_replay_breakdown_json);
    tcase_add_test(tc, test_report_replay_nothing_completed);
    tcase_add_test(tc, test_report_replay_claim);
    suite_add_tcase(s, tc);
    tc = tcase_create("other");
    tcase_add_test(tc, test_report_calib_writers);
    tcase_add_test(tc, test_report_table_layout);
    tcase_add_test(tc, test_report_html_json_table);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return cs_test_run(report_suite());
}
