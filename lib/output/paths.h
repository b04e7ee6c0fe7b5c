/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * paths.h - a profile's stacks as paths of small integers, stored compactly
 * and sorted (internal to the writers that fold stacks: folded and svg).
 *
 * A path is a sequence of values (name or token ids), root first, with a
 * count and a side (side 1 is a differential flame graph's baseline).
 * Folded lines and flame graphs both need every stack's path in sorted
 * order with equal paths next to each other; this holds them in as little
 * memory as that allows:
 *
 *   - values take 16 bits each while every value fits (fewer than 65,536
 *     distinct ids, which is nearly every profile), and are widened once to
 *     32 bits when one does not;
 *   - sorting never copies the values: a most-significant-digit radix sort
 *     whose digits are chunks of values packed into a 64-bit key, each
 *     chunk sorted in place, in 16 bytes a path while it runs, leaving the
 *     order (4 bytes a path) and the flags of equal runs (1 byte).
 *
 * A prefix tree of the paths would be smaller only when stacks share most
 * of their frames; profiles whose stacks are all distinct are the worst
 * case, and there a tree has nearly a node per frame, each much larger than
 * a 16-bit value (a million distinct 20-deep stacks: 10.8 million nodes by
 * name, 16.7 million by address, against 20 million values).
 *
 * Order: lexicographic by value, a path before every longer path it is a
 * prefix of.  Equal paths are next to each other in no particular order
 * (sides are not part of the order).
 *
 * Bounds: a path holds at most XU_PATHS_MAX_LEN values and a set at most
 * XU_PATHS_MAX paths; adding past either fails, and so does running out of
 * memory.  Sorting allocates n * 21 bytes and recurses at most
 * XU_PATHS_MAX_LEN / 2 + 1 levels deep.
 */
#ifndef XU_OUTPUT_PATHS_H
#define XU_OUTPUT_PATHS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profile/xu_walk.h"

/* A stack's frames and the root frames writers put above them (all,
 * vcpuN, a state, [incomplete]), with room to spare. */
#define XU_PATHS_MAX_LEN (XU_MAX_DEPTH_LIMIT + 8)
/* Path indices are 32-bit. */
#define XU_PATHS_MAX (UINT32_MAX - 1)

struct xu_paths {
    void *vals;                 /* uint16_t, or uint32_t once wide */
    size_t nr_vals, cap_vals;
    bool wide;
    uint32_t max_val;           /* largest value held */
    uint64_t *ends;             /* per path: its values end here (and the next start) */
    uint64_t *counts;           /* per path */
    uint8_t *sides;             /* per path: 0 or 1 */
    size_t n, cap;
};

/* Zero-initialised is empty; dispose always. */
void xu_paths_init(struct xu_paths *ps);
void xu_paths_dispose(struct xu_paths *ps);

/* Room for `paths` more paths holding `vals` more values in all, so that a
 * caller who knows its sizes grows each array once.  0, -ENOMEM, or -E2BIG
 * past XU_PATHS_MAX. */
int xu_paths_reserve(struct xu_paths *ps, size_t paths, size_t vals);

/* Append a path of len values (1 <= len <= XU_PATHS_MAX_LEN).  0, -EINVAL
 * for a length out of range, -E2BIG past XU_PATHS_MAX paths, -ENOMEM. */
int xu_paths_add(struct xu_paths *ps, const uint32_t *v, uint32_t len, uint64_t count,
                 int side);

/* Every value v becomes map[v]; map has nmap entries, more than any value
 * held.  0, -EINVAL (a value without an entry: nothing changed), -ENOMEM. */
int xu_paths_remap(struct xu_paths *ps, const uint32_t *map, size_t nmap);

/*
 * The paths in sorted order (see above): *order gets n path indices,
 * malloc'ed, owned by the caller (NULL when n is 0).  With first not NULL,
 * *first gets n flags the same way: first[k] is 1 when order[k] is not
 * equal to order[k - 1] (the sort knows, so nobody need compare again).
 * 0 or -ENOMEM.
 */
int xu_paths_sort(const struct xu_paths *ps, uint32_t **order, uint8_t **first);

static inline size_t xu_paths_count(const struct xu_paths *ps)
{
    return ps->n;
}

static inline uint64_t xu_paths_start(const struct xu_paths *ps, size_t k)
{
    return k ? ps->ends[k - 1] : 0;
}

static inline uint32_t xu_paths_len(const struct xu_paths *ps, size_t k)
{
    return (uint32_t)(ps->ends[k] - xu_paths_start(ps, k));
}

/* Value i of path k (i < xu_paths_len(ps, k)). */
static inline uint32_t xu_paths_val(const struct xu_paths *ps, size_t k, uint32_t i)
{
    uint64_t at = xu_paths_start(ps, k) + i;

    return ps->wide ? ((const uint32_t *)ps->vals)[at] : ((const uint16_t *)ps->vals)[at];
}

/*
 * Paths read in sorted order are read at random: a million paths are tens
 * of megabytes, and each read of its end, its count and its values is a
 * cache miss.  A reader asks for the path it will read some paths ahead in
 * two steps: its end and count first (XU_PATHS_AHEAD), then, once its end is
 * at hand, its values (half as far ahead), so the misses of several paths
 * overlap instead of following one another.
 */
#define XU_PATHS_AHEAD 16

static inline void xu_paths_prefetch_ends(const struct xu_paths *ps, size_t k)
{
    __builtin_prefetch(&ps->ends[k]);
    if (k)
        __builtin_prefetch(&ps->ends[k - 1]);
    __builtin_prefetch(&ps->counts[k]);
}

static inline void xu_paths_prefetch_vals(const struct xu_paths *ps, size_t k)
{
    uint64_t at = xu_paths_start(ps, k);

    __builtin_prefetch(ps->wide ? (const void *)((const uint32_t *)ps->vals + at)
                                : (const void *)((const uint16_t *)ps->vals + at));
}

/* Whether paths a and b hold the same values. */
bool xu_paths_equal(const struct xu_paths *ps, size_t a, size_t b);

#endif
