/* Atomic replacement of a file (see atomic.h): "<path>.tmp", fflush, fsync, rename. The .tmp
 * name is built in a fixed buffer, long enough for any path the system accepts (PATH_MAX is
 * 4096 on Linux); a longer one is refused as too long before anything is created.
 *
 * Nothing is written through a symbolic link planted in the output folder: a stale .tmp (file or
 * link) is unlinked, not opened, and the new one is created with O_EXCL | O_NOFOLLOW, so it is a
 * new file of ours; rename then replaces a link at path itself, not its target. */
#define _POSIX_C_SOURCE 200809L   /* fileno, fsync, fdopen */
#include "atomic.h"
#include "text.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

enum { TMP_MAX_LEN = 4200 };

/* the .tmp being written (one at a time, by the main thread), for atomic_abandon */
static char writing[TMP_MAX_LEN];
static volatile sig_atomic_t is_writing;

static int fail(char *err, size_t errlen, const char *path, const char *why, int errnum)
{
    if (err && errlen) snprintf(err, errlen, "%s: %s (%s)", TEXT_ESC(path), why, strerror(errnum));
    return -1;
}

FILE *atomic_open(const char *path, char *err, size_t errlen)
{
    char tmp[TMP_MAX_LEN];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp) {
        fail(err, errlen, path, "path too long", ENAMETOOLONG);
        return NULL;
    }
    if (unlink(tmp) != 0 && errno != ENOENT) {
        fail(err, errlen, path, "cannot remove the stale .tmp file", errno);
        return NULL;
    }
    /* (named for atomic_abandon before it exists: a signal at any point leaves no .tmp) */
    is_writing = 0;
    memcpy(writing, tmp, sizeof tmp);
    is_writing = 1;
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (!f) {
        int e = errno;
        is_writing = 0;
        if (fd >= 0) { close(fd); unlink(tmp); }
        fail(err, errlen, path, "cannot create the .tmp file", e);
    }
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
    is_writing = 0;   /* (only now: a signal before the rename removes the .tmp) */
    return e ? fail(err, errlen, path, why, e) : 0;
}

void atomic_abandon(void)
{
    if (is_writing) unlink(writing);
}

int atomic_write(const char *path, const void *const *data, const size_t *size, int nparts,
                 int sync, char *err, size_t errlen)
{
    FILE *f = atomic_open(path, err, errlen);
    if (!f) return -1;
    int e = 0;
    for (int k = 0; k < nparts && !e; k++)
        if (size[k] && fwrite(data[k], 1, size[k], f) != size[k])   /* (not fwrite(NULL, 0)) */
            e = errno ? errno : EIO;
    return atomic_close(f, path, e, sync, err, errlen);
}
