/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu_decompress.h - one compressed stream in memory to a buffer, bounded.
 *
 * Used for the payload of a Linux bzImage, where the compressed stream is
 * followed by 4 bytes of decompressed size (the kernel's build appends
 * them): every decoder stops at the end of its first stream and ignores
 * what follows.  The output is capped by the caller (a bomb ends with
 * -EFBIG, not with the machine's memory); each library call makes progress
 * or ends, so a hostile stream cannot loop.
 *
 * Formats and the libraries that read them, each optional at build time:
 * gzip (zlib), xz and lzma (liblzma), zstd (libzstd), lz4 in the legacy
 * frame Linux uses (liblz4), bzip2 (libbz2).  LZO is not read.
 */
#ifndef XU_DECOMPRESS_H
#define XU_DECOMPRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "symbols/xu_compressed.h"

/* Whether this build reads format c. */
bool xu_decompress_supported(enum xu_compression c);

/*
 * Decompress the stream in[0, in_len) of format c into a malloc'd buffer
 * (*out, *out_len), at most max_out bytes.  0, or:
 *   -ENOTSUP  this build has no library for c (or c is LZO / none)
 *   -EFBIG    more than max_out bytes
 *   -EBADMSG  a corrupt or truncated stream (err says what the library said)
 *   -ENOMEM
 * err (may be NULL) gets a short reason on failure.
 */
int xu_decompress(enum xu_compression c, const uint8_t *in, size_t in_len, size_t max_out,
                  uint8_t **out, size_t *out_len, char *err, size_t err_size);

#endif
