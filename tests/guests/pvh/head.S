/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * 64-bit PVH entry.  Xen enters pvh_start32 (XEN_ELFNOTE_PHYS32_ENTRY) in
 * 32-bit protected mode, paging off, EBX = hvm_start_info.  We identity-map
 * the first GiB with 2 MiB pages, enter long mode and continue at _start,
 * which (like the PV entry) zeroes RBP before the first call so
 * frame-pointer walks end there.  vCPU 1 starts directly in long mode at
 * _start_ap (see boot.c).
 */
#include <xen/elfnote.h>

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
/* Xen 4.8's libelf takes no image whose loader is not "generic" (or OS "linux"): without
 * it, its domain builder ignores the notes and wants a 32-bit firmware ELF instead. */
NOTE(XEN_ELFNOTE_LOADER,       .asciz "generic")
NOTE(XEN_ELFNOTE_PHYS32_ENTRY, .long pvh_start32)

    .section .text.boot, "ax"
    .code32
    .globl pvh_start32
    .type pvh_start32, @function
pvh_start32:
    cld
    movl $stack_top, %esp
    movl %ebx, %esi
    movl $pdpt + 3, %eax            /* PML4[0] -> PDPT, present|rw */
    movl %eax, pml4
    movl $pd + 3, %eax              /* PDPT[0] -> PD */
    movl %eax, pdpt
    xorl %ecx, %ecx
1:  movl %ecx, %eax                 /* PD[i] = i * 2M | PS|rw|present */
    shll $21, %eax
    orl  $0x83, %eax
    movl %eax, pd(,%ecx,8)
    incl %ecx
    cmpl $512, %ecx
    jb 1b
    movl %cr4, %eax
    orl  $0x20, %eax                /* PAE */
    movl %eax, %cr4
    movl $pml4, %eax
    movl %eax, %cr3
    movl $0xc0000080, %ecx          /* EFER.LME */
    rdmsr
    orl  $0x100, %eax
    wrmsr
    movl %cr0, %eax
    orl  $0x80000001, %eax          /* PG | PE */
    movl %eax, %cr0
    lgdt gdt_desc
    ljmp $0x08, $_start
    .size pvh_start32, . - pvh_start32

    .code64
    .globl _start
    .type _start, @function
_start:
    movl $0x10, %eax
    movl %eax, %ds
    movl %eax, %es
    movl %eax, %ss
    movq $stack_top, %rsp
    xorl %ebp, %ebp
    movl %esi, %edi
    call start_kernel
1:  hlt
    jmp 1b
    .size _start, . - _start

    .globl _start_ap
    .type _start_ap, @function
_start_ap:                          /* long mode, RSP set by VCPUOP_initialise */
    xorl %ebp, %ebp
    call secondary_main
1:  hlt
    jmp 1b
    .size _start_ap, . - _start_ap

    .balign 4096
    .globl hypercall_page
    /* Untyped, with its size, as Linux's SYM_CODE (Mini-OS's has no
     * size either): code Xen writes, not a C function. */
    .type hypercall_page, @notype
hypercall_page:                     /* filled by Xen when boot.c writes the MSR */
    .fill 4096, 1, 0xcc
    .size hypercall_page, 4096

    .section .data
    .balign 8
gdt:
    .quad 0
    .quad 0x00af9a000000ffff        /* 0x08: 64-bit code */
    .quad 0x00cf92000000ffff        /* 0x10: data */
gdt_end:
gdt_desc:
    .word gdt_end - gdt - 1
    .long gdt

    .section .bss
    .balign 4096
    .globl pml4, stack_top, ap_stack_top
pml4: .skip 4096
pdpt: .skip 4096
pd:   .skip 4096
    .skip 16384
stack_top:
    .skip 16384
ap_stack_top:
    .section .note.GNU-stack, "", @progbits
