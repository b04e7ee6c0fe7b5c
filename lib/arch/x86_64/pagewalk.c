/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pagewalk.c - x86-64 four- and five-level translation of a hostile guest's
 * page tables: every entry checked (present, large-page reserved bits), no
 * page larger than 1 GiB, at most five reads per translation.
 */
#include "config.h"

#include "pagewalk.h"

#define PTE_P        (1ULL << 0)
#define PTE_PS       (1ULL << 7)
#define PTE_ADDR     0x000ffffffffff000ULL
/* With PS=1 the low address bits of a large-page entry (bit 12 is PAT)
 * must be zero up to the page size: 2M pages bits 20:13, 1G pages 29:13. */
#define PTE_RSVD_2M  0x00000000001fe000ULL
#define PTE_RSVD_1G  0x000000003fffe000ULL

#define X86_CR0_PG   (1ULL << 31)
#define X86_CR4_PAE  (1ULL << 5)
#define X86_CR4_LA57 (1ULL << 12)
#define X86_EFER_LMA (1ULL << 10)

enum xu_paging_mode xu_x86_paging_mode(uint64_t cr0, uint64_t cr4, uint64_t efer)
{
    if (!(cr0 & X86_CR0_PG))
        return XU_PAGING_NONE;
    if (efer & X86_EFER_LMA)
        return (cr4 & X86_CR4_LA57) ? XU_PAGING_LONG5 : XU_PAGING_LONG4;
    if (cr4 & X86_CR4_PAE)
        return XU_PAGING_PAE;
    return XU_PAGING_32;
}

static int canonical(uint64_t va, enum xu_paging_mode mode)
{
    int bits = mode == XU_PAGING_LONG5 ? 57 : 48;
    int64_t s = (int64_t)(va << (64 - bits)) >> (64 - bits);

    return (uint64_t)s == va;
}

enum xu_mem_fault xu_x86_translate(const struct xu_mmu *mmu, uint64_t va,
                                   xu_arch_read_pte read_pte, void *ctx, uint64_t *frame)
{
    uint64_t table = mmu->root & PTE_ADDR;
    enum xu_mem_fault f;
    int levels, l;

    switch (mmu->paging) {
    case XU_PAGING_NONE:
        *frame = va >> XU_PAGE_SHIFT;
        return XU_MEM_OK;
    case XU_PAGING_LONG4:
        levels = 4;
        break;
    case XU_PAGING_LONG5:
        levels = 5;
        break;
    default:
        return XU_MEM_UNSUPPORTED;
    }
    if (!canonical(va, mmu->paging))
        return XU_MEM_NON_CANONICAL;
    if ((int64_t)va < 0 && mmu->root_hi != 0)
        table = mmu->root_hi & PTE_ADDR;    /* a PV user table's kernel half */

    for (l = levels; l >= 1; l--) {
        unsigned int idx = (unsigned int)((va >> (XU_PAGE_SHIFT + 9 * (l - 1))) & 511);
        uint64_t e;

        f = read_pte(ctx, table + idx * 8, &e);
        if (f != XU_MEM_OK)
            return f;
        if (!(e & PTE_P))
            return XU_MEM_NOT_PRESENT;
        if (l >= 4 && (e & PTE_PS))
            return XU_MEM_RESERVED;     /* no pages larger than 1G */
        if ((l == 3 || l == 2) && (e & PTE_PS)) {
            uint64_t span = 1ULL << (XU_PAGE_SHIFT + 9 * (l - 1));
            uint64_t rsvd = l == 3 ? PTE_RSVD_1G : PTE_RSVD_2M;

            if (e & rsvd)
                return XU_MEM_RESERVED;
            *frame = ((e & PTE_ADDR & ~(span - 1)) | (va & (span - 1))) >> XU_PAGE_SHIFT;
            return XU_MEM_OK;
        }
        table = e & PTE_ADDR;
    }
    *frame = table >> XU_PAGE_SHIFT;
    return XU_MEM_OK;
}
