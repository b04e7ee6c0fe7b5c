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

#include <stdint.h>

#include "mem/xu_mem.h"
#include "profile/xu_walk.h"
#include "target/xu_target.h"



struct xu_unwind_result {
    unsigned int depth;     /* number of entries written to pcs */
    enum xu_walk_end end;
};

struct xu_unwinder_ops {
    const char *name;       /* "fp", later "cfi" */
    /* Walk the stack of the vCPU whose registers are regs; m's context must
     * already be set to it.  pcs has room for max_depth entries. */
    void (*walk)(void *ctx, struct xu_mem *m, const struct xu_vcpu_regs *regs,
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

void xu_unwind_fp(struct xu_mem *m, const struct xu_vcpu_regs *regs,
                  uint64_t *pcs, unsigned int max_depth,
                  struct xu_unwind_result *out);

#endif
