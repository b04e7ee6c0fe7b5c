/* SPDX-License-Identifier: GPL-2.0-only */
/* test_big.c - large tables: aligned to huge pages from XU_BIG_MIN on,
 * every byte usable, freed by free(); blocks mapped on their own, counted. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "util/xu_big.h"

static void test_small_is_malloc(void **state)
{
    unsigned char *p = xu_big_alloc(100);

    (void)state;
    assert_non_null(p);
    memset(p, 0xab, 100);
    assert_int_equal(p[99], 0xab);
    free(p);
}

static void test_large_is_aligned(void **state)
{
    size_t sizes[] = { XU_BIG_MIN, XU_BIG_MIN + 1, 3 * XU_BIG_MIN - 5 };
    size_t i;

    (void)state;
    for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        unsigned char *p = xu_big_alloc(sizes[i]);

        assert_non_null(p);
        assert_int_equal((uintptr_t)p % XU_BIG_MIN, 0);
        /* every byte asked for is there */
        memset(p, 0x5a, sizes[i]);
        assert_int_equal(p[0], 0x5a);
        assert_int_equal(p[sizes[i] - 1], 0x5a);
        free(p);
    }
}

static void test_too_large_fails(void **state)
{
    (void)state;
    errno = 0;
    assert_null(xu_big_alloc(SIZE_MAX - 1));
    assert_int_equal(errno, ENOMEM);
}

/* A block of its own: aligned, every byte usable, counted while mapped. */
static void test_map_is_aligned_and_counted(void **state)
{
    size_t before = xu_big_mapped();
    unsigned char *p = xu_big_map(2 * XU_BIG_MIN);

    (void)state;
    assert_non_null(p);
    assert_int_equal((uintptr_t)p % XU_BIG_MIN, 0);
    assert_int_equal(xu_big_mapped(), before + 2 * XU_BIG_MIN);
    memset(p, 0x5a, 2 * XU_BIG_MIN);
    assert_int_equal(p[2 * XU_BIG_MIN - 1], 0x5a);
    xu_big_unmap(p, 2 * XU_BIG_MIN);
    assert_int_equal(xu_big_mapped(), before);
}

/* Only whole huge pages, and not more than the address space. */
static void test_map_refuses_odd_sizes(void **state)
{
    (void)state;
    errno = 0;
    assert_null(xu_big_map(0));
    assert_int_equal(errno, EINVAL);
    errno = 0;
    assert_null(xu_big_map(XU_BIG_MIN + 4096));
    assert_int_equal(errno, EINVAL);
    errno = 0;
    assert_null(xu_big_map(SIZE_MAX / 2 / XU_BIG_MIN * XU_BIG_MIN));
    assert_int_equal(errno, ENOMEM);
    assert_int_equal(xu_big_mapped(), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small_is_malloc),
        cmocka_unit_test(test_large_is_aligned),
        cmocka_unit_test(test_too_large_fails),
        cmocka_unit_test(test_map_is_aligned_and_counted),
        cmocka_unit_test(test_map_refuses_odd_sizes),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
