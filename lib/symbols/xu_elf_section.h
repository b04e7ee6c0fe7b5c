/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu_elf_section.h - a named section of an ELF file, the one bounded search the kernel
 * readers (kallsyms in .rodata, .BTF) share.
 */
#ifndef XU_ELF_SECTION_H
#define XU_ELF_SECTION_H

#include <gelf.h>
#include <libelf.h>

/*
 * The first SHT_PROGBITS section called name, its header in *sh; NULL when there is
 * none among the first 65,536 sections (a hostile file may claim more) or the file has
 * no section names.
 */
Elf_Scn *xu_elf_progbits_named(Elf *elf, const char *name, GElf_Shdr *sh);

#endif
