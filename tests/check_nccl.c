/* check_nccl.c: the calibration input parsers (config/nccl.c,
 * config/calib_inputs.c): nccl-tests logs (hand-made fixtures in
 * tests/data/calib/ and every reference log), GEMM CSV, fio JSON, the
 * measured-steps CSV and the scenarios they resolve to; malformed inputs
 * give errors naming file, line and column. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include "clustersim/base/strbuf.h"
#include "clustersim/config/calib_io.h"
#include "clustersim/config/config.h"
#include "test_util.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char g_path[4096];
static const char *data(const char *name)
{
    snprintf(g_path, sizeof g_path, "%s", cs_test_path("tests/data/calib"));
    size_t l = strlen(g_path);
    snprintf(g_path + l, sizeof g_path - l, "/%s", name);
    return g_path;
}

static char g_npath[4096];
static const char *ndata(const char *name)
{
    snprintf(g_npath, sizeof g_npath, "%s", cs_test_path("tests/data/nccl"));
    size_t l = strlen(g_npath);
    snprintf(g_npath + l, sizeof g_npath - l, "/%s", name);
    return g_npath;
}

/* Number of diagnostics of severity sev. */
static size_t count_sev(const cs_diags *d, enum cs_severity sev)
{
    size_t n = 0;
    for (size_t i = 0; i < d->n; i++)
        n += d->items[i].sev == sev;
    return n;
}

/* True when some diagnostic, formatted "file:line:col: error: msg", contains `needle`. */
static bool has_diag(const cs_diags *d, const char *needle)
{
    for (size_t i = 0; i < d->n; i++) {
        char *s = cs_diag_format(&d->items[i]);
        bool hit = strstr(s, needle) != NULL;
        if (!hit)
            fprintf(stderr, "  diag: %s\n", s);
        free(s);
        if (hit)
            return true;
    }
    return false;
}

/* Every distinct host counts: 4,100 ranks on 4,100 hosts (the parser once
 * stopped at 4,096 and reported a run of 4,100 ranks on 4,096 nodes). */
START_TEST(test_nccl_many_hosts)
{
    const int n = 4100;
    struct cs_strbuf b = {0};
    char line[160];
    cs_strbuf_puts(&b, "# nThread 1 nGpus 1 minBytes 1048576 maxBytes 1048576 step: 2(factor) "
                       "warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0\n#\n"
                       "# Using devices\n");
    for (int i = 0; i < n; i++) {
        snprintf(line, sizeof line,
                 "#  Rank %4d Group  0 Pid %6d on host%d device  0 [0000:1b:00] NVIDIA H100 80GB HBM3\n", i,
                 1000 + i, i);
        cs_strbuf_puts(&b, line);
    }
    cs_strbuf_puts(&b, "#\n#       size         count      type   redop    root     time   algbw   busbw  #wrong"
                       "     time   algbw   busbw  #wrong\n"
                       "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)"
                       "             (us)  (GB/s)  (GB/s)\n"
                       "     1048576        262144     float     sum      -1   500.00    2.10    4.19       0"
                       "   499.00    2.10    4.20       0\n");
    cs_diags d;
    cs_diags_init(&d);
    struct cs_nccl_log log;
    ck_assert_int_eq(cs_nccl_parse_buffer("hosts.txt", b.s, b.n, CS_COLL_ALL_REDUCE, &d, &log), CS_OK);
    ck_assert_uint_eq(log.n_runs, 1);
    ck_assert_int_eq(log.runs[0].ranks, n);
    ck_assert_int_eq(log.runs[0].nodes, n);
    cs_nccl_log_fini(&log);
    cs_diags_fini(&d);
    free(b.s);
}
END_TEST

/* A rank line with no host name ("on  device") once made the host's length
 * wrap to SIZE_MAX and the allocation abort; a #wrong beyond 1e18 (past a
 * long) must be refused, not cast. Each is a skipped line with a warning
 * naming its line, and an error under --strict. */
START_TEST(test_nccl_empty_host_huge_wrong)
{
    static const char text[] =
        "# nThread 1 nGpus 1 minBytes 8 maxBytes 16 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 "
        "validation: 1 graph: 0\n"
        "#\n"
        "# Using devices\n"
        "#  Rank  0 Group  0 Pid  1 on  device  0 [0x00] NVIDIA H100 80GB HBM3\n"
        "#  Rank  1 Group  0 Pid  2 on hostA device  1 [0x01] NVIDIA H100 80GB HBM3\n"
        "#\n"
        "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   "
        "busbw #wrong\n"
        "           8             2     float     sum      -1    10.00    0.00    0.00      0    10.00    0.00    "
        "0.00   1e30\n"
        "          16             4     float     sum      -1    10.00    0.00    0.00      0    10.00    0.00    "
        "0.00   9.3e18\n"
        "          32             8     float     sum      -1    10.00    0.00    0.00      0    10.00    0.00    "
        "0.00      3\n";
    cs_diags d;
    cs_diags_init(&d);
    struct cs_nccl_log log;
    ck_assert_int_eq(cs_nccl_parse_buffer("h.txt", text, sizeof text - 1, CS_COLL_ALL_REDUCE, &d, &log), CS_OK);
    ck_assert(has_diag(&d, "h.txt:4: warning: rank line: expected a host name"));
    ck_assert(has_diag(&d, "h.txt:8: warning: in-place #wrong"));
    ck_assert(has_diag(&d, "h.txt:9: warning: in-place #wrong"));
    ck_assert_uint_eq(log.n_runs, 1);
    ck_assert_int_eq(log.runs[0].ranks, 1); /* the named rank only */
    ck_assert_int_eq(log.runs[0].nodes, 1);
    ck_assert_uint_eq(log.runs[0].n_rows, 1);
    ck_assert_int_eq(log.runs[0].rows[0].wrong[1], 3);
    ck_assert_uint_eq(log.skipped_rows, 3);
    cs_nccl_log_fini(&log);
    cs_diags_fini(&d);

    cs_diags_init(&d);
    ck_assert_int_ne(cs_nccl_parse_buffer_ex("h.txt", text, sizeof text - 1, CS_COLL_ALL_REDUCE, CS_NCCL_STRICT, &d,
                                             &log),
                     CS_OK);
    ck_assert(has_diag(&d, "h.txt:4:"));
    cs_diags_fini(&d);
}
END_TEST

/* The base scenario the user names (calibrate --scenario) may lie in any
 * directory: the document clustersim writes to include it is confined to
 * the base's own directory, not the CSV's (cs_ypath_check). A scenario
 * named by the CSV's own column stays confined to the CSV's directory. */
START_TEST(test_nccl_steps_base_elsewhere)
{
    char root[] = "/tmp/cs_steps_base_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(root));
    char bdir[128], cdir[128], bpath[160], cpath[160], c2path[160];
    snprintf(bdir, sizeof bdir, "%s/base", root);
    snprintf(cdir, sizeof cdir, "%s/csv", root);
    ck_assert_int_eq(mkdir(bdir, 0700), 0);
    ck_assert_int_eq(mkdir(cdir, 0700), 0);
    snprintf(bpath, sizeof bpath, "%s/b.yaml", bdir);
    snprintf(cpath, sizeof cpath, "%s/m.csv", cdir);
    snprintf(c2path, sizeof c2path, "%s/m2.csv", cdir);
    FILE *f = fopen(bpath, "w");
    ck_assert_ptr_nonnull(f);
    fputs("schema_version: 1\ncluster: {gpu: H100-SXM5-80GB, nodes: 1, gpus_per_node: 8}\n"
          "workload: {model: {preset: llama2-7b}, global_batch: 64, parallelism: {tp: 1, pp: 1}}\n", f);
    fclose(f);
    cs_diags d;
    cs_diags_init(&d);
    cs_catalog *cat = NULL;
    ck_assert_int_eq(cs_catalog_load_dir(cs_catalog_default_dir(), &d, &cat), CS_OK);
    static const char csv[] = "label,step_time_s,workload.parallelism.tp\nt2,1.5,2\n";
    struct cs_steps_row *rows = NULL;
    size_t n = 0;
    ck_assert_int_eq(cs_steps_csv_parse(cpath, csv, sizeof csv - 1, &d, &rows, &n), CS_OK);
    struct cs_scenario s;
    cs_status st = cs_steps_row_scenario(&rows[0], cpath, bpath, cat, &d, &s);
    ck_assert_msg(st == CS_OK, "%s", d.n ? d.items[d.n - 1].msg : "");
    ck_assert_int_eq(s.workload.par.tp, 2);
    cs_scenario_fini(&s);
    cs_steps_rows_free(rows, n);

    static const char csv2[] = "label,scenario,step_time_s\nt1,../base/b.yaml,1.5\n";
    ck_assert_int_eq(cs_steps_csv_parse(c2path, csv2, sizeof csv2 - 1, &d, &rows, &n), CS_OK);
    ck_assert_int_eq(cs_steps_row_scenario(&rows[0], c2path, NULL, cat, &d, &s), CS_ECONFIG);
    ck_assert(has_diag(&d, "refused: outside the directory of"));
    cs_steps_rows_free(rows, n);
    cs_diags_fini(&d);
    cs_catalog_destroy(cat);
    unlink(bpath);
    rmdir(bdir);
    rmdir(cdir);
    rmdir(root);
}
END_TEST

START_TEST(test_nccl_two_runs)
{
    cs_diags d;
    cs_diags_init(&d);
    struct cs_nccl_log log;
    ck_assert_int_eq(cs_nccl_parse_file(data("two_runs.txt"), CS_COLL_OP_COUNT, &d, &log), CS_OK);
    ck_assert_uint_eq(log.n_runs, 2);
    const struct cs_nccl_run *r = &log.runs[0];
    ck_assert_int_eq(r->op, CS_COLL_ALL_GATHER);
    ck_assert_int_eq(r->ranks, 4);   /* four Rank lines */
    ck_assert_int_eq(r->nodes, 2);   /* hosts nodeA and nodeB */
    ck_assert_str_eq(r->gpu, "NVIDIA H100 80GB HBM3");
    ck_assert_str_eq(r->dtype, "float");
    ck_assert_uint_eq(r->n_rows, 3);
    ck_assert_double_eq(r->rows[0].size_bytes, 1048576);
    ck_assert_double_eq_tol(r->rows[0].time_us[0], 50.0, 1e-12);
    ck_assert_double_eq_tol(r->rows[0].busbw_gbps[0], 15.73, 1e-12);
    ck_assert_double_eq_tol(r->rows[0].time_us[1], 49.0, 1e-12);
    ck_assert_double_eq_tol(r->rows[2].busbw_gbps[1], 22.63, 1e-12);
    ck_assert_int_eq(r->rows[0].line, 14);
    const struct cs_nccl_run *b = &log.runs[1];
    ck_assert_int_eq(b->op, CS_COLL_BROADCAST);
    ck_assert_int_eq(b->ranks, 4);
    ck_assert_uint_eq(b->n_rows, 2);
    ck_assert_int_eq(b->rows[1].wrong[1], -1); /* N/A */
    ck_assert_double_eq_tol(b->rows[1].time_us[0], 100.0, 1e-12);
    cs_nccl_log_fini(&log);
    cs_diags_fini(&d);
}
END_TEST

START_TEST(test_nccl_old_format)
{
    cs_diags d;
    cs_diags_init(&d);
    struct cs_nccl_log log;
    ck_assert_int_eq(cs_nccl_parse_file(data("old_format.txt"), CS_COLL_OP_COUNT, &d, &log), CS_OK);
    ck_assert_uint_eq(log.n_runs, 1);
    const struct cs_nccl_run *r = &log.runs[0];
    ck_assert_int_eq(r->op, CS_COLL_ALLTOALL);   /* from the command line */
    ck_assert_int_eq(r->algo, CS_COLL_TREE);     /* NCCL INFO ... NCCL_ALGO set by environment to Tree */
    ck_assert_int_eq(r->ranks, 8);               /* nThread 1 x nGpus 8, no device list */
    ck_assert_int_eq(r->nodes, 1);
    ck_assert_uint_eq(r->n_rows, 3);
    ck_assert_double_eq_tol(r->rows[2].time_us[0], 340.0, 1e-12);
    ck_assert(isnan(r->rows[2].time_us[1]));     /* no in-place half */
    cs_nccl_log_fini(&log);
    cs_diags_fini(&d);
}
END_TEST

START_TEST(test_nccl_op_hint)
{
    cs_diags d;
    cs_diags_init(&d);
    struct cs_nccl_log log;
    ck_assert_int_eq(cs_nccl_parse_file(data("no_op.txt"), CS_COLL_OP_COUNT, &d, &log), CS_ECONFIG);
    ck_assert(has_diag(&d, "no_op.txt:1:1: error: cannot tell which collective"));
    cs_diags_fini(&d);
    cs_diags_init(&d);
    ck_assert_int_eq(cs_nccl_parse_file(data("no_op.txt"), CS_COLL_ALL_REDUCE, &d, &log), CS_OK);
    ck_assert_int_eq(log.runs[0].op, CS_COLL_ALL_REDUCE);
    ck_assert_uint_eq(log.runs[0].n_rows, 2);
    cs_nccl_log_fini(&log);
    cs_diags_fini(&d);
}
END_TEST

START_TEST(test_nccl_malformed)
{
    /* With CS_NCCL_STRICT a malformed row is an error naming file:line:col
     * (the other cases fail either way). */
    struct { const char *file, *needle; } cases[] = {
        /* "          16             4     float     sum      -1    " is 56 characters: "fast" at column 57. */
        {"bad_number.txt", "bad_number.txt:4:57: error: out-of-place time (us): expected a non-negative number, got \"fast\""},
        {"bad_fields.txt", "bad_fields.txt:2:1: error: expected an nccl-tests row"},
        {"empty.txt", "empty.txt:3:1: error: no nccl-tests result rows"},
        {"unsupported.txt", "unsupported.txt:1:1: error: gather_perf: clustersim does not model"},
        {"does-not-exist.txt", "cannot read the file"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cs_diags d;
        cs_diags_init(&d);
        struct cs_nccl_log log;
        memset(&log, 0x5a, sizeof log);
        cs_status st = cs_nccl_parse_file_ex(data(cases[i].file), CS_COLL_OP_COUNT, CS_NCCL_STRICT, &d, &log);
        ck_assert_msg(st != CS_OK, "%s parsed", cases[i].file);
        ck_assert_msg(has_diag(&d, cases[i].needle), "%s: no diagnostic containing %s", cases[i].file,
                      cases[i].needle);
        cs_diags_fini(&d);
    }
    /* Lenient (the default): the bad row of bad_number.txt is skipped with a
     * warning naming file:line (no column in the position; it is in the
     * text), counted, and the good row (line 3) remains. */
    {
        cs_diags d;
        cs_diags_init(&d);
        struct cs_nccl_log log;
        ck_assert_int_eq(cs_nccl_parse_file(data("bad_number.txt"), CS_COLL_OP_COUNT, &d, &log), CS_OK);
        ck_assert_uint_eq(log.skipped_rows, 1);
        ck_assert_uint_eq(log.n_runs, 1);
        ck_assert_uint_eq(log.runs[0].n_rows, 1);
        ck_assert_int_eq(log.runs[0].rows[0].line, 3);
        ck_assert_double_eq_tol(log.runs[0].rows[0].time_us[0], 34.98, 1e-12);
        ck_assert(has_diag(&d, "bad_number.txt:4: warning: out-of-place time (us): expected a non-negative number, "
                               "got \"fast\" at column 57; row skipped"));
        ck_assert_uint_eq(cs_diags_errors(&d), 0);
        cs_nccl_log_fini(&log);
        cs_diags_fini(&d);
        /* bad_fields.txt has no other row: the warning, then the error. */
        cs_diags_init(&d);
        ck_assert_int_eq(cs_nccl_parse_file(data("bad_fields.txt"), CS_COLL_OP_COUNT, &d, &log), CS_ECONFIG);
        ck_assert(has_diag(&d, "bad_fields.txt:2: warning: expected an nccl-tests row"));
        ck_assert(has_diag(&d, "error: no nccl-tests result rows found (every row was malformed and skipped)"));
        cs_diags_fini(&d);
    }
    /* A NUL byte: refused as binary. */
    cs_diags d;
    cs_diags_init(&d);
    struct cs_nccl_log log;
    ck_assert_int_eq(cs_nccl_parse_buffer("bin", "  8 2 float\0", 12, CS_COLL_ALL_REDUCE, &d, &log), CS_ECONFIG);
    ck_assert(has_diag(&d, "bin:1:1: error: expected nccl-tests text output, found a NUL byte"));
    cs_diags_fini(&d);
}
END_TEST

/* Every reference log parses, with the shape its header states. */
START_TEST(test_nccl_reference_logs)
{
    struct { const char *file; enum cs_coll_op op; enum cs_coll_algo algo; int ranks, nodes, rows; const char *cat; } refs[] = {
        {"nccl-a100sxm4-16gpu-2node-allreduce.txt", CS_COLL_ALL_REDUCE, CS_COLL_AUTO, 16, 2, 6, "A100-SXM4-80GB"},
        {"nccl-a100sxm4-8gpu-1node-allreduce.txt", CS_COLL_ALL_REDUCE, CS_COLL_AUTO, 8, 1, 6, "A100-SXM4-80GB"},
        {"nccl-h100sxm-8gpu-1node-nvls-allreduce.txt", CS_COLL_ALL_REDUCE, CS_COLL_AUTO, 8, 1, 10, "H100-SXM5-80GB"},
        {"nccl-h100sxm-8gpu-1node-nvswitch-allgather.txt", CS_COLL_ALL_GATHER, CS_COLL_AUTO, 8, 1, 31, "H100-SXM5-80GB"},
        /* Its header says "NCCL_ALGO=Ring per the repo's naming". */
        {"nccl-h100sxm-8gpu-1node-nvswitch-allreduce.txt", CS_COLL_ALL_REDUCE, CS_COLL_RING, 8, 1, 31, "H100-SXM5-80GB"},
        {"nccl-h100sxm-8gpu-1node-nvswitch-reducescatter.txt", CS_COLL_REDUCE_SCATTER, CS_COLL_AUTO, 8, 1, 31,
         "H100-SXM5-80GB"},
    };
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", cs_test_data("validation/collectives"));
    for (size_t i = 0; i < sizeof refs / sizeof refs[0]; i++) {
        char path[4400];
        snprintf(path, sizeof path, "%s/%s", dir, refs[i].file);
        cs_diags d;
        cs_diags_init(&d);
        struct cs_nccl_log log;
        ck_assert_msg(cs_nccl_parse_file(path, CS_COLL_OP_COUNT, &d, &log) == CS_OK, "%s", refs[i].file);
        ck_assert_uint_eq(log.n_runs, 1);
        const struct cs_nccl_run *r = &log.runs[0];
        ck_assert_int_eq(r->op, refs[i].op);
        ck_assert_int_eq(r->algo, refs[i].algo);
        ck_assert_int_eq(r->ranks, refs[i].ranks);
        ck_assert_int_eq(r->nodes, refs[i].nodes);
        ck_assert_int_eq((int)r->n_rows, refs[i].rows);
        ck_assert_str_eq(cs_calib_gpu_catalog_name(r->gpu), refs[i].cat);
        /* busbw as printed = algbw x factor (nccl-tests), within the 2-decimal rounding. */
        const struct cs_nccl_row *last = &r->rows[r->n_rows - 1];
        double f = cs_coll_busbw_factor(r->op, r->ranks);
        ck_assert_double_eq_tol(last->busbw_gbps[0], last->algbw_gbps[0] * f, 0.02);
        ck_assert_double_eq_tol(last->algbw_gbps[0], last->size_bytes / last->time_us[0] / 1e3,
                                0.01 * last->algbw_gbps[0]);
        cs_nccl_log_fini(&log);
        cs_diags_fini(&d);
    }
    /* The first A100 row: 33554432 B, 650.2 us, busbw 96.76. */
    char path[4400];
    snprintf(path, sizeof path, "%s/%s", dir, refs[0].file);
    cs_diags d;
    cs_diags_init(&d);
    struct cs_nccl_log log;
    ck_assert_int_eq(cs_nccl_parse_file(path, CS_COLL_OP_COUNT, &d, &log), CS_OK);
    ck_assert_double_eq(log.runs[0].rows[0].size_bytes, 33554432);
    ck_assert_double_eq_tol(log.runs[0].rows[0].time_us[0], 650.2, 1e-9);
    ck_assert_double_eq_tol(log.runs[0].rows[0].busbw_gbps[1], 97.03, 1e-9);
    /* Its cluster from the catalog: 2 nodes x 8 A100. */
    cs_catalog *cat = NULL;
    ck_assert_int_eq(cs_catalog_load_dir(cs_catalog_default_dir(), &d, &cat), CS_OK);
    struct cs_scenario s;
    ck_assert_int_eq(cs_nccl_run_scenario(&log.runs[0], NULL, cat, &d, &s), CS_OK);
    ck_assert_int_eq(s.cluster.nodes, 2);
    ck_assert_int_eq(s.cluster.gpus_per_node, 8);
    ck_assert_str_eq(s.cluster.gpu.name, "A100-SXM4-80GB");
    cs_scenario_fini(&s);
    cs_catalog_destroy(cat);
    cs_nccl_log_fini(&log);
    cs_diags_fini(&d);
}
END_TEST

START_TEST(test_nccl_gpu_names)
{
    ck_assert_str_eq(cs_calib_gpu_catalog_name("NVIDIA H100 80GB HBM3"), "H100-SXM5-80GB");
    ck_assert_str_eq(cs_calib_gpu_catalog_name("NVIDIA H100 PCIe"), "H100-PCIe-80GB");
    ck_assert_str_eq(cs_calib_gpu_catalog_name("NVIDIA A100-SXM4-40GB"), "A100-SXM4-40GB");
    ck_assert_str_eq(cs_calib_gpu_catalog_name("NVIDIA H200"), "H200-SXM-141GB");
    ck_assert_ptr_null(cs_calib_gpu_catalog_name("Tesla V100-SXM2-32GB"));
}
END_TEST

START_TEST(test_nccl_gemm_csv)
{
    cs_diags d;
    cs_diags_init(&d);
    struct cs_gemm_row *rows = NULL;
    size_t n = 0;
    ck_assert_int_eq(cs_gemm_csv_load(data("gemm_good.csv"), &d, &rows, &n), CS_OK);
    ck_assert_uint_eq(n, 2);
    ck_assert_double_eq(rows[0].m, 8192);
    ck_assert_int_eq(rows[0].dtype, CS_PREC_BF16);
    ck_assert_str_eq(rows[0].name, "square");
    /* 2 x 8192^3 / 0.0016 s = 1.0995e12 / 0.0016 = 687.19 TFLOP/s. */
    ck_assert_double_eq_tol(rows[0].tflops, 687.194767, 1e-5);
    ck_assert_int_eq(rows[1].line, 4);
    free(rows);
    ck_assert_int_eq(cs_gemm_csv_load(data("gemm_tflops.csv"), &d, &rows, &n), CS_OK);
    ck_assert_uint_eq(n, 2);
    ck_assert_double_eq(rows[0].m, 2048); /* a quoted field */
    /* 2 x 2048 x 3072 x 1024 / 500e12 = 12.885e9 / 500e12 = 2.5770e-5 s. */
    ck_assert_double_eq_tol(rows[0].seconds, 2.0 * 2048 * 3072 * 1024 / 500e12, 1e-15);
    /* batched: 2 x 128 x 128 x 64 x 32 / 40e12 = 6.7109e7 / 4e13 = 1.6777e-6 s. */
    ck_assert_double_eq(rows[1].batch, 32);
    ck_assert_double_eq_tol(rows[1].seconds, 1.6777216e-6, 1e-12);
    free(rows);
    struct { const char *file, *needle; } bad[] = {
        {"gemm_bad_dtype.csv", "gemm_bad_dtype.csv:3:16: error: dtype: expected fp32, tf32, bf16, fp16, fp8, mxfp8 or nvfp4, got \"int4\""},
        {"gemm_missing.csv", "gemm_missing.csv:1:1: error: header: expected columns m, n and k"},
        {"gemm_both.csv", "gemm_both.csv:1:1: error: header: expected exactly one of the columns seconds and tflops"},
        {"gemm_bad_number.csv", "gemm_bad_number.csv:3:6: error: n: expected a whole number from 1 to 1e9, got \"-3\""},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        rows = NULL;
        ck_assert_int_eq(cs_gemm_csv_load(data(bad[i].file), &d, &rows, &n), CS_ECONFIG);
        ck_assert_ptr_null(rows);
        ck_assert_msg(has_diag(&d, bad[i].needle), "%s", bad[i].needle);
    }
    cs_diags_fini(&d);
}
END_TEST

START_TEST(test_nccl_fio_json)
{
    cs_diags d;
    cs_diags_init(&d);
    struct cs_fio_job *jobs = NULL;
    size_t n = 0;
    ck_assert_int_eq(cs_fio_json_load(data("fio_good.json"), &d, &jobs, &n), CS_OK);
    ck_assert_uint_eq(n, 2); /* the zero-byte directions are skipped */
    ck_assert_str_eq(jobs[0].jobname, "seqread");
    ck_assert(!jobs[0].write);
    ck_assert_double_eq(jobs[0].bw_bytes_per_s, 6442450944.0);
    ck_assert_double_eq(jobs[0].bs_bytes, 1048576.0);  /* "1M" */
    ck_assert_double_eq(jobs[0].iodepth, 32.0);        /* from the global options */
    ck_assert_double_eq_tol(jobs[0].clat_mean_s, 5.2e-3, 1e-12);
    ck_assert(jobs[1].write);
    ck_assert_double_eq(jobs[1].bw_bytes_per_s, 3221225472.0);
    free(jobs);
    jobs = NULL;
    ck_assert_int_eq(cs_fio_json_load(data("fio_sweep.json"), &d, &jobs, &n), CS_ECONFIG);
    ck_assert(has_diag(&d, "fio_sweep.json:5: error: jobs[1].read.bw_bytes: expected a positive bandwidth"));
    ck_assert_int_eq(cs_fio_json_load(data("fio_malformed.json"), &d, &jobs, &n), CS_ECONFIG);
    ck_assert(has_diag(&d, "fio_malformed.json:3:"));
    ck_assert(has_diag(&d, "malformed JSON"));
    ck_assert_ptr_null(jobs);
    cs_diags_fini(&d);
}
END_TEST

START_TEST(test_nccl_steps_csv)
{
    cs_diags d;
    cs_diags_init(&d);
    struct cs_steps_row *rows = NULL;
    size_t n = 0;
    const char *csv = data("steps_good.csv");
    char csv_path[4096];
    snprintf(csv_path, sizeof csv_path, "%s", csv);
    ck_assert_int_eq(cs_steps_csv_load(csv_path, &d, &rows, &n), CS_OK);
    ck_assert_uint_eq(n, 2);
    ck_assert_str_eq(rows[0].label, "tp8");
    ck_assert_str_eq(rows[0].scenario, "step_base.yaml");
    ck_assert_double_eq(rows[0].measured_s, 10.5);
    ck_assert_int_eq(rows[0].n_over, 2);
    ck_assert_int_eq(rows[1].n_over, 1); /* the empty micro_batch cell is not an override */
    ck_assert_str_eq(rows[1].keys[0], "workload.parallelism.tp");
    ck_assert_str_eq(rows[1].values[0], "4");
    /* Resolved through the loader: the override takes effect. */
    cs_catalog *cat = NULL;
    ck_assert_int_eq(cs_catalog_load_dir(cs_catalog_default_dir(), &d, &cat), CS_OK);
    struct cs_scenario s;
    ck_assert_int_eq(cs_steps_row_scenario(&rows[1], csv_path, NULL, cat, &d, &s), CS_OK);
    ck_assert_int_eq(s.workload.par.tp, 4);
    ck_assert_int_eq(s.workload.par.dp, 4); /* 16 GPUs / (tp 4 x pp 1) */
    cs_scenario_fini(&s);
    ck_assert_int_eq(cs_steps_row_scenario(&rows[0], csv_path, NULL, cat, &d, &s), CS_OK);
    ck_assert_int_eq(s.workload.par.tp, 8);
    cs_scenario_fini(&s);
    cs_steps_rows_free(rows, n);
    /* An override the scenario loader refuses names the CSV line. */
    struct cs_steps_row bad;
    memset(&bad, 0, sizeof bad);
    bad.line = 7;
    bad.scenario = "step_base.yaml";
    bad.n_over = 1;
    bad.keys[0] = "workload.parallelism.tp";
    bad.values[0] = "3";
    ck_assert_int_ne(cs_steps_row_scenario(&bad, csv_path, NULL, cat, &d, &s), CS_OK);
    ck_assert(has_diag(&d, "steps_good.csv#line7"));
    cs_catalog_destroy(cat);

    rows = NULL;
    ck_assert_int_eq(cs_steps_csv_load(data("steps_bad.csv"), &d, &rows, &n), CS_ECONFIG);
    ck_assert(has_diag(&d, "steps_bad.csv:3:3: error: step_time_s: expected a positive number of seconds, got \"-1\""));
    ck_assert(has_diag(&d, "steps_bad.csv:4:8: error: workload.parallelism.tp: expected a plain value"));
    ck_assert_int_eq(cs_steps_csv_load(data("steps_badcol.csv"), &d, &rows, &n), CS_ECONFIG);
    ck_assert(has_diag(&d, "steps_badcol.csv:1:19: error: column \"tp\""));
    ck_assert_ptr_null(rows);
    cs_diags_fini(&d);
}
END_TEST


/* nccl-tests 2.13 (tests/data/nccl/v2_13_allgather.txt): no version or
 * "starting" line (the op comes from the mpirun command line), device lines
 * without Group and with a [0x..] bus id, -c 0's N/A. */
START_TEST(test_nccl_v2_13)
{
    cs_diags d;
    cs_diags_init(&d);
    struct cs_nccl_log log;
    ck_assert_int_eq(cs_nccl_parse_file(ndata("v2_13_allgather.txt"), CS_COLL_OP_COUNT, &d, &log), CS_OK);
    ck_assert_uint_eq(d.n, 0);
    ck_assert_uint_eq(log.n_runs, 1);
    const struct cs_nccl_run *r = &log.runs[0];
    ck_assert_int_eq(r->op, CS_COLL_ALL_GATHER);
    ck_assert_int_eq(r->ranks, 4);
    ck_assert_int_eq(r->nodes, 2); /* gpu-a, gpu-b */
    ck_assert_str_eq(r->gpu, "NVIDIA A100-SXM4-80GB");
    ck_assert_str_eq(cs_calib_gpu_catalog_name(r->gpu), "A100-SXM4-80GB");
    ck_assert_str_eq(r->tool, "");
    ck_assert_uint_eq(r->n_rows, 3);
    ck_assert_double_eq(r->rows[0].size_bytes, 1048576);
    ck_assert_double_eq_tol(r->rows[0].time_us[0], 50.0, 1e-12);
    ck_assert_double_eq_tol(r->rows[0].busbw_gbps[0], 15.73, 1e-12); /* 1048576 / 50 us = 20.97 GB/s x 3/4 */
    ck_assert_int_eq(r->rows[0].wrong[0], -1);                          /* N/A */
    ck_assert_int_eq(r->rows[0].wrong[1], -1);
    ck_assert_double_eq_tol(r->rows[2].time_us[0], 140.0, 1e-12); /* printed "140.0" (%7.1f) */
    ck_assert_double_eq_tol(r->rows[2].busbw_gbps[1], 22.63, 1e-12);
    ck_assert_int_eq(r->cycles, 1);
    cs_nccl_log_fini(&log);
    cs_diags_fini(&d);
}
END_TEST

/* -S timestamps and -C cputime (nccl-tests 2.17.8), plain and gzip. */
static void check_timestamps(const struct cs_nccl_log *log)
{
    ck_assert_uint_eq(log->n_runs, 1);
    const struct cs_nccl_run *r = &log->runs[0];
    ck_assert_str_eq(r->tool, "nccl-tests");
    ck_assert_str_eq(r->version, "2.17.8");
    ck_assert(r->cputime);
    ck_assert(!r->per_iter);
    ck_assert_int_eq(r->op, CS_COLL_ALL_REDUCE);
    ck_assert_int_eq(r->ranks, 8);
    ck_assert_int_eq(r->nodes, 1);
    ck_assert_str_eq(cs_calib_gpu_catalog_name(r->gpu), "H100-SXM5-80GB");
    ck_assert_uint_eq(r->n_rows, 3);
    ck_assert_int_eq(r->rows[0].line, 21);
    ck_assert_str_eq(r->rows[0].stamp, "2025-11-03 14:22:07");
    ck_assert_str_eq(r->rows[2].stamp, "2025-11-03 14:22:10");
    ck_assert_double_eq_tol(r->rows[0].time_us[0], 60.0, 1e-12);
    /* 8388608 B / 60 us = 139.81 GB/s; x 2(8-1)/8 = 244.67. */
    ck_assert_double_eq_tol(r->rows[0].busbw_gbps[0], 244.67, 1e-12);
    /* 33554432 B / 178 us = 188.51 GB/s; x 1.75 = 329.89. */
    ck_assert_double_eq_tol(r->rows[2].time_us[1], 178.0, 1e-12);
    ck_assert_double_eq_tol(r->rows[2].busbw_gbps[1], 329.89, 1e-12);
    ck_assert_int_eq(r->rows[2].wrong[1], 0);
    ck_assert(isnan(r->rows[0].iter_min_us[0]));
}

START_TEST(test_nccl_timestamps_gzip)
{
    cs_diags d;
    cs_diags_init(&d);
    struct cs_nccl_log log;
    ck_assert_int_eq(cs_nccl_parse_file(ndata("v2_17_timestamps_cputime.txt"), CS_COLL_OP_COUNT, &d, &log), CS_OK);
    check_timestamps(&log);
    cs_nccl_log_fini(&log);
    /* The same log gzip-compressed (gzip -9n): read through zlib. */
    ck_assert_int_eq(cs_nccl_parse_file(ndata("v2_17_timestamps_cputime.txt.gz"), CS_COLL_OP_COUNT, &d, &log),
                     CS_OK);
    check_timestamps(&log);
    ck_assert_str_eq(log.runs[0].file + strlen(log.runs[0].file) - 31, "v2_17_timestamps_cputime.txt.gz");
    cs_nccl_log_fini(&log);
    ck_assert_uint_eq(d.n, 0);
    cs_diags_fini(&d);
}
END_TEST

/* -I per-iteration columns with -S (nccl-tests 2.19.6): 21 fields + 2. */
START_TEST(test_nccl_per_iter)
{
    cs_diags d;
    cs_diags_init(&d);
    struct cs_nccl_log log;
    ck_assert_int_eq(cs_nccl_parse_file_ex(ndata("v2_19_per_iter.txt"), CS_COLL_OP_COUNT, CS_NCCL_STRICT, &d, &log),
                     CS_OK);
    ck_assert_uint_eq(log.n_runs, 1);
    const struct cs_nccl_run *r = &log.runs[0];
    ck_assert_str_eq(r->version, "2.19.6");
    ck_assert(r->per_iter);
    ck_assert_int_eq(r->op, CS_COLL_REDUCE_SCATTER);
    ck_assert_int_eq(r->ranks, 2);
    ck_assert_str_eq(cs_calib_gpu_catalog_name(r->gpu), "H200-SXM-141GB");
    ck_assert_uint_eq(r->n_rows, 3);
    const struct cs_nccl_row *w = &r->rows[1];
    ck_assert_double_eq(w->size_bytes, 2097152);
    ck_assert_double_eq_tol(w->time_us[0], 60.0, 1e-12);
    ck_assert_double_eq_tol(w->busbw_gbps[0], 17.48, 1e-12); /* 2097152 / 60 us = 34.95 GB/s x 1/2 */
    ck_assert_double_eq_tol(w->iter_min_us[0], 58.0, 1e-12);
    ck_assert_double_eq_tol(w->iter_max_us[0], 66.0, 1e-12);
    ck_assert_double_eq_tol(w->iter_p99_us[0], 65.0, 1e-12);
    ck_assert_double_eq_tol(w->iter_cv_pct[0], 2.0, 1e-12);
    ck_assert_double_eq_tol(w->time_us[1], 61.0, 1e-12);
    ck_assert_double_eq_tol(w->iter_min_us[1], 59.5, 1e-12);
    ck_assert_double_eq_tol(w->iter_cv_pct[1], 2.25, 1e-12);
    ck_assert_str_eq(w->stamp, "2026-07-01 09:00:02");
    cs_nccl_log_fini(&log);
    ck_assert_uint_eq(d.n, 0);
    cs_diags_fini(&d);
}
END_TEST

/* mpirun --tag-output with NCCL INFO/WARN lines, an Open MPI warning and a
 * row cut by another rank's output (line 26). */

/* A Ray/SkyPilot worker prefix before Open MPI's tag: "(head, rank=0,
 * pid=3808) [1,0]<stdout>:" (the GCP A3 Ultra log in validation/); the row
 * after both prefixes is read as usual: 1 MiB in 100 us is 10.49 GB/s algbw,
 * x 2 x 15/16 = 19.66 GB/s busbw for 16 ranks, as printed. A parenthesis
 * that names no rank is not a prefix. */
START_TEST(test_nccl_ray_prefix)
{
    const char *txt =
        "(head, rank=0, pid=3808) [1,0]<stdout>:# nThread 1 nGpus 1 minBytes 1048576 maxBytes 1048576\n"
        "(head, rank=0, pid=3808) [1,0]<stdout>:     1048576        262144     float     sum      -1"
        "    100.0   10.49   19.66      0    100.0   10.49   19.66      0\n"
        "(note) 2097152 524288 float sum -1 1.0 1.0 1.0 0 1.0 1.0 1.0 0\n";
    struct cs_nccl_log log;
    cs_diags d;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_nccl_parse_buffer("ray.txt", txt, strlen(txt), CS_COLL_ALL_REDUCE, &d, &log), CS_OK);
    ck_assert_uint_eq(log.n_runs, 1);
    ck_assert_uint_eq(log.runs[0].n_rows, 1);
    ck_assert_double_eq(log.runs[0].rows[0].size_bytes, 1048576.0);
    ck_assert_double_eq_tol(log.runs[0].rows[0].busbw_gbps[0], 19.66, 1e-9);
    cs_nccl_log_fini(&log);
    cs_diags_fini(&d);
}
END_TEST

START_TEST(test_nccl_interleaved)
{
    cs_diags d;
    cs_diags_init(&d);
    struct cs_nccl_log log;
    ck_assert_int_eq(cs_nccl_parse_file(ndata("mpirun_interleaved.txt"), CS_COLL_OP_COUNT, &d, &log), CS_OK);
    ck_assert_uint_eq(log.skipped_rows, 1);
    ck_assert_uint_eq(log.n_runs, 1);
    const struct cs_nccl_run *r = &log.runs[0];
    ck_assert_int_eq(r->op, CS_COLL_ALL_REDUCE);
    ck_assert_int_eq(r->algo, CS_COLL_RING); /* a rank's "NCCL_ALGO set by environment to Ring" */
    ck_assert_int_eq(r->ranks, 2);
    ck_assert_int_eq(r->nodes, 2);
    ck_assert_uint_eq(r->n_rows, 3);
    ck_assert_double_eq(r->rows[0].size_bytes, 1048576);
    ck_assert_double_eq(r->rows[1].size_bytes, 4194304);
    ck_assert_int_eq(r->rows[1].line, 27);
    ck_assert_double_eq_tol(r->rows[1].time_us[0], 110.0, 1e-12);
    ck_assert_int_eq(r->rows[2].line, 29); /* after a rank's NCCL INFO line */
    ck_assert_double_eq_tol(r->rows[2].busbw_gbps[1], 42.37, 1e-12);
    ck_assert_uint_eq(count_sev(&d, CS_SEV_WARNING), 1);
    ck_assert_uint_eq(cs_diags_errors(&d), 0);
    /* 18 fields: the 6 of the row before the cut, then the 12 words of the WARN line. */
    ck_assert(has_diag(&d, "mpirun_interleaved.txt:26: warning: expected an nccl-tests row (size count type redop "
                           "[root] time algbw busbw #wrong [time algbw busbw #wrong]), got 18 fields at column 15; "
                           "row skipped (--strict makes it an error)"));
    cs_nccl_log_fini(&log);
    cs_diags_fini(&d);
    /* Strict: an error at the row's column in the file (after "[1,0]<stdout>:", 14 characters). */
    cs_diags_init(&d);
    ck_assert_int_eq(cs_nccl_parse_file_ex(ndata("mpirun_interleaved.txt"), CS_COLL_OP_COUNT, CS_NCCL_STRICT, &d,
                                           &log),
                     CS_ECONFIG);
    ck_assert(has_diag(&d, "mpirun_interleaved.txt:26:15: error: expected an nccl-tests row"));
    cs_diags_fini(&d);
}
END_TEST

/* -N 2 (the sweep twice in one table: averaged per size) and -d all (one run
 * per data type), under srun -l ("0: " labels). */
START_TEST(test_nccl_cycles_dtypes)
{
    cs_diags d;
    cs_diags_init(&d);
    struct cs_nccl_log log;
    ck_assert_int_eq(cs_nccl_parse_file(ndata("cycles_dtypes_srun.txt"), CS_COLL_OP_COUNT, &d, &log), CS_OK);
    ck_assert_uint_eq(d.n, 0);
    ck_assert_uint_eq(log.n_runs, 2);
    const struct cs_nccl_run *f = &log.runs[0], *h = &log.runs[1];
    ck_assert_str_eq(f->dtype, "float");
    ck_assert_str_eq(h->dtype, "half");
    ck_assert_str_eq(f->redop, "sum");
    for (int k = 0; k < 2; k++) {
        const struct cs_nccl_run *r = &log.runs[k];
        ck_assert_int_eq(r->op, CS_COLL_ALL_REDUCE);
        ck_assert_int_eq(r->ranks, 4);
        ck_assert_int_eq(r->nodes, 1);
        ck_assert_str_eq(cs_calib_gpu_catalog_name(r->gpu), "A100-SXM4-40GB");
        ck_assert_int_eq(r->cycles, 2);
        ck_assert_uint_eq(r->n_rows, 3);
        ck_assert_int_eq(r->rows[0].cycles, 2);
    }
    ck_assert_int_eq(f->rows[0].line, 18);
    ck_assert_double_eq_tol(f->rows[0].time_us[0], 32.0, 1e-12);  /* (30 + 34) / 2 */
    ck_assert_double_eq_tol(f->rows[0].busbw_gbps[0], 49.345, 1e-9); /* (52.43 + 46.26) / 2 */
    ck_assert_double_eq_tol(f->rows[1].time_us[0], 52.0, 1e-12);  /* (50 + 54) / 2 */
    ck_assert_int_eq(f->rows[1].wrong[1], 2);                      /* the max of 0 and 2 */
    ck_assert_double_eq_tol(h->rows[2].time_us[0], 94.0, 1e-12);  /* (92 + 96) / 2 */
    ck_assert_double_eq_tol(h->rows[2].time_us[1], 93.0, 1e-12);  /* (91 + 95) / 2 */
    ck_assert_double_eq(h->rows[2].count, 2097152);
    cs_nccl_log_fini(&log);
    cs_diags_fini(&d);
}
END_TEST

/* rccl-tests: MI300X with stress cycles; an in-place-only (-O 0) table. */
START_TEST(test_nccl_rccl)
{
    cs_diags d;
    cs_diags_init(&d);
    struct cs_nccl_log log;
    ck_assert_int_eq(cs_nccl_parse_file_ex(ndata("rccl_mi300x.txt"), CS_COLL_OP_COUNT, CS_NCCL_STRICT, &d, &log),
                     CS_OK);
    ck_assert_uint_eq(log.n_runs, 1);
    const struct cs_nccl_run *r = &log.runs[0];
    ck_assert_str_eq(r->tool, "rccl-tests");
    ck_assert_str_eq(r->version, "develop:5272cd1");
    ck_assert_str_eq(r->gpu, "AMD Instinct MI300X");
    ck_assert_str_eq(cs_calib_gpu_catalog_name(r->gpu), "MI300X");
    ck_assert_int_eq(r->op, CS_COLL_ALL_REDUCE);
    ck_assert_int_eq(r->ranks, 8);
    ck_assert_int_eq(r->nodes, 1);
    ck_assert_int_eq(r->cycles, 2);
    ck_assert_uint_eq(r->n_rows, 3);
    ck_assert_int_eq(r->rows[0].line, 21);
    ck_assert_double_eq_tol(r->rows[0].time_us[0], 152.0, 1e-12);      /* (150 + 154) / 2 */
    ck_assert_double_eq_tol(r->rows[0].time_us[1], 154.0, 1e-12);      /* (152 + 156) / 2 */
    ck_assert_double_eq_tol(r->rows[0].busbw_gbps[0], 193.19, 1e-9);   /* (195.73 + 190.65) / 2 */
    ck_assert_double_eq_tol(r->rows[2].time_us[0], 484.0, 1e-12);      /* (480 + 488) / 2 */
    cs_nccl_log_fini(&log);

    ck_assert_int_eq(cs_nccl_parse_file_ex(ndata("rccl_inplace_only.txt"), CS_COLL_OP_COUNT, CS_NCCL_STRICT, &d,
                                           &log),
                     CS_OK);
    r = &log.runs[0];
    ck_assert_str_eq(r->tool, "rccl-tests");
    ck_assert_str_eq(r->version, "2.17.9-develop:f220897c9b");
    ck_assert(r->in_place_only);
    ck_assert_str_eq(r->gpu, ""); /* the runtime printed no name */
    ck_assert_int_eq(r->op, CS_COLL_ALL_GATHER);
    ck_assert_int_eq(r->ranks, 8);
    ck_assert_uint_eq(r->n_rows, 3);
    ck_assert(isnan(r->rows[0].time_us[0]));
    ck_assert_double_eq_tol(r->rows[0].time_us[1], 20.0, 1e-12);
    ck_assert_double_eq_tol(r->rows[0].busbw_gbps[1], 45.88, 1e-12); /* 1048576 / 20 us = 52.43 x 7/8 */
    ck_assert_double_eq_tol(cs_nccl_row_time_us(&r->rows[2]), 50.0, 1e-12);
    /* The curve fit uses the in-place half of such a table. */
    struct cs_calib_curve cv;
    struct cs_calib_fit fit;
    ck_assert_int_eq(cs_calib_fit_curve(r, &cv, &fit), CS_OK);
    ck_assert_uint_eq(fit.n, 3);
    cs_calib_fit_fini(&fit);
    cs_nccl_log_fini(&log);
    ck_assert_uint_eq(d.n, 0);
    cs_diags_fini(&d);
}
END_TEST

/* nccl-tests -J: the one-line document, pretty-printed, gzip-compressed;
 * results[1] has "time": "nan" (what util.cu writes for NaN). */
static void check_json(const struct cs_nccl_log *log)
{
    ck_assert_uint_eq(log->skipped_rows, 1);
    ck_assert_uint_eq(log->n_runs, 1);
    const struct cs_nccl_run *r = &log->runs[0];
    ck_assert(r->json);
    ck_assert_int_eq(r->op, CS_COLL_ALL_REDUCE); /* args[0] ./build/all_reduce_perf */
    ck_assert_int_eq(r->algo, CS_COLL_TREE);     /* env NCCL_ALGO=Tree */
    ck_assert_int_eq(r->ranks, 8);               /* 1 process x nthreads 1 x ngpus 8 */
    ck_assert_int_eq(r->nodes, 1);
    ck_assert_str_eq(cs_calib_gpu_catalog_name(r->gpu), "H100-SXM5-80GB");
    ck_assert_str_eq(r->dtype, "float");
    ck_assert_uint_eq(r->n_rows, 3);
    ck_assert_double_eq(r->rows[0].size_bytes, 1048576);
    ck_assert_double_eq(r->rows[0].count, 262144);
    ck_assert_double_eq_tol(r->rows[0].time_us[0], 20.0, 1e-12);
    ck_assert_double_eq_tol(r->rows[0].busbw_gbps[0], 91.7504, 1e-6); /* 1048576 / 20 us = 52.4288 x 1.75 */
    ck_assert_double_eq_tol(r->rows[0].time_us[1], 19.5, 1e-12);
    ck_assert_int_eq(r->rows[0].wrong[0], -1); /* -c 0: "nwrong": null */
    ck_assert_double_eq(r->rows[1].size_bytes, 4194304);
    ck_assert_double_eq_tol(r->rows[2].time_us[0], 90.0, 1e-12);
}

START_TEST(test_nccl_json)
{
    cs_diags d;
    cs_diags_init(&d);
    struct cs_nccl_log log;
    ck_assert_int_eq(cs_nccl_parse_file(ndata("allreduce_J.json"), CS_COLL_OP_COUNT, &d, &log), CS_OK);
    check_json(&log);
    ck_assert(has_diag(&d, "allreduce_J.json:1: warning: results[1].out_of_place.time: expected a non-negative "
                           "number of microseconds; row skipped"));
    cs_nccl_log_fini(&log);
    ck_assert_int_eq(cs_nccl_parse_file(ndata("allreduce_J_pretty.json"), CS_COLL_OP_COUNT, &d, &log), CS_OK);
    check_json(&log);
    ck_assert(has_diag(&d, "allreduce_J_pretty.json:73: warning: results[1].out_of_place.time")); /* its "size" line */
    cs_nccl_log_fini(&log);
    ck_assert_int_eq(cs_nccl_parse_file(ndata("allreduce_J.json.gz"), CS_COLL_OP_COUNT, &d, &log), CS_OK);
    check_json(&log);
    cs_nccl_log_fini(&log);
    ck_assert_uint_eq(cs_diags_errors(&d), 0);
    /* Strict: the same entry is an error. */
    ck_assert_int_eq(cs_nccl_parse_file_ex(ndata("allreduce_J.json"), CS_COLL_OP_COUNT, CS_NCCL_STRICT, &d, &log),
                     CS_ECONFIG);
    ck_assert(has_diag(&d, "allreduce_J.json:1: error: results[1].out_of_place.time"));
    cs_diags_fini(&d);
    /* Not the document -J writes. */
    cs_diags_init(&d);
    const char *bad = "{\"results\": [\n  {\"size\": 8,";
    ck_assert_int_eq(cs_nccl_parse_buffer("b.json", bad, strlen(bad), CS_COLL_OP_COUNT, &d, &log), CS_ECONFIG);
    ck_assert(has_diag(&d, "b.json:2:"));
    ck_assert(has_diag(&d, "malformed JSON"));
    ck_assert_int_eq(cs_nccl_parse_buffer("c.json", "{}", 2, CS_COLL_OP_COUNT, &d, &log), CS_ECONFIG);
    ck_assert(has_diag(&d, "c.json:1:1: error: results: expected the array"));
    cs_diags_fini(&d);
}
END_TEST

/* 12 malformed rows: 10 warnings, then one summary; all 12 counted. */
START_TEST(test_nccl_warning_cap)
{
    cs_diags d;
    cs_diags_init(&d);
    struct cs_nccl_log log;
    ck_assert_int_eq(cs_nccl_parse_file(ndata("many_bad_rows.txt"), CS_COLL_OP_COUNT, &d, &log), CS_OK);
    ck_assert_uint_eq(log.skipped_rows, 12);
    ck_assert_uint_eq(log.runs[0].n_rows, 3);
    ck_assert_int_eq(log.runs[0].op, CS_COLL_BROADCAST);
    ck_assert_uint_eq(count_sev(&d, CS_SEV_WARNING), 11);
    ck_assert(has_diag(&d, "many_bad_rows.txt:9: warning: out-of-place busbw (GB/s): expected a non-negative "
                           "number, got \"x\""));
    ck_assert(has_diag(&d, "many_bad_rows.txt:18: warning: out-of-place busbw")); /* the 10th */
    ck_assert(!has_diag(&d, "many_bad_rows.txt:19:"));
    ck_assert(has_diag(&d, "many_bad_rows.txt: warning: 12 malformed rows skipped in all (the first 10 are named "
                           "above)"));
    cs_nccl_log_fini(&log);
    cs_diags_fini(&d);
}
END_TEST

/* X_perf_SUFFIX binaries (NAME_SUFFIX builds) under a directory whose name
 * also ends in _perf...; other programs' lines starting with a number. */
START_TEST(test_nccl_command_lines)
{
    const char *txt = "$ mpirun -np 8 /opt/nccl_perf_tests/build/all_gather_perf_mpi -b 8 -e 16 -g 1\n"
                      "2 warnings generated by the job prolog\n"
                      "10.0.0.7:1234:1250 [0] NCCL INFO Channel 00/02\n"
                      "# nThread 1 nGpus 1 minBytes 8 maxBytes 16 step: 2(factor) warmup iters: 5 iters: 20\n"
                      "           8             0     float    none      -1    10.00    0.00    0.00       0"
                      "    10.00    0.00    0.00       0\n"
                      "          16             0     float    none      -1    11.00    0.00    0.00       0"
                      "    11.00    0.00    0.00       0\n";
    cs_diags d;
    cs_diags_init(&d);
    struct cs_nccl_log log;
    ck_assert_int_eq(cs_nccl_parse_buffer("cmd.txt", txt, strlen(txt), CS_COLL_OP_COUNT, &d, &log), CS_OK);
    ck_assert_int_eq(log.runs[0].op, CS_COLL_ALL_GATHER);
    ck_assert_uint_eq(log.runs[0].n_rows, 2);
    ck_assert_uint_eq(log.skipped_rows, 0);
    ck_assert_uint_eq(d.n, 0);
    cs_nccl_log_fini(&log);
    /* A row split after its size (indented, one number: a broken row, not
     * another program's line): skipped with a warning, not lost silently. */
    const char *split = "# Collective test starting: all_gather_perf\n"
                        "           8             0     float    none      -1    10.00    0.00    0.00       0"
                        "    10.00    0.00    0.00       0\n"
                        "          16\n"
                        "7 processes are still running\n";
    ck_assert_int_eq(cs_nccl_parse_buffer("split.txt", split, strlen(split), CS_COLL_OP_COUNT, &d, &log), CS_OK);
    ck_assert_uint_eq(log.skipped_rows, 1);
    ck_assert_uint_eq(log.runs[0].n_rows, 1);
    ck_assert(has_diag(&d, "split.txt:3: warning: expected an nccl-tests row"));
    ck_assert_uint_eq(d.n, 1); /* line 4 is not indented: another program's */
    cs_nccl_log_fini(&log);
    cs_diags_fini(&d);
}
END_TEST

/* The calibration inputs gzip-compressed (gzip -9n of tests/data/calib/
 * fixtures) read as the plain ones do. */
START_TEST(test_nccl_gz_inputs)
{
    cs_diags d;
    cs_diags_init(&d);
    struct cs_gemm_row *rows = NULL;
    size_t n = 0;
    ck_assert_int_eq(cs_gemm_csv_load(data("gemm_good.csv.gz"), &d, &rows, &n), CS_OK);
    ck_assert_uint_eq(n, 2);
    ck_assert_double_eq(rows[0].m, 8192);
    ck_assert_double_eq_tol(rows[0].tflops, 687.194767, 1e-5); /* 2 x 8192^3 / 0.0016 s */
    free(rows);
    struct cs_fio_job *jobs = NULL;
    ck_assert_int_eq(cs_fio_json_load(data("fio_good.json.gz"), &d, &jobs, &n), CS_OK);
    ck_assert_uint_eq(n, 2);
    ck_assert_double_eq(jobs[0].bw_bytes_per_s, 6442450944.0);
    ck_assert_double_eq(jobs[1].bw_bytes_per_s, 3221225472.0);
    free(jobs);
    struct cs_steps_row *srows = NULL;
    ck_assert_int_eq(cs_steps_csv_load(data("steps_good.csv.gz"), &d, &srows, &n), CS_OK);
    ck_assert_uint_eq(n, 2);
    ck_assert_str_eq(srows[0].label, "tp8");
    ck_assert_double_eq(srows[0].measured_s, 10.5);
    cs_steps_rows_free(srows, n);
    ck_assert_uint_eq(d.n, 0);
    cs_diags_fini(&d);
}
END_TEST

static Suite *nccl_suite(void)
{
    Suite *s = suite_create("nccl");
    TCase *tc = tcase_create("parsers");
    tcase_set_timeout(tc, 20);
    tcase_add_test(tc, test_nccl_two_runs);
    tcase_add_test(tc, test_nccl_many_hosts);
    tcase_add_test(tc, test_nccl_old_format);
    tcase_add_test(tc, test_nccl_op_hint);
    tcase_add_test(tc, test_nccl_malformed);
    tcase_add_test(tc, test_nccl_reference_logs);
    tcase_add_test(tc, test_nccl_gpu_names);
    tcase_add_test(tc, test_nccl_gemm_csv);
    tcase_add_test(tc, test_nccl_fio_json);
    tcase_add_test(tc, test_nccl_steps_csv);
    tcase_add_test(tc, test_nccl_v2_13);
    tcase_add_test(tc, test_nccl_timestamps_gzip);
    tcase_add_test(tc, test_nccl_per_iter);
    tcase_add_test(tc, test_nccl_interleaved);
    tcase_add_test(tc, test_nccl_ray_prefix);
    tcase_add_test(tc, test_nccl_cycles_dtypes);
    tcase_add_test(tc, test_nccl_rccl);
    tcase_add_test(tc, test_nccl_json);
    tcase_add_test(tc, test_nccl_warning_cap);
    tcase_add_test(tc, test_nccl_command_lines);
    tcase_add_test(tc, test_nccl_gz_inputs);
    tcase_add_test(tc, test_nccl_empty_host_huge_wrong);
    tcase_add_test(tc, test_nccl_steps_base_elsewhere);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return cs_test_run(nccl_suite());
}
