/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_target_xc.c - the libxc backend against a fake hypervisor.
 *
 * The libxc calls the backend makes are replaced at link time (--wrap) by
 * versions that issue their domctl to tests/helpers/fake_xen.c the way
 * libxc does, so this backend passes the same contract as the xencall one.
 * munmap is wrapped to see fake frames unmapped.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <cmocka.h>

#include "backend_contract.h"
#include "fake_xen.h"

#define XC_WANT_COMPAT_MAP_FOREIGN_API 1
#include <xenctrl.h>

static xc_interface *const fake_xch = (xc_interface *)&fake_xen.domctls;

xc_interface *__wrap_xc_interface_open(xentoollog_logger *logger,
                                       xentoollog_logger *dombuild_logger, unsigned open_flags);
int __wrap_xc_interface_close(xc_interface *xch);
int __wrap_xc_version(xc_interface *xch, int cmd, void *arg);
#if HAVE_DECL_XC_DOMAIN_GETINFO       /* removed in Xen 4.18, with xc_dominfo_t */
int __wrap_xc_domain_getinfo(xc_interface *xch, uint32_t first_domid, unsigned int max_doms,
                             xc_dominfo_t *info);
#endif
int __wrap_xc_domain_getinfo_single(xc_interface *xch, uint32_t domid, xc_domaininfo_t *info);
int __wrap_xc_domain_get_guest_width(xc_interface *xch, uint32_t domid, unsigned int *guest_width);
int __wrap_xc_domain_pause(xc_interface *xch, uint32_t domid);
int __wrap_xc_domain_unpause(xc_interface *xch, uint32_t domid);
int __wrap_xc_vcpu_getcontext(xc_interface *xch, uint32_t domid, uint32_t vcpu,
                              vcpu_guest_context_any_t *ctxt);
int __wrap_xc_domain_hvm_getcontext_partial(xc_interface *xch, uint32_t domid, uint16_t typecode,
                                            uint16_t instance, void *ctxt_buf, uint32_t size);
int __wrap_xc_vcpu_getinfo(xc_interface *xch, uint32_t domid, uint32_t vcpu,
                           xc_vcpuinfo_t *info);
void *__wrap_xc_map_foreign_range(xc_interface *xch, uint32_t dom, int size, int prot,
                                  unsigned long mfn);
int __real_munmap(void *addr, size_t len);
int __wrap_munmap(void *addr, size_t len);

/* One domctl as libxc issues it: -1 and errno on failure. */
static int call(struct xen_domctl *d, uint32_t cmd, uint32_t domid)
{
    int rc;

    d->cmd = cmd;
    d->interface_version = XEN_DOMCTL_INTERFACE_VERSION;
    d->domain = (domid_t)domid;
    rc = fake_xen_domctl(d);
    if (rc < 0) {
        errno = -rc;
        return -1;
    }
    return 0;
}

xc_interface *__wrap_xc_interface_open(xentoollog_logger *logger,
                                       xentoollog_logger *dombuild_logger, unsigned open_flags)
{
    (void)dombuild_logger;
    (void)open_flags;
    if (fake_xen.open_errno) {
        xtl_log(logger, XTL_ERROR, fake_xen.open_errno, "xc", "Could not obtain handle");
        errno = fake_xen.open_errno;
        return NULL;
    }
    fake_xen.handles_live++;
    return fake_xch;
}

int __wrap_xc_interface_close(xc_interface *xch)
{
    assert_ptr_equal(xch, fake_xch);
    fake_xen.handles_live--;
    return 0;
}

int __wrap_xc_version(xc_interface *xch, int cmd, void *arg)
{
    long v;

    assert_ptr_equal(xch, fake_xch);
    assert_int_equal(cmd, XENVER_version);
    assert_null(arg);
    v = fake_xen_version();
    if (v < 0) {
        errno = (int)-v;
        return -1;
    }
    return (int)v;
}

#if HAVE_DECL_XC_DOMAIN_GETINFO
int __wrap_xc_domain_getinfo(xc_interface *xch, uint32_t first_domid, unsigned int max_doms,
                             xc_dominfo_t *info)
{
    struct xen_domctl d;
    const struct xen_domctl_getdomaininfo *di = &d.u.getdomaininfo;

    assert_ptr_equal(xch, fake_xch);
    assert_int_equal(max_doms, 1);
    memset(&d, 0, sizeof(d));
    if (call(&d, XEN_DOMCTL_getdomaininfo, first_domid) < 0)
        return errno == ESRCH ? 0 : -1;     /* libxc: no more domains */
    memset(info, 0, sizeof(*info));
    info->domid = di->domain;
    info->dying = !!(di->flags & XEN_DOMINF_dying);
    info->hvm = !!(di->flags & XEN_DOMINF_hvm_guest);
    info->shutdown = !!(di->flags & XEN_DOMINF_shutdown);
    info->paused = !!(di->flags & XEN_DOMINF_paused);
    info->shutdown_reason = (di->flags >> XEN_DOMINF_shutdownshift) & XEN_DOMINF_shutdownmask;
    info->nr_online_vcpus = di->nr_online_vcpus;
    info->max_vcpu_id = di->max_vcpu_id;
    memcpy(info->handle, di->handle, sizeof(info->handle));
#if defined(HAVE_XC_DOMINFO_T_ARCH_CONFIG) && \
    defined(HAVE_STRUCT_XEN_DOMCTL_GETDOMAININFO_ARCH_CONFIG)
    info->arch_config = di->arch_config;
#endif
    return 1;
}
#endif

/* Xen >= 4.18's call (declared here, since older headers lack it). */
int __wrap_xc_domain_getinfo_single(xc_interface *xch, uint32_t domid, xc_domaininfo_t *info)
{
    struct xen_domctl d;

    assert_ptr_equal(xch, fake_xch);
    memset(&d, 0, sizeof(d));
    if (call(&d, XEN_DOMCTL_getdomaininfo, domid) < 0)
        return -1;
    if (d.u.getdomaininfo.domain != domid) {
        errno = ESRCH;
        return -1;
    }
    *info = d.u.getdomaininfo;
    return 0;
}

int __wrap_xc_domain_get_guest_width(xc_interface *xch, uint32_t domid, unsigned int *guest_width)
{
    struct xen_domctl d;

    assert_ptr_equal(xch, fake_xch);
    memset(&d, 0, sizeof(d));
    if (call(&d, XEN_DOMCTL_get_address_size, domid) < 0)
        return -1;
    *guest_width = d.u.address_size.size / 8;
    return 0;
}

int __wrap_xc_domain_pause(xc_interface *xch, uint32_t domid)
{
    struct xen_domctl d;

    assert_ptr_equal(xch, fake_xch);
    memset(&d, 0, sizeof(d));
    return call(&d, XEN_DOMCTL_pausedomain, domid);
}

int __wrap_xc_domain_unpause(xc_interface *xch, uint32_t domid)
{
    struct xen_domctl d;

    assert_ptr_equal(xch, fake_xch);
    memset(&d, 0, sizeof(d));
    return call(&d, XEN_DOMCTL_unpausedomain, domid);
}

int __wrap_xc_vcpu_getcontext(xc_interface *xch, uint32_t domid, uint32_t vcpu,
                              vcpu_guest_context_any_t *ctxt)
{
    struct xen_domctl d;

    assert_ptr_equal(xch, fake_xch);
    memset(&d, 0, sizeof(d));
    d.u.vcpucontext.vcpu = vcpu;
    d.u.vcpucontext.ctxt.p = &ctxt->c;   /* xenctrl.h redefines set_xen_guest_handle */
    return call(&d, XEN_DOMCTL_getvcpucontext, domid);
}

int __wrap_xc_domain_hvm_getcontext_partial(xc_interface *xch, uint32_t domid, uint16_t typecode,
                                            uint16_t instance, void *ctxt_buf, uint32_t size)
{
    struct xen_domctl d;

    assert_ptr_equal(xch, fake_xch);
    memset(&d, 0, sizeof(d));
    d.u.hvmcontext_partial.type = typecode;
    d.u.hvmcontext_partial.instance = instance;
#ifdef HAVE_STRUCT_XEN_DOMCTL_HVMCONTEXT_PARTIAL_BUFSZ
    d.u.hvmcontext_partial.bufsz = size;
#else
    assert_true(size >= sizeof(struct hvm_hw_cpu));
#endif
    d.u.hvmcontext_partial.buffer.p = ctxt_buf;
    return call(&d, XEN_DOMCTL_gethvmcontext_partial, domid);
}

int __wrap_xc_vcpu_getinfo(xc_interface *xch, uint32_t domid, uint32_t vcpu,
                           xc_vcpuinfo_t *info)
{
    struct xen_domctl d;

    assert_ptr_equal(xch, fake_xch);
    memset(&d, 0, sizeof(d));
    d.u.getvcpuinfo.vcpu = vcpu;
    if (call(&d, XEN_DOMCTL_getvcpuinfo, domid) < 0)
        return -1;
    memset(info, 0, sizeof(*info));
    info->online = d.u.getvcpuinfo.online;
    info->blocked = d.u.getvcpuinfo.blocked;
    info->running = d.u.getvcpuinfo.running;
    info->cpu_time = d.u.getvcpuinfo.cpu_time;
    info->cpu = d.u.getvcpuinfo.cpu;
    return 0;
}

void *__wrap_xc_map_foreign_range(xc_interface *xch, uint32_t dom, int size, int prot,
                                  unsigned long mfn)
{
    void *page;
    int err;

    assert_ptr_equal(xch, fake_xch);
    assert_int_equal(dom, fake_xen.domid);
    assert_int_equal(size, XC_PAGE_SIZE);
    assert_int_equal(prot, PROT_READ);
    page = fake_xen_frame(mfn, &err);
    if (!page) {
        errno = err;
        return NULL;
    }
    fake_xen.maps_live++;
    return page;
}

int __wrap_munmap(void *addr, size_t len)
{
    if (!fake_xen_is_frame(addr))
        return __real_munmap(addr, len);
    assert_int_equal(len, XC_PAGE_SIZE);
    fake_xen.maps_live--;
    return 0;
}

extern const struct xu_target_ops xu_target_xc_ops;

int main(void)
{
    contract_ops = &xu_target_xc_ops;
    return contract_run("xc: backend contract");
}
