/* The picture writer: rasterises the polygons into an RGB buffer and encodes it as a PNG.
 * Layout: one buffer of width x height pixels, 3 bytes each, rows top to bottom. A Canvas is a
 * band of whole rows of that buffer: the drawing area on top, the legend strip (34 s pixels high,
 * s = the text scale) below it, laid out by png_legend as boxes that the drawing fills. Polygons
 * are mapped to pixel coordinates (y pointing down), filled by an even-odd scanline rule at pixel
 * centres, largest |area| first (ties by index), and outlined afterwards, so a neighbour's fill
 * never hides an edge. The PNG has one IHDR, one IDAT (every row with filter type 0, deflated by
 * zlib's compress2) and IEND; CRCs are zlib's crc32. No clocks, no globals: the same input gives
 * the same bytes. */
#include "png.h"
#include "atomic.h"
#include "geometry.h"
#include "text.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

enum { LEGEND_MIN_HEIGHT = 60, MAX_SIDE = 16384 };

static const unsigned char WHITE[3] = { 255, 255, 255 }, DARK[3] = { 40, 40, 40 },
                           LIGHT_GREY[3] = { 204, 204, 204 }, MID_GREY[3] = { 128, 128, 128 };

void png_colour(double t, unsigned char rgb[3])
{
    /* viridis (van der Walt and Smith, matplotlib) sampled at t = 0, 0.1, ..., 1 */
    static const unsigned char map[11][3] = {
        { 68, 1, 84 },    { 72, 36, 117 },  { 65, 68, 135 },  { 53, 95, 141 },
        { 42, 120, 142 }, { 33, 145, 140 }, { 34, 168, 132 }, { 68, 191, 112 },
        { 122, 209, 81 }, { 189, 223, 38 }, { 253, 231, 37 },
    };
    if (!(t > 0)) t = 0;
    if (t > 1) t = 1;
    int k = (int)(t * 10);
    if (k > 9) k = 9;
    double f = t * 10 - k;
    for (int c = 0; c < 3; c++)
        rgb[c] = (unsigned char)lround(map[k][c] + f * (map[k + 1][c] - map[k][c]));
}

/* Colours of integer values (categorical arrays), value k in colour k mod 10: ten hues far apart
 * and from the greys that mark rigid polygons and missing values (Tableau 10's, its grey
 * replaced by a light green). */
static const unsigned char CATEGORY[10][3] = {
    { 31, 119, 180 }, { 255, 127, 14 }, { 44, 160, 44 },  { 214, 39, 40 },  { 148, 103, 189 },
    { 140, 86, 75 },  { 227, 119, 194 }, { 188, 189, 34 }, { 23, 190, 207 }, { 152, 223, 138 },
};

void png_category(double v, unsigned char rgb[3])
{
    double k = fmod(isfinite(v) ? floor(v + 0.5) : 0, 10);
    memcpy(rgb, CATEGORY[(int)(k < 0 ? k + 10 : k)], 3);
}

/* h rows of w pixels; with a mask, drawing marks the pixels there instead of colouring them */
typedef struct { unsigned char *rgb; int w, h; unsigned char *mask; } Canvas;

static void put(const Canvas *c, int i, int j, const unsigned char col[3])
{
    if (i < 0 || j < 0 || i >= c->w || j >= c->h) return;
    if (c->mask) c->mask[(size_t)j * (size_t)c->w + (size_t)i] = 1;
    else memcpy(c->rgb + 3 * ((size_t)j * (size_t)c->w + (size_t)i), col, 3);
}

/* First pixel index whose centre k + 0.5 is >= v, clamped to [lo, hi]. */
static int first_centre(double v, int lo, int hi)
{
    double k = ceil(v - 0.5);
    return k < lo ? lo : k > hi ? hi : (int)k;
}

static int cmp_double(const void *a, const void *b)
{
    double u = *(const double *)a, v = *(const double *)b;
    return (u > v) - (u < v);
}

/* ---- the values: categories and the colour range ---- */

int png_categories(const Ensemble *e, const double *value, double cat[PNG_CATEGORIES])
{
    double c[PNG_CATEGORIES];   /* (ascending, by insertion) */
    int n = 0;
    for (int p = 0; p < e->np && n <= PNG_CATEGORIES; p++) {
        if (e->rigid[p] || !isfinite(value[p])) continue;
        double v = floor(value[p] + 0.5);
        int k = 0;
        while (k < n && c[k] < v) k++;
        if (k < n && c[k] == v) continue;
        if (n == PNG_CATEGORIES) { n++; break; }   /* (one more: too many) */
        memmove(c + k + 1, c + k, (size_t)(n - k) * sizeof *c);
        c[k] = v;
        n++;
    }
    if (cat) memcpy(cat, c, (size_t)(n < PNG_CATEGORIES ? n : PNG_CATEGORIES) * sizeof *c);
    return n;
}

void png_category_slots(int n, const double *cat, int slot[PNG_CATEGORIES])
{
    unsigned used = 0;
    int distinct = 1;
    for (int k = 0; k < n; k++) {
        double r = fmod(cat[k], 10);   /* (as png_category: v mod 10 in 0 .. 9) */
        slot[k] = (int)(r < 0 ? r + 10 : r);
        distinct = distinct && !(used >> slot[k] & 1);
        used |= 1u << slot[k];
    }
    for (int k = 0; !distinct && k < n; k++) slot[k] = k;
}

/* The q-quantile of the n >= 1 sorted values v: at h = (n - 1) q between the values on either
 * side, linearly (numpy's default; as a weighted mean, which cannot overflow). */
static double quantile(const double *v, size_t n, double q)
{
    double h = (double)(n - 1) * q;
    size_t j = (size_t)h;
    double f = h - (double)j;
    return j + 1 < n && f > 0 ? (1 - f) * v[j] + f * v[j + 1] : v[j];
}

int png_robust_range(const Ensemble *e, const double *value, double *lo, double *hi)
{
    *lo = INFINITY, *hi = -INFINITY;
    double *v = malloc(((size_t)e->np + 1) * sizeof *v);
    if (!v) return -1;
    size_t n = 0;
    for (int p = 0; p < e->np; p++)
        if (!e->rigid[p] && isfinite(value[p])) v[n++] = value[p];
    if (n) {
        qsort(v, n, sizeof *v, cmp_double);
        *lo = quantile(v, n, 0.02), *hi = quantile(v, n, 0.98);
        if (!(*lo < *hi)) *lo = v[0], *hi = v[n - 1];
    }
    free(v);
    return 0;
}

/* Even-odd fill of the polygon (X[k], Y[k]) in pixel coordinates: on each row the crossings of
 * the line through the pixel centres are sorted and the spans between pairs are filled. An edge
 * counts when its ends lie on different sides of the line (half-open), so a vertex on the line
 * is counted once. cross holds at least n doubles. */
static void fill_polygon(const Canvas *c, const double *X, const double *Y, int n, double *cross,
                         const unsigned char col[3])
{
    double ymin = Y[0], ymax = Y[0];
    for (int k = 1; k < n; k++) { ymin = fmin(ymin, Y[k]); ymax = fmax(ymax, Y[k]); }
    int j0 = first_centre(ymin, 0, c->h), j1 = first_centre(ymax, 0, c->h);
    for (int j = j0; j < j1; j++) {
        double yc = j + 0.5;
        int m = 0;
        for (int k = 0, l = n - 1; k < n; l = k++)
            if ((Y[k] <= yc) != (Y[l] <= yc))
                cross[m++] = X[l] + (yc - Y[l]) * (X[k] - X[l]) / (Y[k] - Y[l]);
        qsort(cross, (size_t)m, sizeof *cross, cmp_double);
        for (int q = 0; q + 1 < m; q += 2) {
            int i1 = first_centre(cross[q + 1], 0, c->w);
            for (int i = first_centre(cross[q], 0, c->w); i < i1; i++) put(c, i, j, col);
        }
    }
}

/* Line from (x0, y0) to (x1, y1) in pixel coordinates: clipped to the canvas (Liang-Barsky),
 * then one pixel per unit step along the longer axis (DDA); the pixel is the one containing
 * the point. */
static void draw_line(const Canvas *c, double x0, double y0, double x1, double y1,
                      const unsigned char col[3])
{
    double dx = x1 - x0, dy = y1 - y0, t0 = 0, t1 = 1;
    const double p[4] = { -dx, dx, -dy, dy }, q[4] = { x0, c->w - x0, y0, c->h - y0 };
    for (int k = 0; k < 4; k++) {
        if (p[k] == 0) {
            if (q[k] < 0) return;
            continue;
        }
        double r = q[k] / p[k];
        if (p[k] < 0 && r > t0) t0 = r;
        if (p[k] > 0 && r < t1) t1 = r;
    }
    if (t0 > t1) return;
    double ax = x0 + t0 * dx, ay = y0 + t0 * dy, bx = x0 + t1 * dx, by = y0 + t1 * dy;
    int steps = (int)ceil(fmax(fabs(bx - ax), fabs(by - ay)));
    for (int k = 0; k <= steps; k++) {
        double f = steps ? (double)k / steps : 0;
        put(c, (int)floor(ax + f * (bx - ax)), (int)floor(ay + f * (by - ay)), col);
    }
}

/* A 5 x 7 bitmap font: one byte per row, top row first, bit 4 = leftmost column. */
typedef struct { char ch; unsigned char row[7]; } Glyph;
static const Glyph FONT[] = {
    { '0', { 0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E } },
    { '1', { 0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E } },
    { '2', { 0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F } },
    { '3', { 0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E } },
    { '4', { 0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02 } },
    { '5', { 0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E } },
    { '6', { 0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E } },
    { '7', { 0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08 } },
    { '8', { 0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E } },
    { '9', { 0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C } },
    { 'a', { 0x0E, 0x11, 0x11, 0x1F, 0x11, 0x11, 0x11 } },
    { 'b', { 0x1E, 0x11, 0x11, 0x1E, 0x11, 0x11, 0x1E } },
    { 'c', { 0x0E, 0x11, 0x10, 0x10, 0x10, 0x11, 0x0E } },
    { 'd', { 0x1C, 0x12, 0x11, 0x11, 0x11, 0x12, 0x1C } },
    { 'e', { 0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x1F } },
    { 'f', { 0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x10 } },
    { 'g', { 0x0E, 0x11, 0x10, 0x17, 0x11, 0x11, 0x0F } },
    { 'h', { 0x11, 0x11, 0x11, 0x1F, 0x11, 0x11, 0x11 } },
    { 'i', { 0x0E, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0E } },
    { 'j', { 0x07, 0x02, 0x02, 0x02, 0x02, 0x12, 0x0C } },
    { 'k', { 0x11, 0x12, 0x14, 0x18, 0x14, 0x12, 0x11 } },
    { 'l', { 0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x1F } },
    { 'm', { 0x11, 0x1B, 0x15, 0x15, 0x11, 0x11, 0x11 } },
    { 'n', { 0x11, 0x11, 0x19, 0x15, 0x13, 0x11, 0x11 } },
    { 'o', { 0x0E, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E } },
    { 'p', { 0x1E, 0x11, 0x11, 0x1E, 0x10, 0x10, 0x10 } },
    { 'q', { 0x0E, 0x11, 0x11, 0x11, 0x15, 0x12, 0x0D } },
    { 'r', { 0x1E, 0x11, 0x11, 0x1E, 0x14, 0x12, 0x11 } },
    { 's', { 0x0F, 0x10, 0x10, 0x0E, 0x01, 0x01, 0x1E } },
    { 't', { 0x1F, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04 } },
    { 'u', { 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E } },
    { 'v', { 0x11, 0x11, 0x11, 0x11, 0x11, 0x0A, 0x04 } },
    { 'w', { 0x11, 0x11, 0x11, 0x15, 0x15, 0x15, 0x0A } },
    { 'x', { 0x11, 0x11, 0x0A, 0x04, 0x0A, 0x11, 0x11 } },
    { 'y', { 0x11, 0x11, 0x0A, 0x04, 0x04, 0x04, 0x04 } },
    { 'z', { 0x1F, 0x01, 0x02, 0x04, 0x08, 0x10, 0x1F } },
    { ' ', { 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00 } },
    { '.', { 0x00, 0x00, 0x00, 0x00, 0x00, 0x0C, 0x0C } },
    { ',', { 0x00, 0x00, 0x00, 0x00, 0x0C, 0x04, 0x08 } },
    { ':', { 0x00, 0x0C, 0x0C, 0x00, 0x0C, 0x0C, 0x00 } },
    { ';', { 0x00, 0x0C, 0x0C, 0x00, 0x0C, 0x04, 0x08 } },
    { '=', { 0x00, 0x00, 0x1F, 0x00, 0x1F, 0x00, 0x00 } },
    { '+', { 0x00, 0x04, 0x04, 0x1F, 0x04, 0x04, 0x00 } },
    { '-', { 0x00, 0x00, 0x00, 0x1F, 0x00, 0x00, 0x00 } },
    { '_', { 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x1F } },
    { '(', { 0x02, 0x04, 0x08, 0x08, 0x08, 0x04, 0x02 } },
    { ')', { 0x08, 0x04, 0x02, 0x02, 0x02, 0x04, 0x08 } },
    { '/', { 0x00, 0x01, 0x02, 0x04, 0x08, 0x10, 0x00 } },
    { '%', { 0x18, 0x19, 0x02, 0x04, 0x08, 0x13, 0x03 } },
    { '?', { 0x0E, 0x11, 0x01, 0x02, 0x04, 0x00, 0x04 } },
};
enum { NGLYPH = sizeof FONT / sizeof FONT[0] };

/* Letters print in one case (capital shapes); anything not in the font prints as '?'. */
static const Glyph *glyph(char ch)
{
    if (ch >= 'A' && ch <= 'Z') ch = (char)(ch - 'A' + 'a');
    for (int k = 0; k < NGLYPH; k++)
        if (FONT[k].ch == ch) return &FONT[k];
    return &FONT[NGLYPH - 1];
}

/* Text with its top left corner at (x, y), each font pixel an s x s block, 6 s per character. */
static void draw_text(const Canvas *c, int x, int y, int s, const char *text)
{
    for (; *text; text++, x += 6 * s) {
        const Glyph *g = glyph(*text);
        for (int r = 0; r < 7 * s; r++)
            for (int q = 0; q < 5 * s; q++)
                if (g->row[r / s] >> (4 - q / s) & 1) put(c, x + q, y + r, DARK);
    }
}

/* ---- the legend strip ---- */

int png_legend_rows(int height, int *s)
{
    int k = height / 300;
    *s = k < 1 ? 1 : k > 4 ? 4 : k;
    return height >= LEGEND_MIN_HEIGHT ? 34 * *s : 0;
}

/* The pixels n characters of text take across: 6 s each, less the last one's blank column. */
static int text_width(size_t n, int s) { return n ? 6 * s * (int)n - s : 0; }

static PngItem *add_item(PngLegend *l, int kind, int x0, int y0, int x1, int y1)
{
    PngItem *it = &l->item[l->n++];
    *it = (PngItem){ .kind = kind, .x0 = x0, .y0 = y0, .x1 = x1, .y1 = y1 };
    return it;
}

/* The first n bytes of t as text with its top left corner at (x, y). */
static PngItem *add_text(PngLegend *l, int x, int y, int s, const char *t, size_t n)
{
    PngItem *it = add_item(l, PNG_TEXT, x, y, x + text_width(n, s), y + 7 * s);
    snprintf(it->text, sizeof it->text, "%.*s", (int)n, t);
    return it;
}

/* v with p significant digits, never "-0" */
static void number(char *buf, size_t len, double v, int p)
{
    snprintf(buf, len, "%.*g", p, v == 0 ? 0.0 : v);
}

/* The scale bar: the longest 1, 2 or 5 x 10^n world units within `most` (> 0) */
static double round_length(double most)
{
    static const double mant[3] = { 5, 2, 1 };
    int n = (int)floor(log10(most));
    for (int j = n + 1; j >= n - 1; j--)   /* (log10 may round either way across a power of ten) */
        for (int k = 0; k < 3; k++) {
            /* (divided: so 0.2 is the double nearest 0.2) */
            double len = j >= 0 ? mant[k] * pow(10, j) : mant[k] / pow(10, -j);
            if (len <= most && len > 0) return len;
        }
    return 0;
}

/* The values under the colour bar [b0, b1) (its top row of text at y): lo at its left end, hi at
 * its right end and their mean in the middle with a tick, each with p digits, p from the fewest
 * that tell the three apart (at least 4) down to the fewest that still do; then the same without
 * the middle (two that differ); then none: numbers that read the same would hide the range. */
static void bar_numbers(PngLegend *l, const PngKey *k, int b0, int b1, int tick0, int y, int s)
{
    char a[3][40];
    double v[3] = { k->lo, 0.5 * k->lo + 0.5 * k->hi, k->hi };
    int xm = b0 + (b1 - b0) / 2, gap = 2 * s;
    if (!(k->lo < k->hi)) {   /* (a constant: one number, in the middle) */
        for (int p = 4; p >= 1; p--) {
            number(a[0], sizeof a[0], k->lo, p);
            int w = text_width(strlen(a[0]), s);
            if (w <= b1 - b0) { add_text(l, xm - w / 2, y, s, a[0], strlen(a[0])); return; }
        }
        return;
    }
    int p0 = 4;
    for (; p0 < 17; p0++) {
        for (int q = 0; q < 3; q++) number(a[q], sizeof a[q], v[q], p0);
        if (strcmp(a[0], a[1]) && strcmp(a[1], a[2]) && strcmp(a[0], a[2])) break;
    }
    for (int mid = 1; mid >= 0; mid--)
        for (int p = p0; p >= 1; p--) {
            int w[3];
            for (int q = 0; q < 3; q++)
                number(a[q], sizeof a[q], v[q], p), w[q] = text_width(strlen(a[q]), s);
            if (!strcmp(a[0], a[2]) || (mid && (!strcmp(a[0], a[1]) || !strcmp(a[1], a[2]))))
                break;   /* (fewer digits: no better) */
            int m0 = xm - w[1] / 2;
            if (mid ? b0 + w[0] + gap > m0 || m0 + w[1] + gap > b1 - w[2]
                    : b0 + w[0] + gap > b1 - w[2])
                continue;
            add_text(l, b0, y, s, a[0], strlen(a[0]));
            if (mid) {
                add_text(l, m0, y, s, a[1], strlen(a[1]));
                add_item(l, PNG_TICK, xm, tick0, xm + s, y)->value = v[1];
            }
            add_text(l, b1 - w[2], y, s, a[2], strlen(a[2]));
            return;
        }
}

void png_legend(const PngKey *k, int width, int s, PngLegend *l)
{
    l->n = 0;
    const int in0 = 8 * s, in1 = width - 8 * s, top = 3 * s, bar0 = 13 * s, bar1 = 21 * s,
              low = 24 * s;
    if (in1 - in0 < 4 * s) return;   /* (no room for anything) */

    /* top row: the scale bar at the right end, its length on its left */
    int right = in1;   /* (where the label must end) */
    double most = (in1 - in0) / 5.0 / k->scale,
           len = most > 0 && isfinite(most) ? round_length(most) : 0;
    if (len > 0) {
        char t[40];
        snprintf(t, sizeof t, "%g L", len);
        int px = (int)lround(len * k->scale), tw = text_width(strlen(t), s);
        if (px >= 1 && in1 - px - 3 * s - tw >= in0) {
            /* (its line under the text's baseline) */
            add_item(l, PNG_SCALE, in1 - px, top + 2 * s, in1, top + 8 * s)->value = len;
            add_text(l, in1 - px - 3 * s - tw, top, s, t, strlen(t));
            right = in1 - px - 3 * s - tw - 6 * s;
        }
    }
    /* the label on the left: its parts (split at two spaces) left out from the last until it
     * fits */
    const char *label = k->label ? k->label : "";
    size_t n = strlen(label);
    while (n && (text_width(n, s) > right - in0 || n >= sizeof l->item[0].text)) {
        size_t j = n - 1;
        while (j > 0 && !(label[j - 1] == ' ' && label[j] == ' ')) j--;
        n = j ? j - 1 : 0;
        while (n && label[n - 1] == ' ') n--;
    }
    if (n) add_text(l, in0, top, s, label, n);

    /* middle and bottom rows: the swatches and their values, or the colour bar and its range */
    if (k->ncat > 0) {
        int w = (in1 - in0) / k->ncat, end = 0;
        if (w > 40 * s) w = 40 * s;
        if (w < 3 * s) return;
        for (int c = 0; c < k->ncat; c++) {
            int x0 = in0 + c * w, x1 = x0 + w - 2 * s;
            PngItem *it = add_item(l, PNG_SWATCH, x0, bar0, x1, bar1);
            it->slot = k->slot[c], it->value = k->cat[c];
            char t[40];
            number(t, sizeof t, k->cat[c], 17);
            int tw = text_width(strlen(t), s), tx = x0 + (x1 - x0) / 2 - tw / 2;
            if (tx < 0) tx = 0;
            if ((c && tx < end + 2 * s) || tx + tw > width) continue;   /* (no room: left out) */
            end = add_text(l, tx, low, s, t, strlen(t))->x1;
        }
        return;
    }
    add_item(l, PNG_BAR, in0 - 1, bar0 - 1, in1 + 1, bar1 + 1);
    if (k->have_range) bar_numbers(l, k, in0, in1, bar1 + 1, low, s);
}

/* The legend of k, drawn as png_legend lays it out. */
static void draw_legend(const Canvas *c, int s, const PngKey *k)
{
    PngLegend l;
    png_legend(k, c->w, s, &l);
    for (int q = 0; q < l.n; q++) {
        const PngItem *it = &l.item[q];
        unsigned char col[3];
        switch (it->kind) {
        case PNG_TEXT: draw_text(c, it->x0, it->y0, s, it->text); break;
        case PNG_BAR:   /* (the frame is the box's outer ring of pixels) */
            for (int i = it->x0; i < it->x1; i++) {
                png_colour((i - it->x0 - 0.5) / (it->x1 - it->x0 - 2), col);
                for (int j = it->y0; j < it->y1; j++)
                    put(c, i, j, i == it->x0 || i == it->x1 - 1 || j == it->y0 || j == it->y1 - 1
                                     ? DARK : col);
            }
            break;
        case PNG_SWATCH:
            png_category(it->slot, col);
            for (int i = it->x0; i < it->x1; i++)
                for (int j = it->y0; j < it->y1; j++) put(c, i, j, col);
            break;
        case PNG_TICK:
            for (int i = it->x0; i < it->x1; i++)
                for (int j = it->y0; j < it->y1; j++) put(c, i, j, DARK);
            break;
        case PNG_SCALE:   /* (a line s thick along the bottom, ticks at both ends) */
            for (int i = it->x0; i < it->x1; i++)
                for (int j = it->y0; j < it->y1; j++)
                    if (j >= it->y1 - s || i < it->x0 + s || i >= it->x1 - s) put(c, i, j, DARK);
            break;
        }
    }
}

/* The least and largest finite node values of f into *lo, *hi (lo > hi: none). */
static void field_range(const PngField *f, double *lo, double *hi)
{
    *lo = INFINITY, *hi = -INFINITY;
    for (size_t k = 0; k < (size_t)f->nx * (size_t)f->ny; k++)
        if (isfinite(f->c[k])) { *lo = fmin(*lo, f->c[k]); *hi = fmax(*hi, f->c[k]); }
}

/* The field's bilinear interpolation at pixel centres, coloured from lo to hi, behind the area;
 * white (as cleared) outside the grid's rectangle. (cx, cy, scale): the area's world centre and
 * pixels per unit. */
static void draw_field(const Canvas *c, const PngField *f, double lo, double hi, double cx,
                       double cy, double scale)
{
    for (int j = 0; j < c->h; j++) {
        double v = (cy - (j + 0.5 - 0.5 * c->h) / scale - f->y0) / f->dx;   /* (in node spacings) */
        if (!(v >= 0 && v <= f->ny - 1)) continue;
        int r = (int)v < f->ny - 1 ? (int)v : f->ny - 2;
        double b = v - r;
        if (f->ny == 1) r = 0, b = 0;
        for (int i = 0; i < c->w; i++) {
            double u = (cx + (i + 0.5 - 0.5 * c->w) / scale - f->x0) / f->dx;
            if (!(u >= 0 && u <= f->nx - 1)) continue;
            int q = (int)u < f->nx - 1 ? (int)u : f->nx - 2;
            double a = u - q;
            if (f->nx == 1) q = 0, a = 0;
            const double *n0 = f->c + (size_t)r * f->nx + q, *n1 = f->ny > 1 ? n0 + f->nx : n0;
            int q1 = f->nx > 1;
            double val =
                (1 - b) * ((1 - a) * n0[0] + a * n0[q1]) + b * ((1 - a) * n1[0] + a * n1[q1]);
            unsigned char col[3];
            if (!isfinite(val)) memcpy(col, LIGHT_GREY, 3);
            else png_colour(hi > lo ? (val - lo) / (hi - lo) : 0.5, col);
            put(c, i, j, col);
        }
    }
}

/* ---- the camera ---- */

/* The bounding box x0, y0, x1, y1 of the finite vertices of e and of f's rectangle (unless NULL)
 * into b; 0 when there is neither. */
static int bounds(const Ensemble *e, const PngField *f, double b[4])
{
    b[0] = b[1] = INFINITY, b[2] = b[3] = -INFINITY;
    for (int p = 0; p < e->np; p++)
        for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++)
            if (isfinite(e->x[i]) && isfinite(e->y[i])) {
                b[0] = fmin(b[0], e->x[i]), b[2] = fmax(b[2], e->x[i]);
                b[1] = fmin(b[1], e->y[i]), b[3] = fmax(b[3], e->y[i]);
            }
    if (f) {
        b[0] = fmin(b[0], f->x0), b[2] = fmax(b[2], f->x0 + (f->nx - 1) * f->dx);
        b[1] = fmin(b[1], f->y0), b[3] = fmax(b[3], f->y0 + (f->ny - 1) * f->dx);
    }
    return b[0] <= b[2];
}

void png_camera_update(PngCamera *c, const Ensemble *e, const PngField *f, int width, int height)
{
    int s, ah = height - png_legend_rows(height, &s);
    double b[4];
    int any = bounds(e, f, b);
    PngView v;
    if (!c->state) {
        if (!any) b[0] = b[1] = 0, b[2] = b[3] = 1;
        double mx = 0.05 * (b[2] - b[0]), my = 0.05 * (b[3] - b[1]);
        v = (PngView){ b[0] - mx, b[1] - my, b[2] + mx, b[3] + my };
        if (!(v.x1 > v.x0) && !(v.y1 > v.y0))   /* (one point) */
            v = (PngView){ v.x0 - 0.5, v.y0 - 0.5, v.x0 + 0.5, v.y0 + 0.5 };
    } else {
        v = c->view;
        if (!any || (b[0] >= v.x0 && b[2] <= v.x1 && b[1] >= v.y0 && b[3] <= v.y1)) return;
        double mx = 0.1 * (v.x1 - v.x0), my = 0.1 * (v.y1 - v.y0);
        v = (PngView){ fmin(v.x0, b[0] - mx), fmin(v.y0, b[1] - my), fmax(v.x1, b[2] + mx),
                       fmax(v.y1, b[3] + my) };
    }
    /* widened about its centre to the area's aspect ratio r (never inward, whatever the
     * rounding) */
    double w = v.x1 - v.x0, h = v.y1 - v.y0, r = (double)width / (ah > 0 ? ah : 1);
    if (w < h * r) {
        double m = 0.5 * v.x0 + 0.5 * v.x1, half = 0.5 * h * r;
        v.x0 = fmin(v.x0, m - half), v.x1 = fmax(v.x1, m + half);
    } else if (h < w / r) {
        double m = 0.5 * v.y0 + 0.5 * v.y1, half = 0.5 * w / r;
        v.y0 = fmin(v.y0, m - half), v.y1 = fmax(v.y1, m + half);
    }
    *c = (PngCamera){ v, 1, 0 };
}

/* ---- the picture ---- */

typedef struct { double area; int p; } Order;

static int cmp_order(const void *a, const void *b)
{
    const Order *u = a, *v = b;
    if (u->area != v->area) return u->area < v->area ? 1 : -1;   /* larger first */
    return (u->p > v->p) - (u->p < v->p);
}

/* Renders the picture into rgb (width x height, already allocated): the polygons filled by value,
 * or outlined over field (not NULL: png_write_field). Returns 0, or -1 when out of memory. */
static int render(unsigned char *rgb, int width, int height, const Ensemble *e,
                  const double *value, const char *label, double vmin, double vmax,
                  int categorical, const PngView *view, const PngField *field)
{
    int s, legend = png_legend_rows(height, &s);
    Canvas area = { rgb, width, height - legend, NULL };
    Canvas strip = { rgb + 3 * (size_t)width * (size_t)area.h, width, legend, NULL };
    for (size_t k = 0; k < (size_t)width * (size_t)height; k++) memcpy(rgb + 3 * k, WHITE, 3);

    /* categories (at most PNG_CATEGORIES integers), else the colour range; rigid polygons (drawn
     * grey) do not count */
    PngKey key = { .label = label ? label : "" };
    int ncat = categorical && value && !field ? png_categories(e, value, key.cat)
                                              : PNG_CATEGORIES + 1,
        cats = ncat <= PNG_CATEGORIES;
    if (cats) {
        key.ncat = ncat;
        png_category_slots(ncat, key.cat, key.slot);
    }
    double lo = vmin, hi = vmax;
    if (!cats && (!(vmin < vmax) || !isfinite(vmin) || !isfinite(vmax))) {
        lo = INFINITY, hi = -INFINITY;
        if (field) field_range(field, &lo, &hi);
        else if (value && png_robust_range(e, value, &lo, &hi)) return -1;
    }
    key.have_range = !cats && lo <= hi, key.lo = lo, key.hi = hi;

    /* world rectangle -> pixels: centre (cx, cy) at the centre of the area, scale px/unit */
    double bx0, by0, bx1, by1;
    if (view) {
        bx0 = view->x0, by0 = view->y0, bx1 = view->x1, by1 = view->y1;
    } else {
        double b[4];
        if (!bounds(e, field, b)) b[0] = b[1] = 0, b[2] = b[3] = 1;   /* no vertices */
        double mx = 0.05 * (b[2] - b[0]), my = 0.05 * (b[3] - b[1]);
        bx0 = b[0] - mx, bx1 = b[2] + mx, by0 = b[1] - my, by1 = b[3] + my;
    }
    double cx = 0.5 * (bx0 + bx1), cy = 0.5 * (by0 + by1), sw = fabs(bx1 - bx0),
           sh = fabs(by1 - by0);
    double scale = fmin(sw > 0 ? area.w / sw : INFINITY, sh > 0 ? area.h / sh : INFINITY);
    if (!(scale < INFINITY)) scale = 1;   /* a single point: any scale shows it */
    key.scale = scale;

    /* pixel coordinates of every vertex slot; drawing order by |area|. A polygon with a vertex
     * beyond far_px pixels is left out, which keeps every later product finite and the crossings
     * of the fill and the lines within 0.02 pixels (doubles of 1e14 are 1/64 apart). Frames hold
     * vertices within 1e8 lmax of the origin, so only a view a million times smaller than a
     * polygon (1e-6 wide, of one 6,000 across, at 16384 pixels) leaves it out. */
    const double far_px = 1e14;
    size_t nv = (size_t)e->nv_used + 1, np = (size_t)e->np + 1;   /* + 1: never malloc(0) */
    double *X = malloc(nv * sizeof *X), *Y = malloc(nv * sizeof *Y);
    double *cross = malloc(nv * sizeof *cross);
    Order *order = malloc(np * sizeof *order);
    if (!X || !Y || !cross || !order) { free(X); free(Y); free(cross); free(order); return -1; }
    int n = 0;
    for (int p = 0; p < e->np; p++) {
        int i0 = e->start[p], m = e->count[p], ok = m >= 3;
        for (int i = i0; i < i0 + m; i++) {
            X[i] = 0.5 * area.w + (e->x[i] - cx) * scale;
            Y[i] = 0.5 * area.h - (e->y[i] - cy) * scale;
            ok = ok && fabs(X[i]) <= far_px && fabs(Y[i]) <= far_px;   /* false for NaN too */
        }
        if (ok) order[n++] = (Order){ fabs(geom_area(X + i0, Y + i0, m)), p };
    }
    qsort(order, (size_t)n, sizeof *order, cmp_order);

    if (field) draw_field(&area, field, lo, hi, cx, cy, scale);
    for (int k = 0; k < n; k++) {
        int p = order[k].p;
        if (field && !e->rigid[p]) continue;   /* (outlines only: the field shows through) */
        unsigned char col[3];
        double v = value ? value[p] : NAN;
        if (e->rigid[p]) memcpy(col, MID_GREY, 3);
        else if (isnan(v)) memcpy(col, LIGHT_GREY, 3);
        else if (cats) {   /* (a value png_categories did not count, an infinite one: light grey) */
            int c = 0;
            while (c < key.ncat && key.cat[c] != floor(v + 0.5)) c++;
            if (c < key.ncat) png_category(key.slot[c], col);
            else memcpy(col, LIGHT_GREY, 3);
        }
        else png_colour(hi > lo ? (v - lo) / (hi - lo) : 0.5, col);
        fill_polygon(&area, X + e->start[p], Y + e->start[p], e->count[p], cross, col);
    }
    /* over a field: the outlines' pixels first, coloured by what lies under them */
    unsigned char *mask = NULL;
    if (field && !(mask = calloc((size_t)area.w * (size_t)area.h + 1, 1))) {
        free(X); free(Y); free(cross); free(order);
        return -1;
    }
    const Canvas lines = { area.rgb, area.w, area.h, mask };
    for (int k = 0; k < n; k++)
        for (int i = e->start[order[k].p], m = e->count[order[k].p], q = 0; q < m; q++)
            draw_line(&lines, X[i + q], Y[i + q], X[i + (q + 1) % m], Y[i + (q + 1) % m], DARK);
    for (size_t k = 0; mask && k < (size_t)area.w * (size_t)area.h; k++)
        if (mask[k]) {   /* (luma of the pixel under the line, Rec. 601: below 128 is dark) */
            unsigned char *px = area.rgb + 3 * k;
            memcpy(px, 299 * px[0] + 587 * px[1] + 114 * px[2] < 128000 ? WHITE : DARK, 3);
        }
    free(mask);
    if (legend) draw_legend(&strip, s, &key);
    free(X); free(Y); free(cross); free(order);
    return 0;
}

/* One chunk: length, type, data, CRC of type and data. Returns 0, or -1 on a write error. */
static int chunk(FILE *f, const char *type, const unsigned char *data, size_t n)
{
    unsigned char len[4] = { (unsigned char)(n >> 24), (unsigned char)(n >> 16),
                             (unsigned char)(n >> 8), (unsigned char)n };
    uLong crc = crc32(0L, (const Bytef *)type, 4);
    if (n) crc = crc32(crc, data, (uInt)n);
    unsigned char end[4] = { (unsigned char)(crc >> 24), (unsigned char)(crc >> 16),
                             (unsigned char)(crc >> 8), (unsigned char)crc };
    if (fwrite(len, 1, 4, f) != 4 || fwrite(type, 1, 4, f) != 4) return -1;
    if (n && fwrite(data, 1, n, f) != n) return -1;
    return fwrite(end, 1, 4, f) == 4 ? 0 : -1;
}

static int fail(char *err, size_t errlen, const char *path, const char *why, int errnum)
{
    if (err && errlen) {
        if (errnum) snprintf(err, errlen, "%s: %s (%s)", TEXT_ESC(path), why, strerror(errnum));
        else snprintf(err, errlen, "%s: %s", TEXT_ESC(path), why);
    }
    errno = errnum;   /* (for the caller's exit status: ENOMEM is out of memory, not output) */
    return -1;
}

/* png_write and png_write_field: the picture of render, encoded and written */
static int write_picture(const char *path, const Ensemble *e, const double *value,
                         const char *label, double vmin, double vmax, int categorical, int width,
                         int height, const PngView *view, const PngField *field, char *err,
                         size_t errlen)
{
    if (width < 1 || height < 1 || width > MAX_SIDE || height > MAX_SIDE)
        return fail(err, errlen, path, "image size must be 1..16384 pixels on each side", 0);

    /* picture, then the scanlines (filter byte 0 + RGB) deflated */
    size_t row = 1 + 3 * (size_t)width, raw_n = row * (size_t)height;
    unsigned char *rgb = malloc(3 * (size_t)width * (size_t)height), *raw = malloc(raw_n);
    uLongf z_n = compressBound((uLong)raw_n);
    unsigned char *z = malloc(z_n);
    if (!rgb || !raw || !z ||
        render(rgb, width, height, e, value, label, vmin, vmax, categorical, view, field)) {
        free(rgb); free(raw); free(z);
        return fail(err, errlen, path, "out of memory", ENOMEM);
    }
    for (int j = 0; j < height; j++) {
        raw[row * (size_t)j] = 0;
        memcpy(raw + row * (size_t)j + 1, rgb + 3 * (size_t)width * (size_t)j, row - 1);
    }
    free(rgb);
    int zr = compress2(z, &z_n, raw, (uLong)raw_n, Z_DEFAULT_COMPRESSION);
    free(raw);
    if (zr != Z_OK) {
        free(z);
        return zr == Z_MEM_ERROR ? fail(err, errlen, path, "out of memory", ENOMEM)
                                 : fail(err, errlen, path, "zlib compress2 failed", 0);
    }

    FILE *f = atomic_open(path, err, errlen);
    if (!f) { free(z); return -1; }

    /* IHDR: width, height, bit depth 8, colour type 2 (RGB), deflate, filter set 0, no interlace */
    static const unsigned char signature[8] = { 137, 'P', 'N', 'G', '\r', '\n', 26, '\n' };
    unsigned char ihdr[13] = { (unsigned char)(width >> 24), (unsigned char)(width >> 16),
                               (unsigned char)(width >> 8), (unsigned char)width,
                               (unsigned char)(height >> 24), (unsigned char)(height >> 16),
                               (unsigned char)(height >> 8), (unsigned char)height,
                               8, 2, 0, 0, 0 };
    int bad = 0;
    errno = 0;
    if (fwrite(signature, 1, 8, f) != 8 || chunk(f, "IHDR", ihdr, 13) || chunk(f, "IDAT", z, z_n) ||
        chunk(f, "IEND", NULL, 0))
        bad = errno ? errno : EIO;
    free(z);
    return atomic_close(f, path, bad, 1, err, errlen);
}

int png_write(const char *path, const Ensemble *e, const double *value, const char *label,
              double vmin, double vmax, int categorical, int width, int height, const PngView *view,
              char *err, size_t errlen)
{
    return write_picture(path, e, value, label, vmin, vmax, categorical, width, height, view, NULL,
                         err, errlen);
}

int png_write_field(const char *path, const Ensemble *e, const PngField *f, const char *label,
                    double vmin, double vmax, int width, int height, const PngView *view,
                    char *err, size_t errlen)
{
    return write_picture(path, e, NULL, label, vmin, vmax, 0, width, height, view, f, err, errlen);
}
