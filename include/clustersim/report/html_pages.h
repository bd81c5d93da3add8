/* html_pages.h: the pages of `clustersim report tco|plan|replay` (report
 * layer, report/html_pages.c) and the inline SVG charts they draw. A page
 * is built from the JSON document of the command it reports
 * (`clustersim tco|plan|replay --format json`), so the page and the JSON
 * cannot disagree: every figure of the summary paragraph is printed in a
 * span carrying its JSON path and exact value (cs_html_value), which the
 * Chromium test (tests/report_chromium.sh) compares with the command's
 * JSON. Optional members (tco.offer, tco.offers[], tco.assumptions[],
 * replay.by_size[] / by_user[] / by_partition[] / warnings[]) are drawn
 * when present. Writers take a borrowed FILE *; nothing is read here. */
#ifndef CLUSTERSIM_HTML_PAGES_H
#define CLUSTERSIM_HTML_PAGES_H

#include "clustersim/report/html.h"

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Whole pages (cs_html_begin .. cs_html_end). */
void cs_html_page_tco(FILE *f, const cJSON *doc, const struct cs_html_meta *m);
void cs_html_page_plan(FILE *f, const cJSON *doc, const struct cs_html_meta *m);
void cs_html_page_replay(FILE *f, const cJSON *doc, const struct cs_html_meta *m);

/* An array of objects as a table: one column per scalar key of its
 * objects (first seen order, at most 16), numbers formatted by key
 * (cs_fmt_auto), booleans as yes/no. Nothing for an empty array. */
void cs_html_array_table(FILE *f, const cJSON *arr);

/* Charts (inline SVG, 900 px wide, scaled down to the page). */

/* Horizontal stacked bars: nbars bars of nseg segments, v[bar * nseg +
 * seg] (negative and non-finite segments drawn as 0), the bar's total
 * printed at its end in unit u; a legend of the segments. */
void cs_html_svg_stacked(FILE *f, const char *title, size_t nbars, const char *const *labels,
                         size_t nseg, const char *const *seg_names, const double *v,
                         enum cs_html_unit u);

struct cs_html_series {
    const char *name;
    bool dashed;
    size_t n;
    const double *x, *y;
};
struct cs_html_mark {
    double x, y;
    const char *label;
};
/* Lines on linear axes from 0 (x in xu, y in yu), a legend, points with
 * labels (stacked so that near ones do not overlap) and an optional
 * dotted vertical line at vline (NAN: none) labelled vline_label. */
void cs_html_svg_lines(FILE *f, const char *title, const char *xlabel, enum cs_html_unit xu,
                       const char *ylabel, enum cs_html_unit yu, size_t ns,
                       const struct cs_html_series *s, size_t nm, const struct cs_html_mark *m,
                       double vline, const char *vline_label);

/* A tornado: for each row, a bar from base to low[i] and one from base to
 * high[i] (the total with the input at its low and its high value), rows
 * in the order given (largest swing first). */
void cs_html_svg_tornado(FILE *f, const char *title, size_t n, const char *const *labels,
                         const double *low, const double *high, double base, enum cs_html_unit u);

/* Points (x, y) with labels joined in x order (a front), on axes from 0,
 * with an optional dotted vertical line at vline and horizontal at hline
 * (NAN: none) and their labels; highlight[i] draws point i larger. */
void cs_html_svg_front(FILE *f, const char *title, const char *xlabel, enum cs_html_unit xu,
                       const char *ylabel, enum cs_html_unit yu, size_t n, const double *x,
                       const double *y, const char *const *labels, const bool *highlight,
                       double vline, const char *vline_label, double hline,
                       const char *hline_label);

#endif
