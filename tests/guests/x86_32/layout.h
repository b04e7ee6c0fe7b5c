/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Where the 32-bit x86 guests live: linked at KERNEL_OFFSET + 1 MiB (a 3G/1G
 * split, as a 32-bit Linux), loaded at 1 MiB.  Shared by head.S, multiboot.S
 * and boot.c; guest.lds has the same number.
 */
#ifndef X86_32_LAYOUT_H
#define X86_32_LAYOUT_H

#define KERNEL_OFFSET 0xc0000000
#define PHYS(sym) ((sym) - KERNEL_OFFSET)

#endif
