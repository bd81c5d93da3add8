/* mig.c: capacity in MIG slices (models layer, trace replay; see
 * sched_internal.h). Every GPU has S slices (cs_sched_config.mig_slices,
 * by default CS_SCHED_MIG_SLICES: 7 on an A100/H100 after the NVIDIA MIG
 * User Guide); a whole GPU is one with all S free. A job asking for less
 * than one GPU, with MIG on, runs on ceil(gpus x S) slices of one GPU. */
#include "sched_internal.h"

#include <math.h>

/* The one place a GPU's free slices change: every aggregate follows. */
void cs_sched__gpu_set(struct cs__sim *s, int node, int gpu, int slices)
{
    int g = s->node_group[node];
    int old = s->gpu_free[gpu];
    if (old == slices)
        return;
    cs__gbs(s, g)[old]--;
    cs__gbs(s, g)[slices]++;
    s->grp_free_slices[g] += slices - old;
    int dwhole = (slices == S7) - (old == S7);
    if (dwhole) {
        cs__nbf(s, g)[s->node_free[node]]--;
        s->node_free[node] += dwhole;
        cs__nbf(s, g)[s->node_free[node]]++;
        s->grp_free_whole[g] += dwhole;
        s->leaf_free[s->node_leaf[node]] += dwhole;
    }
    s->gpu_free[gpu] = (unsigned char)slices;
}

bool cs_sched__mig_fits(struct cs__sim *s, const struct cs__job *j, int g)
{
    const long *h = cs__gbs(s, g);
    for (int k = j->slices; k <= S7; k++)
        if (h[k] > 0)
            return true;
    return false;
}

int cs_sched__mig_pick(const struct cs__sim *s, const struct cs__job *j, int g, int *node)
{
    int n0 = s->grp_node0[g], n1 = n0 + s->cfg->groups[g].nodes, gpn = cs__gpn(s, g);
    int bg = -1, bn = -1;
    for (int v = n0; v < n1; v++)
        for (int k = 0; k < gpn; k++) {
            int gp = s->node_gpu0[v] + k, f = s->gpu_free[gp];
            if (f >= j->slices && (bg < 0 || f < s->gpu_free[bg])) {
                bg = gp;
                bn = v;
            }
        }
    *node = bn;
    return bg;
}

void cs_sched__job_shape(int S, bool mig, double gpus, struct cs__job *j)
{
    if (gpus < 1 && mig) {
        j->whole = 0;
        j->slices = (int)ceil(gpus * S - 1e-9);
        if (j->slices < 1)
            j->slices = 1;
        j->need = j->slices;
    } else {
        j->whole = (int)ceil(gpus - 1e-9);
        if (j->whole < 1)
            j->whole = 1;
        j->slices = S;
        j->need = j->whole * S;
    }
}
