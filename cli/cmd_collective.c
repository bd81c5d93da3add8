/* cmd_collective.c: `clustersim collective FILE`: an nccl-tests run, simulated.
 * Takes nccl-tests' flags (-b -e -f -i -g -d -r, -o for the operation) and
 * prints its table (size, count, type, redop, root, then time, algbw, busbw,
 * #wrong for out-of-place and in-place), from the closed-form model or, with
 * --flow, the flow-level model on the built fabric. Sizes, counts and
 * bandwidths follow nccl-tests (src/common.cu setupArgs/TimeTest, the
 * per-op getCollByteCount and getBw): GB = 1e9 bytes. */
#include "cli.h"

#include "clustersim/base/numparse.h"
#include "clustersim/app/collective_exp.h"
#include "clustersim/app/results_json.h"
#include "clustersim/config/fileio.h"
#include "clustersim/models/topology.h"
#include "clustersim/report/run_report.h"
#include "clustersim/base/xmalloc.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct cs_cli_opt cs__coll_opts[] = {
    {"minbytes", 'b', "SIZE", "smallest size (nccl-tests: 8, 64K, 1M, 8G; K/M/G = 2^10/2^20/2^30); default 32M"},
    {"maxbytes", 'e', "SIZE", "largest size; default 32M"},
    {"stepfactor", 'f', "N", "multiply the size by N each row (default 1: add --stepbytes)"},
    {"stepbytes", 'i', "SIZE", "add SIZE each row when the factor is 1 (default 1M)"},
    {"ngpus", 'g', "N", "nccl-tests: GPUs per thread (per process); does not set the rank count (default 1)"},
    {"nthreads", 't', "N", "nccl-tests: threads per process; does not set the rank count (default 1)"},
    {"ranks", 0, "N", "ranks in the communicator (default: every GPU of the cluster; nccl-tests: nprocs x t x g)"},
    {"op", 'o', "OP", "collective (all_reduce, all_gather, reduce_scatter, alltoall, broadcast, sendrecv; "
                      "default all_reduce) or an nccl-tests reduction op (sum, prod, max, min, avg)"},
    {"redop", 0, "OP", "reduction op shown in the redop column (default sum)"},
    {"datatype", 'd', "TYPE", "element type: int8 uint8 int32 uint32 int64 uint64 half float double bfloat16"},
    {"root", 'r', "N", "root rank of broadcast (default 0)"},
    {"algo", 0, "ALGO", "auto (default), ring, tree, hier, nvls, sharp, nvls_tree, collnet_chain, pat"},
    {"placement", 0, "P", "packed or scattered (default: the scenario's cluster.fabric.placement)"},
    {"flow", 0, NULL, "use the flow-level model on the built fabric instead of the closed form"},
    {"format", 0, "FMT", "text (nccl-tests table, default), json or csv"},
    {"output", 'O', "DIR", "write collective.txt / .json / .csv into DIR instead of stdout"},
    CS_CLI_OPT_CATALOG,
    CS_CLI_OPT_SET,
    {"iters", 'n', "N", "accepted for nccl-tests compatibility; no effect on a model"},
    {"warmup_iters", 'w', "N", "accepted for compatibility; no effect"},
    {"check", 'c', "N", "accepted for compatibility; no effect (#wrong is always 0)"},
    {"agg_iters", 'm', "N", "accepted for compatibility; no effect"},
    {"blocking", 'z', "N", "accepted for compatibility; no effect"},
    {"average", 'a', "N", "accepted for compatibility; no effect"},
    {"cudagraph", 'G', "N", "accepted for compatibility; no effect"},
};

/* cs_app_coll_parse's view of the parsed arguments. */
struct cs__flags {
    const struct cs_cli_cmd *cmd;
    const struct cs_cli_args *a;
};

static const char *cs__flag(void *ctx, const char *name)
{
    const struct cs__flags *f = ctx;
    return cs_cli_get(f->cmd, f->a, name);
}

/* nccl-tests getFloatStr: a value in `width` columns, with fewer decimals as it grows. */
static void cs__fmt(char *buf, size_t len, double v, int width)
{
    int power = 0;
    for (double x = 1; v >= x && power < 40; x *= 10)
        power++;
    if (power < width - 2)
        snprintf(buf, len, "%*.2f", width, v);
    else if (power < width - 1)
        snprintf(buf, len, "%*.1f", width, v);
    else if (power < width + 1)
        snprintf(buf, len, "%*.0f", width, v);
    else
        snprintf(buf, len, "%*.1e", width, v);
}

static int cs__collective(const struct cs_cli_cmd *cmd, const struct cs_cli_args *a)
{
    enum cs_cli_format fmt;
    if (!cs_cli_format(cs_cli_get(cmd, a, "format"), &fmt))
        return CS_EXIT_BADINPUT;
    if (a->npos != 1) {
        fprintf(stderr, "clustersim collective: expected one scenario FILE (see 'clustersim help collective')\n");
        return CS_EXIT_BADINPUT;
    }
    /* Flags first: a bad flag is reported before the scenario is loaded
     * (app/collective_opts.c). */
    struct cs_app_coll_req q;
    struct cs_app_coll_labels lab;
    char err[512];
    if (cs_app_coll_parse(cs__flag, (void *)&(struct cs__flags){cmd, a}, true, &q, &lab, err, sizeof err) !=
        CS_OK) {
        fprintf(stderr, "clustersim collective: %s\n", err);
        return CS_EXIT_BADINPUT;
    }
    enum cs_coll_op op = q.op;
    const char *redop = lab.redop;
    double minb = q.minb, maxb = q.maxb, stepb = q.stepb;
    long factor = q.factor, ngpus = q.ngpus, nthreads = q.nthreads, root = q.root;
    bool use_flow = q.flow;

    const char *path = cs_path_display(a->pos[0]);
    struct cs_cli_scenario sc;
    int rc = cs_cli_load_scenario(a->pos[0], cs_cli_get(cmd, a, "catalog"), a, &sc);
    if (rc != CS_EXIT_OK)
        return rc;
    /* The rank count, then every size (app/collective_exp.c). */
    struct cs_app_coll res;
    cs_status st = cs_app_coll_setup(&sc.scenario, &q, &res);
    if (st == CS_OK) {
        if (fmt == CS_FMT_CSV) /* text and JSON carry it in the output itself */
            fprintf(stderr, "clustersim collective: %ld ranks from %s\n", res.n, res.ranks_why);
        st = cs_app_coll_run(&sc.scenario, &q, &res);
    }
    if (st != CS_OK) {
        /* An error about the scenario names its file; one about the flags
         * is the command's. */
        for (size_t i = 0; i < res.diags.n; i++) {
            char *s = cs_cli_diag_plain(&res.diags.items[i]);
            fprintf(stderr, "%s%s\n", res.diags.items[i].file ? "" : "clustersim collective: ", s);
            free(s);
        }
        cs_app_coll_fini(&res);
        cs_cli_scenario_fini(&sc);
        return st == CS_EINVAL ? CS_EXIT_BADINPUT : CS_EXIT_FAIL;
    }
    const struct cs_cluster_cfg *cp = &res.cluster;
    long n = res.n, nprocs = res.nprocs, k = res.nrows;
    int m = res.nodes, ppn = res.ppn, gpn = cp->gpus_per_node;
    const char *ranks_why = res.ranks_why;
    const struct cs_app_coll_row *rows = res.rows;

    const char *name = fmt == CS_FMT_JSON ? "collective.json" : fmt == CS_FMT_CSV ? "collective.csv" : "collective.txt";
    struct cs_cli_out out;
    if (!cs_cli_out_open(&out, cs_cli_get(cmd, a, "output"), name)) {
        cs_app_coll_fini(&res);
        cs_cli_scenario_fini(&sc);
        return CS_EXIT_FAIL;
    }
    const char *redop_col = op == CS_COLL_ALL_REDUCE || op == CS_COLL_REDUCE_SCATTER ? redop : "none";
    long root_col = op == CS_COLL_BROADCAST ? root : -1;
    const char *model = use_flow ? "flow" : "closed-form";
    const char *placement = cp->fabric.placement == CS_PLACEMENT_SCATTERED ? "scattered" : "packed";
    double bus_sum = 0;
    for (long i = 0; i < k; i++)
        bus_sum += rows[i].busbw;
    bool ok = true;
    if (fmt == CS_FMT_JSON) {
        cJSON *root_js = cs_app_coll_json(&sc.scenario, path, &q, &lab, &res);
        ok = cs_out_json_write(out.fp, root_js);
        cJSON_Delete(root_js);
    } else if (fmt == CS_FMT_CSV) {
        fprintf(out.fp, "size_bytes,count,type,redop,root,time_us,algbw_gb_per_s,busbw_gb_per_s,algo,proto\n");
        for (long i = 0; i < k; i++) {
            const struct cs_app_coll_row *r = &rows[i];
            fprintf(out.fp, "%.0f,%.0f,%s,%s,%ld,%.6g,%.6g,%.6g,%s,%s\n", r->size, r->count, lab.datatype, redop_col,
                    root_col, r->time_s * 1e6, r->algbw / 1e9, r->busbw / 1e9, cs_coll_algo_name(r->algo),
                    r->has_proto ? cs_coll_proto_name(r->proto) : "");
        }
    } else {
        FILE *o = out.fp;
        fprintf(o, "# clustersim %s collective: %s_perf simulated (%s model) on \"%s\" (%s)\n", CLUSTERSIM_VERSION,
                cs_coll_op_name(op), model, sc.scenario.name, path);
        fprintf(o, "# cluster: %d nodes x %d %s, %s intra-node, %s %s x %d per node, %s placement\n", cp->nodes, gpn,
                cp->gpu.name, cp->intra.name, cs_topology_name(cp->fabric.topology), cp->fabric.link.name,
                cp->fabric.nics_per_node, placement);
        fprintf(o, "# clustersim: %ld ranks from %s; %ld processes x %ld threads x %ld GPUs (nccl-tests -t/-g are "
                   "per process)\n", n, ranks_why, nprocs, nthreads, ngpus);
        fprintf(o, "# nThread %ld nGpus %ld minBytes %.0f maxBytes %.0f step: ", nthreads, ngpus, minb, maxb);
        if (factor > 1)
            fprintf(o, "%ld(factor)", factor);
        else
            fprintf(o, "%.0f(bytes)", stepb);
        fprintf(o, " warmup iters: 0 iters: 1 agg iters: 1 validation: 0 graph: 0\n#\n");
        fprintf(o, "# Using devices (simulated: %ld ranks on %d nodes, %d per node)\n", n, m, ppn);
        for (long i = 0; i < n && i < 16; i++)
            fprintf(o, "#  Rank %2ld Group  0 Pid      0 on     node%d device %2ld [simulated] %s\n", i,
                    (int)(i / ppn), i % ppn, cp->gpu.name);
        if (n > 16)
            fprintf(o, "#  ... %ld more ranks\n", n - 16);
        fprintf(o, "#\n");
        fprintf(o, "#%62s%-35s%s\n", "", "out-of-place", "in-place");
        fprintf(o, "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s\n", "size", "count", "type",
                "redop", "root", "time", "algbw", "busbw", "#wrong", "time", "algbw", "busbw", "#wrong");
        fprintf(o, "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s\n", "(B)", "(elements)", "",
                "", "", "(us)", "(GB/s)", "(GB/s)", "", "(us)", "(GB/s)", "(GB/s)", "");
        for (long i = 0; i < k; i++) {
            const struct cs_app_coll_row *r = &rows[i];
            char ts[32], as[32], bs[32];
            cs__fmt(ts, sizeof ts, r->time_s * 1e6, 7);
            cs__fmt(as, sizeof as, r->algbw / 1e9, 6);
            cs__fmt(bs, sizeof bs, r->busbw / 1e9, 6);
            /* The model has no separate in-place path: both halves agree. */
            fprintf(o, "%12.0f  %12.0f  %8s  %6s  %6ld  %7s  %6s  %6s  %6d  %7s  %6s  %6s  %6d\n", r->size, r->count,
                    lab.datatype, redop_col, root_col, ts, as, bs, 0, ts, as, bs, 0);
        }
        fprintf(o, "# Out of bounds values : 0 OK\n");
        fprintf(o, "# Avg bus bandwidth    : %g\n#\n", k > 0 ? bus_sum / (double)k / 1e9 : 0.0);
        /* Which algorithm the model chose, by size range (a comment, so
         * nccl-tests parsers skip it). */
        fprintf(o, "# clustersim: algorithm by size:");
        for (long i = 0; i < k;) {
            long j = i;
            while (j + 1 < k && rows[j + 1].algo == rows[i].algo && rows[j + 1].proto == rows[i].proto)
                j++;
            fprintf(o, " %s%s%s [%.0f..%.0f B]%s", cs_coll_algo_name(rows[i].algo), rows[i].has_proto ? "/" : "",
                    rows[i].has_proto ? cs_coll_proto_name(rows[i].proto) : "", rows[i].size, rows[j].size,
                    j + 1 < k ? "," : "");
            i = j + 1;
        }
        fprintf(o, "\n");
    }
    if (ferror(out.fp))
        ok = false;
    bool closed = cs_cli_out_close(&out, ok);
    cs_app_coll_fini(&res);
    cs_cli_scenario_fini(&sc);
    return closed ? CS_EXIT_OK : CS_EXIT_FAIL;
}

const struct cs_cli_cmd cs_cmd_collective = {
    "collective",
    "collective [options] FILE",
    "simulate an nccl-tests run (all_reduce_perf & co.) on a scenario's cluster",
    "Prints nccl-tests' table for the collective chosen by -o/--op, from the\n"
    "closed-form NCCL model (default) or the flow-level model (--flow). Flags are\n"
    "nccl-tests', with nccl-tests' meaning: -b/-e/-f/-i sizes (K/M/G are 2^10\n"
    "multiples), -d type, -r root, -n/-w/... iterations (no effect on a model),\n"
    "-g GPUs per thread and -t threads per process. nccl-tests' rank count is\n"
    "nprocs x t x g with nprocs from mpirun; clustersim has no mpirun, so the\n"
    "rank count is every GPU of the cluster, or --ranks N, and -t x -g must\n"
    "divide it (a pasted `-g 1` keeps all ranks). The output says which rank\n"
    "count was used and why (text: a `# clustersim:` line; JSON: ranks,\n"
    "ranks_from \"cluster\" or \"--ranks\", ranks_why, processes; CSV: on\n"
    "standard error). FILE may be - (standard input); --set KEY=VALUE\n"
    "overrides the scenario; -O - writes to standard output. In nccl-tests -o\n"
    "is the reduction op (sum, ...); here -o takes either a reduction op or the\n"
    "collective, which nccl-tests picks by binary name. -O/--output is the output\n"
    "directory (-o is taken). Time is what nccl-tests would report (host launch\n"
    "overlapped with device work); algbw = size / time, busbw = algbw x factor\n"
    "(all_reduce 2(n-1)/n, all_gather/reduce_scatter/alltoall (n-1)/n), GB = 1e9 B.\n"
    "JSON: rows[] of size_bytes, count, time_us, algbw_gb_per_s, busbw_gb_per_s, algo.",
    cs__coll_opts,
    (int)(sizeof cs__coll_opts / sizeof cs__coll_opts[0]),
    cs__collective,
};
