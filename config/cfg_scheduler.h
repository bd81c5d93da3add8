/* cfg_scheduler.h: the `scheduler:` section of a scenario (config layer,
 * internal): policy, placement, preemption, MIG slices per GPU, partitions
 * with quotas, priorities and match rules, and an optional claim for
 * `clustersim replay` to answer. scenario.c calls the hook after the other
 * sections are bound. Keys are documented in docs/replay.md. */
#ifndef CLUSTERSIM_CONFIG_CFG_SCHEDULER_H
#define CLUSTERSIM_CONFIG_CFG_SCHEDULER_H

#include "clustersim/base/diag.h"
#include "clustersim/models/scenario.h"
#include "yamltree.h"

/* Binds `scheduler:` of the document root into s->scheduler (enabled false
 * when absent). Errors go to d with file:line:col, the key path, what was
 * expected and what was found. */
void cs_cfg__bind_scheduler(const struct cs_ynode *root, struct cs_scenario *s, cs_diags *d);

#endif
