/* The variables each cell carries (docs/model.md 11): nvar numbers per polygon (Ensemble.var),
 * named by the header's P_CELL_VARS, set at birth, passed on at division and fusion, changed by
 * the response rule at each chemical step (chem.c), and kept in checkpoints and frames. The rules
 * of ChemModel (cell_init, divide, fuse) see a cell as ChemCell (cells_view); a value they give
 * that is not finite stops the run at the end of the step, naming the cell (cells_bad). */
#ifndef PH_CELLS_H
#define PH_CELLS_H
#include "chem.h"
#include "ensemble.h"

/* Binds the model's variables to e (nvar, a new polygon's values, the rules): before polygons are
 * added, and again after a checkpoint's read has made e anew. */
void cells_bind(Ensemble *e, const ChemModel *m);

/* The variables of polygon p of the input: the inits, then the model's cell_init. */
void cells_born(Ensemble *e, int p, double ka);

/* After polygon m divided (or split) into p and q (m may be p), with target areas ap and aq:
 * each daughter's variables from m's (copied, or split by area), then the divide rule. */
void cells_divide(Ensemble *e, int m, int p, int q, double ap, double aq, double ka);

/* After polygons x and y (areas ax, ay) fused into q: its variables, the area-weighted mean (sum
 * for amounts) of theirs, then the fuse rule. */
void cells_fuse(Ensemble *e, int x, int y, int q, double ax, double ay, double ka);

/* The first polygon whose variables a rule made non-finite since the last call (its id and the
 * rule's name into buf), or 0; forgets it. */
int cells_bad(Ensemble *e, char *buf, size_t len);

#endif
