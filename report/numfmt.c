/* numfmt.c: numbers for people in the HTML reports (contract in
 * clustersim/report/numfmt.h): printf's %f (which never uses an exponent)
 * for the digits, then a comma every three integer digits. */
#include "clustersim/report/numfmt.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static const char *cs__na(char *buf, size_t n)
{
    if (n)
        snprintf(buf, n, "n/a");
    return buf;
}

/* prefix + digits of |v| with separators + suffix. */
static const char *cs__emit(double v, int decimals, const char *prefix, const char *suffix,
                            char *buf, size_t n)
{
    if (!n)
        return buf;
    if (!isfinite(v))
        return cs__na(buf, n);
    if (decimals < 0)
        decimals = 0;
    if (decimals > 12)
        decimals = 12;
    char digits[400];
    snprintf(digits, sizeof digits, "%.*f", decimals, fabs(v));
    bool neg = v < 0 && strspn(digits, "0.") != strlen(digits); /* "-0.00" prints as "0.00" */
    size_t intlen = strcspn(digits, ".");
    char out[560];
    size_t k = 0;
    if (neg)
        out[k++] = '-';
    for (const char *p = prefix; p && *p && k < sizeof out - 1; p++)
        out[k++] = *p;
    for (size_t i = 0; digits[i] && k < sizeof out - 2; i++) {
        if (i > 0 && i < intlen && (intlen - i) % 3 == 0)
            out[k++] = ',';
        out[k++] = digits[i];
    }
    out[k] = '\0';
    snprintf(buf, n, "%s%s", out, suffix ? suffix : "");
    return buf;
}

const char *cs_fmt_fixed(double v, int decimals, char *buf, size_t n)
{
    return cs__emit(v, decimals, NULL, NULL, buf, n);
}

/* Decimals that show `sig` significant digits of v (0..9), after rounding
 * (9.996 to 3 digits is "10.0", not "10.00"). */
static int cs__sig_decimals(double v, int sig)
{
    if (sig < 1)
        sig = 1;
    if (sig > 15)
        sig = 15;
    double a = fabs(v);
    if (!(a > 0) || !isfinite(a))
        return 0;
    int e = (int)floor(log10(a));
    int d = sig - 1 - e;
    if (d < 0)
        d = 0;
    if (d > 9)
        d = 9;
    double r = round(a * pow(10, d)) / pow(10, d);
    if (d > 0 && r >= pow(10, e + 1))
        d--;
    return d;
}

const char *cs_fmt_sig(double v, int sig, char *buf, size_t n)
{
    return cs__emit(v, cs__sig_decimals(v, sig), NULL, NULL, buf, n);
}

const char *cs_fmt_usd(double v, char *buf, size_t n)
{
    return cs__emit(v, fabs(v) >= 99.995 || v == 0 ? 0 : 2, "$", NULL, buf, n);
}

const char *cs_fmt_pct(double ratio, int decimals, char *buf, size_t n)
{
    return cs__emit(ratio * 100, decimals, NULL, "%", buf, n);
}

const char *cs_fmt_duration(double s, char *buf, size_t n)
{
    static const struct {
        double from_s, unit_s;
        const char *name;
    } u[] = {{2 * 86400.0, 86400.0, " days"},
             {7200.0, 3600.0, " h"},
             {120.0, 60.0, " min"},
             {1.0, 1.0, " s"},
             {1e-3, 1e-3, " ms"},
             {0, 1e-6, " us"}};
    if (!isfinite(s))
        return cs__na(buf, n);
    if (s == 0)
        return cs__emit(0, 0, NULL, " s", buf, n);
    size_t i = 0;
    while (i + 1 < sizeof u / sizeof u[0] && fabs(s) < u[i].from_s)
        i++;
    double x = s / u[i].unit_s;
    return cs__emit(x, cs__sig_decimals(x, 3), NULL, u[i].name, buf, n);
}

const char *cs_fmt_bytes(double b, char *buf, size_t n)
{
    static const char *const name[] = {" B", " kB", " MB", " GB", " TB", " PB", " EB"};
    if (!isfinite(b))
        return cs__na(buf, n);
    int k = 0;
    double x = b;
    while (k < 6 && fabs(x) >= 999.5) {
        x /= 1000;
        k++;
    }
    return cs__emit(x, k == 0 ? 0 : cs__sig_decimals(x, 3), NULL, name[k], buf, n);
}

const char *cs_fmt_si(double v, const char *unit, char *buf, size_t n)
{
    static const char *const pre[] = {"", "k", "M", "G", "T", "P", "E", "Z"};
    if (!isfinite(v))
        return cs__na(buf, n);
    int k = 0;
    double x = v;
    while (k < 7 && fabs(x) >= 999.5) {
        x /= 1000;
        k++;
    }
    char u[48];
    snprintf(u, sizeof u, " %s%s", pre[k], unit ? unit : "");
    return cs__emit(x, cs__sig_decimals(x, 3), NULL, u, buf, n);
}

const char *cs_fmt_count(double v, char *buf, size_t n)
{
    if (isfinite(v) && v == floor(v))
        return cs__emit(v, 0, NULL, NULL, buf, n);
    return cs__emit(v, cs__sig_decimals(v, 3), NULL, NULL, buf, n);
}

static bool cs__ends(const char *s, size_t len, const char *suf)
{
    size_t l = strlen(suf);
    return len >= l && memcmp(s + len - l, suf, l) == 0;
}

static bool cs__has(const char *s, size_t len, const char *part)
{
    size_t l = strlen(part);
    for (size_t i = 0; i + l <= len; i++)
        if (memcmp(s + i, part, l) == 0)
            return true;
    return false;
}

/* "0.0826000" -> "0.0826", "12.000" -> "12". */
static const char *cs__trim(char *buf)
{
    char *dot = strchr(buf, '.');
    if (!dot)
        return buf;
    char *e = buf + strlen(buf);
    while (e > dot + 1 && e[-1] == '0')
        e--;
    if (e == dot + 1)
        e = dot;
    *e = '\0';
    return buf;
}

const char *cs_fmt_auto(const char *path, double v, char *buf, size_t n)
{
    /* The key: the last part of the path that is neither an index nor a
     * statistic of the figure above it ("time_to_train_s.p95"). */
    static const char *const stat[] = {"mean", "p05",  "p50", "p95", "p99",
                                       "low",  "high", "min", "max"};
    const char *key = "";
    size_t klen = 0;
    for (const char *p = path ? path : ""; *p;) {
        size_t l = strcspn(p, ".[");
        bool skip = l == 0;
        for (size_t i = 0; !skip && i < sizeof stat / sizeof stat[0]; i++)
            skip = strlen(stat[i]) == l && memcmp(p, stat[i], l) == 0;
        if (!skip) {
            key = p;
            klen = l;
        }
        p += l;
        if (*p == '[')
            p += strcspn(p, "]");
        if (*p)
            p++;
    }
    char tmp[96];
    if (cs__has(key, klen, "usd"))
        return cs_fmt_usd(v, buf, n);
    if (cs__has(key, klen, "bytes") && cs__has(key, klen, "_per_s"))
        return cs_fmt_si(v, "B/s", buf, n);
    if (cs__has(key, klen, "bytes"))
        return cs_fmt_bytes(v, buf, n);
    if (klen > 6 && memcmp(key, "tflops", 6) == 0) { /* already in TFLOP/s */
        cs_fmt_sig(v, 4, tmp, sizeof tmp);
        snprintf(buf, n, "%s TFLOP/s", tmp);
        return isfinite(v) ? buf : cs__na(buf, n);
    }
    if (cs__has(key, klen, "flops"))
        return cs_fmt_si(v, cs__has(key, klen, "per_step") ? "FLOP" : "FLOP/s", buf, n);
    if (cs__ends(key, klen, "_per_s") || cs__ends(key, klen, "_per_gpu")) {
        cs_fmt_sig(v, 6, buf, n);
        return cs__trim(buf);
    }
    if (cs__ends(key, klen, "_s") || cs__ends(key, klen, "_seconds"))
        return cs_fmt_duration(v, buf, n);
    if (cs__ends(key, klen, "_w")) {
        cs_fmt_sig(v, 6, tmp, sizeof tmp);
        cs__trim(tmp);
        snprintf(buf, n, "%s W", tmp);
        return isfinite(v) ? buf : cs__na(buf, n);
    }
    if (cs__ends(key, klen, "_hours")) {
        cs_fmt_sig(v, 6, tmp, sizeof tmp);
        cs__trim(tmp);
        snprintf(buf, n, "%s h", tmp);
        return isfinite(v) ? buf : cs__na(buf, n);
    }
    if (cs__ends(key, klen, "utilization") || cs__has(key, klen, "goodput") ||
        (klen == 3 && memcmp(key, "mfu", 3) == 0) || cs__has(key, klen, "share") ||
        cs__has(key, klen, "fragmentation") || cs__ends(key, klen, "quota") ||
        cs__has(key, klen, "fraction") || cs__ends(key, klen, "_ratio"))
        return cs_fmt_pct(v, 1, buf, n);
    if (isfinite(v) && v != floor(v)) {
        cs_fmt_sig(v, 6, buf, n);
        return cs__trim(buf);
    }
    return cs_fmt_count(v, buf, n);
}

const char *cs_fmt_g4(double v, char *buf, size_t n)
{
    if (isfinite(v) && fabs(v) >= 1e4)
        return cs_fmt_sig(v, 4, buf, n);
    snprintf(buf, n, "%.4g", v);
    return buf;
}
