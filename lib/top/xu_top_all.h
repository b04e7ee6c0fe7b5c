/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu_top_all.h - `xen-uniprof top --all`: the live view of every running
 * guest, the domain as the outermost frame.
 *
 * Each domain is sampled by a child process of its own (xu_fleet.h)
 * running xu_top_run() exactly as `top DOMAIN` does (the domain's ELF
 * found by name, its guardian, the one pause policy); each window it
 * takes goes to the parent over a pipe (xu_top_wire.h), which merges the
 * domains' latest windows into one snapshot:
 *
 *  - A snapshot is shown once every domain has sent a window since the
 *    last one, or, when some are late (starting, or slow to find their
 *    ELF), XU_TOP_ALL_LATE times the interval after the last one; a
 *    domain without a fresh window is listed as waiting.
 *  - Shares are of all the snapshot's samples, every domain's: a row is a
 *    domain's function ("web1:function_3"), or the domain itself (its
 *    total share is its part of the samples).  Each domain keeps at most
 *    XU_TOP_WIRE_ROWS_MAX functions a window, its top ones by the sort.
 *  - New domains are picked up at the domain list's next reading (twice
 *    an interval); a domain whose child ends on its own (the domain was
 *    destroyed, or its run failed) is reported through view->ended and
 *    leaves the view; the others go on.
 *  - At most XU_FLEET_MAX domains at a time.
 */
#ifndef XU_TOP_ALL_H
#define XU_TOP_ALL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "record/xu_fleet.h"
#include "top/xu_top.h"
#include "top/xu_top_wire.h"

#define XU_TOP_ALL_LATE 1.5
/* A domain's process that has not ended this long after being asked is
 * killed (its guardian unpauses the guest). */
#define XU_TOP_ALL_STOP_WAIT_S 10.0

/* One domain of a snapshot. */
struct xu_top_all_domain {
    uint32_t domid;
    const char *name;
    const struct xu_top_wire_window *w;     /* NULL: no window since the last snapshot */
};

struct xu_top_all_row {
    const char *domain;
    const char *function;       /* NULL: the domain's own row */
    uint64_t self, total;       /* samples */
};

struct xu_top_all_snapshot {
    unsigned long index;        /* 1 for the first */
    double elapsed_s;           /* since the start */
    const struct xu_top_all_domain *domains;    /* by domid */
    size_t nr_domains;
    const struct xu_top_all_row *rows;          /* sorted */
    size_t n;
    uint64_t samples;           /* every domain's: the shares' 100 % */
};

struct xu_top_all_view {
    int (*show)(void *ctx, const struct xu_top_all_snapshot *s);   /* non-zero: stop */
    /* A domain's child ended with this exit status: on its own (the
     * domain shut down or was destroyed: XU_RECORD_DOMAIN_ENDED; or its
     * run failed), or, with stopped, because the view was stopping.
     * May be NULL. */
    void (*ended)(void *ctx, uint32_t domid, const char *name, int status, bool stopped);
    /* Every poll_s, when set: keys and the terminal; *sort may be changed
     * for the next snapshots.  Non-zero: stop.  May be NULL. */
    int (*poll)(void *ctx, enum xu_top_sort *sort);
    double poll_s;
    void *ctx;
};

struct xu_top_all_config {
    /* Each domain's run: the record options (domain, elf and live are set
     * per domain), the interval (each window, and the snapshots' period),
     * the snapshots to show (0: until stopped), the cache and the sort. */
    struct xu_top_config top;
    /* In each child before its run, when set: the world that child samples
     * (tests: a simulated domain).  0, or the child's exit status. */
    int (*child_env)(void *ctx, const struct xu_domain_entry *d, struct xu_record_env *env);
    /* In each child after its run, when set: the child's exit status from
     * the run's result (tests: check the simulated domain was let go). */
    int (*child_done)(void *ctx, const struct xu_domain_entry *d, int result);
    void *child_ctx;
};

/*
 * Sample every running guest but dom0 until cfg->top.iterations snapshots,
 * *env->stop or the view's word.  env's log, stop and domdir_open serve
 * the parent; every child gets env as it is (after child_env).  OK, or
 * FAILURE / PRIVILEGE when the domains cannot be listed.
 */
enum xu_record_result xu_top_all_run(const struct xu_top_all_config *cfg,
                                     const struct xu_record_env *env,
                                     const struct xu_top_all_view *view);

/*
 * A snapshot as plain text (the man page's TOP --all section):
 *
 *   xen-uniprof top: snapshot 2 at 2.00 s, 2 domains, 200 samples
 *   domain 5 (web1): 1 vCPU, rate 99.0/s (99 Hz asked), 100 samples, 100.0% complete
 *   domain 6 (web2): no symbols, functions are shown by address: WHY
 *   domain 7 (web3): waiting for its first window
 *
 *     SELF%  TOTAL%  FUNCTION
 *      30.0    30.0  web1:function_3
 *       0.0    50.0  web1
 *   ...
 */
void xu_top_all_print_batch(FILE *f, const struct xu_top_all_snapshot *s, size_t max_rows);

#endif
