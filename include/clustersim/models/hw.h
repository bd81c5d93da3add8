/* hw.h: plain-data hardware specifications (GPUs, scale-up domains, network
 * links, switches, storage) as the catalog and scenarios resolve them. All
 * quantities are SI: bytes, bytes per second (one direction), FLOP/s, seconds,
 * watts, US dollars. A value that no source gives is NAN (never 0), so a
 * model that needs it can refuse with a message naming the key. */
#ifndef CLUSTERSIM_HW_H
#define CLUSTERSIM_HW_H

#include <stdbool.h>

/* MXFP8 and NVFP4 are the block-scaled formats of Blackwell's tensor cores
 * (Transformer Engine's MXFP8BlockScaling and NVFP4BlockScaling recipes):
 * FP8 E4M3 with one E8M0 scale per 32 elements, and FP4 E2M1 with one E4M3
 * scale per 16 elements plus one FP32 scale per tensor. docs/models.md,
 * 2.3 "Block-scaled precisions". */
enum cs_precision { CS_PREC_FP32, CS_PREC_TF32, CS_PREC_BF16, CS_PREC_FP16, CS_PREC_FP8,
                    CS_PREC_MXFP8, CS_PREC_NVFP4, CS_PREC_COUNT };

/* Bytes per element of a precision's GEMM operands as stored, block scales
 * included (mxfp8 1 + 1/32, nvfp4 1/2 + 1/16); also the width of the
 * parameter all-gathers when the weights are stored quantized (Megatron's
 * fp8/fp4 param gather: cs_memory_gather_bytes_per_param). Quantized
 * training keeps master weights in fp32 and activations in bf16; see
 * models.md. */
double cs_precision_bytes(enum cs_precision p);
/* True for the precisions whose GEMM inputs are quantized per GEMM (fp8,
 * mxfp8, nvfp4): activations, the attention core and the weights' master
 * copy stay in bf16/fp32. */
bool cs_precision_quantized(enum cs_precision p);
/* True for the block-scaled formats (mxfp8, nvfp4). */
bool cs_precision_block_scaled(enum cs_precision p);
const char *cs_precision_name(enum cs_precision p);
/* Every precision's name in enum order, NULL-terminated (models/names.c). */
extern const char *const cs_precision_names[];

#define CS_NAME_MAX 64
#define CS_SOURCE_MAX 512

struct cs_gpu_spec {
    char name[CS_NAME_MAX];            /* catalog name, e.g. "H100-SXM5-80GB" */
    char vendor[16];
    double peak_flops[CS_PREC_COUNT];  /* dense, FLOP/s; NAN where unsupported */
    double hbm_bytes;
    double hbm_bw_bytes_per_s;
    double tdp_w;
    /* Board power limit below the TDP its peaks are rated at (a capped
     * SKU, or a facility's cap); NAN: none. Compute clocks scale as
     * (limit / TDP)^(1/3) (cs_gpu_clock_factor, compute.h). */
    double power_limit_w;
    int pcie_gen;
    /* GPU to host memory, one direction, where the host link is not PCIe
     * (Grace's NVLink-C2C); NAN: the PCIe generation's x16 rate. */
    double host_bw_bytes_per_s;
    /* Scale-up (NVLink/xGMI) bandwidth of one GPU, one direction, bytes/s. */
    double scaleup_bw_bytes_per_s;
    int scaleup_domain_gpus;           /* GPUs sharing one scale-up domain; 0 = none */
    double p2p_bw_bytes_per_s;         /* to one peer, one direction (xGMI: one link); NAN */
    bool nvls;                         /* NVLink SHARP in the NVSwitch of this generation */
    bool rccl_ll128;                   /* RCCL enables its LL128 protocol on this GPU's
                                          scale-up mesh by default (AMD; docs/fabric.md) */
    char intra_default[CS_NAME_MAX];   /* intra-node catalog entry used by default */
    double mamf_bf16_flops;            /* measured max achievable matmul; NAN if unknown */
    /* Half-dimension of the GEMM shape factor g(x) = x / (x + h) measured on
     * this GPU (docs/models.md, 2.2); NAN = the default 128 (fitted on
     * Hopper's table). */
    double gemm_dim_half;
    /* Fraction of the BF16 peak a FlashAttention-2 forward+backward reaches
     * on this GPU in isolation (published kernel benchmarks); NAN if
     * unknown (the H100 figure is then assumed). Scales the fused-attention
     * efficiency relative to the H100 it was fitted on. */
    double flash_attn_frac;
    /* FlashAttention-2's speed over cuDNN's fused attention on this GPU
     * (same shapes, causal, head width 128; published kernel benchmarks),
     * for a stack that runs FlashAttention-2 where Transformer Engine runs
     * cuDNN (the fitted attention efficiency is cuDNN's on H100); NAN or 0
     * where not measured (no factor). */
    double flash2_over_cudnn;
    /* Single-thread speed of the host CPU of this GPU's reference server
     * (DGX A100: EPYC 7742; GB200/GB300: Grace), relative to the DGX
     * H100's Xeon Platinum 8480C on which the host-dispatch costs were
     * measured and host_python_scale fitted; NAN = that reference host.
     * Every host cost (Python and C++ operations, linear modules) is
     * divided by it (docs/models.md 2.6, "Host CPU"). */
    double host_speed;
    double price_usd;                  /* per GPU; NAN if unknown */
    double server_price_usd;           /* per 8-GPU (or server_gpus) server; NAN */
    int server_gpus;
    double server_power_w;             /* nameplate; NAN if unknown */
    char source[CS_SOURCE_MAX];
    char date[32];
};

/* A GPU with block-scaled FP8 tensor cores (an mxfp8 peak in the catalog):
 * the models' test for Blackwell and later (Transformer Engine's weight
 * layouts, cuDNN's per-tile attention costs). False for NULL. */
bool cs_gpu_block_scaled(const struct cs_gpu_spec *gpu);

/* NCCL's NVLink rate per link for the GPU's generation over its link's raw
 * rate, relative to Hopper's (NVIDIA/nccl src/graph/topo.h, 5067397c:
 * SM80_NVLINK_BW 20.0 and SM70 20.0 GB/s on 25 GB/s links, SM90 20.6 on 25,
 * SM100 40.1 on 50): Blackwell (block-scaled) 0.802 / 0.824 = 0.9733,
 * Ampere and Volta (no FP8 peak) 0.9709, otherwise 1. 1 for NULL and for
 * GPUs not of vendor "nvidia". */
double cs_gpu_nvlink_nccl_ratio(const struct cs_gpu_spec *gpu);

enum cs_intra_kind { CS_INTRA_NVSWITCH, CS_INTRA_NVLINK_P2P, CS_INTRA_PCIE };

/* The scale-up (intra-node) interconnect. */
struct cs_intra_spec {
    char name[CS_NAME_MAX];            /* nvswitch | nvlink-p2p | pcie */
    enum cs_intra_kind kind;
    double bw_bytes_per_s;             /* per GPU, one direction; NAN = take the GPU's */
    double latency_s;                  /* per transfer */
    double efficiency;                 /* achievable fraction of bw in collectives */
    bool nvls;                         /* NVLink SHARP (in-switch reduction) available */
    char source[CS_SOURCE_MAX];
};

/* EFA: AWS Elastic Fabric Adapter (SRD transport, multipath); POLLARA: AMD
 * Pensando Pollara 400 (UEC-style RoCE with packet spraying); TCPX:
 * Google GPUDirect-TCPX(O) over gVNIC (TCP with GPU payloads). */
enum cs_link_kind { CS_LINK_INFINIBAND, CS_LINK_ROCE, CS_LINK_ETHERNET, CS_LINK_OMNIPATH, CS_LINK_EFA,
                    CS_LINK_POLLARA, CS_LINK_TCPX };

/* Network hardware rows of the catalog (scenarios/catalog/network-hardware.yaml,
 * catalog kinds switch, nic, optic, cable): one model of switch, NIC,
 * transceiver or cable with its price and power. A link names the models it
 * is built from (cs_link_spec.*_model); the scenario resolves them into
 * cs_link_spec.hw[] so that the cost model (models/cost.c) prices the bill
 * of materials without the catalog. NAN = no usable source. */
enum cs_nethw_slot { CS_NETHW_SWITCH, CS_NETHW_NIC, CS_NETHW_OPTIC, CS_NETHW_CABLE, CS_NETHW_DAC,
                     CS_NETHW_SLOTS };
/* How a price was obtained (network_prices.yaml's basis): a vendor's list
 * price, a reseller's street price, an analyst's estimate, or derived from
 * another figure (the row's `basis` says how); none when the price is null. */
enum cs_price_basis { CS_PRICE_NONE, CS_PRICE_LIST, CS_PRICE_STREET, CS_PRICE_ESTIMATE,
                      CS_PRICE_DERIVED };
struct cs_nethw_spec {
    char name[CS_NAME_MAX];            /* catalog name; "" = the link names none */
    char kind[24];                     /* infiniband | ethernet | nic | transceiver | aoc | dac |
                                        * fibre | optical-link */
    int ports;                         /* switch ports / NIC ports; 0 = not given */
    double port_bw_bytes_per_s;        /* per port (switch, NIC) or per module; NAN */
    double reach_m;                    /* optics and cables; NAN */
    double price_usd;                  /* per unit; NAN */
    enum cs_price_basis price_basis;
    double power_w;                    /* per unit; NAN */
    bool power_includes_optics;        /* switch: its power figure counts the optics in its
                                        * cages, so only the far (NIC-side) ends add power */
    bool includes_optics;              /* cable: the price covers the transceivers at both ends
                                        * (an optical link bought as one item) */
    char source[CS_SOURCE_MAX];
    char date[32];
};
const char *cs_price_basis_name(enum cs_price_basis b); /* "list", "street", ... */
/* Every basis name in enum order, NULL-terminated (models/names.c). */
extern const char *const cs_price_basis_names[];

/* A scale-out network link type (NIC port + switch port). */
struct cs_link_spec {
    char name[CS_NAME_MAX];            /* ib-hdr, roce-400g, ... */
    enum cs_link_kind kind;
    double bw_bytes_per_s;             /* line rate, one direction */
    double efficiency;                 /* achievable fraction of line rate */
    double hop_latency_s;              /* per switch hop */
    double nic_latency_s;              /* end-point (NIC + software) latency */
    int switch_radix;                  /* ports of the matching switch */
    double nic_price_usd, switch_price_usd, optic_price_usd, cable_price_usd;
    double nic_power_w, switch_power_w, optic_power_w;
    char source[CS_SOURCE_MAX];
    char date[32];
    /* The hardware the link is built from (catalog names, "" = none named):
     * the per-link prices and powers above, when given, override the rows'. */
    char switch_model[CS_NAME_MAX], nic_model[CS_NAME_MAX], optic_model[CS_NAME_MAX];
    char cable_model[CS_NAME_MAX];     /* the cables between NIC and leaf and between switches */
    char dac_model[CS_NAME_MAX];       /* copper for NIC-to-leaf (within a rack): those links
                                        * need no optics; "" = optical everywhere */
    struct cs_nethw_spec hw[CS_NETHW_SLOTS]; /* resolved rows by slot (config layer) */
};

enum cs_storage_kind { CS_STORAGE_NVME, CS_STORAGE_PFS, CS_STORAGE_OBJECT };

struct cs_storage_spec {
    char name[CS_NAME_MAX];
    enum cs_storage_kind kind;
    double read_bw_bytes_per_s;        /* per device (nvme) or per client (pfs, object) */
    double write_bw_bytes_per_s;
    double aggregate_bw_bytes_per_s;   /* whole system; NAN = unlimited/unknown */
    double capacity_bytes;             /* per device (nvme) or total */
    double latency_s;                  /* metadata / request latency */
    int devices_per_node;              /* nvme only */
    double price_usd_per_tb;           /* capital, or per month for object; NAN */
    char source[CS_SOURCE_MAX];
};

/* Site and operating-cost defaults (catalog kind "site"). */
struct cs_site_spec {
    char name[CS_NAME_MAX];
    double electricity_usd_per_kwh;
    double pue;
    double colocation_usd_per_kw_month; /* NAN: not applicable */
    double construction_usd_per_mw;     /* per MW of critical load */
    double depreciation_years;
    double support_fraction_per_year;   /* of hardware price */
    double server_power_utilization;    /* average draw / nameplate while training */
    double server_power_multiplier;     /* server watts per GPU watt */
    double network_cost_fraction;       /* interconnect share of cluster cost */
    char source[CS_SOURCE_MAX];
    char date[32];
};

/* A cloud offer of one GPU type (catalog kind "cloud"); prices per GPU-hour,
 * NAN where not offered. */
struct cs_cloud_offer {
    char name[CS_NAME_MAX];
    char provider[32];
    char instance[CS_NAME_MAX];
    char region[32];
    char gpu[CS_NAME_MAX];              /* a catalog GPU name */
    int gpus;                           /* GPUs per instance */
    double on_demand_usd_per_gpu_h;
    double reserved_1y_usd_per_gpu_h;
    double reserved_3y_usd_per_gpu_h;
    double spot_usd_per_gpu_h;
    double scaleout_bw_bytes_per_s;     /* per instance; NAN */
    char source[CS_SOURCE_MAX];
    char date[48];
};

#endif
