/* check_failure.c: tests of models/failure.c: the Llama 3 table and the
 * rates derived from it, scope units, job MTBI, Weibull scale and draws. */
#include "clustersim/models/failure.h"
#include "clustersim/sim/rng.h"
#include "test_util.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The built-in table equals the reference CSV row by row. */
START_TEST(test_failure_llama3_table_matches_csv)
{
    FILE *fp = fopen(cs_test_data("validation/failures/llama3-405b-interruptions.csv"),
                     "r");
    ck_assert_ptr_nonnull(fp);
    int n;
    const struct cs_fail_llama3_row *t = cs_fail_llama3_table(&n);
    char line[256];
    int rows = 0, sum = 0;
    while (fgets(line, sizeof line, fp)) {
        if (line[0] == '#' || !strncmp(line, "component,", 10))
            continue;
        char comp[128], cat[128];
        int count;
        ck_assert_int_eq(sscanf(line, "%127[^,],%127[^,],%d", comp, cat, &count), 3);
        bool found = false;
        for (int i = 0; i < n; i++)
            if (!strcmp(t[i].component, comp)) {
                ck_assert_int_eq(t[i].interruptions, count);
                found = true;
            }
        ck_assert_msg(found, "row %s missing from the built-in table", comp);
        rows++;
        sum += count;
    }
    fclose(fp);
    ck_assert_int_eq(rows, n);
    ck_assert_int_eq(sum, CS_FAIL_LLAMA3_UNEXPECTED);
}
END_TEST

/* Faulty GPU: 16384 GPUs x 1296 h / 148 = 143,470.7 h per GPU. Host
 * maintenance: 2048 nodes x 1296 h / 32 = 82,944 h per node. The job MTBI on
 * the Llama shape is 1296 h / 419 = 3.0931 h. */
START_TEST(test_failure_llama3_defaults_rates)
{
    struct cs_failures_cfg f;
    memset(&f, 0, sizeof f);
    f.enabled = true;
    cs_fail_llama3_defaults(&f);
    ck_assert(f.defaults);
    ck_assert_int_eq(f.n_components, 18);
    ck_assert_str_eq(f.components[0].name, "gpu");
    ck_assert_int_eq(f.components[0].scope, CS_SCOPE_GPU);
    ck_assert_double_eq_tol(f.components[0].mtbf_s / 3600, 143470.7, 0.1);
    ck_assert_str_eq(f.components[4].name, "host-maintenance");
    ck_assert_int_eq(f.components[4].scope, CS_SCOPE_NODE);
    ck_assert_double_eq_tol(f.components[4].mtbf_s / 3600, 82944.0, 0.01);
    double m = cs_fail_job_mtbi_s(&f, 16384, 2048, 0);
    ck_assert_double_eq_tol(m / 3600, 1296.0 / 419.0, 1e-9);
    /* Half the cluster: half the rate, twice the MTBI. */
    ck_assert_double_eq_tol(cs_fail_job_mtbi_s(&f, 8192, 1024, 0) / m, 2.0, 1e-9);
    f.enabled = false;
    ck_assert(isinf(cs_fail_job_mtbi_s(&f, 16384, 2048, 0)));
}
END_TEST

START_TEST(test_failure_scope_units)
{
    ck_assert_int_eq(cs_fail_scope_units(CS_SCOPE_GPU, 64, 8, 3), 64);
    ck_assert_int_eq(cs_fail_scope_units(CS_SCOPE_NODE, 64, 8, 3), 8);
    ck_assert_int_eq(cs_fail_scope_units(CS_SCOPE_SWITCH, 64, 8, 3), 3);
    ck_assert_int_eq(cs_fail_scope_units(CS_SCOPE_JOB, 64, 8, 3), 1);
    /* Fault domains of a job of 64 GPUs on 10 nodes, 3 switches, 3 leaves
     * of 4 nodes, 2 spines, 4 nodes a rack: racks ceil(10 / 4) = 3; a
     * rack or leaf event takes 4 nodes (at most the job's 10), a GPU or node
     * one, switch/spine/job/storage none; storage (one tier) does not
     * interrupt, so with a 100 h leaf class (3 / 100 h) and a 1 h storage
     * class the MTBI is 33.3 h. */
    struct cs_fail_domains dm = {.gpus = 64, .nodes = 10, .switches = 3, .leaves = 3, .spines = 2,
                                 .nodes_per_leaf = 4, .nodes_per_rack = 4};
    const long units[CS_FAIL_N_SCOPES] = {64, 10, 3, 1, 3, 3, 2, 1};
    const long out[CS_FAIL_N_SCOPES] = {1, 1, 0, 0, 4, 4, 0, 0};
    for (int k = 0; k < CS_FAIL_N_SCOPES; k++) {
        ck_assert_int_eq(cs_fail_domain_units(&dm, (enum cs_fail_scope)k), units[k]);
        ck_assert_int_eq(cs_fail_domain_nodes_out(&dm, (enum cs_fail_scope)k), out[k]);
    }
    dm.nodes_per_rack = 16; /* a rack larger than the job: only the job's 10 */
    ck_assert_int_eq(cs_fail_domain_nodes_out(&dm, CS_SCOPE_RACK), 10);
    ck_assert_str_eq(cs_fail_scope_name(CS_SCOPE_STORAGE), "storage");
    ck_assert_str_eq(cs_fail_scope_name(CS_SCOPE_LEAF), "leaf");
    struct cs_failures_cfg f;
    memset(&f, 0, sizeof f);
    f.enabled = true;
    f.n_components = 2;
    f.components[0].scope = CS_SCOPE_LEAF;
    f.components[0].mtbf_s = 100 * 3600.0;
    f.components[1].scope = CS_SCOPE_STORAGE;
    f.components[1].mtbf_s = 3600.0;
    ck_assert_double_eq_tol(cs_fail_domain_mtbi_s(&f, &dm) / 3600, 100.0 / 3, 1e-9);
}
END_TEST

/* Weibull scale for mean 100 at shape 2: 100 / Gamma(1.5) = 100 / 0.886227
 * = 112.838; at shape 1 it is the mean itself. Draws average to the MTBF. */
START_TEST(test_failure_weibull_scale_and_mean)
{
    ck_assert_double_eq_tol(cs_fail_weibull_scale_s(100, 2), 112.838, 1e-3);
    ck_assert_double_eq_tol(cs_fail_weibull_scale_s(100, 1), 100, 1e-9);
    struct cs_fail_component c;
    memset(&c, 0, sizeof c);
    c.mtbf_s = 1000;
    c.dist = CS_DIST_WEIBULL;
    c.shape = 0.7;
    gsl_rng *r = cs_rng_create(7, CS_RNG_FAILURES);
    double sum = 0;
    int n = 200000;
    for (int i = 0; i < n; i++)
        sum += cs_fail_draw_s(&c, r);
    /* Std of the mean: 1000 * sqrt(Gamma(1+2/k)/Gamma(1+1/k)^2 - 1) / sqrt(n)
     * = 1000 * 1.46 / 447 = 3.3: 2% is six sigma. */
    printf("weibull(0.7) mean of %d draws: %.1f (mtbf 1000)\n", n, sum / n);
    ck_assert_double_eq_tol(sum / n, 1000, 20);
    c.dist = CS_DIST_EXPONENTIAL;
    c.shape = 1;
    sum = 0;
    for (int i = 0; i < n; i++)
        sum += cs_fail_draw_s(&c, r);
    ck_assert_double_eq_tol(sum / n, 1000, 15);
    gsl_rng_free(r);
}
END_TEST

static Suite *failure_suite(void)
{
    Suite *s = suite_create("failure");
    TCase *tc = tcase_create("rates");
    tcase_set_timeout(tc, 20);
    tcase_add_test(tc, test_failure_llama3_table_matches_csv);
    tcase_add_test(tc, test_failure_llama3_defaults_rates);
    tcase_add_test(tc, test_failure_scope_units);
    tcase_add_test(tc, test_failure_weibull_scale_and_mean);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return cs_test_run(failure_suite()); }
