/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu_top_wire.h - one domain's window of `xen-uniprof top --all`, as the
 * domain's child process tells it to the parent over a pipe.
 *
 * Each child samples one guest, and a guest is untrusted: the names in its
 * ELF and whatever a confused or compromised child writes reach the parent
 * through this format only, so the parser bounds everything (line length,
 * row count, every number) and refuses the whole stream at the first line
 * it does not understand.  Text, versioned, one record a line:
 *
 *   W1 DOMID VCPUS RATE FREQUENCY SAMPLES COMPLETE SYMBOLS ROWS
 *   N WHY                      (optional: why there are no symbols)
 *   R SELF TOTAL NAME          (ROWS times)
 *   .
 *
 * "W1" is the version.  RATE and FREQUENCY are decimal numbers (achieved
 * ticks per second, Hz asked for), SYMBOLS 0 or 1, the rest whole
 * numbers; SELF <= TOTAL <= SAMPLES, COMPLETE <= SAMPLES.  A NAME or WHY
 * is the rest of its line: the writer replaces control characters with
 * '?' and cuts it to fit.
 */
#ifndef XU_TOP_WIRE_H
#define XU_TOP_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "top/xu_top.h"

#define XU_TOP_WIRE_LINE_MAX 1024   /* bytes a line, the newline included */
#define XU_TOP_WIRE_ROWS_MAX 1000   /* rows a window: a window's top functions */
#define XU_TOP_WIRE_TEXT_MAX 512    /* a name or a reason, NUL included */
#define XU_TOP_WIRE_RATE_MAX 1e7    /* bounds RATE and FREQUENCY */

struct xu_top_wire_row {
    uint64_t self, total;
    char *name;                 /* owned by the window */
};

struct xu_top_wire_window {
    uint32_t domid;
    unsigned int vcpus;
    double rate, frequency;
    uint64_t samples, complete;
    bool symbols;
    char why[XU_TOP_WIRE_TEXT_MAX];     /* "" unless the child said why */
    struct xu_top_wire_row *rows;
    size_t n;
};

void xu_top_wire_window_dispose(struct xu_top_wire_window *w);
/* Move src into dst (dst disposed first; src left empty). */
void xu_top_wire_window_move(struct xu_top_wire_window *dst, struct xu_top_wire_window *src);

/*
 * Write s's window (its first XU_TOP_WIRE_ROWS_MAX rows, as sorted) with
 * why (NULL or "": none) to f and flush it.  0, or -EIO when f failed.
 */
int xu_top_wire_write(FILE *f, const struct xu_top_snapshot *s, const char *why);

/* The parser's state for one stream.  Zero-initialise; dispose after use. */
struct xu_top_wire_reader {
    char line[XU_TOP_WIRE_LINE_MAX];
    size_t len;
    int state;                  /* internal */
    size_t expect;              /* rows still to come */
    struct xu_top_wire_window cur;
    bool failed;
};

/*
 * Feed n bytes of the stream; each window completed by them is handed to
 * done (which may take its contents with xu_top_wire_window_move()).
 * 0, -EPROTO at the first malformed or oversized line (and for every call
 * after), or -ENOMEM.  A window cut short by the stream's end is never
 * handed over.
 */
int xu_top_wire_feed(struct xu_top_wire_reader *r, const char *buf, size_t n,
                     void (*done)(void *ctx, struct xu_top_wire_window *w), void *ctx);
void xu_top_wire_reader_dispose(struct xu_top_wire_reader *r);

#endif
