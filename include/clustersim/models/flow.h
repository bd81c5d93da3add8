/* flow.h: flow-level network simulation. Flows follow fixed paths of links;
 * concurrent flows share every link by max-min fairness (progressive
 * filling, Bertsekas & Gallager, Data Networks, 6.5), recomputed whenever a
 * flow starts or ends; time advances from one flow completion or step start
 * to the next (no time slicing). Work is organised in jobs; a job is a
 * sequence of steps; all flows of a step start together once every flow of
 * the previous step has finished plus the step's latency (a barrier per
 * step, as a ring's lock-step). A flow *class* stands for several flows of
 * one step that symmetry gives the same rate (the n flows of a ring step):
 * it is one rate variable whose load on a link is (members crossing the
 * link) x rate, which is exact when the members are symmetric and makes a
 * 16k-GPU ring cost one variable per step. Rates are reused when the set of
 * active classes repeats (consecutive ring steps). Times in seconds (double;
 * this model runs outside the engine). Not thread-safe per object. */
#ifndef CLUSTERSIM_FLOW_H
#define CLUSTERSIM_FLOW_H

#include "clustersim/models/collective.h"
#include "clustersim/models/topology.h"
#include "clustersim/base/status.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct cs_flow_sim cs_flow_sim;

/* A simulation over the links of fabric f (borrowed; must outlive it). */
cs_flow_sim *cs_flow_sim_create(const cs_fabric *f);
/* A simulation over n bare links of the given capacities (copied; NULL:
 * zero, to be set through cs_flow_sim_link_caps), for hand-built paths. */
cs_flow_sim *cs_flow_sim_create_links(const double *cap_bytes_per_s, int n);
void cs_flow_sim_destroy(cs_flow_sim *s); /* accepts NULL */
/* A simulation made by cs_flow_sim_create_links made ready again for n bare
 * links of capacity 0 (to set through cs_flow_sim_link_caps), with no job
 * or class, keeping its buffers: repeated solves on a large fabric reuse
 * their memory instead of faulting in fresh pages each time. Returns s, or
 * NULL for NULL or a simulation over a fabric (cs_flow_sim_create). */
cs_flow_sim *cs_flow_sim_recycle(cs_flow_sim *s, int n);
/* The capacities of a simulation made by cs_flow_sim_create_links (NULL
 * allowed there: all 0), n of them, to fill in place before any class is
 * added; saves a caller building a large fabric's capacities twice. */
double *cs_flow_sim_link_caps(cs_flow_sim *s);
/* Room for n_cls more classes holding n_lm (link, multiplicity) pairs in
 * all, reserved at once: a caller that knows its totals avoids the
 * doubling reallocations (and their copies) of adding them one by one.
 * Only an optimization: adding more than reserved still works. */
void cs_flow_sim_reserve(cs_flow_sim *s, int n_cls, long n_lm);
/* A link of its own (not in any fabric) with capacity cap (B/s > 0): its
 * index, or -1 for bad arguments. A collective puts its senders' NCCL p2p
 * channel cap (cs_coll_p2p_rate_bps) on such links, one per sending GPU. */
int cs_flow_sim_add_link(cs_flow_sim *s, double cap_bytes_per_s);

/* Adds a job starting at start_s; returns its id (0, 1, ...). */
int cs_flow_job_add(cs_flow_sim *s, double start_s);
/* Appends a step to job: it starts latency_s after the previous step ended
 * (after start_s for the first) and runs `repeat` >= 1 times back to back
 * (each time with the same flows, again after latency_s). */
cs_status cs_flow_step_add(cs_flow_sim *s, int job, double latency_s, int repeat);
/* Adds one flow of `bytes` over explicit links to the job's last step. */
cs_status cs_flow_add_path(cs_flow_sim *s, int job, const int *links, int n_links, double bytes);
/* Adds flows src[i] -> dst[i] (GPU ids, routed on the fabric with flow ids
 * flow_id0 + i) of `bytes` each to the job's last step: one class for all n
 * if aggregate, else one class per flow. The step's latency grows by the
 * longest path latency. */
cs_status cs_flow_add_gpu_flows(cs_flow_sim *s, int job, const int *src, const int *dst, int n, double bytes,
                                uint64_t flow_id0, bool aggregate);

/* Adds a class of `members` flows of `bytes` each to the job's last step
 * that all move at one rate: links[i] carries mult[i] of them (a pipelined
 * ring is one such class: every edge streams at the ring's rate). Its id
 * (0, 1, ... in the order added) in *id (nullable). CS_EINVAL for a bad
 * link, multiplicity or count. */
cs_status cs_flow_add_class(cs_flow_sim *s, int job, const int *links, const int *mult, int n, int members,
                            double bytes, int *id);

/* The steady state of persistent streams: the max-min fair rates of the
 * classes of every job's first step, all active together, computed once
 * without advancing time (cs_flow_class_rate reads them). */
cs_status cs_flow_solve_steady(cs_flow_sim *s);
/* Rate of one member of class id (bytes/s) after cs_flow_solve_steady or
 * during cs_flow_run; NAN for a bad id. */
double cs_flow_class_rate(const cs_flow_sim *s, int id);

/* Runs to completion. CS_EINVAL if a flow has a zero-capacity link. */
cs_status cs_flow_run(cs_flow_sim *s);
double cs_flow_job_finish_s(const cs_flow_sim *s, int job);

struct cs_flow_stats {
    long flows;          /* flows simulated (class members x step runs) */
    long classes;        /* class activations */
    long rate_solves;    /* max-min computations */
    long rate_reuses;    /* times the previous rates were reused */
    long events;         /* loop iterations */
};
void cs_flow_stats_get(const cs_flow_sim *s, struct cs_flow_stats *out);

/* One collective job for the multi-job runner. gpu_ids: the ranks in ring
 * order (borrowed). */
struct cs_flow_job_spec {
    enum cs_coll_op op;
    double bytes;        /* nccl-tests convention, as cs_coll_time */
    const int *gpu_ids;
    int n;
    enum cs_coll_algo algo; /* AUTO, RING or HIER (AUTO: HIER when multi-node with equal GPUs per node) */
    double start_s;
};

/* Turns a collective into steps and flows of job `job` of s: ring (2(n-1)
 * steps for all_reduce, n-1 for all_gather/reduce_scatter, chunk S/n),
 * hierarchical (intra-node ring reduce-scatter, one inter-node ring per local
 * rank, intra-node all-gather), alltoall (one step, all pairs), sendrecv
 * (i -> i+1), broadcast (pipelined chain). Latencies from the same
 * parameters as the closed form (Simple protocol). TREE, NVLS and SHARP:
 * CS_EUNSUPPORTED. */
cs_status cs_flow_collective_build(cs_flow_sim *s, int job, const struct cs_flow_job_spec *spec, bool aggregate);

/* Time of one collective alone on fabric f. */
cs_status cs_flow_collective(const cs_fabric *f, enum cs_coll_op op, double bytes, const int *gpu_ids, int n,
                             enum cs_coll_algo algo, double *time_s);
/* Several collectives at once on f; finish_s[i] is job i's completion time
 * (absolute). stats nullable. */
cs_status cs_flow_collectives(const cs_fabric *f, const struct cs_flow_job_spec *jobs, int n_jobs, bool aggregate,
                              double *finish_s, struct cs_flow_stats *stats);

#endif
