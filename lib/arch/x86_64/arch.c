/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * arch.c - x86-64 guests: frame rules and the ops struct.
 *
 * With frame pointers every frame starts with "push %rbp; mov %rsp,%rbp",
 * so the record at rbp is {caller's rbp, return address}.  A call pushes
 * its return address, so there is no link register; DWARF numbers rsp 7,
 * rbp 6 and the return-address column 16.
 */
#include "config.h"

#include <elf.h>

#include "arch/xu_arch.h"
#include "arch/x86/code.h"
#include "pagewalk.h"
#include "util/xu_mix.h"

static bool x86_stack_readable(const struct xu_vcpu_regs *regs)
{
    return regs->mmu.paging == XU_PAGING_LONG4 || regs->mmu.paging == XU_PAGING_LONG5;
}

/*
 * The table, without PCID or flags.  A PV vCPU in user mode translates through
 * two tables: both go into the key, which then has its top bit set (a table
 * address alone never has), so that it can only meet another such pair, and
 * that only if the two collide in all other 63 bits.
 */
static uint64_t x86_space_key(const struct xu_mmu *mmu)
{
    const uint64_t table = 0x000ffffffffff000ULL;

    if (!mmu->root_hi)
        return mmu->root & table;
    return (1ULL << 63) | (xu_mix64((mmu->root & table) ^ xu_mix64(mmu->root_hi & table)) >> 1);
}

static uint64_t x86_code_address(const struct xu_vcpu_regs *regs, uint64_t ra)
{
    (void)regs;
    return ra;
}

const struct xu_arch_ops xu_arch_x86_64 = {
    .name = "x86_64",
    .elf_machine = EM_X86_64,
    .word_bytes = 8,
    .dwarf_sp = 7,
    .dwarf_fp = 6,
    .dwarf_ra = 16,
    .record_fp_off = 0,
    .record_ra_off = 8,
    .record_size = 16,
    .has_link_register = false,
    .hypercall_entry_size = 32,
    .hypercall_stub = xu_x86_hypercall_stub,
    .interrupt_frame_words = 5,
    .interrupt_frame = xu_x86_interrupt_frame,
    .frame_before = 1,
    .frame_after = 4,
    .frameless_words = xu_x86_frameless_words,
    .prologue_bytes = 512,
    .frameless_depth = xu_x86_frameless_depth,
    .call_window = 8,
    .follows_call = xu_x86_follows_call,
    .stack_readable = x86_stack_readable,
    .translate = xu_x86_translate,
    .space_key = x86_space_key,
    .code_address = x86_code_address,
};
