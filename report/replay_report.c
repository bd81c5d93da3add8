/* replay_report.c: trace-replay results out (report layer): aligned text,
 * JSON with the contract's replay.* keys, CSV, and gnuplot data files. */
#include "clustersim/replay_report.h"

#include <errno.h>
#include <math.h>
#include <string.h>

static cJSON *cs__sum(const struct cs_sched_summary *s)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "mean", isfinite(s->mean) ? s->mean : 0);
    cJSON_AddNumberToObject(o, "p50", isfinite(s->p50) ? s->p50 : 0);
    cJSON_AddNumberToObject(o, "p95", isfinite(s->p95) ? s->p95 : 0);
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
    if (r->workload_jobs)
        cJSON_AddNumberToObject(o, "workload_slowdown_mean", r->workload_slowdown_mean);
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
        cJSON_AddNumberToObject(x, "queue_mean_s", isfinite(pr->queue_mean_s) ? pr->queue_mean_s : 0);
        cJSON_AddItemToArray(parts, x);
    }
    return o;
}

static void cs__dur(FILE *out, const char *label, const struct cs_sched_summary *s)
{
    fprintf(out, "  %-26s %12.1f %12.1f %12.1f\n", label, s->mean, s->p50, s->p95);
}

void cs_out_replay_text(FILE *out, const struct cs_sched_config *c, const struct cs_trace *t,
                        const struct cs_sched_result *r)
{
    const struct cs_trace_counts *k = &t->counts;
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
    fprintf(out, "  makespan                   %12.1f s (%.2f days)\n", r->makespan_s, r->makespan_s / 86400);
    fprintf(out, "  utilization (allocated)    %12.2f %%\n", 100 * r->utilization);
    fprintf(out, "  utilization (busy)         %12.2f %%\n", 100 * r->busy_utilization);
    fprintf(out, "  allocated GPU-hours        %12.1f\n", r->allocated_gpu_h);
    fprintf(out, "  busy GPU-hours             %12.1f\n", r->busy_gpu_h);
    fprintf(out, "  trace GPU-hours            %12.1f\n", r->trace_gpu_h);
    fprintf(out, "  fragmentation              %12.2f %% of GPUs free while jobs wait\n",
            100 * r->fragmentation);
    fprintf(out, "  longest queue              %12ld jobs\n", r->max_queue);
    fprintf(out, "  preemptions                %12ld\n", r->preemptions);
    if (r->workload_jobs)
        fprintf(out, "  workload jobs              %12ld (mean slowdown from placement %.4f)\n",
                r->workload_jobs, r->workload_slowdown_mean);
    fprintf(out, "\n  %-26s %12s %12s %12s\n", "(seconds)", "mean", "p50", "p95");
    cs__dur(out, "queueing delay", &r->queue_s);
    cs__dur(out, "job completion time", &r->jct_s);
    if (r->n_parts > 1 || r->parts[0].jobs > 0) {
        fprintf(out, "\n  %-16s %8s %10s %14s %8s %14s\n", "partition", "quota", "jobs", "GPU-hours",
                "share", "mean queue s");
        for (int p = 0; p < r->n_parts; p++) {
            const struct cs_sched_part_result *pr = &r->parts[p];
            if (pr->jobs == 0 && p == r->n_parts - 1 && r->n_parts > 1)
                continue;
            char q[16];
            if (isfinite(pr->quota))
                snprintf(q, sizeof q, "%.0f%%", 100 * pr->quota);
            else
                snprintf(q, sizeof q, "-");
            fprintf(out, "  %-16s %8s %10ld %14.1f %7.1f%% %14.1f\n", pr->name, q, pr->jobs, pr->gpu_hours,
                    100 * pr->share, pr->queue_mean_s);
        }
    }
}

void cs_out_replay_csv(FILE *out, const struct cs_sched_config *c, const struct cs_trace *t,
                       const struct cs_sched_result *r, int header)
{
    if (header)
        fprintf(out, "trace,format,policy,placement,mig,gpus,jobs,completed,rejected,makespan_s,utilization,"
                     "busy_utilization,allocated_gpu_hours,busy_gpu_hours,queue_mean_s,queue_p50_s,"
                     "queue_p95_s,jct_mean_s,jct_p50_s,jct_p95_s,fragmentation,preemptions\n");
    fprintf(out, "%s,%s,%s,%s,%d,%ld,%ld,%ld,%ld,%.3f,%.6f,%.6f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.6f,%ld\n",
            t->file ? t->file : "", cs_trace_format_name(t->format), cs_sched_policy_name(c->policy),
            cs_sched_place_name(c->place), c->mig ? 1 : 0, r->gpus, r->jobs, r->completed, r->rejected,
            r->makespan_s, r->utilization, r->busy_utilization, r->allocated_gpu_h, r->busy_gpu_h,
            r->queue_s.mean, r->queue_s.p50, r->queue_s.p95, r->jct_s.mean, r->jct_s.p50, r->jct_s.p95,
            r->fragmentation, r->preemptions);
}

bool cs_out_replay_plot_data(const char *dir, const struct cs_sched_config *c,
                             const struct cs_sched_result *r, char *err, size_t errlen)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/replay_util.dat", dir);
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return false;
    }
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
    bool ok = !ferror(f);
    ok = fclose(f) == 0 && ok;
    (void)c;
    snprintf(path, sizeof path, "%s/replay_jct.dat", dir);
    f = fopen(path, "w");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return false;
    }
    fprintf(f, "# jct_h cdf\n");
    /* at most ~2000 points: every k-th order statistic plus the last */
    long step = r->n_jct > 2000 ? r->n_jct / 2000 : 1;
    for (long i = 0; i < r->n_jct; i += step)
        fprintf(f, "%.6f %.6f\n", r->jct_sorted[i] / 3600, (double)(i + 1) / (double)r->n_jct);
    if (r->n_jct > 0 && (r->n_jct - 1) % step != 0)
        fprintf(f, "%.6f 1.000000\n", r->jct_sorted[r->n_jct - 1] / 3600);
    ok = !ferror(f) && ok;
    ok = fclose(f) == 0 && ok;
    if (!ok)
        snprintf(err, errlen, "%s: write error", dir);
    return ok;
}
