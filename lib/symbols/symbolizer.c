/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * symbolizer.c - the profile's unique addresses, each resolved once.
 *
 * Writers ask for the name of every frame of every stack; the same return
 * address recurs in thousands of stacks.  Resolving the sorted set of
 * unique addresses up front turns each of those questions into a binary
 * search over an array of plain (address, name) pairs, and the symbol table
 * is consulted exactly once per address.
 *
 * A writer asks once per frame of every stack (20 million times for a
 * million 20-deep samples), so the question itself must be cheap: an
 * open-addressing table over the sorted array answers it in O(1) (a binary
 * search over tens of thousands of addresses cost a quarter of a folded
 * conversion).  The table holds indices, at most half full.
 *
 * Names are demangled here, once per distinct symbol (a function's many
 * return addresses share one readable name), so no writer pays for it and
 * all of them show the same name.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "symbols/xu_demangle.h"
#include "symbols/xu_symbols.h"

#define HEX_LEN 19              /* "0x" + 16 digits + NUL */

static size_t slot_of(uint64_t addr, unsigned int bits)
{
    return (size_t)((addr * 0x9e3779b97f4a7c15ULL) >> (64 - bits));
}

struct entry {
    uint64_t addr;
    const char *name;
    const struct xu_symbol *sym;    /* NULL: unresolved, name is hex */
};

struct xu_symbolizer {
    struct entry *e;
    size_t n;
    size_t *slots;                  /* index + 1 into e, 0 = empty */
    unsigned int slot_bits;         /* 1 << slot_bits slots */
    char *hex;                      /* HEX_LEN bytes per unresolved address */
    char **demangled;               /* the readable names e[].name points to */
    size_t nr_demangled;
};

/* A symbol's readable name, for the symbol's other addresses. */
struct sym_name {
    const struct xu_symbol *sym;    /* NULL: free slot */
    const char *name;
};

static size_t slot_of_sym(const struct xu_symbol *sym, unsigned int bits)
{
    return slot_of((uint64_t)(uintptr_t)sym, bits);
}

/*
 * Replace each resolved entry's name by its demangled form, demangling
 * each distinct symbol once: its addresses are usually neighbours in the
 * sorted array, but overlapping symbols can interleave them, so a table
 * keyed by symbol remembers what was done.  0 or ENOMEM.
 */
static int demangle_names(struct xu_symbolizer *sz)
{
    struct sym_name *seen = NULL;
    unsigned int bits = 1;
    size_t i, mask;
    int err = 0;

    while (bits < 62 && ((size_t)1 << bits) < sz->n * 2)
        bits++;
    mask = ((size_t)1 << bits) - 1;
    if (((size_t)1 << bits) > SIZE_MAX / sizeof(*seen) ||
        !(seen = calloc((size_t)1 << bits, sizeof(*seen))) ||
        !(sz->demangled = calloc(sz->n ? sz->n : 1, sizeof(*sz->demangled)))) {
        err = ENOMEM;
        goto out;
    }
    for (i = 0; i < sz->n; i++) {
        const struct xu_symbol *sym = sz->e[i].sym;
        size_t j;
        char *d;

        if (!sym)
            continue;
        for (j = slot_of_sym(sym, bits); seen[j].sym && seen[j].sym != sym; j = (j + 1) & mask)
            ;
        if (!seen[j].sym) {
            seen[j].sym = sym;
            seen[j].name = sym->name;
            /* NULL: not mangled (or no memory for the readable form): kept */
            d = xu_demangle(sym->name, XU_DEMANGLE_ALL);
            if (d) {
                sz->demangled[sz->nr_demangled++] = d;
                seen[j].name = d;
            }
        }
        sz->e[i].name = seen[j].name;
    }
out:
    free(seen);
    return err;
}

struct xu_symbolizer *xu_symbolizer_new(const struct xu_symtab *st,
                                        const uint64_t *addrs, size_t n)
{
    return xu_symbolizer_new_flags(st, addrs, n, 0);
}

struct xu_symbolizer *xu_symbolizer_new_flags(const struct xu_symtab *st,
                                              const uint64_t *addrs, size_t n,
                                              unsigned int flags)
{
    struct xu_symbolizer *sz = NULL, *ret = NULL;
    size_t i, unresolved = 0, k = 0;
    int err = 0;

    for (i = 1; i < n; i++) {
        if (addrs[i] <= addrs[i - 1]) {     /* the lookup below relies on it */
            err = EINVAL;
            goto out;
        }
    }
    sz = calloc(1, sizeof(*sz));
    if (!sz || n > SIZE_MAX / sizeof(*sz->e) ||
        !(sz->e = malloc((n ? n : 1) * sizeof(*sz->e)))) {
        err = ENOMEM;
        goto out;
    }
    sz->n = n;
    for (i = 0; i < n; i++) {
        sz->e[i].addr = addrs[i];
        sz->e[i].sym = st ? xu_symtab_lookup(st, addrs[i]) : NULL;
        sz->e[i].name = sz->e[i].sym ? sz->e[i].sym->name : NULL;
        if (!sz->e[i].sym)
            unresolved++;
    }
    if (!(flags & XU_SYMBOLIZER_RAW_NAMES) && unresolved < n &&
        (err = demangle_names(sz)) != 0)
        goto out;
    /* hex names in one block, made only for the addresses that need them */
    sz->hex = malloc(unresolved ? unresolved * HEX_LEN : 1);
    if (!sz->hex) {
        err = ENOMEM;
        goto out;
    }
    for (i = 0; i < n; i++) {
        if (sz->e[i].sym)
            continue;
        snprintf(sz->hex + k * HEX_LEN, HEX_LEN, "0x%" PRIx64, addrs[i]);
        sz->e[i].name = sz->hex + k * HEX_LEN;
        k++;
    }
    sz->slot_bits = 1;
    while (sz->slot_bits < 62 && ((size_t)1 << sz->slot_bits) < n * 2)
        sz->slot_bits++;
    if (((size_t)1 << sz->slot_bits) > SIZE_MAX / sizeof(*sz->slots) ||
        !(sz->slots = calloc((size_t)1 << sz->slot_bits, sizeof(*sz->slots)))) {
        err = ENOMEM;
        goto out;
    }
    for (i = 0; i < n; i++) {
        size_t mask = ((size_t)1 << sz->slot_bits) - 1, j = slot_of(addrs[i], sz->slot_bits);

        while (sz->slots[j])
            j = (j + 1) & mask;
        sz->slots[j] = i + 1;
    }
    ret = sz;
    sz = NULL;

out:
    xu_symbolizer_free(sz);
    if (!ret)
        errno = err;
    return ret;
}

void xu_symbolizer_free(struct xu_symbolizer *sz)
{
    size_t i;

    if (!sz)
        return;
    free(sz->e);
    free(sz->slots);
    free(sz->hex);
    for (i = 0; i < sz->nr_demangled; i++)
        free(sz->demangled[i]);
    free(sz->demangled);
    free(sz);
}

const char *xu_symbolizer_name(const struct xu_symbolizer *sz, uint64_t addr,
                               const struct xu_symbol **sym)
{
    size_t mask = ((size_t)1 << sz->slot_bits) - 1, j, k;

    if (sym)
        *sym = NULL;
    /* at most half full: a probe sequence always reaches an empty slot */
    for (j = slot_of(addr, sz->slot_bits); (k = sz->slots[j]) != 0; j = (j + 1) & mask) {
        if (sz->e[k - 1].addr == addr) {
            if (sym)
                *sym = sz->e[k - 1].sym;
            return sz->e[k - 1].name;
        }
    }
    return NULL;
}
