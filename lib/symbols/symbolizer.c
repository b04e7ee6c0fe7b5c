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
 *
 * With the ELF's DWARF, each address also gets its chain of inlined
 * functions and their source lines (dwarf_lines.c), kept as a slice of one
 * array of xu_frame_line.  Their strings are copied out of libdw (which is
 * closed once every address is resolved) into one pool, each distinct
 * string once: a file name recurs in thousands of entries.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/xu_demangle.h"
#include "symbols/xu_dwarf_lines.h"
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
    size_t first;                   /* its functions: lines[first..first + count) */
    unsigned int count;
};

/* libdw's strings (stable while it is open) -> our copies, each once. */
struct str_copy {
    const char *from;               /* NULL: free slot */
    const char *to;
};

struct str_pool {
    struct str_copy *slots;
    size_t n, bits;
    char **blocks;                  /* one allocation per string */
    size_t nr_blocks, cap_blocks;
};

struct xu_symbolizer {
    struct entry *e;
    size_t n;
    struct xu_frame_line *lines;
    size_t nr_lines;
    bool has_dwarf;
    struct str_pool pool;
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
    return xu_symbolizer_new_dwarf(st, addrs, n, 0, NULL, NULL);
}

struct xu_symbolizer *xu_symbolizer_new_flags(const struct xu_symtab *st,
                                              const uint64_t *addrs, size_t n,
                                              unsigned int flags)
{
    return xu_symbolizer_new_dwarf(st, addrs, n, flags, NULL, NULL);
}

/* Our copy of s (demangled when asked and mangled), or NULL without memory. */
static const char *pool_copy(struct str_pool *p, const char *s, bool demangle)
{
    size_t mask, j;
    char *c = NULL;

    if ((p->n + 1) * 2 > ((size_t)1 << p->bits)) {
        size_t bits = p->bits ? p->bits + 1 : 8, k;
        struct str_copy *slots = calloc((size_t)1 << bits, sizeof(*slots));

        if (!slots)
            return NULL;
        for (k = 0; p->slots && k < ((size_t)1 << p->bits); k++) {
            if (!p->slots[k].from)
                continue;
            for (j = slot_of((uintptr_t)p->slots[k].from, (unsigned int)bits);
                 slots[j].from; j = (j + 1) & (((size_t)1 << bits) - 1))
                ;
            slots[j] = p->slots[k];
        }
        free(p->slots);
        p->slots = slots;
        p->bits = bits;
    }
    mask = ((size_t)1 << p->bits) - 1;
    for (j = slot_of((uintptr_t)s, (unsigned int)p->bits); p->slots[j].from; j = (j + 1) & mask)
        if (p->slots[j].from == s)
            return p->slots[j].to;
    if (p->nr_blocks == p->cap_blocks) {
        size_t cap = p->cap_blocks ? p->cap_blocks * 2 : 64;
        char **b = realloc(p->blocks, cap * sizeof(*b));

        if (!b)
            return NULL;
        p->blocks = b;
        p->cap_blocks = cap;
    }
    if (demangle)
        c = xu_demangle(s, XU_DEMANGLE_ALL);
    if (!c && !(c = strdup(s)))
        return NULL;
    p->blocks[p->nr_blocks++] = c;
    p->slots[j].from = s;
    p->slots[j].to = c;
    p->n++;
    return c;
}

/* Room for `more` entries more in sz->lines.  0 or ENOMEM. */
static int lines_reserve(struct xu_symbolizer *sz, size_t *cap, size_t more)
{
    struct xu_frame_line *l;
    size_t ncap = *cap;

    if (sz->nr_lines + more <= *cap)
        return 0;
    while (ncap < sz->nr_lines + more)
        ncap = ncap ? ncap * 2 : 64;
    if (ncap > SIZE_MAX / sizeof(*l) || !(l = realloc(sz->lines, ncap * sizeof(*l))))
        return ENOMEM;
    sz->lines = l;
    *cap = ncap;
    return 0;
}

/*
 * Each address's functions: its symbol alone, or with DWARF its source
 * line and the functions inlined at it.  DWARF that libdw cannot open
 * leaves names only; running out of memory fails.  0 or ENOMEM.
 */
static int resolve_lines(struct xu_symbolizer *sz, unsigned int flags, const char *elf_path,
                         struct xu_log *log)
{
    struct xu_frame_line chain[XU_INLINE_MAX_DEPTH];
    struct xu_dwarf_lines *dl = NULL;
    bool demangle = !(flags & XU_SYMBOLIZER_RAW_NAMES);
    size_t i, cap = 0;
    unsigned int c, j;
    int err = 0, rc;

    if (elf_path) {
        rc = xu_dwarf_lines_open(elf_path, log, &dl);
        if (rc == -ENOMEM) {
            err = ENOMEM;
            goto out;
        }
        if (rc < 0 && rc != -ENOSYS && rc != -ENODATA)
            xu_warn(log, "%s: no source lines nor inlined functions: %s", elf_path,
                    strerror(-rc));
    }
    if ((err = lines_reserve(sz, &cap, sz->n ? sz->n : 1)) != 0)
        goto out;
    for (i = 0; i < sz->n; i++) {
        c = dl && sz->e[i].sym ? xu_dwarf_lines_at(dl, sz->e[i].addr,
                                                   flags & XU_SYMBOLIZER_INLINE,
                                                   chain, XU_INLINE_MAX_DEPTH) : 0;
        if (c == 0) {
            memset(chain, 0, sizeof(chain[0]));
            c = 1;
        }
        if ((err = lines_reserve(sz, &cap, c)) != 0)
            goto out;
        sz->e[i].first = sz->nr_lines;
        sz->e[i].count = c;
        for (j = 0; j < c; j++) {
            struct xu_frame_line *l = &sz->lines[sz->nr_lines++];

            *l = chain[j];
            if (j == 0)
                l->name = sz->e[i].name;
            else if (!l->name)
                l->name = "[inlined]";
            else if (!(l->name = pool_copy(&sz->pool, l->name, demangle)))
                err = ENOMEM;
            if (l->file && !(l->file = pool_copy(&sz->pool, l->file, false)))
                err = ENOMEM;
            if (err)
                goto out;
            if (l->line || l->inlined)
                sz->has_dwarf = true;
        }
    }
out:
    xu_dwarf_lines_free(dl);
    return err;
}

struct xu_symbolizer *xu_symbolizer_new_dwarf(const struct xu_symtab *st,
                                              const uint64_t *addrs, size_t n,
                                              unsigned int flags, const char *elf_path,
                                              struct xu_log *log)
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
    if ((err = resolve_lines(sz, flags, unresolved < n ? elf_path : NULL, log)) != 0)
        goto out;
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
    free(sz->lines);
    for (i = 0; i < sz->pool.nr_blocks; i++)
        free(sz->pool.blocks[i]);
    free(sz->pool.blocks);
    free(sz->pool.slots);
    free(sz);
}

static const struct entry *find(const struct xu_symbolizer *sz, uint64_t addr)
{
    size_t mask = ((size_t)1 << sz->slot_bits) - 1, j, k;

    /* at most half full: a probe sequence always reaches an empty slot */
    for (j = slot_of(addr, sz->slot_bits); (k = sz->slots[j]) != 0; j = (j + 1) & mask)
        if (sz->e[k - 1].addr == addr)
            return &sz->e[k - 1];
    return NULL;
}

const char *xu_symbolizer_name(const struct xu_symbolizer *sz, uint64_t addr,
                               const struct xu_symbol **sym)
{
    const struct entry *e = find(sz, addr);

    if (sym)
        *sym = e ? e->sym : NULL;
    return e ? e->name : NULL;
}

unsigned int xu_symbolizer_frames(const struct xu_symbolizer *sz, uint64_t addr,
                                  const struct xu_frame_line **out)
{
    const struct entry *e = find(sz, addr);

    *out = e ? &sz->lines[e->first] : NULL;
    return e ? e->count : 0;
}

bool xu_symbolizer_has_dwarf(const struct xu_symbolizer *sz)
{
    return sz && sz->has_dwarf;
}

bool xu_symbolizer_dwarf_supported(void)
{
#ifdef HAVE_LIBDW
    return true;
#else
    return false;
#endif
}
