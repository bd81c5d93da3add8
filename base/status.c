/* status.c: strings for cs_status (sim layer: the base every layer links). */
#include "clustersim/base/status.h"

static const char *const cs__status_strings[] = {
#define CS__STATUS_STR(name, str) str,
    CS_STATUS_LIST(CS__STATUS_STR)
#undef CS__STATUS_STR
};

const char *cs_strerror(cs_status st)
{
    if ((int)st < 0 || (int)st >= (int)CS_STATUS_COUNT)
        return "unknown status";
    return cs__status_strings[st];
}
