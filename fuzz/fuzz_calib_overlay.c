/* fuzz_calib_overlay.c: a calibration overlay (the `calibration:` section
 * that `clustersim calibrate` writes and a scenario includes) on a fixed
 * one-node cluster, so that the curves, fits and inputs are bound and
 * checked (config/cfg_calib.c) rather than stopped by a missing cluster. */
#include "fuzz_common.h"

#include "clustersim/config/config.h"

static const char head[] = "schema_version: 1\n"
                           "cluster: {gpu: H100-SXM5-80GB, nodes: 2, gpus_per_node: 8,\n"
                           "          fabric: {topology: fat-tree, link: ib-ndr}}\n";

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
    size_t hl = sizeof head - 1;
    char *buf = malloc(hl + size + 1);
    if (!buf)
        abort();
    memcpy(buf, head, hl);
    if (size)
        memcpy(buf + hl, data, size);
    cs_diags d;
    cs_diags_init(&d);
    struct cs_scenario s;
    if (cs_cfg_load_scenario_buffer("overlay.yaml", buf, hl + size, cs_fuzz_catalog(), &d, &s, NULL) == CS_OK)
        cs_scenario_fini(&s);
    cs_diags_fini(&d);
    free(buf);
    return 0;
}
