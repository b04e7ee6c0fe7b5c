/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * elf_check.c - is the symbol ELF the kernel the guest runs, and where does
 * it run: the one check (and its words) before a recording samples or
 * `stack` walks, and the move of every table read from the image to a
 * kernel's slide (KASLR) once the check confirmed it.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "record/record_priv.h"
#include "symbols/xu_elf_code.h"
#include "symbols/xu_kaslr.h"
#include "symbols/xu_symbols.h"

/* What the check found of a kernel relocated at boot, in one line. */
static void say_slide(const char *path, const struct xu_elf_match *match, bool from_memory,
                      struct xu_log *log)
{
    if (!match->kaslr_anchors || (!match->slide_candidates && !match->slide_rejected))
        return;     /* not a kernel that moves, or a vCPU that says nothing (PV) */
    if (match->verdict == XU_ELF_MATCH && match->slide == 0 && from_memory)
        xu_info(log, "KASLR: %s was read at the addresses it runs at: no slide to apply "
                "(%s agrees)", path, xu_kaslr_source_name(match->slide_source));
    else if (match->verdict == XU_ELF_MATCH && match->slide != 0)
        xu_info(log, "KASLR: %s runs 0x%" PRIx64 " bytes %s its link-time addresses "
                "(slide from %s = 0x%" PRIx64 "), confirmed against guest memory (%s)", path,
                match->slide > 0 ? (uint64_t)match->slide : -(uint64_t)match->slide,
                match->slide > 0 ? "above" : "below",
                xu_kaslr_source_name(match->slide_source), match->slide_runtime,
                match->build_id_checked ? "build-id equal" : "its text agrees");
    else if (match->verdict == XU_ELF_MATCH)
        xu_info(log, "KASLR: %s runs at its link-time addresses (slide 0%s%s), confirmed "
                "against guest memory", path, match->slide_source != XU_KASLR_NONE ?
                " from " : "", match->slide_source != XU_KASLR_NONE ?
                xu_kaslr_source_name(match->slide_source) : "");
    else
        xu_info(log, "KASLR: no slide of %s confirmed: the vCPU pointed at %u (%u more "
                "where no slide can put it), none with the image's bytes there", path,
                match->slide_candidates, match->slide_rejected);
}

/*
 * Is the symbol ELF the kernel the guest runs?  A mismatch is loud, because
 * every symbol in the profile would be wrong.  provisional: the answer may
 * not be final yet (an HVM guest's firmware loads its kernel after the
 * domain starts; until then the ELF's addresses hold the firmware or
 * nothing), so anything but a match is only noted, for a second look once
 * sampling is over.  Returns whether that second look is due.
 */
bool xu_record_check_elf(const struct xu_elf_choice *elf, struct xu_target *t, struct xu_mem *m,
                         struct xu_pause *pause, bool provisional, int64_t *slide,
                         struct xu_log *log)
{
    const char *path = xu_elf_choice_name(elf);
    struct xu_elf_match match;

    *slide = 0;
    if (xu_elf_match_guest(elf->path, path, t, m, pause, log, &match) < 0)
        return provisional;
    if (provisional && match.verdict != XU_ELF_MATCH) {
        xu_info(log, "%s is not in domain %" PRIu32 "'s memory yet (%s: an HVM guest's "
                "firmware loads its kernel after it starts); checking again after sampling",
                path, t->domid, xu_elf_verdict_name(match.verdict));
        return true;
    }
    say_slide(path, &match, elf->source == XU_ELF_FROM_GUEST_MEMORY, log);
    if (match.verdict == XU_ELF_MATCH)
        *slide = match.slide;
    switch (match.verdict) {
    case XU_ELF_MISMATCH:
        xu_warn(log, "**************************************************************");
        xu_warn(log, "%s does NOT match the kernel running in domain %" PRIu32 "%s "
                "(%" PRIu64 " of %" PRIu64 " bytes equal, first difference at 0x%" PRIx64 "): "
                "the profile's function names will be wrong", path, t->domid,
                match.build_id_checked && !match.build_id_equal ? ", build-id differs" : "",
                match.equal_bytes, match.bytes, match.first_diff_va);
        xu_warn(log, "**************************************************************");
        break;
    case XU_ELF_MATCH:
        xu_debug(log, "%s matches the running kernel (%u chunks compared%s)", path,
                 match.chunks, match.build_id_checked ? ", build-id equal" : "");
        break;
    case XU_ELF_UNKNOWN:
        xu_info(log, "could not check that %s is the running kernel (its text is not mapped "
                "where the ELF says)", path);
        break;
    }
    return false;
}

/*
 * Move every table read from the image to where the kernel runs: symbols,
 * code and the unwinder's tables, before the unwinder's env is built from
 * them and before any sample is taken.  Only a slide the ELF check
 * confirmed gets here.
 */
int xu_record_relocate(struct xu_elf_choice *elf, struct xu_elf_code *code, void *unwind_table,
                       int64_t slide, struct xu_log *log)
{
    int rc = xu_symtab_relocate(elf->symtab, slide);

    if (rc == 0)
        rc = xu_elf_code_relocate(code, slide);
    if (rc == 0)
        rc = xu_record_relocate_unwind_table(unwind_table, slide);
    if (rc == -EOPNOTSUPP) {
        xu_warn(log, "the DWARF CFI of %s is not moved to the kernel's slide: its walks end at "
                "the leaf (--unwind=auto takes its ORC tables)", xu_elf_choice_name(elf));
        rc = 0;
    }
    if (rc < 0)
        xu_error(log, "cannot move %s's tables by its slide 0x%" PRIx64 ": %s",
                 xu_elf_choice_name(elf), (uint64_t)slide, strerror(-rc));
    return rc;
}
