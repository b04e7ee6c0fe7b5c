/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_top_all.c - `xen-uniprof top --all` as a library call
 * (xu_top_all_run) over simulated domains: each domain's child process
 * builds its own simulated guest (tests/helpers/top_world.h) and runs the
 * single-domain path; the parent lists the domains of a scripted host
 * (tests/helpers/top_host.h).  Two domains with their own symbols, one destroyed
 * mid-run, one appearing mid-run, and one without an ELF.
 */
#include "config.h"

#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "top/xu_top_all.h"
#include "top_host.h"
#include "top_world.h"

#define MAX_ENDS 8

struct ended {
    uint32_t domid;
    int status;
    bool stopped;
    unsigned long after;        /* snapshots shown before it */
};

struct fixture {
    struct xu_top_all_config cfg;
    struct xu_record_env env;
    struct xu_top_all_view view;
    struct xu_log log;
    FILE *out;
    char *text;
    size_t text_len;
    unsigned long shows;
    long last_start;            /* offset of the last snapshot in text */
    struct ended ended[MAX_ENDS];
    size_t nr_ended;
};

/* ---- the view ---- */

static int show(void *ctx, const struct xu_top_all_snapshot *s)
{
    struct fixture *f = ctx;

    f->last_start = ftell(f->out);
    xu_top_all_print_batch(f->out, s, 0);
    top_host_shown(++f->shows);
    return 0;
}

static void on_ended(void *ctx, uint32_t domid, const char *name, int status, bool stopped)
{
    struct fixture *f = ctx;

    (void)name;
    if (f->nr_ended < MAX_ENDS)
        f->ended[f->nr_ended++] = (struct ended){ domid, status, stopped, f->shows };
}

static void quiet_emit(void *ctx, enum xu_log_level level, const char *msg)
{
    (void)ctx;
    if (getenv("XU_TEST_VERBOSE"))
        fprintf(stderr, "parent log %d: %s\n", (int)level, msg);
}

static int setup(void **state)
{
    static struct fixture f;

    memset(&f, 0, sizeof(f));
    top_host_reset();
    /* xen-uniprof top --all -b -n 4 -d 0.2 -F 100 */
    f.cfg.top.record.frequency = 100;
    f.cfg.top.record.max_depth = 64;
    f.cfg.top.record.unwind = XU_UNWIND_AUTO;
    f.cfg.top.interval_s = 0.2;
    f.cfg.top.iterations = 4;
    f.cfg.child_env = top_host_child_env;
    f.cfg.child_done = top_host_child_done;
    f.log.emit = quiet_emit;
    f.log.min_level = XU_LOG_DEBUG;
    f.env.log = &f.log;
    f.env.domdir_open = top_host_domdir_open;
    f.out = open_memstream(&f.text, &f.text_len);
    assert_non_null(f.out);
    f.view.show = show;
    f.view.ended = on_ended;
    f.view.ctx = &f;
    *state = &f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;

    if (f->out)
        fclose(f->out);
    if (getenv("XU_TEST_VERBOSE"))
        fprintf(stderr, "%s", f->text);
    free(f->text);
    return 0;
}

static const char *last_snapshot(struct fixture *f)
{
    fflush(f->out);
    return f->text + f->last_start;
}

/* Every child let its guest go: stopped with 0, or ended as asked. */
static void assert_children_clean(struct fixture *f)
{
    size_t i;

    for (i = 0; i < f->nr_ended; i++)
        assert_true(f->ended[i].status == 0 || f->ended[i].status == XU_RECORD_DOMAIN_ENDED);
}

static void test_two_domains_own_symbols(void **state)
{
    struct fixture *f = *state;
    const char *t;

    top_host_add(5, "web1", 0);
    top_host_add(6, "web2", TOP_WORLD_OTHER_NAMES);
    assert_int_equal(xu_top_all_run(&f->cfg, &f->env, &f->view), XU_RECORD_OK);
    assert_int_equal(f->shows, 4);
    t = last_snapshot(f);
    assert_non_null(strstr(t, "xen-uniprof top: snapshot 4 at "));
    assert_non_null(strstr(t, "domain 5 (web1): 1 vCPU, rate "));
    assert_non_null(strstr(t, "domain 6 (web2): 1 vCPU, rate "));
    /* each domain's functions by its own ELF, the domain outermost */
    assert_non_null(strstr(t, "  web1:function_3\n"));
    assert_non_null(strstr(t, "  web2:other_3\n"));
    assert_non_null(strstr(t, "  web1\n"));
    assert_non_null(strstr(t, "  web2\n"));
    assert_null(strstr(t, "web1:other_"));
    assert_null(strstr(t, "web2:function_"));
    /* both stopped by the view's end, guests let go */
    assert_int_equal(f->nr_ended, 2);
    assert_true(f->ended[0].stopped && f->ended[1].stopped);
    assert_children_clean(f);
}

static void test_destroyed_domain_leaves(void **state)
{
    struct fixture *f = *state;
    const char *t;

    top_host_add(5, "web1", 0);
    /* destroyed about 0.3 s in */
    top_host_add(6, "web2", TOP_WORLD_OTHER_NAMES)->ends_after = 30;
    f->cfg.top.iterations = 6;
    assert_int_equal(xu_top_all_run(&f->cfg, &f->env, &f->view), XU_RECORD_OK);
    assert_int_equal(f->shows, 6);
    assert_int_equal(f->nr_ended, 2);
    /* web2 ended on its own, before the last snapshots; web1 went on */
    assert_int_equal(f->ended[0].domid, 6);
    assert_int_equal(f->ended[0].status, XU_RECORD_DOMAIN_ENDED);
    assert_false(f->ended[0].stopped);
    assert_true(f->ended[0].after < 6);
    assert_int_equal(f->ended[1].domid, 5);
    assert_true(f->ended[1].stopped);
    t = last_snapshot(f);
    assert_non_null(strstr(t, ", 1 domain, "));
    assert_non_null(strstr(t, "  web1:function_3\n"));
    assert_null(strstr(t, "web2"));
    assert_children_clean(f);
}

static void test_new_domain_picked_up(void **state)
{
    struct fixture *f = *state;
    const char *t;

    top_host_add(5, "web1", 0);
    /* after the second snapshot */
    top_host_add(7, "late", TOP_WORLD_OTHER_NAMES)->appears = 2;
    f->cfg.top.iterations = 6;
    assert_int_equal(xu_top_all_run(&f->cfg, &f->env, &f->view), XU_RECORD_OK);
    /* the first snapshots had web1 alone, the last has both */
    assert_non_null(strstr(f->text, "snapshot 2 at "));
    assert_non_null(strstr(f->text, ", 1 domain, "));
    assert_true(strstr(f->text, ", 1 domain, ") < strstr(f->text, "snapshot 3 at "));
    t = last_snapshot(f);
    assert_non_null(strstr(t, ", 2 domains, "));
    assert_non_null(strstr(t, "  late:other_3\n"));
    assert_non_null(strstr(t, "  web1:function_3\n"));
    assert_int_equal(f->nr_ended, 2);
    assert_children_clean(f);
}

static void test_domain_without_elf_by_address(void **state)
{
    struct fixture *f = *state;
    const char *t;

    top_host_add(5, "web1", 0);
    top_host_add(6, "bare", 0)->no_elf = true;
    assert_int_equal(xu_top_all_run(&f->cfg, &f->env, &f->view), XU_RECORD_OK);
    t = last_snapshot(f);
    /* one line saying why, the rows by address, the other domain named */
    assert_non_null(strstr(t, "domain 6 (bare): no symbols, functions are shown by address: "));
    assert_non_null(strstr(t, "cannot read domain 6's kernel from its memory"));
    assert_non_null(strstr(t, "  bare:0x"));
    assert_non_null(strstr(t, "  web1:function_3\n"));
    assert_null(strstr(t, "domain 5 (web1): no symbols"));
    assert_children_clean(f);
}

static void test_stop_flag_stops_every_child(void **state)
{
    struct fixture *f = *state;
    volatile sig_atomic_t stop = SIGTERM;

    top_host_add(5, "web1", 0);
    top_host_add(6, "web2", 0);
    f->env.stop = &stop;
    f->cfg.top.iterations = 0;
    assert_int_equal(xu_top_all_run(&f->cfg, &f->env, &f->view), XU_RECORD_OK);
    assert_int_equal(f->nr_ended, 2);
    assert_true(f->ended[0].stopped && f->ended[1].stopped);
    assert_children_clean(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_two_domains_own_symbols, setup, teardown),
        cmocka_unit_test_setup_teardown(test_destroyed_domain_leaves, setup, teardown),
        cmocka_unit_test_setup_teardown(test_new_domain_picked_up, setup, teardown),
        cmocka_unit_test_setup_teardown(test_domain_without_elf_by_address, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stop_flag_stops_every_child, setup, teardown),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
