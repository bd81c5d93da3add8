/* engine.c: the discrete-event engine (sim/ layer): clock, handler table,
 * scheduling and the run loop over the queue of sim/queue.h, plus the
 * engine-owned RNG streams of rng.h. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "clustersim/sim/sim.h"
#include <time.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clustersim/sim/rng.h"
#include "clustersim/base/xmalloc.h"
#include "queue.h"

/* Handler names are short identifiers ("fail.gpu", "ckpt.done"). */
#define CS_SIM__NAME_MAX 63
/* Streams below this id sit in a direct table; the rest in a small list. */
#define CS_SIM__RNG_DIRECT 128

struct cs_sim__handler_entry {
    char *name; /* owned */
    cs_sim_handler fn;
    void *ctx; /* borrowed */
};

struct cs_sim__rng_entry {
    uint32_t stream;
    gsl_rng *r; /* owned */
};

struct cs_engine {
    struct cs_sim__queue q;
    cs_time now;
    uint64_t processed;
    uint64_t seed;
    bool stop_requested;
    bool in_handler;
    uint64_t max_events;   /* budgets (sim.h) */
    double max_wall_s;
    double wall_used_s;    /* inside cs_sim_run so far */
    bool over_budget;
    int n_handlers;
    struct cs_sim__handler_entry handlers[CS_SIM_MAX_HANDLERS];
    gsl_rng *rng_direct[CS_SIM__RNG_DIRECT];
    struct cs_sim__rng_entry *rng_more; /* owned, n_rng_more entries */
    size_t n_rng_more;
};

/* ---- time ---------------------------------------------------------------- */

cs_time cs_time_from_s(double s)
{
    if (isnan(s))
        return 0;
    double ns = s * 1e9;
    /* 2^63 is exactly representable; every double below it converts. */
    if (ns >= 9223372036854775808.0)
        return CS_TIME_MAX;
    if (ns <= -9223372036854775808.0)
        return CS_TIME_MIN;
    return (cs_time)llround(ns);
}

cs_status cs_time_from_s_checked(double s, cs_time *out)
{
    /* A NaN or infinite duration is a model's failure to compute one (a
     * division by a zero bandwidth, say); converting it to 0 or to the end of
     * time would hide that, so it is refused here. */
    if (isnan(s))
        return CS_EINVAL;
    double ns = s * 1e9;
    if (!isfinite(s) || ns >= 9223372036854775808.0 || ns <= -9223372036854775808.0)
        return CS_ERANGE;
    *out = (cs_time)llround(ns);
    return CS_OK;
}

double cs_time_to_s(cs_time t) { return (double)t / 1e9; }

/* ---- lifetime ------------------------------------------------------------ */

cs_engine *cs_sim_create(uint64_t seed)
{
    cs_rng_gsl_errors_off();
    cs_engine *e = cs_xcalloc(1, sizeof *e);
    cs_sim__queue_init(&e->q);
    e->seed = seed;
    cs_sim_set_limits(e, 0, 0);
    return e;
}

void cs_sim_destroy(cs_engine *e)
{
    if (!e)
        return;
    cs_sim__queue_fini(&e->q);
    for (int i = 0; i < e->n_handlers; i++)
        free(e->handlers[i].name);
    for (size_t i = 0; i < CS_SIM__RNG_DIRECT; i++)
        if (e->rng_direct[i])
            gsl_rng_free(e->rng_direct[i]);
    for (size_t i = 0; i < e->n_rng_more; i++)
        gsl_rng_free(e->rng_more[i].r);
    free(e->rng_more);
    free(e);
}

void cs_sim_reset(cs_engine *e, uint64_t seed)
{
    cs_sim__queue_clear(&e->q);
    for (int i = 0; i < e->n_handlers; i++) {
        free(e->handlers[i].name);
        e->handlers[i].name = NULL;
    }
    e->n_handlers = 0;
    for (size_t i = 0; i < CS_SIM__RNG_DIRECT; i++)
        if (e->rng_direct[i]) {
            gsl_rng_free(e->rng_direct[i]);
            e->rng_direct[i] = NULL;
        }
    for (size_t i = 0; i < e->n_rng_more; i++)
        gsl_rng_free(e->rng_more[i].r);
    free(e->rng_more);
    e->rng_more = NULL;
    e->n_rng_more = 0;
    e->now = 0;
    e->processed = 0;
    e->stop_requested = false;
    e->in_handler = false;
    e->seed = seed;
    cs_sim_set_limits(e, 0, 0);
}

void cs_sim_set_limits(cs_engine *e, uint64_t max_events, double max_wall_s)
{
    e->max_events = max_events ? max_events : CS_SIM_DEFAULT_MAX_EVENTS;
    e->max_wall_s = max_wall_s > 0 ? max_wall_s : CS_SIM_DEFAULT_MAX_WALL_S;
    e->wall_used_s = 0;
    e->over_budget = false;
}

bool cs_sim_over_budget(const cs_engine *e) { return e->over_budget; }

static double cs_sim__mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

uint64_t cs_sim_seed(const cs_engine *e) { return e->seed; }

/* ---- handlers ------------------------------------------------------------ */

int cs_sim_register(cs_engine *e, const char *name, cs_sim_handler fn,
                    void *ctx)
{
    if (!fn || !name)
        return -CS_EINVAL;
    size_t len = 0; /* strnlen is POSIX, not C11 */
    while (len <= CS_SIM__NAME_MAX && name[len])
        len++;
    if (len == 0 || len > CS_SIM__NAME_MAX)
        return -CS_EINVAL;
    if (cs_sim_handler_find(e, name) >= 0)
        return -CS_EINVAL;
    if (e->n_handlers >= CS_SIM_MAX_HANDLERS)
        return -CS_EFULL;
    struct cs_sim__handler_entry *h = &e->handlers[e->n_handlers];
    h->name = cs_xstrdup(name);
    h->fn = fn;
    h->ctx = ctx;
    return e->n_handlers++;
}

int cs_sim_handler_find(const cs_engine *e, const char *name)
{
    if (!name)
        return -CS_ENOTFOUND;
    for (int i = 0; i < e->n_handlers; i++)
        if (strcmp(e->handlers[i].name, name) == 0)
            return i;
    return -CS_ENOTFOUND;
}

const char *cs_sim_handler_name(const cs_engine *e, int id)
{
    if (id < 0 || id >= e->n_handlers)
        return NULL;
    return e->handlers[id].name;
}

/* ---- scheduling ---------------------------------------------------------- */

cs_status cs_sim_schedule_at(cs_engine *e, cs_time t, int handler,
                             const void *payload, size_t len,
                             cs_event_id *id_out)
{
    /* The clock never goes back: this check is the invariant that makes the
     * pop order nondecreasing in time, so it stays in release builds. */
    if (t < e->now)
        return CS_EINVAL;
    if (handler < 0 || handler >= e->n_handlers)
        return CS_EINVAL;
    if (len > CS_SIM_PAYLOAD_MAX || (len > 0 && !payload))
        return CS_EINVAL;
    cs_event_id id = cs_sim__queue_push(&e->q, e->now, t, handler, payload, len);
    if (id == CS_EVENT_NONE)
        return CS_EFULL;
    if (id_out)
        *id_out = id;
    return CS_OK;
}

cs_status cs_sim_schedule_in(cs_engine *e, cs_time delay, int handler,
                             const void *payload, size_t len,
                             cs_event_id *id_out)
{
    if (delay < 0)
        return CS_EINVAL;
    if (e->now > CS_TIME_MAX - delay)
        return CS_ERANGE;
    return cs_sim_schedule_at(e, e->now + delay, handler, payload, len,
                              id_out);
}

cs_status cs_sim_schedule_in_s(cs_engine *e, double delay_s, int handler,
                               const void *payload, size_t len,
                               cs_event_id *id_out)
{
    if (isnan(delay_s) || delay_s < 0)
        return CS_EINVAL;
    cs_time d;
    cs_status st = cs_time_from_s_checked(delay_s, &d);
    if (st != CS_OK)
        return st;
    return cs_sim_schedule_in(e, d, handler, payload, len, id_out);
}

bool cs_sim_cancel(cs_engine *e, cs_event_id id)
{
    return cs_sim__queue_cancel(&e->q, id);
}

/* ---- running ------------------------------------------------------------- */

cs_time cs_sim_now(const cs_engine *e) { return e->now; }

size_t cs_sim_pending(const cs_engine *e) { return cs_sim__queue_size(&e->q); }

uint64_t cs_sim_events_processed(const cs_engine *e) { return e->processed; }

cs_time cs_sim_next_time(const cs_engine *e)
{
    return cs_sim__queue_size(&e->q) ? cs_sim__queue_min_time(&e->q)
                                      : CS_TIME_MAX;
}

/* Fires the minimum; the queue must not be empty. */
static inline void cs_sim__fire(cs_engine *e)
{
    struct cs_event ev;
    cs_sim__queue_pop(&e->q, &ev);
    /* Cannot happen while schedule_at refuses the past; if the heap were
     * ever corrupted, stopping beats silently running time backwards. */
    if (ev.time < e->now)
        abort();
    e->now = ev.time;
    e->processed++;
    const struct cs_sim__handler_entry *h = &e->handlers[ev.handler];
    e->in_handler = true;
    h->fn(e, &ev, h->ctx);
    e->in_handler = false;
}

bool cs_sim_step(cs_engine *e)
{
    if (e->in_handler || cs_sim__queue_size(&e->q) == 0)
        return false;
    cs_sim__fire(e);
    return true;
}

cs_status cs_sim_run(cs_engine *e, cs_time until)
{
    if (e->in_handler || until < e->now)
        return CS_EINVAL;
    e->over_budget = false;
    double t0 = cs_sim__mono_s();
    while (!e->stop_requested && cs_sim__queue_size(&e->q) > 0 &&
           cs_sim__queue_peek_time(&e->q) <= until) {
        if (e->processed >= e->max_events ||
            ((e->processed & 4095) == 0 && e->wall_used_s + cs_sim__mono_s() - t0 > e->max_wall_s)) {
            e->over_budget = true;
            break;
        }
        cs_sim__fire(e);
    }
    e->wall_used_s += cs_sim__mono_s() - t0;
    if (e->over_budget) {
        e->stop_requested = false;
        return CS_EBUDGET;
    }
    if (e->stop_requested) {
        e->stop_requested = false;
        return CS_OK;
    }
    if (until != CS_SIM_FOREVER)
        e->now = until;
    return CS_OK;
}

void cs_sim_stop(cs_engine *e) { e->stop_requested = true; }

/* ---- engine-owned RNG streams (declared in rng.h) ------------------------ */

gsl_rng *cs_sim_rng(cs_engine *e, uint32_t stream)
{
    if (stream < CS_SIM__RNG_DIRECT) {
        if (!e->rng_direct[stream])
            e->rng_direct[stream] = cs_rng_create(e->seed, stream);
        return e->rng_direct[stream];
    }
    for (size_t i = 0; i < e->n_rng_more; i++)
        if (e->rng_more[i].stream == stream)
            return e->rng_more[i].r;
    e->rng_more = cs_xrealloc(e->rng_more, e->n_rng_more + 1,
                              sizeof *e->rng_more);
    struct cs_sim__rng_entry *r = &e->rng_more[e->n_rng_more++];
    r->stream = stream;
    r->r = cs_rng_create(e->seed, stream);
    return r->r;
}
