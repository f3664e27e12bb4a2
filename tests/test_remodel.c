/* Remodeling: afterwards every edge of a non-rigid polygon is in [lmin, lmax], the sum of rest
 * lengths of every polygon is unchanged, rigid polygons are refined but never coarsened, and the
 * vertex slots are contiguous in polygon order. The spatial order of polygons (remodel_sort)
 * moves every datum with its polygon, and a run that uses it stays the same at any thread count
 * and through restarts. */
#define _POSIX_C_SOURCE 200809L
#include "checkpoint.h"
#include "fixtures.h"
#include "geometry.h"
#include "harness.h"
#include "remodel.h"
#include "sim.h"
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <omp.h>

/* a wobbly polygon with edges from much shorter than lmin to much longer than lmax */
static int add_ragged(Ensemble *e, uint64_t *st, double cx, int rigid)
{
    double x[200], y[200], a = 0;
    int n = 0;
    while (a < 2 * PH_PI && n < 200) {
        double r = 1 + fx_uniform(st, -0.05, 0.05);
        x[n] = cx + r * cos(a); y[n] = r * sin(a); n++;
        a += fx_uniform(st, 0, 1) < 0.5 ? fx_uniform(st, 0.001, 0.02) : fx_uniform(st, 0.1, 0.9);
    }
    return ensemble_add_polygon(e, n, x, y, 1, rigid);
}

static double sum_l0(const Ensemble *e, int p)
{
    double s = 0;
    for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++) s += e->l0[i];
    return s;
}

void test_remodel_edges_in_range(void)
{
    Params P = fx_params_zero();
    for (int trial = 0; trial < 10; trial++) {
        Ensemble e;
        Remodel r;
        ensemble_init(&e, 1);
        remodel_init(&r);
        uint64_t st = 77 + (uint64_t)trial;
        for (int p = 0; p < 5; p++) add_ragged(&e, &st, 3.0 * p, 0);
        remodel_apply(&e, &P, &r);
        int short_edges = 0, long_edges = 0;
        for (int p = 0; p < e.np; p++)
            for (int i = e.start[p]; i < e.start[p] + e.count[p]; i++) {
                int j = ens_next(&e, i);
                double l = hypot(e.x[j] - e.x[i], e.y[j] - e.y[i]);
                short_edges += l < P.lmin;
                long_edges += l > P.lmax * (1 + 1e-12);
            }
        ENSURE_MSG(short_edges == 0 && long_edges == 0, "trial %d: %d short, %d long", trial, short_edges, long_edges);
        remodel_free(&r);
        ensemble_free(&e);
    }
}

void test_remodel_conserves_rest_length(void)
{
    Params P = fx_params_zero();
    Ensemble e;
    Remodel r;
    ensemble_init(&e, 1);
    remodel_init(&r);
    uint64_t st = 5;
    double before[4];
    for (int p = 0; p < 4; p++) {
        add_ragged(&e, &st, 3.0 * p, 0);
        for (int i = e.start[p]; i < e.start[p] + e.count[p]; i++) e.l0[i] *= fx_uniform(&st, 0.5, 1.5);
        before[p] = sum_l0(&e, p);
    }
    int n0 = e.nv_used;
    ENSURE(remodel_apply(&e, &P, &r) != 0 || e.nv_used != n0);
    for (int p = 0; p < 4; p++) ENSURE_CLOSE(sum_l0(&e, p), before[p], 1e-12 * before[p]);
    remodel_free(&r);
    ensemble_free(&e);
}

void test_remodel_rigid_only_refined(void)
{
    Params P = fx_params_zero();
    Ensemble e;
    Remodel r;
    ensemble_init(&e, 1);
    remodel_init(&r);
    uint64_t st = 9;
    int p = add_ragged(&e, &st, 0, 1);
    int n0 = e.count[p], shortest = 0;
    double x0 = e.x[0], y0 = e.y[0];
    remodel_apply(&e, &P, &r);
    ENSURE(e.count[p] > n0);              /* long edges were split ... */
    for (int i = 0; i < e.count[p]; i++) {
        int j = ens_next(&e, i);
        double l = hypot(e.x[j] - e.x[i], e.y[j] - e.y[i]);
        ENSURE(l <= P.lmax * (1 + 1e-12));
        shortest += l < P.lmin;
    }
    ENSURE(shortest > 0);                 /* ... short ones kept */
    ENSURE(e.x[0] == x0 && e.y[0] == y0); /* and the original vertices did not move */
    remodel_free(&r);
    ensemble_free(&e);
}

/* Slots (remodel.h): a gap of more than a quarter is closed, every polygon getting REMODEL_ROOM
 * slots of room; a polygon that grows within its room moves nobody, and one that outgrows it
 * pushes the next polygon up only as far as that one's room absorbs the push. */
void test_remodel_gaps_and_room(void)
{
    Params P = fx_params_zero();
    Ensemble e;
    Remodel r;
    ensemble_init(&e, 1);
    remodel_init(&r);
    for (int p = 0; p < 12; p++) fx_add_ngon(&e, 40, 1, 3.0 * p, 0, 0);
    unsigned char keep[12] = { 1, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1 };
    ensemble_keep(&e, keep);
    ENSURE(e.gaps && e.np == 6 && e.start[1] == 280);
    uint64_t layout = e.layout;
    ENSURE(remodel_apply(&e, &P, &r) == 0);   /* (240 of 480 slots unused: laid out anew) */
    const int room = 40 + REMODEL_ROOM(40);
    ENSURE(room > 40 && e.layout != layout && e.nv_used == 5 * room + 40);
    for (int p = 0; p < 6; p++) {
        ENSURE(e.start[p] == p * room && e.count[p] == 40);
        for (int k = 0; k < 40; k++) ENSURE(e.pid[p * room + k] == p);
    }
    ENSURE_CLOSE(e.x[room], 22, 1e-12);   /* (polygon 1 is the old polygon 7, centred at x = 21) */
    layout = e.layout;
    ENSURE(remodel_apply(&e, &P, &r) == 0 && e.layout == layout);   /* nothing to do: nothing moves */

    /* polygon 0 grows by 2 (an outward bump splits its two edges) within its room */
    e.x[0] += 0.15;
    ENSURE(remodel_apply(&e, &P, &r) == 2 && e.count[0] == 42);
    for (int p = 1; p < 6; p++) ENSURE_MSG(e.start[p] == p * room, "polygon %d moved to %d", p, e.start[p]);
    /* polygon 3 grows by 4, more than its room: polygon 4 moves up, its room absorbs the push, 5 stays */
    e.x[3 * room] += 0.15;
    e.x[3 * room + 20] -= 0.15;
    ENSURE(remodel_apply(&e, &P, &r) == 4 && e.count[3] == 44);
    ENSURE(e.start[3] == 3 * room && e.start[4] == 4 * room + 44 - room && e.start[5] == 5 * room);
    for (int k = 0; k < 40; k++) ENSURE(e.pid[e.start[4] + k] == 4);
    ENSURE_CLOSE(e.x[e.start[4]], 31, 1e-12);   /* (the old polygon 10) */
    char msg[200];
    ENSURE_MSG(ensemble_validate(&e, msg, sizeof msg) == 0, "%s", msg);
    remodel_free(&r);
    ensemble_free(&e);
}

/* Remodeling rewrites the vertex arrays in place: unchanged polygons stay, or slide down or up
 * around the changed ones, whose new lists are built aside. Every polygon must come out exactly as if it were
 * remodeled alone, whatever moves around it: polygons that grow (refined), shrink (coarsened) or
 * stay, a gap left by a removal and by a division-like shortening, and velocities, rest lengths
 * and slot owners carried along. */
void test_remodel_in_place_matches_alone(void)
{
    Params P = fx_params_zero();
    int up = 0, down = 0, regrown = 0, threads = omp_get_max_threads();
    omp_set_num_threads(2);   /* (the per-thread scratch in use by two threads) */
    for (int trial = 0; trial < 12; trial++) {
        Ensemble e;
        Remodel r;
        ensemble_init(&e, 1);
        remodel_init(&r);
        uint64_t st = 1000 + (uint64_t)trial;
        /* ragged polygons change, regular 40-gons of radius 1 (edges 0.16, in [lmin, lmax] of the
         * defaults) do not: alternate them in an order that differs per trial */
        int regular[9], nreg = 0;   /* (after the removal below: which polygons need no remodeling) */
        for (int p = 0; p < 9; p++) {
            if ((p + trial) % 3 == 0) fx_add_ngon(&e, 40, 1, 3.0 * p, 0, 0.1 * p);
            else add_ragged(&e, &st, 3.0 * p, 0);
        }
        for (int i = 0; i < e.nv_used; i++) { e.vx[i] = fx_uniform(&st, -1, 1); e.vy[i] = fx_uniform(&st, -1, 1); }
        unsigned char keep[9] = { 1, 1, 1, 1, 1, 1, 1, 1, 1 };
        keep[(trial * 4) % 9] = 0;   /* a gap somewhere */
        ensemble_keep(&e, keep);
        for (int p = 0; p < 9; p++) if (keep[p]) regular[nreg++] = (p + trial) % 3 == 0;
        /* the reference: each polygon remodeled in an ensemble of its own */
        Ensemble alone[9];
        for (int p = 0; p < e.np; p++) {
            int s = e.start[p], n = e.count[p];
            ensemble_init(&alone[p], 1);
            ensemble_push_polygon(&alone[p], n, e.x + s, e.y + s, e.vx + s, e.vy + s, e.l0 + s);
            Remodel ra;
            remodel_init(&ra);
            remodel_apply(&alone[p], &P, &ra);
            remodel_free(&ra);
        }
        int grew = 0, shrank = 0, same = 0;
        for (int p = 0; p < e.np; p++) {
            grew += alone[p].count[0] > e.count[p];
            shrank += alone[p].count[0] < e.count[p];
            same += alone[p].count[0] == e.count[p];
        }
        ENSURE(grew + shrank > 0 && same > 0);   /* (the case is mixed, as meant) */
        if (trial % 2 == 0) {   /* no room to spare: remodeling must grow the arrays */
            size_t n = (size_t)e.nv_used;
            e.x = ph_realloc(e.x, n * sizeof *e.x); e.y = ph_realloc(e.y, n * sizeof *e.y);
            e.vx = ph_realloc(e.vx, n * sizeof *e.vx); e.vy = ph_realloc(e.vy, n * sizeof *e.vy);
            e.fx = ph_realloc(e.fx, n * sizeof *e.fx); e.fy = ph_realloc(e.fy, n * sizeof *e.fy);
            e.l0 = ph_realloc(e.l0, n * sizeof *e.l0); e.pid = ph_realloc(e.pid, n * sizeof *e.pid);
            e.nv_cap = e.nv_used;
        }
        int old_start[9], old_cap = e.nv_cap;
        for (int p = 0; p < e.np; p++) old_start[p] = e.start[p];
        remodel_apply(&e, &P, &r);
        for (int p = 0; p < e.np; p++)
            if (regular[p]) { up += e.start[p] > old_start[p]; down += e.start[p] < old_start[p]; }
        regrown += e.nv_used > old_cap;
        ENSURE(e.start[0] >= 0);
        for (int p = 0; p < e.np; p++) {
            const Ensemble *a = &alone[p];
            int s = e.start[p], n = e.count[p];
            ENSURE_MSG(n == a->count[0], "trial %d polygon %d: %d vertices, alone %d", trial, p, n, a->count[0]);
            if (p + 1 < e.np) ENSURE(e.start[p + 1] >= s + n);   /* (in slot order, not overlapping) */
            for (int k = 0; k < n; k++)
                ENSURE_MSG(e.x[s + k] == a->x[k] && e.y[s + k] == a->y[k] && e.vx[s + k] == a->vx[k] &&
                           e.vy[s + k] == a->vy[k] && e.l0[s + k] == a->l0[k] && e.pid[s + k] == p,
                           "trial %d polygon %d vertex %d differs from the polygon remodeled alone", trial, p, k);
            ensemble_free(&alone[p]);
        }
        ENSURE(e.nv_used == e.start[e.np - 1] + e.count[e.np - 1]);
        remodel_free(&r);
        ensemble_free(&e);
    }
    omp_set_num_threads(threads);
    /* (pushes and the arrays' growth were exercised; moves down, which only a new layout makes,
     * in test_remodel_gaps_and_room) */
    ENSURE_MSG(up > 0 && regrown > 0, "unchanged polygons moved up %d and down %d times; arrays grew %d times", up, down, regrown);
}

/* A twist (docs/model.md 4): in a 12-gon whose vertices 4 and 5 trade places, edges 3 and 5
 * cross (chords of a convex polygon with interleaved ends). Remodeling cuts vertices 4 and 5 out
 * and joins 3 to 6 by an edge with the hoop's mean stretch: the others keep their data, the hoop
 * is simple again, the twist is counted. An untwisted hoop with a turn of more than 90 degrees
 * is left alone, and so are a rigid hoop and a pentagon with the same twist (only hoops of more
 * than 5 vertices are untwisted). */
void test_remodel_cuts_out_twists(void)
{
    Params P = fx_params_zero();
    P.lmax = 1;   /* (the joining edge is not refined) */
    for (int trial = 0; trial < 4; trial++) {
        Ensemble e;
        Remodel r;
        ensemble_init(&e, 1);
        remodel_init(&r);
        int n = trial == 3 ? 5 : 12, p = fx_add_ngon(&e, n, 0.3, 0.5, -0.2, 0.1), s = e.start[p], m = trial == 3 ? 1 : 4;
        e.rigid[p] = trial == 2;
        for (int i = 0; i < n; i++) { e.vx[s + i] = i; e.l0[s + i] = 0.1 + 0.001 * i; }
        if (trial == 1) {   /* no twist: vertex 4 pulled out into a spike, turning by about 150 degrees */
            e.x[s + m] = 0.5 + 0.9 * cos(0.1 + 2 * PH_PI * m / n); e.y[s + m] = -0.2 + 0.9 * sin(0.1 + 2 * PH_PI * m / n);
        } else
            for (int f = 0; f < 2; f++) {
                double *v = f ? e.y : e.x, t = v[s + m];
                v[s + m] = v[s + m + 1]; v[s + m + 1] = t;
            }
        double x[12], y[12], l0[12], vx[12], L = 0, sum0 = 0;
        for (int i = 0; i < n; i++) { x[i] = e.x[s + i]; y[i] = e.y[s + i]; l0[i] = e.l0[s + i]; vx[i] = e.vx[s + i]; }
        for (int i = 0; i < n; i++) { L += hypot(x[(i + 1) % n] - x[i], y[(i + 1) % n] - y[i]); sum0 += l0[i]; }
        char msg[256];
        ENSURE(trial == 1 || ensemble_validate(&e, msg, sizeof msg) != 0);   /* (it does cross itself) */
        uint64_t layout = e.layout;
        remodel_apply(&e, &P, &r);
        if (trial != 0) {
            ENSURE_MSG(r.twists == 0 && e.layout == layout && e.count[0] == n, "trial %d", trial);
        } else {
            ENSURE_MSG(r.twists == 1 && e.count[0] == n - 2, "%lld twists, %d vertices", (long long)r.twists, e.count[0]);
            ENSURE_MSG(ensemble_validate(&e, msg, sizeof msg) == 0, "%s", msg);
            s = e.start[0];
            for (int i = 0, k = 0; i < n; i++) {
                if (i == m || i == m + 1) continue;
                ENSURE(e.x[s + k] == x[i] && e.y[s + k] == y[i] && e.vx[s + k] == vx[i]);
                ENSURE_CLOSE(e.l0[s + k], i == m - 1 ? hypot(x[m + 2] - x[m - 1], y[m + 2] - y[m - 1]) * sum0 / L : l0[i], 1e-15);
                k++;
            }
        }
        remodel_free(&r);
        ensemble_free(&e);
    }
}

/* remodel_sort: polygons added in a scrambled order on an 8 x 8 grid come out row by row, each
 * row by x; every polygon keeps its vertices (positions, velocities, rest lengths) and its data
 * bit for bit; the slots are valid and contiguous; a second sort changes nothing. */
void test_remodel_sort_rows_by_x(void)
{
    static Ensemble e;
    ensemble_init(&e, 1);
    uint64_t st = 7;
    for (int k = 0; k < 64; k++) {
        /* grid cell g: row g / 8, column g % 8; the sort's rows are sqrt(mean area) = 0.88 high,
         * so grid row r lies at 1.36 r of them, at least 0.05 from a boundary with the jitter */
        int g = k * 29 % 64;
        int p = fx_add_ngon(&e, 20 + 4 * (k % 3), 0.5, 1.2 * (g % 8), 1.2 * (g / 8) + fx_uniform(&st, -0.02, 0.02), k);
        e.Amax[p] = g;   /* (the grid cell travels with the polygon) */
        for (int i = e.start[p]; i < e.start[p] + e.count[p]; i++) {
            e.vx[i] = fx_uniform(&st, -1, 1); e.vy[i] = fx_uniform(&st, -1, 1); e.l0[i] = fx_uniform(&st, 0, 1);
        }
    }
    /* the vertices of each polygon, by id (ids are 0 .. 63 in order of addition) */
    double *was[64];
    int n[64];
    for (int p = 0; p < 64; p++) {
        n[p] = e.count[p];
        was[p] = malloc(5 * (size_t)n[p] * sizeof **was);
        double *arr[5] = { e.x, e.y, e.vx, e.vy, e.l0 };
        for (int f = 0; f < 5; f++) memcpy(was[p] + f * n[p], arr[f] + e.start[p], (size_t)n[p] * sizeof **was);
    }
    uint64_t layout = e.layout;
    int slots = e.nv_used;
    ENSURE(remodel_sort(&e) == 1);
    ENSURE(e.layout != layout && e.np == 64 && e.nv_used == slots);
    char msg[256];
    ENSURE_MSG(ensemble_validate(&e, msg, sizeof msg) == 0, "%s", msg);
    for (int p = 0; p < 64; p++) {
        ENSURE_MSG(e.Amax[p] == p, "place %d holds grid cell %g", p, e.Amax[p]);
        int id = (int)e.id[p];
        ENSURE(id >= 0 && id < 64 && e.count[p] == n[id] && id * 29 % 64 == p);
        double *arr[5] = { e.x, e.y, e.vx, e.vy, e.l0 };
        for (int f = 0; f < 5; f++) ENSURE(!memcmp(was[id] + f * n[id], arr[f] + e.start[p], (size_t)n[id] * sizeof **was));
        for (int i = e.start[p]; i < e.start[p] + e.count[p]; i++) ENSURE(e.pid[i] == p);
        if (p) ENSURE(e.start[p] >= e.start[p - 1] + e.count[p - 1]);
    }
    ENSURE(e.nv_used >= e.start[63] + e.count[63]);
    layout = e.layout;
    ENSURE(remodel_sort(&e) == 0 && e.layout == layout);
    for (int p = 0; p < 64; p++) free(was[p]);
    ensemble_free(&e);
}

/* A dividing tissue whose polygons are ordered by position every 40 steps (remodel_sort, here from
 * the first vertex on; a run does it from REMODEL_SORT_FROM vertices): the order in memory is then
 * no longer the order of birth, and the run stays the same at any thread count and through a
 * checkpoint written on a sorting step. */
static void sorting_tissue(Sim *s)
{
    sim_init(s, &params_compiled, 1);
    for (int k = 0; k < 60; k++) {
        int c = k * 37 % 60;   /* (scrambled: birth order is not position order) */
        fx_add_ngon(&s->e, 24, 1, 2.01 * (c % 6) + 0.3 * (c / 6 % 2), 1.8 * (c / 6), 0);
    }
    sim_draw_traits(s);
    for (int p = 0; p < s->e.np; p += 5) s->e.Amax[p] = 3;   /* (these divide at once) */
    s->sort_every = 40;
    s->sort_from = 0;
}

void test_remodel_sorted_run_same_any_thread_count_and_restart(void)
{
    const int counts[] = { 1, 2, 3 }, threads = omp_get_max_threads();
    uint64_t hash[3];
    static Sim s;
    for (int t = 0; t < 3; t++) {
        sorting_tissue(&s);
        omp_set_num_threads(counts[t]);
        for (int k = 0; k < 200; k++) ENSURE_MSG(sim_step(&s) == 0, "%s", s.error);
        hash[t] = fx_state_hash(&s.e);
        ENSURE_MSG(hash[t] == hash[0], "%d threads: another state than 1 thread after 200 steps", counts[t]);
        if (!t) {
            int unordered = 0;
            for (int p = 1; p < s.e.np; p++) unordered |= s.e.id[p] < s.e.id[p - 1];
            ENSURE_MSG(s.e.np > 60 && unordered, "%d cells, in birth order: not sorted", s.e.np);
        }
        sim_free(&s);
    }
    omp_set_num_threads(threads);
    /* 80 steps, a checkpoint (the next step sorts), a new Sim from it, 120 more */
    char dir[] = "/tmp/ph_test_sort_XXXXXX", path[64], err[512];
    ENSURE(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/checkpoint.bin", dir);
    sorting_tissue(&s);
    for (int k = 0; k < 80; k++) ENSURE_MSG(sim_step(&s) == 0, "%s", s.error);
    ENSURE_MSG(checkpoint_write(path, &s, 0, "in.off", NULL, err, sizeof err) == 0, "%s", err);
    sim_free(&s);
    sim_init(&s, &params_compiled, 1);
    s.sort_every = 40;
    s.sort_from = 0;
    char input[64];
    int frame;
    ENSURE_MSG(checkpoint_read(path, &s, &frame, input, sizeof input, NULL, err, sizeof err) == 0, "%s", err);
    for (int k = 0; k < 120; k++) ENSURE_MSG(sim_step(&s) == 0, "%s", s.error);
    ENSURE_MSG(fx_state_hash(&s.e) == hash[0], "restarted at step 80: another state after 200 steps");
    sim_free(&s);
    remove(path);
    rmdir(dir);
}

/* Refinement is the paper's bisection (docs/model.md 4), not a cut into ceil(l / lmax) pieces: a
 * rectangle of sides 2.5 lmax and 1.5 lmax becomes 4 + 2 + 4 + 2 pieces (an edge of 2.5 lmax is
 * bisected twice, one of 1.5 lmax once), vertex for vertex what a plain breadth-first bisection
 * gives (midpoints of positions and velocities, rest lengths halved each time). */
void test_remodel_refines_by_bisection(void)
{
    Params P = fx_params_zero();
    double L = P.lmax, x[4] = { 0, 2.5 * L, 2.5 * L, 0 }, y[4] = { 0, 0, 1.5 * L, 1.5 * L };
    double vx[4] = { 1, -2, 0.5, 3 }, vy[4] = { 0.25, 1, -1, 2 }, l0[4] = { 0.7, 0.3, 0.45, 0.2 };
    for (int rigid = 0; rigid < 2; rigid++) {
        Ensemble e;
        Remodel r;
        ensemble_init(&e, 1);
        remodel_init(&r);
        ensemble_add_polygon(&e, 4, x, y, 1, rigid);
        for (int k = 0; k < 4; k++) { e.vx[k] = vx[k]; e.vy[k] = vy[k]; e.l0[k] = l0[k]; }
        remodel_apply(&e, &P, &r);
        ENSURE_MSG(e.count[0] == 12, "%d vertices, not 4 + 2 + 4 + 2", e.count[0]);
        /* the reference: each edge as a list of (x, y, vx, vy, l0 of the piece after it), pieces
         * longer than lmax bisected in a sweep until none is */
        double ref[12][5];
        int m = 0;
        for (int k = 0; k < 4; k++) {
            int k1 = (k + 1) % 4, n = 2;
            double s[8][5] = { { x[k], y[k], vx[k], vy[k], l0[k] }, { x[k1], y[k1], vx[k1], vy[k1], 0 } };
            for (int again = 1; again;) {
                again = 0;
                for (int i = 0; i + 1 < n; i++)
                    if (hypot(s[i + 1][0] - s[i][0], s[i + 1][1] - s[i][1]) > L) {
                        memmove(s[i + 2], s[i + 1], (size_t)(n - i - 1) * sizeof s[0]);
                        for (int f = 0; f < 4; f++) s[i + 1][f] = 0.5 * (s[i][f] + s[i + 2][f]);
                        s[i][4] *= 0.5;
                        s[i + 1][4] = s[i][4];
                        n++; i++; again = 1;
                    }
            }
            ENSURE(n - 1 == (k % 2 ? 2 : 4));
            for (int i = 0; i + 1 < n; i++) memcpy(ref[m++], s[i], sizeof s[i]);
        }
        ENSURE(m == 12);
        int s0 = e.start[0];
        const double *got[5] = { e.x + s0, e.y + s0, e.vx + s0, e.vy + s0, e.l0 + s0 };
        for (int i = 0; i < 12; i++)
            for (int f = 0; f < 5; f++)
                ENSURE_MSG(got[f][i] == ref[i][f], "rigid %d: vertex %d field %d: %.17g, not %.17g", rigid, i, f, got[f][i], ref[i][f]);
        for (int i = 0; i < 4; i++)   /* the long bottom edge: 4 equal pieces of 0.625 lmax */
            ENSURE_CLOSE(hypot(got[0][i + 1] - got[0][i], got[1][i + 1] - got[1][i]), 0.625 * L, 1e-15);
        remodel_free(&r);
        ensemble_free(&e);
    }
}

/* Coarsening keeps at least 3 vertices: a sliver quad (1 x 0.01, lmin = 0.02) has two short
 * opposite edges, and merging both would leave 2 vertices. One merge leaves a triangle, whose
 * rest lengths still sum to the quad's. */
void test_remodel_sliver_quad_keeps_three_vertices(void)
{
    Params P = fx_params_zero();
    P.lmin = 0.02; P.lmax = 10;
    Ensemble e;
    Remodel r;
    ensemble_init(&e, 1);
    remodel_init(&r);
    const double x[4] = { 0, 1, 1, 0 }, y[4] = { 0, 0, 0.01, 0.01 };
    ensemble_add_polygon(&e, 4, x, y, 1, 0);
    double l0 = sum_l0(&e, 0);
    remodel_apply(&e, &P, &r);
    ENSURE_MSG(e.count[0] == 3, "%d vertices", e.count[0]);
    ENSURE_CLOSE(sum_l0(&e, 0), l0, 1e-14);
    remodel_free(&r);
    ensemble_free(&e);
}

/* Remodeling that would take the vertex slots past the most there can be ends the run (status 1)
 * naming the polygon that would end past the bound, the bound, the polygon that remodeling grows
 * most and the vertices there would be: three octagons, the middle one large (edges of 0.77,
 * each bisected into 4), the bound lowered to 40 slots (from 2^31 - 1), in a child process. */
void test_remodel_slot_bound_named(void)
{
    Params P = fx_params_zero();
    Ensemble e;
    Remodel r;
    ensemble_init(&e, 1);
    remodel_init(&r);
    ENSURE(r.max_slots == INT32_MAX);
    fx_add_ngon(&e, 8, 0.2, 0, 0, 0);
    fx_add_ngon(&e, 8, 1.0, 3, 0, 0);
    fx_add_ngon(&e, 8, 0.2, 6, 0, 0);
    r.max_slots = 40;
    char dir[] = "/tmp/ph_test_slots_XXXXXX", log[128];
    ENSURE(mkdtemp(dir));
    snprintf(log, sizeof log, "%s/err", dir);
    fflush(stdout);
    fflush(stderr);
    pid_t child = fork();
    ENSURE(child >= 0);
    if (child == 0) {   /* (remodel_apply ends this process) */
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd < 0 || dup2(fd, 2) < 0) _exit(99);
        omp_set_num_threads(1);
        remodel_apply(&e, &P, &r);
        _exit(98);
    }
    int st = 0;
    ENSURE(waitpid(child, &st, 0) == child);
    FILE *f = fopen(log, "r");
    char msg[1024] = "";
    ENSURE(f && fgets(msg, sizeof msg, f));
    fclose(f);
    ENSURE_MSG(WIFEXITED(st) && WEXITSTATUS(st) == 1, "exit status %d: %s", WIFEXITED(st) ? WEXITSTATUS(st) : -1, msg);
    ENSURE_MSG(!strcmp(msg, "polyhoop: remodeling would need more vertex slots than there can be, 40 (slot indices are 32-bit "
                            "integers): polygon 2 (id 2) would end at slot 48; remodeling grows polygon 1 (id 1) most, from 8 "
                            "to 32 vertices; the 3 polygons would have 48 vertices\n"), "%s", msg);
    remove(log);
    ENSURE(rmdir(dir) == 0);
    remodel_free(&r);
    ensemble_free(&e);
}
