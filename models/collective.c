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

#include <math.h>
#include <string.h>

const char *const cs_coll_op_names[CS_COLL_OP_COUNT + 1] = {"all_reduce", "all_gather", "reduce_scatter",
                                                            "alltoall",   "broadcast",  "sendrecv", NULL};
const char *const cs_coll_algo_names[CS_COLL_ALGO_COUNT + 1] = {"auto", "ring", "tree", "hier", "nvls", "sharp", NULL};
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
    /* NCCL 2.12 src/graph/tuning.cc baseLat and hwLat (microseconds). */
    const double ring_base[3] = {6.6, 14.0, 8.4}, tree_base[3] = {6.8, 14.0, 0.0};
    const double ring_hop[3][3] = {{0.47, 1.9, 3.4}, {1.0, 2.5, 5.7}, {2.7, 4.0, 9.6}};
    const double tree_hop[3][3] = {{0.52, 1.2, 28.0}, {1.0, 1.9, 28.0}, {5.0, 8.5, 50.0}};
    for (int pr = 0; pr < CS_COLL_PROTO_COUNT; pr++) {
        p->ring_base_lat_s[pr] = ring_base[pr] * 1e-6;
        p->tree_base_lat_s[pr] = tree_base[pr] * 1e-6;
        for (int h = 0; h < CS_COLL_HW_COUNT; h++) {
            p->ring_hop_lat_s[h][pr] = ring_hop[h][pr] * 1e-6;
            p->tree_hop_lat_s[h][pr] = tree_hop[h][pr] * 1e-6;
        }
    }
    p->ring_plateau = 1.9;              /* tuning.cc "Plateau effect of ring" */
    p->ll_bw_frac_allreduce = 1.0 / 4.0;
    p->ll_bw_frac_other = 1.0 / 3.0;
    p->ll128_bw_frac = 0.92;            /* ~120/128 */
    p->tree_bw_frac = 0.9;
    p->tree_ll_frac = 1.0 / 3.8;
    p->tree_max_bus_bw_2node = 110e9;
    p->tree_max_bus_bw = 80e9;
    p->nvswitch_efficiency = 0.80;      /* fitted: nccl-tests ring busbw / NVLink rate (A100 0.77, H100 0.82) */
    p->pcie_efficiency = 0.80;
    p->pcie_bridges_per_node = 2;
    p->net_efficiency = 0.92;           /* fitted: 2-node A100 ring busbw 183 GB/s / 8 x 25 GB/s */
    p->nvls_efficiency = 0.85;          /* fitted: H100 NVLS algbw 276 GB/s vs 360/(1+1/8) */
    p->nvls_lat_s = 40e-6;
    p->sharp_efficiency = 0.9;          /* NCCL CollNet busBw x 0.9 */
    p->sharp_lat_s = 10.7e-6;           /* NCCL hwLat NET CollNet Simple */
    p->launch_floor_s = 35e-6;          /* nccl-tests floor at 8 B (H100 logs, 8 GPUs from one thread) */
    p->launch_overlap_exp = 4.0;        /* fitted: sharpness of max(launch, device) */
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
    double b_intra;    /* per GPU, B/s */
    double b_net_node; /* the group's share of one node's NICs, B/s */
    double b_net_gpu;  /* one GPU's rail NIC(s), its share, B/s */
    double b_bus;      /* ring bus bandwidth: min(intra, net) */
    double hop_s;      /* switch hops x hop latency of the longest inter-node path */
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
    s->hw = cv.intra_pcie ? CS_COLL_HW_PCI : CS_COLL_HW_NVLINK;
    s->b_intra = intra_bw_shared(&cv, s->ppn, s->gpn);
    if (!(s->b_intra > 0))
        return -1;
    s->b_bus = s->b_intra;
    s->b_net_node = s->b_net_gpu = INFINITY;
    s->hop_s = 0.0;
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
        s->b_net_node = usable * nic_bw * v.bw_share;
        s->b_net_gpu = s->b_net_node / s->ppn;
        s->b_bus = fmin(s->b_intra, s->b_net_node);
        s->hop_s = v.hops * cv.hop_latency_s;
    }
    return 0;
}

static bool proto_allowed(const struct shape *s, int pr)
{
    /* LL128 relies on NVLink's 128-byte store atomicity; NCCL enables it by
     * default only on NVLink paths (tuning.cc protoEnable). */
    if (pr == CS_COLL_PROTO_LL128)
        return s->m == 1 && s->hw == CS_COLL_HW_NVLINK;
    return true;
}

/* Ring reduce-scatter / all-gather / all-reduce / broadcast (tuning.cc ring). */
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
    if (pr == CS_COLL_PROTO_LL)
        bw *= (m > 1 || op == CS_COLL_ALL_REDUCE) ? p->ll_bw_frac_allreduce : p->ll_bw_frac_other;
    else if (pr == CS_COLL_PROTO_LL128)
        bw *= p->ll128_bw_frac;
    double intra = p->ring_hop_lat_s[s->hw][pr], inter = p->ring_hop_lat_s[CS_COLL_HW_NET][pr];
    if (m > 1 && pr == CS_COLL_PROTO_LL)
        intra *= 1.8;
    double lat = p->ring_base_lat_s[pr] + (nsteps - ninter) * intra + ninter * inter;
    if (op == CS_COLL_ALL_REDUCE && pr == CS_COLL_PROTO_SIMPLE && m > 1 && bytes >= n / 16.0 * 65536.0)
        lat *= p->ring_plateau;
    /* Switch hops beyond NCCL's per-step network latency (which assumes
     * one): each inter-node step waits for its longest path. */
    lat += ninter * s->hop_s;
    return lat + wire * bytes / bw;
}

/* Double binary tree all-reduce (Sanders et al. 2009, NCCL 2.4): intra-node
 * chain, inter-node trees of depth log2(m); algbw = busbw / 2. */
static double tree_time(const struct cs_coll_params *p, const struct shape *s, double bytes, int pr)
{
    double bw = fmin(s->b_bus * p->tree_bw_frac, s->m > 2 ? p->tree_max_bus_bw : p->tree_max_bus_bw_2node);
    if (pr == CS_COLL_PROTO_LL)
        bw *= p->tree_ll_frac;
    else if (pr == CS_COLL_PROTO_LL128)
        bw *= s->m == 1 ? 7.0 / 9.0 : 0.915;
    double intra = p->tree_hop_lat_s[s->hw][pr], inter = p->tree_hop_lat_s[CS_COLL_HW_NET][pr];
    if (s->m > 1 && pr == CS_COLL_PROTO_LL)
        intra *= 1.8;
    double lat = p->tree_base_lat_s[pr] + 2.0 * ((s->ppn - 1) * intra + log2i(s->m) * (inter + s->hop_s));
    return lat + bytes / (0.5 * bw);
}

/* Hierarchical, phases one after the other, Simple protocol (the flow model
 * simulates the same phases): all_reduce = intra reduce-scatter + inter-node
 * ring all-reduce of S/ppn by ppn parallel rings + intra all-gather. */
static double hier_time(const struct cs_coll_params *p, const struct shape *s, enum cs_coll_op op, double bytes)
{
    const int pr = CS_COLL_PROTO_SIMPLE;
    int ppn = s->ppn, m = s->m;
    double hi = p->ring_hop_lat_s[s->hw][pr], hn = p->ring_hop_lat_s[CS_COLL_HW_NET][pr];
    double intra_one = (double)(ppn - 1) / ppn * bytes / s->b_intra; /* one RS or AG phase */
    double t = p->ring_base_lat_s[pr];
    if (op == CS_COLL_ALL_REDUCE) {
        t += 2 * (ppn - 1) * hi + 2.0 * intra_one;
        if (m > 1)
            t += 2 * (m - 1) * (hn + s->hop_s) + 2.0 * (m - 1) / m * bytes / s->b_net_node;
    } else { /* all_gather / reduce_scatter: S is the total buffer */
        t += (ppn - 1) * hi + intra_one;
        if (m > 1)
            t += (m - 1) * (hn + s->hop_s) + (double)(m - 1) / m * bytes / s->b_net_node;
    }
    return t;
}

/* NVLink SHARP all-reduce: each GPU pushes its S through the switch (which
 * reduces) and receives its reduced 1/n, then multicasts it: S (1 + 1/n) per
 * direction per GPU. */
static double nvls_time(const struct cs_coll_params *p, const struct shape *s, double bytes)
{
    return p->nvls_lat_s + bytes * (1.0 + 1.0 / s->n) / (s->b_intra * p->nvls_efficiency);
}

/* In-network (SHARP) all-reduce, NCCL CollNet: intra reduce-scatter and
 * all-gather pipelined with the switches' reduction; a node's NICs carry S up
 * and S down, half of the ring's 2(m-1)/m S. */
static double sharp_time(const struct cs_coll_params *p, const struct shape *s, double bytes)
{
    const int pr = CS_COLL_PROTO_SIMPLE;
    double lat = p->ring_base_lat_s[pr] + 2 * (s->ppn - 1) * p->ring_hop_lat_s[s->hw][pr] + p->sharp_lat_s +
                 2.0 * s->hop_s;
    double t_intra = 2.0 * (s->ppn - 1) / s->ppn * bytes / s->b_intra;
    double t_net = bytes / (s->b_net_node * p->sharp_efficiency);
    return lat + fmax(t_intra, t_net);
}

static double alltoall_time(const struct cs_coll_params *p, const struct shape *s, double bytes)
{
    const int pr = CS_COLL_PROTO_SIMPLE;
    double lat = p->ring_base_lat_s[pr] + p->ring_hop_lat_s[s->hw][pr];
    double t_intra = (double)(s->ppn - 1) / s->n * bytes / s->b_intra, t_net = 0.0;
    if (s->m > 1) {
        lat += p->ring_hop_lat_s[CS_COLL_HW_NET][pr] + s->hop_s;
        t_net = (double)s->ppn * (s->n - s->ppn) / s->n * bytes / s->b_net_node;
    }
    return lat + fmax(t_intra, t_net);
}

/* nccl-tests sendrecv: rank i sends S to i+1; the pairs that cross nodes go
 * through one GPU's rail NIC(s). */
static double sendrecv_time(const struct cs_coll_params *p, const struct shape *s, double bytes, int pr)
{
    int h = s->m > 1 ? CS_COLL_HW_NET : s->hw;
    double bw = s->m > 1 ? fmin(s->b_intra, s->b_net_gpu) : s->b_intra;
    if (pr == CS_COLL_PROTO_LL)
        bw *= p->ll_bw_frac_other;
    else if (pr == CS_COLL_PROTO_LL128)
        bw *= p->ll128_bw_frac;
    return p->ring_base_lat_s[pr] + p->ring_hop_lat_s[h][pr] + s->hop_s + bytes / bw;
}

static bool algo_available(const struct cs_cluster_cfg *c, const struct shape *s, enum cs_coll_op op,
                           enum cs_coll_algo a)
{
    switch (a) {
    case CS_COLL_RING: return true;
    case CS_COLL_TREE: return op == CS_COLL_ALL_REDUCE;
    case CS_COLL_HIER:
        return op == CS_COLL_ALL_REDUCE || op == CS_COLL_ALL_GATHER || op == CS_COLL_REDUCE_SCATTER;
    case CS_COLL_NVLS:
        /* The config loader sets intra.nvls or gpu.nvls, whichever its
         * catalog entry carries; either means the NVSwitch reduces. */
        return op == CS_COLL_ALL_REDUCE && s->m == 1 && c->intra.kind == CS_INTRA_NVSWITCH &&
               (c->intra.nvls || c->gpu.nvls);
    case CS_COLL_SHARP: return op == CS_COLL_ALL_REDUCE && s->m > 1 && c->fabric.in_network_reduction;
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
    switch (a) {
    case CS_COLL_RING:
        if (op == CS_COLL_ALLTOALL)
            return pr == CS_COLL_PROTO_SIMPLE ? alltoall_time(p, s, bytes) : INFINITY;
        if (op == CS_COLL_SENDRECV)
            return sendrecv_time(p, s, bytes, pr);
        return ring_time(p, s, op, bytes, pr);
    case CS_COLL_TREE: return tree_time(p, s, bytes, pr);
    case CS_COLL_HIER: return pr == CS_COLL_PROTO_SIMPLE ? hier_time(p, s, op, bytes) : INFINITY;
    case CS_COLL_NVLS: return pr == CS_COLL_PROTO_SIMPLE ? nvls_time(p, s, bytes) : INFINITY;
    case CS_COLL_SHARP: return pr == CS_COLL_PROTO_SIMPLE ? sharp_time(p, s, bytes) : INFINITY;
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
        if (algo == CS_COLL_AUTO ? (a == CS_COLL_HIER || !algo_available(c, &s, op, (enum cs_coll_algo)a))
                                 : a != (int)best_a)
            continue;
        for (int pr = 0; pr < CS_COLL_PROTO_COUNT; pr++) {
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
