/* check_collective.c: the closed-form collective model (models/collective.c):
 * names, bus-bandwidth factors, formulas against hand-derived values, and
 * validation against every nccl-tests log in validation/collectives/. */
#include "clustersim/config/calib_io.h"
#include "clustersim/models/collective.h"
#include "clustersim/models/workload.h"
#include "clustersim/base/xmalloc.h"
#include "test_util.h"

#include <check.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A100-SXM4-80GB or H100-SXM5-80GB nodes with NVSwitch; ib-hdr (25e9 B/s
 * per direction) x 8 NICs per node. Efficiencies NAN: model defaults. */
static struct cs_cluster_cfg make_cluster(bool h100, int nodes)
{
    struct cs_cluster_cfg c;
    memset(&c, 0, sizeof c);
    snprintf(c.gpu.name, sizeof c.gpu.name, "%s", h100 ? "H100-SXM5-80GB" : "A100-SXM4-80GB");
    for (int i = 0; i < CS_PREC_COUNT; i++)
        c.gpu.peak_flops[i] = NAN;
    c.gpu.peak_flops[CS_PREC_BF16] = h100 ? 989e12 : 312e12;
    c.gpu.hbm_bw_bytes_per_s = h100 ? 3350e9 : 2039e9;
    c.gpu.scaleup_bw_bytes_per_s = h100 ? 450e9 : 300e9;
    c.gpu.scaleup_domain_gpus = 8;
    c.nodes = nodes;
    c.gpus_per_node = 8;
    snprintf(c.intra.name, sizeof c.intra.name, "nvswitch");
    c.intra.kind = CS_INTRA_NVSWITCH;
    c.intra.bw_bytes_per_s = NAN;
    c.intra.efficiency = NAN;
    c.intra.latency_s = NAN;
    c.intra.nvls = h100;
    c.fabric.topology = CS_TOPO_FAT_TREE;
    snprintf(c.fabric.link.name, sizeof c.fabric.link.name, "ib-hdr");
    c.fabric.link.kind = CS_LINK_INFINIBAND;
    c.fabric.link.bw_bytes_per_s = 25e9;
    c.fabric.link.efficiency = NAN;
    c.fabric.link.hop_latency_s = 90e-9;
    c.fabric.link.nic_latency_s = 0.6e-6;
    c.fabric.link.switch_radix = 40;
    c.fabric.nics_per_node = 8;
    c.fabric.oversubscription = 1.0;
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

START_TEST(test_collective_names)
{
    for (int i = 0; i < CS_COLL_OP_COUNT; i++) {
        enum cs_coll_op op = CS_COLL_OP_COUNT;
        ck_assert_int_eq(cs_coll_op_parse(cs_coll_op_name((enum cs_coll_op)i), &op), CS_OK);
        ck_assert_int_eq(op, i);
    }
    enum cs_coll_op op = CS_COLL_BROADCAST;
    ck_assert_int_eq(cs_coll_op_parse("all_reduce_perf", &op), CS_OK);
    ck_assert_int_eq(op, CS_COLL_ALL_REDUCE);
    ck_assert_int_eq(cs_coll_op_parse("allreduce", &op), CS_EINVAL);
    ck_assert_int_eq(op, CS_COLL_ALL_REDUCE); /* untouched on failure */
    ck_assert_int_eq(cs_coll_op_parse(NULL, &op), CS_EINVAL);
    ck_assert_str_eq(cs_coll_op_name(CS_COLL_REDUCE_SCATTER), "reduce_scatter");
    ck_assert_str_eq(cs_coll_op_name((enum cs_coll_op)99), "?");
    enum cs_coll_algo a = CS_COLL_AUTO;
    ck_assert_int_eq(cs_coll_algo_parse("nvls", &a), CS_OK);
    ck_assert_int_eq(a, CS_COLL_NVLS);
    ck_assert_str_eq(cs_coll_proto_name(CS_COLL_PROTO_LL128), "LL128");
}
END_TEST

START_TEST(test_collective_busbw_factor)
{
    ck_assert_double_eq_tol(cs_coll_busbw_factor(CS_COLL_ALL_REDUCE, 8), 1.75, 1e-12);   /* 2*7/8 */
    ck_assert_double_eq_tol(cs_coll_busbw_factor(CS_COLL_ALL_REDUCE, 16), 1.875, 1e-12); /* 2*15/16 */
    ck_assert_double_eq_tol(cs_coll_busbw_factor(CS_COLL_ALL_GATHER, 8), 0.875, 1e-12);
    ck_assert_double_eq_tol(cs_coll_busbw_factor(CS_COLL_REDUCE_SCATTER, 4), 0.75, 1e-12);
    ck_assert_double_eq_tol(cs_coll_busbw_factor(CS_COLL_ALLTOALL, 2), 0.5, 1e-12);
    ck_assert_double_eq_tol(cs_coll_busbw_factor(CS_COLL_BROADCAST, 8), 1.0, 1e-12);
    ck_assert_double_eq_tol(cs_coll_busbw_factor(CS_COLL_SENDRECV, 8), 1.0, 1e-12);
    ck_assert(isnan(cs_coll_busbw_factor(CS_COLL_ALL_REDUCE, 0)));
}
END_TEST

START_TEST(test_collective_ring_formula)
{
    /* 8x A100, ring all_reduce of S = 1 GiB, Simple protocol:
     * latency 8.4 + 14 x 3.4 = 56 us; B = 300e9 x 0.80 = 240e9 B/s;
     * 2(n-1)/n S / B = 1.75 x 1073741824 / 240e9 = 7.829367e-3 s;
     * total 7.885367e-3 s (LL128: 40.6 us + 1879048192/(240e9 x 0.92) = 8.551e-3, slower). */
    struct cs_cluster_cfg c = make_cluster(false, 1);
    struct cs_coll_group g = {8, 8, 1, 0, 0, 0, 0, 0};
    enum cs_coll_algo chosen = CS_COLL_AUTO;
    struct cs_coll_params p;
    cs_coll_params_default(&p);
    enum cs_coll_proto pr = CS_COLL_PROTO_LL;
    double t = -1.0;
    ck_assert_int_eq(cs_coll_time_ex(&c, &p, CS_COLL_ALL_REDUCE, 1073741824.0, &g, CS_COLL_AUTO, &t, &chosen, &pr),
                     CS_OK);
    ck_assert_double_eq_tol(t, 7.885367e-3, 1e-8);
    ck_assert_int_eq(chosen, CS_COLL_RING);
    ck_assert_int_eq(pr, CS_COLL_PROTO_SIMPLE);

    /* all_gather of S = 1 GiB total: 7 steps, 8.4 + 7 x 3.4 = 32.2 us;
     * 7/8 x 1073741824 / 240e9 = 3.914683e-3; total 3.946883e-3 s. */
    t = coll_s(&c, CS_COLL_ALL_GATHER, 1073741824.0, &g, CS_COLL_AUTO, NULL);
    ck_assert_double_eq_tol(t, 3.946883e-3, 1e-8);

    /* Tiny sizes hit the launch floor of 35 us: LL device time
     * 6.6 + 14 x 0.6 = 15.0 us (NCCL 2.23 hwLat NVLink ring LL 0.6);
     * smooth max 35 x (1 + (15/35)^4)^(1/4) = 35.29152 us. */
    t = coll_s(&c, CS_COLL_ALL_REDUCE, 8.0, &g, CS_COLL_AUTO, NULL);
    ck_assert_double_eq_tol(t, 35.29152e-6, 1e-10);
}
END_TEST

/* Hierarchical all-to-all (MoE dispatch with DeepEP/HybridEP, top-k 8) on
 * 2 nodes x 8 A100, 8 x ib-hdr (184e9 B/s per node) and 240e9 B/s NVSwitch,
 * S = 1 GiB per rank:
 *   plain: network 8 x 8/16 x S / 184e9 = 23.342214e-3 s, NVLink
 *   7/16 x S / 240e9 = 1.957342e-3 s: network-bound;
 *   hierarchical: network x 2 (1 - (1/2)^8) / 8 = 0.2490234375 ->
 *   5.812757e-3 s; NVLink gains the forwarded copies, 8/16 x 7/8 x S /
 *   240e9, 3.914683e-3 s in all: still network-bound, so the time drops by
 *   0.7509765625 x 23.342214e-3 = 17.529455e-3 s (same latency).
 * Inside one NVLink domain of the two nodes (nvl-domain, 16 GPUs) nothing
 * crosses the network; the kernels still send a token once per destination
 * GPU, not once per expert (2026-12-07): of the plain 15/16 x S / 240e9 =
 * 4.194304e-3 s of NVLink time, 16 (1 - (15/16)^8) / 8 = 0.8065611 is left,
 * 0.811342e-3 s less (same latency). */
START_TEST(test_collective_alltoall_hierarchical)
{
    struct cs_cluster_cfg c = make_cluster(false, 2);
    struct cs_coll_group g = {16, 8, 1, 0, 0, 0, 0, 0}, gk = g;
    gk.a2a_top_k = 8;
    const double S = 1073741824.0;
    double plain = coll_s(&c, CS_COLL_ALLTOALL, S, &g, CS_COLL_AUTO, NULL);
    double hier = coll_s(&c, CS_COLL_ALLTOALL, S, &gk, CS_COLL_AUTO, NULL);
    double saved = plain - hier;
    ck_assert_double_eq_tol(saved, 17.529455e-3, 2e-9);
    gk.a2a_top_k = 1; /* one copy per token: nothing to deduplicate */
    ck_assert_double_eq_tol(coll_s(&c, CS_COLL_ALLTOALL, S, &gk, CS_COLL_AUTO, NULL), plain, 1e-15);

    c.fabric.topology = CS_TOPO_NVL_DOMAIN;
    c.fabric.domain_gpus = 16;
    gk.a2a_top_k = 8;
    double dplain = coll_s(&c, CS_COLL_ALLTOALL, S, &g, CS_COLL_AUTO, NULL);
    double dhier = coll_s(&c, CS_COLL_ALLTOALL, S, &gk, CS_COLL_AUTO, NULL);
    ck_assert_double_eq_tol(dplain - dhier, 0.811342e-3, 2e-9);
    ck_assert(dplain < 0.2 * plain); /* NVLink only */

    /* Group-limited routing (DeepSeek-V3's node limit): on 4 nodes a token
     * that may reach only 2 of them crosses the network 2 (1 - (1/2)^8) / 8
     * = 0.2490 of the copies' times instead of 4 (1 - (3/4)^8) / 8 =
     * 0.4499: network 6 x S / 184e9 = 35.01332 ms x (0.4499 - 0.2490) =
     * 7.03488 ms less (NVLink 0.875 S / 240e9 = 3.9 ms stays shorter). */
    struct cs_cluster_cfg c4 = make_cluster(false, 4);
    struct cs_coll_group g4 = {32, 8, 1, 0, 0, 0, 8, 0}, g4n = g4;
    g4n.a2a_nodes = 2;
    double all4 = coll_s(&c4, CS_COLL_ALLTOALL, S, &g4, CS_COLL_AUTO, NULL);
    double lim2 = coll_s(&c4, CS_COLL_ALLTOALL, S, &g4n, CS_COLL_AUTO, NULL);
    double less = all4 - lim2;
    ck_assert_double_eq_tol(less, 7.03488e-3, 2e-8);
    struct cs_moe_shape ds = {.experts = 256, .top_k = 8, .router_groups = 8, .router_group_topk = 4};
    ck_assert_int_eq(cs_moe_reachable_nodes(&ds, 8), 4);   /* a group per node */
    ck_assert_int_eq(cs_moe_reachable_nodes(&ds, 16), 8);  /* a group on 2 nodes */
    ck_assert_int_eq(cs_moe_reachable_nodes(&ds, 4), 4);   /* 2 groups per node: any */
    ck_assert_int_eq(cs_moe_reachable_nodes(&ds, 3), 3);   /* groups do not tile 3 nodes */
    ds.router_groups = ds.router_group_topk = 0;
    ck_assert_int_eq(cs_moe_reachable_nodes(&ds, 8), 8);
}
END_TEST

START_TEST(test_collective_hier_formula)
{
    /* 2 nodes x 8 A100, 8 x ib-hdr: per node 8 x 25e9 x 0.92 = 184e9 B/s.
     * Hierarchical all_reduce of S = 1 GiB, Simple:
     *   one network message: NIC 0.6 us + 1 hop x 90 ns (both nodes on
     *   one radix-40 leaf: 20 down ports = 2.5 nodes of 8 NICs) = 0.69 us;
     *   inter-node step (14 + 2 x 0.69) x net_lat_scale 4 = 61.52 us
     *   latency 8.4 + 2 x 7 x 3.4 + 2 x 1 x 61.52 = 179.04 us
     *   intra RS + AG: 2 x 7/8 x S / 240e9 = 7.829367e-3 s
     *   inter ring of 2 nodes: 2 x 1/2 x S / 184e9 = 5.835553e-3 s
     *   total 13.664920e-3 + 179.04e-6 = 13.843960e-3 s. */
    struct cs_cluster_cfg c = make_cluster(false, 2);
    struct cs_coll_group g = {16, 8, 1, 0, 0, 0, 0, 0};
    enum cs_coll_algo chosen = CS_COLL_AUTO;
    double t = coll_s(&c, CS_COLL_ALL_REDUCE, 1073741824.0, &g, CS_COLL_HIER, &chosen);
    ck_assert_double_eq_tol(t, 13.843960e-3, 1e-8);
    ck_assert_int_eq(chosen, CS_COLL_HIER);

    /* Flat ring, pipelined: bottleneck min(240e9, 184e9) = 184e9;
     * latency (8.4 + 28 x max(3.4, 3 x 1 net overhead) + 2 x 61.52) x 1.4
     * (plateau) = 317.296 us; 1.875 x S / 184e9 = 10.941662e-3;
     * total 11.258958e-3 s (LL128 is off across nodes before Hopper). */
    t = coll_s(&c, CS_COLL_ALL_REDUCE, 1073741824.0, &g, CS_COLL_RING, &chosen);
    ck_assert_int_eq(chosen, CS_COLL_RING);
    ck_assert_double_eq_tol(t, 11.258958e-3, 1e-8);

    /* AUTO: the double binary tree over two nodes. Each node's NICs carry
     * S per direction (root of one tree, leaf of the other), half of what
     * they carry beyond two nodes, so the network term is 2 x 184e9 and
     * the intra-node chain (240e9) bounds it: algbw 0.5 x 0.92 x 240e9 =
     * 110.4e9, S / 110.4e9 = 9.725922e-3 s; latency 8.4 + 2 x (7 x 4.0 +
     * 1 x 61.52) = 187.44 us; total 9.913362e-3 s, faster than the ring. */
    t = coll_s(&c, CS_COLL_ALL_REDUCE, 1073741824.0, &g, CS_COLL_AUTO, &chosen);
    ck_assert_int_eq(chosen, CS_COLL_TREE);
    ck_assert_double_eq_tol(t, 9.913362e-3, 1e-8);

    /* NCCL_ALGO=Ring NCCL_PROTO=Simple as masks: AUTO may only pick the
     * ring with Simple, so it gives the ring time above. */
    struct cs_coll_params pm;
    cs_coll_params_default(&pm);
    pm.algo_mask = 1u << CS_COLL_RING;
    pm.proto_mask = 1u << CS_COLL_PROTO_SIMPLE;
    enum cs_coll_proto pmp = CS_COLL_PROTO_LL;
    double tm = -1;
    ck_assert_int_eq(cs_coll_time_ex(&c, &pm, CS_COLL_ALL_REDUCE, 1073741824.0, &g, CS_COLL_AUTO, &tm, &chosen, &pmp),
                     CS_OK);
    ck_assert_int_eq(chosen, CS_COLL_RING);
    ck_assert_int_eq(pmp, CS_COLL_PROTO_SIMPLE);
    ck_assert_double_eq_tol(tm, 11.258958e-3, 1e-8);

    /* Four nodes: the tree's interior nodes send to a parent and two
     * children, so the network term is the node's NICs once again: tree
     * algbw 0.5 x min(0.92 x 184e9, 16 x 17.8e9 perChMaxTreeBw of Ampere
     * beyond two nodes) = 84.64e9; the time is S / 84.64e9 = 12.686 ms
     * plus under 1 ms of latency (a 2-node network term would give 9.7). */
    struct cs_cluster_cfg c4 = make_cluster(false, 4);
    struct cs_coll_group g4 = {32, 8, 1, 0, 0, 0, 0, 0};
    double t4 = coll_s(&c4, CS_COLL_ALL_REDUCE, 1073741824.0, &g4, CS_COLL_TREE, NULL);
    ck_assert(t4 > 1073741824.0 / 84.64e9);
    ck_assert(t4 < 1073741824.0 / 84.64e9 + 1e-3);

    /* 8 groups per node (tp=8 data-parallel rings) share the NICs: one NIC
     * each, 23e9 B/s: 1.875 x S / 23e9 = 87.533e-3 s + latency. */
    struct cs_coll_group g8 = {2, 1, 8, 0, 0, 0, 0, 0};
    double t8 = coll_s(&c, CS_COLL_ALL_REDUCE, 1073741824.0, &g8, CS_COLL_RING, NULL);
    /* n = 2: 2(n-1)/n = 1; S / 23e9 = 46.684427e-3; one GPU per node: no
     * intra steps, inter step tree NET 14 us: (14 + 2 x 0.69) x 4 = 61.52;
     * latency (8.4 + 2 x 61.52) x 1.4 = 184.016 us. */
    ck_assert_double_eq_tol(t8, 46.684427e-3 + 184.016e-6, 1e-8);
}
END_TEST

START_TEST(test_collective_availability)
{
    struct cs_cluster_cfg a100 = make_cluster(false, 1), h100 = make_cluster(true, 1);
    struct cs_coll_group g = {8, 8, 1, 0, 0, 0, 0, 0};
    enum cs_coll_algo chosen = CS_COLL_AUTO;
    double nope = 42.0;
    ck_assert_int_eq(cs_coll_time(&a100, CS_COLL_ALL_REDUCE, 1e9, &g, CS_COLL_NVLS, &nope, NULL), CS_EUNSUPPORTED);
    ck_assert_double_eq(nope, 42.0); /* untouched */
    double t = coll_s(&h100, CS_COLL_ALL_REDUCE, 1e9, &g, CS_COLL_AUTO, &chosen);
    ck_assert_int_eq(chosen, CS_COLL_NVLS);
    /* NVLS: 40 us (fitted) + 1e9 x 1.125 / (360e9 x 0.85) = 3.676471e-3, in
     * 64 KiB chunks (1e9 B < 1 GiB: test_collective_nvls_chunk), so times
     * (1 + 11/64) / (1 + 11/128) = 1.0791367: 3.967414e-3 -> 4.007414e-3 s */
    ck_assert_double_eq_tol(t, 4.007414e-3, 1e-8);
    struct cs_coll_group bad = {12, 8, 1, 0, 0, 0, 0, 0};
    ck_assert_int_eq(cs_coll_time(&h100, CS_COLL_ALL_REDUCE, 1e9, &bad, CS_COLL_AUTO, &nope, NULL), CS_EINVAL);
    struct cs_coll_group one = {1, 1, 1, 0, 0, 0, 0, 0};
    ck_assert_double_eq(coll_s(&h100, CS_COLL_ALL_REDUCE, 1e9, &one, CS_COLL_AUTO, NULL), 0.0);

    /* SHARP halves the inter-node traffic of a 16-node all_reduce. */
    struct cs_cluster_cfg c16 = make_cluster(false, 16);
    struct cs_coll_group g16 = {128, 8, 1, 0, 0, 0, 0, 0};
    double ring = coll_s(&c16, CS_COLL_ALL_REDUCE, 1e9, &g16, CS_COLL_RING, NULL);
    ck_assert_int_eq(cs_coll_time(&c16, CS_COLL_ALL_REDUCE, 1e9, &g16, CS_COLL_SHARP, &nope, NULL), CS_EUNSUPPORTED);
    /* Several nodes without NICs cannot run an inter-node collective: an
     * error, not NaN (which the step model used to turn into 0 s). */
    struct cs_cluster_cfg c0 = c16;
    c0.fabric.nics_per_node = 0;
    ck_assert_int_eq(cs_coll_time(&c0, CS_COLL_ALL_REDUCE, 1e9, &g16, CS_COLL_AUTO, &nope, NULL), CS_EINVAL);
    ck_assert_double_eq(nope, 42.0);
    c16.fabric.in_network_reduction = true;
    double sharp = coll_s(&c16, CS_COLL_ALL_REDUCE, 1e9, &g16, CS_COLL_AUTO, &chosen);
    ck_assert_int_eq(chosen, CS_COLL_SHARP);
    ck_assert(sharp < 0.6 * ring);

    /* PCIe: 8 GPUs share 2 host bridges: per GPU 31.5e9 x 0.8 x 2/8 = 6.3e9 B/s. */
    struct cs_cluster_cfg pc = make_cluster(false, 1);
    pc.intra.kind = CS_INTRA_PCIE;
    pc.intra.bw_bytes_per_s = 31.5e9;
    struct cs_coll_params p;
    cs_coll_params_default(&p);
    ck_assert_double_eq_tol(cs_coll_intra_bw(&pc, &p, 8), 6.3e9, 1.0);
    ck_assert(coll_s(&pc, CS_COLL_ALL_REDUCE, 1e9, &g, CS_COLL_AUTO, NULL) >
              10.0 * coll_s(&a100, CS_COLL_ALL_REDUCE, 1e9, &g, CS_COLL_AUTO, NULL));

    /* Other ops stay finite and ordered: alltoall within a node moves 7/8 S. */
    double a2a = coll_s(&a100, CS_COLL_ALLTOALL, 1e9, &g, CS_COLL_AUTO, NULL);
    ck_assert_double_eq_tol(a2a, 8.4e-6 + 3.4e-6 + 0.875e9 / 240e9, 1e-9);
    ck_assert(isfinite(coll_s(&c16, CS_COLL_BROADCAST, 1e9, &g16, CS_COLL_AUTO, NULL)));
    ck_assert(isfinite(coll_s(&c16, CS_COLL_SENDRECV, 1e9, &g16, CS_COLL_AUTO, NULL)));
}
END_TEST

/* ---- nccl-tests logs, read with the calibration parser (config/nccl.c) ---- */

struct nccl_row { double size, time_us, busbw; };
struct nccl_log {
    enum cs_coll_op op;
    bool op_known;
    int n_rows;
    struct nccl_row rows[64];
};

static int parse_nccl_log(const char *path, struct nccl_log *log)
{
    memset(log, 0, sizeof *log);
    cs_diags d;
    cs_diags_init(&d);
    struct cs_nccl_log l;
    cs_status st = cs_nccl_parse_file(path, CS_COLL_OP_COUNT, &d, &l);
    cs_diags_fini(&d);
    if (st != CS_OK || l.n_runs != 1) {
        if (st == CS_OK)
            cs_nccl_log_fini(&l);
        return -1;
    }
    log->op = l.runs[0].op;
    log->op_known = true;
    for (size_t i = 0; i < l.runs[0].n_rows && log->n_rows < 64; i++) {
        const struct cs_nccl_row *r = &l.runs[0].rows[i];
        log->rows[log->n_rows++] = (struct nccl_row){r->size_bytes, r->time_us[0], r->busbw_gbps[0]};
    }
    cs_nccl_log_fini(&l);
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

START_TEST(test_collective_validate_nccl_tests)
{
    const char *dir = cs_test_data("validation/collectives");
    char dirpath[4096];
    snprintf(dirpath, sizeof dirpath, "%s", dir);
    DIR *d = opendir(dirpath);
    ck_assert_msg(d != NULL, "cannot open %s", dirpath);
    char *names[64];
    int nn = 0;
    struct dirent *e;
    while ((e = readdir(d)) && nn < 64) {
        size_t l = strlen(e->d_name);
        if (l > 4 && strcmp(e->d_name + l - 4, ".txt") == 0)
            names[nn++] = cs_xstrdup(e->d_name);
    }
    closedir(d);
    qsort(names, (size_t)nn, sizeof names[0], cmp_str);
    ck_assert_int_ge(nn, 6);

    double sum_abs = 0.0;
    int n_pts = 0, n_fail = 0;
    printf("\nValidation of the closed-form model against nccl-tests (out-of-place busbw, GB/s).\n"
           "Tolerance: |error| <= 15%% at >= 64 MiB, <= 30%% from 1 MiB to 64 MiB.\n");
    for (int i = 0; i < nn; i++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", dirpath, names[i]);
        struct nccl_log log;
        ck_assert_int_eq(parse_nccl_log(path, &log), 0);
        const char *fn = names[i];
        bool h100 = strstr(fn, "h100") != NULL;
        int nodes = strstr(fn, "2node") ? 2 : 1;
        if (!log.op_known) { /* older logs: the op is in the file name */
            log.op = strstr(fn, "allgather")       ? CS_COLL_ALL_GATHER
                     : strstr(fn, "reducescatter") ? CS_COLL_REDUCE_SCATTER
                                                   : CS_COLL_ALL_REDUCE;
        }
        /* The together-nccl-tests runs forced NCCL_ALGO=Ring (file header). */
        enum cs_coll_algo algo =
            (h100 && strstr(fn, "nvswitch") && log.op == CS_COLL_ALL_REDUCE) ? CS_COLL_RING : CS_COLL_AUTO;
        struct cs_cluster_cfg c = make_cluster(h100, nodes);
        struct cs_coll_group g = {8 * nodes, 8, 1, 0, 0, 0, 0, 0};
        double f = cs_coll_busbw_factor(log.op, g.ranks);
        printf("\n%s (%s, %d GPUs, algo %s)\n%12s %10s %10s %8s %6s\n", fn, cs_coll_op_name(log.op), g.ranks,
               cs_coll_algo_name(algo), "size_B", "meas", "pred", "err%", "algo");
        double file_abs = 0.0;
        int file_pts = 0;
        for (int r = 0; r < log.n_rows; r++) {
            const struct nccl_row *row = &log.rows[r];
            if (row->size < 1048576.0)
                continue;
            enum cs_coll_algo chosen = CS_COLL_AUTO;
            double t = coll_s(&c, log.op, row->size, &g, algo, &chosen);
            ck_assert(t > 0);
            double pred = f * row->size / t / 1e9;
            double err = (pred - row->busbw) / row->busbw;
            double tol = row->size >= 67108864.0 ? 0.15 : 0.30;
            bool ok = fabs(err) <= tol;
            printf("%12.0f %10.2f %10.2f %+7.1f%% %6s%s\n", row->size, row->busbw, pred, 100.0 * err,
                   cs_coll_algo_name(chosen), ok ? "" : "  <-- out of tolerance");
            if (!ok)
                n_fail++;
            file_abs += fabs(err);
            file_pts++;
        }
        if (file_pts)
            printf("MAPE %s: %.1f%% over %d sizes\n", fn, 100.0 * file_abs / file_pts, file_pts);
        sum_abs += file_abs;
        n_pts += file_pts;
        free(names[i]);
    }
    printf("\nMAPE over all files: %.1f%% (%d points)\n", 100.0 * sum_abs / n_pts, n_pts);
    fflush(stdout);
    ck_assert_int_ge(n_pts, 40);
    ck_assert_msg(n_fail == 0, "%d points out of tolerance", n_fail);
}
END_TEST


/* NVLink SHARP on Blackwell at NCCL's own share (src/graph/tuning.cc,
 * nvlsEfficiency: Hopper .85, Blackwell .74): 8 GPUs at 450e9 x 0.80 on the
 * link, all_reduce of S = 1 GiB moves S (1 + 1/8) per GPU, 3.3554432e-3 s at
 * the full share; Hopper 1/.85 and Blackwell 1/.74 of that, so the same
 * node marked Blackwell (an mxfp8 peak) takes 3.3554432e-3 x (1/.74 -
 * 1/.85) = 0.5868025e-3 s longer (same latency). */
START_TEST(test_collective_nvls_blackwell)
{
    struct cs_cluster_cfg c = make_cluster(true, 1);
    struct cs_coll_group g = {8, 8, 1, 0, 0, 0, 0, 0};
    const double S = 1073741824.0;
    double th = coll_s(&c, CS_COLL_ALL_REDUCE, S, &g, CS_COLL_NVLS, NULL);
    c.gpu.peak_flops[CS_PREC_MXFP8] = 2.0 * 989e12;
    double tb = coll_s(&c, CS_COLL_ALL_REDUCE, S, &g, CS_COLL_NVLS, NULL);
    /* 1 GiB x 1.125 over 360e9 x 0.85 (Hopper, 16 channels: 128 KiB chunks)
     * against over 360e9 x 0.74 x (1 + k/128) / (1 + k/64) (Blackwell, 24
     * channels x 8 heads: 1 GiB < 64 x 192 x 128 KiB, so 64 KiB chunks; the
     * chunk's fixed time is 11 KiB at 306e9 B/s, k = 11 x 0.74 / 0.85 =
     * 9.5765 KiB at this NVLS rate), 40 us each: 3.987580e-3 and
     * 4.890014e-3 s. */
    ck_assert_double_eq_tol(tb - th, 0.90243335e-3, 1e-9);
    /* the ring does not change */
    c.gpu.peak_flops[CS_PREC_MXFP8] = NAN;
    double rh = coll_s(&c, CS_COLL_ALL_REDUCE, S, &g, CS_COLL_RING, NULL);
    c.gpu.peak_flops[CS_PREC_MXFP8] = 2.0 * 989e12;
    ck_assert_double_eq_tol(coll_s(&c, CS_COLL_ALL_REDUCE, S, &g, CS_COLL_RING, NULL), rh, 1e-15);
}
END_TEST

/* NCCL's Blackwell row of its tuning constants (src/graph/tuning.cc,
 * NVIDIA/nccl 5067397c: llMaxBws 2 x 141 GB/s on one node, Hopper's 141),
 * by hand: ring all_gather of S = 1 MiB on one node of 8 GPUs at 450e9 x
 * 0.80 = 360e9 B/s per GPU. LL: busbw 0.5 x 360e9 = 180e9, capped at
 * 141e9 on Hopper and not on Blackwell (282e9); latency 6.6 + 7 x 0.6 =
 * 10.8 us; device time 10.8e-6 + 7/8 x S / busbw = 17.3072e-6 s (Hopper)
 * and 15.8972e-6 s (Blackwell), each under the 35 us launch floor's smooth
 * max (exponent 4). LL128 (27.3 us of latency) and Simple (32.2 us) lose. */
START_TEST(test_collective_blackwell_tuning_row)
{
    struct cs_cluster_cfg c = make_cluster(true, 1);
    c.gpu.peak_flops[CS_PREC_FP8] = 2.0 * 989e12;
    struct cs_coll_group g = {8, 8, 1, 0, 0, 0, 0, 0};
    struct cs_coll_params p;
    cs_coll_params_default(&p);
    const double S = 1048576.0;
    enum cs_coll_algo chosen = CS_COLL_AUTO;
    enum cs_coll_proto pr = CS_COLL_PROTO_SIMPLE;
    double t = -1.0;
    ck_assert_int_eq(cs_coll_time_ex(&c, &p, CS_COLL_ALL_GATHER, S, &g, CS_COLL_RING, &t, &chosen, &pr), CS_OK);
    ck_assert_int_eq(pr, CS_COLL_PROTO_LL);
    double dev = 10.8e-6 + 0.875 * S / 141e9;
    ck_assert_double_eq_tol(t, dev * pow(1.0 + pow(35e-6 / dev, 4.0), 0.25), 1e-10);
    c.gpu.peak_flops[CS_PREC_MXFP8] = 2.0 * 989e12; /* block-scaled: Blackwell */
    ck_assert_int_eq(cs_coll_time_ex(&c, &p, CS_COLL_ALL_GATHER, S, &g, CS_COLL_RING, &t, &chosen, &pr), CS_OK);
    ck_assert_int_eq(pr, CS_COLL_PROTO_LL);
    dev = 10.8e-6 + 0.875 * S / 180e9;
    ck_assert_double_eq_tol(t, dev * pow(1.0 + pow(35e-6 / dev, 4.0), 0.25), 1e-10);
}
END_TEST

/* NVLS chunking (src/enqueue.cc, NVLS branch), by hand: on 8 H100 (16
 * channels x 8 heads = 128) 128 KiB from 64 x 128 x 128 KiB = 1 GiB, 64 KiB
 * from 8 x 128 x 64 KiB = 64 MiB, 32 KiB from 2 x 128 x 32 KiB = 8 MiB,
 * 16 KiB below; on one NVL72 (24 x 72 = 1728) 64 KiB for 1 GiB (under
 * 64 x 1728 x 128 KiB = 14.5 GB, over 8 x 1728 x 64 KiB = 906 MB) and 32 KiB
 * for 512 MiB. A 256 MiB all_reduce on 8 H100 (64 KiB chunks):
 * 40 us + 268435456 x 1.125 / (360e9 x 0.85) x (1 + 11/64) / (1 + 11/128)
 * = 1.1049947e-3 s; 1 GiB (full chunk): 40 us + 1073741824 x 1.125 / 306e9
 * = 3.9875802e-3 s, as before the chunking. */
START_TEST(test_collective_nvls_chunk)
{
    struct cs_coll_params p;
    cs_coll_params_default(&p);
    const double K = 1024.0, M = K * K, G = K * M;
    ck_assert_double_eq(cs_coll_nvls_chunk_bytes(&p, 16, 8, G), 128 * K);
    ck_assert_double_eq(cs_coll_nvls_chunk_bytes(&p, 16, 8, G - 1), 64 * K);
    ck_assert_double_eq(cs_coll_nvls_chunk_bytes(&p, 16, 8, 64 * M), 64 * K);
    ck_assert_double_eq(cs_coll_nvls_chunk_bytes(&p, 16, 8, 64 * M - 1), 32 * K);
    ck_assert_double_eq(cs_coll_nvls_chunk_bytes(&p, 16, 8, 8 * M), 32 * K);
    ck_assert_double_eq(cs_coll_nvls_chunk_bytes(&p, 16, 8, 8 * M - 1), 16 * K);
    ck_assert_double_eq(cs_coll_nvls_chunk_bytes(&p, 16, 8, 1 * M), 16 * K);
    ck_assert_double_eq(cs_coll_nvls_chunk_bytes(&p, 24, 72, G), 64 * K);
    ck_assert_double_eq(cs_coll_nvls_chunk_bytes(&p, 24, 72, 512 * M), 32 * K);
    struct cs_cluster_cfg c = make_cluster(true, 1);
    struct cs_coll_group g = {8, 8, 1, 0, 0, 0, 0, 0};
    ck_assert_double_eq_tol(coll_s(&c, CS_COLL_ALL_REDUCE, 256 * M, &g, CS_COLL_NVLS, NULL), 1.1049947e-3, 1e-9);
    ck_assert_double_eq_tol(coll_s(&c, CS_COLL_ALL_REDUCE, G, &g, CS_COLL_NVLS, NULL), 3.9875802e-3, 1e-9);
}
END_TEST

/* NCCL's p2p channels (src/enqueue.cc addP2pToPlan), by hand. One host, 8
 * ranks, 32 p2p channels, 32 per peer: the starting count is halved to 4
 * (4 x 8 <= 32); 128 KiB to a peer needs only 128 KiB / 64 KiB = 2; 8 MiB
 * and 64 MiB stay at 4 (parts of 2 and 16 MiB, not over 32 x 512 KiB), 7 x
 * 4 = 28 CTAs; 64 MiB + 1 B doubles to 8, 56 capped at 32. 4 ranks start at
 * 8 (3 x 8 = 24), 2 ranks at 16. One peer of 8 ranks (sendrecv): 4 up to
 * 64 MiB, 32 from 512 MiB. Two hosts, 16 ranks, 4 per peer: start 2,
 * 1 MiB parts of 512 KiB exceed the 128 KiB chunk, so 4, 15 x 4 capped at
 * 32; 32 KiB takes one channel (15). */
START_TEST(test_collective_p2p_channels)
{
    struct cs_coll_params p;
    cs_coll_params_default(&p);
    const double K = 1024.0, M = K * K;
    ck_assert_int_eq(p.p2p_channels, 32);
    ck_assert_int_eq(cs_coll_p2p_ctas(&p, 8, 7, false, 32, 128 * K), 14);
    ck_assert_int_eq(cs_coll_p2p_ctas(&p, 8, 7, false, 32, 8 * M), 28);
    ck_assert_int_eq(cs_coll_p2p_ctas(&p, 8, 7, false, 32, 64 * M), 28);
    ck_assert_int_eq(cs_coll_p2p_ctas(&p, 8, 7, false, 32, 64 * M + 1), 32);
    ck_assert_int_eq(cs_coll_p2p_ctas(&p, 4, 3, false, 32, 1 * M), 24);
    ck_assert_int_eq(cs_coll_p2p_ctas(&p, 2, 1, false, 32, 1 * M), 16);
    ck_assert_int_eq(cs_coll_p2p_ctas(&p, 16, 15, true, 4, 1 * M), 32);
    ck_assert_int_eq(cs_coll_p2p_ctas(&p, 16, 15, true, 4, 32 * K), 15);
    ck_assert_int_eq(cs_coll_p2p_ctas(&p, 1, 0, false, 32, M), 0);
    ck_assert_int_eq(cs_coll_p2p_ctas(&p, 8, 7, false, 32, NAN), 0);

    /* 8 H100 (Hopper: FP8) in one NVSwitch node: 64 MiB and 32 MiB
     * all-to-alls both run on 28 CTAs of 20.6 / 2 GB/s, under the links'
     * 450e9 x 0.8; the same latency, so they differ by 7/8 x 32 MiB /
     * (28 x 10.3e9) = 101.8 us of device time (the times below are
     * (device^4 + 35 us^4)^(1/4), the launch bound, undone by dev()). On
     * A100 (Ampere, no FP8) 28 CTAs of 10 GB/s exceed the links' 240e9:
     * NVLink-bound as before. */
    struct cs_cluster_cfg h = make_cluster(true, 1);
    h.gpu.peak_flops[CS_PREC_FP8] = 1979e12;
    struct cs_coll_group g = {8, 8, 1, 0, 0, 0, 0, 0};
#define dev(t) pow(pow((t), 4.0) - pow(35e-6, 4.0), 0.25)
    double t64 = dev(coll_s(&h, CS_COLL_ALLTOALL, 64 * M, &g, CS_COLL_AUTO, NULL));
    double t32 = dev(coll_s(&h, CS_COLL_ALLTOALL, 32 * M, &g, CS_COLL_AUTO, NULL));
    ck_assert_double_eq_tol(t64 - t32, 0.875 * 32 * M / (28 * 10.3e9), 1e-9);
    struct cs_cluster_cfg a = make_cluster(false, 1);
    double a64 = dev(coll_s(&a, CS_COLL_ALLTOALL, 64 * M, &g, CS_COLL_AUTO, NULL));
    double a32 = dev(coll_s(&a, CS_COLL_ALLTOALL, 32 * M, &g, CS_COLL_AUTO, NULL));
    ck_assert_double_eq_tol(a64 - a32, 0.875 * 32 * M / 240e9, 1e-9);
    /* a hierarchical (DeepEP) dispatch is not NCCL's: not CTA-bound */
    struct cs_coll_group gk = g;
    gk.a2a_top_k = 8;
    double h64 = dev(coll_s(&h, CS_COLL_ALLTOALL, 64 * M, &gk, CS_COLL_AUTO, NULL));
    double h32 = dev(coll_s(&h, CS_COLL_ALLTOALL, 32 * M, &gk, CS_COLL_AUTO, NULL));
    ck_assert(h64 - h32 < 0.8 * (t64 - t32));
    /* nccl-tests' sendrecv (one peer) on the same node: 4 channels up to
     * 64 MiB (parts of 16 MiB), 8 at 128 MiB, so 32 MiB more from 32 to 64
     * MiB costs 32 MiB / (4 x 10.3e9) = 814.5 us, and 128 MiB takes as long
     * as 64 MiB (twice the bytes on twice the channels) */
    double s32 = dev(coll_s(&h, CS_COLL_SENDRECV, 32 * M, &g, CS_COLL_AUTO, NULL));
    double s64 = dev(coll_s(&h, CS_COLL_SENDRECV, 64 * M, &g, CS_COLL_AUTO, NULL));
    double s128 = dev(coll_s(&h, CS_COLL_SENDRECV, 128 * M, &g, CS_COLL_AUTO, NULL));
    ck_assert_double_eq_tol(s64 - s32, 32 * M / (4 * 10.3e9), 1e-9);
    ck_assert_double_eq_tol(s128, s64, 1e-9);
    ck_assert_int_eq(cs_coll_p2p_ctas(&p, 8, 1, false, 32, 64 * M), 4);
    ck_assert_int_eq(cs_coll_p2p_ctas(&p, 8, 1, false, 32, 512 * M), 32);
    /* Two hosts in one NVLink domain are one NCCL node (its nNodes counts
     * NVLink domains): an all-to-all of 16 ranks with 8 MiB per peer starts
     * at 2 channels per peer (2 x 16 = 32), parts of 4 MiB stay under the
     * NVLink chunk's 16 MiB: 15 x 2 = 30 CTAs, 30 x 10.3e9 B/s (with the
     * network chunk, 128 KiB parts, it would double to 32 CTAs). Over two
     * domains (a fat tree) the network chunk applies. */
    struct cs_cluster_cfg d = make_cluster(true, 2);
    d.gpu.peak_flops[CS_PREC_FP8] = 1979e12;
    d.fabric.topology = CS_TOPO_NVL_DOMAIN;
    d.fabric.domain_gpus = 16;
    struct cs_coll_group g16 = {16, 8, 1, 0, 0, 0, 0, 0};
    ck_assert_double_eq_tol(cs_coll_p2p_rate_bps(&d, &p, &g16, 15, 8 * M), 30 * 10.3e9, 1.0);
    struct cs_cluster_cfg f2 = make_cluster(true, 2);
    f2.gpu.peak_flops[CS_PREC_FP8] = 1979e12;
    ck_assert_int_eq(cs_coll_p2p_ctas(&p, 16, 15, true, 32, 8 * M), 32);
    ck_assert(isfinite(cs_coll_p2p_rate_bps(&f2, &p, &g16, 15, 8 * M)));
#undef dev
}
END_TEST

/* The device time nccl-tests' sendrecv over `nodes` x 8 ranks of c takes
 * for 256 MiB beyond what it takes for 128 MiB (the launch bound undone). */
static double sendrecv_marginal_s(const struct cs_cluster_cfg *c0, int nodes)
{
    const double M = 1024.0 * 1024.0;
    struct cs_cluster_cfg c = *c0;
    c.nodes = nodes;
    struct cs_coll_group g = {nodes * 8, 8, 1, 0, 0, 0, 0, 0};
    double a = coll_s(&c, CS_COLL_SENDRECV, 128 * M, &g, CS_COLL_AUTO, NULL);
    double b = coll_s(&c, CS_COLL_SENDRECV, 256 * M, &g, CS_COLL_AUTO, NULL);
    return pow(pow(b, 4.0) - pow(35e-6, 4.0), 0.25) - pow(pow(a, 4.0) - pow(35e-6, 4.0), 0.25);
}

/* A communicator across NCCL nodes, by hand (NVIDIA/nccl 5067397c):
 * p2pnChannels from the inter-node ring search (search.cc: one channel per
 * NIC at the fastest speed of speedArrayInter the NIC carries;
 * ncclTopoDupChannels doubles at >= 25 GB/s unless cc > 80, < 50 GB/s and
 * more than 4 channels; ncclTopoPostset doubles; pow2Up). 8 NDR NICs (50
 * GB/s -> 48) on Hopper or Blackwell: 8, no duplication, 16 (the 16
 * channels Together AI's 32-node B200 NCCL 2.29.7 log prints); 4 EFA NICs
 * of 12.5 GB/s (-> 12) on A100: 4, 8 (AWS p4d's "8 coll channels, 8 p2p
 * channels"); 8 HDR (25 GB/s -> 24) on A100: 16; one NDR NIC on Hopper: 1,
 * duplicated (not more than 4), 4; no NIC: the single-domain 32.
 * nccl-tests' sendrecv across nodes: the one pair per node boundary runs
 * its per-peer channels, each at P2P_PER_CHANNEL_NET_BW = 14 GB/s
 * (paths.cc), below the NVLink pairs' 20.05 GB/s a channel on Blackwell
 * (on Hopper those pairs' 10.3 GB/s bind first). 16 x 8 Blackwell GPUs
 * on 8 x 50 GB/s NICs, 128 ranks: per peer
 * max(1 NIC, ceil(50 x 0.92 / 14)) = 4, halved while x ceil(128 / 8) > 16:
 * 1; so 256 MiB takes 128 MiB / 14e9 longer than 128 MiB. At 8 nodes (64
 * ranks): 2 per peer, 128 MiB / 28e9. At 2 nodes: 4 per peer, 56 GB/s,
 * above the NIC: NIC-bound as before. */
START_TEST(test_collective_p2p_net_channels)
{
    struct cs_coll_params p;
    cs_coll_params_default(&p);
    ck_assert_int_eq(cs_coll_p2p_comm_channels(&p, 3, 8, 50e9), 16);
    ck_assert_int_eq(cs_coll_p2p_comm_channels(&p, 2, 8, 50e9), 16);
    ck_assert_int_eq(cs_coll_p2p_comm_channels(&p, 1, 4, 12.5e9), 8);
    ck_assert_int_eq(cs_coll_p2p_comm_channels(&p, 1, 8, 25e9), 16);
    ck_assert_int_eq(cs_coll_p2p_comm_channels(&p, 2, 1, 50e9), 4);
    ck_assert_int_eq(cs_coll_p2p_comm_channels(&p, 2, 0, 50e9), 32);
    ck_assert_int_eq(cs_coll_p2p_comm_channels(NULL, 2, 8, 50e9), 0);

    const double M = 1024.0 * 1024.0;
    struct cs_cluster_cfg c = make_cluster(true, 16);
    c.gpu.peak_flops[CS_PREC_FP8] = 4500e12;
    c.gpu.peak_flops[CS_PREC_MXFP8] = 4500e12;
    c.gpu.scaleup_bw_bytes_per_s = 900e9;
    c.fabric.link.bw_bytes_per_s = 50e9;
    c.fabric.link.switch_radix = 64;
    ck_assert_double_eq_tol(sendrecv_marginal_s(&c, 16), 128 * M / 14e9, 1e-9);
    ck_assert_double_eq_tol(sendrecv_marginal_s(&c, 8), 128 * M / 28e9, 1e-9);
    double two = sendrecv_marginal_s(&c, 2);
    ck_assert(two > 128 * M / 50e9 && two < 128 * M / 40e9);
}
END_TEST

/* NCCL's p2p protocols (enqueue.cc addP2pToPlan, NVIDIA/nccl 5067397c):
 * LL while the bytes fit P2P_LL_THRESHOLD = 16 KiB per channel, Simple
 * above, never LL128. Across 2 x 8 Hopper nodes (8 x 25 GB/s NICs) a 1 MiB
 * and a 2 MiB sendrecv both run Simple at the same NIC-bound rate, so
 * 2 t(1 MiB) - t(2 MiB) is the latency alone: Simple's baseLat 8.4 us +
 * the NET step 14 us + 2 x (NIC 0.6 + one hop 0.09 us), 23.78 us; one
 * message, so not the collectives' net_lat_scale (x 4 would give 87 us). */
START_TEST(test_collective_p2p_protocol)
{
    const double M = 1024.0 * 1024.0;
    struct cs_coll_params p;
    cs_coll_params_default(&p);
    struct cs_cluster_cfg h2 = make_cluster(true, 2);
    h2.gpu.peak_flops[CS_PREC_FP8] = 1979e12; /* Hopper: LL128 allowed across nodes for collectives */
    struct cs_coll_group g = {16, 8, 1, 0, 0, 0, 0, 0};
    enum cs_coll_algo a = CS_COLL_AUTO;
    enum cs_coll_proto pr = CS_COLL_PROTO_LL128;
    double t1 = -1, t2 = -1, ts = -1;
    ck_assert_int_eq(cs_coll_time_ex(&h2, &p, CS_COLL_SENDRECV, 8192.0, &g, CS_COLL_AUTO, &ts, &a, &pr), CS_OK);
    ck_assert_int_eq(pr, CS_COLL_PROTO_LL);
    ck_assert_int_eq(cs_coll_time_ex(&h2, &p, CS_COLL_SENDRECV, 1 * M, &g, CS_COLL_AUTO, &t1, &a, &pr), CS_OK);
    ck_assert_int_eq(pr, CS_COLL_PROTO_SIMPLE);
    ck_assert_int_eq(cs_coll_time_ex(&h2, &p, CS_COLL_SENDRECV, 2 * M, &g, CS_COLL_AUTO, &t2, &a, &pr), CS_OK);
    ck_assert_int_eq(pr, CS_COLL_PROTO_SIMPLE);
#define dev(t) pow(pow((t), 4.0) - pow(35e-6, 4.0), 0.25)
    ck_assert_double_eq_tol(2.0 * dev(t1) - dev(t2), (8.4 + 14.0 + 2.0 * 0.69) * 1e-6, 1e-9);
#undef dev
    /* the all_reduce of the same size may still take LL128 */
    ck_assert_int_eq(cs_coll_time_ex(&h2, &p, CS_COLL_ALL_REDUCE, 4 * M, &g, CS_COLL_RING, &t1, &a, &pr), CS_OK);
    ck_assert_int_eq(pr, CS_COLL_PROTO_LL128);
}
END_TEST

/* NCCL 2.2x algorithms, hand-derived (tuning.cc v2.23.4). */
START_TEST(test_collective_nccl22_algorithms)
{
    /* NVLSTree: 2 nodes x 8 H100 (nvls), 8 x 25e9 x 0.92 = 184e9 per node.
     * b_nvls = 450e9 x 0.80 x 0.85 / (1 + 1/8) = 272e9; net 184e9 (2 nodes:
     * all of it) -> 184e9; S = 1 GiB (no medium-size correction).
     * latency 25 + 2 x log2(2) x (14 + 2 x 0.69) x 4 = 148.04 us;
     * time 148.04e-6 + 1073741824 / 184e9 = 5.983593e-3 s. */
    struct cs_cluster_cfg h2 = make_cluster(true, 2);
    struct cs_coll_group g = {16, 8, 1, 0, 0, 0, 0, 0};
    enum cs_coll_algo chosen = CS_COLL_AUTO;
    double t = coll_s(&h2, CS_COLL_ALL_REDUCE, 1073741824.0, &g, CS_COLL_NVLS_TREE, &chosen);
    ck_assert_int_eq(chosen, CS_COLL_NVLS_TREE);
    ck_assert_double_eq_tol(t, 148.04e-6 + 1073741824.0 / 184e9, 1e-9);
    /* AUTO picks it over the ring (ring: 1.875 x S / 184e9 = 10.9 ms). */
    coll_s(&h2, CS_COLL_ALL_REDUCE, 1073741824.0, &g, CS_COLL_AUTO, &chosen);
    ck_assert_int_eq(chosen, CS_COLL_NVLS_TREE);
    /* LL128 across nodes on Hopper: ring all_reduce of 4 MiB on 2 x 8 H100.
     * LL128: busbw min(0.92 x 184e9, 16 x 36.7e9) = 169.28e9; latency
     * 14 + 28 x max(1.9, net overhead 1) + 2 x (4.0 + 0.69) x 4 = 104.72 us;
     * device 104.72e-6 + 1.875 x 4194304 / 169.28e9 = 151.1775e-6 s.
     * LL: min(0.5 x 184e9, llMaxBw 39e9) -> 61.72 us + 201.6 us; Simple:
     * (8.4 + 28 x 3.4 + 2 x 61.52) x 1.4 = 317.3 us + 42.7 us: both slower. */
    {
        struct cs_coll_params p;
        cs_coll_params_default(&p);
        enum cs_coll_proto pr = CS_COLL_PROTO_LL;
        double tr = -1;
        struct cs_cluster_cfg hop = h2; /* Hopper: FP8 and NVLink (collective.c gpu_gen) */
        hop.gpu.peak_flops[CS_PREC_FP8] = 1979e12;
        ck_assert_int_eq(
            cs_coll_time_ex(&hop, &p, CS_COLL_ALL_REDUCE, 4194304.0, &g, CS_COLL_RING, &tr, &chosen, &pr), CS_OK);
        ck_assert_int_eq(pr, CS_COLL_PROTO_LL128);
        double dev = 104.72e-6 + 1.875 * 4194304.0 / 169.28e9;
        ck_assert_double_eq_tol(tr, dev * pow(1.0 + pow(35e-6 / dev, 4.0), 0.25), 1e-10);
        /* The same GPU without FP8 reads as Ampere: no LL128 across nodes. */
        ck_assert_int_eq(
            cs_coll_time_ex(&h2, &p, CS_COLL_ALL_REDUCE, 4194304.0, &g, CS_COLL_RING, &tr, &chosen, &pr), CS_OK);
        ck_assert_int_ne(pr, CS_COLL_PROTO_LL128);
    }
    /* Not on A100 (no NVLS), not on one node. */
    struct cs_cluster_cfg a2 = make_cluster(false, 2);
    double nope = 1.0;
    ck_assert_int_eq(cs_coll_time(&a2, CS_COLL_ALL_REDUCE, 1e9, &g, CS_COLL_NVLS_TREE, &nope, NULL), CS_EUNSUPPORTED);

    /* Tree medium-size correction: S = 1 MiB, log2(2^20 / 64) = 14,
     * Simple factor 0.5 (treeCorrectionFactor). Tree Simple on 2 x 8 A100:
     * busbw min(0.92 x 184e9, 16 x 23.6e9) = 169.28e9 x 0.5 = 84.64e9;
     * algbw 42.32e9; latency 8.4 + 2 x (7 x 4.0 + 1 x 61.52) = 187.44 us;
     * device 187.44e-6 + 1048576 / 42.32e9 = 212.2173e-6 s, above the
     * 35 us launch floor: smooth max 212.2173 x (1 + (35/212.2173)^4)^(1/4). */
    struct cs_coll_params p;
    cs_coll_params_default(&p);
    enum cs_coll_proto pr = CS_COLL_PROTO_LL;
    t = -1;
    ck_assert_int_eq(cs_coll_time_ex(&a2, &p, CS_COLL_ALL_REDUCE, 1048576.0, &g, CS_COLL_TREE, &t, &chosen, &pr),
                     CS_OK);
    double dev_simple = 187.44e-6 + 1048576.0 / 42.32e9;
    /* tree LL: busbw min(169.28e9 / 3.8, 39e9) = 39e9 x corr LL[14] 0.5
     * -> algbw 9.75e9; latency 6.8 + 2 x (7 x 0.6 + (5.0 + 0.69) x 4) = 60.72 us;
     * device 60.72e-6 + 1048576 / 9.75e9 = 168.2657e-6 s: LL wins. */
    double dev_ll = 60.72e-6 + 1048576.0 / 9.75e9;
    ck_assert(dev_ll < dev_simple);
    ck_assert_int_eq(pr, CS_COLL_PROTO_LL);
    ck_assert_double_eq_tol(t, dev_ll * pow(1.0 + pow(35e-6 / dev_ll, 4.0), 0.25), 1e-10);

    /* PAT: all_gather with one GPU per node, 4 nodes x 1 H100 (ranks 4,
     * ppn 1): latency 8 + log2(4) x (14 + 2 x xport) x 4 / 3.5 + 4 x 2.8;
     * 4 nodes span 2 radix-40 leaves (2.5 nodes each): 3 hops, xport
     * 0.6 + 0.27 = 0.87 us -> 8 + 2 x 62.96 / 3.5 + 11.2 = 55.177143 us; bandwidth 0.85 x min(360e9, 8 x 23e9? no: one
     * GPU drives its own NIC(s): 8 NICs / 8 GPUs = 1 -> 23e9) = 19.55e9;
     * time 54.354286e-6 + 3/4 x S / 19.55e9. */
    struct cs_cluster_cfg h4 = make_cluster(true, 4);
    struct cs_coll_group g1 = {4, 1, 1, 0, 0, 0, 0, 0};
    double S = 268435456.0;
    t = coll_s(&h4, CS_COLL_ALL_GATHER, S, &g1, CS_COLL_PAT, &chosen);
    ck_assert_int_eq(chosen, CS_COLL_PAT);
    ck_assert_double_eq_tol(t, 55.177143e-6 + 0.75 * S / 19.55e9, 1e-9);
    /* PAT needs one GPU per node. */
    ck_assert_int_eq(cs_coll_time(&h2, CS_COLL_ALL_GATHER, S, &g, CS_COLL_PAT, &nope, NULL), CS_EUNSUPPORTED);

    /* CollNet (SHARP) all_gather on 2 x 8 H100 with in-network reduction:
     * 8 GPUs per node = 8 NICs; fraction at 8 per node 0.85; latency
     * 2 x (1 x 3.7 + 7 x 0.4) + (31 + 2 x 0.69) x 4 = 142.52 us; net S /
     * (184e9 x 0.85) vs intra 7/8 S / 360e9: net wins -> 142.52e-6 + S / 156.4e9. */
    h2.fabric.in_network_reduction = true;
    t = coll_s(&h2, CS_COLL_ALL_GATHER, S, &g, CS_COLL_SHARP, &chosen);
    ck_assert_int_eq(chosen, CS_COLL_SHARP);
    ck_assert_double_eq_tol(t, 142.52e-6 + S / 156.4e9, 1e-9);
    /* CollNet Chain all_reduce: latency 2 x 7 x 2.8 + (30 + 2 x 0.69) x 4 = 164.72 us;
     * algbw 0.5 x min(360e9, 184e9) x 0.9 = 82.8e9. */
    t = coll_s(&h2, CS_COLL_ALL_REDUCE, S, &g, CS_COLL_COLLNET_CHAIN, &chosen);
    ck_assert_int_eq(chosen, CS_COLL_COLLNET_CHAIN);
    ck_assert_double_eq_tol(t, 164.72e-6 + S / 82.8e9, 1e-9);
}
END_TEST

/* RCCL's tables for AMD (tuning_model_5 of ROCm 6.2, before the
 * large-node-count selection retune): base 17 us Simple, xGMI ring step
 * 3.6 us, network ring step 19.8 us, LL at 0.41 of the bus bandwidth. */
START_TEST(test_collective_rccl_tables)
{
    struct cs_cluster_cfg c = make_cluster(false, 2);
    snprintf(c.gpu.vendor, sizeof c.gpu.vendor, "amd");
    struct cs_coll_group g = {16, 8, 1, 0, 0, 0, 0, 0};
    struct cs_coll_params p;
    cs_coll_params_default(&p);
    enum cs_coll_algo chosen = CS_COLL_AUTO;
    enum cs_coll_proto pr = CS_COLL_PROTO_LL;
    double t = -1, S = 1073741824.0;
    ck_assert_int_eq(cs_coll_time_ex(&c, &p, CS_COLL_ALL_REDUCE, S, &g, CS_COLL_RING, &t, &chosen, &pr), CS_OK);
    /* Simple: 17 + 28 x max(3.6, 3 x 1) + 2 x (19.8 + 2 x 0.69) = 17 +
     * 100.8 + 42.36 = 160.16 us (no NCCL plateau, no net_lat_scale: RCCL's
     * own figure); 1.875 x S / 184e9 (LL: 0.41 of it, slower). */
    ck_assert_int_eq(pr, CS_COLL_PROTO_SIMPLE);
    ck_assert_double_eq_tol(t, 160.16e-6 + 1.875 * S / 184e9, 1e-9);
}
END_TEST

/* RCCL's LL128 where the catalog says RCCL enables it (rccl_ll128: gfx950),
 * inside one node: LL's latencies (base 12 us, xGMI ring step 0.8 us, as
 * RCCL's gfx942/gfx950 tables give LL128) and 120 of every 128 bytes of
 * the bus bandwidth. On the single-node test cluster (bus 300 x 0.80 = 240
 * GB/s), all_reduce of 4 MiB over 8 ranks: LL128 12 + 14 x 0.8 = 23.2 us +
 * 1.75 x 4 MiB / (240 x 120/128 = 225 GB/s) = 32.62 us, 55.82 us of device time,
 * against LL (0.41 of the bus: 97.8 us) and Simple (17 + 14 x 3.6 + 30.6 =
 * 98.0 us). Without the flag, or across two nodes, no LL128. */
START_TEST(test_collective_rccl_ll128)
{
    struct cs_cluster_cfg c = make_cluster(false, 1);
    snprintf(c.gpu.vendor, sizeof c.gpu.vendor, "amd");
    c.gpu.rccl_ll128 = true;
    struct cs_coll_group g = {8, 8, 1, 0, 0, 0, 0, 0};
    struct cs_coll_params p;
    cs_coll_params_default(&p);
    enum cs_coll_algo chosen = CS_COLL_AUTO;
    enum cs_coll_proto pr = CS_COLL_PROTO_SIMPLE;
    double t = -1, S = 4194304.0;
    ck_assert_int_eq(cs_coll_time_ex(&c, &p, CS_COLL_ALL_REDUCE, S, &g, CS_COLL_AUTO, &t, &chosen, &pr), CS_OK);
    ck_assert_int_eq(chosen, CS_COLL_RING);
    ck_assert_int_eq(pr, CS_COLL_PROTO_LL128);
    /* device time 55.82 us, then the 35 us launch floor's smooth maximum
     * (exponent 4): (35^4 + 55.82^4)^(1/4) = 57.86 us */
    double dev = 23.2e-6 + 1.75 * S / 225e9;
    ck_assert_double_eq_tol(t, pow(pow(35e-6, 4) + pow(dev, 4), 0.25), 1e-10);
    ck_assert_double_eq_tol(t, 57.864e-6, 1e-9);
    c.gpu.rccl_ll128 = false;
    ck_assert_int_eq(cs_coll_time_ex(&c, &p, CS_COLL_ALL_REDUCE, S, &g, CS_COLL_AUTO, &t, &chosen, &pr), CS_OK);
    ck_assert_int_ne(pr, CS_COLL_PROTO_LL128);
    ck_assert(t > 97e-6);
    struct cs_cluster_cfg c2 = make_cluster(false, 2);
    snprintf(c2.gpu.vendor, sizeof c2.gpu.vendor, "amd");
    c2.gpu.rccl_ll128 = true;
    struct cs_coll_group g2 = {16, 8, 1, 0, 0, 0, 0, 0};
    ck_assert_int_eq(cs_coll_time_ex(&c2, &p, CS_COLL_ALL_REDUCE, S, &g2, CS_COLL_AUTO, &t, &chosen, &pr), CS_OK);
    ck_assert_int_ne(pr, CS_COLL_PROTO_LL128);
}
END_TEST

static Suite *collective_suite(void)
{
    Suite *s = suite_create("collective");
    TCase *tc = tcase_create("formulas");
    tcase_set_timeout(tc, 10);
    tcase_add_test(tc, test_collective_names);
    tcase_add_test(tc, test_collective_p2p_channels);
    tcase_add_test(tc, test_collective_p2p_net_channels);
    tcase_add_test(tc, test_collective_p2p_protocol);
    tcase_add_test(tc, test_collective_busbw_factor);
    tcase_add_test(tc, test_collective_ring_formula);
    tcase_add_test(tc, test_collective_hier_formula);
    tcase_add_test(tc, test_collective_availability);
    tcase_add_test(tc, test_collective_nccl22_algorithms);
    tcase_add_test(tc, test_collective_nvls_blackwell);
    tcase_add_test(tc, test_collective_blackwell_tuning_row);
    tcase_add_test(tc, test_collective_nvls_chunk);
    tcase_add_test(tc, test_collective_rccl_tables);
    tcase_add_test(tc, test_collective_rccl_ll128);
    tcase_add_test(tc, test_collective_alltoall_hierarchical);
    suite_add_tcase(s, tc);
    TCase *tv = tcase_create("validation");
    tcase_set_timeout(tv, 30);
    tcase_add_test(tv, test_collective_validate_nccl_tests);
    suite_add_tcase(s, tv);
    return s;
}

int main(void)
{
    return cs_test_run(collective_suite());
}
