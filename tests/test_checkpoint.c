/* Tests of src/checkpoint.c as input: a damaged or doctored checkpoint is refused by
 * checkpoint_read, naming the checksum or the field, and is never taken silently. (The same
 * through the program, exit 2 on --restart, and symbolic links planted in a run's folder:
 * tests/cli/restart.sh.) */
#define _POSIX_C_SOURCE 200809L
#include "checkpoint.h"
#include "harness.h"
#include "sim.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

/* The byte offsets of the version-9 layout (checkpoint.c's Header with a Params of 376 bytes and
 * the run's record, then records of 91 bytes, then 40 bytes per vertex), for doctoring single
 * fields (tests/cli/restart.sh doctors some through the program at these offsets too). */
enum {
    H_DT = 40 + 26 * 8, H_SEED = 416, H_DRAWS = 424, H_STEP = 432, H_NEXT_ID = 440, H_T = 480,
    H_POSTPONED = 36, H_FRAME = 488, H_NP = 492, H_TWISTS = 500, H_INPUT = 504, H_OPTIONS = 1528, H_RANGE = 2040, H_SIZE = 2080,
    R_COUNT = 0, R_AMAX = 16, R_ID = 40, R_PARENT = 48, R_PHASE = 56, R_RIGID = 57, R_SIZE = 91, V_SIZE = 40
};
_Static_assert(H_SIZE == 40 + sizeof(Params) + 8 * 8 + 8 + 16 + 1024 + sizeof(RunRecord) + 8 &&
               H_RANGE == H_OPTIONS + sizeof ((RunRecord *)0)->options, "the header layout of this test is out of date");

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
    char err[1024];
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
        case 14: put_f64(b, H_DT, -0.01); want = "parameters: dt must be"; break;
        case 15: put_i32(b, H_FRAME, 7); want = "frame 7 does not match step"; break;
        case 16: memset(b + H_INPUT, 'a', 1024); want = "the input name is not terminated"; break;
        case 17: put_i32(b, rec0 + R_COUNT, 2); want = "polygon 0: count is out of range"; break;
        case 18: put_i64(b, rec1 + R_PARENT, id1); want = "polygon 1: parent is out of range"; break;
        case 19: put_i64(b, H_NEXT_ID, next + 1); want = NULL; break;   /* (a larger next id is harmless) */
        case 20: memset(b + H_OPTIONS, 'a', 512); want = "the run's options are not terminated"; break;
        case 21: put_i32(b, H_RANGE + 24, 7); want = "colour range is out of range"; break;
        case 22: put_i32(b, H_RANGE + 24, 1); put_f64(b, H_RANGE, 2); put_f64(b, H_RANGE + 8, 1); want = "colour range is out of range"; break;
        case 23: put_i32(b, H_TWISTS, -1); want = "the count of twists cut out is negative"; break;
        case 24: put_i32(b, H_TWISTS, 42); want = NULL; break;   /* (a count of twists: 0 in files of earlier programs) */
        case 25: put_i32(b, H_POSTPONED, 7); want = NULL; break;   /* (postponed divisions: 0 in files of earlier programs) */
        default: want = ""; break;
        }
        if (want && !*want) break;
        reseal(b, c.n);
        int r = read_bytes(&c, b, c.n, err, sizeof err);
        if (want) ENSURE_MSG(r == -1 && strstr(err, want), "case %d: expected \"%s\", got %d \"%s\"", k, want, r, r ? err : "");
        else ENSURE_MSG(r == 0, "case %d: %s", k, err);
        tried++;
    }
    ENSURE(tried == 26);
    free(b);
    drop_run(&c);
}
