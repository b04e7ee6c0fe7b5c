/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cfi_fixture.S - functions with real assembler-made CFI for test_unwind_cfi.
 *
 * Never executed: test_unwind_cfi reads this file's CFI through the real
 * builder and lays out in the simulated guest the stacks these functions
 * would have built.  Linked at 0x401000 without libc (see Makefile.am);
 * with FX_DEBUG_FRAME the same CFI goes to .debug_frame instead of
 * .eh_frame.  Global fx_* labels mark the addresses the test needs:
 * return addresses (fx_ret_*) and places where a vCPU is stopped.
 *
 * Call graph with CFI:    fx_entry -> fx_with_fp -> fx_saves_rbp ->
 *                         fx_frameless -> fx_leaf
 * An interrupt stub:      fx_intr (signal frame) -> fx_leaf
 * Without any CFI:        fx_nocfi_entry -> fx_nocfi -> fx_frameless
 */
#ifdef FX_DEBUG_FRAME
    .cfi_sections .debug_frame
#endif

#define GLOBAL(l) .globl l; l:

    .text

/* Outermost frame: entry code marks the return address undefined. */
    .globl fx_entry
    .type fx_entry, @function
fx_entry:
    .cfi_startproc
    .cfi_undefined rip
    xorl %ebp, %ebp
    call fx_with_fp
GLOBAL(fx_ret_entry)
    jmp fx_ret_entry
    .cfi_endproc
    .size fx_entry, . - fx_entry

/* A frame-pointer function: after the prologue the CFA is rbp + 16. */
    .globl fx_with_fp
    .type fx_with_fp, @function
fx_with_fp:
    .cfi_startproc
    pushq %rbp
GLOBAL(fx_with_fp_pushed)
    .cfi_def_cfa_offset 16
    .cfi_offset rbp, -16
    movq %rsp, %rbp
    .cfi_def_cfa_register rbp
    subq $32, %rsp
    call fx_saves_rbp
GLOBAL(fx_ret_with_fp)
    nop
    leave
    .cfi_def_cfa rsp, 8
    ret
    .cfi_endproc
    .size fx_with_fp, . - fx_with_fp

/* -fomit-frame-pointer style: rbp is an ordinary callee-saved register. */
    .globl fx_saves_rbp
    .type fx_saves_rbp, @function
fx_saves_rbp:
    .cfi_startproc
    pushq %rbp
GLOBAL(fx_saves_pushed)
    .cfi_adjust_cfa_offset 8
    .cfi_rel_offset rbp, 0
    movl $5, %ebp
    subq $16, %rsp
    .cfi_adjust_cfa_offset 16
    call fx_frameless
GLOBAL(fx_ret_saves)
    nop
    addq $16, %rsp
    .cfi_adjust_cfa_offset -16
    popq %rbp
    .cfi_adjust_cfa_offset -8
    .cfi_restore rbp
    ret
    .cfi_endproc
    .size fx_saves_rbp, . - fx_saves_rbp

/* No frame pointer, two exits: the second call site follows an epilogue, so
 * its CFA (rsp + 40) comes from .cfi_remember_state/.cfi_restore_state. */
    .globl fx_frameless
    .type fx_frameless, @function
fx_frameless:
    .cfi_startproc
    pushq %rbx
    .cfi_adjust_cfa_offset 8
    .cfi_rel_offset rbx, 0
    subq $24, %rsp
    .cfi_adjust_cfa_offset 24
    testl %edi, %edi
    je 1f
    call fx_leaf
GLOBAL(fx_ret_frameless)
    nop
    .cfi_remember_state
    addq $24, %rsp
    .cfi_adjust_cfa_offset -24
    popq %rbx
    .cfi_adjust_cfa_offset -8
    .cfi_restore rbx
GLOBAL(fx_frameless_exit)
    ret
    .cfi_restore_state
1:  call fx_leaf
GLOBAL(fx_ret_frameless2)
    nop
    addq $24, %rsp
    .cfi_adjust_cfa_offset -24
    popq %rbx
    .cfi_adjust_cfa_offset -8
    .cfi_restore rbx
    ret
    .cfi_endproc
    .size fx_frameless, . - fx_frameless

/* A leaf: no stack at all, the return address stays at rsp. */
    .globl fx_leaf
    .type fx_leaf, @function
fx_leaf:
    .cfi_startproc
    nop
GLOBAL(fx_leaf_body)
    nop
    ret
    .cfi_endproc
    .size fx_leaf, . - fx_leaf

/* An interrupt entry: the CPU pushed RIP, CS, RFLAGS, RSP, SS.  Marked a
 * signal frame: the interrupted RIP is exact, and RSP is reloaded. */
    .globl fx_intr
    .type fx_intr, @function
fx_intr:
    .cfi_startproc simple
    .cfi_signal_frame
    .cfi_def_cfa rsp, 40
    .cfi_offset rip, -40
    .cfi_offset rsp, -16
    pushq %rdi
    .cfi_adjust_cfa_offset 8
    call fx_leaf
GLOBAL(fx_ret_intr)
    nop
    popq %rdi
    .cfi_adjust_cfa_offset -8
    iretq
    .cfi_endproc
    .size fx_intr, . - fx_intr

/* Code without any CFI, built with frame pointers. */
    .globl fx_nocfi_entry
    .type fx_nocfi_entry, @function
fx_nocfi_entry:
    xorl %ebp, %ebp
    call fx_nocfi
GLOBAL(fx_ret_nocfi_entry)
    jmp fx_ret_nocfi_entry
    .size fx_nocfi_entry, . - fx_nocfi_entry

    .globl fx_nocfi
    .type fx_nocfi, @function
fx_nocfi:
    pushq %rbp
    movq %rsp, %rbp
    movl $1, %edi
    call fx_frameless
GLOBAL(fx_ret_nocfi)
    nop
    popq %rbp
    ret
    .size fx_nocfi, . - fx_nocfi

    .section .note.GNU-stack, "", @progbits
