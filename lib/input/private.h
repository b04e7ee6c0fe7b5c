/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * input_priv.h - what the readers of input.c, input_raw.c and
 * input_folded.c share (internal).
 *
 * Readers first intern every frame string as a token and store stacks of
 * token ids in a scratch profile (so equal stacks are merged and memory is
 * bounded as for a live run); input.c then decides, once the whole file is
 * known, whether the tokens become addresses or names.
 */
#ifndef XU_INPUT_PRIV_H
#define XU_INPUT_PRIV_H

#include "output/function_ids.h"
#include "input/xu_input.h"

struct input_builder {
    FILE *f;
    const struct xu_input_options *opts;
    unsigned int max_depth;
    struct xu_log *log;
    struct xu_input *in;
    struct xu_strtab tokens;
    struct xu_u64map hex_tokens;        /* address -> token id, in token mode */
    bool token_mode;                    /* scratch pcs are token ids, not addresses */
    struct xu_profile *scratch;
    char *rbuf;                         /* read buffer */
    size_t rpos, rlen;
    char *line;                         /* current line, NUL-terminated */
    size_t line_cap;
    bool has_pushed;                    /* the line in line[] is read again */
    long pushed;                        /* what xu_input_next_line returned for it */
    const char *path;                   /* for messages, may be NULL */
    uint64_t stored_frames;             /* over the distinct stacks kept */
};

/* What xu_input_next_line returns besides a length: below any -errno. */
#define XU_INPUT_END_OF_FILE   (-100000L)
#define XU_INPUT_LINE_TOO_LONG (-100001L)   /* or holding a NUL: the rest is skipped */

/* Next line without its end-of-line: its length, XU_INPUT_END_OF_FILE,
 * XU_INPUT_LINE_TOO_LONG (longer than max), -EIO on a read error, -ENOMEM. */
long xu_input_next_line(struct input_builder *b, size_t max);
/* The line just read is read again by the next call. */
void xu_input_unread(struct input_builder *b, long len);
/*
 * The next line when it is a hex frame, "0x" and 1 to 16 hex digits (and
 * the usual optional '\r'), already whole in the read buffer: 1 with the
 * line consumed and counted as xu_input_next_line would, and *addr its
 * value.  0 otherwise, with nothing consumed: the line is then read the
 * ordinary way.  Nearly every line of a raw trace is one of these, and
 * reading them without copying or re-scanning them halves the time a
 * trace takes to read.
 */
int xu_input_next_hex_line(struct input_builder *b, uint64_t *addr);

/*
 * Frame n of the sample being read is s[0..len): toks[n] receives its value.
 * While every frame so far was a hex address, values are the addresses
 * themselves (no string is kept: the common case, and the fast one); the
 * first other frame turns the scratch profile and toks[0..n) into token ids.
 * 0, -ENOMEM or -E2BIG (too many distinct frames).
 */
int xu_input_frame(struct input_builder *b, const char *s, size_t len, uint64_t *toks,
                   uint32_t n);
/* The same for a frame already read as an address. */
int xu_input_hex_frame(struct input_builder *b, uint64_t addr, uint64_t *toks, uint32_t n);
/* Store one sample of token ids (innermost first); empty and over-deep
 * samples are counted as the stats say.  0 or -ENOMEM. */
int xu_input_sample(struct input_builder *b, uint32_t vcpu, uint64_t *toks, uint32_t depth,
                    enum xu_walk_end end, uint64_t count);
/* The same with the sample's vCPU state and CPU time (raw format 2); also
 * -EOVERFLOW past XU_PROFILE_MAX_CPU_NS. */
int xu_input_sample_state(struct input_builder *b, uint32_t vcpu, enum xu_vstate state,
                          uint64_t cpu_ns, uint64_t *toks, uint32_t depth,
                          enum xu_walk_end end, uint64_t count);
/* "0x" and 1..16 hex digits, nothing else: *out gets the value. */
bool xu_input_parse_hex(const char *s, uint64_t *out);
/* A bad line: counted, and the first few are logged. */
void xu_input_bad_line(struct input_builder *b, const char *why);

int xu_input_parse_raw(struct input_builder *b);
int xu_input_parse_folded(struct input_builder *b);

#endif
