/* Foam (paper Fig. 2F, Table 3): polydisperse bubbles with fixed area (ka = 1e7) and line tension,
 * weakly adhesive, settle under edge gravity into a wet foam (round bubbles, open gaps between
 * them) on the floor of an open rigid box.
 * Input: inputs/foam.off (scripts/make_inputs.py foam). make showcase NAME=foam */
#include "default.h"
#undef P_h
#define P_h         0.01      /* [L]     edge thickness */
#undef P_lmin
#define P_lmin      0.01      /* [L]     minimum edge length */
#undef P_lmax
#define P_lmax      0.04      /* [L]     maximum edge length */
#undef P_Q
#define P_Q         0.0       /* [-]     no target perimeter (kl = 0) */
#undef P_sh
#define P_sh        0.02      /* [L]     adhesion hardening zone */
#undef P_ss
#define P_ss        0.02      /* [L]     adhesion softening zone */
#undef P_alpha_mu
#define P_alpha_mu  0.0       /* [L^2/T] no growth */
#undef P_Amax_mu
#define P_Amax_mu   INFINITY  /* [L^2]   no division */
#undef P_ka
#define P_ka        1e7       /* [1/(L^2 T^2)] nearly incompressible bubbles */
#undef P_gamma
#define P_gamma     1e3       /* [L/T^2] line tension */
#undef P_kl
#define P_kl        0.0       /* [L/T^2] no edge elasticity */
#undef P_kh
#define P_kh        25.0      /* [1/T^2] weak adhesion (Table 3) */
#undef P_gl
#define P_gl        2.0       /* [L/T^2] edge gravity */
#undef P_cv
#define P_cv        0.1       /* [1/T]   little viscous damping */
#undef P_Nf
#define P_Nf        100       /* frames after the initial one (t = 10) */
#undef P_Nr
#define P_Nr        3         /* rigid: floor, left wall, right wall */
