/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_top_symcache.c - the live view's cache of resolved addresses: each
 * address resolved once while it stays cached, the bound on its size, a
 * window larger than the bound, and names as every writer gives them.
 *
 * Linked with -Wl,--wrap=xu_symtab_lookup so that resolutions are counted.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "mkelf.h"
#include "top/xu_top.h"

static unsigned int lookup_calls;

const struct xu_symbol *__real_xu_symtab_lookup(const struct xu_symtab *st, uint64_t addr);
const struct xu_symbol *__wrap_xu_symtab_lookup(const struct xu_symtab *st, uint64_t addr);

const struct xu_symbol *__wrap_xu_symtab_lookup(const struct xu_symtab *st, uint64_t addr)
{
    lookup_calls++;
    return __real_xu_symtab_lookup(st, addr);
}

static const struct mkelf_sym syms[] = {
    { "alpha", 0x1000, 0x100, STT_FUNC, STB_GLOBAL, 0 },
    { "beta",  0x1100, 0x100, STT_FUNC, STB_GLOBAL, 0 },
    { "gamma", 0x1200, 0x100, STT_FUNC, STB_GLOBAL, 0 },
};

struct fixture {
    char path[64];
    struct xu_symtab *st;
};

static int setup(void **state)
{
    static struct fixture f;

    memset(&f, 0, sizeof(f));
    strcpy(f.path, "/tmp/xu-top-cache-XXXXXX");
    close(mkstemp(f.path));
    assert_int_equal(mkelf_write(f.path, 0x1000, 0x1000, syms, 3, 0), 0);
    assert_int_equal(xu_symtab_open(f.path, NULL, &f.st), 0);
    lookup_calls = 0;
    *state = &f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;

    xu_symtab_free(f->st);
    unlink(f->path);
    return 0;
}

/* Across windows, an address is resolved only the first time. */
static void test_resolved_once(void **state)
{
    struct fixture *f = *state;
    static const uint64_t w1[] = { 0x1010, 0x1020, 0x1110 };
    static const uint64_t w2[] = { 0x1010, 0x1110, 0x1210, 0x5000 };
    struct xu_top_symcache *c;
    struct xu_top_symcache_stats cs;

    assert_int_equal(xu_top_symcache_new(&c, f->st, 16, 0), 0);
    assert_int_equal(xu_top_symcache_fill(c, w1, 3), 0);
    assert_int_equal(lookup_calls, 3);
    assert_string_equal(xu_top_symcache_name(c, 0x1010), "alpha");
    assert_string_equal(xu_top_symcache_name(c, 0x1020), "alpha");
    assert_string_equal(xu_top_symcache_name(c, 0x1110), "beta");
    assert_null(xu_top_symcache_name(c, 0x1210));
    assert_int_equal(xu_top_symcache_fill(c, w2, 4), 0);
    assert_int_equal(lookup_calls, 5);          /* only 0x1210 and 0x5000 */
    assert_string_equal(xu_top_symcache_name(c, 0x1210), "gamma");
    assert_string_equal(xu_top_symcache_name(c, 0x5000), "0x5000");   /* as writers show it */
    assert_int_equal(xu_top_symcache_fill(c, w2, 4), 0);
    assert_int_equal(lookup_calls, 5);
    xu_top_symcache_get_stats(c, &cs);
    assert_int_equal(cs.entries, 5);
    assert_int_equal(cs.resolved, 5);
    assert_int_equal(cs.evictions, 0);
    assert_int_equal(cs.max_entries, 16);
    xu_top_symcache_free(c);
}

/* The bound: new addresses that do not fit empty the cache first. */
static void test_bounded(void **state)
{
    struct fixture *f = *state;
    uint64_t addrs[64];
    struct xu_top_symcache *c;
    struct xu_top_symcache_stats cs;
    unsigned int round, i;

    assert_int_equal(xu_top_symcache_new(&c, f->st, 8, 0), 0);
    for (round = 0; round < 20; round++) {
        for (i = 0; i < 5; i++)
            addrs[i] = 0x1000 + round * 0x10 + i;
        assert_int_equal(xu_top_symcache_fill(c, addrs, 5), 0);
        xu_top_symcache_get_stats(c, &cs);
        assert_true(cs.entries <= 8);
        for (i = 0; i < 5; i++)
            assert_non_null(xu_top_symcache_name(c, addrs[i]));
    }
    xu_top_symcache_get_stats(c, &cs);
    assert_int_equal(cs.resolved, lookup_calls);
    assert_true(cs.evictions >= 10);
    xu_top_symcache_free(c);
}

/* A window with more distinct addresses than the bound is still named in
 * full; the next fill brings the cache back under its bound. */
static void test_window_larger_than_bound(void **state)
{
    struct fixture *f = *state;
    uint64_t addrs[40], one = 0x1fff;
    struct xu_top_symcache *c;
    struct xu_top_symcache_stats cs;
    unsigned int i;

    for (i = 0; i < 40; i++)
        addrs[i] = 0x1000 + i * 8;
    assert_int_equal(xu_top_symcache_new(&c, f->st, 4, 0), 0);
    assert_int_equal(xu_top_symcache_fill(c, addrs, 40), 0);
    for (i = 0; i < 40; i++)
        assert_non_null(xu_top_symcache_name(c, addrs[i]));
    xu_top_symcache_get_stats(c, &cs);
    assert_int_equal(cs.entries, 40);
    assert_int_equal(xu_top_symcache_fill(c, &one, 1), 0);
    xu_top_symcache_get_stats(c, &cs);
    assert_int_equal(cs.entries, 1);
    assert_string_equal(xu_top_symcache_name(c, 0x1fff), "0x1fff");
    xu_top_symcache_free(c);
}

static void test_no_symtab_and_unsorted(void **state)
{
    static const uint64_t sorted[] = { 0x10, 0x20 }, unsorted[] = { 0x20, 0x10 };
    struct xu_top_symcache *c;

    (void)state;
    assert_int_equal(xu_top_symcache_new(&c, NULL, 0, 0), 0);
    assert_int_equal(xu_top_symcache_fill(c, unsorted, 2), -EINVAL);
    assert_int_equal(xu_top_symcache_fill(c, sorted, 2), 0);
    assert_string_equal(xu_top_symcache_name(c, 0x20), "0x20");
    assert_int_equal(xu_top_symcache_fill(c, NULL, 0), 0);
    xu_top_symcache_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_resolved_once, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bounded, setup, teardown),
        cmocka_unit_test_setup_teardown(test_window_larger_than_bound, setup, teardown),
        cmocka_unit_test(test_no_symtab_and_unsorted),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
