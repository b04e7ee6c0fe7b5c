/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * boundary.c - hypercall stubs and interrupt frames, for every unwinder.
 *
 * Both steps read a bounded number of words near the stack pointer, only
 * through the cached guest memory, and trust nothing they read: a stub is
 * decoded by the architecture from the entry's own bytes, and an interrupt
 * frame must look like one (the architecture's check) and hold a PC inside
 * the guest's code.
 */
#include "config.h"

#include <string.h>

#include "boundary.h"

/* Where entry code may keep the interrupt frame, in words from the entry's
 * stack pointer at its call to the handler: on the same stack (a PV bounce
 * frame or a hardware frame, under the registers the entry saved), or
 * behind one of the first saved words (entry code that switched to an
 * interrupt stack and kept the old stack pointer, or a pointer to its
 * saved registers, there). */
#define SCAN_WORDS      48
#define POINTER_WORDS   4
#define BEHIND_WORDS    32
#define MAX_FRAME_WORDS 8

bool xu_unwind_in_range(const struct xu_code_range *r, unsigned int n, uint64_t pc)
{
    unsigned int i;

    for (i = 0; i < n; i++)
        if (pc >= r[i].start && pc < r[i].end)
            return true;
    return false;
}

int xu_unwind_hypercall_step(const struct xu_unwind_env *env, struct xu_mem *m,
                             const struct xu_vcpu_regs *regs, uint64_t pc, uint64_t sp,
                             uint64_t *ra, uint64_t *caller_sp)
{
    const struct xu_arch_ops *a = xu_mem_arch(m);
    uint8_t entry[64];
    unsigned int words, size = a->hypercall_entry_size;
    uint64_t start, slot;

    if (!env || !a->hypercall_stub || size == 0 || size > sizeof(entry) ||
        !xu_unwind_in_range(&env->hypercall_page, 1, pc))
        return 0;
    start = pc - (pc - env->hypercall_page.start) % size;
    if (xu_mem_read(m, start, entry, size) < 0)
        return -1;
    if (a->hypercall_stub(entry, (unsigned int)(pc - start), &words) < 0)
        return 0;
    slot = sp + (uint64_t)a->word_bytes * words;
    if (slot < sp || xu_mem_read_word(m, slot, ra) < 0)
        return -1;
    *ra = a->code_address(regs, *ra);
    *caller_sp = slot + a->word_bytes;
    return 1;
}

bool xu_unwind_at_boundary(const struct xu_unwind_env *env, uint64_t ra)
{
    return env && xu_unwind_in_range(env->boundary, env->nr_boundary, ra);
}

/* Words of the guest's width from addr up to max (at most
 * XU_MEM_MAX_WORDS), stopping at the first page that faults (a stack's top
 * is often the last mapped page).  Returns how many were read. */
static unsigned int read_words(struct xu_mem *m, uint64_t addr, uint64_t *buf, unsigned int max)
{
    unsigned int n = 0, wb = xu_mem_arch(m)->word_bytes;

    while (n < max) {
        uint64_t left = XU_PAGE_SIZE - (addr & (XU_PAGE_SIZE - 1));
        unsigned int chunk = (unsigned int)(left / wb);

        if (chunk == 0)
            chunk = 1;
        if (chunk > max - n)
            chunk = max - n;
        if (xu_mem_read_words(m, addr, buf + n, chunk) < 0)
            break;
        n += chunk;
        addr += (uint64_t)chunk * wb;
    }
    return n;
}

/* An interrupt frame among words[0..n), read at addr: the first whose PC is
 * guest code. */
static bool find_frame(const struct xu_unwind_env *env, const struct xu_arch_ops *a,
                       uint16_t code_sel, const uint64_t *words, unsigned int n, uint64_t addr,
                       uint64_t *pc, uint64_t *sp)
{
    unsigned int i, fw = a->interrupt_frame_words;

    for (i = 0; i + fw <= n; i++)
        if (a->interrupt_frame(words + i, addr + (uint64_t)a->word_bytes * i, code_sel, pc,
                               sp) &&
            xu_unwind_in_range(env->text, env->nr_text, *pc))
            return true;
    return false;
}

int xu_unwind_boundary_step(const struct xu_unwind_env *env, struct xu_mem *m, uint64_t cfa,
                            uint64_t *pc, uint64_t *sp)
{
    const struct xu_arch_ops *a = xu_mem_arch(m);
    uint64_t near[SCAN_WORDS + MAX_FRAME_WORDS], behind[BEHIND_WORDS + MAX_FRAME_WORDS];
    unsigned int i, n, fw = a->interrupt_frame_words;
    uint64_t align = a->word_bytes - 1u;

    if (!env || !a->interrupt_frame || fw == 0 || fw > MAX_FRAME_WORDS || (cfa & align) ||
        cfa > UINT64_MAX - sizeof(near))
        return 0;
    n = read_words(m, cfa, near, SCAN_WORDS + fw);
    if (n == 0)
        return -1;
    if (find_frame(env, a, xu_mem_code_selector(m), near, n, cfa, pc, sp))
        return 1;
    for (i = 0; i < POINTER_WORDS && i < n; i++) {
        uint64_t p = near[i];

        /* a saved stack pointer or register block: aligned, and not code */
        if (p == 0 || (p & align) || p > UINT64_MAX - sizeof(behind) ||
            xu_unwind_in_range(env->text, env->nr_text, p))
            continue;
        n = read_words(m, p, behind, BEHIND_WORDS + fw);
        if (find_frame(env, a, xu_mem_code_selector(m), behind, n, p, pc, sp))
            return 1;
    }
    return 0;
}

bool xu_unwind_cross(const struct xu_unwind_env *env, struct xu_mem *m, uint64_t cfa,
                     uint64_t *pcs, unsigned int *depth, unsigned int max_depth,
                     unsigned int *crossings, uint64_t *pc, uint64_t *sp,
                     enum xu_walk_end *end)
{
    int rc;

    if (++*crossings > XU_UNWIND_MAX_CROSSINGS) {
        *end = XU_WALK_BAD_FRAME;
        return false;
    }
    rc = xu_unwind_boundary_step(env, m, cfa, pc, sp);
    if (rc <= 0) {
        *end = rc < 0 ? XU_WALK_UNMAPPED : XU_WALK_BAD_FRAME;
        return false;
    }
    if (max_depth - *depth < 2) {
        *end = XU_WALK_DEPTH;
        return false;
    }
    pcs[(*depth)++] = XU_PC_UPCALL;
    pcs[(*depth)++] = *pc;
    return true;
}

bool xu_unwind_unlisted_entry(const struct xu_unwind_env *env, struct xu_mem *m,
                              uint64_t lookup, uint64_t cfa, uint64_t *pcs,
                              unsigned int *depth, unsigned int max_depth,
                              unsigned int *crossings, uint64_t *pc, uint64_t *sp)
{
    uint64_t start, ipc, isp;

    /* entry code is assembly: inside a function symbol it is not */
    if (!env || !env->func_start || env->func_start(env->func_ctx, lookup, &start, NULL) ||
        !xu_unwind_in_range(env->text, env->nr_text, lookup) ||
        xu_unwind_in_range(&env->hypercall_page, 1, lookup) ||
        *crossings >= XU_UNWIND_MAX_CROSSINGS || max_depth - *depth < 2)
        return false;
    if (xu_unwind_boundary_step(env, m, cfa, &ipc, &isp) != 1)
        return false;
    ++*crossings;
    pcs[(*depth)++] = XU_PC_UPCALL;
    pcs[(*depth)++] = ipc;
    *pc = ipc;
    *sp = isp;
    return true;
}

/* The start of the function holding pc (exact: the PC itself; else a
 * return address into it), where the ELF says and its code is known. */
static bool function_start(const struct xu_unwind_env *env, uint64_t pc, bool exact,
                           uint64_t *start)
{
    return env && env->code && env->func_start && pc != 0 &&
           env->func_start(env->func_ctx, exact ? pc : pc - 1, start, NULL) && pc >= *start;
}

/* The ELF's bytes of that function from start up to pc, at most the
 * architecture's prologue_bytes, *len of them; NULL when there are none
 * (pc on its first instruction) or they are not known. */
static const uint8_t *prologue(const struct xu_unwind_env *env, const struct xu_arch_ops *a,
                               uint64_t start, uint64_t pc, uint64_t *len)
{
    *len = pc - start < a->prologue_bytes ? pc - start : a->prologue_bytes;
    return *len ? env->code(env->code_ctx, start + *len, (size_t)*len) : NULL;
}

/*
 * A function stopped on its first instructions or on its return: its
 * frame record is not there, its return address is on the stack under
 * what it pushed (the architecture reads the ELF's code at pc).  1 done,
 * 0 not such a place or no code known, -1 a read faulted.
 */
static int frameless_step(const struct xu_unwind_env *env, struct xu_mem *m,
                          const struct xu_vcpu_regs *regs, uint64_t pc, uint64_t sp,
                          uint64_t *ra, uint64_t *caller_sp)
{
    const struct xu_arch_ops *a = xu_mem_arch(m);
    const uint8_t *code;
    uint64_t slot;
    int words;

    if (!env || !env->code || !a->frameless_words || pc < a->frame_before ||
        pc > UINT64_MAX - a->frame_after)
        return 0;
    code = env->code(env->code_ctx, pc + a->frame_after, a->frame_before + a->frame_after);
    if (!code || (words = a->frameless_words(code)) < 0)
        return 0;
    slot = sp + (uint64_t)a->word_bytes * (unsigned int)words;
    if (slot < sp || xu_mem_read_word(m, slot, ra) < 0)
        return -1;
    *ra = a->code_address(regs, *ra);
    *caller_sp = slot + a->word_bytes;
    return 1;
}

bool xu_unwind_exact_steps(const struct xu_unwind_env *env, struct xu_mem *m,
                           const struct xu_vcpu_regs *regs,
                           bool (*has_cfi)(const struct xu_unwind_env *env, uint64_t pc),
                           uint64_t *pcs, unsigned int *depth, unsigned int max_depth,
                           unsigned int *crossings, uint64_t *pc, uint64_t *sp, bool *exact,
                           enum xu_walk_end *end)
{
    uint64_t ra, caller_sp;
    int rc;

    /* each turn crosses a boundary (bounded by XU_UNWIND_MAX_CROSSINGS) or ends */
    while (*exact && *depth < max_depth) {
        bool cfi = has_cfi && has_cfi(env, *pc);

        if (xu_unwind_at_boundary(env, *pc) && !cfi) {
            if (!xu_unwind_cross(env, m, *sp, pcs, depth, max_depth, crossings, pc, sp, end))
                return false;
            continue;
        }
        if (!cfi && xu_unwind_unlisted_entry(env, m, *pc, *sp, pcs, depth, max_depth,
                                             crossings, pc, sp))
            continue;
        rc = xu_unwind_hypercall_step(env, m, regs, *pc, *sp, &ra, &caller_sp);
        if (rc == 0 && !cfi)
            rc = frameless_step(env, m, regs, *pc, *sp, &ra, &caller_sp);
        if (rc < 0) {
            *end = XU_WALK_UNMAPPED;
            return false;
        }
        if (rc == 0)
            break;
        pcs[(*depth)++] = ra;
        *pc = ra;
        *sp = caller_sp;
        *exact = false;
        /* a handler entered, not yet framed, by upcall entry code */
        if (has_cfi && has_cfi(env, ra - 1))
            continue;
        if (xu_unwind_at_boundary(env, ra)) {
            if (!xu_unwind_cross(env, m, *sp, pcs, depth, max_depth, crossings, pc, sp, end))
                return false;
            *exact = true;
        } else if (xu_unwind_unlisted_entry(env, m, ra - 1, *sp, pcs, depth, max_depth,
                                            crossings, pc, sp)) {
            *exact = true;
        }
    }
    return true;
}

/* ra ends a call instruction in the ELF's code, inside the guest's text. */
static bool return_after_call(const struct xu_unwind_env *env, const struct xu_arch_ops *a,
                              uint64_t ra)
{
    const uint8_t *before;

    if (!a->follows_call || !xu_unwind_in_range(env->text, env->nr_text, ra))
        return false;
    before = env->code(env->code_ctx, ra, a->call_window);
    return before && a->follows_call(before, a->call_window);
}

/* AArch64: the innermost frame of a function that has not saved its link
 * register, whose return address is the vCPU's x30. */
static int link_register_step(const struct xu_unwind_env *env, const struct xu_arch_ops *a,
                              const struct xu_vcpu_regs *regs, uint64_t start, uint64_t pc,
                              uint64_t sp, uint64_t *ra, uint64_t *caller_sp)
{
    uint64_t len = pc - start < a->prologue_bytes ? pc - start : a->prologue_bytes;
    const uint8_t *code = len ? env->code(env->code_ctx, start + len, (size_t)len) : NULL;

    if (pc != regs->ip || sp != regs->sp || (len && !code) ||
        (len && !a->ra_in_link(code, (size_t)len, (size_t)(pc - start))))
        return 0;
    *ra = a->code_address(regs, regs->lr);
    if (!return_after_call(env, a, *ra))
        return 0;
    *caller_sp = sp;        /* what a leaf reserved is not known: only fp matters next */
    return 1;
}

int xu_unwind_frameless_function_step(const struct xu_unwind_env *env, struct xu_mem *m,
                                      const struct xu_vcpu_regs *regs, uint64_t pc, bool exact,
                                      uint64_t sp, uint64_t *ra, uint64_t *caller_sp)
{
    const struct xu_arch_ops *a = xu_mem_arch(m);
    const uint8_t *code;
    uint64_t start, slot, len;
    int words;

    if ((!a->frameless_depth && !a->ra_in_link) || !function_start(env, pc, exact, &start))
        return 0;
    if (a->ra_in_link)
        return exact ? link_register_step(env, a, regs, start, pc, sp, ra, caller_sp) : 0;
    /* on its first instruction (no code before pc): xu_unwind_exact_steps' case */
    if (!(code = prologue(env, a, start, pc, &len)) ||
        (words = a->frameless_depth(code, (size_t)len, (size_t)(pc - start))) < 0)
        return 0;
    slot = sp + (uint64_t)a->word_bytes * (unsigned int)words;
    if (slot < sp || xu_mem_read_word(m, slot, ra) < 0)
        return 0;
    *ra = a->code_address(regs, *ra);
    if (!return_after_call(env, a, *ra))
        return 0;       /* a body that pushed more, or not such a function after all */
    *caller_sp = slot + a->word_bytes;
    return 1;
}

bool xu_unwind_framed_fp(const struct xu_unwind_env *env, struct xu_mem *m,
                         const struct xu_vcpu_regs *regs, uint64_t pc, uint64_t sp,
                         uint64_t *fp)
{
    const struct xu_arch_ops *a = xu_mem_arch(m);
    const uint8_t *code;
    uint64_t start, len, at, next_fp, ra;
    int words;

    if (!a->framed_depth || !function_start(env, pc, true, &start) ||
        !(code = prologue(env, a, start, pc, &len)) ||
        (words = a->framed_depth(code, (size_t)len, (size_t)(pc - start))) < 0)
        return false;
    at = sp + (uint64_t)a->word_bytes * (unsigned int)words;
    if (at < sp || xu_unwind_frame_record(m, regs, at, &next_fp, &ra) < 0 ||
        !return_after_call(env, a, ra))
        return false;
    *fp = at;
    return true;
}
