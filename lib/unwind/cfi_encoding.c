/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cfi_encoding.c - the DW_EH_PE_* encoded values and LEB128 numbers of
 * .eh_frame, .debug_frame and .eh_frame_hdr (see cfi_priv.h).
 */
#include "config.h"

#include <dwarf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cfi_priv.h"

static uint64_t rd_le(const uint8_t *p, unsigned int n)
{
    uint64_t v = 0;
    unsigned int i;

    for (i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

int cfi_read_leb(const uint8_t **pp, const uint8_t *end, bool sign, uint64_t *out)
{
    const uint8_t *p = *pp;
    uint64_t v = 0;
    unsigned int shift = 0;
    uint8_t byte;

    do {
        if (p >= end || shift >= 64)
            return -1;
        byte = *p++;
        v |= (uint64_t)(byte & 0x7f) << shift;
        shift += 7;
    } while (byte & 0x80);
    if (sign && shift < 64 && (byte & 0x40))
        v |= ~0ULL << shift;
    *pp = p;
    *out = v;
    return 0;
}

int cfi_read_encoded(uint8_t enc, bool apply, const uint8_t **pp, const uint8_t *end,
                     uint64_t field_addr, const uint64_t *datarel, uint64_t *out)
{
    static const unsigned int width[16] = {
        [DW_EH_PE_absptr] = 8, [DW_EH_PE_udata2] = 2, [DW_EH_PE_udata4] = 4,
        [DW_EH_PE_udata8] = 8, [DW_EH_PE_sdata2] = 2, [DW_EH_PE_sdata4] = 4,
        [DW_EH_PE_sdata8] = 8,
    };
    unsigned int fmt = enc & 0x0f, w = width[fmt];
    uint64_t v;

    if (enc == DW_EH_PE_omit || (enc & DW_EH_PE_indirect))
        return -1;
    if (fmt == DW_EH_PE_uleb128 || fmt == DW_EH_PE_sleb128) {
        if (cfi_read_leb(pp, end, fmt == DW_EH_PE_sleb128, &v) < 0)
            return -1;
    } else {
        if (w == 0 || (size_t)(end - *pp) < w)
            return -1;
        v = rd_le(*pp, w);
        if ((fmt & DW_EH_PE_signed) && w < 8 && (v & (1ULL << (8 * w - 1))))
            v |= ~0ULL << (8 * w);
        *pp += w;
    }
    if (apply) {
        switch (enc & 0x70) {
        case DW_EH_PE_absptr:
            break;
        case DW_EH_PE_pcrel:
            v += field_addr;
            break;
        case DW_EH_PE_datarel:
            if (!datarel)
                return -1;
            v += *datarel;
            break;
        default:            /* textrel, funcrel, aligned: no CFI we read uses them */
            return -1;
        }
    }
    *out = v;
    return 0;
}
