/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_arm32_context.c - Xen arm64's vCPU context of an AArch32 vCPU ->
 * xu_vcpu_regs: the banked r13/r14 of each mode (usr, sys, svc, abt, und,
 * irq, fiq with its own r8-r12), ARM and Thumb state (r11 or r7 as the
 * frame pointer), the MMU registers; and the domain's width from PSTATE.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "arch/arm32/context.h"
#include "arch/arm32/pagewalk.h"

#define CPSR_USR 0x10u
#define CPSR_FIQ 0x11u
#define CPSR_IRQ 0x12u
#define CPSR_SVC 0x13u
#define CPSR_ABT 0x17u
#define CPSR_UND 0x1bu
#define CPSR_SYS 0x1fu
#define CPSR_T   0x20u
#define CPSR_A64_EL1H 0x3c5u

static vcpu_guest_context_arm64_t c;

/* Every register a distinct value: which one was read shows in the result. */
static int reset(void **state)
{
    (void)state;
    memset(&c, 0, sizeof(c));
    c.flags = VGCF_online_ARM64;
    c.user_regs.r0_usr = 0x100;  c.user_regs.r1_usr = 0x101;
    c.user_regs.r2_usr = 0x102;  c.user_regs.r3_usr = 0x103;
    c.user_regs.r4_usr = 0x104;  c.user_regs.r5_usr = 0x105;
    c.user_regs.r6_usr = 0x106;  c.user_regs.r7_usr = 0x107;
    c.user_regs.r8_usr = 0x108;  c.user_regs.r9_usr = 0x109;
    c.user_regs.r10_usr = 0x10a; c.user_regs.r11_usr = 0x10b;
    c.user_regs.r12_usr = 0x10c;
    c.user_regs.sp_usr = 0x7e000000; c.user_regs.lr_usr = 0x1000e;
    c.user_regs.sp_svc = 0xc1000000; c.user_regs.lr_svc = 0xc0008001;
    c.user_regs.sp_abt = 0xc2000000; c.user_regs.lr_abt = 0xc0008002;
    c.user_regs.sp_und = 0xc3000000; c.user_regs.lr_und = 0xc0008003;
    c.user_regs.sp_irq = 0xc4000000; c.user_regs.lr_irq = 0xc0008004;
    c.user_regs.sp_fiq = 0xc5000000; c.user_regs.lr_fiq = 0xc0008005;
    c.user_regs.r8_fiq = 0x208;  c.user_regs.r9_fiq = 0x209;
    c.user_regs.r10_fiq = 0x20a; c.user_regs.r11_fiq = 0x20b;
    c.user_regs.r12_fiq = 0x20c;
    /* the upper halves of the x registers are no part of an AArch32 value */
    c.user_regs.pc64 = 0xdead0000c0012344ULL;
    c.sctlr = 0x10c5387dULL;        /* M set, EE clear */
    c.ttbcr = 0x80000002ULL;        /* EAE, T0SZ 2 */
    c.ttbr0 = 0x0001000080004000ULL;
    c.ttbr1 = 0x80008000ULL;
    return 0;
}

static void check_mode(uint32_t mode, uint32_t sp, uint32_t lr, bool kernel)
{
    struct xu_vcpu_regs r;

    c.user_regs.cpsr = mode;
    xu_arm32_regs(&c, &r);
    assert_true(r.online);
    assert_int_equal(r.kernel_mode, kernel);
    assert_int_equal(r.sp, sp);
    assert_int_equal(r.lr, lr);
    assert_int_equal(r.r32[13], sp);
    assert_int_equal(r.r32[14], lr);
    assert_int_equal(r.ip, 0xc0012344u);
    assert_int_equal(r.r32[15], 0xc0012344u);
    assert_int_equal(r.r32[0], 0x100);
    assert_int_equal(r.r32[7], 0x107);
    assert_int_equal(r.cpsr, mode);
}

static void test_modes(void **state)
{
    (void)state;
    check_mode(CPSR_USR, 0x7e000000, 0x1000e, false);
    check_mode(CPSR_SYS, 0x7e000000, 0x1000e, true);
    check_mode(CPSR_SVC, 0xc1000000, 0xc0008001, true);
    check_mode(CPSR_ABT, 0xc2000000, 0xc0008002, true);
    check_mode(CPSR_UND, 0xc3000000, 0xc0008003, true);
    check_mode(CPSR_IRQ, 0xc4000000, 0xc0008004, true);
    check_mode(CPSR_FIQ, 0xc5000000, 0xc0008005, true);
}

/* FIQ banks r8-r12 as well; other modes share usr's. */
static void test_fiq_high_registers(void **state)
{
    struct xu_vcpu_regs r;

    (void)state;
    c.user_regs.cpsr = CPSR_FIQ;
    xu_arm32_regs(&c, &r);
    assert_int_equal(r.r32[8], 0x208);
    assert_int_equal(r.r32[12], 0x20c);
    assert_int_equal(r.fp, 0x20b);              /* ARM state: r11 of fiq */
    c.user_regs.cpsr = CPSR_SVC;
    xu_arm32_regs(&c, &r);
    assert_int_equal(r.r32[8], 0x108);
    assert_int_equal(r.fp, 0x10b);
}

static void test_thumb_state(void **state)
{
    struct xu_vcpu_regs r;

    (void)state;
    c.user_regs.cpsr = CPSR_SVC | CPSR_T;
    xu_arm32_regs(&c, &r);
    assert_int_equal(r.fp, 0x107);              /* Thumb-2's frame pointer is r7 */
    assert_int_equal(r.ip, 0xc0012344u);        /* pc32 has no Thumb bit */
    assert_int_equal(r.sp, 0xc1000000);
}

static void test_mmu(void **state)
{
    struct xu_vcpu_regs r;

    (void)state;
    c.user_regs.cpsr = CPSR_SVC;
    xu_arm32_regs(&c, &r);
    assert_int_equal(r.mmu.paging, XU_PAGING_ARM32);
    assert_int_equal(r.mmu.root, 0x0001000080004000ULL);
    assert_int_equal(r.mmu.root_hi, 0x80008000ULL);
    assert_int_equal(r.mmu.ctl, 0x80000002ULL);
    assert_int_equal(r.sctlr, 0x10c5387dULL);
    c.sctlr |= XU_ARM32_SCTLR_EE;
    xu_arm32_regs(&c, &r);
    assert_int_equal(r.mmu.ctl, 0x80000002ULL | XU_ARM32_CTL_BIG_ENDIAN);
    c.sctlr = 0x00c50078ULL;                    /* M clear */
    xu_arm32_regs(&c, &r);
    assert_int_equal(r.mmu.paging, XU_PAGING_NONE);
}

static void test_offline_and_aarch64(void **state)
{
    struct xu_vcpu_regs r;

    (void)state;
    c.flags = 0;
    c.user_regs.cpsr = CPSR_SVC;
    xu_arm32_regs(&c, &r);
    assert_false(r.online);
    assert_int_equal(r.ip, 0);
    /* an AArch64 vCPU is read as arm64 reads it */
    c.flags = VGCF_online_ARM64;
    c.user_regs.cpsr = CPSR_A64_EL1H;
    xu_arm32_regs(&c, &r);
    assert_true(r.online);
    assert_int_equal(r.ip, 0xdead0000c0012344ULL);
    assert_int_equal(r.r32[15], 0);
}

static void test_width(void **state)
{
    vcpu_guest_context_arm64_t a = c, b = c;
    const vcpu_guest_context_arm64_t *v[3] = { &a, NULL, &b };

    (void)state;
    assert_int_equal(xu_arm_width_from_cpsr(CPSR_A64_EL1H), XU_ARM_WIDTH_64);
    assert_int_equal(xu_arm_width_from_cpsr(0), XU_ARM_WIDTH_64);           /* EL0t */
    assert_int_equal(xu_arm_width_from_cpsr(CPSR_SVC), XU_ARM_WIDTH_32);
    assert_int_equal(xu_arm_width_from_cpsr(CPSR_IRQ | CPSR_T), XU_ARM_WIDTH_32);
    assert_int_equal(xu_arm_width_from_cpsr(CPSR_USR), XU_ARM_WIDTH_UNKNOWN);
    /* a domain: the first vCPU that tells */
    a.user_regs.cpsr = CPSR_USR;
    b.user_regs.cpsr = CPSR_SVC;
    assert_int_equal(xu_arm_domain_width(v, 3), XU_ARM_WIDTH_32);
    /* every vCPU in usr mode: TCR_EL1's high half, which AArch32 cannot set */
    b.user_regs.cpsr = CPSR_USR;
    a.ttbcr = b.ttbcr = 0x80000002ULL;
    assert_int_equal(xu_arm_domain_width(v, 3), XU_ARM_WIDTH_32);
    b.ttbcr = 0x00000025b5593519ULL;            /* an AArch64 Linux's: TBI0, IPS */
    assert_int_equal(xu_arm_domain_width(v, 3), XU_ARM_WIDTH_64);
    b.flags = 0;
    b.user_regs.cpsr = CPSR_A64_EL1H;           /* offline: not asked */
    assert_int_equal(xu_arm_domain_width(v, 3), XU_ARM_WIDTH_32);
    b.flags = VGCF_online_ARM64;
    assert_int_equal(xu_arm_domain_width(v, 3), XU_ARM_WIDTH_64);
    a.flags = b.flags = 0;
    assert_int_equal(xu_arm_domain_width(v, 3), XU_ARM_WIDTH_UNKNOWN);
    assert_int_equal(xu_arm_domain_width(NULL, 3), XU_ARM_WIDTH_UNKNOWN);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_modes, reset),
        cmocka_unit_test_setup(test_fiq_high_registers, reset),
        cmocka_unit_test_setup(test_thumb_state, reset),
        cmocka_unit_test_setup(test_mmu, reset),
        cmocka_unit_test_setup(test_offline_and_aarch64, reset),
        cmocka_unit_test_setup(test_width, reset),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
