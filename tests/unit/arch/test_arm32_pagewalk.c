/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_arm32_pagewalk.c - AArch32 stage-1 translation: short descriptors
 * (TTBR0/TTBR1 split by TTBCR.N, sections, supersections, large and small
 * pages) and LPAE (T0SZ/T1SZ ranges, 1 GiB and 2 MiB blocks, pages), on
 * tables written into a small physical memory read through a counting
 * entry reader, hostile tables included; then one read through lib/mem on
 * the simulated guest, and the arm32 rules that depend on the MMU state.
 */
#include "config.h"

#include <elf.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "xu_sim.h"
#include "arch/xu_arch.h"
#include "mem/xu_mem.h"

#define PHYS_BYTES (512u << 10)

static uint8_t phys[PHYS_BYTES];
static unsigned int reads;
static bool misaligned;

static enum xu_mem_fault read_pte(void *ctx, uint64_t addr, uint64_t *pte)
{
    (void)ctx;
    reads++;
    if (addr & 7)
        misaligned = true;
    if (addr > PHYS_BYTES - 8)
        return XU_MEM_MAP_FAILED;
    memcpy(pte, phys + addr, 8);        /* the host is little-endian, as the guest */
    return XU_MEM_OK;
}

static void put32(uint64_t addr, uint32_t v)
{
    memcpy(phys + addr, &v, 4);
}

static void put64(uint64_t addr, uint64_t v)
{
    memcpy(phys + addr, &v, 8);
}

static int reset(void **state)
{
    (void)state;
    memset(phys, 0, sizeof(phys));
    reads = 0;
    misaligned = false;
    return 0;
}

static struct xu_mmu mmu(uint64_t ttbr0, uint64_t ttbr1, uint64_t ttbcr)
{
    struct xu_mmu m = { .paging = XU_PAGING_ARM32, .root = ttbr0, .root_hi = ttbr1,
                        .ctl = ttbcr };

    return m;
}

static enum xu_mem_fault walk(const struct xu_mmu *m, uint64_t va, uint64_t *frame)
{
    *frame = 0xdead;
    return xu_arch_arm32.translate(m, va, read_pte, NULL, frame);
}

/* short descriptors */
#define L1_TABLE  0x1u
#define L1_SECT   0x2u
#define L1_SUPER  (0x2u | (1u << 18))
#define L2_LARGE  0x1u
#define L2_SMALL  0x2u

static void test_short_section_and_pages(void **state)
{
    struct xu_mmu m = mmu(0x8000, 0, 0);    /* N = 0: TTBR0 for all, 16 KiB table */
    unsigned int i;
    uint64_t f;

    (void)state;
    /* 1 MiB section: VA 0xc0100000 -> PA 0x80000000 */
    put32(0x8000 + (0xc01u * 4), 0x80000000u | L1_SECT);
    assert_int_equal(walk(&m, 0xc0123456, &f), XU_MEM_OK);
    assert_int_equal(f, 0x80023456ULL >> 12);
    assert_int_equal(reads, 1);
    /* a page table at 0x10400 for the MiB at 0x00200000: small and large pages */
    put32(0x8000 + 2 * 4, 0x10400u | L1_TABLE);
    put32(0x10400 + 0x34 * 4, 0x7654f000u | L2_SMALL | 1);     /* XN set: still a page */
    assert_int_equal(walk(&m, 0x00234abc, &f), XU_MEM_OK);
    assert_int_equal(f, 0x7654fULL);
    for (i = 0x40; i < 0x50; i++)       /* a large page repeats in 16 entries */
        put32(0x10400 + i * 4, 0x12340000u | L2_LARGE);
    assert_int_equal(walk(&m, 0x0024fabc, &f), XU_MEM_OK);
    assert_int_equal(f, 0x1234fULL);          /* VA[15:0] kept: 0xfabc -> page 0xf */
    /* entries at addresses 4 mod 8 come from the high half of an aligned read */
    put32(0x8000 + 3 * 4, 0x00500000u | L1_SECT);
    assert_int_equal(walk(&m, 0x00312345, &f), XU_MEM_OK);
    assert_int_equal(f, 0x00512345ULL >> 12);
    assert_false(misaligned);
}

static void test_short_supersection(void **state)
{
    struct xu_mmu m = mmu(0x8000, 0, 0);
    uint64_t f;
    /* base 0x12000000, extended base 35:32 = 0x3, 39:36 = 0xa */
    uint32_t d = 0x12000000u | L1_SUPER | (0x3u << 20) | (0xau << 5);

    (void)state;
    put32(0x8000 + 0x40a * 4, d);       /* one of the 16 repeated entries */
    assert_int_equal(walk(&m, 0x40abcdef, &f), XU_MEM_OK);
    assert_int_equal(f, 0xa312abcdefULL >> 12);
}

static void test_short_ttbcr_n_split(void **state)
{
    /* N = 2: VAs below 1 GiB walk TTBR0 (a 4 KiB table), others TTBR1 */
    struct xu_mmu m = mmu(0x20000 | 0x59 /* attribute bits */, 0x40000 | 0x1b, 2);
    uint64_t f;

    (void)state;
    put32(0x20000 + 0x3ffu * 4, 0x00100000u | L1_SECT);     /* last entry of TTBR0's 4 KiB */
    put32(0x40000 + 0xc00u * 4, 0x00900000u | L1_SECT);
    assert_int_equal(walk(&m, 0x3ff00010, &f), XU_MEM_OK);
    assert_int_equal(f, 0x00100ULL);
    assert_int_equal(walk(&m, 0xc0000010, &f), XU_MEM_OK);
    assert_int_equal(f, 0x00900ULL);
    /* PD1 disables TTBR1's walks, PD0 TTBR0's */
    m.ctl = 2 | (1u << 5);
    assert_int_equal(walk(&m, 0xc0000010, &f), XU_MEM_NON_CANONICAL);
    assert_int_equal(walk(&m, 0x3ff00010, &f), XU_MEM_OK);
    m.ctl = 2 | (1u << 4);
    assert_int_equal(walk(&m, 0x3ff00010, &f), XU_MEM_NON_CANONICAL);
}

static void test_short_faults(void **state)
{
    struct xu_mmu m = mmu(0x8000, 0, 0);
    uint64_t f;

    (void)state;
    assert_int_equal(walk(&m, 0x00100000, &f), XU_MEM_NOT_PRESENT);    /* type 00 */
    put32(0x8000 + 1 * 4, 0x10000u | L1_TABLE);
    assert_int_equal(walk(&m, 0x00100000, &f), XU_MEM_NOT_PRESENT);    /* L2 type 00 */
    /* a table pointing outside memory: the reader's failure, after two reads */
    put32(0x8000 + 1 * 4, 0xfff00000u | L1_TABLE);
    reads = 0;
    assert_int_equal(walk(&m, 0x00100000, &f), XU_MEM_MAP_FAILED);
    assert_int_equal(reads, 2);
    /* a 32-bit guest has no address above 4 GiB */
    assert_int_equal(walk(&m, 0x100000000ULL, &f), XU_MEM_NON_CANONICAL);
    /* big-endian tables are refused, not misread */
    m.ctl = 1ULL << 63;
    assert_int_equal(walk(&m, 0x0, &f), XU_MEM_UNSUPPORTED);
}

/* Every short table filled with table descriptors pointing at itself: the
 * walk still reads two entries and ends. */
static void test_short_hostile_self_loop(void **state)
{
    struct xu_mmu m = mmu(0x8000, 0x8000, 0);
    unsigned int i;
    uint64_t f;

    (void)state;
    for (i = 0; i < 4096; i++)
        put32(0x8000 + i * 4, 0x8000u | L1_TABLE);
    reads = 0;
    /* the second level reads the table as a large page at 0: two reads, done */
    assert_int_equal(walk(&m, 0x12345678, &f), XU_MEM_OK);
    assert_int_equal(reads, 2);
    assert_int_equal(f, 0x5ULL);
}

/* LPAE */
#define LD_BLOCK  0x1ULL
#define LD_TABLE  0x3ULL
#define EAE       (1ULL << 31)

static void test_lpae_split_3g_1g(void **state)
{
    /* Linux's 3G/1G split: T0SZ 0 with T1SZ 2 -> TTBR1 covers the top GiB */
    struct xu_mmu m = mmu(0x10000 | (5ULL << 48) /* ASID */, 0x20000, EAE | (2ULL << 16));
    uint64_t f;

    (void)state;
    /* TTBR0: 32-bit range, level 1 (4 entries); a level-2 table, a 2 MiB block */
    put64(0x10000 + 0 * 8, 0x30000 | LD_TABLE);
    put64(0x30000 + 1 * 8, 0x00a00000ULL | LD_BLOCK | (1ULL << 10));
    assert_int_equal(walk(&m, 0x00312345, &f), XU_MEM_OK);
    assert_int_equal(f, 0x00b12345ULL >> 12);
    assert_int_equal(reads, 2);
    /* TTBR1: 30-bit range, starts at level 2 (9 bits of index); a page */
    put64(0x20000 + 0 * 8, 0x40000 | LD_TABLE);
    put64(0x40000 + 0x12 * 8, 0xff12345000ULL | LD_TABLE);
    reads = 0;
    assert_int_equal(walk(&m, 0xc0012abc, &f), XU_MEM_OK);
    assert_int_equal(f, 0xff12345ULL);
    assert_int_equal(reads, 2);
    /* a 1 GiB block at level 1 of TTBR0 */
    put64(0x10000 + 2 * 8, 0x40000000ULL | LD_BLOCK);
    assert_int_equal(walk(&m, 0x80001234, &f), XU_MEM_OK);
    assert_int_equal(f, 0x40001ULL);
}

static void test_lpae_ranges(void **state)
{
    uint64_t f;
    /* T0SZ 1 (2 GiB) and T1SZ 2 (1 GiB): the GiB between is in neither */
    struct xu_mmu m = mmu(0x10000, 0x20000, EAE | 1 | (2ULL << 16));

    (void)state;
    put64(0x10000 + 1 * 8, 0x40000000ULL | LD_BLOCK);
    assert_int_equal(walk(&m, 0x40000000, &f), XU_MEM_OK);
    assert_int_equal(walk(&m, 0x80000000, &f), XU_MEM_NON_CANONICAL);
    /* T0SZ 1, T1SZ 0: TTBR1 takes the rest, as a 32-bit range */
    m.ctl = EAE | 1;
    put64(0x20000 + 3 * 8, 0x00000000ULL | LD_BLOCK);
    assert_int_equal(walk(&m, 0xc0000000, &f), XU_MEM_OK);
    assert_int_equal(f, 0ULL);
    /* EPD1 disables it */
    m.ctl = EAE | 1 | (1ULL << 23);
    assert_int_equal(walk(&m, 0xc0000000, &f), XU_MEM_NON_CANONICAL);
}

static void test_lpae_hostile(void **state)
{
    struct xu_mmu m = mmu(0x10000, 0, EAE);
    uint64_t f;

    (void)state;
    assert_int_equal(walk(&m, 0x1000, &f), XU_MEM_NOT_PRESENT);
    /* output bits above 40 */
    put64(0x10000, 0x0000010000000000ULL | LD_BLOCK);
    assert_int_equal(walk(&m, 0x1000, &f), XU_MEM_BAD_FRAME);
    /* level-3 type 01 is reserved */
    put64(0x10000, 0x30000 | LD_TABLE);
    put64(0x30000, 0x31000 | LD_TABLE);
    put64(0x31000 + 1 * 8, 0x5000 | LD_BLOCK);
    assert_int_equal(walk(&m, 0x1000, &f), XU_MEM_RESERVED);
    /* tables pointing at themselves: at most three reads */
    put64(0x10000, 0x10000 | LD_TABLE);
    reads = 0;
    (void)walk(&m, 0x0, &f);
    assert_true(reads <= 3);
}

static void test_mmu_off_and_modes(void **state)
{
    struct xu_mmu m = { .paging = XU_PAGING_NONE };
    uint64_t f;

    (void)state;
    assert_int_equal(walk(&m, 0x80123456, &f), XU_MEM_OK);
    assert_int_equal(f, 0x80123ULL);
    assert_int_equal(reads, 0);
    m.paging = XU_PAGING_ARM64;
    assert_int_equal(walk(&m, 0x1000, &f), XU_MEM_UNSUPPORTED);
}

/* The ops around the walk: readable stacks, the Thumb bit, address-space keys. */
static void test_arch_rules(void **state)
{
    const struct xu_arch_ops *a = xu_arch_by_name("arm32");
    struct xu_vcpu_regs r;
    struct xu_mmu m1 = mmu(0x10000 | (1ULL << 48), 0x20000, EAE);
    struct xu_mmu m2 = mmu(0x10000 | (2ULL << 48), 0x20000, EAE);
    struct xu_mmu m3 = mmu(0x18000, 0x20000, EAE);

    (void)state;
    assert_ptr_equal(a, &xu_arch_arm32);
    assert_ptr_equal(xu_arch_by_elf_machine(EM_ARM), &xu_arch_arm32);
    assert_int_equal(a->word_bytes, 4);
    assert_int_equal(a->dwarf_sp, 13);
    assert_int_equal(a->dwarf_ra, 14);
    assert_true(a->has_link_register);
    memset(&r, 0, sizeof(r));
    assert_int_equal(a->code_address(&r, 0x80001235), 0x80001234);
    assert_int_equal(a->code_address(&r, 0xffffffff80001234ULL), 0x80001234);
    r.mmu.paging = XU_PAGING_ARM32;
    assert_true(a->stack_readable(&r));
    r.mmu.paging = XU_PAGING_32;
    assert_false(a->stack_readable(&r));
    assert_int_equal(a->space_key(&m1), a->space_key(&m2));     /* ASIDs ignored */
    assert_int_not_equal(a->space_key(&m1), a->space_key(&m3));
    assert_string_equal(xu_paging_mode_name(XU_PAGING_ARM32), "arm32");
}

/* Through lib/mem on the simulated guest: tables in its frames, a word read. */
static void test_through_mem(void **state)
{
    struct xu_sim *sim = xu_sim_new(XU_GUEST_HVM, 64, 1);
    struct xu_target t;
    struct xu_mem *mem;
    struct xu_vcpu_regs r;
    uint8_t *l1, *page;
    uint32_t d, got = 0;

    (void)state;
    assert_non_null(sim);
    xu_sim_set_arch(sim, &xu_arch_arm32);
    assert_int_equal(xu_sim_target_open(sim, &t, NULL), 0);
    mem = xu_mem_new(&t, NULL);
    assert_non_null(mem);
    /* frames 8-11: the 16 KiB L1 table; frame 20: a page at VA 0xc0000000 by section */
    l1 = xu_sim_frame(sim, 8);
    assert_non_null(l1);
    for (d = 0; d < 4; d++)
        assert_non_null(xu_sim_frame(sim, 8 + d));
    d = 0x00000000u | L1_SECT;          /* VA 0xc00xxxxx -> PA 0x000xxxxx */
    memcpy((uint8_t *)xu_sim_frame(sim, 11) + (0xc00u * 4 - 0x3000), &d, 4);
    page = xu_sim_frame(sim, 20);
    d = 0xcafef00d;
    memcpy(page + 0x10, &d, 4);
    memset(&r, 0, sizeof(r));
    r.online = true;
    r.kernel_mode = true;
    r.mmu = mmu(8 << 12, 0, 0);
    xu_mem_begin(mem);
    xu_mem_set_context(mem, &r);
    assert_int_equal(xu_mem_read(mem, 0xc0014010, &got, 4), 0);
    assert_int_equal(got, 0xcafef00d);
    (void)l1;
    xu_mem_free(mem);
    xu_target_close(&t);
    xu_sim_free(sim);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_short_section_and_pages, reset),
        cmocka_unit_test_setup(test_short_supersection, reset),
        cmocka_unit_test_setup(test_short_ttbcr_n_split, reset),
        cmocka_unit_test_setup(test_short_faults, reset),
        cmocka_unit_test_setup(test_short_hostile_self_loop, reset),
        cmocka_unit_test_setup(test_lpae_split_3g_1g, reset),
        cmocka_unit_test_setup(test_lpae_ranges, reset),
        cmocka_unit_test_setup(test_lpae_hostile, reset),
        cmocka_unit_test_setup(test_mmu_off_and_modes, reset),
        cmocka_unit_test_setup(test_arch_rules, reset),
        cmocka_unit_test_setup(test_through_mem, reset),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
