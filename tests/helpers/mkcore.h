/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mkcore.h - `xl dump-core` files made by the tests, from the simulated
 * guest: the sections Xen writes (tools/libs/guest/xg_core.c), in its
 * order, with the vCPU contexts encoded from struct xu_vcpu_regs the way
 * Xen fills them, and ways to leave a part out or break it.
 */
#ifndef MKCORE_H
#define MKCORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "xu_sim.h"

/* Parts to leave out (mkcore.omit). */
#define MKCORE_NO_NOTE      (1u << 0)   /* no .note.Xen */
#define MKCORE_NO_HEADER    (1u << 1)   /* .note.Xen without the header note */
#define MKCORE_NO_PRSTATUS  (1u << 2)   /* no .xen_prstatus */
#define MKCORE_NO_PAGES     (1u << 3)   /* no .xen_pages */
#define MKCORE_NO_MAP       (1u << 4)   /* no .xen_p2m / .xen_pfn */
#define MKCORE_NO_VERSION   (1u << 5)   /* no Xen version note */

struct mkcore {
    uint16_t machine;   /* EM_X86_64 (0 too), EM_AARCH64, or EM_ARM (Xen's arm label) */
    bool hvm;                           /* .xen_pfn and the HVM magic; else PV's .xen_p2m */
    struct xu_sim *sim;                 /* every frame of it is dumped ... */
    size_t nr_frames;
    const uint64_t *missing;            /* ... but these: map entries all ones, page zero */
    size_t nr_missing;
    const struct xu_vcpu_regs *regs;    /* nr_vcpus contexts (x86: 64-bit layout) */
    unsigned int nr_vcpus;
    unsigned int omit;                  /* MKCORE_NO_* */
    uint16_t xen_major, xen_minor;      /* the version note's (0.0: 4.17) */
};

/* The file's bytes, malloc'd.  0 or -ENOMEM/-EINVAL. */
int mkcore_build(const struct mkcore *c, uint8_t **buf, size_t *len);
/* The same, written to path.  0 or -errno. */
int mkcore_write(const struct mkcore *c, const char *path);
/* Where the PV layout puts frame's pseudo-physical number (not the frame,
 * so that a reader that looked pages up by it would fail). */
uint64_t mkcore_pv_pfn(const struct mkcore *c, uint64_t frame);

#endif
