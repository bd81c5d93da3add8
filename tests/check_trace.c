/* check_trace.c: the job-trace importers (config/trace.c): native CSV and
 * its errors, the published formats on small fixtures written from each
 * trace's documented schema (tests/data/traces/), and the real traces in
 * validation/traces with the job counts their README states. */
#define _POSIX_C_SOURCE 200809L /* mkstemp, fdopen */
#include "clustersim/config/trace.h"

#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TRACES "validation/traces"

static cs_status load(const char *rel, enum cs_trace_format f, struct cs_trace *t, cs_diags *d)
{
    struct cs_trace_options o;
    cs_trace_options_default(&o);
    o.format = f;
    cs_trace_init(t);
    cs_diags_init(d);
    return cs_trace_load(cs_test_data(rel), &o, t, d);
}

static const struct cs_trace_job *find(const struct cs_trace *t, const char *id)
{
    for (size_t i = 0; i < t->n; i++)
        if (strcmp(t->jobs[i].id, id) == 0)
            return &t->jobs[i];
    return NULL;
}

START_TEST(test_trace_datetime)
{
    double s;
    /* 2020-01-01 is 1577836800; Jan..May 2020 have 152 days, + 8 = 160 days:
     * 1577836800 + 160 * 86400 = 1591660800, + 18:41:01 (67261 s) */
    ck_assert_int_eq(cs_trace_parse_datetime("2020-06-09 18:41:01", 19, &s), CS_OK);
    ck_assert_double_eq(s, 1591660800.0 + 67261.0);
    /* +08:00 is eight hours earlier in UTC */
    ck_assert_int_eq(cs_trace_parse_datetime("2020-06-09 18:41:01+08:00", 25, &s), CS_OK);
    ck_assert_double_eq(s, 1591660800.0 + 67261.0 - 28800.0);
    ck_assert_int_eq(cs_trace_parse_datetime("1970-01-01T00:00:00Z", 20, &s), CS_OK);
    ck_assert_double_eq(s, 0.0);
    ck_assert_int_eq(cs_trace_parse_datetime("2020-13-01 00:00:00", 19, &s), CS_EINVAL);
    ck_assert_int_eq(cs_trace_parse_datetime("2020-06-09", 10, &s), CS_EINVAL);
    ck_assert_int_eq(cs_trace_parse_datetime("2020-06-09 18:41:01 x", 21, &s), CS_EINVAL);
}
END_TEST

START_TEST(test_trace_native_fields)
{
    struct cs_trace t;
    cs_diags d;
    ck_assert_int_eq(load("tests/data/traces/native_ok.csv", CS_TRACE_AUTO, &t, &d), CS_OK);
    ck_assert_int_eq(t.format, CS_TRACE_NATIVE);
    ck_assert_int_eq(t.n, 3);
    ck_assert(t.counts.no_final_newline);
    ck_assert_int_eq(t.counts.rows, 3);
    /* row a lacks priority, gpu_type, workload; row c lacks user, gpu_type, workload */
    ck_assert_int_eq(t.counts.missing_values, 2);
    const struct cs_trace_job *b = find(&t, "b"), *c = find(&t, "c");
    ck_assert_ptr_nonnull(b);
    ck_assert_double_eq(b->submit_s, 5);
    ck_assert_double_eq(b->gpus, 2);
    ck_assert_double_eq(b->duration_s, 20);
    ck_assert_int_eq(b->priority, 3);
    ck_assert_str_eq(t.gpu_types.names[b->gpu_type], "H100-SXM5-80GB");
    ck_assert_str_eq(t.workloads.names[b->workload], "llama3-8b");
    ck_assert_str_eq(t.partitions.names[b->partition], "training");
    ck_assert_double_eq(c->gpus, 0.5);
    ck_assert_int_eq(c->user, -1);
    ck_assert_int_eq(c->line, 4);
    /* 1 x 10 + 2 x 20 + 0.5 x 30 = 65 GPU-s */
    ck_assert_double_eq_tol(cs_trace_gpu_hours(&t), 65.0 / 3600, 1e-12);
    cs_trace_fini(&t);
    cs_diags_fini(&d);
}
END_TEST

START_TEST(test_trace_native_errors_name_line)
{
    struct cs_trace t;
    cs_diags d;
    ck_assert_int_eq(load("tests/data/traces/native_bad.csv", CS_TRACE_AUTO, &t, &d), CS_ECONFIG);
    ck_assert_int_eq(cs_diags_errors(&d), 2);
    /* line 3: "b,5,two,..." -> the gpus field starts at column 5 */
    ck_assert_int_eq(d.items[0].line, 3);
    ck_assert_int_eq(d.items[0].col, 5);
    ck_assert_ptr_nonnull(strstr(d.items[0].msg, "gpus"));
    ck_assert_ptr_nonnull(strstr(d.items[0].file, "native_bad.csv"));
    ck_assert_int_eq(d.items[1].line, 4);
    ck_assert_ptr_nonnull(strstr(d.items[1].msg, "expected 9 fields"));
    cs_trace_fini(&t);
    cs_diags_fini(&d);

    /* an unknown column of the native header, and an empty required value */
    const char *txt = "job_id,submit_s,gpus,duration_s,colour\n";
    cs_trace_init(&t);
    cs_diags_init(&d);
    ck_assert_int_eq(cs_trace_load_buffer("x.csv", txt, strlen(txt), NULL, &t, &d), CS_ECONFIG);
    ck_assert_ptr_nonnull(strstr(d.items[0].msg, "colour"));
    ck_assert_int_eq(d.items[0].line, 1);
    cs_trace_fini(&t);
    cs_diags_fini(&d);
    const char *txt2 = "job_id,submit_s,gpus,duration_s\nj,,1,5\n";
    cs_trace_init(&t);
    cs_diags_init(&d);
    ck_assert_int_eq(cs_trace_load_buffer("y.csv", txt2, strlen(txt2), NULL, &t, &d), CS_ECONFIG);
    ck_assert_int_eq(d.items[0].line, 2);
    ck_assert_ptr_nonnull(strstr(d.items[0].msg, "submit_s"));
    cs_trace_fini(&t);
    cs_diags_fini(&d);
    /* an unknown header is refused with a message naming the formats */
    const char *txt3 = "foo,bar\n1,2\n";
    cs_trace_init(&t);
    cs_diags_init(&d);
    ck_assert_int_eq(cs_trace_load_buffer("z.csv", txt3, strlen(txt3), NULL, &t, &d), CS_ECONFIG);
    ck_assert_ptr_nonnull(strstr(d.items[0].msg, "native header"));
    cs_trace_fini(&t);
    cs_diags_fini(&d);
}
END_TEST

START_TEST(test_trace_window_and_limit)
{
    const char *txt = "job_id,submit_s,gpus,duration_s\na,0,1,1\nb,10,1,1\nc,20,1,1\nd,30,1,1\ne,40,1,0\n";
    struct cs_trace_options o;
    cs_trace_options_default(&o);
    o.from_s = 10;
    o.to_s = 40;
    o.limit = 2;
    struct cs_trace t;
    cs_diags d;
    cs_trace_init(&t);
    cs_diags_init(&d);
    ck_assert_int_eq(cs_trace_load_buffer("w.csv", txt, strlen(txt), &o, &t, &d), CS_OK);
    /* a: before the window; b, c kept; d past the limit; e ran 0 s */
    ck_assert_int_eq(t.n, 2);
    ck_assert_str_eq(t.jobs[0].id, "b");
    ck_assert_int_eq(t.counts.skipped_window, 1);
    ck_assert_int_eq(t.counts.skipped_limit, 1);
    ck_assert_int_eq(t.counts.skipped_zero_duration, 1);
    ck_assert(!t.counts.no_final_newline);
    cs_trace_fini(&t);
    cs_diags_fini(&d);
}
END_TEST

START_TEST(test_trace_helios_fixture)
{
    struct cs_trace t;
    cs_diags d;
    ck_assert_int_eq(load("tests/data/traces/helios_sample.csv", CS_TRACE_AUTO, &t, &d), CS_OK);
    ck_assert_int_eq(t.format, CS_TRACE_HELIOS);
    ck_assert_int_eq(t.counts.rows, 6);
    ck_assert_int_eq(t.n, 4);
    ck_assert_int_eq(t.counts.skipped_cpu_only, 1);
    ck_assert_int_eq(t.counts.skipped_never_ran, 1);
    ck_assert_int_eq(t.counts.failed, 1);
    ck_assert_int_eq(t.counts.cancelled, 1);
    ck_assert_int_eq(t.partitions.n, 3);
    const struct cs_trace_job *j = find(&t, "1425516");
    /* submitted 18:44:00, origin 18:41:01 (first row): 179 s; queue 600 s */
    ck_assert_double_eq(j->submit_s, 179);
    ck_assert_double_eq(j->queue_s, 600);
    ck_assert_double_eq(j->gpus, 16);
    /* (36848 + 4 x 249 + 675233 + 16 x 3600) / 3600 = 770677 / 3600 */
    ck_assert_double_eq_tol(cs_trace_gpu_hours(&t), 770677.0 / 3600, 1e-9);
    cs_trace_fini(&t);
    cs_diags_fini(&d);
}
END_TEST

START_TEST(test_trace_acme_fixture)
{
    struct cs_trace t;
    cs_diags d;
    ck_assert_int_eq(load("tests/data/traces/acme_sample.csv", CS_TRACE_AUTO, &t, &d), CS_OK);
    ck_assert_int_eq(t.format, CS_TRACE_ACME);
    ck_assert_int_eq(t.n, 3);
    ck_assert_int_eq(t.counts.missing_values, 1);  /* duration empty -> end - start */
    const struct cs_trace_job *j = find(&t, "5778470");
    ck_assert_double_eq(j->duration_s, 7200);       /* 01:10 -> 03:10 */
    ck_assert_double_eq(j->queue_s, 600);
    ck_assert_str_eq(t.partitions.names[j->partition], "Pretrain");
    ck_assert_double_eq(find(&t, "5778469")->submit_s, 336);  /* 00:23:58 - 00:18:22 */
    cs_trace_fini(&t);
    cs_diags_fini(&d);
}
END_TEST

START_TEST(test_trace_pai_fixture_merges_tasks)
{
    struct cs_trace t;
    cs_diags d;
    ck_assert_int_eq(load("tests/data/traces/pai_task_sample.csv", CS_TRACE_PAI, &t, &d), CS_OK);
    ck_assert_int_eq(t.n, 3);
    ck_assert_int_eq(t.counts.skipped_cpu_only, 1);   /* j1's ps task: no plan_gpu */
    ck_assert_int_eq(t.counts.skipped_never_ran, 1);  /* j3: Waiting, no start */
    ck_assert_int_eq(t.counts.rows, t.counts.jobs + 2);
    const struct cs_trace_job *j1 = find(&t, "j1"), *j2 = find(&t, "j2"), *j4 = find(&t, "j4");
    ck_assert_double_eq(j1->gpus, 1.0);     /* 2 instances x 50% */
    ck_assert_double_eq(j1->submit_s, 0);   /* origin: the first start, 1000 */
    ck_assert_double_eq(j2->gpus, 0.25);
    ck_assert_double_eq(j4->gpus, 5.0);     /* 4 x 100% + 1 x 100% */
    ck_assert_double_eq(j4->submit_s, 400); /* first task 1400 */
    ck_assert_double_eq(j4->duration_s, 1100);  /* 1400 .. 2500 */
    ck_assert_str_eq(t.gpu_types.names[j4->gpu_type], "V100");
    cs_trace_fini(&t);
    cs_diags_fini(&d);
}
END_TEST

START_TEST(test_trace_philly_fixture)
{
    struct cs_trace t;
    cs_diags d;
    ck_assert_int_eq(load("tests/data/traces/philly_sample.json", CS_TRACE_AUTO, &t, &d), CS_OK);
    ck_assert_int_eq(t.format, CS_TRACE_PHILLY);
    ck_assert_int_eq(t.n, 2);
    ck_assert_int_eq(t.counts.skipped_never_ran, 1);
    const struct cs_trace_job *a = find(&t, "application_1"), *b = find(&t, "application_2");
    ck_assert_double_eq(a->gpus, 8);
    ck_assert_double_eq(a->duration_s, 3600);
    ck_assert_double_eq(a->queue_s, 17);
    /* retries: first start 05:10 to last end 06:10 */
    ck_assert_double_eq(b->duration_s, 3600);
    ck_assert_double_eq(b->submit_s, 934);
    ck_assert_int_eq(t.counts.failed, 1);
    cs_trace_fini(&t);
    cs_diags_fini(&d);
    const char *bad = "[{\"submitted_time\": 5}";
    cs_trace_init(&t);
    cs_diags_init(&d);
    struct cs_trace_options o;
    cs_trace_options_default(&o);
    o.format = CS_TRACE_PHILLY;
    ck_assert_int_eq(cs_trace_load_buffer("p.json", bad, strlen(bad), &o, &t, &d), CS_ECONFIG);
    ck_assert_ptr_nonnull(strstr(d.items[0].msg, "JSON"));
    cs_trace_fini(&t);
    cs_diags_fini(&d);
}
END_TEST

/* Microsoft ITP 2021 (README of validation/traces): per-cluster job counts and
 * 1,632,719.7 GPU-hours in total. */
START_TEST(test_trace_itp_counts)
{
    static const long want[10] = {1595, 5778, 3011, 15802, 3629, 2396, 12699, 13047, 11134, 260};
    long total = 0;
    double gh = 0;
    for (int c = 0; c < 10; c++) {
        char path[256];
        snprintf(path, sizeof path, TRACES "/microsoft-itp-2021/cluster%02d.csv.gz", c + 1);
        struct cs_trace t;
        cs_diags d;
        ck_assert_int_eq(load(path, CS_TRACE_AUTO, &t, &d), CS_OK);
        ck_assert_int_eq(t.format, CS_TRACE_ITP);
        ck_assert_int_eq((long)t.n, want[c]);
        ck_assert(t.counts.no_final_newline);  /* README: no newline after the last row */
        total += (long)t.n;
        gh += cs_trace_gpu_hours(&t);
        cs_trace_fini(&t);
        cs_diags_fini(&d);
    }
    ck_assert_int_eq(total, 69351);
    printf("itp: 69,351 jobs; GPU-hours %.2f vs published 1,632,719.7 (diff %.3f)\n", gh, gh - 1632719.7);
    ck_assert_double_eq_tol(gh, 1632719.7, 0.1);
}
END_TEST

/* Alibaba openb 2023: 8,152 tasks, 1,088 with no GPU; 897 Pending (never
 * scheduled); recorded queueing of the scheduled tasks. */
START_TEST(test_trace_openb_counts)
{
    struct cs_trace t;
    cs_diags d;
    ck_assert_int_eq(load(TRACES "/alibaba-openb-gpu-2023/openb_pod_list_default.csv.gz", CS_TRACE_AUTO, &t,
                          &d), CS_OK);
    ck_assert_int_eq(t.format, CS_TRACE_OPENB);
    const struct cs_trace_counts *k = &t.counts;
    ck_assert_int_eq(k->rows, 8152);
    ck_assert_int_eq(k->skipped_cpu_only, 1088);
    ck_assert_int_le(k->skipped_never_ran, 897);
    ck_assert_int_eq(k->rows, k->jobs + k->skipped_cpu_only + k->skipped_never_ran + k->skipped_zero_duration);
    long frac = 0;
    double q = 0;
    for (size_t i = 0; i < t.n; i++) {
        frac += t.jobs[i].gpus < 1;
        q += t.jobs[i].queue_s;
    }
    /* README: 3,078 one-GPU tasks ask for < 1000 milli-GPU (some may be CPU-less Pending ones) */
    printf("openb: %ld GPU jobs kept (%ld never ran, %ld zero duration), %ld fractional (README 3,078 incl. "
           "pending); mean recorded queue of GPU jobs %.1f s (README, all scheduled tasks: 61.3 s)\n",
           k->jobs, k->skipped_never_ran, k->skipped_zero_duration, frac, q / (double)t.n);
    ck_assert_int_le(frac, 3078);
    ck_assert_int_gt(frac, 2000);
    cs_trace_fini(&t);
    cs_diags_fini(&d);
}
END_TEST

START_TEST(test_trace_node_lists)
{
    struct cs_trace_nodes n;
    cs_diags d;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_trace_load_nodes(cs_test_data(TRACES "/alibaba-openb-gpu-2023/openb_node_list_all_node.csv"), &n,
                                         &d), CS_OK);
    /* README: 1,523 nodes, 310 CPU-only, 6,212 GPUs; G2 549 nodes / 4,392 GPUs */
    ck_assert_int_eq(n.nodes, 1523);
    ck_assert_int_eq(n.cpu_only_nodes, 310);
    ck_assert_int_eq(n.gpus, 6212);
    long g2 = 0;
    for (int g = 0; g < n.n_groups; g++)
        if (strcmp(n.groups[g].gpu_type, "G2") == 0)
            g2 += (long)n.groups[g].nodes * n.groups[g].gpus_per_node;
    ck_assert_int_eq(g2, 4392);
    cs_diags_fini(&d);
}
END_TEST

/* Writes `text` to a fresh temporary file; returns its path (static). */
static const char *tmp_nodes(const char *text)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/cs-nodes-XXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
    return path;
}

/* Node-list limits are errors naming the limit, never truncation: a GPU
 * type of 64 characters (two types sharing their first 63 would merge into
 * one group), a GPU count field of 32 characters, and a 33rd (GPU type,
 * GPUs per node) group (CS_TRACE_MAX_NODE_GROUPS 32). 63 characters and
 * 32 groups load. */
START_TEST(test_trace_node_list_limits)
{
    char t63[64], t64[65], buf[4096];
    memset(t63, 'A', 63);
    t63[63] = '\0';
    memset(t64, 'A', 64);
    t64[64] = '\0';
    struct cs_trace_nodes n;
    cs_diags d;

    snprintf(buf, sizeof buf, "sn,cpu_milli,memory_mib,gpu,model\nn1,1,1,8,%s\nn2,1,1,8,%sB\n", t63, t63);
    const char *p = tmp_nodes(buf);
    cs_diags_init(&d);
    ck_assert_int_eq(cs_trace_load_nodes(p, &n, &d), CS_ECONFIG);
    ck_assert_int_eq((int)d.n, 1);
    ck_assert_int_eq(d.items[0].line, 3);
    ck_assert_int_eq(d.items[0].col, 10); /* after "n2,1,1,8," (9 characters) */
    ck_assert_str_eq(d.items[0].msg, "node list: GPU type: expected at most 63 characters, got 64");
    cs_diags_fini(&d);
    unlink(p);

    snprintf(buf, sizeof buf, "sn,cpu_milli,memory_mib,gpu,model\nn1,1,1,8,%s\nn2,1,1,4,%s\n", t63, t63);
    p = tmp_nodes(buf);
    cs_diags_init(&d);
    ck_assert_int_eq(cs_trace_load_nodes(p, &n, &d), CS_OK);
    ck_assert_int_eq(n.n_groups, 2);
    ck_assert_str_eq(n.groups[0].gpu_type, t63);
    ck_assert_int_eq(n.gpus, 12);
    cs_diags_fini(&d);
    unlink(p);

    /* "0000...0008" (31 zeros then 8): cut to 31 characters it would read 0 */
    snprintf(buf, sizeof buf, "sn,cpu_milli,memory_mib,gpu,model\nn1,1,1,00000000000000000000000000000008,G2\n");
    p = tmp_nodes(buf);
    cs_diags_init(&d);
    ck_assert_int_eq(cs_trace_load_nodes(p, &n, &d), CS_ECONFIG);
    ck_assert_ptr_nonnull(strstr(d.items[0].msg, "GPU count: expected an integer in 0..72"));
    cs_diags_fini(&d);
    unlink(p);

    /* 33 groups: GPU types T0..T32; the 33rd row is refused */
    size_t o = (size_t)snprintf(buf, sizeof buf, "sn,cpu_milli,memory_mib,gpu,model\n");
    for (int k = 0; k < 33; k++)
        o += (size_t)snprintf(buf + o, sizeof buf - o, "n%d,1,1,1,T%d\n", k, k);
    p = tmp_nodes(buf);
    cs_diags_init(&d);
    ck_assert_int_eq(cs_trace_load_nodes(p, &n, &d), CS_ECONFIG);
    ck_assert_int_eq(d.items[0].line, 34);
    ck_assert_str_eq(d.items[0].msg, "node list: more than 32 (GPU type, GPUs per node) groups");
    cs_diags_fini(&d);
    unlink(p);
    buf[o - strlen("n32,1,1,1,T32\n")] = '\0';
    p = tmp_nodes(buf);
    cs_diags_init(&d);
    ck_assert_int_eq(cs_trace_load_nodes(p, &n, &d), CS_OK);
    ck_assert_int_eq(n.n_groups, 32);
    cs_diags_fini(&d);
    unlink(p);
}
END_TEST

/* Trace fields with a NUL byte are refused as the YAML loader refuses them
 * (the string table once compared past a shorter name it met), in every
 * importer: the CSV formats, Philly's JSON and the node lists. */
START_TEST(test_trace_nul_bytes)
{
    static const char csv[] = "job_id,submit_s,gpus,duration_s,user\n"
                              "a,0,1,10,ab\n"
                              "b,1,1,10,ab\0zzzzzzzzzzzzzzzz\n";
    struct cs_trace t;
    cs_diags d;
    cs_trace_init(&t);
    cs_diags_init(&d);
    ck_assert_int_eq(cs_trace_load_buffer("nul.csv", csv, sizeof csv - 1, NULL, &t, &d), CS_ECONFIG);
    ck_assert_uint_ge(d.n, 1);
    ck_assert_int_eq(d.items[0].line, 3);
    ck_assert_ptr_nonnull(strstr(d.items[0].msg, "NUL byte at column 12"));
    ck_assert_str_eq(d.items[0].file, "nul.csv");
    cs_trace_fini(&t);
    cs_diags_fini(&d);

    static const char json[] = "[{\"jobid\": \"a\",\n \"user\": \"x\0y\"}]";
    struct cs_trace_options o;
    cs_trace_options_default(&o);
    o.format = CS_TRACE_PHILLY;
    cs_trace_init(&t);
    cs_diags_init(&d);
    ck_assert_int_eq(cs_trace_load_buffer("nul.json", json, sizeof json - 1, &o, &t, &d), CS_ECONFIG);
    ck_assert_int_eq(d.items[0].line, 2);
    ck_assert_ptr_nonnull(strstr(d.items[0].msg, "NUL byte"));
    cs_trace_fini(&t);
    cs_diags_fini(&d);

    static const char nodes[] = "sn,cpu_milli,memory_mib,gpu,model\nn1,1,1,8,A\0B\n";
    struct cs_trace_nodes n;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_trace_load_nodes_buffer("nul_nodes.csv", nodes, sizeof nodes - 1, &n, &d), CS_ECONFIG);
    ck_assert_int_eq(d.items[0].line, 2);
    ck_assert_int_eq(d.items[0].col, 11);
    ck_assert_ptr_nonnull(strstr(d.items[0].msg, "NUL byte"));
    cs_diags_fini(&d);
}
END_TEST

/* Times the simulator's nanosecond clock cannot hold (+-292 years) are
 * refused at import with the file and line: submission, run time and
 * their sum each within 1e9 s of the trace's start. */
START_TEST(test_trace_time_range)
{
    static const char csv[] = "job_id,submit_s,gpus,duration_s\n"
                              "ok,500000000,1,400000000\n"   /* 9e8: in range */
                              "far,1e10,1,10\n"               /* submission past 1e9 s */
                              "long,0,1,2e9\n"                /* run time past 1e9 s */
                              "sum,600000000,1,600000000\n"   /* 1.2e9 s end */
                              "early,-2e9,1,10\n"             /* before the start by 2e9 s */
                              "huge,0,1,1e300\n";
    struct cs_trace t;
    cs_diags d;
    cs_trace_init(&t);
    cs_diags_init(&d);
    ck_assert_int_eq(cs_trace_load_buffer("times.csv", csv, sizeof csv - 1, NULL, &t, &d), CS_ECONFIG);
    ck_assert_int_eq(cs_diags_errors(&d), 5);
    static const int lines[] = {3, 4, 5, 6, 7};
    static const char *const what[] = {"submission time", "run time", "end (submission + run time)",
                                       "submission time", "run time"};
    for (int i = 0; i < 5; i++) {
        ck_assert_int_eq(d.items[i].line, lines[i]);
        ck_assert_ptr_nonnull(strstr(d.items[i].msg, what[i]));
        ck_assert_ptr_nonnull(strstr(d.items[i].msg, "expected times within +-1e+09 s"));
    }
    ck_assert_uint_eq(t.n, 1);
    ck_assert_str_eq(t.jobs[0].id, "ok");
    cs_trace_fini(&t);
    cs_diags_fini(&d);

    /* a date-time trace: the second row is 300 years after the first */
    static const char helios[] = "job_id,user,vc,gpu_num,cpu_num,node_num,state,submit_time,start_time,end_time,"
                                 "duration,queue\n"
                                 "j1,u,v,1,1,1,COMPLETED,2020-04-01 00:00:00,2020-04-01 00:00:10,"
                                 "2020-04-01 00:01:10,60,10\n"
                                 "j2,u,v,1,1,1,COMPLETED,2320-04-01 00:00:00,2320-04-01 00:00:10,"
                                 "2320-04-01 00:01:10,60,10\n";
    struct cs_trace_options o;
    cs_trace_options_default(&o);
    o.format = CS_TRACE_HELIOS;
    cs_trace_init(&t);
    cs_diags_init(&d);
    ck_assert_int_eq(cs_trace_load_buffer("h.csv", helios, sizeof helios - 1, &o, &t, &d), CS_ECONFIG);
    ck_assert_int_eq(cs_diags_errors(&d), 1);
    ck_assert_int_eq(d.items[0].line, 3);
    ck_assert_ptr_nonnull(strstr(d.items[0].msg, "job j2: submission time out of range"));
    cs_trace_fini(&t);
    cs_diags_fini(&d);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("trace");
    TCase *tc = tcase_create("formats");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_trace_datetime);
    tcase_add_test(tc, test_trace_native_fields);
    tcase_add_test(tc, test_trace_native_errors_name_line);
    tcase_add_test(tc, test_trace_window_and_limit);
    tcase_add_test(tc, test_trace_helios_fixture);
    tcase_add_test(tc, test_trace_acme_fixture);
    tcase_add_test(tc, test_trace_pai_fixture_merges_tasks);
    tcase_add_test(tc, test_trace_philly_fixture);
    tcase_add_test(tc, test_trace_node_list_limits);
    tcase_add_test(tc, test_trace_nul_bytes);
    tcase_add_test(tc, test_trace_time_range);
    suite_add_tcase(s, tc);
    TCase *real = tcase_create("real");
    tcase_set_timeout(real, 120);
    tcase_add_test(real, test_trace_itp_counts);
    tcase_add_test(real, test_trace_openb_counts);
    tcase_add_test(real, test_trace_node_lists);
    suite_add_tcase(s, real);
    return s;
}

int main(void) { return cs_test_run(suite()); }
