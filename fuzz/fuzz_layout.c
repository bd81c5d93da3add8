/* fuzz_layout.c: Megatron-Core pipeline layouts ("Et*4|(t*4|)*14tmL";
 * models/workload.c, cs_pipeline_layout_parse). The first byte picks the
 * pipeline degree (1-8) and the MTP depth (0-3) of the workload the layout
 * is checked against; the rest is the text. A layout that parses and
 * checks is then walked stage by stage as the step and the memory model
 * walk it. */
#include "fuzz_common.h"

#include "clustersim/models/workload.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    cs_fuzz_init();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    char *s = cs_fuzz_cstr(data + 1, size - 1);
    struct cs_workload w;
    memset(&w, 0, sizeof w);
    char err[256];
    if (cs_pipeline_layout_parse(s, &w.par.layout, err, sizeof err)) {
        int stages = w.par.layout.stages;
        w.par.pp = 1 + data[0] % 8;
        w.par.vp = stages % w.par.pp == 0 ? stages / w.par.pp : 1;
        w.model.mtp_layers = (data[0] >> 3) % 4;
        long t = 0;
        for (int k = 0; k < stages; k++)
            t += w.par.layout.decoders[k];
        w.model.layers = t > 0 && t < 100000 ? (int)t : 1;
        if (cs_pipeline_layout_check(&w, err, sizeof err)) {
            long sum = 0;
            for (int k = 0; k < stages; k++) {
                int first = 0, mtp = 0;
                bool e = false, l = false;
                sum += cs_workload_vstage_layers(&w, k, &first);
                cs_workload_vstage_extras(&w, k, &e, &mtp, &l);
                if (first < 0 || mtp < 0)
                    abort();
            }
            if (sum != w.model.layers)
                abort();
        }
    }
    /* the default split with MTP modules, for the same degrees */
    memset(&w.par.layout, 0, sizeof w.par.layout);
    for (int k = 0; k < w.par.pp * (w.par.vp > 0 ? w.par.vp : 1) && k < 4096; k++)
        if (cs_workload_vstage_layers(&w, k, NULL) < 0)
            abort();
    free(s);
    return 0;
}
