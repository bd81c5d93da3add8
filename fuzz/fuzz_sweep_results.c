/* fuzz_sweep_results.c: a sweep's results directory as plot and report
 * read it (report/sweep_plot.c: sweep.json, then results.jsonl). The first
 * two bytes give the length of sweep.json; the rest is results.jsonl. Both
 * are written into a folder of the harness's temporary directory. */
#include "fuzz_common.h"

#include "clustersim/report/sweep_plot.h"

#include <sys/stat.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    cs_fuzz_init();
    if (mkdir("res", 0700) != 0)
        abort();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    size_t mlen = ((size_t)data[0] << 8 | data[1]) % (size - 1);
    cs_fuzz_write("res/sweep.json", data + 2, mlen);
    cs_fuzz_write("res/results.jsonl", data + 2 + mlen, size - 2 - mlen);
    struct cs_sweep_results r;
    cs_diags d;
    cs_diags_init(&d);
    if (cs_sweep_results_load("res", &r, &d) == CS_OK) {
        (void)cs_sweep_results_col(&r, "gpus");
        cs_sweep_results_fini(&r);
    }
    cs_diags_fini(&d);
    return 0;
}
