/* search.c: a scenario's parallel configurations searched and ranked
 * (contract in clustersim/app/search.h; the search itself is
 * models/search.c's). */
#include "clustersim/app/search.h"

#include "clustersim/app/pipeline.h"
#include "clustersim/models/calib.h"

#include <stdio.h>
#include <string.h>

void cs_app_search_opts_default(struct cs_app_search_opts *o)
{
    memset(o, 0, sizeof *o);
    cs_search_space_default(&o->space);
    o->top = 20;
}

void cs_app_search_fini(struct cs_app_search *r)
{
    if (!r)
        return;
    cs_search_result_fini(&r->res);
    memset(r, 0, sizeof *r);
}

cs_status cs_app_search(const struct cs_scenario *s, const struct cs_app_search_opts *o, cs_diags *d,
                        struct cs_app_search *out)
{
    memset(out, 0, sizeof *out);
    if (!s->has_workload) {
        cs_diag_error(d, NULL, 0, 0, "search needs a `workload:` section");
        return CS_EINVAL;
    }
    struct cs_step_options so;
    cs_step_options_from_scenario(s, &so); /* calib.h: defaults + calibration */
    /* One network model for every configuration: its shares are cached by
     * communicator shape, and the threads share the cache. */
    cs_netmodel *net = o->net;
    cs_status st = CS_OK;
    if (!net && (st = cs_app_netmodel(s, true, d, &net)) != CS_OK)
        return st;
    so.net = net;
    st = cs_search_run(&s->cluster, &s->workload, &so, &o->space, o->space.threads == 1 ? o->progress : NULL,
                       o->progress_ctx, &out->res);
    if (net != o->net)
        cs_netmodel_destroy(net);
    if (st != CS_OK)
        return st;
    out->shown = o->top == 0 || o->top > out->res.n ? out->res.n : o->top;
    for (size_t i = 0; i < out->res.n; i++)
        out->fit += out->res.points[i].r.fits;
    /* Nothing fits is a failed search, like `run` on an unfit scenario. */
    return out->fit > 0 ? CS_OK : CS_ENOFIT;
}

bool cs_app_search_fix(const char *list, struct cs_search_space *sp, char *bad, size_t badlen)
{
    static const char *const keys[] = {"tp", "pp", "cp", "vp", "mb", "fsdp", "recompute", "ep"};
    bool *flags[] = {&sp->vary_tp, &sp->vary_pp, &sp->vary_cp, &sp->vary_vp, &sp->vary_micro_batch,
                     &sp->vary_dp_sharding, &sp->vary_recompute, &sp->vary_ep};
    const char *p = list;
    for (;;) {
        const char *e = strchr(p, ',');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n > 0) { /* strtok's rule: empty items are skipped */
            bool found = false;
            for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
                if (strlen(keys[k]) == n && strncmp(p, keys[k], n) == 0)
                    *flags[k] = false, found = true;
            if (!found) {
                snprintf(bad, badlen, "%.*s", (int)n, p);
                return false;
            }
        }
        if (!e)
            return true;
        p = e + 1;
    }
}
