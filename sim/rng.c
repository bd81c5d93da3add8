/* rng.c: per-purpose GSL random streams seeded from (scenario seed, stream)
 * (sim/ layer). The engine-owned table (cs_sim_rng) lives in engine.c. */
#include "clustersim/sim/rng.h"

#include <gsl/gsl_errno.h>

#include <stdlib.h>

#if !defined(__STDC_NO_THREADS__)
#include <threads.h>
#endif

uint64_t cs_rng_mix64(uint64_t x)
{
    /* splitmix64 finalizer (Vigna, splitmix64.c; constants from Stafford's
     * "Mix13" variant of the MurmurHash3 finalizer). */
    x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
    return x ^ (x >> 31);
}

unsigned long cs_rng_stream_seed(uint64_t seed, uint32_t stream)
{
    /* Two splitmix64 steps: mix the seed, add the stream times the golden
     * gamma (splitmix64's increment), mix again. Nearby seeds and nearby
     * streams land on unrelated values; fold to the 32 bits that GSL's
     * mt19937_set uses. */
    uint64_t z = cs_rng_mix64(seed + UINT64_C(0x9e3779b97f4a7c15));
    z = cs_rng_mix64(z + ((uint64_t)stream + 1) * UINT64_C(0x9e3779b97f4a7c15));
    return (unsigned long)((z ^ (z >> 32)) & 0xffffffffu);
}

gsl_rng *cs_rng_create(uint64_t seed, uint32_t stream)
{
    cs_rng_gsl_errors_off();
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    if (!r)
        abort(); /* gsl_rng_alloc fails only when out of memory */
    gsl_rng_set(r, cs_rng_stream_seed(seed, stream));
    return r;
}

static void cs_rng__errors_off_once(void) { gsl_set_error_handler_off(); }

/* GSL's error handler is process state, so the flag that guards it is too:
 * the one static in sim/, and it never affects results. */
void cs_rng_gsl_errors_off(void)
{
#if !defined(__STDC_NO_THREADS__)
    static once_flag once = ONCE_FLAG_INIT;
    call_once(&once, cs_rng__errors_off_once);
#else
    cs_rng__errors_off_once();
#endif
}
