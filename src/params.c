/* The compiled-in parameter set: the header named by PH_PARAMS_FILE (default params/default.h)
 * defines P_<name> macros; they are checked here at compile time and gathered into one struct,
 * both by PARAMS_LIST (params.h). _Static_assert on floating constants is a GCC extension under
 * -pedantic, hence __extension__. */
#include "params.h"
#include "chem.h"
#include "text.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifndef PH_PARAMS_FILE
#define PH_PARAMS_FILE "../params/default.h"
#endif
#include PH_PARAMS_FILE

/* the ranges of PARAMS_LIST: the test, and the words of its message */
#define RANGE_ANY(v)    (!isnan((double)(v)))
#define RANGE_NONNEG(v) ((v) >= 0)
#define RANGE_POS(v)    ((v) > 0)
#define RANGE_TEXT_ANY    "a number"
#define RANGE_TEXT_NONNEG ">= 0"
#define RANGE_TEXT_POS    "> 0"

/* The rules between parameters, X(condition, message), written once in terms of V(name): checked
 * at compile time on the header's P_name and at run time (params_check) on a Params. */
#define PARAMS_RULES(X, V) \
    X(V(lmax) > 2 * V(lmin), "lmax must be > 2 lmin") \
    X(V(Q) > 0 || (V(Q) == 0 && V(kl) == 0), "Q must be > 0 (Q = 0 only with kl = 0)") \
    X(V(theta) <= 1, "theta must be in [0, 1]") \
    X(V(alpha_CV) == 0 || V(alpha_mu) > 0 || V(alpha_normal), "a lognormal growth rate needs alpha_mu > 0") \
    X(V(alpha_normal) == 0 || V(alpha_normal) == 1, "alpha_normal must be 0 or 1") \
    X(V(att_k) == 0 || V(att_n) > 0, "an attractor (att_k != 0) needs att_n > 0 polygons to pull") \
    X(V(Amax_mu) > V(Amin), "need 0 <= Amin < Amax") \
    X((V(D) == 0 && V(v0) == 0) || V(cv) > 0, \
      "noise (D > 0) and self-propulsion (v0 > 0) act through the damping: they need cv > 0") \
    X(V(box_x0) < V(box_x1) && V(box_y0) < V(box_y1), "the box needs box_x0 < box_x1 and box_y0 < box_y1")

#define PH_CHECK(c, msg) __extension__ _Static_assert(c, PH_PARAMS_FILE ": " msg);
#define CHECK_RANGE(type, name, fmt, range) PH_CHECK(RANGE_##range(P_##name), #name " must be " RANGE_TEXT_##range)
PARAMS_LIST(CHECK_RANGE)
#undef CHECK_RANGE
#define COMPILED(name) P_##name
PARAMS_RULES(PH_CHECK, COMPILED)
#undef COMPILED

/* the chemistry of the header (chem.h, docs/model.md 11) */
#ifndef P_CHEM_SPECIES
#define P_CHEM_SPECIES { { 0 } }
#endif
#ifdef P_CHEM_REACTION
#define CHEM_REACTION P_CHEM_REACTION
/* the header's reaction along a row, inlined here (ChemModel.reaction_row) */
static void reaction_row(int s, int ns, const double *c, size_t stride, const int *kind, int n, double *r)
{
    if (ns == 1)
        for (int i = 0; i < n; i++) r[i] = P_CHEM_REACTION(s, c + i, kind[i]);
    else
        for (int i = 0; i < n; i++) {
            double at[CHEM_MAX_SPECIES];
            for (int q = 0; q < ns; q++) at[q] = c[i + q * stride];
            r[i] = P_CHEM_REACTION(s, at, kind[i]);
        }
}
#define CHEM_REACTION_ROW reaction_row
#else
#define CHEM_REACTION NULL
#define CHEM_REACTION_ROW NULL
#endif
#ifdef P_CHEM_RESPONSE
#define CHEM_RESPONSE P_CHEM_RESPONSE
#else
#define CHEM_RESPONSE NULL
#endif
#ifdef P_CHEM_INIT
#define CHEM_INIT P_CHEM_INIT
#else
#define CHEM_INIT NULL
#endif
PH_CHECK(P_ntypes >= 1 && P_ntypes <= 1 << 20, "ntypes must be 1 to 2^20")
PH_CHECK(P_NS >= 0 && P_NS <= CHEM_MAX_SPECIES, "NS must be 0 to 8")
PH_CHECK(P_chem_every >= 1 && P_Ns % P_chem_every == 0, "chem_every must be >= 1 and divide Ns (frames fall on chemical steps)")
PH_CHECK(P_NS == 0 || (P_chem_dx > 0 && P_chem_x1 - P_chem_x0 >= P_chem_dx && P_chem_y1 - P_chem_y0 >= P_chem_dx),
         "the chemistry's grid needs dx > 0 and a rectangle at least dx wide and high")
/* the cell types' own mechanical parameters, P_TYPE_<name> { one value per type } */
#ifdef P_TYPE_ka
static const double type_ka[] = P_TYPE_ka;
PH_CHECK(sizeof type_ka / sizeof type_ka[0] == P_ntypes, "P_TYPE_ka must give ntypes values")
#define TYPE_ka type_ka
#else
#define TYPE_ka NULL
#endif
#ifdef P_TYPE_gamma
static const double type_gamma[] = P_TYPE_gamma;
PH_CHECK(sizeof type_gamma / sizeof type_gamma[0] == P_ntypes, "P_TYPE_gamma must give ntypes values")
#define TYPE_gamma type_gamma
#else
#define TYPE_gamma NULL
#endif
#ifdef P_TYPE_kl
static const double type_kl[] = P_TYPE_kl;
PH_CHECK(sizeof type_kl / sizeof type_kl[0] == P_ntypes, "P_TYPE_kl must give ntypes values")
#define TYPE_kl type_kl
#else
#define TYPE_kl NULL
#endif
#ifdef P_TYPE_kb
static const double type_kb[] = P_TYPE_kb;
PH_CHECK(sizeof type_kb / sizeof type_kb[0] == P_ntypes, "P_TYPE_kb must give ntypes values")
#define TYPE_kb type_kb
#else
#define TYPE_kb NULL
#endif
#ifdef P_TYPE_Q
static const double type_Q[] = P_TYPE_Q;
PH_CHECK(sizeof type_Q / sizeof type_Q[0] == P_ntypes, "P_TYPE_Q must give ntypes values")
#define TYPE_Q type_Q
#else
#define TYPE_Q NULL
#endif
#ifdef P_TYPE_alpha_mu
static const double type_alpha_mu[] = P_TYPE_alpha_mu;
PH_CHECK(sizeof type_alpha_mu / sizeof type_alpha_mu[0] == P_ntypes, "P_TYPE_alpha_mu must give ntypes values")
#define TYPE_alpha_mu type_alpha_mu
#else
#define TYPE_alpha_mu NULL
#endif
#ifdef P_TYPE_Amax_mu
static const double type_Amax_mu[] = P_TYPE_Amax_mu;
PH_CHECK(sizeof type_Amax_mu / sizeof type_Amax_mu[0] == P_ntypes, "P_TYPE_Amax_mu must give ntypes values")
#define TYPE_Amax_mu type_Amax_mu
#else
#define TYPE_Amax_mu NULL
#endif
#ifdef P_TYPE_v0
static const double type_v0[] = P_TYPE_v0;
PH_CHECK(sizeof type_v0 / sizeof type_v0[0] == P_ntypes, "P_TYPE_v0 must give ntypes values")
#define TYPE_v0 type_v0
#else
#define TYPE_v0 NULL
#endif
#ifdef P_TYPE_cv
static const double type_cv[] = P_TYPE_cv;
PH_CHECK(sizeof type_cv / sizeof type_cv[0] == P_ntypes, "P_TYPE_cv must give ntypes values")
#define TYPE_cv type_cv
#else
#define TYPE_cv NULL
#endif
/* the matrices by pair of cell types, { { row of type 0 }, { row of type 1 }, ... }: ntypes rows
 * (a row of more than ntypes values is the compiler's "excess elements" warning, an error with
 * WERROR=1; a shorter row ends in zeros, as in C, and the check at start refuses the matrix
 * unless it is still symmetric) */
#ifdef P_TYPE_kh
static const double type_kh[][P_ntypes] = P_TYPE_kh;
PH_CHECK(sizeof type_kh / sizeof type_kh[0] == P_ntypes, "P_TYPE_kh must give ntypes rows of ntypes values")
#define TYPE_KH (&type_kh[0][0])
#else
#define TYPE_KH NULL
#endif
#ifdef P_TYPE_mu
static const double type_mu[][P_ntypes] = P_TYPE_mu;
PH_CHECK(sizeof type_mu / sizeof type_mu[0] == P_ntypes, "P_TYPE_mu must give ntypes rows of ntypes values")
#define TYPE_MU (&type_mu[0][0])
#else
#define TYPE_MU NULL
#endif
const ChemModel chem_compiled = { P_NS, P_ntypes, P_chem_x0, P_chem_y0, P_chem_x1, P_chem_y1, P_chem_dx,
                                  P_chem_max_substeps, P_chem_every, P_CHEM_SPECIES, CHEM_REACTION, CHEM_RESPONSE, CHEM_INIT,
                                  { TYPE_ka, TYPE_gamma, TYPE_kl, TYPE_kb, TYPE_Q, TYPE_alpha_mu, TYPE_Amax_mu, TYPE_v0, TYPE_cv },
                                  TYPE_KH, TYPE_MU, CHEM_REACTION_ROW };

const char params_file[] = PH_PARAMS_FILE;
const Params params_compiled = {
#define VALUE(type, name, fmt, range) .name = P_##name,
    PARAMS_LIST(VALUE)
#undef VALUE
};

int params_check(const Params *p, char *msg, size_t len)
{
#define CHECK_RANGE(type, name, fmt, range) \
    if (!RANGE_##range(p->name)) { snprintf(msg, len, "%s", #name " must be " RANGE_TEXT_##range); return -1; }
    PARAMS_LIST(CHECK_RANGE)
#undef CHECK_RANGE
#define GIVEN(name) p->name
#define CHECK_RULE(c, text) if (!(c)) { snprintf(msg, len, "%s", text); return -1; }
    PARAMS_RULES(CHECK_RULE, GIVEN)
#undef CHECK_RULE
#undef GIVEN
    if (!isfinite(p->dt)) { snprintf(msg, len, "dt must be finite"); return -1; }
    return 0;
}

void params_print(FILE *f, const Params *p, const char *prefix)
{
    char buf[32];
#define PRINT(type, name, fmt, range) \
    if (!strcmp(fmt, "%.17g")) fprintf(f, "%s%-9s = %s\n", prefix, #name, text_number((double)p->name, buf)); \
    else fprintf(f, "%s%-9s = " fmt "\n", prefix, #name, p->name);
    PARAMS_BASE(PRINT)
    if (params_box_on(p)) { PARAMS_BOX(PRINT) }
#undef PRINT
}

/* Semi-implicit Euler is stable while dt < 2 / omega for every mode, omega^2 being an eigenvalue of
 * the Hessian of U (vertex mass 1). The stiffest mode of each term (docs/model.md 3):
 *   repulsion:       omega^2 = kr, a vertex pressed into an edge;
 *   edge elasticity and line tension: omega^2 = 4 (kl + gamma) / lmin, the zigzag of the
 *                    shortest edges;
 *   area elasticity: U = ka/2 (A - A0)^2 has the Hessian ka g g^T + ka (A - A0) grad^2 A with
 *                    g_i = dA/dr_i; at A = A0 it is of rank one, and its mode is the polygon's
 *                    breathing, omega^2 = ka |g|^2 = ka area_g2, which grows with the polygon
 *                    (|g_i| is half the distance of vertex i's neighbours, about one edge length:
 *                    |g|^2 is about perimeter times edge length);
 *   bending:         kappa_i ~ (y_{i+1} - 2 y_i + y_{i-1}) / l^2 for small angles, so
 *                    U ~ kb / (2 l^3) sum (y_{i+1} - 2 y_i + y_{i-1})^2; the zigzag y_i = +-a
 *                    gives U = 8 kb a^2 / l^3 per vertex, omega^2 = 16 kb / lmin^3;
 *   viscous damping: explicit, v <- (1 - cv dt) v alone, stable while cv dt < 2: the limit
 *                    2 / omega with omega^2 = cv^2. (Damping and a spring together: the step
 *                    maps (x, v) by a matrix of determinant 1 - cv dt and trace
 *                    2 - cv dt - omega^2 dt^2, stable while omega^2 dt^2 < 4 - 2 cv dt, i.e.
 *                    dt < (2 / omega) sqrt(1 - cv dt / 2): within 3 % of 2 / omega while
 *                    cv dt < 0.1, as in every header. The estimate takes the terms one by one.);
 *   box walls:       U = box_k d^2 / 2 for a vertex d beyond a wall: omega^2 = box_k. */
double params_stable_dt(const Params *p, double area_g2, const char **what)
{
    double lmin = p->lmin > 0 ? p->lmin : p->h;
    struct { double k; const char *what; } term[] = {
        { p->kr, "repulsion kr" },
        { 4 * (p->kl + p->gamma) / lmin, "edge elasticity and line tension over lmin" },
        { p->ka * area_g2, "area elasticity ka of the largest polygon, its breathing mode" },
        { 16 * p->kb / (lmin * lmin * lmin), "bending kb over lmin, its zigzag mode" },
        { p->cv * p->cv, "viscous damping cv, explicit" },
        { params_box_on(p) ? p->box_k : 0, "box walls box_k, a vertex beyond a wall" },
    };
    double k = 0;
    *what = term[0].what;
    for (size_t j = 0; j < sizeof term / sizeof term[0]; j++)
        if (term[j].k > k) { k = term[j].k; *what = term[j].what; }
    return k > 0 ? 2 / sqrt(k) : INFINITY;
}

int params_warn_limit(FILE *f, double dt, double dt_max, const char *what, int type)
{
    if (!(dt > dt_max)) return 0;
    char whose[48] = "";
    if (type >= 0) snprintf(whose, sizeof whose, "cell type %d: ", type);
    fprintf(f, "polyhoop: warning: dt = %g exceeds the stability limit %.3g of the stiffest spring (%s%s); "
            "expect a blow-up. Suggested: dt <= %.2g\n", dt, dt_max, whose, what, 0.5 * dt_max);
    return 1;
}

int params_warn_dt(FILE *f, const Params *p, double area_g2)
{
    const char *what;
    double dt_max = params_stable_dt(p, area_g2, &what);
    return params_warn_limit(f, p->dt, dt_max, what, -1);
}
