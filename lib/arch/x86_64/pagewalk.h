/* SPDX-License-Identifier: GPL-2.0-only */
/* pagewalk.h - the x86-64 page walk and paging modes (private to arch/x86_64). */
#ifndef XU_X86_PAGEWALK_H
#define XU_X86_PAGEWALK_H

#include "arch/xu_arch.h"

enum xu_mem_fault xu_x86_translate(const struct xu_mmu *mmu, uint64_t va,
                                   xu_arch_read_pte read_pte, void *ctx, uint64_t *frame);

/* The paging mode from control registers (HVM/PVH vCPUs). */
enum xu_paging_mode xu_x86_paging_mode(uint64_t cr0, uint64_t cr4, uint64_t efer);

#endif
