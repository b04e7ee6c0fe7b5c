/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_x86_64_code.c - the x86-64 machine code the unwinder recognises:
 * hypercall page stubs as Xen writes them, interrupt frames, and call
 * instructions before a return address.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "arch/xu_arch.h"

static const struct xu_arch_ops *a = &xu_arch_x86_64;

/* Xen's 64-bit PV entry: push %rcx; push %r11; mov $nr,%eax; syscall;
 * pop %r11; pop %rcx; ret; int3 padding. */
static void pv_entry(uint8_t e[32], uint32_t nr)
{
    static const uint8_t head[] = { 0x51, 0x41, 0x53, 0xb8 };
    static const uint8_t tail[] = { 0x0f, 0x05, 0x41, 0x5b, 0x59, 0xc3 };

    memset(e, 0xcc, 32);
    memcpy(e, head, sizeof(head));
    memcpy(e + 4, &nr, 4);
    memcpy(e + 8, tail, sizeof(tail));
}

static void test_pv_stub_words_at_each_offset(void **state)
{
    /* offset -> words pushed above the return address */
    static const struct { unsigned int off, words; } want[] = {
        { 0, 0 }, { 1, 1 }, { 3, 2 }, { 8, 2 }, { 10, 2 }, { 12, 1 }, { 13, 0 },
    };
    uint8_t e[32];
    unsigned int i, words;

    (void)state;
    pv_entry(e, 29);            /* __HYPERVISOR_sched_op */
    for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
        words = 99;
        assert_int_equal(a->hypercall_stub(e, want[i].off, &words), 0);
        assert_int_equal(words, want[i].words);
    }
    /* inside an instruction, or past the ret: not a stopped vCPU's place */
    assert_int_equal(a->hypercall_stub(e, 2, &words), -1);
    assert_int_equal(a->hypercall_stub(e, 5, &words), -1);
    assert_int_equal(a->hypercall_stub(e, 20, &words), -1);
}

static void test_hvm_stub_pushes_nothing(void **state)
{
    /* mov $nr,%eax; vmcall; ret -- and the AMD form with vmmcall */
    uint8_t vmx[32] = { 0xb8, 29, 0, 0, 0, 0x0f, 0x01, 0xc1, 0xc3 };
    uint8_t svm[32] = { 0xb8, 29, 0, 0, 0, 0x0f, 0x01, 0xd9, 0xc3 };
    unsigned int words;

    (void)state;
    assert_int_equal(a->hypercall_stub(vmx, 0, &words), 0);
    assert_int_equal(words, 0);
    assert_int_equal(a->hypercall_stub(vmx, 8, &words), 0);
    assert_int_equal(words, 0);
    assert_int_equal(a->hypercall_stub(svm, 8, &words), 0);
    assert_int_equal(words, 0);
}

static void test_hostile_stub_is_refused(void **state)
{
    /* five pushes: more than any stub keeps; a pop of nothing */
    uint8_t pushes[32] = { 0x51, 0x51, 0x51, 0x51, 0x51, 0x51 };
    uint8_t pop_first[32] = { 0x59, 0xc3 };
    uint8_t zeros[32] = { 0 };
    unsigned int words;

    (void)state;
    assert_int_equal(a->hypercall_stub(pushes, 5, &words), -1);
    assert_int_equal(a->hypercall_stub(pop_first, 1, &words), -1);
    assert_int_equal(a->hypercall_stub(zeros, 4, &words), -1);
    assert_int_equal(a->hypercall_stub(zeros, 31, &words), -1);
}

static void test_interrupt_frame(void **state)
{
    uint64_t pc, sp;
    const uint64_t at = 0xffffc90000010000ULL;     /* where the frame was read */
    const uint64_t pv[5] = { 0xffffffff80001234ULL, 0xe033, 0x246, at + 48, 0xe02b };
    const uint64_t hw[5] = { 0x101234, 0x08, 0x202, at + 40, 0 };
    const uint64_t bad_flags[5] = { 0x101234, 0x08, 0x200, at + 40, 0 };     /* bit 1 clear */
    const uint64_t bad_cs[5] = { 0x101234, 0x123456, 0x202, at + 40, 0 };
    const uint64_t noncanon[5] = { 0x0000900000000000ULL, 0x08, 0x202, at + 40, 0 };
    /* a saved rsp the frame was not pushed under: stale words, not a frame */
    const uint64_t far_rsp[5] = { 0x101234, 0x08, 0x202, at + 56, 0 };
    const uint64_t low_rsp[5] = { 0x101234, 0x08, 0x202, at + 32, 0 };

    (void)state;
    assert_true(a->interrupt_frame(pv, at, 0, &pc, &sp));
    assert_int_equal(pc, pv[0]);
    assert_int_equal(sp, pv[3]);
    assert_true(a->interrupt_frame(hw, at, 0, &pc, &sp));
    assert_false(a->interrupt_frame(bad_flags, at, 0, &pc, &sp));
    assert_false(a->interrupt_frame(bad_cs, at, 0, &pc, &sp));
    assert_false(a->interrupt_frame(noncanon, at, 0, &pc, &sp));
    assert_false(a->interrupt_frame(far_rsp, at, 0, &pc, &sp));
    assert_false(a->interrupt_frame(low_rsp, at, 0, &pc, &sp));
    assert_false(a->interrupt_frame(hw, UINT64_MAX - 8, 0, &pc, &sp));
}

static void test_follows_call(void **state)
{
    const uint8_t rel32[8] = { 0x90, 0x90, 0x90, 0xe8, 0x10, 0x20, 0x30, 0x40 };
    const uint8_t reg[8] = { 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0xff, 0xd0 };     /* *%rax */
    const uint8_t rex[8] = { 0x90, 0x90, 0x90, 0x90, 0x90, 0x41, 0xff, 0xd3 };     /* *%r11 */
    const uint8_t riprel[8] = { 0x90, 0x90, 0xff, 0x15, 1, 2, 3, 4 };             /* *x(%rip) */
    const uint8_t disp8[8] = { 0x90, 0x90, 0x90, 0x90, 0x90, 0xff, 0x55, 0x08 };   /* *8(%rbp) */
    const uint8_t sib[8] = { 0x90, 0x90, 0x90, 0x90, 0x90, 0xff, 0x14, 0x24 };     /* *(%rsp) */
    const uint8_t jmp[8] = { 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0xff, 0xe0 };     /* jmp *%rax */
    const uint8_t data[8] = { 0x48, 0x89, 0x45, 0xf8, 0x48, 0x8b, 0x45, 0xf8 };
    const uint8_t int3[8] = { 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc };
    /* the file's call *x(%rip), whose running copy is call rel32 + nop */
    const uint8_t pv_patched[8] = { 0x90, 0x90, 0x90, 0xff, 0x15, 1, 2, 3 };
    const uint8_t not_call[8] = { 0x90, 0x90, 0x90, 0xff, 0x25, 1, 2, 3 };     /* jmp *x(%rip) */

    (void)state;
    assert_true(a->follows_call(rel32, 8));
    assert_true(a->follows_call(reg, 8));
    assert_true(a->follows_call(rex, 8));
    assert_true(a->follows_call(riprel, 8));
    assert_true(a->follows_call(disp8, 8));
    assert_true(a->follows_call(sib, 8));
    assert_false(a->follows_call(jmp, 8));
    assert_false(a->follows_call(data, 8));
    assert_false(a->follows_call(int3, 8));
    assert_false(a->follows_call(rel32 + 4, 4));    /* too short for a call rel32 */
    assert_true(a->follows_call(pv_patched, 8));
    assert_false(a->follows_call(not_call, 8));
}

/* The prologue of a function without a frame record, as far as it ran. */
static void test_frameless_depth(void **state)
{
    const struct xu_arch_ops *x86 = &xu_arch_x86_64;
    /* endbr64; push %r12; mov %rdi,%r12; push %rbx; sub $0x18,%rsp; body */
    static const uint8_t leaf[] = { 0xf3, 0x0f, 0x1e, 0xfa, 0x41, 0x54, 0x49, 0x89, 0xfc,
                                    0x53, 0x48, 0x83, 0xec, 0x18, 0x8b, 0x07, 0xcc, 0xcc };
    /* sub $0x1000,%rsp */
    static const uint8_t big[] = { 0x48, 0x81, 0xec, 0x00, 0x10, 0x00, 0x00, 0xcc };
    /* a shrink-wrapped frame: test; je; then push %rbp; mov %rsp,%rbp */
    static const uint8_t wrapped[] = { 0x85, 0xff, 0x74, 0x10, 0x55, 0x48, 0x89, 0xe5, 0xcc };
    /* gcc's schedule (Unikraft's ukplat_lcpu_halt_irq): push %rbp;
     * mov 0x3ec88(%rip),%rax; cmpb $0x0,0x1(%rax); mov %rsp,%rbp */
    static const uint8_t scheduled[] = { 0x55, 0x48, 0x8b, 0x05, 0x88, 0xec, 0x03, 0x00,
                                         0x80, 0x78, 0x01, 0x00, 0x48, 0x89, 0xe5, 0xcc };
    /* mov %rax,%rsp: a stack switch, nothing known */
    static const uint8_t switched[] = { 0x53, 0x48, 0x89, 0xc4, 0xcc };
    /* sub $0x14,%rsp: not whole words */
    static const uint8_t odd[] = { 0x48, 0x83, 0xec, 0x14, 0xcc };

    (void)state;
    assert_non_null(x86->frameless_depth);
    assert_int_equal(x86->frameless_depth(leaf, sizeof(leaf), 16), 2 + 3);
    assert_int_equal(x86->frameless_depth(leaf, sizeof(leaf), 6), 1);     /* after push %r12 */
    assert_int_equal(x86->frameless_depth(leaf, sizeof(leaf), 4), 0);     /* after endbr64 */
    assert_int_equal(x86->frameless_depth(big, sizeof(big), 7), 0x200);
    assert_int_equal(x86->frameless_depth(wrapped, sizeof(wrapped), 2), 0);
    assert_int_equal(x86->frameless_depth(wrapped, sizeof(wrapped), 8), -1);
    /* between a late push %rbp and its mov the push is not counted (the
     * body pushes nothing, as far as the reader knows): the word found
     * there then follows no call, and the caller refuses it */
    assert_int_equal(x86->frameless_depth(wrapped, sizeof(wrapped), 5), 0);
    assert_int_equal(x86->frameless_depth(switched, sizeof(switched), 4), -1);
    assert_int_equal(x86->frameless_depth(scheduled, sizeof(scheduled), 15), -1);
    assert_int_equal(x86->frameless_depth(scheduled, sizeof(scheduled), 1), 1);
    assert_int_equal(x86->frameless_depth(odd, sizeof(odd), 4), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pv_stub_words_at_each_offset),
        cmocka_unit_test(test_hvm_stub_pushes_nothing),
        cmocka_unit_test(test_hostile_stub_is_refused),
        cmocka_unit_test(test_interrupt_frame),
        cmocka_unit_test(test_follows_call),
        cmocka_unit_test(test_frameless_depth),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
