/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * crash: a guest that crashes on purpose, for the core that
 * on_crash = "coredump-destroy" makes Xen's toolstack write.
 *
 *     _start;start_kernel;main;crash_outer;crash_middle;crash_inner
 *
 * crash_inner stores to a non-canonical address: a general protection
 * fault, which the guest has no handler for (a PV guest registers no trap
 * table, a PVH guest no IDT), so Xen crashes the domain with the vCPU
 * stopped on that store, its callers' frames on the stack.
 */
#include "guest.h"

volatile unsigned long progress;
unsigned long work_seed = WORK_SEED_INIT;

#define NON_CANONICAL 0x8000000000000000UL

NOINLINE void crash_inner(void)
{
    WORK(1);
    *(volatile unsigned long *)NON_CANONICAL = progress;
}

NOINLINE void crash_middle(void)
{
    crash_inner();
    progress++;
}

NOINLINE void crash_outer(void)
{
    crash_middle();
    progress++;
}

void main(void)
{
    unsigned long i;

    console_puts("crash: GUEST_RUNNING\n");
    /* a few seconds of work first, so the toolstack sees it run */
    for (i = 0; i < PRINT_EVERY(1); i++)
        WORK(1);
    console_puts("crash: crashing now\n");
    crash_outer();
    for (;;)
        progress++;
}

/* Single-vCPU guest: never started. */
void secondary_main(void)
{
    for (;;)
        KEEP_FRAME();
}
