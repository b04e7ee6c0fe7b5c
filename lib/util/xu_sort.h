/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu_sort.h - sorting 64-bit values in place.
 *
 * The distinct addresses of a profile are millions when its stacks share
 * nothing; qsort took a comparison call a step and a copy of the array
 * (glibc's merge sort: 40 MB more for five million, each page a fault).
 * A radix sort by bytes, in place, from the highest byte in which the
 * values differ, does at most 8 passes over the values and needs no
 * memory beyond its stack (a few KiB a byte).
 */
#ifndef XU_SORT_H
#define XU_SORT_H

#include <stddef.h>
#include <stdint.h>

/* a[0..n) ascending, in place; O(n) passes, at most 8 of them. */
void xu_sort_u64(uint64_t *a, size_t n);

#endif
