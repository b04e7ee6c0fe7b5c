/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sort.c - in-place most-significant-byte-first radix sort of 64-bit
 * values (an "American flag" sort): each byte's buckets are counted, the
 * values cycled into their buckets by swaps, and every bucket sorted by
 * the next byte; small buckets by insertion.
 */
#include "config.h"

#include "util/xu_sort.h"

#define SMALL 32                /* buckets below this: insertion sort */

static void insertion_sort(uint64_t *a, size_t n)
{
    size_t i, j;

    for (i = 1; i < n; i++) {
        uint64_t v = a[i];

        for (j = i; j > 0 && a[j - 1] > v; j--)
            a[j] = a[j - 1];
        a[j] = v;
    }
}

/* Sort by the byte at shift and below: the bytes above are equal. */
static void sort_byte(uint64_t *a, size_t n, unsigned int shift)
{
    size_t count[256] = { 0 }, next[256], end[256], i, at = 0;
    unsigned int b;

    if (n < SMALL) {
        insertion_sort(a, n);
        return;
    }
    for (i = 0; i < n; i++)
        count[(a[i] >> shift) & 0xff]++;
    for (b = 0; b < 256; b++) {
        next[b] = at;
        at += count[b];
        end[b] = at;
    }
    for (b = 0; b < 256; b++) {
        while (next[b] < end[b]) {
            uint64_t v = a[next[b]];
            unsigned int d = (unsigned int)(v >> shift) & 0xff;

            /* carry v to its bucket, taking the value there along */
            while (d != b) {
                uint64_t t = a[next[d]];

                a[next[d]++] = v;
                v = t;
                d = (unsigned int)(v >> shift) & 0xff;
            }
            a[next[b]++] = v;
        }
    }
    if (shift == 0)
        return;
    for (b = 0, at = 0; b < 256; at += count[b], b++)
        if (count[b] > 1)
            sort_byte(a + at, count[b], shift - 8);
}

void xu_sort_u64(uint64_t *a, size_t n)
{
    uint64_t diff = 0;
    size_t i;

    for (i = 1; i < n; i++)
        diff |= a[i] ^ a[0];
    if (diff == 0)
        return;
    /* from the highest byte in which any two values differ */
    sort_byte(a, n, (unsigned int)(63 - __builtin_clzll(diff)) / 8 * 8);
}
