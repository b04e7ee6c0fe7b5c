/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * symtab_source.h - where function symbols come from when an ELF file has
 * no .symtab or .dynsym with any: one source per file (source_*.c), listed
 * once in sources.c, tried in that order by xu_symtab_open_for() until one
 * gives symbols.  Private to lib/symbols/.
 */
#ifndef XU_SYMTAB_SOURCE_H
#define XU_SYMTAB_SOURCE_H

#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdint.h>

#include "util/xu_log.h"

/* The table being built (symbols.c). */
struct xu_symtab_sink;

/*
 * Add one symbol: name is copied; a symbol outside every executable section
 * of the file is dropped (0).  Of symbols of one kind at one address, the
 * one added first names it.  size 0: up to the next symbol, within its
 * section.  0, or -ENOMEM, or -E2BIG past the table's limit.
 */
int xu_symtab_sink_add(struct xu_symtab_sink *sink, const char *name, uint64_t start,
                       uint64_t size, bool function);

struct xu_symtab_source {
    const char *name;           /* "kallsyms": named in messages */
    /*
     * Read elf's symbols into sink.  0 when it added some, -ENODATA when
     * the file has none of this kind (why in why), -ENOMEM.
     */
    int (*read)(Elf *elf, const char *path, struct xu_log *log, struct xu_symtab_sink *sink,
                char *why, size_t why_size);
};

/* NULL-terminated, in order of preference. */
extern const struct xu_symtab_source *const xu_symtab_sources[];

extern const struct xu_symtab_source xu_symtab_source_kallsyms;

#endif
