/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * nested: two levels with known shares.
 *
 * Call graph and units of WORK per round (one call of each per round):
 *     main -> function_1 (1 unit self) -> function_3 (3 units)
 *     main -> function_2 (1 unit self) -> function_4 (2 units)
 *                                      -> function_5 (3 units)
 * 10 units per round.
 *
 * Expected self (leaf) shares of all samples:
 *     function_1 10 %  function_2 10 %  function_3 30 %  function_4 20 %  function_5 30 %
 * Expected total (inclusive) shares, the upper level:
 *     function_1 40 %  function_2 60 %
 */
#include "guest.h"
#include "truth.h"

volatile unsigned long progress;
unsigned long work_seed = WORK_SEED_INIT;

NOINLINE void function_3(void) { TIMED_WORK(3, 3); }
NOINLINE void function_4(void) { TIMED_WORK(4, 2); }
NOINLINE void function_5(void) { TIMED_WORK(5, 3); }

/* The self work comes after the calls, so no call is a function's last
 * instruction. */
NOINLINE void function_1(void)
{
    function_3();
    TIMED_WORK(1, 1);
}

NOINLINE void function_2(void)
{
    function_4();
    function_5();
    TIMED_WORK(2, 1);
}

void main(void)
{
    console_puts("nested: GUEST_RUNNING\n");
    for (;;) {
        function_1();
        function_2();
        if ((++progress % PRINT_EVERY(10)) == 0) {
            console_puts("nested: alive progress=");
            console_hex(progress);
            console_puts("\n");
        }
    }
}

void secondary_main(void)
{
    for (;;)
        KEEP_FRAME();
}
