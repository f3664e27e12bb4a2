/* Chemical species on a grid, coupled to the polygons both ways (docs/model.md 11). NS species
 * (ChemModel.ns; 0: off, and nothing of this module runs) live on the nodes of a uniform grid
 * over the rectangle [x0, x1] x [y0, y1] with spacing dx. Each chemical step (every m.every time
 * steps: chem_due), after the internal forces and before the pair forces:
 *   1. every node learns the polygon that covers it (or none): chem.c's cover;
 *   2. every polygon samples the concentrations over the nodes it covers (their mean, and the
 *      mean of the central-difference gradient; a polygon covering no node samples at its
 *      centroid), and the header's response rule may change its type and growth rate and give
 *      each of its vertices a force (chemotaxis);
 *   3. the fields advance by dt: diffusion with the diffusivity of inside or outside a cell,
 *      linear degradation and the header's reaction rule, and for a species with advect = 1 the
 *      transport by the cells' motion (upwind, diluted as they grow: chem_transport), by
 *      explicit Euler in sub-steps short enough for all three to keep c >= 0 (the reaction's
 *      uptake measured in each chemical step; conservative fluxes: with zero-flux sides and no
 *      reaction the amount is conserved to round-off).
 * Everything is a pure function of the state at the start of the step, so results are the same
 * at any thread count and after a restart (the checkpoint carries the fields). */
#ifndef PH_CHEM_H
#define PH_CHEM_H
#include "ensemble.h"
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* the most species, and the longest name of one (in bytes: the banner and the help list them all) */
enum { CHEM_MAX_SPECIES = 8, CHEM_NAME_MAX = 31 };

/* the sides of the domain, and their boundary conditions */
enum { CHEM_LEFT, CHEM_RIGHT, CHEM_BOTTOM, CHEM_TOP };
enum { CHEM_ZERO_FLUX, CHEM_FIXED };

typedef struct ChemSpecies {
    const char *name;      /* the array's name in the field frames: 1 to CHEM_NAME_MAX bytes of printable UTF-8
                            * without ',' or '\', another than every other species' (chem_init) */
    double D_in, D_out;    /* [L^2/T] diffusivity at nodes inside a cell, outside */
    double k;              /* [1/T]   linear degradation rate */
    double c0;             /* [1/L^2] initial concentration everywhere (unless ChemModel.init) */
    int bc[4];             /* per side (CHEM_LEFT ..): CHEM_ZERO_FLUX or CHEM_FIXED */
    double c_bc[4];        /* [1/L^2] the concentration held on a CHEM_FIXED side */
    int advect;            /* 1: carried and diluted by the cells' motion (chem_transport); 0: at rest */
} ChemSpecies;

/* What the response rule sees of a polygon: its index, type, area, target area and growth rate,
 * and per species the sampled concentration c[s] and gradient (gx[s], gy[s]). */
typedef struct ChemCell {
    int p, type;
    double area, A0, alpha;
    const double *c, *gx, *gy;
} ChemCell;

/* What the response rule may set (it starts as the polygon's type and growth rate, and no force):
 * the type, the growth rate, and a force on each vertex of the polygon [L/T^2]. */
typedef struct ChemAct { int type; double alpha, fx, fy; } ChemAct;

/* The mechanical parameters a cell type may have of its own (the header's single value
 * otherwise): the header's P_TYPE_<name> { value of type 0, of type 1, ... }. cv is its vertices'
 * viscous damping, and with it the noise that balances it and the push cv v0 (docs/model.md 3.1).
 * Appended, never reordered: chem_print's lines, and so the checkpoint's hash, follow this order. */
#define CHEM_TYPE_PARAMS(X) X(ka) X(gamma) X(kl) X(kb) X(Q) X(alpha_mu) X(Amax_mu) X(v0) X(cv)
#define CHEM_TYPE_INDEX(name) CHEM_TYPE_##name,
enum { CHEM_TYPE_PARAMS(CHEM_TYPE_INDEX) CHEM_TYPE_NPARAMS };
#undef CHEM_TYPE_INDEX

/* The chemistry of a build (params.c, from the parameter header). */
typedef struct ChemModel {
    int ns;                              /* species: 0 = off */
    int ntypes;                          /* cell types 0 .. ntypes - 1 */
    double x0, y0, x1, y1, dx;           /* [L] the grid's rectangle and spacing */
    int max_substeps;                    /* the most solver sub-steps per chemical step */
    int every;                           /* time steps per chemical step (>= 1): see chem_due */
    ChemSpecies sp[CHEM_MAX_SPECIES];
    /* the reaction rate of species s at a node [1/(L^2 T)], from the concentrations c[0 .. ns-1]
     * there and the type of the polygon that covers it (-1: none); NULL: none */
    double (*reaction)(int s, const double *c, int type);
    /* a polygon's response (may be NULL: none) */
    void (*response)(const ChemCell *cell, ChemAct *act);
    /* the initial concentration of species s at the node (x, y) [1/L^2], finite and >= 0 (a seed
     * for a pattern); NULL: c0 everywhere. The Dirichlet sides are held at their values after it. */
    double (*init)(int s, double x, double y);
    /* per CHEM_TYPE_PARAMS: ntypes values, or NULL: the header's value for every type */
    const double *type_value[CHEM_TYPE_NPARAMS];
    /* the adhesion stiffness kh between cell types a and b at [a * ntypes + b] (symmetric, at
     * most the header's kh, which sets the reach), or NULL: kh for every pair */
    const double *type_kh;
    /* the Coulomb friction coefficient between cell types a and b at [a * ntypes + b] (symmetric,
     * >= 0), or NULL: mu for every pair */
    const double *type_mu;
    /* reaction at the n nodes of a row, for speed: r[i] = reaction(s, c_i, kind[i]) with c_i the
     * concentrations c[i], c[i + stride], ... of the ns species at node i (params.c makes it from
     * the header's rule, which it inlines); NULL: reaction is called node by node */
    void (*reaction_row)(int s, int ns, const double *c, size_t stride, const int *kind, int n, double *r);
} ChemModel;

typedef struct Chem {
    ChemModel m;
    int nx, ny, nsub;          /* nodes per row and column; sub-steps per chemical step */
    int bad;                   /* the last chem_advance failed (chem_advance says how: 1 to 3) */
    double h;                  /* the last chem_advance's sub-step */
    int bad_species;           /* (bad = 3: the species, its largest uptake rate, the sub-steps it needed) */
    double bad_rate, need;
    double *c, *next;          /* concentrations, species-major: c[(s * ny + j) * nx + i] */
    int *owner;                /* per node: the polygon covering it, or -1 */
    double *fx, *fy;           /* per polygon: the response's force on each vertex, held until the next chemical step */
    int64_t *fid;              /* per polygon of the last chemical step: its id (to find its force again) */
    int *byid;                 /* those polygons in the order of their ids */
    int held;                  /* how many there were */
    int forces;                /* whether any of them has a force */
    double *sum;               /* per polygon and species: c, gx, gy sums; then the count */
    size_t owner_cap, poly_cap;
    double *cross;             /* (row, x) of one polygon's scan-line crossings */
    double *rrow;              /* per thread a row of reaction rates (chem_advance) */
    size_t rrow_cap;
    int cross_cap;
    /* advection (chem_transport): per polygon its affine velocity field; the face velocities,
     * fu at (i + 1/2, j) and fv at (i, j + 1/2), both at [j * nx + i]; the sub-steps of the next
     * chem_advance, and whether fu, fv are this step's (1) or the fields rest (0); 1 when the
     * last call refused a motion too fast for max_substeps */
    double *fit, *fu, *fv;
    size_t fit_cap;
    int nstep, moving, too_fast;
    double outrate;            /* the largest upwind outflow rate of a node at that step */
    /* 1 when the response rule gave a polygon a result out of range (chem_respond returned -2):
     * the first such polygon, its id and type then, and what the rule gave (chem_bad_response) */
    int bad_response, bad_p, bad_type;
    int64_t bad_id;
    ChemAct bad_act;
    /* set: chem_advance gives up its step (returns 1) once *stop is non-zero, checked before
     * each sub-step (a run stopped by a signal in a long chemical step; sim.h's Sim.stop) */
    const volatile sig_atomic_t *stop;
} Chem;

/* Sets up the grid of model m for time step dt (all concentrations c0, or m->init's, Dirichlet
 * sides held): a chemical step is m->every time steps long. Returns 0, or -1 with the reason in
 * err: the model is out of range (also a species without a name, or with another's, or one
 * named beyond ns: the message names it by index), its diffusion needs more sub-steps than
 * max_substeps in a chemical step (the message names D, dx and dt), or m->init gave a value that
 * is not finite or negative (the message names the species and the node). */
int chem_init(Chem *ch, const ChemModel *m, double dt, char *err, size_t len);

/* The chemistry of the header the program was built with (params.c). */
extern const ChemModel chem_compiled;
void chem_free(Chem *ch);

/* The chemical clock: the fields change over times much longer than the mechanical step (a
 * node's diffusion time dx^2 / D), so steps 1-3 run once every m.every time steps, at the steps
 * that are multiples of it, and advance the fields by every * dt at once; in between, every
 * polygon keeps the type, growth rate and force its response gave (docs/model.md 11). */
static inline int chem_due(const Chem *ch, int64_t step) { return ch->m.ns > 0 && step % ch->m.every == 0; }

/* Steps 1-2 above: the cover, the samples and the response (types and growth rates of e set,
 * the forces kept for chem_add_forces). Returns 0; -1 when a concentration is not finite; -2 when
 * the response gave a type outside 0 .. ntypes - 1, or a growth rate or force that is not finite. */
int chem_respond(Chem *ch, Ensemble *e);

/* The movable polygons with a vertex outside the grid's rectangle (0 without species), and in
 * *vertices (unless NULL) how many of their vertices are: such a cell senses only the nodes it
 * covers, and one that covers none the value at the grid's nearest edge (docs/model.md 11). */
int chem_outside(const Chem *ch, const Ensemble *e, int64_t *vertices);

/* After chem_respond returned -2: in buf, which polygon (index, id, type) the response rule gave
 * which result out of range (a type outside 0 .. ntypes - 1, a growth rate or force that is not
 * finite), and the range. */
void chem_bad_response(const Chem *ch, char *buf, size_t len);

/* Adds the last response's force to fx, fy of every vertex (after the internal forces), each
 * polygon's found by its id (a polygon born since has none). */
void chem_add_forces(const Chem *ch, Ensemble *e);

/* The forces held until the next chemical step, for a checkpoint written between two of them:
 * chem_held_forces says how many polygons hold one (0: none to add; then ch->fid, fx, fy
 * [0 .. n) are the polygons' ids and forces), chem_set_held_forces puts n of them back. */
int chem_held_forces(const Chem *ch);
void chem_set_held_forces(Chem *ch, int n, const int64_t *id, const double *fx, const double *fy);

/* Before step 3, for the species with advect = 1: the velocity of the matter on the faces of the
 * grid, from each polygon's vertex velocities (an affine field fitted to them, its divergence the
 * polygon's relative area growth rate, so that the transport also dilutes; docs/model.md 11), on
 * the cover of chem_respond, and the sub-steps the next chem_advance takes (more than nsub when
 * the motion needs them: upwind outflow and diffusion together at most 1 per sub-step). Returns
 * 0 (nothing done when no species is advected), or -1 with the reason in err when that is more
 * than max_substeps (the message names D, k, dx, dt and the speed). */
int chem_transport(Chem *ch, const Ensemble *e, double dt, char *err, size_t len);

/* Step 3: the fields advance by dt (a chemical step: every time steps), with the cover of
 * chem_respond (and the motion of chem_transport, which this consumes: a later call without it
 * leaves the fields at rest). Its sub-steps follow the reaction rule too: its first measures the
 * largest relative uptake rate -R / c of each species over the nodes, and where that needs more
 * sub-steps (explicit Euler keeps c >= 0 while h (4 D / dx^2 + k + outflow + uptake rate) <= 1),
 * the chemical step starts over with them. Returns 0, or -1 with ch->bad: 1, a sub-step made a
 * concentration non-finite, or 2, negative (beyond rounding: below -1e-12 of the node's value
 * before it; a rule whose uptake grows within the step), the fields then as that sub-step made
 * them; 3, the uptake would need more than max_substeps (ch->need; or infinitely many: the rule
 * takes from a node at c = 0), the fields as they were. chem_bad_node names the node. Returns 1
 * when ch->stop said so: the fields part-way through the step, to be thrown away. */
int chem_advance(Chem *ch, double dt);

/* A chemical step at time t (step), steps 1-3 with the transport: chem_respond, chem_transport,
 * chem_advance over dt. Returns 0; 1 when ch->stop gave it up; -1 with what failed, when and
 * where in err ("chemistry at t = T (step N): ..."). */
int chem_step(Chem *ch, Ensemble *e, double dt, double t, int64_t step, char *err, size_t len);

/* After chem_advance failed: the first node (species by species, row by row) whose concentration
 * is not finite or negative, in buf as "species S (NAME) is C at node (i, j), (x, y) = (X, Y)";
 * for bad = 3, the first node of the largest uptake rate, that rate, c and R. */
void chem_bad_node(const Chem *ch, char *buf, size_t len);

/* The amount of species s: the sum of c over the nodes, each weighted by its share of the
 * domain's area (a quarter cell at corners, half along sides). */
double chem_amount(const Chem *ch, int s);

/* A hash of chem_print's text (its CRC-32): a checkpoint keeps it, and a restart refuses another model's
 * (the rules' code itself is not in it). */
uint64_t chem_model_hash(const ChemModel *m);

/* The model's settings as "name = value" lines with prefix (banner and frames; nothing when
 * ns = 0, ntypes <= 1 and no type has values of its own). */
void chem_print(FILE *f, const ChemModel *m, const char *prefix);

#endif
