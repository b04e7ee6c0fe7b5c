/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * linux_alternatives.c - where an x86 Linux kernel's alternatives put a call
 * (see xu_linux_alternatives.h).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/xu_elf_section.h"
#include "symbols/xu_linux_alternatives.h"
#include "util/xu_sort.h"
#include "util/xu_le.h"

#define CALL_REL32      0xe8
#define CALL_REL32_LEN  5

/* One layout of struct alt_instr: its size and where its two lengths are. */
struct alt_layout {
    size_t size;
    size_t lens;        /* instrlen, then replacementlen */
};

static const struct alt_layout layouts[] = {
    { 12, 10 },
    { 13, 10 },
    { 14, 12 },
};

struct alt_entry {
    uint64_t site, repl;
    uint8_t repl_len;
};

/* Entry i of the table at addr under layout l; each offset counts from its own field. */
static struct alt_entry entry_at(const uint8_t *table, uint64_t addr, const struct alt_layout *l,
                                 size_t i)
{
    const uint8_t *e = table + i * l->size;
    uint64_t at = addr + i * l->size;
    struct alt_entry a;

    a.site = at + (uint64_t)(int64_t)(int32_t)xu_le32(e);
    a.repl = at + 4 + (uint64_t)(int64_t)(int32_t)xu_le32(e + 4);
    a.repl_len = e[l->lens + 1];
    return a;
}

static bool in_code(const struct xu_elf_code *code, uint64_t addr, size_t len)
{
    return len == 0 || xu_elf_code_before(code, addr + len, len) != NULL;
}

/* Every entry's site and replacement lie in the image's code. */
static bool layout_fits(const uint8_t *table, size_t size, uint64_t addr,
                        const struct alt_layout *l, const struct xu_elf_code *code)
{
    size_t i;

    if (size % l->size)
        return false;
    for (i = 0; i < size / l->size; i++) {
        struct alt_entry a = entry_at(table, addr, l, i);

        if (!in_code(code, a.site, 1) || !in_code(code, a.repl, a.repl_len))
            return false;
    }
    return true;
}

/* The sites whose replacement opens with a direct call, as return addresses. */
static int collect(const uint8_t *table, size_t size, uint64_t addr, const struct alt_layout *l,
                   const struct xu_elf_code *code, uint64_t **out, size_t *n)
{
    size_t i, k = 0, nr = size / l->size;
    uint64_t *v = malloc(nr * sizeof(*v));

    if (!v)
        return -ENOMEM;
    for (i = 0; i < nr; i++) {
        struct alt_entry a = entry_at(table, addr, l, i);
        const uint8_t *b;

        /* the call is copied over the site: both hold all of it */
        if (a.repl_len < CALL_REL32_LEN || !in_code(code, a.site, CALL_REL32_LEN))
            continue;
        b = xu_elf_code_before(code, a.repl + CALL_REL32_LEN, CALL_REL32_LEN);
        if (b && b[0] == CALL_REL32)
            v[k++] = a.site + CALL_REL32_LEN;
    }
    if (k == 0) {
        free(v);
        return 0;
    }
    xu_sort_u64(v, k);
    for (i = 1, nr = 1; i < k; i++)
        if (v[i] != v[nr - 1])
            v[nr++] = v[i];
    *out = v;
    *n = nr;
    return 0;
}

int xu_linux_alt_call_returns(Elf *elf, const struct xu_elf_code *code, uint64_t **out,
                              size_t *n)
{
    GElf_Shdr sh;
    Elf_Scn *scn;
    Elf_Data *d;
    size_t i;

    *out = NULL;
    *n = 0;
    scn = xu_elf_progbits_named(elf, ".altinstructions", &sh);
    if (!scn || sh.sh_size == 0 || sh.sh_size > XU_LINUX_ALT_MAX_BYTES)
        return 0;
    d = elf_getdata(scn, NULL);
    if (!d || !d->d_buf || d->d_size != sh.sh_size)
        return 0;
    for (i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++)
        if (layout_fits(d->d_buf, d->d_size, sh.sh_addr, &layouts[i], code))
            return collect(d->d_buf, d->d_size, sh.sh_addr, &layouts[i], code, out, n);
    return 0;
}
