/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * wire.c - a domain's window between `top --all`'s child and its parent:
 * the writer, and the parser that trusts nothing (see xu_top_wire.h).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "top/xu_top_wire.h"

enum { ST_HEADER = 0, ST_WHY_OR_ROW, ST_ROWS };

void xu_top_wire_window_dispose(struct xu_top_wire_window *w)
{
    size_t i;

    for (i = 0; i < w->n; i++)
        free(w->rows[i].name);
    free(w->rows);
    memset(w, 0, sizeof(*w));
}

void xu_top_wire_window_move(struct xu_top_wire_window *dst, struct xu_top_wire_window *src)
{
    xu_top_wire_window_dispose(dst);
    *dst = *src;
    memset(src, 0, sizeof(*src));
}

/* s as one line's text: control characters become '?', cut to fit. */
static void put_text(FILE *f, const char *s)
{
    size_t i;

    for (i = 0; s[i] && i < XU_TOP_WIRE_TEXT_MAX - 1; i++)
        fputc((unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i], f);
    fputc('\n', f);
}

int xu_top_wire_write(FILE *f, const struct xu_top_snapshot *s, const char *why)
{
    const struct xu_top_table *t = s->table;
    size_t i, n = t->n < XU_TOP_WIRE_ROWS_MAX ? t->n : XU_TOP_WIRE_ROWS_MAX;
    double rate = s->rate < XU_TOP_WIRE_RATE_MAX ? s->rate : XU_TOP_WIRE_RATE_MAX;

    fprintf(f, "W1 %" PRIu32 " %u %.3f %.3f %" PRIu64 " %" PRIu64 " %d %zu\n", s->domid,
            s->vcpus, rate, s->frequency, t->samples,
            s->complete < t->samples ? s->complete : t->samples, s->symbols ? 1 : 0, n);
    if (why && *why) {
        fputs("N ", f);
        put_text(f, why);
    }
    for (i = 0; i < n; i++) {
        fprintf(f, "R %" PRIu64 " %" PRIu64 " ", t->rows[i].self, t->rows[i].total);
        put_text(f, t->rows[i].name);
    }
    fputs(".\n", f);
    return fflush(f) == 0 && !ferror(f) ? 0 : -EIO;
}

/* A whole number, then one space or the end: the rest in *end.  0 or -1. */
static int take_u64(const char **p, uint64_t max, uint64_t *out)
{
    const char *s = *p;
    uint64_t v = 0;
    size_t digits = 0;

    for (; *s >= '0' && *s <= '9'; s++) {
        if (++digits > 20 || v > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
            return -1;
        v = v * 10 + (uint64_t)(*s - '0');
    }
    if (!digits || v > max || (*s != ' ' && *s != '\0'))
        return -1;
    *p = *s ? s + 1 : s;
    *out = v;
    return 0;
}

/* A plain decimal number ("123" or "12.345"), as take_u64(). */
static int take_double(const char **p, double max, double *out)
{
    const char *s = *p;
    char *end;
    size_t k;
    double v;

    for (k = 0; (s[k] >= '0' && s[k] <= '9') || s[k] == '.'; k++)
        if (k > 32)
            return -1;
    if (!k || (s[k] != ' ' && s[k] != '\0'))
        return -1;
    v = strtod(s, &end);
    if (end != s + k || !isfinite(v) || v < 0 || v > max)
        return -1;
    *p = s[k] ? s + k + 1 : s + k;
    *out = v;
    return 0;
}

static int parse_header(struct xu_top_wire_reader *r, const char *s)
{
    struct xu_top_wire_window *w = &r->cur;
    uint64_t domid, vcpus, symbols, rows;

    if (strncmp(s, "W1 ", 3) != 0)
        return -EPROTO;
    s += 3;
    if (take_u64(&s, UINT32_MAX, &domid) < 0 || take_u64(&s, 65536, &vcpus) < 0 ||
        take_double(&s, XU_TOP_WIRE_RATE_MAX, &w->rate) < 0 ||
        take_double(&s, XU_TOP_WIRE_RATE_MAX, &w->frequency) < 0 ||
        take_u64(&s, UINT64_MAX, &w->samples) < 0 ||
        take_u64(&s, w->samples, &w->complete) < 0 || take_u64(&s, 1, &symbols) < 0 ||
        take_u64(&s, XU_TOP_WIRE_ROWS_MAX, &rows) < 0 || *s)
        return -EPROTO;
    w->domid = (uint32_t)domid;
    w->vcpus = (unsigned int)vcpus;
    w->symbols = symbols != 0;
    if (rows) {
        w->rows = calloc((size_t)rows, sizeof(*w->rows));
        if (!w->rows)
            return -ENOMEM;
    }
    r->expect = (size_t)rows;
    return 0;
}

static int parse_row(struct xu_top_wire_reader *r, const char *s)
{
    struct xu_top_wire_window *w = &r->cur;
    struct xu_top_wire_row *row;
    uint64_t self, total;

    if (strncmp(s, "R ", 2) != 0 || !r->expect)
        return -EPROTO;
    s += 2;
    if (take_u64(&s, w->samples, &self) < 0 || take_u64(&s, w->samples, &total) < 0 ||
        self > total || !*s || strlen(s) >= XU_TOP_WIRE_TEXT_MAX)
        return -EPROTO;
    row = &w->rows[w->n];
    row->name = strdup(s);
    if (!row->name)
        return -ENOMEM;
    row->self = self;
    row->total = total;
    w->n++;
    r->expect--;
    return 0;
}

/* One line, without its newline. */
static int parse_line(struct xu_top_wire_reader *r, const char *s,
                      void (*done)(void *ctx, struct xu_top_wire_window *w), void *ctx)
{
    int rc;

    switch (r->state) {
    case ST_HEADER:
        rc = parse_header(r, s);
        if (rc == 0)
            r->state = ST_WHY_OR_ROW;
        return rc;
    case ST_WHY_OR_ROW:
        r->state = ST_ROWS;
        if (strncmp(s, "N ", 2) == 0) {
            if (r->cur.symbols || strlen(s + 2) >= sizeof(r->cur.why))
                return -EPROTO;
            strcpy(r->cur.why, s + 2);
            return 0;
        }
        break;          /* no reason given: a row or the end */
    default:
        break;
    }
    if (r->expect)
        return parse_row(r, s);
    if (strcmp(s, ".") != 0)
        return -EPROTO;
    done(ctx, &r->cur);
    xu_top_wire_window_dispose(&r->cur);
    r->state = ST_HEADER;
    return 0;
}

int xu_top_wire_feed(struct xu_top_wire_reader *r, const char *buf, size_t n,
                     void (*done)(void *ctx, struct xu_top_wire_window *w), void *ctx)
{
    size_t i;
    int rc = 0;

    if (r->failed)
        return -EPROTO;
    for (i = 0; i < n && rc == 0; i++) {
        if (buf[i] != '\n') {
            /* a NUL inside a line, or a line too long, is not this format */
            if (buf[i] == '\0' || r->len + 1 >= sizeof(r->line))
                rc = -EPROTO;
            else
                r->line[r->len++] = buf[i];
            continue;
        }
        r->line[r->len] = '\0';
        r->len = 0;
        rc = parse_line(r, r->line, done, ctx);
    }
    if (rc < 0) {
        r->failed = true;
        xu_top_wire_window_dispose(&r->cur);
    }
    return rc;
}

void xu_top_wire_reader_dispose(struct xu_top_wire_reader *r)
{
    xu_top_wire_window_dispose(&r->cur);
    memset(r, 0, sizeof(*r));
}
