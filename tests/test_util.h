/* test_util.h: helpers shared by the Check suites. */
#ifndef CLUSTERSIM_TEST_UTIL_H
#define CLUSTERSIM_TEST_UTIL_H

#include <check.h>

/* Absolute path of a file in the source tree (CS_SOURCE_DIR or the compiled
 * default); returns a static buffer valid until the next call. */
const char *cs_test_path(const char *rel);

/* Runs a suite with CK_NORMAL output; returns the process exit code. */
int cs_test_run(Suite *s);

#endif
