/* html_pages.c: the `clustersim report tco|plan|replay` pages and their
 * inline SVG charts (contract in clustersim/report/html_pages.h). Each
 * page: a title, its provenance (command, inputs with SHA-256, version,
 * date), a summary paragraph in words whose figures are spans carrying
 * their JSON path, the tables of options, the figures, the assumptions and
 * defaults, and every figure of the JSON. */
#include "clustersim/report/html_pages.h"
#include "clustersim/report/numfmt.h"
#include "clustersim/base/xmalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const cs__pal[] = {"#3b75af", "#e1812c", "#3a923a", "#c03d3e",
                                      "#9372b2", "#845b53", "#d684bd", "#7f7f7f"};
#define CS__NPAL (sizeof cs__pal / sizeof cs__pal[0])

/* ---- charts ----------------------------------------------------------- */

static void cs__svg_open(FILE *f, int w, int h, const char *title)
{
    fprintf(f,
            "<figure><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            "viewBox=\"0 0 %d %d\" role=\"img\" font-family=\"sans-serif\">\n",
            w, h, w, h);
    fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", w, h);
    fputs("<text x=\"10\" y=\"22\" font-size=\"16\" font-weight=\"bold\">", f);
    cs_html_escape(f, title);
    fputs("</text>\n", f);
}

static void cs__svg_close(FILE *f) { fputs("</svg></figure>\n", f); }

static void cs__text(FILE *f, double x, double y, int size, const char *anchor, const char *fill,
                     const char *s)
{
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\" text-anchor=\"%s\" fill=\"%s\">", x, y,
            size, anchor, fill);
    cs_html_escape(f, s);
    fputs("</text>\n", f);
}

/* A tick step of 1, 2 or 5 x 10^k giving about `target` ticks over range. */
static double cs__nice_step(double range, int target)
{
    if (!(range > 0) || !isfinite(range))
        return 1;
    double raw = range / target, p = pow(10, floor(log10(raw))), m = raw / p;
    return (m < 1.5 ? 1 : m < 3 ? 2 : m < 7 ? 5 : 10) * p;
}

static const char *cs__tick(enum cs_html_unit u, double v, char *buf, size_t n)
{
    if (u == CS_HU_PCT)
        return cs_fmt_pct(v, 0, buf, n);
    return cs_html_unit_format(u, v, buf, n);
}

/* The plot area of an x-y figure: the SVG opened, grid lines and tick
 * labels every xs / ys from 0 to xmax / ymax, the frame and both axis
 * titles. */
struct cs__frame {
    int W, H, left, right, top, bottom;
    double xmax, ymax, xs, ys;
};
static void cs__axes(FILE *f, const struct cs__frame *fr, const char *title, enum cs_html_unit xu,
                     enum cs_html_unit yu, const char *xlabel, const char *ylabel)
{
    double pw = fr->W - fr->left - fr->right, ph = fr->H - fr->top - fr->bottom;
    cs__svg_open(f, fr->W, fr->H, title);
    char buf[64];
    for (double t = 0; t <= fr->xmax * 1.0001; t += fr->xs) {
        double x = fr->left + pw * t / fr->xmax;
        fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#e4e4e4\"/>\n", x,
                fr->top, x, fr->H - fr->bottom);
        cs__text(f, x, fr->H - fr->bottom + 16, 11, "middle", "#444", cs__tick(xu, t, buf, sizeof buf));
    }
    for (double t = 0; t <= fr->ymax * 1.0001; t += fr->ys) {
        double y = fr->top + ph * (1 - t / fr->ymax);
        fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>\n",
                fr->left, y, fr->W - fr->right, y);
        cs__text(f, fr->left - 6, y + 4, 11, "end", "#444", cs__tick(yu, t, buf, sizeof buf));
    }
    fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%.0f\" height=\"%.0f\" fill=\"none\" stroke=\"#888\"/>\n",
            fr->left, fr->top, pw, ph);
    cs__text(f, fr->left + pw / 2, fr->H - 14, 12, "middle", "#222", xlabel);
    fprintf(f,
            "<text x=\"16\" y=\"%.1f\" font-size=\"12\" text-anchor=\"middle\" "
            "transform=\"rotate(-90 16 %.1f)\">",
            fr->top + ph / 2, fr->top + ph / 2);
    cs_html_escape(f, ylabel);
    fputs("</text>\n", f);
}


static double cs__max_finite(const double *v, size_t n, double floor_v)
{
    double m = floor_v;
    for (size_t i = 0; i < n; i++)
        if (isfinite(v[i]) && v[i] > m)
            m = v[i];
    return m;
}

void cs_html_svg_stacked(FILE *f, const char *title, size_t nbars, const char *const *labels,
                         size_t nseg, const char *const *seg_names, const double *v,
                         enum cs_html_unit u)
{
    const int W = 900, left = 160, right = 110, bar = 22, gap = 8, top = 62;
    int H = top + (int)nbars * (bar + gap) + 36;
    double *tot = cs_xcalloc(nbars + 1, sizeof *tot);
    for (size_t b = 0; b < nbars; b++)
        for (size_t s = 0; s < nseg; s++)
            if (isfinite(v[b * nseg + s]) && v[b * nseg + s] > 0)
                tot[b] += v[b * nseg + s];
    double max = cs__max_finite(tot, nbars, 0);
    double step = cs__nice_step(max, 5);
    double xmax = max > 0 ? ceil(max / step) * step : 1;
    double pw = W - left - right;
    cs__svg_open(f, W, H, title);
    /* legend */
    double lx = 10;
    for (size_t s = 0; s < nseg; s++) {
        fprintf(f, "<rect x=\"%.1f\" y=\"34\" width=\"12\" height=\"12\" fill=\"%s\"/>\n", lx,
                cs__pal[s % CS__NPAL]);
        cs__text(f, lx + 16, 45, 12, "start", "#222", seg_names[s]);
        lx += 16 + 7.5 * (double)strlen(seg_names[s]) + 18;
    }
    char buf[64];
    int ybot = top + (int)nbars * (bar + gap);
    for (double t = 0; t <= xmax * 1.0001; t += step) {
        double x = left + pw * t / xmax;
        fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>\n", x,
                top - 4, x, ybot);
        cs__text(f, x, ybot + 16, 11, "middle", "#444", cs__tick(u, t, buf, sizeof buf));
    }
    for (size_t b = 0; b < nbars; b++) {
        int y = top + (int)b * (bar + gap);
        char label[40];
        snprintf(label, sizeof label, "%s", labels[b]);
        cs__text(f, left - 8, y + bar - 7, 13, "end", "#222", label);
        double x = left;
        for (size_t s = 0; s < nseg; s++) {
            double val = v[b * nseg + s];
            if (!(isfinite(val) && val > 0))
                continue;
            double w = pw * val / xmax;
            fprintf(f, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>\n", x,
                    y, w, bar, cs__pal[s % CS__NPAL]);
            x += w;
        }
        cs__text(f, x + 6, y + bar - 7, 12, "start", "#222",
                 cs_html_unit_format(u, tot[b], buf, sizeof buf));
    }
    cs__svg_close(f);
    free(tot);
}

void cs_html_svg_lines(FILE *f, const char *title, const char *xlabel, enum cs_html_unit xu,
                       const char *ylabel, enum cs_html_unit yu, size_t ns,
                       const struct cs_html_series *s, size_t nm, const struct cs_html_mark *m,
                       double vline, const char *vline_label)
{
    const int W = 900, H = 470, left = 100, right = 180, top = 40, bottom = 60;
    double xmax = 0, ymax = 0;
    for (size_t i = 0; i < ns; i++) {
        xmax = fmax(xmax, cs__max_finite(s[i].x, s[i].n, 0));
        ymax = fmax(ymax, cs__max_finite(s[i].y, s[i].n, 0));
    }
    double xs = cs__nice_step(xmax, 5), ys = cs__nice_step(ymax, 5);
    xmax = xmax > 0 ? ceil(xmax / xs - 1e-9) * xs : 1;
    ymax = ymax > 0 ? ceil(ymax / ys - 1e-9) * ys : 1;
    double pw = W - left - right, ph = H - top - bottom;
#define CS__X(v) (left + pw * (v) / xmax)
#define CS__Y(v) (top + ph * (1 - (v) / ymax))
    cs__axes(f, &(struct cs__frame){W, H, left, right, top, bottom, xmax, ymax, xs, ys}, title, xu, yu,
             xlabel, ylabel);
    if (isfinite(vline) && vline >= 0 && vline <= xmax) {
        fprintf(f,
                "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#555\" "
                "stroke-dasharray=\"2,3\"/>\n",
                CS__X(vline), top, CS__X(vline), H - bottom);
        cs__text(f, CS__X(vline) + 4, top + 12, 11, "start", "#555",
                 vline_label ? vline_label : "");
    }
    for (size_t i = 0; i < ns; i++) {
        fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s points=\"",
                cs__pal[i % CS__NPAL], s[i].dashed ? " stroke-dasharray=\"7,4\"" : "");
        for (size_t k = 0; k < s[i].n; k++)
            if (isfinite(s[i].x[k]) && isfinite(s[i].y[k]))
                fprintf(f, "%s%.1f,%.1f", k ? " " : "", CS__X(s[i].x[k]),
                        CS__Y(fmin(s[i].y[k], ymax)));
        fputs("\"/>\n", f);
        double ly = top + 14 + 18.0 * (double)i;
        fprintf(f,
                "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\" "
                "stroke-width=\"2\"%s/>\n",
                W - right + 12, ly - 4, W - right + 36, ly - 4, cs__pal[i % CS__NPAL],
                s[i].dashed ? " stroke-dasharray=\"7,4\"" : "");
        cs__text(f, W - right + 42, ly, 12, "start", "#222", s[i].name);
    }
    double *placed = cs_xcalloc(nm + 1, sizeof *placed);
    for (size_t i = 0; i < nm; i++) {
        if (!isfinite(m[i].x) || !isfinite(m[i].y))
            continue;
        double px = CS__X(m[i].x), py = CS__Y(m[i].y);
        fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"#000\"/>\n", px, py);
        /* labels above their points, moved up past earlier labels nearby */
        double ty = py - 8;
        for (bool moved = true; moved;) {
            moved = false;
            for (size_t k = 0; k < i; k++)
                if (fabs(placed[k] - ty) < 14 && fabs(CS__X(m[k].x) - px) < 220) {
                    ty = placed[k] - 14;
                    moved = true;
                }
        }
        if (ty < top + 10)
            ty = top + 10;
        placed[i] = ty;
        bool right_half = px > left + pw * 0.6;
        /* a white halo keeps the label readable over the lines */
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"%s\" fill=\"#000\" "
                   "stroke=\"#fff\" stroke-width=\"3\" paint-order=\"stroke\">",
                px + (right_half ? -6 : 6), ty, right_half ? "end" : "start");
        cs_html_escape(f, m[i].label);
        fputs("</text>\n", f);
    }
    free(placed);
#undef CS__X
#undef CS__Y
    cs__svg_close(f);
}

void cs_html_svg_tornado(FILE *f, const char *title, size_t n, const char *const *labels,
                         const double *low, const double *high, double base, enum cs_html_unit u)
{
    const int W = 900, left = 200, right = 40, bar = 20, gap = 8, top = 60;
    int H = top + (int)n * (bar + gap) + 40;
    double lo = base, hi = base;
    for (size_t i = 0; i < n; i++) {
        if (isfinite(low[i]))
            lo = fmin(lo, low[i]), hi = fmax(hi, low[i]);
        if (isfinite(high[i]))
            lo = fmin(lo, high[i]), hi = fmax(hi, high[i]);
    }
    double span = hi - lo > 0 ? hi - lo : fabs(base) * 0.1 + 1;
    double xs = cs__nice_step(span, 5);
    double x0 = floor((lo - span * 0.05) / xs) * xs, x1 = ceil((hi + span * 0.05) / xs) * xs;
    if (x0 < 0 && lo >= 0)
        x0 = 0;
    double pw = W - left - right;
#define CS__X(v) (left + pw * ((v)-x0) / (x1 - x0))
    cs__svg_open(f, W, H, title);
    char buf[64];
    fprintf(f, "<rect x=\"10\" y=\"34\" width=\"12\" height=\"12\" fill=\"%s\"/>\n", cs__pal[0]);
    cs__text(f, 26, 45, 12, "start", "#222", "input at its low value");
    fprintf(f, "<rect x=\"200\" y=\"34\" width=\"12\" height=\"12\" fill=\"%s\"/>\n", cs__pal[1]);
    cs__text(f, 216, 45, 12, "start", "#222", "input at its high value");
    int ybot = top + (int)n * (bar + gap);
    for (double t = x0; t <= x1 * 1.0001 + 1e-9; t += xs) {
        fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#e4e4e4\"/>\n",
                CS__X(t), top - 4, CS__X(t), ybot);
        cs__text(f, CS__X(t), ybot + 16, 11, "middle", "#444", cs__tick(u, t, buf, sizeof buf));
    }
    for (size_t i = 0; i < n; i++) {
        int y = top + (int)i * (bar + gap);
        cs__text(f, left - 8, y + bar - 6, 12, "end", "#222", labels[i]);
        const double v2[2] = {low[i], high[i]};
        for (int k = 0; k < 2; k++) {
            if (!isfinite(v2[k]))
                continue;
            double a = CS__X(fmin(base, v2[k])), b = CS__X(fmax(base, v2[k]));
            fprintf(f,
                    "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\" "
                    "fill-opacity=\"0.85\"/>\n",
                    a, y, fmax(b - a, 1), bar, cs__pal[k]);
        }
    }
    fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#000\"/>\n", CS__X(base),
            top - 6, CS__X(base), ybot);
    char lab[96];
    snprintf(lab, sizeof lab, "base %s", cs_html_unit_format(u, base, buf, sizeof buf));
    cs__text(f, CS__X(base), ybot + 32, 11, "middle", "#000", lab);
#undef CS__X
    cs__svg_close(f);
}

struct cs__pt {
    double x, y;
    size_t i;
};
static int cs__pt_cmp(const void *a, const void *b)
{
    const struct cs__pt *p = a, *q = b;
    return p->x < q->x ? -1 : p->x > q->x ? 1 : 0;
}

void cs_html_svg_front(FILE *f, const char *title, const char *xlabel, enum cs_html_unit xu,
                       const char *ylabel, enum cs_html_unit yu, size_t n, const double *x,
                       const double *y, const char *const *labels, const bool *highlight,
                       double vline, const char *vline_label, double hline, const char *hline_label)
{
    const int W = 900, H = 470, left = 110, right = 40, top = 40, bottom = 60;
    /* a constraint far beyond the points would squash them: named, not drawn */
    double mx = cs__max_finite(x, n, 0), my = cs__max_finite(y, n, 0);
    bool vfar = isfinite(vline) && vline > 3 * mx, hfar = isfinite(hline) && hline > 3 * my;
    double xmax = vfar ? mx : fmax(mx, isfinite(vline) ? vline : 0);
    double ymax = hfar ? my : fmax(my, isfinite(hline) ? hline : 0);
    xmax *= 1.08;
    ymax *= 1.08;
    double xs = cs__nice_step(xmax, 5), ys = cs__nice_step(ymax, 5);
    xmax = xmax > 0 ? ceil(xmax / xs) * xs : 1;
    ymax = ymax > 0 ? ceil(ymax / ys) * ys : 1;
    double pw = W - left - right, ph = H - top - bottom;
#define CS__X(v) (left + pw * (v) / xmax)
#define CS__Y(v) (top + ph * (1 - (v) / ymax))
    cs__axes(f, &(struct cs__frame){W, H, left, right, top, bottom, xmax, ymax, xs, ys}, title, xu, yu,
             xlabel, ylabel);
    if (vfar || hfar) {
        char note[200];
        snprintf(note, sizeof note, "beyond the axes: %s%s%s",
                 vfar && vline_label ? vline_label : "", vfar && hfar ? ", " : "",
                 hfar && hline_label ? hline_label : "");
        cs__text(f, W - right, H - 14, 11, "end", "#555", note); /* beside the x label */
    }
    if (isfinite(vline) && !vfar) {
        fprintf(f,
                "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#c03d3e\" "
                "stroke-dasharray=\"3,3\"/>\n",
                CS__X(vline), top, CS__X(vline), H - bottom);
        cs__text(f, CS__X(vline) - 4, top + 12, 11, "end", "#c03d3e",
                 vline_label ? vline_label : "");
    }
    if (isfinite(hline) && !hfar) {
        fprintf(f,
                "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#3a923a\" "
                "stroke-dasharray=\"3,3\"/>\n",
                left, CS__Y(hline), W - right, CS__Y(hline));
        cs__text(f, W - right - 4, CS__Y(hline) - 4, 11, "end", "#3a923a",
                 hline_label ? hline_label : "");
    }
    struct cs__pt *p = cs_xcalloc(n + 1, sizeof *p);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(x[i]) && isfinite(y[i]))
            p[k++] = (struct cs__pt){x[i], y[i], i};
    qsort(p, k, sizeof *p, cs__pt_cmp);
    fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"", cs__pal[0]);
    for (size_t i = 0; i < k; i++)
        fprintf(f, "%s%.1f,%.1f", i ? " " : "", CS__X(p[i].x), CS__Y(p[i].y));
    fputs("\"/>\n", f);
    for (size_t i = 0; i < k; i++) {
        bool hl = highlight && highlight[p[i].i];
        double px = CS__X(p[i].x), py = CS__Y(p[i].y);
        fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%d\" fill=\"%s\"/>\n", px, py, hl ? 6 : 4,
                hl ? cs__pal[3] : cs__pal[0]);
        if (labels && labels[p[i].i]) {
            bool right_half = px > left + pw * 0.6;
            cs__text(f, px + (right_half ? -8 : 8), py - 8 - 12.0 * (double)(i % 2), 11,
                     right_half ? "end" : "start", "#222", labels[p[i].i]);
        }
    }
    free(p);
#undef CS__X
#undef CS__Y
    cs__svg_close(f);
}

/* ---- page helpers ----------------------------------------------------- */

static void cs__w(FILE *f, const char *s) { cs_html_escape(f, s); }

/* s with its first letter upper-case, to start a sentence ("Colocation"). */
static void cs__w_cap(FILE *f, const char *s)
{
    if (s && *s >= 'a' && *s <= 'z') {
        fputc(*s - 'a' + 'A', f);
        s++;
    }
    cs_html_escape(f, s);
}

static const char *cs__str(const cJSON *root, const char *path)
{
    const cJSON *v = cs_html_json_at(root, path);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* A derived figure: (A - B), or (A - B) / B with ratio; the span names both
 * paths (data-json, data-minus, data-ratio) so a test can recompute it. */
static void cs__diff(FILE *f, const cJSON *root, const char *a, const char *b, bool ratio,
                     enum cs_html_unit u)
{
    double va = cs_html_json_num(root, a), vb = cs_html_json_num(root, b);
    double v = ratio ? (va - vb) / vb : va - vb;
    char txt[96];
    cs_html_unit_format(u, v, txt, sizeof txt);
    fputs("<span class=\"v\" data-json=\"", f);
    cs__w(f, a);
    fputs("\" data-minus=\"", f);
    cs__w(f, b);
    fprintf(f, "\"%s data-value=\"%.17g\" data-unit=\"%s\">", ratio ? " data-ratio=\"1\"" : "", v,
            u == CS_HU_USD       ? "usd"
            : u == CS_HU_PCT     ? "pct"
            : u == CS_HU_SECONDS ? "s"
                                 : "num");
    cs__w(f, txt);
    fputs("</span>", f);
}

static void cs__jv(FILE *f, const cJSON *root, const char *fmt_path, size_t i, const char *rest,
                   enum cs_html_unit u)
{
    char path[256];
    snprintf(path, sizeof path, fmt_path, i);
    if (rest)
        strncat(path, rest, sizeof path - strlen(path) - 1);
    cs_html_jvalue(f, root, path, u);
}

static void cs__kv_open(FILE *f) { fputs("<table class=\"kv\">\n<tbody>\n", f); }
static void cs__kv_close(FILE *f) { fputs("</tbody>\n</table>\n", f); }
static void cs__kv(FILE *f, const char *k, const char *v, bool num)
{
    fputs("<tr><td>", f);
    cs__w(f, k);
    fputs(num ? "</td><td class=\"n\">" : "</td><td>", f);
    cs__w(f, v ? v : "");
    fputs("</td></tr>\n", f);
}

/* A number written as text ("$11700000", "$184.06/kW-month", "125600")
 * with separators in its integer part ("$11,700,000"); its digits and
 * unit kept. Other text is returned as it is (dates, names, "0.7"). */
static const char *cs__text_separators(const char *s, char *buf, size_t n)
{
    const char *p = s;
    bool dollar = *p == '$';
    if (dollar)
        p++;
    size_t nd = strspn(p, "0123456789");
    const char *rest = p + nd;
    if (*rest == '.')
        rest += 1 + strspn(rest + 1, "0123456789");
    if (nd < (dollar ? 4u : 5u) || !(*rest == '\0' || *rest == '/' || *rest == ' ') ||
        strpbrk(rest, "0123456789") || n < 2)
        return s;
    size_t k = 0;
    if (dollar)
        buf[k++] = '$';
    for (size_t i = 0; i < nd && k + 2 < n; i++) {
        if (i > 0 && (nd - i) % 3 == 0)
            buf[k++] = ',';
        buf[k++] = p[i];
    }
    snprintf(buf + k, n - k, "%s", p + nd);
    return buf;
}

/* A scalar's text for tables: numbers by their key, booleans yes/no. */
static const char *cs__cell_text(const cJSON *v, const char *key, char *buf, size_t n)
{
    if (cJSON_IsString(v))
        return cs__text_separators(v->valuestring, buf, n);
    if (cJSON_IsNumber(v))
        return cs_fmt_auto(key, v->valuedouble, buf, n);
    if (cJSON_IsBool(v))
        return cJSON_IsTrue(v) ? "yes" : "no";
    if (cJSON_IsNull(v))
        return "none";
    if (cJSON_IsObject(v)) { /* {mean, p05, p95}: the mean */
        const cJSON *m = cJSON_GetObjectItemCaseSensitive(v, "mean");
        if (cJSON_IsNumber(m))
            return cs_fmt_auto(key, m->valuedouble, buf, n);
    }
    return "";
}

void cs_html_array_table(FILE *f, const cJSON *arr)
{
    if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) == 0)
        return;
    const char *cols[16];
    size_t nc = 0;
    const cJSON *o;
    cJSON_ArrayForEach(o, arr)
    {
        const cJSON *c;
        cJSON_ArrayForEach(c, o)
        {
            if (!c->string || cJSON_IsArray(c) ||
                (cJSON_IsObject(c) && !cJSON_GetObjectItemCaseSensitive(c, "mean")))
                continue;
            bool seen = false;
            for (size_t k = 0; k < nc && !seen; k++)
                seen = !strcmp(cols[k], c->string);
            if (!seen && nc < 16)
                cols[nc++] = c->string;
        }
    }
    if (!cJSON_IsObject(cJSON_GetArrayItem(arr, 0))) { /* strings: a list */
        fputs("<ul>\n", f);
        cJSON_ArrayForEach(o, arr)
        {
            char buf[96];
            fputs("<li>", f);
            cs__w(f, cs__cell_text(o, "", buf, sizeof buf));
            fputs("</li>\n", f);
        }
        fputs("</ul>\n", f);
        return;
    }
    fprintf(f, "<div class=\"wrap\"><table%s>\n<thead><tr>", nc > 8 ? " class=\"wide\"" : "");
    for (size_t k = 0; k < nc; k++) {
        fputs("<th>", f);
        char h[64];
        snprintf(h, sizeof h, "%s", cols[k]);
        size_t hl = strlen(h); /* the unit is in the cells: "queue_p95_s" -> "queue p95" */
        if (hl > 2 && !strcmp(h + hl - 2, "_s"))
            h[hl - 2] = '\0';
        else if (hl > 4 && !strcmp(h + hl - 4, "_usd"))
            h[hl - 4] = '\0';
        for (char *p = h; *p; p++)
            if (*p == '_')
                *p = ' ';
        cs__w(f, h);
        fputs("</th>", f);
    }
    fputs("</tr></thead>\n<tbody>\n", f);
    cJSON_ArrayForEach(o, arr)
    {
        fputs("<tr>", f);
        for (size_t k = 0; k < nc; k++) {
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, cols[k]);
            char buf[96];
            bool num = cJSON_IsNumber(v) || cJSON_IsObject(v);
            fputs(num ? "<td class=\"n\">" : "<td>", f);
            cs__w(f, cs__cell_text(v, cols[k], buf, sizeof buf));
            fputs("</td>", f);
        }
        fputs("</tr>\n", f);
    }
    fputs("</tbody>\n</table></div>\n", f);
}

/* Every scalar member of obj (not arrays or objects) as key-value rows. */
static void cs__kv_scalars(FILE *f, const cJSON *obj, const char *prefix)
{
    const cJSON *c;
    cJSON_ArrayForEach(c, obj)
    {
        if (!c->string || cJSON_IsArray(c) || cJSON_IsObject(c))
            continue;
        char buf[96];
        char *k = cs_xasprintf("%s%s", prefix ? prefix : "", c->string);
        cs__kv(f, k, cs__cell_text(c, c->string, buf, sizeof buf), cJSON_IsNumber(c));
        free(k);
    }
}

static void cs__appendix(FILE *f, const cJSON *doc, const char *key)
{
    fprintf(f,
            "<p class=\"note print-only\">Every figure of the JSON is in the HTML page and in "
            "<code>clustersim %s --format json</code>.</p>\n<section class=\"appendix\">\n",
            key);
    cs_html_heading(f, 2, "Every figure of the JSON");
    fputs("<p class=\"note\">The command's <code>--format json</code> document, one row per value "
          "(numbers formatted by their key; left out when printed).</p>\n",
          f);
    const cJSON *o = cJSON_GetObjectItemCaseSensitive(doc, key);
    cJSON *wrap = cJSON_CreateObject();
    cJSON_AddItemReferenceToObject(wrap, key, (cJSON *)o);
    cs_html_json_table(f, wrap);
    cJSON_Delete(wrap);
    fputs("</section>\n", f);
}

/* ---- tco -------------------------------------------------------------- */

struct cs__opt {
    size_t i;
    const char *name;
    double total;
};
static int cs__opt_cmp(const void *a, const void *b)
{
    const struct cs__opt *p = a, *q = b;
    if (isfinite(p->total) != isfinite(q->total))
        return isfinite(p->total) ? -1 : 1;
    return p->total < q->total ? -1 : p->total > q->total ? 1 : (p->i < q->i ? -1 : 1);
}

static bool cs__owned(const char *name)
{
    return name && (!strcmp(name, "on-prem") || !strcmp(name, "colocation"));
}

/* The break-even sentence of owned option `own`: at which utilization
 * each cloud option becomes cheaper (tco.break_even: owned_cheaper "above"
 * u*: the cloud option wins below it; "below": above it; "always" /
 * "never": at no / every utilization). */
static void cs__tco_owned_sentence(FILE *f, const cJSON *doc, const char *own, bool cap)
{
    const cJSON *be = cs_html_json_at(doc, "tco.break_even");
    size_t nb = (size_t)cJSON_GetArraySize(be);
    size_t *idx = cs_xcalloc(nb + 1, sizeof *idx);
    double *uu = cs_xcalloc(nb + 1, sizeof *uu);
    size_t k = 0;
    const char *never[8], *always[8];
    size_t nn = 0, na = 0;
    for (size_t i = 0; i < nb; i++) {
        const cJSON *e = cJSON_GetArrayItem(be, (int)i);
        const cJSON *o = cJSON_GetObjectItemCaseSensitive(e, "owned");
        const cJSON *c = cJSON_GetObjectItemCaseSensitive(e, "cloud");
        const cJSON *u = cJSON_GetObjectItemCaseSensitive(e, "utilization");
        const char *oc = cs__str(e, "owned_cheaper");
        if (!cJSON_IsString(o) || strcmp(o->valuestring, own) || !cJSON_IsString(c) || !oc)
            continue;
        if (cJSON_IsNumber(u)) {
            idx[k] = i;
            uu[k++] = u->valuedouble;
        } else if (!strcmp(oc, "never") && nn < 8) {
            never[nn++] = c->valuestring;
        } else if (!strcmp(oc, "always") && na < 8) {
            always[na++] = c->valuestring;
        }
    }
    /* highest break-even first: the first cloud option to win as utilization falls */
    for (size_t a = 0; a < k; a++)
        for (size_t b = a + 1; b < k; b++)
            if (uu[b] > uu[a]) {
                size_t t = idx[a];
                double x = uu[a];
                idx[a] = idx[b], uu[a] = uu[b];
                idx[b] = t, uu[b] = x;
            }
    fputs(" ", f);
    if (cap)
        cs__w_cap(f, own);
    else
        cs__w(f, own);
    if (k == 0 && nn == 0) {
        fputs(" is cheaper than every priced cloud option at any utilization (no break-even).", f);
    } else {
        if (k > 0) {
            fputs(" stops being cheaper than ", f);
            for (size_t a = 0; a < k; a++) {
                const cJSON *e = cJSON_GetArrayItem(be, (int)idx[a]);
                if (a)
                    fputs(a + 1 == k ? " and than " : ", than ", f);
                cs__w(f, cs__str(e, "cloud"));
                fputs(!strcmp(cs__str(e, "owned_cheaper"), "above") ? " below " : " above ", f);
                cs__jv(f, doc, "tco.break_even[%zu]", idx[a], ".utilization", CS_HU_PCT);
            }
            fputs(" utilization (break-even)", f);
        }
        if (nn > 0) {
            fputs(k > 0 ? "; " : " ", f);
            for (size_t a = 0; a < nn; a++) {
                if (a)
                    fputs(", ", f);
                cs__w(f, never[a]);
            }
            fputs(nn > 1 ? " are cheaper at any utilization" : " is cheaper at any utilization", f);
        }
        if (na > 0) {
            fputs("; it is cheaper than ", f);
            for (size_t a = 0; a < na; a++) {
                if (a)
                    fputs(a + 1 == na ? " and " : ", ", f);
                cs__w(f, always[a]);
            }
            fputs(" at any utilization", f);
        }
        fputs(".", f);
    }
    free(idx);
    free(uu);
}

static void cs__tco_summary(FILE *f, const cJSON *doc, const struct cs__opt *o, size_t n)
{
    fputs("<p class=\"summary\" id=\"summary\">", f);
    if (n == 0 || !isfinite(o[0].total)) {
        fputs("No option could be priced.</p>\n", f);
        return;
    }
    fputs("Over ", f);
    cs_html_jvalue(f, doc, "tco.years", CS_HU_COUNT);
    fputs(" years at ", f);
    cs_html_jvalue(f, doc, "tco.utilization", CS_HU_PCT);
    fputs(" utilization of its ", f);
    cs_html_jvalue(f, doc, "tco.gpus", CS_HU_COUNT);
    fputs(" GPUs, <b>", f);
    cs__w(f, o[0].name);
    fprintf(f, "</b> is the cheapest of the %zu priced options: ", n);
    cs__jv(f, doc, "tco.options[%zu]", o[0].i, ".total_usd", CS_HU_USD);
    fputs(" in total, ", f);
    cs__jv(f, doc, "tco.options[%zu]", o[0].i, ".usd_per_utilized_gpu_hour", CS_HU_USD);
    fputs(" per utilized GPU-hour", f);
    char p[96];
    snprintf(p, sizeof p, "tco.options[%zu].usd_per_run", o[0].i);
    if (isfinite(cs_html_json_num(doc, p))) {
        fputs(" and ", f);
        cs_html_jvalue(f, doc, p, CS_HU_USD);
        fputs(" per training run", f);
    }
    fputs(".", f);
    /* options within a dollar of it (the hybrid that owns every GPU) cost the same */
    size_t nx = 1;
    while (nx < n && isfinite(o[nx].total) && o[nx].total - o[0].total < 0.5)
        nx++;
    if (nx > 1) {
        fputs(" ", f);
        for (size_t k = 1; k < nx; k++) {
            if (k > 1)
                fputs(k + 1 == nx ? " and " : ", ", f);
            if (k == 1)
                cs__w_cap(f, o[k].name);
            else
                cs__w(f, o[k].name);
        }
        fputs(nx > 2 ? " cost the same." : " costs the same.", f);
    }
    if (nx < n && isfinite(o[nx].total)) {
        char a[96], b[96];
        snprintf(a, sizeof a, "tco.options[%zu].total_usd", o[nx].i);
        snprintf(b, sizeof b, "tco.options[%zu].total_usd", o[0].i);
        fputs(" The next cheapest, ", f);
        cs__w(f, o[nx].name);
        fputs(", costs ", f);
        cs_html_jvalue(f, doc, a, CS_HU_USD);
        fputs(": ", f);
        cs__diff(f, doc, a, b, false, CS_HU_USD);
        fputs(" (", f);
        cs__diff(f, doc, a, b, true, CS_HU_PCT);
        fputs(") more.", f);
    }
    if (cs__owned(o[0].name)) {
        cs__tco_owned_sentence(f, doc, o[0].name, true);
    } else if (!strcmp(o[0].name, "hybrid")) {
        fputs(" The hybrid owns a baseline of ", f);
        cs__jv(f, doc, "tco.options[%zu]", o[0].i, ".baseline_gpus", CS_HU_COUNT);
        fputs(" GPUs busy all the time and rents the rest; without a demand profile "
              "(cost.hybrid.demand) it assumes a flat demand, and its saving is only as real as "
              "that assumption.",
              f);
        for (size_t k = 1; k < n; k++)
            if (cs__owned(o[k].name) && isfinite(o[k].total)) {
                fputs(" Of the owned options,", f);
                cs__tco_owned_sentence(f, doc, o[k].name, false);
                break;
            }
    } else { /* a cloud option: owned options win above their break-even */
        const cJSON *be = cs_html_json_at(doc, "tco.break_even");
        size_t best = (size_t)-1;
        double bu = INFINITY;
        for (int i = 0; i < cJSON_GetArraySize(be); i++) {
            const cJSON *e = cJSON_GetArrayItem(be, i);
            const cJSON *c = cJSON_GetObjectItemCaseSensitive(e, "cloud");
            const cJSON *u = cJSON_GetObjectItemCaseSensitive(e, "utilization");
            if (cJSON_IsString(c) && !strcmp(c->valuestring, o[0].name) && cJSON_IsNumber(u) &&
                u->valuedouble < bu) {
                bu = u->valuedouble;
                best = (size_t)i;
            }
        }
        if (best != (size_t)-1) {
            fputs(" It stops being cheaper than ", f);
            cs__w(f, cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(be, (int)best), "owned")
                         ->valuestring);
            fputs(" above ", f);
            cs__jv(f, doc, "tco.break_even[%zu]", best, ".utilization", CS_HU_PCT);
            fputs(" utilization (break-even).", f);
        } else {
            fputs(" No owned option becomes cheaper at any utilization.", f);
        }
    }
    if (cs__str(doc, "tco.offer.name")) {
        fputs(" Cloud on-demand prices are those of the catalog offer ", f);
        cs__w(f, cs__str(doc, "tco.offer.name"));
        if (cJSON_IsNumber(cs_html_json_at(doc, "tco.offer.offers_fitting")) &&
            cJSON_IsNumber(cs_html_json_at(doc, "tco.offer.offers_total"))) {
            fputs(" (", f);
            cs_html_jvalue(f, doc, "tco.offer.offers_fitting", CS_HU_COUNT);
            fputs(" of the ", f);
            cs_html_jvalue(f, doc, "tco.offer.offers_total", CS_HU_COUNT);
            fputs(" offers for the GPU fit the cluster)", f);
        }
        fputs(".", f);
    }
    const cJSON *as = cs_html_json_at(doc, "tco.assumptions");
    if (cJSON_IsArray(as) && cJSON_GetArraySize(as) > 0) {
        int nd = 0;
        const cJSON *x;
        cJSON_ArrayForEach(x, as) nd += cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(x, "defaulted"));
        fprintf(f, " %d of the %d inputs listed under Assumptions and defaults are not set by the "
                   "scenario (catalog values and defaults, with their sources).",
                nd, cJSON_GetArraySize(as));
    }
    fputs("</p>\n", f);
}

static void cs__tco_tables(FILE *f, const cJSON *doc, const struct cs__opt *o, size_t n)
{
    cs_html_heading(f, 2, "Options");
    fputs(
        "<div class=\"wrap\"><table>\n<thead><tr><th>option</th><th>total</th><th>more than the "
        "cheapest</th><th>per GPU-hour</th><th>per utilized GPU-hour</th><th>per training run</th>"
        "<th>paid up front</th></tr></thead>\n<tbody>\n",
        f);
    const cJSON *opts = cs_html_json_at(doc, "tco.options");
    for (size_t k = 0; k < n; k++) {
        const cJSON *x = cJSON_GetArrayItem(opts, (int)o[k].i);
        char b[96];
        fputs(k == 0 ? "<tr><td><b>" : "<tr><td>", f);
        cs__w(f, o[k].name);
        fputs(k == 0 ? "</b>" : "", f);
        const cJSON *of = cJSON_GetObjectItemCaseSensitive(x, "offer");
        if (cJSON_IsString(of)) { /* the cloud offer it is priced from */
            fputs("<br><span class=\"note\">", f);
            cs__w(f, of->valuestring);
            fputs("</span>", f);
        }
        fputs("</td>", f);
        static const char *const cols[] = {"total_usd",        NULL,
                                           "usd_per_gpu_hour", "usd_per_utilized_gpu_hour",
                                           "usd_per_run",      "upfront_usd"};
        for (size_t c = 0; c < sizeof cols / sizeof cols[0]; c++) {
            fputs("<td class=\"n\">", f);
            if (!cols[c]) {
                if (k == 0 || !isfinite(o[k].total) || !isfinite(o[0].total))
                    cs__w(f, k == 0 ? "cheapest" : "");
                else {
                    char d[64], q[64];
                    cs_fmt_usd(o[k].total - o[0].total, d, sizeof d);
                    cs_fmt_pct((o[k].total - o[0].total) / o[0].total, 1, q, sizeof q);
                    fprintf(f, "+%s (+%s)", d, q);
                }
            } else {
                const cJSON *v = cJSON_GetObjectItemCaseSensitive(x, cols[c]);
                cs__w(f, cJSON_IsNumber(v) ? cs_fmt_usd(v->valuedouble, b, sizeof b) : "n/a");
            }
            fputs("</td>", f);
        }
        fputs("</tr>\n", f);
    }
    fputs("</tbody>\n</table></div>\n", f);

    /* cost categories */
    const cJSON *b0 =
        cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(opts, 0), "breakdown_usd");
    const char *cats[12];
    size_t nc = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, b0) if (cJSON_IsNumber(c) && nc < 12) cats[nc++] = c->string;
    cs_html_heading(f, 3, "Cost by category");
    fputs("<div class=\"wrap\"><table>\n<thead><tr><th>option</th>", f);
    for (size_t k = 0; k < nc; k++) {
        fputs("<th>", f);
        cs__w(f, cats[k]);
        fputs("</th>", f);
    }
    fputs("<th>total</th></tr></thead>\n<tbody>\n", f);
    for (size_t k = 0; k < n; k++) {
        const cJSON *x = cJSON_GetArrayItem(opts, (int)o[k].i);
        const cJSON *bd = cJSON_GetObjectItemCaseSensitive(x, "breakdown_usd");
        char b[96];
        fputs("<tr><td>", f);
        cs__w(f, o[k].name);
        fputs("</td>", f);
        for (size_t j = 0; j < nc; j++) {
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(bd, cats[j]);
            fputs("<td class=\"n\">", f);
            cs__w(f, cJSON_IsNumber(v) ? cs_fmt_usd(v->valuedouble, b, sizeof b) : "n/a");
            fputs("</td>", f);
        }
        fprintf(f, "<td class=\"n\">%s</td></tr>\n", cs_fmt_usd(o[k].total, b, sizeof b));
    }
    fputs("</tbody>\n</table></div>\n", f);
}

/* tco.offer (the offer each cloud price came from, and why) and
 * tco.offers[] (every catalog offer of the GPU), when the JSON has them. */
static void cs__tco_offers(FILE *f, const cJSON *doc)
{
    const cJSON *offer = cs_html_json_at(doc, "tco.offer");
    char b[96];
    if (cJSON_IsObject(offer)) {
        cs_html_heading(f, 3, "Cloud offer used");
        cs__kv_open(f);
        cs__kv_scalars(f, offer, NULL);
        cs__kv_close(f);
        const cJSON *pr = cJSON_GetObjectItemCaseSensitive(offer, "prices");
        if (cJSON_IsObject(pr)) {
            fputs("<div class=\"wrap\"><table>\n<thead><tr><th>price</th><th>per GPU-hour</th>"
                  "<th>offer</th><th>rule</th><th>why</th></tr></thead>\n<tbody>\n",
                  f);
            const cJSON *p;
            cJSON_ArrayForEach(p, pr)
            {
                fputs("<tr><td>", f);
                cs__w(f, p->string);
                fprintf(f, "</td><td class=\"n\">%s</td><td>",
                        cs_fmt_usd(cs_html_json_num(p, "usd_per_gpu_hour"), b, sizeof b));
                cs__w(f, cs__str(p, "offer") ? cs__str(p, "offer") : "");
                fputs("</td><td>", f);
                cs__w(f, cs__str(p, "rule") ? cs__str(p, "rule") : "");
                fputs("</td><td>", f);
                cs__w(f, cs__str(p, "reason") ? cs__str(p, "reason") : "");
                fputs("</td></tr>\n", f);
            }
            fputs("</tbody>\n</table></div>\n", f);
        }
    }
    const cJSON *offers = cs_html_json_at(doc, "tco.offers");
    if (!cJSON_IsArray(offers) || cJSON_GetArraySize(offers) == 0)
        return;
    cs_html_heading(f, 3, "Every catalog offer for this GPU");
    if (!cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(offers, 0), "on_demand_usd_per_gpu_hour")) {
        cs_html_array_table(f, offers); /* another shape: every scalar */
        return;
    }
    fputs("<div class=\"wrap\"><table>\n<thead><tr><th>offer</th><th>per GPU-hour</th>"
          "<th>scale-out per instance</th><th>fits the cluster</th><th>used for</th>"
          "<th>source</th></tr></thead>\n<tbody>\n",
          f);
    const cJSON *o;
    cJSON_ArrayForEach(o, offers)
    {
        fputs("<tr><td>", f);
        cs__w(f, cs__str(o, "name") ? cs__str(o, "name") : "?");
        static const char *const place[] = {"provider", "instance", "region"};
        fputs("<br><span class=\"note\">", f);
        bool sep = false;
        for (int k = 0; k < 3; k++)
            if (cs__str(o, place[k]) && *cs__str(o, place[k])) {
                fputs(sep ? " " : "", f);
                cs__w(f, cs__str(o, place[k]));
                sep = true;
            }
        double gpi = cs_html_json_num(o, "gpus_per_instance");
        if (isfinite(gpi))
            fprintf(f, "%s%s GPU%s", sep ? ", " : "", cs_fmt_count(gpi, b, sizeof b),
                    gpi == 1 ? "" : "s");
        fputs("</span></td><td class=\"n\">", f);
        static const char *const pk[][2] = {{"on_demand_usd_per_gpu_hour", "on-demand"},
                                            {"reserved_1y_usd_per_gpu_hour", "1 y"},
                                            {"reserved_3y_usd_per_gpu_hour", "3 y"},
                                            {"spot_usd_per_gpu_hour", "spot"}};
        bool any = false;
        for (int k = 0; k < 4; k++) {
            double v = cs_html_json_num(o, pk[k][0]);
            if (!isfinite(v))
                continue;
            fprintf(f, "%s%s %s", any ? "<br>" : "", pk[k][1], cs_fmt_usd(v, b, sizeof b));
            any = true;
        }
        double bw = cs_html_json_num(o, "scaleout_bw_bytes_per_s");
        fprintf(f, "</td><td class=\"n\">%s</td><td>",
                isfinite(bw) ? cs_fmt_si(bw * 8, "b/s", b, sizeof b) : "n/a");
        bool fits = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "fits"));
        fputs(fits ? "yes" : "no", f);
        if (!fits && cs__str(o, "why_not")) {
            fputs(": ", f);
            cs__w(f, cs__str(o, "why_not"));
        }
        fputs("</td><td>", f);
        const cJSON *u;
        bool first = true;
        cJSON_ArrayForEach(u, cJSON_GetObjectItemCaseSensitive(o, "used_for"))
        {
            if (!cJSON_IsString(u))
                continue;
            fputs(first ? "" : ", ", f);
            cs__w(f, u->valuestring);
            first = false;
        }
        fputs("</td><td><span class=\"note\">", f);
        cs__w(f, cs__str(o, "source") ? cs__str(o, "source") : "");
        if (cs__str(o, "date")) {
            fputs(" (", f);
            cs__w(f, cs__str(o, "date"));
            fputs(")", f);
        }
        fputs("</span></td></tr>\n", f);
    }
    fputs("</tbody>\n</table></div>\n", f);
}

static void cs__tco_figures(FILE *f, const cJSON *doc)
{
    const cJSON *opts = cs_html_json_at(doc, "tco.options");
    size_t n = (size_t)cJSON_GetArraySize(opts);
    cs_html_heading(f, 2, "Figures");
    /* 1: cost breakdown */
    const cJSON *b0 =
        cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(opts, 0), "breakdown_usd");
    const char *cats[12];
    size_t nc = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, b0) if (cJSON_IsNumber(c) && nc < 12) cats[nc++] = c->string;
    const char **labels = cs_xcalloc(n + 1, sizeof *labels);
    double *v = cs_xcalloc(n * nc + 1, sizeof *v);
    for (size_t i = 0; i < n; i++) {
        const cJSON *x = cJSON_GetArrayItem(opts, (int)i);
        labels[i] = cJSON_GetObjectItemCaseSensitive(x, "name")->valuestring;
        const cJSON *bd = cJSON_GetObjectItemCaseSensitive(x, "breakdown_usd");
        for (size_t j = 0; j < nc; j++) {
            const cJSON *y = cJSON_GetObjectItemCaseSensitive(bd, cats[j]);
            v[i * nc + j] = cJSON_IsNumber(y) ? y->valuedouble : NAN;
        }
    }
    cs_html_svg_stacked(f, "Total cost of ownership by category", n, labels, nc, cats, v,
                        CS_HU_USD);
    free(v);

    /* 2: total against utilization: every total is linear in the
     * utilization (docs/cost.md), so the sensitivity row of the utilization
     * (the totals at its low and high value) gives each line exactly. */
    const cJSON *rows = cs_html_json_at(doc, "tco.sensitivity.rows"), *ur = NULL;
    cJSON_ArrayForEach(c, rows)
    {
        const cJSON *in = cJSON_GetObjectItemCaseSensitive(c, "input");
        if (cJSON_IsString(in) && !strcmp(in->valuestring, "utilization"))
            ur = c;
    }
    double u0 = cs_html_json_num(doc, "tco.utilization");
    if (ur) {
        double ul = cJSON_GetObjectItemCaseSensitive(ur, "low")->valuedouble;
        double uh = cJSON_GetObjectItemCaseSensitive(ur, "high")->valuedouble;
        const cJSON *lt = cJSON_GetObjectItemCaseSensitive(ur, "low_total_usd");
        const cJSON *ht = cJSON_GetObjectItemCaseSensitive(ur, "high_total_usd");
        struct cs_html_series *s = cs_xcalloc(n + 1, sizeof *s);
        double(*xy)[2][2] = cs_xcalloc(n + 1, sizeof *xy);
        double *slope = cs_xcalloc(n + 1, sizeof *slope), *icpt = cs_xcalloc(n + 1, sizeof *icpt);
        const char **names = cs_xcalloc(n + 1, sizeof *names);
        size_t ns = 0;
        for (size_t i = 0; i < n; i++) {
            const char *nm = labels[i];
            const cJSON *a = cJSON_GetObjectItemCaseSensitive(lt, nm);
            const cJSON *b = cJSON_GetObjectItemCaseSensitive(ht, nm);
            if (!strcmp(nm, "hybrid") || !cJSON_IsNumber(a) || !cJSON_IsNumber(b) || !(uh > ul))
                continue;
            double k = (b->valuedouble - a->valuedouble) / (uh - ul);
            slope[ns] = k;
            icpt[ns] = a->valuedouble - k * ul;
            names[ns] = nm;
            xy[ns][0][0] = 0.01;
            xy[ns][0][1] = 1.0;
            xy[ns][1][0] = icpt[ns] + k * 0.01;
            xy[ns][1][1] = icpt[ns] + k;
            s[ns] = (struct cs_html_series){nm, !cs__owned(nm), 2, xy[ns][0], xy[ns][1]};
            ns++;
        }
        const cJSON *be = cs_html_json_at(doc, "tco.break_even");
        size_t nb = (size_t)cJSON_GetArraySize(be);
        struct cs_html_mark *mk = cs_xcalloc(nb + 1, sizeof *mk);
        char(*ml)[96] = cs_xcalloc(nb + 1, sizeof *ml);
        size_t nm = 0;
        cJSON_ArrayForEach(c, be)
        {
            const cJSON *uo = cJSON_GetObjectItemCaseSensitive(c, "utilization");
            const char *ow = cJSON_GetObjectItemCaseSensitive(c, "owned")->valuestring;
            const char *cl = cJSON_GetObjectItemCaseSensitive(c, "cloud")->valuestring;
            if (!cJSON_IsNumber(uo))
                continue;
            for (size_t i = 0; i < ns; i++)
                if (!strcmp(names[i], ow)) {
                    char pc[32];
                    snprintf(ml[nm], sizeof ml[nm], "%s = %s at %s", ow, cl,
                             cs_fmt_pct(uo->valuedouble, 1, pc, sizeof pc));
                    mk[nm] = (struct cs_html_mark){uo->valuedouble,
                                                   icpt[i] + slope[i] * uo->valuedouble, ml[nm]};
                    nm++;
                }
        }
        char vl[64], pc[32];
        snprintf(vl, sizeof vl, "scenario: %s", cs_fmt_pct(u0, 0, pc, sizeof pc));
        cs_html_svg_lines(f,
                          "Total cost against utilization (owned solid, cloud dashed; "
                          "crossovers = break-even)",
                          "utilization", CS_HU_PCT, "total cost over the years (US$)", CS_HU_USD,
                          ns, s, nm, mk, u0, vl);
        free(mk);
        free(ml);
        free(s);
        free(xy);
        free(slope);
        free(icpt);
        free(names);
    } else {
        cs_html_para(f, "No utilization row in the sensitivity table: no cost-against-utilization "
                        "figure.");
    }

    /* 3: tornado of the cheapest option's total */
    const char *topt = NULL;
    double best = INFINITY;
    size_t ti = 0;
    for (size_t i = 0; i < n; i++) {
        double t = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(opts, (int)i), "total_usd")
                       ->valuedouble;
        if (isfinite(t) && t < best) {
            best = t;
            topt = labels[i];
            ti = i;
        }
    }
    size_t nr = (size_t)cJSON_GetArraySize(rows);
    if (topt && nr > 0) {
        const char **tl = cs_xcalloc(nr + 1, sizeof *tl);
        double *lo = cs_xcalloc(nr + 1, sizeof *lo), *hi = cs_xcalloc(nr + 1, sizeof *hi);
        size_t k = 0;
        cJSON_ArrayForEach(c, rows)
        {
            const cJSON *a = cJSON_GetObjectItemCaseSensitive(
                cJSON_GetObjectItemCaseSensitive(c, "low_total_usd"), topt);
            const cJSON *b = cJSON_GetObjectItemCaseSensitive(
                cJSON_GetObjectItemCaseSensitive(c, "high_total_usd"), topt);
            if (!cJSON_IsNumber(a) || !cJSON_IsNumber(b) ||
                fabs(a->valuedouble - b->valuedouble) < 0.5)
                continue;
            tl[k] = cJSON_GetObjectItemCaseSensitive(c, "input")->valuestring;
            lo[k] = a->valuedouble;
            hi[k] = b->valuedouble;
            k++;
        }
        /* largest swing first */
        for (size_t a = 0; a < k; a++)
            for (size_t b = a + 1; b < k; b++)
                if (fabs(hi[b] - lo[b]) > fabs(hi[a] - lo[a])) {
                    const char *t = tl[a];
                    double x = lo[a], y = hi[a];
                    tl[a] = tl[b], lo[a] = lo[b], hi[a] = hi[b];
                    tl[b] = t, lo[b] = x, hi[b] = y;
                }
        if (k > 12)
            k = 12;
        char title[160], pc[32];
        snprintf(title, sizeof title, "Sensitivity of the %s total: each input at -/+%s", topt,
                 cs_fmt_pct(cs_html_json_num(doc, "tco.sensitivity.step"), 0, pc, sizeof pc));
        if (k > 0)
            cs_html_svg_tornado(
                f, title, k, tl, lo, hi,
                cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(opts, (int)ti), "total_usd")
                    ->valuedouble,
                CS_HU_USD);
        free(tl);
        free(lo);
        free(hi);
    }
    /* 4: the Monte Carlo tornado, with --uncertainty */
    const cJSON *ut = cs_html_json_at(doc, "uncertainty.tornado");
    size_t nu = (size_t)cJSON_GetArraySize(ut);
    const char *uo = cs__str(doc, "uncertainty.tornado_option");
    if (nu > 0 && uo) {
        const char **tl = cs_xcalloc(nu + 1, sizeof *tl);
        double *lo = cs_xcalloc(nu + 1, sizeof *lo), *hi = cs_xcalloc(nu + 1, sizeof *hi);
        size_t k = 0;
        cJSON_ArrayForEach(c, ut)
        {
            if (k >= 12)
                break;
            tl[k] = cJSON_GetObjectItemCaseSensitive(c, "input")->valuestring;
            lo[k] = cJSON_GetObjectItemCaseSensitive(c, "low")->valuedouble;
            hi[k] = cJSON_GetObjectItemCaseSensitive(c, "high")->valuedouble;
            k++;
        }
        double base = NAN;
        for (size_t i = 0; i < n; i++)
            if (!strcmp(labels[i], uo))
                base =
                    cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(opts, (int)i), "total_usd")
                        ->valuedouble;
        char title[160];
        snprintf(title, sizeof title, "Uncertainty tornado of the %s total (--uncertainty ranges)",
                 uo);
        cs_html_svg_tornado(f, title, k, tl, lo, hi, base, CS_HU_USD);
        free(tl);
        free(lo);
        free(hi);
    }
    free(labels);
}

/* The cost model's inputs (models/cost.c input_names) with their units
 * as docs/cost.md defines them, for the assumptions table. */
static const struct {
    const char *input, *what;
    enum cs_html_unit u;
    const char *suffix;
} cs__cin_units[] = {
    {"gpu_price", "all-in server price per GPU", CS_HU_USD, ""},
    {"network_cost_fraction", "network's share of the hardware (unpriced items)", CS_HU_PCT, ""},
    {"electricity", "electricity", CS_HU_NUM, " $/kWh"},
    {"pue", "power usage effectiveness", CS_HU_NUM, ""},
    {"colocation", "colocation", CS_HU_USD, " per kW-month"},
    {"construction_per_mw", "data-centre build-out", CS_HU_USD, " per MW"},
    {"support_per_year", "support, of the hardware per year", CS_HU_PCT, ""},
    {"staff_per_year", "staff", CS_HU_USD, " per year"},
    {"cost_of_capital", "cost of capital", CS_HU_PCT, ""},
    {"depreciation_years", "depreciation", CS_HU_NUM, " years"},
    {"server_power_multiplier", "server power over GPU TDP", CS_HU_NUM, " x"},
    {"server_power_utilization", "busy power draw, of nameplate", CS_HU_PCT, ""},
    {"idle_power_fraction", "idle power draw, of nameplate", CS_HU_PCT, ""},
    {"liquid_cooling_per_kw", "liquid cooling", CS_HU_USD, " per kW"},
    {"facility_life_years", "facility life", CS_HU_NUM, " years"},
    {"on_demand", "cloud on-demand", CS_HU_USD, " per GPU-hour"},
    {"reserved_1y", "cloud reserved 1 year", CS_HU_USD, " per GPU-hour"},
    {"reserved_3y", "cloud reserved 3 years", CS_HU_USD, " per GPU-hour"},
    {"spot", "cloud spot", CS_HU_USD, " per GPU-hour"},
};

static void cs__tco_assumptions(FILE *f, const cJSON *doc)
{
    cs_html_heading(f, 2, "Assumptions and defaults");
    const cJSON *as = cs_html_json_at(doc, "tco.assumptions");
    if (cJSON_IsArray(as) && cJSON_GetArraySize(as) > 0) {
        fputs("<p>Every input of the cost model, where it came from and whether it is a default "
              "(<code>tco.assumptions</code>):</p>\n",
              f);
        cs_html_array_table(f, as);
    }
    fputs("<p>The inputs the totals were computed with (the base values of the sensitivity "
          "table, with their units), and how the hardware was counted. Prices come from the hardware catalog "
          "(scenarios/catalog) unless the scenario's <code>cost:</code> section gives them; "
          "equations and the sources of the defaults: docs/cost.md.</p>\n",
          f);
    cs__kv_open(f);
    char b[96];
    cs__kv(f, "years", cs_fmt_count(cs_html_json_num(doc, "tco.years"), b, sizeof b), true);
    cs__kv(f, "GPUs", cs_fmt_count(cs_html_json_num(doc, "tco.gpus"), b, sizeof b), true);
    cs__kv(f, "utilization", cs_fmt_pct(cs_html_json_num(doc, "tco.utilization"), 1, b, sizeof b),
           true);
    cs__kv(f, "sensitivity step",
           cs_fmt_pct(cs_html_json_num(doc, "tco.sensitivity.step"), 0, b, sizeof b), true);
    const cJSON *c;
    cJSON_ArrayForEach(c, cs_html_json_at(doc, "tco.sensitivity.rows"))
    {
        const cJSON *in = cJSON_GetObjectItemCaseSensitive(c, "input");
        const cJSON *bv = cJSON_GetObjectItemCaseSensitive(c, "base");
        if (!cJSON_IsString(in) || !strcmp(in->valuestring, "utilization"))
            continue;
        size_t k = 0;
        while (k < sizeof cs__cin_units / sizeof cs__cin_units[0] &&
               strcmp(cs__cin_units[k].input, in->valuestring))
            k++;
        if (k == sizeof cs__cin_units / sizeof cs__cin_units[0] || !cJSON_IsNumber(bv)) {
            cs__kv(f, in->valuestring, cs__cell_text(bv, in->valuestring, b, sizeof b), true);
            continue;
        }
        char key[160], val[128];
        snprintf(key, sizeof key, "%s (%s)", cs__cin_units[k].what, in->valuestring);
        cs_html_unit_format(cs__cin_units[k].u, bv->valuedouble, b, sizeof b);
        snprintf(val, sizeof val, "%s%s", b, cs__cin_units[k].suffix);
        cs__kv(f, key, val, true);
    }
    cs__kv_scalars(f, cs_html_json_at(doc, "tco.bom"), "bill of materials: ");
    cs__kv_close(f);
}

/* A page's head: "clustersim COMMAND: NAME" as title and heading, then
 * the command, inputs, version and date. */
static void cs__page_open(FILE *f, const char *command, const char *name, const struct cs_html_meta *m)
{
    char *title = cs_xasprintf("clustersim %s: %s", command, name);
    cs_html_begin(f, title);
    cs_html_heading(f, 1, title);
    free(title);
    cs_html_meta(f, m);
}

void cs_html_page_tco(FILE *f, const cJSON *doc, const struct cs_html_meta *m)
{
    const char *name = cs__str(doc, "scenario");
    cs__page_open(f, "tco", name ? name : "?", m);
    const cJSON *opts = cs_html_json_at(doc, "tco.options");
    size_t n = (size_t)cJSON_GetArraySize(opts);
    struct cs__opt *o = cs_xcalloc(n + 1, sizeof *o);
    for (size_t i = 0; i < n; i++) {
        const cJSON *x = cJSON_GetArrayItem(opts, (int)i);
        const cJSON *nm = cJSON_GetObjectItemCaseSensitive(x, "name");
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(x, "total_usd");
        o[i] = (struct cs__opt){i, cJSON_IsString(nm) ? nm->valuestring : "?",
                                cJSON_IsNumber(t) ? t->valuedouble : NAN};
    }
    qsort(o, n, sizeof *o, cs__opt_cmp);
    cs_html_heading(f, 2, "Summary");
    cs__tco_summary(f, doc, o, n);
    if (n > 0) {
        cs__tco_tables(f, doc, o, n);
        cs__tco_offers(f, doc);
        cs_html_heading(f, 3, "Break-even utilization (owned against cloud)");
        cs_html_array_table(f, cs_html_json_at(doc, "tco.break_even"));
        cs__tco_figures(f, doc);
    }
    free(o);
    const cJSON *run = cs_html_json_at(doc, "tco.run");
    if (cJSON_IsObject(run)) {
        cs_html_heading(f, 2, "Training run");
        cs__kv_open(f);
        cs__kv_scalars(f, run, NULL);
        cs__kv_close(f);
    }
    cs__tco_assumptions(f, doc);
    cs__appendix(f, doc, "tco");
    cs_html_end(f);
}

/* ---- plan ------------------------------------------------------------- */

/* "32 x A100-SXM4-80GB (4 nodes, fat-tree ib-ndr 1:1) on cloud-on-demand
 * (azure-nd96amsr-a100-v4)" */
static void cs__plan_name(FILE *f, const cJSON *pl)
{
    char b[64];
    cs__w(f, cs_fmt_count(cs_html_json_num(pl, "gpus"), b, sizeof b));
    fputs(" x ", f);
    cs__w(f, cs__str(pl, "gpu") ? cs__str(pl, "gpu") : "?");
    fputs(" (", f);
    cs__w(f, cs_fmt_count(cs_html_json_num(pl, "nodes"), b, sizeof b));
    fputs(" nodes, ", f);
    cs__w(f, cs__str(pl, "fabric") ? cs__str(pl, "fabric") : "?");
    fputs(") on ", f);
    cs__w(f, cs__str(pl, "ownership") ? cs__str(pl, "ownership") : "?");
    if (cs__str(pl, "offer")) {
        fputs(" (", f);
        cs__w(f, cs__str(pl, "offer"));
        fputs(")", f);
    }
}

static bool cs__same_plan(const cJSON *a, const cJSON *b)
{
    static const char *const k[] = {"gpu", "fabric", "ownership", "offer"};
    if (!cJSON_IsObject(a) || !cJSON_IsObject(b))
        return false;
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        const char *x = cs__str(a, k[i]), *y = cs__str(b, k[i]);
        if ((x == NULL) != (y == NULL) || (x && strcmp(x, y)))
            return false;
    }
    return cs_html_json_num(a, "gpus") == cs_html_json_num(b, "gpus") &&
           cs_html_json_num(a, "time_to_train_s.mean") ==
               cs_html_json_num(b, "time_to_train_s.mean");
}

static void cs__plan_summary(FILE *f, const cJSON *doc)
{
    const cJSON *ch = cs_html_json_at(doc, "plan.cheapest"),
                *fa = cs_html_json_at(doc, "plan.fastest");
    const cJSON *front = cs_html_json_at(doc, "plan.front");
    fputs("<p class=\"summary\" id=\"summary\">The plan <b>", f);
    cs__w(f, cs__str(doc, "plan.name") ? cs__str(doc, "plan.name") : "?");
    fputs("</b> asks for a run within ", f);
    cs_html_jvalue(f, doc, "plan.deadline_s", CS_HU_SECONDS);
    if (isfinite(cs_html_json_num(doc, "plan.budget_usd"))) {
        fputs(" and a budget of ", f);
        cs_html_jvalue(f, doc, "plan.budget_usd", CS_HU_USD);
        fputs(" (", f);
        cs__w(f, cs__str(doc, "plan.budget_basis") ? cs__str(doc, "plan.budget_basis") : "?");
        fputs(" basis)", f);
    }
    fputs("; ", f);
    cs_html_jvalue(f, doc, "plan.candidates.evaluated", CS_HU_COUNT);
    fputs(" of ", f);
    cs_html_jvalue(f, doc, "plan.candidates.clusters", CS_HU_COUNT);
    fputs(" candidate clusters were simulated (", f);
    cs_html_jvalue(f, doc, "plan.candidates.configurations", CS_HU_COUNT);
    fputs(" parallel configurations).", f);
    if (cJSON_IsObject(ch)) {
        fputs(" The cheapest plan that meets the deadline at p95 is <b>", f);
        cs__plan_name(f, ch);
        fputs("</b>: ", f);
        cs_html_jvalue(f, doc, "plan.cheapest.cost_usd.mean", CS_HU_USD);
        fputs(", and ", f);
        cs_html_jvalue(f, doc, "plan.cheapest.time_to_train_s.mean", CS_HU_SECONDS);
        fputs(" to train (", f);
        cs_html_jvalue(f, doc, "plan.cheapest.time_to_train_s.p95", CS_HU_SECONDS);
        fputs(" at p95).", f);
    } else {
        fputs(" <b>No plan meets the deadline at p95.</b>", f);
    }
    if (cJSON_IsObject(fa)) {
        if (cs__same_plan(ch, fa)) {
            fputs(" It is also the fastest plan within the budget.", f);
        } else {
            fputs(" The fastest plan within the budget is ", f);
            cs__plan_name(f, fa);
            fputs(": ", f);
            cs_html_jvalue(f, doc, "plan.fastest.time_to_train_s.mean", CS_HU_SECONDS);
            fputs(" for ", f);
            cs_html_jvalue(f, doc, "plan.fastest.cost_usd.mean", CS_HU_USD);
            if (cJSON_IsObject(ch)) {
                fputs(", ", f);
                cs__diff(f, doc, "plan.cheapest.time_to_train_s.mean",
                         "plan.fastest.time_to_train_s.mean", false, CS_HU_SECONDS);
                fputs(" sooner for ", f);
                cs__diff(f, doc, "plan.fastest.cost_usd.mean", "plan.cheapest.cost_usd.mean", false,
                         CS_HU_USD);
                fputs(" (", f);
                cs__diff(f, doc, "plan.fastest.cost_usd.mean", "plan.cheapest.cost_usd.mean", true,
                         CS_HU_PCT);
                fputs(") more", f);
            }
            fputs(".", f);
        }
    } else {
        fputs(" No plan is within the budget at p95.", f);
    }
    /* when the cheapest stops being the choice: a deadline under its p95 time */
    if (cJSON_IsObject(ch)) {
        double t95 = cs_html_json_num(doc, "plan.cheapest.time_to_train_s.p95");
        size_t best = (size_t)-1;
        double bc = INFINITY;
        for (int i = 0; i < cJSON_GetArraySize(front); i++) {
            const cJSON *x = cJSON_GetArrayItem(front, i);
            double t = cs_html_json_num(x, "time_to_train_s.p95"),
                   c = cs_html_json_num(x, "cost_usd.mean");
            if (t < t95 && c < bc) {
                bc = c;
                best = (size_t)i;
            }
        }
        fputs(" It stops being the answer if the deadline falls below its p95 time of ", f);
        cs_html_jvalue(f, doc, "plan.cheapest.time_to_train_s.p95", CS_HU_SECONDS);
        if (best != (size_t)-1) {
            fputs("; then the cheapest faster plan on the front is ", f);
            cs__plan_name(f, cJSON_GetArrayItem(front, (int)best));
            fputs(" at ", f);
            cs__jv(f, doc, "plan.front[%zu]", best, ".cost_usd.mean", CS_HU_USD);
            fputs(" (", f);
            cs__jv(f, doc, "plan.front[%zu]", best, ".time_to_train_s.p95", CS_HU_SECONDS);
            fputs(" at p95).", f);
        } else {
            fputs("; no plan on the front is faster at p95.", f);
        }
    }
    const cJSON *bind = cs_html_json_at(doc, "plan.binding");
    if (cJSON_IsString(bind)) {
        fputs(" Binding: ", f);
        cs__w(f, bind->valuestring);
        fputs(".", f);
    }
    fputs("</p>\n", f);
}

/* One table row per plan: the cluster, its configuration, time and cost. */
static void cs__plan_table(FILE *f, const cJSON *const *plans, const char *const *tags, size_t n)
{
    fputs("<div class=\"wrap\"><table>\n<thead><tr><th></th><th>cluster</th><th>parallelism</th>"
          "<th>ownership</th><th>time to train: mean, p95</th><th>cost: mean, p95</th>"
          "<th>meets</th></tr></thead>\n<tbody>\n",
          f);
    for (size_t i = 0; i < n; i++) {
        const cJSON *pl = plans[i];
        char b[96];
        fputs("<tr><td>", f);
        cs__w(f, tags[i]);
        fputs("</td><td>", f);
        cs__w(f, cs_fmt_count(cs_html_json_num(pl, "gpus"), b, sizeof b));
        fputs(" x ", f);
        cs__w(f, cs__str(pl, "gpu") ? cs__str(pl, "gpu") : "");
        fputs(", ", f);
        cs__w(f, cs__str(pl, "fabric") ? cs__str(pl, "fabric") : "");
        fputs("</td><td>", f);
        snprintf(b, sizeof b, "tp %g, pp %g, dp %g%s", cs_html_json_num(pl, "parallelism.tp"),
                 cs_html_json_num(pl, "parallelism.pp"), cs_html_json_num(pl, "parallelism.dp"),
                 cJSON_IsTrue(cs_html_json_at(pl, "parallelism.sp")) ? ", sp" : "");
        cs__w(f, b);
        if (cs__str(pl, "parallelism.fsdp") && strcmp(cs__str(pl, "parallelism.fsdp"), "none")) {
            fputs(", ", f);
            cs__w(f, cs__str(pl, "parallelism.fsdp"));
        }
        fputs("</td><td>", f);
        cs__w(f, cs__str(pl, "ownership") ? cs__str(pl, "ownership") : "");
        if (cs__str(pl, "offer")) {
            fputs(" (", f);
            cs__w(f, cs__str(pl, "offer"));
            fputs(")", f);
        }
        fputs("</td>", f);
        /* mean over p95 in one cell: 7 columns fit an A4 page */
        static const char *const k[] = {"time_to_train_s", "cost_usd"};
        for (int j = 0; j < 2; j++) {
            char p[64], m2[64], q[64];
            snprintf(p, sizeof p, "%s.mean", k[j]);
            double mean = cs_html_json_num(pl, p);
            snprintf(p, sizeof p, "%s.p95", k[j]);
            double p95 = cs_html_json_num(pl, p);
            if (j == 0) {
                cs_fmt_duration(mean, m2, sizeof m2);
                cs_fmt_duration(p95, q, sizeof q);
            } else {
                cs_fmt_usd(mean, m2, sizeof m2);
                cs_fmt_usd(p95, q, sizeof q);
            }
            fprintf(f, "<td class=\"n\">%s<br>%s</td>", m2, q);
        }
        bool dl = cJSON_IsTrue(cs_html_json_at(pl, "meets_deadline"));
        bool bu = cJSON_IsTrue(cs_html_json_at(pl, "within_budget"));
        fprintf(f, "<td>%s</td></tr>\n",
                dl && bu ? "deadline and budget"
                : dl     ? "deadline only"
                : bu     ? "budget only"
                         : "neither");
    }
    fputs("</tbody>\n</table></div>\n", f);
}

void cs_html_page_plan(FILE *f, const cJSON *doc, const struct cs_html_meta *m)
{
    const char *name = cs__str(doc, "plan.name");
    cs__page_open(f, "plan", name ? name : "?", m);
    cs_html_heading(f, 2, "Summary");
    cs__plan_summary(f, doc);
    const cJSON *ch = cs_html_json_at(doc, "plan.cheapest"),
                *fa = cs_html_json_at(doc, "plan.fastest");
    const cJSON *front = cs_html_json_at(doc, "plan.front");
    size_t nf = (size_t)cJSON_GetArraySize(front);
    cs_html_heading(f, 2, "Options");
    const cJSON *picks[2];
    const char *tags[2];
    size_t np = 0;
    if (cJSON_IsObject(ch))
        picks[np] = ch, tags[np++] = "cheapest meeting the deadline";
    if (cJSON_IsObject(fa))
        picks[np] = fa, tags[np++] = "fastest within the budget";
    if (np)
        cs__plan_table(f, picks, tags, np);
    cs_html_heading(f, 3, "Pareto front of cost against time (means)");
    if (nf == 0) {
        cs_html_para(f, "The front is empty: no candidate was evaluated.");
    } else {
        const cJSON **pl = cs_xcalloc(nf, sizeof *pl);
        const char **tg = cs_xcalloc(nf, sizeof *tg);
        char(*num)[24] = cs_xcalloc(nf, sizeof *num);
        for (size_t i = 0; i < nf; i++) {
            pl[i] = cJSON_GetArrayItem(front, (int)i);
            snprintf(num[i], sizeof num[i], "%zu", i + 1);
            tg[i] = num[i];
        }
        cs__plan_table(f, pl, tg, nf);
        /* the figure: days against dollars */
        double *x = cs_xcalloc(nf, sizeof *x), *y = cs_xcalloc(nf, sizeof *y);
        bool *hl = cs_xcalloc(nf, sizeof *hl);
        char(*lab)[64] = cs_xcalloc(nf, sizeof *lab);
        const char **labs = cs_xcalloc(nf, sizeof *labs);
        for (size_t i = 0; i < nf; i++) {
            x[i] = cs_html_json_num(pl[i], "time_to_train_s.mean") / 86400.0;
            y[i] = cs_html_json_num(pl[i], "cost_usd.mean");
            hl[i] = cs__same_plan(pl[i], ch) || cs__same_plan(pl[i], fa);
            const char *g = cs__str(pl[i], "gpu") ? cs__str(pl[i], "gpu") : "?";
            int gl = (int)strcspn(g, "-");
            const char *own = cs__str(pl[i], "ownership") ? cs__str(pl[i], "ownership") : "?";
            snprintf(lab[i], sizeof lab[i], "%zu: %gx%.*s %s", i + 1,
                     cs_html_json_num(pl[i], "gpus"), gl, g, own);
            labs[i] = lab[i];
        }
        double dl = cs_html_json_num(doc, "plan.deadline_s") / 86400.0;
        double bu = cs_html_json_num(doc, "plan.budget_usd");
        char dlab[64], blab[64], t[48];
        snprintf(dlab, sizeof dlab, "deadline %s", cs_fmt_duration(dl * 86400.0, t, sizeof t));
        snprintf(blab, sizeof blab, "budget %s", cs_fmt_usd(bu, t, sizeof t));
        cs_html_heading(f, 2, "Figures");
        cs_html_svg_front(f,
                          "Pareto front: cost against time to train (larger points: the cheapest "
                          "and the fastest)",
                          "time to train, mean (days)", CS_HU_NUM, "cost, mean (US$)", CS_HU_USD,
                          nf, x, y, labs, hl, dl, dlab, bu, blab);
        free(x);
        free(y);
        free(hl);
        free(lab);
        free(labs);
        free(pl);
        free(tg);
        free(num);
    }
    cs_html_heading(f, 2, "Assumptions and defaults");
    fputs("<p>The plan's constraints and how many candidates it had. Each candidate is simulated "
          "with the models of <code>search</code>, <code>run</code> and <code>tco</code> (the "
          "catalog's prices unless the plan's <code>cost:</code> gives them); method and keys: "
          "docs/plan.md.</p>\n",
          f);
    cs__kv_open(f);
    cs__kv_scalars(f, cs_html_json_at(doc, "plan"), NULL);
    cs__kv_scalars(f, cs_html_json_at(doc, "plan.candidates"), "candidates: ");
    cs__kv_close(f);
    cs__appendix(f, doc, "plan");
    cs_html_end(f);
}

/* ---- replay ----------------------------------------------------------- */

static void cs__replay_summary(FILE *f, const cJSON *doc)
{
    fputs("<p class=\"summary\" id=\"summary\">", f);
    cs_html_jvalue(f, doc, "replay.jobs", CS_HU_COUNT);
    fputs(" jobs of ", f);
    cs__w(f, cs__str(doc, "replay.trace.file") ? cs__str(doc, "replay.trace.file") : "the trace");
    if (cs__str(doc, "replay.trace.format")) {
        fputs(" (", f);
        cs__w(f, cs__str(doc, "replay.trace.format"));
        fputs(")", f);
    }
    fputs(" replayed on ", f);
    cs_html_jvalue(f, doc, "replay.gpus", CS_HU_COUNT);
    fputs(" GPUs with ", f);
    cs__w(f, cs__str(doc, "replay.policy") ? cs__str(doc, "replay.policy") : "?");
    fputs(" scheduling and ", f);
    cs__w(f, cs__str(doc, "replay.placement") ? cs__str(doc, "replay.placement") : "?");
    fputs(" placement: over a makespan of ", f);
    cs_html_jvalue(f, doc, "replay.makespan_s", CS_HU_SECONDS);
    fputs(" the GPUs were allocated ", f);
    cs_html_jvalue(f, doc, "replay.utilization", CS_HU_PCT);
    fputs(" of the time (busy ", f);
    cs_html_jvalue(f, doc, "replay.busy_utilization", CS_HU_PCT);
    fputs("). Jobs waited ", f);
    cs_html_jvalue(f, doc, "replay.queue_s.mean", CS_HU_SECONDS);
    fputs(" on average (", f);
    cs_html_jvalue(f, doc, "replay.queue_s.p95", CS_HU_SECONDS);
    fputs(" at p95) and took ", f);
    cs_html_jvalue(f, doc, "replay.jct_s.mean", CS_HU_SECONDS);
    fputs(" from submission to completion (", f);
    cs_html_jvalue(f, doc, "replay.jct_s.p95", CS_HU_SECONDS);
    fputs(" at p95); ", f);
    cs_html_jvalue(f, doc, "replay.completed", CS_HU_COUNT);
    fputs(" completed, ", f);
    cs_html_jvalue(f, doc, "replay.rejected", CS_HU_COUNT);
    fputs(" rejected", f);
    if (cs_html_json_num(doc, "replay.preemptions") > 0) {
        fputs(", ", f);
        cs_html_jvalue(f, doc, "replay.preemptions", CS_HU_COUNT);
        fputs(" preemptions", f);
    }
    fputs(".", f);
    const cJSON *w = cs_html_json_at(doc, "replay.warnings");
    if (cJSON_IsArray(w) && cJSON_GetArraySize(w) > 0)
        fprintf(f, " <b>%d warning%s</b> (below).", cJSON_GetArraySize(w),
                cJSON_GetArraySize(w) > 1 ? "s" : "");
    fputs("</p>\n", f);
}

void cs_html_page_replay(FILE *f, const cJSON *doc, const struct cs_html_meta *m)
{
    const char *tf = cs__str(doc, "replay.trace.file");
    cs__page_open(f, "replay", tf ? tf : "trace", m);
    cs_html_heading(f, 2, "Summary");
    cs__replay_summary(f, doc);
    const cJSON *w = cs_html_json_at(doc, "replay.warnings");
    if (cJSON_IsArray(w) && cJSON_GetArraySize(w) > 0) {
        cs_html_heading(f, 3, "Warnings");
        cs_html_array_table(f, w);
    }
    cs_html_heading(f, 2, "Results");
    fputs("<div "
          "class=\"wrap\"><table>\n<thead><tr><th></th><th>mean</th><th>p50</th><th>p95</th></tr>"
          "</thead>\n<tbody>\n",
          f);
    static const char *const st[][2] = {{"queueing delay", "replay.queue_s"},
                                        {"job completion time", "replay.jct_s"}};
    for (int i = 0; i < 2; i++) {
        char b[64];
        fprintf(f, "<tr><td>%s</td>", st[i][0]);
        static const char *const q[] = {"mean", "p50", "p95"};
        for (int k = 0; k < 3; k++) {
            char path[96];
            snprintf(path, sizeof path, "%s.%s", st[i][1], q[k]);
            fprintf(f, "<td class=\"n\">%s</td>",
                    cs_fmt_duration(cs_html_json_num(doc, path), b, sizeof b));
        }
        fputs("</tr>\n", f);
    }
    fputs("</tbody>\n</table></div>\n", f);
    cs__kv_open(f);
    cs__kv_scalars(f, cs_html_json_at(doc, "replay"), NULL);
    cs__kv_close(f);
    static const char *const groups[][2] = {{"replay.partitions", "Partitions"},
                                            {"replay.by_partition", "By partition"},
                                            {"replay.by_size", "By job size"},
                                            {"replay.by_user", "By user"}};
    for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++) {
        const cJSON *arr = cs_html_json_at(doc, groups[g][0]);
        if (cJSON_IsArray(arr) && cJSON_GetArraySize(arr) > 0) {
            cs_html_heading(f, 3, groups[g][1]);
            cs_html_array_table(f, arr);
        }
    }
    /* figures: queueing and completion percentiles, partition shares */
    cs_html_heading(f, 2, "Figures");
    const char *labels[] = {"queue mean", "queue p50", "queue p95",
                            "JCT mean",   "JCT p50",   "JCT p95"};
    double v[6];
    static const char *const paths[] = {"replay.queue_s.mean", "replay.queue_s.p50",
                                        "replay.queue_s.p95",  "replay.jct_s.mean",
                                        "replay.jct_s.p50",    "replay.jct_s.p95"};
    for (int i = 0; i < 6; i++)
        v[i] = cs_html_json_num(doc, paths[i]) / 3600.0;
    cs_html_svg_bars(f, "Queueing delay and job completion time", "hours", 6, labels, v);
    const cJSON *parts = cs_html_json_at(doc, "replay.partitions");
    size_t np = (size_t)cJSON_GetArraySize(parts);
    if (np > 1) {
        const char **pl = cs_xcalloc(np, sizeof *pl);
        double *ps = cs_xcalloc(np, sizeof *ps);
        for (size_t i = 0; i < np; i++) {
            const cJSON *x = cJSON_GetArrayItem(parts, (int)i);
            pl[i] = cs__str(x, "name") ? cs__str(x, "name") : "?";
            ps[i] = 100 * cs_html_json_num(x, "share");
        }
        cs_html_svg_bars(f, "Share of the GPU-hours by partition", "%", np, pl, ps);
        free(pl);
        free(ps);
    }
    cs_html_heading(f, 2, "Assumptions and defaults");
    fputs("<p>The scheduler's settings (the scenario's <code>scheduler:</code> section, overridden "
          "by "
          "the flags) and what the trace import kept and skipped; models: docs/replay.md.</p>\n",
          f);
    cs__kv_open(f);
    static const char *const keys[] = {"policy", "placement", "mig", "preempt", "gpus"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        const cJSON *x = cJSON_GetObjectItemCaseSensitive(cs_html_json_at(doc, "replay"), keys[i]);
        char b[64];
        if (x)
            cs__kv(f, keys[i], cs__cell_text(x, keys[i], b, sizeof b), cJSON_IsNumber(x));
    }
    cs__kv_scalars(f, cs_html_json_at(doc, "replay.trace"), "trace: ");
    cs__kv_close(f);
    const cJSON *claim = cs_html_json_at(doc, "replay.claim");
    if (cJSON_IsObject(claim)) {
        cs_html_heading(f, 3, "Claim");
        cs__kv_open(f);
        cs__kv_scalars(f, claim, NULL);
        cs__kv_close(f);
    }
    cs__appendix(f, doc, "replay");
    cs_html_end(f);
}
