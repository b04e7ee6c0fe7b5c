/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * unwind_cfi.c - the stack walk driven by the compiled CFI table.
 *
 * Per frame: one binary search (cfi_find) and one to three stack reads
 * through the cached guest memory: the return address, the caller's fp
 * when the frame saved it, the caller's sp in an interrupt-style frame.
 * No allocation, and every loop is bounded by max_depth.
 *
 * The stack is hostile.  Each CFA must lie above the stack pointer and
 * within MAX_FRAME_BYTES of it, and the caller's stack pointer must rise,
 * so a forged chain cannot loop; only a signal frame may move to another
 * stack (an interrupt taken on its own stack), and only a few times a walk.
 * One exception: where the innermost frame's return address is still in the
 * link register (AArch64 x30, a leaf or a prologue), its CFA may be sp
 * itself and the caller's sp equal to it; that rule is honoured in the
 * first frame only, so it cannot repeat.
 */
#include "config.h"

#include "boundary.h"
#include "cfi_priv.h"

/* A single frame larger than this is taken as corruption, not a stack. */
#define MAX_FRAME_BYTES (64ULL << 20)
/* Stack switches (at signal frames) allowed in one walk. */
#define MAX_STACK_SWITCHES 4

static const struct cfi_rule no_rule = { .kind = XU_CFI_NONE };

/* Does the CFI table cover pc (an exact PC) with a rule it can follow? */
static bool has_cfi(const struct xu_unwind_env *env, uint64_t pc)
{
    return env->cfi && cfi_find(env->cfi, pc)->kind == XU_CFI_RULE;
}

static void walk(const struct xu_unwind_env *env, bool fp_fallback, struct xu_mem *m,
                 const struct xu_vcpu_regs *regs, uint64_t *pcs, unsigned int max_depth,
                 struct xu_unwind_result *out)
{
    const struct xu_arch_ops *a = xu_mem_arch(m);
    const struct xu_cfi_table *t = env ? env->cfi : NULL;
    uint64_t pc = regs->ip, sp = regs->sp, fp = regs->fp;
    bool fp_known = true, exact = true;
    unsigned int depth = 0, switches = 0, crossings = 0;
    enum xu_walk_end end;

    if (max_depth == 0) {
        out->depth = 0;
        out->end = XU_WALK_DEPTH;
        return;
    }
    pcs[depth++] = pc;
    if (!a->stack_readable(regs)) {
        end = XU_WALK_NO_PAGING;
        goto out;
    }

    for (;;) {
        const struct cfi_rule *r;
        struct xu_record_place place;
        uint64_t cfa, ra = 0, next_fp = fp, next_sp;
        bool next_fp_known = fp_known, may_switch = false, signal = false, in_link = false;

        /* At an exact PC (the first, an interrupted one): a hypercall stub
         * or upcall entry code without CFI of its own is stepped first. */
        if (exact && !xu_unwind_exact_steps(env, m, regs, has_cfi, pcs, &depth, max_depth,
                                            &crossings, &pc, &sp, &exact, &end))
            break;
        /* a return address follows its call: pc - 1 is still in the caller's
         * call instruction; the first pc and one after a signal frame are exact */
        r = t ? cfi_find(t, exact ? pc : pc - 1) : &no_rule;
        if (r->kind != XU_CFI_RULE) {
            if (!fp_fallback) {
                /* entry code clears the fp: the psABI's mark of the outermost frame */
                end = r->kind == XU_CFI_NONE && fp_known && fp == 0 ?
                      XU_WALK_COMPLETE : XU_WALK_BAD_FRAME;
                break;
            }
            /* one frame-pointer step: the frame record at fp, where the
             * function at pc keeps it (AArch32: per function; a Thumb-2
             * function's CFI, relative to r7, is not in the table) */
            if (fp_known && fp == 0) {
                end = XU_WALK_COMPLETE;
                break;
            }
            xu_unwind_record_place(env, a, pc, exact, depth == 1, &place);
            if (!fp_known || (fp & (a->word_bytes - 1u)) || fp < sp || fp - sp > MAX_FRAME_BYTES ||
                !xu_unwind_record_end(a, &place, fp, &next_sp)) {
                end = XU_WALK_BAD_FRAME;
                break;
            }
            if (xu_unwind_record_read(m, regs, &place, fp, &next_fp, &ra) < 0) {
                end = XU_WALK_UNMAPPED;
                break;
            }
            next_fp_known = true;
            exact = false;
        } else {
            if (r->flags & CFI_F_RA_UNDEF) {
                end = XU_WALK_CFI_ROOT;
                break;
            }
            /* the link register holds the innermost frame's return address
             * only: deeper, a "still in x30" rule cannot be followed */
            in_link = (r->flags & CFI_F_RA_LINK) != 0;
            if (((r->flags & CFI_F_CFA_FP) && !fp_known) ||
                (in_link && (depth != 1 || !a->has_link_register))) {
                end = XU_WALK_BAD_FRAME;
                break;
            }
            cfa = ((r->flags & CFI_F_CFA_FP) ? fp : sp) + (uint64_t)(int64_t)r->cfa_off;
            /* a function that has pushed nothing yet has its CFA at sp */
            if (cfa < sp || (cfa == sp && !in_link) || cfa - sp > MAX_FRAME_BYTES) {
                end = XU_WALK_BAD_FRAME;
                break;
            }
            if (in_link)
                ra = regs->lr;
            if ((!in_link && xu_mem_read_word(m, cfa + (uint64_t)(int64_t)r->ra_off, &ra) < 0) ||
                ((r->flags & CFI_F_FP_AT) &&
                 xu_mem_read_word(m, cfa + (uint64_t)(int64_t)r->fp_off, &next_fp) < 0)) {
                end = XU_WALK_UNMAPPED;
                break;
            }
            ra = a->code_address(regs, ra);
            if (r->flags & CFI_F_FP_AT)
                next_fp_known = true;
            else if (r->flags & CFI_F_FP_UNDEF)
                next_fp_known = false;
            next_sp = cfa + (uint64_t)(int64_t)r->sp_off;
            if ((r->flags & CFI_F_SP_AT) && xu_mem_read_word(m, next_sp, &next_sp) < 0) {
                end = XU_WALK_UNMAPPED;
                break;
            }
            signal = (r->flags & CFI_F_SIGNAL) != 0;
            exact = signal;
            may_switch = signal;
        }

        if (ra == 0) {
            end = XU_WALK_COMPLETE;
            break;
        }
        /* the caller of a signal frame was interrupted, not calling */
        if (signal) {
            if (depth == max_depth) {
                end = XU_WALK_DEPTH;
                break;
            }
            pcs[depth++] = XU_PC_UPCALL;
        }
        if (depth == max_depth) {
            end = XU_WALK_DEPTH;
            break;
        }
        pcs[depth++] = ra;
        /* the innermost frame may not have moved sp yet (only once a walk) */
        if ((next_sp < sp || (next_sp == sp && !in_link)) &&
            (!may_switch || ++switches > MAX_STACK_SWITCHES)) {
            end = XU_WALK_BAD_FRAME;
            break;
        }
        pc = ra;
        sp = next_sp;
        fp = next_fp;
        fp_known = next_fp_known;

        /* Returning into upcall entry code without CFI of its own: find the
         * frame the event left (the entry's stack pointer is sp now). */
        if (exact || (t && cfi_find(t, pc - 1)->kind == XU_CFI_RULE))
            continue;
        if (xu_unwind_at_boundary(env, pc)) {
            if (!xu_unwind_cross(env, m, sp, pcs, &depth, max_depth, &crossings, &pc, &sp,
                                 &end))
                break;
            exact = true;
        } else if (xu_unwind_unlisted_entry(env, m, pc - 1, sp, pcs, &depth, max_depth,
                                            &crossings, &pc, &sp)) {
            exact = true;
        }
    }
out:
    out->depth = depth;
    out->end = end;
}

static void cfi_walk(const void *env, struct xu_mem *m, const struct xu_vcpu_regs *regs,
                     uint64_t *pcs, unsigned int max_depth, struct xu_unwind_result *out)
{
    walk(env, false, m, regs, pcs, max_depth, out);
}

static void auto_walk(const void *env, struct xu_mem *m, const struct xu_vcpu_regs *regs,
                      uint64_t *pcs, unsigned int max_depth, struct xu_unwind_result *out)
{
    walk(env, true, m, regs, pcs, max_depth, out);
}

const struct xu_unwinder_ops xu_unwind_cfi_ops = {
    .name = "cfi",
    .walk = cfi_walk,
};

const struct xu_unwinder_ops xu_unwind_auto_ops = {
    .name = "auto",
    .walk = auto_walk,
};
