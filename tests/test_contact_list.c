/* The neighbour list: its patches, its memory per vertex, its records in slot order, its
 * checkpoint section (byte-identical restarts at any thread count), and its walks (the same sums
 * at any thread count; the batched walk the same bits as the walk pair by pair). */
#define _POSIX_C_SOURCE 200809L   /* (mkdtemp) */
#include "checkpoint.h"
#include "contact_fixtures.h"
#include "contact_impl.h"
#include "harness.h"
#include "sim.h"
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* From 65,536 vertices on, a patch gives at most an eighth of the vertices new records (its work
 * lists cost memory in proportion): in a packing of 67,200 vertices, 20 polygons changed in the
 * bottom rows are patched, 180 (8,640 vertices, more than an eighth) make a rebuild. */
void test_contact_large_patch_limit(void)
{
    Params P = params_compiled;
    Ensemble e;
    static Contact c;
    ensemble_init(&e, 1);
    contact_init(&c);
    for (int r = 0; r < 35; r++)
        for (int k = 0; k < 40; k++)
            fx_add_ngon(&e, 48, 1, (2 + P.h) * (k + 0.5 * (r % 2)), (2 + P.h) * 0.8660254037844386 * r, 0);
    ENSURE(ensemble_vertex_count(&e) == 67200);
    const int changes[2] = { 20, 180 };
    int64_t expect[2][2] = { { 1, 1 }, { 2, 1 } }, builds, patches, reuses;
    double lmax = forces_update_geometry(&e);
    contact_forces_step(&c, &e, &P, lmax);
    for (int t = 0; t < 2; t++) {
        for (int p = 0; p < changes[t]; p++) e.edits[p]++;   /* (rewritten in place: the same vertices) */
        e.layout++;
        contact_forces_step(&c, &e, &P, lmax);
        contact_counts(&c, &builds, &patches, &reuses);
        ENSURE_MSG(builds == expect[t][0] && patches == expect[t][1], "%d polygons changed: list built %lld times, patched %lld",
                   changes[t], (long long)builds, (long long)patches);
    }
    contact_free(&c);
    ensemble_free(&e);
}

/* Every force is summed in the same order at any thread count, for the grid and for the list:
 * a dividing tissue of 60 cells (many strips, bands that start at even and at odd strips) steps
 * 300 times at 1, 2, 3, 4 and 7 threads to the same state, bit for bit, and the forces of a
 * new grid agree bit for bit too. */
void test_contact_same_sums_any_thread_count(void)
{
    const int counts[] = { 1, 2, 3, 4, 7 }, threads = omp_get_max_threads();
    uint64_t hash[5];
    double *ref = NULL;
    for (int t = 0; t < 5; t++) {
        static Sim s;
        sim_init(&s, &params_compiled, 1);
        for (int c = 0; c < 60; c++) fx_add_ngon(&s.e, 24, 1, 2.01 * (c % 6) + 0.3 * (c / 6 % 2), 1.8 * (c / 6), 0);
        sim_draw_traits(&s);
        for (int p = 0; p < s.e.np; p += 5) s.e.Amax[p] = 3;   /* (these divide at once) */
        omp_set_num_threads(counts[t]);
        for (int k = 0; k < 300; k++) ENSURE_MSG(sim_step(&s) == 0, "%s", s.error);
        int64_t builds, patches, reuses;
        contact_counts(&s.contact, &builds, &patches, &reuses);
        ENSURE_MSG(builds > 0 && patches + reuses > 0, "list built %lld, patched %lld, reused %lld", (long long)builds, (long long)patches, (long long)reuses);
        hash[t] = fx_state_hash(&s.e);
        /* the forces of the final state from a new grid */
        Ensemble *e = &s.e;
        double lmax = forces_update_geometry(e);
        for (int i = 0; i < e->nv_used; i++) e->fx[i] = e->fy[i] = 0;
        static Contact c;
        contact_init(&c);
        contact_forces(&c, e, &s.P, lmax, NULL);
        contact_free(&c);
        if (!t) {
            ref = malloc(2 * (size_t)e->nv_used * sizeof *ref);
            memcpy(ref, e->fx, (size_t)e->nv_used * sizeof *ref);
            memcpy(ref + e->nv_used, e->fy, (size_t)e->nv_used * sizeof *ref);
            ENSURE_MSG(s.e.np > 60, "%d cells: no division", s.e.np);
        } else {
            ENSURE_MSG(hash[t] == hash[0], "%d threads: another state than 1 thread after 300 steps", counts[t]);
            ENSURE_MSG(!memcmp(ref, e->fx, (size_t)e->nv_used * sizeof *ref) && !memcmp(ref + e->nv_used, e->fy, (size_t)e->nv_used * sizeof *ref),
                       "%d threads: the grid's forces differ from 1 thread's", counts[t]);
        }
        sim_free(&s);
    }
    omp_set_num_threads(threads);
    free(ref);
}

/* The bytes contact detection holds: the list's strips with their room, the snapshot and the
 * patches' work space, the threads' work lists and the grid (grid_bytes). Not the pair energies
 * of contact_forces' energy (8 bytes per slot, tests only). */
static size_t contact_bytes(const Contact *c)
{
    size_t b = (size_t)c->strips_cap * (sizeof *c->strip + sizeof *c->strip_id)
             + (size_t)c->done_cap * sizeof *c->done + (size_t)c->nthreads * sizeof *c->work
             + (size_t)c->wander_cap * sizeof *c->wander + grid_bytes(&c->grid);
    for (int k = 0; k < c->strips_cap; k++)
        b += c->strip[k].cap * (sizeof *c->strip[k].i + sizeof *c->strip[k].k);
    for (int t = 0; t < c->nthreads; t++) {
        const struct ContactWork *w = &c->work[t];
        b += (size_t)w->rec_cap * sizeof *w->rec + (size_t)w->near_cap * sizeof *w->near
           + (size_t)w->cand_cap * sizeof *w->cand + (size_t)w->nb_cap * sizeof *w->nb
           + (size_t)(w->dv_cap + w->sel_cap) * sizeof(Sel) + (w->batch ? sizeof *w->batch : 0);
    }
    const struct ContactSnap *sn = c->snap;
    b += sizeof *sn + (size_t)sn->cap * (sizeof *sn->id + sizeof *sn->start + sizeof *sn->count
                                         + sizeof *sn->edits + sizeof *sn->newstart)
       + (size_t)(sn->smap_cap + sn->changed_cap + sn->dv_at_cap) * sizeof(int)
       + (size_t)sn->mark_cap + (size_t)sn->hcap * (sizeof *sn->hkey + 1)
       + (size_t)sn->marked_cap * sizeof *sn->marked + (size_t)sn->coarse_cap + (size_t)sn->dirty_cap
       + (size_t)(sn->dv_cap + sn->sel_cap) * sizeof(Sel)
       + (size_t)(sn->mean_cap + sn->wander_cap) * sizeof(double);
    return b;
}

/* The memory of contact detection per vertex (docs/performance.md, Memory), in a packing of
 * 72,000 vertices (above GRID_LARGE: the grid freed while the list serves, the patches' work
 * space given back for a frame's grids), a few of its cells thrown in so that the list is
 * patched: the bytes its structures hold (contact_bytes, grid_bytes; their rooms included), not
 * the process's resident memory, so the bounds hold on any machine. Measured 2026-11-26, bytes
 * per vertex (the bounds): the list with its snapshot 9.0 (10.5), with a patch's work space
 * 22.9 (26), the grid of a list build 17.8 (20.5), a frame's grid (no walk cells, smaller
 * cells) 18.7 (21.5). A list of two ints an edge, a grid of 20-byte edges or 64-bit keys of
 * occupied cells would each break one. */
void test_contact_memory_per_vertex(void)
{
    Params P = params_compiled;
    P.alpha_mu = 0; P.Amax_mu = INFINITY;   /* no growth, no division */
    static Sim s;
    sim_init(&s, &P, 1);
    uint64_t rng = 7;
    for (int r = 0; r < 30; r++)
        for (int c = 0; c < 50; c++) {
            double x = (2 + P.h) * (c + 0.5 * (r % 2)), y = (2 + P.h) * 0.8660254037844386 * r;
            if ((r * 50 + c) % 97 == 5) fx_add_moving_ngon(&s.e, 48, 1, x, y, 0, &rng, 0.2 * P.h / P.dt);
            else fx_add_ngon(&s.e, 48, 1, x, y, 0);
        }
    sim_draw_traits(&s);
    const double nv = ensemble_vertex_count(&s.e);
    ENSURE(nv == 72000 && s.e.nv_used >= GRID_LARGE);
    int64_t builds = 0, patches = 0, reuses = 0, before = 0;
    for (int k = 0; k < 200 && !(builds > 0 && patches > before); k++) {   /* (until a step patches the list) */
        before = patches;
        ENSURE_MSG(sim_step(&s) == 0, "%s", s.error);
        contact_counts(&s.contact, &builds, &patches, &reuses);
    }
    double serving = contact_bytes(&s.contact) / nv;
    contact_trim(&s.contact);
    double list = contact_bytes(&s.contact) / nv;
    /* the grid a list build makes (contact_forces_step: cells for the reach plus the skin) */
    const double lmax = forces_update_geometry(&s.e), reach = params_reach(&P), lcell = fmax(lmax, fmin(P.lmax, lmax + SKIN * reach));
    Grid g;
    grid_init(&g);
    grid_build(&g, &s.e, (0.5 * lcell + reach + SKIN * reach) * (1 + 1e-9), lcell, 1);
    grid_release(&g, 0);
    double build = grid_bytes(&g) / nv;
    grid_free(&g);
    grid_init(&g);   /* (a frame's: contact_energy, the neighbour count) */
    grid_build(&g, &s.e, (0.5 * fmin(lmax, P.lmax) + reach) * (1 + 1e-9), fmin(lmax, P.lmax), 0);
    grid_release(&g, 0);
    double frame = grid_bytes(&g) / nv;
    grid_free(&g);
    ENSURE_MSG(builds > 0 && patches > 0 && reuses > 0 && !contact_holds_grid(&s.contact), "list built %lld, patched %lld, reused %lld",
               (long long)builds, (long long)patches, (long long)reuses);
    ENSURE_MSG(serving <= 26 && list <= 10.5 && list < serving, "the list and its snapshot: %.1f bytes per vertex, %.1f with the patches' work space",
               list, serving);
    ENSURE_MSG(build <= 20.5 && frame <= 21.5, "the grid of a list build: %.1f bytes per vertex, a frame's: %.1f", build, frame);
    sim_free(&s);
}

/* Whether every record of c's list names its edges in slot order; *nrec = the records. */
static int records_in_slot_order(const Contact *c, int *nrec)
{
    *nrec = 0;
    for (int s = 0; s < c->nstrips; s++) {
        const struct ContactStrip *st = &c->strip[s];
        for (size_t m = 0, nl; m < st->n; m += nl, ++*nrec) {
            nl = record_len(st->i, m, st->n);
            for (size_t a = m + 1; a < m + nl; a++)
                if (edge_slot(st->k[a]) <= edge_slot(st->k[a - 1])) return 0;
        }
    }
    return 1;
}

/* How many of the listed edges of c have a code that says wrongly whether the edge is of its
 * vertex's own polygon or its polygon's last (contact_impl.h: edge_code), by the polygons of the
 * list's snapshot, whose slots it names (a division after a step's contact phase changes the
 * ensemble's until the next step patches the list); *own and *last count those edges. */
static long wrong_codes(const Contact *c, long *own, long *last)
{
    const struct ContactSnap *sn = c->snap;
    long wrong = 0;
    *own = *last = 0;
    for (int s = 0; s < c->nstrips; s++) {
        const struct ContactStrip *st = &c->strip[s];
        for (size_t m = 0; m < st->n; m++) {
            int k = edge_slot(st->k[m]), pk = -1, pi = -1;
            for (int p = 0; p < sn->np; p++) {
                if (k >= sn->start[p] && k < sn->start[p] + sn->count[p]) pk = p;
                if (st->i[m] >= sn->start[p] && st->i[m] < sn->start[p] + sn->count[p]) pi = p;
            }
            if (pk < 0 || pi < 0) return -1;
            int same = pk == pi, lastedge = k + 1 == sn->start[pk] + sn->count[pk];
            *own += same; *last += lastedge;
            wrong += (st->k[m] < 0) != (same || lastedge);
        }
    }
    return wrong;
}

/* contact_walked counts the listed edges that each step's walk over the list takes: none in a
 * step that built the list (it walks the grid), every edge of the list after the step in a step
 * that patched or reused it, in a dividing tissue, step by step. */
void test_contact_walked_counts_listed_edges(void)
{
    static Sim s;
    sim_init(&s, &params_compiled, 1);
    for (int c = 0; c < 30; c++) fx_add_ngon(&s.e, 24, 1, 2.01 * (c % 6) + 0.3 * (c / 6 % 2), 1.8 * (c / 6), 0);
    sim_draw_traits(&s);
    for (int p = 0; p < s.e.np; p += 5) s.e.Amax[p] = 3;   /* (these divide at once) */
    int64_t seen[3] = { 0, 0, 0 }, walked = contact_walked(&s.contact), edges_total = 0;
    ENSURE(walked == 0);
    for (int k = 0; k < 300; k++) {
        int64_t b0, p0, r0, b1, p1, r1, edges = 0;
        contact_counts(&s.contact, &b0, &p0, &r0);
        ENSURE_MSG(sim_step(&s) == 0, "%s", s.error);
        contact_counts(&s.contact, &b1, &p1, &r1);
        for (int st = 0; st < s.contact.nstrips; st++) edges += (int64_t)s.contact.strip[st].n;
        int64_t now = contact_walked(&s.contact), kind = b1 > b0 ? 0 : p1 > p0 ? 1 : 2;
        ENSURE_MSG(b1 + p1 + r1 == b0 + p0 + r0 + 1, "step %d counted %lld times", k, (long long)(b1 + p1 + r1 - b0 - p0 - r0));
        ENSURE_MSG(now - walked == (kind ? edges : 0), "step %d (%s): %lld edges walked, the list has %lld", k,
                   kind == 0 ? "built" : kind == 1 ? "patched" : "reused", (long long)(now - walked), (long long)edges);
        seen[kind]++;
        edges_total += kind ? edges : 0;
        walked = now;
    }
    ENSURE_MSG(seen[0] > 0 && seen[1] > 0 && seen[2] > 0 && s.e.np > 30, "%d cells; steps built %lld, patched %lld, reused %lld",
               s.e.np, (long long)seen[0], (long long)seen[1], (long long)seen[2]);
    ENSURE(walked == edges_total && edges_total > 100 * seen[2]);
    sim_free(&s);
}

/* The picking ends (contact.c) look for an edge's neighbours next to it in a vertex's list, so
 * every record names its edges in slot order: after the builds and patches of a dividing tissue,
 * and after reading a checkpoint whose records are not (an earlier version's): that file goes
 * on exactly like the same state with its records in order. */
void test_contact_records_in_slot_order(void)
{
    static Sim s, r[2];
    sim_init(&s, &params_compiled, 1);
    for (int c = 0; c < 30; c++) fx_add_ngon(&s.e, 24, 1, 2.01 * (c % 6) + 0.3 * (c / 6 % 2), 1.8 * (c / 6), 0);
    sim_draw_traits(&s);
    for (int p = 0; p < s.e.np; p += 5) s.e.Amax[p] = 3;   /* (these divide at once) */
    for (int k = 0; k < s.P.Ns; k++) ENSURE_MSG(sim_step(&s) == 0, "%s", s.error);   /* (one frame) */
    int64_t builds, patches, reuses;
    contact_counts(&s.contact, &builds, &patches, &reuses);
    int nrec, reversed = 0;
    ENSURE_MSG(s.e.np > 30 && builds > 0 && patches > 0, "%d cells, list built %lld, patched %lld", s.e.np, (long long)builds, (long long)patches);
    ENSURE(records_in_slot_order(&s.contact, &nrec) && nrec > 100);
    long own, last, wrong = wrong_codes(&s.contact, &own, &last);
    ENSURE_MSG(wrong == 0 && last > 50, "%ld listed edges of the vertex's own polygon, %ld of its polygon's last; %ld coded "
               "wrongly", own, last, wrong);
    char dir[] = "/tmp/ph_test_contact_XXXXXX", path[2][96], err[512] = "", input[64];
    ENSURE(mkdtemp(dir));
    for (int v = 0; v < 2; v++) {
        snprintf(path[v], sizeof path[v], "%s/c%d.bin", dir, v);
        if (v)   /* the second file: each record's edges in reverse order */
            for (int st = 0; st < s.contact.nstrips; st++) {
                struct ContactStrip *cs = &s.contact.strip[st];
                for (size_t m = 0, nl; m < cs->n; m += nl) {
                    nl = record_len(cs->i, m, cs->n);
                    for (size_t a = m, b = m + nl - 1; a < b; a++, b--, reversed++) { int t = cs->k[a]; cs->k[a] = cs->k[b]; cs->k[b] = t; }
                }
            }
        ENSURE_MSG(checkpoint_write(path[v], &s, 1, "in.off", NULL, err, sizeof err) == 0, "%s", err);
    }
    ENSURE(reversed > 0 && !records_in_slot_order(&s.contact, &nrec));
    uint64_t hash[2];
    for (int v = 0; v < 2; v++) {
        int frame;
        sim_init(&r[v], &params_compiled, 1);
        ENSURE_MSG(checkpoint_read(path[v], &r[v], &frame, input, sizeof input, NULL, err, sizeof err) == 0, "%s", err);
        ENSURE(records_in_slot_order(&r[v].contact, &nrec));
        for (int k = 0; k < 100; k++) ENSURE_MSG(sim_step(&r[v]) == 0, "%s", r[v].error);
        hash[v] = fx_state_hash(&r[v].e);
        ENSURE(records_in_slot_order(&r[v].contact, &nrec));
        remove(path[v]);
        sim_free(&r[v]);
    }
    rmdir(dir);
    ENSURE_MSG(hash[0] == hash[1], "the file with reversed records went on differently");
    sim_free(&s);
}

/* Two dividing tissues of 20 cells, 1.2 10^4 apart: a sparse grid, whose walk is in the search
 * cells and whose list keeps a table of some strips. */
static void two_tissues(Sim *s)
{
    sim_init(s, &params_compiled, 1);
    for (int c = 0; c < 40; c++) {
        double far = c < 20 ? 0 : 1;
        fx_add_ngon(&s->e, 24, 1, 2.01 * (c % 5) + 0.3 * (c / 5 % 2) + 6e3 * far, 1.8 * (c / 5 % 4) + 1e4 * far, 0);
    }
    sim_draw_traits(s);
    for (int p = 0; p < s->e.np; p += 5) s->e.Amax[p] = 3;   /* (these divide at once) */
}

/* A growable buffer for contact_save. */
typedef struct { char *b; size_t n; } Buf;
static void buf_put(void *out, const void *d, size_t n)
{
    Buf *w = out;
    w->b = realloc(w->b, w->n + n);
    memcpy(w->b + w->n, d, n);
    w->n += n;
}

/* contact_load of the bytes b[0 .. n), the list of a run with parameters P at step */
static int load_bytes(Contact *c, const char *b, size_t n, const Params *P, int64_t step)
{
    char why[512];
    FILE *f = fmemopen((void *)b, n, "rb");
    int r = contact_load(c, NULL, f, n, P, step, why, sizeof why);
    fclose(f);
    return r;
}

/* The list of a sparse grid keeps its guarantees: 300 steps of two dividing tissues 1.2 10^4
 * apart (built, patched and reused; a table of some strips, far fewer than the grid's rows ask)
 * reach the same state bit for bit at 1, 2, 3 and 7 threads; a checkpoint written at frame 1
 * (step 1,000) and read back goes on for 300 steps to the same state as the run never stopped;
 * and its section's strip numbers are checked: one that repeats the one before, or of the
 * wrong parity, or past the grid, is refused; so is a vertex with two records. */
void test_contact_sparse_list_threads_restart(void)
{
    const int counts[] = { 1, 2, 3, 7 }, threads = omp_get_max_threads();
    uint64_t hash[4], resumed = 0, straight = 0;
    char dir[] = "/tmp/ph_test_sparse_XXXXXX", path[96], err[512] = "", input[64];
    ENSURE(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/c.bin", dir);
    for (int t = 0; t < 4; t++) {
        static Sim s, r;
        two_tissues(&s);
        omp_set_num_threads(counts[t]);
        for (int k = 0; k < 300; k++) ENSURE_MSG(sim_step(&s) == 0, "%s", s.error);
        hash[t] = fx_state_hash(&s.e);
        int64_t builds, patches, reuses;
        contact_counts(&s.contact, &builds, &patches, &reuses);
        const Contact *c = &s.contact;
        ENSURE_MSG(builds > 0 && patches > 0 && reuses > 0 && s.e.np > 40, "%d cells; list built %lld, patched %lld, reused %lld",
                   s.e.np, (long long)builds, (long long)patches, (long long)reuses);
        ENSURE_MSG(c->list_ok && (double)c->list_nx * c->list_ny > 1e8 && c->nstrips < 100 && c->nstrips < (c->list_ny + GRID_STRIP - 1) / GRID_STRIP,
                   "the list's grid: %d x %d cells, %d strips", c->list_nx, c->list_ny, c->nstrips);
        ENSURE_MSG(hash[t] == hash[0], "%d threads: another state than 1 thread after 300 steps", counts[t]);
        if (t == 0) {   /* on to frame 1, its checkpoint, 300 steps more; and the same from the checkpoint */
            for (int k = 300; k < s.P.Ns; k++) ENSURE_MSG(sim_step(&s) == 0, "%s", s.error);
            ENSURE_MSG(checkpoint_write(path, &s, 1, "in.off", NULL, err, sizeof err) == 0, "%s", err);
            int frame;
            sim_init(&r, &params_compiled, 1);
            ENSURE_MSG(checkpoint_read(path, &r, &frame, input, sizeof input, NULL, err, sizeof err) == 0, "%s", err);
            for (int k = 0; k < 300; k++) ENSURE_MSG(sim_step(&s) == 0 && sim_step(&r) == 0, "%s%s", s.error, r.error);
            resumed = fx_state_hash(&r.e);
            straight = fx_state_hash(&s.e);
            sim_free(&r);
            /* the section's strip numbers (after int32 state, 18 doubles and int32 nx, ny, strips) */
            Buf w = { NULL, 0 };
            contact_save(c, &s.e, buf_put, &w);
            static Contact back;
            contact_init(&back);
            ENSURE(load_bytes(&back, w.b, w.n, &s.P, s.e.step) == 0 && back.nstrips == c->nstrips && !memcmp(back.strip_id, c->strip_id, (size_t)c->nstrips * sizeof *c->strip_id));
            int32_t *id = (int32_t *)(w.b + 4 + 18 * 8 + 12), keep = id[1];
            ENSURE(c->nstrips >= 3 && id[0] == c->strip_id[0] && id[c->nstrips - 1] == c->strip_id[c->nstrips - 1]);
            const int32_t bad[3] = { id[0], id[1] + 1, (c->list_ny + GRID_STRIP - 1) / GRID_STRIP + 1 };
            for (int b = 0; b < 3; b++) {
                id[b < 2 ? 1 : c->nstrips - 1] = bad[b];
                ENSURE_MSG(load_bytes(&back, w.b, w.n, &s.P, s.e.step) == -1 && !back.list_ok, "strip number %d (%d) accepted", b, bad[b]);
                id[1] = keep; id[c->nstrips - 1] = c->strip_id[c->nstrips - 1];
            }
            ENSURE(load_bytes(&back, w.b, w.n, &s.P, s.e.step) == 0);
            /* and its records: a vertex with two records (the list keeps one run of edges a vertex),
             * next to each other in one strip or in two strips, is refused */
            int32_t *rec[2] = { NULL, NULL }, *pair[2] = { NULL, NULL };   /* (the first records of two strips; two of one strip) */
            char *at = (char *)(id + c->nstrips);
            for (int st = 0; st < c->nstrips; st++) {
                int64_t len;
                memcpy(&len, at, sizeof len);
                int32_t *q = (int32_t *)(at + sizeof len);
                if (len > 0 && !rec[0]) rec[0] = q;
                else if (len > 0 && !rec[1]) rec[1] = q;
                if (len > 2 + 2 * q[1] && !pair[0]) { pair[0] = q; pair[1] = q + 2 + 2 * q[1]; }
                at += sizeof len + (size_t)len * sizeof *q;
            }
            ENSURE(rec[0] && rec[1] && pair[0] && at == w.b + w.n - (4 + 8 + (size_t)c->snap->np * 28));
            for (int b = 0; b < 2; b++) {
                int32_t *q = b ? rec[1] : pair[1], was = *q;
                *q = b ? rec[0][0] : pair[0][0];
                ENSURE_MSG(load_bytes(&back, w.b, w.n, &s.P, s.e.step) == -1 && !back.list_ok, "a vertex with two records (%s) accepted",
                           b ? "in two strips" : "in a row");
                *q = was;
            }
            ENSURE(load_bytes(&back, w.b, w.n, &s.P, s.e.step) == 0);
            contact_free(&back);
            free(w.b);
        }
        sim_free(&s);
    }
    omp_set_num_threads(threads);
    ENSURE_MSG(resumed == straight, "the run continued from the checkpoint differs");
    remove(path);
    rmdir(dir);
}

/* (test_contact_sparse_patch_without_marks, four of the hoops d away) */
static void patch_without_marks(double d)
{
    Params P = params_compiled;
    Ensemble e;
    static Contact c, fresh;
    ensemble_init(&e, 1);
    contact_init(&c);
    for (int k = 0; k < 8; k++) fx_add_ngon(&e, 24, 0.5, 1.02 * (k % 4) + (k < 4 ? 0 : d), 1.02 * (k % 2) + (k < 4 ? 0 : d), 0);
    double lmax = forces_update_geometry(&e);
    int nv = e.nv_used;
    double *f = malloc(2 * (size_t)nv * sizeof *f);
    contact_forces_step(&c, &e, &P, lmax);
    for (int t = 0; t < 2; t++) {
        if (t) e.edits[5]++;   /* (rewritten in place: the same vertices) */
        e.layout++;
        for (int i = 0; i < nv; i++) e.fx[i] = e.fy[i] = 0;
        contact_forces_step(&c, &e, &P, lmax);
        memcpy(f, e.fx, (size_t)nv * sizeof *f); memcpy(f + nv, e.fy, (size_t)nv * sizeof *f);
        for (int i = 0; i < nv; i++) e.fx[i] = e.fy[i] = 0;
        contact_init(&fresh);
        contact_forces(&fresh, &e, &P, lmax, NULL);
        contact_free(&fresh);
        int64_t builds, patches, reuses;
        contact_counts(&c, &builds, &patches, &reuses);
        ENSURE_MSG(builds == 1 && patches == t + 1 && c.nstrips < (c.list_ny + GRID_STRIP - 1) / GRID_STRIP,
                   "list built %lld times, patched %lld; %d strips of %d rows", (long long)builds, (long long)patches, c.nstrips, c.list_ny);
        ENSURE_MSG(!memcmp(f, e.fx, (size_t)nv * sizeof *f) && !memcmp(f + nv, e.fy, (size_t)nv * sizeof *f), "patch %d: other forces than a new grid's", t);
    }
    ENSURE_MSG(d < 1e6 || (double)c.list_nx * c.list_ny > 0x1p55, "the list's grid, hoops %g away: %d x %d cells", d, c.list_nx, c.list_ny);
    free(f);
    contact_free(&c);
    ensemble_free(&e);
}

/* A patch of a sparse grid's list with no polygon to renew (the layout changed, every polygon
 * unchanged: as after a removal) marks nothing and renumbers the list; then a patch that renews
 * one polygon: both give the forces of a new grid, bit for bit (the same records, in the same
 * strips, in the same order). Four hoops 3 10^4 away, and 10^9 away: a grid of more than 2^55
 * cells, whose cell numbers take every pass of the patch's radix sort. */
void test_contact_sparse_patch_without_marks(void)
{
    for (int far = 0; far < 2; far++) patch_without_marks(far ? 1e9 : 3e4);
}

/* The forces of one walk over the list with kept pair records, whose walk takes the pairs one by
 * one, with no data-independent passes (vertex_forces), into fx, fy; counts the walk. */
static void list_walk_forces(Contact *c, Ensemble *e, const Params *P, double lmax, int keep, double *fx, double *fy)
{
    int64_t b0, p0, r0, b1, p1, r1;
    contact_counts(c, &b0, &p0, &r0);
    for (int i = 0; i < e->nv_used; i++) e->fx[i] = e->fy[i] = 0;
    contact_keep_records(c, keep);
    contact_forces_step(c, e, P, lmax);
    contact_keep_records(c, 0);
    contact_counts(c, &b1, &p1, &r1);
    ENSURE_MSG(b1 == b0 && p1 == p0 && r1 == r0 + 1, "the list was not reused (built %lld, patched %lld)", (long long)(b1 - b0), (long long)(p1 - p0));
    memcpy(fx, e->fx, (size_t)e->nv_used * sizeof *fx);
    memcpy(fy, e->fy, (size_t)e->nv_used * sizeof *fy);
}

/* The batched walk over the list (contact.c: projections, picking ends, pair law and sums in
 * passes over batches of records) gives the forces of the walk pair by pair bit for bit: in a
 * jostled packing of 3- to 40-gons (their last edges: in records, paired with their first; distances in
 * every zone of the pair law) with random velocities, contact damping and with and without
 * friction, two thin hairpins, one with edges of 0.003, four polygons with edges of about 0.003
 * and two folds (pairs within one polygon: ends next to the vertex, the exclusion along the hoop), a 600-gon of radius 0.004
 * beside another polygon's vertex (a record of more edges than a batch holds, which goes the pair
 * by pair way in its place); then with every seventh polygon rigid, and with three cell
 * types whose matrices set kh and mu pair by pair (one entry 0: no friction there). Many
 * batches, none of them empty. */
void test_contact_batched_walk_same_bits(void)
{
    const double kh3[9] = { 1e6, 2e5, 0, 2e5, 3e6, 1e5, 0, 1e5, 5e5 }, mu3[9] = { 0.4, 0.1, 0.2, 0.1, 0, 0.3, 0.2, 0.3, 0.6 };
    for (int v = 0; v < 8; v++) {
        Params P = pair_params();
        P.cc = 30; P.mu = v % 2 ? 0.4 : 0;
        Ensemble e;
        Contact c;
        uint64_t st = 23 + (uint64_t)v;
        ensemble_init(&e, 1);
        contact_init(&c);
        for (int p = 0; p < 120; p++)
            fx_add_ngon(&e, 3 + p % 38, 0.1, 0.19 * (p % 12) + fx_uniform(&st, -0.02, 0.02), 0.19 * (p / 12) + fx_uniform(&st, -0.02, 0.02),
                        fx_uniform(&st, 0, 6));
        double hx[320], hy[320];   /* two hairpins: arms 0.006 apart, less than h, vertices 0.05 and 0.003 apart */
        for (int k = 0; k < 60; k++) { hx[k] = -1 + 0.05 * k; hy[k] = -0.5; hx[119 - k] = hx[k]; hy[119 - k] = -0.494; }
        ensemble_add_polygon(&e, 120, hx, hy, 1, 0);
        for (int k = 0; k < 100; k++) { hx[k] = -1 + 0.003 * k; hy[k] = -0.8; hx[199 - k] = hx[k]; hy[199 - k] = -0.794; }
        ensemble_add_polygon(&e, 200, hx, hy, 1, 0);
        const double zx[8] = { 0, 0.003, 0.003, -0.003, -0.003, 0.1, 0.1, 0.0035 }, zy[8] = { 0, 0, 0.002, 0.002, -0.05, -0.05, -0.001, -0.001 };
        for (int k = 0; k < 8; k++) { hx[k] = 5 + zx[k]; hy[k] = 5 + zy[k]; }   /* (a fold whose vertex 0 sees edge 2 -> 3, 0.008 away */
        ensemble_add_polygon(&e, 8, hx, hy, 1, 0);                             /* along the hoop: excluded) */
        /* folds of long edges, A = (0, 0): A lies beside edge B -> C, whose end B follows A on the
         * hoop, and C beside edge A -> B, whose end B precedes C (pairs within one polygon that the
         * ends next to the vertex do not pick); the last edge far from the fold, then next to it
         * (a record with the polygon's last edge) */
        for (int f = 0; f < 4; f++) {
            const double fx7[7] = { -0.3, -0.05, 0, 0.05, f % 2 ? 0.02 : -0.01, -0.05, -0.3 }, fy7[7] = { -0.3, -0.05, 0, 0, 0.004, 0.05, 0.3 };
            for (int k = 0; k < 7; k++) { hx[k] = 6 + f + fx7[(k + 5 * (f / 2)) % 7]; hy[k] = 6 + fy7[(k + 5 * (f / 2)) % 7]; }
            ensemble_add_polygon(&e, 7, hx, hy, 1, 0);
        }
        for (int f = 0; f < 2; f++) {
            const double fx5[5] = { 0, 0.05, f ? 0.02 : -0.01, -0.05, -0.05 }, fy5[5] = { 0, 0, 0.004, 0.05, -0.05 };
            for (int k = 0; k < 5; k++) { hx[k] = 7 + f + fx5[k]; hy[k] = 7 + fy5[k]; }
            ensemble_add_polygon(&e, 5, hx, hy, 1, 0);
        }
        fx_add_ngon(&e, 600, 0.004, 3, -0.5, 0);
        for (int k = 0; k < 4; k++) fx_add_ngon(&e, 40 + 10 * k, 0.02 + 0.005 * k, 2.5 + 0.2 * k, -0.8, k);   /* (edges of 0.003: pairs within one polygon) */
        fx_add_ngon(&e, 8, 0.05, 3.06, -0.5, 0);
        for (int i = 0; i < e.nv_used; i++) { e.vx[i] = fx_uniform(&st, -1, 1); e.vy[i] = fx_uniform(&st, -1, 1); }
        for (int p = 0; p < e.np; p++) {
            e.rigid[p] = (v == 2 || v == 3 || v == 7) && p % 7 == 3;
            e.type[p] = p % 3;
        }
        if (v >= 4) { e.type_kh = kh3; e.ntypes_kh = 3; }
        if (v == 5 || v == 7) e.type_mu = mu3;
        double lmax = forces_update_geometry(&e);
        for (int i = 0; i < e.nv_used; i++) e.fx[i] = e.fy[i] = 0;
        contact_forces_step(&c, &e, &P, lmax);   /* (builds the list) */
        long most = 0, own = 0, wraps = 0, edges = 0;
        for (int s = 0; s < c.nstrips; s++)
            for (size_t m = 0, nl; m < c.strip[s].n; m += nl) {
                const struct ContactStrip *cs = &c.strip[s];
                int p = e.pid[cs->i[m]], mine = 0, wrap = 0;
                nl = record_len(cs->i, m, cs->n);
                for (size_t a = m; a < m + nl; a++) {
                    int k = edge_slot(cs->k[a]);
                    mine |= e.pid[k] == p; wrap |= ens_next(&e, k) < k;
                }
                most = (long)nl > most ? (long)nl : most; own += mine; wraps += wrap; edges += (long)nl;
            }
        ENSURE_MSG(most > BATCH && own > 10 && wraps > 100 && edges > 20 * BATCH, "records: longest %ld edges, %ld with own edges, %ld with "
                   "their polygon's last edge; %ld edges", most, own, wraps, edges);
        long nown, nlast, wrong = wrong_codes(&c, &nown, &nlast);
        ENSURE_MSG(wrong == 0 && nown > 10, "%ld listed edges of the vertex's own polygon, %ld of its polygon's last; %ld coded wrongly",
                   nown, nlast, wrong);
        int n = e.nv_used;
        double *f = malloc(4 * (size_t)n * sizeof *f), big = 0;
        list_walk_forces(&c, &e, &P, lmax, 0, f, f + n);
        ENSURE(c.walk_batched);
        list_walk_forces(&c, &e, &P, lmax, 1, f + 2 * n, f + 3 * n);
        ENSURE(!c.walk_batched);
        int differ = 0;
        for (int i = 0; i < n; i++) {
            differ += memcmp(&f[i], &f[2 * n + i], sizeof *f) || memcmp(&f[n + i], &f[3 * n + i], sizeof *f);
            big = fmax(big, hypot(f[i], f[n + i]));
        }
        ENSURE_MSG(!differ && big > 1e3, "case %d: %d of %d vertices' forces differ (largest force %g)", v, differ, n, big);
        free(f);
        contact_free(&c);
        ensemble_free(&e);
    }
}
