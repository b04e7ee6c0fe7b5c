/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ratio_kernel.h - the kernel the simulated guest runs in the tests of the
 * record, stack and top jobs: _start -> start_kernel -> main_loop ->
 * function_1/2/3 at SIM_TEXT_BASE, each return address after a call
 * instruction, so that a walk of one of the stacks below is vouched complete
 * (_start, the entry point, is the root).  One copy, so that the three tests
 * agree on what a complete stack of this guest is.
 */
#ifndef RATIO_KERNEL_H
#define RATIO_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#include "mkelf.h"

#define RATIO_KERNEL_NSYMS 6
#define RATIO_KERNEL_NCALLS 5
#define RATIO_KERNEL_DEPTH 4    /* frames of each stack below */

extern const struct mkelf_sym ratio_kernel_syms[RATIO_KERNEL_NSYMS];
/* The call instructions before each return address of the stacks below. */
extern const struct mkelf_patch ratio_kernel_calls[RATIO_KERNEL_NCALLS];
/* Innermost first: a pc in function_N, then the return addresses. */
extern const uint64_t ratio_kernel_in_f1[RATIO_KERNEL_DEPTH];
extern const uint64_t ratio_kernel_in_f2[RATIO_KERNEL_DEPTH];
extern const uint64_t ratio_kernel_in_f3[RATIO_KERNEL_DEPTH];

/* Writes the kernel's ELF (one .text) to PATH, with MKELF_* FLAGS; NAMES,
 * when not NULL, renames the RATIO_KERNEL_NSYMS symbols in order (a second
 * guest with the same code).  0, or -1 if it could not be written. */
int ratio_kernel_write(const char *path, const char *const *names, unsigned int flags);

#endif
