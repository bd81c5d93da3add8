/* check_catalog.c: the hardware and price catalog (config/catalog.c and
 * the scenarios/catalog files): the contract names exist, every entry and
 * field has a source, spot values equal the reference catalog
 * (validation/hardware/catalog.yaml, compared field by field when
 * it is present), and broken catalog files fail with located messages. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, setenv */
#include "clustersim/config/catalog.h"

#include "../config/yamltree.h"
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
    ck_assert_int_eq(st, CS_OK);
    ck_assert_uint_eq(d.n, 0);
    cs_diags_fini(&d);
    return cat;
}

static const double GiB = 1073741824.0;

START_TEST(test_catalog_contract_names)
{
    cs_catalog *cat = load_catalog();
    static const char *const gpus[] = {"A100-SXM4-40GB", "A100-SXM4-80GB", "H100-SXM5-80GB",
                                       "H100-PCIe-80GB", "H200-SXM-141GB", "B200", "GB200",
                                       "MI300X", "MI325X", "L40S", "RTX-4090"};
    static const char *const links[] = {"ib-hdr", "ib-ndr", "ib-xdr", "roce-100g", "roce-200g",
                                        "roce-400g", "eth-100g", "eth-400g", "omnipath-100g"};
    static const char *const intra[] = {"nvswitch", "nvlink-p2p", "pcie"};
    static const char *const storage[] = {"nvme-gen4", "nvme-gen5", "lustre", "gds", "nfs", "s3"};
    for (size_t i = 0; i < sizeof gpus / sizeof gpus[0]; i++) {
        const struct cs_gpu_spec *g = cs_catalog_gpu(cat, gpus[i]);
        ck_assert_msg(g != NULL, "GPU %s missing", gpus[i]);
        ck_assert_str_eq(g->name, gpus[i]);
        ck_assert_msg(g->peak_flops[CS_PREC_BF16] > 0 && g->hbm_bytes > 0, "%s", gpus[i]);
        ck_assert_ptr_nonnull(cs_catalog_intra(cat, g->intra_default));
    }
    for (size_t i = 0; i < sizeof links / sizeof links[0]; i++) {
        const struct cs_link_spec *l = cs_catalog_link(cat, links[i]);
        ck_assert_msg(l != NULL, "link %s missing", links[i]);
        ck_assert_msg(l->efficiency > 0 && l->efficiency <= 1, "%s efficiency", links[i]);
        ck_assert_msg(l->switch_radix > 0, "%s radix", links[i]);
    }
    for (size_t i = 0; i < 3; i++)
        ck_assert_msg(cs_catalog_intra(cat, intra[i]) != NULL, "intra %s missing", intra[i]);
    for (size_t i = 0; i < sizeof storage / sizeof storage[0]; i++)
        ck_assert_msg(cs_catalog_storage(cat, storage[i]) != NULL, "storage %s", storage[i]);
    ck_assert_ptr_nonnull(cs_catalog_site(cat, "us-average"));
    ck_assert_ptr_null(cs_catalog_gpu(cat, "H100"));
    /* + MI355X, GB10, H100 96GB, GB300, B300, H800, MI350X */
    ck_assert_uint_eq(cs_catalog_count(cat, CS_CATALOG_GPU), 18);
    cs_catalog_destroy(cat);
}
END_TEST

/* Every entry names a source; every field resolves to a non-empty source;
 * every estimate says its basis. */
START_TEST(test_catalog_every_figure_sourced)
{
    cs_catalog *cat = load_catalog();
    size_t fields = 0, estimates = 0;
    for (int k = 0; k < CS_CATALOG_KIND_COUNT; k++) {
        size_t n = cs_catalog_count(cat, (enum cs_catalog_kind)k);
        ck_assert_msg(n > 0, "no %s entries", cs_catalog_kind_name((enum cs_catalog_kind)k));
        for (size_t i = 0; i < n; i++) {
            struct cs_catalog_entry_info info;
            ck_assert(cs_catalog_entry(cat, (enum cs_catalog_kind)k, i, &info));
            ck_assert_msg(strlen(info.source) > 5, "%s has no source", info.name);
            ck_assert_msg(strlen(info.date) >= 4, "%s has no date", info.name);
            size_t nf;
            const struct cs_catalog_field *f =
                cs_catalog_fields(cat, (enum cs_catalog_kind)k, info.name, &nf);
            ck_assert_msg(nf > 0, "%s has no fields", info.name);
            for (size_t j = 0; j < nf; j++, fields++) {
                ck_assert_msg(strlen(f[j].source) > 5, "%s.%s has no source", info.name,
                              f[j].key);
                if (f[j].estimate) {
                    estimates++;
                    ck_assert_msg(*f[j].basis, "%s.%s is an estimate without a basis",
                                  info.name, f[j].key);
                }
            }
        }
    }
    printf("catalog: %zu fields, %zu marked estimate\n", fields, estimates);
    ck_assert_uint_ge(estimates, 10);
    cs_catalog_destroy(cat);
}
END_TEST

/* Hand-checked values; memory reads vendor "GB" as GiB (see catalog.h). */
START_TEST(test_catalog_spot_values)
{
    cs_catalog *cat = load_catalog();
    const struct cs_gpu_spec *h = cs_catalog_gpu(cat, "H100-SXM5-80GB");
    ck_assert_double_eq_tol(h->peak_flops[CS_PREC_BF16], 989e12, 1);
    ck_assert_double_eq_tol(h->peak_flops[CS_PREC_FP8], 1979e12, 1);
    ck_assert_double_eq_tol(h->hbm_bytes, 80 * GiB, 1);
    ck_assert_double_eq_tol(h->hbm_bw_bytes_per_s, 3350e9, 1);
    ck_assert_double_eq(h->tdp_w, 700);
    ck_assert_double_eq_tol(h->scaleup_bw_bytes_per_s, 450e9, 1);
    ck_assert_double_eq(h->price_usd, 31905);
    ck_assert_double_eq(h->server_price_usd, 255237);
    ck_assert_double_eq(h->server_power_w, 10200);
    ck_assert_int_eq(h->pcie_gen, 5);
    ck_assert(h->nvls);
    ck_assert_str_eq(h->date, "2026-08-22");
    const struct cs_gpu_spec *a = cs_catalog_gpu(cat, "A100-SXM4-80GB");
    ck_assert(isnan(a->peak_flops[CS_PREC_FP8])); /* Ampere has no FP8 */
    ck_assert(!a->nvls);
    ck_assert(isnan(cs_catalog_gpu(cat, "MI325X")->price_usd)); /* NOT FOUND */
    ck_assert_double_eq_tol(cs_catalog_gpu(cat, "MI300X")->p2p_bw_bytes_per_s, 64e9, 1);
    ck_assert_int_eq(cs_catalog_gpu(cat, "GB200")->scaleup_domain_gpus, 72);
    /* Block-scaled peaks: MXFP8 at the FP8 rate, NVFP4 at the dense FP4
     * rate on Blackwell; none (NAN) before it. */
    ck_assert(isnan(h->peak_flops[CS_PREC_MXFP8]) && isnan(h->peak_flops[CS_PREC_NVFP4]));
    ck_assert(isnan(cs_catalog_gpu(cat, "MI300X")->peak_flops[CS_PREC_MXFP8]));
    const struct cs_gpu_spec *b2 = cs_catalog_gpu(cat, "B200");
    ck_assert_double_eq_tol(b2->peak_flops[CS_PREC_MXFP8], 4500e12, 1);
    ck_assert_double_eq_tol(b2->peak_flops[CS_PREC_NVFP4], 9000e12, 1);
    ck_assert_double_eq_tol(cs_catalog_gpu(cat, "GB200")->peak_flops[CS_PREC_NVFP4], 10000e12, 1);
    ck_assert_double_eq_tol(cs_catalog_gpu(cat, "GB300")->peak_flops[CS_PREC_NVFP4], 15000e12, 1);
    /* The GEMM shape factor's half-width: 256 on Blackwell (fitted on
     * OpenXLA's sm_100 table, test_compute_gemm_dim_half_by_gpu), unset
     * (the default 128) on Hopper. Attention fractions from cuDNN's
     * training SDPA benchmark (Llama 3.1 shape, 4K-8K): GB200 0.35 x 2.435
     * (its time-rate over H200's) x 989 / 2500; GB300 that x 1.108 (over
     * GB200); B200 GB300's x 0.80 x 2500 / 2250 (B200 over GB300 in
     * TFLOP/s). */
    const char *bw[] = {"B200", "GB200", "B300", "GB300"};
    for (size_t i = 0; i < sizeof bw / sizeof *bw; i++)
        ck_assert_double_eq(cs_catalog_gpu(cat, bw[i])->gemm_dim_half, 256.0);
    ck_assert(isnan(h->gemm_dim_half));
    double gb200_attn = 0.35 * 2.435 * 989 / 2500;
    ck_assert_double_eq_tol(cs_catalog_gpu(cat, "GB200")->flash_attn_frac, gb200_attn, 0.0005);
    ck_assert_double_eq_tol(cs_catalog_gpu(cat, "GB300")->flash_attn_frac, gb200_attn * 1.108, 0.0005);
    ck_assert_double_eq_tol(b2->flash_attn_frac, gb200_attn * 1.108 * 0.80 * 2500 / 2250, 0.0005);
    /* B300 (HGX/DGX B300): 8 GPUs on NVLink 5, 900 GB/s each way, 8 TB/s. */
    const struct cs_gpu_spec *b3 = cs_catalog_gpu(cat, "B300");
    ck_assert_ptr_nonnull(b3);
    ck_assert_double_eq_tol(b3->peak_flops[CS_PREC_BF16], 2250e12, 1);
    ck_assert_double_eq_tol(b3->peak_flops[CS_PREC_MXFP8], 4500e12, 1);
    ck_assert_double_eq_tol(b3->peak_flops[CS_PREC_NVFP4], 12600e12, 1);
    /* NVIDIA's 279 GB read as binary, as its other capacities (A100 80GB
     * shows 81,920 MiB in nvidia-smi): 279 x 2^30 bytes, GB300 likewise */
    ck_assert_double_eq_tol(b3->hbm_bytes, 279 * GiB, 1);
    ck_assert_double_eq_tol(cs_catalog_gpu(cat, "GB300")->hbm_bytes, 279 * GiB, 1);
    ck_assert_double_eq_tol(b3->hbm_bw_bytes_per_s, 8000e9, 1);
    ck_assert_double_eq_tol(b3->scaleup_bw_bytes_per_s, 900e9, 1);
    ck_assert_int_eq(b3->scaleup_domain_gpus, 8);
    ck_assert_int_eq(b3->server_gpus, 8);
    /* H800: H100 compute and memory, NVLink cut to 400 GB/s bidirectional. */
    const struct cs_gpu_spec *h8 = cs_catalog_gpu(cat, "H800-SXM5-80GB");
    ck_assert_ptr_nonnull(h8);
    ck_assert_double_eq(h8->peak_flops[CS_PREC_BF16], h->peak_flops[CS_PREC_BF16]);
    ck_assert_double_eq(h8->peak_flops[CS_PREC_FP8], h->peak_flops[CS_PREC_FP8]);
    ck_assert_double_eq(h8->hbm_bytes, h->hbm_bytes);
    ck_assert_double_eq(h8->hbm_bw_bytes_per_s, h->hbm_bw_bytes_per_s);
    ck_assert_double_eq_tol(h8->scaleup_bw_bytes_per_s, 200e9, 1);
    ck_assert(isnan(h8->peak_flops[CS_PREC_MXFP8]));
    ck_assert_double_eq_tol(cs_catalog_link(cat, "ib-hdr")->bw_bytes_per_s, 25e9, 1);
    ck_assert_double_eq_tol(cs_catalog_link(cat, "ib-ndr")->bw_bytes_per_s, 50e9, 1);
    ck_assert_double_eq_tol(cs_catalog_link(cat, "ib-xdr")->bw_bytes_per_s, 100e9, 1);
    ck_assert_double_eq_tol(cs_catalog_link(cat, "omnipath-100g")->bw_bytes_per_s, 12.5e9, 1);
    ck_assert_int_eq(cs_catalog_link(cat, "ib-hdr")->switch_radix, 40);
    ck_assert_int_eq(cs_catalog_link(cat, "ib-ndr")->switch_radix, 64);
    ck_assert_double_eq_tol(cs_catalog_link(cat, "ib-hdr")->hop_latency_s, 90e-9, 1e-15);
    ck_assert_int_eq(cs_catalog_link(cat, "roce-400g")->kind, CS_LINK_ROCE);
    /* links-more.yaml: the new transports and the xGMI mesh. */
    ck_assert_int_eq(cs_catalog_link(cat, "efa-100g")->kind, CS_LINK_EFA);
    ck_assert_double_eq_tol(cs_catalog_link(cat, "efa-100g")->bw_bytes_per_s, 12.5e9, 1);
    ck_assert_double_eq_tol(cs_catalog_link(cat, "efa-100g")->nic_latency_s, 5e-6, 1e-15);
    ck_assert_int_eq(cs_catalog_link(cat, "pollara-400g")->kind, CS_LINK_POLLARA);
    ck_assert_int_eq(cs_catalog_link(cat, "tcpxo-200g")->kind, CS_LINK_TCPX);
    ck_assert_double_eq_tol(cs_catalog_intra(cat, "xgmi-mesh")->efficiency, 0.705, 1e-12);
    ck_assert_int_eq(cs_catalog_intra(cat, "xgmi-mesh")->kind, CS_INTRA_NVLINK_P2P);
    ck_assert_str_eq(cs_catalog_gpu(cat, "MI300X")->intra_default, "xgmi-mesh");
    ck_assert_double_eq_tol(cs_catalog_gpu(cat, "MI355X")->scaleup_bw_bytes_per_s, 535.5e9, 1);
    ck_assert(cs_catalog_link(cat, "roce-400g")->efficiency <
              cs_catalog_link(cat, "ib-ndr")->efficiency);
    ck_assert(isnan(cs_catalog_link(cat, "ib-ndr")->switch_price_usd));
    ck_assert(isnan(cs_catalog_intra(cat, "nvswitch")->bw_bytes_per_s)); /* from the GPU */
    ck_assert_double_eq_tol(cs_catalog_storage(cat, "nvme-gen4")->read_bw_bytes_per_s, 6.8e9, 1);
    ck_assert_double_eq_tol(cs_catalog_storage(cat, "gds")->read_bw_bytes_per_s, 40e9, 1);
    const struct cs_site_spec *site = cs_catalog_site(cat, "us-average");
    ck_assert_double_eq_tol(site->electricity_usd_per_kwh, 0.0826, 1e-12);
    ck_assert_double_eq_tol(site->colocation_usd_per_kw_month, 184.06, 1e-9);
    ck_assert_double_eq_tol(site->construction_usd_per_mw, 11.7e6, 1e-6);
    ck_assert_double_eq_tol(site->support_fraction_per_year, 0.2, 1e-12);
    const struct cs_cloud_offer *o = cs_catalog_cloud(cat, "aws-p5.48xlarge");
    ck_assert_double_eq_tol(o->on_demand_usd_per_gpu_h, 55.04 / 8, 1e-9);
    ck_assert(isnan(o->spot_usd_per_gpu_h));
    ck_assert_str_eq(cs_catalog_cloud_for_gpu(cat, "H100-SXM5-80GB")->name, "gcp-a3-highgpu-8g");
    ck_assert_ptr_null(cs_catalog_cloud_for_gpu(cat, "MI325X"));
    cs_catalog_destroy(cat);
}
END_TEST

START_TEST(test_catalog_field_listing)
{
    cs_catalog *cat = load_catalog();
    const struct cs_catalog_field *f = cs_catalog_field(cat, CS_CATALOG_GPU, "H100-SXM5-80GB",
                                                        "bf16");
    ck_assert_ptr_nonnull(f);
    ck_assert_str_eq(f->value, "989TFLOPS");
    ck_assert_ptr_nonnull(strstr(f->source, "NVIDIA H100 datasheet"));
    ck_assert(!f->estimate);
    f = cs_catalog_field(cat, CS_CATALOG_GPU, "H100-SXM5-80GB", "price");
    ck_assert_ptr_nonnull(strstr(f->source, "epoch prices.csv"));
    ck_assert_str_eq(f->date, "2025-01-31");
    f = cs_catalog_field(cat, CS_CATALOG_GPU, "B200", "price");
    ck_assert(f->estimate);
    ck_assert_ptr_nonnull(strstr(f->basis, "EUR"));
    f = cs_catalog_field(cat, CS_CATALOG_GPU, "MI325X", "price");
    ck_assert_str_eq(f->value, "null");
    ck_assert_ptr_nonnull(strstr(f->source, "NOT FOUND"));
    f = cs_catalog_field(cat, CS_CATALOG_LINK, "roce-400g", "efficiency");
    ck_assert(f->estimate);
    ck_assert_ptr_null(cs_catalog_field(cat, CS_CATALOG_GPU, "H100-SXM5-80GB", "nope"));
    enum cs_catalog_kind k;
    ck_assert_int_eq(cs_catalog_kind_parse("links", &k), CS_OK);
    ck_assert_int_eq(k, CS_CATALOG_LINK);
    ck_assert_int_eq(cs_catalog_kind_parse("cloud", &k), CS_OK);
    ck_assert_int_eq(k, CS_CATALOG_CLOUD);
    ck_assert_int_eq(cs_catalog_kind_parse("gpux", &k), CS_ENOTFOUND);
    ck_assert_str_eq(cs_catalog_kind_name(CS_CATALOG_STORAGE), "storage");
    size_t n;
    const char **names = cs_catalog_names(cat, CS_CATALOG_INTRA, &n);
    ck_assert_uint_eq(n, 4); /* nvswitch, nvlink-p2p, pcie, xgmi-mesh (links-more.yaml) */
    ck_assert_str_eq(names[0], "xgmi-mesh"); /* file order: links-more.yaml sorts before network.yaml */
    free(names);
    cs_catalog_destroy(cat);
}
END_TEST

/* The reference's GPU ids and our names. */
static const struct {
    const char *ref, *ours;
} gpu_map[] = {
    {"a100_sxm_80gb", "A100-SXM4-80GB"}, {"a100_sxm_40gb", "A100-SXM4-40GB"},
    {"h100_sxm_80gb", "H100-SXM5-80GB"}, {"h100_pcie_80gb", "H100-PCIe-80GB"},
    {"h200_sxm_141gb", "H200-SXM-141GB"}, {"b200", "B200"}, {"gb200", "GB200"},
    {"mi300x", "MI300X"}, {"mi325x", "MI325X"}, {"l40s", "L40S"}, {"rtx4090", "RTX-4090"},
};

/* A number or null from the reference; false when the key is absent. */
static bool ref_num(const struct cs_ynode *map, const char *key, double *out)
{
    const struct cs_ynode *v = cs_ynode_map_get(map, key);
    if (!v || v->kind != CS_YNODE_SCALAR)
        return false;
    *out = cs_ynode_is_null(v) ? NAN : strtod(v->scalar, NULL);
    return true;
}

static void same(const char *gpu, const char *what, double ref, double ours, size_t *checked)
{
    if (isnan(ref)) {
        ck_assert_msg(isnan(ours), "%s %s: reference null, ours %g", gpu, what, ours);
    } else {
        ck_assert_msg(fabs(ref - ours) <= 1e-9 * fabs(ref), "%s %s: reference %.10g, ours %.10g",
                      gpu, what, ref, ours);
    }
    (*checked)++;
}

/* Every GPU figure of the reference catalog, field by field. */
START_TEST(test_catalog_matches_reference)
{
    char path[4096];
    snprintf(path, sizeof path, "%s", cs_test_data("validation/hardware/catalog.yaml"));
    cs_catalog *cat = load_catalog();
    cs_diags d;
    cs_diags_init(&d);
    cs_ydoc *doc = NULL;
    ck_assert_int_eq(cs_ydoc_load_file(path, &d, &doc), CS_OK);
    const struct cs_ynode *gpus = cs_ynode_map_get(cs_ydoc_root(doc), "gpus");
    ck_assert_ptr_nonnull(gpus);
    size_t checked = 0, matched = 0;
    for (size_t i = 0; i < gpus->n; i++) {
        const struct cs_ynode *g = gpus->items[i];
        const char *id = cs_ynode_map_get(g, "id")->scalar;
        const char *name = NULL;
        for (size_t j = 0; j < sizeof gpu_map / sizeof gpu_map[0]; j++)
            if (!strcmp(gpu_map[j].ref, id))
                name = gpu_map[j].ours;
        ck_assert_msg(name != NULL, "reference GPU %s has no catalog name", id);
        const struct cs_gpu_spec *s = cs_catalog_gpu(cat, name);
        ck_assert_ptr_nonnull(s);
        matched++;
        static const struct {
            const char *key;
            enum cs_precision p;
        } prec[] = {{"fp32_tflops", CS_PREC_FP32}, {"tf32_tflops", CS_PREC_TF32},
                    {"bf16_tflops", CS_PREC_BF16}, {"fp16_tflops", CS_PREC_FP16},
                    {"fp8_tflops", CS_PREC_FP8}};
        double v;
        for (size_t j = 0; j < 5; j++)
            if (ref_num(g, prec[j].key, &v))
                same(name, prec[j].key, v * 1e12, s->peak_flops[prec[j].p], &checked);
        if (ref_num(g, "mem_gb", &v))
            same(name, "mem_gb (as GiB)", v * GiB, s->hbm_bytes, &checked);
        if (ref_num(g, "mem_bw_gbps", &v))
            same(name, "mem_bw_gbps", v * 1e9, s->hbm_bw_bytes_per_s, &checked);
        if (ref_num(g, "tdp_w", &v))
            same(name, "tdp_w", v, s->tdp_w, &checked);
        if (ref_num(g, "pcie_gen", &v))
            same(name, "pcie_gen", isnan(v) ? 0 : v, s->pcie_gen, &checked);
        if (ref_num(g, "mamf_bf16_tflops", &v))
            same(name, "mamf_bf16_tflops", v * 1e12, s->mamf_bf16_flops, &checked);
        const struct cs_ynode *su = cs_ynode_map_get(g, "scaleup");
        const struct cs_ynode *fab = cs_ynode_map_get(su, "fabric");
        bool pcie_only = fab && !strcmp(fab->scalar, "pcie");
        if (!pcie_only && ref_num(su, "uni_gbps", &v))
            same(name, "scaleup.uni_gbps", v * 1e9, s->scaleup_bw_bytes_per_s, &checked);
        if (!pcie_only && ref_num(su, "p2p_uni_gbps", &v))
            same(name, "scaleup.p2p_uni_gbps", v * 1e9, s->p2p_bw_bytes_per_s, &checked);
        const struct cs_ynode *price = cs_ynode_map_get(g, "price");
        if (ref_num(price, "per_gpu_usd", &v))
            same(name, "price.per_gpu_usd", v, s->price_usd, &checked);
        const struct cs_ynode *server = cs_ynode_map_get(g, "server");
        if (server && server->kind == CS_YNODE_MAP && ref_num(server, "price_usd", &v))
            same(name, "server.price_usd", v, s->server_price_usd, &checked);
    }
    printf("catalog: %zu GPUs, %zu figures equal to the reference\n", matched, checked);
    ck_assert_uint_eq(matched, 11);
    ck_assert_uint_ge(checked, 120);
    cs_ydoc_destroy(doc);
    cs_diags_fini(&d);
    cs_catalog_destroy(cat);
}
END_TEST

static void write_file(const char *dir, const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

/* Broken catalog files: every problem located, the load refused. */
START_TEST(test_catalog_bad_files)
{
    char p0[512];
    char dir[] = "/tmp/cs_check_catalog_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    write_file(dir, "a.yaml",
               "gpus:\n"
               "  X1:\n"
               "    vendor: acme\n"
               "    bf16: 100TFLOPS\n"
               "    hbm: 16GiB\n"
               "    hbm_bw: 1TB/s\n"
               "    source: \"acme datasheet\"\n"
               "  X2:\n"
               "    vendor: acme\n"
               "    bf16: 100TFLOPS\n"
               "    hbm: 16GiB\n"
               "    hbm_bw: fast\n"
               "    hmb: 3\n");
    write_file(dir, "b.yaml",
               "gpus:\n"
               "  X1:\n"
               "    vendor: acme\n"
               "    source: copy\n"
               "cloud:\n"
               "  c1: {provider: p, gpu: X3, gpus: 1, source: s}\n"
               "linkz: {}\n");
    /* network hardware: a price without its basis, a link naming a row
     * that is not there, a switch of another radix, a NIC of another
     * rate, a dac_model that is not copper */
    write_file(dir, "c.yaml",
               "switches:\n"
               "  sw64: {kind: infiniband, ports: 64, port_bw: 400Gbps, price: $1000, "
               "price_basis: none, power: null, source: s, date: \"2026\"}\n"
               "nics:\n"
               "  n200: {kind: nic, ports: 1, port_bw: 200Gbps, price: null, price_basis: none, "
               "power: null, source: s, date: \"2026\"}\n"
               "cables:\n"
               "  aoc: {kind: aoc, price: null, price_basis: none, power: null, source: s, "
               "date: \"2026\"}\n"
               "links:\n"
               "  l1: {kind: infiniband, bw: 400Gbps, switch_radix: 32, switch_model: sw64, "
               "nic_model: n200, dac_model: aoc, optic_model: nope, source: s}\n");
    cs_diags d;
    cs_diags_init(&d);
    cs_catalog *cat = NULL;
    ck_assert_int_eq(cs_catalog_load_dir(dir, &d, &cat), CS_ECONFIG);
    ck_assert_ptr_null(cat);
    size_t cap = 8192, len = 0;
    char *all = calloc(1, cap);
    for (size_t i = 0; i < d.n; i++) {
        char *m = cs_diag_format(&d.items[i]);
        len += (size_t)snprintf(all + len, cap - len, "%s\n", m);
        free(m);
    }
    ck_assert_msg(strstr(all, "a.yaml:12:13: error: gpus.X2.hbm_bw: expected a bandwidth") != NULL,
                  "%s", all);
    ck_assert_msg(strstr(all, "a.yaml:13:5: error: gpus.X2.hmb: unknown key (did you mean "
                              "\"hbm\"?)") != NULL,
                  "%s", all);
    ck_assert_msg(strstr(all, "a.yaml:8:3: error: gpus.X2: missing key \"source\"") != NULL, "%s",
                  all);
    ck_assert_msg(strstr(all, "b.yaml:2:3: error: gpus.X1: duplicate catalog GPU \"X1\" (first "
                              "defined at ") != NULL,
                  "%s", all);
    ck_assert_msg(strstr(all, "error: cloud.c1.gpu: unknown GPU \"X3\"") != NULL, "%s", all);
    ck_assert_msg(strstr(all, "b.yaml:7:1: error: linkz: unknown key (did you mean \"links\"?)") !=
                      NULL,
                  "%s", all);
    ck_assert_msg(strstr(all, "error: switches.sw64.price_basis: expected list, street, "
                              "estimate or derived for a given price, got none") != NULL,
                  "%s", all);
    ck_assert_msg(strstr(all, "error: links.l1.switch_model: sw64 has 64 ports, the link's "
                              "switch_radix is 32") != NULL,
                  "%s", all);
    ck_assert_msg(strstr(all, "error: links.l1.nic_model: n200 runs its ports at 200 Gb/s, the "
                              "link at 400 Gb/s") != NULL,
                  "%s", all);
    ck_assert_msg(strstr(all, "error: links.l1.dac_model: expected a copper cable (kind dac), got "
                              "aoc") != NULL,
                  "%s", all);
    ck_assert_msg(strstr(all, "error: links.l1.optic_model: unknown optic \"nope\"") != NULL,
                  "%s", all);
    free(all);
    cs_diags_fini(&d);
    write_file(dir, "c.yaml", "");
    snprintf(p0, sizeof p0, "%s/c.yaml", dir);
    remove(p0);
    write_file(dir, "a.yaml", "");
    write_file(dir, "b.yaml", "");
    char p[512];
    snprintf(p, sizeof p, "%s/a.yaml", dir);
    remove(p);
    snprintf(p, sizeof p, "%s/b.yaml", dir);
    remove(p);
    cs_diags_init(&d);
    ck_assert_int_eq(cs_catalog_load_dir(dir, &d, &cat), CS_EIO); /* no *.yaml */
    ck_assert_int_eq(cs_catalog_load_dir("/nonexistent/dir", &d, &cat), CS_EIO);
    ck_assert_uint_eq(cs_diags_errors(&d), 2);
    cs_diags_fini(&d);
    rmdir(dir);
}
END_TEST

START_TEST(test_catalog_default_dir)
{
    unsetenv("CLUSTERSIM_CATALOG");
    const char *def = cs_catalog_default_dir();
    ck_assert_ptr_nonnull(strstr(def, "/scenarios/catalog"));
    setenv("CLUSTERSIM_CATALOG", "/some/where", 1);
    ck_assert_str_eq(cs_catalog_default_dir(), "/some/where");
    unsetenv("CLUSTERSIM_CATALOG");
}
END_TEST

static Suite *catalog_suite(void)
{
    Suite *s = suite_create("catalog");
    TCase *tc = tcase_create("catalog");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_catalog_contract_names);
    tcase_add_test(tc, test_catalog_every_figure_sourced);
    tcase_add_test(tc, test_catalog_spot_values);
    tcase_add_test(tc, test_catalog_field_listing);
    tcase_add_test(tc, test_catalog_matches_reference);
    tcase_add_test(tc, test_catalog_bad_files);
    tcase_add_test(tc, test_catalog_default_dir);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return cs_test_run(catalog_suite()); }
