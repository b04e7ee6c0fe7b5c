/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * arch.c - AArch64 guests: frame rules and the ops struct.
 *
 * AAPCS64 frame records are {x29, x30}: a function with a frame stores the
 * caller's x29 and its own return address (x30) as a pair and points x29 at
 * it, so the record at fp is {caller's fp, return address}, 16 bytes.
 * A call (bl/blr) leaves the return address in x30, the link register, until
 * the callee stores it: a leaf may never store it at all.  DWARF numbers:
 * x29 29, x30 30 (the return-address column), sp 31.
 *
 * Return addresses may carry a pointer-authentication code (and a tag) in
 * the bits above the virtual-address size; bit 55 says which range the
 * address belongs to and is never part of the code, which is how XPACI
 * strips it.
 */
#include "config.h"

#include <elf.h>

#include "arch/xu_arch.h"
#include "pagewalk.h"
#include "util/xu_mix.h"
#include "util/xu_le.h"

#define ARM64_OA_BITS 48    /* what an address with the MMU off can be */

#define PSR_MODE_AARCH32 0x10u      /* PSTATE.M[4], as Xen saves it in cpsr */

static bool arm64_stack_readable(const struct xu_vcpu_regs *regs)
{
    /* An AArch32 vCPU (an AArch64 kernel's 32-bit task) is read with its
     * own registers (xu_arm32_regs()), MMU off included: not these rules'.
     * With the MMU off a virtual address is the guest-physical one:
     * walkable. */
    if (regs->cpsr & PSR_MODE_AARCH32)
        return false;
    return regs->mmu.paging == XU_PAGING_ARM64 || regs->mmu.paging == XU_PAGING_NONE;
}

/*
 * Translations depend on both tables and on TCR (sizes, granules), but not
 * on the ASIDs or CnP, which are dropped so that address spaces sharing
 * tables share cache entries.  A 64-bit mix of the three: two spaces would
 * have to collide in all 64 bits to share an entry within one sample.
 */
static uint64_t arm64_space_key(const struct xu_mmu *mmu)
{
    const uint64_t baddr = 0x0000fffffffffffeULL;

    if (mmu->paging != XU_PAGING_ARM64)
        return xu_mix64((uint64_t)mmu->paging);
    return xu_mix64(xu_mix64(xu_mix64(mmu->root & baddr) ^ (mmu->root_hi & baddr)) ^ mmu->ctl);
}

static uint64_t arm64_code_address(const struct xu_vcpu_regs *regs, uint64_t ra)
{
    unsigned int bits;
    uint64_t high;

    if (regs->mmu.paging != XU_PAGING_ARM64)
        return ra & ((1ULL << ARM64_OA_BITS) - 1);
    /* bit 55 survives signing: it says TTBR1 (all ones above) or TTBR0 (zeros) */
    bits = xu_arm64_va_bits(regs->mmu.ctl, (ra >> 55) & 1);
    high = ~((1ULL << bits) - 1);
    return (ra >> 55) & 1 ? ra | high : ra & ~high;
}

/*
 * A return address follows a branch with link: BL imm26, BLR Xn, or the
 * pointer-authenticating BLRAA/BLRAB(Z) (A64 instructions are 4 bytes,
 * little-endian).  No hypercall page and no hardware interrupt frame: a
 * guest issues HVC itself, and its exception entry saves registers in
 * software, so those hooks stay NULL.
 */
static bool arm64_follows_call(const uint8_t *before, size_t n)
{
    uint32_t insn;

    if (n < 4)
        return false;
    insn = (uint32_t)before[n - 4] | (uint32_t)before[n - 3] << 8 |
           (uint32_t)before[n - 2] << 16 | (uint32_t)before[n - 1] << 24;
    return (insn & 0xfc000000u) == 0x94000000u ||      /* BL */
           (insn & 0xfffffc1fu) == 0xd63f0000u ||      /* BLR */
           (insn & 0xfefff800u) == 0xd63f0800u;        /* BLRAA, BLRAAZ, BLRAB, BLRABZ */
}

/*
 * Between a function's start and offset upto: no "add x29, sp, #n" (mov
 * x29, sp: its frame record is made), no store of x30 (STP with x30 as
 * either register, STR x30: it is saved, wherever), and no branch with link
 * (x30 overwritten).  Then x30 still holds its return address: a leaf, or
 * a prologue not yet run.  Loads and stores are told apart only as far as
 * that needs: any store-pair or store of register 30 counts.
 */
static bool arm64_ra_in_link(const uint8_t *code, size_t len, size_t upto)
{
    size_t i, end = upto < len ? upto : len;

    if (upto > len)
        return false;           /* the part before the PC is not all known */
    for (i = 0; i + 4 <= end; i += 4) {
        uint32_t insn = xu_le32(code + i);

        if ((insn & 0xffc003ffu) == 0x910003fdu)        /* ADD x29, sp, #imm */
            return false;
        if ((insn & 0x7e400000u) == 0x28000000u &&      /* STP/STNP (any form) */
            ((insn & 0x1f) == 30 || ((insn >> 10) & 0x1f) == 30))
            return false;
        if ((insn & 0xffc0001fu) == 0xf900001eu ||      /* STR x30, [Xn, #imm] */
            (insn & 0xffe0001fu) == 0xf800001eu)        /* STR/STUR x30 (index, unscaled) */
            return false;
        if ((insn & 0xfc000000u) == 0x94000000u ||      /* BL */
            (insn & 0xfffffc1fu) == 0xd63f0000u ||      /* BLR */
            (insn & 0xfefff800u) == 0xd63f0800u)        /* BLRAA(Z), BLRAB(Z) */
            return false;
    }
    return true;
}

const struct xu_arch_ops xu_arch_arm64 = {
    .name = "arm64",
    .elf_machine = EM_AARCH64,
    .word_bytes = 8,
    .dwarf_sp = 31,
    .dwarf_fp = 29,
    .dwarf_ra = 30,
    .record_fp_off = 0,
    .record_ra_off = 8,
    .record_size = 16,
    .has_link_register = true,
    .prologue_bytes = 512,
    .ra_in_link = arm64_ra_in_link,
    .call_window = 4,
    .follows_call = arm64_follows_call,
    .stack_readable = arm64_stack_readable,
    .translate = xu_arm64_translate,
    .space_key = arm64_space_key,
    .code_address = arm64_code_address,
};
