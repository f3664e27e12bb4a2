/* Hourglass (paper Fig. 2H, Table 3): about 1,000 thick, adhesive, frictional soft particles
 * fall under edge gravity through the neck of a rigid hourglass with curved walls. Input:
 * inputs/hourglass.off (scripts/make_inputs.py): make PARAMS=params/hourglass.h && ./polyhoop
 * inputs/hourglass.off */
#include "default.h"
#undef P_h
#define P_h         0.04      /* [L]     edge thickness */
#undef P_lmin
#define P_lmin      0.05      /* [L]     minimum edge length */
#undef P_sh
#define P_sh        0.02      /* [L]     adhesion hardening zone */
#undef P_ss
#define P_ss        0.02      /* [L]     adhesion softening zone */
#undef P_alpha_mu
#define P_alpha_mu  0.0       /* [L^2/T] mean growth rate */
#undef P_Amax_mu
#define P_Amax_mu   INFINITY  /* [L^2]   division area: no division */
#undef P_gamma
#define P_gamma     1e4       /* [L/T^2] line tension */
#undef P_kr
#define P_kr        5e7       /* [1/T^2] repulsion stiffness */
#undef P_kh
#define P_kh        1e4       /* [1/T^2] adhesion stiffness */
#undef P_mu
#define P_mu        0.5       /* [-]     friction coefficient */
#undef P_gl
#define P_gl        10.0      /* [L/T^2] edge gravity */
#undef P_cv
#define P_cv        1.0       /* [1/T]   viscous damping */
#undef P_Nr
#define P_Nr        3         /* rigid: left wall, right wall, floor */
#undef P_Nf
#define P_Nf        300       /* frames after the initial one (t = 30) */
