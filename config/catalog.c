/* catalog.c: the hardware and price catalog (see catalog.h); its field
 * tables are checked by the generic validator of schema.h (schema.c).
 * (config layer) */
#include "clustersim/base/datadir.h"
#include "clustersim/config/catalog.h"

#include "clustersim/base/suggest.h"
#include "clustersim/base/xmalloc.h"
#include "schema.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Enums are stored through int (CS_FT_ENUM); all of ours are int-sized. */
_Static_assert(sizeof(enum cs_link_kind) == sizeof(int), "enum size");
_Static_assert(sizeof(enum cs_intra_kind) == sizeof(int), "enum size");
_Static_assert(sizeof(enum cs_storage_kind) == sizeof(int), "enum size");

/* ------------------------------------------------------------------------ */
/* Field tables of the catalog kinds. Offsets are into the spec structs.     */

#define MSIZE(T, m) sizeof(((T *)0)->m)
#define F_QTY(k, T, m, u, lo, hi, fl, d) \
    { .key = k, .type = CS_FT_QTY, .unit = u, .offset = offsetof(T, m), .min = lo, \
      .max = hi, .flags = fl, .doc = d }
#define F_NUM(k, T, m, lo, hi, fl, d) \
    { .key = k, .type = CS_FT_NUM, .offset = offsetof(T, m), .min = lo, .max = hi, \
      .flags = fl, .doc = d }
#define F_INT(k, T, m, lo, hi, fl, d) \
    { .key = k, .type = CS_FT_INT, .offset = offsetof(T, m), .min = lo, .max = hi, \
      .flags = fl, .doc = d }
#define F_BOOL(k, T, m, d) { .key = k, .type = CS_FT_BOOL, .offset = offsetof(T, m), .doc = d }
#define F_STR(k, T, m, fl, d) \
    { .key = k, .type = CS_FT_STR, .offset = offsetof(T, m), .size = MSIZE(T, m), \
      .flags = fl, .doc = d }
#define F_ENUM(k, T, m, nm, fl, d) \
    { .key = k, .type = CS_FT_ENUM, .offset = offsetof(T, m), .names = nm, .flags = fl, \
      .doc = d }
#define F_FLOPS(k, prec, fl, d) \
    { .key = k, .type = CS_FT_QTY, .unit = CS_UNIT_FLOPS, \
      .offset = offsetof(struct cs_gpu_spec, peak_flops) + (prec) * sizeof(double), \
      .min = 0, .max = 1e18, .flags = (fl) | CS_F_MINEXCL | CS_F_NULLABLE, .doc = d }

#define NUL CS_F_NULLABLE
#define POS CS_F_MINEXCL
#define REQ CS_F_CATREQ

static const char *const link_kind_names[] = {"infiniband", "roce", "ethernet", "omnipath", "efa", "pollara", "tcpx",
                                               NULL};
static const char *const intra_kind_names[] = {"nvswitch", "nvlink-p2p", "pcie", NULL};
static const char *const storage_kind_names[] = {"nvme", "pfs", "object", NULL};

static const struct cs_field gpu_fields[] = {
    F_STR("vendor", struct cs_gpu_spec, vendor, REQ, "nvidia, amd, ..."),
    F_FLOPS("fp32", CS_PREC_FP32, 0, "dense FP32 peak"),
    F_FLOPS("tf32", CS_PREC_TF32, 0, "dense TF32 tensor peak"),
    F_FLOPS("bf16", CS_PREC_BF16, REQ, "dense BF16 tensor peak"),
    F_FLOPS("fp16", CS_PREC_FP16, 0, "dense FP16 tensor peak (FP32 accumulate)"),
    F_FLOPS("fp8", CS_PREC_FP8, 0, "dense FP8 tensor peak; null where unsupported"),
    F_FLOPS("mxfp8", CS_PREC_MXFP8, 0,
            "dense MXFP8 (block-scaled FP8) tensor peak; null/absent: no block-scaled tensor cores"),
    F_FLOPS("nvfp4", CS_PREC_NVFP4, 0,
            "dense NVFP4 (block-scaled FP4) tensor peak; null/absent: no FP4 tensor cores"),
    F_QTY("hbm", struct cs_gpu_spec, hbm_bytes, CS_UNIT_BYTES, 0, 1e14, REQ | POS,
          "device memory"),
    F_QTY("hbm_bw", struct cs_gpu_spec, hbm_bw_bytes_per_s, CS_UNIT_BANDWIDTH, 0, 1e15,
          REQ | POS, "device memory bandwidth"),
    F_QTY("tdp", struct cs_gpu_spec, tdp_w, CS_UNIT_POWER, 0, 1e5, NUL | POS,
          "board power (TDP/TGP)"),
    F_QTY("power_limit", struct cs_gpu_spec, power_limit_w, CS_UNIT_POWER, 0, 1e5, NUL | POS,
          "board power limit below the TDP the peaks are rated at; clocks scale as (limit/tdp)^(1/3)"),
    F_INT("pcie_gen", struct cs_gpu_spec, pcie_gen, 0, 7, NUL, "host PCIe generation (x16)"),
    F_QTY("host_bw", struct cs_gpu_spec, host_bw_bytes_per_s, CS_UNIT_BANDWIDTH, 0, 1e14, NUL | POS,
          "GPU to host memory, one direction, where the link is not PCIe (NVLink-C2C)"),
    F_QTY("scaleup_bw", struct cs_gpu_spec, scaleup_bw_bytes_per_s, CS_UNIT_BANDWIDTH, 0, 1e15,
          NUL | POS, "NVLink/xGMI bandwidth per GPU, one direction"),
    F_QTY("p2p_bw", struct cs_gpu_spec, p2p_bw_bytes_per_s, CS_UNIT_BANDWIDTH, 0, 1e15,
          NUL | POS, "bandwidth to one peer, one direction"),
    F_INT("scaleup_domain", struct cs_gpu_spec, scaleup_domain_gpus, 0, 100000, NUL,
          "GPUs in one scale-up domain; 0 = none"),
    F_STR("intra_default", struct cs_gpu_spec, intra_default, 0,
          "intra-node catalog entry used by default"),
    F_BOOL("nvls", struct cs_gpu_spec, nvls, "NVLink SHARP in the switch generation"),
    F_BOOL("rccl_ll128", struct cs_gpu_spec, rccl_ll128,
           "RCCL enables LL128 inside the node by default on this GPU (AMD; false when absent)"),
    F_QTY("mamf_bf16", struct cs_gpu_spec, mamf_bf16_flops, CS_UNIT_FLOPS, 0, 1e18, NUL | POS,
          "measured maximum achievable BF16 matmul FLOP/s"),
    F_NUM("gemm_dim_half", struct cs_gpu_spec, gemm_dim_half, 1, 100000, NUL | POS,
          "GEMM dimension at which the shape factor is 1/2 on this GPU (BF16; from a measured "
          "GEMM table); null = 128"),
    F_NUM("flash_attn_frac", struct cs_gpu_spec, flash_attn_frac, 0, 1, NUL | POS,
          "fraction of the BF16 peak FlashAttention-2 (fwd+bwd) reaches; null = as H100"),
    F_NUM("flash2_over_cudnn", struct cs_gpu_spec, flash2_over_cudnn, 0, 10, NUL | POS,
          "FlashAttention-2's training attention speed over cuDNN's on this GPU (a stack on "
          "FlashAttention-2, attention_kernel flash2); null = not measured, no factor"),
    F_NUM("host_speed", struct cs_gpu_spec, host_speed, 0.05, 20, NUL | POS,
          "single-thread speed of the host CPU that issues this GPU's kernels, relative to the "
          "DGX H100's Xeon Platinum 8480C (host dispatch times divide by it); null = 1"),
    F_QTY("price", struct cs_gpu_spec, price_usd, CS_UNIT_MONEY, 0, 1e9, NUL | POS,
          "purchase price per GPU"),
    F_QTY("server_price", struct cs_gpu_spec, server_price_usd, CS_UNIT_MONEY, 0, 1e10,
          NUL | POS, "price of a server of server_gpus GPUs"),
    F_INT("server_gpus", struct cs_gpu_spec, server_gpus, 1, 1024, 0, "GPUs per priced server"),
    F_QTY("server_power", struct cs_gpu_spec, server_power_w, CS_UNIT_POWER, 0, 1e7, NUL | POS,
          "server nameplate power"),
};

/* Network hardware (switches, NICs, optics, cables): one table for the four
 * kinds; `kind` says which device within the kind (infiniband/ethernet
 * switch; nic; transceiver; aoc, dac, fibre or optical-link cable). */
#define NETHW_LINK_FIELDS                                                                     \
    F_STR("switch_model", struct cs_link_spec, switch_model, 0, "catalog switch row"),       \
    F_STR("nic_model", struct cs_link_spec, nic_model, 0, "catalog nic row"),                \
    F_STR("optic_model", struct cs_link_spec, optic_model, 0, "catalog optic row"),          \
    F_STR("cable_model", struct cs_link_spec, cable_model, 0, "catalog cable row"),          \
    F_STR("dac_model", struct cs_link_spec, dac_model, 0,                                    \
          "catalog cable row (copper) for NIC-to-leaf links")
static const struct cs_field nethw_fields[] = {
    F_STR("kind", struct cs_nethw_spec, kind, REQ,
          "infiniband, ethernet, nic, transceiver, aoc, dac, fibre or optical-link"),
    F_INT("ports", struct cs_nethw_spec, ports, 0, 100000, NUL, "switch or NIC ports"),
    F_QTY("port_bw", struct cs_nethw_spec, port_bw_bytes_per_s, CS_UNIT_BANDWIDTH, 0, 1e13,
          NUL | POS, "per port or module, one direction"),
    F_NUM("reach_m", struct cs_nethw_spec, reach_m, 0, 1e6, NUL | POS, "optics and cables, metres"),
    F_QTY("price", struct cs_nethw_spec, price_usd, CS_UNIT_MONEY, 0, 1e9, REQ | NUL | POS,
          "per unit; null = no usable source"),
    F_ENUM("price_basis", struct cs_nethw_spec, price_basis, cs_price_basis_names, REQ,
           "list, street, estimate, derived, or none (price null)"),
    F_QTY("power", struct cs_nethw_spec, power_w, CS_UNIT_POWER, 0, 1e6, REQ | NUL | POS,
          "per unit; null = no usable source"),
    F_BOOL("power_includes_optics", struct cs_nethw_spec, power_includes_optics,
           "switch: the power figure counts the optics in its cages"),
    F_BOOL("includes_optics", struct cs_nethw_spec, includes_optics,
           "cable: the price covers the transceivers at both ends"),
};

static const struct cs_field link_fields[] = {
    F_ENUM("kind", struct cs_link_spec, kind, link_kind_names, REQ, "protocol family"),
    F_QTY("bw", struct cs_link_spec, bw_bytes_per_s, CS_UNIT_BANDWIDTH, 0, 1e13, REQ | POS,
          "line rate of one port, one direction"),
    F_QTY("efficiency", struct cs_link_spec, efficiency, CS_UNIT_RATIO, 0, 1, NUL | POS,
          "achievable fraction of the line rate"),
    F_QTY("hop_latency", struct cs_link_spec, hop_latency_s, CS_UNIT_TIME, 0, 1, NUL,
          "per switch hop"),
    F_QTY("nic_latency", struct cs_link_spec, nic_latency_s, CS_UNIT_TIME, 0, 1, NUL,
          "end-point (NIC + software) latency"),
    F_INT("switch_radix", struct cs_link_spec, switch_radix, 0, 100000, NUL,
          "ports of the matching switch"),
    F_QTY("nic_price", struct cs_link_spec, nic_price_usd, CS_UNIT_MONEY, 0, 1e9, NUL, "per NIC"),
    F_QTY("switch_price", struct cs_link_spec, switch_price_usd, CS_UNIT_MONEY, 0, 1e9, NUL,
          "per switch"),
    F_QTY("optic_price", struct cs_link_spec, optic_price_usd, CS_UNIT_MONEY, 0, 1e9, NUL,
          "per transceiver"),
    F_QTY("cable_price", struct cs_link_spec, cable_price_usd, CS_UNIT_MONEY, 0, 1e9, NUL,
          "per cable"),
    F_QTY("nic_power", struct cs_link_spec, nic_power_w, CS_UNIT_POWER, 0, 1e6, NUL, "per NIC"),
    F_QTY("switch_power", struct cs_link_spec, switch_power_w, CS_UNIT_POWER, 0, 1e6, NUL,
          "per switch"),
    F_QTY("optic_power", struct cs_link_spec, optic_power_w, CS_UNIT_POWER, 0, 1e6, NUL,
          "per transceiver (one end of a link)"),
    NETHW_LINK_FIELDS,
};

static const struct cs_field intra_fields[] = {
    F_ENUM("kind", struct cs_intra_spec, kind, intra_kind_names, REQ, "interconnect kind"),
    F_QTY("bw", struct cs_intra_spec, bw_bytes_per_s, CS_UNIT_BANDWIDTH, 0, 1e15, NUL | POS,
          "per GPU, one direction; null = from the GPU"),
    F_QTY("latency", struct cs_intra_spec, latency_s, CS_UNIT_TIME, 0, 1, NUL, "per transfer"),
    F_QTY("efficiency", struct cs_intra_spec, efficiency, CS_UNIT_RATIO, 0, 1, NUL | POS,
          "achievable fraction of bw in collectives"),
    F_BOOL("nvls", struct cs_intra_spec, nvls, "in-switch reduction (where the GPU has it)"),
};

static const struct cs_field storage_fields[] = {
    F_ENUM("kind", struct cs_storage_spec, kind, storage_kind_names, REQ, "tier kind"),
    F_QTY("read_bw", struct cs_storage_spec, read_bw_bytes_per_s, CS_UNIT_BANDWIDTH, 0, 1e15,
          REQ | POS, "per device (nvme) or per client node"),
    F_QTY("write_bw", struct cs_storage_spec, write_bw_bytes_per_s, CS_UNIT_BANDWIDTH, 0, 1e15,
          REQ | POS, "per device (nvme) or per client node"),
    F_QTY("aggregate_bw", struct cs_storage_spec, aggregate_bw_bytes_per_s, CS_UNIT_BANDWIDTH, 0,
          1e16, NUL | POS, "whole system; null = not limited"),
    F_QTY("capacity", struct cs_storage_spec, capacity_bytes, CS_UNIT_BYTES, 0, 1e20, NUL | POS,
          "per device (nvme) or total"),
    F_QTY("latency", struct cs_storage_spec, latency_s, CS_UNIT_TIME, 0, 100, NUL,
          "metadata / request latency"),
    F_INT("devices_per_node", struct cs_storage_spec, devices_per_node, 0, 64, NUL,
          "nvme devices per node"),
    F_QTY("price_per_tb", struct cs_storage_spec, price_usd_per_tb, CS_UNIT_USD_PER_TB, 0, 1e7,
          NUL, "capital (nvme, pfs) or per month (object)"),
};

static const struct cs_field site_fields[] = {
    F_QTY("electricity", struct cs_site_spec, electricity_usd_per_kwh, CS_UNIT_USD_PER_KWH, 0,
          10, REQ, "energy price"),
    F_NUM("pue", struct cs_site_spec, pue, 1, 5, REQ, "power usage effectiveness"),
    F_QTY("colocation", struct cs_site_spec, colocation_usd_per_kw_month,
          CS_UNIT_USD_PER_KW_MONTH, 0, 1e5, NUL, "colocation price"),
    F_QTY("construction_per_mw", struct cs_site_spec, construction_usd_per_mw, CS_UNIT_MONEY, 0,
          1e10, NUL, "build-out cost per MW of critical load"),
    F_NUM("depreciation_years", struct cs_site_spec, depreciation_years, 0, 50, POS,
          "hardware life"),
    F_QTY("support_per_year", struct cs_site_spec, support_fraction_per_year, CS_UNIT_RATIO, 0,
          1, 0, "support contract, fraction of hardware price per year"),
    F_QTY("server_power_utilization", struct cs_site_spec, server_power_utilization,
          CS_UNIT_RATIO, 0, 1, POS, "average draw over nameplate while training"),
    F_NUM("server_power_multiplier", struct cs_site_spec, server_power_multiplier, 1, 10, 0,
          "server watts per GPU watt"),
    F_QTY("network_cost_fraction", struct cs_site_spec, network_cost_fraction, CS_UNIT_RATIO, 0,
          0.99, 0, "interconnect share of cluster cost when no prices are known"),
};

static const struct cs_field cloud_fields[] = {
    F_STR("provider", struct cs_cloud_offer, provider, REQ, "aws, gcp, azure, ..."),
    F_STR("instance", struct cs_cloud_offer, instance, 0, "instance type"),
    F_STR("region", struct cs_cloud_offer, region, 0, "region of the price"),
    F_STR("gpu", struct cs_cloud_offer, gpu, REQ, "a catalog GPU name"),
    F_INT("gpus", struct cs_cloud_offer, gpus, 1, 1024, REQ, "GPUs per instance"),
    F_QTY("on_demand", struct cs_cloud_offer, on_demand_usd_per_gpu_h, CS_UNIT_USD_PER_GPU_HOUR,
          0, 1e4, NUL | POS, "on-demand price per GPU-hour"),
    F_QTY("reserved_1y", struct cs_cloud_offer, reserved_1y_usd_per_gpu_h,
          CS_UNIT_USD_PER_GPU_HOUR, 0, 1e4, NUL | POS, "1-year commitment, effective"),
    F_QTY("reserved_3y", struct cs_cloud_offer, reserved_3y_usd_per_gpu_h,
          CS_UNIT_USD_PER_GPU_HOUR, 0, 1e4, NUL | POS, "3-year commitment, effective"),
    F_QTY("spot", struct cs_cloud_offer, spot_usd_per_gpu_h, CS_UNIT_USD_PER_GPU_HOUR, 0, 1e4,
          NUL | POS, "spot / preemptible"),
    F_QTY("scaleout_bw", struct cs_cloud_offer, scaleout_bw_bytes_per_s, CS_UNIT_BANDWIDTH, 0,
          1e15, NUL | POS, "scale-out network per instance"),
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

const struct cs_field *cs_catalog__table(enum cs_catalog_kind k, size_t *n)
{
    switch (k) {
    case CS_CATALOG_GPU: *n = NELEM(gpu_fields); return gpu_fields;
    case CS_CATALOG_LINK: *n = NELEM(link_fields); return link_fields;
    case CS_CATALOG_INTRA: *n = NELEM(intra_fields); return intra_fields;
    case CS_CATALOG_STORAGE: *n = NELEM(storage_fields); return storage_fields;
    case CS_CATALOG_SITE: *n = NELEM(site_fields); return site_fields;
    case CS_CATALOG_CLOUD: *n = NELEM(cloud_fields); return cloud_fields;
    case CS_CATALOG_SWITCH:
    case CS_CATALOG_NIC:
    case CS_CATALOG_OPTIC:
    case CS_CATALOG_CABLE: *n = NELEM(nethw_fields); return nethw_fields;
    case CS_CATALOG_KIND_COUNT: break;
    }
    *n = 0;
    return NULL;
}

/* ------------------------------------------------------------------------ */
/* The catalog.                                                              */

struct cs_cat_entry {
    enum cs_catalog_kind kind;
    char *name, *file, *source, *date, *basis, *notes;
    int line, col;
    bool estimate;
    struct cs_catalog_field *fields;
    size_t nfields;
    union {
        struct cs_gpu_spec gpu;
        struct cs_link_spec link;
        struct cs_intra_spec intra;
        struct cs_storage_spec storage;
        struct cs_site_spec site;
        struct cs_cloud_offer cloud;
        struct cs_nethw_spec nethw;
    } u;
};

struct cs_catalog {
    struct cs_cat_entry *e;
    size_t n, cap;
};

static const char *const kind_names[] = {"gpu",  "link", "intra", "storage", "site",
                                         "cloud", "switch", "nic", "optic", "cable"};
/* The section names of catalog files, by kind. */
static const char *const section_names[] = {"gpus",  "links",    "intra", "storage", "sites",
                                            "cloud", "switches", "nics",  "optics",  "cables",
                                            NULL};

const char *cs_catalog_kind_name(enum cs_catalog_kind k)
{
    return (unsigned)k < CS_CATALOG_KIND_COUNT ? kind_names[k] : "?";
}

cs_status cs_catalog_kind_parse(const char *name, enum cs_catalog_kind *out)
{
    for (int k = 0; k < CS_CATALOG_KIND_COUNT; k++) {
        if (!strcmp(name, kind_names[k]) || !strcmp(name, section_names[k])) {
            *out = (enum cs_catalog_kind)k;
            return CS_OK;
        }
    }
    return CS_ENOTFOUND;
}

const char *cs_catalog__kind_label(enum cs_catalog_kind k)
{
    switch (k) {
    case CS_CATALOG_GPU: return "GPU";
    case CS_CATALOG_LINK: return "link";
    case CS_CATALOG_INTRA: return "intra-node interconnect";
    case CS_CATALOG_STORAGE: return "storage tier";
    case CS_CATALOG_SITE: return "site";
    case CS_CATALOG_CLOUD: return "cloud offer";
    case CS_CATALOG_SWITCH: return "switch";
    case CS_CATALOG_NIC: return "NIC";
    case CS_CATALOG_OPTIC: return "optic";
    case CS_CATALOG_CABLE: return "cable";
    case CS_CATALOG_KIND_COUNT: break;
    }
    return "entry";
}

static void *entry_spec(struct cs_cat_entry *e)
{
    switch (e->kind) {
    case CS_CATALOG_GPU: return &e->u.gpu;
    case CS_CATALOG_LINK: return &e->u.link;
    case CS_CATALOG_INTRA: return &e->u.intra;
    case CS_CATALOG_STORAGE: return &e->u.storage;
    case CS_CATALOG_SITE: return &e->u.site;
    case CS_CATALOG_CLOUD: return &e->u.cloud;
    case CS_CATALOG_SWITCH:
    case CS_CATALOG_NIC:
    case CS_CATALOG_OPTIC:
    case CS_CATALOG_CABLE: return &e->u.nethw;
    case CS_CATALOG_KIND_COUNT: break;
    }
    return NULL;
}

static void entry_free(struct cs_cat_entry *e)
{
    free(e->name);
    free(e->file);
    free(e->source);
    free(e->date);
    free(e->basis);
    free(e->notes);
    for (size_t i = 0; i < e->nfields; i++) {
        free((char *)e->fields[i].key);
        free((char *)e->fields[i].value);
        free((char *)e->fields[i].source);
        free((char *)e->fields[i].date);
        free((char *)e->fields[i].basis);
    }
    free(e->fields);
}

void cs_catalog_destroy(cs_catalog *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->n; i++)
        entry_free(&c->e[i]);
    free(c->e);
    free(c);
}

static const struct cs_cat_entry *find_entry(const cs_catalog *c, enum cs_catalog_kind k,
                                             const char *name)
{
    if (!c || !name)
        return NULL;
    for (size_t i = 0; i < c->n; i++)
        if (c->e[i].kind == k && !strcmp(c->e[i].name, name))
            return &c->e[i];
    return NULL;
}

const struct cs_gpu_spec *cs_catalog_gpu(const cs_catalog *c, const char *name)
{
    const struct cs_cat_entry *e = find_entry(c, CS_CATALOG_GPU, name);
    return e ? &e->u.gpu : NULL;
}

const struct cs_link_spec *cs_catalog_link(const cs_catalog *c, const char *name)
{
    const struct cs_cat_entry *e = find_entry(c, CS_CATALOG_LINK, name);
    return e ? &e->u.link : NULL;
}

const struct cs_intra_spec *cs_catalog_intra(const cs_catalog *c, const char *name)
{
    const struct cs_cat_entry *e = find_entry(c, CS_CATALOG_INTRA, name);
    return e ? &e->u.intra : NULL;
}

const struct cs_storage_spec *cs_catalog_storage(const cs_catalog *c, const char *name)
{
    const struct cs_cat_entry *e = find_entry(c, CS_CATALOG_STORAGE, name);
    return e ? &e->u.storage : NULL;
}

const struct cs_site_spec *cs_catalog_site(const cs_catalog *c, const char *name)
{
    const struct cs_cat_entry *e = find_entry(c, CS_CATALOG_SITE, name);
    return e ? &e->u.site : NULL;
}

const struct cs_cloud_offer *cs_catalog_cloud(const cs_catalog *c, const char *name)
{
    const struct cs_cat_entry *e = find_entry(c, CS_CATALOG_CLOUD, name);
    return e ? &e->u.cloud : NULL;
}

const struct cs_nethw_spec *cs_catalog_nethw(const cs_catalog *c, enum cs_catalog_kind k,
                                             const char *name)
{
    if (k != CS_CATALOG_SWITCH && k != CS_CATALOG_NIC && k != CS_CATALOG_OPTIC &&
        k != CS_CATALOG_CABLE)
        return NULL;
    const struct cs_cat_entry *e = find_entry(c, k, name);
    return e ? &e->u.nethw : NULL;
}

const struct cs_cloud_offer *cs_catalog_cloud_for_gpu(const cs_catalog *c, const char *gpu_name)
{
    if (!c || !gpu_name)
        return NULL;
    for (size_t i = 0; i < c->n; i++)
        if (c->e[i].kind == CS_CATALOG_CLOUD && !strcmp(c->e[i].u.cloud.gpu, gpu_name))
            return &c->e[i].u.cloud;
    return NULL;
}

size_t cs_catalog_count(const cs_catalog *c, enum cs_catalog_kind k)
{
    size_t n = 0;
    for (size_t i = 0; c && i < c->n; i++)
        n += c->e[i].kind == k;
    return n;
}

static const struct cs_cat_entry *nth_entry(const cs_catalog *c, enum cs_catalog_kind k, size_t i)
{
    for (size_t j = 0; c && j < c->n; j++)
        if (c->e[j].kind == k && i-- == 0)
            return &c->e[j];
    return NULL;
}

bool cs_catalog_entry(const cs_catalog *c, enum cs_catalog_kind k, size_t i,
                      struct cs_catalog_entry_info *info)
{
    const struct cs_cat_entry *e = nth_entry(c, k, i);
    if (!e)
        return false;
    info->name = e->name;
    info->file = e->file;
    info->line = e->line;
    info->col = e->col;
    info->source = e->source;
    info->date = e->date;
    info->estimate = e->estimate;
    info->basis = e->basis;
    info->notes = e->notes;
    return true;
}

const struct cs_catalog_field *cs_catalog_fields(const cs_catalog *c, enum cs_catalog_kind k,
                                                 const char *name, size_t *n)
{
    const struct cs_cat_entry *e = find_entry(c, k, name);
    *n = e ? e->nfields : 0;
    return e ? e->fields : NULL;
}

const struct cs_catalog_field *cs_catalog_field(const cs_catalog *c, enum cs_catalog_kind k,
                                                const char *name, const char *key)
{
    const struct cs_cat_entry *e = find_entry(c, k, name);
    for (size_t i = 0; e && i < e->nfields; i++)
        if (!strcmp(e->fields[i].key, key))
            return &e->fields[i];
    return NULL;
}

const char **cs_catalog_names(const cs_catalog *c, enum cs_catalog_kind k, size_t *n)
{
    *n = cs_catalog_count(c, k);
    if (*n == 0)
        return NULL;
    const char **names = cs_xcalloc(*n, sizeof *names);
    size_t j = 0;
    for (size_t i = 0; i < c->n; i++)
        if (c->e[i].kind == k)
            names[j++] = c->e[i].name;
    return names;
}

const char *cs_catalog_default_dir(void)
{
    const char *env = getenv("CLUSTERSIM_CATALOG");
    if (env && *env)
        return env;
    return cs_data_catalog_dir();
}

/* ---- loading ----------------------------------------------------------- */

/* A plain string scalar (not null) or an error; returns NULL on error. */
static const char *want_string(const struct cs_ynode *v, const char *path, cs_diags *d)
{
    char shown[128];
    if (v->kind != CS_YNODE_SCALAR || cs_ynode_is_null(v)) {
        cs_cfg__show(v, shown, sizeof shown);
        cs_cfg__error(d, v, "%s: expected a string, got %s", path, shown);
        return NULL;
    }
    if (strlen(v->scalar) != v->len) {
        cs_cfg__error(d, v, "%s: expected a string, got a string with a NUL byte", path);
        return NULL;
    }
    return v->scalar;
}

static bool want_bool(const struct cs_ynode *v, const char *path, cs_diags *d, bool *out)
{
    char shown[128];
    if (v->kind == CS_YNODE_SCALAR && cs_cfg__parse_bool(v->scalar, out))
        return true;
    cs_cfg__show(v, shown, sizeof shown);
    cs_cfg__error(d, v, "%s: expected true or false, got %s", path, shown);
    return false;
}

/* Per-field provenance written under `sources:`. */
struct field_src {
    const char *key;
    const char *source, *date, *basis;
    bool estimate;
};

static const char *const meta_keys[] = {"source", "date", "estimate", "basis", "notes",
                                        "sources", NULL};

static bool valid_name(const char *s, size_t len)
{
    if (len == 0 || len >= CS_NAME_MAX || strlen(s) != len)
        return false;
    for (size_t i = 0; i < len; i++)
        if (!isalnum((unsigned char)s[i]) && !strchr("._-", s[i]))
            return false;
    return true;
}

/* Parses the `sources:` mapping of an entry into fs (at most nfs items). */
static size_t parse_sources(const struct cs_ynode *v, const char *path, const struct cs_field *t,
                            size_t nt, struct field_src *fs, size_t nfs, cs_diags *d)
{
    static const char *const src_keys[] = {"source", "date", "estimate", "basis", NULL};
    size_t n = 0;
    if (v->kind != CS_YNODE_MAP) {
        cs_cfg__error(d, v, "%s: expected a mapping of field -> source, got %s", path,
                      cs_ynode_describe(v));
        return 0;
    }
    for (size_t i = 0; i < v->n; i++) {
        const struct cs_ynode *k = v->pairs[i].key, *val = v->pairs[i].value;
        if (!cs_cfg__find(t, nt, k->scalar)) {
            cs_cfg__unknown_key(d, k, path, t, nt, NULL);
            continue;
        }
        if (n == nfs)
            break;
        struct field_src *s = &fs[n];
        memset(s, 0, sizeof *s);
        s->key = k->scalar;
        char *p = cs_cfg__path(path, k->scalar);
        if (val->kind == CS_YNODE_SCALAR) {
            s->source = want_string(val, p, d);
        } else if (val->kind == CS_YNODE_MAP) {
            for (size_t j = 0; j < val->n; j++) {
                const struct cs_ynode *k2 = val->pairs[j].key, *v2 = val->pairs[j].value;
                char *p2 = cs_cfg__path(p, k2->scalar);
                if (!strcmp(k2->scalar, "source"))
                    s->source = want_string(v2, p2, d);
                else if (!strcmp(k2->scalar, "date"))
                    s->date = want_string(v2, p2, d);
                else if (!strcmp(k2->scalar, "basis"))
                    s->basis = want_string(v2, p2, d);
                else if (!strcmp(k2->scalar, "estimate"))
                    want_bool(v2, p2, d, &s->estimate);
                else
                    cs_cfg__unknown_key(d, k2, p, NULL, 0, src_keys);
                free(p2);
            }
            if (!s->source)
                cs_cfg__error(d, val, "%s: missing key \"source\"", p);
        } else {
            cs_cfg__error(d, val, "%s: expected a source string or a mapping, got %s", p,
                          cs_ynode_describe(val));
        }
        free(p);
        n++;
    }
    return n;
}

static const char *str_or_empty(const char *s) { return s ? s : ""; }

/* Loads one entry of kind k named by key node `kn` with body `v`. */
static void load_entry(cs_catalog *c, enum cs_catalog_kind k, const struct cs_ynode *kn,
                       const struct cs_ynode *v, cs_diags *d)
{
    const char *sec = section_names[k];
    char shown[128];
    cs_cfg__show_text(kn->scalar, kn->len, shown, sizeof shown);
    if (!valid_name(kn->scalar, kn->len)) {
        cs_cfg__error(d, kn,
                      "%s: expected an entry name of 1 to %d letters, digits, '.', '_' or '-', "
                      "got %s",
                      sec, CS_NAME_MAX - 1, shown);
        return;
    }
    char *path = cs_cfg__path(sec, kn->scalar);
    const struct cs_cat_entry *dup = find_entry(c, k, kn->scalar);
    if (dup) {
        cs_cfg__error(d, kn, "%s: duplicate catalog %s \"%s\" (first defined at %s:%d:%d)", path,
                      cs_catalog__kind_label(k), kn->scalar, dup->file, dup->line, dup->col);
        free(path);
        return;
    }
    if (v->kind != CS_YNODE_MAP) {
        cs_cfg__error(d, v, "%s: expected a mapping of fields, got %s", path,
                      cs_ynode_describe(v));
        free(path);
        return;
    }
    size_t nt;
    const struct cs_field *t = cs_catalog__table(k, &nt);
    struct cs_cat_entry e;
    memset(&e, 0, sizeof e);
    e.kind = k;
    void *spec = entry_spec(&e);
    for (size_t i = 0; i < nt; i++)
        cs_cfg__unset(&t[i], spec);
    size_t errors_before = cs_diags_errors(d);

    const char *source = NULL, *date = NULL, *basis = NULL, *notes = NULL;
    bool estimate = false;
    struct field_src fs[32];
    size_t nfs = 0;
    /* Meta keys first, so that field records can take the entry's source. */
    for (size_t i = 0; i < v->n; i++) {
        const struct cs_ynode *key = v->pairs[i].key, *val = v->pairs[i].value;
        char *p = cs_cfg__path(path, key->scalar);
        if (!strcmp(key->scalar, "source"))
            source = want_string(val, p, d);
        else if (!strcmp(key->scalar, "date"))
            date = want_string(val, p, d);
        else if (!strcmp(key->scalar, "basis"))
            basis = want_string(val, p, d);
        else if (!strcmp(key->scalar, "notes"))
            notes = want_string(val, p, d);
        else if (!strcmp(key->scalar, "estimate"))
            want_bool(val, p, d, &estimate);
        else if (!strcmp(key->scalar, "sources"))
            nfs = parse_sources(val, p, t, nt, fs, NELEM(fs), d);
        free(p);
    }
    if (!source)
        cs_cfg__error(d, kn, "%s: missing key \"source\" (every catalog figure needs one)", path);

    e.fields = cs_xcalloc(v->n ? v->n : 1, sizeof *e.fields);
    for (size_t i = 0; i < v->n; i++) {
        const struct cs_ynode *key = v->pairs[i].key, *val = v->pairs[i].value;
        bool is_meta = false;
        for (size_t m = 0; meta_keys[m]; m++)
            is_meta |= !strcmp(key->scalar, meta_keys[m]);
        if (is_meta)
            continue;
        const struct cs_field *f = cs_cfg__find(t, nt, key->scalar);
        if (!f) {
            cs_cfg__unknown_key(d, key, path, t, nt, meta_keys);
            continue;
        }
        char *p = cs_cfg__path(path, key->scalar);
        if (cs_cfg__set(f, val, p, spec, d)) {
            struct cs_catalog_field *cf = &e.fields[e.nfields++];
            const struct field_src *src = NULL;
            for (size_t j = 0; j < nfs; j++)
                if (!strcmp(fs[j].key, f->key))
                    src = &fs[j];
            cf->key = cs_xstrdup(f->key);
            cf->value = cs_xstrdup(cs_ynode_is_null(val) ? "null" : val->scalar);
            cf->source = cs_xstrdup(src && src->source ? src->source : str_or_empty(source));
            cf->date = cs_xstrdup(src && src->date ? src->date : str_or_empty(date));
            cf->estimate = src ? src->estimate || (estimate && !src->source) : estimate;
            cf->basis = cs_xstrdup(src && src->basis ? src->basis
                                                     : (src && src->source ? ""
                                                                           : str_or_empty(basis)));
            cf->line = val->line;
            cf->col = val->col;
        }
        free(p);
    }
    for (size_t i = 0; i < nt; i++) {
        if ((t[i].flags & CS_F_CATREQ) && !cs_ynode_map_get(v, t[i].key))
            cs_cfg__error(d, kn, "%s: missing key \"%s\" (%s)", path, t[i].key, t[i].doc);
    }
    for (size_t j = 0; j < nfs; j++)
        if (!cs_ynode_map_get(v, fs[j].key))
            cs_cfg__error(d, kn, "%s.sources.%s: the entry has no field \"%s\"", path, fs[j].key,
                          fs[j].key);

    e.name = cs_xstrdup(kn->scalar);
    e.file = cs_xstrdup(kn->file);
    e.line = kn->line;
    e.col = kn->col;
    e.source = cs_xstrdup(str_or_empty(source));
    e.date = cs_xstrdup(str_or_empty(date));
    e.basis = cs_xstrdup(str_or_empty(basis));
    e.notes = cs_xstrdup(str_or_empty(notes));
    e.estimate = estimate;
    /* Identity into the spec (name, source, date); truncation only shortens
     * the copy, the full text stays in the entry. */
    switch (k) {
    case CS_CATALOG_GPU:
        snprintf(e.u.gpu.name, sizeof e.u.gpu.name, "%s", e.name);
        snprintf(e.u.gpu.source, sizeof e.u.gpu.source, "%s", e.source);
        snprintf(e.u.gpu.date, sizeof e.u.gpu.date, "%s", e.date);
        break;
    case CS_CATALOG_LINK:
        snprintf(e.u.link.name, sizeof e.u.link.name, "%s", e.name);
        snprintf(e.u.link.source, sizeof e.u.link.source, "%s", e.source);
        snprintf(e.u.link.date, sizeof e.u.link.date, "%s", e.date);
        break;
    case CS_CATALOG_INTRA:
        snprintf(e.u.intra.name, sizeof e.u.intra.name, "%s", e.name);
        snprintf(e.u.intra.source, sizeof e.u.intra.source, "%s", e.source);
        break;
    case CS_CATALOG_STORAGE:
        snprintf(e.u.storage.name, sizeof e.u.storage.name, "%s", e.name);
        snprintf(e.u.storage.source, sizeof e.u.storage.source, "%s", e.source);
        break;
    case CS_CATALOG_SITE:
        snprintf(e.u.site.name, sizeof e.u.site.name, "%s", e.name);
        snprintf(e.u.site.source, sizeof e.u.site.source, "%s", e.source);
        snprintf(e.u.site.date, sizeof e.u.site.date, "%s", e.date);
        break;
    case CS_CATALOG_CLOUD:
        snprintf(e.u.cloud.name, sizeof e.u.cloud.name, "%s", e.name);
        snprintf(e.u.cloud.source, sizeof e.u.cloud.source, "%s", e.source);
        snprintf(e.u.cloud.date, sizeof e.u.cloud.date, "%s", e.date);
        break;
    case CS_CATALOG_SWITCH:
    case CS_CATALOG_NIC:
    case CS_CATALOG_OPTIC:
    case CS_CATALOG_CABLE:
        snprintf(e.u.nethw.name, sizeof e.u.nethw.name, "%s", e.name);
        snprintf(e.u.nethw.source, sizeof e.u.nethw.source, "%s", e.source);
        snprintf(e.u.nethw.date, sizeof e.u.nethw.date, "%s", e.date);
        break;
    case CS_CATALOG_KIND_COUNT:
        break;
    }
    (void)errors_before;
    if (c->n == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 32;
        c->e = cs_xrealloc(c->e, c->cap, sizeof *c->e);
    }
    c->e[c->n++] = e;
    free(path);
}

static void load_file(cs_catalog *c, const char *path, cs_diags *d)
{
    cs_ydoc *doc = NULL;
    if (cs_ydoc_load_file(path, d, &doc) != CS_OK)
        return;
    const struct cs_ynode *root = cs_ydoc_root(doc);
    if (!root) {
        cs_ydoc_destroy(doc);
        return; /* an empty catalog file adds nothing */
    }
    if (root->kind != CS_YNODE_MAP) {
        cs_cfg__error(d, root, "expected a mapping with gpus:, links:, intra:, storage:, sites:, "
                               "cloud:, switches:, nics:, optics: or cables:, got %s",
                      cs_ynode_describe(root));
        cs_ydoc_destroy(doc);
        return;
    }
    static const char *const extra[] = {"schema_version", "gpus", "links", "intra", "storage",
                                        "sites", "cloud", "switches", "nics", "optics",
                                        "cables", NULL};
    for (size_t i = 0; i < root->n; i++) {
        const struct cs_ynode *k = root->pairs[i].key, *v = root->pairs[i].value;
        if (!strcmp(k->scalar, "schema_version")) {
            if (v->kind != CS_YNODE_SCALAR || strcmp(v->scalar, "1") != 0) {
                char shown[128];
                cs_cfg__show(v, shown, sizeof shown);
                cs_cfg__error(d, v, "schema_version: expected 1, got %s", shown);
            }
            continue;
        }
        enum cs_catalog_kind kind = CS_CATALOG_GPU;
        bool known = false;
        for (int s = 0; section_names[s]; s++) {
            if (!strcmp(k->scalar, section_names[s])) {
                kind = (enum cs_catalog_kind)s;
                known = true;
            }
        }
        if (!known) {
            cs_cfg__unknown_key(d, k, "", NULL, 0, extra);
            continue;
        }
        if (cs_ynode_is_null(v))
            continue;
        if (v->kind != CS_YNODE_MAP) {
            cs_cfg__error(d, v, "%s: expected a mapping of name -> fields, got %s", k->scalar,
                          cs_ynode_describe(v));
            continue;
        }
        for (size_t j = 0; j < v->n; j++)
            load_entry(c, kind, v->pairs[j].key, v->pairs[j].value, d);
    }
    cs_ydoc_destroy(doc);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Cross-entry checks: cloud offers name catalog GPUs, GPUs name intra entries. */
static void check_refs(cs_catalog *c, cs_diags *d)
{
    size_t ng, ni;
    const char **gpus = cs_catalog_names(c, CS_CATALOG_GPU, &ng);
    const char **intras = cs_catalog_names(c, CS_CATALOG_INTRA, &ni);
    for (size_t i = 0; i < c->n; i++) {
        struct cs_cat_entry *e = &c->e[i];
        const char *ref = NULL, *key = NULL, *what = NULL;
        const char **cand = NULL;
        size_t nc = 0;
        if (e->kind == CS_CATALOG_CLOUD) {
            ref = e->u.cloud.gpu;
            key = "gpu";
            what = "GPU";
            cand = gpus;
            nc = ng;
            if (cs_catalog_gpu(c, ref))
                continue;
        } else if (e->kind == CS_CATALOG_GPU && e->u.gpu.intra_default[0]) {
            ref = e->u.gpu.intra_default;
            key = "intra_default";
            what = "intra-node interconnect";
            cand = intras;
            nc = ni;
            if (cs_catalog_intra(c, ref))
                continue;
        } else {
            continue;
        }
        int line = e->line, col = e->col;
        for (size_t j = 0; j < e->nfields; j++) {
            if (!strcmp(e->fields[j].key, key)) {
                line = e->fields[j].line;
                col = e->fields[j].col;
            }
        }
        char sug[512];
        if (cand && cs_suggest_phrase(ref, cand, nc, sug, sizeof sug))
            cs_diag_error(d, e->file, line, col, "%s.%s.%s: unknown %s \"%s\" (%s)",
                          section_names[e->kind], e->name, key, what, ref, sug);
        else
            cs_diag_error(d, e->file, line, col, "%s.%s.%s: unknown %s \"%s\"",
                          section_names[e->kind], e->name, key, what, ref);
    }
    free(gpus);
    free(intras);
}

/* The location of field `key` of entry e (the entry's own when absent). */
static void field_at(const struct cs_cat_entry *e, const char *key, int *line, int *col)
{
    *line = e->line;
    *col = e->col;
    for (size_t j = 0; j < e->nfields; j++)
        if (!strcmp(e->fields[j].key, key)) {
            *line = e->fields[j].line;
            *col = e->fields[j].col;
        }
}

/* Network hardware: a price and its basis go together; links name rows of
 * the right kind (a switch_model is a switch, a dac_model a copper cable). */
static void check_nethw(cs_catalog *c, cs_diags *d)
{
    static const struct {
        const char *key;
        enum cs_catalog_kind kind;
        size_t off;
    } refs[] = {
        {"switch_model", CS_CATALOG_SWITCH, offsetof(struct cs_link_spec, switch_model)},
        {"nic_model", CS_CATALOG_NIC, offsetof(struct cs_link_spec, nic_model)},
        {"optic_model", CS_CATALOG_OPTIC, offsetof(struct cs_link_spec, optic_model)},
        {"cable_model", CS_CATALOG_CABLE, offsetof(struct cs_link_spec, cable_model)},
        {"dac_model", CS_CATALOG_CABLE, offsetof(struct cs_link_spec, dac_model)},
    };
    for (size_t i = 0; i < c->n; i++) {
        const struct cs_cat_entry *e = &c->e[i];
        int line, col;
        if (e->kind >= CS_CATALOG_SWITCH && e->kind <= CS_CATALOG_CABLE) {
            const struct cs_nethw_spec *h = &e->u.nethw;
            bool priced = !isnan(h->price_usd);
            if (priced == (h->price_basis == CS_PRICE_NONE)) {
                field_at(e, "price_basis", &line, &col);
                cs_diag_error(d, e->file, line, col,
                              "%s.%s.price_basis: expected %s for a %s price, got %s",
                              section_names[e->kind], e->name,
                              priced ? "list, street, estimate or derived" : "none",
                              priced ? "given" : "null", cs_price_basis_name(h->price_basis));
            }
            continue;
        }
        if (e->kind != CS_CATALOG_LINK)
            continue;
        for (size_t r = 0; r < NELEM(refs); r++) {
            const char *ref = (const char *)&e->u.link + refs[r].off;
            if (!ref[0])
                continue;
            const struct cs_nethw_spec *h = cs_catalog_nethw(c, refs[r].kind, ref);
            field_at(e, refs[r].key, &line, &col);
            if (!h) {
                size_t nc;
                const char **cand = cs_catalog_names(c, refs[r].kind, &nc);
                char sug[512];
                if (cand && cs_suggest_phrase(ref, cand, nc, sug, sizeof sug))
                    cs_diag_error(d, e->file, line, col, "links.%s.%s: unknown %s \"%s\" (%s)",
                                  e->name, refs[r].key, cs_catalog__kind_label(refs[r].kind), ref,
                                  sug);
                else
                    cs_diag_error(d, e->file, line, col,
                                  "links.%s.%s: unknown %s \"%s\" (expected a name under %s:)",
                                  e->name, refs[r].key, cs_catalog__kind_label(refs[r].kind), ref,
                                  section_names[refs[r].kind]);
                free(cand);
            } else if (!strcmp(refs[r].key, "dac_model") && strcmp(h->kind, "dac") != 0) {
                cs_diag_error(d, e->file, line, col,
                              "links.%s.dac_model: expected a copper cable (kind dac), got %s "
                              "(kind %s)",
                              e->name, ref, h->kind);
            } else if (refs[r].kind == CS_CATALOG_SWITCH && h->ports > 0 &&
                       e->u.link.switch_radix > 0 && h->ports != e->u.link.switch_radix) {
                /* the fabric is built of switch_radix ports: one switch */
                cs_diag_error(d, e->file, line, col,
                              "links.%s.switch_model: %s has %d ports, the link's switch_radix "
                              "is %d (name a switch of that radix)",
                              e->name, ref, h->ports, e->u.link.switch_radix);
            } else if ((refs[r].kind == CS_CATALOG_SWITCH || refs[r].kind == CS_CATALOG_NIC) &&
                       isfinite(h->port_bw_bytes_per_s) && isfinite(e->u.link.bw_bytes_per_s) &&
                       fabs(h->port_bw_bytes_per_s - e->u.link.bw_bytes_per_s) >
                           1e-9 * e->u.link.bw_bytes_per_s) {
                cs_diag_error(d, e->file, line, col,
                              "links.%s.%s: %s runs its ports at %g Gb/s, the link at %g Gb/s",
                              e->name, refs[r].key, ref, h->port_bw_bytes_per_s * 8 / 1e9,
                              e->u.link.bw_bytes_per_s * 8 / 1e9);
            }
        }
    }
}

cs_status cs_catalog_load_dir(const char *dir, cs_diags *d, cs_catalog **out)
{
    DIR *dh = opendir(dir);
    if (!dh) {
        const char *why = strerror(errno);
        const char *env = getenv("CLUSTERSIM_CATALOG");
        if (env && strcmp(dir, env) == 0)
            cs_diag_error(d, dir, 0, 0, "cannot open the catalog directory (CLUSTERSIM_CATALOG): %s",
                          why);
        else if (strcmp(dir, cs_data_catalog_dir()) == 0)
            cs_diag_error(d, dir, 0, 0,
                          "cannot open the catalog directory: %s (the data directory %s is the %s "
                          "one; set CLUSTERSIM_DATA to a PREFIX/share/clustersim or pass --catalog DIR)",
                          why, cs_data_dir(), cs_data_dir_origin());
        else
            cs_diag_error(d, dir, 0, 0, "cannot open the catalog directory: %s", why);
        return CS_EIO;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *de;
    while ((de = readdir(dh)) != NULL) {
        size_t len = strlen(de->d_name);
        if (len <= 5 || de->d_name[0] == '.' || strcmp(de->d_name + len - 5, ".yaml") != 0)
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            names = cs_xrealloc(names, cap, sizeof *names);
        }
        names[n++] = cs_xstrdup(de->d_name);
    }
    closedir(dh);
    if (n == 0) {
        cs_diag_error(d, dir, 0, 0, "no *.yaml catalog files in this directory");
        free(names);
        return CS_EIO;
    }
    qsort(names, n, sizeof *names, cmp_str);
    size_t errors_before = cs_diags_errors(d);
    cs_catalog *c = cs_xcalloc(1, sizeof *c);
    for (size_t i = 0; i < n; i++) {
        size_t dl = strlen(dir);
        char *path = cs_xasprintf("%s%s%s", dir, dl && dir[dl - 1] == '/' ? "" : "/", names[i]);
        load_file(c, path, d);
        free(path);
        free(names[i]);
    }
    free(names);
    check_refs(c, d);
    check_nethw(c, d);
    if (cs_diags_errors(d) > errors_before) {
        cs_catalog_destroy(c);
        return CS_ECONFIG;
    }
    *out = c;
    return CS_OK;
}
