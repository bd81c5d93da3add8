/* cmd_replay.c: `clustersim replay TRACE --cluster FILE`: read a job trace,
 * replay it through a scheduler on the scenario's cluster (or a node list),
 * and report utilization, queueing, JCT, fragmentation and partition shares
 * as text, JSON or CSV, with gnuplot figures under -o DIR (gnuplot is run
 * directly with fork + execvp, never through a shell). */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "progress.h"

#include "clustersim/base/numparse.h"
#include "clustersim/app/replay.h"
#include "clustersim/report/gnuplot.h"
#include "clustersim/report/replay_report.h"
#include "clustersim/report/run_report.h"
#include "clustersim/models/scheduler.h"
#include "clustersim/config/trace.h"
#include "clustersim/base/units.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static const struct cs_cli_opt cs__replay_opts[] = {
    {"cluster", 'c', "FILE", "scenario whose `cluster:` section is the cluster (the workload is ignored)"},
    {"nodes", 0, "FILE", "node list instead: Alibaba openb node list or PAI machine spec (GPU types)"},
    {"policy", 'p', "POL", "fifo (default), backfill (EASY) or sjf"},
    {"placement", 0, "PL", "packed (default, same leaf first), scattered or bestfit"},
    {"trace-format", 0, "FMT", "auto (default), native, itp, openb, helios, acme, pai or philly"},
    {"from", 0, "TIME", "keep jobs submitted at or after TIME (e.g. 7d, 3600s; from the trace origin)"},
    {"to", 0, "TIME", "keep jobs submitted before TIME"},
    {"limit", 0, "N", "keep at most N jobs (after the window)"},
    {"partitions", 0, "LIST", "quotas, e.g. research:0.4,training:0.5,inference:0.1[:PRIO]"},
    {"mig", 0, NULL, "fractional-GPU jobs take MIG slices (1/7 GPU) instead of a whole GPU"},
    {"preempt", 0, NULL, "a blocked job preempts running jobs of lower priority"},
    {"nodes-per-leaf", 0, "N", "nodes under one leaf switch (default: from the fabric, else 16)"},
    {"backfill-depth", 0, "N", "queued jobs examined per scheduling pass (default 1000)"},
    {"bins", 0, "N", "utilization timeline bins (default 200)"},
    {"seed", 0, "N", "seed of the scattered placement (default: the scenario's, else 1)"},
    {"format", 'f', "FMT", "output format: text (default), json or csv"},
    {"output", 'o', "DIR", "write replay.txt / .json / .csv and the figures into DIR"},
    CS_CLI_OPT_CATALOG,
    CS_CLI_OPT_SET,
    {"no-plots", 0, NULL, "with -o: write no figures"},
    {"quiet", 'q', NULL, "no progress line on standard error, even on a terminal"},
};

static bool cs__long(const char *flag, const char *s, long lo, long hi, long *out)
{
    if (!cs_num_parse_long(s, 10, lo, hi, out)) {
        fprintf(stderr, "clustersim replay: --%s: expected an integer in %ld..%ld, got \"%s\"\n", flag, lo, hi, s);
        return false;
    }
    return true;
}

static bool cs__time_opt(const char *flag, const char *s, double *out)
{
    char err[256];
    if (cs_num_parse_double(s, out))  /* a plain number is seconds */
        return true;
    if (cs_units_parse(s, CS_UNIT_TIME, out, err, sizeof err) == CS_OK)
        return true;
    fprintf(stderr, "clustersim replay: --%s: %s\n", flag, err);
    return false;
}

/* "name:quota[:priority],..." */
static bool cs__partitions(const char *s, struct cs_sched_config *c)
{
    char *copy = strdup(s), *save = NULL;
    bool ok = copy != NULL;
    for (char *tok = ok ? strtok_r(copy, ",", &save) : NULL; tok && ok; tok = strtok_r(NULL, ",", &save)) {
        char *q = strchr(tok, ':');
        if (!q || q == tok || c->n_partitions == CS_SCHED_MAX_PARTITIONS) {
            fprintf(stderr, "clustersim replay: --partitions: expected NAME:QUOTA[:PRIORITY] (at most %d), "
                            "got \"%s\"\n", CS_SCHED_MAX_PARTITIONS, tok);
            ok = false;
            break;
        }
        *q++ = '\0';
        struct cs_sched_partition *p = &c->partitions[c->n_partitions];
        snprintf(p->name, sizeof p->name, "%s", tok);
        char *pr = strchr(q, ':');
        if (pr)
            *pr++ = '\0';
        char *end;
        double v = strtod(q, &end);
        if (*end == '%') {
            v /= 100;
            end++;
        }
        if (!*q || *end || !(v >= 0 && v <= 1)) {
            fprintf(stderr, "clustersim replay: --partitions: %s: expected a quota in [0, 1] or 0%%..100%%, "
                            "got \"%s\"\n", tok, q);
            ok = false;
            break;
        }
        p->quota = v;
        long prio = 0;
        if (pr && !cs__long("partitions", pr, -1000000, 1000000, &prio)) {
            ok = false;
            break;
        }
        p->priority = (int)prio;
        c->n_partitions++;
    }
    free(copy);
    return ok;
}

/* Copies plots/NAME (the template) into dir (report/gnuplot.c). */
static bool cs__copy_template(const char *dir, const char *name)
{
    cs_diags d;
    cs_diags_init(&d);
    bool ok = cs_gnuplot_copy_template(dir, name, &d) == CS_OK;
    for (size_t i = 0; i < d.n; i++) {
        char *s = cs_cli_diag_plain(&d.items[i]);
        fprintf(stderr, "clustersim replay: warning: %s: figure skipped\n", s);
        free(s);
    }
    cs_diags_fini(&d);
    return ok;
}

/* The figures' data and scripts in dir, then gnuplot. False when the data
 * could not be written (the message printed): the command fails. A missing
 * template or gnuplot is a warning. */
static bool cs__figures(const char *dir, const struct cs_sched_config *c, const struct cs_trace *t,
                        const struct cs_sched_result *r, const struct cs_replay_stats *rs)
{
    cs_diags d;
    cs_diags_init(&d);
    cs_status st = cs_out_replay_plot_data(dir, c, r, &d);
    if (st == CS_OK)
        st = cs_out_replay_stats_plot_data(dir, r, t, rs, &d);
    cs_cli_print_diags_prefixed(&d, "clustersim replay");
    cs_diags_fini(&d);
    if (st != CS_OK)
        return false;
    /* the size-class CDFs need a completed job */
    static const char *const scripts[] = {"replay_util.gp", "replay_jct_cdf.gp", "replay_timeline.gp",
                                           "replay_size_cdf.gp"};
    size_t ns = sizeof scripts / sizeof scripts[0] - (r->completed > 0 ? 0 : 1);
    for (size_t i = 0; i < ns; i++) {
        if (!cs__copy_template(dir, scripts[i]))
            continue;
        int rc = cs_gnuplot_run(dir, scripts[i]);
        if (rc == 127) {
            fprintf(stderr, "clustersim replay: warning: gnuplot not found: wrote %s/%s and its data "
                            "but no PNG\n", dir, scripts[i]);
            return true;
        }
        if (rc != 0)
            fprintf(stderr, "clustersim replay: warning: gnuplot %s exited with %d\n", scripts[i], rc);
    }
    return true;
}

static int cs__replay(const struct cs_cli_cmd *cmd, const struct cs_cli_args *a)
{
    enum cs_cli_format fmt;
    if (!cs_cli_format(cs_cli_get(cmd, a, "format"), &fmt))
        return CS_EXIT_BADINPUT;
    if (a->npos != 1) {
        fprintf(stderr, "clustersim replay: expected one TRACE file (see 'clustersim help replay')\n");
        return CS_EXIT_BADINPUT;
    }
    const char *cluster = cs_cli_get(cmd, a, "cluster"), *nodes = cs_cli_get(cmd, a, "nodes");
    if (!cluster && !nodes) {
        fprintf(stderr, "clustersim replay: give the cluster: --cluster SCENARIO or --nodes NODE_LIST\n");
        return CS_EXIT_BADINPUT;
    }
    struct cs_sched_config cfg;
    cs_sched_config_default(&cfg);
    struct cs_trace_options topt;
    cs_trace_options_default(&topt);
    const char *v;
    long n;
    if ((v = cs_cli_get(cmd, a, "policy")) && cs_sched_policy_parse(v, &cfg.policy) != CS_OK) {
        fprintf(stderr, "clustersim replay: --policy: expected fifo, backfill or sjf, got \"%s\"\n", v);
        return CS_EXIT_BADINPUT;
    }
    if ((v = cs_cli_get(cmd, a, "placement")) && cs_sched_place_parse(v, &cfg.place) != CS_OK) {
        fprintf(stderr, "clustersim replay: --placement: expected packed, scattered or bestfit, got \"%s\"\n", v);
        return CS_EXIT_BADINPUT;
    }
    if ((v = cs_cli_get(cmd, a, "trace-format")) && cs_trace_format_parse(v, &topt.format) != CS_OK) {
        fprintf(stderr, "clustersim replay: --trace-format: expected auto, native, itp, openb, helios, acme, "
                        "pai or philly, got \"%s\"\n", v);
        return CS_EXIT_BADINPUT;
    }
    if ((v = cs_cli_get(cmd, a, "from")) && !cs__time_opt("from", v, &topt.from_s))
        return CS_EXIT_BADINPUT;
    if ((v = cs_cli_get(cmd, a, "to")) && !cs__time_opt("to", v, &topt.to_s))
        return CS_EXIT_BADINPUT;
    if ((v = cs_cli_get(cmd, a, "limit"))) {
        if (!cs__long("limit", v, 1, 100000000, &n))
            return CS_EXIT_BADINPUT;
        topt.limit = n;
    }
    if ((v = cs_cli_get(cmd, a, "partitions")) && !cs__partitions(v, &cfg))
        return CS_EXIT_BADINPUT;
    cfg.mig = cs_cli_get(cmd, a, "mig") != NULL;
    cfg.preempt = cs_cli_get(cmd, a, "preempt") != NULL;
    if ((v = cs_cli_get(cmd, a, "nodes-per-leaf"))) {
        if (!cs__long("nodes-per-leaf", v, 1, 1000000, &n))
            return CS_EXIT_BADINPUT;
        cfg.nodes_per_leaf = (int)n;
    }
    if ((v = cs_cli_get(cmd, a, "backfill-depth"))) {
        if (!cs__long("backfill-depth", v, 1, 100000000, &n))
            return CS_EXIT_BADINPUT;
        cfg.backfill_depth = (int)n;
    }
    if ((v = cs_cli_get(cmd, a, "bins"))) {
        if (!cs__long("bins", v, 1, 100000, &n))
            return CS_EXIT_BADINPUT;
        cfg.timeline_bins = (int)n;
    }
    bool seed_given = false;
    if ((v = cs_cli_get(cmd, a, "seed"))) {
        if (!cs__long("seed", v, 0, 2147483647L, &n))
            return CS_EXIT_BADINPUT;
        cfg.seed = (uint64_t)n;
        seed_given = true;
    }

    cfg.max_events = cs_cli_max_events(); /* 0: the replay's default budget */
    cfg.keep_times = true;                /* the breakdowns (models/replay_stats.h) */
    /* cluster: a node list or a scenario (app/replay.c) */
    struct cs_app_replay rp;
    cs_app_replay_init(&rp, &cfg);
    struct cs_cli_scenario sc;
    bool have_sc = false;
    cs_diags d;
    cs_diags_init(&d);
    int rc = CS_EXIT_OK;
    if (nodes) {
        struct cs_trace_nodes nl;
        if (cs_trace_load_nodes(nodes, &nl, &d) != CS_OK) {
            cs_cli_print_diags_for(&d, nodes);
            cs_diags_fini(&d);
            cs_app_replay_fini(&rp);
            return CS_EXIT_BADINPUT;
        }
        if (cs_app_replay_use_nodes(&rp, &nl) != CS_OK) {
            fprintf(stderr, "clustersim replay: %s: more than %d node groups\n", nodes, CS_SCHED_MAX_GROUPS);
            cs_diags_fini(&d);
            cs_app_replay_fini(&rp);
            return CS_EXIT_BADINPUT;
        }
        if (cluster)
            fprintf(stderr, "clustersim replay: warning: --nodes given: --cluster %s is not used\n", cluster);
    } else {
        rc = cs_cli_load_scenario(cluster, cs_cli_get(cmd, a, "catalog"), a, &sc);
        if (rc != CS_EXIT_OK) {
            cs_diags_fini(&d);
            cs_app_replay_fini(&rp);
            return rc;
        }
        have_sc = true;
        struct cs_app_replay_given given = {
            cs_cli_get(cmd, a, "policy") != NULL,         cs_cli_get(cmd, a, "placement") != NULL,
            cs_cli_get(cmd, a, "preempt") != NULL,        cs_cli_get(cmd, a, "mig") != NULL,
            cs_cli_get(cmd, a, "backfill-depth") != NULL, cs_cli_get(cmd, a, "partitions") != NULL,
            seed_given};
        cs_app_replay_use_scenario(&rp, &sc.scenario, &given);
        if (rp.fabric_status != CS_OK)
            fprintf(stderr, "clustersim replay: warning: %s: cannot build the fabric (%s): leaves of %d nodes "
                            "assumed, workload run times not scaled by placement\n", cluster,
                    cs_strerror(rp.fabric_status), rp.cfg.nodes_per_leaf > 0 ? rp.cfg.nodes_per_leaf : 16);
    }
    const struct cs_scn_scheduler *claim = rp.claim;

    /* trace */
    struct cs_trace tr;
    cs_trace_init(&tr);
    struct cs_replay_stats rstats;
    memset(&rstats, 0, sizeof rstats);
    struct cs_cli_progress pg; /* on standard error while the replay runs (cli/progress.h) */
    cs_cli_progress_init(&pg, "replay", "jobs", cs_cli_get(cmd, a, "quiet") != NULL);
    rp.cfg.progress = cs_cli_progress_cb;
    rp.cfg.progress_ctx = &pg;
    bool pg_ended = false;
    const char *path = a->pos[0];
    cs_status st = cs_trace_load(path, &topt, &tr, &d);
    size_t nerr = cs_cli_print_diags_for(&d, path);
    cs_diags_fini(&d);
    cs_diags_init(&d);
    if (st != CS_OK || nerr > 0) {
        rc = CS_EXIT_BADINPUT;
        goto done;
    }
    /* the replay, and the claim's other side (app/replay.c) */
    st = cs_app_replay_run(&rp, &tr, &d);
    cs_cli_progress_end(&pg);
    pg_ended = true;
    cs_cli_print_diags_for(&d, path);
    if (st != CS_OK) {
        rc = st == CS_EINVAL ? CS_EXIT_BADINPUT : CS_EXIT_FAIL;
        goto done;
    }
    const struct cs_sched_config *cfg1 = &rp.cfg, *cfg2 = &rp.cfg2;
    const struct cs_sched_result *res = &rp.res, *res2 = &rp.res2;
    bool have_res2 = rp.have_res2;
    /* breakdowns, demand and warnings: the text report shows its warnings;
     * other outputs get them on standard error too */
    if (cs_replay_stats_compute(cfg1, &tr, res, 10, &rstats) != CS_OK) {
        fprintf(stderr, "clustersim replay: internal error: no per-job times for the breakdowns\n");
        rc = CS_EXIT_FAIL;
        goto done;
    }
    if (fmt != CS_FMT_TEXT || !cs_cli_out_is_stdout(cs_cli_get(cmd, a, "output")))
        for (int i = 0; i < rstats.n_warnings; i++)
            fprintf(stderr, "clustersim replay: warning: %s\n", rstats.warnings[i].msg);
    {
        const char *outdir = cs_cli_get(cmd, a, "output");
        const char *name = fmt == CS_FMT_JSON ? "replay.json" : fmt == CS_FMT_CSV ? "replay.csv" : "replay.txt";
        struct cs_cli_out out;
        if (!cs_cli_out_open(&out, outdir, name)) {
            rc = CS_EXIT_FAIL;
            goto done;
        }
        bool ok = true;
        if (fmt == CS_FMT_JSON) {
            cJSON *root = cJSON_CreateObject();
            cJSON_AddStringToObject(root, "clustersim_version", CLUSTERSIM_VERSION);
            if (have_sc)
                cJSON_AddStringToObject(root, "cluster_file", cluster);
            else
                cJSON_AddStringToObject(root, "nodes_file", nodes);
            cJSON *rj = cs_out_replay_json(cfg1, &tr, res);
            cs_out_replay_stats_json(rj, &rstats);
            if (claim)
                cJSON_AddItemToObject(rj, "claim", cs_out_replay_claim_json(claim, cfg1, res, have_res2 ? cfg2 : NULL,
                                                                            have_res2 ? res2 : NULL));
            cJSON_AddItemToObject(root, "replay", rj);
            ok = cs_out_json_write(out.fp, root);
            cJSON_Delete(root);
        } else if (fmt == CS_FMT_CSV) {
            cs_out_replay_csv(out.fp, cfg1, &tr, res, 1);
        } else {
            fprintf(out.fp, "clustersim %s: replay\n\n", CLUSTERSIM_VERSION);
            cs_out_replay_text(out.fp, cfg1, &tr, res);
            cs_out_replay_breakdown_text(out.fp, &rstats);
            if (claim)
                cs_out_replay_claim_text(out.fp, claim, cfg1, res, have_res2 ? cfg2 : NULL,
                                         have_res2 ? res2 : NULL, 10);
        }
        if (ferror(out.fp))
            ok = false;
        if (!cs_cli_out_close(&out, ok))
            rc = CS_EXIT_FAIL;
        if (rc == CS_EXIT_OK && !cs_cli_out_is_stdout(outdir) && !cs_cli_get(cmd, a, "no-plots") &&
            !cs__figures(outdir, cfg1, &tr, res, &rstats)) /* -o -: no figures */
            rc = CS_EXIT_FAIL;
    }
done:
    if (!pg_ended)
        cs_cli_progress_end(&pg);
    cs_replay_stats_fini(&rstats);
    cs_diags_fini(&d);
    cs_trace_fini(&tr);
    cs_app_replay_fini(&rp);
    if (have_sc)
        cs_cli_scenario_fini(&sc);
    return rc;
}

const struct cs_cli_cmd cs_cmd_replay = {
    "replay",
    "replay [options] TRACE --cluster FILE",
    "replay a job trace through a scheduler: utilization, queueing, JCT",
    "Reads TRACE (the native CSV job_id,submit_s,gpus,duration_s,user,partition,\n"
    "priority,gpu_type,workload, or a published trace: Microsoft ITP 2021, Alibaba\n"
    "openb 2023, Helios, Acme, PAI 2020 task table, Philly cluster_job_log JSON),\n"
    "replays it on the cluster of --cluster (a scenario) or --nodes (a node list\n"
    "with GPU types) and reports utilization, allocated and busy GPU-hours,\n"
    "queueing delay and JCT (mean, p50, p95), fragmentation and partition shares.\n"
    "Jobs naming a workload (a model preset) run longer when their placement\n"
    "or contention on leaf uplinks slows them (step model). Settings come from\n"
    "the scenario's `scheduler:` section when it has one; flags override it. A\n"
    "`scheduler.claim` is answered with its figures and a verdict. Queueing and\n"
    "JCT are broken down by job size (GPUs asked), user and partition; the\n"
    "trace's demand is compared with the cluster, with a warning when the\n"
    "cluster is far larger (utilization under 5%) or smaller (offered load over\n"
    "1, jobs larger than the cluster) than the trace needs. Text gives times in\n"
    "s, min, h or d; JSON in seconds. With -o DIR, gnuplot figures of\n"
    "utilization and GPUs over time against the capacity, the JCT CDF and the\n"
    "queueing and JCT CDFs by job size are written (and rendered when gnuplot\n"
    "is installed). See docs/replay.md.",
    cs__replay_opts,
    (int)(sizeof cs__replay_opts / sizeof cs__replay_opts[0]),
    cs__replay,
};
