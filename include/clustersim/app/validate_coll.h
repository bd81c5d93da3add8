/* validate_coll.h: the collective model against published nccl-tests and
 * rccl-tests logs (app layer, app/validate_coll.c), as `clustersim
 * validate-refs --collectives` prints it. Every `kind: collective` entry of
 * validation/INDEX.yaml names the scenario whose cluster the log ran on
 * (and, where the log cannot tell, the operation or the algorithm NCCL was
 * forced to), or why it is not expressible yet. Each row of at least 1 MiB
 * is predicted with the same function as `clustersim collective` (closed
 * form), and the error of the out-of-place bus bandwidth is summed in two
 * bands: at least 64 MiB, and 1 to 64 MiB; per log and per role (fit or
 * holdout). docs/validation.md. */
#ifndef CLUSTERSIM_APP_VALIDATE_COLL_H
#define CLUSTERSIM_APP_VALIDATE_COLL_H

#include "clustersim/base/diag.h"
#include "clustersim/base/status.h"
#include "clustersim/config/catalog.h"
#include "clustersim/config/valindex.h"
#include "clustersim/models/collective.h"

#include <stdbool.h>

/* Bands of message size: [0] >= 64 MiB, [1] 1 MiB .. 64 MiB. */
enum { CS_APP_CVAL_BIG, CS_APP_CVAL_MID, CS_APP_CVAL_BANDS };

/* One compared row of a log: its size, the log's out-of-place bus bandwidth
 * (the in-place one where out-of-place is missing), the model's, and the
 * algorithm and protocol the closed form chose for it. */
struct cs_app_cval_row {
    int line;                       /* the row's line in the log */
    double size_bytes;
    int band;                       /* CS_APP_CVAL_BIG or CS_APP_CVAL_MID */
    double measured_gbps, predicted_gbps; /* bus bandwidth, GB/s (1e9 B/s) */
    double error;                   /* predicted / measured - 1 */
    enum cs_coll_algo algo;
    enum cs_coll_proto proto;
    bool has_proto;
};

struct cs_app_cval_file {
    const struct cs_val_table *vt;  /* borrowed from the result's index */
    const char *role;               /* "fit" or "holdout" */
    bool expressible;               /* false: vt->not_expressible says why */
    cs_status st;                   /* CS_OK, or why it could not be compared */
    cs_diags diags;                 /* owned (cs_app_cval_fini): the error when st is
                                     * not CS_OK, naming the log (and row) or the
                                     * scenario's file */
    char op[24];                    /* of its (first) run */
    long ranks;
    int nodes;
    int n[CS_APP_CVAL_BANDS];       /* rows compared per band */
    double sum[CS_APP_CVAL_BANDS];  /* of |predicted / measured - 1| */
    double worst;                   /* worst |error| over both bands */
    int excluded;                   /* rows left out: out-of-place and in-place
                                     * bus bandwidths differ by more than
                                     * CS_APP_CVAL_GLITCH (a timing glitch) */
    struct cs_app_cval_row *rows;   /* owned; the n[0] + n[1] compared rows, log order */
    int nrows;
};

/* A row whose out-of-place and in-place bus bandwidths differ by more than
 * this factor is a timing glitch of that run, not a property of the
 * collective: nccl-tests times both on the same buffers back to back, so a
 * healthy row agrees to a few percent (docs/validation.md). */
#define CS_APP_CVAL_GLITCH 2.0

struct cs_app_cval_agg {
    int logs;
    int n[CS_APP_CVAL_BANDS];
    double sum[CS_APP_CVAL_BANDS];
    int excluded;
};

struct cs_app_cval {
    struct cs_valindex ix;          /* owned */
    struct cs_app_cval_file *files; /* owned; one per collective entry, index order */
    int nfiles;
    struct cs_app_cval_agg agg[2];  /* [0] fit, [1] holdout */
    int not_expressible, failed;
};

/* Loads the index from the data directory and compares every collective
 * entry, against catalog cat (borrowed). Index errors go to d (CS_ECONFIG or
 * CS_EIO, nothing compared); a log or scenario that fails is recorded in its
 * file's st/diags and the others go on. *out is zeroed first; release it with
 * cs_app_cval_fini whatever the status. */
cs_status cs_app_validate_collectives(const cs_catalog *cat, cs_diags *d, struct cs_app_cval *out);
void cs_app_cval_fini(struct cs_app_cval *r);

/* The compared logs of one role (0 fit, 1 holdout) whose rows add most to
 * band's MAPE over that role: up to k indices into r->files in idx, the
 * largest sum of |error| first (ties in index order); returns how many.
 * Log i adds 100 * files[i].sum[band] / agg[role].n[band] points to the
 * MAPE, so the first j of them together are the MAPE that would remain if
 * every other log of the role were predicted exactly (docs/validation.md,
 * "Collectives"). */
int cs_app_cval_largest(const struct cs_app_cval *r, int role, int band, int k, int *idx);

#endif
