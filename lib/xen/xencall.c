/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xencall.c - the target backend on Xen's stable libraries:
 * libxencall for the domctls, libxenforeignmemory for guest frames.
 *
 * The domctl ABI is XEN_DOMCTL_INTERFACE_VERSION of the headers this file
 * is compiled with; a hypervisor speaking another version refuses every
 * domctl, which open() reports as -EPROTO (see xu_xen_domctl_failed()).
 *
 * Hypercall arguments must live in memory the kernel driver can hand to Xen
 * (xencall_alloc_buffer).  Both buffers are taken once at open and reused,
 * so the paused window (pause, vcpu_regs, unpause) never allocates.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "xencall_priv.h"

#include <xen/version.h>

static void set_header(struct xen_domctl *d, uint32_t cmd, uint32_t domid)
{
    d->cmd = cmd;
    d->interface_version = XEN_DOMCTL_INTERFACE_VERSION;
    d->domain = (domid_t)domid;
}

void xu_stable_domctl_init(struct xen_domctl *d, uint32_t cmd, uint32_t domid)
{
    memset(d, 0, sizeof(*d));
    set_header(d, cmd, domid);
}

void xu_stable_read_domctl(const struct stable_priv *p, struct xen_domctl *d, uint32_t domid,
                           const struct xu_xen_read *r, void *buf)
{
    if (r->kind == XU_XEN_READ_VCPU_CONTEXT) {
        xu_stable_domctl_init(d, XEN_DOMCTL_getvcpucontext, domid);
        d->u.vcpucontext.vcpu = r->vcpu;
        set_xen_guest_handle(d->u.vcpucontext.ctxt, (vcpu_guest_context_t *)buf);
        return;
    }
    xu_stable_domctl_init(d, XEN_DOMCTL_gethvmcontext_partial, domid);
    d->u.hvmcontext_partial.type = r->type;
    d->u.hvmcontext_partial.instance = r->instance;
#ifdef HAVE_STRUCT_XEN_DOMCTL_HVMCONTEXT_PARTIAL_BUFSZ
    d->u.hvmcontext_partial.bufsz = p->buf_size;
#endif
    set_xen_guest_handle(d->u.hvmcontext_partial.buffer, (uint8_t *)buf);
}

int xu_stable_domctl(struct stable_priv *p, uint32_t cmd, uint32_t domid)
{
    int r;

    (*p->hypercalls)++;
    set_header(p->domctl, cmd, domid);
    r = xencall1(p->xcall, __HYPERVISOR_domctl, (uint64_t)(uintptr_t)p->domctl);
    if (r < 0)
        return errno > 0 ? errno : EIO;
    return 0;
}

/* XEN_DOMCTL_getdomaininfo into p->domctl->u.getdomaininfo. */
static int get_domaininfo(struct xu_target *t, struct stable_priv *p)
{
    int err;

    memset(p->domctl, 0, sizeof(*p->domctl));
    err = xu_stable_domctl(p, XEN_DOMCTL_getdomaininfo, t->domid);
    /* Before Xen 4.18 the hypervisor answers with the next domain when
     * domid does not exist. */
    if (!err && p->domctl->u.getdomaininfo.domain != t->domid)
        err = ESRCH;
    /* Built for another Xen: XENVER_version answers whatever the domctl
     * interface, so the user learns which Xen is running. */
    if (err == EACCES)
        return xu_xen_mismatch(t->log, xencall2(p->xcall, __HYPERVISOR_xen_version,
                                                XENVER_version, 0));
    if (err)
        return xu_xen_domctl_failed(t->log, "XEN_DOMCTL_getdomaininfo", t->domid, err);
    return 0;
}

static int get_pv_width(struct xu_target *t, struct stable_priv *p)
{
    int err;

    memset(p->domctl, 0, sizeof(*p->domctl));
    err = xu_stable_domctl(p, XEN_DOMCTL_get_address_size, t->domid);
    if (err)
        return xu_xen_domctl_failed(t->log, "XEN_DOMCTL_get_address_size", t->domid, err);
    switch (p->domctl->u.address_size.size) {
    case 64:
        p->width = 8u;
        return 0;
    case 32:
        p->width = 4u;
        return 0;
    }
    xu_error(t->log, "XEN_DOMCTL_get_address_size for domain %u: unexpected width %u bits",
             (unsigned int)t->domid, (unsigned int)p->domctl->u.address_size.size);
    return -EPROTO;
}

static void stable_close(struct xu_target *t);
static const struct xu_xen_domctls domctls;

static int stable_open(struct xu_target *t, uint32_t domid)
{
    struct stable_priv *p;
    unsigned int nr_vcpus;
    int rc;

    rc = xu_xen_check_domid(t->log, domid);
    if (rc)
        return rc;
    p = calloc(1, sizeof(*p));
    if (!p)
        return -ENOMEM;
    t->priv = p;
    p->hypercalls = &t->hypercalls;
    xu_xtl_logger_init(&p->logger, t->log);

    p->xcall = xencall_open(&p->logger.xtl, 0);
    if (!p->xcall) {
        rc = xu_xen_open_failed(t->log, "xencall_open", errno);
        goto out;
    }
    p->fmem = xenforeignmemory_open(&p->logger.xtl, 0);
    if (!p->fmem) {
        rc = xu_xen_open_failed(t->log, "xenforeignmemory_open", errno);
        goto out;
    }
    p->buf_size = xu_arch_xen_native.vcpu_context_size;
    if (p->buf_size < xu_arch_xen_native.hvm_record_size)
        p->buf_size = xu_arch_xen_native.hvm_record_size;
    p->domctl = xencall_alloc_buffer(p->xcall, sizeof(*p->domctl));
    p->buf = p->domctl ? xencall_alloc_buffer(p->xcall, p->buf_size) : NULL;
    if (!p->buf) {
        rc = errno > 0 ? -errno : -ENOMEM;
        xu_error(t->log, "xencall_alloc_buffer: %s", strerror(-rc));
        goto out;
    }

    rc = get_domaininfo(t, p);
    if (rc)
        goto out;
    p->type = xu_xen_guest_type(&p->domctl->u.getdomaininfo);
    nr_vcpus = p->domctl->u.getdomaininfo.max_vcpu_id + 1;
    p->width = 8u;
    if (p->type == XU_GUEST_PV)
        rc = get_pv_width(t, p);
    p->regs_info.type = p->type;
    p->regs_info.guest_width = p->width;
    p->regs_info.max_vcpu_id = nr_vcpus - 1;
    if (!rc)
        rc = xu_xen_guest_arch(t, &domctls, &p->regs_info);
    if (!rc)
        xu_stable_batch_init(t, nr_vcpus);

out:
    if (rc)
        stable_close(t);
    return rc;
}

static void unmap_one(void *ctx, const void *addr)
{
    xenforeignmemory_unmap(ctx, (void *)(uintptr_t)addr, 1);
}

static void stable_close(struct xu_target *t)
{
    struct stable_priv *p = t->priv;

    if (!p)
        return;
    /* Never leave the guest stopped because the caller lost track. */
    while (p->pauses > 0) {
        memset(p->domctl, 0, sizeof(*p->domctl));
        if (xu_stable_domctl(p, XEN_DOMCTL_unpausedomain, t->domid) != 0)
            break;
        p->pauses--;
    }
    if (p->fmem)
        xu_xen_maps_release(&p->maps, unmap_one, p->fmem);
    xu_stable_batch_free(p);
    if (p->buf)
        xencall_free_buffer(p->xcall, p->buf);
    if (p->domctl)
        xencall_free_buffer(p->xcall, p->domctl);
    if (p->fmem)
        xenforeignmemory_close(p->fmem);
    if (p->xcall)
        xencall_close(p->xcall);
    free(p);
    t->priv = NULL;
}

static int stable_info(struct xu_target *t, struct xu_domain_info *out)
{
    struct stable_priv *p = t->priv;
    int rc;

    rc = get_domaininfo(t, p);
    if (rc)
        return rc;
    rc = xu_xen_domain_info(&p->domctl->u.getdomaininfo, p->width, out);
    if (rc == -EAGAIN)
        xu_warn(t->log, "domain %u has no vCPU yet", (unsigned int)t->domid);
    return rc;
}

static int stable_pause(struct xu_target *t)
{
    struct stable_priv *p = t->priv;
    int err;

    memset(p->domctl, 0, sizeof(*p->domctl));
    err = xu_stable_domctl(p, XEN_DOMCTL_pausedomain, t->domid);
    if (err)
        return xu_xen_domctl_failed(t->log, "XEN_DOMCTL_pausedomain", t->domid, err);
    p->pauses++;
    return 0;
}

static int stable_unpause(struct xu_target *t)
{
    struct stable_priv *p = t->priv;
    int err;

    memset(p->domctl, 0, sizeof(*p->domctl));
    err = xu_stable_domctl(p, XEN_DOMCTL_unpausedomain, t->domid);
    if (err)
        return xu_xen_domctl_failed(t->log, "XEN_DOMCTL_unpausedomain", t->domid, err);
    if (p->pauses > 0)
        p->pauses--;
    return 0;
}

/* Is vcpu online?  Asked only when its state could not be read. */
static int vcpu_online(struct xu_target *t, struct stable_priv *p, unsigned int vcpu, bool *online)
{
    int err;

    memset(p->domctl, 0, sizeof(*p->domctl));
    p->domctl->u.getvcpuinfo.vcpu = vcpu;
    err = xu_stable_domctl(p, XEN_DOMCTL_getvcpuinfo, t->domid);
    if (err)
        return xu_xen_domctl_failed(t->log, "XEN_DOMCTL_getvcpuinfo", t->domid, err);
    *online = p->domctl->u.getvcpuinfo.online != 0;
    return 0;
}

/* State and CPU time: the same domctl, asked before the pause. */
static int stable_vcpu_state(struct xu_target *t, unsigned int vcpu, struct xu_vcpu_state *out)
{
    struct stable_priv *p = t->priv;
    int err;

    memset(p->domctl, 0, sizeof(*p->domctl));
    p->domctl->u.getvcpuinfo.vcpu = vcpu;
    err = xu_stable_domctl(p, XEN_DOMCTL_getvcpuinfo, t->domid);
    /* asked every tick: a domain going away says so at the pause that
     * follows, with one message, not one per vCPU here */
    if (err) {
        xu_debug(t->log, "XEN_DOMCTL_getvcpuinfo (vCPU %u state): %s", vcpu, strerror(err));
        return -err;
    }
    out->state = xu_vstate_from_flags(p->domctl->u.getvcpuinfo.online != 0,
                                      p->domctl->u.getvcpuinfo.blocked != 0,
                                      p->domctl->u.getvcpuinfo.running != 0);
    out->cpu_time_ns = p->domctl->u.getvcpuinfo.cpu_time;
    return 0;
}

/* The domctls an architecture reads a vCPU with (struct xu_xen_regs_io). */
static int io_vcpu_context(void *ctx, unsigned int vcpu, const void **buf)
{
    struct xu_target *t = ctx;
    struct stable_priv *p = t->priv;
    const struct xu_xen_read ahead = { .kind = XU_XEN_READ_VCPU_CONTEXT, .vcpu = vcpu };
    int err = xu_stable_batch_answer(p, &ahead, buf);

    if (err != -ENOENT)
        goto answered;
    xu_stable_read_domctl(p, p->domctl, t->domid, &ahead, p->buf);
    err = xu_stable_domctl(p, XEN_DOMCTL_getvcpucontext, t->domid);
    *buf = p->buf;
answered:
    if (err == ENODATA)
        return -ENODATA;
    if (err)
        return xu_xen_domctl_failed(t->log, "XEN_DOMCTL_getvcpucontext", t->domid, err);
    return 0;
}

static int io_hvm_record(void *ctx, uint16_t type, uint16_t instance, const void **buf)
{
    struct xu_target *t = ctx;
    struct stable_priv *p = t->priv;
    const struct xu_xen_read ahead = {
        .kind = XU_XEN_READ_HVM_RECORD, .type = type, .instance = instance,
    };
    int err = xu_stable_batch_answer(p, &ahead, buf);

    if (err != -ENOENT)
        goto answered;
    xu_stable_read_domctl(p, p->domctl, t->domid, &ahead, p->buf);
    err = xu_stable_domctl(p, XEN_DOMCTL_gethvmcontext_partial, t->domid);
    *buf = p->buf;
answered:
    /* newer hypervisors say ENODATA for a vCPU without state, older ENOENT */
    if (err == ENODATA || err == ENOENT)
        return -ENODATA;
    if (err)
        return xu_xen_domctl_failed(t->log, "XEN_DOMCTL_gethvmcontext_partial", t->domid, err);
    return 0;
}

static int io_vcpu_online(void *ctx, unsigned int vcpu, bool *online)
{
    struct xu_target *t = ctx;

    return vcpu_online(t, t->priv, vcpu, online);
}

static const struct xu_xen_domctls domctls = {
    .vcpu_context = io_vcpu_context,
    .hvm_record = io_hvm_record,
    .vcpu_online = io_vcpu_online,
};

int xu_stable_vcpu_regs(struct xu_target *t, unsigned int vcpu, struct xu_vcpu_regs *out)
{
    struct stable_priv *p = t->priv;

    return xu_xen_vcpu_regs(t, &domctls, &p->regs_info, vcpu, out);
}

static const void *stable_map_frame(struct xu_target *t, uint64_t frame)
{
    struct stable_priv *p = t->priv;
    xen_pfn_t pfn = (xen_pfn_t)frame;
    void *addr;
    int err = 0;

    if ((uint64_t)pfn != frame) {
        errno = EINVAL;
        return NULL;
    }
    addr = xenforeignmemory_map(p->fmem, t->domid, PROT_READ, 1, &pfn, &err);
    if (!addr)
        return NULL;
    if (err) {
        /* The kernel reports per-frame errors negated; accept either sign. */
        xenforeignmemory_unmap(p->fmem, addr, 1);
        errno = err < 0 ? -err : err;
        return NULL;
    }
    if (xu_xen_maps_add(&p->maps, addr) < 0) {
        xenforeignmemory_unmap(p->fmem, addr, 1);
        errno = ENOMEM;
        return NULL;
    }
    return addr;
}

static void stable_unmap_frame(struct xu_target *t, const void *addr)
{
    struct stable_priv *p = t->priv;

    if (addr && xu_xen_maps_remove(&p->maps, addr) == 0)
        xenforeignmemory_unmap(p->fmem, (void *)(uintptr_t)addr, 1);
}

const struct xu_target_ops xu_target_xencall_ops = {
    .name = "xencall",
    .open = stable_open,
    .close = stable_close,
    .info = stable_info,
    .pause = stable_pause,
    .unpause = stable_unpause,
    .vcpu_regs = xu_stable_vcpu_regs,
    .pause_regs = xu_stable_pause_regs,
    .vcpu_state = stable_vcpu_state,
    .map_frame = stable_map_frame,
    .unmap_frame = stable_unmap_frame,
};
