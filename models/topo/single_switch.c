/* single_switch.c: every NIC port on one switch (a one-switch cluster or an
 * idealised non-blocking crossbar): no switch-switch links, one switch hop
 * between any two nodes. The switch is counted even for one node. The
 * radix does not limit it (a modular chassis). Layer: models/. */
#include "topo_internal.h"

static cs_status single_geometry(const struct cs_cluster_cfg *c, const struct cs_topology_kind *kind,
                                 struct topo_shape *s, char *why, size_t n)
{
    (void)kind;
    return cs__tree_geometry(c, 1, false, s, why, n);
}

static void single_counts(const struct topo_shape *s, int nodes, struct cs_fabric_counts *ct)
{
    cs__tree_counts(s, nodes, ct);
    ct->switches_by_tier[0] = 1;
}

static int single_leaf_of(const struct topo_shape *s, int e)
{
    (void)s;
    (void)e;
    return 0;
}

const struct cs_topo_ops cs__topo_single_switch = {
    "single-switch", single_geometry, cs__tree_wire, cs__tree_route,
    single_counts, single_leaf_of, cs__tree_paths,
};
