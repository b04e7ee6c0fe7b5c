/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_top_run.c - `xen-uniprof top` as a library call (xu_top_run) against
 * the simulated guest, in the world test_record.c builds: the batch mode's
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

#include "mkelf.h"
#include "record/xu_record.h"
#include "sim_guest.h"
#include "target/xu_pause.h"
#include "top/xu_top.h"

#define T SIM_TEXT_BASE
#define DOMID 5

static const struct mkelf_sym syms[] = {
    { "_start",       T + 0x000, 0,    STT_NOTYPE, STB_GLOBAL, 0 },
    { "start_kernel", T + 0x100, 0x80, STT_FUNC,   STB_GLOBAL, 0 },
    { "main_loop",    T + 0x200, 0x80, STT_FUNC,   STB_GLOBAL, 0 },
    { "function_1",   T + 0x300, 0x40, STT_FUNC,   STB_GLOBAL, 0 },
    { "function_2",   T + 0x400, 0x40, STT_FUNC,   STB_GLOBAL, 0 },
    { "function_3",   T + 0x500, 0x40, STT_FUNC,   STB_GLOBAL, 0 },
};

/* Each return address follows a call in the kernel's code, so the walks
 * can be vouched for as complete (_start, the entry point, is the root). */
static const uint8_t call_rel32[5] = { 0xe8, 0, 0, 0, 0 };
static const struct mkelf_patch calls[] = {
    { T + 0x010 - 5, call_rel32, 5 }, { T + 0x130 - 5, call_rel32, 5 },
    { T + 0x220 - 5, call_rel32, 5 }, { T + 0x228 - 5, call_rel32, 5 },
    { T + 0x280 - 5, call_rel32, 5 },
};

static int write_kernel(const char *path, unsigned int flags)
{
    const struct mkelf_section text = { ".text", T, 0x1000, false };

    return mkelf_write_patched(path, &text, 1, calls, sizeof(calls) / sizeof(calls[0]),
                               syms, sizeof(syms) / sizeof(syms[0]), flags);
}

static const uint64_t in_f1[] = { T + 0x310, T + 0x220, T + 0x130, T + 0x010 };
static const uint64_t in_f2[] = { T + 0x410, T + 0x228, T + 0x130, T + 0x010 };
static const uint64_t in_f3[] = { T + 0x510, T + 0x280, T + 0x130, T + 0x010 };

/* ---- the world ---- */

struct capture {
    struct xu_log log;
    unsigned int errors, warnings;
    char first_error[1024];
};

static void cap_emit(void *ctx, enum xu_log_level level, const char *msg)
{
    struct capture *c = ctx;

    if (getenv("XU_TEST_VERBOSE"))
        fprintf(stderr, "log %d: %s\n", (int)level, msg);
    if (level == XU_LOG_ERROR && c->errors++ == 0)
        snprintf(c->first_error, sizeof(c->first_error), "%s", msg);
    if (level == XU_LOG_WARN)
        c->warnings++;
}

/* A clock that does not wait: sleeping moves it to the deadline. */
struct fake_clock {
    uint64_t now;
};

static uint64_t fc_now(void *ctx)
{
    return ((struct fake_clock *)ctx)->now;
}

static void fc_sleep_until(void *ctx, uint64_t deadline)
{
    struct fake_clock *c = ctx;

    if (deadline > c->now)
        c->now = deadline;
}

/* The domain directory: dom0 and web1, and web1's kernel file. */
static char kernel_path[256];

static int dd_list(struct xu_domdir *d, struct xu_domain_list *out)
{
    (void)d;
    out->v = calloc(2, sizeof(*out->v));
    if (!out->v)
        return -ENOMEM;
    out->n = 2;
    out->v[0].domid = 0;
    strcpy(out->v[0].name, "Domain-0");
    out->v[1].domid = DOMID;
    strcpy(out->v[1].name, "web1");
    return 0;
}

static int dd_kernel_path(struct xu_domdir *d, uint32_t domid, char **out)
{
    (void)d;
    if (domid != DOMID)
        return -ESRCH;
    *out = strdup(kernel_path);
    return *out ? 0 : -ENOMEM;
}

/* --create: `xl create -p` leaves the new domain with one pause reference. */
static struct xu_sim *created_sim;
static int creates, destroys;

static int dd_create_paused(struct xu_domdir *d, const char *config, uint32_t *domid)
{
    (void)d;
    (void)config;
    creates++;
    assert_int_equal(xu_sim_admin_pause(created_sim), 0);
    *domid = DOMID;
    return 0;
}

static int dd_destroy(struct xu_domdir *d, uint32_t domid)
{
    (void)d;
    assert_int_equal(domid, DOMID);
    destroys++;
    return 0;
}

static void dd_close(struct xu_domdir *d)
{
    (void)d;
}

static const struct xu_domdir_ops dd_ops = {
    .name = "test",
    .list = dd_list,
    .kernel_path = dd_kernel_path,
    .create_paused = dd_create_paused,
    .destroy = dd_destroy,
    .close = dd_close,
};

static int dd_open(struct xu_domdir **out, unsigned int flags, struct xu_log *log)
{
    struct xu_domdir *d = calloc(1, sizeof(*d));

    (void)flags;
    if (!d)
        return -ENOMEM;
    d->ops = &dd_ops;
    d->log = log;
    *out = d;
    return 0;
}

/* A guardian that is not a process: the word lives here. */
static volatile uint32_t fake_word;
static int guardian_starts, guardian_stops;
static uint32_t word_at_stop;

static int fg_start(struct xu_guardian **out, const struct xu_target_ops *ops, uint32_t domid,
                    volatile uint32_t **pause_state, struct xu_log *log)
{
    (void)ops;
    (void)domid;
    (void)log;
    guardian_starts++;
    fake_word = XU_PAUSE_RUNNING;
    *pause_state = &fake_word;
    *out = (struct xu_guardian *)&fake_word;
    return 0;
}

static int fg_stop(struct xu_guardian *g)
{
    (void)g;
    guardian_stops++;
    word_at_stop = fake_word;
    return 0;
}

struct fixture {
    struct sim_guest g;
    struct capture cap;
    struct fake_clock clock_state;
    struct xu_clock clock;
    struct xu_record_env env;
    struct xu_top_config top;
    struct xu_top_view view;
    FILE *out;
    char *text;
    size_t text_len;
    unsigned int shows, polls;
    volatile sig_atomic_t stop;
    unsigned int stop_after;        /* shows before the "signal" arrives; 0: never */
    char dir[64];
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

static void path_in(struct fixture *f, char *buf, size_t len, const char *name)
{
    snprintf(buf, len, "%s/%s", f->dir, name);
}

static int setup(void **state)
{
    static struct fixture f;
    struct xu_vcpu_regs regs;
    int i;

    memset(&f, 0, sizeof(f));
    strcpy(f.dir, "/tmp/xu-record-XXXXXX");
    assert_non_null(mkdtemp(f.dir));
    path_in(&f, kernel_path, sizeof(kernel_path), "vmlinux");
    assert_int_equal(write_kernel(kernel_path, 0), 0);

    /* function_1, function_2, function_3 in the ratio 1:3:6 */
    assert_int_equal(sim_guest_init(&f.g, XU_GUEST_PV, 1, 0), 0);
    assert_int_equal(sim_guest_chain(&f.g, 0, in_f1, 4, &regs), 0);
    assert_int_equal(xu_sim_push_state(f.g.sim, 0, &regs), 0);
    assert_int_equal(sim_guest_chain(&f.g, 1, in_f2, 4, &regs), 0);
    for (i = 0; i < 3; i++)
        assert_int_equal(xu_sim_push_state(f.g.sim, 0, &regs), 0);
    assert_int_equal(sim_guest_chain(&f.g, 2, in_f3, 4, &regs), 0);
    for (i = 0; i < 6; i++)
        assert_int_equal(xu_sim_push_state(f.g.sim, 0, &regs), 0);
    /* always running, a millisecond of CPU per tick */
    assert_int_equal(xu_sim_push_vstate(f.g.sim, 0, XU_VSTATE_RUNNING, 1000000), 0);
    xu_sim_register(f.g.sim, DOMID);
    created_sim = f.g.sim;
    creates = destroys = 0;

    f.cap.log.emit = cap_emit;
    f.cap.log.ctx = &f.cap;
    f.cap.log.min_level = XU_LOG_DEBUG;
    f.clock_state.now = 1000000000ULL;
    f.clock.now_ns = fc_now;
    f.clock.sleep_until_ns = fc_sleep_until;
    f.clock.ctx = &f.clock_state;
    f.env.log = &f.cap.log;
    f.env.backend = &xu_sim_ops;
    f.env.domdir_open = dd_open;
    f.env.clock = &f.clock;
    f.env.guardian_start = fg_start;
    f.env.guardian_stop = fg_stop;
    guardian_starts = guardian_stops = 0;
    word_at_stop = 0xdead;

    /* xen-uniprof top -b -n 3 -F 100 web1 */
    f.top.record.domain = "web1";
    f.top.record.frequency = 100;
    f.top.record.max_depth = 64;
    f.top.record.unwind = XU_UNWIND_AUTO;
    f.top.interval_s = 1.0;
    f.top.iterations = 3;
    f.text = NULL;
    f.text_len = 0;
    f.out = open_memstream(&f.text, &f.text_len);
    assert_non_null(f.out);
    f.view.show = show_batch;
    f.view.ctx = &f;
    f.shows = f.polls = 0;
    *state = &f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;
    struct xu_sim_counters c;
    DIR *d;
    struct dirent *de;
    char p[512];

    /* whatever happened, the guest runs and nothing is mapped */
    xu_sim_get_counters(f->g.sim, &c);
    assert_int_equal(c.pause_depth, 0);
    assert_int_equal(c.maps, c.unmaps);
    assert_int_equal(guardian_starts, guardian_stops);
    xu_sim_register(NULL, 0);
    sim_guest_fini(&f->g);
    d = opendir(f->dir);
    assert_non_null(d);
    while ((de = readdir(d))) {
        if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
            snprintf(p, sizeof(p), "%s/%s", f->dir, de->d_name);
            unlink(p);
        }
    }
    closedir(d);
    assert_int_equal(rmdir(f->dir), 0);
    fclose(f->out);
    free(f->text);
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
    struct xu_sim_counters c;
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

    assert_int_equal(xu_top_run(&f->top, &f->env, &f->view), XU_RECORD_OK);
    fflush(f->out);
    assert_string_equal(f->text, expected);
    assert_int_equal(f->shows, 3);
    /* sampling ended at the third window: 301 ticks paused once each,
     * and the ELF check once */
    xu_sim_get_counters(f->g.sim, &c);
    assert_int_equal(c.pauses, 302);
    assert_int_equal(c.pause_depth, 0);
    assert_int_equal(word_at_stop, XU_PAUSE_RUNNING);
}

/* Rows past max_rows are counted, not shown; half-second windows. */
static void test_rows_and_interval(void **state)
{
    struct fixture *f = *state;
    const char *last;

    f->top.interval_s = 0.5;
    f->top.iterations = 2;
    f->view.show = show_batch;
    assert_int_equal(xu_top_run(&f->top, &f->env, &f->view), XU_RECORD_OK);
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
    struct xu_sim_counters c;

    f->env.stop = &f->stop;
    f->stop_after = 1;
    f->top.iterations = 0;      /* until stopped */
    assert_int_equal(xu_top_run(&f->top, &f->env, &f->view), XU_RECORD_OK);
    assert_int_equal(f->shows, 1);
    xu_sim_get_counters(f->g.sim, &c);
    assert_int_equal(c.pause_depth, 0);
    assert_int_equal(c.pauses, c.unpauses);
    assert_int_equal(word_at_stop, XU_PAUSE_RUNNING);
}

/* The domain destroyed while top runs: exit status 6, nothing paused. */
static void test_domain_ends(void **state)
{
    struct fixture *f = *state;

    xu_sim_end_after(f->g.sim, 150, 1);
    f->top.iterations = 0;
    assert_int_equal(xu_top_run(&f->top, &f->env, &f->view), XU_RECORD_DOMAIN_ENDED);
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
    assert_int_equal(xu_top_run(&f->top, &f->env, &f->view), XU_RECORD_OK);
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

    unlink(kernel_path);
    f->top.iterations = 2;
    assert_int_equal(xu_top_run(&f->top, &f->env, &f->view), XU_RECORD_OK);
    fflush(f->out);
    assert_non_null(strstr(f->text, "no symbols: functions are shown by address\n"));
    /* function_3's PC, and main_loop's return address less one */
    assert_non_null(strstr(f->text, "   60.0    60.0  0xffffffff80000510\n"));
    assert_non_null(strstr(f->text, "0.0    60.0  0xffffffff8000027f\n"));
    assert_non_null(strstr(f->text, "snapshot 2 at 2.00 s"));
    assert_non_null(strstr(f->text, ", 100 samples, 0.0% complete\n"));
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
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
