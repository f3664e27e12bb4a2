/* Scale check (paper section 5, make bench): the default growth continued to 10,000 cells, with
 * growth gated at beta = 0.9 so that the interior does not over-compress. Frames every t = 0.5.
 *   make PARAMS=params/scale.h && ./polyhoop --max-cells 10000 -o outputs/scale */
#include "default.h"
#undef P_beta
#define P_beta      0.9       /* [-]     grow only while A/A0 > beta */
#undef P_Nf
#define P_Nf        400       /* frames after the initial one (t = 200) */
#undef P_Ns
#define P_Ns        5000      /* steps per frame */
