/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_arm32_xen.c - lib/arch/arm32/xen.c, an arm64 dom0's reading of an
 * AArch32 vCPU through a backend's domctls, against a scripted backend.
 * Built on any host: Makefile.am compiles xen.c into this test (an arm64
 * build's library holds it too, but its copy is then never linked in).
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "arch/xu_arch.h"
#include "arch/arm32/context.h"

struct script {
    int rc;                         /* what getvcpucontext returns */
    vcpu_guest_context_arm64_t ctx;
    unsigned int calls, other_calls;
    unsigned int last_vcpu;
};

static int io_context(void *ctx, unsigned int vcpu, const void **buf)
{
    struct script *s = ctx;

    s->calls++;
    s->last_vcpu = vcpu;
    if (s->rc < 0)
        return s->rc;
    *buf = &s->ctx;
    return 0;
}

static int io_hvm(void *ctx, uint16_t type, uint16_t instance, const void **buf)
{
    struct script *s = ctx;

    (void)type;
    (void)instance;
    (void)buf;
    s->other_calls++;
    return -ENOSYS;
}

static int io_online(void *ctx, unsigned int vcpu, bool *online)
{
    struct script *s = ctx;

    (void)vcpu;
    (void)online;
    s->other_calls++;
    return -ENOSYS;
}

static int io_failed(void *ctx, const char *call, int err)
{
    struct script *s = ctx;

    (void)call;
    s->other_calls++;
    return -err;
}

static int read_vcpu(struct script *s, unsigned int vcpu, struct xu_vcpu_regs *out)
{
    struct xu_xen_regs_io io = {
        .ctx = s,
        .vcpu_context = io_context,
        .hvm_record = io_hvm,
        .vcpu_online = io_online,
        .failed = io_failed,
    };
    struct xu_domain_info info;

    memset(&info, 0, sizeof(info));
    info.type = XU_GUEST_HVM;      /* what Xen's flags say of every ARM guest */
    info.guest_width = 4;
    return xu_arm_vcpu_regs(&io, &info, vcpu, out);
}

/* One getvcpucontext per vCPU, decoded as AArch32: svc's banked sp and lr. */
static void test_online_vcpu(void **state)
{
    struct script s;
    struct xu_vcpu_regs r;

    (void)state;
    memset(&s, 0, sizeof(s));
    s.ctx.flags = VGCF_online_ARM64;
    s.ctx.user_regs.cpsr = 0x1d3;       /* svc, IRQs and FIQs masked, as Xen starts a 32-bit guest */
    s.ctx.user_regs.pc64 = 0xc0008000ULL;
    s.ctx.user_regs.sp_svc = 0xc0a00000ULL;
    s.ctx.user_regs.lr_svc = 0xc0008101ULL;
    s.ctx.user_regs.sp_usr = 0xbeef0000ULL;
    s.ctx.sctlr = 1;
    assert_int_equal(read_vcpu(&s, 2, &r), 0);
    assert_int_equal(s.calls, 1);
    assert_int_equal(s.other_calls, 0);
    assert_int_equal(s.last_vcpu, 2);
    assert_true(r.online);
    assert_true(r.kernel_mode);
    assert_int_equal(r.ip, 0xc0008000ULL);
    assert_int_equal(r.sp, 0xc0a00000ULL);
    assert_int_equal(r.lr, 0xc0008101ULL);
    assert_int_equal(r.mmu.paging, XU_PAGING_ARM32);
}

static void test_enodata_and_errors(void **state)
{
    struct script s;
    struct xu_vcpu_regs r;

    (void)state;
    memset(&s, 0, sizeof(s));
    s.rc = -ENODATA;
    memset(&r, 0xa5, sizeof(r));
    assert_int_equal(read_vcpu(&s, 1, &r), 0);
    assert_false(r.online);
    assert_int_equal(r.r32[13], 0);
    s.rc = -EPERM;
    assert_int_equal(read_vcpu(&s, 1, &r), -EPERM);
}

/* guest_arch: each vCPU's own context, some without one */
static vcpu_guest_context_arm64_t vcpus[3];
static int vcpu_rc[3];

static int io_vcpus(void *ctx, unsigned int vcpu, const void **buf)
{
    (void)ctx;
    if (vcpu >= 3)
        return -EINVAL;
    if (vcpu_rc[vcpu] < 0)
        return vcpu_rc[vcpu];
    *buf = &vcpus[vcpu];
    return 0;
}

static int guest_arch(const struct xu_arch_ops **a, const char **why)
{
    struct xu_xen_regs_io io = { .vcpu_context = io_vcpus, .failed = io_failed };
    struct xu_domain_info info;

    memset(&info, 0, sizeof(info));
    info.max_vcpu_id = 2;
    *a = NULL;
    *why = NULL;
    return xu_arm_guest_arch(&io, &info, a, why);
}

static void test_guest_arch(void **state)
{
    const struct xu_arch_ops *a;
    const char *why;
    unsigned int i;

    (void)state;
    memset(vcpus, 0, sizeof(vcpus));
    for (i = 0; i < 3; i++) {
        vcpus[i].flags = VGCF_online_ARM64;
        vcpu_rc[i] = 0;
    }
    /* vCPU 0 never brought up, 1 in AArch32 usr, 2 in svc: AArch32 */
    vcpu_rc[0] = -ENODATA;
    vcpus[1].user_regs.cpsr = 0x10;
    vcpus[2].user_regs.cpsr = 0x1d3;
    assert_int_equal(guest_arch(&a, &why), 0);
    assert_ptr_equal(a, &xu_arch_arm32);
    /* an AArch64 vCPU: arm64, whatever the usr-mode one's TCR says */
    vcpus[2].user_regs.cpsr = 0x3c5;
    assert_int_equal(guest_arch(&a, &why), 0);
    assert_ptr_equal(a, &xu_arch_arm64);
    /* only usr mode: an AArch64 kernel's TCR_EL1 high half says arm64 */
    vcpus[2].user_regs.cpsr = 0x10;
    vcpus[2].ttbcr = 0x0000002500000000ULL;
    assert_int_equal(guest_arch(&a, &why), 0);
    assert_ptr_equal(a, &xu_arch_arm64);
    vcpus[2].ttbcr = 0;
    assert_int_equal(guest_arch(&a, &why), 0);
    assert_ptr_equal(a, &xu_arch_arm32);
    /* none online: not known, said why (the contract's "not profiled") */
    vcpus[1].flags = vcpus[2].flags = 0;
    assert_int_equal(guest_arch(&a, &why), -EOPNOTSUPP);
    assert_non_null(why);
    /* a failed read is passed on */
    vcpu_rc[1] = -EPERM;
    assert_int_equal(guest_arch(&a, &why), -EPERM);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_online_vcpu),
        cmocka_unit_test(test_enodata_and_errors),
        cmocka_unit_test(test_guest_arch),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
