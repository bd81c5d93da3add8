/* refs.h: published step-time measurements as validation cases
 * (config/refs.c reads them; models/validate.c predicts them).
 *
 * Each row of a reference CSV (validation/step/) becomes a
 * resolved scenario (cluster + workload built through the normal scenario
 * loader and catalog) plus the measured figure. What a row does not state is
 * filled by a documented policy, the same for every row of a file, never
 * tuned per row: the software stack of the paper (which fixes overlap and
 * fused attention), the micro-batch (the best of 1, 2, 4, 8 that fits, as the
 * authors tuned it) and, where the paper does not say, the cheapest
 * recomputation that fits. */
#ifndef CLUSTERSIM_CONFIG_REFS_H
#define CLUSTERSIM_CONFIG_REFS_H

#include "clustersim/base/diag.h"
#include "clustersim/config/catalog.h"
#include "clustersim/config/valindex.h"
#include "clustersim/models/refcase.h"

#include <stddef.h>

/* Reads one of the reference CSVs (the format is recognized by its header
 * line). Appends the cases to *cases (a heap array, grown; *n updated).
 * Errors name file and line. Returns CS_EIO if unreadable, CS_ECONFIG for a
 * malformed or unknown file. */
cs_status cs_refs_load(const char *path, const cs_catalog *cat, cs_diags *d,
                       struct cs_ref_case **cases, size_t *n);

/* The same, with the facts of a common-schema table (validation/step/
 * SOURCES.md: model,gpu,gpus,nodes,...,tokens_per_s_per_gpu,...) that its
 * index entry `vt` states (nullable): `stack` (cs_ref_stack_parse; NULL:
 * mcore), `link` (a catalog link for the scale-out fabric; NULL: by GPU
 * generation, ib-hdr for A100, ib-ndr otherwise) and `dropout` (true or
 * false; NULL: the model's default). The first-wave formats ignore them.
 * A common-schema row the models cannot express yet (a GPU outside the
 * catalog, a block-scaled precision, mixture of experts, an unstated shape
 * or a table without tokens/s) becomes a case with not_expressible set. */
cs_status cs_refs_load_table(const char *path, const struct cs_val_table *vt,
                             const cs_catalog *cat, cs_diags *d, struct cs_ref_case **cases,
                             size_t *n);
/* cs_refs_load from memory (`name` in diagnostics); a NUL byte is refused. */
cs_status cs_refs_load_buffer(const char *name, const char *buf, size_t len, const cs_catalog *cat, cs_diags *d,
                              struct cs_ref_case **cases, size_t *n);
void cs_refs_free(struct cs_ref_case *cases, size_t n);

#endif
