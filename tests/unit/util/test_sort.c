/* SPDX-License-Identifier: GPL-2.0-only */
/* test_sort.c - the in-place radix sort against qsort: random values,
 * addresses sharing their high bytes, duplicates, every small size. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "util/xu_sort.h"

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

    return x < y ? -1 : x > y;
}

static uint64_t next_rand(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* n values made by make(), sorted both ways: the same. */
static void check(size_t n, uint64_t mask, uint64_t base, uint64_t seed)
{
    uint64_t *a = malloc((n ? n : 1) * sizeof(*a)), *b = malloc((n ? n : 1) * sizeof(*b));
    size_t i;

    assert_non_null(a);
    assert_non_null(b);
    for (i = 0; i < n; i++)
        a[i] = base + (next_rand(&seed) & mask);
    memcpy(b, a, n * sizeof(*a));
    xu_sort_u64(a, n);
    qsort(b, n, sizeof(*b), cmp_u64);
    assert_memory_equal(a, b, n * sizeof(*a));
    free(a);
    free(b);
}

static void test_random(void **state)
{
    (void)state;
    check(100000, UINT64_MAX, 0, 1);
}

static void test_kernel_addresses(void **state)
{
    (void)state;
    /* the high bytes shared, as a guest's code addresses are */
    check(200000, 0xffffff, 0xffffffff80000000ULL, 7);
}

static void test_duplicates(void **state)
{
    (void)state;
    check(50000, 0xf, 0x1000, 3);
    check(5000, 0, 42, 5);      /* all equal */
}

static void test_small_sizes(void **state)
{
    size_t n;

    (void)state;
    for (n = 0; n < 100; n++)
        check(n, UINT64_MAX, 0, n + 11);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random),
        cmocka_unit_test(test_kernel_addresses),
        cmocka_unit_test(test_duplicates),
        cmocka_unit_test(test_small_sizes),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
