/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu_hist.h - a fixed-size latency histogram (log-linear buckets).
 *
 * Records nanosecond durations in constant memory and time, so the sampler
 * can report paused-time percentiles over runs of any length.  Buckets have
 * 1/32 relative width (about 3 %); min and max are exact.
 */
#ifndef XU_HIST_H
#define XU_HIST_H

#include <stdint.h>

#define XU_HIST_SUB 32                          /* sub-buckets per power of two */
#define XU_HIST_BUCKETS (64 * XU_HIST_SUB)

struct xu_hist {
    uint64_t count, sum, min, max;
    uint32_t buckets[XU_HIST_BUCKETS];
};

void xu_hist_init(struct xu_hist *h);
void xu_hist_add(struct xu_hist *h, uint64_t v);
/* Value at quantile q in [0, 1] (bucket midpoint, clamped to min..max); 0 when empty. */
uint64_t xu_hist_quantile(const struct xu_hist *h, double q);

#endif
