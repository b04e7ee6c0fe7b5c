/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu_mix.h - one 64-bit mixing function for keys built from guest values
 * (page-table roots, translation contexts): splitmix64's finaliser, in which
 * every input bit reaches every output bit, so that keys a guest can choose
 * collide only as often as random 64-bit values do.
 */
#ifndef XU_MIX_H
#define XU_MIX_H

#include <stdint.h>

static inline uint64_t xu_mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

#endif
