/* dragonfly.c: the dragonfly (Kim, Dally, Scott & Abts, "Technology-Driven,
 * Highly-Scalable Dragonfly Topology", ISCA 2008). Layer: models/.
 *
 * Routers of radix k = p + (a - 1) + h: p terminals (NIC ports), a - 1
 * local links to every other router of its group (a routers, all-to-all),
 * h global links to other groups. Defaults balance the channels as the
 * paper recommends (a = 2p = 2h, section 3.1): h = floor((k + 1) / 4),
 * p = h, a = 2h (k = 64: h = p = 16, a = 32, 512 terminals per group);
 * cluster.fabric.dragonfly_{routers_per_group,terminals_per_router,
 * global_links_per_router} override. Groups g = ceil(E / (a p)), at most
 * a h + 1 (every group has a global cable to every other); each pair of
 * groups gets c = floor(a h / (g - 1)) parallel global cables. Group G's
 * global port q (router q / h) leads to group G + 1 + (q mod (g - 1))
 * (mod g), cable number q / (g - 1). One group alone needs only
 * ceil(E / p) routers.
 *
 * Routing: minimal (local, global, local: at most 4 routers), the global
 * cable chosen by the destination (d-mod-k) or the flow hash (ECMP); or
 * Valiant (cluster.fabric.dragonfly_routing: valiant; Valiant & Brebner
 * 1981 as applied in section 4.2 of the paper): minimally to a random
 * intermediate group, then minimally to the destination (at most 6
 * routers, 2 global hops), which spreads adversarial traffic over all
 * global links at twice the global load.
 * Cables: local links are short copper inside a group's cabinets, global
 * links optical (paper section 3); NIC cables optical as in the other
 * kinds. */
#include "topo_internal.h"

static cs_status df_geometry(const struct cs_cluster_cfg *c, const struct cs_topology_kind *kind,
                             struct topo_shape *s, char *why, size_t n)
{
    (void)kind;
    const struct cs_fabric_cfg *fc = &c->fabric;
    int k = s->k;
    int h = (k + 1) / 4;
    if (h < 1)
        h = 1;
    s->h = fc->df_global_per_router > 0 ? fc->df_global_per_router : h;
    s->p = fc->df_terminals_per_router > 0 ? fc->df_terminals_per_router : s->h;
    s->a = fc->df_routers_per_group > 0 ? fc->df_routers_per_group : 2 * s->h;
    if (s->p + s->a - 1 + s->h > k)
        return cs__topo_why(why, n,
                            "dragonfly_routers_per_group: routers of radix %d cannot have %d terminals + %d local "
                            "+ %d global ports",
                            k, s->p, s->a - 1, s->h);
    long per_group = (long)s->a * s->p;
    s->groups = (int)((s->eps + per_group - 1) / per_group);
    if (s->groups - 1 > s->a * s->h)
        return cs__topo_why(why, n,
                            "dragonfly_global_links_per_router: %d groups of %d routers x %d global links: at most "
                            "%d groups can all be joined, the cluster needs %d",
                            s->groups, s->a, s->h, s->a * s->h + 1, s->groups);
    if (s->groups == 1) {
        int used = (s->eps + s->p - 1) / s->p;
        if (used < s->a)
            s->a = used;
        s->c = 0;
    } else {
        s->c = s->a * s->h / (s->groups - 1);
    }
    s->valiant = fc->df_valiant;
    s->per_leaf = s->p;
    long routers = (long)s->groups * s->a;
    s->b[0] = 0;                                 /* local i -> j of group G */
    s->b[1] = routers * (s->a - 1);              /* global out of port q of group G */
    s->n_sw_links = s->b[1] + (long)s->groups * s->a * s->h;
    s->leaves = (int)routers;
    struct cs_fabric_geom *g = &s->g;
    g->tiers = s->groups > 1 ? 3 : s->a > 1 ? 2 : 1;
    s->tiers = g->tiers;
    g->radix = k;
    g->down = s->p;
    g->up = s->groups > 1 ? s->h : s->a - 1;
    g->leaves = (int)routers;
    g->nodes_per_leaf = (double)s->p / s->nics;
    g->nodes_per_pod = (double)per_group / s->nics;
    g->df_a = s->a;
    g->df_p = s->p;
    g->df_h = s->h;
    g->df_groups = s->groups;
    return CS_OK;
}

static void df_wire(cs_fabric *f, double nic)
{
    const struct topo_shape *s = &f->sh;
    double *cap = f->cap + f->b_sw;
    for (long i = 0; i < s->b[1]; i++)
        cap[s->b[0] + i] = nic;
    int used = (s->groups - 1) * s->c; /* global ports with a cable */
    for (int G = 0; G < s->groups; G++)
        for (int q = 0; q < s->a * s->h; q++)
            cap[s->b[1] + (long)G * s->a * s->h + q] = q < used ? nic : 0.0;
}

static int df_leaf_of(const struct topo_shape *s, int e)
{
    return e / s->p;
}

static int local_link(const cs_fabric *f, int from, int to)
{
    const struct topo_shape *s = &f->sh;
    int G = from / s->a, i = from % s->a, j = to % s->a;
    return f->b_sw + (int)(s->b[0] + ((long)G * s->a + i) * (s->a - 1) + (j < i ? j : j - 1));
}

/* From router *r (group Gs) over cable t to group Gd: the local hop to the
 * gateway if needed, the global cable; *r becomes the landing router. */
static void to_group(const cs_fabric *f, int *r, int Gd, int t, int *links, int *n, int *hops)
{
    const struct topo_shape *s = &f->sh;
    int g = s->groups, Gs = *r / s->a;
    int d = ((Gd - Gs - 1) % g + g) % g, q = d + (g - 1) * t;
    int gw = Gs * s->a + q / s->h;
    if (gw != *r) {
        links[(*n)++] = local_link(f, *r, gw);
        (*hops)++;
    }
    links[(*n)++] = f->b_sw + (int)(s->b[1] + (long)Gs * s->a * s->h + q);
    (*hops)++;
    int d2 = ((Gs - Gd - 1) % g + g) % g, q2 = d2 + (g - 1) * t;
    *r = Gd * s->a + q2 / s->h;
}

static int df_route(const cs_fabric *f, int es, int ed, uint64_t h, int *links, int *hops)
{
    const struct topo_shape *s = &f->sh;
    int rs = df_leaf_of(s, es), rd = df_leaf_of(s, ed), n = 0;
    *hops = 1;
    if (rs == rd)
        return 0;
    int Gs = rs / s->a, Gd = rd / s->a, r = rs;
    if (Gs != Gd) {
        uint64_t c = (uint64_t)s->c;
        if (s->valiant && s->groups >= 3) {
            uint64_t m = (uint64_t)s->groups - 2;
            int gi = (int)((h / c) % m), lo = Gs < Gd ? Gs : Gd, hi = Gs < Gd ? Gd : Gs;
            if (gi >= lo)
                gi++;
            if (gi >= hi)
                gi++;
            to_group(f, &r, gi, (int)(h % c), links, &n, hops);
            to_group(f, &r, Gd, (int)((h / c / m) % c), links, &n, hops);
        } else {
            to_group(f, &r, Gd, (int)(h % c), links, &n, hops);
        }
    }
    if (r != rd) {
        links[n++] = local_link(f, r, rd);
        (*hops)++;
    }
    return n;
}

static void df_counts(const struct topo_shape *s, int nodes, struct cs_fabric_counts *ct)
{
    long routers = (long)s->groups * s->a;
    ct->switches_by_tier[0] = nodes > 1 ? routers : 0;
    ct->nics = nodes > 1 ? s->eps : 0;
    ct->cables_by_tier[0] = ct->nics;
    ct->cables_by_tier[1] = nodes > 1 ? (long)s->groups * s->a * (s->a - 1) / 2 : 0;
    ct->cables_by_tier[2] = nodes > 1 ? (long)s->groups * (s->groups - 1) / 2 * s->c : 0;
    ct->cables = ct->cables_by_tier[0] + ct->cables_by_tier[1] + ct->cables_by_tier[2];
    ct->switch_ports = ct->nics + 2 * (ct->cables_by_tier[1] + ct->cables_by_tier[2]);
    ct->copper_cables = ct->cables_by_tier[1];
    ct->optical_cables = ct->cables_by_tier[0] + ct->cables_by_tier[2];
    ct->optics = 2 * ct->optical_cables;
}

/* Adaptive routing spreads over the c global cables between two groups. */
static int df_paths(const struct topo_shape *s)
{
    return s->groups > 1 ? (s->c > 64 ? 64 : s->c) : 1;
}

const struct cs_topo_ops cs__topo_dragonfly = {
    "dragonfly", df_geometry, df_wire, df_route, df_counts, df_leaf_of, df_paths,
};
