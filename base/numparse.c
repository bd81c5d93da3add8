/* numparse.c: strict number parsing (numparse.h). */
#include "clustersim/base/numparse.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* True when s starts with a sign, a digit or a '.' followed by a digit: what
 * a plain number starts with (strtod would also take blanks, "inf", "nan"
 * and hex floats). */
static bool cs__starts_number(const char *s)
{
    if (*s == '+' || *s == '-')
        s++;
    if (*s == '.')
        s++;
    return isdigit((unsigned char)*s) != 0;
}

bool cs_num_parse_double(const char *s, double *out)
{
    if (!s || !cs__starts_number(s))
        return false;
    const char *p = s + (*s == '+' || *s == '-');
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
        return false;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end != '\0' || errno == ERANGE || !isfinite(v))
        return false;
    *out = v;
    return true;
}

bool cs_num_parse_long(const char *s, int base, long min, long max, long *out)
{
    if (!s)
        return false;
    const char *p = s + (*s == '+' || *s == '-');
    if (!isdigit((unsigned char)*p))
        return false;
    char *end;
    errno = 0;
    long v = strtol(s, &end, base);
    if (end == s || *end != '\0' || errno == ERANGE || v < min || v > max)
        return false;
    *out = v;
    return true;
}
