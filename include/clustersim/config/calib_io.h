/* calib_io.h: the readers of calibration inputs (config layer): nccl-tests
 * and rccl-tests logs (text and -J JSON), a GEMM CSV, fio JSON and a CSV of
 * measured step times, into the plain data of models/calib.h; and the
 * scenarios those measurements ran on. Every reader takes gzip-compressed
 * input and "-" for standard input (fileio.h). */
#ifndef CLUSTERSIM_CONFIG_CALIB_IO_H
#define CLUSTERSIM_CONFIG_CALIB_IO_H

#include "clustersim/base/diag.h"
#include "clustersim/config/catalog.h"
#include "clustersim/models/calib.h"
#include "clustersim/models/scenario.h"

#include <stddef.h>

/* Parses nccl-tests output (all_reduce_perf, all_gather_perf,
 * reduce_scatter_perf, alltoall_perf, broadcast_perf, sendrecv_perf and
 * the others that print the same table) and rccl-tests output, as text
 * (nccl-tests 2.0 to 2.19: device lines, -S timestamps, -I per-iteration
 * columns, -C cputime, -c 0 N/A, -N cycles) or as the JSON document of
 * nccl-tests -J (2.17.3+; told apart by its first character, '{'). A run
 * starts at "# nccl-tests version", "# nThread" or "# Collective test
 * starting:"; several runs may follow one another, and a table whose rows
 * change data type or reduction (-d all, -o all) is split into one run per
 * (type, redop). The operation comes from "Collective test starting:
 * X_perf" or any "X_perf" on a line before the table (the command line;
 * X_perf_SUFFIX binaries too); otherwise from op_hint (CS_COLL_OP_COUNT for
 * none: a run whose op cannot be told is an error). Lines that start with
 * '#', and lines whose first two words are not whole numbers (NCCL INFO,
 * mpirun warnings, other programs' output) are ignored, unless indented
 * with a whole number first (nccl-tests right-aligns the size); an Open MPI
 * --tag-output prefix "[1,0]<stdout>:" and a Slurm --label prefix "0: " are
 * removed first. A line whose first two words are whole numbers (or that
 * is indented and starts with one) must be a row (size count type redop [root] then 4 or 8 columns per half, [date
 * time]); one that is not is skipped with a warning "file:line: warning:"
 * and counted in skipped_rows (at most 10 warnings per file, then one
 * summary), or, with CS_NCCL_STRICT, is an error naming file:line:col.
 * `name` (borrowed) is the file name of diagnostics. Returns CS_OK with
 * *out filled (caller frees with cs_nccl_log_fini); CS_ECONFIG with
 * diagnostics for a malformed log or one without any row; *out untouched
 * then. */
#define CS_NCCL_STRICT 1u
cs_status cs_nccl_parse_buffer_ex(const char *name, const char *buf, size_t len, enum cs_coll_op op_hint,
                                  unsigned flags, cs_diags *d, struct cs_nccl_log *out);
/* Same from a file (gzip-compressed or not, "-" for standard input:
 * fileio.h); CS_EIO when it cannot be read. */
cs_status cs_nccl_parse_file_ex(const char *path, enum cs_coll_op op_hint, unsigned flags, cs_diags *d,
                                struct cs_nccl_log *out);
/* The lenient forms (flags 0). */
cs_status cs_nccl_parse_buffer(const char *name, const char *buf, size_t len, enum cs_coll_op op_hint,
                               cs_diags *d, struct cs_nccl_log *out);
cs_status cs_nccl_parse_file(const char *path, enum cs_coll_op op_hint, cs_diags *d, struct cs_nccl_log *out);

/* Catalog GPU name for an nvidia-smi / rocm device name ("NVIDIA H100 80GB
 * HBM3" -> "H100-SXM5-80GB"); NULL when unknown. Static strings. */
const char *cs_calib_gpu_catalog_name(const char *device);

/* GEMM CSV: a header naming the columns m, n, k, dtype (fp32 tf32 bf16 fp16
 * fp8; default bf16), and seconds or tflops (one of them), optionally
 * batch and name; '#' comments. One row per GEMM (m x k) * (k x n). */
cs_status cs_gemm_csv_parse(const char *name, const char *buf, size_t len, cs_diags *d,
                            struct cs_gemm_row **rows, size_t *n);
cs_status cs_gemm_csv_load(const char *path, cs_diags *d, struct cs_gemm_row **rows, size_t *n);

/* fio JSON (--output-format=json): one entry per job and direction that
 * moved data (read, write). */
cs_status cs_fio_json_parse(const char *name, const char *buf, size_t len, cs_diags *d,
                            struct cs_fio_job **jobs, size_t *n);
cs_status cs_fio_json_load(const char *path, cs_diags *d, struct cs_fio_job **jobs, size_t *n);

/* Measured step times CSV: columns `scenario` (optional: a scenario path
 * relative to the CSV; default the base scenario), `step_time_s` (required;
 * also `measured_s`), `label` (optional) and any number of override columns
 * named by a key path (`cluster.nodes`, `workload.parallelism.tp`) whose
 * cells hold plain scalars (empty: not overridden). */
#define CS_STEPS_MAX_OVERRIDES 32
struct cs_steps_row {
    int line;
    char label[96];
    char *scenario;           /* owned; NULL: the base */
    int n_over;
    char *keys[CS_STEPS_MAX_OVERRIDES];   /* owned */
    char *values[CS_STEPS_MAX_OVERRIDES]; /* owned */
    double measured_s;
};
cs_status cs_steps_csv_parse(const char *name, const char *buf, size_t len, cs_diags *d,
                             struct cs_steps_row **rows, size_t *n);
cs_status cs_steps_csv_load(const char *path, cs_diags *d, struct cs_steps_row **rows, size_t *n);
void cs_steps_rows_free(struct cs_steps_row *rows, size_t n);

/* Resolves a steps row to a scenario: its scenario file (or `base`, a path;
 * NULL with no scenario column is an error) with the overrides applied
 * through the normal loader (a YAML document that includes the file and
 * sets the keys), so every value is checked as a scenario's would be.
 * `csv_path` locates relative scenario paths. Caller finalizes *out with
 * cs_scenario_fini. */
cs_status cs_steps_row_scenario(const struct cs_steps_row *row, const char *csv_path, const char *base,
                                const cs_catalog *cat, cs_diags *d, struct cs_scenario *out);

/* The cluster an nccl-tests run measured: `base` (a scenario path, or NULL
 * for the catalog GPU named by the run's devices) with nodes and
 * gpus_per_node set from the run (ranks / nodes per node). */
cs_status cs_nccl_run_scenario(const struct cs_nccl_run *run, const char *base, const cs_catalog *cat,
                               cs_diags *d, struct cs_scenario *out);


#endif
