/* Model parameters (paper Table 2, ../shared/SPEC.md section 8).
 * The program's values come from one header in params/, chosen at build time
 * (make PARAMS=params/x.h) and compiled into params_compiled; tests build their own. */
#ifndef PH_PARAMS_H
#define PH_PARAMS_H
#include <stdio.h>

typedef struct Params {
    double h, lmin, lmax, Q, sh, ss, theta;
    double alpha_mu, alpha_CV, beta, Amin, Amax_mu, Amax_CV;
    double ka, gamma, kl, kb, kr, kh, mu, rho;
    double g, gl, cv, cc, cd, dt;
    int Nf, Ns, Nr;
} Params;

extern const Params params_compiled;  /* the values of the header named by PH_PARAMS_FILE */
extern const char params_file[];      /* that header's path, as given to make */

/* The reach of the pair interaction: a vertex and an edge closer than this interact. It is
 * h + sh + ss (SPEC 2) when there is adhesion, but only h when kh = 0: beyond h the normal force
 * is then zero, and contact damping alone would pull separating surfaces together. */
static inline double params_reach(const Params *p) { return p->h + (p->kh > 0 ? p->sh + p->ss : 0); }

/* Checks the SPEC's constraints at run time (tests and values built in code);
 * returns 0 or writes the first violation into msg and returns -1. */
int params_check(const Params *p, char *msg, size_t len);

/* The largest stable time step of semi-implicit Euler, dt < 2 / omega, estimated from the
 * stiffest spring a vertex can feel: repulsion (kr), or edge elasticity and line tension over
 * the shortest edge (4 (kl + gamma) / lmin, the zigzag mode). *what names the spring. */
double params_stable_dt(const Params *p, const char **what);

/* Writes every parameter as "name = value" lines, each prefixed by `prefix`. */
void params_print(FILE *f, const Params *p, const char *prefix);

#endif
