/* override.h: copy-on-write key-path overrides of a YAML tree (config layer,
 * internal to config/; config/override.c). A sweep point or a command-line
 * override sets `cluster.nodes` or `workload.parallelism.tp` in the tree
 * before the scenario binder sees it, so every key the binder knows can be
 * swept and unknown keys get the binder's own did-you-mean.
 *
 * Copy-on-write: the base tree (shared, read-only, possibly by several
 * threads) is never modified. Setting a path copies the mappings and
 * sequences along that path into an overlay that owns them; untouched
 * subtrees stay shared. The overlay is freed in one call. */
#ifndef CLUSTERSIM_CONFIG_OVERRIDE_H
#define CLUSTERSIM_CONFIG_OVERRIDE_H

#include "clustersim/config/catalog.h"
#include "clustersim/config/config.h"
#include "clustersim/config/sweep.h"
#include "clustersim/base/diag.h"
#include "yamltree.h"

#include <stdbool.h>

/* Memory of the copied nodes. Zero-initialize (or cs_ovl_init), then
 * cs_ovl_fini. Not shared between threads. */
struct cs_ovl {
    void **blocks;           /* every allocation, freed by cs_ovl_fini */
    size_t n, cap;
    struct cs_ynode **owned; /* nodes copied into the overlay */
    size_t n_owned, cap_owned;
};

void cs_ovl_init(struct cs_ovl *o);
void cs_ovl_fini(struct cs_ovl *o);

/* A new plain scalar node holding a copy of `text`, marked file:line:col
 * (file borrowed: it must outlive the overlay). Owned by o. */
struct cs_ynode *cs_ovl_scalar(struct cs_ovl *o, const char *text, const char *file, int line,
                               int col);

/* Sets `path` ("a.b.c"; a segment that is a decimal number indexes a
 * sequence) to `value` in the tree *root, creating missing mappings. *root
 * is replaced by the overlay's copy; the old tree is not touched. `value`
 * is borrowed (it must outlive the use of the tree). Errors (an empty
 * segment, a path through a scalar, an index past a sequence's end, a root
 * that is not a mapping) are added to d at file:line:col and return false,
 * with *root unchanged. */
bool cs_ovl_set(struct cs_ovl *o, const struct cs_ynode **root, const char *path,
                const struct cs_ynode *value, const char *file, int line, int col, cs_diags *d);

/* The node at `path` under root, or NULL when a segment is missing. */
const struct cs_ynode *cs_ovl_get(const struct cs_ynode *root, const char *path);

/* Applies the n overrides (--set, sweep axes) in order to *root through
 * the overlay: each value is parsed as YAML into vals[i] (n slots, zeroed;
 * the caller destroys them after the tree is used) and re-marked at the
 * override's place. False when any failed (errors in d). */
bool cs_ovl_apply(struct cs_ovl *o, const struct cs_ynode **root, const struct cs_cfg_override *ov,
                  size_t n, cs_ydoc **vals, cs_diags *d);

/* Binds an already-built tree as cs_cfg_load_scenario binds a file's
 * (config/scenario.c). `root` may be NULL (an empty document); `path` is
 * the file name used for defaults and s->file. */
cs_status cs_cfg__bind_root(const struct cs_ynode *root, const char *path, const cs_catalog *cat,
                            cs_diags *d, struct cs_scenario *out, struct cs_provenance *prov);
/* Same, with a neighbour's scenario confined to the directory of `top`
 * rather than `path`'s (cs_ypath_check; see cs_ydoc_load_buffer_top). */
cs_status cs_cfg__bind_root_top(const struct cs_ynode *root, const char *path, const char *top,
                                const cs_catalog *cat, cs_diags *d, struct cs_scenario *out,
                                struct cs_provenance *prov);

/* Binds a plan's candidate tree (config/plan.c): as cs_cfg__bind_root, but
 * the workload's parallelism rules (cs_step_rules) are left to the plan's
 * search, which replaces the parallelism. */
cs_status cs_cfg__bind_root_plan(const struct cs_ynode *root, const char *path, const cs_catalog *cat,
                                 cs_diags *d, struct cs_scenario *out);

#endif
