/* fuzz_plan.c: a plan file (config/plan.c: deadline, budget, candidates
 * with node ranges, fabrics, storage, ownership and cloud offers; the
 * scenario part bound per candidate): loaded, its offers checked and its
 * first candidates bound as scenarios (nothing simulated). The plan is
 * written to the harness's temporary directory, as cs_plan_load reads a
 * path. */
#include "fuzz_common.h"

#include "clustersim/config/config.h"
#include "clustersim/config/plan.h"

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
    cs_fuzz_write("plan.yaml", data, size);
    cs_diags d;
    cs_diags_init(&d);
    cs_plan *p = NULL;
    if (cs_plan_load("plan.yaml", NULL, 0, &d, &p) == CS_OK) {
        const struct cs_plan_info *pi = cs_plan_info(p);
        (void)cs_plan_check_offers(p, cs_fuzz_catalog(), &d);
        int n = 0;
        for (int g = 0; g < pi->n_gpus && n < 3; g++)
            for (int k = 0; k < pi->n_nodes && n < 3; k++)
                for (int f = 0; f < pi->n_variants && n < 3; f++, n++) {
                    struct cs_scenario s;
                    cs_diags cd;
                    cs_diags_init(&cd);
                    if (cs_plan_candidate(p, g, k, f, cs_fuzz_catalog(), &cd, &s) == CS_OK)
                        cs_scenario_fini(&s);
                    cs_diags_fini(&cd);
                }
        cs_plan_destroy(p);
    }
    cs_diags_fini(&d);
    return 0;
}
