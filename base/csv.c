/* csv.c: the CSV line splitter (csv.h). */
#include "clustersim/base/csv.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static bool cs__blank(char c)
{
    return c == ' ' || c == '\t';
}

int cs_csv_split(const char *line, size_t len, struct cs_csv_field *f, int max, int *bad_col)
{
    int n = 0;
    size_t i = 0;
    for (;;) {
        while (i < len && cs__blank(line[i]))
            i++;
        if (n == max) {
            if (bad_col)
                *bad_col = (int)i + 1;
            return -1;
        }
        f[n].col = (int)i + 1;
        f[n].quoted = false;
        if (i < len && line[i] == '"') {
            size_t j = i + 1;
            for (;;) {
                if (j >= len) {
                    if (bad_col)
                        *bad_col = f[n].col;
                    return -2;
                }
                if (line[j] == '"' && j + 1 < len && line[j + 1] == '"')
                    j += 2;
                else if (line[j] == '"')
                    break;
                else
                    j++;
            }
            f[n].s = line + i + 1;
            f[n].len = j - i - 1;
            f[n].quoted = true;
            i = j + 1;
            while (i < len && cs__blank(line[i]))
                i++;
            if (i < len && line[i] != ',') {
                if (bad_col)
                    *bad_col = (int)i + 1;
                return -2;
            }
        } else {
            size_t start = i;
            while (i < len && line[i] != ',')
                i++;
            size_t e = i;
            while (e > start && cs__blank(line[e - 1]))
                e--;
            f[n].s = line + start;
            f[n].len = e - start;
        }
        n++;
        if (i >= len)
            return n;
        i++;  /* the comma */
    }
}

size_t cs_csv_field_copy(const struct cs_csv_field *f, char *buf, size_t cap)
{
    size_t o = 0;
    for (size_t i = 0; i < f->len; i++) {
        if (f->quoted && f->s[i] == '"' && i + 1 < f->len && f->s[i + 1] == '"')
            i++;
        if (cap > 0 && o + 1 < cap)
            buf[o] = f->s[i];
        o++;
    }
    if (cap > 0)
        buf[o < cap ? o : cap - 1] = '\0';
    return o;
}

int cs_csv_split_inplace(char *line, char **fields, int *cols, int max, int *bad_col)
{
    enum { CS__MAX = 256 };
    struct cs_csv_field f[CS__MAX];
    int lim = max < CS__MAX ? max : CS__MAX;
    int n = cs_csv_split(line, strlen(line), f, lim, bad_col);
    if (n < 0)
        return n;
    for (int k = 0; k < n; k++) {
        /* The unescaped content is never longer than the field, so writing
         * it where the field starts (and a NUL after it, at most on the
         * closing quote or the comma) never reaches the next field. */
        char *dst = line + (f[k].s - line);
        size_t o = 0;
        for (size_t i = 0; i < f[k].len; i++) {
            if (f[k].quoted && f[k].s[i] == '"' && i + 1 < f[k].len && f[k].s[i + 1] == '"')
                i++;
            dst[o++] = f[k].s[i];
        }
        dst[o] = '\0';
        fields[k] = dst;
        if (cols)
            cols[k] = f[k].col;
    }
    return n;
}

/* A whole decimal number (strtod's syntax less hex, inf and nan). */
static bool cs__is_number(const char *s)
{
    const char *p = s;
    if (*p == '+' || *p == '-')
        p++;
    bool digits = false;
    while (*p >= '0' && *p <= '9')
        p++, digits = true;
    if (*p == '.')
        for (p++; *p >= '0' && *p <= '9'; p++)
            digits = true;
    if (!digits)
        return false;
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-')
            p++;
        if (!(*p >= '0' && *p <= '9'))
            return false;
        while (*p >= '0' && *p <= '9')
            p++;
    }
    return *p == '\0';
}

bool cs_csv_is_formula(const char *s)
{
    if (!s || !*s)
        return false;
    if (*s == '\t' || *s == '\r' || *s == '=' || *s == '@')
        return true;
    /* "-" alone is the placeholder several tables print for "none", and no
     * formula (a spreadsheet keeps a lone sign as text). */
    return (*s == '+' || *s == '-') && s[1] != '\0' && !cs__is_number(s);
}

void cs_csv_text(struct cs_strbuf *b, const char *s, bool always_quote)
{
    if (!s)
        s = "";
    size_t n = strlen(s);
    bool formula = cs_csv_is_formula(s);
    bool quote = always_quote || formula || strpbrk(s, ",\"\r\n") != NULL ||
                 (n > 0 && (cs__blank(s[0]) || cs__blank(s[n - 1])));
    if (!quote) {
        cs_strbuf_putn(b, s, n);
        return;
    }
    cs_strbuf_putn(b, "\"", 1);
    if (formula)
        cs_strbuf_putn(b, "'", 1);
    for (const char *p = s; *p; p++) {
        if (*p == '"')
            cs_strbuf_putn(b, "\"", 1);
        cs_strbuf_putn(b, p, 1);
    }
    cs_strbuf_putn(b, "\"", 1);
}

void cs_csv_fput_text(FILE *f, const char *s, bool always_quote)
{
    struct cs_strbuf b = {0};
    cs_csv_text(&b, s, always_quote);
    if (b.s)
        fwrite(b.s, 1, b.n, f);
    free(b.s);
}
