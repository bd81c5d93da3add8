/* cmd_report.c: `clustersim report run|compare|sweep|tco|plan|replay`: a
 * self-contained HTML page (report/html.c, report/html_pages.c) of one
 * run, a comparison of scenarios, a sweep directory, a TCO, a plan or a
 * trace replay: a summary in words, tables, inline SVG figures, the
 * assumptions, the inputs' SHA-256, the version and the date; --pdf prints
 * it with headless Chromium. tco, plan and replay run the command itself
 * in-process (its own option parsing and JSON writer, into a temporary
 * directory) and build the page from that JSON, so the page and
 * `clustersim CMD --format json` cannot disagree. */
#define _DEFAULT_SOURCE /* realpath, mkdtemp */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include "clustersim/config/fileio.h"
#include "clustersim/report/html.h"
#include "clustersim/report/html_pages.h"
#include "clustersim/report/numfmt.h"
#include "clustersim/base/sha256.h"
#include "clustersim/report/run_report.h"
#include "clustersim/report/run_level.h"
#include "clustersim/app/pipeline.h"
#include "clustersim/app/sweep_run.h"
#include "clustersim/config/sweep.h"
#include "clustersim/report/sweep_plot.h"
#include "clustersim/base/xmalloc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The report's own options first (CS__OWN_OPTS of them), then the options
 * it passes to the command it reports (tco, plan, replay), by name. */
static const struct cs_cli_opt cs__report_opts[] = {
    {"output", 'o', "DIR", "write DIR/report.html (default: the page on stdout)"},
    {"pdf", 0, "FILE", "also print the page to FILE (PDF, A4) with headless Chromium; without -o "
                       "the HTML is not printed"},
    {"date", 0, "DATE", "the date on the page, YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS]Z, UTC (default: "
                        "$SOURCE_DATE_EPOCH, else now)"},
    CS_CLI_OPT_CATALOG,
    CS_CLI_OPT_SET,
    {"sensitivity", 0, "STEP", "tco: relative step of the sensitivity table"},
    {"samples", 0, "N", "tco: Monte Carlo samples over cost.ranges"},
    {"only-priced", 0, NULL, "tco: leave out the options whose prices are missing"},
    {"uncertainty", 0, NULL, "tco, plan: as the command's --uncertainty (tco: adds the Monte Carlo "
                             "tornado)"},
    {"no-run-model", 0, NULL, "tco: cost per run from the step model alone"},
    {"jobs", 'j', "N", "plan: evaluate N candidates at once"},
    {"replicas", 0, "N", "plan: run-model replicas per candidate"},
    {"all", 0, NULL, "plan: also list every candidate cluster"},
    {"cluster", 'c', "FILE", "replay: the scenario whose cluster replays the trace"},
    {"nodes", 0, "FILE", "replay: a node list instead"},
    {"policy", 'p', "POL", "replay: fifo, backfill or sjf"},
    {"placement", 0, "PL", "replay: packed, scattered or bestfit"},
    {"trace-format", 0, "FMT", "replay: the trace's format (default auto)"},
    {"from", 0, "TIME", "replay: keep jobs submitted at or after TIME"},
    {"to", 0, "TIME", "replay: keep jobs submitted before TIME"},
    {"limit", 0, "N", "replay: keep at most N jobs"},
    {"partitions", 0, "LIST", "replay: partition quotas"},
    {"mig", 0, NULL, "replay: fractional-GPU jobs take MIG slices"},
    {"preempt", 0, NULL, "replay: a blocked job preempts lower-priority ones"},
    {"nodes-per-leaf", 0, "N", "replay: nodes under one leaf switch"},
    {"backfill-depth", 0, "N", "replay: queued jobs examined per pass"},
    {"bins", 0, "N", "replay: utilization timeline bins"},
    {"seed", 0, "N", "replay: seed of the scattered placement"},
};
#define CS__NOPTS (int)(sizeof cs__report_opts / sizeof cs__report_opts[0])
#define CS__OWN_OPTS 5

/* The date on the page: --date, else $SOURCE_DATE_EPOCH (reproducible
 * builds' convention, seconds since 1970 UTC), else now. False after
 * printing why. */
static bool cs__page_date(const char *opt, char *buf, size_t n)
{
    if (opt) {
        /* YYYY-MM-DD, YYYY-MM-DDTHH:MM or YYYY-MM-DDTHH:MM:SS, then an optional Z */
        static const char *const shapes[] = {"dddd-dd-dd", "dddd-dd-ddTdd:dd", "dddd-dd-ddTdd:dd:dd"};
        size_t len = strlen(opt), body = len > 10 && opt[len - 1] == 'Z' ? len - 1 : len;
        bool shaped = false;
        for (size_t k = 0; k < 3 && !shaped; k++) {
            const char *sh = shapes[k];
            shaped = strlen(sh) == body && (k > 0 || body == len);
            for (size_t i = 0; shaped && i < body; i++)
                shaped = sh[i] == 'd' ? opt[i] >= '0' && opt[i] <= '9' : opt[i] == sh[i];
        }
        int y = 0, mo = 0, d = 0, h = 0, mi = 0, sec = 0;
        if (shaped)
            sscanf(opt, "%4d-%2d-%2d", &y, &mo, &d);
        if (shaped && body > 10)
            sscanf(opt + 11, "%2d:%2d", &h, &mi);
        if (shaped && body > 16)
            sscanf(opt + 17, "%2d", &sec);
        static const int mdays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
        if (!shaped || y < 1970 || mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] || h > 23 ||
            mi > 59 || sec > 60) {
            fprintf(stderr, "clustersim report: --date: expected YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS]Z "
                            "(UTC), got \"%s\"\n", opt);
            return false;
        }
        if (body == 10)
            snprintf(buf, n, "%04d-%02d-%02d", y, mo, d);
        else
            snprintf(buf, n, "%04d-%02d-%02d %02d:%02d UTC", y, mo, d, h, mi);
        return true;
    }
    time_t now = time(NULL);
    const char *sde = getenv("SOURCE_DATE_EPOCH");
    if (sde && *sde) {
        char *end = NULL;
        errno = 0;
        long long v = strtoll(sde, &end, 10);
        if (errno || !end || *end || v < 0 || sde[0] < '0' || sde[0] > '9') {
            fprintf(stderr, "clustersim report: SOURCE_DATE_EPOCH: expected seconds since 1970 UTC, "
                            "got \"%s\"\n", sde);
            return false;
        }
        now = (time_t)v;
    }
    struct tm tm;
    if (!gmtime_r(&now, &tm) || !strftime(buf, n, "%Y-%m-%d %H:%M UTC", &tm))
        snprintf(buf, n, "?");
    return true;
}

/* SHA-256 of a file's bytes as stored (hex; a .gz file's compressed bytes,
 * what sha256sum prints), or "unreadable". */
static void cs__file_sha(const char *path, char hex[65])
{
    FILE *in = path ? fopen(path, "rb") : NULL;
    size_t cap = 1 << 16, n = 0, k;
    char *b = in ? cs_xmalloc(cap) : NULL;
    while (in && (k = fread(b + n, 1, cap - n, in)) > 0) {
        n += k;
        if (n == cap) {
            cap *= 2;
            b = cs_xrealloc(b, cap, 1);
        }
    }
    if (!in || ferror(in))
        snprintf(hex, 65, "unreadable");
    else
        cs_sha256_hex(b, n, hex);
    if (in)
        fclose(in);
    free(b);
}

/* The command line the page reproduces: `clustersim report KIND`, the
 * options given, the positional arguments. Heap string. */
static char *cs__command_line(const struct cs_cli_args *a)
{
    char *s = cs_xasprintf("clustersim report %s", a->npos ? a->pos[0] : "");
    for (int i = 0; i < CS__NOPTS; i++) {
        const struct cs_cli_opt *o = &cs__report_opts[i];
        if (!a->values[i] || !strcmp(o->lng, "set") || !strcmp(o->lng, "output") ||
            !strcmp(o->lng, "pdf") || !strcmp(o->lng, "date"))
            continue;
        char *t = o->metavar ? cs_xasprintf("%s --%s %s", s, o->lng, a->values[i])
                             : cs_xasprintf("%s --%s", s, o->lng);
        free(s);
        s = t;
    }
    for (int i = 0; i < a->nsets; i++) {
        char *t = cs_xasprintf("%s --set %s", s, a->sets[i]);
        free(s);
        s = t;
    }
    for (int i = 1; i < a->npos; i++) {
        char *t = cs_xasprintf("%s %s", s, a->pos[i]);
        free(s);
        s = t;
    }
    return s;
}

/* Removes every file in dir, then dir (the command's outputs). */
static void cs__rm_tmpdir(const char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d))) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                continue;
            char *p = cs_xasprintf("%s/%s", dir, e->d_name);
            unlink(p);
            free(p);
        }
        closedir(d);
    }
    rmdir(dir);
}

/* Runs `clustersim SUB --format json -o TMP [--no-plots]` in-process with
 * the report's pass-through options and positional arguments, and parses
 * TMP/JSON_NAME. NULL after the command's or our message; *rc its exit
 * code. */
static cJSON *cs__sub_json(const struct cs_cli_cmd *rep, const struct cs_cli_args *a,
                           const struct cs_cli_cmd *sub, const char *json_name, int *rc)
{
    for (int i = CS__OWN_OPTS; i < CS__NOPTS; i++) {
        if (!a->values[i])
            continue;
        bool has = false;
        for (int j = 0; j < sub->nopts && !has; j++)
            has = !strcmp(sub->opts[j].lng, rep->opts[i].lng);
        if (!has) {
            fprintf(stderr, "clustersim report: --%s is not an option of `clustersim %s` (see "
                            "'clustersim help report')\n", rep->opts[i].lng, sub->name);
            *rc = CS_EXIT_BADINPUT;
            return NULL;
        }
    }
    char tmpl[] = "/tmp/clustersim-report.XXXXXX";
    char *tmp = mkdtemp(tmpl);
    if (!tmp) {
        fprintf(stderr, "clustersim report: cannot make a temporary directory: %s\n", strerror(errno));
        *rc = CS_EXIT_FAIL;
        return NULL;
    }
    struct cs_cli_args sa;
    memset(&sa, 0, sizeof sa);
    for (int j = 0; j < sub->nopts && j < (int)(sizeof sa.values / sizeof sa.values[0]); j++) {
        const char *nm = sub->opts[j].lng;
        if (!strcmp(nm, "format"))
            sa.values[j] = "json";
        else if (!strcmp(nm, "output"))
            sa.values[j] = tmp;
        else if (!strcmp(nm, "no-plots"))
            sa.values[j] = "1";
        else
            for (int i = 0; i < rep->nopts; i++)
                if (!strcmp(rep->opts[i].lng, nm))
                    sa.values[j] = a->values[i];
    }
    for (int i = 1; i < a->npos; i++)
        sa.pos[sa.npos++] = a->pos[i];
    for (int i = 0; i < a->nsets; i++)
        sa.sets[sa.nsets++] = a->sets[i];
    cs_cli_out_quiet(true); /* its files are ours, in tmp */
    *rc = sub->fn(sub, &sa);
    cs_cli_out_quiet(false);
    cJSON *doc = NULL;
    if (*rc == CS_EXIT_OK) {
        char *path = cs_xasprintf("%s/%s", tmp, json_name);
        char *b = NULL;
        size_t n = 0;
        char why[256];
        if (cs_file_slurp_why(path, (size_t)1 << 30, &b, &n, why, sizeof why) == CS_OK)
            doc = cJSON_Parse(b);
        free(b);
        free(path);
        if (!cJSON_IsObject(doc)) {
            fprintf(stderr, "clustersim report: `clustersim %s --format json` wrote no JSON document\n",
                    sub->name);
            cJSON_Delete(doc);
            doc = NULL;
            *rc = CS_EXIT_FAIL;
        }
    }
    cs__rm_tmpdir(tmp);
    return doc;
}

/* The browser for --pdf: $CLUSTERSIM_CHROMIUM, else chromium,
 * chromium-browser or google-chrome on PATH. Heap path or NULL. */
static char *cs__find_chromium(void)
{
    const char *env = getenv("CLUSTERSIM_CHROMIUM");
    if (env && *env)
        return access(env, X_OK) == 0 ? cs_xstrdup(env) : NULL;
    static const char *const names[] = {"chromium", "chromium-browser", "google-chrome"};
    const char *path = getenv("PATH");
    if (!path || !*path)
        path = "/usr/local/bin:/usr/bin:/bin";
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        for (const char *p = path; *p;) {
            size_t l = strcspn(p, ":");
            char *c = cs_xasprintf("%.*s/%s", (int)l, p, names[k]);
            if (l > 0 && access(c, X_OK) == 0)
                return c;
            free(c);
            p += l;
            if (*p)
                p++;
        }
    }
    return NULL;
}

/* Prints the HTML file `html` to the PDF `pdf` with headless Chromium
 * (fork + execv, no shell), into a temporary directory first, then copied
 * to pdf atomically. False after printing why. */
static bool cs__print_pdf(const char *html, const char *pdf)
{
    char *chrome = cs__find_chromium();
    if (!chrome) {
        fprintf(stderr, "clustersim report: --pdf: no Chromium found (chromium, chromium-browser or "
                        "google-chrome on PATH, or $CLUSTERSIM_CHROMIUM); install it (Debian: apt-get "
                        "install chromium, or make deps-extra) or open the HTML and print it\n");
        return false;
    }
    char absin[PATH_MAX];
    if (!realpath(html, absin)) {
        fprintf(stderr, "clustersim report: --pdf: %s: %s\n", html, strerror(errno));
        free(chrome);
        return false;
    }
    char tmpl[] = "/tmp/clustersim-pdf.XXXXXX";
    char *tmp = mkdtemp(tmpl);
    if (!tmp) {
        fprintf(stderr, "clustersim report: --pdf: cannot make a temporary directory: %s\n",
                strerror(errno));
        free(chrome);
        return false;
    }
    char *out = cs_xasprintf("%s/page.pdf", tmp);
    char *a_out = cs_xasprintf("--print-to-pdf=%s", out);
    char *a_prof = cs_xasprintf("--user-data-dir=%s/profile", tmp);
    char *a_url = cs_xasprintf("file://%s", absin);
    char *argv[] = {chrome, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                    "--disable-background-networking", "--disable-component-update", "--disable-sync",
                    "--no-pdf-header-footer", a_prof, a_out, a_url, NULL};
    fflush(NULL);
    pid_t pid = fork();
    int status = -1;
    if (pid == 0) {
        int dn = open("/dev/null", O_RDWR);
        if (dn >= 0) {
            dup2(dn, 0);
            dup2(dn, 1);
            dup2(dn, 2);
        }
        execv(chrome, argv);
        _exit(127);
    }
    if (pid > 0)
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
            ;
    bool ok = false;
    char *b = NULL;
    size_t n = 0;
    char why[256];
    if (pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
        cs_file_slurp_why(out, (size_t)1 << 30, &b, &n, why, sizeof why) == CS_OK && n > 4 &&
        !memcmp(b, "%PDF", 4)) {
        /* DIR/NAME of pdf, written atomically */
        char *dir = cs_xstrdup(pdf);
        char *slash = strrchr(dir, '/');
        const char *name = pdf;
        if (slash) {
            *slash = '\0';
            name = slash + 1;
        }
        struct cs_cli_out o;
        if (cs_cli_out_open(&o, slash ? (*dir ? dir : "/") : ".", name)) {
            fwrite(b, 1, n, o.fp);
            ok = cs_cli_out_close(&o, !ferror(o.fp));
        }
        free(dir);
    } else {
        fprintf(stderr, "clustersim report: --pdf: %s did not print %s (exit status %d)\n", chrome,
                html, pid > 0 && WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    }
    free(b);
    unlink(out);
    char *prof = cs_xasprintf("%s/profile", tmp);
    char *rmv[] = {"rm", "-rf", prof, NULL};
    pid_t rp = fork(); /* Chromium's profile is a tree: rm -rf, no shell */
    if (rp == 0) {
        int dn = open("/dev/null", O_RDWR);
        if (dn >= 0)
            dup2(dn, 2);
        execvp("rm", rmv);
        _exit(127);
    }
    if (rp > 0)
        while (waitpid(rp, NULL, 0) < 0 && errno == EINTR)
            ;
    rmdir(tmp);
    free(prof);
    free(out);
    free(a_out);
    free(a_prof);
    free(a_url);
    free(chrome);
    return ok;
}

/* A scenario (YAML) evaluated like `clustersim run --format json`, or a
 * JSON file written by it. NULL after printing why. */
static cJSON *cs__run_json(const char *path, const char *catalog, const struct cs_cli_args *a,
                           int *rc, char sha[65])
{
    /* Read once (standard input cannot be read twice), then sniff. */
    char *b = NULL;
    size_t n = 0;
    char why[256];
    if (cs_file_slurp_why(path, (size_t)64 << 20, &b, &n, why, sizeof why) != CS_OK) {
        fprintf(stderr, "clustersim report: %s: cannot read: %s\n", cs_path_display(path), why);
        *rc = CS_EXIT_BADINPUT;
        return NULL;
    }
    cs_sha256_hex(b, n, sha);
    size_t i0 = 0;
    while (i0 < n && (b[i0] == ' ' || b[i0] == '\n' || b[i0] == '\t' || b[i0] == '\r'))
        i0++;
    if (i0 < n && b[i0] == '{') { /* run JSON */
        cJSON *o = cJSON_Parse(b);
        free(b);
        if (!cJSON_IsObject(o)) {
            fprintf(stderr, "clustersim report: %s: expected the JSON of `clustersim run "
                            "--format json` or a scenario YAML\n", cs_path_display(path));
            cJSON_Delete(o);
            *rc = CS_EXIT_BADINPUT;
            return NULL;
        }
        return o;
    }
    struct cs_cli_scenario sc;
    *rc = cs_cli_load_scenario_buffer(cs_path_display(path), b, n, catalog, a, &sc);
    free(b);
    if (*rc != CS_EXIT_OK)
        return NULL;
    const struct cs_scenario *s = &sc.scenario;
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "scenario", s->name);
    cJSON_AddStringToObject(root, "file", path);
    cJSON_AddItemToObject(root, "cluster", cs_out_cluster_json(s));
    if (s->has_workload) {
        /* As `clustersim run` evaluates it (app/pipeline.c). */
        struct cs_app_eval_opts eo;
        cs_app_eval_opts_default(&eo);
        eo.threads = 2;
        eo.quiet_nofit = true;
        struct cs_app_result res;
        cs_status st = cs_cli_evaluate(s, path, &eo, &res);
        if (st != CS_OK && st != CS_ENOFIT) {
            cs_app_result_fini(&res);
            cJSON_Delete(root);
            cs_cli_scenario_fini(&sc);
            *rc = cs_cli_exit_for(st);
            return NULL;
        }
        cJSON_AddItemToObject(root, "workload", cs_out_workload_json(&s->workload));
        cs_out_step_json(root, &res.step);
        cs_out_data_json(root, &res.data);
        cs_out_run_level_json(root, &res.run);
        cs_app_result_fini(&res);
    }
    cs_cli_scenario_fini(&sc);
    return root;
}

static double cs__jnum(const cJSON *root, const char *a, const char *b)
{
    const cJSON *o = cJSON_GetObjectItemCaseSensitive(root, a);
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, b);
    if (cJSON_IsObject(v)) /* {mean, p05, p95} */
        v = cJSON_GetObjectItemCaseSensitive(v, "mean");
    if (cJSON_IsBool(v))
        return cJSON_IsTrue(v) ? 1 : 0;
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static const char *cs__jstr(const cJSON *root, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, k);
    return cJSON_IsString(v) ? v->valuestring : "?";
}

/* Headline rows: label, JSON object, key, unit. */
static const struct {
    const char *label, *obj, *key;
    enum cs_html_unit unit;
} cs__head[] = {
    {"step time", "step", "time_s", CS_HU_SECONDS},
    {"compute", "step", "compute_s", CS_HU_SECONDS},
    {"exposed communication", "step", "exposed_comm_s", CS_HU_SECONDS},
    {"pipeline bubble", "step", "bubble_s", CS_HU_SECONDS},
    {"data stall", "step", "data_stall_s", CS_HU_SECONDS},
    {"tokens/s", "throughput", "tokens_per_s", CS_HU_COUNT},
    {"TFLOP/s per GPU", "throughput", "tflops_per_gpu", CS_HU_NUM},
    {"MFU", "throughput", "mfu", CS_HU_PCT},
    {"memory per GPU", "memory", "bytes_per_gpu", CS_HU_BYTES},
    {"HBM per GPU", "memory", "capacity_bytes", CS_HU_BYTES},
    {"time to train (mean)", "run", "time_to_train_s", CS_HU_SECONDS},
    {"goodput (mean)", "run", "goodput", CS_HU_PCT},
    {"interruptions (mean)", "run", "interruptions", CS_HU_NUM},
};
#define CS__NHEAD (sizeof cs__head / sizeof cs__head[0])

/* Headline table with one value column per document. */
static void cs__summary(FILE *f, cJSON *const *docs, size_t n)
{
    size_t ncols = n + 1;
    const char **head = cs_xcalloc(ncols, sizeof *head);
    char (*cells)[48] = cs_xcalloc(CS__NHEAD * ncols, sizeof *cells);
    const char **cp = cs_xcalloc(CS__NHEAD * ncols, sizeof *cp);
    head[0] = "figure";
    for (size_t j = 0; j < n; j++)
        head[j + 1] = cs__jstr(docs[j], "scenario");
    for (size_t i = 0; i < CS__NHEAD; i++) {
        cp[i * ncols] = cs__head[i].label;
        for (size_t j = 0; j < n; j++) {
            double v = cs__jnum(docs[j], cs__head[i].obj, cs__head[i].key);
            if (isfinite(v))
                cs_html_unit_format(cs__head[i].unit, v, cells[i * ncols + j + 1], sizeof cells[0]);
            else
                snprintf(cells[i * ncols + j + 1], sizeof cells[0], "n/a");
            cp[i * ncols + j + 1] = cells[i * ncols + j + 1];
        }
    }
    cs_html_table(f, ncols, head, CS__NHEAD, cp);
    free(cp);
    free(cells);
    free(head);
}

/* A figure of document `doc` (index `di` on a comparison page: data-doc). */
static void cs__v(FILE *f, const cJSON *doc, int di, const char *path, enum cs_html_unit u)
{
    if (di >= 0)
        fprintf(f, "<span data-doc=\"%d\">", di);
    cs_html_jvalue(f, doc, path, u);
    if (di >= 0)
        fputs("</span>", f);
}

/* The run page's summary in words. */
static void cs__words_run(FILE *f, const cJSON *doc)
{
    fputs("<p class=\"summary\" id=\"summary\">", f);
    cs_html_escape(f, cs__jstr(doc, "scenario"));
    if (!cs_html_json_at(doc, "step")) {
        fputs(" has no workload: only its cluster is described below.</p>\n", f);
        return;
    }
    fputs(": one training step takes ", f);
    cs_html_jvalue(f, doc, "step.time_s", CS_HU_SECONDS);
    fputs(" (", f);
    cs_html_jvalue(f, doc, "step.compute_s", CS_HU_SECONDS);
    fputs(" compute, ", f);
    cs_html_jvalue(f, doc, "step.exposed_comm_s", CS_HU_SECONDS);
    fputs(" exposed communication, ", f);
    cs_html_jvalue(f, doc, "step.bubble_s", CS_HU_SECONDS);
    fputs(" pipeline bubble, ", f);
    cs_html_jvalue(f, doc, "step.data_stall_s", CS_HU_SECONDS);
    fputs(" data stall): ", f);
    cs_html_jvalue(f, doc, "throughput.tokens_per_s", CS_HU_COUNT);
    fputs(" tokens/s at ", f);
    cs_html_jvalue(f, doc, "throughput.mfu", CS_HU_PCT);
    fputs(" model FLOPs utilization. Each GPU holds ", f);
    cs_html_jvalue(f, doc, "memory.bytes_per_gpu", CS_HU_BYTES);
    fputs(" of its ", f);
    cs_html_jvalue(f, doc, "memory.capacity_bytes", CS_HU_BYTES);
    fputs(cJSON_IsTrue(cs_html_json_at(doc, "memory.fits")) ? " (it fits)."
                                                              : " (<b>it does not fit</b>).",
          f);
    if (cJSON_IsNumber(cs_html_json_at(doc, "run.time_to_train_s.mean"))) {
        fputs(" Training ", f);
        cs_html_jvalue(f, doc, "workload.tokens", CS_HU_COUNT);
        fputs(" tokens takes ", f);
        cs_html_jvalue(f, doc, "run.time_to_train_s.mean", CS_HU_SECONDS);
        fputs(" on average (", f);
        cs_html_jvalue(f, doc, "run.time_to_train_s.p95", CS_HU_SECONDS);
        fputs(" at p95) with failures and checkpoints: a goodput of ", f);
        cs_html_jvalue(f, doc, "run.goodput.mean", CS_HU_PCT);
        fputs(" and ", f);
        cs_html_jvalue(f, doc, "run.interruptions.mean", CS_HU_NUM);
        fputs(" interruptions on average.", f);
    }
    fputs("</p>\n", f);
}

/* The comparison's summary: the highest and lowest throughput, by how much. */
static void cs__words_compare(FILE *f, cJSON *const *docs, size_t n)
{
    fputs("<p class=\"summary\" id=\"summary\">", f);
    size_t hi = (size_t)-1, lo = (size_t)-1;
    for (size_t i = 0; i < n; i++) {
        double v = cs_html_json_num(docs[i], "throughput.tokens_per_s");
        if (!isfinite(v))
            continue;
        if (hi == (size_t)-1 || v > cs_html_json_num(docs[hi], "throughput.tokens_per_s"))
            hi = i;
        if (lo == (size_t)-1 || v < cs_html_json_num(docs[lo], "throughput.tokens_per_s"))
            lo = i;
    }
    if (hi == (size_t)-1) {
        fprintf(f, "None of the %zu scenarios has a workload to compare.</p>\n", n);
        return;
    }
    fprintf(f, "Of the %zu scenarios, <b>", n);
    cs_html_escape(f, cs__jstr(docs[hi], "scenario"));
    fputs("</b> has the highest throughput, ", f);
    cs__v(f, docs[hi], (int)hi, "throughput.tokens_per_s", CS_HU_COUNT);
    fputs(" tokens/s (step ", f);
    cs__v(f, docs[hi], (int)hi, "step.time_s", CS_HU_SECONDS);
    fputs(", MFU ", f);
    cs__v(f, docs[hi], (int)hi, "throughput.mfu", CS_HU_PCT);
    fputs(")", f);
    if (lo != hi) {
        fputs("; ", f);
        cs_html_escape(f, cs__jstr(docs[lo], "scenario"));
        fputs(" the lowest, ", f);
        cs__v(f, docs[lo], (int)lo, "throughput.tokens_per_s", CS_HU_COUNT);
        char r[64];
        cs_fmt_sig(cs_html_json_num(docs[hi], "throughput.tokens_per_s") /
                       cs_html_json_num(docs[lo], "throughput.tokens_per_s"), 3, r, sizeof r);
        fprintf(f, " tokens/s (%s times lower)", r);
    }
    fputs(".", f);
    for (size_t i = 0; i < n; i++)
        if (cJSON_IsFalse(cs_html_json_at(docs[i], "memory.fits"))) {
            fputs(" ", f);
            cs_html_escape(f, cs__jstr(docs[i], "scenario"));
            fputs(" does not fit in memory.", f);
        }
    fputs("</p>\n", f);
}

static void cs__figures_run(FILE *f, const cJSON *doc)
{
    const char *labels[] = {"compute", "exposed communication", "pipeline bubble", "data stall"};
    double v[] = {cs__jnum(doc, "step", "compute_s"), cs__jnum(doc, "step", "exposed_comm_s"),
                  cs__jnum(doc, "step", "bubble_s"), cs__jnum(doc, "step", "data_stall_s")};
    cs_html_svg_bars(f, "Step time breakdown", "s", 4, labels, v);
}

static void cs__figures_compare(FILE *f, cJSON *const *docs, size_t n)
{
    const char **labels = cs_xcalloc(n, sizeof *labels);
    double *v = cs_xcalloc(n, sizeof *v);
    static const char *const what[][4] = {
        {"Throughput", "tokens/s", "throughput", "tokens_per_s"},
        {"Step time", "s", "step", "time_s"},
        {"Model FLOPs utilization", "%", "throughput", "mfu"},
    };
    for (size_t w = 0; w < 3; w++) {
        for (size_t j = 0; j < n; j++) {
            labels[j] = cs__jstr(docs[j], "scenario");
            v[j] = cs__jnum(docs[j], what[w][2], what[w][3]) * (w == 2 ? 100 : 1);
        }
        cs_html_svg_bars(f, what[w][0], what[w][1], n, labels, v);
    }
    free(v);
    free(labels);
}

/* " (axis = v, axis = v)" of row i: where a point lies. */
static void cs__sweep_where(FILE *f, const struct cs_sweep_results *r, size_t i)
{
    fputs(" (", f);
    for (size_t v = 0; v < r->naxes; v++) {
        const char *c = cs_sweep_results_get(r, i, r->cols[4 + v]);
        if (v)
            fputs(", ", f);
        cs_html_escape(f, r->cols[4 + v]);
        fputs(" = ", f);
        char *end = NULL;
        double x = c ? strtod(c, &end) : NAN;
        char b[64];
        cs_html_escape(f, end && !*end && isfinite(x) ? cs_fmt_auto(r->cols[4 + v], x, b, sizeof b)
                                                      : c ? c : "?");
    }
    fputs(")", f);
}

/* The sweep's extremes in words: the highest and lowest tokens/s per GPU,
 * and the lowest cost per utilized GPU-hour of each ownership column. */
static void cs__sweep_words(FILE *f, const struct cs_sweep_results *r)
{
    static const char *const what[][3] = {
        {"tokens_per_s_per_gpu", "the highest throughput per GPU", "tokens/s"},
        {"tco.on-prem.usd_per_utilized_gpu_hour", "the cheapest on-prem GPU-hour", "per utilized GPU-hour"},
        {"tco.cloud-on-demand.usd_per_utilized_gpu_hour", "the cheapest on-demand GPU-hour",
         "per utilized GPU-hour"},
    };
    for (size_t w = 0; w < sizeof what / sizeof what[0]; w++) {
        if (cs_sweep_results_col(r, what[w][0]) == (size_t)-1)
            continue;
        bool high = w == 0;
        size_t best = (size_t)-1, worst = (size_t)-1;
        double bv = NAN, wv = NAN;
        for (size_t i = 0; i < r->nrows; i++) {
            const char *st = cs_sweep_results_get(r, i, "status");
            const char *c = cs_sweep_results_get(r, i, what[w][0]);
            char *end = NULL;
            double x = c ? strtod(c, &end) : NAN;
            if (!st || strcmp(st, "ok") || !end || *end || !isfinite(x))
                continue;
            if (best == (size_t)-1 || (high ? x > bv : x < bv))
                best = i, bv = x;
            if (worst == (size_t)-1 || (high ? x < wv : x > wv))
                worst = i, wv = x;
        }
        if (best == (size_t)-1)
            continue;
        char b[64];
        if (fabs(bv - wv) <= 1e-9 * fabs(bv)) { /* no extreme to name */
            fputs(w == 0 ? " Throughput per GPU is " : w == 1 ? " The on-prem GPU-hour costs "
                                                               : " The on-demand GPU-hour costs ", f);
            cs_html_escape(f, w == 0 ? cs_fmt_sig(bv, 4, b, sizeof b) : cs_fmt_usd(bv, b, sizeof b));
            fputs(w == 0 ? " tokens/s at every point that ran." : " at every point that ran.", f);
            continue;
        }
        fputs(" ", f);
        fputs(w == 0 ? "The highest throughput per GPU is " : "The cheapest ", f);
        if (w > 0) {
            cs_html_escape(f, w == 1 ? "on-prem" : "on-demand");
            fputs(" GPU-hour is ", f);
        }
        cs_html_escape(f, w == 0 ? cs_fmt_sig(bv, 4, b, sizeof b) : cs_fmt_usd(bv, b, sizeof b));
        fprintf(f, " %s at point %s", w == 0 ? "tokens/s" : "per utilized GPU-hour",
                cs_sweep_results_get(r, best, "point") ? cs_sweep_results_get(r, best, "point") : "?");
        cs__sweep_where(f, r, best);
        if (worst != best) {
            fputs(w == 0 ? ", the lowest " : ", the dearest ", f);
            cs_html_escape(f, w == 0 ? cs_fmt_sig(wv, 4, b, sizeof b) : cs_fmt_usd(wv, b, sizeof b));
            fprintf(f, " at point %s", cs_sweep_results_get(r, worst, "point")
                                           ? cs_sweep_results_get(r, worst, "point")
                                           : "?");
            cs__sweep_where(f, r, worst);
        }
        fputs(".", f);
    }
}

/* The sweep page: figures rendered by gnuplot into a temporary directory
 * and inlined, then the rows. */
static int cs__sweep_page(FILE *f, const char *dir, const struct cs_html_meta *m)
{
    struct cs_sweep_results r;
    cs_diags d;
    cs_diags_init(&d);
    cs_status st = cs_sweep_results_load(dir, &r, &d);
    if (st != CS_OK) {
        cs_cli_print_diags_prefixed(&d, "clustersim report");
        cs_diags_fini(&d);
        return CS_EXIT_BADINPUT; /* not a (readable) sweep directory */
    }
    char *title = cs_xasprintf("clustersim sweep: %s", dir);
    cs_html_begin(f, title);
    cs_html_heading(f, 1, title);
    free(title);
    cs_html_meta(f, m);
    size_t ok = 0;
    for (size_t i = 0; i < r.nrows; i++) {
        const char *s = cs_sweep_results_get(&r, i, "status");
        ok += s && !strcmp(s, "ok");
    }
    char line[256];
    size_t nd = r.nvars - r.naxes;
    snprintf(line, sizeof line, "%zu point%s in the results, %zu ok; %zu ax%s, %zu derived value%s.",
             r.nrows, r.nrows == 1 ? "" : "s", ok, r.naxes, r.naxes == 1 ? "is" : "es", nd,
             nd == 1 ? "" : "s");
    fputs("<p class=\"summary\" id=\"summary\">", f);
    cs_html_escape(f, line);
    cs__sweep_words(f, &r);
    fputs("</p>\n", f);
    char tmpl[] = "/tmp/clustersim-report.XXXXXX";
    char *tmp = mkdtemp(tmpl);
    bool made[CS_SWEEP_FIG_COUNT] = {false}, rendered[CS_SWEEP_FIG_COUNT] = {false};
    bool no_gp = false;
    if (!tmp)
        fprintf(stderr, "clustersim report: warning: no temporary directory: no figures\n");
    else if (cs_sweep_plot_render(&r, tmp, made, rendered, &no_gp, &d) != CS_OK)
        for (size_t i = 0; i < d.n; i++) {
            char *s = cs_cli_diag_plain(&d.items[i]);
            fprintf(stderr, "clustersim report: warning: %s: no figures\n", s);
            free(s);
        }
    cs_diags_fini(&d);
    if (no_gp) {
        fprintf(stderr, "clustersim report: warning: gnuplot not found: the page has no figures\n");
        cs_html_para(f, "gnuplot was not installed when this page was made: no figures.");
    }
    for (int g = 0; g < CS_SWEEP_FIG_COUNT; g++) {
        if (!rendered[g])
            continue;
        cs_html_heading(f, 2, cs_sweep_fig_title((enum cs_sweep_fig)g));
        char *svg = cs_xasprintf("%s/%s.svg", tmp, cs_sweep_fig_name((enum cs_sweep_fig)g));
        if (!cs_html_svg_file(f, svg))
            fprintf(stderr, "clustersim report: warning: %s: cannot inline\n", svg);
        free(svg);
    }
    if (tmp) { /* remove what the figures left */
        for (int g = 0; g < CS_SWEEP_FIG_COUNT; g++) {
            static const char *const ext[] = {"dat", "gp", "png", "svg"};
            for (int e = 0; e < 4; e++) {
                char *p = cs_xasprintf("%s/%s.%s", tmp, cs_sweep_fig_name((enum cs_sweep_fig)g),
                                       ext[e]);
                unlink(p);
                free(p);
            }
        }
        rmdir(tmp);
    }
    /* Results: point, status, reason, variables, then the main outputs. */
    static const char *const outs[] = {"gpus", "step_time_s", "tokens_per_s_per_gpu", "mfu",
                                       "run.goodput", "tco.on-prem.usd_per_utilized_gpu_hour",
                                       "tco.cloud-on-demand.usd_per_utilized_gpu_hour"};
    const char *cols[CS_SWEEP_MAX_AXES * 2 + 16];
    size_t nc = 0;
    cols[nc++] = "point";
    cols[nc++] = "status";
    cols[nc++] = "reason";
    for (size_t v = 0; v < r.nvars && nc < CS_SWEEP_MAX_AXES * 2 + 3; v++)
        cols[nc++] = r.cols[4 + v];
    for (size_t o = 0; o < sizeof outs / sizeof outs[0]; o++)
        if (cs_sweep_results_col(&r, outs[o]) != (size_t)-1)
            cols[nc++] = outs[o];
    cs_html_heading(f, 2, "Results");
    const char **cells = cs_xcalloc(r.nrows * nc + 1, sizeof *cells);
    char (*fmt)[48] = cs_xcalloc(r.nrows * nc + 1, sizeof *fmt);
    for (size_t i = 0; i < r.nrows; i++)
        for (size_t c = 0; c < nc; c++) {
            /* numbers with the unit their column's name says (step_time_s: "4.62 s") */
            const char *v = cs_sweep_results_get(&r, i, cols[c]);
            char *end = NULL;
            double x = v && *v ? strtod(v, &end) : NAN;
            if (c > 0 && end && !*end && isfinite(x)) {
                cs_fmt_auto(cols[c], x, fmt[i * nc + c], sizeof fmt[0]);
                v = fmt[i * nc + c];
            }
            cells[i * nc + c] = v;
        }
    cs_html_table(f, nc, cols, r.nrows, cells);
    free(fmt);
    free(cells);
    cs_html_end(f);
    cs_sweep_results_fini(&r);
    return CS_EXIT_OK;
}

static int cs__report(const struct cs_cli_cmd *cmd, const struct cs_cli_args *a)
{
    const char *kind = a->npos > 0 ? a->pos[0] : "";
    bool run = !strcmp(kind, "run"), cmp = !strcmp(kind, "compare"), sw = !strcmp(kind, "sweep");
    bool tco = !strcmp(kind, "tco"), plan = !strcmp(kind, "plan"), rep = !strcmp(kind, "replay");
    if (!(run || cmp || sw || tco || plan || rep) || (!cmp && a->npos != 2) || (cmp && a->npos < 3)) {
        fprintf(stderr, "clustersim report: expected `run FILE`, `compare A B...`, `sweep DIR`, "
                        "`tco FILE`, `plan FILE` or `replay TRACE --cluster FILE` (see 'clustersim "
                        "help report')\n");
        return CS_EXIT_BADINPUT;
    }
    char date[64];
    if (!cs__page_date(cs_cli_get(cmd, a, "date"), date, sizeof date))
        return CS_EXIT_BADINPUT;
    if (run || cmp || sw)
        for (int i = CS__OWN_OPTS; i < CS__NOPTS; i++)
            if (a->values[i]) {
                fprintf(stderr, "clustersim report %s: --%s is for report tco, plan or replay\n", kind,
                        cmd->opts[i].lng);
                return CS_EXIT_BADINPUT;
            }
    if ((tco || rep) && !strcmp(a->pos[1], "-")) {
        fprintf(stderr, "clustersim report %s: the input is read from a file (its SHA-256 is on the "
                        "page), not from standard input\n", kind);
        return CS_EXIT_BADINPUT;
    }
    const char *catalog = cs_cli_get(cmd, a, "catalog");
    size_t n = (size_t)a->npos - 1;
    cJSON **docs = cs_xcalloc(n, sizeof *docs);
    /* inputs and their digests for the page */
    const char *files[CS_CLI_MAX_POS + 2], *roles[CS_CLI_MAX_POS + 2];
    char(*sha)[65] = cs_xcalloc(CS_CLI_MAX_POS + 2, sizeof *sha);
    const char *shap[CS_CLI_MAX_POS + 2];
    size_t nf = 0;
    int rc = CS_EXIT_OK;
    for (size_t i = 0; i < n && (run || cmp) && rc == CS_EXIT_OK; i++) {
        docs[i] = cs__run_json(a->pos[i + 1], catalog, a, &rc, sha[nf]);
        if (strcmp(a->pos[i + 1], "-")) /* the bytes as stored (sha256sum's) */
            cs__file_sha(a->pos[i + 1], sha[nf]);
        files[nf] = cs_path_display(a->pos[i + 1]);
        roles[nf++] = "scenario";
    }
    cJSON *doc = NULL;
    if (tco || plan || rep) {
        doc = cs__sub_json(cmd, a, tco ? &cs_cmd_tco : plan ? &cs_cmd_plan : &cs_cmd_replay,
                           tco ? "tco.json" : plan ? "plan.json" : "replay.json", &rc);
        files[nf] = a->pos[1];
        roles[nf++] = tco ? "scenario" : plan ? "plan" : "trace";
        if (rep) {
            const char *cl = cs_cli_get(cmd, a, "nodes");
            files[nf] = cl ? cl : cs_cli_get(cmd, a, "cluster");
            roles[nf] = cl ? "node list" : "cluster";
            if (files[nf])
                nf++;
        }
        for (size_t i = 0; i < nf; i++)
            cs__file_sha(files[i], sha[i]);
    }
    char *swf[2] = {NULL, NULL};
    if (sw) { /* what the page is read from (report/sweep_plot.c) */
        swf[0] = cs_xasprintf("%s/sweep.json", a->pos[1]);
        swf[1] = cs_xasprintf("%s/results.jsonl", a->pos[1]);
        for (int k = 0; k < 2; k++) {
            cs__file_sha(swf[k], sha[k]);
            files[k] = swf[k];
        }
        roles[0] = "sweep";
        roles[1] = "results";
        nf = 2;
    }
    for (size_t i = 0; i < nf; i++)
        shap[i] = sha[i];
    char *cmdline = cs__command_line(a);
    struct cs_html_meta meta = {cmdline, date, nf, files, roles, shap};

    const char *odir = cs_cli_get(cmd, a, "output"), *pdf = cs_cli_get(cmd, a, "pdf");
    char ptmpl[] = "/tmp/clustersim-page.XXXXXX";
    char *ptmp = NULL;
    if (rc == CS_EXIT_OK && pdf && (!odir || cs_cli_out_is_stdout(odir))) {
        ptmp = mkdtemp(ptmpl); /* the page for Chromium only */
        if (!ptmp) {
            fprintf(stderr, "clustersim report: cannot make a temporary directory: %s\n",
                    strerror(errno));
            rc = CS_EXIT_FAIL;
        }
        odir = ptmp;
    }
    struct cs_cli_out out;
    if (rc == CS_EXIT_OK && !cs_cli_out_open(&out, odir, "report.html"))
        rc = CS_EXIT_FAIL;
    if (rc == CS_EXIT_OK) {
        FILE *f = out.fp;
        if (sw) {
            rc = cs__sweep_page(f, a->pos[1], &meta);
        } else if (tco) {
            cs_html_page_tco(f, doc, &meta);
        } else if (plan) {
            cs_html_page_plan(f, doc, &meta);
        } else if (rep) {
            cs_html_page_replay(f, doc, &meta);
        } else {
            char *title = run ? cs_xasprintf("clustersim run: %s", cs__jstr(docs[0], "scenario"))
                              : cs_xasprintf("clustersim comparison of %zu scenarios", n);
            cs_html_begin(f, title);
            cs_html_heading(f, 1, title);
            free(title);
            cs_html_meta(f, &meta);
            cs_html_heading(f, 2, "Summary");
            if (run)
                cs__words_run(f, docs[0]);
            else
                cs__words_compare(f, docs, n);
            cs_html_heading(f, 2, "Headline figures");
            cs__summary(f, docs, n);
            cs_html_heading(f, 2, "Figures");
            if (run)
                cs__figures_run(f, docs[0]);
            else
                cs__figures_compare(f, docs, n);
            cs_html_heading(f, 2, "Assumptions and inputs");
            fputs("<p class=\"note\">The cluster and the workload as the scenario resolved them "
                  "(catalog values and defaults filled in; models and their sources: docs/).</p>\n", f);
            for (size_t i = 0; i < n; i++) {
                static const char *const parts[] = {"cluster", "workload"};
                for (int k = 0; k < 2; k++) {
                    const cJSON *o = cJSON_GetObjectItemCaseSensitive(docs[i], parts[k]);
                    if (!o)
                        continue;
                    char *h = cs_xasprintf("%s: %s", cs__jstr(docs[i], "scenario"), parts[k]);
                    cs_html_heading(f, 3, h);
                    free(h);
                    cJSON *w = cJSON_CreateObject();
                    cJSON_AddItemReferenceToObject(w, parts[k], (cJSON *)o);
                    cs_html_json_table(f, w);
                    cJSON_Delete(w);
                }
            }
            /* every figure on screen; left out of print (docs/report.md) */
            fputs("<p class=\"note print-only\">Every figure of the JSON is in the HTML page and in "
                  "<code>clustersim run --format json</code>.</p>\n<section class=\"appendix\">\n", f);
            for (size_t i = 0; i < n; i++) {
                char *h = cs_xasprintf("Every figure: %s (%s)", cs__jstr(docs[i], "scenario"),
                                       a->pos[i + 1]);
                cs_html_heading(f, 2, h);
                free(h);
                cs_html_json_table(f, docs[i]);
            }
            fputs("</section>\n", f);
            cs_html_end(f);
        }
        if (!cs_cli_out_close(&out, rc == CS_EXIT_OK) && rc == CS_EXIT_OK)
            rc = CS_EXIT_FAIL;
    }
    if (rc == CS_EXIT_OK && pdf) {
        char *html = cs_xasprintf("%s/report.html", odir);
        if (!cs__print_pdf(html, pdf))
            rc = CS_EXIT_FAIL;
        free(html);
    }
    if (ptmp) {
        char *html = cs_xasprintf("%s/report.html", ptmp);
        unlink(html);
        free(html);
        rmdir(ptmp);
    }
    free(swf[0]);
    free(swf[1]);
    free(cmdline);
    free(sha);
    cJSON_Delete(doc);
    for (size_t i = 0; i < n; i++)
        cJSON_Delete(docs[i]);
    free(docs);
    return rc;
}

const struct cs_cli_cmd cs_cmd_report = {
    "report",
    "report [-o DIR] [--pdf FILE] run FILE | compare A B... | sweep DIR | tco FILE | plan FILE | "
    "replay TRACE --cluster FILE",
    "write a self-contained HTML page (and PDF) of a run, comparison, sweep, TCO, plan or replay",
    "run FILE: a scenario (simulated as by `clustersim run`) or the JSON of\n"
    "`clustersim run --format json`. compare A B...: the same for several, side by\n"
    "side. sweep DIR: a `clustersim sweep` output directory, with its figures\n"
    "(gnuplot SVG, when gnuplot is installed) and every row. tco FILE, plan FILE,\n"
    "replay TRACE: runs `clustersim tco|plan|replay --format json` in-process (the\n"
    "options marked tco:, plan:, replay: are passed to it) and writes the page from\n"
    "its JSON. Every page has a summary in words whose figures are the JSON's (each\n"
    "in a span with data-json=\"PATH\"), the tables of options, inline SVG figures\n"
    "(TCO: cost by category, total against utilization with the break-even points,\n"
    "the sensitivity tornado; plan: the Pareto front), the assumptions and defaults,\n"
    "the inputs' SHA-256, the clustersim version and the date. Numbers carry units\n"
    "and thousands separators; the style sheet fits the tables to an A4 or Letter\n"
    "page. --pdf FILE prints the page with headless Chromium. The page loads\n"
    "nothing from elsewhere. See docs/report.md.",
    cs__report_opts,
    CS__NOPTS,
    cs__report,
};
