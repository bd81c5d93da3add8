/* check_valindex.c: validation/INDEX.yaml (config/valindex.c): the
 * repository's own index loads and lists every table with a role, and a bad
 * index is refused with file:line. */
#include "clustersim/config/valindex.h"
#include "test_util.h"

#include <check.h>
#include <stdio.h>
#include <string.h>

START_TEST(test_valindex_repository_index)
{
    struct cs_valindex ix;
    cs_diags d;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_valindex_load(cs_test_data("validation/INDEX.yaml"), &d, &ix), CS_OK);
    ck_assert_uint_ge(ix.n, 11);
    int step = 0;
    for (size_t i = 0; i < ix.n; i++)
        step += strcmp(ix.tables[i].kind, "step") == 0;
    ck_assert_int_ge(step, 3);
    const struct cs_val_table *t = cs_valindex_find(&ix, "megatron-sc21-a100-weak-scaling.csv");
    ck_assert_ptr_nonnull(t);
    ck_assert_str_eq(t->file, "step/megatron-sc21-a100-weak-scaling.csv");
    ck_assert_int_eq(t->role, CS_VAL_FIT);  /* the first wave fitted on it */
    ck_assert_ptr_null(cs_valindex_find(&ix, "nope.csv"));
    /* the DeepSeek-V3 report's memory savings (Sections 3.3.2, 3.3.3) */
    t = cs_valindex_find(&ix, "deepseek-v3-report-h800-moe.csv");
    ck_assert_ptr_nonnull(t);
    ck_assert_str_eq(t->workload_flags, "fp8_act_storage optimizer_moments_bf16");
    ck_assert_ptr_null(cs_valindex_find(&ix, "megatron-sc21-a100-weak-scaling.csv")->workload_flags);
    /* rows their source flags: the 26.06.01 MoE table's GPT-OSS pair */
    t = cs_valindex_find(&ix, "mbridge-26.06.01-moe.csv");
    ck_assert_ptr_nonnull(t);
    ck_assert_str_eq(t->flagged_lines, "40 41");
    ck_assert(strstr(t->flagged_reason, "cudnn-frontend#256") != NULL);
    ck_assert_ptr_null(cs_valindex_find(&ix, "mbridge-26.06-moe.csv")->flagged_lines);
    cs_valindex_fini(&ix);
    cs_diags_fini(&d);
}
END_TEST

static int has(const cs_diags *d, int line, const char *text)
{
    for (size_t i = 0; i < d->n; i++)
        if (d->items[i].line == line && strstr(d->items[i].msg, text))
            return 1;
    return 0;
}

START_TEST(test_valindex_bad_entries)
{
    struct cs_valindex ix;
    memset(&ix, 0x5a, sizeof ix);
    unsigned char before[sizeof ix];
    memcpy(before, &ix, sizeof ix);
    cs_diags d;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_valindex_load(cs_test_data("tests/data/valindex/bad.yaml"), &d, &ix), CS_ECONFIG);
    ck_assert(memcmp(before, &ix, sizeof ix) == 0);  /* untouched on failure */
    ck_assert(has(&d, 4, "\"step/t.csv\" is listed twice"));
    ck_assert(has(&d, 5, "\"step/none.csv\" does not exist"));
    ck_assert(has(&d, 6, "role: expected fit or holdout, got \"tuning\""));
    ck_assert(has(&d, 7, "unknown key \"rows\""));
    ck_assert_uint_eq(cs_diags_errors(&d), 4);
    cs_diags_fini(&d);
}
END_TEST

/* flagged_lines takes positive line numbers and needs a reason; nics_per_node
 * a whole number of NICs */
START_TEST(test_valindex_bad_flagged)
{
    struct cs_valindex ix;
    cs_diags d;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_valindex_load(cs_test_data("tests/data/valindex/flagged.yaml"), &d, &ix), CS_ECONFIG);
    ck_assert(has(&d, 3, "flagged_lines expects line numbers"));  /* "2 zero" */
    ck_assert(has(&d, 4, "flagged_lines expects line numbers"));  /* no reason */
    ck_assert(has(&d, 5, "flagged_lines expects line numbers"));  /* a reason alone */
    ck_assert(has(&d, 6, "flagged_lines expects line numbers"));  /* line 0 */
    /* nics_per_node: a whole number from 1 to 64 */
    ck_assert(has(&d, 7, "nics_per_node: expected a whole number of NICs from 1 to 64, got \"0\""));
    ck_assert(has(&d, 8, "got \"4 links\""));
    ck_assert_uint_eq(cs_diags_errors(&d), 6);
    cs_diags_fini(&d);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("valindex");
    TCase *tc = tcase_create("index");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_valindex_repository_index);
    tcase_add_test(tc, test_valindex_bad_entries);
    tcase_add_test(tc, test_valindex_bad_flagged);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return cs_test_run(suite()); }
