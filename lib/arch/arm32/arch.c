/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * arch.c - AArch32 guests (ARMv7-A, and AArch32 EL1 on an ARMv8 Xen): frame
 * rules and the ops struct.
 *
 * Stack words are 4 bytes.  A call (BL/BLX) leaves the return address in
 * r14, the link register, until the callee stores it; a return address
 * into Thumb code has bit 0 set (the interworking bit BX/POP{pc} read),
 * which is no part of the address and is cleared here.
 *
 * DWARF numbers (AADWARF): r0..r15 are 0..15, so sp 13, lr 14, and the
 * frame pointer is r11 in ARM code but r7 in Thumb-2 code (both GCC and
 * clang keep r7 there so that it stays a low register); dwarf_fp says r11,
 * the ARM-state one, and frame.c tells a Thumb function's r7 record from
 * its prologue.  The three frame-record layouts compilers make, and how
 * this code tells them apart, are in frame.c; the ops below describe the
 * {fp, lr} record of clang (ARM and Thumb), the one the plain walk reads.
 *
 * No hypercall page (an ARM guest issues HVC itself) and no frame the
 * hardware pushes on an exception (AArch32 banks lr and spsr instead), so
 * those hooks stay NULL.
 */
#include "config.h"

#include <elf.h>

#include "arch/xu_arch.h"
#include "frame.h"
#include "pagewalk.h"
#include "util/xu_mix.h"

static bool arm32_stack_readable(const struct xu_vcpu_regs *regs)
{
    return regs->mmu.paging == XU_PAGING_ARM32 || regs->mmu.paging == XU_PAGING_NONE;
}

/*
 * Translations depend on the two TTBRs and on TTBCR (and the endianness
 * flag the decode adds), not on the ASID of an LPAE TTBR (bits 55:48),
 * which is dropped so that spaces sharing tables share cache entries.
 */
static uint64_t arm32_space_key(const struct xu_mmu *mmu)
{
    const uint64_t baddr = 0x000000ffffffffffULL;

    if (mmu->paging != XU_PAGING_ARM32)
        return xu_mix64((uint64_t)mmu->paging);
    return xu_mix64(xu_mix64(xu_mix64(mmu->root & baddr) ^ (mmu->root_hi & baddr)) ^ mmu->ctl);
}

/* Bit 0 of a stored return address says Thumb; the address is 32 bits. */
static uint64_t arm32_code_address(const struct xu_vcpu_regs *regs, uint64_t ra)
{
    (void)regs;
    return ra & 0xfffffffeULL;
}

static int arm32_frame_record(const uint8_t *code, size_t len, size_t upto, bool thumb,
                              struct xu_frame_record *out)
{
    struct xu_arm32_record r;

    if (xu_arm32_prologue_record(code, len, upto, thumb, &r) < 0)
        return -1;
    out->fp_off = r.fp_off;
    out->ra_off = r.ra_off;
    out->fp_reg = r.fp_reg;
    out->ra_in_link = r.layout == XU_ARM32_FP_LEAF;
    return 0;
}

const struct xu_arch_ops xu_arch_arm32 = {
    .name = "arm32",
    .elf_machine = EM_ARM,
    .word_bytes = 4,
    .dwarf_sp = 13,
    .dwarf_fp = 11,
    .dwarf_ra = 14,
    .record_fp_off = 0,
    .record_ra_off = 4,
    .record_size = 8,
    .has_link_register = true,
    .call_window = 4,
    .follows_call = xu_arm32_follows_call,
    .stack_readable = arm32_stack_readable,
    .translate = xu_arm32_translate,
    .space_key = arm32_space_key,
    .code_address = arm32_code_address,
    .prologue_bytes = XU_ARM32_PROLOGUE_BYTES,
    .frame_record = arm32_frame_record,
};
