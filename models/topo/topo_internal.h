/* topo_internal.h: what models/topology.c shares with the topology
 * descriptors in models/topo/ (internal to models/; the public contract is
 * clustersim/models/topology.h).
 *
 *   topology.c        common part: validation, GPU / host-bridge / NIC links
 *                     and their capacities, intra-node and NVLink-domain
 *                     routes, placement, accessors; the descriptor table
 *   topo/fat_tree.c   k-ary 2- and 3-tier fat tree (Al-Fares et al. 2008),
 *                     also the tier wiring the rail-optimized, single-switch
 *                     and NVLink-domain descriptors reuse
 *   topo/single_switch.c, spine_leaf.c, rail_optimized.c, nvl_domain.c,
 *   dragonfly.c       one descriptor each
 *
 * Link numbering (no adjacency lists): [0, G) GPU up, [G, 2G) GPU down,
 * [2G, 2G + nodes) host bridges, then NIC up and NIC down (one per endpoint
 * = NIC port), then from b_sw on the descriptor's switch-switch links, laid
 * out by its own formula (struct topo_shape.b[]). */
#ifndef CLUSTERSIM_TOPO_INTERNAL_H
#define CLUSTERSIM_TOPO_INTERNAL_H

#include "clustersim/models/topology.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Everything a descriptor's geometry decides; builders and routes read it. */
struct topo_shape {
    struct cs_fabric_geom g;  /* the public part */
    int nics, eps;            /* NIC ports per node, endpoints */
    int k;                    /* radix */
    int per_leaf;             /* endpoints per leaf (leaf = e / per_leaf), non-rail kinds */
    int nodes_per_su;         /* rail-optimized scalable unit */
    /* trees */
    int down, up, tiers, leaves, spines;
    int leaves_per_pod, pods, core_groups, agg_up;
    /* nvl-domain */
    int nvl_nodes;            /* nodes per NVLink domain; 0 = none */
    int nvl_gpus;
    /* dragonfly */
    int a, p, h, groups, c;   /* c: global cables between each pair of groups */
    bool valiant;
    /* switch-link bases (relative to b_sw), descriptor-defined */
    long b[4];
    long n_sw_links;
};

struct cs_fabric {
    struct cs_cluster_cfg c;
    const struct cs_topo_ops *ops;
    uint64_t seed;
    enum cs_route_mode route;
    int gpus, nodes, gpn, nics_per_node, eps;
    int domain;      /* GPUs of one intra-node scale-up domain; traffic between domains crosses the host bridge */
    struct topo_shape sh;
    int b_nvl_up, b_nvl_dn, b_bridge, b_nic_up, b_nic_dn, b_sw, n_links;
    double *cap;
    struct cs_fabric_counts counts;
};

/* A topology descriptor. geometry fills *s from the cluster (common fields
 * nics, eps, k, g.radix, g.hop_latency_s already set) and returns CS_OK,
 * CS_ERANGE (does not fit; why says which key) or CS_EINVAL; it also sets
 * s->n_sw_links and s->b[]. wire sets the capacities of the switch links
 * (f->cap from f->b_sw on; nic = one NIC port's achievable rate). route
 * appends the switch links between endpoint es's leaf and ed's leaf
 * (h: the destination for d-mod-k, else the ECMP hash) and returns how many,
 * with *hops the switches traversed. counts fills the bill of materials of
 * the switch fabric; leaf_of maps an endpoint to its leaf (router); paths
 * is the number of distinct upward paths adaptive routing spreads a flow
 * over (flow ids 0 .. paths-1 under CS_ROUTE_ADAPTIVE, where h = flow id;
 * at most 64). */
struct cs_topo_ops {
    const char *name;
    cs_status (*geometry)(const struct cs_cluster_cfg *c, const struct cs_topology_kind *kind,
                          struct topo_shape *s, char *why, size_t n);
    void (*wire)(cs_fabric *f, double nic);
    int (*route)(const cs_fabric *f, int es, int ed, uint64_t h, int *links, int *hops);
    void (*counts)(const struct topo_shape *s, int nodes, struct cs_fabric_counts *ct);
    int (*leaf_of)(const struct topo_shape *s, int e);
    int (*paths)(const struct topo_shape *s);
};

extern const struct cs_topo_ops cs__topo_single_switch, cs__topo_fat_tree, cs__topo_spine_leaf,
    cs__topo_rail_optimized, cs__topo_nvl_domain, cs__topo_dragonfly;

/* The shared tree machinery of fat_tree.c: geometry of a 1-, 2- or 3-tier
 * tree (rail: leaves per scalable unit and rail), its wiring, route, counts
 * and the non-rail leaf map. */
cs_status cs__tree_geometry(const struct cs_cluster_cfg *c, int want_tiers, bool rail, struct topo_shape *s,
                            char *why, size_t n);
void cs__tree_wire(cs_fabric *f, double nic);
int cs__tree_route(const cs_fabric *f, int es, int ed, uint64_t h, int *links, int *hops);
void cs__tree_counts(const struct topo_shape *s, int nodes, struct cs_fabric_counts *ct);
int cs__tree_paths(const struct topo_shape *s);
int cs__tree_leaf_fn(const struct topo_shape *s, int e); /* cs__tree_leaf_of as a leaf_of op */
int cs__rail_leaf_of(const struct topo_shape *s, int e);

/* Leaf of endpoint e in a tree (non-rail: leaves filled one after another;
 * rail: unit x rails + rail), inline for the route's hot path. */
static inline int cs__tree_leaf_of(const struct topo_shape *s, int e)
{
    if (s->tiers == 1)
        return 0;
    if (s->g.rail) {
        int node = e / s->nics, r = e % s->nics;
        return (node / s->nodes_per_su) * s->nics + r;
    }
    return e / s->per_leaf;
}

/* Writes a reason into why[n] (nullable); returns CS_ERANGE. */
cs_status cs__topo_why(char *why, size_t n, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#endif
