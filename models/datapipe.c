/* datapipe.c: data loader stall of a training step (models layer). See
 * datapipe.h for the model and docs/run.md for its parameters. */
#include "clustersim/models/datapipe.h"
#include "clustersim/models/cluster.h"

#include "clustersim/models/checkpoint.h"
#include "clustersim/models/run.h"
#include "clustersim/models/storage.h"
#include "clustersim/sim/rng.h"
#include "clustersim/sim/sim.h"
#include "clustersim/sim/stats.h"
#include "clustersim/base/xmalloc.h"

#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The loader simulation (datapipe.h). Times in seconds inside, ns on the
 * engine. */
#define DP_MAX_RANKS 256
#define DP_MEASURED_STEPS 400
struct dp_sim {
    int ranks, workers, cap, steps, warmup, total;
    bool series;
    double compute_s;            /* the step without the stall */
    double sample_s, cv;         /* per-sample CPU time and its variation */
    int samples;                 /* per rank per step */
    double read_w_s;             /* a worker's read time for one batch */
    double read_rank_s;          /* the rank's read time for one batch */
    double batch_time_s;         /* data.batch_time: the loader's delivered time per batch */
    /* A checkpoint window: reads in [win_a_s, win_b_s) run `slow` times
     * slower (slow 1: none). */
    double win_a_s, win_b_s, slow;
    double measure_start_s;      /* when the first measured step started */
    gsl_rng *rng;
    int h_batch, h_step;
    cs_time *ready;              /* ranks x total: when batch b is ready at rank r; -1 = not */
    int *nready;                 /* per batch: ranks that have it */
    int *next_b;                 /* ranks x workers: the next batch the worker builds */
    bool *busy;                  /* ranks x workers */
    int consumed;                /* batches taken by started steps */
    int next_step;               /* the step waiting to start */
    bool training;               /* a step is running */
    cs_time prev_end;
    struct cs_stat_sample stalls;
    double stall_sum;
    cs_status err;
};
struct dp_ev {
    int rank, worker, batch;
};

static double dp_sample(struct dp_sim *m)
{
    if (!(m->cv > 0))
        return m->sample_s;
    /* lognormal with mean sample_s and coefficient of variation cv */
    double s2 = log1p(m->cv * m->cv);
    return m->sample_s * exp(gsl_ran_gaussian(m->rng, sqrt(s2)) - 0.5 * s2);
}

/* The CPU time of n samples: drawn one by one up to DP_EXACT_SAMPLES,
 * beyond by the central limit theorem (normal with the sum's mean and
 * variance, at least 0). */
#define DP_EXACT_SAMPLES 256
static double dp_sum(struct dp_sim *m, int n)
{
    if (n <= DP_EXACT_SAMPLES || !(m->cv > 0)) {
        if (!(m->cv > 0))
            return n * m->sample_s;
        double t = 0;
        for (int i = 0; i < n; i++)
            t += dp_sample(m);
        return t;
    }
    double mean = n * m->sample_s, sd = sqrt((double)n) * m->sample_s * m->cv;
    return fmax(0.0, mean + gsl_ran_gaussian(m->rng, sd));
}

/* The time to read what takes d seconds at the full rate, starting at t:
 * the part inside the window runs m->slow times slower. */
static double dp_read_s(const struct dp_sim *m, double t, double d)
{
    if (!(m->slow > 1) || !(d > 0) || t >= m->win_b_s)
        return d;
    double now = t, need = d;
    if (now < m->win_a_s) {
        double x = fmin(need, m->win_a_s - now);
        need -= x;
        now += x;
    }
    if (need > 0) {
        double x = fmin(need, (m->win_b_s - now) / m->slow);
        need -= x;
        now += x * m->slow;
    }
    return now + need - t;
}

/* One worker's time to build a whole batch, starting at now_s. */
static double dp_worker_batch_s(struct dp_sim *m, double now_s)
{
    if (m->batch_time_s > 0) {
        double t = m->batch_time_s * m->workers;
        if (m->cv > 0) {
            double s2 = log1p(m->cv * m->cv);
            t *= exp(gsl_ran_gaussian(m->rng, sqrt(s2)) - 0.5 * s2);
        }
        return t;
    }
    return fmax(dp_sum(m, m->samples), dp_read_s(m, now_s, m->read_w_s));
}

/* Series mode: the rank's batch, its samples split over the workers. */
static double dp_series_batch_s(struct dp_sim *m, double now_s)
{
    if (m->batch_time_s > 0)
        return m->batch_time_s;
    double worst = 0;
    for (int w = 0; w < m->workers; w++) {
        int share = m->samples / m->workers + (w < m->samples % m->workers);
        worst = fmax(worst, dp_sum(m, share));
    }
    return fmax(worst, dp_read_s(m, now_s, m->read_rank_s));
}

static void dp_schedule(cs_engine *e, struct dp_sim *m, int h, double delay_s, const struct dp_ev *ev)
{
    if (m->err != CS_OK)
        return;
    cs_status st = cs_sim_schedule_in_s(e, delay_s, h, ev, sizeof *ev, NULL);
    if (st != CS_OK)
        m->err = st;
}

static void dp_try_start(cs_engine *e, struct dp_sim *m, int r, int w)
{
    int i = r * m->workers + w;
    int b = m->next_b[i];
    if (m->busy[i] || b >= m->total || b >= m->consumed + m->cap)
        return;
    m->busy[i] = true;
    struct dp_ev ev = {r, w, b};
    dp_schedule(e, m, m->h_batch, dp_worker_batch_s(m, cs_time_to_s(cs_sim_now(e))), &ev);
}

static void dp_maybe_step(cs_engine *e, struct dp_sim *m)
{
    int k = m->next_step;
    if (m->training || k >= m->total || m->nready[k] < m->ranks)
        return;
    cs_time now = cs_sim_now(e);
    if (k == m->warmup)
        m->measure_start_s = cs_time_to_s(now);
    if (k >= m->warmup) {
        double st = cs_time_to_s(now - m->prev_end);
        cs_stat_sample_add(&m->stalls, st);
        m->stall_sum += st;
    }
    m->training = true;
    m->consumed = k + 1;
    struct dp_ev ev = {0, 0, k};
    dp_schedule(e, m, m->h_step, m->compute_s, &ev);
    if (!m->series)
        for (int r = 0; r < m->ranks; r++)
            for (int w = 0; w < m->workers; w++)
                dp_try_start(e, m, r, w);
}

static void dp_on_batch(cs_engine *e, const struct cs_event *evp, void *ctx)
{
    struct dp_sim *m = ctx;
    struct dp_ev ev;
    memcpy(&ev, evp->payload, sizeof ev);
    m->ready[(size_t)ev.rank * m->total + ev.batch] = cs_sim_now(e);
    m->nready[ev.batch]++;
    if (!m->series) {
        int i = ev.rank * m->workers + ev.worker;
        m->busy[i] = false;
        m->next_b[i] = ev.batch + m->workers;
        dp_try_start(e, m, ev.rank, ev.worker);
    }
    dp_maybe_step(e, m);
}

static void dp_on_step(cs_engine *e, const struct cs_event *evp, void *ctx)
{
    struct dp_sim *m = ctx;
    struct dp_ev ev;
    memcpy(&ev, evp->payload, sizeof ev);
    m->training = false;
    m->prev_end = cs_sim_now(e);
    m->next_step = ev.batch + 1;
    if (m->series && m->next_step < m->total) {
        for (int r = 0; r < m->ranks; r++) {
            struct dp_ev b = {r, 0, m->next_step};
            dp_schedule(e, m, m->h_batch, dp_series_batch_s(m, cs_time_to_s(cs_sim_now(e))), &b);
        }
        return;
    }
    dp_maybe_step(e, m);
}

/* Runs the loader simulation for r (filled with the closed-form parts).
 * With window_s > 0, one checkpoint window of that length, reads `slow`
 * times slower, opens at win_a_s (the baseline's first measured step: the
 * same seed makes the warm-up the same) and the measured steps are
 * lengthened to cover it and what follows (at most DP_MAX_WINDOW_STEPS).
 * *sum_s gets the sum of the measured stalls, *n_out their count,
 * *start_s when the first measured step started and *end_s when the last
 * one ended (each may be NULL). */
#define DP_MAX_WINDOW_STEPS 10000
static cs_status dp_simulate_w(const struct cs_scenario *s, double read_rank_s, double win_a_s, double window_s,
                               double slow, struct cs_data_result *r, double *sum_s, int *n_out,
                               double *start_s, double *end_s)
{
    const struct cs_data_cfg *dc = &s->data;
    int dp = s->workload.par.dp > 0 ? s->workload.par.dp : 1;
    struct dp_sim m;
    memset(&m, 0, sizeof m);
    m.ranks = dp < DP_MAX_RANKS ? dp : DP_MAX_RANKS;
    double cores_per_gpu = s->cluster.gpus_per_node > 0 ? s->cluster.cpu_cores_per_node / s->cluster.gpus_per_node : 1;
    double workers = dc->workers_per_gpu > 0 ? dc->workers_per_gpu : 1;
    if (workers > cores_per_gpu && cores_per_gpu >= 1)
        workers = floor(cores_per_gpu);
    m.workers = (int)workers;
    m.series = dc->prefetch <= 0;
    m.cap = m.series ? 1 : dc->prefetch * m.workers;
    if (m.cap > 4096)
        m.cap = 4096; /* a deeper queue than 4,096 batches absorbs nothing more over 400 steps */
    m.compute_s = r->compute_s;
    m.sample_s = dc->gpu_decode ? 0 : (dc->sample_cpu_s > 0 ? dc->sample_cpu_s : 0);
    m.cv = dc->sample_cv;
    double spr = r->samples_per_rank;
    m.samples = spr >= 1e9 ? 1000000000 : spr >= 1 ? (int)llround(spr) : 1;
    m.read_rank_s = read_rank_s;
    m.read_w_s = read_rank_s * m.workers;
    m.batch_time_s = dc->batch_time_s > 0 ? dc->batch_time_s : 0;
    /* Whole cycles of the workers, so that a deterministic loader's mean
     * is exact: warm-up past the first fill, then the measured steps. */
    int cyc = m.workers;
    m.warmup = ((m.cap + 8 + cyc - 1) / cyc) * cyc * 2;
    m.steps = ((DP_MEASURED_STEPS + cyc - 1) / cyc) * cyc;
    m.slow = 1;
    if (window_s > 0 && slow > 1) {
        /* The measured steps run past the window's end by twice the
         * queue's depth and the usual measured count (a step takes at
         * least compute_s). */
        double need = window_s / r->compute_s + 2.0 * m.cap + DP_MEASURED_STEPS;
        int steps = need < DP_MAX_WINDOW_STEPS ? (int)ceil(need) : DP_MAX_WINDOW_STEPS;
        m.steps = ((steps + cyc - 1) / cyc) * cyc;
        m.win_a_s = win_a_s;
        m.win_b_s = win_a_s + window_s;
        m.slow = slow;
    }
    m.total = m.warmup + m.steps;
    cs_engine *e = cs_sim_create(s->seed);
    m.rng = cs_sim_rng(e, CS_RNG_USER + 11);
    m.h_batch = cs_sim_register(e, "data.batch", dp_on_batch, &m);
    m.h_step = cs_sim_register(e, "data.step", dp_on_step, &m);
    m.ready = cs_xcalloc((size_t)m.ranks * m.total, sizeof *m.ready);
    m.nready = cs_xcalloc((size_t)m.total, sizeof *m.nready);
    m.next_b = cs_xcalloc((size_t)m.ranks * m.workers, sizeof *m.next_b);
    m.busy = cs_xcalloc((size_t)m.ranks * m.workers, sizeof *m.busy);
    cs_stat_sample_init(&m.stalls);
    for (int rk = 0; rk < m.ranks; rk++) {
        if (m.series) {
            struct dp_ev b = {rk, 0, 0};
            dp_schedule(e, &m, m.h_batch, dp_series_batch_s(&m, 0), &b);
        } else {
            for (int w = 0; w < m.workers; w++) {
                m.next_b[rk * m.workers + w] = w;
                dp_try_start(e, &m, rk, w);
            }
        }
    }
    cs_status st = m.err == CS_OK ? cs_sim_run(e, CS_SIM_FOREVER) : m.err;
    if (st == CS_OK)
        st = m.err;
    size_t n = cs_stat_sample_count(&m.stalls);
    if (st == CS_OK && n > 0) {
        r->ranks_simulated = m.ranks;
        r->steps_simulated = (int)n;
        r->stall_s = m.stall_sum / (double)n;
        cs_stat_sample_quantile(&m.stalls, 0.5, &r->stall_p50_s);
        cs_stat_sample_quantile(&m.stalls, 0.95, &r->stall_p95_s);
        cs_stat_sample_quantile(&m.stalls, 0.99, &r->stall_p99_s);
        cs_stat_sample_quantile(&m.stalls, 1.0, &r->stall_max_s);
        size_t stalled = 0;
        for (size_t i = 0; i < n; i++)
            stalled += m.stalls.values[i] > 1e-9;
        r->stalled_steps_fraction = (double)stalled / (double)n;
        if (sum_s)
            *sum_s = m.stall_sum;
        if (n_out)
            *n_out = (int)n;
        if (start_s)
            *start_s = m.measure_start_s;
        if (end_s)
            *end_s = cs_time_to_s(m.prev_end);
    } else if (st == CS_OK) {
        st = CS_EINVAL;
    }
    cs_stat_sample_fini(&m.stalls);
    free(m.ready);
    free(m.nready);
    free(m.next_b);
    free(m.busy);
    cs_sim_destroy(e);
    return st;
}

/* How much slower the dataset reads and the checkpoint's traffic run while
 * they share tier t (docs/run.md, "Data pipeline"): `nodes` nodes read,
 * the first `movers` of them also move checkpoint bytes on t, writing
 * (write) or reading (an upload's source). A remote tier: max-min over the
 * tier's aggregate bandwidth and each node's client paths (reads and
 * writes apart, a reader's path capped by its NIC share `nic`), every flow
 * wanting all it can get; *read_f is a reading node's rate alone over the
 * slowest reading node's rate with the traffic (the synchronous step waits
 * for the slowest), *move_f the checkpoint flow's rate alone over its rate
 * with the reads. Node-local NVMe: a moving node's devices serve its reads
 * and the checkpoint's bytes in turn, half of their time each (x2, x2). */
static void dp_share_factor(const struct cs_storage_spec *t, int nodes, int movers, bool write, double nic,
                            double *read_f, double *move_f)
{
    *read_f = *move_f = 1;
    if (movers < 1)
        return;
    if (!cs_storage_remote(t)) {
        *read_f = *move_f = 2;
        return;
    }
    if (movers > nodes)
        movers = nodes;
    double rbw = cs_storage_node_bw(t, false), wbw = cs_storage_node_bw(t, true);
    if (!(rbw > 0))
        return;
    if (isfinite(nic) && nic > 0 && nic < rbw)
        rbw = nic;
    if (!(wbw > 0))
        wbw = rbw;
    int n_res = 1 + 2 * nodes, n_fl = nodes + movers;
    double *cap = cs_xmalloc((size_t)n_res * sizeof *cap);
    struct cs_io_flow *fl = cs_xcalloc((size_t)n_fl, sizeof *fl);
    bool *on = cs_xcalloc((size_t)n_fl, sizeof *on);
    double *rate = cs_xcalloc((size_t)n_fl, sizeof *rate);
    cap[0] = t->aggregate_bw_bytes_per_s > 0 ? t->aggregate_bw_bytes_per_s : INFINITY;
    for (int i = 0; i < nodes; i++) {
        cap[1 + 2 * i] = rbw; /* node i's read path */
        cap[2 + 2 * i] = wbw; /* node i's write path */
        fl[i].n_res = 2;
        fl[i].res[0] = 0;
        fl[i].res[1] = 1 + 2 * i;
    }
    for (int j = 0; j < movers; j++) {
        struct cs_io_flow *f = &fl[nodes + j];
        f->n_res = 2;
        f->res[0] = 0;
        f->res[1] = write ? 2 + 2 * j : 1 + 2 * j;
    }
    /* alone: the reads, then the checkpoint's flows */
    for (int i = 0; i < nodes; i++)
        on[i] = true;
    cs_io_maxmin(cap, n_res, fl, on, n_fl, rate);
    double read_alone = rate[0];
    for (int i = 0; i < n_fl; i++)
        on[i] = i >= nodes;
    cs_io_maxmin(cap, n_res, fl, on, n_fl, rate);
    double move_alone = rate[nodes];
    for (int i = 0; i < n_fl; i++)
        on[i] = true;
    cs_io_maxmin(cap, n_res, fl, on, n_fl, rate);
    double worst = INFINITY, mworst = INFINITY;
    for (int i = 0; i < nodes; i++)
        worst = fmin(worst, rate[i]);
    for (int j = 0; j < movers; j++)
        mworst = fmin(mworst, rate[nodes + j]);
    free(cap);
    free(fl);
    free(on);
    free(rate);
    if (worst > 0 && isfinite(read_alone))
        *read_f = fmax(1.0, read_alone / worst);
    if (mworst > 0 && isfinite(move_alone))
        *move_f = fmax(1.0, move_alone / mworst);
}

/* Checkpoint traffic on the dataset's tier. The checkpoint plan is the one
 * the run model makes (cs_run_prepare). An async write (training goes on)
 * or an upload from or to the tier opens, every checkpoint, a window of
 * its duration lengthened by its own share of the tier (dp_share_factor's
 * move factor); the loader simulation runs again with one such window, the
 * reads inside it slowed by the read factor, and the stall it adds over
 * the steps without it (the prefetch queue absorbs a short window) is
 * spread over the checkpoint interval's steps. A synchronous write stops
 * the steps, so it stalls none. */
static cs_status dp_checkpoint_share(const struct cs_scenario *s, const struct cs_step_result *step,
                                     const struct cs_storage_spec *t, double nic, double start_s,
                                     struct cs_data_result *r)
{
    const struct cs_cluster_cfg *c = &s->cluster;
    if (!s->checkpoint.enabled || !(r->read_s > 0) || !(s->run.enabled || s->workload.tokens > 0))
        return CS_OK;
    struct cs_run_result *rr = cs_xcalloc(1, sizeof *rr);
    cs_diags quiet; /* the run model reports its own errors */
    cs_diags_init(&quiet);
    cs_status st = cs_run_prepare(s, step, NULL, &quiet, rr);
    cs_diags_fini(&quiet);
    const struct cs_ckpt_plan *p = &rr->ckpt;
    if (st != CS_OK || !rr->enabled || !p->enabled || !(p->interval_s > 0) || !isfinite(p->interval_s)) {
        free(rr);
        return CS_OK;
    }
    double steps_per_ckpt = isfinite(p->interval_steps) && p->interval_steps > 0 ? p->interval_steps
                                                                                 : p->interval_s / r->compute_s;
    const struct cs_storage_spec *ct = cs_storage_find(&c->storage, p->tier);
    const struct cs_storage_spec *ut = p->upload[0] ? cs_storage_find(&c->storage, p->upload) : NULL;
    struct dp_window {
        double dur_s;
        bool write;
    } win[2];
    int nw = 0;
    if (ct == t && s->checkpoint.mode == CS_CKPT_ASYNC && p->write_s > 0)
        win[nw++] = (struct dp_window){p->write_s, true};
    if (ut && p->upload_s > 0 && (ut == t || ct == t))
        win[nw++] = (struct dp_window){p->upload_s, ut == t};
    double stall0 = r->stall_s, window_s = 0, extra_s = 0, worst = 1;
    for (int k = 0; k < nw; k++) {
        double fr, fm;
        dp_share_factor(t, c->nodes, p->writer_nodes, win[k].write, nic, &fr, &fm);
        double w = win[k].dur_s * fm;
        window_s += w;
        worst = fmax(worst, fr);
        if (!(fr > 1))
            continue;
        struct cs_data_result rc = *r;
        double sum = 0, end = 0;
        int n = 0;
        st = dp_simulate_w(s, r->read_s, start_s, w, fr, &rc, &sum, &n, NULL, &end);
        if (st != CS_OK)
            break;
        /* A window longer than the simulated steps (DP_MAX_WINDOW_STEPS):
         * its extra stall grows in proportion to the part simulated. */
        double covered = end - start_s;
        double scale = covered > 0 && covered < w ? w / covered : 1;
        extra_s += fmax(0.0, sum - n * stall0) * scale;
    }
    double cycle_s = steps_per_ckpt * (r->compute_s + stall0) + p->blocking_s;
    free(rr);
    if (st != CS_OK || !(window_s > 0))
        return st;
    r->ckpt_window_fraction = fmin(1.0, window_s / cycle_s);
    r->ckpt_window_s = window_s;
    r->ckpt_read_slowdown = worst;
    r->ckpt_extra_stall_s = extra_s;
    r->stall_outside_ckpt_s = stall0;
    r->stall_s = stall0 + extra_s / steps_per_ckpt;
    return CS_OK;
}

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
    const struct cs_storage_spec *t = NULL;
    double nic = INFINITY;
    if (dc->sample_bytes > 0) {
        t = cs_storage_find(&c->storage, dc->tier);
        if (!t) {
            cs_diag_error(d, s->file, 0, 0, "data.tier: no storage tier \"%s\"", dc->tier);
            return CS_EINVAL;
        }
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
    if (dc->other_jobs_share > 0)
        r.read_s /= 1.0 - dc->other_jobs_share; /* the tier's share other jobs leave */
    r.load_s = dc->batch_time_s > 0 ? dc->batch_time_s : fmax(r.cpu_s, r.read_s);
    r.compute_s = step->time_s + r.gpu_s;
    double start_s = 0;
    cs_status sst = dp_simulate_w(s, r.read_s, 0, 0, 1, &r, NULL, NULL, &start_s, NULL);
    if (sst != CS_OK) {
        cs_diag_error(d, s->file, 0, 0, "data: the loader simulation failed: %s", cs_strerror(sst));
        return sst;
    }
    r.stall_outside_ckpt_s = r.stall_s;
    r.ckpt_read_slowdown = 1;
    if (t && !(dc->batch_time_s > 0)) { /* a measured batch_time has its reads in it */
        sst = dp_checkpoint_share(s, step, t, nic, start_s, &r);
        if (sst != CS_OK) {
            cs_diag_error(d, s->file, 0, 0, "data: the loader simulation failed: %s", cs_strerror(sst));
            return sst;
        }
    }
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
