/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * smp: two vCPUs running different known functions, for per-vCPU
 * attribution.
 *
 *     vCPU 0: _start;start_kernel;main;function_1      (WORK(1) per call)
 *     vCPU 1: _start_ap;secondary_main;function_2      (WORK(1) per call)
 *
 * Expected: all of vCPU 0's samples are in main/function_1 (function_1
 * ~100 % self), all of vCPU 1's in secondary_main/function_2 (function_2
 * ~100 % self); neither vCPU ever shows the other's functions.
 */
#include "guest.h"

volatile unsigned long progress;
unsigned long work_seed = WORK_SEED_INIT;
volatile unsigned long progress_ap;  /* vCPU 1's heartbeat */

NOINLINE void function_1(void) { WORK(1); }
NOINLINE void function_2(void) { WORK(1); }

void main(void)
{
    long rc = start_secondary_vcpu(1);

    console_puts(rc == 0 ? "smp: vcpu1 up\n" : "smp: vcpu1 FAILED rc=");
    if (rc != 0) {
        console_hex((unsigned long)rc);
        console_puts("\n");
    }
    console_puts("smp: GUEST_RUNNING\n");
    for (;;) {
        function_1();
        if ((++progress % PRINT_EVERY(1)) == 0) {
            console_puts("smp: alive progress=");
            console_hex(progress);
            console_puts(" progress_ap=");
            console_hex(progress_ap);
            console_puts("\n");
        }
    }
}

void secondary_main(void)
{
    for (;;) {
        function_2();
        progress_ap++;
    }
}
