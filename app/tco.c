/* tco.c: break-even, sensitivity, Monte Carlo and the claim of a TCO
 * (contract in clustersim/app/tco.h; equations in docs/cost.md). */
#include "clustersim/app/tco.h"

#include "clustersim/models/cost.h"

#include <string.h>

void cs_app_tco_analyze(const struct cs_scenario *s, const struct cs_app_result *res,
                        double sens_step, int mc_samples, cs_diags *d, struct cs_tco_report *r)
{
    memset(r, 0, sizeof *r);
    const struct cs_cost_inputs *in = res->cost_in;
    r->s = s;
    r->in = in;
    r->res = *res->cost;
    r->n_be = cs_cost_break_even_all(in, r->be);
    r->sens_step = sens_step;
    r->n_sens = cs_cost_sensitivity(in, sens_step, r->sens);
    r->has_step = res->cost_run.has_step;
    r->run = res->cost_run;
    if (mc_samples > 0 && s->cost.ext.n_ranges > 0 &&
        cs_cost_monte_carlo(in, s->cost.ext.ranges, s->cost.ext.n_ranges, mc_samples, s->seed,
                            &r->mc) == CS_OK)
        r->has_mc = true;
    if (s->cost.ext.claim.metric != CS_CLAIM_NONE &&
        cs_cost_claim_evaluate(s, in, d, &r->claim) == CS_OK)
        r->has_claim = true;
}
