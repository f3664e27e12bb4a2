/* Chemical species on a grid, coupled to the polygons both ways (docs/model.md 11). ns species
 * (0: off, and nothing of this module runs) live on the nodes of a uniform grid over
 * [x0, x1] x [y0, y1] with spacing dx. Each chemical step (every m.every time steps), after the
 * internal forces and before the pair forces:
 *   1. every node learns the polygon that covers it (or none);
 *   2. every polygon samples the concentrations and their gradient over the nodes it covers (at
 *      its centroid if it covers none), and the header's response rule may change its type and
 *      growth rate and give each of its vertices a force (chemotaxis);
 *   3. the fields advance: diffusion (with the diffusivity inside or outside a cell), linear
 *      degradation, the header's reaction rule and, for species with advect = 1, transport by
 *      the cells' motion, by explicit Euler in sub-steps short enough to keep c >= 0, with
 *      conservative fluxes (zero-flux sides and no reaction conserve the amount to round-off).
 * Everything is a pure function of the state at the start of the step, so results are the same
 * at any thread count and after a restart (the checkpoint carries the fields). */
#ifndef PH_CHEM_H
#define PH_CHEM_H
#include "ensemble.h"
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* the most species, and the longest name of one (or of a cell variable) in bytes; the most
 * cell variables */
enum { CHEM_MAX_SPECIES = 8, CHEM_NAME_MAX = 31, CHEM_MAX_VARS = ENSEMBLE_MAX_VARS };

/* the sides of the domain, and their boundary conditions */
enum { CHEM_LEFT, CHEM_RIGHT, CHEM_BOTTOM, CHEM_TOP };
enum { CHEM_ZERO_FLUX, CHEM_FIXED, CHEM_FLUX };

typedef struct ChemSpecies {
    const char *name;      /* its array in the field frames: printable UTF-8 without ',' or '\',
                            * unique (chem_init) */
    double D_in, D_out;    /* [L^2/T] diffusivity at nodes inside a cell, outside */
    double k;              /* [1/T]   linear degradation rate */
    double c0;             /* [1/L^2] initial concentration everywhere (unless ChemModel.init) */
    int bc[4];             /* per side (CHEM_LEFT ..): CHEM_ZERO_FLUX, CHEM_FIXED or CHEM_FLUX */
    double c_bc[4];        /* [1/L^2] the concentration held on a CHEM_FIXED side; [1/(L T)] the
                            * inflow per length of a CHEM_FLUX side (< 0: outflow) */
    int advect;            /* 1: carried and diluted by the cells' motion; 0: at rest */
} ChemSpecies;

/* A variable each cell carries (the header's P_CELL_VARS; docs/model.md 11): its cell array in
 * the frames and its initial value; split = 1 makes it an amount (divided between the daughters
 * in proportion to their areas, summed at fusion), 0 a level (copied to the daughters, the
 * area-weighted mean at fusion). */
typedef struct ChemVar { const char *name; double init; int split; } ChemVar;

/* What a rule sees of a cell (docs/usage.md "Writing a model"). c, gx, gy: per species, the
 * concentration and gradient sampled over the nodes it covers; v: its variables. The neighbour
 * fields are measured only with P_CELL_CONTACTS 1 (else neighbors = -1 and the lengths and means
 * NaN): contact, the length of its outline within reach of other polygons' (by type, of cells of
 * each type, contact_type[t]); vn[k], the mean of variable k over its neighbouring cells weighted
 * by those lengths (its own value where it has none). chem_random(cell, k) gives it uniform
 * numbers of its own. */
typedef struct ChemCell {
    int p, type;
    double area, A0, alpha;
    const double *c, *gx, *gy;
    double t, dt;              /* [T] the time, and the time until the next chemical step */
    int64_t id, parent, step;  /* its id and its parent's (-1: none); the step */
    int gen;                   /* generation: 0 in the input, the mother's + 1 */
    double age;                /* [T] since its birth (a division's larger daughter keeps it) */
    double x, y, perimeter;    /* [L] centroid, outline length */
    double pressure;           /* [1/T^2] -ka (A - A0), with its type's ka */
    const double *v;           /* its variables, nvar (P_CELL_VARS) */
    int neighbors;             /* polygons in contact (-1: not measured) */
    double contact;            /* [L] outline in contact with other polygons (NaN: not measured) */
    const double *contact_type, *vn;
    uint64_t seed;             /* (for chem_random) */
} ChemCell;

/* What the response rule may set: the type, the growth rate, a force on each vertex [L/T^2] and
 * the cell's variables after this chemical step (it starts as the polygon's type, growth rate
 * and variables, and no force). */
typedef struct ChemAct { int type; double alpha, fx, fy; double v[CHEM_MAX_VARS]; } ChemAct;

/* A uniform number in (0, 1) for cell and k: a function of the run's seed, the step, the cell's
 * id and k alone, so the same at any thread count and after a restart. */
double chem_random(const ChemCell *cell, int k);

/* The mechanical parameters a cell type may have of its own: the header's P_TYPE_<name> { type 0,
 * type 1, ... }. cv is its vertices' viscous damping, with the noise that balances it and the push
 * cv v0 (docs/model.md 3.1). Append, never reorder: the checkpoint's hash follows this order. */
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
    int every;                           /* time steps per chemical step (>= 1) */
    ChemSpecies sp[CHEM_MAX_SPECIES];
    /* the reaction rate of species s at a node [1/(L^2 T)], from the concentrations there and
     * the type of the polygon that covers it (-1: none); NULL: none */
    double (*reaction)(int s, const double *c, int type);
    /* a polygon's response; NULL: none */
    void (*response)(const ChemCell *cell, ChemAct *act);
    /* the initial concentration of species s at node (x, y) [1/L^2], finite and >= 0; NULL: c0 */
    double (*init)(int s, double x, double y);
    /* per CHEM_TYPE_PARAMS: ntypes values, or NULL: the header's value for every type */
    const double *type_value[CHEM_TYPE_NPARAMS];
    /* by pair of cell types, at [a * ntypes + b], symmetric: the adhesion stiffness (at most the
     * header's kh, which sets the reach; NULL: kh) and the Coulomb friction (NULL: mu) */
    const double *type_kh;
    const double *type_mu;
    /* the reaction at the n nodes of a row (species interleaved by stride), the header's rule
     * inlined (params.c); NULL: reaction node by node */
    void (*reaction_row)(int s, int ns, const double *c, size_t stride, const int *kind, int n,
                         double *r);
    /* the cells' variables (cells.h); contacts: 1 to measure the neighbour fields of ChemCell */
    int nvar, contacts;
    ChemVar var[CHEM_MAX_VARS];
    /* rules, NULL: none. cell_init: the variables v of a cell of the input (v starts at the
     * inits); divide: of a daughter (v starts as copied or split; share: its part of the
     * mother's area, mother: the mother's values); fuse: of the cell that two became (v starts
     * as their mean or sum; a, b: theirs, Aa, Ab: their areas) */
    void (*cell_init)(const ChemCell *cell, double *v);
    void (*divide)(const ChemCell *cell, const double *mother, double share, double *v);
    void (*fuse)(const ChemCell *cell, const double *a, double Aa, const double *b, double Ab,
                 double *v);
    /* in place of reaction: the rate that also sees v, the variables of the cell that covers the
     * node as the response left them (NULL: none covers it) */
    double (*reaction_cell)(int s, const double *c, int type, const double *v);
} ChemModel;

/* The rules' view of polygon p at the current step, without the neighbour fields (the caller
 * fills them) or the species': time, identity, geometry, pressure with its type's ka (m's, else
 * ka), its variables. dt: the time until the next chemical step; fresh: e's areas and perimeters
 * are the vertices' (just after the geometry pass), else they are computed. */
void chem_cell_view(const Ensemble *e, const ChemModel *m, int p, double ka, double dt,
                    int fresh, ChemCell *cell);

/* Whether the model has anything to run at a chemical step: species, cell variables or a
 * response rule. */
static inline int chem_on(const ChemModel *m)
{
    return m->ns > 0 || m->nvar > 0 || m->response != NULL;
}

typedef struct Chem {
    ChemModel m;
    int nx, ny, nsub;          /* nodes per row and column; sub-steps per chemical step */
    int bad;                   /* how the last chem_advance failed (1 to 3), or 0 */
    double h;                  /* the last chem_advance's sub-step */
    int bad_species;           /* (bad = 3: the species, its largest uptake rate, the sub-steps */
    double bad_rate, need;     /* it needed) */
    double *c, *next;          /* concentrations, species-major: c[(s * ny + j) * nx + i] */
    int *owner;                /* per node: the polygon covering it, or -1 */
    double *fx, *fy;           /* per polygon: its response's force on each vertex, held */
    int64_t *fid;              /* until the next chemical step, and its id */
    int *byid;                 /* those polygons in the order of their ids */
    int held;                  /* how many there were */
    int forces;                /* whether any of them has a force */
    double *sum;               /* per polygon and species: c, gx, gy sums; then the count */
    size_t owner_cap, poly_cap;
    double *cross;             /* (row, x) of one polygon's scan-line crossings */
    double *rrow;              /* per thread a row of reaction rates */
    size_t rrow_cap;
    int cross_cap;
    /* advection: per polygon its affine velocity field; the face velocities, fu at (i + 1/2, j)
     * and fv at (i, j + 1/2), at [j * nx + i]; the next chem_advance's sub-steps; whether fu, fv
     * are this step's; whether the last call refused a motion too fast for max_substeps */
    double *fit, *fu, *fv;
    size_t fit_cap;
    int nstep, moving, too_fast;
    double outrate;            /* the largest upwind outflow rate of a node at that step */
    /* the first polygon whose response was out of range, and what it was (chem_bad_response) */
    int bad_response, bad_p, bad_type;
    int64_t bad_id;
    ChemAct bad_act;
    /* chem_advance gives up its step once *stop is non-zero (sim.h's Sim.stop); may be NULL */
    const volatile sig_atomic_t *stop;
    double ka;                 /* the area stiffness, for the rules' pressure (set by Sim) */
    const double *var;         /* the cells' variables at the last chem_respond (reaction_cell) */
    /* with m.contacts: the contact lengths of this step (set by Sim, contact_lengths), and per
     * polygon the neighbour fields made of them; the response's new variables */
    ContactLength *pairs;
    int npairs;
    double *nb, *newvar;
    int *nb_at;
    size_t nb_cap, nb_at_cap, newvar_cap;
} Chem;

/* Sets up the grid of model m for time step dt, the fields at c0 (or m->init's), the Dirichlet
 * sides held. Returns 0, or -1 with the reason in err: the model is out of range, its diffusion
 * needs more than max_substeps, or m->init gave a value that is not finite or negative. */
int chem_init(Chem *ch, const ChemModel *m, double dt, char *err, size_t len);

/* The chemistry of the header the program was built with (params.c). */
extern const ChemModel chem_compiled;
void chem_free(Chem *ch);

/* The chemical clock: the fields change over times much longer than the mechanical step (a
 * node's diffusion time dx^2 / D), so steps 1-3 run at the steps that are multiples of m.every
 * and advance the fields by every * dt at once; in between, every polygon keeps the type, growth
 * rate and force its response gave (docs/model.md 11). */
static inline int chem_due(const Chem *ch, int64_t step)
{
    return chem_on(&ch->m) && step % ch->m.every == 0;
}

/* Steps 1-2: the cover, the samples and the response (types and growth rates of e set, forces
 * kept for chem_add_forces). Returns 0; -1 when a concentration is not finite; -2 when the
 * response was out of range (a type outside 0 .. ntypes - 1, a value not finite). */
int chem_respond(Chem *ch, Ensemble *e, double dt);

/* The movable polygons with a vertex outside the grid (0 without species), and in *vertices
 * (unless NULL) how many such vertices: these cells sense only the nodes they cover, or the
 * value at the grid's nearest edge (docs/model.md 11). */
int chem_outside(const Chem *ch, const Ensemble *e, int64_t *vertices);

/* After chem_respond returned -2: which polygon got which result out of range, into buf. */
void chem_bad_response(const Chem *ch, char *buf, size_t len);

/* Adds the last response's forces to fx, fy (after the internal forces), each polygon's found by
 * its id (a polygon born since has none). */
void chem_add_forces(const Chem *ch, Ensemble *e);

/* The forces held between chemical steps, for a checkpoint: how many polygons hold one (their
 * ids and forces in ch->fid, fx, fy), and how to put n of them back. */
int chem_held_forces(const Chem *ch);
void chem_set_held_forces(Chem *ch, int n, const int64_t *id, const double *fx, const double *fy);

/* Before step 3, for the species with advect = 1: the velocity of the matter on the grid's faces,
 * from an affine field fitted to each polygon's vertex velocities (its divergence the polygon's
 * relative area growth rate, so that the transport also dilutes; docs/model.md 11), and the
 * sub-steps that upwind outflow and diffusion need. Returns 0, or -1 with the reason in err when
 * that is more than max_substeps. */
int chem_transport(Chem *ch, const Ensemble *e, double dt, char *err, size_t len);

/* Step 3: the fields advance by dt, with the cover of chem_respond (and the motion of
 * chem_transport, which this consumes). The first sub-step measures each species' largest
 * relative uptake rate -R / c; where that needs more sub-steps (explicit Euler keeps c >= 0 while
 * h (4 D / dx^2 + k + outflow + uptake rate) <= 1), the step starts over with them. Returns 0;
 * 1 when *stop gave it up (the fields to be thrown away); or -1 with ch->bad: 1, a concentration
 * became non-finite, 2, negative beyond rounding (the fields as that sub-step left them), or 3,
 * the uptake needs more than max_substeps (the fields as they were); chem_bad_node names the
 * node. */
int chem_advance(Chem *ch, double dt);

/* A chemical step at time t: chem_respond, chem_transport, chem_advance. Returns 0; 1 when *stop
 * gave it up; -1 with what failed, when and where in err. */
int chem_step(Chem *ch, Ensemble *e, double dt, double t, int64_t step, char *err, size_t len);

/* After chem_advance failed: the first node (species by species, row by row) whose concentration
 * is not finite or negative, into buf; for bad = 3 the first node of the largest uptake rate. */
void chem_bad_node(const Chem *ch, char *buf, size_t len);

/* The amount of species s: the sum of c over the nodes, each weighted by its share of the
 * domain's area (a quarter cell at corners, half along sides). */
double chem_amount(const Chem *ch, int s);

/* The CRC-32 of chem_print's text: a checkpoint keeps it, and a restart refuses another model's
 * (the rules' code is not in it). */
uint64_t chem_model_hash(const ChemModel *m);

/* The model's settings as "name = value" lines with prefix (banner and frames; nothing when
 * ns = 0, ntypes <= 1 and no type has values of its own). */
void chem_print(FILE *f, const ChemModel *m, const char *prefix);

#endif
