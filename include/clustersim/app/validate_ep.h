/* validate_ep.h: the expert-parallel all-to-all model against measured MoE
 * token dispatch and combine latencies (app layer, app/validate_ep.c), as
 * `clustersim validate-refs --ep-dispatch` prints it.
 *
 * Every `kind: ep-dispatch` entry of validation/INDEX.yaml is a CSV whose rows
 * give a platform, the scenario (relative to the CSV's folder) whose cluster
 * the measurement ran on, the EP group size, the dispatcher (`alltoall`:
 * Megatron-Core's NCCL all-to-all, one copy per routed expert; `hybridep` or
 * `deepep`: the hierarchical kernels, one copy per destination GPU and per
 * destination node), the operation (dispatch or combine), tokens per rank,
 * hidden size, top-k, element bytes and the measured latency in
 * microseconds. Each row is costed as the step costs one EP all-to-all
 * (models/step.c, docs/moe.md "Hierarchical dispatch"): cs_coll_time_ex of
 * an all-to-all of tokens x top_k x hidden x elem_bytes bytes per rank over
 * the EP group packed on the scenario's nodes, with the dispatcher's top-k
 * for the hierarchical ones. docs/validation.md. */
#ifndef CLUSTERSIM_APP_VALIDATE_EP_H
#define CLUSTERSIM_APP_VALIDATE_EP_H

#include "clustersim/base/diag.h"
#include "clustersim/base/status.h"
#include "clustersim/config/catalog.h"
#include "clustersim/config/valindex.h"

#include <stdbool.h>

struct cs_app_epval_row {
    const char *file;      /* the index entry's file (borrowed from the index) */
    int line;              /* the row's line in it */
    char platform[32];
    char dispatcher[16];
    char op[16];
    int ep;
    double bytes;          /* per rank: tokens x top_k x hidden x elem_bytes */
    double measured_us, predicted_us, error;   /* error = predicted / measured - 1 */
};

/* Mean |error| of the rows of one platform and dispatcher. */
struct cs_app_epval_group {
    char platform[32];
    char dispatcher[16];
    int n;
    double sum;            /* of |error| */
    double worst;          /* largest |error| */
};

struct cs_app_epval {
    struct cs_valindex ix;              /* owned */
    int tables;                         /* ep-dispatch entries compared */
    struct cs_app_epval_row *rows;      /* owned, file and line order */
    int n;
    struct cs_app_epval_group *groups;  /* owned, in order of first appearance */
    int ngroups;
    double sum, worst;                  /* over every row */
};

/* Reads the index (cs_data_path("validation/INDEX.yaml")) and compares every
 * ep-dispatch entry. CS_OK with out->n rows; CS_ECONFIG (a diagnostic in d
 * naming file, line and column) for a file that cannot be read or a row
 * that cannot be costed; CS_ERANGE when no entry holds a row. Release with
 * cs_app_epval_fini whatever the status. */
cs_status cs_app_validate_ep_dispatch(const cs_catalog *cat, cs_diags *d, struct cs_app_epval *out);
void cs_app_epval_fini(struct cs_app_epval *r);

#endif
