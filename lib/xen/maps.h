/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xen_maps.h - the set of frames a Xen backend has mapped and not yet
 * unmapped, so that close() can release what the caller did not.
 *
 * The caller bounds how many frames it keeps mapped (struct xu_mem's
 * cache), so the set stays as small as that; it grows by doubling, which
 * happens on the map_frame() path only (already a system call), never on
 * vcpu_regs() or reads of mapped frames.
 */
#ifndef XU_XEN_MAPS_H
#define XU_XEN_MAPS_H

#include <stddef.h>

struct xu_xen_maps {
    const void **addr;
    size_t len, cap;
};

/* 0 or -ENOMEM; on failure the set is unchanged. */
int xu_xen_maps_add(struct xu_xen_maps *m, const void *addr);
/* 0, or -ENOENT when addr was not in the set (then the caller must not
 * unmap it: it is not ours). */
int xu_xen_maps_remove(struct xu_xen_maps *m, const void *addr);
/* Call unmap for every address left, then free the set. */
void xu_xen_maps_release(struct xu_xen_maps *m, void (*unmap)(void *ctx, const void *addr),
                         void *ctx);

#endif
