/* xmalloc.c: aborting allocation wrappers. Out-of-memory is not recoverable
 * in a simulator; we say so on stderr and abort (the only print in the
 * library, because there is nobody left to return to). */
#include "clustersim/base/xmalloc.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void cs__oom(size_t n)
{
    fprintf(stderr, "clustersim: out of memory allocating %zu bytes\n", n);
    abort();
}

void *cs_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        cs__oom(n);
    return p;
}

void *cs_xcalloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p)
        cs__oom(count * size);
    return p;
}

void *cs_xrealloc(void *p, size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size)
        cs__oom(SIZE_MAX);
    size_t n = count * size;
    void *q = realloc(p, n ? n : 1);
    if (!q)
        cs__oom(n);
    return q;
}

char *cs_xstrdup(const char *s)
{
    if (!s)
        return NULL;
    return cs_xstrndup(s, strlen(s));
}

char *cs_xstrndup(const char *s, size_t n)
{
    if (!s)
        return NULL;
    size_t len = 0;
    while (len < n && s[len] != '\0')
        len++;
    char *p = cs_xmalloc(len + 1);
    memcpy(p, s, len);
    p[len] = '\0';
    return p;
}

char *cs_xasprintf(const char *fmt, ...)
{
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        n = 0;
    char *p = cs_xmalloc((size_t)n + 1);
    vsnprintf(p, (size_t)n + 1, fmt, ap2);
    va_end(ap2);
    return p;
}
