/* claims.h: `clustersim claims` (app layer, app/claims.c): every entry of a
 * claims index (scenarios/claims/INDEX.yaml, config/claimindex.h) run
 * through the command that reproduces it and judged by that command's own
 * judge (report/claim.c for `claim:`, models/cost.c for `cost.claim`,
 * report/cost_report.c for the tco table's reference throughput,
 * report/replay_report.c for `scheduler.claim`), one row per judged claim
 * with its verdict in the four words of the contract. docs/claims.md. */
#ifndef CLUSTERSIM_APP_CLAIMS_H
#define CLUSTERSIM_APP_CLAIMS_H

#include "clustersim/base/diag.h"
#include "clustersim/base/status.h"
#include "clustersim/config/catalog.h"
#include "clustersim/config/claimindex.h"

#include <stddef.h>

enum cs_claims_verdict { CS_CLAIMS_SUPPORTED, CS_CLAIMS_CONTRADICTED, CS_CLAIMS_DIRECTION_HOLDS,
                         CS_CLAIMS_NOT_EXPRESSIBLE };
/* "supported", "contradicted", "direction-holds", "not-expressible". */
const char *cs_claims_verdict_name(enum cs_claims_verdict v);

/* One judged claim. Strings are owned by the row array. */
struct cs_claims_row {
    char id[32];              /* the index's id: "N4" */
    char text[512];           /* the seed's words (the index's text) */
    char part[512];           /* the scenario's own claim text when an entry gives several rows; "" */
    char claimed[256];        /* the claimed figure, as the judge reads it; "-" when none */
    char simulated[512];      /* clustersim's figure; "-" when none */
    enum cs_claims_verdict verdict;
    char judge[64];           /* the judge's own word ("direction holds, magnitude does not", ...) */
    char command[1024];       /* the command that reproduces it; "" when none */
    char reason[1024];        /* not-expressible: why; else the index's note, or "" */
};

struct cs_claims_result {
    struct cs_claims_row *rows;
    size_t n;
};

/* Runs the entries of ix (every one, or those whose id is `only`; NULL:
 * all) with the catalog cat. Paths in `command` are written as
 * display_dir/FILE (the index directory as the user should type it, e.g.
 * "scenarios/claims"), with "dir/../" folded. Returns CS_OK; CS_EINVAL when
 * `only` names no entry (one error in d naming the ids); or the error of a
 * scenario, trace or evaluation that fails (diagnostics in d). Warnings of
 * the evaluations are not kept. Release with cs_claims_result_fini. */
cs_status cs_app_claims_run(const struct cs_claimix *ix, const char *display_dir, const cs_catalog *cat,
                            const char *only, cs_diags *d, struct cs_claims_result *out);
void cs_claims_result_fini(struct cs_claims_result *r);

#endif
