/* SPDX-License-Identifier: GPL-2.0-only */
/* mkkallsyms.c - kallsyms tables for tests (see mkkallsyms.h). */
#include "mkkallsyms.h"

#include <stdlib.h>
#include <string.h>

struct blob {
    uint8_t *p;
    size_t len, cap;
    int failed;
};

static void put(struct blob *b, const void *v, size_t n)
{
    if (b->failed || n == 0)    /* nothing to copy (a lead of 0: no buffer yet) */
        return;
    if (b->len + n > b->cap) {
        size_t cap = (b->cap + n) * 2;
        uint8_t *p = realloc(b->p, cap);

        if (!p) {
            b->failed = 1;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, v, n);
    b->len += n;
}

static void put_le(struct blob *b, uint64_t v, size_t n)
{
    uint8_t x[8];
    size_t i;

    for (i = 0; i < n; i++)
        x[i] = (uint8_t)(v >> (8 * i));
    put(b, x, n);
}

static void align8(struct blob *b)
{
    static const uint8_t zero[8];

    put(b, zero, (8 - b->len % 8) % 8);
}

/* type letter + name, compressed with tokens 0 ("__") and 1 ("sched") */
static size_t encode(const struct mkks_sym *s, uint8_t *out, size_t max)
{
    size_t n = 0;
    const char *p = s->name;

    out[n++] = (uint8_t)s->type;
    while (*p && n < max) {
        if (strncmp(p, "sched", 5) == 0) {
            out[n++] = 1;
            p += 5;
        } else if (strncmp(p, "__", 2) == 0) {
            out[n++] = 0;
            p += 2;
        } else {
            out[n++] = (uint8_t)*p++;
        }
    }
    return n;
}

static void put_addrs(struct blob *b, const struct mkks_sym *syms, size_t n, unsigned int flags,
                      size_t *at)
{
    uint64_t base = UINT64_MAX;
    size_t i;

    align8(b);
    *at = b->len;
    if (flags & MKKS_ABSOLUTE) {
        for (i = 0; i < n; i++)
            put_le(b, syms[i].addr, 8);
        return;
    }
    for (i = 0; i < n; i++)
        if (!(flags & MKKS_PERCPU) || syms[i].addr >= 0x80000000u)
            base = syms[i].addr < base ? syms[i].addr : base;
    for (i = 0; i < n; i++) {
        uint64_t a = syms[i].addr;

        if (!(flags & MKKS_PERCPU))
            put_le(b, a - base, 4);
        else if (a < 0x80000000u)
            put_le(b, a, 4);                      /* absolute, positive */
        else
            put_le(b, (uint64_t)(-(int64_t)(a - base) - 1), 4);
    }
    align8(b);
    put_le(b, base, 8);
}

uint8_t *mkkallsyms(const struct mkks_sym *syms, size_t n, unsigned int flags, size_t lead,
                    size_t *len, struct mkks_layout *lay)
{
    struct blob b = { 0 };
    struct mkks_layout L;
    size_t *offs = calloc(n + 1, sizeof(*offs)), i, t0;
    uint16_t index[256];

    memset(&L, 0, sizeof(L));
    for (i = 0; i < lead; i++)
        put(&b, "\x5a", 1);
    if (!(flags & MKKS_OFFSETS_AFTER))
        put_addrs(&b, syms, n, flags, &L.addrs);
    align8(&b);
    L.num_syms = b.len;
    put_le(&b, n, 4);
    align8(&b);
    L.names = b.len;
    for (i = 0; i < n && offs; i++) {
        uint8_t e[1100];
        size_t l = encode(&syms[i], e, sizeof(e));

        offs[i] = b.len - L.names;
        if (l > 0x7f) {                     /* 6.1's two-byte length */
            put_le(&b, 0x80 | (l & 0x7f), 1);
            put_le(&b, l >> 7, 1);
        } else {
            put_le(&b, l, 1);
        }
        put(&b, e, l);
    }
    align8(&b);
    L.markers = b.len;
    for (i = 0; i < n && offs; i += 256)
        put_le(&b, offs[i], 4);
    if (flags & MKKS_SEQS) {
        align8(&b);
        L.seqs = b.len;
        for (i = 0; i < n; i++) {       /* big-endian symbol numbers */
            put_le(&b, (i >> 16) & 0xff, 1);
            put_le(&b, (i >> 8) & 0xff, 1);
            put_le(&b, i & 0xff, 1);
        }
    }
    align8(&b);
    L.tokens = t0 = b.len;
    for (i = 0; i < 256; i++) {
        index[i] = (uint16_t)(b.len - t0);
        if (i == 0)
            put(&b, "__", 3);
        else if (i == 1)
            put(&b, "sched", 6);
        else
            put(&b, (char[]){ (char)i, 0 }, 2);
    }
    align8(&b);
    L.index = b.len;
    for (i = 0; i < 256; i++)
        put_le(&b, index[i], 2);
    if (flags & MKKS_OFFSETS_AFTER)
        put_addrs(&b, syms, n, flags, &L.addrs);
    for (i = 0; i < 64; i++)
        put(&b, "\x5a", 1);
    free(offs);
    if (b.failed || !offs) {
        free(b.p);
        return NULL;
    }
    if (lay)
        *lay = L;
    *len = b.len;
    return b.p;
}

uint8_t *mkkallsyms_ending(struct mkks_sym *syms, size_t n, unsigned int flags, size_t end,
                           uint64_t at, uint64_t round, size_t *len)
{
    uint8_t *blob = mkkallsyms(syms, n, flags, 0, len, NULL);

    if (!blob)
        return NULL;
    free(blob);
    syms[end].addr = (at + *len + round - 1) & ~(round - 1);
    return mkkallsyms(syms, n, flags, 0, len, NULL);
}
