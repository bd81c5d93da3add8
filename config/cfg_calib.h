/* cfg_calib.h: the `calibration:` section of a scenario (config layer,
 * internal), written by `clustersim calibrate` as an overlay the scenario
 * includes. scenario.c calls the hook after every other section is bound,
 * because the calibration patches cluster values (efficiencies, storage
 * tier bandwidths). Keys: docs/calibration.md. */
#ifndef CLUSTERSIM_CONFIG_CFG_CALIB_H
#define CLUSTERSIM_CONFIG_CFG_CALIB_H

#include "clustersim/base/diag.h"
#include "clustersim/models/scenario.h"
#include "yamltree.h"

/* Binds `calibration:` of the document root into s->calibration (enabled
 * false when absent) and applies its cluster-level values: intra and link
 * efficiencies, storage tier bandwidths and latency. Errors go to d with
 * file:line:col and the key path. */
void cs_cfg__bind_calibration(const struct cs_ynode *root, struct cs_scenario *s, cs_diags *d);

#endif
