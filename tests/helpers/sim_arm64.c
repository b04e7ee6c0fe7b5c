/* SPDX-License-Identifier: GPL-2.0-only */
/* sim_arm64.c - AArch64 stage-1 tables in the simulated guest (sim_arm64.h). */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "sim_arm64.h"

#define OA_MASK 0x0000fffffffff000ULL

/* The level that resolves the top bits, from the VA size and granule. */
static int start_level(const struct sim_a64 *a)
{
    unsigned int per = a->granule_shift - 3, bits = a->va_bits - a->granule_shift;
    int levels = 0;

    while (bits > 0 && levels < 4) {
        bits = bits > per ? bits - per : 0;
        levels++;
    }
    return 4 - levels;
}

static unsigned int level_shift(const struct sim_a64 *a, int level)
{
    return a->granule_shift + (a->granule_shift - 3) * (unsigned int)(3 - level);
}

static uint64_t *entry(const struct sim_a64 *a, uint64_t table, uint64_t va, int level)
{
    unsigned int shift = level_shift(a, level);
    /* the start level resolves only the bits left below the VA size */
    unsigned int width = level == start_level(a) ? a->va_bits - shift : a->granule_shift - 3;
    uint64_t idx = (va >> shift) & ((1ULL << width) - 1);
    uint64_t addr = table + idx * 8;
    uint8_t *frame = xu_sim_frame(a->sim, addr >> XU_PAGE_SHIFT);

    return frame ? (uint64_t *)(frame + (addr & (XU_PAGE_SIZE - 1))) : NULL;
}

uint64_t sim_a64_alloc(struct xu_sim *sim, uint64_t bytes)
{
    uint64_t n = (bytes + XU_PAGE_SIZE - 1) >> XU_PAGE_SHIFT, first, f, i;

    if (n == 0)
        n = 1;
    /* frames come in order: skip to the alignment, then take n */
    do {
        first = xu_sim_alloc_frame(sim);
        if (first == UINT64_MAX)
            return UINT64_MAX;
    } while (first & (n - 1));
    for (i = 1; i < n; i++) {
        f = xu_sim_alloc_frame(sim);
        if (f != first + i)
            return UINT64_MAX;
    }
    return first << XU_PAGE_SHIFT;
}

int sim_a64_init(struct sim_a64 *a, struct xu_sim *sim, unsigned int granule_shift,
                 unsigned int va_bits)
{
    a->sim = sim;
    a->granule_shift = granule_shift;
    a->va_bits = va_bits;
    a->root = sim_a64_alloc(sim, 1ULL << granule_shift);
    return a->root == UINT64_MAX ? -ENOMEM : 0;
}

/* The table that holds level's entry for va, creating tables on the way
 * when create; UINT64_MAX when absent (or no memory). */
static uint64_t table_for(struct sim_a64 *a, uint64_t va, int level, int create)
{
    uint64_t table = a->root;
    int l;

    for (l = start_level(a); l < level; l++) {
        uint64_t *e = entry(a, table, va, l);

        if (!e)
            return UINT64_MAX;
        if (!(*e & SIM_A64_VALID)) {
            uint64_t t;

            if (!create)
                return UINT64_MAX;
            t = sim_a64_alloc(a->sim, 1ULL << a->granule_shift);
            if (t == UINT64_MAX)
                return UINT64_MAX;
            *e = t | SIM_A64_VALID | SIM_A64_TABLE;
        }
        if (!(*e & SIM_A64_TABLE))
            return UINT64_MAX;      /* a block on the way */
        table = *e & OA_MASK & ~((1ULL << a->granule_shift) - 1);
    }
    return table;
}

int sim_a64_map(struct sim_a64 *a, uint64_t va, uint64_t pa, int level)
{
    uint64_t table, *e;

    if (level < start_level(a) || level > 3 || (pa & ((1ULL << level_shift(a, level)) - 1)))
        return -EINVAL;
    table = table_for(a, va, level, 1);
    if (table == UINT64_MAX || !(e = entry(a, table, va, level)))
        return -ENOMEM;
    *e = pa | SIM_A64_VALID | SIM_A64_AF | (level == 3 ? SIM_A64_PAGE : 0);
    return 0;
}

int sim_a64_map_range(struct sim_a64 *a, uint64_t va, uint64_t len)
{
    uint64_t g = 1ULL << a->granule_shift, v;
    unsigned int i;

    for (v = va & ~(g - 1), i = 0; v < va + len && i < 4096; v += g, i++) {
        uint64_t pa = sim_a64_alloc(a->sim, g);

        if (pa == UINT64_MAX || sim_a64_map(a, v, pa, 3) < 0)
            return -ENOMEM;
    }
    return 0;
}

int sim_a64_set(struct sim_a64 *a, uint64_t va, int level, uint64_t desc)
{
    uint64_t table = table_for(a, va, level, 0), *e;

    if (table == UINT64_MAX || !(e = entry(a, table, va, level)))
        return -EINVAL;
    *e = desc;
    return 0;
}

/* The physical address of va through pages only. */
static uint64_t phys(struct sim_a64 *a, uint64_t va)
{
    uint64_t table = table_for(a, va, 3, 0), *e;
    uint64_t g = 1ULL << a->granule_shift;

    if (table == UINT64_MAX || !(e = entry(a, table, va, 3)) || !(*e & SIM_A64_VALID))
        return UINT64_MAX;
    return (*e & OA_MASK & ~(g - 1)) | (va & (g - 1));
}

int sim_a64_write(struct sim_a64 *a, uint64_t va, const void *buf, size_t len)
{
    const uint8_t *p = buf;

    while (len) {
        uint64_t pa = phys(a, va);
        size_t chunk = XU_PAGE_SIZE - (va & (XU_PAGE_SIZE - 1));
        uint8_t *frame;

        if (chunk > len)
            chunk = len;
        if (pa == UINT64_MAX || !(frame = xu_sim_frame(a->sim, pa >> XU_PAGE_SHIFT)))
            return -EFAULT;
        memcpy(frame + (pa & (XU_PAGE_SIZE - 1)), p, chunk);
        va += chunk;
        p += chunk;
        len -= chunk;
    }
    return 0;
}

int sim_a64_write_u64(struct sim_a64 *a, uint64_t va, uint64_t v)
{
    return sim_a64_write(a, va, &v, sizeof(v));
}

static uint64_t tg0(unsigned int g)
{
    return g == 16 ? SIM_A64_TG0_64K : g == 14 ? SIM_A64_TG0_16K : SIM_A64_TG0_4K;
}

static uint64_t tg1(unsigned int g)
{
    return g == 16 ? SIM_A64_TG1_64K : g == 14 ? SIM_A64_TG1_16K : SIM_A64_TG1_4K;
}

uint64_t sim_a64_tcr(unsigned int g0, unsigned int va0, unsigned int g1, unsigned int va1)
{
    return (uint64_t)(64 - va0) | tg0(g0) << 14 | (uint64_t)(64 - va1) << 16 | tg1(g1) << 30;
}
