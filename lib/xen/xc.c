/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xc.c - the target backend on libxc (libxenctrl), the API that
 * uniprof used and that every Xen since 4.8 still ships.
 *
 * libxc's API changes between releases; configure finds what this one has:
 *  - xc_domain_getinfo_single (Xen >= 4.18), else xc_domain_getinfo (which
 *    4.18 removed): both read XEN_DOMCTL_getdomaininfo.
 *  - xc_map_foreign_range, declared since Xen 4.7 only under
 *    XC_WANT_COMPAT_MAP_FOREIGN_API.
 * libxc bounces hypercall arguments through its own buffers, so unlike the
 * xencall backend this one cannot promise that vcpu_regs() never allocates;
 * that (and the extra copies) is the price of the older API.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "arch/xu_arch.h"
#include "backend.h"
#include "maps.h"

#define XC_WANT_COMPAT_MAP_FOREIGN_API 1
#include <xenctrl.h>

#if !HAVE_DECL_XC_MAP_FOREIGN_RANGE
#error "libxc without xc_map_foreign_range: build with --with-backend=xencall"
#endif
#if !HAVE_DECL_XC_DOMAIN_GETINFO_SINGLE && !HAVE_DECL_XC_DOMAIN_GETINFO
#error "libxc without xc_domain_getinfo_single and xc_domain_getinfo"
#endif

struct xc_priv {
    struct xu_xtl_logger logger;
    xc_interface *xch;
    void *ctx;                  /* the architecture's vcpu_guest_context */
    void *rec;                  /* one HVM save record */
    struct xu_xen_maps maps;
    enum xu_guest_type type;
    unsigned int width;         /* PV guest width in bytes */
    struct xu_domain_info regs_info;    /* type and width, as vCPU reads need them */
    unsigned int pauses;        /* our pauses not yet undone */
};

static int failed(struct xu_target *t, const char *call)
{
    return xu_xen_domctl_failed(t->log, call, t->domid, errno);
}

/* getdomaininfo failed: a refused interface version names the running Xen
 * (XENVER_version works whatever the domctl interface). */
static int getinfo_failed(struct xu_target *t, struct xc_priv *p)
{
    if (errno == EACCES)
        return xu_xen_mismatch(t->log, xc_version(p->xch, XENVER_version, NULL));
    return failed(t, "XEN_DOMCTL_getdomaininfo");
}

/*
 * XEN_DOMCTL_getdomaininfo through whichever call this libxc has.  The old
 * xc_domain_getinfo() unpacks the answer into xc_dominfo_t; it is packed
 * back so that one function (xu_xen_domain_info) reads it for both
 * backends.
 */
static int get_domaininfo(struct xu_target *t, struct xc_priv *p,
                          struct xen_domctl_getdomaininfo *di)
{
#if HAVE_DECL_XC_DOMAIN_GETINFO_SINGLE
    memset(di, 0, sizeof(*di));
    if (xc_domain_getinfo_single(p->xch, t->domid, di) < 0)
        return getinfo_failed(t, p);
    return 0;
#else
    xc_dominfo_t xi;
    int n;

    memset(&xi, 0, sizeof(xi));
    memset(di, 0, sizeof(*di));
    n = xc_domain_getinfo(p->xch, t->domid, 1, &xi);
    if (n < 0)
        return getinfo_failed(t, p);
    /* It answers with the next domain when domid does not exist. */
    if (n == 0 || xi.domid != t->domid) {
        errno = ESRCH;
        return failed(t, "XEN_DOMCTL_getdomaininfo");
    }
    di->domain = (domid_t)xi.domid;
    di->flags = (xi.dying ? XEN_DOMINF_dying : 0) |
                (xi.hvm ? XEN_DOMINF_hvm_guest : 0) |
                (xi.shutdown ? XEN_DOMINF_shutdown : 0) |
                (xi.paused ? XEN_DOMINF_paused : 0) |
                ((xi.shutdown_reason & XEN_DOMINF_shutdownmask) << XEN_DOMINF_shutdownshift);
    di->nr_online_vcpus = xi.nr_online_vcpus;
    di->max_vcpu_id = xi.max_vcpu_id;
    memcpy(di->handle, xi.handle, sizeof(di->handle));
#if defined(HAVE_XC_DOMINFO_T_ARCH_CONFIG) && \
    defined(HAVE_STRUCT_XEN_DOMCTL_GETDOMAININFO_ARCH_CONFIG)
    di->arch_config = xi.arch_config;
#endif
    return 0;
#endif
}

static void xcb_close(struct xu_target *t);
static const struct xu_xen_domctls domctls;

static int xcb_open(struct xu_target *t, uint32_t domid)
{
    struct xen_domctl_getdomaininfo di;
    struct xc_priv *p;
    unsigned int width = 0;
    int rc;

    rc = xu_xen_check_domid(t->log, domid);
    if (rc)
        return rc;
    p = calloc(1, sizeof(*p));
    if (!p)
        return -ENOMEM;
    t->priv = p;
    xu_xtl_logger_init(&p->logger, t->log);

    p->xch = xc_interface_open(&p->logger.xtl, &p->logger.xtl, 0);
    if (!p->xch) {
        rc = xu_xen_open_failed(t->log, "xc_interface_open", errno);
        goto out;
    }
    /* libxc needs no hypercall-safe memory here: it bounces through its own */
    p->ctx = calloc(1, xu_arch_xen_native.vcpu_context_size);
    /* an architecture without HVM records (arm64) asks for none */
    if (xu_arch_xen_native.hvm_record_size)
        p->rec = calloc(1, xu_arch_xen_native.hvm_record_size);
    if (!p->ctx || (xu_arch_xen_native.hvm_record_size && !p->rec)) {
        rc = -ENOMEM;
        goto out;
    }
    rc = get_domaininfo(t, p, &di);
    if (rc)
        goto out;
    p->type = xu_xen_guest_type(&di);
    p->width = 8u;
    if (p->type == XU_GUEST_PV) {
        if (xc_domain_get_guest_width(p->xch, t->domid, &width) < 0) {
            rc = failed(t, "XEN_DOMCTL_get_address_size");
            goto out;
        }
        if (width != 8u && width != 4u) {
            xu_error(t->log, "XEN_DOMCTL_get_address_size for domain %u: unexpected width %u bytes",
                     (unsigned int)t->domid, width);
            rc = -EPROTO;
            goto out;
        }
        p->width = width;
    }
    p->regs_info.type = p->type;
    p->regs_info.guest_width = p->width;
    p->regs_info.max_vcpu_id = di.max_vcpu_id;
    rc = xu_xen_guest_arch(t, &domctls, &p->regs_info);

out:
    if (rc)
        xcb_close(t);
    return rc;
}

static void unmap_one(void *ctx, const void *addr)
{
    (void)ctx;
    munmap((void *)(uintptr_t)addr, XC_PAGE_SIZE);
}

static void xcb_close(struct xu_target *t)
{
    struct xc_priv *p = t->priv;

    if (!p)
        return;
    /* Never leave the guest stopped because the caller lost track. */
    while (p->pauses > 0 && xc_domain_unpause(p->xch, t->domid) == 0)
        p->pauses--;
    xu_xen_maps_release(&p->maps, unmap_one, NULL);
    if (p->xch)
        xc_interface_close(p->xch);
    free(p->ctx);
    free(p->rec);
    free(p);
    t->priv = NULL;
}

static int xcb_info(struct xu_target *t, struct xu_domain_info *out)
{
    struct xc_priv *p = t->priv;
    struct xen_domctl_getdomaininfo di;
    int rc;

    rc = get_domaininfo(t, p, &di);
    if (rc)
        return rc;
    rc = xu_xen_domain_info(&di, p->width, out);
    if (rc == -EAGAIN)
        xu_warn(t->log, "domain %u has no vCPU yet", (unsigned int)t->domid);
    return rc;
}

static int xcb_pause(struct xu_target *t)
{
    struct xc_priv *p = t->priv;

    t->hypercalls++;
    if (xc_domain_pause(p->xch, t->domid) < 0)
        return failed(t, "XEN_DOMCTL_pausedomain");
    p->pauses++;
    return 0;
}

static int xcb_unpause(struct xu_target *t)
{
    struct xc_priv *p = t->priv;

    t->hypercalls++;
    if (xc_domain_unpause(p->xch, t->domid) < 0)
        return failed(t, "XEN_DOMCTL_unpausedomain");
    if (p->pauses > 0)
        p->pauses--;
    return 0;
}

/* The calls an architecture reads a vCPU with (struct xu_xen_regs_io). */
static int io_vcpu_context(void *ctx, unsigned int vcpu, const void **buf)
{
    struct xu_target *t = ctx;
    struct xc_priv *p = t->priv;

    t->hypercalls++;
    if (xc_vcpu_getcontext(p->xch, t->domid, vcpu, p->ctx) < 0)
        return errno == ENODATA ? -ENODATA : failed(t, "XEN_DOMCTL_getvcpucontext");
    *buf = p->ctx;
    return 0;
}

static int io_hvm_record(void *ctx, uint16_t type, uint16_t instance, const void **buf)
{
    struct xu_target *t = ctx;
    struct xc_priv *p = t->priv;

    t->hypercalls++;
    if (xc_domain_hvm_getcontext_partial(p->xch, t->domid, type, instance, p->rec,
                                         xu_arch_xen_native.hvm_record_size) < 0)
        /* newer hypervisors say ENODATA for a vCPU without state, older ENOENT */
        return errno == ENODATA || errno == ENOENT ? -ENODATA :
               failed(t, "XEN_DOMCTL_gethvmcontext_partial");
    *buf = p->rec;
    return 0;
}

static int io_vcpu_online(void *ctx, unsigned int vcpu, bool *online)
{
    struct xu_target *t = ctx;
    struct xc_priv *p = t->priv;
    xc_vcpuinfo_t vi;

    memset(&vi, 0, sizeof(vi));
    t->hypercalls++;
    if (xc_vcpu_getinfo(p->xch, t->domid, vcpu, &vi) < 0)
        return failed(t, "XEN_DOMCTL_getvcpuinfo");
    *online = vi.online != 0;
    return 0;
}

/* State and CPU time: the same domctl, asked before the pause. */
static int xcb_vcpu_state(struct xu_target *t, unsigned int vcpu, struct xu_vcpu_state *out)
{
    struct xc_priv *p = t->priv;
    xc_vcpuinfo_t vi;

    memset(&vi, 0, sizeof(vi));
    /* asked every tick: a domain going away says so at the pause that
     * follows, with one message, not one per vCPU here */
    t->hypercalls++;
    if (xc_vcpu_getinfo(p->xch, t->domid, vcpu, &vi) < 0) {
        int err = errno > 0 ? errno : EIO;

        xu_debug(t->log, "XEN_DOMCTL_getvcpuinfo (vCPU %u state): %s", vcpu, strerror(err));
        return -err;
    }
    out->state = xu_vstate_from_flags(vi.online != 0, vi.blocked != 0, vi.running != 0);
    out->cpu_time_ns = vi.cpu_time;
    return 0;
}

static const struct xu_xen_domctls domctls = {
    .vcpu_context = io_vcpu_context,
    .hvm_record = io_hvm_record,
    .vcpu_online = io_vcpu_online,
};

static int xcb_vcpu_regs(struct xu_target *t, unsigned int vcpu, struct xu_vcpu_regs *out)
{
    struct xc_priv *p = t->priv;

    return xu_xen_vcpu_regs(t, &domctls, &p->regs_info, vcpu, out);
}

static const void *xcb_map_frame(struct xu_target *t, uint64_t frame)
{
    struct xc_priv *p = t->priv;
    void *addr;

    if ((uint64_t)(unsigned long)frame != frame) {
        errno = EINVAL;
        return NULL;
    }
    addr = xc_map_foreign_range(p->xch, t->domid, XC_PAGE_SIZE, PROT_READ, (unsigned long)frame);
    if (!addr)
        return NULL;
    if (xu_xen_maps_add(&p->maps, addr) < 0) {
        munmap(addr, XC_PAGE_SIZE);
        errno = ENOMEM;
        return NULL;
    }
    return addr;
}

static void xcb_unmap_frame(struct xu_target *t, const void *addr)
{
    struct xc_priv *p = t->priv;

    if (addr && xu_xen_maps_remove(&p->maps, addr) == 0)
        munmap((void *)(uintptr_t)addr, XC_PAGE_SIZE);
}

const struct xu_target_ops xu_target_xc_ops = {
    .name = "xc",
    .open = xcb_open,
    .close = xcb_close,
    .info = xcb_info,
    .pause = xcb_pause,
    .unpause = xcb_unpause,
    .vcpu_regs = xcb_vcpu_regs,
    .vcpu_state = xcb_vcpu_state,
    .map_frame = xcb_map_frame,
    .unmap_frame = xcb_unmap_frame,
};
