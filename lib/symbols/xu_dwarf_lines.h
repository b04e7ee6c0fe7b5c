/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu_dwarf_lines.h - what the DWARF of the guest's ELF says about one code
 * address: the functions inlined at it and the source lines (internal to
 * the symboliser, which calls it once per distinct address).
 *
 * An address inside code that the compiler inlined belongs to several
 * functions at once: the physical function the ELF symbol names, and the
 * chain of inlined subroutines down to the innermost one.  DWARF records
 * each inlined copy as a DW_TAG_inlined_subroutine scope whose name is that
 * of its abstract origin, and where it was called from (DW_AT_call_file,
 * DW_AT_call_line).  So the source line of each function of the chain is
 * the call line recorded in the scope inside it, and the innermost
 * function's line is the line table's line for the address, as addr2line
 * -i and perf show them.
 *
 * The ELF is hostile input: every libdw error ends the question with what
 * was found so far (at worst nothing, and the caller keeps the ELF symbol's
 * name); chains are capped at XU_INLINE_MAX_DEPTH and strings at
 * XU_SRC_STR_MAX bytes.  Built without libdw, xu_dwarf_lines_open() says
 * -ENOSYS and nothing else is ever called.
 */
#ifndef XU_DWARF_LINES_H
#define XU_DWARF_LINES_H

#include <stdbool.h>
#include <stdint.h>

#include "symbols/xu_symbols.h"
#include "util/xu_log.h"

struct xu_dwarf_lines;

/*
 * Open the DWARF of the ELF at path.  0; -ENOSYS (built without libdw),
 * -ENODATA (no .debug_info, or none libdw can read), -ENOENT/-EACCES,
 * -ENOMEM.
 */
int xu_dwarf_lines_open(const char *path, struct xu_log *log, struct xu_dwarf_lines **out);
void xu_dwarf_lines_free(struct xu_dwarf_lines *dl);

/*
 * The functions at addr, outermost (the physical function) first and the
 * innermost inlined one last, into out[0..max): each with its name (NULL
 * for the physical function, which the caller names from the ELF symbol),
 * its file (NULL when unknown), line (0 when unknown) and whether it was
 * inlined.  Without with_inline only the physical function is given, with
 * the line table's line.  Strings stay valid until xu_dwarf_lines_free()
 * and are at most XU_SRC_STR_MAX bytes long (longer ones are left out).
 * Returns how many entries were written: 0 when the DWARF does not cover
 * addr.  An inlined function's name is its linkage name when it has one
 * (mangled: the caller demangles), else its DW_AT_name.
 */
unsigned int xu_dwarf_lines_at(struct xu_dwarf_lines *dl, uint64_t addr, bool with_inline,
                               struct xu_frame_line *out, unsigned int max);

#endif
