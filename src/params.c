/* The compiled-in parameter set: the header named by PH_PARAMS_FILE (default params/default.h)
 * defines P_<name> macros; they are checked here at compile time and gathered into one struct,
 * both by PARAMS_LIST (params.h). _Static_assert on floating constants is a GCC extension under
 * -pedantic, hence __extension__. */
#include "params.h"
#include "chem.h"
#include "text.h"
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifndef PH_PARAMS_FILE
#define PH_PARAMS_FILE "../params/default.h"
#endif
#include PH_PARAMS_FILE

/* the ranges of PARAMS_LIST: the test, and the words of its message (v - v == 0: finite, a test
 * that a compile-time assertion can fold) */
#define RANGE_ANY(v)    ((v) - (v) == 0)
#define RANGE_NONNEG(v) ((v) - (v) == 0 && (v) >= 0)
#define RANGE_POS(v)    ((v) - (v) == 0 && (v) > 0)
#define RANGE_WALL(v)   (!isnan((double)(v)))
#define RANGE_NEVER(v)  ((v) > 0)
#define RANGE_TEXT_ANY    "a finite number"
#define RANGE_TEXT_NONNEG ">= 0 and finite"
#define RANGE_TEXT_POS    "> 0 and finite"
#define RANGE_TEXT_WALL   "a number (-inf or inf: no wall)"
#define RANGE_TEXT_NEVER  "> 0 (inf: never)"

/* The rules between parameters, X(condition, message), written once in terms of V(name): checked
 * at compile time on the header's P_name and at run time (params_check) on a Params. */
#define PARAMS_RULES(X, V) \
    X(V(lmax) > 2 * V(lmin), "lmax must be > 2 lmin") \
    X(V(h) + V(sh) + V(ss) <= 100 * V(lmax), \
      "the contact reach h + sh + ss must be at most 100 lmax (beyond, each vertex would face " \
      "some 10^4 edges or more)") \
    X(V(Q) > 0 || (V(Q) == 0 && V(kl) == 0), "Q must be > 0 (Q = 0 only with kl = 0)") \
    X(V(theta) <= 1, "theta must be in [0, 1]") \
    X(V(alpha_CV) == 0 || V(alpha_mu) > 0 || V(alpha_normal), \
      "a lognormal growth rate needs alpha_mu > 0") \
    X(V(alpha_normal) == 0 || V(alpha_normal) == 1, "alpha_normal must be 0 or 1") \
    X(V(att_k) == 0 || V(att_n) > 0, "an attractor (att_k != 0) needs att_n > 0 polygons to pull") \
    X(V(Amax_mu) > V(Amin), "need 0 <= Amin < Amax") \
    X((V(D) == 0 && V(v0) == 0) || V(cv) > 0, \
      "noise (D > 0) and self-propulsion (v0 > 0) act through the damping: they need cv > 0") \
    X(V(box_x0) < V(box_x1) && V(box_y0) < V(box_y1), \
      "the box needs box_x0 < box_x1 and box_y0 < box_y1")

#ifndef __clang__
#define PH_CHECK(c, msg) __extension__ _Static_assert(c, PH_PARAMS_FILE ": " msg);
#else
/* (clang folds no floating-point comparison in a _Static_assert: params_check runs the same
 * checks at start) */
#define PH_CHECK(c, msg)
#endif
#define CHECK_RANGE(type, name, fmt, range) \
    PH_CHECK(RANGE_##range(P_##name), #name " must be " RANGE_TEXT_##range)
PARAMS_LIST(CHECK_RANGE)
#undef CHECK_RANGE
#define COMPILED(name) P_##name
PARAMS_RULES(PH_CHECK, COMPILED)
#undef COMPILED

/* the chemistry of the header (chem.h, docs/model.md 11): P_NS species listed, no more (the rest
 * would be dropped unseen) and no fewer (one missing would be a species without a name); their
 * names are checked at start (chem_init). (An integer test: clang folds it too.) */
#ifdef P_CHEM_SPECIES
_Static_assert(sizeof (ChemSpecies[])P_CHEM_SPECIES / sizeof (ChemSpecies) == P_NS,
               PH_PARAMS_FILE ": P_CHEM_SPECIES must list exactly P_NS species, { .name = \"...\", ... } each");
#else
_Static_assert(P_NS == 0, PH_PARAMS_FILE ": P_NS > 0 species need P_CHEM_SPECIES, the list of them (see params/gradient.h)");
#define P_CHEM_SPECIES { { 0 } }
#endif
#ifdef P_CHEM_REACTION
#define CHEM_REACTION P_CHEM_REACTION
/* the header's reaction along a row, inlined here (ChemModel.reaction_row) */
static void reaction_row(int s, int ns, const double *c, size_t stride, const int *kind, int n, double *r)
{
    if (ns == 1)
        for (int i = 0; i < n; i++) r[i] = P_CHEM_REACTION(s, c + i, kind[i]);
    else
        for (int i = 0; i < n; i++) {
            double at[CHEM_MAX_SPECIES];
            for (int q = 0; q < ns; q++) at[q] = c[i + q * stride];
            r[i] = P_CHEM_REACTION(s, at, kind[i]);
        }
}
#define CHEM_REACTION_ROW reaction_row
#else
#define CHEM_REACTION NULL
#define CHEM_REACTION_ROW NULL
#endif
#ifdef P_CHEM_REACTION_CELL
#ifdef P_CHEM_REACTION
#error "define P_CHEM_REACTION or P_CHEM_REACTION_CELL (which also sees the covering cell's variables), not both"
#endif
#define CHEM_REACTION_CELL P_CHEM_REACTION_CELL
#else
#define CHEM_REACTION_CELL NULL
#endif
#ifdef P_CHEM_RESPONSE
#define CHEM_RESPONSE P_CHEM_RESPONSE
#else
#define CHEM_RESPONSE NULL
#endif
#ifdef P_CHEM_INIT
#define CHEM_INIT P_CHEM_INIT
#else
#define CHEM_INIT NULL
#endif
/* the cells' variables (cells.h): P_CELL_VARS { { .name = "...", .init = ..., .split = 0 or 1 },
 * ... }, at most CHEM_MAX_VARS, with the rules P_CELL_INIT, P_CELL_DIVIDE, P_CELL_FUSE and
 * P_CELL_CONTACTS 1 for the neighbour fields (docs/usage.md "Writing a model") */
#ifdef P_CELL_VARS
#define CELL_NVAR ((int)(sizeof (ChemVar[])P_CELL_VARS / sizeof (ChemVar)))
_Static_assert(sizeof (ChemVar[])P_CELL_VARS / sizeof (ChemVar) <= CHEM_MAX_VARS,
               PH_PARAMS_FILE ": P_CELL_VARS lists more than 16 variables");
#else
#define CELL_NVAR 0
#define P_CELL_VARS { { 0 } }
#endif
#ifndef P_CELL_CONTACTS
#define P_CELL_CONTACTS 0
#endif
#ifdef P_CELL_INIT
#define CELL_INIT P_CELL_INIT
#else
#define CELL_INIT NULL
#endif
#ifdef P_CELL_DIVIDE
#define CELL_DIVIDE P_CELL_DIVIDE
#else
#define CELL_DIVIDE NULL
#endif
#ifdef P_CELL_FUSE
#define CELL_FUSE P_CELL_FUSE
#else
#define CELL_FUSE NULL
#endif
PH_CHECK(P_ntypes >= 1 && P_ntypes <= 1 << 20, "ntypes must be 1 to 2^20")
PH_CHECK(P_NS >= 0 && P_NS <= CHEM_MAX_SPECIES, "NS must be 0 to 8")
PH_CHECK(P_chem_every >= 1 && P_Ns % P_chem_every == 0, "chem_every must be >= 1 and divide Ns (frames fall on chemical steps)")
PH_CHECK(P_NS == 0 || (P_chem_dx > 0 && P_chem_x1 - P_chem_x0 >= P_chem_dx && P_chem_y1 - P_chem_y0 >= P_chem_dx),
         "the chemistry's grid needs dx > 0 and a rectangle at least dx wide and high")
/* the cell types' own mechanical parameters, P_TYPE_<name> { one value per type } */
#ifdef P_TYPE_ka
static const double type_ka[] = P_TYPE_ka;
PH_CHECK(sizeof type_ka / sizeof type_ka[0] == P_ntypes, "P_TYPE_ka must give ntypes values")
#define TYPE_ka type_ka
#else
#define TYPE_ka NULL
#endif
#ifdef P_TYPE_gamma
static const double type_gamma[] = P_TYPE_gamma;
PH_CHECK(sizeof type_gamma / sizeof type_gamma[0] == P_ntypes, "P_TYPE_gamma must give ntypes values")
#define TYPE_gamma type_gamma
#else
#define TYPE_gamma NULL
#endif
#ifdef P_TYPE_kl
static const double type_kl[] = P_TYPE_kl;
PH_CHECK(sizeof type_kl / sizeof type_kl[0] == P_ntypes, "P_TYPE_kl must give ntypes values")
#define TYPE_kl type_kl
#else
#define TYPE_kl NULL
#endif
#ifdef P_TYPE_kb
static const double type_kb[] = P_TYPE_kb;
PH_CHECK(sizeof type_kb / sizeof type_kb[0] == P_ntypes, "P_TYPE_kb must give ntypes values")
#define TYPE_kb type_kb
#else
#define TYPE_kb NULL
#endif
#ifdef P_TYPE_Q
static const double type_Q[] = P_TYPE_Q;
PH_CHECK(sizeof type_Q / sizeof type_Q[0] == P_ntypes, "P_TYPE_Q must give ntypes values")
#define TYPE_Q type_Q
#else
#define TYPE_Q NULL
#endif
#ifdef P_TYPE_alpha_mu
static const double type_alpha_mu[] = P_TYPE_alpha_mu;
PH_CHECK(sizeof type_alpha_mu / sizeof type_alpha_mu[0] == P_ntypes, "P_TYPE_alpha_mu must give ntypes values")
#define TYPE_alpha_mu type_alpha_mu
#else
#define TYPE_alpha_mu NULL
#endif
#ifdef P_TYPE_Amax_mu
static const double type_Amax_mu[] = P_TYPE_Amax_mu;
PH_CHECK(sizeof type_Amax_mu / sizeof type_Amax_mu[0] == P_ntypes, "P_TYPE_Amax_mu must give ntypes values")
#define TYPE_Amax_mu type_Amax_mu
#else
#define TYPE_Amax_mu NULL
#endif
#ifdef P_TYPE_v0
static const double type_v0[] = P_TYPE_v0;
PH_CHECK(sizeof type_v0 / sizeof type_v0[0] == P_ntypes, "P_TYPE_v0 must give ntypes values")
#define TYPE_v0 type_v0
#else
#define TYPE_v0 NULL
#endif
#ifdef P_TYPE_cv
static const double type_cv[] = P_TYPE_cv;
PH_CHECK(sizeof type_cv / sizeof type_cv[0] == P_ntypes, "P_TYPE_cv must give ntypes values")
#define TYPE_cv type_cv
#else
#define TYPE_cv NULL
#endif
/* the matrices by pair of cell types, { { row of type 0 }, { row of type 1 }, ... }: ntypes rows
 * (a row of more than ntypes values is the compiler's "excess elements" warning, an error with
 * WERROR=1; a shorter row ends in zeros, as in C, and the check at start refuses the matrix
 * unless it is still symmetric) */
#ifdef P_TYPE_kh
static const double type_kh[][P_ntypes] = P_TYPE_kh;
PH_CHECK(sizeof type_kh / sizeof type_kh[0] == P_ntypes, "P_TYPE_kh must give ntypes rows of ntypes values")
#define TYPE_KH (&type_kh[0][0])
#else
#define TYPE_KH NULL
#endif
#ifdef P_TYPE_mu
static const double type_mu[][P_ntypes] = P_TYPE_mu;
PH_CHECK(sizeof type_mu / sizeof type_mu[0] == P_ntypes, "P_TYPE_mu must give ntypes rows of ntypes values")
#define TYPE_MU (&type_mu[0][0])
#else
#define TYPE_MU NULL
#endif
const ChemModel chem_compiled = { P_NS, P_ntypes, P_chem_x0, P_chem_y0, P_chem_x1, P_chem_y1, P_chem_dx,
                                  P_chem_max_substeps, P_chem_every, P_CHEM_SPECIES, CHEM_REACTION, CHEM_RESPONSE, CHEM_INIT,
                                  { TYPE_ka, TYPE_gamma, TYPE_kl, TYPE_kb, TYPE_Q, TYPE_alpha_mu, TYPE_Amax_mu, TYPE_v0, TYPE_cv },
                                  TYPE_KH, TYPE_MU, CHEM_REACTION_ROW, CELL_NVAR, P_CELL_CONTACTS, P_CELL_VARS,
                                  CELL_INIT, CELL_DIVIDE, CELL_FUSE, CHEM_REACTION_CELL };

const char params_file[] = PH_PARAMS_FILE;
const Params params_compiled = {
#define VALUE(type, name, fmt, range) .name = P_##name,
    PARAMS_LIST(VALUE)
#undef VALUE
};

int params_check(const Params *p, char *msg, size_t len)
{
#define CHECK_RANGE(type, name, fmt, range) \
    if (!RANGE_##range(p->name)) { snprintf(msg, len, "%s", #name " must be " RANGE_TEXT_##range); return -1; }
    PARAMS_LIST(CHECK_RANGE)
#undef CHECK_RANGE
#define GIVEN(name) p->name
#define CHECK_RULE(c, text) if (!(c)) { snprintf(msg, len, "%s", text); return -1; }
    PARAMS_RULES(CHECK_RULE, GIVEN)
#undef CHECK_RULE
#undef GIVEN
    return 0;
}

int params_warn_off(FILE *f, const Params *p)
{
    int n = 0;
    if (p->kr == 0)
        n += fprintf(f, "polyhoop: warning: kr = 0: no repulsion between hoops: polygons pass through each other "
                     "(and through rigid ones)\n") > 0;
    if (p->gamma < 0)
        n += fprintf(f, "polyhoop: warning: gamma = %g < 0: a negative line tension lengthens every hoop, held back "
                     "only by its edge elasticity (kl = %g)\n", p->gamma, p->kl) > 0;
    return n;
}

/* The parameters' names in list order, and the P_ names of a header that are no member of it:
 * read at build time only (the chemistry's grid and rules, the cell types' own values). */
static const char *const names[PARAMS_COUNT] = {
#define NAME(type, name, fmt, range) #name,
    PARAMS_LIST(NAME)
#undef NAME
};
static const char *const build_time[] = {
    "ntypes", "NS", "chem_x0", "chem_y0", "chem_x1", "chem_y1", "chem_dx", "chem_max_substeps", "chem_every",
    "CHEM_SPECIES", "CHEM_REACTION", "CHEM_RESPONSE", "CHEM_INIT", "TYPE_kh", "TYPE_mu",
#define TYPE_NAME(name) "TYPE_" #name,
    CHEM_TYPE_PARAMS(TYPE_NAME)
#undef TYPE_NAME
};

static void mark(ParamsSet *set, int k) { set->bits[k / 64] |= (uint64_t)1 << (k % 64); }

/* box_k's default is kr (params/default.h: P_box_k is P_kr, so a header that changes kr changes
 * it): where the header's box_k is its kr, a kr set at run time carries box_k along, unless box_k
 * is set itself. */
static void follow(Params *p, const ParamsSet *set)
{
    if (!params_is_set(set, PARAM_box_k) && params_compiled.box_k == params_compiled.kr)
        p->box_k = p->kr;
}

/* text as a double in full (strtod's forms: 1e3, -0.5, 0x1p-4, INFINITY, nan); 0, or -1 with why */
static int read_double(const char *text, double *v, const char *name, char *msg, size_t len)
{
    char *end;
    errno = 0;
    double x = *text && !isspace((unsigned char)*text) ? strtod(text, &end) : 0;
    if (!*text || isspace((unsigned char)*text) || *end || end == text) {
        snprintf(msg, len, "%s needs a number (such as 1e3, -0.5 or INFINITY), not '%s'", name, TEXT_ESC(text));
        return -1;
    }
    if (errno == ERANGE && isinf(x)) {
        snprintf(msg, len, "%s = %s is beyond the range of a double (INFINITY is written so)", name, TEXT_ESC(text));
        return -1;
    }
    *v = x;
    return 0;
}

/* text as an int in full (decimal, an optional sign); 0, or -1 with why */
static int read_int(const char *text, int *v, const char *name, char *msg, size_t len)
{
    char *end;
    errno = 0;
    long x = *text && !isspace((unsigned char)*text) ? strtol(text, &end, 10) : 0;
    if (!*text || isspace((unsigned char)*text) || *end || end == text) {
        snprintf(msg, len, "%s is an integer parameter, and '%s' is not an integer", name, TEXT_ESC(text));
        return -1;
    }
    if (errno || x < INT_MIN || x > INT_MAX) {
        snprintf(msg, len, "%s = %s is beyond the range of an int (%d to %d)", name, TEXT_ESC(text), INT_MIN, INT_MAX);
        return -1;
    }
    *v = (int)x;
    return 0;
}

int params_set(Params *p, ParamsSet *set, const char *text, char *msg, size_t len)
{
    const char *eq = strchr(text, '=');
    if (!eq) {
        snprintf(msg, len, "expected NAME=VALUE, such as gamma=3e3");
        return -1;
    }
    char name[64];
    const char *n0 = strncmp(text, "P_", 2) ? text : text + 2;
    snprintf(name, sizeof name, "%.*s", (int)(eq - n0 < 63 ? eq - n0 : 63), n0);
    for (size_t k = 0; k < sizeof build_time / sizeof build_time[0]; k++)
        if (!strcmp(name, build_time[k])) {
            snprintf(msg, len, "P_%s is fixed at build time: change it in %s (or a header that includes it) and rebuild "
                     "(make PARAMS=...)", name, params_file);
            return -1;
        }
    int k = 0;
    while (k < PARAMS_COUNT && strcmp(name, names[k])) k++;
    if (k == PARAMS_COUNT || eq - n0 > 63) {
        const char *near = text_closest(name, names, PARAMS_COUNT);
        snprintf(msg, len, "no parameter '%s'%s%s%s (the names are those of the banner's parameter lines)", TEXT_ESC(name),
                 near ? "; did you mean " : "", near ? near : "", near ? "?" : "");
        return -1;
    }
    /* a parameter that every cell type has of its own: the header's value acts nowhere */
    const double *own = NULL;
#define OWN(n) if (!strcmp(name, #n)) own = chem_compiled.type_value[CHEM_TYPE_##n];
    CHEM_TYPE_PARAMS(OWN)
#undef OWN
    if (!strcmp(name, "mu")) own = chem_compiled.type_mu;
    if (own) {
        snprintf(msg, len, "%s is fixed at build time here: %s gives every cell type its own (P_TYPE_%s), which the "
                 "header's %s does not change", name, params_file, name, name);
        return -1;
    }
    int j = 0, rc = 0;
#define READ(type, n, fmt, range) \
    if (j++ == k) { type v; if ((rc = read_##type(eq + 1, &v, #n, msg, len)) == 0) p->n = v; }
    PARAMS_LIST(READ)
#undef READ
    if (rc) return -1;
    mark(set, k);
    follow(p, set);
    return k;
}

int params_merge(Params *p, ParamsSet *set, const Params *run, const ParamsSet *run_set, char *msg, size_t len)
{
    char a[32], b[32];
    int k = 0;
#define TEXT(type, v, buf) (!strcmp(#type, "int") ? (snprintf(buf, sizeof buf, "%d", (int)(v)), buf) : text_number((double)(v), buf))
#define GIVEN(type, n, fmt, range) \
    if (params_is_set(set, k) && memcmp(&p->n, &run->n, sizeof p->n)) { \
        snprintf(msg, len, "--set %s=%s: the run was started with %s = %s, and a restart goes on with it (leave the --set " \
                 "out, or start a new run)", #n, TEXT(type, p->n, a), #n, TEXT(type, run->n, b)); \
        return -1; \
    } \
    k++;
    PARAMS_LIST(GIVEN)
#undef GIVEN
    k = 0;
#define TAKE(type, n, fmt, range) if (params_is_set(run_set, k++)) p->n = run->n;
    PARAMS_LIST(TAKE)
#undef TAKE
#undef TEXT
    *set = *run_set;
    follow(p, set);
    return 0;
}

void params_set_text(const Params *p, const ParamsSet *set, int values, char *buf, size_t len)
{
    char v[32];
    size_t n = 0;
    int k = 0;
    buf[0] = 0;
#define PUT(type, name, fmt, range) \
    if (params_is_set(set, k++) && n < len) { \
        if (!strcmp(#type, "int")) snprintf(v, sizeof v, "%d", (int)p->name); else text_number((double)p->name, v); \
        if (values) n += (size_t)snprintf(buf + n, len - n, "%s--set %s=%s", n ? " " : "", #name, v); \
        else n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "", #name); \
    }
    PARAMS_LIST(PUT)
#undef PUT
}

const char *params_source(const Params *p, const ParamsSet *set, char *buf, size_t len)
{
    char sets[4096];
    params_set_text(p, set, 1, sets, sizeof sets);
    snprintf(buf, len, "%s%s%s", params_file, sets[0] ? " with " : "", sets);
    return buf;
}

void params_print(FILE *f, const Params *p, const char *prefix)
{
    char buf[32];
#define PRINT(type, name, fmt, range) \
    if (!strcmp(fmt, "%.17g")) fprintf(f, "%s%-9s = %s\n", prefix, #name, text_number((double)p->name, buf)); \
    else fprintf(f, "%s%-9s = " fmt "\n", prefix, #name, p->name);
    PARAMS_BASE(PRINT)
    if (params_box_on(p)) { PARAMS_BOX(PRINT) }
#undef PRINT
}

/* Semi-implicit Euler is stable while dt < 2 / omega for every mode, omega^2 being an eigenvalue of
 * the Hessian of U (vertex mass 1). The stiffest mode of each term (docs/model.md 3):
 *   repulsion:       omega^2 = kr, a vertex pressed into an edge;
 *   edge elasticity and line tension: omega^2 = 4 (kl + gamma) / lmin, the zigzag of the
 *                    shortest edges;
 *   area elasticity: U = ka/2 (A - A0)^2 has the Hessian ka g g^T + ka (A - A0) grad^2 A with
 *                    g_i = dA/dr_i; at A = A0 it is of rank one, and its mode is the polygon's
 *                    breathing, omega^2 = ka |g|^2 = ka area_g2, which grows with the polygon
 *                    (|g_i| is half the distance of vertex i's neighbours, about one edge length:
 *                    |g|^2 is about perimeter times edge length);
 *   bending:         kappa_i ~ (y_{i+1} - 2 y_i + y_{i-1}) / l^2 for small angles, so
 *                    U ~ kb / (2 l^3) sum (y_{i+1} - 2 y_i + y_{i-1})^2; the zigzag y_i = +-a
 *                    gives U = 8 kb a^2 / l^3 per vertex, omega^2 = 16 kb / lmin^3;
 *   viscous damping: explicit, v <- (1 - cv dt) v alone, stable while cv dt < 2: the limit
 *                    2 / omega with omega^2 = cv^2. (Damping and a spring together: the step
 *                    maps (x, v) by a matrix of determinant 1 - cv dt and trace
 *                    2 - cv dt - omega^2 dt^2, stable while omega^2 dt^2 < 4 - 2 cv dt, i.e.
 *                    dt < (2 / omega) sqrt(1 - cv dt / 2): within 3 % of 2 / omega while
 *                    cv dt < 0.1, as in every header. The estimate takes the terms one by one.);
 *   box walls:       U = box_k d^2 / 2 for a vertex d beyond a wall: omega^2 = box_k. */
double params_stable_dt(const Params *p, double area_g2, const char **what)
{
    double lmin = p->lmin > 0 ? p->lmin : p->h;
    struct { double k; const char *what; } term[] = {
        { p->kr, "repulsion kr" },
        { 4 * (p->kl + p->gamma) / lmin, "edge elasticity and line tension over lmin" },
        { p->ka * area_g2, "area elasticity ka of the largest polygon, its breathing mode" },
        { 16 * p->kb / (lmin * lmin * lmin), "bending kb over lmin, its zigzag mode" },
        { p->cv * p->cv, "viscous damping cv, explicit" },
        { params_box_on(p) ? p->box_k : 0, "box walls box_k, a vertex beyond a wall" },
    };
    double k = 0;
    *what = term[0].what;
    for (size_t j = 0; j < sizeof term / sizeof term[0]; j++)
        if (term[j].k > k) { k = term[j].k; *what = term[j].what; }
    return k > 0 ? 2 / sqrt(k) : INFINITY;
}

int params_warn_limit(FILE *f, double dt, double dt_max, const char *what, int type)
{
    /* (without springs dt_max is infinite: no bound) */
    if (isfinite(dt_max) && dt < 1e-6 * dt_max) {
        fprintf(f, "polyhoop: warning: dt = %g is less than a millionth of the stability limit %.3g (%s): the run "
                "takes over 10^6 times the steps it needs, and vertices may not move at all (x + dt v == x)\n",
                dt, dt_max, what);
        return 1;
    }
    if (!(dt > dt_max)) return 0;
    char whose[48] = "";
    if (type >= 0) snprintf(whose, sizeof whose, "cell type %d: ", type);
    fprintf(f, "polyhoop: warning: dt = %g exceeds the stability limit %.3g of the stiffest spring (%s%s); "
            "expect a blow-up. Suggested: dt <= %.2g\n", dt, dt_max, whose, what, 0.5 * dt_max);
    return 1;
}

int params_warn_dt(FILE *f, const Params *p, double area_g2)
{
    const char *what;
    double dt_max = params_stable_dt(p, area_g2, &what);
    return params_warn_limit(f, p->dt, dt_max, what, -1);
}
