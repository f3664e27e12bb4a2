/* A simulation with chemistry (docs/model.md 11): the response rule's types, growth rates and
 * forces, the same at any thread count and after a checkpoint; the cell types' parameters,
 * adhesion, damping and friction matrices. */
#define _POSIX_C_SOURCE 200809L   /* (mkdtemp) */
#include "chem_fixtures.h"
#include "forces.h"
#include "geometry.h"
#include "pair.h"
#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

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
     * passages, the build's section (304 bytes) and the CRC-32 */
    FILE *f = fopen(file, "rb");
    ENSURE(f && fseek(f, 0, SEEK_END) == 0);
    long n = ftell(f), at = n - 4 - 304 - 8 - 24L * np - 4;
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

/* A response rule that gives a result out of range stops the step, which names the polygon (the
 * first of them, at any thread count: index, id, type), what the rule gave and the range; the
 * likely cause is the header's rule, and the exit status 2 (bad input), not a blow-up's 3. */
static void wrong_type(const ChemCell *cell, ChemAct *act) { if (cell->p == 4) act->type = 5; }
static void nan_growth(const ChemCell *cell, ChemAct *act) { if (cell->p >= 2) act->alpha = NAN; }
static void infinite_force(const ChemCell *cell, ChemAct *act) { if (cell->p == 7) act->fx = -INFINITY; }

void test_chem_response_out_of_range(void)
{
    void (*const rule[3])(const ChemCell *, ChemAct *) = { wrong_type, nan_growth, infinite_force };
    const char *const want[3] = {
        "at t = 0 (step 0), the response rule gave polygon 4 (id 4, cell type 0) the cell type 5, outside the types 0 .. 1 "
        "(ntypes = 2)",
        "at t = 0 (step 0), the response rule gave polygon 2 (id 2, cell type 0) the growth rate alpha = nan, which must be finite",
        "at t = 0 (step 0), the response rule gave polygon 7 (id 7, cell type 0) the force (fx, fy) = (-inf, 0) on each vertex, "
        "which must be finite" };
    for (int k = 0; k < 3; k++)
        for (int threads = 1; threads <= 2; threads++) {
            static Sim s;
            coupled_sim(&s, threads, 0, 1);
            s.chem.m.response = rule[k];
            ENSURE(sim_step(&s) == -1);
            ENSURE_MSG(!strcmp(s.error, want[k]), "%d threads: %s", threads, s.error);
            char cause[512];
            sim_likely_cause(&s, cause, sizeof cause);
            ENSURE_MSG(strstr(cause, "the header's response rule (P_CHEM_RESPONSE of params/default.h), which must give every "
                                     "polygon a cell type in 0 .. 1 and a finite growth rate and force"), "%s", cause);
            ENSURE(sim_failure_status(&s) == PH_EXIT_USAGE);
            sim_free(&s);
        }
    omp_set_num_threads(1);
}

/* the movable cells of s with a vertex outside [-3, 3]^2 (the coupled run's grid), counted by hand,
 * and their vertices outside in *nv */
static int cells_outside(const Sim *s, int *nv)
{
    int n = 0;
    *nv = 0;
    for (int p = 0; p < s->e.np; p++) {
        int out = 0;
        for (int i = s->e.start[p]; i < s->e.start[p] + s->e.count[p]; i++)
            out += fabs(s->e.x[i]) > 3 || fabs(s->e.y[i]) > 3;
        n += out > 0 && !s->e.rigid[p];
        *nv += s->e.rigid[p] ? 0 : out;
    }
    return n;
}

/* moves polygon p of s by dx along x (the contact list made anew) */
static void shift(Sim *s, int p, double dx)
{
    for (int i = s->e.start[p]; i < s->e.start[p] + s->e.count[p]; i++) s->e.x[i] += dx;
    contact_invalidate(&s->contact);
}

/* The chemistry's grid and the tissue (the coupled run, grid [-3, 3]^2): cells reaching outside
 * at start are counted in a warning with the grid's rectangle (rigid ones not: they do not sense);
 * none outside, none. Cells that leave during the run (one moved out by hand, step by step, then
 * another) are warned of once, at the first chemical step with more outside than at start, with its
 * t, step and count; the same text and the same state, bit for bit, at 1 and 2 threads and with
 * the check left out. */
void test_chem_grid_outside_warned(void)
{
    static Sim s;
    char *text = NULL, want[512];
    size_t len = 0;
    coupled_sim(&s, 1, 0, 1);
    shift(&s, 2, 1.8);   /* (polygon 2, at (1, -1) of radius 0.45, to x = 3.25) */
    shift(&s, 0, -1.8);
    s.e.rigid[0] = 1;   /* (rigid: not counted) */
    int nv, n = cells_outside(&s, &nv);
    ENSURE(n == 1 && nv > 0);
    FILE *f = open_memstream(&text, &len);
    ENSURE(sim_warn_grid(f, &s) == 1);
    fclose(f);
    snprintf(want, sizeof want, "polyhoop: warning: 1 of 8 cells reach outside the chemistry's grid [-3, 3] x [-3, 3] (%d of their "
             "vertices; the grid: P_chem_x0 .. P_chem_y1 of params/default.h): a cell senses only the nodes it covers, and one "
             "that covers none the value at the grid's nearest edge\n", nv);
    ENSURE_MSG(!strcmp(text, want), "%s", text);
    free(text);
    sim_free(&s);
    char dir[] = "/tmp/ph_test_grid_XXXXXX", log[128], first[3][512];
    uint64_t hash[3];
    ENSURE(mkdtemp(dir));
    snprintf(log, sizeof log, "%s/err", dir);
    for (int run = 0; run < 3; run++) {   /* 1 thread, 2 threads, 1 thread without the check */
        coupled_sim(&s, run == 1 ? 2 : 1, 0, 1);
        f = open_memstream(&text, &len);
        ENSURE(sim_warn_grid(f, &s) == 0);
        fclose(f);
        ENSURE(len == 0);
        free(text);
        if (run == 2) s.grid_outside = -1;
        fflush(stderr);
        int saved = dup(2), fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        ENSURE(saved >= 0 && fd >= 0 && dup2(fd, 2) == 2);
        close(fd);
        int out = -1, out_nv = 0;
        double out_t = 0;
        for (int k = 0; k < 300; k++) {
            shift(&s, 8, 0.01);   /* (polygon 8, at (1, 1): out past x = 3 after 155 steps) */
            if (k >= 200) shift(&s, 5, 0.01);
            int v;
            if (out < 0 && cells_outside(&s, &v) > 0) out = (int)s.e.step, out_t = s.e.t, out_nv = v;
            if (sim_step(&s)) break;
        }
        fflush(stderr);
        dup2(saved, 2);
        close(saved);
        ENSURE_MSG(s.e.step == 300, "%s", s.error);
        ENSURE(out > 150 && out < 200);
        FILE *g = fopen(log, "r");
        ENSURE(g);
        int lines = 0;
        first[run][0] = 0;
        for (char line[512]; fgets(line, sizeof line, g); lines++) if (!lines) snprintf(first[run], sizeof first[run], "%s", line);
        fclose(g);
        snprintf(want, sizeof want, "polyhoop: warning: at t = %.6g (step %d), 1 cell reaches outside the chemistry's grid "
                 "[-3, 3] x [-3, 3] (%d of its vertices; 0 cells at the start): a cell senses only the nodes it covers, and one "
                 "that covers none the value at the grid's nearest edge (said once)\n", out_t, out, out_nv);
        ENSURE_MSG(lines == (run < 2), "run %d: %d lines, the first: %s", run, lines, first[run]);
        ENSURE_MSG(run == 2 || !strcmp(first[run], want), "run %d:\n%s, not\n%s", run, first[run], want);
        hash[run] = fields_hash(&s);
        sim_free(&s);
    }
    omp_set_num_threads(1);
    ENSURE(hash[0] == hash[1] && hash[0] == hash[2]);
    remove(log);
    ENSURE(rmdir(dir) == 0);
}
