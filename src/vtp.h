/* Output frames: one VTK XML PolyData file (ASCII) per frame, one polygon per cell (SPEC section 7).
 * ParaView opens a numbered series of these directly; non-convex cells need Extract Surface +
 * Triangulate to render filled. */
#ifndef PH_VTP_H
#define PH_VTP_H
#include <stddef.h>
#include "ensemble.h"

/* Writes the ensemble as one VTK XML PolyData file (ASCII), atomically: the data go to
 * "<path>.tmp", are flushed (fflush + fsync) and renamed to path, so a killed run never leaves a
 * truncated frame. neighbors[p] is the cell array "neighbors" (may be NULL -> all 0).
 * meta is free text (program version, parameter values...; may be NULL) written into an XML
 * comment right after the <?xml ...?> line ("--" is broken up so the comment stays valid).
 * Returns 0, or -1 with "path: reason (strerror)" in err; on failure no file named path is
 * created or half-written and the .tmp is removed. */
int vtp_write(const char *path, const Ensemble *e, const int *neighbors, const char *meta,
              char *err, size_t errlen);

#endif
