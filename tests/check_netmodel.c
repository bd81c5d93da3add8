/* check_netmodel.c: the network model (models/netmodel.c): communicator
 * shares against hand-derived values (an oversubscribed leaf, a
 * non-blocking fabric), the fast path (inside a node, nothing contends)
 * equal to the flow model over every topology kind, neighbours' duty cycle,
 * the cache, and the step on the model. */
#include "clustersim/models/cluster.h"
#include "clustersim/models/collective.h"
#include "clustersim/models/netmodel.h"
#include "clustersim/models/step.h"
#include "clustersim/models/topology.h"
#include "clustersim/models/workload.h"
#include "test_util.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Nodes of `gpn` GPUs on NVSwitch with one 50e9 B/s InfiniBand NIC per GPU,
 * switches of radix k. */
static struct cs_cluster_cfg make_cluster(int nodes, int gpn, int radix, enum cs_topology topo, double oversub)
{
    struct cs_cluster_cfg c;
    memset(&c, 0, sizeof c);
    snprintf(c.gpu.name, sizeof c.gpu.name, "H100-SXM5-80GB");
    c.gpu.scaleup_bw_bytes_per_s = 450e9;
    c.gpu.hbm_bytes = 80e9;
    c.gpu.pcie_gen = 5;
    c.nodes = nodes;
    c.gpus_per_node = gpn;
    c.intra.kind = CS_INTRA_NVSWITCH;
    c.intra.bw_bytes_per_s = NAN;
    c.intra.efficiency = NAN;
    c.fabric.topology = topo;
    c.fabric.link.kind = CS_LINK_INFINIBAND;
    c.fabric.link.bw_bytes_per_s = 50e9;
    c.fabric.link.efficiency = NAN;
    c.fabric.link.hop_latency_s = 150e-9;
    c.fabric.link.switch_radix = radix;
    c.fabric.nics_per_node = gpn;
    c.fabric.oversubscription = oversub;
    c.fabric.placement = CS_PLACEMENT_PACKED;
    return c;
}

static double share_of(cs_netmodel *m, enum cs_net_pattern p, int size, long stride)
{
    double s = -1.0;
    ck_assert_int_eq(cs_netmodel_share(m, p, size, stride, &s), CS_OK);
    return s;
}

START_TEST(test_netmodel_oversubscribed_leaf)
{
    /* Radix 8 at 3:1: a leaf has floor(8 x 3/4) = 6 down and 2 up ports.
     * 12 one-GPU nodes fill two leaves (nodes 0-5, 6-11) under one spine
     * (ceil(2 x 2 / 8) = 1), each leaf's two uplinks merged into one link of
     * 2 x 50e9 B/s. The pairs (i, i + 6) (size 2, stride 6) all cross: six
     * flows each way share 2 NIC-rates, so each gets 1/3 of its NIC: the
     * share is up/down = 1/3. */
    struct cs_cluster_cfg c = make_cluster(12, 1, 8, CS_TOPO_FAT_TREE, 3.0);
    cs_netmodel *m = NULL;
    ck_assert_int_eq(cs_netmodel_create(&c, 0, NULL, 0, 1, &m, NULL, 0), CS_OK);
    ck_assert_double_eq_tol(share_of(m, CS_NET_RING, 2, 6), 1.0 / 3.0, 1e-9);
    ck_assert_double_eq_tol(share_of(m, CS_NET_CHAIN, 2, 6), 1.0 / 3.0, 1e-9);
    /* A ring over all 12 in rank order crosses between the leaves twice
     * (5 -> 6 and 11 -> 0): one flow per direction per uplink pair: 1. */
    ck_assert_double_eq_tol(share_of(m, CS_NET_RING, 12, 1), 1.0, 1e-12);
    /* Six rings of two inside... no: rings (i, i+1) of size 2, stride 1:
     * pairs (0,1), (2,3), ... stay in a leaf: 1. */
    ck_assert_double_eq_tol(share_of(m, CS_NET_RING, 2, 1), 1.0, 1e-12);
    long sims = 0, hits = 0;
    (void)share_of(m, CS_NET_RING, 2, 6); /* cached */
    cs_netmodel_stats(m, &sims, &hits);
    ck_assert_int_eq(hits, 1);
    ck_assert_int_eq(sims, 4);
    /* Bad shapes. */
    double s;
    ck_assert_int_eq(cs_netmodel_share(m, CS_NET_RING, 5, 1, &s), CS_EINVAL); /* 5 does not divide 12 */
    ck_assert_int_eq(cs_netmodel_share(m, CS_NET_RING, 2, 12, &s), CS_EINVAL);
    ck_assert_int_eq(cs_netmodel_share(m, CS_NET_RING, 0, 1, &s), CS_EINVAL);
    cs_netmodel_destroy(m);

    /* Non-blocking (1:1, down 4 = up 4): the same crossing pairs get the
     * whole NIC. */
    c = make_cluster(8, 1, 8, CS_TOPO_FAT_TREE, 1.0);
    ck_assert_int_eq(cs_netmodel_create(&c, 0, NULL, 0, 1, &m, NULL, 0), CS_OK);
    ck_assert_double_eq_tol(share_of(m, CS_NET_RING, 2, 4), 1.0, 1e-12);
    cs_netmodel_destroy(m);
}
END_TEST

/* The fast path: inside a node the share is 1 with no simulation, and on
 * every topology kind but the dragonfly (below), a non-blocking fabric gives a packed job's
 * data-parallel rings (8 rails, one ring per rail over 16 nodes) the whole
 * NIC, so the step on the network model equals the closed form's. */
START_TEST(test_netmodel_fast_path_all_topologies)
{
    for (int t = 0; t < CS_TOPO_COUNT; t++) {
        struct cs_cluster_cfg c = make_cluster(16, 8, 64, (enum cs_topology)t, 1.0);
        if (t == CS_TOPO_NVL_DOMAIN)
            c.fabric.domain_gpus = 16; /* two nodes per NVLink domain */
        cs_netmodel *m = NULL;
        char why[200] = "";
        cs_status rc = cs_netmodel_create(&c, 0, NULL, 0, 1, &m, why, sizeof why);
        ck_assert_msg(rc == CS_OK, "%s: %s", cs_topology_name((enum cs_topology)t), why);
        ck_assert_double_eq(share_of(m, CS_NET_RING, 8, 1), 1.0); /* tp 8 in a node */
        long sims = 0;
        cs_netmodel_stats(m, &sims, NULL);
        ck_assert_int_eq(sims, 0);
        double dp = share_of(m, CS_NET_RING, 16, 8);
        if (t == CS_TOPO_DRAGONFLY) {
            /* Not non-blocking: radix 64 gives h = p = 16, a = 32, so the
             * 128 NIC ports are one group of 8 routers, 2 nodes each, joined
             * by single local cables. The 8 rails' rings cross from router j
             * to j + 1 (node 2j+1 -> 2j+2) on one cable: 8 flows, 1/8 each
             * (models/topo/dragonfly.c, minimal routing). */
            ck_assert_double_eq_tol(dp, 1.0 / 8.0, 1e-12);
            cs_netmodel_destroy(m);
            continue;
        }
        ck_assert_msg(dp == 1.0, "%s: dp share %.6f, expected 1 (nothing contends)",
                      cs_topology_name((enum cs_topology)t), dp);
        /* The closed form with the share equals it without. */
        struct cs_coll_group g = {16, 1, 8, 0, 16, 0, 0, 0};
        double t0 = 0, t1 = 0;
        ck_assert_int_eq(cs_coll_time(&c, CS_COLL_ALL_REDUCE, 1e9, &g, CS_COLL_AUTO, &t0, NULL), CS_OK);
        g.net_share = dp;
        ck_assert_int_eq(cs_coll_time(&c, CS_COLL_ALL_REDUCE, 1e9, &g, CS_COLL_AUTO, &t1, NULL), CS_OK);
        ck_assert_double_eq(t0, t1);
        cs_netmodel_destroy(m);
    }
}
END_TEST

START_TEST(test_netmodel_neighbours_duty)
{
    /* 24 one-GPU nodes at 3:1 on radix 8: 4 leaves of 6. The job takes 12
     * GPUs scattered; a neighbour of 12 scattered GPUs runs a ring
     * all_reduce. Its traffic can only take bandwidth away: with it always
     * on (duty 1) the job's share is at most the share alone, and with a
     * duty near 0 (an interval far longer than its collective) it equals
     * the share alone. */
    struct cs_cluster_cfg c = make_cluster(24, 1, 8, CS_TOPO_FAT_TREE, 3.0);
    c.fabric.placement = CS_PLACEMENT_SCATTERED;
    struct cs_neighbour_cfg nb = {12, CS_PLACEMENT_SCATTERED, CS_NB_ALL_REDUCE, 1e9, 1e-6};
    cs_netmodel *alone = NULL, *busy = NULL, *idle = NULL;
    ck_assert_int_eq(cs_netmodel_create(&c, 12, NULL, 0, 3, &alone, NULL, 0), CS_OK);
    ck_assert_int_eq(cs_netmodel_create(&c, 12, &nb, 1, 3, &busy, NULL, 0), CS_OK);
    nb.interval_s = 1e9;
    ck_assert_int_eq(cs_netmodel_create(&c, 12, &nb, 1, 3, &idle, NULL, 0), CS_OK);
    double s0 = share_of(alone, CS_NET_RING, 12, 1);
    double s1 = share_of(busy, CS_NET_RING, 12, 1);
    double s2 = share_of(idle, CS_NET_RING, 12, 1);
    ck_assert(s0 > 0 && s0 <= 1.0);
    ck_assert_msg(s1 < s0, "neighbour always on: share %.4f, alone %.4f", s1, s0);
    ck_assert_double_eq_tol(s2, s0, 1e-6 * s0);
    /* The job's placement does not depend on the neighbours (placed after). */
    long n0 = 0, n1 = 0;
    const int *g0 = cs_netmodel_job_gpus(alone, &n0), *g1 = cs_netmodel_job_gpus(busy, &n1);
    ck_assert_int_eq(n0, 12);
    ck_assert_int_eq(n1, 12);
    ck_assert_int_eq(memcmp(g0, g1, 12 * sizeof *g0), 0);
    cs_netmodel_destroy(alone);
    cs_netmodel_destroy(busy);
    cs_netmodel_destroy(idle);

    /* More GPUs than the cluster has: CS_EFULL, with the reason. */
    nb.gpus = 16;
    char why[200] = "";
    ck_assert_int_eq(cs_netmodel_create(&c, 12, &nb, 1, 3, &busy, why, sizeof why), CS_EFULL);
    ck_assert_ptr_nonnull(strstr(why, "more GPUs"));
    /* Not whole nodes. */
    struct cs_cluster_cfg c2 = make_cluster(4, 8, 64, CS_TOPO_FAT_TREE, 1.0);
    ck_assert_int_eq(cs_netmodel_create(&c2, 12, NULL, 0, 3, &busy, why, sizeof why), CS_EINVAL);
}
END_TEST

START_TEST(test_netmodel_storage_loads)
{
    /* The 3:1 radix-8 tree of test_netmodel_oversubscribed_leaf: the pairs
     * (i, i+6) alone get 1/3. Every node also writes to storage at the top
     * of the fabric, duty 1: at each leaf 6 pair streams and 6 storage
     * streams share the 2 uplinks, 2/12 = 1/6 each. Duty 1/2: the
     * harmonic mean 1 / (0.5 / (1/6) + 0.5 / (1/3)) = 1/4.5. A client capped
     * at 5e9 B/s freezes there; a NIC moves 50e9 x 0.92 (the default link
     * efficiency) = 46e9 B/s, so each pair stream gets (2 - 6 x 5/46) / 6 of
     * a NIC. */
    struct cs_cluster_cfg c = make_cluster(12, 1, 8, CS_TOPO_FAT_TREE, 3.0);
    cs_netmodel *m = NULL;
    ck_assert_int_eq(cs_netmodel_create(&c, 0, NULL, 0, 1, &m, NULL, 0), CS_OK);
    struct cs_net_storage_load ld = {12, 50e9, INFINITY, true, 1.0};
    ck_assert_int_eq(cs_netmodel_set_storage(m, &ld, 1), CS_OK);
    ck_assert_double_eq_tol(share_of(m, CS_NET_RING, 2, 6), 1.0 / 6.0, 1e-9);
    ld.duty = 0.5;
    ck_assert_int_eq(cs_netmodel_set_storage(m, &ld, 1), CS_OK); /* empties the cache */
    ck_assert_double_eq_tol(share_of(m, CS_NET_RING, 2, 6), 1.0 / 4.5, 1e-9);
    ld.duty = 1.0;
    ld.node_bw = 5e9;
    ck_assert_int_eq(cs_netmodel_set_storage(m, &ld, 1), CS_OK);
    ck_assert_double_eq_tol(share_of(m, CS_NET_RING, 2, 6), (2.0 - 6.0 * 5.0 / 46.0) / 6.0, 1e-9);
    /* The tier's aggregate of 10e9 B/s over 12 clients: 10/12 GB/s each,
     * (2 - 6 x (10/12) / 46) / 6 of a NIC left to each pair stream. */
    ld.node_bw = 50e9;
    ld.aggregate_bw = 10e9;
    ck_assert_int_eq(cs_netmodel_set_storage(m, &ld, 1), CS_OK);
    ck_assert_double_eq_tol(share_of(m, CS_NET_RING, 2, 6), (2.0 - 6.0 * (10.0 / 12.0) / 46.0) / 6.0, 1e-9);
    /* Bad loads. */
    ld.duty = 1.5;
    ck_assert_int_eq(cs_netmodel_set_storage(m, &ld, 1), CS_EINVAL);
    ld.duty = 1.0;
    ld.nodes = 0;
    ck_assert_int_eq(cs_netmodel_set_storage(m, &ld, 1), CS_EINVAL);
    ck_assert_int_eq(cs_netmodel_set_storage(m, NULL, 0), CS_OK);
    ck_assert_double_eq_tol(share_of(m, CS_NET_RING, 2, 6), 1.0 / 3.0, 1e-9);
    cs_netmodel_destroy(m);
}
END_TEST

START_TEST(test_netmodel_nvl_domain_closed_form)
{
    /* 18 nodes of 4 GPUs in one 72-GPU NVLink domain act as one node of 72
     * GPUs: a 72-rank all_reduce costs what it costs on a single 72-GPU
     * NVSwitch node (same GPU, same NVLink rate), and none of it on the
     * NICs; on a plain fat tree the same ranks go over the NICs and take
     * longer. Two domains (144 ranks): each domain is one "node" with 72
     * NICs, so the inter-domain part moves S/72 per GPU. */
    struct cs_cluster_cfg dom = make_cluster(36, 4, 64, CS_TOPO_NVL_DOMAIN, 1.0);
    dom.fabric.domain_gpus = 72;
    dom.gpu.scaleup_bw_bytes_per_s = 900e9;
    struct cs_cluster_cfg big = make_cluster(1, 72, 64, CS_TOPO_SINGLE_SWITCH, 1.0);
    big.gpu.scaleup_bw_bytes_per_s = 900e9;
    big.fabric.nics_per_node = 72;
    struct cs_coll_group g72 = {72, 4, 1, 18, 36, 0, 0, 0}, g1 = {72, 72, 1, 0, 1, 0, 0, 0};
    double t_dom = 0, t_big = 0, t_fat = 0;
    ck_assert_int_eq(cs_coll_time(&dom, CS_COLL_ALL_REDUCE, 1 << 30, &g72, CS_COLL_RING, &t_dom, NULL), CS_OK);
    ck_assert_int_eq(cs_coll_time(&big, CS_COLL_ALL_REDUCE, 1 << 30, &g1, CS_COLL_RING, &t_big, NULL), CS_OK);
    ck_assert_double_eq_tol(t_dom, t_big, 1e-12 * t_big);
    struct cs_cluster_cfg fat = dom;
    fat.fabric.topology = CS_TOPO_FAT_TREE;
    fat.fabric.domain_gpus = 0;
    ck_assert_int_eq(cs_coll_time(&fat, CS_COLL_ALL_REDUCE, 1 << 30, &g72, CS_COLL_RING, &t_fat, NULL), CS_OK);
    ck_assert_msg(t_fat > 3.0 * t_dom, "fat tree %.4g s vs NVL domain %.4g s", t_fat, t_dom);
    /* The network model routes the domain's ring over NVLink: share 1. */
    cs_netmodel *m = NULL;
    ck_assert_int_eq(cs_netmodel_create(&dom, 72, NULL, 0, 1, &m, NULL, 0), CS_OK);
    ck_assert_double_eq(share_of(m, CS_NET_RING, 72, 1), 1.0);
    cs_netmodel_destroy(m);
}
END_TEST

START_TEST(test_netmodel_replay_ring_shares)
{
    /* The replay's running jobs on the 3:1 radix-8 tree (2 leaves of 6
     * one-GPU nodes, 2 uplinks each): jobs {i, i+6} each cross between the
     * leaves both ways. Two such jobs fit the two uplinks (share 1); six
     * share them 6 to 2 (1/3 each). */
    struct cs_cluster_cfg c = make_cluster(12, 1, 8, CS_TOPO_FAT_TREE, 3.0);
    cs_fabric *f = NULL;
    ck_assert_int_eq(cs_fabric_create(&c, 1, &f), CS_OK);
    int g[7][2] = {{0, 6}, {1, 7}, {2, 8}, {3, 9}, {4, 10}, {5, 11}, {0, 1}};
    const int *rings[7];
    long sizes[7];
    for (int k = 0; k < 7; k++) {
        rings[k] = g[k];
        sizes[k] = 2;
    }
    double sh[7];
    ck_assert_int_eq(cs_net_ring_shares(f, rings, sizes, 2, sh), CS_OK);
    ck_assert_double_eq_tol(sh[0], 1.0, 1e-12);
    ck_assert_double_eq_tol(sh[1], 1.0, 1e-12);
    ck_assert_int_eq(cs_net_ring_shares(f, rings, sizes, 6, sh), CS_OK);
    for (int k = 0; k < 6; k++)
        ck_assert_double_eq_tol(sh[k], 1.0 / 3.0, 1e-9);
    /* A job inside one leaf ({0, 1}) crosses no uplink: share 1. */
    const int *r2[1] = {g[6]};
    long z2[1] = {2};
    ck_assert_int_eq(cs_net_ring_shares(f, r2, z2, 1, sh), CS_OK);
    ck_assert_double_eq(sh[0], 1.0);
    int bad[2] = {0, 99};
    const int *rb[1] = {bad};
    long zb[1] = {2};
    ck_assert_int_eq(cs_net_ring_shares(f, rb, zb, 1, sh), CS_EINVAL);
    cs_fabric_destroy(f);
}
END_TEST

/* A scattered job's share is the harmonic mean over 4 drawn placements
 * (seeds seed + 7919 d, netmodel.c). The 3:1 radix-8 tree: 2 leaves of 6
 * one-GPU nodes, each leaf's 2 uplinks one link of 2 NIC rates. A 12-rank
 * ring over the drawn node order crosses between the leaves e times each
 * way (a ring crosses a cut as often one way as the other), so each of its
 * edges gets min(1, 2 / e) of its NIC: the share of draw d, counted here by
 * hand from the placement, is checked against the replay's one-realization
 * solver, and the model's share against 1 / mean(1 / s_d). */
START_TEST(test_netmodel_scattered_draws)
{
    struct cs_cluster_cfg c = make_cluster(12, 1, 8, CS_TOPO_FAT_TREE, 3.0);
    c.fabric.placement = CS_PLACEMENT_SCATTERED;
    const uint64_t seed = 5;
    cs_netmodel *m = NULL;
    char why[200];
    ck_assert_int_eq(cs_netmodel_create(&c, 0, NULL, 0, seed, &m, why, sizeof why), CS_OK);
    cs_fabric *f = NULL;
    ck_assert_int_eq(cs_fabric_create(&c, seed, &f), CS_OK);
    double inv = 0.0, lo = 1.0, hi = 0.0;
    for (int d = 0; d < 4; d++) {
        int ring[12];
        unsigned char used[12] = {0};
        ck_assert_int_eq(cs_fabric_place(f, CS_PLACE_SCATTERED, 12, seed + 7919u * (uint64_t)d, used, ring), CS_OK);
        int e = 0; /* edges from leaf 0 (nodes 0-5) to leaf 1 */
        for (int i = 0; i < 12; i++)
            e += ring[i] < 6 && ring[(i + 1) % 12] >= 6;
        double hand = e > 2 ? 2.0 / e : 1.0;
        const int *rings[1] = {ring};
        long sizes[1] = {12};
        double sd = -1.0;
        ck_assert_int_eq(cs_net_ring_shares(f, rings, sizes, 1, &sd), CS_OK);
        ck_assert_double_eq_tol(sd, hand, 1e-9);
        inv += 0.25 / sd;
        lo = fmin(lo, sd);
        hi = fmax(hi, sd);
    }
    printf("scattered 12-node ring on the 3:1 tree: draws %.3f..%.3f, harmonic mean %.4f\n", lo, hi, 1.0 / inv);
    ck_assert(lo < hi); /* the draws differ: one draw alone would not be the expected pace */
    ck_assert_double_eq_tol(share_of(m, CS_NET_RING, 12, 1), 1.0 / inv, 1e-9);
    cs_fabric_destroy(f);
    cs_netmodel_destroy(m);
}
END_TEST

/* The step of a job costed on its network model. */
static struct cs_step_result step_on(const struct cs_cluster_cfg *c, const struct cs_workload *w, bool net)
{
    struct cs_step_options o;
    cs_step_options_default(&c->gpu, &o);
    cs_netmodel *m = NULL;
    if (net)
        ck_assert_int_eq(cs_netmodel_create(c, 0, NULL, 0, 5, &m, NULL, 0), CS_OK);
    o.net = m;
    cs_diags d;
    cs_diags_init(&d);
    struct cs_step_result r;
    cs_status st = cs_step_simulate(c, w, &o, &d, &r);
    ck_assert_msg(st == CS_OK, "%s", d.n ? d.items[0].msg : "?");
    ck_assert(r.fits);
    cs_diags_fini(&d);
    cs_netmodel_destroy(m);
    return r;
}

START_TEST(test_netmodel_step_oversubscribed)
{
    /* An FSDP job over 24 one-GPU nodes scattered on a 3:1 tree (radix 8:
     * 4 leaves of 6 nodes, 2 uplinks each): its DP ring crosses leaves at
     * most boundaries, more than the 2 uplinks carry, so the flow model
     * gives it less than its NIC, and the step is slower than the same job
     * on the non-blocking tree (where every share is 1). */
    struct cs_cluster_cfg c = make_cluster(24, 1, 8, CS_TOPO_FAT_TREE, 3.0);
    c.fabric.placement = CS_PLACEMENT_SCATTERED;
    c.gpu.peak_flops[CS_PREC_BF16] = 989e12;
    c.gpu.hbm_bw_bytes_per_s = 3.35e12;
    struct cs_workload w;
    memset(&w, 0, sizeof w);
    ck_assert_int_eq(cs_workload_preset("llama3.1-8b", &w.model), CS_OK);
    w.global_batch = 24;
    w.micro_batch = 1;
    w.par.tp = w.par.pp = w.par.cp = w.par.vp = 1;
    w.par.dp = 24;
    w.par.fsdp = CS_FSDP_FULL;
    w.precision = CS_PREC_BF16;
    w.recompute = CS_RECOMPUTE_FULL;
    w.dp_overlap = true;
    w.dp_bucket_bytes = 160e6;
    struct cs_step_result over = step_on(&c, &w, true);
    ck_assert_msg(over.dp_net_share < 1.0, "dp share %.4f", over.dp_net_share);
    ck_assert(isnan(over.pp_net_share)); /* no pipeline */
    /* Non-blocking with static d-mod-k routing still collides on a
     * scattered ring (Hoefler, Schneider & Lumsdaine 2008: static routing
     * makes a fat tree no crossbar); adaptive routing spreads every flow
     * over the uplinks and gets the whole NIC. */
    struct cs_cluster_cfg nb = c;
    nb.fabric.oversubscription = 1.0;
    struct cs_step_result stat = step_on(&nb, &w, true);
    ck_assert_msg(stat.dp_net_share < 1.0, "static: %.4f", stat.dp_net_share);
    nb.fabric.routing = CS_ROUTING_ADAPTIVE;
    struct cs_step_result full = step_on(&nb, &w, true);
    ck_assert_double_eq_tol(full.dp_net_share, 1.0, 1e-9);
    ck_assert(full.time_s < stat.time_s);
    ck_assert_msg(over.time_s > full.time_s, "3:1 %.4f s, 1:1 %.4f s", over.time_s, full.time_s);
    /* Without a network model: no shares reported. */
    struct cs_step_result geo = step_on(&c, &w, false);
    ck_assert(isnan(geo.dp_net_share));
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("netmodel");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_netmodel_oversubscribed_leaf);
    tcase_add_test(tc, test_netmodel_fast_path_all_topologies);
    tcase_add_test(tc, test_netmodel_neighbours_duty);
    tcase_add_test(tc, test_netmodel_step_oversubscribed);
    tcase_add_test(tc, test_netmodel_storage_loads);
    tcase_add_test(tc, test_netmodel_nvl_domain_closed_form);
    tcase_add_test(tc, test_netmodel_replay_ring_shares);
    tcase_add_test(tc, test_netmodel_scattered_draws);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return cs_test_run(suite());
}
