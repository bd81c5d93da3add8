/* numfmt.c: shortest decimal text of a double at a chosen number of
 * significant digits (include/clustersim/base/numfmt.h). */
#include "clustersim/base/numfmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "1e-07" -> "1e-7", "2.5e+09" -> "2.5e9": the exponent's '+' and leading
 * zeros dropped in place. */
static void cs__tidy_exponent(char *s)
{
    char *e = strchr(s, 'e');
    if (!e)
        return;
    char *src = e + 1, *dst = e + 1;
    if (*src == '+')
        src++;
    else if (*src == '-')
        *dst++ = *src++;
    while (*src == '0' && src[1] != '\0')
        src++;
    memmove(dst, src, strlen(src) + 1);
}

char *cs_num_format(double v, int max_sig, char *buf, size_t buflen)
{
    if (!buf || buflen == 0)
        return buf;
    if (isnan(v)) {
        snprintf(buf, buflen, "NaN");
        return buf;
    }
    if (isinf(v)) {
        snprintf(buf, buflen, "%s", v < 0 ? "-inf" : "inf");
        return buf;
    }
    if (v == 0) { /* -0 too */
        snprintf(buf, buflen, "0");
        return buf;
    }
    if (max_sig < 1)
        max_sig = 1;
    if (max_sig > 17)
        max_sig = 17;
    if (fabs(v) < 1e9 && v == floor(v)) {
        snprintf(buf, buflen, "%.0f", v);
        return buf;
    }
    char t[64];
    snprintf(t, sizeof t, "%.*e", max_sig - 1, v);
    double target = strtod(t, NULL);
    for (int p = 1; p <= max_sig; p++) {
        snprintf(t, sizeof t, "%.*g", p, v);
        if (strtod(t, NULL) == target)
            break;
    }
    cs__tidy_exponent(t);
    snprintf(buf, buflen, "%s", t);
    return buf;
}
