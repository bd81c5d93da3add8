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

/* Capacity standing for "not a constraint" on the ideal fabric. */
#define UNCONSTRAINED 1e30

struct cache_ent {
    int pattern, size;
    long stride;
    double share;
};

struct nb_state {
    struct cs_neighbour_cfg cfg;
    int *gpus;
    long n;
    double duty; /* fraction of the time its traffic is on the fabric */
};

struct cs_netmodel {
    struct cs_cluster_cfg c;
    cs_fabric *fab;
    int *job;   /* GPU of each job rank */
    long n_job;
    struct nb_state *nb;
    int n_nb;
    double nic_cap;
    pthread_mutex_t lock;
    struct cache_ent *cache;
    int n_cache, cap_cache;
    long sims, hits;
};

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
    unsigned char *used = cs_xcalloc((size_t)total, 1);
    m->n_job = job_gpus;
    m->job = cs_xmalloc((size_t)job_gpus * sizeof *m->job);
    rc = cs_fabric_place(fab, (enum cs_place_policy)c->fabric.placement, (int)job_gpus, seed, used, m->job);
    if (rc == CS_OK && n_nb > 0) {
        m->nb = cs_xcalloc((size_t)n_nb, sizeof *m->nb);
        m->n_nb = n_nb;
        for (int i = 0; i < n_nb && rc == CS_OK; i++) {
            struct nb_state *s = &m->nb[i];
            s->cfg = nb[i];
            if (nb[i].gpus < 1 || nb[i].gpus % c->gpus_per_node != 0 || !(nb[i].bytes > 0) ||
                !(nb[i].interval_s > 0)) {
                rc = CS_EINVAL;
                why_set(why, why_len, "neighbour %d: %ld GPUs; gpus (whole nodes), bytes and interval must be positive",
                        i, nb[i].gpus);
                break;
            }
            s->n = nb[i].gpus;
            s->gpus = cs_xmalloc((size_t)s->n * sizeof *s->gpus);
            rc = cs_fabric_place(fab, (enum cs_place_policy)nb[i].placement, (int)s->n, seed + 1000003u * (i + 1),
                                 used, s->gpus);
            if (rc != CS_OK)
                break;
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
    free(used);
    if (rc != CS_OK) {
        if (rc == CS_EFULL)
            why_set(why, why_len, "the job and its neighbours need more GPUs than the cluster's %ld", total);
        cs_netmodel_destroy(m);
        return rc;
    }
    struct cs_cluster_view cv;
    if (cs_cluster_view_rates(c, NULL, &cv) != CS_OK) {
        cs_netmodel_destroy(m);
        why_set(why, why_len, "the cluster's rates do not resolve");
        return CS_EINVAL;
    }
    m->nic_cap = cv.nic_bw_bytes_per_s;
    *out = m;
    return CS_OK;
}

void cs_netmodel_destroy(cs_netmodel *m)
{
    if (!m)
        return;
    for (int i = 0; i < m->n_nb; i++)
        free(m->nb[i].gpus);
    free(m->nb);
    free(m->job);
    free(m->cache);
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
struct sbuild {
    const cs_fabric *f;
    int *mark;             /* n_links: index + 1 of the link in the open class */
    unsigned char *nic;    /* n_links: a NIC port (first or last link of a path) */
    bool spread;
    int paths;
    uint64_t fid;          /* ECMP: one flow id per edge */
    int *lk, *mu;          /* (link, multiplicity) of every class, flattened */
    long n, cap;
    long *off;             /* class k: [off[k], off[k + 1]) */
    int *own, *mem;        /* owner (0: the job; 1..: neighbours or rings), members */
    int ncls, capcls;
    long open_from;        /* start of the open class; -1: none */
    int open_mem;
};

static void sb_init(struct sbuild *b, const cs_fabric *f)
{
    memset(b, 0, sizeof *b);
    b->f = f;
    int nl = cs_fabric_n_links(f);
    b->mark = cs_xcalloc((size_t)(nl > 0 ? nl : 1), sizeof *b->mark);
    b->nic = cs_xcalloc((size_t)(nl > 0 ? nl : 1), 1);
    b->spread = cs_fabric_route_mode(f) == CS_ROUTE_ADAPTIVE;
    b->paths = b->spread ? cs_fabric_route_paths(f) : 1;
    b->off = cs_xmalloc(sizeof *b->off);
    b->off[0] = 0;
    b->open_from = -1;
}

static void sb_fini(struct sbuild *b)
{
    free(b->mark);
    free(b->nic);
    free(b->lk);
    free(b->mu);
    free(b->off);
    free(b->own);
    free(b->mem);
}

static void sb_begin(struct sbuild *b)
{
    b->open_from = b->n;
    b->open_mem = 0;
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
static bool sb_edge(struct sbuild *b, int src, int dst)
{
    int path[CS_FABRIC_MAX_PATH];
    for (int p = 0; p < b->paths; p++) {
        int np = cs_fabric_route(b->f, src, dst, b->spread ? (uint64_t)p : b->fid, path, NULL);
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
    b->fid++;
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
        }
        b->off = cs_xrealloc(b->off, (size_t)b->capcls + 1, sizeof *b->off);
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
    for (long j = 0; j < width && bounds > 0 && ok; j++) {
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
            ok = sb_edge(b, gpu[a], gpu[c]);
            if (!ring)
                sb_end(b, owner);
        }
        if (ring)
            sb_end(b, owner);
    }
    free(start);
    return ok;
}

/* Max-min steady rates of the classes whose owner `use` accepts, on the
 * fabric (ideal false) or on the NIC ports alone (ideal true: every other
 * link unconstrained). rate[k] NAN for the others. */
static cs_status sb_solve(const struct sbuild *b, bool ideal, int max_owner, double *rate)
{
    int nl = cs_fabric_n_links(b->f);
    cs_flow_sim *sim;
    if (ideal) {
        double *cap = cs_xmalloc((size_t)(nl > 0 ? nl : 1) * sizeof *cap);
        for (int l = 0; l < nl; l++)
            cap[l] = b->nic[l] ? cs_fabric_link_capacity(b->f, l) : UNCONSTRAINED;
        sim = cs_flow_sim_create_links(cap, nl);
        free(cap);
    } else {
        sim = cs_flow_sim_create(b->f);
    }
    int job = cs_flow_job_add(sim, 0.0);
    cs_status rc = cs_flow_step_add(sim, job, 0.0, 1);
    int *id = cs_xmalloc((size_t)(b->ncls > 0 ? b->ncls : 1) * sizeof *id);
    for (int k = 0; k < b->ncls && rc == CS_OK; k++) {
        id[k] = -1;
        if (b->own[k] > max_owner)
            continue;
        rc = cs_flow_add_class(sim, job, b->lk + b->off[k], b->mu + b->off[k], (int)(b->off[k + 1] - b->off[k]),
                               b->mem[k], 1.0, &id[k]);
    }
    if (rc == CS_OK)
        rc = cs_flow_solve_steady(sim);
    for (int k = 0; k < b->ncls && rc == CS_OK; k++)
        rate[k] = id[k] >= 0 ? cs_flow_class_rate(sim, id[k]) : NAN;
    free(id);
    cs_flow_sim_destroy(sim);
    return rc;
}

static double share_of(double real, double ideal)
{
    if (!(ideal > 0) || !(real > 0))
        return 1.0;
    double s = real / ideal;
    return s > 1.0 ? 1.0 : s;
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
        for (long r0 = 0; r0 < m->n_job && one_node; r0 += (long)size * stride)
            for (long i = 1; i < size && one_node; i++)
                one_node = cs_fabric_node_of(m->fab, m->job[r0 + i * stride]) ==
                           cs_fabric_node_of(m->fab, m->job[r0]);
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

    /* Every instance of the communicator (ranks r0 + i*stride for each r0
     * whose digit at this position is 0, Megatron's order) streams at once,
     * owner 0; the neighbours' rings, owners 1.. */
    struct sbuild b;
    sb_init(&b, m->fab);
    int *members = cs_xmalloc((size_t)size * sizeof *members);
    long block = (long)size * stride;
    bool ok = true;
    for (long base = 0; base < m->n_job && ok; base += block)
        for (long off = 0; off < stride && ok; off++) {
            for (int i = 0; i < size; i++)
                members[i] = m->job[base + off + (long)i * stride];
            ok = sb_ring(&b, members, size, pattern == CS_NET_RING, 0);
        }
    free(members);
    double d = 0.0; /* the neighbours' duty: their traffic is on this fraction of the time */
    for (int i = 0; i < m->n_nb && ok; i++) {
        ok = sb_ring(&b, m->nb[i].gpus, m->nb[i].n, true, i + 1);
        d = fmax(d, m->nb[i].duty);
    }
    cs_status rc = ok ? CS_OK : CS_EINVAL;
    double s = 1.0;
    if (rc == CS_OK && b.ncls > 0) {
        double *ideal = cs_xmalloc((size_t)b.ncls * sizeof *ideal);
        double *alone = cs_xmalloc((size_t)b.ncls * sizeof *alone);
        double *with = cs_xmalloc((size_t)b.ncls * sizeof *with);
        rc = sb_solve(&b, true, 0, ideal);
        if (rc == CS_OK)
            rc = sb_solve(&b, false, 0, alone);
        bool any_nb = false;
        for (int k = 0; k < b.ncls; k++)
            any_nb = any_nb || b.own[k] > 0;
        if (rc == CS_OK && any_nb && d > 0)
            rc = sb_solve(&b, false, m->n_nb, with);
        double s_alone = 1.0, s_on = 1.0;
        for (int k = 0; k < b.ncls && rc == CS_OK; k++) {
            if (b.own[k] != 0)
                continue;
            /* the step waits for the slowest instance */
            s_alone = fmin(s_alone, share_of(alone[k], ideal[k]));
            if (any_nb && d > 0)
                s_on = fmin(s_on, share_of(with[k], ideal[k]));
        }
        s = any_nb && d > 0 ? 1.0 / (d / s_on + (1.0 - d) / s_alone) : s_alone;
        free(ideal);
        free(alone);
        free(with);
    }
    sb_fini(&b);
    if (rc != CS_OK)
        return rc;
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
    struct sbuild b;
    sb_init(&b, f);
    bool ok = true;
    for (int k = 0; k < n && ok; k++)
        ok = sb_ring(&b, rings[k], sizes[k], true, k);
    cs_status rc = ok ? CS_OK : CS_EINVAL;
    double *ideal = cs_xmalloc((size_t)(b.ncls > 0 ? b.ncls : 1) * sizeof *ideal);
    double *real = cs_xmalloc((size_t)(b.ncls > 0 ? b.ncls : 1) * sizeof *real);
    if (rc == CS_OK && b.ncls > 0)
        rc = sb_solve(&b, true, n, ideal);
    if (rc == CS_OK && b.ncls > 0)
        rc = sb_solve(&b, false, n, real);
    for (int k = 0; k < n && rc == CS_OK; k++)
        shares[k] = 1.0;
    for (int c = 0; c < b.ncls && rc == CS_OK; c++)
        shares[b.own[c]] = fmin(shares[b.own[c]], share_of(real[c], ideal[c]));
    free(ideal);
    free(real);
    sb_fini(&b);
    return rc;
}
