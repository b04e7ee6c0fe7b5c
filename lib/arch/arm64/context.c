/* SPDX-License-Identifier: GPL-2.0-only */
/* context.c - Xen's arm64 vCPU structure -> struct xu_vcpu_regs. */
#include "config.h"

#include <string.h>

#include "context.h"
#include "pagewalk.h"

/* PSTATE.M as Xen saves it in cpsr (SPSR_EL2) */
#define PSR_MODE_AARCH32 0x10u      /* M[4]: the vCPU runs AArch32 */
#define PSR_MODE_EL(m)   (((m) >> 2) & 3u)
#define PSR_MODE_SPX     0x01u      /* M[0]: SP_ELx rather than SP_EL0 */
#define PSR_MODE_MASK32  0x1fu
#define PSR_MODE_USR32   0x10u

static void aarch64_regs(const vcpu_guest_context_arm64_t *c, struct xu_vcpu_regs *out)
{
    unsigned int m = (unsigned int)(c->user_regs.cpsr & 0xfu);
    unsigned int el = PSR_MODE_EL(m);

    out->kernel_mode = el >= 1;
    /* EL1h runs on SP_EL1; EL1t and EL0 on SP_EL0.  A guest never runs above
     * EL1, so a higher level is read as EL1. */
    out->sp = el >= 1 && (m & PSR_MODE_SPX) ? c->user_regs.sp_el1 : c->user_regs.sp_el0;
    out->ip = c->user_regs.pc64;
    out->fp = c->user_regs.x29;
    out->lr = c->user_regs.x30;
    out->mmu.paging = (c->sctlr & XU_ARM64_SCTLR_M) ? XU_PAGING_ARM64 : XU_PAGING_NONE;
    out->mmu.root = c->ttbr0;
    out->mmu.root_hi = c->ttbr1;
    out->mmu.ctl = c->ttbcr;
}

static void aarch32_regs(const vcpu_guest_context_arm64_t *c, struct xu_vcpu_regs *out)
{
    out->kernel_mode = (c->user_regs.cpsr & PSR_MODE_MASK32) != PSR_MODE_USR32;
    out->ip = (uint32_t)c->user_regs.pc64;
    out->mmu.paging = XU_PAGING_32;
}

void xu_arm64_regs(const vcpu_guest_context_arm64_t *ctx, struct xu_vcpu_regs *out)
{
    memset(out, 0, sizeof(*out));
    if (!(ctx->flags & VGCF_online_ARM64))
        return;
    out->online = true;
    out->cpsr = ctx->user_regs.cpsr;
    out->sctlr = ctx->sctlr;
    if (ctx->user_regs.cpsr & PSR_MODE_AARCH32)
        aarch32_regs(ctx, out);
    else
        aarch64_regs(ctx, out);
}
