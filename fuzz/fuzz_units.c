/* fuzz_units.c: quantities with units ("400Gbps", "1.5 h", "80GiB";
 * base/units.c). The first byte picks the kind, the rest is the text. */
#include "fuzz_common.h"

#include "clustersim/base/units.h"

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
    double v = 0;
    char err[160];
    (void)cs_units_parse(s, (enum cs_unit_kind)(data[0] % (CS_UNIT_KIND_COUNT + 1)), &v, err, sizeof err);
    (void)cs_units_example((enum cs_unit_kind)(data[0] % (CS_UNIT_KIND_COUNT + 1)));
    free(s);
    return 0;
}
