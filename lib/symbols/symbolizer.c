/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * symbolizer.c - the profile's unique addresses, each resolved once.
 *
 * Writers ask for the name of every frame of every stack; the same return
 * address recurs in thousands of stacks.  Resolving each unique address
 * once up front (given as a sorted set, or added frame by frame into the
 * table below and resolved in the table's order) means the symbol table
 * is consulted exactly once per address.
 *
 * A writer asks once per frame of every stack (20 million times for a
 * million 20-deep samples), so the question itself must be cheap: one
 * open-addressing table answers it in O(1) (a binary search over tens of
 * thousands of addresses cost a quarter of a folded conversion).  Each
 * slot holds the address itself and its chain, 12 bytes, at most 7/10
 * full, so a question is one cache line: when stacks share nothing the
 * distinct addresses are millions, the table is a hundred megabytes, and
 * a second array to consult (the address, then its chain, then a
 * writer's entry by its index) was a cache miss a frame each.  A writer
 * keeps its answer per chain (xu_symbolizer_chain), or per slot
 * (xu_symbolizer_index) when it needs one per address.
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
#include "util/xu_big.h"

#define HEX_LEN 19              /* "0x" + 16 digits + NUL */
#define HEX_BLOCK 4096          /* hex names a block */
#define NO_CHAIN UINT32_MAX
#define PENDING (UINT32_MAX - 1)   /* a slot's address, added, not resolved yet */
#define PREFETCH_AHEAD 16       /* addresses: the slots being fetched at once */
#define FIRST_SLOTS 1024        /* a symboliser filled by xu_symbolizer_add */
/* Chains are numbered in 32 bits below PENDING, NO_CHAIN marking a free
 * slot. */
#define MAX_ADDRS (UINT32_MAX - 2)

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
 * One slot of the address table: the address in two halves (12 bytes a
 * slot, not 16: in 32-bit words, no padding) and its chain.
 */
struct addr_slot {
    uint32_t lo, hi;
    uint32_t chain;                 /* NO_CHAIN: free */
};

/*
 * Per address 10/7 of a slot of 12 bytes, 17 bytes, where it was 112 to
 * 144 (an entry, a line and 64-bit slots each).
 */
struct xu_symbolizer {
    size_t n;                       /* addresses */
    bool resolved;                  /* no more xu_symbolizer_add */
    struct chain *chains;
    size_t nr_chains, cap_chains;
    struct xu_frame_line *lines;
    size_t nr_lines, cap_lines;
    bool has_dwarf;
    struct str_pool pool;
    struct addr_slot *slots;
    size_t nr_slots;
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

/* *ci gets the chain of addr: its symbol's shared one, or its own. */
static int resolve_one(struct xu_symbolizer *sz, uint64_t addr, const struct xu_symbol *sym,
                       struct sym_set *set, struct xu_dwarf_lines *dl, unsigned int flags,
                       uint32_t *ci)
{
    struct xu_frame_line chain[XU_INLINE_MAX_DEPTH];
    bool demangle = !(flags & XU_SYMBOLIZER_RAW_NAMES);
    struct sym_name *sn = NULL;
    const char *name;
    unsigned int c = 0;

    if (sym) {
        if (!(sn = sym_entry(sz, set, sym, demangle)))
            return ENOMEM;
        name = sn->name;
        if (dl)
            c = xu_dwarf_lines_at(dl, addr, flags & XU_SYMBOLIZER_INLINE, chain,
                                  XU_INLINE_MAX_DEPTH);
        if (c == 0 && sn->chain != NO_CHAIN) {
            *ci = sn->chain;
            return 0;
        }
    } else if (!(name = hex_name(sz, addr))) {
        return ENOMEM;
    }
    if (c == 0) {
        memset(chain, 0, sizeof(chain[0]));
        c = 1;
    }
    if ((*ci = new_chain(sz, name, sym, c)) == NO_CHAIN)
        return ENOMEM;
    if (sn && c == 1 && !chain[0].file && !chain[0].line && !chain[0].inlined &&
        !chain[0].name)
        sn->chain = *ci;        /* the symbol's shared chain: no line of its own */
    return fill_chain(sz, *ci, chain, demangle);
}

/*
 * The first slot to probe for addr: the hash scaled to the table's size
 * (not a power of two: the table is sized to 7/10 full at most, where a
 * power of two left it between 3/8 and 3/4, up to 100 MB for five
 * million addresses).
 */
static size_t home_slot(const struct xu_symbolizer *sz, uint64_t addr)
{
    return (size_t)(((unsigned __int128)(addr * 0x9e3779b97f4a7c15ULL) * sz->nr_slots) >> 64);
}

/* addr's slot, or the free slot where it would go. */
static size_t find_slot(const struct xu_symbolizer *sz, uint64_t addr)
{
    size_t j;

    /* at most 7/10 full: a probe sequence always reaches a free slot */
    for (j = home_slot(sz, addr); sz->slots[j].chain != NO_CHAIN;
         j = j + 1 == sz->nr_slots ? 0 : j + 1)
        if (sz->slots[j].lo == (uint32_t)addr && sz->slots[j].hi == (uint32_t)(addr >> 32))
            break;
    return j;
}

/* What resolving needs across addresses: DWARF, opened once, and the
 * symbols met so far (their readable names and shared chains). */
struct resolver {
    const struct xu_symtab *st;
    unsigned int flags;
    const char *elf_path;
    struct xu_log *log;
    struct xu_dwarf_lines *dl;
    struct sym_set set;
    bool dwarf_tried;
};

static void resolver_dispose(struct resolver *r)
{
    xu_dwarf_lines_free(r->dl);
    free(r->set.slots);
}

/*
 * *ci gets addr's functions: its symbol alone, or with DWARF its source
 * line and the functions inlined at it.  DWARF that libdw cannot open
 * leaves names only; running out of memory fails.  0 or ENOMEM.
 */
static int resolve_addr(struct xu_symbolizer *sz, struct resolver *r, uint64_t addr,
                        uint32_t *ci)
{
    const struct xu_symbol *sym = r->st ? xu_symtab_lookup(r->st, addr) : NULL;
    int rc;

    /* DWARF is read only when some address has a symbol */
    if (sym && r->elf_path && !r->dwarf_tried) {
        r->dwarf_tried = true;
        rc = xu_dwarf_lines_open(r->elf_path, r->log, &r->dl);
        if (rc == -ENOMEM)
            return ENOMEM;
        if (rc < 0 && rc != -ENOSYS && rc != -ENODATA)
            xu_warn(r->log, "%s: no source lines nor inlined functions: %s", r->elf_path,
                    strerror(-rc));
    }
    return resolve_one(sz, addr, sym, &r->set, r->dl, r->flags, ci);
}

/* The n sorted addresses, each into its slot.  0 or ENOMEM. */
static int resolve_sorted(struct xu_symbolizer *sz, struct resolver *r, const uint64_t *addrs)
{
    size_t i, j;
    uint32_t ci;
    int err;

    for (i = 0; i < sz->n; i++) {
        /* sorted addresses land on slots at random: the slot of one a few
         * ahead is fetched while this one is resolved */
        if (i + PREFETCH_AHEAD < sz->n)
            __builtin_prefetch(&sz->slots[home_slot(sz, addrs[i + PREFETCH_AHEAD])]);
        if ((err = resolve_addr(sz, r, addrs[i], &ci)) != 0)
            return err;
        j = find_slot(sz, addrs[i]);
        sz->slots[j] = (struct addr_slot){ (uint32_t)addrs[i], (uint32_t)(addrs[i] >> 32), ci };
    }
    return 0;
}

/*
 * The addresses xu_symbolizer_add() put in the table, in the table's
 * order: it is read front to back and each chain is written where its
 * address already is, with no sorted copy of the addresses and no second
 * probe.  Chains are numbered in that order, which no writer's output
 * depends on (they name frames by what a chain holds, not by its number).
 * 0 or ENOMEM.
 */
static int resolve_pending(struct xu_symbolizer *sz, struct resolver *r)
{
    size_t j;
    int err;

    for (j = 0; j < sz->nr_slots; j++) {
        struct addr_slot *a = &sz->slots[j];

        if (a->chain == PENDING &&
            (err = resolve_addr(sz, r, (uint64_t)a->hi << 32 | a->lo, &a->chain)) != 0)
            return err;
    }
    return 0;
}

/* A table of nr address slots, every one free, or NULL without memory. */
static struct addr_slot *new_slots(size_t nr)
{
    struct addr_slot *slots;

    if (nr > SIZE_MAX / sizeof(*slots) || !(slots = xu_big_alloc(nr * sizeof(*slots))))
        return NULL;
    /* NO_CHAIN in every word marks every slot free */
    memset(slots, 0xff, nr * sizeof(*slots));
    return slots;
}

struct xu_symbolizer *xu_symbolizer_new_dwarf(const struct xu_symtab *st,
                                              const uint64_t *addrs, size_t n,
                                              unsigned int flags, const char *elf_path,
                                              struct xu_log *log)
{
    struct resolver r = { .st = st, .flags = flags, .elf_path = elf_path, .log = log };
    struct xu_symbolizer *sz = NULL, *ret = NULL;
    size_t i;
    int err = 0;

    for (i = 1; i < n; i++) {
        if (addrs[i] <= addrs[i - 1]) {     /* one slot an address, symbols in order */
            err = EINVAL;
            goto out;
        }
    }
    if (n > MAX_ADDRS) {
        err = ENOMEM;
        goto out;
    }
    sz = calloc(1, sizeof(*sz));
    if (!sz) {
        err = ENOMEM;
        goto out;
    }
    sz->n = n;
    sz->resolved = true;
    /* at most 7/10 full once filled: probes stay short and a free slot
     * always exists */
    sz->nr_slots = n / 7 * 10 + n % 7 * 10 / 7 + 2;
    if (!(sz->slots = new_slots(sz->nr_slots))) {
        err = ENOMEM;
        goto out;
    }
    if ((err = resolve_sorted(sz, &r, addrs)) != 0)
        goto out;
    ret = sz;
    sz = NULL;

out:
    resolver_dispose(&r);
    xu_symbolizer_free(sz);
    if (!ret)
        errno = err;
    return ret;
}

struct xu_symbolizer *xu_symbolizer_new_empty(size_t expect)
{
    struct xu_symbolizer *sz = calloc(1, sizeof(*sz));

    if (!sz)
        return NULL;
    /* 7/10 full at expect and 4 % more (five times an estimate's standard
     * error, xu_distinct.h), so that it is seldom doubled at the end */
    if (expect > MAX_ADDRS)
        expect = MAX_ADDRS;
    expect += expect / 25;
    sz->nr_slots = expect / 7 * 10 + expect % 7 * 10 / 7 + 2;
    if (sz->nr_slots < FIRST_SLOTS)
        sz->nr_slots = FIRST_SLOTS;
    if (!(sz->slots = new_slots(sz->nr_slots))) {
        free(sz);
        errno = ENOMEM;
        return NULL;
    }
    return sz;
}

/* Twice the slots, the addresses moved over.  0 or ENOMEM (the table
 * then as it was). */
static int grow(struct xu_symbolizer *sz)
{
    struct addr_slot *old = sz->slots;
    size_t nr_old = sz->nr_slots, i, j;

    if (nr_old > SIZE_MAX / 2 || !(sz->slots = new_slots(nr_old * 2))) {
        sz->slots = old;
        return ENOMEM;
    }
    sz->nr_slots = nr_old * 2;
    for (i = 0; i < nr_old; i++) {
        if (old[i].chain == NO_CHAIN)
            continue;
        /* every address is in once: the probe ends on a free slot */
        j = find_slot(sz, (uint64_t)old[i].hi << 32 | old[i].lo);
        sz->slots[j] = old[i];
    }
    free(old);
    return 0;
}

int xu_symbolizer_add(struct xu_symbolizer *sz, uint64_t addr)
{
    size_t j;

    if (sz->resolved)
        return -EPERM;
    j = find_slot(sz, addr);
    if (sz->slots[j].chain != NO_CHAIN)
        return 0;
    if (sz->n >= MAX_ADDRS)
        return -ENOMEM;
    /* at most 7/10 full once it holds addr: grown first, so that a table
     * that could not grow still has a free slot to end every probe */
    if ((sz->n + 1) * 10 > sz->nr_slots * 7) {
        if (grow(sz) != 0)
            return -ENOMEM;
        j = find_slot(sz, addr);
    }
    sz->slots[j] = (struct addr_slot){ (uint32_t)addr, (uint32_t)(addr >> 32), PENDING };
    sz->n++;
    return 0;
}

int xu_symbolizer_resolve(struct xu_symbolizer *sz, const struct xu_symtab *st,
                          unsigned int flags, const char *elf_path, struct xu_log *log)
{
    struct resolver r = { .st = st, .flags = flags, .elf_path = elf_path, .log = log };
    int err;

    if (sz->resolved)
        return -EPERM;
    sz->resolved = true;
    err = resolve_pending(sz, &r);
    resolver_dispose(&r);
    return -err;
}

void xu_symbolizer_free(struct xu_symbolizer *sz)
{
    size_t i;

    if (!sz)
        return;
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

void xu_symbolizer_prefetch(const struct xu_symbolizer *sz, uint64_t addr)
{
    if (sz)
        __builtin_prefetch(&sz->slots[home_slot(sz, addr)]);
}

long xu_symbolizer_index(const struct xu_symbolizer *sz, uint64_t addr)
{
    size_t j;

    if (!sz)
        return -1;
    j = find_slot(sz, addr);
    return sz->slots[j].chain < sz->nr_chains ? (long)j : -1;
}

size_t xu_symbolizer_count(const struct xu_symbolizer *sz)
{
    return sz ? sz->nr_slots : 0;
}

long xu_symbolizer_chain(const struct xu_symbolizer *sz, uint64_t addr)
{
    size_t j;

    if (!sz)
        return -1;
    j = find_slot(sz, addr);
    /* a free slot (NO_CHAIN), and an address not resolved (PENDING) */
    return sz->slots[j].chain < sz->nr_chains ? (long)sz->slots[j].chain : -1;
}

size_t xu_symbolizer_nr_chains(const struct xu_symbolizer *sz)
{
    return sz ? sz->nr_chains : 0;
}

unsigned int xu_symbolizer_chain_frames(const struct xu_symbolizer *sz, size_t c,
                                        const struct xu_symbol **sym,
                                        const struct xu_frame_line **out)
{
    const struct chain *ch = sz && c < sz->nr_chains ? &sz->chains[c] : NULL;

    *sym = ch ? ch->sym : NULL;
    *out = ch ? &sz->lines[ch->first] : NULL;
    return ch ? ch->count : 0;
}

unsigned int xu_symbolizer_frames_at(const struct xu_symbolizer *sz, size_t k,
                                     const struct xu_symbol **sym,
                                     const struct xu_frame_line **out)
{
    uint32_t c = sz && k < xu_symbolizer_count(sz) ? sz->slots[k].chain : NO_CHAIN;

    return xu_symbolizer_chain_frames(sz, c == NO_CHAIN ? SIZE_MAX : c, sym, out);
}

static const struct chain *find(const struct xu_symbolizer *sz, uint64_t addr)
{
    long c = xu_symbolizer_chain(sz, addr);

    return c < 0 ? NULL : &sz->chains[c];
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
