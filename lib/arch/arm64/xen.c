/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xen.c - arm64 vCPUs as Xen keeps them: every guest through
 * XEN_DOMCTL_getvcpucontext.  ARM has no HVM save records to read and no
 * PV/HVM split; a vCPU the guest never brought up has no context (ENODATA
 * from the backend) and is offline.  An arm64 Xen runs AArch32 guests too:
 * which width a domain's kernel has, and the reading of a vCPU of either
 * width, are arch/arm32/xen.c's (xu_arm_guest_arch(), xu_arm_vcpu_regs()).
 */
#include "config.h"

#include <string.h>

#include "arch/xu_arch.h"
#include "arch/arm32/context.h"

static void arm64_xen_first_read(const struct xu_domain_info *info, unsigned int vcpu,
                                 struct xu_xen_read *out)
{
    (void)info;
    memset(out, 0, sizeof(*out));
    out->kind = XU_XEN_READ_VCPU_CONTEXT;
    out->vcpu = vcpu;
}

const struct xu_arch_xen xu_arch_xen_native = {
    .vcpu_context_size = sizeof(vcpu_guest_context_arm64_t),
    .hvm_record_size = 0,
    .vcpu_regs = xu_arm_vcpu_regs,
    .first_read = arm64_xen_first_read,
    .guest_arch = xu_arm_guest_arch,
};
