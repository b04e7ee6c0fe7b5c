/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * truth.h - the ground-truth guests time themselves.
 *
 * A design split (10/30/60, ...) is what the programs aim at; under QEMU's
 * emulation on a busy host the real split drifts from it by a point or more.
 * So each program measures the time vCPU 0 really spends in each of its
 * functions and publishes the totals in guest_truth, which the lab reads from
 * guest memory before and after a profiling run (tests/lab/read_guest.c) and
 * judges the profile against (tests/lab/judges/truth.py).
 *
 * What is measured is the time the vCPU really executed in each function, not
 * wall time: the sampler pauses the guest at every sample, and that pause
 * lands in whatever function was interrupted, so a wall-clock truth would
 * partly count the sampler's own samples and agree with any profile.  The
 * timed loop reads the cycle counter (TSC; CNTVCT on arm64) every TRUTH_TICK
 * iterations, a microsecond or so, and a step longer than gap_cycles (many
 * times the usual one) is a gap: the vCPU was not executing, because Xen
 * paused or descheduled it, or because the host took the CPU from QEMU,
 * which neither Xen nor the guest can tell from running (both count it as
 * running) but which a sampler sees only once, when it resumes.  A function's
 * executed time is its cycles minus its gaps.
 *
 * Xen's runstate area is read too: the time it accounted as not running
 * (runnable, blocked, offline) within the same intervals, and in total, for
 * the judges' cross-check and for hcall's blocked time.  The guest never
 * converts between its cycles and Xen's nanoseconds: the judge finds the
 * ratio from the totals (the guest's own pvclock was seen up to a second off
 * Xen's time under TCG).
 *
 * Reading the clocks costs time too: the sample taken during a read lands on
 * the function, while an interval holds about one of its two end reads.
 * read_cycles is the measured cost of one read and calls[] says how often
 * each slot paid it, so the judge can move that time where a sampler sees it.
 *
 * Layout: naturally aligned 64-bit words, read by a host-side Python judge
 * (tests/lab/judges/truth.py); bump TRUTH_VERSION on any change.
 */
#ifndef TRUTH_H
#define TRUTH_H

#include <stdint.h>

#include "guest.h"

#define TRUTH_MAGIC   0x3148545552545558ULL     /* "XUTRUTH1", little-endian */
#define TRUTH_VERSION 3
#define TRUTH_SLOTS   8         /* slot N: function_N; slot 0 is never timed */
#define TRUTH_SLOT_BLOCK 7      /* hcall: the SCHEDOP_block calls of block_for */
#define TRUTH_SLOT_UPCALL 6     /* hcall: the work of each event upcall */
#define TRUTH_TICK    256       /* loop iterations between two cycle readings */

struct guest_truth {
    uint64_t magic;
    uint64_t version;
    uint64_t ok;                /* 1 once the runstate area is registered */
    uint64_t read_cycles;       /* cost of one clock read (cycles) */
    uint64_t gap_cycles;        /* a longer step between two readings is a gap */
    /* Per slot, summed over its timed intervals: */
    uint64_t cycles[TRUTH_SLOTS];       /* cycle counter deltas */
    uint64_t gaps[TRUTH_SLOTS];         /* gaps within them (cycles) */
    uint64_t notrun_ns[TRUTH_SLOTS];    /* Xen's not-running time within them */
    uint64_t calls[TRUTH_SLOTS];        /* intervals (two clock reads each) */
    /* At the last clock read, for the totals over any window: */
    uint64_t now_cycles;
    uint64_t now_notrun_ns;     /* runnable + blocked + offline so far */
    uint64_t now_xen_ns;        /* all four runstate times so far */
    uint64_t now_blocked_ns;    /* blocked so far */
    uint64_t now_offline_ns;    /* offline (paused, by the sampler too) so far */
    uint64_t reads;             /* clock reads so far */
};

extern volatile struct guest_truth guest_truth;

/* Register vCPU 0's runstate area, calibrate the read cost and the gap.  Call
 * once, from the boot code on vCPU 0, before main(). */
void truth_init(void);

/* Xen's runstate area (xen/include/public/vcpu.h): times in ns of Xen's
 * system time, updated by Xen whenever the vCPU changes state, so never while
 * it runs.  No explicit padding after state: the compiler's alignment of a
 * 64-bit member is the layout Xen writes for each guest width (8 on x86-64
 * and arm, so 4 bytes of padding; 4 on i386, so none: Xen's compat layout
 * for a 32-bit x86 guest). */
struct truth_runstate {
    int32_t state;
    uint64_t state_entry_time;
    uint64_t time[4];           /* running, runnable, blocked, offline */
};
extern volatile struct truth_runstate truth_runstate;

static inline __attribute__((always_inline)) uint64_t truth_notrun_ns(void)
{
    return truth_runstate.time[1] + truth_runstate.time[2] + truth_runstate.time[3];
}

/* An interval in progress. */
struct truth_mark {
    uint64_t cycles, notrun_ns;
    uint64_t last, gap;         /* the last reading, the gaps so far */
};

/* Inline, so the reads are the timed function's own code, as a sampler sees
 * them (read_cycles above). */
static inline __attribute__((always_inline)) void truth_begin(struct truth_mark *m)
{
    m->notrun_ns = truth_notrun_ns();
    m->cycles = m->last = guest_cycles();
    m->gap = 0;
}

static inline __attribute__((always_inline)) void truth_tick(struct truth_mark *m)
{
    uint64_t c = guest_cycles();

    if (c - m->last > guest_truth.gap_cycles)
        m->gap += c - m->last;
    m->last = c;
}

static inline __attribute__((always_inline)) void truth_end(struct truth_mark *m,
                                                            unsigned int slot)
{
    truth_tick(m);
    uint64_t n = truth_notrun_ns();

    guest_truth.cycles[slot] += m->last - m->cycles;
    guest_truth.gaps[slot] += m->gap;
    guest_truth.notrun_ns[slot] += n - m->notrun_ns;
    guest_truth.calls[slot]++;
    guest_truth.now_cycles = m->last;
    guest_truth.now_notrun_ns = n;
    guest_truth.now_xen_ns = n + truth_runstate.time[0];
    guest_truth.now_blocked_ns = truth_runstate.time[2];
    guest_truth.now_offline_ns = truth_runstate.time[3];
    guest_truth.reads += 2;
}

/* n iterations of the work loop, with a cycle reading every TRUTH_TICK into
 * the interval *m: TIMED_WORK's loop, and the one truth_init calibrates. */
#define TRUTH_LOOP(m, n)                                                \
    for (volatile unsigned long t_i_ = 0; t_i_ < (n); t_i_++)           \
        if ((t_i_ & (TRUTH_TICK - 1)) == TRUTH_TICK - 1)                \
            truth_tick(m)

/* The timed unit of work: WORK(units) charged to slot (function_<slot>), with
 * a cycle reading every TRUTH_TICK iterations.  For code that runs on vCPU 0
 * only: the runstate area is vCPU 0's. */
#define TIMED_WORK(slot, units)                                         \
    do {                                                                \
        struct truth_mark t_m_;                                         \
        unsigned long t_n_ = WORK_LENGTH(units);                        \
        truth_begin(&t_m_);                                             \
        TRUTH_LOOP(&t_m_, t_n_);                                        \
        truth_end(&t_m_, (slot));                                       \
    } while (0)

#endif
