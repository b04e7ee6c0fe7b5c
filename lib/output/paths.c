/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * paths.c - compact paths of ids and their sort (see paths.h).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "paths.h"
#include "util/xu_big.h"

#define FIRST_PATHS 1024
#define FIRST_VALS 16384
#define NARROW_MAX 0xffffu
#define SMALL_RANGE 16          /* insertion sort below this */

void xu_paths_init(struct xu_paths *ps)
{
    memset(ps, 0, sizeof(*ps));
}

void xu_paths_dispose(struct xu_paths *ps)
{
    free(ps->vals);
    free(ps->ends);
    free(ps->counts);
    free(ps->sides);
    memset(ps, 0, sizeof(*ps));
}

static size_t val_size(const struct xu_paths *ps)
{
    return ps->wide ? sizeof(uint32_t) : sizeof(uint16_t);
}

/* Grow the values to hold want of them: exactly when reserving, by
 * doubling when adding one path at a time. */
static int grow_vals(struct xu_paths *ps, size_t want)
{
    size_t cap = ps->cap_vals ? ps->cap_vals : FIRST_VALS;
    void *v;

    if (want <= ps->cap_vals)
        return 0;
    while (cap < want) {
        if (cap > SIZE_MAX / 2 / sizeof(uint32_t))
            return -ENOMEM;
        cap *= 2;
    }
    v = realloc(ps->vals, cap * val_size(ps));
    if (!v)
        return -ENOMEM;
    ps->vals = v;
    ps->cap_vals = cap;
    return 0;
}

static int grow_paths(struct xu_paths *ps, size_t want)
{
    size_t cap = ps->cap ? ps->cap : FIRST_PATHS;
    uint64_t *e, *c;
    uint8_t *s;

    if (want <= ps->cap)
        return 0;
    if (want > XU_PATHS_MAX)
        return -E2BIG;
    while (cap < want)
        cap = cap > XU_PATHS_MAX / 2 ? XU_PATHS_MAX : cap * 2;
    e = realloc(ps->ends, cap * sizeof(*e));
    if (!e)
        return -ENOMEM;
    ps->ends = e;
    c = realloc(ps->counts, cap * sizeof(*c));
    if (!c)
        return -ENOMEM;
    ps->counts = c;
    s = realloc(ps->sides, cap * sizeof(*s));
    if (!s)
        return -ENOMEM;
    ps->sides = s;
    ps->cap = cap;
    return 0;
}

int xu_paths_reserve(struct xu_paths *ps, size_t paths, size_t vals)
{
    int rc;

    if (paths > XU_PATHS_MAX - ps->n)
        return -E2BIG;
    if (vals > SIZE_MAX / sizeof(uint32_t) - ps->nr_vals)
        return -ENOMEM;
    rc = grow_paths(ps, ps->n + paths);
    if (rc == 0 && ps->nr_vals + vals > ps->cap_vals) {
        /* exactly what was asked: the caller counted (the first time on
         * huge pages: the values of a million stacks are tens of MB) */
        void *v = ps->vals ? realloc(ps->vals, (ps->nr_vals + vals) * val_size(ps))
                           : xu_big_alloc((ps->nr_vals + vals) * val_size(ps));

        if (!v)
            return -ENOMEM;
        ps->vals = v;
        ps->cap_vals = ps->nr_vals + vals;
    }
    return rc;
}

/* From 16 to 32 bits a value, in place, from the end backwards. */
static int widen(struct xu_paths *ps)
{
    uint32_t *w;
    size_t i;

    if (ps->cap_vals) {
        w = realloc(ps->vals, ps->cap_vals * sizeof(uint32_t));
        if (!w)
            return -ENOMEM;
        for (i = ps->nr_vals; i-- > 0;)
            w[i] = ((const uint16_t *)(const void *)w)[i];
        ps->vals = w;
    }
    ps->wide = true;
    return 0;
}

int xu_paths_add(struct xu_paths *ps, const uint32_t *v, uint32_t len, uint64_t count,
                 int side)
{
    uint32_t i, max = 0;
    int rc;

    if (len == 0 || len > XU_PATHS_MAX_LEN || (side != 0 && side != 1))
        return -EINVAL;
    for (i = 0; i < len; i++)
        if (v[i] > max)
            max = v[i];
    if (max == UINT32_MAX)
        return -EINVAL;         /* the sort needs value + 1 */
    if (max > NARROW_MAX && !ps->wide && (rc = widen(ps)) < 0)
        return rc;
    rc = grow_paths(ps, ps->n + 1);
    if (rc == 0)
        rc = grow_vals(ps, ps->nr_vals + len);
    if (rc < 0)
        return rc;
    if (ps->wide) {
        memcpy((uint32_t *)ps->vals + ps->nr_vals, v, len * sizeof(*v));
    } else {
        uint16_t *d = (uint16_t *)ps->vals + ps->nr_vals;

        for (i = 0; i < len; i++)
            d[i] = (uint16_t)v[i];
    }
    ps->nr_vals += len;
    ps->ends[ps->n] = ps->nr_vals;
    ps->counts[ps->n] = count;
    ps->sides[ps->n] = (uint8_t)side;
    ps->n++;
    if (max > ps->max_val)
        ps->max_val = max;
    return 0;
}

int xu_paths_remap(struct xu_paths *ps, const uint32_t *map, size_t nmap)
{
    uint32_t max = 0;
    size_t i;
    int rc;

    if (ps->nr_vals && (size_t)ps->max_val >= nmap)
        return -EINVAL;
    for (i = 0; i < nmap; i++)
        if (map[i] > max)
            max = map[i];
    if (max == UINT32_MAX)
        return -EINVAL;
    if (max > NARROW_MAX && !ps->wide && (rc = widen(ps)) < 0)
        return rc;
    if (ps->wide) {
        uint32_t *v = ps->vals;

        for (i = 0; i < ps->nr_vals; i++)
            v[i] = map[v[i]];
    } else {
        uint16_t *v = ps->vals;

        for (i = 0; i < ps->nr_vals; i++)
            v[i] = (uint16_t)map[v[i]];
    }
    /* a bound, not the exact maximum: all the sort needs */
    ps->max_val = ps->nr_vals ? max : 0;
    return 0;
}

bool xu_paths_equal(const struct xu_paths *ps, size_t a, size_t b)
{
    uint32_t len = xu_paths_len(ps, a), i;

    if (len != xu_paths_len(ps, b))
        return false;
    for (i = 0; i < len; i++)
        if (xu_paths_val(ps, a, i) != xu_paths_val(ps, b, i))
            return false;
    return true;
}

/* ---------------------------------------------------------- sorting -- */

struct item {
    uint64_t key;               /* the chunk of values at the current level */
    uint32_t path;
};

struct sorter {
    const struct xu_paths *ps;
    unsigned int bits;          /* per value in a key */
    uint32_t per_key;           /* values in a key */
    struct item *all;           /* every item: positions in first[] are from here */
    uint8_t *first;             /* NULL: not wanted */
};

static void swap_items(struct item *a, struct item *b)
{
    struct item t = *a;

    *a = *b;
    *b = t;
}

static void insertion_sort(struct item *a, size_t n)
{
    size_t i, j;

    for (i = 1; i < n; i++) {
        struct item t = a[i];

        for (j = i; j > 0 && a[j - 1].key > t.key; j--)
            a[j] = a[j - 1];
        a[j] = t;
    }
}

static void sift_down(struct item *a, size_t root, size_t n)
{
    size_t child;

    while ((child = 2 * root + 1) < n) {
        if (child + 1 < n && a[child + 1].key > a[child].key)
            child++;
        if (a[root].key >= a[child].key)
            return;
        swap_items(&a[root], &a[child]);
        root = child;
    }
}

/* The fallback that keeps the sort O(n log n) whatever the keys. */
static void heap_sort(struct item *a, size_t n)
{
    size_t i;

    for (i = n / 2; i-- > 0;)
        sift_down(a, i, n);
    for (i = n; i-- > 1;) {
        swap_items(&a[0], &a[i]);
        sift_down(a, 0, i);
    }
}

static uint64_t median3(uint64_t a, uint64_t b, uint64_t c)
{
    if (a < b)
        return b < c ? b : a < c ? c : a;
    return a < c ? a : b < c ? c : b;
}

/*
 * Introsort by key: quicksort with three-way partitions (chunks of values
 * repeat a lot: a few roots, a few callers under each), recursing into the
 * smaller side only, heap sort once the depth budget is spent.
 */
static void sort_keys(struct item *a, size_t n, unsigned int budget)
{
    while (n > SMALL_RANGE) {
        uint64_t pivot;
        size_t lt = 0, i = 0, gt = n;

        if (budget-- == 0) {
            heap_sort(a, n);
            return;
        }
        pivot = median3(a[0].key, a[n / 2].key, a[n - 1].key);
        while (i < gt) {
            if (a[i].key < pivot)
                swap_items(&a[lt++], &a[i++]);
            else if (a[i].key > pivot)
                swap_items(&a[i], &a[--gt]);
            else
                i++;
        }
        /* [0, lt) below, [lt, gt) equal, [gt, n) above */
        if (lt < n - gt) {
            sort_keys(a, lt, budget);
            a += gt;
            n -= gt;
        } else {
            sort_keys(a + gt, n - gt, budget);
            n = lt;
        }
    }
    insertion_sort(a, n);
}

static unsigned int depth_budget(size_t n)
{
    unsigned int b = 0;

    while (n > 1) {
        n >>= 1;
        b += 2;
    }
    return b + 2;
}

/* Values [level, level + per_key) of a path, each + 1 so that 0 marks the
 * end of a shorter path (which then sorts first). */
static uint64_t chunk_key(const struct sorter *so, uint32_t path, uint32_t level)
{
    const struct xu_paths *ps = so->ps;
    uint32_t len = xu_paths_len(ps, path), j;
    uint64_t key = 0;

    for (j = 0; j < so->per_key; j++) {
        uint32_t at = level + j;

        key = key << so->bits | (at < len ? (uint64_t)xu_paths_val(ps, path, at) + 1 : 0);
    }
    return key;
}

/*
 * Sort a[0..n), paths equal up to level, by their values from level on.
 * Each level recursed into is per_key values deeper, and a path is at most
 * XU_PATHS_MAX_LEN long: the recursion depth is bounded by that length.
 */
static void sort_level(const struct sorter *so, struct item *a, size_t n, uint32_t level)
{
    uint64_t last_mask = ((uint64_t)1 << so->bits) - 1;
    size_t i, j;

    for (i = 0; i < n; i++)
        a[i].key = chunk_key(so, a[i].path, level);
    sort_keys(a, n, depth_budget(n));
    for (i = 0; i < n; i = j) {
        for (j = i + 1; j < n && a[j].key == a[i].key; j++)
            ;
        /* equal chunks that all go on past it: the next chunk decides */
        if (j - i > 1 && (a[i].key & last_mask) != 0) {
            sort_level(so, a + i, j - i, level + so->per_key);
        } else if (so->first) {
            /* one path, or equal paths that all ended in this chunk */
            size_t at = (size_t)(a + i - so->all);

            so->first[at] = 1;
            memset(so->first + at + 1, 0, j - i - 1);
        }
    }
}

int xu_paths_sort(const struct xu_paths *ps, uint32_t **order, uint8_t **first)
{
    struct sorter so = { .ps = ps, .bits = 1 };
    struct item *a;
    uint32_t *o;
    size_t i;

    *order = NULL;
    if (first)
        *first = NULL;
    if (ps->n == 0)
        return 0;
    if (first && !(so.first = malloc(ps->n)))
        return -ENOMEM;
    /* values + 1 (0 ends a path) in as few bits as they need */
    while (so.bits < 64 && ((uint64_t)ps->max_val + 1) >> so.bits)
        so.bits++;
    so.per_key = 64 / so.bits;
    a = malloc(ps->n * sizeof(*a));
    o = malloc(ps->n * sizeof(*o));
    if (!a || !o) {
        free(a);
        free(o);
        free(so.first);
        return -ENOMEM;
    }
    for (i = 0; i < ps->n; i++)
        a[i].path = (uint32_t)i;
    so.all = a;
    sort_level(&so, a, ps->n, 0);
    for (i = 0; i < ps->n; i++)
        o[i] = a[i].path;
    free(a);
    *order = o;
    if (first)
        *first = so.first;
    return 0;
}
