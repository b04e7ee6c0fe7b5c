/* SPDX-License-Identifier: GPL-2.0-only */
/* compressed.c - compressed kernels (see xu_compressed.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifdef HAVE_ZLIB
#include <zlib.h>
#endif

#include "symbols/xu_compressed.h"

static const struct {
    enum xu_compression c;
    const char *name, *suffix;
    unsigned char magic[6];
    size_t len;
} formats[] = {
    { XU_COMP_GZIP,  "gzip",  ".gz",   { 0x1f, 0x8b }, 2 },
    { XU_COMP_BZIP2, "bzip2", ".bz2",  { 'B', 'Z', 'h' }, 3 },
    { XU_COMP_XZ,    "xz",    ".xz",   { 0xfd, '7', 'z', 'X', 'Z', 0x00 }, 6 },
    { XU_COMP_LZMA,  "lzma",  ".lzma", { 0x5d, 0x00, 0x00 }, 3 },
    { XU_COMP_LZO,   "lzo",   ".lzo",  { 0x89, 'L', 'Z', 'O' }, 4 },
    { XU_COMP_LZ4,   "lz4",   ".lz4",  { 0x02, 0x21, 0x4c, 0x18 }, 4 },
    { XU_COMP_ZSTD,  "zstd",  ".zst",  { 0x28, 0xb5, 0x2f, 0xfd }, 4 },
};

#define NFORMATS (sizeof(formats) / sizeof(formats[0]))

enum xu_compression xu_compression_of(const char *path)
{
    unsigned char head[6] = { 0 };
    ssize_t n;
    int fd = open(path, O_RDONLY | O_CLOEXEC);

    if (fd < 0)
        return XU_COMP_NONE;
    n = read(fd, head, sizeof(head));
    close(fd);
    return n > 0 ? xu_compression_of_bytes(head, (size_t)n) : XU_COMP_NONE;
}

enum xu_compression xu_compression_of_bytes(const unsigned char *p, size_t len)
{
    size_t i;

    for (i = 0; i < NFORMATS; i++)
        if (len >= formats[i].len && memcmp(p, formats[i].magic, formats[i].len) == 0)
            return formats[i].c;
    return XU_COMP_NONE;
}

const char *xu_compression_name(enum xu_compression c)
{
    size_t i;

    for (i = 0; i < NFORMATS; i++)
        if (formats[i].c == c)
            return formats[i].name;
    return "uncompressed";
}

int xu_compression_strip_suffix(const char *path, enum xu_compression c, char *buf, size_t size)
{
    size_t i, len = strlen(path), sl;

    for (i = 0; i < NFORMATS; i++) {
        if (formats[i].c != c)
            continue;
        sl = strlen(formats[i].suffix);
        if (len <= sl || strcmp(path + len - sl, formats[i].suffix) != 0 || len - sl >= size)
            return -1;
        memcpy(buf, path, len - sl);
        buf[len - sl] = '\0';
        return 0;
    }
    return -1;
}

static int write_all(int fd, const unsigned char *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);

        if (w < 0) {
            if (errno == EINTR)
                continue;
            return -errno;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

int xu_memfd_from_bytes(const void *p, size_t n, int *fd, char **mem_path)
{
    char name[64];
    int mfd, rc;

    *fd = -1;
    *mem_path = NULL;
    mfd = memfd_create("xen-uniprof-kernel", MFD_CLOEXEC);
    if (mfd < 0)
        return -errno;
    rc = write_all(mfd, p, n);
    if (rc == 0) {
        snprintf(name, sizeof(name), "/proc/self/fd/%d", mfd);
        *mem_path = strdup(name);
        rc = *mem_path ? 0 : -ENOMEM;
    }
    if (rc < 0) {
        close(mfd);
        return rc;
    }
    *fd = mfd;
    return 0;
}

#ifdef HAVE_ZLIB
int xu_gunzip_to_memfd(const char *path, struct xu_log *log, int *fd, char **mem_path)
{
    unsigned char buf[64 * 1024];
    gzFile gz = NULL;
    size_t total = 0;
    char name[64];
    int mfd = -1, rc = 0, n;

    *fd = -1;
    *mem_path = NULL;
    mfd = memfd_create("xen-uniprof-kernel", MFD_CLOEXEC);
    if (mfd < 0)
        return -errno;
    gz = gzopen(path, "rb");
    if (!gz) {
        rc = errno ? -errno : -ENOMEM;
        goto out;
    }
    /* each read makes progress or ends: the size bound ends a bomb */
    while ((n = gzread(gz, buf, sizeof(buf))) > 0) {
        if ((size_t)n > XU_MAX_KERNEL_BYTES - total) {
            xu_error(log, "%s decompresses to more than %u MiB: not a kernel this tool reads",
                     path, XU_MAX_KERNEL_BYTES >> 20);
            rc = -EFBIG;
            goto out;
        }
        total += (size_t)n;
        rc = write_all(mfd, buf, (size_t)n);
        if (rc < 0)
            goto out;
    }
    if (n < 0) {
        int zerr;
        const char *msg = gzerror(gz, &zerr);

        xu_error(log, "%s: corrupt gzip data (%s)", path, msg ? msg : "unknown error");
        rc = -EBADMSG;
        goto out;
    }
    snprintf(name, sizeof(name), "/proc/self/fd/%d", mfd);
    *mem_path = strdup(name);
    if (!*mem_path) {
        rc = -ENOMEM;
        goto out;
    }
    *fd = mfd;
    mfd = -1;
out:
    if (gz)
        gzclose(gz);
    if (mfd >= 0)
        close(mfd);
    return rc;
}
#else
int xu_gunzip_to_memfd(const char *path, struct xu_log *log, int *fd, char **mem_path)
{
    (void)path;
    (void)log;
    *fd = -1;
    *mem_path = NULL;
    return -ENOTSUP;
}
#endif
