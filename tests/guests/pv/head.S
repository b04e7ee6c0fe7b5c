/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * 64-bit PV entry: Xen ELF notes, the hypercall page, and the vCPU entries.
 * Xen starts vCPU 0 at _start in 64-bit mode with RSI = start_info.  Both
 * entries zero RBP before the first call, so frame-pointer walks end here.
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

#define VIRT_BASE 0xffffffff80000000

NOTE(XEN_ELFNOTE_GUEST_OS,       .asciz "xu-guest")
NOTE(XEN_ELFNOTE_GUEST_VERSION,  .asciz "1")
NOTE(XEN_ELFNOTE_XEN_VERSION,    .asciz "xen-3.0")
NOTE(XEN_ELFNOTE_LOADER,         .asciz "generic")
NOTE(XEN_ELFNOTE_VIRT_BASE,      .quad VIRT_BASE)
NOTE(XEN_ELFNOTE_PADDR_OFFSET,   .quad VIRT_BASE)
NOTE(XEN_ELFNOTE_ENTRY,          .quad _start)
NOTE(XEN_ELFNOTE_HYPERCALL_PAGE, .quad hypercall_page)

    .section .text.boot, "ax"
    .globl _start
    .type _start, @function
_start:
    cld
    leaq stack_top(%rip), %rsp
    xorl %ebp, %ebp
    movq %rsi, %rdi
    call start_kernel
1:  jmp 1b                  /* no hlt: a PV kernel runs in ring 3 */
    .size _start, . - _start

    .globl _start_ap
    .type _start_ap, @function
_start_ap:                  /* RSP set by VCPUOP_initialise */
    xorl %ebp, %ebp
    call secondary_main
1:  jmp 1b
    .size _start_ap, . - _start_ap

    .balign 4096
    .globl hypercall_page
    /* Untyped, with its size, as Linux's SYM_CODE (Mini-OS's has no
     * size either): code Xen writes, not a C function. */
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
