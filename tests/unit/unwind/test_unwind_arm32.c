/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_unwind_arm32.c - the frame-pointer walk on AArch32 guests, whose
 * frame records lie where each function's prologue puts them: chains of
 * GCC ARM frames (fp at the saved lr, the caller's fp below it), clang
 * frames (fp at {fp, lr}) and GCC Thumb-2 frames (r7 below the locals),
 * laid out in the simulated guest's memory, with the functions' code
 * (crafted prologues) and starts given as the ELF would; and hostile
 * chains, which still end, bounded.
 */
#include "config.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "xu_sim.h"
#include "arch/xu_arch.h"
#include "mem/xu_mem.h"
#include "unwind/xu_unwind.h"
#ifdef HAVE_LIBDW
#include "unwind/xu_cfi.h"
#endif

#define TEXT        0x80000000u     /* the functions' code, 0x100 bytes each */
#define TEXT_BYTES  0x1000u
#define STACK_BASE  0x10000u        /* the stack, physical = virtual (MMU off) */
#define STACK_TOP   0x12000u
#define NR_FRAMES   32

#define PSR_SVC     0x13u
#define PSR_T       0x20u

/* The ELF as the unwinder sees it: the code, and where each function starts. */
struct func {
    uint32_t start;
    bool thumb;
};

static uint8_t text[TEXT_BYTES];
static struct func funcs[8];
static unsigned int nr_funcs;

static const uint8_t *code_at(const void *ctx, uint64_t addr, size_t len)
{
    (void)ctx;
    if (addr < TEXT + len || addr > TEXT + TEXT_BYTES)
        return NULL;
    return text + (addr - TEXT - len);
}

static bool func_start(const void *ctx, uint64_t pc, uint64_t *start, bool *thumb)
{
    unsigned int i;

    (void)ctx;
    for (i = 0; i < nr_funcs; i++) {
        if (pc >= funcs[i].start && pc < funcs[i].start + 0x100u) {
            *start = funcs[i].start;
            if (thumb)
                *thumb = funcs[i].thumb;
            return true;
        }
    }
    return false;
}

static void le32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static void le16(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

/* Function n at TEXT + 0x100 * n: its prologue, then a call whose return
 * address is returned (with the Thumb bit for Thumb code). */
static uint32_t arm_func(unsigned int n, const uint32_t *prologue, unsigned int count)
{
    uint32_t start = TEXT + 0x100u * n, at = start;
    unsigned int i;

    for (i = 0; i < count; i++, at += 4)
        le32(text + (at - TEXT), prologue[i]);
    le32(text + (at - TEXT), 0xe1a00000u);             /* nop */
    le32(text + (at + 4 - TEXT), 0xebfffffeu);          /* bl */
    funcs[nr_funcs].start = start;
    funcs[nr_funcs++].thumb = false;
    return at + 8;
}

static uint32_t thumb_func(unsigned int n, const uint16_t *prologue, unsigned int count)
{
    uint32_t start = TEXT + 0x100u * n, at = start;
    unsigned int i;

    for (i = 0; i < count; i++, at += 2)
        le16(text + (at - TEXT), prologue[i]);
    le16(text + (at - TEXT), 0xbf00u);                  /* nop */
    le16(text + (at + 2 - TEXT), 0xf7ffu);              /* bl */
    le16(text + (at + 4 - TEXT), 0xfffeu);
    funcs[nr_funcs].start = start;
    funcs[nr_funcs++].thumb = true;
    return (at + 6) | 1u;
}

struct fixture {
    struct xu_sim *sim;
    struct xu_target tg;
    struct xu_mem *m;
    struct xu_unwind_env env;
    struct xu_vcpu_regs regs;
};

static int setup(void **state)
{
    static struct fixture f;

    memset(&f, 0, sizeof(f));
    memset(text, 0, sizeof(text));
    memset(funcs, 0, sizeof(funcs));
    nr_funcs = 0;
    f.sim = xu_sim_new(XU_GUEST_HVM, NR_FRAMES, 1);
    assert_non_null(f.sim);
    xu_sim_set_arch(f.sim, &xu_arch_arm32);
    assert_int_equal(xu_sim_target_open(f.sim, &f.tg, NULL), 0);
    f.m = xu_mem_new(&f.tg, NULL);
    assert_non_null(f.m);
    f.env.code = code_at;
    f.env.func_start = func_start;
    f.regs.online = true;
    f.regs.kernel_mode = true;
    f.regs.mmu.paging = XU_PAGING_NONE;
    f.regs.cpsr = PSR_SVC;
    *state = &f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;

    xu_mem_free(f->m);
    xu_target_close(&f->tg);
    xu_sim_free(f->sim);
    return 0;
}

static void put(struct fixture *f, uint32_t addr, uint32_t v)
{
    assert_true(addr >= STACK_BASE && addr + 4 <= STACK_TOP);
    le32((uint8_t *)xu_sim_frame(f->sim, addr / 4096) + addr % 4096, v);
}

/* The vCPU stopped at ip, its frame pointer (r11, or r7 in Thumb state) fp. */
static void stopped(struct fixture *f, uint32_t ip, uint32_t sp, uint32_t fp, bool thumb)
{
    f->regs.ip = ip;
    f->regs.sp = sp;
    f->regs.cpsr = PSR_SVC | (thumb ? PSR_T : 0);
    f->regs.fp = fp;
    f->regs.r32[13] = sp;
    f->regs.r32[15] = ip;
    f->regs.r32[thumb ? 7 : 11] = fp;
}

static void walk_with(struct fixture *f, const struct xu_unwinder_ops *u, uint64_t *pcs,
                      unsigned int max, struct xu_unwind_result *r)
{
    xu_mem_begin(f->m);
    xu_mem_set_context(f->m, &f->regs);
    u->walk(&f->env, f->m, &f->regs, pcs, max, r);
}

static void walk(struct fixture *f, uint64_t *pcs, unsigned int max, struct xu_unwind_result *r)
{
    walk_with(f, &xu_unwind_fp_ops, pcs, max, r);
}

/* GCC, ARM: push {fp, lr}; add fp, sp, #4; sub sp, sp, #8 */
static const uint32_t gcc_arm[] = { 0xe92d4800u, 0xe28db004u, 0xe24dd008u };
/* clang, ARM: push {r4, r5, r11, lr}; add r11, sp, #8; sub sp, sp, #8 */
static const uint32_t clang_arm[] = { 0xe92d4830u, 0xe28db008u, 0xe24dd008u };
/* GCC, Thumb-2: push {r7, lr}; sub sp, #8 or #16; add r7, sp, #0 */
static const uint16_t gcc_thumb8[] = { 0xb580u, 0xb082u, 0xaf00u };
static const uint16_t gcc_thumb16[] = { 0xb580u, 0xb084u, 0xaf00u };

/*
 * A GCC ARM chain a -> b -> c, c stopped after its prologue: each fp
 * points at its frame's saved lr, the caller's fp one word below.  The
 * fixed {fp, lr} reading would take the saved lr for the caller's fp.
 */
static void test_gcc_arm_chain(void **state)
{
    struct fixture *f = *state;
    uint32_t ret_a = arm_func(0, gcc_arm, 3);
    uint32_t ret_b = arm_func(1, gcc_arm, 3);
    uint32_t c = TEXT + 0x200u, ret_root = 0;
    uint32_t e_c = STACK_BASE + 0x800, e_b = e_c + 0x40, e_a = e_b + 0x40;
    struct xu_unwind_result r;
    uint64_t pcs[16];

    (void)arm_func(2, gcc_arm, 3);
    put(f, e_a - 8, 0);             put(f, e_a - 4, ret_root);
    put(f, e_b - 8, e_a - 4);       put(f, e_b - 4, ret_a);
    put(f, e_c - 8, e_b - 4);       put(f, e_c - 4, ret_b);
    stopped(f, c + 12, e_c - 16, e_c - 4, false);
    walk(f, pcs, 16, &r);
    assert_int_equal(r.end, XU_WALK_COMPLETE);
    assert_int_equal(r.depth, 3);
    assert_int_equal(pcs[0], c + 12);
    assert_int_equal(pcs[1], ret_b);
    assert_int_equal(pcs[2], ret_a);

    /* without the ELF's code, the fixed place: not this chain */
    f->env.code = NULL;
    walk(f, pcs, 16, &r);
    assert_true(r.depth < 3 || pcs[1] != ret_b || pcs[2] != ret_a);
}

/*
 * A GCC leaf (an hvc wrapper: push {fp}; add fp, sp, #0) stopped inside:
 * its caller's fp at fp, its return address still in lr; further up the
 * GCC ARM chain.  A leaf's record met above the innermost frame is not
 * read as one (the fixed place holds there).
 */
static void test_gcc_leaf(void **state)
{
    struct fixture *f = *state;
    static const uint32_t leaf[] = { 0xe52db004u, 0xe28db000u };
    uint32_t ret_a = arm_func(0, gcc_arm, 3);
    uint32_t ret_b = arm_func(1, gcc_arm, 3);
    uint32_t c = TEXT + 0x200u;
    uint32_t e_c = STACK_BASE + 0x800, e_b = e_c + 0x40, e_a = e_b + 0x40;
    struct xu_unwind_result r;
    uint64_t pcs[16];

    (void)arm_func(2, leaf, 2);
    put(f, e_a - 8, 0);             put(f, e_a - 4, 0);
    put(f, e_b - 8, e_a - 4);       put(f, e_b - 4, ret_a);
    put(f, e_c - 4, e_b - 4);       /* push {fp} */
    put(f, e_c, 0xdeadbeefu);       /* b's outgoing area: no return address */
    stopped(f, c + 8, e_c - 4, e_c - 4, false);
    f->regs.lr = f->regs.r32[14] = ret_b;
    walk(f, pcs, 16, &r);
    assert_int_equal(r.end, XU_WALK_COMPLETE);
    assert_int_equal(r.depth, 3);
    assert_int_equal(pcs[1], ret_b);
    assert_int_equal(pcs[2], ret_a);

    /* a Thumb-2 leaf (push {r7}; add r7, sp, #0) returning into Thumb code */
    memset(text + 0x200, 0, 0x100);
    nr_funcs = 2;
    {
        static const uint16_t tleaf[] = { 0xb480u, 0xaf00u };
        (void)thumb_func(2, tleaf, 2);
    }
    stopped(f, c + 4, e_c - 4, e_c - 4, true);
    f->regs.lr = f->regs.r32[14] = ret_b | 1u;
    walk(f, pcs, 16, &r);
    /* b is ARM (r11), the leaf Thumb (r7): the saved r7 is not b's fp */
    assert_int_equal(r.end, XU_WALK_BAD_FRAME);
    assert_int_equal(r.depth, 2);
    assert_int_equal(pcs[1], ret_b);
}

/* A clang ARM chain: fp points at {caller's fp, lr} above r4 and r5. */
static void test_clang_chain(void **state)
{
    struct fixture *f = *state;
    uint32_t ret_a = arm_func(0, clang_arm, 3);
    uint32_t ret_b = arm_func(1, clang_arm, 3);
    uint32_t c = TEXT + 0x200u;
    uint32_t e_c = STACK_BASE + 0x800, e_b = e_c + 0x40, e_a = e_b + 0x40;
    struct xu_unwind_result r;
    uint64_t pcs[16];

    (void)arm_func(2, clang_arm, 3);
    put(f, e_a - 8, 0);             put(f, e_a - 4, 0);
    put(f, e_b - 8, e_a - 8);       put(f, e_b - 4, ret_a);
    put(f, e_c - 8, e_b - 8);       put(f, e_c - 4, ret_b);
    put(f, e_c - 16, 0x44444444u);  put(f, e_c - 12, 0x55555555u);    /* r4, r5 */
    stopped(f, c + 12, e_c - 24, e_c - 8, false);
    walk(f, pcs, 16, &r);
    assert_int_equal(r.end, XU_WALK_COMPLETE);
    assert_int_equal(r.depth, 3);
    assert_int_equal(pcs[1], ret_b);
    assert_int_equal(pcs[2], ret_a);
}

/*
 * A GCC Thumb-2 chain: r7 points below each frame's locals, {r7, lr} lie
 * above them, a different distance in each function; the stored return
 * addresses carry the Thumb bit, which the walk drops.
 */
static void test_gcc_thumb_chain(void **state)
{
    struct fixture *f = *state;
    uint32_t ret_a = thumb_func(0, gcc_thumb8, 3);
    uint32_t ret_b = thumb_func(1, gcc_thumb16, 3);
    uint32_t c = TEXT + 0x200u;
    /* entry sps; each r7 = entry - 8 (push) - locals */
    uint32_t e_c = STACK_BASE + 0x800, e_b = e_c + 0x40, e_a = e_b + 0x40;
    uint32_t r7_a = e_a - 16, r7_b = e_b - 24, r7_c = e_c - 16;
    struct xu_unwind_result r;
    uint64_t pcs[16];

    (void)thumb_func(2, gcc_thumb8, 3);
    put(f, e_a - 8, 0);             put(f, e_a - 4, 0);
    put(f, e_b - 8, r7_a);          put(f, e_b - 4, ret_a);
    put(f, e_c - 8, r7_b);          put(f, e_c - 4, ret_b);
    put(f, r7_c, 0x12345678u);      /* a local where the fixed place would look */
    put(f, r7_c + 4, 0x9abcdef0u);
    stopped(f, c + 6, r7_c, r7_c, true);
    walk(f, pcs, 16, &r);
    assert_int_equal(r.end, XU_WALK_COMPLETE);
    assert_int_equal(r.depth, 3);
    assert_int_equal(pcs[0], c + 6);
    assert_int_equal(pcs[1], ret_b & ~1u);
    assert_int_equal(pcs[2], ret_a & ~1u);

#ifdef HAVE_LIBDW
    /* auto where the CFI has no rule (a Thumb-2 function's, relative to
     * r7, is not in the table): the same records, one step at a time */
    memset(pcs, 0, sizeof(pcs));
    walk_with(f, &xu_unwind_auto_ops, pcs, 16, &r);
    assert_int_equal(r.end, XU_WALK_COMPLETE);
    assert_int_equal(r.depth, 3);
    assert_int_equal(pcs[1], ret_b & ~1u);
    assert_int_equal(pcs[2], ret_a & ~1u);
#endif
}

/* An ARM caller (r11) of a Thumb-2 callee (r7): the record holds the
 * caller's r7, no frame pointer of its: the walk ends there. */
static void test_mixed_chain_ends(void **state)
{
    struct fixture *f = *state;
    uint32_t ret_a = arm_func(0, gcc_arm, 3);
    uint32_t c = TEXT + 0x100u;
    uint32_t e_c = STACK_BASE + 0x800, e_a = e_c + 0x40, r7_c = e_c - 16;
    struct xu_unwind_result r;
    uint64_t pcs[16];

    (void)thumb_func(1, gcc_thumb8, 3);
    put(f, e_a - 8, 0);             put(f, e_a - 4, 0);
    put(f, e_c - 8, e_a + 0x100);   put(f, e_c - 4, ret_a);     /* r7: data */
    stopped(f, c + 6, r7_c, r7_c, true);
    walk(f, pcs, 16, &r);
    assert_int_equal(r.end, XU_WALK_BAD_FRAME);
    assert_int_equal(r.depth, 2);
    assert_int_equal(pcs[1], ret_a);
}

/*
 * Hostile chains: a record pointing at itself, one pointing lower, a
 * chain rising forever through one function (max_depth ends it), and a
 * frame pointer whose record would lie below address 0.
 */
static void test_hostile_chains(void **state)
{
    struct fixture *f = *state;
    static const uint32_t apcs[] = {      /* mov ip, sp; push {fp, ip, lr, pc}; sub fp, ip, #4 */
        0xe1a0c00du, 0xe92dd800u, 0xe24cb004u,
    };
    uint32_t ret_a = arm_func(0, gcc_arm, 3);
    uint32_t a = TEXT, fp, at;
    struct xu_unwind_result r;
    uint64_t pcs[64];

    /* a loop: the caller's fp is this fp */
    fp = STACK_BASE + 0x804;
    put(f, fp - 4, fp);
    put(f, fp, ret_a);
    stopped(f, a + 12, fp - 12, fp, false);
    walk(f, pcs, 64, &r);
    assert_int_equal(r.end, XU_WALK_BAD_FRAME);
    assert_int_equal(r.depth, 2);

    /* descending */
    put(f, fp - 4, fp - 0x100);
    walk(f, pcs, 64, &r);
    assert_int_equal(r.end, XU_WALK_BAD_FRAME);
    assert_int_equal(r.depth, 2);

    /* rising up the whole stack, every frame a's: bounded by max_depth,
     * else by the end of the stack's memory */
    for (at = STACK_BASE + 0x104; at + 8 < STACK_TOP; at += 8) {
        put(f, at - 4, at + 8);
        put(f, at, ret_a);
    }
    stopped(f, a + 12, STACK_BASE + 0xf0, STACK_BASE + 0x104, false);
    walk(f, pcs, 64, &r);
    assert_int_equal(r.end, XU_WALK_DEPTH);
    assert_int_equal(r.depth, 64);

    /* an APCS frame (record 12 bytes below fp) with fp at 8: below 0 */
    (void)arm_func(1, apcs, 3);
    f->regs.sp = 0;
    stopped(f, TEXT + 0x100u + 12, 0, 8, false);
    walk(f, pcs, 64, &r);
    assert_int_equal(r.end, XU_WALK_BAD_FRAME);
    assert_int_equal(r.depth, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_gcc_arm_chain, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gcc_leaf, setup, teardown),
        cmocka_unit_test_setup_teardown(test_clang_chain, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gcc_thumb_chain, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mixed_chain_ends, setup, teardown),
        cmocka_unit_test_setup_teardown(test_hostile_chains, setup, teardown),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
