/* run.c: run-level discrete-event simulation of a training run with
 * checkpoints and failures, and its Monte Carlo driver (models layer). The
 * model is described in run.h and docs/run.md. */
#define _POSIX_C_SOURCE 200809L
#include "clustersim/models/run.h"

#include "clustersim/models/failure.h"
#include "clustersim/models/topology.h"
#include "clustersim/sim/rng.h"
#include "clustersim/sim/sim.h"
#include "clustersim/sim/stats.h"
#include "clustersim/models/storage.h"
#include "clustersim/base/xmalloc.h"

#include <gsl/gsl_randist.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

void cs_run_options_default(struct cs_run_options *o)
{
    memset(o, 0, sizeof *o);
    o->threads = 1;
    o->switches = -1;
    o->max_wall_factor = 100;
}

uint64_t cs_run_replica_seed(uint64_t scenario_seed, int i)
{
    return cs_rng_mix64(scenario_seed + 0x9E3779B97F4A7C15ULL * (uint64_t)(i + 1));
}

/* ---- one replica ---------------------------------------------------------- */

/* ST_STALL: blocked at a checkpoint while the checkpoint tier is out
 * (failures.storage_outage: stall). */
enum run_state { ST_RUN, ST_BLOCK, ST_DOWN, ST_WAIT, ST_STALL, ST_DONE };

/* Node states of the spread placement (phys_state). */
enum { NODE_JOB, NODE_FREE, NODE_OUT };

struct run_ctx {
    const struct cs_scenario *s;
    const struct cs_run_result *plan;
    struct cs_run_replica *out;
    cs_engine *e;
    gsl_rng *rng;
    int h_fail, h_mile, h_block_end, h_durable, h_uploaded, h_restarted, h_repaired, h_end;
    int h_maint, h_strag, h_strag_end, h_spine_back, h_storage_back;
    struct cs_fail_domains dom;
    int cur_lost;             /* lost_by_scope_s index the current recovery is charged to */
    bool wait_storage;        /* ST_WAIT for the checkpoint tier (a restore needs it) */
    long spines_out;          /* spines failed and not yet repaired */
    int storage_out;          /* outages of the checkpoint tier under way */
    uint32_t sgen;            /* bumped by every outage: writes in flight die */
    long pending_drain;       /* drained maintenance: nodes to swap at the next checkpoint */
    /* Spread spare placement: every physical node (the job's, then the
     * spares) with its state and its rack and leaf domain. */
    bool spread;
    long n_phys;
    unsigned char *phys_state;
    long *phys_rack, *phys_leaf;
    int stragglers;           /* slow GPUs not yet removed */
    enum run_state state;
    cs_time t_last;           /* when W and since_ckpt were last brought up to date */
    double rate;              /* work per second while running (1 = all nodes) */
    double work;              /* W: full-speed training seconds done */
    double durable;           /* W of the last durable checkpoint */
    double uploaded;          /* W of the last checkpoint copied to the upload tier */
    double since_ckpt;        /* running seconds since the last checkpoint started */
    double target;            /* W to reach (tokens mode) */
    cs_time bg_until;         /* async write in flight until then */
    uint32_t gen;             /* bumped by every interruption */
    cs_event_id mile_id, restart_id;
    bool replaced_since;      /* a node was swapped: node-local checkpoint gone */
    long nodes_needed, nodes_active, spares_free, node_block;
    bool unlimited_spares, pending_rescale;
    bool local_tier;          /* checkpoints on node-local NVMe */
    cs_time block_start;
    double max_wall;
    cs_status err;            /* first delay the engine refused; the replica fails with it */
};

struct ev_fail { int comp; };
struct ev_w { double w; uint32_t gen, sgen; };
struct ev_node { long node; };

static double now_s(const struct run_ctx *c) { return cs_time_to_s(cs_sim_now(c->e)); }

/* Throughput factor while spines are out: the leaf-spine bandwidth falls
 * to (S - k) / S, so the step's exposed scale-out communication stretches
 * by S / (S - k): step / (step + net x (S / (S - k) - 1)). 0 with every
 * spine out (the job cannot run across leaves). */
static double spine_factor(const struct run_ctx *c)
{
    long S = c->dom.spines, k = c->spines_out;
    if (k <= 0 || S <= 0)
        return 1.0;
    if (k >= S)
        return 0.0;
    double step = c->plan->step_time_s, net = c->plan->net_exposed_s;
    if (!(step > 0) || !(net > 0))
        return 1.0;
    return step / (step + net * ((double)S / (double)(S - k) - 1.0));
}

/* Brings the work up to now. */
static void advance(struct run_ctx *c)
{
    cs_time now = cs_sim_now(c->e);
    double dt = cs_time_to_s(now - c->t_last);
    if (c->state == ST_RUN) {
        c->work += dt * c->rate;
        c->since_ckpt += dt;
        if (c->stragglers > 0) {
            double l = dt * c->rate * c->s->failures.strag_slowdown;
            c->out->straggler_s += l;
            c->out->lost_by_scope_s[CS_RUN_LOST_STRAG] += l;
        }
        if (c->spines_out > 0) {
            /* the rate is sf x what it would be with every spine: the
             * work the degraded fabric cost is rate x (1/sf - 1) */
            double sf = spine_factor(c);
            c->out->spine_degraded_s += dt;
            if (sf > 0)
                c->out->lost_by_scope_s[CS_SCOPE_SPINE] += dt * c->rate * (1.0 / sf - 1.0);
        }
    } else if (c->state == ST_BLOCK) {
        c->out->ckpt_s += dt;
    } else if (c->state == ST_DOWN || c->state == ST_WAIT) {
        c->out->down_s += dt;
        int k = c->state == ST_WAIT && c->wait_storage ? CS_SCOPE_STORAGE : c->cur_lost;
        if (k >= 0)
            c->out->lost_by_scope_s[k] += dt;
    } else if (c->state == ST_STALL) {
        c->out->storage_stall_s += dt;
        c->out->lost_by_scope_s[CS_SCOPE_STORAGE] += dt;
    }
    c->t_last = now;
}

static void sched(struct run_ctx *c, double delay_s, int h, const void *p, size_t n,
                  cs_event_id *id)
{
    /* A NaN, negative or infinite delay is a model error (a plan field
     * that was never computed), not an event due now: the replica stops and
     * fails with the engine's status. A failure drawn past the horizon
     * (max_wall: the replica gives up there) never fires, so it is not
     * scheduled: a huge MTBF (1e12 s per GPU) draws delays past the
     * engine's 292 years and is no error, just no failure. */
    if ((h == c->h_fail || h == c->h_strag || h == c->h_maint || h == c->h_repaired || h == c->h_spine_back ||
         h == c->h_storage_back) && isfinite(delay_s) && delay_s >= 0 &&
        now_s(c) + delay_s > c->max_wall)
        return;
    cs_status st = cs_sim_schedule_in_s(c->e, delay_s, h, p, n, id);
    if (st != CS_OK && c->err == CS_OK) {
        c->err = st;
        cs_sim_stop(c->e);
    }
}

/* Schedules the next progress milestone: a checkpoint due or the target. */
static void plan_milestone(struct run_ctx *c)
{
    cs_sim_cancel(c->e, c->mile_id);
    c->mile_id = CS_EVENT_NONE;
    if (c->state != ST_RUN || c->rate <= 0)
        return;
    double t = INFINITY;
    const struct cs_ckpt_plan *p = &c->plan->ckpt;
    if (p->enabled && isfinite(p->interval_s))
        t = p->interval_s - c->since_ckpt;
    if (!c->plan->duration_mode)
        t = fmin(t, (c->target - c->work) / c->rate);
    if (t < 0)
        t = 0; /* overdue by rounding: the milestone is now */
    if (isfinite(t))
        sched(c, t, c->h_mile, NULL, 0, &c->mile_id);
}

/* Throughput fraction on nodes_active nodes: whole data-parallel replicas. */
static double elastic_rate(const struct run_ctx *c)
{
    if (c->nodes_active >= c->nodes_needed)
        return 1.0;
    const struct cs_workload *w = &c->s->workload;
    long per = (long)w->par.tp * w->par.pp * w->par.cp;
    long gpn = c->s->cluster.gpus_per_node;
    long nodes_per_rep = (per + gpn - 1) / gpn;
    long reps_total = c->nodes_needed / nodes_per_rep;
    long reps = c->nodes_active / nodes_per_rep;
    return reps_total > 0 ? (double)reps / (double)reps_total : 0.0;
}

/* The job's rate: whole replicas on the nodes left, the degraded fabric,
 * and a slow GPU that every synchronous step waits for. */
static double cur_rate(const struct run_ctx *c)
{
    double r = elastic_rate(c) * spine_factor(c);
    if (c->stragglers > 0)
        r /= 1.0 + c->s->failures.strag_slowdown;
    return r;
}

static void go_run(struct run_ctx *c)
{
    c->state = ST_RUN;
    c->rate = cur_rate(c);
    plan_milestone(c);
}

/* Spread placement: the k-th physical node in state `st` (k from 0), or -1. */
static long nth_node(const struct run_ctx *c, unsigned char st, long k)
{
    for (long p = 0; p < c->n_phys; p++)
        if (c->phys_state[p] == st && k-- == 0)
            return p;
    return -1;
}

/* A free spare joins the job (spread placement: the first free node). */
static void promote_spare(struct run_ctx *c)
{
    c->spares_free--;
    c->nodes_active++;
    if (c->spread) {
        long p = nth_node(c, NODE_FREE, 0);
        if (p >= 0)
            c->phys_state[p] = NODE_JOB;
    }
}

/* Takes one of the job's nodes out for repair_s (a GPU or node failure, a
 * straggler's node, a drained node): the count model's swap, or, spread, a
 * node drawn among the job's. */
static void take_job_node(struct run_ctx *c, double repair_s)
{
    struct ev_node en = {-1};
    if (c->spread && c->nodes_active > 0) {
        long p = nth_node(c, NODE_JOB, (long)gsl_rng_uniform_int(c->rng, (unsigned long)c->nodes_active));
        if (p >= 0)
            c->phys_state[p] = NODE_OUT;
        en.node = p;
        c->nodes_active--;
    } else if (c->spares_free > 0) {
        c->spares_free--;
    } else {
        c->nodes_active--;
    }
    sched(c, repair_s, c->h_repaired, &en, sizeof en, NULL);
}

/* A replacing failure of comp's scope takes its nodes out. Count model: a
 * rack or leaf takes its nodes_out nodes, covered by spares of the pool
 * (placed apart). Spread: a rack or leaf drawn among the job's takes every
 * node in it that is not already out, the job's and the spares'. Returns
 * the job's nodes hit (0: the event took only spares). */
static long take_out(struct run_ctx *c, const struct cs_fail_component *comp)
{
    double rep = comp->repair_s >= 0 ? comp->repair_s : c->s->failures.repair_s;
    bool domain = comp->scope == CS_SCOPE_RACK || comp->scope == CS_SCOPE_LEAF;
    if (c->unlimited_spares)
        return 1;
    if (!domain || !c->spread) {
        long out = cs_fail_domain_nodes_out(&c->dom, comp->scope);
        for (long k = 0; k < (out > 0 ? out : 1); k++)
            take_job_node(c, rep);
        return out > 0 ? out : 1;
    }
    long units = cs_fail_domain_units(&c->dom, comp->scope);
    if (comp->scope == CS_SCOPE_LEAF) {
        long npl = c->dom.nodes_per_leaf > 0 ? c->dom.nodes_per_leaf : 1;
        units = (c->nodes_needed + npl - 1) / npl; /* leaf domains (a rail unit's leaves share one) */
    }
    long d = units > 1 ? (long)gsl_rng_uniform_int(c->rng, (unsigned long)units) : 0;
    const long *dom = comp->scope == CS_SCOPE_RACK ? c->phys_rack : c->phys_leaf;
    long hit = 0;
    for (long p = 0; p < c->n_phys; p++) {
        if (dom[p] != d || c->phys_state[p] == NODE_OUT)
            continue;
        if (c->phys_state[p] == NODE_JOB) {
            hit++;
            c->nodes_active--;
        } else {
            c->spares_free--;
            c->out->spares_lost += 1;
        }
        c->phys_state[p] = NODE_OUT;
        struct ev_node en = {p};
        sched(c, rep, c->h_repaired, &en, sizeof en, NULL);
    }
    return hit;
}

/* Drained maintenance: the drained nodes leave for the window's duration. */
static void take_drained(struct run_ctx *c)
{
    if (!c->unlimited_spares)
        for (long k = 0; k < c->pending_drain && c->nodes_active > 0; k++)
            take_job_node(c, c->s->failures.maint_duration_s);
    c->pending_drain = 0;
}

/* Starts (or restarts) the recovery: detection + restart + restore, or a wait
 * for a node when none is left and the job is not elastic. */
static void begin_recovery(struct run_ctx *c, double extra_s)
{
    cs_sim_cancel(c->e, c->restart_id);
    c->restart_id = CS_EVENT_NONE;
    /* Take back repaired nodes from the pool. */
    if (!c->unlimited_spares) {
        while (c->nodes_active < c->nodes_needed && c->spares_free > 0)
            promote_spare(c);
    }
    const struct cs_failures_cfg *f = &c->s->failures;
    const struct cs_ckpt_plan *p = &c->plan->ckpt;
    bool can_run = c->nodes_active >= c->nodes_needed || (f->elastic && elastic_rate(c) > 0);
    c->wait_storage = false;
    if (can_run && spine_factor(c) <= 0)
        can_run = false; /* every spine out: h_spine_back resumes it */
    else if (can_run && p->enabled && c->storage_out > 0) {
        can_run = false; /* the restore needs the checkpoint tier: h_storage_back resumes it */
        c->wait_storage = true;
    }
    if (!can_run) {
        c->state = ST_WAIT; /* h_repaired resumes the recovery */
        return;
    }
    double restore = p->enabled ? p->restore_s : 0;
    if (p->enabled && c->replaced_since && c->local_tier && p->upload[0] && p->upload_s > 0)
        restore = p->restore_upload_s;
    c->state = ST_DOWN;
    sched(c, extra_s + restore, c->h_restarted, NULL, 0, &c->restart_id);
}

/* An interruption charged to lost_by_scope_s[lost]; the failed unit's
 * nodes are already out (take_out). */
static void interrupt(struct run_ctx *c, bool replace, int lost)
{
    if (c->state == ST_DONE)
        return;
    c->gen++;
    cs_sim_cancel(c->e, c->mile_id);
    c->mile_id = CS_EVENT_NONE;
    c->cur_lost = lost;
    if (c->pending_drain > 0)
        take_drained(c); /* the restart swaps the drained nodes too */
    if (replace)
        c->replaced_since = true;
    /* Roll back to the last checkpoint that survives: the upload tier's when
     * a node (with its node-local checkpoint shard) was replaced. */
    const struct cs_ckpt_plan *p = &c->plan->ckpt;
    double back = c->durable;
    if (p->enabled && c->replaced_since && c->local_tier && p->upload[0] && p->upload_s > 0)
        back = c->uploaded;
    if (c->state == ST_RUN || c->state == ST_BLOCK || c->state == ST_STALL) {
        c->out->lost_s += c->work - back;
        if (lost >= 0)
            c->out->lost_by_scope_s[lost] += c->work - back;
        c->work = back;
        c->durable = back;
        if (c->uploaded > back)
            c->uploaded = back;
    }
    c->since_ckpt = 0;
    c->bg_until = cs_sim_now(c->e);
    c->pending_rescale = false;
    const struct cs_failures_cfg *f = &c->s->failures;
    begin_recovery(c, f->detection_s + f->restart_s);
}

/* A planned restart at work w (a checkpoint): the drained nodes leave and
 * the job restarts without them, losing no work. */
static void drain_restart(struct run_ctx *c, double w)
{
    c->gen++;
    cs_sim_cancel(c->e, c->mile_id);
    c->mile_id = CS_EVENT_NONE;
    c->durable = w;
    if (c->uploaded < w)
        c->uploaded = w;
    c->since_ckpt = 0;
    c->pending_rescale = false;
    take_drained(c);
    c->cur_lost = CS_RUN_LOST_MAINT;
    begin_recovery(c, c->s->failures.restart_s);
}

/* The checkpoint tier goes out for rep_s: a write under way dies; stall
 * blocks the job there until the tier is back, continue trains on. */
static void storage_outage(struct run_ctx *c, double rep_s)
{
    c->out->storage_outages += 1;
    c->storage_out++;
    c->sgen++;
    sched(c, rep_s, c->h_storage_back, NULL, 0, NULL);
    if (c->state == ST_DOWN && c->plan->ckpt.enabled) {
        /* a restart under way cannot restore: it waits for the tier */
        cs_sim_cancel(c->e, c->restart_id);
        c->restart_id = CS_EVENT_NONE;
        c->state = ST_WAIT;
        c->wait_storage = true;
        return;
    }
    if (c->state != ST_BLOCK)
        return;
    if (c->s->failures.storage_outage == CS_STORAGE_STALL) {
        c->state = ST_STALL;
    } else {
        c->out->checkpoints_skipped += 1;
        go_run(c);
    }
}

static void on_fail(cs_engine *e, const struct cs_event *ev, void *ctx)
{
    struct run_ctx *c = ctx;
    struct ev_fail p;
    memcpy(&p, ev->payload, sizeof p);
    const struct cs_fail_component *comp = &c->s->failures.components[p.comp];
    bool takes_nodes = comp->scope == CS_SCOPE_GPU || comp->scope == CS_SCOPE_NODE ||
                       comp->scope == CS_SCOPE_RACK || comp->scope == CS_SCOPE_LEAF;
    bool replace = (comp->replace || comp->preemption) && takes_nodes;
    /* The next failure of this class: superposed Poisson processes for an
     * exponential class (rate units / MTBF); Weibull units renew one by one,
     * each unit holding its own event. */
    long units = cs_fail_domain_units(&c->dom, comp->scope);
    if (comp->dist == CS_DIST_WEIBULL && comp->shape != 1.0)
        sched(c, cs_fail_draw_s(comp, c->rng), c->h_fail, &p, sizeof p, NULL);
    else
        sched(c, gsl_ran_exponential(c->rng, comp->mtbf_s / (double)units), c->h_fail, &p,
              sizeof p, NULL);
    advance(c);
    double rep = comp->repair_s >= 0 ? comp->repair_s : c->s->failures.repair_s;
    if (comp->scope == CS_SCOPE_STORAGE) {
        storage_outage(c, rep);
        c->out->by_cause[p.comp]++;
    } else {
        long hit = replace ? take_out(c, comp) : 1;
        if (hit > 0 && c->state != ST_DONE) {
            if (comp->preemption)
                c->out->preemptions++;
            else
                c->out->interruptions++;
            c->out->by_cause[p.comp]++;
            c->out->by_scope[comp->scope] += 1;
            if (comp->scope == CS_SCOPE_SPINE && comp->replace) {
                /* the job restarts on the paths left, degraded until the
                 * spine is repaired */
                c->spines_out++;
                sched(c, rep, c->h_spine_back, NULL, 0, NULL);
            }
            interrupt(c, replace, comp->scope);
        }
    }
    if (now_s(c) > c->max_wall) {
        advance(c);
        c->state = ST_DONE;
        cs_sim_stop(e);
    }
}

/* Planned maintenance: drained, the job checkpoints first and loses no
 * work; restart-required, it rolls back like a failure. A stop that falls
 * in a recovery is folded into it. */
static void on_maint(cs_engine *e, const struct cs_event *ev, void *ctx)
{
    (void)e;
    (void)ev;
    struct run_ctx *c = ctx;
    const struct cs_failures_cfg *f = &c->s->failures;
    sched(c, f->maint_interval_s, c->h_maint, NULL, 0, NULL);
    advance(c);
    if (c->state != ST_RUN && c->state != ST_BLOCK)
        return;
    if (f->maint_kind == CS_MAINT_DRAINED) {
        /* Rolling maintenance: the drained nodes leave at the job's next
         * checkpoint, a planned restart that loses no work; the job does
         * not stop for the window. Without checkpoints: at once. */
        c->out->maintenances += 1;
        c->pending_drain += f->maint_nodes;
        const struct cs_ckpt_plan *pl = &c->plan->ckpt;
        if (!(pl->enabled && isfinite(pl->interval_s)))
            drain_restart(c, c->work);
        return;
    }
    c->gen++;
    cs_sim_cancel(c->e, c->mile_id);
    c->mile_id = CS_EVENT_NONE;
    c->cur_lost = CS_RUN_LOST_MAINT;
    if (f->maint_kind == CS_MAINT_SCHEDULED) {
        c->durable = c->work;
        if (c->uploaded < c->work)
            c->uploaded = c->work;
    } else {
        c->out->lost_s += c->work - c->durable;
        c->out->lost_by_scope_s[CS_RUN_LOST_MAINT] += c->work - c->durable;
        c->work = c->durable;
    }
    c->since_ckpt = 0;
    c->out->maintenances += 1;
    c->out->maintenance_s += f->maint_duration_s;
    begin_recovery(c, f->maint_duration_s + f->restart_s);
}

/* A GPU turns slow: every step stretches until it is found and removed. */
static void on_strag(cs_engine *e, const struct cs_event *ev, void *ctx)
{
    (void)e;
    (void)ev;
    struct run_ctx *c = ctx;
    const struct cs_failures_cfg *f = &c->s->failures;
    sched(c, gsl_ran_exponential(c->rng, f->strag_mtbf_s / (double)c->plan->gpus), c->h_strag, NULL, 0, NULL);
    advance(c);
    c->stragglers++;
    if (c->state == ST_RUN) {
        c->rate = cur_rate(c);
        plan_milestone(c);
    }
    sched(c, f->strag_detect_s, c->h_strag_end, NULL, 0, NULL);
}

static void on_strag_end(cs_engine *e, const struct cs_event *ev, void *ctx)
{
    (void)e;
    (void)ev;
    struct run_ctx *c = ctx;
    advance(c);
    if (c->state == ST_DONE)
        return;
    if (c->stragglers > 0)
        c->stragglers--;
    c->out->straggler_removals += 1;
    /* Its node is swapped for a spare: a restart from the last checkpoint. */
    static const struct cs_fail_component swap = {.name = "straggler", .scope = CS_SCOPE_NODE,
                                                  .replace = true, .repair_s = -1};
    take_out(c, &swap);
    interrupt(c, true, CS_RUN_LOST_STRAG);
}

static void finish(struct run_ctx *c, bool completed)
{
    advance(c);
    c->state = ST_DONE;
    c->out->completed = completed;
    cs_sim_stop(c->e);
}

static void start_checkpoint(struct run_ctx *c)
{
    const struct cs_ckpt_plan *p = &c->plan->ckpt;
    c->state = ST_BLOCK;
    c->block_start = cs_sim_now(c->e);
    double wait = 0;
    if (c->s->checkpoint.mode == CS_CKPT_ASYNC && c->bg_until > cs_sim_now(c->e))
        wait = cs_time_to_s(c->bg_until - cs_sim_now(c->e)); /* previous write still going */
    struct ev_w w = {c->work, c->gen, c->sgen};
    sched(c, wait + p->blocking_s, c->h_block_end, &w, sizeof w, NULL);
}

static void on_mile(cs_engine *e, const struct cs_event *ev, void *ctx)
{
    (void)e;
    (void)ev;
    struct run_ctx *c = ctx;
    c->mile_id = CS_EVENT_NONE;
    advance(c);
    if (!c->plan->duration_mode && c->work >= c->target - 1e-6) {
        finish(c, true);
        return;
    }
    c->since_ckpt = 0;
    if (c->storage_out > 0) {
        /* the checkpoint tier is out: block until it is back, or skip */
        if (c->s->failures.storage_outage == CS_STORAGE_STALL) {
            c->state = ST_STALL;
        } else {
            c->out->checkpoints_skipped += 1;
            go_run(c);
        }
        return;
    }
    c->out->checkpoints++;
    start_checkpoint(c);
}

static void on_block_end(cs_engine *e, const struct cs_event *ev, void *ctx)
{
    (void)e;
    struct run_ctx *c = ctx;
    struct ev_w w;
    memcpy(&w, ev->payload, sizeof w);
    if (w.gen != c->gen || w.sgen != c->sgen || c->state != ST_BLOCK)
        return; /* an interruption, or an outage of the tier, ended it */
    advance(c);
    const struct cs_ckpt_plan *p = &c->plan->ckpt;
    if (c->s->checkpoint.mode == CS_CKPT_SYNC) {
        c->durable = w.w;
        if (p->upload[0] && p->upload_s > 0)
            sched(c, p->upload_s, c->h_uploaded, &w, sizeof w, NULL);
    } else {
        sched(c, p->write_s, c->h_durable, &w, sizeof w, NULL);
        cs_time wt;
        if (cs_time_from_s_checked(p->write_s, &wt) == CS_OK && wt >= 0)
            c->bg_until = cs_sim_now(c->e) + wt;
        else if (c->err == CS_OK) {
            c->err = CS_EINVAL;
            cs_sim_stop(c->e);
        }
    }
    if (c->pending_drain > 0) {
        drain_restart(c, w.w); /* drained maintenance: swap at this checkpoint */
        return;
    }
    if (c->pending_rescale) {
        /* Repaired nodes rejoin an elastic job at a checkpoint: a planned
         * restart that loses no work. */
        c->pending_rescale = false;
        c->durable = w.w;
        begin_recovery(c, c->s->failures.restart_s);
        return;
    }
    go_run(c);
}

static void on_durable(cs_engine *e, const struct cs_event *ev, void *ctx)
{
    (void)e;
    struct run_ctx *c = ctx;
    struct ev_w w;
    memcpy(&w, ev->payload, sizeof w);
    if (w.gen != c->gen || w.sgen != c->sgen)
        return; /* the snapshot died with the job, or the tier went out */
    if (w.w > c->durable)
        c->durable = w.w;
    const struct cs_ckpt_plan *p = &c->plan->ckpt;
    if (p->upload[0] && p->upload_s > 0)
        sched(c, p->upload_s, c->h_uploaded, &w, sizeof w, NULL);
}

static void on_uploaded(cs_engine *e, const struct cs_event *ev, void *ctx)
{
    (void)e;
    struct run_ctx *c = ctx;
    struct ev_w w;
    memcpy(&w, ev->payload, sizeof w);
    /* The copy of a durable checkpoint survives interruptions (not an
     * outage of the tier it is read from). */
    if (w.sgen == c->sgen && w.w > c->uploaded && w.w <= c->durable + 1e-9)
        c->uploaded = w.w;
}

static void on_restarted(cs_engine *e, const struct cs_event *ev, void *ctx)
{
    (void)e;
    (void)ev;
    struct run_ctx *c = ctx;
    c->restart_id = CS_EVENT_NONE;
    advance(c);
    c->replaced_since = false;
    go_run(c);
}

static void on_repaired(cs_engine *e, const struct cs_event *ev, void *ctx)
{
    (void)e;
    struct run_ctx *c = ctx;
    struct ev_node en;
    memcpy(&en, ev->payload, sizeof en);
    advance(c);
    if (c->spread && en.node >= 0 && en.node < c->n_phys)
        c->phys_state[en.node] = NODE_FREE;
    c->spares_free++;
    if (c->state == ST_WAIT) {
        const struct cs_failures_cfg *f = &c->s->failures;
        begin_recovery(c, f->restart_s);
    } else if (c->nodes_active < c->nodes_needed) {
        c->pending_rescale = true;
    }
}

/* A spine is back: the fabric's bandwidth with it. */
static void on_spine_back(cs_engine *e, const struct cs_event *ev, void *ctx)
{
    (void)e;
    (void)ev;
    struct run_ctx *c = ctx;
    advance(c);
    if (c->spines_out > 0)
        c->spines_out--;
    if (c->state == ST_RUN) {
        c->rate = cur_rate(c);
        plan_milestone(c);
    } else if (c->state == ST_WAIT) {
        begin_recovery(c, c->s->failures.restart_s);
    }
}

/* The checkpoint tier is back: a stalled job writes its checkpoint, a
 * recovery waiting to restore goes on. */
static void on_storage_back(cs_engine *e, const struct cs_event *ev, void *ctx)
{
    (void)e;
    (void)ev;
    struct run_ctx *c = ctx;
    advance(c);
    if (c->storage_out > 0)
        c->storage_out--;
    if (c->storage_out > 0)
        return;
    if (c->state == ST_STALL) {
        c->out->checkpoints++;
        start_checkpoint(c);
    } else if (c->state == ST_WAIT && c->wait_storage) {
        begin_recovery(c, c->s->failures.restart_s);
    }
}

static void on_end(cs_engine *e, const struct cs_event *ev, void *ctx)
{
    (void)e;
    (void)ev;
    finish((struct run_ctx *)ctx, true);
}

cs_status cs_run_replica_simulate(const struct cs_scenario *s, const struct cs_run_result *r,
                                  const struct cs_run_options *o, uint64_t seed,
                                  struct cs_run_replica *out)
{
    memset(out, 0, sizeof *out);
    if (!r->enabled)
        return CS_EINVAL;
    struct run_ctx c;
    memset(&c, 0, sizeof c);
    c.s = s;
    c.plan = r;
    c.out = out;
    c.e = cs_sim_create(seed);
    cs_sim_set_limits(c.e, o && o->max_events ? o->max_events : CS_RUN_MAX_EVENTS, o ? o->max_wall_s : 0);
    c.rng = cs_sim_rng(c.e, CS_RNG_FAILURES);
    c.h_fail = cs_sim_register(c.e, "run.fail", on_fail, &c);
    c.h_mile = cs_sim_register(c.e, "run.milestone", on_mile, &c);
    c.h_block_end = cs_sim_register(c.e, "run.ckpt_block_end", on_block_end, &c);
    c.h_durable = cs_sim_register(c.e, "run.ckpt_durable", on_durable, &c);
    c.h_uploaded = cs_sim_register(c.e, "run.ckpt_uploaded", on_uploaded, &c);
    c.h_restarted = cs_sim_register(c.e, "run.restarted", on_restarted, &c);
    c.h_repaired = cs_sim_register(c.e, "run.repaired", on_repaired, &c);
    c.h_end = cs_sim_register(c.e, "run.end", on_end, &c);
    c.h_maint = cs_sim_register(c.e, "run.maintenance", on_maint, &c);
    c.h_strag = cs_sim_register(c.e, "run.straggler", on_strag, &c);
    c.h_strag_end = cs_sim_register(c.e, "run.straggler_removed", on_strag_end, &c);
    c.h_spine_back = cs_sim_register(c.e, "run.spine_repaired", on_spine_back, &c);
    c.h_storage_back = cs_sim_register(c.e, "run.storage_back", on_storage_back, &c);
    c.dom = r->dom;
    c.cur_lost = -1;
    c.target = r->target_s;
    c.nodes_needed = r->nodes;
    c.nodes_active = r->nodes;
    c.unlimited_spares = r->spares < 0;
    c.spares_free = r->spares > 0 ? r->spares : 0;
    c.spread = !c.unlimited_spares && s->failures.spares_placement == CS_SPARES_SPREAD && r->nodes > 0;
    if (c.spread) {
        /* The job's nodes in order, rack j / nodes_per_rack and leaf domain
         * j / nodes_per_leaf; spare i beside job node floor((i + 1/2) N / M),
         * in its rack and under its leaf. */
        long N = r->nodes, M = c.spares_free;
        long npr = c.dom.nodes_per_rack > 0 ? c.dom.nodes_per_rack : 1;
        long npl = c.dom.nodes_per_leaf > 0 ? c.dom.nodes_per_leaf : 1;
        c.n_phys = N + M;
        c.phys_state = cs_xcalloc((size_t)c.n_phys, 1);
        c.phys_rack = cs_xcalloc((size_t)c.n_phys, sizeof *c.phys_rack);
        c.phys_leaf = cs_xcalloc((size_t)c.n_phys, sizeof *c.phys_leaf);
        for (long p = 0; p < c.n_phys; p++) {
            long at = p < N ? p : (long)(((double)(p - N) + 0.5) * (double)N / (double)M);
            if (at >= N)
                at = N - 1;
            c.phys_state[p] = p < N ? NODE_JOB : NODE_FREE;
            c.phys_rack[p] = at / npr;
            c.phys_leaf[p] = at / npl;
        }
    }
    const struct cs_storage_spec *ct = cs_storage_find(&s->cluster.storage, r->ckpt.tier);
    c.local_tier = r->ckpt.enabled && ct && ct->kind == CS_STORAGE_NVME;
    c.max_wall = r->target_s * (o && o->max_wall_factor > 0 ? o->max_wall_factor : 100);

    if (r->failures) {
        const struct cs_failures_cfg *f = &s->failures;
        for (int i = 0; i < f->n_components; i++) {
            const struct cs_fail_component *comp = &f->components[i];
            struct ev_fail p = {i};
            long units = cs_fail_domain_units(&r->dom, comp->scope);
            if (units <= 0)
                continue;
            if (comp->dist == CS_DIST_WEIBULL && comp->shape != 1.0) {
                for (long u = 0; u < units; u++)
                    sched(&c, cs_fail_draw_s(comp, c.rng), c.h_fail, &p, sizeof p, NULL);
            } else {
                sched(&c, gsl_ran_exponential(c.rng, comp->mtbf_s / (double)units), c.h_fail,
                      &p, sizeof p, NULL);
            }
        }
    }
    if (r->duration_mode)
        sched(&c, r->target_s, c.h_end, NULL, 0, NULL);
    if (s->failures.enabled && isfinite(s->failures.maint_interval_s) && s->failures.maint_interval_s > 0)
        sched(&c, s->failures.maint_interval_s, c.h_maint, NULL, 0, NULL);
    if (s->failures.enabled && isfinite(s->failures.strag_mtbf_s) && s->failures.strag_mtbf_s > 0 && r->gpus > 0)
        sched(&c, gsl_ran_exponential(c.rng, s->failures.strag_mtbf_s / (double)r->gpus), c.h_strag, NULL,
              0, NULL);
    go_run(&c);
    cs_status st = c.err;
    if (st == CS_OK)
        st = cs_sim_run(c.e, CS_SIM_FOREVER);
    if (st == CS_OK)
        st = c.err;
    if (c.state != ST_DONE) /* safety: cannot happen while a milestone is pending */
        finish(&c, false);
    out->wall_s = cs_time_to_s(cs_sim_now(c.e));
    out->work_s = c.work;
    out->tokens = c.work * r->tokens_per_s;
    out->events = cs_sim_events_processed(c.e);
    cs_sim_destroy(c.e);
    free(c.phys_state);
    free(c.phys_rack);
    free(c.phys_leaf);
    return st;
}

/* ---- Monte Carlo ---------------------------------------------------------- */

/* The built fabric's switches by tier; false when it cannot be built. */
static bool fabric_counts(const struct cs_scenario *s, struct cs_fabric_counts *n)
{
    cs_fabric *f = NULL;
    if (cs_fabric_create(&s->cluster, s->seed, &f) != CS_OK)
        return false;
    cs_fabric_counts(f, n);
    cs_fabric_destroy(f);
    return true;
}

static long count_switches(const struct cs_scenario *s)
{
    struct cs_fabric_counts n;
    if (!fabric_counts(s, &n))
        return 0;
    return n.switches_by_tier[0] + n.switches_by_tier[1] + n.switches_by_tier[2];
}

/* The job's leaves and spines and the nodes of one leaf domain, from the
 * topology builder the network model uses (cs_fabric_geometry for the leaf
 * domain, cs_fabric_counts for the switches; docs/run.md "Fault
 * domains"). */
static cs_status leaf_spine_domains(const struct cs_scenario *s, struct cs_fail_domains *dm)
{
    struct cs_fabric_geom g;
    struct cs_fabric_counts n;
    if (cs_fabric_geometry(&s->cluster, &g) != CS_OK || !fabric_counts(s, &n))
        return CS_EINVAL;
    long cl_nodes = s->cluster.nodes > 0 ? s->cluster.nodes : 1;
    long leaves = n.switches_by_tier[0];
    if (leaves <= 0 && s->cluster.nodes == 1)
        leaves = 1; /* one node: its leaf is the single switch the builder omits */
    dm->leaves = (long)llround((double)leaves * (double)dm->nodes / (double)cl_nodes);
    if (dm->leaves < 1 && leaves > 0)
        dm->leaves = 1;
    dm->nodes_per_leaf = (long)ceil(g.nodes_per_leaf - 1e-9);
    if (dm->nodes_per_leaf < 1)
        dm->nodes_per_leaf = 1;
    /* Spines carry the job's traffic only when it spans more than one leaf
     * domain. */
    dm->spines = dm->nodes > dm->nodes_per_leaf ? n.switches_by_tier[1] + n.switches_by_tier[2] : 0;
    return CS_OK;
}

cs_status cs_run_prepare(const struct cs_scenario *s, const struct cs_step_result *step,
                         const struct cs_run_options *o, cs_diags *d, struct cs_run_result *r)
{
    memset(r, 0, sizeof *r);
    struct cs_run_options def;
    if (!o) {
        cs_run_options_default(&def);
        o = &def;
    }
    r->duration_mode = s->run.enabled && s->run.duration_s > 0;
    bool tokens = s->has_workload && s->workload.tokens > 0;
    if (!r->duration_mode && !tokens)
        return CS_OK;
    if (!step || !step->fits || !(step->time_s > 0)) {
        cs_diag_error(d, s->file, 0, 0,
                      "run: the step was not simulated (it does not fit in memory or has no "
                      "time), so the run cannot be");
        return CS_EINVAL;
    }
    r->enabled = true;
    r->failures = s->failures.enabled && s->failures.n_components > 0;
    r->default_rates = s->failures.defaults;
    r->replicas = o->replicas > 0 ? o->replicas : (s->run.replicas > 0 ? s->run.replicas : 1);
    /* The job's own GPUs and nodes (workload.gpus): neighbours' failures are
     * not this job's. */
    r->gpus = cs_job_gpus(&s->cluster, s->has_workload ? &s->workload : NULL);
    r->nodes = (int)(r->gpus / s->cluster.gpus_per_node);
    r->switches = 0;
    bool leaf_spine = false;
    for (int i = 0; r->failures && i < s->failures.n_components; i++) {
        enum cs_fail_scope sc = s->failures.components[i].scope;
        r->scope_used[sc] = true;
        if (sc == CS_SCOPE_SWITCH)
            r->switches = o->switches >= 0 ? o->switches : count_switches(s);
        leaf_spine |= sc == CS_SCOPE_LEAF || sc == CS_SCOPE_SPINE;
    }
    r->dom = (struct cs_fail_domains){.gpus = r->gpus, .nodes = r->nodes, .switches = r->switches,
                                      .nodes_per_rack = s->failures.nodes_per_rack > 0 ? s->failures.nodes_per_rack : 1,
                                      .nodes_per_leaf = 1};
    if (leaf_spine && leaf_spine_domains(s, &r->dom) != CS_OK) {
        cs_diag_error(d, s->file, 0, 0,
                      "failures.components: a leaf or spine class needs the cluster's fabric, which cannot "
                      "be built (check cluster.fabric)");
        return CS_EINVAL;
    }
    r->spares = s->failures.spares;
    if (s->failures.spares_per_rack > 0)
        r->spares = (long)s->failures.spares_per_rack * cs_fail_domain_units(&r->dom, CS_SCOPE_RACK);
    /* The scale-out part of the step a degraded spine layer stretches: the
     * exposed communication less tensor parallelism inside a node (NVLink);
     * when DP communication is exposed its overlap window is full, so all of
     * it (dp_comm_total_s, the hidden part too) stretches into the step; fully
     * hidden DP is assumed to keep its slack. */
    r->net_exposed_s = step->exposed_comm_s;
    if (s->has_workload && s->workload.par.tp <= s->cluster.gpus_per_node)
        r->net_exposed_s -= step->tp_comm_s;
    if (step->dp_comm_s > 0 && step->dp_comm_total_s > step->dp_comm_s)
        r->net_exposed_s += step->dp_comm_total_s - step->dp_comm_s;
    if (!(r->net_exposed_s > 0))
        r->net_exposed_s = 0;
    r->step_time_s = step->time_s;
    r->tokens_per_s = step->tokens_per_s;
    r->target_s = r->duration_mode ? s->run.duration_s : s->workload.tokens / step->tokens_per_s;
    r->mtbi_s = r->failures ? cs_fail_domain_mtbi_s(&s->failures, &r->dom) : INFINITY;
    /* An interruption on average sooner than the job can notice one and
     * restart (detection + restart, the floor of every recovery) means it
     * never makes progress: no checkpoint interval helps, and the replica
     * would only burn its budget. Refused, naming the component with the
     * largest share of the rate. */
    const struct cs_failures_cfg *fc = &s->failures;
    if (r->failures && isfinite(r->mtbi_s) && r->mtbi_s < fc->detection_s + fc->restart_s) {
        int worst = 0;
        double wrate = -1;
        for (int i = 0; i < fc->n_components; i++) {
            const struct cs_fail_component *comp = &fc->components[i];
            double rate = cs_fail_interrupts(comp)
                              ? (double)cs_fail_domain_units(&r->dom, comp->scope) / comp->mtbf_s
                              : 0;
            if (rate > wrate) {
                wrate = rate;
                worst = i;
            }
        }
        cs_diag_error(d, s->file, 0, 0,
                      "failures.components.%d.mtbf: the job's %ld GPUs on %ld nodes would be interrupted "
                      "every %.3g s on average, sooner than detecting and restarting after one takes "
                      "(failures.detection %g s + failures.restart %g s): the run could never make "
                      "progress; \"%s\" (mtbf %g s per unit) has the largest share: expected an MTBF "
                      "that gives the job at least that long between interruptions",
                      worst, (long)r->gpus, (long)r->nodes, r->mtbi_s, fc->detection_s, fc->restart_s,
                      fc->components[worst].name, fc->components[worst].mtbf_s);
        return CS_EINVAL;
    }
    r->n_causes = r->failures ? s->failures.n_components : 0;
    for (int i = 0; i < r->n_causes; i++) {
        memcpy(r->cause_name[i], s->failures.components[i].name, CS_NAME_MAX);
        r->cause_outage[i] = !cs_fail_interrupts(&s->failures.components[i]);
    }
    return cs_ckpt_plan_make(s, step, r->mtbi_s, d, &r->ckpt);
}

/* The workers' count of finished replicas, for o->progress. */
struct mc_count {
    pthread_mutex_t mu;
    int done;
};

struct mc_job {
    const struct cs_scenario *s;
    const struct cs_run_result *r;
    const struct cs_run_options *o;
    struct cs_run_replica *reps;
    int first, stride, n;
    cs_status st;
    struct mc_count *count;
};

/* Replicas first, first + stride, ...: each with its own seed
 * (cs_run_replica_seed) and engine, so the results do not depend on which
 * thread runs which. */
static void *mc_worker(void *arg)
{
    struct mc_job *j = arg;
    j->st = CS_OK;
    for (int i = j->first; i < j->n; i += j->stride) {
        cs_status st = cs_run_replica_simulate(j->s, j->r, j->o,
                                               cs_run_replica_seed(j->s->seed, i), &j->reps[i]);
        if (st != CS_OK)
            j->st = st;
        if (j->o->progress) {
            pthread_mutex_lock(&j->count->mu);
            j->count->done++;
            j->o->progress(j->o->progress_ctx, (uint64_t)j->count->done, (uint64_t)j->n);
            pthread_mutex_unlock(&j->count->mu);
        }
    }
    return NULL;
}

static struct cs_run_dist dist_of(struct cs_stat_sample *x)
{
    struct cs_run_dist dd = {NAN, NAN, NAN};
    if (cs_stat_sample_count(x) == 0)
        return dd;
    dd.mean = cs_stat_sample_mean(x);
    cs_stat_sample_quantile(x, 0.05, &dd.p05);
    cs_stat_sample_quantile(x, 0.95, &dd.p95);
    return dd;
}

/* Distribution of one double field over the replicas. */
static struct cs_run_dist field_dist(const struct cs_run_replica *reps, int n, size_t off,
                                     double scale)
{
    struct cs_stat_sample x;
    cs_stat_sample_init(&x);
    for (int i = 0; i < n; i++) {
        double v;
        memcpy(&v, (const char *)&reps[i] + off, sizeof v);
        cs_stat_sample_add(&x, v * scale);
    }
    struct cs_run_dist dd = dist_of(&x);
    cs_stat_sample_fini(&x);
    return dd;
}

cs_status cs_run_simulate(const struct cs_scenario *s, const struct cs_step_result *step,
                          const struct cs_run_options *o, cs_diags *d, struct cs_run_result *out)
{
    struct cs_run_options def;
    if (!o) {
        cs_run_options_default(&def);
        o = &def;
    }
    struct cs_run_result r;
    cs_status st = cs_run_prepare(s, step, o, d, &r);
    if (st != CS_OK)
        return st;
    if (!r.enabled) {
        *out = r;
        return CS_OK;
    }
    int n = r.replicas;
    struct cs_run_replica *reps = cs_xcalloc((size_t)n, sizeof *reps);
    int threads = o->threads > 1 ? o->threads : 1;
    if (threads > n)
        threads = n;
    struct mc_job jobs[64];
    if (threads > 64)
        threads = 64;
    pthread_t tid[64];
    bool started[64] = {false};
    struct mc_count count = {.done = 0};
    pthread_mutex_init(&count.mu, NULL);
    if (o->progress)
        o->progress(o->progress_ctx, 0, (uint64_t)n);
    for (int t = 0; t < threads; t++) {
        jobs[t] = (struct mc_job){s, &r, o, reps, t, threads, n, CS_OK, &count};
        if (t > 0 && pthread_create(&tid[t], NULL, mc_worker, &jobs[t]) == 0)
            started[t] = true;
    }
    mc_worker(&jobs[0]);
    for (int t = 1; t < threads; t++) {
        if (started[t])
            pthread_join(tid[t], NULL);
        else
            mc_worker(&jobs[t]); /* no thread: run its share here */
    }
    pthread_mutex_destroy(&count.mu);
    for (int t = 0; t < threads; t++)
        if (jobs[t].st != CS_OK)
            st = jobs[t].st;
    if (st == CS_EBUDGET) {
        cs_diag_error(d, s->file, 0, 0,
                      "run: the run-level simulation did not complete: a replica reached its budget "
                      "of %llu events or %.0f s of wall time (interruptions or checkpoints far more "
                      "frequent than a training run can have; check failures.components.*.mtbf and "
                      "checkpoint.interval)",
                      (unsigned long long)(o->max_events ? o->max_events : CS_RUN_MAX_EVENTS),
                      o->max_wall_s > 0 ? o->max_wall_s : CS_SIM_DEFAULT_MAX_WALL_S);
        free(reps);
        return st;
    }
    if (st != CS_OK) {
        cs_diag_error(d, s->file, 0, 0, "run: the run-level simulation failed (%s)",
                      cs_strerror(st));
        free(reps);
        return st;
    }

    struct cs_stat_sample x;
    for (int i = 0; i < n; i++) {
        r.events += reps[i].events;
        if (reps[i].completed)
            r.completed++;
    }
    r.time_to_train_s = r.duration_mode
                            ? (struct cs_run_dist){NAN, NAN, NAN}
                            : field_dist(reps, n, offsetof(struct cs_run_replica, wall_s), 1);
    cs_stat_sample_init(&x);
    for (int i = 0; i < n; i++)
        cs_stat_sample_add(&x, reps[i].wall_s > 0 ? reps[i].work_s / reps[i].wall_s : NAN);
    r.goodput = dist_of(&x);
    cs_stat_sample_fini(&x);
    cs_stat_sample_init(&x);
    for (int i = 0; i < n; i++)
        cs_stat_sample_add(&x, (double)reps[i].interruptions);
    r.interruptions = dist_of(&x);
    cs_stat_sample_fini(&x);
    cs_stat_sample_init(&x);
    for (int i = 0; i < n; i++)
        cs_stat_sample_add(&x, (double)reps[i].preemptions);
    r.preemptions = dist_of(&x);
    cs_stat_sample_fini(&x);
    cs_stat_sample_init(&x);
    for (int i = 0; i < n; i++)
        cs_stat_sample_add(&x, (double)r.gpus * (reps[i].wall_s - reps[i].work_s) / 3600.0);
    r.lost_gpu_hours = dist_of(&x);
    cs_stat_sample_fini(&x);
    r.checkpoint_overhead_s = field_dist(reps, n, offsetof(struct cs_run_replica, ckpt_s), 1);
    r.lost_work_s = field_dist(reps, n, offsetof(struct cs_run_replica, lost_s), 1);
    r.downtime_s = field_dist(reps, n, offsetof(struct cs_run_replica, down_s), 1);
    r.tokens = field_dist(reps, n, offsetof(struct cs_run_replica, tokens), 1);
    r.maintenances = field_dist(reps, n, offsetof(struct cs_run_replica, maintenances), 1);
    r.maintenance_s = field_dist(reps, n, offsetof(struct cs_run_replica, maintenance_s), 1);
    r.straggler_removals = field_dist(reps, n, offsetof(struct cs_run_replica, straggler_removals), 1);
    r.straggler_s = field_dist(reps, n, offsetof(struct cs_run_replica, straggler_s), 1);
    for (int k = 0; k < CS_FAIL_N_SCOPES; k++)
        r.by_scope[k] = field_dist(reps, n, offsetof(struct cs_run_replica, by_scope) + (size_t)k * sizeof(double), 1);
    for (int k = 0; k < CS_RUN_N_LOST; k++)
        r.lost_by_scope_s[k] =
            field_dist(reps, n, offsetof(struct cs_run_replica, lost_by_scope_s) + (size_t)k * sizeof(double), 1);
    r.storage_outages = field_dist(reps, n, offsetof(struct cs_run_replica, storage_outages), 1);
    r.storage_stall_s = field_dist(reps, n, offsetof(struct cs_run_replica, storage_stall_s), 1);
    r.checkpoints_skipped = field_dist(reps, n, offsetof(struct cs_run_replica, checkpoints_skipped), 1);
    r.spine_degraded_s = field_dist(reps, n, offsetof(struct cs_run_replica, spine_degraded_s), 1);
    r.spares_lost = field_dist(reps, n, offsetof(struct cs_run_replica, spares_lost), 1);
    for (int k = 0; k < r.n_causes; k++) {
        cs_stat_sample_init(&x);
        for (int i = 0; i < n; i++)
            cs_stat_sample_add(&x, (double)reps[i].by_cause[k]);
        r.cause[k] = dist_of(&x);
        cs_stat_sample_fini(&x);
    }
    free(reps);
    *out = r;
    return CS_OK;
}
