/* storage.c: storage tiers as max-min shared bandwidth resources (models
 * layer). See storage.h; equations and sources in docs/run.md. */
#include "clustersim/models/storage.h"

#include "clustersim/base/xmalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void cs_io_maxmin(const double *cap, int n_res, const struct cs_io_flow *flows,
                  const bool *active, int n_flows, double *rates)
{
    /* Progressive filling: raise all unfrozen flows' rates together until a
     * resource saturates; freeze the flows crossing it; repeat. */
    double *left = cs_xmalloc((size_t)(n_res > 0 ? n_res : 1) * sizeof *left);
    int *users = cs_xmalloc((size_t)(n_res > 0 ? n_res : 1) * sizeof *users);
    bool *frozen = cs_xmalloc((size_t)(n_flows > 0 ? n_flows : 1) * sizeof *frozen);
    for (int r = 0; r < n_res; r++)
        left[r] = cap[r];
    int unfrozen = 0;
    for (int i = 0; i < n_flows; i++) {
        rates[i] = 0;
        frozen[i] = !active[i];
        if (!frozen[i])
            unfrozen++;
    }
    while (unfrozen > 0) {
        memset(users, 0, (size_t)n_res * sizeof *users);
        for (int i = 0; i < n_flows; i++)
            if (!frozen[i])
                for (int k = 0; k < flows[i].n_res; k++)
                    users[flows[i].res[k]]++;
        double inc = INFINITY;
        int bottleneck = -1;
        for (int r = 0; r < n_res; r++) {
            if (users[r] == 0 || isinf(left[r]))
                continue;
            double share = left[r] / users[r];
            if (share < inc) {
                inc = share;
                bottleneck = r;
            }
        }
        if (bottleneck < 0) { /* the rest cross only unlimited resources */
            for (int i = 0; i < n_flows; i++)
                if (!frozen[i])
                    rates[i] = INFINITY;
            break;
        }
        for (int i = 0; i < n_flows; i++)
            if (!frozen[i])
                rates[i] += inc;
        for (int r = 0; r < n_res; r++)
            if (users[r] > 0 && !isinf(left[r]))
                left[r] -= inc * users[r];
        /* Freeze the flows that cross any saturated resource. */
        for (int i = 0; i < n_flows; i++) {
            if (frozen[i])
                continue;
            for (int k = 0; k < flows[i].n_res; k++) {
                int r = flows[i].res[k];
                if (!isinf(left[r]) && left[r] <= 1e-12 * cap[r]) {
                    frozen[i] = true;
                    unfrozen--;
                    break;
                }
            }
        }
        left[bottleneck] = 0; /* rounding must not leave it unsaturated */
    }
    free(left);
    free(users);
    free(frozen);
}

cs_status cs_io_simulate(const double *cap, int n_res, struct cs_io_flow *flows, int n_flows)
{
    for (int i = 0; i < n_flows; i++) {
        if (!(flows[i].bytes >= 0) || !(flows[i].start_s >= 0) || flows[i].n_res < 0 ||
            flows[i].n_res > CS_IO_MAX_RES)
            return CS_EINVAL;
        for (int k = 0; k < flows[i].n_res; k++)
            if (flows[i].res[k] < 0 || flows[i].res[k] >= n_res)
                return CS_EINVAL;
    }
    size_t nf = (size_t)(n_flows > 0 ? n_flows : 1);
    double *remaining = cs_xmalloc(nf * sizeof *remaining);
    double *rates = cs_xmalloc(nf * sizeof *rates);
    bool *active = cs_xmalloc(nf * sizeof *active);
    bool *done = cs_xmalloc(nf * sizeof *done);
    int left = n_flows;
    for (int i = 0; i < n_flows; i++) {
        remaining[i] = flows[i].bytes;
        active[i] = false;
        done[i] = false;
    }
    double now = 0;
    cs_status st = CS_OK;
    while (left > 0) {
        /* Start every flow whose start time has come; finish empty ones. */
        for (int i = 0; i < n_flows; i++) {
            if (done[i] || active[i] || flows[i].start_s > now)
                continue;
            if (remaining[i] <= 0) {
                flows[i].finish_s = flows[i].start_s;
                done[i] = true;
                left--;
            } else {
                active[i] = true;
            }
        }
        if (left == 0)
            break;
        cs_io_maxmin(cap, n_res, flows, active, n_flows, rates);
        double next = INFINITY;
        for (int i = 0; i < n_flows; i++) {
            if (active[i]) {
                if (isinf(rates[i]) || rates[i] <= 0) {
                    st = CS_EINVAL;
                    goto out;
                }
                double t = now + remaining[i] / rates[i];
                if (t < next)
                    next = t;
            } else if (!done[i] && flows[i].start_s < next) {
                next = flows[i].start_s;
            }
        }
        for (int i = 0; i < n_flows; i++) {
            if (!active[i])
                continue;
            remaining[i] -= rates[i] * (next - now);
            /* Relative tolerance: the flow that set `next` ends exactly. */
            if (remaining[i] <= 1e-9 * flows[i].bytes) {
                active[i] = false;
                done[i] = true;
                flows[i].finish_s = next;
                left--;
            }
        }
        now = next;
    }
out:
    free(remaining);
    free(rates);
    free(active);
    free(done);
    return st;
}

double cs_storage_node_bw(const struct cs_storage_spec *t, bool write)
{
    double bw = write ? t->write_bw_bytes_per_s : t->read_bw_bytes_per_s;
    if (t->kind == CS_STORAGE_NVME)
        return bw * (t->devices_per_node > 0 ? t->devices_per_node : 1);
    return bw;
}

bool cs_storage_remote(const struct cs_storage_spec *t)
{
    return t->kind != CS_STORAGE_NVME;
}

const struct cs_storage_spec *cs_storage_find(const struct cs_storage_cfg *c, const char *name)
{
    if (c->n_tiers == 0)
        return NULL;
    if (!name || !*name)
        return &c->tiers[0];
    for (int i = 0; i < c->n_tiers; i++)
        if (!strcmp(c->tiers[i].name, name))
            return &c->tiers[i];
    static const char *const kinds[] = {"nvme", "pfs", "object"};
    for (int k = 0; k < 3; k++) {
        if (strcmp(name, kinds[k]) != 0)
            continue;
        for (int i = 0; i < c->n_tiers; i++)
            if ((int)c->tiers[i].kind == k)
                return &c->tiers[i];
    }
    return NULL;
}

cs_status cs_storage_transfer_s(const struct cs_storage_spec *t, bool write, int nodes,
                                double bytes_per_node, double nic_bw, double *out_s)
{
    double node_bw = cs_storage_node_bw(t, write);
    if (nodes < 1 || !(node_bw > 0) || !(bytes_per_node >= 0))
        return CS_EINVAL;
    /* Resources: 0 = the tier's aggregate; then per node its client path
     * and (remote tiers) its NIC share. Node-local NVMe has no aggregate. */
    bool remote = cs_storage_remote(t);
    bool nic = remote && nic_bw > 0 && isfinite(nic_bw);
    int per = nic ? 2 : 1;
    int n_res = 1 + per * nodes;
    double *cap = cs_xmalloc((size_t)n_res * sizeof *cap);
    struct cs_io_flow *f = cs_xmalloc((size_t)nodes * sizeof *f);
    cap[0] = remote && t->aggregate_bw_bytes_per_s > 0 ? t->aggregate_bw_bytes_per_s : INFINITY;
    for (int i = 0; i < nodes; i++) {
        cap[1 + per * i] = node_bw;
        if (nic)
            cap[2 + per * i] = nic_bw;
        memset(&f[i], 0, sizeof f[i]);
        f[i].bytes = bytes_per_node;
        f[i].res[f[i].n_res++] = 0;
        f[i].res[f[i].n_res++] = 1 + per * i;
        if (nic)
            f[i].res[f[i].n_res++] = 2 + per * i;
    }
    cs_status st = cs_io_simulate(cap, n_res, f, nodes);
    if (st == CS_OK) {
        double end = 0;
        for (int i = 0; i < nodes; i++)
            if (f[i].finish_s > end)
                end = f[i].finish_s;
        double lat = t->latency_s > 0 ? t->latency_s : 0;
        *out_s = end + lat;
    }
    free(cap);
    free(f);
    return st;
}
