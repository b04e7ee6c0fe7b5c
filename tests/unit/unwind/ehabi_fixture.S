/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ehabi_fixture.S - AArch32 functions whose frames are known by
 * construction, with the unwind directives that make their .ARM.exidx and
 * .ARM.extab entries: _start (cantunwind) -> top (ARM: push, pad) -> mid
 * (Thumb-2: push, vpush, pad; its entry forced into .ARM.extab with
 * personality 1) -> leaf (ARM: a long push and a pad over 0x204 bytes,
 * which needs the uleb128 form).  Built by ehabi_fixture.sh; the ELF is
 * checked in beside it.
 */
    .syntax unified
    .text

    .arm
    .globl _start
    .type _start, %function
_start:
    .fnstart
    .cantunwind
    bl top
1:  b 1b
    .fnend
    .size _start, . - _start

    .globl top
    .type top, %function
top:
    .fnstart
    .save {r4, r5, r11, lr}
    push {r4, r5, r11, lr}
    .pad #16
    sub sp, sp, #16
    blx mid
    add sp, sp, #16
    pop {r4, r5, r11, pc}
    .fnend
    .size top, . - top

    .thumb
    .globl mid
    .type mid, %function
    .thumb_func
mid:
    .fnstart
    .personalityindex 1
    .save {r7, lr}
    push {r7, lr}
    .vsave {d8-d9}
    vpush {d8-d9}
    .pad #8
    sub sp, #8
    blx leaf
    add sp, #8
    vpop {d8-d9}
    pop {r7, pc}
    .fnend
    .size mid, . - mid

    .arm
    .globl leaf
    .type leaf, %function
leaf:
    .fnstart
    .save {r4-r10, lr}
    push {r4-r10, lr}
    .pad #1040
    sub sp, sp, #1040
    .globl leaf_spin
leaf_spin:
    b leaf_spin
    .fnend
    .size leaf, . - leaf

/* The personality routines the entries name (never called here). */
    .globl __aeabi_unwind_cpp_pr0
    .globl __aeabi_unwind_cpp_pr1
    .type __aeabi_unwind_cpp_pr0, %function
__aeabi_unwind_cpp_pr0:
__aeabi_unwind_cpp_pr1:
    bx lr
