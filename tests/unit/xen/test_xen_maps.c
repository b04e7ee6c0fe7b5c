/* SPDX-License-Identifier: GPL-2.0-only */
/* test_xen_maps.c - the set of frames a Xen backend still has mapped. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "xen/maps.h"

#define N 300   /* several growth steps */

static char frames[N];
static int unmapped[N];

static void count_unmap(void *ctx, const void *addr)
{
    assert_ptr_equal(ctx, frames);
    unmapped[(const char *)addr - frames]++;
}

static void test_release_unmaps_exactly_the_rest(void **state)
{
    struct xu_xen_maps m = { 0 };
    int i;

    memset(unmapped, 0, sizeof(unmapped));
    for (i = 0; i < N; i++)
        assert_int_equal(xu_xen_maps_add(&m, &frames[i]), 0);
    assert_int_equal(m.len, N);
    for (i = 0; i < N; i += 3)
        assert_int_equal(xu_xen_maps_remove(&m, &frames[i]), 0);
    xu_xen_maps_release(&m, count_unmap, frames);
    for (i = 0; i < N; i++)
        assert_int_equal(unmapped[i], i % 3 ? 1 : 0);
    assert_null(m.addr);
    assert_int_equal(m.len, 0);
}

static void test_remove_unknown_is_refused(void **state)
{
    struct xu_xen_maps m = { 0 };

    assert_int_equal(xu_xen_maps_remove(&m, &frames[0]), -ENOENT);
    assert_int_equal(xu_xen_maps_add(&m, &frames[1]), 0);
    assert_int_equal(xu_xen_maps_remove(&m, &frames[0]), -ENOENT);
    assert_int_equal(xu_xen_maps_remove(&m, &frames[1]), 0);
    /* twice is once too many: the caller must not unmap it again */
    assert_int_equal(xu_xen_maps_remove(&m, &frames[1]), -ENOENT);
    memset(unmapped, 0, sizeof(unmapped));
    xu_xen_maps_release(&m, count_unmap, frames);
    assert_int_equal(unmapped[0] + unmapped[1], 0);
}

static void test_same_address_twice(void **state)
{
    struct xu_xen_maps m = { 0 };

    /* the kernel may hand out an address again after an unmap; each map
     * is tracked on its own */
    assert_int_equal(xu_xen_maps_add(&m, &frames[5]), 0);
    assert_int_equal(xu_xen_maps_add(&m, &frames[5]), 0);
    assert_int_equal(xu_xen_maps_remove(&m, &frames[5]), 0);
    memset(unmapped, 0, sizeof(unmapped));
    xu_xen_maps_release(&m, count_unmap, frames);
    assert_int_equal(unmapped[5], 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_release_unmaps_exactly_the_rest),
        cmocka_unit_test(test_remove_unknown_is_refused),
        cmocka_unit_test(test_same_address_twice),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
