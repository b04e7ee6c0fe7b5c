/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu_clock.h - the time a loop runs on: now, and sleeping until a moment.
 *
 * The real clock is CLOCK_MONOTONIC with absolute sleeps.  A test passes
 * its own, where sleeping only moves a counter forward, so that seconds of
 * sampling run in milliseconds and the same every time.
 */
#ifndef XU_CLOCK_H
#define XU_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

struct xu_clock {
    /* Monotonic nanoseconds. */
    uint64_t (*now_ns)(void *ctx);
    /* Return at deadline_ns (absolute, as now_ns) or earlier on a signal. */
    void (*sleep_until_ns)(void *ctx, uint64_t deadline_ns);
    void *ctx;
};

/* CLOCK_MONOTONIC, TIMER_ABSTIME. */
extern const struct xu_clock xu_clock_monotonic;

/* c, or the real clock when c is NULL. */
static inline const struct xu_clock *xu_clock_or_real(const struct xu_clock *c)
{
    return c ? c : &xu_clock_monotonic;
}

static inline bool xu_clock_is_real(const struct xu_clock *c)
{
    return !c || c == &xu_clock_monotonic;
}

/* c's now in seconds (NULL: the real clock's), for loops that count time
 * in seconds. */
static inline double xu_clock_now_s(const struct xu_clock *c)
{
    c = xu_clock_or_real(c);
    return (double)c->now_ns(c->ctx) / 1e9;
}

#endif
