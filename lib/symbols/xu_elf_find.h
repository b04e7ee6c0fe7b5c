/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu_elf_find.h - finding the ELF that holds the guest's symbols, and
 * checking that it is the kernel the guest actually runs.
 *
 * Search order, stopping at the first file with a symbol table (as
 * xu_symtab_open() judges it):
 *
 *   1. the start file itself: --elf when given, else the domain's kernel;
 *   2. its ".dbg" sibling (Unikraft writes app_xen-x86_64 and
 *      app_xen-x86_64.dbg side by side);
 *   3. <debug_root>/.build-id/xx/yyyy.debug named by the start file's GNU
 *      build-id note;
 *   4. its .gnu_debuglink name, looked for next to it, in a .debug/
 *      subdirectory, and under <debug_root>/<its directory>; a candidate
 *      whose CRC32 differs from the link's is skipped (it belongs to
 *      another build);
 *   5. the debuginfod servers of $DEBUGINFOD_URLS, asked for the debug
 *      file of the start file's build-id (xu_debuginfod.h); never when the
 *      variable is unset or empty;
 *   6. the start file's other symbol sources (symtab_source.h): a Linux
 *      vmlinux's own kallsyms tables.  Steps 1-5 take only a real symbol
 *      table, so a debug file wins over kallsyms wherever one is found.
 *
 * A Linux bzImage start file (xu_bzimage.h) is first replaced by the
 * vmlinux inside it, decompressed into an anonymous in-memory file (the
 * choice's mem_fd when it is chosen); a payload that cannot be read ends
 * the search with one line saying why.
 *
 * A compressed start file (xu_compressed.h) is first read decompressed
 * (gzip), then its uncompressed sibling (the name without ".gz", ".xz",
 * ...) becomes the start file; other formats without such a sibling get
 * one line naming the format.
 *
 * Without --elf and without a kernel file (the domain names none, or the file
 * is gone: a bootloader's copy), the search is not made: the record run reads
 * a Linux kernel's image from the guest's memory instead
 * (xu_linux_memory_image.h; XU_ELF_FROM_GUEST_MEMORY).
 *
 * --elf, when given, replaces the kernel as the start file: an explicit file
 * without symbols still gets its companions looked for, and the kernel path
 * from the domain is not consulted.  Every step that is tried is logged at
 * DEBUG; the choice comes back with a short reason the CLI prints.
 */
#ifndef XU_ELF_FIND_H
#define XU_ELF_FIND_H

#include <stdbool.h>
#include <stdint.h>

#include "util/xu_log.h"
#include "mem/xu_mem.h"
#include "symbols/xu_symbols.h"
#include "target/xu_pause.h"
#include "target/xu_target.h"

#define XU_DEBUG_ROOT "/usr/lib/debug"

enum xu_elf_source {
    XU_ELF_FROM_ARG = 0,        /* --elf itself */
    XU_ELF_FROM_KERNEL,         /* the kernel file itself */
    XU_ELF_FROM_DBG_SIBLING,    /* <start>.dbg */
    XU_ELF_FROM_BUILD_ID,       /* <debug_root>/.build-id/xx/yyyy.debug */
    XU_ELF_FROM_DEBUGLINK,      /* .gnu_debuglink */
    XU_ELF_FROM_DEBUGINFOD,     /* a debuginfod server, by build-id */
    XU_ELF_FROM_GUEST_MEMORY,   /* the running kernel's image (xu_linux_memory_image.h) */
};

struct xu_elf_find_config {
    const char *elf;            /* --elf, or NULL */
    const char *kernel;         /* the domain's kernel path, or NULL if unknown */
    const char *debug_root;     /* NULL: XU_DEBUG_ROOT (tests point it elsewhere) */
    unsigned int machine;       /* the guest's ELF e_machine; 0: EM_X86_64 */
    bool any_machine;           /* an ELF of any architecture (no guest to match) */
};

struct xu_elf_choice {
    char *path;                 /* malloc'd; what to open */
    char *shown;                /* malloc'd: what to tell the user, when not path */
    int mem_fd;                 /* >= 0: path is this decompressed in-memory file */
    enum xu_elf_source source;
    const char *reason;         /* static: "kernel has symbols", ".dbg sibling", ... */
    struct xu_symtab *symtab;   /* the chosen file's symbols, already read */
};

void xu_elf_choice_init(struct xu_elf_choice *c);
/* What messages call the chosen file: shown, else path. */
static inline const char *xu_elf_choice_name(const struct xu_elf_choice *c)
{
    return c->shown ? c->shown : c->path;
}
/* Frees path and symtab (detach symtab first to keep it: set it to NULL). */
void xu_elf_choice_dispose(struct xu_elf_choice *c);

/*
 * Find the symbol ELF.  0 and *out filled, or:
 *   -EINVAL  neither elf nor kernel given: the message says to pass --elf
 *   -ENOENT  the start file does not exist / cannot be read
 *   -ENODATA the start file has no symbols and no companion was found: the
 *            message names what was tried and says to pass --elf FILE
 *   -ENOMEM
 */
int xu_elf_find(const struct xu_elf_find_config *cfg, struct xu_log *log,
                struct xu_elf_choice *out);

/* ------------------------------------------------------------------------
 * Does the ELF match the running guest?
 *
 * The ELF's loaded bytes are compared with guest memory at the same
 * virtual addresses: its GNU build-id note when the note lies in a loaded
 * segment (decisive when readable), else up to XU_ELF_MATCH_CHUNKS chunks
 * of at most XU_ELF_MATCH_CHUNK_LEN bytes of executable sections: the entry
 * point and function starts spread over the text (found through the ELF's
 * symbols; evenly spaced raw chunks without them).  Chunks of one repeated
 * byte in the file (padding, a zeroed hypercall page Xen fills at boot) are
 * skipped, and so is text freed after boot (.init.*, .exit.*).
 *
 * Kernels patch some of their own text at boot (Linux's ftrace NOPs,
 * alternatives, static keys, IBT sealing), so a chunk "agrees" when at
 * least XU_ELF_MATCH_MIN_PERCENT of its bytes are equal, and the ELF
 * matches when at least three quarters of the chunks compared agree.
 * Another build puts other code at those addresses: its chunks fall far
 * below.  A separate debug file (text as SHT_NOBITS) can only be judged by
 * its build-id.  Addresses the guest does not map count as unreadable: a
 * kernel loaded elsewhere (KASLR) cannot be told apart from a wrong one,
 * and its symbols would not resolve anyway, so that is reported as unknown
 * with a message saying so.
 *
 * Measured in the lab (Xen 4.17 under QEMU): the PV test guest against its
 * own ELF, 4 chunks at function starts, 256 of 256 bytes equal; against
 * the same source built with -O2 instead of -O1, 84 of 320 bytes equal: a
 * mismatch.  (Comparing evenly spaced raw chunks instead judged that wrong
 * build a match: zero padding and a hypercall page dominated.)
 */
#define XU_ELF_MATCH_CHUNKS 16
#define XU_ELF_MATCH_CHUNK_LEN 64
#define XU_ELF_MATCH_MIN_PERCENT 75

enum xu_elf_verdict {
    XU_ELF_UNKNOWN = 0,         /* nothing comparable could be read */
    XU_ELF_MATCH,
    XU_ELF_MISMATCH,
};

const char *xu_elf_verdict_name(enum xu_elf_verdict v);

struct xu_elf_match {
    enum xu_elf_verdict verdict;
    bool build_id_checked;      /* the note was read from the guest */
    bool build_id_equal;
    unsigned int chunks;        /* chunks compared (readable in both) */
    unsigned int agreeing;      /* of those, chunks that agree */
    unsigned int unreadable;    /* chunks the guest does not map */
    uint64_t bytes, equal_bytes;
    uint64_t first_diff_va;     /* first differing address, 0 if none */
    /*
     * Where the file was compared (xu_elf_match_guest(): a kernel
     * relocated at boot, xu_kaslr.h): the guest's addresses are the
     * file's plus slide.  slide_source says which register gave it
     * (XU_KASLR_NONE: the file's own addresses), slide_runtime what that
     * register held; slide_candidates how many slides the vCPU pointed at
     * (0 when the image has no anchors or the vCPU holds none),
     * slide_rejected how many registers pointed nowhere a slide can put
     * the kernel.  slide is where the verdict was reached: only with a
     * match is it where the kernel runs.
     */
    int64_t slide;
    int slide_source;           /* enum xu_kaslr_source */
    uint64_t slide_runtime;
    unsigned int slide_candidates, slide_rejected;
    bool kaslr_anchors;         /* the image has symbols a slide is read against */
};

/*
 * Compare using m as it stands: the caller has selected an address space
 * that maps the kernel (xu_mem_set_context) and keeps it valid (the guest
 * paused, or a kernel mapped in every address space).  Reads at most
 * XU_ELF_MATCH_CHUNKS + 1 small ranges.  0, or -ENOENT/-ENOEXEC/-ENOMEM
 * for the file.  name: what messages call the file (NULL: path), for a file
 * opened under another name (a vmlinux decompressed in memory).
 */
int xu_elf_match_check(const char *path, const char *name, struct xu_mem *m,
                       struct xu_log *log, struct xu_elf_match *out);

/*
 * The same on a live target: takes a pause reference through pause (the
 * handle shared with the sampler and the guardian; NULL: a private one),
 * reads the registers of the first online vCPU (one in kernel mode when
 * there is one), compares, and gives the reference back on every path.
 * A kernel relocated at boot is compared at each slide its vCPU points
 * at (xu_kaslr.h) before its own addresses: the first match is the
 * verdict, with out->slide; without one, a mismatch at any of them is.  A domain its admin paused gets our own
 * reference on top, given back as well (xu_pause.h).  The wait is bounded
 * by the few reads above.
 */
int xu_elf_match_guest(const char *path, const char *name, struct xu_target *t,
                       struct xu_mem *m, struct xu_pause *pause, struct xu_log *log,
                       struct xu_elf_match *out);

#endif
