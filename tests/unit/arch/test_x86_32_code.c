/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_x86_32_code.c - the 32-bit x86 machine code the unwinder
 * recognises: hypercall stubs as Xen writes them for 32-bit PV and HVM
 * guests, the 3-word interrupt frame, prologues without REX prefixes, and
 * that the 64-bit rules are unchanged by the sharing.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "arch/xu_arch.h"

static const struct xu_arch_ops *a = &xu_arch_x86_32;

/* Xen's 32-bit PV entries: "mov $nr,%eax; int $0x82; ret", the iret one
 * "push %eax; mov $nr,%eax; int $0x82". */
static void test_pv32_stub(void **state)
{
    static const uint8_t e[32] = { 0xb8, 0x1d, 0, 0, 0, 0xcd, 0x82, 0xc3 };
    static const uint8_t iret[32] = { 0x50, 0xb8, 0x17, 0, 0, 0, 0xcd, 0x82 };
    unsigned int words = 99;

    (void)state;
    assert_int_equal(a->hypercall_stub(e, 0, &words), 0);
    assert_int_equal(words, 0);
    assert_int_equal(a->hypercall_stub(e, 7, &words), 0);   /* after int $0x82 */
    assert_int_equal(words, 0);
    assert_int_equal(a->hypercall_stub(e, 6, &words), -1);  /* inside it */
    assert_int_equal(a->hypercall_stub(iret, 8, &words), 0);
    assert_int_equal(words, 1);
    assert_int_equal(a->hypercall_stub(iret, 1, &words), 0);
    assert_int_equal(words, 1);
}

static void test_interrupt_frame(void **state)
{
    uint64_t w[3] = { 0xc0101234, 0x10, 0x246 }, pc = 0, sp = 0;

    (void)state;
    assert_int_equal(a->interrupt_frame_words, 3);
    assert_true(a->interrupt_frame(w, 0xc1000f00, 0, &pc, &sp));
    assert_int_equal(pc, 0xc0101234);
    assert_int_equal(sp, 0xc1000f0c);
    w[1] = 0xe019;                              /* a PV kernel's ring-1 selector */
    assert_true(a->interrupt_frame(w, 0xc1000f00, 0, &pc, &sp));
    w[1] = 0x73;                                /* ring 3: not the kernel's */
    assert_false(a->interrupt_frame(w, 0xc1000f00, 0, &pc, &sp));
    w[1] = 0x10;
    w[2] = 0x244;                               /* bit 1 clear */
    assert_false(a->interrupt_frame(w, 0xc1000f00, 0, &pc, &sp));
    w[2] = 0x20246;                             /* VM86 */
    assert_false(a->interrupt_frame(w, 0xc1000f00, 0, &pc, &sp));
    w[2] = 0x246;
    w[0] = 0x100000000ULL;                      /* not a 32-bit EIP */
    assert_false(a->interrupt_frame(w, 0xc1000f00, 0, &pc, &sp));
    w[0] = 0xc0101234;
    assert_false(a->interrupt_frame(w, 0xfffffffc, 0, &pc, &sp));
    /* [ds, es, orig_eax] of Mini-OS x86_32's SAVE_ALL, a kernel linked at 0:
     * 0xe021 is in its text, yet no frame */
    w[0] = 0xe021;
    w[1] = 0xe021;
    w[2] = 0xb;                                 /* bit 1 set: passes as EFLAGS */
    assert_false(a->interrupt_frame(w, 0xbff50, 0, &pc, &sp));
    w[1] = 0xe019;                              /* its real frame's CS */
    assert_true(a->interrupt_frame(w, 0xbff50, 0, &pc, &sp));
    /* [ES, the EAX saved at entry, EIP]: passes as a frame unless the
     * kernel's code selector is known */
    w[0] = 0xe021;
    w[1] = 0x1d;
    w[2] = 0x32b3;
    assert_true(a->interrupt_frame(w, 0xbff50, 0, &pc, &sp));
    assert_false(a->interrupt_frame(w, 0xbff50, 0xe019, &pc, &sp));
    w[0] = 0x32b3;                              /* the frame Xen left */
    w[1] = 0xe019;
    w[2] = 0x246;
    assert_true(a->interrupt_frame(w, 0xbff50, 0xe019, &pc, &sp));
    assert_int_equal(pc, 0x32b3);
}

/* code[0] is the byte before pc, code[1..4] from pc. */
static void test_frameless_words(void **state)
{
    static const uint8_t at_push[5] = { 0x90, 0x55, 0x89, 0xe5, 0x83 };
    static const uint8_t at_mov[5] = { 0x55, 0x89, 0xe5, 0x83, 0xec };
    static const uint8_t at_mov_8b[5] = { 0x55, 0x8b, 0xec, 0x83, 0xec };
    static const uint8_t at_ret[5] = { 0x5d, 0xc3, 0x90, 0x90, 0x90 };
    static const uint8_t at_endbr32[5] = { 0x90, 0xf3, 0x0f, 0x1e, 0xfb };
    static const uint8_t rex_mov[5] = { 0x55, 0x48, 0x89, 0xe5, 0x90 };
    static const uint8_t body[5] = { 0x89, 0x45, 0xfc, 0x8b, 0x45 };

    (void)state;
    assert_int_equal(a->frameless_words(at_push), 0);
    assert_int_equal(a->frameless_words(at_mov), 1);
    assert_int_equal(a->frameless_words(at_mov_8b), 1);
    assert_int_equal(a->frameless_words(at_ret), 0);
    assert_int_equal(a->frameless_words(at_endbr32), 0);
    assert_int_equal(a->frameless_words(body), -1);
    /* 48 is "dec %eax" in 32-bit code: not this width's frame setup */
    assert_int_equal(a->frameless_words(rex_mov), -1);
    /* and the 64-bit rules keep theirs */
    assert_int_equal(xu_arch_x86_64.frameless_words(rex_mov), 1);
    assert_int_equal(xu_arch_x86_64.frameless_words(at_mov), -1);
}

static void test_frameless_depth(void **state)
{
    /* push %ebx; push %esi; sub $0x10,%esp; body */
    static const uint8_t leaf[] = { 0x53, 0x56, 0x83, 0xec, 0x10, 0x8b, 0x44, 0x24, 0x20 };
    /* push %ebp; push %edi; mov %esp,%ebp: makes a frame */
    static const uint8_t framed[] = { 0x55, 0x57, 0x89, 0xe5, 0x90 };
    /* sub $0x102,%esp: not whole words */
    static const uint8_t odd[] = { 0x81, 0xec, 0x02, 0x01, 0, 0, 0x90 };
    /* mov %eax,%esp: the stack switches */
    static const uint8_t sw[] = { 0x53, 0x89, 0xc4, 0x90 };
    /* endbr32; push %ebx; mov %ecx,%ebx; sub $0x1000,%esp */
    static const uint8_t big[] = { 0xf3, 0x0f, 0x1e, 0xfb, 0x53, 0x89, 0xcb,
                                   0x81, 0xec, 0x00, 0x10, 0, 0, 0x90 };

    (void)state;
    assert_int_equal(a->frameless_depth(leaf, sizeof(leaf), 1), 1);
    assert_int_equal(a->frameless_depth(leaf, sizeof(leaf), 2), 2);
    assert_int_equal(a->frameless_depth(leaf, sizeof(leaf), 8), 6);
    assert_int_equal(a->frameless_depth(framed, sizeof(framed), 4), -1);
    assert_int_equal(a->frameless_depth(framed, sizeof(framed), 2), 2);
    assert_int_equal(a->frameless_depth(odd, sizeof(odd), 6), -1);
    assert_int_equal(a->frameless_depth(sw, sizeof(sw), 3), -1);
    assert_int_equal(a->frameless_depth(big, sizeof(big), 13), 1 + 0x1000 / 4);
}

/* How far below its frame pointer a framed function's stack pointer is. */
static void test_framed_depth(void **state)
{
    /* push %ebp; mov %esp,%ebp; sub $0x10,%esp; body: Mini-OS x86_32 at -O0 */
    static const uint8_t o0[] = { 0x55, 0x89, 0xe5, 0x83, 0xec, 0x10, 0x8b, 0x45, 0xf4 };
    /* push %ebp; push %edi; mov %esp,%ebp; push %esi; push %ebx; sub $0x8,%esp */
    static const uint8_t saved[] = { 0x55, 0x57, 0x89, 0xe5, 0x56, 0x53, 0x83, 0xec, 0x08, 0x90 };
    /* push %ebx; sub $0x10,%esp: no frame */
    static const uint8_t leaf[] = { 0x53, 0x83, 0xec, 0x10, 0x90 };

    (void)state;
    assert_int_equal(a->framed_depth(o0, sizeof(o0), 1), -1);      /* before the mov */
    assert_int_equal(a->framed_depth(o0, sizeof(o0), 3), 0);
    assert_int_equal(a->framed_depth(o0, sizeof(o0), 8), 4);
    assert_int_equal(a->framed_depth(saved, sizeof(saved), 9), 4);
    assert_int_equal(a->framed_depth(leaf, sizeof(leaf), 4), -1);
    assert_null(xu_arch_x86_64.framed_depth);
}

static void test_follows_call(void **state)
{
    static const uint8_t direct[8] = { 0x90, 0x90, 0x90, 0xe8, 1, 2, 3, 4 };
    static const uint8_t indirect[8] = { 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0xff, 0xd0 };
    static const uint8_t abs32[8] = { 0x90, 0x90, 0xff, 0x15, 0, 0x10, 0x10, 0xc0 };
    static const uint8_t none[8] = { 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x89, 0xc0 };

    (void)state;
    assert_true(a->follows_call(direct, 8));
    assert_true(a->follows_call(indirect, 8));
    assert_true(a->follows_call(abs32, 8));
    assert_false(a->follows_call(none, 8));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pv32_stub),
        cmocka_unit_test(test_interrupt_frame),
        cmocka_unit_test(test_frameless_words),
        cmocka_unit_test(test_frameless_depth),
        cmocka_unit_test(test_framed_depth),
        cmocka_unit_test(test_follows_call),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
