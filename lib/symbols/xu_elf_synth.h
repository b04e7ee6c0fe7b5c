/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu_elf_synth.h - an ELF64 file made of given sections, in an anonymous
 * memory file (memfd, /proc/self/fd/N), for tables read from a guest rather
 * than from a file: every reader of a kernel's image (symbols, kallsyms,
 * ORC, BTF, code, the ELF check) then takes it as it takes a vmlinux.
 *
 * The file has section headers and a section-name table only: the readers
 * find what they need by section name and address, none by segment.
 */
#ifndef XU_ELF_SYNTH_H
#define XU_ELF_SYNTH_H

#include <stddef.h>
#include <stdint.h>

/* More sections than any caller writes: a bound on the headers' table. */
#define XU_ELF_SYNTH_MAX_SECTIONS 16

struct xu_elf_synth_section {
    const char *name;           /* ".text"; at most 31 characters */
    uint32_t type;              /* SHT_PROGBITS, SHT_NOTE, SHT_NOBITS (no data) */
    uint64_t flags;             /* SHF_ALLOC, SHF_EXECINSTR */
    uint64_t addr;              /* where the guest runs it */
    const void *data;           /* size bytes; NULL for SHT_NOBITS */
    uint64_t size;
};

/*
 * Write an ELF64 little-endian file of e_machine machine, entry point entry,
 * holding the n sections in that order, into a new memfd.  0 with *fd and
 * *mem_path (malloc'd) set, or -EINVAL (too many sections, a name too long,
 * a file over XU_MAX_KERNEL_BYTES), -ENOMEM, -errno of the memfd.
 */
int xu_elf_synth_memfd(const struct xu_elf_synth_section *secs, size_t n, uint16_t machine,
                       uint64_t entry, int *fd, char **mem_path);

#endif
