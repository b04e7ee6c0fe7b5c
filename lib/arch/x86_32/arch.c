/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * arch.c - 32-bit x86 guests (protected mode: HVM/PVH vCPUs with paging
 * off, two-level or PAE paging, and 32-bit PV guests): frame rules and the
 * ops struct.
 *
 * With frame pointers every frame starts with "push %ebp; mov %esp,%ebp",
 * so the record at ebp is {caller's ebp, return address}, 4-byte words.
 * A call pushes its return address (no link register); the i386 DWARF
 * numbers are esp 4, ebp 5 and the return-address column 8 (eip).  The
 * machine code rules are the shared x86 ones at this width (arch/x86/).
 *
 * A vCPU the run reads with these rules must be in a 32-bit mode: one in
 * long mode (a guest that switched after the run chose its architecture)
 * or in real mode is not readable, and its sample keeps only its IP with
 * the walk's end "no paging" rather than a stack read with the wrong
 * word size.
 */
#include "config.h"

#include <elf.h>

#include "arch/xu_arch.h"
#include "arch/x86/code.h"
#include "pagewalk.h"

#define X86_CR0_PE (1ULL << 0)

static bool x86_32_stack_readable(const struct xu_vcpu_regs *regs)
{
    switch (regs->mmu.paging) {
    case XU_PAGING_32:
    case XU_PAGING_PAE:
        return true;
    case XU_PAGING_NONE:
        return (regs->cr0 & X86_CR0_PE) != 0;
    default:
        return false;
    }
}

/* The table address and the mode (a PDPT is 32-byte aligned, a two-level
 * directory 4 KiB: the low bits are free), so that the same root read in
 * the other mode is another space. */
static uint64_t x86_32_space_key(const struct xu_mmu *mmu)
{
    return (mmu->root & ~0x1fULL) | (uint64_t)mmu->paging;
}

static uint64_t x86_32_code_address(const struct xu_vcpu_regs *regs, uint64_t ra)
{
    (void)regs;
    return ra & 0xffffffffULL;
}

const struct xu_arch_ops xu_arch_x86_32 = {
    .name = "x86_32",
    .elf_machine = EM_386,
    .word_bytes = 4,
    .dwarf_sp = 4,
    .dwarf_fp = 5,
    .dwarf_ra = 8,
    .record_fp_off = 0,
    .record_ra_off = 4,
    .record_size = 8,
    .has_link_register = false,
    .hypercall_entry_size = 32,
    .hypercall_stub = xu_x86_hypercall_stub,
    .interrupt_frame_words = 3,
    .interrupt_frame = xu_x86_32_interrupt_frame,
    .frame_before = 1,
    .frame_after = 4,
    .frameless_words = xu_x86_32_frameless_words,
    .prologue_bytes = 512,
    .frameless_depth = xu_x86_32_frameless_depth,
    .framed_depth = xu_x86_32_framed_depth,
    .call_window = 8,
    .follows_call = xu_x86_follows_call,
    .stack_readable = x86_32_stack_readable,
    .translate = xu_x86_32_translate,
    .space_key = x86_32_space_key,
    .code_address = x86_32_code_address,
};
