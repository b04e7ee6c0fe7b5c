/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * main.c: the application of the lab's Unikraft guests (tests/guests/unikraft/build adds
 * it to an unpacked Unikraft tree outside this repository; Unikraft's own code stays
 * there).  Why: the thesis xen-uniprof follows profiles Unikraft, and a profile of a real
 * Unikraft can only be judged against a program whose work is known.
 *
 * The same program as tests/guests/hcall.c, written for Unikraft's platform instead of
 * our own boot code:
 *   main -> function_1 x1, function_2 x3, function_3 x6 per round (equal work per call on
 *           average, each timed by truth.h: the split the guest measured is the truth);
 *   main -> nap every NAP_EVERY rounds: Unikraft's own blocking path,
 *           time_block_until -> ukplat_lcpu_halt_irq -> halt -> SCHEDOP_block through
 *           the hypercall page (its wall time in truth.h's block slot);
 *   Xen's periodic timer every UPCALL_PERIOD_NS: event upcalls
 *           (asm_trap_hypervisor_callback -> do_hypervisor_callback -> do_event ->
 *           timer_handler) on top of whatever runs.
 * Stacks, root first: the boot thread's entry labels, Unikraft's boot (ukplat_entry,
 * ukboot's do_main), then main;function_N or main;nap;time_block_until;...
 *
 * main has the prototype of tests/guests/guest.h, as the other programs' do: ukboot calls
 * it with (argc, argv), which it ignores, and it never returns.
 */
#include "guest.h"
#include "truth.h"

/* Unikraft's platform (plat/xen, lib/ukboot's nolibc build), declared here: its headers
 * are not on an application's include path, and they declare the hypercall page with
 * another type than guest.h. */
void ukplat_lcpu_disable_irq(void);
void ukplat_lcpu_enable_irq(void);
unsigned long ukplat_monotonic_clock(void);
void time_block_until(long until);

/* In glue.c: Xen's periodic timer for vCPU 0. */
long upcalls_start(unsigned long period_ns);

/* 2 ms of wall time between timer upcalls, as hcall's (Xen's minimum is 1 ms). */
#define UPCALL_PERIOD_NS 2000000UL
/*
 * A nap every 32 rounds (320 units, about 32 ms of guest CPU) for 3 ms.  A sampler stops a
 * running vCPU some time after it asks (an IPI and an exit: 0.1-0.2 ms under the lab's
 * emulation, microseconds on hardware) but a blocked one at once, so the last stretch of
 * that length before each nap is seen blocked, and it is function_3's.  With a nap every
 * 8 rounds that took 0.3-1.5 points from function_3's 60 %; every 32 rounds, a quarter.
 */
#define NAP_EVERY 32
#define NAP_NS 3000000UL

volatile unsigned long progress;
volatile unsigned long naps;
unsigned long work_seed = 0x9e3779b97f4a7c15UL;

NOINLINE void function_1(void) { TIMED_WORK(1, 1); }
NOINLINE void function_2(void) { TIMED_WORK(2, 1); }
NOINLINE void function_3(void) { TIMED_WORK(3, 1); }

/*
 * Block NAP_NS the way a Unikraft thread without a scheduler does: interrupts off,
 * time_block_until (which arms Xen's one-shot timer and halts with interrupts on until an
 * event comes), interrupts back on.  A timer upcall that lands between the arming and the
 * halt re-arms the one-shot a tick ahead (Unikraft's timer_handler), so a nap lasts 3 ms
 * or up to a tick more; the truth's block slot holds what it really took.
 */
NOINLINE void nap(unsigned long ns)
{
    struct truth_mark mark;

    truth_begin(&mark);
    ukplat_lcpu_disable_irq();
    time_block_until((long)(ukplat_monotonic_clock() + ns));
    ukplat_lcpu_enable_irq();
    truth_end(&mark, TRUTH_SLOT_BLOCK);
    naps++;
    KEEP_FRAME();
}

void main(void)
{
    truth_init();
    long rc = upcalls_start(UPCALL_PERIOD_NS);

    console_puts("unikraft: periodic timer rc=");
    console_hex((unsigned long)rc);
    console_puts("\nunikraft: GUEST_RUNNING\n");
    for (;;) {
        function_1();
        for (int i = 0; i < 3; i++)
            function_2();
        for (int i = 0; i < 6; i++)
            function_3();
        if (++progress % NAP_EVERY == 0)
            nap(NAP_NS);
        if (progress % PRINT_EVERY(10) == 0) {
            console_puts("unikraft: alive progress=");
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
