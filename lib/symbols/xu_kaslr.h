/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu_kaslr.h - where a kernel relocated at boot (KASLR) runs: its slide,
 * the distance from the addresses its image was linked at to those it
 * runs at.
 *
 * A Linux kernel started by its own decompressor (an HVM guest booted by
 * its device model or a bootloader) picks a random virtual base; one
 * started by Xen directly (PV, PVH) never runs that code and stays where
 * it was linked.  Every address in a profile is then off by the slide:
 * symbols, ORC entries and code ranges are in link-time addresses.
 *
 * The slide is read from what the vCPU holds, never guessed by scanning
 * memory: on x86-64 the syscall entry MSR (MSR_LSTAR, Linux writes
 * entry_SYSCALL_64's runtime address there) against entry_SYSCALL_64's
 * link-time address, and the IDT's divide-error gate against
 * asm_exc_divide_error's (the IDT itself lives at a fixed address, the
 * handlers it names are in the relocated text).  A candidate counts only
 * when it is a multiple of the kernel's alignment and moves the whole text
 * inside the kernel's window; it becomes the slide only when the image's
 * own bytes are found at the slid addresses (xu_elf_match_guest(), which
 * takes these candidates): a hostile or stale register can only cost a
 * few reads, never a wrong name.
 *
 * Only computing and reading here: the pause, the comparison and the
 * verdict stay in elf_match.c, the relocation of the tables in each
 * table's module (xu_symtab_relocate(), xu_orc_relocate(),
 * xu_elf_code_relocate()).
 */
#ifndef XU_KASLR_H
#define XU_KASLR_H

#include <stdbool.h>
#include <stdint.h>

#include "mem/xu_mem.h"
#include "symbols/xu_symbols.h"
#include "target/xu_target.h"

/* x86-64 Linux: the kernel image lives in [0xffffffff80000000, +1 GiB)
 * (KERNEL_IMAGE_SIZE with KASLR) and moves by CONFIG_PHYSICAL_ALIGN, at
 * least 2 MiB. */
#define XU_KASLR_X86_WINDOW_LO 0xffffffff80000000ULL
#define XU_KASLR_X86_WINDOW_HI 0xffffffffc0000000ULL
#define XU_KASLR_X86_ALIGN     (2ULL << 20)

/* An address inside that window. */
static inline bool xu_kaslr_x86_in_window(uint64_t a)
{
    return a >= XU_KASLR_X86_WINDOW_LO && a < XU_KASLR_X86_WINDOW_HI;
}

enum xu_kaslr_source {
    XU_KASLR_NONE = 0,
    XU_KASLR_FROM_SYSCALL,      /* MSR_LSTAR against entry_SYSCALL_64 */
    XU_KASLR_FROM_IDT,          /* the divide-error gate against asm_exc_divide_error */
};

/* What the image says, link-time addresses; 0 where it has no such symbol. */
struct xu_kaslr_anchors {
    uint64_t syscall_entry;     /* entry_SYSCALL_64 */
    uint64_t divide_error;      /* asm_exc_divide_error (divide_error before 5.8) */
    uint64_t text_lo, text_hi;  /* the span of the text compared: must fit the window slid */
};

#define XU_KASLR_MAX_CANDIDATES 2

struct xu_kaslr_candidate {
    int64_t slide;
    enum xu_kaslr_source source;
    uint64_t runtime;           /* the address the vCPU gave */
};

/* The anchors of st (NULL: none) for text spanning [text_lo, text_hi). */
void xu_kaslr_anchors_from(const struct xu_symtab *st, uint64_t text_lo, uint64_t text_hi,
                           struct xu_kaslr_anchors *out);
/* Whether the image has anything a slide could be read against. */
bool xu_kaslr_has_anchors(const struct xu_kaslr_anchors *a);

/*
 * The slides regs point at, distinct, at most XU_KASLR_MAX_CANDIDATES,
 * into out; returns how many.  The IDT's gate is read through m (its
 * context set to regs by the caller, the guest paused).  *rejected counts
 * the registers that pointed somewhere no slide can put the kernel
 * (misaligned, outside the window): hostile or another kernel.
 */
unsigned int xu_kaslr_candidates(const struct xu_kaslr_anchors *a,
                                 const struct xu_vcpu_regs *regs, struct xu_mem *m,
                                 struct xu_kaslr_candidate *out, unsigned int *rejected);

/* A slide that keeps the text aligned and inside the kernel's window. */
bool xu_kaslr_slide_valid(const struct xu_kaslr_anchors *a, int64_t slide);

/* "MSR_LSTAR (entry_SYSCALL_64)", ... for messages. */
const char *xu_kaslr_source_name(enum xu_kaslr_source s);

#endif
