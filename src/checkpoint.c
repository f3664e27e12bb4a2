/* Layout (host byte order, checked on reading): a fixed header (magic, version, byte-order mark,
 * sizes, the Params struct whole, so every member of PARAMS_LIST in list order, random stream,
 * time and counters, input name), then per polygon in order its record: the fields of
 * ENSEMBLE_POLYGON_STORED (ensemble.h) in list order, each as its file type (int32 count, int32
 * generation, double A0 Amax alpha birth, int64 id parent, int8 phase, uint8 rigid), then per
 * vertex, polygon by polygon, x y vx vy l0. Gap slots
 * are not stored: the restored ensemble is contiguous, which the next remodeling pass would make
 * it anyway, so the continuation is unchanged. Version 2 adds the contact list's section
 * (contact_save: its state, and the list itself; see contact.h). (Version 1 files are read as
 * having no list.) */
#define _POSIX_C_SOURCE 200809L   /* fileno, fstat */
#include "checkpoint.h"
#include "atomic.h"
#include <errno.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Header {
    char magic[24];
    uint32_t version, order, params_size, reserved;
    Params P;
    uint64_t seed, draws;
    int64_t step, next_id, divisions, removals, fusions1, fusions2;
    double t;
    int32_t frame, np, nv, reserved2;
    char input[1024];
} Header;

static const char MAGIC[24] = "polyhoop checkpoint\n";

/* the bytes of one polygon record */
#define RECORD_SIZE(type, name, file_type, init) + sizeof(file_type)
enum { RECORD = 0 ENSEMBLE_POLYGON_STORED(RECORD_SIZE) };
#undef RECORD_SIZE

/* the file is written as it is made (no copy of the state in memory): the first failed write
 * is kept in bad and ends the writing */
typedef struct { FILE *f; int bad; } Out;

static void put(Out *o, const void *d, size_t n)
{
    if (!o->bad && n && fwrite(d, 1, n, o->f) != n) o->bad = errno ? errno : EIO;
}

int checkpoint_write(const char *path, const Sim *s, int frame, const char *input, char *err, size_t len)
{
    const Ensemble *e = &s->e;
    Header h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, MAGIC, sizeof MAGIC);
    h.version = 2; h.order = 0x01020304u; h.params_size = sizeof(Params);
    h.P = s->P; h.seed = e->seed; h.draws = e->draws; h.step = e->step; h.next_id = e->next_id;
    h.divisions = s->divisions; h.removals = s->removals; h.fusions1 = s->fusions1; h.fusions2 = s->fusions2;
    h.t = e->t; h.frame = frame; h.np = e->np; h.nv = ensemble_vertex_count(e);
    snprintf(h.input, sizeof h.input, "%s", input);
    Out b = { atomic_open(path, err, len), 0 };
    if (!b.f) return -1;
    char vbuf[1 << 16];   /* (stdio's default buffer of 4 KiB would mean a system call per 100 vertices) */
    setvbuf(b.f, vbuf, _IOFBF, sizeof vbuf);
    put(&b, &h, sizeof h);
    for (int p = 0; p < e->np && !b.bad; p++) {
#define PUT(type, name, file_type, init) { file_type x = (file_type)e->name[p]; put(&b, &x, sizeof x); }
        ENSEMBLE_POLYGON_STORED(PUT)
#undef PUT
    }
    for (int p = 0; p < e->np && !b.bad; p++)
        for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++) {
            double v[5] = { e->x[i], e->y[i], e->vx[i], e->vy[i], e->l0[i] };
            put(&b, v, sizeof v);
        }
    if (!b.bad) b.bad = contact_save(&s->contact, e, b.f);
    return atomic_close(b.f, path, b.bad, 1, err, len);
}

static int bad_file(char *err, size_t len, const char *path, const char *why)
{
    snprintf(err, len, "%s: %s", path, why);
    return -1;
}

int checkpoint_read(const char *path, Sim *s, int *frame, char *input, size_t inlen, char *err, size_t len)
{
    FILE *f = fopen(path, "rb");
    if (!f) { snprintf(err, len, "%s: cannot open (%s)", path, strerror(errno)); return -1; }
    Header h;
    if (fread(&h, sizeof h, 1, f) != 1) { fclose(f); return bad_file(err, len, path, "too short for a checkpoint"); }
    if (memcmp(h.magic, MAGIC, sizeof MAGIC) || h.version < 1 || h.version > 2) { fclose(f); return bad_file(err, len, path, "not a polyhoop checkpoint (or another version)"); }
    if (h.order != 0x01020304u || h.params_size != sizeof(Params)) { fclose(f); return bad_file(err, len, path, "written on a different kind of machine or build"); }
    if (h.np < 0 || h.nv < 0 || h.frame < 0) { fclose(f); return bad_file(err, len, path, "corrupt header"); }
    Ensemble *e = &s->e;
    contact_invalidate(&s->contact);   /* (the new ensemble's layout counter starts again) */
    ensemble_free(e);
    ensemble_init(e, h.seed);
    s->P = h.P;
    /* the polygon records, into the polygon arrays of `in` (after a check that the file can hold
     * that many, so that a corrupt count cannot ask for all memory) */
    Ensemble in;
    ensemble_init(&in, 0);
    struct stat st;
    off_t here = ftello(f);
    int total = 0, ok = here >= 0 && fstat(fileno(f), &st) == 0 && st.st_size >= here &&
                        (uint64_t)h.np <= (uint64_t)(st.st_size - here) / RECORD;
    if (ok) ensemble_reserve(&in, 0, h.np);
    for (int p = 0; ok && p < h.np; p++) {
#define GET(type, name, file_type, init) { file_type x = 0; ok = ok && fread(&x, sizeof x, 1, f) == 1; in.name[p] = (type)x; }
        ENSEMBLE_POLYGON_STORED(GET)
#undef GET
        ok = ok && in.count[p] >= 3 && in.count[p] <= h.nv - total;
        if (ok) total += in.count[p];
    }
    ok = ok && total == h.nv;
    /* the vertices, polygon by polygon, straight into the ensemble (no copy of them all) */
    here = ok ? ftello(f) : -1;
    ok = ok && here >= 0 && st.st_size >= here && (uint64_t)h.nv <= (uint64_t)(st.st_size - here) / (5 * sizeof(double));
    int nmax = 0;
    for (int p = 0; ok && p < h.np; p++) nmax = in.count[p] > nmax ? in.count[p] : nmax;
    double *v = ok ? malloc(((size_t)nmax + 1) * 10 * sizeof *v) : NULL;   /* as read, and by field */
    ok = ok && v;
    if (ok) ensemble_reserve(e, h.nv, h.np);
    for (int p = 0; ok && p < h.np; p++) {
        int n = in.count[p];
        double *c[5];
        for (int j = 0; j < 5; j++) c[j] = v + (size_t)nmax * (5 + j);
        ok = fread(v, 5 * sizeof *v, (size_t)n, f) == (size_t)n;
        for (int i = 0; ok && i < n; i++)
            for (int j = 0; j < 5; j++) c[j][i] = v[5 * i + j];
        if (!ok) break;
        int q = ensemble_push_polygon(e, n, c[0], c[1], c[2], c[3], c[4]);
#define SET(type, name, file_type, init) e->name[q] = in.name[p];
        ENSEMBLE_POLYGON_STORED(SET)
#undef SET
    }
    /* the contact list (version 2; a version-1 file starts afresh) */
    here = ok ? ftello(f) : -1;
    size_t left = ok && here >= 0 && st.st_size >= here ? (size_t)(st.st_size - here) : 0;   /* (st from above) */
    ok = ok && contact_load(&s->contact, e, h.version >= 2 ? f : NULL, left) == 0;
    ok = ok && fgetc(f) == EOF;
    fclose(f);
    ensemble_free(&in);
    free(v);
    if (!ok) {   /* (no half-read ensemble is left behind, nor a list for it) */
        contact_invalidate(&s->contact);
        ensemble_free(e);
        ensemble_init(e, h.seed);
        return bad_file(err, len, path, "truncated or corrupt");
    }
    e->draws = h.draws; e->step = h.step; e->next_id = h.next_id; e->t = h.t;
    s->divisions = h.divisions; s->removals = h.removals; s->fusions1 = h.fusions1; s->fusions2 = h.fusions2;
    *frame = h.frame;
    snprintf(input, inlen, "%s", h.input);
    return 0;
}
