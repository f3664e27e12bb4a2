/* Projectiles (after Campello & Zohdi 2014, particle-bombardment delivery into a cell): a jet of
 * small stiff particles shot at a large cell whose hoop is its membrane, with drag (cv) and a
 * rigid wall behind the cell that keeps it in place. A particle that reaches the membrane faster
 * than v_pass passes into the cell, a slower one bounces (docs/model.md 5.2). Lengths in units of
 * the cell's radius (their small cell of 100 nm: L = 50 nm), times in T = L / (50 nm/ns) = 1 ns:
 * their jet speeds of 50, 100 and 150 nm/ns are 1, 2 and 3 L/T. Input: scripts/make_inputs.py
 * projectiles (and its velocity file). make showcase NAME=projectiles
 *
 * The particles are cell type 1 (z = 3 in the input), with parameters of their own
 * (docs/model.md 11); the wall and the cell are type 0, with the header's. With the cell's, a
 * particle (an octagon of radius r = 0.04: n = 8 vertices, edges l = 2 r sin(pi/8) = 0.031, area
 * A = 0.0045) was crushed by its own line tension: gamma / r = 2.5e4 presses on its hoop, which
 * ka = 1e5 could hold only at A0 - A = gamma / (ka r) = 0.25, 55 times its area; it lost half its
 * area within 0.25 T and, its edges held by kl and nothing against bending, crumpled into a star.
 * Type 1 is a solid particle:
 *   gamma = 0: no line tension, and Q = 8 tan(pi/8) / pi = 1.0548, the regular octagon's own
 *     L^2 / (4 pi A), so that the input's octagon is its rest shape (no force at rest);
 *   ka and kl from the impacts: a particle of mass n at v <= 3 L/T is stopped by the repulsion
 *     kr = 1e7 within about pi/2 sqrt(n / kr) = 1.4e-3 T (14 steps), with a force up to
 *     v sqrt(kr n) = 2.7e4 on its front. It keeps its shape if its own modes are faster than that
 *     contact, omega^2 > kr: its breathing, omega^2 = ka |dA/dr|^2 with
 *     |dA/dr|^2 = n (r sin(2 pi / n))^2 = 6.4e-3, and the zigzag of its edges, 4 kl / l. And
 *     dt = 1e-4 must stay within half the stability limit, omega^2 < 1 / dt^2 = 1e8 (the limit is
 *     4 / dt^2; docs/model.md 3), the edges counted at lmin = 0.02 as the program's estimate does.
 *     Between the two: ka = 1e10 (omega^2 = 6.4e7) and kl = 5e5 (4 kl / lmin = 1e8; 6.5e7 at its
 *     edges). A front vertex pushed in by d then meets ka (dA/dr_i)^2 + 2 kl sin^2(pi/8) / l
 *     = 1.3e7 d, so the impact's force moves it at most 2e-3 (5 % of r) and changes the area by at
 *     most 1.3 % (measured over the run: area within 0.32 %, perimeter within 0.49 %, every
 *     particle convex);
 *   kb = 0: without tension nothing compresses the hoop, and at fixed edge lengths the regular
 *     octagon is the largest, so ka and kl together hold it convex. */
#include "default.h"
#undef P_lmin
#define P_lmin      0.02      /* [L]     minimum edge length */
#undef P_lmax
#define P_lmax      0.05      /* [L]     maximum edge length (the membrane: 158 vertices, as the input draws them) */
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
/* the particles: cell type 1, solid and stiff (see above); type 0, the wall and the cell, the header's */
#undef P_ntypes
#define P_ntypes    2
#define P_TYPE_ka    { 1e5, 1e10 }    /* [1/(L^2 T^2)] area stiffness */
#define P_TYPE_gamma { 1e3, 0.0 }     /* [L/T^2] line tension: none in a solid particle */
#define P_TYPE_kl    { 1e4, 5e5 }     /* [L/T^2] edge rigidity */
#define P_TYPE_Q     { 1.0, 1.0548 }  /* [-]     rest isoparametric ratio: the regular octagon's, 8 tan(pi/8) / pi */
