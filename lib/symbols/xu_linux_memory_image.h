/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu_linux_memory_image.h - a running x86-64 Linux kernel's image read from
 * the guest's own memory, for a domain whose kernel file dom0 does not have:
 * a bootloader (pygrub) extracted it and deleted it, or an HVM guest's
 * firmware booted it from its disk.
 *
 * Where.  The kernel's image lies in [XU_KASLR_X86_WINDOW_LO, _HI) from a
 * 2 MiB-aligned _text.  The read starts at the lowest mapped 2 MiB block of
 * the run that holds the anchor (the vCPU's syscall entry, else its pc in
 * kernel mode, else the window's first mapped block) and goes up a page at a
 * time: a page not mapped (the text-to-rodata gap the kernel frees, its
 * freed init code) reads as zeroes, and the read stops after
 * XU_LINUX_MEM_IMAGE_GAP unmapped bytes in a row, at the window's end, or at
 * XU_LINUX_MEM_IMAGE_MAX bytes.
 *
 * What.  The kernel's kallsyms tables, found in those bytes as in a vmlinux's
 * .rodata (xu_kallsyms.h), name the ranges every reader of an image wants:
 * _text.._etext (.text), __start_rodata..__end_rodata (.rodata, with kallsyms
 * itself), __start_notes..__stop_notes (.notes: the build-id),
 * __start_BTF..__stop_BTF (.BTF), the ORC tables (.orc_unwind_ip,
 * .orc_unwind, and .orc_header from 6.4), and __init_begin..__init_end as
 * code without bytes (XU_ELF_FREED_CODE_SECTION, SHT_NOBITS: freed after
 * boot, but the ORC tables cover it and the boot CPU's idle task still has
 * frames there).  Those ranges are written as an ELF
 * into a memfd (xu_elf_synth.h) that the symbol search, the ORC and BTF
 * readers and the ELF check then take as they take a vmlinux.  kallsyms in
 * memory holds the addresses the kernel runs at (its relative base is
 * relocated with the kernel), so that file has no slide.  The code is as the
 * running kernel patched it (alternatives, static calls).
 *
 * The data symbols that name all but the text are in kallsyms only with
 * CONFIG_KALLSYMS_ALL (Debian's, Fedora's and Ubuntu's kernels have it);
 * without them the file has the text, its symbols and, as its .rodata,
 * everything read after the text: no ORC, BTF or build-id.
 * The guest is untrusted: a range that does not lie, whole and in order,
 * inside what was read is left out, and every size is bounded by the read.
 */
#ifndef XU_LINUX_MEMORY_IMAGE_H
#define XU_LINUX_MEMORY_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mem/xu_mem.h"

/* The most bytes read: Debian's 6.1 image, _text to _end, is 52 MiB. */
#define XU_LINUX_MEM_IMAGE_MAX (160ULL << 20)
/* Unmapped bytes in a row that end the read: the gaps the kernel frees
 * inside its image are under 2 MiB (they end at the next 2 MiB boundary). */
#define XU_LINUX_MEM_IMAGE_GAP (4ULL << 20)

struct xu_linux_memory_image {
    uint64_t start;             /* the first address read */
    uint64_t read, unmapped;    /* bytes read, of which not mapped (zeroes) */
    uint64_t text, etext;       /* _text, _etext */
    size_t symbols;             /* kallsyms' symbols */
    const char *layout;         /* static: kallsyms' layout */
    bool notes, btf, orc;       /* which optional sections the file has */
};

/*
 * Read through m, whose context the caller set to a vCPU that maps the
 * kernel; the guest may run meanwhile (the image's code and tables do not
 * change).  anchor: an address in the kernel's text, or 0.  0 with *fd and
 * *mem_path (malloc'd, /proc/self/fd/N) and *out filled; -ENOENT (nothing
 * mapped in the window), -ENODATA (no kallsyms tables, or no _text and
 * _etext inside the read among them), -ENOMEM, -errno of the memfd;
 * err says which in one line.
 */
int xu_linux_memory_image_read(struct xu_mem *m, uint64_t anchor, int *fd, char **mem_path,
                               struct xu_linux_memory_image *out, char *err, size_t err_size);

#endif
