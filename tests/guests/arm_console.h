/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * arm_console.h - the console of the arm guests (arm64/boot.c, arm32/boot.c),
 * included once by each: the emulated SBSA UART (vpl011, xl's vuart =
 * "sbsa_uart") at UART_BASE, which the boot defines as the address its page
 * tables map it at, and Xen's console_io too where Xen takes it
 * (console_io_write(), the boot's own hypercall in its width's convention).
 *
 * HYPERVISOR_console_io is tried once at boot, for a debug Xen: Debian's Xen
 * is built debug=n, and its dummy XSM policy refuses console_io to a domU
 * (-EPERM), so the vpl011 is the console that works everywhere.  Its bytes go
 * to xenconsoled's guest-<name>-vuart0.log.
 */
#ifndef ARM_CONSOLE_H
#define ARM_CONSOLE_H

#include "guest.h"

#define UART_DR          0x00
#define UART_FR          0x18
#define UART_FR_TXFF     (1u << 5)

#define HYPERVISOR_console_io 18
#define CONSOLEIO_write       0

/* Set by the boot-time console_io probe: 0 if Xen takes our console writes. */
static long console_io_rc = -1;

static long console_io_write(unsigned long len, const char *buf);

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
        console_io_write(n, s);
}

/* As many hex digits as a long has. */
void console_hex(unsigned long v)
{
    enum { DIGITS = 2 * sizeof(unsigned long) };
    char buf[2 + DIGITS + 1] = "0x";

    for (int i = 0; i < DIGITS; i++) {
        unsigned int d = (v >> ((DIGITS - 1 - i) * 4)) & 0xf;
        buf[2 + i] = (char)(d < 10 ? '0' + d : 'a' + d - 10);
    }
    buf[2 + DIGITS] = 0;
    console_puts(buf);
}

/* The boot's first words: through console_io if Xen takes them (and from then
 * on), and on the UART; a refusal is printed. */
static void console_probe(const char *hello, unsigned long len)
{
    console_io_rc = console_io_write(len, hello);
    console_puts(hello);
    if (console_io_rc != 0) {
        console_puts("xu-guest: console_io refused (");
        console_hex((unsigned long)console_io_rc);
        console_puts("), vpl011 only\n");
    }
}

#endif
