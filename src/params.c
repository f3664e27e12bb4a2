/* The compiled-in parameter set: the header named by PH_PARAMS_FILE (default params/default.h)
 * defines P_<name> macros; they are checked here at compile time and gathered into one struct.
 * _Static_assert on floating constants is a GCC extension under -pedantic, hence __extension__. */
#include "params.h"
#include <math.h>
#include <string.h>

#ifndef PH_PARAMS_FILE
#define PH_PARAMS_FILE "../params/default.h"
#endif
#include PH_PARAMS_FILE

#define PH_CHECK(c, msg) __extension__ _Static_assert(c, PH_PARAMS_FILE ": " msg)
PH_CHECK(P_h > 0, "h must be > 0");
PH_CHECK(P_lmin >= 0, "lmin must be >= 0");
PH_CHECK(P_lmax > 2 * P_lmin, "lmax must be > 2 lmin");
PH_CHECK(P_Q > 0 || (P_Q == 0 && P_kl == 0), "Q must be > 0 (Q = 0 only with kl = 0)");
PH_CHECK(P_sh >= 0 && P_ss >= 0, "sh and ss must be >= 0");
PH_CHECK(P_theta >= 0 && P_theta <= 1, "theta must be in [0, 1]");
PH_CHECK(P_alpha_CV >= 0 && P_Amax_CV >= 0, "coefficients of variation must be >= 0");
PH_CHECK(P_alpha_CV == 0 || P_alpha_mu > 0, "a lognormal growth rate needs alpha_mu > 0");
PH_CHECK(P_Amax_mu > 0, "Amax_mu must be > 0");
PH_CHECK(P_Amin >= 0 && P_Amax_mu > P_Amin, "need 0 <= Amin < Amax");
PH_CHECK(P_beta >= 0, "beta must be >= 0");
PH_CHECK(P_ka >= 0 && P_kl >= 0 && P_kb >= 0 && P_kr >= 0 && P_kh >= 0, "stiffnesses must be >= 0");
PH_CHECK(P_mu >= 0 && P_cv >= 0 && P_cc >= 0 && P_cd >= 0, "dissipation coefficients must be >= 0");
PH_CHECK(P_dt > 0, "dt must be > 0");
PH_CHECK(P_Nf >= 0 && P_Ns >= 1 && P_Nr >= 0, "need Nf >= 0, Ns >= 1, Nr >= 0");

const char params_file[] = PH_PARAMS_FILE;
const Params params_compiled = {
    .h = P_h, .lmin = P_lmin, .lmax = P_lmax, .Q = P_Q, .sh = P_sh, .ss = P_ss, .theta = P_theta,
    .alpha_mu = P_alpha_mu, .alpha_CV = P_alpha_CV, .beta = P_beta, .Amin = P_Amin,
    .Amax_mu = P_Amax_mu, .Amax_CV = P_Amax_CV,
    .ka = P_ka, .gamma = P_gamma, .kl = P_kl, .kb = P_kb, .kr = P_kr, .kh = P_kh, .mu = P_mu,
    .rho = P_rho, .g = P_g, .gl = P_gl, .cv = P_cv, .cc = P_cc, .cd = P_cd, .dt = P_dt,
    .Nf = P_Nf, .Ns = P_Ns, .Nr = P_Nr,
};

int params_check(const Params *p, char *msg, size_t len)
{
    const char *bad = NULL;
    if (!(p->h > 0)) bad = "h must be > 0";
    else if (!(p->lmin >= 0)) bad = "lmin must be >= 0";
    else if (!(p->lmax > 2 * p->lmin)) bad = "lmax must be > 2 lmin";
    else if (!(p->Q > 0 || (p->Q == 0 && p->kl == 0))) bad = "Q must be > 0 (Q = 0 only with kl = 0)";
    else if (!(p->sh >= 0 && p->ss >= 0)) bad = "sh and ss must be >= 0";
    else if (!(p->theta >= 0 && p->theta <= 1)) bad = "theta must be in [0, 1]";
    else if (!(p->alpha_CV >= 0 && p->Amax_CV >= 0)) bad = "coefficients of variation must be >= 0";
    else if (!(p->alpha_CV == 0 || p->alpha_mu > 0)) bad = "a lognormal growth rate needs alpha_mu > 0";
    else if (!(p->Amin >= 0 && p->Amax_mu > p->Amin)) bad = "need 0 <= Amin < Amax";
    else if (!(p->beta >= 0)) bad = "beta must be >= 0";
    else if (!(p->dt > 0 && isfinite(p->dt))) bad = "dt must be > 0";
    else if (!(p->Ns >= 1 && p->Nf >= 0 && p->Nr >= 0)) bad = "need Nf >= 0, Ns >= 1, Nr >= 0";
    if (!bad) return 0;
    snprintf(msg, len, "%s", bad);
    return -1;
}

void params_print(FILE *f, const Params *p, const char *prefix)
{
#define PR(name) fprintf(f, "%s%-9s = %.17g\n", prefix, #name, (double)p->name)
    PR(h); PR(lmin); PR(lmax); PR(Q); PR(sh); PR(ss); PR(theta);
    PR(alpha_mu); PR(alpha_CV); PR(beta); PR(Amin); PR(Amax_mu); PR(Amax_CV);
    PR(ka); PR(gamma); PR(kl); PR(kb); PR(kr); PR(kh); PR(mu); PR(rho);
    PR(g); PR(gl); PR(cv); PR(cc); PR(cd); PR(dt); PR(Nf); PR(Ns); PR(Nr);
#undef PR
}

double params_stable_dt(const Params *p, const char **what)
{
    double k = p->kr;
    *what = "repulsion kr";
    double lmin = p->lmin > 0 ? p->lmin : p->h;
    if (4 * (p->kl + p->gamma) / lmin > k) { k = 4 * (p->kl + p->gamma) / lmin; *what = "edge elasticity and line tension over lmin"; }
    return k > 0 ? 2 / sqrt(k) : INFINITY;
}
