/* Projectiles (after Campello & Zohdi 2014, particle-bombardment delivery into a cell): a jet of
 * small stiff particles shot at a large cell whose hoop is its membrane, with drag (cv) and a
 * rigid wall behind the cell that keeps it in place. A particle that reaches the membrane faster
 * than v_pass passes into the cell, a slower one bounces (docs/model.md 5.2). Lengths in units of
 * the cell's radius (their small cell of 100 nm: L = 50 nm), times in T = L / (50 nm/ns) = 1 ns:
 * their jet speeds of 50, 100 and 150 nm/ns are 1, 2 and 3 L/T. Input: scripts/make_inputs.py
 * projectiles (and its velocity file). make showcase NAME=projectiles */
#include "default.h"
#undef P_lmin
#define P_lmin      0.02      /* [L]     minimum edge length */
#undef P_lmax
#define P_lmax      0.05      /* [L]     maximum edge length (a membrane of about 130 vertices) */
#undef P_alpha_mu
#define P_alpha_mu  0.0       /* [L^2/T] no growth */
#undef P_Amax_mu
#define P_Amax_mu   INFINITY  /* [L^2]   no division */
#undef P_kh
#define P_kh        0.0       /* [1/T^2] no adhesion: a slow particle bounces off */
#undef P_cv
#define P_cv        2.0       /* [1/T]   drag of the medium: a particle stops within v / cv */
#undef P_Nf
#define P_Nf        60        /* frames after the initial one (t = 1.5) */
#undef P_Ns
#define P_Ns        250       /* steps per frame */
#undef P_Nr
#define P_Nr        1         /* rigid: the wall behind the cell */
#undef P_v_pass
#define P_v_pass    1.5       /* [L/T]   normal speed at contact above which a particle passes the membrane */
#undef P_A_pass
#define P_A_pass    0.05      /* [L^2]   the largest polygon that can pass (the particles: 0.005) */
