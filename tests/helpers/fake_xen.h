/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fake_xen.h - a small model of the hypervisor's domctls, for testing the
 * Xen backends without Xen.
 *
 * Each backend's test replaces the library calls it makes (libxencall, or
 * libxc) with --wrap functions that end up in fake_xen_domctl(), so both
 * backends are tested against the same behaviour, which follows Xen's:
 * the interface version is checked before anything else (EACCES),
 * getdomaininfo answers with the first domain at or above the one asked
 * for (as before Xen 4.18), pauses are counted, a vCPU never brought up
 * has no context (ENODATA), and an HVM vCPU that is down has no CPU record.
 *
 * The test programs are also linked with --wrap=malloc,calloc,realloc so
 * that fake_xen.allocs counts the library's allocations.
 */
#ifndef FAKE_XEN_H
#define FAKE_XEN_H

#ifndef __XEN_TOOLS__
#define __XEN_TOOLS__ 1
#endif

#include <stddef.h>
#include <stdint.h>

#include <xen/xen.h>
#include <xen/domctl.h>

#include "util/xu_log.h"
#include "target/xu_target.h"

#define FAKE_NR_VCPUS 4
#define FAKE_NR_FRAMES 8
#define FAKE_DOMID 7

enum fake_vcpu_state { FAKE_VCPU_NONE = 0, FAKE_VCPU_UP, FAKE_VCPU_DOWN };
/* An HVM vCPU's mode: long mode with 4-level paging, protected mode with
 * PAE or two-level paging, real mode. */
enum fake_hvm_mode { FAKE_HVM_LONG = 0, FAKE_HVM_PAE, FAKE_HVM_2LEVEL, FAKE_HVM_REAL };

struct fake_xen {
    int open_errno;                 /* opening the library fails with it */
    uint32_t version;               /* the domctl interface version spoken */
    long xen_version;               /* XENVER_version: major << 16 | minor, <0: fails */
    uint32_t domid;                 /* the one domain there is */
    uint32_t flags;                 /* XEN_DOMINF_* */
    uint32_t emulation;             /* XEN_X86_EMU_* */
    unsigned int address_size;      /* bits, for a PV domain */
    enum fake_vcpu_state vcpu[FAKE_NR_VCPUS];
    enum fake_hvm_mode hvm_mode;    /* what the HVM CPU records say (long mode unless told) */
    uint32_t fail_cmd;              /* this domctl fails with fail_errno */
    int fail_errno;
    /* __HYPERVISOR_multicall (the xencall backend's one-call ticks): */
    int multicall_errno;            /* refused as a whole, nothing run */
    unsigned int multicall_cut;     /* > 0: stops with EFAULT after this many entries */
    unsigned int multicalls;        /* multicalls issued */
    int in_multicall;               /* a multicall's entries run: Xen runs them all,
                                     * reads after a pause that failed too */
    int pause_count;                /* the controller pause count */
    int handles_live;               /* library handles open */
    int maps_live;                  /* frames mapped */
    uint64_t domctls;               /* domctls issued */
    int allocs;                     /* malloc/calloc/realloc calls seen */
    /* what the backend logged */
    char last_msg[1024];
    int nr_errors;
};

extern struct fake_xen fake_xen;
extern struct xu_log fake_xen_log;      /* captures into fake_xen.last_msg */

/* A domain 7, 64-bit PV, running, vCPUs 0 and 3 up, 1 never brought up,
 * 2 brought up and taken down. */
void fake_xen_reset(void);

/* Execute a domctl as Xen would: 0 or a negative errno.  Output buffers
 * (vCPU context, HVM record) are written through the guest handles. */
int fake_xen_domctl(struct xen_domctl *d);

/* __HYPERVISOR_xen_version(XENVER_version): the version, whatever the
 * domctl interface; a negative errno when fake_xen.xen_version < 0. */
long fake_xen_version(void);

/* Frame contents: every byte of frame f is f.  Returns the frame's page,
 * or NULL and *err = EFAULT for a frame the domain does not have. */
void *fake_xen_frame(uint64_t frame, int *err);
/* Is p the start of one of the fake frames? */
int fake_xen_is_frame(const void *p);

#endif
