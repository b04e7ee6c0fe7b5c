/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mkelf.h - write small ELF64 x86-64 files for tests, so no test needs a
 * binary fixture.
 *
 * The file is an ET_EXEC with:
 *   - the given code sections (PROGBITS, ALLOC|EXECINSTR unless exec is
 *     false, contents 0xcc but for the patches of mkelf_write_patched), in
 *     order, section indices 1..nsecs; one named ".note..." is an ALLOC
 *     SHT_NOTE section instead (patch its notes in);
 *   - .symtab + .strtab holding a STT_FILE symbol "mkelf.c", one STT_SECTION
 *     symbol per code section (so readers must skip them), then the given
 *     symbols, locals before globals as the ELF spec requires;
 *   - with MKELF_DYNSYM, the same symbols also in .dynsym + .dynstr;
 *   - with MKELF_STRIPPED, no .symtab/.strtab (use with MKELF_DYNSYM for a
 *     "dynsym only" file);
 *   - with MKELF_BUILD_ID, a .note.gnu.build-id holding mkelf_build_id.
 *
 * Example:
 *     static const struct mkelf_sym syms[] = {
 *         { "main", 0x401000, 0x20, STT_FUNC, STB_GLOBAL },
 *         { "_start", 0x401020, 0, STT_NOTYPE, STB_GLOBAL },
 *     };
 *     mkelf_write("t.elf", 0x401000, 0x1000, syms, 2, MKELF_BUILD_ID);
 */
#ifndef MKELF_H
#define MKELF_H

#include <elf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MKELF_STRIPPED  (1u << 0)
#define MKELF_BUILD_ID  (1u << 1)
#define MKELF_DYNSYM    (1u << 2)

/* Values of mkelf_sym.section besides 0..nsecs-1. */
#define MKELF_SEC_ABS   (-1)    /* SHN_ABS */
#define MKELF_SEC_UNDEF (-2)    /* SHN_UNDEF: an import */

struct mkelf_sym {
    const char *name;
    uint64_t addr, size;
    int type;                   /* STT_FUNC, STT_NOTYPE, STT_OBJECT, ... */
    int bind;                   /* STB_LOCAL, STB_GLOBAL, STB_WEAK */
    int section;                /* index into the sections given; 0 by default */
};

/* Bytes to place at addr in a section (the rest is int3), e.g. call
 * instructions before the return addresses a test's stacks hold. */
struct mkelf_patch {
    uint64_t addr;
    const uint8_t *bytes;
    size_t len;
};

struct mkelf_section {
    const char *name;           /* ".text", ".init.text", ".data", ... */
    uint64_t addr, size;
    bool noexec;                /* true: ALLOC|WRITE data instead of code */
};

#define MKELF_BUILD_ID_LEN 20
extern const uint8_t mkelf_build_id[MKELF_BUILD_ID_LEN];

/* One ".text" section at text_addr.  0 or -errno. */
int mkelf_write(const char *path, uint64_t text_addr, uint64_t text_size,
                const struct mkelf_sym *syms, size_t n, unsigned int flags);

/* Any number of sections (1..64).  0 or -errno. */
int mkelf_write_sections(const char *path, const struct mkelf_section *secs, size_t nsecs,
                         const struct mkelf_sym *syms, size_t n, unsigned int flags);

/* The same, with bytes placed in the sections (patches outside every
 * section are ignored). */
int mkelf_write_patched(const char *path, const struct mkelf_section *secs, size_t nsecs,
                        const struct mkelf_patch *patches, size_t npatches,
                        const struct mkelf_sym *syms, size_t n, unsigned int flags);

#endif
