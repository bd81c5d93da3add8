/* strbuf.c: a growing string (see strbuf.h). */
#include "clustersim/base/strbuf.h"

#include "clustersim/base/xmalloc.h"

#include <string.h>

void cs_strbuf_putn(struct cs_strbuf *b, const char *s, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        size_t c = b->cap ? b->cap : 64;
        while (c < b->n + n + 1)
            c *= 2;
        b->s = cs_xrealloc(b->s, c, 1);
        b->cap = c;
    }
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = '\0';
}

void cs_strbuf_puts(struct cs_strbuf *b, const char *s)
{
    cs_strbuf_putn(b, s, strlen(s));
}

void cs_text_line_col(const char *buf, size_t off, int *line, int *col)
{
    int l = 1, c = 1;
    for (size_t i = 0; i < off; i++) {
        if (buf[i] == '\n') {
            l++;
            c = 1;
        } else {
            c++;
        }
    }
    *line = l;
    *col = c;
}
