/* bench_flow.c: flow-model benchmark. A 1 GiB hierarchical all_reduce over
 * 16,384 GPUs (2048 nodes x 8 A100-class GPUs, 8 x ib-ndr per node, 3-tier
 * fat tree, radix 64) simulated flow by flow on the built topology: every
 * step's 16,384 flows are routed individually (d-mod-k), merged into one
 * flow class per step (symmetry: all members get one max-min rate; load on a
 * link = members crossing it x rate), and consecutive identical ring steps
 * reuse the rates. Steps: 7 intra-node reduce-scatter, 2 x 2047 inter-node
 * ring steps (8 rings of 2048 nodes), 7 intra-node all-gather.
 * Prints `name: value` lines. */
#include "clustersim/models/collective.h"
#include "clustersim/models/topology.h"
#include "clustersim/models/flow.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
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
    struct cs_cluster_cfg c;
    memset(&c, 0, sizeof c);
    snprintf(c.gpu.name, sizeof c.gpu.name, "A100-SXM4-80GB");
    c.gpu.scaleup_bw_bytes_per_s = 300e9;
    c.nodes = 2048;
    c.gpus_per_node = 8;
    c.intra.kind = CS_INTRA_NVSWITCH;
    c.intra.bw_bytes_per_s = NAN;
    c.intra.efficiency = NAN;
    c.fabric.topology = CS_TOPO_FAT_TREE;
    c.fabric.link.kind = CS_LINK_INFINIBAND;
    c.fabric.link.bw_bytes_per_s = 50e9;
    c.fabric.link.efficiency = NAN;
    c.fabric.link.hop_latency_s = 90e-9;
    c.fabric.link.switch_radix = 64;
    c.fabric.nics_per_node = 8;
    c.fabric.oversubscription = 1.0;

    double t0 = now_s();
    cs_fabric *f = NULL;
    if (cs_fabric_create(&c, 42, &f) != CS_OK) {
        fprintf(stderr, "bench_flow: cannot build the fabric\n");
        return 1;
    }
    int n = c.nodes * c.gpus_per_node;
    int *ids = malloc((size_t)n * sizeof *ids);
    if (!ids || cs_fabric_place(f, CS_PLACE_PACKED, n, 0, NULL, ids) != CS_OK) {
        fprintf(stderr, "bench_flow: placement failed\n");
        return 1;
    }
    double t1 = now_s();
    struct cs_flow_job_spec spec = {CS_COLL_ALL_REDUCE, 1073741824.0, ids, n, CS_COLL_HIER, 0.0};
    double fin = 0.0;
    struct cs_flow_stats st;
    cs_status rc = cs_flow_collectives(f, &spec, 1, true, &fin, &st);
    double t2 = now_s();
    if (rc != CS_OK) {
        fprintf(stderr, "bench_flow: %s\n", cs_strerror(rc));
        return 1;
    }
    struct cs_coll_group g = {n, 8, 1, 0, 0, 0, 0, 0};
    double cf = NAN;
    if (cs_coll_time(&c, CS_COLL_ALL_REDUCE, 1073741824.0, &g, CS_COLL_HIER, &cf, NULL) != CS_OK) {
        fprintf(stderr, "bench_flow: the closed form cannot model this cluster\n");
        return 1;
    }
    struct cs_fabric_counts ct;
    cs_fabric_counts(f, &ct);
    printf("flow_allreduce_16k_s: %.4f\n", t2 - t1);
    printf("fabric_build_s: %.4f\n", t1 - t0);
    printf("flows_simulated: %ld\n", st.flows);
    printf("flows_per_s: %.0f\n", (double)st.flows / (t2 - t1));
    printf("flow_classes_simulated: %ld\n", st.classes);
    printf("rate_solves: %ld\n", st.rate_solves);
    printf("rate_reuses: %ld\n", st.rate_reuses);
    printf("fabric_links: %d\n", cs_fabric_n_links(f));
    printf("fabric_switches: %ld\n",
           ct.switches_by_tier[0] + ct.switches_by_tier[1] + ct.switches_by_tier[2]);
    printf("simulated_allreduce_time_s: %.6f\n", fin);
    printf("closed_form_allreduce_time_s: %.6f\n", cf);
    free(ids);
    cs_fabric_destroy(f);
    return 0;
}
