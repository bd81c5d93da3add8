/* sched_internal.h: the state the trace replay shares between its files
 * (internal to models/; the public contract is clustersim/models/scheduler.h).
 *
 *   scheduler.c   policies (FIFO, EASY backfill, SJF), preemption, the event
 *                 loop, setup and results
 *   placement.c   which group and which nodes/GPUs a job gets (packed,
 *                 scattered, best-fit, leaf-aware), GPU-type match masks
 *   partitions.c  partition checks, trace-partition mapping, match rules,
 *                 priorities and quotas
 *   mig.c         capacity in MIG slices per GPU (with the per-group
 *                 histograms), slice-job shapes and slice placement
 *   contention.c  workload jobs: step time from the step model and the
 *                 slowdown from the leaf-uplink bandwidth share
 *
 * Capacity is tracked per GPU in MIG slices, with per-group histograms
 * (nodes by free GPUs, GPUs by free slices) so that "does it fit?" costs
 * O(GPUs per node), not O(nodes). Every function here works on one replay's
 * struct cs__sim, which cs_sched_run owns; nothing is global. */
#ifndef CLUSTERSIM_MODELS_SCHED_INTERNAL_H
#define CLUSTERSIM_MODELS_SCHED_INTERNAL_H

#include "clustersim/models/scheduler.h"

#include "clustersim/base/diag.h"
#include "clustersim/sim/sim.h"
#include "clustersim/sim/stats.h"
#include "clustersim/models/step.h"
#include "clustersim/models/workload.h"

#include <gsl/gsl_rng.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define S7 (s->S) /* slices per GPU of this replay (needs a `s` in scope) */
#define CS__MAX_GPN 72 /* GPUs per node a node group may have (cs__check) */

enum { JS_PENDING, JS_QUEUED, JS_RUNNING, JS_DONE, JS_REJECTED };

struct cs__job {
    int state;
    int whole;            /* whole GPUs asked (0 for a MIG slice job) */
    int slices;           /* slices per GPU: S7, or 1..6 for a MIG slice job */
    int need;             /* total slices held while running */
    double busy;          /* GPUs counted busy while running (the trace's share) */
    int prio;
    int part;             /* config partition index, or n_partitions for none */
    uint32_t groups;      /* allowed groups, bitmask */
    cs_time submit, first_start, start, end;
    cs_time remaining;    /* run time still to do (ns) */
    double slowdown;      /* current run-time factor (workload jobs) */
    double step1_s;       /* workload jobs: step time alone at share 1; 0 otherwise */
    double share_min;     /* smallest bandwidth share seen */
    bool cross;           /* running, workload job whose ring leaves a leaf */
    cs_time seg_start;    /* start of the current constant-rate segment */
    cs_time ran;          /* wall time run in finished segments */
    cs_event_id fin;
    int group;            /* placed group */
    int n_gpu;            /* GPUs in the placement */
    int nodes, leaves;
    int preempt;
};

struct cs__change { cs_time t; double alloc, busy, wait; };  /* wait: GPUs asked by waiting jobs */

struct cs__wl_cache {
    int wl, n;
    double share;
    double step_s;                 /* NAN: no parallelism fits */
    struct cs_parallel par;        /* the rule's choice at share 1 */
    enum cs_recompute recompute;
};

/* A shape class of waiting jobs (jobqueue.c): jobs of one shape fit or do
 * not fit alike, so a scheduling pass treats them as one. */
struct cs__jq_class {
    int whole, slices;
    uint32_t groups;
    int root;             /* its treap of waiting jobs, by queue order */
    int first, last;      /* its list in queue order (cprev, cnext), -1 when empty */
    long n;               /* waiting jobs of the class */
    /* scratch of one scheduling pass (cs__pass) */
    long next;            /* its next candidate job, -1 for none */
    bool long_out;        /* only jobs that end by the shadow time can start */
};

/* The waiting jobs (jobqueue.c): an order-statistics treap by queue order
 * (cs_sched__qcmp) and one treap per shape class with the minimum
 * estimated run time of each subtree. Per-job arrays of n_jobs + 1. */
struct cs__jq {
    int root;
    long n;
    int *gl, *gr, *gsz;   /* order treap: children, subtree size */
    int *cl, *cr;         /* class treaps: children */
    cs_time *cmn, *est;   /* class treaps: subtree minimum of est; est (ns) */
    int *cls;             /* class of a waiting job */
    struct cs__jq_class *classes;
    int nclass, capclass;
    int *stk, nstk, capstk; /* the iterator's stack (cs_sched__jq_seek) */
    int *kp;              /* order keys copied at insert: priority, */
    cs_time *ks;          /* submit time, */
    double *kd;           /* trace duration (SJF) */
    int *cprev, *cnext;   /* each class's waiting jobs as a list in queue order */
    bool sjf;
    uint32_t salt;        /* of the treap priorities (jobqueue.c) */
};

struct cs__sim {
    const struct cs_sched_config *cfg;
    const struct cs_trace *tr;
    cs_diags *d;
    cs_engine *e;
    int h_arrive, h_finish, h_pass;
    /* Arrivals, fired one submit time at a time (docs/replay.md, "Speed"):
     * the accepted jobs by (submit, index), the next one to fire. Only
     * the next arrival time is in the event queue, not every job's. */
    uint32_t *arr_order;
    long arr_n, arr_next;
    bool pass_pending;
    /* cluster */
    int n_nodes, n_gpus, n_leaves;
    int *node_group, *node_leaf, *node_free, *node_gpu0;  /* node_free: whole free GPUs */
    unsigned char *gpu_free;                              /* free slices per GPU */
    int *grp_node0;
    long grp_free_slices[CS_SCHED_MAX_GROUPS];
    long grp_free_whole[CS_SCHED_MAX_GROUPS];
    long grp_total_slices[CS_SCHED_MAX_GROUPS];
    long *nodes_by_free;   /* [group][0..gpn] */
    long *gpus_by_slices;  /* [group][0..7] */
    long *leaf_free;       /* whole free GPUs per leaf */
    long total_slices;
    long used_slices;
    double busy;
    long *part_used;       /* slices per partition (n_partitions + 1) */
    /* jobs */
    struct cs__job *jobs;
    long n_jobs;
    int *gpu_list;         /* placements: job i owns gpu_list[gpu_off[i] ..] */
    long *gpu_off;
    struct cs__jq jq;      /* waiting jobs (jobqueue.c) */
    long qlen, qcap;       /* waiting jobs now, and the most at once */
    long wait_slices;      /* slices the waiting jobs ask for (the timeline's queued demand) */
    long n_ended;          /* jobs finished or rejected (progress) */
    int *jq_act, jq_actcap;/* a pass's classes with candidates left (cs__pass) */
    long jq_wend;          /* a pass's last job of the window */
    uint64_t examined;     /* jobs looked at by passes (cs_sched_result.examined) */
    int *running;          /* sorted by (end, index) */
    long rlen;
    /* metrics */
    struct cs_stat_timeavg frag;
    struct cs__change *chg;
    long nchg, chgcap;
    double *part_chg;      /* per change: allocated GPUs per partition */
    gsl_rng *rng;
    int *scratch, *scratch2; /* nodes */
    int S;                 /* slices per GPU */
    long rejected_type, rejected_size;
    /* workload model */
    struct cs_model_shape *wl;   /* per trace workload index; NULL when no fabric */
    struct cs__wl_cache *wcache;
    int nwcache, wcap;
    struct cs_fabric_geom geo;   /* of the fabric (group 0) */
    int ports_per_node;          /* NIC ports a node drives into its leaf */
    long *leaf_dem;              /* uplink demand per leaf (ports), cross jobs running */
    int *xjobs;                  /* running cross jobs */
    long nx;
    long wl_unfit;               /* workload jobs the step model could not run */
    /* EASY reservation scratch (cs__reserve) */
    unsigned stamp;
    unsigned *gpu_stamp, *node_stamp;
    int *tmp_node;
    unsigned char *tmp_gpu;
    cs_status err;
};

static inline int cs__gpn(const struct cs__sim *s, int g) { return s->cfg->groups[g].gpus_per_node; }
/* Nodes of group g by whole free GPUs: [0 .. CS__MAX_GPN]. */
static inline long *cs__nbf(struct cs__sim *s, int g) { return s->nodes_by_free + (long)g * (CS__MAX_GPN + 1); }
/* GPUs of group g by free slices: [0 .. S]. */
static inline long *cs__gbs(struct cs__sim *s, int g) { return s->gpus_by_slices + (long)g * (S7 + 1); }

/* ---- jobqueue.c ---- */

/* The queue order: higher priority first, then (SJF) the shorter trace
 * duration, then the earlier submit time, then the lower index. */
int cs_sched__qcmp(const struct cs__sim *s, long a, long b);
void cs_sched__jq_init(struct cs__sim *s, long n_jobs);
void cs_sched__jq_fini(struct cs__sim *s);
/* Adds waiting job ji (not in the queue) with estimated run time est (ns);
 * its class is that of its shape now. O(log n). */
void cs_sched__jq_insert(struct cs__sim *s, long ji, cs_time est);
/* Removes waiting job ji. O(log n). */
void cs_sched__jq_erase(struct cs__sim *s, long ji);
/* The first waiting job in queue order, or -1. */
long cs_sched__jq_first(const struct cs__sim *s);
/* The first waiting job after job x in queue order (x need not wait), or -1. */
long cs_sched__jq_next(const struct cs__sim *s, long x);
/* Iteration in queue order: seek puts the iterator on the first waiting job
 * after job x (x < 0: the first job) and returns it; step moves it to the
 * next and returns that (-1 at the end). Any insert or erase invalidates
 * the iterator: seek again. O(log n) per seek, O(1) amortized per step. */
long cs_sched__jq_seek(struct cs__sim *s, long x);
long cs_sched__jq_step(struct cs__sim *s);
/* The k-th (0-based) waiting job in queue order, or -1. */
long cs_sched__jq_select(const struct cs__sim *s, long k);
/* The first waiting job of class c, or -1: O(1). */
long cs_sched__jq_class_first(const struct cs__sim *s, int c);
/* The job after job x in x's class, in queue order, or -1: O(1). Still
 * valid after x's erase while nothing else in the class changes (a pass
 * goes on from a job it started). */
long cs_sched__jq_class_after(const struct cs__sim *s, long x);
/* The first waiting job of class c after job x (x < 0: from the first)
 * whose estimated run time is at most dmax, or -1. */
long cs_sched__jq_class_next(const struct cs__sim *s, int c, long x, cs_time dmax);

/* ---- mig.c ---- */

/* Sets GPU `gpu` of node `node` to `slices` free slices, keeping every
 * aggregate (histograms, group, node and leaf counts) in step. */
void cs_sched__gpu_set(struct cs__sim *s, int node, int gpu, int slices);
/* True when a GPU of group g has at least j->slices free slices. */
bool cs_sched__mig_fits(struct cs__sim *s, const struct cs__job *j, int g);
/* The GPU of group g with the fewest free slices that still hold
 * j->slices (lowest index on ties), its node in *node; -1 when none. */
int cs_sched__mig_pick(const struct cs__sim *s, const struct cs__job *j, int g, int *node);
/* The shape of a job asking for `gpus` GPUs on GPUs of S slices: with
 * `mig` and gpus < 1, a slice job of ceil(gpus x S) slices; otherwise
 * ceil(gpus) whole GPUs. Sets j->whole, j->slices and j->need. */
void cs_sched__job_shape(int S, bool mig, double gpus, struct cs__job *j);

/* ---- placement.c ---- */

/* The first group (in index order) allowed to j where it fits now, or -1. */
int cs_sched__fit_group(struct cs__sim *s, const struct cs__job *j);
/* Places job ji (known to fit in g): takes its GPUs (recorded in
 * gpu_list), sets its group, GPU, node and leaf counts. */
void cs_sched__place(struct cs__sim *s, long ji, int g);
/* Gives job ji's GPUs back. */
void cs_sched__release(struct cs__sim *s, long ji);
/* For each GPU type of trace t, the bitmask of the groups of cfg that have
 * it (0: none). An array of t->gpu_types.n entries (at least one), owned by
 * the caller (free). */
uint32_t *cs_sched__type_masks(const struct cs_sched_config *cfg, const struct cs_trace *t);

/* ---- partitions.c ---- */

/* Checks the quotas of cfg's partitions (each in [0, 1] or NAN for none,
 * adding up to at most 1); adds one error per problem to d and returns
 * false when there is one. */
bool cs_sched__check_quotas(const struct cs_sched_config *cfg, cs_diags *d);
/* For each partition name of trace t, the index of the config partition of
 * that name, or cfg->n_partitions for none. An array of t->partitions.n
 * entries (at least one), owned by the caller (free). */
int *cs_sched__partition_map(const struct cs_sched_config *cfg, const struct cs_trace *t);
/* Sets j->part (the trace's partition mapped by `map`, else the first
 * configured partition whose rule matches, else none) and j->prio (the
 * job's priority plus its partition's). */
void cs_sched__assign_partition(const struct cs_sched_config *cfg, const int *map, size_t nmap,
                                const struct cs_trace_job *tj, struct cs__job *j);
/* True when j's partition quota leaves room for it now. */
bool cs_sched__quota_ok(const struct cs__sim *s, const struct cs__job *j);
/* False when j's partition quota could never hold it, even on an idle
 * cluster of total_slices slices. */
bool cs_sched__quota_ever(const struct cs_sched_config *cfg, const struct cs__job *j,
                          long total_slices);

/* ---- contention.c ---- */

/* Step time (s) of workload wl on n GPUs at bandwidth share `share` (the
 * parallelism rule of docs/replay.md); NAN when nothing fits. Cached. */
double cs_sched__wl_step(struct cs__sim *s, int wl, int n, double share);
/* Ring edges of job ji that leave a leaf; with dem, adds sign x the node's
 * NIC ports to dem[source leaf] per edge. */
int cs_sched__cross_edges(struct cs__sim *s, long ji, long *dem, int sign);
/* Job ji's bandwidth share under leaf demand dem: at most 1. */
double cs_sched__job_share(struct cs__sim *s, long ji, const long *dem);
/* Run-time factor of running workload job ji at bandwidth share `share`. */
double cs_sched__wl_slowdown(struct cs__sim *s, long ji, double share);

#endif
