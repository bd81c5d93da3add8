/* bench_step.c: speed of the step model (issue 3): one step of Llama 3.1
 * 405B on 16,384 H100 (tp 8, pp 16, dp 128; 2,048 sequences of 8,192 tokens
 * per step as in the Llama 3 paper, so 16 micro-batches per pipeline), and
 * the search's configurations per second (Llama 2 70B on 64 H100: on 2
 * threads by the wall clock, and on 1 thread per CPU second).
 * Prints `name: value` lines. */
#define _POSIX_C_SOURCE 200809L
#include "clustersim/config/catalog.h"
#include "clustersim/config/config.h"
#include "clustersim/models/netmodel.h"
#include "clustersim/models/search.h"
#include "clustersim/models/step.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* CPU time of the process: with one thread busy, that thread's, whatever
 * else the machine runs. */
static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int load(const cs_catalog *cat, const char *text, struct cs_scenario *s)
{
    cs_diags d;
    cs_diags_init(&d);
    cs_status st = cs_cfg_load_scenario_buffer("bench.yaml", text, strlen(text), cat, &d, s, NULL);
    for (size_t i = 0; i < d.n; i++)
        fprintf(stderr, "bench: %s\n", d.items[i].msg);
    cs_diags_fini(&d);
    return st == CS_OK ? 0 : 1;
}

/* `reps` steps of scenario s, each on a network model built cold as
 * `clustersim run` builds it; the mean seconds per step into *per, the
 * last step into *r, the flow rounds of the last model into *sims. */
static int flow_steps(const struct cs_scenario *s, struct cs_step_options *o, int reps,
                      struct cs_step_result *r, long *sims, double *per)
{
    double t0 = now_s();
    for (int i = 0; i < reps; i++) {
        cs_netmodel *net = NULL;
        if (cs_netmodel_create(&s->cluster, 0, NULL, 0, s->seed, &net, NULL, 0) != CS_OK) {
            fprintf(stderr, "bench_step: network model failed\n");
            return 1;
        }
        o->net = net;
        cs_diags d;
        cs_diags_init(&d);
        cs_status st = cs_step_simulate(&s->cluster, &s->workload, o, &d, r);
        if (st != CS_OK)
            fprintf(stderr, "bench_step: simulation on the network model failed: %s\n",
                    d.n ? d.items[0].msg : cs_strerror(st));
        cs_diags_fini(&d);
        cs_netmodel_stats(net, sims, NULL);
        o->net = NULL;
        cs_netmodel_destroy(net);
        if (st != CS_OK)
            return 1;
    }
    *per = (now_s() - t0) / reps;
    return 0;
}

int main(void)
{
    cs_diags d;
    cs_diags_init(&d);
    cs_catalog *cat = NULL;
    if (cs_catalog_load_dir(cs_catalog_default_dir(), &d, &cat) != CS_OK) {
        fprintf(stderr, "bench_step: cannot load the catalog\n");
        return 1;
    }
    cs_diags_fini(&d);

    struct cs_scenario s;
    if (load(cat,
             "schema_version: 1\n"
             "cluster: {gpu: H100-SXM5-80GB, nodes: 2048, gpus_per_node: 8,"
             " fabric: {topology: fat-tree, link: ib-ndr}}\n"
             "workload: {model: {preset: llama3.1-405b}, global_batch: 2048, micro_batch: 1,"
             " parallelism: {tp: 8, pp: 16, dp: 128, sp: true, fsdp: zero1},"
             " recompute: full}\n",
             &s))
        return 1;
    struct cs_step_options o;
    cs_step_options_default(&s.cluster.gpu, &o);
    struct cs_step_result r;
    int reps = 20;
    double t0 = now_s();
    for (int i = 0; i < reps; i++) {
        cs_diags_init(&d);
        if (cs_step_simulate(&s.cluster, &s.workload, &o, &d, &r) != CS_OK) {
            fprintf(stderr, "bench_step: simulation failed\n");
            return 1;
        }
        cs_diags_fini(&d);
    }
    double per = (now_s() - t0) / reps;
    printf("step_405b_16k_gpus_s: %.6f\n", per);
    printf("step_405b_16k_events: %llu\n", (unsigned long long)r.events);
    printf("step_405b_16k_simulated_step_s: %.3f\n", r.time_s);
    printf("step_405b_16k_mfu: %.3f\n", r.mfu);

    /* The same step with flow-costed collectives: the network model built
     * (fabric, placement) and every communicator's round simulated, cache
     * cold each time, as `clustersim run` does. */
    int freps = 5;
    long sims = 0;
    double per_flow;
    if (flow_steps(&s, &o, freps, &r, &sims, &per_flow) != 0)
        return 1;
    printf("step_405b_16k_flow_s: %.6f\n", per_flow);
    printf("step_405b_16k_flow_rounds: %ld\n", sims);
    printf("step_405b_16k_flow_simulated_step_s: %.3f\n", r.time_s);
    cs_scenario_fini(&s);

    if (load(cat,
             "schema_version: 1\n"
             "cluster: {gpu: H100-SXM5-80GB, nodes: 8, gpus_per_node: 8}\n"
             "workload: {model: {preset: llama2-70b}, global_batch: 512}\n",
             &s))
        return 1;
    cs_step_options_default(&s.cluster.gpu, &o);
    struct cs_search_space sp;
    cs_search_space_default(&sp);
    sp.threads = 2;
    struct cs_search_result res;
    /* Flow-costed collectives: one network model (its cache shared by the
     * threads), built inside the timed region as `clustersim search` does. */
    t0 = now_s();
    cs_netmodel *net = NULL;
    if (cs_netmodel_create(&s.cluster, 0, NULL, 0, s.seed, &net, NULL, 0) != CS_OK) {
        fprintf(stderr, "bench_step: network model failed\n");
        return 1;
    }
    o.net = net;
    cs_search_run(&s.cluster, &s.workload, &o, &sp, NULL, NULL, &res);
    double dt = now_s() - t0;
    long hits = 0;
    cs_netmodel_stats(net, &sims, &hits);
    o.net = NULL;
    cs_netmodel_destroy(net);
    printf("search_flow_rounds: %ld\n", sims);
    printf("search_flow_cache_hits: %ld\n", hits);
    printf("search_configs_considered: %zu\n", res.considered);
    printf("search_configs_simulated: %zu\n", res.n);
    printf("search_threads: %d\n", sp.threads);
    printf("search_configs_per_s: %.0f\n", (double)res.considered / dt);
    printf("search_simulated_per_s: %.0f\n", (double)res.n / dt);
    cs_search_result_fini(&res);
    /* The same search on the geometry's closed form (no network model), for
     * the overhead of the flow-costed shares on this machine now. */
    t0 = now_s();
    cs_search_run(&s.cluster, &s.workload, &o, &sp, NULL, NULL, &res);
    dt = now_s() - t0;
    printf("search_configs_per_s_closed_form: %.0f\n", (double)res.considered / dt);
    cs_search_result_fini(&res);
    /* The flow-costed search again on one thread, timed in CPU seconds: the
     * figure that does not move with the machine's load (the wall-clock
     * figures above do, on a shared machine). */
    sp.threads = 1;
    double c0 = cpu_s();
    if (cs_netmodel_create(&s.cluster, 0, NULL, 0, s.seed, &net, NULL, 0) != CS_OK) {
        fprintf(stderr, "bench_step: network model failed\n");
        return 1;
    }
    o.net = net;
    cs_search_run(&s.cluster, &s.workload, &o, &sp, NULL, NULL, &res);
    double cdt = cpu_s() - c0;
    o.net = NULL;
    cs_netmodel_destroy(net);
    printf("search_configs_per_cpu_s_1thread: %.0f\n", (double)res.considered / cdt);
    cs_search_result_fini(&res);
    cs_scenario_fini(&s);

    /* Mixture of experts (issue: one MoE step of a 2,048-GPU job under
     * 0.1 s; the search over EP at least 10,000 configurations per second
     * on 2 threads): DeepSeek-V3 on 2,048 H100 as its report runs it (pp
     * 16, ep 64, dp 128), flow-costed collectives, network model built
     * each time as `clustersim run` does. */
    if (load(cat,
             "schema_version: 1\n"
             "cluster: {gpu: H100-SXM5-80GB, nodes: 256, gpus_per_node: 8,"
             " fabric: {topology: fat-tree, link: ib-ndr}}\n"
             "workload: {model: {preset: deepseek-v3}, stack: mcore, global_batch: 15360,"
             " micro_batch: 1, parallelism: {tp: 1, pp: 16, dp: 128, ep: 64, fsdp: zero1},"
             " recompute: full}\n",
             &s))
        return 1;
    cs_step_options_default(&s.cluster.gpu, &o);
    if (flow_steps(&s, &o, 5, &r, &sims, &per_flow) != 0)
        return 1;
    printf("step_moe_dsv3_2k_flow_s: %.6f\n", per_flow);
    printf("step_moe_dsv3_2k_simulated_step_s: %.3f\n", r.time_s);
    printf("step_moe_dsv3_2k_ep_comm_s: %.3f\n", r.ep_comm_s);
    cs_scenario_fini(&s);

    /* The search over ep and etp (with everything else) for Mixtral 8x7B on
     * 64 H100, flow-costed, 2 threads. */
    if (load(cat,
             "schema_version: 1\n"
             "cluster: {gpu: H100-SXM5-80GB, nodes: 8, gpus_per_node: 8}\n"
             "workload: {model: {preset: mixtral-8x7b}, stack: mcore, global_batch: 512}\n",
             &s))
        return 1;
    cs_step_options_default(&s.cluster.gpu, &o);
    cs_search_space_default(&sp);
    sp.threads = 2;
    t0 = now_s();
    if (cs_netmodel_create(&s.cluster, 0, NULL, 0, s.seed, &net, NULL, 0) != CS_OK) {
        fprintf(stderr, "bench_step: network model failed\n");
        return 1;
    }
    o.net = net;
    cs_search_run(&s.cluster, &s.workload, &o, &sp, NULL, NULL, &res);
    dt = now_s() - t0;
    o.net = NULL;
    cs_netmodel_destroy(net);
    printf("search_moe_configs_considered: %zu\n", res.considered);
    printf("search_moe_configs_simulated: %zu\n", res.n);
    printf("search_moe_configs_per_s: %.0f\n", (double)res.considered / dt);
    cs_search_result_fini(&res);
    cs_scenario_fini(&s);
    cs_catalog_destroy(cat);
    return 0;
}
