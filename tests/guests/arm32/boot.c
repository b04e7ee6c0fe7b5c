/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ARMv7 boot code: the console (arm_console.h) and PSCI CPU_ON for the
 * second vCPU, as arm64/boot.c does, in the AArch32 calling conventions: a
 * hypercall is HVC #0xEA1 with its number in r12 and its arguments in
 * r0-r4; PSCI takes the SMC32 function ids.  Runs once; never in a profile.
 *
 * No Xen headers: the few numbers below are Xen's stable ABI.
 */
#include "guest.h"
#include "truth.h"

/* GUEST_PL011_BASE, mapped at its own address (head.S). */
#define UART_BASE        0x22000000UL
#include "arm_console.h"

#define HYPERVISOR_vcpu_op    24
#define PSCI_CPU_ON_32        0x84000003UL

/* head.S: the image runs at PA + (0xc0000000 - 0x40000000) */
#define VA_OFFSET            0x80000000UL

extern char ap_stack_top[];
extern void secondary_entry(void);

/* Xen may clobber the argument registers it does not return in (a debug
 * build scrubs them), so they are outputs too. */
static long hvc3(unsigned long nr, unsigned long a0, unsigned long a1, unsigned long a2)
{
    register unsigned long r0 __asm__("r0") = a0;
    register unsigned long r1 __asm__("r1") = a1;
    register unsigned long r2 __asm__("r2") = a2;
    register unsigned long r12 __asm__("r12") = nr;

    __asm__ volatile("hvc #0xea1"
                     : "+r"(r0), "+r"(r1), "+r"(r2), "+r"(r12)
                     :
                     : "r3", "memory");
    return (long)r0;
}

static long console_io_write(unsigned long len, const char *buf)
{
    return hvc3(HYPERVISOR_console_io, CONSOLEIO_write, len, (unsigned long)buf);
}

long guest_vcpu_op(unsigned int cmd, unsigned int vcpu, void *arg)
{
    return hvc3(HYPERVISOR_vcpu_op, cmd, vcpu, (unsigned long)arg);
}

long start_secondary_vcpu(unsigned int id)
{
    /* PSCI CPU_ON (SMC32 calling convention over HVC #0): Xen's vCPU n has
     * MPIDR affinity 0 = n.  The vCPU enters secondary_entry (ARM state, bit
     * 0 clear) with the MMU off, hence its physical address; the context id
     * (its r0) is its stack. */
    register unsigned long r0 __asm__("r0") = PSCI_CPU_ON_32;
    register unsigned long r1 __asm__("r1") = id;
    register unsigned long r2 __asm__("r2") = (unsigned long)secondary_entry - VA_OFFSET;
    register unsigned long r3 __asm__("r3") = (unsigned long)ap_stack_top;

    __asm__ volatile("hvc #0" : "+r"(r0), "+r"(r1), "+r"(r2), "+r"(r3) : : "memory");
    return (long)r0;
}

void start_kernel(void);

void start_kernel(void)
{
    static const char hello[] = "xu-guest: arm32 boot\n";

    console_probe(hello, sizeof(hello) - 1);
    truth_init();
    /* Through a volatile pointer: the call is then not start_kernel's last
     * instruction, so its return address symbolizes as start_kernel. */
    void (*volatile entry)(void) = main;
    entry();
    console_puts("xu-guest: main returned\n");
}
