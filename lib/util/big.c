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

static size_t mapped;           /* by xu_big_map, now */

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

void *xu_big_map(size_t size)
{
    size_t head;
    char *p;

    if (size == 0 || size % XU_BIG_MIN || size > SIZE_MAX / 2 - XU_BIG_MIN) {
        errno = size == 0 || size % XU_BIG_MIN ? EINVAL : ENOMEM;
        return NULL;
    }
    /* one huge page more than asked, its unaligned ends given back */
    p = mmap(NULL, size + XU_BIG_MIN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
             -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    head = (XU_BIG_MIN - (uintptr_t)p % XU_BIG_MIN) % XU_BIG_MIN;
    if (head)
        (void)munmap(p, head);
    if (XU_BIG_MIN - head)
        (void)munmap(p + head + size, XU_BIG_MIN - head);
    p += head;
#ifdef MADV_HUGEPAGE
    (void)madvise(p, size, MADV_HUGEPAGE);
#endif
    __atomic_add_fetch(&mapped, size, __ATOMIC_RELAXED);
    return p;
}

void xu_big_unmap(void *p, size_t size)
{
    if (!p)
        return;
    (void)munmap(p, size);
    __atomic_sub_fetch(&mapped, size, __ATOMIC_RELAXED);
}

size_t xu_big_mapped(void)
{
    return __atomic_load_n(&mapped, __ATOMIC_RELAXED);
}
