/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_arm64_pagewalk.c - AArch64 stage-1 translation over tables written
 * into the simulated guest, read back through guest memory (lib/mem) or
 * through the walk itself with a counting entry reader; and the arm64
 * frame rules that depend on the MMU state (PAC stripping, address-space
 * keys, readable stacks).
 */
#include "config.h"

#include <elf.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "sim_arm64.h"
#include "arch/xu_arch.h"
#include "mem/xu_mem.h"

#define NR_FRAMES 4096u

#define TCR_EPD0 (1ULL << 7)
#define TCR_TBI0 (1ULL << 37)

struct fixture {
    struct xu_sim *sim;
    struct xu_target t;
    struct xu_mem *m;
};

static int setup(void **state)
{
    static struct fixture f;

    memset(&f, 0, sizeof(f));
    f.sim = xu_sim_new(XU_GUEST_HVM, NR_FRAMES, 1);
    assert_non_null(f.sim);
    xu_sim_set_arch(f.sim, &xu_arch_arm64);
    xu_sim_target_open(f.sim, &f.t, NULL);
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
    xu_sim_free(f->sim);
    return 0;
}

static struct xu_vcpu_regs mmu_on(uint64_t ttbr0, uint64_t ttbr1, uint64_t tcr)
{
    struct xu_vcpu_regs r;

    memset(&r, 0, sizeof(r));
    r.online = true;
    r.kernel_mode = true;
    r.mmu.paging = XU_PAGING_ARM64;
    r.mmu.root = ttbr0;
    r.mmu.root_hi = ttbr1;
    r.mmu.ctl = tcr;
    return r;
}

static enum xu_mem_fault xlate(struct fixture *f, const struct xu_vcpu_regs *r, uint64_t va,
                               uint64_t *frame)
{
    xu_mem_begin(f->m);
    xu_mem_set_context(f->m, r);
    return xu_mem_translate(f->m, va, frame);
}

/* A page of the granule at va, with a marker at its first word. */
static uint64_t map_marked(struct sim_a64 *a, uint64_t va, uint64_t marker)
{
    uint64_t pa = sim_a64_alloc(a->sim, 1ULL << a->granule_shift);

    assert_int_not_equal(pa, UINT64_MAX);
    assert_int_equal(sim_a64_map(a, va, pa, 3), 0);
    assert_int_equal(sim_a64_write_u64(a, va, marker), 0);
    return pa;
}

static void check_read(struct fixture *f, const struct xu_vcpu_regs *r, uint64_t va,
                       uint64_t want)
{
    uint64_t v = 0;

    xu_mem_begin(f->m);
    xu_mem_set_context(f->m, r);
    assert_int_equal(xu_mem_read_u64(f->m, va, &v), 0);
    assert_int_equal(v, want);
}

static void test_registry(void **state)
{
    (void)state;
    assert_ptr_equal(xu_arch_by_name("arm64"), &xu_arch_arm64);
    assert_ptr_equal(xu_arch_by_elf_machine(EM_AARCH64), &xu_arch_arm64);
    assert_ptr_equal(xu_arch_by_elf_machine(EM_X86_64), &xu_arch_x86_64);
    assert_int_equal(xu_arch_arm64.dwarf_sp, 31);
    assert_int_equal(xu_arch_arm64.dwarf_fp, 29);
    assert_int_equal(xu_arch_arm64.dwarf_ra, 30);
    assert_true(xu_arch_arm64.has_link_register);
    assert_string_equal(xu_paging_mode_name(XU_PAGING_ARM64), "arm64");
}

/* 4 KiB granule, 48-bit VAs: user addresses through TTBR0 (four levels),
 * kernel ones through TTBR1; ASID and CnP in the TTBRs are not address. */
static void test_4k_48bit_both_ranges(void **state)
{
    struct fixture *f = *state;
    struct sim_a64 lo, hi;
    uint64_t ulo = 0x0000ffffbeef3000ULL, khi = 0xffff800008123000ULL, pa_u, pa_k, frame;
    struct xu_vcpu_regs r;

    assert_int_equal(sim_a64_init(&lo, f->sim, 12, 48), 0);
    assert_int_equal(sim_a64_init(&hi, f->sim, 12, 48), 0);
    pa_u = map_marked(&lo, ulo, 0x1111);
    pa_k = map_marked(&hi, khi, 0x2222);
    r = mmu_on(lo.root | (0x1234ULL << 48) | 1, hi.root | (0x00abULL << 48), sim_a64_tcr(12, 48, 12, 48));

    assert_int_equal(xlate(f, &r, ulo + 0x10, &frame), XU_MEM_OK);
    assert_int_equal(frame, pa_u >> 12);
    assert_int_equal(xlate(f, &r, khi + 0xff8, &frame), XU_MEM_OK);
    assert_int_equal(frame, pa_k >> 12);
    check_read(f, &r, ulo, 0x1111);
    check_read(f, &r, khi, 0x2222);
    /* the other range's table does not map it */
    assert_int_equal(xlate(f, &r, 0x0000800008123000ULL & 0x0000ffffffffffffULL, &frame),
                     XU_MEM_NOT_PRESENT);
    /* outside both ranges */
    assert_int_equal(xlate(f, &r, 0x0001000000000000ULL, &frame), XU_MEM_NON_CANONICAL);
    assert_int_equal(xlate(f, &r, 0xfffe800008123000ULL, &frame), XU_MEM_NON_CANONICAL);
    assert_int_equal(xlate(f, &r, 0x8000ffffbeef3000ULL, &frame), XU_MEM_NON_CANONICAL);
}

/* 4 KiB granule, 39-bit VAs (three levels, Linux's default on many boards). */
static void test_4k_39bit(void **state)
{
    struct fixture *f = *state;
    struct sim_a64 lo, hi;
    uint64_t u = 0x0000007fff001000ULL, k = 0xffffffc010080000ULL, frame, pa_u, pa_k;
    struct xu_vcpu_regs r;

    assert_int_equal(sim_a64_init(&lo, f->sim, 12, 39), 0);
    assert_int_equal(sim_a64_init(&hi, f->sim, 12, 39), 0);
    pa_u = map_marked(&lo, u, 0x3939);
    pa_k = map_marked(&hi, k, 0x4040);
    r = mmu_on(lo.root, hi.root, sim_a64_tcr(12, 39, 12, 39));
    assert_int_equal(xlate(f, &r, u, &frame), XU_MEM_OK);
    assert_int_equal(frame, pa_u >> 12);
    assert_int_equal(xlate(f, &r, k + 8, &frame), XU_MEM_OK);
    assert_int_equal(frame, pa_k >> 12);
    check_read(f, &r, k, 0x4040);
    /* beyond 39 bits: not in either range */
    assert_int_equal(xlate(f, &r, 0x0000008000000000ULL, &frame), XU_MEM_NON_CANONICAL);
    assert_int_equal(xlate(f, &r, 0xffffff0000000000ULL, &frame), XU_MEM_NON_CANONICAL);
    /* the first kernel address of the range works */
    assert_int_equal(xlate(f, &r, 0xffffff8000000000ULL, &frame), XU_MEM_NOT_PRESENT);
}

/* Top-byte-ignore: a tagged user pointer is in range only with TBI0; EPD0
 * disables walks of the lower range. */
static void test_tbi_and_epd(void **state)
{
    struct fixture *f = *state;
    struct sim_a64 lo;
    uint64_t u = 0x0000aaaab0001000ULL, tagged = u | (0x5aULL << 56), frame, pa;
    struct xu_vcpu_regs r;

    assert_int_equal(sim_a64_init(&lo, f->sim, 12, 48), 0);
    pa = map_marked(&lo, u, 0x7a7a);
    r = mmu_on(lo.root, 0, sim_a64_tcr(12, 48, 12, 48));
    assert_int_equal(xlate(f, &r, tagged, &frame), XU_MEM_NON_CANONICAL);
    r.mmu.ctl |= TCR_TBI0;
    assert_int_equal(xlate(f, &r, tagged, &frame), XU_MEM_OK);
    assert_int_equal(frame, pa >> 12);
    r.mmu.ctl |= TCR_EPD0;
    assert_int_equal(xlate(f, &r, u, &frame), XU_MEM_NON_CANONICAL);
}

/* Blocks: 1 GiB at level 1 and 2 MiB at level 2 with the 4 KiB granule; a
 * block at level 0 is not a thing. */
static void test_4k_blocks(void **state)
{
    struct fixture *f = *state;
    struct sim_a64 hi;
    uint64_t k1g = 0xffff000040000000ULL, k2m = 0xffff000000200000ULL, frame;
    struct xu_vcpu_regs r;

    assert_int_equal(sim_a64_init(&hi, f->sim, 12, 48), 0);
    assert_int_equal(sim_a64_map(&hi, k1g, 0x80000000ULL, 1), 0);
    assert_int_equal(sim_a64_map(&hi, k2m, 0x00400000ULL, 2), 0);
    r = mmu_on(0, hi.root, sim_a64_tcr(12, 48, 12, 48));
    assert_int_equal(xlate(f, &r, k1g + 0x12345678, &frame), XU_MEM_OK);
    assert_int_equal(frame, (0x80000000ULL + 0x12345678) >> 12);
    assert_int_equal(xlate(f, &r, k2m + 0x1ff123, &frame), XU_MEM_OK);
    assert_int_equal(frame, (0x00400000ULL + 0x1ff123) >> 12);
    /* a block at level 0 (512 GiB) is reserved */
    assert_int_equal(sim_a64_set(&hi, k1g, 0, 0x0ULL | SIM_A64_VALID), 0);
    assert_int_equal(xlate(f, &r, k1g, &frame), XU_MEM_RESERVED);
}

/* Bad entries: invalid, a reserved type at level 3, an output address
 * beyond 48 bits. */
static void test_bad_descriptors(void **state)
{
    struct fixture *f = *state;
    struct sim_a64 hi;
    uint64_t k = 0xffff000000801000ULL, frame, pa;
    struct xu_vcpu_regs r;

    assert_int_equal(sim_a64_init(&hi, f->sim, 12, 48), 0);
    pa = map_marked(&hi, k, 1);
    r = mmu_on(0, hi.root, sim_a64_tcr(12, 48, 12, 48));
    assert_int_equal(xlate(f, &r, k, &frame), XU_MEM_OK);
    /* valid, type 0 at level 3: reserved */
    assert_int_equal(sim_a64_set(&hi, k, 3, pa | SIM_A64_VALID | SIM_A64_AF), 0);
    assert_int_equal(xlate(f, &r, k, &frame), XU_MEM_RESERVED);
    /* not valid (type bit set alone) */
    assert_int_equal(sim_a64_set(&hi, k, 3, pa | SIM_A64_PAGE), 0);
    assert_int_equal(xlate(f, &r, k, &frame), XU_MEM_NOT_PRESENT);
    /* an output address with bit 48 set */
    assert_int_equal(sim_a64_set(&hi, k, 3, pa | (1ULL << 48) | SIM_A64_VALID | SIM_A64_PAGE), 0);
    assert_int_equal(xlate(f, &r, k, &frame), XU_MEM_BAD_FRAME);
    /* an invalid table entry higher up */
    assert_int_equal(sim_a64_set(&hi, k, 1, 0), 0);
    assert_int_equal(xlate(f, &r, k, &frame), XU_MEM_NOT_PRESENT);
}

/* 64 KiB granule: 48-bit VAs in three levels (start level 1), 42-bit in
 * two, 512 MiB blocks at level 2, no blocks at level 1. */
static void test_64k_granule(void **state)
{
    struct fixture *f = *state;
    struct sim_a64 lo, hi;
    uint64_t u = 0x0000ffff80010000ULL, k = 0xfffffc0000230000ULL, frame, pa_u, pa_k;
    struct xu_vcpu_regs r;

    assert_int_equal(sim_a64_init(&lo, f->sim, 16, 48), 0);
    assert_int_equal(sim_a64_init(&hi, f->sim, 16, 42), 0);
    pa_u = map_marked(&lo, u, 0x6464);
    pa_k = map_marked(&hi, k, 0x4242);
    r = mmu_on(lo.root, hi.root, sim_a64_tcr(16, 48, 16, 42));
    /* inside the 64K page, beyond its first 4K frame */
    assert_int_equal(xlate(f, &r, u + 0x5008, &frame), XU_MEM_OK);
    assert_int_equal(frame, (pa_u + 0x5000) >> 12);
    assert_int_equal(xlate(f, &r, k + 0xf000, &frame), XU_MEM_OK);
    assert_int_equal(frame, (pa_k + 0xf000) >> 12);
    check_read(f, &r, u, 0x6464);
    check_read(f, &r, k, 0x4242);
    /* 42 bits: beyond is outside the upper range */
    assert_int_equal(xlate(f, &r, 0xfffff80000000000ULL, &frame), XU_MEM_NON_CANONICAL);
    /* a 512 MiB block */
    assert_int_equal(sim_a64_map(&hi, 0xfffffc0020000000ULL, 0x60000000ULL, 2), 0);
    assert_int_equal(xlate(f, &r, 0xfffffc0020000000ULL + 0x1234567, &frame), XU_MEM_OK);
    assert_int_equal(frame, (0x60000000ULL + 0x1234567) >> 12);
    /* a level-1 block needs 52-bit output addresses: refused */
    assert_int_equal(sim_a64_set(&lo, u, 1, 0x40000000000ULL | SIM_A64_VALID), 0);
    assert_int_equal(xlate(f, &r, u, &frame), XU_MEM_RESERVED);
    /* bits 15:12 of a 64K descriptor are output bits 51:48 under FEAT_LPA */
    assert_int_equal(sim_a64_set(&hi, k, 3, pa_k | 0x1000 | SIM_A64_VALID | SIM_A64_PAGE), 0);
    assert_int_equal(xlate(f, &r, k, &frame), XU_MEM_BAD_FRAME);
}

/* 16 KiB granule with 47-bit VAs (three levels) and 48-bit (four, the
 * start level holding two entries). */
static void test_16k_granule(void **state)
{
    struct fixture *f = *state;
    struct sim_a64 lo, hi;
    uint64_t u = 0x00007fffdead4000ULL, k = 0xffff800001234000ULL, frame, pa_u, pa_k;
    struct xu_vcpu_regs r;

    assert_int_equal(sim_a64_init(&lo, f->sim, 14, 47), 0);
    assert_int_equal(sim_a64_init(&hi, f->sim, 14, 48), 0);
    pa_u = map_marked(&lo, u, 0x1616);
    pa_k = map_marked(&hi, k, 0x4848);
    r = mmu_on(lo.root, hi.root, sim_a64_tcr(14, 47, 14, 48));
    assert_int_equal(xlate(f, &r, u + 0x3abc, &frame), XU_MEM_OK);
    assert_int_equal(frame, (pa_u + 0x3000) >> 12);
    assert_int_equal(xlate(f, &r, k, &frame), XU_MEM_OK);
    assert_int_equal(frame, pa_k >> 12);
    check_read(f, &r, u, 0x1616);
    check_read(f, &r, k, 0x4848);
    assert_int_equal(xlate(f, &r, 0x0000800000000000ULL, &frame), XU_MEM_NON_CANONICAL);
    /* a 32 MiB block at level 2 */
    assert_int_equal(sim_a64_map(&hi, 0xffff800004000000ULL, 0x2000000ULL, 2), 0);
    assert_int_equal(xlate(f, &r, 0xffff800004000000ULL + 0x1fff000, &frame), XU_MEM_OK);
    assert_int_equal(frame, (0x2000000ULL + 0x1fff000) >> 12);
}

/* What the walk refuses to guess at: 52-bit VAs, reserved granules, the
 * paging modes of other architectures. */
static void test_unsupported(void **state)
{
    struct fixture *f = *state;
    uint64_t frame;
    struct xu_vcpu_regs r = mmu_on(0x1000, 0x2000, sim_a64_tcr(12, 48, 12, 48));

    r.mmu.ctl = (r.mmu.ctl & ~0x3fULL) | 12;            /* T0SZ 12: 52-bit */
    assert_int_equal(xlate(f, &r, 0x1000, &frame), XU_MEM_UNSUPPORTED);
    r.mmu.ctl = sim_a64_tcr(12, 48, 12, 48) & ~(3ULL << 30);   /* TG1 00: reserved */
    assert_int_equal(xlate(f, &r, 0xffff000000001000ULL, &frame), XU_MEM_UNSUPPORTED);
    r.mmu.ctl = (sim_a64_tcr(12, 48, 12, 48) & ~0x3fULL) | 40;  /* T0SZ 40: small-VA */
    assert_int_equal(xlate(f, &r, 0x1000, &frame), XU_MEM_UNSUPPORTED);
    r.mmu.paging = XU_PAGING_LONG4;
    assert_int_equal(xlate(f, &r, 0x1000, &frame), XU_MEM_UNSUPPORTED);
    assert_false(xu_arch_arm64.stack_readable(&r));
    r.mmu.paging = XU_PAGING_32;                        /* an AArch32 vCPU */
    assert_false(xu_arch_arm64.stack_readable(&r));
}

/* The MMU off: a virtual address is the guest-physical one, and readable. */
static void test_mmu_off(void **state)
{
    struct fixture *f = *state;
    struct xu_vcpu_regs r;
    uint64_t frame, v = 0;
    uint8_t *mem = xu_sim_frame(f->sim, 0x123);

    memset(&r, 0, sizeof(r));
    r.online = true;
    r.mmu.paging = XU_PAGING_NONE;
    assert_true(xu_arch_arm64.stack_readable(&r));
    assert_int_equal(xlate(f, &r, 0x40080010ULL, &frame), XU_MEM_OK);
    assert_int_equal(frame, 0x40080ULL);
    assert_non_null(mem);
    mem[0x18] = 0x5c;
    xu_mem_begin(f->m);
    xu_mem_set_context(f->m, &r);
    assert_int_equal(xu_mem_read_u64(f->m, 0x123018ULL, &v), 0);
    assert_int_equal(v, 0x5c);
}

/* ---- a hostile table, through the walk itself ---- */

struct counter {
    struct xu_sim *sim;
    unsigned int reads;
};

static enum xu_mem_fault count_read(void *ctx, uint64_t addr, uint64_t *pte)
{
    struct counter *c = ctx;
    const uint8_t *p = xu_sim_frame(c->sim, addr >> XU_PAGE_SHIFT);

    c->reads++;
    if (!p)
        return XU_MEM_MAP_FAILED;
    memcpy(pte, p + (addr & (XU_PAGE_SIZE - 1) & ~7ULL), sizeof(*pte));
    return XU_MEM_OK;
}

/* Every entry of one table points back at the table itself: each level
 * finds a table descriptor again, and the walk still stops after four
 * reads (level 3 takes it as a page). */
static void test_cyclic_table(void **state)
{
    struct fixture *f = *state;
    uint64_t root = sim_a64_alloc(f->sim, 4096), *t, frame = 0;
    struct counter c = { f->sim, 0 };
    struct xu_mmu mmu;
    unsigned int i;

    assert_int_not_equal(root, UINT64_MAX);
    t = xu_sim_frame(f->sim, root >> 12);
    for (i = 0; i < 512; i++)
        t[i] = root | SIM_A64_VALID | SIM_A64_TABLE;
    memset(&mmu, 0, sizeof(mmu));
    mmu.paging = XU_PAGING_ARM64;
    mmu.root_hi = root;
    mmu.ctl = sim_a64_tcr(12, 48, 12, 48);
    assert_int_equal(xu_arch_arm64.translate(&mmu, 0xffff123456789000ULL, count_read, &c, &frame),
                     XU_MEM_OK);
    assert_int_equal(c.reads, 4);
    assert_int_equal(frame, root >> 12);
    /* 64K granule at 48 bits: three reads at most */
    c.reads = 0;
    mmu.ctl = sim_a64_tcr(16, 48, 16, 48);
    xu_arch_arm64.translate(&mmu, 0xffff123456789000ULL, count_read, &c, &frame);
    assert_true(c.reads <= 3);
}

/* ---- frame rules that depend on the MMU state ---- */

/* A signed return address keeps bit 55; the code is in the VA bits. */
static uint64_t sign(uint64_t ra, unsigned int va_bits, uint64_t pac)
{
    uint64_t low = ra & ((1ULL << va_bits) - 1);
    uint64_t b55 = ra & (1ULL << 55);

    return ((low | (pac << va_bits)) & ~(1ULL << 55)) | b55;
}

static void test_pac_strip(void **state)
{
    struct xu_vcpu_regs r = mmu_on(0, 0, sim_a64_tcr(12, 48, 12, 39));
    uint64_t k48 = 0xffffffc008123456ULL, u48 = 0x0000aaaabbbb1234ULL;

    (void)state;
    /* kernel (TTBR1) with 39-bit VAs: the bits above become ones */
    assert_int_equal(xu_arch_arm64.code_address(&r, sign(k48, 39, 0x2a5b3cULL)), k48);
    /* user (TTBR0) with 48-bit VAs: the bits above become zeros */
    assert_int_equal(xu_arch_arm64.code_address(&r, sign(u48, 48, 0x5d)), u48);
    /* unsigned addresses pass unchanged */
    assert_int_equal(xu_arch_arm64.code_address(&r, k48), k48);
    assert_int_equal(xu_arch_arm64.code_address(&r, u48), u48);
    /* 48-bit kernel */
    r.mmu.ctl = sim_a64_tcr(12, 48, 12, 48);
    assert_int_equal(xu_arch_arm64.code_address(&r, sign(0xffff800008001000ULL, 48, 0x7f)),
                     0xffff800008001000ULL);
    /* MMU off: the low 48 bits */
    r.mmu.paging = XU_PAGING_NONE;
    assert_int_equal(xu_arch_arm64.code_address(&r, 0xab000000400800c4ULL), 0x400800c4ULL);
}

static void test_space_key(void **state)
{
    struct xu_mmu a, b;

    (void)state;
    memset(&a, 0, sizeof(a));
    a.paging = XU_PAGING_ARM64;
    a.root = 0x41000000;
    a.root_hi = 0x42000000;
    a.ctl = sim_a64_tcr(12, 48, 12, 48);
    b = a;
    /* ASID and CnP do not change the translation */
    b.root |= (0x77ULL << 48) | 1;
    b.root_hi |= 0x55ULL << 48;
    assert_int_equal(xu_arch_arm64.space_key(&a), xu_arch_arm64.space_key(&b));
    b = a;
    b.root = 0x43000000;
    assert_int_not_equal(xu_arch_arm64.space_key(&a), xu_arch_arm64.space_key(&b));
    b = a;
    b.root_hi = 0x43000000;
    assert_int_not_equal(xu_arch_arm64.space_key(&a), xu_arch_arm64.space_key(&b));
    b = a;
    b.ctl = sim_a64_tcr(12, 39, 12, 39);
    assert_int_not_equal(xu_arch_arm64.space_key(&a), xu_arch_arm64.space_key(&b));
    /* swapping the tables is another space */
    b = a;
    b.root = a.root_hi;
    b.root_hi = a.root;
    assert_int_not_equal(xu_arch_arm64.space_key(&a), xu_arch_arm64.space_key(&b));
    b = a;
    b.paging = XU_PAGING_NONE;
    assert_int_not_equal(xu_arch_arm64.space_key(&a), xu_arch_arm64.space_key(&b));
}

/* Return addresses follow BL, BLR or a pointer-authenticating BLRAA. */
static void test_follows_call(void **state)
{
    const struct xu_arch_ops *a = &xu_arch_arm64;
    static const uint8_t bl[4] = { 0x10, 0x00, 0x00, 0x94 };       /* bl +0x40 */
    static const uint8_t blr[4] = { 0x00, 0x02, 0x3f, 0xd6 };      /* blr x16 */
    static const uint8_t blraa[4] = { 0x11, 0x0a, 0x3f, 0xd7 };    /* blraa x16, x17 */
    static const uint8_t b[4] = { 0x10, 0x00, 0x00, 0x14 };        /* b +0x40: no link */
    static const uint8_t ret[4] = { 0xc0, 0x03, 0x5f, 0xd6 };      /* ret */

    (void)state;
    assert_int_equal(a->call_window, 4);
    assert_true(a->follows_call(bl, 4));
    assert_true(a->follows_call(blr, 4));
    assert_true(a->follows_call(blraa, 4));
    assert_false(a->follows_call(b, 4));
    assert_false(a->follows_call(ret, 4));
    assert_false(a->follows_call(bl, 3));
    /* no hypercall page and no hardware interrupt frame on arm64 */
    assert_null(a->hypercall_stub);
    assert_null(a->interrupt_frame);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry),
        cmocka_unit_test_setup_teardown(test_4k_48bit_both_ranges, setup, teardown),
        cmocka_unit_test_setup_teardown(test_4k_39bit, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tbi_and_epd, setup, teardown),
        cmocka_unit_test_setup_teardown(test_4k_blocks, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bad_descriptors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_64k_granule, setup, teardown),
        cmocka_unit_test_setup_teardown(test_16k_granule, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unsupported, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mmu_off, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cyclic_table, setup, teardown),
        cmocka_unit_test(test_pac_strip),
        cmocka_unit_test(test_space_key),
        cmocka_unit_test(test_follows_call),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
