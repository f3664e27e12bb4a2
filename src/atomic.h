/* Files replaced atomically: the bytes go to "<path>.tmp", which is flushed, synced to disk and
 * then renamed over path, so that neither a reader nor a run killed half-way ever sees a truncated
 * file; on any failure the .tmp is removed and path is left as it was. Frames, PNG pictures and
 * checkpoints are all written this way; frames.pvd too when it is written whole (without the
 * sync), and between those a frame's line is added in place (vtp.h). */
#ifndef PH_ATOMIC_H
#define PH_ATOMIC_H
#include <stddef.h>
#include <stdio.h>

/* Creates "<path>.tmp" for writing; NULL with "path: reason (strerror)" in err. */
FILE *atomic_open(const char *path, char *err, size_t errlen);

/* Ends a file from atomic_open: flushes, syncs if sync, closes and renames it over path; or, if
 * failed (the errno of an earlier failed write, or 0) or any of these steps fails, closes and
 * removes it. sync = 0 skips the fsync: the file is still replaced atomically, but may not survive
 * a crash of the machine. Returns 0, or -1 with "path: reason (strerror)" in err. */
int atomic_close(FILE *f, const char *path, int failed, int sync, char *err, size_t errlen);

/* Writes nparts pieces of memory, one after the other, as the file path (atomic_open, fwrite,
 * atomic_close). Returns 0, or -1 with the reason in err. */
int atomic_write(const char *path, const void *const *data, const size_t *size, int nparts,
                 int sync, char *err, size_t errlen);

/* Removes the .tmp file being written, if any: for a signal handler that ends the program before
 * the file is done (async-signal-safe: one unlink of a name kept from atomic_open). */
void atomic_abandon(void);

#endif
