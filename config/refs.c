#define _POSIX_C_SOURCE 200809L /* fmemopen */
/* refs.c: reads the published step-time tables of validation/
 * throughput/ into validation cases (see refs.h). Each row is turned into a
 * small scenario text and resolved by the ordinary scenario loader, so the
 * catalog's GPU and network figures are the ones every user gets. */
#include "clustersim/base/csv.h"
#include "clustersim/base/numparse.h"
#include "clustersim/config/refs.h"

#include "clustersim/config/config.h"
#include "clustersim/config/fileio.h"
#include "clustersim/models/memory.h"
#include "clustersim/base/xmalloc.h"

#include <errno.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CS__MAXCOLS 32
#define CS__LINE_MAX 4096

enum cs__fmt { CS__SC21, CS__KORTHI, CS__MCORE, CS__GENERIC };

struct cs__cols {
    char *name[CS__MAXCOLS];
    int n;
};

/* Splits a CSV line in place (no quoting in these files). */
/* Splits a line in place (base/csv.h); -1 for too many cells, -2 for a
 * broken quote. */
static int cs__split(char *line, char **cells, int max)
{
    return cs_csv_split_inplace(line, cells, NULL, max, NULL);
}

static int cs__col(const struct cs__cols *h, const char *name)
{
    for (int i = 0; i < h->n; i++)
        if (strcmp(h->name[i], name) == 0)
            return i;
    return -1;
}

static void cs__chomp(char *s)
{
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' '))
        s[--n] = '\0';
}

struct cs__row {
    const char *file;
    int line;
    char **cells;
    const struct cs__cols *h;
    cs_diags *d;
    bool ok;
};

static const char *cs__get(struct cs__row *r, const char *name)
{
    int i = cs__col(r->h, name);
    if (i < 0 || !r->cells[i] || !*r->cells[i]) {
        cs_diag_error(r->d, r->file, r->line, 0, "column \"%s\": expected a value, got nothing",
                      name);
        r->ok = false;
        return "0";
    }
    return r->cells[i];
}

static double cs__num(struct cs__row *r, const char *name)
{
    const char *s = cs__get(r, name);
    double v = 0;
    if (!cs_num_parse_double(s, &v)) {
        cs_diag_error(r->d, r->file, r->line, 0, "column \"%s\": expected a number, got \"%s\"",
                      name, s);
        r->ok = false;
        return 0;
    }
    return v;
}

static long cs__int(struct cs__row *r, const char *name)
{
    double v = cs__num(r, name);
    if (v != floor(v) || v < 0 || v > 1e9) {
        cs_diag_error(r->d, r->file, r->line, 0,
                      "column \"%s\": expected a whole number, got %g", name, v);
        r->ok = false;
        return 0;
    }
    return (long)v;
}

/* What a row's scenario states (both readers). */
struct cs__spec {
    const char *gpu, *fabric, *model, *activation, *dropout, *precision, *recompute, *fsdp,
        *stack;
    long nodes, ppn, layers, hidden, heads, kv, ffn, seq, vocab, gb, mb, tp, pp, cp, dp, vp;
    bool sp;
    /* mixture of experts: the model preset that gives the experts (NULL:
     * dense, the shape above), its routing (NULL: the preset's), ep */
    const char *preset, *routing;
    long ep;
    bool grad_bf16;
    const char *rc_modules;   /* "a, b": Megatron-Core's recompute_modules (NULL: none given) */
    const char *off_modules;  /* "a, b": its offload_modules (NULL: none) */
    bool account_split;       /* embedding and loss count as pipeline layers */
    const char *wflags;       /* the index's workload_flags as scenario lines (NULL: none) */
    bool a2a_overlap;         /* the row ran with EP communication overlap */
    long rc_layers;           /* "full:N": N layers per virtual stage recomputed (0: all) */
    long off_layers;          /* "/cpu_offload:N": N layers' activations in host memory */
    const char *attn;         /* the row's attention column: "on" (fused), "off", NULL: the stack's */
    const char *dispatcher;   /* "/dispatch:X": the row's token dispatcher (NULL: the stack's) */
    const char *graphs;       /* "/graphs[:scope]": the run captured CUDA graphs, their scope
                                 (layer, attn, iteration; NULL: none) */
    const char *ce;           /* the row's cross_entropy column (NULL: the stack's) */
    bool fp8_attn;            /* "/fp8_attn": the attention core ran in FP8 (fp8_dot_product_attention) */
    const char *layout;       /* "/layout:X": Megatron-Core's pipeline layout (NULL: the default split) */
    bool fused_mlp;           /* "/fused_mlp": the experts' MLP fused (use_transformer_engine_op_fuser) */
    const char *quant;        /* "/bf16_end:N", "/modprec:...": the scenario's bf16_layers_at_end and
                                 module_precision lines (NULL: none) */
    bool eager_norm;          /* "/eager_norm": the norms ran as eager PyTorch ops (norm_kernel eager) */
    bool no_tp_overlap;       /* "/no_tp_overlap": the run's recipe set no TP communication overlap */
    bool no_compile;          /* "/no_compile": the run's model ran eager (torch_compile off) */
};

/* Writes the row's scenario text and resolves it through the ordinary
 * loader (so the catalog's figures are the ones every user gets). */
static bool cs__resolve(struct cs__row *r, const cs_catalog *cat, const struct cs__spec *p,
                        struct cs_ref_case *c)
{
    /* the index's flags, less a param_gather flag of another precision
     * (Megatron-Bridge's fp8 presets set fp8_param_gather, its nvfp4 one
     * fp4_param_gather; a table holds rows of both) */
    char flags[256] = "";
    if (p->wflags) {
        bool f8 = strcmp(p->precision, "fp8") == 0 || strcmp(p->precision, "mxfp8") == 0;
        bool f4 = strcmp(p->precision, "nvfp4") == 0;
        const char *q = p->wflags;
        size_t at0 = 0;
        while (*q) {
            size_t len = strcspn(q, "\n");
            bool skip = (!f8 && strncmp(q, "  fp8_param_gather:", 19) == 0) ||
                        (!f4 && strncmp(q, "  fp4_param_gather:", 19) == 0);
            if (!skip && at0 < sizeof flags)
                at0 += (size_t)snprintf(flags + at0, sizeof flags - at0, "%.*s\n", (int)len, q);
            q += len;
            if (*q == '\n')
                q++;
        }
    }
    /* "full:N" and "/cpu_offload:N" as their own keys (both, when a cell
     * gives both: the loader judges the combination) */
    char rc_layers[96] = "", attn[320] = "", graphs[96] = "";
    if (p->graphs && strcmp(p->graphs, cs_graph_scope_names[CS_GRAPH_SCOPE_LAYER]) == 0)
        snprintf(graphs, sizeof graphs, "  cuda_graphs: true\n");
    else if (p->graphs)
        snprintf(graphs, sizeof graphs, "  cuda_graphs: true\n  cuda_graph_scope: %s\n", p->graphs);
    if (p->attn || p->graphs || p->ce || p->fp8_attn || p->fused_mlp || p->eager_norm ||
        p->no_tp_overlap || p->no_compile)
        snprintf(attn, sizeof attn, "%s%s%s%s%s%s%s%s%s%s%s%s", p->attn ? "  fused_attention: " : "",
                 p->attn ? p->attn : "", p->attn ? "\n" : "",
                 graphs, p->ce ? "  cross_entropy: " : "",
                 p->ce ? p->ce : "", p->ce ? "\n" : "",
                 p->fp8_attn ? "  fp8_attention: true\n" : "",
                 p->fused_mlp ? "  fused_grouped_mlp: true\n" : "",
                 p->eager_norm ? "  norm_kernel: eager\n" : "",
                 p->no_tp_overlap ? "  tp_comm_overlap: 0\n" : "",
                 p->no_compile ? "  torch_compile: off\n" : "");
    size_t at = 0;
    if (p->rc_layers > 0)
        at += (size_t)snprintf(rc_layers, sizeof rc_layers, "  recompute_layers: %ld\n", p->rc_layers);
    if (p->off_layers > 0 && at < sizeof rc_layers)
        snprintf(rc_layers + at, sizeof rc_layers - at, "  activation_offload_layers: %ld\n",
                 p->off_layers);
    char model[512];
    if (p->preset) {
        char moe[200] = "";
        size_t k = 0;
        if (p->routing)
            k += (size_t)snprintf(moe + k, sizeof moe - k, "routing: %s", p->routing);
        if (p->a2a_overlap && k < sizeof moe)
            k += (size_t)snprintf(moe + k, sizeof moe - k, "%sa2a_overlap: 1", k ? ", " : "");
        if (p->dispatcher && k < sizeof moe)
            snprintf(moe + k, sizeof moe - k, "%sdispatcher: %s", k ? ", " : "", p->dispatcher);
        snprintf(model, sizeof model, "preset: %s, seq_len: %ld, moe: {%s}", p->preset, p->seq, moe);
    }
    else
        snprintf(model, sizeof model,
                 "name: \"%s\", layers: %ld, hidden: %ld, heads: %ld, kv_heads: %ld, ffn_hidden: %ld, "
                 "seq_len: %ld, vocab: %ld, activation: %s%s%s",
                 p->model, p->layers, p->hidden, p->heads, p->kv, p->ffn, p->seq, p->vocab,
                 p->activation, p->dropout ? ", dropout: " : "", p->dropout ? p->dropout : "");
    char *text = cs_xasprintf(
        "schema_version: 1\n"
        "name: \"%s\"\n"
        "cluster:\n"
        "  gpu: %s\n"
        "  nodes: %ld\n"
        "  gpus_per_node: %ld\n"
        "  intra_node: nvswitch\n"
        "  fabric: %s\n"
        "workload:\n"
        "  model: {%s}\n"
        "  global_batch: %ld\n"
        "  micro_batch: %ld\n"
        "  parallelism: {tp: %ld, pp: %ld, cp: %ld, dp: %ld, vp: %ld, sp: %s, fsdp: %s, ep: %ld%s%s%s%s}\n"
        "  recompute: %s\n"
        "%s"
        "  precision: %s\n"
        "%s%s%s%s%s%s%s%s%s%s%s%s%s",
        c->label, p->gpu, p->nodes, p->ppn, p->fabric, model, p->gb, p->mb, p->tp, p->pp, p->cp,
        p->dp, p->vp, p->sp ? "true" : "false", p->fsdp, p->ep > 0 ? p->ep : 1,
        p->account_split ? ", account_for_embedding_in_pipeline_split: true, "
                           "account_for_loss_in_pipeline_split: true"
                         : "",
        p->layout ? ", pipeline_layout: \"" : "", p->layout ? p->layout : "", p->layout ? "\"" : "",
        p->recompute, rc_layers,
        p->precision,
        p->stack ? "  stack: " : "", p->stack ? p->stack : "", p->stack ? "\n" : "",
        p->grad_bf16 ? "  grad_reduce_bf16: true\n" : "",
        p->rc_modules ? "  recompute_modules: [" : "", p->rc_modules ? p->rc_modules : "",
        p->rc_modules ? "]\n" : "", p->off_modules ? "  offload_modules: [" : "",
        p->off_modules ? p->off_modules : "", p->off_modules ? "]\n" : "", attn, flags,
        p->quant ? p->quant : "");
    char name[320];
    snprintf(name, sizeof name, "%s:%d", r->file, r->line);
    cs_status st = cs_cfg_load_scenario_buffer(name, text, strlen(text), cat, r->d, &c->scen, NULL);
    free(c->text);
    c->text = st == CS_OK ? text : NULL;
    if (st != CS_OK)
        free(text);
    return st == CS_OK;
}

/* Builds the scenario of one first-wave row and resolves it. */
static bool cs__make(struct cs__row *r, const cs_catalog *cat, const char *gpu, const char *link,
                     const char *model, long layers, long hidden, long heads, long seq,
                     long vocab, long gpus, long tp, long pp, long vp, long gbatch, long mbatch,
                     const char *precision, const char *recompute, bool sp, const char *fsdp,
                     struct cs_ref_case *c)
{
    long nodes = gpus / 8;
    if (nodes < 1 || nodes * 8 != gpus || tp * pp < 1 || gpus % (tp * pp) != 0) {
        cs_diag_error(r->d, r->file, r->line, 0,
                      "row: %ld GPUs do not make whole 8-GPU nodes or tp*pp=%ld does not divide "
                      "them",
                      gpus, tp * pp);
        return false;
    }
    long dp = gpus / (tp * pp);
    char fabric[128];
    snprintf(fabric, sizeof fabric,
             "{topology: fat-tree, link: %s, nics_per_node: 8, oversubscription: 1}", link);
    struct cs__spec p = {gpu, fabric, model, "gelu", NULL, precision, recompute, fsdp, NULL,
                         nodes, 8, layers, hidden, heads, heads, 4 * hidden, seq, vocab, gbatch,
                         mbatch, tp, pp, 1, dp, vp, sp, NULL, NULL, 1, false, NULL, NULL, false,
                         /* Megatron-LM and Megatron-Core: fused attention through
                          * Transformer Engine, which runs cuDNN's kernels on
                          * sm90 (the H100 table; no effect on the unfused A100
                          * rows) */
                         "  attention_kernel: cudnn\n", false, 0, 0, NULL, NULL, false, NULL, false, NULL,
                         false, NULL, false, false, false};
    return cs__resolve(r, cat, &p, c);
}

static void cs__push(struct cs_ref_case **cases, size_t *n, size_t *cap, const struct cs_ref_case *c)
{
    if (*n == *cap) {
        *cap = *cap ? *cap * 2 : 16;
        *cases = cs_xrealloc(*cases, *cap, sizeof **cases);
    }
    (*cases)[(*n)++] = *c;
}

static const char *cs__base(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* The cell of column `name`, NULL when the column is absent or empty. */
static const char *cs__opt(struct cs__row *r, const char *name)
{
    int i = cs__col(r->h, name);
    return i >= 0 && r->cells[i] && *r->cells[i] ? r->cells[i] : NULL;
}

/* A whole-number cell that may be empty (0 then). */
static long cs__opt_int(struct cs__row *r, const char *name)
{
    return cs__opt(r, name) ? cs__int(r, name) : 0;
}

/* The columns of the common schema (validation/step/SOURCES.md). */
static const char *const cs__generic_cols[] = {
    "model", "gpu", "gpus", "nodes", "layers", "hidden", "ffn_hidden", "heads", "kv_heads",
    "vocab", "seq_len", "activation", "global_batch", "micro_batch", "tp", "pp", "cp", "vp",
    "dp", "ep", "fsdp", "precision", "recompute", "tokens_per_s_per_gpu", "tflops_per_gpu",
    "mfu", "step_time_s", NULL};

/* One common-schema row: a case, possibly not expressible (with the
 * reason). Returns false (diagnostic given) for a malformed row. */
/* Model FLOPs per token in Megatron-LM's convention (megatron/training/
 * training.py, num_floating_point_operations, which NeMo 24.x reports):
 * forward and backward (x3), every attention score counted (no causal
 * halving), the logits, no recomputation:
 *   12 L h^2 (1 + kv/a + s/h + g f/h) + 6 h V, g = 3/2 for a gated MLP, 1 else. */
static double cs__megatron_flops_per_token(long layers, long hidden, long heads, long kv,
                                           long ffn, long seq, long vocab, bool gated)
{
    double L = layers, h = hidden, a = heads, k = kv ? kv : heads, f = ffn, s = seq, V = vocab;
    return 12.0 * L * h * h * (1.0 + k / a + s / h + (gated ? 1.5 : 1.0) * f / h) + 6.0 * h * V;
}

/* A row whose stated degrees and micro-batch cannot fit even with every
 * layer recomputed and no allocator reserve (the memory model's smallest
 * footprint for them: weights, gradients and optimizer state, which no
 * recomputation changes, and the layer inputs) does not describe a run that
 * ran: some setting the page does not state (FSDP, offload) or a misplaced
 * cell. It is listed as inconsistent, with the figures, instead of being
 * predicted "does not fit" (docs/validation.md, "Inconsistent rows"). A
 * row that fits that way but not as stated stays a memory-model miss. */
static void cs__static_state_check(struct cs_ref_case *c)
{
    if (c->not_expressible[0])
        return;
    struct cs_workload w = c->scen.workload;
    w.recompute = CS_RECOMPUTE_FULL;
    w.recompute_layers = 0;
    if (c->search_micro_batch)
        w.micro_batch = 1;
    struct cs_memory_breakdown mb;
    if (cs_memory_per_gpu(&w, &c->scen.cluster.gpu, &mb) != CS_OK)
        return;   /* the step reports what is wrong with the workload itself */
    if (!(mb.total_bytes > mb.capacity_bytes))
        return;
    snprintf(c->not_expressible, sizeof c->not_expressible,
             "needs %.0f GB/GPU with every layer recomputed (%.0f GB weights, gradients, optimizer), "
             "over %.0f GB of HBM: the row's cells are inconsistent",
             mb.total_bytes / 1e9, (mb.weights_bytes + mb.grads_bytes + mb.optimizer_bytes) / 1e9,
             mb.capacity_bytes / 1e9);
    /* a row not expressible holds no scenario (cs_refs_free finalizes only
     * the others) */
    cs_scenario_fini(&c->scen);
    memset(&c->scen, 0, sizeof c->scen);
    free(c->text);
    c->text = NULL;
}

/* A cell's "a+b" module list as the YAML flow list "a, b" (name
 * characters only: the scenario loader checks the names). */
static void cs__module_list(const char *cell, char *out, size_t len)
{
    size_t k = 0;
    for (const char *q = cell; *q && k + 3 < len; q++) {
        if (*q == '+') {
            out[k++] = ',';
            out[k++] = ' ';
        } else if (isalnum((unsigned char)*q) || *q == '_') {
            out[k++] = *q;
        }
    }
    out[k] = 0;
}

static bool cs__ce_known(const char *ce)
{
    for (int k = CS_CE_FUSED; k < CS_CE_COUNT; k++)
        if (strcmp(ce, cs_cross_entropy_names[k]) == 0)
            return true;
    return false;
}

/* A valued suffix `key` of a recompute cell ("/dispatch:", "/layout:"):
 * when *rc holds it, its value (up to the next '/' or the end) is copied to
 * val (vlen bytes; *vfull gets its whole length, which may not fit), a copy
 * of the cell without the suffix goes to buf (*rc then points there), and
 * true is returned; false when the cell has no such suffix. */
static bool cs__take_value(const char **rc, const char *key, char *buf, size_t len, char *val,
                           size_t vlen, size_t *vfull)
{
    if (!*rc || !strstr(*rc, key))
        return false;
    snprintf(buf, len, "%s", *rc);
    char *cut = strstr(buf, key);
    char *v = cut + strlen(key), *rest = strchr(v, '/');
    size_t n = rest ? (size_t)(rest - v) : strlen(v);
    *vfull = n;
    snprintf(val, vlen, "%.*s", (int)n, v);
    memmove(cut, v + n, strlen(v + n) + 1);
    *rc = buf;
    return true;
}

/* A value-less suffix `flag` of a recompute cell (e.g. "/graphs"): when
 * *rc holds it, a copy without it goes to buf (*rc then points there) and
 * *on is set; followed by anything but '/' or the end, it is an error naming
 * the row. Returns false on that error. */
static bool cs__take_flag(const struct cs__row *r, const char **rc, const char *flag, char *buf,
                          size_t len, bool *on)
{
    if (!*rc || !strstr(*rc, flag))
        return true;
    size_t n = strlen(flag);
    snprintf(buf, len, "%s", *rc);
    char *cut = strstr(buf, flag);
    if (cut[n] != 0 && cut[n] != '/') {
        cs_diag_error(r->d, r->file, r->line, 0, "column \"recompute\": \"%s\" takes no value (got \"%s\")",
                      flag, *rc);
        return false;
    }
    memmove(cut, cut + n, strlen(cut + n) + 1);
    *rc = buf;
    *on = true;
    return true;
}

static bool cs__generic_row(struct cs__row *r, const cs_catalog *cat, enum cs_stack stack,
                            const char *link, long nics, bool no_sp, const char *dropout,
                            const char *flops,
                            const char *moe_routing, bool grad_bf16, const char *wflags,
                            const char *table_ce, struct cs_ref_case *c)
{
    const char *model = cs__get(r, "model");
    const char *gpu = cs__get(r, "gpu");
    long gpus = cs__int(r, "gpus"), nodes = cs__int(r, "nodes");
    long tp = cs__int(r, "tp"), pp = cs__int(r, "pp"), gb = cs__int(r, "global_batch");
    long cp = cs__opt_int(r, "cp"), vp = cs__opt_int(r, "vp"), ep = cs__opt_int(r, "ep");
    long dp = cs__opt_int(r, "dp"), mb = cs__opt_int(r, "micro_batch");
    const char *prec = cs__get(r, "precision");
    /* Block-wise FP8 (DeepSeek-V3's 1x128 activation and 128x128 weight
     * tiles; Transformer Engine's Float8BlockScaling): precision fp8 with
     * workload.fp8_recipe blockwise (the tiles' scales, 4 bytes per 128
     * elements, left out of the memory) */
    bool fp8_block = prec && strcmp(prec, "fp8-blockwise") == 0;
    if (fp8_block)
        prec = "fp8";
    const char *fsdp = cs__opt(r, "fsdp");
    const char *rc = cs__opt(r, "recompute");
    /* torchtitan's "selective" is its per-op checkpointing (the tables say
     * 'selective op'), not Megatron's. */
    char rc_tt[200];
    if (rc && stack == CS_STACK_TORCHTITAN && strncmp(rc, "selective", 9) == 0 &&
        (rc[9] == '\0' || rc[9] == '/')) {
        snprintf(rc_tt, sizeof rc_tt, "op%s", rc + 9);
        rc = rc_tt;
    }
    /* ".../offload:expert_fc1+moe_act": Megatron-Core's offload_modules */
    char rc_buf[200] = "", off_mods[160] = "";
    /* ".../a2a_overlap": the run overlapped its dispatch and combine with
     * compute (Megatron-Core's overlap_moe_expert_parallel_comm, the
     * ModelZoo's A2A_OVERLAP=1 and '+1f1b overlap'; DualPipe) */
    bool a2a_ov = false;
    char rc_ov[200];
    /* ".../dispatch:alltoall" (anywhere before /a2a_overlap): the run's
     * token dispatcher, Megatron-Core's moe_token_dispatcher_type alltoall,
     * or hierarchical for flex with DeepEP / HybridEP */
    const char *disp = NULL;
    char rc_disp[200], dname[16];
    const char *rc_cell = rc;
    size_t dlen = 0;
    if (cs__take_value(&rc, "/dispatch:", rc_disp, sizeof rc_disp, dname, sizeof dname, &dlen)) {
        if (dlen < sizeof dname && strcmp(dname, "alltoall") == 0)
            disp = "alltoall";
        else if (dlen < sizeof dname && strcmp(dname, "hierarchical") == 0)
            disp = "hierarchical";
        else {
            cs_diag_error(r->d, r->file, r->line, 0,
                          "column \"recompute\": \"/dispatch:\" takes alltoall or hierarchical (got \"%s\")",
                          rc_cell);
            return false;
        }
    }
    /* ".../layout:Et*4|(t*4|)*14tmL" (anywhere before /a2a_overlap): the
     * run's pipeline layout (Megatron-Core's pipeline_model_parallel_layout,
     * as its recipe states it; validation/recipes/). Its text has no '/'. */
    char layout[CS_LAYOUT_TEXT_MAX] = "";
    char rc_lay[200];
    size_t llen = 0;
    rc_cell = rc;
    if (cs__take_value(&rc, "/layout:", rc_lay, sizeof rc_lay, layout, sizeof layout, &llen) &&
        (llen == 0 || llen >= sizeof layout || strpbrk(layout, "\"\\"))) {
        cs_diag_error(r->d, r->file, r->line, 0,
                      "column \"recompute\": \"/layout:\" takes a pipeline layout of 1 to %d "
                      "characters without quotes (got \"%s\")",
                      (int)sizeof layout - 1, rc_cell);
        return false;
    }
    /* ".../graphs" or ".../graphs:SCOPE" (anywhere before /a2a_overlap):
     * the run replayed CUDA graphs (the recipes' columns cuda_graph_impl
     * and cuda_graph_scope, validation/recipes/): "/graphs" per layer
     * (Megatron-Core's local per-layer graphs, enable_cuda_graph),
     * "/graphs:attn" Transformer Engine's attn + moe_router +
     * moe_preprocess scopes (the rest of the layer eager),
     * "/graphs:iteration" full_iteration, and for hybrid models
     * "/graphs:mamba" (the Mamba-2 mixers only) and "/graphs:attn+mamba"
     * (TE's attn, mamba, moe_router, moe_preprocess scopes)
     * (workload.cuda_graph_scope) */
    const char *graphs = NULL;
    char rc_gr[200], rc_gs[200], gscope[16];
    size_t glen = 0;
    bool gflag = false;
    rc_cell = rc;
    if (cs__take_value(&rc, "/graphs:", rc_gs, sizeof rc_gs, gscope, sizeof gscope, &glen)) {
        for (int g = 0; cs_graph_scope_names[g] && !graphs; g++)
            if (glen < sizeof gscope && strcmp(gscope, cs_graph_scope_names[g]) == 0)
                graphs = cs_graph_scope_names[g];
        if (!graphs) {
            cs_diag_error(r->d, r->file, r->line, 0,
                          "column \"recompute\": \"/graphs:\" takes layer, attn, iteration, mamba or "
                          "attn+mamba (got \"%s\")",
                          rc_cell);
            return false;
        }
    }
    if (!cs__take_flag(r, &rc, "/graphs", rc_gr, sizeof rc_gr, &gflag))
        return false;
    if (gflag && graphs) {
        cs_diag_error(r->d, r->file, r->line, 0,
                      "column \"recompute\": \"/graphs\" given twice (got \"%s\")", rc_cell);
        return false;
    }
    if (gflag)
        graphs = cs_graph_scope_names[CS_GRAPH_SCOPE_LAYER];
    /* ".../fp8_attn" (anywhere before /a2a_overlap): the attention core ran
     * in FP8 (Megatron-Bridge's fp8_dot_product_attention; the recipes'
     * column fp8_attention, validation/recipes/) */
    bool fp8_attn = false;
    char rc_fa[200];
    if (!cs__take_flag(r, &rc, "/fp8_attn", rc_fa, sizeof rc_fa, &fp8_attn))
        return false;
    /* ".../fused_mlp" (anywhere before /a2a_overlap): the experts' MLP ran
     * fused (Megatron-Core's use_transformer_engine_op_fuser, which asserts
     * TE's CuTe DSL grouped MLP for GLU experts; the recipes' 'other'
     * column, validation/recipes/) */
    bool fused_mlp = false;
    char rc_fm[200];
    if (!cs__take_flag(r, &rc, "/fused_mlp", rc_fm, sizeof rc_fm, &fused_mlp))
        return false;
    /* ".../eager_norm" (anywhere before /a2a_overlap): the run's norms
     * were eager PyTorch ops (torchtitan's norm_type rmsnorm without
     * torch.compile; workload.norm_kernel eager, judged by the loader) */
    bool eager_norm = false;
    char rc_en[200];
    if (!cs__take_flag(r, &rc, "/eager_norm", rc_en, sizeof rc_en, &eager_norm))
        return false;
    /* ".../no_tp_overlap" (anywhere before /a2a_overlap): the run's recipe
     * set no TP communication overlap where the stack's preset has it
     * (Megatron-Bridge's Nemotron 3 Super recipes: no comm_overlap, so
     * Megatron-Core's tp_comm_overlap False; workload.tp_comm_overlap 0) */
    bool no_tp_ov = false;
    char rc_nt[200];
    if (!cs__take_flag(r, &rc, "/no_tp_overlap", rc_nt, sizeof rc_nt, &no_tp_ov))
        return false;
    /* ".../no_compile" (anywhere before /a2a_overlap): this row's model ran
     * eager where others of its table were compiled (IBM's fms-fsdp tables:
     * one eager, one torch.compile'd; workload.torch_compile off, which the
     * loader accepts under stack torchtitan only) */
    bool no_compile = false;
    char rc_nc[200];
    if (!cs__take_flag(r, &rc, "/no_compile", rc_nc, sizeof rc_nc, &no_compile))
        return false;
    /* ".../no_sp" (anywhere before /a2a_overlap): this row ran tensor
     * parallelism without sequence parallelism where the reader would
     * assume it (Megatron-LM's CI tests that do not pass
     * --sequence-parallel; the index's no_sequence_parallel says the same
     * for a whole table) */
    bool no_sp_row = false;
    char rc_ns[200];
    if (!cs__take_flag(r, &rc, "/no_sp", rc_ns, sizeof rc_ns, &no_sp_row))
        return false;
    /* ".../grad_bf16" and ".../grad_fp32" (anywhere before /a2a_overlap):
     * the row's gradient reduction dtype where the source states it per
     * row and the table's index entry (grad_reduce) does not hold for it
     * (llm-foundry's MP Mode PURE rows: Composer's FSDP reduces in the
     * 16-bit dtype) */
    bool g16 = false, g32 = false;
    char rc_g16[200], rc_g32[200];
    if (!cs__take_flag(r, &rc, "/grad_bf16", rc_g16, sizeof rc_g16, &g16) ||
        !cs__take_flag(r, &rc, "/grad_fp32", rc_g32, sizeof rc_g32, &g32))
        return false;
    if (g16 && g32) {
        cs_diag_error(r->d, r->file, r->line, 0,
                      "column \"recompute\": \"/grad_bf16\" and \"/grad_fp32\" contradict each other");
        return false;
    }
    if (g16)
        grad_bf16 = true;
    if (g32)
        grad_bf16 = false;
    /* ".../bf16_end:N" and ".../modprec:MOD=PREC+MOD=PREC" (anywhere before
     * /a2a_overlap): the run's last N layers in BF16 and its modules'
     * precisions (Megatron-Core's first_last_layers_bf16 with
     * num_layers_at_end_in_bf16, and its quant_recipe; the recipes' notes,
     * validation/recipes/): workload.bf16_layers_at_end and
     * workload.module_precision, judged by the loader */
    char quant[320] = "", rc_be[200], bend[16], rc_mp[200], mprec[200];
    size_t qlen = 0, belen = 0, mplen = 0;
    if (fp8_block)
        qlen += (size_t)snprintf(quant + qlen, sizeof quant - qlen, "  fp8_recipe: blockwise\n");
    rc_cell = rc;
    if (cs__take_value(&rc, "/bf16_end:", rc_be, sizeof rc_be, bend, sizeof bend, &belen)) {
        char *end = NULL;
        long n = belen > 0 && belen < sizeof bend ? strtol(bend, &end, 10) : 0;
        if (n < 1 || !end || *end) {
            cs_diag_error(r->d, r->file, r->line, 0,
                          "column \"recompute\": \"/bf16_end:N\" takes a positive layer count (got \"%s\")",
                          rc_cell);
            return false;
        }
        qlen += (size_t)snprintf(quant + qlen, sizeof quant - qlen, "  bf16_layers_at_end: %ld\n", n);
    }
    rc_cell = rc;
    if (cs__take_value(&rc, "/modprec:", rc_mp, sizeof rc_mp, mprec, sizeof mprec, &mplen)) {
        if (mplen == 0 || mplen >= sizeof mprec || strpbrk(mprec, "\"\\{}:, ") || !strchr(mprec, '=')) {
            cs_diag_error(r->d, r->file, r->line, 0,
                          "column \"recompute\": \"/modprec:\" takes module=precision pairs joined "
                          "by '+' (got \"%s\")",
                          rc_cell);
            return false;
        }
        qlen += (size_t)snprintf(quant + qlen, sizeof quant - qlen, "  module_precision: {");
        for (const char *q = mprec; *q && qlen < sizeof quant; q++)
            qlen += (size_t)snprintf(quant + qlen, sizeof quant - qlen, "%s",
                                     *q == '=' ? ": " : *q == '+' ? ", " : (char[2]){*q, 0});
        if (qlen < sizeof quant)
            qlen += (size_t)snprintf(quant + qlen, sizeof quant - qlen, "}\n");
    }
    if (rc && strstr(rc, "/a2a_overlap")) {
        snprintf(rc_ov, sizeof rc_ov, "%s", rc);
        char *cut = strstr(rc_ov, "/a2a_overlap");
        if (strcmp(cut, "/a2a_overlap") != 0) {
            cs_diag_error(r->d, r->file, r->line, 0,
                          "column \"recompute\": \"/a2a_overlap\" must come last (got \"%s\")", rc);
            return false;
        }
        *cut = 0;
        rc = rc_ov;
        a2a_ov = true;
    }
    /* ".../cpu_offload:N": Megatron's layer-wise activation offload
     * (cpu_offloading_num_layers N); must come last but for /a2a_overlap */
    long off_layers = 0;
    char rc_cpu[200];
    if (rc && strstr(rc, "/cpu_offload:")) {
        snprintf(rc_cpu, sizeof rc_cpu, "%s", rc);
        char *cut = strstr(rc_cpu, "/cpu_offload:");
        char *end = NULL;
        off_layers = strtol(cut + 13, &end, 10);
        if (end == cut + 13 || *end || off_layers < 1) {
            cs_diag_error(r->d, r->file, r->line, 0,
                          "column \"recompute\": \"/cpu_offload:N\" takes a positive layer count and "
                          "comes last (got \"%s\")",
                          rc);
            return false;
        }
        *cut = 0;
        rc = rc_cpu;
    }
    if (rc && strstr(rc, "/offload:")) {
        snprintf(rc_buf, sizeof rc_buf, "%s", rc);
        char *cut = strstr(rc_buf, "/offload:");
        cs__module_list(cut + 9, off_mods, sizeof off_mods);
        *cut = 0;
        rc = rc_buf;
    }
    /* "full:N": full recomputation of N layers per virtual stage
     * (Megatron-Core's recompute_method block, recompute_num_layers N) */
    long rc_layers = 0;
    if (rc && strncmp(rc, "full:", 5) == 0) {
        char *end = NULL;
        rc_layers = strtol(rc + 5, &end, 10);
        if (end == rc + 5 || *end || rc_layers < 1) {
            cs_diag_error(r->d, r->file, r->line, 0,
                          "column \"recompute\": \"full:N\" takes a positive layer count (got \"%s\")",
                          rc);
            return false;
        }
        rc = "full";
    }
    /* "selective:layernorm+moe_act": Megatron-Core's recompute_modules */
    char rc_mods[160] = "";
    if (rc && strncmp(rc, "selective:", 10) == 0) {
        cs__module_list(rc + 10, rc_mods, sizeof rc_mods);
        rc = "selective";
    }
    /* an optional column "attention": the row's attention kernels, fused
     * (FlashAttention, cuDNN or Transformer Engine's fused attention) or
     * unfused (softmax of the materialized scores); empty: the stack's */
    const char *attn_cell = cs__opt(r, "attention"), *attn = NULL;
    if (attn_cell) {
        if (strcmp(attn_cell, "fused") == 0)
            attn = "on";
        else if (strcmp(attn_cell, "unfused") == 0)
            attn = "off";
        else {
            cs_diag_error(r->d, r->file, r->line, 0,
                          "column \"attention\": expected fused, unfused or empty (got \"%s\")",
                          attn_cell);
            return false;
        }
    }
    /* an optional column "cross_entropy": the loss kernel the run used
     * (fused, eager or compiled: workload.cross_entropy); empty: the stack's */
    const char *ce = cs__opt(r, "cross_entropy");
    if (ce && !cs__ce_known(ce)) {
        cs_diag_error(r->d, r->file, r->line, 0,
                      "column \"cross_entropy\": expected fused, eager, compiled, te, te-fp32 or "
                      "empty (got \"%s\")",
                      ce);
        return false;
    }
    if (!ce)
        ce = table_ce;   /* the index's, for every row of the table */
    /* an optional column "dropout" (true or false): whether the row's run
     * trained with dropout where its table's runs differ (Megatron-LM's CI
     * tests: its default 0.1, some set --hidden-dropout and
     * --attention-dropout 0.0); empty: the index's, else the model's
     * default */
    const char *row_dropout = cs__opt(r, "dropout");
    if (row_dropout && strcmp(row_dropout, "true") && strcmp(row_dropout, "false")) {
        cs_diag_error(r->d, r->file, r->line, 0,
                      "column \"dropout\": expected true, false or empty (got \"%s\")", row_dropout);
        return false;
    }
    if (row_dropout)
        dropout = row_dropout;
    const char *act = cs__opt(r, "activation");
    const char *tok = cs__opt(r, "tokens_per_s_per_gpu");
    const char *tfl = cs__opt(r, "tflops_per_gpu");
    long layers = cs__opt_int(r, "layers"), hidden = cs__opt_int(r, "hidden");
    long heads = cs__opt_int(r, "heads"), kv = cs__opt_int(r, "kv_heads");
    long ffn = cs__opt_int(r, "ffn_hidden"), vocab = cs__opt_int(r, "vocab");
    long seq = cs__opt_int(r, "seq_len");
    if (!r->ok)
        return false;
    cp = cp ? cp : 1;
    vp = vp ? vp : 1; /* unstated interleaving: none */
    ep = ep ? ep : 1;
    if (nodes < 1 || gpus < nodes || gpus % nodes != 0 || tp * pp * cp < 1 ||
        gpus % (tp * pp * cp) != 0) {
        cs_diag_error(r->d, r->file, r->line, 0,
                      "row: %ld GPUs on %ld nodes with tp*pp*cp = %ld: expected whole nodes and a "
                      "product that divides the GPUs",
                      gpus, nodes, tp * pp * cp);
        return false;
    }
    if (dp && dp * tp * pp * cp != gpus) {
        cs_diag_error(r->d, r->file, r->line, 0, "column \"dp\": tp*pp*cp*dp = %ld, but gpus = %ld",
                      dp * tp * pp * cp, gpus);
        return false;
    }
    dp = gpus / (tp * pp * cp);
    /* An MoE or hybrid row names its model: the preset of that name (case
     * aside) gives the experts, the attention and the blocks; the row's
     * shape must agree. */
    const char *moe_preset = NULL;
    char lower[64];
    struct cs_model_shape ms;
    {
        size_t i = 0;
        for (; model[i] && i + 1 < sizeof lower; i++)
            lower[i] = (char)tolower((unsigned char)model[i]);
        lower[i] = 0;
        if (cs_workload_preset(lower, &ms) == CS_OK && (cs_model_is_moe(&ms) || cs_model_is_hybrid(&ms))) {
            moe_preset = lower;
            if ((layers && layers != ms.layers) || (hidden && hidden != ms.hidden)) {
                cs_diag_error(r->d, r->file, r->line, 0,
                              "row: model %s has %ld layers of %ld in the preset %s, not %ld of %ld",
                              model, (long)ms.layers, (long)ms.hidden, lower, layers, hidden);
                return false;
            }
            /* a row that leaves the shape empty (the hybrid Nemotron 3 rows)
             * takes the preset's */
            if (!layers)
                layers = ms.layers;
            if (!hidden)
                hidden = ms.hidden;
        }
    }
    if (disp && !(moe_preset && cs_model_is_moe(&ms))) {
        cs_diag_error(r->d, r->file, r->line, 0,
                      "column \"recompute\": \"/dispatch:%s\" names a token dispatcher, but %s is "
                      "not a mixture-of-experts preset",
                      disp, model);
        return false;
    }
    if (ep > 1)
        snprintf(c->label, sizeof c->label, "%.40s %s %ldx%s tp%ld pp%ld cp%ld ep%ld", model, prec,
                 gpus, gpu, tp, pp, cp, ep);
    else
        snprintf(c->label, sizeof c->label, "%.40s %s %ldx%s tp%ld pp%ld cp%ld", model, prec, gpus,
                 gpu, tp, pp, cp);
    /* a memory table's row: the measured peak memory per GPU is the metric */
    const char *mem = cs__opt(r, "peak_memory_gib");
    c->metric = mem ? CS_REF_PEAK_MEMORY_GIB : CS_REF_TOKENS_PER_GPU;
    c->stack = stack;
    /* What the models cannot express yet: a case without a scenario. */
    const struct cs_gpu_spec *gs = cs_catalog_gpu(cat, gpu);
    if (!gs)
        snprintf(c->not_expressible, sizeof c->not_expressible,
                 "GPU \"%s\" is not in the catalog", gpu);
    else if (strcmp(prec, "bf16") && strcmp(prec, "fp16") && strcmp(prec, "fp8") &&
             strcmp(prec, "mxfp8") && strcmp(prec, "nvfp4"))
        snprintf(c->not_expressible, sizeof c->not_expressible,
                 "precision %s is not modelled (bf16, fp16, fp8, mxfp8 and nvfp4 are)", prec);
    else if (ep > 1 && !(moe_preset && cs_model_is_moe(&ms)))
        snprintf(c->not_expressible, sizeof c->not_expressible,
                 "mixture of experts: no model preset named \"%.60s\" gives its experts", model);
    else if (ep > 1 && (tp * cp * dp) % ep != 0)
        /* Megatron-Core's experts fold into the tp x cp x dp GPUs of a
         * stage: a row with more does not describe a run it can make */
        snprintf(c->not_expressible, sizeof c->not_expressible,
                 "ep = %ld does not divide the tp*cp*dp = %ld GPUs of a pipeline stage (the row's "
                 "degrees are inconsistent)",
                 ep, tp * cp * dp);
    else if (!moe_preset && (!act || !layers || !hidden || !heads || !vocab || !seq))
        snprintf(c->not_expressible, sizeof c->not_expressible,
                 "model shape or activation not stated (hybrid or squared-ReLU architecture)");
    else if (pp * vp > layers + 2)
        snprintf(c->not_expressible, sizeof c->not_expressible,
                 "pp*vp = %ld chunks exceed the %ld layers and the embedding and loss", pp * vp,
                 layers);
    else if (!mem && !tok && !(tfl && flops))
        snprintf(c->not_expressible, sizeof c->not_expressible,
                 "publishes TFLOP/s only, and the index states no FLOP convention for it");
    if (c->not_expressible[0]) {
        /* still show what was measured */
        const char *shown = mem ? mem : tok;
        if (shown && !cs_num_parse_double(shown, &c->measured))
            c->measured = NAN;
        else if (!shown)
            c->measured = NAN;
        return true;
    }
    if (mem) {
        c->measured = cs__num(r, "peak_memory_gib");
        if (r->ok && !(c->measured > 0)) {
            cs_diag_error(r->d, r->file, r->line, 0,
                          "column \"peak_memory_gib\": expected a positive number of GiB");
            r->ok = false;
        }
    } else if (tok) {
        c->measured = cs__num(r, "tokens_per_s_per_gpu");
    } else {
        /* TFLOP/s per GPU in the source's stated convention, back to
         * tokens per second per GPU. */
        double tf = cs__num(r, "tflops_per_gpu");
        long ffn_eff = ffn ? ffn : 4 * hidden;
        bool causal = strcmp(flops, "megatron-causal") == 0;
        double per_token;
        if (moe_preset) {
            /* an MoE model: Megatron-LM's count for MoE (top_k routed and
             * the shared experts, the router; full attention, logits, no
             * recomputation) is the model's own per-token count */
            ms.seq_len = (int)seq;
            per_token = cs_workload_flops_per_iter(&ms, 1.0, CS_RECOMPUTE_NONE) / seq;
            if (causal) {
                /* the causal half of every layer's scores and P V (3x:
                 * forward and backward) left out */
                struct cs_layer_flops lf;
                cs_workload_layer_flops(&ms, &lf);
                per_token -= 0.5 * 3.0 * ms.layers * (lf.scores + lf.attn_over_v) / seq;
            }
        } else {
            per_token = cs__megatron_flops_per_token(layers, hidden, heads, kv, ffn_eff, seq, vocab,
                                                     strcmp(act, "swiglu") == 0);
            if (causal) /* 12 L h^2 s/h of it is the attention scores: half */
                per_token -= 6.0 * layers * (double)hidden * seq;
        }
        c->measured = tf * 1e12 / per_token;
    }
    if (!r->ok)
        return false;
    c->search_micro_batch = mb == 0;
    c->search_recompute = rc == NULL;
    long ppn = gpus / nodes;
    if (nics <= 0)
        nics = ppn;
    if (!link)
        link = strncmp(gpu, "A100", 4) == 0 ? "ib-hdr" : "ib-ndr";
    /* Grace-Blackwell trays (4 GPUs) sit in NVL72 racks: one NVLink domain
     * of up to 72 GPUs over the scale-out fabric. */
    bool nvl = strncmp(gpu, "GB", 2) == 0 && gpus > ppn;
    long dom = gpus < 72 ? gpus : 72 / ppn * ppn;
    char fabric[192];
    if (nvl)
        snprintf(fabric, sizeof fabric,
                 "{topology: nvl-domain, domain_gpus: %ld, link: %s, nics_per_node: %ld}", dom,
                 link, nics);
    else
        snprintf(fabric, sizeof fabric,
                 "{topology: fat-tree, link: %s, nics_per_node: %ld, oversubscription: 1}", link,
                 nics);
    struct cs__spec p = {gpu, fabric, model, act, dropout, prec, rc ? rc : "none",
                         fsdp ? fsdp : "none", cs_stack_names[stack], nodes, ppn, layers, hidden,
                         heads, kv ? kv : heads, ffn ? ffn : 4 * hidden, seq, vocab, gb,
                         /* sequence parallelism with TP unless the index says the
                          * runs had none (no_sequence_parallel) */
                         mb ? mb : 1, tp, pp, cp, dp, vp, tp > 1 && !no_sp && !no_sp_row, moe_preset,
                         moe_routing, ep,
                         grad_bf16, rc_mods[0] ? rc_mods : NULL, off_mods[0] ? off_mods : NULL,
                         /* Megatron-Bridge's Llama 3.1 405B recipes on pp 16 x vp 8
                          * count the embedding and the loss as a layer each of the
                          * pipeline split (account_for_embedding/loss_in_pipeline_
                          * split): 126 + 2 layers in 128 chunks, the first and last
                          * without a transformer layer. Only rows that need it say
                          * so; where pp*vp <= layers the default split is the same
                          * whenever layers + 2 divides evenly. */
                         pp * vp > layers && !layout[0], wflags, a2a_ov, rc_layers, off_layers,
                         attn, disp, graphs, ce, fp8_attn, layout[0] ? layout : NULL, fused_mlp,
                         quant[0] ? quant : NULL, eager_norm, no_tp_ov, no_compile};
    if (!cs__resolve(r, cat, &p, c))
        return false;
    if (!mem)
        cs__static_state_check(c);
    return true;
}

cs_status cs_refs_load(const char *path, const cs_catalog *cat, cs_diags *d,
                       struct cs_ref_case **cases, size_t *n)
{
    return cs_refs_load_table(path, NULL, cat, d, cases, n);
}

/* The table at `path`, or in mem[mem_len] (named `path`) when mem is not
 * NULL. */
static cs_status cs__refs_table(const char *path, const char *mem, size_t mem_len, const struct cs_val_table *vt,
                                const cs_catalog *cat, cs_diags *d, struct cs_ref_case **cases, size_t *n)
{
    const char *stack_name = vt ? vt->stack : NULL, *link = vt ? vt->link : NULL;
    /* the index has checked it: 1-64 */
    long nics = vt && vt->nics_per_node ? strtol(vt->nics_per_node, NULL, 10) : 0;
    const char *dropout = vt ? vt->dropout : NULL;
    const char *flops = vt ? vt->flops : NULL;
    const char *moe_routing = vt ? vt->moe_routing : NULL;
    const char *grad_reduce = vt ? vt->grad_reduce : NULL;
    if (grad_reduce && strcmp(grad_reduce, "bf16") && strcmp(grad_reduce, "fp32")) {
        cs_diag_error(d, path, 0, 0, "grad_reduce \"%s\": expected bf16 or fp32", grad_reduce);
        return CS_ECONFIG;
    }
    bool grad_bf16 = grad_reduce && strcmp(grad_reduce, "bf16") == 0;
    const char *table_ce = vt ? vt->cross_entropy : NULL;
    if (table_ce && !cs__ce_known(table_ce)) {
        cs_diag_error(d, path, 0, 0,
                      "cross_entropy \"%s\": expected fused, eager, compiled, te or te-fp32",
                      table_ce);
        return CS_ECONFIG;
    }
    /* the index's workload_flags, each word one of the boolean workload keys
     * a table may set, as one "  key: true" scenario line each */
    char wflag_lines[256] = "";
    const char *wflags = NULL;
    bool no_sp = false;
    if (vt && vt->workload_flags) {
        /* no_tp_comm_overlap: the recipe ran without Transformer Engine's TP
         * communication overlap (NeMo's performance_mode off), tp_comm_overlap 0;
         * no_compile: torchtitan's blocks ran eager, torch_compile off;
         * no_sequence_parallel: tensor parallelism without sequence
         * parallelism (code that predates it), the parallelism's sp false */
        static const char *const known[] = {"fp8_act_storage", "optimizer_moments_bf16",
                                            "fp8_param_gather", "fp4_param_gather",
                                            "no_tp_comm_overlap", "no_compile",
                                            "no_sequence_parallel"};
        const char *q = vt->workload_flags;
        while (*q) {
            while (*q == ' ')
                q++;
            size_t len = strcspn(q, " ");
            bool ok = len == 0;
            for (size_t k = 0; k < sizeof known / sizeof known[0]; k++)
                if (strlen(known[k]) == len && strncmp(q, known[k], len) == 0)
                    ok = true;
            if (!ok) {
                cs_diag_error(d, path, 0, 0,
                              "workload_flags \"%.*s\": expected fp8_act_storage, "
                              "optimizer_moments_bf16, fp8_param_gather, fp4_param_gather, "
                              "no_tp_comm_overlap, no_compile or no_sequence_parallel",
                              (int)len, q);
                return CS_ECONFIG;
            }
            if (len > 0) {
                size_t at = strlen(wflag_lines);
                if (len == strlen("no_tp_comm_overlap") && strncmp(q, "no_tp_comm_overlap", len) == 0)
                    snprintf(wflag_lines + at, sizeof wflag_lines - at, "  tp_comm_overlap: 0\n");
                else if (len == strlen("no_sequence_parallel") &&
                         strncmp(q, "no_sequence_parallel", len) == 0)
                    no_sp = true;
                else if (len == strlen("no_compile") && strncmp(q, "no_compile", len) == 0)
                    snprintf(wflag_lines + at, sizeof wflag_lines - at, "  torch_compile: off\n");
                else
                    snprintf(wflag_lines + at, sizeof wflag_lines - at, "  %.*s: true\n", (int)len, q);
            }
            q += len;
        }
        wflags = wflag_lines;
    }
    if (moe_routing && strcmp(moe_routing, "balanced") && strcmp(moe_routing, "learned")) {
        cs_diag_error(d, path, 0, 0, "moe_routing \"%s\": expected balanced or learned", moe_routing);
        return CS_ECONFIG;
    }
    if (flops && strcmp(flops, "megatron") && strcmp(flops, "megatron-causal")) {
        cs_diag_error(d, path, 0, 0,
                      "flops \"%s\": expected megatron (full attention) or megatron-causal (the "
                      "attention scores counted over the causal half)",
                      flops);
        return CS_ECONFIG;
    }
    if (dropout && strcmp(dropout, "true") && strcmp(dropout, "false")) {
        cs_diag_error(d, path, 0, 0, "dropout \"%s\": expected true or false", dropout);
        return CS_ECONFIG;
    }
    enum cs_stack stack = CS_STACK_MCORE_2024;
    if (stack_name && !cs_ref_stack_parse(stack_name, &stack)) {
        cs_diag_error(d, path, 0, 0,
                      "stack \"%s\": expected megatron-2021, mcore, torchtitan, composer or "
                      "megatron-deepspeed",
                      stack_name);
        return CS_ECONFIG;
    }
    if (link && !cs_catalog_link(cat, link)) {
        cs_diag_error(d, path, 0, 0, "link \"%s\": not a link of the catalog", link);
        return CS_ECONFIG;
    }
    size_t n_before = *n;
    char *owned = NULL;
    if (!mem) {
        /* 16 MiB: the published tables are a few KB. Through fileio, so a
         * FIFO or a directory is refused and a .gz is read. */
        char why[256];
        size_t len = 0;
        cs_status rs = cs_file_slurp_why(path, (size_t)16 << 20, &owned, &len, why, sizeof why);
        if (rs != CS_OK) {
            cs_diag_error(d, path, 0, 0, "cannot open: %s", why);
            return rs == CS_ERANGE ? CS_ECONFIG : CS_EIO;
        }
        mem = owned;
        mem_len = len;
    }
    const char *nul = memchr(mem, '\0', mem_len);
    if (nul || mem_len == 0) {
        int at = 1;
        for (const char *q = mem; nul && q < nul; q++)
            at += *q == '\n';
        if (nul)
            cs_diag_error(d, path, at, 0, "expected a text file, found a NUL byte (binary file?)");
        else
            cs_diag_error(d, path, 0, 0, "no header line: not a reference table");
        free(owned);
        return CS_ECONFIG;
    }
    FILE *fp = fmemopen((void *)mem, mem_len, "r");
    if (!fp) {
        cs_diag_error(d, path, 0, 0, "cannot read: %s", strerror(errno));
        free(owned);
        return CS_EIO;
    }
    size_t cap = *n;
    char line[CS__LINE_MAX], hdr_line[CS__LINE_MAX];
    struct cs__cols h = {{0}, 0};
    enum cs__fmt fmt = CS__SC21;
    int lineno = 0;
    size_t before = cs_diags_errors(d);
    const char *file = cs__base(path);
    while (fgets(line, sizeof line, fp)) {
        lineno++;
        if (!strchr(line, '\n') && !feof(fp)) {
            cs_diag_error(d, path, lineno, 0, "line longer than %d bytes", CS__LINE_MAX - 1);
            break;
        }
        cs__chomp(line);
        if (line[0] == '#' || line[0] == '\0')
            continue;
        if (h.n == 0) {
            memcpy(hdr_line, line, sizeof line);
            h.n = cs__split(hdr_line, h.name, CS__MAXCOLS);
            bool generic = true;
            for (int k = 0; cs__generic_cols[k]; k++)
                generic = generic && cs__col(&h, cs__generic_cols[k]) >= 0;
            if (generic)
                fmt = CS__GENERIC;
            else if (cs__col(&h, "iter_s_full_recompute") >= 0)
                fmt = CS__KORTHI;
            else if (cs__col(&h, "mfu") >= 0 && cs__col(&h, "dp") >= 0)
                fmt = CS__MCORE;
            else if (cs__col(&h, "tflops_per_gpu") >= 0 && cs__col(&h, "params_b") >= 0)
                fmt = CS__SC21;
            else {
                cs_diag_error(d, path, lineno, 1,
                              "unknown reference table: expected the header of the SC21, "
                              "Korthikanti or Megatron-Core table, or the common schema "
                              "(validation/step/SOURCES.md)");
                break;
            }
            continue;
        }
        char *cells[CS__MAXCOLS] = {0};
        int nc = cs__split(line, cells, CS__MAXCOLS);
        if (nc < 0) {
            cs_diag_error(d, path, lineno, 0, "%s", nc == -1 ? "more columns than a reference table has"
                                                            : "a quoted cell does not end, or text follows its quote");
            continue;
        }
        if (nc != h.n) {
            cs_diag_error(d, path, lineno, 0, "expected %d columns, got %d", h.n, nc);
            continue;
        }
        struct cs__row r = {path, lineno, cells, &h, d, true};
        if (fmt == CS__GENERIC) {
            struct cs_ref_case c;
            memset(&c, 0, sizeof c);
            snprintf(c.file, sizeof c.file, "%s", file);
            c.line = lineno;
            if (cs__generic_row(&r, cat, stack, link, nics, no_sp, dropout, flops, moe_routing, grad_bf16, wflags,
                                table_ce, &c))
                cs__push(cases, n, &cap, &c);
            continue;
        }
        const char *model = cs__get(&r, "model");
        long hidden = cs__int(&r, "hidden"), heads = cs__int(&r, "heads");
        long layers = cs__int(&r, "layers"), seq = cs__int(&r, "seq_len");
        long vocab = cs__int(&r, "vocab"), gpus = cs__int(&r, "gpus");
        long tp = cs__int(&r, "tp"), pp = cs__int(&r, "pp"), gb = cs__int(&r, "global_batch");
        if (!r.ok)
            continue;
        struct cs_ref_case c;
        memset(&c, 0, sizeof c);
        snprintf(c.file, sizeof c.file, "%s", file);
        c.line = lineno;
        if (fmt == CS__SC21) {
            /* Megatron-LM 2021, A100 fp16, full recomputation, no sequence
             * parallelism (it did not exist yet), micro-batch not stated. */
            double tf = cs__num(&r, "tflops_per_gpu");
            if (!r.ok)
                continue;
            snprintf(c.label, sizeof c.label, "%s (%ld GPUs)", model, gpus);
            c.metric = CS_REF_TFLOPS_HW;
            c.measured = tf;
            c.stack = CS_STACK_MEGATRON_2021;
            c.search_micro_batch = true;
            if (cs__make(&r, cat, "A100-SXM4-80GB", "ib-hdr", model, layers, hidden, heads, seq,
                         vocab, gpus, tp, pp, 1, gb, 1, "fp16", "full", false, "none", &c))
                cs__push(cases, n, &cap, &c);
        } else if (fmt == CS__KORTHI) {
            /* Korthikanti et al. 2022 Table 5: two configurations per row. */
            long vp = cs__int(&r, "virtual_stages"), mb = cs__int(&r, "micro_batch");
            double full = cs__num(&r, "iter_s_full_recompute");
            double sel = cs__num(&r, "iter_s_seqpar_selective");
            if (!r.ok)
                continue;
            struct cs_ref_case c2 = c;
            snprintf(c.label, sizeof c.label, "%s full recompute", model);
            c.metric = CS_REF_ITER_S;
            c.measured = full;
            c.stack = CS_STACK_MEGATRON_2021;
            if (cs__make(&r, cat, "A100-SXM4-80GB", "ib-hdr", model, layers, hidden, heads, seq,
                         vocab, gpus, tp, pp, vp, gb, mb, "fp16", "full", false, "none", &c))
                cs__push(cases, n, &cap, &c);
            snprintf(c2.label, sizeof c2.label, "%s selective+SP", model);
            c2.metric = CS_REF_ITER_S;
            c2.measured = sel;
            c2.stack = CS_STACK_MEGATRON_2021;
            if (cs__make(&r, cat, "A100-SXM4-80GB", "ib-hdr", model, layers, hidden, heads, seq,
                         vocab, gpus, tp, pp, vp, gb, mb, "fp16", "selective", true, "none", &c2))
                cs__push(cases, n, &cap, &c2);
        } else {
            /* Megatron-Core 2024 on H100 (bf16): overlap on, distributed
             * optimizer, sequence parallelism with TP; micro-batch and
             * recomputation not stated. TFLOP/s are model FLOPs (= MFU x 989). */
            double tf = cs__num(&r, "tflops_per_gpu");
            long dp = cs__int(&r, "dp");
            if (!r.ok)
                continue;
            if (dp * tp * pp != gpus) {
                cs_diag_error(d, path, lineno, 0, "tp*pp*dp = %ld, but gpus = %ld", tp * pp * dp,
                              gpus);
                continue;
            }
            snprintf(c.label, sizeof c.label, "%s (%ld GPUs)", model, gpus);
            c.metric = CS_REF_TFLOPS_MODEL;
            c.measured = tf;
            c.stack = CS_STACK_MCORE_2024;
            c.search_micro_batch = true;
            c.search_recompute = true;
            if (cs__make(&r, cat, "H100-SXM5-80GB", "ib-ndr", model, layers, hidden, heads, seq,
                         vocab, gpus, tp, pp, 1, gb, 1, "bf16", "none", tp > 1, "zero1", &c))
                cs__push(cases, n, &cap, &c);
        }
    }
    if (ferror(fp))
        cs_diag_error(d, path, lineno, 0, "read error");
    fclose(fp);
    free(owned);
    /* Each new row's network model, once: the fitter predicts a row many
     * times. A row whose cluster does not fit its topology keeps NULL (the
     * step reports that itself). */
    for (size_t i = n_before; i < *n; i++) {
        struct cs_ref_case *c = &(*cases)[i];
        c->net = NULL;
        if (!c->not_expressible[0] && c->scen.cluster.nodes > 1)
            (void)cs_netmodel_create(&c->scen.cluster, cs_job_gpus(&c->scen.cluster, &c->scen.workload), NULL, 0,
                                     c->scen.seed, &c->net, NULL, 0);
    }
    /* The rows the index flags (flagged_lines): each named line must be a
     * row of the file, or the index is wrong. */
    if (vt && vt->flagged_lines && vt->flagged_reason) {
        const char *q = vt->flagged_lines;
        while (*q) {
            char *end = NULL;
            long v = strtol(q, &end, 10);
            if (end == q)
                break;
            q = end;
            bool found = false;
            for (size_t i = n_before; i < *n; i++)
                if ((*cases)[i].line == v) {
                    snprintf((*cases)[i].flagged, sizeof (*cases)[i].flagged, "%s", vt->flagged_reason);
                    found = true;
                }
            if (!found)
                cs_diag_error(d, path, (int)v, 0,
                              "the index's flagged_lines names line %ld, which is not a row of this table",
                              v);
        }
    }
    if (h.n == 0 && cs_diags_errors(d) == before)
        cs_diag_error(d, path, lineno, 0, "no header line: not a reference table");
    return cs_diags_errors(d) > before ? CS_ECONFIG : CS_OK;
}

cs_status cs_refs_load_table(const char *path, const struct cs_val_table *vt,
                             const cs_catalog *cat, cs_diags *d, struct cs_ref_case **cases,
                             size_t *n)
{
    return cs__refs_table(path, NULL, 0, vt, cat, d, cases, n);
}

cs_status cs_refs_load_buffer(const char *name, const char *buf, size_t len, const cs_catalog *cat, cs_diags *d,
                              struct cs_ref_case **cases, size_t *n)
{
    return cs__refs_table(name, buf ? buf : "", buf ? len : 0, NULL, cat, d, cases, n);
}

void cs_refs_free(struct cs_ref_case *cases, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (!cases[i].not_expressible[0])
            cs_scenario_fini(&cases[i].scen);
        cs_netmodel_destroy(cases[i].net);
        free(cases[i].text);
    }
    free(cases);
}

