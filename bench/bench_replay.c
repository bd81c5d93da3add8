/* bench_replay.c: trace-replay speed: 100,000 jobs with EASY backfill on a
 * 2,504-GPU cluster (313 nodes x 8), offered load about 1.05 (a queue builds up, so backfill has work). Job sizes
 * follow the Microsoft ITP 2021 mix (83% 1 GPU, 10% 8 GPUs, the rest 2-64;
 * validation/traces/README.md), durations are log-normal (median 1 h).
 * Prints `replay_jobs_per_s: N` and the replay's own figures. */
#include "clustersim/models/scheduler.h"
#include "clustersim/config/trace.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static double now_s(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(void)
{
    const long n = 100000;
    const int nodes = 313, gpn = 8;
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 42);
    struct cs_trace t;
    cs_trace_init(&t);
    /* mean GPU-seconds per job: sizes below have mean ~2.1 GPUs, log-normal
     * durations with mu = ln 3600, sigma 1.2 have mean 3600 e^0.72 = 7396 s */
    double mean_gpus = 0.83 * 1 + 0.02 * 2 + 0.03 * 4 + 0.10 * 8 + 0.01 * 16 + 0.007 * 32 + 0.003 * 64;
    double mean_work = mean_gpus * 3600 * exp(0.72);
    double rate = 1.05 * nodes * gpn / mean_work;  /* arrivals per second */
    double clock_s = 0;
    for (long i = 0; i < n; i++) {
        struct cs_trace_job j;
        memset(&j, 0, sizeof j);
        snprintf(j.id, sizeof j.id, "b%ld", i);
        clock_s += gsl_ran_exponential(r, 1.0 / rate);
        double u = gsl_rng_uniform(r);
        j.gpus = u < 0.83 ? 1 : u < 0.85 ? 2 : u < 0.88 ? 4 : u < 0.98 ? 8 : u < 0.99 ? 16 : u < 0.997 ? 32 : 64;
        j.duration_s = ceil(gsl_ran_lognormal(r, log(3600.0), 1.2));
        j.submit_s = floor(clock_s);
        j.queue_s = NAN;
        j.user = j.partition = j.gpu_type = j.workload = -1;
        j.line = i + 2;
        cs_trace_add(&t, &j);
    }
    t.counts.rows = t.counts.jobs = n;
    struct cs_sched_config c;
    cs_sched_config_default(&c);
    c.policy = CS_SCHED_BACKFILL;
    c.n_groups = 1;
    snprintf(c.groups[0].gpu_type, sizeof c.groups[0].gpu_type, "H100-SXM5-80GB");
    c.groups[0].nodes = nodes;
    c.groups[0].gpus_per_node = gpn;
    cs_diags d;
    cs_diags_init(&d);
    struct cs_sched_result res;
    double t0 = now_s();
    cs_status st = cs_sched_run(&c, &t, &d, &res);
    double dt = now_s() - t0;
    if (st != CS_OK) {
        fprintf(stderr, "bench_replay: replay failed: %s\n", cs_strerror(st));
        return 1;
    }
    printf("replay_jobs: %ld\n", res.completed);
    printf("replay_gpus: %ld\n", res.gpus);
    printf("replay_wall_s: %.3f\n", dt);
    printf("replay_jobs_per_s: %.0f\n", (double)n / dt);
    printf("replay_utilization: %.4f\n", res.utilization);
    printf("replay_queue_mean_s: %.1f\n", res.queue_s.mean);
    printf("replay_events: %llu\n", (unsigned long long)res.events);
    cs_sched_result_fini(&res);
    cs_diags_fini(&d);
    cs_trace_fini(&t);
    gsl_rng_free(r);
    return dt < 2.0 ? 0 : 1;
}
