/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_guardian.c - the guardian process, against a fake domain that lives
 * in shared memory so the test, the guardian and a "profiler" child all see
 * the same pause count (Xen counts controller pauses the same way).
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "sample/xu_guardian.h"
#include "target/xu_pause.h"

#define FAKE_DOMID 7

struct fake_dom {
    int pause_count;        /* atomics: several processes touch it */
    int unpauses;
    int opens;
    int open_rc;            /* open() fails with this when non-zero */
    int gone;
    int unpause_fail;       /* unpauses that fail with -EIO; -1: all */
    int unpause_calls;
    char msg[512];          /* the guardian's log line */
    int msgs;
    char first_msg[512];
};

static struct fake_dom *dom;

static int f_open(struct xu_target *t, uint32_t domid)
{
    if (dom->open_rc)
        return dom->open_rc;
    if (domid != FAKE_DOMID)
        return -ESRCH;
    __atomic_add_fetch(&dom->opens, 1, __ATOMIC_SEQ_CST);
    t->priv = dom;
    /* as Xen's libraries do (xencall's buffer counts): the profiler's own
     * handle already says it once, the guardian's must not say it again */
    xu_debug(t->log, "fake: opened");
    return 0;
}

static void f_close(struct xu_target *t)
{
    xu_debug(t->log, "fake: buffer totals");
    t->priv = NULL;
}

static int f_info(struct xu_target *t, struct xu_domain_info *out)
{
    (void)t;
    if (dom->gone)
        return -ESRCH;
    memset(out, 0, sizeof(*out));
    out->domid = FAKE_DOMID;
    out->paused = __atomic_load_n(&dom->pause_count, __ATOMIC_SEQ_CST) > 0;
    return 0;
}

static int f_pause(struct xu_target *t)
{
    (void)t;
    __atomic_add_fetch(&dom->pause_count, 1, __ATOMIC_SEQ_CST);
    return 0;
}

static int f_unpause(struct xu_target *t)
{
    int c = __atomic_load_n(&dom->pause_count, __ATOMIC_SEQ_CST);

    (void)t;
    __atomic_add_fetch(&dom->unpause_calls, 1, __ATOMIC_SEQ_CST);
    if (dom->unpause_fail) {
        if (dom->unpause_fail > 0)
            dom->unpause_fail--;
        return -EIO;
    }
    do {
        if (c == 0)
            return -EINVAL;     /* as Xen */
    } while (!__atomic_compare_exchange_n(&dom->pause_count, &c, c - 1, false,
                                          __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
    __atomic_add_fetch(&dom->unpauses, 1, __ATOMIC_SEQ_CST);
    return 0;
}

static int f_vcpu_regs(struct xu_target *t, unsigned int vcpu, struct xu_vcpu_regs *out)
{
    (void)t;
    (void)vcpu;
    (void)out;
    return -ENOSYS;
}

static const void *f_map_frame(struct xu_target *t, uint64_t frame)
{
    (void)t;
    (void)frame;
    errno = ENOSYS;
    return NULL;
}

static void f_unmap_frame(struct xu_target *t, const void *addr)
{
    (void)t;
    (void)addr;
}

static const struct xu_target_ops fake_ops = {
    .name = "fake",
    .open = f_open,
    .close = f_close,
    .info = f_info,
    .pause = f_pause,
    .unpause = f_unpause,
    .vcpu_regs = f_vcpu_regs,
    .map_frame = f_map_frame,
    .unmap_frame = f_unmap_frame,
};

/* The guardian's log, kept in the shared page so the test can read it. */
static void shared_emit(void *ctx, enum xu_log_level level, const char *msg)
{
    (void)ctx;
    (void)level;
    snprintf(dom->msg, sizeof(dom->msg), "%s", msg);
    if (__atomic_add_fetch(&dom->msgs, 1, __ATOMIC_SEQ_CST) == 1)
        snprintf(dom->first_msg, sizeof(dom->first_msg), "%s", msg);
}

static struct xu_log shared_log = { shared_emit, NULL, XU_LOG_DEBUG };

static int setup(void **state)
{
    (void)state;
    dom = mmap(NULL, sizeof(*dom), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    assert_true(dom != MAP_FAILED);
    memset(dom, 0, sizeof(*dom));
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    /* no child of ours is left behind by any test */
    assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
    assert_int_equal(errno, ECHILD);
    munmap(dom, sizeof(*dom));
    dom = NULL;
    return 0;
}

static bool alive(pid_t pid)
{
    return waitpid(pid, NULL, WNOHANG) == 0;
}

static void sleep_ms(long ms)
{
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

    while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
        ;
}

static struct xu_guardian *start(volatile uint32_t **ps)
{
    struct xu_guardian *g = NULL;

    assert_int_equal(xu_guardian_start(&g, &fake_ops, FAKE_DOMID, ps, &shared_log), 0);
    assert_non_null(g);
    assert_non_null(*ps);
    assert_int_equal(**ps, XU_PAUSE_RUNNING);
    return g;
}

/* --------------------------------------------------------------------- */

static void test_clean_stop_leaves_domain_alone(void **state)
{
    volatile uint32_t *ps;
    struct xu_guardian *g;

    (void)state;
    g = start(&ps);
    assert_int_equal(dom->opens, 1);    /* attached before start returned */
    assert_true(alive(xu_guardian_pid(g)));
    /* an admin's pause is not ours to undo */
    dom->pause_count = 1;
    assert_int_equal(xu_guardian_stop(g), 0);
    assert_int_equal(dom->unpauses, 0);
    assert_int_equal(dom->pause_count, 1);
    assert_int_equal(dom->msgs, 0);
    assert_int_equal(xu_guardian_stop(NULL), 0);
}

static void test_stop_while_paused_unpauses(void **state)
{
    volatile uint32_t *ps;
    struct xu_guardian *g;

    (void)state;
    g = start(&ps);
    dom->pause_count = 1;
    *ps = XU_PAUSE_PAUSED;
    assert_int_equal(xu_guardian_stop(g), 0);
    assert_int_equal(dom->unpauses, 1);
    assert_int_equal(dom->pause_count, 0);
    assert_int_equal(dom->msgs, 1);
    assert_non_null(strstr(dom->msg, "unpaused"));
}

static void test_pausing_unpauses_only_a_paused_domain(void **state)
{
    volatile uint32_t *ps;
    struct xu_guardian *g;

    (void)state;
    /* killed before the pause hypercall: nothing to undo */
    g = start(&ps);
    *ps = XU_PAUSE_PAUSING;
    assert_int_equal(xu_guardian_stop(g), 0);
    assert_int_equal(dom->unpauses, 0);
    /* killed after it */
    g = start(&ps);
    *ps = XU_PAUSE_PAUSING;
    dom->pause_count = 1;
    assert_int_equal(xu_guardian_stop(g), 0);
    assert_int_equal(dom->unpauses, 1);
    assert_int_equal(dom->pause_count, 0);
}

static void test_paused_state_but_running_domain(void **state)
{
    volatile uint32_t *ps;
    struct xu_guardian *g;

    (void)state;
    /* killed between a successful unpause and publishing RUNNING */
    g = start(&ps);
    *ps = XU_PAUSE_PAUSED;
    assert_int_equal(xu_guardian_stop(g), 0);
    assert_int_equal(dom->unpauses, 0);
    assert_int_equal(dom->msgs, 0);
    /* and a domain that is gone needs nothing either */
    g = start(&ps);
    *ps = XU_PAUSE_PAUSED;
    dom->gone = 1;
    assert_int_equal(xu_guardian_stop(g), 0);
    assert_int_equal(dom->unpauses, 0);
}

static void test_open_failure_is_reported(void **state)
{
    volatile uint32_t *ps = (volatile uint32_t *)1;
    struct xu_guardian *g = (struct xu_guardian *)1;

    (void)state;
    dom->open_rc = -EACCES;
    assert_int_equal(xu_guardian_start(&g, &fake_ops, FAKE_DOMID, &ps, &shared_log), -EACCES);
    assert_null(g);
    assert_null(ps);
    dom->open_rc = 0;
    assert_int_equal(xu_guardian_start(&g, &fake_ops, FAKE_DOMID + 1, &ps, &shared_log), -ESRCH);
    assert_null(g);
}

static void test_survives_group_signals(void **state)
{
    volatile uint32_t *ps;
    struct xu_guardian *g;
    pid_t pid;

    (void)state;
    g = start(&ps);
    pid = xu_guardian_pid(g);
    /* in its own process group, out of reach of the profiler's */
    assert_int_equal(getpgid(pid), pid);
    assert_int_not_equal(getpgid(pid), getpgid(0));
    assert_int_equal(kill(pid, SIGINT), 0);
    assert_int_equal(kill(pid, SIGTERM), 0);
    assert_int_equal(kill(pid, SIGHUP), 0);
    assert_int_equal(kill(pid, SIGPIPE), 0);
    sleep_ms(50);
    assert_true(alive(pid));
    dom->pause_count = 1;
    *ps = XU_PAUSE_PAUSED;
    assert_int_equal(xu_guardian_stop(g), 0);
    assert_int_equal(dom->unpauses, 1);
}

static void test_does_not_hold_our_files(void **state)
{
    volatile uint32_t *ps;
    struct xu_guardian *g;
    int out[2], other[2], saved;
    struct pollfd pfd[2];
    char c;

    (void)state;
    /* stdout is a pipe (xen-uniprof -o - | consumer), plus some other
     * descriptor without close-on-exec */
    assert_int_equal(pipe(out), 0);
    assert_int_equal(pipe(other), 0);
    fflush(stdout);
    saved = dup(1);
    assert_true(saved >= 0);
    assert_int_equal(dup2(out[1], 1), 1);
    g = start(&ps);
    assert_int_equal(dup2(saved, 1), 1);
    close(saved);
    close(out[1]);
    close(other[1]);
    /* with the guardian still running, both readers see end-of-file */
    assert_true(alive(xu_guardian_pid(g)));
    pfd[0].fd = out[0];
    pfd[0].events = POLLIN;
    pfd[1].fd = other[0];
    pfd[1].events = POLLIN;
    assert_int_equal(poll(pfd, 2, 2000), 2);
    assert_int_equal(read(out[0], &c, 1), 0);
    assert_int_equal(read(other[0], &c, 1), 0);
    close(out[0]);
    close(other[0]);
    assert_int_equal(xu_guardian_stop(g), 0);
}

/*
 * The real thing: a profiler process pausing and unpausing in a loop as the
 * sampler does, SIGKILLed at a random moment.  Whatever the moment, once
 * the guardian is done the domain runs (the pause count is back to 0) and
 * the guardian has exited.
 */
static void run_killed_profiler(unsigned int delay_us, bool loop)
{
    int report[2];
    pid_t prof, gpid = -1;
    int status, i;

    assert_int_equal(pipe(report), 0);
    prof = fork();
    assert_true(prof >= 0);
    if (prof == 0) {
        volatile uint32_t *ps;
        struct xu_guardian *g;
        struct xu_target t;
        struct xu_pause *ph;
        pid_t p;

        close(report[0]);
        if (xu_guardian_start(&g, &fake_ops, FAKE_DOMID, &ps, &shared_log) < 0)
            _exit(1);
        if (xu_target_open(&t, &fake_ops, FAKE_DOMID, NULL) < 0 ||
            xu_pause_new(&ph, &t, ps, NULL) < 0)
            _exit(1);
        p = xu_guardian_pid(g);
        if (write(report[1], &p, sizeof(p)) != (ssize_t)sizeof(p))
            _exit(1);
        close(report[1]);
        for (;;) {
            /* as the sampler's ticks do, through the pause module */
            xu_pause_take(ph);
            if (!loop)
                pause();    /* killed while paused */
            xu_pause_release(ph);
        }
    }
    close(report[1]);
    assert_int_equal(read(report[0], &gpid, sizeof(gpid)), (ssize_t)sizeof(gpid));
    close(report[0]);
    if (delay_us)
        usleep(delay_us);
    else
        sleep_ms(20);
    assert_int_equal(kill(prof, SIGKILL), 0);
    assert_int_equal(waitpid(prof, &status, 0), prof);
    assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);

    /* we are the subreaper: the orphaned guardian is ours to wait for */
    for (i = 0; i < 500; i++) {
        pid_t r = waitpid(gpid, &status, WNOHANG);
        if (r == gpid)
            break;
        assert_int_equal(r, 0);
        sleep_ms(10);
    }
    assert_true(i < 500);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    assert_int_equal(dom->pause_count, 0);
}

static void test_sigkilled_profiler_while_paused(void **state)
{
    (void)state;
    assert_int_equal(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
    run_killed_profiler(0, false);
    assert_int_equal(dom->unpauses, 1);
    assert_int_equal(dom->msgs, 1);
    assert_non_null(strstr(dom->msg, "domain 7"));
}

static void test_sigkilled_profiler_at_random_moments(void **state)
{
    unsigned int i;

    (void)state;
    assert_int_equal(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
    srand((unsigned int)time(NULL));
    for (i = 0; i < 25; i++) {
        dom->pause_count = 0;
        run_killed_profiler(1 + (unsigned int)rand() % 3000, true);
    }
}

/* ---- when unpausing fails ---- */

static void test_guardian_retries_a_failed_unpause(void **state)
{
    volatile uint32_t *ps;
    struct xu_guardian *g;

    (void)state;
    g = start(&ps);
    dom->pause_count = 1;
    *ps = XU_PAUSE_PAUSED;
    dom->unpause_fail = 2;
    assert_int_equal(xu_guardian_stop(g), 0);
    assert_int_equal(dom->unpause_calls, 3);
    assert_int_equal(dom->pause_count, 0);
    assert_int_equal(dom->msgs, 1);
    assert_non_null(strstr(dom->msg, "unpaused"));
}

static void test_guardian_names_the_fix_when_it_cannot(void **state)
{
    volatile uint32_t *ps;
    struct xu_guardian *g;

    (void)state;
    g = start(&ps);
    dom->pause_count = 1;
    *ps = XU_PAUSE_PAUSED;
    dom->unpause_fail = -1;
    /* the guardian exits 1: stop says the child ended abnormally */
    assert_int_equal(xu_guardian_stop(g), -ECHILD);
    assert_int_equal(dom->unpause_calls, XU_PAUSE_UNPAUSE_TRIES);
    assert_int_equal(dom->pause_count, 1);
    assert_int_equal(dom->msgs, 1);
    assert_non_null(strstr(dom->msg, "xl unpause 7"));
    dom->unpause_fail = 0;
    dom->pause_count = 0;
}

/*
 * The profiler's own unpause fails for good (it says so once and leaves the
 * word PAUSED), then it dies holding the pause: the guardian, once Xen
 * answers again, gives the reference back.
 */
static void test_profiler_dies_after_a_failed_unpause(void **state)
{
    pid_t prof, gpid;
    int report[2], status, i;

    (void)state;
    assert_int_equal(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
    assert_int_equal(pipe(report), 0);
    prof = fork();
    assert_true(prof >= 0);
    if (prof == 0) {
        volatile uint32_t *ps;
        struct xu_guardian *g;
        struct xu_target t;
        struct xu_pause *ph;
        pid_t p;

        close(report[0]);
        if (xu_guardian_start(&g, &fake_ops, FAKE_DOMID, &ps, &shared_log) < 0 ||
            xu_target_open(&t, &fake_ops, FAKE_DOMID, NULL) < 0 ||
            xu_pause_new(&ph, &t, ps, &shared_log) < 0)
            _exit(1);
        p = xu_guardian_pid(g);
        if (xu_pause_take(ph) < 0)
            _exit(1);
        dom->unpause_fail = -1;
        if (xu_pause_release(ph) != -EIO || *ps != XU_PAUSE_PAUSED)
            _exit(1);
        dom->unpause_fail = 0;      /* Xen answers again */
        if (write(report[1], &p, sizeof(p)) != (ssize_t)sizeof(p))
            _exit(1);
        _exit(1);                   /* dies without stopping the guardian */
    }
    close(report[1]);
    assert_int_equal(read(report[0], &gpid, sizeof(gpid)), (ssize_t)sizeof(gpid));
    close(report[0]);
    assert_int_equal(waitpid(prof, &status, 0), prof);
    for (i = 0; i < 500; i++) {
        pid_t r = waitpid(gpid, &status, WNOHANG);
        if (r == gpid)
            break;
        assert_int_equal(r, 0);
        sleep_ms(10);
    }
    assert_true(i < 500);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    assert_int_equal(dom->pause_count, 0);
    /* the profiler's one error named the fix; the guardian's line says it
     * did it */
    assert_int_equal(dom->msgs, 2);
    assert_non_null(strstr(dom->first_msg, "xl unpause 7"));
    assert_non_null(strstr(dom->msg, "unpaused"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_clean_stop_leaves_domain_alone, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stop_while_paused_unpauses, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pausing_unpauses_only_a_paused_domain, setup, teardown),
        cmocka_unit_test_setup_teardown(test_paused_state_but_running_domain, setup, teardown),
        cmocka_unit_test_setup_teardown(test_open_failure_is_reported, setup, teardown),
        cmocka_unit_test_setup_teardown(test_survives_group_signals, setup, teardown),
        cmocka_unit_test_setup_teardown(test_does_not_hold_our_files, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sigkilled_profiler_while_paused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sigkilled_profiler_at_random_moments, setup, teardown),
        cmocka_unit_test_setup_teardown(test_guardian_retries_a_failed_unpause, setup, teardown),
        cmocka_unit_test_setup_teardown(test_guardian_names_the_fix_when_it_cannot, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_profiler_dies_after_a_failed_unpause, setup,
                                        teardown),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
