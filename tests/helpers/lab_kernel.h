/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lab_kernel.h - the lab's own Debian 6.1 kernel, for the tests of the kernel readers
 * on a real image: the bzImage the lab downloads for dom0 (and boots as its Linux
 * domUs), taken from the download cache when it is there.
 */
#ifndef LAB_KERNEL_H
#define LAB_KERNEL_H

#include <stddef.h>
#include <stdint.h>

/*
 * The cached bzImage's vmlinux, decompressed into a malloc'd buffer of *len bytes;
 * NULL, with the reason in why (the cache lacks it, or this build cannot decompress
 * it), when the test should skip.  A file that is there but does not decompress fails
 * the calling test.
 */
uint8_t *lab_kernel_vmlinux(size_t *len, char *why, size_t why_size);

/* A whole file (a kernel's size at most: XU_BZIMAGE_MAX_BYTES) in a malloc'd buffer of
 * *len bytes, or NULL. */
uint8_t *lab_read_file(const char *path, size_t *len);

/* The same written to a new file at path (a mkstemp template, "...XXXXXX"):
 * 0, or -1 with the reason to skip in why; failing to write fails the test. */
int lab_kernel_file(char *path, char *why, size_t why_size);

/* Where tests/tools/linux_kallsyms.sh keeps Debian's System.map of that kernel (it
 * may be absent). */
void lab_kernel_map_path(char *buf, size_t size);

#endif
