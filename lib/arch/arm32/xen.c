/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xen.c - AArch32 vCPUs as Xen arm64 keeps them: through
 * XEN_DOMCTL_getvcpucontext, as for AArch64 guests (no HVM records, no
 * PV/HVM split); a vCPU never brought up has no context (ENODATA from the
 * backend) and is offline.  Built where arm64's xen.c is: a backend that
 * finds a domain's kernel AArch32 (xu_arm_domain_width()) reads it with
 * xu_arch_xen_arm32 and walks it with xu_arch_arm32.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "arch/xu_arch.h"
#include "context.h"

static int arm32_xen_vcpu_regs(const struct xu_xen_regs_io *io,
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
    xu_arm32_regs(ctx, out);
    return 0;
}

static void arm32_xen_first_read(const struct xu_domain_info *info, unsigned int vcpu,
                                 struct xu_xen_read *out)
{
    (void)info;
    memset(out, 0, sizeof(*out));
    out->kind = XU_XEN_READ_VCPU_CONTEXT;
    out->vcpu = vcpu;
}

const struct xu_arch_xen xu_arch_xen_arm32 = {
    .vcpu_context_size = sizeof(vcpu_guest_context_arm64_t),
    .hvm_record_size = 0,
    .vcpu_regs = arm32_xen_vcpu_regs,
    .first_read = arm32_xen_first_read,
};
