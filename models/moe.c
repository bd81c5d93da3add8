/* moe.c: the expected most-loaded expert-parallel rank of an MoE layer
 * (moe.h; docs/moe.md, "Load imbalance"). */
#include "clustersim/models/moe.h"

#include "clustersim/sim/rng.h"

#include <math.h>

/* A private splitmix64 sequence keyed by (seed, stream, ep, choices): the
 * routing stream of moe.h. Box-Muller normals. */
struct cs__rs {
    uint64_t s;
    bool have;
    double spare;
};

static uint64_t cs__next(struct cs__rs *r)
{
    r->s += 0x9e3779b97f4a7c15ULL;
    return cs_rng_mix64(r->s);
}

static double cs__unit(struct cs__rs *r)
{
    /* (0, 1]: 53 random bits */
    return ((double)(cs__next(r) >> 11) + 1.0) / 9007199254740992.0;
}

static double cs__normal(struct cs__rs *r)
{
    if (r->have) {
        r->have = false;
        return r->spare;
    }
    double u = cs__unit(r), v = cs__unit(r);
    double rad = sqrt(-2.0 * log(u)), ang = 6.283185307179586 * v;
    r->spare = rad * sin(ang);
    r->have = true;
    return rad * cos(ang);
}

struct cs_moe_load cs_moe_load_sample(const struct cs_moe_shape *m, int ep, double choices_per_rank,
                                      uint64_t seed)
{
    struct cs_moe_load out = {1.0, 0.0};
    if (m == NULL || m->experts <= 0 || ep < 1 || !(choices_per_rank > 0) ||
        m->routing == CS_MOE_ROUTING_BALANCED)
        return out;
    double n = ep * choices_per_rank;          /* copies routed in the group */
    int e_r = m->experts / ep > 0 ? m->experts / ep : 1;
    double cv2 = m->load_cv > 0 ? m->load_cv * m->load_cv : 0.0;
    double cap = m->capacity_factor >= 1.0 ? m->capacity_factor : INFINITY;
    struct cs__rs r = {cs_rng_mix64(seed ^ ((uint64_t)CS_RNG_MOE_ROUTING << 56) ^
                                    ((uint64_t)ep << 32) ^ (uint64_t)llround(choices_per_rank)),
                       false, 0.0};
    double acc = 0.0, drop = 0.0;
    for (int k = 0; k < CS_MOE_LOAD_SAMPLES; k++) {
        double worst = 0.0, lost = 0.0;
        if (!isfinite(cap)) {
            /* rank level: the mean of e_r experts' shares plus the noise */
            double sd = sqrt(cv2 / e_r + ep / n);
            for (int i = 0; i < ep; i++)
                worst = fmax(worst, fmax(0.0, 1.0 + sd * cs__normal(&r)));
        } else {
            /* expert level, each expert cut at its capacity */
            double sd = sqrt(cv2 + (double)m->experts / n);
            for (int i = 0; i < ep; i++) {
                double load = 0.0;
                for (int j = 0; j < e_r; j++) {
                    double x = fmax(0.0, 1.0 + sd * cs__normal(&r));
                    lost += fmax(0.0, x - cap);
                    load += fmin(x, cap);
                }
                worst = fmax(worst, load / e_r);
            }
            lost /= (double)ep * e_r;
        }
        acc += worst;
        drop += lost;
    }
    out.max_over_mean = fmax(1.0, acc / CS_MOE_LOAD_SAMPLES);
    out.dropped = drop / CS_MOE_LOAD_SAMPLES;
    return out;
}
