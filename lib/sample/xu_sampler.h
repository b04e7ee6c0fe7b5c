/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu_sampler.h - the sampling loop.
 *
 * Ticks on absolute deadlines (CLOCK_MONOTONIC, TIMER_ABSTIME) at the given
 * frequency, so sleep jitter never accumulates into drift.  Each tick:
 *
 *     for each vCPU: scheduler state and CPU time (guest still running)
 *     -> pause -> for each online vCPU: registers, unwind into a
 *     preallocated PC buffer -> unpause -> intern the stacks into the
 *     profile, each with its vCPU's state and the CPU time it consumed
 *     since its previous tick
 *
 * The paused window holds only hypercalls and reads of already-mapped
 * frames (plus mapping a frame the caches have not seen yet).  Once pause
 * has succeeded, unpause is always called before the tick ends, whatever
 * failed in between; both go through xu_pause.h, whose retries and
 * messages apply.  An unpause that fails for good ends the loop with
 * XU_STOP_ERROR and stats.left_paused set.  A tick that starts more than
 * one period late counts as missed deadlines and the schedule skips ahead
 * instead of bursting.
 *
 * The loop stops at the duration, after max_ticks or max_samples, when *stop becomes
 * non-zero (set it from a signal handler: the current tick completes
 * first), when the progress callback returns non-zero, or when the domain
 * goes away or shuts down.
 */
#ifndef XU_SAMPLER_H
#define XU_SAMPLER_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "util/xu_hist.h"
#include "mem/xu_mem.h"
#include "profile/xu_profile.h"
#include "profile/xu_tasks.h"
#include "symbols/xu_btf.h"
#include "target/xu_pause.h"
#include "target/xu_target.h"
#include "util/xu_clock.h"
#include "unwind/xu_unwind.h"

enum xu_stop_reason {
    XU_STOP_NONE = 0,
    XU_STOP_DURATION,       /* the requested time elapsed */
    XU_STOP_TICKS,          /* max_ticks reached */
    XU_STOP_SIGNAL,         /* *stop was set */
    XU_STOP_DOMAIN_SHUTDOWN,/* the guest shut down, crashed or rebooted */
    XU_STOP_DOMAIN_GONE,    /* the domain no longer exists, or is dying */
    XU_STOP_ERROR,          /* a hypercall failed; see stats.error */
    XU_STOP_CALLER,         /* the progress callback asked to stop */
};

const char *xu_stop_reason_name(enum xu_stop_reason r);

struct xu_sampler_stats;
/* How the domain ended, as a verb phrase ("crashed", "was destroyed",
 * "powered off"...) for a domain that ended; the reason's name otherwise. */
const char *xu_stop_ending(const struct xu_sampler_stats *st);

struct xu_sampler_stats;

#define XU_SAMPLER_MAX_JITTER 0.9

struct xu_sampler_config {
    double frequency_hz;            /* ticks per second, > 0 */
    /*
     * When set, read after each progress call: a new figure (within the
     * bounds frequency_hz has; others are ignored) is the frequency from
     * the next tick on, the schedule restarting from the tick just taken
     * (a live view's faster and slower).  frequency_hz stays the start's.
     */
    const double *frequency_now;
    /*
     * 0 to XU_SAMPLER_MAX_JITTER: each tick comes a random time after the
     * previous one, uniform in [1 - jitter, 1 + jitter) periods, so that a
     * guest whose own work repeats at about the sampling period cannot stay
     * in step with it (the samples would then land on the same few points of
     * its cycle).  The rate stays frequency_hz on average.  0: strictly
     * periodic.
     */
    double jitter;
    double duration_s;              /* <= 0: until stopped */
    uint64_t max_ticks;             /* 0: no limit */
    uint64_t max_samples;           /* stop once this many stacks were recorded; 0: no limit */
    unsigned int max_depth;         /* frames per stack, 1..XU_MAX_DEPTH_LIMIT */
    const struct xu_unwinder_ops *unwinder;  /* NULL: frame pointers */
    const void *unwinder_ctx;   /* the unwinder's env (struct xu_unwind_env), may be NULL */
    volatile sig_atomic_t *stop;    /* may be NULL */
    /* Called between ticks (guest running) at most every progress_interval_s.
     * Non-zero ends the loop there (XU_STOP_CALLER), as *stop would. */
    int (*progress)(void *ctx, const struct xu_sampler_stats *st);
    void *progress_ctx;
    double progress_interval_s;
    /* No sleeping between ticks: sample back to back (benchmarks, tests). */
    int no_sleep;
    /*
     * Wait for each deadline by spinning on the clock, never sleeping: the
     * sampler keeps one dom0 vCPU busy for the whole run, and in exchange
     * no tick waits on a timer interrupt.  Where timer interrupts are
     * delivered late and together (an emulated host), a sleeping sampler
     * wakes with the guest's own timer events and pauses it before their
     * handlers run, so short interrupt handlers are under-sampled.  Only
     * for a dom0 vCPU with a physical CPU to itself: on a shared CPU the
     * spin is the guest's time.
     */
    bool spin;
    /*
     * The measurement of docs/performance.md, not a mode to profile with:
     * never pause the domain; each register read still stops its vCPU
     * inside Xen for the copy, and the stack is then read while the guest
     * runs, so a walk can mix frames of different moments.
     */
    bool no_pause;
    /*
     * The pause handle (xu_pause.h) shared with whoever else pauses this
     * target and, through its state word, with the guardian.  NULL: the
     * sampler makes its own, with no state word.
     */
    struct xu_pause *pause;
    /* Time (xu_clock.h); NULL: CLOCK_MONOTONIC. */
    const struct xu_clock *clock;
    /*
     * A Linux guest's task layout (xu_btf.h) and the recording's task
     * table, both or neither.  With them every sample names its task: the
     * current task is read while the guest is paused (xu_task_read.h),
     * interned after the unpause, and the stack gets xu_pc_task(i) as its
     * outermost frame; a sample that found its vCPU in user mode is
     * XU_PC_USER alone under it (its walk counts as reaching a root).
     */
    const struct xu_linux_task_layout *task_layout;
    struct xu_tasks *tasks;
};

/* One vCPU over the run: ticks by scheduler state (a tick counts for every
 * vCPU, sampled or not), and Xen's CPU time at its first and last read. */
struct xu_vcpu_tally {
    uint64_t ticks[XU_VSTATE__COUNT];
    /* Those ticks' lateness (xu_sampler_stats.late_ns), summed per state: a
     * sampler whose ticks come later in one state than in another moves
     * samples from that state into whatever follows it. */
    uint64_t late_ns[XU_VSTATE__COUNT];
    /* Those ticks' paused windows (xu_sampler_stats.paused_ns), summed per
     * state: time no sample falls in, which goes with the state its tick
     * read.  Xen counts a paused blocked vCPU as blocked and a paused
     * running one as offline. */
    uint64_t paused_ns[XU_VSTATE__COUNT];
    uint64_t cpu_first_ns, cpu_last_ns;
    bool cpu_seen;              /* cpu_*_ns are valid: a state read succeeded */
};

struct xu_sampler_stats {
    uint64_t ticks;                 /* pause/unpause windows */
    uint64_t samples;               /* vCPU stacks recorded */
    uint64_t missed_deadlines;
    uint64_t paused_by_other_ticks; /* deadlines met while someone else (an admin,
                                     * the toolstack) held the domain paused:
                                     * nothing sampled, not in ticks */
    uint64_t regs_failures;         /* vCPU register reads that failed */
    uint64_t hypercalls;            /* calls into Xen made by the ticks (states, pause,
                                     * registers, unpause; a multicall counts one) */
    uint64_t batched_ticks;         /* ticks that paused and read in one call */
    uint64_t intern_failures;       /* stacks lost to memory exhaustion */
    uint64_t tasks_unknown;         /* samples whose task could not be read (task_layout) */
    struct xu_hist paused_ns;       /* per tick: pause start to unpause end */
    struct xu_hist late_ns;         /* per tick: its start after its deadline (0 when
                                     * sampling back to back) */
    double elapsed_s;               /* first tick to last */
    enum xu_stop_reason reason;
    unsigned int shutdown_reason;   /* SHUTDOWN_* (xen/sched.h) for XU_STOP_DOMAIN_SHUTDOWN */
    int error;                      /* -errno for XU_STOP_ERROR */
    bool left_paused;               /* an unpause failed for good (already logged) */
    unsigned int vcpus;             /* max_vcpu_id + 1 at start */
    struct xu_vcpu_tally per_vcpu[XU_MAX_VCPUS];    /* [0, vcpus) */
};

/* Fills *stats (also on error).  Returns 0 when the loop ended normally
 * (any reason but XU_STOP_ERROR), otherwise the negative errno. */
int xu_sampler_run(struct xu_target *t, struct xu_mem *m, struct xu_profile *p,
                   const struct xu_sampler_config *cfg, struct xu_sampler_stats *stats);

#endif
