/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * 32-bit PV entry (PAE, Xen's "xen-3.0-x86_32p"): Xen ELF notes, the
 * hypercall page, the vCPU entries.  Xen starts vCPU 0 at _start in 32-bit
 * protected mode, ring 1, on PAE page tables it built mapping the image at
 * VIRT_BASE, with ESI = start_info.  Only a Xen built with PV32 runs it
 * (Debian's 4.14, 4.17 and 4.20 are not: tests/lab/README.md).  Both
 * entries zero EBP before the first call, so frame-pointer walks end here.
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

#define VIRT_BASE 0xc0000000

NOTE(XEN_ELFNOTE_GUEST_OS,       .asciz "xu-guest")
NOTE(XEN_ELFNOTE_GUEST_VERSION,  .asciz "1")
NOTE(XEN_ELFNOTE_XEN_VERSION,    .asciz "xen-3.0")
NOTE(XEN_ELFNOTE_LOADER,         .asciz "generic")
NOTE(XEN_ELFNOTE_VIRT_BASE,      .long VIRT_BASE)
NOTE(XEN_ELFNOTE_PADDR_OFFSET,   .long VIRT_BASE)
NOTE(XEN_ELFNOTE_ENTRY,          .long _start)
NOTE(XEN_ELFNOTE_HYPERCALL_PAGE, .long hypercall_page)
/* PAE page tables: the only 32-bit PV guests a 64-bit Xen takes. */
NOTE(XEN_ELFNOTE_PAE_MODE,       .asciz "yes")
NOTE(XEN_ELFNOTE_FEATURES,       .asciz "!writable_page_tables|pae_pgdir_above_4gb")

    .section .text.boot, "ax"
    .globl _start
    .type _start, @function
_start:
    cld
    movl $stack_top, %esp
    xorl %ebp, %ebp
    subl $12, %esp          /* 16-byte aligned at the call */
    pushl %esi
    call start_kernel
1:  jmp 1b                  /* no hlt: a PV kernel runs in ring 1 */
    .size _start, . - _start

    .globl _start_ap
    .type _start_ap, @function
_start_ap:                  /* ESP set by VCPUOP_initialise */
    xorl %ebp, %ebp
    call secondary_main
1:  jmp 1b
    .size _start_ap, . - _start_ap

    .balign 4096
    .globl hypercall_page
    .type hypercall_page, @notype
hypercall_page:             /* filled by Xen's domain builder */
    .fill 4096, 1, 0xcc
    .size hypercall_page, 4096

    .section .bss
    .balign 4096
    .globl stack_top, ap_stack_top
    .skip 16384
stack_top:
    .skip 16384
ap_stack_top:
    .section .note.GNU-stack, "", @progbits
