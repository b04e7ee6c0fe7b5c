/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * arm64 entry: a Linux arm64 Image header, the page tables, the MMU switch and the vCPU
 * entries.
 *
 * libxenguest's zImage64 loader puts the Image at GUEST_RAM0_BASE (0x40000000) +
 * text_offset and enters its first byte at EL1h with the MMU off, x0 = the DTB.  The code is
 * linked at KIMAGE_VA (0xffff000040080000, the TTBR1 half of a 48-bit address space), so a
 * profiler has to translate through the guest's own page tables, the way it must for Linux:
 *
 *   TTBR1 (4 KiB granule, 48-bit VA, 4 levels)
 *     L0[0] -> L1
 *     L1[0]    1 GiB device block, PA 0 (the vpl011 at 0x22000000)
 *     L1[1] -> L2
 *     L2[0] -> L3, 512 4 KiB pages for PA 0x40000000-0x401fffff (the image: code, data,
 *              stacks; so the hot code is reached by a full 4-level walk)
 *     L2[1..511] 2 MiB blocks, PA 0x40200000-0x7fffffff
 *   TTBR0: an identity map of PA 0x40000000-0x7fffffff (one 1 GiB block), needed only for
 *     the instruction after the MMU is switched on; nothing runs through it afterwards.
 *
 * primary_entry and secondary_entry run at their physical address (PC-relative code only)
 * until they jump to the high address of _start / _start_ap.  Both of these clear x29 and
 * x30 before their first call, so every frame-record chain ends there with fp = 0:
 *     vCPU 0:  _start;start_kernel;main;...
 *     vCPU 1:  _start_ap;secondary_main;...
 */

#define KIMAGE_VA       0xffff000040080000
#define PHYS_TEXT       0x40080000
#define VA_OFFSET       (KIMAGE_VA - PHYS_TEXT)

/* MAIR_EL1: attribute 0 Device-nGnRnE, attribute 1 Normal write-back. */
#define MAIR_VALUE      0xff00
/* TCR_EL1: T0SZ = T1SZ = 16 (48-bit), 4 KiB granules (TG0 = 0, TG1 = 2), inner shareable,
 * write-back walks; IPS is filled in from ID_AA64MMFR0_EL1.PARange. */
#define TCR_VALUE       ((16 << 0) | (1 << 8) | (1 << 10) | (3 << 12) | (0 << 14) | \
                         (16 << 16) | (1 << 24) | (1 << 26) | (3 << 28) | (2 << 30))
/* Descriptors: valid + type (1 block, 3 table/page), AttrIndx, inner shareable, AF. */
#define BLOCK_NORMAL    ((1 << 0) | (1 << 2) | (3 << 8) | (1 << 10))
#define PAGE_NORMAL     ((3 << 0) | (1 << 2) | (3 << 8) | (1 << 10))
#define BLOCK_DEVICE    ((1 << 0) | (0 << 2) | (1 << 10) | (1 << 54) | (1 << 53))
#define TABLE           3
/* SCTLR_EL1: M (MMU), C (data cache), I (instruction cache). */
#define SCTLR_ON        ((1 << 0) | (1 << 2) | (1 << 12))

    .section .text.head, "ax"
    .globl _head
    .type _head, %object
_head:                              /* Documentation/arch/arm64/booting.rst */
    b primary_entry                 /* code0 */
    .long 0                         /* code1 */
    .quad 0x80000                   /* text_offset */
    .quad _end - _head              /* image_size, bss and stacks included */
    .quad 0xa                       /* flags: little endian, 4 KiB pages, anywhere */
    .quad 0, 0, 0                   /* res2-4 */
    .ascii "ARM\x64"                /* magic */
    .long 0                         /* res5: no PE/COFF header */
    .size _head, . - _head

/* Physical address of symbol sym (adrp reaches +-4 GiB: the image is a few pages). */
.macro phys reg, sym
    adrp \reg, \sym
    add \reg, \reg, :lo12:\sym
.endm

/* The MMU switch both vCPUs make: same tables, same registers, then a jump to \target's
 * high address (a literal: PC-relative would stay physical). */
.macro mmu_on target
    ldr x1, =MAIR_VALUE
    msr mair_el1, x1
    ldr x1, =TCR_VALUE
    mrs x2, id_aa64mmfr0_el1
    and x2, x2, #7                  /* PARange -> TCR_EL1.IPS */
    bfi x1, x2, #32, #3
    msr tcr_el1, x1
    phys x1, idmap_l0
    msr ttbr0_el1, x1
    phys x1, kmap_l0
    msr ttbr1_el1, x1
    ldr x1, =vectors
    msr vbar_el1, x1
    isb
    tlbi vmalle1
    dsb nsh
    mrs x1, sctlr_el1
    ldr x2, =SCTLR_ON
    orr x1, x1, x2
    msr sctlr_el1, x1
    isb
    ldr x1, =\target
    br x1
.endm

    .section .text.boot, "ax"
    .type primary_entry, %function
primary_entry:
    /* Zero .bss (page tables and stacks live there), bounded by its linked size. */
    phys x1, __bss_start
    phys x2, __bss_end
1:  cmp x1, x2
    b.hs 2f
    stp xzr, xzr, [x1], #16
    b 1b
2:
    /* TTBR1: L0[0] -> L1, L1[0] = device block, L1[1] -> L2, L2[0] -> L3. */
    phys x1, kmap_l0
    phys x2, kmap_l1
    orr x3, x2, #TABLE
    str x3, [x1]
    ldr x3, =BLOCK_DEVICE
    str x3, [x2]
    phys x4, kmap_l2
    orr x3, x4, #TABLE
    str x3, [x2, #8]
    phys x5, kmap_l3
    orr x3, x5, #TABLE
    str x3, [x4]
    /* L2[1..511]: 2 MiB blocks from 0x40200000. */
    mov x6, #1
    ldr x3, =(0x40200000 | BLOCK_NORMAL)
3:  str x3, [x4, x6, lsl #3]
    add x3, x3, #0x200000
    add x6, x6, #1
    cmp x6, #512
    b.lo 3b
    /* L3[0..511]: 4 KiB pages from 0x40000000. */
    mov x6, #0
    ldr x3, =(0x40000000 | PAGE_NORMAL)
4:  str x3, [x5, x6, lsl #3]
    add x3, x3, #0x1000
    add x6, x6, #1
    cmp x6, #512
    b.lo 4b
    /* TTBR0: L0[0] -> L1, L1[1] = the 1 GiB identity block at 0x40000000. */
    phys x1, idmap_l0
    phys x2, idmap_l1
    orr x3, x2, #TABLE
    str x3, [x1]
    ldr x3, =(0x40000000 | BLOCK_NORMAL)
    str x3, [x2, #8]
    dsb ishst
    mmu_on _start
    .size primary_entry, . - primary_entry

    /* vCPU 1, started by PSCI CPU_ON at its physical address with the MMU off; the
     * context id (x0) is its stack's high address. */
    .globl secondary_entry
    .type secondary_entry, %function
secondary_entry:
    mov x19, x0
    mmu_on _start_ap
    .size secondary_entry, . - secondary_entry

    .section .text, "ax"
    .globl _start
    .type _start, %function
_start:                             /* vCPU 0, MMU on, high addresses from here */
    ldr x1, =stack_top
    mov sp, x1
    mov x29, xzr
    mov x30, xzr
    bl start_kernel
1:  wfi
    b 1b
    .size _start, . - _start

    .globl _start_ap
    .type _start_ap, %function
_start_ap:
    mov sp, x19
    mov x29, xzr
    mov x30, xzr
    bl secondary_main
1:  wfi
    b 1b
    .size _start_ap, . - _start_ap

    /* Any exception: spin in place, so xenctx shows where (and ELR_EL1 what). */
    .balign 2048
    .globl vectors
    .type vectors, %function
vectors:
    .rept 16
    .balign 128
    b .
    .endr
    .size vectors, . - vectors

    .ltorg

    .section .bss, "aw", %nobits
    .balign 4096
kmap_l0:    .skip 4096
kmap_l1:    .skip 4096
kmap_l2:    .skip 4096
kmap_l3:    .skip 4096
idmap_l0:   .skip 4096
idmap_l1:   .skip 4096
    .globl stack_top, ap_stack_top
    .skip 16384
stack_top:
    .skip 16384
ap_stack_top:
    .section .note.GNU-stack, "", %progbits
