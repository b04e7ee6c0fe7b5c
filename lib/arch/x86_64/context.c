/* SPDX-License-Identifier: GPL-2.0-only */
/* context.c - Xen's x86 vCPU structures -> struct xu_vcpu_regs. */
#include "config.h"

#include <string.h>

#include "context.h"
#include "pagewalk.h"

/* Physical-address bits of CR3 in long mode: 51..12 (0..11 are PCD/PWT or a
 * PCID, and bit 63 never reaches the saved value). */
#define CR3_LONG_MASK 0x000ffffffffff000ULL
#define CR3_PAE_MASK  0x00000000ffffffe0ULL    /* 32-byte aligned PDPT */
#define CR3_32_MASK   0x00000000fffff000ULL

/* The DPL field of Xen's packed segment attributes (hvm_hw_cpu *_arbytes):
 * type:4 s:1 dpl:2 p:1 avl:1 l:1 db:1 g:1. */
#define ARBYTES_DPL(ar) (((ar) >> 5) & 3u)

#define X86_EFER_LMA_BIT (1ULL << 10)

uint64_t xu_x86_cr3_root(uint64_t cr3, enum xu_paging_mode mode)
{
    switch (mode) {
    case XU_PAGING_LONG4:
    case XU_PAGING_LONG5:
        return cr3 & CR3_LONG_MASK;
    case XU_PAGING_PAE:
        return cr3 & CR3_PAE_MASK;
    case XU_PAGING_32:
        return cr3 & CR3_32_MASK;
    case XU_PAGING_NONE:
    case XU_PAGING_ARM64:
    case XU_PAGING_ARM32:
        break;
    }
    return 0;
}

static void pv64_regs(const vcpu_guest_context_x86_64_t *c, struct xu_vcpu_regs *out)
{
    uint64_t cr3;

    if (!(c->flags & VGCF_online))
        return;
    out->online = true;
    out->kernel_mode = (c->flags & VGCF_in_kernel) != 0;
    out->code_sel = (uint16_t)c->user_regs.cs;
    /* A 64-bit PV guest always runs on Xen's 4-level tables: it has no
     * paging mode of its own to report. */
    out->mmu.paging = XU_PAGING_LONG4;
    out->ip = c->user_regs.rip;
    out->sp = c->user_regs.rsp;
    out->fp = c->user_regs.rbp;
    out->rflags = c->user_regs.rflags;
    /*
     * A 64-bit PV guest has two page tables: the kernel one (ctrlreg[3]) and
     * the user one (ctrlreg[1]), and Xen switches between them on the
     * guest's kernel/user transitions.  The one in effect is the one the
     * stopped vCPU was using.  ctrlreg[1] is 0 while the kernel has not
     * installed a user table, and then the kernel table is the only one.
     * A user table need not map the kernel at all (Linux's does not), so
     * in user mode the kernel table stays at hand for the upper half, where
     * kernel text, stacks and tables live: root_hi, as arm64's TTBR1.
     */
    cr3 = c->ctrlreg[3];
    if (!out->kernel_mode && c->ctrlreg[1] != 0) {
        cr3 = c->ctrlreg[1];
        out->mmu.root_hi = (uint64_t)xen_cr3_to_pfn_x86_64(c->ctrlreg[3]) << XU_PAGE_SHIFT;
    }
    out->mmu.root = (uint64_t)xen_cr3_to_pfn_x86_64(cr3) << XU_PAGE_SHIFT;
    out->cr0 = c->ctrlreg[0];
    out->cr4 = c->ctrlreg[4];
    out->efer = 0;      /* a PV guest has no EFER in its context */
    /* Xen keeps a 64-bit PV vCPU's two GS bases by mode, not by which is
     * loaded: gs_base_kernel is the kernel's (its per-CPU area) in user
     * mode too, Xen swapping them on the guest's mode switches. */
    out->kernel_percpu = c->gs_base_kernel;
}

static void pv32_regs(const vcpu_guest_context_x86_32_t *c, struct xu_vcpu_regs *out)
{
    if (!(c->flags & VGCF_online))
        return;
    out->online = true;
    /* A 32-bit PV kernel runs in ring 1: anything but ring 3 is the kernel. */
    out->kernel_mode = (c->user_regs.cs & 3u) != 3u;
    /* 32-bit PV guests always run on PAE tables of machine frames (Xen's
     * compat layer), walked by arch/x86_32. */
    out->mmu.paging = XU_PAGING_PAE;
    out->code_sel = (uint16_t)c->user_regs.cs;
    out->ip = c->user_regs.eip;
    out->sp = c->user_regs.esp;
    out->fp = c->user_regs.ebp;
    out->rflags = c->user_regs.eflags;
    out->mmu.root = (uint64_t)(uint32_t)xen_cr3_to_pfn_x86_32(c->ctrlreg[3]) << XU_PAGE_SHIFT;
    out->mmu.ctl = XU_X86_32_CTL_PV_L3;
    out->cr0 = c->ctrlreg[0];
    out->cr4 = c->ctrlreg[4];
    out->efer = 0;
}

void xu_x86_pv_regs(const void *ctx, unsigned int guest_width, struct xu_vcpu_regs *out)
{
    memset(out, 0, sizeof(*out));
    if (guest_width == XU_X86_WIDTH_32)
        pv32_regs(ctx, out);
    else
        pv64_regs(ctx, out);
}

/*
 * The kernel's GS base of an HVM vCPU: gs_base in kernel mode, the one
 * SWAPGS put aside (shadow_gs, MSR_KERNEL_GS_BASE) in user mode.  Kernel
 * code runs for a few instructions after entry before its SWAPGS (and
 * before returning, after it), so the one in the kernel half is taken
 * where only one is: a kernel's per-CPU area is there, a user thread's
 * GS base is not.
 */
static uint64_t hvm_kernel_gs(const struct hvm_hw_cpu *cpu, bool kernel_mode)
{
    uint64_t first = kernel_mode ? cpu->gs_base : cpu->shadow_gs;
    uint64_t other = kernel_mode ? cpu->shadow_gs : cpu->gs_base;

    if ((int64_t)first >= 0 && (int64_t)other < 0)
        return other;
    return first;
}

void xu_x86_hvm_regs(const struct hvm_hw_cpu *cpu, struct xu_vcpu_regs *out)
{
    memset(out, 0, sizeof(*out));
    out->online = true;
    out->mmu.paging = xu_x86_paging_mode(cpu->cr0, cpu->cr4, cpu->msr_efer);
    /* Xen saves the CPL as SS.DPL (SVM keeps it there; VMX agrees with it). */
    out->kernel_mode = ARBYTES_DPL(cpu->ss_arbytes) == 0;
    out->code_sel = (uint16_t)cpu->cs_sel;
    /*
     * Outside long mode the IP is reported (as a one-frame stack) as the
     * linear address a symbol table or a disassembly uses: the code
     * segment's base plus the 32-bit offset (in real mode the base is the
     * selector times 16: c000:0100 is 0xc0100).  In long mode the base is
     * ignored by the CPU and RIP is the address.
     */
    if (cpu->msr_efer & X86_EFER_LMA_BIT)
        out->ip = cpu->rip;
    else
        out->ip = (cpu->cs_base + (cpu->rip & 0xffffffffULL)) & 0xffffffffULL;
    out->sp = cpu->rsp;
    out->fp = cpu->rbp;
    if (!(cpu->msr_efer & X86_EFER_LMA_BIT)) {
        /* Outside long mode only the low halves are the registers; the
         * upper ones keep what a 64-bit past left there.  The stack and
         * data segments are taken to be flat (base 0), as every 32-bit
         * kernel we profile sets them; CR4 goes with the tables, its PSE
         * deciding whether a two-level directory maps 4 MiB pages. */
        out->sp &= 0xffffffffULL;
        out->fp &= 0xffffffffULL;
        out->mmu.ctl = cpu->cr4;
    }
    out->rflags = cpu->rflags;
    out->mmu.root = xu_x86_cr3_root(cpu->cr3, out->mmu.paging);
    out->cr0 = cpu->cr0;
    out->cr4 = cpu->cr4;
    out->efer = cpu->msr_efer;
    out->syscall_entry = cpu->msr_lstar;
    out->idt_base = cpu->idtr_base;
    if (cpu->msr_efer & X86_EFER_LMA_BIT)
        out->kernel_percpu = hvm_kernel_gs(cpu, out->kernel_mode);
}
