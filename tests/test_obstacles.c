/* Rigid obstacles, the box walls (a cell held, a tissue filling the box, the input checked
 * against them), hydrostatic pressure with the phase flag, and thread-independence of a run
 * with fusion. */
#define _POSIX_C_SOURCE 200809L
#include "fixtures.h"
#include "forces.h"
#include "geometry.h"
#include "harness.h"
#include "sim.h"
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int segments_cross(const Ensemble *e, int i, int j)
{
    int i1 = ens_next(e, i), j1 = ens_next(e, j);
    double ax = e->x[i], ay = e->y[i], bx = e->x[i1], by = e->y[i1], cx = e->x[j], cy = e->y[j], dx = e->x[j1], dy = e->y[j1];
    double d1 = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax), d2 = (bx - ax) * (dy - ay) - (by - ay) * (dx - ax);
    double d3 = (dx - cx) * (ay - cy) - (dy - cy) * (ax - cx), d4 = (dx - cx) * (by - cy) - (dy - cy) * (bx - cx);
    return d1 * d2 < 0 && d3 * d4 < 0;
}

/* A soft cell falls under edge gravity into a rigid V-shaped trough: it comes to rest at the
 * bottom, no vertex ever crosses the floor, and the floor's vertices never move. */
void test_obstacles_cell_rests_on_rigid_v(void)
{
    Params P = params_compiled;
    P.alpha_mu = 0; P.Amax_mu = INFINITY; P.kh = 0; P.gl = 10;
    static Sim s;
    sim_init(&s, &P, 1);
    s.validate = 1;
    double vx[] = { -1.5, 0, 1.5, 1.5, 0, -1.5 }, vy[] = { 1.3, -0.2, 1.3, 1.5, 0, 1.5 };
    ensemble_add_polygon(&s.e, 6, vx, vy, 1, 1);
    fx_add_ngon(&s.e, 30, 0.3, 0.15, 1.0, 0);
    ENSURE_MSG(sim_step(&s) == 0, "%s", s.error);     /* the floor's long edges are refined once */
    int nf = s.e.count[0];
    double *fx = malloc((size_t)nf * 2 * sizeof *fx);
    memcpy(fx, s.e.x + s.e.start[0], (size_t)nf * sizeof *fx);
    memcpy(fx + nf, s.e.y + s.e.start[0], (size_t)nf * sizeof *fx);
    double vmax = 0;
    for (int k = 0; k < 40000; k++) {
        ENSURE_MSG(sim_step(&s) == 0, "%s", s.error);
        if (k % 100) continue;
        int f = 0, c = 1;
        for (int i = s.e.start[c]; i < s.e.start[c] + s.e.count[c]; i++) {
            ENSURE_MSG(!geom_point_inside(s.e.x + s.e.start[f], s.e.y + s.e.start[f], s.e.count[f], s.e.x[i], s.e.y[i]),
                       "a vertex crossed into the floor at step %d", k);
            for (int j = s.e.start[f]; j < s.e.start[f] + s.e.count[f]; j++) ENSURE(!segments_cross(&s.e, i, j));
        }
    }
    ENSURE(s.e.count[0] == nf);
    ENSURE(memcmp(fx, s.e.x + s.e.start[0], (size_t)nf * sizeof *fx) == 0);
    ENSURE(memcmp(fx + nf, s.e.y + s.e.start[0], (size_t)nf * sizeof *fx) == 0);
    for (int i = s.e.start[1]; i < s.e.start[1] + s.e.count[1]; i++) vmax = fmax(vmax, hypot(s.e.vx[i], s.e.vy[i]));
    Vec2 c = geom_centroid(s.e.x + s.e.start[1], s.e.y + s.e.start[1], s.e.count[1]);
    ENSURE_MSG(vmax < 0.01, "still moving: %g", vmax);
    ENSURE_MSG(fabs(c.x) < 0.02, "not at the bottom: x = %g", c.x);
    ENSURE_MSG(c.y > 0.3 && c.y < 0.5, "centroid height %g", c.y);   /* radius 0.3 sqrt 2 = 0.42 */
    free(fx);
    sim_free(&s);
}

/* Hydrostatic pressure U = rho g phi S_x pushes a polygon with the net force -rho g phi A; with
 * viscous damping its M vertices reach the terminal velocity -rho g phi A / (M cv): a phi = -1
 * bubble rises and a phi = +1 drop sinks at the same speed. */
void test_obstacles_buoyancy_terminal_velocity(void)
{
    Params P = params_compiled;
    P.alpha_mu = 0; P.Amax_mu = INFINITY; P.rho = 1; P.g = 10;
    static Sim s;
    sim_init(&s, &P, 1);
    fx_add_ngon(&s.e, 40, 0.5, -2, 0, 0);
    fx_add_ngon(&s.e, 40, 0.5, 2, 0, 0);
    s.e.phase[0] = -1;
    for (int k = 0; k < 20000; k++) ENSURE_MSG(sim_step(&s) == 0, "%s", s.error);
    for (int p = 0; p < 2; p++) {
        int n = s.e.count[p];
        double vy = 0, A = geom_area(s.e.x + s.e.start[p], s.e.y + s.e.start[p], n);
        for (int i = s.e.start[p]; i < s.e.start[p] + n; i++) vy += s.e.vy[i] / n;
        double expect = -P.rho * P.g * s.e.phase[p] * A / (n * P.cv);
        ENSURE_MSG(fabs(vy / expect - 1) < 0.01, "polygon %d: vy = %g, expected %g", p, vy, expect);
    }
    sim_free(&s);
}

/* a small emulsion in a rigid box: drops of both phases, some nested, some touching */
static void emulsion(Sim *s, const Params *P)
{
    sim_init(s, P, 42);
    double bx[] = { -2.2, 2.2, 2.2, -2.2 }, by[] = { -2.2, -2.2, -2, -2 };
    ensemble_add_polygon(&s->e, 4, bx, by, 1, 1);                 /* floor */
    double tx[] = { -2.2, 2.2, 2.2, -2.2 }, ty[] = { 2, 2, 2.2, 2.2 };
    ensemble_add_polygon(&s->e, 4, tx, ty, 1, 1);                 /* lid */
    uint64_t st = 7;
    for (int a = 0; a < 6; a++)
        for (int b = 0; b < 6; b++) {
            double r = fx_uniform(&st, 0.2, 0.3), cx = -1.65 + 0.66 * a + fx_uniform(&st, -0.02, 0.02);
            int p = fx_add_ngon(&s->e, 40, r, cx, -1.65 + 0.66 * b, fx_uniform(&st, 0, 6.3));
            s->e.phase[p] = (signed char)((a + b) % 2 ? 1 : -1);
            if ((a * 6 + b) % 5 == 0) {                            /* a nested drop */
                int q = fx_add_ngon(&s->e, 20, 0.4 * r, cx, -1.65 + 0.66 * b, 0);
                s->e.phase[q] = (signed char)-s->e.phase[p];
            }
        }
}

/* The same emulsion with fusion on (paper Fig. 2G parameters) gives bit-identical states at 1
 * and 2 threads, fusions included. */
void test_obstacles_emulsion_thread_independent(void)
{
    Params P = params_compiled;
    P.h = 0.01; P.lmin = 0.01; P.lmax = 0.03; P.Q = 0; P.kl = 0; P.kb = 0; P.alpha_mu = 0; P.Amax_mu = INFINITY;
    P.ka = 1e7; P.gamma = 1e2; P.kr = 1e5; P.kh = 0; P.sh = P.ss = 0; P.theta = 0.85; P.mu = 0;
    P.g = 1; P.gl = 0; P.rho = 1e3; P.cv = 1; P.cc = 30; P.cd = 1; P.dt = 1e-4;
    uint64_t hash[2];
    int64_t fusions = 0;
    int threads = omp_get_max_threads();
    for (int t = 0; t < 2; t++) {
        static Sim s;
        emulsion(&s, &P);
        s.validate = 1;
        omp_set_num_threads(t + 1);
        for (int k = 0; k < 3000; k++) ENSURE_MSG(sim_step(&s) == 0, "%s", s.error);
        hash[t] = fx_state_hash(&s.e);
        fusions = s.fusions1 + s.fusions2;
        sim_free(&s);
    }
    omp_set_num_threads(threads);
    ENSURE_MSG(fusions > 0, "no fusion happened: the test would prove little");
    ENSURE(hash[0] == hash[1]);
}

/* A cell pushed into a box wall by edge gravity (box_y0 = 0, box_k = 1e5; a 30-gon of radius 0.3
 * put down just above the floor) is held. At rest its internal forces sum to zero (they do not
 * change under a translation), so the wall's forces box_k d_i balance the weight n g_l alone:
 * sum_i box_k d_i = n g_l, and so no vertex ends deeper than d = n g_l / box_k (= 3 mm, all the
 * weight on one vertex; about n g_l / (m box_k) when m vertices share it). It is put down
 * touching the floor at rest, so the load comes on at once and overshoots: for a cell that keeps
 * its shape, the weight's work n g_l d down to the deepest point pays at least the wall's energy
 * box_k d^2 / 2 there, so no vertex is ever deeper than 2 n g_l / box_k. The same cell without
 * the box falls through the floor's line. */
void test_obstacles_box_wall_holds_a_cell(void)
{
    ENSURE(params_compiled.box_k == params_compiled.kr && !params_box_on(&params_compiled));   /* (the default: kr, no box) */
    Params P = params_compiled;
    P.alpha_mu = 0; P.Amax_mu = INFINITY; P.kh = 0; P.gl = 10;
    P.box_y0 = 0; P.box_k = 1e5;
    static Sim s;
    for (int box = 1; box >= 0; box--) {
        if (!box) P.box_y0 = -INFINITY;
        sim_init(&s, &P, 1);
        fx_add_ngon(&s.e, 30, 0.3, 0.1, 0.3 * cos(PH_PI / 30) + 1e-9, 0);
        sim_draw_traits(&s);
        int n = s.e.count[0];
        double bound = n * P.gl / P.box_k, deepest = 0;
        for (int k = 0; k < 20000; k++) {
            ENSURE_MSG(sim_step(&s) == 0, "%s", s.error);
            for (int i = s.e.start[0]; i < s.e.start[0] + s.e.count[0]; i++) deepest = fmax(deepest, -s.e.y[i]);
            if (!box && k == 5000) break;
        }
        if (!box) {
            fprintf(stderr, "  without the box: %.3g below the floor's line after 5000 steps\n", deepest);
            ENSURE(deepest > 0.1);
            sim_free(&s);
            break;
        }
        ENSURE(s.e.count[0] == n);
        double last = 0, held = 0, vmax = 0;
        for (int i = s.e.start[0]; i < s.e.start[0] + n; i++) {
            double d = fmax(0, -s.e.y[i]);
            last = fmax(last, d);
            held += P.box_k * d;
            vmax = fmax(vmax, hypot(s.e.vx[i], s.e.vy[i]));
        }
        fprintf(stderr, "  held: deepest %.4g at rest (bound n gl / box_k = %.4g), %.4g on the way (bound %.4g); "
                "wall force %.6g against the weight %.6g; speed %.2g\n", last, bound, deepest, 2 * bound, held, n * P.gl, vmax);
        ENSURE(vmax < 1e-3);
        ENSURE(last > 0 && last <= bound);
        ENSURE(deepest <= 2 * bound);
        ENSURE_CLOSE(held / (n * P.gl), 1, 1e-3);
        sim_free(&s);
    }
}

/* A tissue grows from the default cell (radius 1, growth 1 L^2/T per cell, division above pi) in
 * a box of 3 by 3 (area 9): its area follows the growth of the target areas until it meets the
 * walls, then approaches the box's (the cells, compressed, fill the corners; what stays free is
 * the hoops' gaps of about h between cells and the corners' rounding by the line tension). */
void test_obstacles_tissue_fills_box(void)
{
    Params P = params_compiled;
    P.box_x0 = P.box_y0 = -1.5; P.box_x1 = P.box_y1 = 1.5;
    static Sim s;
    sim_init(&s, &P, 1);
    ENSURE(sim_load_input(&s, "inputs/ensemble.off", NULL) == 0);
    double box = 9, fill[8] = { 0 };
    for (int k = 1; k <= 7; k++) {
        while (s.e.step < k * 5000) ENSURE_MSG(sim_step(&s) == 0, "%s", s.error);
        double a = 0, a0 = 0, out = 0;
        forces_update_geometry(&s.e);
        for (int p = 0; p < s.e.np; p++) { a += s.e.A[p]; a0 += s.e.A0[p]; }
        for (int i = 0; i < s.e.nv_used; i++)
            out = fmax(out, fmax(fmax(P.box_x0 - s.e.x[i], s.e.x[i] - P.box_x1), fmax(P.box_y0 - s.e.y[i], s.e.y[i] - P.box_y1)));
        fill[k] = a / box;
        fprintf(stderr, "  t = %.1f: %d cells, area %.4f of the box's (targets %.4f), deepest beyond a wall %.3g\n", s.e.t,
                s.e.np, fill[k], a0 / box, out);
        if (k <= 3) ENSURE_CLOSE(a / a0, 1, 0.01);   /* (free growth: the areas follow the targets) */
        else {   /* (in the box: the targets go on growing, the area approaches the box's from below) */
            ENSURE(fill[k] > fill[k - 1] && fill[k] < 1);
            ENSURE(out < 0.005);
        }
        if (k == 7) ENSURE(a0 / box > 1.5 && fill[k] > 0.99);
    }
    sim_free(&s);
}

/* The input against the box walls: a movable polygon with a vertex outside is refused, naming
 * it; a rigid one outside is not (the walls do not push it), and one exactly on a wall's line
 * is inside. */
void test_obstacles_box_input_checked(void)
{
    char dir[] = "/tmp/ph_test_box_XXXXXX", path[64];
    ENSURE(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/in.off", dir);
    FILE *f = fopen(path, "w");
    ENSURE(f);
    fprintf(f, "OFF\n8 2 0\n2 0 1\n3 0 1\n3 1 1\n2 1 1\n-1 -1 1\n0 -1 1\n0 0 1\n-1 0 1\n4 0 1 2 3\n4 4 5 6 7\n");
    fclose(f);
    Params P = params_compiled;
    P.box_x0 = -1; P.box_x1 = 1.5; P.box_y0 = -1;
    static Sim s;
    for (int nr = 0; nr < 2; nr++) {
        P.Nr = nr;
        sim_init(&s, &P, 1);
        int rc = sim_load_input(&s, path, NULL);
        if (nr) ENSURE_MSG(rc == 0, "%s", s.error);
        else ENSURE_MSG(rc == -1 && strstr(s.error, "polygon 0 (line 11) has a vertex at (2, 0) outside the box [-1, 1.5] x [-1, inf]"),
                        "%s", s.error);
        sim_free(&s);
    }
    unlink(path);
    rmdir(dir);
}
