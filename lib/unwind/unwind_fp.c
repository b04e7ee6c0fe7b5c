/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * unwind_fp.c - frame-pointer unwinding.
 *
 * With frame pointers every function keeps a frame record at fp: the
 * caller's fp and the return address, at offsets the guest's architecture
 * gives (x86-64: "push %rbp; mov %rsp,%rbp" makes [fp], [fp+8]; AArch64's
 * records are {x29, x30}).  The chain ends at a zero fp (entry code clears
 * it) or a zero return address.
 *
 * The stack is guest memory, hence hostile: each fp must be aligned to the
 * guest's word (8 bytes, 4 on a 32-bit guest, whose records are {ebp,
 * eip} of 4-byte words) and
 * strictly above the previous one (stacks grow down, so callers' frames lie
 * higher) and not below the stack pointer.  Because fp rises on every step
 * and depth is capped, the walk ends even on a forged, cyclic chain.
 *
 * A link register (AArch64 x30) holds the innermost function's return
 * address only until that function stores it; in a leaf, or in a
 * prologue, x29 still points at the caller's record and the chain alone
 * misses the caller.  Taking x30 whenever it differs from the record's
 * return address would add that caller, but after any call the function
 * has made x30 points into the function itself, and the same rule would
 * then invent a frame: the registers alone cannot tell the two apart.
 * Knowing where the function begins (env->func_start) and its code, the
 * walk reads the instructions before the PC and takes x30 only when none
 * stored it, called, or made the record (the architecture's ra_in_link);
 * without them it keeps the known loss, never a made-up frame.  CFI
 * (unwind_cfi.c) knows exactly where x30 is live.
 *
 * Likewise on x86-64 a function that makes no frame record (a leaf, or one
 * whose only call is inline assembly into the hypercall page) leaves the
 * caller's record in rbp: its prologue, read from the ELF, says how far
 * above sp its return address lies (recordless_steps below).
 *
 * On AArch32 the record's place differs per function (GCC's ARM code
 * points fp at the saved lr with the caller's fp below it, clang's at
 * {fp, lr}, GCC's Thumb-2 code keeps r7 below the locals, the record
 * above them): where the architecture has frame_record and the ELF gives
 * the function's start and code, each record is read where the function
 * owning the frame keeps it (xu_unwind_record_place() below), and the frame pointer
 * is that function's register (r11 or r7).  GCC's leaves save only the
 * frame pointer (push {fp}; add fp, sp, #0): in the innermost frame their
 * return address is the link register.  A record whose saver kept
 * another register than its caller's frame pointer (a chain crossing
 * between ARM and Thumb-2 code) holds no frame pointer of the caller's:
 * the walk ends there.  Without the ELF, or for a prologue not known, the
 * architecture's fixed place holds, as on every other architecture.
 */
#include "config.h"

#include <string.h>

#include "boundary.h"

/* A single frame larger than this is taken as corruption, not a stack. */
#define MAX_FRAME_BYTES (64ULL << 20)

int xu_unwind_frame_record(struct xu_mem *m, const struct xu_vcpu_regs *regs, uint64_t fp,
                           uint64_t *next_fp, uint64_t *ret)
{
    const struct xu_arch_ops *a = xu_mem_arch(m);
    uint64_t rec[2];

    /* the saved fp and the return address in one read (one lookup), two
     * words of the guest's width */
    if (xu_mem_read_words(m, fp, rec, 2) < 0)
        return -1;
    *next_fp = rec[a->record_fp_off / a->word_bytes];
    *ret = a->code_address(regs, rec[a->record_ra_off / a->word_bytes]);
    return 0;
}

static void fixed_place(const struct xu_arch_ops *a, struct xu_record_place *p)
{
    p->fp_off = a->record_fp_off;
    p->ra_off = a->record_ra_off;
    p->fp_reg = a->dwarf_fp;
    p->own = false;
    p->ra_in_link = false;
}

/*
 * Where the function at pc keeps its frame record, when the architecture's
 * records differ per function and the ELF says where the function starts
 * and holds its code; else the fixed place.  exact: the vCPU stopped at
 * pc (the instructions before it ran); else pc is a return address (the
 * call ran, so did the prologue).  innermost: pc is the vCPU's own, whose
 * link register is its return address if it never saved it (a leaf's
 * record); anywhere else such a record cannot be (a caller saved its
 * return address before calling) and the fixed place holds.
 */
void xu_unwind_record_place(const struct xu_unwind_env *env, const struct xu_arch_ops *a,
                            uint64_t pc, bool exact, bool innermost, struct xu_record_place *p)
{
    struct xu_frame_record r;
    const uint8_t *code;
    uint64_t start, upto, len;
    bool thumb = false;

    fixed_place(a, p);
    if (!a->frame_record || !env || !env->code || !env->func_start || pc == 0 ||
        !env->func_start(env->func_ctx, exact ? pc : pc - 1, &start, &thumb) || pc < start)
        return;
    upto = pc - start;
    len = upto < a->prologue_bytes ? upto : a->prologue_bytes;
    if (len == 0)
        return;         /* on its first instruction: no record made yet */
    code = env->code(env->code_ctx, start + len, (size_t)len);
    memset(&r, 0, sizeof(r));
    if (!code || a->frame_record(code, (size_t)len, (size_t)upto, thumb, &r) < 0 ||
        (r.ra_in_link && (!innermost || !a->has_link_register)))
        return;
    p->fp_off = r.fp_off;
    p->ra_off = r.ra_in_link ? r.fp_off : r.ra_off;
    p->fp_reg = r.fp_reg;
    p->own = true;
    p->ra_in_link = r.ra_in_link;
}

/*
 * The bytes from fp to the caller's stack: the fixed record's size, or for
 * a function's own record its highest slot's end (never below fp + one
 * word: fp points at a pushed word in each AArch32 layout).  false when
 * the record does not fit in the address space.
 */
bool xu_unwind_record_end(const struct xu_arch_ops *a, const struct xu_record_place *p,
                          uint64_t fp, uint64_t *end)
{
    int64_t lo, hi;

    if (!p->own) {
        if (fp > UINT64_MAX - a->record_size)
            return false;
        *end = fp + a->record_size;
        return true;
    }
    lo = p->fp_off < p->ra_off ? p->fp_off : p->ra_off;
    hi = p->fp_off > p->ra_off ? p->fp_off : p->ra_off;
    if (hi < 0)
        hi = 0;
    hi += a->word_bytes;
    if ((lo < 0 && fp < (uint64_t)-lo) || fp > UINT64_MAX - (uint64_t)hi)
        return false;
    *end = fp + (uint64_t)hi;
    return true;
}

/* The record at fp, where p says: the caller's fp and the return address. */
int xu_unwind_record_read(struct xu_mem *m, const struct xu_vcpu_regs *regs,
                          const struct xu_record_place *p, uint64_t fp, uint64_t *next_fp,
                          uint64_t *ret)
{
    const struct xu_arch_ops *a = xu_mem_arch(m);
    uint64_t ra;

    if (!p->own)
        return xu_unwind_frame_record(m, regs, fp, next_fp, ret);
    /* xu_unwind_record_end() checked that both slots lie in the address space */
    if (xu_mem_read_words(m, fp + (uint64_t)(int64_t)p->fp_off, next_fp, 1) < 0)
        return -1;
    if (p->ra_in_link)
        ra = regs->lr;
    else if (xu_mem_read_words(m, fp + (uint64_t)(int64_t)p->ra_off, &ra, 1) < 0)
        return -1;
    *ret = a->code_address(regs, ra);
    return 0;
}

/* The frame pointer of the innermost frame: the function's own register
 * where its record says (AArch32: r7 in Thumb-2 code, r11 in ARM code). */
static uint64_t first_fp(const struct xu_vcpu_regs *regs, const struct xu_record_place *p)
{
    if (p->own && p->fp_reg < sizeof(regs->r32) / sizeof(regs->r32[0]))
        return regs->r32[p->fp_reg];
    return regs->fp;
}

/*
 * The steps that need no frame record, from the PC the walk stands on: out
 * of a hypercall stub or upcall entry code (xu_unwind_exact_steps), then out
 * of each function that made no frame record (a leaf or assembly: its
 * return address is on the stack, and the frame pointer still holds its
 * caller's record, whose own caller the chain would give instead), crossing
 * where one returns into upcall entry code.  Each turn appends a frame, so
 * max_depth bounds them.  true to go on with the chain, false with *end.
 */
static bool recordless_steps(const struct xu_unwind_env *env, struct xu_mem *m,
                             const struct xu_vcpu_regs *regs, uint64_t *pcs,
                             unsigned int *depth, unsigned int max_depth,
                             unsigned int *crossings, uint64_t *pc, uint64_t *sp, bool *exact,
                             enum xu_walk_end *end)
{
    uint64_t ra, caller_sp;

    for (;;) {
        if (!xu_unwind_exact_steps(env, m, regs, NULL, pcs, depth, max_depth, crossings,
                                   pc, sp, exact, end))
            return false;
        if (*depth >= max_depth ||
            xu_unwind_frameless_function_step(env, m, regs, *pc, *exact, *sp, &ra,
                                              &caller_sp) != 1)
            return true;
        pcs[(*depth)++] = ra;
        *pc = ra;
        *sp = caller_sp;
        *exact = false;
        if (xu_unwind_at_boundary(env, ra)) {
            if (!xu_unwind_cross(env, m, *sp, pcs, depth, max_depth, crossings, pc, sp, end))
                return false;
            *exact = true;
        } else if (xu_unwind_unlisted_entry(env, m, ra - 1, *sp, pcs, depth, max_depth,
                                            crossings, pc, sp)) {
            *exact = true;
        }
    }
}

void xu_unwind_fp(const struct xu_unwind_env *env, struct xu_mem *m,
                  const struct xu_vcpu_regs *regs,
                  uint64_t *pcs, unsigned int max_depth,
                  struct xu_unwind_result *out)
{
    const struct xu_arch_ops *a = xu_mem_arch(m);
    uint64_t fp, lower = regs->sp, next_fp, ret, pc = regs->ip, sp = regs->sp, end_of;
    unsigned int depth = 0, crossings = 0, before;
    struct xu_record_place place, caller;
    enum xu_walk_end end;
    bool exact = true;

    if (max_depth == 0) {
        out->depth = 0;
        out->end = XU_WALK_DEPTH;
        return;
    }
    pcs[depth++] = regs->ip;
    if (!a->stack_readable(regs)) {
        end = XU_WALK_NO_PAGING;
        goto out;
    }

    /* Stopped in a hypercall stub, in upcall entry code or in a function
     * without a frame record: what needs no frame record first; the
     * frame-pointer chain goes on from fp. */
    if (!recordless_steps(env, m, regs, pcs, &depth, max_depth, &crossings, &pc, &sp, &exact,
                          &end))
        goto out;
    lower = sp;
    xu_unwind_record_place(env, a, pc, exact, depth == 1, &place);
    fp = first_fp(regs, &place);

    for (;;) {
        if (fp == 0) {
            end = XU_WALK_COMPLETE;
            break;
        }
        if ((fp & (a->word_bytes - 1u)) || fp < lower || fp - lower > MAX_FRAME_BYTES ||
            !xu_unwind_record_end(a, &place, fp, &end_of)) {
            end = XU_WALK_BAD_FRAME;
            break;
        }
        /* Checked before reading: with max_depth 1 a sample touches no
         * guest memory at all (the cheapest sample, the hypercall floor). */
        if (depth == max_depth) {
            end = XU_WALK_DEPTH;
            break;
        }
        if (xu_unwind_record_read(m, regs, &place, fp, &next_fp, &ret) < 0) {
            end = XU_WALK_UNMAPPED;
            break;
        }
        if (ret == 0) {
            end = XU_WALK_COMPLETE;
            break;
        }
        pcs[depth++] = ret;
        before = crossings;
        if (xu_unwind_at_boundary(env, ret) ||
            xu_unwind_unlisted_entry(env, m, ret - 1, end_of, pcs, &depth,
                                     max_depth, &crossings, &pc, &sp)) {
            /* The handler returns into entry code: what lies above was
             * interrupted.  The handler's record kept the interrupted fp. */
            if (crossings == before &&
                !xu_unwind_cross(env, m, end_of, pcs, &depth, max_depth,
                                 &crossings, &pc, &sp, &end))
                break;
            /* the interrupted PC may be in the hypercall page (a blocked vCPU) */
            exact = true;
            if (!recordless_steps(env, m, regs, pcs, &depth, max_depth, &crossings, &pc, &sp,
                                  &exact, &end))
                break;
            lower = sp;         /* the one step that may move to another stack */
            fp = next_fp;
            /* entry code that zeroed the frame pointer before calling C
             * left none of the interrupted function's: its prologue says */
            if (fp < sp && exact)
                xu_unwind_framed_fp(env, m, regs, pc, sp, &fp);
            xu_unwind_record_place(env, a, pc, exact, false, &place);
            continue;
        }
        /* ret may be in a function that made no frame record: the record
         * at fp is its callee's, and its own caller is on the stack above */
        pc = ret;
        sp = end_of;
        exact = false;
        before = crossings;
        if (!recordless_steps(env, m, regs, pcs, &depth, max_depth, &crossings, &pc, &sp,
                              &exact, &end))
            break;
        xu_unwind_record_place(env, a, pc, exact, false, &caller);
        if (crossings != before) {
            lower = sp;
            fp = next_fp;
            place = caller;
            continue;
        }
        if (next_fp == 0) {
            end = XU_WALK_COMPLETE;
            break;
        }
        if (next_fp <= fp || (place.own && caller.own && caller.fp_reg != place.fp_reg)) {
            end = XU_WALK_BAD_FRAME;
            break;
        }
        lower = end_of;
        fp = next_fp;
        place = caller;
    }
out:
    out->depth = depth;
    out->end = end;
}

static void fp_walk(const void *env, struct xu_mem *m, const struct xu_vcpu_regs *regs,
                    uint64_t *pcs, unsigned int max_depth, struct xu_unwind_result *out)
{
    xu_unwind_fp(env, m, regs, pcs, max_depth, out);
}

const struct xu_unwinder_ops xu_unwind_fp_ops = {
    .name = "fp",
    .walk = fp_walk,
};
