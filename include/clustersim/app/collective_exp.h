/* collective_exp.h: the experiment of `clustersim collective` (app layer,
 * app/collective_exp.c): an nccl-tests run simulated on a scenario's
 * cluster: the rank count, the sizes sweep (nccl-tests' -b/-e/-f/-i and
 * getCollByteCount), and per size the time from the closed-form model (a
 * measured calibration curve where the scenario has one) or the flow-level
 * model on the built fabric, with algbw and busbw as nccl-tests computes
 * them (src/common.cu getBw; GB = 1e9 bytes). */
#ifndef CLUSTERSIM_APP_COLLECTIVE_EXP_H
#define CLUSTERSIM_APP_COLLECTIVE_EXP_H

#include "clustersim/base/diag.h"
#include "clustersim/base/status.h"
#include "clustersim/models/collective.h"
#include "clustersim/models/scenario.h"

#include <stdbool.h>
#include <stddef.h>

/* What to run (the command's flags, parsed). */
struct cs_app_coll_req {
    enum cs_coll_op op;
    enum cs_coll_algo algo;      /* CS_COLL_AUTO: the model picks */
    int elem_bytes;              /* datatype size */
    double minb, maxb, stepb;    /* sizes: minb, then x factor (factor > 1) or + stepb */
    long factor;
    long ranks;                  /* 0: every GPU of the cluster */
    long ngpus, nthreads;        /* nccl-tests -g and -t: per process, they divide the ranks */
    long root;                   /* broadcast root */
    bool have_place;             /* override the scenario's placement with `place` */
    enum cs_placement place;
    bool flow;                   /* flow-level model instead of the closed form */
    unsigned algo_mask, proto_mask; /* a run's NCCL_ALGO / NCCL_PROTO (cs_coll_params); 0: all */
};

/* The number of sizes q asks for, counting up to limit + 1 (so a caller
 * can refuse more than `limit`). */
long cs_app_coll_nsizes(const struct cs_app_coll_req *q, long limit);

/* One size. */
struct cs_app_coll_row {
    double size;        /* printed size = bytes of the bandwidth formula */
    double count;       /* printed element count */
    double time_s;
    double algbw, busbw;  /* bytes/s */
    enum cs_coll_algo algo;
    enum cs_coll_proto proto;
    bool has_proto;     /* closed form: the protocol it chose */
};

struct cs_app_coll {
    struct cs_cluster_cfg cluster; /* the scenario's, placement as asked; its pointers
                                    * are the scenario's (borrowed) */
    long n;                      /* ranks */
    int ppn, nodes;              /* ranks per node, nodes spanned */
    long nprocs;                 /* n / (ngpus x nthreads) */
    char ranks_why[160];         /* "--ranks N" or "every GPU of the cluster (...)" */
    long nrows;
    struct cs_app_coll_row *rows; /* owned */
    /* On an error: its message, owned (freed by cs_app_coll_fini). An
     * error about the scenario names its file (cs_path_display of
     * s->file) in the diagnostic's file; one about the flags has none (the
     * caller names the command). */
    cs_diags diags;
};

/* Chooses the rank count for s's cluster (q->ranks, else every GPU) and
 * checks it: at most the cluster's GPUs, whole nodes (or fewer than one),
 * divisible by ngpus x nthreads. Fills out's cluster, n, ppn, nodes, nprocs
 * and ranks_why (out zeroed first; cs_app_coll_fini releases it whatever
 * the status). Returns CS_OK or CS_EINVAL with one error in out->diags. */
cs_status cs_app_coll_setup(const struct cs_scenario *s, const struct cs_app_coll_req *q,
                            struct cs_app_coll *out);

/* Runs every size of q on the setup in *out (cs_app_coll_setup returned
 * CS_OK), filling out->rows. Returns CS_OK; CS_EINVAL (a broadcast root at
 * or past the ranks) or CS_EUNSUPPORTED (the fabric cannot be built, the
 * algorithm is not available on this cluster, the closed form has no
 * finite time or an invalid group, the flow model cannot run it; the
 * model's own status is named in the error in out->diags). */
cs_status cs_app_coll_run(const struct cs_scenario *s, const struct cs_app_coll_req *q,
                          struct cs_app_coll *out);

void cs_app_coll_fini(struct cs_app_coll *r);

/* The labels `collective` prints beside the rows (the flags as given). */
struct cs_app_coll_labels {
    const char *redop;     /* "sum", "prod", "max", "min" or "avg": the reduction op asked for */
    const char *datatype;  /* "float", ...: the element type's name */
    bool ranks_given;      /* --ranks N (else every GPU of the cluster) */
};

/* The value of the command's option `name` (its long name: "minbytes",
 * "op", ...) as text, NULL when absent. */
typedef const char *(*cs_app_coll_flag_fn)(void *ctx, const char *name);

/* Parses the flags of `clustersim collective` (app/collective_opts.c):
 * -b/-e/-i sizes (K/M/G binary multiples, nccl-tests' parsesize), -f, -g,
 * -t, --ranks, -r, -o/--op (a collective or a reduction op), --redop, -d,
 * --algo, --placement, --flow; defaults as nccl-tests' (32M..32M, float,
 * sum, all_reduce). On a bad value returns CS_EINVAL with the message in
 * err, naming the option as the command line spells it ("-b: ...") when
 * cli_names, else by its long name ("minbytes: ..."). */
cs_status cs_app_coll_parse(cs_app_coll_flag_fn get, void *ctx, bool cli_names,
                            struct cs_app_coll_req *q, struct cs_app_coll_labels *lab, char *err,
                            size_t errlen);

#endif
