/* common.c: option parsing, help, diagnostics printing and atomic output
 * files shared by the subcommands. */
#include "cli.h"

#include "clustersim/base/numparse.h"

#include "clustersim/app/results_json.h"
#include "clustersim/config/fileio.h"
#include "clustersim/config/sweep.h"
#include "clustersim/base/outfile.h"
#include "clustersim/base/xmalloc.h"

#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int cs__find_long(const struct cs_cli_cmd *cmd, const char *name, size_t len)
{
    for (int i = 0; i < cmd->nopts; i++)
        if (strlen(cmd->opts[i].lng) == len && strncmp(cmd->opts[i].lng, name, len) == 0)
            return i;
    return -1;
}

static int cs__find_short(const struct cs_cli_cmd *cmd, char c)
{
    for (int i = 0; i < cmd->nopts; i++)
        if (cmd->opts[i].shrt == c)
            return i;
    return -1;
}

bool cs_cli_parse(const struct cs_cli_cmd *cmd, int argc, char **argv, struct cs_cli_args *a,
                  bool *help)
{
    memset(a, 0, sizeof *a);
    *help = false;
    bool only_pos = false;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (only_pos || arg[0] != '-' || arg[1] == '\0') {
            if (a->npos >= CS_CLI_MAX_POS) {
                fprintf(stderr, "clustersim %s: too many arguments (at most %d)\n", cmd->name,
                        CS_CLI_MAX_POS);
                return false;
            }
            a->pos[a->npos++] = arg;
            continue;
        }
        if (strcmp(arg, "--") == 0) {
            only_pos = true;
            continue;
        }
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            *help = true;
            continue;
        }
        int idx;
        const char *val = NULL;
        if (arg[1] == '-') {
            const char *name = arg + 2;
            const char *eq = strchr(name, '=');
            size_t len = eq ? (size_t)(eq - name) : strlen(name);
            idx = cs__find_long(cmd, name, len);
            if (idx < 0) {
                fprintf(stderr, "clustersim %s: unknown option '%s' (see 'clustersim help %s')\n",
                        cmd->name, arg, cmd->name);
                return false;
            }
            if (eq) {
                if (!cmd->opts[idx].metavar) {
                    fprintf(stderr, "clustersim %s: option '--%s' takes no value\n", cmd->name,
                            cmd->opts[idx].lng);
                    return false;
                }
                val = eq + 1;
            }
        } else {
            idx = arg[2] == '\0' ? cs__find_short(cmd, arg[1]) : -1;
            if (idx < 0) {
                fprintf(stderr, "clustersim %s: unknown option '%s' (see 'clustersim help %s')\n",
                        cmd->name, arg, cmd->name);
                return false;
            }
        }
        if (cmd->opts[idx].metavar) {
            if (!val) {
                if (i + 1 >= argc) {
                    fprintf(stderr, "clustersim %s: option '%s' needs a value (%s)\n", cmd->name,
                            arg, cmd->opts[idx].metavar);
                    return false;
                }
                val = argv[++i];
            }
            if (strcmp(cmd->opts[idx].lng, "set") == 0) {
                if (a->nsets >= CS_CLI_MAX_SETS) {
                    fprintf(stderr, "clustersim %s: too many --set options (at most %d)\n", cmd->name,
                            CS_CLI_MAX_SETS);
                    return false;
                }
                a->sets[a->nsets++] = val;
            }
            a->values[idx] = val;
        } else {
            a->values[idx] = "1";
        }
    }
    /* Standard input can be read once: a second "-" would read nothing. */
    char first[64] = "", second[64] = "";
    for (int i = 0; i < a->npos && !second[0]; i++)
        if (strcmp(a->pos[i], "-") == 0)
            snprintf(first[0] ? second : first, sizeof first, "'-' as argument %d", i + 1);
    for (int i = 0; i < cmd->nopts && !second[0]; i++) {
        const struct cs_cli_opt *o = &cmd->opts[i];
        if (o->metavar && strstr(o->metavar, "FILE") && strcmp(o->lng, "output") != 0 &&
            a->values[i] && strcmp(a->values[i], "-") == 0)
            snprintf(first[0] ? second : first, sizeof first, "--%s -", o->lng);
    }
    if (second[0]) {
        fprintf(stderr, "clustersim %s: standard input is named twice (%s and %s); it can be read "
                        "only once\n", cmd->name, first, second);
        return false;
    }
    return true;
}

void cs_cli_print_help(const struct cs_cli_cmd *cmd, FILE *out)
{
    fprintf(out, "usage: clustersim %s\n\n%s\n", cmd->usage, cmd->summary);
    if (cmd->details)
        fprintf(out, "\n%s\n", cmd->details);
    bool takes_scenario = false;
    for (int i = 0; i < cmd->nopts; i++)
        takes_scenario = takes_scenario || strcmp(cmd->opts[i].lng, "set") == 0;
    if (takes_scenario && strcmp(cmd->name, "plan") == 0)
        fprintf(out, "\nconventions:\n"
                     "  The plan FILE is read from a file (not standard input). --set KEY=VALUE sets a\n"
                     "  key path of the plan file as sweep axes do (deadline=60d, budget=$3M,\n"
                     "  workload.tokens=1T, candidates.nodes=[64,128]); repeatable, applied in order,\n"
                     "  a later one wins; a bad key or value is an error naming the key (exit 2).\n"
                     "  -o - writes the report to standard output (no figures). CSV booleans are\n"
                     "  true/false.\n");
    else if (takes_scenario)
        fprintf(out, "\nconventions:\n"
                     "  A scenario FILE may be - (standard input, read once; its include: paths are\n"
                     "  relative to the current directory). --set KEY=VALUE sets a key path of the\n"
                     "  scenario as sweep axes do (cluster.nodes=4, workload.parallelism.tp=8,\n"
                     "  failures.components.0.mtbf=2000h); repeatable, applied in order, a later one\n"
                     "  wins; a bad key or value is an error naming the key (exit 2). Where the\n"
                     "  command writes a file into -o DIR, -o - writes it to standard output (no\n"
                     "  figures). CSV booleans are true/false.\n");
    fprintf(out, "\noptions:\n");
    for (int i = 0; i < cmd->nopts; i++) {
        const struct cs_cli_opt *o = &cmd->opts[i];
        char left[64];
        if (o->shrt)
            snprintf(left, sizeof left, "-%c, --%s%s%s", o->shrt, o->lng, o->metavar ? " " : "",
                     o->metavar ? o->metavar : "");
        else
            snprintf(left, sizeof left, "    --%s%s%s", o->lng, o->metavar ? " " : "",
                     o->metavar ? o->metavar : "");
        fprintf(out, "  %-26s %s\n", left, o->help);
    }
    fprintf(out, "  %-26s %s\n", "-h, --help", "show this help");
    if (strcmp(cmd->name, "tco") == 0) {
        fprintf(out, "\ncost keys (the scenario's cost: section; README \"Cost keys\", docs/cost.md):\n");
        fprintf(out, "  %-32s %-22s %s\n", "key", "unit", "default / meaning");
        for (const struct cs_cfg_key_doc *k = cs_cfg_cost_key_docs; k->key; k++)
            fprintf(out, "  %-32s %-22s %s: %s\n", k->key, k->unit, k->def, k->doc);
    }
}

int cs_cli_opt_index(const struct cs_cli_cmd *cmd, const char *lng)
{
    int idx = cs__find_long(cmd, lng, strlen(lng));
    assert(idx >= 0);
    return idx;
}

const char *cs_cli_get(const struct cs_cli_cmd *cmd, const struct cs_cli_args *a, const char *lng)
{
    return a->values[cs_cli_opt_index(cmd, lng)];
}

size_t cs_cli_print_diags(const cs_diags *d)
{
    for (size_t i = 0; i < d->n; i++) {
        char *s = cs_diag_format(&d->items[i]);
        fprintf(stderr, "%s\n", s);
        free(s);
    }
    if (d->truncated)
        fprintf(stderr, "clustersim: too many errors (%zu in all); only the first %zu are shown\n",
                d->n_errors, d->n);
    return d->n_errors;
}

bool cs_cli_format(const char *s, enum cs_cli_format *out)
{
    if (!s || strcmp(s, "text") == 0)
        *out = CS_FMT_TEXT;
    else if (strcmp(s, "json") == 0)
        *out = CS_FMT_JSON;
    else if (strcmp(s, "csv") == 0)
        *out = CS_FMT_CSV;
    else {
        fprintf(stderr, "clustersim: --format: expected text, json or csv, got \"%s\"\n", s);
        return false;
    }
    return true;
}

bool cs_cli_out_is_stdout(const char *dir)
{
    return !dir || strcmp(dir, "-") == 0;
}

bool cs_cli_out_open(struct cs_cli_out *o, const char *dir, const char *name)
{
    memset(o, 0, sizeof *o);
    if (cs_cli_out_is_stdout(dir)) {
        o->fp = stdout;
        return true;
    }
    struct stat st;
    if (stat(dir, &st) != 0) {
        if (mkdir(dir, 0777) != 0) {
            fprintf(stderr, "clustersim: cannot create output directory %s: %s\n", dir,
                    strerror(errno));
            return false;
        }
    } else if (!S_ISDIR(st.st_mode)) {
        fprintf(stderr, "clustersim: -o %s: not a directory\n", dir);
        return false;
    }
    o->final_path = cs_xasprintf("%s/%s", dir, name);
    char why[512];
    if (cs_outfile_open(o->final_path, &o->of, why, sizeof why) != CS_OK) {
        fprintf(stderr, "clustersim: %s\n", why);
        free(o->final_path);
        memset(o, 0, sizeof *o);
        return false;
    }
    o->fp = cs_outfile_fp(o->of);
    return true;
}

/* cs_cli_out_quiet: no "wrote FILE" lines (the command's outputs are a
 * temporary directory of `clustersim report`). */
static bool cs__out_quiet;

void cs_cli_out_quiet(bool quiet) { cs__out_quiet = quiet; }

bool cs_cli_out_close(struct cs_cli_out *o, bool ok)
{
    bool good = ok;
    char why[512];
    /* A failed write is reported here even when the caller, seeing the
     * stream's error flag, already passed ok = false: its message names
     * the file and the system's reason. */
    if (!o->final_path) {
        if (!cs_stream_finish(stdout, "standard output", why, sizeof why)) {
            fprintf(stderr, "clustersim: %s\n", why);
            good = false;
        }
        return good;
    }
    if (!good) {
        if (ferror(o->fp))
            fprintf(stderr, "clustersim: cannot write %s: %s\n", o->final_path,
                    strerror(errno ? errno : EIO));
        cs_outfile_abort(o->of);
    } else if (cs_outfile_commit(o->of, why, sizeof why) != CS_OK) {
        fprintf(stderr, "clustersim: %s\n", why);
        good = false;
    } else if (!cs__out_quiet) {
        fprintf(stderr, "wrote %s\n", o->final_path);
    }
    free(o->final_path);
    memset(o, 0, sizeof *o);
    return good;
}

size_t cs_cli_print_diags_for(const cs_diags *d, const char *file)
{
    for (size_t i = 0; i < d->n; i++) {
        struct cs_diag dg = d->items[i];
        if (!dg.file)
            dg.file = (char *)file;
        char *s = cs_diag_format(&dg);
        fprintf(stderr, "%s\n", s);
        free(s);
    }
    if (d->truncated)
        fprintf(stderr, "clustersim: too many errors (%zu in all); only the first %zu are shown\n",
                d->n_errors, d->n);
    return d->n_errors;
}

char *cs_cli_diag_plain(const struct cs_diag *dg)
{
    if (dg->file && dg->line > 0 && dg->col > 0)
        return cs_xasprintf("%s:%d:%d: %s", dg->file, dg->line, dg->col, dg->msg);
    if (dg->file && dg->line > 0)
        return cs_xasprintf("%s:%d: %s", dg->file, dg->line, dg->msg);
    if (dg->file)
        return cs_xasprintf("%s: %s", dg->file, dg->msg);
    return cs_xstrdup(dg->msg);
}

size_t cs_cli_print_diags_prefixed(const cs_diags *d, const char *prefix)
{
    for (size_t i = 0; i < d->n; i++) {
        char *s = cs_cli_diag_plain(&d->items[i]);
        fprintf(stderr, "%s: %s\n", prefix, s);
        free(s);
    }
    if (d->truncated)
        fprintf(stderr, "clustersim: too many errors (%zu in all); only the first %zu are shown\n",
                d->n_errors, d->n);
    return d->n_errors;
}

static int cs__load(const char *path, const char *buf, size_t len, const char *catalog_dir,
                    const struct cs_cli_args *a, struct cs_cli_scenario *out)
{
    memset(out, 0, sizeof *out);
    int nsets = a ? a->nsets : 0;
    /* --set KEY=VALUE: checked before anything is loaded. */
    struct cs_cfg_override ov[CS_CLI_MAX_SETS];
    char *names[CS_CLI_MAX_SETS];
    for (int i = 0; i < nsets; i++) {
        const char *arg = a->sets[i];
        const char *eq = strchr(arg, '=');
        if (!eq || eq == arg) {
            fprintf(stderr, "clustersim: --set %s: expected KEY=VALUE with a key path, like "
                            "--set cluster.nodes=4\n", arg);
            for (int j = 0; j < i; j++)
                free((char *)ov[j].path), free(names[j]);
            return CS_EXIT_BADINPUT;
        }
        names[i] = cs_xasprintf("--set %s", arg);
        ov[i] = (struct cs_cfg_override){cs_xstrndup(arg, (size_t)(eq - arg)), eq + 1, names[i], 0, 0};
    }
    cs_diags d;
    cs_diags_init(&d);
    const char *dir = catalog_dir ? catalog_dir : cs_catalog_default_dir();
    cs_status st = cs_catalog_load_dir(dir, &d, &out->catalog);
    if (st != CS_OK) {
        cs_cli_print_diags_for(&d, dir);
        fprintf(stderr, "clustersim: cannot load the hardware catalog from %s: %s\n", dir,
                cs_strerror(st));
        cs_diags_fini(&d);
        for (int i = 0; i < nsets; i++)
            free((char *)ov[i].path), free(names[i]);
        return CS_EXIT_BADINPUT;
    }
    cs_provenance_init(&out->prov);
    st = buf ? cs_cfg_load_scenario_buffer_with(path, buf, len, ov, (size_t)nsets, out->catalog, &d,
                                                &out->scenario, &out->prov)
             : cs_cfg_load_scenario_with(path, ov, (size_t)nsets, out->catalog, &d, &out->scenario,
                                         &out->prov);
    cs_cli_print_diags_for(&d, cs_path_display(path));
    cs_diags_fini(&d);
    for (int i = 0; i < nsets; i++)
        free((char *)ov[i].path), free(names[i]);
    if (st != CS_OK) {
        if (st == CS_EIO)
            fprintf(stderr, "clustersim: cannot read %s\n", cs_path_display(path));
        cs_provenance_fini(&out->prov);
        cs_catalog_destroy(out->catalog);
        out->catalog = NULL;
        return CS_EXIT_BADINPUT;
    }
    return CS_EXIT_OK;
}

int cs_cli_load_scenario(const char *path, const char *catalog_dir, const struct cs_cli_args *a,
                         struct cs_cli_scenario *out)
{
    return cs__load(path, NULL, 0, catalog_dir, a, out);
}

int cs_cli_load_scenario_buffer(const char *name, const char *buf, size_t len,
                                const char *catalog_dir, const struct cs_cli_args *a,
                                struct cs_cli_scenario *out)
{
    return cs__load(name, buf, len, catalog_dir, a, out);
}

void cs_cli_scenario_fini(struct cs_cli_scenario *sc)
{
    cs_scenario_fini(&sc->scenario);
    cs_provenance_fini(&sc->prov);
    cs_catalog_destroy(sc->catalog);
    sc->catalog = NULL;
}

uint64_t cs_cli_max_events(void)
{
    const char *v = getenv("CLUSTERSIM_MAX_EVENTS");
    if (!v || !*v)
        return 0;
    char *end;
    errno = 0;
    unsigned long long n = strtoull(v, &end, 10);
    if (errno || *end || v[0] == '-' || n == 0) {
        fprintf(stderr, "clustersim: warning: CLUSTERSIM_MAX_EVENTS=%s: expected a positive integer; "
                        "the default budgets apply\n", v);
        return 0;
    }
    return (uint64_t)n;
}

int cs_cli_exit_for(cs_status st)
{
    return st == CS_EBUDGET ? CS_EXIT_FAIL : CS_EXIT_BADINPUT;
}

cs_status cs_cli_evaluate(const struct cs_scenario *s, const char *path, const struct cs_app_eval_opts *eo,
                          struct cs_app_result *res)
{
    cs_diags d;
    cs_diags_init(&d);
    struct cs_app_eval_opts o = *eo;
    if (!o.max_events)
        o.max_events = cs_cli_max_events();
    cs_status st = cs_app_evaluate(s, &o, &d, res);
    cs_cli_print_diags_for(&d, path);
    cs_diags_fini(&d);
    return st;
}

const char *cs_cli_recompute_label(const struct cs_workload *w, char *buf, size_t len)
{
    return cs_app_recompute_label(w, buf, len);
}

bool cs_cli_parse_shard(const char *cmd, const char *s, long *k, long *n)
{
    const char *slash = strchr(s, '/');
    char kb[32];
    size_t kl = slash ? (size_t)(slash - s) : 0;
    bool ok = slash && kl > 0 && kl < sizeof kb;
    if (ok) {
        memcpy(kb, s, kl);
        kb[kl] = '\0';
        ok = cs_num_parse_long(kb, 10, 1, 1000000, k) && cs_num_parse_long(slash + 1, 10, 1, 1000000, n) &&
             *k <= *n;
    }
    if (!ok)
        fprintf(stderr, "clustersim %s: --shard: expected K/N with 1 <= K <= N (like 2/8), got \"%s\"\n",
                cmd, s);
    return ok;
}
