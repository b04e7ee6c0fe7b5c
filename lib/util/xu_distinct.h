/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu_distinct.h - how many distinct values a stream holds, estimated in
 * 16 KiB whatever its length (HyperLogLog, 2^14 registers: a standard
 * error of 0.8 %).
 *
 * For sizing a hash table before filling it: a table that grows by
 * doubling moves every value it holds at each step, into memory never
 * touched before, and ends up to twice the size it needs.  The estimate
 * is only a size: whoever uses it must still grow when it was too low.
 */
#ifndef XU_DISTINCT_H
#define XU_DISTINCT_H

#include <stddef.h>
#include <stdint.h>

#include "util/xu_mix.h"

#define XU_DISTINCT_BITS 14

struct xu_distinct {
    uint8_t reg[1u << XU_DISTINCT_BITS];
};

void xu_distinct_init(struct xu_distinct *d);

/* Inline: asked once a frame of a profile, 20 million times for a million
 * samples of 20. */
static inline void xu_distinct_add(struct xu_distinct *d, uint64_t v)
{
    uint64_t h = xu_mix64(v);
    /* the bits left after the register's, with a last 1 so that the run
     * is at most 64 - XU_DISTINCT_BITS long */
    uint64_t rest = h << XU_DISTINCT_BITS | (1ULL << (XU_DISTINCT_BITS - 1));
    uint8_t run = (uint8_t)(__builtin_clzll(rest) + 1);
    uint8_t *r = &d->reg[h >> (64 - XU_DISTINCT_BITS)];

    if (run > *r)
        *r = run;
}
/* The estimated number of distinct values added. */
size_t xu_distinct_estimate(const struct xu_distinct *d);

#endif
