/* check_moe.c: mixture-of-experts presets, parameter counts, FLOPs and the
 * per-GPU costs of an MoE layer against hand-derived values and the
 * published totals and active counts (validation/step/MOE-MODELS.md). */
#include "clustersim/models/compute.h"
#include "clustersim/models/memory.h"
#include "clustersim/models/moe.h"
#include "clustersim/models/step.h"
#include "clustersim/models/workload.h"
#include "test_util.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static struct cs_gpu_spec h100(void)
{
    return cs_test_h100_spec();
}

static struct cs_model_shape preset(const char *name)
{
    struct cs_model_shape m;
    ck_assert_int_eq(cs_workload_preset(name, &m), CS_OK);
    return m;
}

/* Published total and active parameters (billions), tolerance 2.5%: the
 * model cards round, and leave out what the presets leave out (the
 * multi-token-prediction module of DeepSeek-V3, gpt-oss's biases and
 * sinks). */
static void check_counts(const char *name, double total_b, double active_b)
{
    struct cs_model_shape m = preset(name);
    ck_assert(cs_model_is_moe(&m));
    double t = cs_workload_params(&m) / 1e9, a = cs_workload_params_active(&m) / 1e9;
    ck_assert_msg(fabs(t / total_b - 1.0) < 0.025, "%s: total %.2fB, published %.1fB", name, t,
                  total_b);
    ck_assert_msg(fabs(a / active_b - 1.0) < 0.025, "%s: active %.2fB, published %.1fB", name, a,
                  active_b);
}

/* Nemotron 3 Super (latent MoE): 40 Mamba-2 blocks of 109,640,064 (in_proj
 * 4096 x (2 x 8192 + 2 x 1024 + 128), convolution 10240 x 5, 384, gated norm
 * 8192, out_proj 8192 x 4096, norm 4096), 8 attention blocks of 35,655,680
 * (4096 x (4096 + 512) + 4096^2 + 4096), 40 MoE blocks: router 4096 x 512,
 * the two latent projections 2 x 4096 x 1024, the shared expert (two of
 * 2688) 4 x 4096 x 2688 and the norm, 54,530,048, plus 512 routed experts at
 * the latent width of 2 x 1024 x 2688 = 5,505,024 each; embeddings 2 x
 * 131072 x 4096 and the final norm: 120,668,687,360 (120B published), and
 * with 22 routed experts 12,770,216,960 active (the card's 12B leaves the
 * embeddings out: 11.70B). The MTP module (run twice with shared weights)
 * is not in either. */
/* The closed-form count of a plain model's MoE layers in a range (what the
 * step and memory models call per chunk) against the layer-by-layer rule,
 * for every leading-dense count, MoE stride, start and length up to 40. */
START_TEST(test_moe_layers_in_closed_form)
{
    struct cs_model_shape m = preset("llama4-maverick");
    m.layers = 40;
    for (int fd = 0; fd <= 5; fd++)
        for (int every = 1; every <= 4; every++) {
            m.moe.first_dense_layers = fd;
            m.moe.moe_every = every;
            for (int first = 0; first < 40; first++)
                for (int n = 0; first + n <= 40; n++) {
                    int k = 0;
                    for (int i = first; i < first + n; i++)
                        k += cs_model_layer_is_moe(&m, i);
                    ck_assert_int_eq(cs_model_moe_layers_in(&m, first, n), k);
                    int cnt[CS_BLOCK_COUNT];
                    cs_model_slots_in(&m, first, n, cnt);
                    ck_assert_int_eq(cnt[CS_BLOCK_MOE], k);
                    ck_assert_int_eq(cnt[CS_BLOCK_LAYER], n - k);
                }
        }
}
END_TEST

START_TEST(test_moe_params_latent)
{
    struct cs_model_shape m = preset("nemotron-3-super");
    ck_assert_int_eq(m.moe.latent, 1024);
    ck_assert(m.mtp_shared && m.mtp_layers == 2);
    ck_assert_double_eq_tol(cs_workload_params(&m), 120668687360.0, 0.5);
    ck_assert_double_eq_tol(cs_workload_params_active(&m), 12770216960.0, 0.5);
    /* the shared MTP module's parameters once, not per pass */
    struct cs_model_shape one = m;
    one.mtp_layers = 1;
    ck_assert_double_eq_tol(cs_workload_mtp_params(&m), cs_workload_mtp_params(&one), 0.5);
    one.mtp_shared = false;
    one.mtp_layers = 2;
    ck_assert_double_eq_tol(cs_workload_mtp_params(&one), 2.0 * cs_workload_mtp_params(&m), 1.0);
}
END_TEST

/* Nemotron 3.5 Lightning: Nemotron 3 Nano's layers plus one MTP module
 * (pattern "*E") run twice with shared weights. By hand, the module: an
 * attention layer, 2688 x (32 + 2 x 2) x 128 + 32 x 128 x 2688 = 23,396,352;
 * a MoE layer, router 2688 x 128 = 344,064, 128 experts of 2 x 2688 x 1856
 * = 1,277,165,568 (squared ReLU: up and down), the shared expert 2 x 2688 x
 * 3712 = 19,955,712; the projection of [h; embedding] 2 x 2688 x 2688 =
 * 14,450,688; four RMSNorm vectors of 2688 (the two layers', enorm, hnorm):
 * 1,335,323,136. The model counts 1,335,339,264 (six more norm vectors of
 * 2688), within 0.002%. The verification card counts 32,913,266,240
 * parameters with the MTP layers. */
START_TEST(test_moe_params_lightning)
{
    struct cs_model_shape l = preset("nemotron-3.5-lightning"), n = preset("nemotron-3-nano");
    ck_assert(l.mtp_shared && l.mtp_layers == 2);
    ck_assert_int_eq(n.mtp_layers, 0);
    ck_assert_double_eq_tol(cs_workload_params(&l), cs_workload_params(&n), 0.5);
    double card = 32913266240.0;
    double total = cs_workload_params(&l) + cs_workload_mtp_params(&l);
    ck_assert_double_le(fabs(total / card - 1.0), 1e-5);
    ck_assert_double_le(fabs(cs_workload_mtp_params(&l) / 1335323136.0 - 1.0), 2e-5);
}
END_TEST

START_TEST(test_moe_params_published)
{
    check_counts("mixtral-8x7b", 46.7, 12.9);
    check_counts("mixtral-8x22b", 141.0, 39.0);
    check_counts("deepseek-v3", 671.0, 37.0);
    check_counts("qwen3-30b-a3b", 30.5, 3.3);
    check_counts("qwen3-235b-a22b", 235.0, 22.0);
    check_counts("llama4-scout", 109.0, 17.0);
    check_counts("llama4-maverick", 400.0, 17.0);
    /* Nemotron 3 Nano's card: 31.6B total, 3.6B active with the embeddings */
    check_counts("nemotron-3-nano", 31.6, 3.6);
    /* Nemotron 3 Ultra: 550B total, 55B active (56.1B counted with both
     * embeddings, 54.9B with one) */
    check_counts("nemotron-3-ultra", 550.0, 55.0);
    /* gpt-oss's model card (Table 1) counts 5.13B active without the
     * input embedding (201088 x 2880 = 0.58B); the other cards and
     * cs_workload_params_active count it. */
    check_counts("gpt-oss-120b", 116.8, 5.13 + 0.579);
    check_counts("kimi-k2", 1040.0, 32.6);
}
END_TEST

/* Mixtral 8x7B by hand: per layer attention 4096 x (4096 + 2 x 1024) +
 * 4096 x 4096 = 41,943,040; router 4096 x 8 = 32,768; one expert 3 x 4096
 * x 14336 = 176,160,768; norms 2 x 4096. Embeddings 2 x 32000 x 4096, final
 * norm 4096. */
/* Learned routing's spread by the router each preset was trained with:
 * 0.017 (Wang et al. 2024's loss-free MaxVio 0.04 over 2.4) for routers
 * balanced by expert biases (DeepSeek-V3 and Kimi K2: topk_method
 * noaux_tc; Nemotron 3: moe_router_enable_expert_bias), 0.3 (their
 * aux-loss MaxVio 0.72 over 2.4) for the others. With 0.017 a DeepSeek-V3
 * EP-64 rank of 4 experts and 4096 x 8 copies per rank has sd
 * sqrt(0.017^2 / 4 + 64 / (64 x 32768)) = 0.0095, so its most loaded rank
 * is within 3% of the mean, where 0.3 puts it near 1.36. */
START_TEST(test_moe_preset_load_cv)
{
    const char *bias[] = {"deepseek-v3", "kimi-k2", "nemotron-3-nano", "nemotron-3.5-lightning",
                          "nemotron-3-super", "nemotron-3-ultra"};
    const char *aux[] = {"mixtral-8x7b", "mixtral-8x22b", "qwen3-30b-a3b", "qwen3-235b-a22b",
                         "llama4-scout", "llama4-maverick", "gpt-oss-120b"};
    struct cs_model_shape m;
    for (size_t i = 0; i < sizeof bias / sizeof bias[0]; i++) {
        ck_assert_int_eq(cs_workload_preset(bias[i], &m), CS_OK);
        ck_assert_double_eq(m.moe.load_cv, 0.017);
    }
    for (size_t i = 0; i < sizeof aux / sizeof aux[0]; i++) {
        ck_assert_int_eq(cs_workload_preset(aux[i], &m), CS_OK);
        ck_assert_double_eq(m.moe.load_cv, 0.3);
    }
    ck_assert_int_eq(cs_workload_preset("deepseek-v3", &m), CS_OK);
    struct cs_moe_load a = cs_moe_load_sample(&m.moe, 64, 4096.0 * 8.0, 42);
    ck_assert(a.max_over_mean >= 1.0 && a.max_over_mean < 1.03);
    m.moe.load_cv = 0.3;
    struct cs_moe_load b = cs_moe_load_sample(&m.moe, 64, 4096.0 * 8.0, 42);
    ck_assert(b.max_over_mean > 1.25 && b.max_over_mean < 1.45);
}
END_TEST

START_TEST(test_moe_params_mixtral_by_hand)
{
    struct cs_model_shape m = preset("mixtral-8x7b");
    double layer_common = 41943040.0 + 32768.0 + 8192.0;
    double expert = 176160768.0;
    double emb = 2.0 * 32000.0 * 4096.0 + 4096.0;
    ck_assert_double_eq_tol(cs_workload_params(&m), 32.0 * (layer_common + 8.0 * expert) + emb, 1.0);
    ck_assert_double_eq_tol(cs_workload_params_active(&m), 32.0 * (layer_common + 2.0 * expert) + emb,
                            1.0);
}
END_TEST

START_TEST(test_moe_layer_kinds)
{
    struct cs_model_shape d = preset("deepseek-v3");
    ck_assert(!cs_model_layer_is_moe(&d, 0));
    ck_assert(!cs_model_layer_is_moe(&d, 2));
    ck_assert(cs_model_layer_is_moe(&d, 3));
    ck_assert(cs_model_layer_is_moe(&d, 60));
    ck_assert_int_eq(cs_model_moe_layers_in(&d, 0, 61), 58);
    ck_assert_int_eq(cs_model_moe_layers_in(&d, 0, 4), 1);
    /* Maverick: layers 1, 3, 5, ... (interleave_moe_layer_step 2) */
    struct cs_model_shape mv = preset("llama4-maverick");
    ck_assert(!cs_model_layer_is_moe(&mv, 0));
    ck_assert(cs_model_layer_is_moe(&mv, 1));
    ck_assert_int_eq(cs_model_moe_layers_in(&mv, 0, 48), 24);
    struct cs_model_shape dense = preset("llama3.1-8b");
    ck_assert(!cs_model_is_moe(&dense));
    ck_assert_int_eq(cs_model_moe_layers_in(&dense, 0, 32), 0);
    ck_assert_double_eq(cs_workload_params(&dense), cs_workload_params_active(&dense));
}
END_TEST

/* Forward FLOPs of one Mixtral MoE layer for one sequence of s = 4096:
 * qkv 2 s h (h + 2 kv d) with d = 128, scores and P V 2 s^2 h each, output
 * 2 s h^2, router 2 s h E, two experts of 3 GEMMs 2 s h f each. */
START_TEST(test_moe_layer_flops_mixtral)
{
    struct cs_model_shape m = preset("mixtral-8x7b");
    double s = 4096, h = 4096, f = 14336;
    struct cs_layer_flops lf;
    cs_workload_layer_flops(&m, &lf);
    ck_assert_double_eq_tol(lf.qkv, 2 * s * h * (h + 2 * 8 * 128), 1.0);
    ck_assert_double_eq_tol(lf.scores, 2 * s * s * h, 1.0);
    ck_assert_double_eq_tol(lf.router, 2 * s * h * 8, 1.0);
    ck_assert_double_eq_tol(lf.mlp_up + lf.mlp_down, 2.0 * 3.0 * 2 * s * h * f, 1.0);
    double per_iter = cs_workload_flops_per_iter(&m, 1.0, CS_RECOMPUTE_NONE);
    double logits = 2 * s * h * 32000;
    ck_assert_double_eq_tol(per_iter, 3.0 * (32 * lf.total + logits), per_iter * 1e-12);
}
END_TEST

/* MLA projections of DeepSeek-V3 per layer: q_a 7168 x 1536 (+1536 norm),
 * q_b 1536 x 128 x 192, kv_a 7168 x 576 (+512 norm), kv_b 512 x 128 x 256,
 * o 128 x 128 x 7168. */
START_TEST(test_moe_mla_params)
{
    struct cs_model_shape m = preset("deepseek-v3");
    ck_assert_double_eq(cs_model_qk_head_dim(&m), 192.0);
    ck_assert_double_eq(cs_model_v_head_dim(&m), 128.0);
    struct cs_layer_flops lf;
    cs_workload_layer_flops(&m, &lf);
    double attn = 7168.0 * 1536 + 1536 + 1536.0 * 128 * 192 + 7168.0 * 576 + 512 +
                  512.0 * 128 * 256;
    ck_assert_double_eq_tol(lf.qkv, 2.0 * 4096 * attn, 1.0);
    ck_assert_double_eq_tol(lf.proj, 2.0 * 4096 * 128 * 128 * 7168, 1.0);
    ck_assert_double_eq_tol(lf.scores, 2.0 * 4096 * 4096 * 128 * 192, 1.0);
    ck_assert_double_eq_tol(lf.attn_over_v, 2.0 * 4096 * 4096 * 128 * 128, 1.0);
}
END_TEST

static struct cs_workload moe_workload(const char *name, int tp, int ep, int etp)
{
    struct cs_workload w;
    memset(&w, 0, sizeof w);
    w.model = preset(name);
    w.global_batch = 64;
    w.micro_batch = 1;
    w.par.tp = tp;
    w.par.pp = 1;
    w.par.dp = 8;
    w.par.cp = 1;
    w.par.vp = 1;
    w.par.sp = tp > 1;
    w.par.ep = ep;
    w.par.etp = etp;
    w.precision = CS_PREC_BF16;
    return w;
}

/* The MoE layer's synchronization (models/step.c, docs/models.md 2.6):
 * Megatron-Core's dispatchers synchronize in every MoE layer's forward;
 * the host time before it is the router's and the preprocessing's
 * launches, by hand at the fitted Python factor 8 x 10 us: alltoall 2 + 8
 * (the routing map's sums, the counts' all-gather, the slices: what
 * moe_preprocess captures) = 800 us, flex 2 + 2 = 320 us; when the attn
 * or moe_router scope's graphs capture them, the graph's one launch (80
 * us); none without experts. */
START_TEST(test_moe_sync_point)
{
    struct cs_workload w = moe_workload("qwen3-30b-a3b", 1, 8, 1);
    struct cs_compute_params p;
    struct cs_gpu_spec g = h100();
    cs_compute_params_default(&g, &p);
    w.stack = CS_STACK_MCORE_2024;
    ck_assert(cs_step_moe_syncs(&w));
    w.model.moe.dispatcher = CS_MOE_DISPATCH_ALLTOALL;
    ck_assert_double_eq_tol(cs_compute_host_moe_pre(&w, &p), 800e-6, 1e-12);
    w.model.moe.dispatcher = CS_MOE_DISPATCH_HIERARCHICAL;
    ck_assert_double_eq_tol(cs_compute_host_moe_pre(&w, &p), 320e-6, 1e-12);
    w.cuda_graphs = true;
    w.cuda_graph_scope = CS_GRAPH_SCOPE_ATTN;
    ck_assert_double_eq_tol(cs_compute_host_moe_pre(&w, &p), 80e-6, 1e-12);
    w.cuda_graph_scope = CS_GRAPH_SCOPE_MOE_ROUTER;
    ck_assert_double_eq_tol(cs_compute_host_moe_pre(&w, &p), 80e-6, 1e-12);
    w.cuda_graph_scope = CS_GRAPH_SCOPE_ATTN;
    ck_assert(cs_step_moe_syncs(&w));
    /* full-iteration graphs need the sync-free path: no synchronization */
    w.cuda_graph_scope = CS_GRAPH_SCOPE_ITERATION;
    ck_assert(!cs_step_moe_syncs(&w));
    w.cuda_graphs = false;
    /* other stacks are not modelled with it; a dense model has none */
    w.stack = CS_STACK_TORCHTITAN;
    ck_assert(!cs_step_moe_syncs(&w));
    struct cs_workload d = moe_workload("qwen3-30b-a3b", 1, 1, 1);
    ck_assert_int_eq(cs_workload_preset("llama3.1-8b", &d.model), CS_OK);
    d.stack = CS_STACK_MCORE_2024;
    ck_assert(!cs_step_moe_syncs(&d));
    ck_assert_double_eq(cs_compute_host_moe_pre(&d, &p), 0.0);
}
END_TEST

/* The router's GEMM stays in bf16 under the quantized recipes
 * (cs_compute_router_prec: Megatron-Core's router_gating_linear and
 * torchtitan's filter of router.gate). By hand on an FP8 Qwen3-30B-A3B
 * layer on H100 (tp 1, ep 8): doubling the experts from 128 to 256 (top-k
 * kept at 8) changes the layer's forward outside its experts by the
 * router's part alone: a bf16 GEMM of 4096 x E x 2048
 * and its fp32 scores, top-k and softmax (3 x 4 x 4096 x E bytes), with no
 * FP8 casts. */
START_TEST(test_moe_router_bf16)
{
    struct cs_workload w = moe_workload("qwen3-30b-a3b", 1, 8, 1);
    ck_assert_int_eq(cs_compute_router_prec(&w), CS_PREC_BF16);
    w.precision = CS_PREC_FP16;
    ck_assert_int_eq(cs_compute_router_prec(&w), CS_PREC_FP16);
    w.precision = CS_PREC_MXFP8;
    ck_assert_int_eq(cs_compute_router_prec(&w), CS_PREC_BF16);
    w.precision = CS_PREC_NVFP4;
    ck_assert_int_eq(cs_compute_router_prec(&w), CS_PREC_BF16);
    w.precision = CS_PREC_FP8;
    ck_assert_int_eq(cs_compute_router_prec(&w), CS_PREC_BF16);
    struct cs_gpu_spec g = h100();
    struct cs_compute_params p;
    cs_compute_params_default(&g, &p);
    struct cs_layer_cost a, b;
    ck_assert_int_eq(cs_compute_moe_layer(&w, &g, &p, &a), CS_OK);
    struct cs_workload w2 = w;
    w2.model.moe.experts = 256;
    ck_assert_int_eq(cs_compute_moe_layer(&w2, &g, &p, &b), CS_OK);
    double t = 4096.0, h = 2048.0;
    double want = cs_compute_gemm_s(&g, &p, CS_PREC_BF16, t, 256, h, 1.0) -
                  cs_compute_gemm_s(&g, &p, CS_PREC_BF16, t, 128, h, 1.0) +
                  cs_compute_mem_s(&g, &p, 12.0 * t * 256) - cs_compute_mem_s(&g, &p, 12.0 * t * 128);
    double got = (b.fwd_s - b.expert_fwd_s) - (a.fwd_s - a.expert_fwd_s);
    ck_assert_msg(fabs(got - want) < 1e-12, "router forward delta %.9g s, by hand %.9g s", got, want);
}
END_TEST

/* Qwen3-30B-A3B on 8 GPUs, ep 8: 16 experts per GPU, each 3 x 2048 x 768;
 * dispatch of 4096 x 8 copies of 2048 bf16 values per GPU. */
START_TEST(test_moe_layer_cost_qwen3)
{
    struct cs_workload w = moe_workload("qwen3-30b-a3b", 1, 8, 1);
    struct cs_gpu_spec g = h100();
    const struct cs_gpu_spec *gpu = &g;
    struct cs_compute_params p;
    cs_compute_params_default(gpu, &p);
    struct cs_layer_cost c;
    ck_assert_int_eq(cs_compute_moe_layer(&w, gpu, &p, &c), CS_OK);
    ck_assert_double_eq_tol(c.expert_params, 16.0 * 3 * 2048 * 768, 1.0);
    ck_assert_double_eq_tol(c.ep_a2a_bytes, 4096.0 * 8 * 2048 * 2, 1.0);
    ck_assert_int_eq(c.ep_a2a_fwd, 2);
    ck_assert_int_eq(c.ep_a2a_bwd, 2);
    /* routed experts: 4096 x 8 rows x 3 GEMMs x 2 x 2048 x 768 FLOPs at
     * most the bf16 peak: a lower bound on their time */
    double fl = 4096.0 * 8 * 3 * 2 * 2048 * 768;
    ck_assert(c.expert_fwd_s > fl / gpu->peak_flops[CS_PREC_BF16]);
    ck_assert(c.expert_fwd_s < c.fwd_s);
    ck_assert(c.expert_bwd_s > 1.9 * c.expert_fwd_s);
    /* ep 4: twice the experts per GPU, twice the rows */
    struct cs_workload w4 = moe_workload("qwen3-30b-a3b", 1, 4, 1);
    w4.par.dp = 8;
    struct cs_layer_cost c4;
    ck_assert_int_eq(cs_compute_moe_layer(&w4, gpu, &p, &c4), CS_OK);
    ck_assert_double_eq_tol(c4.expert_params, 2.0 * c.expert_params, 1.0);
    ck_assert_double_eq_tol(c4.ep_a2a_bytes, c.ep_a2a_bytes, 1.0);
    /* a dense model has no MoE layer */
    struct cs_workload d = moe_workload("llama3.1-8b", 1, 1, 1);
    ck_assert_int_eq(cs_compute_moe_layer(&d, gpu, &p, &c), CS_EINVAL);
}
END_TEST


/* torchtitan's experts (torch._grouped_mm) on a Blackwell GPU in bf16:
 * Qwen3-30B-A3B, ep 8, 4,096 tokens: 16 local experts of 2,048 rows each
 * (4,096 x 8 / 16), fc1 2 x 768 wide and fc2 768 deep over hidden 2,048.
 * The expert GEMMs' time is CS_TORCH_GROUPED_MM_BF16_BLACKWELL times the
 * model's: forward fc1 (2,048 x 1,536 x 2,048) + fc2 (2,048 x 2,048 x 768)
 * per group, backward the dgrad and wgrad GEMMs of each, so the layer's
 * expert time exceeds the same layer with the factor at 1 by 0.43 times
 * those GEMMs, forward and backward. Megatron-Core's stack, an H100-like
 * GPU without MXFP8 and mxfp8 experts keep the model's GEMM time. */
START_TEST(test_moe_torch_grouped_mm_blackwell)
{
    struct cs_workload w = moe_workload("qwen3-30b-a3b", 1, 8, 1);
    w.stack = CS_STACK_TORCHTITAN;
    struct cs_gpu_spec g = h100();
    g.peak_flops[CS_PREC_MXFP8] = g.peak_flops[CS_PREC_FP8];   /* block-scaled: Blackwell's rule */
    struct cs_compute_params p, p1;
    cs_compute_params_default(&g, &p);
    ck_assert_double_eq(p.torch_grouped_mm_slowdown, 1.43);
    p1 = p;
    p1.torch_grouped_mm_slowdown = 1.0;
    struct cs_layer_cost c, c1;
    ck_assert_int_eq(cs_compute_moe_layer(&w, &g, &p, &c), CS_OK);
    ck_assert_int_eq(cs_compute_moe_layer(&w, &g, &p1, &c1), CS_OK);
    double t = 2048.0, G = 16.0;
    double fwd = cs_compute_gemm_s(&g, &p, CS_PREC_BF16, t, 1536, 2048, G) +
                 cs_compute_gemm_s(&g, &p, CS_PREC_BF16, t, 2048, 768, G);
    double bwd = cs_compute_gemm_s(&g, &p, CS_PREC_BF16, t, 2048, 1536, G) +
                 cs_compute_gemm_s(&g, &p, CS_PREC_BF16, 2048, 1536, t, G) +
                 cs_compute_gemm_s(&g, &p, CS_PREC_BF16, t, 768, 2048, G) +
                 cs_compute_gemm_s(&g, &p, CS_PREC_BF16, 768, 2048, t, G);
    ck_assert_double_eq_tol(c.expert_fwd_s - c1.expert_fwd_s, 0.43 * fwd, 1e-12);
    ck_assert_double_eq_tol(c.expert_bwd_s - c1.expert_bwd_s, 0.43 * bwd, 1e-12);
    ck_assert_double_eq_tol(c.fwd_s - c1.fwd_s, 0.43 * fwd, 1e-12);

    /* Megatron-Core's experts, and torchtitan's in mxfp8: no change */
    struct cs_workload m = w;
    m.stack = CS_STACK_MCORE_2024;
    ck_assert_int_eq(cs_compute_moe_layer(&m, &g, &p, &c), CS_OK);
    ck_assert_int_eq(cs_compute_moe_layer(&m, &g, &p1, &c1), CS_OK);
    ck_assert_double_eq(c.expert_fwd_s, c1.expert_fwd_s);
    struct cs_workload x = w;
    x.precision = CS_PREC_MXFP8;
    ck_assert_int_eq(cs_compute_moe_layer(&x, &g, &p, &c), CS_OK);
    ck_assert_int_eq(cs_compute_moe_layer(&x, &g, &p1, &c1), CS_OK);
    ck_assert_double_eq(c.expert_bwd_s, c1.expert_bwd_s);
    /* a GPU without block-scaled tensor cores: no measurement, factor 1 */
    struct cs_gpu_spec h = h100();
    cs_compute_params_default(&h, &p);
    ck_assert_double_eq(p.torch_grouped_mm_slowdown, 1.0);
}
END_TEST

/* The alltoall dispatcher's sorts by local expert (Megatron-Core's
 * sort_chunks_by_idxs, cs_compute_moe_sort_bytes) by hand: Qwen3-30B-A3B,
 * ep 8, micro-batch 1 of 4,096 tokens in bf16: 16 local experts receive
 * 4,096 x 8 = 32,768 routed copies of hidden 2,048; one sort reads and
 * writes each copy (2 x 2,048 bytes) and its fp32 probability (4), so
 * 2 x (4,096 + 4) x 32,768 = 268,697,600 bytes. The layer sorts twice
 * forward and twice backward, so its forward and backward each exceed the
 * same layer under a flex dispatcher (hierarchical) by two such sorts'
 * memory time, and nothing else moves. One local expert (ep = experts) or
 * a flex dispatcher: no sort. */
START_TEST(test_moe_alltoall_sort)
{
    struct cs_workload w = moe_workload("qwen3-30b-a3b", 1, 8, 1);
    w.model.moe.dispatcher = CS_MOE_DISPATCH_ALLTOALL;
    ck_assert_double_eq(cs_compute_moe_sort_bytes(&w, 2.0, 32768, 2048, 16), 268697600.0);
    ck_assert_double_eq(cs_compute_moe_sort_bytes(&w, 2.0, 32768, 2048, 1), 0.0);
    struct cs_workload f = w;
    f.model.moe.dispatcher = CS_MOE_DISPATCH_HIERARCHICAL;
    ck_assert_double_eq(cs_compute_moe_sort_bytes(&f, 2.0, 32768, 2048, 16), 0.0);

    struct cs_gpu_spec g = h100();
    struct cs_compute_params p;
    cs_compute_params_default(&g, &p);
    struct cs_layer_cost a, h;
    ck_assert_int_eq(cs_compute_moe_layer(&w, &g, &p, &a), CS_OK);
    ck_assert_int_eq(cs_compute_moe_layer(&f, &g, &p, &h), CS_OK);
    double two = 2.0 * cs_compute_mem_s(&g, &p, 268697600.0);
    /* 537 MB at H100's sustained HBM rate: about 0.2 ms each way */
    ck_assert(two > 1.5e-4 && two < 3.0e-4);
    ck_assert_double_eq_tol(a.fwd_s - h.fwd_s, two, 1e-12);
    ck_assert_double_eq_tol(a.bwd_s - h.bwd_s, two, 1e-12);
    ck_assert_double_eq_tol(a.fwd_bytes - h.fwd_bytes, 2.0 * 268697600.0, 1e-3);
    ck_assert_double_eq(a.expert_fwd_s, h.expert_fwd_s);
    ck_assert_double_eq(a.fwd_flops, h.fwd_flops);

    /* Mixtral 8x7B at ep 8: one local expert, no sort */
    struct cs_workload x = moe_workload("mixtral-8x7b", 1, 8, 1);
    struct cs_workload xf = x;
    x.model.moe.dispatcher = CS_MOE_DISPATCH_ALLTOALL;
    xf.model.moe.dispatcher = CS_MOE_DISPATCH_HIERARCHICAL;
    ck_assert_int_eq(cs_compute_moe_layer(&x, &g, &p, &a), CS_OK);
    ck_assert_int_eq(cs_compute_moe_layer(&xf, &g, &p, &h), CS_OK);
    ck_assert_double_eq(a.fwd_s, h.fwd_s);
    ck_assert_double_eq(a.bwd_s, h.bwd_s);
}
END_TEST

/* The expert activation path by hand (cs_compute_moe_act_bytes), e = 2
 * bytes, 1000 routed rows into experts of width 100, hidden 50, 4 local
 * experts: the activation reads 2 x 100 and writes 100 per row, 3 x 2 x
 * 100,000 = 600,000 bytes forward, twice that backward; gpt-oss's clamp
 * adds two clamps (2 x 2 x 2 x 100,000 = 800,000) and the cat of the two
 * halves (2 x 2 x 200,000 = 800,000) forward, 10 x 2 x 100,000 = 2,000,000
 * backward; fc2's bias per expert (b p written, t + b p read twice and
 * written, the cat read and written) 6 x 2 x 50,000 = 600,000 forward,
 * 3 x 2 x 50,000 = 300,000 backward, in 2 x 4 + 1 kernels. Fused: none of
 * it. On a whole MoE layer the unfused path's expert time exceeds the
 * fused one's by exactly those bytes' memory time and kernel floors; the
 * gpt-oss preset states the clamp (7) and the biases. */
START_TEST(test_moe_expert_activation_path)
{
    struct cs_workload w = moe_workload("qwen3-30b-a3b", 1, 8, 1);
    double f = 0, b = 0;
    int k = 0;
    cs_compute_moe_act_bytes(&w, 2.0, 1000, 100, 50, 4, &f, &b, &k);
    ck_assert_double_eq(f, 600000.0);
    ck_assert_double_eq(b, 1200000.0);
    ck_assert_int_eq(k, 1);
    w.model.moe.glu_clamp = 7.0;
    cs_compute_moe_act_bytes(&w, 2.0, 1000, 100, 50, 4, &f, &b, &k);
    ck_assert_double_eq(f, 600000.0 + 1600000.0);
    ck_assert_double_eq(b, 1200000.0 + 2000000.0);
    ck_assert_int_eq(k, 4);
    w.model.moe.expert_bias = true;
    cs_compute_moe_act_bytes(&w, 2.0, 1000, 100, 50, 4, &f, &b, &k);
    ck_assert_double_eq(f, 2200000.0 + 600000.0);
    ck_assert_double_eq(b, 3200000.0 + 300000.0);
    ck_assert_int_eq(k, 13);
    w.fused_grouped_mlp = true;
    cs_compute_moe_act_bytes(&w, 2.0, 1000, 100, 50, 4, &f, &b, &k);
    ck_assert(f == 0.0 && b == 0.0 && k == 0);

    struct cs_model_shape g = preset("gpt-oss-120b");
    ck_assert_double_eq(g.moe.glu_clamp, 7.0);
    ck_assert(g.moe.expert_bias);
    ck_assert(!preset("qwen3-30b-a3b").moe.expert_bias);

    struct cs_workload u = moe_workload("gpt-oss-120b", 1, 8, 1), fu;
    u.precision = CS_PREC_MXFP8;
    fu = u;
    fu.fused_grouped_mlp = true;
    struct cs_gpu_spec gpu = cs_test_h100_spec();   /* the layer's costs; the GPU rule is the loader's */
    gpu.peak_flops[CS_PREC_MXFP8] = gpu.peak_flops[CS_PREC_FP8];
    struct cs_compute_params p;
    cs_compute_params_default(&gpu, &p);
    struct cs_layer_cost cu, cf;
    ck_assert_int_eq(cs_compute_moe_layer(&u, &gpu, &p, &cu), CS_OK);
    ck_assert_int_eq(cs_compute_moe_layer(&fu, &gpu, &p, &cf), CS_OK);
    double rows = 4096.0 * 4;   /* micro-batch 1 x 4096 tokens, top 4 */
    cs_compute_moe_act_bytes(&u, cs_workload_act_bytes(u.precision), rows, 2880, 2880, 16, &f, &b, &k);
    double want_f = cs_compute_mem_s(&gpu, &p, f) + (k - 1) * p.kernel_overhead_s;
    double want_b = cs_compute_mem_s(&gpu, &p, b) + (k - 1) * p.kernel_overhead_s;
    ck_assert_double_eq_tol(cu.expert_fwd_s - cf.expert_fwd_s, want_f, 1e-12);
    ck_assert_double_eq_tol(cu.expert_bwd_s - cf.expert_bwd_s, want_b, 1e-12);
    /* the host issues the clamp's 3 ops and the bias loop's 2 x 16 + 3
     * more each way, and 1 (2 backward) fewer when fused */
    struct cs_host_ops hu, hf;
    cs_compute_host_ops(&u, true, &hu);
    cs_compute_host_ops(&fu, true, &hf);
    ck_assert_double_eq(hu.fwd - hf.fwd, 1.0 + 3.0 + 35.0);
    ck_assert_double_eq(hu.bwd - hf.bwd, 2.0 + 3.0 + 35.0);
}
END_TEST

/* Transformer Engine's GroupedLinear per-expert kernels by hand
 * (cs_compute_te_grouped_kernels): two grouped linears per MoE layer; per
 * GEMM call ceil(e / 4) - 1 floors beyond the grouped model's one, per
 * quantized operand q e - 1 (q: FP8 2, MXFP8 1, bf16 0).
 *   MXFP8, 64 local experts: forward 2 x (15 + 63) = 156, backward
 *   2 x (2 x 15 + 63) = 186;
 *   FP8, 16: forward 2 x (3 + 31) = 68, backward 2 x (6 + 31) = 74;
 *   bf16, 8: forward 2 x 1 = 2, backward 2 x 2 = 4; 2 local experts: 0.
 * Nothing under fused_grouped_mlp, another stack, one local expert. On a
 * Qwen3-30B-A3B layer at ep 8 (16 local experts, FP8) the expert time grows
 * by exactly 68 and 74 floors over the torchtitan stack's same layer. */
START_TEST(test_moe_te_grouped_kernels)
{
    struct cs_workload w = moe_workload("qwen3-30b-a3b", 1, 8, 1);
    w.stack = CS_STACK_MCORE_2024;
    ck_assert_double_eq(cs_compute_te_grouped_kernels(&w, CS_PREC_MXFP8, 64, false), 156.0);
    ck_assert_double_eq(cs_compute_te_grouped_kernels(&w, CS_PREC_MXFP8, 64, true), 186.0);
    ck_assert_double_eq(cs_compute_te_grouped_kernels(&w, CS_PREC_FP8, 16, false), 68.0);
    ck_assert_double_eq(cs_compute_te_grouped_kernels(&w, CS_PREC_FP8, 16, true), 74.0);
    ck_assert_double_eq(cs_compute_te_grouped_kernels(&w, CS_PREC_BF16, 8, false), 2.0);
    ck_assert_double_eq(cs_compute_te_grouped_kernels(&w, CS_PREC_BF16, 8, true), 4.0);
    ck_assert_double_eq(cs_compute_te_grouped_kernels(&w, CS_PREC_BF16, 2, true), 0.0);
    ck_assert_double_eq(cs_compute_te_grouped_kernels(&w, CS_PREC_MXFP8, 1, true), 0.0);
    struct cs_workload f = w;
    f.fused_grouped_mlp = true;
    ck_assert_double_eq(cs_compute_te_grouped_kernels(&f, CS_PREC_MXFP8, 64, true), 0.0);
    struct cs_workload t = w;
    t.stack = CS_STACK_TORCHTITAN;
    ck_assert_double_eq(cs_compute_te_grouped_kernels(&t, CS_PREC_MXFP8, 64, true), 0.0);
    ck_assert_double_eq(cs_compute_te_grouped_kernels(NULL, CS_PREC_MXFP8, 64, true), 0.0);

    w.precision = CS_PREC_FP8;
    t.precision = CS_PREC_FP8;
    struct cs_gpu_spec gpu = cs_test_h100_spec();
    struct cs_compute_params p;
    cs_compute_params_default(&gpu, &p);
    struct cs_layer_cost cm, ct;
    ck_assert_int_eq(cs_compute_moe_layer(&w, &gpu, &p, &cm), CS_OK);
    ck_assert_int_eq(cs_compute_moe_layer(&t, &gpu, &p, &ct), CS_OK);
    ck_assert_double_eq_tol(cm.expert_fwd_s - ct.expert_fwd_s, 68.0 * p.kernel_overhead_s, 1e-12);
    ck_assert_double_eq_tol(cm.expert_bwd_s - ct.expert_bwd_s, 74.0 * p.kernel_overhead_s, 1e-12);
}
END_TEST

/* Megatron-Core's recompute_modules by hand, Llama 3.1 8B layer (tp 1,
 * micro-batch 1, seq 8192, bf16): layernorm drops the two norm outputs,
 * 2 x 2 x 8192 x 4096 bytes; mlp the swiglu tensors, (2 x 2 + 2) x 8192 x
 * 14336 bytes. Qwen3-30B-A3B's MoE layer (ep 8): moe_act drops the expert
 * activation output, 4096 x 8 rows x 768 x 2 bytes. */
START_TEST(test_moe_recompute_modules_memory)
{
    struct cs_workload w = moe_workload("llama3.1-8b", 1, 1, 1);
    w.recompute = CS_RECOMPUTE_SELECTIVE;
    double base = cs_memory_layer_activations(&w, true);
    w.recompute_modules = CS_RC_MOD_CORE_ATTN | CS_RC_MOD_LAYERNORM;
    ck_assert_double_eq_tol(base - cs_memory_layer_activations(&w, true), 2.0 * 2 * 8192 * 4096, 1.0);
    w.recompute_modules = CS_RC_MOD_MLP;
    ck_assert_double_eq_tol(base - cs_memory_layer_activations(&w, true), 6.0 * 8192 * 14336, 1.0);
    struct cs_gpu_spec g = h100();
    struct cs_compute_params p;
    cs_compute_params_default(&g, &p);
    struct cs_layer_cost c0, c1;
    w.recompute_modules = 0;
    ck_assert_int_eq(cs_compute_layer(&w, &g, &p, &c0), CS_OK);
    w.recompute_modules = CS_RC_MOD_MLP;
    ck_assert_int_eq(cs_compute_layer(&w, &g, &p, &c1), CS_OK);
    /* the MLP's forward again: its three GEMMs, 6 x 8192 x 4096 x 14336 FLOPs */
    ck_assert_double_eq_tol(c1.recompute_flops - c0.recompute_flops, 6.0 * 8192 * 4096 * 14336, 1e3);
    ck_assert(c1.recompute_s > c0.recompute_s);

    struct cs_workload q = moe_workload("qwen3-30b-a3b", 1, 8, 1);
    q.recompute = CS_RECOMPUTE_SELECTIVE;
    struct cs_memory_breakdown m0, m1;
    ck_assert_int_eq(cs_memory_per_gpu(&q, &g, &m0), CS_OK);
    q.recompute_modules = CS_RC_MOD_MOE_ACT;
    ck_assert_int_eq(cs_memory_per_gpu(&q, &g, &m1), CS_OK);
    /* 48 layers, one micro-batch in flight (pp 1) */
    ck_assert_double_eq_tol(m0.activations_bytes - m1.activations_bytes,
                            48.0 * 4096 * 8 * 768 * 2, 1.0);
}
END_TEST


/* Megatron-Core's fine-grained offload by hand, Qwen3-30B-A3B MoE layer
 * (ep 8, tp 1, micro-batch 1, bf16): expert_fc1 sends the routed copies'
 * input, 4096 x 8 rows x 2048 x 2 bytes; moe_act the activation's input,
 * 4096 x 8 x 1536 x 2; attn_norm the residual stream, 4096 x 2048 x 2. All
 * 48 layers move to host (pp 1: one micro-batch in flight), one layer's
 * stays as the copy buffer; full recomputation leaves nothing to move. */
START_TEST(test_moe_offload_modules_memory)
{
    struct cs_workload q = moe_workload("qwen3-30b-a3b", 1, 8, 1);
    double fc1 = 4096.0 * 8 * 2048 * 2, act = 4096.0 * 8 * 1536 * 2, norm = 4096.0 * 2048 * 2;
    q.offload_modules = CS_OFF_MOD_EXPERT_FC1;
    ck_assert_double_eq_tol(cs_memory_layer_offload_bytes(&q, true), fc1, 1.0);
    ck_assert_double_eq_tol(cs_memory_layer_offload_bytes(&q, false), 0.0, 1e-9);
    q.offload_modules = CS_OFF_MOD_EXPERT_FC1 | CS_OFF_MOD_MOE_ACT | CS_OFF_MOD_ATTN_NORM;
    ck_assert_double_eq_tol(cs_memory_layer_offload_bytes(&q, true), fc1 + act + norm, 1.0);
    struct cs_gpu_spec g = h100();
    struct cs_memory_breakdown m0, m1;
    q.offload_modules = 0;
    ck_assert_int_eq(cs_memory_per_gpu(&q, &g, &m0), CS_OK);
    q.offload_modules = CS_OFF_MOD_EXPERT_FC1 | CS_OFF_MOD_MOE_ACT;
    ck_assert_int_eq(cs_memory_per_gpu(&q, &g, &m1), CS_OK);
    ck_assert_double_eq_tol(m1.host_bytes, 48.0 * (fc1 + act), 1.0);
    ck_assert_double_eq_tol(m0.activations_bytes - m1.activations_bytes, 47.0 * (fc1 + act), 1.0);
    q.recompute = CS_RECOMPUTE_FULL;
    ck_assert_double_eq(cs_memory_layer_offload_bytes(&q, true), 0.0);
}
END_TEST

Suite *moe_suite(void);
Suite *moe_suite(void)
{
    Suite *s = suite_create("moe");
    TCase *tc = tcase_create("model");
    tcase_set_timeout(tc, 20);
    tcase_add_test(tc, test_moe_params_latent);
    tcase_add_test(tc, test_moe_router_bf16);
    tcase_add_test(tc, test_moe_layers_in_closed_form);
    tcase_add_test(tc, test_moe_params_published);
    tcase_add_test(tc, test_moe_params_lightning);
    tcase_add_test(tc, test_moe_params_mixtral_by_hand);
    tcase_add_test(tc, test_moe_layer_kinds);
    tcase_add_test(tc, test_moe_layer_flops_mixtral);
    tcase_add_test(tc, test_moe_mla_params);
    tcase_add_test(tc, test_moe_layer_cost_qwen3);
    tcase_add_test(tc, test_moe_torch_grouped_mm_blackwell);
    tcase_add_test(tc, test_moe_expert_activation_path);
    tcase_add_test(tc, test_moe_te_grouped_kernels);
    tcase_add_test(tc, test_moe_alltoall_sort);
    tcase_add_test(tc, test_moe_recompute_modules_memory);
    tcase_add_test(tc, test_moe_offload_modules_memory);
    tcase_add_test(tc, test_moe_sync_point);
    tcase_add_test(tc, test_moe_preset_load_cv);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return cs_test_run(moe_suite());
}
