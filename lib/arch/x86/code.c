/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * code.c - x86 machine code the unwinder must recognise, for 64-bit and
 * 32-bit guests alike (the two share their encodings but for the REX.W
 * prefix 64-bit code puts on a stack-pointer move): the stubs Xen writes
 * into a guest's hypercall page, the frame an event or exception leaves on
 * the stack, call instructions before a return address, and the prologues
 * of functions without a frame record.
 *
 * Hypercall page entries are 32 bytes.  Xen writes, for a 64-bit PV guest,
 * "push %rcx; push %r11; mov $nr,%eax; syscall; pop %r11; pop %rcx; ret"
 * (the iret entry pushes %rax too and never returns), for a 32-bit PV
 * guest "mov $nr,%eax; int $0x82; ret" (iret: "push %eax" first), and for
 * PVH/HVM of either width "mov $nr,%eax; vmcall (or vmmcall); ret".
 * Rather than trust the guest type, the entry's own bytes are decoded up
 * to the stopped offset: what was pushed so far sits above the return
 * address, in words of the guest's width.
 */
#include "config.h"

#include <string.h>

#include "code.h"

#define MAX_STUB_WORDS 4

int xu_x86_hypercall_stub(const uint8_t *e, unsigned int off, unsigned int *words)
{
    unsigned int pos = 0, n = 0, len;
    int delta;

    /* at most 32 bytes: each step consumes at least one */
    while (pos < off) {
        const uint8_t *b = e + pos;

        if (pos >= 32)
            return -1;
        delta = 0;
        if (b[0] == 0x50 || b[0] == 0x51) {                 /* push %rax, %rcx */
            len = 1;
            delta = 1;
        } else if (b[0] == 0x58 || b[0] == 0x59) {          /* pop %rax, %rcx */
            len = 1;
            delta = -1;
        } else if (pos + 1 < 32 && b[0] == 0x41 && b[1] == 0x53) {  /* push %r11 */
            len = 2;
            delta = 1;
        } else if (pos + 1 < 32 && b[0] == 0x41 && b[1] == 0x5b) {  /* pop %r11 */
            len = 2;
            delta = -1;
        } else if (b[0] == 0xb8) {                          /* mov $imm32,%eax */
            len = 5;
        } else if (pos + 1 < 32 && b[0] == 0x0f && b[1] == 0x05) {  /* syscall */
            len = 2;
        } else if (pos + 1 < 32 && b[0] == 0xcd && b[1] == 0x82) {  /* int $0x82 */
            len = 2;
        } else if (pos + 2 < 32 && b[0] == 0x0f && b[1] == 0x01 &&
                   (b[2] == 0xc1 || b[2] == 0xd9)) {        /* vmcall, vmmcall */
            len = 3;
        } else {
            return -1;      /* ret, ud2, padding or unknown: nothing stops past them */
        }
        if ((delta < 0 && n == 0) || (delta > 0 && n == MAX_STUB_WORDS))
            return -1;
        n = (unsigned int)((int)n + delta);
        pos += len;
    }
    if (pos != off)
        return -1;          /* inside an instruction: not a stopped vCPU's PC */
    *words = n;
    return 0;
}

/* Bits 63:22 of RFLAGS are reserved (zero), bit 1 is always one, VM (17)
 * is never set in a 64-bit frame. */
#define RFLAGS_FIXED1    (1ULL << 1)
#define RFLAGS_RESERVED  (~((1ULL << 22) - 1))
#define RFLAGS_VM        (1ULL << 17)

static bool canonical48(uint64_t a)
{
    return (uint64_t)((int64_t)(a << 16) >> 16) == a;
}

/*
 * [rip, cs, rflags, rsp, ss]: what a CPU pushes for an interrupt (PVH/HVM)
 * and what Xen's bounce frame ends with above rcx and r11 (PV).  Both are
 * pushed just below the interrupted stack pointer after aligning it down
 * to 16 bytes (the CPU in 64-bit mode; Xen's create_bounce_frame does the
 * same), so the saved rsp lies 40 to 55 bytes above the frame's start:
 * stale words elsewhere on a stack that merely look like a frame do not.
 * (An interrupt taken from user mode or on an IST stack switches stacks;
 * its interrupted code is not the kernel's, which is what we follow.)
 * The saved rsp's place is check enough: code_sel is not needed.
 */
bool xu_x86_interrupt_frame(const uint64_t *w, uint64_t addr, uint64_t code_sel, uint64_t *pc,
                            uint64_t *sp)
{
    (void)code_sel;
    uint64_t rip = w[0], cs = w[1], rflags = w[2], rsp = w[3], ss = w[4];

    if (addr > UINT64_MAX - 40 || rsp - (addr + 40) >= 16)
        return false;
    if (cs == 0 || cs > 0xffff || ss > 0xffff)
        return false;
    if (!(rflags & RFLAGS_FIXED1) || (rflags & (RFLAGS_RESERVED | RFLAGS_VM)))
        return false;
    if (rip == 0 || !canonical48(rip) || rsp == 0 || !canonical48(rsp))
        return false;
    *pc = rip;
    *sp = rsp;
    return true;
}

/* EFLAGS of a 32-bit frame: bits 31:22 reserved, bit 1 always one. */
#define EFLAGS_RESERVED  0xffc00000ULL

/*
 * [eip, cs, eflags]: what a 32-bit CPU pushes for an interrupt taken in
 * the same ring (PVH/HVM kernels), and what Xen's bounce frame for a
 * 32-bit PV kernel in ring 1 ends with.  No stack pointer is pushed
 * without a ring change: the interrupted esp is the word after the frame.
 * (From ring 3 esp and ss follow, but the interrupted code is then not the
 * kernel's, which is what we follow.)  The checks are what the hardware
 * guarantees: a selector in the kernel's rings 0 or 1 that is not null,
 * EFLAGS with bit 1 set and no reserved bit or VM, an EIP that is not 0.
 * And an EIP that is not the selector itself: entry code saves DS and ES
 * side by side (Mini-OS's and Linux's SAVE_ALL), two equal selectors that
 * a kernel linked at 0 (Mini-OS x86_32: 0xe021 is inside its text) would
 * otherwise read as EIP and CS.  With no stack pointer to place it, the
 * frame is only a frame of kernel code interrupted in its own ring when
 * its CS is the one the vCPU's kernel runs with (code_sel, where known):
 * without that, saved registers that look like a selector and flags
 * ([ES, the EAX saved at entry, EIP] with a small EAX) pass too.
 */
bool xu_x86_32_interrupt_frame(const uint64_t *w, uint64_t addr, uint64_t code_sel,
                               uint64_t *pc, uint64_t *sp)
{
    uint64_t eip = w[0], cs = w[1], eflags = w[2];

    if (addr > 0xffffffffULL - 12)
        return false;
    if (cs < 4 || cs > 0xffff || (cs & 3u) > 1 || (code_sel && cs != code_sel))
        return false;
    if (!(eflags & RFLAGS_FIXED1) || (eflags & (EFLAGS_RESERVED | RFLAGS_VM)))
        return false;
    if (eip == 0 || eip > 0xffffffffULL || eip == cs)
        return false;
    *pc = eip;
    *sp = addr + 12;
    return true;
}

/* Length of an "ff /2" (call near, indirect) from its ModRM byte on. */
static unsigned int indirect_call_len(const uint8_t *modrm_and_more, size_t avail)
{
    uint8_t modrm = modrm_and_more[0];
    unsigned int mod = modrm >> 6, rm = modrm & 7, len = 2;    /* ff + modrm */

    if (((modrm >> 3) & 7) != 2)
        return 0;
    if (mod == 3)
        return len;
    if (rm == 4) {                      /* SIB */
        if (avail < 2)
            return 0;
        len++;
        if (mod == 0 && (modrm_and_more[1] & 7) == 5)
            len += 4;                   /* disp32, no base */
    } else if (mod == 0 && rm == 5) {
        len += 4;                       /* rip-relative */
    }
    if (mod == 1)
        len += 1;
    else if (mod == 2)
        len += 4;
    return len;
}

bool xu_x86_follows_call(const uint8_t *before, size_t n)
{
    size_t l;

    if (n >= 5 && before[n - 5] == 0xe8)
        return true;                    /* call rel32 */
    /*
     * A Linux kernel's paravirt call sites are "call *pv_ops+x(%rip)" in the
     * file (ff 15 disp32, six bytes), patched at boot into a direct call (e8
     * rel32, five bytes) and a nop: the return address then lies one byte
     * before the end of the file's instruction.
     */
    if (n >= 5 && before[n - 5] == 0xff && before[n - 4] == 0x15)
        return true;
    /* call *r/m64, perhaps with a REX prefix: 2 to 8 bytes */
    for (l = 2; l <= 8 && l <= n; l++) {
        const uint8_t *b = before + n - l;
        size_t skip = (b[0] >= 0x40 && b[0] <= 0x4f) ? 1 : 0;

        if (l - skip < 2 || b[skip] != 0xff)
            continue;
        if (indirect_call_len(b + skip + 1, l - skip - 1) == l - skip)
            return true;
    }
    return false;
}

/*
 * The encodings that differ between the widths: 64-bit code moves the
 * stack pointer with REX.W (48) before the opcode, 32-bit code with none;
 * the CET landing pads are endbr64 (f3 0f 1e fa) and endbr32 (f3 0f 1e fb).
 */
struct x86_width {
    bool rex;               /* 64-bit: REX prefixes exist (0x40-0x4f are inc/dec otherwise) */
    unsigned int word;      /* bytes per push */
    uint8_t endbr_last;     /* the last byte of this width's endbr */
};

static const struct x86_width width64 = { true, 8, 0xfa };
static const struct x86_width width32 = { false, 4, 0xfb };

static bool is_endbr(const struct x86_width *w, const uint8_t *b, size_t left)
{
    return left >= 4 && b[0] == 0xf3 && b[1] == 0x0f && b[2] == 0x1e && b[3] == w->endbr_last;
}

/* The bytes of the operand-size prefix a stack-pointer instruction of this
 * width needs at b: 1 for a REX with W set in 64-bit code, 0 in 32-bit
 * code; -1 when the 64-bit prefix is missing. */
static int rex_w(const struct x86_width *w, const uint8_t *b, size_t left)
{
    if (!w->rex)
        return 0;
    return left >= 1 && (b[0] & 0xf8) == 0x48 ? 1 : -1;
}

/* "mov %rsp,%rbp" / "mov %esp,%ebp" (89 e5 or 8b ec) at b. */
static bool is_mov_sp_fp(const struct x86_width *w, const uint8_t *b, size_t left)
{
    int p = rex_w(w, b, left);

    if (p < 0 || (w->rex && b[0] != 0x48) || left < (size_t)p + 2)
        return false;
    return (b[p] == 0x89 && b[p + 1] == 0xe5) || (b[p] == 0x8b && b[p + 1] == 0xec);
}

/*
 * code[0] is the byte before pc, code[1..4] the bytes from pc.  Frame-pointer
 * code opens with "push %rbp" (55; endbr before it under CET) and
 * "mov %rsp,%rbp", and returns with "ret" (c3) after the old %rbp is back.
 */
static int frameless_words(const struct x86_width *w, const uint8_t *code)
{
    const uint8_t *at = code + 1;

    if (at[0] == 0x55 || at[0] == 0xc3 || is_endbr(w, at, 4))
        return 0;
    if (code[0] == 0x55 && is_mov_sp_fp(w, at, 4))
        return 1;
    return -1;
}

int xu_x86_frameless_words(const uint8_t *code)
{
    return frameless_words(&width64, code);
}

int xu_x86_32_frameless_words(const uint8_t *code)
{
    return frameless_words(&width32, code);
}

/* Instructions of a prologue read before its body is taken to begin. */
#define PROLOGUE_MAX_INSNS  24
/* A stack reservation larger than this is not a prologue we trust. */
#define PROLOGUE_MAX_BYTES  (1u << 20)

/* "mov %rsp,%rbp" complete within code[0..n): the function has made its
 * frame record.  Compilers schedule other instructions between it and the
 * "push %rbp" before it, so the mov alone is looked for; in code without
 * frame pointers %rbp is an ordinary register and never takes %rsp except
 * to make a frame. */
static bool makes_frame(const struct x86_width *w, const uint8_t *c, size_t n)
{
    size_t i, len = w->rex ? 3 : 2;

    for (i = 0; i + len <= n; i++)
        if (is_mov_sp_fp(w, c + i, n - i))
            return true;
    return false;
}

/* A register-to-register mov (89/8b, mod 3; REX.W first in 64-bit code),
 * which compilers schedule between the pushes: its length, or -1 when it
 * writes the stack pointer (the stack switches: nothing is known), 0 when
 * it is no such mov. */
static int reg_move(const struct x86_width *w, const uint8_t *b, size_t left)
{
    int p = rex_w(w, b, left);
    unsigned int dest, rex = p > 0 ? b[0] : 0;
    const uint8_t *op = b + (p > 0 ? p : 0);

    if (p < 0 || left < (size_t)p + 2 || (op[0] != 0x89 && op[0] != 0x8b) || (op[1] >> 6) != 3)
        return 0;
    dest = op[0] == 0x89 ? (op[1] & 7) | ((rex & 1) << 3) : ((op[1] >> 3) & 7) | ((rex & 4) << 1);
    return dest == 4 ? -1 : p + 2;
}

/* "sub $imm,%rsp" (83 ec ib, 81 ec id; REX.W first in 64-bit code): the
 * bytes reserved, or -1. */
static long stack_reserve(const struct x86_width *w, const uint8_t *b, size_t left, size_t *len)
{
    int p = rex_w(w, b, left);
    const uint8_t *op;
    uint32_t imm;

    if (p < 0 || (w->rex && b[0] != 0x48))
        return -1;
    op = b + p;
    left -= (size_t)p;
    if (left >= 3 && op[0] == 0x83 && op[1] == 0xec) {
        *len = (size_t)p + 3;
        return op[2] < 0x80 ? op[2] : -1;
    }
    if (left >= 6 && op[0] == 0x81 && op[1] == 0xec) {
        *len = (size_t)p + 6;
        imm = (uint32_t)op[2] | (uint32_t)op[3] << 8 | (uint32_t)op[4] << 16 |
              (uint32_t)op[5] << 24;
        return imm <= PROLOGUE_MAX_BYTES ? (long)imm : -1;
    }
    return -1;
}

/* "push %reg" at b: its length (50-57, or 41 50-57 for r8-r15), 0 if none. */
static size_t push_reg(const struct x86_width *w, const uint8_t *b, size_t left)
{
    if (b[0] >= 0x50 && b[0] <= 0x57)
        return 1;
    if (w->rex && left >= 2 && b[0] == 0x41 && b[1] >= 0x50 && b[1] <= 0x57)
        return 2;
    return 0;
}

/*
 * The words a function's prologue has pushed or reserved by offset upto,
 * read from its first instructions (endbr and register moves may sit
 * between them); the body is taken to push nothing more.  All of them, or
 * with framed only those after its "mov %rsp,%rbp" (how far below its
 * frame pointer the stack pointer is).  -1 when a prologue instruction is
 * not one that leaves the count known, or (framed) no such mov is among
 * them.
 */
static int prologue_words(const struct x86_width *w, const uint8_t *c, size_t len, size_t upto,
                          bool framed)
{
    size_t pos = 0, step, end = upto < len ? upto : len;
    unsigned long words = 0;
    unsigned int k;
    long bytes;
    int mov;
    bool made = false;

    for (k = 0; k < PROLOGUE_MAX_INSNS && pos < end; k++, pos += step) {
        const uint8_t *b = c + pos;
        size_t left = len - pos;

        if (is_endbr(w, b, left)) {
            step = 4;
        } else if ((step = push_reg(w, b, left)) != 0) {
            words++;
        } else if (framed && is_mov_sp_fp(w, b, left)) {
            step = w->rex ? 3 : 2;
            made = true;
            words = 0;
        } else if ((mov = reg_move(w, b, left)) != 0) {
            if (mov < 0)
                return -1;
            step = (size_t)mov;
        } else if ((bytes = stack_reserve(w, b, left, &step)) >= 0) {
            if (bytes % w->word)
                return -1;
            words += (unsigned long)bytes / w->word;
        } else {
            break;          /* the body */
        }
    }
    return framed && !made ? -1 : (int)words;
}

/*
 * A function without a frame record: the words above its return address
 * at upto.  -1 when it makes a frame record before upto (the chain holds
 * it), or its prologue leaves the count unknown.
 */
static int frameless_depth(const struct x86_width *w, const uint8_t *c, size_t len, size_t upto)
{
    if (makes_frame(w, c, upto < len ? upto : len))
        return -1;
    return prologue_words(w, c, len, upto, false);
}

int xu_x86_frameless_depth(const uint8_t *c, size_t len, size_t upto)
{
    return frameless_depth(&width64, c, len, upto);
}

int xu_x86_32_frameless_depth(const uint8_t *c, size_t len, size_t upto)
{
    return frameless_depth(&width32, c, len, upto);
}

int xu_x86_32_framed_depth(const uint8_t *c, size_t len, size_t upto)
{
    return prologue_words(&width32, c, len, upto, true);
}
