/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * distinct.c - HyperLogLog (Flajolet, Fusy, Gandouet and Meunier, 2007):
 * each value is hashed; its top bits choose a register, which keeps the
 * longest run of leading zeros seen in the rest.  The harmonic mean of
 * 2^register estimates the count; below 5/2 of the registers, linear
 * counting of the registers still empty does better.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "util/xu_distinct.h"

#define NR_REGS (1u << XU_DISTINCT_BITS)

void xu_distinct_init(struct xu_distinct *d)
{
    memset(d->reg, 0, sizeof(d->reg));
}

size_t xu_distinct_estimate(const struct xu_distinct *d)
{
    double m = NR_REGS, sum = 0, e;
    unsigned int i, zeros = 0;

    for (i = 0; i < NR_REGS; i++) {
        sum += 1.0 / (double)(1ULL << d->reg[i]);
        zeros += d->reg[i] == 0;
    }
    e = 0.7213 / (1 + 1.079 / m) * m * m / sum;
    if (e <= 2.5 * m && zeros)
        e = m * log(m / zeros);
    return (size_t)(e + 0.5);
}
