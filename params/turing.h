/* A Turing pattern (docs/model.md 11.1): Schnakenberg's activator u and inhibitor v on a static
 * tissue of 621 cells of radius 0.25 (scripts/make_inputs.py turing) covering the square
 * [0, 12]^2, zero flux on every side:
 *     du/dt = Du lap u + f(u, v),   f = gamma (a - u + u^2 v)
 *     dv/dt = Dv lap v + g(u, v),   g = gamma (b - u^2 v)
 * with a = 0.1, b = 0.9 [1/L^2], gamma = 120 [1/T], Du = 2 and Dv = 24 [L^2/T] (u, v in units
 * where the kinetics' coefficients are 1).
 * Homogeneous steady state: f = g = 0 gives u* = a + b = 1, v* = b / (a + b)^2 = 0.9.
 * Jacobian there: f_u = gamma (2 u* v* - 1) = gamma (b - a) / (a + b) = 0.8 gamma,
 * f_v = gamma u*^2 = gamma, g_u = -2 gamma u* v* = -1.8 gamma, g_v = -gamma u*^2 = -gamma.
 * Without diffusion it is stable: tr J = -0.2 gamma = -24 < 0, det J = gamma^2 = 14400 > 0.
 * A mode exp(i k.x + lambda t) of the linearised system has lambda an eigenvalue of
 * J - q diag(Du, Dv), q = |k|^2: lambda^2 - tau(q) lambda + delta(q) = 0 with
 * tau = tr J - (Du + Dv) q < 0 and
 *     delta(q) = Du Dv q^2 - A q + det J,   A = Dv f_u + Du g_v = 17.2 gamma = 2064.
 * A mode grows where delta(q) < 0 (tau stays negative), which needs (Turing's conditions) A > 0
 * and A^2 > 4 Du Dv det J: with d = Dv / Du, (0.8 d - 1)^2 > 4 d, d > 8.57; here d = 12. The
 * band of unstable wavenumbers is q- < q < q+, q+- = (A +- sqrt(A^2 - 4 Du Dv det J)) / (2 Du Dv)
 * = 8.762 and 34.24: k from 2.960 to 5.851, wavelengths 2 pi / k from 1.074 to 2.123.
 * The fastest growing mode: d lambda / dq = 0 in the quadratic gives (Du + Dv) lambda = A -
 * 2 Du Dv q; with it, q drops out and lambda* is the smaller root of
 *     (Dv - Du)^2 lambda^2 - 2 (A (Du + Dv) - 2 Du Dv tr J) lambda + A^2 - 4 Du Dv det J = 0,
 * lambda* = 14.23 [1/T], q* = (A - (Du + Dv) lambda*) / (2 Du Dv) = 17.64:
 * k* = 4.201 [1/L], wavelength 2 pi / k* = 1.496 L, eight across the square.
 * The grid (dx = 0.1, 121 x 121 nodes) resolves it with 15 nodes per wavelength (the five-point
 * Laplacian's -k^2 is short by k^2 dx^2 / 12 = 1.5 %). The start is the steady state with a
 * deterministic perturbation of 1 % (uniform in [-1, 1] %, a hash of the node and species), so
 * every wavenumber starts alike and the band grows out of it at up to lambda*; the spots
 * saturate by t = 0.6.
 * The reaction is the same inside and outside the cells (type not used) and Du, Dv do not
 * depend on the cover: the tissue is the medium, homogeneous at the grid's scale, so the analysis
 * above holds for it as it stands (with a reaction only in cells, the 9 % of the nodes between
 * round cells would be a second, passive medium). The cells read the pattern: a cell whose
 * sampled u is above u* takes type 1 (the spots in the cells' colours, --png-color type), below
 * it type 0; types change nothing else. No growth, and a line tension of 100 (the default 1000
 * squeezes cells this small by 13 %), so the tissue stays at rest.
 * What it shows: the dominant wavelength of u, 1.467 while the modes grow (t = 0.2 to 0.4), 1.418
 * at t = 0.8 (-5 %; tests/cli/chem_showcases.sh: within 15 % of 2 pi / k*, and the pattern's
 * amplitude 76 times the perturbation's), drifting to 1.382 by t = 2 as the spots rearrange. */
#include "default.h"
#include "rng.h"
#undef P_alpha_mu
#define P_alpha_mu  0.0       /* [L^2/T] no growth */
#undef P_gamma
#define P_gamma     100.0     /* [L/T^2] line tension */
#undef P_Nf
#define P_Nf        20        /* frames after the initial one (t = 2) */
#undef P_ntypes
#define P_ntypes    2         /* 0: u below u*, 1: above */
#undef P_NS
#define P_NS        2
#undef P_chem_x0
#define P_chem_x0   0.0       /* [L] the grid: the tissue's square */
#undef P_chem_y0
#define P_chem_y0   0.0
#undef P_chem_x1
#define P_chem_x1   12.0
#undef P_chem_y1
#define P_chem_y1   12.0
#undef P_chem_dx
#define P_chem_dx   0.1

/* the kinetics' constants a, b [1/L^2], gamma [1/T] */
#define TURING_A     0.1
#define TURING_B     0.9
#define TURING_GAMMA 120.0

/* u and v: Du = 2, Dv = 24 inside and outside cells, no linear degradation (the reaction has
 * it), zero flux on every side */
#define P_CHEM_SPECIES { { .name = "u", .D_in = 2.0, .D_out = 2.0, .c0 = TURING_A + TURING_B }, \
                         { .name = "v", .D_in = 24.0, .D_out = 24.0, .c0 = TURING_B / ((TURING_A + TURING_B) * (TURING_A + TURING_B)) } }

static inline double turing_reaction(int s, const double *c, int type)
{
    (void)type;
    double u2v = c[0] * c[0] * c[1];
    return s == 0 ? TURING_GAMMA * (TURING_A - c[0] + u2v) : TURING_GAMMA * (TURING_B - u2v);
}
#define P_CHEM_REACTION turing_reaction

/* the steady state times 1 + 0.01 xi, xi uniform in [-1, 1): a hash of the node (i, j) and the
 * species, the same on every machine */
static inline double turing_init(int s, double x, double y)
{
    uint64_t i = (uint64_t)llround((x - P_chem_x0) / P_chem_dx), j = (uint64_t)llround((y - P_chem_y0) / P_chem_dx);
    double xi = 2 * (double)(rng_mix(rng_mix(i << 32 | j) + (uint64_t)s) >> 11) * 0x1.0p-53 - 1;
    double steady = s == 0 ? TURING_A + TURING_B : TURING_B / ((TURING_A + TURING_B) * (TURING_A + TURING_B));
    return steady * (1 + 0.01 * xi);
}
#define P_CHEM_INIT turing_init

/* a cell above the steady state of u takes type 1, below it type 0 */
static inline void turing_response(const ChemCell *cell, ChemAct *act)
{
    act->type = cell->c[0] > TURING_A + TURING_B;
}
#define P_CHEM_RESPONSE turing_response
