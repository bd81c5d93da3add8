/* fat_tree.c: the k-ary fat tree (Al-Fares, Loukissas & Vahdat, "A
 * Scalable, Commodity Data Center Network Architecture", SIGCOMM 2008) in
 * two or three tiers, and the tier machinery the rail-optimized,
 * single-switch and NVLink-domain descriptors reuse. Layer: models/.
 *
 * Leaf: k ports split by fabric.oversubscription r into
 * down = floor(k r / (1 + r)) and up = k - down. Two tiers: leaves
 * ceil(E / down) (rail-optimized: scalable units x rails), spines
 * ceil(leaves x up / k), leaf l's `up` cables spread over the spines, the
 * parallel cables of one (leaf, spine) pair merged into one link of their
 * summed capacity (d-mod-k then sees the bundle, as a subnet manager
 * balancing over parallel ports does). Three tiers: pods of agg_down
 * leaves, `up` aggregation switches per pod (one per leaf uplink), each
 * with agg_up cables to its core group of ceil(pods x agg_up / k) cores;
 * agg_down = floor(k r2 / (1 + r2)) and agg_up = k - agg_down for the
 * aggregation oversubscription r2 (fabric.agg_oversubscription; r2 = 1:
 * k/2 and k/2 as in Al-Fares). */
#include "topo_internal.h"

#include <math.h>

cs_status cs__tree_geometry(const struct cs_cluster_cfg *c, int want, bool rail, struct topo_shape *s, char *why,
                            size_t n)
{
    struct cs_fabric_geom *g = &s->g;
    int k = s->k;
    double r = c->fabric.oversubscription >= 1.0 ? c->fabric.oversubscription : 1.0;
    double r2 = c->fabric.agg_oversubscription >= 1.0 ? c->fabric.agg_oversubscription : 1.0;
    s->down = (int)floor(k * r / (1.0 + r));
    if (s->down < 1)
        s->down = 1;
    s->up = k - s->down;
    if (s->up < 1)
        s->up = 1;
    /* The aggregation tier; r2 = 1 keeps Al-Fares' k/2 down, k/2 up. */
    int agg_down = k / 2, agg_up = k / 2;
    if (r2 > 1.0) {
        agg_down = (int)floor(k * r2 / (1.0 + r2));
        if (agg_down >= k)
            agg_down = k - 1;
        agg_up = k - agg_down;
    }
    long cap2 = (long)k * s->down;              /* 2-tier endpoints: k leaves */
    long cap3 = (long)k * agg_down * s->down;   /* 3-tier: k pods of agg_down leaves */
    g->rail = rail;
    s->nodes_per_su = s->down < 32 ? s->down : 32;
    s->per_leaf = s->down;
    if (want == 1 || c->nodes == 1) {
        s->tiers = 1;
        s->leaves = 1;
    } else {
        if (rail)
            s->leaves = ((c->nodes + s->nodes_per_su - 1) / s->nodes_per_su) * s->nics;
        else
            s->leaves = (s->eps + s->down - 1) / s->down;
        bool fits2 = s->leaves <= k && (long)s->eps <= cap2;
        if (want == 0)
            want = fits2 ? 2 : 3;
        if (want < 2 || want > 3)
            return cs__topo_why(why, n, "tiers: expected 1, 2 or 3, got %d", want);
        if (want == 2 && !fits2)
            return cs__topo_why(why, n,
                                "tiers: %d endpoints need %d leaves of %d down ports; two tiers of radix %d hold "
                                "at most %ld endpoints and %d leaves",
                                s->eps, s->leaves, s->down, k, cap2, k);
        if (want == 3 && (s->up > k / 2 || (long)s->eps > cap3))
            return cs__topo_why(why, n,
                                "tiers: three tiers of radix %d with %d leaf uplinks hold at most %ld endpoints "
                                "(and at most %d uplinks per leaf), the cluster has %d",
                                k, s->up, cap3, k / 2, s->eps);
        s->tiers = want;
    }
    if (s->tiers == 2) {
        s->spines = (int)(((long)s->leaves * s->up + k - 1) / k);
        if (s->spines > s->up)
            s->spines = s->up;
        s->b[0] = 0;                                   /* leaf -> spine */
        s->b[1] = (long)s->leaves * s->spines;         /* spine -> leaf */
        s->n_sw_links = 2 * s->b[1];
    } else if (s->tiers == 3) {
        s->leaves_per_pod = agg_down;
        s->pods = (s->leaves + s->leaves_per_pod - 1) / s->leaves_per_pod;
        s->spines = s->up; /* aggregation switches per pod, one per leaf uplink */
        s->agg_up = agg_up;
        s->core_groups = r2 > 1.0 ? (int)(((long)s->pods * agg_up + k - 1) / k) : (s->pods + 1) / 2;
        if (s->core_groups > agg_up)
            s->core_groups = agg_up;
        long n1 = (long)s->leaves * s->spines, n2 = (long)s->pods * s->spines * s->core_groups;
        s->b[0] = 0;
        s->b[1] = n1;
        s->b[2] = 2 * n1;
        s->b[3] = 2 * n1 + n2;
        s->n_sw_links = 2 * n1 + 2 * n2;
        g->agg_down = agg_down;
        g->agg_up = agg_up;
    }
    g->tiers = s->tiers;
    g->radix = k;
    g->down = s->down;
    g->up = s->up;
    g->leaves = s->leaves;
    g->spines = s->spines;
    if (s->tiers == 1)
        g->nodes_per_leaf = c->nodes;
    else if (rail)
        g->nodes_per_leaf = s->nodes_per_su;
    else
        g->nodes_per_leaf = (double)s->down / s->nics;
    g->nodes_per_pod = s->tiers == 3 ? (double)agg_down * s->down / s->nics : (double)c->nodes;
    return CS_OK;
}

int cs__tree_leaf_fn(const struct topo_shape *s, int e)
{
    return cs__tree_leaf_of(s, e);
}

void cs__tree_wire(cs_fabric *f, double nic)
{
    const struct topo_shape *s = &f->sh;
    double *cap = f->cap + f->b_sw;
    if (s->tiers == 2) {
        for (int l = 0; l < s->leaves; l++)
            for (int sp = 0; sp < s->spines; sp++) {
                int cnt = s->up / s->spines + (sp < s->up % s->spines ? 1 : 0);
                cap[s->b[0] + (long)l * s->spines + sp] = cap[s->b[1] + (long)l * s->spines + sp] = cnt * nic;
            }
    } else if (s->tiers == 3) {
        for (long i = 0; i < s->b[1]; i++)
            cap[s->b[0] + i] = cap[s->b[1] + i] = nic;
        long n2 = s->b[3] - s->b[2];
        for (long i = 0; i < n2; i++) {
            int j = (int)(i % s->core_groups);
            int cnt = s->agg_up / s->core_groups + (j < s->agg_up % s->core_groups ? 1 : 0);
            cap[s->b[2] + i] = cap[s->b[3] + i] = cnt * nic;
        }
    }
}

int cs__tree_route(const cs_fabric *f, int es, int ed, uint64_t h, int *links, int *hops)
{
    const struct topo_shape *s = &f->sh;
    int ls = cs__tree_leaf_of(s, es), ld = cs__tree_leaf_of(s, ed), n = 0;
    *hops = 1;
    if (ls == ld || s->tiers == 1)
        return 0;
    if (s->tiers == 2) {
        int j = (int)(h % (uint64_t)s->up), sp = j % s->spines;
        links[n++] = f->b_sw + (int)(s->b[0] + (long)ls * s->spines + sp);
        links[n++] = f->b_sw + (int)(s->b[1] + (long)ld * s->spines + sp);
        *hops = 3;
        return n;
    }
    int a = (int)(h % (uint64_t)s->spines);
    int ps = ls / s->leaves_per_pod, pd = ld / s->leaves_per_pod;
    links[n++] = f->b_sw + (int)(s->b[0] + (long)ls * s->spines + a);
    if (ps == pd) {
        *hops = 3;
    } else {
        int j = (int)((h / (uint64_t)s->spines) % (uint64_t)s->core_groups);
        links[n++] = f->b_sw + (int)(s->b[2] + ((long)ps * s->spines + a) * s->core_groups + j);
        links[n++] = f->b_sw + (int)(s->b[3] + ((long)pd * s->spines + a) * s->core_groups + j);
        *hops = 5;
    }
    links[n++] = f->b_sw + (int)(s->b[1] + (long)ld * s->spines + a);
    return n;
}

int cs__tree_paths(const struct topo_shape *s)
{
    if (s->tiers == 2)
        return s->up;
    if (s->tiers == 3) {
        long p = (long)s->spines * s->core_groups;
        return p > 64 ? 64 : (int)p;
    }
    return 1;
}

void cs__tree_counts(const struct topo_shape *s, int nodes, struct cs_fabric_counts *ct)
{
    if (s->tiers == 2) {
        ct->switches_by_tier[1] = s->spines;
        ct->cables_by_tier[1] = (long)s->leaves * s->up;
    } else if (s->tiers == 3) {
        ct->switches_by_tier[1] = (long)s->pods * s->spines;
        ct->switches_by_tier[2] = (long)s->spines * s->core_groups;
        ct->cables_by_tier[1] = (long)s->leaves * s->up;
        ct->cables_by_tier[2] = (long)s->pods * s->spines * s->agg_up;
    }
    ct->switches_by_tier[0] = nodes > 1 ? s->leaves : 0;
    ct->nics = nodes > 1 ? s->eps : 0;
    ct->cables_by_tier[0] = ct->nics;
    ct->cables = ct->cables_by_tier[0] + ct->cables_by_tier[1] + ct->cables_by_tier[2];
    ct->switch_ports = ct->nics + 2 * (ct->cables - ct->nics);
    ct->optical_cables = ct->cables; /* all optical, as in the DGX SuperPOD RA */
    ct->optics = 2 * ct->optical_cables;
}

static cs_status fat_tree_geometry(const struct cs_cluster_cfg *c, const struct cs_topology_kind *kind,
                                   struct topo_shape *s, char *why, size_t n)
{
    return cs__tree_geometry(c, kind->tiers >= 0 ? kind->tiers : c->fabric.tiers, kind->rail, s, why, n);
}

const struct cs_topo_ops cs__topo_fat_tree = {
    "fat-tree", fat_tree_geometry, cs__tree_wire, cs__tree_route, cs__tree_counts, cs__tree_leaf_fn, cs__tree_paths,
};
