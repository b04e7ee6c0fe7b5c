/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_top_screen.c - `xen-uniprof top`'s full-screen view (tools/
 * top_screen.c) driven through a pseudo-terminal, on the simulated guest
 * (tests/helpers/top_world.h) at its real speed.
 *
 * A child made by forkpty() runs the view as the command does (the same
 * signal handlers, TERM=xterm, 80x24); the parent types keys and reads the
 * screen.  ncurses sends only what changed on a screen, so after a key the
 * parent asks for a full repaint (Ctrl-L) until the text it waits for
 * appears.  Once the view returns, the child checks what no screen shows:
 * the terminal's modes restored (canonical input and echo) and the guest
 * unpaused with nothing mapped, and prints one line the parent reads.
 *
 * The child leads its own session, so its process group is orphaned: the
 * kernel discards a SIGTSTP that would stop it.  Ctrl-Z is therefore
 * checked for what it does around the stop (the terminal left and taken
 * back, sampling going on), not for the stop itself.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "top_host.h"
#include "top_view.h"
#include "top_world.h"

#define OUT_MAX (4u << 20)

struct pty {
    int fd;
    pid_t pid;
    char *out;
    size_t len;
};

/* ---- the child: the view, as `xen-uniprof top web1` runs it ---- */

static bool every_guest;        /* the child runs `top --all` instead */

/* `xen-uniprof top --all` over web1 and web2 (tests/helpers/top_host.h):
 * each domain's process checks its own guest, the report says how the
 * view ended and what the terminal was left in. */
static void child_all(void)
{
    struct xu_top_all_config cfg;
    struct xu_record_env env = { 0 };
    struct xu_log log;
    struct termios tio;
    enum xu_record_result r;

    setenv("TERM", "xterm", 1);
    top_host_reset();
    top_host_add(5, "web1", 0);
    top_host_add(6, "web2", TOP_WORLD_OTHER_NAMES)->ends_after = 150;
    memset(&cfg, 0, sizeof(cfg));
    cfg.top.record.frequency = 100;
    cfg.top.record.max_depth = 64;
    cfg.top.record.unwind = XU_UNWIND_AUTO;
    cfg.top.interval_s = 0.3;
    cfg.child_env = top_host_child_env;
    cfg.child_done = top_host_child_done;
    xu_log_init_stderr(&log, XU_LOG_INFO);
    env.log = &log;
    env.domdir_open = top_host_domdir_open;
    env.stop = xu_top_signals_install();
    if (!xu_top_screen_usable())
        _exit(21);
    r = xu_top_screen_run_all(&cfg, &env, &log);
    if (tcgetattr(STDIN_FILENO, &tio) < 0)
        tio.c_lflag = 0;
    printf("\nTOP-EXIT result=%d icanon=%d echo=%d guest=running\n", (int)r,
           !!(tio.c_lflag & ICANON), !!(tio.c_lflag & ECHO));
    fflush(stdout);
    _exit(r == XU_RECORD_OK ? 0 : 23);
}

static void child(void)
{
    struct top_world w;
    struct xu_top_config cfg;
    struct xu_log log;
    struct termios tio;
    enum xu_record_result r;
    char why[256] = "";
    int fini;

    setenv("TERM", "xterm", 1);
    if (top_world_init(&w, 0) < 0)
        _exit(20);
    memset(&cfg, 0, sizeof(cfg));
    cfg.record.domain = "web1";
    cfg.record.frequency = 100;
    cfg.record.max_depth = 64;
    cfg.record.unwind = XU_UNWIND_AUTO;
    cfg.interval_s = 0.3;
    xu_log_init_stderr(&log, XU_LOG_WARN);
    w.env.stop = xu_top_signals_install();
    if (!xu_top_screen_usable())
        _exit(21);
    r = xu_top_screen_run(&cfg, &w.env, &log);
    fini = top_world_fini(&w, why, sizeof(why));
    if (tcgetattr(STDIN_FILENO, &tio) < 0)
        tio.c_lflag = 0;        /* hung up: nothing to restore any more */
    printf("\nTOP-EXIT result=%d icanon=%d echo=%d guest=%s\n", (int)r,
           !!(tio.c_lflag & ICANON), !!(tio.c_lflag & ECHO), fini == 0 ? "running" : why);
    fflush(stdout);
    _exit(r == XU_RECORD_OK && fini == 0 ? 0 : 23);
}

/* ---- the parent ---- */

static void start(struct pty *p)
{
    struct winsize ws = { .ws_row = 24, .ws_col = 80 };

    memset(p, 0, sizeof(*p));
    p->out = malloc(OUT_MAX + 1);
    assert_non_null(p->out);
    fflush(NULL);
    p->pid = forkpty(&p->fd, NULL, NULL, &ws);
    assert_true(p->pid >= 0);
    if (p->pid == 0 && every_guest)
        child_all();
    if (p->pid == 0)
        child();
}

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Read what is there (waiting up to ms); 0 at the end of output. */
static ssize_t pump(struct pty *p, int ms)
{
    struct pollfd pfd = { .fd = p->fd, .events = POLLIN };
    ssize_t n;

    if (poll(&pfd, 1, ms) <= 0)
        return -1;
    n = read(p->fd, p->out + p->len, OUT_MAX - p->len);
    if (n > 0) {
        p->len += (size_t)n;
        p->out[p->len] = '\0';
    }
    return n;
}

static void type(struct pty *p, const char *keys)
{
    assert_int_equal(write(p->fd, keys, strlen(keys)), (ssize_t)strlen(keys));
}

/* Wait for text in the output from offset from on, asking for a repaint
 * every half second; fails the test after 15 s. */
static void expect_screen(struct pty *p, size_t from, const char *text)
{
    double t0 = now_s(), last = t0;

    if (getenv("XU_TEST_VERBOSE"))
        fprintf(stderr, "waiting for '%s' (%zu bytes so far)\n", text, p->len);
    while (!memmem(p->out + from, p->len - from, text, strlen(text))) {
        if (now_s() - t0 > 15) {
            kill(p->pid, SIGKILL);
            waitpid(p->pid, NULL, 0);
            fail_msg("the screen never showed '%s'; its last bytes: %.300s", text,
                     p->out + (p->len > 300 ? p->len - 300 : 0));
        }
        if (now_s() - last > 0.5) {
            type(p, "\014");
            last = now_s();
        }
        pump(p, 100);
    }
}

/* The child's end: its exit status and its report line.  Reads all the
 * while (a child writing to a full terminal would never end); kills it
 * and fails after 15 s. */
static void expect_end(struct pty *p, const char *report)
{
    double t0 = now_s();
    pid_t got = 0;
    int status = 0;

    while (got == 0 && now_s() - t0 < 15) {
        pump(p, 50);
        got = waitpid(p->pid, &status, WNOHANG);
    }
    if (got == 0) {
        if (getenv("XU_TEST_VERBOSE")) {
            FILE *dump = fopen("/tmp/test_top_screen.out", "w");

            if (dump) {
                fwrite(p->out, 1, p->len, dump);
                fclose(dump);
            }
        }
        kill(p->pid, SIGKILL);
        waitpid(p->pid, &status, 0);
        fail_msg("the view did not end; its last bytes: %.300s",
                 p->out + (p->len > 300 ? p->len - 300 : 0));
    }
    while (pump(p, 50) > 0)
        ;
    if (!memmem(p->out, p->len, report, strlen(report)))
        fail_msg("no '%s' in the end of the output: %.300s", report,
                 p->out + (p->len > 300 ? p->len - 300 : 0));
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    close(p->fd);
    free(p->out);
}

static const char *const done = "TOP-EXIT result=0 icanon=1 echo=1 guest=running";

/* Every key, a resize, then Ctrl-C: the terminal restored, the guest running. */
static void test_keys_resize_and_ctrl_c(void **state)
{
    struct pty p;
    struct termios tio;
    struct winsize ws = { .ws_row = 30, .ws_col = 100 };
    size_t mark;

    (void)state;
    start(&p);
    expect_screen(&p, 0, "function_3");
    expect_screen(&p, 0, "sort: self | 100 Hz | window 0.3 s | 80x24");
    /* while the view runs, the terminal is in its modes */
    assert_int_equal(tcgetattr(p.fd, &tio), 0);
    assert_false(tio.c_lflag & ICANON);
    assert_false(tio.c_lflag & ECHO);

    mark = p.len;
    type(&p, "s");
    expect_screen(&p, mark, "sort: total |");
    mark = p.len;
    type(&p, "+");
    expect_screen(&p, mark, "| 200 Hz |");
    expect_screen(&p, mark, "(200 Hz asked)");
    mark = p.len;
    type(&p, "--");
    expect_screen(&p, mark, "| 50 Hz |");
    /* the first row (by total, ties by name: _start), one down: main_loop */
    mark = p.len;
    type(&p, "j\r");
    expect_screen(&p, mark, "callers of main_loop");
    expect_screen(&p, mark, "callees of main_loop");
    mark = p.len;
    type(&p, " ");
    expect_screen(&p, mark, "[PAUSED]");
    mark = p.len;
    type(&p, "h");
    expect_screen(&p, mark, "xen-uniprof top: keys");
    mark = p.len;
    type(&p, "x");
    expect_screen(&p, mark, "SELF%  TOTAL%  FUNCTION");

    mark = p.len;
    assert_int_equal(ioctl(p.fd, TIOCSWINSZ, &ws), 0);
    expect_screen(&p, mark, "100x30");

    type(&p, "\003");       /* Ctrl-C */
    expect_end(&p, done);
}

/* q quits; Ctrl-Z leaves the screen and takes it back, sampling going on. */
static void test_q_and_ctrl_z(void **state)
{
    struct pty p;
    size_t mark;

    (void)state;
    start(&p);
    expect_screen(&p, 0, "function_3");
    mark = p.len;
    type(&p, "\032");       /* Ctrl-Z */
    expect_screen(&p, mark, "\033[?1049l");     /* xterm's screen left (endwin) */
    expect_screen(&p, mark, "\033[?1049h");     /* and taken back */
    mark = p.len;
    expect_screen(&p, mark, "function_3");
    type(&p, "q");
    expect_end(&p, done);
}

/* A hang-up (the terminal closed): the run ends, the guest unpaused. */
static void test_hangup(void **state)
{
    struct pty p;
    int status;

    (void)state;
    start(&p);
    expect_screen(&p, 0, "function_3");
    close(p.fd);
    assert_int_equal(waitpid(p.pid, &status, 0), p.pid);
    /* 0: the view returned OK (SIGHUP ends it as a stop), the guest
     * running and nothing mapped (else 20-23) */
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    free(p.out);
}

/* --all: both domains with their own names, the keys of the one-domain
 * view refused on the last line, a domain's end there, q restoring the
 * terminal. */
static void test_every_guest(void **state)
{
    struct pty p;
    size_t mark;

    (void)state;
    every_guest = true;
    start(&p);
    every_guest = false;
    expect_screen(&p, 0, "web1:function_3");
    expect_screen(&p, 0, "web2:other_3");
    expect_screen(&p, 0, "xen-uniprof top --all: 2 domains");
    mark = p.len;
    type(&p, "s");
    expect_screen(&p, mark, "sort: total |");
    mark = p.len;
    type(&p, "+");
    expect_screen(&p, mark, "a frequency change: in one domain's view only");
    mark = p.len;
    type(&p, "\r");
    expect_screen(&p, mark, "callers and callees: in one domain's view only");
    /* web2 is destroyed after 150 ticks: it says so, and web1 goes on
     * alone.  On a loaded machine that may come before the keys above
     * were answered, so the line is looked for in all the output. */
    expect_screen(&p, 0, "domain 6 (web2) ended");
    mark = p.len;
    expect_screen(&p, mark, "xen-uniprof top --all: 1 domain,");
    type(&p, "q");
    expect_end(&p, done);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_guest),
        cmocka_unit_test(test_keys_resize_and_ctrl_c),
        cmocka_unit_test(test_q_and_ctrl_z),
        cmocka_unit_test(test_hangup),
    };

    signal(SIGPIPE, SIG_IGN);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
