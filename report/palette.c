/* palette.c: the shared series palette (include/clustersim/report/palette.h;
 * Kelly 1965, twenty of his twenty-two colours of maximum contrast). */
#include "clustersim/report/palette.h"

/* Kelly (1965) as the sRGB centroids of the ISCC-NBS colour names he chose
 * (the ISCC-NBS number after each), in his order except that his three
 * light colours (vivid yellow, very light blue, buff: faint as lines on
 * white) come last; white (263) and greenish yellow (97) left out, see
 * palette.h. */
static const char *const cs__kelly[CS_PALETTE_SIZE] = {
    "#222222", /* black 267 */
    "#875692", /* strong purple 218 */
    "#f38400", /* vivid orange 48 */
    "#be0032", /* vivid red 11 */
    "#848482", /* medium grey 265 */
    "#008856", /* vivid green 139 */
    "#e68fac", /* strong purplish pink 247 */
    "#0067a5", /* strong blue 178 */
    "#f99379", /* strong yellowish pink 26 */
    "#604e97", /* strong violet 207 */
    "#f6a600", /* vivid orange yellow 66 */
    "#b3446c", /* strong purplish red 255 */
    "#882d17", /* strong reddish brown 40 */
    "#8db600", /* vivid yellowish green 115 */
    "#654522", /* deep yellowish brown 75 */
    "#e25822", /* vivid reddish orange 34 */
    "#2b3d26", /* dark olive green 126 */
    "#f3c300", /* vivid yellow 82 (light: moved to the end) */
    "#a1caf1", /* very light blue 180 (light: moved to the end) */
    "#c2b280", /* greyish yellow, buff 90 (light: moved to the end) */
};

const char *cs_palette_color(size_t i)
{
    return cs__kelly[i % CS_PALETTE_SIZE];
}

int cs_palette_dashtype(size_t i)
{
    static const int dt[4] = {1, 2, 4, 3};
    return dt[(i % CS_PALETTE_SIZE) / 5 % 4];
}

int cs_palette_pointtype(size_t i)
{
    static const int pt[10] = {7, 5, 9, 13, 11, 6, 4, 8, 12, 10};
    return pt[i % 10];
}

void cs_palette_write_gnuplot(FILE *f)
{
    fputs("# series palette: Kelly (1965), twenty colours of maximum contrast "
          "(clustersim report/palette.c)\n", f);
    for (size_t i = 0; i < CS_PALETTE_SIZE; i++)
        fprintf(f, "set linetype %zu lc rgb '%s' dt %d pt %d lw 2 ps 1\n", i + 1,
                cs_palette_color(i), cs_palette_dashtype(i), cs_palette_pointtype(i));
}
