/* The simulation: set-up from an input or a checkpoint, the time step, and the check of a frame.
 *
 * The step (sim_step), in the order of docs/model.md section 3; each phase is one timed call:
 *   0. order:      every sort_every steps, polygons put in memory by position (remodel_sort;
 *                  the contact list refers to slots and is dropped), then one band of polygons
 *                  per thread (bands_update)
 *   1. remodel:    cut out twists, collapse edges shorter than lmin, bisect those longer than
 *                  lmax                                                       (model.md 4)
 *   2. internal:   areas, perimeters, longest edge; the forces within each polygon, dissipation,
 *                  noise and self-propulsion                                  (model.md 2)
 *   3. chemistry:  on a chemical step the cells sense and respond and the fields advance
 *                  (chem_step); every step the response's forces            (model.md 11)
 *   4. contact:    pair forces between hoop segments over a list of nearby edges, reused while
 *                  the motion budgets allow, patched or rebuilt from the cell grid (model.md 2)
 *   5. integrate:  semi-implicit Euler, growth of the target areas; then the list's motion
 *                  budgets (contact_moved); a vertex that moved farther than h ends the step
 *                  with an error                                              (model.md 3)
 *   6. fusion:     projectiles passing a membrane, then merging and splitting of touching
 *                  hoops, from the pairs of phase 4                           (model.md 5)
 *   7. topology:   division, then removal below Amin and rate-driven death    (model.md 5)
 * and the clock advances (t = step dt). A frame is checked before it is written
 * (sim_check_frame): every polygon of positive area and not crossing itself. */
#define _POSIX_C_SOURCE 200809L
#include "sim.h"
#include "bands.h"
#include "cells.h"
#include "forces.h"
#include "fusion.h"
#include "geometry.h"
#include "grid.h"
#include "integrate.h"
#include "off.h"
#include "overlap.h"
#include "passage.h"
#include "rng.h"
#include "text.h"
#include "topology.h"
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <float.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TIMER_NAME(index, name) [index] = name,
const char *const timer_names[T_COUNT] = { SIM_TIMERS(TIMER_NAME) };
#undef TIMER_NAME

void sim_init(Sim *s, const Params *P, uint64_t seed)
{
    memset(s, 0, sizeof *s);
    s->P = *P;
    ensemble_init(&s->e, seed);
    contact_init(&s->contact);
    remodel_init(&s->remodel);
    s->sort_every = REMODEL_SORT_EVERY;
    s->sort_from = REMODEL_SORT_FROM;
    s->input_fastest = -1;
    s->chem_wall = -1;
}

/* the cell types' own parameters and adhesion, where the forces find them (the ensemble, which
 * a checkpoint's read starts afresh: so before each use) */
static void bind_types(Sim *s)
{
    s->e.type_params = s->type_params;
    s->e.type_kh = s->chem.m.type_kh;
    s->e.type_mu = s->chem.m.type_mu;
    s->e.ntypes_kh = s->chem.m.ntypes;
}

/* A matrix by pair of cell types (docs/model.md 11): every entry in [0, max] and symmetric; -1
 * with the first bad entry in s->error (what it is, and why the bound: `bound`). */
static int check_matrix(Sim *s, const ChemModel *m, const double *v, const char *what,
                        const char *name, double max, const char *bound)
{
    for (int a = 0; v && a < m->ntypes; a++)
        for (int b = 0; b < m->ntypes; b++) {
            double x = v[a * m->ntypes + b], y = v[b * m->ntypes + a];
            if (!(x >= 0 && x <= max) || x != y) {
                snprintf(s->error, sizeof s->error, "the %s matrix's %s[%d][%d] = %g must be >= 0, "
                         "%s and equal to %s[%d][%d] = %g",
                         what, name, a, b, x, bound, name, b, a, y);
                return -1;
            }
        }
    return 0;
}

int sim_chemistry(Sim *s, const ChemModel *m)
{
    chem_free(&s->chem);
    free(s->type_params);
    s->type_params = NULL;
    if (chem_init(&s->chem, m, s->P.dt, s->error, sizeof s->error)) return -1;
    cells_bind(&s->e, &s->chem.m);
    char bound[128];
    snprintf(bound, sizeof bound, "at most kh = %g (which sets the reach of adhesion: raise kh)",
             s->P.kh);
    if (check_matrix(s, m, m->type_kh, "adhesion", "kh", s->P.kh, bound) ||
        check_matrix(s, m, m->type_mu, "friction", "mu", DBL_MAX, "finite"))
        return -1;
    int own = 0;
    for (int k = 0; k < CHEM_TYPE_NPARAMS; k++) own |= m->type_value[k] != NULL;
    if (!own) return 0;
    /* every type's parameters: the header's, with its own values where it has them */
    s->type_params = ph_realloc(NULL, (size_t)m->ntypes * sizeof *s->type_params);
    for (int t = 0; t < m->ntypes; t++) {
        Params *q = &s->type_params[t];
        *q = s->P;
#define OWN(name) if (m->type_value[CHEM_TYPE_##name]) q->name = m->type_value[CHEM_TYPE_##name][t];
        CHEM_TYPE_PARAMS(OWN)
#undef OWN
        char why[256];
        if (params_check(q, why, sizeof why)) {
            snprintf(s->error, sizeof s->error, "cell type %d: %s", t, why);
            return -1;
        }
    }
    return 0;
}

void sim_free(Sim *s)
{
    chem_free(&s->chem);
    free(s->type_params);
    s->type_params = NULL;
    ensemble_free(&s->e);
    contact_free(&s->contact);
    remodel_free(&s->remodel);
    topology_free(&s->topology);
}

void sim_draw_traits(Sim *s)
{
    bind_types(s);
    for (int p = 0; p < s->e.np; p++)
        if (!s->e.rigid[p]) {
            topology_draw_traits(&s->e, &s->P, p);
            /* (keyed, not drawn from the stream, so that it moves no other draw) */
            s->e.polarity[p] = 6.283185307179586 * rng_keyed_uniform(s->e.seed, 0, s->e.id[p], 0,
                                                                     RNG_POLARITY0);
        }
}

void sim_pick_attracted(Sim *s)
{
    Ensemble *e = &s->e;
    int n = 0, *pool = ph_realloc(NULL, ((size_t)e->np + 1) * sizeof *pool);
    for (int p = 0; p < e->np; p++) {
        e->attracted[p] = 0;
        if (!e->rigid[p]) pool[n++] = p;
    }
    /* the first att_n of a random permutation of the movable polygons (Fisher-Yates) */
    for (int k = 0; k < n && k < s->P.att_n; k++) {
        int j = k + (int)(rng_uniform(e->seed, &e->draws) * (n - k));
        j = j < n ? j : n - 1;
        int t = pool[k]; pool[k] = pool[j]; pool[j] = t;
        e->attracted[pool[k]] = 1;
    }
    free(pool);
}

/* "N cells reach" or "1 cell reaches" (of n movable cells, unless n < 0) "outside the chemistry's
 * grid [x0, x1] x [y0, y1] (V of their vertices", into buf */
static const char *outside_text(const Sim *s, int cells, int64_t vertices, int n, char *buf,
                                size_t len)
{
    const ChemModel *m = &s->chem.m;
    char of[32] = "";
    if (n >= 0) snprintf(of, sizeof of, " of %d", n);
    int one = cells == 1 && n < 0;
    snprintf(buf, len, "%d%s cell%s reach%s outside the chemistry's grid [%g, %g] x [%g, %g] "
             "(%lld of %s vertices", cells, of, one ? "" : "s", one ? "es" : "", m->x0, m->x1,
             m->y0, m->y1, (long long)vertices, one ? "its" : "their");
    return buf;
}

#define OUTSIDE_SENSE "a cell senses only the nodes it covers, and one that covers none the " \
                      "value at the grid's nearest edge"

/* the phase's wall time, from *t0 to now, to its timer; *t0 becomes now */
static void lap(Sim *s, int timer, double *t0)
{
    double t1 = omp_get_wtime();
    s->timer[timer] += t1 - *t0;
    *t0 = t1;
}

/* The polygons in the order of their position every sort_every steps, once the ensemble is large
 * enough for the order to matter (remodel_sort), and the threads' bands of them. */
static void order(Sim *s)
{
    Ensemble *e = &s->e;
    if (e->step % s->sort_every == 0 && ensemble_vertex_count(e) >= s->sort_from && remodel_sort(e))
        contact_invalidate(&s->contact);   /* (a patch expects polygons in their old order) */
    bands_update(e, omp_get_max_threads());
}

/* The chemistry of a step: on a chemical step the cells' contacts (when the rules see them) and
 * the fields' step (chem_step: 1 when s->stop gave it up), then every step the response's forces.
 * 0, 1, or -1 with s->error. */
static int chemistry(Sim *s, double lmax)
{
    Ensemble *e = &s->e;
    Chem *ch = &s->chem;
    if (!chem_on(&ch->m)) return 0;
    if (chem_due(ch, e->step)) {
        double t0 = omp_get_wtime();
        if (s->grid_outside >= 0) {   /* (until said: more cells outside the grid than at start) */
            int64_t nv;
            int n = chem_outside(ch, e, &nv);
            if (n > s->grid_outside) {
                char what[256];
                fprintf(stderr, "polyhoop: warning: at t = %.6g (step %lld), %s; %d cell%s at the "
                        "start): %s (said once)\n", e->t, (long long)e->step,
                        outside_text(s, n, nv, -1, what, sizeof what), s->grid_outside,
                        s->grid_outside == 1 ? "" : "s", OUTSIDE_SENSE);
                s->grid_outside = -1;
            }
        }
        ch->stop = s->stop;
        ch->ka = s->P.ka;
        if (ch->m.contacts)   /* (from the step's list where it serves; it stays as it is) */
            ch->npairs = contact_lengths(&s->contact, e, &s->P, lmax, &ch->pairs);
        int r = chem_step(ch, e, ch->m.every * s->P.dt, e->t, e->step, s->error, sizeof s->error);
        s->chem_wall = omp_get_wtime() - t0;
        if (r) return r;
    }
    chem_add_forces(ch, e);
    return 0;
}

/* After integrate_step found polygon `bad` moving too far or to a non-finite place: -1 with why
 * in s->error. */
static int blown_up(Sim *s, int bad)
{
    const Ensemble *e = &s->e;
    double vbad = 0;
    int finite = 1;
    for (int i = e->start[bad]; i < e->start[bad] + e->count[bad]; i++) {
        finite &= isfinite(e->x[i]) && isfinite(e->y[i]);
        vbad = fmax(vbad, hypot(e->vx[i], e->vy[i]));
    }
    int n = snprintf(s->error, sizeof s->error,
                     "numerical blow-up at t = %.6g (step %lld): polygon %d (id %lld) %s",
                     e->t + s->P.dt, (long long)e->step + 1, bad, (long long)e->id[bad],
                     finite ? "has a vertex moving farther than h in one step"
                            : "has a non-finite vertex position");
    if (finite)
        snprintf(s->error + n, sizeof s->error - n, " (speed %.3g > h/dt = %.3g)", vbad,
                 s->P.h / s->P.dt);
    return -1;
}

/* Projectiles through membranes, then fusion and splitting of touching hoops. */
static void fuse(Sim *s)
{
    int passed = passage_update(&s->e, &s->P, &s->contact);
    if (passed) contact_invalidate(&s->contact);   /* (projectiles jumped) */
    s->passages += passed;
    fusion_update(&s->e, &s->P, &s->contact, &s->fusions1, &s->fusions2);
}

/* Division, removal below Amin and death, counted. */
static void divide_and_remove(Sim *s)
{
    int removed, died;
    s->divisions += topology_update(&s->e, &s->P, &s->topology, &removed, &died);
    s->removals += removed;
    s->deaths += died;
}

int sim_step(Sim *s)
{
    Ensemble *e = &s->e;
    const Params *P = &s->P;
    double t0 = omp_get_wtime(), vmax;
    bind_types(s);
    order(s);
    remodel_apply(e, P, &s->remodel);                   lap(s, T_REMODEL, &t0);    /* 1 */
    double lmax = forces_step(e, P);                    lap(s, T_INTERNAL, &t0);   /* 2 */
    int r = chemistry(s, lmax);                         lap(s, T_CHEM, &t0);       /* 3 */
    if (r) return r;
    contact_keep_records(&s->contact, P->theta > 0 || P->v_pass > 0);   /* (phase 6 reads them) */
    contact_forces_step(&s->contact, e, P, lmax);       lap(s, T_CONTACT, &t0);    /* 4 */
    s->vertex_steps += ensemble_vertex_count(e);        /* (not nv_used: slots include gaps) */
    int bad = integrate_step(e, P, &vmax);              lap(s, T_INTEGRATE, &t0);  /* 5 */
    contact_moved(&s->contact, e, P->dt, vmax);         lap(s, T_CONTACT, &t0);
    if (bad >= 0) return blown_up(s, bad);
    fuse(s);                                            lap(s, T_FUSION, &t0);     /* 6 */
    divide_and_remove(s);                               lap(s, T_TOPOLOGY, &t0);   /* 7 */
    char msg[256];
    if ((s->bad_rule = cells_bad(e, msg, sizeof msg)))
        return snprintf(s->error, sizeof s->error, "at t = %g (step %lld): %s", e->t,
                        (long long)e->step, msg), -1;
    e->step++;
    e->t = (double)e->step * P->dt;
    if (s->validate && ensemble_validate(e, msg, sizeof msg))
        return snprintf(s->error, sizeof s->error, "invalid state after step %lld (t = %g): %s",
                        (long long)e->step, e->t, msg), -1;
    return 0;
}

int sim_check_frame(Sim *s)
{
    Ensemble *e = &s->e;
    int bad = -1, a, b;
    contact_trim(&s->contact);   /* (a frame's grids: the crossing check's, then sim_neighbors') */
    for (int p = 0; p < e->np && bad < 0; p++)
        if (!(geom_area(e->x + e->start[p], e->y + e->start[p], e->count[p]) > 0)) bad = p;
    /* (edges longer than remodeling leaves, a division's cut, go into the grid in pieces) */
    if (bad < 0 && grid_crossing(e, fmin(forces_update_geometry(e), s->P.lmax), 1, &a, &b)) {
        uint64_t layout = e->layout;
        remodel_apply(e, &s->P, &s->remodel);   /* (what the next step begins with) */
        if (e->layout == layout ||
            grid_crossing(e, fmin(forces_update_geometry(e), s->P.lmax), 1, &a, &b))
            bad = a;
    }
    if (bad < 0) {
        s->dt_max = sim_stable_dt(s, &s->dt_stiff, &s->dt_type);
        return 0;
    }
    double area = geom_area(e->x + e->start[bad], e->y + e->start[bad], e->count[bad]);
    snprintf(s->error, sizeof s->error, "numerical blow-up at t = %.6g: polygon %d (id %lld) %s "
             "(area %g)", e->t, bad, (long long)e->id[bad],
             area > 0 ? "crosses itself" : "is inverted", area);
    return -1;
}

double sim_neighbors(Sim *s, int *nb, int *same)
{
    bind_types(s);
    double lmax = forces_update_geometry(&s->e);
    Contact frame;   /* (one grid for the frame's figures; the step's list stays as it is) */
    contact_init(&frame);
    double u = contact_frame(&frame, &s->e, &s->P, lmax, nb, same);
    contact_free(&frame);
    return u;
}

/* sim_area_g2 over the movable polygons of cell type `type` (-1: all) */
static double area_g2(const Sim *s, int type)
{
    const Ensemble *e = &s->e;
    double g2max = 0;
    for (int p = 0; p < e->np; p++) {
        if (e->rigid[p] || (type >= 0 && e->type[p] != type)) continue;
        double g2 = 0;
        for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++) {
            int a = ens_prev(e, i), b = ens_next(e, i);
            double dx = e->x[b] - e->x[a], dy = e->y[b] - e->y[a];
            g2 += 0.25 * (dx * dx + dy * dy);
        }
        g2max = fmax(g2max, g2);
    }
    return g2max;
}

double sim_area_g2(const Sim *s) { return area_g2(s, -1); }

double sim_stable_dt(const Sim *s, const char **what, int *type)
{
    *type = -1;
    if (!s->type_params) return params_stable_dt(&s->P, area_g2(s, -1), what);
    double dt_max = INFINITY;
    for (int t = 0; t < s->chem.m.ntypes; t++) {
        const char *w;
        double d = params_stable_dt(&s->type_params[t], area_g2(s, t), &w);
        if (t == 0 || d < dt_max) { dt_max = d; *what = w; *type = t; }
    }
    return dt_max;
}

int sim_warn_dt(FILE *f, const Sim *s)
{
    const char *what;
    int type;
    double dt_max = sim_stable_dt(s, &what, &type);
    return params_warn_limit(f, s->P.dt, dt_max, what, type);
}

int sim_warn_grid(FILE *f, Sim *s)
{
    int64_t nv;
    s->grid_outside = chem_outside(&s->chem, &s->e, &nv);
    if (s->grid_outside == 0) return 0;
    int movable = 0;
    for (int p = 0; p < s->e.np; p++) movable += !s->e.rigid[p];
    char what[256];
    fprintf(f, "polyhoop: warning: %s; the grid: P_chem_x0 .. P_chem_y1 of %s): %s\n",
            outside_text(s, s->grid_outside, nv, movable, what, sizeof what), params_file,
            OUTSIDE_SENSE);
    return 1;
}

static double area(const Ensemble *e, int p)
{
    return geom_area(e->x + e->start[p], e->y + e->start[p], e->count[p]);
}

/* Checks an input beyond what the reader can: edges that would remodel into too many vertices
 * and a movable polygon's vertex outside the box walls (errors), polygons below Amin (a
 * warning), then sim_check_overlaps. Returns 0, or -1 with s->error. */
static int check_input(Sim *s, const char *input, const int *line, const SimSetup *u)
{
    double pieces = 0;
    for (int p = 0; p < s->e.np; p++)
        for (int i = s->e.start[p]; i < s->e.start[p] + s->e.count[p]; i++) {
            int j = ens_next(&s->e, i);
            pieces += remodel_pieces(hypot(s->e.x[j] - s->e.x[i], s->e.y[j] - s->e.y[i]),
                                     s->P.lmax);
        }
    /* the vertices after the first remodeling (every edge bisected into pieces of at most lmax): an
     * input in the wrong units, or with a stray vertex, would take the machine down */
    int nv = ensemble_vertex_count(&s->e);
    double bound = u->max_vertices;
    if (!(bound > 0)) {
        long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
        double memory = pages > 0 && page > 0 ? (double)pages * (double)page : 8e9;
        bound = fmin(fmax(1e6, 1000.0 * nv), 0.5 * memory / SIM_BYTES_PER_VERTEX);
    }
    if (pieces > bound) {
        snprintf(s->error, sizeof s->error, "%s: remodeling to edges of at most lmax = %g would "
                 "turn its %d vertices into about %.3g (about %.3g GB), more than the bound of "
                 "%.3g%s (wrong units, or a stray vertex?); --max-vertices N raises it",
                 TEXT_ESC(input), s->P.lmax, nv, pieces, pieces * SIM_BYTES_PER_VERTEX / 1e9, bound,
                 u->max_vertices > 0 ? " set by --max-vertices" : "");
        return -1;
    }
    /* the box walls (docs/model.md 2): a vertex of a movable polygon outside them would be thrown
     * back with box_k times its distance in the first step; rigid polygons may lie anywhere */
    for (int p = 0; p < s->e.np && params_box_on(&s->P); p++)
        for (int i = s->e.start[p]; i < s->e.start[p] + s->e.count[p] && !s->e.rigid[p]; i++) {
            double x = s->e.x[i], y = s->e.y[i];
            if (x >= s->P.box_x0 && x <= s->P.box_x1 && y >= s->P.box_y0 && y <= s->P.box_y1)
                continue;
            char src[4200];
            snprintf(s->error, sizeof s->error, "%s: polygon %d (line %d) has a vertex at "
                     "(%.9g, %.9g) outside the box [%g, %g] x [%g, %g] of %s (box_x0, box_x1, "
                     "box_y0, box_y1): the walls would throw it back; move the input inside the "
                     "walls, or the walls", TEXT_ESC(input), p, line[p], x, y, s->P.box_x0,
                     s->P.box_x1, s->P.box_y0, s->P.box_y1,
                     params_source(&s->P, &s->set, src, sizeof src));
            return -1;
        }
    /* polygons the first step removes */
    int small = 0, first = -1;
    for (int p = 0; p < s->e.np; p++)
        if (!s->e.rigid[p] &&
            geom_area(s->e.x + s->e.start[p], s->e.y + s->e.start[p], s->e.count[p]) < s->P.Amin)
            if (!small++) first = p;
    if (small)
        fprintf(stderr, "polyhoop: %s: warning: %d of %d polygons (the first: polygon %d) have an "
                "area below Amin = %g: the first step removes them\n", TEXT_ESC(input), small,
                s->e.np, first, s->P.Amin);
    forces_update_geometry(&s->e);   /* (the areas, as the first step finds them) */
    return sim_check_overlaps(s, input, line, u->strict);
}

int sim_check_overlaps(Sim *s, const char *file, const int *line, int strict)
{
    const Ensemble *e = &s->e;
    OverlapPair f;
    long n = overlap_find(e, s->P.lmax, s->P.h, &f);
    if (n < 0) {
        snprintf(s->error, sizeof s->error, "%s: out of memory checking the polygons for overlaps",
                 TEXT_ESC(file));
        return -1;
    }
    /* (a run delivers projectiles into cells: docs/model.md 5.2) */
    if (n == 0 || (!line && f.kind == OVERLAP_NESTED && s->P.v_pass > 0)) return 0;
    if (line) s->input_overlaps = 1;
    char what[400], more[80] = "", la[32] = "", lb[32] = "";
    if (line) {
        snprintf(la, sizeof la, " (line %d)", line[f.a]);
        snprintf(lb, sizeof lb, " (line %d)", line[f.b]);
    }
    double share = 0;
    if (f.kind == OVERLAP_NESTED)
        snprintf(what, sizeof what, "polygon %d%s lies inside polygon %d%s of the same phase "
                 "(%+d), covering %.3g%% of polygon %d's area: only a drop of the other phase, or "
                 "anything in a rigid polygon, may nest", f.a, la, f.b, lb, e->phase[f.a],
                 100 * area(e, f.a) / area(e, f.b), f.b);
    else {
        share = 100 * overlap_fraction(e, f.a, f.b);
        snprintf(what, sizeof what, "polygons %d%s and %d%s %s %.3g%% of the smaller one's area "
                 "(their edges %s)", f.a, la, f.b, lb, share > 0 ? "overlap on" : "touch, sharing",
                 share, f.kind == OVERLAP_CROSS ? "cross" : "coincide or touch: hoops keep a "
                 "distance h, and the contact force of coinciding edges has no direction");
    }
    if (n > 1) snprintf(more, sizeof more, "; %ld such pairs in all", n);
    if (strict) {
        snprintf(s->error, sizeof s->error, "%s: error: %s%s", TEXT_ESC(file), what, more);
        return -1;
    }
    /* (what overlapping hoops do: the repulsion acts within h of an edge, so with kr = 0 nothing
     * separates them; a checkpoint's are most likely the run's own, made where a vertex passed
     * through an edge: docs/model.md 4, untwisting) */
    char fate[160] = "";
    if (share > 0) {
        if (s->P.kr <= 0)
            snprintf(fate, sizeof fate, "; with kr = 0 there is no repulsion: nothing pushes them "
                     "apart");
        else if (line) snprintf(fate, sizeof fate, "; they will push apart violently");
        else
            snprintf(fate, sizeof fate, "; runs make overlaps where a vertex meets another hoop's "
                     "edge faster than sqrt(kr) h = %.3g", sqrt(s->P.kr) * s->P.h);
    }
    fprintf(stderr, "polyhoop: %s: warning: %s%s%s (--strict-input rejects this)\n", TEXT_ESC(file),
            what, more, fate);
    return 0;
}

int sim_load_input(Sim *s, const char *input, const SimSetup *u)
{
    static const SimSetup defaults = { .frames = -1, .steps = -1 };
    if (!u) u = &defaults;
    OffData off;
    if (off_read(input, &off, s->error, sizeof s->error)) return -1;
    int np = off.np;
    double *v = ph_realloc(NULL, 2 * (size_t)np * sizeof *v);
    if (u->velocities && off_read_velocities(u->velocities, np, s->P.Nr, s->P.h / s->P.dt, v,
                                             v + np, s->error, sizeof s->error)) {
        off_free(&off);
        free(v);
        return -1;
    }
    int *line = ph_realloc(NULL, (size_t)np * sizeof *line);
    for (int p = 0; p < np; p++) {
        int q = ensemble_add_polygon(&s->e, off.poly[p].n, off.poly[p].x, off.poly[p].y,
                                     off.poly[p].phase, p < s->P.Nr);
        line[p] = off.poly[p].line;
        for (int i = s->e.start[q]; u->velocities && i < s->e.start[q] + s->e.count[q]; i++) {
            s->e.vx[i] = v[p];
            s->e.vy[i] = v[np + p];
        }
        if (u->velocities && hypot(v[p], v[np + p]) > s->input_speed) {
            s->input_speed = hypot(v[p], v[np + p]);
            s->input_fastest = p;
        }
    }
    free(v);
    /* cell types, in a build with more than one: z = 2 type + phase bit (docs/model.md 11) */
    int ntypes = s->chem.m.ntypes > 0 ? s->chem.m.ntypes : 1, bad = -1;
    for (int p = 0; p < np && ntypes > 1 && bad < 0; p++) {
        if (off.poly[p].other_type >= 0 || off.poly[p].type >= ntypes) bad = p;
        else s->e.type[s->e.np - np + p] = (int)off.poly[p].type;
    }
    char src[4200];
    if (bad >= 0) {
        const OffPolygon *o = &off.poly[bad];
        if (o->other_type >= 0)
            snprintf(s->error, sizeof s->error, "%s: polygon %d (line %d) mixes cell types %lld "
                     "and %lld (a vertex's z is 2 type + phase bit)", TEXT_ESC(input), bad,
                     line[bad], (long long)o->type, (long long)o->other_type);
        else
            snprintf(s->error, sizeof s->error, "%s: polygon %d (line %d) has cell type %lld (its "
                     "z is 2 type + phase bit), but %s has %d cell types (ntypes)", TEXT_ESC(input),
                     bad, line[bad], (long long)o->type,
                     params_source(&s->P, &s->set, src, sizeof src), ntypes);
        off_free(&off);
        free(line);
        return -1;
    }
    off_free(&off);
#ifdef __GLIBC__
    malloc_trim(0);   /* (the parsed polygons' pages go back before the check's grid) */
#endif
    if (s->P.Nr > s->e.np) {
        snprintf(s->error, sizeof s->error,
                 "%s: Nr = %d rigid polygons requested but the input has only %d",
                 params_source(&s->P, &s->set, src, sizeof src), s->P.Nr, s->e.np);
        free(line);
        return -1;
    }
    sim_draw_traits(s);
    sim_pick_attracted(s);
    for (int p = 0; p < s->e.np; p++)   /* (the cells' variables: the walls' stay at the inits) */
        if (!s->e.rigid[p]) cells_born(&s->e, p, s->P.ka);
    char why[256];
    if (cells_bad(&s->e, why, sizeof why)) {
        snprintf(s->error, sizeof s->error, "%s: %s", TEXT_ESC(input), why);
        free(line);
        return -1;
    }
    int rc = check_input(s, input, line, u);
    free(line);
#ifdef __GLIBC__
    malloc_trim(0);   /* (and the check's work's) */
#endif
    return rc;
}

int sim_setup(Sim *s, const SimSetup *u)
{
    if (s->from_checkpoint && u->steps >= 0 && u->steps != s->P.Ns) {
        snprintf(s->error, sizeof s->error,
                 "cannot restart with -s %d: the run has %d steps per frame", u->steps, s->P.Ns);
        return -1;
    }
    if (s->from_checkpoint && u->frames >= 0 && (int64_t)u->frames * s->P.Ns < s->e.step) {
        snprintf(s->error, sizeof s->error, "cannot restart with -n %d: the run is at step %lld "
                 "(frame %lld, t = %g), past frame %d; -n counts the frames from the run's start, "
                 "so give more than %lld to go on", u->frames, (long long)s->e.step,
                 (long long)(s->e.step / s->P.Ns), s->e.t, u->frames,
                 (long long)(s->e.step / s->P.Ns));
        return -1;
    }
    if (u->steps >= 0) s->P.Ns = u->steps;
    if (chem_on(&s->chem.m) && s->P.Ns % s->chem.m.every) {
        snprintf(s->error, sizeof s->error, "%d steps per frame is not a multiple of "
                 "chem_every = %d (time steps per chemical step): frames must fall on chemical "
                 "steps", s->P.Ns, s->chem.m.every);
        return -1;
    }
    if (u->frames >= 0) s->P.Nf = u->frames;
    s->validate = u->validate;
    s->dt_max = sim_stable_dt(s, &s->dt_stiff, &s->dt_type);
    return 0;
}

int sim_failure_status(const Sim *s)
{
    return s->chem.bad_response || s->bad_rule ? PH_EXIT_USAGE : PH_EXIT_BLOWUP;
}

void sim_likely_cause(const Sim *s, char *buf, size_t len)
{
    const Params *P = &s->P;
    /* the stability limit of the last state known sound (a blown-up one's geometry says nothing) */
    const char *stiff = s->dt_stiff;
    int type = s->dt_type;
    double dt_max = stiff ? s->dt_max : sim_stable_dt(s, &stiff, &type);
    int early = s->e.step - s->first_step <= 100 && !s->from_checkpoint;
    char whose[48] = "";
    if (type >= 0) snprintf(whose, sizeof whose, "cell type %d: ", type);
    if (s->chem.bad_response)
        snprintf(buf, len, "the header's response rule (P_CHEM_RESPONSE of %s), which must give "
                 "every polygon a cell type in 0 .. %d and a finite growth rate and force%s",
                 params_file, s->chem.m.ntypes - 1, s->chem.m.nvar ? " and variables" : "");
    else if (s->bad_rule)
        snprintf(buf, len, "the header's rule named above (of %s), whose values must be finite",
                 params_file);
    else if (s->chem.bad == 3 && isfinite(s->chem.need))
        snprintf(buf, len, "the chemistry's reaction rule, faster than P_chem_max_substeps = %d "
                 "sub-steps follow: raise it, or lower dt%s", s->chem.m.max_substeps,
                 s->chem.m.every > 1 ? " or P_chem_every" : "");
    else if (s->chem.bad == 3)
        snprintf(buf, len, "the chemistry's reaction rule, which takes from a node where there is "
                 "nothing: make its uptake vanish with the concentration (a rate proportional to "
                 "c, as -u c)");
    else if (s->chem.bad == 2)
        snprintf(buf, len, "the chemistry's reaction rule, whose uptake grew within a chemical "
                 "step beyond what its sub-steps of %g follow (they are set at the step's start): "
                 "lower dt%s, or make the uptake vanish with the concentration", s->chem.h,
                 s->chem.m.every > 1 ? " or P_chem_every" : "");
    else if (s->chem.bad)
        snprintf(buf, len, "the chemistry's reaction rule, which gave a rate that is not finite or "
                 "one that grows faster than sub-steps of %g follow: lower dt%s", s->chem.h,
                 s->chem.m.every > 1 ? " or P_chem_every" : "");
    else if (s->chem.too_fast)
        snprintf(buf, len, "cells moving faster than the chemistry's grid follows in "
                 "max_substeps = %d sub-steps of a chemical step of %g (an advected species' "
                 "upwind transport): raise P_chem_dx or P_chem_max_substeps, or lower dt%s",
                 s->chem.m.max_substeps, s->chem.m.every * P->dt,
                 s->chem.m.every > 1 ? " or P_chem_every" : "");
    else if (P->dt > dt_max)
        snprintf(buf, len, "dt = %g exceeds the stability limit %.3g of the stiffest term (%s%s): "
                 "use dt <= %.2g", P->dt, dt_max, whose, stiff, 0.5 * dt_max);
    else if (s->input_overlaps)
        snprintf(buf, len, "the input's polygons overlap (warned at start): separate them; "
                 "--strict-input refuses such inputs");
    else if (early && s->input_speed > 0.5 * P->h / P->dt)   /* (the first steps' forces add) */
        snprintf(buf, len, "the velocity file gives polygon %d a speed of %g, %.3g%% of h/dt = %g "
                 "(the most a vertex may move per step is h): start it slower, or use a "
                 "smaller dt", s->input_fastest, s->input_speed,
                 100 * s->input_speed / (P->h / P->dt), P->h / P->dt);
    else if (early)
        snprintf(buf, len, "it happened within 100 steps of the input: check its sizes against "
                 "h = %g, lmin = %g and lmax = %g, and the parameters; or try dt = %g", P->h,
                 P->lmin, P->lmax, 0.5 * P->dt);
    else
        snprintf(buf, len, "forces grew faster than dt = %g resolves (the input%s and the "
                 "parameters passed every check): try dt = %g", P->dt,
                 s->from_checkpoint ? ", the checkpoint" : "", 0.5 * P->dt);
}
