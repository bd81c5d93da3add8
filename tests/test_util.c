/* test_util.c: helpers shared by the Check suites. */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>

const char *cs_test_path(const char *rel)
{
    static char buf[4096];
    const char *root = getenv("CS_SOURCE_DIR");
    if (!root || !*root)
        root = CLUSTERSIM_SOURCE_DIR;
    snprintf(buf, sizeof buf, "%s/%s", root, rel);
    return buf;
}

int cs_test_run(Suite *s)
{
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
