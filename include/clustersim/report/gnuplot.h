/* gnuplot.h: running gnuplot on a script (report layer, report/gnuplot.c),
 * shared by the commands that draw figures (tco, replay, calibrate, plot,
 * report). gnuplot is started directly with fork + execvp, never through a
 * shell, so no file name is ever interpreted as shell syntax. */
#ifndef CLUSTERSIM_GNUPLOT_H
#define CLUSTERSIM_GNUPLOT_H

#include "clustersim/base/diag.h"
#include "clustersim/base/status.h"

#include <stdbool.h>
#include <stddef.h>

/* Exit code of cs_gnuplot_run when gnuplot is not installed (as a shell's). */
#define CS_GNUPLOT_MISSING 127

/* Runs `gnuplot SCRIPT` with `dir` as its working directory and waits for
 * it. Returns 0 on success, CS_GNUPLOT_MISSING when gnuplot is not on PATH,
 * 126 when dir cannot be entered or gnuplot cannot be executed, -1 when the
 * process cannot be started or is killed, else gnuplot's exit status.
 * Both strings borrowed. */
int cs_gnuplot_run(const char *dir, const char *script);

/* True when gnuplot can be run (`gnuplot --version` exits with 0). */
bool cs_gnuplot_available(void);

/* The directory of the bundled templates (the source tree's plots/). */
const char *cs_gnuplot_template_dir(void);

/* Copies the template plots/NAME into dir/NAME. Returns CS_OK, or CS_EIO
 * with one error in d (caller-owned) whose file is the template or the copy
 * that cannot be read or written. Both strings borrowed. */
cs_status cs_gnuplot_copy_template(const char *dir, const char *name, cs_diags *d);

#endif
