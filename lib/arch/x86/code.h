/* SPDX-License-Identifier: GPL-2.0-only */
/* code.h - x86 machine code the unwinder recognises, both widths (private to lib/arch/x86*). */
#ifndef XU_X86_CODE_H
#define XU_X86_CODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Hypercall stubs: both widths' (words are the guest's). */
int xu_x86_hypercall_stub(const uint8_t *entry, unsigned int off, unsigned int *words);
/* A call before a return address: the encodings agree in both widths. */
bool xu_x86_follows_call(const uint8_t *before, size_t n);

/* 64-bit guests. */
bool xu_x86_interrupt_frame(const uint64_t *words, uint64_t addr, uint64_t code_sel,
                            uint64_t *pc, uint64_t *sp);
int xu_x86_frameless_words(const uint8_t *code);
int xu_x86_frameless_depth(const uint8_t *code, size_t len, size_t upto);

/* 32-bit guests. */
bool xu_x86_32_interrupt_frame(const uint64_t *words, uint64_t addr, uint64_t code_sel,
                               uint64_t *pc, uint64_t *sp);
int xu_x86_32_frameless_words(const uint8_t *code);
int xu_x86_32_frameless_depth(const uint8_t *code, size_t len, size_t upto);
int xu_x86_32_framed_depth(const uint8_t *code, size_t len, size_t upto);

#endif
