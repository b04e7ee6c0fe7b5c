/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_arm64_xen.c - lib/arch/arm64/xen.c, the arm64 dom0's reading of a
 * vCPU through a backend's domctls, against a scripted backend, AArch32
 * guests' included (arch/arm32/xen.c, compiled in beside it).  Built on
 * any host: Makefile.am compiles xen.c into this test under another name,
 * so it never meets the host's own xu_arch_xen_native.
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
#include "arch/arm64/context.h"

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
    info.guest_width = 8;
    return xu_arch_xen_native.vcpu_regs(&io, &info, vcpu, out);
}

static void test_sizes(void **state)
{
    (void)state;
    assert_int_equal(xu_arch_xen_native.vcpu_context_size, sizeof(vcpu_guest_context_arm64_t));
    assert_int_equal(xu_arch_xen_native.hvm_record_size, 0);
}

/* One getvcpucontext per vCPU and nothing else: ARM has no HVM records. */
static void test_online_vcpu(void **state)
{
    struct script s;
    struct xu_vcpu_regs r;

    (void)state;
    memset(&s, 0, sizeof(s));
    s.ctx.flags = VGCF_online_ARM64;
    s.ctx.user_regs.cpsr = 0x3c5;
    s.ctx.user_regs.pc64 = 0xffff800008010000ULL;
    s.ctx.user_regs.sp_el1 = 0xffff800010003f00ULL;
    s.ctx.sctlr = 1;
    assert_int_equal(read_vcpu(&s, 3, &r), 0);
    assert_int_equal(s.calls, 1);
    assert_int_equal(s.other_calls, 0);
    assert_int_equal(s.last_vcpu, 3);
    assert_true(r.online);
    assert_true(r.kernel_mode);
    assert_int_equal(r.ip, 0xffff800008010000ULL);
    assert_int_equal(r.sp, 0xffff800010003f00ULL);
    assert_int_equal(r.mmu.paging, XU_PAGING_ARM64);
}

static int guest_arch(struct script *s, const struct xu_arch_ops **a, const char **why)
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
    info.type = XU_GUEST_HVM;
    info.guest_width = 8;
    *a = NULL;
    *why = NULL;
    return xu_arch_xen_native.guest_arch(&io, &info, a, why);
}

/* An AArch64 guest stays arm64. */
static void test_aarch64_domain(void **state)
{
    struct script s;
    const struct xu_arch_ops *a;
    const char *why;

    (void)state;
    memset(&s, 0, sizeof(s));
    s.ctx.flags = VGCF_online_ARM64;
    s.ctx.user_regs.cpsr = 0x3c5;
    assert_int_equal(guest_arch(&s, &a, &why), 0);
    assert_ptr_equal(a, &xu_arch_arm64);
}

/*
 * An AArch32 guest (a kernel in svc mode, Thumb state) is arm32, and its
 * vCPU is read with the banked r13/r14 of its mode, pc32 and the AArch32
 * translation registers; arm64's rules would not walk it.
 */
static void test_aarch32_domain(void **state)
{
    struct script s;
    struct xu_vcpu_regs r;
    const struct xu_arch_ops *a;
    const char *why;

    (void)state;
    memset(&s, 0, sizeof(s));
    s.ctx.flags = VGCF_online_ARM64;
    s.ctx.user_regs.cpsr = 0x1d3 | 0x20;        /* svc, Thumb */
    s.ctx.user_regs.pc64 = 0xc0108a42ULL;
    s.ctx.user_regs.sp_svc = 0xc1a01f38ULL;
    s.ctx.user_regs.lr_svc = 0xc0108b07ULL;
    s.ctx.user_regs.sp_usr = 0xbe800000ULL;
    s.ctx.user_regs.lr_usr = 0x00010401ULL;
    s.ctx.user_regs.r7_usr = 0xc1a01f40ULL;
    s.ctx.user_regs.r11_usr = 0x12345678ULL;
    s.ctx.sctlr = 0x10c5387d;                   /* M set, EE clear */
    s.ctx.ttbr0 = 0x8000406aULL;
    s.ctx.ttbr1 = 0x80004000ULL;
    s.ctx.ttbcr = 0x00000002ULL;                /* short descriptors, N = 2 */
    assert_int_equal(guest_arch(&s, &a, &why), 0);
    assert_ptr_equal(a, &xu_arch_arm32);

    assert_int_equal(read_vcpu(&s, 0, &r), 0);
    assert_true(r.online);
    assert_true(r.kernel_mode);
    assert_int_equal(r.ip, 0xc0108a42ULL);
    assert_int_equal(r.sp, 0xc1a01f38ULL);
    assert_int_equal(r.lr, 0xc0108b07ULL);
    assert_int_equal(r.r32[13], 0xc1a01f38ULL);
    assert_int_equal(r.r32[15], 0xc0108a42ULL);
    assert_int_equal(r.fp, 0xc1a01f40ULL);      /* r7: Thumb state */
    assert_int_equal(r.mmu.paging, XU_PAGING_ARM32);
    assert_int_equal(r.mmu.root, 0x8000406aULL);
    assert_int_equal(r.mmu.root_hi, 0x80004000ULL);
    assert_int_equal(r.mmu.ctl, 2);
    assert_true(xu_arch_arm32.stack_readable(&r));
    assert_false(xu_arch_arm64.stack_readable(&r));

    /* usr mode: usr's banked registers */
    s.ctx.user_regs.cpsr = 0x10;
    assert_int_equal(read_vcpu(&s, 0, &r), 0);
    assert_false(r.kernel_mode);
    assert_int_equal(r.sp, 0xbe800000ULL);
    assert_int_equal(r.lr, 0x00010401ULL);
    assert_int_equal(r.fp, 0x12345678ULL);      /* r11: ARM state */

    /* with the MMU off, still not arm64's to walk */
    s.ctx.sctlr = 0;
    assert_int_equal(read_vcpu(&s, 0, &r), 0);
    assert_int_equal(r.mmu.paging, XU_PAGING_NONE);
    assert_false(xu_arch_arm64.stack_readable(&r));
}

/* No vCPU online: the domain is not profiled, and the line says why. */
static void test_no_vcpu_online(void **state)
{
    struct script s;
    const struct xu_arch_ops *a;
    const char *why;

    (void)state;
    memset(&s, 0, sizeof(s));
    s.rc = -ENODATA;
    assert_int_equal(guest_arch(&s, &a, &why), -EOPNOTSUPP);
    assert_non_null(why);
}

/* A vCPU the guest never brought up has no context: offline, no error. */
static void test_enodata_is_offline(void **state)
{
    struct script s;
    struct xu_vcpu_regs r;

    (void)state;
    memset(&s, 0, sizeof(s));
    s.rc = -ENODATA;
    memset(&r, 0xa5, sizeof(r));
    assert_int_equal(read_vcpu(&s, 1, &r), 0);
    assert_false(r.online);
    assert_int_equal(r.ip, 0);
    assert_int_equal(s.other_calls, 0);
}

/* Xen's own word for a down vCPU: flags without VGCF_online. */
static void test_down_vcpu(void **state)
{
    struct script s;
    struct xu_vcpu_regs r;

    (void)state;
    memset(&s, 0, sizeof(s));
    s.ctx.user_regs.pc64 = 0x40080000;
    assert_int_equal(read_vcpu(&s, 0, &r), 0);
    assert_false(r.online);
}

/* Other errors were reported by the backend already: passed on as they are. */
static void test_errors_pass_through(void **state)
{
    struct script s;
    struct xu_vcpu_regs r;

    (void)state;
    memset(&s, 0, sizeof(s));
    s.rc = -ESRCH;
    assert_int_equal(read_vcpu(&s, 0, &r), -ESRCH);
    s.rc = -EPERM;
    assert_int_equal(read_vcpu(&s, 0, &r), -EPERM);
    assert_int_equal(s.other_calls, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sizes),
        cmocka_unit_test(test_online_vcpu),
        cmocka_unit_test(test_aarch64_domain),
        cmocka_unit_test(test_aarch32_domain),
        cmocka_unit_test(test_no_vcpu_online),
        cmocka_unit_test(test_enodata_is_offline),
        cmocka_unit_test(test_down_vcpu),
        cmocka_unit_test(test_errors_pass_through),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
