/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xu_le.h - little-endian values read from bytes that need not be aligned
 * (guest memory, kernel images, Xen's and the ELF's tables), the same on any
 * host.  A signed field is the unsigned read cast: (int32_t)xu_le32(p).
 */
#ifndef XU_LE_H
#define XU_LE_H

#include <stdint.h>

static inline uint16_t xu_le16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t xu_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t xu_le64(const uint8_t *p)
{
    return (uint64_t)xu_le32(p) | (uint64_t)xu_le32(p + 4) << 32;
}

#endif
