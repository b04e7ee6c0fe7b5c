/* SPDX-License-Identifier: GPL-2.0-only */
/* hist.c - log-linear histogram: constant memory whatever the run length. */
#include "config.h"

#include <string.h>

#include "util/xu_hist.h"

/*
 * Values below XU_HIST_SUB get one bucket each; above, each power of two
 * [2^k, 2^(k+1)) is split into XU_HIST_SUB equal buckets.
 */
static unsigned int bucket_of(uint64_t v)
{
    unsigned int k, sub;

    if (v < XU_HIST_SUB)
        return (unsigned int)v;
    k = 63 - (unsigned int)__builtin_clzll(v);          /* 2^k <= v */
    sub = (unsigned int)((v >> (k - 5)) & (XU_HIST_SUB - 1)); /* 5 == log2(XU_HIST_SUB) */
    return (k - 4) * XU_HIST_SUB + sub;
}

/* Smallest value that falls into bucket b. */
static uint64_t bucket_low(unsigned int b)
{
    unsigned int k, sub;

    if (b < XU_HIST_SUB)
        return b;
    k = b / XU_HIST_SUB + 4;
    sub = b % XU_HIST_SUB;
    return (1ULL << k) + ((uint64_t)sub << (k - 5));
}

static uint64_t bucket_width(unsigned int b)
{
    return b < XU_HIST_SUB ? 1 : 1ULL << (b / XU_HIST_SUB + 4 - 5);
}

void xu_hist_init(struct xu_hist *h)
{
    memset(h, 0, sizeof(*h));
}

void xu_hist_add(struct xu_hist *h, uint64_t v)
{
    unsigned int b = bucket_of(v);

    if (b >= XU_HIST_BUCKETS)
        b = XU_HIST_BUCKETS - 1;
    if (h->buckets[b] != UINT32_MAX)
        h->buckets[b]++;
    if (h->count == 0 || v < h->min)
        h->min = v;
    if (v > h->max)
        h->max = v;
    h->count++;
    h->sum += v;
}

uint64_t xu_hist_quantile(const struct xu_hist *h, double q)
{
    uint64_t rank, seen = 0, v;
    unsigned int b;

    if (h->count == 0)
        return 0;
    if (q <= 0)
        return h->min;
    if (q >= 1)
        return h->max;
    /* the rank-th smallest value, 1-based, nearest-rank definition */
    rank = (uint64_t)(q * (double)h->count);
    if ((double)rank < q * (double)h->count)
        rank++;
    if (rank == 0)
        rank = 1;
    for (b = 0; b < XU_HIST_BUCKETS; b++) {
        seen += h->buckets[b];
        if (seen >= rank)
            break;
    }
    if (b == XU_HIST_BUCKETS)
        return h->max;
    v = bucket_low(b) + bucket_width(b) / 2;
    if (v < h->min)
        v = h->min;
    if (v > h->max)
        v = h->max;
    return v;
}
