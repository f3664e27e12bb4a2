/* Membrane passage of projectiles (docs/model.md 5.2), on when v_pass > 0: a small polygon (area
 * at most A_pass, a "projectile") whose hoop touches the hoop of a larger polygon (a "cell") from
 * outside, approaching it faster than v_pass along the membrane's normal, is moved through the
 * membrane into the cell, where it keeps its speed less what the passage costs. */
#ifndef PH_PASSAGE_H
#define PH_PASSAGE_H
#include "contact.h"
#include "ensemble.h"
#include "params.h"

/* Applies the passages found in the pair records of the last contact_forces_step call (their
 * slots must still be valid: before fusion), fastest first, each projectile at most once per
 * step, serially; logs each as an event. Returns the number of passages (the contact list must
 * then be rebuilt: the projectiles jumped). */
int passage_update(Ensemble *e, const Params *P, const Contact *c);

#endif
