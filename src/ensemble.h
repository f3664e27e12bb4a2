/* The state of a simulation: polygons ("hoops") and their vertices.
 *
 * Vertex data live in flat arrays (structure of arrays). Polygon p owns the slots
 * [start[p], start[p] + count[p]), counter-clockwise; edge i runs from vertex i to the next of the
 * same polygon, l0[i] its rest length. The slots stay in polygon order (start[p] + count[p] <=
 * start[p + 1]) but may have gaps between polygons (`gaps`): topological changes leave them, new
 * polygons are appended, remodeling keeps them as room to grow. So loops go polygon by polygon,
 * never over the slots 0 .. nv_used, whose gaps hold stale data. Nothing keeps a pointer into
 * these arrays across a step: they move when they grow.
 *
 * The per-polygon arrays are listed once, X(type, name, type in checkpoints, value of a new
 * polygon): the members, their allocation, ensemble_keep, ensemble_push_polygon (its locals n,
 * area and perimeter are the new polygon's) and the checkpoint's record all come from these
 * lists, so a new polygon datum is one line here. ENSEMBLE_POLYGON_STORED is the checkpoint's
 * record in file order: append, never reorder. ENSEMBLE_POLYGON_DERIVED is rebuilt from the
 * vertices. */
#ifndef PH_ENSEMBLE_H
#define PH_ENSEMBLE_H
#include <stdint.h>
#include <stddef.h>

/* the most per-cell variables (cells.h) */
enum { ENSEMBLE_MAX_VARS = 16 };

#define ENSEMBLE_POLYGON_STORED(X) \
    X(int,           count,  int32_t, n)           /* vertices: slots [start, start + count) */ \
    X(int,           gen,    int32_t, 0)           /* generation: 0 in the input, mother's + 1 */ \
    X(double,        A0,     double,  area)        /* target area */ \
    X(double,        Amax,   double,  INFINITY)    /* division area */ \
    X(double,        alpha,  double,  0)           /* growth rate dA0/dt */ \
    X(double,        birth,  double,  e->t)        /* time of birth */ \
    X(int64_t,       id,     int64_t, e->next_id++) /* stable id, never reused */ \
    X(int64_t,       parent, int64_t, -1)          /* id of the parent; -1: none */ \
    X(signed char,   phase,  int8_t,  1)           /* +1 or -1 */ \
    X(unsigned char, rigid,  uint8_t, 0)           /* 1: never moves (docs/model.md 6) */ \
    X(uint32_t,      edits,  uint32_t, 0)          /* vertex list rewrites under the same id */ \
    X(unsigned char, attracted, uint8_t, 0)        /* 1: feels the attractor (docs/model.md 2) */ \
    X(double,        polarity, double, 0)          /* propulsion angle, rad (docs/model.md 3.1) */ \
    X(double,        h_div,  double,  0)           /* division hazard (docs/model.md 5.1) */ \
    X(double,        h_death, double, 0)           /* death hazard; both integrated since birth */ \
    X(int,           type,   int32_t, 0)           /* cell type, < ntypes (docs/model.md 11) */
#define ENSEMBLE_POLYGON_DERIVED(X) \
    X(int,           start,  void,    e->nv_used)  /* first vertex slot */ \
    X(double,        A,      void,    area)        /* current area (geometry pass) */ \
    X(double,        L,      void,    perimeter)   /* current perimeter (geometry pass) */
#define ENSEMBLE_POLYGON_FIELDS(X) ENSEMBLE_POLYGON_STORED(X) ENSEMBLE_POLYGON_DERIVED(X)

/* Two polygons p and q in contact, and the length of it (contact_lengths). */
typedef struct ContactLength { int p, q; double len; } ContactLength;

/* An event of the run, for its log (events.csv): the polygons before and after it, by id (-1:
 * none), and the step it happened in. */
typedef struct Event { int64_t step; int type; int64_t before[2], after[2]; } Event;
/* The kinds of event: X(index, name in events.csv). */
#define ENSEMBLE_EVENTS(X) \
    X(EVENT_DIVISION, "division") X(EVENT_REMOVAL, "removal") X(EVENT_FUSION, "fusion") \
    X(EVENT_SPLIT, "split") X(EVENT_DEATH, "death") X(EVENT_PASSAGE, "passage")
#define ENSEMBLE_EVENT_INDEX(index, name) index,
enum { ENSEMBLE_EVENTS(ENSEMBLE_EVENT_INDEX) EVENT_KINDS };
#undef ENSEMBLE_EVENT_INDEX

typedef struct Ensemble {
    /* vertices: nv_used slots in use (including gaps), nv_cap allocated */
    int nv_used, nv_cap;
    double *x, *y;     /* position */
    double *vx, *vy;   /* velocity */
    double *fx, *fy;   /* force = acceleration (m = 1) of the current step */
    double *l0;        /* rest length of the edge that follows the vertex */
    int *pid;          /* polygon that owns the slot */

    /* polygons: np in use, np_cap allocated; one array per line of ENSEMBLE_POLYGON_FIELDS.
     * Daughters and fusion products inherit attracted, polarity and type. */
    int np, np_cap;
#define ENSEMBLE_MEMBER(type, name, file_type, init) type *name;
    ENSEMBLE_POLYGON_FIELDS(ENSEMBLE_MEMBER)
#undef ENSEMBLE_MEMBER

    int gaps;          /* 1 when the vertex slots are not contiguous in polygon order */
    uint64_t layout;   /* changes whenever slots are reassigned (a polygon whose vertex list
                        * changes gets a new id or edits + 1): for whoever keeps slot numbers */
    int64_t next_id;   /* next polygon id to hand out */
    double t;          /* simulated time */
    int64_t step;      /* steps done */
    uint64_t seed;     /* random stream (rng.h): seed and the number of draws taken */
    uint64_t draws;
    Event *events;     /* the events since the log was last written (log_events: 1 to keep them) */
    int nevents, events_cap, log_events;
    /* per cell type, set by Sim each step, or NULL: the parameters (one set for all), and by
     * pair of types (ntypes_kh^2) the adhesion stiffness (NULL: kh) and friction (NULL: mu) */
    const struct Params *type_params;
    const double *type_kh;
    const double *type_mu;
    int ntypes_kh;
    /* per-cell variables (cells.h): nvar per polygon, polygon p's at var[p * nvar]; a new
     * polygon's are var_new until the caller sets them; the model's rules (NULL: none) */
    int nvar;
    double *var;
    double var_new[ENSEMBLE_MAX_VARS];
    const struct ChemModel *model;
    int64_t var_bad;             /* a polygon's id whose variables a rule made non-finite, or -1 */
    const char *var_bad_rule;
    struct EnsembleBands {   /* which thread works on which polygons (bands.h): scheduling, never
                                a result; adding or removing polygons marks them stale */
        int n, np, cap, ncap;  /* bands, the polygon count they were made for (-1: stale) */
        int *order, *at;       /* polygons by band: band t is order[at[t] .. at[t + 1]) */
        double *y;             /* band t lies in heights [y[t], y[t + 1]) */
    } bands;
} Ensemble;

/* The data a vertex carries (fx, fy and pid are rebuilt, not carried), in the order remodeling,
 * division, fusion, the spatial sort and the checkpoint move them; l0 last, after the fields a
 * new vertex interpolates. */
#define ENSEMBLE_VERTEX_FIELDS(X) X(x) X(y) X(vx) X(vy) X(l0)
#define ENSEMBLE_FIELD_INDEX(name) V_##name,
enum { ENSEMBLE_VERTEX_FIELDS(ENSEMBLE_FIELD_INDEX) ENSEMBLE_NFIELDS };
#undef ENSEMBLE_FIELD_INDEX

/* d[f] = field f of e from slot s on (the arrays move when they grow: use them at once). */
static inline void ensemble_fields(const Ensemble *e, int s, double *d[ENSEMBLE_NFIELDS])
{
#define ENSEMBLE_FIELD_AT(name) *d++ = e->name + s;
    ENSEMBLE_VERTEX_FIELDS(ENSEMBLE_FIELD_AT)
#undef ENSEMBLE_FIELD_AT
}

/* realloc that ends the program (status 1) when memory runs out: there is no sensible way on. */
void *ph_realloc(void *p, size_t size);

/* Room for n elements of the work array buf of capacity cap: it grows to n + n / 4 + 64
 * (amortised O(1) appends, a large array at most a quarter too large). */
#define PH_RESERVE(buf, cap, n) do { if ((size_t)(n) > (size_t)(cap)) { \
    (cap) = (n) + (n) / 4 + 64; \
    (buf) = ph_realloc((buf), (size_t)(cap) * sizeof *(buf)); } } while (0)

void ensemble_init(Ensemble *e, uint64_t seed);
void ensemble_free(Ensemble *e);

/* Ensures room for nv_used + nv more vertex slots and np more polygons (may move the arrays). */
void ensemble_reserve(Ensemble *e, int nv, int np);

/* Appends a polygon with n vertices (rest lengths = current edge lengths, zero velocity,
 * A0 = its area, id from next_id) and returns its index. Amax and alpha are set by the caller. */
int ensemble_add_polygon(Ensemble *e, int n, const double *x, const double *y, int phase,
                         int rigid);

/* Appends a polygon with the given vertex data and returns its index; its polygon data are the
 * list's values for a new polygon (A0 = its area, a new id, no parent, born now). */
int ensemble_push_polygon(Ensemble *e, int n, const double *x, const double *y, const double *vx,
                          const double *vy, const double *l0);

/* Notes an event of the current step (serial code only), if events are logged. */
void ensemble_event(Ensemble *e, int type, int64_t before0, int64_t before1, int64_t after0,
                    int64_t after1);

/* Removes the polygons with keep[p] == 0, keeping the order of the others. */
void ensemble_keep(Ensemble *e, const unsigned char *keep);

/* Index of the vertex after / before slot i (cyclic within its polygon). */
static inline int ens_next(const Ensemble *e, int i)
{
    int p = e->pid[i];
    return i + 1 == e->start[p] + e->count[p] ? e->start[p] : i + 1;
}
static inline int ens_prev(const Ensemble *e, int i)
{
    int p = e->pid[i];
    return i == e->start[p] ? e->start[p] + e->count[p] - 1 : i - 1;
}

/* Checks every polygon: at least 3 vertices, slots in polygon order and owned by it, finite
 * positions, counter-clockwise with positive area, no two non-adjacent edges crossing. Returns 0,
 * or -1 with the first problem in msg. For tests and checked runs. */
int ensemble_validate(const Ensemble *e, char *msg, size_t len);

/* Total number of vertices in polygons (excludes gaps). */
int ensemble_vertex_count(const Ensemble *e);

/* The bounding box of polygon p's vertices. */
void ensemble_polygon_box(const Ensemble *e, int p, double *xmin, double *ymin, double *xmax,
                          double *ymax);

#endif
