/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu_ehabi.h - unwinding AArch32 code with its ARM EHABI tables.
 *
 * ARM builds without frame pointers still carry, for C++ exceptions and
 * for -funwind-tables / -fasynchronous-unwind-tables (and Linux's
 * CONFIG_ARM_UNWIND), the Exception Handling ABI's tables:
 *   .ARM.exidx  8-byte entries sorted by function: a prel31 offset to the
 *               function's start, then EXIDX_CANTUNWIND (1), an inline
 *               compact entry (bit 31 set: personality 0 with three bytes
 *               of unwind instructions), or a prel31 offset to .ARM.extab;
 *   .ARM.extab  a compact-model word (bit 31 set: personality routine 0
 *               with three instruction bytes, 1 or 2 with a count of
 *               further words in bits 23:16 and two bytes first), or a
 *               prel31 offset to a generic personality routine followed
 *               by the word GCC's routines read the same instructions
 *               from (count of further words in bits 31:24, three bytes).
 * The instructions (EHABI section 10.3) move a virtual stack pointer and
 * pop registers from it: what a function's epilogue would undo.
 *
 * The tables are hostile input: every offset is checked to land inside its
 * section at load, entries are bounded (XU_EHABI_MAX_ENTRIES) and so are
 * the bytes of instructions an entry may have (3 + 4 * 255, copied out of
 * the table's copy of .ARM.extab when looked up).  An entry that cannot
 * be read, a compact model other than 0-2 or a refused one is kept as BAD,
 * so the walk ends there rather than guessing.
 *
 * The unwinder ("ehabi", xu_unwind_ehabi_ops, env->ehabi) starts from the
 * vCPU's r0-r15 (xu_vcpu_regs.r32), looks up the entry of each PC (pc - 1
 * for return addresses, which follow their call), runs its instructions
 * over the stack read through xu_mem, and goes on from the popped pc (or
 * lr).  It ends XU_WALK_CFI_ROOT at EXIDX_CANTUNWIND or "refuse to
 * unwind", the marks a table gives its outermost functions; BAD_FRAME at
 * a PC no entry covers, a BAD entry, or a stack pointer that does not rise
 * (once allowed, in the innermost frame, where a leaf's return address is
 * still in lr); UNMAPPED at a read that faults.  Only callee-saved
 * registers (r4-r11, sp) survive a call: an instruction that sets vsp from
 * r0-r3 or r12 in a caller's frame, or a caller that pops neither pc nor
 * lr, ends the walk.
 */
#ifndef XU_EHABI_H
#define XU_EHABI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "unwind/xu_unwind.h"
#include "util/xu_log.h"

#define XU_EHABI_MAX_ENTRIES (4u << 20)
/* A compact entry's instructions: 3 bytes, or 2 + 4 * 255 with a count. */
#define XU_EHABI_MAX_OPS (3u + 4u * 255u)

struct xu_ehabi_table;

enum xu_ehabi_kind {
    XU_EHABI_OPS = 0,           /* unwind instructions */
    XU_EHABI_CANTUNWIND,        /* EXIDX_CANTUNWIND: an outermost function */
    XU_EHABI_BAD,               /* an entry that cannot be read */
};

/* The entry covering pc: its function start, kind and instructions
 * (copied into ops, n of them, for XU_EHABI_OPS).  false when no entry
 * covers pc. */
bool xu_ehabi_find(const struct xu_ehabi_table *t, uint32_t pc, uint32_t *start,
                   enum xu_ehabi_kind *kind, uint8_t ops[XU_EHABI_MAX_OPS], size_t *n);

/*
 * The table from the two sections' bytes and the addresses they are loaded
 * at (extab may be absent: NULL, 0).  0, -ENOEXEC (no entries, a size not
 * a multiple of 8), -E2BIG (too many entries) or -ENOMEM.
 */
int xu_ehabi_from_sections(const uint8_t *exidx, size_t exidx_len, uint32_t exidx_addr,
                           const uint8_t *extab, size_t extab_len, uint32_t extab_addr,
                           struct xu_ehabi_table **out);

/* The table of an EM_ARM ELF file: its SHT_ARM_EXIDX section and
 * .ARM.extab.  0, -ENODATA (no .ARM.exidx), -ENOEXEC (not a 32-bit ARM
 * ELF, or as above), -E2BIG, -ENOMEM or -errno from opening it. */
int xu_ehabi_open(const char *path, struct xu_log *log, struct xu_ehabi_table **out);

void xu_ehabi_free(struct xu_ehabi_table *t);

struct xu_ehabi_stats {
    size_t entries, cantunwind, bad;
};
void xu_ehabi_get_stats(const struct xu_ehabi_table *t, struct xu_ehabi_stats *out);

/* The registers an unwind step reads and writes. */
struct xu_ehabi_regs {
    uint32_t r[16];
    uint16_t known;             /* bit n: r[n] holds the frame's value */
};

enum xu_ehabi_status {
    XU_EHABI_DONE = 0,          /* r[13] the caller's sp, r[15] its return address */
    XU_EHABI_REFUSED,           /* "refuse to unwind" */
    XU_EHABI_INVALID,           /* a spare or reserved instruction, an unknown register */
    XU_EHABI_FAULT,             /* a stack read failed */
};

/* A 4-byte little-endian guest word at addr: 0, or -1. */
typedef int (*xu_ehabi_read_word)(void *ctx, uint32_t addr, uint32_t *word);

/*
 * Run one entry's instructions over regs (vsp starts at r[13]): pops read
 * through read_word.  At the end r[13] is vsp and, unless r15 was popped,
 * r[15] is r[14] (which must be known).  At most n instructions run, each
 * at most 16 reads.
 */
enum xu_ehabi_status xu_ehabi_exec(const uint8_t *ops, size_t n, struct xu_ehabi_regs *regs,
                                   xu_ehabi_read_word read_word, void *ctx);

/*
 * The walk itself over any word reader (the unwinder passes xu_mem's;
 * the fuzz harness a buffer): from regs (r32 and which are known), pcs[0]
 * = r[15], then return addresses, at most max_depth; out as for an
 * unwinder.
 */
void xu_ehabi_walk(const struct xu_ehabi_table *t, const struct xu_ehabi_regs *regs,
                   xu_ehabi_read_word read_word, void *ctx, uint64_t *pcs,
                   unsigned int max_depth, struct xu_unwind_result *out);

extern const struct xu_unwinder_ops xu_unwind_ehabi_ops;   /* "ehabi", env->ehabi */

const char *xu_ehabi_strerror(int rc);

#endif
