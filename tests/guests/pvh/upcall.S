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
/*
 * The CFI is emitted only into the nofp variant (-DUPCALL_CFI, with the C
 * code's own tables): the frame-pointer variant has no unwind tables at all,
 * like a Mini-OS build, so the profiler's frame-pointer path must know this
 * frame by itself (the offsets above).
 */
#ifdef UPCALL_CFI
#define CFI(...) __VA_ARGS__
#else
#define CFI(...)
#endif

    .text
    .globl hypervisor_callback
    .type hypervisor_callback, @function
    .balign 16
hypervisor_callback:
    CFI(.cfi_startproc simple)
    CFI(.cfi_signal_frame)
    CFI(.cfi_def_cfa %rsp, 40)
    CFI(.cfi_offset %rip, -40)
    CFI(.cfi_offset %rsp, -16)
    CFI(.cfi_same_value %rbp)
    /* The CPU left RSP = 8 mod 16; nine pushes align it for the call. */
    pushq %rax
    CFI(.cfi_adjust_cfa_offset 8)
    pushq %rcx
    CFI(.cfi_adjust_cfa_offset 8)
    pushq %rdx
    CFI(.cfi_adjust_cfa_offset 8)
    pushq %rsi
    CFI(.cfi_adjust_cfa_offset 8)
    pushq %rdi
    CFI(.cfi_adjust_cfa_offset 8)
    pushq %r8
    CFI(.cfi_adjust_cfa_offset 8)
    pushq %r9
    CFI(.cfi_adjust_cfa_offset 8)
    pushq %r10
    CFI(.cfi_adjust_cfa_offset 8)
    pushq %r11
    CFI(.cfi_adjust_cfa_offset 8)
    call do_hypervisor_callback
    popq %r11
    CFI(.cfi_adjust_cfa_offset -8)
    popq %r10
    CFI(.cfi_adjust_cfa_offset -8)
    popq %r9
    CFI(.cfi_adjust_cfa_offset -8)
    popq %r8
    CFI(.cfi_adjust_cfa_offset -8)
    popq %rdi
    CFI(.cfi_adjust_cfa_offset -8)
    popq %rsi
    CFI(.cfi_adjust_cfa_offset -8)
    popq %rdx
    CFI(.cfi_adjust_cfa_offset -8)
    popq %rcx
    CFI(.cfi_adjust_cfa_offset -8)
    popq %rax
    CFI(.cfi_adjust_cfa_offset -8)
    iretq
    CFI(.cfi_endproc)
    .size hypervisor_callback, . - hypervisor_callback

    /* Replaced by the shared info page (events.c). */
    .section .bss
    .balign 4096
    .globl shared_info_page
shared_info_page:
    .skip 4096
    .section .note.GNU-stack, "", @progbits
