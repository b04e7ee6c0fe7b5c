/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu_linux_modules.h - the kernel modules a Linux guest has loaded, read
 * from its own module list, so that a pc in a module's text is named
 * "module:function" (or "[module name]" where its symbols cannot be read)
 * rather than left as hex: vmlinux's kallsyms do not cover modules.
 *
 * Where things are comes from the image's BTF and kallsyms
 * (struct xu_linux_module_layout): the list head is the kernel's data
 * symbol `modules` (a list_head; Debian's kernels keep data symbols in
 * kallsyms), each struct module is on it by its member `list` and carries
 * its `name` (MODULE_NAME_LEN bytes), its text (6.1 to 6.3: core_layout
 * and init_layout, struct module_layout's base and text_size; from 6.4:
 * mem[MOD_TEXT] and mem[MOD_INIT_TEXT], struct module_memory's base and
 * size) and `kallsyms`, a struct mod_kallsyms: an array of Elf64_Sym
 * (symtab, num_symtab entries) whose names are in strtab.
 *
 * Everything read is the guest's, and read while it runs (a module may
 * come or go meanwhile): the walk stops after XU_MODULES_MAX modules (a
 * cycle ends there), at a pointer outside the kernel half or misaligned,
 * or at a read that faults; a name must end within XU_MODULE_NAME_LEN
 * bytes, a text lie in the kernel half within XU_MODULE_TEXT_MAX bytes and
 * overlap no other module's; a module's symbols are at most
 * XU_MODULE_MAX_SYMS, all of them XU_MODULES_MAX_SYMS, and all the bytes
 * read for symbols and names XU_MODULES_MAX_BYTES.  What is out of bounds
 * is skipped: a module without readable symbols is "[module name]" throughout.
 */
#ifndef XU_LINUX_MODULES_H
#define XU_LINUX_MODULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mem/xu_mem.h"
#include "symbols/xu_btf.h"
#include "symbols/xu_symbols.h"

#define XU_MODULES_MAX 1024
#define XU_MODULE_NAME_LEN 56               /* MODULE_NAME_LEN on 64-bit kernels */
#define XU_MODULE_TEXT_MAX (256ULL << 20)
#define XU_MODULE_MAX_SYMS 65536
#define XU_MODULES_MAX_SYMS (1u << 20)
#define XU_MODULES_MAX_BYTES (64u << 20)
#define XU_MODULE_SYM_NAME_MAX 128          /* longer names are cut there */
#define XU_MODULE_MAX_ORCS (1u << 18)       /* ORC entries of one module */

struct xu_linux_module_layout {
    uint64_t modules;                       /* the list head's address (slid) */
    uint32_t list_offset;                   /* struct module's list */
    uint32_t name_offset, name_size;
    /* the core text's and the init text's base (a pointer) and size (4 or
     * 8 bytes): core_layout/init_layout's, or mem[0]/mem[4]'s */
    uint32_t text_base[2], text_size[2], text_size_bytes;
    uint32_t kallsyms_offset;               /* struct module's kallsyms pointer */
    uint32_t ks_symtab, ks_num, ks_num_bytes, ks_strtab;  /* struct mod_kallsyms */
    const char *text_from;                  /* static: "core_layout", "mem[MOD_TEXT]" */
    /* x86's struct mod_arch_specific under CONFIG_UNWINDER_ORC, in struct module:
     * num_orcs (4 bytes), orc_unwind_ip and orc_unwind (pointers); has_orc false
     * without them */
    bool has_orc;
    uint32_t orc_num, orc_ip, orc_unwind;
};

/*
 * The layout from the kernel's BTF and kallsyms (the list head's link-time
 * address: add the kernel's slide).  0, or -ENOENT with err naming what
 * is missing.
 */
int xu_linux_module_layout(const struct xu_btf *b, const struct xu_kallsyms *k,
                           struct xu_linux_module_layout *out, char *err, size_t err_size);
struct xu_linux_modules_stats {
    unsigned int modules;                   /* in the table */
    unsigned int without_symbols;           /* of those, "[module name]" throughout */
    unsigned int skipped;                   /* on the list but not usable */
    size_t symbols;                         /* function symbols kept */
    unsigned int orc_modules;               /* modules whose ORC tables were chained */
    unsigned int orc_tables;                /* those tables (one a text range) */
    size_t orc_entries;                     /* their entries */
    const char *stopped;                    /* static: why the walk ended early, or NULL */
};

/*
 * Walk the list through m (whose context must reach the kernel's data)
 * and build a table of the modules' text: each function symbol named
 * "module:function", the text no symbol covers "[module name]" (machine: the
 * table's ELF machine).  0 and *out (NULL when no module was found), or
 * -ENOENT when the list head cannot be read, -ENOMEM.  st says what was
 * found.
 */
int xu_linux_modules_read(struct xu_mem *m, const struct xu_linux_module_layout *l,
                          unsigned int machine, struct xu_symtab **out,
                          struct xu_linux_modules_stats *st);

/*
 * The same walk for the modules' own ORC tables (layout->has_orc: struct
 * mod_arch_specific's num_orcs, orc_unwind_ip and orc_unwind), so that a walk
 * continues through module code: each module's entries that fall in one of its
 * text ranges become a table in the kernel's ORC layout, chained after kernel
 * (xu_orc_chain()).  At most XU_MODULE_MAX_ORCS entries a module, in the same
 * byte budget as the symbols; a module whose tables are unreadable or do not
 * decode gets none.  0 (st->orc_tables says how many), -ENOENT when the list
 * head cannot be read, -EINVAL, -ENOMEM.
 */
struct xu_orc_table;
int xu_linux_modules_read_orc(struct xu_mem *m, const struct xu_linux_module_layout *l,
                              struct xu_orc_table *kernel, struct xu_linux_modules_stats *st);

#endif
