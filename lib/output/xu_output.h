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
 * the frame's own PC in hex ("0xffffffff8000102a").  With the ELF's DWARF
 * (xu_symbolizer_new_dwarf), a frame stands for the physical function and
 * every function inlined in it, outermost first (xu_output_frame_lines):
 * folded, svg, report and speedscope draw each as a frame of its own,
 * named with the suffix "_[i]" (perf's) when it was inlined, and pprof as
 * the Lines of one Location.  A stack whose walk did
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
#include "profile/xu_tasks.h"
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
    const char *guest_arch;     /* "x86_64", "x86_32", "arm64": the rules its stacks were read by */
    double frequency_hz;
    double duration_s;          /* sampling time actually spent */
    time_t start_time;          /* wall clock at the first sample */
};

/* svg: how frames are coloured. */
enum xu_svg_palette {
    XU_PALETTE_HASH = 0,        /* warm colours hashed from the name: stable across runs */
    XU_PALETTE_ORIGIN,          /* by origin: guest kernel, application, unresolved */
};

/* What a profile's widths measure (--weight). */
enum xu_weight {
    XU_WEIGHT_SAMPLES = 0,      /* each sample counts 1 */
    XU_WEIGHT_CPU,              /* each sample counts the CPU time its vCPU consumed
                                 * since its previous tick: microseconds in the
                                 * writers that draw or count (folded, svg, report),
                                 * nanoseconds in pprof and speedscope */
};

/* Which samples a profile shows, by their vCPU's state (--state). */
enum xu_state_view {
    XU_STATES_ALL = 0,          /* every sample, as if states did not exist */
    XU_STATES_ONCPU,            /* running only */
    XU_STATES_OFFCPU,           /* runnable and blocked only */
    XU_STATES_SPLIT,            /* every sample, under a root frame "[running]", ... */
};

struct xu_output_options {
    bool per_vcpu;              /* folded/report: separate vCPUs ("vcpu0;...") */
    const char *title;          /* svg: NULL = derived from the meta */
    unsigned int width;         /* svg: pixels, 0 = default */
    double min_width;           /* svg: pixels, frames narrower are merged; 0 = 0.1 */
    bool inverted;              /* svg: icicle graph */
    const char *subtitle;       /* svg: NULL = derived from the meta */
    enum xu_svg_palette palette;        /* svg */
    enum xu_weight weight;      /* every writer but raw (which keeps everything) */
    enum xu_state_view states;  /* every writer but raw */
    bool raw_names;             /* --no-demangle: for the symboliser, not the writers:
                                 * names as the ELF spells them */
    bool no_inline;             /* --no-inline: for the symboliser (xu_output_symbolizer_flags):
                                 * no frames for inlined functions */
    bool lines;                 /* --lines: folded, svg and speedscope frames are
                                 * per source line ("name:line"), the report has
                                 * a source column */
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
    const struct xu_tasks *tasks;       /* the recording's tasks (xu_tasks.h), or NULL */
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
/* What a recording is written as when neither -f nor -o's extension says:
 * the interactive flame graph. */
const struct xu_output_ops *xu_output_default(void);
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

/*
 * The functions of frame i of s, outermost first: the physical function,
 * then each one inlined in the one before (xu_symbolizer_frames), each with
 * its source line when the symboliser has DWARF.  A frame the symboliser
 * knows nothing more about (offline names, an upcall marker, an unresolved
 * address, no DWARF) is one entry named by xu_output_frame_name() without a
 * line, in *one (its name may be in buf).  *out points at the entries.
 * Returns their count, 1 to XU_INLINE_MAX_DEPTH.
 */
unsigned int xu_output_frame_lines(const struct xu_output_ctx *ctx, const struct xu_stack *s,
                                   uint32_t i, struct xu_frame_line *one, char buf[static 19],
                                   const struct xu_frame_line **out);

/* Frames a stack shows at most once its inlined functions are expanded: a
 * stack that would pass it is shown with its physical frames only, so that
 * every writer keeps the bounds its paths have. */
#define XU_OUTPUT_MAX_FRAMES XU_MAX_DEPTH_LIMIT

/*
 * A frame's label in the formats that name frames with one string:
 * l->name, then ":line" when with_line and the line is known, then "_[i]"
 * when inlined.  Into *buf (grown with realloc, *cap its size).  Its
 * length, or -ENOMEM.
 */
long xu_output_line_label(const struct xu_frame_line *l, bool with_line, char **buf,
                          size_t *cap);

/* The symboliser flags that opts ask for (--no-demangle, --no-inline). */
unsigned int xu_output_symbolizer_flags(const struct xu_output_options *opts);

/*
 * The symboliser of a profile's addresses as opts ask (opts may be NULL):
 * xu_symbolizer_new_dwarf() over the ELF at elf_path.  When --lines is
 * asked for and no line can be had (a build without libdw, an ELF without
 * DWARF), a note on log says why.  NULL with errno.
 */
struct xu_symbolizer *xu_output_symbolizer_new(const struct xu_output_options *opts,
                                               const struct xu_symtab *st,
                                               const uint64_t *addrs, size_t n,
                                               const char *elf_path, struct xu_log *log);
/*
 * The same for every lookup address (xu_stack_lookup_addr) of p's stacks,
 * filled from its frames (xu_symbolizer_add): no sorted set of the
 * distinct addresses is made first, which for millions of them was a
 * table and a sort as large as the symboliser's.  NULL with errno.
 */
struct xu_symbolizer *xu_output_symbolizer_of(const struct xu_output_options *opts,
                                              const struct xu_symtab *st,
                                              const struct xu_profile *p,
                                              const char *elf_path, struct xu_log *log);

/*
 * Views (--weight, --state), applied the same way by every writer but raw:
 *
 * xu_output_weight() is the width of stack s: 0 when the state view leaves
 * it out, else its count, or its CPU time in microseconds (rounded to the
 * nearest, per stack).  Microseconds because the sums a writer makes must
 * stay exact in a double: a profile's CPU time is bounded by 2^62 ns, which
 * is 2^52 us.  xu_output_in_view() says whether the state view keeps s
 * (pprof and speedscope, which weigh in nanoseconds themselves).
 * xu_output_state_frame() is the root frame of s when the view splits by
 * state ("[running]", "[runnable]", "[blocked]", "[offline]", "[unknown]"),
 * else NULL; xu_output_off_cpu_frame() says whether a frame name is one of
 * the off-CPU roots (what svg colours apart).
 */
bool xu_output_in_view(const struct xu_output_ctx *ctx, const struct xu_stack *s);
uint64_t xu_output_weight(const struct xu_output_ctx *ctx, const struct xu_stack *s);
const char *xu_output_state_frame(const struct xu_output_ctx *ctx, const struct xu_stack *s);
bool xu_output_off_cpu_frame(const char *name);
/* "samples" or "µs of CPU time": what xu_output_weight() counts. */
const char *xu_output_weight_unit(const struct xu_output_ctx *ctx);
/* "--weight" / "--state" values, for options and messages; -1 when unknown. */
int xu_weight_from_name(const char *name);
int xu_state_view_from_name(const char *name);
const char *xu_state_view_name(enum xu_state_view v);
/* Warn (ctx->log) when the view leaves nothing of a profile that has
 * samples, and why: an empty graph should not pass for an idle guest. */
void xu_output_view_check(const struct xu_output_ctx *ctx);

extern const struct xu_output_ops xu_output_raw;
extern const struct xu_output_ops xu_output_folded;
extern const struct xu_output_ops xu_output_svg;
extern const struct xu_output_ops xu_output_report;
extern const struct xu_output_ops xu_output_pprof;
extern const struct xu_output_ops xu_output_speedscope;

#endif
