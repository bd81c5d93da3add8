#define _POSIX_C_SOURCE 200809L /* strnlen */
/* jobs.c: the job list that traces are read into and the scheduler replays
 * (models layer): an interned string table and a growing array of jobs. */
#include "clustersim/models/jobs.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "clustersim/base/xmalloc.h"

static const char *const cs__fmt_names[CS_TRACE_FORMAT_COUNT] = {
    "auto", "native", "itp", "openb", "helios", "acme", "pai", "philly"};

const char *cs_trace_format_name(enum cs_trace_format f)
{
    return (unsigned)f < CS_TRACE_FORMAT_COUNT ? cs__fmt_names[f] : "?";
}

/* ------------------------------------------------------------------------ */
/* String table.                                                             */

static uint64_t cs__fnv(const char *s, size_t len)
{
    uint64_t h = 1469598103934665603ULL;  /* FNV-1a 64-bit offset basis */
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211ULL;
    }
    return h;
}

void cs_strtab_init(struct cs_strtab *t) { memset(t, 0, sizeof *t); }

void cs_strtab_fini(struct cs_strtab *t)
{
    for (size_t i = 0; i < t->n; i++)
        free(t->names[i]);
    free(t->names);
    free(t->slots);
    memset(t, 0, sizeof *t);
}

static void cs__strtab_rehash(struct cs_strtab *t, size_t nslots)
{
    free(t->slots);
    t->slots = cs_xmalloc(nslots * sizeof *t->slots);
    for (size_t i = 0; i < nslots; i++)
        t->slots[i] = -1;
    t->nslots = nslots;
    for (size_t i = 0; i < t->n; i++) {
        size_t k = (size_t)(cs__fnv(t->names[i], strlen(t->names[i])) & (nslots - 1));
        while (t->slots[k] >= 0)
            k = (k + 1) & (nslots - 1);
        t->slots[k] = (int)i;
    }
}

int cs_strtab_intern(struct cs_strtab *t, const char *s, size_t len)
{
    if (t->nslots == 0)
        cs__strtab_rehash(t, 64);
    size_t k = (size_t)(cs__fnv(s, len) & (t->nslots - 1));
    while (t->slots[k] >= 0) {
        /* memcmp after a bounded length check: `s` is `len` bytes that
         * may hold a NUL, so strncmp could stop early on a shorter name and
         * nm[len] read past it. */
        const char *nm = t->names[t->slots[k]];
        if (strnlen(nm, len + 1) == len && memcmp(nm, s, len) == 0)
            return t->slots[k];
        k = (k + 1) & (t->nslots - 1);
    }
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 16;
        t->names = cs_xrealloc(t->names, t->cap, sizeof *t->names);
    }
    int idx = (int)t->n;
    t->names[t->n++] = cs_xstrndup(s, len);
    if (2 * t->n > t->nslots)
        cs__strtab_rehash(t, 2 * t->nslots);
    else
        t->slots[k] = idx;
    return idx;
}

int cs_strtab_find(const struct cs_strtab *t, const char *s)
{
    if (!s || t->nslots == 0)
        return -1;
    size_t len = strlen(s);
    size_t k = (size_t)(cs__fnv(s, len) & (t->nslots - 1));
    while (t->slots[k] >= 0) {
        if (strcmp(t->names[t->slots[k]], s) == 0)
            return t->slots[k];
        k = (k + 1) & (t->nslots - 1);
    }
    return -1;
}

/* ------------------------------------------------------------------------ */
/* Trace object.                                                             */

void cs_trace_init(struct cs_trace *t)
{
    memset(t, 0, sizeof *t);
    cs_strtab_init(&t->users);
    cs_strtab_init(&t->partitions);
    cs_strtab_init(&t->gpu_types);
    cs_strtab_init(&t->workloads);
}

void cs_trace_fini(struct cs_trace *t)
{
    free(t->file);
    free(t->jobs);
    cs_strtab_fini(&t->users);
    cs_strtab_fini(&t->partitions);
    cs_strtab_fini(&t->gpu_types);
    cs_strtab_fini(&t->workloads);
    memset(t, 0, sizeof *t);
}

void cs_trace_add(struct cs_trace *t, const struct cs_trace_job *j)
{
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 1024;
        t->jobs = cs_xrealloc(t->jobs, t->cap, sizeof *t->jobs);
    }
    t->jobs[t->n++] = *j;
}

double cs_trace_gpu_hours(const struct cs_trace *t)
{
    double s = 0, c = 0;  /* Neumaier summation: 100k terms of mixed size */
    for (size_t i = 0; i < t->n; i++) {
        double x = t->jobs[i].gpus * t->jobs[i].duration_s, u = s + x;
        c += fabs(s) >= fabs(x) ? (s - u) + x : (x - u) + s;
        s = u;
    }
    return (s + c) / 3600.0;
}

