/* SPDX-License-Identifier: GPL-2.0-only */
/* xen_maps.c - the frames a Xen backend still has mapped. */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "maps.h"

int xu_xen_maps_add(struct xu_xen_maps *m, const void *addr)
{
    if (m->len == m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 64;
        const void **a;

        if (cap < m->cap || cap > SIZE_MAX / sizeof(*a))
            return -ENOMEM;
        a = realloc(m->addr, cap * sizeof(*a));
        if (!a)
            return -ENOMEM;
        m->addr = a;
        m->cap = cap;
    }
    m->addr[m->len++] = addr;
    return 0;
}

int xu_xen_maps_remove(struct xu_xen_maps *m, const void *addr)
{
    size_t i;

    /* Newest first: a cache tends to drop what it mapped recently or what
     * it mapped long ago; the order left behind does not matter. */
    for (i = m->len; i-- > 0;) {
        if (m->addr[i] == addr) {
            m->addr[i] = m->addr[--m->len];
            return 0;
        }
    }
    return -ENOENT;
}

void xu_xen_maps_release(struct xu_xen_maps *m, void (*unmap)(void *ctx, const void *addr),
                         void *ctx)
{
    size_t i;

    for (i = 0; i < m->len; i++)
        unmap(ctx, m->addr[i]);
    free(m->addr);
    m->addr = NULL;
    m->len = m->cap = 0;
}
