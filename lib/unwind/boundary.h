/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * boundary.h - the steps every unwinder takes at the edges of ordinary
 * calls (private to lib/unwind): out of a hypercall page stub, and across
 * the frame an event upcall or exception left.  See struct xu_unwind_env.
 */
#ifndef XU_UNWIND_BOUNDARY_H
#define XU_UNWIND_BOUNDARY_H

#include <stdbool.h>
#include <stdint.h>

#include "unwind/xu_unwind.h"

bool xu_unwind_in_range(const struct xu_code_range *r, unsigned int n, uint64_t pc);

/*
 * Where a frame record lies, relative to the frame pointer (unwind_fp.c):
 * the architecture's fixed place (record_fp_off, record_ra_off), or,
 * where records differ per function (xu_arch_ops.frame_record: AArch32),
 * the place the function at pc has made by then.
 */
struct xu_record_place {
    int32_t fp_off, ra_off;     /* the caller's fp, the return address */
    unsigned int fp_reg;        /* the register (DWARF number) fp is read from */
    bool own;                   /* the function's own (frame_record), not the fixed place */
    bool ra_in_link;            /* own, and the return address is the vCPU's link register */
};

/* The place of the frame record of the function at pc: exact, the vCPU
 * stopped there (else pc is a return address); innermost, pc is the
 * vCPU's own, whose link register a leaf's record may leave its return
 * address in.  The fixed place when the ELF's code or the function's
 * start is not known, or its prologue is not one the architecture reads. */
void xu_unwind_record_place(const struct xu_unwind_env *env, const struct xu_arch_ops *a,
                            uint64_t pc, bool exact, bool innermost, struct xu_record_place *p);
/* *end: where the caller's stack starts above the record at fp; false
 * when the record does not fit in the address space. */
bool xu_unwind_record_end(const struct xu_arch_ops *a, const struct xu_record_place *p,
                          uint64_t fp, uint64_t *end);
/* The record at fp where p says: the caller's fp and the return address (a
 * code address).  0, or -1 when a read faulted.  After
 * xu_unwind_record_end(). */
int xu_unwind_record_read(struct xu_mem *m, const struct xu_vcpu_regs *regs,
                          const struct xu_record_place *p, uint64_t fp, uint64_t *next_fp,
                          uint64_t *ret);

/*
 * A vCPU stopped at pc in the hypercall page: the return address the
 * calling HYPERVISOR_* function left, and the stack pointer after it.
 * 1 done, 0 pc is not in a stub the architecture knows, -1 a read faulted.
 */
int xu_unwind_hypercall_step(const struct xu_unwind_env *env, struct xu_mem *m,
                             const struct xu_vcpu_regs *regs, uint64_t pc, uint64_t sp,
                             uint64_t *ra, uint64_t *caller_sp);

/* Is ra inside the entry code of an upcall or exception? */
bool xu_unwind_at_boundary(const struct xu_unwind_env *env, uint64_t ra);

/*
 * The frame the event left, found from cfa (the stack pointer of the entry
 * code when it called the handler): the interrupted pc and sp.  1 found,
 * 0 not found (the walk must stop: going on would invent a call), -1 a
 * read faulted.
 */
int xu_unwind_boundary_step(const struct xu_unwind_env *env, struct xu_mem *m, uint64_t cfa,
                            uint64_t *pc, uint64_t *sp);

/*
 * Upcall entry code that is on no list: a lookup address (an exact PC, or
 * a return address - 1) in the guest's text outside every function symbol
 * (entry code is assembly) and outside the hypercall page, where the frame
 * an event leaves lies above cfa (xu_unwind_boundary_step: Xen PV's saved
 * rip, cs, rflags, rsp and ss, or the hardware's exception frame, with the
 * saved rsp just above it and the rip in the code).  Needs env->func_start.
 * true when it crossed as xu_unwind_cross() does (XU_PC_UPCALL and the
 * interrupted PC appended, *pc and *sp the interrupted ones); false, with
 * nothing changed, when it is not such code: the walk goes on as before.
 */
bool xu_unwind_unlisted_entry(const struct xu_unwind_env *env, struct xu_mem *m,
                              uint64_t lookup, uint64_t cfa, uint64_t *pcs,
                              unsigned int *depth, unsigned int max_depth,
                              unsigned int *crossings, uint64_t *pc, uint64_t *sp);

/*
 * The whole crossing, as both walks take it: bounded by
 * XU_UNWIND_MAX_CROSSINGS per walk (*crossings counts), the frame found
 * from cfa, then XU_PC_UPCALL and the interrupted PC appended to pcs.
 * true with *pc and *sp the interrupted ones; false with *end why the walk
 * stops.
 */
bool xu_unwind_cross(const struct xu_unwind_env *env, struct xu_mem *m, uint64_t cfa,
                     uint64_t *pcs, unsigned int *depth, unsigned int max_depth,
                     unsigned int *crossings, uint64_t *pc, uint64_t *sp,
                     enum xu_walk_end *end);

/*
 * The steps at an exact PC (the innermost one, or one an event
 * interrupted), which need no frame record: stopped inside upcall entry
 * code, cross to the frame the event left, from sp; in the hypercall page,
 * append the stub's caller; on a function's first instructions or its
 * return (no frame record there: env->code and the architecture say so),
 * append the return address from the stack, and cross if that returns
 * into upcall entry code.  Where has_cfi says the CFI covers the PC, the
 * CFI walk's rules are left to do it.  An event that interrupted a
 * hypercall takes several.  *pc, *sp and *exact follow what was appended.
 * true to go on, false with *end why the walk stops.
 */
bool xu_unwind_exact_steps(const struct xu_unwind_env *env, struct xu_mem *m,
                           const struct xu_vcpu_regs *regs,
                           bool (*has_cfi)(const struct xu_unwind_env *env, uint64_t pc),
                           uint64_t *pcs, unsigned int *depth, unsigned int max_depth,
                           unsigned int *crossings, uint64_t *pc, uint64_t *sp, bool *exact,
                           enum xu_walk_end *end);

/*
 * A function that made no frame record (a leaf, or assembly, in a
 * frame-pointer build): stopped at pc (exact: the PC itself; otherwise a
 * return address into it) with stack pointer sp, its return address is on
 * the stack above what its prologue pushed (env->func_start, env->code and
 * the architecture's frameless_depth say how much).  Taken only when the
 * word there is a return address after a call in the ELF's code.  1 done,
 * 0 not such a function, not known, or no such word.
 */
int xu_unwind_frameless_function_step(const struct xu_unwind_env *env, struct xu_mem *m,
                                      const struct xu_vcpu_regs *regs, uint64_t pc, bool exact,
                                      uint64_t sp, uint64_t *ra, uint64_t *caller_sp);

/*
 * The frame pointer of a function interrupted at pc (exact) with stack
 * pointer sp after it made its frame record, from its prologue (the
 * architecture's framed_depth): for entry code that left no frame pointer
 * of it in the chain.  Taken only when the record there holds a return
 * address after a call.  true with *fp.
 */
bool xu_unwind_framed_fp(const struct xu_unwind_env *env, struct xu_mem *m,
                         const struct xu_vcpu_regs *regs, uint64_t pc, uint64_t sp,
                         uint64_t *fp);

#endif
