/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_arm64_xen.c - lib/arch/arm64/xen.c, the arm64 dom0's reading of a
 * vCPU through a backend's domctls, against a scripted backend.  Built on
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
        cmocka_unit_test(test_enodata_is_offline),
        cmocka_unit_test(test_down_vcpu),
        cmocka_unit_test(test_errors_pass_through),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
