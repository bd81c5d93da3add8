/* rail_optimized.c: the rail-optimized fabric of the DGX SuperPOD reference
 * architectures (NVIDIA DGX SuperPOD RA, H100: scalable units of 32 nodes;
 * NIC i of every node of a unit on rail leaf i, so same-rail traffic inside
 * a unit takes one switch hop). Scalable units of min(32, down) nodes; the
 * leaves (units x rails) feed spines, or aggregation and core switches, as
 * the fat tree (fat_tree.c) wires them, as few tiers as fit. Layer:
 * models/. */
#include "topo_internal.h"

int cs__rail_leaf_of(const struct topo_shape *s, int e)
{
    return cs__tree_leaf_of(s, e); /* g.rail is set: unit x rails + rail */
}

static cs_status rail_geometry(const struct cs_cluster_cfg *c, const struct cs_topology_kind *kind,
                               struct topo_shape *s, char *why, size_t n)
{
    return cs__tree_geometry(c, kind->tiers >= 0 ? kind->tiers : c->fabric.tiers, true, s, why, n);
}

const struct cs_topo_ops cs__topo_rail_optimized = {
    "rail-optimized", rail_geometry, cs__tree_wire, cs__tree_route,
    cs__tree_counts, cs__rail_leaf_of, cs__tree_paths,
};
