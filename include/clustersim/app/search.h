/* search.h: the orchestration of `clustersim search` (app layer,
 * app/search.c): a scenario's model on its cluster becomes a search space
 * around its workload (models/search.h), every configuration is checked,
 * fitted in memory and simulated with the scenario's step options (its
 * calibration included), ranked by throughput, and a search where nothing
 * fits is told apart from one that found a configuration. */
#ifndef CLUSTERSIM_APP_SEARCH_H
#define CLUSTERSIM_APP_SEARCH_H

#include "clustersim/base/diag.h"
#include "clustersim/base/status.h"
#include "clustersim/models/scenario.h"
#include "clustersim/models/search.h"

#include <stdbool.h>
#include <stddef.h>

struct cs_app_search_opts {
    struct cs_search_space space;  /* what varies, unfit kept, threads */
    size_t top;                    /* configurations shown: the `top` fastest; 0: all */
    cs_search_progress progress;   /* may be NULL; called only when space.threads is 1 */
    void *progress_ctx;
    struct cs_netmodel *net;       /* borrowed network model of the scenario's cluster (with its
                                    * neighbours); NULL (default): built and destroyed here */
};

/* Everything varies (cs_search_space_default), the 20 fastest shown, no
 * progress. */
void cs_app_search_opts_default(struct cs_app_search_opts *o);

struct cs_app_search {
    struct cs_search_result res;   /* owned: every configuration simulated, ranked */
    size_t shown;                  /* the first `shown` points of res are the ones to show */
    size_t fit;                    /* of res's points, those that fit in memory */
};

/* Searches around scenario s (borrowed; its cluster, model, global batch,
 * precision and step options are kept). *out is zeroed first; release it
 * with cs_app_search_fini whatever the status. Returns CS_OK when at least
 * one configuration fits; CS_ENOFIT when none does (out is filled all the
 * same: the report says so); CS_EINVAL with an error (no file: the
 * scenario's) when s has no workload. */
cs_status cs_app_search(const struct cs_scenario *s, const struct cs_app_search_opts *o, cs_diags *d,
                        struct cs_app_search *out);

void cs_app_search_fini(struct cs_app_search *r);

/* `search --fix KEYS`: keeps the comma list's parameters of the scenario
 * fixed in sp (tp, pp, cp, vp, mb, fsdp, recompute, ep: ep and etp).
 * False on an unknown key, copied into bad. */
bool cs_app_search_fix(const char *list, struct cs_search_space *sp, char *bad, size_t badlen);

#endif
