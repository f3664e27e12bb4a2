/* Tests of src/checkpoint.c as input: a damaged or doctored checkpoint is refused by
 * checkpoint_read, naming the checksum or the field, and is never taken silently. (The same
 * through the program, exit 2 on --restart, and symbolic links planted in a run's folder:
 * tests/cli/restart.sh.) */
#define _POSIX_C_SOURCE 200809L
#include "checkpoint.h"
#include "chem_fixtures.h"
#include "harness.h"
#include "sim.h"
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

/* Where a field is, found through the format (checkpoint.h): the fixed header's members by
 * offsetof; then the parameter section, a count and CHECKPOINT_PARAM bytes per parameter (name,
 * value, mark), searched by name (param_at); then the polygons' records, the file types of
 * ENSEMBLE_POLYGON_STORED in list order (record_at); then per vertex the doubles of
 * ENSEMBLE_VERTEX_FIELDS (V_l0: its last). (tests/cli/ckpt.py does the same for the shell tests.) */
#define H(field) ((long)offsetof(CheckpointHeader, field))
#define H_SEED H(seed)
#define H_DRAWS H(draws)
#define H_STEP H(step)
#define H_NEXT_ID H(next_id)
#define H_DIVISIONS H(divisions)
#define H_T H(t)
#define H_POSTPONED H(postponed)
#define H_FRAME H(frame)
#define H_NP H(np)
#define H_NV H(nv)
#define H_TWISTS H(twists)
#define H_INPUT H(input)
#define H_OPTIONS H(run.options)
#define H_CAMERA H(run.camera)
#define H_PARAMS ((long)sizeof(CheckpointHeader))   /* the parameter section's count */
/* the polygons' records: after the parameters (a file of this build holds them all, make_run checks) */
#define H_SIZE (H_PARAMS + 4 + (long)PARAMS_COUNT * CHECKPOINT_PARAM)
#define R_COUNT record_at("count")
#define R_GEN record_at("gen")
#define R_A0 record_at("A0")
#define R_AMAX record_at("Amax")
#define R_ALPHA record_at("alpha")
#define R_ID record_at("id")
#define R_PARENT record_at("parent")
#define R_PHASE record_at("phase")
#define R_RIGID record_at("rigid")
#define R_EDITS record_at("edits")
#define R_ATTRACTED record_at("attracted")
#define R_POLARITY record_at("polarity")
#define R_H_DIV record_at("h_div")
#define R_H_DEATH record_at("h_death")
#define R_SIZE record_at("")
#define V_SIZE ((long)(ENSEMBLE_NFIELDS * sizeof(double)))
#define V_L0 ((long)(V_l0 * sizeof(double)))
enum {
    /* the contact list's section, from its start: int32 state, then doubles skin, reach, h, extent,
     * moved, x0, y0, cell side, longest edge, flow (6), lazy, flow helps, step of the last patch,
     * then int32 nx, ny, strips */
    C_SKIN = 4, C_REACH = 12, C_H = 20, C_EXTENT = 28, C_MOVED = 36, C_LAZY = 124, C_PATCH = 140, C_NY = 152, C_STRIPS = 156,
    /* the build's section, last before the CRC-32: its tag, the header's name, the rules' digest */
    B_SIZE = 304, B_PARAMS = 16, B_RULES = 272
};

/* the place of a polygon record's field (its size, for ""): the file types before it */
static long record_at(const char *field)
{
    long at = 0;
#define AT(type, name, file_type, init) if (!strcmp(field, #name)) return at; at += (long)sizeof(file_type);
    ENSEMBLE_POLYGON_STORED(AT)
#undef AT
    ENSURE_MSG(!*field, "no field %s in a polygon record", field);
    return at;
}

/* the place of parameter name's record in the checkpoint b (its value at + CHECKPOINT_NAME, its
 * mark at + CHECKPOINT_NAME + 8) */
static long param_at(const unsigned char *b, const char *name)
{
    uint32_t n;
    memcpy(&n, b + H_PARAMS, 4);
    for (long at = H_PARAMS + 4; at < H_PARAMS + 4 + (long)n * CHECKPOINT_PARAM; at += CHECKPOINT_PARAM)
        if (!strncmp((const char *)b + at, name, CHECKPOINT_NAME)) return at;
    ENSURE_MSG(0, "the checkpoint holds no parameter %s", name);
    return -1;
}
#define P_VALUE CHECKPOINT_NAME
#define P_MARK (CHECKPOINT_NAME + 8)

typedef struct { char dir[64], path[128]; unsigned char *bytes; long n; } Ckpt;

static unsigned char *slurp(const char *path, long *n)
{
    FILE *f = fopen(path, "rb");
    if (!f || fseek(f, 0, SEEK_END) != 0) return NULL;
    *n = ftell(f);
    rewind(f);
    unsigned char *b = malloc((size_t)*n);
    if (b && fread(b, 1, (size_t)*n, f) != (size_t)*n) { free(b); b = NULL; }
    fclose(f);
    return b;
}

static void spill(const char *path, const unsigned char *b, long n)
{
    FILE *f = fopen(path, "wb");
    ENSURE(f && fwrite(b, 1, (size_t)n, f) == (size_t)n);
    fclose(f);
}

/* the checkpoint of a short default run (inputs/ensemble.off, seed 1, 3 frames of 100 steps: 2
 * polygons at its end) in a new folder, and its bytes */
static void make_run(Ckpt *c)
{
    static Sim s;
    char err[512];
    snprintf(c->dir, sizeof c->dir, "/tmp/ph_test_ckpt_XXXXXX");
    ENSURE(mkdtemp(c->dir));
    snprintf(c->path, sizeof c->path, "%s/checkpoint.bin", c->dir);
    sim_init(&s, &params_compiled, 1);
    s.P.Ns = 100;
    ENSURE(sim_load_input(&s, "inputs/ensemble.off", 0) == 0);
    while (s.e.step < 3 * s.P.Ns) ENSURE_MSG(sim_step(&s) == 0, "%s", s.error);
    ENSURE_MSG(checkpoint_write(c->path, &s, 3, "inputs/ensemble.off", NULL, err, sizeof err) == 0, "%s", err);
    sim_free(&s);
    c->bytes = slurp(c->path, &c->n);
    ENSURE(c->bytes && c->n > H_SIZE);
    CheckpointHeader h;
    uint32_t n;
    memcpy(&h, c->bytes, sizeof h);
    memcpy(&n, c->bytes + H_PARAMS, 4);
    ENSURE_MSG(n == PARAMS_COUNT && h.size == sizeof h && h.record == R_SIZE && h.vertex == V_SIZE,
               "the checkpoint's layout is not the one this test finds its fields by");
}

static void drop_run(Ckpt *c)
{
    remove(c->path);
    rmdir(c->dir);
    free(c->bytes);
}

/* checkpoint_read of the n bytes b; 0 or -1 with the reason in err */
static int read_bytes(const Ckpt *c, const unsigned char *b, long n, char *err, size_t len)
{
    static Sim s;
    int frame;
    char input[1100];
    spill(c->path, b, n);
    sim_init(&s, &params_compiled, 1);
    int r = checkpoint_read(c->path, &s, &frame, input, sizeof input, NULL, err, len);
    sim_free(&s);
    return r;
}

/* Every byte changed at 200 places spread over the file, and a cut at every 1 % of its length:
 * each is refused, naming the checksum or the field. */
void test_checkpoint_damage_refused(void)
{
    Ckpt c;
    make_run(&c);
    unsigned char *b = malloc((size_t)c.n);
    char err[1024];
    int tried = 0;
    for (int k = 0; k < 200; k++) {
        long at = (long)((double)k * (c.n - 1) / 199);
        memcpy(b, c.bytes, (size_t)c.n);
        b[at] ^= (unsigned char)(1 + k % 255);
        ENSURE_MSG(read_bytes(&c, b, c.n, err, sizeof err) == -1, "a change of byte %ld was accepted", at);
        ENSURE_MSG(strstr(err, "checksum") || strstr(err, "version") || strstr(err, "different kind"), "byte %ld: %s", at, err);
        tried++;
    }
    for (int k = 0; k < 100; k++) {
        long n = c.n * k / 100;
        ENSURE_MSG(read_bytes(&c, c.bytes, n, err, sizeof err) == -1, "a cut at %ld of %ld bytes was accepted", n, c.n);
        ENSURE_MSG(strstr(err, "checksum") || strstr(err, "too short"), "cut at %ld: %s", n, err);
        tried++;
    }
    ENSURE_MSG(read_bytes(&c, c.bytes, c.n, err, sizeof err) == 0, "the good checkpoint: %s", err);   /* (and the good one still reads) */
    ENSURE(tried == 300);
    free(b);
    drop_run(&c);
}

/* stores the CRC-32 of all but the last 4 bytes in them, as the writer does */
static void reseal(unsigned char *b, long n)
{
    uint32_t crc = (uint32_t)crc32(crc32(0, NULL, 0), b, (uInt)(n - 4));
    memcpy(b + n - 4, &crc, 4);
}

/* Case k of a doctored checkpoint b (its checksum made right again): refused with a message
 * holding want, or (want NULL) read */
static void expect_case(const Ckpt *c, unsigned char *b, int k, const char *want)
{
    char err[1024] = "";
    reseal(b, c->n);
    int r = read_bytes(c, b, c->n, err, sizeof err);
    if (want) ENSURE_MSG(r == -1 && strstr(err, want), "case %d: expected \"%s\", got %d \"%s\"", k, want, r, r ? err : "");
    else ENSURE_MSG(r == 0, "case %d: %s", k, err);
}


static void put_f64(unsigned char *b, long at, double v) { memcpy(b + at, &v, 8); }
static void put_i64(unsigned char *b, long at, int64_t v) { memcpy(b + at, &v, 8); }
static void put_i32(unsigned char *b, long at, int32_t v) { memcpy(b + at, &v, 4); }
static int64_t get_i64(const unsigned char *b, long at) { int64_t v; memcpy(&v, b + at, 8); return v; }

/* Each field a run could not have written, with a valid checksum: refused by name. */
void test_checkpoint_bad_fields_named(void)
{
    Ckpt c;
    make_run(&c);
    int32_t np;
    memcpy(&np, c.bytes + H_NP, 4);
    ENSURE_MSG(np >= 2, "the run ended with %d polygons; the cases need 2", np);
    const long rec0 = H_SIZE, rec1 = H_SIZE + R_SIZE, vert = H_SIZE + (long)np * R_SIZE;   /* polygon 0's vertices first */
    int64_t id1 = get_i64(c.bytes, rec1 + R_ID), next = get_i64(c.bytes, H_NEXT_ID);
    unsigned char *b = malloc((size_t)c.n);
    int tried = 0;
    for (int k = 0; ; k++) {
        memcpy(b, c.bytes, (size_t)c.n);
        const char *want;
        switch (k) {
        case 0: put_f64(b, vert + 17 * V_SIZE, INFINITY); want = "polygon 0: x of vertex 17 is not finite"; break;
        case 1: put_f64(b, vert + 17 * V_SIZE, 1e10); want = "polygon 0: x of vertex 17 is 1e+10, beyond"; break;
        case 2: put_f64(b, vert + 3 * V_SIZE + 16, NAN); want = "polygon 0: vx of vertex 3 is not finite"; break;
        case 3: put_f64(b, vert + 2 * V_SIZE + 8, 1.5e7); want = "remodeling would create more than"; break;
        case 4: put_i64(b, H_STEP, -3000000); want = "step -3000000 is negative"; break;
        case 5: put_f64(b, H_T, NAN); want = "t = nan is not step * dt"; break;
        case 6: put_i64(b, H_NEXT_ID, -1); want = "next id -1 is negative"; break;
        case 7: put_i64(b, H_NEXT_ID, id1); want = ": id is out of range"; break;   /* (reused) */
        case 8: put_i64(b, rec0 + R_ID, id1); put_i64(b, rec0 + R_PARENT, -1); want = "polygon 1: id"; break;   /* (duplicated) */
        case 9: b[rec0 + R_PHASE] = 5; want = "polygon 0: phase is out of range"; break;
        case 10: b[rec1 + R_RIGID] = 7; want = "polygon 1: rigid is out of range"; break;
        case 11: put_f64(b, rec0 + R_AMAX, NAN); want = "polygon 0: Amax is out of range"; break;
        case 12: put_i64(b, H_DRAWS, (int64_t)1 << 60); want = "draw count"; break;
        case 13: put_i64(b, H_SEED, (int64_t)1 << 40); want = "seed 1099511627776 is out of range"; break;
        case 14: put_f64(b, param_at(b, "dt") + P_VALUE, -0.01); want = "parameters: dt must be"; break;
        case 15: put_i32(b, H_FRAME, 7); want = "frame 7 does not match step"; break;
        case 16: memset(b + H_INPUT, 'a', 1024); want = "the input name is not terminated"; break;
        case 17: put_i32(b, rec0 + R_COUNT, 2); want = "polygon 0: count is out of range"; break;
        case 18: put_i64(b, rec1 + R_PARENT, id1); want = "polygon 1: parent is out of range"; break;
        case 19: put_i64(b, H_NEXT_ID, next + 1); want = NULL; break;   /* (a larger next id is harmless) */
        case 20: memset(b + H_OPTIONS, 'a', 512); want = "the run's options are not terminated"; break;
        case 21: put_i32(b, H_CAMERA + 32, 7); want = "the pictures' camera is out of range"; break;
        case 22: put_i32(b, H_CAMERA + 32, 1); put_f64(b, H_CAMERA, 2); put_f64(b, H_CAMERA + 16, 1); put_f64(b, H_CAMERA + 24, 1);
            want = "the pictures' camera is out of range"; break;   /* (x0 > x1) */
        case 23: put_i32(b, H_TWISTS, -1); want = "the count of twists cut out is negative"; break;
        case 24: put_i32(b, H_TWISTS, 42); want = NULL; break;   /* (a count of twists: 0 in files of earlier programs) */
        case 25: put_i32(b, H_POSTPONED, 7); want = NULL; break;   /* (postponed divisions: 0 in files of earlier programs) */
        case 26: put_i32(b, H_CAMERA + 32, 1); put_f64(b, H_CAMERA + 16, 1); put_f64(b, H_CAMERA + 24, INFINITY);
            want = "the pictures' camera is out of range"; break;   /* (not finite) */
        case 27: put_f64(b, H_CAMERA + 8, 0.5); want = "the pictures' camera is out of range"; break;   /* (not fitted, yet not 0) */
        case 28: put_i32(b, H_CAMERA + 32, 1); put_f64(b, H_CAMERA, -3); put_f64(b, H_CAMERA + 8, -1); put_f64(b, H_CAMERA + 16, 4);
            put_f64(b, H_CAMERA + 24, 2); want = NULL; break;   /* (a fitted camera) */
        case 29: put_i32(b, H(version), 9); want = "checkpoint.bin was written by format version 9 (polyhoop before "; break;
        /* the parameters set on the command line: a mark other than 0 or 1, or Nf (-n, never kept as set) */
        case 30: b[param_at(b, "gamma") + P_MARK] = 2; want = "the parameter gamma is marked 2, not 0 or 1"; break;
        case 31: b[param_at(b, "Nf") + P_MARK] = 1; want = "name Nf or Ns (-n, -s)"; break;
        case 32: b[param_at(b, "gamma") + P_MARK] = 1; want = NULL; break;   /* (gamma set: read) */
        default: want = ""; break;
        }
        if (want && !*want) break;
        expect_case(&c, b, k, want);
        tried++;
    }
    ENSURE(tried == 33);
    free(b);
    drop_run(&c);
}

static double get_f64(const unsigned char *b, long at) { double v; memcpy(&v, b + at, 8); return v; }

/* The parameters are matched by name, under a valid checksum: their order is free; a name this
 * build lacks is refused naming it, so is one twice, one not terminated, a count beyond the
 * file, an int parameter's value that is no int and a value out of its range (params_check); a
 * parameter the file lacks (one added to the program since) takes the compiled header's value,
 * not the one the Sim held, and is not marked set. A checkpoint of the format before (version
 * 10, the Params struct inside its header) is refused with one line saying what wrote it. */
void test_checkpoint_params_by_name(void)
{
    Ckpt c;
    make_run(&c);
    unsigned char *b = malloc((size_t)c.n);
    const long gamma = param_at(c.bytes, "gamma"), kb = param_at(c.bytes, "kb");
    for (int k = 0; ; k++) {
        memcpy(b, c.bytes, (size_t)c.n);
        const char *want;
        unsigned char t[CHECKPOINT_PARAM];
        switch (k) {
        case 0: memcpy(t, b + gamma, sizeof t); memcpy(b + gamma, b + kb, sizeof t); memcpy(b + kb, t, sizeof t); want = NULL; break;
        case 1: memcpy(b + gamma, "gammo", 5); want = "checkpoint.bin: it holds the parameter gammo, which this polyhoop does not "
                                                    "have: restart it with the polyhoop that wrote it"; break;
        case 2: memcpy(b + kb, "gamma", 6); want = "it holds the parameter gamma twice"; break;
        case 3: memset(b + kb, 'k', CHECKPOINT_NAME); want = "the name of its parameter"; break;
        case 4: put_i32(b, H_PARAMS, INT32_MAX); want = "it holds 2147483647 parameters, more than the file has room for"; break;
        case 5: put_f64(b, param_at(b, "Nr") + P_VALUE, 0.5); want = "parameters: Nr = 0.5 is not an integer"; break;
        case 6: put_f64(b, param_at(b, "att_n") + P_VALUE, 1e300); want = "parameters: att_n = 1.0000000000000001e+300 is not an integer"; break;
        case 7: put_f64(b, param_at(b, "kr") + P_VALUE, -1); want = "parameters: kr must be >= 0"; break;
        case 8: put_i32(b, H(version), 10);
            want = "checkpoint.bin was written by format version 10 (polyhoop before 2026-12-02, when checkpoints came to store the "
                   "parameters by name); this polyhoop reads version 11: rerun, or restart it with the polyhoop that wrote it"; break;
        default: want = ""; break;
        }
        if (want && !*want) break;
        expect_case(&c, b, k, want);
    }
    /* att_x and gamma (set on its command line) dropped: this build's header's values, not the Sim's, unmarked */
    const long att_x = param_at(c.bytes, "att_x");
    memcpy(b, c.bytes, (size_t)c.n);
    b[gamma + P_MARK] = 1;
    memmove(b + gamma, b + gamma + CHECKPOINT_PARAM, (size_t)(att_x - gamma - CHECKPOINT_PARAM));
    memmove(b + att_x - CHECKPOINT_PARAM, b + att_x + CHECKPOINT_PARAM, (size_t)(c.n - att_x - CHECKPOINT_PARAM));
    long n = c.n - 2 * CHECKPOINT_PARAM;
    put_i32(b, H_PARAMS, PARAMS_COUNT - 2);
    reseal(b, n);
    spill(c.path, b, n);
    static Sim s;
    Params P = params_compiled;
    P.att_x = 5, P.gamma = 7;
    sim_init(&s, &P, 1);
    int frame;
    char input[1100], err[1024] = "";
    ENSURE_MSG(checkpoint_read(c.path, &s, &frame, input, sizeof input, NULL, err, sizeof err) == 0, "%s", err);
    ENSURE(s.P.att_x == params_compiled.att_x && s.P.gamma == params_compiled.gamma && !params_is_set(&s.set, PARAM_gamma));
    ENSURE(s.P.kb == params_compiled.kb && s.e.step == 300);
    sim_free(&s);
    free(b);
    drop_run(&c);
}

static int32_t get_i32(const unsigned char *b, long at) { int32_t v; memcpy(&v, b + at, 4); return v; }

/* swaps the positions of vertices i and j (x and y) of the vertex block at v */
static void swap_vertices(unsigned char *b, long v, int i, int j)
{
    unsigned char t[16];
    memcpy(t, b + v + i * V_SIZE, 16);
    memcpy(b + v + i * V_SIZE, b + v + j * V_SIZE, 16);
    memcpy(b + v + j * V_SIZE, t, 16);
}

/* sets step, t and frame to step (Ns = 100) */
static void put_step(unsigned char *b, int64_t step)
{
    put_i64(b, H_STEP, step);
    put_f64(b, H_T, (double)step * get_f64(b, param_at(b, "dt") + P_VALUE));
    put_i32(b, H_FRAME, (int32_t)(step / 100));
}

/* What the run's history bounds, under a valid checksum, is refused by name: a polygon that
 * crosses itself, a division area no draw gives, the attractor felt with att_n = 0, a rigid
 * polygon beyond Nr, more edits than remodelings, a generation beyond 2 per step, a vertex faster
 * than h/dt, counts and a frame at which the arithmetic that goes on from them would overflow
 * (frame + 1 is the first frame a restart writes), more vertices than a checkpoint may hold. */
void test_checkpoint_history_bounds(void)
{
    Ckpt c;
    make_run(&c);
    int32_t np = get_i32(c.bytes, H_NP);
    ENSURE_MSG(np == 2 && get_i32(c.bytes, H_SIZE + R_COUNT) >= 11, "the run ended with %d polygons; the cases need 2", np);
    const long rec0 = H_SIZE, rec1 = H_SIZE + R_SIZE, vert = H_SIZE + (long)np * R_SIZE;   /* polygon 0's vertices first */
    unsigned char *b = malloc((size_t)c.n);
    char err[1024];
    int tried = 0;
    for (int k = 0; ; k++) {
        memcpy(b, c.bytes, (size_t)c.n);
        const char *want;
        switch (k) {
        case 0: swap_vertices(b, vert, 3, 10); want = "polygon 0 (id "; break;
        case 1: put_f64(b, rec0 + R_AMAX, 1e-300); want = "polygon 0: Amax = 1e-300 is not a division area the run could draw (3.14159 to 3.14159"; break;
        case 2: b[rec0 + R_ATTRACTED] = 1; want = "polygon 0 feels the attractor, but att_n = 0"; break;
        case 3: b[rec1 + R_RIGID] = 1; want = "polygon 1 (id "; break;
        case 4: put_i32(b, rec0 + R_EDITS, -1); want = "polygon 0: edits = 4294967295 is more than the 304 remodelings of 300 steps and 4 frame checks"; break;
        case 5: put_i32(b, rec1 + R_GEN, INT32_MAX); want = "polygon 1: gen is out of range"; break;
        case 6: put_f64(b, vert + 3 * V_SIZE + 16, 1e300); want = "polygon 0: vertex 3 moves at speed 1e+300, faster than h/dt = 100"; break;
        case 7: put_f64(b, vert + 3 * V_SIZE + 16, 0); put_f64(b, vert + 3 * V_SIZE + 24, -100.001);
            want = "polygon 0: vertex 3 moves at speed 100.001, faster than h/dt = 100"; break;
        case 8: put_step(b, (int64_t)INT32_MAX * 100); want = "frame 2147483647 is the last a run can number"; break;
        case 9: put_i64(b, H_NEXT_ID, (int64_t)1 << 62); want = "next id 4611686018427387904 is more ids than a run can hand out"; break;
        case 10: put_i64(b, H_DIVISIONS, INT64_MAX); want = "an event count is more than a run can count"; break;
        case 11: put_i32(b, H_NV, 200000000); want = "200000000 vertices are more than a checkpoint may hold"; break;
        case 12: put_f64(b, vert + 3 * V_SIZE + 16, 99.99); want = NULL; break;   /* (below h/dt: a run may leave it so) */
        default: want = ""; break;
        }
        if (want && !*want) break;
        expect_case(&c, b, k, want);
        tried++;
    }
    ENSURE(tried == 13);
    /* the messages of cases 0 and 3 in full */
    memcpy(b, c.bytes, (size_t)c.n);
    swap_vertices(b, vert, 3, 10);
    reseal(b, c.n);
    ENSURE(read_bytes(&c, b, c.n, err, sizeof err) == -1);
    ENSURE_MSG(strstr(err, "crosses itself: two of its edges that share no vertex cross"), "%s", err);
    memcpy(b, c.bytes, (size_t)c.n);
    b[rec1 + R_RIGID] = 1;
    reseal(b, c.n);
    ENSURE(read_bytes(&c, b, c.n, err, sizeof err) == -1);
    ENSURE_MSG(strstr(err, "is rigid, but Nr = 0: the run has no rigid polygons"), "%s", err);
    free(b);
    drop_run(&c);
}

/* A hoop that twisted in the last step (two neighbouring vertices swapped: edges m - 1 and m + 1
 * cross, docs/model.md 4) is cut out by the remodeling that the next step begins with, and a
 * checkpoint between frames (a signal's) may hold one: accepted there. A frame's state was
 * checked (and untwisted) before it was written, so at a frame's step it is refused; so is a
 * crossing that remodeling leaves (vertices 3 and 10 swapped) between frames. */
void test_checkpoint_twist_between_frames(void)
{
    Ckpt c;
    make_run(&c);
    int32_t np = get_i32(c.bytes, H_NP);
    ENSURE(np == 2 && get_i64(c.bytes, H_STEP) == 300);
    const long vert = H_SIZE + (long)np * R_SIZE;
    unsigned char *b = malloc((size_t)c.n);
    char err[1024];
    static const struct { int64_t step; int i, j, ok; } cases[] = { { 300, 3, 4, 0 }, { 301, 3, 4, 1 }, { 301, 3, 10, 0 }, { 399, 7, 8, 1 } };
    for (int k = 0; k < 4; k++) {
        memcpy(b, c.bytes, (size_t)c.n);
        put_step(b, cases[k].step);
        swap_vertices(b, vert, cases[k].i, cases[k].j);
        reseal(b, c.n);
        int r = read_bytes(&c, b, c.n, err, sizeof err);
        if (cases[k].ok) ENSURE_MSG(r == 0, "step %lld, vertices %d and %d swapped: %s", (long long)cases[k].step, cases[k].i, cases[k].j, err);
        else ENSURE_MSG(r == -1 && strstr(err, "polygon 0 (id ") && strstr(err, "crosses itself"), "step %lld, vertices %d and %d "
                        "swapped: %d %s", (long long)cases[k].step, cases[k].i, cases[k].j, r, r ? err : "accepted");
    }
    free(b);
    drop_run(&c);
}

/* The count of passages, an int64 just before the build's section, goes on from the file's; a
 * negative one is refused by name, so is anything after it; a file of an earlier program, which
 * ends before it (and has no build's section), reads as none counted. */
void test_checkpoint_passages(void)
{
    Ckpt c;
    make_run(&c);
    const long at = c.n - 4 - B_SIZE - 8;
    ENSURE_MSG(get_i64(c.bytes, at) == 0, "the default run counts %lld passages", (long long)get_i64(c.bytes, at));
    unsigned char *b = malloc((size_t)c.n + 8);
    static const struct { int64_t count; long extra; int64_t want; const char *err; } cases[] = {
        { 7, 0, 7, NULL }, { -1, 0, 0, "its count of passages -1 is out of range" }, { 0, -8, 0, NULL },
        { 3, 8, 0, "8 bytes follow the count of passages" },
    };
    for (int k = 0; k < 4; k++) {
        long n = at;   /* (the bytes before the count, then the count, extra bytes and the build's section) */
        memcpy(b, c.bytes, (size_t)at);
        if (cases[k].extra >= 0) {
            put_i64(b, n, cases[k].count);
            memset(b + n + 8, 0, (size_t)cases[k].extra);
            n += 8 + cases[k].extra;
            memcpy(b + n, c.bytes + at + 8, B_SIZE);
            n += B_SIZE;
        }
        n += 4;
        reseal(b, n);
        spill(c.path, b, n);
        static Sim s;
        int frame;
        char input[1100], err[1024] = "";
        sim_init(&s, &params_compiled, 1);
        int r = checkpoint_read(c.path, &s, &frame, input, sizeof input, NULL, err, sizeof err);
        if (cases[k].err) ENSURE_MSG(r == -1 && strstr(err, cases[k].err), "case %d: %d \"%s\"", k, r, err);
        else ENSURE_MSG(r == 0 && s.passages == cases[k].want, "case %d: %d \"%s\", %lld passages", k, r, err, (long long)s.passages);
        sim_free(&s);
    }
    free(b);
    drop_run(&c);
}

/* Each value as the input it stands for is checked, under a valid checksum (before, a huge A0 or
 * l0 was read, and the run then blew up with exit 3): a target area in (0, (2e8 lmax)^2], a rest
 * length in (0, 4e8 lmax] (the OFF reader refuses repeated vertices), a growth rate that draws of
 * alpha_mu and alpha_CV give (at most next_id of them, added up by fusions), a polarity that
 * rotational diffusion reaches from [0, 2 pi), hazards that stay 0 without their rates, a death
 * hazard below every threshold (54 ln 2: else the polygon died). Each is named with its value
 * and what was expected; the values a run can leave are read. */
void test_checkpoint_values_as_inputs(void)
{
    Ckpt c;
    make_run(&c);
    int32_t np;
    memcpy(&np, c.bytes + H_NP, 4);
    ENSURE_MSG(np >= 2, "the run ended with %d polygons; the cases need 2", np);
    const long rec0 = H_SIZE, rec1 = H_SIZE + R_SIZE, vert = H_SIZE + (long)np * R_SIZE;   /* polygon 0's vertices first */
    const long k_death = param_at(c.bytes, "k_death") + P_VALUE;
    ENSURE(get_i64(c.bytes, H_NEXT_ID) >= 2 && get_f64(c.bytes, rec0 + R_ALPHA) == 1);   /* (alpha_mu 1, alpha_CV 0) */
    unsigned char *b = malloc((size_t)c.n);
    int tried = 0;
    for (int k = 0; ; k++) {
        memcpy(b, c.bytes, (size_t)c.n);
        const char *want;
        switch (k) {
        case 0: put_f64(b, rec0 + R_A0, 1e300); want = "polygon 0: A0 = 1e+300 is not a target area in (0, 1.6e+15] (4e+16 lmax^2)"; break;
        case 1: put_f64(b, rec1 + R_A0, -1); want = "polygon 1: A0 = -1 is not a target area in (0, 1.6e+15]"; break;
        case 2: put_f64(b, rec1 + R_A0, 0); want = "polygon 1: A0 = 0 is not a target area"; break;
        case 3: put_f64(b, rec1 + R_A0, 1.5e15); want = NULL; break;
        case 4: put_f64(b, vert + 5 * V_SIZE + V_L0, 1e300); want = "polygon 0: l0 of vertex 5 is 1e+300, not a rest length in (0, 8e+07] (4e+08 lmax)"; break;
        case 5: put_f64(b, vert + 5 * V_SIZE + V_L0, 0); want = "polygon 0: l0 of vertex 5 is 0, not a rest length in (0, 8e+07]"; break;
        case 6: put_f64(b, vert + 5 * V_SIZE + V_L0, -0.01); want = "polygon 0: l0 of vertex 5 is -0.01, not a rest length"; break;
        case 7: put_f64(b, vert + 5 * V_SIZE + V_L0, 7e7); want = NULL; break;
        case 8: put_f64(b, rec1 + R_ALPHA, 1e300); want = "polygon 1: alpha = 1e+300 is not a growth rate the run could give (at most "; break;
        case 9: put_f64(b, rec1 + R_ALPHA, -2); want = NULL; break;   /* (the nested fusion of two: one less the other) */
        case 10: put_f64(b, rec0 + R_POLARITY, 1e300);
            want = "polygon 0: polarity = 1e+300 is beyond the 6.28319 radians that 300 steps of rotational diffusion (Dr = 0) reach"; break;
        case 11: put_f64(b, rec0 + R_POLARITY, 6.28); want = NULL; break;
        case 12: put_f64(b, rec0 + R_H_DIV, 0.5); want = "polygon 0: h_div = 0.5, but k_div = 0: its division hazard stays 0"; break;
        case 13: put_f64(b, rec1 + R_H_DEATH, 0.5); want = "polygon 1: h_death = 0.5, but k_death = 0: its death hazard stays 0"; break;
        case 14: put_f64(b, k_death, 1); put_f64(b, rec1 + R_H_DEATH, 40);
            want = "polygon 1: h_death = 40 is past every death threshold (below 37.43): the polygon would have died"; break;
        case 15: put_f64(b, k_death, 1); put_f64(b, rec1 + R_H_DEATH, 37.4); want = NULL; break;
        default: want = ""; break;
        }
        if (want && !*want) break;
        expect_case(&c, b, k, want);
        tried++;
    }
    ENSURE(tried == 16);
    free(b);
    drop_run(&c);
}

/* The chemistry's concentrations are checked as the chemistry checks its initial values, under a
 * valid checksum: finite and >= 0 (less 1e-12 of the species' largest, the rounding a chemical
 * step lets through) and at most 1e100 (a reaction rule's product of three stays finite). -1,
 * 1e308 and NaN are each refused naming the species, the node and its place (before, -1 and
 * 1e308 were read, and the run then blamed the reaction rule); -1e-20 and 1e99 are read. */
void test_checkpoint_concentrations_checked(void)
{
    int threads = omp_get_max_threads();
    static Sim s;
    coupled_sim(&s, 1, 0, 1);
    for (int k = 0; k < 100; k++) ENSURE_MSG(sim_step(&s) == 0, "%s", s.error);
    char dir[] = "/tmp/ph_test_ckpt_XXXXXX", path[64], err[1024], input[64];
    ENSURE(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/checkpoint.bin", dir);
    ENSURE_MSG(checkpoint_write(path, &s, 1, "in.off", NULL, err, sizeof err) == 0, "%s", err);
    const int nx = s.chem.nx;
    const size_t size = (size_t)nx * s.chem.ny * sizeof(double);
    long n, at = -1;
    unsigned char *good = slurp(path, &n), *b = malloc((size_t)n);
    ENSURE(good && b);
    for (long q = 0; at < 0 && q + (long)size <= n; q++)   /* (the concentrations, where the file holds them) */
        if (!memcmp(good + q, s.chem.c, size)) at = q;
    ENSURE_MSG(at > 0, "the concentrations are not in the file");
    const long node = at + (long)(5 * nx + 7) * 8;   /* (node (7, 5), at (x, y) = (-2.3, -2.5)) */
    static const struct { double c; const char *want; } cases[] = {
        { -1, "the chemistry's species 0 (a) is -1 at node (7, 5), (x, y) = (-2.3, -2.5): expected a finite concentration from 0 "
              "(less 1e-12 of the species' largest, for rounding) to 1e+100" },
        { 1e308, "the chemistry's species 0 (a) is 1e+308 at node (7, 5)" }, { NAN, "the chemistry's species 0 (a) is nan at node (7, 5)" },
        { -1e-20, NULL }, { 1e99, NULL },
    };
    for (int k = 0; k < 5; k++) {
        memcpy(b, good, (size_t)n);
        put_f64(b, node, cases[k].c);
        reseal(b, n);
        spill(path, b, n);
        sim_free(&s);
        coupled_sim(&s, 1, 0, 1);
        int frame, r = checkpoint_read(path, &s, &frame, input, sizeof input, NULL, err, sizeof err);
        if (cases[k].want) ENSURE_MSG(r == -1 && strstr(err, cases[k].want), "case %d: %d \"%s\"", k, r, r ? err : "read");
        else ENSURE_MSG(r == 0, "case %d: %s", k, err);
    }
    free(good); free(b);
    remove(path);
    rmdir(dir);
    sim_free(&s);
    omp_set_num_threads(threads);
}

/* The contact list's numbers against what a run with these parameters writes, under a valid
 * checksum: its reach and h are the parameters' (params_reach), its skin positive (any: a
 * build with another skin wrote its own) and within its cells, its extent that of its grid,
 * its motion bounds within what its cells allow plus one step, the step of its last patch no
 * later than the checkpoint's, its grid's rows and cells countable (ny = 2^31 - 1 overflowed
 * the strip count), its state 0, 1 or 2, and with state 2 (slots that are the polygons') its
 * snapshot the ensemble's polygons; state 1 (patched first) takes either. Each is named. */
void test_checkpoint_contact_list_bounds(void)
{
    Ckpt c;
    make_run(&c);
    const long list = H_SIZE + (long)get_i32(c.bytes, H_NP) * R_SIZE + (long)get_i32(c.bytes, H_NV) * V_SIZE;
    ENSURE_MSG(get_i32(c.bytes, list) == 2, "the run saved no contact list whose slots are its polygons': the cases test nothing");
    const long rec0 = H_SIZE;
    const int32_t edits0 = get_i32(c.bytes, rec0 + R_EDITS);
    double reach = get_f64(c.bytes, list + C_REACH);
    ENSURE(reach == 0.03 && get_f64(c.bytes, list + C_SKIN) == reach);
    unsigned char *b = malloc((size_t)c.n);
    int tried = 0;
    for (int k = 0; ; k++) {
        memcpy(b, c.bytes, (size_t)c.n);
        const char *want;
        switch (k) {
        case 0: put_f64(b, list + C_SKIN, 1e-9); put_f64(b, list + C_REACH, 1e-9); want = "the contact list section: its reach 1e-09 is not this run's 0.03"; break;
        case 1: put_f64(b, list + C_REACH, 1000 * reach); want = "its reach 30 is not this run's 0.03"; break;
        case 2: put_f64(b, list + C_SKIN, 0); want = "its skin 0 is not positive"; break;
        case 3: put_f64(b, list + C_H, 0.02); want = "its h = 0.02 is not this run's 0.01"; break;
        case 4: put_f64(b, list + C_MOVED, 1e300); want = "its motion bound 1e+300 is outside 0 to"; break;
        case 5: put_f64(b, list + C_MOVED, -1); want = "its motion bound -1 is outside 0 to"; break;
        case 6: put_f64(b, list + C_LAZY, 1); want = "its motion not yet shared out, 1, is outside 0 to 0.035"; break;
        case 7: put_f64(b, list + C_PATCH, 301); want = "the step of its last patch, 301, is not a step from 0 to 300"; break;
        case 8: put_f64(b, list + C_EXTENT, 2 * get_f64(b, list + C_EXTENT)); want = "its extent"; break;
        case 9: put_i32(b, list + C_NY, INT32_MAX); want = "its grid of"; break;
        case 10: put_i32(b, list + C_STRIPS, get_i32(b, list + C_STRIPS) + 1); want = "strips are more than the"; break;
        case 11: put_f64(b, list + C_MOVED, 0); want = NULL; break;   /* (as after a rebuild) */
        case 12: put_f64(b, list + C_SKIN, -reach); want = "its skin -0.03 is not positive"; break;
        case 13: put_f64(b, list + C_SKIN, 0.5 * reach); want = NULL; break;   /* (a build with a thinner skin) */
        case 14: put_f64(b, list + C_SKIN, 1000 * reach); want = "its cells of side"; break;
        case 15: put_i32(b, list, 3); want = "its state 3 is not 0 (no list), 1 or 2 (a list)"; break;
        case 16: put_i32(b, list, 1); want = NULL; break;   /* (a list to patch first, as older files have) */
        case 17:   /* (the ensemble's polygon 0 with another count of edits than the list's snapshot) */
            put_i32(b, rec0 + R_EDITS, edits0 > 0 ? edits0 - 1 : edits0 + 1);
            want = "its state 2 says its slots are the polygons', but polygon 0 (id 2) is not its snapshot's (start, vertices, edits)";
            break;
        case 18: put_i32(b, list, 1); put_i32(b, rec0 + R_EDITS, edits0 > 0 ? edits0 - 1 : edits0 + 1); want = NULL; break;
        default: want = ""; break;
        }
        if (want && !*want) break;
        expect_case(&c, b, k, want);
        tried++;
    }
    ENSURE(tried == 19);
    free(b);
    drop_run(&c);
}
