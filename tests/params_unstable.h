/* The default parameters with a time step far too large: a run with them must blow up (tests). */
#include "../params/default.h"
#undef P_dt
#define P_dt        1e-2      /* [T]     time step: far too large */
