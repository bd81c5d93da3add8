/* cluster.c: resolves a cluster description into the view every model
 * reads (cluster.h). The one place for the hardware's fallback rules. */
#include "clustersim/models/cluster.h"

#include <math.h>
#include <string.h>

double cs_pcie_x16_bytes_per_s(int gen)
{
    if (gen <= 0 || gen > 7)
        return NAN;
    if (gen == 1)
        return 16 * 2.5e9 * 0.8 / 8;
    if (gen == 2)
        return 16 * 5e9 * 0.8 / 8;
    return 16 * 8e9 * ldexp(1.0, gen - 3) * (128.0 / 130.0) / 8;
}

int cs_cluster_ports_per_node(const struct cs_cluster_cfg *c)
{
    return c->fabric.nics_per_node > 0 ? c->fabric.nics_per_node : 1;
}

static cs_status cs__view(const struct cs_cluster_cfg *c, const struct cs_coll_params *p, bool geometry,
                          struct cs_cluster_view *out)
{
    struct cs_coll_params def;
    if (!p) {
        cs_coll_params_default(&def);
        p = &def;
    }
    if (!c || !out || c->nodes < 1 || c->gpus_per_node < 1)
        return CS_EINVAL;
    struct cs_cluster_view v;
    memset(&v, 0, sizeof v);
    v.nodes = c->nodes;
    v.gpus_per_node = c->gpus_per_node;
    v.gpus = (long)c->nodes * c->gpus_per_node;

    /* Scale-up: the intra entry's rate, else the GPU's NVLink/xGMI rate;
     * the entry's efficiency, else the collective model's fitted default
     * for the kind (docs/fabric.md). */
    v.intra_kind = c->intra.kind;
    v.intra_pcie = c->intra.kind == CS_INTRA_PCIE;
    v.intra_line_bw_bytes_per_s = c->intra.bw_bytes_per_s > 0 ? c->intra.bw_bytes_per_s
                                                               : c->gpu.scaleup_bw_bytes_per_s;
    if (!(v.intra_line_bw_bytes_per_s > 0) && c->gpus_per_node > 1)
        return CS_EINVAL;
    v.intra_efficiency = c->intra.efficiency > 0 ? c->intra.efficiency
                         : v.intra_pcie          ? p->pcie_efficiency
                                                 : p->nvswitch_efficiency;
    v.intra_bw_bytes_per_s = v.intra_line_bw_bytes_per_s * v.intra_efficiency;
    v.pcie_bridges_per_node = p->pcie_bridges_per_node;
    v.nvls = c->intra.nvls;
    v.pcie_bytes_per_s = cs_pcie_x16_bytes_per_s(c->gpu.pcie_gen);
    v.pcie_gpu_bw_bytes_per_s = v.pcie_bytes_per_s * p->pcie_efficiency;
    v.scaleup_domain_gpus = v.intra_pcie ? 1
                            : c->gpu.scaleup_domain_gpus > 0 ? c->gpu.scaleup_domain_gpus
                                                             : c->gpus_per_node;
    /* Point-to-point NVLink (bridged pairs) over more GPUs than a domain:
     * the hops between domains run over PCIe, whose rate must be known. */
    if (c->intra.kind == CS_INTRA_NVLINK_P2P && v.scaleup_domain_gpus < c->gpus_per_node &&
        !(v.pcie_gpu_bw_bytes_per_s > 0))
        return CS_EINVAL;

    /* Scale-out: a one-node cluster may have no NICs; its fabric graph still
     * gets one (unused) port per node so that it is uniform. */
    const struct cs_link_spec *l = &c->fabric.link;
    v.nics_per_node = c->fabric.nics_per_node > 0 ? c->fabric.nics_per_node : 0;
    if (c->nodes > 1 && (v.nics_per_node < 1 || !(l->bw_bytes_per_s > 0)))
        return CS_EINVAL;
    v.ports_per_node = cs_cluster_ports_per_node(c);
    v.nic_line_bw_bytes_per_s = l->bw_bytes_per_s > 0 ? l->bw_bytes_per_s : 0.0;
    v.nic_efficiency = l->efficiency > 0 ? l->efficiency : p->net_efficiency;
    v.nic_bw_bytes_per_s = v.nic_line_bw_bytes_per_s * v.nic_efficiency;
    v.node_net_line_bw_bytes_per_s = v.nics_per_node * v.nic_line_bw_bytes_per_s;
    v.node_net_bw_bytes_per_s = v.nics_per_node * v.nic_bw_bytes_per_s;
    v.hop_latency_s = l->hop_latency_s > 0 ? l->hop_latency_s : 0.0;
    v.nic_latency_s = l->nic_latency_s > 0 ? l->nic_latency_s : 0.0;

    v.geometry_status = geometry ? cs_fabric_geometry(c, &v.geom) : CS_EUNSUPPORTED;
    v.has_geometry = v.geometry_status == CS_OK;
    *out = v;
    return CS_OK;
}

cs_status cs_cluster_view_build(const struct cs_cluster_cfg *c, const struct cs_coll_params *p,
                                struct cs_cluster_view *out)
{
    return cs__view(c, p, true, out);
}

cs_status cs_cluster_view_rates(const struct cs_cluster_cfg *c, const struct cs_coll_params *p,
                                struct cs_cluster_view *out)
{
    return cs__view(c, p, false, out);
}
