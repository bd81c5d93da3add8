/* table.c: aligned text tables (report layer). */
#include "clustersim/report/table.h"

#include "clustersim/base/xmalloc.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

struct cs_table {
    int ncols;
    char **headers;
    int *right;
    char ***rows;
    size_t nrows, cap;
};

cs_table *cs_table_create(int ncols, const char *const *headers)
{
    cs_table *t = cs_xcalloc(1, sizeof *t);
    t->ncols = ncols;
    t->headers = cs_xcalloc((size_t)ncols, sizeof *t->headers);
    t->right = cs_xcalloc((size_t)ncols, sizeof *t->right);
    for (int c = 0; c < ncols; c++) {
        const char *h = headers[c] ? headers[c] : "";
        if (h[0] == '>') {
            t->right[c] = 1;
            h++;
        }
        t->headers[c] = cs_xstrdup(h);
    }
    return t;
}

void cs_table_destroy(cs_table *t)
{
    if (!t)
        return;
    for (size_t r = 0; r < t->nrows; r++) {
        for (int c = 0; c < t->ncols; c++)
            free(t->rows[r][c]);
        free(t->rows[r]);
    }
    for (int c = 0; c < t->ncols; c++)
        free(t->headers[c]);
    free(t->rows);
    free(t->headers);
    free(t->right);
    free(t);
}

void cs_table_add_row(cs_table *t, const char *const *cells)
{
    if (t->nrows == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 16;
        t->rows = cs_xrealloc(t->rows, t->cap, sizeof *t->rows);
    }
    char **row = cs_xcalloc((size_t)t->ncols, sizeof *row);
    for (int c = 0; c < t->ncols; c++)
        row[c] = cs_xstrdup(cells[c] ? cells[c] : "");
    t->rows[t->nrows++] = row;
}

void cs_table_add_rowf(cs_table *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *line = cs_xmalloc(n > 0 ? (size_t)n + 1 : 1);
    vsnprintf(line, n > 0 ? (size_t)n + 1 : 1, fmt, ap2);
    va_end(ap2);
    const char **cells = cs_xcalloc((size_t)t->ncols, sizeof *cells);
    char *p = line;
    for (int c = 0; c < t->ncols; c++) {
        cells[c] = p ? p : "";
        if (p) {
            char *tab = strchr(p, '\t');
            if (tab) {
                *tab = '\0';
                p = tab + 1;
            } else {
                p = NULL;
            }
        }
    }
    cs_table_add_row(t, cells);
    free(cells);
    free(line);
}

void cs_table_write(const cs_table *t, FILE *out, int indent)
{
    size_t *w = cs_xcalloc((size_t)t->ncols, sizeof *w);
    for (int c = 0; c < t->ncols; c++) {
        w[c] = strlen(t->headers[c]);
        for (size_t r = 0; r < t->nrows; r++) {
            size_t l = strlen(t->rows[r][c]);
            if (l > w[c])
                w[c] = l;
        }
    }
    size_t total = 0;
    for (int c = 0; c < t->ncols; c++)
        total += w[c] + (c ? 2 : 0);
    for (int pass = -2; pass < (int)t->nrows; pass++) {
        fprintf(out, "%*s", indent, "");
        if (pass == -1) {
            for (size_t i = 0; i < total; i++)
                fputc('-', out);
            fputc('\n', out);
            continue;
        }
        for (int c = 0; c < t->ncols; c++) {
            const char *s = pass == -2 ? t->headers[c] : t->rows[pass][c];
            int last = c == t->ncols - 1;
            if (t->right[c])
                fprintf(out, "%s%*s", c ? "  " : "", (int)w[c], s);
            else if (last)
                fprintf(out, "%s%s", c ? "  " : "", s);
            else
                fprintf(out, "%s%-*s", c ? "  " : "", (int)w[c], s);
        }
        fputc('\n', out);
    }
    free(w);
}
