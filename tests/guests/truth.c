/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * truth.c - the self-timing of the ground-truth guests (see truth.h): vCPU 0's
 * runstate area and the published totals.  Runs once from the boot code.
 */
#include "truth.h"

#define VCPUOP_register_runstate_memory_area 5
#define CALIBRATE_READS 32      /* per batch */
#define CALIBRATE_BATCHES 64

volatile struct guest_truth guest_truth = {
    .magic = TRUTH_MAGIC,
    .version = TRUTH_VERSION,
};
volatile struct truth_runstate truth_runstate;

void truth_init(void)
{
    /* The hypercall takes a guest handle: the area's virtual address, which
     * Xen writes through the vCPU's own page tables at each state change. */
    volatile struct truth_runstate *area = &truth_runstate;
    long rc = guest_vcpu_op(VCPUOP_register_runstate_memory_area, 0, (void *)&area);

    if (rc != 0) {
        console_puts("truth: runstate area refused rc=");
        console_hex((unsigned long)rc);
        console_puts(", no self-timing\n");
        return;
    }

    /* The cost of one read as truth_begin/truth_end make it: empty intervals
     * into a slot nobody uses, in batches, keeping the fastest batch (a batch
     * the vCPU was descheduled in measures the pause, not the read). */
    unsigned long best = ~0UL;
    for (int b = 0; b < CALIBRATE_BATCHES; b++) {
        unsigned long c0 = guest_cycles();
        for (int i = 0; i < CALIBRATE_READS / 2; i++) {
            struct truth_mark m;

            truth_begin(&m);
            truth_end(&m, 0);
        }
        unsigned long c = guest_cycles() - c0;
        if (c < best)
            best = c;
    }
    guest_truth.read_cycles = best / CALIBRATE_READS;
    guest_truth.ok = 1;
    console_puts("truth: self-timing on, read_cycles=");
    console_hex(guest_truth.read_cycles);
    console_puts("\n");
}
