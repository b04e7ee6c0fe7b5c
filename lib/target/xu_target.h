/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu_target.h - the one interface between the profiler and a running guest.
 *
 * A target is a domain seen through one backend: the stable Xen libraries
 * (libxencall + libxenforeignmemory), libxc, or the simulated guest used by
 * tests and benchmarks.  The core never asks which backend it talks to; it
 * calls through struct xu_target_ops, chosen once at open time.
 *
 * Conventions (as in Xen's own libraries): functions return 0 on success
 * and a negative errno value on failure; pointer-returning functions return
 * NULL and set errno.  A backend reports details through the target's logger.
 *
 * The paused window: pause(), vcpu_regs() and reads from frames that are
 * already mapped are what the sampler calls while the guest is stopped.
 * vcpu_regs() must not allocate or do I/O other than its hypercalls.
 *
 * vcpu_state() is asked while the guest runs, just before the pause: a
 * paused vCPU is neither running nor blocked in the sense a profile means.
 *
 * pause() and unpause() are called by target/pause.c alone (xu_pause.h
 * holds the policy), so there are no helpers for them here.
 */
#ifndef XU_TARGET_H
#define XU_TARGET_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

#include "profile/xu_vstate.h"
#include "util/xu_log.h"

#define XU_PAGE_SHIFT 12
#define XU_PAGE_SIZE  (1ULL << XU_PAGE_SHIFT)

enum xu_guest_type {
    XU_GUEST_PV = 0,    /* paravirtualised: page tables hold machine frames */
    XU_GUEST_PVH,       /* HVM container without device model: guest frames */
    XU_GUEST_HVM,       /* fully virtualised: guest frames */
};

const char *xu_guest_type_name(enum xu_guest_type type);

/* How a vCPU translates virtual addresses at the moment it was stopped. */
enum xu_paging_mode {
    XU_PAGING_NONE = 0, /* paging off: virtual == physical */
    XU_PAGING_32,       /* 32-bit two-level (walked by arch/x86_32 only) */
    XU_PAGING_PAE,      /* 32-bit PAE (walked by arch/x86_32 only) */
    XU_PAGING_LONG4,    /* x86-64 four-level */
    XU_PAGING_LONG5,    /* x86-64 five-level (LA57) */
    XU_PAGING_ARM64,    /* AArch64 stage 1, VMSAv8-64: TTBR0/TTBR1 under TCR_EL1 */
    XU_PAGING_ARM32,    /* AArch32 stage 1, VMSAv7: short descriptors or LPAE as TTBCR.EAE says */
};

const char *xu_paging_mode_name(enum xu_paging_mode mode);

#define XU_MAX_VCPUS 512    /* bound on max_vcpu_id + 1 we read */

struct xu_domain_info {
    uint32_t domid;
    enum xu_guest_type type;
    unsigned int max_vcpu_id;   /* vCPUs are 0..max_vcpu_id, some may be offline */
    unsigned int nr_online_vcpus;
    unsigned int guest_width;   /* bytes per word: 8 for 64-bit guests */
    bool paused;                /* paused by someone (an admin, or us) */
    bool shutdown;              /* shut down (see shutdown_reason) */
    bool dying;                 /* being destroyed */
    unsigned int shutdown_reason; /* SHUTDOWN_* from xen/sched.h when shutdown */
    uint64_t handle[2];         /* the domain's UUID */
};

/*
 * How a vCPU translates virtual addresses at the moment it was stopped.
 * Only its architecture's page walk reads it (lib/arch/).
 */
struct xu_mmu {
    enum xu_paging_mode paging;
    /*
     * Root of the page tables in effect, as a frame-space address: for x86
     * PV a machine address (MFN << 12), for PVH/HVM a guest-physical one;
     * arm64: TTBR0_EL1 as the vCPU holds it (ASID and CnP included).
     * It is what the page walk starts from, whichever space that is.
     */
    uint64_t root;
    uint64_t root_hi;           /* a second root for the upper half, where there is one:
                                 * arm64 TTBR1_EL1; x86 PV in user mode, the kernel table */
    uint64_t ctl;               /* translation control where the architecture has one:
                                 * arm64 TCR_EL1; a 32-bit x86 vCPU's CR4 (PSE), or
                                 * XU_X86_32_CTL_PV_L3 for a 32-bit PV vCPU */
};

/*
 * ctl of a 32-bit x86 PV vCPU.  Under a 64-bit Xen (the compat layer) the
 * guest's PAE "PDPT" is a page of long-mode L3 entries that Xen's own
 * 4-level tables point at: the CPU walks it in long mode, where bits 1, 2
 * and 5 of an entry are RW, U and A (Xen's builder and a guest set them),
 * not the bits a PAE PDPT reserves.  Bit 63 of CR4 is reserved, so this
 * never collides with a CR4 value.
 */
#define XU_X86_32_CTL_PV_L3 (1ULL << 63)

struct xu_vcpu_regs {
    bool online;                /* false: nothing else is valid */
    bool kernel_mode;           /* PV: VGCF_in_kernel; HVM: CPL 0 */
    uint16_t code_sel;          /* x86: the CS selector the vCPU holds; 0 elsewhere */
    uint64_t ip, sp, fp;        /* x86-64: rip, rsp, rbp; x86_32: eip (linear), esp, ebp; arm64: pc, SP of the EL and SPSel, x29 */
    /* The kernel's per-CPU base whichever mode the vCPU was in (x86-64: the
     * kernel's GS base, the swapped one in user mode), 0 when not known. */
    uint64_t kernel_percpu;
    uint64_t lr;                /* link register where calls leave the return address in one (x30) */
    struct xu_mmu mmu;
    uint64_t cr0, cr4, efer;    /* x86: raw, for diagnostics */
    uint64_t rflags;            /* x86: RFLAGS (EFLAGS), for diagnostics */
    uint64_t cpsr, sctlr;       /* arm64: raw PSTATE (Xen's cpsr) and SCTLR_EL1, for diagnostics */
    /* AArch32: r0..r15 as the vCPU's mode sees them (its banked r8-r14
     * resolved, r15 the pc), for the unwinders that restore any of them
     * (ARM EHABI); zero elsewhere. */
    uint32_t r32[16];
    /* Where the kernel's own entry code is, as the vCPU holds it, to find a
     * kernel relocated at boot (lib/symbols/kaslr.c); 0 unknown.  x86
     * PVH/HVM: MSR_LSTAR (the syscall entry) and the IDT's base. */
    uint64_t syscall_entry, idt_base;
};

/*
 * x86-64 page-table isolation (Linux's KPTI): a vCPU in user mode runs on the
 * user half of an 8 KiB pair of top-level tables, which maps next to none
 * of the kernel, and so does one in the kernel's entry and exit code before
 * it switches to the kernel's half or after it switched back; the kernel's
 * half is the 4 KiB below.  true with *kernel the registers on that half
 * where regs may be on a user half; false where they cannot be (a PV vCPU's
 * second root, no long-mode paging, an even root).  Only for a read that
 * failed through the vCPU's own root.
 */
#define XU_KPTI_USER_PGD (1ULL << 12)

static inline bool xu_vcpu_kpti_kernel(const struct xu_vcpu_regs *regs,
                                       struct xu_vcpu_regs *kernel)
{
    if (regs->mmu.root_hi || !(regs->mmu.root & XU_KPTI_USER_PGD) ||
        (regs->mmu.paging != XU_PAGING_LONG4 && regs->mmu.paging != XU_PAGING_LONG5))
        return false;
    *kernel = *regs;
    kernel->mmu.root &= ~XU_KPTI_USER_PGD;
    return true;
}

/* A vCPU as the scheduler sees it (XEN_DOMCTL_getvcpuinfo). */
struct xu_vcpu_state {
    enum xu_vstate state;
    uint64_t cpu_time_ns;       /* CPU time Xen accounted to it since it was created */
};

struct xu_target;

struct xu_target_ops {
    const char *name;           /* "xencall", "xc", "sim" */

    /* Attach to domain domid: fills t->priv. */
    int (*open)(struct xu_target *t, uint32_t domid);
    /* Release everything open() and map_frame() acquired. Never fails. */
    void (*close)(struct xu_target *t);

    int (*info)(struct xu_target *t, struct xu_domain_info *out);
    int (*pause)(struct xu_target *t);
    int (*unpause)(struct xu_target *t);

    /* Registers of one vCPU of a paused domain.  An offline vCPU is not an
     * error: it returns 0 with out->online == false. */
    int (*vcpu_regs)(struct xu_target *t, unsigned int vcpu, struct xu_vcpu_regs *out);

    /*
     * Optional (NULL: pause(), then vcpu_regs() of each vCPU).  pause()
     * and the registers of vCPUs 0..n-1 in as few hypercalls as the
     * backend can make, so that the paused window holds one round trip to
     * Xen instead of one per vCPU.  Returns what pause() would: on failure
     * nothing is paused and nothing was read.  On success regs[v] and
     * rcs[v] are what vcpu_regs(v) would have given.  -EOPNOTSUPP: nothing
     * was done, for this n or for good (the caller pauses and reads one by
     * one).  Called by target/pause.c alone, as pause() is.
     */
    int (*pause_regs)(struct xu_target *t, unsigned int n, struct xu_vcpu_regs *regs, int *rcs);

    /* Optional (NULL: every sample's state is unknown, its CPU time 0).
     * The state and CPU time of one vCPU of a running or paused domain;
     * one hypercall, no allocation. */
    int (*vcpu_state)(struct xu_target *t, unsigned int vcpu, struct xu_vcpu_state *out);

    /*
     * Map one 4 KiB frame of the guest read-only.  frame is a frame number in
     * the space the guest's page tables use (MFN for PV, GFN otherwise).
     * Returns a pointer valid until unmap_frame() or close(), or NULL with
     * errno set.  Callers cache mappings; backends need not.
     */
    const void *(*map_frame)(struct xu_target *t, uint64_t frame);
    void (*unmap_frame)(struct xu_target *t, const void *addr);
};

struct xu_arch_ops;

struct xu_target {
    const struct xu_target_ops *ops;
    /* The guest's architecture (lib/arch/xu_arch.h), set by the backend's
     * open(): Xen's backends give the host's, the simulated guest its own. */
    const struct xu_arch_ops *arch;
    void *priv;
    struct xu_log *log;
    uint32_t domid;
    /* Calls into the hypervisor so far (one per privcmd call, a multicall
     * counting one), kept by Xen's backends for --stats. */
    uint64_t hypercalls;
};

/*
 * Backends compiled into this build, best first.  xu_target_backend(NULL)
 * returns the default; an unknown name returns NULL.
 */
const struct xu_target_ops *xu_target_backend(const char *name);
/* Names of the built backends, separated by ", ", for help and errors. */
const char *xu_target_backend_names(void);

/* Open a target on domid with the given backend (ops).  On failure t is
 * left closed (t->ops NULL). */
int xu_target_open(struct xu_target *t, const struct xu_target_ops *ops,
                   uint32_t domid, struct xu_log *log);
void xu_target_close(struct xu_target *t);

static inline int xu_target_info(struct xu_target *t, struct xu_domain_info *out)
{ return t->ops->info(t, out); }
static inline int xu_target_vcpu_regs(struct xu_target *t, unsigned int vcpu,
                                      struct xu_vcpu_regs *out)
{ return t->ops->vcpu_regs(t, vcpu, out); }
/* Fills *out in any case: XU_VSTATE_UNKNOWN and 0 ns on failure, and
 * -EOPNOTSUPP from a backend without the op. */
static inline int xu_target_vcpu_state(struct xu_target *t, unsigned int vcpu,
                                       struct xu_vcpu_state *out)
{
    int rc = t->ops->vcpu_state ? t->ops->vcpu_state(t, vcpu, out) : -EOPNOTSUPP;

    if (rc < 0) {
        out->state = XU_VSTATE_UNKNOWN;
        out->cpu_time_ns = 0;
    }
    return rc;
}

#endif
