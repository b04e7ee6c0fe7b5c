/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu_symbols.h - function symbols of the guest's ELF, and resolving the
 * addresses of a profile once each.
 *
 * A symbol table is read with libelf from .symtab (and .dynsym), keeping
 * function (STT_FUNC) symbols and untyped text symbols (assembly labels such
 * as _start or hypercall_page), sorted by address with their sizes.  An
 * address is attributed to a symbol only when it lies inside it: past the
 * symbol's end it is not attributed, whatever comes next.  A symbol of size
 * 0 extends to the next symbol's start, within the same section.
 *
 * Resolution happens after sampling, never while the guest is paused: the
 * symboliser takes the sorted unique addresses of a profile and resolves
 * each of them exactly once.
 */
#ifndef XU_SYMBOLS_H
#define XU_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/xu_log.h"

struct xu_symtab;

struct xu_symbol {
    const char *name;
    uint64_t start;
    uint64_t size;
    bool function;      /* STT_FUNC (or IFUNC); false for an untyped label */
    bool thumb;         /* an ARM ELF's Thumb function: start is its value with
                         * bit 0 (the ABI's Thumb mark) cleared */
};

/*
 * Read the symbols of the ELF file at path, built for machine (the guest's
 * architecture as an ELF e_machine: EM_X86_64, EM_AARCH64; EM_NONE takes
 * any).  xu_symtab_open() expects EM_X86_64.
 * Errors: -ENOENT/-EACCES (cannot open), -ENOEXEC (not an ELF file, one for
 * another machine, big-endian, or damaged: truncated, section headers past
 * its end, a symbol table without its strings), -ENODATA (stripped: no
 * .symtab nor .dynsym with function symbols), -ENOMEM.  The logger says
 * which, and what is wrong with a damaged file.
 */
int xu_symtab_open(const char *path, struct xu_log *log, struct xu_symtab **out);
int xu_symtab_open_for(const char *path, unsigned int machine, struct xu_log *log,
                       struct xu_symtab **out);
/*
 * A file without such symbols is then read by the other symbol sources
 * (lib/symbols/sources.c): a Linux vmlinux's own kallsyms tables, whose
 * function symbols (t, T, w, W) are sized up to the next kernel symbol.
 * XU_SYMTAB_ELF_ONLY reads .symtab and .dynsym alone (the search for a
 * debug file prefers one with a real table before falling back).
 */
#define XU_SYMTAB_ELF_ONLY (1u << 0)
int xu_symtab_open_flags(const char *path, unsigned int machine, unsigned int flags,
                         struct xu_log *log, struct xu_symtab **out);
void xu_symtab_free(struct xu_symtab *st);
/* NULL for symbols from .symtab/.dynsym, else the source's name ("kallsyms"). */
const char *xu_symtab_origin(const struct xu_symtab *st);

/*
 * Move every symbol by slide bytes: a kernel relocated at boot runs at its
 * link-time addresses plus its slide (xu_kaslr.h), and the table then
 * answers in the addresses the guest runs at.  0, or -ERANGE (nothing
 * moved) when a symbol would wrap around the address space.
 */
int xu_symtab_relocate(struct xu_symtab *st, int64_t slide);

/*
 * A table of the given symbols (names copied; a symbol of size 0 is
 * dropped, for such a table says where each ends), for what is read from
 * a guest rather than from a file (its kernel modules: xu_linux_modules.h).
 * Its origin is "guest".  0, or -ENOMEM, -E2BIG.
 */
int xu_symtab_from_symbols(const struct xu_symbol *syms, size_t n, unsigned int machine,
                           struct xu_symtab **out);
/*
 * Make next (which st then owns, and frees; NULL: none) the table
 * xu_symtab_lookup() asks for an address st has no symbol for: a kernel's
 * modules after the kernel's own symbols, so that every reader of st
 * (symbolisers, the live view, stack) names module code.  Only the lookup
 * follows it; a table chained after xu_symtab_relocate() is not moved.
 */
void xu_symtab_chain(struct xu_symtab *st, struct xu_symtab *next);
/* addr is named by the table chained after st's own (a module's), not by st's. */
bool xu_symtab_in_chained(const struct xu_symtab *st, uint64_t addr);

size_t xu_symtab_count(const struct xu_symtab *st);
/* The symbol containing addr (in st, else in the table chained after it),
 * or NULL.  O(log n). */
const struct xu_symbol *xu_symtab_lookup(const struct xu_symtab *st, uint64_t addr);
/* The first function symbol (not a label) starting above addr, or NULL. */
const struct xu_symbol *xu_symtab_next_function(const struct xu_symtab *st, uint64_t addr);
/* The first symbol named name, or NULL.  O(n). */
const struct xu_symbol *xu_symtab_find(const struct xu_symtab *st, const char *name);
/* GNU build-id note of the file; *len 0 when it has none. */
const uint8_t *xu_symtab_build_id(const struct xu_symtab *st, size_t *len);
/* ELF machine (EM_X86_64, ...). */
unsigned int xu_symtab_machine(const struct xu_symtab *st);

/*
 * One function at a code address: the physical function the ELF symbol
 * names, or one inlined into it.  file is NULL and line 0 when unknown.
 */
struct xu_frame_line {
    const char *name;
    const char *file;
    uint32_t line;
    bool inlined;
};

/* Inlined functions kept at one address (the physical one included): a
 * deeper chain keeps its outermost XU_INLINE_MAX_DEPTH. */
#define XU_INLINE_MAX_DEPTH 32
/* Longest file or function name taken from DWARF; longer ones are dropped. */
#define XU_SRC_STR_MAX 1024

struct xu_symbolizer;

/* xu_symbolizer_new_flags(): names as the ELF spells them (--no-demangle). */
#define XU_SYMBOLIZER_RAW_NAMES (1u << 0)
/* xu_symbolizer_new_dwarf(): expand each address into the functions inlined
 * at it (without it, the physical function alone, with its line). */
#define XU_SYMBOLIZER_INLINE    (1u << 1)

/*
 * Resolve each of the n sorted, distinct addrs once against st (st may be
 * NULL: every address stays unresolved).  NULL with errno on failure.
 * Names are demangled (xu_demangle.h) once per distinct symbol, however
 * many addresses fall in it, unless flags has XU_SYMBOLIZER_RAW_NAMES;
 * xu_symbolizer_new() is xu_symbolizer_new_flags() with flags 0.
 */
struct xu_symbolizer *xu_symbolizer_new(const struct xu_symtab *st,
                                        const uint64_t *addrs, size_t n);
struct xu_symbolizer *xu_symbolizer_new_flags(const struct xu_symtab *st,
                                              const uint64_t *addrs, size_t n,
                                              unsigned int flags);
/*
 * The same, and the DWARF of the ELF at elf_path (when it has .debug_info and
 * the build has libdw): each address gets its source line and, with
 * XU_SYMBOLIZER_INLINE, the chain of functions inlined at it.  A file
 * without DWARF, or whose DWARF libdw cannot read, gives what
 * xu_symbolizer_new_flags() gives (a note on log when it is damaged).
 * elf_path NULL: no DWARF.
 */
struct xu_symbolizer *xu_symbolizer_new_dwarf(const struct xu_symtab *st,
                                              const uint64_t *addrs, size_t n,
                                              unsigned int flags, const char *elf_path,
                                              struct xu_log *log);
/*
 * A symboliser filled address by address, for a caller that has the
 * addresses as frames of stacks rather than as a sorted set: each
 * xu_symbolizer_add() is one probe of the table the lookups use (an
 * address met again costs nothing more), so no separate set of distinct
 * addresses, nor a sort of it, is built first.  Then one
 * xu_symbolizer_resolve() with what xu_symbolizer_new_dwarf() takes; the
 * answers are those xu_symbolizer_new_dwarf() gives for the same
 * addresses.  Lookups are for after it; after a failed one, only
 * xu_symbolizer_free().  The table is sized for expect distinct addresses
 * (an estimate, xu_distinct.h; 0 if none) and doubles when they are more,
 * at most 7/10 full.
 */
struct xu_symbolizer *xu_symbolizer_new_empty(size_t expect);
/* 0, -ENOMEM (the address not added), -EPERM once resolved. */
int xu_symbolizer_add(struct xu_symbolizer *sz, uint64_t addr);
/* 0, -ENOMEM, -EPERM when called twice or on one made by _new*(). */
int xu_symbolizer_resolve(struct xu_symbolizer *sz, const struct xu_symtab *st,
                          unsigned int flags, const char *elf_path, struct xu_log *log);
void xu_symbolizer_free(struct xu_symbolizer *sz);
/* Whether any address has a source line or an inlined function. */
bool xu_symbolizer_has_dwarf(const struct xu_symbolizer *sz);
/* Whether this build can read DWARF lines at all (libdw). */
bool xu_symbolizer_dwarf_supported(void);

/*
 * Name of the function containing addr, which must be one of the addresses
 * given to xu_symbolizer_new (others return NULL): demangled when it was
 * mangled (and not XU_SYMBOLIZER_RAW_NAMES), owned by sz.  Unresolved
 * addresses get their hex form ("0xffffffff8000102a"), so every frame has a
 * name.  *sym, when not NULL, receives the symbol (whose name is the raw,
 * mangled one: pprof's system name) or NULL when unresolved.
 */
const char *xu_symbolizer_name(const struct xu_symbolizer *sz, uint64_t addr,
                               const struct xu_symbol **sym);

/*
 * The functions at addr (one of the addresses given), outermost first: the
 * physical function (the name xu_symbolizer_name() gives, inlined false)
 * then each function inlined in the one before (inlined true), at most
 * XU_INLINE_MAX_DEPTH in all.  Each carries its source line: the call
 * line in the function it calls inline, and for the last one the line
 * table's line for addr.  *out points into sz.  Returns the count, >= 1,
 * or 0 for an address that was not given (*out NULL).  An unresolved
 * address is one entry named in hex, without a line.
 */
unsigned int xu_symbolizer_frames(const struct xu_symbolizer *sz, uint64_t addr,
                                  const struct xu_frame_line **out);

/*
 * A slot of addr in the symboliser's table of addresses, or -1 for one
 * that was not given (and for sz NULL): 0 <= index < xu_symbolizer_count(),
 * one index an address, not dense (the table is up to 7/10 full).  A writer that remembers something per address keeps it in an
 * array by this index, 4 bytes a slot, instead of a map of its own keyed
 * by address; one whose answer depends on the functions alone keeps it
 * per chain (below), which costs less.
 */
long xu_symbolizer_index(const struct xu_symbolizer *sz, uint64_t addr);
size_t xu_symbolizer_count(const struct xu_symbolizer *sz);
/* xu_symbolizer_frames() of the address at index k (0 for k out of range
 * or a slot without an address), and *sym its symbol (NULL: unresolved). */
unsigned int xu_symbolizer_frames_at(const struct xu_symbolizer *sz, size_t k,
                                     const struct xu_symbol **sym,
                                     const struct xu_frame_line **out);

/*
 * The chain of addr: what it resolves to (its symbol and functions), as a
 * number 0 <= chain < xu_symbolizer_nr_chains(), or -1 for an address not
 * given.  Addresses in one symbol without a source line or an inlined
 * function of their own share their symbol's chain (without DWARF, all
 * of them): a profile's distinct addresses can be millions where its
 * functions are thousands.  An unresolved address has a chain of its own.
 * Asking costs one probe of one table.
 */
long xu_symbolizer_chain(const struct xu_symbolizer *sz, uint64_t addr);
/*
 * Start bringing addr's slot into the cache, for a writer about to ask
 * for a whole stack's frames: asked one after another, each frame of a
 * stack that shares nothing waits for its own cache miss; prefetched
 * first, the misses overlap.  Only a hint: any address, sz NULL included.
 */
void xu_symbolizer_prefetch(const struct xu_symbolizer *sz, uint64_t addr);
size_t xu_symbolizer_nr_chains(const struct xu_symbolizer *sz);
/* The functions of chain c as xu_symbolizer_frames() gives them (0 for c
 * out of range), and *sym its symbol (NULL: unresolved). */
unsigned int xu_symbolizer_chain_frames(const struct xu_symbolizer *sz, size_t c,
                                        const struct xu_symbol **sym,
                                        const struct xu_frame_line **out);

#endif
