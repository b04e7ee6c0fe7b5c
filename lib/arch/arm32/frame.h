/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * frame.h - AArch32 frame records as GCC and clang lay them out, told apart
 * per function from its prologue (see frame.c); and what a return address
 * follows.
 */
#ifndef XU_ARM32_FRAME_H
#define XU_ARM32_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum xu_arm32_layout {
    XU_ARM32_FP_NONE = 0,       /* no frame record made (by the offset asked) */
    XU_ARM32_FP_RECORD,         /* fp -> {caller's fp, lr}: clang, ARM (r11) or Thumb (r7) */
    XU_ARM32_FP_GCC_ARM,        /* fp -> lr, caller's fp just below: GCC, ARM (r11) */
    XU_ARM32_FP_APCS,           /* fp -> saved pc; lr at fp-4, caller's fp at fp-12: -mapcs-frame */
    XU_ARM32_FP_THUMB_LOCALS,   /* r7 below the locals, {r7, lr} above them: GCC, Thumb-2 */
    XU_ARM32_FP_LEAF,           /* fp -> caller's fp, lr never saved: GCC's leaf (push {fp};
                                 * add fp, sp, #0), its return address still in lr */
};

/* Where a function keeps its frame record, relative to its frame pointer. */
struct xu_arm32_record {
    enum xu_arm32_layout layout;
    unsigned int fp_reg;        /* 11 (ARM) or 7 (Thumb-2) */
    int32_t fp_off, ra_off;     /* caller's fp at fp + fp_off, return address at fp + ra_off
                                 * (LEAF: ra_off 0, the return address in lr) */
};

/* Bytes of prologue read, and instructions looked at, at most. */
#define XU_ARM32_PROLOGUE_BYTES 64u

/*
 * The frame record the function whose code starts at code (len bytes of
 * it, Thumb-2 when thumb) has made by offset upto: 0 and *out, or -1 when
 * it has made none by then or its prologue is not one read here.
 */
int xu_arm32_prologue_record(const uint8_t *code, size_t len, size_t upto, bool thumb,
                             struct xu_arm32_record *out);

/*
 * One step up a chain: the record of a frame whose frame pointer is fp,
 * laid out as rec says, read through read_word (a 4-byte little-endian
 * word at a guest address; 0 or -1).  *next_fp the caller's frame
 * pointer, *ra the return address as stored (its Thumb bit kept).  0; -1
 * when the record is misplaced (fp not word-aligned, the record wrapping
 * round 4 GiB) or a read failed.
 */
/* (A LEAF record keeps no return address: -1.) */
int xu_arm32_frame_step(const struct xu_arm32_record *rec, uint32_t fp,
                        int (*read_word)(void *ctx, uint32_t addr, uint32_t *word), void *ctx,
                        uint32_t *next_fp, uint32_t *ra);

/* Do the n bytes before a return address end with a call (BL, BLX, in
 * either instruction set)? */
bool xu_arm32_follows_call(const uint8_t *before, size_t n);

const char *xu_arm32_layout_name(enum xu_arm32_layout layout);

#endif
