/* progress.c: the progress line of the long commands (contract in
 * cli/progress.h). */
#define _POSIX_C_SOURCE 200809L
#include "progress.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double cs__now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void cs__set(struct cs_cli_progress *p, const char *label, const char *unit)
{
    char l[sizeof p->label], u[sizeof p->unit]; /* label or unit may be p's own */
    snprintf(l, sizeof l, "%s", label ? label : "");
    snprintf(u, sizeof u, "%s", unit ? unit : "");
    memcpy(p->label, l, sizeof l);
    memcpy(p->unit, u, sizeof u);
    p->t0 = cs__now();
    p->last = -1;
    p->last_done = 0;
}

/* The time left, as coarse as an estimate deserves: whole seconds under
 * 90 s, then minutes, then hours. */
static void cs__eta(double s, char *buf, size_t n)
{
    if (s < 90)
        snprintf(buf, n, "%.0f s", s);
    else if (s < 5400)
        snprintf(buf, n, "%.1f min", s / 60);
    else
        snprintf(buf, n, "%.1f h", s / 3600);
}

/* Erases the line drawn (spaces over it, then back to its start). Caller
 * holds the lock. */
static void cs__clear(struct cs_cli_progress *p)
{
    if (!p->drawn)
        return;
    fprintf(stderr, "\r%*s\r", p->width, "");
    fflush(stderr);
    p->drawn = false;
    p->width = 0;
}

void cs_cli_progress_init(struct cs_cli_progress *p, const char *label, const char *unit, bool quiet)
{
    memset(p, 0, sizeof *p);
    pthread_mutex_init(&p->mu, NULL);
    p->on = !quiet && isatty(STDERR_FILENO);
    cs__set(p, label, unit);
}

void cs_cli_progress_stage(struct cs_cli_progress *p, const char *label, const char *unit)
{
    pthread_mutex_lock(&p->mu);
    cs__clear(p);
    cs__set(p, label, unit);
    pthread_mutex_unlock(&p->mu);
}

void cs_cli_progress_update(struct cs_cli_progress *p, uint64_t done, uint64_t total)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    if (!p->on) {
        pthread_mutex_unlock(&p->mu);
        return;
    }
    double now = cs__now();
    if (done < p->last_done)
        p->t0 = now;
    p->last_done = done;
    bool first = p->last < 0, end = total > 0 && done >= total;
    if (first)
        p->t0 = now; /* the rate counts from the first report: setup before it is not the work's */
    if (!first && !end && now - p->last < 1.0 / CS_CLI_PROGRESS_HZ) {
        pthread_mutex_unlock(&p->mu);
        return;
    }
    p->last = now;
    if (end) {
        /* the work is done: clear the line, so that what the command
         * prints next (diagnostics, the report) starts clean */
        cs__clear(p);
        pthread_mutex_unlock(&p->mu);
        return;
    }
    double el = now - p->t0, rate = el > 0 ? (double)done / el : 0;
    char line[160], rs[32], eta[32];
    if (rate >= 100)
        snprintf(rs, sizeof rs, "%.0f", rate);
    else
        snprintf(rs, sizeof rs, "%.3g", rate);
    int n;
    if (total > 0) {
        double frac = (double)done / (double)total;
        if (frac > 1)
            frac = 1;
        char bar[21];
        int fill = (int)(20 * frac);
        for (int i = 0; i < 20; i++)
            bar[i] = i < fill ? '#' : '.';
        bar[20] = '\0';
        if (rate > 0 && done > 0 && done < total)
            cs__eta((double)(total - done) / rate, eta, sizeof eta);
        else
            snprintf(eta, sizeof eta, done >= total ? "0 s" : "-");
        n = snprintf(line, sizeof line, "%s: [%s] %llu/%llu %s %3.0f%%  %s/s  ETA %s", p->label, bar,
                     (unsigned long long)done, (unsigned long long)total, p->unit, 100 * frac, rs, eta);
    } else {
        n = snprintf(line, sizeof line, "%s: %llu %s  %s/s", p->label, (unsigned long long)done, p->unit, rs);
    }
    if (n < 0)
        n = 0;
    if (n >= (int)sizeof line)
        n = (int)sizeof line - 1;
    /* pad over a longer previous line */
    fprintf(stderr, "\r%s%*s", line, p->width > n ? p->width - n : 0, "");
    fflush(stderr);
    if (n > p->width)
        p->width = n;
    p->drawn = true;
    pthread_mutex_unlock(&p->mu);
}

void cs_cli_progress_end(struct cs_cli_progress *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    cs__clear(p);
    p->on = false;
    pthread_mutex_unlock(&p->mu);
}

void cs_cli_progress_cb(void *ctx, uint64_t done, uint64_t total)
{
    cs_cli_progress_update(ctx, done, total);
}

void cs_cli_progress_cb_size(size_t done, size_t total, void *ctx)
{
    cs_cli_progress_update(ctx, (uint64_t)done, (uint64_t)total);
}

void cs_cli_progress_cb_int(int done, int total, void *ctx)
{
    cs_cli_progress_update(ctx, done > 0 ? (uint64_t)done : 0, total > 0 ? (uint64_t)total : 0);
}

void cs_cli_progress_stage_cb(void *ctx, const char *stage, uint64_t done, uint64_t total)
{
    struct cs_cli_progress *p = ctx;
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    bool changed = p->on && stage != p->stage;
    if (changed)
        p->stage = stage;
    char label[sizeof p->label];
    memcpy(label, p->label, sizeof label);
    pthread_mutex_unlock(&p->mu);
    if (changed)
        cs_cli_progress_stage(p, label, stage);
    cs_cli_progress_update(p, done, total);
}
