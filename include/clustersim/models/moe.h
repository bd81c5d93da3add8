/* moe.h: load imbalance of mixture-of-experts routing (models/moe.c;
 * docs/moe.md, "Load imbalance"). The step of an MoE layer waits for the
 * most loaded expert-parallel rank; how much more than the mean it gets
 * is sampled from the routing's spread with its own random stream
 * (CS_RNG_MOE_ROUTING), so that a scenario's answer is reproducible and
 * independent of the other streams. Pure: no allocation, no global state. */
#ifndef CLUSTERSIM_MODELS_MOE_H
#define CLUSTERSIM_MODELS_MOE_H

#include "clustersim/models/workload.h"

#include <stdint.h>

/* Samples drawn per estimate. */
#define CS_MOE_LOAD_SAMPLES 32

struct cs_moe_load {
    /* Expected load of the most loaded of the ep ranks over the mean, per
     * layer and micro-batch (>= 1; 1 with balanced routing): what the
     * experts' compute and the dispatch/combine of that rank take more. */
    double max_over_mean;
    /* Share of the routed token copies dropped by the capacity factor (0
     * dropless). */
    double dropped;
};

/* The load of one EP group: `ep` ranks, each routing `choices_per_rank`
 * token copies (tokens x top_k) per layer and micro-batch, over the
 * model's experts (contiguous blocks of experts / ep per rank, Megatron's
 * order). Each sample draws every rank's load as the mean times
 * 1 + sqrt(load_cv^2 / e_r + ep / N) z (z standard normal, e_r the rank's
 * experts, N the group's copies: the router's per-expert spread averaged
 * over the rank's experts plus the multinomial noise of N copies); with a
 * capacity factor C, each expert's load is drawn the same way (e_r = 1)
 * and cut at C times the mean, the excess dropped. Deterministic in
 * (seed, ep, choices). */
struct cs_moe_load cs_moe_load_sample(const struct cs_moe_shape *m, int ep, double choices_per_rank,
                                      uint64_t seed);

#endif
