/* netmodel.h: the network model the step, and through it every command,
 * costs its collectives with (models/netmodel.c; docs/fabric.md section 3b).
 *
 * A cs_netmodel holds the cluster's fabric graph (topology.h), the job's
 * placement on it (fabric.placement, workload.gpus) and the neighbour jobs
 * that share the fabric. For a communicator of the job (its size and the
 * stride of its members in Megatron's rank order) it simulates one round of
 * the collective's inter-node traffic with the flow model (flow.h): every
 * instance of the communicator in the job sends at once (all DP rings of a
 * step reduce together), each ring crossing a node boundary on the rails of
 * its members as NCCL's channels do, routed on the topology (d-mod-k or
 * ECMP hashing) and sharing every link by max-min fairness with the other
 * instances and with the neighbours' traffic. The round's time against the
 * time the NIC ports alone would allow gives the communicator's *network
 * share*: the fraction of its uncontended per-node network bandwidth it
 * gets, which the closed form (collective.h, cs_coll_group.net_share)
 * applies to its bandwidth term. Where nothing contends the share is 1 and
 * the closed form is the flow model's answer exactly (the fast path).
 *
 * Shares are cached by (pattern, size, stride); the cache is guarded by a
 * mutex, so one model may serve the threads of a search. */
#ifndef CLUSTERSIM_MODELS_NETMODEL_H
#define CLUSTERSIM_MODELS_NETMODEL_H

#include "clustersim/base/status.h"
#include "clustersim/models/collective.h"
#include "clustersim/models/scenario.h"
#include "clustersim/models/topology.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct cs_netmodel cs_netmodel;

/* Traffic patterns of the step's communicators. RING: member i sends to
 * member i+1 and the last to the first (ring all-reduce, all-gather,
 * reduce-scatter; NCCL's trees and NVLS+tree move the same bytes per node
 * boundary, so the ring's pattern stands for them). CHAIN: the same without
 * the wrap (pipeline stage s to s+1). */
/* ALLTOALL: every member to every member on another node, each pair on its
 * rail (expert-parallel token dispatch and combine). */
enum cs_net_pattern { CS_NET_RING, CS_NET_CHAIN, CS_NET_ALLTOALL, CS_NET_PATTERN_COUNT };

/* Builds the model of cluster c (copied) for a job of job_gpus GPUs (0:
 * every GPU), placed as c->fabric.placement says with `seed`, and the
 * scenario's neighbour jobs (nb[0..n_nb), copied), placed after it on the
 * free nodes. Errors (*out untouched, a reason in why[0..why_len) when why
 * is non-NULL): CS_EINVAL for a bad cluster or neighbour, CS_ERANGE when the
 * cluster does not fit its topology, CS_EFULL when the job and the
 * neighbours need more GPUs than the cluster has. */
cs_status cs_netmodel_create(const struct cs_cluster_cfg *c, long job_gpus, const struct cs_neighbour_cfg *nb,
                             int n_nb, uint64_t seed, cs_netmodel **out, char *why, size_t why_len);
void cs_netmodel_destroy(cs_netmodel *m); /* accepts NULL */

/* The network share of the job's communicators of `size` ranks whose
 * members are `stride` ranks apart (cs_step_group's arguments) for
 * `pattern`, in (0, 1], into *share. A communicator inside one node is 1
 * without a simulation. With
 * neighbours, each neighbour's traffic is present a fraction d = min(1, t /
 * interval) of the time (t its collective's time alone), and the share is
 * the time-weighted harmonic mean 1 / (sum d_i / s_i + (1 - sum d_i) / s_alone), s_i
 * the share with source i alone on (neighbours and storage loads alike).
 * CS_EINVAL for a bad size or stride (size x stride beyond the job). */
cs_status cs_netmodel_share(cs_netmodel *m, enum cs_net_pattern pattern, int size, long stride, double *share);

/* Several jobs' rings at once on fabric f (the replay's running jobs):
 * ring k's members rings[k][0 .. sizes[k]) in ring order (GPU ids of f),
 * each its own flow job, all sending one round together; shares[k] is ring
 * k's round time alone on its NIC ports over its time among the others, in
 * (0, 1] (1 for a ring inside one node). The same round and share as
 * cs_netmodel_share. CS_EINVAL for bad ids. */
cs_status cs_net_ring_shares(const cs_fabric *f, const int *const *rings, const long *sizes, int n,
                             double *shares);

/* Remote storage traffic on the compute fabric (docs/fabric.md 3c): the
 * job's first `nodes` nodes writing (checkpoint shards) or reading (the
 * dataset) a fraction `duty` of the time, each at most node_bw (the tier's
 * per-client rate) and together at most aggregate_bw (INFINITY: no limit),
 * between their NIC ports and the top tier of the fabric. */
#define CS_NET_MAX_STORAGE 4
struct cs_net_storage_load {
    long nodes;
    double node_bw, aggregate_bw;
    bool write;
    double duty;
};
/* Replaces the model's storage loads (n <= CS_NET_MAX_STORAGE; n 0: none)
 * and empties the share cache; like the neighbours they are background
 * sources, each on its duty of the time. CS_EINVAL for bad loads. */
cs_status cs_netmodel_set_storage(cs_netmodel *m, const struct cs_net_storage_load *loads, int n);

/* Flow simulations run and cache hits so far (for tests and benchmarks). */
void cs_netmodel_stats(const cs_netmodel *m, long *simulations, long *hits);

/* GPUs the job and each neighbour were given (borrowed, valid while m
 * lives): the job's in rank order. */
const int *cs_netmodel_job_gpus(const cs_netmodel *m, long *n);

#endif
