/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xencall_priv.h - what xencall.c (the backend on Xen's stable libraries)
 * and xencall_batch.c (its one-call pause and register reads) share.
 */
#ifndef XU_XENCALL_PRIV_H
#define XU_XENCALL_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch/xu_arch.h"
#include "backend.h"
#include "maps.h"

#include <xencall.h>
#include <xenforeignmemory.h>

/* vCPUs a tick reads in the same multicall as its pause; a domain with more
 * reads one at a time (its buffers would be as many vCPU contexts). */
#define XU_BATCH_MAX_VCPUS 64

/*
 * A tick's pause and first register reads, prepared at open in hypercall
 * buffers: calls[0] pauses, calls[1 + v] makes vCPU v's first read
 * (xu_arch_xen.first_read) into its own domctl and buffer.  After the
 * multicall, vcpu_regs() of each vCPU is answered from there (replaying),
 * and any further read the architecture makes goes to Xen as usual.
 */
struct stable_batch {
    unsigned int n;                 /* vCPUs prepared; 0: no batching */
    bool off;                       /* the hypervisor refused the multicall */
    multicall_entry_t *calls;       /* n + 1 */
    struct xen_domctl *domctls;     /* n + 1 */
    uint8_t *bufs;                  /* n buffers of the backend's buf_size */
    struct xu_xen_read reads[XU_BATCH_MAX_VCPUS];
    int results[XU_BATCH_MAX_VCPUS];    /* each read's: 0 or a positive errno */
    bool pending[XU_BATCH_MAX_VCPUS];   /* not yet handed to the architecture */
    bool replaying;                 /* answer reads from the above */
};

struct stable_priv {
    struct xu_xtl_logger logger;
    xencall_handle *xcall;
    xenforeignmemory_handle *fmem;
    struct xen_domctl *domctl;  /* hypercall buffer */
    void *buf;                  /* hypercall buffer: vCPU context or HVM record */
    size_t buf_size;
    struct xu_xen_maps maps;
    enum xu_guest_type type;
    unsigned int width;         /* PV guest width in bytes */
    struct xu_domain_info regs_info;    /* type and width, as vCPU reads need them */
    unsigned int pauses;        /* our pauses not yet undone */
    uint64_t *hypercalls;       /* the target's count (struct xu_target) */
    struct stable_batch batch;
};

/* Issue the domctl prepared in p->domctl (its union; the header is set
 * here); 0 or a positive errno. */
int xu_stable_domctl(struct stable_priv *p, uint32_t cmd, uint32_t domid);
/* d cleared, with the header of domctl cmd on domid. */
void xu_stable_domctl_init(struct xen_domctl *d, uint32_t cmd, uint32_t domid);
/* d as the domctl of read r (struct xu_xen_regs_io's) into buf, which
 * holds the backend's buf_size bytes: the one encoding of each read, for
 * a read made alone and one made ahead in a multicall. */
void xu_stable_read_domctl(const struct stable_priv *p, struct xen_domctl *d, uint32_t domid,
                           const struct xu_xen_read *r, void *buf);

/* xu_target_ops.vcpu_regs: through the architecture, with the reads below. */
int xu_stable_vcpu_regs(struct xu_target *t, unsigned int vcpu, struct xu_vcpu_regs *out);

/* Prepare batching for vCPUs 0..nr_vcpus-1 of the open target: buffers
 * allocated now, so that a tick never allocates.  Batching stays off
 * (nothing fails) where the domain has too many vCPUs or memory is short. */
void xu_stable_batch_init(struct xu_target *t, unsigned int nr_vcpus);
void xu_stable_batch_free(struct stable_priv *p);

/* xu_target_ops.pause_regs. */
int xu_stable_pause_regs(struct xu_target *t, unsigned int n, struct xu_vcpu_regs *regs,
                         int *rcs);

/*
 * While replaying: the answer to read r made ahead, if it was (then handed
 * over once): 0 with *buf set, or the positive errno Xen gave.  -ENOENT
 * when it was not made ahead: ask Xen.
 */
int xu_stable_batch_answer(struct stable_priv *p, const struct xu_xen_read *r,
                           const void **buf);

#endif
