/* cli.h: shared pieces of the clustersim command line (cli/ is the only
 * layer that prints or exits). Exit codes: 0 success, 1 failure of a
 * simulation or a usage error the user can fix by reading --help,
 * 2 bad input (a file that does not validate, an unknown option). */
#ifndef CLUSTERSIM_CLI_H
#define CLUSTERSIM_CLI_H

#include "clustersim/app/pipeline.h"
#include "clustersim/config/catalog.h"
#include "clustersim/config/config.h"
#include "clustersim/base/diag.h"
#include "clustersim/models/scenario.h"

#include <stdbool.h>
#include <stdio.h>

enum { CS_EXIT_OK = 0, CS_EXIT_FAIL = 1, CS_EXIT_BADINPUT = 2 };

enum cs_cli_format { CS_FMT_TEXT, CS_FMT_JSON, CS_FMT_CSV };

/* One option of a subcommand. `metavar` NULL means a flag without value. */
struct cs_cli_opt {
    const char *lng;       /* "format" for --format */
    char shrt;             /* 'f' for -f, or 0 */
    const char *metavar;   /* "FMT", or NULL for a flag */
    const char *help;
};

/* --catalog, the same on every command that loads the catalog. */
#define CS_CLI_OPT_CATALOG                                                                     \
    {"catalog", 0, "DIR",                                                                      \
     "hardware catalog directory (default: $CLUSTERSIM_CATALOG, else DATA/scenarios/catalog, " \
     "DATA as clustersim --data-dir prints it)"}

#define CS_CLI_MAX_POS 64
#define CS_CLI_MAX_SETS 64

/* The option every command that takes a scenario has: `--set KEY=VALUE`,
 * repeatable (the parser collects every occurrence into args.sets, in
 * order), applied to the scenario's YAML tree by cs_cli_load_scenario with
 * the sweep axes' mechanism (cs_cfg_load_scenario_with). */
#define CS_CLI_OPT_SET                                                                         \
    {"set", 0, "KEY=VALUE", "override a scenario value, e.g. cluster.nodes=4 (repeatable; "     \
                            "key paths as in sweep axes)"}

struct cs_cli_args {
    const char *values[32];   /* per option index: its value, "1" for a set flag, NULL if absent */
    const char *pos[CS_CLI_MAX_POS];
    int npos;
    const char *sets[CS_CLI_MAX_SETS]; /* every --set value, in order */
    int nsets;
};

struct cs_cli_cmd {
    const char *name;
    const char *usage;        /* e.g. "run [options] FILE" */
    const char *summary;
    const char *details;      /* extra help text, may be NULL */
    const struct cs_cli_opt *opts;
    int nopts;
    int (*fn)(const struct cs_cli_cmd *cmd, const struct cs_cli_args *a);
};

/* Parses argv (argv[0] is the subcommand name) against cmd->opts. On error
 * prints a message and returns false. "--help" sets *help. "-" alone is a
 * positional argument (standard input); standard input can be read once, so
 * a second "-" among the positional arguments and the values of options
 * whose metavar names a FILE (other than --output) is refused here. */
bool cs_cli_parse(const struct cs_cli_cmd *cmd, int argc, char **argv, struct cs_cli_args *a,
                  bool *help);
void cs_cli_print_help(const struct cs_cli_cmd *cmd, FILE *out);
/* Index of option `lng` in cmd->opts (asserts it exists). */
int cs_cli_opt_index(const struct cs_cli_cmd *cmd, const char *lng);
const char *cs_cli_get(const struct cs_cli_cmd *cmd, const struct cs_cli_args *a, const char *lng);

/* Prints every diagnostic to stderr; returns the number of errors. */
size_t cs_cli_print_diags(const cs_diags *d);
/* Parses --format; prints an error and returns false for a bad value. */
bool cs_cli_format(const char *s, enum cs_cli_format *out);

/* Output sink: stdout (dir NULL or "-"), or DIR/NAME written atomically (a
 * temporary file in DIR renamed over NAME on success, removed on failure),
 * so nothing the user asked for is left half-written (base/outfile.h: a
 * mkstemp name, never a planted file or symlink). A failed write is a message
 * naming the file and the system's reason, and exit 1. */
struct cs_cli_out {
    FILE *fp;
    char *final_path;   /* NULL for stdout */
    struct cs_outfile *of; /* base/outfile.h: the temporary file beside final_path */
};
bool cs_cli_out_open(struct cs_cli_out *o, const char *dir, const char *name);
/* Commits (ok) or discards the output; returns false on a write error.
 * Prints "wrote FILE" unless cs_cli_out_quiet(true) (`clustersim report`
 * running a command into a temporary directory). */
bool cs_cli_out_close(struct cs_cli_out *o, bool ok);
void cs_cli_out_quiet(bool quiet);

/* Evaluates scenario s (app/pipeline.c, cs_app_evaluate) and prints what it
 * reported, attributing diagnostics without a file to `path`. The caller
 * finalizes *res with cs_app_result_fini whatever the status. */
cs_status cs_cli_evaluate(const struct cs_scenario *s, const char *path, const struct cs_app_eval_opts *eo,
                          struct cs_app_result *res);

/* The event budget $CLUSTERSIM_MAX_EVENTS asks for (every simulation of
 * the command: run-level replicas, replays), 0 when unset (the models'
 * defaults; a bad value is warned about and ignored). cs_cli_evaluate
 * applies it. */
uint64_t cs_cli_max_events(void);
/* The exit code for a failed evaluation: 1 when a simulation did not
 * complete (CS_EBUDGET: it reached its event budget or time bound), else 2
 * (the input is at fault). */
int cs_cli_exit_for(cs_status st);

/* Prints diagnostics; those without a file are attributed to `file`. */
size_t cs_cli_print_diags_for(const cs_diags *d, const char *file);

/* One diagnostic without its severity: "file:line:col: msg", "file:line:
 * msg", "file: msg" or "msg", for the messages a command words itself
 * ("clustersim plot: DIR/sweep.json: ...", "warning: ...: figure skipped").
 * Heap string; caller frees. */
char *cs_cli_diag_plain(const struct cs_diag *dg);
/* Prints every diagnostic of d as "PREFIX: " and its plain form (above);
 * returns the number of errors. */
size_t cs_cli_print_diags_prefixed(const cs_diags *d, const char *prefix);

/* A loaded catalog + scenario, for the subcommands that take a scenario. */
struct cs_cli_scenario {
    cs_catalog *catalog;
    struct cs_scenario scenario;
    struct cs_provenance prov;
};
/* Loads the catalog (catalog_dir or the default) and the scenario at path
 * ("-": standard input; its `include:`s are relative to the current
 * directory), with the --set overrides of `a` (may be NULL) applied, printing
 * diagnostics. Returns CS_EXIT_OK or the exit code to return (2 for a bad
 * scenario or a bad --set, whose message names the key). */
int cs_cli_load_scenario(const char *path, const char *catalog_dir, const struct cs_cli_args *a,
                         struct cs_cli_scenario *out);
/* The same for a scenario already read into memory (`name` for messages). */
int cs_cli_load_scenario_buffer(const char *name, const char *buf, size_t len,
                                const char *catalog_dir, const struct cs_cli_args *a,
                                struct cs_cli_scenario *out);
/* True when `dir` (an -o value) means standard output. */
bool cs_cli_out_is_stdout(const char *dir);
void cs_cli_scenario_fini(struct cs_cli_scenario *sc);

/* The recomputation as tables show it: "full:N" (N layers per stage
 * recomputed), "off:N" (N layers' activations offloaded), else the policy's
 * name. Returns buf. */
const char *cs_cli_recompute_label(const struct cs_workload *w, char *buf, size_t len);
/* --shard K/N: true with 1 <= K <= N <= 1000000 in *k, *n; else prints
 * "clustersim CMD: --shard: ..." and returns false. */
bool cs_cli_parse_shard(const char *cmd, const char *s, long *k, long *n);

/* Subcommands. */
extern const struct cs_cli_cmd cs_cmd_validate;
extern const struct cs_cli_cmd cs_cmd_catalog;
extern const struct cs_cli_cmd cs_cmd_run;
extern const struct cs_cli_cmd cs_cmd_collective;
extern const struct cs_cli_cmd cs_cmd_compare;
extern const struct cs_cli_cmd cs_cmd_validate_refs;
extern const struct cs_cli_cmd cs_cmd_search;
extern const struct cs_cli_cmd cs_cmd_plan;
extern const struct cs_cli_cmd cs_cmd_tco;
extern const struct cs_cli_cmd cs_cmd_replay;
extern const struct cs_cli_cmd cs_cmd_claims;
extern const struct cs_cli_cmd cs_cmd_calibrate;
extern const struct cs_cli_cmd cs_cmd_sweep;
extern const struct cs_cli_cmd cs_cmd_merge;
extern const struct cs_cli_cmd cs_cmd_plot;
extern const struct cs_cli_cmd cs_cmd_report;

#endif
