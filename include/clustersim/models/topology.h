/* topology.h: the network topology of a cluster as a graph of directed links
 * (capacity in bytes/s per direction, latency) between GPUs, host bridges,
 * NICs and leaf/spine/core switches (or dragonfly routers, or the NVLink
 * switch of a multi-node domain), with routing (static destination-based
 * d-mod-k as InfiniBand subnet managers do, ECMP hashing of (src, dst, flow
 * id, seed), or adaptive spreading), bill-of-materials counts and job
 * placement. Built by models/topology.c and the kind's descriptor in
 * models/topo/ (single switch, fat tree, spine-leaf, rail-optimized, NVLink
 * domains, dragonfly; docs/fabric.md section 2) from struct cs_cluster_cfg;
 * immutable after creation, so several flow simulations may share one
 * fabric. */
#ifndef CLUSTERSIM_FABRIC_H
#define CLUSTERSIM_FABRIC_H

#include "clustersim/models/scenario.h"
#include "clustersim/base/status.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct cs_fabric cs_fabric;

/* Bill of materials counted from the built topology (for the TCO model).
 * switches_by_tier: [0] leaf (dragonfly: every router), [1] spine (2 tiers)
 * or aggregation (3 tiers), [2] core. switch_ports: scale-out ports in use.
 * cables: NIC-leaf plus switch-switch cables (scale-out). optics:
 * transceivers, two per optical cable. nics: NIC ports.
 * cables_by_tier: [0] NIC-leaf, [1] leaf-spine / leaf-aggregation /
 * dragonfly local, [2] aggregation-core / dragonfly global.
 * optical_cables + copper_cables = cables: every tree cable is optical (as
 * in the DGX SuperPOD reference architectures); a dragonfly's local links
 * inside a group are copper (Kim et al. 2008, section 3). nvl_domains,
 * nvlink_switches, nvlink_cables: the multi-node NVLink domains and their
 * NVLink switch chips and copper NVLink cables (not in cables). */
struct cs_fabric_counts {
    long switches_by_tier[3];
    long switch_ports;
    long cables;
    long optics;
    long nics;
    long cables_by_tier[3];
    long optical_cables, copper_cables;
    long nvl_domains, nvlink_switches, nvlink_cables;
};

/* DMODK: static, by destination; ECMP_HASH: a hash of (seed, src, dst,
 * flow id) picks the path; ADAPTIVE: the flow id picks the uplink
 * (id mod uplinks, then the core by id / aggregation switches), so a flow
 * split into cs_fabric_route_paths() sub-flows with ids 0, 1, ... covers
 * every path once (adaptive routing as an even spread). */
enum cs_route_mode { CS_ROUTE_DMODK, CS_ROUTE_ECMP_HASH, CS_ROUTE_ADAPTIVE };
enum cs_route_mode cs_fabric_route_mode(const cs_fabric *f);
/* Distinct upward paths out of a leaf that adaptive routing spreads over:
 * the leaf's uplinks (2 tiers), aggregation switches x core groups (3
 * tiers, at most 64), 1 on a single switch. */
int cs_fabric_route_paths(const cs_fabric *f);

/* The shape of the switch tiers, computed from the cluster without building
 * links (the closed-form model uses it; cs_fabric_create builds exactly this
 * shape). Radix k = link.switch_radix (64 when unset); a leaf's k ports split
 * by the oversubscription r into down = floor(k r / (1 + r)) and up = k - down.
 * A "leaf domain" is the set of nodes whose same-rail NICs share one leaf:
 * down / nics_per_node nodes (single switch, fat tree, spine-leaf), or a
 * scalable unit of min(32, down) nodes (rail-optimized: NIC i of every node of
 * a unit on rail leaf i). nodes_per_leaf may be fractional (a node's NICs
 * straddle two leaves).
 * Per kind (docs/fabric.md section 2):
 * - spine-leaf: down = NIC ports per leaf in use, up = uplinks_per_leaf.
 * - nvl-domain: the fields describe the scale-out fat tree between the
 *   NVLink domains; domain_nodes says how many nodes share one NVLink
 *   domain (traffic inside it never reaches a NIC).
 * - dragonfly: tiers = 3; a "leaf" is a router (down = p terminals, up = h
 *   global links), a "pod" a group (nodes_per_pod = a p / nics), so a
 *   closed form counts 1 hop inside a router, 3 inside a group and 5
 *   across groups (minimal routes take at most 4 routers; the flow model
 *   counts the real ones). */
struct cs_fabric_geom {
    int tiers;               /* 1, 2 or 3 */
    int radix, down, up;     /* leaf ports */
    int leaves;
    bool rail;
    double nodes_per_leaf;   /* nodes of one leaf domain */
    double nodes_per_pod;    /* 3 tiers: nodes under one pod; else all nodes */
    double hop_latency_s;    /* per switch hop; 0 when the catalog gives none */
    enum cs_topology_builder builder;
    int spines;              /* 2 tiers: spine switches; 3 tiers: aggregation switches per pod */
    int agg_down, agg_up;    /* 3-tier fat tree: aggregation ports to leaves / to cores; else 0 */
    int domain_nodes;        /* nodes per multi-node NVLink domain; 1 = none */
    int df_a, df_p, df_h, df_groups; /* dragonfly; else 0 */
};
/* Fills *g for cluster c. CS_EINVAL for bad counts, CS_ERANGE when the
 * cluster does not fit the topology (see cs_fabric_create); *g untouched on
 * failure. Pure. */
cs_status cs_fabric_geometry(const struct cs_cluster_cfg *c, struct cs_fabric_geom *g);
/* The same for an explicit kind (cluster.fabric.topology ignored): the
 * builder reads nothing of a kind but its row (scenario.h,
 * CS_TOPOLOGY_KINDS), so a new row needs no other code. */
cs_status cs_fabric_geometry_as(const struct cs_cluster_cfg *c, const struct cs_topology_kind *kind,
                                struct cs_fabric_geom *g);
/* Like cs_fabric_geometry, and on failure writes why (naming the
 * cluster.fabric key at fault, e.g. "spines: 3 spines of 16 ports cannot
 * take 8 leaves x 8 uplinks") into why[n] for the caller to word (the
 * loader's error names file and line). */
cs_status cs_fabric_geometry_why(const struct cs_cluster_cfg *c, struct cs_fabric_geom *g, char *why, size_t n);

/* Builds the fabric of cluster c (borrowed; copied). `seed` seeds the ECMP
 * hash. Routing defaults to d-mod-k on InfiniBand/Omni-Path and to ECMP
 * hashing on Ethernet/RoCE. Returns CS_EINVAL for bad counts, CS_ERANGE when
 * the cluster does not fit the topology (a spine-leaf beyond radix^2/2
 * endpoints, a fat tree beyond its tiers). *out untouched on failure; caller
 * frees with cs_fabric_destroy. */
cs_status cs_fabric_create(const struct cs_cluster_cfg *c, uint64_t seed, cs_fabric **out);
cs_status cs_fabric_create_as(const struct cs_cluster_cfg *c, const struct cs_topology_kind *kind, uint64_t seed,
                              cs_fabric **out);
void cs_fabric_destroy(cs_fabric *f);   /* accepts NULL */
void cs_fabric_set_route_mode(cs_fabric *f, enum cs_route_mode m);

void cs_fabric_counts(const cs_fabric *f, struct cs_fabric_counts *out);
const struct cs_cluster_cfg *cs_fabric_cluster(const cs_fabric *f);
int cs_fabric_gpus(const cs_fabric *f);
int cs_fabric_tiers(const cs_fabric *f); /* switch tiers: 1, 2 or 3 */
int cs_fabric_n_links(const cs_fabric *f);
double cs_fabric_link_capacity(const cs_fabric *f, int link);
int cs_fabric_node_of(const cs_fabric *f, int gpu);
int cs_fabric_leaf_of(const cs_fabric *f, int gpu);
/* What a link is: a GPU's scale-up link (NVSwitch, or the NVLink switch of
 * a multi-node domain), a node's host bridge, a NIC port's link to its leaf
 * (or dragonfly router), or a switch-switch link. -1 for a bad id. */
enum cs_fabric_link_class { CS_FLINK_SCALEUP, CS_FLINK_BRIDGE, CS_FLINK_NIC, CS_FLINK_SWITCH };
int cs_fabric_link_class(const cs_fabric *f, int link);

/* Longest path in links (GPU to GPU). */
#define CS_FABRIC_MAX_PATH 8
/* Writes the links of the path from GPU src to GPU dst into links[] (room
 * for CS_FABRIC_MAX_PATH) and returns how many, or -1 for bad ids (0 when
 * src == dst). *latency_s (nullable): switch hops x hop latency. */
int cs_fabric_route(const cs_fabric *f, int src, int dst, uint64_t flow_id, int *links, double *latency_s);

enum cs_place_policy { CS_PLACE_PACKED = CS_PLACEMENT_PACKED, CS_PLACE_SCATTERED = CS_PLACEMENT_SCATTERED };
/* Chooses n GPUs, whole nodes first: packed takes the lowest free nodes (one
 * leaf after another); scattered takes free nodes in a random order (GSL
 * mt19937 seeded with `seed`), so a job spreads over leaves. used[]
 * (nullable, one byte per GPU) marks GPUs taken and is updated. Writes n ids
 * to out. CS_EFULL if not enough free GPUs (used untouched then). */
cs_status cs_fabric_place(const cs_fabric *f, enum cs_place_policy pol, int n, uint64_t seed, unsigned char *used,
                          int *out);

#endif
