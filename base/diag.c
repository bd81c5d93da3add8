/* diag.c: the diagnostics list (see diag.h). */
#include "clustersim/base/diag.h"

#include "clustersim/base/xmalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cs_diags_init(cs_diags *d)
{
    memset(d, 0, sizeof *d);
    d->max_items = CS_DIAGS_DEFAULT_MAX;
}

void cs_diags_fini(cs_diags *d)
{
    if (!d)
        return;
    for (size_t i = 0; i < d->n; i++) {
        free(d->items[i].file);
        free(d->items[i].msg);
    }
    free(d->items);
    d->items = NULL;
    d->n = d->cap = 0;
    d->n_errors = 0;
    d->truncated = 0;
}

void cs_diag_vadd(cs_diags *d, enum cs_severity sev, const char *file, int line,
                  int col, const char *fmt, va_list ap)
{
    if (sev == CS_SEV_ERROR)
        d->n_errors++;
    size_t max = d->max_items ? d->max_items : CS_DIAGS_DEFAULT_MAX;
    if (d->n >= max) {
        d->truncated = 1;
        return;
    }
    if (d->n == d->cap) {
        d->cap = d->cap ? d->cap * 2 : 8;
        d->items = cs_xrealloc(d->items, d->cap, sizeof *d->items);
    }
    va_list ap2;
    va_copy(ap2, ap);
    int len = vsnprintf(NULL, 0, fmt, ap);
    if (len < 0)
        len = 0;
    char *msg = cs_xmalloc((size_t)len + 1);
    vsnprintf(msg, (size_t)len + 1, fmt, ap2);
    va_end(ap2);
    struct cs_diag *dg = &d->items[d->n++];
    dg->file = cs_xstrdup(file);
    dg->line = line;
    dg->col = col;
    dg->sev = sev;
    dg->msg = msg;
}

void cs_diag_add(cs_diags *d, enum cs_severity sev, const char *file, int line,
                 int col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cs_diag_vadd(d, sev, file, line, col, fmt, ap);
    va_end(ap);
}

size_t cs_diags_errors(const cs_diags *d) { return d->n_errors; }

const struct cs_diag *cs_diags_first_error(const cs_diags *d)
{
    for (size_t i = 0; i < d->n; i++)
        if (d->items[i].sev == CS_SEV_ERROR)
            return &d->items[i];
    return NULL;
}

const char *cs_severity_name(enum cs_severity sev)
{
    switch (sev) {
    case CS_SEV_ERROR: return "error";
    case CS_SEV_WARNING: return "warning";
    case CS_SEV_NOTE: return "note";
    }
    return "error";
}

char *cs_diag_format(const struct cs_diag *dg)
{
    const char *sev = cs_severity_name(dg->sev);
    if (dg->file && dg->line > 0 && dg->col > 0)
        return cs_xasprintf("%s:%d:%d: %s: %s", dg->file, dg->line, dg->col, sev, dg->msg);
    if (dg->file && dg->line > 0)
        return cs_xasprintf("%s:%d: %s: %s", dg->file, dg->line, sev, dg->msg);
    if (dg->file)
        return cs_xasprintf("%s: %s: %s", dg->file, sev, dg->msg);
    return cs_xasprintf("%s: %s", sev, dg->msg);
}
