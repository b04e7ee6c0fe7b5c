/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu_big.h - memory for the large tables of the offline path.
 *
 * A profile whose stacks share nothing has millions of distinct addresses:
 * its hash tables are tens of megabytes, read at random, one probe a
 * frame.  With 4 KiB pages nearly every probe misses the TLB as well as
 * the cache, and every page of a fresh table costs a page fault; in a
 * virtual machine both cost several times what they cost on hardware.
 * Huge pages (2 MiB, where the kernel has transparent huge pages in
 * madvise mode, as Debian's does) take both away: measured on the build
 * machine, random reads of a 256 MiB table took half the CPU time.
 */
#ifndef XU_BIG_H
#define XU_BIG_H

#include <stddef.h>

/* At least this many bytes go to huge pages. */
#define XU_BIG_MIN ((size_t)2 << 20)

/*
 * size bytes, uninitialised, freed with free(): from XU_BIG_MIN on,
 * aligned to XU_BIG_MIN and asked for as huge pages (a hint: where the
 * kernel has none, ordinary pages); below, malloc's.  NULL with errno.
 */
void *xu_big_alloc(size_t size);

/*
 * A block of memory that is filled once and never grows (an arena's): size
 * bytes, a multiple of XU_BIG_MIN, mapped on its own, aligned to XU_BIG_MIN
 * and asked for as huge pages, so that filling it costs a page fault a
 * huge page, not one every 4 KiB.  Unlike aligned_alloc's, no second
 * mapping of the alignment's size stays behind it.  Freed with
 * xu_big_unmap(p, size).  NULL with errno.
 */
void *xu_big_map(size_t size);
void xu_big_unmap(void *p, size_t size);

/* The bytes xu_big_map holds now (malloc's statistics do not see them). */
size_t xu_big_mapped(void);

#endif
