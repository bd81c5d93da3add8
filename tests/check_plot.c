/* check_plot.c: figures people read. The number formatter (base/numfmt.c),
 * the series palette (report/palette.c), and the layout of a sweep's
 * figures (report/sweep_plot.c): which axes go to the legend, to the title
 * and to panels, and how many panels a figure draws. Expected values are
 * worked out by hand in the comments. */
#define _POSIX_C_SOURCE 200809L
#include "test_util.h"

#include "clustersim/base/numfmt.h"
#include "clustersim/base/units.h"
#include "clustersim/base/xmalloc.h"
#include "clustersim/report/palette.h"
#include "clustersim/report/sweep_plot.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

static const char *fmt(double v, int sig)
{
    static char buf[64];
    return cs_num_format(v, sig, buf, sizeof buf);
}

START_TEST(test_num_format_hand_values)
{
    /* 0.1 is 0.1000000000000000055511151231257827 as a double: "%.17g"
     * prints 0.10000000000000001; one digit reads back the same double. */
    ck_assert_str_eq(fmt(0.1, 6), "0.1");
    ck_assert_str_eq(fmt(0.1 + 0.2, 6), "0.3"); /* 0.30000000000000004 */
    ck_assert_str_eq(fmt(1e-7, 6), "1e-7");
    ck_assert_str_eq(fmt(123456789, 6), "123456789"); /* whole, below 1e9: in full */
    ck_assert_str_eq(fmt(-4096, 6), "-4096");
    ck_assert_str_eq(fmt(2.5e9, 6), "2.5e9");         /* whole but 1e9 or more */
    ck_assert_str_eq(fmt(1e9, 6), "1e9");
    ck_assert_str_eq(fmt(1.23456789e12, 6), "1.23457e12");
    ck_assert_str_eq(fmt(1234.56789, 6), "1234.57");
    ck_assert_str_eq(fmt(1234.56789, 4), "1235");
    ck_assert_str_eq(fmt(2.0 / 3.0, 6), "0.666667");
    ck_assert_str_eq(fmt(0.000123456, 4), "0.0001235");
    ck_assert_str_eq(fmt(1.5e-12, 6), "1.5e-12");
    ck_assert_str_eq(fmt(-0.25, 6), "-0.25");
    ck_assert_str_eq(fmt(-0.0, 6), "0");
    ck_assert_str_eq(fmt(NAN, 6), "NaN");
    ck_assert_str_eq(fmt(INFINITY, 6), "inf");
    ck_assert_str_eq(fmt(-INFINITY, 6), "-inf");
    /* Digits clamped to 1..17: 0 acts as 1, 99 as 17. */
    ck_assert_str_eq(fmt(0.37, 0), "0.4");
    ck_assert_str_eq(fmt(0.1, 99), "0.1");
    /* A short buffer truncates, NUL-terminated. */
    char small[4];
    ck_assert_str_eq(cs_num_format(123456789, 6, small, sizeof small), "123");
    /* With units, base/units.c: 2.5e9 bytes in decimal GB (binary units only
     * for exact multiples), 80 GiB, a fraction in %, money. */
    char u[64];
    ck_assert_str_eq(cs_units_format(2.5e9, CS_UNIT_BYTES, u, sizeof u), "2.5 GB");
    ck_assert_str_eq(cs_units_format(80.0 * 1024 * 1024 * 1024, CS_UNIT_BYTES, u, sizeof u),
                     "80 GiB");
    ck_assert_str_eq(cs_units_format(0.1, CS_UNIT_RATIO, u, sizeof u), "10%");
    ck_assert_str_eq(cs_units_format(30000, CS_UNIT_MONEY, u, sizeof u), "$30K");
}
END_TEST

static int hexval(const char *s)
{
    char b[3] = {s[0], s[1], 0};
    return (int)strtol(b, NULL, 16);
}

START_TEST(test_palette_twenty_distinct)
{
    ck_assert_int_eq(CS_PALETTE_SIZE, 20);
    double mind = 1e9;
    for (size_t i = 0; i < CS_PALETTE_SIZE; i++) {
        const char *c = cs_palette_color(i);
        ck_assert_uint_eq(strlen(c), 7);
        ck_assert_int_eq(c[0], '#');
        for (int k = 1; k < 7; k++)
            ck_assert_msg(isxdigit((unsigned char)c[k]), "colour %zu: %s", i, c);
        for (size_t j = 0; j < i; j++) {
            const char *o = cs_palette_color(j);
            ck_assert_msg(strcasecmp(c, o) != 0, "colours %zu and %zu are both %s", j, i, c);
            double d = 0;
            for (int k = 1; k < 7; k += 2) {
                double x = hexval(c + k) - hexval(o + k);
                d += x * x;
            }
            mind = fmin(mind, sqrt(d));
            /* Dash and point type together tell series apart without colour. */
            ck_assert_msg(cs_palette_dashtype(i) != cs_palette_dashtype(j) ||
                              cs_palette_pointtype(i) != cs_palette_pointtype(j),
                          "series %zu and %zu have the same dash and point", j, i);
        }
        /* White (Kelly's first) is not used: invisible on white. */
        ck_assert_str_ne(c, "#f2f3f4");
    }
    /* Closest pair in sRGB: black #222222 and dark olive green #2b3d26,
     * sqrt(9^2 + 27^2 + 4^2) = 28.7 (they also differ in dash: solid and
     * dotted). */
    ck_assert_double_eq_tol(mind, 28.74, 0.01);
    ck_assert_str_eq(cs_palette_color(CS_PALETTE_SIZE), cs_palette_color(0)); /* wraps */
    ck_assert_str_eq(cs_palette_color(0), "#222222");
    /* The gnuplot linetypes: twenty lines, linetype k = colour k-1. */
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cs_palette_write_gnuplot(f);
    fclose(f);
    size_t n = 0;
    for (const char *p = buf; (p = strstr(p, "set linetype ")); p++)
        n++;
    ck_assert_uint_eq(n, 20);
    ck_assert_ptr_nonnull(strstr(buf, "set linetype 1 lc rgb '#222222' dt 1 pt 7 "));
    ck_assert_ptr_nonnull(strstr(buf, "set linetype 6 lc rgb '#008856' dt 2 pt 6 "));
    ck_assert_ptr_nonnull(strstr(buf, "set linetype 20 lc rgb '#c2b280' dt 3 pt 10 "));
    free(buf);
}
END_TEST

/* The bundled templates that colour series by linetype (tco, plan) use the
 * palette's colours: every `set linetype K lc rgb '#...'` in them is
 * cs_palette_color(K-1). */
START_TEST(test_templates_use_the_palette)
{
    static const char *const names[] = {"plots/tco_util.gp", "plots/tco_bars.gp",
                                        "plots/plan_front.gp"};
    for (size_t t = 0; t < sizeof names / sizeof names[0]; t++) {
        FILE *f = fopen(cs_test_data(names[t]), "r");
        ck_assert_ptr_nonnull(f);
        char line[512];
        size_t n = 0;
        while (fgets(line, sizeof line, f)) {
            unsigned k;
            char col[16];
            if (sscanf(line, "set linetype %u lc rgb '%7[^']'", &k, col) == 2) {
                ck_assert_msg(k >= 1 && k <= CS_PALETTE_SIZE, "%s: linetype %u", names[t], k);
                ck_assert_msg(!strcasecmp(col, cs_palette_color(k - 1)), "%s: linetype %u is %s, "
                              "the palette's %s", names[t], k, col, cs_palette_color(k - 1));
                n++;
            }
        }
        fclose(f);
        ck_assert_msg(n >= 5, "%s: %zu palette linetypes", names[t], n);
    }
}
END_TEST

/* ---- sweep figure layouts on results built in memory ---- */

/* Results with the given axis names (all axes, no derived column) and the
 * columns gpus, tokens_per_s_per_gpu, mfu and, with cost, the seven tco
 * usd_per_utilized_gpu_hour columns. Rows are added with add_row. */
struct rb {
    struct cs_sweep_results r;
    size_t cap;
};

static const char *const opts[7] = {"on-prem", "colocation", "cloud-on-demand",
                                    "cloud-reserved-1y", "cloud-reserved-3y", "cloud-spot",
                                    "hybrid"};

static void rb_init(struct rb *b, const char *const *axes, size_t naxes, bool cost)
{
    memset(b, 0, sizeof *b);
    static const char *const head[] = {"point", "key", "status", "reason"};
    size_t nc = 4 + naxes + 3 + (cost ? 7 : 0);
    b->r.cols = cs_xcalloc(nc, sizeof *b->r.cols);
    for (int i = 0; i < 4; i++)
        b->r.cols[b->r.ncols++] = cs_xstrdup(head[i]);
    for (size_t i = 0; i < naxes; i++)
        b->r.cols[b->r.ncols++] = cs_xstrdup(axes[i]);
    b->r.cols[b->r.ncols++] = cs_xstrdup("gpus");
    b->r.cols[b->r.ncols++] = cs_xstrdup("tokens_per_s_per_gpu");
    b->r.cols[b->r.ncols++] = cs_xstrdup("mfu");
    for (int o = 0; cost && o < 7; o++)
        b->r.cols[b->r.ncols++] = cs_xasprintf("tco.%s.usd_per_utilized_gpu_hour", opts[o]);
    b->r.naxes = b->r.nvars = naxes;
}

/* One ok row: the axis values (text as results.jsonl gives them), gpus,
 * tokens/s per GPU; cost columns 1..7 when present. */
static void rb_row(struct rb *b, const char *const *vals, double gpus, double tps)
{
    if (b->r.nrows == b->cap) {
        b->cap = b->cap ? 2 * b->cap : 64;
        b->r.cells = cs_xrealloc(b->r.cells, b->cap * b->r.ncols, sizeof *b->r.cells);
    }
    char **row = b->r.cells + b->r.nrows * b->r.ncols;
    size_t c = 0;
    row[c++] = cs_xasprintf("%zu", b->r.nrows);
    row[c++] = cs_xstrdup("k");
    row[c++] = cs_xstrdup("ok");
    row[c++] = cs_xstrdup("");
    for (size_t i = 0; i < b->r.naxes; i++)
        row[c++] = cs_xstrdup(vals[i]);
    row[c++] = cs_xasprintf("%.17g", gpus);
    row[c++] = cs_xasprintf("%.17g", tps);
    row[c++] = cs_xstrdup("0.4");
    while (c < b->r.ncols) {
        row[c] = cs_xasprintf("%zu", c);
        c++;
    }
    b->r.nrows++;
}

START_TEST(test_layout_legend_lists_only_what_varies)
{
    /* Scaling: nodes on x; placement takes two values (series), mode one
     * (fixed: the title), utilization one, written by cJSON as %.17g. */
    static const char *const axes[] = {"cluster.nodes", "cluster.fabric.placement",
                                       "checkpoint.mode", "cost.utilization"};
    struct rb b;
    rb_init(&b, axes, 4, false);
    static const char *const nodes[] = {"1", "2", "4"};
    static const char *const place[] = {"packed", "scattered"};
    for (int p = 0; p < 2; p++)
        for (int n = 0; n < 3; n++) {
            const char *v[] = {nodes[n], place[p], "sync", "0.10000000000000001"};
            rb_row(&b, v, 8.0 * atoi(nodes[n]), 1000.0 - 100 * n - 50 * p);
        }
    struct cs_sweep_layout l;
    ck_assert(cs_sweep_fig_layout(&b.r, CS_SWEEP_FIG_SCALING, &l));
    ck_assert_uint_eq(l.naxes, 4);
    ck_assert_int_eq(l.role[0], CS_SWEEP_ROLE_X);
    ck_assert_int_eq(l.role[1], CS_SWEEP_ROLE_SERIES);
    ck_assert_int_eq(l.role[2], CS_SWEEP_ROLE_FIXED);
    ck_assert_int_eq(l.role[3], CS_SWEEP_ROLE_FIXED);
    ck_assert_uint_eq(l.nseries, 2);
    ck_assert_str_eq(l.series[0], "placement=packed");
    ck_assert_str_eq(l.series[1], "placement=scattered");
    ck_assert_uint_eq(l.npanels, 1);
    ck_assert_uint_eq(l.pages, 1);
    /* 0.10000000000000001 as a fraction: 10%, never the float noise. */
    ck_assert_str_eq(l.fixed, "checkpoint.mode=sync, cost.utilization=10%");
    cs_sweep_layout_fini(&l);
    /* Neither the topology nor the cost figure (no such columns). */
    ck_assert(!cs_sweep_fig_layout(&b.r, CS_SWEEP_FIG_TOPOLOGY, &l));
    ck_assert(!cs_sweep_fig_layout(&b.r, CS_SWEEP_FIG_COST, &l));
    ck_assert(!cs_sweep_fig_layout(&b.r, CS_SWEEP_FIG_THROUGHPUT, &l)); /* scaling drawn */
    cs_sweep_results_fini(&b.r);
}
END_TEST

START_TEST(test_layout_series_past_twenty_become_panels)
{
    /* Scaling against nodes with a = 3 values and b = 10: the innermost
     * axis b first: 10 series <= 20; a then makes 30 > 20: a becomes the
     * panels, 3 of 10 series each. */
    static const char *const axes[] = {"cluster.nodes", "x.a", "x.b"};
    struct rb b;
    rb_init(&b, axes, 3, false);
    char av[8], bv[8];
    for (int a = 0; a < 3; a++)
        for (int bb = 0; bb < 10; bb++)
            for (int n = 1; n <= 2; n++) {
                snprintf(av, sizeof av, "%d", a);
                snprintf(bv, sizeof bv, "%d", bb);
                const char *v[] = {n == 1 ? "1" : "2", av, bv};
                rb_row(&b, v, 8.0 * n, 1000.0 - n);
            }
    struct cs_sweep_layout l;
    ck_assert(cs_sweep_fig_layout(&b.r, CS_SWEEP_FIG_SCALING, &l));
    ck_assert_int_eq(l.role[1], CS_SWEEP_ROLE_PANEL);
    ck_assert_int_eq(l.role[2], CS_SWEEP_ROLE_SERIES);
    ck_assert_uint_eq(l.nseries, 10);
    ck_assert_uint_eq(l.npanels, 3);
    ck_assert_str_eq(l.panels[0], "a=0");
    ck_assert_str_eq(l.panels[2], "a=2");
    ck_assert_str_eq(l.series[9], "b=9");
    ck_assert_ptr_null(l.fixed);
    cs_sweep_layout_fini(&l);
    cs_sweep_results_fini(&b.r);

    /* One axis of 21 values besides x: alone past the palette, it is the
     * panels (21, one line each), never a 21st colour. 20 values: series. */
    for (int nv = 20; nv <= 21; nv++) {
        static const char *const ax2[] = {"cluster.nodes", "x.c"};
        rb_init(&b, ax2, 2, false);
        for (int c = 0; c < nv; c++)
            for (int n = 1; n <= 2; n++) {
                snprintf(av, sizeof av, "%d", c);
                const char *v[] = {n == 1 ? "1" : "2", av};
                rb_row(&b, v, 8.0 * n, 900);
            }
        ck_assert(cs_sweep_fig_layout(&b.r, CS_SWEEP_FIG_SCALING, &l));
        if (nv == 20) {
            ck_assert_int_eq(l.role[1], CS_SWEEP_ROLE_SERIES);
            ck_assert_uint_eq(l.nseries, 20);
            ck_assert_uint_eq(l.npanels, 1);
        } else {
            ck_assert_int_eq(l.role[1], CS_SWEEP_ROLE_PANEL);
            ck_assert_uint_eq(l.nseries, 1);
            ck_assert_str_eq(l.series[0], "all points");
            ck_assert_uint_eq(l.npanels, 21);
            ck_assert_uint_eq(l.shown, 21);
            ck_assert_uint_eq(l.pages, 2); /* 12 + 9 */
        }
        cs_sweep_layout_fini(&l);
        cs_sweep_results_fini(&b.r);
    }
}
END_TEST

START_TEST(test_paginate_hand_values)
{
    /* 12 panels a page, 8 pages: 96 panels at most. */
    static const size_t in[][3] = {{0, 0, 0},   {1, 1, 1},    {12, 12, 1},  {13, 13, 2},
                                   {64, 64, 6}, {96, 96, 8},  {97, 96, 8},  {1000, 96, 8}};
    for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) {
        size_t shown = 99, pages = 99;
        cs_sweep_paginate(in[i][0], &shown, &pages);
        ck_assert_uint_eq(shown, in[i][1]);
        ck_assert_uint_eq(pages, in[i][2]);
    }
    char s[64];
    cs_sweep_page_stem(CS_SWEEP_FIG_COST, 0, s, sizeof s);
    ck_assert_str_eq(s, "sweep_cost");
    cs_sweep_page_stem(CS_SWEEP_FIG_COST, 5, s, sizeof s);
    ck_assert_str_eq(s, "sweep_cost_p6");
}
END_TEST

static char *slurp_path(const char *path)
{
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    char *buf = calloc(1, 1 << 22);
    size_t n = fread(buf, 1, (1 << 22) - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p++)
        n++;
    return n;
}

/* The cost figure of a sweep with utilization (x) and three more axes of
 * 4 values: 4^3 = 64 groups, one panel each (it used to draw the first
 * group only, silently): 6 pages (12 x 5 + 4). */
static void cost_results(struct rb *b, int ngpu)
{
    static const char *const axes[] = {"cluster.nodes", "cost.gpu_price", "cost.cost_of_capital",
                                       "cost.utilization"};
    rb_init(b, axes, 4, true);
    static const char *const util[] = {"0.5", "1"};
    char nv[16], pv[16], cv[32];
    for (int n = 0; n < 4; n++)
        for (int p = 0; p < ngpu; p++)
            for (int c = 0; c < 4; c++)
                for (int u = 0; u < 2; u++) {
                    snprintf(nv, sizeof nv, "%d", 4 << n);
                    snprintf(pv, sizeof pv, "%d", 20000 + 5000 * p);
                    snprintf(cv, sizeof cv, "%.17g", 0.05 + 0.02 * c);
                    const char *v[] = {nv, pv, cv, util[u]};
                    rb_row(b, v, 8.0 * (4 << n), 700);
                }
}

START_TEST(test_cost_figure_one_panel_per_group)
{
    struct rb b;
    cost_results(&b, 4);
    struct cs_sweep_layout l;
    ck_assert(cs_sweep_fig_layout(&b.r, CS_SWEEP_FIG_COST, &l));
    ck_assert_int_eq(l.role[3], CS_SWEEP_ROLE_X);
    for (int i = 0; i < 3; i++)
        ck_assert_int_eq(l.role[i], CS_SWEEP_ROLE_PANEL);
    ck_assert_uint_eq(l.nseries, 7);
    ck_assert_str_eq(l.series[0], "on-prem");
    ck_assert_uint_eq(l.npanels, 64);
    ck_assert_uint_eq(l.shown, 64);
    ck_assert_uint_eq(l.pages, 6);
    /* First appearance: nodes 4, $20K, 5% (0.05 + 0.02 * 0 as %.17g). */
    ck_assert_str_eq(l.panels[0], "nodes=4, gpu_price=$20K, cost_of_capital=5%");
    ck_assert_str_eq(l.panels[63], "nodes=32, gpu_price=$35K, cost_of_capital=11%");
    cs_sweep_layout_fini(&l);

    char dir[] = "/tmp/check_plot.XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    bool made[CS_SWEEP_FIG_COUNT];
    cs_diags d;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_sweep_plot_data(&b.r, dir, made, &d), CS_OK);
    ck_assert_uint_eq(d.n, 0); /* all 64 drawn: no warning */
    cs_diags_fini(&d);
    ck_assert(made[CS_SWEEP_FIG_COST] && made[CS_SWEEP_FIG_SCALING]);
    char *p = cs_xasprintf("%s/sweep_cost.gp", dir);
    char *gp = slurp_path(p);
    free(p);
    /* Two terminals x 6 pages, each a multiplot; the 64 panels' titles
     * twice (PNG and SVG); the seven options' colours from the palette. */
    ck_assert_uint_eq(count(gp, "\nset multiplot"), 12);
    ck_assert_uint_eq(count(gp, "set output 'sweep_cost_p6.png'"), 1);
    ck_assert_uint_eq(count(gp, "set output 'sweep_cost_p7"), 0);
    ck_assert_uint_eq(count(gp, "set title 'nodes="), 128);
    ck_assert_uint_eq(count(gp, "'nodes=32, gpu_price=$35K, cost_of_capital=11%'"), 2);
    ck_assert_ptr_nonnull(strstr(gp, "set linetype 1 lc rgb '#222222'"));
    ck_assert_ptr_null(strstr(gp, "0000000000")); /* no float noise anywhere */
    free(gp);
    cs_sweep_plot_remove(dir);
    ck_assert_int_eq(rmdir(dir), 0); /* remove took every file */
    cs_sweep_results_fini(&b.r);
}
END_TEST

START_TEST(test_cost_figure_warns_what_it_leaves_out)
{
    /* 4 x 7 x 4 = 112 groups: 96 drawn on 8 pages, 16 left out, named in a
     * warning and on the last page. */
    struct rb b;
    cost_results(&b, 7);
    char dir[] = "/tmp/check_plot.XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    bool made[CS_SWEEP_FIG_COUNT];
    cs_diags d;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_sweep_plot_data(&b.r, dir, made, &d), CS_OK);
    /* Scaling (nodes on x): utilization (2) and capital (4) make 8 series;
     * with price 56 > 20, so price (7) gives the panels: no warning. */
    ck_assert_uint_eq(d.n, 1);
    ck_assert_int_eq(d.items[0].sev, CS_SEV_WARNING);
    /* Groups in first appearance: nodes slowest; 96 = nodes 4, 8, 16 (28
     * each = 84) and 12 of nodes 32; left out: from nodes=32, price index 3
     * ($35K), capital 5%. */
    ck_assert_str_eq(d.items[0].msg,
                     "warning: sweep_cost: 16 of 112 panels left out (at most 8 pages of 12): "
                     "nodes=32, gpu_price=$35K, cost_of_capital=5%; nodes=32, gpu_price=$35K, "
                     "cost_of_capital=7%; nodes=32, gpu_price=$35K, cost_of_capital=9%; and 13 "
                     "more");
    cs_diags_fini(&d);
    char *p = cs_xasprintf("%s/sweep_cost.gp", dir);
    char *gp = slurp_path(p);
    free(p);
    ck_assert_uint_eq(count(gp, "\nset multiplot"), 16);
    ck_assert_uint_eq(count(gp, "set label 99 '16 of 112 panels left out"), 2); /* PNG, SVG */
    ck_assert_uint_eq(count(gp, "(page 8 of 8: panels 85-96 of 112)"), 2);
    free(gp);
    struct cs_sweep_layout l;
    ck_assert(cs_sweep_fig_layout(&b.r, CS_SWEEP_FIG_SCALING, &l));
    ck_assert_int_eq(l.role[1], CS_SWEEP_ROLE_PANEL);
    ck_assert_int_eq(l.role[2], CS_SWEEP_ROLE_SERIES);
    ck_assert_int_eq(l.role[3], CS_SWEEP_ROLE_SERIES);
    ck_assert_uint_eq(l.npanels, 7);
    ck_assert_uint_eq(l.nseries, 8);
    ck_assert_str_eq(l.series[1], "cost_of_capital=5%, utilization=100%");
    cs_sweep_layout_fini(&l);
    cs_sweep_plot_remove(dir);
    ck_assert_int_eq(rmdir(dir), 0);
    cs_sweep_results_fini(&b.r);
}
END_TEST

/* A sweep none of the four figures draws (Mixtral's expert parallelism,
 * scenarios/sweeps/moe-ep.yaml): tokens/s per GPU against ep, a line per
 * routing, replicas in the title, and the title says which rows are not
 * drawn (ep 1 and 2 do not fit in memory). */
START_TEST(test_throughput_figure_for_other_sweeps)
{
    static const char *const axes[] = {"workload.parallelism.ep", "workload.model.moe.routing",
                                       "run.replicas"};
    struct rb b;
    rb_init(&b, axes, 3, false);
    static const char *const ep[] = {"1", "2", "4", "8"};
    static const char *const rt[] = {"learned", "balanced"};
    for (int e = 0; e < 4; e++)
        for (int k = 0; k < 2; k++) {
            const char *v[] = {ep[e], rt[k], "20"};
            rb_row(&b, v, 64, 5000 + 100 * e + 1000 * k);
            if (e < 2) { /* nofit: status, no throughput */
                char **row = b.r.cells + (b.r.nrows - 1) * b.r.ncols;
                free(row[2]);
                row[2] = cs_xstrdup("nofit");
                free(row[4 + 3 + 1]);
                row[4 + 3 + 1] = NULL;
            }
        }
    struct cs_sweep_layout l;
    for (int f = 0; f < CS_SWEEP_FIG_THROUGHPUT; f++)
        ck_assert(!cs_sweep_fig_layout(&b.r, (enum cs_sweep_fig)f, &l));
    ck_assert(cs_sweep_fig_layout(&b.r, CS_SWEEP_FIG_THROUGHPUT, &l));
    ck_assert_int_eq(l.role[0], CS_SWEEP_ROLE_X);
    ck_assert_int_eq(l.role[1], CS_SWEEP_ROLE_SERIES);
    ck_assert_int_eq(l.role[2], CS_SWEEP_ROLE_FIXED);
    ck_assert_uint_eq(l.nseries, 2);
    ck_assert_str_eq(l.series[0], "routing=learned");
    ck_assert_str_eq(l.fixed, "run.replicas=20");
    cs_sweep_layout_fini(&l);
    char dir[] = "/tmp/check_plot.XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    bool made[CS_SWEEP_FIG_COUNT];
    cs_diags d;
    cs_diags_init(&d);
    ck_assert_int_eq(cs_sweep_plot_data(&b.r, dir, made, &d), CS_OK);
    ck_assert_uint_eq(d.n, 0);
    cs_diags_fini(&d);
    ck_assert(made[CS_SWEEP_FIG_THROUGHPUT]);
    char *p = cs_xasprintf("%s/sweep_throughput.gp", dir);
    char *gp = slurp_path(p);
    free(p);
    ck_assert_ptr_nonnull(strstr(gp, "'fixed: run.replicas=20; not drawn: 4 of 8 points (4 nofit)'"));
    ck_assert_ptr_nonnull(strstr(gp, "xl = 'workload.parallelism.ep (GPUs)'"));
    ck_assert_ptr_nonnull(strstr(gp, "yl = 'throughput (tokens/s per GPU)'"));
    free(gp);
    p = cs_xasprintf("%s/sweep_throughput.dat", dir);
    char *dat = slurp_path(p);
    free(p);
    /* ep 4 and 8 of learned: 5000 + 100 * 2, + 100 * 3. */
    ck_assert_ptr_nonnull(strstr(dat, "\"routing=learned\" step_time_s mfu xlabel\n"
                                      "4 5200 NaN 0.4 \"4\"\n8 5300 NaN 0.4 \"8\"\n"));
    free(dat);
    cs_sweep_plot_remove(dir);
    ck_assert_int_eq(rmdir(dir), 0);
    cs_sweep_results_fini(&b.r);
}
END_TEST

static Suite *plot_suite(void)
{
    Suite *s = suite_create("plot");
    TCase *tc = tcase_create("plot");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_num_format_hand_values);
    tcase_add_test(tc, test_palette_twenty_distinct);
    tcase_add_test(tc, test_templates_use_the_palette);
    tcase_add_test(tc, test_layout_legend_lists_only_what_varies);
    tcase_add_test(tc, test_layout_series_past_twenty_become_panels);
    tcase_add_test(tc, test_paginate_hand_values);
    tcase_add_test(tc, test_cost_figure_one_panel_per_group);
    tcase_add_test(tc, test_cost_figure_warns_what_it_leaves_out);
    tcase_add_test(tc, test_throughput_figure_for_other_sweeps);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return cs_test_run(plot_suite()); }
