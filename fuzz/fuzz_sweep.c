/* fuzz_sweep.c: a sweep file (config/sweep.c: axes, ranges, zip/grid,
 * derive:, constraints:) over a fixed base scenario: loaded, checked against
 * the schema and its first points built. The sweep is written to the
 * harness's temporary directory, as cs_sweep_load reads a path. */
#include "fuzz_common.h"

#include "clustersim/config/config.h"
#include "clustersim/config/sweep.h"

static const char base[] = "schema_version: 1\n"
                           "cluster: {gpu: H100-SXM5-80GB, nodes: 2, gpus_per_node: 8,\n"
                           "          fabric: {topology: fat-tree, link: ib-ndr}}\n"
                           "workload:\n"
                           "  model: {preset: llama2-7b}\n"
                           "  global_batch: 64\n"
                           "  parallelism: {tp: 2, pp: 1}\n";

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    cs_fuzz_init();
    (void)cs_fuzz_catalog();
    cs_fuzz_write("base.yaml", base, sizeof base - 1);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cs_fuzz_write("sweep.yaml", data, size);
    cs_diags d;
    cs_diags_init(&d);
    cs_sweep *sw = NULL;
    if (cs_sweep_load("sweep.yaml", &d, &sw) == CS_OK) {
        if (cs_sweep_check(sw, cs_fuzz_catalog(), &d) == CS_OK) {
            uint64_t np = cs_sweep_points(sw);
            for (uint64_t i = 0; i < np && i < 3; i++) {
                struct cs_sweep_point pt;
                struct cs_scenario s;
                cs_diags pd;
                cs_diags_init(&pd);
                if (cs_sweep_point_build(sw, i, cs_fuzz_catalog(), &pd, &pt, &s) == CS_OK && !pt.skipped)
                    cs_scenario_fini(&s);
                cs_sweep_point_fini(&pt);
                cs_diags_fini(&pd);
            }
        }
        cs_sweep_destroy(sw);
    }
    cs_diags_fini(&d);
    return 0;
}
