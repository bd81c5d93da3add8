/* checkpoint.c: checkpoint size, write/snapshot/restore times on the storage
 * tiers, and the interval rule (models layer). See checkpoint.h and
 * docs/run.md for the equations and their sources. */
#include "clustersim/models/checkpoint.h"
#include "clustersim/models/cluster.h"

#include "clustersim/models/storage.h"
#include "clustersim/models/workload.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

double cs_ckpt_young_s(double delta_s, double mtbi_s)
{
    if (!(delta_s >= 0) || !(mtbi_s > 0))
        return NAN;
    return sqrt(2.0 * delta_s * mtbi_s);
}

double cs_ckpt_daly_s(double delta_s, double mtbi_s)
{
    if (!(delta_s >= 0) || !(mtbi_s > 0))
        return NAN;
    if (delta_s >= 2.0 * mtbi_s)
        return mtbi_s;
    double x = delta_s / (2.0 * mtbi_s);
    return sqrt(2.0 * delta_s * mtbi_s) * (1.0 + sqrt(x) / 3.0 + x / 9.0) - delta_s;
}

double cs_ckpt_state_bytes(const struct cs_workload *w)
{
    double p = cs_workload_params(&w->model);
    /* fp32 master weights (4) + Adam m and v in fp32 (8) + the training copy. */
    double per = w->precision == CS_PREC_FP32 || w->precision == CS_PREC_TF32 ? 12.0 : 14.0;
    return p * per;
}

const char *cs_ckpt_rule_name(enum cs_ckpt_rule r)
{
    switch (r) {
    case CS_CKPT_RULE_FIXED: return "fixed";
    case CS_CKPT_RULE_YOUNG: return "young";
    case CS_CKPT_RULE_DALY: return "daly";
    case CS_CKPT_RULE_NONE: return "none";
    }
    return "?";
}

/* Per-node bandwidth of the scale-out NICs (cluster view: ports x line rate
 * x efficiency); unlimited when the node has none (one node, local tiers). */
static double node_nic_bw(const struct cs_cluster_cfg *c)
{
    struct cs_cluster_view v;
    if (cs_cluster_view_rates(c, NULL, &v) != CS_OK || !(v.node_net_bw_bytes_per_s > 0))
        return INFINITY;
    return v.node_net_bw_bytes_per_s;
}

static cs_status transfer(const struct cs_scenario *s, const struct cs_storage_spec *t,
                          bool write, int nodes, double bytes, double nic, cs_diags *d,
                          double *out)
{
    cs_status st = cs_storage_transfer_s(t, write, nodes, bytes, nic, out);
    if (st != CS_OK)
        cs_diag_error(d, s->file, 0, 0,
                      "checkpoint: storage tier \"%s\" has no %s bandwidth (set "
                      "cluster.storage[].%s)",
                      t->name, write ? "write" : "read", write ? "write_bw" : "read_bw");
    return st;
}

cs_status cs_ckpt_plan_make(const struct cs_scenario *s, const struct cs_step_result *step,
                            double mtbi_s, cs_diags *d, struct cs_ckpt_plan *out)
{
    struct cs_ckpt_plan p;
    memset(&p, 0, sizeof p);
    const struct cs_checkpoint_cfg *cc = &s->checkpoint;
    const struct cs_cluster_cfg *c = &s->cluster;
    const struct cs_workload *w = &s->workload;
    p.mtbi_s = mtbi_s;
    p.young_s = p.daly_s = NAN;
    p.rule = CS_CKPT_RULE_NONE;
    p.interval_s = INFINITY;
    p.interval_steps = INFINITY;
    if (!cc->enabled) {
        *out = p;
        return CS_OK;
    }
    p.enabled = true;
    const struct cs_storage_spec *tier = cs_storage_find(&c->storage, cc->tier);
    if (!tier) {
        cs_diag_error(d, s->file, 0, 0, "checkpoint.tier: no storage tier \"%s\"", cc->tier);
        return CS_EINVAL;
    }
    const struct cs_storage_spec *up = cc->upload[0] ? cs_storage_find(&c->storage, cc->upload)
                                                     : NULL;
    if (cc->upload[0] && !up) {
        cs_diag_error(d, s->file, 0, 0, "checkpoint.upload: no storage tier \"%s\"", cc->upload);
        return CS_EINVAL;
    }
    snprintf(p.tier, sizeof p.tier, "%s", tier->name);
    if (up)
        snprintf(p.upload, sizeof p.upload, "%s", up->name);

    p.size_from_model = !(cc->size_bytes > 0);
    p.size_bytes = p.size_from_model ? cs_ckpt_state_bytes(w) : cc->size_bytes;
    /* Writers: with ZeRO/FSDP every data-parallel rank holds a shard of the
     * optimizer state, so every node writes; otherwise one replica's
     * tp x pp x cp GPUs hold the whole state (Megatron's dp rank 0 saves). */
    long per_replica = (long)w->par.tp * w->par.pp * w->par.cp;
    long nodes = c->nodes;
    long writers = w->par.fsdp != CS_FSDP_NONE
                       ? nodes
                       : (per_replica + c->gpus_per_node - 1) / c->gpus_per_node;
    if (writers < 1)
        writers = 1;
    if (writers > nodes)
        writers = nodes;
    p.writer_nodes = (int)writers;
    p.bytes_per_node = p.size_bytes / (double)writers;

    double nic = node_nic_bw(c);
    /* While training runs, collectives hold the NICs for dp_comm_total of
     * each step; background storage traffic gets the rest (an average-rate
     * approximation of the fabric sharing, docs/run.md). */
    double busy = step && step->time_s > 0 ? step->dp_comm_total_s / step->time_s : 0;
    if (busy > 0.95)
        busy = 0.95;
    double nic_bg = nic * (1.0 - busy);

    cs_status st;
    if (cc->mode == CS_CKPT_SYNC) {
        if ((st = transfer(s, tier, true, p.writer_nodes, p.bytes_per_node, nic, d, &p.write_s)))
            return st;
        p.snapshot_s = 0;
        p.blocking_s = p.write_s;
        p.durable_s = p.write_s;
    } else {
        double snap_bw = cc->snapshot_bw_bytes_per_s > 0 ? cc->snapshot_bw_bytes_per_s
                                                         : cs_pcie_x16_bytes_per_s(c->gpu.pcie_gen);
        if (!(snap_bw > 0)) {
            cs_diag_error(d, s->file, 0, 0,
                          "checkpoint.snapshot_bw: an asynchronous checkpoint copies to host memory over the "
                          "GPU's host link, and %s has no PCIe generation in the catalog: set "
                          "checkpoint.snapshot_bw",
                          c->gpu.name);
            return CS_EINVAL;
        }
        double gpus_writing = (double)writers * c->gpus_per_node;
        p.snapshot_s = p.size_bytes / gpus_writing / snap_bw;
        p.host_bytes_per_node = p.bytes_per_node;
        if ((st = transfer(s, tier, true, p.writer_nodes, p.bytes_per_node, nic_bg, d,
                           &p.write_s)))
            return st;
        p.blocking_s = p.snapshot_s;
        p.durable_s = p.snapshot_s + p.write_s;
    }
    p.host_fits = !(p.host_bytes_per_node > 0) || p.host_bytes_per_node <= c->host_memory_bytes;
    if ((st = transfer(s, tier, false, p.writer_nodes, p.bytes_per_node, nic, d, &p.restore_s)))
        return st;
    if (up) {
        if ((st = transfer(s, up, true, p.writer_nodes, p.bytes_per_node, nic_bg, d,
                           &p.upload_s)))
            return st;
        if ((st = transfer(s, up, false, p.writer_nodes, p.bytes_per_node, nic, d,
                           &p.restore_upload_s)))
            return st;
    }

    double step_s = step && step->time_s > 0 ? step->time_s : 1.0;
    if (isfinite(mtbi_s) && mtbi_s > 0) {
        p.young_s = cs_ckpt_young_s(p.blocking_s, mtbi_s);
        p.daly_s = cs_ckpt_daly_s(p.blocking_s, mtbi_s);
    }
    double want;
    if (!cc->interval_optimal && step && step->time_s > 0 && cc->enabled && !(cc->interval_s >= step->time_s)) {
        /* A checkpoint is taken between steps (Megatron's --save-interval
         * counts iterations, at least 1): an interval below one step is no
         * interval, and at a nanosecond it only makes a checkpoint of every
         * step for hours of simulation. */
        cs_diag_error(d, s->file, 0, 0,
                      "checkpoint.interval: %g s is shorter than one training step (%g s): "
                      "checkpoints are taken between steps; expected at least one step, or "
                      "interval: optimal (Young/Daly)",
                      cc->interval_s, step->time_s);
        return CS_EINVAL;
    }
    if (!cc->interval_optimal) {
        want = cc->interval_s;
        p.rule = CS_CKPT_RULE_FIXED;
    } else if (isfinite(p.daly_s)) {
        want = p.daly_s;
        p.rule = CS_CKPT_RULE_DALY;
    } else {
        *out = p; /* no failures: nothing to protect against */
        return CS_OK;
    }
    /* Checkpoints are taken between steps: whole steps, at least one. */
    p.interval_steps = ceil(want / step_s - 1e-9);
    if (p.interval_steps < 1)
        p.interval_steps = 1;
    p.interval_s = p.interval_steps * step_s;
    *out = p;
    return CS_OK;
}
