/* status.h: the one status enum of clustersim and its strings.
 * Every fallible library function returns a cs_status; results travel
 * through out-parameters that are left untouched on failure. */
#ifndef CLUSTERSIM_STATUS_H
#define CLUSTERSIM_STATUS_H

/* X-macro list: (enum name, human string). Add new codes at the end so the
 * numeric values of existing ones never change. */
#define CS_STATUS_LIST(X)                                  \
    X(CS_OK, "success")                                    \
    X(CS_EINVAL, "invalid argument")                       \
    X(CS_ECONFIG, "invalid configuration")                 \
    X(CS_EIO, "input/output error")                        \
    X(CS_ERANGE, "value out of range")                     \
    X(CS_ENOMEM, "out of memory")                          \
    X(CS_ENOTFOUND, "not found")                           \
    X(CS_EUNSUPPORTED, "not supported")                    \
    X(CS_ENOFIT, "does not fit in memory")                 \
    X(CS_EFULL, "capacity exceeded")                       \
    X(CS_EBUDGET, "did not complete: its event budget or time bound was reached")

typedef enum cs_status {
#define CS__STATUS_ENUM(name, str) name,
    CS_STATUS_LIST(CS__STATUS_ENUM)
#undef CS__STATUS_ENUM
        CS_STATUS_COUNT
} cs_status;

/* Returns a static string describing `st`; never NULL. */
const char *cs_strerror(cs_status st);

#endif
