/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_tasks.c - the task table (interning, idle as one, the bound) and
 * the names of the pseudo-frames.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "profile/xu_tasks.h"

static void comm_of(char out[XU_TASK_COMM], const char *s)
{
    memset(out, 0, XU_TASK_COMM);
    memcpy(out, s, strlen(s) < XU_TASK_COMM ? strlen(s) : XU_TASK_COMM);
}

static const char *name_of(const struct xu_tasks *t, uint32_t i)
{
    static char buf[19];

    return xu_pseudo_frame_name(t, xu_pc_task(i), buf, sizeof(buf));
}

static void test_intern(void **state)
{
    struct xu_tasks *t = malloc(sizeof(*t));
    char a[XU_TASK_COMM], b[XU_TASK_COMM];
    uint32_t i, j;

    (void)state;
    assert_non_null(t);
    xu_tasks_init(t);
    comm_of(a, "busy");
    comm_of(b, "dd");
    i = xu_tasks_intern(t, 42, a);
    assert_int_not_equal(i, XU_TASKS_UNKNOWN);
    assert_int_equal(xu_tasks_intern(t, 42, a), i);
    j = xu_tasks_intern(t, 43, b);
    assert_int_not_equal(j, i);
    /* the same pid with a new comm (after exec) is another task */
    assert_int_not_equal(xu_tasks_intern(t, 42, b), i);
    assert_string_equal(name_of(t, i), "[task] busy/42");
    assert_string_equal(name_of(t, j), "[task] dd/43");
    assert_int_equal(xu_tasks_intern(t, -1, a), XU_TASKS_UNKNOWN);
    assert_string_equal(name_of(t, XU_TASKS_UNKNOWN), "[task] unknown");
    /* every CPU's idle task is one */
    comm_of(a, "swapper/0");
    comm_of(b, "swapper/1");
    i = xu_tasks_intern(t, 0, a);
    assert_int_equal(xu_tasks_intern(t, 0, b), i);
    assert_string_equal(name_of(t, i), "[idle]");
    free(t);
}

/* A guest's comm cannot break the folded format: no ';', no white space,
 * nothing unprintable; one with all 16 bytes used is still named. */
static void test_hostile_comm(void **state)
{
    struct xu_tasks *t = malloc(sizeof(*t));
    char c[XU_TASK_COMM];
    uint32_t i;

    (void)state;
    assert_non_null(t);
    xu_tasks_init(t);
    comm_of(c, "a;b c\n\x01\xff");
    i = xu_tasks_intern(t, 7, c);
    assert_string_equal(name_of(t, i), "[task] a_b_c___/7");
    memcpy(c, "0123456789abcdef", XU_TASK_COMM);
    i = xu_tasks_intern(t, 4194304, c);
    assert_string_equal(name_of(t, i), "[task] 0123456789abcdef/4194304");
    comm_of(c, "");
    i = xu_tasks_intern(t, 9, c);
    assert_string_equal(name_of(t, i), "[task] ?/9");
    free(t);
}

/* Past XU_TASKS_MAX distinct tasks, the rest share one entry. */
static void test_bound(void **state)
{
    struct xu_tasks *t = malloc(sizeof(*t));
    char c[XU_TASK_COMM];
    uint32_t i, last = 0;

    (void)state;
    assert_non_null(t);
    xu_tasks_init(t);
    comm_of(c, "w");
    for (i = 1; i < XU_TASKS_MAX; i++)
        last = xu_tasks_intern(t, (int32_t)i, c);
    assert_int_equal(last, XU_TASKS_MAX - 1);
    assert_int_equal(xu_tasks_intern(t, 100000, c), XU_TASKS_MAX);
    assert_int_equal(xu_tasks_intern(t, 100001, c), XU_TASKS_OTHER);
    assert_int_equal(xu_tasks_intern(t, 100002, c), XU_TASKS_OTHER);
    assert_int_equal(t->others, 2);
    assert_int_equal(xu_tasks_intern(t, 5, c), 5);     /* known ones still found */
    assert_string_equal(name_of(t, XU_TASKS_OTHER), "[task] others");
    assert_true(xu_pc_task(XU_TASKS_OTHER) != XU_PC_UPCALL);
    free(t);
}

/* The pseudo-frames are told apart from code, named without a table too,
 * and an ordinary PC gets no pseudo name. */
static void test_pseudo_frames(void **state)
{
    char buf[19];

    (void)state;
    assert_string_equal(xu_pseudo_frame_name(NULL, XU_PC_UPCALL, buf, sizeof(buf)), "[upcall]");
    assert_string_equal(xu_pseudo_frame_name(NULL, XU_PC_USER, buf, sizeof(buf)), "[user]");
    assert_string_equal(xu_pseudo_frame_name(NULL, xu_pc_task(3), buf, sizeof(buf)),
                        "[task] #3");
    assert_string_equal(xu_pseudo_frame_name(NULL, xu_pc_task(XU_TASK_PC_MAX_INDEX), buf,
                                             sizeof(buf)), "[task] #16777215");
    assert_null(xu_pseudo_frame_name(NULL, 0xffffffff81000000ULL, buf, sizeof(buf)));
    assert_null(xu_pseudo_frame_name(NULL, 0x401000, buf, sizeof(buf)));
    assert_true(xu_pc_is_pseudo(xu_pc_task(0)));
    assert_true(xu_pc_is_task(xu_pc_task(XU_TASK_PC_MAX_INDEX)));
    assert_int_equal(xu_pc_task_index(xu_pc_task(1234)), 1234);
    /* not canonical with 4 or 5 levels, not a 4-byte-aligned instruction */
    assert_false(xu_pc_is_task(0xffffffff81000002ULL));
    assert_false(xu_pc_is_task(0x8000000000000000ULL));
    assert_true((xu_pc_task(5) >> 56) == 0x80);
    assert_true((xu_pc_task(5) & 3) != 0);
    assert_true((XU_PC_USER & 3) != 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_intern),
        cmocka_unit_test(test_hostile_comm),
        cmocka_unit_test(test_bound),
        cmocka_unit_test(test_pseudo_frames),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
