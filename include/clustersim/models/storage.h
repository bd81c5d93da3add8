/* storage.h: storage tiers as bandwidth resources (models/storage.c).
 * A tier is node-local NVMe (a node's devices striped RAID-0: the node's
 * bandwidth is devices x per-device bandwidth), a parallel file system
 * (per-client bandwidth, an aggregate limit, metadata latency; GPUDirect
 * Storage is a PFS tier whose per-client bandwidth is not bounded by the
 * host path) or object storage (per-client and aggregate bandwidth, request
 * latency). Traffic to a remote tier also crosses the node's scale-out NICs,
 * which it shares with collectives.
 *
 * Concurrent transfers share every resource they cross by max-min fairness
 * (progressive filling: Bertsekas & Gallager, "Data Networks", 2nd ed.,
 * section 6.5.2), recomputed whenever a transfer starts or ends, so a
 * transfer's completion time falls out of the contention instead of a
 * fixed bandwidth. */
#ifndef CLUSTERSIM_STORAGE_H
#define CLUSTERSIM_STORAGE_H

#include "clustersim/models/scenario.h"
#include "clustersim/base/status.h"

#include <stdbool.h>

/* ---- generic max-min sharing ------------------------------------------- */

#define CS_IO_MAX_RES 4

/* One transfer. `res` lists the resources it crosses (indices into the
 * capacity array); `finish_s` is written by cs_io_simulate. */
struct cs_io_flow {
    double bytes;
    double start_s;
    int n_res;
    int res[CS_IO_MAX_RES];
    double finish_s;            /* out */
};

/* Max-min fair rates (bytes/s) of the flows with active[i] true over
 * resources of capacity cap[0..n_res) (INFINITY allowed, not NAN): every
 * flow's rate is as large as possible without lowering a smaller one.
 * Inactive flows get 0. A flow crossing only unlimited resources gets
 * INFINITY. O(n_res x (n_res + n_flows x CS_IO_MAX_RES)). */
void cs_io_maxmin(const double *cap, int n_res, const struct cs_io_flow *flows,
                  const bool *active, int n_flows, double *rates);

/* Simulates the flows from their start times to completion, recomputing the
 * max-min rates at every start and end, and writes each flow's finish_s
 * (start_s for a flow of 0 bytes). CS_EINVAL for a negative size or start,
 * a resource index out of range, or a flow with infinite rate and bytes > 0.
 * O(events x cs_io_maxmin). */
cs_status cs_io_simulate(const double *cap, int n_res, struct cs_io_flow *flows, int n_flows);

/* ---- tiers -------------------------------------------------------------- */

/* Bandwidth one node gets from tier t when alone (bytes/s, one direction):
 * nvme: devices_per_node x per-device bandwidth (RAID-0); pfs/object: the
 * per-client bandwidth. NAN when the catalog gives none. */
double cs_storage_node_bw(const struct cs_storage_spec *t, bool write);

/* True when traffic to t crosses the scale-out fabric (pfs and object). */
bool cs_storage_remote(const struct cs_storage_spec *t);

/* The storage tier named `name` of c, or the first of kind `name` ("nvme",
 * "pfs", "object"); NULL when none. "" gives the first tier. */
const struct cs_storage_spec *cs_storage_find(const struct cs_storage_cfg *c, const char *name);

/* Time for `nodes` nodes to move bytes_per_node each, all starting
 * together, to (write) or from tier t, through each node's share of the
 * fabric `nic_bw` (bytes/s per node; INFINITY or NAN: not limited) for a
 * remote tier, sharing the tier's aggregate bandwidth max-min; plus one
 * latency. CS_EINVAL when the tier has no bandwidth for the direction or
 * nodes < 1. */
cs_status cs_storage_transfer_s(const struct cs_storage_spec *t, bool write, int nodes,
                                double bytes_per_node, double nic_bw, double *out_s);

#endif
