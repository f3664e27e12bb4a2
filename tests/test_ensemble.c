/* Tests of src/ensemble.c: the per-polygon lists (ENSEMBLE_POLYGON_FIELDS) and their users agree.
 * Every polygon datum moves with its polygon when others are removed, and survives a checkpoint
 * (the stored ones as written, the derived ones rebuilt from the vertices). */
#define _POSIX_C_SOURCE 200809L
#include "bands.h"
#include "checkpoint.h"
#include "fixtures.h"
#include "geometry.h"
#include "harness.h"
#include "sim.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <omp.h>

/* the fields that describe the vertices (slots, count, area, perimeter): set by the ensemble */
static int shape(const char *name)
{
    return !strcmp(name, "start") || !strcmp(name, "count") || !strcmp(name, "A") || !strcmp(name, "L");
}

/* np polygons of different sizes, every other field of polygon p set to a value of its own */
static void polygons(Ensemble *e, int np)
{
    for (int p = 0; p < np; p++) fx_add_ngon(e, 6 + p, 1 + 0.1 * p, 3.0 * p, 0, 0.1 * p);
    for (int p = 0; p < np; p++) {
        int k = 0;
#define SET(type, name, file_type, init) k++; if (!shape(#name)) e->name[p] = (type)(10 * k + p + 1);
        ENSEMBLE_POLYGON_FIELDS(SET)
#undef SET
    }
}

/* every field of polygon p of a equals that of polygon q of b, bit for bit */
static void ensure_same(const Ensemble *a, int p, const Ensemble *b, int q, const char *after)
{
#define SAME(type, name, file_type, init) \
    ENSURE_MSG(!memcmp(&a->name[p], &b->name[q], sizeof a->name[p]), "%s: field %s of polygon %d differs", after, #name, p);
    ENSEMBLE_POLYGON_FIELDS(SAME)
#undef SAME
}

/* Removing polygons 0 and 2 of 5 moves 1, 3, 4 to 0, 1, 2 with every field. */
void test_ensemble_keep_moves_every_field(void)
{
    Ensemble e, before;
    ensemble_init(&e, 1);
    ensemble_init(&before, 1);
    polygons(&e, 5);
    polygons(&before, 5);
    ensemble_keep(&e, (const unsigned char[]){ 0, 1, 0, 1, 1 });
    ENSURE(e.np == 3);
    ensure_same(&before, 1, &e, 0, "keep");
    ensure_same(&before, 3, &e, 1, "keep");
    ensure_same(&before, 4, &e, 2, "keep");
    char msg[256];
    ENSURE_MSG(ensemble_validate(&e, msg, sizeof msg) == 0, "%s", msg);
    ensemble_free(&e);
    ensemble_free(&before);
}

/* Every field of every polygon reads back from a checkpoint bit for bit. */
void test_ensemble_checkpoint_keeps_every_field(void)
{
    static Sim s, r;
    sim_init(&s, &params_compiled, 1);
    sim_init(&r, &params_compiled, 1);
    polygons(&s.e, 4);
    /* values of their own that a checkpoint accepts: ids below next_id, parents below their child,
     * births before t, phase +-1, rigid 0 or 1 (the rigid ones with the ids below Nr), attracted 0
     * or 1 (movable ones, with att_n > 0), division areas a draw can give (Amax_CV 1 allows 41 to
     * 44), types 0 and 1 of a two-type build, polarities that rotational diffusion reaches (Dr >
     * 0), hazards of movable ones only (k_div, k_death > 0), a death hazard below any threshold */
    static const ChemModel two_types = { .ntypes = 2 };
    ENSURE(sim_chemistry(&s, &two_types) == 0 && sim_chemistry(&r, &two_types) == 0);
    s.e.step = 1000 * s.P.Ns;
    s.e.t = (double)s.e.step * s.P.dt;
    s.e.next_id = 1000;
    s.P.Nr = 2; s.P.att_n = 1; s.P.Amax_CV = 1; s.P.Dr = 1; s.P.k_div = 1; s.P.k_death = 1;
    for (int p = 0; p < 4; p++) {
        if (p % 2) s.e.h_div[p] = s.e.h_death[p] = 0;
        else s.e.h_death[p] = 1.5 + p;
        s.e.rigid[p] = (unsigned char)(p % 2);
        s.e.id[p] = p % 2 ? p / 2 : s.e.id[p];
        s.e.parent[p] = p % 2 ? -1 : s.e.id[p] - 10; s.e.phase[p] = p % 2 ? -1 : 1;
        s.e.attracted[p] = (unsigned char)(p == 2);
        s.e.type[p] = p % 2;
    }
    char dir[] = "/tmp/ph_test_ensemble_XXXXXX", path[96], err[512] = "", input[64];
    ENSURE(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/checkpoint.bin", dir);
    ENSURE_MSG(checkpoint_write(path, &s, 1000, "in.off", NULL, err, sizeof err) == 0, "%s", err);
    int frame;
    int ok = checkpoint_read(path, &r, &frame, input, sizeof input, NULL, err, sizeof err) == 0;
    remove(path);
    rmdir(dir);
    ENSURE_MSG(ok, "%s", err);
    ENSURE(r.e.np == 4);
    for (int p = 0; p < 4; p++) ensure_same(&s.e, p, &r.e, p, "checkpoint");
    sim_free(&s);
    sim_free(&r);
}

/* Thread bands (bands.h): in a team of the size they were made for, every polygon is worked on by
 * exactly one thread, the bands are horizontal slices in thread order holding about equal vertex
 * counts, and the strips split into consecutive ranges; in a team of another size, or after a
 * polygon was added, every thread falls back to its block of indices, which also covers all. */
static void bands_check(Ensemble *e, int team, int expect_bands)
{
    int *owner = malloc((size_t)e->np * sizeof *owner), s0[8], s1[8];
    long verts[8] = { 0 };
    for (int p = 0; p < e->np; p++) owner[p] = -1;
    int twice = 0, used_bands = 0;
    #pragma omp parallel num_threads(team) reduction(+ : twice, used_bands)
    {
        int t = omp_get_thread_num(), m0, m1;
        const int *order = bands_mine(e, &m0, &m1);
        used_bands += order != NULL;
        for (int m = m0; m < m1; m++) {
            int p = order ? order[m] : m;
            #pragma omp critical
            { twice += owner[p] >= 0; owner[p] = t; }
            verts[t] += e->count[p];
        }
        bands_strips(e, -50, 1.0, NULL, 77, &s0[t], &s1[t]);
    }
    ENSURE(twice == 0 && used_bands == (expect_bands ? team : 0));
    for (int p = 0; p < e->np; p++) ENSURE_MSG(owner[p] >= 0, "polygon %d has no thread", p);
    ENSURE(s0[0] == 0 && s1[team - 1] == 77);
    for (int t = 0; t + 1 < team; t++) ENSURE(s1[t] == s0[t + 1] && s0[t] <= s1[t]);
    if (!expect_bands) { free(owner); return; }
    long total = 0, biggest = 0;
    for (int p = 0; p < e->np; p++) { total += e->count[p]; biggest = e->count[p] > biggest ? e->count[p] : biggest; }
    for (int t = 0; t < team; t++)   /* (balanced up to a histogram bin's and a polygon's worth) */
        ENSURE_MSG(labs(verts[t] - total / team) <= total / 64 + biggest, "band %d holds %ld of %ld vertices", t, verts[t], total);
    for (int p = 0; p < e->np; p++)
        for (int q = 0; q < e->np; q++)
            if (owner[p] < owner[q]) ENSURE(e->y[e->start[p]] < e->y[e->start[q]]);
    free(owner);
}

void test_bands_partition(void)
{
    Ensemble e;
    ensemble_init(&e, 1);
    uint64_t st = 7;
    for (int p = 0; p < 300; p++)
        fx_add_ngon(&e, 6 + (int)fx_uniform(&st, 0, 40), 0.3, fx_uniform(&st, -40, 40), fx_uniform(&st, -40, 40), 0);
    bands_check(&e, 3, 0);   /* (none made yet) */
    bands_update(&e, 3);
    bands_check(&e, 3, 1);
    bands_check(&e, 2, 0);   /* another team size */
    bands_update(&e, 5);
    bands_check(&e, 5, 1);
    fx_add_ngon(&e, 8, 0.3, 0, 0, 0);
    bands_check(&e, 5, 0);   /* a polygon added */
    /* one polygon 3 10^4 above the others, then another 3 10^12 above: the bands still hold about
     * equal counts (the histogram's bins, 25 and 2.5 10^9 high, are refined once and 4 times) */
    for (int k = 0; k < 2; k++) {
        fx_add_ngon(&e, 8, 0.3, 0, k ? 3e12 : 3e4, 0);
        bands_update(&e, 3);
        bands_check(&e, 3, 1);
        bands_update(&e, 4);
        bands_check(&e, 4, 1);
    }
    ensemble_free(&e);
}

/* The first crossing pair of non-adjacent edges (i, j), i < j, of the n-gon at slots s.., by the
 * definition: every pair in order. 0 if none. */
static int brute_self_crossing(const Ensemble *e, int s, int n, int *ei, int *ej)
{
    for (int i = 0; i < n; i++)
        for (int j = i + 2; j < n; j++) {
            if (i == 0 && j == n - 1) continue;
            int a = s + i, b = s + j, b1 = j + 1 < n ? b + 1 : s;
            if (geom_segments_cross((Vec2){ e->x[a], e->y[a] }, (Vec2){ e->x[a + 1], e->y[a + 1] },
                                    (Vec2){ e->x[b], e->y[b] }, (Vec2){ e->x[b1], e->y[b1] })) { *ei = a; *ej = b; return 1; }
        }
    return 0;
}

/* The validation's self-intersection test (a sweep) names the same pair of edges as the test of
 * every pair, on 4,000 random polygons: star-shaped ones with a few vertices moved far (many cross
 * themselves, some in several places), on a coarse lattice (equal ends along the sweep, touching
 * and collinear edges), tall and wide (either axis swept). */
void test_ensemble_validate_self_crossing_as_every_pair(void)
{
    uint64_t st = 11;
    int crossed = 0, clean = 0;
    for (int trial = 0; trial < 4000; trial++) {
        Ensemble e;
        ensemble_init(&e, 1);
        int n = 3 + (int)fx_uniform(&st, 0, trial % 10 ? 40 : 400), lattice = trial % 3 == 0;
        double x[403], y[403], sx = trial % 4 == 1 ? 0.05 : 1, sy = trial % 4 == 2 ? 0.05 : 1;
        for (int m = 0; m < n; m++) {
            double t = 2 * PH_PI * m / n, r = fx_uniform(&st, 0.5, 1);
            x[m] = sx * r * cos(t); y[m] = sy * r * sin(t);
        }
        for (int moves = (int)fx_uniform(&st, 0, 3); moves > 0; moves--) {   /* (0 to 2 vertices moved anywhere) */
            int m = (int)fx_uniform(&st, 0, n);
            x[m] = fx_uniform(&st, -sx, sx); y[m] = fx_uniform(&st, -sy, sy);
        }
        if (lattice)
            for (int m = 0; m < n; m++) { x[m] = round(8 * x[m] / sx) * sx / 8; y[m] = round(8 * y[m] / sy) * sy / 8; }
        ensemble_add_polygon(&e, n, x, y, 0, 0);
        char msg[256] = "";
        int s = e.start[0], i, j, brute = brute_self_crossing(&e, s, n, &i, &j);
        int bad = ensemble_validate(&e, msg, sizeof msg) != 0;
        int len_ok = 1;   /* (a lattice may give an edge no length: an earlier check's fault) */
        for (int m = s; m < s + n; m++) len_ok &= e.l0[m] > 0;
        if (geom_area(e.x + s, e.y + s, n) > 0 && len_ok) {
            char want[256] = "";
            if (brute) snprintf(want, sizeof want, "polygon 0 (id %lld) intersects itself (edges at slots %d and %d)", (long long)e.id[0], i, j);
            ENSURE_MSG(bad == brute && !strcmp(msg, want), "trial %d (%d-gon): every pair: %s; validation: %s", trial, n, want, msg);
            crossed += brute;
            clean += !brute;
        }
        ensemble_free(&e);
    }
    fprintf(stderr, "  %d polygons cross themselves, %d do not\n", crossed, clean);
    ENSURE(crossed > 500 && clean > 500);   /* (both answers tested often) */
}
