/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_top_window.c - a window's samples as functions: self and total
 * counts (recursion counted once), the two orders, the upcall marker, one
 * function's callers and callees, and a table rebuilt for the next window.
 */
#include "config.h"

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
#include "profile/xu_tasks.h"
#include "top/xu_top.h"

#define T 0x1000

static const struct mkelf_sym syms[] = {
    { "_start",       T + 0x000, 0,    STT_NOTYPE, STB_GLOBAL, 0 },
    { "start_kernel", T + 0x100, 0x80, STT_FUNC,   STB_GLOBAL, 0 },
    { "main_loop",    T + 0x200, 0x80, STT_FUNC,   STB_GLOBAL, 0 },
    { "function_1",   T + 0x300, 0x40, STT_FUNC,   STB_GLOBAL, 0 },
    { "function_2",   T + 0x400, 0x40, STT_FUNC,   STB_GLOBAL, 0 },
    { "function_3",   T + 0x500, 0x40, STT_FUNC,   STB_GLOBAL, 0 },
};

static const uint64_t in_f1[] = { T + 0x310, T + 0x220, T + 0x130, T + 0x010 };
static const uint64_t in_f2[] = { T + 0x410, T + 0x228, T + 0x130, T + 0x010 };
static const uint64_t in_f3[] = { T + 0x510, T + 0x280, T + 0x130, T + 0x010 };
/* function_2 calling itself twice, from main_loop */
static const uint64_t recursive[] = { T + 0x410, T + 0x420, T + 0x420, T + 0x228, T + 0x130,
                                      T + 0x010 };
/* main_loop interrupted by an event upcall whose handler is in function_1 */
static const uint64_t upcall[] = { T + 0x310, XU_PC_UPCALL, T + 0x210, T + 0x130, T + 0x010 };

struct fixture {
    char path[64];
    struct xu_symtab *st;
    struct xu_top_symcache *cache;
    struct xu_profile *p;
    struct xu_top_table t;
};

static int setup(void **state)
{
    static struct fixture f;

    memset(&f, 0, sizeof(f));
    strcpy(f.path, "/tmp/xu-top-window-XXXXXX");
    close(mkstemp(f.path));
    assert_int_equal(mkelf_write(f.path, T, 0x1000, syms, 6, 0), 0);
    assert_int_equal(xu_symtab_open(f.path, NULL, &f.st), 0);
    assert_int_equal(xu_top_symcache_new(&f.cache, f.st, 0, 0), 0);
    f.p = xu_profile_new(0);
    assert_non_null(f.p);
    *state = &f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;

    xu_top_table_dispose(&f->t);
    xu_profile_free(f->p);
    xu_top_symcache_free(f->cache);
    xu_symtab_free(f->st);
    unlink(f->path);
    return 0;
}

static void add(struct fixture *f, uint32_t vcpu, const uint64_t *pcs, uint32_t depth,
                uint64_t count)
{
    assert_int_equal(xu_profile_add(f->p, vcpu, pcs, depth, XU_WALK_COMPLETE, count), 0);
}

/* Names for the profile's addresses, then the table. */
static void build(struct fixture *f)
{
    uint64_t *addrs = NULL;
    long n = xu_profile_unique_addrs(f->p, &addrs);

    assert_true(n >= 0);
    assert_int_equal(xu_top_symcache_fill(f->cache, addrs, (size_t)n), 0);
    free(addrs);
    assert_int_equal(xu_top_table_build(&f->t, f->p, f->cache), 0);
}

static void assert_row(const struct xu_top_table *t, size_t i, const char *name, uint64_t self,
                       uint64_t total)
{
    assert_true(i < t->n);
    assert_string_equal(t->rows[i].name, name);
    assert_int_equal(t->rows[i].self, self);
    assert_int_equal(t->rows[i].total, total);
}

/* The ratio guest: 1:3:6 under main_loop, on two vCPUs. */
static void test_self_and_total(void **state)
{
    struct fixture *f = *state;

    add(f, 0, in_f1, 4, 1);
    add(f, 0, in_f2, 4, 2);
    add(f, 1, in_f2, 4, 1);     /* another vCPU: another stack, same functions */
    add(f, 0, in_f3, 4, 6);
    build(f);
    assert_int_equal(f->t.samples, 10);
    assert_int_equal(f->t.n, 6);
    xu_top_table_sort(&f->t, XU_TOP_SORT_SELF);
    assert_row(&f->t, 0, "function_3", 6, 6);
    assert_row(&f->t, 1, "function_2", 3, 3);
    assert_row(&f->t, 2, "function_1", 1, 1);
    /* ties on self and total: by name */
    assert_row(&f->t, 3, "_start", 0, 10);
    assert_row(&f->t, 4, "main_loop", 0, 10);
    assert_row(&f->t, 5, "start_kernel", 0, 10);
    xu_top_table_sort(&f->t, XU_TOP_SORT_TOTAL);
    assert_row(&f->t, 0, "_start", 0, 10);
    assert_row(&f->t, 2, "start_kernel", 0, 10);
    assert_row(&f->t, 3, "function_3", 6, 6);
    assert_row(&f->t, 5, "function_1", 1, 1);
}

/* A function that recurses counts once per sample in its total. */
static void test_recursion_counts_once(void **state)
{
    struct fixture *f = *state;

    add(f, 0, recursive, 6, 4);
    add(f, 0, in_f3, 4, 4);
    build(f);
    xu_top_table_sort(&f->t, XU_TOP_SORT_SELF);
    assert_int_equal(f->t.samples, 8);
    assert_row(&f->t, 0, "function_2", 4, 4);
    assert_row(&f->t, 1, "function_3", 4, 4);
    assert_row(&f->t, 3, "main_loop", 0, 8);
}

/* The upcall marker is a frame of its own, "[upcall]", as in every writer;
 * the interrupted PC after it is exact (not a return address). */
static void test_upcall_marker(void **state)
{
    struct fixture *f = *state;

    add(f, 0, upcall, 5, 2);
    build(f);
    xu_top_table_sort(&f->t, XU_TOP_SORT_SELF);
    assert_row(&f->t, 0, "function_1", 2, 2);
    assert_row(&f->t, 1, "[upcall]", 0, 2);
    assert_row(&f->t, 3, "main_loop", 0, 2);
}

/* A Linux guest's tasks are rows of their own, whose total is the task's
 * share; [user] is a row; without the recording's table a task is one
 * "[task]" row. */
static void test_task_rows(void **state)
{
    struct fixture *f = *state;
    struct xu_tasks *tasks = malloc(sizeof(*tasks));
    char busy[XU_TASK_COMM] = "busy", dd[XU_TASK_COMM] = "dd";
    uint64_t a[5], b[2], c[2];

    assert_non_null(tasks);
    xu_tasks_init(tasks);
    memcpy(a, in_f1, sizeof(in_f1));
    a[4] = xu_pc_task(xu_tasks_intern(tasks, 86, busy));
    b[0] = XU_PC_USER;
    b[1] = a[4];
    c[0] = T + 0x510;
    c[1] = xu_pc_task(xu_tasks_intern(tasks, 87, dd));
    add(f, 0, a, 5, 1);
    add(f, 0, b, 2, 3);
    add(f, 0, c, 2, 6);
    xu_top_symcache_set_tasks(f->cache, tasks);
    build(f);
    xu_top_table_sort(&f->t, XU_TOP_SORT_TOTAL);
    assert_row(&f->t, 0, "function_3", 6, 6);  /* ties on total: by self */
    assert_row(&f->t, 1, "[task] dd/87", 0, 6);
    assert_row(&f->t, 2, "[task] busy/86", 0, 4);
    assert_row(&f->t, 3, "[user]", 3, 3);
    xu_top_symcache_set_tasks(f->cache, NULL);
    build(f);
    xu_top_table_sort(&f->t, XU_TOP_SORT_TOTAL);
    assert_row(&f->t, 0, "[task]", 0, 10);
    free(tasks);
}

static void test_callers_and_callees(void **state)
{
    struct fixture *f = *state;
    struct xu_top_table callers = { 0 }, callees = { 0 };

    add(f, 0, in_f1, 4, 1);
    add(f, 0, in_f2, 4, 3);
    add(f, 0, in_f3, 4, 6);
    add(f, 0, recursive, 6, 2);
    build(f);
    assert_int_equal(xu_top_relatives(f->p, f->cache, "main_loop", &callers, &callees), 0);
    assert_int_equal(callers.samples, 12);
    xu_top_table_sort(&callers, XU_TOP_SORT_TOTAL);
    assert_int_equal(callers.n, 1);
    assert_row(&callers, 0, "start_kernel", 0, 12);
    xu_top_table_sort(&callees, XU_TOP_SORT_TOTAL);
    assert_int_equal(callees.n, 3);
    assert_row(&callees, 0, "function_3", 0, 6);
    assert_row(&callees, 1, "function_2", 0, 5);
    assert_row(&callees, 2, "function_1", 0, 1);
    /* function_2 calls itself: its own caller and callee, once a sample */
    assert_int_equal(xu_top_relatives(f->p, f->cache, "function_2", &callers, &callees), 0);
    assert_int_equal(callers.samples, 5);
    xu_top_table_sort(&callers, XU_TOP_SORT_TOTAL);
    assert_row(&callers, 0, "main_loop", 0, 5);
    assert_row(&callers, 1, "function_2", 0, 2);
    xu_top_table_sort(&callees, XU_TOP_SORT_TOTAL);
    assert_int_equal(callees.n, 1);
    assert_row(&callees, 0, "function_2", 0, 2);
    /* a function not in the window */
    assert_int_equal(xu_top_relatives(f->p, f->cache, "nowhere", &callers, &callees), 0);
    assert_int_equal(callers.n + callees.n + callers.samples, 0);
    xu_top_table_dispose(&callers);
    xu_top_table_dispose(&callees);
}

/* A fixed window: the profile emptied, the table rebuilt shows only the
 * next window's samples. */
static void test_next_window(void **state)
{
    struct fixture *f = *state;

    add(f, 0, in_f3, 4, 9);
    build(f);
    assert_int_equal(f->t.samples, 9);
    xu_profile_clear(f->p);
    add(f, 0, in_f1, 4, 1);
    build(f);
    xu_top_table_sort(&f->t, XU_TOP_SORT_SELF);
    assert_int_equal(f->t.samples, 1);
    assert_int_equal(f->t.n, 4);
    assert_row(&f->t, 0, "function_1", 1, 1);
    xu_profile_clear(f->p);
    build(f);
    assert_int_equal(f->t.samples, 0);
    assert_int_equal(f->t.n, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_self_and_total, setup, teardown),
        cmocka_unit_test_setup_teardown(test_recursion_counts_once, setup, teardown),
        cmocka_unit_test_setup_teardown(test_upcall_marker, setup, teardown),
        cmocka_unit_test_setup_teardown(test_task_rows, setup, teardown),
        cmocka_unit_test_setup_teardown(test_callers_and_callees, setup, teardown),
        cmocka_unit_test_setup_teardown(test_next_window, setup, teardown),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
