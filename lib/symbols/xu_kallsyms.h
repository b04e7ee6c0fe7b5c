/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu_kallsyms.h - the Linux kernel's own symbol tables (kallsyms), found in
 * the bytes of its .rodata, for a vmlinux without .symtab.
 *
 * What the kernel's build (scripts/kallsyms) emits, in this order, each
 * table aligned:
 *
 *   kallsyms_offsets[N] + kallsyms_relative_base   (base-relative kernels)
 *     or kallsyms_addresses[N]                     (older absolute ones)
 *   kallsyms_num_syms                              N
 *   kallsyms_names      per symbol: a length (one byte; from 6.1 two when
 *                       its top bit is set, the second byte being bits
 *                       7-14), then that many token numbers
 *   kallsyms_markers    u32 offset into names of every 256th symbol
 *   kallsyms_seqs_of_names  3 bytes a symbol (6.2, and backported to 6.1)
 *   kallsyms_token_table    256 NUL-terminated strings
 *   kallsyms_token_index    256 u16 offsets of those strings
 *   (newer kernels put kallsyms_offsets and the base here instead)
 *
 * A name expands token by token; its first character is the symbol's type
 * letter as nm prints it (t, T, w, W for functions).  Symbols are sorted by
 * address.
 *
 * Found as vmlinux-to-elf finds them: the token table by its run of
 * single-digit tokens "0".."9" (digits occur in names, so they stand for
 * themselves), confirmed by the index that follows it; then the markers
 * that end right before it (or before the seqs), then kallsyms_num_syms and
 * names that lead exactly to those markers, then the addresses, accepted
 * only when they come out sorted.  Every step is bounded by the buffer and
 * by XU_KALLSYMS_MAX_SYMS; a table that does not check out is not used.
 */
#ifndef XU_KALLSYMS_H
#define XU_KALLSYMS_H

#include <stddef.h>
#include <stdint.h>

/* More symbols than any kernel has (a Debian 6.1 kernel has 94 Ki). */
#define XU_KALLSYMS_MAX_SYMS (1u << 21)
/* Longest name (KSYM_NAME_LEN is 512 from 6.1, 128 before). */
#define XU_KALLSYMS_NAME_MAX 512

struct xu_kallsyms_sym {
    uint64_t addr;
    uint32_t name;      /* offset of the name in pool */
    char type;          /* nm's letter */
};

struct xu_kallsyms {
    struct xu_kallsyms_sym *syms;   /* as the kernel lists them: by address */
    size_t n;
    char *pool;
    const char *layout;             /* static: which layout was read */
};

/*
 * Find and decode the tables in ro[0, len).  0 and *out filled, -ENODATA
 * when no consistent tables were found (err says how far it got), -ENOMEM.
 */
int xu_kallsyms_read(const uint8_t *ro, size_t len, struct xu_kallsyms *out, char *err,
                     size_t err_size);
void xu_kallsyms_dispose(struct xu_kallsyms *k);

/* Whether nm's type letter t is a function's (t, T, w, W). */
int xu_kallsyms_is_function(char t);

#endif
