/* Growing epithelial tissue (paper Fig. 2A, Table 3): from one cell, growth rates drawn per cell
 * from a normal distribution with mean and standard deviation 1 (negative rates kept: those
 * cells shrink), removal below Amin = 0.1 (apoptosis), division at Amax = pi. With seed 1 the
 * tissue has 121 cells at t = 25 (143 divisions, 23 removals); the paper shows about 1,000 (run
 * longer with -n; stop with --max-cells). Input: inputs/ensemble.off. make showcase NAME=tissue */
#include "default.h"
#undef P_alpha_mu
#define P_alpha_mu  1.0       /* [L^2/T] mean growth rate */
#undef P_alpha_CV
#define P_alpha_CV  1.0       /* [-]     standard deviation / mean */
#undef P_alpha_normal
#define P_alpha_normal 1      /* [-]     normal, negatives kept */
#undef P_Amin
#define P_Amin      0.1       /* [L^2]   removal area */
#undef P_gamma
#define P_gamma     1e4       /* [L/T^2] cortical (line) tension */
#undef P_cv
#define P_cv        20.0      /* [1/T]   viscous damping */
#undef P_Nf
#define P_Nf        250       /* frames after the initial one (t = 25) */
