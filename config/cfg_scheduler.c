/* cfg_scheduler.c: binds `scheduler:` (config layer; cfg_scheduler.h) with
 * the generic field tables of schema.h, so types, ranges and unknown keys
 * are checked as everywhere else; quotas (a fraction or a percentage),
 * partition names and the quota total are checked here. */
#include "cfg_scheduler.h"
#include "clustersim/models/scheduler.h"

#include "schema.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))
#define F_(k, ty, T, m, ...) { .key = k, .type = ty, .offset = offsetof(T, m), __VA_ARGS__ }
#define F_CUSTOM(k, d) { .key = k, .type = CS_FT_CUSTOM, .doc = d }

/* Same order as enum cs_sched_policy, enum cs_sched_place (scheduler.h) and
 * enum cs_scn_claim_compare. */

static const struct cs_field sched_fields[] = {
    F_("policy", CS_FT_ENUM, struct cs_scn_scheduler, policy, .names = cs_sched_policy_names,
       .doc = "fifo | backfill (EASY) | sjf"),
    F_("placement", CS_FT_ENUM, struct cs_scn_scheduler, placement, .names = cs_sched_place_names,
       .doc = "packed | scattered | bestfit"),
    F_("preemption", CS_FT_BOOL, struct cs_scn_scheduler, preempt, .doc = "evict lower-priority jobs"),
    F_("mig_slices", CS_FT_INT, struct cs_scn_scheduler, mig_slices, .min = 0, .max = 7,
       .doc = "MIG slices per GPU for fractional jobs (7 on A100/H100); 0 = MIG off"),
    F_("backfill_depth", CS_FT_INT, struct cs_scn_scheduler, backfill_depth, .min = 1, .max = 100000000,
       .doc = "queued jobs examined per scheduling pass"),
    F_CUSTOM("partitions", "a sequence of {name, quota, priority, match}"),
    F_CUSTOM("claim", "{id, text, compare, tolerance}: the claim the replay answers"),
};

static const struct cs_field part_fields[] = {
    F_("name", CS_FT_STR, struct cs_scn_partition, name, .size = CS_NAME_MAX, .doc = "partition name"),
    F_CUSTOM("quota", "fraction of all GPUs its running jobs may hold: 0.4 or \"40%\""),
    F_("priority", CS_FT_INT, struct cs_scn_partition, priority, .min = -1000000, .max = 1000000,
       .doc = "added to its jobs' priority (larger first)"),
    F_CUSTOM("match", "{min_gpus, max_gpus, max_duration}: jobs without a partition"),
};

static const struct cs_field match_fields[] = {
    F_("min_gpus", CS_FT_NUM, struct cs_scn_partition, min_gpus, .min = 0, .max = 1e7,
       .doc = "jobs asking for at least this many GPUs"),
    F_("max_gpus", CS_FT_NUM, struct cs_scn_partition, max_gpus, .min = 0, .max = 1e7,
       .doc = "jobs asking for at most this many GPUs"),
    F_("max_duration", CS_FT_QTY, struct cs_scn_partition, max_duration_s, .unit = CS_UNIT_TIME, .min = 0,
       .max = 1e10, .flags = CS_F_MINEXCL, .doc = "jobs whose trace duration is at most this"),
};

static const struct cs_field claim_fields[] = {
    F_("id", CS_FT_STR, struct cs_scn_scheduler, claim_id, .size = 32, .doc = "claim id, e.g. N19"),
    F_("text", CS_FT_STR, struct cs_scn_scheduler, claim_text, .size = 512, .doc = "the claim in words"),
    F_("compare", CS_FT_ENUM, struct cs_scn_scheduler, claim_compare, .names = cs_scn_compare_names,
       .doc = "none | placement (packed vs scattered) | mig (off vs on)"),
    F_("tolerance", CS_FT_NUM, struct cs_scn_scheduler, claim_tolerance, .min = 0, .max = 1,
       .doc = "share difference (N19) or relative change (placement, mig) that counts"),
};

static bool cs__is_map(const struct cs_ynode *v, const char *path, cs_diags *d, const char *what)
{
    if (v && v->kind == CS_YNODE_MAP)
        return true;
    char shown[128];
    cs_cfg__show(v, shown, sizeof shown);
    cs_cfg__error(d, v, "%s: expected a mapping %s, got %s", path, what, shown);
    return false;
}

/* Binds the pairs of map v with table t into base; unknown keys are errors;
 * custom keys are left to the caller. */
static void cs__bind_table(const struct cs_ynode *v, const char *path, const struct cs_field *t, size_t n,
                           void *base, cs_diags *d)
{
    for (size_t i = 0; i < v->n; i++) {
        const struct cs_ynode *k = v->pairs[i].key;
        const struct cs_field *f = cs_cfg__find(t, n, k->scalar);
        if (!f) {
            cs_cfg__unknown_key(d, k, path, t, n, NULL);
            continue;
        }
        if (f->type == CS_FT_CUSTOM)
            continue;
        char *p = cs_cfg__path(path, f->key);
        cs_cfg__set(f, v->pairs[i].value, p, base, d);
        free(p);
    }
}

/* "0.4", "40%": a fraction in [0, 1]. */
static bool cs__quota(const struct cs_ynode *v, const char *path, double *out, cs_diags *d)
{
    char shown[128];
    cs_cfg__show(v, shown, sizeof shown);
    if (v->kind == CS_YNODE_SCALAR && v->len > 0 && v->len < 64 && strlen(v->scalar) == v->len) {
        char *end;
        double q = strtod(v->scalar, &end);
        if (end != v->scalar && *end == '%' && end[1] == '\0') {
            q /= 100;
            end++;
        }
        if (end != v->scalar && *end == '\0' && q >= 0 && q <= 1) {
            *out = q;
            return true;
        }
    }
    cs_cfg__error(d, v, "%s: expected a fraction in [0, 1] or a percentage like \"40%%\", got %s", path, shown);
    return false;
}

static void cs__bind_partition(const struct cs_ynode *it, const char *path, struct cs_scn_partition *p,
                               cs_diags *d)
{
    memset(p, 0, sizeof *p);
    p->quota = p->min_gpus = p->max_gpus = p->max_duration_s = NAN;
    if (!cs__is_map(it, path, d, "{name, quota, priority, match}"))
        return;
    cs__bind_table(it, path, part_fields, NELEM(part_fields), p, d);
    if (!cs_ynode_map_get(it, "name"))
        cs_cfg__error(d, it, "%s: missing required key \"name\" (the partition's name, as the trace's "
                      "partition column writes it)", path);
    const struct cs_ynode *q = cs_ynode_map_get(it, "quota");
    if (q) {
        char *qp = cs_cfg__path(path, "quota");
        cs__quota(q, qp, &p->quota, d);
        free(qp);
    }
    const struct cs_ynode *m = cs_ynode_map_get(it, "match");
    if (m) {
        char *mp = cs_cfg__path(path, "match");
        if (cs__is_map(m, mp, d, "{min_gpus, max_gpus, max_duration}")) {
            cs__bind_table(m, mp, match_fields, NELEM(match_fields), p, d);
            p->rule = m->n > 0;
            if (!isnan(p->min_gpus) && !isnan(p->max_gpus) && p->min_gpus > p->max_gpus)
                cs_cfg__error(d, cs_ynode_map_get(m, "max_gpus"), "%s.max_gpus: %g is less than min_gpus %g",
                              mp, p->max_gpus, p->min_gpus);
        }
        free(mp);
    }
}

void cs_cfg__bind_scheduler(const struct cs_ynode *root, struct cs_scenario *s, cs_diags *d)
{
    struct cs_scn_scheduler *c = &s->scheduler;
    memset(c, 0, sizeof *c);
    c->policy = c->placement = c->preempt = c->mig_slices = -1;
    c->claim_tolerance = 0.05;
    const struct cs_ynode *v = cs_ynode_map_get(root, "scheduler");
    if (!v || cs_ynode_is_null(v))
        return;
    if (!cs__is_map(v, "scheduler", d, "of scheduler settings"))
        return;
    c->enabled = true;
    /* preemption is a bool: bind it through a bool, keep -1 when absent */
    bool pre = false;
    const struct cs_field *pf = cs_cfg__find(sched_fields, NELEM(sched_fields), "preemption");
    for (size_t i = 0; i < v->n; i++) {
        const struct cs_ynode *k = v->pairs[i].key;
        const struct cs_field *f = cs_cfg__find(sched_fields, NELEM(sched_fields), k->scalar);
        if (!f) {
            cs_cfg__unknown_key(d, k, "scheduler", sched_fields, NELEM(sched_fields), NULL);
            continue;
        }
        if (f->type == CS_FT_CUSTOM)
            continue;
        char *p = cs_cfg__path("scheduler", f->key);
        if (f == pf) {
            struct cs_field bf = *f;
            bf.offset = 0;
            if (cs_cfg__set(&bf, v->pairs[i].value, p, &pre, d))
                c->preempt = pre;
        } else {
            cs_cfg__set(f, v->pairs[i].value, p, c, d);
        }
        free(p);
    }
    const struct cs_ynode *ps = cs_ynode_map_get(v, "partitions");
    if (ps && !cs_ynode_is_null(ps)) {
        if (ps->kind != CS_YNODE_SEQ) {
            char shown[128];
            cs_cfg__show(ps, shown, sizeof shown);
            cs_cfg__error(d, ps, "scheduler.partitions: expected a sequence of {name, quota, priority, match}, "
                          "got %s", shown);
        } else if (ps->n > CS_SCN_MAX_PARTITIONS) {
            cs_cfg__error(d, ps, "scheduler.partitions: expected at most %d partitions, got %zu",
                          CS_SCN_MAX_PARTITIONS, ps->n);
        } else {
            double total = 0;
            for (size_t i = 0; i < ps->n; i++) {
                char path[64];
                snprintf(path, sizeof path, "scheduler.partitions[%zu]", i);
                struct cs_scn_partition *p = &c->partitions[c->n_partitions++];
                cs__bind_partition(ps->items[i], path, p, d);
                if (!isnan(p->quota))
                    total += p->quota;
                for (size_t k = 0; k + 1 < (size_t)c->n_partitions && p->name[0]; k++)
                    if (strcmp(c->partitions[k].name, p->name) == 0)
                        cs_cfg__error(d, cs_ynode_map_get(ps->items[i], "name"),
                                      "%s.name: partition \"%s\" is already defined (item %zu)", path, p->name, k);
            }
            if (total > 1 + 1e-9)
                cs_cfg__error(d, ps, "scheduler.partitions: quotas add up to %.4g, more than the whole cluster "
                              "(expected at most 1, i.e. 100%%)", total);
        }
    }
    const struct cs_ynode *cl = cs_ynode_map_get(v, "claim");
    if (cl && !cs_ynode_is_null(cl) && cs__is_map(cl, "scheduler.claim", d, "{id, text, compare, tolerance}")) {
        cs__bind_table(cl, "scheduler.claim", claim_fields, NELEM(claim_fields), c, d);
        if (!c->claim_id[0])
            cs_cfg__error(d, cl, "scheduler.claim: missing required key \"id\" (e.g. N19)");
    }
}
