/* sweep.h: what-if sweeps over any key of a scenario (config layer,
 * config/override.c and config/sweep.c; point evaluation and result rows in
 * report/sweep_report.c). See docs/sweep.md.
 *
 * A sweep file names a base scenario and axes of key paths:
 *
 *   base: ../default.yaml           # relative to the sweep file
 *   mode: grid                      # grid (cartesian product) | zip (i-th of each)
 *   axes:
 *     cluster.nodes: {from: 1, to: 512, factor: 2}
 *     cluster.fabric.oversubscription: [1, 2, 3, 4]
 *   derive:                         # optional: values computed from others
 *     workload.parallelism.dp: "gpus / (tp * pp)"
 *   constraints:                    # optional: points where one is false are skipped
 *     - "gpus >= tp * pp"
 *
 * Points are numbered 0 .. n-1; in grid mode the first axis varies slowest.
 * A point's scenario is the base tree with each axis value (and then each
 * derived value) set at its key path before binding, so the binder's checks
 * and did-you-means apply, attributed to the sweep file's lines. Points are
 * pure functions of (sweep, index): any thread may build any point, in any
 * order, and gets the same scenario. */
#ifndef CLUSTERSIM_SWEEP_H
#define CLUSTERSIM_SWEEP_H

#include "clustersim/config/catalog.h"
#include "clustersim/config/config.h"
#include "clustersim/base/diag.h"
#include "clustersim/models/scenario.h"
#include "clustersim/base/status.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One override: set key path `path` ("cluster.nodes",
 * "workload.parallelism.tp", "failures.components.0.mtbf") to the YAML value
 * text `value` ("64", "[a, b]", "{tp: 8, pp: 2}"). `file`, `line`, `col`
 * say where the override was written, for diagnostics (file NULL:
 * "<override>"). All borrowed. */
struct cs_cfg_override {
    const char *path;
    const char *value;
    const char *file;
    int line, col;
};

/* True when s[0..len) is a key path as sweep axes and --set take them: 1 to
 * 255 bytes of letters, digits, '_', '-' and '.', no empty segment
 * ("cluster.nodes", "failures.components.0.mtbf"). */
bool cs_cfg_key_path_ok(const char *s, size_t len);

/* Loads the scenario at `path` with the n overrides applied, in order, to
 * its YAML tree before binding (missing mappings are created; a later
 * override of the same path wins). Errors: a path through a scalar, an
 * empty path segment, a path cs_cfg_key_path_ok refuses, a value that is
 * not YAML; unknown keys and bad values
 * are caught by the normal binder, at the override's file:line. Same
 * contract as cs_cfg_load_scenario otherwise. Thread-safe for distinct
 * outputs (cat is only read). */
cs_status cs_cfg_load_scenario_with(const char *path, const struct cs_cfg_override *ov, size_t n,
                                    const cs_catalog *cat, cs_diags *d, struct cs_scenario *out,
                                    struct cs_provenance *prov);
/* The same for a scenario already in memory (cs_cfg_load_scenario_buffer's
 * `name`, `buf` and `len`). */
cs_status cs_cfg_load_scenario_buffer_with(const char *name, const char *buf, size_t len,
                                           const struct cs_cfg_override *ov, size_t n,
                                           const cs_catalog *cat, cs_diags *d,
                                           struct cs_scenario *out, struct cs_provenance *prov);

/* ---- sweep files ---- */

#define CS_SWEEP_MAX_AXES 32
#define CS_SWEEP_MAX_POINTS ((uint64_t)100000000) /* 10^8: refused above */
#define CS_SWEEP_MAX_VALUES 1000000               /* values of one axis */
#define CS_SWEEP_MAX_TOTAL_VALUES 2000000         /* values of all axes: counted before any range is expanded */

enum cs_sweep_mode { CS_SWEEP_GRID, CS_SWEEP_ZIP };

typedef struct cs_sweep cs_sweep;

/* Loads a sweep file and its base scenario's tree (the base is not bound
 * here; each point is). Errors name file, line and key. On success the
 * caller frees *out with cs_sweep_destroy. `path` borrowed. */
cs_status cs_sweep_load(const char *path, cs_diags *d, cs_sweep **out);
void cs_sweep_destroy(cs_sweep *sw);

uint64_t cs_sweep_points(const cs_sweep *sw);
enum cs_sweep_mode cs_sweep_mode_of(const cs_sweep *sw);
const char *cs_sweep_base_path(const cs_sweep *sw); /* as resolved; borrowed */
const char *cs_sweep_file(const cs_sweep *sw);      /* the sweep file; borrowed */
/* A hash of the sweep's content (base tree text and axes), so outputs of
 * different sweeps are not mixed up on resume or merge. */
uint64_t cs_sweep_hash(const cs_sweep *sw);

/* Variable columns: axes first (file order), then derived keys. */
size_t cs_sweep_ncols(const cs_sweep *sw);
const char *cs_sweep_col(const cs_sweep *sw, size_t i); /* key path; borrowed */
bool cs_sweep_col_derived(const cs_sweep *sw, size_t i);

/* One point's identity and values. */
struct cs_sweep_point {
    uint64_t index;
    uint64_t key;              /* FNV-1a of "path=value\n" over its columns */
    char *values[CS_SWEEP_MAX_AXES * 2]; /* per column, flow-style text; owned */
    size_t nvalues;
    bool skipped;              /* a constraint or an expression rejected it */
    char reason[512];          /* why, when skipped */
};

/* Builds point i (0 <= i < cs_sweep_points): values, derived values,
 * constraints, then (unless skipped) the scenario. Returns CS_OK with
 * pt->skipped false and *out filled (caller finalizes it); CS_OK with
 * pt->skipped true and a reason when a constraint or a derivation rejects
 * it (*out untouched); CS_ECONFIG with diagnostics when the loader rejects
 * the point's scenario (reason filled with the first error too). Free pt
 * with cs_sweep_point_fini in every case. Thread-safe: the sweep and the
 * catalog are only read. */
cs_status cs_sweep_point_build(const cs_sweep *sw, uint64_t i, const cs_catalog *cat, cs_diags *d,
                               struct cs_sweep_point *pt, struct cs_scenario *out);
void cs_sweep_point_fini(struct cs_sweep_point *pt);

/* derive: and constraints: are evaluated with cs_expr_eval
 * (clustersim/config/expr.h). */

/* True when the base scenario, an axis or a derived key sets `prefix` or a
 * key under it ("run", "cost", "workload.tokens"). */
bool cs_sweep_sets(const cs_sweep *sw, const char *prefix);

/* Checks the sweep against the scenario schema by building point 0: keys
 * the binder does not know (with its did-you-mean) and paths that cannot be
 * set (through a scalar, past a sequence) are errors of the sweep file, not
 * reasons to skip points. Returns CS_OK or CS_ECONFIG with those errors. */
cs_status cs_sweep_check(const cs_sweep *sw, const cs_catalog *cat, cs_diags *d);

/* The key of point i (cs_sweep_point.key) without building the point. */
uint64_t cs_sweep_point_key(const cs_sweep *sw, uint64_t i);

#endif
