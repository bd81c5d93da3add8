/* cfg_net.h: the `neighbours:` section of a scenario (config layer,
 * internal): other jobs sharing the fabric, each {gpus, placement, traffic,
 * bytes, interval}. Keys are documented in docs/fabric.md section 3b. */
#ifndef CLUSTERSIM_CONFIG_CFG_NET_H
#define CLUSTERSIM_CONFIG_CFG_NET_H

#include "clustersim/base/diag.h"
#include "clustersim/models/scenario.h"
#include "clustersim/config/catalog.h"
#include "yamltree.h"

/* Binds `neighbours:` of the document root into s->neighbours (none when
 * absent; an item {scenario: FILE} takes that scenario's job, cat to load
 * it; confined as include: is, to the directory of `top`, the file the
 * load started from: cs_ypath_check) and checks that the job
 * (workload.gpus) and the neighbours fit
 * the cluster's nodes. Errors go to d with file:line:col, the key path,
 * what was expected and what was found. */
void cs_cfg__bind_neighbours(const struct cs_ynode *root, const char *top, const cs_catalog *cat,
                             struct cs_scenario *s, cs_diags *d);

#endif
