/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * frame.c - where an AArch32 function keeps its frame record, read from its
 * prologue.
 *
 * Compilers lay frame records out three ways on ARM, and which one a frame
 * has cannot be read from the stack:
 *   clang, ARM:    push {..., r11, lr}; add r11, sp, #4*k (r11's slot)
 *                  -> r11 points at {caller's r11, lr}          (RECORD)
 *   clang, Thumb-2: push {..., r7, lr}; add r7, sp, #4*k
 *                  -> r7 points at {caller's r7, lr}            (RECORD)
 *   GCC, ARM:      push {..., fp, lr}; add fp, sp, #4*(n-1) (lr's slot)
 *                  -> fp points at lr, the caller's fp below it (GCC_ARM)
 *   GCC, -mapcs-frame: mov ip, sp; push {..., fp, ip, lr, pc};
 *                  sub fp, ip, #4 -> fp points at the saved pc, lr at
 *                  fp-4, the caller's fp at fp-12               (APCS)
 *   GCC, a leaf:   push {fp}; add fp, sp, #0 (Thumb-2: push {r7}; ...)
 *                  -> fp points at the caller's fp; lr is never saved,
 *                  so the return address is the link register's, which
 *                  only the innermost frame can read             (LEAF)
 *   GCC, Thumb-2:  push {r7, lr}; sub sp, #n; add r7, sp, #0
 *                  -> r7 points below the locals, {r7, lr} n bytes above
 *                  it (THUMB_LOCALS); with push.w {r4-r11, lr}, r8-r11
 *                  lie between the saved r7 and lr
 * So the layout is told per function, not per image: the function
 * containing the PC (its start a function symbol, whose bit 0 says Thumb-2,
 * the instruction set to decode) is read from its start, and the pushes,
 * stack adjustments and frame-pointer set-up before the PC give the
 * offsets of the saved fp and lr from the frame pointer.  A compiler's
 * .comment ("GCC: ", "clang version") says the same for a whole image but
 * not for its assembly or for mixed objects, and cannot tell -mapcs-frame,
 * so it is not what is used.  A chain crossing between ARM and Thumb-2
 * code changes frame-pointer register (r11, r7): the saved value in a
 * record is the saver's register, so each step's prologue says which.
 *
 * The code is the ELF's, but an ELF is hostile too: at most
 * XU_ARM32_PROLOGUE_BYTES are read, and an instruction that writes sp or
 * the frame pointer in a way not understood ends the reading (-1).
 */
#include "config.h"

#include "frame.h"

struct scan {
    uint32_t depth;             /* bytes below the entry sp */
    int32_t fp_slot, lr_slot, pc_slot;  /* entry-relative; 1 = not saved */
    int32_t ip;                 /* APCS: ip = sp at this depth (entry-relative), 1 = unset */
    int32_t fp_val;             /* the frame pointer, entry-relative, once set */
    bool fp_set;
};

#define UNSET 1

static uint32_t ror32(uint32_t v, unsigned int r)
{
    r &= 31;
    return r ? (v >> r) | (v << (32 - r)) : v;
}

static unsigned int popcount16(uint32_t v)
{
    unsigned int n = 0;

    for (v &= 0xffffu; v; v &= v - 1)
        n++;
    return n;
}

/* A push of the registers in list (bit r = register r): lowest at the lowest address. */
static bool push(struct scan *s, uint32_t list, unsigned int fp_reg)
{
    unsigned int r, rank = 0, n = popcount16(list);

    if (n == 0 || s->depth > 0x10000u)
        return false;
    s->depth += 4 * n;
    for (r = 0; r < 16; r++) {
        int32_t at;

        if (!(list & (1u << r)))
            continue;
        at = -(int32_t)s->depth + 4 * (int32_t)rank++;
        if (r == fp_reg)
            s->fp_slot = at;
        else if (r == 14)
            s->lr_slot = at;
        else if (r == 15)
            s->pc_slot = at;
    }
    return true;
}

static bool sub_sp(struct scan *s, uint32_t bytes)
{
    if (bytes > 0x100000u || s->depth > 0x100000u)
        return false;
    s->depth += bytes;
    return true;
}

static void set_fp(struct scan *s, int32_t val)
{
    s->fp_val = val;
    s->fp_set = true;
}

/* One ARM instruction: false when it ends the reading. */
static bool arm_insn(struct scan *s, uint32_t insn)
{
    uint32_t imm = ror32(insn & 0xffu, 2 * ((insn >> 8) & 0xfu));

    if ((insn & 0xffff0000u) == 0xe92d0000u)            /* push {list} */
        return push(s, insn & 0xffffu, 11);
    if ((insn & 0xffff0fffu) == 0xe52d0004u)            /* str rt, [sp, #-4]!: push {rt} */
        return ((insn >> 12) & 0xfu) != 13 && push(s, 1u << ((insn >> 12) & 0xfu), 11);
    if ((insn & 0xfffff000u) == 0xe24dd000u)            /* sub sp, sp, #imm */
        return sub_sp(s, imm);
    if ((insn & 0xffbf0f00u) == 0xed2d0b00u)            /* vpush {d...} */
        return sub_sp(s, 4 * (insn & 0xffu));
    if (insn == 0xe1a0c00du) {                          /* mov ip, sp */
        s->ip = -(int32_t)s->depth;
        return true;
    }
    if ((insn & 0xfffff000u) == 0xe28db000u) {          /* add fp, sp, #imm */
        set_fp(s, -(int32_t)s->depth + (int32_t)imm);
        return true;
    }
    if (insn == 0xe1a0b00du) {                          /* mov fp, sp */
        set_fp(s, -(int32_t)s->depth);
        return true;
    }
    if ((insn & 0xfffff000u) == 0xe24cb000u && s->ip != UNSET) {   /* sub fp, ip, #imm */
        set_fp(s, s->ip - (int32_t)imm);
        return true;
    }
    /* any other data-processing write to sp or fp: not a prologue read here */
    if ((insn & 0x0c000000u) == 0 && (((insn >> 12) & 0xfu) == 13 || ((insn >> 12) & 0xfu) == 11))
        return false;
    return true;
}

/* One Thumb-2 instruction (hw1, and hw2 when 32-bit): false when it ends the reading. */
static bool thumb_insn(struct scan *s, uint32_t hw1, uint32_t hw2, bool wide)
{
    if (!wide) {
        if ((hw1 & 0xfe00u) == 0xb400u)                 /* push {rlist[, lr]} */
            return push(s, (hw1 & 0xffu) | ((hw1 & 0x100u) ? 1u << 14 : 0), 7);
        if ((hw1 & 0xff80u) == 0xb080u)                 /* sub sp, #imm7*4 */
            return sub_sp(s, 4 * (hw1 & 0x7fu));
        if ((hw1 & 0xff00u) == 0xaf00u) {               /* add r7, sp, #imm8*4 */
            set_fp(s, -(int32_t)s->depth + 4 * (int32_t)(hw1 & 0xffu));
            return true;
        }
        if (hw1 == 0x466fu) {                           /* mov r7, sp */
            set_fp(s, -(int32_t)s->depth);
            return true;
        }
        /* other writes of r7 or sp: mov r7/sp, rm; add sp, rm */
        if ((hw1 & 0xff87u) == 0x4607u || (hw1 & 0xff87u) == 0x4485u ||
            (hw1 & 0xff87u) == 0x4685u || (hw1 & 0xff00u) == 0x2700u)
            return false;
        return true;
    }
    if (hw1 == 0xe92du && !(hw2 & 0xa000u))             /* push.w {list} */
        return push(s, hw2, 7);
    if (hw1 == 0xf84du && (hw2 & 0x0fffu) == 0x0d04u)   /* str.w rt, [sp, #-4]!: push {rt} */
        return (hw2 >> 12) != 13 && (hw2 >> 12) != 15 && push(s, 1u << (hw2 >> 12), 7);
    if ((hw1 & 0xfbffu) == 0xf2adu && (hw2 & 0x8f00u) == 0x0d00u)   /* subw sp, sp, #imm12 */
        return sub_sp(s, ((hw1 & 0x400u) << 1) | ((hw2 & 0x7000u) >> 4) | (hw2 & 0xffu));
    if ((hw1 & 0xfbefu) == 0xf1adu && (hw2 & 0xff00u) == 0x0d00u && !(hw1 & 0x400u))
        return sub_sp(s, hw2 & 0xffu);                  /* sub.w sp, sp, #imm8 */
    if (hw1 == 0xed2du && (hw2 & 0x0f00u) == 0x0b00u)   /* vpush {d...} */
        return sub_sp(s, 4 * (hw2 & 0xffu));
    if ((hw1 & 0xfbefu) == 0xf10du && (hw2 & 0xff00u) == 0x0700u && !(hw1 & 0x400u)) {
        set_fp(s, -(int32_t)s->depth + (int32_t)(hw2 & 0xffu));     /* add.w r7, sp, #imm8 */
        return true;
    }
    return true;
}

static uint32_t le16(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

static bool scan_code(struct scan *s, const uint8_t *code, size_t end, bool thumb)
{
    size_t i = 0;

    while (i < end && !s->fp_set) {
        if (thumb) {
            uint32_t hw1 = le16(code + i);
            bool wide = (hw1 >> 11) >= 0x1du;

            if (wide && i + 4 > end)
                break;
            if (!thumb_insn(s, hw1, wide ? le16(code + i + 2) : 0, wide))
                return false;
            i += wide ? 4 : 2;
        } else {
            if (i + 4 > end)
                break;
            if (!arm_insn(s, le16(code + i) | le16(code + i + 2) << 16))
                return false;
            i += 4;
        }
    }
    return s->fp_set;
}

static enum xu_arm32_layout classify(const struct scan *s, bool thumb, int32_t fp_off,
                                     int32_t ra_off)
{
    if (fp_off == 0 && ra_off == 4)
        return XU_ARM32_FP_RECORD;
    /* GCC's Thumb-2 code pushes r8-r11 between r7 and lr when it saves
     * them (push.w {r4-r11, lr}): lr need not follow r7's slot */
    if (thumb)
        return fp_off >= 0 && ra_off > fp_off ? XU_ARM32_FP_THUMB_LOCALS : XU_ARM32_FP_NONE;
    if (ra_off == 0 && fp_off == -4)
        return XU_ARM32_FP_GCC_ARM;
    if (s->pc_slot != UNSET && s->pc_slot == s->fp_val && ra_off == -4 && fp_off == -12)
        return XU_ARM32_FP_APCS;
    return XU_ARM32_FP_NONE;
}

int xu_arm32_prologue_record(const uint8_t *code, size_t len, size_t upto, bool thumb,
                             struct xu_arm32_record *out)
{
    struct scan s = { .fp_slot = UNSET, .lr_slot = UNSET, .pc_slot = UNSET, .ip = UNSET };
    size_t end = len < upto ? len : upto;
    int32_t fp_off, ra_off;

    if (end > XU_ARM32_PROLOGUE_BYTES)
        end = XU_ARM32_PROLOGUE_BYTES;
    if (!code || !scan_code(&s, code, end, thumb) || s.fp_slot == UNSET)
        return -1;
    if (s.lr_slot == UNSET && s.pc_slot == UNSET) {
        /* the frame pointer saved and set, lr never: a leaf's frame, fp
         * at the saved fp (ARM) or below its locals (Thumb-2) */
        if (thumb ? s.fp_slot < s.fp_val : s.fp_slot != s.fp_val)
            return -1;
        out->layout = XU_ARM32_FP_LEAF;
        out->fp_reg = thumb ? 7 : 11;
        out->fp_off = s.fp_slot - s.fp_val;
        out->ra_off = 0;
        return 0;
    }
    if (s.lr_slot == UNSET)
        return -1;
    fp_off = s.fp_slot - s.fp_val;
    ra_off = s.lr_slot - s.fp_val;
    out->layout = classify(&s, thumb, fp_off, ra_off);
    if (out->layout == XU_ARM32_FP_NONE)
        return -1;
    out->fp_reg = thumb ? 7 : 11;
    out->fp_off = fp_off;
    out->ra_off = ra_off;
    return 0;
}

int xu_arm32_frame_step(const struct xu_arm32_record *rec, uint32_t fp,
                        int (*read_word)(void *ctx, uint32_t addr, uint32_t *word), void *ctx,
                        uint32_t *next_fp, uint32_t *ra)
{
    int64_t fp_at = (int64_t)fp + rec->fp_off, ra_at = (int64_t)fp + rec->ra_off;

    if (rec->layout == XU_ARM32_FP_LEAF || (fp & 3) || fp_at < 0 || ra_at < 0 ||
        fp_at > UINT32_MAX - 3 || ra_at > UINT32_MAX - 3)
        return -1;
    if (read_word(ctx, (uint32_t)fp_at, next_fp) < 0 || read_word(ctx, (uint32_t)ra_at, ra) < 0)
        return -1;
    return 0;
}

/*
 * ARM: BL (cond 1011, not the unconditional space), BLX imm, BLX Rm.
 * Thumb-2: BL / BLX imm (32-bit: hw1 11110..., hw2 11x1 / 11x0), BLX Rm
 * (16-bit, 010001111...).  A return address has lost its Thumb bit here,
 * so the bytes are read both ways: that can only accept more, never reject
 * a real call.
 */
bool xu_arm32_follows_call(const uint8_t *before, size_t n)
{
    uint32_t insn, hw1, hw2, last;

    if (n < 4)
        return false;
    hw1 = le16(before + n - 4);
    hw2 = le16(before + n - 2);
    insn = hw1 | hw2 << 16;
    last = hw2;
    if ((insn & 0x0f000000u) == 0x0b000000u && (insn >> 28) != 0xfu)
        return true;                                    /* BL */
    if ((insn & 0xfe000000u) == 0xfa000000u)            /* BLX imm */
        return true;
    if ((insn & 0x0ffffff0u) == 0x012fff30u && (insn >> 28) != 0xfu)
        return true;                                    /* BLX Rm */
    if ((hw1 & 0xf800u) == 0xf000u && (hw2 & 0xc000u) == 0xc000u)
        return true;                                    /* Thumb BL, BLX imm */
    return (last & 0xff87u) == 0x4780u;                 /* Thumb BLX Rm */
}

const char *xu_arm32_layout_name(enum xu_arm32_layout layout)
{
    switch (layout) {
    case XU_ARM32_FP_NONE:          return "none";
    case XU_ARM32_FP_RECORD:        return "{fp, lr}";
    case XU_ARM32_FP_GCC_ARM:       return "gcc-arm";
    case XU_ARM32_FP_APCS:          return "apcs";
    case XU_ARM32_FP_THUMB_LOCALS:  return "gcc-thumb";
    case XU_ARM32_FP_LEAF:          return "leaf";
    }
    return "unknown";
}
