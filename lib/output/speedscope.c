/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * output_speedscope.c - the "speedscope" format: speedscope's JSON file
 * format (https://www.speedscope.app/file-format-schema.json).
 *
 * One "sampled" profile for all vCPUs, or one per vCPU with per_vcpu;
 * frames are shared; a sample is its stack root first (an "[incomplete]"
 * root for a walk that did not complete, after a "[running]" one when
 * split by state) with its count as weight, or with --weight=cpu its CPU
 * time in nanoseconds (the profile's "unit"); samples the state view
 * leaves out are not written.
 *
 * With the ELF's DWARF, functions inlined into a frame are frames of their
 * own, named with "_[i]", and a frame has the "file" its function is in and
 * the "line" when all its samples agree on one; with --lines a function at
 * each line is a frame of its own, so every frame has its line.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "function_ids.h"

struct ss {
    const struct xu_output_ctx *ctx;
    struct xu_funcs fn;
    long incomplete;
    uint32_t *ids;              /* scratch: one stack's function ids */
    size_t ids_cap;
};

/* The outermost frame a stack shows: a profile bounds depth already. */
static uint32_t stack_from(const struct xu_stack *s)
{
    return (s->depth > XU_OUTPUT_MAX_FRAMES ? XU_OUTPUT_MAX_FRAMES : s->depth) - 1;
}

/* Function ids of every frame, computed before anything is written so the
 * shared frame table can come first. */
static int collect(struct ss *ss)
{
    size_t nr = xu_profile_nr_stacks(ss->ctx->profile), k;
    const uint32_t *ids;
    uint32_t i;

    ss->incomplete = xu_funcs_named(&ss->fn, XU_INCOMPLETE_FRAME);
    if (ss->incomplete < 0)
        return -ENOMEM;
    for (k = 0; k < nr; k++) {
        const struct xu_stack *s = xu_profile_stack(ss->ctx->profile, k);

        if (xu_output_state_frame(ss->ctx, s) &&
            xu_funcs_named(&ss->fn, xu_output_state_frame(ss->ctx, s)) < 0)
            return -ENOMEM;
        /* innermost first: frames are numbered in the order they are met */
        for (i = 0; i <= stack_from(s); i++)
            if (xu_funcs_frames(&ss->fn, s, i, &ids) < 0)
                return -ENOMEM;
    }
    return 0;
}

/* A sample's weight in this view: 0 when the state view leaves it out. */
static uint64_t ss_weight(const struct xu_output_ctx *ctx, const struct xu_stack *s)
{
    if (!xu_output_in_view(ctx, s))
        return 0;
    return ctx->opts && ctx->opts->weight == XU_WEIGHT_CPU ? s->cpu_ns : s->count;
}

/* Decimal without printf: a profile has millions of frame indices. */
static void put_u64(FILE *f, uint64_t v, char sep)
{
    char buf[24];
    size_t i = sizeof(buf);

    do {
        buf[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    if (sep)
        buf[--i] = sep;
    fwrite(buf + i, 1, sizeof(buf) - i, f);
}

static int write_profile(FILE *f, struct ss *ss, bool all, uint32_t vcpu, bool first)
{
    const struct xu_output_ctx *ctx = ss->ctx;
    size_t nr = xu_profile_nr_stacks(ctx->profile), k;
    uint64_t total = 0;
    bool sep = false;
    long i, n;
    char name[64];

    for (k = 0; k < nr; k++) {
        const struct xu_stack *s = xu_profile_stack(ctx->profile, k);

        if (all || s->vcpu == vcpu)
            total += ss_weight(ctx, s);
    }
    if (all)
        snprintf(name, sizeof(name), "all vCPUs");
    else
        snprintf(name, sizeof(name), "vCPU %" PRIu32, vcpu);
    fprintf(f, "%s\n{\"type\":\"sampled\",\"name\":\"%s\",\"unit\":\"%s\","
            "\"startValue\":0,\"endValue\":%" PRIu64 ",\"samples\":[",
            first ? "" : ",", name,
            ctx->opts && ctx->opts->weight == XU_WEIGHT_CPU ? "nanoseconds" : "none", total);
    for (k = 0; k < nr; k++) {
        const struct xu_stack *s = xu_profile_stack(ctx->profile, k);
        bool comma = false;

        const char *state_root = xu_output_state_frame(ctx, s);

        if (!(all || s->vcpu == vcpu) || ss_weight(ctx, s) == 0)
            continue;
        fputs(sep ? ",\n[" : "\n[", f);
        sep = true;
        if (state_root) {
            long id = xu_funcs_named(&ss->fn, state_root);     /* interned by collect() */

            if (id < 0)
                return -ENOMEM;
            put_u64(f, (uint64_t)id, 0);
            comma = true;
        }
        if (xu_stack_incomplete(s)) {
            put_u64(f, (uint64_t)ss->incomplete, comma ? ',' : 0);
            comma = true;
        }
        /* Already interned by collect(): this only reads the maps. */
        n = xu_funcs_stack(&ss->fn, s, stack_from(s), ss->ids, XU_OUTPUT_MAX_FRAMES);
        if (n < 0)
            return -ENOMEM;
        for (i = 0; i < n; i++) {
            put_u64(f, ss->ids[i], comma ? ',' : 0);
            comma = true;
        }
        putc(']', f);
    }
    fputs("],\n\"weights\":[", f);
    sep = false;
    for (k = 0; k < nr; k++) {
        const struct xu_stack *s = xu_profile_stack(ctx->profile, k);

        if (!(all || s->vcpu == vcpu) || ss_weight(ctx, s) == 0)
            continue;
        put_u64(f, ss_weight(ctx, s), sep ? ',' : 0);
        sep = true;
    }
    fputs("]}", f);
    return 0;
}

/* A frame: its name ("_[i]" when inlined, without the line --lines adds to
 * the function's label: speedscope has a field for it), file and line. */
static void put_frame(FILE *f, const struct xu_funcs *fn, uint32_t id, bool first)
{
    const struct xu_func_src *src = &fn->src[id];

    char *name = NULL;

    fputs(first ? "\n{\"name\":" : ",\n{\"name\":", f);
    if (fn->split_lines && src->line &&
        asprintf(&name, "%s%s", src->plain, src->inlined ? "_[i]" : "") < 0)
        name = NULL;
    xu_fput_json(f, name ? name : xu_funcs_name(fn, id));
    free(name);
    if (src->file) {
        fputs(",\"file\":", f);
        xu_fput_json(f, src->file);
    }
    if (src->line)
        fprintf(f, ",\"line\":%" PRIu32, src->line);
    putc('}', f);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

    return x < y ? -1 : x > y;
}

static int speedscope_write(FILE *f, const struct xu_output_ctx *ctx)
{
    struct ss ss = { .ctx = ctx };
    size_t nr = xu_profile_nr_stacks(ctx->profile), k, nv = 0, i;
    uint32_t *vcpus = NULL;
    bool per_vcpu = ctx->opts && ctx->opts->per_vcpu;
    char title[160];
    int rc;

    xu_funcs_init(&ss.fn, ctx);
    ss.ids = malloc(XU_OUTPUT_MAX_FRAMES * sizeof(*ss.ids));
    rc = ss.ids ? collect(&ss) : -ENOMEM;
    if (rc < 0)
        goto out;
    if (ctx->meta && ctx->meta->backend)
        snprintf(title, sizeof(title), "domain %" PRIu32 "%s%s%s", ctx->meta->domid,
                 ctx->meta->domain_name ? " (" : "",
                 ctx->meta->domain_name ? ctx->meta->domain_name : "",
                 ctx->meta->domain_name ? ")" : "");
    else
        snprintf(title, sizeof(title), "xen-uniprof profile");
    fputs("{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\n"
          "\"exporter\":\"xen-uniprof " PACKAGE_VERSION "\",\"name\":", f);
    xu_fput_json(f, title);
    fputs(",\"activeProfileIndex\":0,\n\"shared\":{\"frames\":[", f);
    for (i = 0; i < xu_funcs_count(&ss.fn); i++)
        put_frame(f, &ss.fn, (uint32_t)i, i == 0);
    fputs("]},\n\"profiles\":[", f);
    if (!per_vcpu) {
        rc = write_profile(f, &ss, true, 0, true);
    } else {
        /* The distinct vCPUs, in order: one sort of the stacks' vCPU ids. */
        vcpus = malloc((nr ? nr : 1) * sizeof(*vcpus));
        if (!vcpus) {
            rc = -ENOMEM;
            goto out;
        }
        for (k = 0; k < nr; k++)
            vcpus[k] = xu_profile_stack(ctx->profile, k)->vcpu;
        qsort(vcpus, nr, sizeof(*vcpus), cmp_u32);
        for (k = 0; k < nr; k++)
            if (k == 0 || vcpus[k] != vcpus[k - 1])
                vcpus[nv++] = vcpus[k];
        for (k = 0; k < nv && rc == 0; k++)
            rc = write_profile(f, &ss, false, vcpus[k], k == 0);
    }
    fputs("]}\n", f);
    if (rc == 0 && ferror(f))
        rc = -EIO;
out:
    if (rc < 0)
        xu_error(ctx->log, "speedscope: %s", strerror(-rc));
    free(vcpus);
    free(ss.ids);
    xu_funcs_dispose(&ss.fn);
    return rc;
}

const struct xu_output_ops xu_output_speedscope = {
    .name = "speedscope",
    .extensions = ".speedscope.json",
    .description = "speedscope's JSON file format (https://www.speedscope.app)",
    .write = speedscope_write,
};
