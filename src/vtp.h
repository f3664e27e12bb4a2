/* Output frames: one VTK XML PolyData file per frame, one polygon per cell (SPEC section 7), and
 * the ParaView collection (.pvd) that lists the frames with their simulated times. ParaView
 * opens either; non-convex cells need Extract Surface + Triangulate to render filled. */
#ifndef PH_VTP_H
#define PH_VTP_H
#include <stddef.h>
#include <stdio.h>
#include "ensemble.h"

typedef struct VtpOptions {
    int ascii;              /* 1: human-readable numbers; 0: zlib-compressed binary (default) */
    double ka;              /* area stiffness, for the cell array pressure = -ka (A - A0) */
    const int *neighbors;   /* cell array "neighbors" (NULL: all 0) */
    const char *meta;       /* free text for an XML comment at the top (version, parameters) */
} VtpOptions;

/* Writes the ensemble to path, atomically: the data go to "<path>.tmp", are flushed and synced,
 * then renamed to path, so a killed run never leaves a truncated frame. Cell arrays: id, parent,
 * generation, age, area, target_area, perimeter, pressure, neighbors, phase, rigid; point array
 * velocity; field TIME. Returns 0, or -1 with "path: reason (strerror)" in err (no file named
 * path is then created or changed, and the .tmp is removed). */
int vtp_write(const char *path, const Ensemble *e, const VtpOptions *opt, char *err, size_t errlen);

/* The cell arrays of the frames, by name, in the order of the file. */
extern const char *const vtp_cell_arrays[];
enum { VTP_CELL_ARRAYS = 11 };

/* Fills out[p] with cell array `name` of every polygon (as written into a frame). Returns 0, or
 * -1 if there is no cell array of that name. */
int vtp_cell_values(const Ensemble *e, const VtpOptions *opt, const char *name, double *out);

/* Writes dir/frames.pvd (atomically, but without fsync: an index, rewritten with every frame)
 * listing dir/frame%06d.vtp for frames 0..n-1 at times t[k]. */
int vtp_write_collection(const char *dir, int n, const double *t, char *err, size_t errlen);

#endif
