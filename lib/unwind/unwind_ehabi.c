/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * unwind_ehabi.c - the "ehabi" unwinder: an AArch32 vCPU's stack walked
 * with the ELF's ARM EHABI tables (xu_ehabi.h), its words read through
 * the cached guest memory.
 *
 * EHABI tables describe a function's body: stopped in a prologue or an
 * epilogue the instructions may not match the stack yet, as with CFI built
 * for synchronous unwinding only; such a frame ends BAD_FRAME or, where the
 * words happen to look like a frame, gives a wrong caller that the ELF's
 * vouching (a return address after a call) may still reject.
 */
#include "config.h"

#include <string.h>

#include "unwind/xu_ehabi.h"
#include "util/xu_le.h"

static int mem_word(void *ctx, uint32_t addr, uint32_t *word)
{
    uint8_t b[4];

    if (xu_mem_read(ctx, addr, b, sizeof(b)) < 0)
        return -1;
    *word = xu_le32(b);
    return 0;
}

/* The vCPU's registers; without r32 (a decoder that gave none) only pc, sp
 * and lr are known. */
static void start_regs(const struct xu_vcpu_regs *regs, struct xu_ehabi_regs *r)
{
    static const uint32_t none[16];

    memset(r, 0, sizeof(*r));
    if (memcmp(regs->r32, none, sizeof(none)) != 0) {
        memcpy(r->r, regs->r32, sizeof(r->r));
        r->known = 0xffffu;
    } else {
        r->known = (1u << 13) | (1u << 14) | (1u << 15);
    }
    r->r[13] = (uint32_t)regs->sp;
    r->r[14] = (uint32_t)regs->lr;
    r->r[15] = (uint32_t)regs->ip;
}

static void ehabi_walk(const void *envp, struct xu_mem *m, const struct xu_vcpu_regs *regs,
                       uint64_t *pcs, unsigned int max_depth, struct xu_unwind_result *out)
{
    const struct xu_unwind_env *env = envp;
    const struct xu_arch_ops *a = xu_mem_arch(m);
    struct xu_ehabi_regs r;

    if (max_depth > 0 && !a->stack_readable(regs)) {
        pcs[0] = regs->ip;
        out->depth = 1;
        out->end = XU_WALK_NO_PAGING;
        return;
    }
    start_regs(regs, &r);
    xu_ehabi_walk(env ? env->ehabi : NULL, &r, mem_word, m, pcs, max_depth, out);
}

const struct xu_unwinder_ops xu_unwind_ehabi_ops = {
    .name = "ehabi",
    .walk = ehabi_walk,
};
