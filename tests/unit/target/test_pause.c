/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_pause.c - the pause policy (xu_pause.h) against the simulated guest's
 * faults: what Xen's pause count ends at, what the state word for the
 * guardian says, and what the user reads.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "mem/xu_mem.h"
#include "profile/xu_profile.h"
#include "sample/xu_sampler.h"
#include "sim_guest.h"
#include "target/xu_pause.h"

struct capture {
    struct xu_log log;
    unsigned int errors, warnings, lines;
    char last_error[512];
};

static void cap_emit(void *ctx, enum xu_log_level level, const char *msg)
{
    struct capture *c = ctx;

    c->lines++;
    if (level == XU_LOG_ERROR) {
        c->errors++;
        snprintf(c->last_error, sizeof(c->last_error), "%s", msg);
    } else if (level == XU_LOG_WARN) {
        c->warnings++;
    }
}

struct fixture {
    struct sim_guest g;
    struct xu_target t;
    struct capture cap;
    volatile uint32_t word;
    struct xu_pause *p;
};

static int setup(void **state)
{
    static struct fixture f;

    memset(&f, 0, sizeof(f));
    f.cap.log.emit = cap_emit;
    f.cap.log.ctx = &f.cap;
    f.cap.log.min_level = XU_LOG_DEBUG;
    assert_int_equal(sim_guest_init(&f.g, XU_GUEST_PVH, 1, 0), 0);
    xu_sim_target_open(f.g.sim, &f.t, &f.cap.log);
    f.word = 0xdead;
    assert_int_equal(xu_pause_new(&f.p, &f.t, &f.word, &f.cap.log), 0);
    assert_int_equal(f.word, XU_PAUSE_RUNNING);
    *state = &f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;

    xu_pause_free(f->p);
    xu_target_close(&f->t);
    sim_guest_fini(&f->g);
    return 0;
}

static struct xu_sim_counters counters(struct fixture *f)
{
    struct xu_sim_counters c;

    xu_sim_get_counters(f->g.sim, &c);
    return c;
}

/* --------------------------------------------------------------------- */

static void test_take_and_release(void **state)
{
    struct fixture *f = *state;

    assert_int_equal(xu_pause_take(f->p), 0);
    assert_int_equal(f->word, XU_PAUSE_PAUSED);
    assert_int_equal(xu_pause_held(f->p), 1);
    assert_int_equal(counters(f).pause_depth, 1);
    assert_int_equal(xu_pause_release(f->p), 0);
    assert_int_equal(f->word, XU_PAUSE_RUNNING);
    assert_int_equal(counters(f).pause_depth, 0);
    /* nothing held: nothing given back, Xen is not asked */
    assert_int_equal(xu_pause_release(f->p), -EINVAL);
    assert_int_equal(counters(f).unpause_calls, 1);
    assert_int_equal(f->cap.lines, 0);
}

static void test_admin_pause_is_left_alone(void **state)
{
    struct fixture *f = *state;

    /* paused by its admin: we take our own reference and give back ours only */
    assert_int_equal(xu_sim_admin_pause(f->g.sim), 0);
    assert_int_equal(xu_pause_take(f->p), 0);
    assert_int_equal(counters(f).pause_depth, 2);
    assert_int_equal(xu_pause_release(f->p), 0);
    assert_int_equal(counters(f).pause_depth, 1);
    assert_int_equal(f->word, XU_PAUSE_RUNNING);
    /* the admin unpauses while we hold ours: the guest stays paused by us */
    assert_int_equal(xu_pause_take(f->p), 0);
    assert_int_equal(xu_sim_admin_unpause(f->g.sim), 0);
    assert_int_equal(counters(f).pause_depth, 1);
    assert_int_equal(xu_pause_release(f->p), 0);
    assert_int_equal(counters(f).pause_depth, 0);
}

static void test_nested_takes_hold_one_reference(void **state)
{
    struct fixture *f = *state;

    assert_int_equal(xu_pause_take(f->p), 0);
    assert_int_equal(xu_pause_take(f->p), 0);
    assert_int_equal(counters(f).pauses, 1);
    assert_int_equal(xu_pause_held(f->p), 2);
    assert_int_equal(xu_pause_release(f->p), 0);
    assert_int_equal(f->word, XU_PAUSE_PAUSED);
    assert_int_equal(counters(f).pause_depth, 1);
    assert_int_equal(xu_pause_release(f->p), 0);
    assert_int_equal(f->word, XU_PAUSE_RUNNING);
    assert_int_equal(counters(f).pause_depth, 0);
}

static void test_pause_fails(void **state)
{
    struct fixture *f = *state;

    xu_sim_fail_pause(f->g.sim, -EUSERS, 1);
    assert_int_equal(xu_pause_take(f->p), -EUSERS);
    assert_int_equal(f->word, XU_PAUSE_RUNNING);
    assert_int_equal(xu_pause_held(f->p), 0);
    assert_int_equal(counters(f).pause_depth, 0);
    /* nothing was left paused: the caller says what it was doing */
    assert_int_equal(f->cap.lines, 0);
    assert_int_equal(xu_pause_release(f->p), -EINVAL);
    assert_int_equal(counters(f).unpause_calls, 0);
}

static void test_unpause_fails_once(void **state)
{
    struct fixture *f = *state;

    xu_sim_fail_unpause(f->g.sim, -EAGAIN, 1);
    assert_int_equal(xu_pause_take(f->p), 0);
    assert_int_equal(xu_pause_release(f->p), 0);
    assert_int_equal(counters(f).unpause_calls, 2);
    assert_int_equal(counters(f).pause_depth, 0);
    assert_int_equal(f->word, XU_PAUSE_RUNNING);
    assert_false(xu_pause_stuck(f->p));
    /* a retry that worked is not the user's business */
    assert_int_equal(f->cap.lines, 0);
}

static void test_unpause_fails_always(void **state)
{
    struct fixture *f = *state;

    xu_sim_fail_unpause(f->g.sim, -EIO, XU_SIM_ALWAYS);
    assert_int_equal(xu_pause_take(f->p), 0);
    assert_int_equal(xu_pause_release(f->p), -EIO);
    assert_int_equal(counters(f).unpause_calls, XU_PAUSE_UNPAUSE_TRIES);
    assert_int_equal(counters(f).pause_depth, 1);
    assert_true(xu_pause_stuck(f->p));
    /* the guardian tries again when we exit */
    assert_int_equal(f->word, XU_PAUSE_PAUSED);
    /* exactly one error line, naming the command that fixes it */
    assert_int_equal(f->cap.errors, 1);
    assert_int_equal(f->cap.lines, 1);
    assert_non_null(strstr(f->cap.last_error, "xl unpause 1"));
    assert_non_null(strstr(f->cap.last_error, "domain 1"));
    /* a stuck handle does not hammer Xen or repeat itself */
    assert_int_equal(xu_pause_release(f->p), -EBUSY);
    assert_int_equal(xu_pause_take(f->p), 0);      /* counts only */
    assert_int_equal(counters(f).pauses, 1);
    xu_pause_free(f->p);
    f->p = NULL;
    assert_int_equal(counters(f).unpause_calls, XU_PAUSE_UNPAUSE_TRIES);
    assert_int_equal(f->cap.lines, 1);
    assert_int_equal(f->word, XU_PAUSE_PAUSED);
    /* what `xl unpause 1` does */
    xu_sim_fail_unpause(f->g.sim, 0, 0);
    assert_int_equal(xu_sim_admin_unpause(f->g.sim), 0);
}

static void test_unpause_of_a_gone_domain_is_no_failure(void **state)
{
    struct fixture *f = *state;

    assert_int_equal(xu_pause_take(f->p), 0);
    xu_sim_fail_unpause(f->g.sim, -ESRCH, XU_SIM_ALWAYS);
    assert_int_equal(xu_pause_release(f->p), 0);
    assert_int_equal(counters(f).unpause_calls, 1);
    assert_int_equal(f->word, XU_PAUSE_RUNNING);
    assert_int_equal(f->cap.lines, 0);
    assert_false(xu_pause_stuck(f->p));
}

static void test_adopt_creation_pause(void **state)
{
    struct fixture *f = *state;

    /* `xl create -p`: one reference, taken by the creation */
    assert_int_equal(xu_sim_admin_pause(f->g.sim), 0);
    xu_pause_adopt(f->p);
    assert_int_equal(f->word, XU_PAUSE_PAUSED);
    /* the ELF check during the creation pause: no second hypercall */
    assert_int_equal(xu_pause_take(f->p), 0);
    assert_int_equal(xu_pause_release(f->p), 0);
    assert_int_equal(counters(f).pauses, 0);
    assert_int_equal(f->word, XU_PAUSE_PAUSED);
    /* starting the guest gives the creation's reference back */
    assert_int_equal(xu_pause_release(f->p), 0);
    assert_int_equal(counters(f).pause_depth, 0);
    assert_int_equal(f->word, XU_PAUSE_RUNNING);
}

static void test_free_gives_back_what_is_held(void **state)
{
    struct fixture *f = *state;

    assert_int_equal(xu_pause_take(f->p), 0);
    assert_int_equal(xu_pause_take(f->p), 0);
    xu_pause_free(f->p);
    f->p = NULL;
    assert_int_equal(counters(f).pause_depth, 0);
    assert_int_equal(f->word, XU_PAUSE_RUNNING);
}

/* ---- the sampler's ticks, through the module ---- */

static const uint64_t chain[] = { 0xffffffff80001010ULL, 0xffffffff80002020ULL,
                                  0xffffffff80000010ULL };

static void run_sampler(struct fixture *f, uint64_t ticks, struct xu_sampler_stats *st, int *rc)
{
    struct xu_vcpu_regs regs;
    struct xu_mem *m = xu_mem_new(&f->t, NULL);
    struct xu_profile *p = xu_profile_new(0);
    struct xu_sampler_config cfg = { 0 };

    assert_non_null(m);
    assert_non_null(p);
    assert_int_equal(sim_guest_chain(&f->g, 0, chain, 3, &regs), 0);
    assert_int_equal(xu_sim_push_state(f->g.sim, 0, &regs), 0);
    cfg.frequency_hz = 1000;
    cfg.max_depth = 16;
    cfg.max_ticks = ticks;
    cfg.no_sleep = 1;
    cfg.pause = f->p;
    *rc = xu_sampler_run(&f->t, m, p, &cfg, st);
    xu_profile_free(p);
    xu_mem_free(m);
}

static void test_tick_unpauses_after_failed_register_read(void **state)
{
    struct fixture *f = *state;
    struct xu_sampler_stats st;
    int rc;

    xu_sim_fail_regs(f->g.sim, -EIO, 2);
    run_sampler(f, 3, &st, &rc);
    assert_int_equal(rc, 0);
    assert_int_equal(st.ticks, 3);
    assert_int_equal(st.regs_failures, 2);
    assert_int_equal(st.samples, 1);
    assert_int_equal(counters(f).pauses, 3);
    assert_int_equal(counters(f).unpauses, 3);
    assert_int_equal(counters(f).pause_depth, 0);
    assert_int_equal(f->word, XU_PAUSE_RUNNING);
}

static void test_tick_pause_failure_ends_with_error(void **state)
{
    struct fixture *f = *state;
    struct xu_sampler_stats st;
    int rc;

    xu_sim_fail_pause(f->g.sim, -EUSERS, XU_SIM_ALWAYS);
    run_sampler(f, 3, &st, &rc);
    assert_int_equal(rc, -EUSERS);
    assert_int_equal(st.reason, XU_STOP_ERROR);
    assert_false(st.left_paused);
    assert_int_equal(counters(f).pause_depth, 0);
    assert_int_equal(f->word, XU_PAUSE_RUNNING);
    assert_int_equal(f->cap.lines, 0);
}

static void test_tick_unpause_retried(void **state)
{
    struct fixture *f = *state;
    struct xu_sampler_stats st;
    int rc;

    xu_sim_fail_unpause(f->g.sim, -EAGAIN, 1);
    run_sampler(f, 3, &st, &rc);
    assert_int_equal(rc, 0);
    assert_int_equal(st.ticks, 3);
    assert_int_equal(counters(f).pause_depth, 0);
    assert_int_equal(f->cap.lines, 0);
}

static void test_tick_unpause_fails_for_good(void **state)
{
    struct fixture *f = *state;
    struct xu_sampler_stats st;
    int rc;

    xu_sim_fail_unpause(f->g.sim, -EIO, XU_SIM_ALWAYS);
    run_sampler(f, 5, &st, &rc);
    /* the loop ends at once instead of pausing again */
    assert_int_equal(rc, -EIO);
    assert_int_equal(st.reason, XU_STOP_ERROR);
    assert_true(st.left_paused);
    assert_int_equal(counters(f).pauses, 1);
    assert_int_equal(counters(f).unpause_calls, XU_PAUSE_UNPAUSE_TRIES);
    assert_int_equal(f->word, XU_PAUSE_PAUSED);
    assert_int_equal(f->cap.errors, 1);
    assert_non_null(strstr(f->cap.last_error, "xl unpause 1"));
    xu_sim_fail_unpause(f->g.sim, 0, 0);
    assert_int_equal(xu_sim_admin_unpause(f->g.sim), 0);
}

/* ---- the guardian's half, on its own target ---- */

static void test_recover(void **state)
{
    struct fixture *f = *state;

    /* RUNNING: nothing to do, not even asking */
    assert_int_equal(xu_pause_recover(&f->t, XU_PAUSE_RUNNING, &f->cap.log), 0);
    assert_int_equal(f->cap.lines, 0);
    /* PAUSED but the domain runs: our unpause got through */
    assert_int_equal(xu_pause_recover(&f->t, XU_PAUSE_PAUSED, &f->cap.log), 0);
    assert_int_equal(counters(f).unpause_calls, 0);
    /* PAUSED and paused: one reference back, retried, one warning */
    assert_int_equal(xu_sim_admin_pause(f->g.sim), 0);
    xu_sim_fail_unpause(f->g.sim, -EAGAIN, 2);
    assert_int_equal(xu_pause_recover(&f->t, XU_PAUSE_PAUSED, &f->cap.log), 0);
    assert_int_equal(counters(f).pause_depth, 0);
    assert_int_equal(f->cap.warnings, 1);
    assert_int_equal(f->cap.errors, 0);
    /* and when it cannot: one error with the command */
    assert_int_equal(xu_sim_admin_pause(f->g.sim), 0);
    xu_sim_fail_unpause(f->g.sim, -EIO, XU_SIM_ALWAYS);
    assert_int_equal(xu_pause_recover(&f->t, XU_PAUSE_PAUSING, &f->cap.log), -EIO);
    assert_int_equal(f->cap.errors, 1);
    assert_non_null(strstr(f->cap.last_error, "xl unpause 1"));
    xu_sim_fail_unpause(f->g.sim, 0, 0);
    assert_int_equal(xu_sim_admin_unpause(f->g.sim), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_take_and_release, setup, teardown),
        cmocka_unit_test_setup_teardown(test_admin_pause_is_left_alone, setup, teardown),
        cmocka_unit_test_setup_teardown(test_nested_takes_hold_one_reference, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pause_fails, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unpause_fails_once, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unpause_fails_always, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unpause_of_a_gone_domain_is_no_failure, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_adopt_creation_pause, setup, teardown),
        cmocka_unit_test_setup_teardown(test_free_gives_back_what_is_held, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tick_unpauses_after_failed_register_read, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_tick_pause_failure_ends_with_error, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tick_unpause_retried, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tick_unpause_fails_for_good, setup, teardown),
        cmocka_unit_test_setup_teardown(test_recover, setup, teardown),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
