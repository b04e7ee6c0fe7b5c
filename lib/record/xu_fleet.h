/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu_fleet.h - every running guest at once: one child process per domain.
 *
 * `xen-uniprof --all` and `xen-uniprof top --all` run the single-domain
 * path (xu_record_run(), xu_top_run()) once per domain, each in a process
 * of its own.  Each child has its own guardian, its own pause policy and
 * its own Xen handles, so what holds for one domain holds for each by
 * construction: a guest is never left paused (every exit path, signal and
 * error of its child unpauses what it paused), and a hostile guest can at
 * worst crash its own child, whose guardian unpauses it.
 *
 * The parent only lists domains, starts, watches and reaps children:
 *
 *  - Every running domain but dom0 gets a child, at most XU_FLEET_MAX at
 *    a time (one more is skipped with one warning).  A domain without a
 *    name yet (being built) is taken once it has one.
 *  - With follow, the list is read again every poll_s and new domains get
 *    a child; without it only the domains of the start are run, and the
 *    fleet ends with its last child.
 *  - A child's end (its domain destroyed, its run finished or failed) is
 *    reported through ops->ended with its exit status; the others go on.
 *  - When *stop becomes non-zero or ops->tick says so, every child gets
 *    SIGTERM (its run stops after the current tick and unpauses) and the
 *    parent waits for each.  The children also get SIGTERM when the parent
 *    dies (Linux: PR_SET_PDEATHSIG).
 */
#ifndef XU_FLEET_H
#define XU_FLEET_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "util/xu_log.h"
#include "xen/xu_domain.h"

/* Domains sampled at once: each is a process, two with its guardian, and
 * a sampling loop at the requested rate on a dom0 of a few vCPUs. */
#define XU_FLEET_MAX 64

struct xu_fleet_member {
    struct xu_domain_entry dom;
    /* The domain as the child's run asks for it: by its id, because by the
     * time the child looks, its name may be a newer domain's. */
    char id[16];
    pid_t pid;
    int fd;                     /* read end of the child's pipe; -1: none or closed */
    void *data;                 /* the caller's */
};

struct xu_fleet_ops {
    /* In the child, after fork: the whole run for m->dom; the return value
     * is the child's exit status.  fd is the pipe's write end (-1 without
     * pipes).  stop becomes non-zero on SIGTERM, SIGINT or SIGHUP (the
     * child's handlers, installed before this call): the run's stop flag.
     * Required. */
    int (*child)(void *ctx, const struct xu_fleet_member *m, int fd,
                 volatile sig_atomic_t *stop);
    /* Parent: m's child started.  May be NULL. */
    void (*started)(void *ctx, struct xu_fleet_member *m);
    /* Parent: n bytes from m's pipe.  Negative: the child is not trusted
     * any more; it is sent SIGTERM and its pipe closed.  Positive: stop the
     * fleet.  May be NULL. */
    int (*data)(void *ctx, struct xu_fleet_member *m, const char *buf, size_t n);
    /* Parent: m's child exited with status (128 + N: killed by signal N),
     * on its own (its pipe read to the end first) or, with stopped,
     * because the fleet was stopping (its pipe closed unread).  m->data is the caller's to free.
     * Required. */
    void (*ended)(void *ctx, struct xu_fleet_member *m, int status, bool stopped);
    /* Parent: every tick_s.  Non-zero: stop.  May be NULL. */
    int (*tick)(void *ctx);
};

struct xu_fleet_config {
    /* Domains.  NULL: xu_domdir_open(). */
    int (*domdir_open)(struct xu_domdir **out, unsigned int flags, struct xu_log *log);
    struct xu_log *log;                 /* NULL: stderr */
    volatile sig_atomic_t *stop;        /* may be NULL */
    bool pipes;                         /* a pipe from each child */
    bool follow;                        /* pick up new domains while running */
    double poll_s;                      /* > 0: the domain list's period */
    double tick_s;                      /* ops->tick's period; 0: poll_s */
    /* A stopping child is waited for this long, then killed (its guardian
     * unpauses its guest); 0: as long as it takes (a recording writing its
     * file). */
    double stop_wait_s;
    const struct xu_fleet_ops *ops;
    void *ctx;
};

/*
 * In a child: log for its run, every message after "domain ID (NAME): "
 * and on to up (the reason the last warning or error gave is kept there).
 */
void xu_fleet_child_log(struct xu_log_prefixed *log, struct xu_log *up,
                        const struct xu_fleet_member *m);

/*
 * Run the fleet until it is stopped (or, without follow, every child has
 * ended).  Every child started is reaped before it returns, and ended
 * called for it.  0, -EINVAL (cfg), or the domain list's first error
 * (-errno, logged).
 */
int xu_fleet_run(const struct xu_fleet_config *cfg);

#endif
