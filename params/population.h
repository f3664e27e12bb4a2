/* A population born and dying at random (docs/model.md 3.1 and 5.1): cells grow from one, divide
 * at a rate that grows with their area and die at a rate that grows with the pressure on them,
 * crawl with a persistent random polarity and jiggle with Brownian noise. For a picture and the
 * log's plots: docs/usage.md "Noise, activity, and cells born and dying at random". */
#include "default.h"
#undef P_k_div
#define P_k_div     1.0       /* [1/T]   division rate at A = Amax_mu (replaces division above Amax) */
#undef P_n_div
#define P_n_div     1.0       /* [-]     rate k_div A / Amax_mu: large cells divide sooner */
#undef P_k_death
#define P_k_death   0.1       /* [1/T]   death rate */
#undef P_p_death
#define P_p_death   0.0       /* [1/T^2] 0: the death rate does not depend on pressure (try 2000: exp(p / 2000)) */
#undef P_D
#define P_D         0.001     /* [L^2/T] vertex diffusion constant */
#undef P_v0
#define P_v0        0.3       /* [L/T]   crawling speed */
#undef P_Dr
#define P_Dr        0.5       /* [1/T]   persistence time 2 */
