/* bench_engine.c: throughput of the discrete-event engine (sim/) on the
 * classic HOLD model (Jones, "An empirical comparison of priority-queue and
 * event-set implementations", CACM 29(4), 1986): keep N events pending; each
 * event, when it fires, schedules one new event at now + an exponential
 * increment. Every hold is one pop + one push through the public API (the
 * real run loop, handler call and payload copy included).
 *
 * Usage: bench_engine [HOLD_OPS [PENDING]]. Prints one `name: value` line per
 * figure. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gsl/gsl_randist.h>

#include "clustersim/sim/rng.h"
#include "clustersim/sim/sim.h"

#define BENCH_SEED 20240601u
/* Mean of the exponential increment: 1 ms. Times are integer ns, so equal
 * times (FIFO ties) are rare but possible, as in a real run. */
#define BENCH_MEAN_NS 1e6
/* Precomputed increments, reused cyclically: 64 Ki doubles fit in L2, so the
 * benchmark measures the queue, not the exponential sampler. */
#define BENCH_NINC (1u << 16)

struct hold_ctx {
    const cs_time *inc;
    uint32_t next_inc;
    uint64_t left;   /* holds still to do */
    uint64_t checksum;
    int handler;
    cs_status err;
};

struct hold_payload {
    uint64_t serial;
    uint64_t origin;
};

static void hold_handler(cs_engine *e, const struct cs_event *ev, void *arg)
{
    struct hold_ctx *c = arg;
    struct hold_payload p;
    memcpy(&p, ev->payload, sizeof p);
    c->checksum += p.serial;
    p.serial++;
    p.origin = (uint64_t)ev->time;
    cs_time d = c->inc[c->next_inc++ & (BENCH_NINC - 1)];
    cs_status st = cs_sim_schedule_in(e, d, c->handler, &p, sizeof p, NULL);
    if (st != CS_OK)
        c->err = st;
    if (--c->left == 0 || st != CS_OK)
        cs_sim_stop(e);
}

static double now_s(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t parse_count(const char *s, const char *what)
{
    char *end = NULL;
    unsigned long long v = strtoull(s, &end, 10);
    if (!end || *end || v == 0) {
        fprintf(stderr, "bench_engine: bad %s '%s'\n", what, s);
        exit(1);
    }
    return (uint64_t)v;
}

struct hold_result {
    double preload_s, run_s, run_cpu_s;
    cs_time end_time;
};

/* One HOLD run: preload `pending` events, then `holds` pop+push pairs.
 * Returns 0, or 1 after printing why on stderr. */
static int run_hold(uint64_t pending, uint64_t holds, struct hold_result *res)
{
    gsl_rng *r = cs_rng_create(BENCH_SEED, CS_RNG_USER);
    cs_time *inc = malloc(BENCH_NINC * sizeof *inc);
    if (!inc)
        return 1;
    for (uint32_t i = 0; i < BENCH_NINC; i++)
        inc[i] = (cs_time)(gsl_ran_exponential(r, BENCH_MEAN_NS) + 0.5);

    cs_engine *e = cs_sim_create(BENCH_SEED);
    struct hold_ctx c = {inc, 0, holds, 0, 0, CS_OK};
    c.handler = cs_sim_register(e, "hold", hold_handler, &c);
    int rc = c.handler < 0;

    double t0 = now_s();
    for (uint64_t i = 0; i < pending && !rc; i++) {
        struct hold_payload p = {i, 0};
        cs_time t = (cs_time)(gsl_ran_exponential(r, BENCH_MEAN_NS) + 0.5);
        rc = cs_sim_schedule_at(e, t, c.handler, &p, sizeof p, NULL) != CS_OK;
    }
    double t1 = now_s();
    clock_t c1 = clock();
    cs_status st = rc ? CS_EINVAL : cs_sim_run(e, CS_SIM_FOREVER);
    clock_t c2 = clock();
    double t2 = now_s();

    if (rc || st != CS_OK || c.err != CS_OK || c.left != 0 ||
        cs_sim_events_processed(e) != holds || cs_sim_pending(e) != pending) {
        fprintf(stderr, "bench_engine: HOLD run failed (%s, %s)\n",
                cs_strerror(st), cs_strerror(c.err));
        rc = 1;
    }
    res->preload_s = t1 - t0;
    res->run_s = t2 - t1;
    res->run_cpu_s = (double)(c2 - c1) / CLOCKS_PER_SEC;
    res->end_time = cs_sim_now(e);
    cs_sim_destroy(e);
    gsl_rng_free(r);
    free(inc);
    return rc;
}

int main(int argc, char **argv)
{
    uint64_t holds = argc > 1 ? parse_count(argv[1], "HOLD_OPS") : 20000000u;
    uint64_t pending = argc > 2 ? parse_count(argv[2], "PENDING") : 1000000u;
    /* A second, cache-resident run shows the engine's own overhead apart
     * from the memory latency that dominates the large run. */
    const uint64_t small = 10000;

    struct hold_result big, little;
    if (run_hold(pending, holds, &big) || run_hold(small, holds, &little))
        return 1;
    printf("engine_pending_events: %" PRIu64 "\n", pending);
    printf("engine_hold_ops: %" PRIu64 "\n", holds);
    printf("engine_preload_events_per_s: %.0f\n",
           (double)pending / big.preload_s);
    printf("engine_run_s: %.3f\n", big.run_s);
    printf("engine_ns_per_event: %.1f\n", big.run_s * 1e9 / (double)holds);
    printf("engine_events_per_s: %.0f\n", (double)holds / big.run_s);
    /* Per second of this process's CPU time: on a shared machine, the wall
     * figure above also counts time the process spent waiting for a core. */
    printf("engine_events_per_cpu_s: %.0f\n", (double)holds / big.run_cpu_s);
    printf("engine_sim_time_s: %.6f\n", cs_time_to_s(big.end_time));
    printf("engine_events_per_s_pending_%" PRIu64 ": %.0f\n", small,
           (double)holds / little.run_s);
    return 0;
}
