/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * 64-bit PV event upcall entry (hcall program only).
 *
 * Xen enters here through the bounce frame that create_bounce_frame
 * (xen/arch/x86/x86_64/entry.S) writes on the guest kernel stack: it takes
 * the interrupted RSP, aligns it down to 16 bytes, and stores 7 words below:
 *
 *     rsp+0   RCX      (the interrupted RCX: Xen needs RCX/R11 to get here)
 *     rsp+8   R11
 *     rsp+16  RIP      interrupted instruction
 *     rsp+24  CS       bits 0-15; bits 32-39: the saved upcall mask
 *     rsp+32  RFLAGS   IF = !saved upcall mask
 *     rsp+40  RSP      the interrupted RSP, exact (not the aligned one)
 *     rsp+48  SS
 *     rsp+56  = the aligned interrupted RSP: the CFA below
 *
 * The CFI describes exactly that, so a CFI unwinder steps from here to the
 * interrupted function: CFA = entry RSP + 56, the return address (the
 * interrupted RIP) at CFA-40, the caller's RSP *saved* at CFA-16 (the CFA
 * itself may be up to 8 bytes above it, because of the alignment), RBP
 * untouched (the interrupted function's).  .cfi_signal_frame: the return
 * address is the exact interrupted instruction, not a return address.
 *
 * RBP is left alone, as Mini-OS does: a frame-pointer walk from
 * do_hypervisor_callback reaches the interrupted function's caller, not the
 * interrupted function, unless it knows this frame.  At the call below, the
 * return address into hypervisor_callback sits 7 words (56 bytes) above
 * the bounce frame: bounce frame = (address of that return address) + 8 + 56.
 *
 * The way back is the iret hypercall (HYPERVISOR_iret, Mini-OS's slow path
 * and Linux's): it restores RCX, R11 and the upcall mask from RFLAGS.IF
 * (do_iret in xen/arch/x86/pv/iret.c), which a plain iretq could not do
 * atomically.
 */
#define __ASSEMBLY__ 1   /* xen.h: the constants only */
#include <xen/xen.h>

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
    CFI(.cfi_def_cfa %rsp, 56)
    CFI(.cfi_offset %rcx, -56)
    CFI(.cfi_offset %r11, -48)
    CFI(.cfi_offset %rip, -40)
    CFI(.cfi_offset %rsp, -16)
    CFI(.cfi_same_value %rbp)
    /* The bounce left RSP = 8 mod 16; seven pushes align it for the call. */
    pushq %rax
    CFI(.cfi_adjust_cfa_offset 8)
    pushq %rdi
    CFI(.cfi_adjust_cfa_offset 8)
    pushq %rsi
    CFI(.cfi_adjust_cfa_offset 8)
    pushq %rdx
    CFI(.cfi_adjust_cfa_offset 8)
    pushq %r8
    CFI(.cfi_adjust_cfa_offset 8)
    pushq %r9
    CFI(.cfi_adjust_cfa_offset 8)
    pushq %r10
    CFI(.cfi_adjust_cfa_offset 8)
    call do_hypervisor_callback
    popq %r10
    CFI(.cfi_adjust_cfa_offset -8)
    popq %r9
    CFI(.cfi_adjust_cfa_offset -8)
    popq %r8
    CFI(.cfi_adjust_cfa_offset -8)
    popq %rdx
    CFI(.cfi_adjust_cfa_offset -8)
    popq %rsi
    CFI(.cfi_adjust_cfa_offset -8)
    popq %rdi
    CFI(.cfi_adjust_cfa_offset -8)
    popq %rax
    CFI(.cfi_adjust_cfa_offset -8)
    /* Back to the interrupted RCX and R11; the iret hypercall's entry pushes
     * them again (with RAX) and Xen reloads them from there. */
    popq %rcx
    CFI(.cfi_adjust_cfa_offset -8)
    CFI(.cfi_same_value %rcx)
    popq %r11
    CFI(.cfi_adjust_cfa_offset -8)
    CFI(.cfi_same_value %r11)
    /* struct iret_context's flags word: 0, not VGCF_in_syscall. */
    pushq $0
    CFI(.cfi_adjust_cfa_offset 8)
    jmp hypercall_page + __HYPERVISOR_iret * 32
    CFI(.cfi_endproc)
    .size hypervisor_callback, . - hypervisor_callback

    /* Mapped over by the shared info page (events.c). */
    .section .bss
    .balign 4096
    .globl shared_info_page
shared_info_page:
    .skip 4096
    .section .note.GNU-stack, "", @progbits
