/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sim_arm64.h - AArch64 stage-1 tables in the simulated guest's memory.
 *
 * xu_sim_map() builds x86-64 tables; arm64 tests build theirs with this,
 * for one translation range (a TTBR) of a given granule and VA size.  The
 * index arithmetic is written here independently of lib/arch/arm64, so the
 * walker is checked against a second implementation.
 */
#ifndef SIM_ARM64_H
#define SIM_ARM64_H

#include <stdint.h>

#include "xu_sim.h"

/* Descriptor bits: valid, table/page type, the access flag (set by Linux) */
#define SIM_A64_VALID  (1ULL << 0)
#define SIM_A64_TABLE  (1ULL << 1)
#define SIM_A64_PAGE   (1ULL << 1)
#define SIM_A64_AF     (1ULL << 10)

/* TCR_EL1 granule encodings */
#define SIM_A64_TG0_4K  0ULL
#define SIM_A64_TG0_64K 1ULL
#define SIM_A64_TG0_16K 2ULL
#define SIM_A64_TG1_16K 1ULL
#define SIM_A64_TG1_4K  2ULL
#define SIM_A64_TG1_64K 3ULL

struct sim_a64 {
    struct xu_sim *sim;
    unsigned int granule_shift;     /* 12, 14 or 16 */
    unsigned int va_bits;           /* 25..48 */
    uint64_t root;                  /* physical address of the start-level table */
};

/* A range with an empty start-level table.  0, or -ENOMEM. */
int sim_a64_init(struct sim_a64 *a, struct xu_sim *sim, unsigned int granule_shift,
                 unsigned int va_bits);

/* Physically contiguous, zeroed bytes aligned to their (power-of-two) size,
 * rounded up to 4 KiB; the physical address, or UINT64_MAX when full. */
uint64_t sim_a64_alloc(struct xu_sim *sim, uint64_t bytes);

/* Map va -> pa with a leaf at level (3: a page of the granule; 1 or 2: a
 * block), making tables as needed.  0, -ENOMEM or -EINVAL. */
int sim_a64_map(struct sim_a64 *a, uint64_t va, uint64_t pa, int level);

/* Map [va, va + len) to fresh granule-sized pages.  0 or -ENOMEM. */
int sim_a64_map_range(struct sim_a64 *a, uint64_t va, uint64_t len);

/* Overwrite the descriptor at level on the way to va; the tables down to
 * that level must exist.  0 or -EINVAL. */
int sim_a64_set(struct sim_a64 *a, uint64_t va, int level, uint64_t desc);

/* Copy into virtual memory mapped by pages of a (no blocks).  0 or -EFAULT. */
int sim_a64_write(struct sim_a64 *a, uint64_t va, const void *buf, size_t len);
int sim_a64_write_u64(struct sim_a64 *a, uint64_t va, uint64_t v);

/* TCR_EL1 for a lower and an upper range: granule shifts and VA sizes. */
uint64_t sim_a64_tcr(unsigned int g0, unsigned int va0, unsigned int g1, unsigned int va1);

#endif
