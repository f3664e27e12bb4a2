/* Emulsion (paper Fig. 2G, Table 3): drops of two phases in a rigid box rise or sink by
 * buoyancy, fuse on contact (theta) and form nested drops. Input: inputs/emulsion.off
 * (scripts/make_inputs.py): make PARAMS=params/emulsion.h && ./polyhoop inputs/emulsion.off */
#include "default.h"
#undef P_lmin
#define P_lmin      0.01      /* [L]     minimum edge length */
#undef P_lmax
#define P_lmax      0.03      /* [L]     maximum edge length */
#undef P_Q
#define P_Q         0.0       /* [-]     target isoparametric ratio (no edge elasticity) */
#undef P_sh
#define P_sh        0.0       /* [L]     adhesion hardening zone */
#undef P_ss
#define P_ss        0.0       /* [L]     adhesion softening zone */
#undef P_theta
#define P_theta     0.85      /* [-]     fusion threshold */
#undef P_alpha_mu
#define P_alpha_mu  0.0       /* [L^2/T] mean growth rate */
#undef P_Amax_mu
#define P_Amax_mu   INFINITY  /* [L^2]   division area: no division */
#undef P_ka
#define P_ka        1e7       /* [1/(L^2 T^2)] area stiffness */
#undef P_gamma
#define P_gamma     1e2       /* [L/T^2] line tension */
#undef P_kl
#define P_kl        0.0       /* [L/T^2] edge rigidity */
#undef P_kr
#define P_kr        1e5       /* [1/T^2] repulsion stiffness */
#undef P_kh
#define P_kh        0.0       /* [1/T^2] adhesion stiffness */
#undef P_rho
#define P_rho       1e3       /* [1/L^2] density difference inside - outside */
#undef P_g
#define P_g         1.0       /* [L/T^2] gravitational acceleration */
#undef P_cv
#define P_cv        1.0       /* [1/T]   viscous damping */
#undef P_cd
#define P_cd        1.0       /* [-]     drag coefficient */
#undef P_Nr
#define P_Nr        4         /* rigid walls: floor, lid, left, right */
#undef P_Nf
#define P_Nf        200       /* frames after the initial one (t = 20) */
