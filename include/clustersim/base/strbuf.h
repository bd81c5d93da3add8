/* strbuf.h: a growing NUL-terminated string (base utility, base/strbuf.c).
 * Zero-initialize (`struct cs_strbuf b = {0};`), append, then free(b.s).
 * Also small text helpers the readers share. */
#ifndef CLUSTERSIM_STRBUF_H
#define CLUSTERSIM_STRBUF_H

#include <stddef.h>

struct cs_strbuf {
    char *s;      /* owned; NULL until the first append */
    size_t n;     /* bytes in use, not counting the NUL */
    size_t cap;
};

/* Appends n bytes of s (amortized O(n); aborts on out-of-memory). */
void cs_strbuf_putn(struct cs_strbuf *b, const char *s, size_t n);
/* Appends the NUL-terminated s. */
void cs_strbuf_puts(struct cs_strbuf *b, const char *s);

/* 1-based line and column (in bytes) of byte offset `off` of buf, for
 * diagnostics of parsers that work on a whole buffer (cJSON's error
 * pointer, a scanned token). O(off). */
void cs_text_line_col(const char *buf, size_t off, int *line, int *col);

#endif
