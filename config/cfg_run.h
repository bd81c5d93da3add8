/* cfg_run.h: the run-level keys that scenario.c's tables do not bind
 * (config layer, internal): the `data:` section, the Llama 3 default failure
 * classes, and the checks of checkpoint.upload and data.tier against
 * cluster.storage. scenario.c calls the hook after every section is bound. */
#ifndef CLUSTERSIM_CONFIG_CFG_RUN_H
#define CLUSTERSIM_CONFIG_CFG_RUN_H

#include "clustersim/base/diag.h"
#include "clustersim/models/scenario.h"
#include "yamltree.h"

/* Binds `data:` of the document root into s->data, fills the default
 * failure classes when `failures:` gives no components, and checks tier
 * names. Errors go to d with file:line:col and the key path. */
void cs_cfg__bind_run_extra(const struct cs_ynode *root, struct cs_scenario *s, cs_diags *d);

#endif
