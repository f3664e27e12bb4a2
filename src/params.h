/* Model parameters (paper Table 2, docs/model.md 8).
 * The program's values come from one header in params/, chosen at build time
 * (make PARAMS=params/x.h) and compiled into params_compiled; a run may set any of them anew on
 * its command line (--set NAME=VALUE, params_set); tests build their own.
 *
 * PARAMS_LIST is the one list of the parameters: adding one is one line here (and its P_<name>
 * in params/default.h, which every other header includes and overrides). From it come the
 * struct, the compiled-in values, the range checks at compile time and at run time, the
 * "name = value" lines of the banner, the frames and the restart comparison (params_print), and
 * the checkpoint's records of the parameters by name. Columns: X(type, name, printf format,
 * range) with range ANY (a finite number), NONNEG (>= 0, finite), POS (> 0, finite), WALL (a
 * number, -inf or inf for no wall) or NEVER (> 0, inf for never); unit and meaning in the
 * comment. The rules between parameters are one list too, PARAMS_RULES in params.c.
 * PARAMS_LIST is PARAMS_BASE, printed always, then the groups printed only when they are on
 * (PARAMS_BOX), so that a run without them prints no lines for them. */
#ifndef PH_PARAMS_H
#define PH_PARAMS_H
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#define PARAMS_LIST(X) PARAMS_BASE(X) PARAMS_BOX(X)

#define PARAMS_BASE(X) \
    /* geometry */ \
    X(double, h,        "%.17g", POS)     /* [L]     edge (hoop) thickness */ \
    X(double, lmin,     "%.17g", NONNEG)  /* [L]     minimum edge length */ \
    X(double, lmax,     "%.17g", POS)     /* [L]     maximum edge length, > 2 lmin */ \
    X(double, Q,        "%.17g", NONNEG)  /* [-]     target isoparametric ratio (0: kl = 0) */ \
    X(double, sh,       "%.17g", NONNEG)  /* [L]     adhesion hardening zone */ \
    X(double, ss,       "%.17g", NONNEG)  /* [L]     adhesion softening zone */ \
    X(double, theta,    "%.17g", NONNEG)  /* [-]     fusion threshold, <= 1; 0 = off */ \
    /* growth, removal and division */ \
    X(double, alpha_mu, "%.17g", ANY)     /* [L^2/T] mean area growth rate */ \
    X(double, alpha_CV, "%.17g", NONNEG)  /* [-]     its coefficient of variation */ \
    X(double, beta,     "%.17g", NONNEG)  /* [-]     grow only while A/A0 > beta */ \
    X(double, Amin,     "%.17g", NONNEG)  /* [L^2]   removal area */ \
    X(double, Amax_mu,  "%.17g", NEVER)   /* [L^2]   mean division area, > Amin (inf: none) */ \
    X(double, Amax_CV,  "%.17g", NONNEG)  /* [-]     its coefficient of variation */ \
    /* material */ \
    X(double, ka,       "%.17g", NONNEG)  /* [1/(L^2 T^2)] area stiffness */ \
    X(double, gamma,    "%.17g", ANY)     /* [L/T^2] line tension */ \
    X(double, kl,       "%.17g", NONNEG)  /* [L/T^2] edge (tensile) rigidity */ \
    X(double, kb,       "%.17g", NONNEG)  /* [L^3/T^2] bending rigidity */ \
    X(double, kr,       "%.17g", NONNEG)  /* [1/T^2] repulsion stiffness */ \
    X(double, kh,       "%.17g", NONNEG)  /* [1/T^2] adhesion stiffness */ \
    X(double, mu,       "%.17g", NONNEG)  /* [-]     dynamic Coulomb friction coefficient */ \
    X(double, rho,      "%.17g", ANY)     /* [1/L^2] density difference inside - outside */ \
    /* other */ \
    X(double, g,        "%.17g", ANY)     /* [L/T^2] gravitational acceleration */ \
    X(double, gl,       "%.17g", ANY)     /* [L/T^2] edge gravitational acceleration */ \
    X(double, cv,       "%.17g", NONNEG)  /* [1/T]   viscous damping */ \
    X(double, cc,       "%.17g", NONNEG)  /* [1/T]   contact damping */ \
    X(double, cd,       "%.17g", NONNEG)  /* [-]     drag coefficient */ \
    X(double, dt,       "%.17g", POS)     /* [T]     time step (finite) */ \
    /* run */ \
    X(int,    Nf,       "%d",    NONNEG)  /* frames written after the initial one */ \
    X(int,    Ns,       "%d",    POS)     /* steps per frame */ \
    X(int,    Nr,       "%d",    NONNEG)  /* the first Nr polygons of the input are rigid */ \
    /* attractor (paper Fig. 2B: chemotaxis) */ \
    X(double, att_x,    "%.17g", ANY)     /* [L]     its position x */ \
    X(double, att_y,    "%.17g", ANY)     /* [L]     and y */ \
    /* att_k: pull on each vertex of an attracted polygon (< 0 repels) */ \
    X(double, att_k,    "%.17g", ANY)     /* [L/T^2] pull on each vertex */ \
    X(int,    att_n,    "%d",    NONNEG)  /* number of polygons drawn at random to feel it */ \
    /* growth */ \
    /* alpha_normal 1: growth rates normal (sd alpha_CV |alpha_mu|, negatives kept), \
     * 0: lognormal */ \
    X(int,    alpha_normal, "%d", NONNEG) \
    /* noise and activity (docs/model.md 3.1) */ \
    /* D: diffusion constant of each vertex (Langevin noise balancing cv) */ \
    X(double, D,        "%.17g", NONNEG)  /* [L^2/T] vertex diffusion constant */ \
    X(double, v0,       "%.17g", NONNEG)  /* [L/T]   self-propulsion speed along polarity */ \
    X(double, Dr,       "%.17g", NONNEG)  /* [1/T]   polarity's rotational diffusion */ \
    /* rate-driven division and death (docs/model.md 5.1): 0 = off */ \
    /* k_div > 0 replaces division above Amax */ \
    X(double, k_div,    "%.17g", NONNEG)  /* [1/T]   division rate at A = Amax_mu */ \
    X(double, n_div,    "%.17g", ANY)     /* [-]     rate k_div (A / Amax_mu)^n_div */ \
    X(double, k_death,  "%.17g", NONNEG)  /* [1/T]   death rate at zero pressure */ \
    /* p_death: rate k_death exp(p / p_death), p = ka (A0 - A); 0: constant */ \
    X(double, p_death,  "%.17g", NONNEG)  /* [1/T^2] pressure scale */ \
    /* projectiles passing a membrane (docs/model.md 5.2): 0 = off */ \
    /* v_pass: approach speed above which a projectile passes a cell's hoop */ \
    X(double, v_pass,   "%.17g", NONNEG)  /* [L/T]   passing speed */ \
    X(double, A_pass,   "%.17g", NONNEG)  /* [L^2]   largest projectile; larger: cells */

/* box walls (docs/model.md 2): a vertex of a movable polygon a distance d beyond a wall's line has
 * the energy box_k d^2 / 2. A side at -INFINITY (x0, y0) or INFINITY (x1, y1) has no wall; with
 * all four there (the default) there is no box, and these lines are not printed (params_box_on). */
#define PARAMS_BOX(X) \
    X(double, box_x0,   "%.17g", WALL)     /* [L]     left wall: x >= box_x0 */ \
    X(double, box_y0,   "%.17g", WALL)     /* [L]     bottom wall: y >= box_y0 */ \
    X(double, box_x1,   "%.17g", WALL)     /* [L]     right wall: x <= box_x1, > box_x0 */ \
    X(double, box_y1,   "%.17g", WALL)     /* [L]     top wall: y <= box_y1, > box_y0 */ \
    X(double, box_k,    "%.17g", NONNEG)  /* [1/T^2] walls' stiffness (default: kr) */

typedef struct Params {
#define PARAMS_FIELD(type, name, fmt, range) type name;
    PARAMS_LIST(PARAMS_FIELD)
#undef PARAMS_FIELD
} Params;

extern const Params params_compiled;  /* the values of the header named by PH_PARAMS_FILE */
extern const char params_file[];      /* that header's path, as given to make */

/* The place of each parameter in PARAMS_LIST (PARAM_h, PARAM_lmin, ...), and their count. */
#define PARAMS_INDEX(type, name, fmt, range) PARAM_##name,
enum { PARAMS_LIST(PARAMS_INDEX) PARAMS_COUNT };
#undef PARAMS_INDEX

/* Which parameters the command line set (--set NAME=VALUE): bit k % 64 of bits[k / 64] for the
 * k-th of PARAMS_LIST. The checkpoint keeps it, so that a restart goes on with those values. */
typedef struct ParamsSet { uint64_t bits[2]; } ParamsSet;
_Static_assert(PARAMS_COUNT <= 128, "ParamsSet holds 128 parameters");
static inline int params_is_set(const ParamsSet *s, int k)
{
    return (int)(s->bits[k / 64] >> (k % 64) & 1);
}

/* One --set NAME=VALUE (NAME as in PARAMS_LIST, or with its P_): the value into p, the parameter
 * marked in set. Where the header's box_k is its kr (its default), box_k follows a set kr unless
 * box_k is set too, as it follows kr in a header. Returns the parameter's place in PARAMS_LIST, or
 * -1 with the reason in msg (one line): no '=', no such parameter (naming the closest), one fixed
 * at build time (the chemistry's and the cell types': P_NS, P_ntypes, P_chem_*, P_CHEM_*, P_TYPE_*,
 * and a parameter that every cell type of this build has of its own), a value that is not a
 * number in full (for an int parameter, an integer). The ranges and rules are params_check's, on
 * the whole set once every --set is in. */
int params_set(Params *p, ParamsSet *set, const char *text, char *msg, size_t len);

/* For a restart: p holds the header's values with the command line's --set (marked in set), run
 * and run_set those of the run's checkpoint. A parameter that the command line set to another
 * value than the run's is refused (-1, msg naming it and both values). Else the run's --set values
 * replace the header's in p (box_k following kr as in params_set), set becomes run_set, and 0. */
int params_merge(Params *p, ParamsSet *set, const Params *run, const ParamsSet *run_set, char *msg,
                 size_t len);

/* The parameters marked in set, in list order, into buf: their names, separated by ", "
 * (values = 0), or as the words "--set name=value ..." (values = 1); "" when none. */
void params_set_text(const Params *p, const ParamsSet *set, int values, char *buf, size_t len);

/* Where the parameters come from, for a message: the header, with the --set words where set marks
 * any ("params/default.h with --set Nr=5"), into buf; returns buf. */
const char *params_source(const Params *p, const ParamsSet *set, char *buf, size_t len);

/* The reach of the pair interaction: a vertex and an edge closer than this interact. It is
 * h + sh + ss (docs/model.md 2) when there is adhesion, but only h when kh = 0: beyond h the
 * normal force is then zero, and contact damping alone would pull separating surfaces together. */
static inline double params_reach(const Params *p)
{
    return p->h + (p->kh > 0 ? p->sh + p->ss : 0);
}

/* Whether there is a wall: a side of the box that is finite. */
static inline int params_box_on(const Params *p)
{
    return p->box_x0 > -INFINITY || p->box_y0 > -INFINITY || p->box_x1 < INFINITY ||
           p->box_y1 < INFINITY;
}

/* Checks the model's constraints at run time (tests and values built in code): every range of
 * PARAMS_LIST, then the constraints between parameters; returns 0 or writes the first violation
 * into msg and returns -1. */
int params_check(const Params *p, char *msg, size_t len);

/* The largest stable time step of semi-implicit Euler, dt < 2 / omega, estimated from the
 * stiffest mode of each term (derived in params.c and docs/model.md 3): repulsion (kr), edge
 * elasticity and line tension (4 (kl + gamma) / lmin), area elasticity (ka area_g2), bending
 * (16 kb / lmin^3), the explicit viscous damping (cv^2) and, where there is one, a box wall
 * (box_k). area_g2 is the largest sum over a movable polygon's vertices of |dA/dr_i|^2
 * (sim_area_g2). *what names the term that sets the limit. */
double params_stable_dt(const Params *p, double area_g2, const char **what);

/* The start-up warning: when dt exceeds params_stable_dt, writes to f what limits it and a
 * suggested dt, and returns 1; else 0. */
int params_warn_dt(FILE *f, const Params *p, double area_g2);

/* The same warning for a limit dt_max found elsewhere (sim_stable_dt), set by the term `what`
 * of cell type `type`'s parameters (-1: the header's, for every polygon). */
int params_warn_limit(FILE *f, double dt, double dt_max, const char *what, int type);

/* Warns on f of values in range that switch a mechanism off or turn it around (kr = 0: no
 * repulsion; gamma < 0). Returns the number of warnings. */
int params_warn_off(FILE *f, const Params *p);

/* Writes every parameter as "name = value" lines, each prefixed by `prefix`, in list order (the
 * box's only when params_box_on). These lines go into the banner and every frame, and a restart
 * compares them with the checkpoint's. */
void params_print(FILE *f, const Params *p, const char *prefix);

#endif
