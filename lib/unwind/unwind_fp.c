/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * unwind_fp.c - frame-pointer unwinding for x86-64.
 *
 * With frame pointers every frame starts with "push %rbp; mov %rsp,%rbp",
 * so [fp] holds the caller's fp and [fp+8] the return address.  The chain
 * ends at a zero fp (entry code clears %rbp) or a zero return address.
 *
 * The stack is guest memory, hence hostile: each fp must be 8-aligned and
 * strictly above the previous one (stacks grow down, so callers' frames lie
 * higher) and not below the stack pointer.  Because fp rises on every step
 * and depth is capped, the walk ends even on a forged, cyclic chain.
 */
#include "config.h"

#include "unwind/xu_unwind.h"

/* A single frame larger than this is taken as corruption, not a stack. */
#define MAX_FRAME_BYTES (64ULL << 20)

void xu_unwind_fp(struct xu_mem *m, const struct xu_vcpu_regs *regs,
                  uint64_t *pcs, unsigned int max_depth,
                  struct xu_unwind_result *out)
{
    uint64_t fp = regs->fp, lower = regs->sp, next_fp, ret, frame[2];
    unsigned int depth = 0;
    enum xu_walk_end end;

    if (max_depth == 0) {
        out->depth = 0;
        out->end = XU_WALK_DEPTH;
        return;
    }
    pcs[depth++] = regs->ip;
    if (regs->paging != XU_PAGING_LONG4 && regs->paging != XU_PAGING_LONG5) {
        end = XU_WALK_NO_PAGING;
        goto out;
    }

    for (;;) {
        if (fp == 0) {
            end = XU_WALK_COMPLETE;
            break;
        }
        if ((fp & 7) || fp < lower || fp - lower > MAX_FRAME_BYTES || fp > UINT64_MAX - 16) {
            end = XU_WALK_BAD_FRAME;
            break;
        }
        /* Checked before reading: with max_depth 1 a sample touches no
         * guest memory at all (the cheapest sample, the hypercall floor). */
        if (depth == max_depth) {
            end = XU_WALK_DEPTH;
            break;
        }
        /* the saved fp and the return address in one read: one lookup */
        if (xu_mem_read(m, fp, frame, sizeof(frame)) < 0) {
            end = XU_WALK_UNMAPPED;
            break;
        }
        next_fp = frame[0];
        ret = frame[1];
        if (ret == 0) {
            end = XU_WALK_COMPLETE;
            break;
        }
        pcs[depth++] = ret;
        if (next_fp == 0) {
            end = XU_WALK_COMPLETE;
            break;
        }
        if (next_fp <= fp) {
            end = XU_WALK_BAD_FRAME;
            break;
        }
        lower = fp + 16;
        fp = next_fp;
    }
out:
    out->depth = depth;
    out->end = end;
}

static void fp_walk(void *ctx, struct xu_mem *m, const struct xu_vcpu_regs *regs,
                    uint64_t *pcs, unsigned int max_depth, struct xu_unwind_result *out)
{
    xu_unwind_fp(m, regs, pcs, max_depth, out);
}

const struct xu_unwinder_ops xu_unwind_fp_ops = {
    .name = "fp",
    .walk = fp_walk,
};
