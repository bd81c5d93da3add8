/* datadir.c: finds clustersim's data directory once per process (base
 * layer). The binary's own location comes from /proc/self/exe (Linux), a
 * shared library's (libclustersim.so, loaded by the Python package) from
 * dladdr; where neither is available the compiled-in directories are used. */
#define _GNU_SOURCE /* dladdr */
#include "clustersim/base/datadir.h"

#include <dlfcn.h>

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clustersim/base/xmalloc.h"

#ifndef CLUSTERSIM_SOURCE_DIR
#define CLUSTERSIM_SOURCE_DIR ""
#endif
#ifndef CLUSTERSIM_DATA_DIR
#define CLUSTERSIM_DATA_DIR "/usr/local/share/clustersim"
#endif

static pthread_once_t cs__once = PTHREAD_ONCE_INIT;
static char cs__dir[PATH_MAX + 32];
static char cs__catalog[PATH_MAX + 64], cs__plots[PATH_MAX + 64];
static const char *cs__origin = "compiled-in";

static int cs__is_dir(const char *p)
{
    struct stat st;
    return p[0] && stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* A directory is clustersim's data when it holds the catalog. */
static int cs__is_data(const char *p)
{
    char probe[PATH_MAX + 64];
    snprintf(probe, sizeof probe, "%s/scenarios/catalog", p);
    return cs__is_dir(probe);
}

static void cs__choose(void)
{
    const char *env = getenv("CLUSTERSIM_DATA");
    if (env && *env) {
        snprintf(cs__dir, sizeof cs__dir, "%s", env);
        cs__origin = "CLUSTERSIM_DATA";
        return;
    }
    /* In libclustersim.so: PREFIX/share/clustersim above the library's own
     * folder (installed beside the Python package, PREFIX/lib/pythonX/
     * dist-packages/clustersim), up to four folders up. In the binary the
     * address (of this file's data) is the executable's, which the next
     * rule handles. */
    Dl_info info;
    char lib[PATH_MAX];
    if (dladdr(cs__dir, &info) && info.dli_fname && info.dli_fname[0] == '/' &&
        strlen(info.dli_fname) < sizeof lib && strstr(info.dli_fname, ".so")) {
        snprintf(lib, sizeof lib, "%s", info.dli_fname);
        for (int up = 0; up < 5; up++) {
            char *slash = strrchr(lib, '/');
            if (!slash || slash == lib)
                break;
            *slash = '\0';
            if (up == 0)
                continue; /* the library's file name */
            char cand[PATH_MAX + 32];
            snprintf(cand, sizeof cand, "%s/share/clustersim", lib);
            if (cs__is_data(cand)) {
                snprintf(cs__dir, sizeof cs__dir, "%s", cand);
                cs__origin = "installed";
                return;
            }
        }
    }
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';  /* PREFIX/bin */
            slash = strrchr(exe, '/');
            if (slash) {
                *slash = '\0';  /* PREFIX */
                char cand[PATH_MAX + 32];
                snprintf(cand, sizeof cand, "%s/share/clustersim", exe[0] ? exe : "");
                if (cs__is_data(cand)) {
                    snprintf(cs__dir, sizeof cs__dir, "%s", cand);
                    cs__origin = "installed";
                    return;
                }
            }
        }
    }
    if (cs__is_data(CLUSTERSIM_SOURCE_DIR)) {
        snprintf(cs__dir, sizeof cs__dir, "%s", CLUSTERSIM_SOURCE_DIR);
        cs__origin = "source tree";
        return;
    }
    snprintf(cs__dir, sizeof cs__dir, "%s", CLUSTERSIM_DATA_DIR);
    cs__origin = "compiled-in";
}

static void cs__find(void)
{
    cs__choose();
    snprintf(cs__catalog, sizeof cs__catalog, "%s/scenarios/catalog", cs__dir);
    snprintf(cs__plots, sizeof cs__plots, "%s/plots", cs__dir);
}

const char *cs_data_catalog_dir(void)
{
    pthread_once(&cs__once, cs__find);
    return cs__catalog;
}

const char *cs_data_plots_dir(void)
{
    pthread_once(&cs__once, cs__find);
    return cs__plots;
}

const char *cs_data_dir(void)
{
    pthread_once(&cs__once, cs__find);
    return cs__dir;
}

const char *cs_data_dir_origin(void)
{
    pthread_once(&cs__once, cs__find);
    return cs__origin;
}

const char *cs_data_dir_compiled(void)
{
    return CLUSTERSIM_DATA_DIR;
}

char *cs_data_path(const char *rel)
{
    return cs_xasprintf("%s/%s", cs_data_dir(), rel);
}
