/* datapipe.c: data loader stall of a training step (models layer). See
 * datapipe.h for the model and docs/run.md for its parameters. */
#include "clustersim/models/datapipe.h"
#include "clustersim/models/cluster.h"

#include "clustersim/models/storage.h"

#include <math.h>
#include <string.h>

cs_status cs_data_evaluate(const struct cs_scenario *s, const struct cs_step_result *step,
                           cs_diags *d, struct cs_data_result *out)
{
    struct cs_data_result r;
    memset(&r, 0, sizeof r);
    const struct cs_data_cfg *dc = &s->data;
    if (!dc->enabled || !step || !(step->time_s > 0)) {
        *out = r;
        return CS_OK;
    }
    r.enabled = true;
    const struct cs_cluster_cfg *c = &s->cluster;
    const struct cs_workload *w = &s->workload;
    int dp = w->par.dp > 0 ? w->par.dp : 1;
    r.samples_per_rank = (double)w->global_batch / dp;
    double cores_per_gpu = c->cpu_cores_per_node / c->gpus_per_node;
    double workers = dc->workers_per_gpu > 0 ? dc->workers_per_gpu : 1;
    if (workers > cores_per_gpu && cores_per_gpu >= 1)
        workers = floor(cores_per_gpu); /* workers beyond the cores time-share them */
    if (dc->gpu_decode)
        r.gpu_s = r.samples_per_rank * (dc->gpu_sample_s > 0 ? dc->gpu_sample_s : 0);
    else
        r.cpu_s = r.samples_per_rank * (dc->sample_cpu_s > 0 ? dc->sample_cpu_s : 0) / workers;
    if (dc->sample_bytes > 0) {
        const struct cs_storage_spec *t = cs_storage_find(&c->storage, dc->tier);
        if (!t) {
            cs_diag_error(d, s->file, 0, 0, "data.tier: no storage tier \"%s\"", dc->tier);
            return CS_EINVAL;
        }
        double nic = INFINITY;
        struct cs_cluster_view cv;
        if (cs_storage_remote(t) && cs_cluster_view_rates(c, NULL, &cv) == CS_OK &&
            cv.node_net_bw_bytes_per_s > 0) {
            double busy = step->dp_comm_total_s / step->time_s;
            nic = cv.node_net_bw_bytes_per_s * (1.0 - (busy > 0.95 ? 0.95 : busy));
        }
        double bytes_per_node = r.samples_per_rank * dc->sample_bytes * c->gpus_per_node;
        if (cs_storage_transfer_s(t, false, c->nodes, bytes_per_node, nic, &r.read_s) != CS_OK) {
            cs_diag_error(d, s->file, 0, 0, "data.tier: storage tier \"%s\" has no read bandwidth",
                          t->name);
            return CS_EINVAL;
        }
    }
    r.load_s = dc->batch_time_s > 0 ? dc->batch_time_s : fmax(r.cpu_s, r.read_s);
    r.compute_s = step->time_s + r.gpu_s;
    r.stall_s = dc->prefetch > 0 ? fmax(0.0, r.load_s - r.compute_s) : r.load_s;
    r.starved_fraction = r.stall_s / (r.compute_s + r.stall_s);
    *out = r;
    return CS_OK;
}

void cs_data_apply(const struct cs_data_result *dr, struct cs_step_result *step)
{
    if (!dr->enabled || !(step->time_s > 0))
        return;
    double t0 = step->time_s;
    double t1 = t0 + dr->gpu_s + dr->stall_s;
    step->time_s = t1;
    step->data_stall_s += dr->stall_s;
    step->compute_s += dr->gpu_s;
    double k = t0 / t1;
    step->tokens_per_s *= k;
    step->tflops_per_gpu *= k;
    step->mfu *= k;
}
