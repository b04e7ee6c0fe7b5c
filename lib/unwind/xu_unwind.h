/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu_unwind.h - turning a stopped vCPU's registers into raw return addresses.
 *
 * An unwinder fills pcs[] innermost first: pcs[0] is the instruction
 * pointer, pcs[1..] are return addresses, the outermost one included.  It
 * never symbolises and never allocates; it reads guest memory only through
 * struct xu_mem, and every walk is bounded by max_depth.  Why a walk ended
 * is recorded, because "the chain ended where it should" and "a frame looked
 * wrong" mean very different things for a profile's trustworthiness.
 */
#ifndef XU_UNWIND_H
#define XU_UNWIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mem/xu_mem.h"
#include "profile/xu_walk.h"
#include "target/xu_target.h"

struct xu_cfi_table;
struct xu_orc_table;
struct xu_ehabi_table;

/* [start, end) of guest code. */
struct xu_code_range {
    uint64_t start, end;
};

#define XU_UNWIND_MAX_RANGES 64
/* Upcall boundaries (stack switches) one walk may cross: an exception
 * taken inside an upcall is two. */
#define XU_UNWIND_MAX_CROSSINGS 2

/*
 * What the guest's ELF tells an unwinder before sampling starts; every part
 * is optional (zeroed: not known).  It is the ctx of every unwinder below
 * (NULL: nothing known), built once (xu_unwind_env_from_elf() in
 * lib/symbols/xu_vouch.h) and only read while the guest is paused.
 *  - cfi: the compiled CFI table (xu_cfi.h), for "cfi" and "auto".
 *  - orc: a Linux kernel's ORC table (xu_orc.h), for "orc".
 *  - ehabi: an AArch32 ELF's ARM EHABI tables (xu_ehabi.h), for "ehabi".
 *  - hypercall_page: the guest's hypercall page.  A vCPU stopped in it is
 *    stepped out of the stub by its architecture's rule, whatever the
 *    unwinder, so the HYPERVISOR_* function that called it is kept.
 *  - boundary: entry code of event upcalls and exceptions.  A return
 *    address in one means the frames above were interrupted, not called:
 *    the walk looks for the frame the event left (the architecture's
 *    interrupt frame, on the stack or behind a saved pointer to it, as
 *    entry code that switches to an interrupt stack leaves it), inserts
 *    XU_PC_UPCALL and goes on from the interrupted PC and stack.  That is
 *    the one place a walk may move to a lower stack.
 *  - text: the guest's code, where an interrupted PC must lie.
 *  - code: the ELF's bytes (not the guest's) that end at addr, len of
 *    them, or NULL; with it the frame-pointer walk sees a function stopped
 *    on its first instructions or on its return, whose frame record is not
 *    (or no longer) there, and takes its return address from the stack.
 *  - func_start: the start of the function (a function symbol, not a
 *    label) containing pc, false when none is known; with code, the
 *    frame-pointer walk reads the function's prologue and, in a function
 *    that makes no frame record, takes its return address from the stack
 *    (above what the prologue pushed), so its caller is not skipped, and
 *    where records differ per function (xu_arch_ops.frame_record) reads
 *    each frame's record where its function keeps it.  *thumb (when thumb
 *    is not NULL): an AArch32 function in Thumb state (its symbol's bit 0,
 *    which start does not keep); false elsewhere.
 */
struct xu_unwind_env {
    const struct xu_cfi_table *cfi;
    const struct xu_orc_table *orc;
    const struct xu_ehabi_table *ehabi;
    struct xu_code_range hypercall_page;
    struct xu_code_range boundary[XU_UNWIND_MAX_RANGES];
    unsigned int nr_boundary;
    struct xu_code_range text[XU_UNWIND_MAX_RANGES];
    unsigned int nr_text;
    const uint8_t *(*code)(const void *ctx, uint64_t addr, size_t len);
    const void *code_ctx;
    bool (*func_start)(const void *ctx, uint64_t pc, uint64_t *start, bool *thumb);
    const void *func_ctx;
};

struct xu_unwind_result {
    unsigned int depth;     /* number of entries written to pcs */
    enum xu_walk_end end;
};

struct xu_unwinder_ops {
    const char *name;       /* "fp", "cfi", "auto", "orc", "ehabi" */
    /* Walk the stack of the vCPU whose registers are regs; m's context must
     * already be set to it.  pcs has room for max_depth entries.  env is a
     * const struct xu_unwind_env * or NULL. */
    void (*walk)(const void *env, struct xu_mem *m, const struct xu_vcpu_regs *regs,
                 uint64_t *pcs, unsigned int max_depth,
                 struct xu_unwind_result *out);
};

/*
 * The frame record at fp, laid out as the guest's architecture says: the
 * caller's fp and the return address (as a code address).  0, or -1 when
 * the read faulted.
 */
int xu_unwind_frame_record(struct xu_mem *m, const struct xu_vcpu_regs *regs, uint64_t fp,
                           uint64_t *next_fp, uint64_t *ret);

/* The frame-pointer unwinder: frame records from fp upwards. */
extern const struct xu_unwinder_ops xu_unwind_fp_ops;

void xu_unwind_fp(const struct xu_unwind_env *env, struct xu_mem *m,
                  const struct xu_vcpu_regs *regs,
                  uint64_t *pcs, unsigned int max_depth,
                  struct xu_unwind_result *out);

#endif
