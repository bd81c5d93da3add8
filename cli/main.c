/* main.c: clustersim's entry point: global options and the subcommand table. */
#include "cli.h"

#include "clustersim/datadir.h"
#include "clustersim/suggest.h"

#include <stdio.h>
#include <string.h>

static const struct cs_cli_cmd *const cs__cmds[] = {
    &cs_cmd_run,
    &cs_cmd_validate,
    &cs_cmd_catalog,
    &cs_cmd_collective,
    &cs_cmd_compare,
    &cs_cmd_search,
    &cs_cmd_validate_refs,
    &cs_cmd_tco,
    &cs_cmd_replay,
    &cs_cmd_calibrate,
    &cs_cmd_sweep,
    &cs_cmd_merge,
    &cs_cmd_plot,
    &cs_cmd_report,
};
#define CS__NCMDS (sizeof cs__cmds / sizeof cs__cmds[0])

static void cs__usage(FILE *out)
{
    fprintf(out,
            "usage: clustersim [--help] [--version] <command> [options] FILE...\n\n"
            "A discrete-event simulator and capacity planner for GPU clusters.\n\n"
            "commands:\n");
    for (size_t i = 0; i < CS__NCMDS; i++)
        fprintf(out, "  %-14s %s\n", cs__cmds[i]->name, cs__cmds[i]->summary);
    fprintf(out, "  %-14s %s\n", "help", "show help for a command");
    fprintf(out, "\nRun 'clustersim help COMMAND' for a command's options.\n"
                 "Exit status: 0 success, 1 failure, 2 bad input or usage.\n");
}

static const struct cs_cli_cmd *cs__find(const char *name)
{
    for (size_t i = 0; i < CS__NCMDS; i++)
        if (strcmp(cs__cmds[i]->name, name) == 0)
            return cs__cmds[i];
    return NULL;
}

static int cs__unknown(const char *name)
{
    const char *names[CS__NCMDS];
    for (size_t i = 0; i < CS__NCMDS; i++)
        names[i] = cs__cmds[i]->name;
    const char *s = cs_suggest(name, names, CS__NCMDS);
    if (s)
        fprintf(stderr, "clustersim: unknown command '%s' (did you mean '%s'?)\n", name, s);
    else
        fprintf(stderr, "clustersim: unknown command '%s' (see 'clustersim --help')\n", name);
    return CS_EXIT_BADINPUT;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        cs__usage(stderr);
        return CS_EXIT_BADINPUT;
    }
    const char *first = argv[1];
    if (strcmp(first, "--help") == 0 || strcmp(first, "-h") == 0) {
        cs__usage(stdout);
        return CS_EXIT_OK;
    }
    if (strcmp(first, "--version") == 0 || strcmp(first, "-V") == 0) {
        printf("clustersim %s\ndata: %s (%s)\n", CLUSTERSIM_VERSION, cs_data_dir(), cs_data_dir_origin());
        return CS_EXIT_OK;
    }
    if (strcmp(first, "help") == 0) {
        if (argc < 3) {
            cs__usage(stdout);
            return CS_EXIT_OK;
        }
        const struct cs_cli_cmd *cmd = cs__find(argv[2]);
        if (!cmd)
            return cs__unknown(argv[2]);
        cs_cli_print_help(cmd, stdout);
        return CS_EXIT_OK;
    }
    if (first[0] == '-') {
        fprintf(stderr, "clustersim: unknown option '%s' (see 'clustersim --help')\n", first);
        return CS_EXIT_BADINPUT;
    }
    const struct cs_cli_cmd *cmd = cs__find(first);
    if (!cmd)
        return cs__unknown(first);
    struct cs_cli_args args;
    bool help;
    if (!cs_cli_parse(cmd, argc - 1, argv + 1, &args, &help))
        return CS_EXIT_BADINPUT;
    if (help) {
        cs_cli_print_help(cmd, stdout);
        return CS_EXIT_OK;
    }
    return cmd->fn(cmd, &args);
}
