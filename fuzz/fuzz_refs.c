/* fuzz_refs.c: the published step-time tables of validation/throughput
 * (config/refs.c: SC21, Korthikanti, Megatron-Core) from memory; each row
 * becomes a scenario through the ordinary loader. */
#include "fuzz_common.h"

#include "clustersim/config/refs.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    cs_fuzz_init();
    (void)cs_fuzz_catalog();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cs_diags d;
    cs_diags_init(&d);
    struct cs_ref_case *cases = NULL;
    size_t n = 0;
    (void)cs_refs_load_buffer("refs.csv", (const char *)data, size, cs_fuzz_catalog(), &d, &cases, &n);
    cs_refs_free(cases, n);
    cs_diags_fini(&d);
    return 0;
}
