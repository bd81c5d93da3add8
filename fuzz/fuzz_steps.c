/* fuzz_steps.c: the measured step-times CSV of calibrate --steps
 * (config/calib_inputs.c) from memory, and its first rows resolved to
 * scenarios over a fixed base (the overrides go through the loader). */
#include "fuzz_common.h"

#include "clustersim/config/calib_io.h"
#include "clustersim/config/config.h"

static const char base[] = "schema_version: 1\n"
                           "cluster: {gpu: H100-SXM5-80GB, nodes: 1, gpus_per_node: 8}\n"
                           "workload:\n"
                           "  model: {preset: llama2-7b}\n"
                           "  global_batch: 64\n"
                           "  parallelism: {tp: 1, pp: 1}\n";

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
    cs_diags d;
    cs_diags_init(&d);
    struct cs_steps_row *rows = NULL;
    size_t n = 0;
    if (cs_steps_csv_parse("steps.csv", (const char *)data, size, &d, &rows, &n) == CS_OK) {
        for (size_t i = 0; i < n && i < 3; i++) {
            struct cs_scenario s;
            if (cs_steps_row_scenario(&rows[i], "steps.csv", "base.yaml", cs_fuzz_catalog(), &d, &s) == CS_OK)
                cs_scenario_fini(&s);
        }
        cs_steps_rows_free(rows, n);
    }
    cs_diags_fini(&d);
    return 0;
}
