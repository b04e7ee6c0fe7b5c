// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel_context.c - the page tables a Linux guest's kernel data is read
 * through with the guest running (its module list, its image): one vCPU's,
 * taken in one short pause (see record_priv.h).
 */
#include "config.h"

#include <errno.h>

#include "record/record_priv.h"
#include "mem/xu_mem.h"
#include "target/xu_pause.h"

/* An online vCPU's registers, one in kernel mode if there is one (a PV
 * vCPU's user tables do not map the kernel), read in one short pause of
 * their own: only the page tables' root is wanted, which stays valid
 * after the pause. */
bool xu_record_kernel_context(struct xu_target *t, struct xu_pause *pause, unsigned int nvcpus,
                              struct xu_vcpu_regs *out)
{
    struct xu_vcpu_regs regs;
    bool have = false;
    unsigned int v;

    if (xu_pause_take(pause) < 0)
        return false;
    for (v = 0; v < nvcpus && v < XU_MAX_VCPUS; v++) {
        if (xu_target_vcpu_regs(t, v, &regs) < 0 || !regs.online)
            continue;
        if (!have || (regs.kernel_mode && !out->kernel_mode)) {
            *out = regs;
            have = true;
        }
        if (out->kernel_mode)
            break;
    }
    if (xu_pause_release(pause) < 0)
        return false;
    return have;
}

/* read through regs' page tables, or through the kernel's half of a
 * page-table-isolated pair when a user-mode vCPU's cannot reach it. */
int xu_record_read_through(struct xu_mem *m, struct xu_vcpu_regs *regs,
                           int (*read)(struct xu_mem *m, void *ctx), void *ctx)
{
    struct xu_vcpu_regs kernel;
    int rc;

    xu_mem_begin(m);
    xu_mem_set_context(m, regs);
    rc = read(m, ctx);
    if (rc == -ENOENT && xu_vcpu_kpti_kernel(regs, &kernel)) {
        *regs = kernel;
        xu_mem_begin(m);
        xu_mem_set_context(m, regs);
        rc = read(m, ctx);
    }
    return rc;
}
