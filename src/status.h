/* How the program ends: its exit statuses, and the one function that turns an error into its
 * message and status. main (polyhoop.c) ends every failed run through it; besides main, only an
 * allocation that fails deep inside a step or a check calls it (ph_realloc, remodeling's bound on
 * vertex slots, the input overlap check's copy beyond 2^31 vertices), where no caller could go
 * on. Every other module returns its error. */
#ifndef PH_STATUS_H
#define PH_STATUS_H

enum {
    PH_EXIT_OK = 0, PH_EXIT_MEMORY = 1, PH_EXIT_USAGE = 2, PH_EXIT_BLOWUP = 3, PH_EXIT_OUTPUT = 4
};

/* Writes "polyhoop: " and the formatted message to stderr (standard output flushed first, so
 * that the two streams keep their order on a terminal) and exits with status. */
_Noreturn void status_exit(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
