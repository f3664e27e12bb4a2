/* The end of a failed run (status.h). */
#include "status.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void status_exit(int status, const char *fmt, ...)
{
    fflush(stdout);
    va_list ap;
    va_start(ap, fmt);
    fputs("polyhoop: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(status);
}
