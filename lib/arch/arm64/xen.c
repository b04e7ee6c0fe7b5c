/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xen.c - arm64 vCPUs as Xen keeps them: every guest through
 * XEN_DOMCTL_getvcpucontext.  ARM has no HVM save records to read and no
 * PV/HVM split; a vCPU the guest never brought up has no context (ENODATA
 * from the backend) and is offline.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "arch/xu_arch.h"
#include "context.h"

static int arm64_xen_vcpu_regs(const struct xu_xen_regs_io *io,
                               const struct xu_domain_info *info,
                               unsigned int vcpu, struct xu_vcpu_regs *out)
{
    const void *ctx;
    int rc = io->vcpu_context(io->ctx, vcpu, &ctx);

    (void)info;
    if (rc == -ENODATA) {
        memset(out, 0, sizeof(*out));
        return 0;
    }
    if (rc < 0)
        return rc;
    xu_arm64_regs(ctx, out);
    return 0;
}

static void arm64_xen_first_read(const struct xu_domain_info *info, unsigned int vcpu,
                                 struct xu_xen_read *out)
{
    (void)info;
    memset(out, 0, sizeof(*out));
    out->kind = XU_XEN_READ_VCPU_CONTEXT;
    out->vcpu = vcpu;
}

/* Every guest of an arm64 Xen is read as AArch64 here. */
static int arm64_xen_guest_arch(const struct xu_xen_regs_io *io,
                                const struct xu_domain_info *info,
                                const struct xu_arch_ops **out, const char **why)
{
    (void)io;
    (void)info;
    (void)why;
    *out = &xu_arch_arm64;
    return 0;
}

const struct xu_arch_xen xu_arch_xen_native = {
    .vcpu_context_size = sizeof(vcpu_guest_context_arm64_t),
    .hvm_record_size = 0,
    .vcpu_regs = arm64_xen_vcpu_regs,
    .first_read = arm64_xen_first_read,
    .guest_arch = arm64_xen_guest_arch,
};
