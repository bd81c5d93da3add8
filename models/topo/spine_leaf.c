/* spine_leaf.c: a two-tier leaf-spine (Clos) fabric built from the numbers
 * an architect gives (cluster.fabric.leaves, uplinks_per_leaf, spines and
 * the link's switch radix k), every cable its own link, so that ECMP path
 * diversity and hot spots follow from the numbers. Layer: models/.
 *
 * Defaults (docs/fabric.md section 2): uplinks_per_leaf = k - floor(k r /
 * (1 + r)) for fabric.oversubscription r; a leaf's down ports are
 * k - uplinks; leaves = ceil(E / down) filled one after another (given
 * leaves: ceil(E / leaves) endpoints each, spread evenly); spines = the
 * fewest, at least ceil(leaves x uplinks / k), whose ports take every
 * cable. Cable j of leaf l goes to spine (j + l) mod S (rotated so the
 * spines' port counts differ by at most one). A route between leaves picks
 * one of the `uplinks` cables: by the destination (d-mod-k, InfiniBand:
 * cable ed mod uplinks) or by a hash of the flow (ECMP, Ethernet/RoCE),
 * then one of the destination leaf's parallel cables from that spine (the
 * same rank among the bundle under d-mod-k, another hash under ECMP); flows that hash onto the same
 * cable share it (the hot spots of ECMP, Al-Fares et al. 2010 "Hedera"
 * section 2; Zhang et al. on ECMP collisions). */
#include "topo_internal.h"

#include <math.h>

/* The most cables any spine takes under the rotated wiring: every spine
 * gets up / S cables from each leaf, and the rem = up mod S extra cables of
 * leaf l land on spines l .. l + rem - 1 (mod S): (L / S) x rem from whole
 * rounds of S leaves, plus at most min(rem, L mod S) from the last. */
static long max_spine_ports(int leaves, int up, int S)
{
    int rem = up % S;
    return (long)leaves * (up / S) + (long)(leaves / S) * rem + (rem < leaves % S ? rem : leaves % S);
}

static cs_status sl_geometry(const struct cs_cluster_cfg *c, const struct cs_topology_kind *kind,
                             struct topo_shape *s, char *why, size_t n)
{
    (void)kind;
    const struct cs_fabric_cfg *fc = &c->fabric;
    int k = s->k;
    struct cs_fabric_geom *g = &s->g;
    /* Without the architect's numbers a leaf takes whole nodes: the most
     * nodes w whose w x nics ports plus ceil(w x nics / r) uplinks fit the
     * radix, so that no node straddles two leaves and the leaf's ratio is
     * r as stated (a node split over two leaves sends part of its rails
     * through the spines, which no design guide wires on purpose). Where
     * not even one node's NICs fit beside their uplinks, ports are split
     * by r as the fat tree splits them. */
    double r = fc->oversubscription >= 1.0 ? fc->oversubscription : 1.0;
    int whole = 0;
    if (fc->uplinks_per_leaf <= 0 && fc->leaves <= 0 && s->nics >= 1)
        for (int w = 1; (long)w * s->nics < k; w++) {
            int d = w * s->nics, u = (int)ceil(d / r - 1e-9);
            if (d + (u < 1 ? 1 : u) > k)
                break;
            whole = w;
        }
    if (fc->uplinks_per_leaf > 0) {
        if (fc->uplinks_per_leaf >= k)
            return cs__topo_why(why, n, "uplinks_per_leaf: expected fewer than the radix %d, got %d", k,
                                fc->uplinks_per_leaf);
        s->up = fc->uplinks_per_leaf;
    } else if (whole > 0) {
        int d = whole * s->nics, u = (int)ceil(d / r - 1e-9);
        s->up = u < 1 ? 1 : u;
    } else {
        int down = (int)floor(k * r / (1.0 + r));
        if (down < 1)
            down = 1;
        s->up = k - down < 1 ? 1 : k - down;
    }
    s->down = whole > 0 ? whole * s->nics : k - s->up;
    if (s->down < 1)
        s->down = 1;
    if (c->nodes == 1 && fc->leaves <= 0 && fc->spines <= 0 && fc->uplinks_per_leaf <= 0) {
        s->tiers = 1;
        s->leaves = 1;
        s->per_leaf = s->down;
    } else {
        s->tiers = 2;
        if (fc->leaves > 0) {
            s->leaves = fc->leaves;
            s->per_leaf = (s->eps + s->leaves - 1) / s->leaves;
            if (s->per_leaf > s->down)
                return cs__topo_why(why, n,
                                    "leaves: %d leaves of %d down ports (radix %d - %d uplinks) hold %ld NIC "
                                    "ports, the cluster has %d",
                                    s->leaves, s->down, k, s->up, (long)s->leaves * s->down, s->eps);
        } else {
            s->per_leaf = s->down;
            s->leaves = (s->eps + s->down - 1) / s->down;
        }
        if (fc->spines > 0) {
            s->spines = fc->spines;
            if (s->spines > s->up)
                return cs__topo_why(why, n,
                                    "spines: %d spines but only %d uplinks per leaf: a leaf would miss a spine "
                                    "(expected at most uplinks_per_leaf)",
                                    s->spines, s->up);
            long m = max_spine_ports(s->leaves, s->up, s->spines);
            if (m > k)
                return cs__topo_why(why, n,
                                    "spines: %d spines of %d ports cannot take %d leaves x %d uplinks (a spine "
                                    "would need %ld ports)",
                                    s->spines, k, s->leaves, s->up, m);
        } else {
            /* The fewest spines that divide the uplinks (every leaf then
             * has up / S cables to every spine, the symmetric Clos that
             * destination routing balances) and take every cable. */
            int S = (int)(((long)s->leaves * s->up + k - 1) / k);
            if (S < 1)
                S = 1;
            while (S <= s->up && (s->up % S != 0 || max_spine_ports(s->leaves, s->up, S) > k))
                S++;
            if (S > s->up)
                return cs__topo_why(why, n,
                                    "leaves: %d leaves x %d uplinks do not fit spines of %d ports (a spine-leaf "
                                    "holds at most %d leaves at this radix)",
                                    s->leaves, s->up, k, k);
            s->spines = S;
        }
        long cables = (long)s->leaves * s->up;
        s->b[0] = 0;       /* leaf l's cable j, up: l x up + j */
        s->b[1] = cables;  /* the same cable, down */
        s->n_sw_links = 2 * cables;
    }
    g->tiers = s->tiers;
    g->radix = k;
    g->down = s->tiers == 1 ? s->down : s->per_leaf;
    g->up = s->up;
    g->leaves = s->leaves;
    g->spines = s->spines;
    g->nodes_per_leaf = s->tiers == 1 ? c->nodes : (double)s->per_leaf / s->nics;
    g->nodes_per_pod = c->nodes;
    return CS_OK;
}

static void sl_wire(cs_fabric *f, double nic)
{
    const struct topo_shape *s = &f->sh;
    for (long i = 0; i < s->n_sw_links; i++)
        f->cap[f->b_sw + i] = nic;
}

static int sl_leaf_of(const struct topo_shape *s, int e)
{
    return s->tiers == 1 ? 0 : e / s->per_leaf;
}

/* Cable j of leaf l lands on spine (j + rot(l)) mod S: rotated by the
 * leaf when S does not divide the uplinks (so spines' port counts differ by
 * at most one), straight when it does (cable j of every leaf on spine
 * j mod S, the symmetric Clos). */
static int sl_rot(const struct topo_shape *s, int leaf)
{
    return s->up % s->spines == 0 ? 0 : leaf;
}

static int sl_route(const cs_fabric *f, int es, int ed, uint64_t h, int *links, int *hops)
{
    const struct topo_shape *s = &f->sh;
    int ls = sl_leaf_of(s, es), ld = sl_leaf_of(s, ed);
    *hops = 1;
    if (ls == ld || s->tiers == 1)
        return 0;
    int S = s->spines, up = s->up, rs = sl_rot(s, ls), rd = sl_rot(s, ld);
    int j, j2;
    if (f->route == CS_ROUTE_DMODK) {
        /* d-mod-k (Zahavi et al. 2010, as OpenSM's ftree routing does):
         * the destination alone picks the spine, so every leaf reaches ed
         * through the same spine and the same cable down. ed's cable is
         * its index in its leaf mod `up` (each of the leaf's cables serves
         * per_leaf / up destinations); that cable comes from spine
         * (j2 + rot(ld)) mod S; the source leaf takes its cable to that
         * spine of the same rank in its bundle (on the symmetric Clos:
         * cable j2 itself). */
        int local = ed - ld * s->per_leaf;
        j2 = (local < 0 ? 0 : local) % up;
        int sp = (j2 + rd) % S;
        int base = ((sp - rs) % S + S) % S;
        int cnt = up / S + (base < up % S ? 1 : 0);
        j = base + S * ((j2 / S) % cnt);
    } else {
        /* ECMP: a hash picks the source leaf's cable, another part of it
         * one of the destination leaf's cables from the spine it reached;
         * adaptive routing enumerates the uplinks by flow id the same way. */
        j = (int)(h % (uint64_t)up);
        int sp = (j + rs) % S;
        int base = ((sp - rd) % S + S) % S;
        int cnt = up / S + (base < up % S ? 1 : 0);
        j2 = base + S * (int)((h / (uint64_t)up) % (uint64_t)cnt);
    }
    links[0] = f->b_sw + (int)(s->b[0] + (long)ls * up + j);
    links[1] = f->b_sw + (int)(s->b[1] + (long)ld * up + j2);
    *hops = 3;
    return 2;
}

static void sl_counts(const struct topo_shape *s, int nodes, struct cs_fabric_counts *ct)
{
    ct->switches_by_tier[0] = nodes > 1 ? s->leaves : 0;
    ct->switches_by_tier[1] = s->tiers == 2 ? s->spines : 0;
    ct->nics = nodes > 1 ? s->eps : 0;
    ct->cables_by_tier[0] = ct->nics;
    ct->cables_by_tier[1] = s->tiers == 2 ? (long)s->leaves * s->up : 0;
    ct->cables = ct->cables_by_tier[0] + ct->cables_by_tier[1];
    ct->switch_ports = ct->nics + 2 * ct->cables_by_tier[1];
    ct->optical_cables = ct->cables;
    ct->optics = 2 * ct->optical_cables;
}

static int sl_paths(const struct topo_shape *s)
{
    return s->tiers == 2 ? (s->up > 64 ? 64 : s->up) : 1;
}

const struct cs_topo_ops cs__topo_spine_leaf = {
    "spine-leaf", sl_geometry, sl_wire, sl_route, sl_counts, sl_leaf_of, sl_paths,
};
