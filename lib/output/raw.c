/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * output_raw.c - the original uniprof trace text.
 *
 *     #unikernel stack tracer using <backend> hypercall interface (xen-uniprof raw format 2)
 *     #tracing domid <N> on <YYYY-mm-dd HH:MM:SS TZ (+zzzz)>
 *     <blank>
 *     0x<pc>            innermost frame first, one per line
 *     0x<return address>
 *     ...
 *     #[<state>]+vcpu=<V>,cpu_ns=<NS>  format 2: the sample's vCPU, its state
 *                       (running, runnable, blocked, offline, unknown) and the
 *                       CPU time it consumed since its previous tick
 *     1                 the walk completed (0: it did not)
 *     <blank>
 *
 * Format versions: 1 is every trace without the "(xen-uniprof raw format N)"
 * mark (the original uniprof's and ours before states were recorded); 2
 * adds the state line.  A reader refuses a number it does not know
 * (lib/input/raw.c).  The mark sits in the first line because
 * stackcollapse.pl skips exactly three header lines.  The state line is
 * written for the two readers that do not know it: xen-uniprof's reader
 * before format 2 takes a '#' line after the header for a stray comment,
 * skips it and warns (the stacks read right, their states are lost, and
 * the warning says something was not understood); stackcollapse.pl takes
 * it for the outermost frame and strips the "+..." part as it strips an
 * offset, so its output is split by state at the root ("#[running]").
 *
 * An interned stack with count c and CPU time S is written as c blocks
 * whose cpu_ns add up to S (S / c each, the remainder spread one
 * nanosecond per block over the first ones): the per-sample figures are
 * not kept, their sum is, exactly.
 *
 * one block per sample, so an interned stack with count c is written c
 * times.  The format has no count field that every reader understands (our
 * reader and uniprof's tools take only 1 or 0), so a profile whose blocks
 * would add up to more than XU_OUTPUT_RAW_MAX_BYTES is refused before
 * anything is written: a folded line "a;b 9999999999999" would otherwise
 * become hundreds of terabytes.  Folded output carries counts.  Frames are raw PCs, never names: a raw trace is what a later
 * `convert --elf` symbolises, as uniprof's offline symbolize step did.
 * The frames no code lives at are the exception, written by their names
 * ("[task] comm/pid", "[idle]", "[user]", "[upcall]"): the recording's
 * table of tasks is not in the trace, and a reader takes a name back as
 * that frame, where a pseudo-PC would come back as a task's bare index.
 * (When the profile itself holds names, read from an already symbolised
 * trace, those names are written instead, as that step wrote them.)
 *
 * How FlameGraph's stackcollapse.pl reads it (checked against its source):
 * it skips exactly the first three lines (the header above), collects
 * every other non-blank line as a frame, pushing each in front of the
 * previous ones (so innermost-first input becomes root-first output), and
 * takes a line of only digits as the end of a stack and its sample count.
 * So the `1` after a complete walk counts that sample once, and the `0`
 * after an incomplete one records the stack with a count of 0: the broken
 * chain shows up as a zero-width entry, not as a sample, exactly as with
 * uniprof's own traces.  Blank lines between blocks are ignored.  Frames
 * never look like counts because they start with "0x".
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "output/xu_output.h"

struct buf {
    char *p;
    size_t len, cap;
};

static int buf_put(struct buf *b, const char *s, size_t n)
{
    if (n > b->cap - b->len) {
        size_t cap = b->cap ? b->cap : 4096;
        char *p;

        while (cap - b->len < n) {
            if (cap > SIZE_MAX / 2)
                return -ENOMEM;
            cap *= 2;
        }
        p = realloc(b->p, cap);
        if (!p)
            return -ENOMEM;
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    return 0;
}

static int write_header(FILE *f, const struct xu_output_meta *meta)
{
    char when[80] = "unknown time";
    struct tm tm;

    if (localtime_r(&meta->start_time, &tm))
        strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S %Z (%z)", &tm);
    if (fprintf(f, "#unikernel stack tracer using %s hypercall interface"
                " (xen-uniprof raw format " XU_RAW_FORMAT_STR ")\n"
                "#tracing domid %" PRIu32 " on %s\n\n",
                meta->backend ? meta->backend : "no", meta->domid, when) < 0)
        return -EIO;
    return 0;
}

/*
 * A name as a frame line that a reader takes back as that frame: readers
 * (ours and stackcollapse.pl) take a line of digits for a terminator or a
 * count, '#' for a comment, trim blanks and skip control characters.  Such
 * names come from ELF files and folded input, never from a live walk.
 */
static int put_name(struct buf *b, const char *name)
{
    size_t n = strlen(name), i, start;
    bool digits = n > 0;
    int rc;

    for (i = 0; i < n; i++)
        if (name[i] < '0' || name[i] > '9')
            digits = false;
    if (n == 0)
        return buf_put(b, "?", 1);
    start = b->len;
    rc = buf_put(b, name, n);
    if (rc < 0)
        return rc;
    for (i = start; i < b->len; i++)
        if ((unsigned char)b->p[i] < 0x20 || b->p[i] == 0x7f)
            b->p[i] = '?';
    if (b->p[start] == '#' || b->p[start] == ' ')
        b->p[start] = '?';
    if (b->p[b->len - 1] == ' ')
        b->p[b->len - 1] = '?';
    /* "0" would end the sample: as "0+0x0" it names symbol 0 at offset 0 */
    return digits ? buf_put(b, "+0x0", 4) : 0;
}

/* The longest state line: "#[runnable]+vcpu=4294967295,cpu_ns=<20 digits>\n". */
#define STATE_LINE_MAX 64

static int state_line(char *buf, const struct xu_stack *s, uint64_t cpu_ns)
{
    return snprintf(buf, STATE_LINE_MAX, "#[%s]+vcpu=%" PRIu32 ",cpu_ns=%" PRIu64 "\n",
                    xu_vstate_name(s->state), s->vcpu, cpu_ns);
}

/* One sample's frames, built once and written count times (the state line
 * and the terminator follow, see raw_write). */
static int format_stack(struct buf *b, const struct xu_output_ctx *ctx,
                        const struct xu_stack *s)
{
    const char *name;
    char hex[19];
    uint32_t i;
    int rc = 0;

    b->len = 0;
    for (i = 0; i < s->depth && rc == 0; i++) {
        if (ctx->names) {
            rc = put_name(b, xu_output_frame_name(ctx, s, i, hex));
        } else if ((name = xu_pseudo_frame_name(ctx->tasks, s->pcs[i], hex, sizeof(hex)))) {
            rc = put_name(b, name);
        } else {
            snprintf(hex, sizeof(hex), "0x%" PRIx64, s->pcs[i]);
            rc = buf_put(b, hex, strlen(hex));
        }
        if (rc == 0)
            rc = buf_put(b, "\n", 1);
    }
    return rc;
}

/* The size of the whole output, or -EFBIG past the bound (said why). */
static int check_size(struct buf *b, const struct xu_output_ctx *ctx)
{
    size_t i, n = xu_profile_nr_stacks(ctx->profile);
    uint64_t total = 0;
    int rc = 0;

    for (i = 0; i < n && rc == 0; i++) {
        const struct xu_stack *s = xu_profile_stack(ctx->profile, i);

        size_t block;

        rc = format_stack(b, ctx, s);
        block = b->len + STATE_LINE_MAX + 3;    /* at most */
        if (rc == 0 && (s->count > XU_OUTPUT_RAW_MAX_BYTES / block ||
                        s->count * block > XU_OUTPUT_RAW_MAX_BYTES - total))
            rc = -EFBIG;
        else if (rc == 0)
            total += s->count * block;
    }
    if (rc == -EFBIG)
        xu_error(ctx->log, "raw output would be larger than %llu GiB (one block per sample): "
                 "write folded instead, which carries counts",
                 (unsigned long long)(XU_OUTPUT_RAW_MAX_BYTES >> 30));
    return rc;
}

static int raw_write(FILE *f, const struct xu_output_ctx *ctx)
{
    struct buf b = { 0 };
    size_t i, n = xu_profile_nr_stacks(ctx->profile);
    int rc;

    if (!ctx->meta)
        return -EINVAL;
    rc = check_size(&b, ctx);
    if (rc == 0)
        rc = write_header(f, ctx->meta);
    for (i = 0; i < n && rc == 0; i++) {
        const struct xu_stack *s = xu_profile_stack(ctx->profile, i);
        const char *term = xu_walk_complete(s->end) ? "1\n\n" : "0\n\n";
        uint64_t c, each = s->count ? s->cpu_ns / s->count : 0;
        uint64_t extra = s->count ? s->cpu_ns % s->count : 0;
        char line[STATE_LINE_MAX];
        int len;

        rc = format_stack(&b, ctx, s);
        for (c = 0; c < s->count && rc == 0; c++) {
            len = state_line(line, s, each + (c < extra));
            if (fwrite(b.p, 1, b.len, f) != b.len || fwrite(line, 1, (size_t)len, f) != (size_t)len ||
                fwrite(term, 1, 3, f) != 3)
                rc = -EIO;
        }
    }
    free(b.p);
    return rc;
}

const struct xu_output_ops xu_output_raw = {
    .name = "raw",
    .extensions = ".raw .uniprof",
    .description = "uniprof's trace text: raw PCs per sample, for stackcollapse.pl or convert --elf",
    .write = raw_write,
};
