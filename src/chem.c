/* Chemical species on a grid, coupled to the polygons (chem.h, docs/model.md 11). */
#define _POSIX_C_SOURCE 200809L   /* open_memstream */
#include "chem.h"
#include "rng.h"
#include "geometry.h"
#include "text.h"
#include <float.h>
#include <math.h>
#include <omp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static int refuse(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int refuse(char *err, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
    return -1;
}

static int finite_nonneg(double v) { return isfinite(v) && v >= 0; }

/* The species' names: each species has one, its own, that the frames and the log can hold (a
 * DataArray's Name in the .vti frames, which vtp.c escapes; the column amount_NAME of
 * observables.csv, which a comma would split; --png-field's argument); none is listed beyond ns,
 * where it would be dropped unseen. 0 or -1 with err. */
static int names_ok(const ChemModel *m, char *err, size_t len)
{
    for (int s = m->ns; s < CHEM_MAX_SPECIES; s++)
        if (m->sp[s].name)
            return refuse(err, len, "chemistry: P_CHEM_SPECIES lists species %d ('%s') beyond P_NS = %d, where it would be "
                          "dropped: raise P_NS, or leave it out", s, TEXT_ESC_N(m->sp[s].name, 40), m->ns);
    for (int s = 0; s < m->ns; s++) {
        const char *name = m->sp[s].name;
        if (!name)
            return refuse(err, len, "chemistry: species %d of P_CHEM_SPECIES (P_NS = %d) has no .name: give each one, "
                          "{ .name = \"...\", ... } (it names the species' array in the field frames)", s, m->ns);
        size_t n = strlen(name);
        if (n == 0 || n > CHEM_NAME_MAX)
            return refuse(err, len, "chemistry: species %d of P_CHEM_SPECIES has a .name of %zu bytes ('%s'): 1 to %d are "
                          "possible", s, n, TEXT_ESC_N(name, 40), CHEM_NAME_MAX);
        for (const unsigned char *c = (const unsigned char *)name; *c;) {
            int k = text_char_length(c, 0);
            if (k == 0 || *c == ',')
                return refuse(err, len, "chemistry: species %d of P_CHEM_SPECIES has the .name '%s', with %s at byte %d: a name "
                              "is printable UTF-8 without ',' or '\\' (it heads a column of observables.csv)", s,
                              TEXT_ESC(name), *c == ',' ? "a comma" : *c == '\\' ? "a backslash" : "a byte that is not "
                              "printable UTF-8", (int)(c - (const unsigned char *)name));
            c += k;
        }
        for (int q = 0; q < s; q++)
            if (!strcmp(name, m->sp[q].name))
                return refuse(err, len, "chemistry: species %d and %d of P_CHEM_SPECIES are both named '%s': each needs a "
                              "name of its own", q, s, name);
    }
    return 0;
}

/* The cells' variables: at most CHEM_MAX_VARS, each with a name like a species' (its cell array
 * in the frames, columns sum_NAME and mean_NAME of observables.csv), none a built-in cell array's
 * and none twice, and a finite init. 0 or -1 with err. */
static int vars_ok(const ChemModel *m, char *err, size_t len)
{
    static const char *const builtin[] = { "id", "parent", "generation", "age", "area", "target_area", "perimeter",
                                           "pressure", "neighbors", "phase", "rigid", "attracted", "type" };
    if (m->nvar < 0 || m->nvar > CHEM_MAX_VARS)
        return refuse(err, len, "cells: %d variables (P_CELL_VARS); 0 to %d are possible", m->nvar, CHEM_MAX_VARS);
    for (int k = 0; k < m->nvar; k++) {
        const char *name = m->var[k].name;
        if (!name || !name[0] || strlen(name) > CHEM_NAME_MAX)
            return refuse(err, len, "cells: variable %d of P_CELL_VARS needs a .name of 1 to %d bytes, { .name = \"...\", "
                          ".init = ... }", k, CHEM_NAME_MAX);
        for (const unsigned char *c = (const unsigned char *)name; *c;) {
            int n = text_char_length(c, 0);
            if (n == 0 || *c == ',' || *c == '"' || *c == '<' || *c == '&')
                return refuse(err, len, "cells: variable %d of P_CELL_VARS has the .name '%s': a name is printable UTF-8 "
                              "without ',', '\\', '\"', '<' or '&' (it names a cell array and heads columns of "
                              "observables.csv)", k, TEXT_ESC(name));
            c += n;
        }
        for (size_t b = 0; b < sizeof builtin / sizeof *builtin; b++)
            if (!strcmp(name, builtin[b]))
                return refuse(err, len, "cells: variable %d of P_CELL_VARS is named '%s', like a cell array every frame has: "
                              "give it another name", k, name);
        for (int q = 0; q < k; q++)
            if (!strcmp(name, m->var[q].name))
                return refuse(err, len, "cells: variables %d and %d of P_CELL_VARS are both named '%s'", q, k, name);
        if (!isfinite(m->var[k].init))
            return refuse(err, len, "cells: variable %d (%s) has the .init %g, which must be finite", k, name, m->var[k].init);
        if (m->var[k].split != 0 && m->var[k].split != 1)
            return refuse(err, len, "cells: variable %d (%s) has .split = %d: 1 (an amount) or 0 (a level)", k, name,
                          m->var[k].split);
    }
    if (m->contacts != 0 && m->contacts != 1)
        return refuse(err, len, "cells: P_CELL_CONTACTS = %d must be 0 or 1", m->contacts);
    return 0;
}

/* the model's values in range; 0 or -1 with err */
static int model_ok(const ChemModel *m, char *err, size_t len)
{
    if (m->ns < 0 || m->ns > CHEM_MAX_SPECIES) return refuse(err, len, "chemistry: %d species; 0 to %d are possible", m->ns, CHEM_MAX_SPECIES);
    if (m->ntypes < 1 || m->ntypes > 1 << 20) return refuse(err, len, "chemistry: %d cell types; 1 to %d are possible", m->ntypes, 1 << 20);
    if (names_ok(m, err, len) || vars_ok(m, err, len)) return -1;
    if (chem_on(m) && m->every < 1)
        return refuse(err, len, "chemistry: chem_every = %d time steps per chemical step must be >= 1", m->every);
    if (m->ns == 0) return 0;
    if (!(m->dx > 0) || !isfinite(m->dx)) return refuse(err, len, "chemistry: the grid spacing dx = %g must be > 0", m->dx);
    if (!(m->x1 - m->x0 >= m->dx) || !(m->y1 - m->y0 >= m->dx) || !isfinite(m->x1 - m->x0) || !isfinite(m->y1 - m->y0))
        return refuse(err, len, "chemistry: the domain [%g, %g] x [%g, %g] must be at least dx = %g wide and high",
                      m->x0, m->x1, m->y0, m->y1, m->dx);
    for (int k = 0; k < 2; k++) {   /* (the nodes' last row and column lie on the rectangle's sides) */
        double a = k ? m->y0 : m->x0, b = k ? m->y1 : m->x1, n = (b - a) / m->dx, whole = floor(n + 0.5);
        if (fabs(n - whole) > 1e-6 * whole)
            return refuse(err, len, "chemistry: the domain's %s %s1 - %s0 = %g is %.6g grid spacings dx = %g, not a whole "
                          "number: the last nodes would not lie on its side (%s1 = %.10g or %.10g would)", k ? "height" : "width",
                          k ? "y" : "x", k ? "y" : "x", b - a, n, m->dx, k ? "y" : "x", a + floor(n) * m->dx, a + ceil(n) * m->dx);
    }
    double nodes = (floor((m->x1 - m->x0) / m->dx + 0.5) + 1) * (floor((m->y1 - m->y0) / m->dx + 0.5) + 1);
    if (nodes > 1e8) return refuse(err, len, "chemistry: %.3g grid nodes (dx = %g), more than 10^8", nodes, m->dx);
    if (m->max_substeps < 1) return refuse(err, len, "chemistry: max_substeps = %d must be >= 1", m->max_substeps);
    if (m->every < 1) return refuse(err, len, "chemistry: chem_every = %d time steps per chemical step must be >= 1", m->every);
    for (int s = 0; s < m->ns; s++) {
        const ChemSpecies *sp = &m->sp[s];
        if (!finite_nonneg(sp->D_in) || !finite_nonneg(sp->D_out) || !finite_nonneg(sp->k) || !finite_nonneg(sp->c0))
            return refuse(err, len, "chemistry: species %d (%s): D_in, D_out, k and c0 must be finite and >= 0", s, sp->name ? sp->name : "?");
        for (int side = 0; side < 4; side++)
            if ((sp->bc[side] != CHEM_ZERO_FLUX && sp->bc[side] != CHEM_FIXED && sp->bc[side] != CHEM_FLUX) ||
                !(sp->bc[side] == CHEM_FLUX ? isfinite(sp->c_bc[side]) : finite_nonneg(sp->c_bc[side])))
                return refuse(err, len, "chemistry: species %d (%s): side %d: the condition must be zero-flux, fixed at a "
                              "value >= 0 or a finite flux", s, sp->name ? sp->name : "?", side);
    }
    return 0;
}

/* the Dirichlet sides of species s held at their values (left, right, bottom, top: a corner takes
 * the later side's) */
static void hold_sides(Chem *ch, double *c, int s)
{
    const ChemSpecies *sp = &ch->m.sp[s];
    double *cs = c + (size_t)s * ch->nx * ch->ny;
    if (sp->bc[CHEM_LEFT] == CHEM_FIXED) for (int j = 0; j < ch->ny; j++) cs[(size_t)j * ch->nx] = sp->c_bc[CHEM_LEFT];
    if (sp->bc[CHEM_RIGHT] == CHEM_FIXED) for (int j = 0; j < ch->ny; j++) cs[(size_t)j * ch->nx + ch->nx - 1] = sp->c_bc[CHEM_RIGHT];
    if (sp->bc[CHEM_BOTTOM] == CHEM_FIXED) for (int i = 0; i < ch->nx; i++) cs[i] = sp->c_bc[CHEM_BOTTOM];
    if (sp->bc[CHEM_TOP] == CHEM_FIXED) for (int i = 0; i < ch->nx; i++) cs[(size_t)(ch->ny - 1) * ch->nx + i] = sp->c_bc[CHEM_TOP];
}

/* the initial values of the model's init rule at every node, species by species; 0, or -1 with
 * err naming the first value that is not finite or negative */
static int initial_values(Chem *ch, char *err, size_t len)
{
    const ChemModel *m = &ch->m;
    for (int s = 0; s < m->ns; s++)
        for (int j = 0; j < ch->ny; j++)
            for (int i = 0; i < ch->nx; i++) {
                double x = m->x0 + i * m->dx, y = m->y0 + j * m->dx, v = m->init(s, x, y);
                if (!finite_nonneg(v))
                    return refuse(err, len, "chemistry: species %d (%s): the initial value %g at node (%d, %d), (x, y) = (%g, %g), "
                                  "must be finite and >= 0", s, m->sp[s].name ? m->sp[s].name : "?", v, i, j, x, y);
                ch->c[((size_t)s * ch->ny + j) * ch->nx + i] = v;
            }
    return 0;
}

/* The rate 4 D / dx^2 + k of species s, with out (the largest upwind outflow rate of a node) for
 * an advected species: explicit Euler keeps c >= 0 and is stable while h times it is at most 1 */
static double base_rate(const ChemModel *m, int s, double out)
{
    const ChemSpecies *sp = &m->sp[s];
    double rate = 4 * fmax(sp->D_in, sp->D_out) / (m->dx * m->dx) + sp->k;
    if (sp->advect) rate += out;
    return rate;
}

int chem_init(Chem *ch, const ChemModel *m, double dt, char *err, size_t len)
{
    memset(ch, 0, sizeof *ch);
    if (model_ok(m, err, len)) return -1;
    ch->m = *m;
    if (m->ns == 0) return 0;
    ch->nx = (int)floor((m->x1 - m->x0) / m->dx + 0.5) + 1;
    ch->ny = (int)floor((m->y1 - m->y0) / m->dx + 0.5) + 1;
    /* explicit Euler keeps c >= 0 and is stable while h (4 D / dx^2 + k) <= 1 at every node */
    double worst = 0;
    int ws = 0;
    for (int s = 0; s < m->ns; s++) {
        double rate = base_rate(m, s, 0);
        if (rate > worst) worst = rate, ws = s;
    }
    double need = ceil(m->every * dt * worst);
    if (need > m->max_substeps) {
        const ChemSpecies *sp = &m->sp[ws];
        char step[96] = "";
        if (m->every > 1) snprintf(step, sizeof step, " (a chemical step of chem_every = %d steps: %g)", m->every, m->every * dt);
        return refuse(err, len, "chemistry: species %d (%s) with D = %g and k = %g on dx = %g needs solver steps of at most "
                      "%.3g (1 / (4 D / dx^2 + k)), so dt = %g%s takes %.0f sub-steps, more than max_substeps = %d: "
                      "raise dx, or lower %s (or raise max_substeps)", ws, sp->name ? sp->name : "?",
                      fmax(sp->D_in, sp->D_out), sp->k, m->dx, 1 / worst, dt, step, need, m->max_substeps,
                      m->every > 1 ? "D, dt or chem_every" : "D or dt");
    }
    ch->nsub = need < 1 ? 1 : (int)need;
    size_t nodes = (size_t)ch->nx * ch->ny, n = (size_t)m->ns * nodes;
    ch->c = ph_realloc(NULL, n * sizeof *ch->c);
    ch->next = ph_realloc(NULL, n * sizeof *ch->next);
    ch->owner = ph_realloc(NULL, 2 * nodes * sizeof *ch->owner);
    for (size_t k = 0; k < 2 * nodes; k++) ch->owner[k] = -1;
    for (int s = 0; s < m->ns; s++)
        for (size_t k = 0; k < nodes; k++) ch->c[(size_t)s * nodes + k] = m->sp[s].c0;
    if (m->init && initial_values(ch, err, len)) {
        chem_free(ch);
        return -1;
    }
    for (int s = 0; s < m->ns; s++) hold_sides(ch, ch->c, s);
    return 0;
}

void chem_free(Chem *ch)
{
    free(ch->c); free(ch->next); free(ch->owner); free(ch->fx); free(ch->fy); free(ch->fid); free(ch->byid); free(ch->sum); free(ch->cross);
    free(ch->fit); free(ch->fu); free(ch->fv); free(ch->rrow);
    free(ch->pairs); free(ch->nb); free(ch->nb_at); free(ch->newvar);
    memset(ch, 0, sizeof *ch);
}

/* Step 1: owner[] = the polygon covering each node (-1: none), kind[] = its type. A node lies in
 * a polygon when the scan line through it crosses the polygon's edges an odd number of times to
 * its left: the node rows at heights yr with min(ya, yb) <= yr < max(ya, yb) cross edge (a, b)
 * (half-open, so a node at a vertex's height is counted once). Each edge gives its crossings to
 * the rows it spans (O(edges + crossings)), sorted by row and x. Where polygons would share a
 * node, the later one in polygon order takes it. */
static void cover(Chem *ch, const Ensemble *e)
{
    size_t nodes = (size_t)ch->nx * ch->ny;
    int *owner = ch->owner, *kind = ch->owner + nodes;
    for (size_t k = 0; k < nodes; k++) owner[k] = kind[k] = -1;
    const double x0 = ch->m.x0, y0 = ch->m.y0, dx = ch->m.dx;
    for (int p = 0; p < e->np; p++) {
        const double *x = e->x + e->start[p], *y = e->y + e->start[p];
        int n = e->count[p], m = 0;
        for (int k = 0; k < n; k++) {
            int k1 = k + 1 == n ? 0 : k + 1;
            double lo = fmin(y[k], y[k1]), hi = fmax(y[k], y[k1]);
            double fj0 = ceil((lo - y0) / dx) - 1, fj1 = floor((hi - y0) / dx) + 1;
            int j0 = fj0 < 0 ? 0 : (int)fj0, j1 = fj1 > ch->ny - 1 ? ch->ny - 1 : (int)fj1;
            for (int j = j0; j <= j1; j++) {
                double yr = y0 + j * dx;
                if ((y[k] <= yr) == (y[k1] <= yr)) continue;
                PH_RESERVE(ch->cross, ch->cross_cap, 2 * (m + 1));
                ch->cross[2 * m] = j;
                ch->cross[2 * m + 1] = x[k] + (yr - y[k]) * (x[k1] - x[k]) / (y[k1] - y[k]);
                m++;
            }
        }
        /* by row, then x (insertion sort: the crossings come in nearly sorted runs) */
        for (int a = 1; a < m; a++) {
            double r = ch->cross[2 * a], v = ch->cross[2 * a + 1];
            int b = a;
            for (; b > 0 && (ch->cross[2 * b - 2] > r || (ch->cross[2 * b - 2] == r && ch->cross[2 * b - 1] > v)); b--) {
                ch->cross[2 * b] = ch->cross[2 * b - 2];
                ch->cross[2 * b + 1] = ch->cross[2 * b - 1];
            }
            ch->cross[2 * b] = r;
            ch->cross[2 * b + 1] = v;
        }
        for (int a = 0; a + 1 < m; a += 2) {   /* (a closed polygon crosses each row an even number of times) */
            int j = (int)ch->cross[2 * a];
            double fi0 = ceil((ch->cross[2 * a + 1] - x0) / dx), fi1 = floor((ch->cross[2 * a + 3] - x0) / dx);
            int i0 = fi0 < 0 ? 0 : (int)fi0, i1 = fi1 > ch->nx - 1 ? ch->nx - 1 : (int)fi1;
            for (int i = i0; i <= i1; i++) {
                owner[(size_t)j * ch->nx + i] = p;
                kind[(size_t)j * ch->nx + i] = e->type[p];
            }
        }
    }
}

/* c and its gradient at (x, y), bilinear in the grid cell that holds the point (clamped) */
static void sample_at(const Chem *ch, int s, double x, double y, double *c, double *gx, double *gy)
{
    const double *cs = ch->c + (size_t)s * ch->nx * ch->ny, dx = ch->m.dx;
    double fx = (x - ch->m.x0) / dx, fy = (y - ch->m.y0) / dx;
    fx = fx < 0 ? 0 : fx > ch->nx - 1 ? ch->nx - 1 : fx;
    fy = fy < 0 ? 0 : fy > ch->ny - 1 ? ch->ny - 1 : fy;
    int i = (int)fx < ch->nx - 1 ? (int)fx : ch->nx - 2, j = (int)fy < ch->ny - 1 ? (int)fy : ch->ny - 2;
    double u = fx - i, v = fy - j;
    const double *r0 = cs + (size_t)j * ch->nx + i, *r1 = r0 + ch->nx;
    *c = (1 - v) * ((1 - u) * r0[0] + u * r0[1]) + v * ((1 - u) * r1[0] + u * r1[1]);
    *gx = ((1 - v) * (r0[1] - r0[0]) + v * (r1[1] - r1[0])) / dx;
    *gy = ((1 - u) * (r1[0] - r0[0]) + u * (r1[1] - r0[1])) / dx;
}

/* Room for the samples and the held forces of n polygons (cap: how many to make room for). */
static void reserve_polygons(Chem *ch, size_t n, size_t cap)
{
    if (n <= ch->poly_cap) return;
    ch->poly_cap = cap > n ? cap : n;
    ch->fx = ph_realloc(ch->fx, ch->poly_cap * sizeof *ch->fx);
    ch->fy = ph_realloc(ch->fy, ch->poly_cap * sizeof *ch->fy);
    ch->fid = ph_realloc(ch->fid, ch->poly_cap * sizeof *ch->fid);
    ch->byid = ph_realloc(ch->byid, ch->poly_cap * sizeof *ch->byid);
    ch->sum = ph_realloc(ch->sum, ch->poly_cap * (size_t)(3 * ch->m.ns + 1) * sizeof *ch->sum);
}

/* The held forces' polygons (ch->fid[0 .. n)) in the order of their ids, to find their forces
 * at the steps until the next chemical step (the polygons may be reordered or removed in
 * between); whether any of them has a force. */
static void hold(Chem *ch, int n)
{
    for (int p = 0; p < n; p++) ch->byid[p] = p;
    for (int a = 1; a < n; a++) {   /* (insertion sort: polygons are mostly in id order) */
        int q = ch->byid[a], b = a;
        for (; b > 0 && ch->fid[ch->byid[b - 1]] > ch->fid[q]; b--) ch->byid[b] = ch->byid[b - 1];
        ch->byid[b] = q;
    }
    ch->held = n;
    ch->forces = 0;   /* (whether any polygon has a force: else chem_add_forces has nothing to add) */
    for (int p = 0; p < n && !ch->forces; p++) ch->forces = ch->fx[p] != 0 || ch->fy[p] != 0;
}

double chem_random(const ChemCell *cell, int k)
{
    return rng_keyed_uniform(cell->seed, cell->step, cell->id, k, RNG_CELL);
}

void chem_cell_view(const Ensemble *e, const ChemModel *m, int p, double ka, double dt,
                    int fresh, ChemCell *cell)
{
    const double *x = e->x + e->start[p], *y = e->y + e->start[p];
    const int n = e->count[p];
    const double area = fresh ? e->A[p] : geom_area(x, y, n);
    const Vec2 g = geom_centroid(x, y, n);
    if (m->type_value[CHEM_TYPE_ka]) ka = m->type_value[CHEM_TYPE_ka][e->type[p]];
    *cell = (ChemCell){
        .p = p, .type = e->type[p], .area = area, .A0 = e->A0[p], .alpha = e->alpha[p],
        .t = e->t, .dt = dt, .id = e->id[p], .parent = e->parent[p], .step = e->step,
        .gen = e->gen[p], .age = e->t - e->birth[p], .x = g.x, .y = g.y,
        .perimeter = fresh ? e->L[p] : geom_perimeter(x, y, n), .pressure = -ka * (area - e->A0[p]),
        .v = e->nvar ? e->var + (size_t)p * e->nvar : NULL,
        .neighbors = -1, .contact = NAN, .seed = e->seed,
    };
}

/* The neighbour fields of every polygon from the contact lengths ch->pairs (sorted by p): per
 * polygon its neighbour count, its contact length, by cell type the contact with cells of that
 * type, and per variable the contact-weighted mean over its neighbouring cells (its own value
 * where it has none); at nb + p * (2 + ntypes + nvar). */
static void neighbor_fields(Chem *ch, const Ensemble *e)
{
    const int nt = ch->m.ntypes, nvar = ch->m.nvar, w = 2 + nt + nvar;
    PH_RESERVE(ch->nb, ch->nb_cap, (size_t)e->np * w + 1);
    PH_RESERVE(ch->nb_at, ch->nb_at_cap, (size_t)e->np + 1);
    for (int p = 0, k = 0; p <= e->np; p++) {
        while (k < ch->npairs && ch->pairs[k].p < p) k++;
        ch->nb_at[p] = k;
    }
    #pragma omp parallel for schedule(static)
    for (int p = 0; p < e->np; p++) {
        double *f = ch->nb + (size_t)p * w, *ct = f + 2, *vn = ct + nt, cells = 0;
        for (int k = 0; k < w; k++) f[k] = 0;
        for (int k = ch->nb_at[p]; k < ch->nb_at[p + 1]; k++) {
            const int q = ch->pairs[k].q;
            const double l = ch->pairs[k].len;
            f[0] += 1;
            f[1] += l;
            if (e->rigid[q]) continue;
            ct[e->type[q]] += l;
            cells += l;
            for (int j = 0; j < nvar; j++) vn[j] += l * e->var[(size_t)q * nvar + j];
        }
        for (int j = 0; j < nvar; j++)
            vn[j] = cells > 0 ? vn[j] / cells : e->var[(size_t)p * nvar + j];
    }
}

/* whether the response's result is in range: a type of the model, finite values */
static int act_ok(const ChemModel *m, const ChemAct *a)
{
    int ok = a->type >= 0 && a->type < m->ntypes && isfinite(a->alpha) && isfinite(a->fx) &&
             isfinite(a->fy);
    for (int k = 0; k < m->nvar; k++) ok &= isfinite(a->v[k]) != 0;
    return ok;
}

/* the sums over each polygon's nodes, in node order (one thread: the same sums at any count);
 * the gradient by central differences, one-sided on the domain's sides */
static void sample(Chem *ch)
{
    const int ns = ch->m.ns, stride = 3 * ns + 1;
    const size_t nodes = (size_t)ch->nx * ch->ny;
    const double inv2 = 0.5 / ch->m.dx, inv1 = 1 / ch->m.dx;
    for (int j = 0; j < ch->ny; j++) {
        const int *owner = ch->owner + (size_t)j * ch->nx;
        const int jb = j > 0 ? -ch->nx : 0, jt = j + 1 < ch->ny ? ch->nx : 0;
        const double fy = jb && jt ? inv2 : inv1;
        for (int i = 0; i < ch->nx; i++) {
            int p = owner[i];
            if (p < 0) continue;
            const int il = i > 0 ? -1 : 0, ir = i + 1 < ch->nx ? 1 : 0;
            const double fx = il && ir ? inv2 : inv1;
            double *sum = ch->sum + (size_t)p * stride;
            for (int s = 0; s < ns; s++) {
                const double *cs = ch->c + (size_t)s * nodes + (size_t)j * ch->nx + i;
                sum[s] += cs[0];
                sum[ns + s] += (cs[ir] - cs[il]) * fx;
                sum[2 * ns + s] += (cs[jt] - cs[jb]) * fy;
            }
            sum[3 * ns] += 1;
        }
    }
}

int chem_respond(Chem *ch, Ensemble *e, double dt)
{
    if (!chem_on(&ch->m)) return 0;
    if (ch->bad) return -1;   /* (the last advance failed: see chem_advance) */
    const int ns = ch->m.ns, stride = 3 * ns + 1, nvar = ch->m.nvar, nt = ch->m.ntypes;
    reserve_polygons(ch, (size_t)e->np, (size_t)e->np_cap);
    memset(ch->sum, 0, (size_t)e->np * stride * sizeof *ch->sum);
    if (ns > 0) {
        cover(ch, e);
        sample(ch);
    }
    if (ch->m.contacts) neighbor_fields(ch, e);
    PH_RESERVE(ch->newvar, ch->newvar_cap, (size_t)e->np * nvar + 1);
    int bad = 0;
    ch->bad_response = 0;
    #pragma omp parallel for schedule(static) reduction(|:bad)
    for (int p = 0; p < e->np; p++) {
        double *sum = ch->sum + (size_t)p * stride, n = sum[3 * ns];
        double *v = ch->newvar + (size_t)p * nvar;
        ch->fx[p] = ch->fy[p] = 0;
        for (int k = 0; k < nvar; k++) v[k] = e->var[(size_t)p * nvar + k];
        if (n > 0)
            for (int k = 0; k < 3 * ns; k++) sum[k] /= n;
        else if (ns > 0) {   /* (smaller than a grid cell: the field at its centroid) */
            Vec2 g = geom_centroid(e->x + e->start[p], e->y + e->start[p], e->count[p]);
            for (int s = 0; s < ns; s++) sample_at(ch, s, g.x, g.y, &sum[s], &sum[ns + s], &sum[2 * ns + s]);
        }
        if (e->rigid[p] || !ch->m.response) continue;
        ChemCell cell;
        chem_cell_view(e, &ch->m, p, ch->ka, dt, 1, &cell);
        cell.c = sum, cell.gx = sum + ns, cell.gy = sum + 2 * ns;
        if (ch->m.contacts) {
            const double *f = ch->nb + (size_t)p * (2 + nt + nvar);
            cell.neighbors = (int)f[0], cell.contact = f[1];
            cell.contact_type = f + 2, cell.vn = f + 2 + nt;
        }
        ChemAct act = { e->type[p], e->alpha[p], 0, 0, { 0 } };
        for (int k = 0; k < nvar; k++) act.v[k] = v[k];
        ch->m.response(&cell, &act);
        if (!act_ok(&ch->m, &act)) {
            bad |= 1;
            #pragma omp critical
            if (!ch->bad_response || p < ch->bad_p) {   /* (the first such polygon: the same at any thread count) */
                ch->bad_response = 1, ch->bad_p = p, ch->bad_id = e->id[p], ch->bad_type = e->type[p];
                ch->bad_act = act;
            }
        } else {
            e->type[p] = act.type;
            e->alpha[p] = act.alpha;
            ch->fx[p] = act.fx;
            ch->fy[p] = act.fy;
            for (int k = 0; k < nvar; k++) v[k] = act.v[k];
        }
    }
    if (nvar) memcpy(e->var, ch->newvar, (size_t)e->np * nvar * sizeof *e->var);
    ch->var = e->var;
    for (int p = 0; p < e->np; p++) ch->fid[p] = e->id[p];
    hold(ch, e->np);
    return bad ? -2 : 0;
}

int chem_outside(const Chem *ch, const Ensemble *e, int64_t *vertices)
{
    int n = 0;
    int64_t nv = 0;
    if (ch->m.ns > 0) {
        const double x0 = ch->m.x0, x1 = ch->m.x1, y0 = ch->m.y0, y1 = ch->m.y1;
        #pragma omp parallel for schedule(static) reduction(+:n, nv)   /* (integers: the same sums at any thread count) */
        for (int p = 0; p < e->np; p++) {
            if (e->rigid[p]) continue;
            int out = 0;
            for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++)
                out += e->x[i] < x0 || e->x[i] > x1 || e->y[i] < y0 || e->y[i] > y1;
            n += out > 0;
            nv += out;
        }
    }
    if (vertices) *vertices = nv;
    return n;
}

void chem_bad_response(const Chem *ch, char *buf, size_t len)
{
    const ChemAct *a = &ch->bad_act;
    int n = snprintf(buf, len, "the response rule gave polygon %d (id %lld, cell type %d) ", ch->bad_p, (long long)ch->bad_id,
                     ch->bad_type);
    if (n < 0 || (size_t)n >= len) return;
    if (a->type < 0 || a->type >= ch->m.ntypes)
        snprintf(buf + n, len - n, "the cell type %d, outside the types 0 .. %d (ntypes = %d)", a->type, ch->m.ntypes - 1,
                 ch->m.ntypes);
    else if (!isfinite(a->alpha))
        snprintf(buf + n, len - n, "the growth rate alpha = %g, which must be finite", a->alpha);
    else if (!isfinite(a->fx) || !isfinite(a->fy))
        snprintf(buf + n, len - n, "the force (fx, fy) = (%g, %g) on each vertex, which must be finite", a->fx, a->fy);
    else
        for (int k = 0; k < ch->m.nvar; k++)
            if (!isfinite(a->v[k])) {
                snprintf(buf + n, len - n, "the variable %s = %g, which must be finite",
                         TEXT_ESC(ch->m.var[k].name), a->v[k]);
                break;
            }
}

int chem_held_forces(const Chem *ch)
{
    return ch->m.response && ch->forces ? ch->held : 0;
}

void chem_set_held_forces(Chem *ch, int n, const int64_t *id, const double *fx, const double *fy)
{
    reserve_polygons(ch, (size_t)n, (size_t)n);
    for (int p = 0; p < n; p++) ch->fid[p] = id[p], ch->fx[p] = fx[p], ch->fy[p] = fy[p];
    hold(ch, n);
}

/* the index at the last chemical step of the polygon with id, or -1 (born since) */
static int held_index(const Chem *ch, int p, int64_t id)
{
    if (p < ch->held && ch->fid[p] == id) return p;
    int lo = 0, hi = ch->held - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        int64_t v = ch->fid[ch->byid[mid]];
        if (v == id) return ch->byid[mid];
        if (v < id) lo = mid + 1; else hi = mid - 1;
    }
    return -1;
}

void chem_add_forces(const Chem *ch, Ensemble *e)
{
    if (!ch->m.response || !ch->forces) return;
    #pragma omp parallel for schedule(static)
    for (int p = 0; p < e->np; p++) {
        int q = e->rigid[p] ? -1 : held_index(ch, p, e->id[p]);
        if (q < 0) continue;
        for (int i = e->start[p]; i < e->start[p] + e->count[p]; i++) {
            e->fx[i] += ch->fx[q];
            e->fy[i] += ch->fy[q];
        }
    }
}

/* Advection (docs/model.md 11). Each polygon p carries its matter with the affine velocity field
 * u(x) = a + B (x - xbar) fitted to its vertices by least squares (xbar, a: the mean of their
 * positions and velocities; B = (sum u_k d_k^T) (sum d_k d_k^T)^-1, d_k = x_k - xbar), exact for
 * a polygon that translates, rotates, stretches or grows affinely. Its trace is then set to the
 * polygon's relative area growth rate (dA/dt) / A, dA/dt = 1/2 sum_k (vx_k (y_k+1 - y_k-1) -
 * vy_k (x_k+1 - x_k-1)) (the shoelace formula's derivative), by adding the same to Bxx and Byy:
 * div u = (dA/dt) / A, so the conservative transport dilutes the matter as the polygon grows (and
 * no other term must). fit[8 p ..]: xbar, ybar, ax, ay, Bxx, Bxy, Byx, Byy. */
static void fit_polygon(const Ensemble *e, int p, double *fit)
{
    const int i0 = e->start[p], n = e->count[p];
    const double *x = e->x + i0, *y = e->y + i0, *vx = e->vx + i0, *vy = e->vy + i0;
    double xb = 0, yb = 0, ax = 0, ay = 0;
    for (int k = 0; k < n; k++) xb += x[k], yb += y[k], ax += vx[k], ay += vy[k];
    xb /= n, yb /= n, ax /= n, ay /= n;
    double sxx = 0, sxy = 0, syy = 0, nxx = 0, nxy = 0, nyx = 0, nyy = 0, area = 0, rate = 0;
    for (int k = 0; k < n; k++) {
        const int kp = k + 1 == n ? 0 : k + 1, km = k == 0 ? n - 1 : k - 1;
        const double dx = x[k] - xb, dy = y[k] - yb;
        sxx += dx * dx, sxy += dx * dy, syy += dy * dy;
        nxx += vx[k] * dx, nxy += vx[k] * dy, nyx += vy[k] * dx, nyy += vy[k] * dy;
        area += x[k] * y[kp] - x[kp] * y[k];
        rate += vx[k] * (y[kp] - y[km]) - vy[k] * (x[kp] - x[km]);
    }
    double det = sxx * syy - sxy * sxy, bxx = 0, bxy = 0, byx = 0, byy = 0;
    if (det > 1e-12 * (sxx + syy) * (sxx + syy)) {   /* (vertices on a line: translation only) */
        bxx = (nxx * syy - nxy * sxy) / det, bxy = (nxy * sxx - nxx * sxy) / det;
        byx = (nyx * syy - nyy * sxy) / det, byy = (nyy * sxx - nyx * sxy) / det;
    }
    double grow = area != 0 ? rate / area : 0;   /* (dA/dt) / A: both halves of the shoelace cancel */
    double fix = 0.5 * (grow - (bxx + byy));
    const double out[8] = { xb, yb, ax, ay, bxx + fix, bxy, byx, byy + fix };
    memcpy(fit, out, sizeof out);
}

/* the velocity (*u, *v) of polygon p's field at (x, y) */
static inline void field_at(const double *fit, double x, double y, double *u, double *v)
{
    *u = fit[2] + fit[4] * (x - fit[0]) + fit[5] * (y - fit[1]);
    *v = fit[3] + fit[6] * (x - fit[0]) + fit[7] * (y - fit[1]);
}

/* The velocity component (0: x, 1: y) on the face between nodes of owners p and q, at (x, y): the
 * mean of the two polygons' fields there; the one polygon's where the other node is outside every
 * polygon (the face lies within dx / 2 of its membrane, which moves with it); 0 between two
 * outside nodes (the medium rests). */
static double face_velocity(const Chem *ch, int p, int q, double x, double y, int comp)
{
    double u[2], w[2];
    if (p < 0 && q < 0) return 0;
    field_at(ch->fit + 8 * (size_t)(p < 0 ? q : p), x, y, &u[0], &u[1]);
    if (p < 0 || q < 0 || p == q) return u[comp];
    field_at(ch->fit + 8 * (size_t)q, x, y, &w[0], &w[1]);
    return 0.5 * (u[comp] + w[comp]);
}

int chem_transport(Chem *ch, const Ensemble *e, double dt, char *err, size_t len)
{
    const ChemModel *m = &ch->m;
    int any = 0;
    for (int s = 0; s < m->ns; s++) any |= m->sp[s].advect != 0;
    if (!any) return 0;
    const int nx = ch->nx, ny = ch->ny;
    const size_t nodes = (size_t)nx * ny;
    if (!ch->fu) {
        ch->fu = ph_realloc(NULL, nodes * sizeof *ch->fu);
        ch->fv = ph_realloc(NULL, nodes * sizeof *ch->fv);
    }
    if ((size_t)e->np > ch->fit_cap) {
        ch->fit_cap = (size_t)e->np_cap;
        ch->fit = ph_realloc(ch->fit, 8 * ch->fit_cap * sizeof *ch->fit);
    }
    #pragma omp parallel for schedule(static)
    for (int p = 0; p < e->np; p++) fit_polygon(e, p, ch->fit + 8 * (size_t)p);
    /* the faces' velocities, and the largest upwind outflow rate of a node (in exact maxima: the
     * same at any thread count) */
    const double x0 = m->x0, y0 = m->y0, dx = m->dx;
    double worst_out = 0, umax = 0;
    #pragma omp parallel for schedule(static) reduction(max:umax)
    for (int j = 0; j < ny; j++) {
        const int *own = ch->owner + (size_t)j * nx;
        double *fu = ch->fu + (size_t)j * nx, *fv = ch->fv + (size_t)j * nx, y = y0 + j * dx;
        for (int i = 0; i < nx; i++) {
            double x = x0 + i * dx;
            fu[i] = i + 1 < nx ? face_velocity(ch, own[i], own[i + 1], x + 0.5 * dx, y, 0) : 0;
            fv[i] = j + 1 < ny ? face_velocity(ch, own[i], own[i + nx], x, y + 0.5 * dx, 1) : 0;
            umax = fmax(umax, fmax(fabs(fu[i]), fabs(fv[i])));
        }
    }
    #pragma omp parallel for schedule(static) reduction(max:worst_out)
    for (int j = 0; j < ny; j++) {
        const double *fu = ch->fu + (size_t)j * nx, *fv = ch->fv + (size_t)j * nx, wy = j == 0 || j == ny - 1 ? 0.5 : 1;
        for (int i = 0; i < nx; i++) {
            double wx = i == 0 || i == nx - 1 ? 0.5 : 1, ox = 0, oy = 0;
            if (i + 1 < nx) ox += fmax(fu[i], 0);
            if (i > 0) ox += fmax(-fu[i - 1], 0);
            if (j + 1 < ny) oy += fmax(fv[i], 0);
            if (j > 0) oy += fmax(-fv[i - nx], 0);
            worst_out = fmax(worst_out, (ox / wx + oy / wy) / dx);
        }
    }
    /* explicit Euler keeps c >= 0 while h (4 D / dx^2 + k + outflow rate) <= 1 at every node */
    double worst = 0;
    int ws = 0;
    for (int s = 0; s < m->ns; s++) {
        double rate = base_rate(m, s, worst_out);
        if (rate > worst) worst = rate, ws = s;
    }
    double need = ceil(dt * worst);
    ch->too_fast = !(need <= m->max_substeps);
    if (ch->too_fast) {
        const ChemSpecies *sp = &m->sp[ws];
        char step[96];   /* (dt here is a chemical step: chem_every time steps) */
        if (m->every > 1) snprintf(step, sizeof step, "a chemical step of %g (chem_every = %d time steps of %g)", dt, m->every, dt / m->every);
        else snprintf(step, sizeof step, "dt = %g", dt);
        return refuse(err, len, "the cells carry species %d (%s) at speeds up to %.4g, out of a node at rates up to "
                      "%.4g (upwind: the speeds through its faces over dx); with D = %g and k = %g on dx = %g its solver steps must "
                      "be at most %.3g (1 / (4 D / dx^2 + k + that rate)), so %s takes %.0f sub-steps, more than max_substeps "
                      "= %d: the motion is what limits it (diffusion alone takes %d): raise dx or max_substeps, or lower dt",
                      ws, sp->name ? sp->name : "?", umax, worst_out, fmax(sp->D_in, sp->D_out), sp->k, dx, 1 / worst, step, need,
                      m->max_substeps, ch->nsub);
    }
    ch->nstep = need > ch->nsub ? (int)need : ch->nsub;
    ch->outrate = worst_out;
    ch->moving = 1;
    return 0;
}

/* the diffusivity of the face between nodes of diffusivities a and b: their harmonic mean (the
 * conductance of two halves in series) */
static inline double face(double a, double b) { return a + b > 0 ? 2 * a * b / (a + b) : 0; }

/* The upwind flux u c through a face of velocity u between nodes of concentrations a (left or
 * below) and b: the concentration of the node the matter comes from. */
static inline double upwind(double u, double a, double b) { return u > 0 ? u * a : u * b; }

/* The net upwind outflow of node i of row j (concentrations c, the rows below and above it or
 * NULL) through its faces, each divided by the node's share of its cell (wx, wy) as diffusion's:
 * dc/dt gets minus this over dx (docs/model.md 11). */
static double outflow(const Chem *ch, int i, int j, const double *c, const double *below, const double *above,
                      double wx, double wy)
{
    const int nx = ch->nx;
    const double *fu = ch->fu + (size_t)j * nx, *fv = ch->fv + (size_t)j * nx, ci = c[i];
    double gx = 0, gy = 0;
    if (i + 1 < nx) gx += upwind(fu[i], ci, c[i + 1]);
    if (i > 0) gx -= upwind(fu[i - 1], c[i - 1], ci);
    if (above) gy += upwind(fv[i], ci, above[i]);
    if (below) gy -= upwind(fv[i - nx], below[i], ci);
    return gx / wx + gy / wy;
}

/* The conservative five-point stencil at a node of concentration ci (docs/model.md 11): dc/dt
 * from the net diffusive inflows fx and fy along x and y (sums of fick over the node's faces),
 * each divided by the node's share of its cell (wx, wy: 1, or 1/2 on a side), times 1 / dx^2
 * (idx2); minus degradation k ci, plus the reaction rate r. One definition for advance_node and
 * advance_row's inner rows (where wx = wy = 1 divides nothing). */
static inline double fick(double d, double cn, double ci) { return d * (cn - ci); }
static inline double stencil_rate(double fx, double fy, double wx, double wy, double idx2, double k,
                                  double ci, double r)
{
    return (fx / wx + fy / wy) * idx2 - k * ci + r;
}

/* whether the model has a reaction rule, of either form */
static inline int reacts(const ChemModel *m) { return m->reaction || m->reaction_cell; }

/* The reaction rate of species s at node q (of a field), c the concentrations there: the rule of
 * the node's type, or of the covering cell's variables too (reaction_cell). */
static inline double rate_of(const Chem *ch, int s, const double *c, size_t q)
{
    const size_t nodes = (size_t)ch->nx * ch->ny;
    if (!ch->m.reaction_cell) return ch->m.reaction(s, c, ch->owner[nodes + q]);
    const int p = ch->owner[q];
    return ch->m.reaction_cell(s, c, ch->owner[nodes + q], p >= 0 ? ch->var + (size_t)p * ch->m.nvar : NULL);
}

/* Row j of species s, as advance_row reads it */
typedef struct Row {
    const ChemSpecies *sp;
    const int *kind, *kb, *ka;          /* the cover's types on the row, below and above (NULL: none) */
    const double *c, *below, *above;    /* the concentrations there */
    double *out, wy, idx2;
    double *rate, lim;                  /* (NULL, or the largest relative uptake rate -R / c so far of the
                                         * nodes over lim, the rate the sub-steps allow) */
    int uniform, moved;
} Row;

/* The relative rate -r / c at which a reaction rate r < 0 empties a node holding c (infinite
 * where c is 0): the largest so far in *rate. */
static inline void uptake_rate(double *rate, double r, double c)
{
    if (r < 0) *rate = fmax(*rate, c > 0 ? -r / c : INFINITY);
}

/* node i of the row: the conservative five-point stencil (faces of harmonic-mean diffusivity; a
 * boundary node's half or quarter cell has its faces' flux divided by its share, wx and wy),
 * degradation and reaction; for an advected species in a step with motion, the upwind transport */
static inline void advance_node(const Chem *ch, const Row *w, int s, int j, int i, double h, double *call)
{
    const int ns = ch->m.ns, nx = ch->nx;
    const ChemSpecies *sp = w->sp;
    const int *kind = w->kind;
    const double *c = w->c, ci = c[i];
    double D = kind[i] >= 0 ? sp->D_in : sp->D_out, fx = 0, fy = 0;
#define FACE(kk) (w->uniform ? D : face(D, (kk) >= 0 ? sp->D_in : sp->D_out))
    if (i > 0) fx += fick(FACE(kind[i - 1]), c[i - 1], ci);
    if (i + 1 < nx) fx += fick(FACE(kind[i + 1]), c[i + 1], ci);
    if (w->below) fy += fick(FACE(w->kb[i]), w->below[i], ci);
    if (w->above) fy += fick(FACE(w->ka[i]), w->above[i], ci);
#undef FACE
    /* a side's prescribed inflow q through the boundary node's outer face: q dx here, so q / (wx
     * dx) in dc/dt (sides of one condition each: the test is one compare for the others) */
    const double q = ch->m.dx;
    if (i == 0 && sp->bc[CHEM_LEFT] == CHEM_FLUX) fx += sp->c_bc[CHEM_LEFT] * q;
    if (i == nx - 1 && sp->bc[CHEM_RIGHT] == CHEM_FLUX) fx += sp->c_bc[CHEM_RIGHT] * q;
    if (!w->below && sp->bc[CHEM_BOTTOM] == CHEM_FLUX) fy += sp->c_bc[CHEM_BOTTOM] * q;
    if (!w->above && sp->bc[CHEM_TOP] == CHEM_FLUX) fy += sp->c_bc[CHEM_TOP] * q;
    double wx = i == 0 || i == nx - 1 ? 0.5 : 1, r = 0;
    if (reacts(&ch->m)) {
        const double *at = c + i;   /* (one species: its own value; several: gathered) */
        if (ns > 1) {
            for (int q = 0; q < ns; q++) call[q] = ch->c[((size_t)q * ch->ny + j) * nx + i];
            at = call;
        }
        r = rate_of(ch, s, at, (size_t)j * nx + i);
        if (w->rate && -r > ci * w->lim) uptake_rate(w->rate, r, ci);
    }
    double flux = stencil_rate(fx, fy, wx, w->wy, w->idx2, sp->k, ci, r);
    if (w->moved) flux -= outflow(ch, i, j, c, w->below, w->above, wx, w->wy) / ch->m.dx;
    w->out[i] = ci + h * flux;
}

/* DBL_MAX's bits: above them, read as an unsigned integer, lie -0, the negatives, inf and NaN */
static const uint64_t DBL_MAX_BITS = 0x7fefffffffffffffULL;

/* A new value o of a node that held c: 1 if o is not finite, 2 if below 0 beyond rounding, else 0
 * (no branch) */
static inline int new_value_bad(double o, double c) { return (!(fabs(o) <= DBL_MAX)) | (o < -1e-12 * c) << 1; }

/* One explicit Euler sub-step of length h of species s's row j into next (advance_node at every
 * node); returns 0, or 1 if a new value is not finite, 2 if one is negative beyond rounding (with
 * the sub-steps of chem_init and chem_transport only a reaction rule can make one: diffusion,
 * degradation and transport leave each node a weighted mean of values >= 0, which rounding can
 * take below 0 by a few units in the last place of the node's old value). With rate (the first
 * sub-step of a reaction rule), the largest relative uptake rate -R / c of the row's nodes goes
 * there if some node's is over lim, the most the sub-steps allow. */
static int advance_row(const Chem *ch, int s, int j, double h, double *call, double *rrow, double *rate, double lim)
{
    const int ns = ch->m.ns, nx = ch->nx, ny = ch->ny;
    int bad = 0;
    const size_t nodes = (size_t)nx * ny, at = (size_t)s * nodes + (size_t)j * nx;
    const ChemSpecies *sp = &ch->m.sp[s];
    const int *kind = ch->owner + nodes + (size_t)j * nx;
    Row w = { sp, kind, j > 0 ? kind - nx : NULL, j + 1 < ny ? kind + nx : NULL, ch->c + at, j > 0 ? ch->c + at - nx : NULL,
              j + 1 < ny ? ch->c + at + nx : NULL, ch->next + at, j == 0 || j == ny - 1 ? 0.5 : 1,
              1 / (ch->m.dx * ch->m.dx), rate, lim, sp->D_in == sp->D_out, ch->moving && sp->advect };
    if (w.uniform && !w.moved && w.below && w.above && nx > 2) {
        /* The common case, an inner row of a species that diffuses alike everywhere and is not
         * carried: advance_node's stencil without its per-node tests, over the inner nodes. */
        const double D = sp->D_in, k = sp->k, *c = w.c, *below = w.below, *above = w.above, idx2 = w.idx2;
        double *restrict out = w.out;
        /* the reaction rates of the row first (in one call where params.c made reaction_row),
         * so that the stencil below is one loop the compiler vectorises */
        if (ch->m.reaction_row) ch->m.reaction_row(s, ns, ch->c + (size_t)j * nx, nodes, kind, nx, rrow);
        else if (reacts(&ch->m))
            for (int i = 0; i < nx; i++) {
                const double *cs = c + i;
                if (ns > 1) {
                    for (int q = 0; q < ns; q++) call[q] = ch->c[((size_t)q * ny + j) * nx + i];
                    cs = call;
                }
                rrow[i] = rate_of(ch, s, cs, (size_t)j * nx + i);
            }
        else
            for (int i = 0; i < nx; i++) rrow[i] = 0;
        /* (in the same loop, cheap tests on the bits, which the compiler vectorises: whether a new
         * value is not in [0, DBL_MAX], its bits as an unsigned integer then above DBL_MAX's, and
         * whether a node's uptake rate -r / c is over lim, c lim + r then negative; then the
         * row is looked at closely) */
        uint64_t most = 0, sign = 0;
        advance_node(ch, &w, s, j, 0, h, call);
        for (int i = 1; i < nx - 1; i++) {
            const double ci = c[i];
            const double fx = fick(D, c[i - 1], ci) + fick(D, c[i + 1], ci);
            const double fy = fick(D, below[i], ci) + fick(D, above[i], ci);
            const double o = ci + h * stencil_rate(fx, fy, 1, 1, idx2, k, ci, rrow[i]);
            const double q = ci * lim + rrow[i];
            uint64_t bo, bq;
            memcpy(&bo, &o, sizeof bo);
            memcpy(&bq, &q, sizeof bq);
            out[i] = o;
            most = bo > most ? bo : most;
            sign |= bq;
        }
        advance_node(ch, &w, s, j, nx - 1, h, call);
        bad |= new_value_bad(out[0], c[0]) | new_value_bad(out[nx - 1], c[nx - 1]);
        if (most > DBL_MAX_BITS)
            for (int i = 1; i < nx - 1; i++) bad |= new_value_bad(out[i], c[i]);
        if (rate && sign >> 63)
            for (int i = 1; i < nx - 1; i++) uptake_rate(rate, rrow[i], c[i]);
    } else {
        for (int i = 0; i < nx; i++) advance_node(ch, &w, s, j, i, h, call);
        for (int i = 0; i < nx; i++) bad |= new_value_bad(w.out[i], w.c[i]);
    }
    return bad & 1 ? 1 : bad;
}

/* The sub-steps a chemical step of dt needs for the largest relative uptake rates rate[s] of its
 * reaction rule (species by species, at its start) beside diffusion, degradation and transport:
 * explicit Euler keeps c >= 0 while h (4 D / dx^2 + k + outflow rate + uptake rate) <= 1. The
 * species that needs most in *ws. */
static double reaction_substeps(const Chem *ch, double dt, const double *rate, int *ws)
{
    double worst = 0;
    *ws = 0;
    for (int s = 0; s < ch->m.ns; s++) {
        double r = base_rate(&ch->m, s, ch->moving ? ch->outrate : 0) + rate[s];
        if (r > worst) worst = r, *ws = s;
    }
    return ceil(dt * worst);
}

int chem_advance(Chem *ch, double dt)
{
    const int ns = ch->m.ns, ny = ch->ny;
    if (ns == 0) return 0;
    int n = ch->moving ? ch->nstep : ch->nsub;
    PH_RESERVE(ch->rrow, ch->rrow_cap, (size_t)ch->nx * omp_get_max_threads());
    for (int sub = 0; sub < n; sub++) {
        if (ch->stop && *ch->stop) return ch->moving = 0, 1;
        const double h = ch->h = dt / n;
        const int track = sub == 0 && reacts(&ch->m);   /* (the reaction's uptake rates, in the first sub-step) */
        double rate[CHEM_MAX_SPECIES] = { 0 }, lim[CHEM_MAX_SPECIES] = { 0 };   /* (uptake rates up to lim need no more sub-steps) */
        for (int s = 0; track && s < ns; s++) lim[s] = fmax(n / dt - base_rate(&ch->m, s, ch->moving ? ch->outrate : 0), 0);
        int bad = 0;
        #pragma omp parallel reduction(|:bad)
        {
            double call[CHEM_MAX_SPECIES], mine[CHEM_MAX_SPECIES] = { 0 }, *rrow = ch->rrow + (size_t)omp_get_thread_num() * ch->nx;
            #pragma omp for schedule(static)
            for (int j = 0; j < ny; j++)
                for (int s = 0; s < ns; s++) bad |= advance_row(ch, s, j, h, call, rrow, track ? &mine[s] : NULL, lim[s]);
            if (track) {
                #pragma omp critical
                for (int s = 0; s < ns; s++) rate[s] = fmax(rate[s], mine[s]);   /* (exact maxima: any thread count) */
            }
        }
        if (track) {
            int ws;
            double need = reaction_substeps(ch, dt, rate, &ws);
            if (need > n) {   /* (the rule is faster than the sub-steps: the step starts over, c untouched) */
                if (!(need <= ch->m.max_substeps)) {
                    ch->bad = 3, ch->bad_species = ws, ch->bad_rate = rate[ws], ch->need = need;
                    break;
                }
                n = (int)need;
                sub = -1;
                continue;
            }
        }
        for (int s = 0; s < ns; s++) hold_sides(ch, ch->next, s);
        double *swap = ch->c; ch->c = ch->next; ch->next = swap;
        if (bad) {   /* (stop at the sub-step that went wrong, so that its node can be named) */
            ch->bad = bad & 1 ? 1 : 2;
            break;
        }
    }
    ch->moving = 0;
    return ch->bad ? -1 : 0;
}

int chem_step(Chem *ch, Ensemble *e, double dt, double t, int64_t step, char *err, size_t len)
{
    char at[64], what[1024];
    snprintf(at, sizeof at, "at t = %.6g (step %lld)", t, (long long)step);
    int r = chem_respond(ch, e, dt);
    if (r == -1)   /* (the last chem_advance failed, and the run went on) */
        return refuse(err, len, "chemistry %s: a concentration is non-finite or negative", at);
    if (r) {
        chem_bad_response(ch, what, sizeof what);
        return refuse(err, len, "%s, %s", at, what);
    }
    if (ch->m.ns == 0) return 0;
    if (chem_transport(ch, e, dt, what, sizeof what)) return refuse(err, len, "chemistry %s: %s", at, what);
    r = chem_advance(ch, dt);
    if (r >= 0) return r;
    chem_bad_node(ch, what, sizeof what);
    if (ch->bad == 3 && isfinite(ch->need))
        return refuse(err, len, "chemistry %s: %s: keeping c >= 0 there would take %.0f sub-steps of the chemical step of %g "
                      "(each at most 1 / (4 D / dx^2 + k + that rate)), more than max_substeps = %d", at, what, ch->need, dt,
                      ch->m.max_substeps);
    if (ch->bad == 3) return refuse(err, len, "chemistry %s: %s: no sub-step keeps c >= 0 there", at, what);
    return refuse(err, len, "chemistry %s: a concentration became %s: %s", at, ch->bad == 1 ? "non-finite" : "negative", what);
}

/* The reaction rate of species s at node q of its field (call: room for the species' values). */
static double reaction_at(const Chem *ch, int s, size_t q, double *call)
{
    const size_t nodes = (size_t)ch->nx * ch->ny;
    for (int r = 0; r < ch->m.ns; r++) call[r] = ch->c[(size_t)r * nodes + q];
    return rate_of(ch, s, call, q);
}

void chem_bad_node(const Chem *ch, char *buf, size_t len)
{
    const size_t nodes = (size_t)ch->nx * ch->ny;
    const ChemModel *m = &ch->m;
    size_t at = SIZE_MAX;
    double call[CHEM_MAX_SPECIES], most = 0, rmost = 0;
    if (ch->bad == 3) {   /* the first node of the largest uptake rate (as measured: uptake_rate's arithmetic) */
        for (size_t q = 0; q < nodes; q++) {
            double r = reaction_at(ch, ch->bad_species, q, call), rate = 0;
            uptake_rate(&rate, r, ch->c[(size_t)ch->bad_species * nodes + q]);
            if (rate > most) most = rate, rmost = r, at = (size_t)ch->bad_species * nodes + q;
        }
    } else   /* the first node not finite (NaN or either infinity: bad = 1), else the first below 0 beyond
              * rounding (next: the values before that sub-step), as new_value_bad tells them */
        for (size_t q = 0; q < (size_t)m->ns * nodes && at == SIZE_MAX; q++)
            if (ch->bad == 1 ? !(fabs(ch->c[q]) <= DBL_MAX) : ch->c[q] < -1e-12 * ch->next[q]) at = q;
    if (at == SIZE_MAX) {
        snprintf(buf, len, "no node");
        return;
    }
    const int s = (int)(at / nodes), j = (int)(at % nodes / ch->nx), i = (int)(at % ch->nx);
    const double c = ch->c[at], x = m->x0 + i * m->dx, y = m->y0 + j * m->dx;
    const char *name = m->sp[s].name ? m->sp[s].name : "?";
    if (ch->bad != 3)
        snprintf(buf, len, "species %d (%s) is %.6g at node (%d, %d), (x, y) = (%g, %g)", s, name, c, i, j, x, y);
    else if (c > 0)
        snprintf(buf, len, "species %d (%s) at node (%d, %d), (x, y) = (%g, %g), is taken up at a relative rate -R / c = %.4g "
                 "(c = %.4g, R = %.4g)", s, name, i, j, x, y, most, c, rmost);
    else
        snprintf(buf, len, "species %d (%s) at node (%d, %d), (x, y) = (%g, %g), is 0, and the reaction rule takes from it "
                 "(R = %.4g)", s, name, i, j, x, y, rmost);
}

double chem_amount(const Chem *ch, int s)
{
    const double *cs = ch->c + (size_t)s * ch->nx * ch->ny;
    double total = 0;
    for (int j = 0; j < ch->ny; j++) {
        double wy = j == 0 || j == ch->ny - 1 ? 0.5 : 1, row = 0;
        for (int i = 0; i < ch->nx; i++) row += (i == 0 || i == ch->nx - 1 ? 0.5 : 1) * cs[(size_t)j * ch->nx + i];
        total += wy * row;
    }
    return total * ch->m.dx * ch->m.dx;
}

/* a matrix by pair of cell types on one line, row by row, rows separated by ';' */
static void print_matrix(FILE *f, const ChemModel *m, const char *prefix, const char *name, const double *v)
{
    char b[32];
    fprintf(f, "%s%-9s =", prefix, name);
    for (int a = 0; a < m->ntypes; a++)
        for (int c = 0; c < m->ntypes; c++)
            fprintf(f, " %s%s", text_number(v[a * m->ntypes + c], b), c + 1 < m->ntypes ? "" : a + 1 < m->ntypes ? ";" : "");
    fprintf(f, " (by pair of cell types, row by row)\n");
}

void chem_print(FILE *f, const ChemModel *m, const char *prefix)
{
    int own = m->type_kh != NULL || m->type_mu != NULL;
    for (int k = 0; k < CHEM_TYPE_NPARAMS; k++) own |= m->type_value[k] != NULL;
    if (m->ns == 0 && m->ntypes <= 1 && !own && !m->nvar && !m->response)
        return;   /* (off: also a Sim that never set a model up) */
    char b1[32], b2[32], b3[32], b4[32], b5[32];
    fprintf(f, "%s%-9s = %d\n", prefix, "ntypes", m->ntypes);
    static const char *const tname[CHEM_TYPE_NPARAMS] = {
#define CHEM_TYPE_NAME(name) #name,
        CHEM_TYPE_PARAMS(CHEM_TYPE_NAME)
#undef CHEM_TYPE_NAME
    };
    for (int k = 0; k < CHEM_TYPE_NPARAMS; k++) {
        if (!m->type_value[k]) continue;
        fprintf(f, "%s%-9s =", prefix, tname[k]);
        for (int t = 0; t < m->ntypes; t++) fprintf(f, " %s", text_number(m->type_value[k][t], b1));
        fprintf(f, " (by cell type)\n");
    }
    if (m->type_kh) print_matrix(f, m, prefix, "kh", m->type_kh);
    if (m->type_mu) print_matrix(f, m, prefix, "mu", m->type_mu);
    for (int k = 0; k < m->nvar; k++)   /* (only with them: the text and hash of other models stay) */
        fprintf(f, "%scell variable %d (%s): init = %s, %s\n", prefix, k, m->var[k].name,
                text_number(m->var[k].init, b1), m->var[k].split ? "an amount (split at division)" : "a level (copied)");
    if (m->nvar)
        fprintf(f, "%s%-9s = %s%s%s%s%s%s\n", prefix, "rules", m->response ? " response" : "",
                m->reaction_cell ? " P_CHEM_REACTION_CELL" : "", m->cell_init ? " P_CELL_INIT" : "", m->divide ? " P_CELL_DIVIDE" : "", m->fuse ? " P_CELL_FUSE" : "",
                m->contacts ? "; contacts measured" : "");
    fprintf(f, "%s%-9s = %d\n", prefix, "species", m->ns);
    if (m->ns == 0) return;
    fprintf(f, "%s%-9s = %s %s %s %s (x0 y0 x1 y1), dx = %s, max_substeps = %d", prefix, "domain", text_number(m->x0, b1),
            text_number(m->y0, b2), text_number(m->x1, b3), text_number(m->y1, b4), text_number(m->dx, b5), m->max_substeps);
    if (m->every > 1) fprintf(f, ", a chemical step every %d steps", m->every);
    fputc('\n', f);
    if (m->init) fprintf(f, "%s%-9s = the header's rule (P_CHEM_INIT), not c0\n", prefix, "initial");
    static const char *const side[4] = { "left", "right", "bottom", "top" };
    for (int s = 0; s < m->ns; s++) {
        const ChemSpecies *sp = &m->sp[s];
        fprintf(f, "%sspecies %d (%s): D_in = %s, D_out = %s, k = %s, c0 = %s;", prefix, s, sp->name ? sp->name : "?",
                text_number(sp->D_in, b1), text_number(sp->D_out, b2), text_number(sp->k, b3), text_number(sp->c0, b4));
        for (int k = 0; k < 4; k++)
            if (sp->bc[k] == CHEM_FIXED) fprintf(f, " %s fixed at %s", side[k], text_number(sp->c_bc[k], b1));
            else if (sp->bc[k] == CHEM_FLUX) fprintf(f, " %s inflow %s", side[k], text_number(sp->c_bc[k], b1));
            else fprintf(f, " %s zero-flux", side[k]);
        if (sp->advect) fprintf(f, "; advected by the cells");   /* (only then: the text and hash of other models stay) */
        fputc('\n', f);
    }
}

uint64_t chem_model_hash(const ChemModel *m)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) return 0;
    chem_print(f, m, "");
    fclose(f);
    uint64_t h = crc32(crc32(0, NULL, 0), (const Bytef *)text, (uInt)len);   /* (zlib's, as the checkpoint's checksum) */
    free(text);
    return h;
}
