/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fuzz_sim.h - a fuzz input's bytes as a simulated guest's memory, read
 * through lib/mem as a walk reads a guest's: for the harnesses of page
 * walks and unwinders.
 */
#ifndef XU_FUZZ_SIM_H
#define XU_FUZZ_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "arch/xu_arch.h"
#include "mem/xu_mem.h"

/*
 * Frame f of a simulated guest of architecture arch holds the input's bytes
 * from f * 4096 (the last one zero-padded), at most nr_frames of them;
 * fn(ctx, m) then runs with m set to the vCPU context r.  Nothing runs when
 * the guest cannot be built (out of memory).
 */
void xu_fuzz_on_sim(const struct xu_arch_ops *arch, unsigned int nr_frames,
                    const uint8_t *mem, size_t len, const struct xu_vcpu_regs *r,
                    void (*fn)(void *ctx, struct xu_mem *m), void *ctx);

#endif
