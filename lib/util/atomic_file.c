/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * atomic_file.c - write beside the target, then rename over it.
 *
 * rename(2) within one directory is atomic, so a reader sees either the old
 * file or the complete new one, and a profiler killed midway (or a writer
 * that fails) leaves the old file untouched.
 *
 * The temporary file is created with open(O_CREAT | O_EXCL, 0644) rather
 * than mkstemp(): mkstemp forces mode 0600, and reading the umask to fix it
 * afterwards means changing it (umask(2) has no read-only form), which is
 * process-wide state a library must not touch.  Letting the kernel apply
 * the umask to 0644 gives a new file the mode the user expects; an existing
 * target's permission bits are copied onto the replacement.
 *
 * Only regular files are replaced.  A symbolic link is followed and the
 * file it points to is replaced (the link stays a link).  A target that
 * exists and is not a regular file (/dev/null, a FIFO, a terminal) is
 * written in place: renaming over it would swap a device node for a plain
 * file, and such targets have no "half-written" state to protect anyway.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/atomic_track.h"
#include "util/xu_atomic_file.h"

#define NEW_FILE_MODE 0644
#define TMP_ATTEMPTS 100

static uint64_t random_suffix(unsigned int attempt)
{
    uint64_t r = 0;
    struct timespec ts;

    if (getrandom(&r, sizeof(r), GRND_NONBLOCK) == (ssize_t)sizeof(r))
        return r;
    /* no entropy yet (early boot): unique enough with O_EXCL retrying */
    clock_gettime(CLOCK_MONOTONIC, &ts);
    r = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 30) ^ ((uint64_t)getpid() << 16) ^ attempt;
    return r * 0x9e3779b97f4a7c15ULL;
}

/*
 * The FILE writes through these so that a failed write's errno is kept:
 * stdio only keeps "an error happened", and by the time a writer's
 * ferror() check or fclose() reports it, errno may say anything.
 */
static ssize_t cookie_write(void *cookie, const char *buf, size_t size)
{
    struct xu_atomic_file *af = cookie;
    size_t done = 0;

    while (done < size) {
        ssize_t n = write(af->fd, buf + done, size - done);

        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (n == 0)
                errno = EIO;
            if (!af->write_errno)
                af->write_errno = errno;
            return done ? (ssize_t)done : -1;
        }
        done += (size_t)n;
    }
    return (ssize_t)done;
}

static int cookie_close(void *cookie)
{
    struct xu_atomic_file *af = cookie;
    int rc = close(af->fd);

    af->fd = -1;
    return rc;
}

static FILE *open_stream(struct xu_atomic_file *af, int fd)
{
    static const cookie_io_functions_t io = { .write = cookie_write, .close = cookie_close };

    af->fd = fd;
    return fopencookie(af, "w", io);
}

int xu_atomic_reason(const struct xu_atomic_file *af, int rc)
{
    return rc == -EIO && af && af->write_errno ? -af->write_errno : rc;
}

/* "<dir>/.<name>." without the random part, or NULL. */
static char *tmp_prefix(const char *path)
{
    const char *slash = strrchr(path, '/');
    size_t dir_len = slash ? (size_t)(slash - path) + 1 : 0;
    const char *base = path + dir_len;
    size_t len = dir_len + 1 + strlen(base) + 1 + 6 + 1;
    char *p;

    if (!base[0]) {
        errno = EISDIR;
        return NULL;
    }
    p = malloc(len);
    if (!p)
        return NULL;
    snprintf(p, len, "%.*s.%s.", (int)dir_len, path, base);
    return p;
}

/* A target that is not a regular file: opened and written in place. */
static struct xu_atomic_file *open_in_place(const char *path)
{
    struct xu_atomic_file *af = calloc(1, sizeof(*af));
    int err;

    int fd = -1;

    if (!af || !(af->path = strdup(path)))
        goto fail;
    af->fd = -1;
    af->track_slot = -1;
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, NEW_FILE_MODE);
    if (fd < 0)
        goto fail;
    af->f = open_stream(af, fd);
    if (!af->f)
        goto fail;
    return af;
fail:
    err = errno ? errno : ENOMEM;
    if (fd >= 0)
        close(fd);
    if (af)
        free(af->path);
    free(af);
    errno = err;
    return NULL;
}

/*
 * Where a symbolic link leads: its resolved path when the target exists,
 * else (a dangling link, the file to be created) its text, relative to the
 * link's directory.  NULL when it cannot be read.
 */
static char *link_target(const char *path)
{
    char text[4096], *out;
    const char *slash;
    ssize_t n;

    out = realpath(path, NULL);
    if (out)
        return out;
    n = readlink(path, text, sizeof(text) - 1);
    if (n <= 0)
        return NULL;
    text[n] = '\0';
    slash = strrchr(path, '/');
    if (text[0] == '/' || !slash)
        return strdup(text);
    if (asprintf(&out, "%.*s/%s", (int)(slash - path), path, text) < 0)
        return NULL;
    return out;
}

struct xu_atomic_file *xu_atomic_open(const char *path)
{
    struct xu_atomic_file *af = NULL, *ret = NULL;
    char *prefix = NULL, *resolved = NULL;
    struct stat stbuf;
    int fd = -1, err = 0;
    unsigned int attempt;
    size_t len;

    errno = 0;
    /* replace what a link points to, not the link */
    if (lstat(path, &stbuf) == 0 && S_ISLNK(stbuf.st_mode) && (resolved = link_target(path)))
        path = resolved;
    if (stat(path, &stbuf) == 0 && !S_ISREG(stbuf.st_mode)) {
        if (S_ISDIR(stbuf.st_mode)) {
            err = EISDIR;
            goto out;
        }
        ret = open_in_place(path);
        err = errno;
        goto out;
    }
    af = calloc(1, sizeof(*af));
    if (af) {
        af->fd = -1;
        af->track_slot = -1;
    }
    if (!af || !(af->path = strdup(path)) || !(prefix = tmp_prefix(path))) {
        err = errno ? errno : ENOMEM;
        goto out;
    }
    len = strlen(prefix) + 7;
    af->tmp_path = malloc(len);
    if (!af->tmp_path) {
        err = ENOMEM;
        goto out;
    }
    for (attempt = 0; attempt < TMP_ATTEMPTS; attempt++) {
        static const char chars[] =
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
        uint64_t r = random_suffix(attempt);
        char suffix[7];
        int i;

        for (i = 0; i < 6; i++, r /= 62)
            suffix[i] = chars[r % 62];
        suffix[6] = '\0';
        snprintf(af->tmp_path, len, "%s%s", prefix, suffix);
        fd = open(af->tmp_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, NEW_FILE_MODE);
        if (fd >= 0 || errno != EEXIST)
            break;
    }
    if (fd < 0) {
        err = errno;
        goto out;
    }
    af->track_slot = xu_atomic_track(af->tmp_path);
    if (stat(path, &stbuf) == 0 && S_ISREG(stbuf.st_mode) &&
        fchmod(fd, stbuf.st_mode & 07777) < 0) {
        err = errno;
        goto out;
    }
    af->f = open_stream(af, fd);
    if (!af->f) {
        err = errno;
        goto out;
    }
    fd = -1;            /* owned by af->f now */
    ret = af;
    af = NULL;

out:
    if (fd >= 0) {
        close(fd);
        unlink(af->tmp_path);
    }
    if (af)
        xu_atomic_untrack(af->track_slot);
    if (af) {
        free(af->path);
        free(af->tmp_path);
        free(af);
    }
    free(prefix);
    free(resolved);
    if (!ret)
        errno = err;
    return ret;
}

/* Make the rename itself durable; failing here loses nothing written. */
static void sync_dir(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir = NULL;
    int fd;

    if (!slash)
        dir = strdup(".");
    else if (slash == path)
        dir = strdup("/");
    else
        dir = strndup(path, (size_t)(slash - path));
    if (!dir)
        return;
    fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
    free(dir);
}

int xu_atomic_commit(struct xu_atomic_file *af)
{
    int rc = 0;

    /* ferror first: a writer that ignored a failed fprintf is caught here */
    if (ferror(af->f))
        rc = -EIO;
    else if (fflush(af->f) != 0 || (af->tmp_path && fsync(af->fd) != 0))
        rc = -errno;
    if (fclose(af->f) != 0 && rc == 0)
        rc = -errno;
    af->f = NULL;
    /* the write's own errno (ENOSPC, EDQUOT) rather than stdio's EIO */
    if (af->write_errno && (rc == 0 || rc == -EIO))
        rc = -af->write_errno;
    if (!af->tmp_path) {
        /* written in place: nothing to rename */
        free(af->path);
        free(af);
        return rc;
    }
    if (rc == 0 && rename(af->tmp_path, af->path) != 0)
        rc = -errno;
    if (rc < 0)
        unlink(af->tmp_path);
    else
        sync_dir(af->path);
    xu_atomic_untrack(af->track_slot);
    free(af->path);
    free(af->tmp_path);
    free(af);
    return rc;
}

void xu_atomic_abort(struct xu_atomic_file *af)
{
    if (!af)
        return;
    if (af->f)
        fclose(af->f);
    if (af->tmp_path)
        unlink(af->tmp_path);
    xu_atomic_untrack(af->track_slot);
    free(af->path);
    free(af->tmp_path);
    free(af);
}
