/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pagewalk.c - AArch32 stage-1 translation (VMSAv7) of a hostile guest's
 * tables, as the vCPU's TTBCR, TTBR0 and TTBR1 describe them.  TTBCR.EAE
 * picks the format:
 *
 * Short descriptors (EAE 0), 32-bit entries: TTBCR.N splits the space, a
 * VA whose top N bits are all zero walks TTBR0 (a table of 16 KiB >> N),
 * any other TTBR1 (16 KiB); N = 0 is TTBR0 for all.  TTBCR.PD0/PD1 disable
 * a range's walks (XU_MEM_NON_CANONICAL, as the arm64 walk reports
 * EPD0/EPD1).  First level: 1 MiB sections, 16 MiB supersections (bit 18;
 * their extended base bits 23:20 and 8:5 give output bits 35:32 and 39:36)
 * and page tables (1 KiB, 256 entries); second level: 64 KiB large pages
 * and 4 KiB small pages.  Type 00 is a fault at either level; a first-level
 * type 11 is read as a section (with the PXN extension bit 0 is PXN).
 *
 * Long descriptors (EAE 1, LPAE), 64-bit entries: T0SZ and T1SZ (3 bits
 * each) give each range its size; TTBR0 covers [0, 2^(32 - T0SZ)), TTBR1
 * the top 2^(32 - T1SZ) bytes; with T1SZ 0 TTBR1 covers what TTBR0 does
 * not, with T0SZ 0 and T1SZ not, TTBR0 covers what TTBR1 does not; a VA in
 * neither is XU_MEM_NON_CANONICAL, and so is one in a range disabled by
 * EPD0/EPD1.  A range of more than 30 bits starts at level 1 (1 GiB
 * blocks), else at level 2 (2 MiB blocks); level 3 maps 4 KiB pages.
 * Output addresses are 40 bits: an entry with any of bits 47:40 set is
 * XU_MEM_BAD_FRAME; a level-3 entry of type 01 is XU_MEM_RESERVED.
 *
 * read_pte reads 8 little-endian bytes.  A short descriptor is 4 bytes at
 * a 4-aligned address: the walk reads the aligned 8 bytes that hold it
 * (address & ~7, never crossing a frame) and uses their low half for an
 * address that is 0 mod 8 and their high half for 4 mod 8.  Big-endian
 * tables (SCTLR.EE, carried as XU_ARM32_CTL_BIG_ENDIAN) are refused.
 *
 * At most two reads (short) or three (LPAE); every entry's type is
 * checked, so a hostile table cannot make the walk loop or read more.
 * With the MMU off a virtual address is the guest frame: nothing is read.
 */
#include "config.h"

#include "pagewalk.h"

/* TTBCR, short-descriptor format */
#define TTBCR_N(t)      ((unsigned int)((t) & 7))
#define TTBCR_PD0       (1ULL << 4)
#define TTBCR_PD1       (1ULL << 5)
/* TTBCR, long-descriptor format */
#define TTBCR_T0SZ(t)   ((unsigned int)((t) & 7))
#define TTBCR_EPD0      (1ULL << 7)
#define TTBCR_T1SZ(t)   ((unsigned int)(((t) >> 16) & 7))
#define TTBCR_EPD1      (1ULL << 23)

/* short descriptors */
#define SD_TYPE(e)          ((e) & 3u)
#define SD_L1_SUPER         (1u << 18)
#define SD_SECTION_BASE     0xfff00000u
#define SD_SUPER_BASE       0xff000000u
#define SD_TABLE_BASE       0xfffffc00u
#define SD_LARGE_BASE       0xffff0000u
#define SD_SMALL_BASE       0xfffff000u

/* long descriptors */
#define LD_VALID            (1ULL << 0)
#define LD_TABLE            (1ULL << 1)     /* table (levels 1-2) or page (level 3) */
#define LD_OA_HI            0x0000ff0000000000ULL   /* 47:40: beyond a 40-bit output */
#define LD_OA               0x000000fffffff000ULL   /* 39:12 */
#define LD_TTBR_BADDR       0x000000fffffffff8ULL   /* TTBRn 39:3 (ASID above) */

/* The 4-byte short descriptor at addr, from the aligned 8 bytes holding it. */
static enum xu_mem_fault read_short(xu_arch_read_pte read_pte, void *ctx, uint64_t addr,
                                    uint32_t *desc)
{
    uint64_t pair;
    enum xu_mem_fault f = read_pte(ctx, addr & ~7ULL, &pair);

    if (f != XU_MEM_OK)
        return f;
    *desc = (uint32_t)(addr & 4 ? pair >> 32 : pair);
    return XU_MEM_OK;
}

static enum xu_mem_fault short_walk(const struct xu_mmu *mmu, uint32_t va,
                                    xu_arch_read_pte read_pte, void *ctx, uint64_t *frame)
{
    unsigned int n = TTBCR_N(mmu->ctl);
    bool lower = n == 0 || (va >> (32 - n)) == 0;
    uint64_t l1_addr, pa;
    uint32_t d, idx;
    enum xu_mem_fault f;

    if (mmu->ctl & (lower ? TTBCR_PD0 : TTBCR_PD1))
        return XU_MEM_NON_CANONICAL;
    if (lower) {
        /* TTBR0's table is 16 KiB >> N, aligned to its size; index VA[31-N:20] */
        uint32_t base = (uint32_t)mmu->root & ~((0x4000u >> n) - 1);

        idx = (va & (0xffffffffu >> n)) >> 20;
        l1_addr = (uint64_t)base + idx * 4u;
    } else {
        l1_addr = (uint64_t)((uint32_t)mmu->root_hi & ~0x3fffu) + (va >> 20) * 4u;
    }
    f = read_short(read_pte, ctx, l1_addr, &d);
    if (f != XU_MEM_OK)
        return f;
    switch (SD_TYPE(d)) {
    case 0:
        return XU_MEM_NOT_PRESENT;
    case 1:     /* a second-level table */
        f = read_short(read_pte, ctx, (d & SD_TABLE_BASE) + ((va >> 12) & 0xffu) * 4u, &d);
        if (f != XU_MEM_OK)
            return f;
        if (SD_TYPE(d) == 0)
            return XU_MEM_NOT_PRESENT;
        if (SD_TYPE(d) == 1)        /* 64 KiB large page */
            pa = (d & SD_LARGE_BASE) | (va & 0xffffu);
        else                        /* 4 KiB small page (bit 0 is XN) */
            pa = (d & SD_SMALL_BASE) | (va & 0xfffu);
        break;
    default:    /* section or supersection */
        if (d & SD_L1_SUPER) {
            pa = (uint64_t)(d & SD_SUPER_BASE) | (va & 0x00ffffffu) |
                 (uint64_t)((d >> 20) & 0xfu) << 32 | (uint64_t)((d >> 5) & 0xfu) << 36;
        } else {
            pa = (d & SD_SECTION_BASE) | (va & 0x000fffffu);
        }
        break;
    }
    *frame = pa >> XU_PAGE_SHIFT;
    return XU_MEM_OK;
}

/* Which range va is in under long descriptors: its TTBR and size in bits;
 * false when in neither (or a disabled one). */
static bool long_range(const struct xu_mmu *mmu, uint32_t va, uint64_t *ttbr, unsigned int *bits)
{
    unsigned int t0 = TTBCR_T0SZ(mmu->ctl), t1 = TTBCR_T1SZ(mmu->ctl);
    uint64_t lo_end = 1ULL << (32 - t0), hi_start = (1ULL << 32) - (1ULL << (32 - t1));
    bool upper;

    if (t1 > 0)
        upper = va >= hi_start;
    else
        upper = t0 > 0 && va >= lo_end;
    if (!upper && t0 > 0 && va >= lo_end)
        return false;       /* between the two ranges */
    if (mmu->ctl & (upper ? TTBCR_EPD1 : TTBCR_EPD0))
        return false;
    *ttbr = upper ? mmu->root_hi : mmu->root;
    *bits = 32 - (upper ? t1 : t0);
    return true;
}

static enum xu_mem_fault long_walk(const struct xu_mmu *mmu, uint32_t va,
                                   xu_arch_read_pte read_pte, void *ctx, uint64_t *frame)
{
    uint64_t ttbr, table;
    unsigned int bits, width;
    int level;

    if (!long_range(mmu, va, &ttbr, &bits))
        return XU_MEM_NON_CANONICAL;
    /* the first table resolves what the levels below leave: 1-2 bits at
     * level 1 (bits 31-32), 4-9 at level 2 (bits 25-30) */
    level = bits > 30 ? 1 : 2;
    width = bits - (level == 1 ? 30 : 21);
    table = ttbr & LD_TTBR_BADDR & ~((8ULL << width) - 1);
    for (; level <= 3; level++) {
        unsigned int shift = 12 + 9 * (unsigned int)(3 - level);
        uint64_t idx = ((uint64_t)va >> shift) & ((1ULL << width) - 1);
        uint64_t e, span = 1ULL << shift;
        enum xu_mem_fault f = read_pte(ctx, table + idx * 8, &e);

        if (f != XU_MEM_OK)
            return f;
        if (!(e & LD_VALID))
            return XU_MEM_NOT_PRESENT;
        if (e & LD_OA_HI)
            return XU_MEM_BAD_FRAME;
        if (level == 3 || !(e & LD_TABLE)) {
            if (level == 3 && !(e & LD_TABLE))
                return XU_MEM_RESERVED;     /* type 01 at level 3 is reserved */
            *frame = ((e & LD_OA & ~(span - 1)) | (va & (span - 1))) >> XU_PAGE_SHIFT;
            return XU_MEM_OK;
        }
        table = e & LD_OA;
        width = 9;
    }
    return XU_MEM_RESERVED;     /* not reached: level 3 always returns */
}

enum xu_mem_fault xu_arm32_translate(const struct xu_mmu *mmu, uint64_t va,
                                     xu_arch_read_pte read_pte, void *ctx, uint64_t *frame)
{
    switch (mmu->paging) {
    case XU_PAGING_NONE:
        if (va >> 32)
            return XU_MEM_NON_CANONICAL;
        *frame = va >> XU_PAGE_SHIFT;
        return XU_MEM_OK;
    case XU_PAGING_ARM32:
        break;
    default:
        return XU_MEM_UNSUPPORTED;
    }
    if (mmu->ctl & XU_ARM32_CTL_BIG_ENDIAN)
        return XU_MEM_UNSUPPORTED;
    if (va >> 32)
        return XU_MEM_NON_CANONICAL;    /* a 32-bit guest has no such address */
    if (mmu->ctl & XU_ARM32_TTBCR_EAE)
        return long_walk(mmu, (uint32_t)va, read_pte, ctx, frame);
    return short_walk(mmu, (uint32_t)va, read_pte, ctx, frame);
}
