/* run_level.c: run-level results (goodput, interruptions, checkpoints) and
 * the data pipeline, as JSON and text (report layer). */
#include "clustersim/report/run_level.h"
#include "clustersim/report/numfmt.h"

#include "clustersim/models/failure.h"

#include <math.h>
#include <string.h>

static void num(cJSON *o, const char *k, double v)
{
    if (isfinite(v))
        cJSON_AddNumberToObject(o, k, v);
    else
        cJSON_AddNullToObject(o, k);
}

static void dist(cJSON *o, const char *k, const struct cs_run_dist *d)
{
    cJSON *x = cJSON_AddObjectToObject(o, k);
    num(x, "mean", d->mean);
    num(x, "p05", d->p05);
    num(x, "p95", d->p95);
}

void cs_out_run_level_json(cJSON *root, const struct cs_run_result *r)
{
    if (!r->enabled)
        return;
    cJSON *o = cJSON_AddObjectToObject(root, "run");
    cJSON_AddStringToObject(o, "mode", r->duration_mode ? "duration" : "tokens");
    cJSON_AddNumberToObject(o, "replicas", r->replicas);
    cJSON_AddNumberToObject(o, "replicas_completed", r->completed);
    cJSON_AddBoolToObject(o, "failures_modelled", r->failures);
    cJSON_AddBoolToObject(o, "failure_rates_llama3_default", r->default_rates);
    num(o, "failure_free_s", r->target_s);
    num(o, "mtbi_s", r->mtbi_s);
    dist(o, "time_to_train_s", &r->time_to_train_s);
    dist(o, "goodput", &r->goodput);
    dist(o, "interruptions", &r->interruptions);
    dist(o, "preemptions", &r->preemptions);
    dist(o, "lost_gpu_hours", &r->lost_gpu_hours);
    dist(o, "checkpoint_overhead_s", &r->checkpoint_overhead_s);
    dist(o, "lost_work_s", &r->lost_work_s);
    dist(o, "downtime_s", &r->downtime_s);
    dist(o, "tokens", &r->tokens);
    dist(o, "maintenances", &r->maintenances);
    dist(o, "maintenance_s", &r->maintenance_s);
    dist(o, "straggler_removals", &r->straggler_removals);
    dist(o, "straggler_s", &r->straggler_s);
    cJSON *bc = cJSON_AddObjectToObject(o, "interruptions_by_cause");
    for (int i = 0; i < r->n_causes; i++)
        if (!r->cause_outage[i]) /* storage classes: storage_outages */
            dist(bc, r->cause_name[i], &r->cause[i]);
    /* Fault domains: interruptions and lost time by the scope of the class
     * (docs/run.md "Fault domains"), the scopes the scenario has. */
    cJSON *bs = cJSON_AddObjectToObject(o, "interruptions_by_scope");
    cJSON *ls = cJSON_AddObjectToObject(o, "lost_time_by_scope_s");
    for (int k = 0; k < CS_FAIL_N_SCOPES; k++) {
        if (!r->scope_used[k])
            continue;
        if (k != CS_SCOPE_STORAGE)
            dist(bs, cs_fail_scope_name((enum cs_fail_scope)k), &r->by_scope[k]);
        dist(ls, cs_fail_scope_name((enum cs_fail_scope)k), &r->lost_by_scope_s[k]);
    }
    if (r->maintenances.mean > 0)
        dist(ls, "maintenance", &r->lost_by_scope_s[CS_RUN_LOST_MAINT]);
    if (r->straggler_removals.mean > 0)
        dist(ls, "straggler", &r->lost_by_scope_s[CS_RUN_LOST_STRAG]);
    cJSON *fd = cJSON_AddObjectToObject(o, "fault_domains");
    cJSON_AddNumberToObject(fd, "leaves", (double)r->dom.leaves);
    cJSON_AddNumberToObject(fd, "spines", (double)r->dom.spines);
    cJSON_AddNumberToObject(fd, "racks", (double)cs_fail_domain_units(&r->dom, CS_SCOPE_RACK));
    cJSON_AddNumberToObject(fd, "nodes_per_leaf", (double)r->dom.nodes_per_leaf);
    cJSON_AddNumberToObject(fd, "nodes_per_rack", (double)r->dom.nodes_per_rack);
    cJSON_AddNumberToObject(fd, "spare_nodes", (double)r->spares);
    num(fd, "net_exposed_s", r->net_exposed_s);
    dist(o, "storage_outages", &r->storage_outages);
    dist(o, "storage_stall_s", &r->storage_stall_s);
    dist(o, "checkpoints_skipped", &r->checkpoints_skipped);
    dist(o, "spine_degraded_s", &r->spine_degraded_s);
    dist(o, "spares_lost", &r->spares_lost);
    const struct cs_ckpt_plan *p = &r->ckpt;
    cJSON *c = cJSON_AddObjectToObject(o, "checkpoint");
    cJSON_AddBoolToObject(c, "enabled", p->enabled);
    if (p->enabled) {
        num(c, "size_bytes", p->size_bytes);
        cJSON_AddBoolToObject(c, "size_from_model", p->size_from_model);
        cJSON_AddStringToObject(c, "tier", p->tier);
        cJSON_AddStringToObject(c, "upload", p->upload);
        cJSON_AddNumberToObject(c, "writer_nodes", p->writer_nodes);
        num(c, "write_s", p->write_s);
        num(c, "snapshot_s", p->snapshot_s);
        num(c, "blocking_s", p->blocking_s);
        num(c, "durable_s", p->durable_s);
        num(c, "upload_s", p->upload_s);
        num(c, "restore_s", p->restore_s);
        num(c, "host_bytes_per_node", p->host_bytes_per_node);
        cJSON_AddBoolToObject(c, "host_memory_fits", p->host_fits);
        cJSON_AddStringToObject(c, "interval_rule", cs_ckpt_rule_name(p->rule));
        num(c, "interval_s", p->interval_s);
        num(c, "interval_steps", p->interval_steps);
        num(c, "young_s", p->young_s);
        num(c, "daly_s", p->daly_s);
    }
}

static void pdist(FILE *out, const char *label, const struct cs_run_dist *d, double scale,
                  const char *unit)
{
    if (!isfinite(d->mean)) {
        fprintf(out, "  %-28s -\n", label);
        return;
    }
    char a[40], b[40], c[40];
    fprintf(out, "  %-28s %12s %-6s [p05 %s, p95 %s]\n", label, cs_fmt_g4(d->mean * scale, a, sizeof a), unit,
            cs_fmt_g4(d->p05 * scale, b, sizeof b), cs_fmt_g4(d->p95 * scale, c, sizeof c));
}

void cs_out_run_level_text(FILE *out, const struct cs_run_result *r)
{
    if (!r->enabled) {
        fprintf(out, "run: not simulated (give workload.tokens or run.duration)\n");
        return;
    }
    fprintf(out, "run (%s, %d Monte Carlo replica%s, %d completed):\n",
            r->duration_mode ? "fixed duration" : "to the token target", r->replicas,
            r->replicas == 1 ? "" : "s", r->completed);
    if (!r->failures)
        fprintf(out, "  no `failures:` section: the run has no failures\n");
    else {
        char mt[40];
        fprintf(out, "  failures: %d classes%s; job MTBI %s h\n", r->n_causes,
                r->default_rates ? " (rates derived from the Llama 3 405B table)" : "",
                cs_fmt_g4(r->mtbi_s / 3600, mt, sizeof mt));
    }
    char ff[40];
    fprintf(out, "  failure-free %-15s %12s days\n", r->duration_mode ? "span" : "time",
            cs_fmt_g4(r->target_s / 86400, ff, sizeof ff));
    if (!r->duration_mode)
        pdist(out, "time to train", &r->time_to_train_s, 1.0 / 86400, "days");
    pdist(out, "goodput", &r->goodput, 100, "%");
    pdist(out, "interruptions", &r->interruptions, 1, "");
    if (r->preemptions.mean > 0)
        pdist(out, "preemptions", &r->preemptions, 1, "");
    pdist(out, "lost GPU-hours", &r->lost_gpu_hours, 1, "GPU-h");
    pdist(out, "checkpoint overhead", &r->checkpoint_overhead_s, 1.0 / 3600, "h");
    pdist(out, "work lost to interruptions", &r->lost_work_s, 1.0 / 3600, "h");
    pdist(out, "down (detect/restart/wait)", &r->downtime_s, 1.0 / 3600, "h");
    pdist(out, "tokens trained", &r->tokens, 1e-9, "B");
    if (r->maintenances.mean > 0) {
        pdist(out, "planned maintenance stops", &r->maintenances, 1, "");
        pdist(out, "maintenance stopped", &r->maintenance_s, 1.0 / 3600, "h");
    }
    if (r->straggler_removals.mean > 0 || r->straggler_s.mean > 0) {
        pdist(out, "stragglers removed", &r->straggler_removals, 1, "");
        pdist(out, "slow steps (work lost)", &r->straggler_s, 1.0 / 3600, "h");
    }
    int nscopes = 0;
    for (int k = 0; k < CS_FAIL_N_SCOPES; k++)
        nscopes += r->scope_used[k];
    if (nscopes > 1 || r->scope_used[CS_SCOPE_LEAF] || r->scope_used[CS_SCOPE_SPINE] ||
        r->scope_used[CS_SCOPE_STORAGE] || r->scope_used[CS_SCOPE_RACK]) {
        fprintf(out, "  by fault domain (interruptions, time lost: rolled back + down + degraded/stalled):\n");
        for (int k = 0; k < CS_FAIL_N_SCOPES; k++) {
            if (!r->scope_used[k])
                continue;
            if (k == CS_SCOPE_STORAGE)
                fprintf(out, "    %-8s %8.4g outages     %10.4g h\n", "storage", r->storage_outages.mean,
                        r->lost_by_scope_s[k].mean / 3600);
            else
                fprintf(out, "    %-8s %8.4g             %10.4g h\n", cs_fail_scope_name((enum cs_fail_scope)k),
                        r->by_scope[k].mean, r->lost_by_scope_s[k].mean / 3600);
        }
        if (r->maintenances.mean > 0)
            fprintf(out, "    %-8s %8.4g windows     %10.4g h\n", "maint.", r->maintenances.mean,
                    r->lost_by_scope_s[CS_RUN_LOST_MAINT].mean / 3600);
        if (r->straggler_removals.mean > 0)
            fprintf(out, "    %-8s %8.4g removed     %10.4g h\n", "straggl.", r->straggler_removals.mean,
                    r->lost_by_scope_s[CS_RUN_LOST_STRAG].mean / 3600);
        if (r->spine_degraded_s.mean > 0)
            pdist(out, "ran with a spine out", &r->spine_degraded_s, 1.0 / 3600, "h");
        if (r->storage_stall_s.mean > 0)
            pdist(out, "stalled (tier out)", &r->storage_stall_s, 1.0 / 3600, "h");
        if (r->checkpoints_skipped.mean > 0)
            pdist(out, "checkpoints skipped", &r->checkpoints_skipped, 1, "");
        if (r->spares_lost.mean > 0)
            pdist(out, "spares lost with a domain", &r->spares_lost, 1, "");
    }
    const struct cs_ckpt_plan *p = &r->ckpt;
    if (p->enabled) {
        fprintf(out, "  checkpoint: %.4g GB (%s) to %s by %d node%s: write %.3g s, GPUs blocked "
                     "%.3g s, restore %.3g s",
                p->size_bytes / 1e9, p->size_from_model ? "model state" : "given", p->tier,
                p->writer_nodes, p->writer_nodes == 1 ? "" : "s", p->write_s, p->blocking_s,
                p->restore_s);
        if (p->upload[0])
            fprintf(out, ", upload to %s %.3g s", p->upload, p->upload_s);
        fputc('\n', out);
        if (isfinite(p->interval_s))
            fprintf(out, "  checkpoint interval: %.4g s (%.0f steps, %s)", p->interval_s,
                    p->interval_steps, cs_ckpt_rule_name(p->rule));
        else
            fprintf(out, "  checkpoint interval: none (no failures to protect against)");
        if (isfinite(p->young_s))
            fprintf(out, "; Young %.4g s, Daly %.4g s", p->young_s, p->daly_s);
        fputc('\n', out);
        if (!p->host_fits)
            fprintf(out, "  warning: the async snapshot (%.3g GB per node) exceeds host memory\n",
                    p->host_bytes_per_node / 1e9);
    } else {
        fprintf(out, "  no `checkpoint:` section: an interruption loses all work since the "
                     "start\n");
    }
    if (r->n_causes > 0) {
        fprintf(out, "  interruptions by cause (mean per run):\n");
        for (int i = 0; i < r->n_causes; i++)
            if (r->cause[i].mean > 0)
                fprintf(out, "    %-22s %8.2f%s\n", r->cause_name[i], r->cause[i].mean,
                        r->cause_outage[i] ? " (storage outages, not interruptions)" : "");
    }
}

void cs_out_data_json(cJSON *root, const struct cs_data_result *dr)
{
    if (!dr->enabled)
        return;
    cJSON *o = cJSON_AddObjectToObject(root, "data");
    num(o, "samples_per_rank", dr->samples_per_rank);
    num(o, "cpu_s", dr->cpu_s);
    num(o, "read_s", dr->read_s);
    num(o, "gpu_s", dr->gpu_s);
    num(o, "load_s", dr->load_s);
    num(o, "compute_s", dr->compute_s);
    num(o, "stall_s", dr->stall_s);
    num(o, "starved_fraction", dr->starved_fraction);
    cJSON *st = cJSON_AddObjectToObject(o, "stall_dist_s");
    num(st, "mean", dr->ckpt_window_fraction > 0 ? dr->stall_outside_ckpt_s : dr->stall_s);
    num(st, "p50", dr->stall_p50_s);
    num(st, "p95", dr->stall_p95_s);
    num(st, "p99", dr->stall_p99_s);
    num(st, "max", dr->stall_max_s);
    num(o, "stalled_steps_fraction", dr->stalled_steps_fraction);
    num(o, "ranks_simulated", dr->ranks_simulated);
    num(o, "steps_simulated", dr->steps_simulated);
    if (dr->ckpt_window_fraction > 0) {
        /* checkpoint traffic on the dataset's tier (docs/run.md) */
        cJSON *ck = cJSON_AddObjectToObject(o, "checkpoint");
        num(ck, "window_s", dr->ckpt_window_s);
        num(ck, "window_fraction", dr->ckpt_window_fraction);
        num(ck, "read_slowdown", dr->ckpt_read_slowdown);
        num(ck, "extra_stall_per_checkpoint_s", dr->ckpt_extra_stall_s);
        num(ck, "stall_outside_s", dr->stall_outside_ckpt_s);
    }
}

void cs_out_data_text(FILE *out, const struct cs_data_result *dr)
{
    if (!dr->enabled)
        return;
    fprintf(out, "data pipeline: load %.4g ms per step (cpu %.4g ms, read %.4g ms, gpu decode "
                 "%.4g ms) against %.4g ms of step: stall %.4g ms, GPUs starved %.1f%%\n",
            dr->load_s * 1e3, dr->cpu_s * 1e3, dr->read_s * 1e3, dr->gpu_s * 1e3,
            dr->compute_s * 1e3, dr->stall_s * 1e3, dr->starved_fraction * 100);
    fprintf(out, "  stall per step (loader simulated on %d ranks, %d steps): p50 %.4g ms, p95 %.4g ms, "
                 "p99 %.4g ms, max %.4g ms; %.1f%% of steps wait\n",
            dr->ranks_simulated, dr->steps_simulated, dr->stall_p50_s * 1e3, dr->stall_p95_s * 1e3,
            dr->stall_p99_s * 1e3, dr->stall_max_s * 1e3, dr->stalled_steps_fraction * 100);
    if (dr->ckpt_window_fraction > 0)
        fprintf(out, "  checkpoint traffic on the dataset's tier: %.4g s per checkpoint (%.2f%% of the time), "
                     "reads x%.3g slower: %.4g s more stall per checkpoint, %.4g ms per step on average "
                     "(%.4g ms without; the distribution above is without)\n",
                dr->ckpt_window_s, dr->ckpt_window_fraction * 100, dr->ckpt_read_slowdown,
                dr->ckpt_extra_stall_s, dr->stall_s * 1e3, dr->stall_outside_ckpt_s * 1e3);
}
