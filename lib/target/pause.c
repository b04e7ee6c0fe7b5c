/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pause.c - our pause references on a guest (see xu_pause.h for the policy).
 *
 * The only file outside the backends that calls a target's pause and
 * unpause ops.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "target/xu_pause.h"

struct xu_pause {
    struct xu_target *t;
    volatile uint32_t *state;
    struct xu_log *log;
    unsigned int held;          /* references counted by this handle */
    bool stuck;
    bool batching;              /* pause and read registers in one call where possible */
};

static void publish(volatile uint32_t *state, uint32_t v)
{
    if (state)
        __atomic_store_n(state, v, __ATOMIC_SEQ_CST);
}

static void backoff(unsigned int us)
{
    struct timespec ts = { .tv_sec = 0, .tv_nsec = (long)us * 1000L };

    /* EINTR (a stop signal) only shortens the wait: the next try still runs. */
    nanosleep(&ts, NULL);
}

/*
 * One reference back to Xen, retried.  0 when given back or the domain is
 * gone, else the last error.  Logs nothing: the two callers say different
 * things.
 */
static int unpause_retried(struct xu_target *t)
{
    unsigned int i, wait = XU_PAUSE_BACKOFF_US;
    int rc = 0;

    for (i = 0; i < XU_PAUSE_UNPAUSE_TRIES; i++) {
        if (i) {
            backoff(wait);
            wait *= 2;
        }
        rc = t->ops->unpause(t);
        if (rc == 0 || rc == -ESRCH)
            return 0;
    }
    return rc;
}

int xu_pause_new(struct xu_pause **out, struct xu_target *t, volatile uint32_t *state,
                 struct xu_log *log)
{
    struct xu_pause *p = calloc(1, sizeof(*p));

    *out = NULL;
    if (!p)
        return -ENOMEM;
    p->t = t;
    p->state = state;
    p->log = log ? log : t->log;
    p->batching = true;
    publish(state, XU_PAUSE_RUNNING);
    *out = p;
    return 0;
}

void xu_pause_free(struct xu_pause *p)
{
    if (!p)
        return;
    /* One Xen reference at most, whatever the count says.  A target that
     * is not open cannot be asked: the word stays for the guardian. */
    if (p->held && !p->stuck && p->t->ops) {
        p->held = 1;
        xu_pause_release(p);
    }
    free(p);
}

/* The registers pause_regs() reads with the pause. */
struct regs_request {
    unsigned int n;
    struct xu_vcpu_regs *regs;
    int *rcs;
};

/* Our first reference, the state word published around the call that
 * takes it: the target's pause(), or with req its pause_regs(). */
static int take_first(struct xu_pause *p, const struct regs_request *req)
{
    int rc;

    publish(p->state, XU_PAUSE_PAUSING);
    rc = req ? p->t->ops->pause_regs(p->t, req->n, req->regs, req->rcs)
             : p->t->ops->pause(p->t);
    if (rc < 0) {
        publish(p->state, XU_PAUSE_RUNNING);
        return rc;
    }
    p->held = 1;
    publish(p->state, XU_PAUSE_PAUSED);
    return 0;
}

int xu_pause_take(struct xu_pause *p)
{
    if (p->held) {
        p->held++;
        return 0;
    }
    return take_first(p, NULL);
}

int xu_pause_take_regs(struct xu_pause *p, unsigned int n, struct xu_vcpu_regs *regs,
                       int *rcs)
{
    const struct regs_request req = { .n = n, .regs = regs, .rcs = rcs };
    int rc;

    if (!p->held && p->batching && p->t->ops->pause_regs && n > 0) {
        rc = take_first(p, &req);
        /* -EOPNOTSUPP: nothing was done, the ordinary pause follows */
        if (rc != -EOPNOTSUPP)
            return rc;
    }
    rc = xu_pause_take(p);
    return rc < 0 ? rc : 1;
}

void xu_pause_set_batching(struct xu_pause *p, bool on)
{
    p->batching = on;
}

int xu_pause_release(struct xu_pause *p)
{
    int rc;

    if (p->held == 0 || p->stuck)
        return p->stuck ? -EBUSY : -EINVAL;
    if (p->held > 1) {
        p->held--;
        return 0;
    }
    rc = unpause_retried(p->t);
    if (rc < 0) {
        /* The word stays PAUSED: the guardian tries again when we exit. */
        p->stuck = true;
        xu_error(p->log, "cannot unpause domain %u after %d tries (%s): it stays paused; "
                 "run 'xl unpause %u'", (unsigned int)p->t->domid, XU_PAUSE_UNPAUSE_TRIES,
                 strerror(-rc), (unsigned int)p->t->domid);
        return rc;
    }
    p->held = 0;
    publish(p->state, XU_PAUSE_RUNNING);
    return 0;
}

void xu_pause_adopt(struct xu_pause *p)
{
    p->held++;
    publish(p->state, XU_PAUSE_PAUSED);
}

unsigned int xu_pause_held(const struct xu_pause *p)
{
    return p->held;
}

bool xu_pause_stuck(const struct xu_pause *p)
{
    return p->stuck;
}

int xu_pause_recover(struct xu_target *t, uint32_t state, struct xu_log *log)
{
    struct xu_domain_info info;
    int rc;

    if (state == XU_PAUSE_RUNNING)
        return 0;
    /*
     * PAUSED: our pause went through.  PAUSING: it may have.  Either way
     * ask Xen: a domain that is not paused (our unpause got through before
     * the state word said so) must not be unpaused again, and one that is
     * gone needs nothing.  (The window where PAUSING is published but our
     * pause is not yet issued, on a domain its admin had paused, is the one
     * case where the admin's pause is undone.)
     */
    rc = t->ops->info(t, &info);
    if (rc < 0 || info.dying || !info.paused)
        return 0;
    rc = unpause_retried(t);
    if (rc < 0) {
        xu_error(log, "guardian: the profiler died with domain %u paused, and unpausing "
                 "it failed: %s; run 'xl unpause %u'", (unsigned int)t->domid,
                 strerror(-rc), (unsigned int)t->domid);
        return rc;
    }
    xu_warn(log, "guardian: the profiler ended with domain %u paused; unpaused it",
            (unsigned int)t->domid);
    return 0;
}
