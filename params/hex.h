/* Benchmark (paper section 5, make bench): the defaults with growth off; input from
 * scripts/make_hex.py: hexagonal close packing of 48-vertex cells in adhesive contact. */
#include "default.h"
#undef P_alpha_mu
#define P_alpha_mu  0.0       /* [L^2/T] mean area growth rate: off */
#undef P_Amax_mu
#define P_Amax_mu   INFINITY  /* [L^2]   no division (adhesion stretches the packed cells past pi) */
