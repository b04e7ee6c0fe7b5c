/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu_elf_code.h - the guest's code as its ELF file holds it: the executable
 * ranges, their bytes and the entry point.
 *
 * The unwinder needs the ranges (an interrupted PC must lie in code) and
 * the vouching of finished stacks needs the bytes before each return
 * address (does a call instruction end there?).  Both come from the file,
 * never from guest memory, and both are read once, before sampling.  The
 * file is hostile input: at most XU_ELF_CODE_MAX_BYTES of code and
 * XU_UNWIND_MAX_RANGES ranges are kept (more is refused, not truncated
 * silently: the logger says so and the ranges kept are the first ones).
 */
#ifndef XU_ELF_CODE_H
#define XU_ELF_CODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "unwind/xu_unwind.h"
#include "util/xu_log.h"

#define XU_ELF_CODE_MAX_BYTES (256u << 20)

struct xu_elf_code;

/* -ENOENT/-EACCES, -ENOEXEC (not a 64-bit ELF), -ENODATA (no code), -ENOMEM. */
int xu_elf_code_open(const char *path, struct xu_log *log, struct xu_elf_code **out);
void xu_elf_code_free(struct xu_elf_code *c);

/* The executable ranges, sorted; *n of them. */
const struct xu_code_range *xu_elf_code_ranges(const struct xu_elf_code *c, unsigned int *n);
/* The n bytes that end at addr (exclusive), or NULL when they are not all
 * in one executable range with file contents. */
const uint8_t *xu_elf_code_before(const struct xu_elf_code *c, uint64_t addr, size_t n);
uint64_t xu_elf_code_entry(const struct xu_elf_code *c);

/*
 * Where the guest's code may start: the ELF's entry point and the entries
 * Xen's own notes name (XEN_ELFNOTE_ENTRY and PVH's
 * XEN_ELFNOTE_PHYS32_ENTRY, or ENTRY= in the legacy __xen_guest string),
 * which are what Xen jumps to.  Only those inside the code count: an entry
 * point of 0 is one when code lies at 0 (a unikernel linked there), and
 * nothing otherwise.  Fills out[] (room for XU_ELF_CODE_MAX_ENTRIES) and
 * returns how many.
 */
#define XU_ELF_CODE_MAX_ENTRIES 4
unsigned int xu_elf_code_entries(const struct xu_elf_code *c, uint64_t *out);
unsigned int xu_elf_code_machine(const struct xu_elf_code *c);

/*
 * ra follows a call that the kernel itself puts in its code at boot, where the file
 * holds other bytes: an x86 Linux image's alternatives (xu_linux_alternatives.h).
 */
bool xu_elf_code_patched_call(const struct xu_elf_code *c, uint64_t ra);

/*
 * Code the guest had and freed, whose bytes no image holds: an image read from a
 * running Linux kernel's memory (xu_linux_memory_image.h) names its init sections,
 * freed after boot, by an SHT_NOBITS executable section of this name.  Its only
 * frames left are those of the boot path that never returns (the boot CPU's idle
 * task below rest_init), so a return address there is taken on its walk's word, as
 * one in a kernel module's code.  At most XU_ELF_CODE_MAX_FREED such sections count.
 */
#define XU_ELF_FREED_CODE_SECTION ".xen-uniprof.freed-code"
#define XU_ELF_CODE_MAX_FREED 4
bool xu_elf_code_freed(const struct xu_elf_code *c, uint64_t addr);

/* Move the code by slide bytes, a kernel relocated at boot (xu_kaslr.h):
 * ranges, bytes and entries then answer in the addresses the guest runs
 * at.  0, or -ERANGE (nothing moved) when that would wrap. */
int xu_elf_code_relocate(struct xu_elf_code *c, int64_t slide);

#endif
