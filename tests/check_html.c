/* check_html.c: the self-contained HTML writers of `clustersim report`
 * (report/html.c): escaping, tables, SVG bars, inlined SVG files. */
#define _POSIX_C_SOURCE 200809L
#include "clustersim/report/html.h"
#include "clustersim/report/html_pages.h"
#include "test_util.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Runs fn(f) into a memory stream and returns the text (caller frees). */
static char *capture(void (*fn)(FILE *f, const void *ctx), const void *ctx)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    fn(f, ctx);
    fclose(f);
    return buf;
}

static void esc(FILE *f, const void *ctx) { cs_html_escape(f, ctx); }

START_TEST(test_html_escape_all_five)
{
    char *s = capture(esc, "<a href='x'>\"Q&A\"</a>");
    ck_assert_str_eq(s, "&lt;a href=&#39;x&#39;&gt;&quot;Q&amp;A&quot;&lt;/a&gt;");
    free(s);
}
END_TEST

static void table(FILE *f, const void *ctx)
{
    (void)ctx;
    const char *head[] = {"name", "value"};
    const char *cells[] = {"<b>", "3.14159265358979", "x", NULL};
    cs_html_table(f, 2, head, 2, cells);
}

START_TEST(test_html_table_escapes_and_aligns_numbers)
{
    char *s = capture(table, NULL);
    ck_assert_ptr_nonnull(strstr(s, "<th>name</th><th>value</th>"));
    ck_assert_ptr_nonnull(strstr(s, "<td>&lt;b&gt;</td>"));
    /* a long number is shortened to 6 significant digits, right-aligned */
    ck_assert_ptr_nonnull(strstr(s, "<td class=\"n\">3.14159</td>"));
    ck_assert_ptr_nonnull(strstr(s, "<td>x</td><td></td>")); /* NULL: empty cell */
    ck_assert_ptr_null(strstr(s, "<b>"));
    free(s);
}
END_TEST

static void bars(FILE *f, const void *ctx)
{
    (void)ctx;
    const char *labels[] = {"a<1>", "b"};
    double v[] = {2.0, NAN};
    cs_html_svg_bars(f, "T&T", "s", 2, labels, v);
}

START_TEST(test_html_svg_bars_scale_and_escape)
{
    char *s = capture(bars, NULL);
    ck_assert_ptr_nonnull(strstr(s, "<svg xmlns=\"http://www.w3.org/2000/svg\""));
    ck_assert_ptr_nonnull(strstr(s, "T&amp;T (s)"));
    ck_assert_ptr_nonnull(strstr(s, "a&lt;1&gt;"));
    /* The largest bar spans the plot width: 900 - 260 - 120 = 520 px. */
    ck_assert_ptr_nonnull(strstr(s, "width=\"520.0\""));
    ck_assert_ptr_nonnull(strstr(s, ">n/a</text>"));
    free(s);
}
END_TEST

static void inl(FILE *f, const void *ctx) { ck_assert(cs_html_svg_file(f, ctx)); }

START_TEST(test_html_svg_file_drops_prolog)
{
    char path[] = "/tmp/check_html.XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    const char *doc = "<?xml version=\"1.0\"?>\n<!DOCTYPE svg>\n<svg width=\"1\"><g/></svg>\n";
    ck_assert_int_eq(write(fd, doc, strlen(doc)), (int)strlen(doc));
    close(fd);
    char *s = capture(inl, path);
    ck_assert_str_eq(s, "<figure><svg width=\"1\"><g/></svg>\n</figure>\n");
    free(s);
    unlink(path);
    FILE *f = fopen("/dev/null", "w");
    ck_assert(!cs_html_svg_file(f, "/nonexistent/x.svg"));
    fclose(f);
}
END_TEST

/* A TCO document worked by hand: on-prem owns for $1,000,000 whatever the
 * utilization; cloud-on-demand costs $2,000,000 x u (u = 0.7: $1,400,000),
 * so they break even at u = 0.5 and on-prem is the cheaper above it. */
static const char *const tco_doc =
    "{\"scenario\":\"hand\",\"tco\":{\"years\":3,\"gpus\":16,\"utilization\":0.7,"
    "\"options\":["
    "{\"name\":\"cloud-on-demand\",\"total_usd\":1400000,\"breakdown_usd\":{\"capex\":0,\"cloud\":1400000},"
    "\"usd_per_gpu_hour\":3.33,\"usd_per_utilized_gpu_hour\":4.76,\"usd_per_run\":null,\"upfront_usd\":0},"
    "{\"name\":\"on-prem\",\"total_usd\":1000000,\"breakdown_usd\":{\"capex\":800000,\"cloud\":0},"
    "\"usd_per_gpu_hour\":2.38,\"usd_per_utilized_gpu_hour\":3.40,\"usd_per_run\":12345.6,\"upfront_usd\":800000}],"
    "\"break_even\":[{\"owned\":\"on-prem\",\"cloud\":\"cloud-on-demand\",\"utilization\":0.5,"
    "\"owned_cheaper\":\"above\"}],"
    "\"sensitivity\":{\"step\":0.2,\"rows\":[{\"input\":\"utilization\",\"base\":0.7,\"low\":0.56,"
    "\"high\":0.84,\"swing_usd\":560000,\"low_total_usd\":{\"on-prem\":1000000,\"cloud-on-demand\":1120000},"
    "\"high_total_usd\":{\"on-prem\":1000000,\"cloud-on-demand\":1680000}}]},"
    "\"bom\":{\"servers\":2}%s}}";

static void page_tco(FILE *f, const void *ctx)
{
    cJSON *doc = cJSON_Parse(ctx);
    ck_assert_ptr_nonnull(doc);
    const char *files[] = {"s.yaml"}, *roles[] = {"scenario"}, *sha[] = {"abc123"};
    struct cs_html_meta m = {"clustersim report tco s.yaml", "2026-12-01", 1, files, roles, sha};
    cs_html_page_tco(f, doc, &m);
    cJSON_Delete(doc);
}

START_TEST(test_html_page_tco_summary_and_optional_members)
{
    char json[4096];
    snprintf(json, sizeof json, tco_doc, "");
    char *s = capture(page_tco, json);
    /* the cheapest, its total with its JSON path, the next and the difference */
    ck_assert_ptr_nonnull(strstr(s, "<b>on-prem</b> is the cheapest of the 2 priced options"));
    ck_assert_ptr_nonnull(strstr(s, "data-json=\"tco.options[1].total_usd\" data-value=\"1000000\" "
                                    "data-unit=\"usd\">$1,000,000</span>"));
    ck_assert_ptr_nonnull(strstr(s, "data-minus=\"tco.options[1].total_usd\" data-value=\"400000\" "
                                    "data-unit=\"usd\">$400,000</span>"));
    ck_assert_ptr_nonnull(strstr(s, "data-unit=\"pct\">40.0%</span>) more")); /* 400k / 1M */
    ck_assert_ptr_nonnull(strstr(s, "cloud-on-demand below <span class=\"v\" "
                                    "data-json=\"tco.break_even[0].utilization\""));
    /* the crossover mark, and the provenance */
    ck_assert_ptr_nonnull(strstr(s, "on-prem = cloud-on-demand at 50.0%"));
    ck_assert_ptr_nonnull(strstr(s, "abc123"));
    ck_assert_ptr_nonnull(strstr(s, "2026-12-01"));
    /* no offer, offers or assumptions in this document: no such sections */
    ck_assert_ptr_null(strstr(s, "Cloud offer used"));
    ck_assert_ptr_null(strstr(s, "Every catalog offer"));
    ck_assert_ptr_null(strstr(s, "tco.assumptions</code>"));
    ck_assert_ptr_null(strstr(s, "e+0")); /* no exponent notation */
    free(s);

    /* the shapes `clustersim tco --format json` writes (report/cost_report.c) */
    snprintf(json, sizeof json, tco_doc,
             ",\"offer\":{\"name\":\"acme-gpu8\",\"reason\":\"the cheapest that fits\","
             "\"prices\":{\"on_demand\":{\"usd_per_gpu_hour\":2.5,\"offer\":\"acme-gpu8\","
             "\"rule\":\"cheapest-fitting\",\"reason\":\"fits\"}},\"offers_fitting\":1,"
             "\"offers_total\":2},"
             "\"offers\":[{\"name\":\"acme-gpu8\",\"provider\":\"acme\",\"instance\":\"gpu8\","
             "\"region\":\"\",\"gpus_per_instance\":8,\"on_demand_usd_per_gpu_hour\":2.5,"
             "\"reserved_1y_usd_per_gpu_hour\":null,\"scaleout_bw_bytes_per_s\":400000000000,"
             "\"fits\":true,\"why_not\":null,\"used_for\":[\"cloud-on-demand\"],\"source\":\"list\","
             "\"date\":\"2026-01\"},"
             "{\"name\":\"zeta-big1\",\"provider\":\"zeta\",\"gpus_per_instance\":1,"
             "\"on_demand_usd_per_gpu_hour\":1.5,\"fits\":false,\"why_not\":\"1-GPU instances\","
             "\"used_for\":[]}],"
             "\"assumptions\":[{\"key\":\"cost.pue\",\"value\":\"1.3\",\"source\":\"catalog\","
             "\"defaulted\":true},{\"key\":\"cost.years\",\"value\":\"3\",\"source\":\"s.yaml:5:3\","
             "\"defaulted\":false},{\"key\":\"cost.construction_per_mw\",\"value\":\"$11700000\","
             "\"defaulted\":true},{\"key\":\"cost.date\",\"value\":\"2025-03-06\"},"
             "{\"key\":\"cost.colocation\",\"value\":\"$184.06/kW-month\"}]");
    s = capture(page_tco, json);
    ck_assert_ptr_nonnull(strstr(s, "Cloud offer used"));
    ck_assert_ptr_nonnull(strstr(s, "<td>reason</td><td>the cheapest that fits</td>"));
    ck_assert_ptr_nonnull(strstr(s, "<tr><td>on_demand</td><td class=\"n\">$2.50</td><td>acme-gpu8</td>"
                                    "<td>cheapest-fitting</td>"));
    /* the summary names the offer and counts the defaults, with JSON paths */
    ck_assert_ptr_nonnull(strstr(s, "prices are those of the catalog offer acme-gpu8 (<span"));
    ck_assert_ptr_nonnull(strstr(s, "data-json=\"tco.offer.offers_total\" data-value=\"2\""));
    ck_assert_ptr_nonnull(strstr(s, " 2 of the 5 inputs listed under Assumptions"));
    /* every offer: the place without an empty region, 400 GB/s = 3.20 Tb/s, why one does not fit */
    ck_assert_ptr_nonnull(strstr(s, "Every catalog offer for this GPU"));
    ck_assert_ptr_nonnull(strstr(s, "acme gpu8, 8 GPUs</span>"));
    ck_assert_ptr_nonnull(strstr(s, "<td class=\"n\">3.20 Tb/s</td><td>yes</td><td>cloud-on-demand</td>"));
    ck_assert_ptr_nonnull(strstr(s, "zeta, 1 GPU</span>"));
    ck_assert_ptr_nonnull(strstr(s, "<td>no: 1-GPU instances</td>"));
    ck_assert_ptr_nonnull(strstr(s, "<td>cost.pue</td><td>1.3</td><td>catalog</td><td>yes</td>"));
    /* numbers written as text get separators, nothing else changes */
    ck_assert_ptr_nonnull(strstr(s, "<td>cost.construction_per_mw</td><td>$11,700,000</td>"));
    ck_assert_ptr_nonnull(strstr(s, "<td>cost.date</td><td>2025-03-06</td>"));
    ck_assert_ptr_nonnull(strstr(s, "<td>cost.colocation</td><td>$184.06/kW-month</td>"));
    free(s);
}
END_TEST

START_TEST(test_html_page_tco_tie_costs_the_same)
{
    /* a hybrid that owns every GPU costs what colocation costs: named as
     * costing the same, and "the next cheapest" is the next distinct total */
    const char *doc =
        "{\"scenario\":\"tie\",\"tco\":{\"years\":3,\"gpus\":8,\"utilization\":0.7,\"options\":["
        "{\"name\":\"colocation\",\"total_usd\":500000,\"breakdown_usd\":{\"capex\":500000}},"
        "{\"name\":\"cloud-spot\",\"total_usd\":600000,\"breakdown_usd\":{\"capex\":0}},"
        "{\"name\":\"hybrid\",\"total_usd\":500000.2,\"breakdown_usd\":{\"capex\":500000}}],"
        "\"break_even\":[],\"sensitivity\":{\"step\":0.2,\"rows\":[]},\"bom\":{}}}";
    char *s = capture(page_tco, doc);
    ck_assert_ptr_nonnull(strstr(s, "<b>colocation</b> is the cheapest of the 3 priced options"));
    ck_assert_ptr_nonnull(strstr(s, " Hybrid costs the same. The next cheapest, cloud-spot, costs "));
    /* $600,000 - $500,000 = $100,000, 20.0% of $500,000 */
    ck_assert_ptr_nonnull(strstr(s, "data-unit=\"usd\">$100,000</span> (<span"));
    ck_assert_ptr_nonnull(strstr(s, "data-unit=\"pct\">20.0%</span>) more"));
    ck_assert_ptr_nonnull(strstr(s, "Colocation is cheaper than every priced cloud option at any utilization"));
    ck_assert_ptr_nonnull(strstr(s, "No utilization row in the sensitivity table"));
    free(s);
}
END_TEST

static void page_replay(FILE *f, const void *ctx)
{
    cJSON *doc = cJSON_Parse(ctx);
    ck_assert_ptr_nonnull(doc);
    struct cs_html_meta m = {NULL, "2026-12-01", 0, NULL, NULL, NULL};
    cs_html_page_replay(f, doc, &m);
    cJSON_Delete(doc);
}

START_TEST(test_html_page_replay_optional_members)
{
    const char *doc =
        "{\"replay\":{\"jobs\":3,\"completed\":3,\"rejected\":0,\"gpus\":8,\"policy\":\"fifo\","
        "\"placement\":\"packed\",\"makespan_s\":7200,\"utilization\":0.5,\"busy_utilization\":0.5,"
        "\"queue_s\":{\"mean\":60,\"p50\":0,\"p95\":180},\"jct_s\":{\"mean\":3600,\"p50\":3000,\"p95\":7000},"
        "\"preemptions\":0,\"trace\":{\"file\":\"t.csv\",\"format\":\"native\"},"
        "\"warnings\":[\"2 jobs ask for more GPUs than a partition has\"],"
        "\"by_size\":[{\"gpus\":1,\"jobs\":2,\"queue_mean_s\":0},{\"gpus\":8,\"jobs\":1,\"queue_mean_s\":180}]}}";
    char *s = capture(page_replay, doc);
    /* 7200 s = 2.00 h; 0.5 = 50.0%; 3600 s = 60.0 min */
    ck_assert_ptr_nonnull(strstr(s, "data-json=\"replay.makespan_s\" data-value=\"7200\" data-unit=\"s\">2.00 h"));
    ck_assert_ptr_nonnull(strstr(s, "data-json=\"replay.utilization\" data-value=\"0.5\" data-unit=\"pct\">50.0%"));
    ck_assert_ptr_nonnull(strstr(s, "data-json=\"replay.jct_s.mean\" data-value=\"3600\" data-unit=\"s\">60.0 min"));
    ck_assert_ptr_nonnull(strstr(s, "<b>1 warning</b>"));
    ck_assert_ptr_nonnull(strstr(s, "<li>2 jobs ask for more GPUs than a partition has</li>"));
    ck_assert_ptr_nonnull(strstr(s, "<h3>By job size</h3>"));
    ck_assert_ptr_nonnull(strstr(s, "<th>queue mean</th>")); /* the unit is in the cells */
    ck_assert_ptr_nonnull(strstr(s, "<td class=\"n\">3.00 min</td>"));
    ck_assert_ptr_null(strstr(s, "By user"));
    free(s);
}
END_TEST

static void page_plan(FILE *f, const void *ctx)
{
    cJSON *doc = cJSON_Parse(ctx);
    ck_assert_ptr_nonnull(doc);
    struct cs_html_meta m = {NULL, "2026-12-01", 0, NULL, NULL, NULL};
    cs_html_page_plan(f, doc, &m);
    cJSON_Delete(doc);
}

START_TEST(test_html_page_plan_no_plan_meets)
{
    const char *doc = "{\"plan\":{\"name\":\"p\",\"deadline_s\":864000,\"budget_usd\":1000,"
                      "\"budget_basis\":\"run\",\"candidates\":{\"clusters\":2,\"evaluated\":2,"
                      "\"configurations\":10},\"cheapest\":null,\"fastest\":null,\"front\":[],"
                      "\"binding\":\"budget: the cheapest plan costs 250% of it\"}}";
    char *s = capture(page_plan, doc);
    ck_assert_ptr_nonnull(strstr(s, "data-json=\"plan.deadline_s\" data-value=\"864000\" data-unit=\"s\">10.0 days"));
    ck_assert_ptr_nonnull(strstr(s, "<b>No plan meets the deadline at p95.</b>"));
    ck_assert_ptr_nonnull(strstr(s, "Binding: budget: the cheapest plan costs 250% of it."));
    ck_assert_ptr_nonnull(strstr(s, "The front is empty"));
    free(s);
}
END_TEST

static Suite *html_suite(void)
{
    Suite *s = suite_create("html");
    TCase *tc = tcase_create("html");
    tcase_set_timeout(tc, 10);
    tcase_add_test(tc, test_html_escape_all_five);
    tcase_add_test(tc, test_html_table_escapes_and_aligns_numbers);
    tcase_add_test(tc, test_html_svg_bars_scale_and_escape);
    tcase_add_test(tc, test_html_svg_file_drops_prolog);
    tcase_add_test(tc, test_html_page_tco_summary_and_optional_members);
    tcase_add_test(tc, test_html_page_tco_tie_costs_the_same);
    tcase_add_test(tc, test_html_page_replay_optional_members);
    tcase_add_test(tc, test_html_page_plan_no_plan_meets);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return cs_test_run(html_suite()); }
