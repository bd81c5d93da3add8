/* partitions.c: the partitions of a replay (models layer; see
 * sched_internal.h and docs/replay.md, "The cluster"): a job belongs to the
 * configured partition named by its trace row, else to the first one whose
 * match rule (GPUs and duration bounds) it meets, else to none. Its
 * priority is the row's plus the partition's; a partition's quota caps the
 * share of the cluster's slices its running jobs hold. */
#include "sched_internal.h"

#include "clustersim/base/xmalloc.h"

#include <math.h>
#include <string.h>

bool cs_sched__check_quotas(const struct cs_sched_config *c, cs_diags *d)
{
    bool ok = true;
    double qsum = 0;
    for (int p = 0; p < c->n_partitions; p++) {
        double q = c->partitions[p].quota;
        if (!isnan(q) && !(q >= 0 && q <= 1)) {
            cs_diag_error(d, NULL, 0, 0, "replay: partition %s: quota %g is outside [0, 1]",
                          c->partitions[p].name, q);
            ok = false;
        }
        if (!isnan(q))
            qsum += q;
    }
    if (qsum > 1 + 1e-9) {
        cs_diag_error(d, NULL, 0, 0, "replay: partition quotas add up to %.3g, more than the whole cluster", qsum);
        ok = false;
    }
    return ok;
}

int *cs_sched__partition_map(const struct cs_sched_config *cfg, const struct cs_trace *t)
{
    size_t n = t->partitions.n;
    int NP = cfg->n_partitions;
    int *map = cs_xmalloc((n + 1) * sizeof *map);
    for (size_t p = 0; p < n; p++) {
        map[p] = NP;
        for (int q = 0; q < NP; q++)
            if (strcmp(cfg->partitions[q].name, t->partitions.names[p]) == 0)
                map[p] = q;
    }
    return map;
}

void cs_sched__assign_partition(const struct cs_sched_config *cfg, const int *map, size_t nmap,
                                const struct cs_trace_job *tj, struct cs__job *j)
{
    int NP = cfg->n_partitions;
    j->part = tj->partition >= 0 && (size_t)tj->partition < nmap ? map[tj->partition] : NP;
    for (int q = 0; j->part == NP && q < NP; q++) {
        const struct cs_sched_partition *pp = &cfg->partitions[q];
        if (pp->rule && !(tj->gpus < pp->min_gpus) && !(tj->gpus > pp->max_gpus) &&
            !(tj->duration_s > pp->max_duration_s))
            j->part = q;
    }
    j->prio = tj->priority + (j->part < NP ? cfg->partitions[j->part].priority : 0);
}

bool cs_sched__quota_ok(const struct cs__sim *s, const struct cs__job *j)
{
    if (j->part >= s->cfg->n_partitions)
        return true;
    double q = s->cfg->partitions[j->part].quota;
    if (isnan(q))
        return true;
    return (double)(s->part_used[j->part] + j->need) <= q * (double)s->total_slices + 1e-9;
}

bool cs_sched__quota_ever(const struct cs_sched_config *cfg, const struct cs__job *j,
                          long total_slices)
{
    if (j->part >= cfg->n_partitions || isnan(cfg->partitions[j->part].quota))
        return true;
    return !(j->need > cfg->partitions[j->part].quota * (double)total_slices + 1e-9);
}
