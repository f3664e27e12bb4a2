/* Atomic replacement of a file (see atomic.h): "<path>.tmp", fflush, fsync, rename. The .tmp
 * name is built in a fixed buffer, long enough for any path the system accepts (PATH_MAX is
 * 4096 on Linux); a longer one is refused as too long before anything is created. */
#define _POSIX_C_SOURCE 200809L   /* fileno, fsync */
#include "atomic.h"
#include <errno.h>
#include <string.h>
#include <unistd.h>

enum { TMP_MAX_LEN = 4200 };

static int fail(char *err, size_t errlen, const char *path, const char *why, int errnum)
{
    if (err && errlen) snprintf(err, errlen, "%s: %s (%s)", path, why, strerror(errnum));
    return -1;
}

FILE *atomic_open(const char *path, char *err, size_t errlen)
{
    char tmp[TMP_MAX_LEN];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp) { fail(err, errlen, path, "path too long", ENAMETOOLONG); return NULL; }
    FILE *f = fopen(tmp, "wb");
    if (!f) fail(err, errlen, path, "cannot create the .tmp file", errno);
    return f;
}

int atomic_close(FILE *f, const char *path, int failed, int sync, char *err, size_t errlen)
{
    char tmp[TMP_MAX_LEN];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);   /* (atomic_open checked the length) */
    const char *why = "write failed";
    int e = failed;
    if (!e && fflush(f) != 0) e = errno ? errno : EIO;
    if (!e && sync && fsync(fileno(f)) != 0) { e = errno; why = "fsync failed"; }
    if (fclose(f) != 0 && !e) e = errno ? errno : EIO;
    if (!e && rename(tmp, path) != 0) { e = errno; why = "cannot rename the .tmp file"; }
    if (e) remove(tmp);
    return e ? fail(err, errlen, path, why, e) : 0;
}

int atomic_write(const char *path, const void *const *data, const size_t *size, int nparts, int sync,
                 char *err, size_t errlen)
{
    FILE *f = atomic_open(path, err, errlen);
    if (!f) return -1;
    int e = 0;
    for (int k = 0; k < nparts && !e; k++)
        if (size[k] && fwrite(data[k], 1, size[k], f) != size[k]) e = errno ? errno : EIO;   /* (fwrite of NULL is undefined, even for 0 bytes) */
    return atomic_close(f, path, e, sync, err, errlen);
}
