/* SPDX-License-Identifier: GPL-2.0-only */
/* sim_x86_32.c - 32-bit x86 tables in the simulated guest (sim_x86_32.h). */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "sim_x86_32.h"

#define ADDR32  0xfffff000ULL
#define ADDRPAE 0x000ffffffffff000ULL

/* Byte address of the entry for va at level in table, and its size. */
static uint64_t entry_addr(const struct sim_x86_32 *g, uint64_t table, uint64_t va, int level,
                           unsigned int *size)
{
    if (g->mode == XU_PAGING_32) {
        *size = 4;
        return table + (level == 2 ? (va >> 22) : ((va >> 12) & 1023)) * 4;
    }
    *size = 8;
    if (level == 3)
        return table + (va >> 30) * 8;
    return table + (level == 2 ? ((va >> 21) & 511) : ((va >> 12) & 511)) * 8;
}

static uint8_t *at(const struct sim_x86_32 *g, uint64_t addr)
{
    uint8_t *f = xu_sim_frame(g->sim, addr >> XU_PAGE_SHIFT);

    return f ? f + (addr & (XU_PAGE_SIZE - 1)) : NULL;
}

static uint64_t get(const struct sim_x86_32 *g, uint64_t addr, unsigned int size)
{
    uint64_t v = 0;

    memcpy(&v, at(g, addr), size);
    return v;
}

static void put(const struct sim_x86_32 *g, uint64_t addr, unsigned int size, uint64_t v)
{
    memcpy(at(g, addr), &v, size);
}

static int top_level(const struct sim_x86_32 *g)
{
    return g->mode == XU_PAGING_PAE ? 3 : 2;
}

int sim32_init(struct sim_x86_32 *g, struct xu_sim *sim, enum xu_paging_mode mode)
{
    uint64_t f;

    if (mode != XU_PAGING_32 && mode != XU_PAGING_PAE)
        return -EINVAL;
    g->sim = sim;
    g->mode = mode;
    f = xu_sim_alloc_frame(sim);
    if (f == UINT64_MAX)
        return -ENOMEM;
    g->root = f << XU_PAGE_SHIFT;
    return 0;
}

/* The table at level - 1 below the entry for va at level, made if absent. */
static int descend(struct sim_x86_32 *g, uint64_t *table, uint64_t va, int level)
{
    unsigned int size = 8;
    uint64_t a = entry_addr(g, *table, va, level, &size), e = get(g, a, size), f;

    if (!(e & SIM32_P)) {
        f = xu_sim_alloc_frame(g->sim);
        if (f == UINT64_MAX)
            return -ENOMEM;
        /* a PDPT entry takes no RW (reserved there) */
        e = (f << XU_PAGE_SHIFT) | SIM32_P | (level == 3 ? 0 : SIM32_RW);
        put(g, a, size, e);
    }
    *table = e & (size == 4 ? ADDR32 : ADDRPAE);
    return 0;
}

int sim32_map(struct sim_x86_32 *g, uint64_t va, uint64_t pa, int large)
{
    uint64_t table = g->root, span = large ? (g->mode == XU_PAGING_32 ? 1ULL << 22 : 1ULL << 21)
                                          : XU_PAGE_SIZE;
    unsigned int size = 8;
    int level, rc;

    if ((va | pa) & (span - 1) || va > 0xffffffffULL)
        return -EINVAL;
    for (level = top_level(g); level > (large ? 2 : 1); level--) {
        rc = descend(g, &table, va, level);
        if (rc)
            return rc;
    }
    if (g->mode == XU_PAGING_32 && large)
        pa = (pa & 0xffc00000ULL) | (((pa >> 32) & 0xff) << 13);
    put(g, entry_addr(g, table, va, level, &size), size,
        pa | SIM32_P | SIM32_RW | (large ? SIM32_PS : 0));
    return 0;
}

int sim32_map_range(struct sim_x86_32 *g, uint64_t va, uint64_t len)
{
    uint64_t off, f;
    int rc;

    for (off = 0; off < len; off += XU_PAGE_SIZE) {
        f = xu_sim_alloc_frame(g->sim);
        if (f == UINT64_MAX)
            return -ENOMEM;
        rc = sim32_map(g, va + off, f << XU_PAGE_SHIFT, 0);
        if (rc)
            return rc;
    }
    return 0;
}

int sim32_set(struct sim_x86_32 *g, uint64_t va, int level, uint64_t e)
{
    uint64_t table = g->root;
    unsigned int size = 8;
    int l;

    if (level < 1 || level > top_level(g))
        return -EINVAL;
    for (l = top_level(g); l > level; l--) {
        uint64_t cur = get(g, entry_addr(g, table, va, l, &size), size);

        if (!(cur & SIM32_P))
            return -EINVAL;
        table = cur & (size == 4 ? ADDR32 : ADDRPAE);
    }
    put(g, entry_addr(g, table, va, level, &size), size, e);
    return 0;
}

/* The physical address of va, through 4 KiB pages only. */
static int phys_of(const struct sim_x86_32 *g, uint64_t va, uint64_t *pa)
{
    uint64_t table = g->root, e = 0;
    unsigned int size = 8;
    int l;

    for (l = top_level(g); l >= 1; l--) {
        e = get(g, entry_addr(g, table, va, l, &size), size);
        if (!(e & SIM32_P) || (l < 3 && (e & SIM32_PS)))
            return -EFAULT;
        table = e & (size == 4 ? ADDR32 : ADDRPAE);
    }
    *pa = table | (va & (XU_PAGE_SIZE - 1));
    return 0;
}

int sim32_write(struct sim_x86_32 *g, uint64_t va, const void *buf, size_t len)
{
    const uint8_t *src = buf;
    uint64_t pa;

    while (len) {
        size_t chunk = XU_PAGE_SIZE - (va & (XU_PAGE_SIZE - 1));

        if (chunk > len)
            chunk = len;
        if (phys_of(g, va, &pa) || !at(g, pa))
            return -EFAULT;
        memcpy(at(g, pa), src, chunk);
        src += chunk;
        va += chunk;
        len -= chunk;
    }
    return 0;
}

int sim32_write_u32(struct sim_x86_32 *g, uint64_t va, uint32_t v)
{
    return sim32_write(g, va, &v, sizeof(v));
}

void sim32_regs(const struct sim_x86_32 *g, uint64_t ip, uint64_t sp, uint64_t fp,
                struct xu_vcpu_regs *out)
{
    memset(out, 0, sizeof(*out));
    out->online = true;
    out->kernel_mode = true;
    out->ip = ip;
    out->sp = sp;
    out->fp = fp;
    out->mmu.paging = g->mode;
    out->mmu.root = g->root;
    out->cr0 = SIM32_CR0_PE | SIM32_CR0_PG;
    out->cr4 = g->mode == XU_PAGING_PAE ? SIM32_CR4_PAE : SIM32_CR4_PSE;
    out->mmu.ctl = out->cr4;
}
