/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu_flamegraph.h - the frames behind the svg format and `diff`.
 *
 * Stacks are merged by name from the root (vCPU and "[incomplete]" roots
 * first when they apply), as a folded file would be, so the same function
 * reached through the same callers is one frame however many addresses it
 * was sampled at.  A graph holds two sides: side 0 is what is drawn (the
 * profile, or AFTER of a diff); side 1, when given, is the baseline of a
 * differential graph (BEFORE), normalised by the totals and drawn as colour:
 * red grew, blue shrank.
 *
 * Memory is one word per frame of each distinct stack added, plus the
 * frames drawn (see flamegraph.c): no tree of every frame is built.
 */
#ifndef XU_FLAMEGRAPH_H
#define XU_FLAMEGRAPH_H

#include <stdio.h>

#include "output/xu_output.h"

struct xu_fg;

/* NULL with errno. */
struct xu_fg *xu_fg_new(void);
void xu_fg_free(struct xu_fg *fg);

/* Merge ctx's profile into side 0 or 1.  ctx->opts->per_vcpu adds "vcpuN"
 * roots.  0 or -errno. */
int xu_fg_add(struct xu_fg *fg, const struct xu_output_ctx *ctx, int side);

struct xu_fg_labels {
    const char *title;          /* NULL: "Flame Graph" / "Differential Flame Graph" */
    const char *subtitle;       /* NULL: none */
};

/*
 * Draw the tree as an interactive SVG (inline script and style only, so it
 * works opened from disk).  A differential graph when side 1 has samples.
 * 0 or -errno.
 */
int xu_fg_write_svg(FILE *f, const struct xu_fg *fg, const struct xu_output_options *opts,
                    const struct xu_fg_labels *labels, struct xu_log *log);

/* The default subtitle for a run: "domain 3 (web1), 1234 samples, 12.50 s at 99 Hz". */
void xu_fg_subtitle(char *buf, size_t size, const struct xu_output_ctx *ctx);

#endif
