/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * window.c - a window's samples as functions with self and total counts,
 * and one function's callers and callees (see xu_top.h).
 *
 * Functions are keyed by name, not by symbol: the cache hands out one copy
 * of a name per address, and two addresses of one function must meet in
 * one row.  Each row remembers the last stack that counted it (stamp), so
 * a function recursing in a stack counts once in its total.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "top/xu_top.h"

static uint64_t name_hash(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ULL;

    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 0x100000001b3ULL;
    }
    return h ^ (h >> 31);
}

static void table_reset(struct xu_top_table *t)
{
    t->n = 0;
    t->samples = 0;
    if (t->slots)
        memset(t->slots, 0, ((size_t)1 << t->slot_bits) * sizeof(*t->slots));
}

static int grow_slots(struct xu_top_table *t)
{
    unsigned int bits = t->slots ? t->slot_bits + 1 : 6;
    size_t *slots = calloc((size_t)1 << bits, sizeof(*slots)), i, mask = ((size_t)1 << bits) - 1;

    if (!slots)
        return -ENOMEM;
    for (i = 0; i < t->n; i++) {
        size_t j = (size_t)name_hash(t->rows[i].name) & mask;

        while (slots[j])
            j = (j + 1) & mask;
        slots[j] = i + 1;
    }
    free(t->slots);
    t->slots = slots;
    t->slot_bits = bits;
    return 0;
}

/* The row of name, made when new; NULL without memory. */
static struct xu_top_row *row_of(struct xu_top_table *t, const char *name)
{
    size_t mask, j;
    struct xu_top_row *r;

    if ((!t->slots || (t->n + 1) * 2 > ((size_t)1 << t->slot_bits)) && grow_slots(t) < 0)
        return NULL;
    mask = ((size_t)1 << t->slot_bits) - 1;
    for (j = (size_t)name_hash(name) & mask; t->slots[j]; j = (j + 1) & mask)
        if (strcmp(t->rows[t->slots[j] - 1].name, name) == 0)
            return &t->rows[t->slots[j] - 1];
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 64;
        struct xu_top_row *rows = realloc(t->rows, cap * sizeof(*rows));

        if (!rows)
            return NULL;
        t->rows = rows;
        t->cap = cap;
    }
    r = &t->rows[t->n];
    r->name = name;
    r->self = r->total = r->stamp = 0;
    t->slots[j] = ++t->n;
    return r;
}

static const char *frame_name(const struct xu_stack *s, uint32_t i, const struct xu_top_symcache *c)
{
    const char *name;

    if (xu_pc_is_pseudo(s->pcs[i]))
        return xu_top_symcache_pseudo_name(c, s->pcs[i]);
    name = xu_top_symcache_name(c, xu_stack_lookup_addr(s, i));
    return name ? name : "[unknown]";
}

int xu_top_table_build(struct xu_top_table *t, const struct xu_profile *p,
                       const struct xu_top_symcache *c)
{
    size_t k, nr = xu_profile_nr_stacks(p);

    table_reset(t);
    for (k = 0; k < nr; k++) {
        const struct xu_stack *s = xu_profile_stack(p, k);
        uint32_t i;

        for (i = 0; i < s->depth; i++) {
            struct xu_top_row *r = row_of(t, frame_name(s, i, c));

            if (!r)
                return -ENOMEM;
            if (i == 0)
                r->self += s->count;
            if (r->stamp != k + 1) {
                r->stamp = k + 1;
                r->total += s->count;
            }
        }
        t->samples += s->count;
    }
    return 0;
}

static int cmp_u64_desc(uint64_t a, uint64_t b)
{
    return a > b ? -1 : a < b;
}

static int by_self(const void *a, const void *b)
{
    const struct xu_top_row *x = a, *y = b;
    int d = cmp_u64_desc(x->self, y->self);

    if (!d)
        d = cmp_u64_desc(x->total, y->total);
    return d ? d : strcmp(x->name, y->name);
}

static int by_total(const void *a, const void *b)
{
    const struct xu_top_row *x = a, *y = b;
    int d = cmp_u64_desc(x->total, y->total);

    if (!d)
        d = cmp_u64_desc(x->self, y->self);
    return d ? d : strcmp(x->name, y->name);
}

void xu_top_table_sort(struct xu_top_table *t, enum xu_top_sort by)
{
    size_t i, mask, j;

    if (t->n > 1)
        qsort(t->rows, t->n, sizeof(*t->rows), by == XU_TOP_SORT_TOTAL ? by_total : by_self);
    /* the index follows the rows */
    if (!t->slots)
        return;
    memset(t->slots, 0, ((size_t)1 << t->slot_bits) * sizeof(*t->slots));
    mask = ((size_t)1 << t->slot_bits) - 1;
    for (i = 0; i < t->n; i++) {
        for (j = (size_t)name_hash(t->rows[i].name) & mask; t->slots[j]; j = (j + 1) & mask)
            ;
        t->slots[j] = i + 1;
    }
}

void xu_top_table_dispose(struct xu_top_table *t)
{
    free(t->rows);
    free(t->slots);
    memset(t, 0, sizeof(*t));
}

int xu_top_relatives(const struct xu_profile *p, const struct xu_top_symcache *c,
                     const char *name, struct xu_top_table *callers,
                     struct xu_top_table *callees)
{
    size_t k, nr = xu_profile_nr_stacks(p);

    table_reset(callers);
    table_reset(callees);
    for (k = 0; k < nr; k++) {
        const struct xu_stack *s = xu_profile_stack(p, k);
        bool seen = false;
        uint32_t i;

        for (i = 0; i < s->depth; i++) {
            struct xu_top_row *r;

            if (strcmp(frame_name(s, i, c), name) != 0)
                continue;
            seen = true;
            if (i + 1 < s->depth) {
                if (!(r = row_of(callers, frame_name(s, i + 1, c))))
                    return -ENOMEM;
                if (r->stamp != k + 1) {
                    r->stamp = k + 1;
                    r->total += s->count;
                }
            }
            if (i > 0) {
                if (!(r = row_of(callees, frame_name(s, i - 1, c))))
                    return -ENOMEM;
                if (r->stamp != k + 1) {
                    r->stamp = k + 1;
                    r->total += s->count;
                }
            }
        }
        if (seen) {
            callers->samples += s->count;
            callees->samples += s->count;
        }
    }
    return 0;
}
