/* bench_sweep.c: speed of sweeps (issue 9): a 10,000-point grid of
 * step-model points (Llama 3.1 8B, 1 to 64 nodes x 5 tensor-parallel
 * layouts x 4 batch sizes x ... ) run with cs_sweep_run on 2 threads into a
 * temporary directory, results files included. Prints
 * `sweep_points_per_s: N` (target >= 5,000 on 2 cores). */
#define _POSIX_C_SOURCE 200809L
#include "clustersim/config/catalog.h"
#include "clustersim/app/sweep_run.h"
#include "clustersim/config/sweep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* CPU time of the whole process (every thread), in seconds. */
static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return 1;
    fputs(text, f);
    return fclose(f) != 0;
}

int main(int argc, char **argv)
{
    int threads = argc > 1 ? atoi(argv[1]) : 2;
    char dir[] = "/tmp/bench_sweep.XXXXXX";
    if (!mkdtemp(dir)) {
        fprintf(stderr, "bench_sweep: cannot create a temporary directory\n");
        return 1;
    }
    char base[256], sweep[256], out[256];
    snprintf(base, sizeof base, "%s/base.yaml", dir);
    snprintf(sweep, sizeof sweep, "%s/sweep.yaml", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    /* 10 node counts x 5 tp x 4 pp x 5 micro-batches x 10 global batches =
     * 10,000 points; dp derived, invalid layouts skipped by the binder. */
    if (write_text(base, "schema_version: 1\n"
                         "cluster: {gpu: H100-SXM5-80GB, nodes: 1, gpus_per_node: 8,"
                         " fabric: {topology: fat-tree, link: ib-ndr}}\n"
                         "workload: {model: {preset: llama3.1-8b}, global_batch: 512,"
                         " micro_batch: 1, parallelism: {tp: 8, pp: 1}, recompute: selective}\n") ||
        write_text(sweep, "base: base.yaml\n"
                          "mode: grid\n"
                          "axes:\n"
                          "  cluster.nodes: {from: 1, to: 10, step: 1}\n"
                          "  workload.parallelism.tp: [1, 2, 4, 8, 8]\n"
                          "  workload.parallelism.pp: [1, 2, 4, 8]\n"
                          "  workload.micro_batch: [1, 2, 4, 8, 16]\n"
                          "  workload.global_batch: {from: 256, to: 2560, step: 256}\n"
                          "derive:\n"
                          "  workload.parallelism.dp: \"gpus / (tp * pp)\"\n")) {
        fprintf(stderr, "bench_sweep: cannot write %s\n", dir);
        return 1;
    }
    cs_diags d;
    cs_diags_init(&d);
    cs_catalog *cat = NULL;
    cs_sweep *sw = NULL;
    if (cs_catalog_load_dir(cs_catalog_default_dir(), &d, &cat) != CS_OK ||
        cs_sweep_load(sweep, &d, &sw) != CS_OK) {
        for (size_t i = 0; i < d.n; i++)
            fprintf(stderr, "bench_sweep: %s:%d: %s\n", d.items[i].file ? d.items[i].file : "",
                    d.items[i].line, d.items[i].msg);
        return 1;
    }
    cs_diags_fini(&d);
    struct cs_sweep_run_opts o = {threads, 1, 1, NULL, NULL};
    struct cs_sweep_run_stats st;
    double t0 = now_s(), c0 = cpu_s();
    cs_status rc = cs_sweep_run(sw, cat, out, &o, &st, &d);
    double el = now_s() - t0, cpu = cpu_s() - c0;
    if (rc != CS_OK) {
        for (size_t i = 0; i < d.n; i++)
            fprintf(stderr, "bench_sweep: %s: %s\n", d.items[i].file ? d.items[i].file : "",
                    d.items[i].msg);
        cs_diags_fini(&d);
        return 1;
    }
    printf("sweep_points: %llu\n", (unsigned long long)st.total);
    printf("sweep_points_skipped: %llu\n", (unsigned long long)st.skipped);
    printf("sweep_threads: %d\n", threads);
    printf("sweep_seconds: %.3f\n", el);
    printf("sweep_points_per_s: %.0f\n", (double)st.total / el);
    /* On a shared machine the wall-clock rate depends on the load; the rate
     * per CPU-second (all threads) times the cores is what 2 idle cores give. */
    printf("sweep_cpu_seconds: %.3f\n", cpu);
    printf("sweep_points_per_cpu_s: %.0f\n", cpu > 0 ? (double)st.total / cpu : 0.0);
    cs_sweep_destroy(sw);
    cs_catalog_destroy(cat);
    char *files[] = {"results.csv", "results.jsonl", "sweep.json"};
    for (int i = 0; i < 3; i++) {
        char p[512];
        snprintf(p, sizeof p, "%s/%s", out, files[i]);
        unlink(p);
    }
    rmdir(out);
    unlink(base);
    unlink(sweep);
    rmdir(dir);
    return 0;
}
