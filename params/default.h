/* Default parameters (paper Table 2, docs/model.md 8): one cell of unit radius grows
 * into an epithelial tissue. Units: L length, T time, masses normalised (vertex mass m = 1), so
 * every force below is an acceleration. Copy this file to make a scenario and build it with
 * `make PARAMS=params/yours.h`. The constraints are checked at compile time (src/params.c). */

/* geometry */
#define P_h         0.01      /* [L]     edge (hoop) thickness, > 0 */
#define P_lmin      0.02      /* [L]     minimum edge length, >= 0 */
#define P_lmax      0.2       /* [L]     maximum edge length, > 2 lmin */
#define P_Q         1.0       /* [-]     target isoparametric ratio L0^2 / (4 pi A0), > 0 */
#define P_sh        0.01      /* [L]     adhesion hardening zone, >= 0 */
#define P_ss        0.01      /* [L]     adhesion softening zone, >= 0 */
#define P_theta     0.0       /* [-]     fusion threshold in [0, 1]; 0 = off */

/* growth, removal and division */
#define P_alpha_mu  1.0       /* [L^2/T] mean area growth rate */
#define P_alpha_CV  0.0       /* [-]     its coefficient of variation (0 = exact) */
#define P_alpha_normal 0      /* [-]     1: growth rates normal, sd alpha_CV |alpha_mu|, negatives kept (paper Fig. 2A); 0: lognormal */
#define P_beta      0.0       /* [-]     grow only while A/A0 > beta (shrink always); 0 = always */
#define P_Amin      0.0       /* [L^2]   polygons smaller than this are removed */
#define P_Amax_mu   3.14159265358979323846  /* [L^2] mean division area (pi) */
#define P_Amax_CV   0.0       /* [-]     its coefficient of variation (lognormal) */

/* material */
#define P_ka        1e5       /* [1/(L^2 T^2)] area stiffness */
#define P_gamma     1e3       /* [L/T^2] line tension */
#define P_kl        1e4       /* [L/T^2] edge (tensile) rigidity */
#define P_kb        0.0       /* [L^3/T^2] bending rigidity */
#define P_kr        1e7       /* [1/T^2] repulsion stiffness */
#define P_kh        1e6       /* [1/T^2] adhesion stiffness */
#define P_mu        0.0       /* [-]     dynamic Coulomb friction coefficient */
#define P_rho       0.0       /* [1/L^2] density difference inside - outside */

/* other */
#define P_g         0.0       /* [L/T^2] gravitational acceleration (hydrostatic pressure) */
#define P_gl        0.0       /* [L/T^2] edge gravitational acceleration */
#define P_cv        10.0      /* [1/T]   viscous damping */
#define P_cc        30.0      /* [1/T]   contact damping */
#define P_cd        0.0       /* [-]     drag coefficient */
#define P_dt        1e-4      /* [T]     time step */

/* run */
#define P_Nf        100       /* frames written after the initial one */
#define P_Ns        1000      /* steps per frame */
#define P_Nr        0         /* the first Nr polygons of the input are rigid */
/* attractor (paper Fig. 2B): att_n polygons drawn at random are pulled towards (att_x, att_y) */
#define P_att_x     0.0       /* [L]     attractor position */
#define P_att_y     0.0       /* [L] */
#define P_att_k     0.0       /* [L/T^2] pull on each vertex (potential att_k sqrt(d^2 + h^2)); 0 = off */
#define P_att_n     0         /* [-]     polygons that feel it */
/* noise and activity (docs/model.md 3.1): all 0 = a deterministic run */
#define P_D         0.0       /* [L^2/T] vertex diffusion constant: each vertex gets a random force cv sqrt(2 D / dt) N(0, 1) per component and step */
#define P_v0        0.0       /* [L/T]   self-propulsion speed: each vertex is pushed with cv v0 along its polygon's polarity */
#define P_Dr        0.0       /* [1/T]   rotational diffusion of the polarity (persistence length v0 / Dr) */
/* rate-driven division and death (docs/model.md 5.1): 0 = off */
#define P_k_div     0.0       /* [1/T]   division rate at A = Amax_mu (> 0: replaces division above Amax) */
#define P_n_div     0.0       /* [-]     area exponent: rate k_div (A / Amax_mu)^n_div */
#define P_k_death   0.0       /* [1/T]   death rate at zero pressure */
#define P_p_death   0.0       /* [1/T^2] pressure scale: rate k_death exp(p / p_death), p = ka (A0 - A); 0: constant */
/* projectiles passing a membrane (docs/model.md 5.2): 0 = off */
#define P_v_pass    0.0       /* [L/T]   approach speed above which a projectile passes a cell's hoop */
#define P_A_pass    0.0       /* [L^2]   the largest area of a projectile (larger polygons are cells) */
/* box walls (docs/model.md 2): a vertex of a movable polygon d beyond a wall's line is pushed back
 * with box_k d (energy box_k d^2 / 2); a side at -INFINITY (x0, y0) or INFINITY (x1, y1) has no
 * wall, and with all four there, the default, there is no box. The input's movable polygons must
 * lie inside it. */
#define P_box_x0    (-INFINITY)  /* [L]   left wall: x >= box_x0 */
#define P_box_y0    (-INFINITY)  /* [L]   bottom wall: y >= box_y0 */
#define P_box_x1    INFINITY  /* [L]     right wall: x <= box_x1 */
#define P_box_y1    INFINITY  /* [L]     top wall: y <= box_y1 */
#define P_box_k     P_kr      /* [1/T^2] the walls' stiffness; default: kr, the repulsion's (the header's kr, also when it changes kr) */
/* cell types and chemical species (docs/model.md 11): one type and no species = off, and nothing of
 * it runs. An input's vertex z gives the phase (odd: +1) and the type, z = 2 type + phase bit. */
#define P_ntypes    1         /* [-]     cell types 0 .. ntypes - 1; > 1 writes the cell array `type` */
#define P_NS        0         /* [-]     chemical species on the grid, 0 .. 8; 0 = off */
#define P_chem_x0   -10.0     /* [L]     the grid's rectangle: x0, y0, x1, y1 */
#define P_chem_y0   -10.0
#define P_chem_x1   10.0
#define P_chem_y1   10.0
#define P_chem_dx   0.1       /* [L]     grid spacing (x1 - x0 and y1 - y0 whole numbers of it) */
#define P_chem_max_substeps 100  /* [-]  most solver sub-steps per chemical step (more: refused at start) */
#define P_chem_every 1        /* [-]     time steps per chemical step: the fields advance, and the cells sense
                               *          and respond, once every chem_every steps (docs/model.md 11) */
/* With P_NS > 0 a header also defines, as params/gradient.h shows:
 *   P_CHEM_SPECIES  { { .name = "m", .D_in = ..., .D_out = ..., .k = ..., .c0 = ..., .bc = {...}, .c_bc = {...} }, ... }
 *                   (.advect = 1: carried and diluted by the cells' motion; default 0: at rest)
 *   P_CHEM_REACTION the name of a function double f(int s, const double *c, int type): the reaction
 *                   rate of species s at a node (default: none)
 *   P_CHEM_RESPONSE the name of a function void f(const ChemCell *cell, ChemAct *act): a cell's
 *                   response to what it senses (default: none)
 *   P_CHEM_INIT     the name of a function double f(int s, double x, double y): the initial
 *                   concentration of species s at the node (x, y) (default: c0 everywhere)
 *   P_CHEM_REACTION_CELL  in place of P_CHEM_REACTION, double f(int s, const double *c, int type,
 *                   const double *v): v, the covering cell's variables (NULL: no cell there)
 * and for variables that each cell carries (docs/usage.md "Writing a model"):
 *   P_CELL_VARS     { { .name = "delta", .init = 0.0, .split = 0 }, ... }: up to 16
 *   P_CELL_INIT, P_CELL_DIVIDE, P_CELL_FUSE  rules for a cell's variables at birth, division, fusion
 *   P_CELL_CONTACTS 1: rules see their neighbours (counts, contact lengths, neighbours' means)
 * and with P_ntypes > 1, per cell type (docs/model.md 11; the values above for all types otherwise):
 *   P_TYPE_ka, P_TYPE_gamma, P_TYPE_kl, P_TYPE_kb, P_TYPE_Q, P_TYPE_alpha_mu, P_TYPE_Amax_mu,
 *   P_TYPE_v0, P_TYPE_cv   { value of type 0, of type 1, ... } (cv: the type's viscous damping,
 *               and with it its noise cv sqrt(2 D / dt) and push cv v0)
 *   P_TYPE_kh   { { kh of types 0-0, 0-1, ... }, { 1-0, 1-1, ... }, ... }: symmetric, at most P_kh
 *   P_TYPE_mu   { { mu of types 0-0, 0-1, ... }, { 1-0, 1-1, ... }, ... }: Coulomb friction in place
 *               of P_mu, symmetric, >= 0 */
