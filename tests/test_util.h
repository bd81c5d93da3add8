/* test_util.h: helpers shared by the Check suites. */
#ifndef CLUSTERSIM_TEST_UTIL_H
#define CLUSTERSIM_TEST_UTIL_H

#include <check.h>

#include "clustersim/models/hw.h"

/* Absolute path of a file in the source tree (CS_SOURCE_DIR or the compiled
 * default); returns a static buffer valid until the next call. */
const char *cs_test_path(const char *rel);

/* Like cs_test_path for a data file the test cannot do without (under
 * validation/ or tests/data/): fails the running test with a message naming
 * the file when it is missing or unreadable, so missing data never passes. */
const char *cs_test_data(const char *rel);

/* An H100-SXM-like spec for hand-derived checks: 989 TFLOP/s bf16 and fp16,
 * 1979 fp8, 80 GB at 3.35 TB/s, MAMF 794.5 TFLOP/s, PCIe gen 5, 8 GPUs per
 * server; every other peak NAN. */
struct cs_gpu_spec cs_test_h100_spec(void);

/* --set-style overrides from "KEY=VALUE" strings: ov[i] points into sets[i]
 * and paths[i] (the keys, allocated; free them with cs_test_overrides_free).
 * Fails the running test on a string without '='. */
struct cs_cfg_override;
void cs_test_overrides(const char *const *sets, int n, struct cs_cfg_override *ov, char **paths);
void cs_test_overrides_free(char **paths, int n);

/* The small run-level scenario the run, data-pipeline and fault-domain
 * suites build in code (no catalog): `nodes` x `gpn` GPUs (PCIe gen 5, 112
 * cores and 2 TB of host memory a node), one PFS tier "pfs1" (8 GB/s per
 * client each way, no aggregate limit), a 1-layer, hidden-1,024 model with
 * tp gpn x dp nodes, one sequence per replica, no token target, no
 * failures, checkpoints or data section, one replica; `seed` as given.
 * Callers change what their test needs. */
struct cs_scenario;
void cs_test_run_scenario(struct cs_scenario *s, unsigned seed, int nodes, int gpn);

/* Runs a suite with CK_NORMAL output; returns the process exit code. */
int cs_test_run(Suite *s);

#endif
