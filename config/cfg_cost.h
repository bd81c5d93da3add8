/* cfg_cost.h: the TCO keys of `cost:` beyond scenario.c's cost table
 * (config layer, internal). scenario.c's bind_cost calls this hook after it
 * has filled the table's keys. */
#ifndef CLUSTERSIM_CONFIG_CFG_COST_H
#define CLUSTERSIM_CONFIG_CFG_COST_H

#include "clustersim/base/diag.h"
#include "clustersim/models/scenario.h"
#include "yamltree.h"

/* Fills s->cost.ext from the mapping `cost` (NULL when the scenario has no
 * `cost:` section: defaults only). `where` locates errors about missing
 * keys. Errors go to d with file:line:col and the key path; the caller
 * fails the load when d has errors. Reads s->cluster and s->failures for
 * defaults (they are bound before cost). */
void cs_cfg__cost_ext(const struct cs_ynode *cost, const struct cs_ynode *where,
                      struct cs_scenario *s, cs_diags *d);

/* Calls fn for each key path the ext tables parse ("cost.staff_per_year",
 * "cost.cloud.egress", "cost.hybrid.demand", ...). */
void cs_cfg__cost_ext_keys(void (*fn)(void *ctx, const char *key), void *ctx);

#endif
