/* topology.c: the common part of every fabric graph (topology.h) and the
 * table of topology descriptors (models/topo/, one file each, see
 * topo/topo_internal.h): intra-node links (NVSwitch, NVLink p2p, PCIe host
 * bridges), NICs on rails, multi-node NVLink domains, routing, counts and
 * placement. A kind (scenario.h, CS_TOPOLOGY_KINDS) names its descriptor;
 * the descriptor lays out and wires the switch-switch links and routes
 * between leaves. Layer: models/. Links are numbered by formula (no
 * adjacency lists). */
#include "topo/topo_internal.h"
#include "clustersim/models/cluster.h"
#include "clustersim/models/collective.h"
#include "clustersim/base/xmalloc.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The descriptors, indexed by enum cs_topology_builder. */
static const struct cs_topo_ops *const topo_table[CS_TOPO_BUILD_COUNT] = {
    [CS_TOPO_BUILD_FAT_TREE] = &cs__topo_fat_tree,
    [CS_TOPO_BUILD_SINGLE_SWITCH] = &cs__topo_single_switch,
    [CS_TOPO_BUILD_SPINE_LEAF] = &cs__topo_spine_leaf,
    [CS_TOPO_BUILD_RAIL_OPTIMIZED] = &cs__topo_rail_optimized,
    [CS_TOPO_BUILD_NVL_DOMAIN] = &cs__topo_nvl_domain,
    [CS_TOPO_BUILD_DRAGONFLY] = &cs__topo_dragonfly,
};

static const struct cs_topo_ops *topo_ops(const struct cs_topology_kind *kind)
{
    if (!kind || (unsigned)kind->builder >= CS_TOPO_BUILD_COUNT)
        return NULL;
    return topo_table[kind->builder];
}

cs_status cs__topo_why(char *why, size_t n, const char *fmt, ...)
{
    if (why && n > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, n, fmt, ap);
        va_end(ap);
    }
    return CS_ERANGE;
}

static uint64_t mix64(uint64_t x)
{
    /* splitmix64 finalizer (Steele, Lea, Flood 2014). */
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static int ep_of_gpu(const cs_fabric *f, int g)
{
    int node = g / f->gpn, local = g % f->gpn;
    int per = f->nics_per_node >= f->gpn ? f->nics_per_node / f->gpn : 1;
    int r = f->nics_per_node >= f->gpn ? local * per : local * f->nics_per_node / f->gpn;
    return node * f->nics_per_node + r;
}

/* The shape of kind `kind` for cluster c: the common fields, then the
 * descriptor's geometry. */
static cs_status shape_compute(const struct cs_cluster_cfg *c, const struct cs_topology_kind *kind,
                               struct topo_shape *o, char *why, size_t n)
{
    const struct cs_topo_ops *ops = topo_ops(kind);
    if (!c || !ops || c->nodes < 1 || c->gpus_per_node < 1 || (c->nodes > 1 && c->fabric.nics_per_node < 1) ||
        (long)c->nodes * c->gpus_per_node > 100000000L)
        return CS_EINVAL;
    memset(o, 0, sizeof *o);
    o->nics = cs_cluster_ports_per_node(c);
    o->eps = c->nodes * o->nics;
    o->k = c->fabric.link.switch_radix >= 4 ? c->fabric.link.switch_radix : 64;
    o->g.radix = o->k;
    o->g.hop_latency_s = c->fabric.link.hop_latency_s > 0 ? c->fabric.link.hop_latency_s : 0.0;
    o->g.builder = kind->builder;
    o->g.domain_nodes = 1;
    cs_status rc = ops->geometry(c, kind, o, why, n);
    if (rc == CS_OK && o->n_sw_links + 2L * o->eps + 2L * c->nodes * c->gpus_per_node + c->nodes > 2000000000L)
        return CS_ERANGE;
    return rc;
}

cs_status cs_fabric_geometry(const struct cs_cluster_cfg *c, struct cs_fabric_geom *g)
{
    return cs_fabric_geometry_as(c, c ? cs_topology_kind_of(c->fabric.topology) : NULL, g);
}

cs_status cs_fabric_geometry_as(const struct cs_cluster_cfg *c, const struct cs_topology_kind *kind,
                                struct cs_fabric_geom *g)
{
    struct topo_shape o;
    if (!g)
        return CS_EINVAL;
    cs_status rc = shape_compute(c, kind, &o, NULL, 0);
    if (rc == CS_OK)
        *g = o.g;
    return rc;
}

cs_status cs_fabric_geometry_why(const struct cs_cluster_cfg *c, struct cs_fabric_geom *g, char *why, size_t n)
{
    struct topo_shape o;
    if (why && n > 0)
        why[0] = '\0';
    if (!g)
        return CS_EINVAL;
    cs_status rc = shape_compute(c, c ? cs_topology_kind_of(c->fabric.topology) : NULL, &o, why, n);
    if (rc == CS_OK)
        *g = o.g;
    else if (rc == CS_EINVAL && why && n > 0 && !why[0])
        snprintf(why, n, "topology: the cluster's counts do not make a fabric (nodes, gpus_per_node, nics_per_node)");
    return rc;
}

cs_status cs_fabric_create(const struct cs_cluster_cfg *c, uint64_t seed, cs_fabric **out)
{
    return cs_fabric_create_as(c, c ? cs_topology_kind_of(c->fabric.topology) : NULL, seed, out);
}

cs_status cs_fabric_create_as(const struct cs_cluster_cfg *c, const struct cs_topology_kind *kind, uint64_t seed,
                              cs_fabric **out)
{
    struct topo_shape o;
    if (!out)
        return CS_EINVAL;
    cs_status rc = shape_compute(c, kind, &o, NULL, 0);
    if (rc != CS_OK)
        return rc;
    struct cs_cluster_view cv;
    if (cs_cluster_view_rates(c, NULL, &cv) != CS_OK)
        return CS_EINVAL;
    cs_fabric *f = cs_xcalloc(1, sizeof *f);
    f->c = *c;
    f->ops = topo_ops(kind);
    f->seed = seed;
    switch (c->fabric.routing) {
    case CS_ROUTING_STATIC: f->route = CS_ROUTE_DMODK; break;
    case CS_ROUTING_ECMP: f->route = CS_ROUTE_ECMP_HASH; break;
    case CS_ROUTING_ADAPTIVE: f->route = CS_ROUTE_ADAPTIVE; break;
    default:
        f->route = (c->fabric.link.kind == CS_LINK_INFINIBAND || c->fabric.link.kind == CS_LINK_OMNIPATH)
                       ? CS_ROUTE_DMODK
                       : CS_ROUTE_ECMP_HASH;
        break;
    }
    f->nodes = c->nodes;
    f->gpn = c->gpus_per_node;
    f->gpus = c->nodes * c->gpus_per_node;
    f->nics_per_node = o.nics;
    f->eps = o.eps;
    f->sh = o;
    /* Link numbering: GPU up, GPU down, host bridges, NIC up, NIC down,
     * then the descriptor's switch links. */
    int G = f->gpus, E = f->eps;
    f->b_nvl_up = 0;
    f->b_nvl_dn = G;
    f->b_bridge = 2 * G;
    f->b_nic_up = 2 * G + f->nodes;
    f->b_nic_dn = f->b_nic_up + E;
    f->b_sw = f->b_nic_dn + E;
    f->n_links = f->b_sw + (int)o.n_sw_links;
    f->ops->counts(&f->sh, f->nodes, &f->counts);

    /* Capacities. */
    f->cap = cs_xcalloc((size_t)(f->n_links > 0 ? f->n_links : 1), sizeof *f->cap);
    double b_gpu = cs_coll_intra_bw(c, NULL, 1), nic = cv.nic_bw_bytes_per_s;
    /* The host bridges carry PCIe GPU traffic, and on point-to-point NVLink
     * nodes the hops between scale-up domains (cluster.h). */
    f->domain = cv.scaleup_domain_gpus > 0 ? cv.scaleup_domain_gpus : f->gpn;
    double b_bridge = cv.intra_pcie ? b_gpu : cv.pcie_gpu_bw_bytes_per_s;
    for (int g = 0; g < G; g++)
        f->cap[f->b_nvl_up + g] = f->cap[f->b_nvl_dn + g] = b_gpu;
    for (int n = 0; n < f->nodes; n++) /* host bridges: only PCIe paths use them */
        f->cap[f->b_bridge + n] = (b_bridge > 0 ? b_bridge : b_gpu) * cv.pcie_bridges_per_node;
    for (int e = 0; e < E; e++)
        f->cap[f->b_nic_up + e] = f->cap[f->b_nic_dn + e] = nic;
    f->ops->wire(f, nic);
    *out = f;
    return CS_OK;
}

void cs_fabric_destroy(cs_fabric *f)
{
    if (!f)
        return;
    free(f->cap);
    free(f);
}

void cs_fabric_set_route_mode(cs_fabric *f, enum cs_route_mode m)
{
    f->route = m;
}

enum cs_route_mode cs_fabric_route_mode(const cs_fabric *f)
{
    return f->route;
}

int cs_fabric_route_paths(const cs_fabric *f)
{
    return f->ops->paths(&f->sh);
}

void cs_fabric_counts(const cs_fabric *f, struct cs_fabric_counts *out)
{
    *out = f->counts;
}

const struct cs_cluster_cfg *cs_fabric_cluster(const cs_fabric *f)
{
    return &f->c;
}

int cs_fabric_gpus(const cs_fabric *f)
{
    return f->gpus;
}

int cs_fabric_tiers(const cs_fabric *f)
{
    return f->sh.tiers;
}

int cs_fabric_n_links(const cs_fabric *f)
{
    return f->n_links;
}

double cs_fabric_link_capacity(const cs_fabric *f, int link)
{
    return link >= 0 && link < f->n_links ? f->cap[link] : NAN;
}

int cs_fabric_node_of(const cs_fabric *f, int gpu)
{
    return gpu / f->gpn;
}

int cs_fabric_leaf_of(const cs_fabric *f, int gpu)
{
    return f->ops->leaf_of(&f->sh, ep_of_gpu(f, gpu));
}

int cs_fabric_link_class(const cs_fabric *f, int link)
{
    if (!f || link < 0 || link >= f->n_links)
        return -1;
    if (link < f->b_bridge)
        return CS_FLINK_SCALEUP;
    if (link < f->b_nic_up)
        return CS_FLINK_BRIDGE;
    if (link < f->b_sw)
        return CS_FLINK_NIC;
    return CS_FLINK_SWITCH;
}

int cs_fabric_route(const cs_fabric *f, int src, int dst, uint64_t flow_id, int *links, double *latency_s)
{
    if (src < 0 || dst < 0 || src >= f->gpus || dst >= f->gpus)
        return -1;
    int n = 0, hops = 0;
    if (src == dst) {
        if (latency_s)
            *latency_s = 0.0;
        return 0;
    }
    int ns = src / f->gpn, nd = dst / f->gpn;
    if (ns == nd) {
        links[n++] = f->b_nvl_up + src;
        if (f->c.intra.kind == CS_INTRA_PCIE ||
            (src % f->gpn) / f->domain != (dst % f->gpn) / f->domain)
            links[n++] = f->b_bridge + ns;
        links[n++] = f->b_nvl_dn + dst;
        if (latency_s)
            *latency_s = 0.0;
        return n;
    }
    /* A multi-node NVLink domain: GPU -> NVLink switch -> GPU, no NIC. */
    if (f->sh.nvl_nodes > 1 && ns / f->sh.nvl_nodes == nd / f->sh.nvl_nodes) {
        links[n++] = f->b_nvl_up + src;
        links[n++] = f->b_nvl_dn + dst;
        if (latency_s)
            *latency_s = 0.0;
        return n;
    }
    int es = ep_of_gpu(f, src), ed = ep_of_gpu(f, dst);
    links[n++] = f->b_nic_up + es;
    /* d-mod-k: the path is chosen by the destination (static IB routing);
     * ECMP: by a hash of (seed, src, dst, flow id). */
    /* d-mod-k numbers the hosts leaf by leaf (Zahavi et al. 2010): a rail
     * leaf's hosts are its scalable unit's nodes on that rail. Numbering
     * them node * nics + rail instead would send every flow of rail r
     * through the same spine. */
    const struct topo_shape *sh = &f->sh;
    uint64_t d = sh->g.rail && sh->tiers > 1
                     ? (uint64_t)cs__tree_leaf_of(sh, ed) * (uint64_t)sh->down +
                           (uint64_t)((ed / f->nics_per_node) % sh->nodes_per_su)
                     : (uint64_t)ed;
    uint64_t h = f->route == CS_ROUTE_DMODK      ? d
                 : f->route == CS_ROUTE_ADAPTIVE ? flow_id
                                                 : mix64(f->seed ^ mix64((uint64_t)src * 0x100000001ULL ^
                                                                         ((uint64_t)dst << 32) ^ mix64(flow_id)));
    n += f->ops->route(f, es, ed, h, links + n, &hops);
    links[n++] = f->b_nic_dn + ed;
    if (latency_s)
        *latency_s = hops * (f->c.fabric.link.hop_latency_s > 0 ? f->c.fabric.link.hop_latency_s : 0.0);
    return n;
}

cs_status cs_fabric_place(const cs_fabric *f, enum cs_place_policy pol, int n, uint64_t seed, unsigned char *used,
                          int *out)
{
    if (!f || !out || n < 1)
        return CS_EINVAL;
    int *order = cs_xmalloc((size_t)f->nodes * sizeof *order);
    for (int i = 0; i < f->nodes; i++)
        order[i] = i;
    if (pol == CS_PLACE_SCATTERED) {
        gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
        gsl_rng_set(r, (unsigned long)seed);
        gsl_ran_shuffle(r, order, (size_t)f->nodes, sizeof *order);
        gsl_rng_free(r);
    }
    int got = 0;
    for (int i = 0; i < f->nodes && got < n; i++)
        for (int g = order[i] * f->gpn; g < (order[i] + 1) * f->gpn && got < n; g++)
            if (!used || !used[g])
                out[got++] = g;
    free(order);
    if (got < n)
        return CS_EFULL;
    if (used)
        for (int i = 0; i < n; i++)
            used[out[i]] = 1;
    return CS_OK;
}
