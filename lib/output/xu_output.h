/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu_output.h - writing a finished profile in one of several formats.
 *
 * Each format is a struct xu_output_ops; the CLI picks one by name or by the
 * output file's extension and never looks inside.  Writers see the profile
 * (raw PCs), a symboliser (names resolved once per address; may be NULL),
 * and the run's metadata.  They write to a FILE and report errors by return
 * value; xu_output_write_path() makes the file appear atomically.
 *
 * Frame names: a resolved frame is its function name; an unresolved one is
 * the frame's own PC in hex ("0xffffffff8000102a").  A stack whose walk did
 * not complete (bad frame, unmapped stack, depth limit) gets the root frame
 * "[incomplete]" in the formats that draw stacks from the root, so a flame
 * graph never passes off a broken chain as a real caller.
 */
#ifndef XU_OUTPUT_H
#define XU_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "util/xu_log.h"
#include "profile/xu_profile.h"
#include "symbols/xu_symbols.h"

#define XU_INCOMPLETE_FRAME "[incomplete]"

/* The raw format repeats a stack once per sample: larger output is refused
 * (-EFBIG) rather than written (64 GiB). */
#define XU_OUTPUT_RAW_MAX_BYTES (1ULL << 36)
/* The raw format this build writes, and the newest it reads (lib/output/raw.c
 * describes the versions). */
#define XU_RAW_FORMAT 2
#define XU_RAW_FORMAT_STR "2"

struct xu_output_meta {
    uint32_t domid;
    const char *domain_name;    /* may be NULL */
    const char *backend;        /* "xencall", "xc", "sim", or NULL (offline) */
    const char *elf_path;       /* may be NULL */
    const char *guest_type;     /* "pv", "pvh", "hvm" (xu_guest_type_name) */
    double frequency_hz;
    double duration_s;          /* sampling time actually spent */
    time_t start_time;          /* wall clock at the first sample */
};

/* svg: how frames are coloured. */
enum xu_svg_palette {
    XU_PALETTE_HASH = 0,        /* warm colours hashed from the name: stable across runs */
    XU_PALETTE_ORIGIN,          /* by origin: guest kernel, application, unresolved */
};

struct xu_output_options {
    bool per_vcpu;              /* folded/report: separate vCPUs ("vcpu0;...") */
    const char *title;          /* svg: NULL = derived from the meta */
    unsigned int width;         /* svg: pixels, 0 = default */
    double min_width;           /* svg: pixels, frames narrower are merged; 0 = 0.1 */
    bool inverted;              /* svg: icicle graph */
    const char *subtitle;       /* svg: NULL = derived from the meta */
    enum xu_svg_palette palette;        /* svg */
};

/*
 * Frames that are names rather than addresses: offline input (folded, or a
 * raw trace the original uniprof already symbolised).  Each pcs[] value of
 * the profile is then an index into names[] and syms is not consulted.
 */
struct xu_frame_names {
    const char *const *names;
    size_t count;
};

struct xu_output_ctx {
    const struct xu_profile *profile;
    const struct xu_symbolizer *syms;   /* NULL: every frame unresolved */
    const struct xu_output_meta *meta;
    const struct xu_output_options *opts;
    struct xu_log *log;
    const struct xu_frame_names *names; /* NULL: pcs are addresses (see above) */
    const struct xu_symtab *symtab;     /* NULL: no ELF (pprof mapping, build-id) */
};

struct xu_output_ops {
    const char *name;           /* "raw", "folded", ... */
    const char *extensions;     /* space-separated, e.g. ".folded .collapsed" */
    const char *description;    /* one line for --help */
    int (*write)(FILE *f, const struct xu_output_ctx *ctx);  /* 0 or -errno */
};

/* All formats compiled in, NULL-terminated. */
extern const struct xu_output_ops *const xu_output_formats[];

const struct xu_output_ops *xu_output_find(const char *name);
/* The format whose extension path ends with, or NULL. */
const struct xu_output_ops *xu_output_for_path(const char *path);

/*
 * Write ctx with ops to path: "-" is stdout; anything else is written to a
 * temporary file in the same directory, flushed, synced, and renamed over
 * path, so a reader never sees a half-written file and a failed run leaves
 * what was there before.  0 or -errno, with the reason logged.
 */
int xu_output_write_path(const struct xu_output_ops *ops, const char *path,
                         const struct xu_output_ctx *ctx);

/*
 * The function with the most samples on top of the stack: the first row
 * of the report's "Top functions by self samples" table (same names, same
 * tie-break by name).  Copies its name into name (len bytes) and its share
 * of all samples in percent into *share.  1 found, 0 no sample, -ENOMEM.
 */
int xu_output_top_function(const struct xu_output_ctx *ctx, char *name, size_t len,
                           double *share);

/*
 * Shared by writers: the name of frame i of stack s (see above).  buf
 * receives hex for unresolved frames and must hold 19 bytes.  With
 * ctx->names it is names->names[pcs[i]] (an index out of range reads as its
 * hex form).
 */
const char *xu_output_frame_name(const struct xu_output_ctx *ctx,
                                 const struct xu_stack *s, uint32_t i,
                                 char buf[static 19]);

extern const struct xu_output_ops xu_output_raw;
extern const struct xu_output_ops xu_output_folded;
extern const struct xu_output_ops xu_output_svg;
extern const struct xu_output_ops xu_output_report;
extern const struct xu_output_ops xu_output_pprof;
extern const struct xu_output_ops xu_output_speedscope;

#endif
