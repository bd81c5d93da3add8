/* html.h: self-contained HTML pages (report layer, report/html.c) for
 * `clustersim report`: escaped text, tables, bar charts drawn as inline
 * SVG, and gnuplot SVG files inlined. Pages load nothing from outside (no
 * script, style sheet, font or image URL), so they open offline and can be
 * mailed as one file. Writers take a borrowed FILE *. */
#ifndef CLUSTERSIM_HTML_H
#define CLUSTERSIM_HTML_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Writes s with & < > " ' escaped (safe in text and in quoted attributes). */
void cs_html_escape(FILE *f, const char *s);

/* The document head (title escaped, inline style) and the opening <body>;
 * cs_html_end closes them. */
void cs_html_begin(FILE *f, const char *title);
void cs_html_end(FILE *f);
void cs_html_heading(FILE *f, int level, const char *text); /* level 1..4 */
void cs_html_para(FILE *f, const char *text);

/* A table: ncols header cells, nrows x ncols body cells row-major (NULL is
 * an empty cell). Cells that look like numbers are right-aligned and
 * printed by cs_html_fmt_plain. */
void cs_html_table(FILE *f, size_t ncols, const char *const *head, size_t nrows,
                   const char *const *cells);

/* A number without a unit for tables: integers with separators ("1,024"),
 * others to 6 significant digits with trailing zeros trimmed ("0.0826",
 * "3.14159"), never exponent notation (report/numfmt.h). Returns buf. */
const char *cs_html_fmt_plain(double v, char *buf, size_t n);

/* Every scalar leaf of obj as a two-column table (key path, value), in the
 * object's order; arrays by index; numbers formatted by their key
 * (cs_fmt_auto: dollars, durations, bytes, percentages). */
void cs_html_json_table(FILE *f, const cJSON *obj);

/* A horizontal bar chart as inline SVG: n bars (labels escaped), values in
 * `unit`; non-finite values are drawn as "n/a". */
void cs_html_svg_bars(FILE *f, const char *title, const char *unit, size_t n,
                      const char *const *labels, const double *values);

/* Copies the SVG document at path into the page from its "<svg" on (the
 * XML prolog and doctype are dropped). False when it cannot be read or has
 * no <svg element; nothing is written then. */
bool cs_html_svg_file(FILE *f, const char *path);

/* The page's provenance: the command, each input file with its SHA-256,
 * the clustersim version and the date (UTC). */
struct cs_html_meta {
    const char *command;              /* may be NULL */
    const char *date;                 /* e.g. "2026-12-01 19:30 UTC" */
    size_t nfiles;
    const char *const *files;         /* paths as given */
    const char *const *file_roles;    /* "scenario", "trace", ... (NULL: "input") */
    const char *const *sha256;        /* lower-case hex */
};
void cs_html_meta(FILE *f, const struct cs_html_meta *m);

/* The JSON value at path ("tco.options[0].total_usd": keys by '.', array
 * indices in brackets), or NULL. */
const cJSON *cs_html_json_at(const cJSON *root, const char *path);
/* Its number, NAN when absent or not a number. */
double cs_html_json_num(const cJSON *root, const char *path);

/* How a figure in a sentence is printed. */
enum cs_html_unit {
    CS_HU_USD,      /* cs_fmt_usd */
    CS_HU_PCT,      /* a ratio, cs_fmt_pct with 1 decimal */
    CS_HU_SECONDS,  /* cs_fmt_duration */
    CS_HU_BYTES,    /* cs_fmt_bytes */
    CS_HU_COUNT,    /* cs_fmt_count */
    CS_HU_NUM,      /* cs_html_fmt_plain */
};
const char *cs_html_unit_format(enum cs_html_unit u, double v, char *buf, size_t n);
/* A figure of a sentence, formatted, in a span that says where it comes
 * from, so a test can compare the words with the JSON:
 * <span class="v" data-json="PATH" data-value="%.17g" data-unit="usd">$1,234</span>
 * (data-value "null" for NAN; units usd, pct, s, bytes, count, num). */
void cs_html_value(FILE *f, const char *path, double v, enum cs_html_unit u);
/* The same with the value read from root at path. */
void cs_html_jvalue(FILE *f, const cJSON *root, const char *path, enum cs_html_unit u);

#endif
