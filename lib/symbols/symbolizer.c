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
 * conversion).  The table holds 32-bit indices, at most 3/4 full.  A writer
 * that keeps its own answer per address asks for the address's index
 * (xu_symbolizer_index) and keeps it in an array, not in a map of its own.
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
#define HEX_BLOCK 4096          /* hex names a block */
#define NO_CHAIN UINT32_MAX
/* Address slots hold index + 1 in 32 bits, 0 marking a free one. */
#define MAX_ADDRS (UINT32_MAX - 1)

static size_t slot_of(uint64_t addr, unsigned int bits)
{
    return (size_t)((addr * 0x9e3779b97f4a7c15ULL) >> (64 - bits));
}

/*
 * What an address resolves to.  Every address of a symbol without a
 * source line shares its symbol's one chain (without DWARF, all of them):
 * a profile's distinct addresses are millions when its stacks share
 * nothing, its functions thousands, and a chain per address was most of
 * the symboliser's memory.  An address with source lines or inlined
 * functions, and an unresolved one (named by its own hex), has its own.
 */
struct chain {
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

/* A symbol's readable name and its shared chain, for its other addresses. */
struct sym_name {
    const struct xu_symbol *sym;    /* NULL: free slot */
    const char *name;
    uint32_t chain;                 /* NO_CHAIN until an address without lines needs it */
};

struct sym_set {
    struct sym_name *slots;
    unsigned int bits;
    size_t n;
};

/*
 * Per address 8 bytes of address, 4 of chain index and at most 5.3 of
 * slots (32-bit, at most 3/4 full): 18 bytes an address at most, where
 * it was 112 to 144 (an entry, a line and 64-bit slots each).
 */
struct xu_symbolizer {
    uint64_t *addrs;                /* sorted */
    uint32_t *chain_of;             /* per address */
    size_t n;
    struct chain *chains;
    size_t nr_chains, cap_chains;
    struct xu_frame_line *lines;
    size_t nr_lines, cap_lines;
    bool has_dwarf;
    struct str_pool pool;
    uint32_t *slots;                /* index + 1 into addrs, 0 = empty */
    unsigned int slot_bits;         /* 1 << slot_bits slots */
    char **hex;                     /* blocks of HEX_BLOCK names of HEX_LEN bytes */
    size_t nr_hex;
    char **demangled;               /* the readable names chains point to */
    size_t nr_demangled, cap_demangled;
};

static size_t slot_of_sym(const struct xu_symbol *sym, unsigned int bits)
{
    return slot_of((uint64_t)(uintptr_t)sym, bits);
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
static int lines_reserve(struct xu_symbolizer *sz, size_t more)
{
    struct xu_frame_line *l;
    size_t ncap = sz->cap_lines;

    if (sz->nr_lines + more <= sz->cap_lines)
        return 0;
    while (ncap < sz->nr_lines + more)
        ncap = ncap ? ncap * 2 : 64;
    if (ncap > SIZE_MAX / sizeof(*l) || !(l = realloc(sz->lines, ncap * sizeof(*l))))
        return ENOMEM;
    sz->lines = l;
    sz->cap_lines = ncap;
    return 0;
}

/* A new chain of count functions, their lines still to fill: its index,
 * or NO_CHAIN without memory. */
static uint32_t new_chain(struct xu_symbolizer *sz, const char *name,
                          const struct xu_symbol *sym, unsigned int count)
{
    struct chain *c;

    if (sz->nr_chains == sz->cap_chains) {
        size_t cap = sz->cap_chains ? sz->cap_chains * 2 : 256;

        if (cap >= NO_CHAIN || !(c = realloc(sz->chains, cap * sizeof(*c))))
            return NO_CHAIN;
        sz->chains = c;
        sz->cap_chains = cap;
    }
    if (lines_reserve(sz, count) != 0)
        return NO_CHAIN;
    c = &sz->chains[sz->nr_chains];
    c->name = name;
    c->sym = sym;
    c->first = sz->nr_lines;
    c->count = count;
    sz->nr_lines += count;
    return (uint32_t)sz->nr_chains++;
}

/* The symbol's entry in the set (added, with its readable name, when
 * new), or NULL without memory. */
static struct sym_name *sym_entry(struct xu_symbolizer *sz, struct sym_set *set,
                                  const struct xu_symbol *sym, bool demangle)
{
    size_t mask, j, k;
    char *d;

    if ((set->n + 1) * 2 > ((size_t)1 << set->bits)) {
        unsigned int bits = set->bits ? set->bits + 1 : 8;
        struct sym_name *slots = calloc((size_t)1 << bits, sizeof(*slots));

        if (!slots)
            return NULL;
        for (k = 0; set->slots && k < ((size_t)1 << set->bits); k++) {
            if (!set->slots[k].sym)
                continue;
            for (j = slot_of_sym(set->slots[k].sym, bits); slots[j].sym;
                 j = (j + 1) & (((size_t)1 << bits) - 1))
                ;
            slots[j] = set->slots[k];
        }
        free(set->slots);
        set->slots = slots;
        set->bits = bits;
    }
    mask = ((size_t)1 << set->bits) - 1;
    for (j = slot_of_sym(sym, set->bits); set->slots[j].sym; j = (j + 1) & mask)
        if (set->slots[j].sym == sym)
            return &set->slots[j];
    if (sz->nr_demangled == sz->cap_demangled) {
        size_t cap = sz->cap_demangled ? sz->cap_demangled * 2 : 64;
        char **dm = realloc(sz->demangled, cap * sizeof(*dm));

        if (!dm)
            return NULL;
        sz->demangled = dm;
        sz->cap_demangled = cap;
    }
    set->slots[j].sym = sym;
    set->slots[j].name = sym->name;
    set->slots[j].chain = NO_CHAIN;
    set->n++;
    /* NULL: not mangled (or no memory for the readable form): kept */
    d = demangle ? xu_demangle(sym->name, XU_DEMANGLE_ALL) : NULL;
    if (d) {
        sz->demangled[sz->nr_demangled++] = d;
        set->slots[j].name = d;
    }
    return &set->slots[j];
}

/* The hex name of an unresolved address, in blocks that never move. */
static const char *hex_name(struct xu_symbolizer *sz, uint64_t addr)
{
    size_t at = sz->nr_hex % HEX_BLOCK;
    char *name;

    if (at == 0) {
        char **b = realloc(sz->hex, (sz->nr_hex / HEX_BLOCK + 1) * sizeof(*b));

        if (!b)
            return NULL;
        sz->hex = b;
        if (!(b[sz->nr_hex / HEX_BLOCK] = malloc(HEX_BLOCK * HEX_LEN)))
            return NULL;
    }
    name = sz->hex[sz->nr_hex / HEX_BLOCK] + at * HEX_LEN;
    sz->nr_hex++;
    snprintf(name, HEX_LEN, "0x%" PRIx64, addr);
    return name;
}

/* Fill the lines of a new chain from DWARF's: copies of libdw's strings. */
static int fill_chain(struct xu_symbolizer *sz, uint32_t ci, const struct xu_frame_line *from,
                      bool demangle)
{
    const struct chain *c = &sz->chains[ci];
    unsigned int j;

    for (j = 0; j < c->count; j++) {
        struct xu_frame_line *l = &sz->lines[c->first + j];

        *l = from[j];
        if (j == 0)
            l->name = c->name;
        else if (!l->name)
            l->name = "[inlined]";
        else if (!(l->name = pool_copy(&sz->pool, l->name, demangle)))
            return ENOMEM;
        if (l->file && !(l->file = pool_copy(&sz->pool, l->file, false)))
            return ENOMEM;
        if (l->line || l->inlined)
            sz->has_dwarf = true;
    }
    return 0;
}

/* The chain of address i: its symbol's shared one, or its own. */
static int resolve_one(struct xu_symbolizer *sz, size_t i, const struct xu_symbol *sym,
                       struct sym_set *set, struct xu_dwarf_lines *dl, unsigned int flags)
{
    struct xu_frame_line chain[XU_INLINE_MAX_DEPTH];
    bool demangle = !(flags & XU_SYMBOLIZER_RAW_NAMES);
    struct sym_name *sn = NULL;
    const char *name;
    unsigned int c = 0;
    uint32_t ci;

    if (sym) {
        if (!(sn = sym_entry(sz, set, sym, demangle)))
            return ENOMEM;
        name = sn->name;
        if (dl)
            c = xu_dwarf_lines_at(dl, sz->addrs[i], flags & XU_SYMBOLIZER_INLINE, chain,
                                  XU_INLINE_MAX_DEPTH);
        if (c == 0 && sn->chain != NO_CHAIN) {
            sz->chain_of[i] = sn->chain;
            return 0;
        }
    } else if (!(name = hex_name(sz, sz->addrs[i]))) {
        return ENOMEM;
    }
    if (c == 0) {
        memset(chain, 0, sizeof(chain[0]));
        c = 1;
    }
    if ((ci = new_chain(sz, name, sym, c)) == NO_CHAIN)
        return ENOMEM;
    if (sn && c == 1 && !chain[0].file && !chain[0].line && !chain[0].inlined &&
        !chain[0].name)
        sn->chain = ci;         /* the symbol's shared chain: no line of its own */
    sz->chain_of[i] = ci;
    return fill_chain(sz, ci, chain, demangle);
}

/*
 * Each address's functions: its symbol alone, or with DWARF its source
 * line and the functions inlined at it.  DWARF that libdw cannot open
 * leaves names only; running out of memory fails.  0 or ENOMEM.
 */
static int resolve(struct xu_symbolizer *sz, const struct xu_symtab *st, unsigned int flags,
                   const char *elf_path, struct xu_log *log)
{
    struct xu_dwarf_lines *dl = NULL;
    struct sym_set set = { 0 };
    bool dwarf_tried = false;
    size_t i;
    int err = 0, rc;

    for (i = 0; i < sz->n && !err; i++) {
        const struct xu_symbol *sym = st ? xu_symtab_lookup(st, sz->addrs[i]) : NULL;

        /* DWARF is read only when some address has a symbol */
        if (sym && elf_path && !dwarf_tried) {
            dwarf_tried = true;
            rc = xu_dwarf_lines_open(elf_path, log, &dl);
            if (rc == -ENOMEM) {
                err = ENOMEM;
                break;
            }
            if (rc < 0 && rc != -ENOSYS && rc != -ENODATA)
                xu_warn(log, "%s: no source lines nor inlined functions: %s", elf_path,
                        strerror(-rc));
        }
        err = resolve_one(sz, i, sym, &set, dl, flags);
    }
    xu_dwarf_lines_free(dl);
    free(set.slots);
    return err;
}

/* The address index: 32-bit slots at most 3/4 full (probes stay short and
 * a free slot always exists).  0 or ENOMEM. */
static int build_slots(struct xu_symbolizer *sz)
{
    size_t i, mask;

    sz->slot_bits = 1;
    while (sz->slot_bits < 40 && ((size_t)1 << sz->slot_bits) / 4 * 3 < sz->n + 1)
        sz->slot_bits++;
    if (!(sz->slots = calloc((size_t)1 << sz->slot_bits, sizeof(*sz->slots))))
        return ENOMEM;
    mask = ((size_t)1 << sz->slot_bits) - 1;
    for (i = 0; i < sz->n; i++) {
        size_t j = slot_of(sz->addrs[i], sz->slot_bits);

        while (sz->slots[j])
            j = (j + 1) & mask;
        sz->slots[j] = (uint32_t)(i + 1);
    }
    return 0;
}

struct xu_symbolizer *xu_symbolizer_new_dwarf(const struct xu_symtab *st,
                                              const uint64_t *addrs, size_t n,
                                              unsigned int flags, const char *elf_path,
                                              struct xu_log *log)
{
    struct xu_symbolizer *sz = NULL, *ret = NULL;
    size_t i;
    int err = 0;

    for (i = 1; i < n; i++) {
        if (addrs[i] <= addrs[i - 1]) {     /* the lookup below relies on it */
            err = EINVAL;
            goto out;
        }
    }
    if (n > MAX_ADDRS) {
        err = ENOMEM;
        goto out;
    }
    sz = calloc(1, sizeof(*sz));
    if (!sz || !(sz->addrs = malloc((n ? n : 1) * sizeof(*sz->addrs))) ||
        !(sz->chain_of = malloc((n ? n : 1) * sizeof(*sz->chain_of)))) {
        err = ENOMEM;
        goto out;
    }
    sz->n = n;
    if (n)
        memcpy(sz->addrs, addrs, n * sizeof(*addrs));
    if ((err = resolve(sz, st, flags, elf_path, log)) != 0 || (err = build_slots(sz)) != 0)
        goto out;
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
    free(sz->addrs);
    free(sz->chain_of);
    free(sz->chains);
    free(sz->slots);
    for (i = 0; i * HEX_BLOCK < sz->nr_hex; i++)
        free(sz->hex[i]);
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

long xu_symbolizer_index(const struct xu_symbolizer *sz, uint64_t addr)
{
    size_t mask, j;
    uint32_t k;

    if (!sz || !sz->slots)
        return -1;
    mask = ((size_t)1 << sz->slot_bits) - 1;
    /* at most 3/4 full: a probe sequence always reaches an empty slot */
    for (j = slot_of(addr, sz->slot_bits); (k = sz->slots[j]) != 0; j = (j + 1) & mask)
        if (sz->addrs[k - 1] == addr)
            return (long)(k - 1);
    return -1;
}

size_t xu_symbolizer_count(const struct xu_symbolizer *sz)
{
    return sz ? sz->n : 0;
}

unsigned int xu_symbolizer_frames_at(const struct xu_symbolizer *sz, size_t k,
                                     const struct xu_symbol **sym,
                                     const struct xu_frame_line **out)
{
    const struct chain *c = sz && k < sz->n ? &sz->chains[sz->chain_of[k]] : NULL;

    *sym = c ? c->sym : NULL;
    *out = c ? &sz->lines[c->first] : NULL;
    return c ? c->count : 0;
}

static const struct chain *find(const struct xu_symbolizer *sz, uint64_t addr)
{
    long k = xu_symbolizer_index(sz, addr);

    return k < 0 ? NULL : &sz->chains[sz->chain_of[k]];
}

const char *xu_symbolizer_name(const struct xu_symbolizer *sz, uint64_t addr,
                               const struct xu_symbol **sym)
{
    const struct chain *c = find(sz, addr);

    if (sym)
        *sym = c ? c->sym : NULL;
    return c ? c->name : NULL;
}

unsigned int xu_symbolizer_frames(const struct xu_symbolizer *sz, uint64_t addr,
                                  const struct xu_frame_line **out)
{
    const struct chain *c = find(sz, addr);

    *out = c ? &sz->lines[c->first] : NULL;
    return c ? c->count : 0;
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
