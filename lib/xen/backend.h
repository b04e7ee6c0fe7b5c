/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xen_backend.h - what the two Xen backends share above the vCPU state:
 * reading XEN_DOMCTL_getdomaininfo's answer, and turning failures into one
 * clear line for the user plus a negative errno for the caller.
 *
 * Both backends are compiled against the headers of the Xen they run on,
 * so struct xen_domctl_getdomaininfo here is that Xen's.
 */
#ifndef XU_XEN_BACKEND_H
#define XU_XEN_BACKEND_H

#ifndef __XEN_TOOLS__
#define __XEN_TOOLS__ 1     /* domctl.h is tools-only */
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <xen/xen.h>
#include <xen/domctl.h>
#include <xentoollog.h>

#include "util/xu_log.h"
#include "target/xu_target.h"

/*
 * PV, PVH or HVM.  XEN_DOMINF_hvm_guest separates PV from the rest; a PVH
 * domain is an HVM container whose only emulated device is the local APIC
 * (plus vPCI for a PVH dom0), which Xen reports in
 * arch_config.emulation_flags.  Older headers lack that field (configure
 * checks: HAVE_STRUCT_XEN_DOMCTL_GETDOMAININFO_ARCH_CONFIG).  Without it,
 * or when it reads 0 (a hypervisor that does not fill it in: a live HVM
 * domain always emulates the local APIC), the answer is HVM.  PVH and HVM
 * vCPUs are read the same way (guest frames, HVM CPU record), so only the
 * label can be wrong, never the profile.
 */
enum xu_guest_type xu_xen_guest_type(const struct xen_domctl_getdomaininfo *di);

/*
 * Fill out from a getdomaininfo answer.  pv_width is the guest width in
 * bytes of a PV domain (XEN_DOMCTL_get_address_size / 8); HVM and PVH
 * domains report 8, their vCPUs' modes are per vCPU (xu_vcpu_regs.mmu.paging).
 * Returns -EAGAIN for a domain that has no vCPU yet (still being built).
 */
int xu_xen_domain_info(const struct xen_domctl_getdomaininfo *di, unsigned int pv_width,
                       struct xu_domain_info *out);

/*
 * A domctl (named by call, e.g. "XEN_DOMCTL_pausedomain") failed with errno
 * err: log one line naming it and the domain, and return the negative errno
 * for the caller.  EACCES from XEN_DOMCTL_getdomaininfo means the hypervisor
 * refused this binary's XEN_DOMCTL_INTERFACE_VERSION: that gives -EPROTO
 * and xu_xen_mismatch()'s line, without the running version (the backends
 * ask XENVER_version first and call xu_xen_mismatch() themselves).
 */
int xu_xen_domctl_failed(struct xu_log *log, const char *call, uint32_t domid, int err);

/*
 * A vCPU's registers, read by the native architecture (lib/arch/xu_arch.h)
 * with the backend's own domctls: each takes the target as ctx and follows
 * struct xu_xen_regs_io's contract.  info needs the guest's type and width.
 */
struct xu_xen_domctls {
    int (*vcpu_context)(void *target, unsigned int vcpu, const void **buf);
    int (*hvm_record)(void *target, uint16_t type, uint16_t instance, const void **buf);
    int (*vcpu_online)(void *target, unsigned int vcpu, bool *online);
};
int xu_xen_vcpu_regs(struct xu_target *t, const struct xu_xen_domctls *d,
                     const struct xu_domain_info *info, unsigned int vcpu,
                     struct xu_vcpu_regs *out);

/*
 * Set t->arch to the domain's architecture as the native one's reading of
 * Xen says (struct xu_arch_xen's guest_arch): a 32-bit x86 guest is
 * x86_32 on a 64-bit dom0.  info needs the guest's type, width and
 * max_vcpu_id.  0, or a negative errno after one line: -EOPNOTSUPP for a
 * guest in a mode not profiled (x86 real mode).
 */
int xu_xen_guest_arch(struct xu_target *t, const struct xu_xen_domctls *d,
                      const struct xu_domain_info *info);

/*
 * The hypervisor refused this binary's domctl interface version: write the
 * one line the user sees into buf (always terminated), naming the Xen that
 * runs and the one this binary was built for, and what to do.  running is
 * XENVER_version's answer (major << 16 | minor), which does not depend on
 * the domctl interface; negative when even that could not be read.
 */
void xu_xen_mismatch_format(char *buf, size_t size, long running);

/* Log that line and return -EPROTO (the CLI's exit code 7). */
int xu_xen_mismatch(struct xu_log *log, long running);

/* -EINVAL (logged) unless domid can name a guest: domctls carry a 16-bit
 * domid_t, and ids from DOMID_FIRST_RESERVED up are Xen's own
 * (DOMID_SELF, DOMID_IO, ...), never a guest to profile. */
int xu_xen_check_domid(struct xu_log *log, uint32_t domid);

/* The privileged interface (what) could not be opened: one line that says
 * what to check, and the negative errno. */
int xu_xen_open_failed(struct xu_log *log, const char *what, int err);

/*
 * Xen's libraries log through xentoollog.  This logger turns their lines
 * into our debug lines, so that the user sees the one line we write about a
 * failure, and --verbose shows the libraries' details.
 */
struct xu_xtl_logger {
    xentoollog_logger xtl;      /* first: the libraries hand back this pointer */
    struct xu_log *log;
};
void xu_xtl_logger_init(struct xu_xtl_logger *l, struct xu_log *log);

/* The domctl interface version this build speaks, for messages and tests. */
unsigned int xu_xen_domctl_version(void);

#endif
