/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_arm32_frame.c - AArch32 frame records as each compiler lays them out,
 * read from real prologues (clang's output for armv7a, ARM and Thumb-2; the
 * GCC sequences its ARM and Thumb-2 back ends and -mapcs-frame emit), then
 * chains walked over a simulated stack with the per-function layouts, and
 * hostile prologues and records.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "arch/xu_arch.h"
#include "arch/arm32/frame.h"

/* clang --target=armv7a-none-eabi -marm -O2 -fno-omit-frame-pointer */
static const uint8_t clang_arm_f[] = {          /* push {r11, lr}; mov r11, sp; sub sp, #8 */
    0x00, 0x48, 0x2d, 0xe9, 0x0d, 0xb0, 0xa0, 0xe1, 0x08, 0xd0, 0x4d, 0xe2,
};
static const uint8_t clang_arm_h[] = {          /* push {r4, r5, r11, lr}; add r11, sp, #8 */
    0x30, 0x48, 0x2d, 0xe9, 0x08, 0xb0, 0x8d, 0xe2, 0x00, 0x40, 0xa0, 0xe1,
};
/* the same, -mthumb */
static const uint8_t clang_thumb_f[] = {        /* push {r7, lr}; mov r7, sp; sub sp, #8 */
    0x80, 0xb5, 0x6f, 0x46, 0x82, 0xb0,
};
static const uint8_t clang_thumb_h[] = {        /* push {r4, r5, r7, lr}; add r7, sp, #8 */
    0xb0, 0xb5, 0x02, 0xaf, 0x04, 0x46,
};
/* GCC, ARM: push {r4, fp, lr}; add fp, sp, #8; sub sp, sp, #12 */
static const uint8_t gcc_arm[] = {
    0x10, 0x48, 0x2d, 0xe9, 0x08, 0xb0, 0x8d, 0xe2, 0x0c, 0xd0, 0x4d, 0xe2,
};
/* GCC -mapcs-frame: mov ip, sp; push {fp, ip, lr, pc}; sub fp, ip, #4 */
static const uint8_t gcc_apcs[] = {
    0x0d, 0xc0, 0xa0, 0xe1, 0x00, 0xd8, 0x2d, 0xe9, 0x04, 0xb0, 0x4c, 0xe2,
};
/* GCC, Thumb-2: push {r7, lr}; sub sp, #8; add r7, sp, #0 */
static const uint8_t gcc_thumb[] = {
    0x80, 0xb5, 0x82, 0xb0, 0x00, 0xaf,
};

static struct xu_arm32_record rec_of(const uint8_t *code, size_t len, bool thumb)
{
    struct xu_arm32_record r;

    memset(&r, 0, sizeof(r));
    assert_int_equal(xu_arm32_prologue_record(code, len, len, thumb, &r), 0);
    return r;
}

static void test_layouts(void **state)
{
    struct xu_arm32_record r;

    (void)state;
    r = rec_of(clang_arm_f, sizeof(clang_arm_f), false);
    assert_int_equal(r.layout, XU_ARM32_FP_RECORD);
    assert_int_equal(r.fp_reg, 11);
    assert_int_equal(r.fp_off, 0);
    assert_int_equal(r.ra_off, 4);
    r = rec_of(clang_arm_h, sizeof(clang_arm_h), false);
    assert_int_equal(r.layout, XU_ARM32_FP_RECORD);
    r = rec_of(clang_thumb_f, sizeof(clang_thumb_f), true);
    assert_int_equal(r.layout, XU_ARM32_FP_RECORD);
    assert_int_equal(r.fp_reg, 7);
    r = rec_of(clang_thumb_h, sizeof(clang_thumb_h), true);
    assert_int_equal(r.layout, XU_ARM32_FP_RECORD);
    assert_int_equal(r.fp_off, 0);
    r = rec_of(gcc_arm, sizeof(gcc_arm), false);
    assert_int_equal(r.layout, XU_ARM32_FP_GCC_ARM);
    assert_int_equal(r.fp_off, -4);
    assert_int_equal(r.ra_off, 0);
    r = rec_of(gcc_apcs, sizeof(gcc_apcs), false);
    assert_int_equal(r.layout, XU_ARM32_FP_APCS);
    assert_int_equal(r.fp_off, -12);
    assert_int_equal(r.ra_off, -4);
    r = rec_of(gcc_thumb, sizeof(gcc_thumb), true);
    assert_int_equal(r.layout, XU_ARM32_FP_THUMB_LOCALS);
    assert_int_equal(r.fp_reg, 7);
    assert_int_equal(r.fp_off, 8);
    assert_int_equal(r.ra_off, 12);
    assert_string_equal(xu_arm32_layout_name(r.layout), "gcc-thumb");
}

/*
 * GCC 12's Thumb-2 code saving r8-r11 too (the lab's ratio guest,
 * arm-linux-gnueabihf-gcc -O1 -mthumb -fno-omit-frame-pointer): r8-r11
 * sit between the saved r7 and lr.
 */
static void test_gcc_thumb_wide_push(void **state)
{
    static const uint8_t function_1[] = {   /* push.w {r4-r11, lr}; sub sp, #36; add r7, sp, #0 */
        0x2d, 0xe9, 0xf0, 0x4f, 0x89, 0xb0, 0x00, 0xaf,
    };
    static const uint8_t main_[] = {        /* push.w {r4-r8, lr}; add r7, sp, #0 */
        0x2d, 0xe9, 0xf0, 0x41, 0x00, 0xaf,
    };
    struct xu_arm32_record r;

    (void)state;
    r = rec_of(function_1, sizeof(function_1), true);
    assert_int_equal(r.layout, XU_ARM32_FP_THUMB_LOCALS);
    assert_int_equal(r.fp_reg, 7);
    assert_int_equal(r.fp_off, 36 + 12);    /* above the locals, r4-r6 */
    assert_int_equal(r.ra_off, 36 + 32);    /* above r7-r11 too */
    r = rec_of(main_, sizeof(main_), true);
    assert_int_equal(r.layout, XU_ARM32_FP_THUMB_LOCALS);
    assert_int_equal(r.fp_off, 12);
    assert_int_equal(r.ra_off, 20);
    /* before r7 is set: no record yet */
    assert_int_equal(xu_arm32_prologue_record(function_1, 4, 4, true, &r), -1);
}

/* Before the frame pointer is set up there is no record: stopped at the
 * push, or in the wrong instruction set, nothing is claimed. */
static void test_not_yet_or_wrong_isa(void **state)
{
    struct xu_arm32_record r;
    struct xu_frame_record fr;

    (void)state;
    assert_int_equal(xu_arm32_prologue_record(clang_arm_f, sizeof(clang_arm_f), 4, false, &r), -1);
    assert_int_equal(xu_arm32_prologue_record(clang_arm_f, sizeof(clang_arm_f), 0, false, &r), -1);
    assert_int_equal(xu_arm32_prologue_record(gcc_thumb, sizeof(gcc_thumb), 4, true, &r), -1);
    assert_int_equal(xu_arm32_prologue_record(clang_thumb_f, sizeof(clang_thumb_f),
                                              sizeof(clang_thumb_f), false, &r), -1);
    assert_int_equal(xu_arm32_prologue_record(NULL, 0, 16, false, &r), -1);
    /* the arch hook answers the same */
    assert_int_equal(xu_arch_arm32.frame_record(gcc_arm, sizeof(gcc_arm), 8, false, &fr), 0);
    assert_int_equal(fr.fp_reg, 11);
    assert_int_equal(fr.fp_off, -4);
    assert_int_equal(xu_arch_arm32.frame_record(gcc_arm, sizeof(gcc_arm), 4, false, &fr), -1);
}

/* Hostile prologues: a write to fp not understood ends the reading; pushes
 * without fp or lr give no record; a long run of pushes stays bounded. */
static void test_hostile_prologues(void **state)
{
    static const uint8_t mov_fp_r0[] = {         /* push {fp, lr}; mov fp, r0 */
        0x00, 0x48, 0x2d, 0xe9, 0x00, 0xb0, 0xa0, 0xe1,
    };
    static const uint8_t no_lr[] = {             /* push {r4, fp}; mov fp, sp */
        0x10, 0x08, 0x2d, 0xe9, 0x0d, 0xb0, 0xa0, 0xe1,
    };
    uint8_t pushes[256];
    struct xu_arm32_record r;
    size_t i;

    (void)state;
    assert_int_equal(xu_arm32_prologue_record(mov_fp_r0, sizeof(mov_fp_r0), 8, false, &r), -1);
    assert_int_equal(xu_arm32_prologue_record(no_lr, sizeof(no_lr), 8, false, &r), -1);
    for (i = 0; i < sizeof(pushes); i += 4) {   /* push {r0-r15} over and over */
        pushes[i] = 0xff; pushes[i + 1] = 0xff; pushes[i + 2] = 0x2d; pushes[i + 3] = 0xe9;
    }
    assert_int_equal(xu_arm32_prologue_record(pushes, sizeof(pushes), sizeof(pushes), false, &r),
                     -1);
    /* a 32-bit Thumb instruction cut at the end is not read */
    assert_int_equal(xu_arm32_prologue_record(pushes, 3, 3, true, &r), -1);
}

/* A simulated stack: 4 KiB of words from STACK_BASE. */
#define STACK_BASE 0xbf000000u
#define STACK_WORDS 1024u
static uint32_t stack[STACK_WORDS];

static int read_word(void *ctx, uint32_t addr, uint32_t *w)
{
    (void)ctx;
    if (addr < STACK_BASE || addr - STACK_BASE > STACK_WORDS * 4 - 4 || (addr & 3))
        return -1;
    *w = stack[(addr - STACK_BASE) / 4];
    return 0;
}

static void put(uint32_t addr, uint32_t v)
{
    stack[(addr - STACK_BASE) / 4] = v;
}

/*
 * Three frames, innermost first: a GCC Thumb-2 function (r7 16 bytes below
 * its record, locals between), called from a clang ARM function ({r11, lr}),
 * called from a GCC ARM function (fp at lr).  Each step takes the layout of
 * the function the frame belongs to, as the walk would from its prologue.
 */
static void test_chain_mixed(void **state)
{
    struct xu_arm32_record inner = rec_of(gcc_thumb, sizeof(gcc_thumb), true);
    struct xu_arm32_record mid = rec_of(clang_arm_h, sizeof(clang_arm_h), false);
    struct xu_arm32_record outer = rec_of(gcc_arm, sizeof(gcc_arm), false);
    uint32_t fp0 = STACK_BASE + 0x100, fp1 = STACK_BASE + 0x200, fp2 = STACK_BASE + 0x300;
    uint32_t fp, ra;

    (void)state;
    memset(stack, 0, sizeof(stack));
    /* inner (Thumb, r7 = fp0): {saved r7, lr} at fp0 + 8 */
    put(fp0 + 8, fp1);
    put(fp0 + 12, 0x80001001u);         /* into the ARM caller (Thumb bit clear) */
    /* mid (clang ARM, r11 = fp1): {saved r11, lr} at fp1 */
    put(fp1, fp2);
    put(fp1 + 4, 0x80002000u);
    /* outer (GCC ARM, fp = fp2 at its lr, the caller's fp below) */
    put(fp2, 0x80003000u);
    put(fp2 - 4, 0);                    /* the outermost: a zero fp */
    assert_int_equal(xu_arm32_frame_step(&inner, fp0, read_word, NULL, &fp, &ra), 0);
    assert_int_equal(fp, fp1);
    assert_int_equal(ra, 0x80001001u);
    assert_int_equal(xu_arch_arm32.code_address(NULL, ra), 0x80001000u);
    assert_int_equal(xu_arm32_frame_step(&mid, fp, read_word, NULL, &fp, &ra), 0);
    assert_int_equal(fp, fp2);
    assert_int_equal(ra, 0x80002000u);
    assert_int_equal(xu_arm32_frame_step(&outer, fp, read_word, NULL, &fp, &ra), 0);
    assert_int_equal(fp, 0);
    assert_int_equal(ra, 0x80003000u);
    /* read with the wrong layout, the same stack gives other words: why the
     * layout has to be the function's own */
    assert_int_equal(xu_arm32_frame_step(&mid, fp0, read_word, NULL, &fp, &ra), 0);
    assert_int_not_equal(fp, fp1);
}

static void test_step_hostile(void **state)
{
    struct xu_arm32_record apcs = rec_of(gcc_apcs, sizeof(gcc_apcs), false);
    uint32_t fp, ra;

    (void)state;
    assert_int_equal(xu_arm32_frame_step(&apcs, STACK_BASE + 2, read_word, NULL, &fp, &ra), -1);
    assert_int_equal(xu_arm32_frame_step(&apcs, 4, read_word, NULL, &fp, &ra), -1);     /* below 0 */
    assert_int_equal(xu_arm32_frame_step(&apcs, 0x10, read_word, NULL, &fp, &ra), -1);  /* unmapped */
}

static void test_follows_call(void **state)
{
    static const uint8_t arm_bl[] = { 0xfe, 0xff, 0xff, 0xeb };
    static const uint8_t arm_blx_reg[] = { 0x33, 0xff, 0x2f, 0xe1 };
    static const uint8_t thumb_bl[] = { 0xff, 0xf7, 0xfe, 0xff };
    static const uint8_t thumb_blx_reg[] = { 0x00, 0xbf, 0x98, 0x47 };    /* nop; blx r3 */
    static const uint8_t not_call[] = { 0x01, 0x00, 0x80, 0xe2 };         /* add r0, r0, #1 */

    (void)state;
    assert_true(xu_arm32_follows_call(arm_bl, 4));
    assert_true(xu_arm32_follows_call(arm_blx_reg, 4));
    assert_true(xu_arm32_follows_call(thumb_bl, 4));
    assert_true(xu_arm32_follows_call(thumb_blx_reg, 4));
    assert_false(xu_arm32_follows_call(not_call, 4));
    assert_false(xu_arm32_follows_call(arm_bl, 3));
}

/* GCC's leaves save the frame pointer alone: a LEAF record, its return
 * address in lr, which frame_step cannot read. */
static void test_gcc_leaf(void **state)
{
    static const uint8_t arm_leaf[] = {     /* push {fp}; add fp, sp, #0 */
        0x04, 0xb0, 0x2d, 0xe5, 0x00, 0xb0, 0x8d, 0xe2,
    };
    static const uint8_t thumb_leaf[] = {   /* push {r7}; sub sp, #8; add r7, sp, #0 */
        0x80, 0xb4, 0x82, 0xb0, 0x00, 0xaf,
    };
    struct xu_arm32_record r;
    struct xu_frame_record fr;
    uint32_t fp, ra;

    (void)state;
    r = rec_of(arm_leaf, sizeof(arm_leaf), false);
    assert_int_equal(r.layout, XU_ARM32_FP_LEAF);
    assert_int_equal(r.fp_reg, 11);
    assert_int_equal(r.fp_off, 0);
    assert_string_equal(xu_arm32_layout_name(r.layout), "leaf");
    assert_int_equal(xu_arm32_frame_step(&r, STACK_BASE + 0x100, read_word, NULL, &fp, &ra), -1);
    r = rec_of(thumb_leaf, sizeof(thumb_leaf), true);
    assert_int_equal(r.layout, XU_ARM32_FP_LEAF);
    assert_int_equal(r.fp_reg, 7);
    assert_int_equal(r.fp_off, 8);
    assert_int_equal(xu_arch_arm32.frame_record(arm_leaf, sizeof(arm_leaf), 8, false, &fr), 0);
    assert_true(fr.ra_in_link);
    assert_int_equal(xu_arch_arm32.frame_record(gcc_arm, sizeof(gcc_arm), 8, false, &fr), 0);
    assert_false(fr.ra_in_link);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layouts),
        cmocka_unit_test(test_gcc_thumb_wide_push),
        cmocka_unit_test(test_gcc_leaf),
        cmocka_unit_test(test_not_yet_or_wrong_isa),
        cmocka_unit_test(test_hostile_prologues),
        cmocka_unit_test(test_chain_mixed),
        cmocka_unit_test(test_step_hostile),
        cmocka_unit_test(test_follows_call),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
