/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * context.h - Xen's arm64 vCPU state as struct xu_vcpu_regs.
 *
 * On ARM every guest is the same kind of guest (no PV/HVM split): Xen
 * reports a vCPU through XEN_DOMCTL_getvcpucontext as
 * struct vcpu_guest_context_arm64 (xen/foreign/arm64.h, the layout of an
 * arm64 Xen whatever the host of this build), so this decoding is plain C,
 * built and tested on any host that has Xen's headers.
 *
 * Like the x86 decoding it only reads its input and never fails on odd
 * values: the page walk that comes next checks everything it reads.
 */
#ifndef XU_ARM64_CONTEXT_H
#define XU_ARM64_CONTEXT_H

#include <stdint.h>

#include <xen/foreign/arm64.h>

#include "target/xu_target.h"

/*
 * The vCPU's state from getvcpucontext.  A vCPU without VGCF_online gives
 * online == false and nothing else.  An AArch64 vCPU gives:
 *   kernel_mode  EL1 (or above), from PSTATE.M[3:2]; EL0 is user;
 *   sp           SP_EL1 in EL1h, SP_EL0 in EL1t and EL0 (PSTATE.M[0], SPSel);
 *   ip, fp, lr   pc64, x29, x30;
 *   mmu          paging XU_PAGING_ARM64 when SCTLR_EL1.M is set, else
 *                XU_PAGING_NONE; root TTBR0_EL1, root_hi TTBR1_EL1 and ctl
 *                TCR_EL1, all raw (the walk drops ASIDs and CnP);
 *   cpsr, sctlr  raw, for diagnostics.
 * An AArch32 vCPU (PSTATE.M[4]) runs a 32-bit translation regime the walk
 * does not handle: its paging is XU_PAGING_32 (one-frame stacks), ip the
 * low 32 bits of pc, kernel_mode anything but USR mode.
 */
void xu_arm64_regs(const vcpu_guest_context_arm64_t *ctx, struct xu_vcpu_regs *out);

#endif
