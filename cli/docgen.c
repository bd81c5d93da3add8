/* docgen.c: clustersim(1) and the bash and zsh completions, written from the
 * subcommands' tables (name, usage, summary, details, options). Nothing here
 * is hand-kept per option: a new option appears in the page and in both
 * completions the next time the build runs `clustersim help --man` and
 * `clustersim completion bash|zsh`. */
#include "docgen.h"

#include "clustersim/base/datadir.h"

#include <ctype.h>
#include <string.h>

/* ---- option values ------------------------------------------------------ */

enum cs__valkind { CS__V_NONE, CS__V_DIR, CS__V_FILE, CS__V_WORDS };

static enum cs__valkind cs__value_kind(const struct cs_cli_opt *o)
{
    if (!o->metavar)
        return CS__V_NONE;
    if (strcmp(o->metavar, "DIR") == 0)
        return CS__V_DIR;
    if (strcmp(o->metavar, "FILE") == 0 || strcmp(o->metavar, "FILES") == 0)
        return CS__V_FILE;
    return CS__V_WORDS;
}

static bool cs__is_word(const char *s, size_t len)
{
    if (len == 0 || len > 32)
        return false;
    for (size_t i = 0; i < len; i++)
        if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '-' && s[i] != '.')
            return false;
    return true;
}

/* Appends to buf the items of a list written as "a, b or c" (or, with
 * `spaces`, "a b c"); nothing unless every item is one word and there are
 * at least two. */
static void cs__list(const char *s, size_t len, bool spaces, char *buf, size_t cap)
{
    char items[16][33];
    size_t n = 0, i = 0;
    while (i < len) {
        while (i < len && (s[i] == ' ' || s[i] == ','))
            i++;
        if (i + 3 <= len && strncmp(s + i, "or ", 3) == 0 && n > 0) {
            i += 3;
            continue;
        }
        size_t j = i;
        while (j < len && s[j] != ',' && !(s[j] == ' ' && (spaces || strncmp(s + j, " or ", 4) == 0)))
            j++;
        while (j > i && s[j - 1] == ' ')
            j--;
        if (j == i)
            break;
        if (!cs__is_word(s + i, j - i) || n == 16)
            return;
        memcpy(items[n], s + i, j - i);
        items[n++][j - i] = '\0';
        i = j;
    }
    if (n < 2)
        return;
    for (size_t k = 0; k < n; k++) {
        size_t used = strlen(buf);
        int wrote = snprintf(buf + used, cap - used, "%s%s", used ? " " : "", items[k]);
        if (wrote < 0 || (size_t)wrote >= cap - used)
            break; /* full: the list stops at what fits */
    }
}

/* The values an option takes, when its help lists them ("output format:
 * text (default), json or csv", "fifo (default), backfill (EASY) or sjf",
 * "collective (all_reduce, all_gather, ...)"); "" when it does not. */
static void cs__choices(const struct cs_cli_opt *o, char *buf, size_t cap)
{
    buf[0] = '\0';
    if (cs__value_kind(o) != CS__V_WORDS)
        return;
    /* The text outside parentheses, after a "label:" if there is one. */
    char flat[512];
    size_t n = 0;
    int depth = 0;
    for (const char *p = o->help; *p && n + 1 < sizeof flat; p++) {
        if (*p == '(')
            depth++;
        else if (*p == ')')
            depth = depth > 0 ? depth - 1 : 0;
        else if (depth == 0)
            flat[n++] = *p;
    }
    flat[n] = '\0';
    const char *colon = strchr(flat, ':');
    const char *text = colon ? colon + 1 : flat;
    cs__list(text, strlen(text), colon && !strchr(text, ','), buf, cap);
    /* Lists inside parentheses, up to a ';'. */
    for (const char *p = strchr(o->help, '('); p; p = strchr(p + 1, '(')) {
        const char *end = strpbrk(p + 1, ";)(");
        if (end)
            cs__list(p + 1, (size_t)(end - p - 1), false, buf, cap);
    }
}

/* ---- roff --------------------------------------------------------------- */

/* len bytes of s as roff text: backslashes and hyphens escaped; a '.' or
 * '\'' that would start a line (bol) cannot become a request. */
static void cs__roff(FILE *out, const char *s, size_t len, bool bol)
{
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        if (bol && (c == '.' || c == '\''))
            fputs("\\&", out);
        bol = c == '\n';
        if (c == '\\')
            fputs("\\e", out);
        else if (c == '-')
            fputs("\\-", out);
        else
            fputc(c, out);
    }
}

static void cs__roffs(FILE *out, const char *s, bool bol)
{
    cs__roff(out, s, strlen(s), bol);
}

/* A sentence from a summary or an option's help: a full stop, and with
 * `capital` the first letter capital. */
static void cs__roff_sentence(FILE *out, const char *s, bool capital)
{
    size_t len = strlen(s);
    if (len == 0)
        return;
    char first[2] = {capital ? (char)toupper((unsigned char)s[0]) : s[0], '\0'};
    cs__roffs(out, first, true);
    cs__roff(out, s + 1, len - 1, false);
    fputs(s[len - 1] == '.' ? "\n" : ".\n", out);
}

/* Help text: prose lines are filled; runs of indented lines (examples,
 * lists) are kept as written. */
static void cs__roff_text(FILE *out, const char *text)
{
    bool verb = false;
    fputs(".PP\n", out);
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        bool indented = p[0] == ' ';
        if (indented && !verb)
            fputs(".RS 2\n.nf\n", out);
        else if (!indented && verb && len > 0)
            fputs(".fi\n.RE\n.PP\n", out);
        if (len > 0)
            verb = indented;
        if (len == 0) {
            fputs(verb ? "\n" : ".PP\n", out);
        } else {
            size_t skip = 0;
            while (indented && skip < 2 && p[skip] == ' ')
                skip++;
            cs__roff(out, p + skip, len - skip, true);
            fputc('\n', out);
        }
        p = nl ? nl + 1 : p + len;
    }
    if (verb)
        fputs(".fi\n.RE\n", out);
}

static void cs__roff_opt(FILE *out, char shrt, const char *lng, const char *metavar,
                         const char *help)
{
    fputs(".TP\n", out);
    if (shrt)
        fprintf(out, "\\fB\\-%c\\fR, ", shrt);
    fputs("\\fB\\-\\-", out);
    cs__roffs(out, lng, false);
    fputs("\\fR", out);
    if (metavar) {
        fputs(" \\fI", out);
        cs__roffs(out, metavar, false);
        fputs("\\fR", out);
    }
    fputc('\n', out);
    cs__roff_sentence(out, help, false);
}

void cs_cli_write_man(FILE *out, const struct cs_cli_cmd *const *cmds, size_t n)
{
    fprintf(out,
            ".\\\" clustersim(1), generated by `clustersim help --man` from the commands'\n"
            ".\\\" help text (cli/docgen.c): edit the help, not this page.\n"
            ".TH CLUSTERSIM 1 \"\" \"clustersim %s\" \"User Commands\"\n"
            ".SH NAME\n"
            "clustersim \\- discrete\\-event simulator and capacity planner for GPU clusters\n"
            ".SH SYNOPSIS\n"
            ".B clustersim\n"
            ".RB [ \\-\\-help ]\n"
            ".RB [ \\-\\-version ]\n"
            ".RB [ \\-\\-data\\-dir ]\n"
            ".br\n",
            CLUSTERSIM_VERSION);
    for (size_t i = 0; i < n; i++) {
        const char *u = cmds[i]->usage;
        size_t name = strlen(cmds[i]->name);
        fputs("\\fBclustersim ", out);
        cs__roff(out, u, strncmp(u, cmds[i]->name, name) == 0 ? name : 0, false);
        fputs("\\fR", out);
        cs__roffs(out, strncmp(u, cmds[i]->name, name) == 0 ? u + name : u, false);
        fputs("\n.br\n", out);
    }
    fputs("\\fBclustersim help\\fR [\\fICOMMAND\\fR]\n", out);
    fputs(".SH DESCRIPTION\n"
          "clustersim describes a GPU cluster (GPUs, NVLink/PCIe nodes, InfiniBand, RoCE\n"
          "or Ethernet fabrics, storage tiers) and a training workload (a transformer's\n"
          "shape, batch, parallelism, checkpoints, failures) in YAML. It simulates one\n"
          "training step on a discrete\\-event engine, the whole run with failures and\n"
          "checkpoints, collectives on the fabric, a job trace through a scheduler and\n"
          "the cost of owning or renting the cluster, and compares its models with\n"
          "published measurements.\n"
          ".PP\n"
          "Every error names the file (and line, column and key for scenario files).\n"
          "Files named \\fB\\-o\\fR \\fIDIR\\fR are written to a temporary file and renamed,\n"
          "so nothing is left half\\-written.\n"
          ".SH GLOBAL OPTIONS\n",
          out);
    cs__roff_opt(out, 'h', "help", NULL, "list the commands");
    cs__roff_opt(out, 'V', "version", NULL,
                 "print the version and the data directory, with the rule that chose it");
    cs__roff_opt(out, 0, "data-dir", NULL, "print the data directory alone (for scripts)");
    cs__roff_opt(out, 0, "allow-include", "DIR",
                 "also let include:, a sweep's base: and a neighbour's scenario: name .yaml files inside DIR "
                 "(repeatable, anywhere before the command's --); by default they must lie in the directory of "
                 "the file named on the command line or in the data directory (docs/security.md)");
    fputs(".SH COMMANDS\n", out);
    for (size_t i = 0; i < n; i++) {
        const struct cs_cli_cmd *c = cmds[i];
        fputs(".SS\nclustersim ", out);
        cs__roffs(out, c->usage, false);
        fputc('\n', out);
        cs__roff_sentence(out, c->summary, true);
        if (c->details)
            cs__roff_text(out, c->details);
        for (int k = 0; k < c->nopts; k++)
            cs__roff_opt(out, c->opts[k].shrt, c->opts[k].lng, c->opts[k].metavar,
                         c->opts[k].help);
        cs__roff_opt(out, 'h', "help", NULL, "show the command's help");
    }
    fputs(".SS\nclustersim help [COMMAND]\n"
          "Without COMMAND the list of commands; with it, the command's options (as\n"
          "\\fBclustersim\\fR \\fICOMMAND\\fR \\fB\\-\\-help\\fR).\n"
          "\\fBclustersim help \\-\\-man\\fR writes this page.\n"
          ".SH EXIT STATUS\n"
          ".TP\n0\nSuccess.\n"
          ".TP\n1\nA simulation failed (for example the configuration does not fit in GPU\n"
          "memory: the report says so), or a usage error that the command's help explains.\n"
          ".TP\n2\nBad input: a file that does not validate, an unknown command or option.\n"
          ".SH ENVIRONMENT\n"
          ".TP\n.B CLUSTERSIM_DATA\n"
          "The data directory (see \\fBFILES\\fR), instead of the installed one.\n"
          ".TP\n.B CLUSTERSIM_CATALOG\n"
          "The hardware catalog directory for commands run without \\fB\\-\\-catalog\\fR\n"
          "(default: \\fIDATA\\fR/scenarios/catalog).\n"
          ".TP\n.B SOURCE_DATE_EPOCH\n"
          "The date \\fBclustersim calibrate\\fR records in the overlay it writes.\n"
          ".SH FILES\n"
          "clustersim reads its own data from one directory, \\fIDATA\\fR, the first of:\n"
          "\\fB$CLUSTERSIM_DATA\\fR; \\fIPREFIX\\fR/share/clustersim when the binary is\n"
          "\\fIPREFIX\\fR/bin/clustersim (an installed copy can be moved as a whole); the\n"
          "source tree the binary was built from, while it exists;\n",
          out);
    cs__roffs(out, cs_data_dir_compiled(), false);
    fputs(" (compiled in).\n"
          "\\fBclustersim \\-\\-version\\fR names the one in use and why.\n"
          ".TP\n\\fIDATA\\fR/scenarios/catalog/\n"
          "The hardware and price catalog (GPUs, links, sites, clouds, storage), each\n"
          "value with its source and date.\n"
          ".TP\n\\fIDATA\\fR/scenarios/\n"
          "Bundled scenarios (default.yaml, llama3\\-405b\\-54d.yaml, replay\\-*.yaml),\n"
          "sweeps/, claims/ (with INDEX.yaml, the seed claims \\fBclustersim claims\\fR\n"
          "runs) and calibration/.\n"
          ".TP\n\\fIDATA\\fR/plots/\n"
          "gnuplot templates for the figures of plot, replay, tco and calibrate.\n"
          ".TP\n\\fIDATA\\fR/validation/\n"
          "The published measurements (step tables, nccl\\-tests logs, failure and\n"
          "hardware facts, job traces) that validate\\-refs and the tests read; see its\n"
          "README.md and INDEX.yaml.\n"
          ".SH EXAMPLES\n"
          ".nf\n"
          "D=$(clustersim \\-\\-data\\-dir)\n"
          "clustersim run $D/scenarios/default.yaml\n"
          "clustersim validate\\-refs\n"
          "clustersim claims\n"
          "clustersim sweep \\-j 2 \\-o out $D/scenarios/sweeps/checkpoint\\-interval.yaml\n"
          "clustersim plot out\n"
          "clustersim report \\-o out run $D/scenarios/default.yaml\n"
          ".fi\n"
          ".SH SEE ALSO\n"
          "\\fBgnuplot\\fR(1); README.md and docs/ in clustersim's source.\n",
          out);
}

/* ---- bash --------------------------------------------------------------- */

static void cs__bash_case(FILE *out, const struct cs_cli_cmd *c, const struct cs_cli_opt *o)
{
    fputs("        ", out);
    if (o->shrt)
        fprintf(out, "\"%s -%c\"|", c->name, o->shrt);
    fprintf(out, "\"%s --%s\")\n", c->name, o->lng);
    char ch[512];
    cs__choices(o, ch, sizeof ch);
    switch (cs__value_kind(o)) {
    case CS__V_DIR:
        fputs("            _clustersim_reply -d; return ;;\n", out);
        break;
    case CS__V_FILE:
        fputs("            _clustersim_reply -f; return ;;\n", out);
        break;
    default:
        if (ch[0])
            fprintf(out, "            _clustersim_reply -W \"%s\"; return ;;\n", ch);
        else
            fputs("            _clustersim_reply; return ;;\n", out);
        break;
    }
}

static void cs__write_bash(FILE *out, const struct cs_cli_cmd *const *cmds, size_t n)
{
    fputs("# bash completion for clustersim, generated by `clustersim completion bash`\n"
          "# from the commands' option tables (cli/docgen.c): do not edit.\n"
          "\n"
          "# _clustersim_reply [-d | -f | -W WORDS]: directories, files, the words, or\n"
          "# nothing (an option whose value cannot be guessed).\n"
          "_clustersim_reply()\n"
          "{\n"
          "    case ${1-} in\n"
          "        -d) COMPREPLY=($(compgen -d -- \"$cur\")); compopt -o filenames 2>/dev/null ;;\n"
          "        -f) COMPREPLY=($(compgen -f -- \"$cur\")); compopt -o filenames 2>/dev/null ;;\n"
          "        -W) COMPREPLY=($(compgen -W \"$2\" -- \"$cur\")) ;;\n"
          "        *) COMPREPLY=(); compopt +o default 2>/dev/null ;;\n"
          "    esac\n"
          "}\n"
          "\n"
          "_clustersim()\n"
          "{\n"
          "    local cur=${COMP_WORDS[COMP_CWORD]} prev= cmd= i\n"
          "    ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}\n"
          "    # --opt=VALUE: COMP_WORDBREAKS splits it into --opt, = and VALUE.\n"
          "    if [[ $cur == = ]]; then\n"
          "        cur=\n"
          "    elif [[ $prev == = ]] && ((COMP_CWORD > 1)); then\n"
          "        prev=${COMP_WORDS[COMP_CWORD - 2]}\n"
          "    fi\n"
          "    for ((i = 1; i < COMP_CWORD; i++)); do\n"
          "        case ${COMP_WORDS[i]} in\n"
          "            -*) ;;\n"
          "            *) cmd=${COMP_WORDS[i]}; break ;;\n"
          "        esac\n"
          "    done\n"
          "    local commands=\"",
          out);
    for (size_t i = 0; i < n; i++)
        fprintf(out, "%s ", cmds[i]->name);
    fputs("help\"\n"
          "    if [[ -z $cmd ]]; then\n"
          "        _clustersim_reply -W \"$commands --help --version --data-dir --allow-include\"\n"
          "        return\n"
          "    fi\n"
          "    case \"$cmd $prev\" in\n",
          out);
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < cmds[i]->nopts; k++)
            if (cmds[i]->opts[k].metavar)
                cs__bash_case(out, cmds[i], &cmds[i]->opts[k]);
    fputs("    esac\n"
          "    local opts=\n"
          "    case $cmd in\n"
          "        help) [[ $cur == -* ]] || { _clustersim_reply -W \"$commands\"; return; } ;;\n",
          out);
    for (size_t i = 0; i < n; i++) {
        const struct cs_cli_cmd *c = cmds[i];
        fprintf(out, "        %s) ", c->name);
        if (strcmp(c->name, "completion") == 0)
            fputs("[[ $cur == -* ]] || { _clustersim_reply -W \"bash zsh\"; return; }; ", out);
        fputs("opts=\"", out);
        for (int k = 0; k < c->nopts; k++)
            fprintf(out, "--%s ", c->opts[k].lng);
        fputs("--help\" ;;\n", out);
    }
    fputs("    esac\n"
          "    if [[ $cur == -* ]]; then\n"
          "        _clustersim_reply -W \"$opts\"\n"
          "    else\n"
          "        _clustersim_reply -f\n"
          "    fi\n"
          "}\n"
          "complete -o default -F _clustersim clustersim\n",
          out);
}

/* ---- zsh ---------------------------------------------------------------- */

/* s inside a single-quoted _arguments spec's [explanation]. */
static void cs__zsh_help(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '\'')
            fputs("'\\''", out);
        else if (*s == '[' || *s == ']' || *s == ':' || *s == '\\')
            fprintf(out, "\\%c", *s);
        else
            fputc(*s, out);
    }
}

static void cs__zsh_opt(FILE *out, const struct cs_cli_opt *o)
{
    fputs("    ", out);
    if (o->shrt)
        fprintf(out, "'(-%c --%s)'{-%c,--%s}'[", o->shrt, o->lng, o->shrt, o->lng);
    else
        fprintf(out, "'--%s[", o->lng);
    cs__zsh_help(out, o->help);
    fputc(']', out);
    if (o->metavar) {
        fprintf(out, ":%s:", o->metavar);
        char ch[512];
        cs__choices(o, ch, sizeof ch);
        switch (cs__value_kind(o)) {
        case CS__V_DIR: fputs("_files -/", out); break;
        case CS__V_FILE: fputs("_files", out); break;
        default: fputs(ch[0] ? "(" : " ", out); fputs(ch, out); fputs(ch[0] ? ")" : "", out); break;
        }
    }
    fputs("' \\\n", out);
}

static void cs__write_zsh(FILE *out, const struct cs_cli_cmd *const *cmds, size_t n)
{
    fputs("#compdef clustersim\n"
          "# zsh completion for clustersim, generated by `clustersim completion zsh`\n"
          "# from the commands' option tables (cli/docgen.c): do not edit.\n"
          "\n"
          "local -a _clustersim_commands\n"
          "_clustersim_commands=(\n",
          out);
    for (size_t i = 0; i < n; i++) {
        fprintf(out, "  '%s:", cmds[i]->name);
        cs__zsh_help(out, cmds[i]->summary);
        fputs("'\n", out);
    }
    fputs("  'help:show help for a command'\n"
          ")\n"
          "\n"
          "_clustersim_command() {\n"
          "  case $1 in\n"
          "  help) _arguments '1:command:(",
          out);
    for (size_t i = 0; i < n; i++)
        fprintf(out, "%s ", cmds[i]->name);
    fputs(")' ;;\n", out);
    for (size_t i = 0; i < n; i++) {
        const struct cs_cli_cmd *c = cmds[i];
        fprintf(out, "  %s)\n    _arguments -s -S \\\n", c->name);
        for (int k = 0; k < c->nopts; k++)
            cs__zsh_opt(out, &c->opts[k]);
        fputs("    '(- *)'{-h,--help}'[show the command'\\''s help]' \\\n", out);
        if (strcmp(c->name, "completion") == 0)
            fputs("    '1:shell:(bash zsh)' ;;\n", out);
        else
            fputs("    '*:file:_files' ;;\n", out);
    }
    fputs("  esac\n"
          "}\n"
          "\n"
          "_clustersim() {\n"
          "  local curcontext=$curcontext state line\n"
          "  _arguments -C \\\n"
          "    '(- *)'{-h,--help}'[list the commands]' \\\n"
          "    '(- *)'{-V,--version}'[print the version and the data directory]' \\\n"
          "    '(- *)--data-dir[print the data directory]' \\\n"
          "    '1:command:->command' \\\n"
          "    '*::argument:->argument'\n"
          "  case $state in\n"
          "  command) _describe -t commands 'clustersim command' _clustersim_commands ;;\n"
          "  argument) curcontext=${curcontext%:*:*}:clustersim-$words[1]:\n"
          "    _clustersim_command $words[1] ;;\n"
          "  esac\n"
          "}\n"
          "\n"
          "_clustersim \"$@\"\n",
          out);
}

bool cs_cli_write_completion(FILE *out, const char *shell, const struct cs_cli_cmd *const *cmds,
                             size_t n)
{
    if (strcmp(shell, "bash") == 0)
        cs__write_bash(out, cmds, n);
    else if (strcmp(shell, "zsh") == 0)
        cs__write_zsh(out, cmds, n);
    else
        return false;
    return true;
}
