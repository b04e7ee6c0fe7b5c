/* SPDX-License-Identifier: GPL-2.0-only */
/* code.h - x86-64 machine code the unwinder recognises (private to arch/x86_64). */
#ifndef XU_X86_CODE_H
#define XU_X86_CODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

int xu_x86_hypercall_stub(const uint8_t *entry, unsigned int off, unsigned int *words);
bool xu_x86_interrupt_frame(const uint64_t *words, uint64_t addr, uint64_t *pc, uint64_t *sp);
bool xu_x86_follows_call(const uint8_t *before, size_t n);
int xu_x86_frameless_words(const uint8_t *code);
int xu_x86_frameless_depth(const uint8_t *code, size_t len, size_t upto);

#endif
