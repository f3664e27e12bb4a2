/* Layout (host byte order, checked on reading): a fixed header (CheckpointHeader, checkpoint.h:
 * magic, version, byte-order mark, its own size, random stream, time and counters, input name,
 * the run's record: its options as command-line words and the pictures' camera, the death count,
 * the sizes of a polygon's record and of a vertex's), then the parameters by name: a uint32
 * count, then per parameter of PARAMS_LIST its name (16 bytes, NUL-padded), its value (a double;
 * an int parameter's exactly) and a byte, 1 where the run's command line set it (--set). A
 * parameter is found by its name, so adding one changes no place in the file: a name this build
 * does not have refuses the file, and one this build has and the file lacks (added since) takes
 * the compiled header's value, with a warning. Then per polygon in order its record: the fields
 * of ENSEMBLE_POLYGON_STORED (ensemble.h) in list order, each as its file type (int32 count,
 * int32 generation, double A0 Amax alpha birth, int64 id parent, int8 phase, uint8 rigid, uint32
 * edits, uint8 attracted, double polarity h_div h_death, int32 type), then per vertex, polygon by
 * polygon, the doubles of ENSEMBLE_VERTEX_FIELDS (ensemble.h) in list order: x y vx vy l0. Gap
 * slots are not stored: the restored ensemble is contiguous, which the next remodeling pass would
 * make it anyway, so the continuation is unchanged. Then the contact list's section
 * (contact_save: its state, and the list itself; see contact.h), the chemistry's (int32 species,
 * nodes per row and column, uint64 chem_model_hash of its settings, then the concentrations as
 * doubles, species by species, row by row, and the response's forces held until the next
 * chemical step: int32 count, then per polygon int64 id and double fx, fy; a file that ends
 * before the count holds none), the count of passages as an int64 (absent: none counted), in a
 * build with cell variables (cells.h) their int32 count and per polygon in order its values as
 * doubles, the
 * build's section (Build: a tag, the parameter header's name and the digest of its rules, which
 * the Makefile makes with scripts/rules_digest.sh; absent: the rules cannot be checked), and last
 * the CRC-32 (zlib's crc32) of every byte before it, as a uint32.
 *
 * Files of other versions are refused with one line saying what wrote them (rerun, or restart
 * them with the polyhoop that wrote them). On reading, the checksum is checked first (one
 * streaming pass over the file), then the build's rules (a build of other rules would continue
 * the run with them: refused, naming both headers and digests), then every field as it is
 * parsed, each in the range of the input it stands for, then what the run's history bounds
 * (division areas, rigid polygons, edits, speeds, polygons that cross themselves, the contact
 * list against the parameters), and the first one that a run of this program could not have
 * written is named: a checkpoint is input, and nothing in it may crash the program, overflow an
 * integer or be taken silently (docs/model.md 7). */
#define _POSIX_C_SOURCE 200809L   /* fileno, fstat, open_memstream */
#include "checkpoint.h"
#include "atomic.h"
#include "cells.h"
#include "grid.h"
#include "text.h"
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* The header in memory: the file's fixed one (CheckpointHeader, whose members it has at the same
 * places: it is read and written as that) and the parameter section's values and marks. */
typedef struct Header {
    struct { CHECKPOINT_HEADER_FIELDS };
    Params P;
    ParamsSet set;   /* the parameters its command line set (--set) */
} Header;
_Static_assert(offsetof(Header, P) >= sizeof(CheckpointHeader) &&
               offsetof(Header, record) == offsetof(CheckpointHeader, record) &&
               offsetof(Header, deaths) == offsetof(CheckpointHeader, deaths),
               "Header begins with CheckpointHeader's layout");

static const char MAGIC[24] = "polyhoop checkpoint\n";
enum { VERSION = 11 };
/* what wrote the files of earlier versions, for the message that refuses them */
#define VERSION_BEFORE \
    "polyhoop before 2026-12-02, when checkpoints came to store the parameters by name"

/* The parameters' names, for the parameter section; each fits CHECKPOINT_NAME bytes with a NUL. */
#define PARAM_NAME(type, name, fmt, range) #name,
static const char *const NAMES[PARAMS_COUNT] = { PARAMS_LIST(PARAM_NAME) };
#undef PARAM_NAME
#define NAME_FITS(type, name, fmt, range) \
    _Static_assert(sizeof #name <= CHECKPOINT_NAME, \
                   "the parameter name " #name " is longer than a checkpoint's 15 characters");
PARAMS_LIST(NAME_FITS)
#undef NAME_FITS

/* Parameter k of P as a double (each int parameter's value is one exactly). */
static double param_get(const Params *P, int k)
{
    switch (k) {
#define GET(type, name, fmt, range) case PARAM_##name: return (double)P->name;
    PARAMS_LIST(GET)
#undef GET
    }
    return 0;
}

/* v into parameter k of P; 0 (P unchanged) where k is an int parameter and v no int. */
static int fits_int(double v) { return v >= INT32_MIN && v <= INT32_MAX && v == floor(v); }
static int fits_double(double v) { (void)v; return 1; }
static int param_put(Params *P, int k, double v)
{
    switch (k) {
#define PUT(type, name, fmt, range) \
    case PARAM_##name: if (!fits_##type(v)) return 0; P->name = (type)v; return 1;
    PARAMS_LIST(PUT)
#undef PUT
    }
    return 0;
}

/* Coordinates beyond COORD_LMAX lmax of the origin are refused: far beyond any run (frames every
 * Ns steps stop a vertex that moves farther than h per step), and within what the contact grid's
 * single-precision first test and cell arithmetic handle. A state whose remodeling would make
 * more than MAX_PIECES vertices is refused too, as an input is (sim.c): an edge of 1e10 would
 * be cut into more pieces than an int counts. */
#define COORD_LMAX 1e8
#define MAX_PIECES 1e8

/* The counts of a run (next id, events) are refused from COUNT_MAX on: a run makes one id per
 * polygon it creates and counts one event at a time, so it would have to create 2^62 polygons,
 * and the arithmetic that goes on from the checkpoint's values (next_id++, divisions += n) never
 * overflows. */
#define COUNT_MAX ((int64_t)1 << 62)

/* A target area is an input polygon's area, grown at its growth rate, shared out at a division
 * and added up at a fusion: one beyond AREA_MAX lmax^2, the area of the square of side
 * 2 COORD_LMAX lmax that holds every vertex, is refused. So is a rest length beyond LENGTH_MAX
 * lmax, twice that side: an input's are its edges' lengths (> 0: the OFF reader refuses repeated
 * vertices), which remodeling halves and joins, and division and fusion give their seals the
 * rest length of their length. */
#define AREA_MAX (4 * COORD_LMAX * COORD_LMAX)
#define LENGTH_MAX (4 * COORD_LMAX)

/* A concentration beyond CHEM_C_MAX is refused: far beyond any model's (the headers' are of
 * order 1), and small enough that a reaction rule's product of three (Schnakenberg's u^2 v)
 * stays finite. So is one below 0 by more than CHEM_C_ROUND of its species' largest value: a
 * chemical step lets rounding take a node below 0 by a few units in the last place of its
 * value before (chem.c), and no further. */
#define CHEM_C_MAX 1e100
#define CHEM_C_ROUND 1e-12

/* The largest Exp(1) threshold of a hazard (topology.c's threshold), -ln u with u >= 2^-54
 * (rng.h's uniform draws), 54 ln 2 = 37.43; and so the largest |N| of a standard normal draw
 * (rng_normal, rng_keyed_normals), sqrt(-2 ln u) cos(2 pi v): sqrt(108 ln 2) = 8.652. */
#define THRESHOLD_MAX (-log(0x1p-54))
#define NORMAL_MAX sqrt(2 * THRESHOLD_MAX)

/* The pictures' camera holds the vertices (within COORD_LMAX lmax) with a margin, widened to the
 * picture's aspect ratio (at most 16384:1), so within about 1e4 COORD_LMAX lmax of the origin; one
 * beyond CAMERA_MAX is refused, which keeps the picture's arithmetic finite. */
#define CAMERA_MAX 1e30

/* The build's section: the parameter header this program was built with and the digest of its
 * rules, PH_RULES_DIGEST (the Makefile's, of scripts/rules_digest.sh; a build outside the
 * Makefile has none, "none"). Its reaction, response, initial-value and cell-type rules are code,
 * which the parameters do not show: a build of another header, or of the same one edited, would
 * go on with other rules. The tag finds the section from the file's end. */
#ifndef PH_RULES_DIGEST
#define PH_RULES_DIGEST "none"
#endif
typedef struct Build { char tag[16], params[256], rules[32]; } Build;
static const char BUILD_TAG[16] = "polyhoop build\n";

/* the bytes of one polygon record */
#define RECORD_SIZE(type, name, file_type, init) + sizeof(file_type)
enum { RECORD = 0 ENSEMBLE_POLYGON_STORED(RECORD_SIZE) };
#undef RECORD_SIZE

/* the file is written as it is made (no copy of the state in memory), and checksummed on the
 * way: the first failed write is kept in bad and ends the writing */
typedef struct { FILE *f; int bad; uLong crc; } Out;

static void put(void *out, const void *d, size_t n)
{
    Out *o = out;
    if (o->bad || !n) return;
    if (fwrite(d, 1, n, o->f) != n) o->bad = errno ? errno : EIO;
    o->crc = crc32(o->crc, d, (uInt)n);   /* (a piece is at most a strip of the list, < 4 GiB) */
}

/* The checkpoint into the file from atomic_open (path), or, with mem, into that stream */
static int write_to(FILE *mem, const char *path, const Sim *s, int frame, const char *input,
                    const RunRecord *run, char *err, size_t len)
{
    const Ensemble *e = &s->e;
    Header h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, MAGIC, sizeof MAGIC);
    h.version = VERSION; h.order = 0x01020304u; h.size = sizeof(CheckpointHeader);
    h.record = RECORD; h.vertex = ENSEMBLE_NFIELDS * sizeof(double);
    h.seed = e->seed; h.draws = e->draws; h.step = e->step; h.next_id = e->next_id;
    h.divisions = s->divisions; h.removals = s->removals;
    h.fusions1 = s->fusions1; h.fusions2 = s->fusions2; h.deaths = s->deaths;
    h.twists = (int32_t)(s->remodel.twists < INT32_MAX ? s->remodel.twists : INT32_MAX);
    h.postponed = (uint32_t)(s->topology.postponed < UINT32_MAX ? s->topology.postponed
                                                                : UINT32_MAX);
    h.t = e->t; h.frame = frame; h.np = e->np; h.nv = ensemble_vertex_count(e);
    snprintf(h.input, sizeof h.input, "%s", input);
    if (run) h.run = *run;
    h.run.camera.reserved = 0;
    Out b = { mem ? mem : atomic_open(path, err, len), 0, crc32(0, NULL, 0) };
    if (!b.f) return -1;
    /* (stdio's default buffer of 4 KiB would mean a system call per 100 vertices) */
    char vbuf[1 << 16];
    if (!mem) setvbuf(b.f, vbuf, _IOFBF, sizeof vbuf);
    put(&b, &h, sizeof(CheckpointHeader));
    uint32_t nparams = PARAMS_COUNT;   /* then name, value, mark of each */
    put(&b, &nparams, sizeof nparams);
    for (int k = 0; k < PARAMS_COUNT; k++) {
        char name[CHECKPOINT_NAME] = { 0 };
        memcpy(name, NAMES[k], strlen(NAMES[k]));
        double v = param_get(&s->P, k);
        uint8_t on = (uint8_t)params_is_set(&s->set, k);
        put(&b, name, sizeof name);
        put(&b, &v, sizeof v);
        put(&b, &on, sizeof on);
    }
    for (int p = 0; p < e->np && !b.bad; p++) {
#define PUT(type, name, file_type, init) \
        { file_type x = (file_type)e->name[p]; put(&b, &x, sizeof x); }
        ENSEMBLE_POLYGON_STORED(PUT)
#undef PUT
    }
    for (int p = 0; p < e->np && !b.bad; p++)
        for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++) {
#define FIELD_AT(name) e->name[i],
            double v[ENSEMBLE_NFIELDS] = { ENSEMBLE_VERTEX_FIELDS(FIELD_AT) };
#undef FIELD_AT
            put(&b, v, sizeof v);
        }
    contact_save(&s->contact, e, put, &b);
    const Chem *ch = &s->chem;   /* int32 species, nx, ny, then the doubles (chem.h's order) */
    int32_t grid[3] = { ch->m.ns, ch->nx, ch->ny };
    uint64_t model = chem_model_hash(&ch->m);
    put(&b, grid, sizeof grid);
    put(&b, &model, sizeof model);
    if (chem_on(&ch->m)) {   /* the concentrations, then the response's held forces */
        put(&b, ch->c, (size_t)ch->m.ns * ch->nx * ch->ny * sizeof *ch->c);
        int32_t held = chem_held_forces(ch);
        put(&b, &held, sizeof held);
        for (int q = 0; q < held; q++) {
            double force[2] = { ch->fx[q], ch->fy[q] };
            put(&b, &ch->fid[q], sizeof ch->fid[q]);
            put(&b, force, sizeof force);
        }
    }
    put(&b, &s->passages, sizeof s->passages);
    if (e->nvar) {   /* the cells' variables: int32 count, then polygon by polygon */
        int32_t nvar = e->nvar;
        put(&b, &nvar, sizeof nvar);
        for (int p = 0; p < e->np && !b.bad; p++)
            put(&b, e->var + (size_t)p * e->nvar, (size_t)e->nvar * sizeof *e->var);
    }
    Build build;
    memset(&build, 0, sizeof build);
    memcpy(build.tag, BUILD_TAG, sizeof BUILD_TAG);
    snprintf(build.params, sizeof build.params, "%s", params_file);
    snprintf(build.rules, sizeof build.rules, "%s", PH_RULES_DIGEST);
    put(&b, &build, sizeof build);
    uint32_t crc = (uint32_t)b.crc;
    if (!b.bad && fwrite(&crc, sizeof crc, 1, b.f) != 1) b.bad = errno ? errno : EIO;
    if (!mem) return atomic_close(b.f, path, b.bad, 1, err, len);
    if (b.bad) snprintf(err, len, "%s", strerror(b.bad));
    return b.bad ? -1 : 0;
}

int checkpoint_write(const char *path, const Sim *s, int frame, const char *input,
                     const RunRecord *run, char *err, size_t len)
{
    return write_to(NULL, path, s, frame, input, run, err, len);
}

int checkpoint_snapshot(CheckpointBytes *b, const Sim *s, int frame, const char *input,
                        const RunRecord *run, char *err, size_t len)
{
    free(b->data);
    b->data = NULL, b->size = 0;
    FILE *f = open_memstream(&b->data, &b->size);
    if (!f) return snprintf(err, len, "%s", strerror(errno)), -1;
    int rc = write_to(f, NULL, s, frame, input, run, err, len);
    if (fclose(f) && !rc) rc = -1, snprintf(err, len, "%s", strerror(errno ? errno : ENOMEM));
    if (rc) free(b->data), b->data = NULL, b->size = 0;
    return rc;
}

int checkpoint_commit(CheckpointBytes *b, const char *path, char *err, size_t len)
{
    const void *data[1] = { b->data };
    int rc = atomic_write(path, data, &b->size, 1, 1, err, len);
    free(b->data);
    b->data = NULL, b->size = 0;
    return rc;
}

static int bad_file(char *err, size_t len, const char *path, const char *why)
{
    snprintf(err, len, "%s: %s", TEXT_ESC(path), why);
    return -1;
}

/* Writes the reason into why (if none is there yet) and returns 0, to end a chain of checks. */
static int refuse(char *why, size_t len, const char *fmt, ...)
{
    if (why[0]) return 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, len, fmt, ap);
    va_end(ap);
    return 0;
}

/* Whether the CRC-32 of the first size - 4 bytes of f equals its last 4 (read in pieces: memory
 * stays bounded whatever the file). Leaves f at its start. */
static int checksum_ok(FILE *f, uint64_t size)
{
    unsigned char buf[1 << 16];
    uLong crc = crc32(0, NULL, 0);
    uint64_t left = size - 4;
    rewind(f);
    while (left) {
        size_t n = left < sizeof buf ? (size_t)left : sizeof buf;
        if (fread(buf, 1, n, f) != n) return 0;
        crc = crc32(crc, buf, (uInt)n);
        left -= n;
    }
    uint32_t stored;
    int ok = fread(&stored, sizeof stored, 1, f) == 1 && stored == (uint32_t)crc;
    rewind(f);
    return ok;
}

/* Whether the build's section is sound and its rules are this build's; 1, or 0 with why. */
static int build_ok(const Build *b, char *why, size_t len)
{
    if (!memchr(b->params, 0, sizeof b->params) || !memchr(b->rules, 0, sizeof b->rules))
        return refuse(why, len, "the build's section is not terminated");
    if (!strcmp(b->rules, PH_RULES_DIGEST)) return 1;
    /* (the same header's name: it was edited since, or is another file of that name) */
    char fix[300];
    if (strcmp(b->params, params_file))
        snprintf(fix, sizeof fix, " (make PARAMS=%s)", TEXT_ESC(b->params));
    else snprintf(fix, sizeof fix, " as it was (it, or a header it includes, has changed since)");
    return refuse(why, len, "written by a build of %s with rules digest %s; this build (%s) has "
                  "%s: rebuild with the run's header%s", TEXT_ESC(b->params), TEXT_ESC(b->rules),
                  params_file, PH_RULES_DIGEST, fix);
}

/* The header's fields, every one that the polygons do not check; 1, or 0 with the reason in why. */
static int header_ok(const Header *h, char *why, size_t len)
{
    char msg[256];
    if (params_check(&h->P, msg, sizeof msg)) return refuse(why, len, "parameters: %s", msg);
    if (!memchr(h->input, 0, sizeof h->input))
        return refuse(why, len, "the input name is not terminated");
    if (!memchr(h->run.options, 0, sizeof h->run.options))
        return refuse(why, len, "the run's options are not terminated");
    /* (fitted: a rectangle the pictures can take, see CAMERA_MAX; else all 0) */
    const PngCamera *c = &h->run.camera;
    const PngView *v = &c->view;
    if (c->state < 0 || c->state > 1 || c->reserved ||
        (c->state ? !(fabs(v->x0) <= CAMERA_MAX && fabs(v->y0) <= CAMERA_MAX &&
                      fabs(v->x1) <= CAMERA_MAX && fabs(v->y1) <= CAMERA_MAX &&
                      v->x0 < v->x1 && v->y0 < v->y1)
                  : v->x0 != 0 || v->y0 != 0 || v->x1 != 0 || v->y1 != 0))
        return refuse(why, len, "the pictures' camera is out of range");
    if (h->twists < 0) return refuse(why, len, "the count of twists cut out is negative");
    /* (-n and -s, never a run's --set) */
    if (params_is_set(&h->set, PARAM_Nf) || params_is_set(&h->set, PARAM_Ns))
        return refuse(why, len, "its parameters set on the command line name Nf or Ns (-n, -s), "
                      "which are not kept so");
    if (h->seed > INT32_MAX)
        return refuse(why, len, "seed %llu is out of range (0 to %d)", (unsigned long long)h->seed,
                      INT32_MAX);
    if (h->draws > (1ull << 53))
        return refuse(why, len, "the random stream's draw count %llu is more than a run can take",
                      (unsigned long long)h->draws);
    if (h->step < 0) return refuse(why, len, "step %lld is negative", (long long)h->step);
    if (h->t != (double)h->step * h->P.dt)
        return refuse(why, len, "t = %.17g is not step * dt = %.17g", h->t,
                      (double)h->step * h->P.dt);
    if (h->frame < 0 || h->frame != h->step / h->P.Ns)
        return refuse(why, len, "frame %d does not match step %lld (%d steps per frame)", h->frame,
                      (long long)h->step, h->P.Ns);
    /* (frames are numbered by an int, and the first one a restart writes is frame + 1; with the
     * frame bounded, so is the step: below 2^31 Ns <= 2^62) */
    if (h->frame == INT32_MAX)
        return refuse(why, len, "frame %d is the last a run can number: there is nothing to "
                      "continue", h->frame);
    if (h->next_id < 0) return refuse(why, len, "next id %lld is negative", (long long)h->next_id);
    if (h->next_id >= COUNT_MAX)
        return refuse(why, len, "next id %lld is more ids than a run can hand out",
                      (long long)h->next_id);
    if (h->divisions < 0 || h->removals < 0 || h->fusions1 < 0 || h->fusions2 < 0 ||
        h->deaths < 0)
        return refuse(why, len, "an event count is negative");
    if (h->divisions >= COUNT_MAX || h->removals >= COUNT_MAX || h->fusions1 >= COUNT_MAX ||
        h->fusions2 >= COUNT_MAX || h->deaths >= COUNT_MAX)
        return refuse(why, len, "an event count is more than a run can count");
    if (h->np < 0 || h->nv < 0 || (int64_t)h->nv < 3 * (int64_t)h->np)
        return refuse(why, len, "%d polygons cannot have %d vertices", h->np, h->nv);
    if (h->nv > MAX_PIECES)   /* (remodeling keeps at least one vertex per edge: see vertices_ok) */
        return refuse(why, len, "%d vertices are more than a checkpoint may hold (%g)", h->nv,
                      MAX_PIECES);
    return 1;
}

/* The range of a division area drawn for a cell of type t by topology_draw_traits: lognormal
 * with mean mu (Amax_mu: the header's, or the cell type's own) and coefficient of variation cv,
 * mu exp(s N - s^2 / 2) with s^2 = ln(1 + cv^2) (rng_lognormal). Its standard normal N is
 * sqrt(-2 ln u) cos(2 pi v) with u >= 2^-54 (rng_uniform), so |N| <= sqrt(108 ln 2) = 8.652: the
 * draw lies within mu exp(+-8.652 s - s^2 / 2), here widened by 1e-9 for the rounding of exp and
 * the product (cv = 0: mu itself). A response rule may change a cell's type (docs/model.md 11),
 * so with types of their own the range is that of all of them. */
static void amax_range(const Sim *s, const Params *P, double *lo, double *hi)
{
    double s2 = log1p(P->Amax_CV * P->Amax_CV), sd = sqrt(s2), nmax = NORMAL_MAX;
    double down = exp(-nmax * sd - 0.5 * s2) * (1 - 1e-9);
    double up = exp(nmax * sd - 0.5 * s2) * (1 + 1e-9);
    *lo = P->Amax_mu * down;
    *hi = P->Amax_mu * up;
    for (int t = 0; s->type_params && t < s->chem.m.ntypes; t++) {
        *lo = fmin(*lo, s->type_params[t].Amax_mu * down);
        *hi = fmax(*hi, s->type_params[t].Amax_mu * up);
    }
}

/* The largest |growth rate| of a polygon of a run with next_id ids handed out, or +inf where this
 * build's response rule sets the growth rates (any finite one: chem_respond refuses the others).
 * topology_draw_traits draws each polygon's, for its type: normal, mu + CV |mu| N, or lognormal,
 * mu exp(s N - s^2 / 2) with s^2 = ln(1 + CV^2), |N| <= NORMAL_MAX; a fusion adds two up (or
 * subtracts the inner one's), a split shares one out: each is made of at most next_id draws. */
static double alpha_max(const Sim *s, const Params *P, int64_t next_id)
{
    if (s->chem.m.response) return INFINITY;
    double most = 0;
    for (int t = -1; t < (s->type_params ? s->chem.m.ntypes : 0); t++) {
        const Params *Q = t < 0 ? P : &s->type_params[t];
        double s2 = log1p(Q->alpha_CV * Q->alpha_CV);
        most = fmax(most, Q->alpha_normal
                              ? fabs(Q->alpha_mu) * (1 + Q->alpha_CV * NORMAL_MAX)
                              : fabs(Q->alpha_mu) * exp(NORMAL_MAX * sqrt(s2) - 0.5 * s2));
    }
    return most * (double)(next_id > 1 ? next_id : 1) * (1 + 1e-9);
}

/* The growth rates of the polygons of s (read from h), within alpha_max: after the chemistry's
 * section, which says first whether its rules are this build's. 1, or 0 with why. */
static int alphas_ok(const Sim *s, const Header *h, char *why, size_t len)
{
    double most = alpha_max(s, &h->P, h->next_id);
    for (int p = 0; p < s->e.np; p++)
        if (!(fabs(s->e.alpha[p]) <= most))
            return refuse(why, len, "polygon %d: alpha = %g is not a growth rate the run could "
                          "give (at most %g in size: %lld draws of alpha_mu and alpha_CV)", p,
                          s->e.alpha[p], most, (long long)(h->next_id > 1 ? h->next_id : 1));
    return 1;
}

/* One polygon record (p of the file, read into in); 1, or 0 with the field in why. Besides each
 * field's own range, what the run's history bounds (h: the header): a generation grows by at
 * most 2 per step (a fusion or split, then a division), a polygon's vertex list is rewritten by
 * at most one remodeling per step and one per frame check (edits), the rigid polygons are the
 * input's first Nr (ids 0 .. Nr - 1, never removed), only movable polygons feel the attractor,
 * and none without att_n, a division area is one a draw can give (amax_range), a target area
 * one of an input (AREA_MAX), a polarity one that rotational diffusion reaches in h->step steps,
 * a hazard 0 without its rate (and a rigid polygon's always), and a death hazard below every
 * threshold (the polygon survived it). (The growth rates: alphas_ok.) */
static int record_ok(const Sim *s, const Ensemble *in, int p, const Header *h, double amax_lo,
                     double amax_hi, int vertices_left, char *why, size_t len)
{
    const char *f = NULL;
    const Params *P = &h->P;
    int ntypes = s->chem.m.ntypes > 0 ? s->chem.m.ntypes : 1;
    if (in->count[p] < 3 || in->count[p] > vertices_left) f = "count";
    else if (in->gen[p] < 0 || in->gen[p] > 2 * h->step) f = "gen";
    else if (!isfinite(in->A0[p])) f = "A0";
    else if (!(in->Amax[p] > 0)) f = "Amax";   /* (+inf: rigid, never divides; others below) */
    else if (!isfinite(in->alpha[p])) f = "alpha";
    else if (!(in->birth[p] >= 0 && in->birth[p] <= h->t)) f = "birth";
    else if (in->id[p] < 0 || in->id[p] >= h->next_id) f = "id";
    else if (in->parent[p] < -1 || in->parent[p] >= in->id[p]) f = "parent";   /* (ids grow) */
    else if (in->phase[p] != 1 && in->phase[p] != -1) f = "phase";
    else if (in->rigid[p] != 0 && in->rigid[p] != 1) f = "rigid";
    else if (in->attracted[p] != 0 && in->attracted[p] != 1) f = "attracted";
    else if (!isfinite(in->polarity[p])) f = "polarity";
    else if (!(in->h_div[p] >= 0 && in->h_div[p] < INFINITY)) f = "h_div";
    else if (!(in->h_death[p] >= 0 && in->h_death[p] < INFINITY)) f = "h_death";
    if (f) return refuse(why, len, "polygon %d: %s is out of range", p, f);
    if (in->type[p] < 0 || in->type[p] >= ntypes)
        return refuse(why, len, "polygon %d: type %d is out of range (this build has %d cell "
                      "type%s)", p, in->type[p], ntypes, ntypes > 1 ? "s" : "");
    if (in->edits[p] > (uint64_t)h->step + (uint64_t)h->frame + 1)
        return refuse(why, len, "polygon %d: edits = %lu is more than the %lld remodelings of "
                      "%lld steps and %d frame checks", p, (unsigned long)in->edits[p],
                      (long long)h->step + h->frame + 1, (long long)h->step, h->frame + 1);
    if (in->rigid[p] != (in->id[p] < h->P.Nr)) {
        if (h->P.Nr == 0)
            return refuse(why, len, "polygon %d (id %lld) is rigid, but Nr = 0: the run has no "
                          "rigid polygons", p, (long long)in->id[p]);
        return refuse(why, len, "polygon %d (id %lld) is %s, but the rigid polygons are the "
                      "input's first Nr = %d (ids 0 .. %d)", p, (long long)in->id[p],
                      in->rigid[p] ? "rigid" : "not rigid", h->P.Nr, h->P.Nr - 1);
    }
    /* the values an input, its draws and the run's steps give (AREA_MAX, alpha_max: above) */
    double area_max = AREA_MAX * P->lmax * P->lmax;
    /* (A0 <= 0: the step that made it removed the polygon) */
    if (!(in->A0[p] > 0 && in->A0[p] <= area_max))
        return refuse(why, len, "polygon %d: A0 = %g is not a target area in (0, %g] (%g lmax^2)",
                      p, in->A0[p], area_max, AREA_MAX);
    /* (the polarity: the input's angle in [0, 2 pi), then sqrt(2 Dr dt) N per time step) */
    double turn = 6.283185307179586 +
                  (double)h->step * NORMAL_MAX * sqrt(2 * P->Dr * P->dt) * (1 + 1e-9);
    if (!(fabs(in->polarity[p]) <= turn))
        return refuse(why, len, "polygon %d: polarity = %g is beyond the %g radians that %lld "
                      "steps of rotational diffusion (Dr = %g) reach", p, in->polarity[p], turn,
                      (long long)h->step, P->Dr);
    if ((in->rigid[p] || P->k_div == 0) && in->h_div[p] != 0)
        return refuse(why, len, "polygon %d: h_div = %g, but %s: its division hazard stays 0", p,
                      in->h_div[p], in->rigid[p] ? "it is rigid" : "k_div = 0");
    if ((in->rigid[p] || P->k_death == 0) && in->h_death[p] != 0)
        return refuse(why, len, "polygon %d: h_death = %g, but %s: its death hazard stays 0", p,
                      in->h_death[p], in->rigid[p] ? "it is rigid" : "k_death = 0");
    if (!(in->h_death[p] < THRESHOLD_MAX))
        return refuse(why, len, "polygon %d: h_death = %g is past every death threshold (below "
                      "%.4g): the polygon would have died", p, in->h_death[p], THRESHOLD_MAX);
    if (in->attracted[p] && (in->rigid[p] || h->P.att_n == 0))
        return refuse(why, len, "polygon %d feels the attractor, but %s", p,
                      in->rigid[p] ? "it is rigid" : "att_n = 0");
    if (!in->rigid[p] && !(in->Amax[p] >= amax_lo && in->Amax[p] <= amax_hi))
        return refuse(why, len, "polygon %d: Amax = %g is not a division area the run could draw "
                      "(%.6g to %.6g, from Amax_mu and Amax_CV)", p, in->Amax[p], amax_lo,
                      amax_hi);
    return 1;
}

static int cmp_id(const void *a, const void *b)
{
    const int64_t *x = a, *y = b;
    return (x[0] > y[0]) - (x[0] < y[0]);
}

/* Whether the polygon ids are unique (sorted with their polygon index). */
static int ids_unique(const Ensemble *in, char *why, size_t len)
{
    int64_t (*k)[2] = malloc(((size_t)in->np + 1) * sizeof *k);
    if (!k) return refuse(why, len, "out of memory");
    for (int p = 0; p < in->np; p++) { k[p][0] = in->id[p]; k[p][1] = p; }
    qsort(k, (size_t)in->np, sizeof *k, cmp_id);
    int ok = 1;
    for (int p = 1; p < in->np && ok; p++)
        if (k[p][0] == k[p - 1][0])
            ok = refuse(why, len, "polygon %lld: id %lld is also that of polygon %lld",
                        (long long)(k[p][1] > k[p - 1][1] ? k[p][1] : k[p - 1][1]),
                        (long long)k[p][0],
                        (long long)(k[p][1] > k[p - 1][1] ? k[p - 1][1] : k[p][1]));
    free(k);
    return ok;
}

/* The n vertices of polygon p, by field (c[V_x .. V_l0]): finite, within reach of the grid, rest
 * lengths as an input's edges give (LENGTH_MAX), no faster than the run lets a vertex move (h/dt:
 * integrate.c stops the run at a faster one; the velocities that remodeling, division and fusion
 * give are means or copies of those, hence the 1e-9 of rounding; a rigid polygon's stay 0),
 * counter-clockwise, and not remodeled into too many pieces (*pieces counts them). */
static int vertices_ok(double *const c[ENSEMBLE_NFIELDS], int n, int p, int rigid, const Params *P,
                       double *pieces, char *why, size_t len)
{
#define FIELD_NAME(name) #name,
    static const char *const name[ENSEMBLE_NFIELDS] = { ENSEMBLE_VERTEX_FIELDS(FIELD_NAME) };
#undef FIELD_NAME
    const double *x = c[V_x], *y = c[V_y];
    double bound = COORD_LMAX * P->lmax, area = 0;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < ENSEMBLE_NFIELDS; j++)
            if (!isfinite(c[j][i]))
                return refuse(why, len, "polygon %d: %s of vertex %d is not finite", p, name[j], i);
        for (int j = V_x; j <= V_y; j++)
            if (fabs(c[j][i]) > bound)
                return refuse(why, len, "polygon %d: %s of vertex %d is %g, beyond %g lmax", p,
                              name[j], i, c[j][i], COORD_LMAX);
        if (!(c[V_l0][i] > 0 && c[V_l0][i] <= LENGTH_MAX * P->lmax))
            return refuse(why, len, "polygon %d: l0 of vertex %d is %g, not a rest length in "
                          "(0, %g] (%g lmax)", p, i, c[V_l0][i], LENGTH_MAX * P->lmax, LENGTH_MAX);
        double v2 = c[V_vx][i] * c[V_vx][i] + c[V_vy][i] * c[V_vy][i], vmax = P->h / P->dt;
        if (rigid && v2 > 0)
            return refuse(why, len, "polygon %d is rigid, but vertex %d moves (speed %g)", p, i,
                          hypot(c[V_vx][i], c[V_vy][i]));
        if (v2 > vmax * vmax * (1 + 1e-9))
            return refuse(why, len, "polygon %d: vertex %d moves at speed %g, faster than h/dt = "
                          "%g (a run stops at a faster vertex)", p, i,
                          hypot(c[V_vx][i], c[V_vy][i]), vmax);
    }
    for (int i = 0; i < n; i++) {   /* (each edge once both its ends are known to be sane) */
        int k = i + 1 < n ? i + 1 : 0;
        *pieces += remodel_pieces(hypot(x[k] - x[i], y[k] - y[i]), P->lmax);
        if (*pieces > MAX_PIECES)
            return refuse(why, len, "polygon %d: vertex %d: remodeling would create more than %g "
                          "vertices", p, i, MAX_PIECES);
        area += x[i] * y[k] - x[k] * y[i];
    }
    return area > 0 ? 1 : refuse(why, len, "polygon %d is not counter-clockwise (area %g)", p,
                                 area / 2);
}

/* The longest edge of e. */
static double longest_edge(const Ensemble *e)
{
    double l = 0;
    for (int p = 0; p < e->np; p++)
        for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++) {
            int j = ens_next(e, i);
            l = fmax(l, hypot(e->x[j] - e->x[i], e->y[j] - e->y[i]));
        }
    return l;
}

/* Whether no polygon of s crosses itself (two of its edges that share no vertex cross; the
 * grid's test, as sim_check_frame does it). The state of a frame has passed that check before it
 * was written, so the checkpoint of a frame (h->step a multiple of Ns) has no such polygon. One
 * written between frames (a signal's) may hold a twist of its last step, which the remodeling
 * that the next step begins with cuts out (docs/model.md 4): a crossing that remains after that
 * remodeling, done on a copy (the state itself is left as the run left it), is refused. */
static int simple_ok(Sim *s, const Header *h, char *why, size_t len)
{
    Ensemble *e = &s->e;   /* (read only: A and L stay as the next step finds them) */
    int a, b, crossing = grid_crossing(e, longest_edge(e), 1, &a, &b);
    if (crossing && h->step % h->P.Ns) {
        Ensemble c;
        Remodel r;
        ensemble_init(&c, 0);
        remodel_init(&r);
        for (int p = 0; p < e->np; p++) {
            int q = ensemble_push_polygon(&c, e->count[p], e->x + e->start[p],
                                          e->y + e->start[p], e->vx + e->start[p],
                                          e->vy + e->start[p], e->l0 + e->start[p]);
            c.rigid[q] = e->rigid[p];
        }
        remodel_apply(&c, &h->P, &r);
        /* (polygons keep their order) */
        crossing = grid_crossing(&c, longest_edge(&c), 1, &a, &b);
        remodel_free(&r);
        ensemble_free(&c);
    }
    return crossing ? refuse(why, len, "polygon %d (id %lld) crosses itself: two of its edges "
                             "that share no vertex cross", a, (long long)e->id[a])
                    : 1;
}

/* The response's forces held until the next chemical step (a checkpoint between two, a
 * signal's): the polygons' ids (distinct, below next_id) and finite forces. A file that ends after
 * the concentrations holds none: its restart adds no force until the next chemical step. 1, or 0
 * with why. */
static int held_forces_ok(Chem *ch, FILE *f, off_t end, int64_t next_id, char *why, size_t len)
{
    off_t here = ftello(f);
    if (here == end) { chem_set_held_forces(ch, 0, NULL, NULL, NULL); return 1; }
    int32_t n;
    if (here < 0 || end - here < (off_t)sizeof n || fread(&n, sizeof n, 1, f) != 1)
        return refuse(why, len, "the chemistry's held forces are cut short");
    if (n < 0 || (uint64_t)n * 24 > (uint64_t)(end - here - (off_t)sizeof n))
        return refuse(why, len, "the chemistry holds forces of %d polygons, more than the file "
                      "has room for", (int)n);
    int64_t *id = ph_realloc(NULL, ((size_t)n + 1) * sizeof *id);
    double *fx = ph_realloc(NULL, ((size_t)n + 1) * sizeof *fx);
    double *fy = ph_realloc(NULL, ((size_t)n + 1) * sizeof *fy);
    int ok = 1;
    for (int q = 0; ok && q < n; q++) {
        double force[2];
        if (fread(&id[q], sizeof id[q], 1, f) != 1 || fread(force, sizeof force, 1, f) != 1)
            ok = refuse(why, len, "the chemistry's held forces are cut short");
        else if (id[q] < 0 || id[q] >= next_id)
            ok = refuse(why, len, "the chemistry holds a force of polygon id %lld, not below the "
                        "next id %lld", (long long)id[q], (long long)next_id);
        else if (!isfinite(force[0]) || !isfinite(force[1]))
            ok = refuse(why, len, "the chemistry's held force of polygon id %lld is not finite",
                        (long long)id[q]);
        else fx[q] = force[0], fy[q] = force[1];
    }
    if (ok) chem_set_held_forces(ch, n, id, fx, fy);
    for (int q = 1; ok && q < n; q++)   /* (sorted by id now: a repeated id is next to its twin) */
        if (ch->fid[ch->byid[q]] == ch->fid[ch->byid[q - 1]])
            ok = refuse(why, len, "the chemistry holds two forces of polygon id %lld",
                        (long long)ch->fid[ch->byid[q]]);
    free(id); free(fx); free(fy);
    return ok;
}

/* The chemistry's section into ch (set up by sim_chemistry for this build): the same species and
 * grid, every concentration finite, >= 0 but for rounding and at most CHEM_C_MAX (as chem_init
 * checks the initial ones), and the held forces. 1, or 0 with why. */
static int fields_ok(Chem *ch, FILE *f, off_t end, int64_t next_id, char *why, size_t len)
{
    int32_t grid[3];
    uint64_t model;
    if (fread(grid, sizeof grid, 1, f) != 1 || fread(&model, sizeof model, 1, f) != 1)
        return refuse(why, len, "the chemistry's section is missing");
    if (grid[0] != ch->m.ns || (ch->m.ns > 0 && (grid[1] != ch->nx || grid[2] != ch->ny)))
        return refuse(why, len, "its chemistry (%d species on %d x %d nodes) is not this build's "
                      "(%d species on %d x %d nodes)", (int)grid[0], (int)grid[1], (int)grid[2],
                      ch->m.ns, ch->nx, ch->ny);
    if (model != chem_model_hash(&ch->m))
        return refuse(why, len, "it was run with other cell types or species settings than this "
                      "build's (see the banner's chemistry lines)");
    if (!chem_on(&ch->m)) return 1;
    size_t n = (size_t)ch->m.ns * ch->nx * ch->ny;
    off_t here = ftello(f);
    if (here < 0 || (uint64_t)(end - here) < n * sizeof(double))
        return refuse(why, len, "the chemistry's fields are cut short");
    if (fread(ch->c, sizeof *ch->c, n, f) != n)
        return refuse(why, len, "the chemistry's fields are cut short");
    const size_t nodes = (size_t)ch->nx * ch->ny;
    /* (finite, then within CHEM_C_ROUND of 0 below and CHEM_C_MAX above) */
    for (int sp = 0; sp < ch->m.ns; sp++) {
        const double *c = ch->c + (size_t)sp * nodes;
        double most = 0;
        size_t k = 0;
        for (; k < nodes && isfinite(c[k]); k++) most = fmax(most, c[k]);
        for (size_t q = 0; k == nodes && q < nodes; q++)
            if (!(c[q] >= -CHEM_C_ROUND * most && c[q] <= CHEM_C_MAX)) k = q;
        if (k == nodes) continue;
        const int i = (int)(k % ch->nx), j = (int)(k / ch->nx);
        return refuse(why, len, "the chemistry's species %d (%s) is %g at node (%d, %d), "
                      "(x, y) = (%g, %g): expected a finite concentration from 0 (less %g of the "
                      "species' largest, for rounding) to %g", sp,
                      ch->m.sp[sp].name ? TEXT_ESC(ch->m.sp[sp].name) : "?", c[k], i, j,
                      ch->m.x0 + i * ch->m.dx, ch->m.y0 + j * ch->m.dx, CHEM_C_ROUND, CHEM_C_MAX);
    }
    return held_forces_ok(ch, f, end, next_id, why, len);
}

/* The cells' variables (after the count of passages), into e (bound to this build's model): as
 * many per polygon as this build's P_CELL_VARS names, every one finite. 1, or 0 with why. */
static int vars_ok(Ensemble *e, FILE *f, off_t end, char *why, size_t len)
{
    if (!e->nvar) return 1;
    int32_t n;
    off_t here = ftello(f);
    if (here < 0 || end - here < (off_t)sizeof n || fread(&n, sizeof n, 1, f) != 1)
        return refuse(why, len, "the cells' variables are missing (this build has %d)", e->nvar);
    if (n != e->nvar)
        return refuse(why, len, "its cells have %d variables, this build's %d", (int)n, e->nvar);
    const size_t count = (size_t)e->np * e->nvar;
    if ((uint64_t)(end - here - (off_t)sizeof n) < count * sizeof(double) ||
        fread(e->var, sizeof *e->var, count, f) != count)
        return refuse(why, len, "the cells' variables are cut short");
    for (size_t k = 0; k < count; k++)
        if (!isfinite(e->var[k]))
            return refuse(why, len, "variable %d (%s) of polygon %zu is not finite",
                          (int)(k % e->nvar), TEXT_ESC(e->model->var[k % e->nvar].name),
                          k / e->nvar);
    return 1;
}

/* The parameter section, from f's place and within room bytes, into h->P and h->set: every name
 * one of PARAMS_LIST, once, an int parameter's value an int, a mark 0 or 1. A parameter that the
 * file lacks (added to the program since) takes this build's header's value, params_compiled's
 * (the rules digest says the build is the run's), unmarked, and its name goes into missing
 * (", "-separated; "" when none). Ranges and rules: header_ok's. 1, or 0 with why. */
static int params_read(FILE *f, uint64_t room, Header *h, char *missing, size_t mlen, char *why,
                       size_t len)
{
    uint32_t n;
    if (room < sizeof n || fread(&n, sizeof n, 1, f) != 1)
        return refuse(why, len, "its parameter section is cut short");
    if (n > (room - sizeof n) / CHECKPOINT_PARAM)
        return refuse(why, len, "it holds %lu parameters, more than the file has room for",
                      (unsigned long)n);
    h->P = params_compiled;
    memset(&h->set, 0, sizeof h->set);
    unsigned char seen[PARAMS_COUNT] = { 0 };
    for (uint32_t q = 0; q < n; q++) {
        char name[CHECKPOINT_NAME];
        double v;
        uint8_t on;
        if (fread(name, sizeof name, 1, f) != 1 || fread(&v, sizeof v, 1, f) != 1 ||
            fread(&on, sizeof on, 1, f) != 1)
            return refuse(why, len, "its parameter section is cut short");
        if (!memchr(name, 0, sizeof name))
            return refuse(why, len, "the name of its parameter %lu is not terminated",
                          (unsigned long)q);
        int k = 0;
        while (k < PARAMS_COUNT && strcmp(name, NAMES[k])) k++;
        if (k == PARAMS_COUNT)
            return refuse(why, len, "it holds the parameter %s, which this polyhoop does not have: "
                          "restart it with the polyhoop that wrote it", TEXT_ESC(name));
        if (seen[k]++) return refuse(why, len, "it holds the parameter %s twice", name);
        if (on > 1)
            return refuse(why, len, "the parameter %s is marked %u, not 0 or 1 (set on the command "
                          "line)", name, on);
        if (!param_put(&h->P, k, v))
            return refuse(why, len, "parameters: %s = %.17g is not an integer", name, v);
        if (on) h->set.bits[k / 64] |= (uint64_t)1 << (k % 64);
    }
    size_t used = 0;
    missing[0] = 0;
    for (int k = 0; k < PARAMS_COUNT; k++)
        if (!seen[k] && used < mlen)
            used += (size_t)snprintf(missing + used, mlen - used, "%s%s", used ? ", " : "",
                                     NAMES[k]);
    return 1;
}

/* The fixed header of f into h, if f holds a whole one: 1 where it is this format's, written on
 * this kind of machine; else 0 with why (and *old, the version of an earlier format's file). */
static int fixed_ok(FILE *f, uint64_t size, Header *h, unsigned *old, char *why, size_t len)
{
    size_t got = fread(h, 1, sizeof(CheckpointHeader), f);
    *old = 0;
    if (got >= offsetof(CheckpointHeader, order) && !memcmp(h->magic, MAGIC, sizeof MAGIC) &&
        h->version >= 1 && h->version < VERSION)
        return *old = h->version, refuse(why, len, "written by format version %u", h->version);
    if (got < sizeof(CheckpointHeader) || size < sizeof(CheckpointHeader) + 8)
        return refuse(why, len, "too short for a checkpoint");
    if (memcmp(h->magic, MAGIC, sizeof MAGIC) || h->version != VERSION)
        return refuse(why, len, "not a polyhoop checkpoint (or another version)");
    if (h->order != 0x01020304u || h->size != sizeof(CheckpointHeader) || h->record != RECORD ||
        h->vertex != ENSEMBLE_NFIELDS * sizeof(double))
        return refuse(why, len, "written on a different kind of machine or build");
    return 1;
}

int checkpoint_read(const char *path, Sim *s, int *frame, char *input, size_t inlen,
                    RunRecord *run, char *err, size_t len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, len, "%s: cannot open (%s)", TEXT_ESC(path), strerror(errno));
        return -1;
    }
    Header h;
    struct stat st;
    char why[512] = "", missing[1024];
    unsigned old;
    if (fstat(fileno(f), &st) != 0) {
        fclose(f);
        return bad_file(err, len, path, "too short for a checkpoint");
    }
    if (!fixed_ok(f, (uint64_t)st.st_size, &h, &old, why, sizeof why)) {
        fclose(f);
        if (!old) return bad_file(err, len, path, why);
        snprintf(err, len, "%s was written by format version %u (%s); this polyhoop reads version "
                 "%d: rerun, or restart it with the polyhoop that wrote it", TEXT_ESC(path), old,
                 VERSION_BEFORE, VERSION);
        return -1;
    }
    if (!checksum_ok(f, (uint64_t)st.st_size)) {
        fclose(f);
        return bad_file(err, len, path, "checksum mismatch (the file is damaged)");
    }
    off_t end = st.st_size - 4;   /* (the checksum) */
    if (fseeko(f, (off_t)sizeof(CheckpointHeader), SEEK_SET) != 0 ||
        !params_read(f, (uint64_t)(end - (off_t)sizeof(CheckpointHeader)), &h, missing,
                     sizeof missing, why, sizeof why) ||
        !header_ok(&h, why, sizeof why)) {
        fclose(f);
        return bad_file(err, len, path, why);
    }
    const off_t body = ftello(f);   /* (the polygons' records start here) */
    Build build;   /* (found from the end, before anything of this build's is compared) */
    int has_build = body >= 0 && end - body >= (off_t)sizeof build &&
                    fseeko(f, end - (off_t)sizeof build, SEEK_SET) == 0 &&
                    fread(&build, sizeof build, 1, f) == 1 &&
                    !memcmp(build.tag, BUILD_TAG, sizeof BUILD_TAG);
    if (has_build && !build_ok(&build, why, sizeof why)) {
        fclose(f);
        return bad_file(err, len, path, why);
    }
    if (has_build) end -= (off_t)sizeof build;
    Ensemble *e = &s->e;
    contact_invalidate(&s->contact);   /* (the new ensemble's layout counter starts again) */
    ensemble_free(e);
    ensemble_init(e, h.seed);
    cells_bind(e, &s->chem.m);
    s->P = h.P;
    /* the polygon records, into the polygon arrays of `in` (after a check that the file can hold
     * that many, so that a corrupt count cannot ask for all memory) */
    Ensemble in;
    ensemble_init(&in, 0);
    double amax_lo, amax_hi;
    amax_range(s, &h.P, &amax_lo, &amax_hi);
    int total = 0, rigid = 0, ok = body >= 0 && end >= body && fseeko(f, body, SEEK_SET) == 0 &&
                                   (uint64_t)h.np <= (uint64_t)(end - body) / RECORD;
    if (ok) ensemble_reserve(&in, 0, h.np);
    for (int p = 0; ok && p < h.np; p++) {
#define GET(type, name, file_type, init) \
        { file_type x = 0; ok = ok && fread(&x, sizeof x, 1, f) == 1; in.name[p] = (type)x; }
        ENSEMBLE_POLYGON_STORED(GET)
#undef GET
        ok = ok && record_ok(s, &in, p, &h, amax_lo, amax_hi, h.nv - total, why, sizeof why);
        if (ok) total += in.count[p];
        if (ok) rigid += in.rigid[p];
    }
    in.np = ok ? h.np : 0;
    if (ok && total != h.nv)
        ok = refuse(why, sizeof why, "the polygons have %d vertices, not %d", total, h.nv);
    if (ok && rigid != h.P.Nr)
        ok = refuse(why, sizeof why, "%d polygons are rigid, not Nr = %d", rigid, h.P.Nr);
    ok = ok && ids_unique(&in, why, sizeof why);
    /* the vertices, polygon by polygon, straight into the ensemble (no copy of them all) */
    off_t here = ok ? ftello(f) : -1;
    ok = ok && here >= 0 && end >= here &&
         (uint64_t)h.nv <= (uint64_t)(end - here) / (ENSEMBLE_NFIELDS * sizeof(double));
    int nmax = 0;
    for (int p = 0; ok && p < h.np; p++) nmax = in.count[p] > nmax ? in.count[p] : nmax;
    /* as read, and by field */
    double *v = ok ? malloc(((size_t)nmax + 1) * 2 * ENSEMBLE_NFIELDS * sizeof *v) : NULL;
    ok = ok && v;
    if (ok) ensemble_reserve(e, h.nv, h.np);
    double pieces = 0;
    for (int p = 0; ok && p < h.np; p++) {
        int n = in.count[p];
        double *c[ENSEMBLE_NFIELDS];
        for (int j = 0; j < ENSEMBLE_NFIELDS; j++) c[j] = v + (size_t)nmax * (ENSEMBLE_NFIELDS + j);
        ok = fread(v, ENSEMBLE_NFIELDS * sizeof *v, (size_t)n, f) == (size_t)n;
        for (int i = 0; ok && i < n; i++)
            for (int j = 0; j < ENSEMBLE_NFIELDS; j++) c[j][i] = v[ENSEMBLE_NFIELDS * i + j];
        ok = ok && vertices_ok(c, n, p, in.rigid[p], &h.P, &pieces, why, sizeof why);
        if (!ok) break;
        int q = ensemble_push_polygon(e, n, c[V_x], c[V_y], c[V_vx], c[V_vy], c[V_l0]);
#define SET(type, name, file_type, init) e->name[q] = in.name[p];
        ENSEMBLE_POLYGON_STORED(SET)
#undef SET
    }
    /* the contact list, then nothing but the checksum */
    here = ok ? ftello(f) : -1;
    size_t left = ok && here >= 0 && end >= here ? (size_t)(end - here) : 0;
    if (ok && contact_load(&s->contact, e, f, left, &h.P, h.step, why, sizeof why) != 0) ok = 0;
    ok = ok && fields_ok(&s->chem, f, end, h.next_id, why, sizeof why) &&
         alphas_ok(s, &h, why, sizeof why);
    int64_t passages = 0;   /* (a file that ends after the chemistry's section counted none) */
    if (ok && ftello(f) != end) {
        if (end - ftello(f) < (off_t)sizeof passages ||
            fread(&passages, sizeof passages, 1, f) != 1)
            ok = refuse(why, sizeof why, "%lld bytes follow the chemistry's section",
                        (long long)(end - ftello(f)));
        else if (passages < 0 || passages >= COUNT_MAX)
            ok = refuse(why, sizeof why, "its count of passages %lld is out of range",
                        (long long)passages);
    }
    ok = ok && vars_ok(e, f, end, why, sizeof why);
    if (ok && ftello(f) != end)
        ok = refuse(why, sizeof why, "%lld bytes follow the %s", (long long)(end - ftello(f)),
                    e->nvar ? "cells' variables" : "count of passages");
    ok = ok && simple_ok(s, &h, why, sizeof why);
    fclose(f);
    ensemble_free(&in);
    free(v);
    if (!ok) {   /* (no half-read ensemble is left behind, nor a list for it) */
        contact_invalidate(&s->contact);
        ensemble_free(e);
        ensemble_init(e, h.seed);
        cells_bind(e, &s->chem.m);
        return bad_file(err, len, path, why[0] ? why : "truncated or corrupt");
    }
    e->draws = h.draws; e->step = h.step; e->next_id = h.next_id; e->t = h.t;
    s->divisions = h.divisions; s->removals = h.removals;
    s->fusions1 = h.fusions1; s->fusions2 = h.fusions2; s->deaths = h.deaths;
    s->passages = passages;
    s->remodel.twists = h.twists;
    s->topology.postponed = h.postponed;
    s->set = h.set;
    *frame = h.frame;
    snprintf(input, inlen, "%s", h.input);
    if (run) *run = h.run;
    if (!has_build)
        fprintf(stderr, "polyhoop: %s: warning: written by an earlier polyhoop, which did not "
                "record its build's rules: they cannot be checked against this build's (%s, "
                "digest %s)\n", TEXT_ESC(path), params_file, PH_RULES_DIGEST);
    if (missing[0])
        fprintf(stderr, "polyhoop: %s: warning: written by an earlier polyhoop, which did not have "
                "the parameters %s: they take this build's values (%s)\n", TEXT_ESC(path),
                missing, params_file);
    return 0;
}

int checkpoint_params(const char *dir, Params *P, ParamsSet *set, char *err, size_t len)
{
    char path[4200], why[1024] = "";
    snprintf(path, sizeof path, "%s/checkpoint.bin", dir);
    FILE *f = fopen(path, "rb");
    Header h;
    struct stat st;
    unsigned old;
    char missing[1024];
    /* (a file that is not this program's checkpoint, or whose header is not sound, is left as
     * it is: checkpoint_restart names what is wrong with it) */
    int got = f && fstat(fileno(f), &st) == 0 &&
              fixed_ok(f, (uint64_t)st.st_size, &h, &old, why, sizeof why) &&
              params_read(f, (uint64_t)st.st_size - sizeof(CheckpointHeader), &h, missing,
                          sizeof missing, why, sizeof why) &&
              header_ok(&h, why, sizeof why);
    if (f) fclose(f);
    if (!got) return 0;
    if (params_merge(P, set, &h.P, &h.set, why, sizeof why)) {
        snprintf(err, len, "cannot restart %s: %s", TEXT_ESC(dir), why);
        return -1;
    }
    return 0;
}

/* The first line of a that differs from b's (both of params_print), its spaces squeezed, into
 * out ("none" where a has no more lines). */
static void first_difference(const char *a, const char *b, char *out, size_t len)
{
    size_t k = 0, start = 0, n = 0;
    for (; a[k] && a[k] == b[k]; k++)
        if (a[k] == '\n') start = k + 1;
    for (const char *c = a + start; *c && *c != '\n' && n + 1 < len; c++)
        if (*c != ' ' || (n && out[n - 1] != ' ')) out[n++] = *c;
    out[n] = 0;
    if (!n) snprintf(out, len, "none");
}

int checkpoint_restart(Sim *s, const char *dir, int strict, int *frame, char *input, size_t inlen,
                       RunRecord *run, char *err, size_t len)
{
    char path[4200], why[8192];
    snprintf(path, sizeof path, "%s/checkpoint.bin", dir);
    Params given = s->P;   /* (the header's with the run's --set: checkpoint_params) */
    if (checkpoint_read(path, s, frame, input, inlen, run, why, sizeof why)) {
        snprintf(err, len, "cannot restart: %s", why);
        return -1;
    }
    s->first_step = s->e.step;
    s->from_checkpoint = 1;
    /* the checkpoint's parameters must be those (only Nf and Ns may differ) */
    given.Nf = s->P.Nf;
    given.Ns = s->P.Ns;
    char a[4096], b[4096];
    FILE *fa = fmemopen(a, sizeof a, "w"), *fb = fmemopen(b, sizeof b, "w");
    params_print(fa, &given, ""); params_print(fb, &s->P, "");
    fclose(fa); fclose(fb);
    if (strcmp(a, b)) {
        char there[160], here[160], sets[1024];
        first_difference(b, a, there, sizeof there);
        first_difference(a, b, here, sizeof here);
        params_set_text(&s->P, &s->set, 0, sets, sizeof sets);
        snprintf(err, len, "cannot restart %s: it was run with other parameters than %s%s%s "
                 "(%s there, %s here)", TEXT_ESC(path), params_file,
                 sets[0] ? " and its --set of " : "", sets, there, here);
        return -1;
    }
    if (sim_check_overlaps(s, path, NULL, strict)) {
        snprintf(err, len, "cannot restart: %s", s->error);
        return -1;
    }
    return 0;
}
