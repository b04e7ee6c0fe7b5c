/* SPDX-License-Identifier: GPL-2.0-only */
/* pagewalk.h - the 32-bit x86 page walks (private to arch/x86_32). */
#ifndef XU_X86_32_PAGEWALK_H
#define XU_X86_32_PAGEWALK_H

#include "arch/xu_arch.h"

/* CR4.PSE in xu_mmu.ctl: 4 MiB pages in two-level paging. */
#define XU_X86_32_CR4_PSE (1ULL << 4)

/*
 * Translate a 32-bit guest's va with paging off (identity), two-level
 * paging (mmu->ctl holds CR4, whose PSE allows 4 MiB pages) or PAE;
 * mmu->root is CR3's table address.  At most three entries are read.
 */
enum xu_mem_fault xu_x86_32_translate(const struct xu_mmu *mmu, uint64_t va,
                                      xu_arch_read_pte read_pte, void *ctx, uint64_t *frame);

#endif
