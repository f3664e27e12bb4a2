/* A simulation: the parameters, the ensemble and the work buffers of the step, and what the
 * step counts and times (sim.c). */
#ifndef PH_SIM_H
#define PH_SIM_H
#include "chem.h"
#include "contact.h"
#include "ensemble.h"
#include "params.h"
#include "remodel.h"
#include "status.h"
#include "topology.h"

/* The timed phases of a step, and the output: X(index, name in the summary). */
#define SIM_TIMERS(X) \
    X(T_REMODEL, "remodel") X(T_INTERNAL, "internal forces") X(T_CONTACT, "contact") \
    X(T_INTEGRATE, "integrate") X(T_FUSION, "fusion") X(T_TOPOLOGY, "topology") X(T_CHEM, "chemistry") \
    X(T_OUTPUT, "output")
#define SIM_TIMER_INDEX(index, name) index,
enum { SIM_TIMERS(SIM_TIMER_INDEX) T_COUNT };
#undef SIM_TIMER_INDEX
extern const char *const timer_names[T_COUNT];

/* Memory per vertex of a run: an upper bound, twice the 96-150 bytes measured on the large bench
 * runs (docs/performance.md "Memory"). */
#define SIM_BYTES_PER_VERTEX 300.0

typedef struct Sim {
    Params P;
    ParamsSet set;             /* the parameters of P that the run's command line set (--set), for the output and checkpoint */
    Ensemble e;
    Contact contact;
    Remodel remodel;
    TopologyWork topology;
    Chem chem;                 /* cell types and chemical species (ns = 0: off; sim_chemistry) */
    Params *type_params;       /* per cell type when the model sets any (sim_chemistry), else NULL */
    double timer[T_COUNT];     /* wall seconds spent in each phase */
    double vertex_steps;       /* sum over steps of the vertex count */
    int64_t divisions, removals, fusions1, fusions2, deaths, passages;
    int validate;              /* 1: check every polygon after every step (tests) */
    int sort_every, sort_from; /* polygons ordered by position every sort_every steps from sort_from
                                  vertices on (remodel_sort; sim_init: REMODEL_SORT_*, tests lower them) */
    int64_t first_step;        /* the step this process started from (input: 0, or a checkpoint's) */
    int from_checkpoint;       /* the state came from a checkpoint */
    int input_overlaps;        /* the input had crossing edges (warned at start) */
    int input_fastest;         /* the polygon the velocity file gave the highest speed, or -1 */
    double input_speed;        /* that speed */
    int grid_outside;          /* the cells that reached outside the chemistry's grid at start (sim_warn_grid);
                                  -1 once a step has warned that more do (sim_step: said once) */
    double dt_max;             /* sim_stable_dt of the last state known sound (set-up, each frame that passed its check), */
    const char *dt_stiff;      /* the term that sets it, */
    int dt_type;               /* and the cell type (-1: one set of parameters); sim_likely_cause reads them */
    double chem_wall;          /* wall seconds of the last chemical step (-1: none yet) */
    const volatile sig_atomic_t *stop;   /* set: a chemical step gives up once *stop is non-zero (sim_step) */
    char error[8192];          /* why the last step, check or set-up failed */
} Sim;

/* What a run sets up besides the compiled parameters: the command line's choices (options.h). */
typedef struct SimSetup {
    int frames, steps;         /* Nf and Ns of this run; -1: the parameters' (a restart keeps its Ns) */
    int validate;              /* 1: check every polygon after every step (--check) */
    int strict;                /* 1: refuse an input whose polygons overlap (--strict-input) */
    double max_vertices;       /* the most vertices an input may remodel into (0: automatic, see sim_load_input) */
    const char *velocities;    /* the input's velocity file (docs/model.md 7), or NULL: all at rest */
} SimSetup;

void sim_init(Sim *s, const Params *P, uint64_t seed);

/* Sets up the chemistry of model m (chem.h) for the time step of s->P: before the input or the
 * checkpoint is read. 0, or -1 with s->error (the model cannot run, e.g. too many sub-steps). */
int sim_chemistry(Sim *s, const ChemModel *m);
void sim_free(Sim *s);

/* Gives every non-rigid polygon its growth rate, division area and polarity (call once after
 * loading). */
void sim_draw_traits(Sim *s);

/* Marks att_n movable polygons, drawn at random from the seed's stream, as feeling the attractor
 * (all of them if there are fewer); the others do not. Called once, after the input is read. */
void sim_pick_attracted(Sim *s);

/* Adds the polygons of an OFF file (the first Nr rigid), with the velocities of u->velocities
 * when it is set (every vertex of a polygon gets its polygon's), draws their traits and checks the
 * input (polygons that cross, touch or nest in one of the same phase, overlap.h: a warning, an
 * error with u->strict; polygons below Amin, which the first step removes: a warning). An input
 * whose edges would remodel into more than u->max_vertices vertices is refused with the figures;
 * 0 means the larger of 10^6 and 1000 times the input's vertices, but no more than half the
 * machine's memory at SIM_BYTES_PER_VERTEX. u may be NULL: no velocities, not strict, the automatic
 * bound. Warnings go to stderr. Returns 0, or -1 with s->error. */
int sim_load_input(Sim *s, const char *input, const SimSetup *u);

/* Checks the polygons for pairs that share area or boundary (overlap.h: crossing, touching, or
 * nested in one of the same phase) and names the first pair and the share of area: a warning on
 * stderr, or with strict an error (-1 with s->error). file names the input, line[p] the line of
 * polygon p's face in it; line NULL: a checkpoint, whose polygons a run may have left crossed (a
 * collision faster than sqrt(kr) h passes one hoop through another, docs/model.md 4) and whose
 * projectiles a run delivers into cells (docs/model.md 5.2: not named when v_pass > 0). Returns
 * 0 or -1. */
int sim_check_overlaps(Sim *s, const char *file, const int *line, int strict);

/* Applies the run's frames, steps and validation (after sim_load_input or checkpoint_restart).
 * Returns 0, or -1 with s->error: a restart asked for other steps per frame than its own, or for
 * fewer frames than it is at; steps per frame that are not a multiple of the chemical step. */
int sim_setup(Sim *s, const SimSetup *u);

/* The likely cause of a blow-up, from what was checked at start: the chemistry's rules (where
 * they gave what they must not), a dt over the stability
 * estimate (of the last sound state: a blown-up one has far-flung vertices), an overlapping
 * input, an input velocity close to h/dt, the first steps after the input, or else the time
 * step. */
void sim_likely_cause(const Sim *s, char *buf, size_t len);

/* The exit status of a failed step: PH_EXIT_USAGE where the header's response rule gave a result
 * out of range (the header is wrong, not the numerics), else PH_EXIT_BLOWUP. */
int sim_failure_status(const Sim *s);

/* Advances the simulation by one time step. Returns 1 when s->stop made it give up its chemical
 * step: the state is part-way through the step, to be thrown away (the caller holds a checkpoint
 * of the state before it). Returns 0, or -1 when a vertex's position became
 * non-finite or it moved farther than h in the step, when the chemistry failed (a concentration
 * not finite, a response out of range, cells too fast for its sub-steps), or (with s->validate)
 * a polygon failed ensemble_validate; s->error then says what, when and why, and the state is
 * not usable. */
int sim_step(Sim *s);

/* The largest sum over the vertices of a movable polygon of |dA/dr_i|^2, with
 * |dA/dr_i| = |r_{i+1} - r_{i-1}| / 2: the stiffness of its breathing mode per unit ka
 * (params_stable_dt). */
double sim_area_g2(const Sim *s);

/* The largest stable time step (params_stable_dt): of the header's parameters, or, where the
 * cell types have their own (docs/model.md 11), the smallest over the types, each with the area
 * term of its own largest movable polygon. *what names the term that sets it, *type the cell
 * type (-1: the header's parameters, for every polygon). */
double sim_stable_dt(const Sim *s, const char **what, int *type);

/* The start-up warning of params_warn_dt for sim_stable_dt (naming the cell type); 1 if given. */
int sim_warn_dt(FILE *f, const Sim *s);

/* The start-up warning (after the input or checkpoint is read) that cells reach outside the
 * chemistry's grid (chem_outside: how many of how many, their vertices outside, the grid's
 * rectangle); 1 if given. Their count is kept: the first chemical step at which more cells reach
 * outside warns once more, with its t and step and the count (sim_step). */
int sim_warn_grid(FILE *f, Sim *s);

/* Checks the state before it is written as a frame: every polygon counter-clockwise with a
 * positive area and not crossing itself (the grid's test, O(vertices)). A polygon that is not
 * means the run has gone wrong, so that every frame written is a valid one. A hoop that twisted
 * in the last step is no fault: the remodeling that the next step begins with cuts the twist out
 * (docs/model.md 4), so that remodeling is done now, with the same result, and the state checked
 * again. Returns 0, or -1 with s->error naming the polygon. */
int sim_check_frame(Sim *s);

/* Recomputes the geometry and contacts of the current state (one grid: contact_frame), fills
 * nb[p] with the number of neighbouring polygons and same[p] (unless NULL) with how many of them
 * have p's cell type, and returns the total pair energy (for the frame and its log). */
double sim_neighbors(Sim *s, int *nb, int *same);

#endif
