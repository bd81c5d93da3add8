/* cmd_merge.c: `clustersim merge -o DIR SHARD_DIR...`: joins the outputs of
 * `clustersim sweep --shard K/N` runs, refusing missing or repeated points. */
#include "cli.h"

#include "clustersim/app/sweep_run.h"
#include "clustersim/config/sweep.h"

#include <string.h>

static const struct cs_cli_opt cs__merge_opts[] = {
    {"output", 'o', "DIR", "directory for the merged results.csv and results.jsonl (required)"},
};

static int cs__merge(const struct cs_cli_cmd *cmd, const struct cs_cli_args *a)
{
    const char *dir = cs_cli_get(cmd, a, "output");
    if (dir && strcmp(dir, "-") == 0) {
        fprintf(stderr, "clustersim merge: -o -: merge writes results.csv and results.jsonl; name a "
                        "directory\n");
        return CS_EXIT_BADINPUT;
    }
    if (!dir || a->npos < 1) {
        fprintf(stderr, "clustersim merge: usage: clustersim merge -o DIR SHARD_DIR...\n");
        return CS_EXIT_BADINPUT;
    }
    cs_diags d;
    cs_diags_init(&d);
    cs_status st = cs_sweep_merge(dir, a->pos, (size_t)a->npos, &d);
    cs_cli_print_diags_prefixed(&d, "clustersim merge");
    cs_diags_fini(&d);
    if (st != CS_OK)
        return st == CS_EIO ? CS_EXIT_FAIL : CS_EXIT_BADINPUT;
    return CS_EXIT_OK;
}

const struct cs_cli_cmd cs_cmd_merge = {
    "merge",
    "merge -o DIR SHARD_DIR...",
    "join the result directories of a sharded sweep",
    "Every point of the sweep must be in exactly one shard directory, and all\n"
    "shards must come from the same sweep file and base scenario; otherwise\n"
    "nothing is written and the missing or repeated point is named.",
    cs__merge_opts,
    (int)(sizeof cs__merge_opts / sizeof cs__merge_opts[0]),
    cs__merge,
};
