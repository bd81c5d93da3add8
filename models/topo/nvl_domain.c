/* nvl_domain.c: multi-node NVLink domains (NVL72-style racks): the GPUs of
 * domain_gpus / gpus_per_node consecutive nodes share one NVLink switch
 * domain, so GPU-to-GPU traffic inside a domain goes GPU -> NVLink switch
 * -> GPU at the GPU's scale-up rate and never reaches a NIC; traffic
 * between domains leaves through the NICs into a scale-out fat tree
 * (fat_tree.c; cluster.fabric.tiers). Layer: models/.
 *
 * Domain size: cluster.fabric.domain_gpus, else the GPU's catalog
 * scaleup_domain (GB200: 72, one NVL72 rack of 18 compute trays x 4 GPUs).
 * Bill of materials of a domain (NVIDIA GB200 NVL72 product page and
 * "NVIDIA GB200 NVL72" Hot Chips 2024 talk: 9 NVLink switch trays of 2
 * NVLink Switch chips, 72 NVLink 5 ports per chip; each Blackwell GPU has
 * 18 NVLink 5 links, one to every chip, over the rack's copper spine):
 * ceil(domain_gpus x 18 / 72) switch chips and domain_gpus x 18 copper
 * NVLink cables (18 chips and 1,296 links for NVL72). */
#include "topo_internal.h"

/* NVLink 5 links per Blackwell GPU and ports per NVLink Switch chip (see above). */
#define NVL_LINKS_PER_GPU 18
#define NVL_PORTS_PER_SWITCH 72

static cs_status nvl_geometry(const struct cs_cluster_cfg *c, const struct cs_topology_kind *kind,
                              struct topo_shape *s, char *why, size_t n)
{
    int dg = c->fabric.domain_gpus > 0 ? c->fabric.domain_gpus : c->gpu.scaleup_domain_gpus;
    if (dg <= c->gpus_per_node || dg % c->gpus_per_node != 0)
        return cs__topo_why(why, n,
                            "domain_gpus: expected a multiple of gpus_per_node (%d) above it for an nvl-domain "
                            "(the GPU's scaleup_domain is %d), got %d",
                            c->gpus_per_node, c->gpu.scaleup_domain_gpus, dg);
    cs_status rc = cs__tree_geometry(c, kind->tiers >= 0 ? kind->tiers : c->fabric.tiers, kind->rail, s, why, n);
    if (rc != CS_OK)
        return rc;
    s->nvl_gpus = dg;
    s->nvl_nodes = dg / c->gpus_per_node;
    s->g.domain_nodes = s->nvl_nodes;
    return CS_OK;
}

static void nvl_counts(const struct topo_shape *s, int nodes, struct cs_fabric_counts *ct)
{
    cs__tree_counts(s, nodes, ct);
    ct->nvl_domains = (nodes + s->nvl_nodes - 1) / s->nvl_nodes;
    ct->nvlink_switches =
        ct->nvl_domains * (((long)s->nvl_gpus * NVL_LINKS_PER_GPU + NVL_PORTS_PER_SWITCH - 1) / NVL_PORTS_PER_SWITCH);
    ct->nvlink_cables = ct->nvl_domains * (long)s->nvl_gpus * NVL_LINKS_PER_GPU;
}

const struct cs_topo_ops cs__topo_nvl_domain = {
    "nvl-domain", nvl_geometry, cs__tree_wire, cs__tree_route, nvl_counts, cs__tree_leaf_fn, cs__tree_paths,
};
