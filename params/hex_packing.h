/* Hexagonal packing (paper Fig. 4C/D, Table 3): cells of radius 1 in hexagonal close packing,
 * 0.01 apart, adhesive, in a rigid box (4 walls), grow past the lattice cell's area and press one
 * another into hexagons: every interior cell has six neighbours and the shape index L / sqrt(A)
 * of a regular hexagon, 3.72 (a circle has 3.54). Cells of area pi in a lattice whose cell has
 * 2 sqrt(3) (1 + h/2)^2 = 3.50 only touch at points; so they grow (alpha) while A / A0 > beta =
 * 0.9, which stops at A0 = A / 0.9, about 3.9, and leaves them pressed at p = ka (A0 - A) = 4e4,
 * enough against the line tension gamma to fill the junctions down to a radius gamma / p of
 * about h. It starts from the benchmark of make bench (params/hex.h: the defaults without growth
 * or division) and sets what Table 3 changes, but for three values. Table 3's Q reads 24/sqrt(3),
 * which is L^2/A of a regular hexagon; the isoparametric ratio L^2/(4 pi A) of a hexagon,
 * 2 sqrt(3)/pi, is taken here. Its gamma = 1e5 against ka = 1e4 crushes a cell of radius 1
 * (tension outweighs any pressure the area term can build: the run blows up within 100 steps), so
 * gamma stays at the default 1e3, and ka at the default 1e5 (with 1e4 the pressure would need a
 * target area twice the cell's). Input: scripts/make_inputs.py hex_packing (made by make showcase
 * NAME=hex_packing). */
#include "hex.h"
#undef P_Q
#define P_Q         1.1026577908435842  /* [-] 2 sqrt(3)/pi: a regular hexagon */
#undef P_alpha_mu
#define P_alpha_mu  1.0       /* [L^2/T] growth rate, while A / A0 > beta */
#undef P_beta
#define P_beta      0.9       /* [-]     growth stops at A0 = A / 0.9 */
#undef P_Nr
#define P_Nr        4         /* rigid walls: floor, lid, left, right */
#undef P_cv
#define P_cv        2.0       /* [1/T]   viscous damping */
#undef P_Nf
#define P_Nf        20        /* frames after the initial one (t = 2) */
