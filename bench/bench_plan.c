/* bench_plan.c: speed of `clustersim plan` (issue 17): Llama 3.1 70B on 2T
 * tokens in 30 days over 5 GPU types x 20 node counts x 6 fabric variants
 * x 7 ownership options = 4,200 candidate plans (600 clusters), each
 * cluster with its full parallelism search (best-first with the step-time
 * bound), run model (16 replicas) and TCO, on 2 threads. Prints
 * `plan_candidates_per_s` (candidate plans, cluster x ownership option,
 * per wall-clock second; target: the whole plan under 60 s, i.e. >= 70),
 * `plan_seconds`, `plan_cpu_seconds` and the counts. */
#define _POSIX_C_SOURCE 200809L
#include "clustersim/app/plan.h"
#include "clustersim/config/catalog.h"
#include "clustersim/config/plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_s(int clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    int threads = argc > 1 ? atoi(argv[1]) : 2;
    char dir[] = "/tmp/bench_plan.XXXXXX";
    if (!mkdtemp(dir)) {
        fprintf(stderr, "bench_plan: cannot create a temporary directory\n");
        return 1;
    }
    char path[256];
    snprintf(path, sizeof path, "%s/plan.yaml", dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return 1;
    fputs("schema_version: 1\nname: bench\nseed: 1\n"
          "workload: {model: {preset: llama3.1-70b}, global_batch: 512, precision: bf16, tokens: 2T}\n"
          "deadline: 30d\nbudget: $5M\n"
          "candidates:\n"
          "  gpus: [A100-SXM4-80GB, H100-SXM5-80GB, H200-SXM-141GB, B200, MI300X]\n"
          "  nodes: [8, 12, 16, 24, 32, 40, 48, 64, 80, 96, 128, 160, 192, 256, 320, 384, 448, 512, 640, 768]\n"
          "  fabrics:\n"
          "    - {topology: fat-tree, link: ib-ndr, oversubscription: 1}\n"
          "    - {topology: fat-tree, link: ib-ndr, oversubscription: 2}\n"
          "    - {topology: rail-optimized, link: ib-ndr, oversubscription: 1}\n"
          "    - {topology: fat-tree, link: roce-400g, oversubscription: 1}\n"
          "    - {topology: fat-tree, link: roce-400g, oversubscription: 3}\n"
          "    - {topology: fat-tree, link: eth-400g, oversubscription: 1}\n"
          "  ownership: [on-prem, colocation, cloud-on-demand, cloud-reserved-1y, cloud-reserved-3y,"
          " cloud-spot, hybrid]\n"
          "cluster: {gpus_per_node: 8, storage: [nvme-gen4, lustre, s3]}\n"
          "failures:\n"
          "  components:\n"
          "    - {name: gpu, scope: gpu, mtbf: 79000h, distribution: exponential}\n"
          "    - {name: host, scope: node, mtbf: 50000h, distribution: exponential}\n"
          "  detection: 5min\n  restart: 15min\n"
          "checkpoint: {interval: optimal, mode: async, tier: nvme}\n"
          "cost: {years: 3, utilization: 0.7, site: us-average}\n"
          "run: {replicas: 16}\n",
          f);
    if (fclose(f) != 0)
        return 1;
    cs_diags d;
    cs_diags_init(&d);
    cs_catalog *cat = NULL;
    cs_plan *p = NULL;
    if (cs_catalog_load_dir(cs_catalog_default_dir(), &d, &cat) != CS_OK ||
        cs_plan_load(path, NULL, 0, &d, &p) != CS_OK) {
        for (size_t i = 0; i < d.n; i++)
            fprintf(stderr, "bench_plan: %s\n", d.items[i].msg);
        return 1;
    }
    struct cs_app_plan_opts o;
    cs_app_plan_opts_default(&o);
    o.threads = threads;
    struct cs_app_plan r;
    double t0 = now_s(CLOCK_MONOTONIC), c0 = now_s(CLOCK_PROCESS_CPUTIME_ID);
    cs_status st = cs_app_plan(p, cat, &o, &d, &r);
    double wall = now_s(CLOCK_MONOTONIC) - t0, cpu = now_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
    if (st != CS_OK) {
        for (size_t i = 0; i < d.n; i++)
            fprintf(stderr, "bench_plan: %s\n", d.items[i].msg);
        return 1;
    }
    size_t cand = r.n * (size_t)cs_plan_info(p)->n_ownership;
    printf("plan_candidates: %zu\n", cand);
    printf("plan_clusters_evaluated: %zu\n", r.evaluated);
    printf("plan_clusters_pruned: %zu\n", r.pruned);
    printf("plan_configurations_simulated: %zu\n", r.configs);
    printf("plan_seconds: %.2f\n", wall);
    printf("plan_cpu_seconds: %.2f\n", cpu);
    printf("plan_candidates_per_s: %.0f\n", wall > 0 ? (double)cand / wall : 0.0);
    cs_app_plan_fini(&r);
    cs_plan_destroy(p);
    cs_catalog_destroy(cat);
    cs_diags_fini(&d);
    unlink(path);
    rmdir(dir);
    return 0;
}
