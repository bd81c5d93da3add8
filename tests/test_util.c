/* test_util.c: helpers shared by the Check suites. */
#define _POSIX_C_SOURCE 200809L /* access */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

const char *cs_test_path(const char *rel)
{
    static char buf[4096];
    const char *root = getenv("CS_SOURCE_DIR");
    if (!root || !*root)
        root = CLUSTERSIM_SOURCE_DIR;
    snprintf(buf, sizeof buf, "%s/%s", root, rel);
    return buf;
}

const char *cs_test_data(const char *rel)
{
    const char *p = cs_test_path(rel);
    if (access(p, R_OK) != 0)
        ck_abort_msg("data file missing or unreadable: %s (%s); it is part of the repository, "
                     "restore it with git checkout", rel, p);
    return p;
}

int cs_test_run(Suite *s)
{
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
