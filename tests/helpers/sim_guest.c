/* SPDX-License-Identifier: GPL-2.0-only */
/* sim_guest.c - see sim_guest.h. */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "sim_guest.h"

#define DEFAULT_FRAMES (64 * (SIM_STACK_SPAN >> 12) + 256)

int sim_guest_init(struct sim_guest *g, enum xu_guest_type type, unsigned int nr_vcpus,
                   size_t nr_frames)
{
    memset(g, 0, sizeof(*g));
    g->sim = xu_sim_new(type, nr_frames ? nr_frames : DEFAULT_FRAMES, nr_vcpus);
    if (!g->sim)
        return -ENOMEM;
    g->root = xu_sim_new_root(g->sim);
    if (g->root == UINT64_MAX) {
        sim_guest_fini(g);
        return -ENOMEM;
    }
    return 0;
}

void sim_guest_fini(struct sim_guest *g)
{
    xu_sim_free(g->sim);
    g->sim = NULL;
}

static uint64_t stack_top(unsigned int stack_id)
{
    return SIM_STACK_BASE + (uint64_t)(stack_id + 1) * SIM_STACK_SPAN;
}

uint64_t sim_guest_frame_addr(unsigned int stack_id, unsigned int n, unsigned int k)
{
    /* record n-2 (outermost) sits highest, 64 bytes below the top */
    return stack_top(stack_id) - 64 - (uint64_t)(n - 2 - k) * SIM_FRAME_BYTES;
}

int sim_guest_chain(struct sim_guest *g, unsigned int stack_id, const uint64_t *pcs,
                    unsigned int n, struct xu_vcpu_regs *regs)
{
    unsigned int k;
    int rc;

    if (n == 0 || (uint64_t)n * SIM_FRAME_BYTES + 128 > SIM_STACK_SPAN)
        return -EINVAL;
    while (g->nr_stacks_mapped <= stack_id) {
        rc = xu_sim_map_range(g->sim, g->root,
                              SIM_STACK_BASE + (uint64_t)g->nr_stacks_mapped * SIM_STACK_SPAN,
                              SIM_STACK_SPAN);
        if (rc < 0)
            return rc;
        g->nr_stacks_mapped++;
    }

    memset(regs, 0, sizeof(*regs));
    regs->online = true;
    regs->kernel_mode = true;
    regs->mmu.paging = XU_PAGING_LONG4;
    regs->mmu.root = g->root;
    regs->ip = pcs[0];
    if (n == 1) {
        /* only the entry function: its caller left rbp = 0 */
        regs->fp = 0;
        regs->sp = stack_top(stack_id) - 64;
        return 0;
    }
    /* record k: [fp] = record k+1 (0 for the outermost), [fp+8] = pcs[k+1] */
    for (k = 0; k + 1 < n; k++) {
        uint64_t fp = sim_guest_frame_addr(stack_id, n, k);
        uint64_t caller = k + 2 < n ? sim_guest_frame_addr(stack_id, n, k + 1) : 0;

        rc = xu_sim_write_u64(g->sim, g->root, fp, caller);
        if (rc == 0)
            rc = xu_sim_write_u64(g->sim, g->root, fp + 8, pcs[k + 1]);
        if (rc < 0)
            return rc;
    }
    regs->fp = sim_guest_frame_addr(stack_id, n, 0);
    regs->sp = regs->fp - 32;
    return 0;
}
