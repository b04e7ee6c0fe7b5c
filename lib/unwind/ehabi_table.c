/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ehabi_table.c - .ARM.exidx and .ARM.extab read into one sorted table of
 * functions and their unwind instructions (see xu_ehabi.h).
 *
 * Each entry's instructions are copied out once, at load, into one pool,
 * in the order they run, so that the walk only searches and interprets:
 * in the compact models the bytes run from the most significant byte of
 * each word down, the first word's personality (and count) bytes skipped.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "unwind/xu_ehabi.h"
#include "util/xu_le.h"

#define EXIDX_CANTUNWIND 0x1u
/* The largest .ARM.extab copied (Linux's is tens of KiB). */
#define MAX_EXTAB_BYTES (64u << 20)

struct entry {
    uint32_t start;
    uint32_t word;              /* inline: the exidx word; else the extab offset */
    uint8_t kind;
    uint8_t in_extab;           /* the instructions' words are in extab at word */
    uint8_t skip, more;         /* bytes of the first word skipped, words after it */
};

struct xu_ehabi_table {
    struct entry *e;
    size_t n;
    uint8_t *extab;
    size_t extab_len;
    struct xu_ehabi_stats stats;
};

/* prel31: a 31-bit signed offset from the word's own address. */
static uint32_t prel31(uint32_t word, uint32_t at)
{
    uint32_t off = word & 0x7fffffffu;

    if (off & 0x40000000u)
        off |= 0x80000000u;
    return at + off;
}

/* Append the bytes of word, most significant first, skipping the first skip. */
static void put_word(uint8_t *ops, size_t *n, uint32_t word, unsigned int skip)
{
    unsigned int b;

    for (b = skip; b < 4; b++)
        ops[(*n)++] = (uint8_t)(word >> (24 - 8 * b));
}

/*
 * The .ARM.extab entry at addr into e: where its instruction words are;
 * false when the entry is out of the section or of a model not read here.
 */
static bool extab_entry(const uint8_t *extab, size_t len, uint32_t base, uint32_t addr,
                        struct entry *e)
{
    uint32_t off = addr - base, w, more;
    unsigned int skip;

    if (addr < base || (off & 3) || len < 4 || off > len - 4)
        return false;
    w = xu_le32(extab + off);
    if (w & 0x80000000u) {
        switch ((w >> 24) & 0x7fu) {
        case 0x00:              /* personality 0: three bytes */
            more = 0;
            skip = 1;
            break;
        case 0x01:              /* personality 1 and 2: count, then two bytes */
        case 0x02:
            more = (w >> 16) & 0xffu;
            skip = 2;
            break;
        default:
            return false;
        }
    } else {
        /* a generic personality routine; GCC's read a count-prefixed word after it */
        if (len < 8 || off > len - 8)
            return false;
        off += 4;
        more = xu_le32(extab + off) >> 24;
        skip = 1;
    }
    if ((size_t)more * 4 > len - off - 4)
        return false;
    e->word = off;
    e->in_extab = 1;
    e->skip = (uint8_t)skip;
    e->more = (uint8_t)more;
    return true;
}

static int by_start(const void *a, const void *b)
{
    const struct entry *x = a, *y = b;

    return x->start < y->start ? -1 : x->start > y->start;
}

/* One .ARM.exidx entry into t->e[t->n]. */
static void read_entry(struct xu_ehabi_table *t, const uint8_t *p, uint32_t at,
                       uint32_t extab_addr)
{
    struct entry *e = &t->e[t->n++];
    uint32_t w0 = xu_le32(p), w1 = xu_le32(p + 4);

    memset(e, 0, sizeof(*e));
    e->start = prel31(w0, at);
    e->kind = XU_EHABI_BAD;
    if (w0 & 0x80000000u) {
        t->stats.bad++;
        return;
    }
    if (w1 == EXIDX_CANTUNWIND) {
        e->kind = XU_EHABI_CANTUNWIND;
        t->stats.cantunwind++;
        return;
    }
    if (w1 & 0x80000000u) {
        if ((w1 >> 24) != 0x80u) {      /* inline entries are personality 0 only */
            t->stats.bad++;
            return;
        }
        e->word = w1;
        e->skip = 1;
    } else if (!extab_entry(t->extab, t->extab_len, extab_addr, prel31(w1, at + 4), e)) {
        t->stats.bad++;
        return;
    }
    e->kind = XU_EHABI_OPS;
}

int xu_ehabi_from_sections(const uint8_t *exidx, size_t exidx_len, uint32_t exidx_addr,
                           const uint8_t *extab, size_t extab_len, uint32_t extab_addr,
                           struct xu_ehabi_table **out)
{
    struct xu_ehabi_table *t = NULL;
    size_t count = exidx_len / 8, i;
    int rc;

    *out = NULL;
    if (!exidx || count == 0 || exidx_len % 8) {
        rc = -ENOEXEC;
        goto out;
    }
    if (count > XU_EHABI_MAX_ENTRIES || extab_len > MAX_EXTAB_BYTES) {
        rc = -E2BIG;
        goto out;
    }
    if (!extab)
        extab_len = 0;
    t = calloc(1, sizeof(*t));
    if (!t || !(t->e = calloc(count, sizeof(*t->e))) ||
        (extab_len && !(t->extab = malloc(extab_len)))) {
        rc = -ENOMEM;
        goto out;
    }
    if (extab_len)
        memcpy(t->extab, extab, extab_len);
    t->extab_len = extab_len;
    for (i = 0; i < count; i++)
        read_entry(t, exidx + 8 * i, exidx_addr + 8 * (uint32_t)i, extab_addr);
    /* linkers sort the table; a hostile one is sorted here (equal starts:
     * any one of them answers) */
    qsort(t->e, t->n, sizeof(*t->e), by_start);
    t->stats.entries = t->n;
    *out = t;
    t = NULL;
    rc = 0;
out:
    xu_ehabi_free(t);
    return rc;
}

bool xu_ehabi_find(const struct xu_ehabi_table *t, uint32_t pc, uint32_t *start,
                   enum xu_ehabi_kind *kind, uint8_t ops[XU_EHABI_MAX_OPS], size_t *n)
{
    size_t lo = 0, hi, i;
    const struct entry *e;

    if (!t || t->n == 0 || pc < t->e[0].start)
        return false;
    hi = t->n;
    while (hi - lo > 1) {           /* the last entry starting at or below pc */
        size_t mid = lo + (hi - lo) / 2;

        if (t->e[mid].start <= pc)
            lo = mid;
        else
            hi = mid;
    }
    e = &t->e[lo];
    *start = e->start;
    *kind = (enum xu_ehabi_kind)e->kind;
    *n = 0;
    if (e->kind != XU_EHABI_OPS)
        return true;
    if (!e->in_extab) {
        put_word(ops, n, e->word, e->skip);
        return true;
    }
    /* checked at load: the first word and e->more after it lie in extab */
    put_word(ops, n, xu_le32(t->extab + e->word), e->skip);
    for (i = 1; i <= e->more; i++)
        put_word(ops, n, xu_le32(t->extab + e->word + 4 * i), 0);
    return true;
}

void xu_ehabi_get_stats(const struct xu_ehabi_table *t, struct xu_ehabi_stats *out)
{
    memset(out, 0, sizeof(*out));
    if (t)
        *out = t->stats;
}

void xu_ehabi_free(struct xu_ehabi_table *t)
{
    if (!t)
        return;
    free(t->e);
    free(t->extab);
    free(t);
}

const char *xu_ehabi_strerror(int rc)
{
    switch (-rc) {
    case 0:        return "no error";
    case ENODATA:  return "no .ARM.exidx section";
    case ENOEXEC:  return "not a 32-bit ARM ELF with a readable .ARM.exidx";
    case E2BIG:    return "too many .ARM.exidx entries or too large a .ARM.extab";
    case ENOMEM:   return "out of memory";
    }
    return "could not read the file";
}
