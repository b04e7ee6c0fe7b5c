// SPDX-License-Identifier: GPL-2.0-only
/*
 * elf_synth.c - an ELF64 file of given sections, in a memfd (xu_elf_synth.h).
 *
 * Layout: the ELF header, each section's bytes aligned to 16 (none for
 * SHT_NOBITS), the section names, then the section headers (the null one,
 * the given ones, the name table's).
 */
#include "config.h"

#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/xu_compressed.h"
#include "symbols/xu_elf_synth.h"

#define NAME_MAX_LEN 31
#define ALIGN16(x) (((x) + 15u) & ~(uint64_t)15u)

static const char shstrtab_name[] = ".shstrtab";

/* The name table: "\0", each section's name, ".shstrtab"; offsets into *names_off. */
static size_t names_table(const struct xu_elf_synth_section *secs, size_t n, char *tab,
                          uint32_t *names_off)
{
    size_t len = 1, i;

    tab[0] = '\0';
    for (i = 0; i <= n; i++) {
        const char *name = i < n ? secs[i].name : shstrtab_name;
        size_t l = strlen(name) + 1;

        names_off[i] = (uint32_t)len;
        memcpy(tab + len, name, l);
        len += l;
    }
    return len;
}

static void header(Elf64_Ehdr *eh, uint16_t machine, uint64_t entry, uint64_t shoff,
                   size_t nsec)
{
    memset(eh, 0, sizeof(*eh));
    memcpy(eh->e_ident, ELFMAG, SELFMAG);
    eh->e_ident[EI_CLASS] = ELFCLASS64;
    eh->e_ident[EI_DATA] = ELFDATA2LSB;
    eh->e_ident[EI_VERSION] = EV_CURRENT;
    eh->e_type = ET_EXEC;
    eh->e_machine = machine;
    eh->e_version = EV_CURRENT;
    eh->e_entry = entry;
    eh->e_shoff = shoff;
    eh->e_ehsize = sizeof(Elf64_Ehdr);
    eh->e_shentsize = sizeof(Elf64_Shdr);
    eh->e_shnum = (uint16_t)(nsec + 2);
    eh->e_shstrndx = (uint16_t)(nsec + 1);
}

int xu_elf_synth_memfd(const struct xu_elf_synth_section *secs, size_t n, uint16_t machine,
                       uint64_t entry, int *fd, char **mem_path)
{
    char tab[(NAME_MAX_LEN + 1) * (XU_ELF_SYNTH_MAX_SECTIONS + 1) + 1];
    uint32_t names_off[XU_ELF_SYNTH_MAX_SECTIONS + 1];
    uint64_t off = sizeof(Elf64_Ehdr), data_off[XU_ELF_SYNTH_MAX_SECTIONS];
    uint64_t tab_off, shoff, total;
    Elf64_Shdr *sh;
    size_t i, tab_len;
    uint8_t *file;
    int rc;

    *fd = -1;
    *mem_path = NULL;
    if (n > XU_ELF_SYNTH_MAX_SECTIONS)
        return -EINVAL;
    for (i = 0; i < n; i++) {
        if (strlen(secs[i].name) > NAME_MAX_LEN || secs[i].size > XU_MAX_KERNEL_BYTES)
            return -EINVAL;
        data_off[i] = off = ALIGN16(off);
        if (secs[i].type != SHT_NOBITS)
            off += secs[i].size;
        if (off > XU_MAX_KERNEL_BYTES)
            return -EINVAL;
    }
    tab_len = names_table(secs, n, tab, names_off);
    tab_off = off;
    shoff = ALIGN16(tab_off + tab_len);
    total = shoff + (n + 2) * sizeof(Elf64_Shdr);
    file = calloc(1, total);
    if (!file)
        return -ENOMEM;
    header((Elf64_Ehdr *)file, machine, entry, shoff, n);
    sh = (Elf64_Shdr *)(file + shoff);
    for (i = 0; i < n; i++) {
        if (secs[i].type != SHT_NOBITS)
            memcpy(file + data_off[i], secs[i].data, secs[i].size);
        sh[i + 1] = (Elf64_Shdr){ .sh_name = names_off[i], .sh_type = secs[i].type,
                                  .sh_flags = secs[i].flags, .sh_addr = secs[i].addr,
                                  .sh_offset = data_off[i], .sh_size = secs[i].size,
                                  .sh_addralign = secs[i].type == SHT_NOTE ? 4 : 1 };
    }
    memcpy(file + tab_off, tab, tab_len);
    sh[n + 1] = (Elf64_Shdr){ .sh_name = names_off[n], .sh_type = SHT_STRTAB,
                              .sh_offset = tab_off, .sh_size = tab_len, .sh_addralign = 1 };
    rc = xu_memfd_from_bytes(file, total, fd, mem_path);
    free(file);
    return rc;
}
