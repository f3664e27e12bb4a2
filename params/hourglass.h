/* Hourglass (paper Fig. 2H, Table 3): thick, adhesive, frictional soft particles fall under edge
 * gravity through the neck of a rigid hourglass. Input: inputs/hourglass.off
 * (scripts/make_inputs.py): make PARAMS=params/hourglass.h && ./polyhoop inputs/hourglass.off */
#define P_h         0.04      /* [L]     edge thickness */
#define P_lmin      0.05      /* [L]     minimum edge length */
#define P_lmax      0.2       /* [L]     maximum edge length */
#define P_Q         1.0       /* [-]     target isoparametric ratio */
#define P_sh        0.02      /* [L]     adhesion hardening zone */
#define P_ss        0.02      /* [L]     adhesion softening zone */
#define P_theta     0.0       /* [-]     fusion threshold: off */
#define P_alpha_mu  0.0       /* [L^2/T] mean growth rate */
#define P_alpha_CV  0.0       /* [-]     its coefficient of variation */
#define P_beta      0.0       /* [-]     growth gate */
#define P_Amin      0.0       /* [L^2]   removal area */
#define P_Amax_mu   INFINITY  /* [L^2]   division area: no division */
#define P_Amax_CV   0.0       /* [-]     its coefficient of variation */
#define P_ka        1e5       /* [1/(L^2 T^2)] area stiffness */
#define P_gamma     1e4       /* [L/T^2] line tension */
#define P_kl        1e4       /* [L/T^2] edge rigidity */
#define P_kb        0.0       /* [L^3/T^2] bending rigidity */
#define P_kr        5e7       /* [1/T^2] repulsion stiffness */
#define P_kh        1e4       /* [1/T^2] adhesion stiffness */
#define P_mu        0.5       /* [-]     friction coefficient */
#define P_rho       0.0       /* [1/L^2] density difference */
#define P_g         0.0       /* [L/T^2] gravitational acceleration */
#define P_gl        10.0      /* [L/T^2] edge gravity */
#define P_cv        1.0       /* [1/T]   viscous damping */
#define P_cc        30.0      /* [1/T]   contact damping */
#define P_cd        0.0       /* [-]     drag coefficient */
#define P_dt        1e-4      /* [T]     time step */
#define P_Nf        100       /* frames */
#define P_Ns        1000      /* steps per frame */
#define P_Nr        3         /* rigid: left wall, right wall, floor */
#define P_att_x     0.0       /* [L]     attractor (off) */
#define P_att_y     0.0       /* [L] */
#define P_att_k     0.0       /* [L/T^2] */
#define P_att_n     0         /* [-] */
#define P_alpha_normal 0      /* [-]     lognormal growth rates */
#define P_D         0.0       /* [L^2/T] no noise */
#define P_v0        0.0       /* [L/T]   no activity */
#define P_Dr        0.0       /* [1/T] */
/* rate-driven division and death (docs/model.md 5.1): 0 = off */
#define P_k_div     0.0       /* [1/T]   division rate at A = Amax_mu (> 0: replaces division above Amax) */
#define P_n_div     0.0       /* [-]     area exponent: rate k_div (A / Amax_mu)^n_div */
#define P_k_death   0.0       /* [1/T]   death rate at zero pressure */
#define P_p_death   0.0       /* [L^2/T^2] pressure scale: rate k_death exp(p / p_death), p = ka (A0 - A); 0: constant */
/* projectiles passing a membrane (docs/model.md 5.2): 0 = off */
#define P_v_pass    0.0       /* [L/T]   approach speed above which a projectile passes a cell's hoop */
#define P_A_pass    0.0       /* [L^2]   the largest area of a projectile (larger polygons are cells) */
