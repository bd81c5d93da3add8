/* bench_run.c: run-level Monte Carlo speed: 1,000 replicas of the Llama 3
 * 405B 54-day run (16,384 GPUs, 2,048 nodes, default failure classes,
 * Daly-optimal sync checkpoints) on 2 threads, each replica on its own
 * engine. Prints `name: value` lines. The step is given (15 s, 1.1M
 * tokens/s) so that only the run level is timed. */
#define _POSIX_C_SOURCE 200809L
#include "clustersim/models/failure.h"
#include "clustersim/models/run.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

int main(void)
{
    struct cs_scenario s;
    memset(&s, 0, sizeof s);
    s.seed = 2407;
    s.cluster.nodes = 2048;
    s.cluster.gpus_per_node = 8;
    s.cluster.gpu.pcie_gen = 5;
    s.cluster.host_memory_bytes = 2e12;
    s.cluster.storage.n_tiers = 1;
    struct cs_storage_spec *t = &s.cluster.storage.tiers[0];
    strcpy(t->name, "lustre");
    t->kind = CS_STORAGE_PFS;
    t->read_bw_bytes_per_s = t->write_bw_bytes_per_s = 8e9;
    t->aggregate_bw_bytes_per_s = 2e12;
    s.has_workload = true;
    s.workload.par = (struct cs_parallel){.tp = 8, .pp = 16, .dp = 128, .cp = 1, .vp = 1,
                                          .fsdp = CS_FSDP_ZERO1};
    s.workload.tokens = NAN;
    s.failures.enabled = true;
    cs_fail_llama3_defaults(&s.failures);
    s.failures.detection_s = 120;
    s.failures.restart_s = 600;
    s.failures.spares = -1;
    s.checkpoint.enabled = true;
    s.checkpoint.interval_optimal = true;
    s.checkpoint.size_bytes = 5.77e12;
    strcpy(s.checkpoint.tier, "lustre");
    s.run.enabled = true;
    s.run.duration_s = 54 * 86400.0;
    s.run.replicas = 1000;
    struct cs_step_result step;
    memset(&step, 0, sizeof step);
    step.fits = true;
    step.time_s = 15;
    step.tokens_per_s = 1.1e6;
    struct cs_run_options o;
    cs_run_options_default(&o);
    o.threads = 2;
    cs_diags d;
    cs_diags_init(&d);
    struct cs_run_result r;
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    cs_status st = cs_run_simulate(&s, &step, &o, &d, &r);
    clock_gettime(CLOCK_MONOTONIC, &b);
    cs_diags_fini(&d);
    if (st != CS_OK) {
        fprintf(stderr, "bench_run: %s\n", cs_strerror(st));
        return 1;
    }
    double sec = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) * 1e-9;
    printf("run_mc_replicas: %d\n", r.replicas);
    printf("run_mc_threads: %d\n", o.threads);
    printf("run_mc_wall_s: %.3f\n", sec);
    printf("run_mc_events: %llu\n", (unsigned long long)r.events);
    printf("run_mc_events_per_s: %.0f\n", (double)r.events / sec);
    printf("run_mc_interruptions_mean: %.1f\n", r.interruptions.mean);
    printf("run_mc_goodput_mean: %.4f\n", r.goodput.mean);
    return 0;
}
