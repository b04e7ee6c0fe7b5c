/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cfi_sections.h - the CFI sections libdw will read, so that the builder
 * checks exactly those bytes (cfi_sections.c).
 *
 * The builder scans every CIE and FDE before libdw runs any of them
 * (cfi_program_ok()).  That holds only if both read the same bytes and libdw
 * reaches no entry the scan did not see.  Two ways a hostile ELF could break
 * that are closed here: several sections of one name (libdw picks by its own
 * rules, not the builder's), and an .eh_frame_hdr search table whose entries
 * point between the FDEs.
 */
#ifndef CFI_SECTIONS_H
#define CFI_SECTIONS_H

#include <gelf.h>
#include <stddef.h>
#include <stdint.h>

#include "util/xu_log.h"

/*
 * The one section called name (".eh_frame" or ".debug_frame") that is not
 * SHT_NOBITS, with its ELF address, or NULL when there is none or it has no
 * bytes.  Also NULL, with a warning, when libdw could read other bytes than
 * these under that name: a second section of the name (or of its .zdebug_
 * form), a section in a group, or a type that holds no CFI.
 */
Elf_Data *cfi_section(Elf *elf, size_t shstrndx, const char *name, uint64_t *addr,
                      struct xu_log *log);

/*
 * Whether libdw may search .eh_frame (at eh_addr) through .eh_frame_hdr:
 * true when there is no search table libdw would use, or when every entry
 * of it names the start of an FDE the scan checked.  fde_offs: those FDEs'
 * offsets in .eh_frame, ascending.  False, with a warning, otherwise: an
 * entry elsewhere, or a table this file cannot decode.
 */
bool cfi_eh_frame_hdr_ok(Elf *elf, size_t shstrndx, uint64_t eh_addr, const uint64_t *fde_offs,
                         size_t n, struct xu_log *log);

#endif
