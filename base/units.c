/* units.c: parsing and formatting of quantities with units (config layer).
 * See units.h for the accepted syntax. Decimal prefixes are applied by
 * shifting the decimal exponent before strtod, so "70%" is exactly the
 * double nearest 0.7 and "1.2M" exactly 1200000: no 0.7000000000000001. */
#include "clustersim/base/units.h"

#include "clustersim/base/suggest.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One accepted unit spelling. The SI value is
 * strtod(number * 10^pow10) * mul / div; mul and div are powers of two or
 * small integers so the scaling is exact or correctly rounded once. */
struct cs__unit {
    const char *name;
    int pow10;
    double mul, div;
    bool canonical; /* offered as a did-you-mean; aliases are not */
};

struct cs__kind_info {
    const char *name;     /* "a bandwidth" */
    const char *example;  /* "400Gbps" */
    const char *example2; /* second example for messages, or NULL */
    bool plain_ok;        /* a bare number is accepted (factor 1) */
    bool dollar;          /* a leading '$' is accepted */
    const struct cs__unit *units;
    size_t n_units;
};

#define KIB 1024.0
#define MIB (1024.0 * 1024.0)
#define GIB (1024.0 * 1024.0 * 1024.0)
#define TIB (1024.0 * 1024.0 * 1024.0 * 1024.0)
#define PIB (1024.0 * 1024.0 * 1024.0 * 1024.0 * 1024.0)

static const struct cs__unit cs__bytes[] = {
    {"B", 0, 1, 1, true},     {"KB", 3, 1, 1, true},    {"MB", 6, 1, 1, true},
    {"GB", 9, 1, 1, true},    {"TB", 12, 1, 1, true},   {"PB", 15, 1, 1, true},
    {"KiB", 0, KIB, 1, true}, {"MiB", 0, MIB, 1, true}, {"GiB", 0, GIB, 1, true},
    {"TiB", 0, TIB, 1, true}, {"PiB", 0, PIB, 1, true}, {"kB", 3, 1, 1, false},
    {"bytes", 0, 1, 1, false},
};

/* Bit rates come first so that a near miss such as "Gbs" suggests "Gbps". */
static const struct cs__unit cs__bandwidth[] = {
    {"bps", 0, 1, 8, true},     {"Kbps", 3, 1, 8, true},    {"Mbps", 6, 1, 8, true},
    {"Gbps", 9, 1, 8, true},    {"Tbps", 12, 1, 8, true},   {"B/s", 0, 1, 1, true},
    {"KB/s", 3, 1, 1, true},    {"MB/s", 6, 1, 1, true},    {"GB/s", 9, 1, 1, true},
    {"TB/s", 12, 1, 1, true},   {"KiB/s", 0, KIB, 1, true}, {"MiB/s", 0, MIB, 1, true},
    {"GiB/s", 0, GIB, 1, true}, {"TiB/s", 0, TIB, 1, true}, {"kbps", 3, 1, 8, false},
    {"b/s", 0, 1, 8, false},    {"Kb/s", 3, 1, 8, false},   {"kb/s", 3, 1, 8, false},
    {"Mb/s", 6, 1, 8, false},   {"Gb/s", 9, 1, 8, false},   {"Tb/s", 12, 1, 8, false},
    {"kB/s", 3, 1, 1, false},
};

static const struct cs__unit cs__time[] = {
    {"ns", -9, 1, 1, true},
    {"us", -6, 1, 1, true},
    {"ms", -3, 1, 1, true},
    {"s", 0, 1, 1, true},
    {"min", 0, 60, 1, true},
    {"h", 0, 3600, 1, true},
    {"d", 0, 86400, 1, true},
    {"w", 0, 7 * 86400, 1, true},
    {"y", 0, 365 * 86400, 1, true},
    {"\xC2\xB5s", -6, 1, 1, false}, /* U+00B5 MICRO SIGN */
    {"\xCE\xBCs", -6, 1, 1, false}, /* U+03BC GREEK SMALL LETTER MU */
    {"sec", 0, 1, 1, false},
    {"second", 0, 1, 1, false},
    {"seconds", 0, 1, 1, false},
    {"minute", 0, 60, 1, false},
    {"minutes", 0, 60, 1, false},
    {"hr", 0, 3600, 1, false},
    {"hour", 0, 3600, 1, false},
    {"hours", 0, 3600, 1, false},
    {"day", 0, 86400, 1, false},
    {"days", 0, 86400, 1, false},
    {"week", 0, 7 * 86400, 1, false},
    {"weeks", 0, 7 * 86400, 1, false},
    {"year", 0, 365 * 86400, 1, false},
    {"years", 0, 365 * 86400, 1, false},
};

static const struct cs__unit cs__power[] = {
    {"W", 0, 1, 1, true},
    {"kW", 3, 1, 1, true},
    {"MW", 6, 1, 1, true},
    {"KW", 3, 1, 1, false},
};

static const struct cs__unit cs__money[] = {
    {"K", 3, 1, 1, true},
    {"M", 6, 1, 1, true},
    {"B", 9, 1, 1, true},
    {"k", 3, 1, 1, false},
};

static const struct cs__unit cs__usd_kwh[] = {
    {"/kWh", 0, 1, 1, true},
    {"/MWh", -3, 1, 1, true},
    {"/Wh", 3, 1, 1, false},
};

static const struct cs__unit cs__usd_gpuh[] = {
    {"/GPU-h", 0, 1, 1, true},     {"/GPU-hr", 0, 1, 1, true},
    {"/GPU-hour", 0, 1, 1, true},  {"/gpu-h", 0, 1, 1, false},
    {"/gpu-hr", 0, 1, 1, false},   {"/gpu-hour", 0, 1, 1, false},
};

static const struct cs__unit cs__usd_kwmonth[] = {
    {"/kW-month", 0, 1, 1, true},
    {"/kW-mo", 0, 1, 1, false},
};

static const struct cs__unit cs__usd_tb[] = {
    {"/TB", 0, 1, 1, true},
    {"/GB", 3, 1, 1, true},
    {"/PB", -3, 1, 1, true},
    /* $ per TiB -> $ per TB: divide by 2^40 / 10^12. */
    {"/TiB", 12, 1, TIB, true},
    {"/GiB", 12, 1, GIB, true},
};

static const struct cs__unit cs__count[] = {
    {"K", 3, 1, 1, true}, {"M", 6, 1, 1, true}, {"B", 9, 1, 1, true},
    {"T", 12, 1, 1, true}, {"k", 3, 1, 1, false}, {"G", 9, 1, 1, false},
};

static const struct cs__unit cs__flops[] = {
    {"FLOPS", 0, 1, 1, true},    {"GFLOPS", 9, 1, 1, true},   {"TFLOPS", 12, 1, 1, true},
    {"PFLOPS", 15, 1, 1, true},  {"EFLOPS", 18, 1, 1, true},  {"FLOP/s", 0, 1, 1, false},
    {"GFLOP/s", 9, 1, 1, false}, {"TFLOP/s", 12, 1, 1, false}, {"PFLOP/s", 15, 1, 1, false},
    {"EFLOP/s", 18, 1, 1, false}, {"GFLOPs", 9, 1, 1, false},  {"TFLOPs", 12, 1, 1, false},
    {"PFLOPs", 15, 1, 1, false},
};

static const struct cs__unit cs__ratio[] = {
    {"%", -2, 1, 1, true},
};

#define CS__UNITS(a) a, sizeof a / sizeof a[0]

/* Indexed by enum cs_unit_kind; the static assert below keeps them in step. */
static const struct cs__kind_info cs__kinds[] = {
    [CS_UNIT_BYTES] = {"a size in bytes", "80GiB", "16TB", true, false, CS__UNITS(cs__bytes)},
    [CS_UNIT_BANDWIDTH] = {"a bandwidth", "400Gbps", "50GB/s", false, false,
                           CS__UNITS(cs__bandwidth)},
    [CS_UNIT_TIME] = {"a duration", "90s", "15min", false, false, CS__UNITS(cs__time)},
    [CS_UNIT_POWER] = {"a power", "700W", "1.2kW", false, false, CS__UNITS(cs__power)},
    [CS_UNIT_MONEY] = {"an amount of money", "$30000", "$1.2M", true, true,
                       CS__UNITS(cs__money)},
    [CS_UNIT_USD_PER_KWH] = {"an electricity price", "$0.08/kWh", NULL, false, true,
                             CS__UNITS(cs__usd_kwh)},
    [CS_UNIT_USD_PER_GPU_HOUR] = {"a price per GPU-hour", "$2.10/GPU-h", NULL, false, true,
                                  CS__UNITS(cs__usd_gpuh)},
    [CS_UNIT_USD_PER_KW_MONTH] = {"a price per kW-month", "$184/kW-month", NULL, false, true,
                                  CS__UNITS(cs__usd_kwmonth)},
    [CS_UNIT_USD_PER_TB] = {"a price per TB", "$120/TB", "$0.023/GB", false, true,
                            CS__UNITS(cs__usd_tb)},
    [CS_UNIT_COUNT] = {"a count", "2T", "1.5M", true, false, CS__UNITS(cs__count)},
    [CS_UNIT_FLOPS] = {"a compute rate", "989TFLOPS", "312TFLOP/s", false, false,
                       CS__UNITS(cs__flops)},
    [CS_UNIT_RATIO] = {"a fraction", "70%", "0.7", true, false, CS__UNITS(cs__ratio)},
};

_Static_assert(sizeof cs__kinds / sizeof cs__kinds[0] == CS_UNIT_KIND_COUNT,
               "one cs__kind_info per enum cs_unit_kind");

/* Longest number we copy for strtod; longer ones are refused. */
#define CS__NUM_MAX 320
/* Longest text echoed back in a message. */
#define CS__ECHO_MAX 60

static const struct cs__kind_info *cs__info(enum cs_unit_kind kind)
{
    if ((unsigned)kind >= CS_UNIT_KIND_COUNT)
        return NULL;
    return &cs__kinds[kind];
}

const char *cs_units_example(enum cs_unit_kind kind)
{
    const struct cs__kind_info *k = cs__info(kind);
    return k ? k->example : "?";
}

const char *cs_units_kind_name(enum cs_unit_kind kind)
{
    const struct cs__kind_info *k = cs__info(kind);
    return k ? k->name : "a quantity";
}

static void cs__err(char *err, size_t errlen, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static void cs__err(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || errlen == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* "like "400Gbps" or "50GB/s"" into buf. */
static const char *cs__like(const struct cs__kind_info *k, char *buf, size_t len)
{
    if (k->example2)
        snprintf(buf, len, "like \"%s\" or \"%s\"", k->example, k->example2);
    else
        snprintf(buf, len, "like \"%s\"", k->example);
    return buf;
}

static bool cs__is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static bool cs__is_digit(char c) { return c >= '0' && c <= '9'; }

static const struct cs__unit *cs__find(const struct cs__kind_info *k, const char *u,
                                       size_t len)
{
    for (size_t i = 0; i < k->n_units; i++) {
        if (strlen(k->units[i].name) == len && memcmp(k->units[i].name, u, len) == 0)
            return &k->units[i];
    }
    return NULL;
}

/* The canonical unit of kind k closest to `word`, or NULL. */
static const char *cs__suggest_unit(const struct cs__kind_info *k, const char *word)
{
    const char *cands[32];
    size_t n = 0;
    for (size_t i = 0; i < k->n_units && n < 32; i++) {
        if (k->units[i].canonical)
            cands[n++] = k->units[i].name;
    }
    const char *first = cs_suggest(word, cands, n);
    if (!first)
        return NULL;
    size_t d = cs_edit_distance(word, first);
    const char *best = first;
    size_t best_cs = cs_edit_distance_exact(word, first);
    for (size_t i = 0; i < n; i++) {
        if (cs_edit_distance(word, cands[i]) != d)
            continue;
        size_t c = cs_edit_distance_exact(word, cands[i]);
        if (c < best_cs) {
            best_cs = c;
            best = cands[i];
        }
    }
    return best;
}

/* A kind other than `self` that has exactly this unit spelling, or -1. */
static int cs__other_kind(enum cs_unit_kind self, const char *u, size_t len)
{
    for (int i = 0; i < CS_UNIT_KIND_COUNT; i++) {
        if (i != (int)self && cs__find(&cs__kinds[i], u, len))
            return i;
    }
    return -1;
}

cs_status cs_units_parse(const char *text, enum cs_unit_kind kind, double *out,
                         char *err, size_t errlen)
{
    const struct cs__kind_info *k = cs__info(kind);
    char like[96];
    if (!k) {
        cs__err(err, errlen, "unknown quantity kind %d", (int)kind);
        return CS_EINVAL;
    }
    cs__like(k, like, sizeof like);
    if (!text)
        text = "";
    const char *p = text;
    while (cs__is_space(*p))
        p++;
    const char *end = p + strlen(p);
    while (end > p && cs__is_space(end[-1]))
        end--;
    int echo = (int)(end - p > CS__ECHO_MAX ? CS__ECHO_MAX : end - p);
    const char *ell = end - p > CS__ECHO_MAX ? "..." : "";
    if (p == end) {
        cs__err(err, errlen, "expected %s %s, got an empty string", k->name, like);
        return CS_EINVAL;
    }

    /* [sign] ['$'] [sign] */
    const char *s = p;
    int sign = 1;
    bool have_sign = false;
    if (*s == '+' || *s == '-') {
        sign = *s == '-' ? -1 : 1;
        have_sign = true;
        s++;
    }
    if (k->dollar && *s == '$') {
        s++;
        if (!have_sign && (*s == '+' || *s == '-')) {
            sign = *s == '-' ? -1 : 1;
            s++;
        }
    }

    /* Decimal mantissa, then an optional exponent that must have digits:
     * "2E" is not an exponent. This refuses "nan", "inf" and hex floats,
     * which strtod alone would accept. */
    const char *mant = s;
    size_t ndigits = 0;
    while (cs__is_digit(*s)) {
        s++;
        ndigits++;
    }
    if (*s == '.') {
        s++;
        while (cs__is_digit(*s)) {
            s++;
            ndigits++;
        }
    }
    if (ndigits == 0) {
        cs__err(err, errlen, "expected %s %s, got \"%.*s%s\"", k->name, like, echo, p, ell);
        return CS_EINVAL;
    }
    size_t mant_len = (size_t)(s - mant);
    long exp10 = 0;
    if ((*s == 'e' || *s == 'E') &&
        (cs__is_digit(s[1]) || ((s[1] == '+' || s[1] == '-') && cs__is_digit(s[2])))) {
        s++;
        int esign = 1;
        if (*s == '+' || *s == '-') {
            esign = *s == '-' ? -1 : 1;
            s++;
        }
        while (cs__is_digit(*s)) {
            /* Clamp: anything past 10^6 is out of range for a double anyway. */
            if (exp10 < 1000000)
                exp10 = exp10 * 10 + (*s - '0');
            s++;
        }
        exp10 *= esign;
    }

    /* Unit token: up to the next space; then nothing may follow. */
    while (s < end && cs__is_space(*s))
        s++;
    const char *u = s;
    while (s < end && !cs__is_space(*s))
        s++;
    size_t ulen = (size_t)(s - u);
    while (s < end && cs__is_space(*s))
        s++;
    const char *rest = s;

    if (ulen > 0 && (cs__is_digit(*u) || ((*u == '.' || *u == '+' || *u == '-') &&
                                          cs__is_digit(u[1])))) {
        cs__err(err, errlen, "expected one number in \"%.*s%s\", found more", echo, p, ell);
        return CS_EINVAL;
    }

    const struct cs__unit *unit = NULL;
    static const struct cs__unit plain = {"", 0, 1, 1, false};
    if (ulen == 0) {
        if (!k->plain_ok) {
            cs__err(err, errlen, "missing unit in \"%.*s%s\": expected %s %s", echo, p, ell,
                    k->name, like);
            return CS_EINVAL;
        }
        unit = &plain;
    } else {
        unit = cs__find(k, u, ulen);
    }
    if (!unit) {
        char word[64];
        int wl = (int)(ulen < sizeof word - 1 ? ulen : sizeof word - 1);
        memcpy(word, u, (size_t)wl);
        word[wl] = '\0';
        const char *sug = cs__suggest_unit(k, word);
        char dym[96] = "";
        if (sug)
            snprintf(dym, sizeof dym, " (did you mean \"%s\"?)", sug);
        int other = cs__other_kind(kind, u, ulen);
        if (other >= 0)
            cs__err(err, errlen, "\"%s\" is a unit of %s, not of %s%s; expected %s %s", word,
                    cs__kinds[other].name, k->name, dym, k->name, like);
        else
            cs__err(err, errlen, "unknown unit \"%s\" in \"%.*s%s\"%s; expected %s %s", word,
                    echo, p, ell, dym, k->name, like);
        return CS_EINVAL;
    }
    if (rest < end) {
        ptrdiff_t nrest = end - rest, nhead = u + ulen - p;
        cs__err(err, errlen, "unexpected \"%.*s\" after \"%.*s\"",
                (int)(nrest > CS__ECHO_MAX ? CS__ECHO_MAX : nrest), rest,
                (int)(nhead > CS__ECHO_MAX ? CS__ECHO_MAX : nhead), p);
        return CS_EINVAL;
    }

    if (mant_len > CS__NUM_MAX) {
        cs__err(err, errlen, "number in \"%.*s%s\" is too long", echo, p, ell);
        return CS_EINVAL;
    }
    char num[CS__NUM_MAX + 32];
    snprintf(num, sizeof num, "%.*se%ld", (int)mant_len, mant, exp10 + unit->pow10);
    errno = 0;
    char *num_stop = NULL;
    double v = strtod(num, &num_stop);
    bool range_err = errno == ERANGE;
    if (range_err || !isfinite(v)) {
        cs__err(err, errlen, "%.*s%s is out of range for %s", echo, p, ell, k->name);
        return CS_ERANGE;
    }
    double r = v * unit->mul / unit->div;
    if (!isfinite(r) || (v != 0 && fabs(r) < DBL_MIN)) {
        cs__err(err, errlen, "%.*s%s is out of range for %s", echo, p, ell, k->name);
        return CS_ERANGE;
    }
    *out = sign * r;
    return CS_OK;
}

/* ---- formatting ---- */

/* At most 4 significant digits, no exponent for numbers below 10^15. */
static void cs__num(double v, char *buf, size_t len)
{
    if (fabs(v) >= 1e4 && fabs(v) < 1e15)
        snprintf(buf, len, "%.0f", v);
    else
        snprintf(buf, len, "%.4g", v);
}

struct cs__scale {
    double factor;
    const char *name;
};

/* Picks the largest scale whose factor is <= |v| (the first if none is) and
 * writes "<num><sep><unit>". */
static char *cs__scaled(double v, const struct cs__scale *sc, size_t n, const char *sep,
                        char *buf, size_t len)
{
    size_t pick = 0;
    for (size_t i = 0; i < n; i++) {
        if (fabs(v) >= sc[i].factor)
            pick = i;
    }
    char num[64];
    cs__num(v / sc[pick].factor, num, sizeof num);
    snprintf(buf, len, "%s%s%s", num, sep, sc[pick].name);
    return buf;
}

char *cs_units_format(double value, enum cs_unit_kind kind, char *buf, size_t buflen)
{
    static const struct cs__scale bytes[] = {
        {1, "B"}, {1e3, "KB"}, {1e6, "MB"}, {1e9, "GB"}, {1e12, "TB"}, {1e15, "PB"}};
    static const struct cs__scale bin[] = {
        {KIB, "KiB"}, {MIB, "MiB"}, {GIB, "GiB"}, {TIB, "TiB"}, {PIB, "PiB"}};
    static const struct cs__scale bw[] = {{1, "B/s"},   {1e3, "KB/s"},  {1e6, "MB/s"},
                                          {1e9, "GB/s"}, {1e12, "TB/s"}, {1e15, "PB/s"}};
    static const struct cs__scale tm[] = {{1e-9, "ns"},   {1e-6, "us"},   {1e-3, "ms"},
                                          {1, "s"},       {60, "min"},    {3600, "h"},
                                          {86400, "d"},   {365 * 86400.0, "y"}};
    static const struct cs__scale pw[] = {{1, "W"}, {1e3, "kW"}, {1e6, "MW"}, {1e9, "GW"}};
    static const struct cs__scale cnt[] = {{1, ""}, {1e3, "K"}, {1e6, "M"}, {1e9, "B"},
                                           {1e12, "T"}};
    static const struct cs__scale fl[] = {{1, "FLOP/s"},      {1e9, "GFLOP/s"},
                                          {1e12, "TFLOP/s"},  {1e15, "PFLOP/s"},
                                          {1e18, "EFLOP/s"}};
    if (!buf || buflen == 0)
        return buf;
    if (!isfinite(value)) {
        snprintf(buf, buflen, "%s", isnan(value) ? "nan" : value < 0 ? "-inf" : "inf");
        return buf;
    }
    char num[64];
    switch (kind) {
    case CS_UNIT_BYTES:
        /* Exact multiples of a binary unit below 1024 of it read as "80 GiB". */
        for (int i = 4; i >= 0; i--) {
            double q = value / bin[i].factor;
            if (fabs(q) >= 1 && fabs(q) < 1024 && q == floor(q) &&
                fmod(value, 1000.0) != 0.0) {
                cs__num(q, num, sizeof num);
                snprintf(buf, buflen, "%s %s", num, bin[i].name);
                return buf;
            }
        }
        return cs__scaled(value, bytes, 6, " ", buf, buflen);
    case CS_UNIT_BANDWIDTH:
        return cs__scaled(value, bw, 6, " ", buf, buflen);
    case CS_UNIT_TIME:
        if (value == 0) {
            snprintf(buf, buflen, "0 s");
            return buf;
        }
        return cs__scaled(value, tm, 8, " ", buf, buflen);
    case CS_UNIT_POWER:
        return cs__scaled(value, pw, 4, " ", buf, buflen);
    case CS_UNIT_MONEY: {
        const char *neg = value < 0 ? "-" : "";
        double a = fabs(value);
        if (a < 1000) {
            snprintf(buf, buflen, "%s$%.2f", neg, a);
            return buf;
        }
        cs__scaled(a, cnt, 5, "", num, sizeof num);
        snprintf(buf, buflen, "%s$%s", neg, num);
        return buf;
    }
    case CS_UNIT_USD_PER_KWH:
        cs__num(value, num, sizeof num);
        snprintf(buf, buflen, "$%s/kWh", num);
        return buf;
    case CS_UNIT_USD_PER_GPU_HOUR:
        cs__num(value, num, sizeof num);
        snprintf(buf, buflen, "$%s/GPU-h", num);
        return buf;
    case CS_UNIT_USD_PER_KW_MONTH:
        cs__num(value, num, sizeof num);
        snprintf(buf, buflen, "$%s/kW-month", num);
        return buf;
    case CS_UNIT_USD_PER_TB:
        cs__num(value, num, sizeof num);
        snprintf(buf, buflen, "$%s/TB", num);
        return buf;
    case CS_UNIT_COUNT:
        return cs__scaled(value, cnt, 5, "", buf, buflen);
    case CS_UNIT_FLOPS:
        return cs__scaled(value, fl, 5, " ", buf, buflen);
    case CS_UNIT_RATIO:
        cs__num(value * 100, num, sizeof num);
        snprintf(buf, buflen, "%s%%", num);
        return buf;
    }
    cs__num(value, buf, buflen);
    return buf;
}
