/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu_walk.h - why a stack walk ended, as kept with every stack.
 *
 * Unwinders produce it and profiles, readers and writers carry it, so it
 * lives below both: "the chain ended where it should" and "a frame looked
 * wrong" mean very different things for a profile's trustworthiness.
 */
#ifndef XU_WALK_H
#define XU_WALK_H

#define XU_MAX_DEPTH_LIMIT 1024     /* hard upper bound for --max-depth */
#define XU_DEFAULT_MAX_DEPTH 128

enum xu_walk_end {
    XU_WALK_COMPLETE = 0,   /* reached the end of the chain (null frame) */
    XU_WALK_BAD_FRAME,      /* frame pointer not rising, misaligned, or off the stack */
    XU_WALK_UNMAPPED,       /* a stack read faulted */
    XU_WALK_DEPTH,          /* max_depth frames recorded, chain went on */
    XU_WALK_NO_PAGING,      /* vCPU not in a mode we walk: only the IP is known */
    XU_WALK__COUNT
};

const char *xu_walk_end_name(enum xu_walk_end end);

#endif
