/* A built-in picture of one frame: the polygons filled with a colour map of one value per polygon,
 * outlined, with a legend, or outlined over a field (a chemical species) in the colour map,
 * written as an RGB PNG (zlib only, no image library). For a quick look at a run without
 * ParaView; the .vtp and .vti frames remain the data. */
#ifndef PH_PNG_H
#define PH_PNG_H
#include <stddef.h>
#include <stdint.h>
#include "ensemble.h"

typedef struct PngView { double x0, y0, x1, y1; } PngView;   /* world rectangle shown */

/* The colour range of a series of pictures: fitted to the first picture's values and widened only
 * when a later picture's fall outside it, so that a colour means the same value in every picture
 * drawn since. state: 0 not fitted yet, 1 fitted at time `since`, 2 last widened at `since`. */
typedef struct PngRange { double lo, hi, since; int32_t state, reserved; } PngRange;

/* Fits or widens r to the finite values of the polygons of e that are not rigid, at time t. */
void png_range_update(PngRange *r, const Ensemble *e, const double *value, double t);

/* Draws the polygons of e filled with a colour map of value[p] (one value per polygon; NaN, or
 * value == NULL, gives light grey; rigid polygons are always mid grey), with 1-pixel dark
 * outlines, on white, into a width x height RGB PNG. Larger polygons are drawn first, so nested
 * ones show on top. A strip at the bottom holds the legend (colour bar, min and max as numbers,
 * the label; letters, digits and " .,:;=+-_()/%" print, other characters as '?'); it is left out
 * when height < 60. Polygons with a non-finite vertex, or one more than 1e9 pixels away from the
 * picture's centre, are not drawn.
 * view: the world rectangle shown, fitted into the drawing area with the aspect ratio kept
 * (1 world unit = the same pixels in x and y) and centred; NULL: all vertices with a margin of
 * 5 % of their extent on every side.
 * vmin/vmax: colour range; if !(vmin < vmax) (or one is not finite) the range is taken from the
 * finite values of the polygons that are not rigid (min..max; a constant gives the mid colour).
 * categorical: the values are integers, each drawn in its own colour (png_category; vmin, vmax
 * unused), the legend a swatch per value (or, for more than ten, the colours of value mod 10).
 * The file is written atomically (path.tmp, fflush + fsync, rename), and the same input gives
 * the same bytes. Returns 0, or -1 with "path: reason" in err (the .tmp is then removed). */
int png_write(const char *path, const Ensemble *e, const double *value, const char *label,
              double vmin, double vmax, int categorical, int width, int height, const PngView *view,
              char *err, size_t errlen);

/* A field on the nodes (x0 + i dx, y0 + j dx), i < nx, j < ny: c[j * nx + i] (a chemical species). */
typedef struct PngField { int nx, ny; double x0, y0, dx; const double *c; } PngField;

/* Draws field f as the background: its bilinear interpolation between the nodes, in the colour
 * map from vmin to vmax (or, if !(vmin < vmax) or one is not finite, from the least to the
 * largest finite node value; a constant gives the mid colour; a non-finite value light grey),
 * white outside the grid's rectangle. Over it the polygons of e as 1-pixel outlines, white where
 * the field under them is dark and dark where it is light (rigid polygons filled mid grey, as in
 * png_write), so that the field shows inside the cells too. The legend is the field's colour bar
 * with its range and the label. view NULL: the grid's rectangle and all vertices, with a margin
 * of 5 % of their extent on every side. Otherwise as png_write (size, atomic writing, the same
 * bytes for the same input, errors). */
int png_write_field(const char *path, const Ensemble *e, const PngField *f, const char *label,
                    double vmin, double vmax, int width, int height, const PngView *view,
                    char *err, size_t errlen);

/* The colour map (viridis, 11 control points, linear in between) at t in [0, 1]; t is clamped,
 * NaN gives the colour of 0. */
void png_colour(double t, unsigned char rgb[3]);

/* The colour of integer value v (rounded) in a categorical picture: one of ten, by v mod 10. */
void png_category(double v, unsigned char rgb[3]);

#endif
