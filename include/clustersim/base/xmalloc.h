/* xmalloc.h: allocation wrappers that abort with a message on out-of-memory.
 * Callers never check their result for NULL. Inputs that would need absurd
 * memory are refused by validation before any allocation happens. */
#ifndef CLUSTERSIM_XMALLOC_H
#define CLUSTERSIM_XMALLOC_H

#include <stddef.h>

void *cs_xmalloc(size_t n);
void *cs_xcalloc(size_t count, size_t size);
/* Overflow-checked count * size reallocation. */
void *cs_xrealloc(void *p, size_t count, size_t size);
/* Returns a heap copy of s (NULL stays NULL); caller frees with free(). */
char *cs_xstrdup(const char *s);
char *cs_xstrndup(const char *s, size_t n);
/* printf into a fresh heap string; caller frees with free(). */
char *cs_xasprintf(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

#endif
