/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cfi_scan.c - a CFI program checked before libdw runs it (see
 * cfi_program_ok() in cfi_priv.h).
 *
 * Only the operands are decoded, to find each register operand and the
 * next instruction; nothing is interpreted.  An opcode this file does not
 * know makes the program unsafe: libdw would reject it as well.
 */
#include "config.h"

#include <dwarf.h>
#include <stdbool.h>
#include <stdint.h>

#include "cfi_priv.h"

static bool leb(const uint8_t **pp, const uint8_t *end, uint64_t *out)
{
    const uint8_t *p = *pp;
    uint64_t v = 0;
    unsigned int shift = 0;
    uint8_t byte;

    do {
        if (p >= end)
            return false;
        byte = *p++;
        if (shift < 64)
            v |= (uint64_t)(byte & 0x7f) << shift;
        shift += 7;
    } while (byte & 0x80);
    *pp = p;
    *out = v;
    return true;
}

static bool reg(const uint8_t **pp, const uint8_t *end)
{
    uint64_t r;

    return leb(pp, end, &r) && r <= CFI_MAX_DWARF_REG;
}

static bool skip(const uint8_t **pp, const uint8_t *end, uint64_t n)
{
    if ((uint64_t)(end - *pp) < n)
        return false;
    *pp += n;
    return true;
}

/* An expression block: its length, then its bytes. */
static bool block(const uint8_t **pp, const uint8_t *end)
{
    uint64_t len;

    return leb(pp, end, &len) && skip(pp, end, len);
}

static unsigned int addr_width(uint8_t enc)
{
    switch (enc & 0x0f) {
    case DW_EH_PE_udata2: case DW_EH_PE_sdata2: return 2;
    case DW_EH_PE_udata4: case DW_EH_PE_sdata4: return 4;
    case DW_EH_PE_absptr: case DW_EH_PE_udata8: case DW_EH_PE_sdata8: return 8;
    default: return 0;      /* LEB128: read as such */
    }
}

bool cfi_program_ok(const uint8_t *p, const uint8_t *end, uint8_t addr_enc)
{
    uint64_t v;

    while (p < end) {
        uint8_t op = *p++;
        bool ok;

        switch (op & 0xc0) {
        case DW_CFA_advance_loc:
            continue;
        case DW_CFA_offset:             /* register in the low 6 bits */
            if (!leb(&p, end, &v))
                return false;
            continue;
        case DW_CFA_restore:
            continue;
        }
        switch (op) {
        case DW_CFA_nop:
        case DW_CFA_remember_state:
        case DW_CFA_restore_state:
        case DW_CFA_GNU_window_save:    /* AArch64's negate_ra_state */
            ok = true;
            break;
        case DW_CFA_set_loc:
            ok = addr_width(addr_enc) ? skip(&p, end, addr_width(addr_enc))
                                      : leb(&p, end, &v);
            break;
        case DW_CFA_advance_loc1: ok = skip(&p, end, 1); break;
        case DW_CFA_advance_loc2: ok = skip(&p, end, 2); break;
        case DW_CFA_advance_loc4: ok = skip(&p, end, 4); break;
        case DW_CFA_def_cfa_offset:
        case DW_CFA_def_cfa_offset_sf:
        case DW_CFA_GNU_args_size:
            ok = leb(&p, end, &v);
            break;
        case DW_CFA_restore_extended:
        case DW_CFA_undefined:
        case DW_CFA_same_value:
        case DW_CFA_def_cfa_register:
            ok = reg(&p, end);
            break;
        case DW_CFA_offset_extended:
        case DW_CFA_offset_extended_sf:
        case DW_CFA_def_cfa:
        case DW_CFA_def_cfa_sf:
        case DW_CFA_val_offset:
        case DW_CFA_val_offset_sf:
        case DW_CFA_GNU_negative_offset_extended:
            ok = reg(&p, end) && leb(&p, end, &v);
            break;
        case DW_CFA_register:
            ok = reg(&p, end) && reg(&p, end);
            break;
        case DW_CFA_def_cfa_expression:
            ok = block(&p, end);
            break;
        case DW_CFA_expression:
        case DW_CFA_val_expression:
            ok = reg(&p, end) && block(&p, end);
            break;
        default:
            ok = false;
            break;
        }
        if (!ok)
            return false;
    }
    return true;
}
