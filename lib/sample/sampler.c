/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sampler.c - the sampling loop (see xu_sampler.h for the contract).
 *
 * Everything the paused window needs is allocated before the first tick:
 * one PC buffer per vCPU and the register array.  Interning happens after
 * unpause.  The only way out of a tick between pause and unpause is
 * through the unpause, whatever failed.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sample/xu_sampler.h"
#include "sample/xu_task_read.h"

/* How often (in ticks, at least every this many seconds) to ask Xen whether
 * the domain still runs, when nothing else told us. */
#define ALIVE_CHECK_S 0.25

struct vcpu_buf {
    uint64_t *pcs;
    struct xu_unwind_result res;
    int have;                   /* a stack was captured this tick */
    enum xu_vstate state;       /* this tick's, read before the pause */
    uint64_t cpu_ns;            /* CPU time since the previous tick's read */
    uint64_t prev_cpu_ns;       /* Xen's cumulative figure at that read */
    bool have_prev;             /* prev_cpu_ns is valid */
    bool user;                  /* the vCPU was in user mode */
    bool task_known;            /* pid and comm were read (task_layout) */
    int32_t pid;
    char comm[XU_TASK_COMM];
};

const char *xu_stop_reason_name(enum xu_stop_reason r)
{
    switch (r) {
    case XU_STOP_NONE:            return "none";
    case XU_STOP_DURATION:        return "duration elapsed";
    case XU_STOP_TICKS:           return "sample count reached";
    case XU_STOP_SIGNAL:          return "interrupted";
    case XU_STOP_DOMAIN_SHUTDOWN: return "domain shut down";
    case XU_STOP_DOMAIN_GONE:     return "domain destroyed";
    case XU_STOP_ERROR:           return "error";
    case XU_STOP_CALLER:          return "stopped by the caller";
    }
    return "unknown";
}

static uint64_t now_ns(const struct xu_clock *c)
{
    return c->now_ns(c->ctx);
}

/*
 * Waiting for the next deadline.  A plain absolute sleep wakes late by the
 * kernel's timer slack and scheduling latency, tens of microseconds on
 * hardware.  So we sleep until shortly before the deadline, by the wake-up
 * latency measured so far (an exponentially weighted average), and spin
 * the rest, but never more than MAX_SPIN_NS: dom0 may share a physical CPU
 * with the guest, and a profiler that spins steals the very CPU time whose
 * use it measures (the guest then barely moves between samples and they
 * stop being independent; the lab saw shares off by 2-4 points with 2 ms
 * spins on a one-CPU host).  Where wake-ups are later than that (an
 * emulated or overloaded dom0), ticks are late and counted as missed
 * deadlines instead.  With xu_sampler_config.spin there is no sleep: the
 * whole wait is spun.  The spin ends early when *stop is set.
 */
#define MAX_SPIN_NS 50000ULL        /* 50 us */
#define SPIN_MARGIN_NS 5000ULL      /* sleep this much less than the estimate */

struct waiter {
    const struct xu_clock *clock;
    uint64_t late_ns;               /* estimated wake-up latency */
    bool spin;                      /* xu_sampler_config.spin: never sleep */
};

/* A spin-wait hint: lets a sibling hyperthread run and saves power. */
static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ volatile("yield" ::: "memory");
#endif
}

static void wait_until(struct waiter *w, uint64_t deadline_ns, volatile sig_atomic_t *stop)
{
    const struct xu_clock *c = w->clock;
    uint64_t now = now_ns(c), lead, target, woke;

    if (now >= deadline_ns)
        return;
    if (!xu_clock_is_real(c)) {
        /* A test's clock: its sleep is exact and spinning would never end. */
        c->sleep_until_ns(c->ctx, deadline_ns);
        return;
    }
    lead = w->late_ns + SPIN_MARGIN_NS;
    if (lead > MAX_SPIN_NS)
        lead = MAX_SPIN_NS;
    if (!w->spin && deadline_ns - now > lead) {
        target = deadline_ns - lead;
        c->sleep_until_ns(c->ctx, target);
        woke = now_ns(c);
        if (woke > target) {
            /* late_ns += (observed - late_ns) / 8 */
            uint64_t observed = woke - target;
            w->late_ns = w->late_ns + (observed > w->late_ns ? (observed - w->late_ns) / 8 : 0)
                         - (observed < w->late_ns ? (w->late_ns - observed) / 8 : 0);
        }
    }
    while (now_ns(c) < deadline_ns && !(stop && *stop))
        cpu_relax();
}

const char *xu_stop_ending(const struct xu_sampler_stats *st)
{
    if (st->reason == XU_STOP_DOMAIN_GONE)
        return "was destroyed";
    if (st->reason != XU_STOP_DOMAIN_SHUTDOWN)
        return xu_stop_reason_name(st->reason);
    /* The codes of xen/include/public/sched.h's SHUTDOWN_*. */
    switch (st->shutdown_reason) {
    case 0: return "powered off";
    case 1: return "rebooted";
    case 2: return "suspended";
    case 3: return "crashed";
    case 4: return "was stopped by Xen's watchdog";
    case 5: return "asked for a soft reset";
    default: return "shut down";
    }
}

/* Is the domain still worth sampling?  Sets *reason when not, and Xen's
 * SHUTDOWN_* code in *shutdown when it shut down. */
static int domain_alive(struct xu_target *t, enum xu_stop_reason *reason, unsigned int *shutdown)
{
    struct xu_domain_info info;
    int rc = xu_target_info(t, &info);

    if (rc == -ESRCH || (rc == 0 && info.dying)) {
        *reason = XU_STOP_DOMAIN_GONE;
        return 0;
    }
    if (rc == 0 && info.shutdown) {
        *reason = XU_STOP_DOMAIN_SHUTDOWN;
        *shutdown = info.shutdown_reason;
        return 0;
    }
    return 1;   /* other errors surface at the next pause */
}

/*
 * Each vCPU's scheduler state and CPU time, read here, at the start of the
 * tick and just before the pause, for two reasons: a paused vCPU is neither
 * running nor blocked in the sense a profile means (Xen reports what the
 * pause made of it), and reading it inside the paused window would make
 * the window longer by a hypercall per vCPU.  What remains is a race: the
 * state is some microseconds older than the registers (the rest of this
 * loop and the pause hypercall lie between), and a vCPU can block, wake or
 * be scheduled in that gap, so a few samples carry the state their vCPU
 * had just before.  The CPU time is read at the same moment, so a tick's
 * delta is the CPU time between two consecutive reads: the time up to
 * this sample, not to the exact instant of the registers.  A vCPU's first
 * tick, and the tick after a failed read, have no previous read and weigh 0.
 */
static void read_states(struct xu_target *t, struct vcpu_buf *bufs, unsigned int nr_vcpus)
{
    struct xu_vcpu_state vs;
    unsigned int v;

    for (v = 0; v < nr_vcpus; v++) {
        struct vcpu_buf *b = &bufs[v];

        b->cpu_ns = 0;
        if (xu_target_vcpu_state(t, v, &vs) < 0) {
            b->state = XU_VSTATE_UNKNOWN;
            b->have_prev = false;
            continue;
        }
        b->state = (unsigned)vs.state < XU_VSTATE__COUNT ? vs.state : XU_VSTATE_UNKNOWN;
        /*
         * Xen's cpu_time of a running vCPU is its accounted time plus NOW()
         * minus when it was scheduled, NOW() on our CPU and the schedule's
         * stamp on its own, so it can step back by their skew (seen: 3.8 %
         * of a run under emulation).  A smaller figure weighs 0 and the
         * largest one seen stays the reference: the weights then add up to
         * the CPU time between the first and the last read, as --stats says.
         */
        if (b->have_prev && vs.cpu_time_ns >= b->prev_cpu_ns)
            b->cpu_ns = vs.cpu_time_ns - b->prev_cpu_ns;
        if (!b->have_prev || vs.cpu_time_ns > b->prev_cpu_ns)
            b->prev_cpu_ns = vs.cpu_time_ns;
        b->have_prev = true;
    }
}

/* After a tick that counted: each vCPU's state and CPU time, and the tick's
 * lateness and paused window by that state, into the run's tally. */
static void tally_states(struct xu_sampler_stats *st, const struct vcpu_buf *bufs,
                         unsigned int nr_vcpus, uint64_t late_ns, uint64_t paused_ns)
{
    unsigned int v;

    for (v = 0; v < nr_vcpus; v++) {
        struct xu_vcpu_tally *ty = &st->per_vcpu[v];

        ty->ticks[bufs[v].state]++;
        ty->late_ns[bufs[v].state] += late_ns;
        ty->paused_ns[bufs[v].state] += paused_ns;
        if (bufs[v].state == XU_VSTATE_UNKNOWN || !bufs[v].have_prev)
            continue;
        if (!ty->cpu_seen) {
            ty->cpu_seen = true;
            ty->cpu_first_ns = bufs[v].prev_cpu_ns;
        }
        ty->cpu_last_ns = bufs[v].prev_cpu_ns;
    }
}

/*
 * The pause and every vCPU's registers: in one call where the backend can
 * (xu_pause_take_regs: the paused window then holds one round trip to Xen
 * before the walks instead of one per vCPU), else one read per vCPU.
 * 0 with regs[] and rcs[] set, or the pause's error.
 */
static int pause_and_read(struct xu_target *t, struct xu_pause *pause, unsigned int nr_vcpus,
                          struct xu_vcpu_regs *regs, int *rcs, struct xu_sampler_stats *st)
{
    unsigned int v;
    int rc = xu_pause_take_regs(pause, nr_vcpus, regs, rcs);

    if (rc < 0)
        return rc;
    if (rc == 0) {
        st->batched_ticks++;
        return 0;
    }
    for (v = 0; v < nr_vcpus; v++)
        rcs[v] = xu_target_vcpu_regs(t, v, &regs[v]);
    return 0;
}

/*
 * Is the domain paused by someone else at the start of this tick (an
 * admin's `xl pause`, or the toolstack pausing it to destroy it)?  Its
 * vCPUs would give the same frozen stack tick after tick, time the guest
 * did not spend there.  Such a domain's vCPUs all read as not running,
 * which a running domain shows only when every vCPU is blocked or waits
 * for a CPU: only then is Xen asked, and we hold no pause of our own here.
 * A backend that cannot tell states is never asked.
 */
static bool paused_by_other(struct xu_target *t, const struct vcpu_buf *bufs,
                            unsigned int nr_vcpus)
{
    struct xu_domain_info info;
    bool known = false;
    unsigned int v;

    for (v = 0; v < nr_vcpus; v++) {
        if (bufs[v].state == XU_VSTATE_RUNNING)
            return false;
        known |= bufs[v].state != XU_VSTATE_UNKNOWN;
    }
    return known && xu_target_info(t, &info) == 0 && info.paused;
}

/*
 * One tick: states (read_states), pause, capture every online vCPU, unpause.  Returns 0,
 * TICK_SKIPPED (the domain was paused by someone else: nothing read), or the error of
 * pause/unpause.  Per-vCPU failures are counted, not fatal.
 */
#define TICK_SKIPPED 1
static int tick(struct xu_target *t, struct xu_mem *m, struct xu_pause *pause,
                const struct xu_sampler_config *cfg, const struct xu_clock *clock,
                const struct xu_unwinder_ops *uw, struct vcpu_buf *bufs, unsigned int nr_vcpus,
                struct xu_vcpu_regs *regs, int *rcs,
                struct xu_sampler_stats *st, uint64_t *paused_ns)
{
    uint64_t t0, t1 = 0, calls = t->hypercalls;
    unsigned int v;
    int rc;

    for (v = 0; v < nr_vcpus; v++)
        bufs[v].have = 0;

    read_states(t, bufs, nr_vcpus);
    if (paused_by_other(t, bufs, nr_vcpus)) {
        st->hypercalls += t->hypercalls - calls;
        return TICK_SKIPPED;
    }
    t0 = now_ns(clock);
    if (cfg->no_pause) {
        /* The guest stops only inside these reads: they are its window. */
        for (v = 0; v < nr_vcpus; v++)
            rcs[v] = xu_target_vcpu_regs(t, v, &regs[v]);
        t1 = now_ns(clock);
    } else {
        rc = pause_and_read(t, pause, nr_vcpus, regs, rcs, st);
        if (rc < 0)
            return rc;
    }

    xu_mem_begin(m);
    for (v = 0; v < nr_vcpus; v++) {
        struct vcpu_buf *b = &bufs[v];

        if (rcs[v] < 0) {
            st->regs_failures++;
            continue;
        }
        if (!regs[v].online)
            continue;
        xu_mem_set_context(m, &regs[v]);
        uw->walk(cfg->unwinder_ctx, m, &regs[v], b->pcs, cfg->max_depth, &b->res);
        b->have = b->res.depth > 0;
        b->user = !regs[v].kernel_mode;
        if (cfg->task_layout)
            b->task_known = xu_task_read_linux(m, &regs[v], cfg->task_layout, &b->pid, b->comm);
    }

    /* Whatever failed above, the guest runs again before the tick ends. */
    rc = 0;
    if (!cfg->no_pause) {
        rc = xu_pause_release(pause);
        t1 = now_ns(clock);
    }
    *paused_ns = t1 - t0;
    st->hypercalls += t->hypercalls - calls;
    return rc;
}

/*
 * With tasks (xu_sampler_config.task_layout): a user-mode sample becomes
 * [user], and every sample gets its task as its outermost frame (the PC
 * buffer has room for one more than max_depth).  Interning happens here,
 * with the guest running.
 */
static void add_task(const struct xu_sampler_config *cfg, struct vcpu_buf *b,
                     struct xu_sampler_stats *st)
{
    uint32_t i = XU_TASKS_UNKNOWN;

    if (!cfg->task_layout || !cfg->tasks)
        return;
    if (b->user) {
        b->pcs[0] = XU_PC_USER;
        b->res.depth = 1;
        b->res.end = XU_WALK_CFI_ROOT;
    }
    if (b->res.depth >= XU_MAX_DEPTH_LIMIT)
        b->res.depth = XU_MAX_DEPTH_LIMIT - 1;  /* a walk cut at the limit loses one more */
    if (b->task_known)
        i = xu_tasks_intern(cfg->tasks, b->pid, b->comm);
    else
        st->tasks_unknown++;
    b->pcs[b->res.depth++] = xu_pc_task(i);
}

/* Did this tick read less than it should: a register read failed, or a
 * walk faulted on guest memory? */
static int tick_lost_something(const struct vcpu_buf *bufs, unsigned int nr_vcpus,
                               uint64_t regs_failures)
{
    unsigned int v;

    if (regs_failures)
        return 1;
    for (v = 0; v < nr_vcpus; v++)
        if (bufs[v].have && bufs[v].res.end == XU_WALK_UNMAPPED)
            return 1;
    return 0;
}

/* The next tick's distance from the last deadline: a period, or with jitter a
 * draw uniform in [1 - jitter, 1 + jitter) periods (xorshift64*: quality
 * enough for spacing samples, and no state outside the run). */
static uint64_t next_interval(uint64_t period_ns, double jitter, uint64_t *rng)
{
    uint64_t x = *rng;
    double u;

    if (!(jitter > 0))
        return period_ns;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *rng = x;
    u = (double)((x * 0x2545f4914f6cdd1dULL) >> 11) / 9007199254740992.0;   /* [0, 1) */
    return (uint64_t)((double)period_ns * (1.0 - jitter + 2.0 * jitter * u)) + 1;
}

int xu_sampler_run(struct xu_target *t, struct xu_mem *m, struct xu_profile *p,
                   const struct xu_sampler_config *cfg, struct xu_sampler_stats *st)
{
    const struct xu_unwinder_ops *uw = cfg->unwinder ? cfg->unwinder : &xu_unwind_fp_ops;
    struct vcpu_buf *bufs = NULL;
    struct xu_vcpu_regs *regs = NULL;   /* a tick's registers, per vCPU */
    int *rcs = NULL;                    /* and each read's result */
    uint64_t *pc_pool = NULL;
    struct xu_domain_info info;
    unsigned int nr_vcpus = 0, v, depth = cfg->max_depth;
    uint64_t period_ns, start_ns, deadline_ns, end_ns = 0, now, last_alive_ns, last_progress_ns;
    uint64_t rng;
    double hz;
    uint64_t alive_every_ns = (uint64_t)(ALIVE_CHECK_S * 1e9);
    const struct xu_clock *clock = xu_clock_or_real(cfg->clock);
    struct waiter waiter = { .clock = clock, .late_ns = 50000, .spin = cfg->spin };
    struct xu_pause *own_pause = NULL, *pause = cfg->pause;
    int rc;

    memset(st, 0, sizeof(*st));
    xu_hist_init(&st->paused_ns);
    st->reason = XU_STOP_NONE;

    if (!(cfg->frequency_hz > 0) || cfg->frequency_hz > 1e6 || depth == 0 ||
        depth > XU_MAX_DEPTH_LIMIT || !(cfg->jitter >= 0) ||
        cfg->jitter > XU_SAMPLER_MAX_JITTER) {
        rc = -EINVAL;
        goto out;
    }
    rc = xu_target_info(t, &info);
    if (rc < 0)
        goto out;
    if (info.dying) {
        st->reason = XU_STOP_DOMAIN_GONE;
        goto out;
    }
    if (info.shutdown) {
        st->reason = XU_STOP_DOMAIN_SHUTDOWN;
        st->shutdown_reason = info.shutdown_reason;
        goto out;
    }
    nr_vcpus = info.max_vcpu_id + 1;
    if (nr_vcpus > XU_MAX_VCPUS)
        nr_vcpus = XU_MAX_VCPUS;
    st->vcpus = nr_vcpus;

    bufs = calloc(nr_vcpus, sizeof(*bufs));
    regs = calloc(nr_vcpus, sizeof(*regs));
    rcs = calloc(nr_vcpus, sizeof(*rcs));
    /* one more frame than the walk's: a sample's task (add_task) */
    pc_pool = malloc((size_t)nr_vcpus * (depth + 1) * sizeof(*pc_pool));
    if (!bufs || !regs || !rcs || !pc_pool) {
        rc = -ENOMEM;
        goto out;
    }
    for (v = 0; v < nr_vcpus; v++)
        bufs[v].pcs = pc_pool + (size_t)v * (depth + 1);
    if (!pause) {
        rc = xu_pause_new(&own_pause, t, NULL, NULL);
        if (rc < 0)
            goto out;
        pause = own_pause;
    }

    hz = cfg->frequency_hz;
    period_ns = (uint64_t)(1e9 / hz);
    if (period_ns == 0)
        period_ns = 1;
    start_ns = now_ns(clock);
    if (cfg->duration_s > 0)
        end_ns = start_ns + (uint64_t)(cfg->duration_s * 1e9);
    deadline_ns = start_ns;
    last_alive_ns = last_progress_ns = start_ns;
    rng = start_ns | 1;

    for (;;) {
        uint64_t paused_ns = 0, late_ns, regs_failures = st->regs_failures;

        if (cfg->stop && *cfg->stop) {
            st->reason = XU_STOP_SIGNAL;
            break;
        }
        if ((cfg->max_ticks && st->ticks >= cfg->max_ticks) ||
            (cfg->max_samples && st->samples >= cfg->max_samples)) {
            st->reason = XU_STOP_TICKS;
            break;
        }
        now = now_ns(clock);
        if (end_ns && now >= end_ns) {
            /* deadlines that came and went while we were not running
             * (descheduled near the end) are missed too */
            if (!cfg->no_sleep && deadline_ns < end_ns)
                st->missed_deadlines += (end_ns - deadline_ns + period_ns - 1) / period_ns;
            st->reason = XU_STOP_DURATION;
            break;
        }
        late_ns = !cfg->no_sleep && now > deadline_ns ? now - deadline_ns : 0;

        rc = tick(t, m, pause, cfg, clock, uw, bufs, nr_vcpus, regs, rcs, st, &paused_ns);
        if (rc < 0) {
            enum xu_stop_reason why;

            /* A pause failing because the domain went away is an ending,
             * not an error.  An unpause that failed for good is an error
             * whatever the domain does: the guest is left paused. */
            if (xu_pause_stuck(pause)) {
                st->reason = XU_STOP_ERROR;
                st->error = rc;
                st->left_paused = true;
            } else if (!domain_alive(t, &why, &st->shutdown_reason)) {
                st->reason = why;
                rc = 0;
            } else {
                st->reason = XU_STOP_ERROR;
                st->error = rc;
            }
            break;
        }
        if (rc == TICK_SKIPPED) {
            st->paused_by_other_ticks++;
            goto next;
        }
        st->ticks++;
        xu_hist_add(&st->paused_ns, paused_ns);
        xu_hist_add(&st->late_ns, late_ns);
        tally_states(st, bufs, nr_vcpus, late_ns, paused_ns);

        /*
         * A vCPU or stack that cannot be read may be a domain being torn
         * down: during `xl destroy` some vCPUs still answer while others
         * fail and memory is released, and every sample then is a frozen
         * last instruction.  Ask at once rather than at the next liveness
         * check, and keep nothing of a tick taken from a dying or shut-down
         * domain.
         */
        if (tick_lost_something(bufs, nr_vcpus, st->regs_failures - regs_failures)) {
            enum xu_stop_reason why;

            if (!domain_alive(t, &why, &st->shutdown_reason)) {
                st->reason = why;
                break;
            }
        }

        /* Guest running again: now it is fine to allocate. */
        for (v = 0; v < nr_vcpus; v++) {
            if (!bufs[v].have)
                continue;
            add_task(cfg, &bufs[v], st);
            if (xu_profile_add_state(p, v, bufs[v].state, bufs[v].pcs, bufs[v].res.depth,
                                     bufs[v].res.end, 1, bufs[v].cpu_ns) < 0)
                st->intern_failures++;
            else
                st->samples++;
        }

next:
        now = now_ns(clock);
        if (now - last_alive_ns >= alive_every_ns) {
            enum xu_stop_reason why;

            last_alive_ns = now;
            if (!domain_alive(t, &why, &st->shutdown_reason)) {
                st->reason = why;
                break;
            }
        }
        if (cfg->progress && now - last_progress_ns >= (uint64_t)(cfg->progress_interval_s * 1e9)) {
            last_progress_ns = now;
            st->elapsed_s = (double)(now - start_ns) / 1e9;
            if (cfg->progress(cfg->progress_ctx, st) != 0) {
                st->reason = XU_STOP_CALLER;
                break;
            }
            if (cfg->frequency_now && *cfg->frequency_now != hz &&
                *cfg->frequency_now > 0 && *cfg->frequency_now <= 1e6) {
                hz = *cfg->frequency_now;
                period_ns = (uint64_t)(1e9 / hz);
                if (period_ns == 0)
                    period_ns = 1;
                deadline_ns = now;      /* the next tick a new period after this one */
            }
        }

        if (cfg->no_sleep)
            continue;
        deadline_ns += next_interval(period_ns, cfg->jitter, &rng);
        if (now > deadline_ns + period_ns) {
            /* More than a period late: the ticks that should have run by
             * now are missed; count them and skip ahead rather than burst.
             * A tick less than a period late just runs at once. */
            uint64_t behind = (now - deadline_ns) / period_ns;

            st->missed_deadlines += behind;
            deadline_ns += behind * period_ns;
        }
        wait_until(&waiter, end_ns && deadline_ns > end_ns ? end_ns : deadline_ns, cfg->stop);
    }
    st->elapsed_s = (double)(now_ns(clock) - start_ns) / 1e9;
    if (st->reason == XU_STOP_ERROR)
        goto out;
    rc = 0;

out:
    if (rc < 0 && st->reason == XU_STOP_NONE) {
        st->reason = XU_STOP_ERROR;
        st->error = rc;
    }
    xu_pause_free(own_pause);
    free(bufs);
    free(regs);
    free(rcs);
    free(pc_pool);
    return rc;
}
