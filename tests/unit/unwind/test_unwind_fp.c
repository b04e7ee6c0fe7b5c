/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_unwind_fp.c - the frame-pointer walk over good and hostile stacks.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "sim_guest.h"
#include "mem/xu_mem.h"
#include "unwind/xu_unwind.h"

struct fixture {
    struct sim_guest g;
    struct xu_target t;
    struct xu_mem *m;
};

static int setup(void **state)
{
    static struct fixture f;

    memset(&f, 0, sizeof(f));
    assert_int_equal(sim_guest_init(&f.g, XU_GUEST_PV, 1, 0), 0);
    xu_sim_target_open(f.g.sim, &f.t, NULL);
    f.m = xu_mem_new(&f.t, NULL);
    assert_non_null(f.m);
    *state = &f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;

    xu_mem_free(f->m);
    xu_target_close(&f->t);
    sim_guest_fini(&f->g);
    return 0;
}

static void walk(struct fixture *f, const struct xu_vcpu_regs *regs, uint64_t *pcs,
                 unsigned int max, struct xu_unwind_result *res)
{
    xu_mem_begin(f->m);
    xu_mem_set_context(f->m, regs);
    xu_unwind_fp(NULL, f->m, regs, pcs, max, res);
}

static const uint64_t chain5[] = {
    0xffffffff80001010ULL,  /* function_3 (IP) */
    0xffffffff80001055ULL,  /* in function_2 */
    0xffffffff80001095ULL,  /* in function_1 */
    0xffffffff800010d5ULL,  /* in main_loop */
    0xffffffff80000015ULL,  /* in _start: the outermost return address */
};

static void test_normal_chain_keeps_outermost(void **state)
{
    struct fixture *f = *state;
    struct xu_vcpu_regs regs;
    struct xu_unwind_result res;
    uint64_t pcs[16];

    assert_int_equal(sim_guest_chain(&f->g, 0, chain5, 5, &regs), 0);
    walk(f, &regs, pcs, 16, &res);
    assert_int_equal(res.end, XU_WALK_COMPLETE);
    assert_int_equal(res.depth, 5);
    assert_memory_equal(pcs, chain5, sizeof(chain5));
}

static void test_entry_only(void **state)
{
    struct fixture *f = *state;
    struct xu_vcpu_regs regs;
    struct xu_unwind_result res;
    uint64_t pcs[4];

    assert_int_equal(sim_guest_chain(&f->g, 0, chain5, 1, &regs), 0);
    walk(f, &regs, pcs, 4, &res);
    assert_int_equal(res.end, XU_WALK_COMPLETE);
    assert_int_equal(res.depth, 1);
    assert_int_equal(pcs[0], chain5[0]);
}

static void test_cycle_is_bad_frame(void **state)
{
    struct fixture *f = *state;
    struct xu_vcpu_regs regs;
    struct xu_unwind_result res;
    uint64_t pcs[1024];

    assert_int_equal(sim_guest_chain(&f->g, 0, chain5, 5, &regs), 0);
    /* record 2 points back at record 0: a loop */
    assert_int_equal(xu_sim_write_u64(f->g.sim, f->g.root, sim_guest_frame_addr(0, 5, 2),
                                      sim_guest_frame_addr(0, 5, 0)), 0);
    walk(f, &regs, pcs, 1024, &res);
    assert_int_equal(res.end, XU_WALK_BAD_FRAME);
    assert_int_equal(res.depth, 4);
}

static void test_self_loop(void **state)
{
    struct fixture *f = *state;
    struct xu_vcpu_regs regs;
    struct xu_unwind_result res;
    uint64_t pcs[1024];

    assert_int_equal(sim_guest_chain(&f->g, 0, chain5, 5, &regs), 0);
    assert_int_equal(xu_sim_write_u64(f->g.sim, f->g.root, regs.fp, regs.fp), 0);
    walk(f, &regs, pcs, 1024, &res);
    assert_int_equal(res.end, XU_WALK_BAD_FRAME);
    assert_int_equal(res.depth, 2);
}

static void test_falling_frame_pointer(void **state)
{
    struct fixture *f = *state;
    struct xu_vcpu_regs regs;
    struct xu_unwind_result res;
    uint64_t pcs[16];

    assert_int_equal(sim_guest_chain(&f->g, 0, chain5, 5, &regs), 0);
    assert_int_equal(xu_sim_write_u64(f->g.sim, f->g.root, sim_guest_frame_addr(0, 5, 1),
                                      regs.fp - 4096), 0);
    walk(f, &regs, pcs, 16, &res);
    assert_int_equal(res.end, XU_WALK_BAD_FRAME);
    assert_int_equal(res.depth, 3);
    assert_memory_equal(pcs, chain5, 3 * sizeof(uint64_t));
}

static void test_unaligned(void **state)
{
    struct fixture *f = *state;
    struct xu_vcpu_regs regs;
    struct xu_unwind_result res;
    uint64_t pcs[16];

    assert_int_equal(sim_guest_chain(&f->g, 0, chain5, 5, &regs), 0);
    assert_int_equal(xu_sim_write_u64(f->g.sim, f->g.root, sim_guest_frame_addr(0, 5, 0),
                                      sim_guest_frame_addr(0, 5, 1) + 3), 0);
    walk(f, &regs, pcs, 16, &res);
    assert_int_equal(res.end, XU_WALK_BAD_FRAME);
    assert_int_equal(res.depth, 2);
}

static void test_unmapped(void **state)
{
    struct fixture *f = *state;
    struct xu_vcpu_regs regs;
    struct xu_unwind_result res;
    uint64_t pcs[16];

    assert_int_equal(sim_guest_chain(&f->g, 0, chain5, 5, &regs), 0);
    /* the caller's frame lies in a page nobody mapped */
    assert_int_equal(xu_sim_write_u64(f->g.sim, f->g.root, sim_guest_frame_addr(0, 5, 1),
                                      SIM_STACK_BASE + 64 * SIM_STACK_SPAN), 0);
    walk(f, &regs, pcs, 16, &res);
    assert_int_equal(res.end, XU_WALK_UNMAPPED);
    assert_int_equal(res.depth, 3);
}

static void test_depth_limit(void **state)
{
    struct fixture *f = *state;
    struct xu_vcpu_regs regs;
    struct xu_unwind_result res;
    uint64_t chain[200], pcs[200];
    unsigned int i;

    for (i = 0; i < 200; i++)
        chain[i] = SIM_TEXT_BASE + 0x1000 + i * 16;
    assert_int_equal(sim_guest_chain(&f->g, 0, chain, 200, &regs), 0);
    walk(f, &regs, pcs, 10, &res);
    assert_int_equal(res.end, XU_WALK_DEPTH);
    assert_int_equal(res.depth, 10);
    assert_memory_equal(pcs, chain, 10 * sizeof(uint64_t));
    /* exactly as deep as allowed: complete, not truncated */
    walk(f, &regs, pcs, 200, &res);
    assert_int_equal(res.end, XU_WALK_COMPLETE);
    assert_int_equal(res.depth, 200);
    assert_memory_equal(pcs, chain, sizeof(chain));
}

static void test_depth_one_reads_no_memory(void **state)
{
    struct fixture *f = *state;
    struct xu_vcpu_regs regs;
    struct xu_unwind_result res;
    struct xu_mem_stats before, after;
    uint64_t pcs[1];

    assert_int_equal(sim_guest_chain(&f->g, 0, chain5, 5, &regs), 0);
    xu_mem_get_stats(f->m, &before);
    walk(f, &regs, pcs, 1, &res);
    xu_mem_get_stats(f->m, &after);
    assert_int_equal(res.end, XU_WALK_DEPTH);
    assert_int_equal(res.depth, 1);
    assert_int_equal(pcs[0], chain5[0]);
    assert_int_equal(after.tlb_hits + after.tlb_misses, before.tlb_hits + before.tlb_misses);
}

static void test_zero_return_ends_chain(void **state)
{
    struct fixture *f = *state;
    struct xu_vcpu_regs regs;
    struct xu_unwind_result res;
    uint64_t pcs[16];

    assert_int_equal(sim_guest_chain(&f->g, 0, chain5, 5, &regs), 0);
    assert_int_equal(xu_sim_write_u64(f->g.sim, f->g.root, sim_guest_frame_addr(0, 5, 2) + 8, 0), 0);
    walk(f, &regs, pcs, 16, &res);
    assert_int_equal(res.end, XU_WALK_COMPLETE);
    assert_int_equal(res.depth, 3);
}

static void test_fp_below_sp(void **state)
{
    struct fixture *f = *state;
    struct xu_vcpu_regs regs;
    struct xu_unwind_result res;
    uint64_t pcs[16];

    assert_int_equal(sim_guest_chain(&f->g, 0, chain5, 5, &regs), 0);
    regs.sp = regs.fp + 64;
    walk(f, &regs, pcs, 16, &res);
    assert_int_equal(res.end, XU_WALK_BAD_FRAME);
    assert_int_equal(res.depth, 1);
}

static void test_not_long_mode_is_one_frame(void **state)
{
    struct fixture *f = *state;
    struct xu_vcpu_regs regs;
    struct xu_unwind_result res;
    uint64_t pcs[16];

    assert_int_equal(sim_guest_chain(&f->g, 0, chain5, 5, &regs), 0);
    regs.mmu.paging = XU_PAGING_NONE;
    walk(f, &regs, pcs, 16, &res);
    assert_int_equal(res.end, XU_WALK_NO_PAGING);
    assert_int_equal(res.depth, 1);
    assert_int_equal(pcs[0], chain5[0]);
}

static void test_garbage_registers(void **state)
{
    struct fixture *f = *state;
    struct xu_vcpu_regs regs;
    struct xu_unwind_result res;
    uint64_t pcs[16];
    static const uint64_t fps[] = { 1, 0x8, 0xfffffffffffffff8ULL, 0x0000800000000000ULL,
                                    0xdeadbeefdeadbee8ULL };
    unsigned int i;

    assert_int_equal(sim_guest_chain(&f->g, 0, chain5, 5, &regs), 0);
    regs.sp = 0;
    for (i = 0; i < sizeof(fps) / sizeof(fps[0]); i++) {
        regs.fp = fps[i];
        walk(f, &regs, pcs, 16, &res);
        assert_true(res.end == XU_WALK_BAD_FRAME || res.end == XU_WALK_UNMAPPED);
        assert_int_equal(res.depth, 1);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_normal_chain_keeps_outermost, setup, teardown),
        cmocka_unit_test_setup_teardown(test_entry_only, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cycle_is_bad_frame, setup, teardown),
        cmocka_unit_test_setup_teardown(test_self_loop, setup, teardown),
        cmocka_unit_test_setup_teardown(test_falling_frame_pointer, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unaligned, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unmapped, setup, teardown),
        cmocka_unit_test_setup_teardown(test_depth_limit, setup, teardown),
        cmocka_unit_test_setup_teardown(test_depth_one_reads_no_memory, setup, teardown),
        cmocka_unit_test_setup_teardown(test_zero_return_ends_chain, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fp_below_sp, setup, teardown),
        cmocka_unit_test_setup_teardown(test_not_long_mode_is_one_frame, setup, teardown),
        cmocka_unit_test_setup_teardown(test_garbage_registers, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
