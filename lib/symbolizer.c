/*
 * symbolizer.c - the profile's unique addresses, each resolved once.
 *
 * Writers ask for the name of every frame of every stack; the same return
 * address recurs in thousands of stacks.  Resolving the sorted set of
 * unique addresses up front turns each of those questions into a binary
 * search over an array of plain (address, name) pairs, and the symbol table
 * is consulted exactly once per address.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "xu_symbols.h"

#define HEX_LEN 19              /* "0x" + 16 digits + NUL */

struct entry {
    uint64_t addr;
    const char *name;
    const struct xu_symbol *sym;    /* NULL: unresolved, name is hex */
};

struct xu_symbolizer {
    struct entry *e;
    size_t n;
    char *hex;                      /* HEX_LEN bytes per unresolved address */
};

struct xu_symbolizer *xu_symbolizer_new(const struct xu_symtab *st,
                                        const uint64_t *addrs, size_t n)
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
    if (!sz)
        return;
    free(sz->e);
    free(sz->hex);
    free(sz);
}

const char *xu_symbolizer_name(const struct xu_symbolizer *sz, uint64_t addr,
                               const struct xu_symbol **sym)
{
    size_t lo = 0, hi = sz->n;

    if (sym)
        *sym = NULL;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (sz->e[mid].addr < addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == sz->n || sz->e[lo].addr != addr)
        return NULL;
    if (sym)
        *sym = sz->e[lo].sym;
    return sz->e[lo].name;
}
