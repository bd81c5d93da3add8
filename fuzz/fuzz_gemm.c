/* fuzz_gemm.c: the GEMM timing CSV of calibrate --gemm
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
    struct cs_gemm_row *rows = NULL;
    size_t n = 0;
    if (cs_gemm_csv_parse("gemm.csv", (const char *)data, size, &d, &rows, &n) == CS_OK)
        free(rows);
    cs_diags_fini(&d);
    return 0;
}
