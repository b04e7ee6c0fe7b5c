/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * truth.c - the self-timing of the ground-truth guests (see truth.h): vCPU 0's
 * runstate area, the calibration, the published totals.  Runs once from the
 * boot code.
 */
#include "truth.h"

#define VCPUOP_register_runstate_memory_area 5
/* Calibration: the fastest of CALIBRATE_BATCHES batches, so that a batch the
 * vCPU was descheduled in (it measures the pause) does not count. */
#define CALIBRATE_BATCHES 64
#define CALIBRATE_READS 32      /* per batch */
/* A gap is a step between two readings this many times the usual one. */
#define GAP_FACTOR 32

volatile struct guest_truth guest_truth = {
    .magic = TRUTH_MAGIC,
    .version = TRUTH_VERSION,
    .gap_cycles = ~0ULL,        /* no gaps before the calibration */
};
volatile struct truth_runstate truth_runstate;

/* The cost of one read as truth_begin/truth_end make it: empty intervals
 * into slot 0, which nobody uses. */
static unsigned long calibrate_read(void)
{
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
    return best / CALIBRATE_READS;
}

/* The usual step between two readings of TIMED_WORK's loop: the same loop. */
static unsigned long calibrate_tick(void)
{
    unsigned long best = ~0UL;

    for (int b = 0; b < CALIBRATE_BATCHES; b++) {
        struct truth_mark m;

        truth_begin(&m);
        TRUTH_LOOP(&m, TRUTH_TICK);
        if (m.last - m.cycles < best)
            best = m.last - m.cycles;
    }
    return best;
}

void truth_init(void)
{
    /* The hypercall takes a guest handle: the area's virtual address, which
     * Xen writes through the vCPU's own page tables at each state change. */
    /* A guest handle is 64 bits on ARM whatever the guest's width: the
     * upper half of a 32-bit guest's must be zero, not stack garbage. */
    union {
        volatile struct truth_runstate *p;
        uint64_t q;
    } area = { .q = 0 };
    area.p = &truth_runstate;
    long rc = guest_vcpu_op(VCPUOP_register_runstate_memory_area, 0, (void *)&area);

    if (rc != 0) {
        console_puts("truth: runstate area refused rc=");
        console_hex((unsigned long)rc);
        console_puts(", no self-timing\n");
        return;
    }
    guest_truth.read_cycles = calibrate_read();
    unsigned long tick = calibrate_tick();
    guest_truth.gap_cycles = (tick ? tick : 1) * GAP_FACTOR;
    guest_truth.ok = 1;
    console_puts("truth: self-timing on, read_cycles=");
    console_hex(guest_truth.read_cycles);
    console_puts(" tick_cycles=");
    console_hex(tick);
    console_puts("\n");
}
