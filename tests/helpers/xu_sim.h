/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu_sim.h - a simulated guest for unit tests and benchmarks.
 *
 * Guest memory is an array of 4 KiB frames; page tables are real x86-64
 * tables built in that memory by xu_sim_map(), so the same walker that reads
 * a Xen guest reads this one.  Each vCPU has a cycle of register states:
 * every pause advances all vCPUs to their next state, which lets a test
 * script an exact distribution of stacks.  The sim counts pauses and mapped
 * frames so tests can check that nothing is left paused or mapped.
 *
 * Frames are numbered from 0 like a guest's physical memory.  For a PV
 * simulation the same numbers play the role of machine frames.
 */
#ifndef XU_SIM_H
#define XU_SIM_H

#include <stdint.h>
#include <stddef.h>

#include "arch/xu_arch.h"
#include "target/xu_target.h"

struct xu_sim;

enum xu_sim_page_size {
    XU_SIM_4K = 0,
    XU_SIM_2M,
    XU_SIM_1G,
};

/* x86 page-table entry bits used by xu_sim_set_pte() and tests */
#define XU_PTE_P   (1ULL << 0)
#define XU_PTE_RW  (1ULL << 1)
#define XU_PTE_US  (1ULL << 2)
#define XU_PTE_PS  (1ULL << 7)
#define XU_PTE_NX  (1ULL << 63)

struct xu_sim *xu_sim_new(enum xu_guest_type type, size_t nr_frames, unsigned int nr_vcpus);
void xu_sim_free(struct xu_sim *sim);

/* The guest's architecture (default x86-64): what the target reports, hence
 * whose page walk and frame rules read the simulated memory.  xu_sim_map()
 * builds x86-64 tables; another architecture's tests write their own. */
void xu_sim_set_arch(struct xu_sim *sim, const struct xu_arch_ops *arch);

/* Open t as a target on the simulated domain (domid 1); close it with
 * xu_target_close().  The sim must outlive the target. */
int xu_sim_target_open(struct xu_sim *sim, struct xu_target *t, struct xu_log *log);

/* Take a zeroed frame; returns its number, or UINT64_MAX when full. */
uint64_t xu_sim_alloc_frame(struct xu_sim *sim);
void *xu_sim_frame(struct xu_sim *sim, uint64_t frame);

/* A new empty top-level table; returns its physical address (frame << 12). */
uint64_t xu_sim_new_root(struct xu_sim *sim);
/* Map va -> phys with a page of the given size, allocating tables as needed.
 * 0 or -ENOMEM/-EINVAL (misaligned). */
int xu_sim_map(struct xu_sim *sim, uint64_t root, uint64_t va, uint64_t phys,
               enum xu_sim_page_size size);
/* Map [va, va+len) to freshly allocated 4K frames. */
int xu_sim_map_range(struct xu_sim *sim, uint64_t root, uint64_t va, uint64_t len);
/* Overwrite the entry at level (4 = PML4 ... 1 = PT) on the way to va;
 * for building hostile tables.  The tables down to that level must exist. */
int xu_sim_set_pte(struct xu_sim *sim, uint64_t root, uint64_t va, int level, uint64_t pte);
/* Copy into guest-virtual memory through root's tables. */
int xu_sim_write(struct xu_sim *sim, uint64_t root, uint64_t va, const void *buf, size_t len);
int xu_sim_write_u64(struct xu_sim *sim, uint64_t root, uint64_t va, uint64_t v);

/* Append a register state to vcpu's cycle; every pause moves to the next. */
int xu_sim_push_state(struct xu_sim *sim, unsigned int vcpu, const struct xu_vcpu_regs *regs);
/*
 * Append (state, cpu_ns) to vcpu's cycle of scheduler states, what
 * vcpu_state() answers.  The read before pause k + 1 (k = pauses so far)
 * shows entry k of the cycle, and the vCPU's cumulative CPU time then has
 * grown by that entry's cpu_ns: the sampler's CPU time for the sample of
 * tick k + 1 is entry k's cpu_ns (0 at the first tick, which has no tick
 * before it).  A vCPU without entries answers -EOPNOTSUPP, as a backend
 * without the op.
 */
int xu_sim_push_vstate(struct xu_sim *sim, unsigned int vcpu, enum xu_vstate state,
                       uint64_t cpu_ns);
/* Mark the domain shut down / gone after n more pauses (0 = now). */
void xu_sim_end_after(struct xu_sim *sim, uint64_t pauses, int gone);
/* The SHUTDOWN_* code a shut-down domain reports (0, poweroff, unless told). */
void xu_sim_shutdown_reason(struct xu_sim *sim, unsigned int code);
/* Make the domain dying after n more pauses, as during `xl destroy`: it still
 * pauses and its vCPUs still answer, but info says dying and no new frame
 * can be mapped (its memory is being released). */
void xu_sim_dying_after(struct xu_sim *sim, uint64_t pauses);
/* Make the next n map_frame calls fail. */
void xu_sim_fail_maps(struct xu_sim *sim, unsigned int n);

/*
 * Faults, for the pause policy and the record path.  err is a negative
 * errno; n the number of calls that fail (XU_SIM_ALWAYS: every one).
 * A failing call changes nothing (the pause count stays as it was).
 */
#define XU_SIM_ALWAYS UINT32_MAX
void xu_sim_fail_pause(struct xu_sim *sim, int err, uint32_t n);
void xu_sim_fail_unpause(struct xu_sim *sim, int err, uint32_t n);
/* Make the next n vcpu_regs calls fail with err. */
void xu_sim_fail_regs(struct xu_sim *sim, int err, uint32_t n);
/* open() through xu_sim_ops fails with err: -EACCES/-EPERM as without
 * privilege, -EPROTO as a Xen interface version mismatch (logged as the
 * real backends do: one line naming the mismatch). */
void xu_sim_fail_open(struct xu_sim *sim, int err);

/* An administrator's `xl pause` / `xl unpause`: a pause reference that is
 * not the profiler's. */
int xu_sim_admin_pause(struct xu_sim *sim);
int xu_sim_admin_unpause(struct xu_sim *sim);

/*
 * The sim as a backend chosen by name and opened by domid, as the record
 * path opens Xen (xu_target_open(t, &xu_sim_ops, domid, log)): it attaches
 * to the sim last given to xu_sim_register() when domid matches (-ESRCH
 * otherwise).  A forked child (the guardian) attaches to its own copy.
 */
extern const struct xu_target_ops xu_sim_ops;
void xu_sim_register(struct xu_sim *sim, uint32_t domid);

struct xu_sim_counters {
    uint64_t pauses, unpauses;
    uint64_t maps, unmaps;
    int pause_depth;            /* pauses - unpauses */
    uint64_t unpause_calls;     /* unpause calls, failed ones included */
    uint64_t opens;
    uint64_t state_reads;       /* vcpu_state calls answered */
    uint64_t state_reads_paused;/* of which while the domain was paused */
};
void xu_sim_get_counters(const struct xu_sim *sim, struct xu_sim_counters *out);

#endif
