/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * inlined: ratio's three functions, inlined into main as optimised
 * unikernels inline their hot code (built with -O2: Makefile).
 *
 * Call graph in the source, as ratio's; in the binary there is one
 * physical function, main, and DWARF says which inlined function each of
 * its instructions belongs to:
 *     main -> function_1 (inlined)   x1 per round
 *     main -> function_2 (inlined)   x3 per round
 *     main -> function_3 (inlined)   x6 per round
 *
 * Expected, with inline frames: _start;start_kernel;main;function_N_[i] at
 * 10/30/60 % of the samples (each against the guest's own timing, truth.h);
 * with --no-inline: _start;start_kernel;main for all of them.
 */
#include "guest.h"
#include "truth.h"

volatile unsigned long progress;
unsigned long work_seed = 0x9e3779b97f4a7c15UL;

#define INLINE static inline __attribute__((always_inline))

INLINE void function_1(void) { TIMED_WORK(1, 1); }
INLINE void function_2(void) { TIMED_WORK(2, 1); }
INLINE void function_3(void) { TIMED_WORK(3, 1); }

void main(void)
{
    console_puts("inlined: GUEST_RUNNING\n");
    for (;;) {
        function_1();
        for (int i = 0; i < 3; i++)
            function_2();
        for (int i = 0; i < 6; i++)
            function_3();
        if ((++progress % PRINT_EVERY(10)) == 0) {
            console_puts("inlined: alive progress=");
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
