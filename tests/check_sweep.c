/* check_sweep.c: sweep files (config/sweep.c), the expression evaluator,
 * and running, resuming, sharding and merging sweeps
 * (report/sweep_report.c). */
#define _POSIX_C_SOURCE 200809L
#include "clustersim/config/catalog.h"
#include "clustersim/app/sweep_run.h"
#include "clustersim/config/sweep.h"
#include "clustersim/report/sweep_plot.h"
#include "clustersim/base/xmalloc.h"
#include "test_util.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

static cs_catalog *cat;

static void setup(void)
{
    cs_diags d;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_catalog_load_dir(cs_catalog_default_dir(), &d, &cat), CS_OK);
    cs_diags_fini(&d);
}

static void teardown(void) { cs_catalog_destroy(cat); }

static cs_sweep *load_ok(const char *rel)
{
    cs_diags d;
    cs_diags_init(&d);
    cs_sweep *sw = NULL;
    char path[4096];
    snprintf(path, sizeof path, "%s", cs_test_path(rel));
    cs_status st = cs_sweep_load(path, &d, &sw);
    for (size_t i = 0; i < d.n; i++)
        fprintf(stderr, "%s:%d: %s\n", d.items[i].file, d.items[i].line, d.items[i].msg);
    ck_assert_int_eq(st, CS_OK);
    cs_diags_fini(&d);
    return sw;
}

static char *slurp(const char *dir, const char *name)
{
    char p[4096];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "rb");
    ck_assert_ptr_nonnull(f);
    char *buf = calloc(1, 1 << 20);
    size_t n = fread(buf, 1, (1 << 20) - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static void spit(const char *dir, const char *name, const char *text)
{
    char p[4096];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "wb");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

static void rmtree(const char *dir)
{
    static const char *const names[] = {"results.csv", "results.jsonl", "sweep.json"};
    for (int i = 0; i < 3; i++) {
        char p[4096];
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        unlink(p);
    }
    rmdir(dir);
}

static void tmpdir(char *buf, size_t n)
{
    snprintf(buf, n, "/tmp/check_sweep.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(buf));
}

START_TEST(test_sweep_grid_points_ranges_derive_constraints)
{
    /* grid.yaml: nodes {1..8 factor 2} = 1, 2, 4, 8 (slowest) x tp [4, 8];
     * 8 points. dp = gpus / (tp * pp): point 3 = nodes 2, tp 8 -> 16 / 8 = 2.
     * Point 0 (nodes 1, tp 4) fails "nodes > 1 || tp == 8". */
    cs_sweep *sw = load_ok("tests/data/sweep/grid.yaml");
    ck_assert_uint_eq(cs_sweep_points(sw), 8);
    ck_assert_uint_eq(cs_sweep_ncols(sw), 3);
    ck_assert_str_eq(cs_sweep_col(sw, 2), "workload.parallelism.dp");
    cs_diags d;
    cs_diags_init(&d);
    struct cs_sweep_point pt;
    struct cs_scenario s;
    ck_assert_int_eq(cs_sweep_point_build(sw, 0, cat, &d, &pt, &s), CS_OK);
    ck_assert(pt.skipped);
    ck_assert_ptr_nonnull(strstr(pt.reason, "is false"));
    ck_assert_ptr_nonnull(strstr(pt.reason, "grid.yaml:11"));
    cs_sweep_point_fini(&pt);
    ck_assert_int_eq(cs_sweep_point_build(sw, 3, cat, &d, &pt, &s), CS_OK);
    ck_assert(!pt.skipped);
    ck_assert_str_eq(pt.values[0], "2");
    ck_assert_str_eq(pt.values[1], "8");
    ck_assert_str_eq(pt.values[2], "2");
    ck_assert_int_eq(s.cluster.nodes, 2);
    ck_assert_int_eq(s.workload.par.tp, 8);
    ck_assert_int_eq(s.workload.par.dp, 2);
    ck_assert_uint_eq(pt.key, cs_sweep_point_key(sw, 3));
    ck_assert_uint_ne(pt.key, cs_sweep_point_key(sw, 2));
    cs_scenario_fini(&s);
    cs_sweep_point_fini(&pt);
    /* Point 7: nodes 8 (the range's last value, 1 x 2^3), tp 8 -> dp 8. */
    ck_assert_int_eq(cs_sweep_point_build(sw, 7, cat, &d, &pt, &s), CS_OK);
    ck_assert_int_eq(s.cluster.nodes, 8);
    ck_assert_int_eq(s.workload.par.dp, 8);
    cs_scenario_fini(&s);
    cs_sweep_point_fini(&pt);
    cs_diags_fini(&d);
    cs_sweep_destroy(sw);
}
END_TEST

START_TEST(test_sweep_zip_mode)
{
    /* zip.yaml: (nodes, global_batch) = (1,16), (2,32), (4,64); dp = gpus/tp:
     * point 2 -> 32 / 8 = 4. */
    cs_sweep *sw = load_ok("tests/data/sweep/zip.yaml");
    ck_assert_uint_eq(cs_sweep_points(sw), 3);
    cs_diags d;
    cs_diags_init(&d);
    struct cs_sweep_point pt;
    struct cs_scenario s;
    ck_assert_int_eq(cs_sweep_point_build(sw, 2, cat, &d, &pt, &s), CS_OK);
    ck_assert_int_eq(s.cluster.nodes, 4);
    ck_assert_int_eq(s.workload.global_batch, 64);
    ck_assert_int_eq(s.workload.par.dp, 4);
    cs_scenario_fini(&s);
    cs_sweep_point_fini(&pt);
    cs_diags_fini(&d);
    cs_sweep_destroy(sw);
}
END_TEST

static void expect_bad(const char *rel, int line, const char *text, bool at_check)
{
    cs_diags d;
    cs_diags_init(&d);
    cs_sweep *sw = NULL;
    char path[4096];
    snprintf(path, sizeof path, "%s", cs_test_path(rel));
    cs_status st = cs_sweep_load(path, &d, &sw);
    if (at_check) {
        ck_assert_int_eq(st, CS_OK);
        st = cs_sweep_check(sw, cat, &d);
        cs_sweep_destroy(sw);
    }
    ck_assert_int_eq(st, CS_ECONFIG);
    bool found = false;
    for (size_t i = 0; i < d.n; i++)
        if (d.items[i].line == line && strstr(d.items[i].msg, text) &&
            strstr(d.items[i].file, rel))
            found = true;
    if (!found)
        for (size_t i = 0; i < d.n; i++)
            fprintf(stderr, "got %s:%d: %s\n", d.items[i].file, d.items[i].line, d.items[i].msg);
    ck_assert_msg(found, "%s: expected \"%s\" at line %d", rel, text, line);
    cs_diags_fini(&d);
}

/* A 1.5 KB sweep file of 32 ranges of 10^6 values once expanded them all
 * (4.25 GB, 18 s of CPU) before the grid-size check: the size is now
 * counted first, so each refusal costs well under a second of CPU. Zip mode
 * multiplies values by axes, so the values of all axes are bounded too. */
START_TEST(test_sweep_size_counted_before_expanding)
{
    clock_t t0 = clock();
    expect_bad("tests/data/sweep/bad_huge_grid.yaml", 4, "the grid has more than 100000000 points", false);
    expect_bad("tests/data/sweep/bad_huge_zip.yaml", 4, "32000000 values in all (at most 2000000)", false);
    double cpu = (double)(clock() - t0) / CLOCKS_PER_SEC;
    ck_assert_msg(cpu < 1.0, "refusing the oversized sweeps took %.2f s of CPU", cpu);
}
END_TEST

START_TEST(test_sweep_bad_files_name_file_line_key)
{
    expect_bad("tests/data/sweep/bad_zip.yaml", 5, "zip mode needs every axis", false);
    expect_bad("tests/data/sweep/bad_top.yaml", 2, "did you mean \"axes\"", false);
    expect_bad("tests/data/sweep/bad_expr.yaml", 5, "expression ends too early", false);
    expect_bad("tests/data/sweep/bad_axis_key.yaml", 3, "did you mean \"nodes\"", true);
    expect_bad("tests/data/sweep/bad_through_scalar.yaml", 3, "cluster.gpu is a scalar", true);
}
END_TEST

static void run_into(cs_sweep *sw, const char *dir, int threads, int k, int n,
                     struct cs_sweep_run_stats *st)
{
    struct cs_sweep_run_opts o = {threads, k, n, NULL, NULL};
    cs_diags d;
    cs_diags_init(&d);
    cs_status rc = cs_sweep_run(sw, cat, dir, &o, st, &d);
    ck_assert_msg(rc == CS_OK, "cs_sweep_run: %s", d.n ? d.items[0].msg : "");
    ck_assert_uint_eq(d.n, 0);
    cs_diags_fini(&d);
}

START_TEST(test_sweep_results_identical_whatever_jobs)
{
    cs_sweep *sw = load_ok("tests/data/sweep/grid.yaml");
    char a[64], b[64];
    tmpdir(a, sizeof a);
    tmpdir(b, sizeof b);
    struct cs_sweep_run_stats st;
    run_into(sw, a, 1, 1, 1, &st);
    ck_assert_uint_eq(st.total, 8);
    ck_assert_uint_eq(st.ran, 8);
    ck_assert_uint_eq(st.skipped, 1);
    run_into(sw, b, 4, 1, 1, &st);
    char *ja = slurp(a, "results.jsonl"), *jb = slurp(b, "results.jsonl");
    char *ca = slurp(a, "results.csv"), *cb = slurp(b, "results.csv");
    ck_assert_str_eq(ja, jb);
    ck_assert_str_eq(ca, cb);
    /* One header and 8 rows; rows in point order. */
    int lines = 0;
    for (char *p = ca; *p; p++)
        lines += *p == '\n';
    ck_assert_int_eq(lines, 9);
    ck_assert_ptr_nonnull(strstr(ca, "point,key,status,reason,cluster.nodes"));
    ck_assert(strstr(ja, "\"point\":0,") < strstr(ja, "\"point\":7,"));
    free(ja);
    free(jb);
    free(ca);
    free(cb);
    rmtree(a);
    rmtree(b);
    cs_sweep_destroy(sw);
}
END_TEST

START_TEST(test_sweep_resume_after_kill_loses_nothing)
{
    /* A full run, then a directory holding what a killed run leaves: three
     * complete rows (out of order) and half a row. Running again skips the
     * three, reruns the rest and gives the same files as the full run. */
    cs_sweep *sw = load_ok("tests/data/sweep/grid.yaml");
    char a[64], c[64];
    tmpdir(a, sizeof a);
    tmpdir(c, sizeof c);
    struct cs_sweep_run_stats st;
    run_into(sw, a, 2, 1, 1, &st);
    char *ja = slurp(a, "results.jsonl");
    char *man = slurp(a, "sweep.json");
    /* rows 5, 1, 2 complete, then the first half of row 6 */
    char *rows[8];
    char *p = ja;
    for (int i = 0; i < 8; i++) {
        char *nl = strchr(p, '\n');
        rows[i] = strndup(p, (size_t)(nl - p + 1));
        p = nl + 1;
    }
    char partial[8192];
    snprintf(partial, sizeof partial, "%s%s%s%.*s", rows[5], rows[1], rows[2],
             (int)(strlen(rows[6]) / 2), rows[6]);
    spit(c, "sweep.json", man);
    spit(c, "results.jsonl", partial);
    run_into(sw, c, 2, 1, 1, &st);
    ck_assert_uint_eq(st.resumed, 3);
    ck_assert_uint_eq(st.ran, 5);
    char *jc = slurp(c, "results.jsonl");
    ck_assert_str_eq(ja, jc);
    char *ca = slurp(a, "results.csv"), *cc = slurp(c, "results.csv");
    ck_assert_str_eq(ca, cc);
    /* A third start has nothing left to do. */
    run_into(sw, c, 2, 1, 1, &st);
    ck_assert_uint_eq(st.ran, 0);
    ck_assert_uint_eq(st.resumed, 8);
    for (int i = 0; i < 8; i++)
        free(rows[i]);
    free(ja);
    free(jc);
    free(ca);
    free(cc);
    free(man);
    rmtree(a);
    rmtree(c);
    cs_sweep_destroy(sw);
}
END_TEST

START_TEST(test_sweep_shards_merge_and_refusals)
{
    cs_sweep *sw = load_ok("tests/data/sweep/grid.yaml");
    char a[64], s1[64], s2[64], m[64];
    tmpdir(a, sizeof a);
    tmpdir(s1, sizeof s1);
    tmpdir(s2, sizeof s2);
    tmpdir(m, sizeof m);
    struct cs_sweep_run_stats st;
    run_into(sw, a, 1, 1, 1, &st);
    run_into(sw, s1, 1, 1, 2, &st);
    ck_assert_uint_eq(st.total, 4); /* points 0, 2, 4, 6 */
    run_into(sw, s2, 2, 2, 2, &st);
    ck_assert_uint_eq(st.total, 4); /* points 1, 3, 5, 7 */
    cs_diags d;
    cs_diags_init(&d);
    const char *both[] = {s1, s2};
    ck_assert_int_eq(cs_sweep_merge(m, both, 2, &d), CS_OK);
    ck_assert_uint_eq(d.n, 0);
    char *ja = slurp(a, "results.jsonl"), *jm = slurp(m, "results.jsonl");
    ck_assert_str_eq(ja, jm);
    /* Shard 1 alone has points 0, 2, 4, 6: point 1 is the first missing.
     * The message is about the shards together: no file. */
    const char *one[] = {s1};
    ck_assert_int_eq(cs_sweep_merge(m, one, 1, &d), CS_ECONFIG);
    ck_assert_uint_eq(d.n, 1);
    ck_assert_ptr_null(d.items[0].file);
    ck_assert_str_eq(d.items[0].msg, "point 1 is missing from every shard: refusing to merge "
                                     "(run its shard again with the same command to finish it)");
    cs_diags_fini(&d);
    /* s1 twice: point 0, the first after sorting, is in both copies. */
    cs_diags_init(&d);
    const char *dup[] = {s1, s2, s1};
    ck_assert_int_eq(cs_sweep_merge(m, dup, 3, &d), CS_ECONFIG);
    ck_assert_uint_eq(d.n, 1);
    char *want = cs_xasprintf("point 0 is in two shards (%s/results.jsonl and %s/results.jsonl): "
                              "refusing to merge", s1, s1);
    ck_assert_str_eq(d.items[0].msg, want);
    free(want);
    cs_diags_fini(&d);
    /* The directory of shard 1 refuses shard 2's run. */
    cs_diags_init(&d);
    struct cs_sweep_run_opts o = {1, 2, 2, NULL, NULL};
    ck_assert_int_eq(cs_sweep_run(sw, cat, s1, &o, &st, &d), CS_ECONFIG);
    ck_assert_uint_eq(d.n, 1);
    ck_assert_ptr_null(d.items[0].file);
    want = cs_xasprintf("%s holds the results of another sweep or shard (sweep.json differs): "
                        "use another -o DIR or remove it", s1);
    ck_assert_str_eq(d.items[0].msg, want);
    free(want);
    cs_diags_fini(&d);
    free(ja);
    free(jm);
    rmtree(a);
    rmtree(s1);
    rmtree(s2);
    rmtree(m);
    cs_sweep_destroy(sw);
}
END_TEST

/* ---- results read back and figure data (report/sweep_plot.c) ---- */

static void rm_plot_dir(const char *dir)
{
    static const char *const names[] = {
        "results.jsonl",      "sweep.json",        "sweep_scaling.dat", "sweep_topology.dat",
        "sweep_cost.dat",     "sweep_goodput.dat", "sweep_throughput.dat", "sweep_scaling.gp",
        "sweep_topology.gp",  "sweep_cost.gp",     "sweep_goodput.gp",  "sweep_throughput.gp"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char p[4096];
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        unlink(p);
    }
    rmdir(dir);
}

START_TEST(test_sweep_plot_scaling_efficiency_by_hand)
{
    char dir[64];
    tmpdir(dir, sizeof dir);
    /* One axis (nodes) and one derived value (dp): the derived column must
     * not split the series. A skipped row is left out, and the partial last
     * line (a sweep killed mid-write) is ignored. */
    spit(dir, "sweep.json",
         "{\"sweep_hash\": \"0\", \"points\": 5, \"shard_k\": 1, \"shard_n\": 1, \"axes\": 1,"
         " \"variables\": 2, \"columns\": [\"point\", \"key\", \"status\", \"reason\","
         " \"cluster.nodes\", \"workload.parallelism.dp\", \"gpus\", \"tokens_per_s_per_gpu\","
         " \"mfu\"]}\n");
    spit(dir, "results.jsonl",
         "{\"point\":0,\"key\":\"a\",\"status\":\"ok\",\"reason\":\"\",\"cluster.nodes\":4,"
         "\"workload.parallelism.dp\":4,\"gpus\":32,\"tokens_per_s_per_gpu\":750,\"mfu\":0.3}\n"
         "{\"point\":1,\"key\":\"b\",\"status\":\"ok\",\"reason\":\"\",\"cluster.nodes\":1,"
         "\"workload.parallelism.dp\":1,\"gpus\":8,\"tokens_per_s_per_gpu\":1000,\"mfu\":0.4}\n"
         "{\"point\":2,\"key\":\"c\",\"status\":\"skipped\",\"reason\":\"tp > gpus\","
         "\"cluster.nodes\":3}\n"
         "{\"point\":3,\"key\":\"d\",\"status\":\"ok\",\"reason\":\"\",\"cluster.nodes\":2,"
         "\"workload.parallelism.dp\":2,\"gpus\":16,\"tokens_per_s_per_gpu\":900,\"mfu\":0.36}\n"
         "{\"point\":4,\"key\":\"e\",\"sta");
    struct cs_sweep_results r;
    cs_diags d;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_sweep_results_load(dir, &r, &d), CS_OK);
    ck_assert_uint_eq(r.nrows, 4);
    ck_assert_uint_eq(r.naxes, 1);
    ck_assert_uint_eq(r.nvars, 2);
    ck_assert_str_eq(cs_sweep_results_get(&r, 2, "reason"), "tp > gpus");
    ck_assert_ptr_null(cs_sweep_results_get(&r, 2, "gpus"));
    bool made[CS_SWEEP_FIG_COUNT];
    ck_assert_int_eq(cs_sweep_plot_data(&r, dir, made, &d), CS_OK);
    ck_assert_uint_eq(d.n, 0);
    cs_diags_fini(&d);
    ck_assert(made[CS_SWEEP_FIG_SCALING]);
    ck_assert(!made[CS_SWEEP_FIG_TOPOLOGY] && !made[CS_SWEEP_FIG_COST] &&
              !made[CS_SWEEP_FIG_GOODPUT]);
    /* Efficiency = tokens/s per GPU over that of the smallest point (8
     * GPUs, 1000): 16 GPUs 900/1000 = 90%, 32 GPUs 750/1000 = 75%; rows
     * sorted by GPUs though written 32, 8, 16; one series. */
    char *dat = slurp(dir, "sweep_scaling.dat");
    ck_assert_ptr_nonnull(strstr(dat, "gpus \"all points\" tokens_per_s_per_gpu mfu\n"
                                      "8 100 1000 0.4\n16 90 900 0.36\n32 75 750 0.3\n"));
    ck_assert_ptr_null(strstr(dat, "\n\n")); /* a single block */
    free(dat);
    cs_sweep_results_fini(&r);
    rm_plot_dir(dir);
}
END_TEST

START_TEST(test_sweep_plot_series_topology_cost_goodput)
{
    char dir[64];
    tmpdir(dir, sizeof dir);
    spit(dir, "sweep.json",
         "{\"axes\": 3, \"variables\": 3, \"columns\": [\"point\", \"key\", \"status\","
         " \"reason\", \"cluster.fabric.topology\", \"cluster.fabric.oversubscription\","
         " \"checkpoint.interval\", \"gpus\", \"tokens_per_s_per_gpu\", \"run.goodput\","
         " \"run.checkpoint_interval_s\"]}\n");
    /* Two topologies x two oversubscriptions, rows out of order. */
    spit(dir, "results.jsonl",
         "{\"status\":\"ok\",\"cluster.fabric.topology\":\"spine-leaf\","
         "\"cluster.fabric.oversubscription\":2,\"checkpoint.interval\":\"30min\",\"gpus\":8,"
         "\"tokens_per_s_per_gpu\":400,\"run.goodput\":0.9,\"run.checkpoint_interval_s\":1800}\n"
         "{\"status\":\"ok\",\"cluster.fabric.topology\":\"fat-tree\","
         "\"cluster.fabric.oversubscription\":2,\"checkpoint.interval\":\"30min\",\"gpus\":8,"
         "\"tokens_per_s_per_gpu\":450,\"run.goodput\":0.9,\"run.checkpoint_interval_s\":1800}\n"
         "{\"status\":\"ok\",\"cluster.fabric.topology\":\"fat-tree\","
         "\"cluster.fabric.oversubscription\":1,\"checkpoint.interval\":\"30min\",\"gpus\":8,"
         "\"tokens_per_s_per_gpu\":500,\"run.goodput\":0.9,\"run.checkpoint_interval_s\":1800}\n"
         "{\"status\":\"ok\",\"cluster.fabric.topology\":\"spine-leaf\","
         "\"cluster.fabric.oversubscription\":1,\"checkpoint.interval\":\"30min\",\"gpus\":8,"
         "\"tokens_per_s_per_gpu\":480,\"run.goodput\":0.9,\"run.checkpoint_interval_s\":1800}\n");
    struct cs_sweep_results r;
    cs_diags d;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_sweep_results_load(dir, &r, &d), CS_OK);
    bool made[CS_SWEEP_FIG_COUNT];
    ck_assert_int_eq(cs_sweep_plot_data(&r, dir, made, &d), CS_OK);
    ck_assert_uint_eq(d.n, 0);
    cs_diags_fini(&d);
    ck_assert(made[CS_SWEEP_FIG_TOPOLOGY] && made[CS_SWEEP_FIG_GOODPUT]);
    ck_assert(!made[CS_SWEEP_FIG_SCALING] && !made[CS_SWEEP_FIG_COST]);
    char *dat = slurp(dir, "sweep_topology.dat");
    /* Series by first appearance (spine-leaf first), x sorted inside. The
     * interval has one value: it names no series (the legend lists what
     * varies) and goes to the title. x tic labels in N:1. */
    const char *sl = strstr(dat, "oversubscription \"topology=spine-leaf\" step_time_s");
    const char *ft = strstr(dat, "oversubscription \"topology=fat-tree\" step_time_s");
    ck_assert(sl && ft && sl < ft);
    ck_assert_ptr_null(strstr(dat, "interval="));
    ck_assert_ptr_nonnull(strstr(sl, "1 480 NaN NaN \"1:1\"\n2 400 NaN NaN \"2:1\"\n"));
    ck_assert_ptr_nonnull(strstr(ft, "1 500 NaN NaN \"1:1\"\n2 450 NaN NaN \"2:1\"\n"));
    free(dat);
    char *gp = slurp(dir, "sweep_topology.gp");
    ck_assert_ptr_nonnull(strstr(gp, "'fixed: checkpoint.interval=30min'"));
    ck_assert_ptr_nonnull(strstr(gp, "lt 1 title 'topology=spine-leaf'"));
    ck_assert_ptr_nonnull(strstr(gp, "lt 2 title 'topology=fat-tree'"));
    ck_assert_ptr_nonnull(strstr(gp, "set output 'sweep_topology.png'"));
    ck_assert_ptr_nonnull(strstr(gp, "set output 'sweep_topology.svg'"));
    ck_assert_ptr_null(strstr(gp, "multiplot")); /* one panel */
    free(gp);
    /* Goodput: 1800 s = 30 min, 0.9 = 90%, one series per (topology,
     * oversubscription): four blocks; x tic label as written. */
    dat = slurp(dir, "sweep_goodput.dat");
    ck_assert_ptr_nonnull(strstr(dat, "30 90 NaN NaN \"30min\"\n"));
    ck_assert_ptr_nonnull(strstr(dat, "interval_min \"topology=spine-leaf, oversubscription=2:1\""));
    size_t blocks = 0;
    for (const char *p = dat; (p = strstr(p, "interval_min \"")); p++)
        blocks++;
    ck_assert_uint_eq(blocks, 4);
    free(dat);
    cs_sweep_results_fini(&r);
    rm_plot_dir(dir);
}
END_TEST

/* A FIFO planted as DIR/sweep.json is refused at once (it blocked in
 * open until a writer came; Check's timeout would fail this test). */
START_TEST(test_sweep_results_load_refuses_fifo)
{
    char dir[64];
    tmpdir(dir, sizeof dir);
    char *mj = cs_xasprintf("%s/sweep.json", dir);
    ck_assert_int_eq(mkfifo(mj, 0600), 0);
    struct cs_sweep_results r;
    cs_diags d;
    cs_diags_init(&d);
    ck_assert_int_ne(cs_sweep_results_load(dir, &r, &d), CS_OK);
    ck_assert_uint_eq(d.n, 1);
    ck_assert_str_eq(d.items[0].file, mj);
    cs_diags_fini(&d);
    unlink(mj);
    rmdir(dir);
    free(mj);
}
END_TEST

START_TEST(test_sweep_results_load_refuses_non_sweep_dirs)
{
    char dir[64];
    tmpdir(dir, sizeof dir);
    struct cs_sweep_results r;
    cs_diags d;
    cs_diags_init(&d);
    /* No sweep.json: the diagnostic's file is DIR/sweep.json. */
    char *mj = cs_xasprintf("%s/sweep.json", dir), *rj = cs_xasprintf("%s/results.jsonl", dir);
    ck_assert_int_eq(cs_sweep_results_load(dir, &r, &d), CS_EIO);
    ck_assert_uint_eq(d.n, 1);
    ck_assert_str_eq(d.items[0].file, mj);
    ck_assert_int_eq(d.items[0].line, 0);
    char *want = cs_xasprintf("%s: not a sweep output directory (run `clustersim sweep FILE -o %s` "
                              "first)", strerror(ENOENT), dir);
    ck_assert_str_eq(d.items[0].msg, want);
    free(want);
    cs_diags_fini(&d);
    /* A sweep.json without columns. */
    cs_diags_init(&d);
    spit(dir, "sweep.json", "{}\n");
    ck_assert_int_eq(cs_sweep_results_load(dir, &r, &d), CS_ECONFIG);
    ck_assert_uint_eq(d.n, 1);
    ck_assert_str_eq(d.items[0].file, mj);
    ck_assert_str_eq(d.items[0].msg, "expected a JSON object with a \"columns\" array (sweep.json "
                                     "of clustersim sweep)");
    cs_diags_fini(&d);
    /* Line 2 of results.jsonl is not a JSON object: file and line. */
    cs_diags_init(&d);
    spit(dir, "sweep.json", "{\"columns\": [\"point\", \"key\", \"status\", \"reason\"]}\n");
    spit(dir, "results.jsonl", "{\"point\": 0}\nnot json\n");
    ck_assert_int_eq(cs_sweep_results_load(dir, &r, &d), CS_ECONFIG);
    ck_assert_uint_eq(d.n, 1);
    ck_assert_str_eq(d.items[0].file, rj);
    ck_assert_int_eq(d.items[0].line, 2);
    ck_assert_str_eq(d.items[0].msg, "expected one JSON object per line");
    cs_diags_fini(&d);
    free(mj);
    free(rj);
    rm_plot_dir(dir);
}
END_TEST

/* Failures of cs_sweep_run and cs_sweep_merge: one error in the caller's
 * list, the path at fault in its file when there is one. */
START_TEST(test_sweep_run_merge_failures_go_to_diags)
{
    cs_sweep *sw = load_ok("tests/data/sweep/grid.yaml");
    struct cs_sweep_run_stats st;
    cs_diags d;
    /* Zero threads: the options, no file. */
    cs_diags_init(&d);
    struct cs_sweep_run_opts bad = {0, 1, 1, NULL, NULL};
    ck_assert_int_eq(cs_sweep_run(sw, cat, "/tmp/unused", &bad, &st, &d), CS_EINVAL);
    ck_assert_uint_eq(d.n, 1);
    ck_assert_ptr_null(d.items[0].file);
    ck_assert_str_eq(d.items[0].msg, "bad threads or shard (0, 1/1)");
    cs_diags_fini(&d);
    /* An output directory below a regular file: mkdir fails with ENOTDIR
     * and the diagnostic names the directory. */
    char base[64];
    tmpdir(base, sizeof base);
    spit(base, "sweep.json", "not a directory");
    char *out = cs_xasprintf("%s/sweep.json/out", base);
    cs_diags_init(&d);
    struct cs_sweep_run_opts o = {1, 1, 1, NULL, NULL};
    ck_assert_int_eq(cs_sweep_run(sw, cat, out, &o, &st, &d), CS_EIO);
    ck_assert_uint_eq(d.n, 1);
    ck_assert_str_eq(d.items[0].file, out);
    char *want = cs_xasprintf("cannot create the directory: %s", strerror(ENOTDIR));
    ck_assert_str_eq(d.items[0].msg, want);
    free(want);
    cs_diags_fini(&d);
    /* Nothing to merge. */
    cs_diags_init(&d);
    ck_assert_int_eq(cs_sweep_merge(out, NULL, 0, &d), CS_EINVAL);
    ck_assert_uint_eq(d.n, 1);
    ck_assert_ptr_null(d.items[0].file);
    ck_assert_str_eq(d.items[0].msg, "no shard directories to merge");
    cs_diags_fini(&d);
    /* A shard directory without sweep.json: the diagnostic names it. */
    char empty[64];
    tmpdir(empty, sizeof empty);
    const char *shards[] = {empty};
    cs_diags_init(&d);
    ck_assert_int_eq(cs_sweep_merge(out, shards, 1, &d), CS_ECONFIG);
    ck_assert_uint_eq(d.n, 1);
    ck_assert_str_eq(d.items[0].file, empty);
    ck_assert_str_eq(d.items[0].msg, "no valid sweep.json: not a sweep output directory");
    cs_diags_fini(&d);
    free(out);
    rmdir(empty);
    rmtree(base);
    cs_sweep_destroy(sw);
}
END_TEST

/* cs_sweep_plot_data and cs_sweep_plot_render into a directory that does
 * not exist: CS_EIO and one error naming the first data file (the scaling
 * figure, the only one these rows make). */
START_TEST(test_sweep_plot_unwritable_dir_names_the_file)
{
    char dir[64];
    tmpdir(dir, sizeof dir);
    spit(dir, "sweep.json",
         "{\"axes\": 1, \"variables\": 1, \"columns\": [\"point\", \"key\", \"status\", \"reason\","
         " \"cluster.nodes\", \"gpus\", \"tokens_per_s_per_gpu\", \"mfu\"]}\n");
    spit(dir, "results.jsonl",
         "{\"status\":\"ok\",\"cluster.nodes\":1,\"gpus\":8,\"tokens_per_s_per_gpu\":1000,"
         "\"mfu\":0.4}\n"
         "{\"status\":\"ok\",\"cluster.nodes\":2,\"gpus\":16,\"tokens_per_s_per_gpu\":900,"
         "\"mfu\":0.36}\n");
    struct cs_sweep_results r;
    cs_diags d;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_sweep_results_load(dir, &r, &d), CS_OK);
    char *nodir = cs_xasprintf("%s/missing", dir);
    char *want_file = cs_xasprintf("%s/sweep_scaling.dat", nodir);
    bool made[CS_SWEEP_FIG_COUNT], rendered[CS_SWEEP_FIG_COUNT], no_gp = false;
    ck_assert_int_eq(cs_sweep_plot_data(&r, nodir, made, &d), CS_EIO);
    ck_assert_uint_eq(d.n, 1);
    ck_assert_str_eq(d.items[0].file, want_file);
    ck_assert_str_eq(d.items[0].msg, strerror(ENOENT));
    cs_diags_fini(&d);
    cs_diags_init(&d);
    ck_assert_int_eq(cs_sweep_plot_render(&r, nodir, made, rendered, &no_gp, &d), CS_EIO);
    ck_assert_uint_eq(d.n, 1);
    ck_assert_str_eq(d.items[0].file, want_file);
    ck_assert(!rendered[CS_SWEEP_FIG_SCALING]);
    cs_diags_fini(&d);
    free(want_file);
    free(nodir);
    cs_sweep_results_fini(&r);
    rm_plot_dir(dir);
}
END_TEST

/* Facility keys as sweep axes (scenarios/sweeps/facility-cooling.yaml):
 * the facility columns appear, and each point is the loader's facility.
 * Air, 2 racks: 2 nodes of 10.08 kW = 20.16 kW per 20 kW rack, GPUs held
 * at (10,000 - 4,480) / 8 = 690 W after C (T_throttle - T_inlet) / excess
 * = (2 x 130.45 x 600 + 2.8 x 3 x 1,206) x 5 / 160 = 5,208.45 s. Air in 1
 * rack would hold them at 65 W: skipped with the loader's reason. Liquid:
 * one 40.32 kW rack within 130 kW, PUE 1 + 1/0.96 - 1 + 0.02 + 0.04 =
 * 1.101667, facility 40,320 x that = 44,419.2 W. */
START_TEST(test_sweep_facility_axes)
{
    cs_sweep *sw = load_ok("scenarios/sweeps/facility-cooling.yaml");
    struct cs_sweep_table t;
    cs_sweep_table_init(&t, sw);
    ck_assert(t.outputs & CS_SWEEP_OUT_FACILITY);
    bool col = false;
    for (size_t i = 0; i < t.ncols; i++)
        col = col || !strcmp(t.cols[i], "facility.time_to_throttle_s");
    ck_assert(col);
    ck_assert_uint_eq(t.points, 9);
    char *row = cs_sweep_eval(sw, &t, cat, 1); /* air, racks 2 */
    ck_assert_ptr_nonnull(strstr(row, "\"facility.racks_placed\":2,"));
    ck_assert_ptr_nonnull(strstr(row, "\"facility.kw_per_rack\":20.16,"));
    ck_assert_ptr_nonnull(strstr(row, "\"facility.cooling_ok\":false,"));
    ck_assert_ptr_nonnull(strstr(row, "\"facility.gpu_power_cap_w\":690,"));
    ck_assert_ptr_nonnull(strstr(row, "\"facility.time_to_throttle_s\":5208.45"));
    free(row);
    row = cs_sweep_eval(sw, &t, cat, 2); /* air, racks 1 */
    ck_assert_ptr_nonnull(strstr(row, "\"status\":\"skipped\""));
    ck_assert_ptr_nonnull(strstr(row, "held at 65 W"));
    free(row);
    row = cs_sweep_eval(sw, &t, cat, 6); /* liquid, racks as needed */
    ck_assert_ptr_nonnull(strstr(row, "\"facility.racks_placed\":1,"));
    ck_assert_ptr_nonnull(strstr(row, "\"facility.cooling_ok\":true,"));
    ck_assert_ptr_nonnull(strstr(row, "\"facility.pue_ratio\":1.10166"));
    ck_assert_ptr_nonnull(strstr(row, "\"facility.facility_power_w\":44419.2"));
    ck_assert_ptr_nonnull(strstr(row, "\"facility.time_to_throttle_s\":null"));
    free(row);
    cs_sweep_table_fini(&t);
    cs_sweep_destroy(sw);
}
END_TEST

static Suite *sweep_suite(void)
{
    Suite *s = suite_create("sweep");
    TCase *tc = tcase_create("sweep");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_sweep_grid_points_ranges_derive_constraints);
    tcase_add_test(tc, test_sweep_zip_mode);
    tcase_add_test(tc, test_sweep_facility_axes);
    tcase_add_test(tc, test_sweep_bad_files_name_file_line_key);
    tcase_add_test(tc, test_sweep_size_counted_before_expanding);
    tcase_add_test(tc, test_sweep_results_identical_whatever_jobs);
    tcase_add_test(tc, test_sweep_resume_after_kill_loses_nothing);
    tcase_add_test(tc, test_sweep_shards_merge_and_refusals);
    tcase_add_test(tc, test_sweep_plot_scaling_efficiency_by_hand);
    tcase_add_test(tc, test_sweep_plot_series_topology_cost_goodput);
    tcase_add_test(tc, test_sweep_results_load_refuses_non_sweep_dirs);
    tcase_add_test(tc, test_sweep_results_load_refuses_fifo);
    tcase_add_test(tc, test_sweep_run_merge_failures_go_to_diags);
    tcase_add_test(tc, test_sweep_plot_unwritable_dir_names_the_file);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return cs_test_run(sweep_suite()); }
