/* replay_report.c: trace-replay results out (report layer): aligned text,
 * JSON with the contract's replay.* keys, CSV, and gnuplot data files. */
#include "clustersim/report/replay_report.h"
#include "clustersim/base/outfile.h"

#include "csv.h"

#include <errno.h>
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
        fprintf(out, "  workload jobs              %12ld (mean slowdown from placement and contention %.4f, "
                "mean JCT %.1f s)\n", r->workload_jobs, r->workload_slowdown_mean, r->workload_jct_mean_s);
    if (r->workload_unfit)
        fprintf(out, "  workload jobs not modelled %12ld (no parallelism of the rule fits: trace durations)\n",
                r->workload_unfit);
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
    fprintf(out, "  %-22s %10.2f%% %10.2f%% %12.0f %12.0f %12.0f %12.4f\n", label, 100 * r->utilization,
            100 * r->busy_utilization, r->makespan_s, r->queue_s.mean, r->jct_s.mean,
            r->workload_jobs ? r->workload_slowdown_mean : 1.0);
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
        fprintf(out, "  %-16s %8s %8s %10s %14s %14s\n", "partition", "quota", "share", "jobs", "mean queue s",
                "p95 queue s");
        for (int p = 0; p < r->n_parts; p++) {
            const struct cs_sched_part_result *pr = &r->parts[p];
            if (pr->jobs == 0 && !isfinite(pr->quota))
                continue;
            char q[16];
            snprintf(q, sizeof q, isfinite(pr->quota) ? "%.0f%%" : "-", 100 * pr->quota);
            fprintf(out, "  %-16s %8s %7.1f%% %10ld %14.1f %14.1f\n", pr->name, q, 100 * pr->share, pr->jobs,
                    pr->queue_mean_s, pr->queue_p95_s);
        }
    } else {
        const struct cs_sched_config *ca, *cb;
        const struct cs_sched_result *ra, *rb;
        cs__pair(cl, c, r, c2, r2, &ca, &ra, &cb, &rb);
        fprintf(out, "  %-22s %11s %11s %12s %12s %12s %12s\n", "replay", "alloc util", "busy util", "makespan s",
                "mean queue s", "mean JCT s", "wl slowdown");
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
            fprintf(out, "  workload jobs: %ld, mean JCT %.1f s (%s) vs %.1f s (%s)\n", ra->workload_jobs,
                    ra->workload_jct_mean_s, cs_sched_place_name(ca->place), rb->workload_jct_mean_s,
                    cs_sched_place_name(cb->place));
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
