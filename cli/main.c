/* main.c: clustersim's entry point: global options and the subcommand table. */
#include "cli.h"
#include "docgen.h"

#include "clustersim/base/datadir.h"
#include "clustersim/base/outfile.h"
#include "clustersim/base/suggest.h"
#include "clustersim/config/config.h"

#include "clustersim/base/xmalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int cs__completion(const struct cs_cli_cmd *cmd, const struct cs_cli_args *a);

static const struct cs_cli_cmd cs__cmd_completion = {
    "completion",
    "completion bash|zsh",
    "print a shell completion script for clustersim",
    "Writes the completion script for bash or zsh to standard output, generated\n"
    "from the commands' options. An installed clustersim has them already\n"
    "(PREFIX/share/bash-completion/completions/clustersim and\n"
    "PREFIX/share/zsh/site-functions/_clustersim); otherwise, for this shell only:\n"
    "  source <(clustersim completion bash)",
    NULL,
    0,
    cs__completion,
};

static const struct cs_cli_cmd *const cs__cmds[] = {
    &cs_cmd_run,
    &cs_cmd_validate,
    &cs_cmd_catalog,
    &cs_cmd_collective,
    &cs_cmd_compare,
    &cs_cmd_search,
    &cs_cmd_plan,
    &cs_cmd_validate_refs,
    &cs_cmd_tco,
    &cs_cmd_replay,
    &cs_cmd_claims,
    &cs_cmd_calibrate,
    &cs_cmd_sweep,
    &cs_cmd_merge,
    &cs_cmd_plot,
    &cs_cmd_report,
    &cs__cmd_completion,
};
#define CS__NCMDS (sizeof cs__cmds / sizeof cs__cmds[0])

static int cs__completion(const struct cs_cli_cmd *cmd, const struct cs_cli_args *a)
{
    if (a->npos != 1 || !cs_cli_write_completion(stdout, a->pos[0], cs__cmds, CS__NCMDS)) {
        fprintf(stderr, "clustersim %s: expected bash or zsh (see 'clustersim help %s')\n",
                cmd->name, cmd->name);
        return CS_EXIT_BADINPUT;
    }
    return fflush(stdout) == 0 ? CS_EXIT_OK : CS_EXIT_FAIL;
}

static void cs__usage(FILE *out)
{
    fprintf(out,
            "usage: clustersim [--help] [--version] [--data-dir] <command> [--allow-include DIR] [options] "
            "FILE...\n\n"
            "A discrete-event simulator and capacity planner for GPU clusters.\n\n"
            "commands:\n");
    for (size_t i = 0; i < CS__NCMDS; i++)
        fprintf(out, "  %-14s %s\n", cs__cmds[i]->name, cs__cmds[i]->summary);
    fprintf(out, "  %-14s %s\n", "help", "show help for a command");
    fprintf(out, "\nRun 'clustersim help COMMAND' for a command's options, 'man clustersim'\n"
                 "for all of them. --version names the data directory (catalog, plot\n"
                 "templates, validation tables; $CLUSTERSIM_DATA overrides it), --data-dir\n"
                 "prints it alone.\n"
                 "include:, a sweep's base: and a neighbour's scenario: must name .yaml files\n"
                 "in the directory of the file given on the command line (or below it) or in\n"
                 "the data directory; --allow-include DIR (any command, repeatable) allows DIR.\n"
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

/* Every command's standard output ends here: a write that failed (a full
 * disk, /dev/full, a closed pipe's EPIPE) turns a success into exit 1 with
 * a message naming standard output, never a silent partial result. */
static int cs__finish(int rc)
{
    char why[256];
    if (!cs_stream_finish(stdout, "standard output", why, sizeof why)) {
        fprintf(stderr, "clustersim: %s\n", why);
        return rc == CS_EXIT_OK ? CS_EXIT_FAIL : rc;
    }
    return rc;
}

/* Takes every --allow-include DIR / --allow-include=DIR out of argv (up to
 * a "--"), allowing each directory; false after an error message. */
static bool cs__allow_includes(int *argc, char **argv)
{
    int w = 1;
    bool rest = false;
    for (int i = 1; i < *argc; i++) {
        const char *a = argv[i];
        const char *dir = NULL;
        if (!rest && strcmp(a, "--") == 0)
            rest = true;
        if (!rest && strcmp(a, "--allow-include") == 0) {
            if (i + 1 >= *argc || argv[i + 1][0] == '\0') {
                fprintf(stderr, "clustersim: --allow-include: expected a directory after it\n");
                return false;
            }
            dir = argv[++i];
        } else if (!rest && strncmp(a, "--allow-include=", 16) == 0) {
            dir = a + 16;
        }
        if (!dir) {
            argv[w++] = argv[i];
            continue;
        }
        char why[256];
        if (cs_cfg_allow_include_dir(dir, why, sizeof why) != CS_OK) {
            fprintf(stderr, "clustersim: --allow-include %s: %s (expected an existing directory)\n", dir, why);
            return false;
        }
    }
    *argc = w;
    argv[w] = NULL;
    return true;
}

/* An output directory given with -o DIR that cannot be one (an existing
 * file, or a path whose parent does not exist) is bad usage: exit 2 with the
 * reason, before any work. Failures while writing stay exit 1. */
static bool cs__output_dir_ok(const struct cs_cli_cmd *cmd, const struct cs_cli_args *a)
{
    for (int i = 0; i < cmd->nopts; i++) {
        const struct cs_cli_opt *o = &cmd->opts[i];
        if (strcmp(o->lng, "output") != 0 || !o->metavar || strcmp(o->metavar, "DIR") != 0)
            continue;
        const char *dir = a->values[i];
        if (!dir || strcmp(dir, "-") == 0)
            return true;
        struct stat st;
        if (stat(dir, &st) == 0) {
            if (S_ISDIR(st.st_mode))
                return true;
            fprintf(stderr, "clustersim %s: -o %s: expected a directory, got a file\n", cmd->name, dir);
            return false;
        }
        if (errno != ENOENT) {
            fprintf(stderr, "clustersim %s: -o %s: %s\n", cmd->name, dir, strerror(errno));
            return false;
        }
        char *parent = cs_xstrdup(dir);
        char *slash = strrchr(parent, '/');
        while (slash && slash > parent && slash[1] == '\0') { /* trailing slashes */
            *slash = '\0';
            slash = strrchr(parent, '/');
        }
        const char *pd = slash ? (slash == parent ? "/" : (*slash = '\0', parent)) : ".";
        bool ok = stat(pd, &st) == 0 && S_ISDIR(st.st_mode);
        if (!ok)
            fprintf(stderr,
                    "clustersim %s: -o %s: cannot create it: its parent directory %s does not exist\n",
                    cmd->name, dir, pd);
        free(parent);
        return ok;
    }
    return true;
}

static int cs__main(int argc, char **argv)
{
    if (!cs__allow_includes(&argc, argv))
        return CS_EXIT_BADINPUT;
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
    if (strcmp(first, "--data-dir") == 0) {
        printf("%s\n", cs_data_dir());
        return CS_EXIT_OK;
    }
    if (strcmp(first, "help") == 0) {
        /* Hidden: the build writes clustersim.1 with it. */
        if (argc == 3 && strcmp(argv[2], "--man") == 0) {
            cs_cli_write_man(stdout, cs__cmds, CS__NCMDS);
            return CS_EXIT_OK;
        }
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
    if (!cs__output_dir_ok(cmd, &args))
        return CS_EXIT_BADINPUT;
    return cmd->fn(cmd, &args);
}

int main(int argc, char **argv)
{
    return cs__finish(cs__main(argc, argv));
}
