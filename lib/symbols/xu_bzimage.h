/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu_bzimage.h - the vmlinux ELF inside an x86 Linux bzImage.
 *
 * A bzImage is a real-mode setup (setup_sects + 1 sectors of 512 bytes)
 * followed by the protected-mode decompressor, whose payload is the
 * compressed vmlinux.  The boot protocol's setup header (at 0x1f1, magic
 * "HdrS" at 0x202) gives the payload's place from protocol 2.08 on
 * (payload_offset at 0x248, payload_length at 0x24c, relative to the start
 * of the protected-mode code).  The payload's format is told by its first
 * bytes (xu_compressed.h) and read through xu_decompress.h; the result
 * must be an ELF file.  Everything is bounded: the image by
 * XU_BZIMAGE_MAX_BYTES, the vmlinux by XU_MAX_KERNEL_BYTES.
 */
#ifndef XU_BZIMAGE_H
#define XU_BZIMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/xu_log.h"

/* The largest bzImage read (Debian's are about 8 MiB). */
#define XU_BZIMAGE_MAX_BYTES (128u << 20)
/* The first boot protocol that says where the payload is. */
#define XU_BZIMAGE_MIN_PROTOCOL 0x0208

/* Whether p[0, len) starts with a setup header ("HdrS" at 0x202). */
bool xu_bzimage_is(const uint8_t *p, size_t len);
/* The same for a file (reads its first bytes only). */
bool xu_bzimage_is_file(const char *path);

/*
 * Where the payload lies in the image: 0 with *off and *len, or -ENOEXEC
 * (not a bzImage) or -EBADMSG (a protocol older than 2.08, or a payload
 * past the end of the image; err says which).
 */
int xu_bzimage_payload(const uint8_t *img, size_t len, size_t *off, size_t *plen,
                       char *err, size_t err_size);

/*
 * The vmlinux in the image: decompressed into a malloc'd buffer of at most
 * max_out bytes.  0, or -ENOEXEC / -EBADMSG as above (also for a payload
 * that is not an ELF file once decompressed), -ENOTSUP for a compression
 * this build does not read (err names it), -EFBIG, -ENOMEM.
 */
int xu_bzimage_vmlinux(const uint8_t *img, size_t len, size_t max_out, uint8_t **out,
                       size_t *out_len, char *err, size_t err_size);

/*
 * The vmlinux of the bzImage file path as an anonymous in-memory file (*fd,
 * *mem_path as xu_memfd_from_bytes()).  Errors as above plus -errno for the
 * file, each with one line on log naming the file.
 */
int xu_bzimage_to_memfd(const char *path, struct xu_log *log, int *fd, char **mem_path);

#endif
