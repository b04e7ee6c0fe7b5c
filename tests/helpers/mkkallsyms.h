/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mkkallsyms.h - a Linux kernel's kallsyms tables, laid out as its build
 * lays them in .rodata, for tests and fuzz seeds (no kernel needed).
 *
 * Token table: token 0 is "__", token 1 is "sched", every other token i
 * the one character i, so names are compressed wherever those two occur.
 * Each table is 8-aligned, after `lead` bytes of filler (a multiple of 8).
 */
#ifndef MKKALLSYMS_H
#define MKKALLSYMS_H

#include <stddef.h>
#include <stdint.h>

#define MKKS_SEQS           (1u << 0)   /* kallsyms_seqs_of_names (6.2, Debian 6.1) */
#define MKKS_OFFSETS_AFTER  (1u << 1)   /* offsets after the token index (newer) */
#define MKKS_ABSOLUTE       (1u << 2)   /* kallsyms_addresses, not offsets */
#define MKKS_PERCPU         (1u << 3)   /* CONFIG_KALLSYMS_ABSOLUTE_PERCPU encoding */

struct mkks_sym {
    const char *name;
    uint64_t addr;      /* ascending */
    char type;          /* nm's letter */
};

/* Offsets of the tables in the blob, for tests that damage one. */
struct mkks_layout {
    size_t addrs, num_syms, names, markers, seqs, tokens, index;
};

/* The blob (malloc'd, *len bytes), or NULL.  lay may be NULL. */
uint8_t *mkkallsyms(const struct mkks_sym *syms, size_t n, unsigned int flags, size_t lead,
                    size_t *len, struct mkks_layout *lay);

/*
 * The same, no lead, for tables laid at guest address at whose own symbol syms[end]
 * (a kernel's __end_rodata) says where they end, rounded up to round (a power of
 * two; 1: exactly): its address is set, which the blob's size does not depend on.
 */
uint8_t *mkkallsyms_ending(struct mkks_sym *syms, size_t n, unsigned int flags, size_t end,
                           uint64_t at, uint64_t round, size_t *len);

#endif
