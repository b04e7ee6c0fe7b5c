/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * builder.c - what both trace readers are made of: lines read in bounded
 * pieces, frames turned into tokens (addresses while every frame is one,
 * names after), and samples stored in the scratch profile.  The readers
 * (raw.c, folded.c) call these; reader.c picks a reader and finishes.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "private.h"

#define MAX_LOGGED_BAD_LINES 5
#define INPUT_READ_CHUNK (64u << 10)
#define FIRST_LINE_CAP 4096     /* the line buffer grows from here up to the bound */

/* ------------------------------------------------------------- lines -- */

/* Refill the read buffer: bytes now available, 0 at end of file, -EIO. */
static long refill(struct input_builder *b)
{
    size_t n;

    if (!b->rbuf) {
        b->rbuf = malloc(INPUT_READ_CHUNK);
        if (!b->rbuf)
            return -ENOMEM;
    }
    n = fread(b->rbuf, 1, INPUT_READ_CHUNK, b->f);
    if (n == 0 && ferror(b->f))
        return -EIO;
    b->rpos = 0;
    b->rlen = n;
    return (long)n;
}

long xu_input_next_line(struct input_builder *b, size_t max)
{
    size_t len = 0;
    bool too_long = false, got = false, bad = false;

    if (b->has_pushed) {
        b->has_pushed = false;
        if (b->pushed >= 0 && (size_t)b->pushed > max)
            return XU_INPUT_LINE_TOO_LONG;
        return b->pushed;
    }
    if (!b->line) {
        b->line_cap = (max < FIRST_LINE_CAP ? max : FIRST_LINE_CAP) + 1;
        b->line = malloc(b->line_cap);
        if (!b->line)
            return -ENOMEM;
    }
    /* Copy up to the newline, chunk by chunk; past max, only look for it. */
    for (;;) {
        char *start, *nl;
        size_t seg, take;

        if (b->rpos == b->rlen) {
            long r = refill(b);

            if (r < 0)
                return r;
            if (r == 0)
                break;
        }
        got = true;
        start = b->rbuf + b->rpos;
        nl = memchr(start, '\n', b->rlen - b->rpos);
        seg = nl ? (size_t)(nl - start) : b->rlen - b->rpos;
        take = seg <= max - len ? seg : max - len;
        if (take < seg)
            too_long = true;
        if (memchr(start, '\0', take))
            bad = true;     /* a NUL would cut the line short silently */
        if (len + take + 1 > b->line_cap) {
            /* grow by doubling, never past the bound (take <= max - len) */
            size_t cap = b->line_cap;
            char *grown;

            while (cap < len + take + 1)
                cap = cap > (max + 1) / 2 ? max + 1 : cap * 2;
            grown = realloc(b->line, cap);
            if (!grown)
                return -ENOMEM;
            b->line = grown;
            b->line_cap = cap;
        }
        memcpy(b->line + len, start, take);
        len += take;
        b->rpos += seg + (nl ? 1 : 0);
        if (nl)
            break;
    }
    if (!got)
        return XU_INPUT_END_OF_FILE;
    b->in->stats.lines++;
    if (len && b->line[len - 1] == '\r')
        len--;
    b->line[len] = '\0';
    return too_long || bad ? XU_INPUT_LINE_TOO_LONG : (long)len;
}

/* Hex digit value + 1 by character, 0 for anything else: a table, because
 * this runs for every frame of a raw trace (a fifth of a conversion with
 * compare-and-branch per character). */
static const uint8_t hex_plus1[256] = {
    ['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5,
    ['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
    ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
    ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

static int hexval(int c)
{
    return (int)hex_plus1[(unsigned char)c] - 1;
}

int xu_input_next_hex_line(struct input_builder *b, uint64_t *addr)
{
    const char *start, *end, *p;
    uint64_t v = 0;
    int d;

    /* at least "0x", a digit and the newline */
    if (b->has_pushed || !b->rbuf || b->rlen - b->rpos < 4)
        return 0;
    start = b->rbuf + b->rpos;
    end = b->rbuf + b->rlen;
    if (start[0] != '0' || (start[1] != 'x' && start[1] != 'X'))
        return 0;
    /* 16 digits at most: the 17th non-digit is looked at, and must end it */
    for (p = start + 2; p < end && p - start <= 2 + 16 && (d = hexval(*p)) >= 0; p++)
        v = v << 4 | (uint64_t)d;
    if (p == start + 2 || p - start > 2 + 16 || p == end)
        return 0;
    if (*p == '\r')
        p++;
    if (p == end || *p != '\n')
        return 0;
    b->rpos = (size_t)(p + 1 - b->rbuf);
    b->in->stats.lines++;
    *addr = v;
    return 1;
}

void xu_input_unread(struct input_builder *b, long len)
{
    b->has_pushed = true;
    b->pushed = len;
}

void xu_input_bad_line(struct input_builder *b, const char *why)
{
    if (b->in->stats.bad_lines++ < MAX_LOGGED_BAD_LINES)
        xu_warn(b->log, "%s:%llu: %s: line skipped", b->path ? b->path : "input",
                (unsigned long long)b->in->stats.lines, why);
}


static long string_token(struct input_builder *b, const char *s, size_t len)
{
    long id = xu_strtab_lookup(&b->tokens, s, len);

    if (id >= 0)
        return id;
    if (b->tokens.n >= XU_INPUT_MAX_FRAMES)
        return -E2BIG;
    return xu_strtab_intern(&b->tokens, s, len);
}

/* The token of an address: one string per distinct address, canonical hex. */
static long hex_token(struct input_builder *b, uint64_t addr)
{
    uint32_t id = (uint32_t)b->tokens.n;
    char hex[19];
    long tok;
    int rc;

    if (b->tokens.n >= XU_INPUT_MAX_FRAMES)
        return -E2BIG;
    rc = xu_u64map_get_or_put(&b->hex_tokens, addr, &id);
    if (rc <= 0)
        return rc < 0 ? rc : (long)id;
    snprintf(hex, sizeof(hex), "0x%llx", (unsigned long long)addr);
    tok = xu_strtab_intern(&b->tokens, hex, strlen(hex));
    /* Only this function adds hex strings, so the new string got id. */
    return tok < 0 ? tok : (long)id;
}

static int switch_to_tokens(struct input_builder *b, uint64_t *toks, uint32_t n)
{
    struct xu_profile *p = xu_profile_new(b->opts ? b->opts->max_stacks : 0);
    uint64_t *pcs = malloc(b->max_depth * sizeof(*pcs));
    size_t k, nr = xu_profile_nr_stacks(b->scratch);
    uint32_t i;
    long tok;
    int rc = 0;

    if (!p || !pcs) {
        rc = -ENOMEM;
        goto out;
    }
    for (k = 0; k < nr; k++) {
        const struct xu_stack *s = xu_profile_stack(b->scratch, k);

        for (i = 0; i < s->depth; i++) {
            tok = hex_token(b, s->pcs[i]);
            if (tok < 0) {
                rc = (int)tok;
                goto out;
            }
            pcs[i] = (uint64_t)tok;
        }
        rc = xu_profile_add_state(p, s->vcpu, s->state, pcs, s->depth, s->end, s->count,
                                  s->cpu_ns);
        if (rc < 0)
            goto out;
    }
    for (i = 0; i < n; i++) {
        tok = hex_token(b, toks[i]);
        if (tok < 0) {
            rc = (int)tok;
            goto out;
        }
        toks[i] = (uint64_t)tok;
    }
    xu_profile_free(b->scratch);
    b->scratch = p;
    p = NULL;
    b->token_mode = true;
out:
    xu_profile_free(p);
    free(pcs);
    return rc;
}

int xu_input_hex_frame(struct input_builder *b, uint64_t addr, uint64_t *toks, uint32_t n)
{
    long tok;

    if (!b->token_mode) {
        toks[n] = addr;
        return 0;
    }
    tok = hex_token(b, addr);
    if (tok < 0)
        return (int)tok;
    toks[n] = (uint64_t)tok;
    return 0;
}

int xu_input_frame(struct input_builder *b, const char *s, size_t len, uint64_t *toks,
                   uint32_t n)
{
    char buf[20];
    uint64_t addr;
    long tok;
    int rc;

    /* Hex parsing wants a terminated string; frames inside a folded line
     * are not, but a hex frame is short. */
    if (len < sizeof(buf)) {
        memcpy(buf, s, len);
        buf[len] = '\0';
        if (xu_input_parse_hex(buf, &addr))
            return xu_input_hex_frame(b, addr, toks, n);
    }
    if (!b->token_mode) {
        rc = switch_to_tokens(b, toks, n);
        if (rc < 0)
            return rc;
    }
    tok = string_token(b, s, len);
    if (tok < 0)
        return (int)tok;
    toks[n] = (uint64_t)tok;
    return 0;
}

int xu_input_sample(struct input_builder *b, uint32_t vcpu, uint64_t *toks, uint32_t depth,
                    enum xu_walk_end end, uint64_t count)
{
    return xu_input_sample_state(b, vcpu, XU_VSTATE_UNKNOWN, 0, toks, depth, end, count);
}

int xu_input_sample_state(struct input_builder *b, uint32_t vcpu, enum xu_vstate state,
                          uint64_t cpu_ns, uint64_t *toks, uint32_t depth,
                          enum xu_walk_end end, uint64_t count)
{
    struct xu_input_stats *st = &b->in->stats;
    size_t before;
    int rc;

    /* the profile bounds what it stores; this bounds what is only counted */
    if (count > XU_PROFILE_MAX_SAMPLES - st->samples)
        return -EOVERFLOW;
    st->samples += count;
    if (depth == 0) {
        st->empty += count;
        return 0;
    }
    if (depth > b->max_depth) {
        /* Keep the innermost frames, as a live walk at the limit would. */
        depth = b->max_depth;
        end = XU_WALK_DEPTH;
        st->truncated += count;
    }
    if (!xu_walk_complete(end))
        st->incomplete += count;
    before = xu_profile_nr_stacks(b->scratch);
    rc = xu_profile_add_state(b->scratch, vcpu, state, toks, depth, end, count, cpu_ns);
    if (rc == 0 && xu_profile_nr_stacks(b->scratch) > before) {
        /* a new stack: past the bound by at most this one */
        b->stored_frames += depth;
        if (b->stored_frames > XU_INPUT_MAX_STORED_FRAMES)
            return -E2BIG;
    }
    return rc;
}

/* ------------------------------------------------------- hex digits -- */

/* "0x" and 1..16 hex digits, nothing else. */
bool xu_input_parse_hex(const char *s, uint64_t *out)
{
    uint64_t v = 0;
    size_t n = 0;

    if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
        return false;
    for (s += 2; *s; s++, n++) {
        int d = hexval((unsigned char)*s);

        if (d < 0 || n >= 16)
            return false;
        v = v << 4 | (uint64_t)d;
    }
    if (n == 0)
        return false;
    *out = v;
    return true;
}
