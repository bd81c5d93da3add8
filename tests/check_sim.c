/* check_sim.c: tests of the sim/ layer: the engine (ordering, clock, payload,
 * cancel, run/stop), its queue, RNG streams and statistics collectors.
 * Engine tests drive a toy model whose handler logs what fired. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clustersim/sim/rng.h"
#include "clustersim/sim/sim.h"
#include "clustersim/sim/stats.h"
#include "test_util.h"

#include "../sim/queue.h"

/* ---- toy model ------------------------------------------------------------ */

struct toy_fired {
    cs_time time;
    uint32_t tag;
};

struct toy_log {
    struct toy_fired *items;
    size_t n, cap;
    /* Optional behaviours driven by the test. */
    uint32_t stop_at_tag;     /* call cs_sim_stop when this tag fires */
    int stop_enabled;
    cs_time last_time;        /* for the nondecreasing check */
    int went_back;            /* set if a handler ever saw time decrease */
    int bad_event;            /* set if an event had a wrong len or time */
    cs_status past_status;    /* what scheduling in the past returned */
    int step_in_handler;      /* cs_sim_step result inside a handler */
    cs_status run_in_handler; /* cs_sim_run result inside a handler */
    int probe_reentrancy;
};

struct toy_payload {
    uint32_t tag;
    uint32_t pad;
    uint64_t filler[2];
};

static void toy_log_push(struct toy_log *log, cs_time t, uint32_t tag)
{
    if (log->n == log->cap) {
        log->cap = log->cap ? log->cap * 2 : 256;
        log->items = realloc(log->items, log->cap * sizeof *log->items);
        ck_assert_ptr_nonnull(log->items);
    }
    log->items[log->n].time = t;
    log->items[log->n].tag = tag;
    log->n++;
}

static void toy_handler(cs_engine *e, const struct cs_event *ev, void *ctx)
{
    struct toy_log *log = ctx;
    struct toy_payload p;
    /* Plain checks in the per-event path: a Check assertion costs a syscall
     * (mark point), which would dominate the 100k-event tests. */
    if (ev->len != sizeof p || ev->time != cs_sim_now(e))
        log->bad_event = 1;
    memcpy(&p, ev->payload, sizeof p);
    if (ev->time < log->last_time)
        log->went_back = 1;
    log->last_time = ev->time;
    toy_log_push(log, ev->time, p.tag);
    if (log->stop_enabled && p.tag == log->stop_at_tag)
        cs_sim_stop(e);
    if (log->probe_reentrancy) {
        log->past_status = cs_sim_schedule_at(e, ev->time - 1, ev->handler,
                                              &p, sizeof p, NULL);
        log->step_in_handler = cs_sim_step(e);
        log->run_in_handler = cs_sim_run(e, CS_SIM_FOREVER);
    }
}

static cs_status toy_schedule(cs_engine *e, int h, cs_time t, uint32_t tag,
                              cs_event_id *id)
{
    struct toy_payload p = {tag, 0, {0xdeadbeefu, tag * 3u}};
    return cs_sim_schedule_at(e, t, h, &p, sizeof p, id);
}

/* xorshift64*: a tiny deterministic generator for test inputs, independent
 * of the code under test (Vigna 2016, "An experimental exploration of
 * Marsaglia's xorshift generators, scrambled"). */
static uint64_t test_rand(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * UINT64_C(2685821657736338717);
}

/* ---- time ----------------------------------------------------------------- */

static void count_fired(cs_engine *e, const struct cs_event *ev, void *ctx)
{
    (void)e;
    (void)ev;
    (*(int *)ctx)++;
}

/* A delay a model computed as NaN (0/0 bandwidth) or negative is an error,
 * never a free (0 s) event: nothing is scheduled and the status says why. */
START_TEST(test_sim_schedule_refuses_nan_and_negative_delays)
{
    cs_time t = 7;
    ck_assert_int_eq(cs_time_from_s_checked(NAN, &t), CS_EINVAL);
    ck_assert_int_eq(cs_time_from_s_checked(INFINITY, &t), CS_ERANGE);
    ck_assert_int_eq(cs_time_from_s_checked(-INFINITY, &t), CS_ERANGE);
    ck_assert_int_eq(cs_time_from_s_checked(1e10, &t), CS_ERANGE); /* 1e19 ns > 2^63 */
    ck_assert_int_eq(t, 7);                                          /* untouched */
    ck_assert_int_eq(cs_time_from_s_checked(-1.6e-9, &t), CS_OK);
    ck_assert_int_eq(t, -2);
    ck_assert_int_eq(cs_time_from_s_checked(2.5, &t), CS_OK);
    ck_assert_int_eq(t, INT64_C(2500000000));

    cs_engine *e = cs_sim_create(1);
    int fired = 0;
    int h = cs_sim_register(e, "count", count_fired, &fired);
    ck_assert_int_ge(h, 0);
    cs_event_id id = 99;
    ck_assert_int_eq(cs_sim_schedule_in_s(e, NAN, h, NULL, 0, &id), CS_EINVAL);
    ck_assert_int_eq(cs_sim_schedule_in_s(e, -1.0, h, NULL, 0, &id), CS_EINVAL);
    ck_assert_int_eq(cs_sim_schedule_in_s(e, -1e-12, h, NULL, 0, &id), CS_EINVAL);
    ck_assert_int_eq(cs_sim_schedule_in_s(e, -INFINITY, h, NULL, 0, &id), CS_EINVAL);
    ck_assert_int_eq(cs_sim_schedule_in_s(e, INFINITY, h, NULL, 0, &id), CS_ERANGE);
    ck_assert_int_eq(cs_sim_schedule_in(e, -1, h, NULL, 0, &id), CS_EINVAL);
    ck_assert_uint_eq(id, 99);
    ck_assert_uint_eq(cs_sim_pending(e), 0);
    /* A good delay still works and fires at now + 1.5 s. */
    ck_assert_int_eq(cs_sim_schedule_in_s(e, 1.5, h, NULL, 0, &id), CS_OK);
    ck_assert_int_eq(cs_sim_run(e, CS_SIM_FOREVER), CS_OK);
    ck_assert_int_eq(fired, 1);
    ck_assert_int_eq(cs_sim_now(e), INT64_C(1500000000));
    /* Near the end of time: a finite delay that overflows now + delay. */
    ck_assert_int_eq(cs_sim_schedule_in_s(e, 9.223372036e9, h, NULL, 0, NULL), CS_ERANGE);
    ck_assert_uint_eq(cs_sim_pending(e), 0);
    cs_sim_destroy(e);
}
END_TEST

START_TEST(test_sim_time_units_and_conversion)
{
    ck_assert_int_eq(CS_US, 1000);
    ck_assert_int_eq(CS_MS, 1000000);
    ck_assert_int_eq(CS_S, 1000000000);
    ck_assert_int_eq(CS_MIN, INT64_C(60000000000));
    ck_assert_int_eq(CS_HOUR, INT64_C(3600000000000));
    ck_assert_int_eq(CS_DAY, INT64_C(86400000000000));

    ck_assert_int_eq(cs_time_from_s(1.5), INT64_C(1500000000));
    ck_assert_int_eq(cs_time_from_s(0.1), INT64_C(100000000));
    /* Rounds to nearest: 1.4 ns -> 1, 1.6 ns -> 2, -1.6 ns -> -2. */
    ck_assert_int_eq(cs_time_from_s(1.4e-9), 1);
    ck_assert_int_eq(cs_time_from_s(1.6e-9), 2);
    ck_assert_int_eq(cs_time_from_s(-1.6e-9), -2);
    /* 54 days is exact. */
    ck_assert_int_eq(cs_time_from_s(54.0 * 86400.0), 54 * CS_DAY);
    /* Saturation and NaN. */
    ck_assert_int_eq(cs_time_from_s(1e10), CS_TIME_MAX);
    ck_assert_int_eq(cs_time_from_s(INFINITY), CS_TIME_MAX);
    ck_assert_int_eq(cs_time_from_s(-1e10), CS_TIME_MIN);
    ck_assert_int_eq(cs_time_from_s(-INFINITY), CS_TIME_MIN);
    ck_assert_int_eq(cs_time_from_s(NAN), 0);

    ck_assert_double_eq_tol(cs_time_to_s(1500 * CS_MS), 1.5, 1e-15);
    ck_assert_double_eq_tol(cs_time_to_s(54 * CS_DAY), 54.0 * 86400.0, 1e-6);
    ck_assert_int_eq(cs_time_from_s(cs_time_to_s(123456789012345)),
                     123456789012345);
}
END_TEST

/* ---- randomized schedule/cancel against a sorted reference ----------------- */

struct ref_ev {
    cs_time time;
    uint64_t seq;
    uint32_t tag;
};

/* Sorted descending by (time, seq) so the minimum is the last element. */
static int ref_before(const struct ref_ev *a, const struct ref_ev *b)
{
    return a->time > b->time || (a->time == b->time && a->seq > b->seq);
}

START_TEST(test_sim_random_schedule_cancel_matches_reference)
{
    enum { OPS = 100000, TARGET = 2000 };
    uint64_t rs = 0x1234567887654321u;
    struct toy_log log = {0};
    cs_engine *e = cs_sim_create(7);
    int h = cs_sim_register(e, "toy", toy_handler, &log);
    ck_assert_int_eq(h, 0);

    struct ref_ev *ref = malloc(sizeof *ref * (OPS + 1));
    cs_event_id *ids = malloc(sizeof *ids * (OPS + 1));
    unsigned char *alive = calloc(OPS + 1, 1);
    ck_assert(ref && ids && alive);
    size_t nref = 0;
    uint32_t ntags = 0;
    uint64_t seq = 0;
    size_t n_cancel_true = 0, n_cancel_false = 0, n_fired = 0;
    /* First failing op, or -1: checked once after the loop, because a Check
     * assertion per op would cost a syscall each. */
    int bad_op = -1;
#define REQUIRE(cond)                                                         \
    do {                                                                      \
        if (!(cond) && bad_op < 0)                                            \
            bad_op = op;                                                      \
    } while (0)

    for (int op = 0; op < OPS; op++) {
        uint64_t r = test_rand(&rs) % 100;
        uint64_t p_sched = nref < TARGET ? 55 : 35;
        if (r < p_sched) {
            /* Small delays give many equal times, exercising FIFO ties. */
            cs_time t = cs_sim_now(e) + (cs_time)(test_rand(&rs) % 64);
            uint32_t tag = ntags++;
            REQUIRE(toy_schedule(e, h, t, tag, &ids[tag]) == CS_OK);
            REQUIRE(ids[tag] != CS_EVENT_NONE);
            alive[tag] = 1;
            struct ref_ev x = {t, seq++, tag};
            size_t lo = 0, hi = nref; /* first position not before x */
            while (lo < hi) {
                size_t mid = (lo + hi) / 2;
                if (ref_before(&ref[mid], &x))
                    lo = mid + 1;
                else
                    hi = mid;
            }
            memmove(&ref[lo + 1], &ref[lo], (nref - lo) * sizeof *ref);
            ref[lo] = x;
            nref++;
        } else if (r < p_sched + 20) {
            if (ntags == 0)
                continue;
            uint32_t tag = (uint32_t)(test_rand(&rs) % ntags);
            bool expect = alive[tag] != 0;
            REQUIRE(cs_sim_cancel(e, ids[tag]) == expect);
            if (expect) {
                n_cancel_true++;
                alive[tag] = 0;
                size_t k = 0;
                while (ref[k].tag != tag)
                    k++;
                memmove(&ref[k], &ref[k + 1], (nref - k - 1) * sizeof *ref);
                nref--;
            } else {
                n_cancel_false++;
            }
        } else {
            bool fired = cs_sim_step(e);
            REQUIRE(fired == (nref > 0));
            if (!fired || nref == 0)
                continue;
            struct ref_ev want = ref[--nref];
            alive[want.tag] = 0;
            REQUIRE(log.n == ++n_fired);
            REQUIRE(log.items[log.n - 1].tag == want.tag);
            REQUIRE(log.items[log.n - 1].time == want.time);
            REQUIRE(cs_sim_now(e) == want.time);
        }
        REQUIRE(cs_sim_pending(e) == nref);
        /* Right after a step the front is not settled: the const lookahead
         * must find the minimum anyway. */
        REQUIRE(cs_sim_next_time(e) ==
                (nref ? ref[nref - 1].time : CS_TIME_MAX));
        if (bad_op >= 0)
            break;
    }
#undef REQUIRE
    ck_assert_msg(bad_op < 0, "engine and reference diverged at op %d", bad_op);
    /* Drain: the rest fires in reference order. */
    ck_assert_int_eq(cs_sim_run(e, CS_SIM_FOREVER), CS_OK);
    ck_assert_uint_eq(log.n, n_fired + nref);
    size_t drain_bad = 0;
    while (nref > 0) {
        struct ref_ev want = ref[--nref];
        n_fired++;
        drain_bad += log.items[n_fired - 1].tag != want.tag ||
                     log.items[n_fired - 1].time != want.time;
    }
    ck_assert_uint_eq(drain_bad, 0);
    ck_assert_uint_eq(log.n, n_fired);
    ck_assert_int_eq(log.bad_event, 0);
    ck_assert_uint_eq(cs_sim_events_processed(e), n_fired);
    ck_assert_uint_eq(cs_sim_pending(e), 0);
    ck_assert_int_eq(log.went_back, 0);
    /* The mix really exercised every path. */
    ck_assert_uint_gt(n_cancel_true, 1000);
    ck_assert_uint_gt(n_cancel_false, 1000);
    ck_assert_uint_gt(n_fired, 10000);

    cs_sim_destroy(e);
    free(ref);
    free(ids);
    free(alive);
    free(log.items);
}
END_TEST

START_TEST(test_sim_queue_invariants_hold)
{
    /* Drive the queue directly and check every structural invariant (bucket
     * placement, bitmaps, counts, minima, seq order, early heap, slot and
     * chunk accounting) while it grows, shrinks and reuses slots. Delays mix
     * tiny (same bucket), medium and huge (top levels) values. */
    struct cs_sim__queue q;
    cs_sim__queue_init(&q);
    uint64_t rs = 99;
    cs_event_id ids[4096];
    size_t nids = 0;
    cs_time last = 0;
    for (int op = 0; op < 20000; op++) {
        uint64_t r = test_rand(&rs) % 10;
        if (r < 5 && nids < 4096) {
            uint64_t kind = test_rand(&rs) % 8;
            cs_time span = kind < 5   ? 1000
                           : kind < 7 ? 1000000000
                                      : INT64_MAX / 4;
            if (span > INT64_MAX - last) /* saturate near the end of time */
                span = INT64_MAX - last;
            cs_time t = last + (cs_time)(test_rand(&rs) % ((uint64_t)span + 1));
            ids[nids++] = cs_sim__queue_push(&q, last, t, 0, NULL, 0);
        } else if (r < 7 && nids > 0) {
            size_t k = test_rand(&rs) % nids;
            cs_sim__queue_cancel(&q, ids[k]);
            ids[k] = ids[--nids];
        } else if (cs_sim__queue_size(&q) > 0) {
            struct cs_event ev;
            /* The const lookahead agrees with the settling one, and with
             * what pops next. */
            cs_time m = cs_sim__queue_min_time(&q);
            ck_assert_int_eq(m, cs_sim__queue_peek_time(&q));
            cs_sim__queue_pop(&q, &ev);
            ck_assert_int_eq(ev.time, m);
            ck_assert_int_ge(ev.time, last);
            last = ev.time;
        }
        if (op % 97 == 0 || cs_sim__queue_size(&q) < 8)
            ck_assert(cs_sim__queue_check(&q));
    }
    ck_assert(cs_sim__queue_check(&q));
    cs_sim__queue_compact(&q);
    ck_assert(cs_sim__queue_check(&q));
    ck_assert_uint_eq(q.nkeys, cs_sim__queue_size(&q));
    cs_sim__queue_fini(&q);
}
END_TEST

/* ---- ordering and clock ---------------------------------------------------- */

/* Reset: an engine with pending events (in several buckets, one cancelled)
 * and handlers is reset; it then has no events, time 0, no handlers, and a
 * fresh run orders new events exactly as a new engine would. */
START_TEST(test_sim_reset_reuses_engine)
{
    struct toy_log log = {0};
    cs_engine *e = cs_sim_create(7);
    int h = cs_sim_register(e, "toy", toy_handler, &log);
    cs_event_id id;
    for (uint32_t i = 0; i < 500; i++)
        ck_assert_int_eq(toy_schedule(e, h, (cs_time)(i * 7919 % 100000), i, &id), CS_OK);
    ck_assert(cs_sim_cancel(e, id));
    ck_assert_int_eq(cs_sim_run(e, 50000), CS_OK);
    ck_assert_uint_gt(cs_sim_pending(e), 0);
    cs_sim_reset(e, 8);
    ck_assert_uint_eq(cs_sim_pending(e), 0);
    ck_assert_int_eq(cs_sim_now(e), 0);
    ck_assert_uint_eq(cs_sim_events_processed(e), 0);
    ck_assert_uint_eq(cs_sim_seed(e), 8);
    ck_assert_int_eq(cs_sim_handler_find(e, "toy"), -CS_ENOTFOUND);
    log.n = 0;
    h = cs_sim_register(e, "toy", toy_handler, &log);
    ck_assert_int_eq(h, 0);
    /* times 30, 10, 20, 10: fire as 10 (tag 1), 10 (tag 3), 20, 30 */
    ck_assert_int_eq(toy_schedule(e, h, 30, 0, NULL), CS_OK);
    ck_assert_int_eq(toy_schedule(e, h, 10, 1, NULL), CS_OK);
    ck_assert_int_eq(toy_schedule(e, h, 20, 2, NULL), CS_OK);
    ck_assert_int_eq(toy_schedule(e, h, 10, 3, NULL), CS_OK);
    ck_assert_int_eq(cs_sim_run(e, CS_SIM_FOREVER), CS_OK);
    ck_assert_uint_eq(log.n, 4);
    ck_assert_uint_eq(log.items[0].tag, 1);
    ck_assert_uint_eq(log.items[1].tag, 3);
    ck_assert_uint_eq(log.items[2].tag, 2);
    ck_assert_uint_eq(log.items[3].tag, 0);
    ck_assert_int_eq(cs_sim_now(e), 30);
    cs_sim_destroy(e);
    free(log.items);
}
END_TEST

START_TEST(test_sim_fifo_for_equal_times)
{
    struct toy_log log = {0};
    cs_engine *e = cs_sim_create(1);
    int h = cs_sim_register(e, "toy", toy_handler, &log);
    /* 1000 events at t = 5 scheduled in tag order, plus decoys before and
     * after, scheduled out of order. */
    ck_assert_int_eq(toy_schedule(e, h, 9, 5000, NULL), CS_OK);
    for (uint32_t i = 0; i < 1000; i++)
        ck_assert_int_eq(toy_schedule(e, h, 5, i, NULL), CS_OK);
    ck_assert_int_eq(toy_schedule(e, h, 1, 6000, NULL), CS_OK);
    ck_assert_int_eq(cs_sim_run(e, CS_SIM_FOREVER), CS_OK);
    ck_assert_uint_eq(log.n, 1002);
    ck_assert_uint_eq(log.items[0].tag, 6000);
    for (uint32_t i = 0; i < 1000; i++) {
        ck_assert_uint_eq(log.items[1 + i].tag, i);
        ck_assert_int_eq(log.items[1 + i].time, 5);
    }
    ck_assert_uint_eq(log.items[1001].tag, 5000);
    cs_sim_destroy(e);
    free(log.items);
}
END_TEST

/* Schedules, at the current time, one follow-up event per firing until 3
 * have been chained: they must run after events already queued for now. */
struct chain_ctx {
    struct toy_log log;
    int toy;
    int left;
};

static void chain_handler(cs_engine *e, const struct cs_event *ev, void *ctx)
{
    struct chain_ctx *c = ctx;
    (void)ev;
    toy_log_push(&c->log, cs_sim_now(e), 100u + (uint32_t)c->left);
    if (c->left-- > 0)
        ck_assert_int_eq(cs_sim_schedule_in(e, 0, ev->handler, NULL, 0, NULL),
                         CS_OK);
}

START_TEST(test_sim_fifo_events_scheduled_for_now_run_after_queued_ones)
{
    struct chain_ctx c = {{0}, 0, 2};
    cs_engine *e = cs_sim_create(1);
    int hc = cs_sim_register(e, "chain", chain_handler, &c);
    int ht = cs_sim_register(e, "toy", toy_handler, &c.log);
    ck_assert_int_eq(cs_sim_schedule_at(e, 10, hc, NULL, 0, NULL), CS_OK);
    ck_assert_int_eq(toy_schedule(e, ht, 10, 1, NULL), CS_OK);
    ck_assert_int_eq(toy_schedule(e, ht, 10, 2, NULL), CS_OK);
    ck_assert_int_eq(cs_sim_run(e, CS_SIM_FOREVER), CS_OK);
    /* chain(102), toy 1, toy 2, chain(101), chain(100). */
    uint32_t want[] = {102, 1, 2, 101, 100};
    ck_assert_uint_eq(c.log.n, 5);
    for (size_t i = 0; i < 5; i++) {
        ck_assert_uint_eq(c.log.items[i].tag, want[i]);
        ck_assert_int_eq(c.log.items[i].time, 10);
    }
    cs_sim_destroy(e);
    free(c.log.items);
}
END_TEST

START_TEST(test_sim_clock_never_goes_back)
{
    struct toy_log log = {0};
    log.last_time = INT64_MIN;
    cs_engine *e = cs_sim_create(1);
    int h = cs_sim_register(e, "toy", toy_handler, &log);
    ck_assert_int_eq(cs_sim_now(e), 0);
    /* Before time 0 is the past already. */
    ck_assert_int_eq(toy_schedule(e, h, -1, 0, NULL), CS_EINVAL);
    struct toy_payload p = {0, 0, {0, 0}};
    ck_assert_int_eq(cs_sim_schedule_in(e, -1, h, &p, sizeof p, NULL),
                     CS_EINVAL);
    uint64_t rs = 5;
    for (uint32_t i = 0; i < 500; i++)
        ck_assert_int_eq(
            toy_schedule(e, h, (cs_time)(test_rand(&rs) % 10000), i, NULL),
            CS_OK);
    ck_assert_int_eq(cs_sim_run(e, 5000), CS_OK);
    ck_assert_int_eq(cs_sim_now(e), 5000);
    /* Now the past is anything before 5000, in release builds too. */
    ck_assert_int_eq(toy_schedule(e, h, 4999, 1, NULL), CS_EINVAL);
    ck_assert_int_eq(toy_schedule(e, h, 5000, 1, NULL), CS_OK);
    ck_assert_int_eq(cs_sim_run(e, 4000), CS_EINVAL);
    ck_assert_int_eq(cs_sim_schedule_in(e, CS_TIME_MAX, h, &p, sizeof p, NULL),
                     CS_ERANGE);
    /* Inside a handler: the past is refused, stepping/running is refused. */
    log.probe_reentrancy = 1;
    size_t before = cs_sim_pending(e);
    ck_assert(cs_sim_step(e));
    ck_assert_int_eq(log.past_status, CS_EINVAL);
    ck_assert_int_eq(log.step_in_handler, 0);
    ck_assert_int_eq(log.run_in_handler, CS_EINVAL);
    ck_assert_uint_eq(cs_sim_pending(e), before - 1);
    log.probe_reentrancy = 0;
    ck_assert_int_eq(cs_sim_run(e, CS_SIM_FOREVER), CS_OK);
    ck_assert_int_eq(log.went_back, 0);
    ck_assert_uint_eq(log.n, 501);
    for (size_t i = 1; i < log.n; i++)
        ck_assert_int_ge(log.items[i].time, log.items[i - 1].time);
    cs_sim_destroy(e);
    free(log.items);
}
END_TEST

/* ---- payload ---------------------------------------------------------------- */

struct payload_seen {
    unsigned char bytes[CS_SIM_PAYLOAD_MAX];
    uint32_t len;
    int calls;
};

static void payload_handler(cs_engine *e, const struct cs_event *ev, void *ctx)
{
    struct payload_seen *s = ctx;
    (void)e;
    memcpy(s->bytes, ev->payload, sizeof s->bytes);
    s->len = ev->len;
    s->calls++;
}

START_TEST(test_sim_payload_copied_at_schedule_time)
{
    struct payload_seen seen = {{0}, 0, 0};
    cs_engine *e = cs_sim_create(1);
    int h = cs_sim_register(e, "payload", payload_handler, &seen);
    unsigned char buf[CS_SIM_PAYLOAD_MAX + 1];
    for (size_t i = 0; i < sizeof buf; i++)
        buf[i] = (unsigned char)(i + 1);

    ck_assert_int_eq(cs_sim_schedule_at(e, 1, h, buf, 10, NULL), CS_OK);
    memset(buf, 0xAA, sizeof buf); /* mutate after scheduling */
    ck_assert(cs_sim_step(e));
    ck_assert_int_eq(seen.calls, 1);
    ck_assert_uint_eq(seen.len, 10);
    for (size_t i = 0; i < 10; i++)
        ck_assert_uint_eq(seen.bytes[i], i + 1);
    for (size_t i = 10; i < CS_SIM_PAYLOAD_MAX; i++)
        ck_assert_uint_eq(seen.bytes[i], 0); /* tail is zeroed */

    /* A full payload fits, one byte more does not; NULL only with len 0. */
    ck_assert_int_eq(cs_sim_schedule_at(e, 2, h, buf, CS_SIM_PAYLOAD_MAX, NULL),
                     CS_OK);
    ck_assert_int_eq(
        cs_sim_schedule_at(e, 2, h, buf, CS_SIM_PAYLOAD_MAX + 1, NULL),
        CS_EINVAL);
    ck_assert_int_eq(cs_sim_schedule_at(e, 2, h, NULL, 4, NULL), CS_EINVAL);
    ck_assert_int_eq(cs_sim_schedule_at(e, 2, h, NULL, 0, NULL), CS_OK);
    ck_assert_uint_eq(cs_sim_pending(e), 2);
    ck_assert(cs_sim_step(e));
    ck_assert_uint_eq(seen.len, CS_SIM_PAYLOAD_MAX);
    ck_assert_uint_eq(seen.bytes[CS_SIM_PAYLOAD_MAX - 1], 0xAA);
    /* The recycled slot carries no bytes of the previous event. */
    ck_assert(cs_sim_step(e));
    ck_assert_uint_eq(seen.len, 0);
    for (size_t i = 0; i < CS_SIM_PAYLOAD_MAX; i++)
        ck_assert_uint_eq(seen.bytes[i], 0);
    cs_sim_destroy(e);
}
END_TEST

/* ---- cancel ------------------------------------------------------------------ */

START_TEST(test_sim_stale_cancel_returns_false)
{
    struct toy_log log = {0};
    cs_engine *e = cs_sim_create(1);
    int h = cs_sim_register(e, "toy", toy_handler, &log);
    cs_event_id a = 0, b = 0, c = 0;
    ck_assert(!cs_sim_cancel(e, CS_EVENT_NONE));
    ck_assert_int_eq(toy_schedule(e, h, 10, 1, &a), CS_OK);
    ck_assert(cs_sim_cancel(e, a));
    ck_assert(!cs_sim_cancel(e, a)); /* twice */
    /* The slot is reused by b; a's id must not cancel b. */
    ck_assert_int_eq(toy_schedule(e, h, 10, 2, &b), CS_OK);
    ck_assert_uint_eq(a & 0xffffffffu, b & 0xffffffffu);
    ck_assert_uint_ne(a, b);
    ck_assert(!cs_sim_cancel(e, a));
    ck_assert_uint_eq(cs_sim_pending(e), 1);
    ck_assert(cs_sim_step(e));
    ck_assert(!cs_sim_cancel(e, b)); /* already fired */
    /* Garbage ids: a slot never handed out, a huge slot. */
    ck_assert(!cs_sim_cancel(e, ((uint64_t)1 << 32) | 12345));
    ck_assert(!cs_sim_cancel(e, UINT64_MAX));
    /* A cancelled event never fires; the others still do. */
    ck_assert_int_eq(toy_schedule(e, h, 20, 3, &a), CS_OK);
    ck_assert_int_eq(toy_schedule(e, h, 30, 4, &b), CS_OK);
    ck_assert_int_eq(toy_schedule(e, h, 40, 5, &c), CS_OK);
    ck_assert(cs_sim_cancel(e, b));
    ck_assert_int_eq(cs_sim_run(e, CS_SIM_FOREVER), CS_OK);
    ck_assert_uint_eq(log.n, 3);
    ck_assert_uint_eq(log.items[1].tag, 3);
    ck_assert_uint_eq(log.items[2].tag, 5);
    cs_sim_destroy(e);
    free(log.items);
}
END_TEST

/* ---- run / stop ---------------------------------------------------------------- */

START_TEST(test_sim_run_until_stops_at_the_right_time)
{
    struct toy_log log = {0};
    cs_engine *e = cs_sim_create(1);
    int h = cs_sim_register(e, "toy", toy_handler, &log);
    for (uint32_t i = 1; i <= 4; i++)
        ck_assert_int_eq(toy_schedule(e, h, 10 * (cs_time)i, i, NULL), CS_OK);
    ck_assert_int_eq(cs_sim_next_time(e), 10);
    ck_assert_int_eq(cs_sim_run(e, 25), CS_OK);
    ck_assert_uint_eq(log.n, 2);
    ck_assert_int_eq(cs_sim_now(e), 25); /* the clock moves to until */
    ck_assert_uint_eq(cs_sim_pending(e), 2);
    ck_assert_int_eq(cs_sim_next_time(e), 30);
    ck_assert_int_eq(cs_sim_run(e, 30), CS_OK); /* until is inclusive */
    ck_assert_uint_eq(log.n, 3);
    ck_assert_uint_eq(log.items[2].tag, 3);
    struct toy_payload p = {9, 0, {0, 0}};
    ck_assert_int_eq(cs_sim_schedule_in(e, 5, h, &p, sizeof p, NULL), CS_OK);
    ck_assert_int_eq(cs_sim_run(e, CS_SIM_FOREVER), CS_OK);
    ck_assert_uint_eq(log.n, 5);
    ck_assert_uint_eq(log.items[3].tag, 9);
    ck_assert_int_eq(log.items[3].time, 35);
    ck_assert_int_eq(cs_sim_now(e), 40); /* FOREVER leaves the clock alone */
    ck_assert_uint_eq(cs_sim_events_processed(e), 5);
    ck_assert(!cs_sim_step(e));
    ck_assert_int_eq(cs_sim_next_time(e), CS_TIME_MAX);
    cs_sim_destroy(e);
    free(log.items);
}
END_TEST

START_TEST(test_sim_stop_from_handler)
{
    struct toy_log log = {0};
    cs_engine *e = cs_sim_create(1);
    int h = cs_sim_register(e, "toy", toy_handler, &log);
    for (uint32_t i = 1; i <= 10; i++)
        ck_assert_int_eq(toy_schedule(e, h, 100 * (cs_time)i, i, NULL), CS_OK);
    log.stop_enabled = 1;
    log.stop_at_tag = 3;
    ck_assert_int_eq(cs_sim_run(e, CS_SIM_FOREVER), CS_OK);
    ck_assert_uint_eq(log.n, 3);
    ck_assert_int_eq(cs_sim_now(e), 300); /* stays at the stopping event */
    ck_assert_uint_eq(cs_sim_pending(e), 7);
    /* The request was consumed: the next run continues. */
    log.stop_at_tag = 7;
    ck_assert_int_eq(cs_sim_run(e, 5000), CS_OK);
    ck_assert_uint_eq(log.n, 7);
    ck_assert_int_eq(cs_sim_now(e), 700);
    /* A stop outside a handler makes the next run return at once. */
    cs_sim_stop(e);
    ck_assert_int_eq(cs_sim_run(e, 5000), CS_OK);
    ck_assert_uint_eq(log.n, 7);
    ck_assert_int_eq(cs_sim_now(e), 700);
    log.stop_enabled = 0;
    ck_assert_int_eq(cs_sim_run(e, 5000), CS_OK);
    ck_assert_uint_eq(log.n, 10);
    ck_assert_int_eq(cs_sim_now(e), 5000);
    cs_sim_destroy(e);
    free(log.items);
}
END_TEST

/* ---- registry ------------------------------------------------------------------- */

START_TEST(test_sim_register_is_bounded_and_checked)
{
    struct toy_log log = {0};
    cs_engine *e = cs_sim_create(1);
    ck_assert_int_eq(cs_sim_register(e, "a", toy_handler, &log), 0);
    ck_assert_int_eq(cs_sim_register(e, "b", toy_handler, &log), 1);
    ck_assert_int_eq(cs_sim_register(e, "a", toy_handler, &log), -CS_EINVAL);
    ck_assert_int_eq(cs_sim_register(e, "", toy_handler, &log), -CS_EINVAL);
    ck_assert_int_eq(cs_sim_register(e, NULL, toy_handler, &log), -CS_EINVAL);
    ck_assert_int_eq(cs_sim_register(e, "c", NULL, &log), -CS_EINVAL);
    char longname[80];
    memset(longname, 'x', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    ck_assert_int_eq(cs_sim_register(e, longname, toy_handler, &log),
                     -CS_EINVAL);
    ck_assert_int_eq(cs_sim_handler_find(e, "b"), 1);
    ck_assert_int_eq(cs_sim_handler_find(e, "zz"), -CS_ENOTFOUND);
    ck_assert_str_eq(cs_sim_handler_name(e, 0), "a");
    ck_assert_ptr_null(cs_sim_handler_name(e, 2));
    ck_assert_ptr_null(cs_sim_handler_name(e, -1));
    for (int i = 2; i < CS_SIM_MAX_HANDLERS; i++) {
        char name[16];
        snprintf(name, sizeof name, "h%d", i);
        ck_assert_int_eq(cs_sim_register(e, name, toy_handler, &log), i);
    }
    ck_assert_int_eq(cs_sim_register(e, "one-too-many", toy_handler, &log),
                     -CS_EFULL);
    /* Unknown handler ids are refused at schedule time. */
    ck_assert_int_eq(toy_schedule(e, CS_SIM_MAX_HANDLERS, 1, 0, NULL),
                     CS_EINVAL);
    ck_assert_int_eq(toy_schedule(e, -1, 1, 0, NULL), CS_EINVAL);
    ck_assert_uint_eq(cs_sim_pending(e), 0);
    ck_assert_uint_eq(cs_sim_seed(e), 1);
    cs_sim_destroy(e);
    cs_sim_destroy(NULL);
}
END_TEST

START_TEST(test_sim_pool_grows_and_destroy_frees_pending)
{
    /* 200k events force many pool doublings; they fire sorted by time with
     * ties FIFO. Half are left pending at destroy (ASan checks the frees). */
    enum { N = 200000 };
    struct toy_log log = {0};
    cs_engine *e = cs_sim_create(3);
    int h = cs_sim_register(e, "toy", toy_handler, &log);
    uint64_t rs = 77;
    size_t bad = 0;
    for (uint32_t i = 0; i < N; i++)
        bad += toy_schedule(e, h, (cs_time)(test_rand(&rs) % (N * 4)), i,
                            NULL) != CS_OK;
    ck_assert_uint_eq(bad, 0);
    ck_assert_uint_eq(cs_sim_pending(e), N);
    ck_assert_int_eq(cs_sim_run(e, N * 2), CS_OK);
    ck_assert_uint_gt(log.n, N / 3);
    for (size_t i = 1; i < log.n; i++) {
        const struct toy_fired *a = &log.items[i - 1], *b = &log.items[i];
        bad += b->time < a->time || (b->time == a->time && b->tag <= a->tag);
    }
    ck_assert_uint_eq(bad, 0);
    ck_assert_int_eq(log.bad_event, 0);
    ck_assert_uint_eq(cs_sim_pending(e) + log.n, N);
    cs_sim_destroy(e);
    free(log.items);
}
END_TEST

/* ---- queue structure: levels, run, early heap, equal times, cancel -------------- */

/* Pops everything left in q; fails unless keys come out in strictly
 * increasing (time, seq) order. Returns how many were popped. */
static size_t queue_drain_in_order(struct cs_sim__queue *q, cs_time *now)
{
    size_t n = 0, bad = 0;
    cs_time pt = INT64_MIN;
    uint64_t ps = 0;
    while (cs_sim__queue_size(q) > 0) {
        struct cs_event ev;
        cs_time m = cs_sim__queue_min_time(q);
        bad += m != cs_sim__queue_peek_time(q);
        cs_sim__queue_pop(q, &ev);
        bad += ev.time != m;
        bad += n > 0 && (ev.time < pt || (ev.time == pt && ev.seq <= ps));
        pt = ev.time;
        ps = ev.seq;
        n++;
    }
    ck_assert_uint_eq(bad, 0);
    if (n)
        *now = pt;
    return n;
}

START_TEST(test_sim_queue_keys_at_every_level_pop_in_order)
{
    /* Keys 2^k ns after the reference time for every k (so every level and
     * many digits), the end of time, and ties, pushed in a scrambled order;
     * then the same again relative to a later clock, so that `last` moves
     * through every level. Invariants are checked after every pop. */
    struct cs_sim__queue q;
    cs_sim__queue_init(&q);
    cs_time now = 0;
    for (int round = 0; round < 2; round++) {
        cs_time t[70];
        size_t n = 0;
        for (int k = 0; k < 62; k++)
            t[n++] = now + ((cs_time)1 << k);
        t[n++] = CS_TIME_MAX;
        t[n++] = CS_TIME_MAX - 1;
        t[n++] = CS_TIME_MAX;
        t[n++] = now;
        t[n++] = now + 300;
        t[n++] = now + 300;
        uint64_t rs = 4242 + (uint64_t)round;
        for (size_t i = n - 1; i > 0; i--) { /* Fisher-Yates */
            size_t j = test_rand(&rs) % (i + 1);
            cs_time x = t[i];
            t[i] = t[j];
            t[j] = x;
        }
        for (size_t i = 0; i < n; i++)
            ck_assert_uint_ne(cs_sim__queue_push(&q, now, t[i], 0, NULL, 0),
                              CS_EVENT_NONE);
        ck_assert(cs_sim__queue_check(&q));
        /* Pop half one by one with checks, then drain the rest. */
        cs_time pt = now;
        for (size_t i = 0; i < n / 2; i++) {
            struct cs_event ev;
            cs_sim__queue_pop(&q, &ev);
            ck_assert_int_ge(ev.time, pt);
            pt = ev.time;
            ck_assert(cs_sim__queue_check(&q));
        }
        /* `last` has moved past the low levels: keys pushed now at the
         * current time must still come first, in FIFO order. */
        cs_event_id a = cs_sim__queue_push(&q, pt, pt, 0, NULL, 0);
        cs_event_id b = cs_sim__queue_push(&q, pt, pt, 0, NULL, 0);
        struct cs_event ev;
        cs_sim__queue_pop(&q, &ev);
        ck_assert_uint_eq(ev.id, a);
        cs_sim__queue_pop(&q, &ev);
        ck_assert_uint_eq(ev.id, b);
        ck_assert_uint_eq(queue_drain_in_order(&q, &now), n - n / 2);
        ck_assert_int_eq(now, CS_TIME_MAX);
        ck_assert(cs_sim__queue_check(&q));
        cs_sim__queue_fini(&q);
        cs_sim__queue_init(&q);
        now = round == 0 ? 123456789 : 0;
    }
    cs_sim__queue_fini(&q);
}
END_TEST

START_TEST(test_sim_queue_cancel_in_every_tier)
{
    /* Builds a queue with keys in each tier and cancels one in each. Times
     * in ns; the clock starts at 0, so `last` starts at 0. */
    struct cs_sim__queue q;
    cs_sim__queue_init(&q);
    /* 40 keys at 2000..2039 (0x7d0..0x7f7: all differ from 0 first in
     * digit 1, and share digit 1 = 7): one level-1 bucket. 5000 = 0x1388:
     * another level-1 bucket; 1e12 (bit 39): level 4. */
    cs_event_id run[40];
    for (int i = 0; i < 40; i++)
        run[i] = cs_sim__queue_push(&q, 0, 2000 + i, 1, NULL, 0);
    cs_event_id b = cs_sim__queue_push(&q, 0, 5000, 2, NULL, 0);
    cs_event_id g = cs_sim__queue_push(&q, 0, 1000000000000, 3, NULL, 0);
    ck_assert(q.levels == ((1u << 1) | (1u << 4)));
    /* Peeking refills the run: the 40-key bucket is small enough to be
     * sorted into the run whole (no split), which then holds >= 32 keys, so
     * refilling stops there and `last` is its largest time, 2039. */
    ck_assert_int_eq(cs_sim__queue_peek_time(&q), 2000);
    ck_assert_uint_eq(q.nrun - q.ri, 40);
    ck_assert_int_eq(q.last, 2039);
    /* As after cs_sim_run(until = 500): the clock is before `last`, so a
     * push at 600 goes to the early heap, and so does one at 2020, which
     * must be merged with the run's keys. */
    cs_event_id c = cs_sim__queue_push(&q, 500, 600, 4, NULL, 0);
    cs_event_id m = cs_sim__queue_push(&q, 500, 2020, 8, NULL, 0);
    ck_assert_uint_eq(q.nearly, 2);
    ck_assert_int_eq(cs_sim__queue_min_time(&q), 600);
    /* 2044 = 0x7fc and 2039 = 0x7f7 differ only in the last digit: a
     * level-0 bucket; so does a key at 2039 itself, which must follow the
     * run's key of the same time. 2339 = 0x923: level 1. */
    cs_event_id d = cs_sim__queue_push(&q, 500, 2044, 5, NULL, 0);
    cs_event_id f = cs_sim__queue_push(&q, 500, 2039, 6, NULL, 0);
    ck_assert(q.levels & 1u);
    cs_event_id e = cs_sim__queue_push(&q, 500, 2339, 7, NULL, 0);
    ck_assert(cs_sim__queue_check(&q));
    ck_assert_uint_eq(cs_sim__queue_size(&q), 47);

    cs_event_id dead[] = {c, run[10], d, e, g}; /* early, run, L0, L1, L4 */
    for (size_t i = 0; i < 5; i++) {
        ck_assert(cs_sim__queue_cancel(&q, dead[i]));
        ck_assert(!cs_sim__queue_cancel(&q, dead[i]));
        ck_assert(cs_sim__queue_check(&q));
    }
    ck_assert_uint_eq(cs_sim__queue_size(&q), 42);
    ck_assert_uint_eq(q.nkeys, 47); /* the dead keys wait to be dropped */
    ck_assert_int_eq(cs_sim__queue_min_time(&q), 2000);
    /* 2000..2020 (without 2010), the early 2020 after the run's 2020, the
     * rest of the run, then 2039's bucket key, then 5000. */
    struct cs_event ev;
    for (int i = 0; i < 40; i++) {
        if (i == 10)
            continue;
        cs_sim__queue_pop(&q, &ev);
        ck_assert_uint_eq(ev.id, run[i]);
        if (i == 20) {
            cs_sim__queue_pop(&q, &ev);
            ck_assert_uint_eq(ev.id, m);
        }
        ck_assert(cs_sim__queue_check(&q));
    }
    cs_sim__queue_pop(&q, &ev);
    ck_assert_uint_eq(ev.id, f);
    ck_assert_int_eq(ev.handler, 6);
    cs_sim__queue_pop(&q, &ev);
    ck_assert_uint_eq(ev.id, b);
    ck_assert_int_eq(ev.time, 5000);
    ck_assert_uint_eq(cs_sim__queue_size(&q), 0);
    for (size_t i = 0; i < 5; i++)
        ck_assert(!cs_sim__queue_cancel(&q, dead[i]));
    ck_assert(!cs_sim__queue_cancel(&q, f));
    ck_assert(!cs_sim__queue_cancel(&q, run[0]));
    /* Dead keys may be left; compaction drops them. */
    ck_assert(cs_sim__queue_check(&q));
    cs_sim__queue_compact(&q);
    ck_assert_uint_eq(q.nkeys, 0);
    ck_assert(cs_sim__queue_check(&q));
    cs_sim__queue_fini(&q);
}
END_TEST

START_TEST(test_sim_queue_cancel_compaction_bounds_dead_keys)
{
    /* 20000 keys, 15000 cancelled in random order: once dead keys exceed
     * the live ones and 4096, compaction drops them, so the queue never
     * holds more than 2 * live + 4096 keys; the rest still pop in order. */
    enum { N = 20000, CANCEL = 15000 };
    struct cs_sim__queue q;
    cs_sim__queue_init(&q);
    cs_event_id *ids = malloc(N * sizeof *ids);
    ck_assert_ptr_nonnull(ids);
    uint64_t rs = 31337;
    for (size_t i = 0; i < N; i++)
        ids[i] = cs_sim__queue_push(&q, 0, (cs_time)(test_rand(&rs) % 1000000),
                                    0, NULL, 0);
    size_t worst = 0, bad = 0;
    for (size_t i = N - 1; i > 0; i--) {
        size_t j = test_rand(&rs) % (i + 1);
        cs_event_id x = ids[i];
        ids[i] = ids[j];
        ids[j] = x;
    }
    for (size_t i = 0; i < CANCEL; i++) {
        bad += !cs_sim__queue_cancel(&q, ids[i]);
        size_t excess = (size_t)q.nkeys - 2 * (size_t)q.live;
        if (q.nkeys > 2 * (size_t)q.live && excess > worst)
            worst = excess;
    }
    ck_assert_uint_eq(bad, 0);
    ck_assert_uint_le(worst, 4096);
    ck_assert_uint_lt(q.nkeys, N); /* compaction did run */
    ck_assert(cs_sim__queue_check(&q));
    for (size_t i = 0; i < CANCEL; i++)
        bad += cs_sim__queue_cancel(&q, ids[i]);
    ck_assert_uint_eq(bad, 0);
    cs_time now = 0;
    ck_assert_uint_eq(queue_drain_in_order(&q, &now), N - CANCEL);
    cs_sim__queue_fini(&q);
    free(ids);
}
END_TEST

/* Engine-level model: every firing must have a strictly larger (time, seq)
 * than the one before (seq grows with every schedule call, so this is the
 * total order, FIFO ties included), no cancelled event may fire, and
 * handlers schedule at the current time, a little later and much later,
 * and cancel, while the run goes on. */
enum { MODEL_MAX = 60000 };

struct model_ctx {
    uint64_t rs;
    cs_time mean_ns;       /* typical delay: sets the event density */
    int handler;
    uint32_t scheduled, budget;
    cs_event_id id[MODEL_MAX];
    unsigned char alive[MODEL_MAX];
    uint64_t fired, cancelled, cancel_false;
    cs_time pt;
    uint64_t ps;
    /* Violations: firing order, a firing that should not happen (cancelled,
     * wrong id or time), a refused schedule, a wrong cancel result. */
    size_t bad_order, bad_fire, bad_status, bad_cancel;
};

static void model_schedule(cs_engine *e, struct model_ctx *m, cs_time delay)
{
    if (m->scheduled >= m->budget)
        return;
    uint32_t tag = m->scheduled++;
    cs_status st = cs_sim_schedule_in(e, delay, m->handler, &tag, sizeof tag,
                                      &m->id[tag]);
    m->bad_status += st != CS_OK;
    m->alive[tag] = 1;
}

static void model_handler(cs_engine *e, const struct cs_event *ev, void *ctx)
{
    struct model_ctx *m = ctx;
    uint32_t tag;
    memcpy(&tag, ev->payload, sizeof tag);
    if (m->fired > 0 &&
        (ev->time < m->pt || (ev->time == m->pt && ev->seq <= m->ps)))
        m->bad_order++;
    if (tag >= MODEL_MAX || !m->alive[tag] || ev->id != m->id[tag] ||
        ev->time != cs_sim_now(e))
        m->bad_fire++;
    m->pt = ev->time;
    m->ps = ev->seq;
    m->fired++;
    if (tag < MODEL_MAX)
        m->alive[tag] = 0;
    uint64_t r = test_rand(&m->rs) % 100;
    if (r < 15) { /* at the current time, behind the events already due now */
        model_schedule(e, m, 0);
        model_schedule(e, m, 0);
    } else if (r < 70) {
        model_schedule(e, m,
                       (cs_time)(test_rand(&m->rs) %
                                 (uint64_t)(2 * m->mean_ns + 1)));
    } else if (r < 80) {
        /* within the same few windows of the last digit */
        model_schedule(e, m, (cs_time)(test_rand(&m->rs) % 1000));
    } else if (r < 85) { /* far ahead, halfway to the end of time at most */
        cs_time far = m->mean_ns * 1000000 + (cs_time)(test_rand(&m->rs) % 97);
        cs_time room = (CS_TIME_MAX - cs_sim_now(e)) / 2;
        model_schedule(e, m, far < room ? far : room);
    }
    if (r % 4 == 0 && m->scheduled > 0) { /* cancel a random one */
        uint32_t t = (uint32_t)(test_rand(&m->rs) % m->scheduled);
        bool want = m->alive[t] != 0;
        if (cs_sim_cancel(e, m->id[t]) != want)
            m->bad_cancel++;
        if (want) {
            m->alive[t] = 0;
            m->cancelled++;
        } else {
            m->cancel_false++;
        }
    }
}

START_TEST(test_sim_handlers_schedule_now_later_and_cancel_at_any_density)
{
    /* The same model at mean delays from 1 ns (many equal times, everything
     * in the lowest levels) to 1 hour (sparse, the top levels): the queue
     * has no width to tune, and the order must hold at every density. */
    const cs_time means[] = {1, 1000, 1000000, CS_HOUR};
    for (size_t k = 0; k < sizeof means / sizeof means[0]; k++) {
        struct model_ctx *m = calloc(1, sizeof *m);
        ck_assert_ptr_nonnull(m);
        m->rs = 0xfeedu + k;
        m->mean_ns = means[k];
        m->budget = MODEL_MAX;
        cs_engine *e = cs_sim_create(9);
        m->handler = cs_sim_register(e, "model", model_handler, m);
        /* 2000 initial events, some sharing times. */
        for (int i = 0; i < 2000; i++)
            model_schedule(e, m,
                           (cs_time)(test_rand(&m->rs) %
                                     (uint64_t)(means[k] * 50 + 1)));
        ck_assert_int_eq(cs_sim_run(e, CS_SIM_FOREVER), CS_OK);
        ck_assert_msg(m->bad_order + m->bad_fire + m->bad_status +
                              m->bad_cancel == 0,
                      "mean %lld ns: order %zu, fired %zu, status %zu, "
                      "cancel %zu violations",
                      (long long)means[k], m->bad_order, m->bad_fire,
                      m->bad_status, m->bad_cancel);
        ck_assert_uint_eq(m->scheduled, MODEL_MAX); /* the budget was used */
        ck_assert_uint_eq(m->fired + m->cancelled, m->scheduled);
        ck_assert_uint_eq(cs_sim_events_processed(e), m->fired);
        ck_assert_uint_eq(cs_sim_pending(e), 0);
        ck_assert_uint_gt(m->cancelled, 1000);
        ck_assert_uint_gt(m->cancel_false, 1000);
        cs_sim_destroy(e);
        free(m);
    }
}
END_TEST

START_TEST(test_sim_equal_times_fifo_across_run_and_later_pushes)
{
    /* 3000 events at T = 1 ms mixed with 3000 at other times; the first 100
     * of them schedule one more event at T (delay 0) when they fire. FIFO:
     * at T, tags 0..2999 in order, then the 100 late ones in order. */
    const cs_time T = CS_MS;
    struct toy_log log = {0};
    cs_engine *e = cs_sim_create(2);
    int h = cs_sim_register(e, "toy", toy_handler, &log);
    uint64_t rs = 808;
    for (uint32_t i = 0; i < 3000; i++) {
        ck_assert_int_eq(toy_schedule(e, h, T, i, NULL), CS_OK);
        cs_time t = (cs_time)(test_rand(&rs) % (uint64_t)(2 * T));
        if (t == T)
            t++;
        ck_assert_int_eq(toy_schedule(e, h, t, 100000 + i, NULL), CS_OK);
    }
    /* Run to just before T, then fire the T events one by one, pushing the
     * late ones from outside (same as from a handler: the clock is T). */
    ck_assert_int_eq(cs_sim_run(e, T - 1), CS_OK);
    size_t before = log.n, late = 0;
    for (uint32_t i = 0; i < 3000; i++) {
        ck_assert(cs_sim_step(e));
        ck_assert_int_eq(cs_sim_now(e), T);
        ck_assert_uint_eq(log.items[log.n - 1].tag, i);
        if (i < 100) {
            ck_assert_int_eq(toy_schedule(e, h, T, 50000 + i, NULL), CS_OK);
            late++;
        }
    }
    for (uint32_t i = 0; i < late; i++) {
        ck_assert(cs_sim_step(e));
        ck_assert_int_eq(cs_sim_now(e), T);
        ck_assert_uint_eq(log.items[log.n - 1].tag, 50000 + i);
    }
    ck_assert_uint_eq(log.n, before + 3000 + late);
    ck_assert_int_eq(cs_sim_run(e, CS_SIM_FOREVER), CS_OK);
    ck_assert_uint_eq(log.n, 6000 + late);
    ck_assert_int_eq(log.went_back, 0);
    cs_sim_destroy(e);
    free(log.items);
}
END_TEST

START_TEST(test_sim_events_at_the_end_of_time)
{
    struct toy_log log = {0};
    cs_engine *e = cs_sim_create(1);
    int h = cs_sim_register(e, "toy", toy_handler, &log);
    ck_assert_int_eq(toy_schedule(e, h, CS_TIME_MAX, 1, NULL), CS_OK);
    ck_assert_int_eq(toy_schedule(e, h, CS_TIME_MAX - 1, 2, NULL), CS_OK);
    ck_assert_int_eq(toy_schedule(e, h, CS_TIME_MAX, 3, NULL), CS_OK);
    ck_assert_int_eq(toy_schedule(e, h, INT64_C(1) << 60, 4, NULL), CS_OK);
    ck_assert_int_eq(toy_schedule(e, h, 0, 5, NULL), CS_OK);
    ck_assert_int_eq(cs_sim_next_time(e), 0);
    ck_assert_int_eq(cs_sim_run(e, CS_SIM_FOREVER), CS_OK);
    uint32_t want[] = {5, 4, 2, 1, 3};
    ck_assert_uint_eq(log.n, 5);
    for (size_t i = 0; i < 5; i++)
        ck_assert_uint_eq(log.items[i].tag, want[i]);
    ck_assert_int_eq(cs_sim_now(e), CS_TIME_MAX);
    /* At the end of time, delay 0 still works and 1 overflows. */
    struct toy_payload p = {6, 0, {0, 0}};
    ck_assert_int_eq(cs_sim_schedule_in(e, 0, h, &p, sizeof p, NULL), CS_OK);
    ck_assert_int_eq(cs_sim_schedule_in(e, 1, h, &p, sizeof p, NULL),
                     CS_ERANGE);
    ck_assert_int_eq(cs_sim_next_time(e), CS_TIME_MAX);
    ck_assert(cs_sim_step(e));
    ck_assert_uint_eq(log.items[5].tag, 6);
    cs_sim_destroy(e);
    free(log.items);
}
END_TEST

START_TEST(test_sim_schedule_between_run_until_and_next_event)
{
    /* cs_sim_run(until) looks at the next event (1000) and stops at 500;
     * events then scheduled between 500 and 1000 must fire first. */
    struct toy_log log = {0};
    cs_engine *e = cs_sim_create(1);
    int h = cs_sim_register(e, "toy", toy_handler, &log);
    ck_assert_int_eq(toy_schedule(e, h, 1000, 1, NULL), CS_OK);
    ck_assert_int_eq(toy_schedule(e, h, 5000, 2, NULL), CS_OK);
    ck_assert_int_eq(cs_sim_run(e, 500), CS_OK);
    ck_assert_uint_eq(log.n, 0);
    ck_assert_int_eq(cs_sim_now(e), 500);
    ck_assert_int_eq(toy_schedule(e, h, 700, 3, NULL), CS_OK);
    ck_assert_int_eq(toy_schedule(e, h, 600, 4, NULL), CS_OK);
    ck_assert_int_eq(toy_schedule(e, h, 1000, 5, NULL), CS_OK);
    ck_assert_int_eq(toy_schedule(e, h, 600, 6, NULL), CS_OK);
    ck_assert_int_eq(cs_sim_next_time(e), 600);
    ck_assert_int_eq(cs_sim_run(e, CS_SIM_FOREVER), CS_OK);
    uint32_t want[] = {4, 6, 3, 1, 5, 2};
    ck_assert_uint_eq(log.n, 6);
    for (size_t i = 0; i < 6; i++)
        ck_assert_uint_eq(log.items[i].tag, want[i]);

    /* The same one tick before the next event, with a cancelled event
     * before it: 10000 (cancelled) and 10005 pending; run to 10003 (the
     * lookahead settles on 10005); then 10004 and 10003 must fire first. */
    cs_event_id x = CS_EVENT_NONE;
    ck_assert_int_eq(toy_schedule(e, h, 10000, 7, &x), CS_OK);
    ck_assert_int_eq(toy_schedule(e, h, 10005, 8, NULL), CS_OK);
    ck_assert(cs_sim_cancel(e, x));
    ck_assert_int_eq(cs_sim_run(e, 10003), CS_OK);
    ck_assert_uint_eq(log.n, 6);
    ck_assert_int_eq(cs_sim_next_time(e), 10005);
    ck_assert_int_eq(toy_schedule(e, h, 10004, 9, NULL), CS_OK);
    ck_assert_int_eq(cs_sim_next_time(e), 10004);
    ck_assert_int_eq(toy_schedule(e, h, 10003, 10, NULL), CS_OK);
    ck_assert_int_eq(cs_sim_next_time(e), 10003);
    ck_assert_int_eq(cs_sim_run(e, CS_SIM_FOREVER), CS_OK);
    ck_assert_uint_eq(log.n, 9);
    ck_assert_uint_eq(log.items[6].tag, 10);
    ck_assert_uint_eq(log.items[7].tag, 9);
    ck_assert_uint_eq(log.items[8].tag, 8);
    cs_sim_destroy(e);
    free(log.items);
}
END_TEST

/* ---- RNG ------------------------------------------------------------------------ */

START_TEST(test_sim_rng_streams_are_deterministic_and_independent)
{
    /* splitmix64's first output from state 0 (Vigna's reference code). */
    ck_assert_uint_eq(cs_rng_mix64(UINT64_C(0x9e3779b97f4a7c15)),
                      UINT64_C(0xe220a8397b1dcdaf));

    gsl_rng *a = cs_rng_create(42, CS_RNG_FAILURES);
    gsl_rng *b = cs_rng_create(42, CS_RNG_FAILURES);
    gsl_rng *c = cs_rng_create(42, CS_RNG_ARRIVALS);
    gsl_rng *d = cs_rng_create(43, CS_RNG_FAILURES);
    ck_assert_str_eq(gsl_rng_name(a), "mt19937");
    int same_c = 0, same_d = 0;
    for (int i = 0; i < 1000; i++) {
        unsigned long x = gsl_rng_get(a);
        ck_assert_uint_eq(x, gsl_rng_get(b));
        same_c += x == gsl_rng_get(c);
        same_d += x == gsl_rng_get(d);
    }
    ck_assert_int_lt(same_c, 3);
    ck_assert_int_lt(same_d, 3);
    /* Stream seeds of neighbouring ids differ in about half their bits. */
    unsigned long s1 = cs_rng_stream_seed(42, 1), s2 = cs_rng_stream_seed(42, 2);
    ck_assert_uint_ne(s1, s2);
    ck_assert_uint_le(s1, 0xffffffffu);

    /* The engine's streams: lazily created, owned, same numbers as
     * cs_rng_create for (seed, stream), including ids past the direct table. */
    cs_engine *e = cs_sim_create(42);
    uint32_t streams[] = {CS_RNG_FAILURES, CS_RNG_USER + 1, 100000};
    for (size_t k = 0; k < 3; k++) {
        gsl_rng *r = cs_sim_rng(e, streams[k]);
        ck_assert_ptr_eq(r, cs_sim_rng(e, streams[k]));
        gsl_rng *ref = cs_rng_create(42, streams[k]);
        for (int i = 0; i < 100; i++)
            ck_assert_uint_eq(gsl_rng_get(r), gsl_rng_get(ref));
        gsl_rng_free(ref);
    }
    /* Drawing from one stream does not perturb another. */
    gsl_rng_set(a, cs_rng_stream_seed(42, CS_RNG_ARRIVALS));
    gsl_rng *arr = cs_sim_rng(e, CS_RNG_ARRIVALS);
    for (int i = 0; i < 100; i++)
        ck_assert_uint_eq(gsl_rng_get(arr), gsl_rng_get(a));
    cs_sim_destroy(e);
    gsl_rng_free(a);
    gsl_rng_free(b);
    gsl_rng_free(c);
    gsl_rng_free(d);
}
END_TEST

/* ---- statistics ---------------------------------------------------------------- */

START_TEST(test_sim_stats_online_by_hand)
{
    /* {2,4,4,4,5,5,7,9}: sum 40, mean 5; squared deviations 9+1+1+1+0+0+4+16
     * = 32; sample variance 32/7. */
    const double xs[] = {2, 4, 4, 4, 5, 5, 7, 9};
    struct cs_stat_online s, lo, hi;
    cs_stat_online_init(&s);
    cs_stat_online_init(&lo);
    cs_stat_online_init(&hi);
    ck_assert(isnan(cs_stat_online_mean(&s)));
    for (int i = 0; i < 8; i++) {
        cs_stat_online_add(&s, xs[i]);
        cs_stat_online_add(i < 3 ? &lo : &hi, xs[i]);
    }
    ck_assert_uint_eq(s.count, 8);
    ck_assert_double_eq_tol(cs_stat_online_mean(&s), 5.0, 1e-12);
    ck_assert_double_eq_tol(cs_stat_online_variance(&s), 32.0 / 7.0, 1e-12);
    ck_assert_double_eq_tol(cs_stat_online_stddev(&s), sqrt(32.0 / 7.0), 1e-12);
    ck_assert_double_eq(s.min, 2.0);
    ck_assert_double_eq(s.max, 9.0);
    /* Merging the two halves gives the same moments. */
    cs_stat_online_merge(&lo, &hi);
    ck_assert_uint_eq(lo.count, 8);
    ck_assert_double_eq_tol(cs_stat_online_mean(&lo), 5.0, 1e-12);
    ck_assert_double_eq_tol(cs_stat_online_variance(&lo), 32.0 / 7.0, 1e-12);
    ck_assert_double_eq(lo.min, 2.0);
    ck_assert_double_eq(lo.max, 9.0);
    /* Merging into / from an empty one. */
    struct cs_stat_online z;
    cs_stat_online_init(&z);
    cs_stat_online_merge(&z, &s);
    ck_assert_double_eq_tol(cs_stat_online_variance(&z), 32.0 / 7.0, 1e-12);
    struct cs_stat_online empty;
    cs_stat_online_init(&empty);
    cs_stat_online_merge(&z, &empty);
    ck_assert_uint_eq(z.count, 8);
    /* One value: mean defined, sample variance not. */
    struct cs_stat_online one = {0, 0, 0, 0, 0};
    cs_stat_online_add(&one, -3.0);
    ck_assert_double_eq(cs_stat_online_mean(&one), -3.0);
    ck_assert_double_eq(one.min, -3.0);
    ck_assert_double_eq(one.max, -3.0);
    ck_assert(isnan(cs_stat_online_variance(&one)));
    /* Welford stays accurate with a large offset (naive sum-of-squares would
     * lose every digit here): 1e9 + {4, 7, 13, 16}: mean 1e9+10, var 30. */
    struct cs_stat_online big;
    cs_stat_online_init(&big);
    const double off[] = {4, 7, 13, 16};
    for (int i = 0; i < 4; i++)
        cs_stat_online_add(&big, 1e9 + off[i]);
    ck_assert_double_eq_tol(cs_stat_online_variance(&big), 30.0, 1e-6);
}
END_TEST

START_TEST(test_sim_stats_sample_quantiles_by_hand)
{
    struct cs_stat_sample s;
    cs_stat_sample_init(&s);
    double q = -1;
    ck_assert_int_eq(cs_stat_sample_quantile(&s, 0.5, &q), CS_EINVAL);
    ck_assert_double_eq(q, -1);
    ck_assert(isnan(cs_stat_sample_mean(&s)));
    const double xs[] = {5, 1, 4, 2, 3};
    for (int i = 0; i < 5; i++)
        cs_stat_sample_add(&s, xs[i]);
    ck_assert_uint_eq(cs_stat_sample_count(&s), 5);
    ck_assert_double_eq_tol(cs_stat_sample_mean(&s), 3.0, 1e-12);
    /* Sorted {1,2,3,4,5}; h = (n-1)p = 4p; value = x[floor h] + frac * gap. */
    ck_assert_int_eq(cs_stat_sample_quantile(&s, 0.0, &q), CS_OK);
    ck_assert_double_eq_tol(q, 1.0, 1e-12);
    ck_assert_int_eq(cs_stat_sample_quantile(&s, 1.0, &q), CS_OK);
    ck_assert_double_eq_tol(q, 5.0, 1e-12);
    ck_assert_int_eq(cs_stat_sample_quantile(&s, 0.5, &q), CS_OK);
    ck_assert_double_eq_tol(q, 3.0, 1e-12);
    ck_assert_int_eq(cs_stat_sample_quantile(&s, 0.1, &q), CS_OK); /* h=0.4 */
    ck_assert_double_eq_tol(q, 1.4, 1e-12);
    ck_assert_int_eq(cs_stat_sample_quantile(&s, 0.95, &q), CS_OK); /* h=3.8 */
    ck_assert_double_eq_tol(q, 4.8, 1e-12);
    /* Adding after a quantile re-sorts: {0,1,2,3,4,5}, median h=2.5 -> 2.5. */
    cs_stat_sample_add(&s, 0.0);
    ck_assert_int_eq(cs_stat_sample_quantile(&s, 0.5, &q), CS_OK);
    ck_assert_double_eq_tol(q, 2.5, 1e-12);
    q = -1;
    ck_assert_int_eq(cs_stat_sample_quantile(&s, 1.5, &q), CS_EINVAL);
    ck_assert_int_eq(cs_stat_sample_quantile(&s, -0.1, &q), CS_EINVAL);
    ck_assert_int_eq(cs_stat_sample_quantile(&s, NAN, &q), CS_EINVAL);
    ck_assert_double_eq(q, -1);
    /* Growth past the initial capacity. */
    for (int i = 0; i < 1000; i++)
        cs_stat_sample_add(&s, 10.0);
    ck_assert_int_eq(cs_stat_sample_quantile(&s, 0.5, &q), CS_OK);
    ck_assert_double_eq_tol(q, 10.0, 1e-12);
    cs_stat_sample_fini(&s);
    cs_stat_sample_fini(&s); /* fini twice is harmless */
}
END_TEST

START_TEST(test_sim_stats_timeavg_by_hand)
{
    /* v = 0 on [0,2s), 4 on [2s,5s), 1 on [5s,10s]:
     * integral = 0*2 + 4*3 + 1*5 = 17 value*s; mean over 10 s = 1.7. */
    struct cs_stat_timeavg s;
    cs_stat_timeavg_init(&s, 0, 0.0);
    ck_assert_int_eq(cs_stat_timeavg_set(&s, 2 * CS_S, 4.0), CS_OK);
    ck_assert_int_eq(cs_stat_timeavg_set(&s, 5 * CS_S, 1.0), CS_OK);
    double m = -1, area = -1;
    ck_assert_int_eq(cs_stat_timeavg_mean(&s, 10 * CS_S, &m), CS_OK);
    ck_assert_double_eq_tol(m, 1.7, 1e-12);
    ck_assert_int_eq(cs_stat_timeavg_integral(&s, 10 * CS_S, &area), CS_OK);
    ck_assert_double_eq_tol(area, 17.0, 1e-12);
    /* Up to 4 s: 0*2 + 4*2 = 8 -> mean 2 over 4 s... but 4 s is before the
     * last set (5 s), so it is refused. */
    m = -1;
    ck_assert_int_eq(cs_stat_timeavg_mean(&s, 4 * CS_S, &m), CS_EINVAL);
    ck_assert_double_eq(m, -1);
    ck_assert_int_eq(cs_stat_timeavg_set(&s, 4 * CS_S, 3.0), CS_EINVAL);
    /* A repeated set at the same time replaces the value. */
    ck_assert_int_eq(cs_stat_timeavg_set(&s, 5 * CS_S, 2.0), CS_OK);
    ck_assert_int_eq(cs_stat_timeavg_mean(&s, 10 * CS_S, &m), CS_OK);
    ck_assert_double_eq_tol(m, 2.2, 1e-12); /* (12 + 2*5) / 10 */
    /* Empty window: the current value. Nonzero t0. */
    struct cs_stat_timeavg u;
    cs_stat_timeavg_init(&u, CS_HOUR, 0.75);
    ck_assert_int_eq(cs_stat_timeavg_mean(&u, CS_HOUR, &m), CS_OK);
    ck_assert_double_eq(m, 0.75);
    /* Utilization of a GPU busy 1 ns of every 3 ns, for 54 days' worth of
     * ticks in 1e6 updates: 1/3 to 12 digits despite the long run. */
    cs_time t = CS_HOUR;
    int bad = 0;
    for (int i = 0; i < 1000000; i++) {
        bad += cs_stat_timeavg_set(&u, t, 1.0) != CS_OK;
        t += 1;
        bad += cs_stat_timeavg_set(&u, t, 0.0) != CS_OK;
        t += 2;
    }
    ck_assert_int_eq(bad, 0);
    ck_assert_int_eq(cs_stat_timeavg_mean(&u, t, &m), CS_OK);
    ck_assert_double_eq_tol(m, 1.0 / 3.0, 1e-12);
}
END_TEST

START_TEST(test_sim_stats_histogram_bins)
{
    struct cs_stat_hist h;
    ck_assert_int_eq(cs_stat_hist_init(&h, 1.0, 1.0, 4), CS_EINVAL);
    ck_assert_ptr_null(h.bins);
    ck_assert_int_eq(cs_stat_hist_init(&h, 0.0, NAN, 4), CS_EINVAL);
    ck_assert_int_eq(cs_stat_hist_init(&h, 0.0, 1.0, 0), CS_EINVAL);
    cs_stat_hist_fini(&h);
    /* [0,10) in 5 bins of width 2. */
    ck_assert_int_eq(cs_stat_hist_init(&h, 0.0, 10.0, 5), CS_OK);
    const double xs[] = {-1, 0, 1.99, 2, 9.99, 10, NAN};
    for (int i = 0; i < 7; i++)
        cs_stat_hist_add(&h, xs[i]);
    ck_assert_uint_eq(h.count, 7);
    ck_assert_uint_eq(h.under, 1);
    ck_assert_uint_eq(h.over, 2);
    ck_assert_uint_eq(h.bins[0], 2);
    ck_assert_uint_eq(h.bins[1], 1);
    ck_assert_uint_eq(h.bins[2], 0);
    ck_assert_uint_eq(h.bins[4], 1);
    ck_assert_double_eq_tol(cs_stat_hist_edge(&h, 1), 2.0, 1e-12);
    ck_assert_double_eq(cs_stat_hist_edge(&h, 5), 10.0);
    cs_stat_hist_fini(&h);
}
END_TEST

/* A handler that schedules itself again forever: only a budget ends it. */
static void forever_handler(cs_engine *e, const struct cs_event *ev, void *ctx)
{
    (void)ctx;
    ck_assert_int_eq(cs_sim_schedule_in(e, 1, ev->handler, NULL, 0, NULL), CS_OK);
}

/* Issue 20 item 5: every simulation is bounded. An endless chain stops at
 * exactly max_events fired events with CS_EBUDGET, and a wall bound stops
 * it too; a run that ends by itself below the budget returns CS_OK. */
START_TEST(test_sim_budgets_stop_an_endless_simulation)
{
    cs_engine *e = cs_sim_create(1);
    int h = cs_sim_register(e, "forever", forever_handler, NULL);
    ck_assert_int_eq(cs_sim_schedule_at(e, 0, h, NULL, 0, NULL), CS_OK);
    cs_sim_set_limits(e, 1000, 0);
    ck_assert_int_eq(cs_sim_run(e, CS_SIM_FOREVER), CS_EBUDGET);
    ck_assert(cs_sim_over_budget(e));
    ck_assert_uint_eq(cs_sim_events_processed(e), 1000);
    ck_assert_int_eq(cs_sim_now(e), 999); /* events at 0, 1, ..., 999 */
    /* the budget counts since create/reset: a second run fires nothing */
    ck_assert_int_eq(cs_sim_run(e, CS_SIM_FOREVER), CS_EBUDGET);
    ck_assert_uint_eq(cs_sim_events_processed(e), 1000);
    /* a wall bound of 1 ms: stops after some events, well before 1e12 */
    cs_sim_set_limits(e, (uint64_t)1e12, 1e-3);
    ck_assert_int_eq(cs_sim_run(e, CS_SIM_FOREVER), CS_EBUDGET);
    ck_assert(cs_sim_events_processed(e) < (uint64_t)1e12);
    /* reset restores the defaults; a finite run is not over budget */
    cs_sim_reset(e, 1);
    struct toy_log log = {0};
    int ht = cs_sim_register(e, "toy", toy_handler, &log);
    ck_assert_int_eq(toy_schedule(e, ht, 5, 1, NULL), CS_OK);
    ck_assert_int_eq(cs_sim_run(e, CS_SIM_FOREVER), CS_OK);
    ck_assert(!cs_sim_over_budget(e));
    free(log.items);
    cs_sim_destroy(e);
}
END_TEST

static Suite *sim_suite(void)
{
    Suite *s = suite_create("sim");
    TCase *engine = tcase_create("engine");
    tcase_set_timeout(engine, 60);
    tcase_add_test(engine, test_sim_time_units_and_conversion);
    tcase_add_test(engine, test_sim_schedule_refuses_nan_and_negative_delays);
    tcase_add_test(engine, test_sim_random_schedule_cancel_matches_reference);
    tcase_add_test(engine, test_sim_queue_invariants_hold);
    tcase_add_test(engine, test_sim_fifo_for_equal_times);
    tcase_add_test(engine,
                   test_sim_fifo_events_scheduled_for_now_run_after_queued_ones);
    tcase_add_test(engine, test_sim_clock_never_goes_back);
    tcase_add_test(engine, test_sim_payload_copied_at_schedule_time);
    tcase_add_test(engine, test_sim_stale_cancel_returns_false);
    tcase_add_test(engine, test_sim_run_until_stops_at_the_right_time);
    tcase_add_test(engine, test_sim_stop_from_handler);
    tcase_add_test(engine, test_sim_register_is_bounded_and_checked);
    tcase_add_test(engine, test_sim_pool_grows_and_destroy_frees_pending);
    tcase_add_test(engine, test_sim_queue_keys_at_every_level_pop_in_order);
    tcase_add_test(engine, test_sim_queue_cancel_in_every_tier);
    tcase_add_test(engine, test_sim_queue_cancel_compaction_bounds_dead_keys);
    tcase_add_test(engine,
                   test_sim_handlers_schedule_now_later_and_cancel_at_any_density);
    tcase_add_test(engine, test_sim_equal_times_fifo_across_run_and_later_pushes);
    tcase_add_test(engine, test_sim_events_at_the_end_of_time);
    tcase_add_test(engine, test_sim_schedule_between_run_until_and_next_event);
    tcase_add_test(engine, test_sim_budgets_stop_an_endless_simulation);
    suite_add_tcase(s, engine);

    TCase *rng = tcase_create("rng");
    tcase_set_timeout(rng, 30);
    tcase_add_test(rng, test_sim_rng_streams_are_deterministic_and_independent);
    tcase_add_test(rng, test_sim_reset_reuses_engine);
    suite_add_tcase(s, rng);

    TCase *stats = tcase_create("stats");
    tcase_set_timeout(stats, 30);
    tcase_add_test(stats, test_sim_stats_online_by_hand);
    tcase_add_test(stats, test_sim_stats_sample_quantiles_by_hand);
    tcase_add_test(stats, test_sim_stats_timeavg_by_hand);
    tcase_add_test(stats, test_sim_stats_histogram_bins);
    suite_add_tcase(s, stats);
    return s;
}

int main(void) { return cs_test_run(sim_suite()); }
