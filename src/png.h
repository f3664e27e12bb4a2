/* A built-in picture of one frame: the polygons filled with a colour map of one value per polygon,
 * outlined, with a legend and a scale bar, or outlined over a field (a chemical species) in the
 * colour map, written as an RGB PNG (zlib only, no image library). For a quick look at a run
 * without ParaView; the .vtp and .vti frames remain the data. */
#ifndef PH_PNG_H
#define PH_PNG_H
#include <stddef.h>
#include <stdint.h>
#include "ensemble.h"

typedef struct PngView { double x0, y0, x1, y1; } PngView;   /* world rectangle shown */

/* A field on the nodes (x0 + i dx, y0 + j dx), i < nx, j < ny: c[j * nx + i] (a chemical species). */
typedef struct PngField { int nx, ny; double x0, y0, dx; const double *c; } PngField;

/* The camera of a series of pictures (unless --png-view fixes one): the world rectangle shown,
 * fitted to the first picture and widened only when the cells leave it, so that one length is
 * the same pixels in every picture until then (a growing tissue grows on the screen). state: 0
 * not fitted yet (view all 0), 1 fitted; reserved: 0. Kept in the checkpoint. */
typedef struct PngCamera { PngView view; int32_t state, reserved; } PngCamera;

/* Fits or widens c for a width x height picture of the polygons of e (and the rectangle of field
 * f, unless NULL): not fitted yet, it becomes their bounding box with a margin of 5 % of its
 * extent on every side; fitted, it is left as it is while that box (without the margin) lies in
 * it, and otherwise grows to take the box in with a margin of 10 % of the camera's own extent
 * on every side (so that a growing tissue widens it every few pictures, not every one). Either
 * way it is then widened about its centre to the drawing area's aspect ratio, so that the view is
 * exactly the area shown. Vertices that are not finite do not count; no polygon at all fits the
 * unit square [0, 1]^2, or leaves a fitted camera as it is. */
void png_camera_update(PngCamera *c, const Ensemble *e, const PngField *f, int width, int height);

/* Pictures of integer arrays draw at most this many values in categories (png_categories). */
enum { PNG_CATEGORIES = 10 };

/* The distinct values (rounded to integers) of the polygons of e that are not rigid, whose value
 * is finite, ascending, into cat (NULL: only counted). Returns their count, or PNG_CATEGORIES + 1
 * when there are more than PNG_CATEGORIES (cat then holds the first PNG_CATEGORIES found). */
int png_categories(const Ensemble *e, const double *value, double cat[PNG_CATEGORIES]);

/* The colour slot (0 .. 9, png_category's colours) of each of the n <= PNG_CATEGORIES values of
 * cat (ascending): value mod 10 when that differs for every pair of them, so that a value keeps
 * its colour from picture to picture; otherwise (3 and 13 both present) k for the k-th value. */
void png_category_slots(int n, const double *cat, int slot[PNG_CATEGORIES]);

/* The colour range of a picture: the 2nd to the 98th percentile (linear between the sorted values,
 * as numpy's default) of the finite values of the polygons that are not rigid, so that a few
 * outliers among many cells do not flatten the others (values beyond it take the end colours);
 * if those two are equal, the least and largest value. *lo > *hi when there is no value.
 * Returns 0, or -1 when out of memory. */
int png_robust_range(const Ensemble *e, const double *value, double *lo, double *hi);

/* Draws the polygons of e filled with a colour map of value[p] (one value per polygon; NaN, or
 * value == NULL, gives light grey; rigid polygons are always mid grey), with 1-pixel dark
 * outlines, on white, into a width x height RGB PNG. Larger polygons are drawn first, so nested
 * ones show on top. A strip at the bottom holds the legend (png_legend: the label, a scale bar,
 * the colour bar with its range, or a swatch per category; letters, digits and " .,:;=+-_()/%"
 * print, other characters as '?'); it is left out when height < 60. Polygons with a non-finite
 * vertex, or one more than 1e9 pixels away from the picture's centre, are not drawn.
 * view: the world rectangle shown, fitted into the drawing area with the aspect ratio kept
 * (1 world unit = the same pixels in x and y) and centred; NULL: all vertices with a margin of
 * 5 % of their extent on every side.
 * vmin/vmax: colour range; if !(vmin < vmax) (or one is not finite) png_robust_range's (a
 * constant gives the mid colour).
 * categorical: the values are integers; at most PNG_CATEGORIES distinct ones (png_categories) are
 * each drawn in its own colour (png_category_slots; vmin, vmax unused), the legend a swatch per
 * value present; more are drawn in the colour map as above.
 * The file is written atomically (path.tmp, fflush + fsync, rename), and the same input gives
 * the same bytes. Returns 0, or -1 with "path: reason" in err (the .tmp is then removed). */
int png_write(const char *path, const Ensemble *e, const double *value, const char *label,
              double vmin, double vmax, int categorical, int width, int height, const PngView *view,
              char *err, size_t errlen);

/* Draws field f as the background: its bilinear interpolation between the nodes, in the colour
 * map from vmin to vmax (or, if !(vmin < vmax) or one is not finite, from the least to the
 * largest finite node value; a constant gives the mid colour; a non-finite value light grey),
 * white outside the grid's rectangle. Over it the polygons of e as 1-pixel outlines, white where
 * the field under them is dark and dark where it is light (rigid polygons filled mid grey, as in
 * png_write), so that the field shows inside the cells too. The legend is the field's colour bar
 * with its range, the label and the scale bar. view NULL: the grid's rectangle and all vertices,
 * with a margin of 5 % of their extent on every side. Otherwise as png_write (size, atomic
 * writing, the same bytes for the same input, errors). */
int png_write_field(const char *path, const Ensemble *e, const PngField *f, const char *label,
                    double vmin, double vmax, int width, int height, const PngView *view,
                    char *err, size_t errlen);

/* The colour map (viridis, 11 control points, linear in between) at t in [0, 1]; t is clamped,
 * NaN gives the colour of 0. */
void png_colour(double t, unsigned char rgb[3]);

/* The colour of integer value v (rounded): one of ten, by v mod 10 (slot k: png_category(k)). */
void png_category(double v, unsigned char rgb[3]);

/* The legend strip: its rows for a picture `height` pixels high (0 below 60: no legend), and in
 * *s the scale of its text (each font pixel an s x s block: 1, and 1 more per 300 rows up to 4). */
int png_legend_rows(int height, int *s);

/* What a legend shows. */
typedef struct PngKey {
    const char *label;   /* parts separated by two spaces ("area  t = 2  (note)") */
    int ncat;            /* > 0: a swatch per value cat[k] in the colour of slot[k]; 0: the colour bar */
    double cat[PNG_CATEGORIES];
    int slot[PNG_CATEGORIES];
    int have_range;      /* the colour bar's range lo .. hi is known (else the bar alone) */
    double lo, hi;
    double scale;        /* pixels per world unit of the drawing area; not > 0 or not finite: no scale bar */
} PngKey;

/* One thing drawn in the legend strip; its box [x0, x1) x [y0, y1) in the strip's pixels (x to
 * the right, y down from its top row). TEXT: text in the bitmap font, 6 s n - s pixels wide for n
 * characters and 7 s high, its top left corner at (x0, y0); BAR: the colour bar from lo (left) to
 * hi with its 1-pixel frame; SWATCH: the colour of slot `slot`, for category `value`; TICK: a
 * mark under the bar at the value `value`; SCALE: the scale bar, `value` world units long, its
 * length x1 - x0 pixels = round(value * scale). */
enum { PNG_TEXT, PNG_BAR, PNG_SWATCH, PNG_TICK, PNG_SCALE };
typedef struct PngItem { int kind, x0, y0, x1, y1, slot; double value; char text[96]; } PngItem;
enum { PNG_LEGEND_ITEMS = 3 * PNG_CATEGORIES + 8 };
typedef struct PngLegend { int n; PngItem item[PNG_LEGEND_ITEMS]; } PngLegend;

/* Lays out the legend of k in a strip `width` pixels wide (png_legend_rows rows, text scale s),
 * with a margin of 8 s on the left and right. Top row: the scale bar on the right (the longest
 * 1, 2 or 5 x 10^n world units within a fifth of the strip's inner width, labelled "2 L" on its
 * left) and the label on the left, its parts left out from the last until it fits beside it (and
 * the label left out if its first part does not). Middle row: the colour bar across the inner
 * width, or the swatches (at most 40 s wide each). Bottom row: under the bar its lo, middle and hi
 * values with the digits that tell them apart (at least 4 significant ones), shortened to fewer
 * digits where they do not fit, then without the middle one, then none; under the swatches their
 * values, each one left out that would touch the one before it. No two TEXT boxes overlap, none
 * overlaps another item, and every box lies inside the strip. */
void png_legend(const PngKey *k, int width, int s, PngLegend *out);

#endif
