/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ARMv7 (AArch32) entry: a zImage header, the page tables, the MMU switch and the vCPU
 * entries.  ARM state here whatever the C code's instruction set (-marm or -mthumb).
 *
 * libxenguest's zImage32 loader puts the image at GUEST_RAM0_BASE + 0x8000 (PA 0x40008000)
 * and enters its first byte in SVC mode with the MMU off, r2 = the DTB.  The code is linked
 * at 0xc0008000 (Linux's PAGE_OFFSET 0xc0000000 = PA 0x40000000), so a profiler has to
 * translate through the guest's own page tables.  Short descriptors (TTBCR.EAE = 0, N = 0:
 * TTBR0 maps everything), or with -DARM32_LPAE long descriptors (TTBCR.EAE = 1, T0SZ = 0,
 * T1SZ = 2: TTBR1 maps 0xc0000000 up, TTBR0 the low 3 GiB, as Linux's LPAE 3G/1G split):
 *
 *   short:  L1[0xc00] -> L2: 256 4 KiB small pages, PA 0x40000000-0x400fffff (the image:
 *                        code, data, stacks; so the hot code is reached by a 2-level walk)
 *           L1[0xc01..0xcff] 1 MiB sections, PA 0x40100000-0x4fffffff
 *           L1[0x400] 1 MiB identity section (the MMU switch), L1[0x220] the vpl011 (device)
 *   LPAE:   TTBR1 (T1SZ = 2: a 1 GiB region, whose walk starts at the second level):
 *                  L2[0] -> L3: 512 4 KiB pages, PA 0x40000000-0x401fffff;
 *                  L2[1..127] 2 MiB blocks up to 0x4fffffff
 *           TTBR0: L1[1] 1 GiB identity block at 0x40000000, L1[0] device block at 0 (the
 *                  vpl011 at 0x22000000)
 *
 * primary_entry and secondary_entry run at their physical address (PC-relative code only)
 * until they jump to the high address of _start / _start_ap.  Both of these clear r11, r7
 * and lr before their first call, so every frame chain ends there with fp = 0:
 *     vCPU 0:  _start;start_kernel;main;...
 *     vCPU 1:  _start_ap;secondary_main;...
 */

#define PAGE_OFFSET     0xc0000000
#define PHYS_OFFSET     0x40000000
#define VA_OFFSET       (PAGE_OFFSET - PHYS_OFFSET)

#ifndef ARM32_LPAE
/* Short descriptors: AP[1:0] = 3 (full access), domain 0; normal memory outer and inner
 * write-back (TEX 001, C, B), shareable; device memory shareable (B only), never
 * executed. */
#define SECTION_NORMAL  ((2 << 0) | (1 << 2) | (1 << 3) | (3 << 10) | (1 << 12) | (1 << 16))
#define SECTION_DEVICE  ((2 << 0) | (1 << 2) | (1 << 4) | (3 << 10))
#define COARSE_TABLE    (1 << 0)
#define SMALL_NORMAL    ((2 << 0) | (1 << 2) | (1 << 3) | (3 << 4) | (1 << 6) | (1 << 10))
#define TTBCR_VALUE     0
#else
/* Long descriptors: AttrIndx 0 normal write-back, 1 device (MAIR0), inner shareable, AF;
 * AP[2:1] = 0 (read/write at PL1). */
#define BLOCK_NORMAL    ((1 << 0) | (0 << 2) | (3 << 8) | (1 << 10))
#define PAGE_NORMAL     ((3 << 0) | (0 << 2) | (3 << 8) | (1 << 10))
#define BLOCK_DEVICE    ((1 << 0) | (1 << 2) | (1 << 10))
#define TABLE           3
/* EAE, T0SZ = 0, T1SZ = 2 (TTBR1 from 0xc0000000), write-back inner shareable walks. */
#define TTBCR_VALUE     ((1 << 31) | (2 << 16) | (1 << 8) | (1 << 10) | (3 << 12) | \
                         (1 << 24) | (1 << 26) | (3 << 28))
#define MAIR0_VALUE     0x000004ff
#endif
/* SCTLR: M (MMU), C (data cache), I (instruction cache); TRE and AFE stay 0. */
#define SCTLR_ON        ((1 << 0) | (1 << 2) | (1 << 12))

    .syntax unified
    .arm

    .section .text.head, "ax"
    .globl _head
    .type _head, %object
_head:                              /* arch/arm/boot/compressed/head.S's header */
    .rept 8
    mov r0, r0
    .endr
    b primary_entry
    .word 0x016f2818                /* zImage magic, at 0x24 */
    .word 0                         /* start: 0, enter at the load address */
    .word _edata - _head            /* end: the loaded bytes (head.S zeroes .bss) */
    .size _head, . - _head

/* Physical address of symbol sym: linked high, running low, VA_OFFSET apart. */
.macro phys reg, sym
    ldr \reg, =\sym
    sub \reg, \reg, #VA_OFFSET
.endm

/* The MMU switch both vCPUs make: same tables, same registers, then a jump to \target's
 * high address (a literal: PC-relative would stay physical). */
.macro mmu_on target
#ifndef ARM32_LPAE
    phys r1, l1_table
    mcr p15, 0, r1, c2, c0, 0       /* TTBR0 */
    mov r1, #0
    mcr p15, 0, r1, c2, c0, 1       /* TTBR1: unused with N = 0 */
    ldr r1, =0x55555555
    mcr p15, 0, r1, c3, c0, 0       /* DACR: every domain a client */
#else
    ldr r1, =MAIR0_VALUE
    mcr p15, 0, r1, c10, c2, 0      /* MAIR0 */
    phys r1, low_l1
    mov r2, #0
    mcrr p15, 0, r1, r2, c2         /* TTBR0 */
    phys r1, high_l2
    mcrr p15, 1, r1, r2, c2         /* TTBR1 */
#endif
    ldr r1, =TTBCR_VALUE
    mcr p15, 0, r1, c2, c0, 2       /* TTBCR */
    ldr r1, =vectors
    mcr p15, 0, r1, c12, c0, 0      /* VBAR */
    isb
    mov r1, #0
    mcr p15, 0, r1, c8, c7, 0       /* TLBIALL */
    dsb
    mrc p15, 0, r1, c1, c0, 0
    ldr r2, =SCTLR_ON
    orr r1, r1, r2
    mcr p15, 0, r1, c1, c0, 0       /* SCTLR */
    isb
    ldr r1, =\target
    bx r1
.endm

    .section .text.boot, "ax"
    .type primary_entry, %function
primary_entry:
    /* Zero .bss (page tables and stacks live there), bounded by its linked size. */
    phys r1, __bss_start
    phys r2, __bss_end
    mov r3, #0
1:  cmp r1, r2
    bhs 2f
    str r3, [r1], #4
    b 1b
2:
#ifndef ARM32_LPAE
    phys r1, l1_table
    phys r2, l2_table
    /* L1[0xc00] -> L2 (domain 0) */
    orr r3, r2, #COARSE_TABLE
    ldr r4, =(0xc00 * 4)
    str r3, [r1, r4]
    /* L2[0..255]: small pages from PA 0x40000000 */
    ldr r3, =(PHYS_OFFSET | SMALL_NORMAL)
    mov r4, #0
3:  str r3, [r2, r4, lsl #2]
    add r3, r3, #0x1000
    add r4, r4, #1
    cmp r4, #256
    blo 3b
    /* L1[0xc01..0xcff]: sections from PA 0x40100000 */
    ldr r3, =((PHYS_OFFSET + 0x100000) | SECTION_NORMAL)
    ldr r4, =0xc01
4:  str r3, [r1, r4, lsl #2]
    add r3, r3, #0x100000
    add r4, r4, #1
    cmp r4, #0xd00
    blo 4b
    /* the identity section the MMU switch runs in, and the vpl011 */
    ldr r3, =(PHYS_OFFSET | SECTION_NORMAL)
    ldr r4, =(0x400 * 4)
    str r3, [r1, r4]
    ldr r3, =(0x22000000 | SECTION_DEVICE)
    str r3, [r1, #(0x220 * 4)]
#else
    /* TTBR1: L2[0] -> L3; L2[1..127] blocks; L3[0..511] pages.  Each descriptor is
     * stored as r6 (low word) and r7 (high word). */
    mov r7, #0
    phys r2, high_l2
    phys r5, high_l3
    orr r6, r5, #TABLE
    strd r6, r7, [r2]
    ldr r6, =((PHYS_OFFSET + 0x200000) | BLOCK_NORMAL)
    mov r4, #1
3:  add r8, r2, r4, lsl #3
    strd r6, r7, [r8]
    add r6, r6, #0x200000
    add r4, r4, #1
    cmp r4, #128
    blo 3b
    ldr r6, =(PHYS_OFFSET | PAGE_NORMAL)
    mov r4, #0
4:  add r8, r5, r4, lsl #3
    strd r6, r7, [r8]
    add r6, r6, #0x1000
    add r4, r4, #1
    cmp r4, #512
    blo 4b
    /* TTBR0: L1[0] device block (the vpl011), L1[1] the identity block */
    phys r1, low_l1
    ldr r6, =BLOCK_DEVICE
    mov r7, #(1 << 22)              /* XN, bit 54 of the descriptor */
    strd r6, r7, [r1]
    ldr r6, =(PHYS_OFFSET | BLOCK_NORMAL)
    mov r7, #0
    strd r6, r7, [r1, #8]
#endif
    dsb
    mmu_on _start
    .size primary_entry, . - primary_entry

    /* vCPU 1, started by PSCI CPU_ON at its physical address with the MMU off; the
     * context id (r0) is its stack's high address. */
    .globl secondary_entry
    .type secondary_entry, %function
secondary_entry:
    mov r8, r0
    mmu_on _start_ap
    .size secondary_entry, . - secondary_entry

    .ltorg

    .section .text, "ax"
    .globl _start
    .type _start, %function
_start:                             /* vCPU 0, MMU on, high addresses from here */
    ldr sp, =stack_top
    mov r11, #0
    mov r7, #0
    mov lr, #0
    bl start_kernel
1:  wfi
    b 1b
    .size _start, . - _start

    .globl _start_ap
    .type _start_ap, %function
_start_ap:
    mov sp, r8
    mov r11, #0
    mov r7, #0
    mov lr, #0
    bl secondary_main
1:  wfi
    b 1b
    .size _start_ap, . - _start_ap

    /* The EHABI tables of the -funwind-tables build name these personality routines
     * (as a kernel's do); nothing in the guest unwinds, so they are never called. */
    .globl __aeabi_unwind_cpp_pr0, __aeabi_unwind_cpp_pr1, __aeabi_unwind_cpp_pr2
    .type __aeabi_unwind_cpp_pr0, %function
__aeabi_unwind_cpp_pr0:
__aeabi_unwind_cpp_pr1:
__aeabi_unwind_cpp_pr2:
    bx lr
    .size __aeabi_unwind_cpp_pr0, . - __aeabi_unwind_cpp_pr0

    /* Any exception: spin in place, so xenctx shows where (and the banked lr what). */
    .balign 32
    .globl vectors
    .type vectors, %function
vectors:
    .rept 8
    b .
    .endr
    .size vectors, . - vectors

    .ltorg

    .section .bss, "aw", %nobits
#ifndef ARM32_LPAE
    .balign 16384
l1_table:   .skip 16384
l2_table:   .skip 1024
#else
    .balign 4096
high_l2:    .skip 4096
high_l3:    .skip 4096
low_l1:     .skip 4096
#endif
    .balign 8
    .globl stack_top, ap_stack_top
    .skip 16384
stack_top:
    .skip 16384
ap_stack_top:
    .section .note.GNU-stack, "", %progbits
