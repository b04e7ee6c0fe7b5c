/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * context.h - an AArch32 vCPU of Xen arm64 as struct xu_vcpu_regs, and
 * which width a domain's kernel runs at.
 *
 * Xen on arm64 reports an AArch32 vCPU in the same
 * struct vcpu_guest_context_arm64 (xen/foreign/arm64.h) as an AArch64 one:
 * the AArch32 registers are the x registers under their AArch32 names
 * (x0..x12 = r0_usr..r12_usr, x13/x14 = sp_usr/lr_usr, then each mode's
 * banked sp and lr, r8..r14 of FIQ), pc32 the low half of pc64 and cpsr the
 * AArch32 CPSR (mode in bits 4:0, T in bit 5).  Plain C over Xen's
 * headers, built and tested on any host that has them; it only reads its
 * input and never fails on odd values.
 */
#ifndef XU_ARM32_CONTEXT_H
#define XU_ARM32_CONTEXT_H

#include <stdint.h>

#include <xen/foreign/arm64.h>

#include "target/xu_target.h"

/*
 * The vCPU's state.  Without VGCF_online: online false and nothing else.
 * An AArch32 vCPU (cpsr bit 4) gives:
 *   r32[]        r0..r15 of the mode in cpsr: r13/r14 banked for svc, abt,
 *                und, irq and fiq (r8-r12 too for fiq), usr's for usr and
 *                sys; r15 = pc32; a mode AArch32 EL1 cannot be in (mon,
 *                hyp, reserved encodings) reads usr's;
 *   ip, sp, lr   pc32, r13, r14;
 *   fp           r7 in Thumb state (cpsr.T), r11 in ARM state;
 *   kernel_mode  any mode but usr;
 *   mmu          paging XU_PAGING_ARM32 when SCTLR.M is set, else
 *                XU_PAGING_NONE; root TTBR0, root_hi TTBR1, ctl TTBCR (with
 *                XU_ARM32_CTL_BIG_ENDIAN added when SCTLR.EE is set);
 *   cpsr, sctlr  raw, for diagnostics.
 * An AArch64 vCPU is decoded as lib/arch/arm64 does (xu_arm64_regs()).
 */
void xu_arm32_regs(const vcpu_guest_context_arm64_t *ctx, struct xu_vcpu_regs *out);

/* What a vCPU's saved PSTATE (Xen's cpsr) says about its kernel's width. */
enum xu_arm_width {
    XU_ARM_WIDTH_UNKNOWN = 0,   /* AArch32 user mode: an AArch64 kernel's 32-bit task, or
                                 * an AArch32 kernel's task; ask again at another sample */
    XU_ARM_WIDTH_64,            /* AArch64 (M[4] clear): its EL1 is AArch64 */
    XU_ARM_WIDTH_32,            /* AArch32 in a privileged mode: EL1 is AArch32 */
};

/*
 * The width of the kernel a vCPU with this PSTATE runs under: PSTATE.M[4]
 * set is AArch32.  A higher exception level can never run a narrower one
 * below it in reverse (an AArch32 EL1 runs no AArch64 EL0), so any AArch64
 * state means an AArch64 kernel, and a privileged AArch32 mode an AArch32
 * kernel.  AArch32 usr mode alone does not tell: it is UNKNOWN, and a
 * domain's width is decided by its vCPUs in any other state.
 */
enum xu_arm_width xu_arm_width_from_cpsr(uint64_t cpsr);

/*
 * The same over a whole domain's vCPU contexts (n of them, NULL entries
 * skipped, offline ones too): the first vCPU whose PSTATE tells decides.
 * When every online vCPU is in AArch32 usr mode, the saved TCR_EL1 does:
 * an AArch32 EL1 only reaches its low half (TTBCR), so its high half keeps
 * the zero the toolstack starts a vCPU with, while an AArch64 Linux sets
 * TBI0 and IPS there; zero is read as AArch32.  UNKNOWN when no vCPU is
 * online.
 */
enum xu_arm_width xu_arm_domain_width(const vcpu_guest_context_arm64_t *const *ctx,
                                      unsigned int n);

/*
 * struct xu_arch_xen's guest_arch for an arm64 Xen: every vCPU's context
 * read through io (up to XU_MAX_VCPUS), the domain's width from them
 * (xu_arm_domain_width()): &xu_arch_arm32 or &xu_arch_arm64.  0;
 * -EOPNOTSUPP with *why when no vCPU is online (nothing tells the width);
 * another negative errno as io's reads give it.
 */
struct xu_xen_regs_io;
struct xu_arch_ops;
int xu_arm_guest_arch(const struct xu_xen_regs_io *io, const struct xu_domain_info *info,
                      const struct xu_arch_ops **out, const char **why);

/*
 * struct xu_arch_xen's vcpu_regs for an arm64 Xen, either width: one
 * getvcpucontext, decoded by xu_arm32_regs() (AArch32 by the banked
 * registers of its mode, AArch64 as xu_arm64_regs()).  A vCPU without a
 * context (ENODATA) is offline; other errors are io's.
 */
int xu_arm_vcpu_regs(const struct xu_xen_regs_io *io, const struct xu_domain_info *info,
                     unsigned int vcpu, struct xu_vcpu_regs *out);

#endif
