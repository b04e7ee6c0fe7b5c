/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * 32-bit x86 entry (PVH, and HVM through multiboot.S).  Xen enters
 * pvh_start32 (XEN_ELFNOTE_PHYS32_ENTRY) in 32-bit protected mode with paging
 * off, EBX = hvm_start_info; the device model's multiboot ROM enters it the
 * same way.  The guest stays in protected mode and turns paging on itself,
 * 2-level (4 KiB tables, PSE 4 MiB pages) or, built with -DX86_32_PAE, PAE
 * (a 4-entry PDPT, 4 KiB tables, 2 MiB pages): the two walks a profiler must
 * make of a 32-bit guest that is not in long mode.
 *
 * The code is linked at KERNEL_OFFSET + 1 MiB, as a 3G/1G-split kernel is, and
 * loaded at 1 MiB: the profiler cannot read it without walking the guest's
 * tables (an identity-mapped guest would let a walk that is skipped go
 * unnoticed).  The low identity map stays for the switch only.  The image's
 * first 2 MiB (PAE) or 4 MiB (2-level) are mapped with 4 KiB pages, the rest
 * of the first GiB with large pages, so a walk meets both sizes' entries.
 *
 * _start and _start_ap zero EBP before their first call, so every
 * frame-pointer chain ends there, as in the 64-bit guests.
 */
#include <xen/elfnote.h>

#include "x86_32/layout.h"

#define NOTE(type, desc)                    \
    .pushsection .note.Xen, "a", @note;     \
    .balign 4;                              \
    .long 2f - 1f;                          \
    .long 4f - 3f;                          \
    .long type;                             \
1:  .asciz "Xen";                           \
2:  .balign 4;                              \
3:  desc;                                   \
4:  .balign 4;                              \
    .popsection

NOTE(XEN_ELFNOTE_GUEST_OS,     .asciz "xu-guest")
NOTE(XEN_ELFNOTE_XEN_VERSION,  .asciz "xen-3.0")
NOTE(XEN_ELFNOTE_LOADER,       .asciz "generic")
NOTE(XEN_ELFNOTE_PHYS32_ENTRY, .long PHYS(pvh_start32))

    .section .text.boot, "ax"
    .code32
    .globl pvh_start32
    .type pvh_start32, @function
pvh_start32:                        /* runs at its physical address, paging off */
    cld
    movl %ebx, %esi                 /* kept for start_kernel */
    xorl %ecx, %ecx
#ifdef X86_32_PAE
    /* PT: the first 2 MiB in 4 KiB pages (512 eight-byte entries) */
1:  movl %ecx, %eax
    shll $12, %eax
    orl  $0x3, %eax                 /* present | rw */
    movl %eax, PHYS(pt)(,%ecx,8)
    incl %ecx
    cmpl $512, %ecx
    jb 1b
    /* PD: entry 0 -> PT, entries 1-511 2 MiB pages: the first GiB */
    movl $PHYS(pt) + 3, %eax
    movl %eax, PHYS(pd)
    movl $1, %ecx
2:  movl %ecx, %eax
    shll $21, %eax
    orl  $0x83, %eax                /* PS | rw | present */
    movl %eax, PHYS(pd)(,%ecx,8)
    incl %ecx
    cmpl $512, %ecx
    jb 2b
    /* PDPT: GiB 0 (identity) and GiB 3 (KERNEL_OFFSET) -> the same PD.  A PAE
     * PDPTE takes only the present bit (rw and user are reserved there). */
    movl $PHYS(pd) + 1, %eax
    movl %eax, PHYS(pdpt)
    movl %eax, PHYS(pdpt) + 3 * 8
    movl $PHYS(pdpt), %eax
    movl %eax, %cr3
    movl %cr4, %eax
    orl  $0x20, %eax                /* PAE */
    movl %eax, %cr4
#else
    /* PT: the first 4 MiB in 4 KiB pages (1024 four-byte entries) */
1:  movl %ecx, %eax
    shll $12, %eax
    orl  $0x3, %eax                 /* present | rw */
    movl %eax, PHYS(pt)(,%ecx,4)
    incl %ecx
    cmpl $1024, %ecx
    jb 1b
    /* PD: entry 0 -> PT, entries 1-255 4 MiB pages (the first GiB), each
     * also at 768 + i (KERNEL_OFFSET) */
    movl $PHYS(pt) + 3, %eax
    movl %eax, PHYS(pd)
    movl %eax, PHYS(pd) + 768 * 4
    movl $1, %ecx
2:  movl %ecx, %eax
    shll $22, %eax
    orl  $0x83, %eax                /* PS | rw | present */
    movl %eax, PHYS(pd)(,%ecx,4)
    movl %eax, PHYS(pd) + 768 * 4(,%ecx,4)
    incl %ecx
    cmpl $256, %ecx
    jb 2b
    movl $PHYS(pd), %eax
    movl %eax, %cr3
    movl %cr4, %eax
    orl  $0x10, %eax                /* PSE */
    movl %eax, %cr4
#endif
    movl %cr0, %eax
    orl  $0x80000001, %eax          /* PG | PE */
    movl %eax, %cr0
    lgdt PHYS(gdt_desc)
    ljmp $0x08, $_start             /* to the high mapping */
    .size pvh_start32, . - pvh_start32

    .globl _start
    .type _start, @function
_start:
    movl $0x10, %eax
    movl %eax, %ds
    movl %eax, %es
    movl %eax, %ss
    movl %eax, %fs
    movl %eax, %gs
    movl $stack_top, %esp
    xorl %ebp, %ebp
    subl $12, %esp                  /* 16-byte aligned at the call */
    pushl %esi
    call start_kernel
1:  hlt
    jmp 1b
    .size _start, . - _start

    .globl _start_ap
    .type _start_ap, @function
_start_ap:                          /* paging on, ESP set by VCPUOP_initialise */
    xorl %ebp, %ebp
    call secondary_main
1:  hlt
    jmp 1b
    .size _start_ap, . - _start_ap

    .balign 4096
    .globl hypercall_page
    /* Untyped, with its size, as in the 64-bit guests. */
    .type hypercall_page, @notype
hypercall_page:                     /* filled by Xen when boot.c writes the MSR */
    .fill 4096, 1, 0xcc
    .size hypercall_page, 4096

    .section .data
    .balign 8
gdt:
    .quad 0
    .quad 0x00cf9a000000ffff        /* 0x08: 32-bit code, flat */
    .quad 0x00cf92000000ffff        /* 0x10: data, flat */
gdt_end:
gdt_desc:
    .word gdt_end - gdt - 1
    .long gdt                       /* linear: used once paging is on */

    .section .bss
    .balign 4096
    .globl pdpt, pd, stack_top, ap_stack_top
pd:   .skip 4096
pt:   .skip 4096
pdpt: .skip 4096                    /* PAE only (32-byte aligned) */
    .skip 16384
stack_top:
    .skip 16384
ap_stack_top:
    .section .note.GNU-stack, "", @progbits
