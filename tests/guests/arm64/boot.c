/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * arm64 boot code: console through the emulated SBSA UART (vpl011, xl's
 * vuart = "sbsa_uart") and PSCI CPU_ON for the second vCPU.  Runs once; never in
 * a profile.
 *
 * HYPERVISOR_console_io is tried once at boot, for a debug Xen: Debian's Xen
 * is built debug=n, and its dummy XSM policy refuses console_io to a domU
 * (-EPERM), so the vpl011 is the console that works everywhere.  Its bytes go
 * to xenconsoled's guest-<name>-vuart0.log.
 *
 * No Xen headers: the few numbers below are Xen's stable ABI, and this keeps
 * the cross build free of the host's (x86) libxen-dev.
 */
#include "guest.h"
#include "truth.h"

/* GUEST_PL011_BASE, reached through the device block of the TTBR1 map. */
#define UART_BASE        0xffff000022000000UL
#define UART_DR          0x00
#define UART_FR          0x18
#define UART_FR_TXFF     (1u << 5)

#define HYPERVISOR_console_io 18
#define CONSOLEIO_write       0
#define HYPERVISOR_vcpu_op    24
#define PSCI_CPU_ON_64        0xc4000003UL

extern char ap_stack_top[];
extern void secondary_entry(void);

/* Set by the boot-time console_io probe: 0 if Xen takes our console writes. */
static long console_io_rc = -1;

static long hvc_console_io(unsigned long cmd, unsigned long len, const char *buf)
{
    register unsigned long x0 __asm__("x0") = cmd;
    register unsigned long x1 __asm__("x1") = len;
    register unsigned long x2 __asm__("x2") = (unsigned long)buf;
    register unsigned long x16 __asm__("x16") = HYPERVISOR_console_io;

    __asm__ volatile("hvc #0xea1"
                     : "+r"(x0)
                     : "r"(x1), "r"(x2), "r"(x16)
                     : "memory");
    return (long)x0;
}

static void uart_putc(char c)
{
    volatile unsigned int *fr = (volatile unsigned int *)(UART_BASE + UART_FR);
    volatile unsigned int *dr = (volatile unsigned int *)(UART_BASE + UART_DR);

    /* Full FIFO: xenconsoled drains it; give up on this byte rather than hang the
     * guest if nobody reads. */
    for (unsigned long i = 0; (*fr & UART_FR_TXFF) && i < 1000000UL; i++)
        ;
    *dr = (unsigned char)c;
}

void console_puts(const char *s)
{
    /* A stack slot gives this leaf a frame, so a sample taken while it
     * prints still walks through main. */
    volatile int framed = 0;
    unsigned long n = 0;

    (void)framed;
    for (const char *p = s; *p; p++, n++)
        uart_putc(*p);
    if (console_io_rc == 0)
        hvc_console_io(CONSOLEIO_write, n, s);
}

void console_hex(unsigned long v)
{
    char buf[19] = "0x";

    for (int i = 0; i < 16; i++) {
        unsigned int d = (v >> ((15 - i) * 4)) & 0xf;
        buf[2 + i] = (char)(d < 10 ? '0' + d : 'a' + d - 10);
    }
    buf[18] = 0;
    console_puts(buf);
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

    console_io_rc = hvc_console_io(CONSOLEIO_write, sizeof(hello) - 1, hello);
    console_puts(hello);
    if (console_io_rc != 0) {
        console_puts("xu-guest: console_io refused (");
        console_hex((unsigned long)console_io_rc);
        console_puts("), vpl011 only\n");
    }
    truth_init();
    /* Through a volatile pointer: the call is then not start_kernel's last
     * instruction, so its return address symbolizes as start_kernel. */
    void (*volatile entry)(void) = main;
    entry();
    console_puts("xu-guest: main returned\n");
}
