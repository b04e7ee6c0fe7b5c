/* SPDX-License-Identifier: GPL-2.0-only */
/* xen_backend.c - getdomaininfo -> xu_domain_info, and the Xen error lines. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "arch/xu_arch.h"
#include "backend.h"

/* Devices an HVM guest emulates and a PVH guest does not. */
#define EMU_NOT_PVH (XEN_X86_EMU_HPET | XEN_X86_EMU_PM | XEN_X86_EMU_RTC | \
                     XEN_X86_EMU_IOAPIC | XEN_X86_EMU_PIC | XEN_X86_EMU_VGA | \
                     XEN_X86_EMU_IOMMU | XEN_X86_EMU_PIT)

unsigned int xu_xen_domctl_version(void)
{
    return XEN_DOMCTL_INTERFACE_VERSION;
}

enum xu_guest_type xu_xen_guest_type(const struct xen_domctl_getdomaininfo *di)
{
    if (!(di->flags & XEN_DOMINF_hvm_guest))
        return XU_GUEST_PV;
    /* x86 only: an ARM guest is always "hvm" (Xen's flag) and has no PVH */
#if defined(HAVE_STRUCT_XEN_DOMCTL_GETDOMAININFO_ARCH_CONFIG) && defined(XEN_X86_EMU_LAPIC)
    {
        uint32_t emu = di->arch_config.emulation_flags;

        if ((emu & XEN_X86_EMU_LAPIC) && !(emu & EMU_NOT_PVH))
            return XU_GUEST_PVH;
    }
#endif
    return XU_GUEST_HVM;
}

int xu_xen_domain_info(const struct xen_domctl_getdomaininfo *di, unsigned int pv_width,
                       struct xu_domain_info *out)
{
    memset(out, 0, sizeof(*out));
    if (di->max_vcpu_id == XEN_INVALID_MAX_VCPU_ID)
        return -EAGAIN;
    out->domid = di->domain;
    out->type = xu_xen_guest_type(di);
    out->max_vcpu_id = di->max_vcpu_id;
    out->nr_online_vcpus = di->nr_online_vcpus;
    out->guest_width = out->type == XU_GUEST_PV ? pv_width : 8;
    out->paused = (di->flags & XEN_DOMINF_paused) != 0;
    out->shutdown = (di->flags & XEN_DOMINF_shutdown) != 0;
    out->dying = (di->flags & XEN_DOMINF_dying) != 0;
    if (out->shutdown)
        out->shutdown_reason = (di->flags >> XEN_DOMINF_shutdownshift) & XEN_DOMINF_shutdownmask;
    memcpy(out->handle, di->handle, sizeof(out->handle) < sizeof(di->handle) ?
           sizeof(out->handle) : sizeof(di->handle));
    return 0;
}

int xu_xen_domctl_failed(struct xu_log *log, const char *call, uint32_t domid, int err)
{
    if (err <= 0)
        err = EIO;      /* a failure without errno must still fail */
    /*
     * Xen answers every domctl whose interface_version differs from its own
     * with EACCES, before looking at anything else.  getdomaininfo is the
     * first domctl a target makes and dom0 is always allowed it, so there
     * EACCES means "built for another Xen".
     */
    if (err == EACCES && strcmp(call, "XEN_DOMCTL_getdomaininfo") == 0)
        return xu_xen_mismatch(log, -1);
    if (err == ESRCH)
        xu_error(log, "%s: no domain %u", call, (unsigned int)domid);
    else
        xu_error(log, "%s for domain %u failed: %s", call, (unsigned int)domid, strerror(err));
    return -err;
}

static int regs_io_failed(void *ctx, const char *call, int err)
{
    struct xu_target *t = ctx;

    return xu_xen_domctl_failed(t->log, call, t->domid, err);
}

/* The backend's domctls as the architecture reads a vCPU with them. */
static struct xu_xen_regs_io regs_io(struct xu_target *t, const struct xu_xen_domctls *d)
{
    return (struct xu_xen_regs_io){
        .ctx = t,
        .vcpu_context = d->vcpu_context,
        .hvm_record = d->hvm_record,
        .vcpu_online = d->vcpu_online,
        .failed = regs_io_failed,
    };
}

int xu_xen_vcpu_regs(struct xu_target *t, const struct xu_xen_domctls *d,
                     const struct xu_domain_info *info, unsigned int vcpu,
                     struct xu_vcpu_regs *out)
{
    const struct xu_xen_regs_io io = regs_io(t, d);

    return xu_arch_xen_native.vcpu_regs(&io, info, vcpu, out);
}

int xu_xen_guest_arch(struct xu_target *t, const struct xu_xen_domctls *d,
                      const struct xu_domain_info *info)
{
    const struct xu_xen_regs_io io = regs_io(t, d);
    const struct xu_arch_ops *arch = NULL;
    const char *why = "its mode is not one this build profiles";
    int rc = xu_arch_xen_native.guest_arch(&io, info, &arch, &why);

    if (rc == -EOPNOTSUPP)
        xu_error(t->log, "domain %u is not profiled: %s", (unsigned int)t->domid, why);
    if (rc < 0)
        return rc;
    t->arch = arch;
    xu_debug(t->log, "domain %u: a %s %s guest", (unsigned int)t->domid, arch->name,
             xu_guest_type_name(info->type));
    return 0;
}

void xu_xen_mismatch_format(char *buf, size_t size, long running)
{
    char xen[32];

    if (running >= 0) {
        snprintf(xen, sizeof(xen), "%ld.%ld", (running >> 16) & 0xffff, running & 0xffff);
        snprintf(buf, size, "Xen version mismatch: the running hypervisor is Xen %s, this "
                 "xen-uniprof was built for Xen %s (domctl interface 0x%08x, which Xen %s "
                 "rejects): rebuild xen-uniprof against Xen %s's headers: "
                 "scripts/xen-sysroot %s DIR && ./configure --with-xen=DIR",
                 xen, XU_BUILT_XEN_VERSION, (unsigned int)XEN_DOMCTL_INTERFACE_VERSION, xen,
                 xen, xen);
        return;
    }
    /* XENVER_version failed too: still say what was built for and what to do. */
    snprintf(buf, size, "Xen version mismatch: the running hypervisor (version unknown) rejects "
             "the domctl interface 0x%08x of Xen %s that this xen-uniprof was built for: "
             "rebuild xen-uniprof against the running Xen's headers: "
             "scripts/xen-sysroot X.Y DIR && ./configure --with-xen=DIR",
             (unsigned int)XEN_DOMCTL_INTERFACE_VERSION, XU_BUILT_XEN_VERSION);
}

int xu_xen_mismatch(struct xu_log *log, long running)
{
    char line[512];

    xu_xen_mismatch_format(line, sizeof(line), running);
    xu_error(log, "%s", line);
    return -EPROTO;
}

int xu_xen_check_domid(struct xu_log *log, uint32_t domid)
{
    if (domid < DOMID_FIRST_RESERVED)
        return 0;
    xu_error(log, "%u is not a guest's domain id (ids from %u up are reserved by Xen)",
             (unsigned int)domid, (unsigned int)DOMID_FIRST_RESERVED);
    return -EINVAL;
}

int xu_xen_open_failed(struct xu_log *log, const char *what, int err)
{
    if (err <= 0)
        err = EIO;
    if (err == ENOENT || err == EACCES || err == EPERM || err == ENXIO || err == ENODEV)
        xu_error(log, "cannot open Xen privcmd (%s: %s): are you root in dom0 with the "
                 "xen-privcmd module loaded?", what, strerror(err));
    else
        xu_error(log, "cannot open Xen privcmd (%s): %s", what, strerror(err));
    return -err;
}

/* format comes from Xen's libraries, a printf format by xentoollog's contract */
__attribute__((format(printf, 5, 0)))
static void xtl_vmessage(xentoollog_logger *xtl, xentoollog_level level, int errnoval,
                         const char *context, const char *format, va_list al)
{
    struct xu_xtl_logger *l = (struct xu_xtl_logger *)xtl;
    char msg[512];

    (void)level;
    vsnprintf(msg, sizeof(msg), format, al);
    if (errnoval >= 0)
        xu_debug(l->log, "%s: %s: %s", context ? context : "xen", msg, strerror(errnoval));
    else
        xu_debug(l->log, "%s: %s", context ? context : "xen", msg);
}

static void xtl_destroy(xentoollog_logger *xtl)
{
    (void)xtl;      /* embedded in the backend's state: nothing to free */
}

void xu_xtl_logger_init(struct xu_xtl_logger *l, struct xu_log *log)
{
    memset(l, 0, sizeof(*l));
    l->xtl.vmessage = xtl_vmessage;
    l->xtl.destroy = xtl_destroy;
    l->log = log;
}
