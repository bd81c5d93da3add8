/* fuzz_fio.c: fio --output-format=json of calibrate --fio
 * (config/calib_inputs.c) from memory. */
#include "fuzz_common.h"

#include "clustersim/config/calib_io.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    cs_fuzz_init();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cs_diags d;
    cs_diags_init(&d);
    struct cs_fio_job *jobs = NULL;
    size_t n = 0;
    if (cs_fio_json_parse("fio.json", (const char *)data, size, &d, &jobs, &n) == CS_OK)
        free(jobs);
    cs_diags_fini(&d);
    return 0;
}
