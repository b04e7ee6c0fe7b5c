/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_x86_32_pagewalk.c - 32-bit x86 translation (paging off, two-level
 * with 4 MiB pages, PAE with 2 MiB pages) over tables written into the
 * simulated guest by an independent builder (sim_x86_32.h), read back
 * through guest memory (lib/mem) or through the walk itself with a
 * counting entry reader; hostile tables (reserved bits, loops, frames
 * past 4 GiB); and the frame rules that depend on the vCPU's mode.
 */
#include "config.h"

#include <elf.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "sim_x86_32.h"
#include "arch/xu_arch.h"
#include "mem/xu_mem.h"

#define NR_FRAMES 2048u

static const struct xu_arch_ops *a = &xu_arch_x86_32;

struct fixture {
    struct xu_sim *sim;
    struct xu_target t;
    struct xu_mem *m;
    struct sim_x86_32 g;
};

static struct fixture f;

static int setup_mode(void **state, enum xu_paging_mode mode)
{
    memset(&f, 0, sizeof(f));
    f.sim = xu_sim_new(XU_GUEST_HVM, NR_FRAMES, 1);
    assert_non_null(f.sim);
    xu_sim_set_arch(f.sim, a);
    assert_int_equal(xu_sim_target_open(f.sim, &f.t, NULL), 0);
    f.m = xu_mem_new(&f.t, NULL);
    assert_non_null(f.m);
    assert_int_equal(sim32_init(&f.g, f.sim, mode), 0);
    *state = &f;
    return 0;
}

static int setup_2level(void **state)
{
    return setup_mode(state, XU_PAGING_32);
}

static int setup_pae(void **state)
{
    return setup_mode(state, XU_PAGING_PAE);
}

static int teardown(void **state)
{
    (void)state;
    xu_mem_free(f.m);
    xu_target_close(&f.t);
    xu_sim_free(f.sim);
    return 0;
}

/* The walk itself, with a reader that counts entries and reads sim memory
 * (frames past the sim's memory fail to map, as a backend's would). */
struct counting {
    struct xu_sim *sim;
    unsigned int reads;
};

static enum xu_mem_fault count_read(void *ctx, uint64_t addr, uint64_t *pte)
{
    struct counting *c = ctx;
    const uint8_t *fr = xu_sim_frame(c->sim, addr >> XU_PAGE_SHIFT);

    c->reads++;
    assert_int_equal(addr & 7, 0);
    if (!fr)
        return XU_MEM_MAP_FAILED;
    memcpy(pte, fr + (addr & (XU_PAGE_SIZE - 1)), 8);
    return XU_MEM_OK;
}

static enum xu_mem_fault walk(uint64_t va, uint64_t *frame, unsigned int *reads)
{
    struct xu_vcpu_regs r;
    struct counting c = { .sim = f.sim };
    enum xu_mem_fault fault;

    sim32_regs(&f.g, 0, 0, 0, &r);
    fault = a->translate(&r.mmu, va, count_read, &c, frame);
    if (reads)
        *reads = c.reads;
    return fault;
}

static void context(void)
{
    struct xu_vcpu_regs r;

    sim32_regs(&f.g, 0, 0, 0, &r);
    xu_mem_begin(f.m);
    xu_mem_set_context(f.m, &r);
}

/* 4 KiB pages at even and odd directory and table slots (the two halves
 * of the 8-byte words the reader returns), read back through lib/mem. */
static void test_2level_pages(void **state)
{
    static const uint64_t vas[] = { 0x00001000, 0x00402000, 0xc0000000, 0xc0401000, 0xfffff000 };
    uint32_t v, got;
    size_t i;

    (void)state;
    for (i = 0; i < sizeof(vas) / sizeof(vas[0]); i++) {
        assert_int_equal(sim32_map_range(&f.g, vas[i], XU_PAGE_SIZE), 0);
        v = 0x11110000u + (uint32_t)i;
        assert_int_equal(sim32_write_u32(&f.g, vas[i] + 0xffc, v), 0);
    }
    context();
    for (i = 0; i < sizeof(vas) / sizeof(vas[0]); i++) {
        assert_int_equal(xu_mem_read(f.m, vas[i] + 0xffc, &got, 4), 0);
        assert_int_equal(got, 0x11110000u + (uint32_t)i);
    }
    /* unmapped, and past the 32-bit address space */
    assert_int_equal(xu_mem_read(f.m, 0x80000000, &got, 4), -XU_MEM_NOT_PRESENT);
    assert_int_equal(xu_mem_read(f.m, 0x100000000ULL, &got, 4), -XU_MEM_NON_CANONICAL);
}

/* A 4 MiB page under CR4.PSE: one entry read, the offset kept to 22 bits;
 * without PSE the PS bit means nothing and the entry is a table. */
static void test_2level_4m(void **state)
{
    struct xu_vcpu_regs r;
    struct counting c;
    uint64_t frame;
    unsigned int reads;

    (void)state;
    assert_int_equal(sim32_map(&f.g, 0xc0000000, 0x00400000, 1), 0);
    assert_int_equal(walk(0xc0123456, &frame, &reads), XU_MEM_OK);
    assert_int_equal(frame, (0x00400000 + 0x123456) >> 12);
    assert_int_equal(reads, 1);

    sim32_regs(&f.g, 0, 0, 0, &r);
    r.mmu.ctl = 0;
    c.sim = f.sim;
    c.reads = 0;
    /* the "table" is frame 0x400, whose slot 0x123 is zero: not present */
    assert_int_equal(a->translate(&r.mmu, 0xc0123456, count_read, &c, &frame),
                     XU_MEM_NOT_PRESENT);
    assert_int_equal(c.reads, 2);
}

/* PSE-36: a 4 MiB page's frame may lie past 4 GiB (bits 39:32 in 20:13).
 * The walk gives that frame; mapping it is the backend's to refuse, and
 * lib/mem reports the failure rather than reading anything. */
static void test_2level_frame_past_4g(void **state)
{
    uint64_t frame;
    uint32_t got;

    (void)state;
    assert_int_equal(sim32_map(&f.g, 0x00800000, 0x3400c00000ULL, 1), 0);
    assert_int_equal(walk(0x00812345, &frame, NULL), XU_MEM_OK);
    assert_int_equal(frame, (0x3400c00000ULL + 0x12345) >> 12);
    context();
    assert_int_equal(xu_mem_read(f.m, 0x00812345, &got, 4), -XU_MEM_MAP_FAILED);
    /* bit 21 of a 4 MiB entry is reserved */
    assert_int_equal(sim32_set(&f.g, 0x00800000, 2,
                               0x00c00000 | (1u << 21) | SIM32_PS | SIM32_P), 0);
    assert_int_equal(walk(0x00812345, &frame, NULL), XU_MEM_RESERVED);
}

/* A directory entry that points at the directory itself: the walk reads
 * two entries and stops, whatever the tables say. */
static void test_2level_loop(void **state)
{
    uint64_t frame;
    unsigned int reads;

    (void)state;
    assert_int_equal(sim32_set(&f.g, 0x40000000, 2, f.g.root | SIM32_P), 0);
    /* slot 0x100 of the directory, read as the table: itself */
    assert_int_equal(walk(0x40100000, &frame, &reads), XU_MEM_OK);
    assert_int_equal(frame, f.g.root >> 12);
    assert_int_equal(reads, 2);
    assert_int_equal(sim32_set(&f.g, 0x40000000, 2, 0), 0);
    assert_int_equal(walk(0x40000000, &frame, &reads), XU_MEM_NOT_PRESENT);
    assert_int_equal(reads, 1);
}

/* PAE: 4 KiB pages in every quarter of the space, read through lib/mem. */
static void test_pae_pages(void **state)
{
    static const uint64_t vas[] = { 0x00001000, 0x40201000, 0x80000000, 0xc1000000, 0xfffff000 };
    uint32_t got;
    size_t i;

    (void)state;
    for (i = 0; i < sizeof(vas) / sizeof(vas[0]); i++) {
        assert_int_equal(sim32_map_range(&f.g, vas[i], XU_PAGE_SIZE), 0);
        assert_int_equal(sim32_write_u32(&f.g, vas[i] + 4, 0x22220000u + (uint32_t)i), 0);
    }
    context();
    for (i = 0; i < sizeof(vas) / sizeof(vas[0]); i++) {
        assert_int_equal(xu_mem_read(f.m, vas[i] + 4, &got, 4), 0);
        assert_int_equal(got, 0x22220000u + (uint32_t)i);
    }
    assert_int_equal(xu_mem_read(f.m, 0x40000000, &got, 4), -XU_MEM_NOT_PRESENT);
    assert_int_equal(xu_mem_read(f.m, 0x1c0000000ULL, &got, 4), -XU_MEM_NON_CANONICAL);
}

/* PAE 2 MiB pages (two reads), frames past 4 GiB, NX accepted. */
static void test_pae_2m_and_nx(void **state)
{
    uint64_t frame;
    unsigned int reads;

    (void)state;
    assert_int_equal(sim32_map(&f.g, 0xc0200000, 0x123400000ULL, 1), 0);
    assert_int_equal(walk(0xc02abcde, &frame, &reads), XU_MEM_OK);
    assert_int_equal(frame, (0x123400000ULL + 0xabcde) >> 12);
    assert_int_equal(reads, 2);
    assert_int_equal(sim32_set(&f.g, 0xc0200000, 2,
                               0x123400000ULL | SIM32_PS | SIM32_P | (1ULL << 63)), 0);
    assert_int_equal(walk(0xc02abcde, &frame, NULL), XU_MEM_OK);
    assert_int_equal(frame, (0x123400000ULL + 0xabcde) >> 12);
}

/* Reserved bits at each PAE level. */
static void test_pae_reserved(void **state)
{
    uint64_t frame, pdpte, pde;

    (void)state;
    assert_int_equal(sim32_map_range(&f.g, 0x80000000, XU_PAGE_SIZE), 0);
    assert_int_equal(walk(0x80000000, &frame, NULL), XU_MEM_OK);

    /* a PDPT entry with RW (bit 1), with NX, with bits above 51 */
    memcpy(&pdpte, (uint8_t *)xu_sim_frame(f.sim, f.g.root >> 12) + 2 * 8, 8);
    assert_int_equal(pdpte & 1, 1);
    assert_int_equal(sim32_set(&f.g, 0x80000000, 3, pdpte | SIM32_RW), 0);
    assert_int_equal(walk(0x80000000, &frame, NULL), XU_MEM_RESERVED);
    assert_int_equal(sim32_set(&f.g, 0x80000000, 3, pdpte | (1ULL << 63)), 0);
    assert_int_equal(walk(0x80000000, &frame, NULL), XU_MEM_RESERVED);
    assert_int_equal(sim32_set(&f.g, 0x80000000, 3, pdpte | (1ULL << 55)), 0);
    assert_int_equal(walk(0x80000000, &frame, NULL), XU_MEM_RESERVED);
    /* the accessed bit (5), as QEMU's emulation leaves it in a live guest's PDPT */
    assert_int_equal(sim32_set(&f.g, 0x80000000, 3, pdpte | (1ULL << 5)), 0);
    assert_int_equal(walk(0x80000000, &frame, NULL), XU_MEM_OK);
    assert_int_equal(sim32_set(&f.g, 0x80000000, 3, 0), 0);
    assert_int_equal(walk(0x80000000, &frame, NULL), XU_MEM_NOT_PRESENT);
    assert_int_equal(sim32_set(&f.g, 0x80000000, 3, pdpte), 0);
    assert_int_equal(walk(0x80000000, &frame, NULL), XU_MEM_OK);

    /* a 2 MiB entry with bits 20:13 set, a directory entry above bit 51 */
    pde = 0x40000000ULL | SIM32_PS | SIM32_P;
    assert_int_equal(sim32_set(&f.g, 0x80000000, 2, pde | (1ULL << 13)), 0);
    assert_int_equal(walk(0x80000000, &frame, NULL), XU_MEM_RESERVED);
    assert_int_equal(sim32_set(&f.g, 0x80000000, 2, pde | (1ULL << 60)), 0);
    assert_int_equal(walk(0x80000000, &frame, NULL), XU_MEM_RESERVED);
    assert_int_equal(sim32_set(&f.g, 0x80000000, 2, pde), 0);
    assert_int_equal(walk(0x80000000, &frame, NULL), XU_MEM_OK);
    assert_int_equal(frame, 0x40000000ULL >> 12);
}

/* A 32-bit PV guest's PDPT is a long-mode L3 under Xen's compat layer: RW,
 * U and A set (0x...027, as Xen 4.8's builder left it in the lab's guest)
 * and NX are the CPU's bits there, a 1 GiB page (PS) is refused; without
 * the flag (HVM/PVH PAE) RW and U stay reserved. */
static void test_pae_pv_l3(void **state)
{
    struct xu_vcpu_regs r;
    struct counting c = { .sim = f.sim };
    uint64_t frame, pdpte;

    (void)state;
    assert_int_equal(sim32_map_range(&f.g, 0xc0000000, XU_PAGE_SIZE), 0);
    memcpy(&pdpte, (uint8_t *)xu_sim_frame(f.sim, f.g.root >> 12) + 3 * 8, 8);
    assert_int_equal(sim32_set(&f.g, 0xc0000000, 3, pdpte | 0x26), 0);
    assert_int_equal(walk(0xc0000000, &frame, NULL), XU_MEM_RESERVED);

    sim32_regs(&f.g, 0, 0, 0, &r);
    r.mmu.ctl = XU_X86_32_CTL_PV_L3;
    assert_int_equal(a->translate(&r.mmu, 0xc0000000, count_read, &c, &frame), XU_MEM_OK);
    assert_int_equal(sim32_set(&f.g, 0xc0000000, 3, pdpte | 0x26 | (1ULL << 63)), 0);
    assert_int_equal(a->translate(&r.mmu, 0xc0000000, count_read, &c, &frame), XU_MEM_OK);
    assert_int_equal(sim32_set(&f.g, 0xc0000000, 3, pdpte | SIM32_PS), 0);
    assert_int_equal(a->translate(&r.mmu, 0xc0000000, count_read, &c, &frame),
                     XU_MEM_RESERVED);
    assert_int_equal(sim32_set(&f.g, 0xc0000000, 3, pdpte | (1ULL << 56)), 0);
    assert_int_equal(a->translate(&r.mmu, 0xc0000000, count_read, &c, &frame),
                     XU_MEM_RESERVED);
}

/* Every entry pointing back at the PDPT's frame: three reads at most. */
static void test_pae_loop(void **state)
{
    uint64_t frame;
    unsigned int reads;

    (void)state;
    assert_int_equal(sim32_set(&f.g, 0, 3, f.g.root | SIM32_P), 0);
    /* slot 0 of the PDPT read as a directory, then as a table: itself */
    assert_int_equal(walk(0x00000000, &frame, &reads), XU_MEM_OK);
    assert_int_equal(frame, f.g.root >> 12);
    assert_int_equal(reads, 3);
}

/* Paging off: identity within 4 GiB, readable only in protected mode. */
static void test_no_paging_and_modes(void **state)
{
    struct xu_vcpu_regs r;
    uint64_t frame;
    uint32_t v = 0x5a5a5a5a, got;

    (void)state;
    memcpy((uint8_t *)xu_sim_frame(f.sim, 100) + 8, &v, 4);
    memset(&r, 0, sizeof(r));
    r.online = true;
    r.mmu.paging = XU_PAGING_NONE;
    r.cr0 = SIM32_CR0_PE;
    assert_true(a->stack_readable(&r));
    xu_mem_begin(f.m);
    xu_mem_set_context(f.m, &r);
    assert_int_equal(xu_mem_read(f.m, 100 * 4096 + 8, &got, 4), 0);
    assert_int_equal(got, v);
    assert_int_equal(a->translate(&r.mmu, 0x1fffff000ULL, NULL, NULL, &frame),
                     XU_MEM_NON_CANONICAL);
    r.cr0 = 0;                                  /* real mode */
    assert_false(a->stack_readable(&r));
    r.mmu.paging = XU_PAGING_LONG4;             /* switched to long mode */
    assert_false(a->stack_readable(&r));
    assert_int_equal(a->translate(&r.mmu, 0x1000, NULL, NULL, &frame), XU_MEM_UNSUPPORTED);
    r.mmu.paging = XU_PAGING_PAE;
    assert_true(a->stack_readable(&r));
    /* and the 64-bit rules do not read a 32-bit vCPU */
    assert_false(xu_arch_x86_64.stack_readable(&r));
    r.mmu.paging = XU_PAGING_32;
    assert_false(xu_arch_x86_64.stack_readable(&r));
}

/* The same root in two-level and PAE mode are different spaces. */
static void test_space_key(void **state)
{
    struct xu_mmu m32 = { .paging = XU_PAGING_32, .root = 0x5000 };
    struct xu_mmu pae = { .paging = XU_PAGING_PAE, .root = 0x5000 };

    (void)state;
    assert_int_not_equal(a->space_key(&m32), a->space_key(&pae));
    pae.root = 0x5020;
    assert_int_not_equal(a->space_key(&pae), a->space_key(&m32));
}

static void test_registry(void **state)
{
    (void)state;
    assert_ptr_equal(xu_arch_by_name("x86_32"), a);
    assert_ptr_equal(xu_arch_by_elf_machine(EM_386), a);
    assert_int_equal(a->word_bytes, 4);
    assert_int_equal(a->record_ra_off, 4);
    assert_int_equal(a->record_size, 8);
    assert_int_equal(a->dwarf_sp, 4);
    assert_int_equal(a->dwarf_fp, 5);
    assert_int_equal(a->dwarf_ra, 8);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_2level_pages, setup_2level, teardown),
        cmocka_unit_test_setup_teardown(test_2level_4m, setup_2level, teardown),
        cmocka_unit_test_setup_teardown(test_2level_frame_past_4g, setup_2level, teardown),
        cmocka_unit_test_setup_teardown(test_2level_loop, setup_2level, teardown),
        cmocka_unit_test_setup_teardown(test_pae_pages, setup_pae, teardown),
        cmocka_unit_test_setup_teardown(test_pae_2m_and_nx, setup_pae, teardown),
        cmocka_unit_test_setup_teardown(test_pae_reserved, setup_pae, teardown),
        cmocka_unit_test_setup_teardown(test_pae_pv_l3, setup_pae, teardown),
        cmocka_unit_test_setup_teardown(test_pae_loop, setup_pae, teardown),
        cmocka_unit_test_setup_teardown(test_no_paging_and_modes, setup_pae, teardown),
        cmocka_unit_test_setup_teardown(test_space_key, setup_pae, teardown),
        cmocka_unit_test_setup_teardown(test_registry, setup_pae, teardown),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
