/* Checkpoints: the full state of a run (every vertex and polygon datum, the random stream, time,
 * step, frame, event counts, parameters) in one binary file, written atomically, so that a run
 * continued from it produces the same frames, bit for bit, as one never interrupted. */
#ifndef PH_CHECKPOINT_H
#define PH_CHECKPOINT_H
#include "png.h"
#include "sim.h"
#include <stddef.h>
#include <stdint.h>

/* What a checkpoint keeps of the run besides its state: the options the run continues with, as
 * command-line words (options_record), and the pictures' camera so far. */
typedef struct RunRecord { char options[512]; PngCamera camera; } RunRecord;

/* The file's fixed header, as written (host byte order; checkpoint.c's opening comment gives the
 * whole layout). The parameter section follows it: a uint32 count, then per parameter its name
 * in CHECKPOINT_NAME bytes, NUL-padded, its value as a double and a byte, 1 where the run's
 * command line set it (--set): CHECKPOINT_PARAM bytes. Then the polygons' records of `record`
 * bytes, then the vertices' of `vertex`. (Tests that doctor checkpoints find fields through it.) */
#define CHECKPOINT_HEADER_FIELDS \
    char magic[24]; \
    /* size: sizeof(CheckpointHeader); postponed: divisions */ \
    uint32_t version, order, size, postponed; \
    uint64_t seed, draws; \
    int64_t step, next_id, divisions, removals, fusions1, fusions2; \
    double t; \
    int32_t frame, np, nv, twists;   /* twists: cut out by remodeling */ \
    char input[1024]; \
    RunRecord run; \
    int64_t deaths; \
    uint32_t record, vertex;   /* the bytes of a polygon's record and of a vertex's */
typedef struct CheckpointHeader { CHECKPOINT_HEADER_FIELDS } CheckpointHeader;
enum { CHECKPOINT_NAME = 16, CHECKPOINT_PARAM = CHECKPOINT_NAME + 8 + 1 };

/* Writes the state of s at the given frame count and input name, and run (NULL: none), to path.
 * 0 or -1 with err. */
int checkpoint_write(const char *path, const Sim *s, int frame, const char *input,
                     const RunRecord *run, char *err, size_t len);

/* A checkpoint held in memory: the state at the start of a step that may be abandoned (a signal
 * during a long chemical step), written out as the checkpoint only if it is. */
typedef struct CheckpointBytes { char *data; size_t size; } CheckpointBytes;

/* The bytes checkpoint_write would write, into b (replacing what it held). 0 or -1 with err. */
int checkpoint_snapshot(CheckpointBytes *b, const Sim *s, int frame, const char *input,
                        const RunRecord *run, char *err, size_t len);

/* Writes b's bytes atomically as path and frees them. 0 or -1 with err. */
int checkpoint_commit(CheckpointBytes *b, const char *path, char *err, size_t len);

/* Reads path into s (initialised by sim_init with any parameters; they are replaced by the
 * checkpoint's, matched by name: one this build lacks refuses the file, one the file lacks, a
 * parameter added to the program since, takes params_compiled's value, with a warning). Fills
 * *frame, input and run (unless NULL). Returns 0, or -1 with "path: reason" in err: then s is
 * unchanged if the file was refused by its header (unreadable, another format or machine),
 * and otherwise holds no polygons and parameters that must not be run. */
int checkpoint_read(const char *path, Sim *s, int *frame, char *input, size_t inlen,
                    RunRecord *run, char *err, size_t len);

/* For a restart, before the set-up: P holds the header's parameters with the command line's
 * --set (marked in set); the run in dir goes on with the values its own command line set, which
 * take their place (params_merge), and set becomes the run's. A --set of another value than the
 * run's is refused: -1 with the reason in err. A checkpoint that cannot be read, or whose header
 * is not sound, leaves P and set as they are (checkpoint_restart names what is wrong). */
int checkpoint_params(const char *dir, Params *P, ParamsSet *set, char *err, size_t len);

/* Replaces the state of s by the checkpoint of the run in dir, whose parameters must be those of
 * s (set up with checkpoint_params' result) except Nf and Ns; fills *frame, its input's name and
 * the run's record (options, camera). Polygons that overlap (sim_check_overlaps) give a
 * warning, and with strict (--strict-input) an error. 0, or -1 with the reason in err. */
int checkpoint_restart(Sim *s, const char *dir, int strict, int *frame, char *input, size_t inlen,
                       RunRecord *run, char *err, size_t len);

#endif
