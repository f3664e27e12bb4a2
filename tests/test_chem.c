/* Tests of src/chem.c (docs/model.md 11): the solver against analytic solutions (a Gaussian's
 * spread, converging at second order in dx; the steady profile of a degraded species), the
 * amount conserved, the cover of the nodes by polygons, the refusal of a grid too fine for dt,
 * and a simulation with chemistry: the response rule's types, growth rates and forces, the same
 * at any thread count and after a checkpoint. */
#define _POSIX_C_SOURCE 200809L
#include "checkpoint.h"
#include "chem.h"
#include "fixtures.h"
#include "forces.h"
#include "geometry.h"
#include "harness.h"
#include "pair.h"
#include "sim.h"
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

/* one species a, diffusivity D in and out of cells, degradation k, on [x0, x1] x [y0, y1] */
static ChemModel model(double D, double k, double x0, double y0, double x1, double y1, double dx)
{
    ChemModel m = { .ns = 1, .ntypes = 1, .x0 = x0, .y0 = y0, .x1 = x1, .y1 = y1, .dx = dx, .max_substeps = 100000, .every = 1 };
    m.sp[0] = (ChemSpecies){ .name = "a", .D_in = D, .D_out = D, .k = k };
    return m;
}

static double *node(Chem *ch, int s, int i, int j) { return ch->c + ((size_t)s * ch->ny + j) * ch->nx + i; }

/* The largest error against the spreading Gaussian c = exp(-r^2 / (4 D t)) / (4 pi D t), D = 1,
 * from t = 0.1 to 0.3 in steps of 0.01, on a grid of spacing dx (zero flux 4 widths away). */
static double gaussian_error(double dx)
{
    ChemModel m = model(1, 0, -4, -4, 4, 4, dx);
    Chem ch;
    char err[512];
    ENSURE_MSG(chem_init(&ch, &m, 0.01, err, sizeof err) == 0, "%s", err);
    double t0 = 0.1, t1 = 0.3, worst = 0;
    for (int j = 0; j < ch.ny; j++)
        for (int i = 0; i < ch.nx; i++) {
            double x = -4 + i * dx, y = -4 + j * dx;
            *node(&ch, 0, i, j) = exp(-(x * x + y * y) / (4 * t0)) / (4 * PH_PI * t0);
        }
    for (int n = 0; n < 20; n++) chem_advance(&ch, 0.01);
    for (int j = 0; j < ch.ny; j++)
        for (int i = 0; i < ch.nx; i++) {
            double x = -4 + i * dx, y = -4 + j * dx, exact = exp(-(x * x + y * y) / (4 * t1)) / (4 * PH_PI * t1);
            worst = fmax(worst, fabs(*node(&ch, 0, i, j) - exact));
        }
    chem_free(&ch);
    return worst;
}

/* Halving dx divides the error by about 4 (explicit Euler's sub-steps shrink with dx^2, so time
 * and space are both second order): 0.2 -> 0.1 -> 0.05. */
void test_chem_gaussian_second_order(void)
{
    int threads = omp_get_max_threads();
    omp_set_num_threads(1);
    double e1 = gaussian_error(0.2), e2 = gaussian_error(0.1), e3 = gaussian_error(0.05);
    omp_set_num_threads(threads);
    fprintf(stderr, "  Gaussian: max error %.3g, %.3g, %.3g at dx = 0.2, 0.1, 0.05 (orders %.2f, %.2f)\n", e1, e2, e3,
            log2(e1 / e2), log2(e2 / e3));
    ENSURE(e3 < 2e-3);
    ENSURE_MSG(log2(e1 / e2) > 1.8 && log2(e2 / e3) > 1.8, "not second order");
}

/* A species held at c = 1 on the left side, degraded at rate k, zero flux elsewhere, reaches the
 * steady profile c = cosh((L - x) / lambda) / cosh(L / lambda), lambda = sqrt(D / k): within 1 %
 * of 1 at every node (D = 1, k = 1, L = 10, dx = 0.1). */
void test_chem_steady_exponential(void)
{
    ChemModel m = model(1, 1, 0, 0, 10, 0.2, 0.1);
    m.sp[0].bc[CHEM_LEFT] = CHEM_FIXED;
    m.sp[0].c_bc[CHEM_LEFT] = 1;
    Chem ch;
    char err[512];
    ENSURE_MSG(chem_init(&ch, &m, 0.05, err, sizeof err) == 0, "%s", err);
    ENSURE(ch.nx == 101 && ch.ny == 3 && ch.nsub == 21);
    for (int n = 0; n < 400; n++) chem_advance(&ch, 0.05);   /* (t = 20: 20 relaxation times 1/k) */
    double worst = 0;
    for (int j = 0; j < ch.ny; j++)
        for (int i = 0; i < ch.nx; i++) {
            double x = i * 0.1, exact = cosh(10 - x) / cosh(10);
            worst = fmax(worst, fabs(*node(&ch, 0, i, j) - exact));
        }
    fprintf(stderr, "  steady profile: largest difference from cosh((L - x)/lambda)/cosh(L/lambda): %.3g\n", worst);
    ENSURE(worst < 0.01);
    chem_free(&ch);
}

/* With zero flux on every side and no reaction or degradation, the amount (chem_amount) stays
 * what it was to round-off while a random field evens out, also where the diffusivity jumps at a
 * cell's boundary (D_in = 1, D_out = 0.1); the cover holds the cell's nodes and no other. */
void test_chem_amount_conserved(void)
{
    ChemModel m = model(1, 0, -2, -1.5, 2, 1.5, 0.1);
    m.sp[0].D_out = 0.1;
    Chem ch;
    char err[512];
    ENSURE_MSG(chem_init(&ch, &m, 1e-3, err, sizeof err) == 0, "%s", err);
    Ensemble e;
    ensemble_init(&e, 1);
    fx_add_ngon(&e, 40, 1.0, 0.1, -0.2, 0.3);
    forces_update_geometry(&e);
    uint64_t rng = 7;
    for (size_t k = 0; k < (size_t)ch.nx * ch.ny; k++) ch.c[k] = fx_uniform(&rng, 0, 1);
    double before = chem_amount(&ch, 0), spread0 = 0, spread1 = 0;
    ENSURE(chem_respond(&ch, &e) == 0);
    int inside = 0;
    for (int j = 0; j < ch.ny; j++)
        for (int i = 0; i < ch.nx; i++) {
            int o = ch.owner[(size_t)j * ch.nx + i];
            double x = -2 + i * 0.1, y = -1.5 + j * 0.1;
            int in = geom_point_inside(e.x, e.y, e.count[0], x, y);
            if (fabs(hypot(x - 0.1, y + 0.2) - 1) > 0.01) ENSURE_MSG((o == 0) == in, "node (%d, %d): owner %d, inside %d", i, j, o, in);
            inside += o == 0;
        }
    ENSURE(inside > 250 && inside < 380);   /* (pi / 0.01 = 314 nodes) */
    for (size_t k = 0; k < (size_t)ch.nx * ch.ny; k++) spread0 = fmax(spread0, fabs(ch.c[k] - 0.5));
    for (int n = 0; n < 2000; n++) chem_advance(&ch, 1e-3);
    for (size_t k = 0; k < (size_t)ch.nx * ch.ny; k++) spread1 = fmax(spread1, fabs(ch.c[k] - before / 12));
    double after = chem_amount(&ch, 0);
    fprintf(stderr, "  amount %.17g -> %.17g (relative change %.2g)\n", before, after, fabs(after - before) / before);
    ENSURE_SMALL((after - before) / before, 1e-13);
    ENSURE_MSG(spread1 < 0.5 * spread0, "the field did not even out (%g, %g)", spread0, spread1);
    ensemble_free(&e);
    chem_free(&ch);
}

/* The cover of a non-convex polygon (a star of 14 points), at random offsets, is exactly the
 * nodes that geom_point_inside finds inside (nodes within 1e-9 of an edge left out). */
void test_chem_cover_star(void)
{
    ChemModel m = model(1, 0, -2, -2, 2, 2, 0.05);
    Chem ch;
    char err[512];
    ENSURE_MSG(chem_init(&ch, &m, 1e-4, err, sizeof err) == 0, "%s", err);
    uint64_t rng = 3;
    for (int trial = 0; trial < 20; trial++) {
        double x[28], y[28], cx = fx_uniform(&rng, -0.3, 0.3), cy = fx_uniform(&rng, -0.3, 0.3), phi = fx_uniform(&rng, 0, 1);
        for (int k = 0; k < 28; k++) {
            double r = k % 2 ? 0.6 : 1.5;
            x[k] = cx + r * cos(phi + PH_PI * k / 14);
            y[k] = cy + r * sin(phi + PH_PI * k / 14);
        }
        Ensemble e;
        ensemble_init(&e, 1);
        ensemble_add_polygon(&e, 28, x, y, 1, 0);
        forces_update_geometry(&e);
        ENSURE(chem_respond(&ch, &e) == 0);
        for (int j = 0; j < ch.ny; j++)
            for (int i = 0; i < ch.nx; i++) {
                double px = -2 + i * 0.05, py = -2 + j * 0.05, near = INFINITY;
                for (int k = 0; k < 28; k++) {
                    int k1 = (k + 1) % 28;
                    double ex = x[k1] - x[k], ey = y[k1] - y[k], w = ((px - x[k]) * ex + (py - y[k]) * ey) / (ex * ex + ey * ey);
                    w = w < 0 ? 0 : w > 1 ? 1 : w;
                    near = fmin(near, hypot(px - x[k] - w * ex, py - y[k] - w * ey));
                }
                if (near < 1e-9) continue;
                int in = geom_point_inside(x, y, 28, px, py), o = ch.owner[(size_t)j * ch.nx + i];
                ENSURE_MSG((o == 0) == in, "trial %d, node (%d, %d): owner %d, inside %d", trial, i, j, o, in);
            }
        ensemble_free(&e);
    }
    chem_free(&ch);
}

/* A grid too fine for dt is refused before the first step, naming D, dx and dt. */
void test_chem_refuses_too_many_substeps(void)
{
    ChemModel m = model(100, 0, 0, 0, 1, 1, 0.1);
    m.max_substeps = 100;
    Chem ch;
    char err[512];
    ENSURE(chem_init(&ch, &m, 0.01, err, sizeof err) == -1);
    ENSURE_MSG(strstr(err, "D = 100") && strstr(err, "dx = 0.1") && strstr(err, "dt = 0.01") && strstr(err, "400 sub-steps"), "%s", err);
    m.max_substeps = 400;
    ENSURE_MSG(chem_init(&ch, &m, 0.01, err, sizeof err) == 0, "%s", err);
    ENSURE(ch.nsub == 400);
    chem_free(&ch);
    m.dx = 0;
    ENSURE(chem_init(&ch, &m, 0.01, err, sizeof err) == -1 && strstr(err, "dx"));
}

/* A domain that is not a whole number of grid spacings wide or high is refused, naming the sides
 * that would be (the nodes' last column ended past x1 = 4.06, at 4.1, and the held side with it);
 * one that is, up to rounding (3 .. 4.1 is 10.999999999999996 spacings of 0.1), is taken. */
void test_chem_refuses_partial_cells(void)
{
    Chem ch;
    char err[512];
    ChemModel m = model(1, 0, 3, 0, 4.06, 0.5, 0.1);
    ENSURE(chem_init(&ch, &m, 1e-3, err, sizeof err) == -1);
    ENSURE_MSG(strstr(err, "width x1 - x0 = 1.06 is 10.6 grid spacings dx = 0.1, not a whole number") &&
               strstr(err, "x1 = 4 or 4.1 would"), "%s", err);
    m = model(1, 0, 3, 0, 4.1, 0.55, 0.1);
    ENSURE(chem_init(&ch, &m, 1e-3, err, sizeof err) == -1);
    ENSURE_MSG(strstr(err, "height y1 - y0 = 0.55 is 5.5 grid spacings") && strstr(err, "y1 = 0.5 or 0.6 would"), "%s", err);
    m = model(1, 0, 3, 0, 4.1, 0.5, 0.1);
    ENSURE_MSG(chem_init(&ch, &m, 1e-3, err, sizeof err) == 0, "%s", err);
    ENSURE(ch.nx == 12 && ch.ny == 6);
    chem_free(&ch);
}

/* the initial values of the init test: species 0 a plane, species 1 its node's distance from
 * (0.3, 0.2); species 1 negative at x > 0.75 when `negative` */
static int negative;
static double plane(int s, double x, double y)
{
    if (s == 0) return 1 + x + 2 * y;
    return negative && x > 0.75 ? -1 : hypot(x - 0.3, y - 0.2);
}

/* ChemModel.init sets each node's value from its coordinates x0 + i dx, y0 + j dx (species by
 * species), a Dirichlet side is held after it, and NULL leaves c0 everywhere; the banner says that
 * the rule replaced c0 (only then). A negative value is refused, naming the species and the node,
 * and nothing is left allocated. */
void test_chem_initial_values(void)
{
    ChemModel m = model(1, 0, -0.5, 0, 1, 0.5, 0.1);
    m.ns = 2;
    m.sp[0].c0 = 9;
    m.sp[1] = (ChemSpecies){ .name = "b", .D_in = 1, .D_out = 1, .c0 = 5, .bc = { [CHEM_RIGHT] = CHEM_FIXED }, .c_bc = { [CHEM_RIGHT] = 7 } };
    Chem ch;
    char err[512];
    ENSURE_MSG(chem_init(&ch, &m, 1e-3, err, sizeof err) == 0, "%s", err);
    ENSURE(ch.nx == 16 && ch.ny == 6);
    for (int j = 0; j < ch.ny; j++)
        for (int i = 0; i < ch.nx; i++)
            ENSURE(*node(&ch, 0, i, j) == 9 && *node(&ch, 1, i, j) == (i == ch.nx - 1 ? 7 : 5));
    chem_free(&ch);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    chem_print(f, &m, "");
    fclose(f);
    ENSURE_MSG(!strstr(text, "initial"), "%s", text);
    free(text);
    m.init = plane;
    ENSURE_MSG(chem_init(&ch, &m, 1e-3, err, sizeof err) == 0, "%s", err);
    for (int j = 0; j < ch.ny; j++)
        for (int i = 0; i < ch.nx; i++) {
            double x = -0.5 + i * 0.1, y = j * 0.1;
            ENSURE_MSG(*node(&ch, 0, i, j) == 1 + x + 2 * y, "node (%d, %d): %.17g", i, j, *node(&ch, 0, i, j));
            ENSURE_MSG(*node(&ch, 1, i, j) == (i == ch.nx - 1 ? 7 : hypot(x - 0.3, y - 0.2)), "node (%d, %d): %.17g", i, j, *node(&ch, 1, i, j));
        }
    chem_free(&ch);
    f = open_memstream(&text, &len);
    chem_print(f, &m, "");
    fclose(f);
    ENSURE_MSG(strstr(text, "initial   = the header's rule (P_CHEM_INIT), not c0\n"), "%s", text);
    free(text);
    negative = 1;
    ENSURE(chem_init(&ch, &m, 1e-3, err, sizeof err) == -1);
    negative = 0;
    ENSURE_MSG(strstr(err, "species 1 (b): the initial value -1 at node (13, 0), (x, y) = (0.8, 0), must be finite and >= 0"), "%s", err);
    ENSURE(ch.c == NULL && ch.next == NULL && ch.owner == NULL);
}

/* the rules of the coupled test: type 1 makes species 0, everything degrades it; a cell that
 * senses more than 0.3 turns type 1 (and makes it too) and grows at 0.5; every cell is pushed up
 * the gradient */
static double make(int s, const double *c, int type) { (void)s; (void)c; return type == 1 ? 50.0 : 0.0; }
static void respond(const ChemCell *cell, ChemAct *act)
{
    if (cell->c[0] > 0.3) act->type = 1, act->alpha = 0.5;
    act->fx = 20 * cell->gx[0];
    act->fy = 20 * cell->gy[0];
}

static void coupled_sim(Sim *s, int threads, int advect, int every)
{
    Params P = params_compiled;
    P.alpha_mu = 0;
    P.Ns = 100;   /* (a checkpoint at step 700 is at frame 7) */
    ChemModel m = model(5, 1, -3, -3, 3, 3, 0.1);
    m.ntypes = 2;
    m.reaction = make;
    m.response = respond;
    m.sp[0].advect = advect;
    m.every = every;
    omp_set_num_threads(threads);
    sim_init(s, &P, 1);
    ENSURE_MSG(sim_chemistry(s, &m) == 0, "%s", s->error);
    for (int k = 0; k < 9; k++) fx_add_ngon(&s->e, 32, 0.45, -1.0 + (k % 3), -1.0 + (k / 3), 0.1 * k);
    s->e.type[0] = 1;   /* the source: the lower left cell */
    sim_draw_traits(s);
}

/* Writes coupled run c's checkpoint into file (in the new folder path, a mkdtemp template) and
 * puts a fresh coupled run (advect and every as given) in its place, read from it */
static void through_checkpoint(Sim *c, int advect, int every, char *path, char *file, size_t len)
{
    char err[512], input[64];
    int frame;
    ENSURE(mkdtemp(path));
    snprintf(file, len, "%s/checkpoint.bin", path);
    ENSURE_MSG(checkpoint_write(file, c, 7, "in.off", NULL, err, sizeof err) == 0, "%s", err);
    sim_free(c);
    coupled_sim(c, 1, advect, every);
    ENSURE_MSG(checkpoint_read(file, c, &frame, input, sizeof input, NULL, err, sizeof err) == 0, "%s", err);
}


static uint64_t fields_hash(const Sim *s)
{
    uint64_t h = fx_state_hash(&s->e);
    const unsigned char *b = (const unsigned char *)s->chem.c;
    for (size_t k = 0; k < (size_t)s->chem.nx * s->chem.ny * sizeof(double); k++) h = (h ^ b[k]) * 1099511628211ull;
    for (int p = 0; p < s->e.np; p++) h = (h ^ (uint64_t)s->e.type[p]) * 1099511628211ull;
    return h;
}

/* The coupled run: the source's morphogen spreads, its three nearest neighbours turn type 1 and grow,
 * and every cell is pushed towards the source (up the gradient); the same state, bit for bit, at
 * 1 and 2 threads, and after a checkpoint written and read back at step 700 of 1500; a build
 * with another grid or other species settings refuses that checkpoint. */
void test_chem_coupled_threads_and_checkpoint(void)
{
    int threads = omp_get_max_threads();
    static Sim a, b, c;
    coupled_sim(&a, 1, 0, 1);
    Vec2 g0 = geom_centroid(a.e.x + a.e.start[8], a.e.y + a.e.start[8], a.e.count[8]);
    for (int k = 0; k < 1500; k++) ENSURE_MSG(sim_step(&a) == 0, "%s", a.error);
    Vec2 g1 = geom_centroid(a.e.x + a.e.start[8], a.e.y + a.e.start[8], a.e.count[8]);
    int turned = 0;
    for (int p = 1; p < a.e.np; p++) turned += a.e.type[p] == 1 && a.e.alpha[p] == 0.5;
    fprintf(stderr, "  %d cells turned type 1; the far cell moved by (%.3g, %.3g)\n", turned, g1.x - g0.x, g1.y - g0.y);
    ENSURE(turned == 3);
    ENSURE(g1.x < g0.x && g1.y < g0.y);   /* (towards the source at the lower left) */
    coupled_sim(&b, 2, 0, 1);
    for (int k = 0; k < 1500; k++) ENSURE_MSG(sim_step(&b) == 0, "%s", b.error);
    ENSURE_MSG(fields_hash(&a) == fields_hash(&b), "1 and 2 threads differ");
    coupled_sim(&c, 1, 0, 1);
    for (int k = 0; k < 700; k++) ENSURE(sim_step(&c) == 0);
    char path[] = "/tmp/ph_test_chem_XXXXXX", file[64], err[512], input[64];
    int frame;
    through_checkpoint(&c, 0, 1, path, file, sizeof file);
    for (int k = 0; k < 800; k++) ENSURE(sim_step(&c) == 0);
    ENSURE_MSG(fields_hash(&a) == fields_hash(&c), "the run continued from its checkpoint differs");
    /* a build with another grid refuses the checkpoint */
    static Sim d;
    Params P = params_compiled;
    ChemModel other = model(5, 1, -3, -3, 3, 2, 0.1);
    other.ntypes = 2;
    sim_init(&d, &P, 1);
    ENSURE(sim_chemistry(&d, &other) == 0);
    ENSURE(checkpoint_read(file, &d, &frame, input, sizeof input, NULL, err, sizeof err) == -1);
    ENSURE_MSG(strstr(err, "chemistry (1 species on 61 x 61 nodes) is not this build's (1 species on 61 x 51 nodes)"), "%s", err);
    /* and one with the same grid but another diffusivity */
    other = model(6, 1, -3, -3, 3, 3, 0.1);
    other.ntypes = 2;
    ENSURE(sim_chemistry(&d, &other) == 0);
    ENSURE(checkpoint_read(file, &d, &frame, input, sizeof input, NULL, err, sizeof err) == -1);
    ENSURE_MSG(strstr(err, "other cell types or species settings"), "%s", err);
    unlink(file);
    rmdir(path);
    sim_free(&a); sim_free(&b); sim_free(&c); sim_free(&d);
    omp_set_num_threads(threads);
}

/* A checkpoint between two chemical steps (as a signal writes one; here every = 10 and the
 * checkpoint at step 705) carries the response's forces, held until the next chemical step: the
 * run continued from it, at 2 threads, is the uninterrupted run bit for bit (before, it added no
 * force until step 710, and went on in other bits). The held section's fields are checked: a
 * repeated id, an id not below the next one, a force that is not finite and a count beyond the
 * file are refused by name; a file without the section (an earlier program's) holds none. */
void test_chem_held_forces_checkpoint(void)
{
    int threads = omp_get_max_threads();
    static Sim a, c;
    coupled_sim(&a, 1, 0, 10);
    for (int k = 0; k < 1500; k++) ENSURE_MSG(sim_step(&a) == 0, "%s", a.error);
    coupled_sim(&c, 1, 0, 10);
    for (int k = 0; k < 705; k++) ENSURE(sim_step(&c) == 0);
    const int np = c.e.np;
    ENSURE_MSG(chem_held_forces(&c.chem) == np, "%d of %d polygons hold a force", chem_held_forces(&c.chem), np);
    char path[] = "/tmp/ph_test_chem_XXXXXX", file[64], err[512], input[64];
    int frame;
    through_checkpoint(&c, 0, 10, path, file, sizeof file);
    ENSURE(chem_held_forces(&c.chem) == np);
    omp_set_num_threads(2);
    for (int k = 0; k < 795; k++) ENSURE(sim_step(&c) == 0);
    omp_set_num_threads(1);
    ENSURE_MSG(fields_hash(&a) == fields_hash(&c), "the run continued from its checkpoint differs");
    /* the section: int32 count, then per polygon int64 id and two doubles, before the count of
     * passages and the CRC-32 */
    FILE *f = fopen(file, "rb");
    ENSURE(f && fseek(f, 0, SEEK_END) == 0);
    long n = ftell(f), at = n - 4 - 8 - 24L * np - 4;
    unsigned char *good = malloc((size_t)n), *b = malloc((size_t)n);
    rewind(f);
    ENSURE(fread(good, 1, (size_t)n, f) == (size_t)n);
    fclose(f);
    int32_t count;
    int64_t id0, id1;
    memcpy(&count, good + at, 4);
    memcpy(&id0, good + at + 4, 8);
    memcpy(&id1, good + at + 28, 8);
    ENSURE_MSG(count == np && id0 >= 0 && id1 > id0, "count %d, ids %lld, %lld", count, (long long)id0, (long long)id1);
    const double nan = NAN;
    const int64_t far = c.e.next_id + 5;
    const int32_t huge = 1000;
    struct { long at; const void *v; size_t len; const char *want; } cases[] = {
        { at + 28, &id0, 8, "holds two forces of polygon id" },
        { at + 28, &far, 8, "not below the next id" },
        { at + 4 + 8 + 8, &nan, 8, "is not finite" },
        { at, &huge, 4, "more than the file has room for" },
    };
    for (int k = 0; k < 5; k++) {
        long len = n;
        memcpy(b, good, (size_t)n);
        if (k < 4) memcpy(b + cases[k].at, cases[k].v, cases[k].len);
        else {   /* an earlier program's file: no section (nor a count of passages) */
            memmove(b + at, b + n - 4, 4);
            len = at + 4;
        }
        uint32_t crc = (uint32_t)crc32(crc32(0, NULL, 0), b, (uInt)(len - 4));
        memcpy(b + len - 4, &crc, 4);
        f = fopen(file, "wb");
        ENSURE(f && fwrite(b, 1, (size_t)len, f) == (size_t)len && fclose(f) == 0);
        sim_free(&c);
        coupled_sim(&c, 1, 0, 10);
        err[0] = 0;
        int r = checkpoint_read(file, &c, &frame, input, sizeof input, NULL, err, sizeof err);
        if (k < 4) ENSURE_MSG(r == -1 && strstr(err, cases[k].want), "case %d: %d \"%s\"", k, r, err);
        else ENSURE_MSG(r == 0 && chem_held_forces(&c.chem) == 0, "without the section: %d \"%s\", %d held", r, err,
                        chem_held_forces(&c.chem));
    }
    free(good); free(b);
    unlink(file);
    rmdir(path);
    sim_free(&a); sim_free(&c);
    omp_set_num_threads(threads);
}

/* Cell types' own mechanical parameters (P_TYPE_<name>): a polygon of type 1 gets the forces of
 * its type's ka and gamma, bit for bit, and its type's growth rate; a model whose types all have
 * the header's values runs the same bits as one without them. */
void test_chem_type_parameters(void)
{
    Params P = params_compiled;
    P.alpha_CV = 0;
    static const double ka[2] = { 1e5, 3e5 }, gamma[2] = { 1e3, 2e2 }, alpha[2] = { 1.0, 0.25 };
    static const double same_ka[2] = { 1e5, 1e5 }, same_gamma[2] = { 1e3, 1e3 };
    ChemModel m = { .ntypes = 2 };
    m.type_value[CHEM_TYPE_ka] = ka;
    m.type_value[CHEM_TYPE_gamma] = gamma;
    m.type_value[CHEM_TYPE_alpha_mu] = alpha;
    static Sim s;
    sim_init(&s, &P, 1);
    ENSURE_MSG(sim_chemistry(&s, &m) == 0, "%s", s.error);
    fx_add_ngon(&s.e, 40, 1.0, 0, 0, 0);
    fx_add_ngon(&s.e, 40, 1.0, 3, 0, 0.2);
    s.e.type[1] = 1;
    for (int p = 0; p < 2; p++) s.e.A0[p] = 2.5;   /* (compressed: the area term matters) */
    sim_draw_traits(&s);
    ENSURE(s.e.alpha[0] == 1.0 && s.e.alpha[1] == 0.25);
    forces_update_geometry(&s.e);
    double U1 = forces_polygon(&s.e, &s.P, 1, NULL);
    double fx1[40], fy1[40];
    memcpy(fx1, s.e.fx + s.e.start[1], sizeof fx1);
    memcpy(fy1, s.e.fy + s.e.start[1], sizeof fy1);
    Params own = P;
    own.ka = 3e5; own.gamma = 2e2;
    s.e.type_params = NULL;   /* (the same polygon with its type's values given directly) */
    double U2 = forces_polygon(&s.e, &own, 1, NULL);
    ENSURE(U1 == U2);
    ENSURE(!memcmp(fx1, s.e.fx + s.e.start[1], sizeof fx1) && !memcmp(fy1, s.e.fy + s.e.start[1], sizeof fy1));
    sim_free(&s);

    /* equal values: the same run as without */
    static Sim a, b;
    ChemModel equal = { .ntypes = 2 };
    equal.type_value[CHEM_TYPE_ka] = same_ka;
    equal.type_value[CHEM_TYPE_gamma] = same_gamma;
    int threads = omp_get_max_threads();
    omp_set_num_threads(1);
    sim_init(&a, &params_compiled, 1);
    sim_init(&b, &params_compiled, 1);
    ENSURE(sim_chemistry(&b, &equal) == 0);
    ENSURE(sim_load_input(&a, "inputs/ensemble.off", NULL) == 0 && sim_load_input(&b, "inputs/ensemble.off", NULL) == 0);
    b.e.type[0] = 1;   /* (a cell of the other type, with the same values: its daughters too) */
    for (int k = 0; k < 3000; k++) ENSURE(sim_step(&a) == 0 && sim_step(&b) == 0);
    ENSURE(a.e.np == 2 && fx_state_hash(&a.e) == fx_state_hash(&b.e));
    sim_free(&a);
    sim_free(&b);
    omp_set_num_threads(threads);
}

/* The adhesion matrix (P_TYPE_kh): two square cells h + sh/2 apart adhere with the kh of their
 * types' pair (the force on the middle vertex of a facing side scales with it, and the pair law
 * with that kh is the derivative of its energy, checked by central differences); an asymmetric matrix, or an entry above kh (which sets the reach), is
 * refused at start. */
void test_chem_adhesion_matrix(void)
{
    Params P = fx_params_zero();
    P.kr = 1e6; P.kh = 1e5; P.sh = P.ss = 0.01;
    static const double kh[4] = { 1e5, 2e4, 2e4, 5e4 };
    ChemModel m = { .ntypes = 2, .type_kh = kh };
    static Sim s;
    sim_init(&s, &P, 1);
    ENSURE_MSG(sim_chemistry(&s, &m) == 0, "%s", s.error);
    double x[8] = { 0, 0.5, 1, 1, 1, 0.5, 0, 0 }, y[8] = { 0, 0, 0, 0.5, 1, 1, 1, 0.5 }, x2[8], gap = P.h + 0.5 * P.sh;
    for (int k = 0; k < 8; k++) x2[k] = x[k] + 1 + gap;
    ensemble_add_polygon(&s.e, 8, x, y, 1, 0);
    ensemble_add_polygon(&s.e, 8, x2, y, 1, 0);
    sim_draw_traits(&s);   /* (binds the matrix) */
    double f[3];
    for (int pair = 0; pair < 3; pair++) {   /* types (0, 0), (0, 1), (1, 1) */
        s.e.type[0] = pair == 2;
        s.e.type[1] = pair > 0;
        for (int i = 0; i < 16; i++) s.e.fx[i] = s.e.fy[i] = 0;
        double U;
        contact_forces(&s.contact, &s.e, &s.P, forces_update_geometry(&s.e), &U);
        f[pair] = s.e.fx[3];   /* (vertex 3 of the left square, at (1, 0.5), pulled towards the right one) */
        /* the pair law with this kh: its force is minus the derivative of its energy */
        double k = kh[pair == 0 ? 0 : pair == 1 ? 1 : 3];
        for (double t = -0.004; t < 0.03; t += 0.0007) {
            double d = 1e-7, g = (pair_u_kh(&s.P, k, t + d, 0) - pair_u_kh(&s.P, k, t - d, 0)) / (2 * d);
            ENSURE_MSG(fabs(g - pair_du_kh(&s.P, k, t, 0)) < 1e-3 * (1 + fabs(g)), "s = %g, kh = %g", t, k);
        }
    }
    fprintf(stderr, "  force on the middle vertex: %.6g, %.6g, %.6g for kh %g, %g, %g\n", f[0], f[1], f[2], kh[0], kh[1], kh[3]);
    ENSURE(f[0] > 0);
    ENSURE_CLOSE(f[1] / f[0], kh[1] / kh[0], 1e-12);
    ENSURE_CLOSE(f[2] / f[0], kh[3] / kh[0], 1e-12);
    sim_free(&s);
    static const double asym[4] = { 1e5, 2e4, 3e4, 5e4 }, above[4] = { 2e5, 0, 0, 1e5 };
    sim_init(&s, &P, 1);
    m.type_kh = asym;
    ENSURE(sim_chemistry(&s, &m) == -1 && strstr(s.error, "kh[0][1] = 20000"));
    m.type_kh = above;
    ENSURE(sim_chemistry(&s, &m) == -1 && strstr(s.error, "at most kh = 100000"));
    sim_free(&s);
}

/* Per-type viscous damping (P_TYPE_cv): two free 40-gons at rest shape, of types 0 and 1, all
 * vertices moving at (1, 0.5). Their internal forces sum to zero, so each one's mean velocity
 * decays by (1 - cv dt) per step with its own type's cv: after 2,000 steps (1 - 10 dt)^2000 =
 * 0.135 and (1 - 2.5 dt)^2000 = 0.607 of the start. The type's cv is also the one of its noise
 * and self-propulsion (fluctuation-dissipation, docs/model.md 3.1): with D and v0 on, a type-1
 * polygon's forces are bit for bit those of the header with cv = 2.5. A type whose cv dt passes
 * 2 is named by the stability warning. */
void test_chem_type_damping(void)
{
    Params P = params_compiled;
    P.alpha_mu = P.alpha_CV = 0;
    P.Amax_mu = INFINITY;
    static const double cv[2] = { 10, 2.5 };
    ChemModel m = { .ntypes = 2 };
    m.type_value[CHEM_TYPE_cv] = cv;
    static Sim s;
    sim_init(&s, &P, 1);
    ENSURE_MSG(sim_chemistry(&s, &m) == 0, "%s", s.error);
    fx_add_ngon(&s.e, 40, 0.5, 0, 0, 0);
    fx_add_ngon(&s.e, 40, 0.5, 3, 0, 0.1);
    s.e.type[1] = 1;
    sim_draw_traits(&s);
    for (int i = 0; i < s.e.nv_used; i++) { s.e.vx[i] = 1; s.e.vy[i] = 0.5; }
    int steps = 2000;
    for (int k = 0; k < steps; k++) ENSURE_MSG(sim_step(&s) == 0, "%s", s.error);
    for (int p = 0; p < 2; p++) {
        double vx = 0, vy = 0, want = pow(1 - cv[p] * P.dt, steps);
        for (int i = s.e.start[p]; i < s.e.start[p] + s.e.count[p]; i++) { vx += s.e.vx[i] / s.e.count[p]; vy += s.e.vy[i] / s.e.count[p]; }
        fprintf(stderr, "  type %d (cv %g): mean velocity (%.9f, %.9f), (1 - cv dt)^%d = %.9f\n", p, cv[p], vx, vy, steps, want);
        ENSURE_CLOSE(vx, want, 1e-9);
        ENSURE_CLOSE(vy, 0.5 * want, 1e-9);
    }
    sim_free(&s);

    /* noise and self-propulsion with the type's cv */
    P.D = 0.01; P.v0 = 0.3;
    sim_init(&s, &P, 1);
    ENSURE_MSG(sim_chemistry(&s, &m) == 0, "%s", s.error);
    fx_add_ngon(&s.e, 40, 0.5, 0, 0, 0);
    fx_add_ngon(&s.e, 40, 0.5, 3, 0, 0.1);
    s.e.type[1] = 1;
    sim_draw_traits(&s);
    for (int i = 0; i < s.e.nv_used; i++) { s.e.vx[i] = 1; s.e.vy[i] = 0.5; }
    forces_update_geometry(&s.e);
    forces_polygon(&s.e, &s.P, 1, NULL);
    double fx1[40], fy1[40], fx2[40];
    memcpy(fx1, s.e.fx + s.e.start[1], sizeof fx1);
    memcpy(fy1, s.e.fy + s.e.start[1], sizeof fy1);
    Params own = P;
    own.cv = cv[1];
    s.e.type_params = NULL;
    forces_polygon(&s.e, &own, 1, NULL);
    ENSURE(!memcmp(fx1, s.e.fx + s.e.start[1], sizeof fx1) && !memcmp(fy1, s.e.fy + s.e.start[1], sizeof fy1));
    memcpy(fx2, s.e.fx + s.e.start[1], sizeof fx2);
    forces_polygon(&s.e, &P, 1, NULL);   /* (the header's cv = 10 gives other forces) */
    ENSURE(memcmp(fx2, s.e.fx + s.e.start[1], sizeof fx2) != 0);
    sim_free(&s);

    /* the stability warning names the type whose damping is too strong for dt */
    static const double stiff[2] = { 10, 3e4 };   /* (cv dt = 3 > 2) */
    m.type_value[CHEM_TYPE_cv] = stiff;
    P.D = P.v0 = 0;
    sim_init(&s, &P, 1);
    ENSURE_MSG(sim_chemistry(&s, &m) == 0, "%s", s.error);
    fx_add_ngon(&s.e, 40, 0.5, 0, 0, 0);
    const char *what;
    int type;
    double dt_max = sim_stable_dt(&s, &what, &type);
    ENSURE_MSG(type == 1 && strstr(what, "viscous damping") && fabs(dt_max - 2 / 3e4) < 1e-15, "type %d, %s, %g", type, what, dt_max);
    char buf[512];
    FILE *f = fmemopen(buf, sizeof buf, "w");
    ENSURE(sim_warn_dt(f, &s) == 1);
    fclose(f);
    ENSURE_MSG(strstr(buf, "(cell type 1: viscous damping cv"), "%s", buf);
    sim_free(&s);
}

/* The friction matrix (P_TYPE_mu): two squares overlapping by h/2, the left one sliding up
 * along the right one; the force on the middle vertex of its facing side is, bit for bit, the
 * one of the header's single mu set to the entry of their types' pair, for each pair (0, 0),
 * (0, 1), (1, 0), (1, 1); its tangential part (friction: down, against the sliding) scales with
 * that entry. A negative or asymmetric matrix is refused at start. */
void test_chem_friction_matrix(void)
{
    Params P = fx_params_zero();
    P.kr = 1e6; P.cc = 30;
    static const double mu[4] = { 0.2, 0.5, 0.5, 0.8 };
    ChemModel m = { .ntypes = 2, .type_mu = mu };
    static Sim s;
    sim_init(&s, &P, 1);
    ENSURE_MSG(sim_chemistry(&s, &m) == 0, "%s", s.error);
    double x[8] = { 0, 0.5, 1, 1, 1, 0.5, 0, 0 }, y[8] = { 0, 0, 0, 0.5, 1, 1, 1, 0.5 }, x2[8], gap = 0.5 * P.h;
    for (int k = 0; k < 8; k++) x2[k] = x[k] + 1 + gap;
    ensemble_add_polygon(&s.e, 8, x, y, 1, 0);
    ensemble_add_polygon(&s.e, 8, x2, y, 1, 0);
    for (int i = 0; i < 8; i++) s.e.vy[i] = 0.3;   /* (the left square slides up) */
    sim_draw_traits(&s);   /* (binds the matrix) */
    double ft[4];
    for (int pair = 0; pair < 4; pair++) {
        s.e.type[0] = pair >> 1;
        s.e.type[1] = pair & 1;
        double fx[16], fy[16], U;
        s.e.type_mu = mu;
        s.P.mu = 0;
        for (int i = 0; i < 16; i++) s.e.fx[i] = s.e.fy[i] = 0;
        contact_forces(&s.contact, &s.e, &s.P, forces_update_geometry(&s.e), &U);
        memcpy(fx, s.e.fx, sizeof fx);
        memcpy(fy, s.e.fy, sizeof fy);
        s.e.type_mu = NULL;   /* (the header's mu, set to the pair's entry) */
        s.P.mu = mu[pair];
        for (int i = 0; i < 16; i++) s.e.fx[i] = s.e.fy[i] = 0;
        contact_forces(&s.contact, &s.e, &s.P, forces_update_geometry(&s.e), &U);
        ENSURE_MSG(!memcmp(fx, s.e.fx, sizeof fx) && !memcmp(fy, s.e.fy, sizeof fy), "types %d, %d", pair >> 1, pair & 1);
        ft[pair] = fy[3];   /* (vertex 3 of the left square, at (1, 0.5)) */
    }
    fprintf(stderr, "  friction on the middle vertex: %.6g, %.6g, %.6g, %.6g for mu %g, %g, %g, %g\n", ft[0], ft[1], ft[2], ft[3],
            mu[0], mu[1], mu[2], mu[3]);
    ENSURE(ft[0] < 0);
    for (int pair = 1; pair < 4; pair++) ENSURE_CLOSE(ft[pair] / ft[0], mu[pair] / mu[0], 1e-12);
    sim_free(&s);
    static const double asym[4] = { 0.2, 0.5, 0.4, 0.8 }, neg[4] = { -0.1, 0, 0, 0.3 };
    sim_init(&s, &P, 1);
    m.type_mu = asym;
    ENSURE(sim_chemistry(&s, &m) == -1 && strstr(s.error, "friction matrix's mu[0][1] = 0.5") && strstr(s.error, "mu[1][0] = 0.4"));
    m.type_mu = neg;
    ENSURE_MSG(sim_chemistry(&s, &m) == -1 && strstr(s.error, "mu[0][0] = -0.1 must be >= 0"), "%s", s.error);
    sim_free(&s);
}
/* ---- advection-dilution (docs/model.md 11) ---- */

/* One step of a field carried by polygons whose vertex velocities the test sets: the cover, the
 * motion's faces and sub-steps, the advance by dt. */
static void carried_step(Chem *ch, Ensemble *e, double dt)
{
    char err[1024];
    forces_update_geometry(e);
    ENSURE(chem_respond(ch, e) == 0);
    ENSURE_MSG(chem_transport(ch, e, dt, err, sizeof err) == 0, "%s", err);
    chem_advance(ch, dt);
}

/* the amount, centroid and variances of species 0 over the nodes (plain sums) */
static void moments(const Chem *ch, double *mass, double *mx, double *my, double *vx, double *vy)
{
    double m = 0, sx = 0, sy = 0, sxx = 0, syy = 0;
    for (int j = 0; j < ch->ny; j++)
        for (int i = 0; i < ch->nx; i++) {
            double c = ch->c[(size_t)j * ch->nx + i], x = ch->m.x0 + i * ch->m.dx, y = ch->m.y0 + j * ch->m.dx;
            m += c, sx += c * x, sy += c * y, sxx += c * x * x, syy += c * y * y;
        }
    *mass = m, *mx = sx / m, *my = sy / m;
    *vx = sxx / m - *mx * *mx, *vy = syy / m - *my * *my;
}

/* A blob of concentration (a Gaussian of width 0.2) inside a cell of radius 2.5 that translates at
 * V = (2, 1), with no diffusion, moves with the cell. Upwind transport at Courant numbers
 * nu = V h / dx (per sub-step h) moves the matter of a node one node downstream with probability
 * nu per sub-step, so the blob's centroid moves at exactly V and its variance grows by
 * dx^2 nu (1 - nu) per sub-step: by t V dx (1 - nu) in time t (the scheme's numerical diffusion
 * V dx (1 - nu) / 2), as long as its matter stays inside the cell. dx = 0.05, dt = 0.02 (two
 * sub-steps: nu = 0.4 in x, 0.2 in y), t = 2: the centroid must follow the cell's within 1e-6 (the
 * matter 5 widths out, at the membrane, is below that), the variances grow by 0.12 and 0.08
 * within 1 %, and the amount is kept to round-off. */
void test_chem_advect_translation(void)
{
    ChemModel m = model(0, 0, -3.5, -3.5, 7.5, 5, 0.05);
    m.sp[0].advect = 1;
    Chem ch;
    char err[512];
    ENSURE_MSG(chem_init(&ch, &m, 0.02, err, sizeof err) == 0, "%s", err);
    Ensemble e;
    ensemble_init(&e, 1);
    fx_add_ngon(&e, 96, 2.5, 0, 0, 0.1);
    const double V[2] = { 2, 1 }, dt = 0.02, s2 = 0.04;
    for (int i = 0; i < 96; i++) e.vx[i] = V[0], e.vy[i] = V[1];
    for (int j = 0; j < ch.ny; j++)
        for (int i = 0; i < ch.nx; i++) {
            double x = -3.5 + i * 0.05 - 0.1, y = -3.5 + j * 0.05 + 0.05;
            *node(&ch, 0, i, j) = exp(-(x * x + y * y) / (2 * s2));
        }
    double m0, x0, y0, vx0, vy0, m1, x1, y1, vx1, vy1;
    moments(&ch, &m0, &x0, &y0, &vx0, &vy0);
    Vec2 g0 = geom_centroid(e.x, e.y, 96);
    int omp = omp_get_max_threads();
    omp_set_num_threads(1);
    for (int n = 0; n < 100; n++) {
        carried_step(&ch, &e, dt);
        ENSURE(ch.nstep == 2);
        for (int i = 0; i < 96; i++) e.x[i] += V[0] * dt, e.y[i] += V[1] * dt;
    }
    omp_set_num_threads(omp);
    moments(&ch, &m1, &x1, &y1, &vx1, &vy1);
    Vec2 g1 = geom_centroid(e.x, e.y, 96);
    double t = 2, h = dt / 2, px = t * V[0] * 0.05 * (1 - V[0] * h / 0.05), py = t * V[1] * 0.05 * (1 - V[1] * h / 0.05);
    fprintf(stderr, "  blob moved by (%.9f, %.9f), the cell by (%.9f, %.9f); variances grew by %.6f and %.6f, predicted "
            "%.6f and %.6f (relative differences %.2g, %.2g)\n", x1 - x0, y1 - y0, g1.x - g0.x, g1.y - g0.y, vx1 - vx0, vy1 - vy0,
            px, py, (vx1 - vx0) / px - 1, (vy1 - vy0) / py - 1);
    ENSURE_SMALL((x1 - x0) - (g1.x - g0.x), 1e-6);
    ENSURE_SMALL((y1 - y0) - (g1.y - g0.y), 1e-6);
    ENSURE_SMALL(g1.x - g0.x - 4, 1e-9);
    ENSURE_CLOSE(vx1 - vx0, px, 0.01 * px);
    ENSURE_CLOSE(vy1 - vy0, py, 0.01 * py);
    ENSURE_SMALL((m1 - m0) / m0, 1e-13);
    ensemble_free(&e);
    chem_free(&ch);
}

/* The velocity (vx, vy) at (x, y) of a cell centred at (cx, cy) that grows at the relative area
 * rate g (dilation g / 2 in each direction) and rotates at angular velocity w. */
static void grow_spin(double g, double w, double cx, double cy, double x, double y, double *vx, double *vy)
{
    *vx = 0.5 * g * (x - cx) - w * (y - cy);
    *vy = 0.5 * g * (y - cy) + w * (x - cx);
}

/* Dilution: a cell whose area grows as A(t) = A(0) e^(g t) (its vertices moving with the field
 * (g / 2) (x - c)), with matter of concentration 1 on its nodes and none outside, no diffusion.
 * The polygon's affine field has divergence g, so a node whose upwind neighbours share its value
 * falls by the factor (1 - g h) per sub-step h, which is A(0)/A(t) = e^(-g t) to within explicit
 * Euler's g^2 h t / 2 (0.0025 for g = 0.5, h = 0.01, t = 2). The edge of the matter moves with the
 * membrane and is smeared by the scheme's numerical diffusion |u| dx / 2, over a width
 * sqrt(|u| dx t) = 0.2 (|u| <= g r / 2 = 0.41 at the membrane, r = 1.65 at t = 2): the nodes more
 * than 4 such widths (0.8) inside the membrane must hold (1 - g h)^n to 1e-12, and A(0)/A(t)
 * within 0.003. The matter is not lost but spread over the area gained: the amount is kept to
 * round-off, and the mean the cell senses (over the nodes it covers, the smeared rim included)
 * is A(0)/A(t) within 5 %. */
void test_chem_advect_dilution(void)
{
    ChemModel m = model(0, 0, -2.5, -2.5, 2.5, 2.5, 0.05);
    m.sp[0].advect = 1;
    Chem ch;
    char err[512];
    const double g = 0.5, dt = 0.01, cx = 0.13, cy = -0.07, r0 = 1;
    ENSURE_MSG(chem_init(&ch, &m, dt, err, sizeof err) == 0, "%s", err);
    Ensemble e;
    ensemble_init(&e, 1);
    fx_add_ngon(&e, 96, r0, cx, cy, 0.05);
    double X0[96], Y0[96];
    memcpy(X0, e.x, sizeof X0);
    memcpy(Y0, e.y, sizeof Y0);
    forces_update_geometry(&e);
    ENSURE(chem_respond(&ch, &e) == 0);
    for (size_t k = 0; k < (size_t)ch.nx * ch.ny; k++) ch.c[k] = ch.owner[k] >= 0;
    double before = chem_amount(&ch, 0), expect = 1;
    int omp = omp_get_max_threads();
    omp_set_num_threads(1);
    for (int n = 0; n < 200; n++) {
        double f = exp(0.5 * g * n * dt);   /* (the radius's factor at this step's start) */
        for (int i = 0; i < 96; i++) {
            e.x[i] = cx + f * (X0[i] - cx), e.y[i] = cy + f * (Y0[i] - cy);
            grow_spin(g, 0, cx, cy, e.x[i], e.y[i], &e.vx[i], &e.vy[i]);
        }
        carried_step(&ch, &e, dt);
        for (int k = 0; k < ch.nstep; k++) expect *= 1 - g * dt / ch.nstep;
    }
    omp_set_num_threads(omp);
    double shrink = exp(-g * 200 * dt), r = r0 / sqrt(shrink), exact = 0, diluted = 0, sensed = 0;
    int inner = 0, covered = 0;
    for (int j = 0; j < ch.ny; j++)
        for (int i = 0; i < ch.nx; i++) {
            double c = *node(&ch, 0, i, j), d = hypot(-2.5 + i * 0.05 - cx, -2.5 + j * 0.05 - cy);
            if (d < r - 0.8) {
                exact = fmax(exact, fabs(c / expect - 1));
                diluted = fmax(diluted, fabs(c / shrink - 1));
                inner++;
            }
            if (d < r) sensed += c, covered++;
        }
    sensed /= covered;
    double after = chem_amount(&ch, 0);
    fprintf(stderr, "  A(0)/A(t) = %.6f; %d inner nodes hold (1 - g h)^n = %.6f within %.2g, A(0)/A(t) within %.4f; "
            "the mean over the cell %.6f; amount %.17g -> %.17g\n", shrink, inner, expect, exact, diluted, sensed, before, after);
    ENSURE(inner > 800);
    ENSURE_SMALL(exact, 1e-12);
    ENSURE_SMALL(diluted, 0.003);
    ENSURE_SMALL(sensed / shrink - 1, 0.05);
    ENSURE_SMALL((after - before) / before, 1e-13);
    ensemble_free(&e);
    chem_free(&ch);
}

/* With zero flux on every side, no reaction or degradation, and diffusion that jumps at the
 * membranes (D_in = 0.05, D_out = 0.01), advection keeps the amount to round-off while cells
 * translate into a side, grow and spin, and (the sub-steps following the speed) every
 * concentration stays >= 0; the field differs from the one at rest. An advected species whose
 * cells all rest gives the same bits as one not advected. */
void test_chem_advect_conserves(void)
{
    Chem ch[3];
    char err[512];
    for (int run = 0; run < 3; run++) {   /* advected and moving; advected at rest; not advected at rest */
        ChemModel m = model(0.05, 0, -2, -1.5, 2, 1.5, 0.05);
        m.sp[0].D_out = 0.01;
        m.sp[0].advect = run < 2;
        ENSURE_MSG(chem_init(&ch[run], &m, 0.01, err, sizeof err) == 0, "%s", err);
        Ensemble e;
        ensemble_init(&e, 1);
        fx_add_ngon(&e, 48, 0.6, 1.0, 0.1, 0);     /* into the right side */
        fx_add_ngon(&e, 48, 0.5, -1.0, 0.2, 0);    /* growing and spinning */
        fx_add_ngon(&e, 32, 0.4, -0.2, -0.9, 0);   /* spinning the other way */
        uint64_t rng = 11;
        for (size_t k = 0; k < (size_t)ch[run].nx * ch[run].ny; k++) ch[run].c[k] = fx_uniform(&rng, 0, 1);
        double before = chem_amount(&ch[run], 0), low = INFINITY;
        int most = 0;
        for (int n = 0; n < 100; n++) {
            for (int p = 0; p < 3 && run == 0; p++) {
                Vec2 c = geom_centroid(e.x + e.start[p], e.y + e.start[p], e.count[p]);
                for (int i = e.start[p]; i < e.start[p] + e.count[p]; i++) {
                    if (p == 0) e.vx[i] = 1.5, e.vy[i] = 0.3;
                    else grow_spin(p == 1 ? 1.0 : 0, p == 1 ? 3.0 : -5.0, c.x, c.y, e.x[i], e.y[i], &e.vx[i], &e.vy[i]);
                }
            }
            carried_step(&ch[run], &e, 0.01);
            if (run == 0) most = ch[run].nstep > most ? ch[run].nstep : most;
            for (int i = 0; i < e.nv_used; i++) e.x[i] += e.vx[i] * 0.01, e.y[i] += e.vy[i] * 0.01;
            for (size_t k = 0; k < (size_t)ch[run].nx * ch[run].ny; k++) low = fmin(low, ch[run].c[k]);
        }
        double after = chem_amount(&ch[run], 0);
        fprintf(stderr, "  run %d: amount %.17g -> %.17g (relative change %.2g), least c %.3g, at most %d sub-steps\n",
                run, before, after, fabs(after - before) / before, low, most > 0 ? most : ch[run].nsub);
        ENSURE_SMALL((after - before) / before, 1e-13);
        ENSURE(low >= 0);
        if (run == 0) ENSURE(most > ch[run].nsub);   /* (the motion, not diffusion, set the sub-steps) */
        ensemble_free(&e);
    }
    size_t n = (size_t)ch[0].nx * ch[0].ny;
    double differ = 0;
    for (size_t k = 0; k < n; k++) differ = fmax(differ, fabs(ch[0].c[k] - ch[2].c[k]));
    ENSURE_MSG(differ > 0.01, "advection changed the field by at most %g", differ);
    ENSURE_MSG(!memcmp(ch[1].c, ch[2].c, n * sizeof *ch[1].c), "an advected species at rest is not the same as one not advected");
    for (int run = 0; run < 3; run++) chem_free(&ch[run]);
}

/* Cells faster than max_substeps sub-steps can follow are refused in the step (the motion is not
 * known at start), naming the speed, D, dx and dt, and that the motion limits it: a cell moving
 * at 64 along x, on dx = 1/16 with dt = 1/64, carries matter out of a node at 1024 per time
 * unit, so it needs 16 sub-steps (diffusion alone 1). */
void test_chem_advect_refuses_fast_cells(void)
{
    ChemModel m = model(0, 0, -2, -2, 2, 2, 0.0625);
    m.sp[0].advect = 1;
    m.max_substeps = 15;
    Chem ch;
    char err[1024];
    ENSURE_MSG(chem_init(&ch, &m, 0.015625, err, sizeof err) == 0, "%s", err);
    ENSURE(ch.nsub == 1);
    Ensemble e;
    ensemble_init(&e, 1);
    fx_add_ngon(&e, 32, 0.8, 0, 0, 0);
    for (int i = 0; i < 32; i++) e.vx[i] = 64, e.vy[i] = 0;
    forces_update_geometry(&e);
    ENSURE(chem_respond(&ch, &e) == 0);
    ENSURE(chem_transport(&ch, &e, 0.015625, err, sizeof err) == -1 && ch.too_fast);
    ENSURE_MSG(strstr(err, "species 0 (a) at speeds up to 64,") && strstr(err, "at rates up to 1024") && strstr(err, "D = 0 ") &&
               strstr(err, "dx = 0.0625") && strstr(err, "dt = 0.015625 takes 16 sub-steps, more than max_substeps = 15") &&
               strstr(err, "the motion is what limits it (diffusion alone takes 1)"), "%s", err);
    chem_free(&ch);
    m.every = 4;   /* (the same chemical step, 4 time steps: the message says which it is) */
    ENSURE_MSG(chem_init(&ch, &m, 0.015625 / 4, err, sizeof err) == 0, "%s", err);
    ENSURE(chem_respond(&ch, &e) == 0);
    ENSURE(chem_transport(&ch, &e, 0.015625, err, sizeof err) == -1);
    ENSURE_MSG(strstr(err, "so a chemical step of 0.015625 (chem_every = 4 time steps of 0.00390625) takes 16 sub-steps"), "%s", err);
    chem_free(&ch);
    m.every = 1;
    m.max_substeps = 16;
    ENSURE_MSG(chem_init(&ch, &m, 0.015625, err, sizeof err) == 0, "%s", err);
    ENSURE(chem_respond(&ch, &e) == 0);
    ENSURE_MSG(chem_transport(&ch, &e, 0.015625, err, sizeof err) == 0, "%s", err);
    ENSURE(ch.nstep == 16 && ch.moving && !ch.too_fast);
    chem_advance(&ch, 0.015625);
    ENSURE(!ch.moving);
    ensemble_free(&e);
    chem_free(&ch);
    /* in a simulation: the step fails with the time, and the likely cause names max_substeps */
    static Sim s;
    Params P = fx_params_zero();
    P.dt = 0.015625;
    m.max_substeps = 15;
    sim_init(&s, &P, 1);
    ENSURE_MSG(sim_chemistry(&s, &m) == 0, "%s", s.error);
    fx_add_ngon(&s.e, 32, 0.8, 0, 0, 0);
    for (int i = 0; i < 32; i++) s.e.vx[i] = 64;
    ENSURE(sim_step(&s) == -1);
    char cause[400];
    sim_likely_cause(&s, cause, sizeof cause);
    ENSURE_MSG(strstr(s.error, "chemistry at t = 0 (step 0): the cells carry species 0 (a) at speeds up to 64,"), "%s", s.error);
    ENSURE_MSG(strstr(cause, "max_substeps = 15") && strstr(cause, "raise P_chem_dx or P_chem_max_substeps, or lower dt"), "%s", cause);
    sim_free(&s);
}

/* The coupled run with the morphogen advected: the same bits at 1 and 2 threads (after 300
 * steps) and after a checkpoint at step 700 of 1500 (the motion is a function of the state at
 * each step's start), and not the bits of the run without advection. */
void test_chem_advect_threads_and_checkpoint(void)
{
    int threads = omp_get_max_threads();
    static Sim a, b, c, d;
    coupled_sim(&a, 1, 1, 1);
    coupled_sim(&b, 2, 1, 1);
    coupled_sim(&c, 1, 1, 1);
    coupled_sim(&d, 1, 0, 1);
    uint64_t early = 0;
    for (int k = 0; k < 1500; k++) {
        ENSURE_MSG(sim_step(&a) == 0, "%s", a.error);
        if (k == 299) early = fields_hash(&a);
    }
    for (int k = 0; k < 300; k++) ENSURE_MSG(sim_step(&d) == 0, "%s", d.error);
    omp_set_num_threads(2);
    for (int k = 0; k < 300; k++) ENSURE_MSG(sim_step(&b) == 0, "%s", b.error);
    omp_set_num_threads(1);
    ENSURE_MSG(early == fields_hash(&b), "1 and 2 threads differ");
    ENSURE_MSG(early != fields_hash(&d), "advection changed nothing");
    for (int k = 0; k < 700; k++) ENSURE(sim_step(&c) == 0);
    char path[] = "/tmp/ph_test_chem_XXXXXX", file[64], err[512], input[64];
    int frame;
    through_checkpoint(&c, 1, 1, path, file, sizeof file);
    for (int k = 0; k < 800; k++) ENSURE(sim_step(&c) == 0);
    ENSURE_MSG(fields_hash(&a) == fields_hash(&c), "the run continued from its checkpoint differs");
    /* a build without advection refuses the checkpoint */
    sim_free(&d);
    coupled_sim(&d, 1, 0, 1);
    ENSURE(checkpoint_read(file, &d, &frame, input, sizeof input, NULL, err, sizeof err) == -1);
    ENSURE_MSG(strstr(err, "other cell types or species settings"), "%s", err);
    unlink(file);
    rmdir(path);
    sim_free(&a); sim_free(&b); sim_free(&c); sim_free(&d);
    omp_set_num_threads(threads);
}
