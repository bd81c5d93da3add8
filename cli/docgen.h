/* docgen.h: the man page and the shell completions, generated from the
 * subcommands' tables (struct cs_cli_cmd) so that they never drift from the
 * options the parser accepts. The build runs `clustersim help --man` and
 * `clustersim completion bash|zsh` and installs what they print. */
#ifndef CLUSTERSIM_CLI_DOCGEN_H
#define CLUSTERSIM_CLI_DOCGEN_H

#include "cli.h"

#include <stddef.h>
#include <stdio.h>

/* The whole clustersim(1) page in roff (man macros) for the n commands. */
void cs_cli_write_man(FILE *out, const struct cs_cli_cmd *const *cmds, size_t n);

/* A completion script for `shell` ("bash" or "zsh"); false (nothing
 * written) for another shell. */
bool cs_cli_write_completion(FILE *out, const char *shell, const struct cs_cli_cmd *const *cmds,
                             size_t n);

#endif
