/* fuzz_common.h: what every libFuzzer harness of fuzz/ shares: a private
 * empty working directory (so that relative include:s and the files a
 * harness writes stay in a temporary directory), the catalog loaded once,
 * and the input as a NUL-terminated copy for the parsers that want one. */
#ifndef CLUSTERSIM_FUZZ_COMMON_H
#define CLUSTERSIM_FUZZ_COMMON_H

#define _POSIX_C_SOURCE 200809L /* mkdtemp */

#include "clustersim/base/diag.h"
#include "clustersim/base/datadir.h"
#include "clustersim/config/catalog.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* The harness's temporary directory (the working directory after
 * cs_fuzz_init); removed at exit with what the harness left in it. */
static char cs_fuzz_dir[64];

static inline void cs_fuzz_cleanup(void)
{
    if (!cs_fuzz_dir[0])
        return;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", cs_fuzz_dir);
    if (system(cmd) != 0)
        fprintf(stderr, "fuzz: could not remove %s\n", cs_fuzz_dir);
}

/* Makes and enters the temporary directory; the data directory is found
 * first (from the build's source tree) so that the move does not lose it. */
static inline void cs_fuzz_init(void)
{
    (void)cs_data_dir();
    const char *tmp = getenv("TMPDIR");
    snprintf(cs_fuzz_dir, sizeof cs_fuzz_dir, "%s/cs_fuzz_XXXXXX", tmp && *tmp && strlen(tmp) < 40 ? tmp : "/tmp");
    if (!mkdtemp(cs_fuzz_dir) || chdir(cs_fuzz_dir) != 0) {
        perror("fuzz: temporary directory");
        abort();
    }
    atexit(cs_fuzz_cleanup);
}

/* The bundled catalog, loaded once (kept for the process: not a leak). */
static inline cs_catalog *cs_fuzz_catalog(void)
{
    static cs_catalog *cat;
    if (!cat) {
        cs_diags d;
        cs_diags_init(&d);
        if (cs_catalog_load_dir(cs_data_catalog_dir(), &d, &cat) != CS_OK) {
            fprintf(stderr, "fuzz: the catalog %s does not load\n", cs_data_catalog_dir());
            abort();
        }
        cs_diags_fini(&d);
    }
    return cat;
}

/* A NUL-terminated heap copy of the input; caller frees. */
static inline char *cs_fuzz_cstr(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        abort();
    if (size)
        memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

/* Writes the bytes to `name` in the temporary directory. */
static inline void cs_fuzz_write(const char *name, const void *data, size_t size)
{
    FILE *f = fopen(name, "wb");
    if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0) {
        perror(name);
        abort();
    }
}

#endif
