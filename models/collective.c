/* collective.c: closed-form alpha-beta model of NCCL collectives (ring,
 * double binary tree, hierarchical, NVLink-SHARP, in-network reduction).
 * Layer: models/. The structure is NCCL's tuning model (src/graph/tuning.cc,
 * ncclTopoTuneModel and ncclTopoGetAlgoTime, NCCL 2.12): per algorithm and
 * protocol a latency (base + per-step hop latency) and a bus bandwidth
 * (link bandwidth x protocol fraction); time = latency + bytes / algbw, and
 * the fastest (algorithm, protocol) wins. Ring bandwidth terms are those of
 * Patarasuk & Yuan 2009 and Thakur et al. 2005; see docs/fabric.md. */
#include "clustersim/models/collective.h"
#include "clustersim/models/cluster.h"
#include "clustersim/models/topology.h"
#include "clustersim/models/workload.h"

#include <math.h>
#include <string.h>

const char *const cs_coll_op_names[CS_COLL_OP_COUNT + 1] = {"all_reduce", "all_gather", "reduce_scatter",
                                                            "alltoall",   "broadcast",  "sendrecv", NULL};
const char *const cs_coll_algo_names[CS_COLL_ALGO_COUNT + 1] = {"auto", "ring",          "tree", "hier", "nvls",
                                                                "sharp", "nvls_tree", "collnet_chain", "pat", NULL};
static const char *const proto_names[CS_COLL_PROTO_COUNT] = {"LL", "LL128", "Simple"};

const char *cs_coll_op_name(enum cs_coll_op op)
{
    return (unsigned)op < CS_COLL_OP_COUNT ? cs_coll_op_names[op] : "?";
}

cs_status cs_coll_op_parse(const char *s, enum cs_coll_op *out)
{
    if (!s || !out)
        return CS_EINVAL;
    size_t len = strlen(s);
    if (len > 5 && strcmp(s + len - 5, "_perf") == 0)
        len -= 5;
    for (int i = 0; i < CS_COLL_OP_COUNT; i++) {
        if (strlen(cs_coll_op_names[i]) == len && strncmp(s, cs_coll_op_names[i], len) == 0) {
            *out = (enum cs_coll_op)i;
            return CS_OK;
        }
    }
    return CS_EINVAL;
}

const char *cs_coll_algo_name(enum cs_coll_algo a)
{
    return (unsigned)a < CS_COLL_ALGO_COUNT ? cs_coll_algo_names[a] : "?";
}

cs_status cs_coll_algo_parse(const char *s, enum cs_coll_algo *out)
{
    if (!s || !out)
        return CS_EINVAL;
    for (int i = 0; i < CS_COLL_ALGO_COUNT; i++) {
        if (strcmp(s, cs_coll_algo_names[i]) == 0) {
            *out = (enum cs_coll_algo)i;
            return CS_OK;
        }
    }
    return CS_EINVAL;
}

const char *cs_coll_proto_name(enum cs_coll_proto p)
{
    return (unsigned)p < CS_COLL_PROTO_COUNT ? proto_names[p] : "?";
}

void cs_coll_params_default(struct cs_coll_params *p)
{
    memset(p, 0, sizeof *p);
    /* NCCL 2.23 src/graph/tuning.cc (v2.23.4-1) baseLat and hwLat
     * (microseconds), [hw][proto] with proto LL, LL128, Simple. */
    const double ring_base[3] = {6.6, 14.0, 8.4}, tree_base[3] = {6.8, 14.0, 8.4};
    const double ring_hop[3][3] = {{0.6, 1.9, 3.4}, {1.0, 2.5, 5.7}, {2.7, 4.0, 14.0}};
    const double tree_hop[3][3] = {{0.6, 1.25, 4.0}, {1.0, 1.9, 4.0}, {5.0, 8.5, 14.0}};
    /* RCCL src/graph/tuning.cc baseLat and tuning_model_5 hwLat (xGMI row
     * in the NVLink slot; LL128 is disabled there, its cells are 0), as in
     * ROCm 6.2 (tag rocm-6.2.0). Commit a25ca9bb (#1288, "new tuning table
     * for very large number of nodes", 2024-08-09, after 6.2) retuned the
     * whole model to steer RCCL's choice at large node counts: ring NET
     * Simple 19.8 -> 320 us, LL bwRatio 0.41 -> 0.08, tree Simple bwRatio
     * 1.0 -> 0.11 at two nodes. Those are selection biases, not costs (LL
     * at 8% of the bus bandwidth, a 320 us network step); this model uses
     * the tables as step costs and bandwidth fractions, so it keeps the
     * ROCm 6.2 table. */
    const double rccl_base[3] = {12.0, 12.0, 17.0};
    const double rccl_ring[3][3] = {{0.8, 0.0, 3.6}, {2.2, 2.2, 5.7}, {9.5, 0.0, 19.8}};
    const double rccl_tree[3][3] = {{0.8, 0.0, 2.5}, {2.2, 2.2, 5.7}, {12.5, 0.0, 22.4}};
    for (int pr = 0; pr < CS_COLL_PROTO_COUNT; pr++) {
        p->ring_base_lat_s[pr] = ring_base[pr] * 1e-6;
        p->tree_base_lat_s[pr] = tree_base[pr] * 1e-6;
        p->rccl_base_lat_s[pr] = rccl_base[pr] * 1e-6;
        for (int h = 0; h < CS_COLL_HW_COUNT; h++) {
            p->ring_hop_lat_s[h][pr] = ring_hop[h][pr] * 1e-6;
            p->tree_hop_lat_s[h][pr] = tree_hop[h][pr] * 1e-6;
            p->rccl_ring_hop_lat_s[h][pr] = rccl_ring[h][pr] * 1e-6;
            p->rccl_tree_hop_lat_s[h][pr] = rccl_tree[h][pr] * 1e-6;
        }
    }
    p->ring_plateau = 1.4;              /* tuning.cc ncclTopoGetAlgoTime "Plateau effect of ring", sm80+ */
    p->ll_bw_frac_allreduce = 0.5;      /* 2.23: ring LL busBw x .5 (capped by ll_max_bw) */
    p->ll_bw_frac_other = 0.5;
    p->ll128_bw_frac = 0.92;            /* ~120/128 */
    p->tree_bw_frac = 120.0 / 128.0;    /* tree LL128 across nodes */
    p->tree_ll_frac = 1.0 / 3.8;
    p->tree_max_bus_bw_2node = INFINITY; /* 2.12's caps, replaced by the per-channel caps below */
    p->tree_max_bus_bw = INFINITY;
    p->nvswitch_efficiency = 0.80;      /* fitted: nccl-tests ring busbw / NVLink rate (A100 0.77, H100 0.82) */
    p->pcie_efficiency = 0.80;
    p->pcie_bridges_per_node = 2;
    p->net_efficiency = 0.92;           /* fitted: 2-node A100 ring busbw 183 GB/s / 8 x 25 GB/s */
    p->nvls_efficiency = 0.85;          /* fitted: H100 NVLS algbw 276 GB/s vs 360/(1+1/8) */
    /* NCCL's own figures (src/graph/tuning.cc, nvlsEfficiency, since 2.28.3;
     * NVIDIA/nccl 5067397c): Hopper .85, Blackwell .74 of the NVLink rate */
    p->nvls_blackwell_ratio = 0.74 / 0.85;
    p->nvls_lat_s = 40e-6;              /* fitted on the H100 NVLS fit log (NCCL 2.23's hwLat says 25 us) */
    p->nvls_chunk_bytes = 128.0 * 1024; /* nvls.cc NCCL_PARAM(NvlsChunkSize, "NVLS_CHUNKSIZE", 128 * 1024) */
    /* fitted: the H100 NVLS fit log, 32 MiB-16 GiB (docs/fabric.md): 11 KiB
     * at its NVLS rate, 450e9 x 0.80 x 0.85 B/s; a fixed time per chunk */
    p->nvls_chunk_cost_s = 11.0 * 1024 / (450e9 * 0.80 * 0.85);
    p->nvls_channels_hopper = 16;       /* nvls.cc NVLS_NCHANNELS_SM90 */
    p->nvls_channels_blackwell = 24;    /* nvls.cc NVLS_NCHANNELS_SM100_NVL */
    /* p2p engine (src/graph/topo.h SM70/80/90/100_NVLINK_BW 20, 20, 20.6,
     * 40.1 GB/s; paths.cc ncclTopoGetNchannels: 2 channels per NVLink) */
    p->p2p_channels = 32;
    p->p2p_nvl_chunk_bytes = 512.0 * 1024;
    p->p2p_net_chunk_bytes = 128.0 * 1024;
    p->p2p_net_ch_bw = 14e9;
    p->p2p_ch_bw[0] = 10.0e9;
    p->p2p_ch_bw[1] = 10.0e9;
    p->p2p_ch_bw[2] = 10.3e9;
    p->p2p_ch_bw[3] = 20.05e9;
    p->sharp_efficiency = 0.9;          /* NCCL CollNet busBw x 0.9 */
    p->sharp_lat_s = 31e-6;             /* hwLat NET CollNetDirect Simple (2.23) */
    p->launch_floor_s = 35e-6;          /* nccl-tests floor at 8 B (H100 logs, 8 GPUs from one thread) */
    p->launch_overlap_exp = 4.0;        /* fitted: sharpness of max(launch, device) */
    p->nvls_net_lat_s = 18e-6;
    p->nvls_tree_intra_lat_s = 25e-6;
    p->nvls_tree_net_lat_s = 14e-6;
    p->collnet_direct_intra_lat_s = 3.7e-6;
    p->collnet_direct_net_lat_s = 31e-6;
    p->collnet_chain_intra_lat_s = 2.8e-6;
    p->collnet_chain_net_lat_s = 30e-6;
    p->collnet_arity_lat_s = 0.4e-6;
    p->net_overhead_s = 1e-6;           /* getNetOverhead: Intel x86 1 us (AMD x86 2 us) */
    p->ll128_tree_frac_1node = 7.0 / 9.0;
    p->tree_simple_frac = 0.92;
    p->pat_bw_frac = 0.85;
    p->pat_base_lat_s = 8e-6;
    p->pat_rank_lat_s = 2.8e-6;
    p->pat_net_lat_div = 3.5;
    p->collnet_ag_frac_1ppn = 0.95;
    p->collnet_ag_frac_8ppn = 0.85;
    p->collnet_hopper_frac = 0.85;
    /* tuning.cc llMaxBws, perChMaxRingLL128Bws, perChMaxTreeLL128Bws,
     * perChMaxTreeBws (GB/s). llMaxBws: one node indexes the GPU
     * generation, several nodes the CPU vendor (row 0 Intel, row 1 AMD);
     * this model takes Intel hosts for NVIDIA systems (docs/fabric.md). */
    const double llmax[4][3] = {{39.0, 39.0, 20.4}, {87.7, 22.5, 19.0}, {141.0, 45.0, 35.0},
                                {282.0, 90.0, 70.0}};
    const double rll128[4][3] = {{20.0, 20.0, 20.0}, {20.0, 20.0, 20.0}, {36.7, 36.7, 36.7},
                                 {40.0, 40.0, 40.0}};
    const double tll128[4][3] = {{20.0, 20.0, 20.0}, {20.0, 20.0, 20.0}, {36.7, 36.7, 29.0},
                                 {55.6, 31.67, 20.0}};
    const double tsimple[4][3] = {{26.5, 18.5, 10.0}, {24.0, 23.6, 17.8}, {38.7, 41.4, 36.0},
                                  {70.0, 42.8, 24.0}};
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 3; j++) {
            p->ll_max_bw[i][j] = llmax[i][j] * 1e9;
            p->per_ch_ring_ll128_bw[i][j] = rll128[i][j] * 1e9;
            p->per_ch_tree_ll128_bw[i][j] = tll128[i][j] * 1e9;
            p->per_ch_tree_bw[i][j] = tsimple[i][j] * 1e9;
        }
    p->channels = 16;
    const double corr[3][23] = {
        {1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0, 1.0, 1.0},
        {1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .6, .6, .6, .8, .9, .9, .9, .9, 1.0, 1.0},
        {.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9}};
    memcpy(p->tree_corr, corr, sizeof corr);
    p->rccl_ll_bw_ratio = 0.41;         /* tuning_model_5 bwRatio ring LL (ROCm 6.2) */
    /* tuning_model_5 bwRatio tree [2 nodes, more][LL, LL128, Simple] (ROCm 6.2). */
    const double rtree[2][3] = {{0.41, 0.0, 1.0}, {0.41, 0.0, 0.86}};
    memcpy(p->rccl_tree_bw_ratio, rtree, sizeof rtree);
    p->rccl_launch_floor_s = 35e-6;
    /* Fitted on the fit logs of validation/INDEX.yaml (multi-node: the
     * 2-node A100 ring, the 2-node H100 NCCL_ALGO=Ring and NVLSTree logs):
     * the measured inter-node step costs ~4x NCCL's hwLat NET figure plus
     * the transport's message latency. Grid 3, 4, 5, 6: pooled fit MAPE
     * 9.4, 9.1, 9.1, 9.2% (rows >= 1 MiB); held-out logs never used. It
     * multiplies every NCCL NET latency (ring, tree, NVLSTree, PAT,
     * CollNet); RCCL's tables are used as they are. */
    p->net_lat_scale = 4.0;
}

/* The scale-up rate one GPU's ring edge gets when `groups` rings of `ppn`
 * GPUs each run at once in its node (docs/fabric.md, section 0):
 * - PCIe: every edge crosses the CPU host bridges, each as fast as one
 *   GPU's link, so the ppn x groups GPUs share them;
 * - point-to-point NVLink whose domains hold fewer GPUs than a ring has in
 *   the node (NVLink-bridged pairs): a ring in rank order leaves each
 *   domain once, so ppn / domain of its edges per ring cross PCIe; those
 *   crossings share the host bridges, and the slowest edge paces the ring;
 * - NVSwitch, or a mesh that holds the ring (xGMI of 8): per GPU. */
static double intra_bw_shared(const struct cs_cluster_view *v, int ppn, int groups)
{
    double bw = v->intra_bw_bytes_per_s;
    int sharing = ppn * (groups > 0 ? groups : 1);
    if (v->intra_pcie && sharing > 0) {
        double share = (double)v->pcie_bridges_per_node / (double)sharing;
        if (share < 1.0)
            bw *= share;
    } else if (v->intra_kind == CS_INTRA_NVLINK_P2P && ppn > v->scaleup_domain_gpus) {
        double crossings = (double)((ppn + v->scaleup_domain_gpus - 1) / v->scaleup_domain_gpus) *
                           (groups > 0 ? groups : 1);
        double cross = v->pcie_gpu_bw_bytes_per_s * fmin(1.0, v->pcie_bridges_per_node / crossings);
        bw = fmin(bw, cross);
    }
    return bw;
}

double cs_coll_intra_bw(const struct cs_cluster_cfg *c, const struct cs_coll_params *p, int gpus_sharing)
{
    struct cs_cluster_view v;
    return cs_cluster_view_rates(c, p, &v) == CS_OK ? intra_bw_shared(&v, gpus_sharing, 1) : 0.0;
}

double cs_coll_busbw_factor(enum cs_coll_op op, int ranks)
{
    if (ranks < 1)
        return NAN;
    double n = ranks;
    switch (op) {
    case CS_COLL_ALL_REDUCE: return 2.0 * (n - 1.0) / n;
    case CS_COLL_ALL_GATHER:
    case CS_COLL_REDUCE_SCATTER:
    case CS_COLL_ALLTOALL: return (n - 1.0) / n;
    case CS_COLL_BROADCAST:
    case CS_COLL_SENDRECV: return 1.0;
    case CS_COLL_OP_COUNT: break;
    }
    return NAN;
}

/* Everything one evaluation needs, derived once from (cluster, group). */
struct shape {
    int n, ppn, m, gpn, hw;
    int gen;           /* tuning-table row: 0 Volta, 1 Ampere, 2 Hopper, 3 Blackwell */
    double nvls_eff;   /* NVLink SHARP's share of the link: Hopper's, or Blackwell's */
    int nvls_channels; /* NCCL's NVLS channels inside one domain: Hopper's, or Blackwell's */
    int ncls;          /* node class: 0 one node, 1 two, 2 more */
    bool amd;          /* RCCL's tables instead of NCCL's */
    bool amd_ll128;    /* RCCL's LL128 (ring, inside one node; proto_allowed) */
    bool nvls;         /* NVSwitch with in-switch reduction */
    int nics;          /* NICs per node */
    double b_intra;    /* per GPU, B/s */
    double b_net_node; /* the group's share of one node's NICs, B/s */
    double b_net_gpu;  /* one GPU's rail NIC(s), its share, B/s */
    double b_bus;      /* ring bus bandwidth: min(intra, net) */
    double hop_s;      /* switch hops x hop latency of the longest inter-node path */
    double xport_s;    /* one network message: NIC/transport latency + hop_s (NCCL's latencyInter) */
    int a2a_k;         /* hierarchical all-to-all's top-k (cs_coll_group), 0: plain */
    int a2a_nodes;     /* the nodes one token can reach (0: all m) */
    double p2p_ch_bw;  /* one p2p channel's rate over NVLink (0: no NVLink p2p cap) */
    int p2p_per_peer;  /* p2pnChannelsPerPeer */
    int p2p_total;     /* the comm's p2pnChannels (cs_coll_p2p_comm_channels) */
};

/* The fabric view (collective.h). `busy` is the fraction of a node's NIC
 * ports the job's groups keep busy at once (1 when every rail carries a
 * ring). Derivation (docs/fabric.md):
 * - packed: the group's m nodes lie in `span` consecutive nodes; a leaf
 *   domain holds D of them, so it spans L = ceil(span / D) leaves; a ring in
 *   rank order leaves each leaf once, so L of its m inter-node edges cross
 *   the spine: cross = L / m (0 when L = 1).
 * - scattered: the job's J nodes are in random order over the cluster's N
 *   nodes, J / ceil(N / D) per leaf on average; a ring neighbour is on
 *   another leaf with probability cross = 1 - (J_leaf - 1) / (J - 1).
 * - a leaf's used down ports P (its job nodes x NICs on that leaf) send
 *   P x cross x busy NIC-rates up through `up` ports:
 *   share = min(1, up / (P x cross x busy)). The aggregation-core tier is
 *   non-blocking (topology.c), so only the leaf tier limits bandwidth.
 * - hops: 1 within a leaf domain, 3 across a spine (or within a pod), 5
 *   across the core of a 3-tier fat tree. */
static cs_status fabric_view(const struct cs_cluster_cfg *c, const struct cs_cluster_view *cv,
                             const struct cs_coll_group *g, double busy, struct cs_coll_fabric_view *out)
{
    if (!c || !g || g->ranks < 1 || g->ranks_per_node < 1 || g->ranks % g->ranks_per_node != 0)
        return CS_EINVAL;
    int m = g->ranks / g->ranks_per_node;
    struct cs_coll_fabric_view v = {0, 1, 0.0, 1.0};
    if (m <= 1) {
        *out = v;
        return CS_OK;
    }
    if (!cv->has_geometry)
        return cv->geometry_status;
    const struct cs_fabric_geom geo = cv->geom;
    v.hops = 1;
    if (geo.tiers == 1) {
        *out = v;
        return CS_OK;
    }
    int nics = cv->ports_per_node;
    double D = geo.nodes_per_leaf > 0 ? geo.nodes_per_leaf : 1.0;
    double N = c->nodes;
    double J = g->job_nodes > 0 ? g->job_nodes : N;
    if (J < m)
        J = m;
    double span = g->span_nodes > m ? g->span_nodes : m;
    double per_leaf; /* job nodes on one of the leaves the group uses */
    bool cross_pods;
    if (c->fabric.placement == CS_PLACEMENT_SCATTERED) {
        double leaves_c = ceil(N / D - 1e-9);
        per_leaf = fmin(D, J / leaves_c);
        v.leaves = (int)fmin((double)m, leaves_c);
        v.cross_frac = J > 1 ? 1.0 - (per_leaf - 1.0) / (J - 1.0) : 0.0;
        cross_pods = geo.tiers == 3 && N > geo.nodes_per_pod;
    } else {
        double L = ceil(span / D - 1e-9);
        per_leaf = fmin(D, J);
        v.leaves = (int)L;
        v.cross_frac = L > 1 ? fmin(1.0, L / m) : 0.0;
        cross_pods = geo.tiers == 3 && span > geo.nodes_per_pod;
    }
    if (v.cross_frac < 0)
        v.cross_frac = 0;
    if (v.cross_frac > 0) {
        v.hops = cross_pods ? 5 : 3;
        double ports = per_leaf * (geo.rail ? 1.0 : (double)nics);
        if (ports > geo.down)
            ports = geo.down;
        double demand = ports * v.cross_frac * (busy > 0 ? fmin(busy, 1.0) : 1.0);
        if (demand > geo.up)
            v.bw_share = geo.up / demand;
    }
    *out = v;
    return CS_OK;
}

cs_status cs_coll_fabric_view(const struct cs_cluster_cfg *c, const struct cs_coll_group *g,
                              struct cs_coll_fabric_view *out)
{
    struct cs_coll_fabric_view v;
    struct cs_cluster_view cv;
    if (!out)
        return CS_EINVAL;
    cs_status rc = cs_cluster_view_build(c, NULL, &cv);
    if (rc == CS_OK)
        rc = fabric_view(c, &cv, g, 1.0, &v);
    if (rc == CS_OK)
        *out = v;
    return rc;
}

static int log2i(int v)
{
    int l = 0;
    while (v > 1) {
        v >>= 1;
        l++;
    }
    return l;
}

/* NCCL's tuning-table row of the GPU: Hopper and later have FP8 tensor
 * cores and NVLink; Ampere has BF16; older is Volta. */
static int gpu_gen(const struct cs_cluster_cfg *c)
{
    if (cs_gpu_block_scaled(&c->gpu) && c->gpu.scaleup_bw_bytes_per_s > 0)
        return 3;
    double fp8 = c->gpu.peak_flops[CS_PREC_FP8], bf16 = c->gpu.peak_flops[CS_PREC_BF16];
    if (fp8 > 0 && c->gpu.scaleup_bw_bytes_per_s > 0)
        return 2;
    return bf16 > 0 ? 1 : 0;
}

static int shape_init(const struct cs_cluster_cfg *c, const struct cs_coll_params *p, const struct cs_coll_group *g,
                      struct shape *s)
{
    if (!c || !p || !g || g->ranks < 1 || g->ranks_per_node < 1 || g->ranks_per_node > g->ranks ||
        g->ranks % g->ranks_per_node != 0)
        return -1;
    /* The rates always; the geometry only for a group that spans nodes. */
    struct cs_cluster_view cv;
    bool spans = g->ranks / g->ranks_per_node > 1;
    if ((spans ? cs_cluster_view_build(c, p, &cv) : cs_cluster_view_rates(c, p, &cv)) != CS_OK)
        return -1;
    s->n = g->ranks;
    s->ppn = g->ranks_per_node;
    s->m = g->ranks / g->ranks_per_node;
    s->gpn = g->groups_per_node > 0 ? g->groups_per_node : 1;
    s->a2a_k = g->a2a_top_k > 1 ? g->a2a_top_k : 0;
    s->a2a_nodes = g->a2a_nodes > 0 ? g->a2a_nodes : 0;
    s->hw = cv.intra_pcie ? CS_COLL_HW_PCI : CS_COLL_HW_NVLINK;
    s->amd = strcmp(c->gpu.vendor, "amd") == 0;
    s->amd_ll128 = s->amd && c->gpu.rccl_ll128 && s->m == 1;
    s->gen = gpu_gen(c);
    /* Blackwell (block-scaled tensor cores) takes NCCL's lower NVLS share
     * and its own NVLS channel count */
    bool blackwell = cs_gpu_block_scaled(&c->gpu);
    s->nvls_eff = p->nvls_efficiency * (blackwell ? p->nvls_blackwell_ratio : 1.0);
    s->nvls_channels = blackwell ? p->nvls_channels_blackwell : p->nvls_channels_hopper;
    s->ncls = s->m <= 2 ? s->m - 1 : 2;
    s->nvls = c->intra.kind == CS_INTRA_NVSWITCH && (c->intra.nvls || c->gpu.nvls);
    s->nics = cv.nics_per_node;
    s->b_intra = intra_bw_shared(&cv, s->ppn, s->gpn);
    if (!(s->b_intra > 0))
        return -1;
    s->b_bus = s->b_intra;
    s->b_net_node = s->b_net_gpu = INFINITY;
    s->hop_s = s->xport_s = 0.0;
    /* NCCL's p2p channels over NVLink (NVIDIA GPUs only; RCCL's p2p engine
     * differs): half an NVLink per channel, by generation. */
    s->p2p_ch_bw = 0.0;
    s->p2p_per_peer = p->p2p_channels;
    s->p2p_total = p->p2p_channels;
    if (!s->amd && s->hw == CS_COLL_HW_NVLINK)
        s->p2p_ch_bw = p->p2p_ch_bw[s->gen];
    /* Multi-node NVLink domains (nvl-domain: NVL72 racks): the group's nodes
     * that share a domain talk over NVLink, so a domain acts as one big
     * node: k of the group's m nodes per domain (its nodes lie in rank
     * order within span_nodes, packed), k x ppn ranks per "node", m / k
     * "nodes" on the NICs, each with k nodes' NICs (docs/fabric.md 0). */
    int dn = spans && cv.has_geometry ? cv.geom.domain_nodes : 1;
    int k_dom = 1;
    if (dn > 1 && s->m > 1 && c->fabric.placement == CS_PLACEMENT_PACKED) {
        int span = g->span_nodes > s->m ? g->span_nodes : s->m;
        long k = span <= dn ? s->m : (long)s->m * dn / span;
        if (k < 1)
            k = 1;
        while (k > 1 && s->m % k != 0)
            k--;
        k_dom = (int)k;
        s->ppn *= k_dom;
        s->m /= k_dom;
        s->ncls = s->m <= 2 ? s->m - 1 : 2;
        s->b_intra = intra_bw_shared(&cv, s->ppn, s->gpn);
        s->b_bus = s->b_intra;
    }
    if (s->m > 1) {
        int nics = cv.nics_per_node, gpus = c->gpus_per_node > 0 ? c->gpus_per_node : s->ppn;
        double nic_bw = cv.nic_bw_bytes_per_s;
        if (nics < 1 || !(nic_bw > 0))
            return -1;
        /* Each GPU drives its rail-local NIC(s): nics/gpus of them, at least one. */
        double per_gpu_nics = nics >= gpus ? (double)(nics / gpus) : 1.0;
        double usable = fmin((double)nics / s->gpn, s->ppn * per_gpu_nics);
        if (usable < 1.0)
            usable = (double)nics / s->gpn; /* more groups than NICs: a fraction of one */
        /* Fabric: leaf uplinks shared by the rails the job's groups drive. */
        struct cs_coll_fabric_view v = {0, 1, 0.0, 1.0};
        double busy = fmin(1.0, usable * s->gpn / nics);
        if (fabric_view(c, &cv, g, busy, &v) != CS_OK)
            return -1;
        if (g->net_share > 0)
            v.bw_share = fmin(1.0, g->net_share); /* the flow model's answer (netmodel.h) */
        s->b_net_node = usable * nic_bw * v.bw_share * k_dom;
        s->b_net_gpu = s->b_net_node / s->ppn;
        s->b_bus = fmin(s->b_intra, s->b_net_node);
        /* paths.cc: a network peer gets max(NICs, rate / 14 GB/s) channels,
         * the comm's smallest peer count wins, rounded up to a power of 2
         * and halved while it x ceil(ranks / 8) exceeds p2pnChannels */
        /* an NVLink domain merged above is one NCCL node with all its NICs */
        if (!s->amd)
            s->p2p_total = cs_coll_p2p_comm_channels(p, s->gen, nics * k_dom, nic_bw);
        double nic_ch = ceil(nic_bw * per_gpu_nics / p->p2p_net_ch_bw);
        int pp = 1;
        while (pp < nic_ch && pp < s->p2p_total)
            pp *= 2;
        while (pp > 1 && pp * ((s->n + 7) / 8) > s->p2p_total)
            pp /= 2;
        s->p2p_per_peer = pp;
        s->hop_s = v.hops * cv.hop_latency_s;
        s->xport_s = cv.nic_latency_s + s->hop_s;
    }
    return 0;
}

static bool proto_allowed(const struct shape *s, int pr)
{
    /* LL128 relies on 128-byte store atomicity. NCCL 2.23 (tuning.cc,
     * protoEnable) enables it by default on Volta/Ampere/Hopper with NVLink
     * inside the node and, across nodes, GPUDirect NICs behind the GPU's
     * PCIe switch (PXB; PXN on Hopper), which HGX/DGX boards have. Across
     * nodes this model enables it on Hopper and later only (PXN): the A100
     * 2-node fit log runs at Simple speed, its NIC placement unstated.
     * RCCL enables it on gfx90a, gfx942 and gfx950 where the topology
     * allows (tuning.cc: typeIntra <= NVL, typeInter <= PXB, and the
     * topology's ll128Enabled); by default on gfx950 (MI350/MI355X) and on
     * gfx942 only in 4-NIC configurations (ROCm docs, "Hardware-specific
     * optimizations in RCCL"). The catalog's rccl_ll128 says which GPU has
     * it; this model uses it inside one node only, the NICs' PCIe placement
     * across nodes being unstated (docs/fabric.md). */
    if (pr == CS_COLL_PROTO_LL128)
        return s->hw == CS_COLL_HW_NVLINK && (s->amd ? s->amd_ll128 : (s->m == 1 || s->gen >= 2));
    return true;
}

/* Per-step latencies of one algorithm (NCCL 2.23, ncclTopoTuneModel):
 * intra-node step, and inter-node step = hwLat NET + the transport's
 * message latency (NCCL's graph latencyInter, counted twice for Simple:
 * the data and the flush). RCCL's tables for AMD. */
/* RCCL's LL128 has LL's latencies: its base latency is LL's (baseLat) and
 * the gfx942/gfx950 tables (tuning_model_5 and 6 of RCCL 2.26-2.27) give
 * LL128 the same per-hop figures as LL (xGMI ring 0.8 us, tree 0.9 us). */
/* RCCL's LL128 carries 120 payload bytes in every 128-byte line (its
 * tuning tables' LL128 bandwidth ratios steer the choice, not the speed). */
#define RCCL_LL128_PAYLOAD (120.0 / 128.0)

static int rccl_lat_proto(const struct shape *s, int pr)
{
    return s->amd && pr == CS_COLL_PROTO_LL128 ? CS_COLL_PROTO_LL : pr;
}

static double base_lat(const struct cs_coll_params *p, const struct shape *s, bool tree, int pr)
{
    return s->amd ? p->rccl_base_lat_s[rccl_lat_proto(s, pr)] : tree ? p->tree_base_lat_s[pr] : p->ring_base_lat_s[pr];
}

static double intra_lat(const struct cs_coll_params *p, const struct shape *s, bool tree, int pr)
{
    if (s->amd) {
        pr = rccl_lat_proto(s, pr);
        return tree ? p->rccl_tree_hop_lat_s[s->hw][pr] : p->rccl_ring_hop_lat_s[s->hw][pr];
    }
    return tree ? p->tree_hop_lat_s[s->hw][pr] : p->ring_hop_lat_s[s->hw][pr];
}

static double inter_lat(const struct cs_coll_params *p, const struct shape *s, bool tree, int pr)
{
    double l;
    if (s->amd) {
        int q = rccl_lat_proto(s, pr);
        l = tree ? p->rccl_tree_hop_lat_s[CS_COLL_HW_NET][q] : p->rccl_ring_hop_lat_s[CS_COLL_HW_NET][q];
    } else /* one GPU per node: latencies fully exposed, NCCL takes the tree's */
        l = (tree || s->ppn == 1) ? p->tree_hop_lat_s[CS_COLL_HW_NET][pr] : p->ring_hop_lat_s[CS_COLL_HW_NET][pr];
    /* RCCL's tables already carry its measured network step cost. */
    l += s->xport_s * (pr == CS_COLL_PROTO_SIMPLE ? 2.0 : 1.0);
    return s->amd ? l : l * p->net_lat_scale;
}

/* NCCL's treeCorrectionFactor at log2(bytes / 64). */
static double tree_corr(const struct cs_coll_params *p, double bytes, int pr)
{
    double q = bytes / 64.0;
    if (!(q >= 1.0))
        return p->tree_corr[pr][0];
    int l = (int)floor(log2(q));
    return l < 23 ? p->tree_corr[pr][l] : 1.0;
}

/* Ring reduce-scatter / all-gather / all-reduce / broadcast (tuning.cc ring):
 * latency base + (nsteps - ninter) max(intra, net overhead) + ninter inter;
 * bus bandwidth min(intra, net) with the protocol's fraction and caps;
 * algbw = busbw n / nsteps. */
static double ring_time(const struct cs_coll_params *p, const struct shape *s, enum cs_coll_op op, double bytes,
                        int pr)
{
    int n = s->n, m = s->m;
    int nsteps, ninter;
    double wire;
    switch (op) {
    case CS_COLL_ALL_REDUCE:
        nsteps = 2 * (n - 1), ninter = 2 * (m - 1), wire = 2.0 * (n - 1) / n;
        break;
    case CS_COLL_ALL_GATHER:
    case CS_COLL_REDUCE_SCATTER:
        nsteps = n - 1, ninter = m - 1, wire = (double)(n - 1) / n;
        break;
    default: /* broadcast: a pipelined chain through n ranks */
        nsteps = n - 1, ninter = m - 1, wire = 1.0;
        break;
    }
    double bw = s->b_bus;
    if (pr == CS_COLL_PROTO_LL) {
        bw *= s->amd ? p->rccl_ll_bw_ratio
                     : (op == CS_COLL_ALL_REDUCE ? p->ll_bw_frac_allreduce : p->ll_bw_frac_other);
        if (!s->amd)
            bw = fmin(bw, p->ll_max_bw[m > 1 ? 0 : s->gen][s->ncls]);
    } else if (pr == CS_COLL_PROTO_LL128) {
        bw = s->amd ? bw * RCCL_LL128_PAYLOAD
                    : fmin(bw * p->ll128_bw_frac, p->channels * p->per_ch_ring_ll128_bw[s->gen][s->ncls]);
    }
    double intra = intra_lat(p, s, false, pr), inter = inter_lat(p, s, false, pr);
    if (m > 1) { /* inter-node rings post nsteps network operations */
        double ovh = p->net_overhead_s * (pr == CS_COLL_PROTO_SIMPLE ? 3.0 : 1.0);
        intra = fmax(intra, ovh);
    }
    double lat = base_lat(p, s, false, pr) + (nsteps - ninter) * intra + ninter * inter;
    if (op == CS_COLL_ALL_REDUCE && pr == CS_COLL_PROTO_SIMPLE && m > 1 && !s->amd &&
        bytes / ((double)p->channels * n) >= 64.0)
        lat *= p->ring_plateau;
    return lat + wire * bytes / bw;
}

/* Double binary tree all-reduce (Sanders et al. 2009, NCCL 2.4): intra-node
 * chain, inter-node trees of depth log2(m); busbw = 0.92 min(intra, net)
 * capped per channel, algbw = busbw / 2, times NCCL's medium-size
 * correction. */
static double tree_time(const struct cs_coll_params *p, const struct shape *s, double bytes, int pr)
{
    /* NCCL's tree graph runs at the rate its search found for both the
     * NVLink chain and the NICs. Beyond two nodes an interior node of the
     * double binary tree sends to its parent and to two children, about 2S
     * per direction through its NICs, as the ring's 2(n-1)/n S: min(intra,
     * net). Over two nodes each node is the root of one tree and the leaf
     * of the other and its NICs carry S per direction, so the network term
     * doubles (NCCL's search counts half the NIC bandwidth per GPU for the
     * balanced tree, v2.23.4-1 src/graph/search.cc ncclTopoSearchRecGpu; its tuning
     * takes bwIntra for nNodes <= 2, tuning.cc ncclTopoTuneModel). The
     * chain inside the node (each GPU forwards S up and S down) still
     * bounds it. */
    double b_tree = s->m == 2 ? fmin(s->b_intra, 2.0 * s->b_net_node) : s->b_bus;
    double bw = fmin(b_tree * p->tree_simple_frac, p->channels * p->per_ch_tree_bw[s->gen][s->ncls]);
    if (pr == CS_COLL_PROTO_LL)
        bw = fmin(bw * p->tree_ll_frac, p->ll_max_bw[s->m > 1 ? 0 : s->gen][s->ncls]);
    else if (pr == CS_COLL_PROTO_LL128)
        bw = fmin(bw * (s->m == 1 ? p->ll128_tree_frac_1node : p->tree_bw_frac),
                  p->channels * p->per_ch_tree_ll128_bw[s->gen][s->ncls]);
    bw *= tree_corr(p, bytes, pr);
    if (s->amd && s->m > 1) /* RCCL tuning_model_5 bwRatio, tree */
        bw *= p->rccl_tree_bw_ratio[s->m > 2][pr];
    double intra = intra_lat(p, s, true, pr), inter = inter_lat(p, s, true, pr);
    double lat = base_lat(p, s, true, pr) + 2.0 * ((s->ppn - 1) * intra + log2i(s->m) * inter);
    return lat + bytes / (0.5 * bw);
}

/* Hierarchical, phases one after the other, Simple protocol (the flow model
 * simulates the same phases): all_reduce = intra reduce-scatter + inter-node
 * ring all-reduce of S/ppn by ppn parallel rings + intra all-gather. */
static double hier_time(const struct cs_coll_params *p, const struct shape *s, enum cs_coll_op op, double bytes)
{
    const int pr = CS_COLL_PROTO_SIMPLE;
    int ppn = s->ppn, m = s->m;
    double hi = intra_lat(p, s, false, pr), hn = inter_lat(p, s, false, pr);
    double intra_one = (double)(ppn - 1) / ppn * bytes / s->b_intra; /* one RS or AG phase */
    double t = base_lat(p, s, false, pr);
    if (op == CS_COLL_ALL_REDUCE) {
        t += 2 * (ppn - 1) * hi + 2.0 * intra_one;
        if (m > 1)
            t += 2 * (m - 1) * hn + 2.0 * (m - 1) / m * bytes / s->b_net_node;
    } else { /* all_gather / reduce_scatter: S is the total buffer */
        t += (ppn - 1) * hi + intra_one;
        if (m > 1)
            t += (m - 1) * hn + (double)(m - 1) / m * bytes / s->b_net_node;
    }
    return t;
}

/* NCCL's NVLS chunk for a buffer (src/enqueue.cc, the NVLS branch of the
 * chunk-size choice, unregistered buffers): nvlsChunkSize, cut to 64 KiB
 * under 64 rounds of one chunk per channel and head, then to 32 KiB under 8
 * rounds and 16 KiB under 2 (each test on the chunk so far). One head per
 * GPU of the NVLink domain (connect.cc connectNvls: nHeads NVLS heads per
 * channel), so on 8 H100 (16 channels) 128 KiB from 1 GiB, 64 KiB from 64
 * MiB, 32 KiB from 8 MiB. */
double cs_coll_nvls_chunk_bytes(const struct cs_coll_params *p, int channels, int heads, double bytes)
{
    double ops = (double)channels * heads;
    double c = p->nvls_chunk_bytes;
    if (bytes < 64.0 * ops * c && c > 65536.0)
        c = 65536.0;
    if (bytes < 8.0 * ops * c && c > 32768.0)
        c = 32768.0;
    if (bytes < 2.0 * ops * c && c > 16384.0)
        c = 16384.0;
    return c;
}

/* NVLink SHARP inside one node. all_reduce: each GPU pushes its S through
 * the switch (which reduces) and receives its reduced 1/n, then multicasts
 * it: S (1 + 1/n) per direction per GPU. all_gather / reduce_scatter: each
 * GPU receives (or sends) the (n-1)/n S of the others once, the switch
 * multicasting (or reducing). Latency: hwLat NVLink NVLS. Each chunk (above)
 * costs nvls_chunk_cost_s more, k = that time x the NVLS rate in bytes,
 * with nvls_efficiency holding at the full chunk (NCCL's nvlsEfficiency is
 * its large-buffer rate), so a smaller chunk runs at (1 + k/cmax) /
 * (1 + k/c) of it. A fixed time, not fixed bytes: a per-chunk step's
 * synchronization does not shorten when the links are faster (Blackwell's
 * k is 1.7x Hopper's). */
static double nvls_time(const struct cs_coll_params *p, const struct shape *s, enum cs_coll_op op, double bytes)
{
    double vol = op == CS_COLL_ALL_REDUCE ? bytes * (1.0 + 1.0 / s->n) : bytes * (s->n - 1.0) / s->n;
    double c = cs_coll_nvls_chunk_bytes(p, s->nvls_channels, s->n, bytes);
    double k = p->nvls_chunk_cost_s * s->b_intra * s->nvls_eff;
    double chunking = (1.0 + k / c) / (1.0 + k / p->nvls_chunk_bytes);
    return p->nvls_lat_s + vol / (s->b_intra * s->nvls_eff) * chunking;
}

/* NVLSTree all_reduce (NCCL 2.2x, multi-node NVLink SHARP): reduce inside
 * each node through the switch, a tree across nodes over the NICs, and a
 * multicast back. Latency: intra NVLSTree + 2 log2(m) inter; bandwidth:
 * the slower of the node's NVLS rate and its NICs (all of them, one tree
 * head per NIC), halved beyond two nodes (tuning.cc: bwInter / 2), with the
 * tree's medium-size correction. */
static double nvls_tree_time(const struct cs_coll_params *p, const struct shape *s, double bytes)
{
    const int pr = CS_COLL_PROTO_SIMPLE;
    double b_nvls = s->b_intra * s->nvls_eff / (1.0 + 1.0 / s->ppn);
    double b_net = s->m <= 2 ? s->b_net_node : s->b_net_node / 2.0;
    double bw = fmin(b_nvls, b_net) * tree_corr(p, bytes, pr);
    double lat = p->nvls_tree_intra_lat_s +
                 2.0 * log2i(s->m) * (p->nvls_tree_net_lat_s + 2.0 * s->xport_s) * p->net_lat_scale;
    return lat + bytes / bw;
}

/* In-network (SHARP) all-reduce, NCCL CollNet Direct: intra reduce-scatter
 * and all-gather pipelined with the switches' reduction; a node's NICs carry
 * S up and S down, half of the ring's 2(m-1)/m S. all_gather /
 * reduce_scatter (2.2x, one GPU per NIC): the node's NICs carry S at
 * NCCL's measured fraction, interpolated between 1 and 8 GPUs per node. */
static double sharp_time(const struct cs_coll_params *p, const struct shape *s, enum cs_coll_op op, double bytes)
{
    double net_lat = (p->collnet_direct_net_lat_s + 2.0 * s->xport_s) * p->net_lat_scale;
    double lat = 2.0 * (fmin(1.0, s->ppn - 1.0) * p->collnet_direct_intra_lat_s +
                        (s->ppn - 1.0) * p->collnet_arity_lat_s) + net_lat;
    if (op == CS_COLL_ALL_GATHER || op == CS_COLL_REDUCE_SCATTER) {
        double w = (s->ppn - 1.0) / 7.0;
        if (w > 1.0)
            w = 1.0;
        double frac = w * p->collnet_ag_frac_8ppn + (1.0 - w) * p->collnet_ag_frac_1ppn;
        double t_intra = (double)(s->ppn - 1) / s->ppn * bytes / s->b_intra;
        return lat + fmax(t_intra, bytes / (s->b_net_node * frac));
    }
    double t_intra = 2.0 * (s->ppn - 1) / s->ppn * bytes / s->b_intra;
    double eff = p->sharp_efficiency * (s->gen >= 2 ? p->collnet_hopper_frac : 1.0);
    double t_net = bytes / (s->b_net_node * eff);
    return lat + fmax(t_intra, t_net);
}

/* CollNet Chain all_reduce: a chain through the node's GPUs to one NIC
 * head, the switch reduces across nodes; busbw min(intra, net), algbw half
 * of it (tuning.cc ratio .5). */
static double collnet_chain_time(const struct cs_coll_params *p, const struct shape *s, double bytes)
{
    double lat = 2.0 * (s->ppn - 1) * p->collnet_chain_intra_lat_s +
                 (p->collnet_chain_net_lat_s + 2.0 * s->xport_s) * p->net_lat_scale;
    return lat + bytes / (0.5 * s->b_bus * p->sharp_efficiency);
}

/* PAT (parallel aggregated trees, NCCL 2.23) all_gather / reduce_scatter
 * with one GPU per node: latency 8 us + log2(m) inter / 3.5 + n x 2.8 us;
 * bandwidth 0.85 of the ring's bus bandwidth. */
static double pat_time(const struct cs_coll_params *p, const struct shape *s, double bytes)
{
    double inter = inter_lat(p, s, true, CS_COLL_PROTO_SIMPLE);
    double lat = p->pat_base_lat_s + log2i(s->m) * inter / p->pat_net_lat_div + s->n * p->pat_rank_lat_s;
    return lat + (double)(s->n - 1) / s->n * bytes / (s->b_bus * p->pat_bw_frac);
}

int cs_coll_p2p_comm_channels(const struct cs_coll_params *p, int gen, int nics, double nic_bw)
{
    if (!p || p->p2p_channels < 1)
        return 0;
    if (nics < 1 || !(nic_bw > 0) || !isfinite(nic_bw))
        return p->p2p_channels;
    /* search.cc: the inter-node ring search runs one channel through each
     * NIC at the fastest speed of its table the NIC carries (speedArrayInter
     * and sm90SpeedArrayInter both start 48, 30 / 45 ..., 24, ..., 12 GB/s) */
    static const double speeds[] = {48.0, 45.0, 42.0, 40.0, 30.0, 28.0, 24.0, 22.0, 20.0, 18.0,
                                    17.5, 15.0, 12.0, 10.0, 9.0, 7.0, 6.0, 5.0, 4.0, 3.0};
    double gbs = nic_bw / 1e9, bw = 2.4;
    for (size_t i = 0; i < sizeof speeds / sizeof speeds[0]; i++)
        if (speeds[i] <= gbs) {
            bw = speeds[i];
            break;
        }
    int ch = nics < 32 ? nics : 32;
    /* ncclTopoDupChannels: doubled when bwIntra >= 25, except on compute
     * capability > 80 (Hopper, Blackwell) below 50 GB/s with more than 4 */
    bool dup = bw >= 25.0 && !(gen >= 2 && bw < 50.0 && ch > 4);
    if (dup)
        ch *= 2;
    ch *= 2;   /* connect.cc ncclTopoPostset: "Duplication should be complete now" */
    if (ch > 64)
        ch = 64;   /* MAXCHANNELS */
    int total = 1;
    while (total < ch)
        total *= 2;   /* paths.cc: pow2Up */
    return total;
}

static int p2p_ctas_n(const struct cs_coll_params *p, int total, int ranks, int peers, bool several_domains,
                      int per_peer_max, double bytes_per_peer)
{
    if (!p || ranks < 2 || peers < 1 || peers >= ranks || per_peer_max < 1 || total < 1 ||
        !(bytes_per_peer >= 0) || !isfinite(bytes_per_peer))
        return 0;
    int max = per_peer_max < total ? per_peer_max : total;
    int min = max;
    while (min > 1 && (long)min * ranks > total)
        min /= 2;
    double chunk = several_domains ? p->p2p_net_chunk_bytes : p->p2p_nvl_chunk_bytes;
    double min_part = several_domains ? chunk / 2 : chunk / 8, max_part = several_domains ? chunk : chunk * 32;
    double want = ceil(bytes_per_peer / min_part);
    int nch = want < min ? (want < 1 ? 1 : (int)want) : min;
    double part = fmax(min_part, ceil(bytes_per_peer / nch));
    while (part > max_part && nch <= max / 2) {
        nch *= 2;
        part = ceil(bytes_per_peer / nch);
    }
    long ctas = (long)peers * nch;
    return ctas < total ? (int)ctas : total;
}

int cs_coll_p2p_ctas(const struct cs_coll_params *p, int ranks, int peers, bool several_domains, int per_peer_max,
                     double bytes_per_peer)
{
    return p ? p2p_ctas_n(p, p->p2p_channels, ranks, peers, several_domains, per_peer_max, bytes_per_peer) : 0;
}

/* The cap of cs_coll_p2p_rate_bps for a resolved shape. */
static double p2p_rate(const struct cs_coll_params *p, const struct shape *s, int peers, double bytes_per_peer)
{
    if (!(s->p2p_ch_bw > 0) || s->ppn <= 1)
        return INFINITY;
    /* s->m counts NVLink domains once they are merged above (NCCL's nNodes:
     * its "nodes" are the ring search's NVLink domains, a whole NVL72 rack
     * being one) */
    int ctas = p2p_ctas_n(p, s->p2p_total, s->n, peers, s->m > 1, s->p2p_per_peer, bytes_per_peer);
    return ctas > 0 ? ctas * s->p2p_ch_bw : INFINITY;
}

double cs_coll_p2p_rate_bps(const struct cs_cluster_cfg *c, const struct cs_coll_params *p,
                            const struct cs_coll_group *g, int peers, double bytes_per_peer)
{
    struct shape s;
    if (!c || !p || !g || shape_init(c, p, g, &s) != 0)
        return NAN;
    return p2p_rate(p, &s, peers, bytes_per_peer);
}

static double alltoall_time(const struct cs_coll_params *p, const struct shape *s, double bytes)
{
    const int pr = CS_COLL_PROTO_SIMPLE;
    double lat = base_lat(p, s, false, pr) + intra_lat(p, s, false, pr);
    double t_intra = (double)(s->ppn - 1) / s->n * bytes / s->b_intra, t_net = 0.0;
    if (s->m > 1) {
        lat += inter_lat(p, s, false, pr);
        t_net = (double)s->ppn * (s->n - s->ppn) / s->n * bytes / s->b_net_node;
        if (s->a2a_k > 1) {
            /* Hierarchical dispatch (docs/moe.md): the network carries each
             * token once per distinct remote node, m (1 - (1 - 1/m)^k) / k of
             * the copies, over the m scale-out nodes (an NVLink domain is
             * one); the receiving GPU forwards the copies for its node's
             * other ppn - 1 GPUs over NVLink, on top of the local ones. */
            int reach = s->a2a_nodes > 0 && s->a2a_nodes < s->m ? s->a2a_nodes : s->m;
            t_net *= cs_moe_dispatch_dedup(reach, s->a2a_k);
            t_intra += (double)(s->n - s->ppn) / s->n * (s->ppn - 1.0) / s->ppn * bytes / s->b_intra;
        }
    }
    if (s->a2a_k > 1) {
        /* DeepEP and HybridEP also send a token once per destination GPU,
         * not once per expert (the receiving GPU copies it to its local
         * experts): NVLink carries D / k of the copies, D = N (1 - (1 -
         * 1/N)^k) the distinct GPUs among the N = reach x ppn a token can
         * reach */
        int reach = s->m > 1 && s->a2a_nodes > 0 && s->a2a_nodes < s->m ? s->a2a_nodes : s->m;
        t_intra *= cs_moe_dispatch_dedup(reach * s->ppn, s->a2a_k);
    }
    if (s->a2a_k <= 1) {
        /* NCCL's all-to-all (ncclSend/ncclRecv to every peer): the CTAs in
         * use, each at one channel's NVLink rate, carry all (n - 1) / n of
         * the bytes (DeepEP and HybridEP run their own kernels: not here) */
        double r = p2p_rate(p, s, s->n - 1, bytes / s->n);
        if (isfinite(r))
            t_intra = fmax(t_intra, (double)(s->n - 1) / s->n * bytes / r);
    }
    return lat + fmax(t_intra, t_net);
}

/* NCCL's P2P_LL_THRESHOLD (enqueue.cc): LL up to this many bytes a channel */
#define P2P_LL_THRESHOLD_BYTES 16384.0

/* nccl-tests sendrecv: rank i sends S to i+1; the pairs that cross nodes go
 * through one GPU's rail NIC(s). */
static double sendrecv_time(const struct cs_coll_params *p, const struct shape *s, double bytes, int pr)
{
    /* the pairs inside an NVLink domain run on the p2p engine's channels
     * for one peer (cs_coll_p2p_ctas), each at one channel's NVLink rate
     * (with one rank per domain every pair crosses the network, whose
     * channels NCCL sizes to the NIC: paths.cc, 14 GB/s each) */
    /* NCCL's p2p engine runs two protocols (enqueue.cc addP2pToPlan): LL
     * while the bytes fit P2P_LL_THRESHOLD (16 KiB) per channel, Simple
     * otherwise; never LL128 */
    if (pr == CS_COLL_PROTO_LL128)
        return INFINITY;
    if (pr == CS_COLL_PROTO_LL) {
        int lch = p2p_ctas_n(p, s->p2p_total, s->n, 1, s->m > 1, s->p2p_per_peer, bytes);
        if (bytes > (lch > 0 ? lch : 1) * P2P_LL_THRESHOLD_BYTES)
            return INFINITY;
    }
    double b_nvl = fmin(s->b_intra, p2p_rate(p, s, 1, bytes));
    double bw = s->m > 1 ? fmin(b_nvl, s->b_net_gpu) : b_nvl;
    if (s->m > 1 && !s->amd && p->p2p_net_ch_bw > 0) {
        /* the pair that crosses the network: its channels (the comm's per
         * peer, cs_coll_p2p_ctas) each carry what NCCL sizes a network p2p
         * channel for, P2P_PER_CHANNEL_NET_BW (paths.cc, 14 GB/s) */
        int ch = p2p_ctas_n(p, s->p2p_total, s->n, 1, true, s->p2p_per_peer, bytes);
        if (ch > 0)
            bw = fmin(bw, ch * p->p2p_net_ch_bw);
    }
    if (pr == CS_COLL_PROTO_LL)
        bw *= s->amd ? p->rccl_ll_bw_ratio : p->ll_bw_frac_other;
    /* One message, not a ring's chain of steps: NCCL's own per-hop figure
     * and the transport's latency (twice for Simple, data and flush), not
     * net_lat_scale, which was fitted on the ring and tree collectives'
     * inter-node steps */
    double hop = s->m > 1 ? inter_lat(p, s, false, pr) / (s->amd ? 1.0 : p->net_lat_scale)
                          : intra_lat(p, s, false, pr);
    return base_lat(p, s, false, pr) + hop + bytes / bw;
}

static bool algo_available(const struct cs_cluster_cfg *c, const struct shape *s, enum cs_coll_op op,
                           enum cs_coll_algo a)
{
    bool agrs = op == CS_COLL_ALL_GATHER || op == CS_COLL_REDUCE_SCATTER;
    switch (a) {
    case CS_COLL_RING: return true;
    case CS_COLL_TREE: return op == CS_COLL_ALL_REDUCE;
    case CS_COLL_HIER: return op == CS_COLL_ALL_REDUCE || agrs;
    case CS_COLL_NVLS:
        /* The config loader sets intra.nvls or gpu.nvls, whichever its
         * catalog entry carries; either means the NVSwitch reduces. Across
         * nodes NCCL runs NVLS only with CollNet (tuning.cc). */
        return (op == CS_COLL_ALL_REDUCE || agrs) && s->m == 1 && s->nvls;
    case CS_COLL_NVLS_TREE: return op == CS_COLL_ALL_REDUCE && s->m > 1 && s->nvls;
    case CS_COLL_SHARP:
        /* CollNet Direct: NVSwitch nodes; all_gather / reduce_scatter need
         * one NIC per GPU (tuning.cc: ppn > nicPerNode disables). */
        if (!(s->m > 1 && c->fabric.in_network_reduction))
            return false;
        if (agrs)
            return s->ppn <= s->nics;
        return op == CS_COLL_ALL_REDUCE;
    case CS_COLL_COLLNET_CHAIN: return op == CS_COLL_ALL_REDUCE && s->m > 1 && c->fabric.in_network_reduction;
    case CS_COLL_PAT: return agrs && s->m > 1 && s->ppn == 1 && !s->amd;
    default: return false;
    }
}

/* Device time of one (algorithm, protocol) pair, or INFINITY if the pair does
 * not exist for this op. */
static double algo_proto_time(const struct cs_coll_params *p, const struct shape *s, enum cs_coll_op op,
                              double bytes, enum cs_coll_algo a, int pr)
{
    if (!proto_allowed(s, pr))
        return INFINITY;
    bool simple = pr == CS_COLL_PROTO_SIMPLE;
    switch (a) {
    case CS_COLL_RING:
        if (op == CS_COLL_ALLTOALL)
            return simple ? alltoall_time(p, s, bytes) : INFINITY;
        if (op == CS_COLL_SENDRECV)
            return sendrecv_time(p, s, bytes, pr);
        return ring_time(p, s, op, bytes, pr);
    case CS_COLL_TREE: /* RCCL's LL128 here: the ring only (one node) */
        return s->amd && pr == CS_COLL_PROTO_LL128 ? INFINITY : tree_time(p, s, bytes, pr);
    case CS_COLL_HIER: return simple ? hier_time(p, s, op, bytes) : INFINITY;
    case CS_COLL_NVLS: return simple ? nvls_time(p, s, op, bytes) : INFINITY;
    case CS_COLL_NVLS_TREE: return simple ? nvls_tree_time(p, s, bytes) : INFINITY;
    case CS_COLL_SHARP: return simple ? sharp_time(p, s, op, bytes) : INFINITY;
    case CS_COLL_COLLNET_CHAIN: return simple ? collnet_chain_time(p, s, bytes) : INFINITY;
    case CS_COLL_PAT: return simple ? pat_time(p, s, bytes) : INFINITY;
    default: return INFINITY;
    }
}

cs_status cs_coll_time_ex(const struct cs_cluster_cfg *c, const struct cs_coll_params *p, enum cs_coll_op op,
                          double bytes, const struct cs_coll_group *g, enum cs_coll_algo algo, double *time_s,
                          enum cs_coll_algo *chosen, enum cs_coll_proto *proto)
{
    struct shape s;
    if (!time_s || (unsigned)op >= CS_COLL_OP_COUNT || (unsigned)algo >= CS_COLL_ALGO_COUNT || !(bytes >= 0) ||
        shape_init(c, p, g, &s) != 0)
        return CS_EINVAL;
    enum cs_coll_algo best_a = algo == CS_COLL_AUTO ? CS_COLL_RING : algo;
    if (algo == CS_COLL_HIER && s.m == 1)
        best_a = CS_COLL_RING; /* one node: hierarchical is the intra-node ring */
    enum cs_coll_proto best_p = CS_COLL_PROTO_SIMPLE;
    if (s.n == 1 || bytes == 0) {
        if (chosen)
            *chosen = best_a;
        if (proto)
            *proto = best_p;
        *time_s = 0.0;
        return CS_OK;
    }
    if (!algo_available(c, &s, op, best_a))
        return CS_EUNSUPPORTED;
    double best = INFINITY;
    for (int a = CS_COLL_RING; a < CS_COLL_ALGO_COUNT; a++) {
        if (algo == CS_COLL_AUTO ? (a == CS_COLL_HIER || !algo_available(c, &s, op, (enum cs_coll_algo)a) ||
                                    (p->algo_mask && !(p->algo_mask & (1u << a))))
                                 : a != (int)best_a)
            continue;
        for (int pr = 0; pr < CS_COLL_PROTO_COUNT; pr++) {
            if (p->proto_mask && !(p->proto_mask & (1u << pr)))
                continue; /* NCCL_PROTO leaves it out */
            double t = algo_proto_time(p, &s, op, bytes, (enum cs_coll_algo)a, pr);
            if (t < best) {
                best = t;
                best_a = (enum cs_coll_algo)a;
                best_p = (enum cs_coll_proto)pr;
            }
        }
    }
    if (!isfinite(best))
        return CS_ERANGE;
    if (chosen)
        *chosen = best_a;
    if (proto)
        *proto = best_p;
    *time_s = cs_coll_launch_bound_s(p, best);
    return CS_OK;
}

double cs_coll_launch_bound_s(const struct cs_coll_params *p, double device_s)
{
    /* nccl-tests times back-to-back calls: host launches overlap device work,
     * so one call costs about the larger of the two; a smooth maximum
     * (p-norm, exponent launch_overlap_exp) models the imperfect overlap
     * where both are close. */
    double k = p->launch_overlap_exp > 0 ? p->launch_overlap_exp : 4.0;
    double lo = fmin(device_s, p->launch_floor_s), hi = fmax(device_s, p->launch_floor_s);
    if (!(hi > 0))
        return 0.0;
    return hi * pow(1.0 + pow(lo / hi, k), 1.0 / k);
}

cs_status cs_coll_time(const struct cs_cluster_cfg *c, enum cs_coll_op op, double bytes,
                       const struct cs_coll_group *g, enum cs_coll_algo algo, double *time_s,
                       enum cs_coll_algo *chosen)
{
    struct cs_coll_params p;
    cs_coll_params_default(&p);
    return cs_coll_time_ex(c, &p, op, bytes, g, algo, time_s, chosen, NULL);
}
