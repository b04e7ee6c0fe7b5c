/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mkelf.c - write small ELF64 x86-64 test files with libelf (see mkelf.h).
 *
 * libelf lays the file out (offsets, alignment); we only describe sections
 * and their contents.  Every buffer handed to libelf must live until
 * elf_update(), so they are all owned by struct mk and freed at the end.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mkelf.h"

#define MAX_SECS 64
/* Larger code sections are NOBITS, so a test with a kernel-sized .text
 * does not write megabytes of padding; symbol readers do not care. */
#define MAX_PROGBITS (1u << 20)

const uint8_t mkelf_build_id[MKELF_BUILD_ID_LEN] = {
    0x8b, 0xad, 0xf0, 0x0d, 0x01, 0x23, 0x45, 0x67, 0x89, 0xab,
    0xcd, 0xef, 0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10,
};

struct strbuf {
    char *p;
    size_t len, cap;
};

struct mk {
    struct strbuf shstr, str, dynstr;
    Elf64_Sym *symtab, *dynsym;
    void *code[MAX_SECS];
    unsigned char note[16 + MKELF_BUILD_ID_LEN];
};

/* Offset of s in the string table, appended; (size_t)-1 on ENOMEM. */
static size_t str_add(struct strbuf *b, const char *s)
{
    size_t n = strlen(s) + 1, off;

    if (b->len + n > b->cap) {
        size_t cap = (b->cap + n) * 2;
        char *p = realloc(b->p, cap);

        if (!p)
            return (size_t)-1;
        b->p = p;
        b->cap = cap;
    }
    off = b->len;
    memcpy(b->p + off, s, n);
    b->len += n;
    return off;
}

static Elf_Scn *add_section(Elf *elf, struct strbuf *shstr, const char *name,
                            Elf64_Word type, Elf64_Xword flags, Elf64_Addr addr,
                            void *buf, size_t size, Elf_Type dtype, size_t align)
{
    Elf_Scn *scn = elf_newscn(elf);
    Elf64_Shdr *sh;
    Elf_Data *d;
    size_t name_off = str_add(shstr, name);

    if (!scn || name_off == (size_t)-1)
        return NULL;
    d = elf_newdata(scn);
    sh = elf64_getshdr(scn);
    if (!d || !sh)
        return NULL;
    d->d_buf = buf;
    d->d_size = size;
    d->d_type = dtype;
    d->d_align = align;
    d->d_version = EV_CURRENT;
    sh->sh_name = (Elf64_Word)name_off;
    sh->sh_type = type;
    sh->sh_flags = flags;
    sh->sh_addr = addr;
    sh->sh_addralign = align;
    if (type == SHT_NOBITS)
        sh->sh_size = size;
    return scn;
}

static Elf64_Section sym_shndx(const struct mkelf_sym *s, size_t nsecs)
{
    if (s->section == MKELF_SEC_ABS)
        return SHN_ABS;
    if (s->section < 0 || (size_t)s->section >= nsecs)
        return SHN_UNDEF;
    return (Elf64_Section)(s->section + 1);
}

/*
 * Fill a symbol table: head[] first, then the locals of syms, then the
 * others.  Returns the number of entries, *first_global the sh_info value.
 */
static size_t fill_syms(Elf64_Sym *out, struct strbuf *str, const Elf64_Sym *head,
                        size_t nhead, const struct mkelf_sym *syms, size_t n,
                        size_t nsecs, Elf64_Word *first_global)
{
    size_t k = 0, i;
    int pass;

    for (i = 0; i < nhead; i++)
        out[k++] = head[i];
    for (pass = 0; pass < 2; pass++) {
        if (pass == 1)
            *first_global = (Elf64_Word)k;
        for (i = 0; i < n; i++) {
            Elf64_Sym *e;
            size_t off;

            if ((syms[i].bind == STB_LOCAL) != (pass == 0))
                continue;
            off = str_add(str, syms[i].name);
            if (off == (size_t)-1)
                return 0;
            e = &out[k++];
            memset(e, 0, sizeof(*e));
            e->st_name = (Elf64_Word)off;
            e->st_value = syms[i].addr;
            e->st_size = syms[i].size;
            e->st_info = ELF64_ST_INFO(syms[i].bind, syms[i].type);
            e->st_shndx = sym_shndx(&syms[i], nsecs);
        }
    }
    return k;
}

int mkelf_write_sections(const char *path, const struct mkelf_section *secs, size_t nsecs,
                         const struct mkelf_sym *syms, size_t n, unsigned int flags)
{
    return mkelf_write_patched(path, secs, nsecs, NULL, 0, syms, n, flags);
}

int mkelf_write_patched(const char *path, const struct mkelf_section *secs, size_t nsecs,
                        const struct mkelf_patch *patches, size_t npatches,
                        const struct mkelf_sym *syms, size_t n, unsigned int flags)
{
    struct mk mk;
    Elf *elf = NULL;
    Elf64_Ehdr *eh;
    Elf_Scn *scn;
    Elf64_Shdr *sh;
    Elf64_Sym head[2 + MAX_SECS];
    Elf64_Word first_global = 0;
    size_t i, nhead = 0, count, shstrndx, name_off;
    int fd = -1, rc = -ENOMEM;

    memset(&mk, 0, sizeof(mk));
    if (nsecs == 0 || nsecs > MAX_SECS)
        return -EINVAL;
    if (elf_version(EV_CURRENT) == EV_NONE)
        return -ENOEXEC;
    fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return -errno;
    elf = elf_begin(fd, ELF_C_WRITE, NULL);
    if (!elf || !(eh = elf64_newehdr(elf)))
        goto out;
    eh->e_ident[EI_DATA] = ELFDATA2LSB;
    eh->e_type = ET_EXEC;
    eh->e_machine = EM_X86_64;
    eh->e_version = EV_CURRENT;
    eh->e_entry = secs[0].addr;
    if (str_add(&mk.shstr, "") == (size_t)-1 || str_add(&mk.str, "") == (size_t)-1 ||
        str_add(&mk.dynstr, "") == (size_t)-1)
        goto out;

    for (i = 0; i < nsecs; i++) {
        bool progbits = secs[i].size <= MAX_PROGBITS;
        Elf64_Xword sflags = secs[i].noexec ? SHF_ALLOC | SHF_WRITE : SHF_ALLOC | SHF_EXECINSTR;
        bool note = strncmp(secs[i].name, ".note", 5) == 0;

        if (progbits) {
            mk.code[i] = malloc(secs[i].size ? secs[i].size : 1);
            if (!mk.code[i])
                goto out;
            memset(mk.code[i], 0xcc, secs[i].size);     /* int3 */
            for (size_t k = 0; k < npatches; k++) {
                const struct mkelf_patch *pt = &patches[k];

                if (pt->addr >= secs[i].addr && pt->len <= secs[i].size &&
                    pt->addr - secs[i].addr <= secs[i].size - pt->len)
                    memcpy(mk.code[i] + (pt->addr - secs[i].addr), pt->bytes, pt->len);
            }
        }
        if (note)
            sflags = SHF_ALLOC;
        if (!add_section(elf, &mk.shstr, secs[i].name,
                         note ? SHT_NOTE : progbits ? SHT_PROGBITS : SHT_NOBITS,
                         sflags, secs[i].addr, mk.code[i], secs[i].size, ELF_T_BYTE,
                         note ? 4 : 16))
            goto out;
    }

    if (flags & MKELF_BUILD_ID) {
        static const uint32_t nhdr[3] = { 4, MKELF_BUILD_ID_LEN, NT_GNU_BUILD_ID };

        memcpy(mk.note, nhdr, sizeof(nhdr));
        memcpy(mk.note + 12, "GNU", 4);
        memcpy(mk.note + 16, mkelf_build_id, MKELF_BUILD_ID_LEN);
        if (!add_section(elf, &mk.shstr, ".note.gnu.build-id", SHT_NOTE, SHF_ALLOC, 0,
                         mk.note, sizeof(mk.note), ELF_T_BYTE, 4))
            goto out;
    }

    if (flags & MKELF_DYNSYM) {
        static const Elf64_Sym null_sym;
        size_t dynsym_ndx;

        mk.dynsym = calloc(n + 1, sizeof(Elf64_Sym));
        if (!mk.dynsym)
            goto out;
        count = fill_syms(mk.dynsym, &mk.dynstr, &null_sym, 1, syms, n, nsecs, &first_global);
        if (count != n + 1)
            goto out;
        scn = add_section(elf, &mk.shstr, ".dynsym", SHT_DYNSYM, SHF_ALLOC, 0, mk.dynsym,
                          count * sizeof(Elf64_Sym), ELF_T_SYM, 8);
        if (!scn)
            goto out;
        dynsym_ndx = elf_ndxscn(scn);
        sh = elf64_getshdr(scn);
        sh->sh_entsize = sizeof(Elf64_Sym);
        sh->sh_info = first_global;
        sh->sh_link = (Elf64_Word)(dynsym_ndx + 1);     /* .dynstr comes next */
        /* the string table is complete: fill_syms ran */
        if (!add_section(elf, &mk.shstr, ".dynstr", SHT_STRTAB, SHF_ALLOC, 0,
                         mk.dynstr.p, mk.dynstr.len, ELF_T_BYTE, 1))
            goto out;
    }

    if (!(flags & MKELF_STRIPPED)) {
        size_t symtab_ndx;
        size_t file_off = str_add(&mk.str, "mkelf.c");

        if (file_off == (size_t)-1)
            goto out;
        memset(head, 0, sizeof(head));
        nhead = 1;                                      /* the null symbol */
        head[nhead].st_name = (Elf64_Word)file_off;
        head[nhead].st_info = ELF64_ST_INFO(STB_LOCAL, STT_FILE);
        head[nhead].st_shndx = SHN_ABS;
        nhead++;
        for (i = 0; i < nsecs; i++, nhead++) {
            head[nhead].st_info = ELF64_ST_INFO(STB_LOCAL, STT_SECTION);
            head[nhead].st_value = secs[i].addr;
            head[nhead].st_shndx = (Elf64_Section)(i + 1);
        }
        mk.symtab = calloc(nhead + n, sizeof(Elf64_Sym));
        if (!mk.symtab)
            goto out;
        count = fill_syms(mk.symtab, &mk.str, head, nhead, syms, n, nsecs, &first_global);
        if (count != nhead + n)
            goto out;
        scn = add_section(elf, &mk.shstr, ".symtab", SHT_SYMTAB, 0, 0, mk.symtab,
                          count * sizeof(Elf64_Sym), ELF_T_SYM, 8);
        if (!scn)
            goto out;
        symtab_ndx = elf_ndxscn(scn);
        sh = elf64_getshdr(scn);
        sh->sh_entsize = sizeof(Elf64_Sym);
        sh->sh_info = first_global;
        sh->sh_link = (Elf64_Word)(symtab_ndx + 1);     /* .strtab comes next */
        if (!add_section(elf, &mk.shstr, ".strtab", SHT_STRTAB, 0, 0,
                         mk.str.p, mk.str.len, ELF_T_BYTE, 1))
            goto out;
    }

    /* .shstrtab last: its own name must be in it before its size is fixed */
    name_off = str_add(&mk.shstr, ".shstrtab");
    if (name_off == (size_t)-1)
        goto out;
    scn = elf_newscn(elf);
    if (!scn)
        goto out;
    {
        Elf_Data *d = elf_newdata(scn);

        sh = elf64_getshdr(scn);
        if (!d || !sh)
            goto out;
        d->d_buf = mk.shstr.p;
        d->d_size = mk.shstr.len;
        d->d_type = ELF_T_BYTE;
        d->d_align = 1;
        d->d_version = EV_CURRENT;
        sh->sh_name = (Elf64_Word)name_off;
        sh->sh_type = SHT_STRTAB;
        sh->sh_addralign = 1;
    }
    shstrndx = elf_ndxscn(scn);
    eh->e_shstrndx = (Elf64_Half)shstrndx;

    if (elf_update(elf, ELF_C_WRITE) < 0) {
        rc = -EIO;
        goto out;
    }
    rc = 0;

out:
    if (elf)
        elf_end(elf);
    if (fd >= 0 && close(fd) < 0 && rc == 0)
        rc = -errno;
    if (rc < 0)
        unlink(path);
    for (i = 0; i < MAX_SECS; i++)
        free(mk.code[i]);
    free(mk.symtab);
    free(mk.dynsym);
    free(mk.shstr.p);
    free(mk.str.p);
    free(mk.dynstr.p);
    return rc;
}

int mkelf_write(const char *path, uint64_t text_addr, uint64_t text_size,
                const struct mkelf_sym *syms, size_t n, unsigned int flags)
{
    const struct mkelf_section text = { ".text", text_addr, text_size, false };

    return mkelf_write_sections(path, &text, 1, syms, n, flags);
}
