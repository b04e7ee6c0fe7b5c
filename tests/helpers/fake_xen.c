/* SPDX-License-Identifier: GPL-2.0-only */
/* fake_xen.c - a small model of the hypervisor's domctls (see fake_xen.h). */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fake_xen.h"
#include "arch/x86_64/context.h"

struct fake_xen fake_xen;
static uint8_t frames[FAKE_NR_FRAMES][XU_PAGE_SIZE] __attribute__((aligned(4096)));

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t m);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t m);
void *__wrap_realloc(void *p, size_t n);

void *__wrap_malloc(size_t n)
{
    fake_xen.allocs++;
    return __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t m)
{
    fake_xen.allocs++;
    return __real_calloc(n, m);
}

void *__wrap_realloc(void *p, size_t n)
{
    fake_xen.allocs++;
    return __real_realloc(p, n);
}

static void capture(void *ctx, enum xu_log_level level, const char *msg)
{
    (void)ctx;
    if (level >= XU_LOG_ERROR)
        fake_xen.nr_errors++;
    snprintf(fake_xen.last_msg, sizeof(fake_xen.last_msg), "%s", msg);
}

struct xu_log fake_xen_log = { .emit = capture, .min_level = XU_LOG_WARN };

void fake_xen_reset(void)
{
    unsigned int i;

    memset(&fake_xen, 0, sizeof(fake_xen));
    fake_xen.version = XEN_DOMCTL_INTERFACE_VERSION;
    fake_xen.xen_version = (4L << 16) | 99;    /* no real Xen: 4.99 */
    fake_xen.domid = FAKE_DOMID;
    fake_xen.address_size = 64;
    fake_xen.vcpu[0] = FAKE_VCPU_UP;
    fake_xen.vcpu[1] = FAKE_VCPU_NONE;
    fake_xen.vcpu[2] = FAKE_VCPU_DOWN;
    fake_xen.vcpu[3] = FAKE_VCPU_UP;
    for (i = 0; i < FAKE_NR_FRAMES; i++)
        memset(frames[i], (int)i, sizeof(frames[i]));
}

long fake_xen_version(void)
{
    return fake_xen.xen_version < 0 ? -ENOSYS : fake_xen.xen_version;
}

void *fake_xen_frame(uint64_t frame, int *err)
{
    if (frame >= FAKE_NR_FRAMES) {
        *err = EFAULT;
        return NULL;
    }
    *err = 0;
    return frames[frame];
}

int fake_xen_is_frame(const void *p)
{
    uintptr_t a = (uintptr_t)p, lo = (uintptr_t)frames[0];

    return a >= lo && a < (uintptr_t)frames[FAKE_NR_FRAMES] && (a - lo) % XU_PAGE_SIZE == 0;
}

static void fill_pv(unsigned int vcpu, void *out)
{
    if (fake_xen.address_size == 32) {
        vcpu_guest_context_x86_32_t *c = out;

        memset(c, 0, sizeof(*c));
        c->flags = VGCF_online;
        c->user_regs.eip = 0xc0100000u + vcpu;
        c->user_regs.cs = 0xe019;
        c->ctrlreg[3] = xen_pfn_to_cr3_x86_32(3u);
        return;
    }
    vcpu_guest_context_x86_64_t *c = out;

    memset(c, 0, sizeof(*c));
    c->flags = VGCF_in_kernel | (fake_xen.vcpu[vcpu] == FAKE_VCPU_UP ? VGCF_online : 0);
    c->user_regs.rip = 0xffffffff80002000ULL + vcpu;
    c->user_regs.rsp = 0xffffffff80006f00ULL;
    c->user_regs.rbp = 0xffffffff80006f10ULL;
    c->ctrlreg[3] = xen_pfn_to_cr3_x86_64(2);
}

static void fill_hvm(unsigned int vcpu, struct hvm_hw_cpu *cpu)
{
    memset(cpu, 0, sizeof(*cpu));
    cpu->rip = 0x100100 + vcpu;
    cpu->cr0 = 0x80000011;
    cpu->cr4 = 0x20;
    cpu->msr_efer = 0x500;
    cpu->cr3 = 0x101000;
    switch (fake_xen.hvm_mode) {
    case FAKE_HVM_LONG:
        break;
    case FAKE_HVM_PAE:
        cpu->msr_efer = 0;
        cpu->rsp = 0xdeadbeefc1000f00ULL;   /* a 64-bit past in the upper half */
        break;
    case FAKE_HVM_2LEVEL:
        cpu->msr_efer = 0;
        cpu->cr4 = 0x10;
        break;
    case FAKE_HVM_REAL:
        cpu->msr_efer = 0;
        cpu->cr0 = 0x10;
        cpu->cr4 = 0;
        break;
    }
}

static int getdomaininfo(struct xen_domctl *d)
{
    struct xen_domctl_getdomaininfo *di = &d->u.getdomaininfo;

    /* before Xen 4.18: the first domain at or above the one asked for */
    if (d->domain > fake_xen.domid)
        return -ESRCH;
    memset(di, 0, sizeof(*di));
    di->domain = (domid_t)fake_xen.domid;
    d->domain = (domid_t)fake_xen.domid;
    di->flags = fake_xen.flags | (fake_xen.pause_count ? XEN_DOMINF_paused : 0);
    di->max_vcpu_id = FAKE_NR_VCPUS - 1;
    di->nr_online_vcpus = 2;
    di->handle[0] = 0xab;
#ifdef HAVE_STRUCT_XEN_DOMCTL_GETDOMAININFO_ARCH_CONFIG
    di->arch_config.emulation_flags = fake_xen.emulation;
#endif
    return 0;
}

int fake_xen_domctl(struct xen_domctl *d)
{
    unsigned int vcpu;

    fake_xen.domctls++;
    /* Xen checks the interface version before anything else. */
    if (d->interface_version != fake_xen.version)
        return -EACCES;
    if (d->cmd == fake_xen.fail_cmd)
        return -fake_xen.fail_errno;
    if (d->cmd == XEN_DOMCTL_getdomaininfo)
        return getdomaininfo(d);
    if (d->domain != fake_xen.domid)
        return -ESRCH;
    switch (d->cmd) {
    case XEN_DOMCTL_pausedomain:
        fake_xen.pause_count++;
        return 0;
    case XEN_DOMCTL_unpausedomain:
        if (fake_xen.pause_count == 0)
            return -EINVAL;
        fake_xen.pause_count--;
        return 0;
    case XEN_DOMCTL_get_address_size:
        if (fake_xen.flags & XEN_DOMINF_hvm_guest)
            return -EINVAL;
        d->u.address_size.size = fake_xen.address_size;
        return 0;
    case XEN_DOMCTL_getvcpuinfo:
        vcpu = d->u.getvcpuinfo.vcpu;
        if (vcpu >= FAKE_NR_VCPUS)
            return -EINVAL;
        d->u.getvcpuinfo.online = fake_xen.vcpu[vcpu] == FAKE_VCPU_UP;
        /* an online vCPU of a running domain runs; of a paused one it
         * waits (runnable); its CPU time a fixed figure per vCPU */
        d->u.getvcpuinfo.running = d->u.getvcpuinfo.online && fake_xen.pause_count == 0;
        d->u.getvcpuinfo.blocked = 0;
        d->u.getvcpuinfo.cpu_time = d->u.getvcpuinfo.online ? 1000000ULL * (vcpu + 1) : 0;
        return 0;
    case XEN_DOMCTL_getvcpucontext:
        vcpu = d->u.vcpucontext.vcpu;
        assert_false(fake_xen.flags & XEN_DOMINF_hvm_guest);
        assert_true(fake_xen.pause_count > 0 || fake_xen.in_multicall);
        if (vcpu >= FAKE_NR_VCPUS)
            return -EINVAL;
        if (fake_xen.vcpu[vcpu] == FAKE_VCPU_NONE)
            return -ENODATA;
        fill_pv(vcpu, d->u.vcpucontext.ctxt.p);
        return 0;
    case XEN_DOMCTL_gethvmcontext_partial:
        assert_true(fake_xen.flags & XEN_DOMINF_hvm_guest);
        assert_int_equal(d->u.hvmcontext_partial.type, HVM_SAVE_CODE(CPU));
        vcpu = d->u.hvmcontext_partial.instance;
        if (vcpu >= FAKE_NR_VCPUS)
            return -ENOENT;
        if (fake_xen.vcpu[vcpu] != FAKE_VCPU_UP)
            return -ENODATA;
#ifdef HAVE_STRUCT_XEN_DOMCTL_HVMCONTEXT_PARTIAL_BUFSZ
        if (d->u.hvmcontext_partial.bufsz < sizeof(struct hvm_hw_cpu))
            return -ENOSPC;
#endif
        fill_hvm(vcpu, (struct hvm_hw_cpu *)d->u.hvmcontext_partial.buffer.p);
        return 0;
    }
    return -ENOSYS;
}
