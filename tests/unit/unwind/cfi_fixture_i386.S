/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cfi_fixture_i386.S - i386 functions with assembler-made CFI for
 * test_unwind_x86_32.  Never executed: the test reads this file's CFI
 * through the real builder (an ELFCLASS32 file: 4-byte addresses, DWARF
 * registers esp 4, ebp 5, eip 8) and lays out in the simulated guest the
 * stack these functions would have built.  Linked with ld -m elf_i386 at
 * 0xc0100000 (see Makefile.am); with FX_DEBUG_FRAME the CFI goes to
 * .debug_frame, whose addresses are absolute 4-byte words.
 *
 * Call graph: fx32_entry -> fx32_mid (no frame pointer: CFA esp + 16)
 *                        -> fx32_leaf (frame pointer: CFA ebp + 8)
 */
#ifdef FX_DEBUG_FRAME
    .cfi_sections .debug_frame
#endif

#define GLOBAL(l) .globl l; l:

    .text

    .globl fx32_entry
    .type fx32_entry, @function
fx32_entry:
    .cfi_startproc
    .cfi_undefined eip
    xorl %ebp, %ebp
    call fx32_mid
GLOBAL(fx32_ret_entry)
    jmp fx32_ret_entry
    .cfi_endproc
    .size fx32_entry, . - fx32_entry

    .globl fx32_mid
    .type fx32_mid, @function
fx32_mid:
    .cfi_startproc
    pushl %ebx
    .cfi_adjust_cfa_offset 4
    .cfi_offset ebx, -8
    subl $8, %esp
    .cfi_adjust_cfa_offset 8
    call fx32_leaf
GLOBAL(fx32_ret_mid)
    addl $8, %esp
    .cfi_adjust_cfa_offset -8
    popl %ebx
    .cfi_adjust_cfa_offset -4
    ret
    .cfi_endproc
    .size fx32_mid, . - fx32_mid

    .globl fx32_leaf
    .type fx32_leaf, @function
fx32_leaf:
    .cfi_startproc
    pushl %ebp
    .cfi_def_cfa_offset 8
    .cfi_offset ebp, -8
    movl %esp, %ebp
    .cfi_def_cfa_register ebp
GLOBAL(fx32_leaf_body)
    nop
    nop
    popl %ebp
    .cfi_def_cfa esp, 4
    ret
    .cfi_endproc
    .size fx32_leaf, . - fx32_leaf
