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
    X(T_INTEGRATE, "integrate") X(T_FUSION, "fusion") X(T_TOPOLOGY, "topology") \
    X(T_CHEM, "chemistry") X(T_OUTPUT, "output")
#define SIM_TIMER_INDEX(index, name) index,
enum { SIM_TIMERS(SIM_TIMER_INDEX) T_COUNT };
#undef SIM_TIMER_INDEX
extern const char *const timer_names[T_COUNT];

/* Memory per vertex of a run: an upper bound, twice what large runs use (docs/performance.md
 * "Memory"). */
#define SIM_BYTES_PER_VERTEX 300.0

typedef struct Sim {
    Params P;
    ParamsSet set;             /* which of P the command line's --set gave */
    Ensemble e;
    Contact contact;
    Remodel remodel;
    TopologyWork topology;
    Chem chem;                 /* cell types and chemical species (ns = 0: off) */
    Params *type_params;       /* per cell type where the model sets any, else NULL */
    double timer[T_COUNT];     /* wall seconds in each phase */
    double vertex_steps;       /* sum over steps of the vertex count */
    int64_t divisions, removals, fusions1, fusions2, deaths, passages;
    int validate;              /* 1: check every polygon after every step */
    int sort_every, sort_from; /* remodel_sort every sort_every steps from sort_from vertices on */
    int64_t first_step;        /* the step this process started from */
    int from_checkpoint;
    int input_overlaps;        /* the input had crossing edges (warned at start) */
    int input_fastest;         /* the polygon the velocity file made fastest, or -1 */
    double input_speed;        /* its speed */
    /* the cells outside the chemistry's grid at start; -1 once a step has warned of more */
    int grid_outside;
    /* the last state known sound (set-up, each checked frame): its sim_stable_dt, the term that
     * sets it and the cell type (-1: one set of parameters), for sim_likely_cause */
    double dt_max;
    const char *dt_stiff;
    int dt_type;
    int bad_rule;              /* the last step failed on a cell rule's value (cells_bad) */
    double chem_wall;          /* wall seconds of the last chemical step (-1: none yet) */
    const volatile sig_atomic_t *stop;   /* set: the chemical step gives up once *stop != 0 */
    char error[8192];          /* why the last step, check or set-up failed */
} Sim;

/* The command line's choices for a run besides the parameters (options.h). */
typedef struct SimSetup {
    int frames, steps;         /* Nf and Ns; -1: the parameters' (a restart keeps its Ns) */
    int validate;              /* --check */
    int strict;                /* --strict-input: refuse an input whose polygons overlap */
    double max_vertices;       /* the most vertices an input may remodel into (0: automatic) */
    const char *velocities;    /* the input's velocity file (docs/model.md 7), or NULL: at rest */
} SimSetup;

void sim_init(Sim *s, const Params *P, uint64_t seed);

/* Sets up the chemistry of model m (chem.h) for s->P.dt, before the input or checkpoint is read.
 * 0, or -1 with s->error (the model cannot run, e.g. too many sub-steps). */
int sim_chemistry(Sim *s, const ChemModel *m);
void sim_free(Sim *s);

/* Gives every movable polygon its growth rate, division area and polarity (once, on loading). */
void sim_draw_traits(Sim *s);

/* Marks att_n movable polygons (or all, if fewer), drawn from the seed's stream, as feeling the
 * attractor. Once, after the input is read. */
void sim_pick_attracted(Sim *s);

/* Adds the polygons of an OFF file (the first Nr rigid) with the velocities of u->velocities,
 * draws their traits and checks them, warning on stderr. An input that would remodel into more
 * than u->max_vertices vertices is refused (0: the larger of 10^6 and 1000 times its vertices,
 * at most half the memory at SIM_BYTES_PER_VERTEX). u NULL: at rest, not strict, automatic.
 * Returns 0, or -1 with s->error. */
int sim_load_input(Sim *s, const char *input, const SimSetup *u);

/* Checks the polygons for pairs that share area or boundary (overlap.h: crossing, touching, or
 * nested in one of the same phase) and names the first pair and its share of area: a warning on
 * stderr, or with strict an error (-1 with s->error). line[p]: the line of polygon p's face in
 * file; line NULL: a checkpoint, whose polygons a run may have crossed (docs/model.md 4) and
 * whose projectiles it delivers into cells (docs/model.md 5.2: not named when v_pass > 0). */
int sim_check_overlaps(Sim *s, const char *file, const int *line, int strict);

/* Applies the run's frames, steps and validation (after sim_load_input or checkpoint_restart).
 * -1 with s->error: a restart asked for other steps per frame or fewer frames than it is at;
 * steps per frame that are not a multiple of the chemical step. */
int sim_setup(Sim *s, const SimSetup *u);

/* The likely cause of a blow-up: the chemistry's rules, a dt over the stability limit (of the
 * last sound state: a blown-up one has far-flung vertices), an overlapping input, an input
 * velocity close to h/dt, the first steps after the input, or else the time step. */
void sim_likely_cause(const Sim *s, char *buf, size_t len);

/* The exit status of a failed step: PH_EXIT_USAGE where the header's response rule gave a result
 * out of range (the header is wrong, not the numerics), else PH_EXIT_BLOWUP. */
int sim_failure_status(const Sim *s);

/* Advances the simulation by one time step. Returns 0; 1 when s->stop made it give up its
 * chemical step (the state is part-way through it: the caller holds a checkpoint of the one
 * before); -1 with s->error, the state unusable, when a vertex became non-finite or moved
 * farther than h, the chemistry failed, or (s->validate) a polygon failed ensemble_validate. */
int sim_step(Sim *s);

/* The largest sum over the vertices of a movable polygon of |dA/dr_i|^2, with
 * |dA/dr_i| = |r_{i+1} - r_{i-1}| / 2: the stiffness of its breathing mode per unit ka
 * (params_stable_dt). */
double sim_area_g2(const Sim *s);

/* The largest stable time step (params_stable_dt), or where the cell types have their own
 * parameters (docs/model.md 11) the smallest over the types. *what names the term that sets it,
 * *type the cell type (-1: the header's parameters). */
double sim_stable_dt(const Sim *s, const char **what, int *type);

/* The start-up warning of params_warn_dt for sim_stable_dt; 1 if given. */
int sim_warn_dt(FILE *f, const Sim *s);

/* The start-up warning that cells reach outside the chemistry's grid (chem_outside); 1 if given.
 * The count is kept: the first chemical step with more outside warns once more. */
int sim_warn_grid(FILE *f, Sim *s);

/* Checks a state before it is written, so that every frame is valid: every polygon of positive
 * area and not crossing itself. A hoop that twisted in the last step is no fault: the next
 * step's remodeling cuts the twist out (docs/model.md 4), so it is done now and the state checked
 * again. 0, or -1 with s->error. */
int sim_check_frame(Sim *s);

/* For the output, from one grid of the current state (contact_frame): nb[p] the neighbouring
 * polygons of p, same[p] (unless NULL) those of p's cell type; returns the total pair energy. */
double sim_neighbors(Sim *s, int *nb, int *same);

#endif
