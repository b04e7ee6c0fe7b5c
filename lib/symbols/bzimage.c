/* SPDX-License-Identifier: GPL-2.0-only */
/* bzimage.c - the vmlinux inside an x86 bzImage (see xu_bzimage.h). */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbols/xu_bzimage.h"
#include "symbols/xu_compressed.h"
#include "symbols/xu_decompress.h"
#include "util/xu_le.h"

/* Offsets in the image, from the boot protocol (Documentation/x86/boot). */
#define SETUP_SECTS 0x1f1
#define HDR_MAGIC 0x202
#define HDR_VERSION 0x206
#define PAYLOAD_OFFSET 0x248
#define PAYLOAD_LENGTH 0x24c
#define HDR_END 0x250           /* the fields above all lie before this */

bool xu_bzimage_is(const uint8_t *p, size_t len)
{
    return len >= HDR_MAGIC + 4 && memcmp(p + HDR_MAGIC, "HdrS", 4) == 0;
}

bool xu_bzimage_is_file(const char *path)
{
    uint8_t head[HDR_MAGIC + 4];
    ssize_t n;
    int fd = open(path, O_RDONLY | O_CLOEXEC);

    if (fd < 0)
        return false;
    n = pread(fd, head, sizeof(head), 0);
    close(fd);
    return n == (ssize_t)sizeof(head) && xu_bzimage_is(head, sizeof(head));
}

static int fail(int rc, char *err, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int fail(int rc, char *err, size_t size, const char *fmt, ...)
{
    va_list ap;

    if (err && size) {
        va_start(ap, fmt);
        vsnprintf(err, size, fmt, ap);
        va_end(ap);
    }
    return rc;
}

int xu_bzimage_payload(const uint8_t *img, size_t len, size_t *off, size_t *plen,
                       char *err, size_t err_size)
{
    unsigned int sects, version;
    uint64_t pm, po, pl;

    if (!xu_bzimage_is(img, len))
        return fail(-ENOEXEC, err, err_size, "not a bzImage (no setup header)");
    version = (unsigned int)img[HDR_VERSION] | (unsigned int)img[HDR_VERSION + 1] << 8;
    if (version < XU_BZIMAGE_MIN_PROTOCOL || len < HDR_END)
        return fail(-EBADMSG, err, err_size,
                    "boot protocol %u.%02u does not say where the kernel is (2.08 does)",
                    version >> 8, version & 0xff);
    sects = img[SETUP_SECTS] ? img[SETUP_SECTS] : 4;   /* 0 meant 4 in old loaders */
    pm = ((uint64_t)sects + 1) * 512;
    po = xu_le32(img + PAYLOAD_OFFSET);
    pl = xu_le32(img + PAYLOAD_LENGTH);
    if (pl == 0 || pm + po > len || pl > len - (pm + po))
        return fail(-EBADMSG, err, err_size,
                    "its payload (%llu bytes at %llu) lies past the end of the image",
                    (unsigned long long)pl, (unsigned long long)(pm + po));
    *off = (size_t)(pm + po);
    *plen = (size_t)pl;
    return 0;
}

int xu_bzimage_vmlinux(const uint8_t *img, size_t len, size_t max_out, uint8_t **out,
                       size_t *out_len, char *err, size_t err_size)
{
    enum xu_compression c;
    size_t off, plen;
    char why[128];
    int rc;

    *out = NULL;
    *out_len = 0;
    rc = xu_bzimage_payload(img, len, &off, &plen, err, err_size);
    if (rc < 0)
        return rc;
    c = xu_compression_of_bytes(img + off, plen);
    if (c == XU_COMP_NONE)
        return fail(-EBADMSG, err, err_size, "its payload is in no compression format known");
    if (!xu_decompress_supported(c)) {
        if (err && err_size)
            snprintf(err, err_size, "its kernel is %s-compressed, which this build does not "
                     "read", xu_compression_name(c));
        return -ENOTSUP;
    }
    rc = xu_decompress(c, img + off, plen, max_out, out, out_len, why, sizeof(why));
    if (rc == -EFBIG) {
        fail(rc, err, err_size, "its kernel decompresses to more than %zu MiB", max_out >> 20);
    } else if (rc == -EBADMSG) {
        if (err && err_size)
            snprintf(err, err_size, "its %s payload is damaged: %s", xu_compression_name(c), why);
    } else if (rc == 0 && (*out_len < 4 || memcmp(*out, "\177ELF", 4) != 0)) {
        free(*out);
        *out = NULL;
        *out_len = 0;
        rc = fail(-EBADMSG, err, err_size, "its payload is not an ELF file once decompressed");
    }
    return rc;
}

/* The whole file, when it is at most max bytes. */
static int read_file(const char *path, size_t max, uint8_t **out, size_t *len)
{
    struct stat sb;
    uint8_t *p = NULL;
    size_t got = 0;
    int fd, rc = 0;

    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode)) {
        rc = -EINVAL;
        goto out;
    }
    if ((uint64_t)sb.st_size > max) {
        rc = -EFBIG;
        goto out;
    }
    p = malloc(sb.st_size ? (size_t)sb.st_size : 1);
    if (!p) {
        rc = -ENOMEM;
        goto out;
    }
    /* a file that shrinks under us ends the loop short; one that grows is cut */
    while (got < (size_t)sb.st_size) {
        ssize_t n = read(fd, p + got, (size_t)sb.st_size - got);

        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            rc = n < 0 ? -errno : 0;
            break;
        }
        got += (size_t)n;
    }
out:
    close(fd);
    if (rc < 0) {
        free(p);
        return rc;
    }
    *out = p;
    *len = got;
    return 0;
}

int xu_bzimage_to_memfd(const char *path, struct xu_log *log, int *fd, char **mem_path)
{
    uint8_t *img = NULL, *elf = NULL;
    size_t len = 0, elf_len = 0;
    char err[192];
    int rc;

    *fd = -1;
    *mem_path = NULL;
    rc = read_file(path, XU_BZIMAGE_MAX_BYTES, &img, &len);
    if (rc == -EFBIG) {
        xu_error(log, "%s is larger than %u MiB: not a bzImage this tool reads", path,
                 XU_BZIMAGE_MAX_BYTES >> 20);
        goto out;
    }
    if (rc < 0) {
        xu_error(log, "cannot read %s: %s", path, strerror(-rc));
        goto out;
    }
    rc = xu_bzimage_vmlinux(img, len, XU_MAX_KERNEL_BYTES, &elf, &elf_len, err, sizeof(err));
    if (rc < 0) {
        if (rc == -ENOMEM)
            xu_error(log, "%s: out of memory decompressing the kernel", path);
        else
            xu_error(log, "the bzImage %s: %s", path, err);
        goto out;
    }
    rc = xu_memfd_from_bytes(elf, elf_len, fd, mem_path);
    if (rc < 0)
        xu_error(log, "%s: cannot keep the decompressed kernel: %s", path, strerror(-rc));
out:
    free(img);
    free(elf);
    return rc;
}
