/* SPDX-License-Identifier: GPL-2.0-only */
/* elf_section.c - a named section of an ELF file (see xu_elf_section.h). */
#include "config.h"

#include <string.h>

#include "symbols/xu_elf_section.h"

Elf_Scn *xu_elf_progbits_named(Elf *elf, const char *name, GElf_Shdr *sh)
{
    Elf_Scn *scn = NULL;
    size_t shstrndx;
    unsigned int guard = 0;

    if (elf_getshdrstrndx(elf, &shstrndx) != 0)
        return NULL;
    while ((scn = elf_nextscn(elf, scn)) && guard++ < 65536) {
        const char *n;

        if (!gelf_getshdr(scn, sh) || sh->sh_type != SHT_PROGBITS)
            continue;
        n = elf_strptr(elf, shstrndx, sh->sh_name);
        if (n && strcmp(n, name) == 0)
            return scn;
    }
    return NULL;
}
