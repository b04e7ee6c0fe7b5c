/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_arm64_context.c - Xen's arm64 vCPU context -> xu_vcpu_regs, with the
 * values real Xen 4.17 reports for a guest at entry (EL1h, MMU off) and
 * states a Linux guest runs in (EL1h/EL1t kernel, EL0 user, MMU on).
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "arch/arm64/context.h"

/* PSTATE as Xen saves it: NZCV, DAIF, M[4:0] */
#define CPSR_EL1H     0x200001c5ULL     /* as xenctx shows a spinning guest */
#define CPSR_EL1T     0x000003c4ULL
#define CPSR_EL0T     0x80000000ULL
#define CPSR_A32_USR  0x00000010ULL
#define CPSR_A32_SVC  0x000001d3ULL
#define SCTLR_ENTRY   0x00c50078ULL     /* M=0 */
#define SCTLR_LINUX   0x30d5199dULL     /* M=1, C, I, ... */

static vcpu_guest_context_arm64_t c;

static int reset(void **state)
{
    (void)state;
    memset(&c, 0, sizeof(c));
    c.flags = VGCF_online_ARM64;
    c.user_regs.pc64 = 0x400800d8ULL;
    c.user_regs.x30 = 0x400800c4ULL;
    c.user_regs.x29 = 0x40081110ULL;
    c.user_regs.sp_el1 = 0x40081110ULL;
    c.user_regs.sp_el0 = 0x0000ffffc0de0000ULL;
    c.sctlr = SCTLR_ENTRY;
    return 0;
}

/* What Xen 4.17 reports for a small guest spinning with the MMU off. */
static void test_el1h_mmu_off(void **state)
{
    struct xu_vcpu_regs r;

    (void)state;
    c.user_regs.cpsr = CPSR_EL1H;
    xu_arm64_regs(&c, &r);
    assert_true(r.online);
    assert_true(r.kernel_mode);
    assert_int_equal(r.ip, 0x400800d8ULL);
    assert_int_equal(r.lr, 0x400800c4ULL);
    assert_int_equal(r.fp, 0x40081110ULL);
    assert_int_equal(r.sp, 0x40081110ULL);         /* SP_EL1 */
    assert_int_equal(r.mmu.paging, XU_PAGING_NONE);
    assert_int_equal(r.mmu.root, 0);
    assert_int_equal(r.mmu.root_hi, 0);
    assert_int_equal(r.mmu.ctl, 0);
    assert_int_equal(r.cpsr, CPSR_EL1H);
    assert_int_equal(r.sctlr, SCTLR_ENTRY);
}

static void test_el1h_mmu_on(void **state)
{
    struct xu_vcpu_regs r;

    (void)state;
    c.user_regs.cpsr = CPSR_EL1H;
    c.user_regs.pc64 = 0xffff800008123456ULL;
    c.sctlr = SCTLR_LINUX;
    c.ttbr0 = 0x0001000041234000ULL;               /* ASID 1 */
    c.ttbr1 = 0x0000000040ab0001ULL;               /* CnP */
    c.ttbcr = 0x00000034b5193519ULL;
    xu_arm64_regs(&c, &r);
    assert_true(r.kernel_mode);
    assert_int_equal(r.ip, 0xffff800008123456ULL);
    assert_int_equal(r.mmu.paging, XU_PAGING_ARM64);
    /* raw: the walk drops ASIDs and CnP itself */
    assert_int_equal(r.mmu.root, 0x0001000041234000ULL);
    assert_int_equal(r.mmu.root_hi, 0x0000000040ab0001ULL);
    assert_int_equal(r.mmu.ctl, 0x00000034b5193519ULL);
    assert_int_equal(r.sctlr, SCTLR_LINUX);
}

/* EL1t: the kernel on SP_EL0 (SPSel = 0). */
static void test_el1t_uses_sp_el0(void **state)
{
    struct xu_vcpu_regs r;

    (void)state;
    c.user_regs.cpsr = CPSR_EL1T;
    xu_arm64_regs(&c, &r);
    assert_true(r.kernel_mode);
    assert_int_equal(r.sp, 0x0000ffffc0de0000ULL);
}

static void test_el0_is_user(void **state)
{
    struct xu_vcpu_regs r;

    (void)state;
    c.user_regs.cpsr = CPSR_EL0T;
    c.sctlr = SCTLR_LINUX;
    c.user_regs.pc64 = 0x0000aaaabbbb1000ULL;
    xu_arm64_regs(&c, &r);
    assert_true(r.online);
    assert_false(r.kernel_mode);
    assert_int_equal(r.sp, 0x0000ffffc0de0000ULL);
    assert_int_equal(r.ip, 0x0000aaaabbbb1000ULL);
    assert_int_equal(r.mmu.paging, XU_PAGING_ARM64);
}

static void test_offline(void **state)
{
    struct xu_vcpu_regs r;

    (void)state;
    c.flags = 0;
    c.user_regs.cpsr = CPSR_EL1H;
    memset(&r, 0xa5, sizeof(r));
    xu_arm64_regs(&c, &r);
    assert_false(r.online);
    assert_int_equal(r.ip, 0);
    assert_int_equal(r.sp, 0);
    assert_int_equal(r.mmu.paging, XU_PAGING_NONE);
}

/* An AArch32 vCPU: a translation regime the walk does not handle. */
static void test_aarch32(void **state)
{
    struct xu_vcpu_regs r;

    (void)state;
    c.user_regs.cpsr = CPSR_A32_USR;
    c.user_regs.pc64 = 0xdead000000008000ULL;
    c.sctlr = SCTLR_LINUX;
    xu_arm64_regs(&c, &r);
    assert_true(r.online);
    assert_false(r.kernel_mode);
    assert_int_equal(r.ip, 0x8000);
    assert_int_equal(r.mmu.paging, XU_PAGING_32);
    c.user_regs.cpsr = CPSR_A32_SVC;
    xu_arm64_regs(&c, &r);
    assert_true(r.kernel_mode);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_el1h_mmu_off, reset),
        cmocka_unit_test_setup(test_el1h_mmu_on, reset),
        cmocka_unit_test_setup(test_el1t_uses_sp_el0, reset),
        cmocka_unit_test_setup(test_el0_is_user, reset),
        cmocka_unit_test_setup(test_offline, reset),
        cmocka_unit_test_setup(test_aarch32, reset),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
