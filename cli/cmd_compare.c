/* cmd_compare.c: `clustersim compare A.yaml B.yaml ...`: scenarios side by
 * side: one training step (step time, MFU, tokens/s), the bus bandwidth of
 * the job's data- and tensor-parallel collectives at their message sizes,
 * and the network hardware counted from the built fabric. */
#include "cli.h"

#include "clustersim/base/csv.h"

#include "clustersim/app/compare.h"
#include "clustersim/report/run_report.h"
#include "clustersim/report/table.h"
#include "clustersim/base/xmalloc.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct cs_cli_opt cs__cmp_opts[] = {
    {"format", 'f', "FMT", "output format: text (default), json or csv"},
    {"output", 'o', "DIR", "write compare.txt / compare.json / compare.csv into DIR instead of stdout"},
    CS_CLI_OPT_CATALOG,
    CS_CLI_OPT_SET,
};

static void cs__num(cJSON *o, const char *k, double v)
{
    if (isfinite(v))
        cJSON_AddNumberToObject(o, k, v);
    else
        cJSON_AddNullToObject(o, k);
}

static void cs__cell(char *buf, size_t len, const char *fmt, double v)
{
    if (isfinite(v))
        snprintf(buf, len, fmt, v);
    else
        snprintf(buf, len, "-");
}

static int cs__compare(const struct cs_cli_cmd *cmd, const struct cs_cli_args *a)
{
    enum cs_cli_format fmt;
    if (!cs_cli_format(cs_cli_get(cmd, a, "format"), &fmt))
        return CS_EXIT_BADINPUT;
    if (a->npos < 1) {
        fprintf(stderr, "clustersim compare: expected one or more scenario FILEs (see 'clustersim help compare')\n");
        return CS_EXIT_BADINPUT;
    }
    int n = a->npos;
    struct cs_app_compare *rs = cs_xcalloc((size_t)n, sizeof *rs);
    for (int i = 0; i < n; i++) {
        struct cs_cli_scenario sc;
        int rc = cs_cli_load_scenario(a->pos[i], cs_cli_get(cmd, a, "catalog"), a, &sc);
        if (rc != CS_EXIT_OK) {
            free(rs);
            return rc;
        }
        cs_diags d;
        cs_diags_init(&d);
        cs_status st = cs_app_compare_eval(&sc.scenario, a->pos[i], &d, &rs[i]);
        cs_cli_print_diags_for(&d, a->pos[i]);
        cs_diags_fini(&d);
        cs_cli_scenario_fini(&sc);
        if (st != CS_OK) {
            fprintf(stderr, "%s: the step model cannot run this scenario: %s\n", a->pos[i],
                    cs_strerror(st));
            free(rs);
            return CS_EXIT_BADINPUT;
        }
    }
    const char *name = fmt == CS_FMT_JSON ? "compare.json" : fmt == CS_FMT_CSV ? "compare.csv" : "compare.txt";
    struct cs_cli_out out;
    if (!cs_cli_out_open(&out, cs_cli_get(cmd, a, "output"), name)) {
        free(rs);
        return CS_EXIT_FAIL;
    }
    bool ok = true;
    if (fmt == CS_FMT_JSON) {
        cJSON *root = cJSON_CreateObject();
        cJSON_AddStringToObject(root, "clustersim_version", CLUSTERSIM_VERSION);
        cJSON *arr = cJSON_AddArrayToObject(root, "scenarios");
        for (int i = 0; i < n; i++) {
            const struct cs_app_compare *r = &rs[i];
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "file", r->file);
            cJSON_AddStringToObject(o, "scenario", r->name);
            cJSON_AddNumberToObject(o, "gpus", (double)r->gpus);
            cJSON_AddStringToObject(o, "topology", r->topology);
            cJSON_AddStringToObject(o, "link", r->link);
            cJSON_AddStringToObject(o, "placement", r->placement);
            cJSON_AddNumberToObject(o, "oversubscription", r->oversub);
            if (r->has_step) {
                cJSON *st = cJSON_AddObjectToObject(o, "step");
                cJSON_AddBoolToObject(st, "fits", r->fits);
                cs__num(st, "time_s", r->step_s);
                cs__num(st, "exposed_comm_s", r->exposed_comm_s);
                if (r->moe) {
                    cs__num(st, "ep_comm_s", r->ep_comm_s);
                    cs__num(st, "moe_imbalance_s", r->moe_imbalance_s);
                }
                cs__num(st, "dp_comm_total_s", r->dp_comm_total_s);
                if (isfinite(r->network_slowdown))
                    cs__num(st, "network_slowdown", r->network_slowdown);
                cJSON *th = cJSON_AddObjectToObject(o, "throughput");
                cs__num(th, "tokens_per_s", r->tokens_per_s);
                cs__num(th, "mfu", r->mfu);
                cJSON *co = cJSON_AddObjectToObject(o, "collectives");
                cJSON *dp = cJSON_AddObjectToObject(co, "dp");
                cJSON_AddNumberToObject(dp, "ranks", r->dp_ranks);
                cs__num(dp, "size_bytes", r->dp_msg_bytes);
                cs__num(dp, "time_us", r->dp_time_s * 1e6);
                cs__num(dp, "busbw_gb_per_s", r->dp_busbw / 1e9);
                cJSON_AddStringToObject(dp, "algo", r->dp_algo);
                if (isfinite(r->dp_net_share))
                    cs__num(dp, "network_share", r->dp_net_share);
                cJSON *tp = cJSON_AddObjectToObject(co, "tp");
                cJSON_AddNumberToObject(tp, "ranks", r->tp_ranks);
                cs__num(tp, "size_bytes", r->tp_msg_bytes);
                cs__num(tp, "time_us", r->tp_time_s * 1e6);
                cs__num(tp, "busbw_gb_per_s", r->tp_busbw / 1e9);
                cJSON_AddStringToObject(tp, "algo", r->tp_algo);
            }
            if (r->has_counts) {
                cJSON *hw = cJSON_AddObjectToObject(o, "network");
                cJSON *sw = cJSON_AddArrayToObject(hw, "switches_by_tier");
                for (int t = 0; t < 3; t++)
                    cJSON_AddItemToArray(sw, cJSON_CreateNumber((double)r->counts.switches_by_tier[t]));
                cJSON_AddNumberToObject(hw, "switch_ports", (double)r->counts.switch_ports);
                cJSON_AddNumberToObject(hw, "cables", (double)r->counts.cables);
                cJSON_AddNumberToObject(hw, "optics", (double)r->counts.optics);
                cJSON_AddNumberToObject(hw, "nics", (double)r->counts.nics);
            }
            if (r->claim.enabled) {
                /* ratio claims are judged against the first scenario */
                double base = cs_app_compare_metric(&r->claim, &rs[0]);
                struct cs_claim_verdict v = cs_claim_judge(&r->claim, r->claim_metric, base);
                cs_out_claim_json(o, &r->claim, &v);
            }
            cJSON_AddItemToArray(arr, o);
        }
        ok = cs_out_json_write(out.fp, root);
        cJSON_Delete(root);
    } else if (fmt == CS_FMT_CSV) {
        fprintf(out.fp, "file,scenario,gpus,topology,link,placement,oversubscription,fits,step_time_s,mfu,"
                        "tokens_per_s,exposed_comm_s,dp_ranks,dp_size_bytes,dp_busbw_gb_per_s,dp_algo,tp_ranks,"
                        "tp_size_bytes,tp_busbw_gb_per_s,tp_algo,leaf_switches,spine_switches,core_switches,"
                        "switch_ports,cables,optics,nics,dp_network_share,network_slowdown\n");
        for (int i = 0; i < n; i++) {
            const struct cs_app_compare *r = &rs[i];
            /* Text cells (file, scenario name, fabric names, algorithms)
             * through base/csv.h: RFC 4180, formulas neutralised. */
            FILE *o = out.fp;
            cs_csv_fput_text(o, r->file, false);
            fputc(',', o);
            cs_csv_fput_text(o, r->name, false);
            fprintf(o, ",%ld,", r->gpus);
            cs_csv_fput_text(o, r->topology, false);
            fputc(',', o);
            cs_csv_fput_text(o, r->link, false);
            fputc(',', o);
            cs_csv_fput_text(o, r->placement, false);
            fprintf(o, ",%g,%s,%.9g,%.6g,%.6g,%.9g,%d,%.0f,%.6g,", r->oversub, r->fits ? "true" : "false",
                    r->step_s, r->mfu, r->tokens_per_s, r->exposed_comm_s, r->dp_ranks, r->dp_msg_bytes,
                    r->dp_busbw / 1e9);
            cs_csv_fput_text(o, r->dp_algo, false);
            fprintf(o, ",%d,%.0f,%.6g,", r->tp_ranks, r->tp_msg_bytes, r->tp_busbw / 1e9);
            cs_csv_fput_text(o, r->tp_algo, false);
            fprintf(o, ",%ld,%ld,%ld,%ld,%ld,%ld,%ld,%.6g,%.6g\n", r->counts.switches_by_tier[0],
                    r->counts.switches_by_tier[1], r->counts.switches_by_tier[2], r->counts.switch_ports,
                    r->counts.cables, r->counts.optics, r->counts.nics, r->dp_net_share,
                    r->network_slowdown);
        }
    } else {
        /* One column per scenario. */
        const char **hdr = cs_xcalloc((size_t)n + 1, sizeof *hdr);
        char **names = cs_xcalloc((size_t)n, sizeof *names);
        hdr[0] = "";
        for (int i = 0; i < n; i++) {
            names[i] = cs_xasprintf(">%s", rs[i].name);
            hdr[i + 1] = names[i];
        }
        cs_table *t = cs_table_create(n + 1, hdr);
        char (*cells)[160] = cs_xcalloc((size_t)n, sizeof *cells);
        const char **row = cs_xcalloc((size_t)n + 1, sizeof *row);
#define CS__ROW(label, expr)                                                                                          \
    do {                                                                                                              \
        row[0] = label;                                                                                               \
        for (int i = 0; i < n; i++) {                                                                                 \
            const struct cs_app_compare *r = &rs[i];                                                                         \
            expr;                                                                                                     \
            row[i + 1] = cells[i];                                                                                    \
        }                                                                                                             \
        cs_table_add_row(t, row);                                                                                     \
    } while (0)
        CS__ROW("GPUs", snprintf(cells[i], sizeof cells[i], "%ld", r->gpus));
        CS__ROW("fabric", snprintf(cells[i], sizeof cells[i], "%s %s", r->topology, r->link));
        CS__ROW("oversubscription", snprintf(cells[i], sizeof cells[i], "%g:1", r->oversub));
        CS__ROW("placement", snprintf(cells[i], sizeof cells[i], "%s", r->placement));
        CS__ROW("step time (s)", cs__cell(cells[i], sizeof cells[i], "%.4f", r->step_s));
        CS__ROW("MFU", cs__cell(cells[i], sizeof cells[i], "%.3f", r->mfu));
        CS__ROW("tokens/s", cs__cell(cells[i], sizeof cells[i], "%.0f", r->tokens_per_s));
        CS__ROW("exposed comm (s)", cs__cell(cells[i], sizeof cells[i], "%.4f", r->exposed_comm_s));
        CS__ROW("DP ranks / msg (MB)", snprintf(cells[i], sizeof cells[i], "%d / %.1f", r->dp_ranks, r->dp_msg_bytes / 1e6));
        CS__ROW("DP busbw (GB/s)", cs__cell(cells[i], sizeof cells[i], "%.1f", r->dp_busbw / 1e9));
        CS__ROW("DP algorithm", snprintf(cells[i], sizeof cells[i], "%s", r->dp_algo));
        CS__ROW("DP network share", cs__cell(cells[i], sizeof cells[i], "%.3f", r->dp_net_share));
        CS__ROW("slowdown by neighbours", cs__cell(cells[i], sizeof cells[i], "%.4fx", r->network_slowdown));
        bool any_moe = false;
        for (int i = 0; i < n; i++)
            any_moe = any_moe || rs[i].moe;
        if (any_moe) {
            /* mixture of experts (docs/moe.md): the busiest stage's figures */
            CS__ROW("EP ranks", snprintf(cells[i], sizeof cells[i], r->moe ? "%d" : "-", r->ep));
            CS__ROW("EP dispatch/combine (s)",
                    cs__cell(cells[i], sizeof cells[i], "%.4f", r->moe ? r->ep_comm_s : NAN));
            CS__ROW("EP network share",
                    cs__cell(cells[i], sizeof cells[i], "%.3f", r->moe ? r->ep_net_share : NAN));
            CS__ROW("MoE imbalance (s)",
                    cs__cell(cells[i], sizeof cells[i], "%.4f", r->moe ? r->moe_imbalance_s : NAN));
        }
        CS__ROW("TP ranks / msg (MB)", snprintf(cells[i], sizeof cells[i], "%d / %.1f", r->tp_ranks, r->tp_msg_bytes / 1e6));
        CS__ROW("TP busbw (GB/s)", cs__cell(cells[i], sizeof cells[i], "%.1f", r->tp_busbw / 1e9));
        CS__ROW("leaf / spine / core switches",
                snprintf(cells[i], sizeof cells[i], "%ld / %ld / %ld", r->counts.switches_by_tier[0], r->counts.switches_by_tier[1],
                         r->counts.switches_by_tier[2]));
        CS__ROW("switch ports", snprintf(cells[i], sizeof cells[i], "%ld", r->counts.switch_ports));
        CS__ROW("cables", snprintf(cells[i], sizeof cells[i], "%ld", r->counts.cables));
        CS__ROW("optics", snprintf(cells[i], sizeof cells[i], "%ld", r->counts.optics));
        CS__ROW("NICs", snprintf(cells[i], sizeof cells[i], "%ld", r->counts.nics));
#undef CS__ROW
        fprintf(out.fp, "clustersim %s: compare %d scenarios (one training step each; collectives at the job's "
                        "message sizes: closed form at the flow model's network shares)\n\n",
                CLUSTERSIM_VERSION, n);
        cs_table_write(t, out.fp, 0);
        for (int i = 0; i < n; i++)
            if (rs[i].has_step && !rs[i].fits)
                fprintf(out.fp, "\n%s: does not fit in GPU memory (see 'clustersim run %s')\n", rs[i].name,
                        rs[i].file);
        for (int i = 0; i < n; i++) {
            if (!rs[i].claim.enabled)
                continue;
            double base = cs_app_compare_metric(&rs[i].claim, &rs[0]);
            struct cs_claim_verdict v = cs_claim_judge(&rs[i].claim, rs[i].claim_metric, base);
            fprintf(out.fp, "\n%s:", rs[i].name);
            cs_out_claim_text(out.fp, &rs[i].claim, &v);
        }
        cs_table_destroy(t);
        for (int i = 0; i < n; i++)
            free(names[i]);
        free(names);
        free(hdr);
        free(cells);
        free(row);
    }
    if (ferror(out.fp))
        ok = false;
    bool closed = cs_cli_out_close(&out, ok);
    free(rs);
    return closed ? CS_EXIT_OK : CS_EXIT_FAIL;
}

const struct cs_cli_cmd cs_cmd_compare = {
    "compare",
    "compare [options] A.yaml B.yaml ...",
    "compare scenarios side by side: step, collectives and network hardware",
    "For each scenario: one training step (step time, MFU, tokens/s, exposed\n"
    "communication) from the step model with default options; the bus bandwidth\n"
    "of the job's data-parallel collective (all_reduce, or reduce_scatter with\n"
    "ZeRO/FSDP, at the gradient bucket size) and tensor-parallel all_reduce (at\n"
    "the per-layer activation size), from the fabric-aware closed-form model;\n"
    "and the network hardware counted from the built topology (switches by tier,\n"
    "ports, cables, optics, NICs).",
    cs__cmp_opts,
    (int)(sizeof cs__cmp_opts / sizeof cs__cmp_opts[0]),
    cs__compare,
};
