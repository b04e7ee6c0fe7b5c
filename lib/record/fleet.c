/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fleet.c - one child process per running domain, started, watched and
 * reaped by the parent (see xu_fleet.h).
 *
 * The parent never touches a guest: it lists domains, forks, reads pipes
 * and waits.  Everything that pauses a guest happens in that guest's
 * child, behind that child's guardian.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "record/xu_fleet.h"
#include "util/xu_clock.h"

/* Domains already run and still listed: not started again (a domain whose
 * child failed, or that lingers shut down, is not retried every poll). */
#define DONE_MAX 1024
/* Reads of a pipe per wake-up: a chatty child cannot starve the others. */
#define READS_PER_WAKE 16

struct fleet {
    const struct xu_fleet_config *cfg;
    struct xu_log *log;
    struct xu_domdir *dir;
    struct xu_fleet_member m[XU_FLEET_MAX];
    size_t n;
    uint32_t done[DONE_MAX];
    size_t nr_done;
    bool warned_full, warned_list;
    bool stop_asked;            /* a data callback said so */
};

static bool is_done(const struct fleet *f, uint32_t domid)
{
    size_t i;

    for (i = 0; i < f->nr_done; i++)
        if (f->done[i] == domid)
            return true;
    return false;
}

static void mark_done(struct fleet *f, uint32_t domid)
{
    if (f->nr_done == DONE_MAX) {
        /* forget the oldest: at worst it is started once more */
        memmove(f->done, f->done + 1, (DONE_MAX - 1) * sizeof(*f->done));
        f->nr_done--;
    }
    f->done[f->nr_done++] = domid;
}

/* Keep only the done domains still listed. */
static void prune_done(struct fleet *f, const struct xu_domain_list *l)
{
    size_t i, j, k = 0;

    for (i = 0; i < f->nr_done; i++) {
        for (j = 0; j < l->n && l->v[j].domid != f->done[i]; j++)
            ;
        if (j < l->n)
            f->done[k++] = f->done[i];
    }
    f->nr_done = k;
}

static bool is_member(const struct fleet *f, uint32_t domid)
{
    size_t i;

    for (i = 0; i < f->n; i++)
        if (f->m[i].dom.domid == domid)
            return true;
    return false;
}

static const int stop_signals[] = { SIGTERM, SIGINT, SIGHUP };
static volatile sig_atomic_t child_stop;

static void on_child_stop(int sig)
{
    child_stop = sig;
}

/* mask: the signal mask to restore once the handlers are in */
static void child_main(struct fleet *f, struct xu_fleet_member *m, int fd, pid_t parent,
                       const sigset_t *mask)
{
    struct sigaction sa;
    size_t i;
    int status;

    /* no SA_RESTART: the sampler's sleep returns early */
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_child_stop;
    sigemptyset(&sa.sa_mask);
    for (i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
        sigaction(stop_signals[i], &sa, NULL);
    signal(SIGPIPE, SIG_IGN);   /* a parent gone is a write error */
    sigprocmask(SIG_SETMASK, mask, NULL);

#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGTERM);
#endif
    if (getppid() != parent)
        _exit(1);
    /* the siblings' pipes are theirs: their ends must come with them */
    for (i = 0; i < f->n; i++)
        if (f->m[i].fd >= 0)
            close(f->m[i].fd);
    status = f->cfg->ops->child(f->cfg->ctx, m, fd, &child_stop);
    fflush(NULL);
    _exit(status & 0xff);
}

void xu_fleet_child_log(struct xu_log_prefixed *log, struct xu_log *up,
                        const struct xu_fleet_member *m)
{
    char prefix[sizeof(log->prefix)];

    snprintf(prefix, sizeof(prefix), "domain %" PRIu32 " (%.100s): ", m->dom.domid, m->dom.name);
    xu_log_prefixed_init(log, up, prefix);
}

static void start(struct fleet *f, const struct xu_domain_entry *d)
{
    struct xu_fleet_member *m = &f->m[f->n];
    int fds[2] = { -1, -1 };
    pid_t pid, parent = getpid();
    sigset_t hold, old;
    size_t i;

    memset(m, 0, sizeof(*m));
    m->dom = *d;
    snprintf(m->id, sizeof(m->id), "%" PRIu32, d->domid);
    m->fd = -1;
    if (f->cfg->pipes && pipe2(fds, O_CLOEXEC) < 0) {
        xu_error(f->log, "domain %" PRIu32 " (%s): pipe: %s", d->domid, d->name, strerror(errno));
        return;
    }
    fflush(NULL);       /* nothing buffered is written twice */
    /* a stop signal before the child's handlers are in would kill it
     * outright: held until then */
    sigemptyset(&hold);
    for (i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
        sigaddset(&hold, stop_signals[i]);
    sigprocmask(SIG_BLOCK, &hold, &old);
    pid = fork();
    if (pid != 0)
        sigprocmask(SIG_SETMASK, &old, NULL);
    if (pid < 0) {
        xu_error(f->log, "domain %" PRIu32 " (%s): fork: %s", d->domid, d->name, strerror(errno));
        if (fds[0] >= 0) {
            close(fds[0]);
            close(fds[1]);
        }
        return;
    }
    if (pid == 0) {
        if (fds[0] >= 0)
            close(fds[0]);
        child_main(f, m, fds[1], parent, &old);
    }
    if (fds[1] >= 0) {
        close(fds[1]);
        fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK);
    }
    m->pid = pid;
    m->fd = fds[0];
    f->n++;
    mark_done(f, d->domid);
    if (f->cfg->ops->started)
        f->cfg->ops->started(f->cfg->ctx, m);
}

/* Read the domain list and start a child for each new running guest. */
static int refresh(struct fleet *f)
{
    struct xu_domain_list l;
    size_t i;
    int rc;

    xu_domain_list_init(&l);
    rc = xu_domdir_list(f->dir, &l);
    if (rc < 0) {
        xu_domain_list_dispose(&l);
        return rc;
    }
    prune_done(f, &l);
    for (i = 0; i < l.n; i++) {
        const struct xu_domain_entry *d = &l.v[i];

        if (d->domid == 0 || !d->name[0] || is_member(f, d->domid) || is_done(f, d->domid))
            continue;
        if (f->n == XU_FLEET_MAX) {
            if (!f->warned_full)
                xu_warn(f->log, "more than %d domains: domain %" PRIu32 " (%s) and later ones "
                        "are not sampled", XU_FLEET_MAX, d->domid, d->name);
            f->warned_full = true;
            continue;
        }
        start(f, d);
    }
    xu_domain_list_dispose(&l);
    return 0;
}

static void close_pipe(struct xu_fleet_member *m)
{
    if (m->fd >= 0)
        close(m->fd);
    m->fd = -1;
}

/* What m's pipe holds now, at most READS_PER_WAKE reads (all with drain). */
static void read_pipe(struct fleet *f, struct xu_fleet_member *m, bool drain)
{
    char buf[4096];
    int i, rc;

    for (i = 0; m->fd >= 0 && (drain || i < READS_PER_WAKE); i++) {
        ssize_t r = read(m->fd, buf, sizeof(buf));

        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0 && errno == EAGAIN)
            return;
        if (r <= 0) {
            close_pipe(m);
            return;
        }
        rc = f->cfg->ops->data ? f->cfg->ops->data(f->cfg->ctx, m, buf, (size_t)r) : 0;
        if (rc < 0) {
            /* the parser refused it: this child is not heard again */
            kill(m->pid, SIGTERM);
            close_pipe(m);
        } else if (rc > 0) {
            f->stop_asked = true;
        }
    }
}

static int exit_status(int ws)
{
    if (WIFEXITED(ws))
        return WEXITSTATUS(ws);
    return WIFSIGNALED(ws) ? 128 + WTERMSIG(ws) : 1;
}

static void remove_member(struct fleet *f, size_t i, int ws, bool stopped)
{
    struct xu_fleet_member m = f->m[i];

    read_pipe(f, &m, true);
    close_pipe(&m);
    f->m[i] = f->m[--f->n];
    f->cfg->ops->ended(f->cfg->ctx, &m, exit_status(ws), stopped);
}

/* Reap the children that ended. */
static void reap(struct fleet *f)
{
    size_t i = 0;
    int ws;

    while (i < f->n) {
        if (waitpid(f->m[i].pid, &ws, WNOHANG) == f->m[i].pid)
            remove_member(f, i, ws, false);
        else
            i++;
    }
}

/* Wait for pid until the deadline (0: none), then kill it: its wait status. */
static int wait_bounded(pid_t pid, double deadline)
{
    struct timespec nap = { 0, 10 * 1000 * 1000 };
    int ws = 0;

    if (!deadline)
        return waitpid(pid, &ws, 0) == pid ? ws : 0;
    while (waitpid(pid, &ws, WNOHANG) == 0) {
        if (xu_clock_now_s(NULL) >= deadline) {
            kill(pid, SIGKILL);
            if (waitpid(pid, &ws, 0) < 0)
                ws = 0;
            break;
        }
        nanosleep(&nap, NULL);
    }
    return ws;
}

/* Stop every child: each stops after its current tick, unpauses, exits. */
static void stop_all(struct fleet *f)
{
    double deadline = f->cfg->stop_wait_s > 0 ? xu_clock_now_s(NULL) + f->cfg->stop_wait_s : 0;
    size_t i;

    /* What they would still say is not wanted, and a child blocked on a
     * full pipe must not wait for a reader: closed first. */
    for (i = 0; i < f->n; i++) {
        kill(f->m[i].pid, SIGTERM);
        close_pipe(&f->m[i]);
    }
    while (f->n) {
        int ws = wait_bounded(f->m[f->n - 1].pid, deadline);

        remove_member(f, f->n - 1, ws, true);
    }
}

static void wait_for_events(struct fleet *f, double timeout_s)
{
    struct pollfd pfd[XU_FLEET_MAX];
    struct xu_fleet_member *who[XU_FLEET_MAX];
    size_t i, k = 0;
    int r;

    for (i = 0; i < f->n; i++) {
        if (f->m[i].fd < 0)
            continue;
        pfd[k].fd = f->m[i].fd;
        pfd[k].events = POLLIN;
        pfd[k].revents = 0;
        who[k++] = &f->m[i];
    }
    r = poll(pfd, k, timeout_s > 0 ? (int)(timeout_s * 1000) + 1 : 0);
    for (i = 0; r > 0 && i < k; i++)
        if (pfd[i].revents)
            read_pipe(f, who[i], false);
}

/* The next time of a period p that was due at *due, past now. */
static void advance(double *due, double p, double now)
{
    *due = *due + p > now ? *due + p : now + p;
}

int xu_fleet_run(const struct xu_fleet_config *cfg)
{
    struct fleet *f = NULL;
    double next_list, next_tick, tick_s;
    int rc;

    if (!cfg || !cfg->ops || !cfg->ops->child || !cfg->ops->ended || !(cfg->poll_s > 0))
        return -EINVAL;
    f = calloc(1, sizeof(*f));
    if (!f)
        return -ENOMEM;
    f->cfg = cfg;
    f->log = cfg->log ? cfg->log : xu_log_default();
    tick_s = cfg->tick_s > 0 ? cfg->tick_s : cfg->poll_s;
    rc = (cfg->domdir_open ? cfg->domdir_open : xu_domdir_open)(&f->dir, 0, f->log);
    if (rc < 0)
        goto out;
    rc = refresh(f);
    if (rc < 0)
        goto out;
    next_list = xu_clock_now_s(NULL) + cfg->poll_s;
    next_tick = xu_clock_now_s(NULL) + tick_s;
    while (!(cfg->stop && *cfg->stop) && !f->stop_asked) {
        double now = xu_clock_now_s(NULL);

        if (now >= next_list) {
            if (cfg->follow && refresh(f) < 0 && !f->warned_list) {
                xu_warn(f->log, "cannot read the domain list: new domains are not picked up");
                f->warned_list = true;
            }
            advance(&next_list, cfg->poll_s, now);
        }
        if (now >= next_tick) {
            if (cfg->ops->tick && cfg->ops->tick(cfg->ctx))
                break;
            advance(&next_tick, tick_s, now);
        }
        reap(f);
        if (f->stop_asked || (!cfg->follow && !f->n))
            break;
        wait_for_events(f, (next_list < next_tick ? next_list : next_tick) - xu_clock_now_s(NULL));
    }
out:
    if (f->dir)
        xu_domdir_close(f->dir);
    stop_all(f);
    free(f);
    return rc;
}
