/* SPDX-License-Identifier: GPL-2.0-only */
/* test_distinct.c - the distinct-value estimate: exact-ish when small,
 * within 3 % (almost four standard errors) up to a million, blind to
 * repeats, and for values that share their high bytes (addresses). */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "util/xu_distinct.h"

/* n distinct addresses from base, stride apart, each added `times` times. */
static size_t estimate(size_t n, uint64_t base, uint64_t stride, unsigned int times)
{
    struct xu_distinct *d = malloc(sizeof(*d));
    unsigned int t;
    size_t i, e;

    assert_non_null(d);
    xu_distinct_init(d);
    for (t = 0; t < times; t++)
        for (i = 0; i < n; i++)
            xu_distinct_add(d, base + i * stride);
    e = xu_distinct_estimate(d);
    free(d);
    return e;
}

static void assert_close(size_t got, size_t want, double tolerance)
{
    double err = ((double)got - (double)want) / (double)(want ? want : 1);

    if (err > tolerance || err < -tolerance)
        fail_msg("estimated %zu for %zu distinct values", got, want);
}

static void test_empty_and_small(void **state)
{
    (void)state;
    assert_int_equal(estimate(0, 0, 1, 1), 0);
    assert_int_equal(estimate(1, 0xffffffff81000000ULL, 1, 5), 1);
    assert_close(estimate(100, 0xffffffff81000000ULL, 1, 3), 100, 0.03);
    assert_close(estimate(5000, 0x400000, 16, 2), 5000, 0.03);
}

static void test_large(void **state)
{
    (void)state;
    assert_close(estimate(100000, 0xffffffff81000000ULL, 1, 2), 100000, 0.03);
    assert_close(estimate(1000000, 0xffffffff80000000ULL, 3, 1), 1000000, 0.03);
    assert_close(estimate(1000000, 0, 1ULL << 32, 1), 1000000, 0.03);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_empty_and_small),
        cmocka_unit_test(test_large),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
