/* test_util.h: helpers shared by the Check suites. */
#ifndef CLUSTERSIM_TEST_UTIL_H
#define CLUSTERSIM_TEST_UTIL_H

#include <check.h>

/* Absolute path of a file in the source tree (CS_SOURCE_DIR or the compiled
 * default); returns a static buffer valid until the next call. */
const char *cs_test_path(const char *rel);

/* Like cs_test_path for a data file the test cannot do without (under
 * validation/ or tests/data/): fails the running test with a message naming
 * the file when it is missing or unreadable, so missing data never passes. */
const char *cs_test_data(const char *rel);

/* Runs a suite with CK_NORMAL output; returns the process exit code. */
int cs_test_run(Suite *s);

#endif
