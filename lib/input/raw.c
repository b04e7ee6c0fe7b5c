/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * input_raw.c - reading raw traces: xen-uniprof's and the original
 * uniprof's (see output_raw.c for the format, and xu_input.h).
 *
 * Each block is one sample.  "1" closes a walk that completed and "0" one
 * that failed part way (the original uniprof writes it when a stack page
 * cannot be mapped): both end the sample, so the frames of a failed walk
 * are never glued onto the next sample's.  A block cut short (a blank line
 * or the end of the file before its terminator) is kept as an incomplete
 * walk: the frames are real, only their callers are unknown.
 *
 * Format 2 (the header's "(xen-uniprof raw format 2)") adds a line
 * "#[state]+vcpu=V,cpu_ns=NS" per block: it is read as the sample's vCPU,
 * state and CPU time, never as a frame.  Format 1 (no mark) reads as vCPU 0,
 * state unknown, 0 ns.  A higher number is refused: whatever a later
 * format adds, reading it as format 2 would make its lines frames.
 *
 * A file in which no block ends with "1" or "0" is not a trace at all
 * (random bytes, a binary, the wrong file): it is refused rather than read
 * as one garbage sample.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "private.h"

#define FORMAT_MARK "(xen-uniprof raw format "

/* The per-block state of format 2, until the block's terminator. */
struct block_state {
    enum xu_vstate state;
    uint32_t vcpu;
    uint64_t cpu_ns;
};

/*
 * "(xen-uniprof raw format N)" in a header line: *version := N.  -EPROTO
 * for a number this reader does not know (said why).
 */
static int parse_version(struct input_builder *b, const char *line, unsigned int *version)
{
    const char *p = strstr(line, FORMAT_MARK);
    char *end;
    unsigned long v;

    if (!p)
        return 0;
    p += strlen(FORMAT_MARK);
    errno = 0;
    v = isdigit((unsigned char)*p) ? strtoul(p, &end, 10) : 0;
    if (v == 0 || errno || *end != ')' || v > XU_RAW_FORMAT) {
        /* the digits as written, at most 9 of them: the header is hostile */
        int n = (int)strspn(p, "0123456789");

        xu_error(b->log, "%s: raw trace format %.*s is not one this xen-uniprof reads "
                 "(formats 1 to %d): read it with the xen-uniprof that wrote it, or a newer one",
                 b->path ? b->path : "input", n > 9 ? 9 : n ? n : 1, n ? p : "?",
                 XU_RAW_FORMAT);
        return -EPROTO;
    }
    *version = (unsigned int)v;
    return 0;
}

/*
 * Format 2's "#[state]+vcpu=V,cpu_ns=NS" (line past its '#'): 1 and *bs
 * when line is one, 0 when it is not.
 */
static int parse_state_line(const char *line, size_t len, struct block_state *bs)
{
    const char *close = memchr(line, ']', len);
    enum xu_vstate st;
    unsigned long long vcpu, ns;
    char *end;

    if (len < 3 || line[0] != '[' || !close || close[1] != '+')
        return 0;
    st = xu_vstate_from_name(line + 1, (size_t)(close - line - 1));
    if (st == XU_VSTATE__COUNT || strncmp(close + 2, "vcpu=", 5) != 0 ||
        !isdigit((unsigned char)close[7]))
        return 0;
    errno = 0;
    vcpu = strtoull(close + 7, &end, 10);
    if (errno || vcpu > XU_INPUT_MAX_VCPU || strncmp(end, ",cpu_ns=", 8) != 0 ||
        !isdigit((unsigned char)end[8]))
        return 0;
    ns = strtoull(end + 8, &end, 10);
    if (errno || *end || ns > XU_PROFILE_MAX_CPU_NS)
        return 0;
    bs->state = st;
    bs->vcpu = (uint32_t)vcpu;
    bs->cpu_ns = ns;
    return 1;
}

/* "#tracing domid 7 on ...": the header line that names the domain. */
static void parse_header(struct input_builder *b, const char *line)
{
    const char *p = strstr(line, "domid ");
    char *end;
    unsigned long v;

    if (!p)
        return;
    p += 6;
    if (!isdigit((unsigned char)*p))
        return;
    errno = 0;
    v = strtoul(p, &end, 10);
    if (errno == 0 && v <= UINT32_MAX && (*end == '\0' || *end == ' ')) {
        b->in->has_domid = true;
        b->in->domid = (uint32_t)v;
    }
}

static bool has_control_chars(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            return true;
    return false;
}

/* The whole line is decimal digits (a count where a frame belongs).  Stops
 * at the first other character: "0x..." frames are decided at the second. */
static bool all_digits(const char *s, size_t len)
{
    size_t i;

    for (i = 0; i < len; i++)
        if (s[i] < '0' || s[i] > '9')
            return false;
    return true;
}

int xu_input_parse_raw(struct input_builder *b)
{
    uint64_t *toks = malloc(b->max_depth * sizeof(*toks));
    uint32_t depth = 0;         /* frames seen in this block */
    uint64_t terminated = 0;    /* blocks closed by "1" or "0" */
    bool in_header = true;
    unsigned int version = 1;   /* no mark: the original uniprof's, or ours before 2 */
    struct block_state bs = { XU_VSTATE_UNKNOWN, 0, 0 };
    int rc = 0;

    if (!toks)
        return -ENOMEM;
    for (;;) {
        long len;
        char *line;
        enum xu_walk_end end;
        uint64_t addr;

        /* the common line first: what the general path below would make
         * of it, without reading it twice */
        if (xu_input_next_hex_line(b, &addr)) {
            in_header = false;
            if (depth >= UINT32_MAX - 1)
                continue;
            if (depth < b->max_depth) {
                rc = xu_input_hex_frame(b, addr, toks, depth);
                if (rc < 0)
                    goto out;
            }
            depth++;
            continue;
        }
        len = xu_input_next_line(b, XU_INPUT_MAX_RAW_LINE);
        line = b->line;
        if (len == XU_INPUT_END_OF_FILE)
            break;
        if (len == XU_INPUT_LINE_TOO_LONG) {
            xu_input_bad_line(b, "line too long");
            continue;
        }
        if (len < 0) {
            rc = (int)len;
            goto out;
        }
        while (len > 0 && (line[len - 1] == ' ' || line[len - 1] == '\t'))
            line[--len] = '\0';
        while (*line == ' ' || *line == '\t') {
            line++;
            len--;
        }
        if (len == 0) {
            if (depth) {
                /* A block without its terminator: a walk cut short. */
                rc = xu_input_sample_state(b, bs.vcpu, bs.state, bs.cpu_ns, toks, depth,
                                           XU_WALK_BAD_FRAME, 1);
                if (rc < 0)
                    goto out;
                depth = 0;
            }
            bs = (struct block_state){ XU_VSTATE_UNKNOWN, 0, 0 };
            continue;
        }
        if (line[0] == '#' && line[1] == '[' && !in_header && version >= 2) {
            if (!parse_state_line(line + 1, (size_t)len - 1, &bs))
                xu_input_bad_line(b, "a state line that does not read as "
                                  "#[state]+vcpu=N,cpu_ns=N");
            continue;
        }
        if (line[0] == '#') {
            if (in_header) {
                parse_header(b, line);
                rc = parse_version(b, line, &version);
                if (rc < 0)
                    goto out;
            } else
                xu_input_bad_line(b, "comment inside the trace");
            continue;
        }
        in_header = false;
        if ((line[0] == '0' || line[0] == '1') && line[1] == '\0') {
            end = line[0] == '1' ? XU_WALK_COMPLETE : XU_WALK_UNMAPPED;
            rc = xu_input_sample_state(b, bs.vcpu, bs.state, bs.cpu_ns, toks, depth, end, 1);
            if (rc < 0)
                goto out;
            depth = 0;
            bs = (struct block_state){ XU_VSTATE_UNKNOWN, 0, 0 };
            terminated++;
            continue;
        }

        if (all_digits(line, (size_t)len)) {
            xu_input_bad_line(b, "a number where a frame or 0/1 was expected");
            continue;
        }
        if (has_control_chars(line)) {
            xu_input_bad_line(b, "control characters in a frame");
            continue;
        }
        if (depth >= UINT32_MAX - 1)
            continue;
        if (depth < b->max_depth) {
            rc = xu_input_frame(b, line, (size_t)len, toks, depth);
            if (rc < 0)
                goto out;
        }
        depth++;
    }
    if (depth)
        rc = xu_input_sample_state(b, bs.vcpu, bs.state, bs.cpu_ns, toks, depth,
                                   XU_WALK_BAD_FRAME, 1);
    if (rc == 0 && terminated == 0 && !in_header) {
        xu_error(b->log, "%s: not a raw trace: no sample ends with a line \"1\" or \"0\"",
                 b->path ? b->path : "input");
        rc = -EINVAL;
    }
out:
    free(toks);
    return rc;
}
