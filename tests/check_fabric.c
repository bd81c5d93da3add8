/* check_fabric.c: topology builder (models/topology.c) and flow-level
 * simulation (models/flow.c): counts against hand-derived values, routing,
 * max-min fairness by hand, agreement with the closed-form model without
 * contention, and contention on an oversubscribed fabric. */
#include "clustersim/models/cluster.h"
#include "clustersim/models/collective.h"
#include "clustersim/models/topology.h"
#include "clustersim/models/flow.h"
#include "test_util.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A100 nodes (8 GPUs, NVSwitch), 8 NICs of ib-hdr (25e9 B/s, radix 40) or
 * ib-ndr (50e9 B/s, radix 64). */
static struct cs_cluster_cfg make_cluster(int nodes, enum cs_topology topo, bool ndr, double oversub)
{
    struct cs_cluster_cfg c;
    memset(&c, 0, sizeof c);
    snprintf(c.gpu.name, sizeof c.gpu.name, "A100-SXM4-80GB");
    c.gpu.scaleup_bw_bytes_per_s = 300e9;
    c.nodes = nodes;
    c.gpus_per_node = 8;
    c.intra.kind = CS_INTRA_NVSWITCH;
    c.intra.bw_bytes_per_s = NAN;
    c.intra.efficiency = NAN;
    c.fabric.topology = topo;
    c.fabric.link.kind = CS_LINK_INFINIBAND;
    c.fabric.link.bw_bytes_per_s = ndr ? 50e9 : 25e9;
    c.fabric.link.efficiency = NAN;
    c.fabric.link.hop_latency_s = 90e-9;
    c.fabric.link.switch_radix = ndr ? 64 : 40;
    c.fabric.nics_per_node = 8;
    c.fabric.oversubscription = oversub;
    return c;
}

/* cs_coll_time for a collective the cluster can run: the status must be CS_OK. */
static double coll_s(const struct cs_cluster_cfg *c, enum cs_coll_op op, double bytes, const struct cs_coll_group *g,
                     enum cs_coll_algo algo, enum cs_coll_algo *chosen)
{
    double t = -1.0;
    ck_assert_int_eq(cs_coll_time(c, op, bytes, g, algo, &t, chosen), CS_OK);
    return t;
}

START_TEST(test_fabric_counts)
{
    cs_fabric *f = NULL;
    struct cs_fabric_counts ct;
    /* 16 nodes x 8 NICs = 128 endpoints, k = 40, 1:1: 20 down / 20 up per leaf;
     * leaves ceil(128/20) = 7, spines ceil(7 x 20 / 40) = 4; cables
     * 128 + 7 x 20 = 268, ports 128 + 2 x 140 = 408, optics 2 x 268 = 536. */
    struct cs_cluster_cfg c = make_cluster(16, CS_TOPO_FAT_TREE, false, 1.0);
    ck_assert_int_eq(cs_fabric_create(&c, 1, &f), CS_OK);
    cs_fabric_counts(f, &ct);
    ck_assert_int_eq(cs_fabric_tiers(f), 2);
    ck_assert_int_eq(ct.switches_by_tier[0], 7);
    ck_assert_int_eq(ct.switches_by_tier[1], 4);
    ck_assert_int_eq(ct.switches_by_tier[2], 0);
    ck_assert_int_eq(ct.cables, 268);
    ck_assert_int_eq(ct.switch_ports, 408);
    ck_assert_int_eq(ct.optics, 536);
    ck_assert_int_eq(ct.nics, 128);
    cs_fabric_destroy(f);

    /* 2048 nodes x 8 = 16384 endpoints, k = 64: 2 tiers hold 64 x 32 = 2048,
     * so 3 tiers (Al-Fares): 512 leaves, 16 pods of 32 leaves, 32 aggregation
     * switches per pod = 512, cores 32 x ceil(16/2) = 256 (k^2/4 = 1024 at 64 pods). */
    c = make_cluster(2048, CS_TOPO_FAT_TREE, true, 1.0);
    ck_assert_int_eq(cs_fabric_create(&c, 1, &f), CS_OK);
    cs_fabric_counts(f, &ct);
    ck_assert_int_eq(cs_fabric_tiers(f), 3);
    ck_assert_int_eq(ct.switches_by_tier[0], 512);
    ck_assert_int_eq(ct.switches_by_tier[1], 512);
    ck_assert_int_eq(ct.switches_by_tier[2], 256);
    ck_assert_int_eq(ct.cables, 16384 + 512 * 32 + 512 * 32);
    cs_fabric_destroy(f);

    /* Spine-leaf 3:1, k = 64: 48 down, 16 up; 64 nodes -> 512 eps -> 11 leaves,
     * spines ceil(11 x 16 / 64) = 3. */
    c = make_cluster(64, CS_TOPO_SPINE_LEAF, true, 3.0);
    ck_assert_int_eq(cs_fabric_create(&c, 1, &f), CS_OK);
    cs_fabric_counts(f, &ct);
    ck_assert_int_eq(ct.switches_by_tier[0], 11);
    ck_assert_int_eq(ct.switches_by_tier[1], 3);
    cs_fabric_destroy(f);
    /* A spine-leaf cannot exceed k x down endpoints. */
    c = make_cluster(1024, CS_TOPO_SPINE_LEAF, true, 1.0);
    ck_assert_int_eq(cs_fabric_create(&c, 1, &f), CS_ERANGE);

    /* Rail-optimized, 64 nodes, k = 64: 2 SUs of 32 nodes x 8 rails = 16
     * leaves, spines ceil(16 x 32 / 64) = 8 (SuperPOD RA: 8 leaves per SU);
     * GPU 3 of nodes 0 and 5 share rail leaf 3. */
    c = make_cluster(64, CS_TOPO_RAIL_OPTIMIZED, true, 1.0);
    ck_assert_int_eq(cs_fabric_create(&c, 1, &f), CS_OK);
    cs_fabric_counts(f, &ct);
    ck_assert_int_eq(ct.switches_by_tier[0], 16);
    ck_assert_int_eq(ct.switches_by_tier[1], 8);
    ck_assert_int_eq(cs_fabric_leaf_of(f, 3), cs_fabric_leaf_of(f, 5 * 8 + 3));
    ck_assert_int_ne(cs_fabric_leaf_of(f, 3), cs_fabric_leaf_of(f, 4));
    cs_fabric_destroy(f);
}
END_TEST

START_TEST(test_fabric_route)
{
    struct cs_cluster_cfg c = make_cluster(16, CS_TOPO_FAT_TREE, false, 1.0);
    cs_fabric *f = NULL;
    ck_assert_int_eq(cs_fabric_create(&c, 7, &f), CS_OK);
    int links[CS_FABRIC_MAX_PATH];
    double lat = -1;
    ck_assert_int_eq(cs_fabric_route(f, 0, 3, 0, links, &lat), 2); /* NVSwitch up + down */
    ck_assert_double_eq(lat, 0.0);
    ck_assert_double_eq_tol(cs_fabric_link_capacity(f, links[0]), 240e9, 1.0);
    /* node 0 (leaf 0) to node 15 (endpoints 120..127, leaf 6): NIC up, leaf
     * up, spine down, NIC down; 3 switch hops x 90 ns. */
    ck_assert_int_eq(cs_fabric_route(f, 0, 15 * 8, 0, links, &lat), 4);
    ck_assert_double_eq_tol(lat, 270e-9, 1e-15);
    ck_assert_double_eq_tol(cs_fabric_link_capacity(f, links[0]), 23e9, 1.0);
    ck_assert_int_eq(cs_fabric_route(f, -1, 3, 0, links, NULL), -1);
    cs_fabric_destroy(f);
}
END_TEST

START_TEST(test_fabric_maxmin_hand)
{
    /* Links A (10 B/s) and B (4 B/s); f1 on A (20 B), f2 on A+B (4 B), f3 on
     * B (4 B). Max-min: B is the bottleneck, 4/2 = 2 each for f2 and f3; f1
     * gets A's rest, 10 - 2 = 8. At t = 2 f2 and f3 finish (4/2); f1 has
     * 20 - 16 = 4 left, alone on A at 10: finishes at 2.4. */
    double cap[2] = {10.0, 4.0};
    cs_flow_sim *s = cs_flow_sim_create_links(cap, 2);
    int a[1] = {0}, ab[2] = {0, 1}, b[1] = {1};
    int j1 = cs_flow_job_add(s, 0.0), j2 = cs_flow_job_add(s, 0.0), j3 = cs_flow_job_add(s, 0.0);
    ck_assert_int_eq(cs_flow_step_add(s, j1, 0.0, 1), CS_OK);
    ck_assert_int_eq(cs_flow_add_path(s, j1, a, 1, 20.0), CS_OK);
    ck_assert_int_eq(cs_flow_step_add(s, j2, 0.0, 1), CS_OK);
    ck_assert_int_eq(cs_flow_add_path(s, j2, ab, 2, 4.0), CS_OK);
    ck_assert_int_eq(cs_flow_step_add(s, j3, 0.0, 1), CS_OK);
    ck_assert_int_eq(cs_flow_add_path(s, j3, b, 1, 4.0), CS_OK);
    ck_assert_int_eq(cs_flow_run(s), CS_OK);
    ck_assert_double_eq_tol(cs_flow_job_finish_s(s, j1), 2.4, 1e-9);
    ck_assert_double_eq_tol(cs_flow_job_finish_s(s, j2), 2.0, 1e-9);
    ck_assert_double_eq_tol(cs_flow_job_finish_s(s, j3), 2.0, 1e-9);
    cs_flow_sim_destroy(s);

    /* Steps and repeats: one flow of 10 B on A, 3 repeats, 0.5 s latency
     * each: 3 x (0.5 + 1.0) = 4.5 s. */
    s = cs_flow_sim_create_links(cap, 2);
    int j = cs_flow_job_add(s, 0.0);
    ck_assert_int_eq(cs_flow_step_add(s, j, 0.5, 3), CS_OK);
    ck_assert_int_eq(cs_flow_add_path(s, j, a, 1, 10.0), CS_OK);
    ck_assert_int_eq(cs_flow_run(s), CS_OK);
    ck_assert_double_eq_tol(cs_flow_job_finish_s(s, j), 4.5, 1e-9);
    cs_flow_sim_destroy(s);
}
END_TEST

static void check_agree(int nodes, enum cs_coll_algo algo, const char *what)
{
    struct cs_cluster_cfg c = make_cluster(nodes, CS_TOPO_FAT_TREE, false, 1.0);
    cs_fabric *f = NULL;
    ck_assert_int_eq(cs_fabric_create(&c, 3, &f), CS_OK);
    int n = nodes * 8;
    int *ids = malloc((size_t)n * sizeof *ids);
    ck_assert_int_eq(cs_fabric_place(f, CS_PLACE_PACKED, n, 0, NULL, ids), CS_OK);
    double S = 1073741824.0, t_flow = 0;
    ck_assert_int_eq(cs_flow_collective(f, CS_COLL_ALL_REDUCE, S, ids, n, algo, &t_flow), CS_OK);
    struct cs_coll_group g = {n, 8, 1, 0, 0, 0};
    double t_cf = coll_s(&c, CS_COLL_ALL_REDUCE, S, &g, algo, NULL);
    double err = (t_flow - t_cf) / t_cf;
    printf("flow vs closed form, %s: flow %.6f s, closed %.6f s, error %+.3f%%\n", what, t_flow, t_cf, 100 * err);
    ck_assert_msg(fabs(err) <= 0.02, "%s: %.3f%%", what, 100 * err);
    /* Aggregated classes give the same time for this symmetric job. */
    struct cs_flow_job_spec spec = {CS_COLL_ALL_REDUCE, S, ids, n, algo, 0.0};
    double fin = 0;
    struct cs_flow_stats st;
    ck_assert_int_eq(cs_flow_collectives(f, &spec, 1, true, &fin, &st), CS_OK);
    ck_assert_double_eq_tol(fin, t_flow, 1e-9 * t_flow);
    free(ids);
    cs_fabric_destroy(f);
}

START_TEST(test_fabric_flow_matches_closed_form)
{
    check_agree(1, CS_COLL_RING, "1 node ring");
    check_agree(2, CS_COLL_HIER, "2 nodes hierarchical");
    check_agree(16, CS_COLL_HIER, "16 nodes hierarchical, 2-tier fat tree");
}
END_TEST

/* Four 4-node jobs placed scattered (seed 11) run an all_reduce of 256 MiB at
 * once; returns the last finish time. */
static double four_jobs(enum cs_topology topo, double oversub)
{
    struct cs_cluster_cfg c = make_cluster(32, topo, false, oversub);
    cs_fabric *f = NULL;
    ck_assert_int_eq(cs_fabric_create(&c, 5, &f), CS_OK);
    unsigned char used[256] = {0};
    int ids[4][32];
    struct cs_flow_job_spec jobs[4];
    for (int j = 0; j < 4; j++) {
        ck_assert_int_eq(cs_fabric_place(f, CS_PLACE_SCATTERED, 32, 11 + (uint64_t)j, used, ids[j]), CS_OK);
        jobs[j] = (struct cs_flow_job_spec){CS_COLL_ALL_REDUCE, 268435456.0, ids[j], 32, CS_COLL_HIER, 0.0};
    }
    double fin[4];
    ck_assert_int_eq(cs_flow_collectives(f, jobs, 4, false, fin, NULL), CS_OK);
    double worst = 0;
    for (int j = 0; j < 4; j++)
        worst = fmax(worst, fin[j]);
    cs_fabric_destroy(f);
    return worst;
}

START_TEST(test_fabric_oversubscribed_contention)
{
    double nb = four_jobs(CS_TOPO_FAT_TREE, 1.0), os = four_jobs(CS_TOPO_SPINE_LEAF, 3.0);
    printf("4 scattered jobs: non-blocking fat tree %.6f s, 3:1 spine-leaf %.6f s (x%.2f)\n", nb, os, os / nb);
    ck_assert(os > 1.2 * nb);
}
END_TEST

START_TEST(test_fabric_placement)
{
    struct cs_cluster_cfg c = make_cluster(8, CS_TOPO_FAT_TREE, false, 1.0);
    cs_fabric *f = NULL;
    ck_assert_int_eq(cs_fabric_create(&c, 1, &f), CS_OK);
    int a[16], b[16], d[16];
    ck_assert_int_eq(cs_fabric_place(f, CS_PLACE_PACKED, 16, 0, NULL, a), CS_OK);
    for (int i = 0; i < 16; i++)
        ck_assert_int_eq(a[i], i);
    ck_assert_int_eq(cs_fabric_place(f, CS_PLACE_SCATTERED, 16, 42, NULL, a), CS_OK);
    ck_assert_int_eq(cs_fabric_place(f, CS_PLACE_SCATTERED, 16, 42, NULL, b), CS_OK);
    ck_assert_int_eq(cs_fabric_place(f, CS_PLACE_SCATTERED, 16, 43, NULL, d), CS_OK);
    ck_assert(memcmp(a, b, sizeof a) == 0);   /* same seed, same nodes */
    ck_assert(memcmp(a, d, sizeof a) != 0);   /* another seed differs */
    unsigned char used[64] = {0};
    int big[64];
    ck_assert_int_eq(cs_fabric_place(f, CS_PLACE_PACKED, 60, 0, used, big), CS_OK);
    ck_assert_int_eq(cs_fabric_place(f, CS_PLACE_PACKED, 8, 0, used, big), CS_EFULL);
    ck_assert_int_eq(cs_fabric_place(f, CS_PLACE_PACKED, 4, 0, used, big), CS_OK);
    ck_assert_int_eq(big[0], 60);
    cs_fabric_destroy(f);
}
END_TEST

START_TEST(test_fabric_view_hand)
{
    struct cs_coll_fabric_view v;
    /* 3:1 spine-leaf, radix 40: 30 down / 10 up ports, D = 30 / 8 = 3.75
     * nodes per leaf, 32 nodes.
     * Scattered 256-rank group: leaves ceil(32 / 3.75) = 9, job nodes per
     * leaf min(3.75, 32 / 9) = 3.5556; cross = 1 - 2.5556 / 31 = 0.91756;
     * up demand 3.5556 x 8 x 0.917563 = 26.0996 NIC rates on 10 uplinks:
     * share 10 / 26.0996 = 0.383148; 3 hops. */
    struct cs_cluster_cfg c = make_cluster(32, CS_TOPO_SPINE_LEAF, false, 3.0);
    c.fabric.placement = CS_PLACEMENT_SCATTERED;
    struct cs_coll_group g = {256, 8, 1, 0, 0, 0};
    ck_assert_int_eq(cs_coll_fabric_view(&c, &g, &v), CS_OK);
    ck_assert_double_eq_tol(v.cross_frac, 0.91756, 1e-5);
    ck_assert_double_eq_tol(v.bw_share, 0.383148, 1e-6);
    ck_assert_int_eq(v.hops, 3);
    /* Packed: 9 leaves, 9 of the ring's 32 inter-node edges cross (0.28125);
     * demand 30 x 0.28125 = 8.44 < 10 uplinks: share 1. */
    c.fabric.placement = CS_PLACEMENT_PACKED;
    ck_assert_int_eq(cs_coll_fabric_view(&c, &g, &v), CS_OK);
    ck_assert_int_eq(v.leaves, 9);
    ck_assert_double_eq_tol(v.cross_frac, 0.28125, 1e-12);
    ck_assert_double_eq(v.bw_share, 1.0);
    /* The DP all_reduce of a scattered job on the 3:1 fabric is slower than
     * on the non-blocking fat tree (tp = 8: 8 groups of 32 ranks per node,
     * one NIC each). */
    struct cs_coll_group dp = {32, 1, 8, 0, 0, 0};
    struct cs_cluster_cfg nb = make_cluster(32, CS_TOPO_FAT_TREE, false, 1.0);
    c.fabric.placement = CS_PLACEMENT_SCATTERED;
    double t_nb = coll_s(&nb, CS_COLL_ALL_REDUCE, 160e6, &dp, CS_COLL_AUTO, NULL);
    double t_os = coll_s(&c, CS_COLL_ALL_REDUCE, 160e6, &dp, CS_COLL_AUTO, NULL);
    printf("DP all_reduce 160 MB over 32 nodes: non-blocking packed %.3f ms, 3:1 scattered %.3f ms (x%.2f)\n",
           1e3 * t_nb, 1e3 * t_os, t_os / t_nb);
    ck_assert(t_os > 1.5 * t_nb);

    /* Two nodes on one radix-40 leaf (D = 2.5): 1 hop, nothing crosses. */
    struct cs_cluster_cfg two = make_cluster(2, CS_TOPO_FAT_TREE, false, 1.0);
    struct cs_coll_group g2 = {16, 8, 1, 0, 0, 0};
    ck_assert_int_eq(cs_coll_fabric_view(&two, &g2, &v), CS_OK);
    ck_assert_int_eq(v.hops, 1);
    ck_assert_double_eq(v.cross_frac, 0.0);

    /* 3-tier fat tree, radix 64, 2048 nodes: 4 nodes per leaf, 32 leaves x 4
     * = 128 nodes per pod: 16 packed nodes stay in a pod (3 hops), 256 cross
     * the core (5 hops). */
    struct cs_cluster_cfg big = make_cluster(2048, CS_TOPO_FAT_TREE, true, 1.0);
    struct cs_coll_group g16 = {128, 8, 1, 0, 0, 0}, g256 = {2048, 8, 1, 0, 0, 0};
    ck_assert_int_eq(cs_coll_fabric_view(&big, &g16, &v), CS_OK);
    ck_assert_int_eq(v.hops, 3);
    ck_assert_int_eq(cs_coll_fabric_view(&big, &g256, &v), CS_OK);
    ck_assert_int_eq(v.hops, 5);

    /* Rail-optimized, 64 nodes: a scalable unit of 32 nodes keeps each rail
     * on one leaf (1 hop); 64 nodes span 2 units (3 hops, 2 of 64 edges). */
    struct cs_cluster_cfg rail = make_cluster(64, CS_TOPO_RAIL_OPTIMIZED, true, 1.0);
    struct cs_coll_group r32 = {32, 1, 8, 0, 0, 0}, r64 = {64, 1, 8, 0, 0, 0};
    ck_assert_int_eq(cs_coll_fabric_view(&rail, &r32, &v), CS_OK);
    ck_assert_int_eq(v.hops, 1);
    ck_assert_int_eq(cs_coll_fabric_view(&rail, &r64, &v), CS_OK);
    ck_assert_int_eq(v.hops, 3);
    ck_assert_double_eq_tol(v.cross_frac, 2.0 / 64.0, 1e-12);
    /* Bad group: ranks not a multiple of ranks per node. */
    struct cs_coll_group bad = {12, 8, 1, 0, 0, 0};
    ck_assert_int_eq(cs_coll_fabric_view(&rail, &bad, &v), CS_EINVAL);
}
END_TEST

/* Max flows on one link, in units of a NIC port's rate (a bundle of c
 * cables counts its load / c), for flows src[i] -> dst[i] routed with flow
 * ids 0..n-1; only switch-switch links when sw_only. */
static double max_link_load(const cs_fabric *f, const int *src, const int *dst, int n, bool sw_only, double nic)
{
    int nl = cs_fabric_n_links(f);
    double *load = calloc((size_t)nl, sizeof *load), worst = 0;
    ck_assert_ptr_nonnull(load);
    int links[CS_FABRIC_MAX_PATH];
    for (int i = 0; i < n; i++) {
        int np = cs_fabric_route(f, src[i], dst[i], (uint64_t)i, links, NULL);
        ck_assert_int_ge(np, 0);
        for (int k = 0; k < np; k++)
            load[links[k]] += 1.0;
    }
    for (int l = 0; l < nl; l++) {
        if (sw_only && cs_fabric_link_class(f, l) != CS_FLINK_SWITCH)
            continue;
        double cables = cs_fabric_link_capacity(f, l) / nic;
        if (load[l] > 0 && load[l] / cables > worst)
            worst = load[l] / cables;
    }
    free(load);
    return worst;
}

/* The closed form's fabric share against the flow model for one scattered
 * job on a 3:1 spine-leaf. The closed form spreads a leaf's cross-leaf
 * demand evenly over its uplinks (share); the flow model routes every
 * cable (d-mod-k), and its inter-node ring step lasts as long as the most
 * loaded cable needs: chunk x L_max / nic. So the two differ by exactly
 * 2(m-1) x (S/n) / nic x (L_max - 1/share) (m = 32 nodes, n = 256 ranks),
 * the cost of the collisions the closed form does not see. Before each
 * cable was its own link (parallel cables merged, balanced for free), the
 * flow model was 17 % slower than the closed form here; now the collisions
 * on single cables make it 40 %. */
START_TEST(test_fabric_scattered_closed_vs_flow)
{
    struct cs_cluster_cfg c = make_cluster(32, CS_TOPO_SPINE_LEAF, false, 3.0);
    c.fabric.placement = CS_PLACEMENT_SCATTERED;
    cs_fabric *f = NULL;
    ck_assert_int_eq(cs_fabric_create(&c, 42, &f), CS_OK);
    int ids[256];
    ck_assert_int_eq(cs_fabric_place(f, CS_PLACE_SCATTERED, 256, 42, NULL, ids), CS_OK);
    double S = 268435456.0, t_flow = 0;
    ck_assert_int_eq(cs_flow_collective(f, CS_COLL_ALL_REDUCE, S, ids, 256, CS_COLL_HIER, &t_flow), CS_OK);
    struct cs_coll_group g = {256, 8, 1, 0, 0, 0};
    double t_cf = coll_s(&c, CS_COLL_ALL_REDUCE, S, &g, CS_COLL_HIER, NULL);
    struct cs_coll_fabric_view v;
    ck_assert_int_eq(cs_coll_fabric_view(&c, &g, &v), CS_OK);
    /* The inter-node rings as flow.c builds them: local rank r of the k-th
     * node (in order of appearance) to the same local rank of the next. */
    int src[256], dst[256];
    for (int r = 0; r < 8; r++)
        for (int k = 0; k < 32; k++) {
            src[r * 32 + k] = ids[k * 8 + r];
            dst[r * 32 + k] = ids[((k + 1) % 32) * 8 + r];
        }
    double nic = 25e9 * 0.92, L = max_link_load(f, src, dst, 256, false, nic);
    double predicted = t_cf + 2 * 31 * (S / 256) / nic * (L - 1.0 / v.bw_share);
    printf("scattered 3:1 spine-leaf, 256 MiB hier all_reduce: flow %.3f ms, closed form %.3f ms (%+.1f%%); "
           "hottest cable %.0f flows, closed-form share %.4f: predicted %.3f ms\n",
           1e3 * t_flow, 1e3 * t_cf, 100 * (t_cf - t_flow) / t_flow, L, v.bw_share, 1e3 * predicted);
    ck_assert(t_cf < t_flow);
    ck_assert_msg(fabs(predicted - t_flow) <= 0.02 * t_flow, "predicted %.4f ms, flow %.4f ms", 1e3 * predicted,
                  1e3 * t_flow);
    cs_fabric_destroy(f);
}
END_TEST


/* PCIe x16 line rates by hand (PCI-SIG): Gen1 2.5 GT/s x 16 x 8/10 / 8 = 4
 * GB/s, Gen2 8 GB/s, Gen3 8 GT/s x 16 x 128/130 / 8 = 15.7538 GB/s, doubling
 * to 31.5077, 63.0154 and 126.031 GB/s; unknown generations are NAN. */
START_TEST(test_cluster_pcie_line_rates)
{
    ck_assert_double_eq_tol(cs_pcie_x16_bytes_per_s(1), 4e9, 1.0);
    ck_assert_double_eq_tol(cs_pcie_x16_bytes_per_s(2), 8e9, 1.0);
    ck_assert_double_eq_tol(cs_pcie_x16_bytes_per_s(3), 15.753846e9, 1e3);
    ck_assert_double_eq_tol(cs_pcie_x16_bytes_per_s(4), 31.507692e9, 1e3);
    ck_assert_double_eq_tol(cs_pcie_x16_bytes_per_s(5), 63.015385e9, 1e3);
    ck_assert_double_eq_tol(cs_pcie_x16_bytes_per_s(6), 126.030769e9, 1e3);
    ck_assert(isnan(cs_pcie_x16_bytes_per_s(0)));
    ck_assert(isnan(cs_pcie_x16_bytes_per_s(8)));
}
END_TEST

/* The view of 16 A100 nodes with 8 ib-hdr ports: the entries give no
 * efficiency, so the collective model's defaults apply: NVSwitch 0.80 x 300
 * GB/s = 240 GB/s per GPU; network 0.92 x 25 GB/s = 23 GB/s per port, 184
 * GB/s per node (200 GB/s line). With the link's own 0.9: 22.5 / 180 GB/s. */
START_TEST(test_cluster_view_rates)
{
    struct cs_cluster_cfg c = make_cluster(16, CS_TOPO_FAT_TREE, false, 1.0);
    c.gpu.pcie_gen = 4;
    struct cs_cluster_view v;
    ck_assert_int_eq(cs_cluster_view_build(&c, NULL, &v), CS_OK);
    ck_assert_int_eq((int)v.gpus, 128);
    ck_assert(!v.intra_pcie);
    ck_assert_double_eq_tol(v.intra_line_bw_bytes_per_s, 300e9, 1.0);
    ck_assert_double_eq_tol(v.intra_efficiency, 0.80, 1e-12);
    ck_assert_double_eq_tol(v.intra_bw_bytes_per_s, 240e9, 1.0);
    ck_assert_int_eq(v.nics_per_node, 8);
    ck_assert_int_eq(v.ports_per_node, 8);
    ck_assert_double_eq_tol(v.nic_efficiency, 0.92, 1e-12);
    ck_assert_double_eq_tol(v.nic_bw_bytes_per_s, 23e9, 1.0);
    ck_assert_double_eq_tol(v.node_net_bw_bytes_per_s, 184e9, 1.0);
    ck_assert_double_eq_tol(v.node_net_line_bw_bytes_per_s, 200e9, 1.0);
    ck_assert_double_eq_tol(v.pcie_bytes_per_s, 31.507692e9, 1e3);
    ck_assert(v.has_geometry);
    ck_assert_int_eq(v.geom.tiers, 2);  /* 128 ports over radix-40 leaves: two tiers */
    c.fabric.link.efficiency = 0.9;
    ck_assert_int_eq(cs_cluster_view_build(&c, NULL, &v), CS_OK);
    ck_assert_double_eq_tol(v.nic_bw_bytes_per_s, 22.5e9, 1.0);
    ck_assert_double_eq_tol(v.node_net_bw_bytes_per_s, 180e9, 1.0);
    /* The rates-only view (the hot path) gives the same rates, no geometry. */
    struct cs_cluster_view r;
    ck_assert_int_eq(cs_cluster_view_rates(&c, NULL, &r), CS_OK);
    ck_assert(!r.has_geometry);
    ck_assert_int_eq(r.geometry_status, CS_EUNSUPPORTED);
    ck_assert_double_eq(r.nic_bw_bytes_per_s, v.nic_bw_bytes_per_s);
    ck_assert_double_eq(r.intra_bw_bytes_per_s, v.intra_bw_bytes_per_s);
    /* The same figure every model reads: the closed form's per-GPU scale-up rate. */
    ck_assert_double_eq_tol(cs_coll_intra_bw(&c, NULL, 1), 240e9, 1.0);
}
END_TEST

/* One node may have no NICs (one unused port in the graph, no network
 * bandwidth); several nodes without NICs or without a link rate are
 * impossible clusters. PCIe intra-node traffic shares the host bridges. */
START_TEST(test_cluster_view_impossible_and_pcie)
{
    struct cs_cluster_cfg c = make_cluster(1, CS_TOPO_SINGLE_SWITCH, false, 1.0);
    c.fabric.nics_per_node = 0;
    struct cs_cluster_view v;
    memset(&v, 0x5a, sizeof v);
    ck_assert_int_eq(cs_cluster_view_build(&c, NULL, &v), CS_OK);
    ck_assert_int_eq(v.nics_per_node, 0);
    ck_assert_int_eq(v.ports_per_node, 1);
    ck_assert_double_eq(v.node_net_bw_bytes_per_s, 0.0);
    c = make_cluster(4, CS_TOPO_FAT_TREE, false, 1.0);
    c.fabric.nics_per_node = 0;
    struct cs_cluster_view keep = v;
    ck_assert_int_eq(cs_cluster_view_build(&c, NULL, &v), CS_EINVAL);
    ck_assert(memcmp(&keep, &v, sizeof v) == 0);  /* untouched on failure */
    c.fabric.nics_per_node = 8;
    c.fabric.link.bw_bytes_per_s = 0;
    ck_assert_int_eq(cs_cluster_view_build(&c, NULL, &v), CS_EINVAL);
    /* 8 GPUs on PCIe Gen4 behind 2 host bridges: 0.80 x 31.5 GB/s each, a
     * quarter of it when all 8 talk at once. */
    c = make_cluster(1, CS_TOPO_SINGLE_SWITCH, false, 1.0);
    c.intra.kind = CS_INTRA_PCIE;
    c.intra.bw_bytes_per_s = cs_pcie_x16_bytes_per_s(4);
    ck_assert_int_eq(cs_cluster_view_build(&c, NULL, &v), CS_OK);
    ck_assert(v.intra_pcie);
    ck_assert_double_eq_tol(v.intra_bw_bytes_per_s, 0.8 * 31.507692e9, 1e3);
    ck_assert_double_eq_tol(cs_coll_intra_bw(&c, NULL, 8), 0.8 * 31.507692e9 * 2.0 / 8.0, 1e3);
    ck_assert_double_eq_tol(cs_coll_intra_bw(&c, NULL, 1), 0.8 * 31.507692e9, 1e3);
}
END_TEST


/* A new topology kind is one row (scenario.h, CS_TOPOLOGY_KINDS): the
 * builder reads nothing else of it. Here a row written in the test, "a fat
 * tree that always has three tiers", wired by cs_fabric_create_as. For the
 * 16 nodes x 8 ib-hdr ports of test_fabric_counts (k = 40, 20 down / 20 up,
 * 7 leaves): one pod of k/2 = 20 leaves, 20 aggregation switches (one per
 * leaf uplink), (1 + 1) / 2 = 1 core group of 20 cores; cables 128 NIC + 7 x
 * 20 leaf-agg + 1 x 20 x 20 agg-core = 668, optics 1,336, switch ports 128 +
 * 2 x 540 = 1,208; a path across leaves takes 3 switch hops (within the pod). */
START_TEST(test_fabric_new_topology_kind)
{
    const struct cs_topology_kind three = {"three-tier-fat-tree", 3, false, CS_TOPO_BUILD_FAT_TREE};
    struct cs_cluster_cfg c = make_cluster(16, CS_TOPO_FAT_TREE, false, 1.0);
    cs_fabric *f = NULL;
    ck_assert_int_eq(cs_fabric_create_as(&c, &three, 1, &f), CS_OK);
    struct cs_fabric_counts ct;
    cs_fabric_counts(f, &ct);
    ck_assert_int_eq(cs_fabric_tiers(f), 3);
    ck_assert_int_eq(ct.switches_by_tier[0], 7);
    ck_assert_int_eq(ct.switches_by_tier[1], 20);
    ck_assert_int_eq(ct.switches_by_tier[2], 20);
    ck_assert_int_eq(ct.cables, 668);
    ck_assert_int_eq(ct.optics, 1336);
    ck_assert_int_eq(ct.switch_ports, 1208);
    int links[16];
    double lat = 0;
    int n = cs_fabric_route(f, 0, 8 * 15, 7, links, &lat);  /* node 0 to node 15: other leaves */
    ck_assert_int_gt(n, 0);
    ck_assert_double_eq_tol(lat, 3 * 90e-9, 1e-15);
    cs_fabric_destroy(f);
    struct cs_fabric_geom g;
    ck_assert_int_eq(cs_fabric_geometry_as(&c, &three, &g), CS_OK);
    ck_assert_int_eq(g.tiers, 3);
    /* The listed kinds are the rows: names, the loader's table and the
     * builder agree, and a value outside the list is refused. */
    for (int t = 0; t < CS_TOPO_COUNT; t++) {
        const struct cs_topology_kind *k = cs_topology_kind_of((enum cs_topology)t);
        ck_assert_ptr_nonnull(k);
        ck_assert_str_eq(cs_topology_name((enum cs_topology)t), k->name);
        ck_assert_str_eq(cs_topology_names[t], k->name);
    }
    ck_assert_ptr_null(cs_topology_names[CS_TOPO_COUNT]);
    ck_assert_ptr_null(cs_topology_kind_of(CS_TOPO_COUNT));
    c.fabric.topology = CS_TOPO_COUNT;
    ck_assert_int_eq(cs_fabric_create(&c, 1, &f), CS_EINVAL);
}
END_TEST


/* 8 H100 PCIe cards joined in NVLink-bridged pairs (scale-up domain 2,
 * intra_node nvlink-p2p): a ring over the 8 leaves each pair once, so 4 of
 * its edges cross PCIe, sharing the 2 host bridges: 63.0154 GB/s (Gen5 x16)
 * x 0.80 x 2/4 = 25.2062 GB/s per crossing edge, against 300 x 0.88 = 264
 * GB/s on the bridges; the slowest edge paces the ring. The flow model
 * routes the crossings through the node's host-bridge link and must agree.
 * (Before the cluster view, p2p pairs counted as a full NVSwitch: about 262
 * GB/s all_reduce busbw.) */
START_TEST(test_fabric_nvlink_pairs_cross_pcie)
{
    struct cs_cluster_cfg c = make_cluster(1, CS_TOPO_SINGLE_SWITCH, false, 1.0);
    snprintf(c.gpu.name, sizeof c.gpu.name, "H100-PCIe-80GB");
    c.gpu.scaleup_bw_bytes_per_s = 300e9;
    c.gpu.scaleup_domain_gpus = 2;
    c.gpu.pcie_gen = 5;
    c.intra.kind = CS_INTRA_NVLINK_P2P;
    c.intra.efficiency = 0.88;
    double cross = 32e9 * 16 * 128.0 / 130.0 / 8 * 0.80 * 0.5;
    ck_assert_double_eq_tol(cs_coll_intra_bw(&c, NULL, 8), cross, 1e3);
    ck_assert_double_eq_tol(cs_coll_intra_bw(&c, NULL, 2), 264e9, 1e3);  /* one pair: NVLink only */
    cs_fabric *f = NULL;
    ck_assert_int_eq(cs_fabric_create(&c, 3, &f), CS_OK);
    int ids[8];
    ck_assert_int_eq(cs_fabric_place(f, CS_PLACE_PACKED, 8, 0, NULL, ids), CS_OK);
    double S = 1073741824.0, t_flow = 0;
    ck_assert_int_eq(cs_flow_collective(f, CS_COLL_ALL_REDUCE, S, ids, 8, CS_COLL_RING, &t_flow), CS_OK);
    struct cs_coll_group g = {8, 8, 1, 0, 0, 0};
    double t_cf = coll_s(&c, CS_COLL_ALL_REDUCE, S, &g, CS_COLL_RING, NULL);
    ck_assert_msg(fabs(t_flow / t_cf - 1) <= 0.02, "flow %.6f s vs closed %.6f s", t_flow, t_cf);
    /* busbw = 2 x 7/8 x S / t: within the ring's bandwidth, and far below
     * the NVLink rate. */
    double busbw = 2.0 * 7.0 / 8.0 * S / t_cf;
    ck_assert(busbw <= cross * 1.001 && busbw > 0.9 * cross);
    cs_fabric_destroy(f);
    /* Without a PCIe generation the crossings cannot be costed: an error,
     * not a full NVSwitch. */
    c.gpu.pcie_gen = 0;
    struct cs_cluster_view v;
    ck_assert_int_eq(cs_cluster_view_build(&c, NULL, &v), CS_EINVAL);
}
END_TEST

static Suite *fabric_suite(void)
{
    Suite *s = suite_create("fabric");
    TCase *tc = tcase_create("topology");
    tcase_set_timeout(tc, 20);
    tcase_add_test(tc, test_cluster_pcie_line_rates);
    tcase_add_test(tc, test_cluster_view_rates);
    tcase_add_test(tc, test_cluster_view_impossible_and_pcie);
    tcase_add_test(tc, test_fabric_counts);
    tcase_add_test(tc, test_fabric_new_topology_kind);
    tcase_add_test(tc, test_fabric_route);
    tcase_add_test(tc, test_fabric_placement);
    tcase_add_test(tc, test_fabric_view_hand);
    suite_add_tcase(s, tc);
    TCase *tf = tcase_create("flow");
    tcase_set_timeout(tf, 60);
    tcase_add_test(tf, test_fabric_maxmin_hand);
    tcase_add_test(tf, test_fabric_nvlink_pairs_cross_pcie);
    tcase_add_test(tf, test_fabric_flow_matches_closed_form);
    tcase_add_test(tf, test_fabric_oversubscribed_contention);
    tcase_add_test(tf, test_fabric_scattered_closed_vs_flow);
    suite_add_tcase(s, tf);
    return s;
}

int main(void)
{
    return cs_test_run(fabric_suite());
}
