/* cmd_sweep.c: `clustersim sweep FILE -j N -o DIR [--shard K/N]`: runs the
 * points of a sweep file on N threads into DIR/results.{csv,jsonl}, with a
 * progress bar on a terminal; restarting the same command resumes. Built
 * with -DCLUSTERSIM_MPI=ON, `mpirun -np R clustersim sweep ...` runs rank
 * r's interleaved share (shard r+1 of R) into DIR/rank-<r+1>-of-<R> and
 * rank 0 merges them into DIR (cs_sweep_merge). */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "progress.h"

#include "clustersim/base/numparse.h"
#include "clustersim/app/sweep_run.h"
#include "clustersim/config/sweep.h"
#include "clustersim/base/xmalloc.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef CLUSTERSIM_MPI
#include <mpi.h>
#endif

static const struct cs_cli_opt cs__sweep_opts[] = {
    {"jobs", 'j', "N", "points evaluated in parallel, one thread each (default 1)"},
    {"output", 'o', "DIR", "directory for results.csv, results.jsonl and sweep.json (required)"},
    {"shard", 0, "K/N", "run only the K-th of N interleaved parts (points with index % N == K-1)"},
    CS_CLI_OPT_CATALOG,
    {"quiet", 'q', NULL, "no progress line on standard error, even on a terminal"},
};

static bool cs__parse_int(const char *s, long lo, long hi, long *out)
{
    return cs_num_parse_long(s, 10, lo, hi, out);
}

/* The command; rank and size are 0 and 1 without MPI. */
static int cs__sweep_ranked(const struct cs_cli_cmd *cmd, const struct cs_cli_args *a, int rank,
                            int size)
{
    if (a->npos != 1) {
        fprintf(stderr, "clustersim sweep: expected one sweep FILE (see 'clustersim help sweep')\n");
        return CS_EXIT_BADINPUT;
    }
    const char *dir = cs_cli_get(cmd, a, "output");
    if (dir && strcmp(dir, "-") == 0) {
        fprintf(stderr, "clustersim sweep: -o -: a sweep writes several files (results.csv, "
                        "results.jsonl, sweep.json); name a directory\n");
        return CS_EXIT_BADINPUT;
    }
    if (!dir) {
        fprintf(stderr, "clustersim sweep: -o DIR is required (results go to DIR/results.csv "
                        "and DIR/results.jsonl)\n");
        return CS_EXIT_BADINPUT;
    }
    long jobs = 1;
    const char *js = cs_cli_get(cmd, a, "jobs");
    if (js && !cs__parse_int(js, 1, 1024, &jobs)) {
        fprintf(stderr, "clustersim sweep: -j: expected 1 to 1024 threads, got \"%s\"\n", js);
        return CS_EXIT_BADINPUT;
    }
    long sk = 1, sn = 1;
    const char *ss = cs_cli_get(cmd, a, "shard");
    if (ss && !cs_cli_parse_shard("sweep", ss, &sk, &sn))
        return CS_EXIT_BADINPUT;
    const char *path = a->pos[0];
    cs_diags d;
    cs_diags_init(&d);
    cs_catalog *cat = NULL;
    const char *cdir = cs_cli_get(cmd, a, "catalog");
    if (cs_catalog_load_dir(cdir ? cdir : cs_catalog_default_dir(), &d, &cat) != CS_OK) {
        cs_cli_print_diags(&d);
        cs_diags_fini(&d);
        return CS_EXIT_BADINPUT;
    }
    cs_sweep *sw = NULL;
    if (cs_sweep_load(path, &d, &sw) != CS_OK || cs_sweep_check(sw, cat, &d) != CS_OK) {
        cs_sweep_destroy(sw);
        cs_cli_print_diags_for(&d, path);
        cs_diags_fini(&d);
        cs_catalog_destroy(cat);
        return CS_EXIT_BADINPUT;
    }
    cs_cli_print_diags_for(&d, path);
    cs_diags_fini(&d);
    /* the progress line (cli/progress.h): on a terminal, rank 0 only */
    struct cs_cli_progress pr;
    cs_cli_progress_init(&pr, "sweep", "points", cs_cli_get(cmd, a, "quiet") != NULL || rank != 0);
    struct cs_sweep_run_opts o = {(int)jobs, (int)sk, (int)sn, NULL, &pr};
    if (pr.on)
        o.progress = cs_cli_progress_cb;
    struct cs_sweep_run_stats stats;
    const char *run_dir = dir;
    char *rank_dir = NULL;
    if (size > 1) { /* each rank its interleaved share, in its own directory */
        o.shard_k = rank + 1;
        o.shard_n = size;
        if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
            fprintf(stderr, "clustersim sweep: %s: cannot create the directory: %s\n", dir,
                    strerror(errno));
            cs_sweep_destroy(sw);
            cs_catalog_destroy(cat);
            return CS_EXIT_FAIL;
        }
        rank_dir = cs_xasprintf("%s/rank-%d-of-%d", dir, rank + 1, size);
        run_dir = rank_dir;
    }
    cs_diags rd;
    cs_diags_init(&rd);
    cs_status st = cs_sweep_run(sw, cat, run_dir, &o, &stats, &rd);
    cs_cli_progress_end(&pr);
    cs_sweep_destroy(sw);
    cs_catalog_destroy(cat);
    free(rank_dir);
    cs_cli_print_diags_prefixed(&rd, "clustersim sweep");
    cs_diags_fini(&rd);
#ifdef CLUSTERSIM_MPI
    if (size > 1) {
        /* Every rank reaches this point (the checks above fail alike on all
         * ranks, before any collective call). Rank 0 merges when all
         * succeeded and tells the others how it went. */
        int bad = st != CS_OK, any_bad = 0, rc = CS_EXIT_OK;
        MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        if (any_bad) {
            rc = st == CS_ECONFIG ? CS_EXIT_BADINPUT : CS_EXIT_FAIL;
        } else if (rank == 0) {
            char **dirs = cs_xcalloc((size_t)size, sizeof *dirs);
            for (int r = 0; r < size; r++)
                dirs[r] = cs_xasprintf("%s/rank-%d-of-%d", dir, r + 1, size);
            cs_diags md;
            cs_diags_init(&md);
            cs_status ms = cs_sweep_merge(dir, (const char *const *)dirs, (size_t)size, &md);
            for (int r = 0; r < size; r++)
                free(dirs[r]);
            free(dirs);
            if (ms != CS_OK) {
                cs_cli_print_diags_prefixed(&md, "clustersim sweep: merging the ranks' results");
                rc = CS_EXIT_FAIL;
            } else {
                fprintf(stderr, "clustersim sweep: %d ranks merged into %s\n", size, dir);
            }
            cs_diags_fini(&md);
        }
        MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
        return rc;
    }
#endif
    if (st != CS_OK)
        return st == CS_ECONFIG ? CS_EXIT_BADINPUT : CS_EXIT_FAIL;
    if (o.progress || stats.ran == 0)
        fprintf(stderr, "clustersim sweep: %llu points (%llu resumed, %llu run, %llu skipped) in "
                        "%s\n", (unsigned long long)stats.total,
                (unsigned long long)stats.resumed, (unsigned long long)stats.ran,
                (unsigned long long)stats.skipped, dir);
    return CS_EXIT_OK;
}

static int cs__sweep(const struct cs_cli_cmd *cmd, const struct cs_cli_args *a)
{
#ifdef CLUSTERSIM_MPI
    /* Only the main thread calls MPI; the point threads never do. */
    int provided = 0, rank = 0, size = 1;
    if (MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
        fprintf(stderr, "clustersim sweep: MPI_Init_thread failed\n");
        return CS_EXIT_FAIL;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size > 1 && cs_cli_get(cmd, a, "shard")) {
        if (rank == 0)
            fprintf(stderr, "clustersim sweep: --shard cannot be combined with mpirun (the "
                            "ranks are the shards)\n");
        MPI_Finalize();
        return CS_EXIT_BADINPUT;
    }
    int rc = cs__sweep_ranked(cmd, a, rank, size);
    MPI_Finalize();
    return rc;
#else
    return cs__sweep_ranked(cmd, a, 0, 1);
#endif
}

const struct cs_cli_cmd cs_cmd_sweep = {
    "sweep",
    "sweep [options] -o DIR FILE",
    "run every point of a sweep file into DIR/results.csv and results.jsonl",
    "A sweep file names a base scenario and axes of key paths (see docs/sweep.md):\n"
    "  base: ../default.yaml\n"
    "  mode: grid            # or zip\n"
    "  axes: {cluster.nodes: {from: 1, to: 64, factor: 2}}\n"
    "  derive: {workload.parallelism.dp: \"gpus / (tp * pp)\"}\n"
    "  constraints: [\"gpus >= tp * pp\"]\n"
    "Each point is its own scenario and simulation; rows are appended as points\n"
    "finish and rewritten sorted by point at the end, so the results do not depend\n"
    "on -j. Run the same command again after a kill to finish the rest.\n"
    "Built with -DCLUSTERSIM_MPI=ON: `mpirun -np R clustersim sweep -o DIR FILE`\n"
    "splits the points among R ranks (DIR/rank-K-of-R) and rank 0 merges them.",
    cs__sweep_opts,
    (int)(sizeof cs__sweep_opts / sizeof cs__sweep_opts[0]),
    cs__sweep,
};
