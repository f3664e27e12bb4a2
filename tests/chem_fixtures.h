/* Helpers of the chemistry's tests (test_chem.c: the fields; test_chem_types.c: the fields
 * coupled to a simulation and cell types; test_chem_advect.c: advection and dilution). Their
 * files define _POSIX_C_SOURCE first (mkdtemp). */
#ifndef PH_CHEM_FIXTURES_H
#define PH_CHEM_FIXTURES_H
#include "checkpoint.h"
#include "chem.h"
#include "fixtures.h"
#include "harness.h"
#include "sim.h"
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

/* one species a, diffusivity D in and out of cells, degradation k, on [x0, x1] x [y0, y1] */
static inline ChemModel model(double D, double k, double x0, double y0, double x1, double y1, double dx)
{
    ChemModel m = { .ns = 1, .ntypes = 1, .x0 = x0, .y0 = y0, .x1 = x1, .y1 = y1, .dx = dx, .max_substeps = 100000, .every = 1 };
    m.sp[0] = (ChemSpecies){ .name = "a", .D_in = D, .D_out = D, .k = k };
    return m;
}

static inline double *node(Chem *ch, int s, int i, int j) { return ch->c + ((size_t)s * ch->ny + j) * ch->nx + i; }

/* the rules of the coupled test: type 1 makes species 0, everything degrades it; a cell that
 * senses more than 0.3 turns type 1 (and makes it too) and grows at 0.5; every cell is pushed up
 * the gradient */
static inline double make(int s, const double *c, int type) { (void)s; (void)c; return type == 1 ? 50.0 : 0.0; }
static inline void respond(const ChemCell *cell, ChemAct *act)
{
    if (cell->c[0] > 0.3) act->type = 1, act->alpha = 0.5;
    act->fx = 20 * cell->gx[0];
    act->fy = 20 * cell->gy[0];
}

static inline void coupled_sim(Sim *s, int threads, int advect, int every)
{
    Params P = params_compiled;
    P.alpha_mu = 0;
    P.Ns = 100;   /* (a checkpoint at step 700 is at frame 7) */
    ChemModel m = model(5, 1, -3, -3, 3, 3, 0.1);
    m.ntypes = 2;
    m.reaction = make;
    m.response = respond;
    m.sp[0].advect = advect;
    m.every = every;
    omp_set_num_threads(threads);
    sim_init(s, &P, 1);
    ENSURE_MSG(sim_chemistry(s, &m) == 0, "%s", s->error);
    for (int k = 0; k < 9; k++) fx_add_ngon(&s->e, 32, 0.45, -1.0 + (k % 3), -1.0 + (k / 3), 0.1 * k);
    s->e.type[0] = 1;   /* the source: the lower left cell */
    sim_draw_traits(s);
}

/* Writes coupled run c's checkpoint into file (in the new folder path, a mkdtemp template) and
 * puts a fresh coupled run (advect and every as given) in its place, read from it */
static inline void through_checkpoint(Sim *c, int advect, int every, char *path, char *file, size_t len)
{
    char err[512], input[64];
    int frame;
    ENSURE(mkdtemp(path));
    snprintf(file, len, "%s/checkpoint.bin", path);
    ENSURE_MSG(checkpoint_write(file, c, 7, "in.off", NULL, err, sizeof err) == 0, "%s", err);
    sim_free(c);
    coupled_sim(c, 1, advect, every);
    ENSURE_MSG(checkpoint_read(file, c, &frame, input, sizeof input, NULL, err, sizeof err) == 0, "%s", err);
}

static inline uint64_t fields_hash(const Sim *s)
{
    uint64_t h = fx_state_hash(&s->e);
    const unsigned char *b = (const unsigned char *)s->chem.c;
    for (size_t k = 0; k < (size_t)s->chem.nx * s->chem.ny * sizeof(double); k++) h = (h ^ b[k]) * 1099511628211ull;
    for (int p = 0; p < s->e.np; p++) h = (h ^ (uint64_t)s->e.type[p]) * 1099511628211ull;
    return h;
}

#endif
