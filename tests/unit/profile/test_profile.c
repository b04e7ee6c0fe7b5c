/* SPDX-License-Identifier: GPL-2.0-only */
/* test_profile.c - interning stacks: counts, keys, the cap, unique addresses. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <malloc.h>
#include <cmocka.h>

#include "profile/xu_profile.h"
#include "util/xu_big.h"

static const uint64_t a[] = { 0x1010, 0x2020, 0x3030 };
static const uint64_t b[] = { 0x1010, 0x2020, 0x4040 };

static void test_same_stack_counted_once(void **state)
{
    struct xu_profile *p = xu_profile_new(0);
    struct xu_profile_totals t;
    const struct xu_stack *s;

    assert_non_null(p);
    assert_int_equal(xu_profile_add(p, 0, a, 3, XU_WALK_COMPLETE, 1), 0);
    assert_int_equal(xu_profile_add(p, 0, a, 3, XU_WALK_COMPLETE, 2), 0);
    assert_int_equal(xu_profile_add(p, 0, b, 3, XU_WALK_COMPLETE, 1), 0);
    assert_int_equal(xu_profile_nr_stacks(p), 2);
    s = xu_profile_stack(p, 0);
    assert_int_equal(s->count, 3);
    assert_int_equal(s->depth, 3);
    assert_memory_equal(s->pcs, a, sizeof(a));
    assert_null(xu_profile_stack(p, 2));
    xu_profile_get_totals(p, &t);
    assert_int_equal(t.samples, 4);
    assert_int_equal(t.stacks, 2);
    assert_int_equal(t.by_end[XU_WALK_COMPLETE], 4);
    xu_profile_free(p);
}

static void test_key_includes_vcpu_end_and_depth(void **state)
{
    struct xu_profile *p = xu_profile_new(0);
    struct xu_profile_totals t;

    assert_int_equal(xu_profile_add(p, 0, a, 3, XU_WALK_COMPLETE, 1), 0);
    assert_int_equal(xu_profile_add(p, 1, a, 3, XU_WALK_COMPLETE, 1), 0);
    assert_int_equal(xu_profile_add(p, 0, a, 3, XU_WALK_DEPTH, 1), 0);
    assert_int_equal(xu_profile_add(p, 0, a, 2, XU_WALK_COMPLETE, 1), 0);
    assert_int_equal(xu_profile_nr_stacks(p), 4);
    xu_profile_get_totals(p, &t);
    assert_int_equal(t.max_vcpu, 1);
    assert_int_equal(t.by_end[XU_WALK_DEPTH], 1);
    xu_profile_free(p);
}

static void test_cap_counts_dropped(void **state)
{
    struct xu_profile *p = xu_profile_new(2);
    struct xu_profile_totals t;
    uint64_t pc;

    for (pc = 1; pc <= 10; pc++)
        assert_int_equal(xu_profile_add(p, 0, &pc, 1, XU_WALK_COMPLETE, 1), 0);
    /* known stacks still count when full */
    pc = 1;
    assert_int_equal(xu_profile_add(p, 0, &pc, 1, XU_WALK_COMPLETE, 5), 0);
    xu_profile_get_totals(p, &t);
    assert_int_equal(xu_profile_nr_stacks(p), 2);
    assert_int_equal(t.samples, 15);
    assert_int_equal(t.dropped, 8);
    assert_int_equal(xu_profile_stack(p, 0)->count, 6);
    xu_profile_free(p);
}

/* max_stacks: the default keeps a tag of each stack's hash in its slot;
 * from 2^24 - 1 on the index takes the whole slot and there is none. */
static void many_stacks_all_findable(size_t max_stacks)
{
    struct xu_profile *p = xu_profile_new(max_stacks);
    uint64_t pcs[4], i;

    for (i = 0; i < 100000; i++) {
        pcs[0] = i;
        pcs[1] = i * 31;
        pcs[2] = 7;
        pcs[3] = i ^ 0x5555;
        assert_int_equal(xu_profile_add(p, (uint32_t)(i % 3), pcs, 4, XU_WALK_COMPLETE, 1), 0);
    }
    for (i = 0; i < 100000; i++) {
        pcs[0] = i;
        pcs[1] = i * 31;
        pcs[2] = 7;
        pcs[3] = i ^ 0x5555;
        assert_int_equal(xu_profile_add(p, (uint32_t)(i % 3), pcs, 4, XU_WALK_COMPLETE, 1), 0);
    }
    assert_int_equal(xu_profile_nr_stacks(p), 100000);
    for (i = 0; i < 100000; i += 997)
        assert_int_equal(xu_profile_stack(p, i)->count, 2);
    /* early stacks' PCs survived all the growth */
    assert_int_equal(xu_profile_stack(p, 0)->pcs[3], 0x5555);
    xu_profile_free(p);
}

static void test_many_stacks_all_findable(void **state)
{
    (void)state;
    many_stacks_all_findable(0);
    many_stacks_all_findable((1u << 24) - 2);  /* the largest with a tag */
    many_stacks_all_findable((1u << 24) - 1);  /* without */
}

static void test_unique_addrs_adjusts_return_addresses(void **state)
{
    struct xu_profile *p = xu_profile_new(0);
    uint64_t *addrs;
    long n;

    assert_int_equal(xu_profile_add(p, 0, a, 3, XU_WALK_COMPLETE, 1), 0);
    assert_int_equal(xu_profile_add(p, 0, b, 3, XU_WALK_COMPLETE, 1), 0);
    n = xu_profile_unique_addrs(p, &addrs);
    /* 0x1010 as an IP; 0x201f, 0x302f, 0x403f as return addresses - 1 */
    assert_int_equal(n, 4);
    assert_int_equal(addrs[0], 0x1010);
    assert_int_equal(addrs[1], 0x201f);
    assert_int_equal(addrs[2], 0x302f);
    assert_int_equal(addrs[3], 0x403f);
    free(addrs);
    xu_profile_free(p);
}

/* The set behind unique_addrs: 0 (its free-slot mark) and the largest
 * address are addresses like any other, duplicates count once, and the
 * set grows well past its first size. */
static void test_unique_addrs_every_value(void **state)
{
    struct xu_profile *p = xu_profile_new(0);
    uint64_t pcs[4], *addrs;
    size_t i;
    long n;

    (void)state;
    assert_non_null(p);
    pcs[0] = 0;                 /* exact: looked up as 0 */
    pcs[1] = 1;                 /* a return address: looked up at 0 too */
    pcs[2] = 0;                 /* a return address: looked up at UINT64_MAX */
    assert_int_equal(xu_profile_add(p, 0, pcs, 3, XU_WALK_COMPLETE, 1), 0);
    for (i = 0; i < 5000; i++) {
        pcs[0] = 0x1000 + 16 * (i % 2500);     /* every address twice */
        pcs[1] = 0xffffffff80000001ULL + i;
        assert_int_equal(xu_profile_add(p, (uint32_t)i, pcs, 2, XU_WALK_COMPLETE, 1), 0);
    }
    n = xu_profile_unique_addrs(p, &addrs);
    assert_int_equal(n, 1 + 2500 + 5000 + 1);
    assert_int_equal(addrs[0], 0);
    for (i = 0; i < 2500; i++)
        assert_int_equal(addrs[1 + i], 0x1000 + 16 * i);
    for (i = 0; i < 5000; i++)
        assert_true(addrs[2501 + i] == 0xffffffff80000000ULL + i);
    assert_true(addrs[7501] == UINT64_MAX);
    free(addrs);
    xu_profile_free(p);
}

static void test_rejects_bad_input(void **state)
{
    struct xu_profile *p = xu_profile_new(0);

    assert_int_equal(xu_profile_add(p, 0, a, 0, XU_WALK_COMPLETE, 1), -EINVAL);
    assert_int_equal(xu_profile_add(p, 0, a, XU_MAX_DEPTH_LIMIT + 1, XU_WALK_COMPLETE, 1), -EINVAL);
    assert_int_equal(xu_profile_add(p, 0, a, 3, XU_WALK__COUNT, 1), -EINVAL);
    assert_int_equal(xu_profile_nr_stacks(p), 0);
    xu_profile_free(p);
}

/* The total is bounded: a count that would pass it is refused, uncounted. */
static void test_total_bounded(void **state)
{
    struct xu_profile *p = xu_profile_new(0);
    struct xu_profile_totals t;
    static const uint64_t pcs[] = { 0x10, 0x20 };

    (void)state;
    assert_non_null(p);
    assert_int_equal(xu_profile_add(p, 0, pcs, 2, XU_WALK_COMPLETE, XU_PROFILE_MAX_SAMPLES - 1), 0);
    assert_int_equal(xu_profile_add(p, 0, pcs, 1, XU_WALK_COMPLETE, 2), -EOVERFLOW);
    assert_int_equal(xu_profile_add(p, 0, pcs, 1, XU_WALK_COMPLETE, UINT64_MAX), -EOVERFLOW);
    assert_int_equal(xu_profile_add(p, 0, pcs, 1, XU_WALK_COMPLETE, 1), 0);
    xu_profile_get_totals(p, &t);
    assert_int_equal(t.samples, XU_PROFILE_MAX_SAMPLES);
    assert_int_equal(t.stacks, 2);
    xu_profile_free(p);
}

/* Sealed once read whole: its stacks, counts and addresses stay, adds
 * are refused (also after a clear) rather than stored unfound. */
static void test_seal(void **state)
{
    struct xu_profile *p = xu_profile_new(0);
    const struct xu_stack *s;
    uint64_t *addrs = NULL;

    (void)state;
    assert_non_null(p);
    assert_int_equal(xu_profile_add(p, 0, a, 3, XU_WALK_COMPLETE, 5), 0);
    assert_int_equal(xu_profile_add(p, 1, b, 3, XU_WALK_COMPLETE, 1), 0);
    assert_int_equal(xu_profile_add(p, 0, a, 3, XU_WALK_COMPLETE, 2), 0);
    xu_profile_seal(p);
    assert_int_equal(xu_profile_add(p, 0, a, 3, XU_WALK_COMPLETE, 1), -EPERM);
    assert_int_equal(xu_profile_nr_stacks(p), 2);
    s = xu_profile_stack(p, 0);
    assert_int_equal(s->count, 7);
    assert_memory_equal(s->pcs, a, sizeof(a));
    assert_int_equal(xu_profile_stack(p, 1)->vcpu, 1);
    assert_true(xu_profile_unique_addrs(p, &addrs) > 0);
    free(addrs);
    xu_profile_clear(p);
    assert_int_equal(xu_profile_add(p, 0, a, 3, XU_WALK_COMPLETE, 1), -EPERM);
    xu_profile_free(p);
}

/* Emptied between the windows of a live view: nothing left, adds allowed
 * again (also after set_end), the same stack found again once re-added. */
static void test_clear(void **state)
{
    struct xu_profile *p = xu_profile_new(2);
    struct xu_profile_totals t;
    uint64_t *addrs = NULL;

    (void)state;
    assert_non_null(p);
    assert_int_equal(xu_profile_add(p, 0, a, 3, XU_WALK_COMPLETE, 5), 0);
    assert_int_equal(xu_profile_add(p, 1, b, 3, XU_WALK_COMPLETE, 1), 0);
    assert_int_equal(xu_profile_add(p, 1, a, 3, XU_WALK_COMPLETE, 1), 0);  /* full: dropped */
    xu_profile_set_end(p, 0, XU_WALK_NOT_ROOT);
    assert_int_equal(xu_profile_add(p, 0, a, 3, XU_WALK_COMPLETE, 1), -EPERM);
    xu_profile_clear(p);
    xu_profile_get_totals(p, &t);
    assert_int_equal(xu_profile_nr_stacks(p), 0);
    assert_int_equal(t.samples, 0);
    assert_int_equal(t.dropped, 0);
    assert_int_equal(t.by_end[XU_WALK_NOT_ROOT], 0);
    assert_int_equal(xu_profile_unique_addrs(p, &addrs), 0);
    free(addrs);
    assert_int_equal(xu_profile_add(p, 1, b, 3, XU_WALK_COMPLETE, 2), 0);
    assert_int_equal(xu_profile_add(p, 1, b, 3, XU_WALK_COMPLETE, 1), 0);
    assert_int_equal(xu_profile_add(p, 0, a, 3, XU_WALK_COMPLETE, 1), 0);
    assert_int_equal(xu_profile_nr_stacks(p), 2);
    assert_int_equal(xu_profile_stack(p, 0)->count, 3);
    assert_memory_equal(xu_profile_stack(p, 0)->pcs, b, sizeof(b));
    xu_profile_get_totals(p, &t);
    assert_int_equal(t.samples, 4);
    assert_int_equal(t.dropped, 0);
    xu_profile_free(p);
}

/*
 * Memory per distinct stack, for the offline path and the live one alike
 * (both hold their stacks in this store).  A distinct stack of depth d
 * costs, by construction (profile.c):
 *   8 d   its PCs in the arena (blocks of at most 2 MiB: under one block
 *         of slack in all),
 *   80    its record (40 bytes) in an array that doubles: at most twice
 *         that allocated,
 *   16    its hash slot (4 bytes) in a table kept between 1/4 and 1/2
 *         full: at most 4 slots a stack,
 * so at most 8 d + 96 bytes, 256 for d = 20, plus a constant.  A store
 * that kept strings, a node per prefix or anything per sample would pass
 * it with a prefix-free profile, which is what is added here: 100,000
 * stacks of 20 frames drawn independently.  Allocated bytes are glibc's
 * count (mallinfo2) and the arena's own mappings (xu_big_mapped); under AddressSanitizer, whose allocator glibc does
 * not see, there is nothing to measure and the test says so.
 */
#define MEM_STACKS 100000u
#define MEM_DEPTH 20u
#define MEM_BOUND_PER_STACK (8u * MEM_DEPTH + 96u)
#define MEM_CONSTANT (1u << 20)

#if defined(__SANITIZE_ADDRESS__)
#define MEM_NOT_MEASURED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MEM_NOT_MEASURED 1
#endif
#endif

static size_t allocated(void)
{
#ifdef HAVE_MALLINFO2
    struct mallinfo2 mi = mallinfo2();

    /* the arena's blocks mapped on their own, which glibc does not see */
    return mi.uordblks + mi.hblkhd + xu_big_mapped();
#else
    return 0;
#endif
}

static void test_memory_per_distinct_stack(void **state)
{
    uint64_t rng = 0x9e3779b97f4a7c15ULL, pcs[MEM_DEPTH];
    struct xu_profile *p;
    size_t before, used;
    unsigned int s, k;

    (void)state;
#if defined(MEM_NOT_MEASURED) || !defined(HAVE_MALLINFO2)
    skip();
#endif
    before = allocated();
    p = xu_profile_new(0);
    assert_non_null(p);
    for (s = 0; s < MEM_STACKS; s++) {
        for (k = 0; k < MEM_DEPTH; k++) {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            pcs[k] = 0xffffffff80000000ULL + (rng & 0xffffff);
        }
        assert_int_equal(xu_profile_add(p, 0, pcs, MEM_DEPTH, XU_WALK_COMPLETE, 1), 0);
    }
    assert_int_equal(xu_profile_nr_stacks(p), MEM_STACKS);
    used = allocated() - before;
    print_message("%zu bytes for %u distinct stacks of %u frames: %.1f a stack (bound %u)\n",
                  used, MEM_STACKS, MEM_DEPTH, (double)used / MEM_STACKS,
                  MEM_BOUND_PER_STACK);
    assert_true(used <= (size_t)MEM_STACKS * MEM_BOUND_PER_STACK + MEM_CONSTANT);
    xu_profile_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_stack_counted_once),
        cmocka_unit_test(test_key_includes_vcpu_end_and_depth),
        cmocka_unit_test(test_cap_counts_dropped),
        cmocka_unit_test(test_many_stacks_all_findable),
        cmocka_unit_test(test_unique_addrs_adjusts_return_addresses),
        cmocka_unit_test(test_unique_addrs_every_value),
        cmocka_unit_test(test_rejects_bad_input),
        cmocka_unit_test(test_total_bounded),
        cmocka_unit_test(test_clear),
        cmocka_unit_test(test_memory_per_distinct_stack),
        cmocka_unit_test(test_seal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
