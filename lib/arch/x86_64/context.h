/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * context.h - Xen's x86 vCPU state as struct xu_vcpu_regs.
 *
 * Both Xen backends get the same structures from the hypervisor (through
 * libxencall or through libxc) and convert them here, so the meaning of
 * every register bit lives in one place:
 *  - PV vCPUs: struct vcpu_guest_context from XEN_DOMCTL_getvcpucontext, in
 *    the guest's own layout (x86_64, or x86_32 for a 32-bit PV guest).
 *  - PVH/HVM vCPUs: struct hvm_hw_cpu, the "CPU" record of the HVM save
 *    format, from XEN_DOMCTL_gethvmcontext_partial.
 *
 * These functions only read their input; they never fail on odd values,
 * because odd values are the guest's business and the page walk that comes
 * next checks everything it reads.
 */
#ifndef XU_X86_CONTEXT_H
#define XU_X86_CONTEXT_H

#ifndef __XEN_TOOLS__
#define __XEN_TOOLS__ 1     /* domctl.h and hvm/save.h are tools-only */
#endif

#include <stdbool.h>
#include <stdint.h>

#include <xen/xen.h>
#include <xen/hvm/save.h>
#include <xen/foreign/x86_32.h>
#include <xen/foreign/x86_64.h>

#include "target/xu_target.h"

/* Guest address width in bytes of 64-bit and 32-bit PV guests. */
#define XU_X86_WIDTH_64 8u
#define XU_X86_WIDTH_32 4u

/* Bytes the getvcpucontext buffer must have for either PV layout. */
#define XU_X86_PV_CONTEXT_SIZE \
    (sizeof(vcpu_guest_context_x86_64_t) > sizeof(vcpu_guest_context_x86_32_t) ? \
     sizeof(vcpu_guest_context_x86_64_t) : sizeof(vcpu_guest_context_x86_32_t))

/*
 * A PV vCPU's context as written by XEN_DOMCTL_getvcpucontext.  ctx is in
 * the layout of a guest of guest_width bytes (XU_X86_WIDTH_64 or _32).
 * A vCPU without VGCF_online gives online == false and nothing else.
 */
void xu_x86_pv_regs(const void *ctx, unsigned int guest_width, struct xu_vcpu_regs *out);

/* A PVH/HVM vCPU's "CPU" save record.  The caller decides online-ness (an
 * offline HVM vCPU has no record at all). */
void xu_x86_hvm_regs(const struct hvm_hw_cpu *cpu, struct xu_vcpu_regs *out);

/*
 * One vCPU of an `xl dump-core` file (.xen_prstatus): what
 * XEN_DOMCTL_getvcpucontext gave the dumping tools, in the 64-bit layout.
 * A PV vCPU decodes as xu_x86_pv_regs() does.  An HVM or PVH vCPU's
 * context is Xen's rendering of its hardware state into the PV structure:
 * ctrlreg[3] is the guest's own CR3 (a guest-physical address), the CPL
 * is the code selector's RPL, and there is no EFER: a vCPU with paging and
 * PAE on is taken to run in long mode (a 32-bit PAE kernel would be
 * misread, and its walk fails on the first entry).
 */
void xu_x86_core_regs(const vcpu_guest_context_x86_64_t *ctx, bool hvm,
                      struct xu_vcpu_regs *out);

/* The part of CR3 that addresses the top-level table in the given mode. */
uint64_t xu_x86_cr3_root(uint64_t cr3, enum xu_paging_mode mode);

#endif
