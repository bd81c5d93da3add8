/* topology.c: builds the fabric graph of a cluster (fabric.h): intra-node
 * links (NVSwitch, NVLink p2p, PCIe host bridges), NICs on rails, leaf /
 * spine / core switches of a single switch, a 2- or 3-tier fat tree
 * (Al-Fares et al. 2008, k-ary, leaf tier oversubscribed per
 * fabric.oversubscription), a spine-leaf, or a rail-optimized SuperPOD
 * (scalable units of 32 nodes, GPU i of every node on rail leaf i), routing
 * and counts. Layer: models/. Links are numbered by formula (no adjacency
 * lists); parallel cables between the same two switches are merged into one
 * link of their summed capacity. */
#include "clustersim/models/topology.h"
#include "clustersim/models/cluster.h"
#include "clustersim/models/collective.h"
#include "clustersim/base/xmalloc.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct cs_fabric {
    struct cs_cluster_cfg c;
    uint64_t seed;
    enum cs_route_mode route;
    int gpus, nodes, gpn, nics_per_node, eps; /* eps: endpoints = NIC ports */
    int k, down, up;                          /* radix, leaf down / up ports */
    int tiers, leaves, spines;                /* spines: 2-tier spines or aggs per pod (3-tier) */
    int leaves_per_pod, pods, core_groups;    /* 3-tier */
    int rail;                                 /* rail-optimized leaf assignment */
    int nodes_per_su;
    int domain;      /* GPUs of one scale-up domain; traffic between domains crosses the host bridge */
    /* link numbering bases */
    int b_nvl_up, b_nvl_dn, b_bridge, b_nic_up, b_nic_dn, b_up1, b_dn1, b_up2, b_dn2, n_links;
    double *cap;
    struct cs_fabric_counts counts;
};

static uint64_t mix64(uint64_t x)
{
    /* splitmix64 finalizer (Steele, Lea, Flood 2014). */
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static int leaf_of_ep(const cs_fabric *f, int e)
{
    if (f->tiers == 1)
        return 0;
    if (f->rail) {
        int node = e / f->nics_per_node, r = e % f->nics_per_node;
        return (node / f->nodes_per_su) * f->nics_per_node + r;
    }
    return e / f->down;
}

static int ep_of_gpu(const cs_fabric *f, int g)
{
    int node = g / f->gpn, local = g % f->gpn;
    int per = f->nics_per_node >= f->gpn ? f->nics_per_node / f->gpn : 1;
    int r = f->nics_per_node >= f->gpn ? local * per : local * f->nics_per_node / f->gpn;
    return node * f->nics_per_node + r;
}

/* The tier shape shared by cs_fabric_geometry and cs_fabric_create. */
struct geom_full {
    struct cs_fabric_geom g;
    int nics, eps, nodes_per_su;
};

static cs_status geom_compute(const struct cs_cluster_cfg *c, const struct cs_topology_kind *kind,
                               struct geom_full *o)
{
    if (!c || !kind || c->nodes < 1 || c->gpus_per_node < 1 || (c->nodes > 1 && c->fabric.nics_per_node < 1) ||
        (long)c->nodes * c->gpus_per_node > 100000000L)
        return CS_EINVAL;
    memset(o, 0, sizeof *o);
    struct cs_fabric_geom *g = &o->g;
    o->nics = cs_cluster_ports_per_node(c);
    o->eps = c->nodes * o->nics;
    g->radix = c->fabric.link.switch_radix >= 4 ? c->fabric.link.switch_radix : 64;
    int k = g->radix;
    double r = c->fabric.oversubscription >= 1.0 ? c->fabric.oversubscription : 1.0;
    g->down = (int)floor(k * r / (1.0 + r));
    if (g->down < 1)
        g->down = 1;
    g->up = k - g->down;
    if (g->up < 1)
        g->up = 1;
    long cap2 = (long)k * g->down;              /* 2-tier endpoints: k leaves */
    long cap3 = (long)k * (k / 2) * g->down;    /* 3-tier: k pods of k/2 leaves */
    g->rail = kind->rail;
    o->nodes_per_su = g->down < 32 ? g->down : 32;
    g->hop_latency_s = c->fabric.link.hop_latency_s > 0 ? c->fabric.link.hop_latency_s : 0.0;
    if (kind->tiers == 1 || c->nodes == 1) {
        g->tiers = 1;
        g->leaves = 1;
    } else {
        if (g->rail)
            g->leaves = ((c->nodes + o->nodes_per_su - 1) / o->nodes_per_su) * o->nics;
        else
            g->leaves = (o->eps + g->down - 1) / g->down;
        int want = kind->tiers >= 0 ? kind->tiers : c->fabric.tiers;
        bool fits2 = g->leaves <= k && (long)o->eps <= cap2;
        if (want == 0)
            want = fits2 ? 2 : 3;
        if ((want == 2 && !fits2) || (want == 3 && (g->up > k / 2 || (long)o->eps > cap3)) || want < 2 ||
            want > 3)
            return CS_ERANGE;
        g->tiers = want;
    }
    if (g->tiers == 1)
        g->nodes_per_leaf = c->nodes;
    else if (g->rail)
        g->nodes_per_leaf = o->nodes_per_su;
    else
        g->nodes_per_leaf = (double)g->down / o->nics;
    g->nodes_per_pod = g->tiers == 3 ? (double)(k / 2) * g->down / o->nics : (double)c->nodes;
    return CS_OK;
}

cs_status cs_fabric_geometry(const struct cs_cluster_cfg *c, struct cs_fabric_geom *g)
{
    return cs_fabric_geometry_as(c, c ? cs_topology_kind_of(c->fabric.topology) : NULL, g);
}

cs_status cs_fabric_geometry_as(const struct cs_cluster_cfg *c, const struct cs_topology_kind *kind,
                                struct cs_fabric_geom *g)
{
    struct geom_full o;
    if (!g)
        return CS_EINVAL;
    cs_status rc = geom_compute(c, kind, &o);
    if (rc == CS_OK)
        *g = o.g;
    return rc;
}

cs_status cs_fabric_create(const struct cs_cluster_cfg *c, uint64_t seed, cs_fabric **out)
{
    return cs_fabric_create_as(c, c ? cs_topology_kind_of(c->fabric.topology) : NULL, seed, out);
}

cs_status cs_fabric_create_as(const struct cs_cluster_cfg *c, const struct cs_topology_kind *kind, uint64_t seed,
                              cs_fabric **out)
{
    struct geom_full o;
    if (!out)
        return CS_EINVAL;
    cs_status rc = geom_compute(c, kind, &o);
    if (rc != CS_OK)
        return rc;
    cs_fabric *f = cs_xcalloc(1, sizeof *f);
    f->c = *c;
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
    f->k = o.g.radix;
    f->down = o.g.down;
    f->up = o.g.up;
    int k = f->k;
    f->rail = o.g.rail;
    f->nodes_per_su = o.nodes_per_su;
    f->tiers = o.g.tiers;
    f->leaves = o.g.leaves;
    /* Link numbering. */
    int G = f->gpus, E = f->eps;
    f->b_nvl_up = 0;
    f->b_nvl_dn = G;
    f->b_bridge = 2 * G;
    f->b_nic_up = 2 * G + f->nodes;
    f->b_nic_dn = f->b_nic_up + E;
    f->b_up1 = f->b_dn1 = f->b_up2 = f->b_dn2 = f->n_links = f->b_nic_dn + E;
    long n_up1 = 0, n_up2 = 0;
    struct cs_fabric_counts *ct = &f->counts;
    if (f->tiers == 2) {
        f->spines = (int)(((long)f->leaves * f->up + k - 1) / k);
        if (f->spines > f->up)
            f->spines = f->up;
        n_up1 = (long)f->leaves * f->spines;
        ct->switches_by_tier[1] = f->spines;
        ct->cables = (long)f->leaves * f->up;
    } else if (f->tiers == 3) {
        f->leaves_per_pod = k / 2;
        f->pods = (f->leaves + f->leaves_per_pod - 1) / f->leaves_per_pod;
        f->spines = f->up; /* aggregation switches per pod, one per leaf uplink */
        f->core_groups = (f->pods + 1) / 2;
        n_up1 = (long)f->leaves * f->spines;
        n_up2 = (long)f->pods * f->spines * f->core_groups;
        ct->switches_by_tier[1] = (long)f->pods * f->spines;
        ct->switches_by_tier[2] = (long)f->spines * f->core_groups;
        ct->cables = (long)f->leaves * f->up + (long)f->pods * f->spines * (k / 2);
    }
    f->b_dn1 = f->b_up1 + (int)n_up1;
    f->b_up2 = f->b_dn1 + (int)n_up1;
    f->b_dn2 = f->b_up2 + (int)n_up2;
    f->n_links = f->b_dn2 + (int)n_up2;
    ct->switches_by_tier[0] = f->nodes > 1 || kind->tiers == 1 ? f->leaves : 0;
    ct->nics = f->nodes > 1 ? E : 0;
    ct->cables += ct->nics;
    ct->switch_ports = ct->nics + 2 * (ct->cables - ct->nics);
    ct->optics = 2 * ct->cables;

    /* Capacities. */
    struct cs_cluster_view cv;
    if (cs_cluster_view_rates(c, NULL, &cv) != CS_OK) {
        free(f);
        return CS_EINVAL;
    }
    f->cap = cs_xcalloc((size_t)f->n_links, sizeof *f->cap);
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
    if (f->tiers == 2) {
        for (int l = 0; l < f->leaves; l++)
            for (int s = 0; s < f->spines; s++) {
                int cnt = f->up / f->spines + (s < f->up % f->spines ? 1 : 0);
                f->cap[f->b_up1 + l * f->spines + s] = f->cap[f->b_dn1 + l * f->spines + s] = cnt * nic;
            }
    } else if (f->tiers == 3) {
        for (long i = 0; i < n_up1; i++)
            f->cap[f->b_up1 + i] = f->cap[f->b_dn1 + i] = nic;
        for (long i = 0; i < n_up2; i++) {
            int j = (int)(i % f->core_groups);
            int cnt = (k / 2) / f->core_groups + (j < (k / 2) % f->core_groups ? 1 : 0);
            f->cap[f->b_up2 + i] = f->cap[f->b_dn2 + i] = cnt * nic;
        }
    }
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
    if (f->tiers == 2)
        return f->up;
    if (f->tiers == 3) {
        long p = (long)f->spines * f->core_groups;
        return p > 64 ? 64 : (int)p;
    }
    return 1;
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
    return f->tiers;
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
    return leaf_of_ep(f, ep_of_gpu(f, gpu));
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
    int es = ep_of_gpu(f, src), ed = ep_of_gpu(f, dst);
    int ls = leaf_of_ep(f, es), ld = leaf_of_ep(f, ed);
    links[n++] = f->b_nic_up + es;
    hops = 1;
    /* d-mod-k: the uplink is chosen by the destination (static IB routing);
     * ECMP: by a hash of (seed, src, dst, flow id). */
    /* d-mod-k numbers the hosts leaf by leaf (Zahavi et al. 2010): a rail
     * leaf's hosts are its scalable unit's nodes on that rail. Numbering
     * them node * nics + rail instead would send every flow of rail r
     * through the same spine. */
    uint64_t d = f->rail ? (uint64_t)ld * (uint64_t)f->down + (uint64_t)((ed / f->nics_per_node) % f->nodes_per_su)
                         : (uint64_t)ed;
    uint64_t h = f->route == CS_ROUTE_DMODK      ? d
                 : f->route == CS_ROUTE_ADAPTIVE ? flow_id
                                                 : mix64(f->seed ^ mix64((uint64_t)src * 0x100000001ULL ^
                                                                         ((uint64_t)dst << 32) ^ mix64(flow_id)));
    if (ls != ld && f->tiers == 2) {
        int j = (int)(h % (uint64_t)f->up), s = j % f->spines;
        links[n++] = f->b_up1 + ls * f->spines + s;
        links[n++] = f->b_dn1 + ld * f->spines + s;
        hops = 3;
    } else if (ls != ld && f->tiers == 3) {
        int a = (int)(h % (uint64_t)f->spines);
        int ps = ls / f->leaves_per_pod, pd = ld / f->leaves_per_pod;
        links[n++] = f->b_up1 + ls * f->spines + a;
        if (ps == pd) {
            hops = 3;
        } else {
            int j = (int)((h / (uint64_t)f->spines) % (uint64_t)f->core_groups);
            links[n++] = f->b_up2 + (ps * f->spines + a) * f->core_groups + j;
            links[n++] = f->b_dn2 + (pd * f->spines + a) * f->core_groups + j;
            hops = 5;
        }
        links[n++] = f->b_dn1 + ld * f->spines + a;
    }
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
