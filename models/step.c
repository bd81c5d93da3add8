/* step.c: one training iteration simulated as a discrete-event timeline on
 * the engine's clock (evaluated directly, or event by event on the engine:
 * identical results, see "the timeline evaluated directly" below).
 *
 * What runs (per pipeline stage s of one data-parallel replica; one GPU
 * stands for its TP x CP group, see step.h):
 *   - a compute stream executing the stage's forward (F) and backward (B)
 *     operations in the order of Megatron-LM's schedule: 1F1B ("PipeDream-
 *     flush", Narayanan et al., SC21, Sec. 2.2.1) or, with vp > 1, the
 *     interleaved schedule (same paper, Sec. 2.2.2; order as in Megatron-LM's
 *     forward_backward_pipelining_with_interleaving). Each operation's
 *     duration is its layers' compute (models/compute.c) plus the
 *     tensor-parallel collectives on the critical path, as Megatron runs them
 *     (blocking, Shoeybi et al. 2019 Fig. 3: two all-reduces per layer each
 *     way; with sequence parallelism two all-gathers + two reduce-scatters,
 *     Korthikanti et al. 2022 Sec. 4.2.2);
 *   - point-to-point links to its neighbours: an activation (forward) or its
 *     gradient (backward) leaves when the producing operation ends and
 *     arrives one transfer later; transfers on one link are serialized;
 *   - a data-parallel communication stream: gradient buckets are reduced as
 *     they become ready during the last micro-batch's backward (Megatron's
 *     --overlap-grad-reduce, PyTorch DDP buckets), or all at the end without
 *     overlap; FSDP gathers each layer's parameters one layer ahead (prefetch)
 *     and reduce-scatters its gradients after the layer's backward.
 * On the engine an event fires when an operation ends and when a stage
 * waiting for a transfer is woken by its arrival; everything inside one
 * operation (layer-by-layer FSDP prefetch, bucket readiness) is computed in
 * closed form at the operation's start because it involves only that
 * stage's own two streams.
 *
 * Accounting (critical = last-finishing stage): its timeline is split into
 * compute, exposed TP comm, waiting for an input whose producer had not
 * finished (bubble), waiting for a transfer in flight (pp comm), exposed
 * DP/FSDP comm and the optimizer; the parts add up to the step time. */
#include "clustersim/models/step.h"

#include "clustersim/models/collective.h"
#include "clustersim/models/cluster.h"
#include "clustersim/models/memory.h"
#include "clustersim/models/moe.h"
#include "clustersim/sim/sim.h"
#include "clustersim/base/xmalloc.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CS__F = 0, CS__B = 1 };

struct cs__op {
    uint8_t dir;   /* CS__F or CS__B */
    int mb;        /* micro-batch */
    int chunk;     /* model chunk (virtual stage index on this GPU) */
};

struct cs__stage {
    struct cs__op *ops;
    int nops, next;
    bool busy;
    bool wake_pending;       /* a wake-up event for the next input is scheduled */
    cs_time last_end;        /* when the compute stream last became free */
    cs_time *f_in, *b_in;    /* arrival time of input activation / gradient; -1 if not yet */
    cs_time *f_in_prod, *b_in_prod;  /* when the producer finished */
    cs_time fwd_link_free, bwd_link_free;
    double comm_free_s;      /* DP/FSDP comm stream free at (seconds) */
    double repl_free_s;      /* hybrid sharding: the replica all-reduce stream free at */
    double compute_s, tp_s, bubble_s, pp_s;
    double host_s;           /* of compute_s, waiting on the host's dispatch */
    double host_issue_s;     /* the host's dispatch time of every operation, waiting or not */
    double dp_total_s;
    double compute_end_s;
    double end_s;
    double optimizer_s, dp_exposed_s;
    double fsdp_wait_s;      /* FSDP: layers waiting on their parameter gathers */
    bool has_emb, has_logits;
};

/* Per-operation costs, identical for every micro-batch. */
struct cs__chunk_cost {
    double f_compute_s, f_tp_s;   /* forward */
    double b_compute_s, b_tp_s;   /* backward (incl. recomputation) */
    double f_tp_hidden_s, b_tp_hidden_s;  /* TP comm overlapped with the GEMMs */
    double f_host_s, b_host_s;    /* of f/b_compute_s, the host's dispatch beyond the GPU's time */
    double f_issue_s, b_issue_s;  /* the host's whole dispatch time of the operation */
    double params;                /* parameters on this GPU in the chunk */
    double expert_params;         /* of which the experts' (reduced over the expert-DP group) */
    double dp_params;             /* parameters whose gradients the DP stream reduces, the
                                     experts' scaled to the DP group's time (see cs__chunk_costs) */
    double f_ep_s, b_ep_s;        /* exposed dispatch/combine (inside f_tp_s / b_tp_s) */
    double f_imb_s, b_imb_s;      /* what the most loaded EP rank adds (compute and dispatch) */
    int layers;
    /* For the direct evaluation: an operation's duration when it touches
     * no DP/FSDP stream (cs__op_duration's value then), in seconds and on
     * the clock; dur_ok[dir] false when the clock cannot hold it. */
    double comp_s[2], tp_s[2];
    cs_time dur_t[2];
    bool dur_ok[2];
};

struct cs__sim {
    const struct cs_cluster_cfg *c;
    const struct cs_workload *w;
    const struct cs_step_options *o;
    int pp, vp, m;
    struct cs__stage *st;
    struct cs__chunk_cost *cc;    /* [stage * vp + chunk] */
    struct cs_layer_cost layer;
    /* a hybrid model's blocks by kind (workload.model.hybrid_pattern; the
     * E blocks are moe_layer); [CS_BLOCK_LAYER] is `layer` */
    struct cs_layer_cost block[CS_BLOCK_COUNT];
    bool has_block[CS_BLOCK_COUNT];
    /* mixture of experts: the MoE layer's cost, the EP and expert-DP
     * communicators, the most loaded rank's load over the mean and the
     * dropped share (moe.h) */
    bool moe;
    struct cs_layer_cost moe_layer;
    struct cs_layer_cost mtp_extra;   /* an MTP module's norms and projection (mtp_layers > 0) */
    /* Layers at another precision than the workload's, each slot costed
     * at it: [CS__ALT_BF16] the layers kept in BF16
     * (workload.bf16_layers_at_start / _end), [CS__ALT_MTP] the MTP
     * modules at module_precision.mtp (docs/models.md 2.3). */
    bool has_alt[2];
    struct cs_layer_cost alt_block[2][CS_BLOCK_COUNT];
    struct cs_layer_cost alt_moe[2];
    struct cs_coll_group ep_group, edp_group;
    struct cs_moe_load load;
    double expert_grad_ratio;   /* expert-DP reduction time over the DP one, per byte */
    double share_ep;
    double grad_bytes;
    double fwd_p2p_s[2], bwd_p2p_s[2];   /* [same node?] */
    cs_time fwd_p2p_t[2], bwd_p2p_t[2];  /* the same on the clock (direct evaluation) */
    bool fwd_p2p_ok[2], bwd_p2p_ok[2];   /* false: the clock cannot hold it */
    bool *same_node_next;                /* stage s and s+1 on one node */
    /* data parallel / FSDP */
    enum cs_fsdp fsdp;
    struct cs_coll_group dp_group, shard_group, repl_group;
    double fsdp_ag_s, fsdp_rs_s;   /* one layer's FSDP gather / scatter */
    double bucket_bytes, bucket_s; /* cached time of one full DP bucket */
    int dp;
    int h_done, h_arrive;
    cs_engine *e;
    bool own_engine;   /* created here (else the caller's scratch engine) */
    bool failed;
    /* The first model error (a collective the cluster cannot run, a duration
     * that is not a finite number of seconds): the simulation stops and
     * cs_step_simulate_on returns it, never a step with a free transfer. */
    cs_status err;
    char err_msg[200];
    double share_tp, share_cp, share_dp, share_pp; /* reported (cs_step_result) */
};

double cs_step_host_bw(const struct cs_gpu_spec *gpu, const struct cs_coll_params *coll)
{
    if (isfinite(gpu->host_bw_bytes_per_s) && gpu->host_bw_bytes_per_s > 0)
        return gpu->host_bw_bytes_per_s;
    double line = cs_pcie_x16_bytes_per_s(gpu->pcie_gen);
    double eff = isfinite(coll->pcie_efficiency) && coll->pcie_efficiency > 0 ? coll->pcie_efficiency
                                                                              : 1.0;
    return isfinite(line) && line > 0 ? line * eff : NAN;
}

static void cs__error(struct cs__sim *S, cs_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void cs__error(struct cs__sim *S, cs_status st, const char *fmt, ...)
{
    if (S->err != CS_OK)
        return;
    S->err = st;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(S->err_msg, sizeof S->err_msg, fmt, ap);
    va_end(ap);
    if (S->e)
        cs_sim_stop(S->e);
}


/* Time of one collective; on a model error records it in S (the 0 returned
 * then is never reported: the caller checks S->err). */
static double cs__coll(struct cs__sim *S, enum cs_coll_op op, double bytes,
                       const struct cs_coll_group *g)
{
    if (g->ranks <= 1 || bytes <= 0)
        return 0.0;
    double t;
    cs_status st = cs_coll_time_ex(S->c, &S->o->coll, op, bytes, g, CS_COLL_AUTO, &t, NULL, NULL);
    if (st != CS_OK) {
        cs__error(S, st, "collective model: %s of %.6g bytes over %d ranks (%d per node): %s",
                  cs_coll_op_name(op), bytes, g->ranks, g->ranks_per_node, cs_strerror(st));
        return 0.0;
    }
    return t;
}

/* The share a communicator reports: NAN without a network model, without
 * the communicator or when it stays inside a node; else its share. */
static double cs__share_shown(const struct cs__sim *S, const struct cs_coll_group *g)
{
    if (!S->o->net || g->ranks <= 1 || g->ranks / g->ranks_per_node <= 1)
        return NAN; /* no network model, no communicator, or it stays in a node */
    return g->net_share > 0 ? g->net_share : 1.0;
}

/* The communicator of `size` ranks `stride` apart (cs_step_group) of this
 * job, with its network share from the network model when there is one and
 * the group leaves a node. */
static struct cs_coll_group cs__group(struct cs__sim *S, int size, long stride, enum cs_net_pattern pat)
{
    int g = S->c->gpus_per_node;
    struct cs_coll_group grp = cs_step_group(size, stride, g);
    grp.job_nodes = (int)(cs_job_gpus(S->c, S->w) / g);
    if (S->o->net && size > 1 && grp.ranks / grp.ranks_per_node > 1) {
        double sh = 1.0;
        cs_status st = cs_netmodel_share(S->o->net, pat, size, stride, &sh);
        if (st != CS_OK)
            cs__error(S, st, "network model: communicator of %d ranks %ld apart: %s", size, stride,
                      cs_strerror(st));
        else
            grp.net_share = sh;
    }
    return grp;
}

struct cs_coll_group cs_step_group(int size, long stride, int g)
{
    struct cs_coll_group grp;
    memset(&grp, 0, sizeof grp);
    grp.ranks = size;
    /* nodes between the first and the last member, both included */
    grp.span_nodes = (int)(((long)(size - 1) * stride) / g + 1);
    if (stride >= g) {
        grp.ranks_per_node = 1;
    } else {
        long per = g / stride;
        grp.ranks_per_node = (int)(per < size ? per : size);
    }
    if (grp.ranks_per_node < 1)
        grp.ranks_per_node = 1;
    grp.groups_per_node = g / grp.ranks_per_node;
    if (grp.groups_per_node < 1)
        grp.groups_per_node = 1;
    return grp;
}

void cs_step_options_default(const struct cs_gpu_spec *gpu, struct cs_step_options *o)
{
    memset(o, 0, sizeof *o);
    cs_compute_params_default(gpu, &o->compute);
    cs_coll_params_default(&o->coll);
    o->coll.launch_floor_s = 0.0;
    o->dp_overlap = true;
    o->dp_bucket_bytes = 40e6 * 4.0; /* Megatron's default bucket: 40M fp32 gradients */
    o->tp_across_nodes_ok = false;
    o->tp_overlap = 0.0;
    o->overlap_slowdown = CS_STEP_OVERLAP_SLOWDOWN;
}

/* One rule broken: an error at the key's mark (no position without marks). */
static void cs__rule(cs_diags *d, const struct cs_step_marks *mk, enum cs_step_key k, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void cs__rule(cs_diags *d, const struct cs_step_marks *mk, enum cs_step_key k, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (mk && mk->line[k] > 0)
        cs_diag_vadd(d, CS_SEV_ERROR, mk->file, mk->line[k], mk->col[k], fmt, ap);
    else
        cs_diag_vadd(d, CS_SEV_ERROR, mk ? mk->file : NULL, 0, 0, fmt, ap);
    va_end(ap);
}

cs_status cs_step_rules(const struct cs_cluster_cfg *c, const struct cs_workload *w, bool tp_across_nodes_ok,
                        const struct cs_step_marks *mk, cs_diags *d)
{
    const struct cs_parallel *p = &w->par;
    const struct cs_model_shape *m = &w->model;
    size_t before = cs_diags_errors(d);
    long cluster_gpus = (long)c->nodes * c->gpus_per_node;
    long gpus = cs_job_gpus(c, w);
    if (w->gpus < 0 || gpus > cluster_gpus || gpus % c->gpus_per_node != 0) {
        cs__rule(d, mk, CS_STEP_KEY_GPUS,
                 "workload.gpus: %ld GPUs is not a whole number of the cluster's nodes (%d nodes x %d GPUs)",
                 gpus, c->nodes, c->gpus_per_node);
        return CS_EINVAL;
    }
    if (p->tp < 1 || p->pp < 1 || p->dp < 1 || p->cp < 1 || p->vp < 1) {
        cs__rule(d, mk, CS_STEP_KEY_PARALLELISM,
                 "workload.parallelism: tp, pp, dp, cp and vp must be at least 1");
        return CS_EINVAL;
    }
    if (m->layers < 1 || m->heads < 1 || m->seq_len < 1) {
        cs__rule(d, mk, CS_STEP_KEY_MODEL, "workload.model: layers, heads and seq_len must be at least 1");
        return CS_EINVAL;
    }
    double prod = (double)p->tp * p->pp * p->dp * p->cp;
    if (prod != (double)gpus)
        cs__rule(d, mk, CS_STEP_KEY_PARALLELISM,
                 "workload.parallelism: tp*pp*dp*cp = %d*%d*%d*%d = %.0f, but the %s has %ld GPUs (%ld "
                 "nodes x %d)",
                 p->tp, p->pp, p->dp, p->cp, prod, w->gpus > 0 ? "job (workload.gpus)" : "cluster", gpus,
                 gpus / c->gpus_per_node, c->gpus_per_node);
    if (m->heads % p->tp != 0)
        cs__rule(d, mk, CS_STEP_KEY_TP, "workload.parallelism.tp: %d attention heads are not divisible by tp = %d",
                 m->heads, p->tp);
    if (cs_model_is_hybrid(m)) {
        /* Megatron-Core's hybrid_override_pattern: one letter per layer
         * (megatron/core/models/mamba, MambaStack), Mamba-2's heads and
         * groups split over tp (mamba_mixer.py asserts both) */
        const char *z = memchr(m->hybrid, 0, CS_HYBRID_MAX);
        size_t n = z ? (size_t)(z - m->hybrid) : CS_HYBRID_MAX;
        size_t bad = strspn(m->hybrid, "M*-E");
        int nm = 0, ne = 0;
        for (size_t i = 0; i < n; i++) {
            nm += m->hybrid[i] == 'M';
            ne += m->hybrid[i] == 'E';
        }
        const struct cs_mamba_shape *mb = &m->mamba;
        if (bad < n)
            cs__rule(d, mk, CS_STEP_KEY_MODEL,
                     "workload.model.hybrid_pattern: letter '%c' at layer %zu: expected M (Mamba-2), * "
                     "(attention), - (MLP) or E (mixture of experts)",
                     m->hybrid[bad], bad);
        else if ((long)n != m->layers)
            cs__rule(d, mk, CS_STEP_KEY_MODEL,
                     "workload.model.hybrid_pattern: %zu letters for %d layers (one letter per layer)", n,
                     m->layers);
        else if (ne > 0 && !cs_model_is_moe(m))
            cs__rule(d, mk, CS_STEP_KEY_MODEL,
                     "workload.model.hybrid_pattern: %d E layers but workload.model.moe gives no experts", ne);
        else if (nm > 0 && !(mb->heads > 0 && mb->head_dim > 0 && mb->state > 0 && mb->groups > 0 &&
                             mb->conv > 0 && mb->chunk > 0 && mb->heads % mb->groups == 0))
            cs__rule(d, mk, CS_STEP_KEY_MODEL,
                     "workload.model.mamba: %d M layers need heads, head_dim, state, groups, conv and chunk "
                     "of at least 1, with groups dividing heads (got heads %d, groups %d)",
                     nm, mb->heads, mb->groups);
        else if (nm > 0 && (mb->heads % p->tp != 0 || mb->groups % p->tp != 0))
            cs__rule(d, mk, CS_STEP_KEY_TP,
                     "workload.parallelism.tp: Mamba-2's %d heads and %d groups must both be divisible by tp "
                     "= %d",
                     mb->heads, mb->groups, p->tp);
        else if (nm > 0 && mb->heads % (p->tp * p->cp) != 0)
            /* context parallelism splits each tp rank's heads (MambaContextParallel) */
            cs__rule(d, mk, CS_STEP_KEY_CP,
                     "workload.parallelism.cp: Mamba-2's %d heads must be divisible by tp x cp = %d", mb->heads,
                     p->tp * p->cp);
        if (w->recompute == CS_RECOMPUTE_OP || w->offload_modules || m->attention == CS_ATTN_MLA)
            cs__rule(d, mk, CS_STEP_KEY_MODEL,
                     "workload.model.hybrid_pattern: a hybrid model is modelled with recompute none, "
                     "selective or full, without offload_modules or MLA");
    }
    if (m->kv_heads <= 0 || m->heads % m->kv_heads != 0)
        cs__rule(d, mk, CS_STEP_KEY_KV_HEADS, "workload.model.kv_heads: %d does not divide heads = %d",
                 m->kv_heads, m->heads);
    else if (m->kv_heads % p->tp != 0 && p->tp % m->kv_heads != 0)
        /* Megatron splits the key/value heads over tp, or replicates them
         * when tp exceeds their number. */
        cs__rule(d, mk, CS_STEP_KEY_TP,
                 "workload.parallelism.tp: %d key/value heads and tp = %d: one must divide the other",
                 m->kv_heads, p->tp);
    if (m->head_dim <= 0 && m->attention == CS_ATTN_STANDARD && m->hidden % m->heads != 0)
        cs__rule(d, mk, CS_STEP_KEY_HIDDEN,
                 "workload.model.hidden: %d is not divisible by heads = %d (or give head_dim)", m->hidden,
                 m->heads);
    if (w->offload_modules &&
        !((isfinite(c->gpu.host_bw_bytes_per_s) && c->gpu.host_bw_bytes_per_s > 0) || c->gpu.pcie_gen > 0))
        cs__rule(d, mk, CS_STEP_KEY_MODEL,
                 "workload.offload_modules: %s has no host link in the catalog (host_bw or pcie_gen) "
                 "to offload over",
                 c->gpu.name);
    /* The experts themselves (docs/moe.md, "Keys") */
    const struct cs_moe_shape *mo = &m->moe;
    if (mo->experts > 0 && (mo->top_k < 1 || mo->top_k > mo->experts))
        cs__rule(d, mk, CS_STEP_KEY_MODEL,
                 "workload.model.moe.top_k: %d experts per token of %d routed experts: expected 1 to %d",
                 mo->top_k, mo->experts, mo->experts);
    else if (mo->experts == 0 && (mo->top_k > 0 || mo->shared_experts > 0))
        cs__rule(d, mk, CS_STEP_KEY_MODEL,
                 "workload.model.moe: top_k or shared_experts given, but experts is 0 (a dense model); "
                 "give experts");
    if (mo->experts > 0 && mo->expert_ffn_hidden < 1)
        cs__rule(d, mk, CS_STEP_KEY_MODEL,
                 "workload.model.moe.expert_ffn_hidden: missing (one expert's FFN width, e.g. the "
                 "model's moe_intermediate_size)");
    if (mo->experts > 0 && mo->first_dense_layers >= m->layers)
        cs__rule(d, mk, CS_STEP_KEY_MODEL,
                 "workload.model.moe.first_dense_layers: %d of %d layers leaves no MoE layer",
                 mo->first_dense_layers, m->layers);
    if (mo->router_groups > 0 || mo->router_group_topk > 0) {
        if (mo->experts == 0 || mo->router_groups < 1 || mo->experts % mo->router_groups != 0)
            cs__rule(d, mk, CS_STEP_KEY_MODEL,
                     "workload.model.moe.router_groups: %d groups must split the %d routed experts "
                     "evenly (give router_groups with router_group_topk, or neither)",
                     mo->router_groups, mo->experts);
        else if (mo->router_group_topk < 1 || mo->router_group_topk > mo->router_groups ||
                 (long)mo->router_group_topk * (mo->experts / mo->router_groups) < mo->top_k)
            cs__rule(d, mk, CS_STEP_KEY_MODEL,
                     "workload.model.moe.router_group_topk: %d of %d groups: expected 1 to %d, with "
                     "at least top_k = %d experts in the chosen groups",
                     mo->router_group_topk, mo->router_groups, mo->router_groups, mo->top_k);
    }
    if ((m->sliding_window > 0) != (m->sliding_every > 0))
        cs__rule(d, mk, CS_STEP_KEY_MODEL,
                 "workload.model.sliding_window = %d and sliding_every = %d: give both (the window "
                 "and every how many layers use it) or neither",
                 m->sliding_window, m->sliding_every);
    /* Expert parallelism (docs/moe.md): the experts split evenly over ep,
     * each expert's width over etp, and ep x etp GPUs dividing the tp x cp
     * x dp GPUs of a pipeline stage (Megatron-Core's parallel folding). */
    int ep = p->ep > 0 ? p->ep : 1, etp = p->etp > 0 ? p->etp : 1;
    bool moe = cs_model_is_moe(m);
    if ((ep > 1 || etp > 1) && !moe)
        cs__rule(d, mk, CS_STEP_KEY_EP,
                 "workload.parallelism.ep: ep = %d, etp = %d, but the model has no experts "
                 "(workload.model.moe)",
                 ep, etp);
    else if (moe) {
        long stage = (long)p->tp * p->cp * p->dp;
        if (m->moe.experts % ep != 0)
            cs__rule(d, mk, CS_STEP_KEY_EP,
                     "workload.parallelism.ep: %d experts are not divisible by ep = %d", m->moe.experts, ep);
        if (stage % ((long)ep * etp) != 0)
            cs__rule(d, mk, CS_STEP_KEY_EP,
                     "workload.parallelism.ep: ep*etp = %d*%d does not divide the tp*cp*dp = %ld GPUs of a "
                     "pipeline stage (the expert layers' ep x etp x expert-dp)",
                     ep, etp, stage);
        if (m->moe.expert_ffn_hidden % etp != 0)
            cs__rule(d, mk, CS_STEP_KEY_EP,
                     "workload.parallelism.etp: expert_ffn_hidden = %d is not divisible by etp = %d",
                     m->moe.expert_ffn_hidden, etp);
        /* Megatron-Core (training/arguments.py): "When using MoE and tensor
         * parallelism, sequence parallelism must be used." */
        if (p->tp > 1 && !p->sp)
            cs__rule(d, mk, CS_STEP_KEY_TP,
                     "workload.parallelism.sp: a mixture-of-experts model with tp = %d needs sequence "
                     "parallelism (sp: true), as Megatron-Core requires",
                     p->tp);
    }
    /* Stages (and interleaved chunks) may be uneven (Llama 3 405B: 126 layers
     * on 16 stages, the first and last with one layer fewer); every chunk
     * still needs a layer, unless the embedding and the loss count as
     * layers of the split (then L + e + l must split evenly, as
     * Megatron-Core asserts). */
    int acc_e = p->account_for_embedding ? 1 : 0, acc_l = p->account_for_loss ? 1 : 0;
    char lerr[256];
    if (p->layout.stages > 0) {
        /* a stated layout places every layer itself (Megatron-Core's checks,
         * cs_pipeline_layout_check); the scenario loader (which passes
         * marks) checks it at the key's own node, so only callers without
         * marks are told here */
        if (!mk && !cs_pipeline_layout_check(w, lerr, sizeof lerr))
            cs__rule(d, mk, p->vp > 1 ? CS_STEP_KEY_VP : CS_STEP_KEY_PP,
                     "workload.parallelism.pipeline_layout: %s", lerr);
    } else if ((acc_e || acc_l) && (m->layers + acc_e + acc_l) % (p->pp * p->vp) != 0) {
        cs__rule(d, mk, p->vp > 1 ? CS_STEP_KEY_VP : CS_STEP_KEY_PP,
                 "workload.parallelism: with account_for_%s_in_pipeline_split, %d layers + %d do not "
                 "split evenly into pp*vp = %d*%d virtual stages (Megatron-Core requires it)",
                 acc_e && acc_l ? "embedding/loss" : acc_e ? "embedding" : "loss", m->layers,
                 acc_e + acc_l, p->pp, p->vp);
    } else if (m->layers + acc_e + acc_l < p->pp * p->vp) {
        if (p->vp > 1)
            cs__rule(d, mk, CS_STEP_KEY_VP, "workload.parallelism: %d layers cannot fill pp*vp = %d*%d chunks",
                     m->layers, p->pp, p->vp);
        else
            cs__rule(d, mk, CS_STEP_KEY_PP, "workload.parallelism.pp: %d layers cannot fill pp = %d stages",
                     m->layers, p->pp);
    }
    long per_step = (long)p->dp * w->micro_batch;
    if (w->micro_batch < 1 || w->global_batch % per_step != 0)
        cs__rule(d, mk, CS_STEP_KEY_GLOBAL_BATCH,
                 "workload.global_batch: %ld is not divisible by dp*micro_batch = %d*%d", w->global_batch, p->dp,
                 w->micro_batch);
    else if (p->vp > 1) {
        long mbs = w->global_batch / per_step;
        if (p->pp < 2)
            cs__rule(d, mk, CS_STEP_KEY_VP, "workload.parallelism.vp: interleaving (vp = %d) needs pp >= 2",
                     p->vp);
        else if (mbs % p->pp != 0)
            cs__rule(d, mk, CS_STEP_KEY_VP,
                     "workload.parallelism.vp: the interleaved schedule needs the %ld micro-batches per step to "
                     "be a multiple of pp = %d",
                     mbs, p->pp);
    }
    /* Context parallelism splits each sequence into 2*cp chunks so that
     * every rank gets an early and a late one (load-balanced causal
     * attention, Megatron-LM context_parallel). */
    if (m->seq_len % p->cp != 0)
        cs__rule(d, mk, CS_STEP_KEY_CP, "workload.parallelism.cp: seq_len = %d is not divisible by cp = %d",
                 m->seq_len, p->cp);
    else if (p->cp > 1 && (m->seq_len / p->cp) % 2 != 0)
        cs__rule(d, mk, CS_STEP_KEY_CP, "workload.parallelism.cp: seq_len = %d is not divisible by 2*cp = %d",
                 m->seq_len, 2 * p->cp);
    /* A multi-node NVLink domain (nvl-domain: NVL72 racks of 4-GPU trays)
     * is one scale-up network: tensor parallelism may span its trays when
     * its groups tile the domain (the collective model costs such a group
     * over NVLink, collective.c) */
    int dom = c->fabric.topology == CS_TOPO_NVL_DOMAIN
                  ? (c->fabric.domain_gpus > 0 ? c->fabric.domain_gpus : c->gpu.scaleup_domain_gpus)
                  : 0;
    bool in_domain = dom > c->gpus_per_node && p->tp <= dom && dom % p->tp == 0;
    if (!tp_across_nodes_ok && !p->tp_across_nodes && p->tp > c->gpus_per_node && !in_domain)
        cs__rule(d, mk, CS_STEP_KEY_TP,
                 "workload.parallelism.tp: tp = %d spans nodes of %d GPUs (tensor parallelism needs the "
                 "scale-up network; set workload.parallelism.tp_across_nodes: true to allow it)",
                 p->tp, c->gpus_per_node);
    if ((p->tp < c->gpus_per_node && c->gpus_per_node % p->tp != 0) ||
        (p->tp > c->gpus_per_node && p->tp % c->gpus_per_node != 0))
        cs__rule(d, mk, CS_STEP_KEY_TP,
                 "workload.parallelism.tp: tp = %d and %d GPUs per node: one must divide the other", p->tp,
                 c->gpus_per_node);
    if (p->fsdp == CS_FSDP_HYBRID && p->fsdp_shard_group > 0 && p->dp % p->fsdp_shard_group != 0)
        cs__rule(d, mk, CS_STEP_KEY_FSDP, "workload.parallelism.fsdp: hybrid shard group %d does not divide dp = %d",
                 p->fsdp_shard_group, p->dp);
    return cs_diags_errors(d) > before ? CS_EINVAL : CS_OK;
}

cs_status cs_step_check(const struct cs_cluster_cfg *c, const struct cs_workload *w,
                        const struct cs_step_options *o, cs_diags *d)
{
    return cs_step_rules(c, w, o->tp_across_nodes_ok, NULL, d);
}

/* ---- schedule ------------------------------------------------------------ */

static void cs__push(struct cs__stage *s, int dir, int mb, int chunk)
{
    struct cs__op *op = &s->ops[s->nops++];
    op->dir = (uint8_t)dir;
    op->mb = mb;
    op->chunk = chunk;
}

/* Megatron-LM's order of micro-batches and chunks for the k-th forward or
 * backward of a stage under interleaving (get_model_chunk_id): chunk
 * (k mod (pp vp)) div pp, reversed for backward, of micro-batch
 * (k div (pp vp)) pp + k mod pp. Walked with counters, so that building a
 * schedule costs no division per operation: r = k mod pp, c = (k div pp)
 * mod vp, grp = k div (pp vp). */
struct cs__sched_cursor {
    int r, c, grp;
};

static void cs__cursor_push(struct cs__stage *st, struct cs__sched_cursor *k, int pp, int vp, int dir)
{
    cs__push(st, dir, k->grp * pp + k->r, dir == CS__B ? vp - 1 - k->c : k->c);
    if (++k->r == pp) {
        k->r = 0;
        if (++k->c == vp) {
            k->c = 0;
            k->grp++;
        }
    }
}

static void cs__build_schedule(struct cs__sim *S, int s)
{
    struct cs__stage *st = &S->st[s];
    int pp = S->pp, vp = S->vp, m = S->m;
    int total = m * vp;
    /* every slot is written below: m vp forwards and m vp backwards */
    st->ops = cs_xmalloc((size_t)total * 2 * sizeof *st->ops);
    int warm;
    if (vp == 1) {
        warm = pp - s - 1;
    } else if (m == pp) {
        warm = total;
    } else {
        warm = (pp - s - 1) * 2 + (vp - 1) * pp;
    }
    if (warm > total)
        warm = total;
    struct cs__sched_cursor fc = {0, 0, 0}, bc = {0, 0, 0};
    int f = 0, b = 0;
    for (; f < warm; f++)
        cs__cursor_push(st, &fc, pp, vp, CS__F);
    while (f < total) {
        cs__cursor_push(st, &fc, pp, vp, CS__F);
        f++;
        cs__cursor_push(st, &bc, pp, vp, CS__B);
        b++;
    }
    while (b < total) {
        cs__cursor_push(st, &bc, pp, vp, CS__B);
        b++;
    }
}

/* ---- operation durations -------------------------------------------------- */

static const struct cs__chunk_cost *cs__cost(const struct cs__sim *S, int s, int chunk)
{
    return &S->cc[s * S->vp + chunk];
}

/* Stage s's parameter all-gather exposure (cs_step_param_gather_exposed_s)
 * from its chunks' forward times and parameters. */
static double cs__param_gather_exposed_s(const struct cs__sim *S, int s, double t_ag)
{
    int vp = S->vp;
    /* on the stack for the usual depths: this runs per stage and step, in
     * the search's inner loop */
    double buf[128];
    double *fwd = vp <= 64 ? buf : cs_xmalloc(2 * (size_t)vp * sizeof *fwd), *par = fwd + vp;
    for (int c = 0; c < vp; c++) {
        const struct cs__chunk_cost *cc = cs__cost(S, s, c);
        fwd[c] = cc->f_compute_s + cc->f_tp_s;
        par[c] = cc->params;
    }
    double fill = 0.0;
    for (int q = 0; q < s; q++)
        fill += cs__cost(S, q, 0)->f_compute_s + cs__cost(S, q, 0)->f_tp_s;
    double x = cs_step_param_gather_exposed_s(fwd, par, vp, fill, S->pp < S->m ? S->pp : S->m, t_ag);
    if (fwd != buf)
        free(fwd);
    return x;
}

double cs_step_param_gather_exposed_s(const double *fwd_s, const double *params, int vp, double fill_s,
                                      int rounds, double t_ag)
{
    double total = 0.0;
    for (int c = 0; c < vp; c++)
        total += params[c];
    if (!(t_ag > 0) || !(total > 0))
        return 0.0;
    double cum = 0.0, before = 0.0, worst = 0.0;
    for (int c = 0; c < vp; c++) {
        cum += params[c];
        /* the first forward of chunk c ends after the fill, the earlier
         * chunks' rounds of forwards, and its own */
        double due = fill_s + before + fwd_s[c];
        before += rounds * fwd_s[c];
        double over = t_ag * cum / total - due;
        if (over > worst)
            worst = over;
    }
    return worst;
}

static bool cs__first_virtual(int s, int chunk)
{
    return s == 0 && chunk == 0;
}

static bool cs__last_virtual(const struct cs__sim *S, int s, int chunk)
{
    return s == S->pp - 1 && chunk == S->vp - 1;
}

/* Time of the data-parallel reduction of `bytes` of gradients (cached for
 * the full-size bucket, which is most of them). */
static double cs__dp_time(struct cs__sim *S, double bytes)
{
    if (bytes == S->bucket_bytes && S->bucket_s >= 0)
        return S->bucket_s;
    double t = 0.0;
    switch (S->fsdp) {
    case CS_FSDP_NONE:
        t = cs__coll(S, CS_COLL_ALL_REDUCE, bytes, &S->dp_group);
        break;
    case CS_FSDP_ZERO1:
    case CS_FSDP_ZERO2:
        t = cs__coll(S, CS_COLL_REDUCE_SCATTER, bytes, &S->dp_group);
        break;
    case CS_FSDP_FULL:
        t = 0.0; /* reduced per layer per micro-batch */
        break;
    case CS_FSDP_HYBRID:
        /* each replica holds a 1/shard slice after its reduce-scatter */
        t = cs__coll(S, CS_COLL_ALL_REDUCE, bytes / S->shard_group.ranks, &S->repl_group);
        break;
    }
    if (bytes == S->bucket_bytes)
        S->bucket_s = t;
    return t;
}

/* Pushes `bytes` of gradients ready at `ready_s` onto the stage's DP stream
 * as one collective. Returns the part of it that runs inside [win_lo, win_hi]
 * (the operation it overlaps with), for the interference charge. */
static double cs__dp_enqueue(struct cs__sim *S, struct cs__stage *st, double ready_s,
                             double bytes, double win_lo, double win_hi)
{
    double t = cs__dp_time(S, bytes);
    if (t <= 0)
        return 0.0;
    double start = ready_s > st->comm_free_s ? ready_s : st->comm_free_s;
    st->comm_free_s = start + t;
    st->dp_total_s += t;
    double lo = start > win_lo ? start : win_lo;
    double hi = start + t < win_hi ? start + t : win_hi;
    return hi > lo ? hi - lo : 0.0;
}

void cs_step_fsdp_layers(double now_s, double comm_free_s, int layers, double per_layer_s,
                         double ag_s, double rs_s, bool backward, bool post,
                         double overlap_slowdown, struct cs_fsdp_timeline *out)
{
    struct cs_fsdp_timeline r = {now_s, comm_free_s, 0.0, 0.0};
    if (layers < 1) {
        *out = r;
        return;
    }
    post = post && backward;
    double free_s = comm_free_s;
    double gb = (now_s > free_s ? now_s : free_s) + ag_s; /* this layer's gather ends */
    free_s = gb;
    r.comm_s += ag_s;
    double ra = 0.0, rb = 0.0; /* the previous layer's reduce-scatter */
    double t = now_s;
    for (int i = 0; i < layers; i++) {
        double lstart = t > gb ? t : gb;
        double na = 0.0, nb = 0.0; /* the successor's gather */
        bool next = i + 1 < layers;
        if (next && !post) {
            na = lstart > free_s ? lstart : free_s;
            nb = na + ag_s;
            free_s = nb;
            r.comm_s += ag_s;
        }
        double lend = lstart + per_layer_s;
        /* the two collectives' overlap with the layer (plain comparisons:
         * libm's fmax/fmin are calls, and this loop runs per layer and
         * micro-batch in the search; the times are finite here) */
        double e1 = nb < lend ? nb : lend, s1 = na > lstart ? na : lstart;
        double e2 = rb < lend ? rb : lend, s2 = ra > lstart ? ra : lstart;
        double ov = (e1 > s1 ? e1 - s1 : 0.0) + (e2 > s2 ? e2 - s2 : 0.0);
        double x = overlap_slowdown * (ov < per_layer_s ? ov : per_layer_s);
        r.slowdown_s += x;
        t = lend + x;
        if (next && post) {
            na = t > free_s ? t : free_s;
            nb = na + ag_s;
            free_s = nb;
            r.comm_s += ag_s;
        }
        if (next)
            gb = nb;
        if (backward) {
            ra = t > free_s ? t : free_s;
            rb = ra + rs_s;
            free_s = rb;
            r.comm_s += rs_s;
        }
    }
    r.end_s = t;
    r.comm_free_s = free_s;
    *out = r;
}

double cs_step_hsdp_allreduce(double now_s, double end_s, int units, double ar_s,
                              double overlap_slowdown, double *free_s, double *comm_s)
{
    if (units < 1 || !(ar_s > 0))
        return 0.0;
    double under = 0.0;
    for (int i = 0; i < units; i++) {
        double ready = now_s + (end_s - now_s) * (double)(i + 1) / units;
        double start = ready > *free_s ? ready : *free_s;
        *free_s = start + ar_s;
        *comm_s += ar_s;
        double hi = *free_s < end_s ? *free_s : end_s;
        under += hi > start ? hi - start : 0.0;
    }
    return overlap_slowdown * under;
}

/* An operation's host time into its stage: of its compute, the host's
 * dispatch beyond the GPU's time (host_s), and its whole dispatch time
 * (host_issue_s). */
static void cs__add_host(struct cs__sim *S, int s, const struct cs__op *op, struct cs__stage *st)
{
    const struct cs__chunk_cost *cc = cs__cost(S, s, op->chunk);
    bool f = op->dir == CS__F;
    st->host_s += f ? cc->f_host_s : cc->b_host_s;
    st->host_issue_s += f ? cc->f_issue_s : cc->b_issue_s;
}

/* Duration of one operation started at now_s; updates the comm stream. */
static double cs__op_duration(struct cs__sim *S, int s, const struct cs__op *op, double now_s,
                              double *compute_s, double *tp_s)
{
    struct cs__stage *st = &S->st[s];
    const struct cs__chunk_cost *cc = cs__cost(S, s, op->chunk);
    double comp = op->dir == CS__F ? cc->f_compute_s : cc->b_compute_s;
    double tp = op->dir == CS__F ? cc->f_tp_s : cc->b_tp_s;
    /* TP communication hidden behind the GEMMs still takes SMs and memory
     * bandwidth from them. */
    comp += S->o->overlap_slowdown * (op->dir == CS__F ? cc->f_tp_hidden_s : cc->b_tp_hidden_s);
    double dur = comp + tp;
    bool last_mb_bwd = op->dir == CS__B && op->mb == S->m - 1;

    if (S->fsdp == CS_FSDP_FULL || S->fsdp == CS_FSDP_HYBRID) {
        /* Layer by layer on the DP/FSDP stream (cs_step_fsdp_layers) */
        int L = cc->layers;
        struct cs_fsdp_timeline ft;
        bool post = op->dir == CS__B && cs_workload_fsdp_prefetch(S->w) == CS_FSDP_PREFETCH_POST;
        cs_step_fsdp_layers(now_s, st->comm_free_s, L, L > 0 ? dur / L : dur, S->fsdp_ag_s,
                            S->fsdp_rs_s, op->dir == CS__B, post, S->o->overlap_slowdown, &ft);
        st->comm_free_s = ft.comm_free_s;
        st->dp_total_s += ft.comm_s;
        double t = L > 0 ? ft.end_s : now_s + dur, extra = ft.slowdown_s;
        if (last_mb_bwd && S->fsdp == CS_FSDP_HYBRID && cc->dp_params > 0) {
            /* each layer's shard all-reduced over the replicas after its
             * reduce-scatter, under the rest of this backward */
            int n = L > 0 ? L : 1;
            double ar = cs__dp_time(S, cc->dp_params * S->grad_bytes / n);
            double x = cs_step_hsdp_allreduce(now_s, t, n, ar, S->o->overlap_slowdown,
                                              &st->repl_free_s, &st->dp_total_s);
            extra += x;
            t += x;
        }
        *compute_s = comp + extra;
        *tp_s = tp;
        st->fsdp_wait_s += (t - now_s) - dur - extra; /* exposed DP/FSDP communication */
        return t - now_s;
    }

    if (last_mb_bwd && S->dp > 1 && cc->dp_params > 0) {
        double bytes = cc->dp_params * S->grad_bytes;
        if (S->o->dp_overlap) {
            double bucket = S->o->dp_bucket_bytes > 0 ? S->o->dp_bucket_bytes : bytes;
            double done = 0.0, overlapped = 0.0;
            while (done < bytes) {
                double b = bytes - done < bucket ? bytes - done : bucket;
                done += b;
                overlapped += cs__dp_enqueue(S, st, now_s + dur * (done / bytes), b, now_s,
                                             now_s + dur);
            }
            /* the backward shares the GPU with the reduction kernels */
            double extra = S->o->overlap_slowdown * overlapped;
            comp += extra;
            dur += extra;
        } else {
            /* no overlap: reduced after the stage's last backward */
            cs__dp_enqueue(S, st, INFINITY, bytes, 0, 0);
        }
    }
    *compute_s = comp;
    *tp_s = tp;
    return dur;
}

/* ---- events ---------------------------------------------------------------- */

static void cs__try_start(struct cs__sim *S, int s);

/* Records that micro-batch op->mb of `chunk` arrives at stage d at `arrive`,
 * sent at `sent` (the engine run and the direct evaluation alike). */
static void cs__record_arrival(struct cs__sim *S, struct cs__stage *d, const struct cs__op *op,
                               int chunk, cs_time arrive, cs_time sent)
{
    int idx = op->mb * S->vp + chunk;
    if (op->dir == CS__F) {
        d->f_in[idx] = arrive;
        d->f_in_prod[idx] = sent;
    } else {
        d->b_in[idx] = arrive;
        d->b_in_prod[idx] = sent;
    }
}

static void cs__send(struct cs__sim *S, int s, const struct cs__op *op)
{
    int pp = S->pp, dest, chunk = op->chunk;
    cs_time now = cs_sim_now(S->e);
    double dur;
    cs_time *link;
    if (op->dir == CS__F) {
        if (cs__last_virtual(S, s, chunk))
            return;
        dest = (s + 1) % pp;
        if (s == pp - 1)
            chunk++;
        dur = S->fwd_p2p_s[S->same_node_next[s] ? 1 : 0];
        link = &S->st[s].fwd_link_free;
    } else {
        if (cs__first_virtual(s, chunk))
            return;
        dest = (s - 1 + pp) % pp;
        if (s == 0)
            chunk--;
        dur = S->bwd_p2p_s[S->same_node_next[dest] ? 1 : 0];
        link = &S->st[s].bwd_link_free;
    }
    cs_time start = now > *link ? now : *link;
    cs_time dur_t;
    cs_status st = cs_time_from_s_checked(dur, &dur_t);
    if (st == CS_OK && (dur < 0 || dur_t > CS_TIME_MAX - start))
        st = dur < 0 ? CS_EINVAL : CS_ERANGE;
    if (st != CS_OK) {
        cs__error(S, st, "step model: stage %d: pipeline transfer of %g s cannot be simulated: %s", s, dur,
                  cs_strerror(st));
        return;
    }
    cs_time arrive = start + dur_t;
    *link = arrive;
    /* The arrival time is known now (nothing else uses the link), so it is
     * recorded at once; an event is needed only to wake the receiver if it
     * will be idle, waiting for exactly this input, when it arrives. */
    struct cs__stage *d = &S->st[dest];
    cs__record_arrival(S, d, op, chunk, arrive, now);
    if (!d->busy)
        cs__try_start(S, dest);
}

static void cs__on_done(cs_engine *e, const struct cs_event *ev, void *ctx)
{
    struct cs__sim *S = ctx;
    int s;
    memcpy(&s, ev->payload, sizeof s);
    struct cs__stage *st = &S->st[s];
    const struct cs__op *op = &st->ops[st->next - 1];
    st->busy = false;
    st->last_end = cs_sim_now(e);
    cs__send(S, s, op);
    cs__try_start(S, s);
}

/* The receiver's input has arrived: try again. */
static void cs__on_wake(cs_engine *e, const struct cs_event *ev, void *ctx)
{
    (void)e;
    struct cs__sim *S = ctx;
    int s;
    memcpy(&s, ev->payload, sizeof s);
    S->st[s].wake_pending = false;
    cs__try_start(S, s);
}

static void cs__try_start(struct cs__sim *S, int s)
{
    struct cs__stage *st = &S->st[s];
    if (st->busy || st->next >= st->nops)
        return;
    const struct cs__op *op = &st->ops[st->next];
    int idx = op->mb * S->vp + op->chunk;
    cs_time ready = -1, prod = -1;
    if (op->dir == CS__F) {
        if (!cs__first_virtual(s, op->chunk)) {
            if (st->f_in[idx] < 0)
                return;
            ready = st->f_in[idx];
            prod = st->f_in_prod[idx];
        }
    } else {
        if (!cs__last_virtual(S, s, op->chunk)) {
            if (st->b_in[idx] < 0)
                return;
            ready = st->b_in[idx];
            prod = st->b_in_prod[idx];
        }
    }
    cs_time now = cs_sim_now(S->e);
    if (ready > now) {
        /* the input is on its way: sleep until it lands */
        if (!st->wake_pending) {
            st->wake_pending = true;
            if (cs_sim_schedule_at(S->e, ready, S->h_arrive, &s, sizeof s, NULL) != CS_OK)
                S->failed = true;
        }
        return;
    }
    if (ready >= 0 && now > st->last_end) {
        /* idle from last_end to now: until the producer finished it is a
         * bubble, after that the transfer was in flight */
        cs_time split = prod > st->last_end ? prod : st->last_end;
        if (split > now)
            split = now;
        st->bubble_s += cs_time_to_s(split - st->last_end);
        st->pp_s += cs_time_to_s(now - split);
    }
    double comp, tp;
    double dur = cs__op_duration(S, s, op, cs_time_to_s(now), &comp, &tp);
    st->compute_s += comp;
    cs__add_host(S, s, op, st);
    st->tp_s += tp;
    st->busy = true;
    st->next++;
    cs_status sst = cs_sim_schedule_in_s(S->e, dur, S->h_done, &s, sizeof s, NULL);
    if (sst != CS_OK)
        cs__error(S, sst, "step model: stage %d: operation of %g s cannot be simulated: %s", s, dur,
                  cs_strerror(sst));
}

/* ---- setup ------------------------------------------------------------------ */

/* TP communication overlap (docs/step.md, "TP communication overlap"):
 * with sequence parallelism each all-gather feeds a column-parallel GEMM
 * and each reduce-scatter drains a row-parallel one, and Transformer
 * Engine's userbuffers overlap (Megatron-Core --tp-comm-overlap) or
 * PyTorch's AsyncTP (torchtitan) split the pair into tp chunks: chunk i is
 * computed while chunk i + 1 moves (Wang et al., ASPLOS 2023, "Overlap
 * communication with dependent computation via decomposition"). Of a
 * collective of time c beside a GEMM of time g, min(ov c, (tp - 1) / tp g)
 * is hidden: the first (or last) chunk's compute has nothing to overlap.
 * Forward: all-gathers with the input projections [0] and the FFN's first
 * linear [2], reduce-scatters with the output projection [1] and the
 * second linear [3]; backward the reverse (the row-parallel GEMMs' output
 * gradients are gathered, the column-parallel ones' input gradients
 * reduce-scattered). All-reduces (no sequence parallelism) are not split:
 * nothing is hidden. */
double cs_step_tp_hidden_s(const struct cs_layer_cost *L, double ov, int tp, double ag, double rs, bool bwd)
{
    if (!(ov > 0) || tp <= 1)
        return 0.0;
    double k = (double)(tp - 1) / tp;
    const double *g = bwd ? L->tp_gemm_bwd_s : L->tp_gemm_fwd_s;
    int n_ag = bwd ? L->tp_allgather_bwd : L->tp_allgather_fwd;
    int n_rs = bwd ? L->tp_reducescatter_bwd : L->tp_reducescatter_fwd;
    /* forward: AG with [0], [2]; RS with [1], [3]. backward: AG with the
     * row-parallel [1], [3]; RS with the column-parallel [0], [2]. */
    const int ag_pair[2] = {bwd ? 1 : 0, bwd ? 3 : 2}, rs_pair[2] = {bwd ? 0 : 1, bwd ? 2 : 3};
    double h = 0.0;
    for (int i = 0; i < n_ag && i < 2; i++)
        h += fmin(ov * ag, k * g[ag_pair[i]]);
    for (int i = 0; i < n_rs && i < 2; i++)
        h += fmin(ov * rs, k * g[rs_pair[i]]);
    return h;
}

/* Kernels the host issues for the embedding (lookup, positions or none,
 * dropout; backward: their gradients) and for the output layer (final
 * norm, the logits GEMM, the cross-entropy's max, exp-sum, normalize and
 * loss; backward: the loss gradient, two GEMMs and the norm), per
 * micro-batch. */
#define CS__HOST_EMB_FWD_OPS 3.0
#define CS__HOST_EMB_BWD_OPS 3.0
#define CS__HOST_LOGITS_FWD_OPS 6.0
#define CS__HOST_LOGITS_BWD_OPS 8.0

enum { CS__ALT_BF16, CS__ALT_MTP };

/* What n layers of a slot cost beyond the workload's precision when they
 * run at another one (B at the workload's, V at theirs), nrc of them
 * recomputed; an MoE layer's routed experts at the most loaded rank's
 * load. */
static void cs__alt_delta(struct cs__chunk_cost *cc, const struct cs_layer_cost *B,
                          const struct cs_layer_cost *V, double n, double nrc, double load)
{
    double x = load - 1.0;
    cc->f_compute_s += n * (V->fwd_s - B->fwd_s + x * (V->expert_fwd_s - B->expert_fwd_s));
    cc->b_compute_s += n * (V->bwd_s - B->bwd_s + x * (V->expert_bwd_s - B->expert_bwd_s)) +
                       nrc * (V->recompute_s - B->recompute_s +
                              x * (V->expert_recompute_s - B->expert_recompute_s));
}

static void cs__chunk_costs(struct cs__sim *S, const struct cs_layer_cost *emb,
                            const struct cs_layer_cost *logits)
{
    const struct cs_layer_cost *L = &S->layer;
    const struct cs_parallel *p = &S->w->par;
    int g = S->c->gpus_per_node;
    (void)g;
    struct cs_coll_group tpg = cs__group(S, p->tp, 1, CS_NET_RING);
    struct cs_coll_group cpg = cs__group(S, p->cp, p->tp, CS_NET_RING);
    S->share_tp = cs__share_shown(S, &tpg);
    S->share_cp = cs__share_shown(S, &cpg);
    double msg = L->tp_msg_bytes;
    double ar = cs__coll(S, CS_COLL_ALL_REDUCE, msg, &tpg);
    double ag = cs__coll(S, CS_COLL_ALL_GATHER, msg, &tpg);
    double rs = cs__coll(S, CS_COLL_REDUCE_SCATTER, msg, &tpg);
    int tpn = S->w->par.tp;
    double cpn = S->w->par.cp > 1 ? (double)S->w->par.cp : 1.0;
    /* Per non-MoE slot (a plain model's dense layer; a hybrid model's
     * attention, MLP and Mamba-2 blocks): its TP collectives, what TP
     * overlap hides of them, its context-parallel transfers. */
    struct {
        double tpf, tpb, hid_f, hid_b, hid_r, rtp, cpf, cpb, hf, hb;
    } sl[CS_BLOCK_COUNT];
    memset(sl, 0, sizeof sl);
    double cpf = 0.0, cpb = 0.0;   /* a transformer or attention layer's, for the MoE layer */
    for (int q = 0; q < CS_BLOCK_COUNT; q++) {
        if (q == CS_BLOCK_MOE || (q != CS_BLOCK_LAYER && !S->has_block[q]))
            continue;
        const struct cs_layer_cost *B = &S->block[q];
        double rawf = B->tp_allreduce_fwd * ar + B->tp_allgather_fwd * ag + B->tp_reducescatter_fwd * rs;
        double rawb = B->tp_allreduce_bwd * ar + B->tp_allgather_bwd * ag + B->tp_reducescatter_bwd * rs;
        double rawr = B->tp_allreduce_recompute * ar + B->tp_allgather_recompute * ag +
                      B->tp_reducescatter_recompute * rs;
        sl[q].hid_f = cs_step_tp_hidden_s(B, S->o->tp_overlap, tpn, ag, rs, false);
        sl[q].hid_b = cs_step_tp_hidden_s(B, S->o->tp_overlap, tpn, ag, rs, true);
        /* the recomputed forward's collectives beside its GEMMs again */
        sl[q].hid_r = B->tp_allgather_recompute > 0 ? sl[q].hid_f : 0.0;
        sl[q].tpf = rawf - sl[q].hid_f;
        sl[q].tpb = rawb - sl[q].hid_b;
        /* Context parallelism: KV blocks travel around the CP ring, one
         * send/receive per step (cp - 1 of them), each of one block: NCCL's
         * p2p channels depend on that block's size, not the total's. */
        double cpf_all = 0.0, cpb_all = 0.0;
        if (B->cp_bytes_fwd > 0)
            cpf_all = (cpn - 1.0) * cs__coll(S, CS_COLL_SENDRECV, B->cp_bytes_fwd / (cpn - 1.0), &cpg);
        if (B->cp_bytes_bwd > 0)
            cpb_all = (cpn - 1.0) * cs__coll(S, CS_COLL_SENDRECV, B->cp_bytes_bwd / (cpn - 1.0), &cpg);
        /* Ring attention (Megatron-Core / Transformer Engine's
         * AttnFuncWithCPAndKVP2P, Liu et al. 2023): the attention runs in cp
         * steps, and the KV block of the next step is sent and received
         * while the current one is computed, so of the cp - 1 transfers only
         * what exceeds the (cp - 1) / cp of the attention they overlap is
         * exposed. */
        sl[q].cpf = fmax(0.0, cpf_all - (cpn - 1.0) / cpn * B->attn_fwd_s);
        sl[q].cpb = fmax(0.0, cpb_all - (cpn - 1.0) / cpn * B->attn_bwd_s);
        if (B->cp_a2a_in_bytes > 0) {
            /* a Mamba-2 block's all-to-alls around its scan, exposed: the
             * scan waits for its input and the output projection for y */
            double a2a = cs__coll(S, CS_COLL_ALLTOALL, B->cp_a2a_in_bytes, &cpg) +
                         cs__coll(S, CS_COLL_ALLTOALL, B->cp_a2a_out_bytes, &cpg);
            sl[q].cpf += a2a;
            sl[q].cpb += a2a;
        }
        /* Full recomputation reruns the forward, collectives included. */
        sl[q].rtp = rawr - sl[q].hid_r + (S->w->recompute == CS_RECOMPUTE_FULL ? sl[q].cpf : 0.0);
        cs_compute_host_block(S->w, &S->o->compute, (enum cs_block)q, &sl[q].hf, &sl[q].hb);
    }
    /* an MoE layer's attention part: a transformer layer's ring attention
     * (a hybrid model's E blocks have none) */
    if (!cs_model_is_hybrid(&S->w->model)) {
        cpf = sl[CS_BLOCK_LAYER].cpf;
        cpb = sl[CS_BLOCK_LAYER].cpb;
    }
    /* Uneven splits: cs_workload_vstage_layers (workload.h), the split the
     * memory model uses too. */
    /* Activation offload: the share of a GPU's layers offloaded and the
     * time to copy one layer's activations over the host link. */
    double off_share = 0.0, off_copy_s = 0.0;
    if (S->w->offload_layers > 0) {
        int per_gpu = (S->w->model.layers + S->pp - 1) / S->pp;
        off_share = fmin(1.0, (double)S->w->offload_layers / per_gpu);
        off_copy_s = cs_memory_layer_activations(S->w, S->o->compute.fused_attention) /
                     cs_step_host_bw(&S->c->gpu, &S->o->coll);
    }
    /* Fine-grained offload (offload_modules): each layer's named inputs go
     * to the host during its forward and come back for its backward, the
     * copies beside the layer's compute; what they take beyond it is
     * exposed (as for whole-layer offload above). */
    double fg_d = 0.0, fg_m = 0.0;
    if (S->w->offload_modules && S->w->recompute != CS_RECOMPUTE_FULL) {
        double bw = cs_step_host_bw(&S->c->gpu, &S->o->coll);
        if (bw > 0) {
            fg_d = cs_memory_layer_offload_bytes(S->w, false) / bw;
            fg_m = cs_memory_layer_offload_bytes(S->w, true) / bw;
        }
    }
    /* Mixture of experts (docs/moe.md, "The step"): an MoE layer's own TP
     * collectives, its dispatch and combine (all-to-alls over the EP group,
     * the share a2a_overlap hidden behind compute as Megatron-Core's EP
     * communication overlap and DeepSeek's DualPipe hide it), the ETP
     * gathers, and what the most loaded rank adds: its experts' compute
     * and the all-to-alls it receives, load - 1 times the balanced ones. */
    const struct cs_layer_cost *M = &S->moe_layer;
    double m_tpf = 0, m_tpb = 0, m_rawf = 0, m_rawb = 0, m_rawr = 0, m_rtp = 0;
    double m_hid_f = 0, m_hid_b = 0, m_hid_r = 0;
    double a2a_exp = 0, a2a_hid = 0, a2a_t = 0, a2a_pair_hid = 0, etp_t = 0;
    double load = S->load.max_over_mean;
    if (S->moe) {
        m_rawf = M->tp_allreduce_fwd * ar + M->tp_allgather_fwd * ag + M->tp_reducescatter_fwd * rs;
        m_rawb = M->tp_allreduce_bwd * ar + M->tp_allgather_bwd * ag + M->tp_reducescatter_bwd * rs;
        m_rawr = M->tp_allreduce_recompute * ar + M->tp_allgather_recompute * ag +
                 M->tp_reducescatter_recompute * rs;
        m_hid_f = cs_step_tp_hidden_s(M, S->o->tp_overlap, tpn, ag, rs, false);
        m_hid_b = cs_step_tp_hidden_s(M, S->o->tp_overlap, tpn, ag, rs, true);
        m_hid_r = M->tp_allgather_recompute > 0 ? m_hid_f : 0.0;
        m_tpf = m_rawf - m_hid_f;
        m_tpb = m_rawb - m_hid_b;
        m_rtp = m_rawr - m_hid_r + (S->w->recompute == CS_RECOMPUTE_FULL ? cpf : 0.0);
        /* a hierarchical dispatcher sends a token once per remote node:
         * the collective model counts it on the network part alone */
        double bytes = M->ep_a2a_bytes;
        struct cs_coll_group eg = S->ep_group;
        if (S->w->model.moe.dispatcher == CS_MOE_DISPATCH_HIERARCHICAL) {
            eg.a2a_top_k = S->w->model.moe.top_k;
            int en = eg.ranks / (eg.ranks_per_node > 0 ? eg.ranks_per_node : 1);
            int reach = cs_moe_reachable_nodes(&S->w->model.moe, en);
            eg.a2a_nodes = reach < en ? reach : 0;
        }
        double t = load * cs__coll(S, CS_COLL_ALLTOALL, bytes, &eg);
        /* Overlap hides at most the compute it runs beside: Megatron-Core's
         * EP overlap (overlap_moe_expert_parallel_comm) and DualPipe pair
         * one micro-batch's forward of a layer with another's backward, so
         * a layer's dispatches and combines (both directions) hide behind
         * at most that layer's forward and backward compute. */
        double ov = S->w->model.moe.a2a_overlap;
        a2a_t = t;
        if (ov > 0 && M->ep_a2a_fwd == 2 && M->ep_a2a_bwd == 2) {
            /* Paired forward and backward (cs_step_a2a_pair_s): what each
             * all-to-all leaves exposed in a pair; the routed experts at the
             * most loaded rank's load, their backward half data, half
             * weight gradient. */
            double ef = load * M->expert_fwd_s, eb = load * M->expert_bwd_s;
            double comp[5] = {M->fwd_s - M->expert_fwd_s, ef, M->bwd_s - M->expert_bwd_s, 0.5 * eb,
                              0.5 * eb};
            double F = comp[0] + comp[1], B = comp[2] + comp[3] + comp[4];
            double exp_pair = fmax(0.0, cs_step_a2a_pair_s(comp, t) - F - B) / 4.0;
            a2a_pair_hid = ov * fmax(0.0, t - exp_pair);
        }
        a2a_hid = 0.0;
        a2a_exp = t;
        if (M->etp_pairs > 0) {
            struct cs_coll_group etg = cs__group(S, S->w->par.etp, 1, CS_NET_RING);
            etp_t = M->etp_pairs * (cs__coll(S, CS_COLL_ALL_GATHER, M->etp_msg_bytes, &etg) +
                                    cs__coll(S, CS_COLL_REDUCE_SCATTER, M->etp_msg_bytes, &etg));
        }
    }
    /* Host time per layer (dense and MoE) per micro-batch, and the
     * forward's per-op host time for the embedding and output layer. */
    double hf_m = 0.0, hb_m = 0.0;
    if (S->moe && cs_model_is_hybrid(&S->w->model))
        cs_compute_host_block(S->w, &S->o->compute, CS_BLOCK_MOE, &hf_m, &hb_m);
    else if (S->moe)
        cs_compute_host_layer(S->w, &S->o->compute, true, &hf_m, &hb_m);
    /* of the MoE layer's, the part before its synchronization (below) */
    double hpre_m = S->moe ? cs_compute_host_moe_pre(S->w, &S->o->compute) : 0.0;
    struct cs_host_ops hops;
    cs_compute_host_ops(S->w, false, &hops);
    double py_op = hops.py_fwd ? cs_compute_host_python_scale(&S->o->compute) * S->o->compute.host_py_op_s
                               : S->o->compute.host_cpp_op_s;
    if (S->w->cuda_graphs && !cs_graph_scope_per_module(S->w->cuda_graph_scope))
        py_op = 0.0; /* captured with the layers (the per-module scopes leave them eager) */
    /* PyTorch FSDP's own passes over the unsharded gradients before each
     * reduce-scatter (cs_step_grad_prep): bytes and kernels per parameter
     * and layer, the same for every chunk */
    double gk = 0.0, gpp = cs_step_grad_prep(S->w, S->fsdp, S->dp, S->pp, S->m, S->grad_bytes, &gk);
    for (int s = 0; s < S->pp; s++) {
        /* EP overlap hides all-to-alls only in the paired steady state */
        if (a2a_pair_hid > 0) {
            a2a_hid = a2a_pair_hid * cs_step_paired_share(S->pp, S->vp, s, S->m);
            a2a_exp = a2a_t - a2a_hid;
        }
        for (int c = 0; c < S->vp; c++) {
            struct cs__chunk_cost *cc = &S->cc[s * S->vp + c];
            int vstage = c * S->pp + s, vfirst = 0;
            int nl = cs_workload_vstage_layers(S->w, vstage, &vfirst);
            int nl_dec = nl;   /* the decoder's layers, before the MTP modules */
            bool has_e = false, has_l = false;
            int nmtp = 0;
            cs_workload_vstage_extras(S->w, vstage, &has_e, &nmtp, &has_l);
            cc->layers = nl;
            int cnt[CS_BLOCK_COUNT];
            cs_model_slots_in(&S->w->model, vfirst, nl, cnt);
            int nm = S->moe ? cnt[CS_BLOCK_MOE] : 0;
            /* Multi-token prediction: each module's transformer layer is a
             * layer of the decoder's last kind (Megatron-Core builds it from
             * the block's last layer spec), costed with the chunk's layers
             * (compute, TP/EP traffic, recomputation, host); its norms,
             * projection and second pass through the embedding and the
             * output layer and loss are added below. */
            if (nmtp > 0) {
                if (S->moe && cs_model_layer_is_moe(&S->w->model, S->w->model.layers - 1))
                    nm += nmtp;
                else
                    cnt[cs_model_layer_slot(&S->w->model, S->w->model.layers - 1)] += nmtp;
                nl += nmtp;
                if (cs_model_is_hybrid(&S->w->model)) {
                    /* a hybrid model's module: an attention block and one of
                     * the decoder's last kind (Nemotron 3 Super's "*E") */
                    cnt[CS_BLOCK_ATTN] += nmtp;
                    nl += nmtp;
                }
            }
            int nd = nl - nm;
            /* Selective recomputation redoes every layer's attention core;
             * full recomputation the first recompute_layers layers of the
             * virtual stage, or all of them. */
            int nrc = S->w->recompute == CS_RECOMPUTE_FULL
                          ? cs_workload_recomputed_layers(S->w, nl)
                          : nl;
            /* of the recomputed layers, the MoE ones (in proportion) */
            int nrc_m = nl > 0 ? (int)lround((double)nrc * nm / nl) : 0;
            int nrc_d = nrc - nrc_m;
            /* the non-MoE layers by slot; of the recomputed ones each slot's
             * share (a plain model's are all CS_BLOCK_LAYER) */
            cc->f_compute_s = cc->f_tp_s = cc->b_compute_s = 0.0;
            cc->b_tp_s = cc->f_tp_hidden_s = cc->b_tp_hidden_s = cc->params = 0.0;
            cc->f_host_s = cc->b_host_s = cc->f_issue_s = cc->b_issue_s = 0.0;
            double hf_dense = 0.0, hb_dense = 0.0, hr_dense = 0.0; /* host time, below */
            for (int q = 0; q < CS_BLOCK_COUNT; q++) {
                if (q == CS_BLOCK_MOE || cnt[q] == 0)
                    continue;
                const struct cs_layer_cost *B = &S->block[q];
                double rq = nd > 0 ? (double)nrc_d * cnt[q] / nd : 0.0;
                cc->f_compute_s += cnt[q] * B->fwd_s;
                cc->f_tp_s += cnt[q] * (sl[q].tpf + sl[q].cpf);
                cc->b_compute_s += cnt[q] * B->bwd_s + rq * B->recompute_s;
                cc->b_tp_s += cnt[q] * (sl[q].tpb + sl[q].cpb) + rq * sl[q].rtp;
                cc->f_tp_hidden_s += cnt[q] * sl[q].hid_f;
                cc->b_tp_hidden_s += cnt[q] * sl[q].hid_b + rq * sl[q].hid_r;
                cc->params += cnt[q] * B->params;
                hf_dense += cnt[q] * sl[q].hf;
                hb_dense += cnt[q] * sl[q].hb;
                hr_dense += rq * sl[q].hf;
            }
            if (nm > 0) {
                double xf = (load - 1.0) * M->expert_fwd_s, xb = (load - 1.0) * M->expert_bwd_s;
                double xr = (load - 1.0) * M->expert_recompute_s;
                double ef = M->ep_a2a_fwd * a2a_exp, eb = M->ep_a2a_bwd * a2a_exp;
                /* a recomputed forward's all-to-alls run inside the
                 * backward: counted as the pair's (Megatron-Core refuses
                 * full recomputation with EP overlap; a schedule that
                 * allowed it would pair them the same way) */
                double er = M->ep_a2a_recompute * a2a_exp;
                cc->f_compute_s += nm * (M->fwd_s + xf);
                cc->b_compute_s += nm * (M->bwd_s + xb) + nrc_m * (M->recompute_s + xr);
                cc->f_ep_s = nm * ef;
                cc->b_ep_s = nm * eb + nrc_m * er;
                double imb = (load - 1.0) / load;   /* of the all-to-alls, the load's part */
                cc->f_imb_s = nm * (xf + imb * ef);
                cc->b_imb_s = nm * (xb + imb * eb) + nrc_m * (xr + imb * er);
                cc->f_tp_s += nm * (m_tpf + cpf + etp_t) + cc->f_ep_s;
            }
            /* Layers at another precision: the BF16 ones among the
             * decoder's, and the MTP modules at theirs, each slot's
             * difference added (recomputed in the chunk's proportion). */
            for (int v = 0; v < 2; v++) {
                if (!S->has_alt[v])
                    continue;
                int cv[CS_BLOCK_COUNT] = {0};
                if (v == CS__ALT_BF16) {
                    cs_workload_bf16_slots_in(S->w, vfirst, nl_dec, cv);
                } else if (nmtp > 0) {
                    cv[cs_model_layer_slot(&S->w->model, S->w->model.layers - 1)] += nmtp;
                    if (cs_model_is_hybrid(&S->w->model))
                        cv[CS_BLOCK_ATTN] += nmtp;
                }
                for (int q = 0; q < CS_BLOCK_COUNT; q++) {
                    if (cv[q] == 0)
                        continue;
                    if (q == CS_BLOCK_MOE) {
                        if (nm > 0)
                            cs__alt_delta(cc, M, &S->alt_moe[v], cv[q], (double)nrc_m * cv[q] / nm, load);
                    } else {
                        cs__alt_delta(cc, &S->block[q], &S->alt_block[v][q], cv[q],
                                      nd > 0 ? (double)nrc_d * cv[q] / nd : 0.0, 1.0);
                    }
                }
            }
            /* Offloaded layers: each layer's activations are copied to the
             * host during the next layer's forward and back during the
             * previous layer's backward (Transformer Engine's CPU offload
             * overlaps them); only what the copy takes beyond that layer's
             * compute is exposed. */
            if (off_share > 0) {
                cc->f_compute_s += nl * off_share * fmax(0.0, off_copy_s - L->fwd_s);
                cc->b_compute_s += nl * off_share * fmax(0.0, off_copy_s - L->bwd_s);
            }
            if (fg_d > 0 || fg_m > 0) {
                cc->f_compute_s += nd * fmax(0.0, fg_d - L->fwd_s);
                cc->b_compute_s += nd * fmax(0.0, fg_d - L->bwd_s);
                if (nm > 0) {
                    cc->f_compute_s += nm * fmax(0.0, fg_m - M->fwd_s);
                    cc->b_compute_s += nm * fmax(0.0, fg_m - M->bwd_s);
                }
            }
            if (nm > 0) {
                cc->b_tp_s += nm * (m_tpb + cpb + etp_t) + nrc_m * (m_rtp + etp_t) + cc->b_ep_s;
                cc->f_tp_hidden_s += nm * (m_hid_f + M->ep_a2a_fwd * a2a_hid);
                cc->b_tp_hidden_s += nm * (m_hid_b + M->ep_a2a_bwd * a2a_hid) +
                                     nrc_m * (m_hid_r + M->ep_a2a_recompute * a2a_hid);
                cc->params += nm * M->params;
                cc->expert_params = nm * M->expert_params;
            }
            if (has_e) {
                cc->f_compute_s += emb->fwd_s;
                cc->b_compute_s += emb->bwd_s;
                cc->params += emb->params;
            }
            if (has_l) {
                cc->f_compute_s += logits->fwd_s;
                cc->b_compute_s += logits->bwd_s;
                cc->params += logits->params;
            }
            if (nmtp > 0) {
                /* each module embeds the next tokens and runs the output
                 * layer and loss again; the stage holds its own copy of
                 * the embedding and of the output layer where it has not
                 * got them (Megatron-Core: mtp_process builds both) */
                const struct cs_layer_cost *x = &S->mtp_extra;
                cc->f_compute_s += nmtp * (x->fwd_s + emb->fwd_s + logits->fwd_s);
                cc->b_compute_s += nmtp * (x->bwd_s + emb->bwd_s + logits->bwd_s);
                cc->params += nmtp * x->params + (has_e ? 0.0 : emb->params) +
                              (has_l ? 0.0 : logits->params);
                if (S->w->model.mtp_shared && nmtp > 1) {
                    /* one module's weights for every pass: its layer (and a
                     * hybrid model's attention block) and projection once */
                    int lq = cs_model_layer_slot(&S->w->model, S->w->model.layers - 1);
                    double one = x->params + (lq == CS_BLOCK_MOE ? S->moe_layer.params : S->block[lq].params) +
                                 (cs_model_is_hybrid(&S->w->model) ? S->block[CS_BLOCK_ATTN].params : 0.0);
                    double ex = lq == CS_BLOCK_MOE ? S->moe_layer.expert_params : 0.0;
                    cc->params -= (nmtp - 1) * one;
                    cc->expert_params -= (nmtp - 1) * ex;
                }
            }
            /* Host dispatch (docs/models.md, "Host dispatch"): the host
             * issues every kernel of the chunk, and the GPU can run ahead of
             * it only when its kernels are longer, so an operation takes at
             * least the host's time; what the host takes beyond the GPU's
             * kernels and blocking collectives counts as compute (the GPU
             * idles in its stream). Recomputed layers rerun their forward
             * inside the backward. */
            {
                /* (nrc counts every layer unless recomputation is full:
                 * selective recomputation reruns a few kernels, not counted) */
                bool full = S->w->recompute == CS_RECOMPUTE_FULL;
                double hf = hf_dense + nm * hf_m;
                double hb = hb_dense + nm * hb_m + (full ? hr_dense + nrc_m * hf_m : 0.0);
                int ne = (has_e ? 1 : 0) + nmtp, nlo = (has_l ? 1 : 0) + nmtp;
                hf += ne * CS__HOST_EMB_FWD_OPS * py_op;
                hb += ne * CS__HOST_EMB_BWD_OPS * S->o->compute.host_cpp_op_s;
                hf += nlo * CS__HOST_LOGITS_FWD_OPS * py_op;
                hb += nlo * CS__HOST_LOGITS_BWD_OPS * S->o->compute.host_cpp_op_s;
                double gf = cc->f_compute_s + cc->f_tp_s + S->o->overlap_slowdown * cc->f_tp_hidden_s;
                double gb = cc->b_compute_s + cc->b_tp_s + S->o->overlap_slowdown * cc->b_tp_hidden_s;
                cc->f_host_s = hf > gf ? hf - gf : 0.0;
                cc->b_host_s = hb > gb ? hb - gb : 0.0;
                cc->f_issue_s = hf;
                cc->b_issue_s = hb;
                /* Run-ahead (docs/models.md 2.6): the host blocks on the GPU
                 * only at synchronization points. With pipeline stages
                 * every send and receive is one (Megatron-Core's
                 * batch_p2p_sync: torch.cuda.synchronize after each
                 * batched exchange), and so is each MoE layer's forward
                 * (its token dispatcher copies the routing counts to the
                 * host). Without either, the forward's loss check (the
                 * NaN/Inf validation of each micro-batch's loss) is the
                 * only one per micro-batch: the host issues the next
                 * forward while the GPU still runs this backward, and the
                 * lead it gains there (the backward's GPU time beyond its
                 * host time) covers the next forward's dispatch deficit.
                 * Every micro-batch but the step's first has one before
                 * it. */
                if (S->pp == 1 && S->m > 1 && nm == 0 && cc->f_host_s > 0 && gb > hb) {
                    double use = fmin(gb - hb, cc->f_host_s);
                    cc->f_host_s -= use * (S->m - 1.0) / S->m;
                }
                /* Each MoE layer's forward synchronizes the host with the
                 * GPU (Megatron-Core's token dispatchers: the alltoall
                 * dispatcher's _maybe_dtoh_and_synchronize before the
                 * permutation, the flex dispatcher's token count read
                 * back, DeepEP's CPU wait for the receive counts), so the
                 * forward is a chain of segments, one per MoE layer, from
                 * one synchronization to the next. After each the GPU's
                 * queue is empty: what the host takes to issue the rest
                 * of the MoE layer (dispatch, experts, combine) beyond its
                 * kernels leaves the GPU idle, and the other blocks'
                 * slack cannot make it up. A segment takes max(H, G +
                 * max(0, h_m - g_m)) (H, G its host and GPU time, h_m, g_m
                 * the MoE layer's after the synchronization) where the
                 * totals above assumed max(H, G). docs/models.md 2.6. */
                if (nm > 0 && hf_m > 0 && cs_step_moe_syncs(S->w)) {
                    double g_m = M->fwd_s + (load - 1.0) * M->expert_fwd_s + m_tpf + cpf + etp_t +
                                 M->ep_a2a_fwd * a2a_exp;
                    double h_m = hf_m - hpre_m;
                    double per = fmax(gf, hf) / nm;
                    double seg = fmax(hf / nm, gf / nm + fmax(0.0, h_m - g_m));
                    if (seg > per)
                        cc->f_host_s += nm * (seg - per);
                }
                cc->f_compute_s += cc->f_host_s;
                cc->b_compute_s += cc->b_host_s;
            }
            /* The experts' gradients are reduced over the expert data
             * parallel group, the rest over dp x cp: the DP stream carries
             * the experts' bytes scaled by the ratio of the two groups'
             * times (0 when each expert has one replica). */
            cc->dp_params = cc->params - cc->expert_params + S->expert_grad_ratio * cc->expert_params;
            /* FSDP's gradient passes (gpp above) over this chunk's parameters */
            if (gpp > 0 && cc->params > 0)
                cc->b_compute_s += gpp * cc->params / (S->c->gpu.hbm_bw_bytes_per_s *
                                                       S->o->compute.mem_eff) +
                                   gk * (cc->layers > 0 ? cc->layers : 1) *
                                       S->o->compute.kernel_overhead_s;
        }
    }
}

double cs_step_a2a_pair_s(const double comp[5], double t)
{
    double af = comp[0], mf = comp[1], ab = comp[2], md = comp[3], mw = comp[4];
    /* compute stream: attn_f, mlp_dgrad, mlp_wgrad, mlp_f, attn_b;
     * comm stream: combine_b, dispatch_f, dispatch_b, combine_f */
    double af_end = af, cb_end = t;
    double df_end = fmax(cb_end, af_end) + t;
    double md_end = fmax(af_end, cb_end) + md;
    double mw_end = md_end + mw;
    double db_end = fmax(df_end, md_end) + t;
    double mf_end = fmax(mw_end, df_end) + mf;
    double cf_end = fmax(db_end, mf_end) + t;
    double ab_end = fmax(mf_end, db_end) + ab;
    return fmax(ab_end, cf_end);
}

double cs_step_grad_prep(const struct cs_workload *w, enum cs_fsdp fsdp, int dp, int pp, long micro,
                         double grad_bytes, double *kernels)
{
    double k = 0.0, b = 0.0;
    if (w != NULL && dp > 1 && micro >= 1 && grad_bytes > 0) {
        const double pbytes = 2.0; /* the unsharded gradients, in the 16-bit compute dtype */
        if (w->stack == CS_STACK_COMPOSER && cs_memory_shards_grads(fsdp)) {
            /* FSDP1 (_post_backward_hook, _reduce_grad): the cast to the
             * reduce dtype when it is wider, then the in-place pre-divide,
             * every micro-batch (Composer syncs each one under FSDP) */
            if (grad_bytes > pbytes) {
                b += pbytes + grad_bytes;
                k += 1.0;
            }
            b += 2.0 * grad_bytes;
            k += 1.0;
        } else if (w->stack == CS_STACK_TORCHTITAN && (fsdp == CS_FSDP_FULL || fsdp == CS_FSDP_HYBRID)) {
            /* FSDP2 (foreach_reduce): the copy-in into the reduce-scatter
             * buffer at the reduce dtype, once per gradient sync: every
             * micro-batch, or the last one under pipelining
             * (torch.distributed.pipelining syncs on the last backward),
             * spread here over the step's micro-batches */
            double share = pp > 1 ? 1.0 / (double)micro : 1.0;
            b += share * (pbytes + grad_bytes);
            k += share;
        }
    }
    if (kernels)
        *kernels = k;
    return b;
}

bool cs_step_moe_syncs(const struct cs_workload *w)
{
    return w != NULL && w->stack == CS_STACK_MCORE_2024 && cs_model_is_moe(&w->model) &&
           !(w->cuda_graphs && w->cuda_graph_scope == CS_GRAPH_SCOPE_ITERATION);
}

double cs_step_paired_share(int pp, int vp, int stage, long micro)
{
    if (pp < 1 || vp < 1 || micro < 1 || stage < 0 || stage >= pp)
        return 0.0;
    double total = (double)micro * vp;
    double warm = pp == 1 ? 0.0
                  : vp > 1 ? 2.0 * (pp - stage - 1) + (double)(vp - 1) * pp
                           : (double)(pp - stage - 1);
    double pairs = total - fmin(total, warm) - 1.0;
    return pairs > 0 ? pairs / total : 0.0;
}

/* The workload as its layers at precision `prec` run it: no module
 * precisions, no BF16 layers, the quantized recipes' features off where
 * prec is not one of them (Transformer Engine's FP8 attention and the
 * fused MXFP8 expert MLP run only inside their autocast). */
static void cs__workload_at(const struct cs_workload *w, enum cs_precision prec, struct cs_workload *out)
{
    *out = *w;
    out->precision = prec;
    memset(out->module_precision, 0, sizeof out->module_precision);
    out->bf16_layers_start = out->bf16_layers_end = 0;
    if (!cs_precision_quantized(prec)) {
        out->fp8_attention = false;
        out->fp8_param_gather = out->fp4_param_gather = false;
    }
    if (prec != CS_PREC_MXFP8)
        out->fused_grouped_mlp = false;
}

/* S->alt_block and S->alt_moe for the precisions the workload keeps apart
 * (S->has_alt), and an MTP module's own projection at its precision. */
static cs_status cs__alt_costs(struct cs__sim *S, cs_diags *d)
{
    const struct cs_workload *w = S->w;
    const struct cs_cluster_cfg *c = S->c;
    const struct cs_step_options *o = S->o;
    if (!cs_precision_quantized(w->precision))
        return CS_OK;
    enum cs_precision mtp = cs_workload_module_precision(w, CS_QMOD_MTP, w->precision);
    S->has_alt[CS__ALT_BF16] = w->bf16_layers_start > 0 || w->bf16_layers_end > 0;
    S->has_alt[CS__ALT_MTP] = w->model.mtp_layers > 0 && mtp != w->precision;
    for (int v = 0; v < 2; v++) {
        if (!S->has_alt[v])
            continue;
        struct cs_workload wa;
        cs__workload_at(w, v == CS__ALT_BF16 ? CS_PREC_BF16 : mtp, &wa);
        cs_status st = cs_compute_layer(&wa, &c->gpu, &o->compute, &S->alt_block[v][CS_BLOCK_LAYER]);
        for (int k = CS_BLOCK_ATTN; st == CS_OK && k < CS_BLOCK_COUNT; k++)
            if (k != CS_BLOCK_MOE && S->has_block[k])
                st = cs_compute_block(&wa, &c->gpu, &o->compute, (enum cs_block)k, &S->alt_block[v][k]);
        if (st == CS_OK && S->moe)
            st = cs_compute_moe_layer(&wa, &c->gpu, &o->compute, &S->alt_moe[v]);
        if (st == CS_OK && v == CS__ALT_MTP)
            st = cs_compute_mtp_extra(&wa, &c->gpu, &o->compute, &S->mtp_extra);
        if (st != CS_OK) {
            cs_diag_error(d, NULL, 0, 0, "compute model (layers at %s): %s",
                          cs_precision_name(wa.precision), cs_strerror(st));
            return st;
        }
    }
    return CS_OK;
}

static void cs__free(struct cs__sim *S)
{
    if (S->st)
        for (int s = 0; s < S->pp; s++) {
            free(S->st[s].ops);
            free(S->st[s].f_in);
            free(S->st[s].b_in);
            free(S->st[s].f_in_prod);
            free(S->st[s].b_in_prod);
        }
    free(S->st);
    free(S->cc);
    free(S->same_node_next);
    if (S->own_engine)
        cs_sim_destroy(S->e);
}

cs_status cs_step_simulate(const struct cs_cluster_cfg *c, const struct cs_workload *w,
                           const struct cs_step_options *o, cs_diags *d,
                           struct cs_step_result *out)
{
    return cs_step_simulate_on(c, w, o, NULL, d, out);
}

/* ---- the timeline evaluated directly ---------------------------------------
 *
 * Nothing in the step's timeline depends on the order in which the engine
 * fires simultaneous events: a stage runs its operations in its fixed
 * order, an operation starts when the stage is free and its input has
 * arrived, a transfer leaves when its producer ends and waits for the
 * sender's link, and the DP/FSDP stream of a stage is touched only by that
 * stage's operations, in their order. So every start time is
 *     start = max(last_end, arrival)        (arrival = -1: no input)
 * which is exactly the clock at which cs__try_start succeeds on the engine
 * (called at last_end by the stage's own op_done, or at the producer's end
 * by cs__send when the stage is idle, or at the arrival by a wake-up). The
 * loop below computes these times stage by stage, with the same integer
 * clock, the same conversions and the same floating-point operations in
 * the same order per stage, so the result is identical bit for bit (the
 * test compares every field with the engine's run). The events figure is
 * the engine's count: one op_done per operation, plus one wake-up for each
 * operation whose input was still in flight when the stage could first
 * have taken it, at max(last_end, the producer's end).
 *
 * Returns false when anything unusual happens (a duration that cannot be
 * put on the clock, a model error, a schedule that stalls): the caller then
 * runs the same step on the engine, which reports it exactly as before. */

/* Runs stage s as far as its inputs allow; pushes the stages it unblocks
 * onto the worklist. */
static bool cs__direct_stage(struct cs__sim *S, int s, int *work, int *nwork, bool *queued,
                             uint64_t *events)
{
    struct cs__stage *st = &S->st[s];
    while (st->next < st->nops) {
        const struct cs__op *op = &st->ops[st->next];
        int idx = op->mb * S->vp + op->chunk;
        cs_time ready = -1, prod = -1;
        if (op->dir == CS__F) {
            if (!cs__first_virtual(s, op->chunk)) {
                if (st->f_in[idx] < 0)
                    return true; /* blocked: its producer has not ended yet */
                ready = st->f_in[idx];
                prod = st->f_in_prod[idx];
            }
        } else {
            if (!cs__last_virtual(S, s, op->chunk)) {
                if (st->b_in[idx] < 0)
                    return true;
                ready = st->b_in[idx];
                prod = st->b_in_prod[idx];
            }
        }
        cs_time now = st->last_end;
        if (ready > now) {
            /* the engine wakes the stage at the arrival if the transfer was
             * still in flight when the stage could first have taken it */
            cs_time first = prod > st->last_end ? prod : st->last_end;
            if (ready > first)
                (*events)++;
            now = ready;
        }
        if (ready >= 0 && now > st->last_end) {
            cs_time split = prod > st->last_end ? prod : st->last_end;
            if (split > now)
                split = now;
            st->bubble_s += cs_time_to_s(split - st->last_end);
            st->pp_s += cs_time_to_s(now - split);
        }
        double comp, tp;
        cs_time dur_t;
        bool last_mb_bwd = op->dir == CS__B && op->mb == S->m - 1;
        if (S->fsdp == CS_FSDP_FULL || S->fsdp == CS_FSDP_HYBRID || (last_mb_bwd && S->dp > 1)) {
            /* it uses the DP/FSDP stream: computed at its start */
            double dur = cs__op_duration(S, s, op, cs_time_to_s(now), &comp, &tp);
            /* cs_sim_schedule_in_s's checks */
            if (S->err != CS_OK || isnan(dur) || dur < 0 || cs_time_from_s_checked(dur, &dur_t) != CS_OK)
                return false;
        } else {
            const struct cs__chunk_cost *cc = cs__cost(S, s, op->chunk);
            if (!cc->dur_ok[op->dir])
                return false;
            comp = cc->comp_s[op->dir];
            tp = cc->tp_s[op->dir];
            dur_t = cc->dur_t[op->dir];
        }
        st->compute_s += comp;
        cs__add_host(S, s, op, st);
        st->tp_s += tp;
        st->next++;
        if (now > CS_TIME_MAX - dur_t)
            return false;
        cs_time end = now + dur_t;
        (*events)++; /* its op_done */
        st->last_end = end;
        /* cs__send at the operation's end */
        int pp = S->pp, dest, chunk = op->chunk, pi;
        const cs_time *pt;
        const bool *pok;
        cs_time *link;
        if (op->dir == CS__F) {
            if (cs__last_virtual(S, s, chunk))
                continue;
            dest = (s + 1) % pp;
            if (s == pp - 1)
                chunk++;
            pi = S->same_node_next[s] ? 1 : 0;
            pt = S->fwd_p2p_t;
            pok = S->fwd_p2p_ok;
            link = &st->fwd_link_free;
        } else {
            if (cs__first_virtual(s, chunk))
                continue;
            dest = (s - 1 + pp) % pp;
            if (s == 0)
                chunk--;
            pi = S->same_node_next[dest] ? 1 : 0;
            pt = S->bwd_p2p_t;
            pok = S->bwd_p2p_ok;
            link = &st->bwd_link_free;
        }
        cs_time start = end > *link ? end : *link;
        cs_time pdur_t = pt[pi];
        if (!pok[pi] || pdur_t > CS_TIME_MAX - start)
            return false;
        cs_time arrive = start + pdur_t;
        *link = arrive;
        struct cs__stage *ds = &S->st[dest];
        cs__record_arrival(S, ds, op, chunk, arrive, end);
        if (dest != s && !queued[dest]) {
            queued[dest] = true;
            work[(*nwork)++] = dest;
        }
    }
    return true;
}

/* The whole timeline; false: run it on the engine instead (see above). */
static bool cs__direct_run(struct cs__sim *S, uint64_t *events)
{
    int *work = cs_xmalloc((size_t)S->pp * sizeof *work);
    bool *queued = cs_xcalloc((size_t)S->pp, sizeof *queued);
    int nwork = 0;
    for (int s = S->pp - 1; s >= 0; s--) {
        work[nwork++] = s;
        queued[s] = true;
    }
    /* What cs__send and cs_sim_schedule_in_s would convert at every
     * transfer and operation, converted once with the same checks. */
    for (int i = 0; i < 2; i++) {
        S->fwd_p2p_ok[i] = S->fwd_p2p_s[i] >= 0 && cs_time_from_s_checked(S->fwd_p2p_s[i], &S->fwd_p2p_t[i]) == CS_OK;
        S->bwd_p2p_ok[i] = S->bwd_p2p_s[i] >= 0 && cs_time_from_s_checked(S->bwd_p2p_s[i], &S->bwd_p2p_t[i]) == CS_OK;
    }
    for (int k = 0; k < S->pp * S->vp; k++) {
        struct cs__chunk_cost *cc = &S->cc[k];
        for (int dir = 0; dir < 2; dir++) {
            /* cs__op_duration without the DP/FSDP stream */
            double comp = dir == CS__F ? cc->f_compute_s : cc->b_compute_s;
            double tp = dir == CS__F ? cc->f_tp_s : cc->b_tp_s;
            comp += S->o->overlap_slowdown * (dir == CS__F ? cc->f_tp_hidden_s : cc->b_tp_hidden_s);
            double dur = comp + tp;
            cc->comp_s[dir] = comp;
            cc->tp_s[dir] = tp;
            cc->dur_ok[dir] = !isnan(dur) && dur >= 0 && cs_time_from_s_checked(dur, &cc->dur_t[dir]) == CS_OK;
        }
    }
    bool ok = true;
    *events = 0;
    while (ok && nwork > 0) {
        int s = work[--nwork];
        queued[s] = false;
        ok = cs__direct_stage(S, s, work, &nwork, queued, events);
    }
    for (int s = 0; ok && s < S->pp; s++)
        if (S->st[s].next < S->st[s].nops)
            ok = false; /* stalled: the engine's run reports it */
    /* More events than the engine's budget allows (sim.h; a reset or new
     * engine has the default): its run stops with CS_EBUDGET, so it is the
     * one to say so. (Its wall-time budget, an hour, is not checked: this
     * evaluation takes a fraction of the engine's time.) */
    if (*events > CS_SIM_DEFAULT_MAX_EVENTS)
        ok = false;
    free(work);
    free(queued);
    return ok && S->err == CS_OK;
}

static cs_status cs__simulate(const struct cs_cluster_cfg *c, const struct cs_workload *w,
                              const struct cs_step_options *o, cs_engine *scratch, bool on_engine,
                              cs_diags *d, struct cs_step_result *out);

cs_status cs_step_simulate_on(const struct cs_cluster_cfg *c, const struct cs_workload *w,
                              const struct cs_step_options *o, cs_engine *scratch,
                              cs_diags *d, struct cs_step_result *out)
{
    return cs__simulate(c, w, o, scratch, false, d, out);
}

cs_status cs_step_simulate_events(const struct cs_cluster_cfg *c, const struct cs_workload *w,
                                  const struct cs_step_options *o, cs_engine *scratch,
                                  cs_diags *d, struct cs_step_result *out)
{
    return cs__simulate(c, w, o, scratch, true, d, out);
}

static cs_status cs__simulate(const struct cs_cluster_cfg *c, const struct cs_workload *w,
                              const struct cs_step_options *o, cs_engine *scratch, bool on_engine,
                              cs_diags *d, struct cs_step_result *out)
{
    cs_status st = cs_step_check(c, w, o, d);
    if (st != CS_OK)
        return st;
    struct cs_step_result r;
    memset(&r, 0, sizeof r);
    r.tp_net_share = r.cp_net_share = r.dp_net_share = r.pp_net_share = r.network_slowdown = NAN;
    r.storage_slowdown = NAN;
    r.ep_net_share = NAN;
    r.moe_load = 1.0;
    st = cs_memory_per_gpu_params(w, &c->gpu, &o->compute, &r.memory);
    if (st != CS_OK) {
        cs_diag_error(d, NULL, 0, 0, "memory model: %s", cs_strerror(st));
        return st;
    }
    const struct cs_parallel *p = &w->par;
    r.fits = r.memory.fits;
    if (w->offload_layers > 0 || w->offload_modules) {
        /* the offloaded activations must fit the node's host memory, and
         * there must be a host link to copy them over */
        double host = r.memory.host_bytes * c->gpus_per_node;
        if (!(cs_step_host_bw(&c->gpu, &o->coll) > 0) ||
            (isfinite(c->host_memory_bytes) && host > c->host_memory_bytes))
            r.fits = false;
    }
    r.microbatches = (int)(w->global_batch / ((long)p->dp * w->micro_batch));
    r.hw_flops_per_iter = cs_workload_flops_per_iter(&w->model, (double)w->global_batch, w->recompute);
    r.model_flops_per_iter =
        cs_workload_flops_per_iter(&w->model, (double)w->global_batch, CS_RECOMPUTE_NONE);
    if (w->recompute == CS_RECOMPUTE_FULL)   /* only some layers recomputed */
        r.hw_flops_per_iter = r.model_flops_per_iter +
                              cs_workload_recompute_share(w) * (r.hw_flops_per_iter - r.model_flops_per_iter);
    if (!r.fits) {
        r.time_s = NAN;
        *out = r;
        return CS_OK;
    }

    struct cs__sim S;
    memset(&S, 0, sizeof S);
    S.c = c;
    S.w = w;
    S.o = o;
    S.pp = p->pp;
    S.vp = p->vp;
    S.m = r.microbatches;
    S.dp = p->dp * p->cp; /* ranks that reduce the same gradients (dp x cp) */
    S.fsdp = p->fsdp;
    struct cs_layer_cost emb, logits;
    if ((st = cs_compute_layer(w, &c->gpu, &o->compute, &S.layer)) != CS_OK ||
        (st = cs_compute_embedding(w, &c->gpu, &o->compute, &emb)) != CS_OK ||
        (st = cs_compute_logits(w, &c->gpu, &o->compute, &logits)) != CS_OK ||
        (w->model.mtp_layers > 0 &&
         (st = cs_compute_mtp_extra(w, &c->gpu, &o->compute, &S.mtp_extra)) != CS_OK)) {
        cs_diag_error(d, NULL, 0, 0, "compute model: %s", cs_strerror(st));
        return st;
    }
    /* The non-MoE slots the model's layers use (cs_model_layer_slot): a
     * plain model's dense layers, a hybrid model's attention, MLP and
     * Mamba-2 blocks */
    S.block[CS_BLOCK_LAYER] = S.layer;
    {
        int all[CS_BLOCK_COUNT];
        cs_model_slots_in(&w->model, 0, w->model.layers, all);
        for (int k = 0; k < CS_BLOCK_COUNT; k++)
            S.has_block[k] = all[k] > 0;
    }
    if (w->model.mtp_layers > 0) {
        S.has_block[cs_model_layer_slot(&w->model, w->model.layers - 1)] = true;
        if (cs_model_is_hybrid(&w->model))
            S.has_block[CS_BLOCK_ATTN] = true; /* the module's attention block ("*E") */
    }
    for (int k = CS_BLOCK_ATTN; k < CS_BLOCK_COUNT; k++) {
        if (k == CS_BLOCK_MOE || !S.has_block[k])
            continue;
        if ((st = cs_compute_block(w, &c->gpu, &o->compute, (enum cs_block)k, &S.block[k])) != CS_OK) {
            cs_diag_error(d, NULL, 0, 0, "compute model (%s block): %s", cs_block_name((enum cs_block)k),
                          cs_strerror(st));
            return st;
        }
    }
    /* Gradients travel at their reduce dtype: fp32 main_grad buffers
     * (Megatron, fsdp none/zero1), fp32 under PyTorch's FSDP in torchtitan
     * and Composer (their mixed-precision policies' reduce_dtype), 16-bit
     * with other ZeRO-2/3 and FSDP, or wherever grad_reduce_bf16 says so
     * (cs_memory_grad_reduce_bytes). */
    S.grad_bytes = cs_memory_grad_reduce_bytes(w);

    int g = c->gpus_per_node;
    /* The gradient communicator: the dp x cp ranks of one tp rank and stage
     * (context-parallel ranks reduce the same gradients; Megatron-Core's
     * data-parallel group with context parallel), tp apart. */
    long dp_stride = p->tp;
    int dpcp = p->dp * p->cp;
    S.dp_group = cs__group(&S, dpcp, dp_stride, CS_NET_RING);
    S.share_dp = cs__share_shown(&S, &S.dp_group);
    S.share_pp = NAN;
    if (p->fsdp == CS_FSDP_FULL) {
        S.shard_group = S.dp_group;
    } else if (p->fsdp == CS_FSDP_HYBRID) {
        int shard = cs_memory_shard_degree(w, &c->gpu);
        if (shard < 1)
            shard = 1;
        S.shard_group = cs__group(&S, shard, dp_stride, CS_NET_RING);
        S.repl_group = cs__group(&S, dpcp / shard, dp_stride * shard, CS_NET_RING);
    }

    /* Mixture of experts: the MoE layer, the EP communicator (ep ranks,
     * etp apart in the expert layers' rank order etp, ep, expert-dp), the
     * expert-DP one (etp ep apart), the routing's load (moe.h). */
    S.moe = cs_model_is_moe(&w->model);
    S.share_ep = NAN;
    if (S.moe) {
        if ((st = cs_compute_moe_layer(w, &c->gpu, &o->compute, &S.moe_layer)) != CS_OK) {
            cs_diag_error(d, NULL, 0, 0, "compute model (MoE layer): %s", cs_strerror(st));
            return st;
        }
        int ep = p->ep > 0 ? p->ep : 1, etp = p->etp > 0 ? p->etp : 1;
        int edp = cs_workload_expert_dp(w);
        S.ep_group = cs__group(&S, ep, etp, CS_NET_ALLTOALL);
        S.share_ep = cs__share_shown(&S, &S.ep_group);
        S.edp_group = cs__group(&S, edp, (long)ep * etp, CS_NET_RING);
        double t_r = (double)w->micro_batch * w->model.seq_len / p->cp / p->tp;
        S.load = cs_moe_load_sample(&w->model.moe, ep, t_r * w->model.moe.top_k, o->moe_seed);
        /* per byte, the expert-DP group's reduction against the DP group's */
        double B = o->dp_bucket_bytes > 0 ? o->dp_bucket_bytes : 1e8;
        enum cs_coll_op red = (p->fsdp == CS_FSDP_NONE) ? CS_COLL_ALL_REDUCE : CS_COLL_REDUCE_SCATTER;
        double te = edp > 1 ? cs__coll(&S, red, B, &S.edp_group) : 0.0;
        double td = S.dp_group.ranks > 1 ? cs__coll(&S, red, B, &S.dp_group) : 0.0;
        S.expert_grad_ratio = td > 0 ? te / td : 0.0;
        if (S.err != CS_OK) {
            cs_diag_error(d, NULL, 0, 0, "%s", S.err_msg);
            return S.err;
        }
    }

    /* Layers and MTP modules at another precision (cs__alt_delta) */
    if ((st = cs__alt_costs(&S, d)) != CS_OK)
        return st;

    S.bucket_bytes = o->dp_bucket_bytes;
    S.bucket_s = -1.0;
    if (p->fsdp == CS_FSDP_FULL || p->fsdp == CS_FSDP_HYBRID) {
        /* one layer's parameters; an MoE model's typical layer is an MoE
         * one, whose experts are sharded over the expert-DP group */
        const struct cs_layer_cost *ly = S.moe ? &S.moe_layer : &S.layer;
        struct cs_layer_cost mean;
        if (cs_model_is_hybrid(&w->model)) {
            /* a hybrid model's blocks differ: their mean (the gathers and
             * scatters run block by block) */
            memset(&mean, 0, sizeof mean);
            for (int i = 0; i < w->model.layers; i++) {
                enum cs_block k = cs_model_layer_slot(&w->model, i);
                const struct cs_layer_cost *b = k == CS_BLOCK_MOE ? &S.moe_layer : &S.block[k];
                mean.params += b->params / w->model.layers;
                mean.expert_params += b->expert_params / w->model.layers;
            }
            ly = &mean;
        }
        double own = ly->params - ly->expert_params;
        double pb = cs_memory_gather_bytes_per_param(w);
        S.fsdp_ag_s = cs__coll(&S, CS_COLL_ALL_GATHER, own * pb, &S.shard_group);
        S.fsdp_rs_s = cs__coll(&S, CS_COLL_REDUCE_SCATTER, own * S.grad_bytes, &S.shard_group);
        if (ly->expert_params > 0 && S.edp_group.ranks > 1) {
            S.fsdp_ag_s += cs__coll(&S, CS_COLL_ALL_GATHER, ly->expert_params * pb, &S.edp_group);
            S.fsdp_rs_s +=
                cs__coll(&S, CS_COLL_REDUCE_SCATTER, ly->expert_params * S.grad_bytes, &S.edp_group);
        }
    }
    S.st = cs_xcalloc((size_t)S.pp, sizeof *S.st);
    S.cc = cs_xcalloc((size_t)S.pp * S.vp, sizeof *S.cc);
    S.same_node_next = cs_xcalloc((size_t)S.pp, sizeof *S.same_node_next);
    cs__chunk_costs(&S, &emb, &logits);
    if (S.err != CS_OK) {
        cs_diag_error(d, NULL, 0, 0, "%s", S.err_msg);
        cs__free(&S);
        return S.err;
    }

    long pp_stride = (long)p->tp * p->cp * p->dp;
    for (int s = 0; s < S.pp; s++) {
        long a = (long)s * pp_stride, b = (long)((s + 1) % S.pp) * pp_stride;
        S.same_node_next[s] = a / g == b / g;
    }
    double act = S.layer.act_msg_bytes;
    struct cs_coll_group inter = cs_step_group(2, g, g), intra = cs_step_group(2, 1, g);
    inter.job_nodes = intra.job_nodes = (int)(cs_job_gpus(c, w) / g);
    if (S.pp > 1) {
        /* Every stage boundary sends at once in the steady state: the
         * pipeline communicator's chain gives the share of one send. */
        struct cs_coll_group ppg = cs__group(&S, S.pp, pp_stride, CS_NET_CHAIN);
        inter.net_share = ppg.net_share;
        S.share_pp = cs__share_shown(&S, &ppg);
    }
    intra.groups_per_node = g / 2 > 0 ? g / 2 : 1;
    S.fwd_p2p_s[0] = S.bwd_p2p_s[0] = S.pp > 1 ? cs__coll(&S, CS_COLL_SENDRECV, act, &inter) : 0;
    S.fwd_p2p_s[1] = S.bwd_p2p_s[1] = S.pp > 1 ? cs__coll(&S, CS_COLL_SENDRECV, act, &intra) : 0;

    int nidx = S.m * S.vp;
    for (int s = 0; s < S.pp; s++) {
        struct cs__stage *sg = &S.st[s];
        cs__build_schedule(&S, s);
        sg->f_in = cs_xmalloc((size_t)nidx * sizeof *sg->f_in);
        sg->b_in = cs_xmalloc((size_t)nidx * sizeof *sg->b_in);
        sg->f_in_prod = cs_xmalloc((size_t)nidx * sizeof *sg->f_in_prod);
        sg->b_in_prod = cs_xmalloc((size_t)nidx * sizeof *sg->b_in_prod);
        for (int i = 0; i < nidx; i++)
            sg->f_in[i] = sg->b_in[i] = -1; /* the _prod times are read only once these are set */
    }

    uint64_t events = 0;
    if (!on_engine) {
        if (!cs__direct_run(&S, &events)) {
            /* something unusual: the engine's run says what, as it always did */
            cs__free(&S);
            return cs__simulate(c, w, o, scratch, true, d, out);
        }
    } else {
        if (scratch) {
            cs_sim_reset(scratch, 0);
            S.e = scratch;
        } else {
            S.e = cs_sim_create(0);
            S.own_engine = true;
        }
        S.h_done = cs_sim_register(S.e, "step.op_done", cs__on_done, &S);
        S.h_arrive = cs_sim_register(S.e, "step.wake", cs__on_wake, &S);
        for (int s = 0; s < S.pp; s++)
            cs__try_start(&S, s);
        if (cs_sim_run(S.e, CS_SIM_FOREVER) == CS_EBUDGET) {
            /* the engine's default budgets (sim.h): a step is a few thousand
             * events; reaching them is a schedule no validation caught */
            cs_diag_error(d, NULL, 0, 0, "step: the step simulation did not complete: it reached the "
                          "engine's budget of %llu events or %.0f s of wall time",
                          (unsigned long long)CS_SIM_DEFAULT_MAX_EVENTS, CS_SIM_DEFAULT_MAX_WALL_S);
            cs__free(&S);
            return CS_EBUDGET;
        }
        events = cs_sim_events_processed(S.e);
    }
    if (S.err != CS_OK) {
        cs_diag_error(d, NULL, 0, 0, "%s", S.err_msg);
        cs__free(&S);
        return S.err;
    }
    for (int s = 0; s < S.pp; s++)
        if (S.st[s].next < S.st[s].nops || S.st[s].busy)
            S.failed = true;
    if (S.failed) {
        cs_diag_error(d, NULL, 0, 0, "step simulation stalled (pipeline schedule deadlock)");
        cs__free(&S);
        return CS_EINVAL;
    }

    /* Finish each stage: exposed DP communication, optimizer step. */
    int crit = 0;
    for (int s = 0; s < S.pp; s++) {
        struct cs__stage *sg = &S.st[s];
        double end = cs_time_to_s(sg->last_end);
        sg->compute_end_s = end;
        double comm_end = sg->comm_free_s > sg->repl_free_s ? sg->comm_free_s : sg->repl_free_s;
        if (!o->dp_overlap && S.dp > 1 && (p->fsdp == CS_FSDP_NONE || p->fsdp == CS_FSDP_ZERO1 ||
                                            p->fsdp == CS_FSDP_ZERO2)) {
            /* buckets were parked at +inf: reduce them now, back to back */
            comm_end = end + sg->dp_total_s;
        }
        double after = comm_end > end ? comm_end : end;
        sg->dp_exposed_s = after - end + sg->fsdp_wait_s;
        double params = 0, experts = 0;
        for (int ch = 0; ch < S.vp; ch++) {
            params += cs__cost(&S, s, ch)->params;
            experts += cs__cost(&S, s, ch)->expert_params;
        }
        double opt_params = params;
        int edp = S.moe ? cs_workload_expert_dp(w) : 1;
        if (p->fsdp != CS_FSDP_NONE) {
            int shard = p->fsdp == CS_FSDP_HYBRID ? S.shard_group.ranks : S.dp_group.ranks;
            /* the experts' states are sharded over the expert-DP group */
            int eshard = p->fsdp == CS_FSDP_HYBRID ? (edp < shard ? edp : shard) : edp;
            opt_params = (params - experts) / shard + experts / (eshard > 0 ? eshard : 1);
        }
        sg->optimizer_s = cs_compute_optimizer_s(w, &c->gpu, &o->compute, opt_params);
        double extra = 0, ag_slow = 0;
        if ((p->fsdp == CS_FSDP_ZERO1 || p->fsdp == CS_FSDP_ZERO2) && S.dp > 1) {
            /* updated parameter shards are all-gathered; Megatron overlaps
             * this with the next step's forward when overlap is on */
            double pb = cs_memory_gather_bytes_per_param(w);
            double t = cs__coll(&S, CS_COLL_ALL_GATHER, (params - experts) * pb, &S.dp_group);
            if (experts > 0 && edp > 1)
                t += cs__coll(&S, CS_COLL_ALL_GATHER, experts * pb, &S.edp_group);
            sg->dp_total_s += t;
            if (!o->dp_overlap) {
                extra = t;
            } else {
                extra = cs__param_gather_exposed_s(&S, s, t);
                /* the forward shares the GPU with the gather it hides, as
                 * the backward does with the reduce-scatters (overlap_slowdown
                 * per second overlapped; docs/step.md) */
                ag_slow = o->overlap_slowdown * (t - extra);
            }
        }
        sg->dp_exposed_s += extra;
        sg->compute_s += ag_slow;
        sg->end_s = after + sg->optimizer_s + extra + ag_slow;
        if (sg->end_s > S.st[crit].end_s)
            crit = s;
    }
    if (S.err != CS_OK) {
        cs_diag_error(d, NULL, 0, 0, "%s", S.err_msg);
        cs__free(&S);
        return S.err;
    }
    const struct cs__stage *cr = &S.st[crit];
    r.critical_stage = crit;
    r.time_s = cr->end_s;
    r.compute_s = cr->compute_s;
    r.host_wait_s = cr->host_s;
    /* every stage's host issues all its operations: the longest is a lower
     * bound of the step */
    r.host_issue_s = 0.0;
    for (int s = 0; s < S.pp; s++)
        if (S.st[s].host_issue_s > r.host_issue_s)
            r.host_issue_s = S.st[s].host_issue_s;
    r.tp_comm_s = cr->tp_s;
    r.pp_comm_s = cr->pp_s;
    r.bubble_s = cr->bubble_s;
    r.dp_comm_s = cr->dp_exposed_s;
    r.optimizer_s = cr->optimizer_s;
    r.dp_comm_total_s = cr->dp_total_s;
    r.ep_comm_s = r.moe_imbalance_s = 0.0;
    double crit_ep_s = 0.0;
    r.moe_load = 1.0;
    r.moe_dropped = 0.0;
    r.ep_net_share = S.share_ep;
    if (S.moe) {
        /* dispatch/combine and imbalance of the busiest stage (the one
         * that paces the pipeline: with leading dense layers the critical,
         * last-finishing stage may hold no MoE layer and only wait on it),
         * every op of its chunks once per micro-batch; the critical
         * stage's own exposed all-to-alls were timed with its TP
         * collectives and are reported apart from them */
        int busiest = 0;
        double most = -1.0;
        for (int s = 0; s < S.pp; s++) {
            double busy = 0.0;
            for (int ch = 0; ch < S.vp; ch++) {
                const struct cs__chunk_cost *cc = cs__cost(&S, s, ch);
                busy += cc->f_compute_s + cc->b_compute_s + cc->f_tp_s + cc->b_tp_s;
            }
            if (busy > most) {
                most = busy;
                busiest = s;
            }
        }
        double crit_ep = 0.0;
        for (int ch = 0; ch < S.vp; ch++) {
            const struct cs__chunk_cost *cc = cs__cost(&S, busiest, ch);
            r.ep_comm_s += S.m * (cc->f_ep_s + cc->b_ep_s);
            r.moe_imbalance_s += S.m * (cc->f_imb_s + cc->b_imb_s);
            const struct cs__chunk_cost *cr2 = cs__cost(&S, crit, ch);
            crit_ep += S.m * (cr2->f_ep_s + cr2->b_ep_s);
        }
        /* what is left of the sum once the all-to-alls leave it; a rest
         * below a billionth of the sum is round-off (tp 1: no TP at all) */
        double rest = r.tp_comm_s - crit_ep;
        r.tp_comm_s = rest > 1e-9 * r.tp_comm_s ? rest : 0.0;
        crit_ep_s = crit_ep;
        r.moe_stage = busiest;
        r.moe_load = S.load.max_over_mean;
        r.moe_dropped = S.load.dropped;
    }
    r.data_stall_s = 0.0;
    r.exposed_comm_s = r.tp_comm_s + r.pp_comm_s + r.dp_comm_s + crit_ep_s;
    long gpus = cs_job_gpus(c, w);
    r.tokens_per_s = (double)w->global_batch * w->model.seq_len / r.time_s;
    r.tflops_per_gpu = r.hw_flops_per_iter / r.time_s / (double)gpus / 1e12;
    r.mfu = r.model_flops_per_iter / r.time_s / (double)gpus / c->gpu.peak_flops[w->precision];
    r.events = events;
    r.tp_net_share = S.share_tp;
    r.cp_net_share = S.share_cp;
    r.dp_net_share = S.share_dp;
    r.pp_net_share = S.share_pp;
    cs__free(&S);
    *out = r;
    return CS_OK;
}
