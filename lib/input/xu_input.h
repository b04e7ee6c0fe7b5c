/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu_input.h - reading a profile back from a file, for `convert` and `diff`.
 *
 * Two formats are read:
 *
 *   raw     xen-uniprof's own raw traces and those of the original uniprof:
 *           '#' header lines, then per sample one frame a line, innermost
 *           first, closed by "1" (the walk completed) or "0" (the original
 *           uniprof's mark of a walk that failed part way: those frames are a
 *           sample of their own, never merged into the next one), and a blank
 *           line.  A frame is a hex address ("0xffffffff8000102a") or an
 *           already symbolised "name+0xoff" or "name".  Format 2 (marked in
 *           the first header line) adds a line "#[state]+vcpu=V,cpu_ns=NS"
 *           per sample; earlier traces read as vCPU 0, state unknown, 0 ns;
 *           a later format is refused (lib/output/raw.c has the versions).
 *   folded  "root;caller;leaf count" lines.  A leading "[incomplete]" frame
 *           marks a walk that did not complete; a leading "vcpuN" frame
 *           (written with per-vCPU output) gives the vCPU.
 *
 * The file is hostile input: lines, stack depths, distinct frames and
 * distinct stacks are bounded; a line that breaks a bound or cannot be read
 * is skipped and counted, never fatal.
 *
 * Frames come out as addresses whenever possible, so that writers can
 * symbolise them (and pprof can carry addresses): all-hex traces always; a
 * symbolised trace when an ELF is given and knows every name
 * (address = symbol + offset).  Otherwise they come out as names
 * (struct xu_frame_names), hex frames resolved against the ELF if one is
 * given, so every writer still works.
 */
#ifndef XU_INPUT_H
#define XU_INPUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "output/xu_output.h"
#include "profile/xu_profile.h"
#include "symbols/xu_symbols.h"

#define XU_INPUT_MAX_RAW_LINE 4096          /* one frame */
#define XU_INPUT_MAX_FOLDED_LINE (1u << 20) /* one whole stack */
#define XU_INPUT_MAX_FRAMES (1u << 22)      /* distinct frame strings */
#define XU_INPUT_MAX_VCPU 4095
/* Frames kept over all distinct stacks (8 bytes each, and the profile is
 * copied once when frames become names): without it 2^20 stacks of 1024
 * frames would ask for 8 GiB. */
#define XU_INPUT_MAX_STORED_FRAMES (1u << 26)

enum xu_input_format {
    XU_INPUT_AUTO = 0,          /* decided from the first lines */
    XU_INPUT_RAW,
    XU_INPUT_FOLDED,
};

const char *xu_input_format_name(enum xu_input_format fmt);

struct xu_input_options {
    const struct xu_symtab *symtab;     /* NULL: no ELF */
    size_t max_stacks;                  /* 0: XU_PROFILE_DEFAULT_MAX_STACKS */
    unsigned int max_depth;             /* 0: XU_MAX_DEPTH_LIMIT */
};

struct xu_input_stats {
    uint64_t lines;
    uint64_t bad_lines;         /* unparsable or over a bound: skipped */
    uint64_t samples;           /* stacks read (sum of counts) */
    uint64_t incomplete;        /* of which did not complete ("0", [incomplete], truncated) */
    uint64_t empty;             /* samples without any frame: not stored */
    uint64_t truncated;         /* samples deeper than max_depth: innermost frames kept */
};

struct xu_input {
    enum xu_input_format format;        /* what was read */
    struct xu_profile *profile;
    bool has_names;                     /* pcs index names (see above) */
    struct xu_frame_names names;        /* valid when has_names */
    struct xu_input_stats stats;
    bool has_domid;                     /* a header named the domain */
    uint32_t domid;
    double frequency_hz;                /* 0 when the header did not say */
    struct xu_input_priv *priv;
};

/*
 * Read the whole of f.  0 and *out, or -errno: -ENOMEM, -EIO (read error),
 * -ENODATA (no sample at all), -EINVAL (a format that does not fit, or a
 * raw file that is no trace), -EPROTO (a raw format newer than
 * XU_RAW_FORMAT), -EOVERFLOW (more than XU_PROFILE_MAX_SAMPLES samples or
 * XU_PROFILE_MAX_CPU_NS of CPU time), -E2BIG (more than XU_INPUT_MAX_FRAMES distinct frame strings,
 * or XU_INPUT_MAX_STORED_FRAMES frames in distinct stacks).
 */
int xu_input_read(FILE *f, enum xu_input_format fmt, const struct xu_input_options *opts,
                  struct xu_log *log, struct xu_input **out);
int xu_input_read_path(const char *path, enum xu_input_format fmt,
                       const struct xu_input_options *opts, struct xu_log *log,
                       struct xu_input **out);
void xu_input_free(struct xu_input *in);

#endif
