/* replay.c: the scheduler configuration and runs of a trace replay
 * (contract in clustersim/app/replay.h; docs/replay.md). */
#include "clustersim/app/replay.h"

#include <stdio.h>
#include <string.h>

void cs_app_replay_init(struct cs_app_replay *r, const struct cs_sched_config *cfg)
{
    memset(r, 0, sizeof *r);
    r->cfg = *cfg;
    r->cfg2 = *cfg;
    r->fabric_status = CS_OK;
}

/* The scenario's `scheduler:` section, for every setting not given (the
 * caller's settings override the scenario). */
static void apply_scheduler(const struct cs_scn_scheduler *sc, const struct cs_app_replay_given *g,
                            struct cs_sched_config *c)
{
    if (!sc->enabled)
        return;
    if (sc->policy >= 0 && !g->policy)
        c->policy = (enum cs_sched_policy)sc->policy;
    if (sc->placement >= 0 && !g->placement)
        c->place = (enum cs_sched_place)sc->placement;
    if (sc->preempt >= 0 && !g->preempt)
        c->preempt = sc->preempt != 0;
    if (sc->mig_slices >= 0 && !g->mig) {
        c->mig = sc->mig_slices > 0;
        c->mig_slices = sc->mig_slices;
    }
    if (sc->backfill_depth > 0 && !g->backfill_depth)
        c->backfill_depth = sc->backfill_depth;
    if (sc->n_partitions > 0 && !g->partitions) {
        c->n_partitions = sc->n_partitions;
        for (int p = 0; p < sc->n_partitions; p++) {
            const struct cs_scn_partition *in = &sc->partitions[p];
            struct cs_sched_partition *o = &c->partitions[p];
            memset(o, 0, sizeof *o);
            snprintf(o->name, sizeof o->name, "%s", in->name);
            o->quota = in->quota;
            o->priority = in->priority;
            o->rule = in->rule;
            o->min_gpus = in->min_gpus;
            o->max_gpus = in->max_gpus;
            o->max_duration_s = in->max_duration_s;
        }
    }
}

void cs_app_replay_use_scenario(struct cs_app_replay *r, const struct cs_scenario *s,
                                const struct cs_app_replay_given *given)
{
    struct cs_sched_config *cfg = &r->cfg;
    const struct cs_cluster_cfg *cc = &s->cluster;
    cfg->n_groups = 1;
    snprintf(cfg->groups[0].gpu_type, sizeof cfg->groups[0].gpu_type, "%s", cc->gpu.name);
    cfg->groups[0].nodes = cc->nodes;
    cfg->groups[0].gpus_per_node = cc->gpus_per_node;
    if (!given->seed)
        cfg->seed = s->seed;
    r->fabric_status = cs_fabric_create(cc, cfg->seed, &r->fabric);
    if (r->fabric_status != CS_OK)
        r->fabric = NULL;
    cfg->fabric = r->fabric;
    apply_scheduler(&s->scheduler, given, cfg);
    r->claim = s->scheduler.enabled && s->scheduler.claim_id[0] ? &s->scheduler : NULL;
    r->cfg2 = *cfg;
}

cs_status cs_app_replay_use_nodes(struct cs_app_replay *r, const struct cs_trace_nodes *nl)
{
    if (nl->n_groups > CS_SCHED_MAX_GROUPS)
        return CS_EFULL;
    struct cs_sched_config *cfg = &r->cfg;
    cfg->n_groups = nl->n_groups;
    for (int g = 0; g < nl->n_groups; g++) {
        snprintf(cfg->groups[g].gpu_type, sizeof cfg->groups[g].gpu_type, "%s",
                 nl->groups[g].gpu_type);
        cfg->groups[g].nodes = nl->groups[g].nodes;
        cfg->groups[g].gpus_per_node = nl->groups[g].gpus_per_node;
    }
    r->cfg2 = *cfg;
    return CS_OK;
}

/* One replay; a CS_OK with errors reported is a failure too. */
static cs_status replay(const struct cs_sched_config *cfg, const struct cs_trace *t, cs_diags *d,
                        struct cs_sched_result *out)
{
    size_t before = cs_diags_errors(d);
    cs_status st = cs_sched_run(cfg, t, d, out);
    if (st == CS_OK && cs_diags_errors(d) > before) {
        cs_sched_result_fini(out);
        return CS_ECONFIG;
    }
    return st;
}

cs_status cs_app_replay_run(struct cs_app_replay *r, const struct cs_trace *t, cs_diags *d)
{
    cs_status st = replay(&r->cfg, t, d, &r->res);
    if (st != CS_OK)
        return st;
    r->have_res = true;
    const struct cs_scn_scheduler *claim = r->claim;
    if (claim && claim->claim_compare != CS_SCN_COMPARE_NONE) {
        /* the other side of the comparison: the other placement, or MIG toggled */
        r->cfg2 = r->cfg;
        if (claim->claim_compare == CS_SCN_COMPARE_PLACEMENT)
            r->cfg2.place = r->cfg.place == CS_SCHED_SCATTERED ? CS_SCHED_PACKED : CS_SCHED_SCATTERED;
        else
            r->cfg2.mig = !r->cfg.mig;
        st = replay(&r->cfg2, t, d, &r->res2);
        if (st != CS_OK)
            return st;
        r->have_res2 = true;
    }
    return CS_OK;
}

void cs_app_replay_fini(struct cs_app_replay *r)
{
    if (!r)
        return;
    if (r->have_res)
        cs_sched_result_fini(&r->res);
    if (r->have_res2)
        cs_sched_result_fini(&r->res2);
    cs_fabric_destroy(r->fabric);
    memset(r, 0, sizeof *r);
}
