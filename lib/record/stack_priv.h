/* SPDX-License-Identifier: GPL-2.0-only */
/* stack_priv.h - between the stack job and its printer, not for callers. */
#ifndef XU_STACK_PRIV_H
#define XU_STACK_PRIV_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "profile/xu_walk.h"
#include "record/xu_stack.h"
#include "symbols/xu_symbols.h"
#include "target/xu_target.h"

/* One vCPU of one snapshot: as read while paused, walked, then vouched for. */
struct xu_stack_vcpu {
    int rc;                         /* the register read: 0 or -errno */
    struct xu_vcpu_regs regs;
    struct xu_vcpu_state state;     /* live: read just before the pause */
    const uint64_t *pcs;            /* innermost first; NULL when not walked */
    unsigned int depth;
    enum xu_walk_end end;
};

struct xu_stack_snapshot {
    unsigned int index, total;
    time_t wall;
    double elapsed_s;               /* since the first snapshot */
    struct xu_stack_vcpu *vcpus;    /* nr_vcpus of them */
    unsigned int nr_vcpus;
    const struct xu_symbolizer *sz; /* NULL: frames stay addresses */
};

/* What every snapshot is printed with. */
struct xu_stack_source {
    bool json;
    const char *core;               /* the core file, or NULL for a live domain */
    uint32_t domid;
    const char *label;              /* domain name, or what was asked for */
    enum xu_guest_type type;
    unsigned int guest_width;
    const struct xu_arch_ops *arch;
    const char *elf;                /* shown ELF path, or NULL */
    int64_t slide;                  /* where the kernel runs, less the ELF's addresses
                                     * (KASLR, confirmed by the ELF check), or 0 */
    unsigned int max_depth;
    unsigned int xen_major, xen_minor;  /* core: its Xen version note (0.0: none) */
};

/* The document's opening, each snapshot, its closing (JSON needs all three). */
void xu_stack_print_begin(FILE *f, const struct xu_stack_source *src);
int xu_stack_print_snapshot(FILE *f, const struct xu_stack_source *src,
                            const struct xu_stack_snapshot *snap);
void xu_stack_print_end(FILE *f, const struct xu_stack_source *src);

/* Why a walk ended, in words (the line after a stack). */
const char *xu_stack_end_text(enum xu_walk_end end, bool core);

#endif
