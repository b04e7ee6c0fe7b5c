/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ratio: three functions doing equal work per call, called 1:3:6.
 *
 * Call graph (each function_N is a leaf with WORK(1)):
 *     main -> function_1   x1 per round
 *     main -> function_2   x3 per round
 *     main -> function_3   x6 per round
 *
 * Expected self (leaf) shares of all samples:
 *     function_1 10 %   function_2 30 %   function_3 60 %
 * main's own loop overhead is a few dozen instructions per 10 units; under
 * QEMU TCG a call and a return (an indirect jump) cost far more than that,
 * and main has been measured at up to 1 %, taken from all three evenly.
 */
#include "guest.h"
#include "truth.h"

/* inlined.c builds this same program with its functions inlined. */
#ifndef GUEST_NAME
#define GUEST_NAME "ratio"
#endif
#ifndef WORK_FUNCTION
#define WORK_FUNCTION NOINLINE
#endif

volatile unsigned long progress;
unsigned long work_seed = WORK_SEED_INIT;

WORK_FUNCTION void function_1(void) { TIMED_WORK(1, 1); }
WORK_FUNCTION void function_2(void) { TIMED_WORK(2, 1); }
WORK_FUNCTION void function_3(void) { TIMED_WORK(3, 1); }

void main(void)
{
    console_puts(GUEST_NAME ": GUEST_RUNNING\n");
    for (;;) {
        function_1();
        for (int i = 0; i < 3; i++)
            function_2();
        for (int i = 0; i < 6; i++)
            function_3();
        if ((++progress % PRINT_EVERY(10)) == 0) {
            console_puts(GUEST_NAME ": alive progress=");
            console_hex(progress);
            console_puts("\n");
        }
    }
}

/* Single-vCPU guest: never started. */
void secondary_main(void)
{
    for (;;)
        KEEP_FRAME();
}
