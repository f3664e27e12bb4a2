/* The thread count a run chooses (options_threads). The program under faults (an unstable time
 * step, a full disk, bad inputs and options, signals, restarts) is tested from the command line:
 * tests/cli/faults_*.sh and tests/cli/restart.sh. */
#include "harness.h"
#include "options.h"
#include <math.h>

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

/* The cores other programs keep busy, from two readings of /proc/stat's first line: the share of
 * the time between them that was not idle (idle and iowait are idle; user, nice, system, irq,
 * softirq and steal are not; guest time is within user time and not counted twice). */
void test_faults_busy_share(void)
{
    const char *t0 = "cpu  1000 10 200 5000 100 5 5 0 0 0\n";
    /* +60 user, +20 system, +100 idle, +20 iowait: 200 ticks, 120 idle */
    ENSURE(fabs(options_busy_share(t0, "cpu  1060 10 220 5100 120 5 5 0 30 0\n") - 0.4) < 1e-12);   /* (30 of it a guest's) */
    ENSURE(options_busy_share(t0, "cpu  1000 10 200 5200 100 5 5 0 0 0\n") == 0);   /* all idle */
    ENSURE(options_busy_share(t0, "cpu  1100 10 200 5000 100 5 5 100 9 9\n") == 1);   /* user and steal; guest within user */
    ENSURE(options_busy_share(t0, t0) == -1);                                         /* no time passed */
    ENSURE(options_busy_share(t0, "intr 1 2 3") == -1 && options_busy_share("", t0) == -1);
    ENSURE(options_busy_share(t0, "cpu  1000 10 200 4000 100 5 5 0 0 0\n") == -1);   /* all went back */
    ENSURE(options_busy_share(t0, "cpu  2000 10 200 4900 100 5 5 0 0 0\n") == -1);   /* idle went back, the total on */
}
