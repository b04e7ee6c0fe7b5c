/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu_walk.h - why a stack walk ended, as kept with every stack, and the
 * boundary frames a walk may insert.
 *
 * Unwinders produce it and profiles, readers and writers carry it, so it
 * lives below both: "the chain ended where it should" and "a frame looked
 * wrong" mean very different things for a profile's trustworthiness.
 *
 * What "complete" means, in two steps:
 *  1. While the guest is paused an unwinder can only see the chain end as
 *     the ABI marks it (a zero frame pointer or return address:
 *     XU_WALK_COMPLETE) or the CFI of the outermost function say that its
 *     return address is undefined (XU_WALK_CFI_ROOT).
 *  2. Afterwards, once per distinct stack, the ELF is asked to vouch for it
 *     (lib/symbols/xu_vouch.h): the outermost frame must be a root (in the
 *     entry code the ELF's entry point or Xen's entry notes point into, in
 *     a known thread-start function, or CFI-marked) and every return
 *     address must follow a call instruction in the ELF's text.
 *     Stacks that fail become XU_WALK_NOT_ROOT or XU_WALK_NOT_CALL; a
 *     vouched CFI root becomes XU_WALK_COMPLETE.
 * A profile read back from a file, with no ELF to ask, keeps step 1.
 */
#ifndef XU_WALK_H
#define XU_WALK_H

#include <stdbool.h>
#include <stdint.h>

#define XU_MAX_DEPTH_LIMIT 1024     /* hard upper bound for --max-depth */
#define XU_DEFAULT_MAX_DEPTH 128

enum xu_walk_end {
    XU_WALK_COMPLETE = 0,   /* reached the end of the chain at a root */
    XU_WALK_BAD_FRAME,      /* frame pointer not rising, misaligned, or off the stack */
    XU_WALK_UNMAPPED,       /* a stack read faulted */
    XU_WALK_DEPTH,          /* max_depth frames recorded, chain went on */
    XU_WALK_NO_PAGING,      /* vCPU not in a mode we walk: only the IP is known */
    XU_WALK_CFI_ROOT,       /* CFI marks the outermost return address undefined */
    XU_WALK_NOT_ROOT,       /* the chain ended in a function the ELF does not vouch for as a root */
    XU_WALK_NOT_CALL,       /* a return address follows no call: the frame pointer held data */
    XU_WALK__COUNT
};

const char *xu_walk_end_name(enum xu_walk_end end);

/* The one definition every writer, summary and statistic uses. */
static inline bool xu_walk_complete(enum xu_walk_end end)
{
    return end == XU_WALK_COMPLETE || end == XU_WALK_CFI_ROOT;
}

/*
 * A boundary frame an unwinder inserts where an event upcall or exception
 * interrupted the code below it: frames inner to it are the handler's,
 * the frame after it is the interrupted PC itself (exact, not a return
 * address), then that function's callers.  No code lives at this address
 * on any architecture we walk (it is neither canonical x86-64 nor a
 * 4-byte-aligned AArch64 instruction).
 */
#define XU_PC_UPCALL 0xfffffffffffffffdULL
#define XU_UPCALL_FRAME "[upcall]"

/*
 * The frame a sample that found its vCPU in user mode ends with (innermost)
 * when the profile names tasks: the user address is not kept, no symbols
 * of user space being read.  Not code, as XU_PC_UPCALL.
 */
#define XU_PC_USER 0xfffffffffffffffbULL
#define XU_USER_FRAME "[user]"

/*
 * The outermost frame of a sample that names its task: index i of the
 * recording's task table (xu_tasks.h).  Neither canonical x86-64 (with 4
 * or 5 levels: bit 63 set, bits 62-56 clear) nor a 4-byte-aligned AArch64
 * instruction (bit 1 set); XU_TASK_PC_MAX_INDEX bounds i.
 */
#define XU_PC_TASK_BASE 0x8000000000000002ULL
#define XU_TASK_PC_MAX_INDEX 0xffffffu
static inline uint64_t xu_pc_task(uint32_t i)
{
    return XU_PC_TASK_BASE | ((uint64_t)i << 4);
}
static inline bool xu_pc_is_task(uint64_t pc)
{
    return (pc & ~((uint64_t)XU_TASK_PC_MAX_INDEX << 4)) == XU_PC_TASK_BASE;
}
static inline uint32_t xu_pc_task_index(uint64_t pc)
{
    return (uint32_t)(pc >> 4) & XU_TASK_PC_MAX_INDEX;
}

/* A frame no code lives at, which no symbol names: a boundary, [user], a task. */
static inline bool xu_pc_is_pseudo(uint64_t pc)
{
    return pc == XU_PC_UPCALL || pc == XU_PC_USER || xu_pc_is_task(pc);
}

#endif
