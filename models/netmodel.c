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

/* Bytes one node boundary of a ring carries in a round: large enough that
 * the flow model's completion tolerance (about 1e-3 bytes) is negligible;
 * the share is a ratio, so the value cancels. */
#define ROUND_BYTES (64.0 * 1024 * 1024)
/* Neighbour flows outlast the round (their traffic is present throughout). */
#define NB_BYTES_FACTOR 1e4

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

/* Flows of one ring (or chain) over members gpu[0..n) in ring order: the
 * members are grouped by node in order; each node boundary k -> k+1 carries
 * ROUND_BYTES split over the members of node k, the j-th member of node k
 * sending to the j-th of node k+1 (NCCL's channels cross a boundary on the
 * rail of their GPU). Appends (src, dst, bytes) triples; returns how many. */
struct flow3 {
    int src, dst;
    double bytes;
};

static void ring_flows(const cs_fabric *f, const int *gpu, long n, bool wrap, struct flow3 **fl, long *nf,
                       long *cap)
{
    /* runs of consecutive members on one node: [start[k], start[k + 1]) */
    long runs = 0;
    long *start = cs_xmalloc((size_t)(n + 1) * sizeof *start);
    for (long i = 0; i < n; i++)
        if (i == 0 || cs_fabric_node_of(f, gpu[i]) != cs_fabric_node_of(f, gpu[i - 1]))
            start[runs++] = i;
    start[runs] = n;
    long bounds = runs < 2 ? 0 : (wrap ? runs : runs - 1);
    for (long k = 0; k < bounds; k++) {
        long kb = (k + 1) % runs;
        long a0 = start[k], na = start[k + 1] - a0;
        long b0 = start[kb], nb = start[kb + 1] - b0;
        if (cs_fabric_node_of(f, gpu[a0]) == cs_fabric_node_of(f, gpu[b0]))
            continue; /* the wrap back onto the first node */
        long ch = na < nb ? na : nb;
        for (long j = 0; j < ch; j++) {
            if (*nf == *cap) {
                *cap = *cap ? 2 * *cap : 1024;
                *fl = cs_xrealloc(*fl, (size_t)*cap, sizeof **fl);
            }
            (*fl)[(*nf)++] = (struct flow3){gpu[a0 + j], gpu[b0 + j], ROUND_BYTES / (double)ch};
        }
    }
    free(start);
}

/* Time of the job's round (its flows fl[0..nf)) with the neighbours'
 * traffic on (with_nb) or off; *ideal_s the time the NIC ports alone allow. */
static cs_status round_time(cs_netmodel *m, const struct flow3 *fl, long nf, bool with_nb, double *t_s,
                            double *ideal_s)
{
    cs_flow_sim *sim = cs_flow_sim_create(m->fab);
    int job = cs_flow_job_add(sim, 0.0);
    cs_status rc = cs_flow_step_add(sim, job, 0.0, 1);
    int path[CS_FABRIC_MAX_PATH];
    int n_links = cs_fabric_n_links(m->fab);
    double *load = cs_xcalloc((size_t)n_links, sizeof *load);
    bool spread = cs_fabric_route_mode(m->fab) == CS_ROUTE_ADAPTIVE;
    int n_paths = spread ? cs_fabric_route_paths(m->fab) : 1;
    for (long i = 0; i < nf && rc == CS_OK; i++) {
        int np = cs_fabric_route(m->fab, fl[i].src, fl[i].dst, (uint64_t)i, path, NULL);
        if (np < 0) {
            rc = CS_EINVAL;
            break;
        }
        rc = spread ? cs_flow_add_spread(sim, job, fl[i].src, fl[i].dst, fl[i].bytes, n_paths)
                    : cs_flow_add_path(sim, job, path, np, fl[i].bytes);
        if (np > 0) { /* the first and last links of a path between nodes are its NIC ports */
            load[path[0]] += fl[i].bytes;
            load[path[np - 1]] += fl[i].bytes;
        }
    }
    double ideal = 0.0;
    for (int l = 0; l < n_links; l++)
        if (load[l] > 0) {
            double cap = cs_fabric_link_capacity(m->fab, l);
            double cap_nic = m->nic_cap > 0 && m->nic_cap < cap ? m->nic_cap : cap;
            if (cap_nic > 0 && load[l] / cap_nic > ideal)
                ideal = load[l] / cap_nic;
        }
    free(load);
    if (rc == CS_OK && with_nb) {
        struct flow3 *nfl = NULL;
        long nn = 0, cap = 0;
        for (int i = 0; i < m->n_nb; i++) {
            long before = nn;
            ring_flows(m->fab, m->nb[i].gpus, m->nb[i].n, true, &nfl, &nn, &cap);
            if (nn == before)
                continue;
            int nj = cs_flow_job_add(sim, 0.0);
            rc = cs_flow_step_add(sim, nj, 0.0, 1);
            for (long k = before; k < nn && rc == CS_OK; k++) {
                double b = nfl[k].bytes * NB_BYTES_FACTOR;
                if (spread) {
                    rc = cs_flow_add_spread(sim, nj, nfl[k].src, nfl[k].dst, b, n_paths);
                    continue;
                }
                int np = cs_fabric_route(m->fab, nfl[k].src, nfl[k].dst,
                                         0x9e3779b9ULL * (uint64_t)(i + 1) + (uint64_t)k, path, NULL);
                rc = np < 0 ? CS_EINVAL : cs_flow_add_path(sim, nj, path, np, b);
            }
        }
        free(nfl);
    }
    if (rc == CS_OK)
        rc = cs_flow_run(sim);
    double t = rc == CS_OK ? cs_flow_job_finish_s(sim, job) : NAN;
    cs_flow_sim_destroy(sim);
    if (rc != CS_OK)
        return rc;
    *t_s = t;
    *ideal_s = ideal;
    return CS_OK;
}

static double share_of(double ideal, double t)
{
    if (!(t > 0) || !(ideal > 0))
        return 1.0;
    double s = ideal / t;
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

    /* Every instance of the communicator: ranks r0 + i*stride for each r0
     * whose digit at this position is 0 (Megatron's order, tp fastest). */
    struct flow3 *fl = NULL;
    long nf = 0, cap = 0;
    int *members = cs_xmalloc((size_t)size * sizeof *members);
    long block = (long)size * stride;
    for (long base = 0; base < m->n_job; base += block)
        for (long off = 0; off < stride; off++) {
            for (int i = 0; i < size; i++)
                members[i] = m->job[base + off + (long)i * stride];
            ring_flows(m->fab, members, size, pattern == CS_NET_RING, &fl, &nf, &cap);
        }
    free(members);
    double s = 1.0;
    cs_status rc = CS_OK;
    if (nf > 0 && cs_fabric_tiers(m->fab) >= 1) {
        double t = 0, ideal = 0;
        rc = round_time(m, fl, nf, false, &t, &ideal);
        if (rc == CS_OK) {
            s = share_of(ideal, t);
            bool any_nb = false;
            for (int i = 0; i < m->n_nb; i++)
                any_nb = any_nb || m->nb[i].duty > 0;
            if (any_nb) {
                double t2 = 0, ideal2 = 0;
                rc = round_time(m, fl, nf, true, &t2, &ideal2);
                if (rc == CS_OK) {
                    double s_on = share_of(ideal2, t2);
                    /* The neighbours' traffic is on a fraction d of the
                     * time: the time-weighted (harmonic) mean share. With
                     * several neighbours d is the largest duty (their
                     * flows are simulated together). */
                    double d = 0.0;
                    for (int i = 0; i < m->n_nb; i++)
                        d = fmax(d, m->nb[i].duty);
                    s = 1.0 / (d / s_on + (1.0 - d) / s);
                }
            }
        }
    }
    free(fl);
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
