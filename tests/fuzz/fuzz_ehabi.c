/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fuzz_ehabi.c - hostile ARM EHABI tables and stacks: the table reader
 * (xu_ehabi_from_sections, or xu_ehabi_open for an ELF file), a lookup of
 * every register's value, the walk over a stack from the input, and the
 * interpreter on raw bytes.
 *
 * Input (not an ELF): a 16-byte header (exidx address, extab address,
 * exidx length, extab length: u32, u32, u16, u16, then 4 spare bytes),
 * the two sections, 64 bytes of r0-r15, then the stack, which starts at
 * r13 rounded down to a word.  All little-endian.
 */
#include "config.h"

#include <string.h>

#include "fuzz.h"
#include "unwind/xu_ehabi.h"

struct stack {
    const uint8_t *p;
    size_t len;
    uint32_t base;
};

static uint32_t u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int read_word(void *ctx, uint32_t addr, uint32_t *w)
{
    const struct stack *s = ctx;

    if (addr < s->base || s->len < 4 || addr - s->base > s->len - 4)
        return -1;
    *w = u32(s->p + (addr - s->base));
    return 0;
}

static void walk(const struct xu_ehabi_table *t, const uint8_t *regs, const struct stack *s)
{
    struct xu_ehabi_regs r;
    struct xu_unwind_result res;
    uint64_t pcs[64];
    uint8_t ops[XU_EHABI_MAX_OPS];
    enum xu_ehabi_kind kind;
    uint32_t start;
    size_t n;
    unsigned int i;

    memset(&r, 0, sizeof(r));
    for (i = 0; i < 16; i++) {
        r.r[i] = u32(regs + 4 * i);
        (void)xu_ehabi_find(t, r.r[i], &start, &kind, ops, &n);
    }
    r.known = 0xffffu;
    xu_ehabi_walk(t, &r, read_word, (void *)s, pcs, 64, &res);
}

static void from_elf(const uint8_t *data, size_t size)
{
    struct xu_ehabi_table *t = NULL;
    const char *path = xu_fuzz_as_file(data, size);
    static const uint8_t regs[64];
    struct stack s = { NULL, 0, 0 };

    if (!path || xu_ehabi_open(path, NULL, &t) < 0)
        return;
    walk(t, regs, &s);
    xu_ehabi_free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct xu_ehabi_table *t = NULL;
    struct xu_ehabi_regs r;
    struct stack s;
    size_t exidx_len, extab_len, at;

    if (size >= 4 && memcmp(data, "\x7f" "ELF", 4) == 0) {
        from_elf(data, size);
        return 0;
    }
    if (size < 16)
        return 0;
    exidx_len = (size_t)data[8] | (size_t)data[9] << 8;
    extab_len = (size_t)data[10] | (size_t)data[11] << 8;
    at = 16 + exidx_len + extab_len;
    if (at > size || size - at < 64)
        return 0;
    s.p = data + at + 64;
    s.len = size - at - 64;
    s.base = u32(data + at + 4 * 13) & ~3u;
    /* the interpreter on whatever follows the registers, as instructions */
    memset(&r, 0, sizeof(r));
    r.r[13] = s.base;
    r.known = 0x7fffu;
    (void)xu_ehabi_exec(s.p, s.len < XU_EHABI_MAX_OPS ? s.len : XU_EHABI_MAX_OPS, &r,
                        read_word, &s);
    if (xu_ehabi_from_sections(data + 16, exidx_len, u32(data), data + 16 + exidx_len,
                               extab_len, u32(data + 4), &t) < 0)
        return 0;
    walk(t, data + at, &s);
    xu_ehabi_free(t);
    return 0;
}
