/* SPDX-License-Identifier: GPL-2.0-only */
/* pagewalk.h - the AArch32 stage-1 walks and TTBCR fields (private to arch/arm32). */
#ifndef XU_ARM32_PAGEWALK_H
#define XU_ARM32_PAGEWALK_H

#include "arch/xu_arch.h"

/* SCTLR.M: the stage-1 MMU is on; SCTLR.EE: tables (and data) big-endian. */
#define XU_ARM32_SCTLR_M  (1ULL << 0)
#define XU_ARM32_SCTLR_EE (1ULL << 25)

/* TTBCR.EAE: long descriptors (LPAE) rather than short ones. */
#define XU_ARM32_TTBCR_EAE (1ULL << 31)
/* Not TTBCR's: set in xu_mmu.ctl by the context decode when SCTLR.EE says
 * the tables are big-endian, which the walk refuses (XU_MEM_UNSUPPORTED). */
#define XU_ARM32_CTL_BIG_ENDIAN (1ULL << 63)

enum xu_mem_fault xu_arm32_translate(const struct xu_mmu *mmu, uint64_t va,
                                     xu_arch_read_pte read_pte, void *ctx, uint64_t *frame);

#endif
