/* SPDX-License-Identifier: GPL-2.0-only */
/* pagewalk.h - the AArch64 stage-1 walk and TCR_EL1 fields (private to arch/arm64). */
#ifndef XU_ARM64_PAGEWALK_H
#define XU_ARM64_PAGEWALK_H

#include <stdbool.h>

#include "arch/xu_arch.h"

/* SCTLR_EL1.M: the stage-1 MMU is on. */
#define XU_ARM64_SCTLR_M (1ULL << 0)

enum xu_mem_fault xu_arm64_translate(const struct xu_mmu *mmu, uint64_t va,
                                     xu_arch_read_pte read_pte, void *ctx, uint64_t *frame);

/* Bits of virtual address of the upper (TTBR1, upper true) or lower (TTBR0)
 * range under tcr: 64 - TxSZ, clamped to the sizes the walk handles. */
unsigned int xu_arm64_va_bits(uint64_t tcr, bool upper);

#endif
