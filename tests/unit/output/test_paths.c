/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_paths.c - the writers' compact paths (lib/output/paths.c): values
 * kept exactly through widening and remapping, the sort's order against a
 * plain comparison sort (prefixes first, equal paths together, the flags
 * that say so), counts and sides, and the bounds on hostile sizes.
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "output/paths.h"

static uint64_t rng = 0x243f6a8885a308d3ULL;

static uint32_t next_rand(uint32_t below)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng % below);
}

static void add(struct xu_paths *ps, const uint32_t *v, uint32_t len, uint64_t count)
{
    assert_int_equal(xu_paths_add(ps, v, len, count, 0), 0);
}

static void assert_path(const struct xu_paths *ps, size_t k, const uint32_t *v, uint32_t len)
{
    uint32_t i;

    assert_int_equal(xu_paths_len(ps, k), len);
    for (i = 0; i < len; i++)
        assert_int_equal(xu_paths_val(ps, k, i), v[i]);
}

/* The order paths.h promises, the plain way. */
static int cmp_lex(const struct xu_paths *ps, size_t a, size_t b)
{
    uint32_t la = xu_paths_len(ps, a), lb = xu_paths_len(ps, b), i;

    for (i = 0; i < la && i < lb; i++)
        if (xu_paths_val(ps, a, i) != xu_paths_val(ps, b, i))
            return xu_paths_val(ps, a, i) < xu_paths_val(ps, b, i) ? -1 : 1;
    return la < lb ? -1 : la > lb;
}

/* order is sorted, a permutation, and first[] marks exactly the changes. */
static void assert_sorted(const struct xu_paths *ps, const uint32_t *order,
                          const uint8_t *first)
{
    size_t n = xu_paths_count(ps), k;
    uint8_t *seen = calloc(n ? n : 1, 1);

    assert_non_null(seen);
    for (k = 0; k < n; k++) {
        assert_true(order[k] < n);
        assert_false(seen[order[k]]);
        seen[order[k]] = 1;
        if (k == 0) {
            assert_int_equal(first[k], 1);
            continue;
        }
        assert_true(cmp_lex(ps, order[k - 1], order[k]) <= 0);
        assert_int_equal(first[k], cmp_lex(ps, order[k - 1], order[k]) != 0);
        assert_int_equal(first[k], !xu_paths_equal(ps, order[k - 1], order[k]));
    }
    free(seen);
}

static void sort_and_check(const struct xu_paths *ps)
{
    uint32_t *order = NULL;
    uint8_t *first = NULL;

    assert_int_equal(xu_paths_sort(ps, &order, &first), 0);
    assert_sorted(ps, order, first);
    free(order);
    free(first);
}

static void test_values_kept(void **state)
{
    static const uint32_t a[] = { 3, 1, 4, 1, 5 };
    static const uint32_t b[] = { 65535 };
    static const uint32_t c[] = { 9, 70000, 2 };
    struct xu_paths ps;

    (void)state;
    xu_paths_init(&ps);
    assert_int_equal(xu_paths_add(&ps, a, 5, 7, 0), 0);
    assert_int_equal(xu_paths_add(&ps, b, 1, 1, 1), 0);
    assert_false(ps.wide);              /* everything fits 16 bits so far */
    assert_int_equal(xu_paths_add(&ps, c, 3, UINT64_MAX, 0), 0);
    assert_true(ps.wide);               /* widened, earlier values intact */
    assert_int_equal(xu_paths_count(&ps), 3);
    assert_path(&ps, 0, a, 5);
    assert_path(&ps, 1, b, 1);
    assert_path(&ps, 2, c, 3);
    assert_int_equal(ps.counts[0], 7);
    assert_int_equal(ps.counts[2], UINT64_MAX);
    assert_int_equal(ps.sides[1], 1);
    xu_paths_dispose(&ps);
}

static void test_remap(void **state)
{
    static const uint32_t a[] = { 0, 1, 2 };
    static const uint32_t b[] = { 2, 2 };
    uint32_t map[3] = { 2, 0, 1 }, wide_map[3] = { 100000, 5, 0 };
    static const uint32_t a1[] = { 2, 0, 1 }, b1[] = { 1, 1 };
    static const uint32_t a2[] = { 0, 100000, 5 }, b2[] = { 5, 5 };
    struct xu_paths ps;

    (void)state;
    xu_paths_init(&ps);
    add(&ps, a, 3, 1);
    add(&ps, b, 2, 1);
    assert_int_equal(xu_paths_remap(&ps, map, 3), 0);
    assert_path(&ps, 0, a1, 3);
    assert_path(&ps, 1, b1, 2);
    /* a map into values past 16 bits widens first */
    assert_int_equal(xu_paths_remap(&ps, wide_map, 3), 0);
    assert_true(ps.wide);
    assert_path(&ps, 0, a2, 3);
    assert_path(&ps, 1, b2, 2);
    /* a map too short for the values held changes nothing */
    assert_int_equal(xu_paths_remap(&ps, map, 3), -EINVAL);
    assert_path(&ps, 0, a2, 3);
    xu_paths_dispose(&ps);
}

static void test_order_prefixes(void **state)
{
    /* a path sorts before the longer ones it is a prefix of, and before
     * its siblings' children only by value */
    static const uint32_t p0[] = { 1, 2, 3 };
    static const uint32_t p1[] = { 1, 2 };
    static const uint32_t p2[] = { 1 };
    static const uint32_t p3[] = { 1, 2, 3 };
    static const uint32_t p4[] = { 0, 9, 9, 9, 9, 9, 9, 9, 9 };
    static const uint32_t p5[] = { 1, 2, 3, 0 };
    static const uint32_t p6[] = { 1, 3 };
    static const uint32_t want[] = { 4, 2, 1, 0, 3, 5, 6 };   /* 0 and 3 in either order */
    struct xu_paths ps;
    uint32_t *order;
    uint8_t *first;
    size_t k;

    (void)state;
    xu_paths_init(&ps);
    add(&ps, p0, 3, 1);
    add(&ps, p1, 2, 1);
    add(&ps, p2, 1, 1);
    add(&ps, p3, 3, 1);
    add(&ps, p4, 9, 1);
    add(&ps, p5, 4, 1);
    add(&ps, p6, 2, 1);
    assert_int_equal(xu_paths_sort(&ps, &order, &first), 0);
    assert_sorted(&ps, order, first);
    for (k = 0; k < 7; k++)
        if (k != 3 && k != 4)
            assert_int_equal(order[k], want[k]);
    assert_int_equal(first[4], 0);      /* p3 equals p0 */
    free(order);
    free(first);
    /* the flags are optional */
    assert_int_equal(xu_paths_sort(&ps, &order, NULL), 0);
    assert_int_equal(order[0], 4);
    free(order);
    xu_paths_dispose(&ps);
}

/* Many random paths over few values (long shared prefixes, many equal
 * paths, every length), in 16 and in 32 bits, against the plain sort. */
static void test_order_random(void **state)
{
    uint32_t v[40];
    int round;

    (void)state;
    for (round = 0; round < 6; round++) {
        struct xu_paths ps;
        uint32_t alphabet = round < 2 ? 3 : round < 4 ? 50 : 200000;
        size_t k;

        xu_paths_init(&ps);
        for (k = 0; k < 3000; k++) {
            uint32_t len = 1 + next_rand(round % 2 ? 40 : 6), i;

            for (i = 0; i < len; i++)
                v[i] = next_rand(alphabet);
            add(&ps, v, len, 1 + next_rand(5));
        }
        assert_int_equal(ps.wide, alphabet > 65536);
        sort_and_check(&ps);
        xu_paths_dispose(&ps);
    }
}

/* What a quicksort would choke on: sorted, reversed, all equal. */
static void test_order_adversarial(void **state)
{
    struct xu_paths ps;
    uint32_t v[2];
    size_t k;

    (void)state;
    xu_paths_init(&ps);
    for (k = 0; k < 20000; k++) {
        v[0] = (uint32_t)(k < 10000 ? k : 20000 - k);
        v[1] = 7;
        add(&ps, v, 2, 1);
    }
    for (k = 0; k < 20000; k++) {
        v[0] = 3;
        add(&ps, v, 1, 1);
    }
    sort_and_check(&ps);
    xu_paths_dispose(&ps);
}

/* Paths as long as a stack can be, all equal but for their last value:
 * the sort goes down the whole length (its deepest recursion). */
static void test_longest_paths(void **state)
{
    uint32_t *v = malloc(XU_PATHS_MAX_LEN * sizeof(*v));
    struct xu_paths ps;
    uint32_t i;
    size_t k;

    (void)state;
    assert_non_null(v);
    xu_paths_init(&ps);
    for (i = 0; i < XU_PATHS_MAX_LEN; i++)
        v[i] = i % 3;
    for (k = 0; k < 64; k++) {
        v[XU_PATHS_MAX_LEN - 1] = (uint32_t)(63 - k) / 2;   /* pairs of equal paths */
        add(&ps, v, XU_PATHS_MAX_LEN, 1);
    }
    sort_and_check(&ps);
    free(v);
    xu_paths_dispose(&ps);
}

static void test_bounds(void **state)
{
    uint32_t *v = calloc(XU_PATHS_MAX_LEN + 1, sizeof(*v));
    static const uint32_t max[] = { UINT32_MAX };
    struct xu_paths ps;
    uint32_t *order = (uint32_t *)1;
    uint8_t *first = (uint8_t *)1;

    (void)state;
    assert_non_null(v);
    xu_paths_init(&ps);
    assert_int_equal(xu_paths_add(&ps, v, 0, 1, 0), -EINVAL);
    assert_int_equal(xu_paths_add(&ps, v, XU_PATHS_MAX_LEN + 1, 1, 0), -EINVAL);
    assert_int_equal(xu_paths_add(&ps, v, 1, 1, 2), -EINVAL);
    assert_int_equal(xu_paths_add(&ps, max, 1, 1, 0), -EINVAL);
    assert_int_equal(xu_paths_reserve(&ps, (size_t)XU_PATHS_MAX + 1, 0), -E2BIG);
    assert_int_equal(xu_paths_reserve(&ps, 1, SIZE_MAX / 2), -ENOMEM);
    assert_int_equal(xu_paths_count(&ps), 0);
    /* nothing to sort: no arrays */
    assert_int_equal(xu_paths_sort(&ps, &order, &first), 0);
    assert_null(order);
    assert_null(first);
    /* reserving exactly, then adding within it */
    assert_int_equal(xu_paths_reserve(&ps, 2, 3), 0);
    assert_int_equal(ps.cap_vals, 3);
    add(&ps, v, 2, 1);
    add(&ps, v, 1, 1);
    assert_int_equal(ps.cap_vals, 3);
    free(v);
    xu_paths_dispose(&ps);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values_kept),
        cmocka_unit_test(test_remap),
        cmocka_unit_test(test_order_prefixes),
        cmocka_unit_test(test_order_random),
        cmocka_unit_test(test_order_adversarial),
        cmocka_unit_test(test_longest_paths),
        cmocka_unit_test(test_bounds),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
