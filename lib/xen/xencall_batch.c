/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xencall_batch.c - a tick's pause and register reads in one multicall.
 *
 * One pause and one register read per vCPU are as many trips from dom0
 * into Xen (a system call into the privcmd driver, then the hypercall),
 * and all but the pause's own lie inside the paused window.  Xen runs a
 * __HYPERVISOR_multicall's entries in order and stores each one's result,
 * and XEN_DOMCTL_pausedomain returns only once every vCPU is off its CPU,
 * so [pause, read vCPU 0, read vCPU 1, ...] in one multicall reads a
 * stopped domain, as the separate calls do, in one trip.
 *
 * What a read means stays the architecture's: the backend makes ahead the
 * read the architecture would make first for each vCPU (first_read), then
 * lets the architecture read each vCPU as usual, answering that read from
 * the multicall's results (replaying) and sending anything else to Xen.
 *
 * Batching never makes a failure of its own.  The paused state is never
 * guessed: the pause entry's result is set to a value no domctl returns
 * before the call, so a multicall that failed tells whether the pause ran
 * (then it is ours, and the registers are read one by one) or not.  A
 * multicall refused whole, or whose pause entry failed, turns batching off
 * for the rest of the run and leaves the pause to the ordinary call, which
 * then reports a real failure as it always does (a hypervisor may refuse
 * domctls inside multicalls).  A read that failed inside the multicall for
 * another reason than "no such state" is made again on its own, and its
 * error, if any, is that call's.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "xencall_priv.h"

/* A result no hypercall returns: neither 0 nor a negative errno. */
#define NOT_RUN ((xen_ulong_t)0x5a5a5a5a5a5a5a5aULL)

void xu_stable_batch_init(struct xu_target *t, unsigned int nr_vcpus)
{
    struct stable_priv *p = t->priv;
    struct stable_batch *b = &p->batch;

    memset(b, 0, sizeof(*b));
    if (nr_vcpus == 0 || nr_vcpus > XU_BATCH_MAX_VCPUS || !xu_arch_xen_native.first_read)
        return;
    b->calls = xencall_alloc_buffer(p->xcall, (nr_vcpus + 1) * sizeof(*b->calls));
    b->domctls = xencall_alloc_buffer(p->xcall, (nr_vcpus + 1) * sizeof(*b->domctls));
    b->bufs = xencall_alloc_buffer(p->xcall, nr_vcpus * p->buf_size);
    if (!b->calls || !b->domctls || !b->bufs) {
        xu_debug(t->log, "no buffers for one-call ticks: reading vCPUs one at a time");
        xu_stable_batch_free(p);
        return;
    }
    b->n = nr_vcpus;
}

void xu_stable_batch_free(struct stable_priv *p)
{
    struct stable_batch *b = &p->batch;

    if (b->bufs)
        xencall_free_buffer(p->xcall, b->bufs);
    if (b->domctls)
        xencall_free_buffer(p->xcall, b->domctls);
    if (b->calls)
        xencall_free_buffer(p->xcall, b->calls);
    memset(b, 0, sizeof(*b));
}

/* Entry i of the multicall: domctl i, its result marked as not run. */
static void prepare_entry(struct stable_batch *b, unsigned int i)
{
    memset(&b->calls[i], 0, sizeof(b->calls[i]));
    b->calls[i].op = __HYPERVISOR_domctl;
    b->calls[i].args[0] = (xen_ulong_t)(uintptr_t)&b->domctls[i];
    b->calls[i].result = NOT_RUN;
}

/* vCPU v's first read into entry 1 + v and its own buffer. */
static void prepare_read(struct xu_target *t, struct stable_priv *p, unsigned int v)
{
    struct stable_batch *b = &p->batch;
    struct xu_xen_read *r = &b->reads[v];

    xu_arch_xen_native.first_read(&p->regs_info, v, r);
    xu_stable_read_domctl(p, &b->domctls[1 + v], t->domid, r,
                          b->bufs + (size_t)v * p->buf_size);
    prepare_entry(b, 1 + v);
}

/* A multicall entry's result as 0 or a positive errno (NOT_RUN: EIO). */
static int entry_errno(xen_ulong_t result)
{
    long r = (long)result;

    if (result == NOT_RUN)
        return EIO;
    if (r < 0 && r >= -4095)
        return (int)-r;
    return r == 0 ? 0 : EIO;
}

/* The registers of vCPUs 0..n-1 through the architecture, replaying the
 * reads made ahead when there are any. */
static void read_all(struct xu_target *t, struct stable_priv *p, unsigned int n, bool replay,
                     struct xu_vcpu_regs *regs, int *rcs)
{
    unsigned int v;

    p->batch.replaying = replay;
    for (v = 0; v < n; v++)
        rcs[v] = xu_stable_vcpu_regs(t, v, &regs[v]);
    p->batch.replaying = false;
}

int xu_stable_pause_regs(struct xu_target *t, unsigned int n, struct xu_vcpu_regs *regs,
                         int *rcs)
{
    struct stable_priv *p = t->priv;
    struct stable_batch *b = &p->batch;
    unsigned int v;
    int r, err;

    if (b->off || n == 0 || n > b->n)
        return -EOPNOTSUPP;
    xu_stable_domctl_init(&b->domctls[0], XEN_DOMCTL_pausedomain, t->domid);
    prepare_entry(b, 0);
    for (v = 0; v < n; v++)
        prepare_read(t, p, v);

    r = xencall2(p->xcall, __HYPERVISOR_multicall, (uint64_t)(uintptr_t)b->calls, n + 1);
    (*p->hypercalls)++;
    err = entry_errno(b->calls[0].result);
    if (err) {
        /* Nothing is paused (the pause did not run, or failed). */
        b->off = true;
        xu_debug(t->log, "__HYPERVISOR_multicall: %s, its pause: %s; pausing and reading "
                 "vCPUs one call each from now on", r < 0 ? strerror(errno > 0 ? errno : EIO)
                 : "done", b->calls[0].result == NOT_RUN ? "not run" : strerror(err));
        return -EOPNOTSUPP;
    }
    p->pauses++;

    for (v = 0; v < b->n; v++) {
        b->results[v] = v < n ? entry_errno(b->calls[1 + v].result) : EIO;
        /* A multicall cut short after the pause: the reads are made one by one. */
        b->pending[v] = r == 0 && v < n;
    }
    read_all(t, p, n, r == 0, regs, rcs);
    for (v = 0; v < b->n; v++)
        b->pending[v] = false;
    return 0;
}

int xu_stable_batch_answer(struct stable_priv *p, const struct xu_xen_read *r,
                           const void **buf)
{
    struct stable_batch *b = &p->batch;
    unsigned int v;

    if (!b->replaying)
        return -ENOENT;
    for (v = 0; v < b->n; v++) {
        const struct xu_xen_read *a = &b->reads[v];

        if (!b->pending[v] || a->kind != r->kind)
            continue;
        if (r->kind == XU_XEN_READ_VCPU_CONTEXT ? a->vcpu != r->vcpu
                                                : a->type != r->type || a->instance != r->instance)
            continue;
        b->pending[v] = false;
        /* "No such state" is an answer; anything else is asked again alone. */
        if (b->results[v] && b->results[v] != ENODATA && b->results[v] != ENOENT)
            return -ENOENT;
        *buf = b->bufs + (size_t)v * p->buf_size;
        return b->results[v];
    }
    return -ENOENT;
}
