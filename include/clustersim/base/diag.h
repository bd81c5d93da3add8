/* diag.h: a caller-owned list of diagnostics (file, line, column, severity,
 * message). Library code appends; only cli/ prints. Errors are capped so a
 * garbage input cannot produce an unbounded list: past the cap the list
 * remembers that it was truncated and stops growing. */
#ifndef CLUSTERSIM_DIAG_H
#define CLUSTERSIM_DIAG_H

#include <stdarg.h>
#include <stddef.h>

enum cs_severity { CS_SEV_ERROR, CS_SEV_WARNING, CS_SEV_NOTE };

struct cs_diag {
    char *file;  /* owned; may be NULL when the message has no file */
    int line;    /* 1-based; 0 when unknown */
    int col;     /* 1-based; 0 when unknown */
    enum cs_severity sev;
    char *msg;   /* owned */
};

typedef struct cs_diags {
    struct cs_diag *items;
    size_t n, cap;
    size_t n_errors;   /* errors added, including those dropped past the cap */
    size_t max_items;  /* cap; default CS_DIAGS_DEFAULT_MAX */
    int truncated;     /* nonzero once an item was dropped */
} cs_diags;

#define CS_DIAGS_DEFAULT_MAX 50

void cs_diags_init(cs_diags *d);
/* Frees every item; accepts an already-finalized or zeroed list. */
void cs_diags_fini(cs_diags *d);

/* Appends one diagnostic. `file` is copied (may be NULL). */
void cs_diag_add(cs_diags *d, enum cs_severity sev, const char *file, int line,
                 int col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;
void cs_diag_vadd(cs_diags *d, enum cs_severity sev, const char *file, int line,
                  int col, const char *fmt, va_list ap);

/* Shorthand for errors. */
#define cs_diag_error(d, file, line, col, ...) \
    cs_diag_add((d), CS_SEV_ERROR, (file), (line), (col), __VA_ARGS__)

size_t cs_diags_errors(const cs_diags *d);

/* The first error kept in d, or NULL when it holds none (warnings and
 * notes are skipped). Borrowed from d. */
const struct cs_diag *cs_diags_first_error(const cs_diags *d);

/* Formats one diagnostic as a compiler does: "file:line:col: error: msg".
 * Returns a heap string; caller frees. */
char *cs_diag_format(const struct cs_diag *dg);

const char *cs_severity_name(enum cs_severity sev);

#endif
