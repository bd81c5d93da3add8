/* cmd_plan.c: `clustersim plan FILE`: the cheapest cluster that trains the
 * plan's workload by its deadline, the fastest within its budget, and the
 * Pareto front of cost against time (app/plan.c; docs/plan.md). This file
 * parses the flags and prints: text, JSON (DESIGN.md's plan contract) or
 * CSV, and with -o DIR the front as a gnuplot figure and an HTML page. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "progress.h"

#include "clustersim/app/plan.h"
#include "clustersim/app/results_json.h"
#include "clustersim/base/numparse.h"
#include "clustersim/base/units.h"
#include "clustersim/base/xmalloc.h"
#include "clustersim/config/fileio.h"
#include "clustersim/report/gnuplot.h"
#include "clustersim/report/html.h"
#include "clustersim/report/run_report.h"
#include "clustersim/report/table.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#ifdef CLUSTERSIM_MPI
#include <mpi.h>
#endif
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const struct cs_cli_opt cs__plan_opts[] = {
    {"format", 'f', "FMT", "output format: text (default), json or csv"},
    {"output", 'o', "DIR", "write plan.txt / plan.json / plan.csv into DIR, with the front as "
                           "plan_front.png (gnuplot) and plan.html"},
    {"jobs", 'j', "N", "evaluate N candidates at once (default 1; results do not depend on N)"},
    {"replicas", 0, "N", "run-model Monte Carlo replicas per candidate (default: the plan's "
                         "run.replicas, else 64)"},
    {"uncertainty", 0, NULL, "time-to-train and cost intervals from the model's own parameters (the "
                             "step's validation error, failure rates, restarts) instead of the "
                             "failures' randomness alone (docs/uncertainty.md)"},
    {"shard", 0, "K/N", "evaluate only the K-th of N interleaved parts of the candidates into "
                        "DIR/plan-shard-K-of-N.jsonl (-o DIR required); join them with --merge"},
    {"merge", 0, NULL, "FILE SHARD...: join the shard files (or directories holding them) of FILE "
                       "and print the plan as one run would"},
    {"all", 0, NULL, "also list every candidate cluster (pruned, unfit and failed ones with the "
                     "reason)"},
    CS_CLI_OPT_CATALOG,
    CS_CLI_OPT_SET,
    {"quiet", 'q', NULL, "no progress line on standard error, even on a terminal"},
};

/* "tp8 pp4 dp32 cp1 mb1 zero1 sel" (ep/etp for MoE). */
static const char *cs__par(const struct cs_workload *w, char *buf, size_t len)
{
    const struct cs_parallel *q = &w->par;
    char rc[32], ep[32] = "";
    if (cs_model_is_moe(&w->model))
        snprintf(ep, sizeof ep, " ep%d etp%d", q->ep, q->etp);
    snprintf(buf, len, "tp%d pp%d dp%d cp%d vp%d%s mb%d %s %s", q->tp, q->pp, q->dp, q->cp, q->vp, ep,
             w->micro_batch, cs_fsdp_name(q->fsdp), cs_cli_recompute_label(w, rc, sizeof rc));
    return buf;
}

static void cs__days(double s, char *b, size_t n) { snprintf(b, n, "%.1f d", s / 86400.0); }
static void cs__usd(double v, char *b, size_t n) { cs_units_format(v, CS_UNIT_MONEY, b, n); }

static const char *const cs__hdr[] = {">#", "GPU", ">GPUs", "fabric", "parallelism", "ownership",
                                      ">time", ">p95", ">cost", ">p95", ">TCO", ">fail",
                                      ">ckpt", ">comm", "deadline", "budget", "racks"};
#define CS__NHDR 17

static void cs__row_cells(const struct cs_app_plan *r, struct cs_plan_ref ref, size_t rank,
                          char cells[CS__NHDR][96])
{
    const struct cs_plan_cand *c = &r->c[ref.cand];
    const struct cs_plan_own *po = cs_plan_own_of(c, ref);
    snprintf(cells[0], 96, "%zu", rank);
    snprintf(cells[1], 96, "%s", cs_plan_gpu(r->plan, c->gi));
    snprintf(cells[2], 96, "%ld", c->gpus);
    snprintf(cells[3], 96, "%s", cs_plan_fabric(r->plan, c->fi));
    cs__par(&c->w, cells[4], 96);
    const char *off = cs_plan_offer_of(c, ref);
    if (off[0])
        snprintf(cells[5], 96, "%s %s", cs_cost_option_name(ref.opt), off);
    else
        snprintf(cells[5], 96, "%s", cs_cost_option_name(ref.opt));
    cs__days(po->time_s[0], cells[6], 96);
    cs__days(po->time_s[2], cells[7], 96);
    cs__usd(po->cost_usd[0], cells[8], 96);
    cs__usd(po->cost_usd[2], cells[9], 96);
    cs__usd(po->tco_usd, cells[10], 96);
    snprintf(cells[11], 96, "%.1f%%", 100 * c->failure_share);
    snprintf(cells[12], 96, "%.1f%%", 100 * c->checkpoint_share);
    snprintf(cells[13], 96, "%.1f%%", 100 * c->comm_share);
    snprintf(cells[14], 96, "%s", po->meets_deadline ? "meets" : "misses");
    snprintf(cells[15], 96, "%s", po->within_budget ? "within" : "over");
    if (c->racks > 0) /* the facility model's placement and cooling verdict */
        snprintf(cells[16], 96, "%d %s %.1f kW%s", c->racks, c->cooling,
                 c->kw_per_rack, c->cooling_ok ? "" : " OVER");
    else
        snprintf(cells[16], 96, "-");
}

static void cs__table(FILE *f, const struct cs_app_plan *r, const struct cs_plan_ref *refs, size_t n)
{
    cs_table *t = cs_table_create(CS__NHDR, cs__hdr);
    for (size_t i = 0; i < n; i++) {
        char cells[CS__NHDR][96];
        cs__row_cells(r, refs[i], i + 1, cells);
        cs_table_add_rowf(t, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s",
                          cells[0], cells[1], cells[2], cells[3], cells[4], cells[5], cells[6],
                          cells[7], cells[8], cells[9], cells[10], cells[11], cells[12], cells[13],
                          cells[14], cells[15], cells[16]);
    }
    cs_table_write(t, f, 2);
    cs_table_destroy(t);
}

static void cs__header(FILE *f, const struct cs_app_plan *r)
{
    const struct cs_plan_info *pi = &r->info;
    char dl[48], bu[48] = "none";
    cs__days(pi->deadline_s, dl, sizeof dl);
    if (isfinite(pi->budget_usd))
        cs__usd(pi->budget_usd, bu, sizeof bu);
    fprintf(f, "Plan %s: deadline %s at p95, budget %s (%s basis)\n", pi->name, dl, bu,
            cs_plan_basis_names[pi->basis]);
    char st[48] = "";
    if (pi->n_storage > 1)
        snprintf(st, sizeof st, " x %d storage choices", pi->n_storage);
    fprintf(f, "Candidates: %d GPU type%s x %d node count%s x %d fabric%s%s = %zu clusters, %d ownership "
               "option%s\n  %zu evaluated (%zu configurations simulated), %zu pruned by the deadline "
               "bound, %zu do not fit, %zu failed\n\n",
            pi->n_gpus, pi->n_gpus == 1 ? "" : "s", pi->n_nodes, pi->n_nodes == 1 ? "" : "s", pi->n_fabrics,
            pi->n_fabrics == 1 ? "" : "s", st, r->n, pi->n_ownership, pi->n_ownership == 1 ? "" : "s", r->evaluated,
            r->configs,
            r->pruned, r->nofit, r->failed);
}

/* --uncertainty: the inputs that move a cluster's time to train most. */
static void cs__tornado_text(FILE *f, const struct cs_plan_cand *c)
{
    if (!c->uncertainty || c->n_tornado == 0)
        return;
    fprintf(f, "  tornado (mean time to train, one input at its p05 and p95):");
    for (int k = 0; k < c->n_tornado; k++)
        fprintf(f, "%s %s x%.3g %.1f d .. x%.3g %.1f d", k ? ";" : "", cs_unc_input_names[c->tornado[k].input],
                c->tornado[k].low_factor, c->tornado[k].low / 86400, c->tornado[k].high_factor,
                c->tornado[k].high / 86400);
    fprintf(f, "\n");
}

static void cs__text(FILE *f, const struct cs_app_plan *r, bool all)
{
    cs__header(f, r);
    fprintf(f, "Cheapest plan that meets the deadline at p95:\n");
    if (r->has_cheapest) {
        cs__table(f, r, &r->cheapest, 1);
        cs__tornado_text(f, &r->c[r->cheapest.cand]);
    } else {
        fprintf(f, "  none\n");
    }
    fprintf(f, "\nFastest plan within the budget:\n");
    if (r->has_fastest)
        cs__table(f, r, &r->fastest, 1);
    else
        fprintf(f, "  none\n");
    if (r->binding[0])
        fprintf(f, "\nNothing meets both constraints. Binding: %s.\n", r->binding);
    fprintf(f, "\nPareto front of cost against time (means; %zu plans):\n", r->nfront);
    if (r->nfront)
        cs__table(f, r, r->front, r->nfront);
    else
        fprintf(f, "  empty\n");
    fprintf(f, "\ntime: time to train with failures, checkpoints and restarts (run model, mean and "
               "p95%s); cost: the %s (%s); TCO: the option's total over cost.years; fail, ckpt: shares "
               "of the wall-clock time lost to failures and checkpoints; comm: exposed communication "
               "in the step; racks: the facility model's racks, cooling and kW per rack (OVER: a rack "
               "over its cooling limit, the GPUs throttled).\n",
            r->uncertainty ? "; --uncertainty: over the model's parameters too" : "",
            r->info.basis == CS_PLAN_BASIS_RUN ? "run's share of the option's cost" : "money committed",
            r->info.basis == CS_PLAN_BASIS_RUN ? "budget_basis: run"
                                               : "rental for the run, reservation terms, or the owned "
                                                 "cluster's TCO");
    if (all) {
        fprintf(f, "\nEvery candidate cluster:\n");
        const char *h[] = {"GPU", ">nodes", ">GPUs", "fabric", "state", ">bound", ">configs",
                           "parallelism / reason"};
        cs_table *t = cs_table_create(8, h);
        for (size_t i = 0; i < r->n; i++) {
            const struct cs_plan_cand *c = &r->c[i];
            char b[32] = "-", par[160];
            if (isfinite(c->bound_s))
                cs__days(c->bound_s, b, sizeof b);
            cs_table_add_rowf(t, "%s\t%d\t%ld\t%s\t%s\t%s\t%zu\t%s", cs_plan_gpu(r->plan, c->gi),
                              c->nodes, c->gpus, cs_plan_fabric(r->plan, c->fi),
                              cs_plan_state_names[c->state], b, c->configs,
                              c->state == CS_PLAN_EVALUATED ? cs__par(&c->w, par, sizeof par) : c->why);
        }
        cs_table_write(t, f, 2);
        cs_table_destroy(t);
    }
}

static bool cs__on_front(const struct cs_app_plan *r, struct cs_plan_ref ref)
{
    for (size_t i = 0; i < r->nfront; i++)
        if (r->front[i].cand == ref.cand && r->front[i].opt == ref.opt && r->front[i].offer == ref.offer)
            return true;
    return false;
}

static void cs__csv(FILE *f, const struct cs_app_plan *r)
{
    fprintf(f, "gpu,nodes,gpus,fabric,state,tp,pp,dp,cp,vp,ep,etp,micro_batch,fsdp,recompute,"
               "ownership,offer,time_mean_s,time_p05_s,time_p95_s,cost_mean_usd,cost_p05_usd,cost_p95_usd,"
               "run_usd,commitment_usd,tco_usd,meets_deadline,within_budget,on_front,failure_share,"
               "checkpoint_share,comm_share,time_bound_s,reason\n");
    for (size_t i = 0; i < r->n; i++) {
        const struct cs_plan_cand *c = &r->c[i];
        const char *fab = cs_plan_fabric(r->plan, c->fi);
        if (c->state != CS_PLAN_EVALUATED) {
            char why[sizeof c->why];
            snprintf(why, sizeof why, "%s", c->why);
            for (char *q = why; *q; q++)
                if (*q == '"')
                    *q = '\'';
            fprintf(f, "%s,%d,%ld,%s,%s,,,,,,,,,,,,,,,,,,,,,,,,,,,,%.6g,\"%s\"\n",
                    cs_plan_gpu(r->plan, c->gi), c->nodes, c->gpus, fab,
                    cs_plan_state_names[c->state], c->bound_s, why);
            continue;
        }
        for (int fo = -1; fo < c->n_offers; fo++)
            for (int j = 0; j < r->info.n_ownership; j++) {
                struct cs_plan_ref ref = {(int)i, r->info.ownership[j], fo};
                const struct cs_plan_own *po = cs_plan_own_of(c, ref);
                if (!po->available)
                    continue;
                const struct cs_parallel *q = &c->w.par;
                char rc[32];
                fprintf(f, "%s,%d,%ld,%s,%s,%d,%d,%d,%d,%d,%d,%d,%d,%s,%s,%s,%s,%.6g,%.6g,%.6g,%.6g,%.6g,"
                           "%.6g,%.6g,%.6g,%.6g,%s,%s,%s,%.6g,%.6g,%.6g,%.6g,\n",
                        cs_plan_gpu(r->plan, c->gi), c->nodes, c->gpus, fab, cs_plan_state_names[c->state],
                        q->tp, q->pp, q->dp, q->cp, q->vp, q->ep, q->etp, c->w.micro_batch,
                        cs_fsdp_name(q->fsdp), cs_cli_recompute_label(&c->w, rc, sizeof rc),
                        cs_cost_option_name(ref.opt), cs_plan_offer_of(c, ref), po->time_s[0], po->time_s[1],
                        po->time_s[2], po->cost_usd[0], po->cost_usd[1], po->cost_usd[2], po->run_usd[0],
                        po->commitment_usd[0], po->tco_usd, po->meets_deadline ? "true" : "false",
                        po->within_budget ? "true" : "false", cs__on_front(r, ref) ? "true" : "false",
                        c->failure_share, c->checkpoint_share, c->comm_share, c->bound_s);
            }
    }
}

/* plan_points.dat (every evaluated plan: days, $M, option index),
 * plan_front.dat (the front, by time, with a label), plan_meta.gp, then
 * gnuplot on plots/plan_front.gp. False when a data file cannot be
 * written (the message printed); a missing gnuplot is a warning. */
static bool cs__figure(const char *dir, const struct cs_app_plan *r)
{
    struct cs_cli_out o;
    if (!cs_cli_out_open(&o, dir, "plan_points.dat"))
        return false;
    fprintf(o.fp, "# days cost_musd option_index option\n");
    for (size_t i = 0; i < r->n; i++) {
        const struct cs_plan_cand *c = &r->c[i];
        if (c->state != CS_PLAN_EVALUATED)
            continue;
        for (int fo = -1; fo < c->n_offers; fo++)
            for (int j = 0; j < r->info.n_ownership; j++) {
                struct cs_plan_ref ref = {(int)i, r->info.ownership[j], fo};
                const struct cs_plan_own *po = cs_plan_own_of(c, ref);
                if (po->available)
                    fprintf(o.fp, "%.6g %.6g %d %s\n", po->time_s[0] / 86400.0, po->cost_usd[0] / 1e6,
                            (int)ref.opt, cs_cost_option_name(ref.opt));
            }
    }
    if (!cs_cli_out_close(&o, !ferror(o.fp)))
        return false;
    if (!cs_cli_out_open(&o, dir, "plan_front.dat"))
        return false;
    fprintf(o.fp, "# days cost_musd label\n");
    for (size_t i = 0; i < r->nfront; i++) {
        const struct cs_plan_cand *c = &r->c[r->front[i].cand];
        const struct cs_plan_own *po = cs_plan_own_of(c, r->front[i]);
        /* a short label: "512xB200" (the GPU's family, before its first '-') */
        const char *g = cs_plan_gpu(r->plan, c->gi);
        const char *dash = strchr(g, '-');
        int gl = dash ? (int)(dash - g) : (int)strlen(g);
        fprintf(o.fp, "%.6g %.6g \"%ldx%.*s\"\n", po->time_s[0] / 86400.0, po->cost_usd[0] / 1e6, c->gpus, gl, g);
    }
    if (!cs_cli_out_close(&o, !ferror(o.fp)))
        return false;
    if (!cs_cli_out_open(&o, dir, "plan_meta.gp"))
        return false;
    fprintf(o.fp, "option_names = '");
    for (int k = 0; k < CS_OPT_COUNT; k++)
        fprintf(o.fp, "%s%s", k ? " " : "", cs_cost_option_name((enum cs_cost_option)k));
    fprintf(o.fp, "'\n");
    fprintf(o.fp, "plan_name = '%s'\ndeadline_days = %.6g\nbudget_musd = %.6g\nplan_nfront = %zu\n",
            r->info.name, r->info.deadline_s / 86400.0,
            isfinite(r->info.budget_usd) ? r->info.budget_usd / 1e6 : -1.0, r->nfront);
    if (!cs_cli_out_close(&o, !ferror(o.fp)))
        return false;
    cs_diags d;
    cs_diags_init(&d);
    bool have = cs_gnuplot_copy_template(dir, "plan_front.gp", &d) == CS_OK;
    cs_cli_print_diags_prefixed(&d, "clustersim plan: warning");
    cs_diags_fini(&d);
    if (!have || r->nfront == 0)
        return true;
    int rc = cs_gnuplot_run(dir, "plan_front.gp");
    if (rc == CS_GNUPLOT_MISSING)
        fprintf(stderr, "clustersim plan: warning: gnuplot not found: wrote %s/plan_front.gp and its "
                        "data but no PNG\n", dir);
    else if (rc != 0)
        fprintf(stderr, "clustersim plan: warning: gnuplot plan_front.gp exited with %d\n", rc);
    return true;
}

static bool cs__html(const char *dir, const struct cs_app_plan *r)
{
    struct cs_cli_out o;
    if (!cs_cli_out_open(&o, dir, "plan.html"))
        return false;
    char title[160];
    snprintf(title, sizeof title, "clustersim plan: %s", r->info.name);
    cs_html_begin(o.fp, title);
    cs_html_heading(o.fp, 1, title);
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (m) {
        cs__header(m, r);
        fclose(m);
        cs_html_para(o.fp, buf);
        free(buf);
    }
    const struct {
        const char *title;
        bool has;
        struct cs_plan_ref ref;
    } picks[2] = {{"Cheapest plan that meets the deadline at p95", r->has_cheapest, r->cheapest},
                  {"Fastest plan within the budget", r->has_fastest, r->fastest}};
    for (int k = 0; k < 3; k++) {
        const struct cs_plan_ref *refs = k < 2 ? &picks[k].ref : r->front;
        size_t n = k < 2 ? (picks[k].has ? 1 : 0) : r->nfront;
        cs_html_heading(o.fp, 2, k < 2 ? picks[k].title : "Pareto front of cost against time");
        if (k == 2 && r->binding[0]) {
            char b[700];
            snprintf(b, sizeof b, "Nothing meets both constraints. Binding: %s.", r->binding);
            cs_html_para(o.fp, b);
        }
        if (k == 2)
            fprintf(o.fp, "<p><img src=\"plan_front.png\" alt=\"cost against time\" "
                          "style=\"max-width:100%%\"></p>\n");
        if (n == 0) {
            cs_html_para(o.fp, "none");
            continue;
        }
        const char **cells = calloc(n * CS__NHDR, sizeof *cells);
        char (*store)[CS__NHDR][96] = calloc(n, sizeof *store);
        const char *head[CS__NHDR];
        for (int j = 0; j < CS__NHDR; j++)
            head[j] = cs__hdr[j][0] == '>' ? cs__hdr[j] + 1 : cs__hdr[j];
        for (size_t i = 0; cells && store && i < n; i++) {
            cs__row_cells(r, refs[i], i + 1, store[i]);
            for (int j = 0; j < CS__NHDR; j++)
                cells[i * CS__NHDR + j] = store[i][j];
        }
        if (cells && store)
            cs_html_table(o.fp, CS__NHDR, head, n, cells);
        free(cells);
        free(store);
    }
    cs_html_end(o.fp);
    return cs_cli_out_close(&o, !ferror(o.fp));
}

/* The report: plan.txt / .json / .csv (stdout without -o), and with -o DIR
 * the figure and the HTML page. */
static bool cs__report(enum cs_cli_format fmt, bool all, const char *dir, const struct cs_app_plan *r)
{
    const char *name = fmt == CS_FMT_JSON ? "plan.json" : fmt == CS_FMT_CSV ? "plan.csv" : "plan.txt";
    struct cs_cli_out out;
    bool ok = cs_cli_out_open(&out, dir, name);
    if (ok) {
        if (fmt == CS_FMT_JSON) {
            cJSON *root = cs_app_plan_json(r, all);
            cs_out_json_write(out.fp, root);
            cJSON_Delete(root);
        } else if (fmt == CS_FMT_CSV) {
            cs__csv(out.fp, r);
        } else {
            cs__text(out.fp, r, all);
        }
        ok = cs_cli_out_close(&out, !ferror(out.fp));
    }
    if (ok && dir && !cs_cli_out_is_stdout(dir))
        ok = cs__figure(dir, r) && cs__html(dir, r);
    return ok;
}

/* rank and size: 0 and 1 without MPI; under mpirun every rank evaluates
 * its shard into DIR and rank 0 joins them into the report. */
static int cs__plan_ranked(const struct cs_cli_cmd *cmd, const struct cs_cli_args *a, int rank, int size)
{
    enum cs_cli_format fmt;
    if (!cs_cli_format(cs_cli_get(cmd, a, "format"), &fmt))
        return CS_EXIT_BADINPUT;
    bool merge = cs_cli_get(cmd, a, "merge") != NULL;
    if (merge ? a->npos < 2 : a->npos != 1) {
        fprintf(stderr, merge ? "clustersim plan: --merge: expected the plan FILE and its shard files or "
                                "directories\n"
                              : "clustersim plan: expected one plan FILE\n");
        return CS_EXIT_BADINPUT;
    }
    long sk = 0, sn = 0;
    if (size > 1) {
        const char *od = cs_cli_get(cmd, a, "output");
        if (!od || cs_cli_out_is_stdout(od) || merge || cs_cli_get(cmd, a, "shard")) {
            if (rank == 0)
                fprintf(stderr, "clustersim plan: under mpirun every rank writes its shard into DIR and "
                                "rank 0 the report: give -o DIR, and neither --shard nor --merge\n");
            return CS_EXIT_BADINPUT;
        }
        sk = rank + 1;
        sn = size;
    }
    const char *ss = cs_cli_get(cmd, a, "shard");
    if (ss) {
        if (!cs_cli_parse_shard("plan", ss, &sk, &sn))
            return CS_EXIT_BADINPUT;
        const char *od = cs_cli_get(cmd, a, "output");
        if (!od || cs_cli_out_is_stdout(od) || merge) {
            fprintf(stderr, "clustersim plan: --shard writes DIR/plan-shard-K-of-N.jsonl: give -o DIR "
                            "(and no --merge)\n");
            return CS_EXIT_BADINPUT;
        }
    }
    if (strcmp(a->pos[0], "-") == 0) {
        fprintf(stderr, "clustersim plan: a plan is read from a file (its includes and neighbour "
                        "files are relative to it), not from standard input\n");
        return CS_EXIT_BADINPUT;
    }
    struct cs_app_plan_opts po;
    cs_app_plan_opts_default(&po);
    const char *js = cs_cli_get(cmd, a, "jobs");
    if (js) {
        long j = 0;
        if (!cs_num_parse_long(js, 10, 1, CS_PLAN_MAX_THREADS, &j)) {
            fprintf(stderr, "clustersim plan: --jobs: expected a whole number from 1 to %d, got \"%s\"\n",
                    CS_PLAN_MAX_THREADS, js);
            return CS_EXIT_BADINPUT;
        }
        po.threads = (int)j;
    }
    const char *rs = cs_cli_get(cmd, a, "replicas");
    if (rs) {
        long v = 0;
        if (!cs_num_parse_long(rs, 10, 1, 100000, &v)) {
            fprintf(stderr, "clustersim plan: --replicas: expected a whole number from 1 to 100000, "
                            "got \"%s\"\n", rs);
            return CS_EXIT_BADINPUT;
        }
        po.replicas = (int)v;
    }
    bool all = cs_cli_get(cmd, a, "all") != NULL;
    po.uncertainty = cs_cli_get(cmd, a, "uncertainty") != NULL;
    cs_diags d;
    cs_diags_init(&d);
    struct cs_cfg_override ov[CS_CLI_MAX_SETS];
    char *paths[CS_CLI_MAX_SETS], *names[CS_CLI_MAX_SETS];
    size_t nov = 0;
    int rc = CS_EXIT_OK;
    for (int i = 0; i < a->nsets; i++) {
        const char *eq = strchr(a->sets[i], '=');
        if (!eq || eq == a->sets[i]) {
            fprintf(stderr, "clustersim plan: --set %s: expected KEY=VALUE with a key path, like "
                            "--set deadline=60d\n", a->sets[i]);
            rc = CS_EXIT_BADINPUT;
            break;
        }
        paths[nov] = cs_xstrndup(a->sets[i], (size_t)(eq - a->sets[i]));
        names[nov] = cs_xasprintf("--set %s", a->sets[i]);
        ov[nov] = (struct cs_cfg_override){paths[nov], eq + 1, names[nov], 0, 0};
        nov++;
    }
    cs_catalog *cat = NULL;
    const char *catdir = cs_cli_get(cmd, a, "catalog");
    if (!catdir)
        catdir = cs_catalog_default_dir();
    if (rc == CS_EXIT_OK) {
        cs_status cst = cs_catalog_load_dir(catdir, &d, &cat);
        if (cst != CS_OK) {
            cs_cli_print_diags_for(&d, catdir);
            fprintf(stderr, "clustersim: cannot load the hardware catalog from %s: %s\n", catdir,
                    cs_strerror(cst));
            rc = CS_EXIT_BADINPUT;
        }
    }
    cs_plan *p = NULL;
    if (rc == CS_EXIT_OK && cs_plan_load(a->pos[0], ov, nov, &d, &p) != CS_OK)
        rc = CS_EXIT_BADINPUT;
    for (size_t i = 0; i < nov; i++)
        free(paths[i]), free(names[i]);
    if (rc != CS_EXIT_OK) {
        cs_cli_print_diags_for(&d, cs_path_display(a->pos[0]));
        cs_diags_fini(&d);
        cs_catalog_destroy(cat);
        return rc;
    }
    struct cs_cli_progress pg; /* cli/progress.h */
    cs_cli_progress_init(&pg, "plan", "candidates", cs_cli_get(cmd, a, "quiet") != NULL);
    po.progress = cs_cli_progress_cb_size;
    po.progress_ctx = &pg;
    po.shard_k = (int)sk;
    po.shard_n = (int)sn;
    struct cs_app_plan r;
    cs_status st;
    if (merge) {
        /* shard files, or directories holding plan-shard-*.jsonl */
        const char *files[CS_CLI_MAX_POS * 8];
        char *owned[CS_CLI_MAX_POS * 8];
        size_t nf = 0, no = 0;
        for (int i = 1; i < a->npos && nf < sizeof files / sizeof files[0]; i++) {
            DIR *dd = opendir(a->pos[i]);
            if (!dd) {
                files[nf++] = a->pos[i];
                continue;
            }
            struct dirent *e;
            while ((e = readdir(dd)) && nf < sizeof files / sizeof files[0]) {
                size_t l = strlen(e->d_name);
                if (strncmp(e->d_name, "plan-shard-", 11) == 0 && l > 6 &&
                    strcmp(e->d_name + l - 6, ".jsonl") == 0) {
                    owned[no] = cs_xasprintf("%s/%s", a->pos[i], e->d_name);
                    files[nf++] = owned[no++];
                }
            }
            closedir(dd);
        }
        st = cs_app_plan_merge(p, cat, files, nf, &d, &r);
        for (size_t i = 0; i < no; i++)
            free(owned[i]);
    } else {
        st = cs_app_plan(p, cat, &po, &d, &r);
    }
    cs_cli_progress_end(&pg);
    cs_cli_print_diags_for(&d, cs_path_display(a->pos[0]));
    cs_diags_fini(&d);
    if (st != CS_OK) {
        cs_app_plan_fini(&r);
        cs_plan_destroy(p);
        cs_catalog_destroy(cat);
        return st == CS_EIO ? CS_EXIT_FAIL : CS_EXIT_BADINPUT;
    }
    const char *dir = cs_cli_get(cmd, a, "output");
    if (sn > 0) {
        /* a shard: its candidates, one JSON line each, after a header */
        char name[96];
        snprintf(name, sizeof name, "plan-shard-%ld-of-%ld.jsonl", sk, sn);
        struct cs_cli_out so;
        bool okw = cs_cli_out_open(&so, dir, name);
        if (okw) {
            char *h = cs_app_plan_shard_header(&r, (int)sk, (int)sn);
            fprintf(so.fp, "%s\n", h);
            free(h);
            for (size_t i = 0; i < r.n; i++) {
                if (r.c[i].state == CS_PLAN_OTHER_SHARD)
                    continue;
                char *l = cs_app_plan_cand_line(&r, i);
                fprintf(so.fp, "%s\n", l);
                free(l);
            }
            okw = cs_cli_out_close(&so, !ferror(so.fp));
        }
        cs_app_plan_fini(&r);
        int rc2 = okw ? CS_EXIT_OK : CS_EXIT_FAIL;
#ifdef CLUSTERSIM_MPI
        if (size > 1) {
            /* every rank has written its shard (or failed); rank 0 joins */
            int bad = !okw, any_bad = 0;
            MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
            rc2 = any_bad ? CS_EXIT_FAIL : CS_EXIT_OK;
            if (!any_bad && rank == 0) {
                char **files = cs_xcalloc((size_t)size, sizeof *files);
                for (int k = 0; k < size; k++)
                    files[k] = cs_xasprintf("%s/plan-shard-%d-of-%d.jsonl", dir, k + 1, size);
                cs_diags md;
                cs_diags_init(&md);
                struct cs_app_plan mr;
                cs_status ms = cs_app_plan_merge(p, cat, (const char *const *)files, (size_t)size, &md, &mr);
                cs_cli_print_diags_for(&md, cs_path_display(a->pos[0]));
                cs_diags_fini(&md);
                rc2 = ms == CS_OK && cs__report(fmt, all, dir, &mr) ? CS_EXIT_OK : CS_EXIT_FAIL;
                cs_app_plan_fini(&mr);
                for (int k = 0; k < size; k++)
                    free(files[k]);
                free(files);
            }
            MPI_Bcast(&rc2, 1, MPI_INT, 0, MPI_COMM_WORLD);
        }
#endif
        cs_plan_destroy(p);
        cs_catalog_destroy(cat);
        return rc2;
    }
    bool ok = cs__report(fmt, all, dir, &r);
    cs_app_plan_fini(&r);
    cs_plan_destroy(p);
    cs_catalog_destroy(cat);
    return ok ? CS_EXIT_OK : CS_EXIT_FAIL;
}

static int cs__plan(const struct cs_cli_cmd *cmd, const struct cs_cli_args *a)
{
#ifdef CLUSTERSIM_MPI
    /* Only the main thread calls MPI; the candidate threads never do. */
    int provided = 0, rank = 0, size = 1;
    if (MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
        fprintf(stderr, "clustersim plan: MPI_Init_thread failed\n");
        return CS_EXIT_FAIL;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int rc = cs__plan_ranked(cmd, a, rank, size);
    MPI_Finalize();
    return rc;
#else
    return cs__plan_ranked(cmd, a, 0, 1);
#endif
}

const struct cs_cli_cmd cs_cmd_plan = {
    "plan",
    "plan [options] FILE",
    "the cheapest cluster that trains the plan's workload by its deadline, and the cost-time front",
    "For every candidate cluster of the plan file (each GPU type x node count x\n"
    "fabric): drops it unsimulated when even the GPU's peak FLOPs miss the deadline;\n"
    "otherwise finds the fastest parallel configuration that fits (as `search`),\n"
    "the time to train with failures and checkpoints (the run model: mean, p05,\n"
    "p95) and the cost of each ownership option (the TCO model). Prints the\n"
    "cheapest plan that meets the deadline at p95, the fastest within the budget,\n"
    "the Pareto front of cost against time, and, when nothing meets both, which\n"
    "constraint binds and by how much. budget_basis: commitment (default: the\n"
    "rental, reservation terms or owned TCO signed for) or run (the run's share).\n"
    "A plan too large for one machine runs as N shards (--shard K/N -o DIR each,\n"
    "e.g. a Slurm job array) joined by --merge FILE DIR... into the same report;\n"
    "built with -DCLUSTERSIM_MPI=ON, `mpirun -np R clustersim plan -o DIR FILE`\n"
    "runs the R shards as ranks and rank 0 writes the report into DIR.\n"
    "Keys and method: docs/plan.md. Exit status: 0 when the plan was evaluated\n"
    "(also when nothing qualifies: the report says why), 1 for a failed write,\n"
    "2 for bad input.",
    cs__plan_opts,
    (int)(sizeof cs__plan_opts / sizeof cs__plan_opts[0]),
    cs__plan,
};
