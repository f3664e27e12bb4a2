/* Migration (paper Fig. 2B, Table 3): in a confluent, non-adhesive tissue that neither grows nor
 * divides, 20 cells drawn at random (the cell array `attracted`) are pulled towards the centre by
 * a radial attractor and squeeze through the others (chemotaxis). The table leaves the pull open:
 * att_k = 200 per vertex gives a free cell the speed att_k / cv = 10; in the tissue the marked
 * cells move about 1 L/T and gather at the centre within 15 time units (measured: their mean
 * distance from it fell from 17.1 to 12.1 by t = 5, 3.9 by t = 15 and 2.7 by t = 20). With
 * att_k = 20 it fell by 0.03 in 20 time units: the confined tissue holds a cell pulled by 20 per
 * vertex in place. Without adhesion (Table 3: kh = 0) a free
 * tissue of these cells, whose rest perimeters are circles' (Q = 1), rounds them into loose discs
 * within a time unit; a rigid ring around it (Nr = 1) holds it confluent, as the paper's Fig. 2B
 * shows it. Input: scripts/make_tissue.py 1000 --wall (made by make showcase NAME=migration). */
#include "default.h"
#undef P_lmax
#define P_lmax      0.1       /* [L]     maximum edge length */
#undef P_alpha_mu
#define P_alpha_mu  0.0       /* [L^2/T] no growth */
#undef P_Amax_mu
#define P_Amax_mu   INFINITY  /* [L^2]   no division */
#undef P_gamma
#define P_gamma     1e4       /* [L/T^2] line tension */
#undef P_kl
#define P_kl        1e5       /* [L/T^2] edge (tensile) rigidity */
#undef P_kh
#define P_kh        0.0       /* [1/T^2] no adhesion */
#undef P_sh
#define P_sh        0.0
#undef P_ss
#define P_ss        0.0
#undef P_cv
#define P_cv        20.0      /* [1/T]   viscous damping */
#undef P_Nr
#define P_Nr        1         /* the rigid ring around the tissue */
#undef P_att_k
#define P_att_k     200.0     /* [L/T^2] the pull (chosen here: the table leaves it open) */
#undef P_att_n
#define P_att_n     20        /* [-]     cells that feel it */
#undef P_Nf
#define P_Nf        200       /* frames after the initial one (t = 20) */
