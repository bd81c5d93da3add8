/* check_override.c: key-path overrides of a scenario's YAML tree
 * (config/override.c, cs_cfg_load_scenario_with). */
#include "clustersim/config/catalog.h"
#include "clustersim/config/config.h"
#include "clustersim/config/sweep.h"
#include "test_util.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static cs_catalog *cat;

static void setup(void)
{
    cs_diags d;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_catalog_load_dir(cs_catalog_default_dir(), &d, &cat), CS_OK);
    cs_diags_fini(&d);
}

static void teardown(void) { cs_catalog_destroy(cat); }

static cs_status load(const struct cs_cfg_override *ov, size_t n, cs_diags *d, struct cs_scenario *s)
{
    char path[4096];
    snprintf(path, sizeof path, "%s", cs_test_path("tests/data/sweep/base.yaml"));
    return cs_cfg_load_scenario_with(path, ov, n, cat, d, s, NULL);
}

static bool has_diag(const cs_diags *d, const char *text, const char *file, int line)
{
    for (size_t i = 0; i < d->n; i++)
        if (strstr(d->items[i].msg, text) && (!file || (d->items[i].file &&
                                                        !strcmp(d->items[i].file, file))) &&
            (line == 0 || d->items[i].line == line))
            return true;
    return false;
}

START_TEST(test_override_sets_existing_key)
{
    /* base.yaml: 1 node x 8 GPUs, tp 8, pp 1. nodes 4 -> 32 GPUs, and the
     * binder's default dp = 32 / (8 x 1) = 4. */
    struct cs_cfg_override ov[] = {{"cluster.nodes", "4", "cli", 1, 1}};
    cs_diags d;
    cs_diags_init(&d);
    struct cs_scenario s;
    ck_assert_int_eq(load(ov, 1, &d, &s), CS_OK);
    ck_assert_int_eq(s.cluster.nodes, 4);
    ck_assert_int_eq(s.workload.par.dp, 4);
    cs_scenario_fini(&s);
    /* The base file is not modified by the override. */
    ck_assert_int_eq(load(NULL, 0, &d, &s), CS_OK);
    ck_assert_int_eq(s.cluster.nodes, 1);
    cs_scenario_fini(&s);
    cs_diags_fini(&d);
}
END_TEST

START_TEST(test_override_creates_mappings_and_later_wins)
{
    /* base.yaml has no cost: section: it is created; the later override of
     * the same key wins; a flow mapping sets several keys at once. */
    struct cs_cfg_override ov[] = {{"cost.utilization", "0.4", NULL, 0, 0},
                                   {"cost.utilization", "0.55", NULL, 0, 0},
                                   {"workload.parallelism", "{tp: 4, pp: 2}", NULL, 0, 0}};
    cs_diags d;
    cs_diags_init(&d);
    struct cs_scenario s;
    ck_assert_int_eq(load(ov, 3, &d, &s), CS_OK);
    ck_assert_double_eq_tol(s.cost.utilization, 0.55, 1e-12);
    ck_assert_int_eq(s.workload.par.tp, 4);
    ck_assert_int_eq(s.workload.par.pp, 2);
    ck_assert_int_eq(s.workload.par.dp, 1); /* 8 / (4 x 2) */
    cs_scenario_fini(&s);
    cs_diags_fini(&d);
}
END_TEST

START_TEST(test_override_through_scalar_is_an_error)
{
    struct cs_cfg_override ov[] = {{"cluster.gpu.bf16", "1", "sweep.yaml", 7, 3}};
    cs_diags d;
    cs_diags_init(&d);
    struct cs_scenario s;
    ck_assert_int_eq(load(ov, 1, &d, &s), CS_ECONFIG);
    ck_assert(has_diag(&d, "cluster.gpu is a scalar", "sweep.yaml", 7));
    cs_diags_fini(&d);
}
END_TEST

START_TEST(test_override_unknown_key_did_you_mean_at_override_line)
{
    struct cs_cfg_override ov[] = {{"cluster.nodez", "2", "sweep.yaml", 12, 5}};
    cs_diags d;
    cs_diags_init(&d);
    struct cs_scenario s;
    ck_assert_int_eq(load(ov, 1, &d, &s), CS_ECONFIG);
    ck_assert(has_diag(&d, "did you mean \"nodes\"", "sweep.yaml", 12));
    cs_diags_fini(&d);
}
END_TEST

START_TEST(test_override_bad_value_and_empty_segment)
{
    /* A value the binder rejects is reported at the override's place; an
     * empty path segment is refused before binding. */
    struct cs_cfg_override ov[] = {{"cluster.nodes", "many", "o.txt", 2, 1}};
    struct cs_cfg_override ov2[] = {{"cluster..nodes", "2", "o.txt", 3, 1}};
    cs_diags d;
    cs_diags_init(&d);
    struct cs_scenario s;
    ck_assert_int_eq(load(ov, 1, &d, &s), CS_ECONFIG);
    ck_assert(has_diag(&d, "cluster.nodes", "o.txt", 2));
    ck_assert_int_eq(load(ov2, 1, &d, &s), CS_ECONFIG);
    ck_assert(has_diag(&d, "empty segment", "o.txt", 3));
    cs_diags_fini(&d);
}
END_TEST


/* --set's rule is the sweep axes' rule (cs_cfg_key_path_ok), and a bad path
 * is reported naming the key, at the override's own place. */
START_TEST(test_override_key_path_rule)
{
    ck_assert(cs_cfg_key_path_ok("cluster.nodes", 13));
    ck_assert(cs_cfg_key_path_ok("failures.components.0.mtbf", 26));
    ck_assert(!cs_cfg_key_path_ok("cluster..nodes", 14));
    ck_assert(!cs_cfg_key_path_ok(".cluster", 8));
    ck_assert(!cs_cfg_key_path_ok("cluster.", 8));
    ck_assert(!cs_cfg_key_path_ok("cluster nodes", 13));
    ck_assert(!cs_cfg_key_path_ok("", 0));
    struct cs_cfg_override ov[] = {{"cluster.no des", "4", "--set cluster.no des=4", 0, 0}};
    cs_diags d;
    cs_diags_init(&d);
    struct cs_scenario s;
    ck_assert_int_eq(load(ov, 1, &d, &s), CS_ECONFIG);
    ck_assert(has_diag(&d, "\"cluster.no des\": expected a key path", "--set cluster.no des=4", 0));
    cs_diags_fini(&d);
    /* A bad value: the binder's message names the key, at the override. */
    struct cs_cfg_override ov2[] = {{"cluster.nodes", "abc", "--set cluster.nodes=abc", 0, 0}};
    cs_diags_init(&d);
    ck_assert_int_eq(load(ov2, 1, &d, &s), CS_ECONFIG);
    ck_assert(has_diag(&d, "cluster.nodes: expected an integer", "--set cluster.nodes=abc", 0));
    cs_diags_fini(&d);
}
END_TEST

static Suite *override_suite(void)
{
    Suite *s = suite_create("override");
    TCase *tc = tcase_create("override");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_override_sets_existing_key);
    tcase_add_test(tc, test_override_creates_mappings_and_later_wins);
    tcase_add_test(tc, test_override_through_scalar_is_an_error);
    tcase_add_test(tc, test_override_unknown_key_did_you_mean_at_override_line);
    tcase_add_test(tc, test_override_bad_value_and_empty_segment);
    tcase_add_test(tc, test_override_key_path_rule);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return cs_test_run(override_suite()); }
