/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fuzz_input.c - trace readers into every writer, and diff.
 *
 * Input: one control byte, then the file.  The control byte picks the
 * input format (auto, raw, folded), per-vCPU output, the SVG's orientation
 * and palette, a small stack cap so the "profile full" path runs too, and
 * whether a fixed ELF (main, work, leaf, idle at 0x1000..0x1100, as the
 * seeds use) symbolises, as `convert --elf` does.  The control byte is
 * full, so the view (--state, --weight) comes from the file's length: every
 * combination runs over any corpus of a few files.
 * The file is read as `convert` reads it; the profile is then written in
 * every format (output discarded), and drawn as a diff against the part of
 * the file before its first form feed (or against itself).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "fuzz.h"
#include "mkelf.h"
#include "input/xu_input.h"
#include "output/xu_flamegraph.h"
#include "output/xu_output.h"

/*
 * The raw writer writes a stack once per sample: a profile of many samples
 * is a big file by design (bounded by XU_OUTPUT_RAW_MAX_BYTES).  Past this
 * many samples the harness skips it to keep executions fast; the bound
 * itself is checked by a unit test.
 */
#define RAW_MAX_SAMPLES_HERE 20000

/* The ELF of --elf: built once, kept for the process. */
static const struct xu_symtab *elf_symbols(void)
{
    static const struct mkelf_sym syms[] = {
        { "main", 0x1000, 0x40, STT_FUNC, STB_GLOBAL, 0 },
        { "work", 0x1040, 0x40, STT_FUNC, STB_GLOBAL, 0 },
        { "leaf", 0x1080, 0x20, STT_FUNC, STB_LOCAL, 0 },
        { "idle", 0x10c0, 0, STT_NOTYPE, STB_GLOBAL, 0 },
    };
    static struct xu_symtab *st;
    static bool tried;
    char path[] = "/tmp/fuzz_input.XXXXXX";
    int fd;

    if (tried)
        return st;
    tried = true;
    fd = mkstemp(path);
    if (fd < 0)
        return NULL;
    close(fd);
    if (mkelf_write(path, 0x1000, 0x200, syms, 4, MKELF_BUILD_ID) == 0)
        xu_symtab_open_for(path, EM_NONE, xu_fuzz_log(), &st);
    unlink(path);
    return st;
}

static struct xu_input *read_input(const uint8_t *data, size_t size, enum xu_input_format fmt,
                                   size_t max_stacks, const struct xu_symtab *symtab)
{
    struct xu_input_options io = { .max_stacks = max_stacks, .symtab = symtab };
    struct xu_input *in = NULL;
    FILE *f;

    if (size == 0)
        return NULL;
    f = fmemopen((void *)(uintptr_t)data, size, "r");
    if (!f)
        return NULL;
    if (xu_input_read(f, fmt, &io, xu_fuzz_log(), &in) < 0)
        in = NULL;
    fclose(f);
    return in;
}

static void make_ctx(const struct xu_input *in, const struct xu_output_meta *meta,
                     const struct xu_output_options *oo, struct xu_output_ctx *ctx)
{
    memset(ctx, 0, sizeof(*ctx));
    ctx->profile = in->profile;
    ctx->meta = meta;
    ctx->opts = oo;
    ctx->log = xu_fuzz_log();
    ctx->names = in->has_names ? &in->names : NULL;
}

static void write_all(const struct xu_output_ctx *ctx)
{
    struct xu_profile_totals tot;
    size_t i;

    xu_profile_get_totals(ctx->profile, &tot);
    for (i = 0; xu_output_formats[i]; i++) {
        FILE *f;

        /* every block takes 5 bytes at least: past the bound by that
         * measure, the writer must refuse at once, so it still runs */
        if (xu_output_formats[i] == &xu_output_raw && tot.samples > RAW_MAX_SAMPLES_HERE &&
            tot.samples <= XU_OUTPUT_RAW_MAX_BYTES / 5)
            continue;
        f = xu_fuzz_sink();
        if (!f)
            return;
        xu_output_formats[i]->write(f, ctx);
        fclose(f);
    }
}

static void write_diff(const struct xu_output_ctx *before, const struct xu_output_ctx *after,
                       const struct xu_output_options *oo)
{
    struct xu_fg *fg = xu_fg_new();
    struct xu_fg_labels labels = { .subtitle = "fuzz" };
    FILE *f;

    if (!fg)
        return;
    if (xu_fg_add(fg, after, 0) == 0 && xu_fg_add(fg, before, 1) == 0 &&
        (f = xu_fuzz_sink())) {
        xu_fg_write_svg(f, fg, oo, &labels, xu_fuzz_log());
        fclose(f);
    }
    xu_fg_free(fg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const enum xu_input_format fmts[] = { XU_INPUT_AUTO, XU_INPUT_RAW, XU_INPUT_FOLDED };
    struct xu_output_meta meta = { .domid = 7, .guest_type = "pvh", .frequency_hz = 99 };
    struct xu_output_options oo = { 0 };
    struct xu_output_ctx ctx, bctx;
    struct xu_input *in, *before = NULL;
    const struct xu_symtab *symtab;
    struct xu_symbolizer *syms = NULL;
    const uint8_t *ff;
    uint8_t ctl;

    if (size < 1)
        return 0;
    ctl = data[0];
    data++;
    size--;
    oo.per_vcpu = ctl & 4;
    oo.inverted = ctl & 8;
    oo.palette = ctl & 16 ? XU_PALETTE_ORIGIN : XU_PALETTE_HASH;
    oo.min_width = ctl & 32 ? 0.0001 : 0;
    oo.states = (enum xu_state_view)(size & 3);
    oo.weight = size & 4 ? XU_WEIGHT_CPU : XU_WEIGHT_SAMPLES;
    symtab = ctl & 128 ? elf_symbols() : NULL;
    in = read_input(data, size, fmts[(ctl & 3) % 3], ctl & 64 ? 4 : 0, symtab);
    if (!in)
        return 0;
    make_ctx(in, &meta, &oo, &ctx);
    if (symtab && !in->has_names) {
        /* as convert --elf: each distinct address resolved once */
        uint64_t *addrs = NULL;
        long n = xu_profile_unique_addrs(in->profile, &addrs);

        if (n >= 0)
            syms = xu_symbolizer_new(symtab, addrs, (size_t)n);
        free(addrs);
        ctx.syms = syms;
        ctx.symtab = symtab;
    }
    write_all(&ctx);
    ff = memchr(data, '\f', size);
    if (ff)
        before = read_input(data, (size_t)(ff - data), fmts[(ctl & 3) % 3], 0, symtab);
    if (before) {
        make_ctx(before, &meta, &oo, &bctx);
        write_diff(&bctx, &ctx, &oo);
        xu_input_free(before);
    } else {
        write_diff(&ctx, &ctx, &oo);
    }
    xu_symbolizer_free(syms);
    xu_input_free(in);
    return 0;
}
