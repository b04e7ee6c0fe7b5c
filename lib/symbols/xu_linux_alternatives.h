/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu_linux_alternatives.h - where an x86 Linux kernel's alternatives put a call.
 *
 * The kernel rewrites some of its own code at boot from .altinstructions: the file's
 * "rep stosb; nop; nop; nop" in read_zero runs as "call clear_user_erms" on a CPU
 * that lacks a feature.  A return address after such a call follows no call in the
 * file's bytes, so the vouching of finished walks asks here too.
 *
 * The table is hostile input.  struct alt_instr has had three layouts, told apart by
 * which one every entry fits (each site in the image's code, each replacement in it):
 *   12 bytes  instr_offset, repl_offset (s32, each from its own field), u16 cpuid,
 *             u8 instrlen, u8 replacementlen                      (Debian's 6.1)
 *   13 bytes  the same and a u8 padlen                            (older kernels)
 *   14 bytes  a u32 ft_flags in place of the u16 cpuid            (newer kernels)
 * A table no layout fits gives none.
 */
#ifndef XU_LINUX_ALTERNATIVES_H
#define XU_LINUX_ALTERNATIVES_H

#include <libelf.h>
#include <stddef.h>
#include <stdint.h>

#include "symbols/xu_elf_code.h"

/* Bounds on a hostile table: 4 MiB of entries (Debian's 6.1 has 55 KiB). */
#define XU_LINUX_ALT_MAX_BYTES (4u << 20)

/*
 * The return addresses of the direct calls ("e8 rel32") some alternative puts at the
 * start of a site of elf's .altinstructions, sorted and each once, in a malloc'd *out
 * of *n (NULL and 0 with none: no table, a table no layout fits, or no such call).
 * code holds the image's executable sections (the replacements are among them).
 * 0, or -ENOMEM.
 */
int xu_linux_alt_call_returns(Elf *elf, const struct xu_elf_code *code, uint64_t **out,
                              size_t *n);

#endif
