/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu_pause.h - the one place that pauses and unpauses a guest.
 *
 * Every pause and unpause of the profiler (the sampler's ticks, the ELF
 * check, the domain created paused by --create, the guardian's recovery)
 * goes through this module; only the backends' ops and the simulated guest
 * talk to Xen's pause themselves.  The policy, written once:
 *
 *  - References, not states.  Xen counts controller pauses (since 4.5
 *    XEN_DOMCTL_pausedomain takes a reference and unpausedomain drops one),
 *    so we never ask whether the domain is paused before pausing it: we
 *    always take our own reference and give back exactly the ones we took,
 *    whatever an administrator did with `xl pause` meanwhile.  A handle
 *    holds at most one Xen reference: a take while it already holds one
 *    (the ELF check during a --create run) only counts in the handle, and
 *    the hypercalls happen on the first take and the last release.
 *
 *  - The state word for the guardian (xu_guardian.h).  A handle given a
 *    shared word publishes PAUSING before the pause hypercall, PAUSED once
 *    it succeeded, and RUNNING only after our last reference was given
 *    back, so a process that outlives a killed profiler knows whether the
 *    guest was left paused by it.
 *
 *  - Unpause failures.  Giving a reference back is retried up to
 *    XU_PAUSE_UNPAUSE_TRIES times, XU_PAUSE_BACKOFF_US apart (doubling): a
 *    transient failure must not leave a guest stopped.  A domain that no
 *    longer exists (-ESRCH) is not a failure: there is nothing left to
 *    unpause.  A persistent failure is logged as exactly one error line
 *    that names the command which fixes it (`xl unpause N`), the handle is
 *    marked stuck (xu_pause_stuck()), the error is returned, and the state
 *    word stays PAUSED so the guardian tries again when we exit.  A run
 *    that ends this way is a failure (XU_RECORD_FAILURE, exit status 1:
 *    "a Xen call failed"), whatever else happened; callers do not log it
 *    again.
 *
 *  - Pause failures are returned, not logged here: nothing was left
 *    paused, and the caller knows what it was trying to do (the backend
 *    has logged the hypercall's details).
 *
 *  - Adopting the pause taken at creation.  `xl create -p` (--create)
 *    leaves the new domain paused with one reference that is ours to give
 *    back: xu_pause_adopt() counts it as taken by this handle (publishing
 *    PAUSED), and the release that starts the guest is an ordinary one.
 *
 *  - The paused window stays short: take and release do no allocation and
 *    no I/O besides the hypercalls; the handle is allocated before any
 *    pause.  Only the failure path sleeps (the backoff) and logs.
 */
#ifndef XU_PAUSE_H
#define XU_PAUSE_H

#include <stdbool.h>
#include <stdint.h>

#include "target/xu_target.h"
#include "util/xu_log.h"

#define XU_PAUSE_UNPAUSE_TRIES 3
#define XU_PAUSE_BACKOFF_US 1000    /* before the second try; doubles */

/* The word shared with the guardian: what our pause reference is doing. */
enum xu_pause_state {
    XU_PAUSE_RUNNING = 0,   /* we hold no reference */
    XU_PAUSE_PAUSING = 1,   /* the pause hypercall may have taken one */
    XU_PAUSE_PAUSED = 2,    /* we hold one */
};

struct xu_pause;

/*
 * A pause handle on target t (which must outlive it, and be open by the
 * first take or release: a creation pause can be adopted before).  state
 * may be NULL
 * (no guardian); otherwise it is set to RUNNING here.  log NULL: t's
 * logger.  0 or -ENOMEM.
 */
int xu_pause_new(struct xu_pause **out, struct xu_target *t, volatile uint32_t *state,
                 struct xu_log *log);
/* Gives back a reference still held (as xu_pause_release; not on a target
 * that is not open, where the state word stays as it is for the guardian),
 * then frees.  NULL is fine. */
void xu_pause_free(struct xu_pause *p);

/* Take a reference: 0, or the backend's -errno (nothing held then). */
int xu_pause_take(struct xu_pause *p);
/*
 * Take a reference and, where the backend can do both in one call (its
 * pause_regs), read the registers of vCPUs 0..n-1 with it: 0 when regs[]
 * and rcs[] hold what vcpu_regs() would give for each; 1 when the domain
 * is paused but nothing was read (no such call, batching off, or a
 * reference already held: the caller reads); the backend's -errno when
 * nothing is held.  The same state word and policy as xu_pause_take().
 */
int xu_pause_take_regs(struct xu_pause *p, unsigned int n, struct xu_vcpu_regs *regs,
                       int *rcs);
/* Never pause and read in one call (the comparison with one call per vCPU
 * that bench/lab-bench makes); the default is to batch where possible. */
void xu_pause_set_batching(struct xu_pause *p, bool on);
/*
 * Give one reference back: 0 (also when the domain is gone), -EINVAL when
 * none is held and -EBUSY once stuck (nothing is called then), or the last
 * -errno after the retries (logged once, handle stuck, state word left
 * PAUSED).
 */
int xu_pause_release(struct xu_pause *p);
/* Count the creation pause of a domain created paused as ours. */
void xu_pause_adopt(struct xu_pause *p);

/* References the handle holds (takes and adoptions not given back). */
unsigned int xu_pause_held(const struct xu_pause *p);
/* A release failed for good: the guest stays paused until `xl unpause`. */
bool xu_pause_stuck(const struct xu_pause *p);

/*
 * For the guardian, on its own target after the profiler died: state is
 * the last word the profiler published.  RUNNING: nothing to do.  PAUSED
 * or PAUSING: when Xen says the domain is paused, give one reference back
 * with the retries above (a domain not paused means our unpause got
 * through before the word said so; a gone domain needs nothing).  Logs one
 * line either way it acted: a warning that it unpaused, or the error with
 * `xl unpause N`.  0 or the -errno of the failed unpause.
 */
int xu_pause_recover(struct xu_target *t, uint32_t state, struct xu_log *log);

#endif
