/* The frame writer: one ASCII VTK XML PolyData file per call, written atomically (tmp + fsync +
 * rename). Layout of the file, one Piece:
 *   FieldData  TIME (simulated time, so ParaView shows it instead of the frame index)
 *   CellData   area, perimeter (computed here from the positions), neighbors, phase, rigid
 *   Points     x y z of every polygon's vertices in polygon order, gap slots skipped, so point k of
 *              the file is the k-th vertex counted over the polygons; z = (phase + 1) / 2
 *   Polys      connectivity (just 0..N-1 in that order) and offsets
 * Numbers are printed with %.17g (exact round trip, C locale) and nothing depends on the wall
 * clock, so the same state always gives the same bytes. Every write goes through out(), which
 * keeps the errno of the first failure; the file is only renamed into place if there was none. */
#define _POSIX_C_SOURCE 200809L
#include "vtp.h"
#include "geometry.h"
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct { FILE *f; int err; } Out;   /* err: errno of the first failed write, else 0 */

static void out(Out *o, const char *fmt, ...)
{
    if (o->err) return;
    va_list ap;
    va_start(ap, fmt);
    errno = 0;
    int r = vfprintf(o->f, fmt, ap);
    va_end(ap);
    if (r < 0) o->err = errno ? errno : EIO;
}

/* XML forbids "--" inside a comment and control characters other than tab and newline anywhere;
 * a '-' right before the end is harmless here because " -->" starts with a space. */
static void out_comment(Out *o, const char *s)
{
    out(o, "<!-- ");
    for (char prev = 0; *s; prev = *s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '-' && prev == '-') out(o, " ");
        out(o, "%c", c < 0x20 && c != '\t' && c != '\n' ? '?' : c);
    }
    out(o, " -->\n");
}

static void array_open(Out *o, const char *type, const char *name)
{
    out(o, "        <DataArray type=\"%s\" Name=\"%s\" format=\"ascii\">\n", type, name);
}

static void array_close(Out *o) { out(o, "        </DataArray>\n"); }

static void write_body(Out *o, const Ensemble *e, const int *neighbors, const char *meta)
{
    long long nv = 0;
    for (int p = 0; p < e->np; p++) nv += e->count[p];

    out(o, "<?xml version=\"1.0\"?>\n");
    if (meta) out_comment(o, meta);
    out(o, "<VTKFile type=\"PolyData\" version=\"1.0\" byte_order=\"LittleEndian\" "
           "header_type=\"UInt64\">\n  <PolyData>\n");
    out(o, "    <FieldData>\n      <DataArray type=\"Float64\" Name=\"TIME\" NumberOfTuples=\"1\" "
           "format=\"ascii\">%.17g</DataArray>\n    </FieldData>\n", e->t);
    out(o, "    <Piece NumberOfPoints=\"%lld\" NumberOfPolys=\"%d\">\n", nv, e->np);

    out(o, "      <CellData Scalars=\"area\">\n");
    array_open(o, "Float64", "area");
    for (int p = 0; p < e->np; p++)
        out(o, "%.17g\n", geom_area(e->x + e->start[p], e->y + e->start[p], e->count[p]));
    array_close(o);
    array_open(o, "Float64", "perimeter");
    for (int p = 0; p < e->np; p++)
        out(o, "%.17g\n", geom_perimeter(e->x + e->start[p], e->y + e->start[p], e->count[p]));
    array_close(o);
    array_open(o, "Int32", "neighbors");
    for (int p = 0; p < e->np; p++) out(o, "%d\n", neighbors ? neighbors[p] : 0);
    array_close(o);
    array_open(o, "Int32", "phase");
    for (int p = 0; p < e->np; p++) out(o, "%d\n", e->phase[p]);
    array_close(o);
    array_open(o, "UInt8", "rigid");
    for (int p = 0; p < e->np; p++) out(o, "%d\n", e->rigid[p]);
    array_close(o);
    out(o, "      </CellData>\n");

    out(o, "      <Points>\n        <DataArray type=\"Float64\" NumberOfComponents=\"3\" "
           "format=\"ascii\">\n");
    for (int p = 0; p < e->np; p++)
        for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++)
            out(o, "%.17g %.17g %.17g\n", e->x[i], e->y[i], (e->phase[p] + 1) / 2.0);
    array_close(o);
    out(o, "      </Points>\n");

    out(o, "      <Polys>\n");
    array_open(o, "Int64", "connectivity");
    long long k = 0;
    for (int p = 0; p < e->np; p++) {
        for (int i = 0; i < e->count[p]; i++) out(o, i ? " %lld" : "%lld", k++);
        out(o, "\n");
    }
    array_close(o);
    array_open(o, "Int64", "offsets");
    k = 0;
    for (int p = 0; p < e->np; p++) out(o, "%lld\n", k += e->count[p]);
    array_close(o);
    out(o, "      </Polys>\n    </Piece>\n  </PolyData>\n</VTKFile>\n");
}

static int fail(char *err, size_t errlen, const char *path, const char *why, int errnum)
{
    if (err && errlen) snprintf(err, errlen, "%s: %s (%s)", path, why, strerror(errnum));
    return -1;
}

int vtp_write(const char *path, const Ensemble *e, const int *neighbors, const char *meta,
              char *err, size_t errlen)
{
    size_t len = strlen(path);
    char *tmp = malloc(len + sizeof ".tmp");
    if (!tmp) return fail(err, errlen, path, "out of memory", ENOMEM);
    memcpy(tmp, path, len);
    memcpy(tmp + len, ".tmp", sizeof ".tmp");

    Out o = { fopen(tmp, "w"), 0 };
    if (!o.f) {
        int errnum = errno;
        free(tmp);
        return fail(err, errlen, path, "cannot create the .tmp file", errnum);
    }
    write_body(&o, e, neighbors, meta);
    const char *why = "write failed";
    if (!o.err && fflush(o.f) != 0) o.err = errno;
    if (!o.err && fsync(fileno(o.f)) != 0) { o.err = errno; why = "fsync failed"; }
    if (fclose(o.f) != 0 && !o.err) o.err = errno;
    if (!o.err && rename(tmp, path) != 0) { o.err = errno; why = "cannot rename the .tmp file"; }
    if (o.err) remove(tmp);
    free(tmp);
    return o.err ? fail(err, errlen, path, why, o.err) : 0;
}
