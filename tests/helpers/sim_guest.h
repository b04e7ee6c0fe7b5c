/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sim_guest.h - a ready-made simulated x86-64 guest for tests and benches.
 *
 * One address space (root) with kernel-style text at SIM_TEXT_BASE and any
 * number of stacks, each in its own 128 KiB region at SIM_STACK_BASE.
 * sim_guest_chain() lays a frame-pointer chain on a stack exactly as code
 * compiled with frame pointers would, and returns the registers of a vCPU
 * stopped in its innermost function.
 */
#ifndef SIM_GUEST_H
#define SIM_GUEST_H

#include <stdint.h>

#include "xu_sim.h"
#include "target/xu_target.h"

#define SIM_TEXT_BASE   0xffffffff80000000ULL
#define SIM_STACK_BASE  0xffffc90000000000ULL
#define SIM_STACK_SPAN  0x20000ULL
#define SIM_FRAME_BYTES 48      /* distance between frame records */

struct sim_guest {
    struct xu_sim *sim;
    uint64_t root;
    unsigned int nr_stacks_mapped;
};

/* nr_frames of simulated memory; 0 = a default that fits 64 stacks. */
int sim_guest_init(struct sim_guest *g, enum xu_guest_type type, unsigned int nr_vcpus,
                   size_t nr_frames);
void sim_guest_fini(struct sim_guest *g);

/*
 * Build the chain pcs[0..n-1] (innermost first: pcs[0] is the IP, the rest
 * return addresses, the last one into the entry code whose frame pointer
 * was 0) on stack stack_id, and fill regs: ip, sp, fp, long-mode paging,
 * online, this address space's root.  n >= 1.
 */
int sim_guest_chain(struct sim_guest *g, unsigned int stack_id, const uint64_t *pcs,
                    unsigned int n, struct xu_vcpu_regs *regs);

/* Virtual address of the frame record k (0 = innermost) of a chain built on
 * stack_id with n frames, for tests that corrupt a frame. */
uint64_t sim_guest_frame_addr(unsigned int stack_id, unsigned int n, unsigned int k);

#endif
