/* Floppy particles (paper Fig. 2D, Table 3): close-packed polydisperse particles whose target
 * perimeter is sqrt(3) times that of a circle of their area (Q = 3). Line elasticity (kl) drives
 * the boundaries to that length against weak bending, mild compressibility and almost no
 * adhesion, without line tension: they fold into interlocked, puzzle-like shapes. Table 3's row
 * lacks one of alpha and Amin (both 0 here) and gives lmin = 0.02, lmax = 0.04, which breaks
 * lmax > 2 lmin; lmax = 0.05 here. Its adhesion zone sh = ss = 0.2 is narrowed to 0.02: at 0.2
 * every vertex tests about 50 edges, ten times slower, for an adhesion (kh = 1) that nothing
 * feels. Input: scripts/make_inputs.py floppy (made by make showcase
 * NAME=floppy). */
#include "default.h"
#undef P_h
#define P_h         0.02      /* [L]     edge thickness */
#undef P_lmin
#define P_lmin      0.02      /* [L]     minimum edge length */
#undef P_lmax
#define P_lmax      0.05      /* [L]     maximum edge length (Table 3: 0.04 = 2 lmin, not allowed) */
#undef P_Q
#define P_Q         3.0       /* [-]     excess perimeter */
#undef P_sh
#define P_sh        0.02      /* [L]     adhesion hardening zone (Table 3: 0.2; see above) */
#undef P_ss
#define P_ss        0.02      /* [L]     adhesion softening zone (Table 3: 0.2) */
#undef P_alpha_mu
#define P_alpha_mu  0.0       /* [L^2/T] no growth */
#undef P_Amax_mu
#define P_Amax_mu   INFINITY  /* [L^2]   no division */
#undef P_gamma
#define P_gamma     0.0       /* [L/T^2] no line tension */
#undef P_kl
#define P_kl        1e5       /* [L/T^2] edge (tensile) rigidity */
#undef P_kb
#define P_kb        1.0       /* [L^3/T^2] weak bending rigidity */
#undef P_kh
#define P_kh        1.0       /* [1/T^2] weak adhesion */
#undef P_Nf
#define P_Nf        50        /* frames after the initial one (t = 5) */
