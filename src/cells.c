/* Per-cell variables at birth, division and fusion (cells.h, docs/model.md 11). */
#include "cells.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cells_bind(Ensemble *e, const ChemModel *m)
{
    e->model = m;
    e->var_bad = -1;
    if (e->nvar != m->nvar) {
        e->nvar = m->nvar;
        free(e->var);
        e->var = e->nvar ? ph_realloc(NULL, (size_t)(e->np_cap + 1) * e->nvar * sizeof *e->var)
                         : NULL;
        for (size_t k = 0; e->nvar && k < (size_t)e->np * e->nvar; k++) e->var[k] = 0;
    }
    for (int k = 0; k < m->nvar; k++) e->var_new[k] = m->var[k].init;
}

/* p's variables v, as a rule left them: a value that is not finite marks p (the first only) */
static void check(Ensemble *e, int p, const char *rule)
{
    const double *v = e->var + (size_t)p * e->nvar;
    for (int k = 0; k < e->nvar; k++)
        if (!isfinite(v[k]) && e->var_bad < 0) e->var_bad = e->id[p], e->var_bad_rule = rule;
}

void cells_born(Ensemble *e, int p, double ka)
{
    if (!e->nvar) return;
    double *v = e->var + (size_t)p * e->nvar;
    memcpy(v, e->var_new, (size_t)e->nvar * sizeof *v);
    if (!e->model->cell_init) return;
    ChemCell cell;
    chem_cell_view(e, e->model, p, ka, 0, 0, &cell);
    e->model->cell_init(&cell, v);
    check(e, p, "P_CELL_INIT");
}

void cells_divide(Ensemble *e, int m, int p, int q, double ap, double aq, double ka)
{
    if (!e->nvar) return;
    double mother[ENSEMBLE_MAX_VARS];
    memcpy(mother, e->var + (size_t)m * e->nvar, (size_t)e->nvar * sizeof *mother);
    const int d[2] = { p, q };
    const double share[2] = { ap / (ap + aq), aq / (ap + aq) };
    for (int h = 0; h < 2; h++) {
        double *v = e->var + (size_t)d[h] * e->nvar;
        for (int k = 0; k < e->nvar; k++)
            v[k] = e->model->var[k].split ? mother[k] * share[h] : mother[k];
        if (!e->model->divide) continue;
        ChemCell cell;
        chem_cell_view(e, e->model, d[h], ka, 0, 0, &cell);
        e->model->divide(&cell, mother, share[h], v);
        check(e, d[h], "P_CELL_DIVIDE");
    }
}

void cells_fuse(Ensemble *e, int x, int y, int q, double ax, double ay, double ka)
{
    if (!e->nvar) return;
    double a[ENSEMBLE_MAX_VARS], b[ENSEMBLE_MAX_VARS], *v = e->var + (size_t)q * e->nvar;
    memcpy(a, e->var + (size_t)x * e->nvar, (size_t)e->nvar * sizeof *a);
    memcpy(b, e->var + (size_t)y * e->nvar, (size_t)e->nvar * sizeof *b);
    const double wa = ax / (ax + ay), wb = ay / (ax + ay);
    for (int k = 0; k < e->nvar; k++)
        v[k] = e->model->var[k].split ? a[k] + b[k] : wa * a[k] + wb * b[k];
    if (!e->model->fuse) return;
    ChemCell cell;
    chem_cell_view(e, e->model, q, ka, 0, 0, &cell);
    e->model->fuse(&cell, a, ax, b, ay, v);
    check(e, q, "P_CELL_FUSE");
}

int cells_bad(Ensemble *e, char *buf, size_t len)
{
    if (e->var_bad < 0) return 0;
    snprintf(buf, len, "the rule %s gave cell id %lld a variable that is not finite",
             e->var_bad_rule, (long long)e->var_bad);
    e->var_bad = -1;
    return 1;
}
