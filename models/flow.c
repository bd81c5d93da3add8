/* flow.c: flow-level network simulation with max-min fair sharing and the
 * translation of collectives (ring, hierarchical, alltoall, sendrecv,
 * broadcast) into steps of flows. Layer: models/; semantics in flow.h.
 * Event loop: next completion or next step start, whichever comes first;
 * rates by progressive filling over flow classes (weighted by members per
 * link), cached while the set of active classes is unchanged. */
#include "clustersim/models/flow.h"
#include "clustersim/base/xmalloc.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct lm { int link, mult; };

struct fclass {
    int lm_off, lm_n;
    int members, job;
    double bytes, left, rate;
};

struct step {
    int *cls, n, cap;
    double lat;
    int repeat;
};

struct job {
    struct step *steps;
    int n_steps, cap_steps;
    int cur, rep_left, pending;
    double start, next_act, finish;
    bool waiting, done;
};

struct cs_flow_sim {
    const cs_fabric *fab;
    double *cap;
    int n_links;
    struct fclass *cls;
    int n_cls, cap_cls;
    struct lm *lms;
    long n_lm, cap_lm;
    struct job *jobs;
    int n_jobs, cap_jobs;
    uint64_t next_flow_id;
    /* scratch, n_links each (cap_links allocated: a recycled simulation
     * keeps its arrays); tmp_mult is all zero between solves */
    double *w, *rem;
    int *tmp_mult, *used;
    int cap_links;
    /* solve_rates' own scratch, kept between solves (grown by sr_reserve,
     * never shrunk; capacities in elements): the link -> class adjacency
     * (off, fill, adj), the frozen flags and the heap (struct sr_hent) */
    int *sr_off, *sr_fill, *sr_adj;
    unsigned char *sr_frozen;
    void *sr_heap;
    size_t cap_sr_off, cap_sr_fill, cap_sr_adj, cap_sr_frozen, cap_sr_heap;
    struct cs_flow_stats st;
};

struct sr_hent {
    double r;
    int u;
};

/* buf, or a new buffer in its place (buf freed, contents not kept), with
 * room for at least `need` elements of `size` bytes; *cap in elements. */
static void *sr_reserve(void *buf, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return buf;
    free(buf);
    *cap = need;
    return cs_xmalloc(need * size);
}

static cs_flow_sim *sim_new(int n_links)
{
    cs_flow_sim *s = cs_xcalloc(1, sizeof *s);
    s->n_links = n_links;
    s->cap = cs_xcalloc((size_t)(n_links > 0 ? n_links : 1), sizeof *s->cap);
    s->w = cs_xcalloc((size_t)(n_links > 0 ? n_links : 1), sizeof *s->w);
    s->rem = cs_xcalloc((size_t)(n_links > 0 ? n_links : 1), sizeof *s->rem);
    s->tmp_mult = cs_xcalloc((size_t)(n_links > 0 ? n_links : 1), sizeof *s->tmp_mult);
    s->used = cs_xmalloc((size_t)(n_links > 0 ? n_links : 1) * sizeof *s->used);
    s->cap_links = n_links > 0 ? n_links : 1;
    return s;
}

cs_flow_sim *cs_flow_sim_create(const cs_fabric *f)
{
    int n = cs_fabric_n_links(f);
    cs_flow_sim *s = sim_new(n);
    s->fab = f;
    for (int i = 0; i < n; i++)
        s->cap[i] = cs_fabric_link_capacity(f, i);
    return s;
}

cs_flow_sim *cs_flow_sim_create_links(const double *cap_bytes_per_s, int n)
{
    cs_flow_sim *s = sim_new(n);
    if (cap_bytes_per_s && n > 0)
        memcpy(s->cap, cap_bytes_per_s, (size_t)n * sizeof *s->cap);
    return s;
}

/* Grows the per-link arrays to n entries, keeping what they hold; the new
 * entries are zero (tmp_mult stays all zero between solves). */
static void links_grow(cs_flow_sim *s, int n)
{
    if (n <= s->cap_links)
        return;
    s->cap = cs_xrealloc(s->cap, (size_t)n, sizeof *s->cap);
    s->w = cs_xrealloc(s->w, (size_t)n, sizeof *s->w);
    s->rem = cs_xrealloc(s->rem, (size_t)n, sizeof *s->rem);
    s->tmp_mult = cs_xrealloc(s->tmp_mult, (size_t)n, sizeof *s->tmp_mult);
    s->used = cs_xrealloc(s->used, (size_t)n, sizeof *s->used);
    for (int i = s->cap_links; i < n; i++) {
        s->cap[i] = s->w[i] = s->rem[i] = 0.0;
        s->tmp_mult[i] = 0;
    }
    s->cap_links = n;
}

cs_flow_sim *cs_flow_sim_recycle(cs_flow_sim *s, int n)
{
    if (!s || s->fab)
        return NULL;
    for (int j = 0; j < s->n_jobs; j++) {
        for (int k = 0; k < s->jobs[j].n_steps; k++)
            free(s->jobs[j].steps[k].cls);
        free(s->jobs[j].steps);
    }
    s->n_jobs = 0;
    s->n_cls = 0;
    s->n_lm = 0;
    s->next_flow_id = 0;
    memset(&s->st, 0, sizeof s->st);
    if (n > 0) {
        links_grow(s, n);
        memset(s->cap, 0, (size_t)n * sizeof *s->cap);
    }
    s->n_links = n > 0 ? n : 0;
    return s;
}

double *cs_flow_sim_link_caps(cs_flow_sim *s)
{
    return s ? s->cap : NULL;
}

void cs_flow_sim_reserve(cs_flow_sim *s, int n_cls, long n_lm)
{
    if (!s || n_cls < 0 || n_lm < 0)
        return;
    if ((long)s->n_cls + n_cls > s->cap_cls && (long)s->n_cls + n_cls <= INT_MAX) {
        s->cap_cls = s->n_cls + n_cls;
        s->cls = cs_xrealloc(s->cls, (size_t)s->cap_cls, sizeof *s->cls);
    }
    if (s->n_lm + n_lm > s->cap_lm) {
        s->cap_lm = s->n_lm + n_lm;
        s->lms = cs_xrealloc(s->lms, (size_t)s->cap_lm, sizeof *s->lms);
    }
}

int cs_flow_sim_add_link(cs_flow_sim *s, double cap_bytes_per_s)
{
    if (!s || !(cap_bytes_per_s > 0) || s->n_links == INT_MAX)
        return -1;
    if (s->n_links == s->cap_links)
        links_grow(s, s->cap_links * 2);
    s->cap[s->n_links] = cap_bytes_per_s;
    return s->n_links++;
}

void cs_flow_sim_destroy(cs_flow_sim *s)
{
    if (!s)
        return;
    for (int j = 0; j < s->n_jobs; j++) {
        for (int k = 0; k < s->jobs[j].n_steps; k++)
            free(s->jobs[j].steps[k].cls);
        free(s->jobs[j].steps);
    }
    free(s->jobs);
    free(s->cls);
    free(s->lms);
    free(s->cap);
    free(s->w);
    free(s->rem);
    free(s->tmp_mult);
    free(s->used);
    free(s->sr_off);
    free(s->sr_fill);
    free(s->sr_adj);
    free(s->sr_frozen);
    free(s->sr_heap);
    free(s);
}

int cs_flow_job_add(cs_flow_sim *s, double start_s)
{
    if (s->n_jobs == s->cap_jobs) {
        s->cap_jobs = s->cap_jobs ? 2 * s->cap_jobs : 8;
        s->jobs = cs_xrealloc(s->jobs, (size_t)s->cap_jobs, sizeof *s->jobs);
    }
    struct job *j = &s->jobs[s->n_jobs];
    memset(j, 0, sizeof *j);
    j->start = start_s;
    j->finish = NAN;
    return s->n_jobs++;
}

cs_status cs_flow_step_add(cs_flow_sim *s, int job, double latency_s, int repeat)
{
    if (job < 0 || job >= s->n_jobs || repeat < 1 || !(latency_s >= 0))
        return CS_EINVAL;
    struct job *j = &s->jobs[job];
    if (j->n_steps == j->cap_steps) {
        j->cap_steps = j->cap_steps ? 2 * j->cap_steps : 4;
        j->steps = cs_xrealloc(j->steps, (size_t)j->cap_steps, sizeof *j->steps);
    }
    struct step *st = &j->steps[j->n_steps++];
    memset(st, 0, sizeof *st);
    st->lat = latency_s;
    st->repeat = repeat;
    return CS_OK;
}

/* Appends a class (links given as (link, mult) pairs) to the job's last step. */
static cs_status add_class(cs_flow_sim *s, int job, const struct lm *lms, int n_lm, int members, double bytes)
{
    if (job < 0 || job >= s->n_jobs || s->jobs[job].n_steps == 0 || !(bytes >= 0) || members < 1)
        return CS_EINVAL;
    for (int i = 0; i < n_lm; i++)
        if (lms[i].link < 0 || lms[i].link >= s->n_links)
            return CS_EINVAL;
    if (s->n_cls == s->cap_cls) {
        s->cap_cls = s->cap_cls ? 2 * s->cap_cls : 64;
        s->cls = cs_xrealloc(s->cls, (size_t)s->cap_cls, sizeof *s->cls);
    }
    while (s->n_lm + n_lm > s->cap_lm) {
        s->cap_lm = s->cap_lm ? 2 * s->cap_lm : 256;
        s->lms = cs_xrealloc(s->lms, (size_t)s->cap_lm, sizeof *s->lms);
    }
    struct fclass *c = &s->cls[s->n_cls];
    c->lm_off = (int)s->n_lm;
    c->lm_n = n_lm;
    c->members = members;
    c->job = job;
    c->bytes = bytes;
    c->left = 0;
    c->rate = 0;
    memcpy(s->lms + s->n_lm, lms, (size_t)n_lm * sizeof *lms);
    s->n_lm += n_lm;
    struct step *st = &s->jobs[job].steps[s->jobs[job].n_steps - 1];
    if (st->n == st->cap) {
        st->cap = st->cap ? 2 * st->cap : 4;
        st->cls = cs_xrealloc(st->cls, (size_t)st->cap, sizeof *st->cls);
    }
    st->cls[st->n++] = s->n_cls++;
    return CS_OK;
}

cs_status cs_flow_add_path(cs_flow_sim *s, int job, const int *links, int n_links, double bytes)
{
    if (n_links < 0 || n_links > 64)
        return CS_EINVAL;
    struct lm tmp[64];
    for (int i = 0; i < n_links; i++)
        tmp[i] = (struct lm){links[i], 1};
    return add_class(s, job, tmp, n_links, 1, bytes);
}

/* cs_flow_add_gpu_flows with flow i also crossing link extra[i] (a
 * sender's own link; -1 or extra NULL: none). */
static cs_status add_gpu_flows(cs_flow_sim *s, int job, const int *src, const int *dst, int n, double bytes,
                               uint64_t flow_id0, bool aggregate, const int *extra)
{
    if (!s->fab || n < 1 || job < 0 || job >= s->n_jobs || s->jobs[job].n_steps == 0)
        return CS_EINVAL;
    struct step *st = &s->jobs[job].steps[s->jobs[job].n_steps - 1];
    int path[CS_FABRIC_MAX_PATH + 1]; /* a route and the sender's own link */
    double max_lat = 0.0;
    struct lm *acc = NULL;
    int n_acc = 0;
    if (aggregate)
        acc = cs_xmalloc((size_t)n * (CS_FABRIC_MAX_PATH + 1) * sizeof *acc);
    cs_status rc = CS_OK;
    for (int i = 0; i < n && rc == CS_OK; i++) {
        double lat = 0.0;
        int np = cs_fabric_route(s->fab, src[i], dst[i], flow_id0 + (uint64_t)i, path, &lat);
        if (np < 0) {
            rc = CS_EINVAL;
            break;
        }
        if (lat > max_lat)
            max_lat = lat;
        if (extra && extra[i] >= 0)
            path[np++] = extra[i];
        if (!aggregate) {
            struct lm tmp[CS_FABRIC_MAX_PATH + 1];
            for (int k = 0; k < np; k++)
                tmp[k] = (struct lm){path[k], 1};
            rc = add_class(s, job, tmp, np, 1, bytes);
            continue;
        }
        /* Merge members per link: tmp_mult holds the index into acc + 1. */
        for (int k = 0; k < np; k++) {
            int l = path[k];
            if (s->tmp_mult[l] == 0) {
                acc[n_acc] = (struct lm){l, 0};
                s->tmp_mult[l] = ++n_acc;
            }
            acc[s->tmp_mult[l] - 1].mult++;
        }
    }
    if (aggregate) {
        for (int i = 0; i < n_acc; i++)
            s->tmp_mult[acc[i].link] = 0;
        if (rc == CS_OK)
            rc = add_class(s, job, acc, n_acc, n, bytes);
        free(acc);
    }
    if (rc == CS_OK)
        st->lat += max_lat;
    return rc;
}

cs_status cs_flow_add_gpu_flows(cs_flow_sim *s, int job, const int *src, const int *dst, int n, double bytes,
                                uint64_t flow_id0, bool aggregate)
{
    return add_gpu_flows(s, job, src, dst, n, bytes, flow_id0, aggregate, NULL);
}

/* Progressive filling (max-min fairness) over the active classes act[0..n):
 * repeatedly the link with the least capacity per unfrozen member fixes the
 * rate of every unfrozen class crossing it. O(iterations x used links). */
static void solve_rates(cs_flow_sim *s, const int *act, int n)
{
    int *used = s->used;
    int n_used = 0;
    for (int i = 0; i < n; i++) {
        const struct fclass *c = &s->cls[act[i]];
        for (int k = 0; k < c->lm_n; k++) {
            const struct lm *e = &s->lms[c->lm_off + k];
            if (s->tmp_mult[e->link] == 0) {
                s->tmp_mult[e->link] = 1;
                used[n_used++] = e->link;
                s->w[e->link] = 0.0;
                s->rem[e->link] = s->cap[e->link];
            }
            s->w[e->link] += e->mult;
        }
    }
    /* link -> classes adjacency (CSR), in the simulation's kept scratch */
    int *off = s->sr_off = sr_reserve(s->sr_off, &s->cap_sr_off, (size_t)n_used + 1, sizeof *off);
    int *fill = s->sr_fill = sr_reserve(s->sr_fill, &s->cap_sr_fill, (size_t)n_used + 1, sizeof *fill);
    memset(off, 0, ((size_t)n_used + 1) * sizeof *off);
    memset(fill, 0, ((size_t)n_used + 1) * sizeof *fill);
    for (int u = 0; u < n_used; u++)
        s->tmp_mult[used[u]] = u + 1;
    for (int i = 0; i < n; i++) {
        const struct fclass *c = &s->cls[act[i]];
        for (int k = 0; k < c->lm_n; k++)
            off[s->tmp_mult[s->lms[c->lm_off + k].link]]++;
    }
    for (int u = 0; u < n_used; u++)
        off[u + 1] += off[u];
    int *adj = s->sr_adj = sr_reserve(s->sr_adj, &s->cap_sr_adj,
                                      (size_t)(off[n_used] > 0 ? off[n_used] : 1), sizeof *adj);
    for (int i = 0; i < n; i++) {
        const struct fclass *c = &s->cls[act[i]];
        for (int k = 0; k < c->lm_n; k++) {
            int u = s->tmp_mult[s->lms[c->lm_off + k].link] - 1;
            adj[off[u] + fill[u]++] = i;
        }
    }
    unsigned char *frozen = s->sr_frozen =
        sr_reserve(s->sr_frozen, &s->cap_sr_frozen, (size_t)(n > 0 ? n : 1), 1);
    memset(frozen, 0, (size_t)(n > 0 ? n : 1));
    int left = n;
    for (int i = 0; i < n; i++) /* a class on no link (src == dst) is instant */
        if (s->cls[act[i]].lm_n == 0) {
            s->cls[act[i]].rate = INFINITY;
            frozen[i] = 1;
            left--;
        }
    /* Progressive filling with a lazy min-heap of the links' capacity per
     * unfrozen member (rem / w). Freezing classes at the current level r
     * never lowers another link's ratio (rem - k r over w - k is at least
     * R when R >= r), so a popped entry whose ratio has risen is pushed
     * back with its new value, and one that has not is the minimum: its
     * unfrozen classes are fixed at that rate. O((links + updates) log
     * links); equal levels (every NIC port of a ring) pop one after the
     * other at the same rate. */
    size_t hn = 0;
    struct sr_hent *heap = s->sr_heap = sr_reserve(s->sr_heap, &s->cap_sr_heap,
                                                   (size_t)(n_used > 0 ? n_used : 1) * 2, sizeof *heap);
    size_t hcap = s->cap_sr_heap;
#define CS__RATIO(l) (s->rem[l] > 0 ? s->rem[l] / s->w[l] : 0.0)
#define CS__PUSH(rv, uv)                                                     \
    do {                                                                     \
        if (hn == hcap) {                                                    \
            hcap *= 2;                                                       \
            heap = cs_xrealloc(heap, hcap, sizeof *heap);                    \
            s->sr_heap = heap;                                               \
            s->cap_sr_heap = hcap;                                           \
        }                                                                    \
        size_t k_ = hn++;                                                    \
        heap[k_] = (struct sr_hent){(rv), (uv)};                             \
        while (k_ > 0 && heap[(k_ - 1) / 2].r > heap[k_].r) {                \
            struct sr_hent t_ = heap[k_];                                    \
            heap[k_] = heap[(k_ - 1) / 2];                                   \
            heap[(k_ - 1) / 2] = t_;                                         \
            k_ = (k_ - 1) / 2;                                               \
        }                                                                    \
    } while (0)
    for (int u = 0; u < n_used; u++)
        if (s->w[used[u]] > 0.5)
            CS__PUSH(CS__RATIO(used[u]), u);
    while (left > 0 && hn > 0) {
        struct sr_hent top = heap[0];
        heap[0] = heap[--hn];
        for (size_t k = 0;;) { /* sift down */
            size_t a = 2 * k + 1, b = a + 1, m = k;
            if (a < hn && heap[a].r < heap[m].r)
                m = a;
            if (b < hn && heap[b].r < heap[m].r)
                m = b;
            if (m == k)
                break;
            struct sr_hent t = heap[k];
            heap[k] = heap[m];
            heap[m] = t;
            k = m;
        }
        int l = used[top.u];
        if (!(s->w[l] > 0.5))
            continue; /* every class on it is frozen */
        double r = CS__RATIO(l);
        if (r > top.r * (1.0 + 1e-12)) {
            CS__PUSH(r, top.u); /* stale: its ratio rose */
            continue;
        }
        for (int a = off[top.u]; a < off[top.u + 1]; a++) {
            int i = adj[a];
            if (frozen[i])
                continue;
            frozen[i] = 1;
            left--;
            struct fclass *c = &s->cls[act[i]];
            c->rate = r;
            for (int k = 0; k < c->lm_n; k++) {
                const struct lm *e = &s->lms[c->lm_off + k];
                s->rem[e->link] -= e->mult * r;
                s->w[e->link] -= e->mult;
            }
        }
    }
#undef CS__PUSH
#undef CS__RATIO
    for (int u = 0; u < n_used; u++)
        s->tmp_mult[used[u]] = 0;
    s->st.rate_solves++;
}

cs_status cs_flow_add_class(cs_flow_sim *s, int job, const int *links, const int *mult, int n, int members,
                            double bytes, int *id)
{
    if (n < 0 || (n > 0 && (!links || !mult)) || members < 1)
        return CS_EINVAL;
    struct lm *tmp = cs_xmalloc((size_t)(n > 0 ? n : 1) * sizeof *tmp);
    for (int i = 0; i < n; i++) {
        if (mult[i] < 1) {
            free(tmp);
            return CS_EINVAL;
        }
        tmp[i] = (struct lm){links[i], mult[i]};
    }
    int before = s->n_cls;
    cs_status rc = add_class(s, job, tmp, n, members, bytes);
    free(tmp);
    if (rc == CS_OK && id)
        *id = before;
    return rc;
}

cs_status cs_flow_solve_steady(cs_flow_sim *s)
{
    int n = 0;
    for (int k = 0; k < s->n_jobs; k++)
        if (s->jobs[k].n_steps > 0)
            n += s->jobs[k].steps[0].n;
    int *act = cs_xmalloc((size_t)(n > 0 ? n : 1) * sizeof *act);
    n = 0;
    for (int k = 0; k < s->n_jobs; k++)
        if (s->jobs[k].n_steps > 0)
            for (int q = 0; q < s->jobs[k].steps[0].n; q++)
                act[n++] = s->jobs[k].steps[0].cls[q];
    for (int i = 0; i < n; i++)
        for (int k = 0; k < s->cls[act[i]].lm_n; k++)
            if (!(s->cap[s->lms[s->cls[act[i]].lm_off + k].link] > 0)) {
                free(act);
                return CS_EINVAL; /* a stream that can never move */
            }
    if (n > 0)
        solve_rates(s, act, n);
    free(act);
    return CS_OK;
}

double cs_flow_class_rate(const cs_flow_sim *s, int id)
{
    return id >= 0 && id < s->n_cls ? s->cls[id].rate : NAN;
}

static void schedule_step(struct job *j, double now)
{
    j->waiting = true;
    j->next_act = now + j->steps[j->cur].lat;
}

/* A step (repeat) of job j has finished at `now`: the next repeat or step. */
static void step_done(struct job *j, double now)
{
    if (--j->rep_left > 0) {
        schedule_step(j, now);
        return;
    }
    if (++j->cur < j->n_steps) {
        j->rep_left = j->steps[j->cur].repeat;
        schedule_step(j, now);
        return;
    }
    j->done = true;
    j->waiting = false;
    j->finish = now;
}

cs_status cs_flow_run(cs_flow_sim *s)
{
    int *act = cs_xmalloc((size_t)(s->n_cls > 0 ? s->n_cls : 1) * sizeof *act);
    int n_act = 0;
    int done_jobs = 0;
    for (int k = 0; k < s->n_jobs; k++) {
        struct job *j = &s->jobs[k];
        j->cur = 0;
        j->done = false;
        if (j->n_steps == 0) {
            j->done = true;
            j->finish = j->start;
            done_jobs++;
            continue;
        }
        j->rep_left = j->steps[0].repeat;
        j->waiting = true;
        j->next_act = j->start + j->steps[0].lat;
    }
    double now = 0.0;
    bool dirty = false;
    uint64_t sig = 0, last_sig = ~(uint64_t)0;
    int last_n = -1;
    cs_status rc = CS_OK;
    while (done_jobs < s->n_jobs) {
        s->st.events++;
        if (dirty && n_act > 0) {
            /* The rates depend only on the set of active classes. */
            if (!(n_act == last_n && sig == last_sig)) {
                solve_rates(s, act, n_act);
                last_sig = sig;
                last_n = n_act;
            } else {
                s->st.rate_reuses++;
            }
            dirty = false;
        }
        double t_next = INFINITY;
        for (int k = 0; k < s->n_jobs; k++)
            if (s->jobs[k].waiting && s->jobs[k].next_act < t_next)
                t_next = s->jobs[k].next_act;
        for (int i = 0; i < n_act; i++) {
            const struct fclass *c = &s->cls[act[i]];
            double t = c->rate > 0 ? now + c->left / c->rate : INFINITY;
            if (t < t_next)
                t_next = t;
        }
        if (!isfinite(t_next)) {
            rc = CS_EINVAL; /* flows that can never finish: a zero-capacity link */
            break;
        }
        if (t_next < now)
            t_next = now;
        double dt = t_next - now;
        now = t_next;
        /* Advance and retire finished classes. */
        for (int i = 0; i < n_act;) {
            struct fclass *c = &s->cls[act[i]];
            c->left -= c->rate * dt;
            if (c->left <= 1e-9 * c->bytes + 1e-3 || isinf(c->rate)) {
                sig -= (uint64_t)act[i] * 0x9e3779b97f4a7c15ULL + 1;
                act[i] = act[--n_act];
                dirty = true;
                struct job *j = &s->jobs[c->job];
                if (--j->pending == 0) {
                    step_done(j, now);
                    if (j->done)
                        done_jobs++;
                }
            } else {
                i++;
            }
        }
        /* Start the steps that are due. */
        for (int k = 0; k < s->n_jobs; k++) {
            struct job *j = &s->jobs[k];
            while (j->waiting && j->next_act <= now) {
                struct step *st = &j->steps[j->cur];
                j->waiting = false;
                j->pending = st->n;
                for (int q = 0; q < st->n; q++) {
                    struct fclass *c = &s->cls[st->cls[q]];
                    c->left = c->bytes;
                    act[n_act++] = st->cls[q];
                    sig += (uint64_t)st->cls[q] * 0x9e3779b97f4a7c15ULL + 1;
                    s->st.flows += c->members;
                    s->st.classes++;
                    dirty = true;
                }
                if (st->n == 0) {
                    step_done(j, now);
                    if (j->done)
                        done_jobs++;
                }
            }
        }
    }
    free(act);
    return rc;
}

double cs_flow_job_finish_s(const cs_flow_sim *s, int job)
{
    return job >= 0 && job < s->n_jobs ? s->jobs[job].finish : NAN;
}

void cs_flow_stats_get(const cs_flow_sim *s, struct cs_flow_stats *out)
{
    *out = s->st;
}

/* ---- collectives as flows ---- */

/* Adds one step of `n` flows src[i] -> dst[i], run `repeat` times. */
static cs_status step_flows(cs_flow_sim *s, int job, double lat, int repeat, const int *src, const int *dst, int n,
                            double bytes, bool aggregate, const int *extra)
{
    cs_status rc = cs_flow_step_add(s, job, lat, repeat);
    if (rc != CS_OK || n == 0)
        return rc;
    rc = add_gpu_flows(s, job, src, dst, n, bytes, s->next_flow_id, aggregate, extra);
    s->next_flow_id += (uint64_t)n;
    return rc;
}

/* NCCL's p2p engine caps what each sender of an all-to-all or sendrecv
 * moves in all (cs_coll_p2p_rate_bps): one link of its own per sending GPU
 * at that rate, crossed by each of its nf / n flows (flows are listed
 * sender by sender, nf / n each). NULL where no cap applies (a ragged
 * group, AMD, PCIe, a rank per NVLink domain). */
static int *p2p_links(cs_flow_sim *s, const struct cs_cluster_cfg *c, const struct cs_coll_params *p, int n, int ppn,
                      bool uniform, int peers, double bytes_per_peer, int nf)
{
    if (!uniform || ppn < 2 || nf % n != 0)
        return NULL;
    struct cs_coll_group g = {n, ppn, 1, 0, 0, 0.0, 0, 0};
    double r = cs_coll_p2p_rate_bps(c, p, &g, peers, bytes_per_peer);
    if (!isfinite(r) || !(r > 0))
        return NULL;
    int *extra = cs_xmalloc((size_t)nf * sizeof *extra), per = nf / n;
    for (int i = 0; i < n; i++) {
        int l = cs_flow_sim_add_link(s, r);
        for (int k = 0; k < per; k++)
            extra[i * per + k] = l;
    }
    return extra;
}

cs_status cs_flow_collective_build(cs_flow_sim *s, int job, const struct cs_flow_job_spec *spec, bool aggregate)
{
    if (!s->fab || !spec || spec->n < 1 || !spec->gpu_ids || !(spec->bytes >= 0) || job < 0 || job >= s->n_jobs)
        return CS_EINVAL;
    const struct cs_cluster_cfg *c = cs_fabric_cluster(s->fab);
    int n = spec->n, G = cs_fabric_gpus(s->fab);
    for (int i = 0; i < n; i++)
        if (spec->gpu_ids[i] < 0 || spec->gpu_ids[i] >= G)
            return CS_EINVAL;
    if (n == 1)
        return CS_OK;
    struct cs_coll_params p;
    cs_coll_params_default(&p);
    const int pr = CS_COLL_PROTO_SIMPLE;
    double hi = p.ring_hop_lat_s[c->intra.kind == CS_INTRA_PCIE ? CS_COLL_HW_PCI : CS_COLL_HW_NVLINK][pr];
    /* The inter-node step as the closed form prices it (collective.c,
     * inter_lat): NCCL's hwLat NET plus the data and flush messages'
     * NIC latency, times the fitted net_lat_scale; the closed form's
     * switch-hop latency (a fraction of a microsecond per step) is left
     * out. */
    double nic_lat = c->fabric.link.nic_latency_s > 0 ? c->fabric.link.nic_latency_s : 0.0;
    double hn = (p.ring_hop_lat_s[CS_COLL_HW_NET][pr] + 2.0 * nic_lat) * p.net_lat_scale;
    double base = p.ring_base_lat_s[pr];
    s->jobs[job].start += base;

    /* Nodes in first-appearance order and the ranks on each (local order). */
    int *node_of = cs_xmalloc((size_t)n * sizeof *node_of);
    int *nodes = cs_xmalloc((size_t)n * sizeof *nodes), m = 0;
    int *cnt = cs_xcalloc((size_t)n, sizeof *cnt);
    for (int i = 0; i < n; i++) {
        int nd = cs_fabric_node_of(s->fab, spec->gpu_ids[i]), k = 0;
        while (k < m && nodes[k] != nd)
            k++;
        if (k == m)
            nodes[m++] = nd;
        node_of[i] = k;
        cnt[k]++;
    }
    int ppn = cnt[0];
    bool uniform = true;
    for (int k = 1; k < m; k++)
        uniform = uniform && cnt[k] == ppn;
    /* local[k * ppn + r]: the r-th rank of node k. */
    int *local = NULL;
    if (uniform) {
        local = cs_xmalloc((size_t)n * sizeof *local);
        int *fill = cs_xcalloc((size_t)m, sizeof *fill);
        for (int i = 0; i < n; i++)
            local[node_of[i] * ppn + fill[node_of[i]]++] = spec->gpu_ids[i];
        free(fill);
    }
    enum cs_coll_algo algo = spec->algo;
    if (algo == CS_COLL_AUTO)
        algo = (m > 1 && uniform && ppn > 1) ? CS_COLL_HIER : CS_COLL_RING;
    if (algo == CS_COLL_HIER && (m == 1 || !uniform || ppn == 1))
        algo = CS_COLL_RING;
    enum cs_coll_op op = spec->op;
    bool hier_op = op == CS_COLL_ALL_REDUCE || op == CS_COLL_ALL_GATHER || op == CS_COLL_REDUCE_SCATTER;
    if (algo == CS_COLL_HIER && !hier_op)
        algo = CS_COLL_RING;
    size_t nmax = op == CS_COLL_ALLTOALL ? (size_t)n * (size_t)n : 2 * (size_t)n;
    int *src = cs_xmalloc(nmax * sizeof *src);
    int *dst = cs_xmalloc(nmax * sizeof *dst);
    double S = spec->bytes;
    cs_status rc = CS_OK;
    if (algo != CS_COLL_RING && algo != CS_COLL_HIER) {
        rc = CS_EUNSUPPORTED;
    } else if (algo == CS_COLL_HIER) {
        int nf = 0;
        /* intra-node ring: rank r -> r+1 on every node */
        for (int k = 0; k < m; k++)
            for (int r = 0; r < ppn; r++, nf++) {
                src[nf] = local[k * ppn + r];
                dst[nf] = local[k * ppn + (r + 1) % ppn];
            }
        int n_intra = nf;
        /* inter-node rings: local rank r of node k -> node k+1 */
        for (int r = 0; r < ppn; r++)
            for (int k = 0; k < m; k++, nf++) {
                src[nf] = local[k * ppn + r];
                dst[nf] = local[((k + 1) % m) * ppn + r];
            }
        const int *isrc = src, *idst = dst, *xsrc = src + n_intra, *xdst = dst + n_intra;
        if (op == CS_COLL_ALL_REDUCE) {
            rc = step_flows(s, job, hi, ppn - 1, isrc, idst, n_intra, S / ppn, aggregate, NULL);
            if (rc == CS_OK)
                rc = step_flows(s, job, hn, 2 * (m - 1), xsrc, xdst, n, S / n, aggregate, NULL);
            if (rc == CS_OK)
                rc = step_flows(s, job, hi, ppn - 1, isrc, idst, n_intra, S / ppn, aggregate, NULL);
        } else if (op == CS_COLL_ALL_GATHER) {
            rc = step_flows(s, job, hn, m - 1, xsrc, xdst, n, S / n, aggregate, NULL);
            if (rc == CS_OK)
                rc = step_flows(s, job, hi, ppn - 1, isrc, idst, n_intra, S / ppn, aggregate, NULL);
        } else {
            rc = step_flows(s, job, hi, ppn - 1, isrc, idst, n_intra, S / ppn, aggregate, NULL);
            if (rc == CS_OK)
                rc = step_flows(s, job, hn, m - 1, xsrc, xdst, n, S / n, aggregate, NULL);
        }
    } else if (op == CS_COLL_ALLTOALL) {
        int nf = 0;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                if (i != j) {
                    src[nf] = spec->gpu_ids[i];
                    dst[nf++] = spec->gpu_ids[j];
                }
        int *extra = p2p_links(s, c, &p, n, ppn, uniform, n - 1, S / n, nf);
        rc = step_flows(s, job, hi + (m > 1 ? hn : 0.0), 1, src, dst, nf, S / n, aggregate, extra);
        free(extra);
    } else {
        int nf = op == CS_COLL_BROADCAST ? n - 1 : n;
        for (int i = 0; i < nf; i++) {
            src[i] = spec->gpu_ids[i];
            dst[i] = spec->gpu_ids[(i + 1) % n];
        }
        int ninter_ring = 0; /* ring hops that cross nodes */
        for (int i = 0; i < n; i++)
            ninter_ring += node_of[i] != node_of[(i + 1) % n];
        if (op == CS_COLL_SENDRECV) {
            int *extra = p2p_links(s, c, &p, n, ppn, uniform, 1, S, nf);
            rc = step_flows(s, job, m > 1 ? hn : hi, 1, src, dst, nf, S, aggregate, extra);
            free(extra);
        } else if (op == CS_COLL_BROADCAST) {
            rc = step_flows(s, job, (n - 1 - (m - 1)) * hi + (m - 1) * hn, 1, src, dst, nf, S, aggregate, NULL);
        } else {
            /* Ring all_reduce / all_gather / reduce_scatter, latency as the
             * closed form (including NCCL's multi-node plateau factor). */
            bool ar = op == CS_COLL_ALL_REDUCE;
            int nsteps = ar ? 2 * (n - 1) : n - 1, ninter = ar ? 2 * (m - 1) : m - 1;
            double lat = base + (nsteps - ninter) * hi + ninter * hn;
            if (ar && m > 1 && S / ((double)p.channels * n) >= 64.0)
                lat *= p.ring_plateau;
            (void)ninter_ring;
            rc = step_flows(s, job, (lat - base) / nsteps, nsteps, src, dst, nf, S / n, aggregate, NULL);
        }
    }
    free(src);
    free(dst);
    free(local);
    free(cnt);
    free(nodes);
    free(node_of);
    return rc;
}

cs_status cs_flow_collectives(const cs_fabric *f, const struct cs_flow_job_spec *jobs, int n_jobs, bool aggregate,
                              double *finish_s, struct cs_flow_stats *stats)
{
    if (!f || !jobs || n_jobs < 1 || !finish_s)
        return CS_EINVAL;
    cs_flow_sim *s = cs_flow_sim_create(f);
    cs_status rc = CS_OK;
    for (int i = 0; i < n_jobs && rc == CS_OK; i++) {
        int j = cs_flow_job_add(s, jobs[i].start_s);
        rc = cs_flow_collective_build(s, j, &jobs[i], aggregate);
    }
    if (rc == CS_OK)
        rc = cs_flow_run(s);
    if (rc == CS_OK) {
        for (int i = 0; i < n_jobs; i++)
            finish_s[i] = cs_flow_job_finish_s(s, i);
        if (stats)
            cs_flow_stats_get(s, stats);
    }
    cs_flow_sim_destroy(s);
    return rc;
}

cs_status cs_flow_collective(const cs_fabric *f, enum cs_coll_op op, double bytes, const int *gpu_ids, int n,
                             enum cs_coll_algo algo, double *time_s)
{
    if (!time_s)
        return CS_EINVAL;
    struct cs_flow_job_spec spec = {op, bytes, gpu_ids, n, algo, 0.0};
    double fin = NAN;
    cs_status rc = cs_flow_collectives(f, &spec, 1, false, &fin, NULL);
    if (rc == CS_OK)
        *time_s = fin;
    return rc;
}
