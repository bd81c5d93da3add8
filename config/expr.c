/* expr.c: the arithmetic evaluator of derive: and constraints: (config
 * layer; grammar and contract in clustersim/config/expr.h). A recursive
 * descent parser that evaluates while it parses: one function per
 * precedence level, the first error wins and later ones are ignored. */
#include "clustersim/config/expr.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

struct ev {
    const char *s, *p;
    cs_expr_lookup_fn lookup;
    void *ctx;
    char *err;
    size_t errlen;
    bool failed;
    int depth;
};

static void ev_fail(struct ev *e, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void ev_fail(struct ev *e, const char *fmt, ...)
{
    if (e->failed)
        return;
    e->failed = true;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->err, e->errlen, fmt, ap);
    va_end(ap);
}

static void ev_ws(struct ev *e)
{
    while (*e->p == ' ' || *e->p == '\t')
        e->p++;
}

static bool ev_is_ident_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool ev_is_ident(char c) { return ev_is_ident_start(c) || (c >= '0' && c <= '9') || c == '.'; }

static double ev_or(struct ev *e);

static double ev_primary(struct ev *e)
{
    ev_ws(e);
    if (e->failed)
        return 0;
    if (++e->depth > 64) {
        ev_fail(e, "expression nested too deeply (more than 64 levels)");
        return 0;
    }
    double v = 0;
    char c = *e->p;
    if (c == '(') {
        e->p++;
        v = ev_or(e);
        ev_ws(e);
        if (*e->p != ')')
            ev_fail(e, "expected ')' at column %d", (int)(e->p - e->s) + 1);
        else
            e->p++;
    } else if (c == '-' || c == '+') {
        e->p++;
        v = ev_primary(e);
        if (c == '-')
            v = -v;
    } else if (c == '!') {
        e->p++;
        v = ev_primary(e) == 0 ? 1 : 0;
    } else if ((c >= '0' && c <= '9') || c == '.') {
        char *end;
        errno = 0;
        v = strtod(e->p, &end);
        if (end == e->p || errno == ERANGE)
            ev_fail(e, "bad number at column %d", (int)(e->p - e->s) + 1);
        e->p = end;
    } else if (ev_is_ident_start(c)) {
        const char *start = e->p;
        while (ev_is_ident(*e->p))
            e->p++;
        size_t len = (size_t)(e->p - start);
        if (!e->lookup(e->ctx, start, len, &v))
            ev_fail(e, "unknown name or not a number: %.*s", (int)len, start);
    } else if (c == '\0') {
        ev_fail(e, "expression ends too early");
    } else {
        ev_fail(e, "unexpected '%c' at column %d", c, (int)(e->p - e->s) + 1);
    }
    e->depth--;
    return v;
}

static double ev_mul(struct ev *e)
{
    double v = ev_primary(e);
    for (;;) {
        ev_ws(e);
        char c = *e->p;
        if (e->failed || (c != '*' && c != '/' && c != '%'))
            return v;
        e->p++;
        double r = ev_primary(e);
        if (c == '*') {
            v *= r;
        } else if (r == 0) {
            ev_fail(e, "division by zero");
            return 0;
        } else if (c == '/') {
            v /= r;
        } else {
            v = fmod(v, r);
        }
    }
}

static double ev_add(struct ev *e)
{
    double v = ev_mul(e);
    for (;;) {
        ev_ws(e);
        char c = *e->p;
        if (e->failed || (c != '+' && c != '-'))
            return v;
        e->p++;
        double r = ev_mul(e);
        v = c == '+' ? v + r : v - r;
    }
}

static double ev_cmp(struct ev *e)
{
    double v = ev_add(e);
    for (;;) {
        ev_ws(e);
        const char *p = e->p;
        int op = 0; /* 1 <, 2 <=, 3 >, 4 >=, 5 ==, 6 != */
        if (p[0] == '<')
            op = p[1] == '=' ? 2 : 1;
        else if (p[0] == '>')
            op = p[1] == '=' ? 4 : 3;
        else if (p[0] == '=' && p[1] == '=')
            op = 5;
        else if (p[0] == '!' && p[1] == '=')
            op = 6;
        if (e->failed || !op)
            return v;
        e->p += (op == 1 || op == 3) ? 1 : 2;
        double r = ev_add(e);
        switch (op) {
        case 1: v = v < r; break;
        case 2: v = v <= r; break;
        case 3: v = v > r; break;
        case 4: v = v >= r; break;
        case 5: v = v == r; break;
        default: v = v != r; break;
        }
    }
}

static double ev_and(struct ev *e)
{
    double v = ev_cmp(e);
    for (;;) {
        ev_ws(e);
        if (e->failed || !(e->p[0] == '&' && e->p[1] == '&'))
            return v;
        e->p += 2;
        double r = ev_cmp(e);
        v = (v != 0 && r != 0) ? 1 : 0;
    }
}

static double ev_or(struct ev *e)
{
    double v = ev_and(e);
    for (;;) {
        ev_ws(e);
        if (e->failed || !(e->p[0] == '|' && e->p[1] == '|'))
            return v;
        e->p += 2;
        double r = ev_and(e);
        v = (v != 0 || r != 0) ? 1 : 0;
    }
}

bool cs_expr_eval(const char *expr, cs_expr_lookup_fn lookup, void *ctx, double *out, char *err,
                  size_t errlen)
{
    char dummy[8];
    struct ev e = {expr, expr, lookup, ctx, err ? err : dummy, err ? errlen : sizeof dummy, false, 0};
    double v = ev_or(&e);
    ev_ws(&e);
    if (!e.failed && *e.p != '\0')
        ev_fail(&e, "unexpected '%c' at column %d", *e.p, (int)(e.p - e.s) + 1);
    if (!e.failed && !isfinite(v))
        ev_fail(&e, "the result is not a finite number");
    if (e.failed)
        return false;
    *out = v;
    return true;
}
