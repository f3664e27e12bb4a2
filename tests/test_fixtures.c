/* The shared test helpers (fixtures.h); this file holds no tests itself. */
#define _POSIX_C_SOURCE 200809L
#include "fixtures.h"
#include "forces.h"
#include "geometry.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>

Params fx_params_zero(void)
{
    Params P = params_compiled;
    P.alpha_mu = P.alpha_CV = P.beta = P.Amin = P.Amax_CV = 0;
    P.Amax_mu = INFINITY;
    P.ka = P.gamma = P.kl = P.kb = P.kr = P.kh = P.mu = P.rho = P.g = P.gl = P.cv = P.cc = P.cd = 0;
    P.theta = 0;
    P.dt = 1e-4;
    P.Nr = 0;
    return P;
}

int fx_add_ngon(Ensemble *e, int n, double R, double cx, double cy, double phi)
{
    double *x = malloc((size_t)n * sizeof *x), *y = malloc((size_t)n * sizeof *y);
    for (int k = 0; k < n; k++) {
        x[k] = cx + R * cos(phi + 2 * PH_PI * k / n);
        y[k] = cy + R * sin(phi + 2 * PH_PI * k / n);
    }
    int p = ensemble_add_polygon(e, n, x, y, 1, 0);
    free(x);
    free(y);
    return p;
}

int fx_add_moving_ngon(Ensemble *e, int n, double R, double cx, double cy, double phi, uint64_t *rng, double v)
{
    int p = fx_add_ngon(e, n, R, cx, cy, phi);
    double vx = fx_uniform(rng, -v, v), vy = fx_uniform(rng, -v, v);
    for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++) { e->vx[i] = vx; e->vy[i] = vy; }
    return p;
}

void fx_internal_forces(Ensemble *e, const Params *P, double *energy)
{
    double U = 0;
    for (int p = 0; p < e->np; p++) U += forces_polygon(e, P, p, NULL);
    if (energy) *energy = U;
}

double fx_uniform(uint64_t *state, double a, double b)
{
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return a + (b - a) * (double)(*state >> 11) * 0x1.0p-53;
}

int fx_sh(const char *script)
{
    int st = system(script);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int fx_script(const char *name, const char *body, char *dir, size_t dirlen)
{
    snprintf(dir, dirlen, "/tmp/ph_test_%s_XXXXXX", name);
    if (!mkdtemp(dir)) return -1;
    size_t n = strlen(body) + dirlen + 16;
    char *cmd = malloc(n);
    if (!cmd) return -1;
    snprintf(cmd, n, "D=%s\n%s", dir, body);
    int st = fx_sh(cmd);
    free(cmd);
    if (st == 0) {
        char rm[600];
        snprintf(rm, sizeof rm, "rm -rf %s", dir);
        fx_sh(rm);
    }
    return st;
}

int fx_run(const char *args, const char *log)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "tests/polyhoop %s > %s 2>&1", args, log);
    return fx_sh(cmd);
}

uint64_t fx_state_hash(const Ensemble *e)
{
    uint64_t h = 1469598103934665603ull;
    for (int p = 0; p < e->np; p++)
        for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++) {
            double v[4] = { e->x[i], e->y[i], e->vx[i], e->vy[i] };
            const unsigned char *b = (const unsigned char *)v;
            for (size_t k = 0; k < sizeof v; k++) h = (h ^ b[k]) * 1099511628211ull;
        }
    return h ^ (uint64_t)e->np;
}

void fx_file_limit(long bytes)
{
    struct rlimit r;
    getrlimit(RLIMIT_FSIZE, &r);
    r.rlim_cur = bytes < 0 ? r.rlim_max : (rlim_t)bytes;
    signal(SIGXFSZ, bytes < 0 ? SIG_DFL : SIG_IGN);
    setrlimit(RLIMIT_FSIZE, &r);
}
