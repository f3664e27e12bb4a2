/* The run's log beside its frames: DIR/events.csv (every division, removal, death, fusion, split
 * and passage, with the ids involved) and DIR/observables.csv (one line per frame). Both grow as
 * the run goes; a restart first cuts them back to its checkpoint, so that they go on without gaps
 * or duplicates. Columns: docs/model.md 7. */
#ifndef PH_RUNLOG_H
#define PH_RUNLOG_H
#include "sim.h"
#include <stddef.h>

/* Starts the logs in dir (a restart keeps the events up to `step` and the observables up to
 * `frame`) and turns event logging on in s. 0, or -1 with err. */
int runlog_open(const char *dir, Sim *s, int restart, int64_t step, int frame, char *err,
                size_t len);

/* Appends the events noted since the last call and forgets them. 0, or -1 with err. */
int runlog_events(const char *dir, Sim *s, char *err, size_t len);

/* runlog_events, and the observables of this frame (nb: the neighbour counts; same: those of the
 * same cell type, or NULL; uc: the pair energy; all from sim_neighbors). 0, or -1 with err. */
int runlog_frame(const char *dir, Sim *s, int frame, const int *nb, const int *same, double uc,
                 char *err, size_t len);

#endif
