/* cmd_plot.c: `clustersim plot DIR`: figures of a sweep's results (scaling
 * efficiency, throughput per topology, cost against utilization, goodput
 * against checkpoint interval, else throughput against the first varying
 * axis, chosen by the columns present) as gnuplot data, scripts, PNG and
 * SVG; gnuplot runs directly, never through a shell. */
#include "cli.h"

#include "clustersim/config/sweep.h"
#include "clustersim/report/sweep_plot.h"

#include <string.h>

static const struct cs_cli_opt cs__plot_opts[] = {
    {"output", 'o', "DIR", "write the figures into DIR (default: the sweep directory)"},
};

static int cs__plot(const struct cs_cli_cmd *cmd, const struct cs_cli_args *a)
{
    if (a->npos != 1) {
        fprintf(stderr, "clustersim plot: expected one sweep output DIR (see 'clustersim help "
                        "plot')\n");
        return CS_EXIT_BADINPUT;
    }
    const char *dir = a->pos[0];
    const char *out = cs_cli_get(cmd, a, "output");
    if (!out)
        out = dir;
    if (strcmp(out, "-") == 0) {
        fprintf(stderr, "clustersim plot: -o -: plot writes several figures; name a directory\n");
        return CS_EXIT_BADINPUT;
    }
    struct cs_sweep_results r;
    cs_diags d;
    cs_diags_init(&d);
    cs_status st = cs_sweep_results_load(dir, &r, &d);
    if (st != CS_OK) {
        cs_cli_print_diags_prefixed(&d, "clustersim plot");
        cs_diags_fini(&d);
        return CS_EXIT_BADINPUT; /* not a (readable) sweep directory */
    }
    bool made[CS_SWEEP_FIG_COUNT], rendered[CS_SWEEP_FIG_COUNT], no_gnuplot = false;
    st = cs_sweep_plot_render(&r, out, made, rendered, &no_gnuplot, &d);
    size_t pages[CS_SWEEP_FIG_COUNT];
    for (int f = 0; f < CS_SWEEP_FIG_COUNT; f++)
        pages[f] = made[f] ? cs_sweep_fig_pages(&r, (enum cs_sweep_fig)f) : 0;
    cs_sweep_results_fini(&r);
    cs_cli_print_diags_prefixed(&d, "clustersim plot");
    cs_diags_fini(&d);
    if (st != CS_OK)
        return CS_EXIT_FAIL;
    size_t n = 0;
    for (int f = 0; f < CS_SWEEP_FIG_COUNT; f++) {
        if (!made[f])
            continue;
        n++;
        const char *stem = cs_sweep_fig_name((enum cs_sweep_fig)f);
        if (rendered[f]) {
            printf("%s/%s.png  %s/%s.svg  (%s)\n", out, stem, out, stem,
                   cs_sweep_fig_title((enum cs_sweep_fig)f));
            for (size_t p = 1; p < pages[f]; p++) { /* more panels than one page holds */
                char ps[160];
                cs_sweep_page_stem((enum cs_sweep_fig)f, p, ps, sizeof ps);
                printf("%s/%s.png  %s/%s.svg  (%s, page %zu of %zu)\n", out, ps, out, ps,
                       cs_sweep_fig_title((enum cs_sweep_fig)f), p + 1, pages[f]);
            }
        } else if (!no_gnuplot)
            fprintf(stderr, "clustersim plot: warning: gnuplot failed on %s/%s.gp\n", out, stem);
    }
    if (no_gnuplot)
        fprintf(stderr, "clustersim plot: warning: gnuplot not found: wrote the data (*.dat) and "
                        "scripts (*.gp) in %s but no PNG or SVG (install gnuplot-nox)\n", out);
    if (n == 0)
        fprintf(stderr, "clustersim plot: warning: %s has no columns for a figure (an axis "
                        "cluster.nodes, cluster.fabric.topology/oversubscription, "
                        "checkpoint.interval with run.goodput, tco.* columns, or an axis with "
                        "two values and tokens_per_s_per_gpu) or no ok point\n", dir);
    return CS_EXIT_OK;
}

const struct cs_cli_cmd cs_cmd_plot = {
    "plot",
    "plot [-o OUT] DIR",
    "draw a sweep's results (DIR of clustersim sweep) as PNG and SVG figures",
    "Chooses the figures by the columns present: scaling efficiency against GPUs\n"
    "(axis cluster.nodes), tokens/s per GPU per topology and oversubscription,\n"
    "cost per utilized GPU-hour against utilization (tco.* columns), goodput\n"
    "against the checkpoint interval (run.goodput), or else tokens/s per GPU\n"
    "against the first axis with two values. Axes with one value go to the\n"
    "title, the others to the legend (20 lines at most, distinct colours) and\n"
    "past that to panels (12 a page, pages sweep_*_p2.png ...). Writes\n"
    "sweep_*.dat, the scripts sweep_*.gp and, with gnuplot installed,\n"
    "sweep_*.png and sweep_*.svg. Without gnuplot it warns and exits 0.",
    cs__plot_opts,
    (int)(sizeof cs__plot_opts / sizeof cs__plot_opts[0]),
    cs__plot,
};
