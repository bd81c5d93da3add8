/* run_report.c: the `run` report: resolved cluster, workload, step breakdown,
 * throughput and memory, as text, JSON and CSV (report layer). */
#include "clustersim/models/cluster.h"
#include "clustersim/report/run_report.h"
#include "clustersim/models/facility.h"

#include "clustersim/report/table.h"
#include "csv.h"
#include "clustersim/base/units.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void cs_out_cluster_summary(const struct cs_scenario *s, struct cs_cluster_summary *out)
{
    const struct cs_cluster_cfg *c = &s->cluster;
    memset(out, 0, sizeof *out);
    out->gpus = cs_scenario_gpus(s);
    enum cs_precision p = s->has_workload ? s->workload.precision : CS_PREC_BF16;
    out->peak_flops_per_gpu = c->gpu.peak_flops[p];
    out->peak_flops_total = out->peak_flops_per_gpu * (double)out->gpus;
    out->hbm_bytes_total = c->gpu.hbm_bytes * (double)out->gpus;
    out->gpu_power_w = c->gpu.tdp_w * (double)out->gpus;
    /* Line rates from the resolved cluster view (cluster.h), as configured:
     * these are the hardware's figures, not what a collective achieves. */
    struct cs_cluster_view v;
    if (cs_cluster_view_rates(c, NULL, &v) == CS_OK) {
        out->nics = (long)c->nodes * v.nics_per_node;
        out->node_injection_bytes_per_s = v.node_net_line_bw_bytes_per_s;
        out->intra_bw_bytes_per_s_per_gpu = v.intra_line_bw_bytes_per_s;
    }
    double over = c->fabric.oversubscription >= 1 ? c->fabric.oversubscription : 1;
    out->bisection_bytes_per_s = (double)out->nics * c->fabric.link.bw_bytes_per_s / 2.0 / over;
}

static void cs__num(cJSON *o, const char *k, double v)
{
    if (isfinite(v))
        cJSON_AddNumberToObject(o, k, v);
    else
        cJSON_AddNullToObject(o, k);
}

cJSON *cs_out_cluster_json(const struct cs_scenario *s)
{
    const struct cs_cluster_cfg *c = &s->cluster;
    struct cs_cluster_summary sum;
    cs_out_cluster_summary(s, &sum);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "gpu", c->gpu.name);
    cJSON_AddNumberToObject(o, "nodes", c->nodes);
    cJSON_AddNumberToObject(o, "gpus_per_node", c->gpus_per_node);
    cJSON_AddNumberToObject(o, "gpus", (double)sum.gpus);
    cs__num(o, "peak_flops_per_gpu", sum.peak_flops_per_gpu);
    cs__num(o, "peak_flops_total", sum.peak_flops_total);
    cs__num(o, "hbm_bytes_per_gpu", c->gpu.hbm_bytes);
    cs__num(o, "hbm_bytes_total", sum.hbm_bytes_total);
    cs__num(o, "hbm_bw_bytes_per_s", c->gpu.hbm_bw_bytes_per_s);
    cs__num(o, "gpu_tdp_w", c->gpu.tdp_w);
    cs__num(o, "gpu_power_w", sum.gpu_power_w);
    cJSON *in = cJSON_AddObjectToObject(o, "intra_node");
    cJSON_AddStringToObject(in, "type", c->intra.name);
    cs__num(in, "bw_bytes_per_s_per_gpu", sum.intra_bw_bytes_per_s_per_gpu);
    cJSON *f = cJSON_AddObjectToObject(o, "fabric");
    cJSON_AddStringToObject(f, "topology", cs_topology_name(c->fabric.topology));
    cJSON_AddStringToObject(f, "link", c->fabric.link.name);
    cs__num(f, "link_bw_bytes_per_s", c->fabric.link.bw_bytes_per_s);
    cJSON_AddNumberToObject(f, "nics_per_node", c->fabric.nics_per_node);
    cJSON_AddNumberToObject(f, "nic_ports", (double)sum.nics);
    cs__num(f, "node_injection_bytes_per_s", sum.node_injection_bytes_per_s);
    cs__num(f, "bisection_bytes_per_s", sum.bisection_bytes_per_s);
    cs__num(f, "oversubscription", c->fabric.oversubscription);
    cJSON_AddBoolToObject(f, "in_network_reduction", c->fabric.in_network_reduction);
    cJSON *st = cJSON_AddArrayToObject(o, "storage");
    for (int i = 0; i < c->storage.n_tiers; i++) {
        cJSON *t = cJSON_CreateObject();
        cJSON_AddStringToObject(t, "name", c->storage.tiers[i].name);
        cs__num(t, "read_bw_bytes_per_s", c->storage.tiers[i].read_bw_bytes_per_s);
        cs__num(t, "write_bw_bytes_per_s", c->storage.tiers[i].write_bw_bytes_per_s);
        cJSON_AddItemToArray(st, t);
    }
    return o;
}

cJSON *cs_out_workload_json(const struct cs_workload *w)
{
    const struct cs_model_shape *m = &w->model;
    const struct cs_parallel *p = &w->par;
    cJSON *o = cJSON_CreateObject();
    cJSON *mo = cJSON_AddObjectToObject(o, "model");
    cJSON_AddStringToObject(mo, "name", m->name);
    cJSON_AddNumberToObject(mo, "params", cs_workload_params(m));
    cJSON_AddNumberToObject(mo, "layers", m->layers);
    cJSON_AddNumberToObject(mo, "hidden", m->hidden);
    cJSON_AddNumberToObject(mo, "heads", m->heads);
    cJSON_AddNumberToObject(mo, "kv_heads", m->kv_heads);
    cJSON_AddNumberToObject(mo, "ffn_hidden", m->ffn_hidden);
    cJSON_AddStringToObject(mo, "activation", cs_activation_name(m->activation));
    if (cs_model_is_hybrid(m)) {
        cJSON_AddStringToObject(mo, "hybrid_pattern", m->hybrid);
        cJSON *mb = cJSON_AddObjectToObject(mo, "mamba");
        cJSON_AddNumberToObject(mb, "heads", m->mamba.heads);
        cJSON_AddNumberToObject(mb, "head_dim", m->mamba.head_dim);
        cJSON_AddNumberToObject(mb, "state", m->mamba.state);
        cJSON_AddNumberToObject(mb, "groups", m->mamba.groups);
        cJSON_AddNumberToObject(mb, "conv", m->mamba.conv);
        cJSON_AddNumberToObject(mb, "chunk", m->mamba.chunk);
    }
    cJSON_AddNumberToObject(mo, "vocab", m->vocab);
    cJSON_AddNumberToObject(mo, "seq_len", m->seq_len);
    if (cs_model_is_moe(m)) {
        cJSON *e = cJSON_AddObjectToObject(mo, "moe");
        cJSON_AddNumberToObject(e, "experts", m->moe.experts);
        cJSON_AddNumberToObject(e, "top_k", m->moe.top_k);
        cJSON_AddNumberToObject(e, "shared_experts", m->moe.shared_experts);
        cJSON_AddNumberToObject(e, "expert_ffn_hidden", m->moe.expert_ffn_hidden);
        cJSON_AddNumberToObject(e, "first_dense_layers", m->moe.first_dense_layers);
        if (m->moe.capacity_factor >= 1.0)
            cJSON_AddNumberToObject(e, "capacity_factor", m->moe.capacity_factor);
        else
            cJSON_AddStringToObject(e, "capacity_factor", "none");
        cJSON_AddStringToObject(e, "routing", cs_moe_routing_names[m->moe.routing]);
        cJSON_AddStringToObject(e, "dispatcher", cs_moe_dispatcher_names[m->moe.dispatcher]);
    }
    if (m->mtp_layers > 0)
        cJSON_AddNumberToObject(mo, "mtp_layers", m->mtp_layers);
    /* DESIGN.md's contract: counts of all and of one token's parameters */
    cJSON_AddNumberToObject(o, "params_total", cs_workload_params(m));
    cJSON_AddNumberToObject(o, "params_active", cs_workload_params_active(m));
    cJSON_AddNumberToObject(o, "global_batch", (double)w->global_batch);
    cJSON_AddNumberToObject(o, "micro_batch", w->micro_batch);
    cJSON *po = cJSON_AddObjectToObject(o, "parallelism");
    cJSON_AddNumberToObject(po, "tp", p->tp);
    cJSON_AddNumberToObject(po, "pp", p->pp);
    cJSON_AddNumberToObject(po, "dp", p->dp);
    cJSON_AddNumberToObject(po, "cp", p->cp);
    cJSON_AddNumberToObject(po, "vp", p->vp);
    cJSON_AddBoolToObject(po, "sp", p->sp);
    cJSON_AddStringToObject(po, "fsdp", cs_fsdp_name(p->fsdp));
    if (cs_model_is_moe(m)) {
        cJSON_AddNumberToObject(po, "ep", p->ep > 0 ? p->ep : 1);
        cJSON_AddNumberToObject(po, "etp", p->etp > 0 ? p->etp : 1);
    }
    if (p->layout.stages > 0)
        cJSON_AddStringToObject(po, "pipeline_layout", p->layout_text);
    /* the scenario keys' names, where set */
    if (p->account_for_embedding)
        cJSON_AddBoolToObject(po, "account_for_embedding_in_pipeline_split", true);
    if (p->account_for_loss)
        cJSON_AddBoolToObject(po, "account_for_loss_in_pipeline_split", true);
    cJSON_AddStringToObject(o, "recompute", cs_recompute_name(w->recompute));
    if (w->recompute == CS_RECOMPUTE_FULL && w->recompute_layers > 0)
        cJSON_AddNumberToObject(o, "recompute_layers", w->recompute_layers);
    if (w->offload_layers > 0)
        cJSON_AddNumberToObject(o, "activation_offload_layers", w->offload_layers);
    cJSON_AddStringToObject(o, "precision", cs_precision_name(w->precision));
    cs__num(o, "tokens", w->tokens);
    return o;
}

void cs_out_step_json(cJSON *root, const struct cs_step_result *r)
{
    cJSON *mem = cJSON_AddObjectToObject(root, "memory");
    cs__num(mem, "bytes_per_gpu", r->memory.total_bytes);
    cs__num(mem, "capacity_bytes", r->memory.capacity_bytes);
    cJSON_AddBoolToObject(mem, "fits", r->memory.fits);
    cJSON *b = cJSON_AddObjectToObject(mem, "breakdown");
    cs__num(b, "weights_bytes", r->memory.weights_bytes);
    cs__num(b, "grads_bytes", r->memory.grads_bytes);
    cs__num(b, "optimizer_bytes", r->memory.optimizer_bytes);
    cs__num(b, "activations_bytes", r->memory.activations_bytes);
    cs__num(b, "comm_buffers_bytes", r->memory.comm_buffers_bytes);
    cs__num(b, "workspace_bytes", r->memory.workspace_bytes);

    cJSON *st = cJSON_AddObjectToObject(root, "step");
    bool ok = r->fits;
    cs__num(st, "time_s", ok ? r->time_s : NAN);
    cs__num(st, "compute_s", ok ? r->compute_s : NAN);
    cs__num(st, "host_wait_s", ok ? r->host_wait_s : NAN); /* of compute_s: the GPU waiting on the host */
    cs__num(st, "host_issue_s", ok ? r->host_issue_s : NAN); /* the host's dispatch time in all */
    cs__num(st, "exposed_comm_s", ok ? r->exposed_comm_s : NAN);
    cs__num(st, "bubble_s", ok ? r->bubble_s : NAN);
    cs__num(st, "tp_comm_s", ok ? r->tp_comm_s : NAN);
    cs__num(st, "pp_comm_s", ok ? r->pp_comm_s : NAN);
    cs__num(st, "dp_comm_s", ok ? r->dp_comm_s : NAN);
    cs__num(st, "dp_comm_total_s", ok ? r->dp_comm_total_s : NAN);
    cs__num(st, "optimizer_s", ok ? r->optimizer_s : NAN);
    cs__num(st, "data_stall_s", ok ? r->data_stall_s : NAN);
    if (r->moe_load > 0 && (r->ep_comm_s > 0 || r->moe_load > 1.0 || r->moe_imbalance_s > 0 ||
                            isfinite(r->ep_net_share))) {
        /* mixture of experts (docs/moe.md) */
        cs__num(st, "ep_comm_s", ok ? r->ep_comm_s : NAN);
        cs__num(st, "moe_imbalance_s", ok ? r->moe_imbalance_s : NAN);
        cs__num(st, "moe_load_ratio", ok ? r->moe_load : NAN); /* most loaded EP rank over the mean */
        cs__num(st, "moe_dropped_share", ok ? r->moe_dropped : NAN);
    }
    /* Set only with neighbours / a network model (NAN otherwise; a zeroed
     * result has neither). */
    if (ok && r->network_slowdown > 0 && isfinite(r->network_slowdown))
        cs__num(st, "network_slowdown", r->network_slowdown);
    if (ok && r->storage_slowdown > 0 && isfinite(r->storage_slowdown))
        cs__num(st, "storage_slowdown", r->storage_slowdown);
    const double shares[4] = {r->tp_net_share, r->cp_net_share, r->dp_net_share, r->pp_net_share};
    static const char *const share_keys[4] = {"tp", "cp", "dp", "pp"};
    cJSON *nw = NULL;
    for (int i = 0; ok && i < 4; i++) {
        if (!(shares[i] > 0) || !isfinite(shares[i]))
            continue;
        if (!nw) /* what the flow model gave each communicator (docs/fabric.md 3b) */
            nw = cJSON_AddObjectToObject(st, "network_share");
        cs__num(nw, share_keys[i], shares[i]);
    }
    cJSON_AddNumberToObject(st, "microbatches", r->microbatches);
    cJSON_AddNumberToObject(st, "critical_stage", r->critical_stage);
    cJSON *th = cJSON_AddObjectToObject(root, "throughput");
    cs__num(th, "tokens_per_s", ok ? r->tokens_per_s : NAN);
    cs__num(th, "tflops_per_gpu", ok ? r->tflops_per_gpu : NAN);
    cs__num(th, "mfu", ok ? r->mfu : NAN);
    cs__num(th, "hw_flops_per_step", r->hw_flops_per_iter);
    cs__num(th, "model_flops_per_step", r->model_flops_per_iter);
}

static const char *cs__fmt(double v, enum cs_unit_kind k, char *buf, size_t n)
{
    if (!isfinite(v)) {
        snprintf(buf, n, "n/a");
        return buf;
    }
    return cs_units_format(v, k, buf, n);
}

void cs_out_cluster_text(FILE *out, const struct cs_scenario *s)
{
    const struct cs_cluster_cfg *c = &s->cluster;
    struct cs_cluster_summary sum;
    cs_out_cluster_summary(s, &sum);
    char a[64], b[64], d[64];
    enum cs_precision p = s->has_workload ? s->workload.precision : CS_PREC_BF16;
    fprintf(out, "Cluster\n");
    fprintf(out, "  GPUs          %ld x %s (%d nodes x %d)\n", sum.gpus, c->gpu.name, c->nodes,
            c->gpus_per_node);
    fprintf(out, "  peak %-8s %s per GPU, %s in all\n", cs_precision_name(p),
            cs__fmt(sum.peak_flops_per_gpu, CS_UNIT_FLOPS, a, sizeof a),
            cs__fmt(sum.peak_flops_total, CS_UNIT_FLOPS, b, sizeof b));
    fprintf(out, "  HBM           %s per GPU at %s; %s in all\n",
            cs__fmt(c->gpu.hbm_bytes, CS_UNIT_BYTES, a, sizeof a),
            cs__fmt(c->gpu.hbm_bw_bytes_per_s, CS_UNIT_BANDWIDTH, b, sizeof b),
            cs__fmt(sum.hbm_bytes_total, CS_UNIT_BYTES, d, sizeof d));
    fprintf(out, "  scale-up      %s, %s per GPU per direction\n", c->intra.name,
            cs__fmt(sum.intra_bw_bytes_per_s_per_gpu, CS_UNIT_BANDWIDTH, a, sizeof a));
    fprintf(out, "  scale-out     %s over %s, %d NICs per node (%s each), %ld ports\n",
            cs_topology_name(c->fabric.topology), c->fabric.link.name, c->fabric.nics_per_node,
            cs__fmt(c->fabric.link.bw_bytes_per_s, CS_UNIT_BANDWIDTH, a, sizeof a), sum.nics);
    fprintf(out, "  bisection     %s per direction (oversubscription %g:1)\n",
            cs__fmt(sum.bisection_bytes_per_s, CS_UNIT_BANDWIDTH, a, sizeof a),
            c->fabric.oversubscription);
    fprintf(out, "  GPU power     %s at TDP (%s per GPU)\n",
            cs__fmt(sum.gpu_power_w, CS_UNIT_POWER, a, sizeof a),
            cs__fmt(c->gpu.tdp_w, CS_UNIT_POWER, b, sizeof b));
    for (int i = 0; i < c->storage.n_tiers; i++)
        fprintf(out, "  storage       %-10s read %s, write %s\n", c->storage.tiers[i].name,
                cs__fmt(c->storage.tiers[i].read_bw_bytes_per_s, CS_UNIT_BANDWIDTH, a, sizeof a),
                cs__fmt(c->storage.tiers[i].write_bw_bytes_per_s, CS_UNIT_BANDWIDTH, b, sizeof b));
    cs_out_facility_text(out, s);
}

void cs_out_facility_text(FILE *out, const struct cs_scenario *s)
{
    const struct cs_facility_result *f = &s->facility.res;
    if (f->racks <= 0)
        return;
    fprintf(out, "  facility      %d racks of %d node%s (%.1f kW each, %s cooling limit %.0f kW: %s), "
                 "%.1f m^2 of floor\n",
            f->racks, f->nodes_per_rack, f->nodes_per_rack == 1 ? "" : "s", f->kw_per_rack,
            cs_cooling_name((enum cs_cooling)s->facility.cooling), f->rack_limit_w / 1000,
            f->cooling_ok ? "cooling OK" : "OVER THE LIMIT", f->floor_m2);
    fprintf(out, "  power         IT %.1f kW (%.2f kW per node), facility %.1f kW at PUE %.2f "
                 "(UPS %.1f, distribution %.1f, cooling and rest %.1f kW)\n",
            f->it_power_w / 1000, f->node_power_w / 1000, f->facility_power_w / 1000,
            f->it_power_w > 0 ? f->facility_power_w / f->it_power_w : 1.0, f->ups_loss_w / 1000,
            f->distribution_loss_w / 1000, f->cooling_power_w / 1000);
    if (isfinite(f->gpu_power_cap_w))
        fprintf(out, "  throttled     GPUs held at %.0f W of %.0f W by the rack's cooling (clock x%.3f)\n",
                f->gpu_power_cap_w, s->cluster.gpu.tdp_w,
                cbrt(f->gpu_power_cap_w / s->cluster.gpu.tdp_w));
    if (isfinite(f->time_to_throttle_s))
        fprintf(out, "  thermal       %.1f kW over the limit per rack warm its %.0f kJ/K from a %g C inlet "
                     "to %g C: throttles after %.0f s (%.1f min; %.0f s if only the air warmed), then "
                     "clock x%.3f sustained\n",
                f->excess_heat_w / 1000, f->thermal_mass_j_per_k / 1000, s->facility.inlet_temp_c,
                s->facility.throttle_inlet_c, f->time_to_throttle_s, f->time_to_throttle_s / 60,
                f->time_to_throttle_air_s, f->sustained_clock_factor);
}

void cs_out_facility_json(cJSON *root, const struct cs_scenario *s)
{
    const struct cs_facility_result *f = &s->facility.res;
    if (f->racks <= 0)
        return;
    cJSON *j = cJSON_AddObjectToObject(root, "facility");
    cJSON_AddNumberToObject(j, "racks", f->racks);
    cJSON_AddNumberToObject(j, "nodes_per_rack", f->nodes_per_rack);
    cJSON_AddNumberToObject(j, "kw_per_rack", f->kw_per_rack);
    cJSON_AddNumberToObject(j, "rack_limit_kw", f->rack_limit_w / 1000);
    cJSON_AddNumberToObject(j, "node_power_w", f->node_power_w);
    cJSON_AddNumberToObject(j, "it_power_w", f->it_power_w);
    cJSON_AddNumberToObject(j, "facility_power_w", f->facility_power_w);
    cJSON_AddNumberToObject(j, "ups_loss_w", f->ups_loss_w);
    cJSON_AddNumberToObject(j, "distribution_loss_w", f->distribution_loss_w);
    cJSON_AddNumberToObject(j, "cooling_power_w", f->cooling_power_w);
    cJSON_AddNumberToObject(j, "floor_m2", f->floor_m2);
    cJSON_AddStringToObject(j, "cooling", cs_cooling_name((enum cs_cooling)s->facility.cooling));
    cJSON_AddBoolToObject(j, "cooling_ok", f->cooling_ok);
    if (isfinite(f->gpu_power_cap_w))
        cJSON_AddNumberToObject(j, "gpu_power_cap_w", f->gpu_power_cap_w);
    else
        cJSON_AddNullToObject(j, "gpu_power_cap_w");
    cJSON_AddNumberToObject(j, "pue_ratio", f->it_power_w > 0 ? f->facility_power_w / f->it_power_w : 1.0);
    cJSON_AddNumberToObject(j, "excess_heat_w", f->excess_heat_w);
    cJSON_AddNumberToObject(j, "thermal_mass_j_per_k", f->thermal_mass_j_per_k);
    if (isfinite(f->time_to_throttle_s)) {
        cJSON_AddNumberToObject(j, "time_to_throttle_s", f->time_to_throttle_s);
        cJSON_AddNumberToObject(j, "time_to_throttle_air_s", f->time_to_throttle_air_s);
    } else {
        cJSON_AddNullToObject(j, "time_to_throttle_s");
        cJSON_AddNullToObject(j, "time_to_throttle_air_s");
    }
    cJSON_AddNumberToObject(j, "sustained_clock_factor", f->sustained_clock_factor);
    cJSON_AddStringToObject(j, "placement", f->why);
}

void cs_out_workload_text(FILE *out, const struct cs_workload *w)
{
    const struct cs_model_shape *m = &w->model;
    const struct cs_parallel *p = &w->par;
    char a[64];
    fprintf(out, "Workload\n");
    fprintf(out, "  model         %s: %s parameters, %d layers, hidden %d, %d heads (%d kv), "
                 "ffn %d %s, vocab %d%s\n",
            m->name, cs__fmt(cs_workload_params(m), CS_UNIT_COUNT, a, sizeof a), m->layers,
            m->hidden, m->heads, m->kv_heads, m->ffn_hidden, cs_activation_name(m->activation),
            m->vocab, m->rope_scaling == CS_ROPE_SCALING_YARN ? ", YaRN positions" : "");
    if (cs_model_is_hybrid(m)) {
        int cnt[CS_BLOCK_COUNT];
        cs_model_slots_in(m, 0, m->layers, cnt);
        fprintf(out, "  hybrid        %d Mamba-2, %d attention, %d MLP and %d MoE blocks; Mamba-2 %d heads of %d, "
                     "state %d, %d groups, conv %d, chunk %d\n",
                cnt[CS_BLOCK_MAMBA], cnt[CS_BLOCK_ATTN], cnt[CS_BLOCK_MLP], cnt[CS_BLOCK_MOE], m->mamba.heads,
                m->mamba.head_dim, m->mamba.state, m->mamba.groups, m->mamba.conv, m->mamba.chunk);
    }
    if (cs_model_is_moe(m)) {
        char b2[64];
        fprintf(out, "  experts       %d routed (top %d) + %d shared of ffn %d, %d leading dense layers; "
                     "%s active per token; routing %s, dispatch %s, capacity %s\n",
                m->moe.experts, m->moe.top_k, m->moe.shared_experts, m->moe.expert_ffn_hidden,
                m->moe.first_dense_layers,
                cs__fmt(cs_workload_params_active(m), CS_UNIT_COUNT, b2, sizeof b2),
                cs_moe_routing_names[m->moe.routing], cs_moe_dispatcher_names[m->moe.dispatcher],
                m->moe.capacity_factor >= 1.0 ? "factor" : "none (dropless)");
        fprintf(out, "  expert par.   ep %d, etp %d, expert dp %d\n", p->ep > 0 ? p->ep : 1,
                p->etp > 0 ? p->etp : 1, cs_workload_expert_dp(w));
    }
    if (m->mtp_layers > 0) {
        char b3[64];
        bool shared = m->mtp_shared && m->mtp_layers > 1;
        fprintf(out, "  MTP           %d multi-token-prediction %s (%s%s parameters more, not in the counts above)\n",
                m->mtp_layers,
                shared ? "passes of one module" : m->mtp_layers > 1 ? "modules" : "module",
                shared ? "shared weights; " : "",
                cs__fmt(cs_workload_mtp_params(m), CS_UNIT_COUNT, b3, sizeof b3));
    }
    if (w->gpus > 0)
        fprintf(out, "  GPUs          %ld of the cluster's (workload.gpus; the rest for neighbours)\n", w->gpus);
    fprintf(out, "  parallelism   tp %d, pp %d, dp %d, cp %d, vp %d, sp %s, fsdp %s\n", p->tp,
            p->pp, p->dp, p->cp, p->vp, p->sp ? "on" : "off", cs_fsdp_name(p->fsdp));
    if (p->layout.stages > 0)
        fprintf(out, "  layout        %s (%d virtual stages)\n", p->layout_text, p->layout.stages);
    char rc[48];
    if (w->recompute == CS_RECOMPUTE_FULL && w->recompute_layers > 0)
        snprintf(rc, sizeof rc, "full (%d layers per stage)", w->recompute_layers);
    else if (w->offload_layers > 0)
        snprintf(rc, sizeof rc, "%s, %d layers offloaded", cs_recompute_name(w->recompute),
                 w->offload_layers);
    else
        snprintf(rc, sizeof rc, "%s", cs_recompute_name(w->recompute));
    fprintf(out, "  batch         %ld sequences x %d tokens, micro-batch %d; recompute %s; %s%s\n",
            w->global_batch, m->seq_len, w->micro_batch, rc, cs_precision_name(w->precision),
            w->precision == CS_PREC_FP8 && w->fp8_recipe == 1 ? " (block-wise scaling)" : "");
    /* the software the kernels' costs assume (docs/models.md 2.2, 2.3, 2.6) */
    {
        enum cs_attn_kernel ak = cs_workload_attention_kernel(w);
        fprintf(out, "  software      stack %s; attention %s; loss %s%s%s%s\n", cs_stack_names[w->stack],
                w->fused_attention == 2              ? "unfused"
                : ak == CS_ATTN_KERNEL_AUTO ? "fused (the fitted efficiency)"
                                            : cs_attn_kernel_names[ak],
                cs_cross_entropy_names[cs_workload_cross_entropy(w)],
                cs_workload_torch_eager(w) ? "; blocks eager (torch_compile off)" : "",
                cs_workload_eager_norm(w) ? ", norms eager" : "",
                cs_workload_rope_unfused(w) ? "; RoPE unfused (PyTorch ops)" : "");
    }
    /* layers and modules at another precision (docs/models.md 2.3) */
    char mods[256] = "";
    size_t at = 0;
    for (int q = 0; q < CS_QMOD_COUNT && at < sizeof mods; q++) {
        enum cs_precision mq = cs_workload_module_precision(w, (enum cs_qmodule)q, w->precision);
        if (mq != w->precision)
            at += (size_t)snprintf(mods + at, sizeof mods - at, "%s%s %s", at ? ", " : "",
                                   cs_quant_module_names[q], cs_precision_name(mq));
    }
    if (cs_precision_quantized(w->precision) &&
        (w->bf16_layers_start > 0 || w->bf16_layers_end > 0 || mods[0]))
        fprintf(out, "  precision     %s; bf16 layers: first %d, last %d%s%s\n",
                cs_precision_name(w->precision), w->bf16_layers_start, w->bf16_layers_end,
                mods[0] ? "; modules: " : "", mods);
}

static void cs__row(cs_table *t, const char *name, double v, double total)
{
    char a[64], pct[32];
    cs__fmt(v, CS_UNIT_TIME, a, sizeof a);
    if (total > 0 && isfinite(v))
        snprintf(pct, sizeof pct, "%.1f%%", 100.0 * v / total);
    else
        snprintf(pct, sizeof pct, "-");
    const char *cells[] = {name, a, pct};
    cs_table_add_row(t, cells);
}

static void cs__mrow(cs_table *t, const char *name, double v, double cap)
{
    char a[64], pct[32];
    cs__fmt(v, CS_UNIT_BYTES, a, sizeof a);
    snprintf(pct, sizeof pct, "%.1f%%", cap > 0 ? 100.0 * v / cap : 0.0);
    const char *cells[] = {name, a, pct};
    cs_table_add_row(t, cells);
}

void cs_out_step_text(FILE *out, const struct cs_scenario *s, const struct cs_step_result *r)
{
    char a[64], b[64];
    const struct cs_memory_breakdown *m = &r->memory;
    fprintf(out, "Memory per GPU (most loaded: first pipeline stage)\n");
    const char *mh[] = {"part", ">size", ">of HBM"};
    cs_table *mt = cs_table_create(3, mh);
    cs__mrow(mt, "weights", m->weights_bytes, m->capacity_bytes);
    cs__mrow(mt, "gradients", m->grads_bytes, m->capacity_bytes);
    cs__mrow(mt, "optimizer state", m->optimizer_bytes, m->capacity_bytes);
    cs__mrow(mt, "activations", m->activations_bytes, m->capacity_bytes);
    cs__mrow(mt, "comm buffers", m->comm_buffers_bytes, m->capacity_bytes);
    cs__mrow(mt, "workspace", m->workspace_bytes, m->capacity_bytes);
    cs__mrow(mt, "total", m->total_bytes, m->capacity_bytes);
    cs_table_write(mt, out, 2);
    cs_table_destroy(mt);
    fprintf(out, "  fits          %s (%s of %s HBM)\n", m->fits ? "yes" : "NO",
            cs__fmt(m->total_bytes, CS_UNIT_BYTES, a, sizeof a),
            cs__fmt(m->capacity_bytes, CS_UNIT_BYTES, b, sizeof b));
    if (!r->fits) {
        fprintf(out, "\nThe configuration does not fit in GPU memory: no step was simulated.\n"
                     "Try more pipeline or tensor parallelism, ZeRO/FSDP sharding or full "
                     "recomputation (clustersim search lists the configurations that fit).\n");
        return;
    }
    fprintf(out, "\nStep (critical pipeline stage %d; %d micro-batches per step)\n",
            r->critical_stage, r->microbatches);
    const char *sh[] = {"part", ">time", ">share"};
    cs_table *st = cs_table_create(3, sh);
    cs__row(st, "compute (incl. recompute)", r->compute_s, r->time_s);
    cs__row(st, "exposed TP/CP comm", r->tp_comm_s, r->time_s);
    bool moe = r->ep_comm_s > 0 || r->moe_imbalance_s > 0 || r->moe_load > 1.0;
    /* the critical stage's exposed all-to-alls: what the parts leave */
    double crit_ep = r->exposed_comm_s - r->tp_comm_s - r->pp_comm_s - r->dp_comm_s;
    if (moe)
        cs__row(st, "exposed EP dispatch/combine", fmax(0.0, crit_ep), r->time_s);
    cs__row(st, "exposed PP comm", r->pp_comm_s, r->time_s);
    cs__row(st, "exposed DP/FSDP comm", r->dp_comm_s, r->time_s);
    cs__row(st, "pipeline bubble", r->bubble_s, r->time_s);
    cs__row(st, "optimizer", r->optimizer_s, r->time_s);
    cs__row(st, "data stall", r->data_stall_s, r->time_s);
    cs__row(st, "step time", r->time_s, r->time_s);
    cs_table_write(st, out, 2);
    if (moe)
        fprintf(out, "  MoE (busiest stage %d) dispatch/combine exposed %s, imbalance %s (most loaded EP "
                     "rank %.3fx the mean)\n",
                r->moe_stage, cs__fmt(r->ep_comm_s, CS_UNIT_TIME, a, sizeof a),
                cs__fmt(r->moe_imbalance_s, CS_UNIT_TIME, b, sizeof b), r->moe_load);
    if (moe && r->moe_dropped > 0)
        fprintf(out, "  dropped       %.2f%% of the routed token copies\n", 100.0 * r->moe_dropped);
    if (r->host_wait_s > 0)
        fprintf(out, "  host-bound    %s of the compute time (%.1f%% of the step) the GPU waits on the host to "
                     "issue its kernels (docs/models.md, \"Host dispatch\")\n",
                cs__fmt(r->host_wait_s, CS_UNIT_TIME, a, sizeof a), 100.0 * r->host_wait_s / r->time_s);
    /* all exposed: the difference is round-off of the event times */
    double dp_hidden = r->dp_comm_total_s - r->dp_comm_s;
    if (dp_hidden < 1e-9 * r->dp_comm_total_s)
        dp_hidden = 0.0;
    fprintf(out, "  DP/FSDP comm in all %s (hidden behind compute: %s)\n",
            cs__fmt(r->dp_comm_total_s, CS_UNIT_TIME, a, sizeof a),
            cs__fmt(dp_hidden, CS_UNIT_TIME, b, sizeof b));
    cs_table_destroy(st);
    /* What the flow model gave the communicators that leave a node. */
    const double shares[4] = {r->tp_net_share, r->cp_net_share, r->dp_net_share, r->pp_net_share};
    static const char *const share_names[4] = {"TP", "CP", "DP", "PP"};
    bool any = false;
    for (int i = 0; i < 4; i++) {
        if (!(shares[i] > 0) || !isfinite(shares[i]))
            continue;
        fprintf(out, "%s%s %.3f", any ? ", " : "  network share ", share_names[i], shares[i]);
        any = true;
    }
    if (any) {
        enum cs_routing rt = s->cluster.fabric.routing;
        bool ib = s->cluster.fabric.link.kind == CS_LINK_INFINIBAND || s->cluster.fabric.link.kind == CS_LINK_OMNIPATH;
        const char *how = rt != CS_ROUTING_AUTO ? cs_routing_names[rt] : ib ? "static (auto)" : "ecmp (auto)";
        fprintf(out, " (of each communicator's NIC rate, flow model on the job's %s placement; %s, %s "
                     "routing)\n",
                cs_placement_names[s->cluster.fabric.placement], cs_topology_name(s->cluster.fabric.topology), how);
    }
    if (r->network_slowdown > 0 && isfinite(r->network_slowdown))
    {
        fprintf(out, "  neighbours    %d job(s) on the fabric: step %.4fx its time alone\n", s->n_neighbours,
                r->network_slowdown);
        for (int i = 0; i < s->n_neighbours; i++) {
            const struct cs_neighbour_cfg *nb = &s->neighbours[i];
            char nb_b[32], nb_t[32];
            fprintf(out, "                %ld GPUs %s, %s of %s per GPU every %s\n", nb->gpus,
                    cs_placement_names[nb->placement], cs_nb_traffic_names[nb->traffic],
                    cs__fmt(nb->bytes, CS_UNIT_BYTES, nb_b, sizeof nb_b),
                    cs__fmt(nb->interval_s, CS_UNIT_TIME, nb_t, sizeof nb_t));
        }
    }
    if (r->storage_slowdown > 0 && isfinite(r->storage_slowdown))
        fprintf(out, "  storage       the job's checkpoint / dataset traffic on the compute fabric: step %.4fx "
                     "(cluster.storage_network: separate takes it off)\n",
                r->storage_slowdown);
    fprintf(out, "\nThroughput\n");
    fprintf(out, "  tokens/s      %.0f\n", r->tokens_per_s);
    fprintf(out, "  TFLOP/s/GPU   %.1f (Narayanan et al. count, recomputation included)\n",
            r->tflops_per_gpu);
    fprintf(out, "  MFU           %.1f%% (model FLOPs without recomputation / %s peak)\n",
            100.0 * r->mfu, cs_precision_name(s->workload.precision));
    if (isfinite(s->workload.tokens) && s->workload.tokens > 0) {
        double t = s->workload.tokens / r->tokens_per_s;
        fprintf(out, "  %s tokens in %s at this rate, without failures or checkpoints\n",
                cs__fmt(s->workload.tokens, CS_UNIT_COUNT, a, sizeof a),
                cs__fmt(t, CS_UNIT_TIME, b, sizeof b));
    }
}

void cs_out_run_csv(FILE *out, const struct cs_scenario *s, const struct cs_step_result *r,
                    int header)
{
    if (header)
        fprintf(out, "name,gpu,gpus,tp,pp,dp,cp,vp,micro_batch,global_batch,fits,bytes_per_gpu,"
                     "step_time_s,compute_s,exposed_comm_s,bubble_s,optimizer_s,tokens_per_s,"
                     "tflops_per_gpu,mfu\n");
    const struct cs_parallel *p = &s->workload.par;
    cs_out_csv_quoted(out, s->name);
    fputc(',', out);
    cs_out_csv_field(out, s->cluster.gpu.name);
    fprintf(out, ",%ld,%d,%d,%d,%d,%d,%d,%ld,%s,%.6g,", cs_scenario_gpus(s), p->tp, p->pp, p->dp,
            p->cp, p->vp, s->workload.micro_batch, s->workload.global_batch,
            r->fits ? "true" : "false", r->memory.total_bytes);
    if (r->fits)
        fprintf(out, "%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g\n", r->time_s, r->compute_s,
                r->exposed_comm_s, r->bubble_s, r->optimizer_s, r->tokens_per_s,
                r->tflops_per_gpu, r->mfu);
    else
        fprintf(out, ",,,,,,,\n");
}

bool cs_out_json_write(FILE *out, const cJSON *root)
{
    char *txt = cJSON_Print(root);
    if (!txt)
        return false;
    int rc = fprintf(out, "%s\n", txt);
    cJSON_free(txt);
    return rc >= 0;
}
