/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu_compressed.h - kernels as Xen's loader accepts them: an ELF, or one
 * compressed whole (Mini-OS's own domain config boots mini-os.gz).
 *
 * The format is told by the file's first bytes, not its name.  gzip is
 * read through zlib into an anonymous in-memory file (memfd), named
 * /proc/self/fd/N, so nothing is left on disk whatever ends the process;
 * the other formats Xen's loader knows are named in one clear line.
 */
#ifndef XU_COMPRESSED_H
#define XU_COMPRESSED_H

#include <stddef.h>

#include "util/xu_log.h"

/* The largest decompressed kernel accepted (a bound on hostile input). */
#define XU_MAX_KERNEL_BYTES (512u << 20)

enum xu_compression {
    XU_COMP_NONE = 0,
    XU_COMP_GZIP,
    XU_COMP_BZIP2,
    XU_COMP_XZ,
    XU_COMP_LZMA,
    XU_COMP_LZO,
    XU_COMP_LZ4,
    XU_COMP_ZSTD,
};

/* How path is compressed (XU_COMP_NONE also when it cannot be read). */
enum xu_compression xu_compression_of(const char *path);
/* How the bytes p[0, len) start. */
enum xu_compression xu_compression_of_bytes(const unsigned char *p, size_t len);
const char *xu_compression_name(enum xu_compression c);
/* The file name without the format's usual suffix (".gz", ".xz", ...), in
 * buf; 0, or -1 when the name has no such suffix. */
int xu_compression_strip_suffix(const char *path, enum xu_compression c, char *buf, size_t size);

/*
 * Decompress the gzip file path into an anonymous file; *fd gets it and
 * *mem_path its /proc/self/fd name (malloc'd).  -ENOTSUP without zlib,
 * -EFBIG past XU_MAX_KERNEL_BYTES, -EBADMSG for a corrupt stream, -errno.
 */
int xu_gunzip_to_memfd(const char *path, struct xu_log *log, int *fd, char **mem_path);

/*
 * The n bytes at p as an anonymous in-memory file: *fd, and *mem_path its
 * /proc/self/fd name (malloc'd).  0 or -errno.
 */
int xu_memfd_from_bytes(const void *p, size_t n, int *fd, char **mem_path);

#endif
