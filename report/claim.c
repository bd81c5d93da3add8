/* claim.c: clustersim's verdict on a published claim (`claim:` in a
 * scenario) from the simulated figures (report layer). */
#include "clustersim/report/run_report.h"

#include "clustersim/models/run.h"

#include <math.h>
#include <string.h>

static const char *const cs__metric_names[CS_CLAIM_METRIC_COUNT] = {
    "MFU", "tokens/s", "step time (s)", "exposed communication share", "GPU busy share",
    "data stall share", "goodput", "checkpoint overhead (s)", "GPU idle per checkpoint (s)",
    "node power (W)", "kW per rack", "cooling within the rack limit (1 = yes)",
    "time to thermal throttle (s)"};

const char *cs_claim_metric_label(const struct cs_claim_cfg *c)
{
    return c->metric >= 0 && c->metric < CS_CLAIM_METRIC_COUNT ? cs__metric_names[c->metric] : "?";
}

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
    case CS_CLAIM_DATA_STALL_FRACTION: return r->data_stall_s / r->time_s;
    case CS_CLAIM_GOODPUT:
    case CS_CLAIM_CHECKPOINT_OVERHEAD_S:
    case CS_CLAIM_CHECKPOINT_BLOCKING_S:
    case CS_CLAIM_NODE_POWER_W:
    case CS_CLAIM_KW_PER_RACK:
    case CS_CLAIM_COOLING_OK:
    case CS_CLAIM_TIME_TO_THROTTLE_S:
    case CS_CLAIM_METRIC_COUNT: break;
    }
    return NAN;
}

double cs_claim_metric_value_run(const struct cs_claim_cfg *c, const struct cs_step_result *r,
                                 const struct cs_run_result *run)
{
    bool have_run = run && run->enabled && run->completed > 0 && r && r->fits;
    switch ((enum cs_claim_metric)c->metric) {
    case CS_CLAIM_GOODPUT: return have_run ? run->goodput.mean : NAN;
    case CS_CLAIM_CHECKPOINT_OVERHEAD_S: return have_run ? run->checkpoint_overhead_s.mean : NAN;
    case CS_CLAIM_CHECKPOINT_BLOCKING_S:
        return run && run->enabled && run->ckpt.enabled ? run->ckpt.blocking_s : NAN;
    default: return cs_claim_metric_value(c, r);
    }
}

struct cs_claim_verdict cs_claim_judge(const struct cs_claim_cfg *c, double simulated,
                                       double baseline)
{
    struct cs_claim_verdict v;
    memset(&v, 0, sizeof v);
    v.simulated = simulated;
    v.claimed = v.low = v.high = v.error = NAN;
    v.verdict = "not evaluated";
    if (!c->enabled || !isfinite(simulated))
        return v;
    bool bound = isnan(c->value) && isnan(c->ratio);
    bool ratio = !isnan(c->ratio) || (bound && (!isnan(c->ratio_at_least) || !isnan(c->ratio_at_most)));
    double got = simulated, want = c->value;
    if (ratio) {
        if (!(isfinite(baseline) && baseline != 0))
            return v;
        got = simulated / baseline;
        want = c->ratio;
        v.is_ratio = true;
    }
    v.simulated = got;
    if (bound) {
        v.is_bound = true;
        v.low = ratio ? c->ratio_at_least : c->at_least;
        v.high = ratio ? c->ratio_at_most : c->at_most;
        if (isnan(v.low) && isnan(v.high))
            return v;
        v.claimed = !isnan(v.low) ? v.low : v.high;
        bool inside = (isnan(v.low) || got >= v.low) && (isnan(v.high) || got <= v.high);
        v.verdict = inside ? "supported" : ratio ? "contradicted" : "not supported";
        return v;
    }
    if (!isfinite(want))
        return v;
    v.claimed = want;
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
    const char *metric = cs_claim_metric_label(c);
    fprintf(out, "\nClaim%s%s%s: \"%s\"\n", c->source[0] ? " (" : "", c->source,
            c->source[0] ? ")" : "", c->text);
    bool ratio = !isnan(c->ratio) || !isnan(c->ratio_at_least) || !isnan(c->ratio_at_most);
    if (isnan(v->claimed)) {
        fprintf(out, "  verdict: %s%s\n", v->verdict,
                ratio ? " (a ratio claim: run `clustersim compare BASELINE THIS`)" : "");
        return;
    }
    if (v->is_bound) {
        fprintf(out, "  %s%s: claimed", v->is_ratio ? "ratio of " : "", metric);
        if (!isnan(v->low))
            fprintf(out, " at least %.4g", v->low);
        if (!isnan(v->high))
            fprintf(out, "%s at most %.4g", !isnan(v->low) ? " and" : "", v->high);
        fprintf(out, ", clustersim %.4g\n", v->simulated);
    } else {
        fprintf(out, "  %s%s: claimed %.4g, clustersim %.4g (%+.1f%%, tolerance %.0f%%)\n",
                v->is_ratio ? "ratio of " : "", metric, v->claimed, v->simulated, 100.0 * v->error,
                100.0 * c->tolerance);
    }
    fprintf(out, "  verdict: %s\n", v->verdict);
}

void cs_out_claim_json(cJSON *root, const struct cs_claim_cfg *c, const struct cs_claim_verdict *v)
{
    if (!c->enabled)
        return;
    cJSON *o = cJSON_AddObjectToObject(root, "claim");
    cJSON_AddStringToObject(o, "text", c->text);
    cJSON_AddStringToObject(o, "source", c->source);
    cJSON_AddStringToObject(o, "metric", cs_claim_metric_label(c));
    cJSON_AddBoolToObject(o, "ratio", v->is_ratio);
    if (isfinite(v->claimed)) {
        if (v->is_bound) {
            if (!isnan(v->low))
                cJSON_AddNumberToObject(o, "claimed_at_least", v->low);
            if (!isnan(v->high))
                cJSON_AddNumberToObject(o, "claimed_at_most", v->high);
        } else {
            cJSON_AddNumberToObject(o, "claimed", v->claimed);
        }
        cJSON_AddNumberToObject(o, "simulated", v->simulated);
        if (isfinite(v->error))
            cJSON_AddNumberToObject(o, "error", v->error);
    }
    cJSON_AddStringToObject(o, "verdict", v->verdict);
}

double cs_claim_metric_value_scn(const struct cs_claim_cfg *c, const struct cs_scenario *s,
                                 const struct cs_step_result *r, const struct cs_run_result *run)
{
    const struct cs_facility_result *f = &s->facility.res;
    switch ((enum cs_claim_metric)c->metric) {
    case CS_CLAIM_NODE_POWER_W: return f->racks > 0 ? f->node_power_w : NAN;
    case CS_CLAIM_KW_PER_RACK: return f->racks > 0 ? f->kw_per_rack : NAN;
    case CS_CLAIM_COOLING_OK: return f->racks > 0 ? (f->cooling_ok ? 1.0 : 0.0) : NAN;
    /* a rack within its limit never throttles: not finite, no verdict */
    case CS_CLAIM_TIME_TO_THROTTLE_S: return f->racks > 0 ? f->time_to_throttle_s : NAN;
    default: return cs_claim_metric_value_run(c, r, run);
    }
}
