/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_top_run.c - `xen-uniprof top` as a library call (xu_top_run) against
 * the simulated guest (tests/helpers/top_world.h): the batch mode's
 * exact text, the fixed window, the guest never left paused however the
 * run ends (its snapshots' count, a signal, the domain's end), and a guest
 * without symbols.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "record/xu_record.h"
#include "target/xu_pause.h"
#include "top/xu_top.h"
#include "top_world.h"

struct fixture {
    struct top_world w;
    struct xu_top_config top;
    struct xu_top_view view;
    FILE *out;
    char *text;
    size_t text_len;
    unsigned int shows;
    volatile sig_atomic_t stop;
    unsigned int stop_after;        /* shows before the "signal" arrives; 0: never */
};

/* The batch view, into memory; stands in for a signal after stop_after. */
static int show_batch(void *ctx, const struct xu_top_snapshot *s)
{
    struct fixture *f = ctx;

    xu_top_print_batch(f->out, s, 0);
    if (++f->shows == f->stop_after)
        f->stop = SIGINT;
    return 0;
}

static int setup_flags(void **state, unsigned int flags)
{
    static struct fixture f;

    memset(&f, 0, sizeof(f));
    assert_int_equal(top_world_init(&f.w, TOP_WORLD_FAKE_CLOCK | flags), 0);
    /* xen-uniprof top -b -n 3 -F 100 web1 */
    f.top.record.domain = "web1";
    f.top.record.frequency = 100;
    f.top.record.max_depth = 64;
    f.top.record.unwind = XU_UNWIND_AUTO;
    f.top.interval_s = 1.0;
    f.top.iterations = 3;
    f.out = open_memstream(&f.text, &f.text_len);
    assert_non_null(f.out);
    f.view.show = show_batch;
    f.view.ctx = &f;
    *state = &f;
    return 0;
}

static int setup(void **state)
{
    return setup_flags(state, 0);
}

static int setup_runnable(void **state)
{
    return setup_flags(state, TOP_WORLD_RUNNABLE);
}

/* Whatever happened, the guest runs, nothing is mapped, the guardian
 * stopped with the word RUNNING. */
static int teardown(void **state)
{
    struct fixture *f = *state;
    char why[256] = "";
    int rc = top_world_fini(&f->w, why, sizeof(why));

    fclose(f->out);
    free(f->text);
    if (rc < 0)
        fail_msg("%s", why);
    return 0;
}

/* ---- the tests ---- */

#define TABLE \
    "  SELF%  TOTAL%  FUNCTION\n" \
    "   60.0    60.0  function_3\n" \
    "   30.0    30.0  function_2\n" \
    "   10.0    10.0  function_1\n" \
    "    0.0   100.0  _start\n" \
    "    0.0   100.0  main_loop\n" \
    "    0.0   100.0  start_kernel\n"

/*
 * The batch mode's text, exactly (the man page's TOP section): the first
 * window holds the tick at 0 and the 100 of (0, 1 s], the next ones 100
 * ticks each, so from the second on the shares are exactly the guest's
 * 1:3:6.  The simulated clock never moves while the guest is paused.
 */
static void test_batch_text(void **state)
{
    struct fixture *f = *state;
    static const char expected[] =
        "xen-uniprof top: snapshot 1 at 1.00 s, domain 5 (web1), 1 vCPU\n"
        "rate 100.0/s (100 Hz asked), 0 missed, paused median 0.0 us, 101 samples, 100.0% complete\n"
        "\n"
        "  SELF%  TOTAL%  FUNCTION\n"
        "   59.4    59.4  function_3\n"
        "   30.7    30.7  function_2\n"
        "    9.9     9.9  function_1\n"
        "    0.0   100.0  _start\n"
        "    0.0   100.0  main_loop\n"
        "    0.0   100.0  start_kernel\n"
        "\n"
        "xen-uniprof top: snapshot 2 at 2.00 s, domain 5 (web1), 1 vCPU\n"
        "rate 100.0/s (100 Hz asked), 0 missed, paused median 0.0 us, 100 samples, 100.0% complete\n"
        "\n" TABLE "\n"
        "xen-uniprof top: snapshot 3 at 3.00 s, domain 5 (web1), 1 vCPU\n"
        "rate 100.0/s (100 Hz asked), 0 missed, paused median 0.0 us, 100 samples, 100.0% complete\n"
        "\n" TABLE "\n";

    assert_int_equal(xu_top_run(&f->top, &f->w.env, &f->view), XU_RECORD_OK);
    fflush(f->out);
    assert_string_equal(f->text, expected);
    assert_int_equal(f->shows, 3);
    /* sampling ended at the third window: 301 ticks paused once each,
     * and the ELF check once */
    assert_int_equal(top_world_pauses(&f->w), 302);
}

/* Rows past max_rows are counted, not shown; half-second windows. */
static void test_rows_and_interval(void **state)
{
    struct fixture *f = *state;
    const char *last;

    f->top.interval_s = 0.5;
    f->top.iterations = 2;
    f->view.show = show_batch;
    assert_int_equal(xu_top_run(&f->top, &f->w.env, &f->view), XU_RECORD_OK);
    fflush(f->out);
    last = strstr(f->text, "snapshot 2 at 1.00 s");
    assert_non_null(last);
    assert_non_null(strstr(last, "50 samples"));
    assert_non_null(strstr(last, "   60.0    60.0  function_3\n"));
    fclose(f->out);
    free(f->text);
    f->out = open_memstream(&f->text, &f->text_len);
    {
        struct xu_top_snapshot s = { .index = 1, .domid = 5, .label = "web1", .vcpus = 2,
                                     .frequency = 99, .elapsed_s = 1, .window_s = 1,
                                     .rate = 99, .samples = 0, .symbols = false };
        struct xu_top_table t = { 0 };
        struct xu_top_row rows[3] = { { "a", 2, 2, 0 }, { "b", 1, 1, 0 }, { "c", 1, 1, 0 } };

        t.rows = rows;
        t.n = 3;
        t.samples = 4;
        s.table = &t;
        s.samples = 4;
        s.complete = 1;
        xu_top_print_batch(f->out, &s, 2);
        fflush(f->out);
        assert_string_equal(f->text,
            "xen-uniprof top: snapshot 1 at 1.00 s, domain 5 (web1), 2 vCPUs\n"
            "rate 99.0/s (99 Hz asked), 0 missed, paused median 0.0 us, 4 samples, 25.0% complete\n"
            "no symbols: functions are shown by address\n"
            "\n"
            "  SELF%  TOTAL%  FUNCTION\n"
            "   50.0    50.0  a\n"
            "   25.0    25.0  b\n"
            "  (1 more)\n"
            "\n");
    }
}

/* Ctrl-C (the stop flag, set from a signal handler) ends the run after
 * the current tick: result OK, the guest unpaused (teardown). */
static void test_signal_stops(void **state)
{
    struct fixture *f = *state;

    f->w.env.stop = &f->stop;
    f->stop_after = 1;
    f->top.iterations = 0;      /* until stopped */
    assert_int_equal(xu_top_run(&f->top, &f->w.env, &f->view), XU_RECORD_OK);
    assert_int_equal(f->shows, 1);
    assert_int_equal(f->w.errors, 0);
}

/* The domain destroyed while top runs: exit status 6, nothing paused. */
static void test_domain_ends(void **state)
{
    struct fixture *f = *state;

    xu_sim_end_after(f->w.g.sim, 150, 1);
    f->top.iterations = 0;
    assert_int_equal(xu_top_run(&f->top, &f->w.env, &f->view), XU_RECORD_DOMAIN_ENDED);
    assert_int_equal(f->shows, 1);
}

static unsigned int polls;

/* Keys between ticks: sort by total, and sample at 200 Hz, from the
 * second window on. */
static int poll_sorts(void *ctx, enum xu_top_sort *sort, double *frequency_hz)
{
    struct fixture *f = ctx;

    polls++;
    if (f->shows == 1) {
        *sort = XU_TOP_SORT_TOTAL;
        *frequency_hz = 200;
    }
    return 0;
}

static void test_poll_between_windows(void **state)
{
    struct fixture *f = *state;
    const char *second;

    polls = 0;
    f->top.iterations = 2;
    f->view.poll = poll_sorts;
    f->view.poll_s = 0.1;
    assert_int_equal(xu_top_run(&f->top, &f->w.env, &f->view), XU_RECORD_OK);
    fflush(f->out);
    assert_true(polls >= 19);   /* every 0.1 s for 2 s */
    assert_true(polls <= 21);
    second = strstr(f->text, "snapshot 2");
    assert_non_null(second);
    assert_non_null(strstr(second, "FUNCTION\n    0.0   100.0  _start\n"));
    /* the poll at 1.1 s: 0.1 s more at 100 Hz, then 0.9 s at 200 Hz */
    assert_non_null(strstr(second, "rate 190.0/s (200 Hz asked), 0 missed, paused median 0.0 us, "
                                   "190 samples"));
    assert_non_null(strstr(f->text, "FUNCTION\n   59.4    59.4  function_3\n"));
}

/* No ELF to be found: the view shows addresses and says so. */
static void test_without_symbols(void **state)
{
    struct fixture *f = *state;

    unlink(f->w.kernel);
    f->top.iterations = 2;
    assert_int_equal(xu_top_run(&f->top, &f->w.env, &f->view), XU_RECORD_OK);
    fflush(f->out);
    assert_non_null(strstr(f->text, "no symbols: functions are shown by address\n"));
    /* function_3's PC, and main_loop's return address less one */
    assert_non_null(strstr(f->text, "   60.0    60.0  0xffffffff80000510\n"));
    assert_non_null(strstr(f->text, "0.0    60.0  0xffffffff8000027f\n"));
    assert_non_null(strstr(f->text, "snapshot 2 at 2.00 s"));
    assert_non_null(strstr(f->text, ", 100 samples, 0.0% complete\n"));
}

/* A domain its administrator paused (xl pause) is not sampled, and the
 * snapshot says why it shows nothing. */
static void test_paused_by_someone_else(void **state)
{
    struct fixture *f = *state;

    assert_int_equal(xu_sim_admin_pause(f->w.g.sim), 0);
    f->top.iterations = 1;
    assert_int_equal(xu_top_run(&f->top, &f->w.env, &f->view), XU_RECORD_OK);
    assert_int_equal(xu_sim_admin_unpause(f->w.g.sim), 0);
    fflush(f->out);
    assert_non_null(strstr(f->text, ", 0 samples, - complete\n"
                                    "paused by someone else at 101 deadlines (xl pause?): "
                                    "nothing sampled then\n"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_batch_text, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rows_and_interval, setup, teardown),
        cmocka_unit_test_setup_teardown(test_signal_stops, setup, teardown),
        cmocka_unit_test_setup_teardown(test_domain_ends, setup, teardown),
        cmocka_unit_test_setup_teardown(test_poll_between_windows, setup, teardown),
        cmocka_unit_test_setup_teardown(test_without_symbols, setup, teardown),
        cmocka_unit_test_setup_teardown(test_paused_by_someone_else, setup_runnable, teardown),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
