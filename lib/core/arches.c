/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * arches.c - the guest architectures whose cores this build reads, each
 * with the decoder of its vCPU contexts from its arch/ folder.  arm64's is
 * plain C over Xen's foreign header and built on every host; x86's shares
 * the live backends' PV decoding, built on x86-64 hosts.
 */
#include "config.h"

#include <elf.h>

#include "core/core_priv.h"
#include "arch/arm64/context.h"
#ifdef __x86_64__
#include "arch/x86_64/context.h"
#endif

#ifdef __x86_64__
static void decode_x86_64(const void *context, bool hvm, struct xu_vcpu_regs *out)
{
    xu_x86_core_regs(context, hvm, out);
}
#endif

static void decode_arm64(const void *context, bool hvm, struct xu_vcpu_regs *out)
{
    (void)hvm;      /* every arm guest is auto-translated: one kind of context */
    xu_arm64_regs(context, out);
}

static const struct xu_core_arch core_arches[] = {
#ifdef __x86_64__
    { EM_X86_64, &xu_arch_x86_64, sizeof(vcpu_guest_context_x86_64_t), decode_x86_64 },
#endif
    { EM_AARCH64, &xu_arch_arm64, sizeof(vcpu_guest_context_arm64_t), decode_arm64 },
    /* What Xen's own arm toolstack writes: libxenguest's xc_core_arm.h
     * labels every arm core EM_ARM, and the lab's Xen 4.17 arm64 wrote one
     * so; in a 64-bit file (the only class read) its contexts are arm64's. */
    { EM_ARM, &xu_arch_arm64, sizeof(vcpu_guest_context_arm64_t), decode_arm64 },
};

const struct xu_core_arch *xu_core_arch_by_machine(unsigned int machine)
{
    size_t i;

    for (i = 0; i < sizeof(core_arches) / sizeof(core_arches[0]); i++)
        if (core_arches[i].machine == machine)
            return &core_arches[i];
    return NULL;
}

const char *xu_core_arch_names(void)
{
#ifdef __x86_64__
    return "x86_64 and arm64";
#else
    return "arm64";
#endif
}
