/* check_api.c: tests of the request entry point (api/api.c,
 * include/clustersim/api/api.h), the C side of the Python API.
 * - a malformed request (not JSON, no command, an unknown command or
 *   option) is refused with status 2 and one error;
 * - run on scenarios/default.yaml: the step's figures, with tokens/s x step
 *   time = 128 sequences x 8192 tokens (the scenario's global batch and the
 *   Llama 3.1 70B preset's sequence);
 * - a bad value in scenario text: status 1, its file (the request's name),
 *   line, column and key;
 * - many calls in one process give the same responses (run under ASan and
 *   LeakSanitizer in the sanitizer build: a leak fails the test);
 * - a sweep point by point: its points, an index past them, the rows equal
 *   whatever the order of evaluation.
 * The responses are compared with the command line's in
 * tests/test_python_api.py. */
#include "clustersim/api/api.h"
#include "test_util.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* cs_api_call with the request built from fmt; returns the parsed response. */
static cJSON *call(int want_rc, const char *fmt, ...)
{
    char req[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(req, sizeof req, fmt, ap);
    va_end(ap);
    char *resp = NULL;
    int rc = cs_api_call(req, &resp);
    ck_assert_ptr_nonnull(resp);
    ck_assert_msg(rc == want_rc, "request %s: status %d, expected %d: %s", req, rc, want_rc, resp);
    cJSON *j = cJSON_Parse(resp);
    ck_assert_msg(j != NULL, "response is not JSON: %s", resp);
    cs_api_free(resp);
    ck_assert(cJSON_IsBool(cJSON_GetObjectItem(j, "ok")));
    ck_assert(cJSON_IsArray(cJSON_GetObjectItem(j, "diagnostics")));
    return j;
}

static const cJSON *first_error(const cJSON *resp)
{
    const cJSON *d;
    cJSON_ArrayForEach(d, cJSON_GetObjectItem(resp, "diagnostics"))
        if (strcmp(cJSON_GetObjectItem(d, "severity")->valuestring, "error") == 0)
            return d;
    ck_abort_msg("no error in the response");
    return NULL;
}

static double num_at(const cJSON *o, const char *a, const char *b)
{
    const cJSON *x = cJSON_GetObjectItem(cJSON_GetObjectItem(o, a), b);
    ck_assert_msg(cJSON_IsNumber(x), "%s.%s is not a number", a, b);
    return x->valuedouble;
}

START_TEST(test_api_bad_requests)
{
    static const char *const bad[] = {
        "not json", "[1]", "{}", "{\"command\": \"fly\"}",
        "{\"command\": \"run\", \"scenario\": \"x.yaml\", \"options\": {\"bogus\": 1}}",
        "{\"command\": \"run\"}",
        "{\"command\": \"run\", \"scenario\": \"a\", \"scenario_text\": \"b\"}",
        "{\"command\": \"run\", \"scenario\": \"x.yaml\", \"set\": [1]}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *resp = NULL;
        ck_assert_int_eq(cs_api_call(bad[i], &resp), 2);
        cJSON *j = cJSON_Parse(resp);
        ck_assert(cJSON_IsFalse(cJSON_GetObjectItem(j, "ok")));
        ck_assert(cJSON_IsNull(cJSON_GetObjectItem(j, "result")));
        ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(j, "diagnostics")), 1);
        cJSON_Delete(j);
        cs_api_free(resp);
    }
    char *resp = NULL;
    ck_assert_int_eq(cs_api_call(NULL, &resp), 2);
    cs_api_free(resp);
    cs_api_free(NULL);
    ck_assert_str_eq(cs_api_version(), CLUSTERSIM_VERSION " 1");
}
END_TEST

START_TEST(test_api_run_default)
{
    cJSON *j = call(0, "{\"command\": \"run\", \"scenario\": \"%s\"}", cs_test_data("scenarios/default.yaml"));
    const cJSON *r = cJSON_GetObjectItem(j, "result");
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(j, "ok")));
    ck_assert_double_eq(num_at(r, "cluster", "gpus"), 32);
    double tps = num_at(r, "throughput", "tokens_per_s"), t = num_at(r, "step", "time_s");
    ck_assert_double_eq_tol(tps * t / (128.0 * 8192.0), 1.0, 1e-9);
    /* --set cluster.nodes=8 with dp 2: 64 GPUs */
    cJSON *k = call(0, "{\"command\": \"run\", \"scenario\": \"%s\", \"set\": {\"cluster.nodes\": 8, "
                       "\"workload.parallelism.dp\": \"2\"}}", cs_test_data("scenarios/default.yaml"));
    ck_assert_double_eq(num_at(cJSON_GetObjectItem(k, "result"), "cluster", "gpus"), 64);
    cJSON_Delete(k);
    cJSON_Delete(j);
}
END_TEST

START_TEST(test_api_bad_value_in_text)
{
    cJSON *j = call(1, "{\"command\": \"run\", \"name\": \"mine\", \"scenario_text\": "
                       "\"schema_version: 1\\ncluster:\\n  gpu: H100-SXM5-80GB\\n  nodes: -3\\n\"}");
    ck_assert(cJSON_IsFalse(cJSON_GetObjectItem(j, "ok")));
    const cJSON *e = first_error(j);
    ck_assert_str_eq(cJSON_GetObjectItem(e, "file")->valuestring, "mine");
    ck_assert_int_eq(cJSON_GetObjectItem(e, "line")->valueint, 4);
    ck_assert_int_eq(cJSON_GetObjectItem(e, "column")->valueint, 10);
    ck_assert_str_eq(cJSON_GetObjectItem(e, "key")->valuestring, "cluster.nodes");
    cJSON_Delete(j);
}
END_TEST

/* The same requests again and again: the same responses (and, under
 * LeakSanitizer, nothing left allocated). */
START_TEST(test_api_many_calls)
{
    char req[2048];
    snprintf(req, sizeof req, "{\"command\": \"collective\", \"scenario\": \"%s\", \"options\": "
                              "{\"minbytes\": \"1K\", \"maxbytes\": \"1M\", \"stepfactor\": 4}}",
             cs_test_data("scenarios/default.yaml"));
    char bad[2048];
    snprintf(bad, sizeof bad, "{\"command\": \"run\", \"scenario\": \"%s\", \"set\": {\"cluster.nodez\": 2}}",
             cs_test_data("scenarios/default.yaml"));
    const char *small = "{\"command\": \"run\", \"scenario_text\": \"{schema_version: 1, cluster: {gpu: "
                        "H100-SXM5-80GB, nodes: 2}, workload: {model: {preset: llama3.1-8b}, parallelism: "
                        "{tp: 8, pp: 1, dp: 2}, global_batch: 64, micro_batch: 1}}\"}";
    char *first = NULL, *first_small = NULL;
    ck_assert_int_eq(cs_api_call(req, &first), 0);
    ck_assert_int_eq(cs_api_call(small, &first_small), 0);
    for (int i = 0; i < 50; i++) {
        char *r = NULL;
        ck_assert_int_eq(cs_api_call(req, &r), 0);
        ck_assert_str_eq(r, first);
        cs_api_free(r);
        ck_assert_int_eq(cs_api_call(small, &r), 0);
        ck_assert_str_eq(r, first_small);
        cs_api_free(r);
        ck_assert_int_eq(cs_api_call(bad, &r), 1);
        ck_assert_ptr_nonnull(strstr(r, "unknown key"));
        cs_api_free(r);
    }
    cs_api_free(first);
    cs_api_free(first_small);
}
END_TEST

START_TEST(test_api_sweep)
{
    char req[1024];
    snprintf(req, sizeof req, "{\"sweep\": \"%s\"}", cs_test_data("scenarios/sweeps/scale-70b.yaml"));
    cs_api_sweep *h = NULL;
    char *resp = NULL;
    ck_assert_int_eq(cs_api_sweep_open(req, &h, &resp), 0);
    ck_assert_ptr_nonnull(h);
    cJSON *j = cJSON_Parse(resp);
    cs_api_free(resp);
    /* cluster.nodes from 4 to 512, x2: 4, 8, ..., 512 = 8 points */
    ck_assert_double_eq(num_at(j, "result", "points"), 8);
    cJSON_Delete(j);
    char *last = cs_api_sweep_row(h, 7), *row0 = cs_api_sweep_row(h, 0);
    ck_assert_ptr_nonnull(strstr(last, "\"point\":7,"));
    ck_assert_ptr_nonnull(strstr(last, "\"gpus\":4096,"));
    ck_assert_ptr_null(strchr(last, '\n'));
    char *again = cs_api_sweep_row(h, 7);
    ck_assert_str_eq(again, last);
    ck_assert_ptr_null(cs_api_sweep_row(h, 8));
    cs_api_free(last);
    cs_api_free(again);
    cs_api_free(row0);
    cs_api_sweep_close(h);
    cs_api_sweep_close(NULL);
    /* a sweep that does not load: no handle, an error */
    h = (cs_api_sweep *)1;
    ck_assert_int_eq(cs_api_sweep_open("{\"sweep\": \"no/such/sweep.yaml\"}", &h, &resp), 1);
    ck_assert_ptr_null(h);
    cs_api_free(resp);
}
END_TEST

static Suite *api_suite(void)
{
    Suite *s = suite_create("api");
    TCase *tc = tcase_create("requests");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_api_bad_requests);
    tcase_add_test(tc, test_api_run_default);
    tcase_add_test(tc, test_api_bad_value_in_text);
    tcase_add_test(tc, test_api_many_calls);
    tcase_add_test(tc, test_api_sweep);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return cs_test_run(api_suite()); }
