/* A libFuzzer target for the OFF reader (`make fuzz`). off_read takes a path, so each input is
 * written to a file of this process, /tmp/ph_fuzz_off.<pid>.off, read and removed. Besides what the
 * sanitizers catch (out-of-bounds access, undefined behaviour, leaks), every call must keep the
 * promises of off.h: on success, counter-clockwise polygons of finite area, at least 3 finite
 * vertices, phase +-1 and a line number; on failure, an empty result and a message that starts
 * with "path:". A broken promise aborts, which libFuzzer reports as a crash with its input. */
#define _POSIX_C_SOURCE 200809L
#include "off.h"
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char path[64];
static FILE *report; /* stderr as it was at start: make fuzz closes fd 2 to mute off_read's warnings */

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    snprintf(path, sizeof path, "/tmp/ph_fuzz_off.%ld.off", (long)getpid());
    int fd = dup(STDERR_FILENO);
    report = fd >= 0 ? fdopen(fd, "w") : NULL;
    return 0;
}

#define PROMISE(c) do { if (!(c)) { \
    fprintf(report ? report : stderr, "fuzz_off: broken promise: %s\n", #c); \
    fflush(report); abort(); } } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0) {
        perror(path);
        abort();
    }
    OffData d;
    char err[512];
    int rc = off_read(path, &d, err, sizeof err);
    unlink(path); /* now, not at exit: libFuzzer ends some runs with _Exit */
    PROMISE(rc == 0 || rc == -1);
    PROMISE(memchr(err, '\0', sizeof err));
    if (rc == 0) {
        PROMISE(d.np > 0 && d.poly);
        for (int p = 0; p < d.np; p++) {
            const OffPolygon *P = &d.poly[p];
            PROMISE(P->n >= 3 && P->x && P->y && (P->phase == 1 || P->phase == -1) && P->line > 0);
            double twice_area = 0, magnitude = 0; /* shoelace about vertex 0, as off.c computes it */
            for (int k = 0; k < P->n; k++) PROMISE(isfinite(P->x[k]) && isfinite(P->y[k]));
            for (int k = 1; k + 1 < P->n; k++) {
                double l = (P->x[k] - P->x[0]) * (P->y[k + 1] - P->y[0]), r = (P->x[k + 1] - P->x[0]) * (P->y[k] - P->y[0]);
                twice_area += l - r;
                magnitude += fabs(l) + fabs(r);
            }
            /* a finite area (the simulation needs one), counter-clockwise up to rounding */
            PROMISE(isfinite(twice_area) && isfinite(magnitude));
            PROMISE(twice_area > -4 * (P->n + 4) * DBL_EPSILON * magnitude);
        }
    } else {
        PROMISE(d.np == 0 && d.poly == NULL);
        PROMISE(strncmp(err, path, strlen(path)) == 0 && err[strlen(path)] == ':');
    }
    off_free(&d);
    PROMISE(d.np == 0 && d.poly == NULL);
    return 0;
}
