/* Shared helpers of the tests: parameter sets and small ensembles. */
#ifndef PH_FIXTURES_H
#define PH_FIXTURES_H
#include "ensemble.h"
#include "params.h"
#include <stdint.h>

/* Every coefficient zero, geometry as the defaults (h, lmin, lmax, sh, ss), dt = 1e-4. */
Params fx_params_zero(void);

/* Adds a regular n-gon of radius R centred at (cx, cy), rotated by angle phi; returns its index. */
int fx_add_ngon(Ensemble *e, int n, double R, double cx, double cy, double phi);

/* fx_add_ngon, all its vertices moving with one velocity drawn uniformly from [-v, v)^2. */
int fx_add_moving_ngon(Ensemble *e, int n, double R, double cx, double cy, double phi, uint64_t *rng, double v);

/* The internal forces of every polygon (forces_polygon), serially; with energy, their total
 * energy there, summed in polygon order. Needs A from forces_update_geometry. */
void fx_internal_forces(Ensemble *e, const Params *P, double *energy);

/* A small deterministic generator for test inputs: uniform in [a, b). */
double fx_uniform(uint64_t *state, double a, double b);

/* Runs a shell script; returns its exit status (-1 if it did not exit normally). */
int fx_sh(const char *script);

/* Runs `body` as a shell script with D set to a new folder /tmp/ph_test_<name>_XXXXXX (its path
 * goes to dir, dirlen bytes); removes the folder when the script exits 0, keeps it for a look
 * otherwise. Returns the script's exit status (its failing step, by the tests' convention). */
int fx_script(const char *name, const char *body, char *dir, size_t dirlen);

/* A full disk for this process: files may grow to `bytes` at most (RLIMIT_FSIZE; a write beyond
 * fails with EFBIG, "File too large", and SIGXFSZ is ignored); bytes < 0 lifts the limit again.
 * (A .tmp planted as a link to /dev/full no longer works: atomic.c removes planted links.) */
void fx_file_limit(long bytes);

/* Runs the program with arguments `args` from the repo root; output to `log`. Returns its exit status. */
int fx_run(const char *args, const char *log);

/* A hash (FNV-1a) of every vertex's position and velocity, polygon by polygon, and the polygon
 * count: equal hashes mean bit-identical states (for thread-count comparisons). */
uint64_t fx_state_hash(const Ensemble *e);

#endif
