/* SPDX-License-Identifier: GPL-2.0-only */
/* core.c - an x86 vCPU as `xl dump-core` keeps it -> struct xu_vcpu_regs. */
#include "config.h"

#include <string.h>

#include "context.h"
#include "pagewalk.h"

#define X86_CR0_PG (1ULL << 31)
#define X86_CR4_PAE (1ULL << 5)
#define X86_EFER_LME_LMA ((1ULL << 8) | (1ULL << 10))

static void hvm_core_regs(const vcpu_guest_context_x86_64_t *c, struct xu_vcpu_regs *out)
{
    /* The core keeps no EFER: see context.h for why long mode is assumed. */
    uint64_t efer = (c->ctrlreg[0] & X86_CR0_PG) && (c->ctrlreg[4] & X86_CR4_PAE) ?
                    X86_EFER_LME_LMA : 0;

    if (!(c->flags & VGCF_online))
        return;
    out->online = true;
    out->kernel_mode = (c->user_regs.cs & 3u) == 0;
    out->mmu.paging = xu_x86_paging_mode(c->ctrlreg[0], c->ctrlreg[4], efer);
    out->ip = c->user_regs.rip;
    out->sp = c->user_regs.rsp;
    out->fp = c->user_regs.rbp;
    out->rflags = c->user_regs.rflags;
    out->mmu.root = xu_x86_cr3_root(c->ctrlreg[3], out->mmu.paging);
    out->cr0 = c->ctrlreg[0];
    out->cr4 = c->ctrlreg[4];
    out->efer = efer;
    /* Xen fills the PV structure's GS bases by the CPL: gs_base_kernel is
     * the kernel's in either mode */
    out->kernel_percpu = c->gs_base_kernel;
}

void xu_x86_core_regs(const vcpu_guest_context_x86_64_t *ctx, bool hvm,
                      struct xu_vcpu_regs *out)
{
    if (!hvm) {
        xu_x86_pv_regs(ctx, XU_X86_WIDTH_64, out);
        return;
    }
    memset(out, 0, sizeof(*out));
    hvm_core_regs(ctx, out);
}
