/* SPDX-License-Identifier: GPL-2.0-only */
/* clock.c - the real clock behind xu_clock.h. */
#include "config.h"

#include <time.h>

#include "util/xu_clock.h"

static uint64_t mono_now_ns(void *ctx)
{
    struct timespec ts;

    (void)ctx;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void mono_sleep_until_ns(void *ctx, uint64_t deadline_ns)
{
    struct timespec ts = {
        .tv_sec = (time_t)(deadline_ns / 1000000000ULL),
        .tv_nsec = (long)(deadline_ns % 1000000000ULL),
    };

    (void)ctx;
    /* EINTR: a signal arrived; the caller re-checks its stop flag */
    clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

const struct xu_clock xu_clock_monotonic = {
    .now_ns = mono_now_ns,
    .sleep_until_ns = mono_sleep_until_ns,
    .ctx = NULL,
};
