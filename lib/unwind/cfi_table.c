/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cfi_table.c - the compact CFI table: building it from rows, looking up.
 *
 * Sizes are bounded by the builder's max_rows and by XU_CFI_MAX_RULES
 * distinct rules; a row beyond either bound is not lost silently: it
 * becomes UNKNOWN (too many rules) or ends the table (too many rows), and
 * the stats say the table is truncated.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cfi_priv.h"

#define HASH_SLOTS (1u << 17)   /* > 2 * XU_CFI_MAX_RULES: probes stay short */

static uint32_t rule_hash(const struct cfi_rule *r)
{
    const uint8_t *p = (const uint8_t *)r;
    uint32_t h = 2166136261u;
    size_t i;

    for (i = 0; i < sizeof(*r); i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

static bool fits16(int32_t v)
{
    return v >= INT16_MIN && v <= INT16_MAX;
}

/* The packed form of row, or the UNKNOWN rule when it does not fit. */
static void rule_pack(const struct xu_cfi_row *row, struct cfi_rule *r)
{
    memset(r, 0, sizeof(*r));
    if (row->kind != XU_CFI_RULE) {
        r->kind = row->kind == XU_CFI_NONE ? XU_CFI_NONE : XU_CFI_UNKNOWN;
        return;
    }
    r->kind = XU_CFI_UNKNOWN;
    if ((row->ra == XU_CFI_RA_AT_CFA && !fits16(row->ra_off)) ||
        (row->fp == XU_CFI_FP_AT_CFA && !fits16(row->fp_off)) || !fits16(row->sp_off))
        return;
    r->kind = XU_CFI_RULE;
    r->cfa_off = row->cfa_off;
    if (row->cfa_reg == XU_CFI_REG_FP)
        r->flags |= CFI_F_CFA_FP;
    if (row->ra == XU_CFI_RA_UNDEFINED)
        r->flags |= CFI_F_RA_UNDEF;
    else if (row->ra == XU_CFI_RA_LINK)
        r->flags |= CFI_F_RA_LINK;
    else
        r->ra_off = (int16_t)row->ra_off;
    if (row->fp == XU_CFI_FP_AT_CFA) {
        r->flags |= CFI_F_FP_AT;
        r->fp_off = (int16_t)row->fp_off;
    } else if (row->fp == XU_CFI_FP_UNDEFINED) {
        r->flags |= CFI_F_FP_UNDEF;
    }
    if (row->sp == XU_CFI_SP_AT_CFA)
        r->flags |= CFI_F_SP_AT;
    r->sp_off = (int16_t)row->sp_off;
    if (row->signal)
        r->flags |= CFI_F_SIGNAL;
}

void cfi_rule_unpack(const struct cfi_rule *r, struct xu_cfi_row *out)
{
    out->kind = (enum xu_cfi_kind)r->kind;
    out->cfa_reg = (r->flags & CFI_F_CFA_FP) ? XU_CFI_REG_FP : XU_CFI_REG_SP;
    out->cfa_off = r->cfa_off;
    out->ra = (r->flags & CFI_F_RA_UNDEF) ? XU_CFI_RA_UNDEFINED :
              (r->flags & CFI_F_RA_LINK) ? XU_CFI_RA_LINK : XU_CFI_RA_AT_CFA;
    out->ra_off = r->ra_off;
    out->fp = (r->flags & CFI_F_FP_AT) ? XU_CFI_FP_AT_CFA :
              (r->flags & CFI_F_FP_UNDEF) ? XU_CFI_FP_UNDEFINED : XU_CFI_FP_SAME;
    out->fp_off = r->fp_off;
    out->sp = (r->flags & CFI_F_SP_AT) ? XU_CFI_SP_AT_CFA : XU_CFI_SP_CFA;
    out->sp_off = r->sp_off;
    out->signal = (r->flags & CFI_F_SIGNAL) != 0;
}

int cfi_builder_init(struct cfi_builder *b, uint64_t base, uint64_t span, size_t max_rows)
{
    int rc = -ENOMEM;

    memset(b, 0, sizeof(*b));
    if (span > UINT32_MAX)
        return -E2BIG;
    b->t = calloc(1, sizeof(*b->t));
    if (!b->t)
        goto out;
    b->t->rules = calloc(XU_CFI_MAX_RULES, sizeof(*b->t->rules));
    b->hash = calloc(HASH_SLOTS, sizeof(*b->hash));
    if (!b->t->rules || !b->hash)
        goto out;
    b->t->base = base;
    b->t->rules[CFI_RULE_NONE].kind = XU_CFI_NONE;
    b->t->rules[CFI_RULE_UNKNOWN].kind = XU_CFI_UNKNOWN;
    b->t->nrules = 2;
    b->span = span;
    /* two entries at least: one row and the end marker */
    b->max_rows = max_rows ? (max_rows < 2 ? 2 : max_rows) : XU_CFI_DEFAULT_MAX_ROWS;
    if (b->max_rows > UINT32_MAX)           /* the page index holds entry numbers */
        b->max_rows = UINT32_MAX;
    rc = 0;
out:
    if (rc < 0)
        cfi_builder_dispose(b);
    return rc;
}

void cfi_builder_dispose(struct cfi_builder *b)
{
    xu_cfi_free(b->t);
    free(b->hash);
    memset(b, 0, sizeof(*b));
}

static uint16_t rule_intern(struct cfi_builder *b, const struct cfi_rule *r)
{
    struct xu_cfi_table *t = b->t;
    uint32_t slot;
    size_t probes;

    if (r->kind == XU_CFI_NONE)
        return CFI_RULE_NONE;
    if (r->kind != XU_CFI_RULE)
        return CFI_RULE_UNKNOWN;
    slot = rule_hash(r) & (HASH_SLOTS - 1);
    for (probes = 0; probes < HASH_SLOTS; probes++, slot = (slot + 1) & (HASH_SLOTS - 1)) {
        uint32_t v = b->hash[slot];

        if (v == 0)
            break;
        if (memcmp(&t->rules[v - 1], r, sizeof(*r)) == 0)
            return (uint16_t)(v - 1);
    }
    if (t->nrules >= XU_CFI_MAX_RULES || probes == HASH_SLOTS) {
        /* a hostile file with endless distinct rules: stop learning new ones */
        t->stats.truncated = true;
        return CFI_RULE_UNKNOWN;
    }
    t->rules[t->nrules] = *r;
    b->hash[slot] = (uint32_t)t->nrules + 1;
    return (uint16_t)t->nrules++;
}

static int append(struct cfi_builder *b, uint64_t off, uint16_t idx)
{
    struct xu_cfi_table *t = b->t;

    /* keep one slot for the end marker */
    if (t->n + 2 > b->max_rows) {
        t->stats.truncated = true;
        return 1;
    }
    if (t->n == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 1024;
        struct cfi_entry *e;

        if (cap > b->max_rows)
            cap = b->max_rows;
        e = realloc(t->e, cap * sizeof(*e));
        if (!e)
            return -ENOMEM;
        t->e = e;
        b->cap = cap;
    }
    t->e[t->n].start = (uint32_t)off;
    t->e[t->n].rule = idx;
    t->n++;
    return 0;
}

int cfi_builder_add(struct cfi_builder *b, uint64_t start, uint64_t end,
                    const struct xu_cfi_row *row)
{
    struct xu_cfi_table *t = b->t;
    struct cfi_rule r;
    uint64_t s, e;
    uint16_t idx;
    int rc;

    /* clip to [base, base + span) in offsets */
    s = start < t->base ? 0 : start - t->base;
    e = end < t->base ? 0 : end - t->base;
    if (e > b->span)
        e = b->span;
    if (b->started && s < b->cursor)
        s = b->cursor;
    if (s >= e)
        return 0;
    rule_pack(row, &r);
    idx = rule_intern(b, &r);
    if (b->started && s > b->cursor && t->e[t->n - 1].rule != CFI_RULE_NONE) {
        /* a gap: nothing covers [cursor, s) */
        rc = append(b, b->cursor, CFI_RULE_NONE);
        if (rc)
            return rc;
    }
    if (!b->started || t->e[t->n - 1].rule != idx) {
        rc = append(b, s, idx);
        if (rc)
            return rc;
    }
    /* else the same rule goes on (contiguous, or a gap within NONE) */
    b->started = true;
    b->cursor = e;
    return 0;
}

static int build_page_index(struct xu_cfi_table *t)
{
    uint64_t span = t->n ? t->e[t->n - 1].start : 0;
    size_t p, i = 0;

    /* about two entries per index slot: the search is then one cache line */
    t->page_shift = 4;
    while ((span >> t->page_shift) > t->n / 2 || (span >> t->page_shift) >= CFI_MAX_PAGES)
        t->page_shift++;
    t->npages = (size_t)(span >> t->page_shift) + 1;
    t->page_index = malloc((t->npages + 1) * sizeof(*t->page_index));
    if (!t->page_index)
        return -ENOMEM;
    for (p = 0; p <= t->npages; p++) {
        uint64_t at = (uint64_t)p << t->page_shift;

        while (i + 1 < t->n && t->e[i + 1].start <= at)
            i++;
        t->page_index[p] = (uint32_t)i;
    }
    return 0;
}

struct xu_cfi_table *cfi_builder_finish(struct cfi_builder *b)
{
    struct xu_cfi_table *t = b->t;
    struct cfi_rule *rules;
    size_t i, unknown = 0;

    if (b->started && t->e[t->n - 1].rule != CFI_RULE_NONE) {
        /* append() kept room for this marker */
        if (t->n == b->cap) {
            struct cfi_entry *e = realloc(t->e, (t->n + 1) * sizeof(*e));

            if (!e)
                goto nomem;
            t->e = e;
        }
        t->e[t->n].start = (uint32_t)b->cursor;
        t->e[t->n].rule = CFI_RULE_NONE;
        t->n++;
    }
    /* give back what the rule array and doubling did not use */
    rules = realloc(t->rules, t->nrules * sizeof(*rules));
    if (rules)
        t->rules = rules;
    if (t->n && t->n < b->cap) {
        struct cfi_entry *e = realloc(t->e, t->n * sizeof(*e));

        if (e)
            t->e = e;
    }
    if (build_page_index(t) < 0)
        goto nomem;
    for (i = 0; i < t->n; i++)
        unknown += t->e[i].rule == CFI_RULE_UNKNOWN;
    t->stats.rows = t->n;
    t->stats.rules = t->nrules;
    t->stats.unknown_rows = unknown;
    t->stats.bytes = sizeof(*t) + t->n * sizeof(*t->e) +
                     t->nrules * sizeof(*t->rules) + (t->npages + 1) * sizeof(*t->page_index);
    free(b->hash);
    memset(b, 0, sizeof(*b));
    return t;
nomem:
    cfi_builder_dispose(b);
    errno = ENOMEM;
    return NULL;
}

void xu_cfi_free(struct xu_cfi_table *t)
{
    if (!t)
        return;
    free(t->e);
    free(t->rules);
    free(t->page_index);
    free(t);
}

void xu_cfi_get_stats(const struct xu_cfi_table *t, struct xu_cfi_stats *out)
{
    *out = t->stats;
}

void xu_cfi_lookup(const struct xu_cfi_table *t, uint64_t addr, struct xu_cfi_row *out)
{
    uint64_t off = addr - t->base;
    size_t i;

    memset(out, 0, sizeof(*out));
    out->kind = XU_CFI_NONE;
    out->start = 0;
    out->end = UINT64_MAX;
    if (t->n == 0)
        return;
    if (addr < t->base || (off <= UINT32_MAX && (uint32_t)off < t->e[0].start)) {
        out->end = t->base + t->e[0].start;
        return;
    }
    if (off > UINT32_MAX) {
        out->start = t->base + t->e[t->n - 1].start;
        return;
    }
    /* the same search as cfi_find(), keeping the index for the bounds */
    {
        size_t lo = 0, len = t->n;

        while (len > 1) {
            size_t half = len / 2;

            if (t->e[lo + half].start <= (uint32_t)off)
                lo += half;
            len -= half;
        }
        i = lo;
    }
    cfi_rule_unpack(&t->rules[t->e[i].rule], out);
    out->start = t->base + t->e[i].start;
    out->end = i + 1 < t->n ? t->base + t->e[i + 1].start : UINT64_MAX;
}

static int row_cmp(const void *a, const void *b)
{
    const struct xu_cfi_row *x = *(const struct xu_cfi_row *const *)a;
    const struct xu_cfi_row *y = *(const struct xu_cfi_row *const *)b;

    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return x < y ? -1 : x > y;  /* stable: earlier rows win ties */
}

int xu_cfi_from_rows(const struct xu_cfi_row *rows, size_t n, const struct xu_cfi_config *cfg,
                     struct xu_cfi_table **out)
{
    const struct xu_cfi_row **order = NULL;
    struct cfi_builder b;
    uint64_t lo = UINT64_MAX, hi = 0;
    size_t i;
    int rc;

    memset(&b, 0, sizeof(b));
    *out = NULL;
    for (i = 0; i < n; i++) {
        if (rows[i].start >= rows[i].end)
            continue;
        if (rows[i].start < lo)
            lo = rows[i].start;
        if (rows[i].end > hi)
            hi = rows[i].end;
    }
    if (lo > hi) {
        lo = 0;
        hi = 0;
    }
    rc = cfi_builder_init(&b, lo, hi - lo, cfg ? cfg->max_rows : 0);
    if (rc < 0)
        goto out;
    rc = -ENOMEM;
    order = n ? malloc(n * sizeof(*order)) : NULL;
    if (n && !order)
        goto out;
    for (i = 0; i < n; i++)
        order[i] = &rows[i];
    if (n)
        qsort(order, n, sizeof(*order), row_cmp);
    for (i = 0; i < n; i++) {
        rc = cfi_builder_add(&b, order[i]->start, order[i]->end, order[i]);
        if (rc < 0)
            goto out;
        if (rc > 0)
            break;
    }
    *out = cfi_builder_finish(&b);
    rc = *out ? 0 : -ENOMEM;
out:
    free(order);
    cfi_builder_dispose(&b);
    return rc;
}
