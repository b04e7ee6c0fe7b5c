/* SPDX-License-Identifier: GPL-2.0-only */
/* test_x86_context.c - Xen's PV and HVM vCPU structures -> xu_vcpu_regs. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "arch/x86_64/context.h"

#define CR0_PE   (1ULL << 0)
#define CR0_PG   (1ULL << 31)
#define CR4_PAE  (1ULL << 5)
#define CR4_LA57 (1ULL << 12)
#define EFER_LME (1ULL << 8)
#define EFER_LMA (1ULL << 10)
/* Xen's packed attributes of a present, writable data segment at a DPL */
#define SS_AR(dpl) (0x93u | ((unsigned int)(dpl) << 5))

static vcpu_guest_context_x86_64_t pv64;
static vcpu_guest_context_x86_32_t pv32;
static struct hvm_hw_cpu hvm;

static int reset(void **state)
{
    memset(&pv64, 0, sizeof(pv64));
    memset(&pv32, 0, sizeof(pv32));
    memset(&hvm, 0, sizeof(hvm));
    return 0;
}

static void test_pv64_kernel_uses_kernel_table(void **state)
{
    struct xu_vcpu_regs r;

    pv64.flags = VGCF_online | VGCF_in_kernel;
    pv64.user_regs.rip = 0xffffffff80002144ULL;
    pv64.user_regs.rsp = 0xffffffff80006f78ULL;
    pv64.user_regs.rbp = 0xffffffff80006f88ULL;
    pv64.ctrlreg[3] = xen_pfn_to_cr3_x86_64(0x7f01bULL);
    pv64.ctrlreg[1] = xen_pfn_to_cr3_x86_64(0x12345ULL);
    pv64.ctrlreg[0] = 0x80050033;
    pv64.ctrlreg[4] = 0x660;
    memset(&r, 0xa5, sizeof(r));
    xu_x86_pv_regs(&pv64, XU_X86_WIDTH_64, &r);
    assert_true(r.online);
    assert_true(r.kernel_mode);
    assert_int_equal(r.mmu.paging, XU_PAGING_LONG4);
    assert_int_equal(r.ip, 0xffffffff80002144ULL);
    assert_int_equal(r.sp, 0xffffffff80006f78ULL);
    assert_int_equal(r.fp, 0xffffffff80006f88ULL);
    assert_int_equal(r.mmu.root, 0x7f01b000ULL);
    assert_int_equal(r.mmu.root_hi, 0);                /* one table in kernel mode */
    assert_int_equal(r.cr0, 0x80050033);
    assert_int_equal(r.cr4, 0x660);
    assert_int_equal(r.efer, 0);
}

static void test_pv64_user_uses_user_table(void **state)
{
    struct xu_vcpu_regs r;

    pv64.flags = VGCF_online;
    pv64.user_regs.rip = 0x400000;
    pv64.ctrlreg[3] = xen_pfn_to_cr3_x86_64(0x7f01bULL);
    pv64.ctrlreg[1] = xen_pfn_to_cr3_x86_64(0x12345ULL);
    xu_x86_pv_regs(&pv64, XU_X86_WIDTH_64, &r);
    assert_true(r.online);
    assert_false(r.kernel_mode);
    assert_int_equal(r.mmu.root, 0x12345000ULL);
    assert_int_equal(r.mmu.root_hi, 0x7f01b000ULL);    /* the kernel half's */
    assert_int_equal(r.ip, 0x400000);
}

static void test_pv64_user_without_user_table(void **state)
{
    struct xu_vcpu_regs r;

    pv64.flags = VGCF_online;
    pv64.ctrlreg[3] = xen_pfn_to_cr3_x86_64(0x7f01bULL);
    xu_x86_pv_regs(&pv64, XU_X86_WIDTH_64, &r);
    assert_int_equal(r.mmu.root, 0x7f01b000ULL);
    assert_int_equal(r.mmu.root_hi, 0);
}

static void test_pv64_frame_above_4g(void **state)
{
    struct xu_vcpu_regs r;

    /* machine frames above 4 GiB must not be truncated */
    pv64.flags = VGCF_online | VGCF_in_kernel;
    pv64.ctrlreg[3] = xen_pfn_to_cr3_x86_64(0x123456789ULL);
    xu_x86_pv_regs(&pv64, XU_X86_WIDTH_64, &r);
    assert_int_equal(r.mmu.root, 0x123456789000ULL);
}

static void test_pv64_offline_gives_nothing(void **state)
{
    struct xu_vcpu_regs r;

    pv64.flags = VGCF_in_kernel;        /* no VGCF_online */
    pv64.user_regs.rip = 0xffffffff80002144ULL;
    pv64.ctrlreg[3] = xen_pfn_to_cr3_x86_64(0x7f01bULL);
    memset(&r, 0xa5, sizeof(r));
    xu_x86_pv_regs(&pv64, XU_X86_WIDTH_64, &r);
    assert_false(r.online);
    assert_int_equal(r.ip, 0);
    assert_int_equal(r.mmu.root, 0);
}

static void test_pv32_layout_and_pae(void **state)
{
    struct xu_vcpu_regs r;

    pv32.flags = VGCF_online;
    pv32.user_regs.eip = 0xc0101234;
    pv32.user_regs.esp = 0xc0200000;
    pv32.user_regs.ebp = 0xc0200010;
    pv32.user_regs.cs = 0xe019;         /* ring 1: a 32-bit PV kernel */
    pv32.ctrlreg[3] = xen_pfn_to_cr3_x86_32(0x1234567u);   /* folded above 2^20 */
    xu_x86_pv_regs(&pv32, XU_X86_WIDTH_32, &r);
    assert_true(r.online);
    assert_true(r.kernel_mode);
    assert_int_equal(r.mmu.paging, XU_PAGING_PAE);
    assert_int_equal(r.ip, 0xc0101234);
    assert_int_equal(r.sp, 0xc0200000);
    assert_int_equal(r.fp, 0xc0200010);
    assert_int_equal(r.mmu.root, 0x1234567000ULL);
    /* its PDPT is a long-mode L3 under Xen's compat layer */
    assert_int_equal(r.mmu.ctl, XU_X86_32_CTL_PV_L3);
    assert_int_equal(r.code_sel, 0xe019);

    pv32.user_regs.cs = 0x0073;         /* ring 3 */
    xu_x86_pv_regs(&pv32, XU_X86_WIDTH_32, &r);
    assert_false(r.kernel_mode);
}

static void test_hvm_long_mode(void **state)
{
    struct xu_vcpu_regs r;

    hvm.rip = 0x100105;
    hvm.rsp = 0x107f60;
    hvm.rbp = 0x107f70;
    hvm.cr0 = CR0_PG | CR0_PE | 0x10;
    hvm.cr4 = CR4_PAE;
    hvm.msr_efer = EFER_LME | EFER_LMA;
    hvm.cr3 = 0x101000 | 0x18;          /* PWT|PCD must not reach the root */
    hvm.ss_arbytes = SS_AR(0);
    xu_x86_hvm_regs(&hvm, &r);
    assert_true(r.online);
    assert_true(r.kernel_mode);
    assert_int_equal(r.mmu.paging, XU_PAGING_LONG4);
    assert_int_equal(r.ip, 0x100105);
    assert_int_equal(r.sp, 0x107f60);
    assert_int_equal(r.fp, 0x107f70);
    assert_int_equal(r.mmu.root, 0x101000);
    assert_int_equal(r.cr0, CR0_PG | CR0_PE | 0x10);
    assert_int_equal(r.cr4, CR4_PAE);
    assert_int_equal(r.efer, EFER_LME | EFER_LMA);
}

static void test_hvm_pcid_and_la57(void **state)
{
    struct xu_vcpu_regs r;

    hvm.cr0 = CR0_PG | CR0_PE;
    hvm.cr4 = CR4_PAE | CR4_LA57;
    hvm.msr_efer = EFER_LME | EFER_LMA;
    hvm.cr3 = 0x000ffffffffff000ULL | 0xabc;    /* PCID in the low bits */
    xu_x86_hvm_regs(&hvm, &r);
    assert_int_equal(r.mmu.paging, XU_PAGING_LONG5);
    assert_int_equal(r.mmu.root, 0x000ffffffffff000ULL);
}

static void test_hvm_user_mode_from_cpl(void **state)
{
    struct xu_vcpu_regs r;

    hvm.cr0 = CR0_PG | CR0_PE;
    hvm.cr4 = CR4_PAE;
    hvm.msr_efer = EFER_LME | EFER_LMA;
    hvm.ss_arbytes = SS_AR(3);
    xu_x86_hvm_regs(&hvm, &r);
    assert_false(r.kernel_mode);
}

static void test_hvm_not_in_long_mode_keeps_ip(void **state)
{
    struct xu_vcpu_regs r;

    /* real mode, as SeaBIOS runs: no paging, but the IP is still there */
    hvm.rip = 0xfff0;
    hvm.cr0 = 0x10;
    hvm.cr3 = 0x5000;
    xu_x86_hvm_regs(&hvm, &r);
    assert_true(r.online);
    assert_int_equal(r.mmu.paging, XU_PAGING_NONE);
    assert_int_equal(r.ip, 0xfff0);
    assert_int_equal(r.mmu.root, 0);
    /* an option ROM at c000:0100 runs at linear 0xc0100 */
    hvm.cs_sel = 0xc000;
    hvm.cs_base = 0xc0000;
    hvm.rip = 0x100;
    xu_x86_hvm_regs(&hvm, &r);
    assert_int_equal(r.ip, 0xc0100);
    /* 32-bit protected mode with a based code segment */
    hvm.cr0 = CR0_PE;
    hvm.cs_base = 0x10000;
    hvm.rip = 0xffffffff00000234ULL;    /* upper half: not part of EIP */
    xu_x86_hvm_regs(&hvm, &r);
    assert_int_equal(r.ip, 0x10234);
    hvm.cs_sel = 0;
    hvm.cs_base = 0;
    hvm.rip = 0xfff0;

    /* 32-bit protected mode with paging, and PAE */
    hvm.cr0 = CR0_PG | CR0_PE;
    hvm.cr3 = 0x12345678;
    xu_x86_hvm_regs(&hvm, &r);
    assert_int_equal(r.mmu.paging, XU_PAGING_32);
    assert_int_equal(r.mmu.root, 0x12345000);
    hvm.cr4 = CR4_PAE;
    xu_x86_hvm_regs(&hvm, &r);
    assert_int_equal(r.mmu.paging, XU_PAGING_PAE);
    assert_int_equal(r.mmu.root, 0x12345660);
}

static void test_cr3_root_masks(void **state)
{
    assert_int_equal(xu_x86_cr3_root(0xfff0000000001fffULL, XU_PAGING_LONG4), 0x1000);
    assert_int_equal(xu_x86_cr3_root(0xffffffffffffffffULL, XU_PAGING_PAE), 0xffffffe0ULL);
    assert_int_equal(xu_x86_cr3_root(0xffffffffffffffffULL, XU_PAGING_32), 0xfffff000ULL);
    assert_int_equal(xu_x86_cr3_root(0x1000, XU_PAGING_NONE), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_pv64_kernel_uses_kernel_table, reset),
        cmocka_unit_test_setup(test_pv64_user_uses_user_table, reset),
        cmocka_unit_test_setup(test_pv64_user_without_user_table, reset),
        cmocka_unit_test_setup(test_pv64_frame_above_4g, reset),
        cmocka_unit_test_setup(test_pv64_offline_gives_nothing, reset),
        cmocka_unit_test_setup(test_pv32_layout_and_pae, reset),
        cmocka_unit_test_setup(test_hvm_long_mode, reset),
        cmocka_unit_test_setup(test_hvm_pcid_and_la57, reset),
        cmocka_unit_test_setup(test_hvm_user_mode_from_cpl, reset),
        cmocka_unit_test_setup(test_hvm_not_in_long_mode_keeps_ip, reset),
        cmocka_unit_test(test_cr3_root_masks),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
