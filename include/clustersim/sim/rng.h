/* rng.h: random-number streams for the engine (sim/ layer). Each purpose
 * (failures, arrivals, ECMP hashing, ...) draws from its own GSL generator,
 * seeded from (scenario seed, stream id), so turning one feature on does not
 * perturb the random numbers another feature sees, and the same seed gives
 * the same numbers on every run.
 *
 * Generator: gsl_rng_mt19937. Its GSL seeding takes 32 bits, so the 64-bit
 * (seed, stream) pair is mixed with splitmix64 (Steele, Lea, Flood, "Fast
 * splittable pseudorandom number generators", OOPSLA 2014; the finalizer of
 * Vigna's splitmix64.c) and folded to 32 bits. Two distinct pairs collide
 * with probability 2^-32; streams are otherwise unrelated MT sequences.
 */
#ifndef CLUSTERSIM_RNG_H
#define CLUSTERSIM_RNG_H

#include <stdint.h>

#include <gsl/gsl_rng.h>

#include "clustersim/sim/sim.h"

/* Stream ids. The numeric values are part of the reproducibility contract:
 * never renumber, only append. Models that need private streams use
 * CS_RNG_USER + k. */
enum cs_rng_stream {
    CS_RNG_FAILURES = 1,
    CS_RNG_ARRIVALS = 2,
    CS_RNG_ECMP = 3,
    CS_RNG_PLACEMENT = 4,
    CS_RNG_CHECKPOINT = 5,
    CS_RNG_WORKLOAD = 6,
    CS_RNG_STORAGE = 7,
    CS_RNG_MOE_ROUTING = 8,
    CS_RNG_UNCERTAINTY = 9,     /* app/uncertainty.c: the model parameters' draws */
    CS_RNG_USER = 64
};

/* The splitmix64 finalizer: a bijective 64-bit mixer with full avalanche. */
uint64_t cs_rng_mix64(uint64_t x);

/* The 32-bit GSL seed used for (seed, stream); exposed for tests and for
 * reports that want to print it. */
unsigned long cs_rng_stream_seed(uint64_t seed, uint32_t stream);

/* Creates an mt19937 generator for (seed, stream). Caller frees with
 * gsl_rng_free. Never NULL (aborts on OOM). Calls cs_rng_gsl_errors_off. */
gsl_rng *cs_rng_create(uint64_t seed, uint32_t stream);

/* The engine's generator for `stream`, created on first use from
 * (cs_sim_seed(e), stream). Owned by the engine (freed by cs_sim_destroy);
 * the pointer stays valid for the engine's life. O(1) for stream ids below
 * 128, O(streams) above. */
gsl_rng *cs_sim_rng(cs_engine *e, uint32_t stream);

/* Turns GSL's default error handler (which aborts the process) off, once per
 * process and thread-safely. This is where clustersim does it: cs_sim_create
 * and cs_rng_create call it, and any other code that calls GSL without an
 * engine may call it too. Library code checks every GSL return value. */
void cs_rng_gsl_errors_off(void);

#endif
