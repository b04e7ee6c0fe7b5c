/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ehabi_interp.c - the ARM EHABI unwind instructions (EHABI section 10.3)
 * and the walk that runs them frame after frame (see xu_ehabi.h).
 *
 *   00xxxxxx           vsp += (x << 2) + 4
 *   01xxxxxx           vsp -= (x << 2) + 4
 *   10000000 00000000  refuse to unwind
 *   1000iiii iiiiiiii  pop r4-r15 under the mask (bit 0 = r4)
 *   1001nnnn           vsp = r[n] (n 13 and 15 reserved)
 *   10100nnn           pop r4-r[4+n]
 *   10101nnn           pop r4-r[4+n], r14
 *   10110000           finish
 *   10110001 0000iiii  pop r0-r3 under the mask (0 and other values spare)
 *   10110010 uleb128   vsp += 0x204 + (uleb128 << 2)
 *   10110011 sssscccc  pop VFP d[s]-d[s+c] saved by FSTMFDX: vsp += 8c + 12
 *   101101nn           spare
 *   10111nnn           pop VFP d8-d[8+n] saved by FSTMFDX: vsp += 8n + 12
 *   11000nnn (n < 6)   pop iWMMXt wR10-wR[10+n]: vsp += 8n + 8
 *   11000110 sssscccc  pop iWMMXt wR[s]-wR[s+c]: vsp += 8c + 8
 *   11000111 0000iiii  pop iWMMXt wCGR under the mask: vsp += 4 per bit
 *   11001000 sssscccc  pop VFP d[16+s]-d[16+s+c] (VPUSH): vsp += 8c + 8
 *   11001001 sssscccc  pop VFP d[s]-d[s+c] (VPUSH): vsp += 8c + 8
 *   11010nnn           pop VFP d8-d[8+n] (VPUSH): vsp += 8n + 8
 *   anything else      spare
 * Coprocessor registers are not kept: only vsp moves past them.  A spare
 * or reserved instruction is INVALID, never skipped: the rest would be
 * read out of step.
 */
#include "config.h"

#include "unwind/xu_ehabi.h"

/* A single frame larger than this is taken as corruption, not a stack. */
#define MAX_FRAME_BYTES (64u << 20)
/* Registers a call does not preserve (AAPCS): r0-r3, r12, and lr. */
#define CLOBBERED ((1u << 0) | (1u << 1) | (1u << 2) | (1u << 3) | (1u << 12) | (1u << 14))

struct vm {
    struct xu_ehabi_regs *regs;
    uint32_t vsp;
    bool pc_set;
    xu_ehabi_read_word read_word;
    void *ctx;
};

/* Pop the registers in mask (bit n: r[n]), lowest from the lowest address. */
static enum xu_ehabi_status pop(struct vm *vm, uint32_t mask)
{
    uint32_t addr = vm->vsp, loaded_sp = 0;
    unsigned int r;

    for (r = 0; r < 16; r++) {
        uint32_t w;

        if (!(mask & (1u << r)))
            continue;
        if (vm->read_word(vm->ctx, addr, &w) < 0)
            return XU_EHABI_FAULT;
        addr += 4;
        if (r == 13)
            loaded_sp = w;
        else
            vm->regs->r[r] = w;
        vm->regs->known |= (uint16_t)(1u << r);
        if (r == 15)
            vm->pc_set = true;
    }
    /* a popped sp replaces vsp; otherwise vsp is past the words read */
    vm->vsp = (mask & (1u << 13)) ? loaded_sp : addr;
    return XU_EHABI_DONE;
}

/* vsp += 0x204 + (uleb128 << 2): at most five bytes of a 32-bit value. */
static enum xu_ehabi_status add_uleb(struct vm *vm, const uint8_t *ops, size_t n, size_t *i)
{
    uint32_t v = 0;
    unsigned int shift;

    for (shift = 0; shift < 35; shift += 7) {
        uint8_t b;

        if (*i >= n)
            return XU_EHABI_INVALID;
        b = ops[(*i)++];
        v |= (uint32_t)(b & 0x7fu) << shift;
        if (!(b & 0x80u)) {
            vm->vsp += 0x204u + (v << 2);
            return XU_EHABI_DONE;
        }
    }
    return XU_EHABI_INVALID;
}

static unsigned int popcount4(uint32_t v)
{
    return (v & 1) + ((v >> 1) & 1) + ((v >> 2) & 1) + ((v >> 3) & 1);
}

/* The instructions that take a second byte, b; op is 0x80-0xff. */
static enum xu_ehabi_status two_bytes(struct vm *vm, uint8_t op, uint8_t b)
{
    if ((op & 0xf0u) == 0x80u) {
        uint32_t mask = ((uint32_t)(op & 0x0fu) << 8 | b) << 4;

        return mask ? pop(vm, mask) : XU_EHABI_REFUSED;
    }
    switch (op) {
    case 0xb1:
        if (b == 0 || (b & 0xf0u))
            return XU_EHABI_INVALID;
        return pop(vm, b);
    case 0xb3:
        vm->vsp += 8u * ((b & 0xfu) + 1) + 4;
        return XU_EHABI_DONE;
    case 0xc6:
    case 0xc8:
    case 0xc9:
        vm->vsp += 8u * ((b & 0xfu) + 1);
        return XU_EHABI_DONE;
    case 0xc7:
        if (b == 0 || (b & 0xf0u))
            return XU_EHABI_INVALID;
        vm->vsp += 4u * popcount4(b);
        return XU_EHABI_DONE;
    }
    return XU_EHABI_INVALID;
}

static bool takes_byte(uint8_t op)
{
    return (op & 0xf0u) == 0x80u || op == 0xb1 || op == 0xb3 || op == 0xc6 || op == 0xc7 ||
           op == 0xc8 || op == 0xc9;
}

/* One instruction at ops[*i]: DONE to go on (*finished at "finish"). */
static enum xu_ehabi_status step(struct vm *vm, const uint8_t *ops, size_t n, size_t *i,
                                 bool *finished)
{
    uint8_t op = ops[(*i)++];
    unsigned int r;

    if ((op & 0xc0u) == 0x00u) {
        vm->vsp += ((uint32_t)(op & 0x3fu) << 2) + 4;
        return XU_EHABI_DONE;
    }
    if ((op & 0xc0u) == 0x40u) {
        vm->vsp -= ((uint32_t)(op & 0x3fu) << 2) + 4;
        return XU_EHABI_DONE;
    }
    if (takes_byte(op)) {
        if (*i >= n)
            return XU_EHABI_INVALID;
        return two_bytes(vm, op, ops[(*i)++]);
    }
    if ((op & 0xf0u) == 0x90u) {
        r = op & 0xfu;
        if (r == 13 || r == 15 || !(vm->regs->known & (1u << r)))
            return XU_EHABI_INVALID;
        vm->vsp = vm->regs->r[r];
        return XU_EHABI_DONE;
    }
    if ((op & 0xf0u) == 0xa0u)      /* r4-r[4+n], and r14 with bit 3 */
        return pop(vm, (((1u << ((op & 7u) + 1)) - 1) << 4) | ((op & 8u) ? 1u << 14 : 0));
    if (op == 0xb0) {
        *finished = true;
        return XU_EHABI_DONE;
    }
    if (op == 0xb2)
        return add_uleb(vm, ops, n, i);
    if ((op & 0xf8u) == 0xb8u) {
        vm->vsp += 8u * ((op & 7u) + 1) + 4;
        return XU_EHABI_DONE;
    }
    if ((op & 0xf8u) == 0xc0u || (op & 0xf8u) == 0xd0u) {   /* c6, c7 took a byte above */
        vm->vsp += 8u * ((op & 7u) + 1);
        return XU_EHABI_DONE;
    }
    return XU_EHABI_INVALID;
}

enum xu_ehabi_status xu_ehabi_exec(const uint8_t *ops, size_t n, struct xu_ehabi_regs *regs,
                                   xu_ehabi_read_word read_word, void *ctx)
{
    struct vm vm = { .regs = regs, .vsp = regs->r[13], .read_word = read_word, .ctx = ctx };
    bool finished = false;
    size_t i = 0;

    /* each instruction consumes at least one byte: at most n turns */
    while (i < n && !finished) {
        enum xu_ehabi_status st = step(&vm, ops, n, &i, &finished);

        if (st != XU_EHABI_DONE)
            return st;
    }
    regs->r[13] = vm.vsp;
    regs->known |= 1u << 13;
    if (!vm.pc_set) {
        if (!(regs->known & (1u << 14)))
            return XU_EHABI_INVALID;
        regs->r[15] = regs->r[14];
    }
    regs->known |= 1u << 15;
    return XU_EHABI_DONE;
}

static enum xu_walk_end end_of(enum xu_ehabi_status st)
{
    switch (st) {
    case XU_EHABI_REFUSED: return XU_WALK_CFI_ROOT;
    case XU_EHABI_FAULT:   return XU_WALK_UNMAPPED;
    default:               return XU_WALK_BAD_FRAME;
    }
}

/*
 * Entry code with no table entry (assembly, as a kernel's start) that has
 * cleared a frame pointer, r11 of ARM code or r7 of Thumb-2, before its
 * first call: the end of the chain, as for the frame-pointer walk.  The
 * callee-saved registers the tables restored say what they held there;
 * whether that frame is a root is the ELF's to vouch for.
 */
static bool zeroed_frame_pointer(const struct xu_ehabi_regs *r)
{
    return ((r->known & (1u << 11)) && r->r[11] == 0) || ((r->known & (1u << 7)) && r->r[7] == 0);
}

void xu_ehabi_walk(const struct xu_ehabi_table *t, const struct xu_ehabi_regs *regs,
                   xu_ehabi_read_word read_word, void *ctx, uint64_t *pcs,
                   unsigned int max_depth, struct xu_unwind_result *out)
{
    struct xu_ehabi_regs r = *regs;
    uint32_t pc = r.r[15] & ~1u, sp = r.r[13];
    unsigned int depth = 0;
    enum xu_walk_end end;
    bool exact = true;

    if (max_depth == 0) {
        end = XU_WALK_DEPTH;
        goto out;
    }
    pcs[depth++] = pc;
    for (;;) {
        uint8_t ops[XU_EHABI_MAX_OPS];
        enum xu_ehabi_kind kind;
        enum xu_ehabi_status st;
        uint32_t start, ra, next_sp;
        size_t n;

        /* a return address follows its call: pc - 1 is in the caller */
        if (!xu_ehabi_find(t, exact ? pc : pc - 1, &start, &kind, ops, &n) ||
            kind == XU_EHABI_BAD) {
            end = zeroed_frame_pointer(&r) ? XU_WALK_COMPLETE : XU_WALK_BAD_FRAME;
            break;
        }
        if (kind == XU_EHABI_CANTUNWIND) {
            end = XU_WALK_CFI_ROOT;
            break;
        }
        st = xu_ehabi_exec(ops, n, &r, read_word, ctx);
        if (st != XU_EHABI_DONE) {
            end = end_of(st);
            break;
        }
        ra = r.r[15] & ~1u;
        next_sp = r.r[13];
        if (ra == 0) {
            end = XU_WALK_COMPLETE;
            break;
        }
        /* sp rises; only the innermost frame (a leaf, its return address
         * still in lr) may leave it where it was */
        if (next_sp < sp || (next_sp == sp && depth != 1) || next_sp - sp > MAX_FRAME_BYTES) {
            end = XU_WALK_BAD_FRAME;
            break;
        }
        if (depth == max_depth) {
            end = XU_WALK_DEPTH;
            break;
        }
        pcs[depth++] = ra;
        pc = ra;
        sp = next_sp;
        exact = false;
        r.known &= (uint16_t)~CLOBBERED;
    }
out:
    out->depth = depth;
    out->end = end;
}
