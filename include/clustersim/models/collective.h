/* collective.h: closed-form (alpha-beta) time of NCCL-style collectives on a
 * cluster without contention. The structure follows NCCL's tuning model
 * (src/graph/tuning.cc: a latency and a bus bandwidth per algorithm and
 * protocol, time = latency + bytes / algorithm bandwidth, the fastest pair
 * wins); the few physical parameters are in struct cs_coll_params and
 * docs/fabric.md. Sizes follow the nccl-tests convention (see
 * cs_coll_time). Pure functions: no allocation, no I/O, thread-safe. */
#ifndef CLUSTERSIM_COLLECTIVE_H
#define CLUSTERSIM_COLLECTIVE_H

#include "clustersim/models/scenario.h"
#include "clustersim/base/status.h"

enum cs_coll_op { CS_COLL_ALL_REDUCE, CS_COLL_ALL_GATHER, CS_COLL_REDUCE_SCATTER, CS_COLL_ALLTOALL,
                  CS_COLL_BROADCAST, CS_COLL_SENDRECV, CS_COLL_OP_COUNT };

/* AUTO picks the fastest available algorithm as NCCL 2.2x does (ring, tree,
 * NVLS on one node, NVLS_TREE = NVLink SHARP inside nodes and a tree across
 * them, SHARP = NCCL's CollNet Direct (all_reduce, all_gather,
 * reduce_scatter), COLLNET_CHAIN (all_reduce), PAT (all_gather and
 * reduce_scatter with one GPU per node)). HIER (intra-node reduce-scatter, inter-node exchange, intra-node
 * all-gather, run one after the other) is never picked by AUTO: NCCL has no
 * such algorithm; it is the textbook hierarchical scheme the flow model also
 * simulates. */
enum cs_coll_algo { CS_COLL_AUTO, CS_COLL_RING, CS_COLL_TREE, CS_COLL_HIER, CS_COLL_NVLS, CS_COLL_SHARP,
                    CS_COLL_NVLS_TREE, CS_COLL_COLLNET_CHAIN, CS_COLL_PAT, CS_COLL_ALGO_COUNT };

/* NCCL's three protocols: LL (8-byte lines, half data, flag per line), LL128
 * (128-byte lines, 120 bytes of data), Simple (bulk copies + fences). */
enum cs_coll_proto { CS_COLL_PROTO_LL, CS_COLL_PROTO_LL128, CS_COLL_PROTO_SIMPLE, CS_COLL_PROTO_COUNT };

/* "all_reduce", "all_gather", "reduce_scatter", "alltoall", "broadcast",
 * "sendrecv" (nccl-tests spelling); "?" for an invalid value. Static strings. */
const char *cs_coll_op_name(enum cs_coll_op op);
/* The op and algorithm names in enum order, NULL-terminated. */
extern const char *const cs_coll_op_names[];
extern const char *const cs_coll_algo_names[];
/* Parses the nccl-tests spelling (also accepts a trailing "_perf").
 * CS_EINVAL for NULL or unknown names; *out untouched on failure. */
cs_status cs_coll_op_parse(const char *s, enum cs_coll_op *out);
/* "auto", "ring", "tree", "hier", "nvls", "sharp", "nvls_tree",
 * "collnet_chain", "pat". */
const char *cs_coll_algo_name(enum cs_coll_algo a);
cs_status cs_coll_algo_parse(const char *s, enum cs_coll_algo *out);
/* "LL", "LL128", "Simple". */
const char *cs_coll_proto_name(enum cs_coll_proto p);

/* A communicator: `ranks` GPUs spread evenly over ranks/ranks_per_node nodes;
 * `groups_per_node` communicators of the same shape run the same collective
 * at once on each node and share its NICs (e.g. 8 data-parallel rings with
 * tp=8). ranks must be a multiple of ranks_per_node.
 *
 * Where the group sits on the fabric (docs/fabric.md, "Fabric-aware closed
 * form"): its nodes lie in rank order within `span_nodes` consecutive nodes
 * of the job (0 means ranks/ranks_per_node: adjacent nodes; a group whose
 * members are s nodes apart spans about (m-1) s + 1); the job has
 * `job_nodes` nodes (0: the whole cluster, as in `clustersim run`) placed as
 * the cluster's fabric.placement says. Together with the fabric's
 * geometry they give the leaves the group spans, the share of leaf uplink
 * bandwidth it gets and the switch hops of its longest path. Zero-filled
 * trailing fields keep the old three-field initialisers valid. */
struct cs_coll_group {
    int ranks;
    int ranks_per_node;
    int groups_per_node;
    int span_nodes;   /* 0: ranks / ranks_per_node */
    int job_nodes;    /* nodes of the job the group belongs to; 0: all of the cluster's */
    /* The share of the group's uncontended network bandwidth the flow model
     * gives it on the job's placement, with every instance of the group and
     * the neighbour jobs sending at once (netmodel.h); it replaces the
     * geometry's estimate (cs_coll_fabric_view's bw_share). 0: use the
     * geometry. */
    double net_share;
    /* A hierarchical all-to-all (DeepEP, HybridEP: the MoE dispatch and
     * combine of a token routed to a2a_top_k experts): a token crosses the
     * network once per destination node (a scale-out node, an NVLink
     * domain counting as one) and is copied to that node's expert GPUs
     * over NVLink. 0 or 1: a plain all-to-all. */
    int a2a_top_k;
    /* With a2a_top_k: the nodes one token can reach (group-limited routing,
     * cs_moe_reachable_nodes); 0: any of the group's. */
    int a2a_nodes;
};

/* How the group uses the fabric (cs_coll_fabric_view): switch hops of the
 * longest inter-node path (1 within a leaf, 3 across a spine or within a
 * pod, 5 across the core), the fraction of its inter-node traffic that leaves
 * a leaf, and the resulting share of the per-node network bandwidth (1 when
 * the leaf uplinks carry it all, up / (down x cross) when oversubscribed). */
struct cs_coll_fabric_view {
    int hops;
    int leaves;            /* leaf domains the group spans */
    double cross_frac;     /* of a leaf's inter-node traffic that crosses the spine */
    double bw_share;       /* in (0, 1] */
};

/* The model's few parameters (docs/fabric.md gives each one's source).
 * Latencies in seconds. Index [hw][proto] with hw 0 = NVLink, 1 = PCIe,
 * 2 = network, as NCCL's hwLat table. */
enum { CS_COLL_HW_NVLINK, CS_COLL_HW_PCI, CS_COLL_HW_NET, CS_COLL_HW_COUNT };
struct cs_coll_params {
    double ring_base_lat_s[CS_COLL_PROTO_COUNT];
    double tree_base_lat_s[CS_COLL_PROTO_COUNT];
    double ring_hop_lat_s[CS_COLL_HW_COUNT][CS_COLL_PROTO_COUNT];
    double tree_hop_lat_s[CS_COLL_HW_COUNT][CS_COLL_PROTO_COUNT];
    double ring_plateau;            /* multi-node Simple all_reduce latency factor */
    double ll_bw_frac_allreduce;    /* LL bandwidth fraction (all_reduce or multi-node) */
    double ll_bw_frac_other;        /* LL bandwidth fraction (other ops, one node) */
    double ll128_bw_frac;           /* LL128: 120 data bytes per 128-byte line, less overhead */
    double tree_bw_frac;            /* tree bus bandwidth fraction */
    double tree_ll_frac;            /* tree LL: extra factor */
    double tree_max_bus_bw_2node;   /* cap on tree bus bandwidth, <= 2 nodes, B/s */
    double tree_max_bus_bw;         /* cap on tree bus bandwidth, > 2 nodes, B/s */
    double nvswitch_efficiency;     /* used when intra.efficiency is NAN */
    double pcie_efficiency;         /* used when intra.efficiency is NAN (pcie) */
    int pcie_bridges_per_node;      /* host bridges (CPU sockets) GPU traffic crosses */
    double net_efficiency;          /* used when fabric.link.efficiency is NAN */
    double nvls_efficiency;         /* NVLink-SHARP: fraction of the link rate achieved */
    double nvls_lat_s;              /* NVLink-SHARP per-call latency */
    double sharp_efficiency;        /* in-network reduction: fraction of the NIC rate */
    double sharp_lat_s;             /* in-network reduction: switch tree latency per call */
    double launch_floor_s;          /* host launch time per call; time ~ max(launch, device) */
    double launch_overlap_exp;      /* smooth max: (launch^k + device^k)^(1/k) */
    /* NCCL 2.2x additions (src/graph/tuning.cc of v2.23.4, ncclTopoTuneModel;
     * docs/fabric.md section 1 gives each one's source). */
    double nvls_net_lat_s;          /* hwLat NET NVLS Simple */
    double nvls_tree_intra_lat_s;   /* hwLat NVLink NVLSTree Simple */
    double nvls_tree_net_lat_s;     /* hwLat NET NVLSTree Simple */
    double collnet_direct_intra_lat_s, collnet_direct_net_lat_s; /* hwLat CollNetDirect Simple */
    double collnet_chain_intra_lat_s, collnet_chain_net_lat_s;   /* hwLat CollNetChain Simple */
    double collnet_arity_lat_s;     /* CollNet Direct: per-GPU arity serialisation (0.4 us) */
    double net_overhead_s;          /* per ring step on a multi-node ring (getNetOverhead; x3 Simple) */
    double ll128_tree_frac_1node;   /* tree LL128 fraction on one node (7/9) */
    double tree_simple_frac;        /* tree all_reduce bus bandwidth fraction (0.92) */
    double pat_bw_frac;             /* PAT bus bandwidth fraction (0.85) */
    double pat_base_lat_s;          /* PAT: 8 us + log2(nodes) net/3.5 + ranks x 2.8 us */
    double pat_rank_lat_s;
    double pat_net_lat_div;
    double collnet_ag_frac_1ppn;    /* CollNet Direct all_gather/reduce_scatter at 1 and 8 GPUs per node */
    double collnet_ag_frac_8ppn;
    double collnet_hopper_frac;     /* CollNet Direct all_reduce on sm90+ (0.85) */
    double nvls_blackwell_ratio;    /* NVLS on Blackwell over Hopper: NCCL's nvlsEfficiency .74 / .85 */
    /* NVLS chunking inside one NVLink domain (NCCL src/enqueue.cc, the NVLS
     * branch of the chunk-size choice; src/transport/nvls.cc): the chunk
     * starts at nvlsChunkSize and is cut to 64, 32 and 16 KiB under 64, 8
     * and 2 rounds of one chunk per channel and head; each chunk costs a
     * fixed time more (fitted), so nvls_efficiency holds at the full chunk. */
    double nvls_chunk_bytes;        /* NCCL_NVLS_CHUNKSIZE default, 128 KiB */
    double nvls_chunk_cost_s;       /* fitted: one chunk's fixed cost, s (11 KiB at H100's NVLS rate) */
    int nvls_channels_hopper;       /* NVLS_NCHANNELS_SM90: 16 */
    int nvls_channels_blackwell;    /* NVLS_NCHANNELS_SM100_NVL (one NVLink domain): 24 */
    /* NCCL's point-to-point engine, which runs send/recv and all-to-all
     * (NVIDIA/nccl 5067397c: src/enqueue.cc addP2pToPlan and
     * scheduleP2pTasksToPlan, src/graph/paths.cc, src/init.cc
     * computeBuffSizes; docs/fabric.md "All-to-all channels"). Each peer's
     * bytes are split over a few channels (one CTA each); a channel moves
     * half of one NVLink's rate (NCCL sizes its p2p channels at two per
     * NVLink), so inside an NVLink domain the all-to-all is capped by the
     * channels in use before the links are full. */
    int p2p_channels;               /* p2pnChannels: pow2Up(2 x ring channels) = 32 on 8-GPU A100/H100/B200 */
    double p2p_nvl_chunk_bytes;     /* P2P_NVL_CHUNKSIZE, one host: 512 KiB */
    double p2p_net_chunk_bytes;     /* P2P_NET_CHUNKSIZE, several hosts: 128 KiB (x2 on Arm Blackwell) */
    double p2p_net_ch_bw;           /* P2P_PER_CHANNEL_NET_BW: 14 GB/s per channel to a network peer */
    double p2p_ch_bw[4];            /* one channel's rate over NVLink, B/s: SMxx_NVLINK_BW / 2
                                     * [Volta, Ampere, Hopper, Blackwell] */
    /* Per-channel caps (B/s) by generation [0 Volta, 1 Ampere, 2 Hopper,
     * 3 Blackwell] and node class [1 node, 2 nodes, more]; LL's cap is a
     * total (several nodes: row 0, Intel hosts). */
    double ll_max_bw[4][3];
    double per_ch_ring_ll128_bw[4][3];
    double per_ch_tree_ll128_bw[4][3];
    double per_ch_tree_bw[4][3];
    int channels;                   /* rings/trees NCCL builds (nChannels) */
    /* NCCL's treeCorrectionFactor [proto][log2(bytes / 64)], 64 B..256 MiB:
     * trees fall short of their model bandwidth at medium sizes. */
    double tree_corr[CS_COLL_PROTO_COUNT][23];
    /* RCCL (ROCm/rccl src/graph/tuning.cc, baseLat and tuning model 5, the
     * 8-GPU all-to-all xGMI platform of src/graph/rome_models.cc): */
    double rccl_base_lat_s[CS_COLL_PROTO_COUNT];
    double rccl_ring_hop_lat_s[CS_COLL_HW_COUNT][CS_COLL_PROTO_COUNT];
    double rccl_tree_hop_lat_s[CS_COLL_HW_COUNT][CS_COLL_PROTO_COUNT];
    double rccl_ll_bw_ratio;        /* bwRatio ring LL */
    double rccl_tree_bw_ratio[2][CS_COLL_PROTO_COUNT]; /* bwRatio tree, [2 nodes, more][proto] */
    double rccl_launch_floor_s;     /* host launch per call under RCCL/HIP */
    double net_lat_scale;           /* fitted: measured / NCCL-model inter-node step latency */
    /* What a run's NCCL_ALGO / NCCL_PROTO (and NCCL_NVLS_ENABLE=0) leave
     * CS_COLL_AUTO to choose from: bit (1u << algorithm) and bit (1u <<
     * protocol); 0 (the default) allows all. A forced algorithm ignores
     * algo_mask. */
    unsigned algo_mask;
    unsigned proto_mask;
};

/* Fills *p with the documented defaults (docs/fabric.md). */
void cs_coll_params_default(struct cs_coll_params *p);

/* Time in seconds of one collective of `bytes` in the nccl-tests convention
 * (all_reduce/broadcast/alltoall/sendrecv: per-rank buffer;
 * all_gather/reduce_scatter: the total buffer S) on cluster c without
 * contention, with the default parameters, stored in *time_s. algo AUTO
 * picks as NCCL would; *chosen (nullable) reports the choice. 0 s for one
 * rank or 0 bytes. Errors (*time_s, *chosen untouched): CS_EINVAL for an
 * invalid group or cluster (ranks not a multiple of ranks_per_node,
 * non-positive counts, several nodes without NICs or network bandwidth),
 * CS_EUNSUPPORTED for an algorithm the hardware lacks (NVLS without
 * intra.nvls or gpu.nvls, SHARP without fabric.in_network_reduction),
 * CS_ERANGE when no finite time results. */
cs_status cs_coll_time(const struct cs_cluster_cfg *c, enum cs_coll_op op, double bytes,
                       const struct cs_coll_group *g, enum cs_coll_algo algo, double *time_s,
                       enum cs_coll_algo *chosen);

/* As cs_coll_time with explicit parameters (borrowed) and the protocol
 * chosen reported in *proto (nullable). */
cs_status cs_coll_time_ex(const struct cs_cluster_cfg *c, const struct cs_coll_params *p, enum cs_coll_op op,
                          double bytes, const struct cs_coll_group *g, enum cs_coll_algo algo, double *time_s,
                          enum cs_coll_algo *chosen, enum cs_coll_proto *proto);

/* What nccl-tests measures for a collective whose device time is device_s:
 * back-to-back calls overlap the host launch with device work, so a call
 * costs about max(launch_floor_s, device_s), taken as the smooth maximum
 * (launch^k + device^k)^(1/k), k = launch_overlap_exp. Used by
 * cs_coll_time_ex and by `clustersim collective --flow`. */
double cs_coll_launch_bound_s(const struct cs_coll_params *p, double device_s);

/* nccl-tests bus-bandwidth factor: all_reduce 2(n-1)/n,
 * all_gather/reduce_scatter/alltoall (n-1)/n, broadcast/sendrecv 1. */
double cs_coll_busbw_factor(enum cs_coll_op op, int ranks);
/* NCCL's NVLS chunk in bytes for a buffer of `bytes` on `channels` NVLS
 * channels of `heads` heads each (one per GPU of the NVLink domain):
 * p->nvls_chunk_bytes cut to 64, 32, 16 KiB as src/enqueue.cc cuts it. */
double cs_coll_nvls_chunk_bytes(const struct cs_coll_params *p, int channels, int heads, double bytes);
/* CTAs (channels) NCCL's p2p engine keeps busy when each rank of a
 * `ranks`-rank communicator sends `bytes_per_peer` bytes to each of `peers`
 * peers (an all-to-all: ranks - 1; nccl-tests' sendrecv and a pipeline
 * send: 1) (src/enqueue.cc addP2pToPlan): per peer, at most
 * `per_peer_max` channels, starting from it halved until ranks x it fits
 * p2p_channels, one per minPart bytes, and doubled while a part exceeds
 * maxPart (one NVLink domain, NCCL's nNodes 1, an NVL72 rack included:
 * chunk / 8 and 32 x chunk of P2P_NVL_CHUNKSIZE; several domains: chunk / 2
 * and chunk of P2P_NET_CHUNKSIZE); the total over the peers, at most
 * p2p_channels. 0 on bad input. */
int cs_coll_p2p_ctas(const struct cs_coll_params *p, int ranks, int peers, bool several_domains, int per_peer_max,
                     double bytes_per_peer);
/* p2pnChannels of a communicator that spans NCCL nodes (NVLink domains) of
 * `nics` NICs at `nic_bw` B/s each (a merged NVL72 rack: all its trays'), on tuning-table generation `gen` (0
 * Volta, 1 Ampere, 2 Hopper, 3 Blackwell): the inter-node ring search's one
 * channel per NIC at the fastest speed of its table the NIC carries
 * (search.cc), doubled by ncclTopoDupChannels when that speed is >= 25 GB/s
 * unless the GPU is Hopper or later, the speed < 50 GB/s and there are more
 * than 4 channels, doubled again by ncclTopoPostset, at most 64, rounded
 * up to a power of 2 (paths.cc). 8 NICs of 400 Gb/s on H100 or B200: 16;
 * 4 EFA NICs of 100 Gb/s on A100: 8. p->p2p_channels without NICs; 0 on
 * bad input. */
int cs_coll_p2p_comm_channels(const struct cs_coll_params *p, int gen, int nics, double nic_bw);
/* What NCCL's p2p engine lets one GPU of group g send in all (B/s) when it
 * sends `bytes_per_peer` to each of `peers` peers: the CTAs of
 * cs_coll_p2p_ctas times one channel's NVLink rate, on NVIDIA GPUs whose
 * group has more than one rank per NVLink domain; INFINITY where the
 * engine sets no cap (AMD, PCIe, a rank per domain), NAN for a cluster or
 * group that does not resolve. The closed form's all-to-all and sendrecv
 * use the same cap; the flow model puts it on a per-GPU link. */
double cs_coll_p2p_rate_bps(const struct cs_cluster_cfg *c, const struct cs_coll_params *p,
                            const struct cs_coll_group *g, int peers, double bytes_per_peer);

/* Achievable scale-up bandwidth of one GPU, one direction (B/s), when
 * `gpus_sharing` GPUs of a node communicate at once (matters for PCIe only:
 * they share the host bridges), from the resolved cluster view (cluster.h);
 * 0 for a cluster that does not resolve. The flow model builds its
 * intra-node links from the same numbers. */
double cs_coll_intra_bw(const struct cs_cluster_cfg *c, const struct cs_coll_params *p, int gpus_sharing);

/* How group g of a job on cluster c uses the fabric (see the struct). A
 * one-node group gets {0 hops, 1 leaf, 0, 1}. Returns CS_EINVAL for a bad
 * group or cluster, CS_ERANGE when the cluster does not fit its topology;
 * *out untouched on failure. */
cs_status cs_coll_fabric_view(const struct cs_cluster_cfg *c, const struct cs_coll_group *g,
                              struct cs_coll_fabric_view *out);

#endif
