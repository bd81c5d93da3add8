/* strbuf.h: a growing NUL-terminated string (base utility, sim/strbuf.c).
 * Zero-initialize (`struct cs_strbuf b = {0};`), append, then free(b.s). */
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

#endif
