/* calib_report.c: a calibration (calib.h) out as the overlay YAML that
 * config/cfg_calib.c reads back, a text report of fit quality, and gnuplot
 * data + script of measured against fitted busbw (report layer). */
#include "clustersim/report/calib_report.h"
#include "clustersim/report/palette.h"
#include "clustersim/models/calib.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A YAML double-quoted string. */
static void cs__q(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(f, "\\x%02x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

/* Quantities with enough digits to reproduce the fit (%.9g). */
static void cs__time(FILE *f, const char *key, double s) { fprintf(f, "%s: %.9gs", key, s); }
static void cs__bw(FILE *f, const char *key, double b) { fprintf(f, "%s: %.9gB/s", key, b); }

bool cs_calib_write_overlay(FILE *f, const struct cs_calib_overlay *o)
{
    const struct cs_calib_cfg *c = &o->cal;
    fprintf(f, "# Calibration overlay written by `clustersim calibrate` (docs/calibration.md).\n"
               "# Use it from a scenario with `include: THIS_FILE.yaml` at the top level.\n");
    for (size_t i = 0; i < o->n_fits; i++)
        if (o->fits[i].warning[0])
            fprintf(f, "# warning: %s: %s (calibration.fit.%s_%zu)\n", o->fits[i].name, o->fits[i].warning,
                    o->fits[i].kind, i);
    fprintf(f, "calibration:\n  date: ");
    cs__q(f, o->date);
    fprintf(f, "\n  inputs:\n");
    for (size_t i = 0; i < o->n_inputs; i++) {
        fprintf(f, "    - {kind: %s, file: ", o->inputs[i].kind);
        cs__q(f, o->inputs[i].file);
        fprintf(f, ", sha256: %s", o->inputs[i].sha256);
        if (o->inputs[i].skipped_rows)
            fprintf(f, ", skipped_rows: %zu", o->inputs[i].skipped_rows);
        fprintf(f, "}\n");
    }
    if (o->n_inputs == 0)
        fprintf(f, "    []\n");
    bool coll = !isnan(c->intra_efficiency) || !isnan(c->net_efficiency) || !isnan(c->nvls_efficiency) ||
                !isnan(c->launch_floor_s) || c->n_curves > 0;
    if (coll) {
        fprintf(f, "  collective:\n");
        if (!isnan(c->intra_efficiency))
            fprintf(f, "    intra_efficiency: %.9g\n", c->intra_efficiency);
        if (!isnan(c->net_efficiency))
            fprintf(f, "    net_efficiency: %.9g\n", c->net_efficiency);
        if (!isnan(c->nvls_efficiency))
            fprintf(f, "    nvls_efficiency: %.9g\n", c->nvls_efficiency);
        if (!isnan(c->launch_floor_s)) {
            fprintf(f, "    ");
            cs__time(f, "launch_floor", c->launch_floor_s);
            fprintf(f, "\n");
        }
        if (c->n_curves > 0)
            fprintf(f, "    curves:\n");
        for (int i = 0; i < c->n_curves; i++) {
            const struct cs_calib_curve *cv = &c->curves[i];
            fprintf(f, "      - {op: %s, algo: %s, ranks: %d, nodes: %d, ", cs_coll_op_name((enum cs_coll_op)cv->op),
                    cs_coll_algo_name((enum cs_coll_algo)cv->algo), cv->ranks, cv->nodes);
            cs__time(f, "launch", cv->launch_s);
            fprintf(f, ",\n         ");
            cs__time(f, "latency", cv->lat_s[0]);
            fprintf(f, ", ");
            cs__bw(f, "busbw", cv->busbw_bytes_per_s[0]);
            if (cv->n_regimes == 2) {
                fprintf(f, ", ");
                cs__time(f, "latency2", cv->lat_s[1]);
                fprintf(f, ", ");
                cs__bw(f, "busbw2", cv->busbw_bytes_per_s[1]);
            }
            fprintf(f, ",\n         min_size: %.0fB, max_size: %.0fB, mape: %.5f, max_error: %.5f}\n", cv->min_bytes,
                    cv->max_bytes, cv->mape, cv->max_err);
        }
    }
    if (!isnan(c->gemm_eff_max) || !isnan(c->gemm_dim_half) || !isnan(c->compute_scale) ||
        !isnan(c->overlap_slowdown)) {
        fprintf(f, "  compute:\n");
        if (!isnan(c->gemm_eff_max))
            fprintf(f, "    gemm_eff_max: %.6f\n", c->gemm_eff_max);
        if (!isnan(c->gemm_dim_half))
            fprintf(f, "    gemm_dim_half: %.4f\n", c->gemm_dim_half);
        if (!isnan(c->compute_scale))
            fprintf(f, "    scale: %.6f\n", c->compute_scale);
        if (!isnan(c->overlap_slowdown))
            fprintf(f, "    overlap_slowdown: %.6f\n", c->overlap_slowdown);
    }
    if (o->has_storage) {
        const struct cs_calib_storage *s = &o->storage;
        fprintf(f, "  storage:\n    tier: ");
        cs__q(f, s->tier);
        fprintf(f, "\n");
        if (!isnan(s->read_bw_bytes_per_s))
            fprintf(f, "    read_bw: %.6gB/s\n", s->read_bw_bytes_per_s);
        if (!isnan(s->write_bw_bytes_per_s))
            fprintf(f, "    write_bw: %.6gB/s\n", s->write_bw_bytes_per_s);
        if (!isnan(s->latency_s))
            fprintf(f, "    latency: %.6gs\n", s->latency_s);
    }
    fprintf(f, "  fit:\n");
    for (size_t i = 0; i < o->n_fits; i++) {
        const struct cs_calib_fit *ft = &o->fits[i];
        fprintf(f, "    # %s\n    %s_%zu: {points: %zu, ", ft->name, ft->kind, i, ft->n);
        if (ft->ok) {
            fprintf(f, "mape: %.5f, max_error: %.5f, rms: %.5f", ft->mape, ft->max_err, ft->rms);
            if (ft->warning[0]) {
                fprintf(f, ",\n      warning: ");
                cs__q(f, ft->warning);
            }
            fprintf(f, "}\n");
        } else {
            fprintf(f, "refused: ");
            cs__q(f, ft->msg);
            fprintf(f, "}\n");
        }
    }
    if (o->n_fits == 0)
        fprintf(f, "    {}\n");
    return !ferror(f);
}

bool cs_calib_write_report(FILE *f, const struct cs_calib_overlay *o, bool points)
{
    fprintf(f, "clustersim calibrate: %zu input file%s, %s\n", o->n_inputs, o->n_inputs == 1 ? "" : "s", o->date);
    for (size_t i = 0; i < o->n_inputs; i++)
    {
        fprintf(f, "  %-5s %s  sha256 %.16s...", o->inputs[i].kind, o->inputs[i].file, o->inputs[i].sha256);
        if (o->inputs[i].skipped_rows)
            fprintf(f, "  (%zu malformed row%s skipped)", o->inputs[i].skipped_rows,
                    o->inputs[i].skipped_rows == 1 ? "" : "s");
        fprintf(f, "\n");
    }
    for (size_t i = 0; i < o->n_fits; i++) {
        const struct cs_calib_fit *ft = &o->fits[i];
        fprintf(f, "\n[%s] %s\n", ft->kind, ft->name);
        if (!ft->ok) {
            fprintf(f, "  %s\n", ft->msg);
            continue;
        }
        if (ft->msg[0])
            fprintf(f, "  %s\n", ft->msg);
        for (int k = 0; k < ft->n_params; k++)
            fprintf(f, "  %-18s %.6g\n", ft->param_names[k], ft->params[k]);
        if (points && ft->n > 0) {
            fprintf(f, "  %-34s %12s %12s %8s\n", "point", "measured", "fitted", "error");
            for (size_t j = 0; j < ft->n; j++) {
                const struct cs_calib_point *p = &ft->pts[j];
                fprintf(f, "  %-34s %12.4g %12.4g %+7.1f%%\n", p->label, p->measured, p->fitted, 100.0 * p->err);
            }
        }
        fprintf(f, "  residuals (%s): MAPE %.2f%%, max %.2f%%, RMS %.2f%% over %zu points\n", ft->unit,
                100.0 * ft->mape, 100.0 * ft->max_err, 100.0 * ft->rms, ft->n);
        if (ft->warning[0])
            fprintf(f, "  warning: %s\n", ft->warning);
    }
    return !ferror(f);
}

bool cs_calib_write_plot_data(FILE *f, const struct cs_calib_overlay *o)
{
    int block = 0;
    for (size_t i = 0; i < o->n_fits; i++) {
        const struct cs_calib_fit *ft = &o->fits[i];
        if (strcmp(ft->kind, "curve") != 0 || !ft->ok)
            continue;
        if (block++)
            fprintf(f, "\n\n");
        fprintf(f, "# %s\n# size_bytes measured_busbw_gbps fitted_busbw_gbps\n", ft->name);
        for (size_t j = 0; j < ft->n; j++)
            fprintf(f, "%.0f %.6g %.6g\n", ft->pts[j].x, ft->pts[j].measured, ft->pts[j].fitted);
    }
    if (block == 0)
        fprintf(f, "# no collective curves\n");
    return !ferror(f);
}

/* A gnuplot string literal (single quotes; a quote is doubled). */
static void cs__gq(FILE *f, const char *s)
{
    fputc('\'', f);
    for (const char *p = s; *p; p++) {
        if (*p == '\'')
            fputc('\'', f);
        if ((unsigned char)*p >= 0x20)
            fputc(*p, f);
    }
    fputc('\'', f);
}

bool cs_calib_write_plot_script(FILE *f, const struct cs_calib_overlay *o, const char *data, const char *png)
{
    fprintf(f, "# Measured (points) against fitted (lines) nccl-tests busbw; written by clustersim calibrate.\n"
               "set terminal pngcairo size 1100,700 noenhanced\nset output ");
    cs__gq(f, png);
    fputc('\n', f);
    cs_palette_write_gnuplot(f); /* lc K: the shared palette's colour K */
    fprintf(f, "set title 'nccl-tests busbw: measured (points) vs calibrated model (lines)'\n"
               "set logscale x 2\nset format x '%%.0s%%cB'\nset xlabel 'message size (bytes, nccl-tests convention)'\n"
               "set ylabel 'bus bandwidth (GB/s)'\nset key top left\nset grid\n");
    int nb = 0;
    for (size_t i = 0; i < o->n_fits; i++)
        if (strcmp(o->fits[i].kind, "curve") == 0 && o->fits[i].ok)
            nb++;
    if (nb == 0) {
        fprintf(f, "set label 'no collective curves' at graph 0.5,0.5 center\nplot 0 notitle\n");
        return !ferror(f);
    }
    fprintf(f, "plot \\\n");
    int b = 0;
    for (size_t i = 0; i < o->n_fits; i++) {
        const struct cs_calib_fit *ft = &o->fits[i];
        if (strcmp(ft->kind, "curve") != 0 || !ft->ok)
            continue;
        char title[160];
        snprintf(title, sizeof title, "%s (MAPE %.1f%%)", ft->name, 100.0 * ft->mape);
        fprintf(f, "  ");
        cs__gq(f, data);
        fprintf(f, " index %d using 1:2 with points pt 7 lc %d title ", b, b + 1);
        cs__gq(f, title);
        fprintf(f, ", \\\n  ");
        cs__gq(f, data);
        fprintf(f, " index %d using 1:3 with lines lw 2 lc %d notitle%s\n", b, b + 1, b + 1 < nb ? ", \\" : "");
        b++;
    }
    return !ferror(f);
}
