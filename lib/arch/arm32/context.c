/* SPDX-License-Identifier: GPL-2.0-only */
/* context.c - Xen's arm64 vCPU structure of an AArch32 vCPU -> struct xu_vcpu_regs. */
#include "config.h"

#include <string.h>

#include "arch/arm64/context.h"
#include "context.h"
#include "pagewalk.h"

#define PSR_AARCH32  0x10u      /* M[4] */
#define PSR_T        0x20u      /* Thumb state */
#define MODE_MASK    0x1fu
#define MODE_USR     0x10u
#define MODE_FIQ     0x11u
#define MODE_IRQ     0x12u
#define MODE_SVC     0x13u
#define MODE_ABT     0x17u
#define MODE_UND     0x1bu
#define MODE_SYS     0x1fu

enum xu_arm_width xu_arm_width_from_cpsr(uint64_t cpsr)
{
    if (!(cpsr & PSR_AARCH32))
        return XU_ARM_WIDTH_64;
    return (cpsr & MODE_MASK) == MODE_USR ? XU_ARM_WIDTH_UNKNOWN : XU_ARM_WIDTH_32;
}

enum xu_arm_width xu_arm_domain_width(const vcpu_guest_context_arm64_t *const *ctx,
                                      unsigned int n)
{
    unsigned int i;

    enum xu_arm_width weak = XU_ARM_WIDTH_UNKNOWN;

    for (i = 0; ctx && i < n; i++) {
        enum xu_arm_width w;

        if (!ctx[i] || !(ctx[i]->flags & VGCF_online_ARM64))
            continue;
        w = xu_arm_width_from_cpsr(ctx[i]->user_regs.cpsr);
        if (w != XU_ARM_WIDTH_UNKNOWN)
            return w;
        /* AArch32 usr: TCR_EL1's high half, which AArch32 cannot write */
        if (weak != XU_ARM_WIDTH_64)
            weak = (ctx[i]->ttbcr >> 32) ? XU_ARM_WIDTH_64 : XU_ARM_WIDTH_32;
    }
    return weak;
}

/* r13 and r14 of the mode: each privileged mode but sys banks its own. */
static void banked_sp_lr(const vcpu_guest_core_regs_arm64_t *u, unsigned int mode,
                         uint32_t *sp, uint32_t *lr)
{
    switch (mode) {
    case MODE_FIQ: *sp = (uint32_t)u->sp_fiq; *lr = (uint32_t)u->lr_fiq; break;
    case MODE_IRQ: *sp = (uint32_t)u->sp_irq; *lr = (uint32_t)u->lr_irq; break;
    case MODE_SVC: *sp = (uint32_t)u->sp_svc; *lr = (uint32_t)u->lr_svc; break;
    case MODE_ABT: *sp = (uint32_t)u->sp_abt; *lr = (uint32_t)u->lr_abt; break;
    case MODE_UND: *sp = (uint32_t)u->sp_und; *lr = (uint32_t)u->lr_und; break;
    default:       *sp = (uint32_t)u->sp_usr; *lr = (uint32_t)u->lr_usr; break;
    }
}

static void core_regs(const vcpu_guest_core_regs_arm64_t *u, uint32_t r[16])
{
    unsigned int mode = (unsigned int)(u->cpsr & MODE_MASK);

    r[0] = (uint32_t)u->r0_usr;   r[1] = (uint32_t)u->r1_usr;
    r[2] = (uint32_t)u->r2_usr;   r[3] = (uint32_t)u->r3_usr;
    r[4] = (uint32_t)u->r4_usr;   r[5] = (uint32_t)u->r5_usr;
    r[6] = (uint32_t)u->r6_usr;   r[7] = (uint32_t)u->r7_usr;
    if (mode == MODE_FIQ) {
        r[8] = (uint32_t)u->r8_fiq;   r[9] = (uint32_t)u->r9_fiq;
        r[10] = (uint32_t)u->r10_fiq; r[11] = (uint32_t)u->r11_fiq;
        r[12] = (uint32_t)u->r12_fiq;
    } else {
        r[8] = (uint32_t)u->r8_usr;   r[9] = (uint32_t)u->r9_usr;
        r[10] = (uint32_t)u->r10_usr; r[11] = (uint32_t)u->r11_usr;
        r[12] = (uint32_t)u->r12_usr;
    }
    banked_sp_lr(u, mode, &r[13], &r[14]);
    r[15] = (uint32_t)u->pc32;
}

void xu_arm32_regs(const vcpu_guest_context_arm64_t *ctx, struct xu_vcpu_regs *out)
{
    const vcpu_guest_core_regs_arm64_t *u = &ctx->user_regs;
    unsigned int mode = (unsigned int)(u->cpsr & MODE_MASK);

    if (!(u->cpsr & PSR_AARCH32)) {
        xu_arm64_regs(ctx, out);
        return;
    }
    memset(out, 0, sizeof(*out));
    if (!(ctx->flags & VGCF_online_ARM64))
        return;
    out->online = true;
    out->cpsr = u->cpsr;
    out->sctlr = ctx->sctlr;
    core_regs(u, out->r32);
    out->kernel_mode = mode != MODE_USR;
    out->ip = out->r32[15];
    out->sp = out->r32[13];
    out->lr = out->r32[14];
    out->fp = (u->cpsr & PSR_T) ? out->r32[7] : out->r32[11];
    out->mmu.paging = (ctx->sctlr & XU_ARM32_SCTLR_M) ? XU_PAGING_ARM32 : XU_PAGING_NONE;
    out->mmu.root = ctx->ttbr0;
    out->mmu.root_hi = ctx->ttbr1;
    out->mmu.ctl = (uint32_t)ctx->ttbcr |
                   ((ctx->sctlr & XU_ARM32_SCTLR_EE) ? XU_ARM32_CTL_BIG_ENDIAN : 0);
}
