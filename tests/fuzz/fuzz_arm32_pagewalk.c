/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fuzz_arm32_pagewalk.c - hostile AArch32 page tables: the short-descriptor
 * and LPAE walks (xu_arch_arm32.translate) over a guest-physical memory
 * from the input, and the arch's rules on the same MMU state.
 *
 * Input: TTBR0 (u64), TTBR1 (u64), TTBCR (u32, EAE picks the format), a
 * flags byte (bit 0: MMU off, bit 1: big-endian tables), eight VAs (u32
 * each), then physical memory from address 0.  All little-endian.
 */
#include "config.h"

#include <string.h>

#include "fuzz.h"
#include "arch/xu_arch.h"

#define HEADER (8 + 8 + 4 + 1 + 8 * 4)

struct phys {
    const uint8_t *p;
    size_t len;
    unsigned int reads;
};

static uint64_t le(const uint8_t *p, unsigned int n)
{
    uint64_t v = 0;

    while (n--)
        v = v << 8 | p[n];
    return v;
}

static enum xu_mem_fault read_pte(void *ctx, uint64_t addr, uint64_t *pte)
{
    struct phys *m = ctx;

    m->reads++;
    if (m->len < 8 || addr > m->len - 8)
        return XU_MEM_MAP_FAILED;
    *pte = le(m->p + addr, 8);
    return XU_MEM_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const struct xu_arch_ops *a = &xu_arch_arm32;
    struct xu_mmu mmu;
    struct xu_vcpu_regs regs;
    struct phys m;
    unsigned int i;

    if (size < HEADER)
        return 0;
    memset(&mmu, 0, sizeof(mmu));
    mmu.root = le(data, 8);
    mmu.root_hi = le(data + 8, 8);
    mmu.ctl = le(data + 16, 4) | ((data[20] & 2) ? 1ULL << 63 : 0);
    mmu.paging = (data[20] & 1) ? XU_PAGING_NONE : XU_PAGING_ARM32;
    m.p = data + HEADER;
    m.len = size - HEADER;
    for (i = 0; i < 8; i++) {
        uint64_t frame = 0;

        m.reads = 0;
        (void)a->translate(&mmu, le(data + 21 + 4 * i, 4), read_pte, &m, &frame);
        if (m.reads > 3)        /* the walk's bound: two short reads, three LPAE */
            __builtin_trap();
    }
    memset(&regs, 0, sizeof(regs));
    regs.mmu = mmu;
    (void)a->space_key(&mmu);
    (void)a->stack_readable(&regs);
    (void)a->code_address(&regs, mmu.root);
    return 0;
}
