/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cfi_sections.c - the CFI sections libdw will read (see cfi_sections.h).
 *
 * libdw's choices, as elfutils makes them: dwarf_getcfi_elf() takes
 * .eh_frame and .eh_frame_hdr by name, any type but SHT_NOBITS, and when a
 * name repeats it may keep the first or the last; dwarf_begin_elf() takes the
 * first .debug_frame or .zdebug_frame outside a section group.  A linked
 * program has one of each, so anything else is refused rather than guessed.
 *
 * With .eh_frame_hdr, libdw finds the FDE for an address through the hdr's
 * sorted table and reads the FDE at the offset the table gives, wherever
 * that is.  It uses the table when the hdr's eh_frame_ptr is .eh_frame's
 * address and the table has entries of a fixed size.
 */
#include "config.h"

#include <dwarf.h>
#include <elf.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cfi_priv.h"
#include "cfi_sections.h"

#ifndef SHT_X86_64_UNWIND
#define SHT_X86_64_UNWIND 0x70000001
#endif

/* name itself, or its compressed .zdebug_ form (".debug_frame" only) */
static bool named(const char *have, const char *name)
{
    return strcmp(have, name) == 0 ||
           (strncmp(name, ".debug_", 7) == 0 && strncmp(have, ".z", 2) == 0 &&
            strcmp(have + 2, name + 1) == 0);
}

/* The only section named name (or its .zdebug_ form) that is not SHT_NOBITS;
 * NULL when there is none, *several set when there are more. */
static Elf_Scn *only_section(Elf *elf, size_t shstrndx, const char *name, bool *several)
{
    Elf_Scn *scn = NULL, *found = NULL;

    *several = false;
    while ((scn = elf_nextscn(elf, scn))) {
        GElf_Shdr sh;
        const char *have;

        if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS)
            continue;
        have = elf_strptr(elf, shstrndx, sh.sh_name);
        if (!have || !named(have, name))
            continue;
        if (found) {
            *several = true;
            return NULL;
        }
        found = scn;
    }
    return found;
}

Elf_Data *cfi_section(Elf *elf, size_t shstrndx, const char *name, uint64_t *addr,
                      struct xu_log *log)
{
    Elf_Scn *scn;
    GElf_Shdr sh;
    Elf_Data *d;
    const char *have;
    bool several;

    scn = only_section(elf, shstrndx, name, &several);
    if (several) {
        xu_warn(log, "CFI: the ELF has more than one %s section: not used", name);
        return NULL;
    }
    if (!scn || !gelf_getshdr(scn, &sh))
        return NULL;
    have = elf_strptr(elf, shstrndx, sh.sh_name);
    if (!have || strcmp(have, name) != 0) {
        xu_debug(log, "CFI: %s is compressed (%s): not read", name, have ? have : "?");
        return NULL;
    }
    /* LLVM types .eh_frame SHT_X86_64_UNWIND (the x86-64 psABI's type for
     * unwind tables); GNU as keeps SHT_PROGBITS.  Both are the same bytes. */
    if ((sh.sh_type != SHT_PROGBITS && sh.sh_type != SHT_X86_64_UNWIND) ||
        (sh.sh_flags & SHF_GROUP)) {
        xu_warn(log, "CFI: %s is of type %#x%s, which holds no CFI of a linked program: "
                "not used", name, (unsigned int)sh.sh_type,
                sh.sh_flags & SHF_GROUP ? " in a section group" : "");
        return NULL;
    }
    d = elf_getdata(scn, NULL);
    *addr = sh.sh_addr;
    return d && d->d_buf && d->d_size ? d : NULL;
}

static bool is_fde(const uint64_t *offs, size_t n, uint64_t off)
{
    size_t lo = 0, hi = n;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (offs[mid] == off)
            return true;
        if (offs[mid] < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    return false;
}

/* The size of one value of a fixed-size encoding, 0 for LEB128 and omit. */
static unsigned int value_size(uint8_t enc)
{
    switch (enc & 0x0f) {
    case DW_EH_PE_absptr:
    case DW_EH_PE_udata8:
    case DW_EH_PE_sdata8:
        return 8;
    case DW_EH_PE_udata2:
    case DW_EH_PE_sdata2:
        return 2;
    case DW_EH_PE_udata4:
    case DW_EH_PE_sdata4:
        return 4;
    default:
        return 0;
    }
}

bool cfi_eh_frame_hdr_ok(Elf *elf, size_t shstrndx, uint64_t eh_addr, const uint64_t *fde_offs,
                         size_t n, struct xu_log *log)
{
    const uint8_t *base, *p, *end;
    uint8_t ptr_enc, count_enc, table_enc;
    uint64_t hdr_addr, eh_frame_ptr, count, i, room;
    unsigned int w;
    Elf_Scn *scn;
    GElf_Shdr sh;
    Elf_Data *d;
    bool several;

    scn = only_section(elf, shstrndx, ".eh_frame_hdr", &several);
    if (several) {
        xu_warn(log, "CFI: the ELF has more than one .eh_frame_hdr section: .eh_frame not used");
        return false;
    }
    if (!scn || !gelf_getshdr(scn, &sh) || !(d = elf_rawdata(scn, NULL)) || !d->d_buf)
        return true;
    base = d->d_buf;
    end = base + d->d_size;
    hdr_addr = sh.sh_addr;
    /* What libdw refuses (its CFI handle is then NULL) or uses no table of. */
    if (d->d_size < 4 || base[0] != 1 || base[1] == DW_EH_PE_omit)
        return true;
    ptr_enc = base[1];
    count_enc = base[2];
    table_enc = base[3];
    p = base + 4;
    if (cfi_read_encoded(ptr_enc, true, &p, end, hdr_addr + 4, &hdr_addr, &eh_frame_ptr) < 0)
        goto undecodable;
    if (count_enc == DW_EH_PE_omit)
        return true;
    if (cfi_read_encoded(count_enc, true, &p, end, hdr_addr + (uint64_t)(p - base), &hdr_addr,
                         &count) < 0)
        goto undecodable;
    if (count == 0 || table_enc == DW_EH_PE_omit ||
        (table_enc & ~DW_EH_PE_signed) == DW_EH_PE_uleb128 || eh_frame_ptr != eh_addr)
        return true;
    /* Entries as libdw reads them: datarel from the hdr's address (its pcrel
     * base for the table is not the field's address, so none is accepted). */
    w = value_size(table_enc);
    if (w == 0 || ((table_enc & 0x70) != DW_EH_PE_absptr && (table_enc & 0x70) != DW_EH_PE_datarel))
        goto undecodable;
    room = (uint64_t)(end - p) / (2u * w);
    if (count > room)
        return true;        /* libdw refuses the whole .eh_frame */
    for (i = 0; i < count; i++) {
        uint64_t loc, fde;

        if (cfi_read_encoded(table_enc, true, &p, end, 0, &hdr_addr, &loc) < 0 ||
            cfi_read_encoded(table_enc, true, &p, end, 0, &hdr_addr, &fde) < 0)
            goto undecodable;
        if (!is_fde(fde_offs, n, fde - eh_addr)) {
            xu_warn(log, "CFI: .eh_frame_hdr entry %llu points at offset %#llx of .eh_frame, "
                    "where no FDE the scan checked starts: .eh_frame not used",
                    (unsigned long long)i, (unsigned long long)(fde - eh_addr));
            return false;
        }
    }
    return true;

undecodable:
    xu_warn(log, "CFI: .eh_frame_hdr has a search table in an encoding this build does not "
            "check (%#x, %#x, %#x): .eh_frame not used", ptr_enc, count_enc, table_enc);
    return false;
}
