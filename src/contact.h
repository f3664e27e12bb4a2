/* Contact detection and the pair forces of a step (paper 3.4; docs/model.md 2): which (vertex,
 * edge) pairs lie within the reach, found with the grid (grid.h) or a neighbour list, and their
 * forces by the pair law (pair.h) summed race-free in a fixed order. Everything that needs
 * neighbours (the step's pair forces, fusion, the neighbour count of the output) asks this
 * module.
 *
 * Work per edge, not per vertex pair: the model defines pairs (vertex P, vertex Q), where Q picks
 * the closer of its two edges. Both ends of an edge may pick it, so the code projects P once on
 * each nearby edge and counts how many of the edge's two ends pick it (0, 1 or 2) by comparing
 * with the two adjacent edges, which lie in the same short list.
 *
 * Strips: the edges are binned by their midpoint in cells of side lmax / 2 + reach, so the edges
 * that can reach a vertex have their midpoints in the vertex's 3x3 cells, and the rows of the
 * walk cells (grid.h: as large or larger) are cut into strips of GRID_STRIP (four) rows, of which
 * the grid keeps those next to its vertices (a table; strips two apart in it are at least two
 * apart in the plane). A vertex P in a strip writes its own force and the
 * reactions on the ends of the edges it touches, which are at most lmax + reach (less than two
 * cells) away from P, so strips two apart never write the same vertex. Each thread takes the
 * strips of its band of the ensemble (bands.h) and runs every odd strip after both its even
 * neighbours (contact.c), each strip in a fixed order. Every force is therefore summed in the
 * same order (its even strip's terms, then its odd strip's) whatever the number of threads,
 * without atomic sums or a second pass; a flag per strip says when the next band's first strip
 * is done, so no thread waits for all the others in the middle of a walk.
 *
 * Neighbour list (contact_forces_step): while building, each vertex also keeps the edges within
 * the reach plus a skin as thick as the reach; the steps evaluate it instead of the grid while
 * every pair within the reach is surely in it. Layout: per strip two int32 arrays of its listed
 * edges, the vertex i and the edge k -> k1, a record (a run of one vertex i) for each vertex with
 * edges within the reach plus the skin, in slot order (an edge's neighbours along its polygon stand
 * next to it, where the picking ends find them). An edge's far end k1 is k + 1 but for a polygon's
 * last edge; that edge and the edges of i's own polygon are stored as ~k, and looked up
 * (contact_impl.h: edge_code). 8 bytes a listed edge, the list's whole memory (a tissue has about
 * 2.3 edges per vertex, a packing 0.7), which the batched walk reads as it is. The strips of the
 * build are kept, so the reactions stay race-free and the sums in a fixed order.
 *
 * Motion budgets (docs/model.md 2.2): a pair not in the list was farther than reach + skin when
 * its vertex's record was made. Each polygon accumulates a bound on how far its vertices moved
 * relative to a flow u(x) = a + B x fitted to the polygons' mean velocities (contact_moved); the
 * relative motion of two polygons is at most the sum of their bounds, so the list is complete
 * while every bound is below half the skin. Far from that, or where the flow does not help, one
 * bound (the largest speed) serves all polygons without a pass over the vertices.
 *
 * Patching: when polygons are remodeled, divided, fused or removed (Ensemble.layout changed), or
 * have used their budget, the list is patched, not rebuilt. A polygon whose id, vertex count and
 * edits (ensemble.h) are those of the list's snapshot is unchanged: its slots are renumbered.
 * Every edge of a changed or new polygon q lies in the bounding box of q's vertices, so a vertex
 * farther than the reach plus the skin from that box cannot meet q's new edges before the list
 * is rebuilt anyway: only the vertices within it (found through the cells of the build's grid)
 * get new records, from the edges around them; entries for edges that no longer exist are
 * dropped, and the budgets of those polygons start again. A new record goes to the strip of the
 * vertex's current cell; writes of a vertex stay within lmax + reach + skin of it, and strips
 * two apart are 4 cells >= 2 lmax + 4 (reach + skin) apart, so the sums stay race-free. The list
 * is rebuilt when a vertex may have left its strip's band (absolute motion), an edge is longer
 * than the build's cells allow, or too many vertices would get new records (half of them, an
 * eighth from 65,536 vertices on), or a vertex is in a strip that the build's table lacks, or the
 * marks of a sparse grid would visit more than 16 cells per vertex. */
#ifndef PH_CONTACT_H
#define PH_CONTACT_H
#include "ensemble.h"
#include "grid.h"
#include "pair.h"
#include "params.h"
#include <stdio.h>

/* The state of contact detection. A Sim holds it by value, so its fields are visible here, but
 * they are this module's own: other modules use the functions below. */
typedef struct Contact {
    Grid grid;                /* of the last build; released while a list serves (large ensembles) */
    struct ContactWork *work; /* per thread: work lists, pair records */
    int nthreads;
    int keep_records;         /* keep the pairs of the next evaluation (contact_keep_records) */
    int nb_vertex;            /* the neighbour pairs are (vertex, polygon), not (polygon, polygon) */
    int walk_plain;           /* this walk: no rigid polygon, no pairs kept, no types' matrix (vertex_forces' plain) */
    int walk_rigid;           /* this walk: some polygon is rigid */
    int walk_batched;         /* this walk over the list: in batches (strip_batch_walk) */
    int64_t last_walked, last_near;   /* the last walk's listed edges and those within the reach */
    double *u;                /* pair energy owned by each vertex (allocated when requested) */
    struct ContactStrip *strip;   /* the list's strips (see above) */
    int *strip_id;                /* their real strip numbers (grid.h: the table of the build's grid) */
    int nstrips, strips_cap;
    struct ContactDone *done;     /* per strip: the last walk that has run it (set for even strips) */
    int done_cap;
    int64_t walks;                /* walks over the strips so far */
    struct ContactSnap *snap;     /* the polygons the list's slot numbers refer to, patch work space */
    int list_ok;              /* a list exists (contact_forces_step built it) */
    uint64_t list_layout;     /* Ensemble.layout its slot numbers refer to */
    double list_skin, list_reach, list_h, list_extent;   /* its skin and reach; largest |coordinate| */
    double list_x0, list_y0, list_cs, list_inv;   /* the build's walk cells: origin, side and its inverse, nx * ny of them */
    int list_nx, list_ny;
    double list_lcell;        /* the longest edge its cells allow */
    double moved;             /* bound on how far any vertex moved since it was built */
    double *wander;           /* per polygon: bound on how far its vertices moved relative to the flow */
    int wander_cap;           /* since their records were made (see above) */
    double wander_max;
    double lazy;              /* motion not yet added to every polygon's wander (contact_moved) */
    int flow_helps;           /* the flow kept most polygons' wander below half the largest speed */
    int64_t motion_patch;     /* the step of the last patch called for by motion alone */
    double flow[6];           /* the fitted flow u(x) = (f0 + f2 x + f3 y, f1 + f4 x + f5 y) */
    int64_t builds, patches, reuses;   /* steps that built the list, patched it, reused it */
} Contact;

void contact_init(Contact *c);
void contact_free(Contact *c);

/* Builds the grid for the current positions and adds all pair forces (conservative, contact
 * damping, friction) to fx, fy. lmax is the longest edge (forces_update_geometry); with
 * energy != NULL the total pair energy is stored there (summed in slot order). */
void contact_forces(Contact *c, Ensemble *e, const Params *P, double lmax, double *energy);

/* The total pair energy that contact_forces stores (the same sum in the same order), without the
 * forces and without an energy per vertex: a grid of its own (released again for large
 * ensembles), the vertices' energies summed in slot order a block at a time. For a frame's log. */
double contact_energy(Contact *c, const Ensemble *e, const Params *P, double lmax);

/* The same for a step of a simulation (no energy): reuses the neighbour list of the last call
 * while it is complete, patches it when polygons changed, else builds the grid and a new list
 * (see above). The caller reports every motion of the vertices with contact_moved; any other
 * change of positions must call contact_invalidate. Polygons may change only as ensemble.h says
 * (a new id, or a new edits count, for a polygon whose vertex list changed). */
void contact_forces_step(Contact *c, Ensemble *e, const Params *P, double lmax);

/* The vertices moved for dt at their velocities, the largest vmax (integrate). */
void contact_moved(Contact *c, const Ensemble *e, double dt, double vmax);

/* The next contact_forces_step starts afresh, as after contact_init. */
void contact_invalidate(Contact *c);

/* Gives back the work space that patches keep from one to the next (in an ensemble of 65,536
 * vertex slots or more: the largest patch's vertices and edges and a few bytes per slot, about 20
 * bytes per vertex of a packing), for a time when something else needs the memory: a rebuild of
 * the list calls it before its grid, a frame before its grids. The next patch allocates it anew. */
void contact_trim(Contact *c);

/* nb[p] = the number of other polygons q such that a vertex of p and an edge of q interact: the
 * pairs whose forces contact_forces evaluates, but without evaluating them (fx, fy untouched).
 * From the list if it is usable, else from a new grid (released again for large ensembles). The
 * list and the state of the next step are unchanged; the count is the same at any thread count.
 * For the neighbour count of a frame. */
void contact_count_neighbors(Contact *c, const Ensemble *e, const Params *P, double lmax, int *nb);

/* The same, and same[p] (unless NULL) = how many of them have p's cell type. */
void contact_count_neighbor_types(Contact *c, const Ensemble *e, const Params *P, double lmax, int *nb, int *same);

/* A frame's contact figures from one grid (released again for large ensembles): returns the
 * total pair energy (contact_energy) and fills nb and same (unless NULL) as
 * contact_count_neighbor_types does. c is a Contact of its own (contact_init), not the step's,
 * whose list stays as it is. */
double contact_frame(Contact *c, const Ensemble *e, const Params *P, double lmax, int *nb, int *same);

/* The contact lengths between polygons: for each vertex of p that interacts with an edge of q (as
 * contact_count_neighbors finds them), half of its two edges' lengths counts to L(p, q); the
 * length of a pair is the mean of L(p, q) and L(q, p). Into *pq (ph_realloc'd) as n triples
 * (p, q, length), each pair both ways, sorted by p then q; returns n. Sums in a fixed order: the
 * same at any thread count. From the list if usable, else a grid, as contact_count_neighbors. */
int contact_lengths(Contact *c, const Ensemble *e, const Params *P, double lmax,
                    ContactLength **pq);

/* Whether the next evaluations keep their pairs as records (fusion looks at a step's pairs). */
void contact_keep_records(Contact *c, int on);

/* The pair records of the last evaluation, in parts 0 .. contact_record_parts(c) - 1 (one per
 * thread, in no particular order): part `part` has *n of them. */
int contact_record_parts(const Contact *c);
const PairRec *contact_records(const Contact *c, int part, int *n);

/* How many steps built the list, patched it, and reused it unchanged. */
void contact_counts(const Contact *c, int64_t *builds, int64_t *patches, int64_t *reuses);

/* How many listed edges the steps' walks over the list took (all of a record's edges, in reach or
 * not; not those of a step that built the list), since the program started. */
int64_t contact_walked(const Contact *c);

/* Whether the grid's memory is held (tests of memory use: a serving list frees it). */
int contact_holds_grid(const Contact *c);

/* Writes the list section of a checkpoint of the ensemble e: int32 state (0: no list; 1: a list;
 * 2: a list whose slots are e's as they are, no polygon changed since its last build or patch,
 * which a restart takes as it is, as the run never interrupted does), and for a list its skin, reach,
 * h, extent, motion, grid origin x0, y0, cell side, longest edge, flow (6), lazy motion,
 * whether the flow helps and the step of the last patch for motion alone (doubles), int32 nx, ny, strips,
 * when the strips are fewer than the ny / GRID_STRIP (rounded up) of the grid (a sparse grid's
 * table) their int32 real numbers, then per strip an int64 length and its ints (records (i, n, k_1,
 * k1_1, ..., k_n, k1_n): each edge with its far end), then the
 * snapshot: int32 polygons, int64 next id, and per polygon int64 id, int32 start (slots numbered as if the polygons lay contiguously), count, edits,
 * double wander. Each piece goes through put(out, bytes, n), the checkpoint's writer (which
 * checksums it and keeps the first error). */
void contact_save(const Contact *c, const Ensemble *e, void (*put)(void *out, const void *d, size_t n), void *out);

/* Reads that section into c; at most `left` bytes of it remain in the file, and e is the
 * ensemble just read (contiguous: the file's slot numbers), or NULL (then a list of state 2 is
 * taken as one of state 1: the next step patches it). Its numbers must be those a run with
 * parameters P can have written by step `step` (its reach, skin and h, its grid, its motion
 * bounds; contact_list.c), its records must name the snapshot's slots, and with state 2 its
 * snapshot must be e's polygons.
 * Returns 0, or -1 with the reason in why (len bytes) when the section is truncated or holds
 * what no run writes (then c starts afresh). */
int contact_load(Contact *c, const Ensemble *e, FILE *f, size_t left, const Params *P, int64_t step, char *why, size_t len);

#endif
