/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_mem.c - the guest page walk and its caches, over the simulated guest
 * (whose tables are built by an independent writer in sim.c).
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "mem/xu_mem.h"
#include "xu_sim.h"

#define VA 0xffffffff80200000ULL

struct fixture {
    struct xu_sim *sim;
    struct xu_target t;
    struct xu_mem *m;
    uint64_t root;
    struct xu_vcpu_regs regs;
};

static int setup_n(void **state, size_t frames, unsigned int max_frames)
{
    static struct fixture f;
    struct xu_mem_config cfg = { .max_frames = max_frames };

    memset(&f, 0, sizeof(f));
    f.sim = xu_sim_new(XU_GUEST_PVH, frames, 1);
    assert_non_null(f.sim);
    xu_sim_target_open(f.sim, &f.t, NULL);
    f.root = xu_sim_new_root(f.sim);
    f.m = xu_mem_new(&f.t, &cfg);
    assert_non_null(f.m);
    f.regs.online = true;
    f.regs.mmu.paging = XU_PAGING_LONG4;
    f.regs.mmu.root = f.root;
    xu_mem_set_context(f.m, &f.regs);
    xu_mem_begin(f.m);
    *state = &f;
    return 0;
}

static int setup(void **state) { return setup_n(state, 4096, 0); }
static int setup_small_cache(void **state) { return setup_n(state, 4096, 4); }
/* 2 GiB of (lazily zeroed) guest memory, for an aligned 1 GiB page */
static int setup_big(void **state) { return setup_n(state, 2 * 262144 + 64, 0); }

static int teardown(void **state)
{
    struct fixture *f = *state;
    struct xu_sim_counters c;

    xu_mem_free(f->m);
    xu_sim_get_counters(f->sim, &c);
    /* every mapping is released by xu_mem_free */
    assert_int_equal(c.maps, c.unmaps);
    xu_target_close(&f->t);
    xu_sim_free(f->sim);
    return 0;
}

/* Allocate count contiguous frames aligned to count (a power of two). */
static uint64_t alloc_aligned(struct xu_sim *sim, uint64_t count)
{
    uint64_t f, first;

    do {
        f = xu_sim_alloc_frame(sim);
        assert_true(f != UINT64_MAX);
    } while (f % count);
    first = f;
    while (--count) {
        f = xu_sim_alloc_frame(sim);
        assert_true(f != UINT64_MAX);
    }
    return first;
}

static void test_4k_read_back(void **state)
{
    struct fixture *f = *state;
    uint64_t v = 0x1122334455667788ULL, got = 0, frame;

    assert_int_equal(xu_sim_map_range(f->sim, f->root, VA, 8192), 0);
    assert_int_equal(xu_sim_write_u64(f->sim, f->root, VA + 0x10, v), 0);
    assert_int_equal(xu_mem_read_u64(f->m, VA + 0x10, &got), 0);
    assert_int_equal(got, v);
    assert_int_equal(xu_mem_translate(f->m, VA + 0x1234, &frame), XU_MEM_OK);
}

static void test_read_crosses_pages(void **state)
{
    struct fixture *f = *state;
    uint8_t in[64], out[64];
    uint64_t got;
    size_t i;

    for (i = 0; i < sizeof(in); i++)
        in[i] = (uint8_t)(i * 7 + 1);
    assert_int_equal(xu_sim_map_range(f->sim, f->root, VA, 8192), 0);
    /* pages are separate frames: the copy must be stitched */
    assert_int_equal(xu_sim_write(f->sim, f->root, VA + 4096 - 20, in, sizeof(in)), 0);
    assert_int_equal(xu_mem_read(f->m, VA + 4096 - 20, out, sizeof(out)), 0);
    assert_memory_equal(in, out, sizeof(in));
    assert_int_equal(xu_mem_read_u64(f->m, VA + 4096 - 4, &got), 0);
    assert_memory_equal(&got, in + 16, 8);
}

static void test_2m_page(void **state)
{
    struct fixture *f = *state;
    uint64_t base = alloc_aligned(f->sim, 512), got = 0, frame;
    uint64_t *page = xu_sim_frame(f->sim, base + 300);

    assert_int_equal(xu_sim_map(f->sim, f->root, VA, base << 12, XU_SIM_2M), 0);
    page[5] = 0xabcdefULL;
    assert_int_equal(xu_mem_read_u64(f->m, VA + 300 * 4096 + 40, &got), 0);
    assert_int_equal(got, 0xabcdefULL);
    assert_int_equal(xu_mem_translate(f->m, VA + 300 * 4096, &frame), XU_MEM_OK);
    assert_int_equal(frame, base + 300);
}

static void test_1g_page(void **state)
{
    struct fixture *f = *state;
    uint64_t base, got = 0, frame;
    uint64_t *page;
    const uint64_t va = 0xffffffc000000000ULL;     /* 1G aligned */

    base = alloc_aligned(f->sim, 262144);
    page = xu_sim_frame(f->sim, base + 70000);
    assert_int_equal(xu_sim_map(f->sim, f->root, va, base << 12, XU_SIM_1G), 0);
    page[1] = 42;
    assert_int_equal(xu_mem_read_u64(f->m, va + 70000ULL * 4096 + 8, &got), 0);
    assert_int_equal(got, 42);
    assert_int_equal(xu_mem_translate(f->m, va + 70000ULL * 4096, &frame), XU_MEM_OK);
    assert_int_equal(frame, base + 70000);
}

static void test_not_present_each_level(void **state)
{
    struct fixture *f = *state;
    uint64_t got, frame;
    int level;

    for (level = 1; level <= 4; level++) {
        assert_int_equal(xu_sim_map_range(f->sim, f->root, VA, 4096), 0);
        xu_mem_begin(f->m);
        assert_int_equal(xu_mem_read_u64(f->m, VA, &got), 0);
        assert_int_equal(xu_sim_set_pte(f->sim, f->root, VA, level, 0), 0);
        xu_mem_begin(f->m);     /* a new sample: translations are redone */
        assert_int_equal(xu_mem_translate(f->m, VA, &frame), XU_MEM_NOT_PRESENT);
        assert_int_equal(xu_mem_read_u64(f->m, VA, &got), -XU_MEM_NOT_PRESENT);
    }
}

static void test_reserved_bits(void **state)
{
    struct fixture *f = *state;
    uint64_t base = alloc_aligned(f->sim, 512), frame;

    /* a 2M entry with bit 13 set: reserved */
    assert_int_equal(xu_sim_map(f->sim, f->root, VA, base << 12, XU_SIM_2M), 0);
    assert_int_equal(xu_sim_set_pte(f->sim, f->root, VA, 2,
                                    (base << 12) | (1ULL << 13) | XU_PTE_P | XU_PTE_PS), 0);
    assert_int_equal(xu_mem_translate(f->m, VA, &frame), XU_MEM_RESERVED);
    /* PS in a PML4 entry: reserved */
    assert_int_equal(xu_sim_set_pte(f->sim, f->root, VA, 4, (base << 12) | XU_PTE_P | XU_PTE_PS), 0);
    xu_mem_begin(f->m);
    assert_int_equal(xu_mem_translate(f->m, VA, &frame), XU_MEM_RESERVED);
}

static void test_loop_in_tables_terminates(void **state)
{
    struct fixture *f = *state;
    uint64_t frame, got;

    /* PML4 slot 257 points at the PML4 itself (a "recursive" entry) and the
     * address uses slot 257 at every level: the walk
     * has four levels whatever the entries say, so it ends on the root. */
    assert_int_equal(xu_sim_map_range(f->sim, f->root, VA, 4096), 0);
    assert_int_equal(xu_sim_set_pte(f->sim, f->root, 0xffff80c060301000ULL, 4,
                                    f->root | XU_PTE_P | XU_PTE_RW), 0);
    assert_int_equal(xu_mem_translate(f->m, 0xffff80c060301000ULL, &frame), XU_MEM_OK);
    assert_int_equal(frame, f->root >> 12);
    assert_int_equal(xu_mem_read_u64(f->m, 0xffff80c060301000ULL, &got), 0);
}

static void test_non_canonical_and_modes(void **state)
{
    struct fixture *f = *state;
    uint64_t frame;

    assert_int_equal(xu_mem_translate(f->m, 0x0000800000000000ULL, &frame), XU_MEM_NON_CANONICAL);
    f->regs.mmu.paging = XU_PAGING_PAE;
    xu_mem_set_context(f->m, &f->regs);
    assert_int_equal(xu_mem_translate(f->m, 0x1000, &frame), XU_MEM_UNSUPPORTED);
    f->regs.mmu.paging = XU_PAGING_NONE;
    xu_mem_set_context(f->m, &f->regs);
    assert_int_equal(xu_mem_translate(f->m, 0x5123, &frame), XU_MEM_OK);
    assert_int_equal(frame, 5);
}

static void test_frame_cache_is_bounded(void **state)
{
    struct fixture *f = *state;
    struct xu_mem_stats st;
    struct xu_sim_counters c;
    uint64_t got, i;

    assert_int_equal(xu_sim_map_range(f->sim, f->root, VA, 200 * 4096), 0);
    for (i = 0; i < 200; i++) {
        assert_int_equal(xu_sim_write_u64(f->sim, f->root, VA + i * 4096, i), 0);
        assert_int_equal(xu_mem_read_u64(f->m, VA + i * 4096, &got), 0);
        assert_int_equal(got, i);
    }
    xu_mem_get_stats(f->m, &st);
    xu_sim_get_counters(f->sim, &c);
    assert_true(st.frames_mapped <= 4);
    assert_true(c.maps - c.unmaps <= 4);
    assert_true(st.frame_evictions > 0);
}

static void test_tlb_hits_and_epoch(void **state)
{
    struct fixture *f = *state;
    struct xu_mem_stats a, b;
    uint64_t got;

    assert_int_equal(xu_sim_map_range(f->sim, f->root, VA, 4096), 0);
    assert_int_equal(xu_mem_read_u64(f->m, VA, &got), 0);
    xu_mem_get_stats(f->m, &a);
    assert_int_equal(xu_mem_read_u64(f->m, VA + 8, &got), 0);
    xu_mem_get_stats(f->m, &b);
    assert_int_equal(b.tlb_hits, a.tlb_hits + 1);
    assert_int_equal(b.walks, a.walks);
    xu_mem_begin(f->m);
    assert_int_equal(xu_mem_read_u64(f->m, VA + 16, &got), 0);
    xu_mem_get_stats(f->m, &a);
    assert_int_equal(a.walks, b.walks + 1);
    /* but the page-table frames were still mapped: no new map calls */
    assert_int_equal(a.frame_misses, b.frame_misses);
}

/*
 * A PV vCPU stopped in user mode runs on a user table that need not map the
 * kernel: the upper half goes through the kernel table (root_hi), the lower
 * half through the user one, and switching between the two contexts never
 * serves one's translation to the other.
 */
static void test_pv_user_table_with_kernel_half(void **state)
{
    struct fixture *f = *state;
    const uint64_t user_va = 0x400000ULL;
    uint64_t user = xu_sim_new_root(f->sim), got = 0;
    struct xu_vcpu_regs u = f->regs;

    assert_true((int64_t)VA < 0);
    assert_int_equal(xu_sim_map_range(f->sim, f->root, VA, 4096), 0);
    assert_int_equal(xu_sim_write_u64(f->sim, f->root, VA, 0x6b65726eULL), 0);
    assert_int_equal(xu_sim_map_range(f->sim, user, user_va, 4096), 0);
    assert_int_equal(xu_sim_write_u64(f->sim, user, user_va, 0x75736572ULL), 0);

    u.mmu.root = user;
    xu_mem_set_context(f->m, &u);
    assert_int_not_equal(xu_mem_read_u64(f->m, VA, &got), 0);     /* no kernel half */
    u.mmu.root_hi = f->root;
    xu_mem_set_context(f->m, &u);
    assert_int_equal(xu_mem_read_u64(f->m, VA, &got), 0);
    assert_int_equal(got, 0x6b65726eULL);
    assert_int_equal(xu_mem_read_u64(f->m, user_va, &got), 0);
    assert_int_equal(got, 0x75736572ULL);

    xu_mem_set_context(f->m, &f->regs);                             /* the kernel table alone */
    assert_int_not_equal(xu_mem_read_u64(f->m, user_va, &got), 0);
    assert_int_equal(xu_mem_read_u64(f->m, VA, &got), 0);
    assert_int_equal(got, 0x6b65726eULL);
}

/*
 * The page of the last read is remembered: it must be forgotten when its
 * frame is evicted, and when a new sample starts (the guest may have
 * remapped the address meanwhile).
 */
static void test_remembered_page_never_stale(void **state)
{
    struct fixture *f = *state;
    uint64_t got, i, other;

    assert_int_equal(xu_sim_map_range(f->sim, f->root, VA, 8 * 4096), 0);
    for (i = 0; i < 8; i++)
        assert_int_equal(xu_sim_write_u64(f->sim, f->root, VA + i * 4096, 100 + i), 0);
    assert_int_equal(xu_mem_read_u64(f->m, VA, &got), 0);
    assert_int_equal(got, 100);
    /* evict page 0's frame from the 4-entry cache */
    for (i = 1; i < 8; i++) {
        assert_int_equal(xu_mem_read_u64(f->m, VA + i * 4096, &got), 0);
        assert_int_equal(got, 100 + i);
    }
    assert_int_equal(xu_mem_read_u64(f->m, VA + 8, &got), 0);
    assert_int_equal(xu_mem_read_u64(f->m, VA, &got), 0);
    assert_int_equal(got, 100);

    /* the guest remaps page 0 to a fresh frame between two samples */
    other = xu_sim_alloc_frame(f->sim);
    assert_true(other != UINT64_MAX);
    ((uint64_t *)xu_sim_frame(f->sim, other))[0] = 4242;
    assert_int_equal(xu_sim_set_pte(f->sim, f->root, VA, 1, (other << 12) | XU_PTE_P), 0);
    xu_mem_begin(f->m);
    assert_int_equal(xu_mem_read_u64(f->m, VA, &got), 0);
    assert_int_equal(got, 4242);
}

static void test_map_failure_then_recovery(void **state)
{
    struct fixture *f = *state;
    uint64_t got;

    assert_int_equal(xu_sim_map_range(f->sim, f->root, VA, 4096), 0);
    xu_sim_fail_maps(f->sim, 1);
    assert_int_equal(xu_mem_read_u64(f->m, VA, &got), -XU_MEM_MAP_FAILED);
    assert_int_equal(xu_mem_read_u64(f->m, VA, &got), 0);
}

static void test_frames_beyond_memory(void **state)
{
    struct fixture *f = *state;
    uint64_t got;

    /* a leaf pointing past the guest's memory: the backend refuses to map */
    assert_int_equal(xu_sim_map_range(f->sim, f->root, VA, 4096), 0);
    assert_int_equal(xu_sim_set_pte(f->sim, f->root, VA, 1, (0xfffffffULL << 12) | XU_PTE_P), 0);
    assert_int_equal(xu_mem_read_u64(f->m, VA, &got), -XU_MEM_MAP_FAILED);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_4k_read_back, setup, teardown),
        cmocka_unit_test_setup_teardown(test_read_crosses_pages, setup, teardown),
        cmocka_unit_test_setup_teardown(test_2m_page, setup, teardown),
        cmocka_unit_test_setup_teardown(test_1g_page, setup_big, teardown),
        cmocka_unit_test_setup_teardown(test_not_present_each_level, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reserved_bits, setup, teardown),
        cmocka_unit_test_setup_teardown(test_loop_in_tables_terminates, setup, teardown),
        cmocka_unit_test_setup_teardown(test_non_canonical_and_modes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_frame_cache_is_bounded, setup_small_cache, teardown),
        cmocka_unit_test_setup_teardown(test_tlb_hits_and_epoch, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pv_user_table_with_kernel_half, setup, teardown),
        cmocka_unit_test_setup_teardown(test_remembered_page_never_stale, setup_small_cache, teardown),
        cmocka_unit_test_setup_teardown(test_map_failure_then_recovery, setup, teardown),
        cmocka_unit_test_setup_teardown(test_frames_beyond_memory, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
