/* Output frames: one VTK XML PolyData file per frame, one polygon per cell (docs/model.md 7), and
 * the ParaView collection (.pvd) that lists the frames with their simulated times. ParaView
 * opens either; non-convex cells need Extract Surface + Triangulate to render filled. */
#ifndef PH_VTP_H
#define PH_VTP_H
#include <stddef.h>
#include <stdio.h>
#include "ensemble.h"

typedef struct VtpOptions {
    int ascii;              /* 1: human-readable numbers; 0: zlib-compressed binary (default) */
    double ka;              /* area stiffness, for the cell array pressure = -ka (A - A0) (with
                             * types' parameters, e->type_params, each type's own ka) */
    const int *neighbors;   /* cell array "neighbors" (NULL: all 0) */
    const char *meta;       /* free text for an XML comment at the top (version, parameters) */
    int types;              /* 1: write the cell array "type" (a build of several cell types) */
    const char *var_name[ENSEMBLE_MAX_VARS];   /* the cells' variables' arrays (e->nvar) */
} VtpOptions;

/* Writes the ensemble to path, atomically (atomic.h): the cell arrays of VTP_CELL_ARRAY_LIST and
 * one per cell variable (Float64, after them), the point array velocity, the field TIME. 0, or
 * -1 with "path: reason (strerror)" in err. */
int vtp_write(const char *path, const Ensemble *e, const VtpOptions *opt, char *err, size_t errlen);

/* The cell arrays of the frames in file order, X(name, VTK type, value of polygon p), the value
 * from e, opt, p and the polygon's vertices x[0..n-1], y[0..n-1]. The writer, vtp_cell_values
 * (--png-color) and the name lists all come from it: a new cell array is one line here. */
#define VTP_CELL_ARRAY_LIST(X) \
    X(id,          Int64,   e->id[p]) \
    X(parent,      Int64,   e->parent[p]) \
    X(generation,  Int32,   e->gen[p]) \
    X(age,         Float64, e->t - e->birth[p]) \
    X(area,        Float64, geom_area(x, y, n)) \
    X(target_area, Float64, e->A0[p]) \
    X(perimeter,   Float64, geom_perimeter(x, y, n)) \
    X(pressure,    Float64, -(e->type_params ? e->type_params[e->type[p]].ka : opt->ka) * \
                            (geom_area(x, y, n) - e->A0[p])) \
    X(neighbors,   Int32,   opt->neighbors ? opt->neighbors[p] : 0) \
    X(phase,       Int32,   e->phase[p]) \
    X(rigid,       UInt8,   e->rigid[p]) \
    X(attracted,   UInt8,   e->attracted[p]) \
    X(type,        Int32,   e->type[p])   /* (written only with VtpOptions.types) */

/* Their names, in that order, and their number. */
extern const char *const vtp_cell_arrays[];
#define VTP_COUNT(name, type, value) + 1
enum { VTP_CELL_ARRAYS = 0 VTP_CELL_ARRAY_LIST(VTP_COUNT) };
#undef VTP_COUNT

/* Whether cell array `name` holds integers (ids, counts, flags: coloured as categories). */
int vtp_cell_array_integer(const char *name);

/* The same names as one string, "id, parent, ...", for messages and help texts. */
const char *vtp_cell_array_list(void);

/* Fills out[p] with cell array `name` of every polygon, as in a frame; -1 if there is none. */
int vtp_cell_values(const Ensemble *e, const VtpOptions *opt, const char *name, double *out);

/* A frame of fields on a grid (VTK XML ImageData, .vti): narrays point arrays of nx * ny doubles
 * each, row by row from (x0, y0) with spacing dx, and the field TIME. */
typedef struct VtpImage {
    int nx, ny, narrays, ascii;
    double x0, y0, dx, t;
    const char *const *names;
    const double *const *data;
    const char *meta;
} VtpImage;

/* Writes it to path, atomically; 0, or -1 with err. */
int vtp_write_image(const char *path, const VtpImage *im, char *err, size_t errlen);

/* The collections ParaView opens: the frames (dir/frames.pvd listing frame%06d.vtp) and the
 * chemistry's fields (dir/fields.pvd listing frame%06d.vti). */
enum { VTP_FRAMES, VTP_FIELDS };

/* Writes collection `which` (atomically, but without fsync: an index, rewritten when needed)
 * listing n frames, numbered frame[k] (NULL: 0..n-1), at times t[k]. */
int vtp_write_collection(const char *dir, int which, int n, const int *frame, const double *t,
                         char *err, size_t errlen);

/* Adds frame k at time t to collection `which` over the file's closing lines, written again
 * after it: O(1) per frame. Not atomic: a run killed within these few bytes may leave the list
 * cut, and the next run or restart writes it whole. 0, or -1 with the reason in err. */
int vtp_append_collection(const char *dir, int which, int k, double t, char *err, size_t errlen);

#endif
