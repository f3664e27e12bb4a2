/* The thread count a run chooses (options_threads). The program under faults (an unstable time
 * step, a full disk, bad inputs and options, signals, restarts) is tested from the command line:
 * tests/cli/faults_*.sh and tests/cli/restart.sh. */
#include "harness.h"
#include "options.h"

/* Without -j or OMP_NUM_THREADS the thread count follows the vertex count: one thread below
 * 2 VERTICES_PER_THREAD vertices, one more per VERTICES_PER_THREAD, at most the free cores; -j
 * and OMP_NUM_THREADS fix it. (The banner that says which: tests/cli/faults_options.sh.) */
void test_faults_automatic_threads(void)
{
    Options o = { .free_cores = 4 };
    ENSURE(options_threads(&o, 40) == 1);
    ENSURE(options_threads(&o, 2 * VERTICES_PER_THREAD - 1) == 1);
    ENSURE(options_threads(&o, 2 * VERTICES_PER_THREAD) == 2);
    ENSURE(options_threads(&o, 1000000) == 4);
    o.threads = 3;
    ENSURE(options_threads(&o, 40) == 3 && options_threads(&o, 1000000) == 3);
}
