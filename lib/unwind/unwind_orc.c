/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * unwind_orc.c - the stack walk driven by the kernel's ORC tables (see
 * xu_orc.h for the rules, taken from the kernel's own unwinder).
 *
 * Per frame: one binary search, and one or two stack reads through the
 * cached guest memory (the return address or the interrupt frame; rbp
 * where the entry says it was saved).  No allocation; every loop is
 * bounded by max_depth.
 */
#include "config.h"

#include <elf.h>

#include "arch/xu_arch.h"
#include "unwind/orc_stubs.h"
#include "unwind/xu_orc.h"

/* struct pt_regs of x86-64, in bytes: the registers an entry may name,
 * and the iret frame the CPU (or Xen) pushed, which ends it. */
#define PT_R13 16
#define PT_BP 32
#define PT_R10 56
#define PT_DX 96
#define PT_DI 112
#define PT_IRET 128             /* rip, cs, rflags, rsp, ss */

/* Where the walk stands, and the last interrupt frame it crossed: only a
 * full pt_regs holds the registers besides rip, rsp and rbp. */
struct state {
    uint64_t pc, sp, bp;
    bool exact;                 /* pc is not a return address */
    uint64_t regs;              /* the last pt_regs' address, 0: none */
    bool full;                  /* regs is a full pt_regs, not an iret frame */
    uint64_t prev_regs;         /* a full pt_regs before an iret frame (NMI in entry code) */
    unsigned int switches;
};

const char *xu_orc_stop_name(enum xu_orc_stop why)
{
    switch (why) {
    case XU_ORC_STOP_END_OF_STACK: return "end of stack";
    case XU_ORC_STOP_END_MID_STACK: return "end-of-stack mark in mid-stack";
    case XU_ORC_STOP_USER_REGS:    return "entered from user mode";
    case XU_ORC_STOP_USER_MODE:    return "vCPU in user mode";
    case XU_ORC_STOP_NO_ENTRY:     return "no ORC entry";
    case XU_ORC_STOP_UNDEFINED:    return "undefined ORC entry";
    case XU_ORC_STOP_NO_REGISTER:  return "register not known";
    case XU_ORC_STOP_BAD_STACK:    return "stack pointer not rising";
    case XU_ORC_STOP_FAULT:        return "stack read faulted";
    case XU_ORC_STOP_DEPTH:        return "depth";
    case XU_ORC_STOP_NO_PAGING:    return "no paging";
    case XU_ORC_STOP_NO_TABLE:     return "no ORC table";
    }
    return "?";
}

/* A register of the last full pt_regs (or of the one before an iret
 * frame, as the kernel's get_reg()).  0 read, 1 not known, -1 faulted. */
static int pt_reg(struct xu_mem *m, const struct state *s, unsigned int off, uint64_t *val)
{
    uint64_t at = s->full ? s->regs : s->prev_regs;

    if (!s->regs || !at)
        return 1;
    return xu_mem_read_u64(m, at + off, val) < 0 ? -1 : 0;
}

/* The caller's stack pointer as e says; *why on failure. */
static bool caller_sp(const struct xu_orc_table *t, struct xu_mem *m, const struct state *s,
                      const struct xu_orc_entry *e, uint64_t *sp, bool *switched,
                      enum xu_orc_stop *why)
{
    struct xu_orc_stats st;
    uint64_t off = (uint64_t)(int64_t)e->sp_offset, v;
    int rc = 1;

    *switched = false;
    switch (e->sp_reg) {
    case XU_ORC_REG_SP:
        *sp = s->sp + off;
        return true;
    case XU_ORC_REG_BP:
        *sp = s->bp + off;
        return true;
    case XU_ORC_REG_SP_INDIRECT:
        /* the IRQ-stack switch: the interrupted stack's pointer was saved
         * at the top of the new one; 5.12 moved the offset outside */
        xu_orc_get_stats(t, &st);
        if (xu_mem_read_u64(m, st.sp_indirect_before_5_12 ? s->sp + off : s->sp, &v) < 0)
            break;
        *sp = st.sp_indirect_before_5_12 ? v : v + off;
        *switched = true;
        return true;
    case XU_ORC_REG_BP_INDIRECT:
        if (xu_mem_read_u64(m, s->bp + off, sp) < 0)
            break;
        *switched = true;
        return true;
    case XU_ORC_REG_R10:
        rc = pt_reg(m, s, PT_R10, sp);
        break;
    case XU_ORC_REG_R13:
        rc = pt_reg(m, s, PT_R13, sp);
        break;
    case XU_ORC_REG_DI:
        rc = pt_reg(m, s, PT_DI, sp);
        break;
    case XU_ORC_REG_DX:
        rc = pt_reg(m, s, PT_DX, sp);
        break;
    default:
        *why = XU_ORC_STOP_NO_REGISTER;
        return false;
    }
    if (rc == 0)
        return true;
    *why = rc > 0 ? XU_ORC_STOP_NO_REGISTER : XU_ORC_STOP_FAULT;
    return false;
}

/* The caller's rbp as e says, from the state before the step (old). */
static bool caller_bp(struct xu_mem *m, const struct state *old, struct state *s,
                      const struct xu_orc_entry *e, uint64_t sp, enum xu_orc_stop *why)
{
    uint64_t off = (uint64_t)(int64_t)e->bp_offset, v;
    int rc;

    switch (e->bp_reg) {
    case XU_ORC_REG_UNDEFINED:
        /* unchanged, unless an interrupt frame saved it */
        rc = pt_reg(m, s, PT_BP, &v);
        if (rc < 0)
            break;
        if (rc == 0)
            s->bp = v;
        return true;
    case XU_ORC_REG_PREV_SP:
        if (xu_mem_read_u64(m, sp + off, &s->bp) < 0)
            break;
        return true;
    case XU_ORC_REG_BP:
        if (xu_mem_read_u64(m, old->bp + off, &s->bp) < 0)
            break;
        return true;
    default:
        *why = XU_ORC_STOP_NO_REGISTER;
        return false;
    }
    *why = XU_ORC_STOP_FAULT;
    return false;
}

/*
 * Is sp, the caller's stack pointer or the frame above it, where a stack
 * walk may go from old?  Callers' frames lie higher, and not far (an
 * interrupt frame may start at sp itself); a switch of stacks (a pointer
 * read from the stack: SP_INDIRECT, an interrupt frame's rsp) may go
 * anywhere, a few times a walk.
 */
static bool rises(struct state *s, uint64_t old, uint64_t sp, bool at_least, bool switched)
{
    if ((at_least ? sp >= old : sp > old) && sp - old <= XU_ORC_MAX_FRAME)
        return true;
    return switched && sp != old && ++s->switches <= XU_ORC_MAX_SWITCHES;
}

/* One step from s by e: the caller's pc, sp and rbp into s; *interrupted
 * when it is an interrupted PC.  false with *why. */
static bool step(const struct xu_orc_table *t, struct xu_mem *m, struct state *s,
                 const struct xu_orc_entry *e, bool *interrupted, enum xu_orc_stop *why)
{
    const struct state old = *s;
    uint64_t sp, frame[5];
    bool switched;

    if (!caller_sp(t, m, s, e, &sp, &switched, why))
        return false;
    *interrupted = e->type != XU_ORC_TYPE_CALL;
    /* checked before it is read: a forged rbp makes no stray reads */
    if (!rises(s, old.sp, sp, *interrupted, switched)) {
        *why = XU_ORC_STOP_BAD_STACK;
        return false;
    }
    if (e->type == XU_ORC_TYPE_CALL) {
        if (xu_mem_read_u64(m, sp - 8, &s->pc) < 0) {
            *why = XU_ORC_STOP_FAULT;
            return false;
        }
        s->sp = sp;
        s->exact = e->signal;
        s->regs = s->prev_regs = 0;
        s->full = false;
    } else {
        if (xu_mem_read(m, e->type == XU_ORC_TYPE_REGS ? sp + PT_IRET : sp, frame,
                        sizeof(frame)) < 0) {
            *why = XU_ORC_STOP_FAULT;
            return false;
        }
        /* RPL 3: the frame was left by user mode, where the kernel's
         * stack begins */
        if (frame[1] & 3) {
            *why = XU_ORC_STOP_USER_REGS;
            return false;
        }
        s->pc = frame[0];
        s->sp = frame[3];
        s->exact = true;
        if (e->type == XU_ORC_TYPE_REGS) {
            s->regs = sp;
            s->full = true;
            s->prev_regs = 0;
        } else {
            s->prev_regs = s->full ? s->regs : 0;
            s->regs = sp - PT_IRET;
            s->full = false;
        }
        /* the interrupted code's stack: this one, or the one it left */
        if (!rises(s, sp, s->sp, true, true)) {
            *why = XU_ORC_STOP_BAD_STACK;
            return false;
        }
    }
    return caller_bp(m, &old, s, e, sp, why);
}

/* Does the word at sp look like a return address: code the tables cover? */
static bool return_address_at_sp(const struct xu_orc_table *t, struct xu_mem *m,
                                 const struct state *s, uint64_t *ret)
{
    struct xu_orc_entry e;

    return xu_mem_read_u64(m, s->sp, ret) == 0 && xu_orc_lookup(t, *ret - 1, &e, NULL);
}

/* The native entry a PV stub jumps to takes an interrupt frame at sp. */
static bool takes_interrupt_frame(const struct xu_orc_table *t, uint64_t pc)
{
    struct xu_orc_entry e;

    return xu_orc_lookup(t, pc, &e, NULL) &&
           (e.type == XU_ORC_TYPE_REGS || e.type == XU_ORC_TYPE_REGS_PARTIAL);
}

/*
 * The vCPU stopped in a stub the tables mark end-of-stack (orc_stubs.h):
 * step as its code says.  false when the code is no stub or its frame does
 * not hold (s unchanged).  true with *why XU_ORC_STOP_USER_REGS when the
 * iret frame returns to user mode (the root); else s is moved on, to a
 * frame of its own (*new_frame: THUNK, PV_IRET's interrupted code, then
 * *interrupted) or to the code the stub enters (PV_TRAP: the same frame).
 */
static bool step_out_of_stub(const struct xu_orc_table *t, struct xu_mem *m, struct state *s,
                             bool *new_frame, bool *interrupted, enum xu_orc_stop *why)
{
    uint8_t code[XU_ORC_STUB_CODE];
    struct xu_orc_stub stub;
    struct xu_orc_entry e = { .sp_reg = XU_ORC_REG_SP, .type = XU_ORC_TYPE_REGS_PARTIAL };
    struct state next = *s;
    uint64_t ret;

    *new_frame = *interrupted = false;
    if (xu_mem_read(m, s->pc, code, sizeof(code)) < 0)
        return false;
    switch (xu_orc_stub_decode(code, sizeof(code), s->pc, &stub)) {
    case XU_ORC_STUB_THUNK:
        if (!return_address_at_sp(t, m, s, &ret))
            return false;
        s->pc = ret;
        s->sp += 8;
        s->exact = false;
        *new_frame = true;
        return true;
    case XU_ORC_STUB_PV_TRAP:
        if (!takes_interrupt_frame(t, stub.target))
            return false;
        s->pc = stub.target;
        s->sp += 8 * stub.pops;
        return true;
    case XU_ORC_STUB_PV_IRET:
        e.sp_offset = (int16_t)stub.frame;
        if (!step(t, m, &next, &e, interrupted, why))
            return *why == XU_ORC_STOP_USER_REGS;
        *s = next;
        *new_frame = true;
        return true;
    default:
        return false;
    }
}

/*
 * Does the stack end at s, where an END_OF_STACK entry says it does?
 * first: s is the vCPU's own state, not a caller's; there the mark may be a
 * retpoline thunk's, entered by a call whose return address is at sp (near
 * a stack's top too, in a handler on the IRQ stack): code there says so.
 */
static bool at_stack_end(const struct xu_orc_table *t, struct xu_mem *m, const struct state *s,
                         bool first)
{
    bool user_half = s->sp >> 63 == 0;      /* user space, in every paging mode */
    bool entry_stack = s->sp >= XU_ORC_CEA_START && s->sp < XU_ORC_CEA_END;
    uint64_t align = entry_stack ? XU_ORC_ENTRY_STACK_ALIGN : XU_ORC_STACK_ALIGN;
    uint64_t ret;

    if (user_half)
        return first;
    if (((0 - s->sp) & (align - 1)) > XU_ORC_ROOT_SLACK)
        return false;
    /* at a stack's very top the word may lie past it, unmapped */
    return !first || !return_address_at_sp(t, m, s, &ret);
}

static enum xu_walk_end end_of(enum xu_orc_stop why)
{
    switch (why) {
    case XU_ORC_STOP_END_OF_STACK:
    case XU_ORC_STOP_USER_REGS:
    case XU_ORC_STOP_USER_MODE:
        return XU_WALK_CFI_ROOT;
    case XU_ORC_STOP_END_MID_STACK:
        return XU_WALK_NOT_ROOT;
    case XU_ORC_STOP_FAULT:
        return XU_WALK_UNMAPPED;
    case XU_ORC_STOP_DEPTH:
        return XU_WALK_DEPTH;
    case XU_ORC_STOP_NO_PAGING:
        return XU_WALK_NO_PAGING;
    default:
        return XU_WALK_BAD_FRAME;
    }
}

void xu_orc_walk(const struct xu_orc_table *t, struct xu_mem *m,
                 const struct xu_vcpu_regs *regs, uint64_t *pcs, unsigned int max_depth,
                 struct xu_unwind_result *out, enum xu_orc_stop *why_out)
{
    const struct xu_arch_ops *a = xu_mem_arch(m);
    struct state s = { .pc = regs->ip, .sp = regs->sp, .bp = regs->fp, .exact = true };
    unsigned int depth = 0;
    enum xu_orc_stop why;
    bool stepped_stub = false, interrupted;

    if (max_depth == 0) {
        why = XU_ORC_STOP_DEPTH;
        goto out;
    }
    pcs[depth++] = regs->ip;
    if (!a->stack_readable(regs) || a->elf_machine != EM_X86_64) {
        why = XU_ORC_STOP_NO_PAGING;
        goto out;
    }
    if (!regs->kernel_mode) {
        why = XU_ORC_STOP_USER_MODE;
        goto out;
    }
    if (!t) {
        why = XU_ORC_STOP_NO_TABLE;
        goto out;
    }
    for (;;) {
        struct xu_orc_entry e;

        /* a return address follows its call: pc - 1 is still in the
         * caller's call instruction (which may end a noreturn function) */
        if (!xu_orc_lookup(t, s.exact ? s.pc : s.pc - 1, &e, NULL)) {
            why = XU_ORC_STOP_NO_ENTRY;
            break;
        }
        if (e.type == XU_ORC_TYPE_END_OF_STACK) {
            bool new_frame;

            /* once: a stub's step leads to the code it enters or returns to */
            if (depth == 1 && !stepped_stub) {
                stepped_stub = true;
                why = XU_ORC_STOP_END_MID_STACK;
                if (step_out_of_stub(t, m, &s, &new_frame, &interrupted, &why)) {
                    if (why == XU_ORC_STOP_USER_REGS)
                        break;
                    if (depth + interrupted + new_frame > max_depth) {
                        why = XU_ORC_STOP_DEPTH;
                        break;
                    }
                    if (interrupted)
                        pcs[depth++] = XU_PC_UPCALL;
                    if (new_frame)
                        pcs[depth++] = s.pc;
                    continue;
                }
            }
            why = at_stack_end(t, m, &s, depth == 1) ? XU_ORC_STOP_END_OF_STACK
                                                     : XU_ORC_STOP_END_MID_STACK;
            break;
        }
        if (e.type == XU_ORC_TYPE_UNDEFINED) {
            why = XU_ORC_STOP_UNDEFINED;
            break;
        }
        if (depth == max_depth) {
            why = XU_ORC_STOP_DEPTH;
            break;
        }
        if (!step(t, m, &s, &e, &interrupted, &why))
            break;
        if (interrupted) {
            pcs[depth++] = XU_PC_UPCALL;
            if (depth == max_depth) {
                why = XU_ORC_STOP_DEPTH;
                break;
            }
        }
        pcs[depth++] = s.pc;
    }
out:
    out->depth = depth;
    out->end = end_of(why);
    if (why_out)
        *why_out = why;
}

static void orc_walk(const void *env, struct xu_mem *m, const struct xu_vcpu_regs *regs,
                     uint64_t *pcs, unsigned int max_depth, struct xu_unwind_result *out)
{
    const struct xu_unwind_env *e = env;

    xu_orc_walk(e ? e->orc : NULL, m, regs, pcs, max_depth, out, NULL);
}

const struct xu_unwinder_ops xu_unwind_orc_ops = {
    .name = "orc",
    .walk = orc_walk,
};
