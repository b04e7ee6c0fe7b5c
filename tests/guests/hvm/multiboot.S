/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * HVM entry: the PVH kernel (pvh/head.S, pvh/boot.c) made bootable by the
 * direct kernel boot of Xen's device model (xl's kernel= with type="hvm").
 * QEMU loads a -kernel that is neither a Linux bzImage nor, first, a PVH ELF
 * as a multiboot (version 1) image, and it refuses 64-bit ELFs there: so the
 * header carries its own load addresses (flag 16), which QEMU uses without
 * reading the ELF.  Its option ROM then copies the image to load_addr and
 * jumps to entry_addr in 32-bit protected mode with paging off and flat
 * segments, exactly the state pvh_start32 expects; EBX points at the
 * multiboot information instead of an hvm_start_info, and start_kernel reads
 * neither.  Everything after the jump is the PVH guest unchanged: CPUID finds
 * Xen, the MSR places the hypercall page, VCPUOP_initialise starts vCPU 1.
 */
#define MB_MAGIC        0x1badb002
#define MB_FLAG_ADDRS   (1 << 16)   /* the address fields below are valid */

    /* First in .text (guest.lds): the header must lie within the image's
     * first 8 KiB, 4-byte aligned. */
    .section .text.multiboot, "ax"
    .balign 4
    .globl multiboot_header
    .type multiboot_header, @object
multiboot_header:
    .long MB_MAGIC
    .long MB_FLAG_ADDRS
    .long -(MB_MAGIC + MB_FLAG_ADDRS)
    .long multiboot_header          /* header_addr */
    .long _text                     /* load_addr: the file from _text on */
    .long _edata                    /* load_end_addr: up to the end of .data */
    .long _end                      /* bss_end_addr: QEMU zeroes up to here */
    .long multiboot_start32         /* entry_addr */
    .size multiboot_header, . - multiboot_header

    .code32
    .globl multiboot_start32
    .type multiboot_start32, @function
multiboot_start32:
    jmp pvh_start32
    .size multiboot_start32, . - multiboot_start32
    .section .note.GNU-stack, "", @progbits
