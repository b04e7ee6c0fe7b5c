/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fuzz_unwind_arm32.c - the frame-pointer walk on an AArch32 guest, whose
 * records lie where each function's prologue puts them: the prologues (the
 * ELF's code), which functions are Thumb-2, the registers and the stack
 * all come from the input.
 *
 * Input, little-endian: flags (u8: bit 0 the vCPU in Thumb state, bit 1
 * the ELF's code known, bit 2 function starts known, bit 3 the auto
 * unwinder without CFI rows, which takes the same records a step at a
 * time), a Thumb mask (u8:
 * bit i, function i is Thumb-2), max depth (u8, 0 = MAX_DEPTH), ip, sp,
 * r7, r11, lr (u32 each), then CODE_BYTES of code (NR_FUNCS functions of
 * FUNC_BYTES at TEXT), then guest-physical memory from 0 (the MMU off:
 * virtual = physical).  The walk must stay within its depth and start at
 * ip, whatever the prologues and the chain.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "fuzz_sim.h"
#include "arch/xu_arch.h"
#include "mem/xu_mem.h"
#include "unwind/xu_unwind.h"
#ifdef HAVE_LIBDW
#include "unwind/xu_cfi.h"
#endif

#define NR_FRAMES 16
#define MAX_DEPTH 64
#define TEXT 0x8000u
#define NR_FUNCS 8
#define FUNC_BYTES 64u
#define CODE_BYTES (NR_FUNCS * FUNC_BYTES)
#define HEADER (3 + 5 * 4)

struct elf {
    const uint8_t *code;        /* CODE_BYTES */
    uint8_t thumb_mask;
};

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static const uint8_t *code_at(const void *ctx, uint64_t addr, size_t len)
{
    const struct elf *e = ctx;

    if (addr < TEXT + len || addr > TEXT + CODE_BYTES)
        return NULL;
    return e->code + (addr - TEXT - len);
}

static bool func_start(const void *ctx, uint64_t pc, uint64_t *start, bool *thumb)
{
    const struct elf *e = ctx;
    unsigned int i;

    if (pc < TEXT || pc >= TEXT + CODE_BYTES)
        return false;
    i = (unsigned int)((pc - TEXT) / FUNC_BYTES);
    *start = TEXT + FUNC_BYTES * i;
    if (thumb)
        *thumb = (e->thumb_mask >> i) & 1;
    return true;
}

struct walk {
    const struct xu_unwinder_ops *u;
    const struct xu_unwind_env *env;
    const struct xu_vcpu_regs *r;
    unsigned int max_depth;
};

static void walk_on(void *ctx, struct xu_mem *m)
{
    const struct walk *w = ctx;
    struct xu_unwind_result res;
    uint64_t pcs[MAX_DEPTH];

    w->u->walk(w->env, m, w->r, pcs, w->max_depth, &res);
    if (res.depth > w->max_depth || res.depth == 0 || pcs[0] != w->r->ip)
        abort();
}

static void walk(const struct xu_unwinder_ops *u, const struct xu_unwind_env *env,
                 const struct xu_vcpu_regs *r, unsigned int max_depth, const uint8_t *mem,
                 size_t len)
{
    const struct walk w = { u, env, r, max_depth };

    xu_fuzz_on_sim(&xu_arch_arm32, NR_FRAMES, mem, len, r, walk_on, (void *)&w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct xu_unwind_env env;
    struct xu_vcpu_regs r;
    const struct xu_unwinder_ops *u;
    struct elf e;
    unsigned int depth;
    bool thumb;

    if (size < HEADER + CODE_BYTES)
        return 0;
    thumb = data[0] & 1;
    e.thumb_mask = data[1];
    e.code = data + HEADER;
    depth = data[2] && data[2] <= MAX_DEPTH ? data[2] : MAX_DEPTH;
    memset(&env, 0, sizeof(env));
    if (data[0] & 2) {
        env.code = code_at;
        env.code_ctx = &e;
    }
    if (data[0] & 4) {
        env.func_start = func_start;
        env.func_ctx = &e;
    }
    memset(&r, 0, sizeof(r));
    r.online = true;
    r.kernel_mode = true;
    r.mmu.paging = XU_PAGING_NONE;
    r.cpsr = 0x13u | (thumb ? 0x20u : 0);
    r.ip = r.r32[15] = le32(data + 3);
    r.sp = r.r32[13] = le32(data + 7);
    r.r32[7] = le32(data + 11);
    r.r32[11] = le32(data + 15);
    r.lr = r.r32[14] = le32(data + 19);
    r.fp = thumb ? r.r32[7] : r.r32[11];
    u = &xu_unwind_fp_ops;
#ifdef HAVE_LIBDW
    if (data[0] & 8)
        u = &xu_unwind_auto_ops;
#endif
    walk(u, &env, &r, depth, data + HEADER + CODE_BYTES, size - HEADER - CODE_BYTES);
    return 0;
}
