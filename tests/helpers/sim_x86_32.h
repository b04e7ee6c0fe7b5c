/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sim_x86_32.h - 32-bit x86 page tables in the simulated guest's memory.
 *
 * xu_sim_map() builds x86-64 tables; 32-bit tests build two-level or PAE
 * ones with this.  The entry arithmetic is written here independently of
 * lib/arch/x86_32, so the walker is checked against a second
 * implementation.  Levels: 3 the PAE PDPT, 2 the page directory, 1 the
 * page table.
 */
#ifndef SIM_X86_32_H
#define SIM_X86_32_H

#include <stdint.h>

#include "xu_sim.h"

#define SIM32_P   (1ULL << 0)
#define SIM32_RW  (1ULL << 1)
#define SIM32_PS  (1ULL << 7)
#define SIM32_CR0_PE (1ULL << 0)
#define SIM32_CR0_PG (1ULL << 31)
#define SIM32_CR4_PSE (1ULL << 4)
#define SIM32_CR4_PAE (1ULL << 5)

struct sim_x86_32 {
    struct xu_sim *sim;
    enum xu_paging_mode mode;       /* XU_PAGING_32 or XU_PAGING_PAE */
    uint64_t root;                  /* CR3: the directory, or the PDPT */
};

/* Empty tables of mode (XU_PAGING_32 or _PAE).  0, -ENOMEM or -EINVAL. */
int sim32_init(struct sim_x86_32 *g, struct xu_sim *sim, enum xu_paging_mode mode);

/* Map va -> pa with a 4 KiB page, or with a large one (4 MiB in two-level
 * paging, 2 MiB under PAE), making tables as needed.  0, -ENOMEM, -EINVAL. */
int sim32_map(struct sim_x86_32 *g, uint64_t va, uint64_t pa, int large);
/* Map [va, va + len) to fresh 4 KiB frames. */
int sim32_map_range(struct sim_x86_32 *g, uint64_t va, uint64_t len);
/* Overwrite the entry at level on the way to va (the tables down to it
 * must exist).  0 or -EINVAL. */
int sim32_set(struct sim_x86_32 *g, uint64_t va, int level, uint64_t e);
/* Copy into virtual memory mapped by 4 KiB pages.  0 or -EFAULT. */
int sim32_write(struct sim_x86_32 *g, uint64_t va, const void *buf, size_t len);
int sim32_write_u32(struct sim_x86_32 *g, uint64_t va, uint32_t v);

/* A vCPU in protected mode on these tables (CR4.PSE on in two-level). */
void sim32_regs(const struct sim_x86_32 *g, uint64_t ip, uint64_t sp, uint64_t fp,
                struct xu_vcpu_regs *out);

#endif
