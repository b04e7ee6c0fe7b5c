/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * output_svg.c - the "svg" format: an interactive flame graph, drawn by
 * flamegraph.c from the profile's frame tree.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "output/xu_flamegraph.h"

static int svg_write(FILE *f, const struct xu_output_ctx *ctx)
{
    struct xu_fg *fg = xu_fg_new();
    struct xu_fg_labels labels = { 0 };
    char subtitle[256];
    int rc;

    if (!fg) {
        rc = -errno;
        xu_error(ctx->log, "svg: %s", strerror(errno));
        goto out;
    }
    rc = xu_fg_add(fg, ctx, 0);
    if (rc < 0) {
        xu_error(ctx->log, "svg: %s", strerror(-rc));
        goto out;
    }
    xu_fg_subtitle(subtitle, sizeof(subtitle), ctx);
    labels.title = ctx->opts ? ctx->opts->title : NULL;
    labels.subtitle = ctx->opts && ctx->opts->subtitle ? ctx->opts->subtitle : subtitle;
    rc = xu_fg_write_svg(f, fg, ctx->opts, &labels, ctx->log);
out:
    xu_fg_free(fg);
    return rc;
}

const struct xu_output_ops xu_output_svg = {
    .name = "svg",
    .extensions = ".svg",
    .description = "interactive flame graph (zoom, search, tooltips), no Perl needed",
    .write = svg_write,
};
