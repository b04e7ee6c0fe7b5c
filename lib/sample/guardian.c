/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * guardian.c - unpause the guest if the profiler dies while it is paused
 * (see xu_guardian.h for the protocol).
 *
 * The guardian is forked, not exec'd: it runs this file's code on its own
 * copy of the profiler's memory, touching nothing of it but the target it
 * opens itself and the shared state word.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sample/xu_guardian.h"
#include "target/xu_pause.h"

#define READY_TIMEOUT_MS 10000      /* opening a target takes milliseconds */
#define MSG_DONE 'D'
#define MAX_KEEP_FDS 8

struct xu_guardian {
    pid_t pid;
    int lifeline;                   /* write end; closing it wakes the guardian */
    volatile uint32_t *state;       /* the shared page */
};

static uint32_t load_state(volatile uint32_t *s)
{
    return __atomic_load_n(s, __ATOMIC_SEQ_CST);
}

/* Close every descriptor but those in keep (the child's view of the
 * profiler's files, Xen handles included, must not stay open here). */
static void close_other_fds(const int *keep, size_t nkeep)
{
    int fds[1024];
    size_t n = 0, i, k;
    DIR *dir;
    struct dirent *de;
    int fd, round;

    /* /proc lists what is open; collect, then close, a bounded batch at a
     * time (closing while reading the directory would skip entries). */
    for (round = 0; round < 64; round++) {
        dir = opendir("/proc/self/fd");
        if (!dir)
            break;
        n = 0;
        while ((de = readdir(dir)) && n < sizeof(fds) / sizeof(fds[0])) {
            if (de->d_name[0] < '0' || de->d_name[0] > '9')
                continue;
            fd = atoi(de->d_name);
            if (fd == dirfd(dir))
                continue;
            for (k = 0; k < nkeep && keep[k] != fd; k++)
                ;
            if (k == nkeep)
                fds[n++] = fd;
        }
        closedir(dir);
        for (i = 0; i < n; i++)
            close(fds[i]);
        if (n == 0)
            return;
    }
    if (round == 0) {
        /* No /proc: a bounded sweep. */
        for (fd = 0; fd < 65536; fd++) {
            for (k = 0; k < nkeep && keep[k] != fd; k++)
                ;
            if (k == nkeep)
                close(fd);
        }
    }
}

/* stdin and stdout onto /dev/null, so a reader of the profiler's stdout
 * sees end-of-file when the profiler ends, not when we do. */
static void null_stdio(void)
{
    int fd = open("/dev/null", O_RDWR);

    if (fd < 0)
        return;
    dup2(fd, 0);
    dup2(fd, 1);
    if (fd > 2)
        close(fd);
}

static void write_all(int fd, const void *buf, size_t len)
{
    const char *p = buf;

    while (len) {
        ssize_t r = write(fd, p, len);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return;
        p += r;
        len -= (size_t)r;
    }
}

/* Undo our pause if the profiler left one behind (xu_pause.h says how and
 * logs the one line).  Returns the exit code. */
static int recover(struct xu_target *t, uint32_t state, struct xu_log *log)
{
    return xu_pause_recover(t, state, log) < 0 ? 1 : 0;
}

/* Keep fd clear of 0..2, which null_stdio() is about to take over (a
 * profiler started with stdin closed hands out 0 for a pipe). */
static int above_stdio(int fd)
{
    int nfd;

    if (fd > 2)
        return fd;
    nfd = fcntl(fd, F_DUPFD, 3);
    close(fd);
    return nfd;
}

static void guardian_main(const struct xu_target_ops *ops, uint32_t domid,
                          volatile uint32_t *state, int lifeline, int ready,
                          struct xu_log *log)
{
    struct xu_target t;
    struct sigaction sa;
    struct xu_log quiet = *(log ? log : xu_log_default());
    int keep[3];
    int rc, code = 0;
    char c;

    /* The guardian opens the same Xen libraries as the profiler, whose
     * debug lines (handles, buffer counts) the profiler prints once: its
     * own would print each twice.  What it does is said at INFO and up. */
    if (quiet.min_level < XU_LOG_INFO)
        quiet.min_level = XU_LOG_INFO;
    log = &quiet;

    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = SIG_IGN;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    sigaction(SIGPIPE, &sa, NULL);
    sigaction(SIGTTOU, &sa, NULL);
    sa.sa_handler = SIG_DFL;
    sigaction(SIGCHLD, &sa, NULL);
    /* Out of the profiler's process group: a kill aimed at the group
     * (a shell's job control, timeout --kill-after) spares us. */
    setpgid(0, 0);

    lifeline = above_stdio(lifeline);
    ready = above_stdio(ready);
    keep[0] = 2;
    keep[1] = lifeline;
    keep[2] = ready;
    close_other_fds(keep, sizeof(keep) / sizeof(keep[0]));
    null_stdio();

    rc = xu_target_open(&t, ops, domid, log);
    write_all(ready, &rc, sizeof(rc));
    close(ready);
    if (rc < 0)
        _exit(2);

    for (;;) {
        ssize_t r = read(lifeline, &c, 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r == 1 && c == MSG_DONE && load_state(state) == XU_PAUSE_RUNNING)
            break;
        if (r == 1)
            continue;       /* "done" while paused: wait for the close */
        /* End of file (or a broken pipe): the profiler is gone. */
        code = recover(&t, load_state(state), log);
        break;
    }
    xu_target_close(&t);
    _exit(code);
}

int xu_guardian_start(struct xu_guardian **out, const struct xu_target_ops *ops,
                      uint32_t domid, volatile uint32_t **pause_state,
                      struct xu_log *log)
{
    struct xu_guardian *g = NULL;
    int lifeline[2] = { -1, -1 }, ready[2] = { -1, -1 };
    struct pollfd pfd;
    ssize_t r;
    int rc, child_rc = 0, status;
    bool logged = false;

    *out = NULL;
    *pause_state = NULL;
    g = calloc(1, sizeof(*g));
    if (!g) {
        rc = -ENOMEM;
        goto out;
    }
    g->pid = -1;
    g->lifeline = -1;
    g->state = mmap(NULL, sizeof(uint32_t), PROT_READ | PROT_WRITE,
                    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (g->state == MAP_FAILED) {
        g->state = NULL;
        rc = -errno;
        goto out;
    }
    *g->state = XU_PAUSE_RUNNING;
    /* Close-on-exec: a program we run (xl create) must not hold the
     * lifeline, or our death would go unnoticed while it lives. */
    if (pipe2(lifeline, O_CLOEXEC) < 0 || pipe2(ready, O_CLOEXEC) < 0) {
        rc = -errno;
        goto out;
    }
    g->pid = fork();
    if (g->pid < 0) {
        rc = -errno;
        goto out;
    }
    if (g->pid == 0) {
        close(lifeline[1]);
        close(ready[0]);
        guardian_main(ops, domid, g->state, lifeline[0], ready[1], log);
        _exit(3);   /* not reached */
    }
    close(lifeline[0]);
    lifeline[0] = -1;
    close(ready[1]);
    ready[1] = -1;
    g->lifeline = lifeline[1];
    lifeline[1] = -1;

    pfd.fd = ready[0];
    pfd.events = POLLIN;
    do {
        rc = poll(&pfd, 1, READY_TIMEOUT_MS);
    } while (rc < 0 && errno == EINTR);
    if (rc == 0) {
        xu_error(log, "the guardian process did not start in time");
        logged = true;
        rc = -ETIMEDOUT;
        goto out;
    }
    do {
        r = read(ready[0], &child_rc, sizeof(child_rc));
    } while (r < 0 && errno == EINTR);
    if (r != (ssize_t)sizeof(child_rc)) {
        xu_error(log, "the guardian process died while starting");
        logged = true;
        rc = -ECHILD;
        goto out;
    }
    if (child_rc < 0) {
        /* A Xen version mismatch: the child's open already wrote the one
         * line that names both versions and what to do. */
        if (child_rc != -EPROTO)
            xu_error(log, "the guardian process cannot attach to domain %u: %s",
                     (unsigned int)domid, strerror(-child_rc));
        logged = true;
        rc = child_rc;
        goto out;
    }
    *pause_state = g->state;
    *out = g;
    g = NULL;
    rc = 0;
out:
    if (rc < 0 && !logged)
        xu_error(log, "cannot start the guardian process that unpauses the guest if "
                 "xen-uniprof dies: %s", strerror(-rc));
    if (lifeline[0] >= 0)
        close(lifeline[0]);
    if (lifeline[1] >= 0)
        close(lifeline[1]);
    if (ready[0] >= 0)
        close(ready[0]);
    if (ready[1] >= 0)
        close(ready[1]);
    if (g) {
        if (g->lifeline >= 0)
            close(g->lifeline);
        if (g->pid > 0) {
            /* Nothing was paused yet: the child has nothing to guard. */
            kill(g->pid, SIGKILL);
            while (waitpid(g->pid, &status, 0) < 0 && errno == EINTR)
                ;
        }
        if (g->state)
            munmap((void *)g->state, sizeof(uint32_t));
        free(g);
    }
    return rc;
}

int xu_guardian_stop(struct xu_guardian *g)
{
    const char done = MSG_DONE;
    int status, rc = 0;
    pid_t r;

    if (!g)
        return 0;
    /* Only a clean state earns "done"; otherwise the close alone makes the
     * guardian check the domain and unpause it. */
    if (load_state(g->state) == XU_PAUSE_RUNNING)
        write_all(g->lifeline, &done, 1);
    close(g->lifeline);
    do {
        r = waitpid(g->pid, &status, 0);
    } while (r < 0 && errno == EINTR);
    if (r < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        rc = -ECHILD;
    munmap((void *)g->state, sizeof(uint32_t));
    free(g);
    return rc;
}

pid_t xu_guardian_pid(const struct xu_guardian *g)
{
    return g->pid;
}
