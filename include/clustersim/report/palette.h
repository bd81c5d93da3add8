/* palette.h: the colours, dash types and point types of every figure the
 * project draws (report layer, report/palette.c), so that series keep the
 * same look across commands and stay distinct up to CS_PALETTE_SIZE of them.
 *
 * Colours: Kenneth L. Kelly's "twenty-two colours of maximum contrast"
 * (Color Engineering 3(6):26-27, 1965), as the sRGB centroids of their
 * ISCC-NBS colour names, in Kelly's order (each prefix of the list is as
 * distinct as he could make it) except that his three light colours (vivid
 * yellow, very light blue, buff) come last, so that figures of up to 17
 * series only use colours that read well as lines on white; without his
 * first colour (white, invisible on a white figure) and without greenish
 * yellow (ISCC-NBS 97, the faintest of the rest on white). Beyond CS_PALETTE_SIZE
 * series a figure uses panels (report/sweep_plot.c) instead of reusing a
 * colour. Dash and point types vary too, so that a figure printed in grey
 * or read with a colour-vision deficiency keeps its series apart. */
#ifndef CLUSTERSIM_REPORT_PALETTE_H
#define CLUSTERSIM_REPORT_PALETTE_H

#include <stddef.h>
#include <stdio.h>

#define CS_PALETTE_SIZE 20

/* "#rrggbb" of series i (i modulo CS_PALETTE_SIZE). Static string. */
const char *cs_palette_color(size_t i);
/* gnuplot dash type of series i: 1 (solid) for series 0-4, 2 (dashed) for
 * 5-9, 4 (dash-dot) for 10-14, 3 (dotted) for 15-19, then again. */
int cs_palette_dashtype(size_t i);
/* gnuplot point type of series i, cycling through ten filled and open
 * shapes (7 filled circle, 5 filled square, 9 filled triangle, 13 filled
 * diamond, 11 filled inverted triangle, 6, 4, 8, 12, 10: their open forms).
 * With the dash type, every (dash, point) pair of the 20 differs. */
int cs_palette_pointtype(size_t i);

/* Writes `set linetype k lc rgb '#..' dt D pt P lw 2` for k = 1 ..
 * CS_PALETTE_SIZE, so that `lt k` (or ls k, lc k) in the script picks series
 * k-1's look; gnuplot's linetypes past the 20th wrap to the first. */
void cs_palette_write_gnuplot(FILE *f);

#endif
