/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pagewalk.c - 32-bit x86 translation of a hostile guest's page tables:
 * paging off (virtual == physical), two-level 32-bit paging (4-byte
 * entries, 4 MiB pages under CR4.PSE, PSE-36 frames above 4 GiB) and PAE
 * (a four-entry PDPT, then two levels of 8-byte entries, 2 MiB pages; a
 * 32-bit PV guest's PDPT is a long-mode L3 page, see XU_X86_32_CTL_PV_L3).
 * Every entry is checked (present, reserved bits); a walk reads at most
 * three entries, so a table that points at itself ends like any other.
 *
 * read_pte reads the 8-byte word at an 8-aligned address: a two-level
 * entry is the low or high half of the word holding it.
 */
#include "config.h"

#include "pagewalk.h"

#define PTE_P          (1ULL << 0)
#define PTE_PS         (1ULL << 7)
#define VA_LIMIT       0xffffffffULL

/* Two-level: the table or page address is bits 31:12; a 4 MiB page has
 * bits 31:22, and with PSE-36 bits 39:32 of its frame in bits 20:13 (bit
 * 21 is reserved). */
#define PDE32_ADDR     0xfffff000ULL
#define PDE32_4M_LOW   0xffc00000ULL
#define PDE32_4M_HIGH  0x001fe000ULL
#define PDE32_4M_RSVD  (1ULL << 21)

/* PAE: addresses bits 51:12 (Xen reports at most 52 physical bits), bit
 * 63 is NX in page-directory and page-table entries; in a PDPT entry bits
 * 2:1 and 63 are reserved.  Bits 62:52 are reserved everywhere.  The SDM
 * reserves a PDPT entry's bits 8:5 too, but the CPU checks them only when
 * CR3 loads the four entries, and QEMU's emulation then sets the accessed
 * bit (5) in memory: a running PAE guest's PDPT holds 0x...021 where it
 * wrote 0x...001, so those bits are not held against it. */
#define PAE_ADDR       0x000ffffffffff000ULL
#define PAE_HIGH_RSVD  0x7ff0000000000000ULL
#define PDPTE_RSVD     (PAE_HIGH_RSVD | (1ULL << 63) | 0x6ULL)
/* A 32-bit PV guest's PDPT is a long-mode L3 (XU_X86_32_CTL_PV_L3): NX and
 * the RW/U/A bits are the CPU's there; Xen refuses 1 GiB pages (PS) in it. */
#define PV_L3_RSVD     (PAE_HIGH_RSVD | PTE_PS)
#define PDE_2M_RSVD    0x00000000001fe000ULL   /* 20:13, bit 12 being PAT */

static enum xu_mem_fault read32(xu_arch_read_pte read_pte, void *ctx, uint64_t table,
                                unsigned int idx, uint64_t *e)
{
    uint64_t addr = table + idx * 4ULL, q;
    enum xu_mem_fault f = read_pte(ctx, addr & ~7ULL, &q);

    if (f != XU_MEM_OK)
        return f;
    *e = (addr & 4) ? q >> 32 : q & 0xffffffffULL;
    return XU_MEM_OK;
}

static enum xu_mem_fault walk32(const struct xu_mmu *mmu, uint64_t va, xu_arch_read_pte read_pte,
                                void *ctx, uint64_t *frame)
{
    uint64_t e;
    enum xu_mem_fault f = read32(read_pte, ctx, mmu->root & PDE32_ADDR,
                                 (unsigned int)(va >> 22), &e);

    if (f != XU_MEM_OK)
        return f;
    if (!(e & PTE_P))
        return XU_MEM_NOT_PRESENT;
    if ((e & PTE_PS) && (mmu->ctl & XU_X86_32_CR4_PSE)) {
        uint64_t base = (e & PDE32_4M_LOW) | ((e & PDE32_4M_HIGH) << 19);

        if (e & PDE32_4M_RSVD)
            return XU_MEM_RESERVED;
        *frame = (base | (va & 0x3fffffULL)) >> XU_PAGE_SHIFT;
        return XU_MEM_OK;
    }
    f = read32(read_pte, ctx, e & PDE32_ADDR, (unsigned int)((va >> 12) & 1023), &e);
    if (f != XU_MEM_OK)
        return f;
    if (!(e & PTE_P))
        return XU_MEM_NOT_PRESENT;
    *frame = (e & PDE32_ADDR) >> XU_PAGE_SHIFT;
    return XU_MEM_OK;
}

static enum xu_mem_fault read64(xu_arch_read_pte read_pte, void *ctx, uint64_t addr,
                                uint64_t rsvd, uint64_t *e)
{
    enum xu_mem_fault f = read_pte(ctx, addr, e);

    if (f != XU_MEM_OK)
        return f;
    if (!(*e & PTE_P))
        return XU_MEM_NOT_PRESENT;
    return (*e & rsvd) ? XU_MEM_RESERVED : XU_MEM_OK;
}

static enum xu_mem_fault walk_pae(const struct xu_mmu *mmu, uint64_t va,
                                  xu_arch_read_pte read_pte, void *ctx, uint64_t *frame)
{
    uint64_t e, l3_rsvd = (mmu->ctl & XU_X86_32_CTL_PV_L3) ? PV_L3_RSVD : PDPTE_RSVD;
    enum xu_mem_fault f;

    /* the PDPT is 32-byte aligned: its four entries never straddle a page */
    f = read64(read_pte, ctx, (mmu->root & 0xffffffe0ULL) + (va >> 30) * 8, l3_rsvd, &e);
    if (f != XU_MEM_OK)
        return f;
    f = read64(read_pte, ctx, (e & PAE_ADDR) + ((va >> 21) & 511) * 8, PAE_HIGH_RSVD, &e);
    if (f != XU_MEM_OK)
        return f;
    if (e & PTE_PS) {
        if (e & PDE_2M_RSVD)
            return XU_MEM_RESERVED;
        *frame = ((e & PAE_ADDR & ~0x1fffffULL) | (va & 0x1fffffULL)) >> XU_PAGE_SHIFT;
        return XU_MEM_OK;
    }
    f = read64(read_pte, ctx, (e & PAE_ADDR) + ((va >> 12) & 511) * 8, PAE_HIGH_RSVD, &e);
    if (f != XU_MEM_OK)
        return f;
    *frame = (e & PAE_ADDR) >> XU_PAGE_SHIFT;
    return XU_MEM_OK;
}

enum xu_mem_fault xu_x86_32_translate(const struct xu_mmu *mmu, uint64_t va,
                                      xu_arch_read_pte read_pte, void *ctx, uint64_t *frame)
{
    if (va > VA_LIMIT)
        return XU_MEM_NON_CANONICAL;
    switch (mmu->paging) {
    case XU_PAGING_NONE:
        *frame = va >> XU_PAGE_SHIFT;
        return XU_MEM_OK;
    case XU_PAGING_32:
        return walk32(mmu, va, read_pte, ctx, frame);
    case XU_PAGING_PAE:
        return walk_pae(mmu, va, read_pte, ctx, frame);
    default:
        return XU_MEM_UNSUPPORTED;
    }
}
