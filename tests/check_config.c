/* check_config.c: the scenario loader (config/scenario.c). Every bad input
 * of tests/data/bad/ must fail with the diagnostic written beside it; the
 * good scenarios of tests/data/good/ and scenarios/default.yaml must load
 * with hand-checked values and provenance. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, strdup */
#include "clustersim/config/config.h"

#include "clustersim/base/suggest.h"
#include "clustersim/base/xmalloc.h"
#include "test_util.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The catalog is loaded once per test (Check forks each test). */
static cs_catalog *load_catalog(void)
{
    cs_diags d;
    cs_diags_init(&d);
    cs_catalog *cat = NULL;
    cs_status st = cs_catalog_load_dir(cs_test_data("scenarios/catalog"), &d, &cat);
    for (size_t i = 0; i < d.n; i++) {
        char *m = cs_diag_format(&d.items[i]);
        fprintf(stderr, "%s\n", m);
        free(m);
    }
    cs_diags_fini(&d);
    ck_assert_int_eq(st, CS_OK);
    return cat;
}

/* All diagnostics formatted, one per line; caller frees. */
static char *format_all(const cs_diags *d)
{
    size_t cap = 1, len = 0;
    char *out = calloc(1, 1);
    for (size_t i = 0; i < d->n; i++) {
        char *m = cs_diag_format(&d->items[i]);
        size_t ml = strlen(m);
        if (len + ml + 2 > cap) {
            cap = (len + ml + 2) * 2;
            out = realloc(out, cap);
        }
        memcpy(out + len, m, ml);
        len += ml;
        out[len++] = '\n';
        out[len] = '\0';
        free(m);
    }
    return out;
}

/* Loads a scenario that must succeed; prints the diagnostics otherwise. */
static void load_ok(const cs_catalog *cat, const char *rel, struct cs_scenario *s,
                    struct cs_provenance *p)
{
    cs_diags d;
    cs_diags_init(&d);
    cs_status st = cs_cfg_load_scenario(cs_test_path(rel), cat, &d, s, p);
    char *all = format_all(&d);
    if (st != CS_OK)
        fprintf(stderr, "%s: %s\n%s", rel, cs_strerror(st), all);
    ck_assert_msg(st == CS_OK, "%s did not load: %s", rel, all);
    ck_assert_uint_eq(cs_diags_errors(&d), 0);
    free(all);
    cs_diags_fini(&d);
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *read_line(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    char buf[1024];
    char *r = fgets(buf, sizeof buf, f);
    fclose(f);
    if (!r)
        return NULL;
    buf[strcspn(buf, "\r\n")] = '\0';
    return strdup(buf);
}

START_TEST(test_config_bad_corpus)
{
    cs_catalog *cat = load_catalog();
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", cs_test_path("tests/data/bad"));
    DIR *dh = opendir(dir);
    ck_assert_ptr_nonnull(dh);
    char *names[512];
    size_t n = 0;
    struct dirent *de;
    while ((de = readdir(dh)) != NULL && n < 512) {
        size_t len = strlen(de->d_name);
        if (len > 5 && !strcmp(de->d_name + len - 5, ".yaml"))
            names[n++] = strdup(de->d_name);
    }
    closedir(dh);
    qsort(names, n, sizeof names[0], cmp_names);
    ck_assert_uint_ge(n, 30);
    size_t failed = 0;
    for (size_t i = 0; i < n; i++) {
        char path[4200], exp_path[4200];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        snprintf(exp_path, sizeof exp_path, "%s/%.*s.expected", dir,
                 (int)(strlen(names[i]) - 5), names[i]);
        char *expected = read_line(exp_path);
        cs_diags d;
        cs_diags_init(&d);
        struct cs_scenario s;
        memset(&s, 0xab, sizeof s);
        struct cs_scenario before = s;
        cs_status st = cs_cfg_load_scenario(path, cat, &d, &s, NULL);
        char *all = format_all(&d);
        bool ok = expected && st != CS_OK && cs_diags_errors(&d) > 0 && strstr(all, expected) &&
                  memcmp(&s, &before, sizeof s) == 0;
        if (!ok) {
            failed++;
            fprintf(stderr, "bad/%s: status %s\n  expected: %s\n  got:\n%s", names[i],
                    cs_strerror(st), expected ? expected : "(no .expected file)", all);
        }
        free(all);
        free(expected);
        cs_diags_fini(&d);
        free(names[i]);
    }
    printf("config: %zu bad inputs checked, %zu failed\n", n, failed);
    ck_assert_uint_eq(failed, 0);
    cs_catalog_destroy(cat);
}
END_TEST

/* A 2 MB string scalar is refused before it is used (yamltree caps scalars
 * at 1 MiB); the file is generated here rather than committed. */
START_TEST(test_config_huge_scalar)
{
    cs_catalog *cat = load_catalog();
    char tmpl[] = "/tmp/cs_check_config_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(tmpl));
    char path[256];
    snprintf(path, sizeof path, "%s/huge_string.yaml", tmpl);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("schema_version: 1\nname: \"", f);
    for (int i = 0; i < 2 * 1024 * 1024; i++)
        fputc('x', f);
    fputs("\"\n", f);
    fclose(f);
    cs_diags d;
    cs_diags_init(&d);
    struct cs_scenario s;
    cs_status st = cs_cfg_load_scenario(path, cat, &d, &s, NULL);
    char *all = format_all(&d);
    ck_assert_int_eq(st, CS_ECONFIG);
    ck_assert_msg(strstr(all, "huge_string.yaml:2:") != NULL, "no location in: %s", all);
    ck_assert_msg(strlen(all) < 4096, "the diagnostic repeats the huge scalar");
    free(all);
    cs_diags_fini(&d);
    remove(path);
    rmdir(tmpl);
    cs_catalog_destroy(cat);
}
END_TEST

START_TEST(test_config_missing_file_is_eio)
{
    cs_catalog *cat = load_catalog();
    cs_diags d;
    cs_diags_init(&d);
    struct cs_scenario s;
    ck_assert_int_eq(cs_cfg_load_scenario("/nonexistent/x.yaml", cat, &d, &s, NULL), CS_EIO);
    ck_assert_uint_ge(cs_diags_errors(&d), 1);
    cs_diags_fini(&d);
    cs_catalog_destroy(cat);
}
END_TEST

/* All errors of a file are reported, not only the first. */
START_TEST(test_config_collects_all_errors)
{
    cs_catalog *cat = load_catalog();
    static const char text[] = "schema_version: 1\n"
                               "cluster:\n"
                               "  nodes: 0\n"
                               "  gpu: H100\n"
                               "  fabric: {topology: ring, link: ib-hdr}\n"
                               "bogus: 1\n";
    cs_diags d;
    cs_diags_init(&d);
    struct cs_scenario s;
    cs_status st = cs_cfg_load_scenario_buffer("mem.yaml", text, sizeof text - 1, cat, &d, &s, NULL);
    char *all = format_all(&d);
    ck_assert_int_eq(st, CS_ECONFIG);
    ck_assert_uint_eq(cs_diags_errors(&d), 4);
    ck_assert_ptr_nonnull(strstr(all, "mem.yaml:3:10: error: cluster.nodes:"));
    ck_assert_ptr_nonnull(strstr(all, "mem.yaml:4:8: error: cluster.gpu: unknown GPU \"H100\""));
    ck_assert_ptr_nonnull(strstr(all, "mem.yaml:5:22: error: cluster.fabric.topology:"));
    ck_assert_ptr_nonnull(strstr(all, "mem.yaml:6:1: error: bogus: unknown key"));
    free(all);
    cs_diags_fini(&d);
    cs_catalog_destroy(cat);
}
END_TEST

/* scenarios/default.yaml: seed 004's 4 x 8 H100 cluster on IB HDR. */
/* Every key the loader accepts under cost: is documented in the key
 * table (help tco prints it), every documented key is accepted, and each
 * one appears in README.md and docs/cost.md. */
struct keyset {
    int n;
    char k[128][96];
};
static void add_key(void *ctx, const char *key)
{
    struct keyset *ks = ctx;
    for (int i = 0; i < ks->n; i++)
        if (!strcmp(ks->k[i], key))
            return;
    ck_assert_int_lt(ks->n, 128);
    snprintf(ks->k[ks->n++], sizeof ks->k[0], "%s", key);
}
static char *slurp_doc(const char *rel)
{
    FILE *f = fopen(cs_test_data(rel), "rb");
    ck_assert_msg(f != NULL, "cannot open %s", rel);
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    return cs_xstrdup(buf);
}
START_TEST(test_config_cost_keys_documented)
{
    struct keyset acc = {0};
    cs_cfg_cost_accepted_keys(add_key, &acc);
    ck_assert_int_gt(acc.n, 30);
    char *readme = slurp_doc("README.md"), *cost = slurp_doc("docs/cost.md");
    for (int i = 0; i < acc.n; i++) {
        bool found = false;
        for (const struct cs_cfg_key_doc *k = cs_cfg_cost_key_docs; k->key && !found; k++)
            found = !strcmp(k->key, acc.k[i]);
        ck_assert_msg(found, "%s is accepted but not in cs_cfg_cost_key_docs", acc.k[i]);
    }
    for (const struct cs_cfg_key_doc *k = cs_cfg_cost_key_docs; k->key; k++) {
        bool found = false;
        for (int i = 0; i < acc.n && !found; i++)
            found = !strcmp(k->key, acc.k[i]);
        ck_assert_msg(found, "%s is documented but the loader does not accept it", k->key);
        char quoted[128];
        snprintf(quoted, sizeof quoted, "`%s`", k->key);
        ck_assert_msg(strstr(readme, quoted) != NULL, "README.md does not document %s", quoted);
        ck_assert_msg(strstr(cost, quoted) != NULL, "docs/cost.md does not document %s", quoted);
    }
    free(readme);
    free(cost);
}
END_TEST

/* Offer choice by hand on one node of 8 H100 (no scale-out needed): the
 * 8-GPU offers fit (gcp-a3-highgpu-8g, aws-p5.48xlarge, the capacity block,
 * azure, oracle, lambda), the 1-GPU rentals do not. The cheapest on-demand
 * is lambda's $31.92 / 8 = $3.99; the only 1-year price, gcp's $61.38 / 8.
 * A named offer sets all four prices from itself (p5: no reserved price);
 * a price the scenario gives wins over both. */
static void load_cost(const char *cost, struct cs_scenario *s, cs_catalog *cat)
{
    char y[1024];
    snprintf(y, sizeof y,
             "schema_version: 1\ncluster: {gpu: H100-SXM5-80GB, nodes: %s, fabric: {topology: "
             "single-switch, link: ib-ndr}}\ncost: {%s}\n",
             strstr(cost, "NODES2") ? "2" : "1", strstr(cost, "NODES2") ? "" : cost);
    cs_diags d;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_cfg_load_scenario_buffer("o.yaml", y, strlen(y), cat, &d, s, NULL), CS_OK);
    cs_diags_fini(&d);
}
/* The catalog's nvswitch efficiency (0.82, an H100 measurement) at NCCL's
 * per-link NVLink rate of each generation (src/graph/topo.h): H100 as is,
 * A100 x (20.0/25)/(20.6/25) = 0.970874 -> 0.796117, GB200 x (40.1/50) /
 * (20.6/25) = 0.973301 -> 0.798107; a scenario's own intra_overrides
 * efficiency is kept. By hand. */
static double intra_eff_of(cs_catalog *cat, const char *gpu, const char *extra)
{
    char y[512];
    snprintf(y, sizeof y,
             "schema_version: 1\ncluster:\n  gpu: %s\n  nodes: 1\n  gpus_per_node: 4\n"
             "  intra_node: nvswitch\n%s",
             gpu, extra);
    cs_diags d;
    cs_diags_init(&d);
    struct cs_scenario s;
    ck_assert_int_eq(cs_cfg_load_scenario_buffer("nv.yaml", y, strlen(y), cat, &d, &s, NULL), CS_OK);
    double e = s.cluster.intra.efficiency;
    cs_scenario_fini(&s);
    cs_diags_fini(&d);
    return e;
}
START_TEST(test_config_nvlink_generation)
{
    cs_catalog *cat = NULL;
    cs_diags d;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_catalog_load_dir(cs_catalog_default_dir(), &d, &cat), CS_OK);
    cs_diags_fini(&d);
    ck_assert_double_eq_tol(intra_eff_of(cat, "H100-SXM5-80GB", ""), 0.82, 1e-12);
    ck_assert_double_eq_tol(intra_eff_of(cat, "A100-SXM4-80GB", ""), 0.82 * 20.0 / 20.6, 1e-12);
    ck_assert_double_eq_tol(intra_eff_of(cat, "A100-SXM4-80GB", ""), 0.796117, 1e-6);
    ck_assert_double_eq_tol(intra_eff_of(cat, "GB200", ""), 0.798107, 1e-6);
    ck_assert_double_eq_tol(intra_eff_of(cat, "GB200", "  intra_overrides: {efficiency: 0.82}\n"), 0.82, 1e-12);
    ck_assert_double_eq_tol(intra_eff_of(cat, "B200", "  intra_overrides: {latency: 3us}\n"), 0.798107, 1e-6);
    cs_catalog_destroy(cat);
}
END_TEST

START_TEST(test_config_cloud_offer_choice)
{
    cs_catalog *cat = NULL;
    cs_diags d;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_catalog_load_dir(cs_catalog_default_dir(), &d, &cat), CS_OK);
    cs_diags_fini(&d);
    struct cs_scenario s;
    load_cost("years: 3", &s, cat);
    ck_assert_int_eq(s.cost.cloud_offers_fitting, 6);
    ck_assert_int_eq(s.cost.cloud_offers_total, 9);
    ck_assert_str_eq(s.cost.cloud_offer_for[CS_CLOUD_ON_DEMAND], "lambda-8x-h100-sxm5");
    ck_assert_double_eq_tol(s.cost.cloud_on_demand_usd_per_gpu_h, 31.92 / 8, 1e-9);
    ck_assert_int_eq(s.cost.cloud_offer_rule[CS_CLOUD_RESERVED_1Y], CS_OFFER_CHEAPEST_FIT);
    ck_assert_double_eq_tol(s.cost.cloud_reserved_1y_usd_per_gpu_h, 61.38 / 8, 1e-9);
    /* 1 node: staff 1 / 250 x $125,600 = $502.40 a year. */
    ck_assert_double_eq_tol(s.cost.ext.staff_usd_per_year, 502.4, 1e-9);
    cs_scenario_fini(&s);
    load_cost("cloud: {offer: aws-p5.48xlarge}", &s, cat);
    ck_assert_int_eq(s.cost.cloud_offer_rule[CS_CLOUD_ON_DEMAND], CS_OFFER_NAMED);
    ck_assert_double_eq_tol(s.cost.cloud_on_demand_usd_per_gpu_h, 6.88, 1e-9);
    ck_assert(isnan(s.cost.cloud_reserved_1y_usd_per_gpu_h));
    cs_scenario_fini(&s);
    load_cost("cloud: {on_demand: $2/GPU-h}, staff_per_year: $1000, cost_of_capital: 5%", &s, cat);
    ck_assert_int_eq(s.cost.cloud_offer_rule[CS_CLOUD_ON_DEMAND], CS_OFFER_SCENARIO);
    ck_assert_double_eq_tol(s.cost.cloud_on_demand_usd_per_gpu_h, 2, 1e-12);
    ck_assert_str_eq(s.cost.cloud_offer_for[CS_CLOUD_SPOT], "gcp-a3-highgpu-8g");
    ck_assert(!s.cost.ext.staff_default && !s.cost.ext.cost_of_capital_default);
    ck_assert_double_eq_tol(s.cost.ext.staff_usd_per_year, 1000, 1e-12);
    ck_assert_double_eq_tol(s.cost.ext.cost_of_capital, 0.05, 1e-12);
    cs_scenario_fini(&s);
    /* 2 nodes of NDR (8 x 400 Gb/s = 3,200 Gb/s per node): the offers that
     * state 3,200 Gb/s fit (p5, the capacity block, azure); the cheapest
     * on-demand is the capacity block's $4.91625. */
    load_cost("NODES2", &s, cat);
    ck_assert_int_eq(s.cost.cloud_offers_fitting, 3);
    ck_assert_str_eq(s.cost.cloud_offer_for[CS_CLOUD_ON_DEMAND], "aws-p5-capacity-block");
    ck_assert_int_eq(s.cost.cloud_offer_rule[CS_CLOUD_SPOT], CS_OFFER_CHEAPEST_UNFIT);
    ck_assert(strstr(s.cost.cloud_unfit_why[CS_CLOUD_SPOT], "800 Gb/s") != NULL);
    cs_scenario_fini(&s);
    cs_catalog_destroy(cat);
}
END_TEST

START_TEST(test_config_default_scenario)
{
    cs_catalog *cat = load_catalog();
    struct cs_scenario s;
    load_ok(cat, "scenarios/default.yaml", &s, NULL);
    ck_assert_int_eq(s.schema_version, 1);
    ck_assert_str_eq(s.name, "seed004-4x8-h100-hdr");
    ck_assert_uint_eq(s.seed, 42);
    ck_assert_int_eq(s.cluster.nodes, 4);
    ck_assert_int_eq(s.cluster.gpus_per_node, 8);
    ck_assert_int_eq(cs_scenario_gpus(&s), 32);
    ck_assert_str_eq(s.cluster.gpu.name, "H100-SXM5-80GB");
    ck_assert_double_eq_tol(s.cluster.gpu.peak_flops[CS_PREC_BF16], 989e12, 1);
    ck_assert_int_eq(s.cluster.intra.kind, CS_INTRA_NVSWITCH);
    ck_assert_double_eq_tol(s.cluster.intra.bw_bytes_per_s, 450e9, 1); /* the GPU's NVLink */
    ck_assert(s.cluster.intra.nvls);
    ck_assert_int_eq(s.cluster.fabric.topology, CS_TOPO_FAT_TREE);
    ck_assert_str_eq(s.cluster.fabric.link.name, "ib-hdr");
    ck_assert_double_eq_tol(s.cluster.fabric.link.bw_bytes_per_s, 25e9, 1); /* 200 Gb/s */
    ck_assert_int_eq(s.cluster.fabric.nics_per_node, 8);
    ck_assert_double_eq(s.cluster.fabric.oversubscription, 1.0);
    ck_assert_int_eq(s.cluster.storage.n_tiers, 3);
    ck_assert_int_eq(s.cluster.storage.tiers[0].kind, CS_STORAGE_NVME);
    ck_assert_int_eq(s.cluster.storage.tiers[1].kind, CS_STORAGE_PFS);
    ck_assert_int_eq(s.cluster.storage.tiers[2].kind, CS_STORAGE_OBJECT);
    ck_assert(s.has_workload);
    ck_assert_str_eq(s.workload.model.name, "llama3.1-70b");
    ck_assert_int_eq(s.workload.model.layers, 80);
    ck_assert_int_eq(s.workload.model.kv_heads, 8);
    ck_assert_int_eq(s.workload.par.tp * s.workload.par.pp * s.workload.par.dp *
                         s.workload.par.cp,
                     32);
    ck_assert_int_eq(s.workload.recompute, CS_RECOMPUTE_FULL);
    ck_assert_int_eq(s.workload.precision, CS_PREC_BF16);
    ck_assert_double_eq_tol(s.workload.tokens, 20e9, 1);
    ck_assert(s.failures.enabled);
    ck_assert_int_eq(s.failures.n_components, 2);
    ck_assert_double_eq_tol(s.failures.components[0].mtbf_s, 79000.0 * 3600, 1e-3);
    ck_assert(s.checkpoint.enabled && s.checkpoint.interval_optimal);
    ck_assert_str_eq(s.checkpoint.tier, "nvme-gen4"); /* "nvme" = the first NVMe tier */
    ck_assert_double_eq_tol(s.cost.electricity_usd_per_kwh, 0.0826, 1e-12);
    ck_assert_double_eq_tol(s.cost.colocation_usd_per_kw_month, 184.06, 1e-9);
    ck_assert_double_eq_tol(s.cost.gpu_price_usd, 31905, 1e-9);
    /* Cloud prices (docs/cost.md, "Cloud offers"): 4 nodes of 8 x 200G
     * HDR NICs need 1,600 Gb/s per instance. Of the catalog's H100 offers
     * aws-p5.48xlarge, aws-p5-capacity-block and azure-nd96isr-h100-v5
     * state 3,200 Gb/s (gcp-a3-highgpu-8g 800 Gb/s; the others none or
     * 1-GPU instances); the cheapest on-demand of the three is the
     * capacity block's $39.33 / 8 GPUs. No fitting offer has commitment
     * or spot prices, so those come from the cheapest that does not fit
     * (gcp-a3-highgpu-8g, $61.38 / 8 for 1 year). */
    ck_assert_str_eq(s.cost.cloud_offer, "aws-p5-capacity-block");
    ck_assert_double_eq_tol(s.cost.cloud_on_demand_usd_per_gpu_h, 39.33 / 8, 1e-9);
    ck_assert_int_eq(s.cost.cloud_offer_rule[CS_CLOUD_ON_DEMAND], CS_OFFER_CHEAPEST_FIT);
    ck_assert_int_eq(s.cost.cloud_offers_fitting, 3);
    ck_assert_str_eq(s.cost.cloud_offer_for[CS_CLOUD_RESERVED_1Y], "gcp-a3-highgpu-8g");
    ck_assert_int_eq(s.cost.cloud_offer_rule[CS_CLOUD_RESERVED_1Y], CS_OFFER_CHEAPEST_UNFIT);
    ck_assert_double_eq_tol(s.cost.cloud_reserved_1y_usd_per_gpu_h, 61.38 / 8, 1e-9);
    /* Staff: 4 servers / 250 per FTE x $125,600 = $2,009.60 a year;
     * capital at the default 8%. */
    ck_assert_double_eq_tol(s.cost.ext.staff_usd_per_year, 4.0 / 250 * 125600, 1e-9);
    ck_assert(s.cost.ext.staff_default && s.cost.ext.cost_of_capital_default);
    ck_assert_double_eq_tol(s.cost.ext.cost_of_capital, 0.08, 1e-12);
    ck_assert(s.run.enabled); /* run: {replicas: 200}, trained to workload.tokens */
    ck_assert_int_eq(s.run.replicas, 200);
    ck_assert(isnan(s.run.duration_s));
    cs_scenario_fini(&s);
    cs_catalog_destroy(cat);
}
END_TEST

/* Catalog references, overrides, explicit model, derived dp. */
START_TEST(test_config_overrides_apply)
{
    cs_catalog *cat = load_catalog();
    struct cs_scenario s;
    load_ok(cat, "tests/data/good/hdr_overrides.yaml", &s, NULL);
    ck_assert_str_eq(s.cluster.gpu.name, "A100-SXM4-80GB");
    ck_assert_double_eq_tol(s.cluster.gpu.peak_flops[CS_PREC_BF16], 312e12, 1); /* catalog */
    ck_assert_double_eq_tol(s.cluster.gpu.price_usd, 15000, 1e-9);             /* override */
    ck_assert(!s.cluster.intra.nvls); /* A100's NVSwitch gen2 has no NVLS */
    ck_assert_double_eq_tol(s.cluster.intra.bw_bytes_per_s, 300e9, 1);
    ck_assert_double_eq_tol(s.cluster.fabric.link.bw_bytes_per_s, 25e9, 1);
    ck_assert_double_eq_tol(s.cluster.fabric.link.efficiency, 0.85, 1e-12);
    ck_assert_int_eq(s.cluster.fabric.link.switch_radix, 40);
    ck_assert_int_eq(s.cluster.fabric.topology, CS_TOPO_SPINE_LEAF);
    ck_assert_double_eq(s.cluster.fabric.oversubscription, 2.0);
    ck_assert_int_eq(s.cluster.storage.n_tiers, 2);
    ck_assert_str_eq(s.cluster.storage.tiers[0].name, "nvme-gen5");
    ck_assert_int_eq(s.cluster.storage.tiers[0].devices_per_node, 4); /* override */
    ck_assert_double_eq_tol(s.cluster.storage.tiers[0].read_bw_bytes_per_s, 14e9, 1);
    ck_assert_str_eq(s.checkpoint.tier, "gds"); /* "pfs" = the first parallel FS */
    ck_assert(!s.checkpoint.interval_optimal);
    ck_assert_double_eq_tol(s.checkpoint.interval_s, 1800, 1e-9);
    ck_assert_int_eq(s.checkpoint.mode, CS_CKPT_ASYNC);
    ck_assert_str_eq(s.workload.model.name, "custom");
    ck_assert_int_eq(s.workload.model.kv_heads, 16);     /* default = heads */
    ck_assert_int_eq(s.workload.model.ffn_hidden, 8192); /* default = 4 * hidden */
    ck_assert_int_eq(s.workload.model.vocab, 51200);
    ck_assert_int_eq(s.workload.model.seq_len, 4096);
    ck_assert_int_eq(s.workload.par.dp, 4); /* 16 GPUs / (2 * 2) */
    ck_assert_double_eq_tol(s.workload.tokens, 2e12, 1);
    ck_assert(s.run.enabled);
    ck_assert_double_eq_tol(s.run.duration_s, 54 * 86400.0, 1e-6);
    ck_assert_int_eq(s.run.replicas, 10);
    ck_assert(!s.failures.enabled);
    ck_assert_double_eq_tol(s.failures.restart_s, 900, 1e-9); /* default 15min */
    ck_assert_double_eq_tol(s.cost.electricity_usd_per_kwh, 0.12, 1e-12);
    ck_assert_double_eq_tol(s.cost.pue, 1.3, 1e-12);
    ck_assert_double_eq_tol(s.cost.gpu_price_usd, 15000, 1e-9); /* follows the GPU override */
    ck_assert_str_eq(s.cost.cloud_offer, "aws-p4de.24xlarge");
    ck_assert_double_eq_tol(s.cost.cloud_on_demand_usd_per_gpu_h, 27.447 / 8, 1e-9);
    ck_assert_double_eq_tol(s.cost.cloud_spot_usd_per_gpu_h, 1.5, 1e-12);
    ck_assert(isnan(s.cost.cloud_reserved_1y_usd_per_gpu_h));
    cs_scenario_fini(&s);
    cs_catalog_destroy(cat);
}
END_TEST

START_TEST(test_config_provenance_origins)
{
    cs_catalog *cat = load_catalog();
    struct cs_scenario s;
    struct cs_provenance p;
    cs_provenance_init(&p);
    load_ok(cat, "tests/data/good/hdr_overrides.yaml", &s, &p);
    /* a file value */
    const struct cs_prov_entry *e = cs_provenance_find(&p, "cluster.fabric.link");
    ck_assert_ptr_nonnull(e);
    ck_assert_str_eq(e->value, "ib-hdr");
    ck_assert_ptr_nonnull(strstr(e->origin, "hdr_overrides.yaml:13:11"));
    /* an override is a file value under the resolved path */
    e = cs_provenance_find(&p, "cluster.fabric.link.efficiency");
    ck_assert_ptr_nonnull(e);
    ck_assert_str_eq(e->value, "85%");
    ck_assert_ptr_nonnull(strstr(e->origin, "hdr_overrides.yaml:15:19"));
    /* a catalog value, with its source and date */
    e = cs_provenance_find(&p, "cluster.fabric.link.bw");
    ck_assert_ptr_nonnull(e);
    ck_assert_str_eq(e->value, "200Gbps");
    ck_assert_ptr_nonnull(strstr(e->origin, "catalog ib-hdr (IBTA roadmap"));
    ck_assert_ptr_nonnull(strstr(e->origin, "2026-08-22)"));
    e = cs_provenance_find(&p, "cluster.gpu.hbm_bw");
    ck_assert_ptr_nonnull(e);
    ck_assert_str_eq(e->value, "2039GB/s");
    ck_assert_ptr_nonnull(strstr(e->origin, "catalog A100-SXM4-80GB (NVIDIA A100 datasheet"));
    /* a default */
    e = cs_provenance_find(&p, "cluster.fabric.in_network_reduction");
    ck_assert_ptr_nonnull(e);
    ck_assert_str_eq(e->value, "false");
    ck_assert_str_eq(e->origin, "default");
    e = cs_provenance_find(&p, "workload.parallelism.dp");
    ck_assert_ptr_nonnull(e);
    ck_assert_str_eq(e->value, "4");
    ck_assert_ptr_nonnull(strstr(e->origin, "default ("));
    /* every path appears once */
    for (size_t i = 0; i < p.n; i++)
        for (size_t j = i + 1; j < p.n; j++)
            ck_assert_msg(strcmp(p.items[i].path, p.items[j].path) != 0, "duplicate %s",
                          p.items[i].path);
    ck_assert_uint_ge(p.n, 100);
    cs_provenance_fini(&p);
    cs_scenario_fini(&s);
    cs_catalog_destroy(cat);
}
END_TEST

START_TEST(test_config_include_merges)
{
    cs_catalog *cat = load_catalog();
    struct cs_scenario s;
    struct cs_provenance p;
    cs_provenance_init(&p);
    load_ok(cat, "tests/data/good/include_main.yaml", &s, &p);
    ck_assert_str_eq(s.cluster.gpu.name, "H200-SXM-141GB"); /* from the included file */
    ck_assert_int_eq(s.cluster.nodes, 16);                  /* the including file wins */
    ck_assert_str_eq(s.cluster.fabric.link.name, "roce-400g");
    ck_assert_double_eq_tol(s.cluster.fabric.link.bw_bytes_per_s, 50e9, 1);
    ck_assert_int_eq(s.cluster.fabric.topology, CS_TOPO_RAIL_OPTIMIZED);
    const struct cs_prov_entry *e = cs_provenance_find(&p, "cluster.gpu");
    ck_assert_ptr_nonnull(e);
    ck_assert_ptr_nonnull(strstr(e->origin, "parts/base_cluster.yaml:2:8"));
    e = cs_provenance_find(&p, "cluster.nodes");
    ck_assert_ptr_nonnull(strstr(e->origin, "include_main.yaml:5:10"));
    cs_provenance_fini(&p);
    cs_scenario_fini(&s);
    cs_catalog_destroy(cat);
}
END_TEST

START_TEST(test_config_defaults)
{
    cs_catalog *cat = load_catalog();
    struct cs_scenario s;
    struct cs_provenance p;
    cs_provenance_init(&p);
    load_ok(cat, "tests/data/good/minimal.yaml", &s, &p);
    ck_assert_str_eq(s.name, "minimal");
    ck_assert_uint_eq(s.seed, 1);
    ck_assert_int_eq(s.cluster.nodes, 1);
    ck_assert_int_eq(s.cluster.gpus_per_node, 8);
    ck_assert_str_eq(s.cluster.gpu.name, "H100-SXM5-80GB");
    ck_assert_str_eq(s.cluster.intra.name, "nvswitch");
    ck_assert_str_eq(s.cluster.fabric.link.name, "ib-ndr");
    ck_assert_double_eq_tol(s.cluster.fabric.link.bw_bytes_per_s, 50e9, 1);
    ck_assert_int_eq(s.cluster.fabric.nics_per_node, 8);
    ck_assert_int_eq(s.cluster.storage.n_tiers, 1);
    ck_assert_str_eq(s.cluster.storage.tiers[0].name, "nvme-gen4");
    ck_assert_double_eq_tol(s.cluster.host_memory_bytes, 2.0 * 1099511627776.0, 1);
    ck_assert(!s.has_workload);
    ck_assert(!s.failures.enabled && !s.checkpoint.enabled && !s.run.enabled && !s.cost.enabled);
    ck_assert_double_eq(s.cost.years, 3);
    ck_assert_double_eq_tol(s.cost.utilization, 0.7, 1e-12);
    ck_assert_str_eq(s.cost.site, "us-average");
    ck_assert_str_eq(cs_provenance_find(&p, "cluster.gpu")->origin, "default");
    ck_assert_str_eq(cs_provenance_find(&p, "cluster.nodes")->origin, "default");
    ck_assert_str_eq(cs_provenance_find(&p, "name")->origin, "default (the file name)");
    cs_provenance_fini(&p);
    cs_scenario_fini(&s);
    cs_catalog_destroy(cat);
}
END_TEST

/* The topology descriptors' keys land in struct cs_fabric_cfg, and what
 * they do not give stays 0 (derived from the radix by the builder). */
START_TEST(test_config_fabric_descriptors)
{
    cs_catalog *cat = load_catalog();
    struct cs_scenario s;
    load_ok(cat, "tests/data/good/fabric_spine_leaf.yaml", &s, NULL);
    ck_assert_int_eq(s.cluster.fabric.topology, CS_TOPO_SPINE_LEAF);
    ck_assert_int_eq(s.cluster.fabric.leaves, 4);
    ck_assert_int_eq(s.cluster.fabric.uplinks_per_leaf, 16);
    ck_assert_int_eq(s.cluster.fabric.spines, 4);
    ck_assert_int_eq(s.cluster.fabric.domain_gpus, 0);
    ck_assert_double_eq(s.cluster.fabric.agg_oversubscription, 1.0);
    cs_scenario_fini(&s);
    load_ok(cat, "tests/data/good/fabric_descriptors.yaml", &s, NULL);
    ck_assert_int_eq(s.cluster.fabric.topology, CS_TOPO_NVL_DOMAIN);
    ck_assert_int_eq(s.cluster.fabric.domain_gpus, 72);
    ck_assert_int_eq(s.cluster.fabric.leaves, 0);
    ck_assert(!s.cluster.fabric.df_valiant);
    cs_scenario_fini(&s);
    cs_catalog_destroy(cat);
}
END_TEST

/* L40S over PCIe: the intra-node bandwidth is the Gen4 x16 line rate,
 * 16 lanes x 16 GT/s x 128/130 / 8 = 31.51e9 B/s; a preset with one key
 * overridden keeps the rest of the preset. */
START_TEST(test_config_pcie_and_preset_override)
{
    cs_catalog *cat = load_catalog();
    struct cs_scenario s;
    struct cs_provenance p;
    cs_provenance_init(&p);
    load_ok(cat, "tests/data/good/pcie_l40s.yaml", &s, &p);
    ck_assert_str_eq(s.cluster.intra.name, "pcie"); /* the GPU's intra_default */
    ck_assert_double_eq_tol(s.cluster.intra.bw_bytes_per_s, 16 * 16e9 * 128.0 / 130.0 / 8, 1);
    ck_assert_int_eq(s.cluster.fabric.nics_per_node, 1);
    ck_assert_str_eq(s.workload.model.name, "llama3.1-8b");
    ck_assert_int_eq(s.workload.model.layers, 32);
    ck_assert_int_eq(s.workload.model.seq_len, 4096);
    ck_assert_int_eq(s.workload.par.dp, 4);
    ck_assert_int_eq(s.workload.par.fsdp, CS_FSDP_FULL);
    ck_assert_int_eq(s.failures.components[0].dist, CS_DIST_WEIBULL);
    ck_assert_double_eq_tol(s.failures.components[0].shape, 0.8, 1e-12);
    ck_assert_double_eq_tol(s.failures.components[0].mtbf_s, 365 * 86400.0, 1e-3);
    ck_assert_ptr_nonnull(strstr(cs_provenance_find(&p, "workload.model.layers")->origin,
                                 "preset llama3.1-8b"));
    ck_assert_ptr_nonnull(strstr(cs_provenance_find(&p, "workload.model.seq_len")->origin,
                                 "pcie_l40s.yaml:10:14"));
    ck_assert_str_eq(s.cost.cloud_offer, "runpod-l40s");
    cs_provenance_fini(&p);
    cs_scenario_fini(&s);
    cs_catalog_destroy(cat);
}
END_TEST


/* Did-you-mean for the names people type: the family a name denotes, not
 * the nearest string (edit distance alone maps "llama3-70b" to
 * "llama2-70b", 1 edit, over "llama3.1-70b", 2, and "GH200" to "GB200"). */
START_TEST(test_suggest_families)
{
    const char *const gpus[] = {"A100-SXM4-40GB", "A100-SXM4-80GB", "H100-SXM5-80GB",
                                "H100-PCIe-80GB", "H200-SXM-141GB", "B200",
                                "GB200", "MI300X", "MI325X", "L40S"};
    const size_t ng = sizeof gpus / sizeof gpus[0];
    const char *const models[] = {"llama2-7b", "llama2-70b", "llama3.1-8b", "llama3.1-70b",
                                  "llama3.1-405b", "gpt3-175b"};
    const size_t nm = sizeof models / sizeof models[0];
    char b[512];
    ck_assert(cs_suggest_phrase("H100", gpus, ng, b, sizeof b));
    ck_assert_str_eq(b, "did you mean one of \"H100-SXM5-80GB\", \"H100-PCIe-80GB\"?");
    ck_assert(cs_suggest_phrase("h100", gpus, ng, b, sizeof b)); /* case does not matter */
    ck_assert_str_eq(b, "did you mean one of \"H100-SXM5-80GB\", \"H100-PCIe-80GB\"?");
    ck_assert(cs_suggest_phrase("A100", gpus, ng, b, sizeof b));
    ck_assert_str_eq(b, "did you mean one of \"A100-SXM4-40GB\", \"A100-SXM4-80GB\"?");
    ck_assert(cs_suggest_phrase("H200", gpus, ng, b, sizeof b));
    ck_assert_str_eq(b, "did you mean \"H200-SXM-141GB\"?");
    ck_assert(cs_suggest_phrase("MI300", gpus, ng, b, sizeof b)); /* not MI325X */
    ck_assert_str_eq(b, "did you mean \"MI300X\"?");
    ck_assert(cs_suggest_phrase("H100-SXM", gpus, ng, b, sizeof b));
    ck_assert_str_eq(b, "did you mean \"H100-SXM5-80GB\"?");
    ck_assert(cs_suggest_phrase("GH200", gpus, ng, b, sizeof b));
    ck_assert_ptr_nonnull(strstr(b, "GH200 is not in the catalog"));
    ck_assert_ptr_nonnull(strstr(b, "closest: \"H200-SXM-141GB\", \"H100-SXM5-80GB\""));
    ck_assert_ptr_null(strstr(b, "GB200"));
    /* "H10" is not the H100 family (a digit after a digit is no boundary),
     * and no name is within 2 edits of it. */
    ck_assert(!cs_suggest_phrase("H10", gpus, ng, b, sizeof b));
    ck_assert_str_eq(b, "");
    ck_assert(cs_suggest_phrase("llama3-70b", models, nm, b, sizeof b));
    ck_assert_str_eq(b, "did you mean \"llama3.1-70b\"?");
    ck_assert(cs_suggest_phrase("Llama-3.1-8B", models, nm, b, sizeof b));
    ck_assert_str_eq(b, "did you mean \"llama3.1-8b\"?");
    ck_assert(cs_suggest_phrase("llama3", models, nm, b, sizeof b));
    ck_assert_str_eq(b, "did you mean one of \"llama3.1-8b\", \"llama3.1-70b\", \"llama3.1-405b\"?");
    /* No family: the nearest string, as before. */
    ck_assert(cs_suggest_phrase("gpt3-175", models, nm, b, sizeof b));
    ck_assert_str_eq(b, "did you mean \"gpt3-175b\"?");
}
END_TEST

/* The same through the scenario binder, on the bundled catalog. */
START_TEST(test_suggest_in_scenarios)
{
    cs_catalog *cat = NULL;
    cs_diags d;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_catalog_load_dir(cs_catalog_default_dir(), &d, &cat), CS_OK);
    const char *y = "schema_version: 1\ncluster: {gpu: H100}\n"
                    "workload: {model: {preset: llama3-70b}, global_batch: 8}\n";
    struct cs_scenario s;
    ck_assert_int_eq(cs_cfg_load_scenario_buffer("t.yaml", y, strlen(y), cat, &d, &s, NULL),
                     CS_ECONFIG);
    bool gpu = false, preset = false;
    for (size_t i = 0; i < d.n; i++) {
        gpu = gpu || strstr(d.items[i].msg, "cluster.gpu: unknown GPU \"H100\" (did you mean one "
                                            "of \"H100-SXM5-80GB\", \"H100-96GB-HBM2e-500W\", "
                                            "\"H100-PCIe-80GB\"?)");
        preset = preset || strstr(d.items[i].msg, "\"llama3-70b\" (did you mean \"llama3.1-70b\"?)");
    }
    ck_assert(gpu);
    ck_assert(preset);
    cs_diags_fini(&d);
    cs_catalog_destroy(cat);
}
END_TEST

/* Whether a diagnostic holding `text` was reported (at `line`, or on any
 * line when it is 0). */
static bool has_diag(const cs_diags *d, int line, const char *text)
{
    for (size_t i = 0; i < d->n; i++)
        if ((line == 0 || d->items[i].line == line) && strstr(d->items[i].msg, text) != NULL)
            return true;
    return false;
}

/* A scenario the loader refuses (CS_ECONFIG) with a diagnostic holding
 * `want` at `line` (any line when 0). */
static void refused(const cs_catalog *cat, const char *yaml, int line, const char *want)
{
    cs_diags d;
    cs_diags_init(&d);
    struct cs_scenario s;
    ck_assert_int_eq(cs_cfg_load_scenario_buffer("t.yaml", yaml, strlen(yaml), cat, &d, &s, NULL),
                     CS_ECONFIG);
    ck_assert_msg(has_diag(&d, line, want), "no diagnostic \"%s\" for\n%s(first: %s)", want, yaml,
                  d.n ? d.items[0].msg : "none");
    cs_diags_fini(&d);
}

/* A block-scaled precision on a GPU without block-scaled tensor cores
 * (H100: no mxfp8 key in the catalog, NAN) is refused where it is written;
 * on B200 it loads with the catalog's MXFP8 peak. */
START_TEST(test_config_precision_needs_peak)
{
    cs_catalog *cat = NULL;
    cs_diags d;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_catalog_load_dir(cs_catalog_default_dir(), &d, &cat), CS_OK);
    const char *y = "schema_version: 1\ncluster: {gpu: H100-SXM5-80GB, nodes: 1}\n"
                    "workload:\n  model: {preset: llama3.1-8b}\n  global_batch: 8\n"
                    "  precision: mxfp8\n";
    refused(cat, y, 6, "workload.precision: H100-SXM5-80GB has no mxfp8 peak in the catalog");
    struct cs_scenario s;
    const char *b = "schema_version: 1\ncluster: {gpu: B200, nodes: 1}\n"
                    "workload:\n  model: {preset: llama3.1-8b}\n  global_batch: 8\n"
                    "  precision: mxfp8\n";
    ck_assert_int_eq(cs_cfg_load_scenario_buffer("b.yaml", b, strlen(b), cat, &d, &s, NULL), CS_OK);
    ck_assert_int_eq(s.workload.precision, CS_PREC_MXFP8);
    ck_assert_double_eq_tol(s.cluster.gpu.peak_flops[CS_PREC_MXFP8], 4500e12, 1);
    cs_scenario_fini(&s);
    cs_diags_fini(&d);
    cs_catalog_destroy(cat);
}
END_TEST

/* The param_gather flags belong to their precisions: fp8_param_gather
 * under bf16 is refused where it is written, fp4_param_gather under fp8
 * too; under fp8 the first loads and stores the weights quantized. */
START_TEST(test_config_param_gather_needs_precision)
{
    cs_catalog *cat = NULL;
    cs_diags d;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_catalog_load_dir(cs_catalog_default_dir(), &d, &cat), CS_OK);
    const char *y = "schema_version: 1\ncluster: {gpu: H100-SXM5-80GB, nodes: 1}\n"
                    "workload:\n  model: {preset: llama3.1-8b}\n  global_batch: 8\n"
                    "  precision: bf16\n  fp8_param_gather: true\n";
    refused(cat, y, 7,
            "workload.fp8_param_gather: the weights are stored in FP8 only under "
            "precision fp8 or mxfp8 (this workload trains in bf16)");
    const char *f4 = "schema_version: 1\ncluster: {gpu: H100-SXM5-80GB, nodes: 1}\n"
                     "workload:\n  model: {preset: llama3.1-8b}\n  global_batch: 8\n"
                     "  precision: fp8\n  fp4_param_gather: true\n";
    refused(cat, f4, 0,
            "workload.fp4_param_gather: the weights are stored in FP4 only under "
            "precision nvfp4");
    const char *b = "schema_version: 1\ncluster: {gpu: H100-SXM5-80GB, nodes: 1}\n"
                    "workload:\n  model: {preset: llama3.1-8b}\n  global_batch: 8\n"
                    "  precision: fp8\n  fp8_param_gather: true\n  cross_entropy: te\n";
    struct cs_scenario s;
    ck_assert_int_eq(cs_cfg_load_scenario_buffer("b.yaml", b, strlen(b), cat, &d, &s, NULL), CS_OK);
    ck_assert(cs_workload_quantized_params(&s.workload));
    ck_assert_int_eq(cs_workload_cross_entropy(&s.workload), CS_CE_TE);
    cs_scenario_fini(&s);
    cs_diags_fini(&d);
    /* FP8 attention needs a quantized recipe, named on its line */
    const char *fa = "schema_version: 1\ncluster: {gpu: H100-SXM5-80GB, nodes: 1}\n"
                     "workload:\n  model: {preset: llama3.1-8b}\n  global_batch: 8\n"
                     "  precision: bf16\n  fp8_attention: true\n";
    refused(cat, fa, 7,
            "workload.fp8_attention: FP8 attention runs only under a quantized recipe "
            "(fp8, mxfp8 or nvfp4; this workload trains in bf16)");
    cs_catalog_destroy(cat);
}
END_TEST


/* Layers and modules at another precision (workload.bf16_layers_at_end,
 * workload.module_precision): each refusal names its line and what was
 * expected; a consistent NVFP4 workload loads with the values it states. */
START_TEST(test_config_module_precision)
{
    cs_catalog *cat = NULL;
    cs_diags d;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_catalog_load_dir(cs_catalog_default_dir(), &d, &cat), CS_OK);
    const char *head = "schema_version: 1\ncluster: {gpu: B200, nodes: 1}\n"
                       "workload:\n  model: {preset: llama3.1-8b}\n  global_batch: 8\n";
    static const struct {
        const char *body;
        int line;
        const char *want;
    } bad[] = {
        {"  precision: bf16\n  bf16_layers_at_end: 2\n", 7,
         "workload.bf16_layers_at_end: keeps layers in BF16 under a quantized recipe (fp8, mxfp8 or "
         "nvfp4; this workload trains in bf16)"},
        {"  precision: nvfp4\n  bf16_layers_at_start: 20\n  bf16_layers_at_end: 13\n", 0,
         "20 + 13 layers in BF16, and the model has 32; expected at most 32 in all"},
        {"  precision: nvfp4\n  module_precision: {attn_qkvv: bf16}\n", 7,
         "workload.module_precision: unknown module \"attn_qkvv\" (expected one of attn_qkv, attn_proj"},
        {"  precision: nvfp4\n  module_precision: {attn_qkv: bf17}\n", 7,
         "workload.module_precision.attn_qkv: unknown precision \"bf17\""},
        {"  precision: nvfp4\n  module_precision: {experts: bf16}\n", 7,
         "workload.module_precision.experts: the model has no routed experts"},
        {"  precision: bf16\n  module_precision: {attn_qkv: fp8}\n", 7,
         "workload.module_precision.attn_qkv: sets a module's precision inside quantized layers, "
         "and this workload trains in bf16"},
        {"  precision: nvfp4\n  module_precision: [attn_qkv]\n", 7,
         "workload.module_precision: expected a map from module"},
        {"  precision: mxfp8\n  module_precision: {attn_proj: fp32}\n", 7,
         "workload.module_precision.attn_proj: fp32; expected bf16, fp16, fp8, mxfp8 or nvfp4"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char y[512];
        snprintf(y, sizeof y, "%s%s", head, bad[i].body);
        refused(cat, y, bad[i].line, bad[i].want);
    }
    /* a module precision the GPU has no peak for: nvfp4 on H100 */
    const char *h = "schema_version: 1\ncluster: {gpu: H100-SXM5-80GB, nodes: 1}\n"
                    "workload:\n  model: {preset: llama3.1-8b}\n  global_batch: 8\n"
                    "  precision: fp8\n  module_precision: {attn_proj: nvfp4}\n";
    refused(cat, h, 7, "workload.module_precision.attn_proj: H100-SXM5-80GB has no nvfp4 peak");
    struct cs_scenario s;
    char y[512];
    snprintf(y, sizeof y, "%s%s", head,
             "  precision: nvfp4\n  bf16_layers_at_end: 4\n"
             "  module_precision: {attn_qkv: bf16, mlp: mxfp8}\n");
    ck_assert_int_eq(cs_cfg_load_scenario_buffer("ok.yaml", y, strlen(y), cat, &d, &s, NULL), CS_OK);
    const struct cs_workload *w = &s.workload;
    ck_assert_int_eq(w->bf16_layers_end, 4);
    ck_assert_int_eq(w->bf16_layers_start, 0);
    ck_assert_int_eq(cs_workload_module_precision(w, CS_QMOD_ATTN_QKV, w->precision), CS_PREC_BF16);
    ck_assert_int_eq(cs_workload_module_precision(w, CS_QMOD_MLP, w->precision), CS_PREC_MXFP8);
    ck_assert_int_eq(cs_workload_module_precision(w, CS_QMOD_ATTN_PROJ, w->precision), CS_PREC_NVFP4);
    /* in a BF16 layer every module is BF16 */
    ck_assert_int_eq(cs_workload_module_precision(w, CS_QMOD_MLP, CS_PREC_BF16), CS_PREC_BF16);
    ck_assert(!cs_workload_layer_bf16(w, 27));
    ck_assert(cs_workload_layer_bf16(w, 28));
    ck_assert(cs_workload_layer_bf16(w, 31));
    int cnt[CS_BLOCK_COUNT];
    ck_assert_int_eq(cs_workload_bf16_slots_in(w, 16, 16, cnt), 4);
    ck_assert_int_eq(cnt[CS_BLOCK_LAYER], 4);
    ck_assert_int_eq(cs_workload_bf16_slots_in(w, 0, 16, cnt), 0);
    cs_scenario_fini(&s);
    cs_diags_fini(&d);
    cs_catalog_destroy(cat);
}
END_TEST

static Suite *config_suite(void)
{
    Suite *s = suite_create("config");
    TCase *tc = tcase_create("scenario");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_config_bad_corpus);
    tcase_add_test(tc, test_config_huge_scalar);
    tcase_add_test(tc, test_config_missing_file_is_eio);
    tcase_add_test(tc, test_config_collects_all_errors);
    tcase_add_test(tc, test_config_default_scenario);
    tcase_add_test(tc, test_config_cost_keys_documented);
    tcase_add_test(tc, test_config_cloud_offer_choice);
    tcase_add_test(tc, test_config_nvlink_generation);
    tcase_add_test(tc, test_config_overrides_apply);
    tcase_add_test(tc, test_config_provenance_origins);
    tcase_add_test(tc, test_config_include_merges);
    tcase_add_test(tc, test_config_defaults);
    tcase_add_test(tc, test_config_pcie_and_preset_override);
    tcase_add_test(tc, test_config_fabric_descriptors);
    tcase_add_test(tc, test_suggest_families);
    tcase_add_test(tc, test_suggest_in_scenarios);
    tcase_add_test(tc, test_config_precision_needs_peak);
    tcase_add_test(tc, test_config_param_gather_needs_precision);
    tcase_add_test(tc, test_config_module_precision);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return cs_test_run(config_suite()); }
