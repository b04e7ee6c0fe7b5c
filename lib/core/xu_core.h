/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu_core.h - an `xl dump-core` file as a target.
 *
 * Xen's dump-core format (tools/libs/guest/xg_core.c) is a 64-bit ELF core
 * without program headers; what it holds is in named sections:
 *   .note.Xen      notes named "Xen": the dump-core header (magic: PV or
 *                  HVM, number of vCPU contexts and of pages, page size),
 *                  Xen's version, the format's version
 *   .xen_prstatus  one vcpu_guest_context per vCPU whose context the tools
 *                  could read, in vCPU order (vCPUs without one are left
 *                  out, so an entry's index is its vCPU's id only when none
 *                  before it was left out)
 *   .xen_pages     the guest's pages, 4 KiB each
 *   .xen_p2m       (PV) per page, its pseudo-physical frame and machine frame
 *   .xen_pfn       (HVM, PVH, arm) per page, its guest frame
 * Entries of the maps that are all ones stand for pages not dumped.
 *
 * Opened as a target (xu_core_target_open()), a core serves the vCPUs'
 * registers, decoded by the architecture's own decoder (arch/<arch>/), and
 * maps frames from .xen_pages by the number the guest's page tables hold
 * (the machine frame for PV, the guest frame otherwise), so that mem/ and
 * the architecture's page walk read the guest's memory from the core as
 * they read it from a live guest.  Pausing a core does nothing.
 *
 * The file is hostile input: every offset, size and count is checked
 * against the file before use, the number of sections, notes and vCPUs is
 * bounded, and a core that cannot be read is refused with one line on the
 * log saying why.
 */
#ifndef XU_CORE_H
#define XU_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "target/xu_target.h"
#include "util/xu_log.h"

/* Bounds on what a core may declare (Xen writes about a dozen sections). */
#define XU_CORE_MAX_SECTIONS 256
#define XU_CORE_MAX_NOTES 64

/* Why a core was refused (the line on the log says it in words). */
enum xu_core_error {
    XU_CORE_OK = 0,
    XU_CORE_NOT_ELF,        /* not a 64-bit little-endian ELF file */
    XU_CORE_NOT_CORE,       /* an ELF, but not an xl dump-core file */
    XU_CORE_TRUNCATED,      /* a header or section lies past the end of the file */
    XU_CORE_ARCH,           /* a guest architecture this build does not read */
    XU_CORE_NO_VCPUS,       /* no vCPU context in .xen_prstatus */
    XU_CORE_MALFORMED,      /* sections or notes that contradict each other */
};

const char *xu_core_error_name(enum xu_core_error e);

struct xu_core;

struct xu_core_info {
    const struct xu_arch_ops *arch;
    enum xu_guest_type type;    /* XU_GUEST_PV or XU_GUEST_HVM (HVM and PVH alike) */
    unsigned int nr_vcpus;      /* contexts in .xen_prstatus */
    uint64_t nr_pages;          /* pages the core holds */
    uint64_t invalid_entries;   /* map entries marking pages not dumped */
    unsigned int xen_major, xen_minor;  /* 0.0: no version note */
};

/*
 * Read the core in buf[0..len) (which must outlive it); name is for the
 * messages.  0, or -EINVAL with *err set and one line logged, or -ENOMEM.
 */
int xu_core_parse(const void *buf, size_t len, const char *name, struct xu_log *log,
                  struct xu_core **out, enum xu_core_error *err);
void xu_core_free(struct xu_core *c);
void xu_core_get_info(const struct xu_core *c, struct xu_core_info *out);
/* The registers of context i (0 <= i < nr_vcpus), decoded. */
const struct xu_vcpu_regs *xu_core_vcpu(const struct xu_core *c, unsigned int i);
/* The page of frame (the number the page tables hold), or NULL. */
const void *xu_core_frame(const struct xu_core *c, uint64_t frame);

/*
 * Open the core file at path as target t (its ops are the core's; domid 0).
 * 0; -EINVAL with *err and one line logged; -errno when the file cannot be
 * opened or mapped (logged).  Closed with xu_target_close().
 */
int xu_core_target_open(struct xu_target *t, const char *path, struct xu_log *log,
                        enum xu_core_error *err);
/* The same over the core in buf[0..len), which must outlive the target
 * (the fuzz harness's way in); name is for the messages. */
int xu_core_target_open_buffer(struct xu_target *t, const void *buf, size_t len,
                               const char *name, struct xu_log *log, enum xu_core_error *err);
/* The core behind a target opened by xu_core_target_open(), else NULL. */
const struct xu_core *xu_core_of_target(const struct xu_target *t);

#endif
