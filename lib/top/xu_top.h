/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu_top.h - `xen-uniprof top`: a live view of where a domain spends its
 * time, refreshed while sampling goes on.
 *
 * The record run (lib/record/) does everything a recording does up to the
 * sampler (domain by name, backend, ELF, unwinder, guardian, the one pause
 * policy) and, in its live mode, hands the samples over between ticks,
 * with the guest running.  This folder turns them into snapshots:
 *
 *  - The window is fixed: a snapshot shows the samples of the last refresh
 *    interval, and only those (no decay): after each snapshot the profile
 *    is emptied (xu_profile_clear()), so memory is bounded by one
 *    interval's distinct stacks, whatever the run's length.  A window ends
 *    at the first moment between ticks at or after its start plus the
 *    interval, so it holds the ticks of (start, end], the first one also
 *    the tick at 0.
 *  - Addresses are resolved once each, outside the paused window, through
 *    the symboliser, and kept in a bounded cache across windows
 *    (struct xu_top_symcache): a long run resolves only the addresses it
 *    has not seen lately.
 *  - A function's self share is the share of samples in which it is the
 *    innermost frame; its total share the share of samples in which it
 *    appears at all (once per sample, however deep its recursion).
 *    Shares are of the window's samples (every vCPU's stack counts one).
 */
#ifndef XU_TOP_H
#define XU_TOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "profile/xu_profile.h"
#include "record/xu_record.h"
#include "symbols/xu_symbols.h"
#include "util/xu_hist.h"

/* ---- the bounded cache of resolved addresses ---- */

#define XU_TOP_DEFAULT_CACHE 65536      /* addresses */

struct xu_top_symcache;
struct xu_tasks;

struct xu_top_symcache_stats {
    size_t entries;             /* addresses cached now */
    size_t max_entries;
    uint64_t resolved;          /* addresses resolved since the start */
    uint64_t evictions;         /* times the cache was emptied to make room */
};

/*
 * A cache over st (NULL: every address is shown in hex) of at most
 * max_entries addresses (0: XU_TOP_DEFAULT_CACHE), except while one window
 * alone has more distinct addresses, which are then all kept until the
 * next fill.  flags: XU_SYMBOLIZER_RAW_NAMES to keep names as the ELF
 * spells them.  0 or -ENOMEM.
 */
int xu_top_symcache_new(struct xu_top_symcache **out, const struct xu_symtab *st,
                        size_t max_entries, unsigned int flags);
void xu_top_symcache_free(struct xu_top_symcache *c);
/*
 * Make the n sorted, distinct addrs (xu_profile_unique_addrs()) resolvable:
 * the ones not cached are resolved, each once, with the symboliser.  When
 * they do not fit beside the cached ones, the cache is emptied first, and
 * the names it gave out before are invalid.  0, -EINVAL (not sorted) or
 * -ENOMEM.
 */
int xu_top_symcache_fill(struct xu_top_symcache *c, const uint64_t *addrs, size_t n);
/* The function's name for a filled address, or NULL. */
const char *xu_top_symcache_name(const struct xu_top_symcache *c, uint64_t addr);
/* A Linux guest's samples name their task: the recording's table (NULL:
 * none), which must outlive the cache. */
void xu_top_symcache_set_tasks(struct xu_top_symcache *c, const struct xu_tasks *tasks);
/* The name of a pseudo-frame (xu_pc_is_pseudo()): "[upcall]", "[user]", a
 * task's "[task] comm/pid" or "[idle]"; valid as long as the cache. */
const char *xu_top_symcache_pseudo_name(const struct xu_top_symcache *c, uint64_t pc);
void xu_top_symcache_get_stats(const struct xu_top_symcache *c,
                               struct xu_top_symcache_stats *out);

/* ---- a window's functions ---- */

enum xu_top_sort {
    XU_TOP_SORT_SELF = 0,       /* self, then total, then name */
    XU_TOP_SORT_TOTAL,          /* total, then self, then name */
};

struct xu_top_row {
    const char *name;           /* owned by the cache (valid until its next fill) */
    uint64_t self, total;       /* samples */
    uint64_t stamp;             /* internal: the last stack that counted it */
};

/* Functions by name; zero-initialise, then build as often as needed. */
struct xu_top_table {
    struct xu_top_row *rows;
    size_t n;
    uint64_t samples;           /* the samples aggregated (the shares' 100 %) */
    /* internal */
    size_t cap;
    size_t *slots;              /* index + 1 into rows, 0: free */
    unsigned int slot_bits;
};

/*
 * Every stored stack of p into t (emptied first): each frame's function by
 * its name in c (the upcall marker is "[upcall]"; an address c cannot name
 * is "[unknown]").  0 or -ENOMEM.
 */
int xu_top_table_build(struct xu_top_table *t, const struct xu_profile *p,
                       const struct xu_top_symcache *c);
void xu_top_table_sort(struct xu_top_table *t, enum xu_top_sort by);
void xu_top_table_dispose(struct xu_top_table *t);

/*
 * The callers (the frame just outside it) and callees (just inside) of the
 * function named name in p, each counted once per sample it appears in:
 * a row's self is 0 and its total the samples in which that function
 * called name (callers) or was called by it (callees); each table's
 * samples are the samples in which name appears.  0 or -ENOMEM.
 */
int xu_top_relatives(const struct xu_profile *p, const struct xu_top_symcache *c,
                     const char *name, struct xu_top_table *callers,
                     struct xu_top_table *callees);

/* ---- snapshots ---- */

struct xu_top_snapshot {
    unsigned long index;        /* 1 for the first */
    uint32_t domid;
    const char *label;          /* the domain's name */
    unsigned int vcpus;
    const char *backend;
    double frequency;           /* Hz asked for, at the window's end */
    double elapsed_s;           /* since sampling started, at the window's end */
    double window_s;            /* the window's length */
    double rate;                /* ticks per second achieved in the window (the
                                 * first window's tick at 0 only opens it) */
    uint64_t ticks;             /* in the window */
    uint64_t missed;            /* deadlines missed in the window */
    uint64_t paused_by_other;   /* deadlines the domain was paused by someone
                                 * else (xl pause): nothing sampled then */
    uint64_t samples;           /* stacks in the window */
    uint64_t complete;          /* of which complete (xu_walk_complete(), vouched) */
    uint64_t paused_median_ns;  /* the window's ticks, pause to unpause */
    bool symbols;               /* names come from the ELF (else addresses) */
    const struct xu_top_table *table;   /* sorted */
    /* valid only during the view's show(): for callers and callees */
    const struct xu_profile *profile;
    const struct xu_top_symcache *cache;
};

/*
 * A snapshot as plain text, the batch mode's format (the man page's TOP
 * section):
 *
 *   xen-uniprof top: snapshot 2 at 2.00 s, domain 5 (web1), 1 vCPU
 *   rate 100.0/s (100 Hz asked), 0 missed, paused median 12.0 us, 100 samples, 100.0% complete
 *
 *     SELF%  TOTAL%  FUNCTION
 *      60.0    60.0  function_3
 *   ...
 *   <empty line>
 *
 * A line "paused by someone else at N deadlines (xl pause?): nothing
 * sampled then" follows the rate line when that happened in the window,
 * and "no symbols: functions are shown by address" without an ELF.
 * Rows as sorted, at most max_rows of them (0: all), then a line
 * "  (N more)" when some were left out.
 */
void xu_top_print_batch(FILE *f, const struct xu_top_snapshot *s, size_t max_rows);

/* ---- the run ---- */

struct xu_top_config {
    struct xu_record_config record;     /* the domain, backend, ELF, rate, unwinder
                                         * (record.live is set by xu_top_run()) */
    double interval_s;                  /* window and refresh, > 0 */
    unsigned long iterations;           /* snapshots, then return; 0: until stopped */
    size_t cache_entries;               /* 0: XU_TOP_DEFAULT_CACHE */
    enum xu_top_sort sort;              /* the table's initial order */
};

/* How a snapshot is shown: plain text on a stream, or a terminal UI. */
struct xu_top_view {
    /* A window ended.  Non-zero: stop sampling (result OK). */
    int (*show)(void *ctx, const struct xu_top_snapshot *s);
    /* Between ticks (guest running) every poll_s, when set: keys and the
     * terminal.  *sort may be changed for the next snapshots, *frequency_hz
     * for the next ticks (within the sampler's bounds, 0 to 1 MHz).
     * Non-zero: stop sampling (result OK). */
    int (*poll)(void *ctx, enum xu_top_sort *sort, double *frequency_hz);
    double poll_s;              /* <= 0: only at window ends */
    void *ctx;
};

/*
 * Sample cfg->record.domain and show a snapshot every interval until
 * cfg->iterations, *env->stop, the view's word, or the domain's end
 * (XU_RECORD_DOMAIN_ENDED).  The results are xu_record_run()'s.
 */
enum xu_record_result xu_top_run(const struct xu_top_config *cfg,
                                 const struct xu_record_env *env,
                                 const struct xu_top_view *view);

#endif
