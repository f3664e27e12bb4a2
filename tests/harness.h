/* A tiny test harness. Each tests/test_<module>.c defines functions `void test_x(void)` using
 * ENSURE / ENSURE_SMALL / ENSURE_CLOSE; tests/run_tests.c lists them with RUN_TEST and prints
 * "N passed, N failed" at the end. A test fails at its first failed check and the runner goes on.
 * A test that cannot run here (a missing tool) calls SKIP("why"). */
#ifndef PH_HARNESS_H
#define PH_HARNESS_H
#include <math.h>
#include <setjmp.h>
#include <stdio.h>

extern jmp_buf harness_jump;
extern int harness_skipped;
extern char harness_skip_why[512];

#define ENSURE(c) do { if (!(c)) { \
    fprintf(stderr, "  %s:%d: ENSURE(%s) failed\n", __FILE__, __LINE__, #c); \
    longjmp(harness_jump, 1); } } while (0)

#define ENSURE_MSG(c, ...) do { if (!(c)) { \
    fprintf(stderr, "  %s:%d: ENSURE(%s) failed: ", __FILE__, __LINE__, #c); \
    fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); \
    longjmp(harness_jump, 1); } } while (0)

/* |value| <= tol */
#define ENSURE_SMALL(value, tol) do { double v_ = (value), t_ = (tol); if (!(fabs(v_) <= t_)) { \
    fprintf(stderr, "  %s:%d: |%s| = %.6g > %.3g\n", __FILE__, __LINE__, #value, fabs(v_), t_); \
    longjmp(harness_jump, 1); } } while (0)

/* |a - b| <= tol */
#define ENSURE_CLOSE(a, b, tol) do { double a_ = (a), b_ = (b), t_ = (tol); \
    if (!(fabs(a_ - b_) <= t_)) { \
    fprintf(stderr, "  %s:%d: %s = %.12g, %s = %.12g, differ by %.3g > %.3g\n", __FILE__, \
            __LINE__, #a, a_, #b, b_, fabs(a_ - b_), t_); \
    longjmp(harness_jump, 1); } } while (0)

#define SKIP(...) do { harness_skipped = 1; \
    snprintf(harness_skip_why, sizeof harness_skip_why, __VA_ARGS__); \
    longjmp(harness_jump, 2); } while (0)

#endif
