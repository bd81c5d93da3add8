/* schema.c: the generic table-driven validator of schema.h (config layer).
 * catalog.c and scenario.c describe each YAML mapping as a table of
 * struct cs_field and call these functions, so that types, units, ranges
 * and "expected ..., got ..." messages are produced in exactly one place. */
#include "schema.h"

#include "clustersim/base/suggest.h"
#include "clustersim/base/xmalloc.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cs_cfg__error(cs_diags *d, const struct cs_ynode *at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cs_diag_vadd(d, CS_SEV_ERROR, at ? at->file : NULL, at ? at->line : 0, at ? at->col : 0,
                 fmt, ap);
    va_end(ap);
}

char *cs_cfg__path(const char *parent, const char *key)
{
    if (!parent || !*parent)
        return cs_xstrdup(key);
    return cs_xasprintf("%s.%s", parent, key);
}

void cs_cfg__show_text(const char *s, size_t len, char *buf, size_t n)
{
    const size_t maxshow = 40;
    size_t o = 0;
    if (n < 8) {
        if (n)
            buf[0] = '\0';
        return;
    }
    buf[o++] = '"';
    for (size_t i = 0; i < len && i < maxshow && o + 6 < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            buf[o++] = '\\';
            buf[o++] = (char)c;
        } else if (c >= 0x20 && c < 0x7f) {
            buf[o++] = (char)c;
        } else {
            o += (size_t)snprintf(buf + o, n - o, "\\x%02x", c);
        }
    }
    if (len > maxshow && o + 5 < n) {
        memcpy(buf + o, "...", 3);
        o += 3;
    }
    buf[o++] = '"';
    buf[o] = '\0';
}

void cs_cfg__show(const struct cs_ynode *v, char *buf, size_t n)
{
    if (!v) {
        snprintf(buf, n, "nothing");
    } else if (v->kind != CS_YNODE_SCALAR || cs_ynode_is_null(v)) {
        snprintf(buf, n, "%s", cs_ynode_describe(v));
    } else {
        cs_cfg__show_text(v->scalar, v->len, buf, n);
    }
}

/* "a bandwidth" -> "bandwidth". */
static const char *bare_kind_name(enum cs_unit_kind u)
{
    const char *s = cs_units_kind_name(u);
    if (strncmp(s, "a ", 2) == 0)
        return s + 2;
    if (strncmp(s, "an ", 3) == 0)
        return s + 3;
    return s;
}

/* What a field expects, for "expected X, got Y". */
static void expect_text(const struct cs_field *f, char *buf, size_t n)
{
    switch (f->type) {
    case CS_FT_INT:
    case CS_FT_LONG:
    case CS_FT_U64:
        snprintf(buf, n, "an integer");
        break;
    case CS_FT_QTY:
        snprintf(buf, n, "%s like \"%s\"", cs_units_kind_name(f->unit), cs_units_example(f->unit));
        break;
    case CS_FT_NUM:
        snprintf(buf, n, "a number");
        break;
    case CS_FT_BOOL:
        snprintf(buf, n, "true or false");
        break;
    case CS_FT_ENUM: {
        size_t o = (size_t)snprintf(buf, n, "one of ");
        for (size_t i = 0; f->names[i] && o < n; i++)
            o += (size_t)snprintf(buf + o, n - o, "%s%s", i ? ", " : "", f->names[i]);
        break;
    }
    case CS_FT_STR:
        snprintf(buf, n, "a string");
        break;
    case CS_FT_SUB:
        snprintf(buf, n, "a mapping");
        break;
    case CS_FT_CUSTOM:
        snprintf(buf, n, "a value");
        break;
    }
}

/* Strict decimal integer: [+-]digits, nothing else. */
static bool parse_ll(const char *s, long long *out)
{
    const char *p = s;
    if (*p == '+' || *p == '-')
        p++;
    if (!isdigit((unsigned char)*p))
        return false;
    for (const char *q = p; *q; q++)
        if (!isdigit((unsigned char)*q))
            return false;
    errno = 0;
    char *end;
    long long v = strtoll(s, &end, 10);
    if (errno == ERANGE || *end)
        return false;
    *out = v;
    return true;
}

static bool parse_u64(const char *s, uint64_t *out)
{
    const char *p = s;
    if (*p == '+')
        p++;
    if (!isdigit((unsigned char)*p))
        return false;
    for (const char *q = p; *q; q++)
        if (!isdigit((unsigned char)*q))
            return false;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(p, &end, 10);
    if (errno == ERANGE || *end)
        return false;
    *out = (uint64_t)v;
    return true;
}

/* Plain decimal number: digits, sign, '.', exponent; no nan/inf/hex. */
static bool parse_num(const char *s, double *out)
{
    if (!*s)
        return false;
    for (const char *q = s; *q; q++)
        if (!isdigit((unsigned char)*q) && !strchr("+-.eE", *q))
            return false;
    errno = 0;
    char *end;
    double v = strtod(s, &end);
    if (*end || end == s || !isfinite(v) || errno == ERANGE)
        return false;
    *out = v;
    return true;
}

bool cs_cfg__parse_bool(const char *s, bool *out)
{
    if (!strcmp(s, "true") || !strcmp(s, "True") || !strcmp(s, "TRUE")) {
        *out = true;
        return true;
    }
    if (!strcmp(s, "false") || !strcmp(s, "False") || !strcmp(s, "FALSE")) {
        *out = false;
        return true;
    }
    return false;
}

static bool in_range(const struct cs_field *f, double v)
{
    if (v < f->min || v > f->max)
        return false;
    if ((f->flags & CS_F_MINEXCL) && v == f->min)
        return false;
    return true;
}

/* The range part of a message about a double, naming the violated side:
 * "a positive bandwidth", "a duration of at most 100 y", ... */
static void range_text(const struct cs_field *f, double v, char *buf, size_t n)
{
    char bound[48];
    const char *what = f->type == CS_FT_QTY ? bare_kind_name(f->unit) : "number";
    bool low = v < f->min || ((f->flags & CS_F_MINEXCL) && v == f->min);
    double b = low ? f->min : f->max;
    if (f->type == CS_FT_QTY)
        cs_units_format(b, f->unit, bound, sizeof bound);
    else
        snprintf(bound, sizeof bound, "%.15g", b);
    if (low && f->min == 0)
        snprintf(buf, n, "a %s %s", (f->flags & CS_F_MINEXCL) ? "positive" : "non-negative", what);
    else if (low)
        snprintf(buf, n, "a %s %s %s", what, (f->flags & CS_F_MINEXCL) ? "above" : "of at least",
                 bound);
    else
        snprintf(buf, n, "a %s of at most %s", what, bound);
}

/* Parses text for f into a temporary; fills msg on failure. The value goes
 * to base only when everything is valid. */
static bool set_scalar(const struct cs_field *f, const char *text, void *base, char *msg,
                       size_t msglen, const char *shown)
{
    char *dst = (char *)base + f->offset;
    switch (f->type) {
    case CS_FT_INT:
    case CS_FT_LONG: {
        long long v;
        if (!parse_ll(text, &v) || (double)v < f->min || (double)v > f->max) {
            snprintf(msg, msglen, "expected an integer between %.0f and %.0f, got %s", f->min,
                     f->max, shown);
            return false;
        }
        if (f->type == CS_FT_INT) {
            int iv = (int)v;
            memcpy(dst, &iv, sizeof iv);
        } else {
            long lv = (long)v;
            memcpy(dst, &lv, sizeof lv);
        }
        return true;
    }
    case CS_FT_U64: {
        uint64_t v;
        if (!parse_u64(text, &v)) {
            snprintf(msg, msglen, "expected an integer between 0 and %" PRIu64 ", got %s",
                     UINT64_MAX, shown);
            return false;
        }
        memcpy(dst, &v, sizeof v);
        return true;
    }
    case CS_FT_QTY: {
        double v;
        char err[256];
        if (cs_units_parse(text, f->unit, &v, err, sizeof err) != CS_OK) {
            snprintf(msg, msglen, "%s", err);
            return false;
        }
        if (!isfinite(v)) {
            snprintf(msg, msglen, "expected a finite %s, got %s", bare_kind_name(f->unit), shown);
            return false;
        }
        if (!in_range(f, v)) {
            char r[160];
            range_text(f, v, r, sizeof r);
            snprintf(msg, msglen, "expected %s, got %s", r, shown);
            return false;
        }
        memcpy(dst, &v, sizeof v);
        return true;
    }
    case CS_FT_NUM: {
        double v;
        if (!parse_num(text, &v)) {
            snprintf(msg, msglen, "expected a finite number, got %s", shown);
            return false;
        }
        if (!in_range(f, v)) {
            char r[160];
            range_text(f, v, r, sizeof r);
            snprintf(msg, msglen, "expected %s, got %s", r, shown);
            return false;
        }
        memcpy(dst, &v, sizeof v);
        return true;
    }
    case CS_FT_BOOL: {
        bool b;
        if (!cs_cfg__parse_bool(text, &b)) {
            snprintf(msg, msglen, "expected true or false, got %s", shown);
            return false;
        }
        memcpy(dst, &b, sizeof b);
        return true;
    }
    case CS_FT_ENUM: {
        size_t count = 0;
        for (size_t i = 0; f->names[i]; i++, count++) {
            if (!strcmp(text, f->names[i])) {
                int iv = (int)i;
                memcpy(dst, &iv, sizeof iv);
                return true;
            }
        }
        char exp[256];
        expect_text(f, exp, sizeof exp);
        const char *sug = cs_suggest(text, (const char *const *)f->names, count);
        if (sug)
            snprintf(msg, msglen, "expected %s, got %s (did you mean \"%s\"?)", exp, shown, sug);
        else
            snprintf(msg, msglen, "expected %s, got %s", exp, shown);
        return false;
    }
    case CS_FT_STR: {
        size_t len = strlen(text);
        size_t maxlen = f->size - 1 < 256 ? f->size - 1 : 256;
        if (len > maxlen) {
            snprintf(msg, msglen, "expected a string of at most %zu characters, got %zu characters",
                     maxlen, len);
            return false;
        }
        memcpy(dst, text, len + 1);
        return true;
    }
    case CS_FT_SUB:
    case CS_FT_CUSTOM:
        break;
    }
    snprintf(msg, msglen, "internal error: field %s has no scalar type", f->key);
    return false;
}

bool cs_cfg__set(const struct cs_field *f, const struct cs_ynode *v, const char *path,
                 void *base, cs_diags *d)
{
    char exp[256], shown[128];
    cs_cfg__show(v, shown, sizeof shown);
    if (v->kind != CS_YNODE_SCALAR) {
        expect_text(f, exp, sizeof exp);
        cs_cfg__error(d, v, "%s: expected %s, got %s", path, exp, shown);
        return false;
    }
    if (cs_ynode_is_null(v)) {
        if (f->flags & CS_F_NULLABLE) {
            cs_cfg__unset(f, base);
            return true;
        }
        expect_text(f, exp, sizeof exp);
        cs_cfg__error(d, v, "%s: expected %s, got null", path, exp);
        return false;
    }
    if (strlen(v->scalar) != v->len) {
        expect_text(f, exp, sizeof exp);
        cs_cfg__error(d, v, "%s: expected %s, got a string with a NUL byte", path, exp);
        return false;
    }
    char msg[512];
    if (!set_scalar(f, v->scalar, base, msg, sizeof msg, shown)) {
        cs_cfg__error(d, v, "%s: %s", path, msg);
        return false;
    }
    return true;
}

bool cs_cfg__set_text(const struct cs_field *f, const char *text, void *base)
{
    char msg[512];
    if (!strcmp(text, "null") && (f->flags & CS_F_NULLABLE)) {
        cs_cfg__unset(f, base);
        return true;
    }
    return set_scalar(f, text, base, msg, sizeof msg, text);
}

void cs_cfg__unset(const struct cs_field *f, void *base)
{
    char *dst = (char *)base + f->offset;
    switch (f->type) {
    case CS_FT_INT:
    case CS_FT_ENUM: {
        int z = 0;
        memcpy(dst, &z, sizeof z);
        break;
    }
    case CS_FT_LONG: {
        long z = 0;
        memcpy(dst, &z, sizeof z);
        break;
    }
    case CS_FT_U64: {
        uint64_t z = 0;
        memcpy(dst, &z, sizeof z);
        break;
    }
    case CS_FT_QTY:
    case CS_FT_NUM: {
        double z = NAN;
        memcpy(dst, &z, sizeof z);
        break;
    }
    case CS_FT_BOOL: {
        bool z = false;
        memcpy(dst, &z, sizeof z);
        break;
    }
    case CS_FT_STR:
        dst[0] = '\0';
        break;
    case CS_FT_SUB:
    case CS_FT_CUSTOM:
        break;
    }
}

const struct cs_field *cs_cfg__find(const struct cs_field *t, size_t n, const char *key)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(t[i].key, key))
            return &t[i];
    return NULL;
}

void cs_cfg__unknown_key(cs_diags *d, const struct cs_ynode *key, const char *parent,
                         const struct cs_field *t, size_t n, const char *const *extra)
{
    size_t ne = 0;
    while (extra && extra[ne])
        ne++;
    const char **cand = cs_xcalloc(n + ne + 1, sizeof *cand);
    for (size_t i = 0; i < n; i++)
        cand[i] = t[i].key;
    for (size_t i = 0; i < ne; i++)
        cand[n + i] = extra[i];
    char shown[128];
    cs_cfg__show_text(key->scalar, key->len, shown, sizeof shown);
    /* Show the key bare when it is printable and short, quoted otherwise. */
    bool bare = key->len <= 40 && strlen(key->scalar) == key->len;
    for (size_t i = 0; bare && i < key->len; i++)
        if (!isgraph((unsigned char)key->scalar[i]))
            bare = false;
    const char *sug = strlen(key->scalar) == key->len ? cs_suggest(key->scalar, cand, n + ne)
                                                     : NULL;
    char what[160];
    if (bare)
        snprintf(what, sizeof what, "%s%s%s", parent && *parent ? parent : "",
                 parent && *parent ? "." : "", key->scalar);
    else
        snprintf(what, sizeof what, "%s%s%s", parent && *parent ? parent : "",
                 parent && *parent ? "." : "", shown);
    if (sug)
        cs_cfg__error(d, key, "%s: unknown key (did you mean \"%s\"?)", what, sug);
    else
        cs_cfg__error(d, key, "%s: unknown key", what);
    free(cand);
}

char *cs_cfg__format(const struct cs_field *f, const void *base)
{
    const char *src = (const char *)base + f->offset;
    char buf[96];
    switch (f->type) {
    case CS_FT_INT: {
        int v;
        memcpy(&v, src, sizeof v);
        return cs_xasprintf("%d", v);
    }
    case CS_FT_LONG: {
        long v;
        memcpy(&v, src, sizeof v);
        return cs_xasprintf("%ld", v);
    }
    case CS_FT_U64: {
        uint64_t v;
        memcpy(&v, src, sizeof v);
        return cs_xasprintf("%" PRIu64, v);
    }
    case CS_FT_QTY: {
        double v;
        memcpy(&v, src, sizeof v);
        if (isnan(v))
            return cs_xstrdup("null");
        return cs_xstrdup(cs_units_format(v, f->unit, buf, sizeof buf));
    }
    case CS_FT_NUM: {
        double v;
        memcpy(&v, src, sizeof v);
        if (isnan(v))
            return cs_xstrdup("null");
        return cs_xasprintf("%.6g", v);
    }
    case CS_FT_BOOL: {
        bool v;
        memcpy(&v, src, sizeof v);
        return cs_xstrdup(v ? "true" : "false");
    }
    case CS_FT_ENUM: {
        int v;
        memcpy(&v, src, sizeof v);
        for (int i = 0; f->names[i]; i++)
            if (i == v)
                return cs_xstrdup(f->names[i]);
        return cs_xstrdup("?");
    }
    case CS_FT_STR:
        return cs_xstrdup(src);
    case CS_FT_SUB:
    case CS_FT_CUSTOM:
        break;
    }
    return cs_xstrdup("");
}
