/* cmd_search.c: `clustersim search FILE`: every valid parallel
 * configuration of the scenario's model on its cluster, simulated and
 * ranked by throughput, with memory fit (app/search.c); this file parses
 * the flags and prints the ranking. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include "clustersim/app/results_json.h"
#include "clustersim/app/search.h"
#include "clustersim/app/validate.h"
#include "clustersim/base/numparse.h"
#include "clustersim/base/units.h"
#include "clustersim/config/fileio.h"
#include "clustersim/report/run_report.h"
#include "clustersim/report/table.h"

#include <cjson/cJSON.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Whether the embedding and the loss count as a layer each of the pipeline
 * split (account_for_*_in_pipeline_split) rather than Megatron-Core's
 * default split: "*" after vp in the text, pipeline_split in the CSV. */
static bool cs__split(const struct cs_parallel *q)
{
    return q->account_for_embedding || q->account_for_loss;
}

static const struct cs_cli_opt cs__search_opts[] = {
    {"top", 'n', "N", "show the N fastest configurations (default 20; 0 = all)"},
    {"format", 'f', "FMT", "output format: text (default), json or csv"},
    {"output", 'o', "DIR", "write search.txt / search.json / search.csv into DIR"},
    {"unfit", 0, NULL, "also list configurations that do not fit in memory"},
    {"fix", 0, "KEYS", "keep these of the scenario fixed: comma list of tp,pp,cp,vp,mb,fsdp,recompute,ep (ep: ep and etp)"},
    {"jobs", 'j', "N", "simulate on N threads (default 1; results do not depend on N)"},
    CS_CLI_OPT_CATALOG,
    CS_CLI_OPT_SET,
};

static void cs__progress(size_t done, size_t total, void *ctx)
{
    (void)ctx;
    if (total)
        fprintf(stderr, "\rsearch: %zu configurations considered\n", done);
    else
        fprintf(stderr, "\rsearch: %zu configurations considered...", done);
}


static bool cs__fix(const char *list, struct cs_search_space *sp)
{
    char bad[64];
    if (cs_app_search_fix(list, sp, bad, sizeof bad))
        return true;
    fprintf(stderr, "clustersim search: --fix: unknown key \"%s\" (expected tp, pp, cp, "
                    "vp, mb, fsdp, recompute or ep)\n", bad);
    return false;
}

static int cs__search(const struct cs_cli_cmd *cmd, const struct cs_cli_args *a)
{
    enum cs_cli_format fmt;
    if (!cs_cli_format(cs_cli_get(cmd, a, "format"), &fmt))
        return CS_EXIT_BADINPUT;
    if (a->npos != 1) {
        fprintf(stderr, "clustersim search: expected one scenario FILE\n");
        return CS_EXIT_BADINPUT;
    }
    long top = 20;
    const char *ts = cs_cli_get(cmd, a, "top");
    if (ts) {
        if (!cs_num_parse_long(ts, 10, 0, LONG_MAX, &top)) {
            fprintf(stderr, "clustersim search: --top: expected a whole number >= 0, got \"%s\"\n",
                    ts);
            return CS_EXIT_BADINPUT;
        }
    }
    struct cs_app_search_opts sopt;
    cs_app_search_opts_default(&sopt);
    sopt.top = (size_t)top;
    struct cs_search_space *sp = &sopt.space;
    sp->include_unfit = cs_cli_get(cmd, a, "unfit") != NULL;
    const char *js = cs_cli_get(cmd, a, "jobs");
    if (js) {
        long j = 0;
        if (!cs_num_parse_long(js, 10, 1, CS_SEARCH_MAX_THREADS, &j)) {
            fprintf(stderr, "clustersim search: --jobs: expected a whole number from 1 to %d, got \"%s\"\n",
                    CS_SEARCH_MAX_THREADS, js);
            return CS_EXIT_BADINPUT;
        }
        sp->threads = (int)j;
    }
    if (cs_cli_get(cmd, a, "fix") && !cs__fix(cs_cli_get(cmd, a, "fix"), sp))
        return CS_EXIT_BADINPUT;
    struct cs_cli_scenario sc;
    int rc = cs_cli_load_scenario(a->pos[0], cs_cli_get(cmd, a, "catalog"), a, &sc);
    if (rc != CS_EXIT_OK)
        return rc;
    const struct cs_scenario *s = &sc.scenario;
    if (isatty(2))
        sopt.progress = cs__progress;
    struct cs_app_search sr;
    cs_diags d;
    cs_diags_init(&d);
    cs_status st = cs_app_search(s, &sopt, &d, &sr);
    cs_cli_print_diags_for(&d, cs_path_display(a->pos[0]));
    cs_diags_fini(&d);
    if (st != CS_OK && st != CS_ENOFIT) {
        cs_app_search_fini(&sr);
        cs_cli_scenario_fini(&sc);
        return CS_EXIT_BADINPUT;
    }
    const struct cs_search_result *res = &sr.res;
    /* The range the step model was validated over on this GPU (and stack),
     * and its error there: the uncertainty of every figure below. */
    struct cs_app_vrange vr;
    struct cs_app_vmodel vm;
    struct cs_app_validate val;
    /* one comparison for the range and the architecture, for the text
     * report (the JSON one makes its own, the CSV none) */
    bool have_vr = fmt == CS_FMT_TEXT && cs_app_validate_all(sc.catalog, &val) == CS_OK;
    if (have_vr) {
        cs_app_vrange_of(&val, s->cluster.gpu.name, s->workload.stack, cs_model_is_moe(&s->workload.model),
                         &vr);
        cs_app_vmodel_of(&val, &s->workload, &vm);
        cs_app_validate_fini(&val);
    }
    int vk = have_vr && vr.rows[1] > 0 ? 1 : 0; /* held-out error where there is one */
    double verr = have_vr && vr.rows[vk] > 0 ? vr.mape[vk] : NAN;

    const char *name = fmt == CS_FMT_JSON ? "search.json" : fmt == CS_FMT_CSV ? "search.csv"
                                                                               : "search.txt";
    struct cs_cli_out out;
    if (!cs_cli_out_open(&out, cs_cli_get(cmd, a, "output"), name)) {
        cs_app_search_fini(&sr);
        cs_cli_scenario_fini(&sc);
        return CS_EXIT_FAIL;
    }
    size_t show = sr.shown;
    if (fmt == CS_FMT_JSON) {
        cJSON *root = cs_app_search_json(s, sc.catalog, &sr);
        cs_out_json_write(out.fp, root);
        cJSON_Delete(root);
    } else if (fmt == CS_FMT_CSV) {
        bool moe = cs_model_is_moe(&s->workload.model);   /* ep, etp columns */
        fprintf(out.fp, "rank,tp,pp,dp,cp,vp,%smicro_batch,fsdp,recompute,fits,bytes_per_gpu,"
                        "step_time_s,tokens_per_s,tflops_per_gpu,mfu,pipeline_split\n",
                moe ? "ep,etp," : "");
        for (size_t i = 0; i < show; i++) {
            const struct cs_search_point *p = &res->points[i];
            const struct cs_parallel *q = &p->w.par;
            fprintf(out.fp, "%zu,%d,%d,%d,%d,%d,", i + 1, q->tp, q->pp, q->dp, q->cp, q->vp);
            if (moe)
                fprintf(out.fp, "%d,%d,", q->ep, q->etp);
            char rcb[32];
            fprintf(out.fp, "%d,%s,%s,%s,%.6g,", p->w.micro_batch, cs_fsdp_name(q->fsdp),
                    cs_cli_recompute_label(&p->w, rcb, sizeof rcb), p->r.fits ? "true" : "false",
                    p->r.memory.total_bytes);
            if (p->r.fits)
                fprintf(out.fp, "%.6g,%.6g,%.6g,%.6g,", p->r.time_s, p->r.tokens_per_s,
                        p->r.tflops_per_gpu, p->r.mfu);
            else
                fprintf(out.fp, ",,,,");
            fprintf(out.fp, "%s\n", cs__split(q) ? "embedding+loss" : "default");
        }
    } else {
        fprintf(out.fp,
                "%s on %ld x %s: %zu configurations considered, %zu invalid, %zu do not fit, "
                "%zu simulated\n\n",
                s->workload.model.name, cs_job_gpus(&s->cluster, &s->workload), s->cluster.gpu.name, res->considered,
                res->invalid, res->unfit, res->n);
        if (!have_vr) {
            fprintf(out.fp, "Validated range: unknown (no validation index in the data directory)\n\n");
        } else if (vr.rows[0] + vr.rows[1] == 0) {
            fprintf(out.fp,
                    "Validated range: no published step time on %s%s%s was compared with the\n"
                    "model (clustersim validate-refs): its figures are unvalidated extrapolation.\n\n",
                    vr.gpu, vr.stack ? " with stack " : "", vr.stack ? cs_stack_names[vr.stack] : "");
        } else {
            /* the mean |error| and, beside it, its signed mean: a GPU the
             * model predicts too fast (or too slow) on the whole says so */
            char hm[48] = "-", fm[48] = "-";
            if (vr.rows[1])
                snprintf(hm, sizeof hm, "%.1f%% (mean %+.1f%%)", 100 * vr.mape[1], 100 * vr.bias[1]);
            if (vr.rows[0])
                snprintf(fm, sizeof fm, "%.1f%% (mean %+.1f%%)", 100 * vr.mape[0], 100 * vr.bias[0]);
            fprintf(out.fp,
                    "Validated range on %s%s%s%s (clustersim validate-refs): %d held-out rows, mean "
                    "error %s; %d fit rows, %s;\n  %.3gB-%.3gB parameters, sequences %ld-%ld, "
                    "%ld-%ld GPUs, tp <= %d, pp <= %d, cp <= %d. +- below: tokens/s x the %s mean "
                    "error.\n\n",
                    vr.gpu, vr.stack ? ", stack " : "", vr.stack ? cs_stack_names[vr.stack] : "",
                    vr.moe ? ", mixture-of-experts runs" : "",
                    vr.rows[1], hm, vr.rows[0], fm, vr.params_min / 1e9, vr.params_max / 1e9,
                    vr.seq_min, vr.seq_max, vr.gpus_min, vr.gpus_max, vr.tp_max, vr.pp_max,
                    vr.cp_max, vk ? "held-out" : "fit");
        }
        /* the model's own architecture, where published runs of it were
         * compared: which way the model errs on this family */
        if (have_vr && vm.rows[0] + vm.rows[1] > 0) {
            int k = vm.rows[1] > 0 ? 1 : 0;
            fprintf(out.fp,
                    "This architecture (%s) in the validation: %d %s rows from %d table%s on %s: mean "
                    "error %.1f%%, mean %+.1f%%\n  (%s; errors from %+.1f%% to %+.1f%%; nothing below is "
                    "corrected for it).\n\n",
                    s->workload.model.name, vm.rows[k], k ? "held-out" : "fit", vm.tables[k],
                    vm.tables[k] == 1 ? "" : "s", vm.gpus, 100 * vm.mape[k], 100 * vm.bias[k],
                    vm.bias[k] > 0 ? "the model predicts these runs faster than they ran"
                                   : "the model predicts these runs slower than they ran",
                    100 * vm.err_min[k], 100 * vm.err_max[k]);
        }
        const char *hdr[] = {">#", ">tp", ">pp", ">dp", ">cp", ">vp", ">mb", "fsdp", "recompute",
                             ">mem/GPU", ">step", ">tokens/s", ">+-", ">MFU", "range"};
        const char *hdr_moe[] = {">#", ">tp", ">pp", ">dp", ">cp", ">vp", ">ep", ">etp", ">mb",
                                 "fsdp", "recompute", ">mem/GPU", ">step", ">tokens/s", ">+-",
                                 ">MFU", "range"};
        bool moe = cs_model_is_moe(&s->workload.model);
        bool any_split = false;
        cs_table *t = moe ? cs_table_create(17, hdr_moe) : cs_table_create(15, hdr);
        for (size_t i = 0; i < show; i++) {
            const struct cs_search_point *p = &res->points[i];
            const struct cs_parallel *q = &p->w.par;
            char mem[32], step[32];
            cs_units_format(p->r.memory.total_bytes, CS_UNIT_BYTES, mem, sizeof mem);
            if (p->r.fits)
                cs_units_format(p->r.time_s, CS_UNIT_TIME, step, sizeof step);
            else
                snprintf(step, sizeof step, "no fit");
            char unc[32], why[160] = "", range[176] = "inside", rcb[32], vpb[16];
            snprintf(vpb, sizeof vpb, "%d%s", q->vp, cs__split(q) ? "*" : "");
            any_split = any_split || cs__split(q);
            if (p->r.fits && isfinite(verr))
                snprintf(unc, sizeof unc, "%.0f", verr * p->r.tokens_per_s);
            else
                snprintf(unc, sizeof unc, "?");
            if (have_vr && !cs_app_vrange_inside(&vr, &p->w, cs_job_gpus(&s->cluster, &p->w), why,
                                                 sizeof why))
                snprintf(range, sizeof range, "outside: %s", why);
            if (moe)
                cs_table_add_rowf(
                    t, "%zu\t%d\t%d\t%d\t%d\t%s\t%d\t%d\t%d\t%s\t%s\t%s\t%s\t%.0f\t%s\t%.1f%%\t%s", i + 1,
                    q->tp, q->pp, q->dp, q->cp, vpb, q->ep, q->etp, p->w.micro_batch,
                    cs_fsdp_name(q->fsdp), cs_cli_recompute_label(&p->w, rcb, sizeof rcb), mem, step,
                    p->r.fits ? p->r.tokens_per_s : 0.0, unc, p->r.fits ? 100 * p->r.mfu : 0.0, range);
            else
                cs_table_add_rowf(t, "%zu\t%d\t%d\t%d\t%d\t%s\t%d\t%s\t%s\t%s\t%s\t%.0f\t%s\t%.1f%%\t%s",
                                  i + 1, q->tp, q->pp, q->dp, q->cp, vpb, p->w.micro_batch,
                                  cs_fsdp_name(q->fsdp), cs_cli_recompute_label(&p->w, rcb, sizeof rcb), mem, step,
                                  p->r.fits ? p->r.tokens_per_s : 0.0, unc,
                                  p->r.fits ? 100 * p->r.mfu : 0.0, range);
        }
        cs_table_write(t, out.fp, 0);
        cs_table_destroy(t);
        if (any_split)
            fprintf(out.fp, "\n* the embedding and the output layer with the loss count as a layer each "
                            "of the pipeline split\n  (Megatron-Core's account_for_embedding/"
                            "loss_in_pipeline_split; the Llama 3 405B layout)\n");
        if (res->n == 0)
            fprintf(out.fp, "\nNo configuration fits: the model needs more GPUs or memory.\n");
    }
    bool ok = cs_cli_out_close(&out, !ferror(out.fp));
    if (ok && st == CS_ENOFIT)
        fprintf(stderr, "clustersim search: no configuration of %s fits on %ld x %s (%zu considered, "
                        "%zu invalid, %zu do not fit)\n",
                s->workload.model.name, cs_job_gpus(&s->cluster, &s->workload), s->cluster.gpu.name, res->considered,
                res->invalid, res->unfit);
    cs_app_search_fini(&sr);
    cs_cli_scenario_fini(&sc);
    /* Nothing fits is a failed search (exit 1), like `run` on an unfit scenario. */
    return ok && st == CS_OK ? CS_EXIT_OK : CS_EXIT_FAIL;
}

const struct cs_cli_cmd cs_cmd_search = {
    "search",
    "search [options] FILE",
    "rank every valid parallel configuration of the scenario by throughput",
    "Keeps the scenario's cluster, model, global batch and precision; varies\n"
    "tp, pp, cp, dp, vp, micro-batch, ZeRO/FSDP sharding, recomputation (the\n"
    "cheapest that fits; full recomputation of the fewest layers per stage that\n"
    "fit, full:N; activation offload where the GPU has a fast host link, off:N)\n"
    "and, for mixture-of-experts models, ep and etp; checks validity and memory\n"
    "fit, and simulates one step of each configuration that fits.\n"
    "Exit status: 0 when at least one configuration fits, 1 when none does (the\n"
    "report is still written, and says so), 2 for bad input.\n"
    "FILE may be - (standard input); --set KEY=VALUE overrides the scenario\n"
    "(repeatable); -o - writes to standard output.",
    cs__search_opts,
    (int)(sizeof cs__search_opts / sizeof cs__search_opts[0]),
    cs__search,
};
