/* The OFF reader: turns a GeomView OFF file (docs/model.md 7) into polygons, each with its own copy
 * of its vertex coordinates, stored counter-clockwise, and its phase (+1 for odd z, -1 for even z).
 * Every malformed input is rejected with "path:line: what was expected, what was found", or
 * "path: why" when the file could not be opened at all. On failure *out is left empty ({0, NULL}), so calling
 * off_free on it is always safe. */
#ifndef PH_OFF_H
#define PH_OFF_H
#include <stddef.h>
#include <stdint.h>

/* A polygon: n vertices, counter-clockwise; phase +1 or -1; the cell type of its first vertex,
 * floor(z / 2) as read (0 for negative z; |z| < 2^53, so it is exact), and another type one of
 * its vertices gives, or -1 (a build with one cell type ignores both: z then carries only the
 * phase); line = line number of its face line in the file */
typedef struct OffPolygon { int n; double *x, *y; int phase; int64_t type, other_type; int line; } OffPolygon;
typedef struct OffData { int np; OffPolygon *poly; } OffData;
/* Reads a GeomView OFF file. Returns 0 on success. On any malformed input returns -1 and writes
   "path:line: message" (message says what was expected and what was found) into err; never crashes, never leaks. */
int off_read(const char *path, OffData *out, char *err, size_t errlen);
void off_free(OffData *d);

/* Reads the velocity file of an input of np polygons (docs/model.md 7): lines "polygon vx vy"
   (polygon: 0-based, in the order of the OFF file's faces), '#' comments and blank lines as in
   OFF. Fills vx[p], vy[p] for p < np, 0 for the polygons it does not list. A polygon listed
   twice, an index out of range, a non-number, a rigid polygon (p < nrigid) given a velocity, or a
   speed of vmax or more is rejected like an OFF error ("path:line: message", everything 0). */
int off_read_velocities(const char *path, int np, int nrigid, double vmax, double *vx, double *vy,
                        char *err, size_t errlen);

#endif
