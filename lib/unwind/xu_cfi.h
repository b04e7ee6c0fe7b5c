/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu_cfi.h - unwinding without frame pointers: DWARF CFI compiled into a
 * compact table at start-up, searched once per frame while sampling.
 *
 * Only built with libdw (config.h defines HAVE_LIBDW); callers guard their
 * use with #ifdef HAVE_LIBDW.
 *
 * Building: xu_cfi_open() reads .eh_frame and .debug_frame of an ELF of a guest architecture
 * with libdw, walks every FDE row by row and keeps, per address range, the
 * little an unwinder that only knows ip, sp and fp can use:
 *   - the CFA: sp or fp plus an offset (anything else is "unknown");
 *   - the return address: at CFA + offset, undefined (outermost frame), or
 *     still in the link register on architectures that have one;
 *   - the caller's fp (x86-64 rbp): same value, at CFA + offset, or undefined;
 *   - the caller's sp: CFA + offset, or loaded from CFA + offset (the saved
 *     stack pointer of an interrupt-style frame);
 *   - whether the CIE marks it a signal frame (augmentation 'S').
 * Equal rules are shared: the table costs about 8 bytes per row.  The
 * ELF is hostile input: rows, distinct rules and libdw work are bounded
 * (xu_cfi_config), and hitting a bound is reported in the stats, never an
 * unbounded allocation.  FDEs outside the ELF's executable segments are
 * ignored (linkers leave discarded functions' FDEs at address 0).
 *
 * Unwinding (both ops take the table as ctx, never allocate, and read the
 * stack only through xu_mem):
 *   - xu_unwind_cfi_ops ("cfi"): CFI only.  The first frame uses the
 *     registers and looks up ip; later frames look up pc - 1 (a return
 *     address follows its call), except after a signal frame, whose caller's
 *     pc is exact.  The walk ends COMPLETE on an undefined return address, a
 *     zero return address, or an address without CFI while the tracked fp
 *     is 0 (entry code clears it: the psABI's end-of-chain mark); BAD_FRAME
 *     on any other address without usable CFI or when the stack pointer
 *     stops rising (a signal frame may switch stacks, a few times per walk);
 *     UNMAPPED when a read faults; DEPTH at max_depth.
 *   - xu_unwind_auto_ops ("auto"): CFI where the table has a rule for the
 *     address, one frame-pointer step ([fp] = caller's fp, [fp+8] = return
 *     address) elsewhere, frame by frame.  With ctx NULL or an empty table it
 *     is exactly the frame-pointer walk.
 *
 * What the CLI calls for --unwind=auto|fp|cfi, with the symbol ELF's path:
 *     struct xu_cfi_table *cfi = NULL;
 *     rc = xu_cfi_open(elf_path, NULL, log, &cfi);      // before sampling
 *     cfg.unwinder = &xu_unwind_cfi_ops;  (or &xu_unwind_auto_ops)
 *     cfg.unwinder_ctx = cfi;
 *     ... sample ...
 *     xu_cfi_free(cfi);                                 // after sampling
 * For auto, a failed open (no ELF, no CFI: -ENODATA) may fall back to
 * ctx NULL (frame pointers); for cfi it is an error.
 */
#ifndef XU_CFI_H
#define XU_CFI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/xu_log.h"
#include "unwind/xu_unwind.h"

#define XU_CFI_DEFAULT_MAX_ROWS (1u << 22)      /* 24 MiB of table at most */
#define XU_CFI_DEFAULT_WORK     (1ULL << 28)    /* CFI program bytes libdw may run */
#define XU_CFI_MAX_RULES        65535u          /* distinct rules (16-bit index) */

struct xu_cfi_table;

struct xu_cfi_config {
    size_t max_rows;        /* table entries; 0 = XU_CFI_DEFAULT_MAX_ROWS */
    uint64_t max_work;      /* bytes of CFI programs run; 0 = XU_CFI_DEFAULT_WORK */
    uint64_t bias;          /* added to ELF addresses (load bias); 0 for kernels */
};

/* How one address range unwinds; also the input of xu_cfi_from_rows(). */
enum xu_cfi_kind {
    XU_CFI_NONE = 0,        /* no CFI covers the address */
    XU_CFI_UNKNOWN,         /* CFI exists but uses rules we cannot follow */
    XU_CFI_RULE,            /* the fields below apply */
};
enum xu_cfi_reg { XU_CFI_REG_SP = 0, XU_CFI_REG_FP };
/* XU_CFI_RA_LINK: the return address has not left the link register (AArch64
 * x30: "same value" for the return-address column, in a leaf or before a
 * prologue stores it).  Only the innermost frame knows the link register
 * (xu_vcpu_regs.lr), so a walk that meets the rule deeper ends BAD_FRAME. */
enum xu_cfi_ra { XU_CFI_RA_AT_CFA = 0, XU_CFI_RA_UNDEFINED, XU_CFI_RA_LINK };
enum xu_cfi_fp { XU_CFI_FP_SAME = 0, XU_CFI_FP_AT_CFA, XU_CFI_FP_UNDEFINED };
enum xu_cfi_sp { XU_CFI_SP_CFA = 0, XU_CFI_SP_AT_CFA };

struct xu_cfi_row {
    uint64_t start, end;            /* [start, end) */
    enum xu_cfi_kind kind;
    enum xu_cfi_reg cfa_reg;
    int32_t cfa_off;                /* CFA = cfa_reg + cfa_off */
    enum xu_cfi_ra ra;
    int32_t ra_off;                 /* return address at CFA + ra_off */
    enum xu_cfi_fp fp;
    int32_t fp_off;                 /* caller's fp at CFA + fp_off */
    enum xu_cfi_sp sp;
    int32_t sp_off;                 /* caller's sp = CFA + sp_off, or at it */
    bool signal;                    /* signal/interrupt frame: caller's pc is exact */
};

struct xu_cfi_stats {
    size_t fdes;                    /* FDEs compiled */
    size_t fdes_ignored;            /* outside executable segments, bad encoding */
    size_t rows;                    /* table entries, gap entries included */
    size_t rules;                   /* distinct rules */
    size_t unknown_rows;            /* rows we cannot follow (complex CFI) */
    size_t bytes;                   /* memory held by the table */
    bool from_eh_frame, from_debug_frame;
    bool truncated;                 /* a bound or a parse error cut the CFI short */
    double build_seconds;
};

/*
 * Compile the CFI of the ELF at path (cfg may be NULL).
 * Errors: -ENOENT/-EACCES, -ENOEXEC (not an ET_EXEC/ET_DYN ELF of a known guest architecture),
 * -ENODATA (no usable CFI), -E2BIG (code spans 4 GiB or more), -ENOMEM.
 * A truncated table is a success; the logger warns and stats say so.  Why
 * there is no table is logged at debug level only: whether that is an error
 * is the caller's call (xu_cfi_strerror() says it in words).
 */
int xu_cfi_open(const char *path, const struct xu_cfi_config *cfg, struct xu_log *log,
                struct xu_cfi_table **out);
/* The same from an ELF image in memory (the image must outlive the call only). */
int xu_cfi_from_memory(const void *image, size_t size, const struct xu_cfi_config *cfg,
                       struct xu_log *log, struct xu_cfi_table **out);
/* A table from explicit rows (any order; overlaps: the lower start wins;
 * only cfg->max_rows is used).  For tests and benchmarks. */
int xu_cfi_from_rows(const struct xu_cfi_row *rows, size_t n, const struct xu_cfi_config *cfg,
                     struct xu_cfi_table **out);
void xu_cfi_free(struct xu_cfi_table *t);

/* Why xu_cfi_open() gave no table, for its error code. */
const char *xu_cfi_strerror(int rc);

void xu_cfi_get_stats(const struct xu_cfi_table *t, struct xu_cfi_stats *out);

/* The rule for addr, with the bounds of its table entry; kind NONE (and
 * start/end the gap around addr) where nothing covers it. */
void xu_cfi_lookup(const struct xu_cfi_table *t, uint64_t addr, struct xu_cfi_row *out);

extern const struct xu_unwinder_ops xu_unwind_cfi_ops;     /* "cfi", ctx: table */
extern const struct xu_unwinder_ops xu_unwind_auto_ops;    /* "auto", ctx: table or NULL */

#endif
