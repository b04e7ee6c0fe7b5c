/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ehabi_elf.c - the ARM EHABI sections of a 32-bit ARM ELF: the
 * SHT_ARM_EXIDX section (.ARM.exidx) and .ARM.extab, at the addresses they
 * are loaded at.  A relocatable object's prel31 words are not relocated
 * yet, so only executables and shared objects give a usable table; a
 * kernel's per-module tables are out of scope.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <string.h>
#include <unistd.h>

#include "unwind/xu_ehabi.h"

#ifndef SHT_ARM_EXIDX
#define SHT_ARM_EXIDX 0x70000001u
#endif
#define MAX_SECTIONS 65536u

struct found {
    Elf_Data *exidx, *extab;
    uint32_t exidx_addr, extab_addr;
};

static void look(Elf *elf, size_t shstrndx, struct found *f)
{
    Elf_Scn *scn = NULL;
    unsigned int count = 0;

    while ((scn = elf_nextscn(elf, scn)) && count++ < MAX_SECTIONS) {
        GElf_Shdr sh;
        const char *name;

        if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS)
            continue;
        name = elf_strptr(elf, shstrndx, sh.sh_name);
        if (sh.sh_type == SHT_ARM_EXIDX && !f->exidx) {
            f->exidx = elf_getdata(scn, NULL);
            f->exidx_addr = (uint32_t)sh.sh_addr;
        } else if (name && strcmp(name, ".ARM.extab") == 0 && !f->extab) {
            f->extab = elf_getdata(scn, NULL);
            f->extab_addr = (uint32_t)sh.sh_addr;
        }
    }
}

int xu_ehabi_open(const char *path, struct xu_log *log, struct xu_ehabi_table **out)
{
    struct found f = { 0 };
    Elf *elf = NULL;
    GElf_Ehdr eh;
    size_t shstrndx;
    int fd, rc;

    (void)log;
    *out = NULL;
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    elf_version(EV_CURRENT);
    elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
    if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh) ||
        eh.e_ident[EI_CLASS] != ELFCLASS32 || eh.e_machine != EM_ARM ||
        elf_getshdrstrndx(elf, &shstrndx) < 0) {
        rc = -ENOEXEC;
        goto out;
    }
    look(elf, shstrndx, &f);
    if (!f.exidx || !f.exidx->d_buf) {
        rc = -ENODATA;
        goto out;
    }
    rc = xu_ehabi_from_sections(f.exidx->d_buf, f.exidx->d_size, f.exidx_addr,
                                f.extab ? f.extab->d_buf : NULL, f.extab ? f.extab->d_size : 0,
                                f.extab_addr, out);
out:
    if (elf)
        elf_end(elf);
    close(fd);
    return rc;
}
