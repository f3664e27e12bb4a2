/* The default parameters with noise, activity and rate-driven division and death switched on:
 * the program built with them must give the same frames at any thread count and across a kill
 * and restart (tests). */
#include "../params/default.h"
#undef P_D
#define P_D         0.002     /* [L^2/T] vertex diffusion constant */
#undef P_v0
#define P_v0        0.5       /* [L/T]   self-propulsion speed */
#undef P_Dr
#define P_Dr        1.0       /* [1/T]   rotational diffusion */
#undef P_k_div
#define P_k_div     2.0       /* [1/T]   division rate */
#undef P_k_death
#define P_k_death   0.2       /* [1/T]   death rate */
/* traits drawn at every division from the serial random stream, whose draw count the checkpoint
 * must keep for a restart to go on as the run would have */
#undef P_alpha_CV
#define P_alpha_CV  0.3       /* [-]     growth rates' coefficient of variation */
#undef P_Amax_CV
#define P_Amax_CV   0.2       /* [-]     division areas' coefficient of variation */
