/* The neighbour list in a running simulation: as complete as the grid (built, patched, sparse),
 * restarts that take the same path, the list through checkpoints (another skin, patched, a full
 * disk), a large packing's list and memory. */
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
    ENSURE_MSG(a.contact.list_ok, "no list to save");
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
    ENSURE_MSG(strstr(err, "was written by format version 1 (polyhoop before ") && strstr(err, ": rerun, or restart it with the polyhoop that wrote it"), "%s", err);
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
        ENSURE(a.contact.list_ok);
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
 * freed after a list build; a frame's neighbour count (sim_neighbors: a grid of the frame's own,
 * the step's list left without one) equals the count from the step's list. */
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
        ENSURE_MSG(!contact_holds_grid(&s.contact), "the frame's neighbour count left a grid in the step's contacts");
        contact_count_neighbors(&s.contact, &s.e, &s.P, forces_update_geometry(&s.e), nb2);
        ENSURE_MSG(!contact_holds_grid(&s.contact), "the count from the list built a grid although the list was usable");
        long total = 0;
        for (int p = 0; p < s.e.np; p++) {
            ENSURE_MSG(nb[p] == nb2[p], "polygon %d: %d neighbours from the frame's grid, %d from the list", p, nb[p], nb2[p]);
            total += nb[p];
        }
        ENSURE_MSG(total > 4 * s.e.np, "only %ld neighbours in all: not a packing", total);
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
