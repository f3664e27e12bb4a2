/* Chemotaxis (docs/model.md 11): 12 cells of radius 0.5, well apart (scripts/make_inputs.py
 * chemotaxis), in an attractant held at 0 on the left side and 1 on the right of a 20 x 6
 * rectangle, so that its steady profile is c = x / 20 (D large: it settles within t = 1). Every
 * cell is pushed along the gradient it senses, a force chi grad c on each vertex; the damping cv
 * turns it into a drift at v = chi |grad c| / cv = 5 * 0.05 / 10 = 0.025 L/T (internal forces sum
 * to zero, and the cells do not touch). What it shows: the drift, measured between t = 2 and 4,
 * against that prediction (tests/cli/chemistry.sh: within 20 %, and doubled with the gradient). */
#include "default.h"
#undef P_alpha_mu
#define P_alpha_mu  0.0       /* [L^2/T] no growth */
#undef P_Nf
#define P_Nf        40        /* frames after the initial one (t = 4) */
#undef P_NS
#define P_NS        1
#undef P_chem_x0
#define P_chem_x0   0.0
#undef P_chem_y0
#define P_chem_y0   0.0
#undef P_chem_x1
#define P_chem_x1   20.0
#undef P_chem_y1
#define P_chem_y1   6.0
#undef P_chem_dx
#define P_chem_dx   0.2

/* the attractant: D = 400, no degradation, 0 on the left side and 1 on the right, zero flux on the
 * bottom and top */
#define P_CHEM_SPECIES { { .name = "attractant", .D_in = 400.0, .D_out = 400.0, .k = 0.0, .c0 = 0.0, \
                           .bc = { [CHEM_LEFT] = CHEM_FIXED, [CHEM_RIGHT] = CHEM_FIXED }, .c_bc = { [CHEM_RIGHT] = 1.0 } } }

/* every cell is pushed up the gradient: chi = 5 [L^3/T^2] per unit of concentration gradient */
static inline void chemotaxis_response(const ChemCell *cell, ChemAct *act)
{
    act->fx = 5.0 * cell->gx[0];
    act->fy = 5.0 * cell->gy[0];
}
#define P_CHEM_RESPONSE chemotaxis_response
