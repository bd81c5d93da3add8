/* replay_stats.c: breakdowns, demand and warnings of a trace replay
 * (models layer; contract in clustersim/models/replay_stats.h). */
#include "clustersim/models/replay_stats.h"
#include "clustersim/base/units.h"
#include "clustersim/base/xmalloc.h"

#include <gsl/gsl_statistics_double.h>
#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const cs_rstat_size_names[CS_RSTAT_N_SIZES] = {"<1", "1", "2-8", "9-64", "65-512", ">512"};

int cs_rstat_size_class(double g)
{
    if (g < 1)
        return 0;
    if (g <= 1)
        return 1;
    if (g <= 8)
        return 2;
    if (g <= 64)
        return 3;
    if (g <= 512)
        return 4;
    return 5;
}

/* Mean, p50 and p95 of v[0..n), sorted ascending, as the replay's own
 * totals compute them (sim/stats.h: gsl mean, Hyndman-Fan type 7). */
static void cs__summary(const double *v, size_t n, struct cs_sched_summary *o)
{
    o->mean = o->p50 = o->p95 = NAN;
    if (n == 0)
        return;
    o->mean = gsl_stats_mean(v, 1, n);
    o->p50 = gsl_stats_quantile_from_sorted_data(v, 1, n, 0.5);
    o->p95 = gsl_stats_quantile_from_sorted_data(v, 1, n, 0.95);
}

/* One value of one job, for the sorts. */
struct cs__kv {
    double v;
    size_t i;
};

static int cs__cmp_kv(const void *a, const void *b)
{
    const struct cs__kv *x = a, *y = b;
    if (x->v != y->v)
        return x->v < y->v ? -1 : 1;
    return (x->i > y->i) - (x->i < y->i);
}

/* The completed jobs in ascending order of v[] (ties by index): *n of
 * them, caller frees. */
static size_t *cs__order(const double *v, size_t n, size_t *m)
{
    struct cs__kv *kv = cs_xmalloc((n + 1) * sizeof *kv);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(v[i]))
            kv[k++] = (struct cs__kv){v[i], i};
    qsort(kv, k, sizeof *kv, cs__cmp_kv);
    size_t *o = cs_xmalloc((k + 1) * sizeof *o);
    for (size_t j = 0; j < k; j++)
        o[j] = kv[j].i;
    free(kv);
    *m = k;
    return o;
}

/* Per-dimension work: each job's group, and the completed jobs sorted
 * once by queueing delay and by JCT, so that walking them in that order
 * lays every group's values out sorted (a stable counting sort by group):
 * two sorts for all the dimensions, O(n) per dimension after them. */
struct cs__dimwork {
    const struct cs_trace *t;
    const struct cs_sched_result *r;
    const int *gid;       /* per job: group index in 0..ng-1 */
    int ng;
    const size_t *qord, *cord; /* completed jobs by queueing delay, by JCT */
    size_t ndone;
};

/* Fills groups[0..ng) (names set by the caller) and, when `sel` is given,
 * the union of the jobs whose group has sel[g] into *uni. */
static void cs__fill(const struct cs__dimwork *w, struct cs_rstat_group *groups, const bool *sel,
                     struct cs_rstat_group *uni)
{
    const struct cs_trace *t = w->t;
    const struct cs_sched_result *r = w->r;
    int ng = w->ng;
    size_t n = t->n;
    size_t *cnt = cs_xcalloc((size_t)ng + 2, sizeof *cnt);
    for (size_t i = 0; i < n; i++) {
        struct cs_rstat_group *g = &groups[w->gid[i]];
        bool in_uni = sel && sel[w->gid[i]];
        g->jobs++;
        if (in_uni)
            uni->jobs++;
        if (isfinite(r->job_jct_s[i])) {
            g->completed++;
            g->gpu_hours += r->job_gpu_h[i];
            cnt[w->gid[i] + 1]++;
            if (in_uni) {
                uni->completed++;
                uni->gpu_hours += r->job_gpu_h[i];
            }
        }
    }
    for (int g = 0; g < ng; g++) {
        groups[g].rejected = groups[g].jobs - groups[g].completed;
        cnt[g + 1] += cnt[g];
    }
    size_t total = cnt[ng];
    double *q = cs_xmalloc((total + 1) * sizeof *q), *c = cs_xmalloc((total + 1) * sizeof *c);
    size_t *pq = cs_xmalloc(((size_t)ng + 1) * sizeof *pq), *pc = cs_xmalloc(((size_t)ng + 1) * sizeof *pc);
    memcpy(pq, cnt, (size_t)ng * sizeof *pq);
    memcpy(pc, cnt, (size_t)ng * sizeof *pc);
    size_t nu = uni ? (size_t)uni->completed : 0, kq = 0, kc = 0;
    double *uq = cs_xmalloc((nu + 1) * sizeof *uq), *uc = cs_xmalloc((nu + 1) * sizeof *uc);
    for (size_t k = 0; k < w->ndone; k++) {
        size_t i = w->qord[k], j = w->cord[k];
        q[pq[w->gid[i]]++] = r->job_queue_s[i];
        c[pc[w->gid[j]]++] = r->job_jct_s[j];
        if (sel && sel[w->gid[i]])
            uq[kq++] = r->job_queue_s[i];
        if (sel && sel[w->gid[j]])
            uc[kc++] = r->job_jct_s[j];
    }
    for (int g = 0; g < ng; g++) {
        size_t a = cnt[g], m = cnt[g + 1] - cnt[g];
        cs__summary(q + a, m, &groups[g].queue_s);
        cs__summary(c + a, m, &groups[g].jct_s);
    }
    if (uni) {
        uni->rejected = uni->jobs - uni->completed;
        cs__summary(uq, kq, &uni->queue_s);
        cs__summary(uc, kc, &uni->jct_s);
    }
    free(uq);
    free(uc);
    free(pq);
    free(pc);
    free(q);
    free(c);
    free(cnt);
}

static void cs__shares(struct cs_rstat_group *g, size_t n, double total_h)
{
    for (size_t i = 0; i < n; i++)
        g[i].share = total_h > 0 ? g[i].gpu_hours / total_h : 0;
}

/* A group and its index before sorting. */
struct cs__ranked {
    struct cs_rstat_group g;
    int orig;
};

/* Most GPU-hours first, then more jobs, then the name (then the index:
 * names are distinct, so never reached). */
static int cs__cmp_ranked(const void *a, const void *b)
{
    const struct cs__ranked *p = a, *q = b;
    const struct cs_rstat_group *x = &p->g, *y = &q->g;
    if (x->gpu_hours != y->gpu_hours)
        return x->gpu_hours > y->gpu_hours ? -1 : 1;
    if (x->jobs != y->jobs)
        return x->jobs > y->jobs ? -1 : 1;
    int c = strcmp(x->name, y->name);
    return c ? c : (p->orig > q->orig) - (p->orig < q->orig);
}

/* A dimension keyed by an interned string index per job (-1: none): one
 * group per name used and "(none)", sorted; the groups past `top` in
 * others. `idx` gives each job's index; names the table's names. */
static void cs__by_names(const struct cs__dimwork *base, const int *idx, const struct cs_strtab *names,
                         bool sorted, size_t top, double total_h, struct cs_rstat_dim *out)
{
    const struct cs_trace *t = base->t;
    memset(out, 0, sizeof *out);
    size_t nn = names->n;
    int ng = (int)nn + 1; /* slot nn: "(none)" */
    struct cs_rstat_group *all = cs_xcalloc((size_t)ng, sizeof *all);
    for (size_t k = 0; k < nn; k++)
        snprintf(all[k].name, sizeof all[k].name, "%s", names->names[k]);
    snprintf(all[nn].name, sizeof all[nn].name, "(none)");
    int *gid = cs_xmalloc((t->n + 1) * sizeof *gid);
    for (size_t i = 0; i < t->n; i++)
        gid[i] = idx[i] >= 0 && (size_t)idx[i] < nn ? idx[i] : (int)nn;
    struct cs__dimwork w = *base;
    w.gid = gid;
    w.ng = ng;
    cs__fill(&w, all, NULL, NULL);
    /* keep the groups with jobs, in rank order; then the union past top */
    struct cs__ranked *rk = cs_xcalloc((size_t)ng, sizeof *rk);
    size_t m = 0;
    for (int g = 0; g < ng; g++)
        if (all[g].jobs > 0)
            rk[m++] = (struct cs__ranked){all[g], g};
    out->named = m > 1 || (m == 1 && rk[0].orig != (int)nn);
    out->ranked = sorted;
    if (sorted)
        qsort(rk, m, sizeof *rk, cs__cmp_ranked);
    struct cs_rstat_group *kept = cs_xcalloc(m + 1, sizeof *kept);
    for (size_t k = 0; k < m; k++)
        kept[k] = rk[k].g;
    cs__shares(kept, m, total_h);
    if (m > top) {
        bool *sel = cs_xcalloc((size_t)ng, sizeof *sel);
        for (size_t k = top; k < m; k++)
            sel[rk[k].orig] = true;
        struct cs_rstat_group *again = cs_xcalloc((size_t)ng, sizeof *again);
        snprintf(out->others.name, sizeof out->others.name, "(others)");
        cs__fill(&w, again, sel, &out->others);
        out->others.share = total_h > 0 ? out->others.gpu_hours / total_h : 0;
        out->n_others = m - top;
        free(again);
        free(sel);
    }
    free(rk);
    out->groups = kept;
    out->n = m;
    free(gid);
    free(all);
}

/* The demand timeline (replay_stats.h): difference array over the bins, so
 * each job costs O(1) whatever its length. */
static void cs__demand_timeline(const struct cs_trace *t, const struct cs_sched_result *r, double *out)
{
    int nb = r->n_bins;
    double bs = r->bin_s, span = bs * nb;
    double *full = cs_xcalloc((size_t)nb + 1, sizeof *full);
    for (size_t i = 0; i < t->n; i++) {
        const struct cs_trace_job *j = &t->jobs[i];
        double a = j->submit_s - r->first_submit_s, z = a + j->duration_s;
        if (z > span)
            z = span;
        if (!(a < z) || !(bs > 0))
            continue;
        int ba = (int)(a / bs), bz = (int)(z / bs);
        if (ba >= nb)
            continue;
        if (bz >= nb)
            bz = nb - 1;  /* z == span: the last bin's end */
        if (ba == bz) {
            out[ba] += j->gpus * (z - a) / bs;
            continue;
        }
        out[ba] += j->gpus * ((ba + 1) * bs - a) / bs;
        out[bz] += j->gpus * (z - bz * bs) / bs;
        full[ba + 1] += j->gpus;   /* bins ba+1 .. bz-1 covered whole */
        full[bz] -= j->gpus;
    }
    double run = 0;
    for (int b = 0; b < nb; b++) {
        run += full[b];
        out[b] += run;
    }
    free(full);
}

/* A duration for people (base/units.h: s, min, h or d). */
static void cs__dur(double s, char *buf, size_t n)
{
    if (isfinite(s))
        cs_units_format(s, CS_UNIT_TIME, buf, n);
    else
        snprintf(buf, n, "-");
}

static void cs__warn(struct cs_replay_stats *o, const char *id, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void cs__warn(struct cs_replay_stats *o, const char *id, const char *fmt, ...)
{
    if (o->n_warnings >= CS_RSTAT_MAX_WARNINGS)
        return;
    struct cs_rstat_warning *w = &o->warnings[o->n_warnings++];
    w->id = id;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->msg, sizeof w->msg, fmt, ap);
    va_end(ap);
}

static void cs__warnings(const struct cs_sched_result *r, struct cs_replay_stats *o)
{
    char a[32], b[32];
    if (o->too_large > 0)
        cs__warn(o, "jobs_larger_than_cluster",
                 "the cluster (%ld GPUs) is smaller than the trace's largest job (%.0f GPUs): %ld job%s "
                 "asking for more GPUs than the whole cluster cannot run (%.0f GPU-hours, %.1f%% of the "
                 "trace's demand); replay on a cluster of at least %.0f GPUs to see them",
                 o->capacity_gpus, o->largest_job_gpus, o->too_large, o->too_large == 1 ? "" : "s",
                 o->too_large_gpu_h, o->demand_gpu_h > 0 ? 100 * o->too_large_gpu_h / o->demand_gpu_h : 0,
                 o->largest_job_gpus);
    if (isfinite(o->offered_load) && o->offered_load > CS_RSTAT_OVERLOAD) {
        cs__dur(o->window_s, a, sizeof a);
        cs__dur(r->queue_s.p95, b, sizeof b);
        cs__warn(o, "overloaded",
                 "the trace asks for more than the cluster can serve: %.1f GPUs busy on average over the "
                 "%s its jobs would take with no waiting, against %ld GPUs (offered load %.3f): the queue "
                 "grows while jobs arrive (longest %ld jobs, p95 queueing %s), so queueing and JCT grow "
                 "with the trace's length and describe no steady state; see the queued demand in "
                 "replay_timeline.png and the CDFs in replay_size_cdf.png (with -o DIR)",
                 o->demand_gpus, a, o->capacity_gpus, o->offered_load, r->max_queue, b);
    }
    if (isfinite(o->offered_load) && o->offered_load > CS_RSTAT_HEAVY_LOAD &&
        o->offered_load <= CS_RSTAT_OVERLOAD) {
        cs__dur(r->queue_s.mean, b, sizeof b);
        cs__warn(o, "near_saturation",
                 "the cluster is near saturation: the trace's jobs need %.1f GPUs on average against %ld "
                 "(offered load %.3f); queueing grows as load / (1 - load) (Kingman), so a 1%% change in "
                 "capacity or load moves it by about %.0f%% (mean queueing %s here): read the queueing "
                 "figures as fragile; see replay_timeline.png and replay_size_cdf.png (with -o DIR)",
                 o->demand_gpus, o->capacity_gpus, o->offered_load, 1 / (1 - fmin(o->offered_load, 0.999)), b);
    }
    if (r->completed > 0 && r->utilization < CS_RSTAT_LOW_UTILIZATION) {
        char load[96] = "";
        if (isfinite(o->demand_gpus))
            snprintf(load, sizeof load, "; the trace's jobs need %.1f GPUs on average (offered load %.2f)",
                     o->demand_gpus, o->offered_load);
        cs__warn(o, "low_utilization",
                 "the cluster is far larger than the trace's demand: allocated utilization %.2f%% of %ld "
                 "GPUs%s; below %.0f%% queueing is next to nothing whatever the policy, so this replay "
                 "says little about queueing (size the cluster nearer the demand); see "
                 "replay_timeline.png (busy GPUs against capacity, with -o DIR)",
                 100 * r->utilization, o->capacity_gpus, load, 100 * CS_RSTAT_LOW_UTILIZATION);
    }
}

cs_status cs_replay_stats_compute(const struct cs_sched_config *c, const struct cs_trace *t,
                                  const struct cs_sched_result *r, size_t top, struct cs_replay_stats *out)
{
    memset(out, 0, sizeof *out);
    if (!r->job_queue_s || !r->job_jct_s || !r->job_gpu_h || !r->job_part || r->jobs != (long)t->n ||
        top < 1)
        return CS_EINVAL;
    double total_h = 0;
    for (size_t i = 0; i < t->n; i++)
        if (isfinite(r->job_jct_s[i]))
            total_h += r->job_gpu_h[i];
    /* size classes */
    int *gid = cs_xmalloc((t->n + 1) * sizeof *gid);
    for (size_t i = 0; i < t->n; i++)
        gid[i] = cs_rstat_size_class(t->jobs[i].gpus);
    for (int k = 0; k < CS_RSTAT_N_SIZES; k++)
        snprintf(out->size[k].name, sizeof out->size[k].name, "%s", cs_rstat_size_names[k]);
    size_t nq = 0, nc = 0;
    size_t *qord = cs__order(r->job_queue_s, t->n, &nq), *cord = cs__order(r->job_jct_s, t->n, &nc);
    assert(nq == nc); /* both finite exactly for the completed jobs */
    struct cs__dimwork w = {t, r, gid, CS_RSTAT_N_SIZES, qord, cord, nq};
    cs__fill(&w, out->size, NULL, NULL);
    cs__shares(out->size, CS_RSTAT_N_SIZES, total_h);
    /* users, and partitions (the trace's, or the scheduler's) */
    for (size_t i = 0; i < t->n; i++)
        gid[i] = t->jobs[i].user;
    cs__by_names(&w, gid, &t->users, true, top, total_h, &out->users);
    if (c->n_partitions > 0) {
        out->parts_from_scheduler = true;
        struct cs_strtab names;
        cs_strtab_init(&names);
        for (int p = 0; p < r->n_parts - 1; p++)
            cs_strtab_intern(&names, r->parts[p].name, strlen(r->parts[p].name));
        /* names.n < n_parts - 1 only for duplicate names, which config refuses */
        for (size_t i = 0; i < t->n; i++)
            gid[i] = r->job_part[i] >= 0 && r->job_part[i] < (int)names.n ? r->job_part[i] : -1;
        cs__by_names(&w, gid, &names, false, top, total_h, &out->parts);
        cs_strtab_fini(&names);
    } else {
        for (size_t i = 0; i < t->n; i++)
            gid[i] = t->jobs[i].partition;
        cs__by_names(&w, gid, &t->partitions, true, top, total_h, &out->parts);
    }
    free(gid);
    free(qord);
    free(cord);
    /* demand */
    out->capacity_gpus = r->gpus;
    double first = INFINITY, last = -INFINITY, end = -INFINITY, dem = 0;
    for (size_t i = 0; i < t->n; i++) {
        const struct cs_trace_job *j = &t->jobs[i];
        first = fmin(first, j->submit_s);
        last = fmax(last, j->submit_s);
        end = fmax(end, j->submit_s + j->duration_s);
        dem += j->gpus * j->duration_s;
        if (j->gpus > out->largest_job_gpus)
            out->largest_job_gpus = j->gpus;
        if (j->gpus > (double)r->gpus) {
            out->too_large++;
            out->too_large_gpu_h += j->gpus * j->duration_s / 3600;
        }
    }
    out->span_s = t->n ? last - first : 0;
    out->window_s = t->n ? end - first : 0;
    out->demand_gpu_h = dem / 3600;
    out->demand_gpus = out->offered_load = NAN;
    if (out->window_s > 0) {  /* durations are > 0: any job makes it so */
        out->demand_gpus = dem / out->window_s;
        out->offered_load = r->gpus > 0 ? out->demand_gpus / (double)r->gpus : NAN;
    }
    out->n_bins = r->n_bins;
    out->demand_bin_gpus = cs_xcalloc((size_t)r->n_bins + 1, sizeof *out->demand_bin_gpus);
    cs__demand_timeline(t, r, out->demand_bin_gpus);
    cs__warnings(r, out);
    return CS_OK;
}

void cs_replay_stats_fini(struct cs_replay_stats *s)
{
    if (!s)
        return;
    free(s->users.groups);
    free(s->parts.groups);
    free(s->demand_bin_gpus);
    memset(s, 0, sizeof *s);
}
