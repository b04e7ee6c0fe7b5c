/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_fleet.c - one child process per running domain (lib/record/fleet.c)
 * with children that are plain functions: dom0 and nameless domains left
 * out, the bound on domains, a child that ended not started again while
 * its domain is listed, new domains followed, a child whose report is
 * refused stopped, and a child that ignores SIGTERM killed after the wait.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "record/xu_fleet.h"
#include "top_host.h"

#define MAX_LISTED (XU_FLEET_MAX + 8)

/* The scripted host: domids 1..listed (0 is dom0), domain 3 has no name. */
static struct {
    unsigned int listed;        /* guests listed */
    unsigned int listings;
    unsigned int grow_at;       /* from this listing on, one more guest (0: never) */
} host;

static int host_list(struct xu_domdir *d, struct xu_domain_list *out)
{
    unsigned int i, n = host.listed;

    (void)d;
    host.listings++;
    if (host.grow_at && host.listings >= host.grow_at)
        n++;
    out->v = calloc(n + 1, sizeof(*out->v));
    if (!out->v)
        return -ENOMEM;
    for (i = 0; i <= n; i++) {
        out->v[i].domid = i;
        if (i != 3)
            snprintf(out->v[i].name, sizeof(out->v[i].name), i ? "guest%u" : "Domain-0", i);
    }
    out->n = n + 1;
    return 0;
}

static int host_open(struct xu_domdir **out, unsigned int flags, struct xu_log *log)
{
    (void)flags;
    return top_host_domdir_listing(out, host_list, log);
}

enum behaviour { EXIT_AT_ONCE, WAIT_FOR_STOP, IGNORE_STOP, SEND_GARBAGE };

struct run {
    enum behaviour child;
    unsigned int started, ended, stopped, ticks, max_ticks, warnings;
    int statuses[MAX_LISTED + 1];   /* by domid, -1: none */
    uint32_t started_ids[MAX_LISTED + 2];
    unsigned int starts_of[MAX_LISTED + 2];
};

static int child(void *ctx, const struct xu_fleet_member *m, int fd,
                 volatile sig_atomic_t *stop)
{
    struct run *r = ctx;
    struct timespec nap = { 0, 5 * 1000 * 1000 };
    int i;

    if (r->child == EXIT_AT_ONCE)
        return (int)m->dom.domid;
    if (r->child == IGNORE_STOP) {
        signal(SIGTERM, SIG_IGN);
        for (;;)
            nanosleep(&nap, NULL);
    }
    if (r->child == SEND_GARBAGE && write(fd, "garbage\n", 8) != 8)
        return 1;
    /* then wait to be stopped, 10 s at most */
    for (i = 0; i < 2000 && !*stop; i++)
        nanosleep(&nap, NULL);
    return *stop ? 0 : 1;
}

static void started(void *ctx, struct xu_fleet_member *m)
{
    struct run *r = ctx;

    r->started++;
    r->starts_of[m->dom.domid]++;
}

static int data(void *ctx, struct xu_fleet_member *m, const char *buf, size_t n)
{
    (void)ctx;
    (void)m;
    /* whatever a child says here is malformed */
    return n && memcmp(buf, "garbage", n < 7 ? n : 7) == 0 ? -1 : 0;
}

static void ended(void *ctx, struct xu_fleet_member *m, int status, bool stopped_)
{
    struct run *r = ctx;

    r->ended++;
    r->stopped += stopped_;
    r->statuses[m->dom.domid] = status;
}

static int tick(void *ctx)
{
    struct run *r = ctx;

    return ++r->ticks >= r->max_ticks;
}

static void count_warn(void *ctx, enum xu_log_level level, const char *msg)
{
    struct run *r = ctx;

    (void)msg;
    if (level == XU_LOG_WARN)
        r->warnings++;
}

static const struct xu_fleet_ops ops = {
    .child = child,
    .started = started,
    .data = data,
    .ended = ended,
    .tick = tick,
};

static int fleet(struct run *r, bool follow, bool pipes, double stop_wait_s)
{
    struct xu_log log = { .emit = count_warn, .ctx = r, .min_level = XU_LOG_DEBUG };
    struct xu_fleet_config cfg = {
        .domdir_open = host_open,
        .log = &log,
        .pipes = pipes,
        .follow = follow,
        .poll_s = 0.02,
        .stop_wait_s = stop_wait_s,
        .ops = &ops,
        .ctx = r,
    };

    return xu_fleet_run(&cfg);
}

static void init(struct run *r, enum behaviour b, unsigned int listed, unsigned int max_ticks)
{
    memset(r, 0, sizeof(*r));
    memset(&host, 0, sizeof(host));
    memset(r->statuses, 0xff, sizeof(r->statuses));
    r->child = b;
    r->max_ticks = max_ticks;
    host.listed = listed;
}

static void test_guests_only_each_once(void **state)
{
    struct run r;

    (void)state;
    /* guests 1, 2, 4, 5 (3 has no name yet); each exits with its domid */
    init(&r, EXIT_AT_ONCE, 5, 20);
    assert_int_equal(fleet(&r, true, false, 0), 0);
    assert_int_equal(r.started, 4);
    assert_int_equal(r.ended, 4);
    assert_int_equal(r.stopped, 0);
    assert_int_equal(r.statuses[0], -1);
    assert_int_equal(r.statuses[1], 1);
    assert_int_equal(r.statuses[3], -1);
    assert_int_equal(r.statuses[5], 5);
    /* listed all along, ended once: never started again */
    assert_true(host.listings > 5);
    assert_int_equal(r.starts_of[1], 1);
}

static void test_without_follow_ends_with_the_last(void **state)
{
    struct run r;

    (void)state;
    init(&r, EXIT_AT_ONCE, 2, 1000000);
    host.grow_at = 2;                   /* a guest that is never picked up */
    assert_int_equal(fleet(&r, false, false, 0), 0);
    assert_int_equal(r.started, 2);
    assert_int_equal(r.ended, 2);
    assert_int_equal(host.listings, 1);
}

static void test_follow_picks_up_new(void **state)
{
    struct run r;

    (void)state;
    /* guests 1, 2 and the nameless 3, then 4 from the third listing */
    init(&r, WAIT_FOR_STOP, 3, 10);
    host.grow_at = 3;
    assert_int_equal(fleet(&r, true, false, 5), 0);
    assert_int_equal(r.started, 3);
    assert_int_equal(r.starts_of[3], 0);
    assert_int_equal(r.starts_of[4], 1);
    /* all stopped by the fleet's end, each exiting 0 after its stop flag */
    assert_int_equal(r.stopped, 3);
    assert_int_equal(r.statuses[1], 0);
    assert_int_equal(r.statuses[2], 0);
}

static void test_bounded_domains(void **state)
{
    struct run r;

    (void)state;
    init(&r, WAIT_FOR_STOP, MAX_LISTED, 3);
    assert_int_equal(fleet(&r, true, false, 5), 0);
    assert_int_equal(r.started, XU_FLEET_MAX);
    assert_int_equal(r.warnings, 1);    /* once, not once a listing */
    assert_int_equal(r.ended, XU_FLEET_MAX);
}

static void test_refused_report_stops_the_child(void **state)
{
    struct run r;

    (void)state;
    init(&r, SEND_GARBAGE, 1, 50);
    assert_int_equal(fleet(&r, true, true, 5), 0);
    assert_int_equal(r.started, 1);
    /* SIGTERM at its first words: ended on its own, before the fleet's end */
    assert_int_equal(r.ended, 1);
    assert_int_equal(r.stopped, 0);
    assert_int_equal(r.statuses[1], 0);
}

static void test_deaf_child_killed_after_the_wait(void **state)
{
    struct run r;
    struct timespec t0, t1;
    double secs;

    (void)state;
    init(&r, IGNORE_STOP, 1, 3);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    assert_int_equal(fleet(&r, true, false, 0.3), 0);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    assert_int_equal(r.statuses[1], 128 + SIGKILL);
    assert_true(secs >= 0.3 && secs < 5);
}

static void test_bad_config(void **state)
{
    struct xu_fleet_config cfg = { .poll_s = 0 };

    (void)state;
    assert_int_equal(xu_fleet_run(&cfg), -EINVAL);
    assert_int_equal(xu_fleet_run(NULL), -EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_guests_only_each_once),
        cmocka_unit_test(test_without_follow_ends_with_the_last),
        cmocka_unit_test(test_follow_picks_up_new),
        cmocka_unit_test(test_bounded_domains),
        cmocka_unit_test(test_refused_report_stops_the_child),
        cmocka_unit_test(test_deaf_child_killed_after_the_wait),
        cmocka_unit_test(test_bad_config),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
