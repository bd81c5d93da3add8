/* placement.c: where a job goes (models layer, trace replay; see
 * sched_internal.h and docs/replay.md, "The cluster"). The group is the first
 * allowed one where the job fits; inside it, a one-node job takes the
 * lowest node with room (packed), the tightest (best-fit) or a uniformly
 * random one (scattered); a multi-node job takes one leaf that holds it
 * when there is one (lowest or tightest), else spans leaves with most free
 * GPUs first, nodes with most free GPUs first inside a leaf, so that a job
 * uses few nodes and few leaf uplinks. */
#include "sched_internal.h"

#include "clustersim/base/xmalloc.h"

#include <assert.h>
#include <string.h>

static bool cs__fits_group(struct cs__sim *s, const struct cs__job *j, int g)
{
    if (j->whole == 0)
        return cs_sched__mig_fits(s, j, g);
    int gpn = cs__gpn(s, g);
    if (j->whole <= gpn) {
        const long *h = cs__nbf(s, g);
        for (int k = j->whole; k <= gpn; k++)
            if (h[k] > 0)
                return true;
        return false;
    }
    return s->grp_free_whole[g] >= j->whole;
}

int cs_sched__fit_group(struct cs__sim *s, const struct cs__job *j)
{
    for (int g = 0; g < s->cfg->n_groups; g++)
        if ((j->groups >> g & 1u) && cs__fits_group(s, j, g))
            return g;
    return -1;
}

static void cs__take(struct cs__sim *s, int node, int gpu, int slices, int *list, int *n)
{
    cs_sched__gpu_set(s, node, gpu, s->gpu_free[gpu] - slices);
    list[(*n)++] = gpu;
}

/* Nodes of `g` with whole free GPUs, in the order the policy takes them:
 * leaves chosen first (one leaf when one has room), nodes with most free
 * GPUs first inside a leaf (fewest nodes per job). Returns the count. */
static int cs__multi_nodes(struct cs__sim *s, int g, int need, int *out)
{
    int n0 = s->grp_node0[g], n1 = n0 + s->cfg->groups[g].nodes, cnt = 0;
    enum cs_sched_place pl = s->cfg->place;
    if (pl == CS_SCHED_SCATTERED) {
        for (int v = n0; v < n1; v++)
            if (s->node_free[v] > 0)
                out[cnt++] = v;
        for (int i = cnt - 1; i > 0; i--) {  /* Fisher-Yates */
            int k = (int)gsl_rng_uniform_int(s->rng, (unsigned long)i + 1), tmp = out[i];
            out[i] = out[k];
            out[k] = tmp;
        }
        return cnt;
    }
    /* one leaf that holds the whole job: lowest (packed) or tightest (bestfit) */
    int best = -1;
    for (int v = n0; v < n1; v++) {
        int L = s->node_leaf[v];
        if (v > n0 && s->node_leaf[v - 1] == L)
            continue;
        if (s->leaf_free[L] >= need &&
            (best < 0 || (pl == CS_SCHED_BESTFIT && s->leaf_free[L] < s->leaf_free[best])))
            best = L;
        if (best >= 0 && pl == CS_SCHED_PACKED)
            break;
    }
    for (int v = n0; v < n1; v++)
        if (s->node_free[v] > 0 && (best < 0 || s->node_leaf[v] == best))
            out[cnt++] = v;
    /* most free first; leaves with most free first when spanning; stable */
    for (int i = 1; i < cnt; i++) {
        int v = out[i], k = i;
        while (k > 0) {
            int u = out[k - 1];
            long lu = s->leaf_free[s->node_leaf[u]], lv = s->leaf_free[s->node_leaf[v]];
            bool before = best < 0 && s->node_leaf[u] != s->node_leaf[v] ? lv > lu
                                                                          : s->node_free[v] > s->node_free[u];
            if (!before)
                break;
            out[k] = u;
            k--;
        }
        out[k] = v;
    }
    return cnt;
}

void cs_sched__place(struct cs__sim *s, long ji, int g)
{
    struct cs__job *j = &s->jobs[ji];
    int *list = s->gpu_list + s->gpu_off[ji], n = 0;
    int n0 = s->grp_node0[g], n1 = n0 + s->cfg->groups[g].nodes, gpn = cs__gpn(s, g);
    enum cs_sched_place pl = s->cfg->place;
    if (j->whole == 0) {  /* MIG slice: the GPU with the fewest free slices that fit */
        int bn;
        int bg = cs_sched__mig_pick(s, j, g, &bn);
        assert(bg >= 0);
        cs__take(s, bn, bg, j->slices, list, &n);
    } else if (j->whole <= gpn) {  /* one node */
        int pick = -1;
        if (pl == CS_SCHED_SCATTERED) {
            long fit = 0;
            for (int k = j->whole; k <= gpn; k++)
                fit += cs__nbf(s, g)[k];
            long want = (long)gsl_rng_uniform_int(s->rng, (unsigned long)fit);
            for (int v = n0; v < n1 && pick < 0; v++)
                if (s->node_free[v] >= j->whole && want-- == 0)
                    pick = v;
        } else {
            for (int v = n0; v < n1; v++)
                if (s->node_free[v] >= j->whole &&
                    (pick < 0 || (pl == CS_SCHED_BESTFIT && s->node_free[v] < s->node_free[pick]))) {
                    pick = v;
                    if (pl == CS_SCHED_PACKED || s->node_free[v] == j->whole)
                        break;
                }
        }
        assert(pick >= 0);
        for (int k = 0; k < gpn && n < j->whole; k++)
            if (s->gpu_free[s->node_gpu0[pick] + k] == S7)
                cs__take(s, pick, s->node_gpu0[pick] + k, S7, list, &n);
    } else {  /* several nodes */
        int cnt = cs__multi_nodes(s, g, j->whole, s->scratch);
        int *order = s->scratch;
        for (int i = 0; i < cnt && n < j->whole; i++) {
            int v = order[i];
            for (int k = 0; k < gpn && n < j->whole; k++)
                if (s->gpu_free[s->node_gpu0[v] + k] == S7)
                    cs__take(s, v, s->node_gpu0[v] + k, S7, list, &n);
        }
    }
    assert(n == (j->whole ? j->whole : 1));
    j->n_gpu = n;
    j->group = g;
    /* nodes and leaves spanned (list is grouped by node) */
    int nodes = 0, leaves = 0, last_node = -1;
    for (int i = 0; i < n; i++) {
        int v = n0 + (list[i] - s->node_gpu0[n0]) / gpn;
        if (v != last_node) {
            nodes++;
            bool seen = false;
            for (int k = 0; k < i && !seen; k++)
                seen = s->node_leaf[n0 + (list[k] - s->node_gpu0[n0]) / gpn] == s->node_leaf[v];
            leaves += !seen;
            last_node = v;
        }
    }
    j->nodes = nodes;
    j->leaves = leaves;
}

void cs_sched__release(struct cs__sim *s, long ji)
{
    struct cs__job *j = &s->jobs[ji];
    const int *list = s->gpu_list + s->gpu_off[ji];
    int g = j->group, gpn = cs__gpn(s, g), n0 = s->grp_node0[g];
    for (int i = 0; i < j->n_gpu; i++) {
        int v = n0 + (list[i] - s->node_gpu0[n0]) / gpn;
        cs_sched__gpu_set(s, v, list[i], s->gpu_free[list[i]] + j->slices);
    }
}

uint32_t *cs_sched__type_masks(const struct cs_sched_config *cfg, const struct cs_trace *t)
{
    size_t n = t->gpu_types.n;
    uint32_t *m = cs_xcalloc(n + 1, sizeof *m);
    for (size_t k = 0; k < n; k++)
        for (int g = 0; g < cfg->n_groups; g++)
            if (strcmp(cfg->groups[g].gpu_type, t->gpu_types.names[k]) == 0)
                m[k] |= 1u << g;
    return m;
}
