/* replay_report.c: trace-replay results out (report layer): aligned text,
 * JSON with the contract's replay.* keys, CSV, and gnuplot data files. */
#include "clustersim/report/replay_report.h"
#include "clustersim/base/outfile.h"
#include "clustersim/base/units.h"
#include "clustersim/base/xmalloc.h"

#include "csv.h"

#include <errno.h>
#include <gsl/gsl_sort.h>
#include <math.h>
#include <string.h>

/* A number, or null when it is undefined (no job completed): never a
 * made-up 0. */
static void cs__num_or_null(cJSON *o, const char *k, double v)
{
    if (isfinite(v))
        cJSON_AddNumberToObject(o, k, v);
    else
        cJSON_AddNullToObject(o, k);
}

static cJSON *cs__sum(const struct cs_sched_summary *s)
{
    cJSON *o = cJSON_CreateObject();
    cs__num_or_null(o, "mean", s->mean);
    cs__num_or_null(o, "p50", s->p50);
    cs__num_or_null(o, "p95", s->p95);
    return o;
}

cJSON *cs_out_replay_json(const struct cs_sched_config *c, const struct cs_trace *t,
                          const struct cs_sched_result *r)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "jobs", (double)r->jobs);
    cJSON_AddNumberToObject(o, "completed", (double)r->completed);
    cJSON_AddNumberToObject(o, "rejected", (double)r->rejected);
    cJSON_AddNumberToObject(o, "gpus", (double)r->gpus);
    cJSON_AddStringToObject(o, "policy", cs_sched_policy_name(c->policy));
    cJSON_AddStringToObject(o, "placement", cs_sched_place_name(c->place));
    cJSON_AddBoolToObject(o, "mig", c->mig);
    cJSON_AddBoolToObject(o, "preempt", c->preempt);
    cJSON_AddNumberToObject(o, "makespan_s", r->makespan_s);
    cJSON_AddNumberToObject(o, "utilization", r->utilization);
    cJSON_AddNumberToObject(o, "busy_utilization", r->busy_utilization);
    cJSON_AddNumberToObject(o, "allocated_gpu_hours", r->allocated_gpu_h);
    cJSON_AddNumberToObject(o, "busy_gpu_hours", r->busy_gpu_h);
    cJSON_AddNumberToObject(o, "trace_gpu_hours", r->trace_gpu_h);
    cJSON_AddItemToObject(o, "queue_s", cs__sum(&r->queue_s));
    cJSON_AddItemToObject(o, "jct_s", cs__sum(&r->jct_s));
    cJSON_AddNumberToObject(o, "fragmentation", r->fragmentation);
    cJSON_AddNumberToObject(o, "max_queue", (double)r->max_queue);
    cJSON_AddNumberToObject(o, "preemptions", (double)r->preemptions);
    cJSON_AddNumberToObject(o, "workload_jobs", (double)r->workload_jobs);
    if (r->workload_jobs) {
        cJSON_AddNumberToObject(o, "workload_slowdown_mean", r->workload_slowdown_mean);
        cJSON_AddNumberToObject(o, "workload_jct_mean_s", r->workload_jct_mean_s);
    }
    cJSON_AddNumberToObject(o, "workload_unfit", (double)r->workload_unfit);
    cJSON *tr = cJSON_AddObjectToObject(o, "trace");
    cJSON_AddStringToObject(tr, "file", t->file ? t->file : "");
    cJSON_AddStringToObject(tr, "format", cs_trace_format_name(t->format));
    const struct cs_trace_counts *k = &t->counts;
    cJSON_AddNumberToObject(tr, "rows", (double)k->rows);
    cJSON_AddNumberToObject(tr, "jobs", (double)k->jobs);
    cJSON_AddNumberToObject(tr, "skipped_never_ran", (double)k->skipped_never_ran);
    cJSON_AddNumberToObject(tr, "skipped_cpu_only", (double)k->skipped_cpu_only);
    cJSON_AddNumberToObject(tr, "skipped_zero_duration", (double)k->skipped_zero_duration);
    cJSON_AddNumberToObject(tr, "skipped_window", (double)k->skipped_window);
    cJSON_AddNumberToObject(tr, "skipped_limit", (double)k->skipped_limit);
    cJSON_AddNumberToObject(tr, "missing_values", (double)k->missing_values);
    cJSON_AddNumberToObject(tr, "failed", (double)k->failed);
    cJSON_AddNumberToObject(tr, "cancelled", (double)k->cancelled);
    cJSON_AddBoolToObject(tr, "no_final_newline", k->no_final_newline);
    cJSON *parts = cJSON_AddArrayToObject(o, "partitions");
    for (int p = 0; p < r->n_parts; p++) {
        const struct cs_sched_part_result *pr = &r->parts[p];
        if (pr->jobs == 0 && p == r->n_parts - 1)
            continue;
        cJSON *x = cJSON_CreateObject();
        cJSON_AddStringToObject(x, "name", pr->name);
        if (isfinite(pr->quota))
            cJSON_AddNumberToObject(x, "quota", pr->quota);
        cJSON_AddNumberToObject(x, "jobs", (double)pr->jobs);
        cJSON_AddNumberToObject(x, "gpu_hours", pr->gpu_hours);
        cJSON_AddNumberToObject(x, "share", pr->share);
        cs__num_or_null(x, "queue_mean_s", pr->queue_mean_s);
        cJSON_AddNumberToObject(x, "queue_p95_s", isfinite(pr->queue_p95_s) ? pr->queue_p95_s : 0);
        cJSON_AddItemToArray(parts, x);
    }
    return o;
}

void cs_out_human_duration(double s, char *buf, size_t n)
{
    if (isfinite(s))
        cs_units_format(s, CS_UNIT_TIME, buf, n);
    else
        snprintf(buf, n, "-");
}

static void cs__dur(FILE *out, const char *label, const struct cs_sched_summary *s)
{
    char a[32], b[32], c[32];
    cs_out_human_duration(s->mean, a, sizeof a);
    cs_out_human_duration(s->p50, b, sizeof b);
    cs_out_human_duration(s->p95, c, sizeof c);
    fprintf(out, "  %-26s %12s %12s %12s\n", label, a, b, c);
}

void cs_out_replay_text(FILE *out, const struct cs_sched_config *c, const struct cs_trace *t,
                        const struct cs_sched_result *r)
{
    const struct cs_trace_counts *k = &t->counts;
    char h[32];
    fprintf(out, "trace %s (%s)\n", t->file ? t->file : "-", cs_trace_format_name(t->format));
    fprintf(out, "  rows read                  %12ld\n", k->rows);
    fprintf(out, "  jobs kept                  %12ld\n", k->jobs);
    fprintf(out, "  skipped: never ran         %12ld\n", k->skipped_never_ran);
    fprintf(out, "  skipped: CPU only          %12ld\n", k->skipped_cpu_only);
    fprintf(out, "  skipped: zero duration     %12ld\n", k->skipped_zero_duration);
    fprintf(out, "  skipped: outside window    %12ld\n", k->skipped_window);
    fprintf(out, "  skipped: past --limit      %12ld\n", k->skipped_limit);
    fprintf(out, "  rows with missing values   %12ld\n", k->missing_values);
    fprintf(out, "  failed / cancelled (kept)  %12ld / %ld\n", k->failed, k->cancelled);
    fprintf(out, "  final newline              %12s\n", k->no_final_newline ? "missing" : "yes");
    fprintf(out, "\ncluster: %ld GPUs in %d group(s):", r->gpus, c->n_groups);
    for (int g = 0; g < c->n_groups; g++)
        fprintf(out, " %d x %d %s%s", c->groups[g].nodes, c->groups[g].gpus_per_node, c->groups[g].gpu_type,
                g + 1 < c->n_groups ? "," : "");
    fprintf(out, "\nscheduler: %s, placement %s%s%s\n\n", cs_sched_policy_name(c->policy),
            cs_sched_place_name(c->place), c->mig ? ", MIG" : "", c->preempt ? ", preemption" : "");
    fprintf(out, "replay\n");
    fprintf(out, "  jobs completed / rejected  %12ld / %ld\n", r->completed, r->rejected);
    cs_out_human_duration(r->makespan_s, h, sizeof h);
    fprintf(out, "  makespan                   %12s (%.0f s)\n", h, r->makespan_s);
    fprintf(out, "  utilization (allocated)    %12.2f %%\n", 100 * r->utilization);
    fprintf(out, "  utilization (busy)         %12.2f %%\n", 100 * r->busy_utilization);
    fprintf(out, "  allocated GPU-hours        %12.1f\n", r->allocated_gpu_h);
    fprintf(out, "  busy GPU-hours             %12.1f\n", r->busy_gpu_h);
    fprintf(out, "  trace GPU-hours            %12.1f\n", r->trace_gpu_h);
    fprintf(out, "  fragmentation              %12.2f %% of GPUs free while jobs wait\n",
            100 * r->fragmentation);
    fprintf(out, "  longest queue              %12ld jobs\n", r->max_queue);
    fprintf(out, "  preemptions                %12ld\n", r->preemptions);
    if (r->workload_jobs) {
        cs_out_human_duration(r->workload_jct_mean_s, h, sizeof h);
        fprintf(out, "  workload jobs              %12ld (mean slowdown from placement and contention %.4f, "
                "mean JCT %s)\n", r->workload_jobs, r->workload_slowdown_mean, h);
    }
    if (r->workload_unfit)
        fprintf(out, "  workload jobs not modelled %12ld (no parallelism of the rule fits: trace durations)\n",
                r->workload_unfit);
    fprintf(out, "\n  %-26s %12s %12s %12s\n", "(s, min, h or d)", "mean", "p50", "p95");
    cs__dur(out, "queueing delay", &r->queue_s);
    cs__dur(out, "job completion time", &r->jct_s);
    if (r->n_parts > 1 || r->parts[0].jobs > 0) {
        fprintf(out, "\n  %-16s %8s %10s %14s %8s %12s %12s\n", "partition", "quota", "jobs", "GPU-hours",
                "share", "mean queue", "p95 queue");
        for (int p = 0; p < r->n_parts; p++) {
            const struct cs_sched_part_result *pr = &r->parts[p];
            if (pr->jobs == 0 && p == r->n_parts - 1 && r->n_parts > 1)
                continue;
            char q[16], mq[32], pq[32];
            if (isfinite(pr->quota))
                snprintf(q, sizeof q, "%.0f%%", 100 * pr->quota);
            else
                snprintf(q, sizeof q, "-");
            cs_out_human_duration(pr->queue_mean_s, mq, sizeof mq);
            cs_out_human_duration(pr->queue_p95_s, pq, sizeof pq);
            fprintf(out, "  %-16s %8s %10ld %14.1f %7.1f%% %12s %12s\n", pr->name, q, pr->jobs, pr->gpu_hours,
                    100 * pr->share, mq, pq);
        }
    }
}

/* ",<v with `digits` decimals>", or "," when v is not finite (no job
 * completed: no queue or JCT statistics): README, a value the model could
 * not compute is an empty field, never "nan". */
static void cs__csv_fixed(FILE *out, int digits, double v)
{
    if (isfinite(v))
        fprintf(out, ",%.*f", digits, v);
    else
        fputc(',', out);
}

void cs_out_replay_csv(FILE *out, const struct cs_sched_config *c, const struct cs_trace *t,
                       const struct cs_sched_result *r, int header)
{
    if (header)
        fprintf(out, "trace,format,policy,placement,mig,gpus,jobs,completed,rejected,makespan_s,utilization,"
                     "busy_utilization,allocated_gpu_hours,busy_gpu_hours,queue_mean_s,queue_p50_s,"
                     "queue_p95_s,jct_mean_s,jct_p50_s,jct_p95_s,fragmentation,preemptions\n");
    cs_out_csv_field(out, t->file ? t->file : "");
    fprintf(out, ",%s,%s,%s,%s,%ld,%ld,%ld,%ld", cs_trace_format_name(t->format),
            cs_sched_policy_name(c->policy), cs_sched_place_name(c->place), c->mig ? "true" : "false",
            r->gpus, r->jobs, r->completed, r->rejected);
    cs__csv_fixed(out, 3, r->makespan_s);
    cs__csv_fixed(out, 6, r->utilization);
    cs__csv_fixed(out, 6, r->busy_utilization);
    cs__csv_fixed(out, 3, r->allocated_gpu_h);
    cs__csv_fixed(out, 3, r->busy_gpu_h);
    const struct cs_sched_summary *sum[2] = {&r->queue_s, &r->jct_s};
    for (int i = 0; i < 2; i++) {
        cs__csv_fixed(out, 3, sum[i]->mean);
        cs__csv_fixed(out, 3, sum[i]->p50);
        cs__csv_fixed(out, 3, sum[i]->p95);
    }
    cs__csv_fixed(out, 6, r->fragmentation);
    fprintf(out, ",%ld\n", r->preemptions);
}

cs_status cs_out_replay_plot_data(const char *dir, const struct cs_sched_config *c,
                                  const struct cs_sched_result *r, cs_diags *d)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/replay_util.dat", dir);
    cs_outfile *of = cs_outfile_open_d(path, d);
    if (!of)
        return CS_EIO;
    FILE *f = cs_outfile_fp(of);
    fprintf(f, "time_h allocated_frac busy_frac");  /* header row: gnuplot columnhead */
    for (int p = 0; p < r->n_parts; p++)
        fprintf(f, " %s_frac", r->parts[p].name[0] == '(' ? "none" : r->parts[p].name);
    fprintf(f, "\n");
    double g = r->gpus > 0 ? (double)r->gpus : 1;
    for (int b = 0; b < r->n_bins; b++) {
        fprintf(f, "%.6f %.6f %.6f", (r->t_s[b] + r->bin_s / 2) / 3600, r->alloc_gpus[b] / g, r->busy_gpus[b] / g);
        for (int p = 0; p < r->n_parts; p++)
            fprintf(f, " %.6f", r->part_gpus[(long)b * r->n_parts + p] / g);
        fprintf(f, "\n");
    }
    if (cs_outfile_commit_d(of, d) != CS_OK)
        return CS_EIO;
    (void)c;
    snprintf(path, sizeof path, "%s/replay_jct.dat", dir);
    of = cs_outfile_open_d(path, d);
    if (!of)
        return CS_EIO;
    f = cs_outfile_fp(of);
    fprintf(f, "# jct_h cdf\n");
    /* at most ~2000 points: every k-th order statistic plus the last */
    long step = r->n_jct > 2000 ? r->n_jct / 2000 : 1;
    for (long i = 0; i < r->n_jct; i += step)
        fprintf(f, "%.6f %.6f\n", r->jct_sorted[i] / 3600, (double)(i + 1) / (double)r->n_jct);
    if (r->n_jct > 0 && (r->n_jct - 1) % step != 0)
        fprintf(f, "%.6f 1.000000\n", r->jct_sorted[r->n_jct - 1] / 3600);
    return cs_outfile_commit_d(of, d);
}

/* ------------------------------------------------------------------------ */
/* Breakdowns, demand and warnings (models/replay_stats.h).                  */

static cJSON *cs__group_json(const struct cs_rstat_group *g)
{
    cJSON *x = cJSON_CreateObject();
    cJSON_AddStringToObject(x, "name", g->name);
    cJSON_AddNumberToObject(x, "jobs", (double)g->jobs);
    cJSON_AddNumberToObject(x, "completed", (double)g->completed);
    cJSON_AddNumberToObject(x, "rejected", (double)g->rejected);
    cJSON_AddNumberToObject(x, "gpu_hours", g->gpu_hours);
    cJSON_AddNumberToObject(x, "share", g->share);
    cJSON_AddItemToObject(x, "queue_s", cs__sum(&g->queue_s));
    cJSON_AddItemToObject(x, "jct_s", cs__sum(&g->jct_s));
    return x;
}

void cs_out_replay_stats_json(cJSON *o, const struct cs_replay_stats *st)
{
    cJSON *a = cJSON_AddArrayToObject(o, "by_size");
    for (int k = 0; k < CS_RSTAT_N_SIZES; k++)
        cJSON_AddItemToArray(a, cs__group_json(&st->size[k]));
    a = cJSON_AddArrayToObject(o, "by_user");
    for (size_t i = 0; i < st->users.n; i++)
        cJSON_AddItemToArray(a, cs__group_json(&st->users.groups[i]));
    cJSON_AddStringToObject(o, "by_partition_source", st->parts_from_scheduler ? "scheduler" : "trace");
    a = cJSON_AddArrayToObject(o, "by_partition");
    for (size_t i = 0; i < st->parts.n; i++)
        cJSON_AddItemToArray(a, cs__group_json(&st->parts.groups[i]));
    cJSON *dm = cJSON_AddObjectToObject(o, "demand");
    cJSON_AddNumberToObject(dm, "gpu_hours", st->demand_gpu_h);
    cJSON_AddNumberToObject(dm, "span_s", st->span_s);
    cJSON_AddNumberToObject(dm, "window_s", st->window_s);
    cs__num_or_null(dm, "gpus", st->demand_gpus);
    cs__num_or_null(dm, "offered_load", st->offered_load);
    cJSON_AddNumberToObject(dm, "capacity_gpus", (double)st->capacity_gpus);
    cJSON_AddNumberToObject(dm, "largest_job_gpus", st->largest_job_gpus);
    cJSON_AddNumberToObject(dm, "jobs_larger_than_cluster", (double)st->too_large);
    a = cJSON_AddArrayToObject(o, "warnings");
    for (int i = 0; i < st->n_warnings; i++) {
        cJSON *w = cJSON_CreateObject();
        cJSON_AddStringToObject(w, "id", st->warnings[i].id);
        cJSON_AddStringToObject(w, "message", st->warnings[i].msg);
        cJSON_AddItemToArray(a, w);
    }
}

static void cs__group_head(FILE *out, const char *title)
{
    fprintf(out, "  %-18s %8s %8s %12s %7s %11s %11s %11s %11s %11s %11s\n", title, "jobs", "rejected",
            "GPU-hours", "share", "queue mean", "p50", "p95", "JCT mean", "p50", "p95");
}

static void cs__group_row(FILE *out, const struct cs_rstat_group *g, const char *label)
{
    char v[6][32];
    const double x[6] = {g->queue_s.mean, g->queue_s.p50, g->queue_s.p95,
                         g->jct_s.mean, g->jct_s.p50, g->jct_s.p95};
    for (int i = 0; i < 6; i++)
        cs_out_human_duration(x[i], v[i], sizeof v[i]);
    fprintf(out, "  %-18.18s %8ld %8ld %12.2f %6.1f%% %11s %11s %11s %11s %11s %11s\n", label ? label : g->name,
            g->jobs, g->rejected, g->gpu_hours, 100 * g->share, v[0], v[1], v[2], v[3], v[4], v[5]);
}

/* source: where the groups come from ("" for none), shown in the title. */
static void cs__dim_text(FILE *out, const char *what, const char *source, const struct cs_rstat_dim *dm)
{
    if (!dm->named) {
        fprintf(out, "\nby %s: no job of the trace names a %s\n", what, what);
        return;
    }
    size_t shown = dm->n - dm->n_others;
    if (dm->n_others)
        fprintf(out, "\nby %s (%s%sthe %zu of %zu %s)\n", what, source, *source ? "; " : "", shown, dm->n,
                dm->ranked ? "with the most GPU-hours" : "first");
    else if (dm->ranked)
        fprintf(out, "\nby %s (%s%s%zu, most GPU-hours first)\n", what, source, *source ? "; " : "", dm->n);
    else
        fprintf(out, "\nby %s (%s%s%zu)\n", what, source, *source ? "; " : "", dm->n);
    cs__group_head(out, what);
    for (size_t i = 0; i < shown; i++)
        cs__group_row(out, &dm->groups[i], NULL);
    if (dm->n_others) {
        char lab[64];
        snprintf(lab, sizeof lab, "others (%zu)", dm->n_others);
        cs__group_row(out, &dm->others, lab);
    }
}

void cs_out_replay_breakdown_text(FILE *out, const struct cs_replay_stats *st)
{
    char a[32], b[32];
    fprintf(out, "\ndemand\n");
    cs_out_human_duration(st->span_s, a, sizeof a);
    cs_out_human_duration(st->window_s, b, sizeof b);
    fprintf(out, "  trace GPU-hours asked      %12.1f (every job, rejected ones too)\n", st->demand_gpu_h);
    fprintf(out, "  arrival window             %12s (first to last submission)\n", a);
    fprintf(out, "  no-wait window             %12s (first submission to the last end, had no job waited)\n", b);
    if (isfinite(st->demand_gpus))
        fprintf(out, "  GPUs needed on average     %12.1f over the no-wait window, against %ld GPUs: offered load "
                "%.*f\n", st->demand_gpus, st->capacity_gpus, st->offered_load >= 0.1 ? 3 : 5, st->offered_load);
    fprintf(out, "  largest job                %12.0f GPUs%s\n", st->largest_job_gpus,
            st->too_large ? " (more than the cluster has)" : "");

    fprintf(out, "\nby job size (GPUs asked; queueing and JCT of the completed jobs, in s, min, h or d)\n");
    cs__group_head(out, "size class");
    for (int k = 0; k < CS_RSTAT_N_SIZES; k++)
        if (st->size[k].jobs > 0)
            cs__group_row(out, &st->size[k], NULL);
    cs__dim_text(out, "user", "", &st->users);
    cs__dim_text(out, "partition", st->parts_from_scheduler ? "the scheduler's partitions"
                                                            : "the trace's partition column", &st->parts);
    if (st->n_warnings) {
        fprintf(out, "\nwarnings\n");
        for (int i = 0; i < st->n_warnings; i++)
            fprintf(out, "  %s: %s\n", st->warnings[i].id, st->warnings[i].msg);
    }
}

/* One size class's completed jobs: queueing and JCT, each sorted. */
static size_t cs__class_values(const struct cs_sched_result *r, const struct cs_trace *t, int k, double *q,
                               double *c)
{
    size_t m = 0;
    for (size_t i = 0; i < t->n; i++)
        if (isfinite(r->job_jct_s[i]) && cs_rstat_size_class(t->jobs[i].gpus) == k) {
            q[m] = r->job_queue_s[i];
            c[m++] = r->job_jct_s[i];
        }
    gsl_sort(q, 1, m);
    gsl_sort(c, 1, m);
    return m;
}

cs_status cs_out_replay_stats_plot_data(const char *dir, const struct cs_sched_result *r, const struct cs_trace *t,
                                        const struct cs_replay_stats *st, cs_diags *d)
{
    if (!r->job_jct_s || r->jobs != (long)t->n)
        return CS_EINVAL;
    char path[4096];
    snprintf(path, sizeof path, "%s/replay_timeline.dat", dir);
    cs_outfile *of = cs_outfile_open_d(path, d);
    if (!of)
        return CS_EIO;
    FILE *f = cs_outfile_fp(of);
    /* GPUs, time-averaged over each bin */
    fprintf(f, "# time_h capacity_gpus allocated_gpus busy_gpus allocated_plus_waiting_gpus trace_demand_gpus\n");
    for (int b = 0; b < r->n_bins; b++)
        fprintf(f, "%.6f %ld %.4f %.4f %.4f %.4f\n", (r->t_s[b] + r->bin_s / 2) / 3600, r->gpus, r->alloc_gpus[b],
                r->busy_gpus[b], r->alloc_gpus[b] + (r->wait_gpus ? r->wait_gpus[b] : 0),
                b < st->n_bins ? st->demand_bin_gpus[b] : 0);
    if (cs_outfile_commit_d(of, d) != CS_OK)
        return CS_EIO;
    snprintf(path, sizeof path, "%s/replay_size_cdf.dat", dir);
    of = cs_outfile_open_d(path, d);
    if (!of)
        return CS_EIO;
    f = cs_outfile_fp(of);
    double *q = cs_xmalloc((t->n + 1) * sizeof *q), *c = cs_xmalloc((t->n + 1) * sizeof *c);
    int blocks = 0;
    for (int k = 0; k < CS_RSTAT_N_SIZES; k++) {
        size_t m = cs__class_values(r, t, k, q, c);
        if (m == 0)
            continue;
        /* a block per class, two blank lines between (gnuplot `index`);
         * its first line names it (columnheader) */
        fprintf(f, "%s\"%s GPU%s, %zu job%s\" queue_s jct_s\n", blocks ? "\n\n" : "", cs_rstat_size_names[k],
                k <= 1 ? "" : "s", m, m == 1 ? "" : "s");
        /* the CDF starts at 0 at the smallest value (a step plot rises there) */
        fprintf(f, "0.000000 %.3f %.3f\n", q[0], c[0]);
        /* at most ~1000 points: every step-th order statistic plus the last */
        size_t step = m > 1000 ? m / 1000 : 1;
        for (size_t i = 0; i < m; i += step)
            fprintf(f, "%.6f %.3f %.3f\n", (double)(i + 1) / (double)m, q[i], c[i]);
        if ((m - 1) % step != 0)
            fprintf(f, "1.000000 %.3f %.3f\n", q[m - 1], c[m - 1]);
        blocks++;
    }
    free(q);
    free(c);
    return cs_outfile_commit_d(of, d);
}

/* ------------------------------------------------------------------------ */
/* Claims.                                                                   */

/* Orders the two replays of a comparison: *a the one with the setting the
 * claim favours (packed placement, MIG on), *b the other. */
static void cs__pair(const struct cs_scn_scheduler *cl, const struct cs_sched_config *c,
                     const struct cs_sched_result *r, const struct cs_sched_config *c2,
                     const struct cs_sched_result *r2, const struct cs_sched_config **ca,
                     const struct cs_sched_result **ra, const struct cs_sched_config **cb,
                     const struct cs_sched_result **rb)
{
    bool first = cl->claim_compare == CS_SCN_COMPARE_PLACEMENT ? c->place != CS_SCHED_SCATTERED : c->mig;
    *ca = first ? c : c2;
    *ra = first ? r : r2;
    *cb = first ? c2 : c;
    *rb = first ? r2 : r;
}

void cs_out_replay_verdict(const struct cs_scn_scheduler *cl, const struct cs_sched_config *c,
                           const struct cs_sched_result *r, const struct cs_sched_config *c2,
                           const struct cs_sched_result *r2, struct cs_replay_verdict *v)
{
    double tol = cl->claim_tolerance;
    v->holds = false;
    if (cl->claim_compare == CS_SCN_COMPARE_NONE || !c2 || !r2) {
        /* shares of allocated GPU-hours against quotas */
        bool all = true;
        int n = 0, len = 0;
        len += snprintf(v->line + len, sizeof v->line - (size_t)len, "shares");
        for (int p = 0; p < r->n_parts && len < (int)sizeof v->line - 64; p++) {
            const struct cs_sched_part_result *pr = &r->parts[p];
            if (!isfinite(pr->quota))
                continue;
            n++;
            bool ok = fabs(pr->share - pr->quota) <= tol + 1e-12;
            all = all && ok;
            len += snprintf(v->line + len, sizeof v->line - (size_t)len, " %s %.1f%% (quota %.0f%%)%s",
                            pr->name, 100 * pr->share, 100 * pr->quota, ok ? "" : " off");
        }
        v->holds = n > 0 && all;
        if (len < (int)sizeof v->line - 64)
            snprintf(v->line + len, sizeof v->line - (size_t)len, ": %s (tolerance %.0f points)",
                     n == 0 ? "no partition has a quota: nothing to judge"
                     : v->holds ? "HOLDS, each partition got its quota's share"
                                : "DOES NOT HOLD, not every partition got its quota's share",
                     100 * tol);
        return;
    }
    const struct cs_sched_config *ca, *cb;
    const struct cs_sched_result *ra, *rb;
    cs__pair(cl, c, r, c2, r2, &ca, &ra, &cb, &rb);
    if (cl->claim_compare == CS_SCN_COMPARE_PLACEMENT) {
        if (ra->workload_jobs == 0 || rb->workload_jobs == 0) {
            snprintf(v->line, sizeof v->line, "no job names a workload: placement cannot change run times "
                     "(NOT EVALUATED)");
            return;
        }
        double gain = (rb->workload_jct_mean_s - ra->workload_jct_mean_s) / rb->workload_jct_mean_s;
        v->holds = gain > tol;
        snprintf(v->line, sizeof v->line,
                 "workload-job mean JCT %s %.0f s vs %s %.0f s (%.1f%% shorter; mean slowdown %.3f vs %.3f): "
                 "%s (threshold %.0f%%)", cs_sched_place_name(ca->place), ra->workload_jct_mean_s,
                 cs_sched_place_name(cb->place), rb->workload_jct_mean_s, 100 * gain, ra->workload_slowdown_mean,
                 rb->workload_slowdown_mean, v->holds ? "HOLDS" : "DOES NOT HOLD", 100 * tol);
        return;
    }
    /* the busy share of allocated GPU time: what MIG changes directly */
    double ea = ra->allocated_gpu_h > 0 ? ra->busy_gpu_h / ra->allocated_gpu_h : 0;
    double eb = rb->allocated_gpu_h > 0 ? rb->busy_gpu_h / rb->allocated_gpu_h : 0;
    double gain = eb > 0 ? ea / eb - 1 : 0;
    double cl_gain = rb->busy_utilization > 0 ? ra->busy_utilization / rb->busy_utilization - 1 : 0;
    v->holds = gain > tol;
    snprintf(v->line, sizeof v->line,
             "busy share of allocated GPU time with MIG %.1f%% vs without %.1f%% (%+.1f%% relative); cluster busy "
             "utilization %.2f%% vs %.2f%% (%+.1f%%), mean queue %.0f s vs %.0f s: %s (threshold %.0f%%)",
             100 * ea, 100 * eb, 100 * gain, 100 * ra->busy_utilization, 100 * rb->busy_utilization,
             100 * cl_gain, ra->queue_s.mean, rb->queue_s.mean, v->holds ? "HOLDS" : "DOES NOT HOLD", 100 * tol);
}

static void cs__side(FILE *out, const char *label, const struct cs_sched_config *c, const struct cs_sched_result *r)
{
    char m[32], q[32], j[32];
    cs_out_human_duration(r->makespan_s, m, sizeof m);
    cs_out_human_duration(r->queue_s.mean, q, sizeof q);
    cs_out_human_duration(r->jct_s.mean, j, sizeof j);
    fprintf(out, "  %-22s %10.2f%% %10.2f%% %12s %12s %12s %12.4f\n", label, 100 * r->utilization,
            100 * r->busy_utilization, m, q, j, r->workload_jobs ? r->workload_slowdown_mean : 1.0);
    (void)c;
}

void cs_out_replay_claim_text(FILE *out, const struct cs_scn_scheduler *cl, const struct cs_sched_config *c,
                              const struct cs_sched_result *r, const struct cs_sched_config *c2,
                              const struct cs_sched_result *r2, int windows)
{
    struct cs_replay_verdict v;
    cs_out_replay_verdict(cl, c, r, c2, r2, &v);
    fprintf(out, "\nclaim %s: %s\n", cl->claim_id, cl->claim_text[0] ? cl->claim_text : "(no text)");
    if (cl->claim_compare == CS_SCN_COMPARE_NONE || !c2 || !r2) {
        /* shares over time: the allocated GPUs of each partition as a share
         * of all allocated GPUs, per window of the timeline */
        if (windows < 1)
            windows = 1;
        if (windows > r->n_bins)
            windows = r->n_bins;
        fprintf(out, "  share of allocated GPUs over time (%d windows of %.2f days)\n", windows,
                windows > 0 ? r->n_bins * r->bin_s / windows / 86400 : 0.0);
        fprintf(out, "  %-10s", "day");
        for (int p = 0; p < r->n_parts; p++)
            if (r->parts[p].jobs > 0 || isfinite(r->parts[p].quota))
                fprintf(out, " %12s", r->parts[p].name);
        fprintf(out, " %12s\n", "cluster use");
        for (int w = 0; w < windows; w++) {
            int b0 = (int)((long)w * r->n_bins / windows), b1 = (int)((long)(w + 1) * r->n_bins / windows);
            double tot = 0, part[CS_SCHED_MAX_PARTITIONS + 1] = {0};
            for (int b = b0; b < b1; b++)
                for (int p = 0; p < r->n_parts; p++) {
                    part[p] += r->part_gpus[(long)b * r->n_parts + p];
                    tot += r->part_gpus[(long)b * r->n_parts + p];
                }
            fprintf(out, "  %-10.2f", b0 < r->n_bins ? r->t_s[b0] / 86400 : 0.0);
            for (int p = 0; p < r->n_parts; p++)
                if (r->parts[p].jobs > 0 || isfinite(r->parts[p].quota))
                    fprintf(out, " %11.1f%%", tot > 0 ? 100 * part[p] / tot : 0.0);
            fprintf(out, " %11.1f%%\n", b1 > b0 && r->gpus > 0 ? 100 * tot / ((b1 - b0) * (double)r->gpus) : 0.0);
        }
        fprintf(out, "  %-16s %8s %8s %10s %14s %14s\n", "partition", "quota", "share", "jobs", "mean queue",
                "p95 queue");
        for (int p = 0; p < r->n_parts; p++) {
            const struct cs_sched_part_result *pr = &r->parts[p];
            if (pr->jobs == 0 && !isfinite(pr->quota))
                continue;
            char q[16];
            snprintf(q, sizeof q, isfinite(pr->quota) ? "%.0f%%" : "-", 100 * pr->quota);
            char mq[32], pq[32];
            cs_out_human_duration(pr->queue_mean_s, mq, sizeof mq);
            cs_out_human_duration(pr->queue_p95_s, pq, sizeof pq);
            fprintf(out, "  %-16s %8s %7.1f%% %10ld %14s %14s\n", pr->name, q, 100 * pr->share, pr->jobs, mq, pq);
        }
    } else {
        const struct cs_sched_config *ca, *cb;
        const struct cs_sched_result *ra, *rb;
        cs__pair(cl, c, r, c2, r2, &ca, &ra, &cb, &rb);
        fprintf(out, "  %-22s %11s %11s %12s %12s %12s %12s\n", "replay", "alloc util", "busy util", "makespan",
                "mean queue", "mean JCT", "wl slowdown");
        char la[64], lb[64];
        if (cl->claim_compare == CS_SCN_COMPARE_PLACEMENT) {
            snprintf(la, sizeof la, "placement %s", cs_sched_place_name(ca->place));
            snprintf(lb, sizeof lb, "placement %s", cs_sched_place_name(cb->place));
        } else {
            snprintf(la, sizeof la, "MIG (%d slices)", ca->mig_slices ? ca->mig_slices : CS_SCHED_MIG_SLICES);
            snprintf(lb, sizeof lb, "no MIG");
        }
        cs__side(out, la, ca, ra);
        cs__side(out, lb, cb, rb);
        if (cl->claim_compare == CS_SCN_COMPARE_PLACEMENT)
        {
            char ja[32], jb[32];
            cs_out_human_duration(ra->workload_jct_mean_s, ja, sizeof ja);
            cs_out_human_duration(rb->workload_jct_mean_s, jb, sizeof jb);
            fprintf(out, "  workload jobs: %ld, mean JCT %s (%s) vs %s (%s)\n", ra->workload_jobs, ja,
                    cs_sched_place_name(ca->place), jb, cs_sched_place_name(cb->place));
        }
    }
    fprintf(out, "  verdict: %s\n", v.line);
}

cJSON *cs_out_replay_claim_json(const struct cs_scn_scheduler *cl, const struct cs_sched_config *c,
                                const struct cs_sched_result *r, const struct cs_sched_config *c2,
                                const struct cs_sched_result *r2)
{
    struct cs_replay_verdict v;
    cs_out_replay_verdict(cl, c, r, c2, r2, &v);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "id", cl->claim_id);
    cJSON_AddStringToObject(o, "text", cl->claim_text);
    int k = cl->claim_compare >= 0 && cl->claim_compare < 3 ? cl->claim_compare : 0;
    cJSON_AddStringToObject(o, "compare", cs_scn_compare_names[k]);
    cJSON_AddNumberToObject(o, "tolerance", cl->claim_tolerance);
    cJSON_AddBoolToObject(o, "holds", v.holds);
    cJSON_AddStringToObject(o, "verdict", v.line);
    if (c2 && r2 && cl->claim_compare != CS_SCN_COMPARE_NONE) {
        cJSON *alt = cJSON_AddObjectToObject(o, "other");
        cJSON_AddStringToObject(alt, "placement", cs_sched_place_name(c2->place));
        cJSON_AddBoolToObject(alt, "mig", c2->mig);
        cJSON_AddNumberToObject(alt, "utilization", r2->utilization);
        cJSON_AddNumberToObject(alt, "busy_utilization", r2->busy_utilization);
        cJSON_AddNumberToObject(alt, "makespan_s", r2->makespan_s);
        cJSON_AddItemToObject(alt, "queue_s", cs__sum(&r2->queue_s));
        cJSON_AddItemToObject(alt, "jct_s", cs__sum(&r2->jct_s));
        if (r2->workload_jobs) {
            cJSON_AddNumberToObject(alt, "workload_jct_mean_s", r2->workload_jct_mean_s);
            cJSON_AddNumberToObject(alt, "workload_slowdown_mean", r2->workload_slowdown_mean);
        }
    }
    return o;
}
