/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu_orc.h - unwinding an x86-64 Linux kernel with its own ORC tables.
 *
 * Distro kernels are built without frame pointers and without .eh_frame:
 * objtool writes, for every instruction range of the kernel, how to find
 * the caller's stack pointer, rbp and return address (ORC, "oops rewind
 * capability").  The tables travel in the vmlinux:
 *   .orc_unwind_ip  s32 per entry, the entry's first address relative to
 *                   the s32 itself (sorted at build time since 5.6);
 *   .orc_unwind     6 bytes per entry: sp_offset s16, bp_offset s16, then
 *                   16 bits of flags whose layout changed twice;
 *   .orc_header     (6.4, and 6.3.10 on) 20 bytes naming that layout.
 *
 * The flags' layouts (bit 0 first):
 *   4.14-6.2  sp_reg:4 bp_reg:4 type:2 end:1         CALL 0, REGS 1, REGS_PARTIAL 2
 *   6.3       sp_reg:4 bp_reg:4 type:2 signal:1 end:1
 *   6.4-      sp_reg:4 bp_reg:4 type:3 signal:1      UNDEFINED 0, END_OF_STACK 1,
 *                                                    CALL 2, REGS 3, REGS_PARTIAL 4
 * With a header, its hash picks the layout (the two known ones; another is
 * refused); without one, the kernel's version string in the image does
 * ("Linux version X.Y", the linux_banner), else the entries themselves
 * (6.4's CALL entries have bit 9 set, the others' have none of 8-9; a set
 * bit 11 is 6.3's end).  Every entry is checked against the layout chosen:
 * reserved bits or unknown types refuse the table.  Also version-dependent:
 * from 5.12 an SP_INDIRECT entry means "caller's sp = [sp] + offset",
 * before it "[sp + offset]"; an unknown version takes the newer meaning.
 *
 * The reader normalises every entry to struct xu_orc_entry (the 6.4
 * types), keeps one entry per address (of duplicates, the kernel's choice:
 * the last, a real entry before a terminator) and merges runs of equal
 * entries.  The table is hostile input: sizes, counts (XU_ORC_MAX_ENTRIES)
 * and the span of addresses (under 4 GiB) are bounded; a lookup outside
 * the kernel's executable sections finds nothing.
 *
 * The unwinder ("orc", xu_unwind_orc_ops; env->orc) walks as the kernel's
 * own unwind_orc.c does:
 *   - caller's sp from SP, BP, SP_INDIRECT (the IRQ-stack switch),
 *     BP_INDIRECT, and R10, R13, DI, DX, which only a full pt_regs frame
 *     met earlier in the walk knows (the innermost vCPU registers give
 *     ip, sp and rbp only: an entry needing them ends the walk);
 *   - CALL: the return address below the caller's sp; REGS: a full
 *     pt_regs at the caller's sp, REGS_PARTIAL: the iret frame (rip, cs,
 *     rflags, rsp, ss) there.  A kernel-mode frame is an interrupt or an
 *     exception: XU_PC_UPCALL and the interrupted PC (exact) are appended
 *     and the walk goes on from its rsp, which may be another stack; a
 *     user-mode cs (RPL 3: Xen gives a PV kernel's own frames RPL 0, as
 *     Linux's user_mode() expects) ends the kernel chain: the syscall,
 *     exception or interrupt came from user space;
 *   - rbp from the caller's frame (PREV_SP), from rbp (BP), or kept, or
 *     from the last full pt_regs;
 *   - END_OF_STACK (ret_from_fork, startup_64, the CPUs' entry code) ends
 *     the chain at a root where the stack ends: its sp within
 *     XU_ORC_ROOT_SLACK below a task stack's top (the pt_regs every root
 *     leaves there) or the entry stack's (the return to user mode's last
 *     pops), and for the sampled PC itself no return address at sp (a
 *     thunk's caller's); or, for the sampled PC, still user mode's sp
 *     (syscall entry before its stack switch).  Elsewhere the mark is not
 *     a root (XU_WALK_NOT_ROOT): before 6.4 one hint made both the end of
 *     stack and "undefined here", and the indirect-branch thunks carry it
 *     in mid-stack.  A vCPU stopped in a thunk before its branch (the code
 *     at its PC, read from the guest) has its caller's return address at
 *     sp: the walk steps to it and goes on.  An UNDEFINED entry, or no
 *     entry, ends the walk as a bad frame.
 * A walk ends XU_WALK_CFI_ROOT at a root the tables mark (end of stack or
 * user-mode registers; vouched for afterwards like a CFI root) and when
 * the vCPU was in user mode (no kernel stack to walk).  Bounded: max_depth
 * frames, every stack read through xu_mem (a fault ends it UNMAPPED), the
 * stack pointer must rise by at most XU_ORC_MAX_FRAME a frame except where
 * the stack changes (an interrupt frame, SP_INDIRECT), at most
 * XU_ORC_MAX_SWITCHES times a walk.
 *
 * Modules' code has entries only in the tables chained after the kernel's
 * (xu_orc_chain(), read from guest memory by xu_linux_modules_read_orc()).
 */
#ifndef XU_ORC_H
#define XU_ORC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/xu_log.h"
#include "unwind/xu_unwind.h"

/* More entries than any kernel has (Debian's 6.1 has 384,849). */
#define XU_ORC_MAX_ENTRIES (1u << 23)
#define XU_ORC_ENTRY_SIZE 6
#define XU_ORC_HEADER_SIZE 20
#define XU_ORC_MAX_FRAME (64ULL << 10)      /* kernel stacks are 16 KiB */
#define XU_ORC_MAX_SWITCHES 4
/* A root's stack pointer lies this close below a task stack's top: a
 * struct pt_regs (168 bytes) is all that is left there at ret_from_fork and
 * the boot CPU's start; a secondary CPU starts from its idle task's fork
 * frame (pt_regs and a 56-byte inactive_task_frame: 224 bytes); FRED (6.9)
 * adds 16 bytes of padding above.  Task stacks are 16 KiB, aligned to their
 * size (32 KiB under KASAN: their top is a 16 KiB boundary too). */
#define XU_ORC_ROOT_SLACK 256
#define XU_ORC_STACK_ALIGN (16ULL << 10)
/* The way back to user mode leaves the task stack for the CPU's entry
 * (trampoline) stack, a page of the CPU entry area (the same half-TiB
 * slot with 4- and 5-level paging), where it pops the last registers. */
#define XU_ORC_CEA_START 0xfffffe0000000000ULL
#define XU_ORC_CEA_END 0xfffffe8000000000ULL
#define XU_ORC_ENTRY_STACK_ALIGN 4096ULL

/* The base registers of sp_reg and bp_reg, numbered as the kernel does. */
enum xu_orc_reg {
    XU_ORC_REG_UNDEFINED = 0,
    XU_ORC_REG_PREV_SP = 1,
    XU_ORC_REG_DX = 2,
    XU_ORC_REG_DI = 3,
    XU_ORC_REG_BP = 4,
    XU_ORC_REG_SP = 5,
    XU_ORC_REG_R10 = 6,
    XU_ORC_REG_R13 = 7,
    XU_ORC_REG_BP_INDIRECT = 8,
    XU_ORC_REG_SP_INDIRECT = 9,
};

/* Entry types, as 6.4 numbers them (older layouts are converted). */
enum xu_orc_type {
    XU_ORC_TYPE_UNDEFINED = 0,      /* no unwind information */
    XU_ORC_TYPE_END_OF_STACK = 1,   /* the outermost frame */
    XU_ORC_TYPE_CALL = 2,
    XU_ORC_TYPE_REGS = 3,           /* a full struct pt_regs at the caller's sp */
    XU_ORC_TYPE_REGS_PARTIAL = 4,   /* an iret frame at the caller's sp */
};

enum xu_orc_layout {
    XU_ORC_LAYOUT_4_14 = 0,         /* type:2 end:1 */
    XU_ORC_LAYOUT_6_3,              /* type:2 signal:1 end:1 */
    XU_ORC_LAYOUT_6_4,              /* type:3 signal:1 */
};

struct xu_orc_entry {
    int16_t sp_offset, bp_offset;
    uint8_t sp_reg, bp_reg;         /* enum xu_orc_reg */
    uint8_t type;                   /* enum xu_orc_type */
    uint8_t signal;                 /* 1: the caller's PC is exact (not a return address) */
};

/* How the layout was chosen. */
enum xu_orc_layout_source {
    XU_ORC_FROM_HEADER = 0,
    XU_ORC_FROM_VERSION,
    XU_ORC_FROM_ENTRIES,
    XU_ORC_FROM_CALLER,             /* xu_orc_from_sections() was told */
};

/* The raw tables, as a vmlinux holds them (for the reader's tests and the
 * fuzz harness; xu_orc_from_memory() finds them in an ELF). */
struct xu_orc_sections {
    const uint8_t *ip;              /* .orc_unwind_ip */
    size_t ip_len;
    uint64_t ip_addr;               /* its address: the base of each s32 */
    const uint8_t *orc;             /* .orc_unwind */
    size_t orc_len;
    const uint8_t *header;          /* .orc_header, or NULL */
    size_t header_len;
    uint64_t text_start, text_end;  /* the kernel's executable sections' span */
    unsigned int version;           /* major << 8 | minor; 0 unknown */
    bool layout_given;              /* use layout below, whatever else says */
    enum xu_orc_layout layout;
    /* leave out the entries outside [text_start, text_end] instead of refusing the
     * table (a module's, whose tables also cover the init text it freed) */
    bool drop_outside;
};

struct xu_orc_stats {
    size_t raw_entries;             /* entries in the file */
    size_t outside;                 /* of those, left out by drop_outside */
    size_t entries;                 /* kept: one per address, equal runs merged */
    enum xu_orc_layout layout;
    enum xu_orc_layout_source source;
    bool sp_indirect_before_5_12;   /* [sp + offset], not [sp] + offset */
    unsigned int version;           /* major << 8 | minor; 0 unknown */
    size_t bytes;                   /* memory held */
};

struct xu_orc_table;

/*
 * Read the tables.  0 and *out, or:
 *   -ENODATA  no .orc_unwind_ip / .orc_unwind (not a kernel with ORC), or with
 *             drop_outside no entry in the text
 *   -ENOEXEC  not an ELF64 x86-64 file (from_memory only)
 *   -EBADMSG  sizes that disagree, entries that do not fit the layout, a
 *             table that is not sorted, an address outside the text
 *   -ENOTSUP  an .orc_header naming a layout this build does not know
 *   -E2BIG    more than XU_ORC_MAX_ENTRIES, or addresses spanning 4 GiB
 *   -ENOMEM
 * err (may be NULL) gets one line why.
 */
int xu_orc_from_sections(const struct xu_orc_sections *s, struct xu_orc_table **out,
                         char *err, size_t err_size);
int xu_orc_from_memory(const void *image, size_t size, struct xu_orc_table **out,
                       char *err, size_t err_size);
/* The same from a file (a vmlinux, or the memfd a bzImage was decompressed
 * into), logging why at debug level; -errno for the file. */
int xu_orc_open(const char *path, struct xu_log *log, struct xu_orc_table **out);
void xu_orc_free(struct xu_orc_table *t);

/* What an error code of the readers means, in words. */
const char *xu_orc_strerror(int rc);
const char *xu_orc_layout_name(enum xu_orc_layout l);

void xu_orc_get_stats(const struct xu_orc_table *t, struct xu_orc_stats *out);

/* Move the table by slide bytes, a kernel relocated at boot (KASLR): its
 * lookups then take the addresses the guest runs at (the tables chained
 * after it are read at those already, and stay).  0, or -ERANGE
 * (nothing moved) when that would wrap. */
int xu_orc_relocate(struct xu_orc_table *t, int64_t slide);

/*
 * Put next (a module's table, its text apart from the kernel's) after t's last: t's
 * lookups then find next's entries too, and xu_orc_free(t) frees it.
 */
void xu_orc_chain(struct xu_orc_table *t, struct xu_orc_table *next);

/* The entry covering addr and where its range starts, in t or a table chained
 * after it; false where none does. */
bool xu_orc_lookup(const struct xu_orc_table *t, uint64_t addr, struct xu_orc_entry *out,
                   uint64_t *start);

/* Why an ORC walk ended, in more detail than enum xu_walk_end. */
enum xu_orc_stop {
    XU_ORC_STOP_END_OF_STACK = 0,   /* the tables mark the root */
    XU_ORC_STOP_END_MID_STACK,      /* ... but the stack goes on: not a root */
    XU_ORC_STOP_USER_REGS,          /* a syscall, exception or interrupt from user mode */
    XU_ORC_STOP_USER_MODE,          /* the vCPU was in user mode */
    XU_ORC_STOP_NO_ENTRY,           /* the PC has no entry (not code the tables cover) */
    XU_ORC_STOP_UNDEFINED,          /* the entry says the frame cannot be unwound */
    XU_ORC_STOP_NO_REGISTER,        /* it needs a register the walk does not know */
    XU_ORC_STOP_BAD_STACK,          /* the stack pointer did not rise, or jumped too far */
    XU_ORC_STOP_FAULT,              /* a stack read faulted */
    XU_ORC_STOP_DEPTH,
    XU_ORC_STOP_NO_PAGING,
    XU_ORC_STOP_NO_TABLE,
};

const char *xu_orc_stop_name(enum xu_orc_stop why);

/* The walk of xu_unwind_orc_ops, with why it ended (why may be NULL). */
void xu_orc_walk(const struct xu_orc_table *t, struct xu_mem *m,
                 const struct xu_vcpu_regs *regs, uint64_t *pcs, unsigned int max_depth,
                 struct xu_unwind_result *out, enum xu_orc_stop *why);

extern const struct xu_unwinder_ops xu_unwind_orc_ops;     /* "orc", env->orc */

#endif
