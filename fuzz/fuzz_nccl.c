/* fuzz_nccl.c: nccl-tests and rccl-tests logs, text and -J JSON
 * (config/nccl.c) from memory. The first byte picks the collective hint
 * and strict mode; every run found is also turned into its cluster's
 * scenario (cs_nccl_run_scenario), as calibrate does. */
#include "fuzz_common.h"

#include "clustersim/config/calib_io.h"
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
    if (size < 1)
        return 0;
    enum cs_coll_op hint = (enum cs_coll_op)((data[0] >> 1) % (CS_COLL_OP_COUNT + 1));
    unsigned flags = data[0] & 1 ? CS_NCCL_STRICT : 0;
    cs_diags d;
    cs_diags_init(&d);
    struct cs_nccl_log log;
    if (cs_nccl_parse_buffer_ex(data[0] & 0x80 ? "log.json" : "log.txt", (const char *)data + 1, size - 1, hint,
                                flags, &d, &log) == CS_OK) {
        for (size_t i = 0; i < log.n_runs && i < 4; i++) {
            struct cs_scenario s;
            if (cs_nccl_run_scenario(&log.runs[i], NULL, cs_fuzz_catalog(), &d, &s) == CS_OK)
                cs_scenario_fini(&s);
        }
        cs_nccl_log_fini(&log);
    }
    cs_diags_fini(&d);
    return 0;
}
