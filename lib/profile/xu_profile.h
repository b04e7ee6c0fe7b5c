/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu_profile.h - interned stacks with counts.
 *
 * A stack is (vCPU, its state when sampled, how the walk ended, raw PCs
 * innermost first).  Equal stacks are stored once with a count and the sum
 * of the CPU time their samples stand for, so memory grows with the number
 * of distinct stacks, not with the number of samples.  The number of distinct
 * stacks is capped (max_stacks): once full, a new distinct stack is counted
 * in xu_profile_totals.dropped instead of being stored, so a hostile guest
 * cannot make the profiler's memory grow without bound.
 *
 * Adding allocates: it is done after the guest is unpaused.
 */
#ifndef XU_PROFILE_H
#define XU_PROFILE_H

#include <stdint.h>
#include <stddef.h>

#include "profile/xu_vstate.h"
#include "profile/xu_walk.h"

/*
 * A distinct stack of d frames costs at most 8 d + 96 bytes here (its PCs,
 * its record in an array that doubles, its hash slots at least 1/4 full;
 * tests/unit/profile checks it): at this default, at most 256 MiB for
 * 20-frame stacks, 608 MiB for 64-frame ones.
 */
#define XU_PROFILE_DEFAULT_MAX_STACKS (1u << 20)
/*
 * Samples one profile holds in all (dropped ones included): 2^48, more than
 * a run at 10 kHz takes in 800 years.  Every sum of counts a reader or a
 * writer makes is then a part of this total, so it can neither wrap a
 * uint64_t nor lose precision in a double (exact up to 2^53).
 */
#define XU_PROFILE_MAX_SAMPLES (1ULL << 48)
/*
 * CPU time one profile holds in all, in ns (2^62: 146 years): sums of it in
 * any unit fit a uint64_t, so no writer needs to saturate.
 */
#define XU_PROFILE_MAX_CPU_NS (1ULL << 62)

struct xu_profile;

struct xu_stack {
    uint32_t vcpu;
    uint32_t depth;             /* >= 1: pcs[0] is the instruction pointer */
    enum xu_walk_end end;
    enum xu_vstate state;       /* what the vCPU was doing (part of the key) */
    uint64_t count;
    uint64_t cpu_ns;            /* CPU time Xen accounted to the vCPU in the
                                 * tick before each of these samples, summed */
    const uint64_t *pcs;        /* innermost first */
};

struct xu_profile_totals {
    uint64_t samples;           /* stacks added (sum of counts), dropped ones included */
    uint64_t stacks;            /* distinct stacks stored */
    uint64_t dropped;           /* samples not stored because max_stacks was reached */
    uint64_t by_end[XU_WALK__COUNT];
    uint64_t by_state[XU_VSTATE__COUNT];        /* samples */
    uint64_t cpu_ns;            /* sum of the stacks' cpu_ns, dropped ones included */
    unsigned int max_vcpu;      /* highest vCPU seen */
};

/* max_stacks 0 means XU_PROFILE_DEFAULT_MAX_STACKS.  NULL with errno. */
struct xu_profile *xu_profile_new(size_t max_stacks);
void xu_profile_free(struct xu_profile *p);

/* Count one more occurrence (count times) of a stack.  0, -ENOMEM,
 * -EOVERFLOW when the total would pass XU_PROFILE_MAX_SAMPLES (nothing is
 * counted then), or -EPERM after xu_profile_set_end or
 * xu_profile_seal; a stack refused because
 * the profile is full is counted as dropped and returns 0. */
int xu_profile_add(struct xu_profile *p, uint32_t vcpu, const uint64_t *pcs,
                   uint32_t depth, enum xu_walk_end end, uint64_t count);
/* The same with the vCPU's state and the CPU time the count samples stand
 * for; also -EOVERFLOW (nothing counted) past XU_PROFILE_MAX_CPU_NS, and
 * -EINVAL for a state out of range.  xu_profile_add() is this with
 * XU_VSTATE_UNKNOWN and 0 ns. */
int xu_profile_add_state(struct xu_profile *p, uint32_t vcpu, enum xu_vstate state,
                         const uint64_t *pcs, uint32_t depth, enum xu_walk_end end,
                         uint64_t count, uint64_t cpu_ns);

void xu_profile_get_totals(const struct xu_profile *p, struct xu_profile_totals *out);

/*
 * No more stacks will be added (a trace read whole): the index that finds
 * a stack to count it again is freed (8 MiB for a million distinct
 * stacks), and adds fail with -EPERM from then on, also after
 * xu_profile_clear().  Stacks, totals and xu_profile_set_end are as
 * before.
 */
void xu_profile_seal(struct xu_profile *p);

/*
 * Empty the profile: no stack, zero totals, adds allowed again (also after
 * xu_profile_set_end; not after xu_profile_seal).  Keeps the index's size, so a profile emptied at
 * every window of a live view does not allocate it again.  Pointers from
 * xu_profile_stack() are invalid afterwards.
 */
void xu_profile_clear(struct xu_profile *p);

/* Samples whose walk counts as complete (xu_walk_complete()). */
static inline uint64_t xu_profile_complete_samples(const struct xu_profile_totals *t)
{
    return t->by_end[XU_WALK_COMPLETE] + t->by_end[XU_WALK_CFI_ROOT];
}

/*
 * Why the incomplete walks stopped, most frequent first, as shares of all
 * samples: "not a root 80.1%, unmapped 0.3%" (at most three reasons);
 * empty when every walk is complete.  For summaries and subtitles.
 */
void xu_profile_incomplete_reasons(const struct xu_profile_totals *t, char *buf, size_t size);

/*
 * Change why stack i ended (the ELF's verdict on a finished walk, see
 * xu_walk.h); totals follow.  Only after the last add: adds fail with
 * -EPERM afterwards, since stacks are found by a hash of their end.
 */
void xu_profile_set_end(struct xu_profile *p, size_t i, enum xu_walk_end end);

size_t xu_profile_nr_stacks(const struct xu_profile *p);
/* Stacks in insertion order, 0 <= i < nr_stacks.  Valid until the next add. */
const struct xu_stack *xu_profile_stack(const struct xu_profile *p, size_t i);

/*
 * The address to symbolise for frame i of a stack: the PC itself for the
 * innermost frame and an interrupted one, pc - 1 (inside the call instruction) for return
 * addresses, because the return address of a call that ends a function
 * already points into the next function.
 */
static inline uint64_t xu_stack_lookup_addr(const struct xu_stack *s, uint32_t i)
{
    /* the innermost PC, a pseudo-frame and the interrupted PC after a
     * boundary are exact */
    if (i == 0 || xu_pc_is_pseudo(s->pcs[i]) || s->pcs[i - 1] == XU_PC_UPCALL)
        return s->pcs[i];
    return s->pcs[i] - 1;
}

/*
 * Every distinct lookup address (see xu_stack_lookup_addr) in the profile,
 * sorted ascending, each once: the set a symboliser must resolve.
 * *out is malloc'ed and owned by the caller.  Returns the count or -ENOMEM.
 */
long xu_profile_unique_addrs(const struct xu_profile *p, uint64_t **out);

#endif
