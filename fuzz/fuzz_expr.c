/* fuzz_expr.c: the derive:/constraints: expression evaluator
 * (config/expr.c) on arbitrary text, with a handful of names known. */
#include "fuzz_common.h"

#include "clustersim/config/expr.h"

static bool lookup(void *ctx, const char *name, size_t len, double *out)
{
    (void)ctx;
    static const char *const names[] = {"tp", "pp", "dp", "gpus", "nodes", "cluster.nodes", "zero"};
    static const double values[] = {8, 4, 2, 64, 8, 8, 0};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strlen(names[i]) == len && memcmp(names[i], name, len) == 0) {
            *out = values[i];
            return true;
        }
    return false;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    cs_fuzz_init();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = cs_fuzz_cstr(data, size);
    double v = 0;
    char err[256];
    (void)cs_expr_eval(s, lookup, NULL, &v, err, sizeof err);
    free(s);
    return 0;
}
