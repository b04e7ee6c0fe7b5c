/* SPDX-License-Identifier: GPL-2.0-only */
/* fuzz_sim.c - a fuzz input's bytes as a simulated guest's memory (fuzz_sim.h). */
#include "config.h"

#include <string.h>

#include "fuzz.h"
#include "fuzz_sim.h"
#include "xu_sim.h"

void xu_fuzz_on_sim(const struct xu_arch_ops *arch, unsigned int nr_frames,
                    const uint8_t *mem, size_t len, const struct xu_vcpu_regs *r,
                    void (*fn)(void *ctx, struct xu_mem *m), void *ctx)
{
    struct xu_sim *sim = xu_sim_new(XU_GUEST_HVM, nr_frames, 1);
    struct xu_target t;
    struct xu_mem *m;
    uint64_t f;

    if (!sim)
        return;
    xu_sim_set_arch(sim, arch);
    for (f = 0; f < nr_frames && f * XU_PAGE_SIZE < len; f++) {
        size_t n = len - f * XU_PAGE_SIZE < XU_PAGE_SIZE ? len - f * XU_PAGE_SIZE : XU_PAGE_SIZE;

        if (xu_sim_alloc_frame(sim) != f)
            goto out;
        memcpy(xu_sim_frame(sim, f), mem + f * XU_PAGE_SIZE, n);
    }
    if (xu_sim_target_open(sim, &t, xu_fuzz_log()) < 0)
        goto out;
    m = xu_mem_new(&t, NULL);
    if (m) {
        xu_mem_begin(m);
        xu_mem_set_context(m, r);
        fn(ctx, m);
        xu_mem_free(m);
    }
    xu_target_close(&t);
out:
    xu_sim_free(sim);
}
