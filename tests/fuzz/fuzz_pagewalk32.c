/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fuzz_pagewalk32.c - the 32-bit x86 page walks (paging off, two-level
 * with and without PSE, PAE) and the 32-bit frame-pointer walk over a
 * guest whose physical memory, control registers and stack registers all
 * come from the input:
 *
 *   byte 0      flags: bits 0-1 paging (0 off, 1 two-level, 2 PAE, 3 long
 *               mode: a vCPU that left 32-bit mode), bit 2 CR4.PSE, bit 3
 *               real mode (CR0.PE clear)
 *   bytes 1-16  CR3, EIP, ESP, EBP (little-endian 32-bit)
 *   byte 17     n, at most MAX_VAS: addresses to translate
 *   n words     those addresses (32-bit; the top bit of the count's byte
 *               shifts them past 4 GiB)
 *   the rest    physical memory from frame 0, at most NR_FRAMES frames
 *
 * Every translation must read at most three entries, a walk with paging
 * off must be the identity, and the unwinder must stay within its depth;
 * frames past the input's memory fail to map, as a backend's would.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "fuzz_sim.h"
#include "mem/xu_mem.h"
#include "unwind/xu_unwind.h"

#define NR_FRAMES 16u
#define MAX_VAS 16u
#define MAX_DEPTH 64u
#define HEADER 18u

struct phys {
    const uint8_t *mem;
    size_t len;
    unsigned int reads;
};

static enum xu_mem_fault read_pte(void *ctx, uint64_t addr, uint64_t *pte)
{
    struct phys *p = ctx;

    p->reads++;
    if ((addr & 7) || addr >= p->len || p->len - addr < 8)
        return XU_MEM_MAP_FAILED;
    memcpy(pte, p->mem + addr, 8);
    return XU_MEM_OK;
}

static uint32_t le32(const uint8_t *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static void regs_from(const uint8_t *d, struct xu_vcpu_regs *r)
{
    static const enum xu_paging_mode modes[4] = {
        XU_PAGING_NONE, XU_PAGING_32, XU_PAGING_PAE, XU_PAGING_LONG4,
    };

    memset(r, 0, sizeof(*r));
    r->online = true;
    r->kernel_mode = true;
    r->mmu.paging = modes[d[0] & 3];
    r->mmu.ctl = (d[0] & 4) ? 0x10 : 0;
    r->cr0 = (d[0] & 8) ? 0 : 1;
    r->mmu.root = le32(d + 1);
    r->ip = le32(d + 5);
    r->sp = le32(d + 9);
    r->fp = le32(d + 13);
}

static void translations(const uint8_t *d, size_t size, const struct xu_vcpu_regs *r,
                         struct phys *p)
{
    unsigned int n = d[17] & 0x7f, i;
    uint64_t high = (d[17] & 0x80) ? 1ULL << 32 : 0, va, frame;

    if (n > MAX_VAS)
        n = MAX_VAS;
    for (i = 0; i < n && HEADER + 4 * (size_t)(i + 1) <= size; i++) {
        enum xu_mem_fault f;

        va = high | le32(d + HEADER + 4 * i);
        p->reads = 0;
        f = xu_arch_x86_32.translate(&r->mmu, va, read_pte, p, &frame);
        if (p->reads > 3)
            abort();
        if (f == XU_MEM_OK && r->mmu.paging == XU_PAGING_NONE && frame != va >> 12)
            abort();
        if (f == XU_MEM_OK && va > 0xffffffffULL)
            abort();
    }
}

static void unwind_on(void *ctx, struct xu_mem *m)
{
    const struct xu_vcpu_regs *r = ctx;
    struct xu_unwind_result res;
    uint64_t pcs[MAX_DEPTH];

    xu_unwind_fp(NULL, m, r, pcs, MAX_DEPTH, &res);
    if (res.depth > MAX_DEPTH)
        abort();
}

static void unwind(const struct xu_vcpu_regs *r, const uint8_t *mem, size_t len)
{
    xu_fuzz_on_sim(&xu_arch_x86_32, NR_FRAMES, mem, len, r, unwind_on, (void *)r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct xu_vcpu_regs r;
    struct phys p;
    size_t vas;

    if (size < HEADER)
        return 0;
    regs_from(data, &r);
    vas = 4 * (size_t)((data[17] & 0x7f) < MAX_VAS ? (data[17] & 0x7f) : MAX_VAS);
    if (vas > size - HEADER)
        vas = size - HEADER;
    p.mem = data + HEADER + vas;
    p.len = size - HEADER - vas;
    if (p.len > NR_FRAMES * XU_PAGE_SIZE)
        p.len = NR_FRAMES * XU_PAGE_SIZE;
    translations(data, size, &r, &p);
    unwind(&r, p.mem, p.len);
    return 0;
}
