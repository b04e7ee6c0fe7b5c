/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xen.c - x86 vCPUs as Xen keeps them: PV vCPUs through
 * XEN_DOMCTL_getvcpucontext (in the guest's own layout, 64- or 32-bit),
 * PVH and HVM vCPUs through the CPU record of XEN_DOMCTL_gethvmcontext_partial.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "arch/xu_arch.h"
#include "context.h"

static int pv_regs(const struct xu_xen_regs_io *io, const struct xu_domain_info *info,
                   unsigned int vcpu, struct xu_vcpu_regs *out)
{
    const void *ctx;
    int rc = io->vcpu_context(io->ctx, vcpu, &ctx);

    if (rc == -ENODATA) {
        /* a vCPU the guest never brought up */
        memset(out, 0, sizeof(*out));
        return 0;
    }
    if (rc < 0)
        return rc;
    xu_x86_pv_regs(ctx, info->guest_width, out);
    return 0;
}

static int hvm_regs(const struct xu_xen_regs_io *io, unsigned int vcpu, struct xu_vcpu_regs *out)
{
    const void *cpu;
    bool online = true;
    int rc = io->hvm_record(io->ctx, HVM_SAVE_CODE(CPU), (uint16_t)vcpu, &cpu);

    /*
     * Xen saves no CPU record for a vCPU that is down.  Only then is the
     * extra hypercall made, so the common case stays one domctl per vCPU.
     */
    if (rc == -ENODATA) {
        rc = io->vcpu_online(io->ctx, vcpu, &online);
        if (rc < 0)
            return rc;
        if (!online) {
            memset(out, 0, sizeof(*out));
            return 0;
        }
        return io->failed(io->ctx, "XEN_DOMCTL_gethvmcontext_partial", ENODATA);
    }
    if (rc < 0)
        return rc;
    xu_x86_hvm_regs(cpu, out);
    return 0;
}

static int x86_xen_vcpu_regs(const struct xu_xen_regs_io *io, const struct xu_domain_info *info,
                             unsigned int vcpu, struct xu_vcpu_regs *out)
{
    if (info->type == XU_GUEST_PV)
        return pv_regs(io, info, vcpu, out);
    return hvm_regs(io, vcpu, out);
}

static void x86_xen_first_read(const struct xu_domain_info *info, unsigned int vcpu,
                               struct xu_xen_read *out)
{
    memset(out, 0, sizeof(*out));
    if (info->type == XU_GUEST_PV) {
        out->kind = XU_XEN_READ_VCPU_CONTEXT;
        out->vcpu = vcpu;
        return;
    }
    out->kind = XU_XEN_READ_HVM_RECORD;
    out->type = HVM_SAVE_CODE(CPU);
    out->instance = (uint16_t)vcpu;
}

#define X86_CR0_PE (1ULL << 0)
#define X86_EFER_LMA (1ULL << 10)

/*
 * The width of a PVH/HVM guest is its vCPUs' mode: long mode (EFER.LMA)
 * is x86_64, protected mode (CR0.PE) x86_32, and real mode is refused.
 * The first vCPU with a CPU record decides; one without (down, or never
 * up) is passed over, and a guest where none has one is read as 64-bit
 * (its vCPU reads then say what is wrong).
 */
static int hvm_guest_arch(const struct xu_xen_regs_io *io, const struct xu_domain_info *info,
                          const struct xu_arch_ops **out, const char **why)
{
    unsigned int v, last = info->max_vcpu_id < XU_MAX_VCPUS ? info->max_vcpu_id : XU_MAX_VCPUS - 1;
    const struct hvm_hw_cpu *cpu;
    const void *buf;
    int rc;

    *out = &xu_arch_x86_64;
    for (v = 0; v <= last; v++) {
        rc = io->hvm_record(io->ctx, HVM_SAVE_CODE(CPU), (uint16_t)v, &buf);
        if (rc == -ENODATA)
            continue;
        if (rc < 0)
            return rc;
        cpu = buf;
        if (cpu->msr_efer & X86_EFER_LMA)
            return 0;
        if (!(cpu->cr0 & X86_CR0_PE)) {
            *why = "its vCPU is in real mode (CR0.PE clear): only protected-mode and "
                   "long-mode guests are profiled (try again once it has booted)";
            return -EOPNOTSUPP;
        }
        *out = &xu_arch_x86_32;
        return 0;
    }
    return 0;
}

static int x86_xen_guest_arch(const struct xu_xen_regs_io *io, const struct xu_domain_info *info,
                              const struct xu_arch_ops **out, const char **why)
{
    if (info->type == XU_GUEST_PV) {
        /* XEN_DOMCTL_get_address_size: a 32-bit PV guest runs on Xen's
         * compat layer, in ring 1 on PAE tables */
        *out = info->guest_width == XU_X86_WIDTH_32 ? &xu_arch_x86_32 : &xu_arch_x86_64;
        return 0;
    }
    return hvm_guest_arch(io, info, out, why);
}

const struct xu_arch_xen xu_arch_xen_native = {
    .vcpu_context_size = XU_X86_PV_CONTEXT_SIZE,
    .hvm_record_size = sizeof(struct hvm_hw_cpu),
    .vcpu_regs = x86_xen_vcpu_regs,
    .first_read = x86_xen_first_read,
    .guest_arch = x86_xen_guest_arch,
};
