/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * output_folded.c - one line per distinct stack: "root;...;leaf count".
 *
 * The format flamegraph.pl, speedscope and most profilers' tools read.
 * Frames are function names (xu_output_frame_name), root first; a walk that
 * did not complete gets XU_INCOMPLETE_FRAME as its root, and with per_vcpu
 * every line starts with "vcpu<N>"; split by state (--state=split), the
 * state's frame ("[running]") comes next.  The count is the view's weight
 * (xu_output_weight): samples, or with --weight=cpu whole microseconds of
 * CPU time (flamegraph.pl and most folded readers take integers only).
 * Distinct raw stacks often fold to the
 * same names (two return addresses in one function), so equal lines are
 * merged and their counts added; lines are sorted bytewise, making the
 * output a pure function of the profile.
 *
 * Each line is built once into one growing pool; sorting moves pointers.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "output/xu_output.h"

struct line {
    size_t off;                 /* into the pool, then ... */
    const char *text;           /* ... a pointer once the pool stops moving */
    uint64_t count;
};

struct pool {
    char *p;
    size_t len, cap;
};

static int pool_reserve(struct pool *pl, size_t n)
{
    size_t cap = pl->cap ? pl->cap : 64 * 1024;
    char *p;

    if (n <= pl->cap - pl->len)
        return 0;
    while (cap - pl->len < n) {
        if (cap > SIZE_MAX / 2)
            return -ENOMEM;
        cap *= 2;
    }
    p = realloc(pl->p, cap);
    if (!p)
        return -ENOMEM;
    pl->p = p;
    pl->cap = cap;
    return 0;
}

/* A frame name, made safe for the format: ';' separates frames and a
 * newline ends the line, so neither may appear inside a name. */
static int put_frame(struct pool *pl, const char *name, bool first)
{
    size_t n = strlen(name), i;
    int rc = pool_reserve(pl, n + 1);
    char *d;

    if (rc < 0)
        return rc;
    d = pl->p + pl->len;
    if (!first)
        *d++ = ';';
    /* almost every name is clean: copy it whole, then fix what needs it */
    memcpy(d, name, n);
    for (i = strcspn(name, ";\n\r"); i < n; i++) {
        if (d[i] == ';')
            d[i] = ':';
        else if (d[i] == '\n' || d[i] == '\r')
            d[i] = '?';
    }
    pl->len = (size_t)(d + n - pl->p);
    return 0;
}

static int build_line(struct pool *pl, const struct xu_output_ctx *ctx,
                      const struct xu_stack *s)
{
    char buf[19];
    bool first = true;
    uint32_t i;
    int rc = 0;

    if (ctx->opts && ctx->opts->per_vcpu) {
        snprintf(buf, sizeof(buf), "vcpu%" PRIu32, s->vcpu);
        rc = put_frame(pl, buf, first);
        first = false;
    }
    if (rc == 0 && xu_output_state_frame(ctx, s)) {
        rc = put_frame(pl, xu_output_state_frame(ctx, s), first);
        first = false;
    }
    if (rc == 0 && !xu_walk_complete(s->end)) {
        rc = put_frame(pl, XU_INCOMPLETE_FRAME, first);
        first = false;
    }
    for (i = s->depth; i-- > 0 && rc == 0; first = false)
        rc = put_frame(pl, xu_output_frame_name(ctx, s, i, buf), first);
    if (rc == 0)
        rc = pool_reserve(pl, 1);
    if (rc == 0)
        pl->p[pl->len++] = '\0';
    return rc;
}

static int line_cmp(const void *pa, const void *pb)
{
    const struct line *a = pa, *b = pb;

    return strcmp(a->text, b->text);
}

static int folded_write(FILE *f, const struct xu_output_ctx *ctx)
{
    size_t n = xu_profile_nr_stacks(ctx->profile), nl = 0, i, j;
    struct pool pl = { 0 };
    struct line *lines = NULL;
    int rc = 0;

    lines = calloc(n ? n : 1, sizeof(*lines));
    if (!lines) {
        rc = -ENOMEM;
        goto out;
    }
    for (i = 0; i < n; i++) {
        const struct xu_stack *s = xu_profile_stack(ctx->profile, i);

        uint64_t weight = xu_output_weight(ctx, s);

        if (weight == 0)
            continue;
        lines[nl].off = pl.len;
        lines[nl].count = weight;
        rc = build_line(&pl, ctx, s);
        if (rc < 0)
            goto out;
        nl++;
    }
    for (i = 0; i < nl; i++)
        lines[i].text = pl.p + lines[i].off;
    qsort(lines, nl, sizeof(*lines), line_cmp);

    for (i = 0; i < nl; i = j) {
        uint64_t count = 0;

        for (j = i; j < nl && strcmp(lines[j].text, lines[i].text) == 0; j++)
            count = lines[j].count > UINT64_MAX - count ? UINT64_MAX : count + lines[j].count;
        if (fprintf(f, "%s %" PRIu64 "\n", lines[i].text, count) < 0) {
            rc = -EIO;
            goto out;
        }
    }

out:
    free(lines);
    free(pl.p);
    return rc;
}

const struct xu_output_ops xu_output_folded = {
    .name = "folded",
    .extensions = ".folded .collapsed",
    .description = "one line per stack, \"root;...;leaf count\" (flamegraph.pl input)",
    .write = folded_write,
};
