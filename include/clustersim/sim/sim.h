/* sim.h: the discrete-event engine (sim/ layer): an integer clock, a queue of
 * pending events, a table of named handlers, and per-purpose RNG streams.
 * It knows nothing about GPUs; models register handlers and schedule events.
 *
 * Semantics every model may rely on:
 * - Time is cs_time, a signed 64-bit count of NANOSECONDS since the start of
 *   the simulation. int64 ns covers +-292 years with no floating-point drift,
 *   so a 54-day run ends at exactly the same tick on every machine.
 * - Ordering is total: events fire in increasing (time, seq) order, where seq
 *   is a per-engine counter incremented by every successful schedule call.
 *   Events with equal times therefore fire in the order they were scheduled
 *   (FIFO), and the same seed + the same inputs give the same event order.
 * - The clock never goes back: scheduling before cs_sim_now() is refused with
 *   CS_EINVAL (checked in release builds too).
 * - Payloads are copied INTO the engine at schedule time (at most
 *   CS_SIM_PAYLOAD_MAX bytes); the caller's buffer may be reused immediately.
 *   A handler receives a const pointer to a copy of its event that is valid
 *   only for the duration of the call.
 * - No globals: every function takes the engine, so independent engines may
 *   run on different threads. One engine is not thread-safe.
 */
#ifndef CLUSTERSIM_SIM_H
#define CLUSTERSIM_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clustersim/base/status.h"

/* ---- time ---------------------------------------------------------------- */

/* Simulated time in nanoseconds. */
typedef int64_t cs_time;

#define CS_NS ((cs_time)1)
#define CS_US ((cs_time)1000)
#define CS_MS ((cs_time)1000000)
#define CS_S ((cs_time)1000000000)
#define CS_MIN ((cs_time)60 * CS_S)
#define CS_HOUR ((cs_time)60 * CS_MIN)
#define CS_DAY ((cs_time)24 * CS_HOUR)

#define CS_TIME_MAX INT64_MAX
#define CS_TIME_MIN INT64_MIN

/* The `until` argument of cs_sim_run that means "no limit". */
#define CS_SIM_FOREVER CS_TIME_MAX

/* Converts seconds to cs_time, rounding to the nearest nanosecond (halves
 * away from zero). Values beyond the representable range saturate to
 * CS_TIME_MAX / CS_TIME_MIN (so do +-infinity); NaN gives 0. Only for values
 * known to be finite (constants, validated input): a duration a model
 * computed goes through cs_time_from_s_checked or cs_sim_schedule_in_s, so
 * that a NaN is an error and never a free transfer. */
cs_time cs_time_from_s(double s);

/* As cs_time_from_s for a computed value, refusing what cs_time_from_s
 * would hide: CS_EINVAL for NaN, CS_ERANGE for +-infinity or a value beyond
 * the range of cs_time. Negative finite values convert (a time, not a
 * delay). *out untouched on failure. */
cs_status cs_time_from_s_checked(double s, cs_time *out);

/* Converts cs_time to seconds: the double nearest to t / 1e9 whenever |t| <
 * 2^53 ns (about 104 days); beyond that t itself is first rounded to 53 bits. */
double cs_time_to_s(cs_time t);

/* ---- events and handlers ------------------------------------------------- */

/* Largest inline payload an event carries, in bytes. */
#define CS_SIM_PAYLOAD_MAX 48

/* Most handlers one engine can register. */
#define CS_SIM_MAX_HANDLERS 256

/* Most events that may be pending at once in one engine. */
#define CS_SIM_MAX_PENDING ((size_t)1 << 30)

/* Identifies one scheduled event: a slot index tagged with a generation, so
 * an id whose event already fired or was cancelled is recognized as stale.
 * Never 0: CS_EVENT_NONE is a safe "no event" value to cancel. */
typedef uint64_t cs_event_id;
#define CS_EVENT_NONE ((cs_event_id)0)

typedef struct cs_engine cs_engine;

/* What a handler sees. `payload` holds `len` bytes copied at schedule time;
 * bytes past `len` are zero. The array is 16-byte aligned; handlers memcpy it
 * into their own payload struct. */
struct cs_event {
    cs_time time;      /* when it fires; equals cs_sim_now() in the handler */
    uint64_t seq;      /* per-engine schedule counter: the FIFO tie-break */
    cs_event_id id;    /* the id returned at schedule time (now stale) */
    int32_t handler;   /* id returned by cs_sim_register */
    uint32_t len;      /* payload bytes in use */
    _Alignas(16) unsigned char payload[CS_SIM_PAYLOAD_MAX];
};

/* A handler. `ev` is borrowed and valid only during the call; `ctx` is the
 * pointer given to cs_sim_register. A handler may schedule, cancel, stop and
 * query the engine, but must not call cs_sim_step, cs_sim_run or
 * cs_sim_destroy on it. */
typedef void (*cs_sim_handler)(cs_engine *e, const struct cs_event *ev,
                               void *ctx);

/* ---- engine lifetime ----------------------------------------------------- */

/* Creates an engine at time 0 with no events. `seed` is the scenario seed
 * from which every RNG stream of cs_sim_rng is derived. Also turns GSL's
 * abort-on-error handler off for the process (see cs_rng_gsl_errors_off in
 * rng.h). Caller frees with cs_sim_destroy. Never NULL (aborts on OOM). */
cs_engine *cs_sim_create(uint64_t seed);

/* Frees the engine, its pending events (their payloads are dropped; the
 * engine never owns what a payload points to) and its RNG streams.
 * Accepts NULL. */
void cs_sim_destroy(cs_engine *e);

/* Returns the engine to the state cs_sim_create(seed) gives (time 0, no
 * events, no handlers, no RNG streams) but keeps its allocated memory, so
 * that many short simulations on one thread do not pay for allocation.
 * Every id and handler id from before the reset is invalid afterwards (an
 * old id may name a new event). Not callable from a handler. */
void cs_sim_reset(cs_engine *e, uint64_t seed);

/* The seed the engine was created with. */
uint64_t cs_sim_seed(const cs_engine *e);

/* ---- handlers ------------------------------------------------------------ */

/* Registers handler `fn` under `name` (copied; 1..63 characters, unique in
 * this engine) with context `ctx` (borrowed; must outlive the engine or the
 * last event for this handler). Returns the handler id (0, 1, 2, ... in
 * registration order) or a negative status: -CS_EINVAL for a NULL fn, a
 * bad or duplicate name, -CS_EFULL past CS_SIM_MAX_HANDLERS. */
int cs_sim_register(cs_engine *e, const char *name, cs_sim_handler fn,
                    void *ctx);

/* Id of the handler registered as `name`, or -CS_ENOTFOUND. O(handlers). */
int cs_sim_handler_find(const cs_engine *e, const char *name);

/* Name of handler `id` (borrowed from the engine), or NULL if no such id. */
const char *cs_sim_handler_name(const cs_engine *e, int id);

/* ---- scheduling ---------------------------------------------------------- */

/* Schedules handler `handler` at absolute time `t` with `len` bytes of
 * `payload` (copied now; may be NULL when len is 0). On success stores the
 * new event's id in *id_out when id_out is non-NULL. O(log n), amortized:
 * no allocation unless the event pool has to grow (it doubles).
 * Errors (nothing scheduled, *id_out untouched): CS_EINVAL when t is before
 * cs_sim_now(), the handler id is unknown, len > CS_SIM_PAYLOAD_MAX or
 * payload is NULL with len > 0; CS_EFULL past CS_SIM_MAX_PENDING. */
cs_status cs_sim_schedule_at(cs_engine *e, cs_time t, int handler,
                             const void *payload, size_t len,
                             cs_event_id *id_out);

/* Same, at cs_sim_now() + delay. CS_EINVAL when delay < 0; CS_ERANGE when
 * now + delay overflows cs_time. */
cs_status cs_sim_schedule_in(cs_engine *e, cs_time delay, int handler,
                             const void *payload, size_t len,
                             cs_event_id *id_out);

/* cs_sim_schedule_in with the delay in seconds, as models compute it.
 * CS_EINVAL when delay_s is NaN or negative, CS_ERANGE when it is infinite
 * or now + delay overflows cs_time; nothing is scheduled then. */
cs_status cs_sim_schedule_in_s(cs_engine *e, double delay_s, int handler,
                               const void *payload, size_t len,
                               cs_event_id *id_out);

/* Cancels a pending event. Returns true if it was pending (it will not fire),
 * false for CS_EVENT_NONE, a stale id (already fired or cancelled) or an id
 * of another engine that happens not to be live here. O(log n). */
bool cs_sim_cancel(cs_engine *e, cs_event_id id);

/* ---- running ------------------------------------------------------------- */

/* Current simulated time: the time of the event being (or last) handled. */
cs_time cs_sim_now(const cs_engine *e);

/* Number of events scheduled and not yet fired or cancelled. */
size_t cs_sim_pending(const cs_engine *e);

/* Number of events fired so far. */
uint64_t cs_sim_events_processed(const cs_engine *e);

/* Time of the earliest pending event, or CS_TIME_MAX when none; does not
 * advance the clock. Use cs_sim_pending to tell "none" from an event at
 * CS_TIME_MAX. */
cs_time cs_sim_next_time(const cs_engine *e);

/* Fires the earliest pending event: advances the clock to its time and calls
 * its handler. Returns false (doing nothing) when no event is pending or when
 * called from inside a handler. */
bool cs_sim_step(cs_engine *e);

/* Fires events in order while the earliest has time <= until and no stop
 * was requested. When it returns because no event <= until is left, the
 * clock advances to `until` (unless until is CS_SIM_FOREVER), so that later
 * cs_sim_schedule_in calls count from there; when it returns because of
 * cs_sim_stop, the clock stays at the last event fired. Returns CS_OK,
 * CS_EBUDGET when a budget (below) stopped it, or CS_EINVAL (nothing fired)
 * when until < cs_sim_now() or when called from a handler. */
cs_status cs_sim_run(cs_engine *e, cs_time until);

/* ---- budgets ---------------------------------------------------------------
 * Every simulation is bounded: by the events it may fire (since create or
 * reset) and by the wall-clock time it may spend inside cs_sim_run (summed
 * over calls; checked every 4096 events on CLOCK_MONOTONIC). A cs_sim_run
 * that reaches either stops before firing another event and returns
 * CS_EBUDGET ("did not complete"); the simulation's result is then not a
 * result, and callers report it as such, never as figures. The wall bound
 * makes a run that hits it non-reproducible by nature; the event budget is
 * exact. Defaults (cs_sim_create, cs_sim_reset): CS_SIM_DEFAULT_MAX_EVENTS
 * events and CS_SIM_DEFAULT_MAX_WALL_S seconds: far above any simulation
 * the bundled scenarios and traces need (the 10,000,000-job replay of
 * bench_replay fires 36 million events), low enough that a hostile input
 * ends in minutes, not never. Models set tighter budgets of their own. */
#define CS_SIM_DEFAULT_MAX_EVENTS ((uint64_t)4000000000)
#define CS_SIM_DEFAULT_MAX_WALL_S 3600.0

/* Sets e's budgets; 0 for either means the default. */
void cs_sim_set_limits(cs_engine *e, uint64_t max_events, double max_wall_s);

/* True when the last cs_sim_run returned because a budget was reached. */
bool cs_sim_over_budget(const cs_engine *e);

/* Asks cs_sim_run to return. From a handler: after the current event. Outside
 * a handler: the next cs_sim_run returns before firing anything. Either way
 * the request is consumed by the cs_sim_run that honours it. */
void cs_sim_stop(cs_engine *e);

#endif
