/* cmd_collective.c: `clustersim collective FILE`: an nccl-tests run, simulated.
 * Takes nccl-tests' flags (-b -e -f -i -g -d -r, -o for the operation) and
 * prints its table (size, count, type, redop, root, then time, algbw, busbw,
 * #wrong for out-of-place and in-place), from the closed-form model or, with
 * --flow, the flow-level model on the built fabric. Sizes, counts and
 * bandwidths follow nccl-tests (src/common.cu setupArgs/TimeTest, the
 * per-op getCollByteCount and getBw): GB = 1e9 bytes. */
#include "cli.h"

#include "clustersim/config/fileio.h"
#include "clustersim/models/calib.h"
#include "clustersim/models/collective.h"
#include "clustersim/models/topology.h"
#include "clustersim/models/flow.h"
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
    {"algo", 0, "ALGO", "auto (default), ring, tree, hier, nvls, sharp"},
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

struct cs__type { const char *name; int bytes; };
static const struct cs__type cs__types[] = {
    {"int8", 1},  {"uint8", 1},  {"int32", 4},  {"uint32", 4},  {"int64", 8},
    {"uint64", 8}, {"half", 2},  {"float", 4},  {"double", 8},  {"bfloat16", 2},
};
static const char *const cs__redops[] = {"sum", "prod", "max", "min", "avg"};

/* nccl-tests' parsesize: a number, optionally followed by K, M or G
 * (binary multiples). Stricter than nccl-tests: the whole argument must be
 * used and the result must be a non-negative whole number of bytes. */
static bool cs__parse_size(const char *s, double *out)
{
    if (!s || !*s)
        return false;
    char *end = NULL;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || errno != 0 || !isfinite(v) || v < 0)
        return false;
    while (*end == ' ')
        end++;
    double unit = 1.0;
    if (*end) {
        switch (*end) {
        case 'K': case 'k': unit = 1024.0; break;
        case 'M': case 'm': unit = 1048576.0; break;
        case 'G': case 'g': unit = 1073741824.0; break;
        default: return false;
        }
        end++;
    }
    if (*end)
        return false;
    v = floor(v * unit);
    if (v > 1e15)
        return false;
    *out = v;
    return true;
}

static bool cs__parse_int(const char *s, long lo, long hi, long *out)
{
    if (!s || !*s)
        return false;
    char *end = NULL;
    errno = 0;
    long v = strtol(s, &end, 0);
    if (*end || errno != 0 || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

/* One row of the table. */
struct cs__row {
    double size;        /* printed size = bytes of the bandwidth formula */
    double count;       /* printed element count */
    double time_s;
    double algbw, busbw;  /* bytes/s */
    enum cs_coll_algo algo;
    enum cs_coll_proto proto;
    bool has_proto;
};

/* nccl-tests getCollByteCount: the printed size (max of send and receive
 * bytes) and count (the count passed to NCCL) from a requested size. */
static void cs__sizes(enum cs_coll_op op, double size, int ws, int n, double *printed, double *count)
{
    double c = floor(size / ws);
    switch (op) {
    case CS_COLL_ALL_GATHER:
    case CS_COLL_REDUCE_SCATTER:
    case CS_COLL_ALLTOALL: {
        double per = floor(c / n);
        *count = per;
        *printed = per * n * ws;
        break;
    }
    default:
        *count = c;
        *printed = c * ws;
        break;
    }
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
    /* Flags first: a bad flag is reported before the scenario is loaded. */
    double minb = 33554432.0, maxb = 33554432.0, stepb = 1048576.0;
    long factor = 1, ngpus = 1, nthreads = 1, root = 0, ranks = 0;
    const char *v;
    if ((v = cs_cli_get(cmd, a, "minbytes")) && !cs__parse_size(v, &minb)) {
        fprintf(stderr, "clustersim collective: -b: expected a size like 8, 64K, 8G (K/M/G = 2^10/2^20/2^30 "
                        "bytes, as nccl-tests), got \"%s\"\n", v);
        return CS_EXIT_BADINPUT;
    }
    if ((v = cs_cli_get(cmd, a, "maxbytes")) && !cs__parse_size(v, &maxb)) {
        fprintf(stderr, "clustersim collective: -e: expected a size like 8, 64K, 8G, got \"%s\"\n", v);
        return CS_EXIT_BADINPUT;
    }
    if ((v = cs_cli_get(cmd, a, "stepbytes")) && (!cs__parse_size(v, &stepb) || stepb < 1)) {
        fprintf(stderr, "clustersim collective: -i: expected a positive size like 1M, got \"%s\"\n", v);
        return CS_EXIT_BADINPUT;
    }
    if ((v = cs_cli_get(cmd, a, "stepfactor")) && !cs__parse_int(v, 1, 1 << 20, &factor)) {
        fprintf(stderr, "clustersim collective: -f: expected a whole number >= 1, got \"%s\"\n", v);
        return CS_EXIT_BADINPUT;
    }
    if ((v = cs_cli_get(cmd, a, "ngpus")) && !cs__parse_int(v, 1, 100000000L, &ngpus)) {
        fprintf(stderr, "clustersim collective: -g: expected a number of GPUs >= 1, got \"%s\"\n", v);
        return CS_EXIT_BADINPUT;
    }
    if ((v = cs_cli_get(cmd, a, "ranks")) && !cs__parse_int(v, 1, 100000000L, &ranks)) {
        fprintf(stderr, "clustersim collective: --ranks: expected a number of ranks >= 1, got \"%s\"\n", v);
        return CS_EXIT_BADINPUT;
    }
    if ((v = cs_cli_get(cmd, a, "nthreads")) && !cs__parse_int(v, 1, 4096, &nthreads)) {
        fprintf(stderr, "clustersim collective: -t: expected a number of threads >= 1, got \"%s\"\n", v);
        return CS_EXIT_BADINPUT;
    }
    if ((v = cs_cli_get(cmd, a, "root")) && !cs__parse_int(v, 0, 100000000L, &root)) {
        fprintf(stderr, "clustersim collective: -r: expected a rank >= 0, got \"%s\"\n", v);
        return CS_EXIT_BADINPUT;
    }
    if (maxb < minb) {
        fprintf(stderr, "clustersim collective: -e %.0f is below -b %.0f: no sizes to run\n", maxb, minb);
        return CS_EXIT_BADINPUT;
    }
    if (factor > 1 && minb == 0 && maxb > 0) {
        fprintf(stderr, "clustersim collective: -b 0 with -f %ld never grows (nccl-tests would loop forever); "
                        "start at -b 8\n", factor);
        return CS_EXIT_BADINPUT;
    }
    long nrows = 0;
    for (double s = minb; s <= maxb && nrows <= 100000; s = factor > 1 ? s * (double)factor : s + stepb)
        nrows++;
    if (nrows > 100000) {
        fprintf(stderr, "clustersim collective: more than 100000 sizes from -b/-e/-f/-i; use a larger step\n");
        return CS_EXIT_BADINPUT;
    }
    enum cs_coll_op op = CS_COLL_ALL_REDUCE;
    const char *redop = "sum";
    if ((v = cs_cli_get(cmd, a, "op"))) {
        bool is_redop = false;
        for (size_t i = 0; i < sizeof cs__redops / sizeof cs__redops[0]; i++)
            if (strcmp(v, cs__redops[i]) == 0)
                is_redop = true, redop = cs__redops[i];
        if (!is_redop && cs_coll_op_parse(v, &op) != CS_OK) {
            fprintf(stderr, "clustersim collective: -o/--op: expected a collective (all_reduce, all_gather, "
                            "reduce_scatter, alltoall, broadcast, sendrecv) or a reduction op (sum, prod, max, "
                            "min, avg), got \"%s\"\n", v);
            return CS_EXIT_BADINPUT;
        }
    }
    if ((v = cs_cli_get(cmd, a, "redop"))) {
        bool ok = false;
        for (size_t i = 0; i < sizeof cs__redops / sizeof cs__redops[0]; i++)
            if (strcmp(v, cs__redops[i]) == 0)
                ok = true, redop = cs__redops[i];
        if (!ok) {
            fprintf(stderr, "clustersim collective: --redop: expected sum, prod, max, min or avg, got \"%s\"\n", v);
            return CS_EXIT_BADINPUT;
        }
    }
    const struct cs__type *type = &cs__types[7]; /* float, nccl-tests' default */
    if ((v = cs_cli_get(cmd, a, "datatype"))) {
        type = NULL;
        for (size_t i = 0; i < sizeof cs__types / sizeof cs__types[0]; i++)
            if (strcmp(v, cs__types[i].name) == 0)
                type = &cs__types[i];
        if (!type) {
            fprintf(stderr, "clustersim collective: -d: expected int8, uint8, int32, uint32, int64, uint64, half, "
                            "float, double or bfloat16, got \"%s\"\n", v);
            return CS_EXIT_BADINPUT;
        }
    }
    enum cs_coll_algo algo = CS_COLL_AUTO;
    if ((v = cs_cli_get(cmd, a, "algo")) && cs_coll_algo_parse(v, &algo) != CS_OK) {
        fprintf(stderr, "clustersim collective: --algo: expected auto, ring, tree, hier, nvls or sharp, got \"%s\"\n",
                v);
        return CS_EXIT_BADINPUT;
    }
    bool have_place = false;
    enum cs_placement place = CS_PLACEMENT_PACKED;
    if ((v = cs_cli_get(cmd, a, "placement"))) {
        if (strcmp(v, "packed") == 0)
            place = CS_PLACEMENT_PACKED;
        else if (strcmp(v, "scattered") == 0)
            place = CS_PLACEMENT_SCATTERED;
        else {
            fprintf(stderr, "clustersim collective: --placement: expected packed or scattered, got \"%s\"\n", v);
            return CS_EXIT_BADINPUT;
        }
        have_place = true;
    }
    bool use_flow = cs_cli_get(cmd, a, "flow") != NULL;

    const char *path = cs_path_display(a->pos[0]);
    struct cs_cli_scenario sc;
    int rc = cs_cli_load_scenario(a->pos[0], cs_cli_get(cmd, a, "catalog"), a, &sc);
    if (rc != CS_EXIT_OK)
        return rc;
    struct cs_cluster_cfg c = sc.scenario.cluster;
    if (have_place)
        c.fabric.placement = place;
    long total = (long)c.nodes * c.gpus_per_node;
    int gpn = c.gpus_per_node;
    /* The rank count: --ranks, else every GPU of the cluster. nccl-tests'
     * -g and -t are per process (ranks = nprocs x t x g, nprocs from
     * mpirun, which clustersim does not have), so they never set it. */
    long n = ranks > 0 ? ranks : total;
    char ranks_why[160];
    if (ranks > 0)
        snprintf(ranks_why, sizeof ranks_why, "--ranks %ld", ranks);
    else
        snprintf(ranks_why, sizeof ranks_why, "every GPU of the cluster (%d nodes x %d GPUs)", c.nodes, gpn);
    if (n > total) {
        fprintf(stderr, "%s: --ranks %ld: the cluster has only %ld GPUs (%d nodes x %d)\n", path, n, total, c.nodes,
                gpn);
        cs_cli_scenario_fini(&sc);
        return CS_EXIT_BADINPUT;
    }
    int ppn = n < gpn ? (int)n : gpn;
    if (n % ppn != 0) {
        fprintf(stderr, "%s: --ranks %ld: expected a multiple of the %d GPUs per node (whole nodes), or fewer\n", path,
                n, gpn);
        cs_cli_scenario_fini(&sc);
        return CS_EXIT_BADINPUT;
    }
    if (n % (ngpus * nthreads) != 0) {
        fprintf(stderr, "%s: -t %ld x -g %ld = %ld ranks per process does not divide the %ld ranks (%s)\n", path,
                nthreads, ngpus, nthreads * ngpus, n, ranks_why);
        cs_cli_scenario_fini(&sc);
        return CS_EXIT_BADINPUT;
    }
    long nprocs = n / (ngpus * nthreads);
    if (fmt == CS_FMT_CSV) /* text and JSON carry it in the output itself */
        fprintf(stderr, "clustersim collective: %ld ranks from %s\n", n, ranks_why);
    if (op == CS_COLL_BROADCAST && root >= n) {
        fprintf(stderr, "clustersim collective: -r %ld: root must be below the %ld ranks\n", root, n);
        cs_cli_scenario_fini(&sc);
        return CS_EXIT_BADINPUT;
    }
    int m = (int)(n / ppn);
    struct cs_coll_group grp = {(int)n, ppn, 1, 0, m};
    struct cs_coll_params par;
    cs_calib_coll_params(&sc.scenario, &par); /* defaults + the scenario's calibration */
    const struct cs_calib_curve *curve =
        use_flow ? NULL : cs_calib_find_curve(&sc.scenario.calibration, op, (int)n, m, algo);

    /* Flow model: build the fabric and place the ranks once. */
    cs_fabric *fab = NULL;
    int *ids = NULL;
    if (use_flow) {
        cs_status st = cs_fabric_create(&c, sc.scenario.seed, &fab);
        if (st == CS_OK) {
            ids = cs_xmalloc((size_t)n * sizeof *ids);
            st = cs_fabric_place(fab, (enum cs_place_policy)c.fabric.placement, (int)n, sc.scenario.seed, NULL, ids);
        }
        if (st != CS_OK) {
            fprintf(stderr, "%s: cannot build the fabric for the flow model: %s\n", path, cs_strerror(st));
            free(ids);
            cs_fabric_destroy(fab);
            cs_cli_scenario_fini(&sc);
            return CS_EXIT_FAIL;
        }
    }

    struct cs__row *rows = cs_xcalloc((size_t)nrows, sizeof *rows);
    long k = 0;
    bool failed = false;
    for (double s = minb; s <= maxb && k < nrows; s = factor > 1 ? s * (double)factor : s + stepb, k++) {
        struct cs__row *r = &rows[k];
        cs__sizes(op, s, type->bytes, (int)n, &r->size, &r->count);
        double t = 0.0;
        if (use_flow) {
            double dev = 0.0;
            cs_status st = r->size > 0 && n > 1
                               ? cs_flow_collective(fab, op, r->size, ids, (int)n, algo, &dev)
                               : CS_OK;
            if (st != CS_OK) {
                fprintf(stderr, "clustersim collective: the flow model cannot run %s with --algo %s: %s\n",
                        cs_coll_op_name(op), cs_coll_algo_name(algo), cs_strerror(st));
                failed = true;
                break;
            }
            t = r->size > 0 && n > 1 ? cs_coll_launch_bound_s(&par, dev) : 0.0;
            r->algo = algo == CS_COLL_AUTO ? (m > 1 && ppn > 1 && op != CS_COLL_ALLTOALL && op != CS_COLL_SENDRECV &&
                                                      op != CS_COLL_BROADCAST
                                                  ? CS_COLL_HIER
                                                  : CS_COLL_RING)
                                           : algo;
        } else {
            cs_status cst = cs_coll_time_ex(&c, &par, op, r->size, &grp, algo, &t, &r->algo, &r->proto);
            r->has_proto = true;
            if (curve && cst == CS_OK) /* a measured curve for this (op, ranks, nodes): calib.h */
                t = cs_calib_curve_time_s(curve, r->size);
            if (cst != CS_OK && cst != CS_EUNSUPPORTED) {
                fprintf(stderr, "%s: %s of %.0f bytes over %d ranks (%d per node) cannot be modelled: %s\n", path,
                        cs_coll_op_name(op), r->size, (int)n, ppn, cs_strerror(cst));
                failed = true;
                break;
            }
            if (cst != CS_OK) {
                fprintf(stderr, "%s: %s with --algo %s is not available on this cluster (%d ranks, %d per node; "
                                "NVLS needs an NVSwitch with NVLS and one node, SHARP needs "
                                "cluster.fabric.in_network_reduction and several nodes)\n",
                        path, cs_coll_op_name(op), cs_coll_algo_name(algo), (int)n, ppn);
                failed = true;
                break;
            }
        }
        r->time_s = t;
        r->algbw = t > 0 ? r->size / t : 0.0;
        r->busbw = r->algbw * cs_coll_busbw_factor(op, (int)n);
    }
    free(ids);
    cs_fabric_destroy(fab);
    if (failed) {
        free(rows);
        cs_cli_scenario_fini(&sc);
        return CS_EXIT_FAIL;
    }

    const char *name = fmt == CS_FMT_JSON ? "collective.json" : fmt == CS_FMT_CSV ? "collective.csv" : "collective.txt";
    struct cs_cli_out out;
    if (!cs_cli_out_open(&out, cs_cli_get(cmd, a, "output"), name)) {
        free(rows);
        cs_cli_scenario_fini(&sc);
        return CS_EXIT_FAIL;
    }
    const char *redop_col = op == CS_COLL_ALL_REDUCE || op == CS_COLL_REDUCE_SCATTER ? redop : "none";
    long root_col = op == CS_COLL_BROADCAST ? root : -1;
    const char *model = use_flow ? "flow" : "closed-form";
    const char *placement = c.fabric.placement == CS_PLACEMENT_SCATTERED ? "scattered" : "packed";
    double bus_sum = 0;
    for (long i = 0; i < k; i++)
        bus_sum += rows[i].busbw;
    bool ok = true;
    if (fmt == CS_FMT_JSON) {
        cJSON *root_js = cJSON_CreateObject();
        cJSON_AddStringToObject(root_js, "clustersim_version", CLUSTERSIM_VERSION);
        cJSON_AddStringToObject(root_js, "scenario", sc.scenario.name);
        cJSON_AddStringToObject(root_js, "file", path);
        cJSON_AddStringToObject(root_js, "op", cs_coll_op_name(op));
        cJSON_AddStringToObject(root_js, "redop", redop_col);
        cJSON_AddStringToObject(root_js, "datatype", type->name);
        cJSON_AddNumberToObject(root_js, "ranks", (double)n);
        cJSON_AddStringToObject(root_js, "ranks_from", ranks > 0 ? "--ranks" : "cluster");
        cJSON_AddStringToObject(root_js, "ranks_why", ranks_why);
        cJSON_AddNumberToObject(root_js, "processes", (double)nprocs);
        cJSON_AddNumberToObject(root_js, "threads_per_process", (double)nthreads);
        cJSON_AddNumberToObject(root_js, "gpus_per_thread", (double)ngpus);
        cJSON_AddNumberToObject(root_js, "nodes", m);
        cJSON_AddNumberToObject(root_js, "ranks_per_node", ppn);
        cJSON_AddStringToObject(root_js, "model", model);
        cJSON_AddStringToObject(root_js, "placement", placement);
        cJSON_AddStringToObject(root_js, "topology", cs_topology_name(c.fabric.topology));
        cJSON_AddStringToObject(root_js, "link", c.fabric.link.name);
        cJSON *arr = cJSON_AddArrayToObject(root_js, "rows");
        for (long i = 0; i < k; i++) {
            const struct cs__row *r = &rows[i];
            cJSON *o = cJSON_CreateObject();
            cJSON_AddNumberToObject(o, "size_bytes", r->size);
            cJSON_AddNumberToObject(o, "count", r->count);
            cJSON_AddNumberToObject(o, "time_us", r->time_s * 1e6);
            cJSON_AddNumberToObject(o, "algbw_gb_per_s", r->algbw / 1e9);
            cJSON_AddNumberToObject(o, "busbw_gb_per_s", r->busbw / 1e9);
            cJSON_AddStringToObject(o, "algo", cs_coll_algo_name(r->algo));
            if (r->has_proto)
                cJSON_AddStringToObject(o, "proto", cs_coll_proto_name(r->proto));
            cJSON_AddItemToArray(arr, o);
        }
        cJSON_AddNumberToObject(root_js, "avg_busbw_gb_per_s", k > 0 ? bus_sum / (double)k / 1e9 : 0.0);
        ok = cs_out_json_write(out.fp, root_js);
        cJSON_Delete(root_js);
    } else if (fmt == CS_FMT_CSV) {
        fprintf(out.fp, "size_bytes,count,type,redop,root,time_us,algbw_gb_per_s,busbw_gb_per_s,algo,proto\n");
        for (long i = 0; i < k; i++) {
            const struct cs__row *r = &rows[i];
            fprintf(out.fp, "%.0f,%.0f,%s,%s,%ld,%.6g,%.6g,%.6g,%s,%s\n", r->size, r->count, type->name, redop_col,
                    root_col, r->time_s * 1e6, r->algbw / 1e9, r->busbw / 1e9, cs_coll_algo_name(r->algo),
                    r->has_proto ? cs_coll_proto_name(r->proto) : "");
        }
    } else {
        FILE *o = out.fp;
        fprintf(o, "# clustersim %s collective: %s_perf simulated (%s model) on \"%s\" (%s)\n", CLUSTERSIM_VERSION,
                cs_coll_op_name(op), model, sc.scenario.name, path);
        fprintf(o, "# cluster: %d nodes x %d %s, %s intra-node, %s %s x %d per node, %s placement\n", c.nodes, gpn,
                c.gpu.name, c.intra.name, cs_topology_name(c.fabric.topology), c.fabric.link.name,
                c.fabric.nics_per_node, placement);
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
                    (int)(i / ppn), i % ppn, c.gpu.name);
        if (n > 16)
            fprintf(o, "#  ... %ld more ranks\n", n - 16);
        fprintf(o, "#\n");
        fprintf(o, "#%62s%-35s%s\n", "", "out-of-place", "in-place");
        fprintf(o, "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s\n", "size", "count", "type",
                "redop", "root", "time", "algbw", "busbw", "#wrong", "time", "algbw", "busbw", "#wrong");
        fprintf(o, "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s\n", "(B)", "(elements)", "",
                "", "", "(us)", "(GB/s)", "(GB/s)", "", "(us)", "(GB/s)", "(GB/s)", "");
        for (long i = 0; i < k; i++) {
            const struct cs__row *r = &rows[i];
            char ts[32], as[32], bs[32];
            cs__fmt(ts, sizeof ts, r->time_s * 1e6, 7);
            cs__fmt(as, sizeof as, r->algbw / 1e9, 6);
            cs__fmt(bs, sizeof bs, r->busbw / 1e9, 6);
            /* The model has no separate in-place path: both halves agree. */
            fprintf(o, "%12.0f  %12.0f  %8s  %6s  %6ld  %7s  %6s  %6s  %6d  %7s  %6s  %6s  %6d\n", r->size, r->count,
                    type->name, redop_col, root_col, ts, as, bs, 0, ts, as, bs, 0);
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
    free(rows);
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
