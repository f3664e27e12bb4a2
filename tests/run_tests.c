/* The test runner: `tests/run_tests [filter]` runs every test whose name contains the filter
 * (all tests without one) and ends with the line "N passed, N failed" (", N skipped" follows
 * when a test could not run here). Exit status 0 only when nothing failed. PH_TEST_SKIP="a b"
 * leaves tests a and b out (and out of --list), as for the command-line tests. */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>

jmp_buf harness_jump;
int harness_skipped;
char harness_skip_why[512];

#define TEST(name) void name(void);
#include "tests.def"
#undef TEST

static const struct { const char *name; void (*fn)(void); } all_tests[] = {
#define TEST(name) { #name, name },
#include "tests.def"
#undef TEST
};

/* whether name is one of the space-separated names of PH_TEST_SKIP */
static int left_out(const char *name)
{
    const char *s = getenv("PH_TEST_SKIP");
    size_t n = strlen(name);
    for (const char *p = s ? strstr(s, name) : NULL; p; p = strstr(p + 1, name))
        if ((p == s || p[-1] == ' ') && (p[n] == ' ' || p[n] == 0)) return 1;
    return 0;
}

int main(int argc, char **argv)
{
    int list = argc > 1 && !strcmp(argv[1], "--list");   /* --list [FILTER]: the names only */
    const char *filter = argc > 1 + list ? argv[1 + list] : "";
    if (list) {
        for (size_t k = 0; k < sizeof all_tests / sizeof all_tests[0]; k++)
            if (strstr(all_tests[k].name, filter) && !left_out(all_tests[k].name)) printf("%s\n", all_tests[k].name);
        return 0;
    }
    static int passed, failed, skipped;  /* static: they live across longjmp */
    setvbuf(stdout, NULL, _IOLBF, 0);
    static size_t k;
    for (k = 0; k < sizeof all_tests / sizeof all_tests[0]; k++) {
        if (!strstr(all_tests[k].name, filter) || left_out(all_tests[k].name)) continue;
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        harness_skipped = 0;
        int r = setjmp(harness_jump);
        if (r == 0) all_tests[k].fn();
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double s = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
        if (r == 2) {
            skipped++;
            printf("skip %-40s %s\n", all_tests[k].name, harness_skip_why);
        } else if (r == 1) {
            failed++;
            printf("FAIL %-40s (%.2f s)\n", all_tests[k].name, s);
        } else {
            passed++;
            printf("ok   %-40s (%.2f s)\n", all_tests[k].name, s);
        }
    }
    if (skipped) printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
    else printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
