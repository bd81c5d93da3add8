/* fuzz_scenario.c: a scenario file (YAML tree, include:, schema binding,
 * every section's checks) from memory: cs_cfg_load_scenario_buffer. */
#include "fuzz_common.h"

#include "clustersim/config/config.h"

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
    struct cs_scenario s;
    struct cs_provenance p;
    cs_provenance_init(&p);
    if (cs_cfg_load_scenario_buffer("fuzz.yaml", (const char *)data, size, cs_fuzz_catalog(), &d, &s, &p) == CS_OK)
        cs_scenario_fini(&s);
    cs_provenance_fini(&p);
    cs_diags_fini(&d);
    return 0;
}
