/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * arm64 boot code: the console (arm_console.h: the vpl011, and console_io
 * where Xen takes it) and PSCI CPU_ON for the second vCPU.  Runs once; never
 * in a profile.
 *
 * No Xen headers: the few numbers below are Xen's stable ABI, and this keeps
 * the cross build free of the host's (x86) libxen-dev.
 */
#include "guest.h"
#include "truth.h"

/* GUEST_PL011_BASE, reached through the device block of the TTBR1 map. */
#define UART_BASE        0xffff000022000000UL
#include "arm_console.h"

#define HYPERVISOR_vcpu_op    24
#define PSCI_CPU_ON_64        0xc4000003UL

extern char ap_stack_top[];
extern void secondary_entry(void);

static long console_io_write(unsigned long len, const char *buf)
{
    register unsigned long x0 __asm__("x0") = CONSOLEIO_write;
    register unsigned long x1 __asm__("x1") = len;
    register unsigned long x2 __asm__("x2") = (unsigned long)buf;
    register unsigned long x16 __asm__("x16") = HYPERVISOR_console_io;

    __asm__ volatile("hvc #0xea1"
                     : "+r"(x0)
                     : "r"(x1), "r"(x2), "r"(x16)
                     : "memory");
    return (long)x0;
}

/* The physical address of a symbol of the image: the image is mapped at a fixed
 * offset (head.S: KIMAGE_VA - PHYS_TEXT). */
static unsigned long virt_to_phys(const void *va)
{
    return (unsigned long)va - (0xffff000040080000UL - 0x40080000UL);
}

long guest_vcpu_op(unsigned int cmd, unsigned int vcpu, void *arg)
{
    register unsigned long x0 __asm__("x0") = cmd;
    register unsigned long x1 __asm__("x1") = vcpu;
    register unsigned long x2 __asm__("x2") = (unsigned long)arg;
    register unsigned long x16 __asm__("x16") = HYPERVISOR_vcpu_op;

    __asm__ volatile("hvc #0xea1" : "+r"(x0) : "r"(x1), "r"(x2), "r"(x16) : "memory");
    return (long)x0;
}

long start_secondary_vcpu(unsigned int id)
{
    /* PSCI CPU_ON (SMC calling convention over HVC): Xen's vCPU n has MPIDR
     * affinity 0 = n.  The vCPU enters secondary_entry with the MMU off, hence
     * its physical address; the context id (its x0) is its stack. */
    register unsigned long x0 __asm__("x0") = PSCI_CPU_ON_64;
    register unsigned long x1 __asm__("x1") = id;
    register unsigned long x2 __asm__("x2") = virt_to_phys((void *)secondary_entry);
    register unsigned long x3 __asm__("x3") = (unsigned long)ap_stack_top;

    __asm__ volatile("hvc #0" : "+r"(x0), "+r"(x1), "+r"(x2), "+r"(x3) : : "memory");
    return (long)x0;
}

void start_kernel(void);

void start_kernel(void)
{
    static const char hello[] = "xu-guest: arm64 boot\n";

    console_probe(hello, sizeof(hello) - 1);
    truth_init();
    /* Through a volatile pointer: the call is then not start_kernel's last
     * instruction, so its return address symbolizes as start_kernel. */
    void (*volatile entry)(void) = main;
    entry();
    console_puts("xu-guest: main returned\n");
}
