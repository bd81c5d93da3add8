/* fuzz_trace.c: every job-trace format (native CSV, ITP, openb, Helios,
 * Acme, PAI, Philly JSON; config/trace.c) from memory. The first byte picks
 * the format (auto-detection included), the rest is the trace; a second
 * byte picks a window and a limit. */
#include "fuzz_common.h"

#include "clustersim/config/trace.h"

#include <math.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    cs_fuzz_init();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    struct cs_trace_options o;
    cs_trace_options_default(&o);
    o.format = (enum cs_trace_format)(data[0] % (CS_TRACE_PHILLY + 1));
    if (data[1] & 1)
        o.from_s = 10;
    if (data[1] & 2)
        o.to_s = 1e6;
    if (data[1] & 4)
        o.limit = 3;
    struct cs_trace t;
    cs_trace_init(&t);
    cs_diags d;
    cs_diags_init(&d);
    (void)cs_trace_load_buffer(data[1] & 8 ? "fuzz.json" : "fuzz.csv", (const char *)data + 2, size - 2, &o, &t,
                               &d);
    (void)cs_trace_gpu_hours(&t);
    cs_trace_fini(&t);
    cs_diags_fini(&d);
    return 0;
}
