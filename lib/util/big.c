/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * big.c - large tables on huge pages where the kernel gives them.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "util/xu_big.h"

void *xu_big_alloc(size_t size)
{
    size_t rounded;
    void *p;

    if (size < XU_BIG_MIN)
        return malloc(size);
    if (size > SIZE_MAX - XU_BIG_MIN) {
        errno = ENOMEM;
        return NULL;
    }
    /* whole huge pages: aligned_alloc wants a multiple of the alignment */
    rounded = (size + XU_BIG_MIN - 1) & ~(XU_BIG_MIN - 1);
    p = aligned_alloc(XU_BIG_MIN, rounded);
#ifdef MADV_HUGEPAGE
    /* only advice: without transparent huge pages it fails and changes nothing */
    if (p)
        (void)madvise(p, rounded, MADV_HUGEPAGE);
#endif
    return p;
}
