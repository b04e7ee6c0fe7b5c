/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_unwind_ehabi.c - the ARM EHABI unwinder: the tables of a real
 * linked AArch32 ELF (ehabi_fixture.S, assembled by clang, linked by
 * ld.lld) walked over a stack laid out as its functions lay it out;
 * every unwind instruction on its own; crafted and hostile tables and
 * stacks; and the unwinder through lib/mem on the simulated guest.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <gelf.h>
#include <libelf.h>

#include "xu_sim.h"
#include "arch/xu_arch.h"
#include "mem/xu_mem.h"
#include "unwind/xu_ehabi.h"

#define FIXTURE XU_TEST_SRCDIR "/tests/unit/unwind/ehabi_fixture.elf"

/* ---- a stack of words in a buffer ---- */
#define STACK_BASE 0x7f000u
#define STACK_BYTES 4096u
static uint8_t stack[STACK_BYTES];
static unsigned int word_reads;

static int read_word(void *ctx, uint32_t addr, uint32_t *w)
{
    (void)ctx;
    word_reads++;
    if (addr < STACK_BASE || addr - STACK_BASE > STACK_BYTES - 4)
        return -1;
    memcpy(w, stack + (addr - STACK_BASE), 4);
    return 0;
}

static void put(uint32_t addr, uint32_t v)
{
    memcpy(stack + (addr - STACK_BASE), &v, 4);
}

/* A function symbol's value in the fixture (bit 0 set for Thumb). */
static uint32_t sym(const char *name)
{
    int fd = open(FIXTURE, O_RDONLY);
    Elf *elf;
    Elf_Scn *scn = NULL;
    uint32_t v = 0;

    assert_true(fd >= 0);
    elf_version(EV_CURRENT);
    elf = elf_begin(fd, ELF_C_READ, NULL);
    assert_non_null(elf);
    while ((scn = elf_nextscn(elf, scn))) {
        GElf_Shdr sh;
        Elf_Data *d;
        size_t i;

        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !(d = elf_getdata(scn, NULL)))
            continue;
        for (i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
            GElf_Sym s;

            if (gelf_getsym(d, (int)i, &s) &&
                strcmp(elf_strptr(elf, sh.sh_link, s.st_name), name) == 0)
                v = (uint32_t)s.st_value;
        }
    }
    elf_end(elf);
    close(fd);
    assert_int_not_equal(v, 0);
    return v;
}

static struct xu_ehabi_regs regs_at(uint32_t pc, uint32_t sp, uint32_t lr)
{
    struct xu_ehabi_regs r;

    memset(&r, 0, sizeof(r));
    r.r[13] = sp;
    r.r[14] = lr;
    r.r[15] = pc;
    r.known = 0xffffu;
    return r;
}

static void test_fixture_table(void **state)
{
    struct xu_ehabi_table *t;
    struct xu_ehabi_stats st;
    uint8_t ops[XU_EHABI_MAX_OPS];
    enum xu_ehabi_kind kind;
    uint32_t start;
    size_t n;
    static const uint8_t top_ops[] = { 0x03, 0x84, 0x83 };
    static const uint8_t mid_ops[] = { 0x01, 0xc9, 0x81, 0x84, 0x08, 0xb0 };
    static const uint8_t leaf_ops[] = { 0xb2, 0x83, 0x01, 0xae, 0xb0, 0xb0 };

    (void)state;
    assert_int_equal(xu_ehabi_open(FIXTURE, NULL, &t), 0);
    xu_ehabi_get_stats(t, &st);
    assert_int_equal(st.entries, 5);        /* four functions and the linker's end mark */
    assert_int_equal(st.cantunwind, 2);
    assert_int_equal(st.bad, 0);
    assert_true(xu_ehabi_find(t, sym("top") + 4, &start, &kind, ops, &n));
    assert_int_equal(start, sym("top"));
    assert_int_equal(kind, XU_EHABI_OPS);
    assert_int_equal(n, sizeof(top_ops));               /* inline, personality 0 */
    assert_memory_equal(ops, top_ops, n);
    assert_true(xu_ehabi_find(t, (sym("mid") & ~1u) + 2, &start, &kind, ops, &n));
    assert_int_equal(n, sizeof(mid_ops));               /* .ARM.extab, personality 1 */
    assert_memory_equal(ops, mid_ops, n);
    assert_true(xu_ehabi_find(t, sym("leaf_spin"), &start, &kind, ops, &n));
    assert_int_equal(start, sym("leaf"));
    assert_memory_equal(ops, leaf_ops, n);
    assert_true(xu_ehabi_find(t, sym("_start"), &start, &kind, ops, &n));
    assert_int_equal(kind, XU_EHABI_CANTUNWIND);
    assert_false(xu_ehabi_find(t, sym("_start") - 1, &start, &kind, ops, &n));
    xu_ehabi_free(t);
    assert_int_equal(xu_ehabi_open("/nonexistent", NULL, &t), -ENOENT);
    assert_int_equal(xu_ehabi_open("/proc/self/exe", NULL, &t), -ENOEXEC);   /* not ARM */
}

/*
 * The stack as the fixture's functions leave it, stopped in leaf's loop:
 * leaf: 1040 bytes of pad, then r4-r10 and lr (into mid, Thumb bit set);
 * mid: 8 bytes of pad, d8-d9, r7 and lr (into top); top: 16 bytes of pad,
 * r4, r5, r11 and lr (into _start, whose entry says cantunwind).
 */
static uint32_t lay_out_fixture_stack(uint32_t *r7)
{
    uint32_t s = STACK_BASE + 0x100, m = s + 1040 + 32, tp = m + 8 + 16 + 8;
    unsigned int i;

    memset(stack, 0xee, sizeof(stack));
    for (i = 0; i < 7; i++)
        put(s + 1040 + 4 * i, 0x400 + i);               /* r4-r10 */
    put(s + 1040 + 28, (sym("mid") & ~1u) + 12 + 1);    /* after blx leaf, Thumb */
    put(m + 24, 0x7007);                                /* r7 */
    put(m + 28, sym("top") + 12);                       /* after blx mid */
    put(tp + 16 + 12, sym("_start") + 4);               /* after bl top */
    *r7 = 0x7007;
    return s;
}

static void test_fixture_walk(void **state)
{
    struct xu_ehabi_table *t;
    struct xu_unwind_result res;
    uint64_t pcs[16];
    uint32_t r7, sp = lay_out_fixture_stack(&r7);
    struct xu_ehabi_regs r = regs_at(sym("leaf_spin"), sp, 0xdead);

    (void)state;
    assert_int_equal(xu_ehabi_open(FIXTURE, NULL, &t), 0);
    xu_ehabi_walk(t, &r, read_word, NULL, pcs, 16, &res);
    assert_int_equal(res.end, XU_WALK_CFI_ROOT);
    assert_int_equal(res.depth, 4);
    assert_int_equal(pcs[0], sym("leaf_spin"));
    assert_int_equal(pcs[1], (sym("mid") & ~1u) + 12);  /* the Thumb bit cleared */
    assert_int_equal(pcs[2], sym("top") + 12);
    assert_int_equal(pcs[3], sym("_start") + 4);
    /* max_depth bounds it */
    xu_ehabi_walk(t, &r, read_word, NULL, pcs, 2, &res);
    assert_int_equal(res.end, XU_WALK_DEPTH);
    assert_int_equal(res.depth, 2);
    xu_ehabi_walk(t, &r, read_word, NULL, pcs, 0, &res);
    assert_int_equal(res.depth, 0);
    /* a stack that ends where leaf's frame is: unmapped */
    r.r[13] = STACK_BASE + STACK_BYTES - 1040 - 8;
    xu_ehabi_walk(t, &r, read_word, NULL, pcs, 16, &res);
    assert_int_equal(res.end, XU_WALK_UNMAPPED);
    assert_int_equal(res.depth, 1);
    /* a PC below every entry: entry code that cleared a frame pointer
     * (r11 or r7) ends the chain there, other code is a bad frame */
    r = regs_at(0x100, sp, 0);
    r.r[7] = r.r[11] = 0x4000;
    xu_ehabi_walk(t, &r, read_word, NULL, pcs, 16, &res);
    assert_int_equal(res.end, XU_WALK_BAD_FRAME);
    r.r[11] = 0;
    xu_ehabi_walk(t, &r, read_word, NULL, pcs, 16, &res);
    assert_int_equal(res.end, XU_WALK_COMPLETE);
    assert_int_equal(res.depth, 1);
    r.r[11] = 0x4000;
    r.r[7] = 0;
    xu_ehabi_walk(t, &r, read_word, NULL, pcs, 16, &res);
    assert_int_equal(res.end, XU_WALK_COMPLETE);
    r.known &= (uint16_t)~(1u << 7);          /* a zero nobody restored says nothing */
    xu_ehabi_walk(t, &r, read_word, NULL, pcs, 16, &res);
    assert_int_equal(res.end, XU_WALK_BAD_FRAME);
    xu_ehabi_free(t);
}

/* ---- the instructions one by one ---- */

static enum xu_ehabi_status run(const uint8_t *ops, size_t n, struct xu_ehabi_regs *r)
{
    return xu_ehabi_exec(ops, n, r, read_word, NULL);
}

#define SP0 (STACK_BASE + 0x400u)

static void fill_stack(void)
{
    unsigned int i;

    for (i = 0; i < STACK_BYTES; i += 4)
        put(STACK_BASE + i, 0x1000u + i);       /* each word says where it is */
}

static void test_vsp_moves(void **state)
{
    struct xu_ehabi_regs r = regs_at(0, SP0, 0x2001);
    static const uint8_t up[] = { 0x3f, 0x00 };                /* +256, +4 */
    static const uint8_t down[] = { 0x40, 0x7f };              /* -4, -256 */
    static const uint8_t uleb[] = { 0xb2, 0x81, 0x01 };        /* + 0x204 + (129 << 2) */
    static const uint8_t uleb_long[] = { 0xb2, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00 };

    (void)state;
    assert_int_equal(run(up, sizeof(up), &r), XU_EHABI_DONE);
    assert_int_equal(r.r[13], SP0 + 260);
    assert_int_equal(r.r[15], 0x2001);                  /* no pc popped: lr */
    r = regs_at(0, SP0, 0x2001);
    assert_int_equal(run(down, sizeof(down), &r), XU_EHABI_DONE);
    assert_int_equal(r.r[13], SP0 - 260);
    r = regs_at(0, SP0, 0x2001);
    assert_int_equal(run(uleb, sizeof(uleb), &r), XU_EHABI_DONE);
    assert_int_equal(r.r[13], SP0 + 0x204 + (129u << 2));
    r = regs_at(0, SP0, 0x2001);
    assert_int_equal(run(uleb_long, sizeof(uleb_long), &r), XU_EHABI_INVALID);
    assert_int_equal(run(uleb, 2, &r), XU_EHABI_INVALID);      /* cut short */
}

static void test_pops(void **state)
{
    struct xu_ehabi_regs r;
    static const uint8_t mask[] = { 0x88, 0x11 };       /* r4, r8, r15 */
    static const uint8_t range_lr[] = { 0xaa };         /* r4-r6, r14 */
    static const uint8_t range[] = { 0xa7 };            /* r4-r11 */
    static const uint8_t low[] = { 0xb1, 0x05 };        /* r0, r2 */
    static const uint8_t with_sp[] = { 0x82, 0x00, 0x00 };   /* r13, then vsp += 4 */

    (void)state;
    fill_stack();
    r = regs_at(0, SP0, 0x2001);
    assert_int_equal(run(mask, sizeof(mask), &r), XU_EHABI_DONE);
    assert_int_equal(r.r[4], 0x1400);
    assert_int_equal(r.r[8], 0x1404);
    assert_int_equal(r.r[15], 0x1408);                  /* pc popped: lr not used */
    assert_int_equal(r.r[13], SP0 + 12);
    r = regs_at(0, SP0, 0x2001);
    assert_int_equal(run(range_lr, sizeof(range_lr), &r), XU_EHABI_DONE);
    assert_int_equal(r.r[6], 0x1408);
    assert_int_equal(r.r[14], 0x140c);
    assert_int_equal(r.r[15], 0x140c);
    assert_int_equal(r.r[13], SP0 + 16);
    r = regs_at(0, SP0, 0x2001);
    assert_int_equal(run(range, sizeof(range), &r), XU_EHABI_DONE);
    assert_int_equal(r.r[11], 0x141c);
    assert_int_equal(r.r[13], SP0 + 32);
    assert_int_equal(r.r[15], 0x2001);
    r = regs_at(0, SP0, 0x2001);
    assert_int_equal(run(low, sizeof(low), &r), XU_EHABI_DONE);
    assert_int_equal(r.r[0], 0x1400);
    assert_int_equal(r.r[2], 0x1404);
    /* a popped sp replaces vsp: later moves start from it */
    r = regs_at(0, SP0, 0x2001);
    assert_int_equal(run(with_sp, sizeof(with_sp), &r), XU_EHABI_DONE);
    assert_int_equal(r.r[13], 0x1400 + 4);
}

static void test_vfp_and_wmmx_moves(void **state)
{
    static const struct {
        uint8_t ops[2];
        size_t n;
        uint32_t moved;
    } cases[] = {
        { { 0xb3, 0x12 }, 2, 8 * 3 + 4 },       /* FSTMFDX d1-d3 */
        { { 0xbb, 0 }, 1, 8 * 4 + 4 },          /* FSTMFDX d8-d11 */
        { { 0xc2, 0 }, 1, 8 * 3 },              /* wR10-wR12 */
        { { 0xc6, 0x21 }, 2, 8 * 2 },           /* wR2-wR3 */
        { { 0xc7, 0x0b }, 2, 4 * 3 },           /* wCGR0, 1, 3 */
        { { 0xc8, 0x03 }, 2, 8 * 4 },           /* d16-d19 */
        { { 0xc9, 0x84 }, 2, 8 * 5 },           /* d8-d12 */
        { { 0xd7, 0 }, 1, 8 * 8 },              /* d8-d15 */
    };
    unsigned int i;

    (void)state;
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct xu_ehabi_regs r = regs_at(0, SP0, 0x2001);

        word_reads = 0;
        assert_int_equal(run(cases[i].ops, cases[i].n, &r), XU_EHABI_DONE);
        assert_int_equal(r.r[13], SP0 + cases[i].moved);
        assert_int_equal(word_reads, 0);            /* nothing of them is kept */
    }
}

static void test_finish_refuse_spare(void **state)
{
    struct xu_ehabi_regs r;
    static const uint8_t finish_first[] = { 0xb0, 0x3f };
    static const uint8_t refuse[] = { 0x80, 0x00 };
    static const uint8_t spare[][2] = {
        { 0xb4, 0 }, { 0xb7, 0 }, { 0xca, 0 }, { 0xcf, 0 }, { 0xd8, 0 }, { 0xff, 0 },
        { 0x9d, 0 }, { 0x9f, 0 }, { 0xb1, 0x00 }, { 0xb1, 0x10 }, { 0xc7, 0x00 }, { 0xc7, 0x20 },
    };
    unsigned int i;

    (void)state;
    r = regs_at(0, SP0, 0x2001);
    assert_int_equal(run(finish_first, sizeof(finish_first), &r), XU_EHABI_DONE);
    assert_int_equal(r.r[13], SP0);                     /* nothing after finish runs */
    r = regs_at(0, SP0, 0x2001);
    assert_int_equal(run(refuse, sizeof(refuse), &r), XU_EHABI_REFUSED);
    for (i = 0; i < sizeof(spare) / sizeof(spare[0]); i++) {
        r = regs_at(0, SP0, 0x2001);
        assert_int_equal(run(spare[i], 2, &r), XU_EHABI_INVALID);
    }
    /* a two-byte instruction cut short */
    r = regs_at(0, SP0, 0x2001);
    assert_int_equal(run(refuse, 1, &r), XU_EHABI_INVALID);
}

static void test_vsp_from_register(void **state)
{
    struct xu_ehabi_regs r = regs_at(0, SP0, 0x2001);
    static const uint8_t from_r11[] = { 0x9b, 0xa8 };   /* vsp = r11; pop r4, r14 */

    (void)state;
    fill_stack();
    r.r[11] = SP0 + 0x40;
    assert_int_equal(run(from_r11, sizeof(from_r11), &r), XU_EHABI_DONE);
    assert_int_equal(r.r[13], SP0 + 0x48);
    assert_int_equal(r.r[15], 0x1444);
    /* a register the frame does not know (a caller's r0-r3, r12) */
    r = regs_at(0, SP0, 0x2001);
    r.known &= (uint16_t)~(1u << 11);
    assert_int_equal(run(from_r11, sizeof(from_r11), &r), XU_EHABI_INVALID);
    /* no pc popped and lr not known */
    r = regs_at(0, SP0, 0x2001);
    r.known &= (uint16_t)~(1u << 14);
    assert_int_equal(run(from_r11 + 1, 0, &r), XU_EHABI_INVALID);
}

static void test_faults(void **state)
{
    struct xu_ehabi_regs r = regs_at(0, STACK_BASE + STACK_BYTES - 4, 0x2001);
    static const uint8_t two[] = { 0x80, 0x03 };        /* r4, r5 */

    (void)state;
    assert_int_equal(run(two, sizeof(two), &r), XU_EHABI_FAULT);
}

/* ---- crafted tables ---- */

static void le32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}

static uint32_t prel(uint32_t target, uint32_t at)
{
    return (target - at) & 0x7fffffffu;
}

static void test_crafted_tables(void **state)
{
    uint8_t exidx[6 * 8], extab[32];
    const uint32_t X = 0x9000, E = 0xa000;
    struct xu_ehabi_table *t;
    struct xu_ehabi_stats st;
    uint8_t ops[XU_EHABI_MAX_OPS];
    enum xu_ehabi_kind kind;
    uint32_t start;
    size_t n;

    (void)state;
    /* out of order on purpose: sorted at load */
    le32(exidx + 0, prel(0x3000, X + 0));   le32(exidx + 4, 0x80a8b0b0u);       /* pop r4, r14 */
    le32(exidx + 8, prel(0x1000, X + 8));   le32(exidx + 12, prel(E, X + 12));  /* extab: pr0 */
    le32(exidx + 16, prel(0x2000, X + 16)); le32(exidx + 20, prel(E + 4, X + 20)); /* generic */
    le32(exidx + 24, prel(0x4000, X + 24)); le32(exidx + 28, 0x83000000u);     /* inline pr3 */
    le32(exidx + 32, prel(0x5000, X + 32)); le32(exidx + 36, prel(E + 64, X + 36)); /* outside */
    le32(exidx + 40, prel(0x6000, X + 40)); le32(exidx + 44, prel(E + 16, X + 44)); /* model 3 */
    le32(extab + 0, 0x80a9b0b0u);                       /* pr0: pop r4, r5, r14 */
    le32(extab + 4, prel(0x100, E + 4));                /* a personality routine */
    le32(extab + 8, 0x01a8b0b0u);                       /* one more word follows */
    le32(extab + 12, 0x3f3f3fb0u);
    le32(extab + 16, 0x83000000u);
    assert_int_equal(xu_ehabi_from_sections(exidx, sizeof(exidx), X, extab, 20, E, &t), 0);
    xu_ehabi_get_stats(t, &st);
    assert_int_equal(st.entries, 6);
    assert_int_equal(st.bad, 3);
    assert_true(xu_ehabi_find(t, 0x1004, &start, &kind, ops, &n));
    assert_int_equal(start, 0x1000);
    assert_int_equal(n, 3);
    assert_int_equal(ops[0], 0xa9);
    assert_true(xu_ehabi_find(t, 0x2ffe, &start, &kind, ops, &n));
    assert_int_equal(start, 0x2000);
    assert_int_equal(n, 7);                             /* 3 bytes, then a word */
    assert_int_equal(ops[0], 0xa8);
    assert_int_equal(ops[3], 0x3f);
    assert_int_equal(ops[6], 0xb0);
    assert_true(xu_ehabi_find(t, 0x3000, &start, &kind, ops, &n));
    assert_int_equal(kind, XU_EHABI_OPS);
    assert_true(xu_ehabi_find(t, 0x4000, &start, &kind, ops, &n));
    assert_int_equal(kind, XU_EHABI_BAD);
    assert_true(xu_ehabi_find(t, 0x5000, &start, &kind, ops, &n));
    assert_int_equal(kind, XU_EHABI_BAD);
    assert_true(xu_ehabi_find(t, 0xffffffff, &start, &kind, ops, &n));
    assert_int_equal(kind, XU_EHABI_BAD);               /* the last one covers the rest */
    xu_ehabi_free(t);
    /* sizes */
    assert_int_equal(xu_ehabi_from_sections(exidx, 12, X, NULL, 0, 0, &t), -ENOEXEC);
    assert_int_equal(xu_ehabi_from_sections(exidx, 0, X, NULL, 0, 0, &t), -ENOEXEC);
    assert_null(t);
    /* the extab count pointing past the section's end */
    le32(extab + 8, 0x05a8b0b0u);
    assert_int_equal(xu_ehabi_from_sections(exidx, sizeof(exidx), X, extab, 20, E, &t), 0);
    assert_true(xu_ehabi_find(t, 0x2000, &start, &kind, ops, &n));
    assert_int_equal(kind, XU_EHABI_BAD);
    xu_ehabi_free(t);
}

/* A table whose every function pops nothing and a stack whose sp never
 * rises: the walk ends at the second frame, not at max_depth. */
static void test_hostile_walk(void **state)
{
    uint8_t exidx[8];
    struct xu_ehabi_table *t;
    struct xu_unwind_result res;
    struct xu_ehabi_regs r;
    uint64_t pcs[1024];
    size_t n;

    (void)state;
    le32(exidx, prel(0x1000, 0x9000));
    le32(exidx + 4, 0x80b0b0b0u);                       /* finish: pc = lr, sp kept */
    assert_int_equal(xu_ehabi_from_sections(exidx, 8, 0x9000, NULL, 0, 0, &t), 0);
    r = regs_at(0x1010, SP0, 0x1021);
    xu_ehabi_walk(t, &r, read_word, NULL, pcs, 64, &res);
    /* the leaf's return address from lr, then lr is clobbered: no more */
    assert_int_equal(res.depth, 2);
    assert_int_equal(pcs[1], 0x1020);
    assert_int_equal(res.end, XU_WALK_BAD_FRAME);
    xu_ehabi_free(t);
    /* pop {r4, pc}, each frame returning into the same function, up the
     * whole stack: max_depth ends it, else the end of the stack does */
    le32(exidx + 4, 0x808801b0u);                       /* pop r4, r15 (mask 0x801) */
    assert_int_equal(xu_ehabi_from_sections(exidx, 8, 0x9000, NULL, 0, 0, &t), 0);
    for (n = SP0; n + 8 <= STACK_BASE + STACK_BYTES; n += 8) {
        put((uint32_t)n, 0);
        put((uint32_t)n + 4, 0x1011);
    }
    r = regs_at(0x1010, SP0, 0);
    xu_ehabi_walk(t, &r, read_word, NULL, pcs, 64, &res);
    assert_int_equal(res.depth, 64);
    assert_int_equal(res.end, XU_WALK_DEPTH);
    xu_ehabi_walk(t, &r, read_word, NULL, pcs, sizeof(pcs) / sizeof(pcs[0]), &res);
    assert_int_equal(res.end, XU_WALK_UNMAPPED);
    assert_int_equal(res.depth, 1 + (STACK_BASE + STACK_BYTES - SP0) / 8);
    assert_int_equal(pcs[5], 0x1010);
    xu_ehabi_free(t);
}

/* The unwinder as the sampler calls it: through lib/mem on the simulated guest. */
static void test_through_mem(void **state)
{
    struct xu_sim *sim = xu_sim_new(XU_GUEST_HVM, 256, 1);
    struct xu_target tg;
    struct xu_mem *m;
    struct xu_vcpu_regs regs;
    struct xu_unwind_env env;
    struct xu_ehabi_table *t;
    struct xu_unwind_result res;
    uint64_t pcs[16];
    uint32_t r7, sp = lay_out_fixture_stack(&r7);
    unsigned int i;

    (void)state;
    assert_non_null(sim);
    xu_sim_set_arch(sim, &xu_arch_arm32);
    assert_int_equal(xu_sim_target_open(sim, &tg, NULL), 0);
    m = xu_mem_new(&tg, NULL);
    assert_non_null(m);
    /* the buffer's stack into the guest at the same (physical = virtual) addresses */
    for (i = 0; i < STACK_BYTES / 4096; i++)
        memcpy(xu_sim_frame(sim, STACK_BASE / 4096 + i), stack + 4096 * i, 4096);
    assert_int_equal(xu_ehabi_open(FIXTURE, NULL, &t), 0);
    memset(&env, 0, sizeof(env));
    env.ehabi = t;
    memset(&regs, 0, sizeof(regs));
    regs.online = true;
    regs.kernel_mode = true;
    regs.mmu.paging = XU_PAGING_NONE;
    regs.ip = sym("leaf_spin");
    regs.sp = sp;
    regs.lr = 0xdead;
    regs.r32[7] = r7;
    regs.r32[13] = sp;
    regs.r32[15] = (uint32_t)regs.ip;
    xu_mem_begin(m);
    xu_mem_set_context(m, &regs);
    xu_unwind_ehabi_ops.walk(&env, m, &regs, pcs, 16, &res);
    assert_int_equal(res.end, XU_WALK_CFI_ROOT);
    assert_int_equal(res.depth, 4);
    assert_int_equal(pcs[3], sym("_start") + 4);
    /* a vCPU whose paging the arch does not walk: the PC only */
    regs.mmu.paging = XU_PAGING_ARM64;
    xu_unwind_ehabi_ops.walk(&env, m, &regs, pcs, 16, &res);
    assert_int_equal(res.end, XU_WALK_NO_PAGING);
    assert_int_equal(res.depth, 1);
    xu_ehabi_free(t);
    xu_mem_free(m);
    xu_target_close(&tg);
    xu_sim_free(sim);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixture_table),
        cmocka_unit_test(test_fixture_walk),
        cmocka_unit_test(test_vsp_moves),
        cmocka_unit_test(test_pops),
        cmocka_unit_test(test_vfp_and_wmmx_moves),
        cmocka_unit_test(test_finish_refuse_spare),
        cmocka_unit_test(test_vsp_from_register),
        cmocka_unit_test(test_faults),
        cmocka_unit_test(test_crafted_tables),
        cmocka_unit_test(test_hostile_walk),
        cmocka_unit_test(test_through_mem),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
