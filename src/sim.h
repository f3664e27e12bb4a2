/* A simulation: the parameters, the ensemble and the work buffers of the step, and what the
 * step counts and times (sim.c). */
#ifndef PH_SIM_H
#define PH_SIM_H
#include "contact.h"
#include "ensemble.h"
#include "params.h"
#include "remodel.h"
#include "topology.h"

/* The program's exit statuses. */
enum { PH_EXIT_OK = 0, PH_EXIT_MEMORY = 1, PH_EXIT_USAGE = 2, PH_EXIT_BLOWUP = 3, PH_EXIT_OUTPUT = 4 };

enum { T_REMODEL, T_INTERNAL, T_CONTACT, T_INTEGRATE, T_FUSION, T_TOPOLOGY, T_OUTPUT, T_COUNT };
extern const char *const timer_names[T_COUNT];

/* Memory per vertex of a run, an upper bound from the measured 165-260 bytes (README). */
#define SIM_BYTES_PER_VERTEX 300.0

typedef struct Sim {
    Params P;
    Ensemble e;
    Contact contact;
    Remodel remodel;
    TopologyWork topology;
    double timer[T_COUNT];     /* wall seconds spent in each phase */
    double vertex_steps;       /* sum over steps of the vertex count */
    int64_t divisions, removals, fusions1, fusions2, deaths;
    int validate;              /* 1: check every polygon after every step (tests) */
    int sort_every, sort_from; /* polygons ordered by position every sort_every steps from sort_from
                                  vertices on (remodel_sort; sim_init: REMODEL_SORT_*, tests lower them) */
    int64_t first_step;        /* the step this process started from (input: 0, or a checkpoint's) */
    int from_checkpoint;       /* the state came from a checkpoint */
    int input_overlaps;        /* the input had crossing edges (warned at start) */
    double max_vertices;       /* the most vertices an input may remodel into (0: automatic, see sim_load_input) */
    const char *velocities;    /* the input's velocity file (docs/model.md 7), or NULL: all at rest */
    char error[512];           /* why the last step failed */
} Sim;

void sim_init(Sim *s, const Params *P, uint64_t seed);
void sim_free(Sim *s);

/* Gives every non-rigid polygon its growth rate, division area and polarity (call once after
 * loading). */
void sim_draw_traits(Sim *s);

/* Marks att_n movable polygons, drawn at random from the seed's stream, as feeling the attractor
 * (all of them if there are fewer); the others do not. Called once, after the input is read. */
void sim_pick_attracted(Sim *s);

/* Adds the polygons of an OFF file (the first Nr rigid), with the velocities of s->velocities
 * when it is set (every vertex of a polygon gets its polygon's), draws their traits and checks the
 * input (polygons that cross, touch or nest in one of the same phase, overlap.h: a warning, an
 * error with strict; polygons below Amin, which the first step removes: a warning). An input
 * whose edges would remodel into more than s->max_vertices vertices is refused with the figures;
 * 0 means the larger of 10^6 and 1000 times the input's vertices, but no more than half the
 * machine's memory at SIM_BYTES_PER_VERTEX. Returns 0, or -1 after saying why on stderr. */
int sim_load_input(Sim *s, const char *input, int strict);

/* The likely cause of a blow-up, from what was checked at start: a dt over the stability
 * estimate, an overlapping input, the first steps after the input, or else the time step. */
void sim_likely_cause(const Sim *s, char *buf, size_t len);

/* Replaces the state of s by the checkpoint of the run in dir, whose parameters must be the
 * compiled ones except Nf and Ns; fills *frame, its input's name and the run's record (options,
 * colour range). 0, or -1 after saying why. */
struct RunRecord;
int sim_restart(Sim *s, const char *dir, int *frame, char *input, size_t inlen, struct RunRecord *run);

/* Advances the simulation by one time step. Returns 0, or -1 when a position became non-finite
 * or (with s->validate) a polygon failed ensemble_validate; s->error then says which polygon,
 * when and why, and the state is not usable. */
int sim_step(Sim *s);

/* The largest sum over the vertices of a movable polygon of |dA/dr_i|^2, with
 * |dA/dr_i| = |r_{i+1} - r_{i-1}| / 2: the stiffness of its breathing mode per unit ka
 * (params_stable_dt). */
double sim_area_g2(const Sim *s);

/* Recomputes the geometry and contacts of the current state and fills nb[p] with the number of
 * neighbouring polygons (for the output). */
void sim_neighbors(Sim *s, int *nb);

#endif
