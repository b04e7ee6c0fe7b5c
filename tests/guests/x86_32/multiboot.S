/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * HVM entry of the 32-bit guests: the PVH kernel of head.S made bootable by
 * the device model's direct kernel boot, as hvm/multiboot.S does for the
 * 64-bit one.  QEMU would load a 32-bit ELF as multiboot by itself, from its
 * program headers; the header still carries its own load addresses (flag 16)
 * so both widths boot the same way.  All of them physical: the image is
 * linked KERNEL_OFFSET higher than it is loaded (layout.h).  The ROM enters
 * multiboot_start32 in 32-bit protected mode, paging off, flat segments: what
 * pvh_start32 expects.
 */
#include "x86_32/layout.h"

#define MB_MAGIC        0x1badb002
#define MB_FLAG_ADDRS   (1 << 16)

    .section .text.multiboot, "ax"
    .balign 4
    .globl multiboot_header
    .type multiboot_header, @object
multiboot_header:
    .long MB_MAGIC
    .long MB_FLAG_ADDRS
    .long -(MB_MAGIC + MB_FLAG_ADDRS)
    .long PHYS(multiboot_header)    /* header_addr */
    .long PHYS(_text)               /* load_addr */
    .long PHYS(_edata)              /* load_end_addr */
    .long PHYS(_end)                /* bss_end_addr */
    .long PHYS(multiboot_start32)   /* entry_addr */
    .size multiboot_header, . - multiboot_header

    .code32
    .globl multiboot_start32
    .type multiboot_start32, @function
multiboot_start32:
    jmp pvh_start32
    .size multiboot_start32, . - multiboot_start32
    .section .note.GNU-stack, "", @progbits
