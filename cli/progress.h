/* progress.h: the progress line of the long commands (cli layer,
 * cli/progress.c): run's Monte Carlo, replay, sweep, plan, calibrate. One
 * line on standard error, redrawn in place ("\r"), at most
 * CS_CLI_PROGRESS_HZ times a second, with the count, the percentage, the
 * rate and an estimate of the time left; cleared when the work ends, so
 * what the command prints next starts on a clean line. Drawn only when
 * standard error is a terminal and --quiet was not given: a pipe, a file or
 * a CI log never sees it.
 *
 * The app and models layers do not print: they take a callback
 * (cs_cli_progress_cb and its adapters below, with the struct as context)
 * and call it with the work done so far. Callbacks may come from several
 * threads: the struct has its own lock. */
#ifndef CLUSTERSIM_CLI_PROGRESS_H
#define CLUSTERSIM_CLI_PROGRESS_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CS_CLI_PROGRESS_HZ 5

struct cs_cli_progress {
    bool on;              /* standard error is a terminal and not quiet */
    char label[64];       /* "replay", "run: replicas", ... */
    char unit[32];        /* "jobs", "replicas", ... */
    double t0, last;      /* monotonic seconds: start of the stage, last draw */
    bool drawn;           /* a line is on the terminal */
    int width;            /* characters of the line drawn (to clear it) */
    const char *stage;    /* cs_cli_progress_stage_cb: the stage being shown (borrowed) */
    uint64_t last_done;   /* a smaller count starts the rate and the estimate again (a new pass) */
    pthread_mutex_t mu;
};

/* Starts p: on when standard error is a terminal and !quiet. label names
 * the work ("replay"), unit what is counted ("jobs"). p needs no release:
 * its lock is a default mutex, for which glibc and musl hold no resource,
 * so it is never destroyed (a command may stop using p at any point);
 * cs_cli_progress_end clears the line and turns p off for good. */
void cs_cli_progress_init(struct cs_cli_progress *p, const char *label, const char *unit, bool quiet);
/* A new stage (another label and unit; the rate and the estimate start
 * again). The line of the old stage is cleared. */
void cs_cli_progress_stage(struct cs_cli_progress *p, const char *label, const char *unit);
/* done of total (total 0: unknown; a count and a rate, no estimate). The
 * first call draws, later ones at most CS_CLI_PROGRESS_HZ a second; done ==
 * total clears the line (the work is over; the next stage, if any, draws
 * its own). A done smaller than the last one is a new pass of the
 * same work (the second replay of a claim): the rate starts again.
 * Thread-safe. */
void cs_cli_progress_update(struct cs_cli_progress *p, uint64_t done, uint64_t total);
/* Clears the line (if one was drawn) and turns p off: later calls draw
 * nothing. */
void cs_cli_progress_end(struct cs_cli_progress *p);

/* Adapters for the callbacks of the lower layers; ctx is the struct. */
void cs_cli_progress_cb(void *ctx, uint64_t done, uint64_t total);        /* scheduler, run, sweep */
void cs_cli_progress_cb_size(size_t done, size_t total, void *ctx);       /* plan */
void cs_cli_progress_cb_int(int done, int total, void *ctx);              /* uncertainty */
/* A callback with a stage (calibrate): the stage names what is counted
 * ("nccl-tests runs"); one other than the last starts a new stage with it
 * as the unit (stage borrowed: a string literal; compared by address). */
void cs_cli_progress_stage_cb(void *ctx, const char *stage, uint64_t done, uint64_t total);

#endif
