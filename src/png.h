/* A built-in picture of one frame, written as an RGB PNG (zlib only): the polygons filled with a
 * colour map of one value per polygon, or outlined over a field (a chemical species), with a
 * legend and a scale bar. For a quick look at a run; the .vtp and .vti frames remain the data. */
#ifndef PH_PNG_H
#define PH_PNG_H
#include <stddef.h>
#include <stdint.h>
#include "ensemble.h"

typedef struct PngView { double x0, y0, x1, y1; } PngView;   /* world rectangle shown */

/* A field on the nodes (x0 + i dx, y0 + j dx), i < nx, j < ny: c[j * nx + i]. */
typedef struct PngField { int nx, ny; double x0, y0, dx; const double *c; } PngField;

/* The camera of a series of pictures: fitted to the first and widened only when the cells leave
 * it, so that a length keeps its pixels until then. state: 0 not fitted yet, 1 fitted; reserved:
 * 0. Kept in the checkpoint. */
typedef struct PngCamera { PngView view; int32_t state, reserved; } PngCamera;

/* Fits or widens c for a width x height picture of e (and field f, unless NULL): first the
 * bounding box with a margin of 5 %; later, when the box leaves it, grown to take the box in with
 * a margin of 10 % of its own extent (so a growing tissue widens it every few pictures, not every
 * one); then widened to the drawing area's aspect ratio. Non-finite vertices do not count; no
 * polygon at all gives the unit square, or leaves a fitted camera as it was. */
void png_camera_update(PngCamera *c, const Ensemble *e, const PngField *f, int width, int height);

/* Pictures of integer arrays draw at most this many values in categories. */
enum { PNG_CATEGORIES = 10 };

/* The distinct rounded finite values of the polygons that are not rigid, ascending, into cat
 * (NULL: only counted). Returns their count, or PNG_CATEGORIES + 1 when there are more. */
int png_categories(const Ensemble *e, const double *value, double cat[PNG_CATEGORIES]);

/* The colour slot of each of the n values of cat: value mod 10 when that differs for every pair,
 * so that a value keeps its colour from picture to picture; otherwise k for the k-th value. */
void png_category_slots(int n, const double *cat, int slot[PNG_CATEGORIES]);

/* The colour range: the 2nd to the 98th percentile (as numpy's default) of the finite values of
 * the polygons that are not rigid, so that a few outliers do not flatten the others; if those are
 * equal, the least and largest value. *lo > *hi when there is no value. -1 when out of memory. */
int png_robust_range(const Ensemble *e, const double *value, double *lo, double *hi);

/* Draws the polygons of e filled with a colour map of value[p] (NaN or value NULL: light grey;
 * rigid polygons mid grey), with 1-pixel dark outlines, on white, larger polygons first so that
 * nested ones show; the legend (png_legend) in a strip at the bottom unless height < 60. Polygons
 * with a non-finite vertex, or one more than 1e14 pixels away, are left out.
 * view: the world rectangle shown, fitted into the drawing area with the aspect ratio kept; NULL:
 * all vertices with a margin of 5 %.
 * vmin/vmax: the colour range; if !(vmin < vmax) or one is not finite, png_robust_range's.
 * categorical: integer values; up to PNG_CATEGORIES distinct ones each in its own colour, the
 * legend a swatch per value; more are drawn in the colour map.
 * Written atomically (atomic.h); the same input gives the same bytes. Returns 0, or -1 with
 * "path: reason" in err. */
int png_write(const char *path, const Ensemble *e, const double *value, const char *label,
              double vmin, double vmax, int categorical, int width, int height, const PngView *view,
              char *err, size_t errlen);

/* Draws field f, interpolated bilinearly, in the colour map from vmin to vmax (or the range of
 * its finite nodes), white outside its grid; over it the polygons as outlines, white where the
 * field is dark and dark where it is light, so that it shows inside the cells too. Otherwise as
 * png_write (view NULL: the grid and all vertices). */
int png_write_field(const char *path, const Ensemble *e, const PngField *f, const char *label,
                    double vmin, double vmax, int width, int height, const PngView *view,
                    char *err, size_t errlen);

/* The colour map (viridis, 11 control points, linear in between) at t, clamped to [0, 1]. */
void png_colour(double t, unsigned char rgb[3]);

/* One of ten colours by the rounded v mod 10. */
void png_category(double v, unsigned char rgb[3]);

/* The legend strip's rows for a picture `height` high (0 below 60), and in *s the scale of its
 * text (each font pixel an s x s block: 1, and 1 more per 300 rows, up to 4). */
int png_legend_rows(int height, int *s);

/* What a legend shows. */
typedef struct PngKey {
    const char *label;   /* parts separated by two spaces ("area  t = 2  (note)") */
    int ncat;            /* > 0: a swatch per value cat[k] in the colour of slot[k]; 0: the bar */
    double cat[PNG_CATEGORIES];
    int slot[PNG_CATEGORIES];
    int have_range;      /* the colour bar's range lo .. hi is known */
    double lo, hi;
    double scale;        /* pixels per world unit; not > 0 or not finite: no scale bar */
} PngKey;

/* One thing drawn in the legend strip, in the box [x0, x1) x [y0, y1) (y down from the strip's
 * top). TEXT: in the bitmap font (letters, digits, " .,:;=+-_()/%"; others print as '?'),
 * 6 s n - s pixels wide and 7 s high; BAR: the colour bar from lo to hi, framed; SWATCH: the
 * colour of slot for category `value`; TICK: a mark under the bar at `value`; SCALE: the scale
 * bar, `value` world units long. */
enum { PNG_TEXT, PNG_BAR, PNG_SWATCH, PNG_TICK, PNG_SCALE };
typedef struct PngItem { int kind, x0, y0, x1, y1, slot; double value; char text[96]; } PngItem;
enum { PNG_LEGEND_ITEMS = 3 * PNG_CATEGORIES + 8 };
typedef struct PngLegend { int n; PngItem item[PNG_LEGEND_ITEMS]; } PngLegend;

/* Lays out the legend of k in a strip `width` wide with margins of 8 s. Top row: the scale bar on
 * the right (the longest 1, 2 or 5 x 10^n within a fifth of the width, labelled "2 L") and the
 * label on the left, its parts left out from the last until it fits. Middle row: the colour bar,
 * or the swatches (at most 40 s wide). Bottom row: the bar's lo, middle and hi values with the
 * digits that tell them apart (at least 4), fewer where they do not fit, then without the middle,
 * then none; or the swatches' values, each left out that would touch the one before. No text
 * overlaps another item, and every box lies inside the strip. */
void png_legend(const PngKey *k, int width, int s, PngLegend *out);

#endif
