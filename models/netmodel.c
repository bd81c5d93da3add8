/* netmodel.c: communicator network shares from flow-level rounds on the
 * job's placement (netmodel.h; equations in docs/fabric.md section 3b).
 * Layer: models/. */
#include "clustersim/models/netmodel.h"
#include "clustersim/models/cluster.h"
#include "clustersim/models/flow.h"
#include "clustersim/models/topology.h"
#include "clustersim/base/xmalloc.h"

#include <math.h>
#include <stdarg.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Hashed streams per ring edge at most (ECMP). */
#define CS_NET_MAX_QPS 32
/* Realizations a share is averaged over where it depends on chance: ECMP's
 * hashes, and a scattered placement (of the job or of a neighbour), whose
 * node order is one draw of the scheduler's shuffle. Draw d uses hash salt d
 * and, for what is scattered, the placement of seed + d x PLACE_SEED_STEP;
 * draw 0 is the model's own placement (cs_netmodel_job_gpus). */
#define CS_NET_DRAWS 4
#define PLACE_SEED_STEP 7919u
/* Capacity standing for "not a constraint" on the ideal fabric. */
#define UNCONSTRAINED 1e30

struct cache_ent {
    int pattern, size;
    long stride;
    double share;
};

struct nb_state {
    struct cs_neighbour_cfg cfg;
    int *gpus;       /* draw 0's placement (gpus_d[0]) */
    int *gpus_d[CS_NET_DRAWS];
    long n;
    double duty; /* fraction of the time its traffic is on the fabric */
};

struct cs_netmodel {
    struct cs_cluster_cfg c;
    cs_fabric *fab;
    int *job;   /* GPU of each job rank (draw 0: job_d[0]) */
    int *job_d[CS_NET_DRAWS]; /* the job's placement in each draw (NULL beyond n_place) */
    int n_place; /* placements drawn: CS_NET_DRAWS when the job or a neighbour is scattered, else 1 */
    long n_job;
    struct nb_state *nb;
    int n_nb;
    struct cs_net_storage_load st[CS_NET_MAX_STORAGE];
    int n_st;
    pthread_mutex_t lock;
    struct cache_ent *cache;
    int n_cache, cap_cache;
    long sims, hits;
    struct sb_scratch *spare; /* share_once's buffers between calls (under lock) */
};

struct sb_scratch;
static void sb_scratch_free(struct sb_scratch *x);

static void why_set(char *why, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void why_set(char *why, size_t len, const char *fmt, ...)
{
    if (!why || len == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, len, fmt, ap);
    va_end(ap);
}

cs_status cs_netmodel_create(const struct cs_cluster_cfg *c, long job_gpus, const struct cs_neighbour_cfg *nb,
                             int n_nb, uint64_t seed, cs_netmodel **out, char *why, size_t why_len)
{
    if (!c || !out || n_nb < 0 || (n_nb > 0 && !nb) || c->gpus_per_node < 1 || c->nodes < 1) {
        why_set(why, why_len, "bad arguments");
        return CS_EINVAL;
    }
    long total = (long)c->nodes * c->gpus_per_node;
    if (job_gpus <= 0)
        job_gpus = total;
    if (job_gpus > total || job_gpus % c->gpus_per_node != 0) {
        why_set(why, why_len, "the job's %ld GPUs are not whole nodes of the cluster's %ld", job_gpus, total);
        return CS_EINVAL;
    }
    cs_fabric *fab = NULL;
    cs_status rc = cs_fabric_create(c, seed, &fab);
    if (rc != CS_OK) {
        why_set(why, why_len, "%s (%ld GPUs)",
                rc == CS_ERANGE ? "the cluster does not fit its topology" : "bad cluster", total);
        return rc;
    }
    cs_netmodel *m = cs_xcalloc(1, sizeof *m);
    m->c = *c;
    m->fab = fab;
    pthread_mutex_init(&m->lock, NULL);
    m->n_job = job_gpus;
    bool scattered = c->fabric.placement == CS_PLACEMENT_SCATTERED;
    for (int i = 0; i < n_nb; i++)
        scattered = scattered || nb[i].placement == CS_PLACEMENT_SCATTERED;
    m->n_place = scattered ? CS_NET_DRAWS : 1;
    if (n_nb > 0) {
        m->nb = cs_xcalloc((size_t)n_nb, sizeof *m->nb);
        m->n_nb = n_nb;
    }
    unsigned char *used = cs_xcalloc((size_t)total, 1);
    rc = CS_OK;
    for (int d = 0; d < m->n_place && rc == CS_OK; d++) {
        uint64_t dseed = seed + (uint64_t)d * PLACE_SEED_STEP;
        memset(used, 0, (size_t)total);
        m->job_d[d] = cs_xmalloc((size_t)job_gpus * sizeof *m->job_d[d]);
        rc = cs_fabric_place(fab, (enum cs_place_policy)c->fabric.placement, (int)job_gpus, dseed, used,
                             m->job_d[d]);
        for (int i = 0; i < n_nb && rc == CS_OK; i++) {
            struct nb_state *s = &m->nb[i];
            if (d == 0) {
                s->cfg = nb[i];
                if (nb[i].gpus < 1 || nb[i].gpus % c->gpus_per_node != 0 || !(nb[i].bytes > 0) ||
                    !(nb[i].interval_s > 0)) {
                    rc = CS_EINVAL;
                    why_set(why, why_len,
                            "neighbour %d: %ld GPUs; gpus (whole nodes), bytes and interval must be positive", i,
                            nb[i].gpus);
                    break;
                }
                s->n = nb[i].gpus;
            }
            s->gpus_d[d] = cs_xmalloc((size_t)s->n * sizeof *s->gpus_d[d]);
            rc = cs_fabric_place(fab, (enum cs_place_policy)nb[i].placement, (int)s->n,
                                 dseed + 1000003u * (i + 1), used, s->gpus_d[d]);
            if (rc != CS_OK || d > 0)
                continue;
            s->gpus = s->gpus_d[0];
            /* Its collective alone (closed form; a ring over whole nodes). */
            struct cs_coll_group g;
            memset(&g, 0, sizeof g);
            g.ranks = (int)s->n;
            g.ranks_per_node = c->gpus_per_node;
            g.groups_per_node = 1;
            g.job_nodes = (int)(s->n / c->gpus_per_node);
            static const enum cs_coll_op ops[] = {CS_COLL_ALL_REDUCE, CS_COLL_ALL_GATHER, CS_COLL_REDUCE_SCATTER};
            double t = 0.0;
            double bytes = nb[i].traffic == CS_NB_ALL_REDUCE ? nb[i].bytes : nb[i].bytes * (double)s->n;
            if (cs_coll_time(c, ops[nb[i].traffic], bytes, &g, CS_COLL_AUTO, &t, NULL) != CS_OK)
                t = nb[i].interval_s; /* cannot cost it: assume it is always on */
            s->duty = fmin(1.0, t / nb[i].interval_s);
        }
    }
    m->job = m->job_d[0];
    free(used);
    if (rc != CS_OK) {
        if (rc == CS_EFULL)
            why_set(why, why_len, "the job and its neighbours need more GPUs than the cluster's %ld", total);
        cs_netmodel_destroy(m);
        return rc;
    }
    *out = m;
    return CS_OK;
}

void cs_netmodel_destroy(cs_netmodel *m)
{
    if (!m)
        return;
    for (int i = 0; i < m->n_nb; i++)
        for (int d = 0; d < CS_NET_DRAWS; d++)
            free(m->nb[i].gpus_d[d]);
    free(m->nb);
    for (int d = 0; d < CS_NET_DRAWS; d++)
        free(m->job_d[d]);
    free(m->cache);
    sb_scratch_free(m->spare);
    cs_fabric_destroy(m->fab);
    pthread_mutex_destroy(&m->lock);
    free(m);
}

void cs_netmodel_stats(const cs_netmodel *m, long *simulations, long *hits)
{
    if (simulations)
        *simulations = m->sims;
    if (hits)
        *hits = m->hits;
}

const int *cs_netmodel_job_gpus(const cs_netmodel *m, long *n)
{
    if (n)
        *n = m->n_job;
    return m->job;
}

/* ---- streams: a pipelined ring as one flow class --------------------------
 *
 * NCCL's ring is a pipeline: every edge of a channel's ring carries data
 * continuously at the rate of the ring's slowest edge, so one channel of one
 * ring is one class of the flow model whose members are its inter-node
 * edges (all at one rate), and the communicator's rings and the neighbours'
 * rings share the links by max-min fairness (docs/fabric.md 3b). With
 * adaptive routing each edge is cs_fabric_route_paths() sub-flows, one per
 * uplink. A chain's edges (pipeline sends) are separate streams. */
/* Buffers one share computation needs at the fabric's size (its link
 * marks and NIC flags, the flow simulation), kept by the network model for
 * the next computation: a 16,384-GPU fabric's 10^5 links cost more to fault
 * in afresh for each solve than the solve itself (bench_step,
 * step_405b_16k_flow_s). */
struct sb_scratch {
    cs_flow_sim *sim;
    int *mark;             /* all zero between uses */
    unsigned char *nic;
    int n;                 /* entries of mark and nic */
};

static void sb_scratch_free(struct sb_scratch *x)
{
    if (!x)
        return;
    cs_flow_sim_destroy(x->sim);
    free(x->mark);
    free(x->nic);
    free(x);
}

struct sbuild {
    const cs_fabric *f;
    struct sb_scratch *x;  /* borrowed buffers (NULL: its own) */
    int *mark;             /* n_links: index + 1 of the link in the open class */
    unsigned char *nic;    /* n_links: a NIC port (first or last link of a path) */
    bool spread;
    int paths;
    int qps;               /* ECMP: hashed sub-flows per edge (NCCL's channels per NIC) */
    uint64_t salt;         /* ECMP: which hash realization (netmodel_share averages several) */
    uint64_t fid;          /* ECMP: one flow id per edge */
    int *lk, *mu;          /* (link, multiplicity) of every class, flattened */
    long n, cap;
    long *off;             /* class k: [off[k], off[k + 1]) */
    int *own, *mem;        /* owner (0: the job; 1..: neighbours or rings), members */
    double *pcap;          /* a class's own cap on its total rate (a storage client); INFINITY: none */
    int ncls, capcls;
    int n_links;           /* the fabric's; ids from n_links on are shared virtual links */
    double xcap[CS_NET_MAX_STORAGE]; /* shared virtual links (a storage tier's aggregate) */
    int nx;
    double open_pcap;
    long open_from;        /* start of the open class; -1: none */
    int open_mem;
};

static void sb_init(struct sbuild *b, const cs_fabric *f, struct sb_scratch *x)
{
    memset(b, 0, sizeof *b);
    b->f = f;
    int nl = cs_fabric_n_links(f);
    b->n_links = nl;
    int nm = nl + CS_NET_MAX_STORAGE;
    if (x && x->mark && x->n == nm) {
        memset(x->nic, 0, (size_t)nm);
    } else if (x) {
        free(x->mark);
        free(x->nic);
        x->mark = cs_xcalloc((size_t)nm, sizeof *x->mark);
        x->nic = cs_xcalloc((size_t)nm, 1);
        x->n = nm;
    }
    b->x = x;
    b->mark = x ? x->mark : cs_xcalloc((size_t)nm, sizeof *b->mark);
    b->nic = x ? x->nic : cs_xcalloc((size_t)nm, 1);
    b->spread = cs_fabric_route_mode(f) == CS_ROUTE_ADAPTIVE;
    b->paths = b->spread ? cs_fabric_route_paths(f) : 1;
    /* Under ECMP each of a ring edge's connections hashes on its own: NCCL
     * runs C channels (collective.h, 16 in NCCL 2.23's tuning) over the
     * node's NIC ports, C / ports connections per port and edge. Static
     * (destination-based) routing sends them all one way, adaptive routing
     * spreads them anyway: one sub-flow there. */
    b->qps = 1;
    if (cs_fabric_route_mode(f) == CS_ROUTE_ECMP_HASH) {
        struct cs_coll_params cp;
        cs_coll_params_default(&cp);
        const struct cs_cluster_cfg *c = cs_fabric_cluster(f);
        int ports = cs_cluster_ports_per_node(c);
        int per_port = ports > 0 && cp.channels > ports ? cp.channels / ports : 1;
        int qp = c->fabric.qps_per_connection > 0 ? c->fabric.qps_per_connection : 1;
        /* NCCL_IB_QPS_PER_CONNECTION queue pairs per connection, each a
         * flow of its own to the hash; beyond CS_NET_MAX_QPS streams per
         * edge the load is spread as evenly as the hash gets (the classes
         * stay bounded for 16k-GPU jobs). */
        b->qps = per_port * qp;
        if (b->qps > CS_NET_MAX_QPS)
            b->qps = CS_NET_MAX_QPS;
    }
    b->off = cs_xmalloc(sizeof *b->off);
    b->off[0] = 0;
    b->open_from = -1;
}

static void sb_fini(struct sbuild *b)
{
    if (b->x) { /* the marks back to zero for the next user (an open class's) */
        for (long i = 0; i < b->n; i++)
            b->mark[b->lk[i]] = 0;
    } else {
        free(b->mark);
        free(b->nic);
    }
    free(b->lk);
    free(b->mu);
    free(b->off);
    free(b->own);
    free(b->mem);
    free(b->pcap);
}

static void sb_begin(struct sbuild *b)
{
    b->open_from = b->n;
    b->open_mem = 0;
    b->open_pcap = INFINITY;
}

static void sb_link(struct sbuild *b, int l)
{
    if (b->mark[l]) {
        b->mu[b->mark[l] - 1]++;
        return;
    }
    if (b->n == b->cap) {
        b->cap = b->cap ? 2 * b->cap : 1024;
        b->lk = cs_xrealloc(b->lk, (size_t)b->cap, sizeof *b->lk);
        b->mu = cs_xrealloc(b->mu, (size_t)b->cap, sizeof *b->mu);
    }
    b->lk[b->n] = l;
    b->mu[b->n] = 1;
    b->mark[l] = (int)(b->n + 1);
    b->n++;
}

/* One edge GPU src -> GPU dst of the open class. Returns false for bad ids. */
static bool sb_edge(struct sbuild *b, int src, int dst, int q)
{
    int path[CS_FABRIC_MAX_PATH];
    int subs = b->spread ? b->paths : 1;
    for (int p = 0; p < subs; p++) {
        /* ECMP hashes (src, dst, id): the connection's index tells apart
         * the channels of one edge */
        /* Adaptive: consecutive ids from a per-edge base walk every uplink
         * (2 tiers: id mod up) and, on 3 tiers, every aggregation switch with
         * the core groups rotating across edges, so the capped number of
         * sub-flows still loads every core link evenly in aggregate. */
        uint64_t base = b->spread ? ((uint64_t)src * 0x9e3779b97f4a7c15ULL ^ (uint64_t)dst * 0xc2b2ae3d27d4eb4fULL) >> 16
                                  : 0;
        uint64_t id = b->spread ? base + (uint64_t)p : (uint64_t)q + 64u * b->salt;
        int np = cs_fabric_route(b->f, src, dst, id, path, NULL);
        if (np < 0)
            return false;
        for (int k = 0; k < np; k++)
            sb_link(b, path[k]);
        if (np > 0) {
            b->nic[path[0]] = 1;
            b->nic[path[np - 1]] = 1;
        }
        b->open_mem++;
    }
    return true;
}

static void sb_end(struct sbuild *b, int owner)
{
    for (long i = b->open_from; i < b->n; i++)
        b->mark[b->lk[i]] = 0;
    if (b->open_mem > 0) {
        if (b->ncls == b->capcls) {
            b->capcls = b->capcls ? 2 * b->capcls : 64;
            b->own = cs_xrealloc(b->own, (size_t)b->capcls, sizeof *b->own);
            b->mem = cs_xrealloc(b->mem, (size_t)b->capcls, sizeof *b->mem);
            b->pcap = cs_xrealloc(b->pcap, (size_t)b->capcls, sizeof *b->pcap);
            /* grown with the others (it was reallocated on every class
             * before: a 256 KiB copy per class on large fabrics, which
             * made the sanitizer build's step minutes long) */
            b->off = cs_xrealloc(b->off, (size_t)b->capcls + 1, sizeof *b->off);
        }
        b->pcap[b->ncls] = b->open_pcap;
        b->own[b->ncls] = owner;
        b->mem[b->ncls] = b->open_mem;
        b->ncls++;
        b->off[b->ncls] = b->n;
    } else {
        b->n = b->open_from; /* nothing crossed a node: drop it */
    }
    b->open_from = -1;
}

/* The streams of one ring (or chain) over members gpu[0..n) in ring order.
 * The members are grouped by node in order; channel j of a ring joins the
 * j-th member of each node to the j-th of the next (NCCL's channels cross
 * a node boundary on the rail of their GPU). */
static bool sb_ring(struct sbuild *b, const int *gpu, long n, bool ring, int owner)
{
    long runs = 0;
    long *start = cs_xmalloc((size_t)(n + 1) * sizeof *start);
    long width = 0;
    for (long i = 0; i < n; i++)
        if (i == 0 || cs_fabric_node_of(b->f, gpu[i]) != cs_fabric_node_of(b->f, gpu[i - 1]))
            start[runs++] = i;
    start[runs] = n;
    for (long k = 0; k < runs; k++)
        if (start[k + 1] - start[k] > width)
            width = start[k + 1] - start[k];
    long bounds = runs < 2 ? 0 : (ring ? runs : runs - 1);
    bool ok = true;
    /* Channel (j, q): the j-th members' ring, its q-th connection (ECMP
     * hashes each apart); each channel is its own stream. */
    for (long j = 0; j < width && bounds > 0 && ok; j++)
        for (int q = 0; q < b->qps && ok; q++) {
            if (ring)
                sb_begin(b);
            for (long k = 0; k < bounds && ok; k++) {
                long kb = (k + 1) % runs;
                long a = start[k] + j, c = start[kb] + j;
                if (a >= start[k + 1] || c >= start[kb + 1])
                    continue;
                if (cs_fabric_node_of(b->f, gpu[a]) == cs_fabric_node_of(b->f, gpu[c]))
                    continue; /* the wrap back onto the first node */
                if (!ring)
                    sb_begin(b);
                ok = sb_edge(b, gpu[a], gpu[c], q);
                if (!ring)
                    sb_end(b, owner);
            }
            if (ring)
                sb_end(b, owner);
        }
    free(start);
    return ok;
}

/* All-to-all among gpu[0..n) (expert-parallel dispatch and combine): the
 * members on different nodes exchange directly, each pair on its rail
 * (NCCL's PXN sends through the NIC of the destination's local index),
 * every pair its own stream. Communicators over more than 17 nodes are
 * sampled: each node sends to 16 others spread evenly over the rest, which
 * loads every tier as the full pattern does (the per-pair rates are what
 * the share compares). */
static bool sb_alltoall(struct sbuild *b, const int *gpu, long n, int owner)
{
    long runs = 0;
    long *start = cs_xmalloc((size_t)(n + 1) * sizeof *start);
    for (long i = 0; i < n; i++)
        if (i == 0 || cs_fabric_node_of(b->f, gpu[i]) != cs_fabric_node_of(b->f, gpu[i - 1]))
            start[runs++] = i;
    start[runs] = n;
    bool ok = true;
    long dests = runs - 1 < 16 ? runs - 1 : 16;
    for (long k = 0; k < runs && ok; k++)
        for (long d = 1; d <= dests && ok; d++) {
            long off = runs - 1 <= 16 ? d : 1 + (d - 1) * (runs - 1) / dests;
            long k2 = (k + off) % runs;
            for (long j = 0; ok && start[k] + j < start[k + 1] && start[k2] + j < start[k2 + 1]; j++) {
                int a = gpu[start[k] + j], c = gpu[start[k2] + j];
                if (cs_fabric_node_of(b->f, a) == cs_fabric_node_of(b->f, c))
                    continue;
                sb_begin(b);
                ok = sb_edge(b, a, c, 0);
                sb_end(b, owner);
            }
        }
    free(start);
    return ok;
}

/* Max-min steady rates of the job's classes (owner 0) and those of owner
 * `with` (-1: every owner; 0: the job alone), on the fabric (ideal false)
 * or on the NIC ports alone (ideal true: every other link, real or
 * virtual, unconstrained). rate[k] NAN for the classes left out. */
static cs_status sb_solve(const struct sbuild *b, bool ideal, int with, double *rate)
{
    int nl = b->n_links, nv = nl + b->nx;
    int npriv = 0;
    for (int k = 0; k < b->ncls; k++)
        npriv += isfinite(b->pcap[k]);
    /* the capacities written in place, and room for every class reserved
     * at once: a 16,384-GPU fabric has 10^5 links and its rings millions
     * of (link, multiplicity) pairs, which building twice or growing by
     * doubling costs more than the solve (bench_step, step_405b_16k_flow_s) */
    cs_flow_sim *sim = b->x && b->x->sim ? cs_flow_sim_recycle(b->x->sim, nv + npriv)
                                         : cs_flow_sim_create_links(NULL, nv + npriv);
    if (b->x)
        b->x->sim = sim;
    double *cap = cs_flow_sim_link_caps(sim);
    for (int l = 0; l < nl; l++)
        cap[l] = !ideal || b->nic[l] ? cs_fabric_link_capacity(b->f, l) : UNCONSTRAINED;
    for (int x = 0; x < b->nx; x++)
        cap[nl + x] = ideal ? UNCONSTRAINED : b->xcap[x];
    int priv = nv;
    for (int k = 0; k < b->ncls; k++)
        if (isfinite(b->pcap[k]))
            cap[priv++] = ideal ? UNCONSTRAINED : b->pcap[k];
    cs_flow_sim_reserve(sim, b->ncls, b->off[b->ncls] + npriv);
    int job = cs_flow_job_add(sim, 0.0);
    cs_status rc = cs_flow_step_add(sim, job, 0.0, 1);
    int *id = cs_xmalloc((size_t)(b->ncls > 0 ? b->ncls : 1) * sizeof *id);
    int *lk = NULL, *mu = NULL;
    long lcap = 0;
    priv = nv;
    for (int k = 0; k < b->ncls && rc == CS_OK; k++) {
        id[k] = -1;
        bool has_priv = isfinite(b->pcap[k]);
        int my_priv = has_priv ? priv++ : -1;
        if (b->own[k] != 0 && with >= 0 && b->own[k] != with)
            continue;
        long n = b->off[k + 1] - b->off[k];
        if (n + 1 > lcap) {
            lcap = 2 * (n + 1);
            lk = cs_xrealloc(lk, (size_t)lcap, sizeof *lk);
            mu = cs_xrealloc(mu, (size_t)lcap, sizeof *mu);
        }
        memcpy(lk, b->lk + b->off[k], (size_t)n * sizeof *lk);
        memcpy(mu, b->mu + b->off[k], (size_t)n * sizeof *mu);
        if (has_priv) { /* the class's total rate: members x rate <= its cap */
            lk[n] = my_priv;
            mu[n] = b->mem[k];
            n++;
        }
        rc = cs_flow_add_class(sim, job, lk, mu, (int)n, b->mem[k], 1.0, &id[k]);
    }
    free(lk);
    free(mu);
    if (rc == CS_OK)
        rc = cs_flow_solve_steady(sim);
    for (int k = 0; k < b->ncls && rc == CS_OK; k++)
        rate[k] = id[k] >= 0 ? cs_flow_class_rate(sim, id[k]) : NAN;
    free(id);
    if (!b->x)
        cs_flow_sim_destroy(sim);
    return rc;
}

/* The streams of a storage load over the job's first `nodes` nodes: per
 * node one class whose members are its NIC ports, each on the path between
 * the port and the top of the fabric (the first half of a route to a far
 * node for writes, the second half of one from it for reads: storage
 * servers hang off the top tier, as the SuperPOD storage leaves do off the
 * spines), capped by the node's client rate and, together, by the tier's
 * aggregate (a shared virtual link). */
static bool sb_storage(struct sbuild *b, const int *job, long n_job, int gpn, int ports,
                       const struct cs_net_storage_load *ld, int owner)
{
    if (b->nx >= CS_NET_MAX_STORAGE)
        return false;
    int agg = -1;
    if (isfinite(ld->aggregate_bw) && ld->aggregate_bw > 0) {
        agg = b->n_links + b->nx;
        b->xcap[b->nx++] = ld->aggregate_bw;
    }
    long nodes = n_job / gpn;
    long use = ld->nodes < nodes ? ld->nodes : nodes;
    int path[CS_FABRIC_MAX_PATH];
    for (long k = 0; k < use; k++) {
        sb_begin(b);
        b->open_pcap = ld->node_bw > 0 ? ld->node_bw : INFINITY;
        long far = (k + nodes / 2) % nodes;
        for (int r = 0; r < ports; r++) {
            int local = ports >= gpn ? 0 : r * gpn / ports;
            int g = job[k * gpn + local], h = job[far * gpn + local];
            uint64_t id = b->fid + (b->salt << 32);
            int np = ld->write ? cs_fabric_route(b->f, g, h, id, path, NULL)
                               : cs_fabric_route(b->f, h, g, id, path, NULL);
            b->fid++;
            if (np < 0)
                return false;
            if (np == 0 || far == k) {
                /* one node: its NIC ports only */
                continue;
            }
            int half = (np + 1) / 2;
            for (int q = 0; q < half; q++)
                sb_link(b, ld->write ? path[q] : path[np - half + q]);
            if (agg >= 0)
                sb_link(b, agg);
            b->open_mem++;
        }
        sb_end(b, owner);
    }
    return true;
}

static double share_of(double real, double ideal)
{
    if (!(ideal > 0) || !(real > 0))
        return 1.0;
    double s = real / ideal;
    return s > 1.0 ? 1.0 : s;
}

/* One realization of the communicator's share (salt: the ECMP hash's;
 * place: which drawn placement). */
static cs_status share_once(cs_netmodel *m, enum cs_net_pattern pattern, int size, long stride, uint64_t salt,
                            int place, double *out)
{
    const int *job = m->job_d[place];
    int gpn = m->c.gpus_per_node;
    /* Every instance of the communicator (ranks r0 + i*stride for each r0
     * whose digit at this position is 0, Megatron's order) streams at once,
     * owner 0; the neighbours' rings, owners 1.. */
    /* the model's spare buffers, or new ones when another thread has them */
    pthread_mutex_lock(&m->lock);
    struct sb_scratch *x = m->spare;
    m->spare = NULL;
    pthread_mutex_unlock(&m->lock);
    if (!x)
        x = cs_xcalloc(1, sizeof *x);
    struct sbuild b;
    sb_init(&b, m->fab, x);
    b.salt = salt;
    int *members = cs_xmalloc((size_t)size * sizeof *members);
    long block = (long)size * stride;
    bool ok = true;
    for (long base = 0; base < m->n_job && ok; base += block)
        for (long off = 0; off < stride && ok; off++) {
            for (int i = 0; i < size; i++)
                members[i] = job[base + off + (long)i * stride];
            ok = pattern == CS_NET_ALLTOALL ? sb_alltoall(&b, members, size, 0)
                                            : sb_ring(&b, members, size, pattern == CS_NET_RING, 0);
        }
    free(members);
    /* Background sources, each on a fraction of the time: the neighbours,
     * then the storage loads (owners 1 .. n_nb, n_nb + 1 ..). */
    int n_src = m->n_nb + m->n_st;
    double *duty = cs_xcalloc((size_t)(n_src > 0 ? n_src : 1), sizeof *duty);
    for (int i = 0; i < m->n_nb && ok; i++) {
        ok = sb_ring(&b, m->nb[i].gpus_d[place], m->nb[i].n, true, i + 1);
        duty[i] = m->nb[i].duty;
    }
    int ports = cs_cluster_ports_per_node(&m->c);
    for (int i = 0; i < m->n_st && ok; i++) {
        ok = sb_storage(&b, job, m->n_job, gpn, ports, &m->st[i], m->n_nb + 1 + i);
        duty[m->n_nb + i] = m->st[i].duty;
    }
    cs_status rc = ok ? CS_OK : CS_EINVAL;
    double s = 1.0;
    if (rc == CS_OK && b.ncls > 0) {
        double *ideal = cs_xmalloc((size_t)b.ncls * sizeof *ideal);
        double *rate = cs_xmalloc((size_t)b.ncls * sizeof *rate);
        rc = sb_solve(&b, true, 0, ideal);
        /* s_alone, then each source on by itself: the job's share is the
         * time-weighted harmonic mean over the states (one source on at a
         * time; duties summing past 1 are scaled to 1). */
        double s_alone = 1.0, acc = 0.0, dsum = 0.0;
        for (int src = 0; src <= n_src && rc == CS_OK; src++) {
            if (src > 0 && !(duty[src - 1] > 0))
                continue;
            rc = sb_solve(&b, false, src, rate);
            double sh = 1.0;
            for (int k = 0; k < b.ncls && rc == CS_OK; k++)
                if (b.own[k] == 0) /* the step waits for the slowest instance */
                    sh = fmin(sh, share_of(rate[k], ideal[k]));
            if (src == 0) {
                s_alone = sh;
            } else {
                acc += duty[src - 1] / sh;
                dsum += duty[src - 1];
            }
        }
        if (dsum > 1.0) {
            acc /= dsum;
            dsum = 1.0;
        }
        s = 1.0 / (acc + (1.0 - dsum) / s_alone);
        free(ideal);
        free(rate);
    }
    free(duty);
    sb_fini(&b);
    pthread_mutex_lock(&m->lock);
    if (!m->spare) {
        m->spare = x;
        x = NULL;
    }
    pthread_mutex_unlock(&m->lock);
    sb_scratch_free(x);
    *out = s;
    return rc;
}

cs_status cs_netmodel_share(cs_netmodel *m, enum cs_net_pattern pattern, int size, long stride, double *share)
{
    if (!m || !share || (unsigned)pattern >= CS_NET_PATTERN_COUNT || size < 1 || stride < 1 ||
        (long)size * stride > m->n_job || m->n_job % ((long)size * stride) != 0)
        return CS_EINVAL;
    int gpn = m->c.gpus_per_node;
    /* Inside one node: no fabric. */
    if (size == 1 || (long)(size - 1) * stride < gpn) {
        bool one_node = true;
        for (int d = 0; d < m->n_place && one_node; d++)
            for (long r0 = 0; r0 < m->n_job && one_node; r0 += (long)size * stride)
                for (long i = 1; i < size && one_node; i++)
                    one_node = cs_fabric_node_of(m->fab, m->job_d[d][r0 + i * stride]) ==
                               cs_fabric_node_of(m->fab, m->job_d[d][r0]);
        if (one_node) {
            *share = 1.0;
            return CS_OK;
        }
    }
    pthread_mutex_lock(&m->lock);
    for (int i = 0; i < m->n_cache; i++)
        if (m->cache[i].pattern == (int)pattern && m->cache[i].size == size && m->cache[i].stride == stride) {
            *share = m->cache[i].share;
            m->hits++;
            pthread_mutex_unlock(&m->lock);
            return CS_OK;
        }
    pthread_mutex_unlock(&m->lock);

    /* ECMP's answer depends on how the hashes fall, a scattered job's on
     * the order its nodes were drawn in: the harmonic mean over
     * CS_NET_DRAWS realizations (draw r: salt r, placement r), so that
     * 1 / share, which the communication time goes as, is the mean; d-mod-k and adaptive routing on a packed placement are
     * deterministic (one draw). */
    int draws = cs_fabric_route_mode(m->fab) == CS_ROUTE_ECMP_HASH ? CS_NET_DRAWS : 1;
    if (m->n_place > draws)
        draws = m->n_place;
    double s = 0.0;
    for (int r = 0; r < draws; r++) {
        double one = 1.0;
        cs_status rc = share_once(m, pattern, size, stride, (uint64_t)r, r % m->n_place, &one);
        if (rc != CS_OK)
            return rc;
        s += (one > 0 ? 1.0 / one : INFINITY) / draws;
    }
    s = s > 0 && isfinite(s) ? 1.0 / s : 0.0; /* harmonic mean: a communicator's time goes as 1 / share */
    pthread_mutex_lock(&m->lock);
    m->sims++;
    if (m->n_cache == m->cap_cache) {
        m->cap_cache = m->cap_cache ? 2 * m->cap_cache : 16;
        m->cache = cs_xrealloc(m->cache, (size_t)m->cap_cache, sizeof *m->cache);
    }
    m->cache[m->n_cache++] = (struct cache_ent){(int)pattern, size, stride, s};
    pthread_mutex_unlock(&m->lock);
    *share = s;
    return CS_OK;
}

cs_status cs_net_ring_shares(const cs_fabric *f, const int *const *rings, const long *sizes, int n,
                             double *shares)
{
    if (!f || n < 0 || (n > 0 && (!rings || !sizes || !shares)))
        return CS_EINVAL;
    int G = cs_fabric_gpus(f);
    for (int k = 0; k < n; k++)
        for (long i = 0; i < sizes[k]; i++)
            if (rings[k][i] < 0 || rings[k][i] >= G)
                return CS_EINVAL;
    /* One hash realization: a running job's connections hash once for
     * their lifetime, so which jobs collide is a fact of the replay, which
     * samples many job mixes (the step's share averages realizations). */
    struct sbuild b;
    sb_init(&b, f, NULL);
    bool ok = true;
    for (int k = 0; k < n && ok; k++)
        ok = sb_ring(&b, rings[k], sizes[k], true, k);
    cs_status rc = ok ? CS_OK : CS_EINVAL;
    double *ideal = cs_xmalloc((size_t)(b.ncls > 0 ? b.ncls : 1) * sizeof *ideal);
    double *real = cs_xmalloc((size_t)(b.ncls > 0 ? b.ncls : 1) * sizeof *real);
    if (rc == CS_OK && b.ncls > 0)
        rc = sb_solve(&b, true, -1, ideal);
    if (rc == CS_OK && b.ncls > 0)
        rc = sb_solve(&b, false, -1, real);
    for (int k = 0; k < n && rc == CS_OK; k++)
        shares[k] = 1.0;
    for (int c = 0; c < b.ncls && rc == CS_OK; c++)
        shares[b.own[c]] = fmin(shares[b.own[c]], share_of(real[c], ideal[c]));
    free(ideal);
    free(real);
    sb_fini(&b);
    return rc;
}

cs_status cs_netmodel_set_storage(cs_netmodel *m, const struct cs_net_storage_load *loads, int n)
{
    if (!m || n < 0 || n > CS_NET_MAX_STORAGE || (n > 0 && !loads))
        return CS_EINVAL;
    for (int i = 0; i < n; i++)
        if (loads[i].nodes < 1 || !(loads[i].duty >= 0) || loads[i].duty > 1 || !(loads[i].node_bw > 0))
            return CS_EINVAL;
    pthread_mutex_lock(&m->lock);
    if (n > 0)
        memcpy(m->st, loads, (size_t)n * sizeof *loads);
    m->n_st = n;
    m->n_cache = 0; /* the shares change with the background */
    pthread_mutex_unlock(&m->lock);
    return CS_OK;
}
