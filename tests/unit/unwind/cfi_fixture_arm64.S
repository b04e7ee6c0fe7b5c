/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cfi_fixture_arm64.S - AArch64 functions with assembler-made CFI for
 * test_unwind_arm64.
 *
 * Never executed: the test compiles this file's CFI with the real builder
 * (libdw reading an EM_AARCH64 ELF) and lays out in the simulated guest the
 * stack these functions would have built.  Assembled and linked without
 * libc by the AArch64 cross compiler at 0x400000 (see Makefile.am).
 * Global fx_* labels mark return addresses and stopping places.
 *
 * Call graph:  fx_entry -> fx_with_fp -> fx_caller -> fx_leaf
 *   fx_entry    outermost: x30 undefined, x29 cleared
 *   fx_with_fp  "stp x29, x30, [sp, #-16]!; mov x29, sp", then the CFA on x29
 *   fx_caller   the same prologue with the CFA left on sp (what GCC emits),
 *               and pac-ret: x30 signed (paciasp) before it is stored
 *   fx_leaf     no frame at all: the return address stays in x30
 */
    .text

#define GLOBAL(l) .globl l; l:

    .globl fx_entry
    .type fx_entry, %function
fx_entry:
    .cfi_startproc
    .cfi_undefined x30
    mov x29, xzr
    bl fx_with_fp
GLOBAL(fx_ret_entry)
    b fx_ret_entry
    .cfi_endproc
    .size fx_entry, . - fx_entry

    .globl fx_with_fp
    .type fx_with_fp, %function
fx_with_fp:
    .cfi_startproc
    stp x29, x30, [sp, #-16]!
    .cfi_def_cfa_offset 16
    .cfi_offset x29, -16
    .cfi_offset x30, -8
    mov x29, sp
    .cfi_def_cfa x29, 16
    sub sp, sp, #32
    bl fx_caller
GLOBAL(fx_ret_with_fp)
    mov sp, x29
    .cfi_def_cfa sp, 16
    ldp x29, x30, [sp], #16
    .cfi_restore x29
    .cfi_restore x30
    .cfi_def_cfa_offset 0
    ret
    .cfi_endproc
    .size fx_with_fp, . - fx_with_fp

    .globl fx_caller
    .type fx_caller, %function
fx_caller:
    .cfi_startproc
    hint #25                    /* paciasp, in the NOP space for old assemblers */
    .cfi_negate_ra_state
    stp x29, x30, [sp, #-16]!
GLOBAL(fx_caller_pushed)
    .cfi_def_cfa_offset 16
    .cfi_offset x29, -16
    .cfi_offset x30, -8
    mov x29, sp
    bl fx_leaf
GLOBAL(fx_ret_caller)
    ldp x29, x30, [sp], #16
    .cfi_restore x29
    .cfi_restore x30
    .cfi_def_cfa_offset 0
    hint #29                    /* autiasp */
    .cfi_negate_ra_state
    ret
    .cfi_endproc
    .size fx_caller, . - fx_caller

    .globl fx_leaf
    .type fx_leaf, %function
fx_leaf:
    .cfi_startproc
    add x0, x0, #1
GLOBAL(fx_leaf_body)
    add x0, x0, #2
    ret
    .cfi_endproc
    .size fx_leaf, . - fx_leaf
