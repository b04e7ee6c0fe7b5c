/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * orc_stubs.c - which stub a vCPU stopped in, from the code at its pc (see
 * orc_stubs.h).  Only what is left of a stub from pc on is decoded, so a
 * vCPU stopped at any of its instructions is read alike; every pattern is a
 * handful of fixed bytes, and nothing else matches.
 */
#include "config.h"

#include <stdbool.h>
#include <string.h>

#include "unwind/orc_stubs.h"
#include "util/xu_le.h"

/* HYPERVISOR_iret's number, and the words xen_iret pushes before it
 * (struct iret_context: rax, r11, rcx, flags, then the iret frame). */
#define PV_HYPERVISOR_IRET 23
#define PV_IRET_PUSHES 4

static bool is_thunk(const uint8_t *c, size_t n)
{
    size_t i = 0;

    if (n >= 5 && c[0] == 0xe8) {
        int32_t rel = (int32_t)xu_le32(c + 1);

        return rel > 0 && rel < 32;             /* the retpoline's call */
    }
    if (n >= 3 && c[0] == 0x0f && c[1] == 0xae && c[2] == 0xe8)
        i = 3;                                  /* lfence */
    if (i < n && (c[i] == 0x2e || c[i] == 0x3e))
        i++;                                    /* branch hint */
    if (i < n && c[i] == 0x41)
        i++;                                    /* r8-r15 */
    return i + 1 < n && c[i] == 0xff && (c[i + 1] & 0xf8) == 0xe0;
}

/* "pop %rcx; pop %r11; jmp TARGET", from any of its instructions.  A jump
 * alone matches too: the walk takes it only to an entry whose tables say
 * an interrupt frame is at sp (unwind_orc.c). */
static bool is_pv_trap(const uint8_t *c, size_t n, uint64_t pc, struct xu_orc_stub *out)
{
    size_t i = 0;

    out->pops = 0;
    if (i < n && c[i] == 0x59) {                /* pop %rcx */
        i++;
        out->pops++;
    }
    if (i + 1 < n && c[i] == 0x41 && c[i + 1] == 0x5b) {    /* pop %r11 */
        i += 2;
        out->pops++;
    } else if (out->pops) {
        return false;                           /* the pair, or neither */
    }
    if (i + 5 <= n && c[i] == 0xe9) {
        out->target = pc + i + 5 + (uint64_t)(int64_t)(int32_t)xu_le32(c + i + 1);
        return true;
    }
    if (i + 2 <= n && c[i] == 0xeb) {
        out->target = pc + i + 2 + (uint64_t)(int64_t)(int8_t)c[i + 1];
        return true;
    }
    return false;
}

/* "push $0; push %rcx; push %r11; push %rax; mov $23,%eax; syscall", from
 * any of its instructions: the iret frame lies above what is still to be
 * pushed, less what was. */
static bool is_pv_iret(const uint8_t *c, size_t n, struct xu_orc_stub *out)
{
    static const uint8_t pushes[][2] = { { 0x6a, 0x00 }, { 0x51, 0 }, { 0x41, 0x53 },
                                         { 0x50, 0 } };
    static const uint8_t lens[] = { 2, 1, 2, 1 };
    static const uint8_t call[] = { 0xb8, PV_HYPERVISOR_IRET, 0, 0, 0, 0x0f, 0x05 };
    unsigned int k, first = PV_IRET_PUSHES;
    size_t i = 0;

    /* the first push code begins with, then every one after it */
    for (k = 0; k < PV_IRET_PUSHES && first == PV_IRET_PUSHES; k++)
        if (n >= lens[k] && memcmp(c, pushes[k], lens[k]) == 0)
            first = k;
    for (k = first; k < PV_IRET_PUSHES; k++) {
        if (i + lens[k] > n || memcmp(c + i, pushes[k], lens[k]) != 0)
            return false;
        i += lens[k];
    }
    if (i + sizeof(call) > n || memcmp(c + i, call, sizeof(call)) != 0)
        return false;
    out->frame = 8 * first;
    return true;
}

enum xu_orc_stub_kind xu_orc_stub_decode(const uint8_t *code, size_t n, uint64_t pc,
                                         struct xu_orc_stub *out)
{
    memset(out, 0, sizeof(*out));
    if (is_thunk(code, n))
        out->kind = XU_ORC_STUB_THUNK;
    else if (is_pv_trap(code, n, pc, out))
        out->kind = XU_ORC_STUB_PV_TRAP;
    else if (is_pv_iret(code, n, out))
        out->kind = XU_ORC_STUB_PV_IRET;
    return out->kind;
}
