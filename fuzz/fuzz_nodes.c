/* fuzz_nodes.c: the node lists of heterogeneous clusters (Alibaba openb,
 * PAI machine spec; config/trace.c) from memory. */
#include "fuzz_common.h"

#include "clustersim/config/trace.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    cs_fuzz_init();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct cs_trace_nodes n;
    cs_diags d;
    cs_diags_init(&d);
    (void)cs_trace_load_nodes_buffer("nodes.csv", (const char *)data, size, &n, &d);
    cs_diags_fini(&d);
    return 0;
}
