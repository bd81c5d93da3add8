/* collective_exp.c: an nccl-tests run simulated (contract in
 * clustersim/app/collective_exp.h). Sizes, counts and bandwidths follow
 * nccl-tests (src/common.cu setupArgs/TimeTest, the per-op
 * getCollByteCount and getBw). */
#include "clustersim/app/collective_exp.h"

#include "clustersim/base/xmalloc.h"
#include "clustersim/config/fileio.h"
#include "clustersim/models/calib.h"
#include "clustersim/models/flow.h"
#include "clustersim/models/topology.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double next_size(const struct cs_app_coll_req *q, double s)
{
    return q->factor > 1 ? s * (double)q->factor : s + q->stepb;
}

long cs_app_coll_nsizes(const struct cs_app_coll_req *q, long limit)
{
    long n = 0;
    for (double s = q->minb; s <= q->maxb && n <= limit; s = next_size(q, s))
        n++;
    return n;
}

/* nccl-tests getCollByteCount: the printed size (max of send and receive
 * bytes) and count (the count passed to NCCL) from a requested size. */
static void sizes(enum cs_coll_op op, double size, int ws, int n, double *printed, double *count)
{
    double c = floor(size / ws);
    switch (op) {
    case CS_COLL_ALL_GATHER:
    case CS_COLL_REDUCE_SCATTER:
    case CS_COLL_ALLTOALL: {
        double per = floor(c / n);
        *count = per;
        *printed = per * n * ws;
        break;
    }
    default:
        *count = c;
        *printed = c * ws;
        break;
    }
}

void cs_app_coll_fini(struct cs_app_coll *r)
{
    if (!r)
        return;
    free(r->rows);
    cs_diags_fini(&r->diags);
    memset(r, 0, sizeof *r);
}

/* The scenario's file as diagnostics name it ("<stdin>" for "-"), for the
 * errors that are about the scenario rather than the flags. */
static const char *cs__file(const struct cs_scenario *s)
{
    return s->file ? cs_path_display(s->file) : NULL;
}

cs_status cs_app_coll_setup(const struct cs_scenario *s, const struct cs_app_coll_req *q,
                            struct cs_app_coll *out)
{
    memset(out, 0, sizeof *out);
    cs_diags_init(&out->diags);
    out->cluster = s->cluster;
    struct cs_cluster_cfg *c = &out->cluster;
    if (q->have_place)
        c->fabric.placement = q->place;
    long total = (long)c->nodes * c->gpus_per_node;
    int gpn = c->gpus_per_node;
    /* The rank count: --ranks, else every GPU of the cluster. nccl-tests'
     * -g and -t are per process (ranks = nprocs x t x g, nprocs from
     * mpirun, which clustersim does not have), so they never set it. */
    long n = q->ranks > 0 ? q->ranks : total;
    out->n = n;
    if (q->ranks > 0)
        snprintf(out->ranks_why, sizeof out->ranks_why, "--ranks %ld", q->ranks);
    else
        snprintf(out->ranks_why, sizeof out->ranks_why,
                 "every GPU of the cluster (%d nodes x %d GPUs)", c->nodes, gpn);
    if (n > total) {
        cs_diag_error(&out->diags, cs__file(s), 0, 0, "--ranks %ld: the cluster has only %ld GPUs (%d nodes x %d)",
                 n, total, c->nodes, gpn);
        return CS_EINVAL;
    }
    int ppn = n < gpn ? (int)n : gpn;
    out->ppn = ppn;
    if (n % ppn != 0) {
        cs_diag_error(&out->diags, cs__file(s), 0, 0,
                 "--ranks %ld: expected a multiple of the %d GPUs per node (whole nodes), or fewer", n,
                 gpn);
        return CS_EINVAL;
    }
    if (n % (q->ngpus * q->nthreads) != 0) {
        cs_diag_error(&out->diags, cs__file(s), 0, 0,
                 "-t %ld x -g %ld = %ld ranks per process does not divide the %ld ranks (%s)",
                 q->nthreads, q->ngpus, q->nthreads * q->ngpus, n, out->ranks_why);
        return CS_EINVAL;
    }
    out->nprocs = n / (q->ngpus * q->nthreads);
    out->nodes = (int)(n / ppn);
    return CS_OK;
}

cs_status cs_app_coll_run(const struct cs_scenario *s, const struct cs_app_coll_req *q,
                          struct cs_app_coll *out)
{
    const struct cs_cluster_cfg *c = &out->cluster;
    long n = out->n;
    int ppn = out->ppn, m = out->nodes;
    enum cs_coll_op op = q->op;
    enum cs_coll_algo algo = q->algo;
    if (op == CS_COLL_BROADCAST && q->root >= n) {
        cs_diag_error(&out->diags, NULL, 0, 0, "-r %ld: root must be below the %ld ranks", q->root, n);
        return CS_EINVAL;
    }
    struct cs_coll_group grp = {(int)n, ppn, 1, 0, m, 0, 0, 0};
    struct cs_coll_params par;
    cs_calib_coll_params(s, &par); /* defaults + the scenario's calibration */
    if (q->algo_mask)
        par.algo_mask = q->algo_mask;
    if (q->proto_mask)
        par.proto_mask = q->proto_mask;
    const struct cs_calib_curve *curve =
        q->flow ? NULL : cs_calib_find_curve(&s->calibration, op, (int)n, m, algo);

    /* Flow model: build the fabric and place the ranks once. */
    cs_fabric *fab = NULL;
    int *ids = NULL;
    if (q->flow) {
        cs_status st = cs_fabric_create(c, s->seed, &fab);
        if (st == CS_OK) {
            ids = cs_xmalloc((size_t)n * sizeof *ids);
            st = cs_fabric_place(fab, (enum cs_place_policy)c->fabric.placement, (int)n, s->seed,
                                 NULL, ids);
        }
        if (st != CS_OK) {
            cs_diag_error(&out->diags, cs__file(s), 0, 0, "cannot build the fabric for the flow model: %s",
                     cs_strerror(st));
            free(ids);
            cs_fabric_destroy(fab);
            return CS_EUNSUPPORTED;
        }
    }

    long nrows = cs_app_coll_nsizes(q, 100000);
    out->rows = cs_xcalloc((size_t)(nrows > 0 ? nrows : 1), sizeof *out->rows);
    long k = 0;
    cs_status ret = CS_OK;
    for (double sz = q->minb; sz <= q->maxb && k < nrows; sz = next_size(q, sz), k++) {
        struct cs_app_coll_row *r = &out->rows[k];
        sizes(op, sz, q->elem_bytes, (int)n, &r->size, &r->count);
        double t = 0.0;
        if (q->flow) {
            double dev = 0.0;
            cs_status st = r->size > 0 && n > 1
                               ? cs_flow_collective(fab, op, r->size, ids, (int)n, algo, &dev)
                               : CS_OK;
            if (st != CS_OK) {
                cs_diag_error(&out->diags, NULL, 0, 0,
                         "the flow model cannot run %s with --algo %s: %s", cs_coll_op_name(op),
                         cs_coll_algo_name(algo), cs_strerror(st));
                ret = CS_EUNSUPPORTED;
                break;
            }
            t = r->size > 0 && n > 1 ? cs_coll_launch_bound_s(&par, dev) : 0.0;
            r->algo = algo == CS_COLL_AUTO
                          ? (m > 1 && ppn > 1 && op != CS_COLL_ALLTOALL && op != CS_COLL_SENDRECV &&
                                     op != CS_COLL_BROADCAST
                                 ? CS_COLL_HIER
                                 : CS_COLL_RING)
                          : algo;
        } else {
            cs_status cst = cs_coll_time_ex(c, &par, op, r->size, &grp, algo, &t, &r->algo, &r->proto);
            r->has_proto = true;
            if (curve && cst == CS_OK) /* a measured curve for this (op, ranks, nodes): calib.h */
                t = cs_calib_curve_time_s(curve, r->size);
            if (cst != CS_OK && cst != CS_EUNSUPPORTED) {
                cs_diag_error(&out->diags, cs__file(s), 0, 0,
                         "%s of %.0f bytes over %d ranks (%d per node) cannot be modelled: %s",
                         cs_coll_op_name(op), r->size, (int)n, ppn, cs_strerror(cst));
                ret = CS_EUNSUPPORTED;
                break;
            }
            if (cst != CS_OK) {
                cs_diag_error(&out->diags, cs__file(s), 0, 0,
                         "%s with --algo %s is not available on this cluster (%d ranks, %d per "
                         "node; NVLS needs an NVSwitch with NVLS and one node, NVLS_TREE the same "
                         "switch and several nodes, SHARP and COLLNET_CHAIN need "
                         "cluster.fabric.in_network_reduction and several nodes, PAT one GPU per node)",
                         cs_coll_op_name(op), cs_coll_algo_name(algo), (int)n, ppn);
                ret = CS_EUNSUPPORTED;
                break;
            }
        }
        r->time_s = t;
        r->algbw = t > 0 ? r->size / t : 0.0;
        r->busbw = r->algbw * cs_coll_busbw_factor(op, (int)n);
    }
    out->nrows = k;
    free(ids);
    cs_fabric_destroy(fab);
    return ret;
}
