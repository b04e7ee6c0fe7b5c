/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xen.c - AArch32 vCPUs as Xen arm64 keeps them: through
 * XEN_DOMCTL_getvcpucontext, as for AArch64 guests (no HVM records, no
 * PV/HVM split); a vCPU never brought up has no context (ENODATA from the
 * backend) and is offline.  Built where arm64's xen.c is, whose
 * xu_arch_xen_native takes both functions below: xu_arm_guest_arch() says
 * whether a domain's kernel is AArch32 (walked with xu_arch_arm32) or
 * AArch64, and xu_arm_vcpu_regs() reads each vCPU by its own PSTATE, so
 * one reader serves both widths (xu_arm32_regs() decodes an AArch64 vCPU
 * exactly as xu_arm64_regs() does).  A vCPU whose width is not its
 * domain's (an AArch64 kernel's 32-bit task) is kept to its IP by the
 * domain architecture's stack_readable().
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "arch/xu_arch.h"
#include "context.h"

int xu_arm_vcpu_regs(const struct xu_xen_regs_io *io,
                     const struct xu_domain_info *info, unsigned int vcpu,
                     struct xu_vcpu_regs *out)
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

int xu_arm_guest_arch(const struct xu_xen_regs_io *io, const struct xu_domain_info *info,
                      const struct xu_arch_ops **out, const char **why)
{
    /* one context at a time: the backend's buffer is reused by each read */
    vcpu_guest_context_arm64_t c;
    const vcpu_guest_context_arm64_t *one[1] = { &c };
    enum xu_arm_width w = XU_ARM_WIDTH_UNKNOWN;
    unsigned int v, last = info->max_vcpu_id < XU_MAX_VCPUS ? info->max_vcpu_id : XU_MAX_VCPUS - 1;

    for (v = 0; v <= last; v++) {
        const void *buf;
        enum xu_arm_width this;
        int rc = io->vcpu_context(io->ctx, v, &buf);

        if (rc == -ENODATA)
            continue;
        if (rc < 0)
            return rc;
        memcpy(&c, buf, sizeof(c));
        this = xu_arm_domain_width(one, 1);
        /* a privileged or AArch64 vCPU decides; usr-mode evidence waits */
        if (this != XU_ARM_WIDTH_UNKNOWN &&
            xu_arm_width_from_cpsr(c.user_regs.cpsr) != XU_ARM_WIDTH_UNKNOWN) {
            w = this;
            break;
        }
        if (w != XU_ARM_WIDTH_64 && this != XU_ARM_WIDTH_UNKNOWN)
            w = this;
    }
    if (w == XU_ARM_WIDTH_UNKNOWN) {
        *why = "no vCPU of the domain is online: its architecture is not known";
        return -EOPNOTSUPP;
    }
    *out = w == XU_ARM_WIDTH_32 ? &xu_arch_arm32 : &xu_arch_arm64;
    return 0;
}
