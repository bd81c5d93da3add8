/* claim.c: clustersim's verdict on a published claim (`claim:` in a
 * scenario) from the simulated figures (report layer). */
#include "clustersim/report/run_report.h"

#include <math.h>
#include <string.h>

static const char *const cs__metric_names[] = {"MFU", "tokens/s", "step time (s)",
                                               "exposed communication share",
                                               "GPU busy share"};

double cs_claim_metric_value(const struct cs_claim_cfg *c, const struct cs_step_result *r)
{
    if (!r || !r->fits || !(r->time_s > 0))
        return NAN;
    switch ((enum cs_claim_metric)c->metric) {
    case CS_CLAIM_MFU: return r->mfu;
    case CS_CLAIM_TOKENS_PER_S: return r->tokens_per_s;
    case CS_CLAIM_STEP_TIME_S: return r->time_s;
    case CS_CLAIM_EXPOSED_COMM_FRACTION: return r->exposed_comm_s / r->time_s;
    case CS_CLAIM_GPU_BUSY_FRACTION: return r->compute_s / r->time_s;
    }
    return NAN;
}

struct cs_claim_verdict cs_claim_judge(const struct cs_claim_cfg *c, double simulated,
                                       double baseline)
{
    struct cs_claim_verdict v;
    memset(&v, 0, sizeof v);
    v.simulated = simulated;
    v.claimed = NAN;
    v.verdict = "not evaluated";
    if (!c->enabled || !isfinite(simulated))
        return v;
    double got = simulated, want = c->value;
    if (!isnan(c->ratio)) {
        if (!(isfinite(baseline) && baseline != 0))
            return v;
        got = simulated / baseline;
        want = c->ratio;
        v.is_ratio = true;
    }
    if (!isfinite(want))
        return v;
    v.claimed = want;
    v.simulated = got;
    v.error = want != 0 ? got / want - 1.0 : NAN;
    if (isfinite(v.error) && fabs(v.error) <= c->tolerance)
        v.verdict = "supported";
    else if (v.is_ratio && (got - 1.0) * (want - 1.0) > 0)
        v.verdict = "direction holds, magnitude does not";
    else if (v.is_ratio)
        v.verdict = "contradicted";
    else
        v.verdict = "not supported";
    return v;
}

void cs_out_claim_text(FILE *out, const struct cs_claim_cfg *c, const struct cs_claim_verdict *v)
{
    if (!c->enabled)
        return;
    const char *metric = (unsigned)c->metric < 5 ? cs__metric_names[c->metric] : "?";
    fprintf(out, "\nClaim%s%s%s: \"%s\"\n", c->source[0] ? " (" : "", c->source,
            c->source[0] ? ")" : "", c->text);
    if (isnan(v->claimed)) {
        fprintf(out, "  verdict: %s%s\n", v->verdict,
                !isnan(c->ratio) ? " (a ratio claim: run `clustersim compare BASELINE THIS`)" : "");
        return;
    }
    fprintf(out, "  %s%s: claimed %.4g, clustersim %.4g (%+.1f%%, tolerance %.0f%%)\n",
            v->is_ratio ? "ratio of " : "", metric, v->claimed, v->simulated, 100.0 * v->error,
            100.0 * c->tolerance);
    fprintf(out, "  verdict: %s\n", v->verdict);
}

void cs_out_claim_json(cJSON *root, const struct cs_claim_cfg *c, const struct cs_claim_verdict *v)
{
    if (!c->enabled)
        return;
    cJSON *o = cJSON_AddObjectToObject(root, "claim");
    cJSON_AddStringToObject(o, "text", c->text);
    cJSON_AddStringToObject(o, "source", c->source);
    cJSON_AddStringToObject(o, "metric", (unsigned)c->metric < 5 ? cs__metric_names[c->metric] : "?");
    cJSON_AddBoolToObject(o, "ratio", v->is_ratio);
    if (isfinite(v->claimed)) {
        cJSON_AddNumberToObject(o, "claimed", v->claimed);
        cJSON_AddNumberToObject(o, "simulated", v->simulated);
        cJSON_AddNumberToObject(o, "error", v->error);
    }
    cJSON_AddStringToObject(o, "verdict", v->verdict);
}
