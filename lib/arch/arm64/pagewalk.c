/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pagewalk.c - AArch64 stage-1 translation (VMSAv8-64) of a hostile guest's
 * tables, as the vCPU's TCR_EL1, TTBR0_EL1 and TTBR1_EL1 describe them.
 *
 * Supported: the 4 KiB, 16 KiB and 64 KiB granules, each range with its own
 * (TG0/TG1), and virtual-address sizes from 25 to 48 bits (TxSZ 16..39),
 * which covers Linux's 39-, 42-, 47- and 48-bit layouts.  The start level
 * follows from the VA size and the granule; blocks are accepted where
 * VMSAv8-64 without the 52-bit extensions allows them: 1 GiB and 2 MiB with
 * 4 KiB granules, 32 MiB with 16 KiB, 512 MiB with 64 KiB.
 *
 * Refused with XU_MEM_UNSUPPORTED: TxSZ outside 16..39 (52-bit VAs, or the
 * small-VA extension), a reserved granule encoding, a mode other than
 * XU_PAGING_ARM64 or XU_PAGING_NONE.  Output addresses are 48 bits: an entry
 * with any of bits 51:48 set (FEAT_LPA/LPA2 layouts) is XU_MEM_BAD_FRAME, and
 * so is one with bits 15:12 set under a 64 KiB granule (where FEAT_LPA keeps
 * bits 51:48).  Blocks at level 0, or at level 1 with 16/64 KiB granules
 * (52-bit layouts only), and a level-3 entry of type 01 are XU_MEM_RESERVED.
 *
 * The walk is bounded by the level count (at most four reads: 48 bits in
 * steps of at least 9 above a 4 KiB page) and every entry is checked
 * (valid bit, descriptor type at its level), so a hostile table cannot make
 * it loop or read beyond four entries.
 *
 * With the MMU off (SCTLR_EL1.M = 0) a virtual address is the
 * intermediate-physical one, i.e. the guest frame: nothing is read.
 *
 * The range: bit 55 selects TTBR1 (1) or TTBR0 (0), and the bits from the
 * VA size up to bit 63 (up to bit 55 with top-byte-ignore, TBI0/TBI1) must
 * all equal it, else XU_MEM_NON_CANONICAL; a range whose walks TCR disables
 * (EPD0/EPD1) translates nothing and is reported the same way.
 */
#include "config.h"

#include "pagewalk.h"

/* TCR_EL1 fields (Xen's context calls the register ttbcr). */
#define TCR_T0SZ(t)   ((unsigned int)((t) & 0x3f))
#define TCR_EPD0      (1ULL << 7)
#define TCR_TG0(t)    ((unsigned int)(((t) >> 14) & 3))
#define TCR_T1SZ(t)   ((unsigned int)(((t) >> 16) & 0x3f))
#define TCR_EPD1      (1ULL << 23)
#define TCR_TG1(t)    ((unsigned int)(((t) >> 30) & 3))
#define TCR_TBI0      (1ULL << 37)
#define TCR_TBI1      (1ULL << 38)

#define TXSZ_MIN 16u    /* 48-bit VA */
#define TXSZ_MAX 39u    /* 25-bit VA */

/* TTBRn_EL1: ASID in 63:48, the table in 47:6 here (low bits are RES0 for
 * any table of 64 bytes or more, bit 0 is CnP). */
#define TTBR_BADDR    0x0000ffffffffffc0ULL

#define DESC_VALID    (1ULL << 0)
#define DESC_TABLE    (1ULL << 1)   /* table (levels 0-2) or page (level 3) */
#define DESC_OA_HI    0x000f000000000000ULL     /* 51:48: beyond a 48-bit output */
#define DESC_OA_HI64K 0x000000000000f000ULL     /* 64K granule: OA 51:48 under FEAT_LPA */
#define DESC_OA_TOP   0x0000ffffffffffffULL     /* bits 47:0, cut to the granule */

/* Granule shift from TG0 (00 4K, 01 64K, 10 16K) or TG1 (01 16K, 10 4K, 11 64K);
 * 0 for the reserved encodings. */
static unsigned int granule_tg0(unsigned int tg)
{
    static const unsigned int shift[4] = { 12, 16, 14, 0 };

    return shift[tg & 3];
}

static unsigned int granule_tg1(unsigned int tg)
{
    static const unsigned int shift[4] = { 0, 14, 12, 16 };

    return shift[tg & 3];
}

static unsigned int clamp_txsz(unsigned int txsz)
{
    return txsz < TXSZ_MIN ? TXSZ_MIN : txsz > TXSZ_MAX ? TXSZ_MAX : txsz;
}

unsigned int xu_arm64_va_bits(uint64_t tcr, bool upper)
{
    return 64 - clamp_txsz(upper ? TCR_T1SZ(tcr) : TCR_T0SZ(tcr));
}

/* May a block descriptor appear at level with a granule of 2^g bytes? */
static bool block_allowed(unsigned int g, int level)
{
    if (g == 12)
        return level == 1 || level == 2;
    return level == 2;      /* 16K: 32 MiB, 64K: 512 MiB blocks */
}

enum xu_mem_fault xu_arm64_translate(const struct xu_mmu *mmu, uint64_t va,
                                     xu_arch_read_pte read_pte, void *ctx, uint64_t *frame)
{
    uint64_t tcr = mmu->ctl, table, hi_mask;
    unsigned int txsz, g, stride, va_bits, levels;
    bool upper, tbi;
    int level;

    switch (mmu->paging) {
    case XU_PAGING_NONE:
        *frame = va >> XU_PAGE_SHIFT;
        return XU_MEM_OK;
    case XU_PAGING_ARM64:
        break;
    default:
        return XU_MEM_UNSUPPORTED;
    }

    upper = (va >> 55) & 1;
    if (upper) {
        txsz = TCR_T1SZ(tcr);
        g = granule_tg1(TCR_TG1(tcr));
        tbi = (tcr & TCR_TBI1) != 0;
        table = mmu->root_hi & TTBR_BADDR;
    } else {
        txsz = TCR_T0SZ(tcr);
        g = granule_tg0(TCR_TG0(tcr));
        tbi = (tcr & TCR_TBI0) != 0;
        table = mmu->root & TTBR_BADDR;
    }
    if (txsz < TXSZ_MIN || txsz > TXSZ_MAX || g == 0)
        return XU_MEM_UNSUPPORTED;
    va_bits = 64 - txsz;
    /* bits va_bits..63 (..55 when the top byte is ignored) must equal bit 55 */
    hi_mask = (tbi ? (1ULL << 56) - 1 : ~0ULL) & ~((1ULL << va_bits) - 1);
    if ((va & hi_mask) != (upper ? hi_mask : 0))
        return XU_MEM_NON_CANONICAL;
    if (tcr & (upper ? TCR_EPD1 : TCR_EPD0))
        return XU_MEM_NON_CANONICAL;

    /* Each level resolves stride bits; the start level takes what is left. */
    stride = g - 3;
    levels = (va_bits - g + stride - 1) / stride;       /* 1..4: va_bits <= 48, g >= 12 */
    for (level = 4 - (int)levels; level <= 3; level++) {
        unsigned int shift = g + stride * (unsigned int)(3 - level);
        unsigned int width = level == 4 - (int)levels ? va_bits - shift : stride;
        uint64_t idx = (va >> shift) & ((1ULL << width) - 1);
        uint64_t e, span = 1ULL << shift;
        enum xu_mem_fault f = read_pte(ctx, table + idx * 8, &e);

        if (f != XU_MEM_OK)
            return f;
        if (!(e & DESC_VALID))
            return XU_MEM_NOT_PRESENT;
        if ((e & DESC_OA_HI) || (g == 16 && (e & DESC_OA_HI64K)))
            return XU_MEM_BAD_FRAME;
        if (level == 3) {
            if (!(e & DESC_TABLE))
                return XU_MEM_RESERVED;     /* type 01 at level 3 is reserved */
            *frame = ((e & DESC_OA_TOP & ~(span - 1)) | (va & (span - 1))) >> XU_PAGE_SHIFT;
            return XU_MEM_OK;
        }
        if (!(e & DESC_TABLE)) {
            if (!block_allowed(g, level))
                return XU_MEM_RESERVED;
            *frame = ((e & DESC_OA_TOP & ~(span - 1)) | (va & (span - 1))) >> XU_PAGE_SHIFT;
            return XU_MEM_OK;
        }
        /* the next table, aligned to the granule */
        table = e & DESC_OA_TOP & ~((1ULL << g) - 1);
    }
    return XU_MEM_RESERVED;     /* not reached: level 3 always returns */
}
