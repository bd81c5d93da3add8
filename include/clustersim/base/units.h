/* units.h: quantities with units as scenario files write them ("400Gbps",
 * "80GiB", "$2.10/GPU-h") parsed into SI doubles, and SI doubles formatted
 * back for people. Part of the config layer; no I/O, no globals.
 *
 * Syntax: [sign] ['$'] number [spaces] unit, with optional spaces around the
 * whole text. The number is decimal ("12", "1.5", ".5", "2e3"); "nan", "inf",
 * hexadecimal and digit separators are refused. A leading '-' is accepted and
 * the negative value is returned (CS_OK), so that the caller, which knows the
 * allowed range, can say "must be positive".
 *
 * Units are case-sensitive, because case carries meaning: b is a bit and B a
 * byte (Gbps vs GB/s), m is milli and M mega. A unit written in the wrong case
 * ("gbps", "gb") is rejected with a did-you-mean ("Gbps", "GB"). The few
 * accepted aliases are listed per kind below; the lower-case SI kilo ("kB",
 * "kbps") is accepted next to "KB"/"Kbps". '$' is optional before money
 * kinds ("0.08/kWh" is "$0.08/kWh"). */
#ifndef CLUSTERSIM_UNITS_H
#define CLUSTERSIM_UNITS_H

#include "clustersim/base/status.h"

#include <stddef.h>

enum cs_unit_kind {
    /* -> bytes. B, KB, MB, GB, TB, PB (10^3 steps; kB too), KiB, MiB, GiB,
     * TiB, PiB (2^10 steps); a plain number is bytes. */
    CS_UNIT_BYTES,
    /* -> bytes/s. bps, Kbps, Mbps, Gbps, Tbps (bits: divided by 8; also
     * kbps and Kb/s, Mb/s, Gb/s, Tb/s), B/s, KB/s, MB/s, GB/s, TB/s, KiB/s,
     * MiB/s, GiB/s, TiB/s. No plain numbers. */
    CS_UNIT_BANDWIDTH,
    /* -> seconds. ns, us (or µs), ms, s, min, h, d, w, y (365 d); also sec,
     * hr and the words second(s), minute(s), hour(s), day(s), week(s),
     * year(s). No plain numbers. */
    CS_UNIT_TIME,
    /* -> watts. W, kW (or KW), MW. No plain numbers. */
    CS_UNIT_POWER,
    /* -> USD. "$30000", "$30K" (or k), "$1.2M", "$3B"; plain number allowed. */
    CS_UNIT_MONEY,
    /* -> USD per kWh. "$0.08/kWh", "$80/MWh". No plain numbers. */
    CS_UNIT_USD_PER_KWH,
    /* -> USD per GPU-hour. "$2.10/GPU-h", "/GPU-hr", "/GPU-hour" (GPU or
     * gpu). No plain numbers. */
    CS_UNIT_USD_PER_GPU_HOUR,
    /* -> USD per kW-month. "$184/kW-month", "/kW-mo". No plain numbers. */
    CS_UNIT_USD_PER_KW_MONTH,
    /* -> USD per TB (10^12 bytes). "$120/TB", "$0.023/GB", "/PB", "/GiB",
     * "/TiB". No plain numbers. */
    CS_UNIT_USD_PER_TB,
    /* -> a plain count. "2T" tokens, "300B", "1.5M", "10K" (or k), plain
     * numbers. K = 1e3, M = 1e6, B = G = 1e9, T = 1e12. */
    CS_UNIT_COUNT,
    /* -> FLOP/s. FLOPS or FLOP/s with prefix G, T, P, E ("989TFLOPS",
     * "312 TFLOP/s", "1.9PFLOPS"; "TFLOPs" too). No plain numbers. */
    CS_UNIT_FLOPS,
    /* -> a fraction. "70%" or a plain number (0.7). */
    CS_UNIT_RATIO,
};

#define CS_UNIT_KIND_COUNT (CS_UNIT_RATIO + 1)

/* Parses `text` as a quantity of `kind` and stores the SI value in *out.
 * Returns CS_OK; CS_EINVAL for text that is not such a quantity (empty,
 * no number, unknown or missing unit, trailing text, bad kind); CS_ERANGE
 * when the number or the scaled value is not a finite double ("1e999") or
 * underflows to zero from a nonzero number. On failure *out is untouched and
 * a one-line message for people is written into err (truncated to errlen;
 * err may be NULL when errlen is 0), e.g.
 *   expected a bandwidth like "400Gbps" or "50GB/s", got "fast"
 *   unknown unit "Gbs" in "10 Gbs" (did you mean "Gbps"?)
 * The message does not name the key; the caller prefixes it. `text` is
 * borrowed. */
cs_status cs_units_parse(const char *text, enum cs_unit_kind kind, double *out,
                         char *err, size_t errlen);

/* A static example string for messages, e.g. "400Gbps" for bandwidth;
 * "?" for an out-of-range kind. */
const char *cs_units_example(enum cs_unit_kind kind);

/* A static human name with its article: "a bandwidth", "a duration", ...;
 * "a quantity" for an out-of-range kind. */
const char *cs_units_kind_name(enum cs_unit_kind kind);

/* Formats an SI value of `kind` for people, with a unit chosen so the number
 * is usually in [1, 1000) and 4 significant digits at most: 5e10 bytes/s ->
 * "50 GB/s", 7200 s -> "2 h", 85899345920 bytes -> "80 GiB" (binary units
 * only for exact multiples), 30000 USD -> "$30K", 0.7 -> "70%". Writes a
 * NUL-terminated string of at most buflen bytes into buf and returns buf.
 * Non-finite values print as "nan", "inf" or "-inf". */
char *cs_units_format(double value, enum cs_unit_kind kind, char *buf, size_t buflen);

#endif
