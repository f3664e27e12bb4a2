/* The OFF reader: turns a GeomView OFF file (docs/model.md 7) into polygons, counter-clockwise,
 * with their phase (+1 for odd z, -1 for even z). Every malformed input is rejected with
 * "path:line: what was expected, what was found" (or "path: why"); on failure *out is left empty,
 * so off_free on it is always safe. */
#ifndef PH_OFF_H
#define PH_OFF_H
#include <stddef.h>
#include <stdint.h>

/* A polygon: the cell type of its first vertex, floor(z / 2) (0 for negative z), and another
 * type one of its vertices gives, or -1 (a one-type build ignores both); line: its face line */
typedef struct OffPolygon {
    int n; double *x, *y; int phase; int64_t type, other_type; int line;
} OffPolygon;
typedef struct OffData { int np; OffPolygon *poly; } OffData;
/* Returns 0, or -1 with the message in err. */
int off_read(const char *path, OffData *out, char *err, size_t errlen);
void off_free(OffData *d);

/* Reads the velocity file of an input of np polygons (docs/model.md 7): lines "polygon vx vy"
 * (0-based, in the OFF file's order), comments as in OFF; vx, vy 0 for the polygons it does not
 * list. A polygon listed twice, an index out of range, a non-number, a velocity for a rigid
 * polygon (p < nrigid) or a speed of vmax or more is rejected like an OFF error. */
int off_read_velocities(const char *path, int np, int nrigid, double vmax, double *vx, double *vy,
                        char *err, size_t errlen);

#endif
