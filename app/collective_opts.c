/* collective_opts.c: the flags of `clustersim collective` parsed into a
 * request (collective_exp.h, cs_app_coll_parse), shared by the command line
 * (cli/cmd_collective.c) and the library's request entry point (api/api.c).
 * Sizes follow nccl-tests' parsesize (src/common.cu): a number, optionally
 * followed by K, M or G, binary multiples. */
#include "clustersim/app/collective_exp.h"

#include "clustersim/base/numparse.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cs__type { const char *name; int bytes; };
static const struct cs__type cs__types[] = {
    {"int8", 1},  {"uint8", 1},  {"int32", 4},  {"uint32", 4},  {"int64", 8},
    {"uint64", 8}, {"half", 2},  {"float", 4},  {"double", 8},  {"bfloat16", 2},
};
static const char *const cs__redops[] = {"sum", "prod", "max", "min", "avg"};

/* nccl-tests' parsesize. Stricter than nccl-tests: the whole argument must
 * be used and the result must be a non-negative whole number of bytes. */
static bool cs__parse_size(const char *s, double *out)
{
    if (!s || !*s)
        return false;
    char *end = NULL;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || errno != 0 || !isfinite(v) || v < 0)
        return false;
    while (*end == ' ')
        end++;
    double unit = 1.0;
    if (*end) {
        switch (*end) {
        case 'K': case 'k': unit = 1024.0; break;
        case 'M': case 'm': unit = 1048576.0; break;
        case 'G': case 'g': unit = 1073741824.0; break;
        default: return false;
        }
        end++;
    }
    if (*end)
        return false;
    v = floor(v * unit);
    if (v > 1e15)
        return false;
    *out = v;
    return true;
}

static bool cs__parse_int(const char *s, long lo, long hi, long *out)
{
    return cs_num_parse_long(s, 0, lo, hi, out);
}

/* The option's name in messages: the command line's flag, or the long name. */
static const char *cs__nm(bool cli, const char *lng)
{
    static const char *const map[][2] = {
        {"minbytes", "-b"}, {"maxbytes", "-e"}, {"stepbytes", "-i"}, {"stepfactor", "-f"},
        {"ngpus", "-g"},    {"nthreads", "-t"}, {"ranks", "--ranks"}, {"root", "-r"},
        {"op", "-o/--op"},  {"redop", "--redop"}, {"datatype", "-d"}, {"algo", "--algo"},
        {"placement", "--placement"},
    };
    if (cli)
        for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
            if (strcmp(map[i][0], lng) == 0)
                return map[i][1];
    return lng;
}

cs_status cs_app_coll_parse(cs_app_coll_flag_fn get, void *ctx, bool cli, struct cs_app_coll_req *q,
                            struct cs_app_coll_labels *lab, char *err, size_t errlen)
{
    double minb = 33554432.0, maxb = 33554432.0, stepb = 1048576.0;
    long factor = 1, ngpus = 1, nthreads = 1, root = 0, ranks = 0;
    const char *v;
    if ((v = get(ctx, "minbytes")) && !cs__parse_size(v, &minb)) {
        snprintf(err, errlen, "%s: expected a size like 8, 64K, 8G (K/M/G = 2^10/2^20/2^30 bytes, as "
                              "nccl-tests), got \"%s\"", cs__nm(cli, "minbytes"), v);
        return CS_EINVAL;
    }
    if ((v = get(ctx, "maxbytes")) && !cs__parse_size(v, &maxb)) {
        snprintf(err, errlen, "%s: expected a size like 8, 64K, 8G, got \"%s\"", cs__nm(cli, "maxbytes"), v);
        return CS_EINVAL;
    }
    if ((v = get(ctx, "stepbytes")) && (!cs__parse_size(v, &stepb) || stepb < 1)) {
        snprintf(err, errlen, "%s: expected a positive size like 1M, got \"%s\"", cs__nm(cli, "stepbytes"), v);
        return CS_EINVAL;
    }
    if ((v = get(ctx, "stepfactor")) && !cs__parse_int(v, 1, 1 << 20, &factor)) {
        snprintf(err, errlen, "%s: expected a whole number >= 1, got \"%s\"", cs__nm(cli, "stepfactor"), v);
        return CS_EINVAL;
    }
    if ((v = get(ctx, "ngpus")) && !cs__parse_int(v, 1, 100000000L, &ngpus)) {
        snprintf(err, errlen, "%s: expected a number of GPUs >= 1, got \"%s\"", cs__nm(cli, "ngpus"), v);
        return CS_EINVAL;
    }
    if ((v = get(ctx, "ranks")) && !cs__parse_int(v, 1, 100000000L, &ranks)) {
        snprintf(err, errlen, "%s: expected a number of ranks >= 1, got \"%s\"", cs__nm(cli, "ranks"), v);
        return CS_EINVAL;
    }
    if ((v = get(ctx, "nthreads")) && !cs__parse_int(v, 1, 4096, &nthreads)) {
        snprintf(err, errlen, "%s: expected a number of threads >= 1, got \"%s\"", cs__nm(cli, "nthreads"), v);
        return CS_EINVAL;
    }
    if ((v = get(ctx, "root")) && !cs__parse_int(v, 0, 100000000L, &root)) {
        snprintf(err, errlen, "%s: expected a rank >= 0, got \"%s\"", cs__nm(cli, "root"), v);
        return CS_EINVAL;
    }
    if (maxb < minb) {
        snprintf(err, errlen, "%s %.0f is below %s %.0f: no sizes to run", cs__nm(cli, "maxbytes"), maxb,
                 cs__nm(cli, "minbytes"), minb);
        return CS_EINVAL;
    }
    if (factor > 1 && minb == 0 && maxb > 0) {
        snprintf(err, errlen, "%s 0 with %s %ld never grows (nccl-tests would loop forever); start at %s 8",
                 cs__nm(cli, "minbytes"), cs__nm(cli, "stepfactor"), factor, cs__nm(cli, "minbytes"));
        return CS_EINVAL;
    }
    struct cs_app_coll_req sizes = {.minb = minb, .maxb = maxb, .stepb = stepb, .factor = factor};
    if (cs_app_coll_nsizes(&sizes, 100000) > 100000) {
        snprintf(err, errlen, "more than 100000 sizes from %s; use a larger step",
                 cli ? "-b/-e/-f/-i" : "minbytes, maxbytes, stepfactor and stepbytes");
        return CS_EINVAL;
    }
    enum cs_coll_op op = CS_COLL_ALL_REDUCE;
    const char *redop = "sum";
    if ((v = get(ctx, "op"))) {
        bool is_redop = false;
        for (size_t i = 0; i < sizeof cs__redops / sizeof cs__redops[0]; i++)
            if (strcmp(v, cs__redops[i]) == 0)
                is_redop = true, redop = cs__redops[i];
        if (!is_redop && cs_coll_op_parse(v, &op) != CS_OK) {
            snprintf(err, errlen, "%s: expected a collective (all_reduce, all_gather, reduce_scatter, "
                                  "alltoall, broadcast, sendrecv) or a reduction op (sum, prod, max, min, "
                                  "avg), got \"%s\"", cs__nm(cli, "op"), v);
            return CS_EINVAL;
        }
    }
    if ((v = get(ctx, "redop"))) {
        bool ok = false;
        for (size_t i = 0; i < sizeof cs__redops / sizeof cs__redops[0]; i++)
            if (strcmp(v, cs__redops[i]) == 0)
                ok = true, redop = cs__redops[i];
        if (!ok) {
            snprintf(err, errlen, "%s: expected sum, prod, max, min or avg, got \"%s\"", cs__nm(cli, "redop"), v);
            return CS_EINVAL;
        }
    }
    const struct cs__type *type = &cs__types[7]; /* float, nccl-tests' default */
    if ((v = get(ctx, "datatype"))) {
        type = NULL;
        for (size_t i = 0; i < sizeof cs__types / sizeof cs__types[0]; i++)
            if (strcmp(v, cs__types[i].name) == 0)
                type = &cs__types[i];
        if (!type) {
            snprintf(err, errlen, "%s: expected int8, uint8, int32, uint32, int64, uint64, half, float, "
                                  "double or bfloat16, got \"%s\"", cs__nm(cli, "datatype"), v);
            return CS_EINVAL;
        }
    }
    enum cs_coll_algo algo = CS_COLL_AUTO;
    if ((v = get(ctx, "algo")) && cs_coll_algo_parse(v, &algo) != CS_OK) {
        snprintf(err, errlen, "%s: expected auto, ring, tree, hier, nvls, sharp, nvls_tree, collnet_chain or "
                              "pat, got \"%s\"", cs__nm(cli, "algo"), v);
        return CS_EINVAL;
    }
    bool have_place = false;
    enum cs_placement place = CS_PLACEMENT_PACKED;
    if ((v = get(ctx, "placement"))) {
        if (strcmp(v, "packed") == 0)
            place = CS_PLACEMENT_PACKED;
        else if (strcmp(v, "scattered") == 0)
            place = CS_PLACEMENT_SCATTERED;
        else {
            snprintf(err, errlen, "%s: expected packed or scattered, got \"%s\"", cs__nm(cli, "placement"), v);
            return CS_EINVAL;
        }
        have_place = true;
    }
    bool use_flow = get(ctx, "flow") != NULL;
    *q = (struct cs_app_coll_req){op, algo, type->bytes, minb, maxb, stepb, factor, ranks,
                                  ngpus, nthreads, root, have_place, place, use_flow, 0, 0};
    *lab = (struct cs_app_coll_labels){redop, type->name, ranks > 0};
    return CS_OK;
}
