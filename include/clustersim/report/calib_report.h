/* calib_report.h: the calibration overlay and report writers (report
 * layer, report/calib_report.c). */
#ifndef CLUSTERSIM_REPORT_CALIB_REPORT_H
#define CLUSTERSIM_REPORT_CALIB_REPORT_H

#include "clustersim/models/calib.h"

#include <stdbool.h>
#include <stdio.h>

/* report/calib_report.c. The overlay as YAML a scenario can include
 * (`include: OUT.yaml`): a `calibration:` mapping with the date, the inputs
 * and their sha256, the fitted parameters and a fit-quality summary.
 * Returns false on a write error. */
bool cs_calib_write_overlay(FILE *f, const struct cs_calib_overlay *o);
/* Text report: per fit its parameters, each point's residual and MAPE/max. */
bool cs_calib_write_report(FILE *f, const struct cs_calib_overlay *o, bool points);
/* Gnuplot data (one block per collective curve: size, measured busbw,
 * fitted busbw) and a script that plots it to `png` from `data` (names
 * written into the script as given, quoted). */
bool cs_calib_write_plot_data(FILE *f, const struct cs_calib_overlay *o);
bool cs_calib_write_plot_script(FILE *f, const struct cs_calib_overlay *o, const char *data, const char *png);


#endif
