/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * input_folded.c - reading folded stacks: "root;...;leaf count" lines.
 *
 * Frames are taken from the end of the line (the leaf) backwards, so a
 * stack deeper than the limit keeps its innermost frames without the line
 * ever being split into an unbounded array.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "private.h"

#define MAX_COUNT XU_PROFILE_MAX_SAMPLES  /* a line alone may not pass the total */

/* "vcpuN" exactly, N a small number. */
static bool parse_vcpu(const char *s, size_t len, uint32_t *vcpu)
{
    unsigned long v = 0;
    size_t i;

    if (len < 5 || len > 8 || strncmp(s, "vcpu", 4) != 0)
        return false;
    for (i = 4; i < len; i++) {
        if (!isdigit((unsigned char)s[i]))
            return false;
        v = v * 10 + (unsigned long)(s[i] - '0');
    }
    if (v > XU_INPUT_MAX_VCPU)
        return false;
    *vcpu = (uint32_t)v;
    return true;
}

static int parse_line(struct input_builder *b, char *line, size_t len, uint64_t *toks)
{
    static const char incomplete[] = XU_INCOMPLETE_FRAME;
    char *sp, *end, *p, *start;
    unsigned long long count;
    enum xu_walk_end walk = XU_WALK_COMPLETE;
    uint32_t vcpu = 0, depth = 0;
    size_t first_len;

    while (len && (line[len - 1] == ' ' || line[len - 1] == '\t'))
        line[--len] = '\0';
    sp = strrchr(line, ' ');
    if (!sp || !isdigit((unsigned char)sp[1])) {
        xu_input_bad_line(b, "no sample count at the end");
        return 0;
    }
    errno = 0;
    count = strtoull(sp + 1, &end, 10);
    if (*end != '\0' || errno || count > MAX_COUNT) {
        xu_input_bad_line(b, "bad sample count");
        return 0;
    }
    while (sp > line && sp[-1] == ' ')
        sp--;
    *sp = '\0';
    if (sp == line) {
        xu_input_bad_line(b, "no frames");
        return 0;
    }
    if (count == 0)
        return 0;
    for (p = line; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f) {
            xu_input_bad_line(b, "control characters in a frame");
            return 0;
        }
    /* The synthetic roots: "vcpuN" and "[incomplete]". */
    start = line;
    first_len = strcspn(start, ";");
    if (start[first_len] == ';' && parse_vcpu(start, first_len, &vcpu)) {
        start += first_len + 1;
        first_len = strcspn(start, ";");
    }
    if (first_len == sizeof(incomplete) - 1 && strncmp(start, incomplete, first_len) == 0) {
        walk = XU_WALK_BAD_FRAME;
        if (start[first_len] != ';') {
            /* Nothing but the marker: a walk with no frame at all. */
            return xu_input_sample(b, vcpu, toks, 0, walk, count);
        }
        start += first_len + 1;
    }
    /* Leaf first: walk back from the end. */
    end = sp;
    for (;;) {
        char *semi = end;

        while (semi > start && semi[-1] != ';')
            semi--;
        if (semi == end) {
            xu_input_bad_line(b, "empty frame name");
            return 0;
        }
        if (depth < b->max_depth) {
            int rc = xu_input_frame(b, semi, (size_t)(end - semi), toks, depth);

            if (rc < 0)
                return rc;
        }
        depth++;
        if (semi == start)
            break;
        end = semi - 1;
    }
    return xu_input_sample(b, vcpu, toks, depth, walk, count);
}

int xu_input_parse_folded(struct input_builder *b)
{
    uint64_t *toks = malloc(b->max_depth * sizeof(*toks));
    int rc = 0;

    if (!toks)
        return -ENOMEM;
    for (;;) {
        long len = xu_input_next_line(b, XU_INPUT_MAX_FOLDED_LINE);

        if (len == XU_INPUT_END_OF_FILE)
            break;
        if (len == XU_INPUT_LINE_TOO_LONG) {
            xu_input_bad_line(b, "line too long");
            continue;
        }
        if (len < 0) {
            rc = (int)len;
            break;
        }
        if (len == 0 || b->line[0] == '#')
            continue;
        rc = parse_line(b, b->line, (size_t)len, toks);
        if (rc < 0)
            break;
    }
    free(toks);
    return rc;
}
