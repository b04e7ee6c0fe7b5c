/* SPDX-License-Identifier: GPL-2.0-only */
/* test_hist.c - the paused-time histogram: exact extremes, ~3 % quantiles. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "util/xu_hist.h"

static void test_empty(void **state)
{
    struct xu_hist h;

    xu_hist_init(&h);
    assert_int_equal(xu_hist_quantile(&h, 0.5), 0);
    assert_int_equal(h.count, 0);
}

static void test_small_values_exact(void **state)
{
    struct xu_hist h;
    uint64_t v;

    xu_hist_init(&h);
    for (v = 1; v <= 31; v++)
        xu_hist_add(&h, v);
    assert_int_equal(h.min, 1);
    assert_int_equal(h.max, 31);
    assert_int_equal(xu_hist_quantile(&h, 0.5), 16);
    assert_int_equal(xu_hist_quantile(&h, 0), 1);
    assert_int_equal(xu_hist_quantile(&h, 1), 31);
}

static void test_quantiles_within_bucket_precision(void **state)
{
    struct xu_hist h;
    uint64_t v, q50, q99;

    xu_hist_init(&h);
    /* 1..100000 us in ns */
    for (v = 1; v <= 100000; v++)
        xu_hist_add(&h, v * 1000);
    q50 = xu_hist_quantile(&h, 0.5);
    q99 = xu_hist_quantile(&h, 0.99);
    assert_true(q50 > 50000000ULL * 97 / 100 && q50 < 50000000ULL * 103 / 100);
    assert_true(q99 > 99000000ULL * 97 / 100 && q99 < 99000000ULL * 103 / 100);
    assert_int_equal(h.min, 1000);
    assert_int_equal(h.max, 100000000ULL);
    assert_int_equal(h.count, 100000);
}

static void test_huge_values_clamped(void **state)
{
    struct xu_hist h;

    xu_hist_init(&h);
    xu_hist_add(&h, UINT64_MAX);
    xu_hist_add(&h, 5);
    assert_int_equal(xu_hist_quantile(&h, 1), UINT64_MAX);
    assert_int_equal(xu_hist_quantile(&h, 0.25), 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_empty),
        cmocka_unit_test(test_small_values_exact),
        cmocka_unit_test(test_quantiles_within_bucket_precision),
        cmocka_unit_test(test_huge_values_clamped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
