/* cluster.h: the resolved cluster view (models layer): the hardware a
 * scenario describes, resolved once into the figures every model reads:
 * GPUs, the scale-up domain (kind, per-GPU rate, efficiency, latency, NVLS),
 * the host PCIe link, the scale-out NIC ports and their rates, and the
 * topology's geometry. Every fallback rule (a link or intra-node entry
 * without an efficiency, a one-node cluster without NICs, a GPU without a
 * PCIe generation) lives in cs_cluster_view_build and nowhere else; the
 * equations and their sources are in docs/fabric.md, "The cluster view".
 * Plain data, no allocation: build it on the stack where it is needed. */
#ifndef CLUSTERSIM_MODELS_CLUSTER_H
#define CLUSTERSIM_MODELS_CLUSTER_H

#include "clustersim/base/status.h"
#include "clustersim/models/collective.h"
#include "clustersim/models/scenario.h"
#include "clustersim/models/topology.h"

#include <stdbool.h>

struct cs_cluster_view {
    int nodes, gpus_per_node;
    long gpus;
    /* Scale-up (NVSwitch, NVLink peer links, xGMI, or PCIe through the host
     * bridges), per GPU and direction. */
    enum cs_intra_kind intra_kind;
    bool intra_pcie;                  /* GPU-to-GPU traffic crosses PCIe host bridges */
    double intra_line_bw_bytes_per_s; /* the intra entry's rate, else the GPU's scale-up rate */
    double intra_efficiency;          /* achievable fraction in collectives */
    double intra_bw_bytes_per_s;      /* line x efficiency */
    int pcie_bridges_per_node;        /* host bridges the GPUs of a node share (intra_pcie) */
    /* GPUs of one scale-up domain: NVLink-bridged pairs (H100 PCIe) are 2,
     * an xGMI mesh or an NVSwitch board 8. A ring over more GPUs of a node
     * than one domain holds crosses PCIe between domains (cluster.c). */
    int scaleup_domain_gpus;
    double pcie_gpu_bw_bytes_per_s;   /* PCIe line x the collective model's PCIe efficiency; NAN unknown */
    bool nvls;                        /* NVLink SHARP in the switch */
    /* Host link of one GPU: PCIe x16 line rate, one direction; NAN when the
     * GPU has no PCIe generation in the catalog (GB200's NVLink-C2C). */
    double pcie_bytes_per_s;
    /* Scale-out. */
    int nics_per_node;                /* as configured; 0 only on a one-node cluster */
    int ports_per_node;               /* NIC ports of the fabric graph: nics_per_node, at least 1 */
    double nic_line_bw_bytes_per_s;   /* one port, one direction */
    double nic_efficiency;            /* achievable fraction of the line rate */
    double nic_bw_bytes_per_s;        /* line x efficiency */
    double node_net_line_bw_bytes_per_s; /* nics x line rate: the node's injection bandwidth */
    double node_net_bw_bytes_per_s;   /* nics x line x efficiency; 0 without NICs */
    double hop_latency_s;             /* per switch hop; 0 when the catalog gives none */
    double nic_latency_s;             /* end point (NIC + transport) per message; 0 when none */
    /* Topology geometry (topology.h); has_geometry false when the cluster
     * does not fit its topology (geometry_status says why). */
    bool has_geometry;
    cs_status geometry_status;
    struct cs_fabric_geom geom;
};

/* Resolves cluster c with the collective model's parameters p (their
 * efficiencies are the defaults for entries that give none; NULL:
 * cs_coll_params_default). CS_EINVAL for an impossible cluster (no nodes or
 * GPUs, several nodes without NICs or without a link rate, no scale-up
 * rate); *out untouched on failure. A cluster that does not fit its
 * topology still resolves (has_geometry false). Pure. */
cs_status cs_cluster_view_build(const struct cs_cluster_cfg *c, const struct cs_coll_params *p,
                                struct cs_cluster_view *out);

/* As cs_cluster_view_build without the topology geometry (has_geometry
 * false, geometry_status CS_EUNSUPPORTED): the rates alone, for the hot
 * path of collectives that never leave a node. */
cs_status cs_cluster_view_rates(const struct cs_cluster_cfg *c, const struct cs_coll_params *p,
                                struct cs_cluster_view *out);

/* NIC ports per node of cluster c's fabric graph: fabric.nics_per_node, at
 * least 1 (a one-node cluster without NICs gets one unused port so that the
 * graph is uniform). The one rule topology.c and the view share. */
int cs_cluster_ports_per_node(const struct cs_cluster_cfg *c);

/* x16 line rate of PCIe generation `gen`, one direction (PCI-SIG): 2.5 and
 * 5 GT/s per lane with 8b/10b coding for Gen 1 and 2, 8 GT/s doubling each
 * generation with 128b/130b from Gen 3 (15.75, 31.5, 63, 126 GB/s for Gen
 * 3-6). NAN for an unknown generation (<= 0 or > 7). */
double cs_pcie_x16_bytes_per_s(int gen);

#endif
