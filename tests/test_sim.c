/* The whole step against analytic cases. (The program end to end: tests/cli/.) */
#define _POSIX_C_SOURCE 200809L
#include "checkpoint.h"
#include "contact.h"
#include "remodel.h"
#include "topology.h"
#include "fixtures.h"
#include "forces.h"
#include "geometry.h"
#include "grid.h"
#include "harness.h"
#include "sim.h"
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <omp.h>
#include <math.h>

static double total_energy(Sim *s)
{
    double Ui, Up, K = 0, lmax = forces_update_geometry(&s->e);
    forces_internal(&s->e, &s->P, &Ui);
    contact_forces(&s->contact, &s->e, &s->P, lmax, &Up);
    for (int i = 0; i < s->e.nv_used; i++) K += 0.5 * (s->e.vx[i] * s->e.vx[i] + s->e.vy[i] * s->e.vy[i]);
    return K + Ui + Up;
}

/* Without dissipation, a squeezed polygon oscillates; semi-implicit Euler is symplectic, so the
 * total energy oscillates by O(dt omega) about a constant: over 1e5 steps its band does not widen
 * and its mean does not drift. */
void test_sim_energy_bounded_without_dissipation(void)
{
    Params P = fx_params_zero();
    P.ka = 1e5; P.gamma = 1e3; P.kl = 1e4; P.kb = 0.1; P.kr = 1e7;
    P.lmin = 0; P.lmax = 10;                   /* no remodeling: the vertex set stays fixed */
    static Sim s;
    sim_init(&s, &P, 1);
    fx_add_ngon(&s.e, 30, 1, 0, 0, 0);
    for (int i = 0; i < 30; i++) { s.e.x[i] *= 1.15; s.e.y[i] *= 0.85; }   /* an ellipse, same l0 */
    s.e.A0[0] = 2.9;
    int n = 100000, window = n / 10;
    double Kmax = 0, mean[2] = { 0, 0 }, lo[2] = { INFINITY, INFINITY }, hi[2] = { -INFINITY, -INFINITY };
    for (int k = 0; k < n; k++) {
        ENSURE_MSG(sim_step(&s) == 0, "%s", s.error);
        double E = total_energy(&s), K = 0;
        for (int i = 0; i < s.e.nv_used; i++) K += 0.5 * (s.e.vx[i] * s.e.vx[i] + s.e.vy[i] * s.e.vy[i]);
        Kmax = fmax(Kmax, K);
        int w = k < window ? 0 : k >= n - window ? 1 : -1;
        if (w < 0) continue;
        mean[w] += E / window;
        lo[w] = fmin(lo[w], E);
        hi[w] = fmax(hi[w], E);
    }
    ENSURE(Kmax > 100);                                  /* it did oscillate */
    ENSURE_MSG((hi[0] - lo[0]) / Kmax < 0.05, "energy band %.3g of the kinetic scale", (hi[0] - lo[0]) / Kmax);
    ENSURE_MSG(hi[1] - lo[1] < 1.2 * (hi[0] - lo[0]), "band widened from %.4g to %.4g", hi[0] - lo[0], hi[1] - lo[1]);
    ENSURE_MSG(fabs(mean[1] - mean[0]) / Kmax < 1e-3, "drift %.3g of the kinetic scale", fabs(mean[1] - mean[0]) / Kmax);
    sim_free(&s);
}

/* A cell with line tension gamma and area stiffness ka relaxes to the radius where the pressure
 * p = -ka (A - A0) balances the tension, p = gamma / R (Laplace), i.e. ka (pi R^2 - A0) R = -gamma. */
void test_sim_laplace_law(void)
{
    Params P = fx_params_zero();
    P.ka = 1e3; P.gamma = 1e3; P.cv = 10; P.kr = 1e7;
    static Sim s;
    sim_init(&s, &P, 1);
    fx_add_ngon(&s.e, 40, 1, 0, 0, 0);
    s.e.A0[0] = PH_PI;
    double lo = 0.1, hi = 1;   /* solve the cubic by bisection */
    for (int k = 0; k < 100; k++) {
        double R = 0.5 * (lo + hi);
        if (P.ka * (PH_PI * R * R - PH_PI) * R + P.gamma < 0) lo = R; else hi = R;
    }
    double R = 0.5 * (lo + hi);
    ENSURE(R < 0.9);           /* a strong effect, not a rounding */
    for (int k = 0; k < 30000; k++) ENSURE_MSG(sim_step(&s) == 0, "%s", s.error);
    int n = s.e.count[0];
    double A = geom_area(s.e.x, s.e.y, n), Rm = sqrt(A / PH_PI);
    ENSURE_MSG(fabs(Rm / R - 1) < 0.01, "radius %.5f, Laplace %.5f", Rm, R);
    double p = -P.ka * (A - s.e.A0[0]), Rl = geom_perimeter(s.e.x, s.e.y, n) / (2 * PH_PI);
    ENSURE_MSG(fabs(p * Rl / P.gamma - 1) < 0.01, "p R / gamma = %.5f", p * Rl / P.gamma);
    sim_free(&s);
}

/* minimum distance between the vertices of polygon p and the edges of polygon q */
static double gap(const Ensemble *e, int p, int q)
{
    double d = INFINITY;
    for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++)
        for (int j = e->start[q]; j < e->start[q] + e->count[q]; j++) {
            int k = ens_next(e, j);
            d = fmin(d, geom_point_segment_distance((Vec2){ e->x[i], e->y[i] }, (Vec2){ e->x[j], e->y[j] },
                                                    (Vec2){ e->x[k], e->y[k] }, NULL));
        }
    return d;
}

static int edges_cross(const Ensemble *e, int p, int q)
{
    for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++)
        for (int j = e->start[q]; j < e->start[q] + e->count[q]; j++) {
            int i1 = ens_next(e, i), j1 = ens_next(e, j);
            double ax = e->x[i], ay = e->y[i], bx = e->x[i1], by = e->y[i1], cx = e->x[j], cy = e->y[j], dx = e->x[j1], dy = e->y[j1];
            double d1 = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax), d2 = (bx - ax) * (dy - ay) - (by - ay) * (dx - ax);
            double d3 = (dx - cx) * (ay - cy) - (dy - cy) * (ax - cx), d4 = (dx - cx) * (by - cy) - (dy - cy) * (bx - cx);
            if (d1 * d2 < 0 && d3 * d4 < 0) return 1;
        }
    return 0;
}

static void two_cells(Sim *s, const Params *P, double gap0)
{
    sim_init(s, P, 1);
    fx_add_ngon(&s->e, 60, 1, -1 - gap0 / 2, 0, 0.01);
    fx_add_ngon(&s->e, 60, 1, 1 + gap0 / 2, 0, PH_PI + 0.01);
}

/* Two default (adhesive) cells placed within the adhesion range zip together: they settle with a
 * straight shared interface on the symmetry line x = 0, at the separation h where adhesion and
 * repulsion balance (s = 0), and never overlap. */
void test_sim_adhesive_cells_flat_interface(void)
{
    Params P = params_compiled;
    P.alpha_mu = 0;
    static Sim s;
    two_cells(&s, &P, P.h + 0.005);
    for (int k = 0; k < 20000; k++) {
        ENSURE_MSG(sim_step(&s) == 0, "%s", s.error);
        if (k % 500 == 0) ENSURE(!edges_cross(&s.e, 0, 1) && gap(&s.e, 0, 1) > 0.5 * P.h);
    }
    /* vertices of cell 0 within the adhesion range of cell 1 form the interface */
    double xmin = INFINITY, xmax = -INFINITY, ymin = INFINITY, ymax = -INFINITY;
    for (int i = s.e.start[0]; i < s.e.start[0] + s.e.count[0]; i++) {
        double d = INFINITY;
        for (int j = s.e.start[1]; j < s.e.start[1] + s.e.count[1]; j++) {
            int k = ens_next(&s.e, j);
            d = fmin(d, geom_point_segment_distance((Vec2){ s.e.x[i], s.e.y[i] }, (Vec2){ s.e.x[j], s.e.y[j] }, (Vec2){ s.e.x[k], s.e.y[k] }, NULL));
        }
        if (d < P.h + P.sh) {
            xmin = fmin(xmin, s.e.x[i]); xmax = fmax(xmax, s.e.x[i]);
            ymin = fmin(ymin, s.e.y[i]); ymax = fmax(ymax, s.e.y[i]);
        }
    }
    ENSURE_MSG(ymax - ymin > 0.3, "interface length %.3f", ymax - ymin);   /* they zipped up */
    ENSURE_CLOSE(gap(&s.e, 0, 1), P.h, 0.05 * P.h);
    ENSURE_MSG(xmax - xmin < 0.01 * (ymax - ymin), "interface not straight: x spans %.4g", xmax - xmin);
    ENSURE_SMALL(0.5 * (xmin + xmax) + 0.5 * P.h, 0.2 * P.h);               /* at x = -h/2 */
    ENSURE(!edges_cross(&s.e, 0, 1) && gap(&s.e, 0, 1) > 0.5 * P.h);
    sim_free(&s);
}

/* distance between the centroids of polygons 0 and 1 */
static double centroid_distance(const Ensemble *e)
{
    Vec2 a = geom_centroid(e->x + e->start[0], e->y + e->start[0], e->count[0]);
    Vec2 b = geom_centroid(e->x + e->start[1], e->y + e->start[1], e->count[1]);
    return hypot(b.x - a.x, b.y - a.y);
}

/* With kh = 0 the same two cells feel no attraction: their centroids never approach (the cells
 * breathe as they relax, which moves vertices but not centroids). The adhesive control run pulls
 * them together. */
void test_sim_no_attraction_without_adhesion(void)
{
    for (int adhesive = 0; adhesive < 2; adhesive++) {
        Params P = params_compiled;
        P.alpha_mu = 0;
        if (!adhesive) P.kh = 0;
        static Sim s;
        two_cells(&s, &P, P.h + 0.005);
        double d0 = centroid_distance(&s.e), dmin = d0;
        for (int k = 0; k < 5000; k++) {
            ENSURE_MSG(sim_step(&s) == 0, "%s", s.error);
            dmin = fmin(dmin, centroid_distance(&s.e));
        }
        if (adhesive) ENSURE_MSG(dmin < d0 - 0.01, "the adhesive control did not attract (%.4g)", d0 - dmin);
        else ENSURE_MSG(dmin >= d0 - 1e-9, "centroids approached by %.3g", d0 - dmin);
        sim_free(&s);
    }
}

/* Steps s `steps` times; after each step (and the next one's remodeling) compares the pair forces
 * of the step's contact list (contact_forces_step) with a new grid (contact_forces): the same
 * pairs, and the same forces up to the order of the sums. Returns the smallest and largest pair
 * counts seen. */
static void list_matches_grid(Sim *s, int steps, int *pairs_min, int *pairs_max)
{
    static Contact fresh;
    contact_init(&fresh);
    *pairs_min = 1 << 30; *pairs_max = 0;
    for (int k = 0; k < steps; k++) {
        ENSURE_MSG(sim_step(s) == 0, "%s", s->error);
        Ensemble *e = &s->e;
        remodel_apply(e, &s->P, &s->remodel);   /* (as the next step begins: its remodel then has nothing to do) */
        double lmax = forces_update_geometry(e), *f[2][2], fbig = 0, diff = 0;
        int pairs[2];
        for (int m = 0; m < 2; m++) {
            for (int i = 0; i < e->nv_used; i++) e->fx[i] = e->fy[i] = 0;
            Contact *c = m ? &fresh : &s->contact;
            contact_keep_records(c, 1);
            if (m) contact_forces(c, e, &s->P, lmax, NULL);
            else contact_forces_step(c, e, &s->P, lmax);
            pairs[m] = 0;
            for (int t = 0, n; t < contact_record_parts(c); t++) { contact_records(c, t, &n); pairs[m] += n; }
            for (int d = 0; d < 2; d++) {
                f[m][d] = malloc((size_t)e->nv_used * sizeof(double));
                memcpy(f[m][d], d ? e->fy : e->fx, (size_t)e->nv_used * sizeof(double));
            }
        }
        for (int i = 0; i < e->nv_used; i++)
            for (int d = 0; d < 2; d++) {
                fbig = fmax(fbig, fabs(f[1][d][i]));
                diff = fmax(diff, fabs(f[0][d][i] - f[1][d][i]));
            }
        for (int m = 0; m < 2; m++) { free(f[m][0]); free(f[m][1]); }
        ENSURE_MSG(pairs[0] == pairs[1], "step %d: %d pairs from the list, %d from the grid", k, pairs[0], pairs[1]);
        ENSURE_MSG(diff <= 1e-12 * fbig, "step %d: forces differ by %.3g (largest %.3g)", k, diff, fbig);
        *pairs_min = pairs[1] < *pairs_min ? pairs[1] : *pairs_min;
        *pairs_max = pairs[1] > *pairs_max ? pairs[1] : *pairs_max;
    }
    contact_free(&fresh);
}

/* Adds an n-gon (fx_add_ngon) moving as a whole at a velocity drawn uniformly from [-v, v]^2. */
/* The contact list of the step (reused while the vertices move less than half its skin) finds
 * the same pairs and forces as a new grid at every step: (1) a jostling, growing, remodeling
 * cluster of cells flying into each other, so that pairs keep appearing; (2) two polygons
 * meeting head-on at the largest speed, the case for which the bound (twice the largest
 * displacement < skin) is tight. Without the motion bound the list would go stale. */
void test_sim_contact_list_complete(void)
{
    Params P = params_compiled;   /* the defaults: adhesion, growth, remodeling */
    static Sim s;
    sim_init(&s, &P, 1);
    uint64_t rng = 7;
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 4; b++) fx_add_moving_ngon(&s.e, 32, 0.5, 1.1 * a + 0.05 * b, 1.05 * b, 0.1 * a, &rng, 8);
    sim_draw_traits(&s);
    int lo, hi;
    list_matches_grid(&s, 1500, &lo, &hi);
    /* the test proves something only if the list was both reused and rebuilt, and pairs came */
    int64_t builds, patches, reuses;
    contact_counts(&s.contact, &builds, &patches, &reuses);
    ENSURE_MSG(reuses > 500 && builds > 20, "list built %lld times, reused %lld", (long long)builds, (long long)reuses);
    ENSURE_MSG(hi > lo + 50, "pairs ranged only from %d to %d", lo, hi);
    sim_free(&s);

    P = fx_params_zero();
    P.kr = 1e7; P.kh = 1e6;   /* no internal forces: the polygons fly unchanged until they meet */
    sim_init(&s, &P, 1);
    for (int a = 0; a < 2; a++) {
        int p = fx_add_ngon(&s.e, 16, 0.5, a ? 0.6 : -0.6, 0, 0);
        for (int i = s.e.start[p]; i < s.e.start[p] + s.e.count[p]; i++) s.e.vx[i] = a ? -8 : 8;
    }
    list_matches_grid(&s, 150, &lo, &hi);
    contact_counts(&s.contact, &builds, &patches, &reuses);
    ENSURE_MSG(lo == 0 && hi > 0 && reuses > 100, "pairs %d to %d, list reused %lld times", lo, hi, (long long)reuses);
    sim_free(&s);
}

/* Sets up in s, with the parameters P, a confluent tissue of 49 cells that grows fast, divides
 * (division areas spread), loses its smallest cells (below Amin) and jostles (velocities from
 * rng). */
static void dividing_tissue(Sim *s, Params *P, uint64_t seed, uint64_t *rng)
{
    *P = params_compiled;
    P->alpha_mu = 10; P->Amax_CV = 0.2; P->Amin = 0.5;
    sim_init(s, P, seed);
    for (int r = 0; r < 7; r++)
        for (int c = 0; c < 7; c++) {
            double R = (r * 7 + c) % 9 == 4 ? 0.35 : 0.9;   /* a few small ones, removed at once */
            fx_add_moving_ngon(&s->e, 20, R, 1.86 * c + 0.93 * (r % 2), 1.61 * r, 0.1 * c, rng, 3);
        }
    sim_draw_traits(s);
}

/* The list patched through every kind of change finds the same pairs and forces as a new grid at
 * every step: a confluent tissue of 49 cells that grows fast, divides (division areas spread),
 * loses its smallest cells (below Amin) and jostles (random initial velocities), so that
 * polygons are remodeled, divided, removed and refreshed for their motion nearly every step;
 * then drops that fuse (theta > 0). The list must be patched several times as often as rebuilt
 * (in so small a system a patch that refreshes the polygons past half their budget is often a
 * rebuild). */
void test_sim_patched_list_complete(void)
{
    Params P;
    static Sim s;
    uint64_t rng = 11;
    dividing_tissue(&s, &P, 5, &rng);
    int lo, hi;
    list_matches_grid(&s, 1200, &lo, &hi);
    int64_t builds, patches, reuses;
    contact_counts(&s.contact, &builds, &patches, &reuses);
    ENSURE_MSG(s.divisions >= 20 && s.removals >= 5, "%lld divisions, %lld removals", (long long)s.divisions, (long long)s.removals);
    ENSURE_MSG(patches > 500 && patches > 3 * builds, "list built %lld times, patched %lld, reused %lld",
               (long long)builds, (long long)patches, (long long)reuses);
    sim_free(&s);

    P = params_compiled;
    P.alpha_mu = 0; P.Amax_mu = INFINITY; P.theta = 0.5; P.kh = 3e6;   /* sticky drops that fuse */
    sim_init(&s, &P, 2);
    for (int k = 0; k < 64; k++) fx_add_moving_ngon(&s.e, 24, 0.5, 1.1 * (k % 8), 1.1 * (k / 8), 0, &rng, 1.5);
    sim_draw_traits(&s);
    list_matches_grid(&s, 800, &lo, &hi);
    contact_counts(&s.contact, &builds, &patches, &reuses);
    ENSURE_MSG(s.fusions1 >= 5 && patches > 2 * builds, "%lld fusions, %lld splits; list built %lld, patched %lld",
               (long long)s.fusions1, (long long)s.fusions2, (long long)builds, (long long)patches);
    sim_free(&s);
}

/* The same in a sparse grid (its walk in the search cells, a list with a table of some strips,
 * marks in a hash table): two growing, dividing, jostling tissues of 16 cells, 2 10^4 apart
 * diagonally, a few of their cells removed at once, find the same pairs and forces from the
 * patched list as from a new grid at every step (and patch about as often as the same tissues
 * 12 apart: 86 patches and 79 builds in 600 steps against 84 and 79, measured without the
 * removals). */
void test_sim_sparse_list_complete(void)
{
    Params P = params_compiled;
    P.alpha_mu = 10; P.Amax_CV = 0.2; P.Amin = 0.5;
    static Sim s;
    sim_init(&s, &P, 3);
    uint64_t rng = 5;
    for (int k = 0; k < 32; k++) {   /* (a few small ones, removed at once: a patch with no polygon to mark) */
        double far = k < 16 ? 0 : 2e4;
        fx_add_moving_ngon(&s.e, 20, k % 7 == 3 ? 0.35 : 0.9, 1.86 * (k % 4) + 0.93 * (k / 4 % 2) + far, 1.61 * (k / 4 % 4) + far, 0.1 * k, &rng, 3);
    }
    sim_draw_traits(&s);
    int lo, hi;
    list_matches_grid(&s, 600, &lo, &hi);
    int64_t builds, patches, reuses;
    contact_counts(&s.contact, &builds, &patches, &reuses);
    ENSURE_MSG(s.divisions >= 5 && s.removals >= 3 && patches > 50 && builds > 0, "%lld divisions, %lld removals; list built %lld times, patched %lld, reused %lld",
               (long long)s.divisions, (long long)s.removals, (long long)builds, (long long)patches, (long long)reuses);
    ENSURE_MSG(s.contact.nstrips < (s.contact.list_ny + GRID_STRIP - 1) / GRID_STRIP && (double)s.contact.list_nx * s.contact.list_ny > 16.0 * s.e.nv_used + 1024,
               "the list's grid is not sparse: %d strips of %d x %d cells", s.contact.nstrips, s.contact.list_nx, s.contact.list_ny);
    sim_free(&s);
}

static int same_state(const Ensemble *a, const Ensemble *b)
{
    if (a->np != b->np || a->t != b->t) return 0;
    for (int p = 0; p < a->np; p++) {
        if (a->count[p] != b->count[p] || a->A0[p] != b->A0[p]) return 0;
        for (int k = 0; k < a->count[p]; k++) {
            int i = a->start[p] + k, j = b->start[p] + k;
            if (a->x[i] != b->x[j] || a->y[i] != b->y[j] || a->vx[i] != b->vx[j] || a->vy[i] != b->vy[j]) return 0;
        }
    }
    return 1;
}

static long file_size(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fclose(f);
    return n;
}

/* Steps s once; returns what its contact list did: 0 reused, 1 patched, 2 built. */
static int step_kind(Sim *s)
{
    int64_t b0, p0, r0, b1, p1, r1;
    contact_counts(&s->contact, &b0, &p0, &r0);
    ENSURE_MSG(sim_step(s) == 0, "%s", s->error);
    contact_counts(&s->contact, &b1, &p1, &r1);
    return b1 > b0 ? 2 : p1 > p0 ? 1 : 0;
}

/* A run restarted from any of its checkpoints takes the path of the run never stopped: the same
 * reuse, patch or build of the contact list at every step, and at its next checkpoint the same
 * bytes. A tissue of 49 cells that grows fast, divides and loses its smallest cells, over 2,400
 * steps, a checkpoint every 100 and after the first 4 steps that divided: those written when the
 * list's slots were the polygons' (the list then serves the restored ensemble as it is) and
 * those after a division had changed them (patched first). (A restart that always patched
 * first took another path after 3 of 167 checkpoints of the default run, and its frames then
 * differed in their last digits.) */
void test_sim_restart_takes_the_same_path(void)
{
    enum { STEPS = 2400, EVERY = 100, MOST = STEPS / EVERY + 4 };
    static Sim a, b;
    static signed char kind[STEPS + 1];
    int at[MOST], nat = 0, current = 0, other = 0, differ = 0;
    char dir[] = "/tmp/ph_test_path_XXXXXX", path[96], err[512], input[64];
    ENSURE(mkdtemp(dir));
    Params P;
    uint64_t rng = 11;
    dividing_tissue(&a, &P, 2, &rng);
    for (int k = 1; k <= STEPS; k++) {
        int64_t divisions = a.divisions;
        kind[k] = (signed char)step_kind(&a);
        if (k % EVERY && !(a.divisions > divisions && other < 4)) continue;
        snprintf(path, sizeof path, "%s/%d.bin", dir, k);
        ENSURE_MSG(checkpoint_write(path, &a, k / a.P.Ns, "in", NULL, err, sizeof err) == 0, "%s", err);
        if (a.contact.list_layout == a.e.layout) current++;
        else other++;
        at[nat++] = k;
    }
    for (int j = 0; j + 1 < nat; j++) {   /* from each checkpoint to the next */
        int frame, k;
        snprintf(path, sizeof path, "%s/%d.bin", dir, at[j]);
        sim_init(&b, &P, 1);
        ENSURE_MSG(checkpoint_read(path, &b, &frame, input, sizeof input, NULL, err, sizeof err) == 0, "%s", err);
        for (k = at[j] + 1; k <= at[j + 1] && step_kind(&b) == kind[k]; k++) {}
        if (k <= at[j + 1]) differ++;
        else {
            char again[112], cmp[256];
            snprintf(again, sizeof again, "%s/again.bin", dir);
            ENSURE_MSG(checkpoint_write(again, &b, at[j + 1] / b.P.Ns, "in", NULL, err, sizeof err) == 0, "%s", err);
            snprintf(cmp, sizeof cmp, "cmp -s %s/%d.bin %s", dir, at[j + 1], again);
            ENSURE_MSG(fx_sh(cmp) == 0, "restarted at step %d: the checkpoint at step %d differs", at[j], at[j + 1]);
            remove(again);
        }
        sim_free(&b);
    }
    ENSURE_MSG(!differ, "%d of %d restarts took another path of reuses, patches and builds", differ, nat - 1);
    ENSURE_MSG(current >= 10 && other >= 2, "checkpoints with the list's slots the polygons' %d, others %d", current, other);
    for (int j = 0; j < nat; j++) { snprintf(path, sizeof path, "%s/%d.bin", dir, at[j]); remove(path); }
    rmdir(dir);
    sim_free(&a);
}

/* Six cells of 24 vertices that grow and press on each other in s (seed 3), 300 steps on; path
 * (a mkstemp template) becomes a new empty file for their checkpoints. */
static void six_cells(Sim *s, char *path)
{
    int fd = mkstemp(path);
    ENSURE(fd >= 0);
    close(fd);
    sim_init(s, &params_compiled, 3);
    for (int k = 0; k < 6; k++) fx_add_ngon(&s->e, 24, 0.5, 1.02 * (k % 3), 1.02 * (k / 3), 0);
    sim_draw_traits(s);
    for (int k = 0; k < 300; k++) ENSURE_MSG(sim_step(s) == 0, "%s", s->error);
}

/* A checkpoint whose list was built with another skin (as by a build with another SKIN; here
 * half of it, which the list of this build's skin more than serves) is read with that skin, and
 * the run goes on bit for bit like the original: its list patched and reused under the budgets of
 * that skin until the next rebuild takes this build's. */
void test_sim_checkpoint_other_skin(void)
{
    static Sim a, b;
    char path[] = "/tmp/ph_test_ckpt_XXXXXX", err[512], input[64];
    int frame;
    six_cells(&a, path);
    int64_t builds, patches, reuses, b0, p0, r0;
    contact_counts(&a.contact, &b0, &p0, &r0);
    do {   /* (to a step that built the list: its budgets are those of one step) */
        ENSURE_MSG(sim_step(&a) == 0, "%s", a.error);
        contact_counts(&a.contact, &builds, &patches, &reuses);
    } while (builds == b0 && a.e.step < 3000);
    ENSURE_MSG(builds > b0, "the list was not rebuilt in %lld steps", (long long)a.e.step - 300);
    const double skin = a.contact.list_skin, thin = 0.5 * skin;
    a.contact.list_skin = thin;
    ENSURE(checkpoint_write(path, &a, 0, "six", NULL, err, sizeof err) == 0);
    sim_init(&b, &params_compiled, 1);
    ENSURE_MSG(checkpoint_read(path, &b, &frame, input, sizeof input, NULL, err, sizeof err) == 0, "%s", err);
    ENSURE_MSG(b.contact.list_skin == thin, "read with skin %g, not the file's %g", b.contact.list_skin, thin);
    contact_counts(&b.contact, &b0, &p0, &r0);
    int served = 0;   /* steps that patched or reused the list of the thin skin */
    for (int k = 0; k < 3000 && b.contact.list_skin == thin; k++) {
        ENSURE_MSG(sim_step(&a) == 0 && sim_step(&b) == 0, "%s%s", a.error, b.error);
        ENSURE_MSG(same_state(&a.e, &b.e), "the continued run differs at step %d", k);
        contact_counts(&b.contact, &builds, &patches, &reuses);
        if (builds == b0) served = (int)(patches + reuses - p0 - r0);
    }
    ENSURE_MSG(served > 0 && b.contact.list_skin == skin, "the thin list served %d steps; skin now %g (this build's %g)",
               served, b.contact.list_skin, skin);
    for (int k = 0; k < 50; k++) {
        ENSURE_MSG(sim_step(&a) == 0 && sim_step(&b) == 0, "%s%s", a.error, b.error);
        ENSURE_MSG(same_state(&a.e, &b.e), "the run differs at step %d after the rebuild", k);
    }
    remove(path);
    sim_free(&a);
    sim_free(&b);
}

/* A checkpoint carries the contact list: a run read back from it goes on bit for bit like the
 * original (with the list reused, not rebuilt). Every truncation is refused and leaves the state
 * untouched (refused by its size or checksum) or empty, and a version-1 file is refused by name. */
void test_sim_checkpoint_contact_list(void)
{
    static Sim a, b, c;
    char path[] = "/tmp/ph_test_ckpt_XXXXXX", err[512], input[64];
    int frame;
    six_cells(&a, path);
    ENSURE_MSG(contact_saved_state(&a.contact) == 1, "no list to save");
    ENSURE(checkpoint_write(path, &a, 0, "six", NULL, err, sizeof err) == 0);
    long full = file_size(path);
    /* the same state without a list: the list section is then the 4 bytes of the state (and the
     * checksum's 4 follow) */
    sim_init(&c, &params_compiled, 1);
    ENSURE_MSG(checkpoint_read(path, &c, &frame, input, sizeof input, NULL, err, sizeof err) == 0, "%s", err);
    contact_invalidate(&c.contact);
    ENSURE(checkpoint_write(path, &c, 0, "six", NULL, err, sizeof err) == 0);
    long base = file_size(path) - 8;
    ENSURE(full > base + 4 + 40);
    ENSURE(checkpoint_write(path, &a, 0, "six", NULL, err, sizeof err) == 0);
    sim_init(&b, &params_compiled, 1);
    ENSURE_MSG(checkpoint_read(path, &b, &frame, input, sizeof input, NULL, err, sizeof err) == 0, "%s", err);
    ENSURE(same_state(&a.e, &b.e));
    int64_t builds, patches, reuses, reuses0;
    contact_counts(&b.contact, &builds, &patches, &reuses0);
    for (int k = 0; k < 200; k++) {
        ENSURE_MSG(sim_step(&a) == 0 && sim_step(&b) == 0, "%s%s", a.error, b.error);
        ENSURE_MSG(same_state(&a.e, &b.e), "the continued run differs at step %d", k);
    }
    contact_counts(&b.contact, &builds, &patches, &reuses);
    ENSURE_MSG(reuses > reuses0, "the read-back run never reused the list");
    /* truncated anywhere (about 200 cuts over the whole file, 100 in the list section): refused,
     * and no half-read ensemble is left */
    FILE *f = fopen(path, "rb");
    ENSURE(f != NULL);
    char *bytes = malloc((size_t)full);
    ENSURE(fread(bytes, 1, (size_t)full, f) == (size_t)full);
    fclose(f);
    for (int pass = 0; pass < 2; pass++)
        for (long n = pass ? base : 0; n < full; n += 1 + (pass ? full - base : full) / 97) {
            f = fopen(path, "wb");
            ENSURE(fwrite(bytes, 1, (size_t)n, f) == (size_t)n);
            fclose(f);
            sim_free(&b);
            sim_init(&b, &params_compiled, 1);
            fx_add_ngon(&b.e, 8, 1, 0, 0, 0);   /* (a state that a refused read must not mix with the file's) */
            ENSURE_MSG(checkpoint_read(path, &b, &frame, input, sizeof input, NULL, err, sizeof err) == -1, "a cut at %ld of %ld bytes was accepted", n, full);
            if (strstr(err, "too short for a checkpoint") || strstr(err, "checksum"))   /* refused before reading: untouched */
                ENSURE_MSG(b.e.np == 1 && b.e.count[0] == 8, "a cut at %ld bytes changed the state", n);
            else
                ENSURE_MSG(b.e.np == 0 && b.e.nv_used == 0, "a cut at %ld bytes left %d polygons", n, b.e.np);
        }
    /* an older version (here 1): refused, saying why */
    uint32_t one = 1;
    memcpy(bytes + 24, &one, sizeof one);   /* (after the 24-byte magic) */
    f = fopen(path, "wb");
    ENSURE(fwrite(bytes, 1, (size_t)base, f) == (size_t)base);
    fclose(f);
    ENSURE(checkpoint_read(path, &b, &frame, input, sizeof input, NULL, err, sizeof err) == -1);
    ENSURE_MSG(strstr(err, "version 1 is no longer read"), "%s", err);
    free(bytes);
    remove(path);
    sim_free(&a);
    sim_free(&b);
    sim_free(&c);
}

/* A checkpoint taken while the list lives on by patches (a growing, dividing tissue, with gaps in
 * the slots when a step ended with a division): the run read back goes on bit for bit like the
 * original, patching the list it read. */
void test_sim_checkpoint_patched_list(void)
{
    Params P = params_compiled;
    P.alpha_mu = 10; P.Amax_CV = 0.2;
    static Sim a, b;
    char path[] = "/tmp/ph_test_ckpt_XXXXXX", err[512], input[64];
    int fd = mkstemp(path), frame, gaps = 0, checked = 0;
    ENSURE(fd >= 0);
    close(fd);
    sim_init(&a, &P, 4);
    for (int k = 0; k < 36; k++) fx_add_ngon(&a.e, 20, 0.9, 1.86 * (k % 6) + 0.93 * (k / 6 % 2), 1.61 * (k / 6), 0);
    sim_draw_traits(&a);
    for (int k = 0; k < 1200 && checked < 4; k++) {
        ENSURE_MSG(sim_step(&a) == 0, "%s", a.error);
        if (k < 300 || (k % 97 && !(a.e.gaps && gaps < 2))) continue;
        gaps += a.e.gaps;
        ENSURE(contact_saved_state(&a.contact) == 1);
        ENSURE(checkpoint_write(path, &a, 0, "tissue", NULL, err, sizeof err) == 0);
        sim_init(&b, &P, 1);
        ENSURE_MSG(checkpoint_read(path, &b, &frame, input, sizeof input, NULL, err, sizeof err) == 0, "%s", err);
        int64_t a0[3], a1[3], b0[3], b1[3];
        contact_counts(&a.contact, &a0[0], &a0[1], &a0[2]);
        contact_counts(&b.contact, &b0[0], &b0[1], &b0[2]);
        for (int j = 0; j < 60; j++) {
            ENSURE_MSG(sim_step(&a) == 0 && sim_step(&b) == 0, "%s%s", a.error, b.error);
            ENSURE_MSG(same_state(&a.e, &b.e), "checkpoint at step %d: the continued run differs %d steps later", k + 1, j + 1);
        }
        contact_counts(&a.contact, &a1[0], &a1[1], &a1[2]);
        contact_counts(&b.contact, &b1[0], &b1[1], &b1[2]);
        ENSURE_MSG(b1[0] - b0[0] == a1[0] - a0[0] && b1[1] > b0[1], "the original built its list %lld times, the read-back run %lld times (patched %lld)",
                   (long long)(a1[0] - a0[0]), (long long)(b1[0] - b0[0]), (long long)(b1[1] - b0[1]));
        sim_free(&b);
        checked++;
        k += 60;
    }
    ENSURE_MSG(checked == 4 && gaps >= 1 && a.divisions > 10, "%d checkpoints, %d with gaps, %lld divisions", checked, gaps, (long long)a.divisions);
    remove(path);
    sim_free(&a);
}

/* A packing of 67,200 vertices (above 65,536: the parallel grid sort, at most 2 cells per vertex,
 * the grid freed while the list serves): bit-identical states at 1 and 2 threads; the grid is
 * freed after a list build; a frame's neighbour count, taken from the list without a grid,
 * equals the count from a new grid. */
void test_sim_large_packing_list_and_memory(void)
{
    Params P = params_compiled;
    P.alpha_mu = 0; P.Amax_mu = INFINITY;   /* no growth, no division */
    uint64_t hash[2];
    int threads = omp_get_max_threads();
    for (int t = 0; t < 2; t++) {
        static Sim s;
        sim_init(&s, &P, 1);
        for (int r = 0; r < 35; r++)
            for (int c = 0; c < 40; c++)
                fx_add_ngon(&s.e, 48, 1, (2 + P.h) * (c + 0.5 * (r % 2)), (2 + P.h) * 0.8660254037844386 * r, 0);
        sim_draw_traits(&s);
        ENSURE(s.e.nv_used >= 1 << 16);
        omp_set_num_threads(t + 1);
        for (int k = 0; k < 40; k++) ENSURE_MSG(sim_step(&s) == 0, "%s", s.error);
        int64_t builds, patches, reuses;
        contact_counts(&s.contact, &builds, &patches, &reuses);
        ENSURE_MSG(builds > 0 && reuses > 0 && !contact_holds_grid(&s.contact),
                   "list built %lld, reused %lld, grid %s", (long long)builds, (long long)reuses,
                   contact_holds_grid(&s.contact) ? "kept" : "freed");
        int *nb = malloc((size_t)s.e.np * sizeof *nb), *nb2 = malloc((size_t)s.e.np * sizeof *nb2);
        sim_neighbors(&s, nb, NULL);
        ENSURE_MSG(!contact_holds_grid(&s.contact), "the frame's neighbour count built a grid although the list was usable");
        static Contact fresh;
        contact_init(&fresh);
        contact_count_neighbors(&fresh, &s.e, &s.P, forces_update_geometry(&s.e), nb2);
        long total = 0;
        for (int p = 0; p < s.e.np; p++) {
            ENSURE_MSG(nb[p] == nb2[p], "polygon %d: %d neighbours from the list, %d from a grid", p, nb[p], nb2[p]);
            total += nb[p];
        }
        ENSURE_MSG(total > 4 * s.e.np, "only %ld neighbours in all: not a packing", total);
        contact_free(&fresh);
        free(nb); free(nb2);
        hash[t] = fx_state_hash(&s.e);
        sim_free(&s);
    }
    omp_set_num_threads(threads);
    ENSURE(hash[0] == hash[1]);
}

/* A full disk while a checkpoint streams out (files may grow to half its size; 100 polygons,
 * more than the 64 KiB write buffer, so a write fails in the middle): refused with the reason, and
 * neither the checkpoint nor its .tmp is left; the previous checkpoint is kept. */
void test_sim_checkpoint_disk_full(void)
{
    static Sim s;
    char dir[] = "/tmp/ph_test_ckfull_XXXXXX", path[96], tmp[100], err[512];
    ENSURE(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/checkpoint.bin", dir);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    sim_init(&s, &params_compiled, 1);
    for (int k = 0; k < 100; k++) fx_add_ngon(&s.e, 24, 0.4, (k % 10) * 1.0, (k / 10) * 1.0, 0);
    sim_draw_traits(&s);   /* (division areas as a run draws them: a checkpoint holds no others) */
    ENSURE_MSG(checkpoint_write(path, &s, 0, "grid", NULL, err, sizeof err) == 0, "%s", err);
    FILE *f = fopen(path, "rb");
    ENSURE(f && fseek(f, 0, SEEK_END) == 0);
    long size = ftell(f);
    fclose(f);
    ENSURE(size > 100 * 24 * 40);
    fx_file_limit(size / 2);
    int r = checkpoint_write(path, &s, 1, "grid", NULL, err, sizeof err);
    fx_file_limit(-1);
    ENSURE(r == -1);
    ENSURE_MSG(strstr(err, path) == err && strstr(err, "too large"), "%s", err);
    struct stat st;
    ENSURE_MSG(lstat(tmp, &st) != 0, "the .tmp was left");
    ENSURE(stat(path, &st) == 0 && st.st_size == size);   /* (the previous one, intact) */
    int frame;
    char input[64];
    static Sim b;
    sim_init(&b, &params_compiled, 1);
    ENSURE_MSG(checkpoint_read(path, &b, &frame, input, sizeof input, NULL, err, sizeof err) == 0 && frame == 0, "%s", err);
    sim_free(&s);
    sim_free(&b);
    remove(path);
    ENSURE(rmdir(dir) == 0);
}

/* The attractor (paper Fig. 2B): a free cell far from the point drifts towards it at the speed
 * where viscous damping balances the pull, att_k / cv (within 1 %, after the transient e^{-cv t}),
 * and the others stay where they are; att_n cells are drawn at random, the same ones for the same
 * seed, and daughters inherit the mark. */
void test_sim_attractor_pulls_at_terminal_speed(void)
{
    Params P = fx_params_zero();
    P.cv = 10; P.att_k = 5; P.att_n = 2; P.att_x = 100; P.att_y = 0;
    P.ka = 1e4; P.gamma = 100;   /* (internal forces sum to zero: they must not move the centroid) */
    static Sim s, t;
    for (int k = 0; k < 2; k++) {
        Sim *m = k ? &t : &s;
        sim_init(m, &P, 9);
        for (int c = 0; c < 6; c++) fx_add_ngon(&m->e, 24, 0.5, 3.0 * c, 0, 0);
        sim_draw_traits(m);
        sim_pick_attracted(m);
    }
    int picked = 0;
    for (int p = 0; p < s.e.np; p++) {
        picked += s.e.attracted[p];
        ENSURE_MSG(s.e.attracted[p] == t.e.attracted[p], "polygon %d: the draw differs for the same seed", p);
    }
    ENSURE_MSG(picked == 2, "%d polygons picked, not att_n = 2", picked);
    double x0[6];
    for (int p = 0; p < 6; p++) { x0[p] = 0; for (int i = s.e.start[p]; i < s.e.start[p] + s.e.count[p]; i++) x0[p] += s.e.x[i] / s.e.count[p]; }
    const int steps = 3000;   /* t = 0.3 */
    for (int k = 0; k < steps; k++) ENSURE_MSG(sim_step(&s) == 0, "%s", s.error);
    double T = steps * P.dt, v = P.att_k / P.cv, want = v * (T - (1 - exp(-P.cv * T)) / P.cv);
    for (int p = 0; p < 6; p++) {
        double xc = 0;
        for (int i = s.e.start[p]; i < s.e.start[p] + s.e.count[p]; i++) xc += s.e.x[i] / s.e.count[p];
        if (s.e.attracted[p]) ENSURE_MSG(fabs(xc - x0[p] - want) < 0.01 * want, "polygon %d moved %.6g towards the attractor, expected %.6g", p, xc - x0[p], want);
        else ENSURE_MSG(fabs(xc - x0[p]) < 1e-9, "polygon %d, not attracted, moved %.3g", p, xc - x0[p]);
    }
    for (int p = 0; p < 6; p++)
        if (s.e.attracted[p]) {
            int q = topology_divide(&s.e, &s.P, &s.topology, p);
            ENSURE_MSG(q >= 0 && s.e.attracted[p] && s.e.attracted[q], "division of polygon %d: daughters %d, %d marked %d, %d", p, p, q,
                       s.e.attracted[p], q >= 0 ? s.e.attracted[q] : -1);
            break;
        }
    sim_free(&s); sim_free(&t);
}

/* The check every frame passes before it is written (grid_crossing with self: no polygon crosses
 * itself) finds exactly what the brute-force validation of every edge pair finds, on the default
 * input run with lmin = 0 and theta = 1, where polygons do cross themselves (every 20th step up
 * to 240, then every step to 320). */
void test_sim_frame_check_finds_self_crossings(void)
{
    Params P = params_compiled;
    P.lmin = 0; P.theta = 1;
    int threads = omp_get_max_threads();
    omp_set_num_threads(1);   /* (one small polygon: more threads would only wait at barriers) */
    static Sim s;
    sim_init(&s, &P, 1);
    ENSURE(sim_load_input(&s, "inputs/ensemble.off", 0) == 0);
    int crossed = 0, steps = 0;
    char msg[512];
    for (; steps < 320 && sim_step(&s) == 0; steps++) {
        if (steps < 240 && steps % 20) continue;   /* (every step around the first crossing, at 259) */
        int brute = ensemble_validate(&s.e, msg, sizeof msg) != 0 && strstr(msg, "intersects itself") != NULL, a, b;
        int grid = grid_crossing(&s.e, forces_update_geometry(&s.e), 1, &a, &b);
        ENSURE_MSG(brute == grid && (!grid || a == b), "step %d: brute force %d (%s), grid %d (%d, %d)", steps, brute, brute ? msg : "", grid, a, b);
        crossed += grid;
    }
    ENSURE_MSG(crossed > 0, "no polygon crossed itself in %d steps: the case tests nothing", steps);
    sim_free(&s);
    omp_set_num_threads(threads);
}

/* writes text into a new file path */
static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ENSURE(f && fputs(text, f) >= 0 && fclose(f) == 0);
}

/* whether a line of file path holds needle */
static int grep_file(const char *path, const char *needle)
{
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    char line[4096];
    int found = 0;
    while (!found && fgets(line, sizeof line, f)) found = strstr(line, needle) != NULL;
    fclose(f);
    return found;
}

/* sim_load_input of path with what it writes to stderr going to the file log */
static int load_input_logged(Sim *s, const char *path, const char *log)
{
    fflush(stderr);
    int saved = dup(2), fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ENSURE(saved >= 0 && fd >= 0);
    dup2(fd, 2);
    close(fd);
    int r = sim_load_input(s, path, 0);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    return r;
}

/* Polygons of an input below Amin are not dropped silently: the warning counts them and names the
 * first, and the first step removes exactly those. */
void test_sim_input_below_amin_reported(void)
{
    char dir[] = "/tmp/ph_test_amin_XXXXXX", path[128], log[128];
    ENSURE(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/in.off", dir);
    snprintf(log, sizeof log, "%s/err", dir);
    write_text(path, "OFF\n12 3 0\n0 0 0\n2 0 0\n2 2 0\n0 2 0\n5 0 0\n5.1 0 0\n5.1 0.1 0\n5 0.1 0\n8 0 0\n10 0 0\n10 2 0\n8 2 0\n"
               "4 0 1 2 3\n4 4 5 6 7\n4 8 9 10 11\n");
    Params P = params_compiled;
    P.Amin = 0.5; P.alpha_mu = 0; P.Amax_mu = INFINITY;
    static Sim s;
    sim_init(&s, &P, 1);
    int r = load_input_logged(&s, path, log);
    ENSURE(r == 0);
    ENSURE_MSG(grep_file(log, "warning: 1 of 3 polygons (the first: polygon 1) have an area below Amin = 0.5: the first step removes them"),
               "no warning naming the small polygon (%s)", log);
    ENSURE(sim_step(&s) == 0);
    ENSURE_MSG(s.e.np == 2 && s.removals == 1, "%d polygons, %lld removals after the first step", s.e.np, (long long)s.removals);
    sim_free(&s);
    remove(path);
    remove(log);
    ENSURE(rmdir(dir) == 0);
}

/* Initial velocities from a velocity file (docs/model.md 7): with cv = 0 and no contact, a free
 * polygon given (3, -4) moves its centroid by v t (internal forces sum to zero), the unlisted one
 * stays at rest. (A malformed file through the program: tests/cli/program.sh.) */
void test_sim_initial_velocities(void)
{
    char dir[] = "/tmp/ph_test_vel_XXXXXX", off[128], vel[128];
    ENSURE(mkdtemp(dir));
    snprintf(off, sizeof off, "%s/in.off", dir);
    snprintf(vel, sizeof vel, "%s/in.vel", dir);
    FILE *f = fopen(off, "w");
    ENSURE(f);
    fputs("OFF\n16 2 0\n", f);
    for (int p = 0; p < 2; p++)
        for (int k = 0; k < 8; k++) fprintf(f, "%.17g %.17g 1\n", 5.0 * p + 0.2 * cos(0.785398 * k), 0.2 * sin(0.785398 * k));
    fputs("8 0 1 2 3 4 5 6 7\n8 8 9 10 11 12 13 14 15\n", f);
    fclose(f);
    write_text(vel, "# polygon vx vy\n1 3 -4\n");
    Params P = fx_params_zero();
    P.ka = 1e4; P.gamma = 1;   /* (undamped: a stronger tension sets off a breathing mode that collapses the octagon) */
    int threads = omp_get_max_threads();
    omp_set_num_threads(1);
    static Sim s;
    sim_init(&s, &P, 1);
    const SimSetup setup = { .frames = -1, .steps = -1, .velocities = vel };
    ENSURE_MSG(sim_load_input(&s, off, &setup) == 0, "%s", s.error);
    Vec2 c0[2], c1[2];
    for (int p = 0; p < 2; p++) c0[p] = geom_centroid(s.e.x + s.e.start[p], s.e.y + s.e.start[p], s.e.count[p]);
    const int steps = 2000;
    for (int k = 0; k < steps; k++) ENSURE_MSG(sim_step(&s) == 0, "%s", s.error);
    for (int p = 0; p < 2; p++) c1[p] = geom_centroid(s.e.x + s.e.start[p], s.e.y + s.e.start[p], s.e.count[p]);
    double t = steps * P.dt;
    ENSURE_CLOSE(c1[1].x - c0[1].x, 3 * t, 1e-9);
    ENSURE_CLOSE(c1[1].y - c0[1].y, -4 * t, 1e-9);
    ENSURE_SMALL(hypot(c1[0].x - c0[0].x, c1[0].y - c0[0].y), 1e-8);   /* (rounding of the internal forces) */
    sim_free(&s);
    omp_set_num_threads(threads);
    remove(off);
    remove(vel);
    ENSURE(rmdir(dir) == 0);
}

/* The vertex updates a run reports count vertices, not slots: a removal leaves a gap that
 * remodeling keeps (remodel.h), and the gap's stale slots are neither counted nor moved. */
void test_sim_vertex_updates_skip_gaps(void)
{
    Params P = fx_params_zero();
    P.lmin = 0; P.lmax = 10;   /* (nothing to remodel) */
    static Sim s;
    sim_init(&s, &P, 1);
    for (int p = 0; p < 3; p++) fx_add_ngon(&s.e, 40, 1, 3.0 * p, 0, 0);
    unsigned char keep[3] = { 1, 0, 1 };
    ensemble_keep(&s.e, keep);
    ENSURE_MSG(sim_step(&s) == 0, "%s", s.error);
    ENSURE(s.e.nv_used == 120 && s.e.start[1] == 80);   /* the gap stayed */
    ENSURE_MSG(s.vertex_steps == 80, "%g vertex updates for 80 vertices", s.vertex_steps);
    ENSURE_CLOSE(s.e.x[80], 7, 1e-12);
    sim_free(&s);
}

/* Stacked polygons in a build without repulsion (kr = 0): the warning says that nothing pushes
 * them apart, not that they "push apart violently" (which it says with kr > 0). */
void test_sim_overlap_without_repulsion_named(void)
{
    char dir[] = "/tmp/ph_test_kr0_XXXXXX", path[128], log[128];
    ENSURE(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/in.off", dir);
    snprintf(log, sizeof log, "%s/err", dir);
    write_text(path, "OFF\n8 2 0\n0 0 0\n1 0 0\n1 1 0\n0 1 0\n0.5 0.5 0\n1.5 0.5 0\n1.5 1.5 0\n0.5 1.5 0\n4 0 1 2 3\n4 4 5 6 7\n");
    for (int kr = 0; kr < 2; kr++) {
        Params P = params_compiled;
        P.kr = kr ? 1e7 : 0;
        static Sim s;
        sim_init(&s, &P, 1);
        int r = load_input_logged(&s, path, log);
        ENSURE(r == 0);
        ENSURE_MSG(grep_file(log, "polygons 0 (line 11) and 1 (line 12) overlap on 25% of the smaller one's area (their edges cross)"),
                   "no warning naming the pair (%s)", log);
        if (kr) ENSURE_MSG(grep_file(log, "; they will push apart violently (--strict-input rejects this)"), "kr > 0: %s", log);
        else {
            ENSURE_MSG(grep_file(log, "; with kr = 0 there is no repulsion: nothing pushes them apart (--strict-input rejects this)"),
                       "kr = 0: no word that nothing separates them");
            ENSURE_MSG(!grep_file(log, "violently"), "kr = 0: said to push apart violently");
        }
        sim_free(&s);
    }
    remove(path);
    remove(log);
    ENSURE(rmdir(dir) == 0);
}

/* The likely cause of a blow-up names what is true. Two squares sent at each other at 99.9 of
 * h/dt = 100 by their velocity file blow up in the first step (the contact adds to that speed):
 * the cause names the velocity file's polygon and speed against h/dt. A vertex flung to 1e300
 * in a sound state (its speed was not checked: set by hand) blows up too, and the stability
 * estimate comes from the last sound state, not the flung one: no "use dt <= 0". */
void test_sim_likely_cause_of_fast_input(void)
{
    char dir[] = "/tmp/ph_test_fast_XXXXXX", off[128], vel[128], cause[512];
    ENSURE(mkdtemp(dir));
    snprintf(off, sizeof off, "%s/in.off", dir);
    snprintf(vel, sizeof vel, "%s/in.vel", dir);
    write_text(off, "OFF\n8 2 0\n0 0 0\n1 0 0\n1 1 0\n0 1 0\n1.015 0 0\n2.015 0 0\n2.015 1 0\n1.015 1 0\n4 0 1 2 3\n4 4 5 6 7\n");
    write_text(vel, "0 99.9 0\n1 -99.9 0\n");
    static Sim s;
    const SimSetup fast = { .frames = -1, .steps = -1, .velocities = vel }, still = { .frames = -1, .steps = -1 };
    sim_init(&s, &params_compiled, 1);
    ENSURE_MSG(sim_load_input(&s, off, &fast) == 0 && sim_setup(&s, &fast) == 0, "%s", s.error);
    ENSURE_MSG(sim_step(&s) == -1, "no blow-up at 99.9 of h/dt");
    sim_likely_cause(&s, cause, sizeof cause);
    ENSURE_MSG(strstr(cause, "the velocity file gives polygon 0 a speed of 99.9, 99.9% of h/dt = 100 (the most a vertex may "
                      "move per step is h): start it slower, or use a smaller dt"), "%s", cause);
    sim_free(&s);
    sim_init(&s, &params_compiled, 1);
    ENSURE_MSG(sim_load_input(&s, off, &still) == 0 && sim_setup(&s, &still) == 0, "%s", s.error);
    s.e.vx[s.e.start[1]] = 1e300;
    ENSURE(sim_step(&s) == -1);
    sim_likely_cause(&s, cause, sizeof cause);
    ENSURE_MSG(!strstr(cause, "use dt <=") && strstr(cause, "it happened within 100 steps of the input"), "%s", cause);
    sim_free(&s);
    remove(off);
    remove(vel);
    ENSURE(rmdir(dir) == 0);
}
