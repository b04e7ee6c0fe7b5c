/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * 64-bit PVH event upcall entry (hcall program only): the IDT gate of the
 * callback vector (events.c).  Interrupt gate, DPL 0, no IST, taken at CPL 0,
 * so the CPU aligns RSP down to 16 bytes on the same stack and pushes
 * (Intel SDM vol. 3, 6.14.2; AMD APM vol. 2, 8.9.3):
 *
 *     rsp+0   RIP      interrupted instruction
 *     rsp+8   CS
 *     rsp+16  RFLAGS
 *     rsp+24  RSP      the interrupted RSP, exact
 *     rsp+32  SS
 *     rsp+40  = the aligned interrupted RSP: the CFA below
 *
 * CFI: CFA = entry RSP + 40, the return address (the interrupted RIP) at
 * CFA-40, the caller's RSP saved at CFA-16, RBP untouched;
 * .cfi_signal_frame because that RIP is exact, not a return address.
 *
 * RBP is left alone: a frame-pointer walk from do_hypervisor_callback needs
 * to know this frame.  At the call below, the return address into
 * hypervisor_callback sits 9 words (72 bytes) above the interrupt frame:
 * interrupt frame = (address of that return address) + 8 + 72.
 *
 * No EOI: the vector callback is not a LAPIC interrupt; Xen injects it while
 * evtchn_upcall_pending is set, which do_hypervisor_callback clears.
 */
    .text
    .globl hypervisor_callback
    .type hypervisor_callback, @function
    .balign 16
hypervisor_callback:
    .cfi_startproc simple
    .cfi_signal_frame
    .cfi_def_cfa %rsp, 40
    .cfi_offset %rip, -40
    .cfi_offset %rsp, -16
    .cfi_same_value %rbp
    /* The CPU left RSP = 8 mod 16; nine pushes align it for the call. */
    pushq %rax
    .cfi_adjust_cfa_offset 8
    pushq %rcx
    .cfi_adjust_cfa_offset 8
    pushq %rdx
    .cfi_adjust_cfa_offset 8
    pushq %rsi
    .cfi_adjust_cfa_offset 8
    pushq %rdi
    .cfi_adjust_cfa_offset 8
    pushq %r8
    .cfi_adjust_cfa_offset 8
    pushq %r9
    .cfi_adjust_cfa_offset 8
    pushq %r10
    .cfi_adjust_cfa_offset 8
    pushq %r11
    .cfi_adjust_cfa_offset 8
    call do_hypervisor_callback
    popq %r11
    .cfi_adjust_cfa_offset -8
    popq %r10
    .cfi_adjust_cfa_offset -8
    popq %r9
    .cfi_adjust_cfa_offset -8
    popq %r8
    .cfi_adjust_cfa_offset -8
    popq %rdi
    .cfi_adjust_cfa_offset -8
    popq %rsi
    .cfi_adjust_cfa_offset -8
    popq %rdx
    .cfi_adjust_cfa_offset -8
    popq %rcx
    .cfi_adjust_cfa_offset -8
    popq %rax
    .cfi_adjust_cfa_offset -8
    iretq
    .cfi_endproc
    .size hypervisor_callback, . - hypervisor_callback

    /* Replaced by the shared info page (events.c). */
    .section .bss
    .balign 4096
    .globl shared_info_page
shared_info_page:
    .skip 4096
    .section .note.GNU-stack, "", @progbits
