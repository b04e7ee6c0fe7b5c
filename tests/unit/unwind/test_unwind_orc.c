/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_unwind_orc.c - the ORC reader on crafted tables of each layout and
 * on a crafted vmlinux, the ORC walk over stacks laid out in the simulated
 * guest as the kernel's code would leave them, and the reader on Debian's
 * own kernel when the lab's download cache holds it.
 */
#include "config.h"

#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "expect_walk.h"
#include "lab_kernel.h"
#include "mkelf.h"
#include "sim_guest.h"
#include "mem/xu_mem.h"
#include "unwind/xu_orc.h"
#include "unwind/xu_unwind.h"

#define TEXT        0xffffffff81000000ULL
#define TEXT_END    (TEXT + 0x10000)
#define TASK_STACK  0xffffc90100000000ULL
#define IRQ_STACK   0xffffc90100100000ULL
#define STACK_BYTES 0x8000ULL

/* The crafted kernel's functions, each 0x100 bytes of text. */
#define F_ROOT   (TEXT + 0x000)    /* END_OF_STACK: ret_from_fork */
#define F_LEAF   (TEXT + 0x100)    /* CALL sp+8 throughout */
#define F_PUSHER (TEXT + 0x200)    /* push %rbp at +0; then CFA sp+24, rbp at CFA-16 */
#define F_FRAMED (TEXT + 0x300)    /* a frame-pointer function: CFA rbp+16, rbp at CFA-16 */
#define F_SYSCALL (TEXT + 0x400)   /* returns from the handler onto a full pt_regs */
#define F_IRET   (TEXT + 0x500)    /* returns from the handler onto an iret frame at sp+8 */
#define F_SWITCH (TEXT + 0x600)    /* calls on the IRQ stack: SP_INDIRECT +16 */
#define F_DRAP   (TEXT + 0x700)    /* CFA in r10 (a realigned stack) */
#define F_UNDEF  (TEXT + 0x800)    /* UNDEFINED */
#define F_END    (TEXT + 0x900)    /* a terminator; nothing after it */

/* pt_regs, in 8-byte words */
#define PT_WORDS 21
#define PT_R10 7
#define PT_BP 4
#define PT_IP 16
#define PT_CS 17
#define PT_SP 19
#define KERNEL_CS 0x10
#define USER_CS 0x33

static const uint8_t hash_6_4[20] = {
    0xfe, 0x5d, 0x32, 0xbf, 0x58, 0x1b, 0xd6, 0x3b, 0x2c, 0xa9,
    0xa5, 0xc6, 0x5b, 0xa5, 0xa6, 0x25, 0xea, 0xb3, 0xfe, 0x24,
};

/* ------------------------------------------------------------ raw tables */

struct crafted {
    uint64_t addr[32];
    struct xu_orc_entry e[32];
    size_t n;
    uint8_t ip[32 * 4], orc[32 * 6];
};

static void add(struct crafted *c, uint64_t addr, int sp_reg, int sp_off, int bp_reg,
                int bp_off, int type)
{
    struct xu_orc_entry *e = &c->e[c->n];

    assert_true(c->n < 32);
    c->addr[c->n++] = addr;
    e->sp_reg = (uint8_t)sp_reg;
    e->sp_offset = (int16_t)sp_off;
    e->bp_reg = (uint8_t)bp_reg;
    e->bp_offset = (int16_t)bp_off;
    e->type = (uint8_t)type;
}

/* Flags of e in layout l, as objtool writes them. */
static uint16_t encode_flags(const struct xu_orc_entry *e, enum xu_orc_layout l)
{
    uint16_t f = (uint16_t)(e->sp_reg | e->bp_reg << 4);

    if (l == XU_ORC_LAYOUT_6_4)
        return (uint16_t)(f | e->type << 8 | e->signal << 11);
    if (e->type == XU_ORC_TYPE_END_OF_STACK)
        return (uint16_t)((f & ~0xf) | (l == XU_ORC_LAYOUT_6_3 ? 0x800 : 0x400));
    if (e->type == XU_ORC_TYPE_UNDEFINED)
        return (uint16_t)(f & ~0xf);
    f |= (uint16_t)((e->type - XU_ORC_TYPE_CALL) << 8);
    if (l == XU_ORC_LAYOUT_6_3)
        f |= (uint16_t)(e->signal << 10);
    return f;
}

/* The sections for c, its .orc_unwind_ip placed at ip_addr. */
static void encode(struct crafted *c, enum xu_orc_layout l, uint64_t ip_addr,
                   struct xu_orc_sections *s)
{
    size_t i;

    for (i = 0; i < c->n; i++) {
        int32_t rel = (int32_t)(c->addr[i] - (ip_addr + 4 * i));
        uint16_t f = encode_flags(&c->e[i], l);
        uint8_t *o = c->orc + 6 * i;

        memcpy(c->ip + 4 * i, &rel, 4);
        memcpy(o, &c->e[i].sp_offset, 2);
        memcpy(o + 2, &c->e[i].bp_offset, 2);
        memcpy(o + 4, &f, 2);
    }
    memset(s, 0, sizeof(*s));
    s->ip = c->ip;
    s->ip_len = 4 * c->n;
    s->ip_addr = ip_addr;
    s->orc = c->orc;
    s->orc_len = 6 * c->n;
    s->text_start = TEXT;
    s->text_end = TEXT_END;
}

/* The crafted kernel's table. */
static void kernel_entries(struct crafted *c)
{
    memset(c, 0, sizeof(*c));
    add(c, F_ROOT, 0, 0, 0, 0, XU_ORC_TYPE_END_OF_STACK);
    add(c, F_LEAF, XU_ORC_REG_SP, 8, 0, 0, XU_ORC_TYPE_CALL);
    add(c, F_PUSHER, XU_ORC_REG_SP, 8, 0, 0, XU_ORC_TYPE_CALL);
    add(c, F_PUSHER + 1, XU_ORC_REG_SP, 24, XU_ORC_REG_PREV_SP, -16, XU_ORC_TYPE_CALL);
    add(c, F_FRAMED, XU_ORC_REG_SP, 8, 0, 0, XU_ORC_TYPE_CALL);
    add(c, F_FRAMED + 4, XU_ORC_REG_BP, 16, XU_ORC_REG_PREV_SP, -16, XU_ORC_TYPE_CALL);
    add(c, F_SYSCALL, XU_ORC_REG_SP, 0, 0, 0, XU_ORC_TYPE_REGS);
    add(c, F_IRET, XU_ORC_REG_SP, 8, 0, 0, XU_ORC_TYPE_REGS_PARTIAL);
    add(c, F_SWITCH, XU_ORC_REG_SP_INDIRECT, 16, 0, 0, XU_ORC_TYPE_CALL);
    add(c, F_DRAP, XU_ORC_REG_R10, 0, 0, 0, XU_ORC_TYPE_CALL);
    add(c, F_UNDEF, 0, 0, 0, 0, XU_ORC_TYPE_UNDEFINED);
    add(c, F_END, 0, 0, 0, 0, XU_ORC_TYPE_UNDEFINED);
}

static struct xu_orc_table *table_of(struct crafted *c, enum xu_orc_layout l,
                                     unsigned int version)
{
    struct xu_orc_sections s;
    struct xu_orc_table *t = NULL;
    char err[160] = "";

    encode(c, l, TEXT_END + 0x1000, &s);
    s.layout_given = version == 0;
    s.layout = l;
    s.version = version;
    if (xu_orc_from_sections(&s, &t, err, sizeof(err)) < 0)
        fail_msg("crafted table refused: %s", err);
    return t;
}

static void expect_entry(const struct xu_orc_table *t, uint64_t addr, int type, int sp_reg,
                         int sp_off)
{
    struct xu_orc_entry e;

    if (!xu_orc_lookup(t, addr, &e, NULL))
        fail_msg("no entry for %#llx", (unsigned long long)addr);
    assert_int_equal(e.type, type);
    assert_int_equal(e.sp_reg, sp_reg);
    assert_int_equal(e.sp_offset, sp_off);
}

/* Every layout reads back what was written, with the types normalised. */
static void test_layouts(void **state)
{
    static const enum xu_orc_layout all[] = {
        XU_ORC_LAYOUT_4_14, XU_ORC_LAYOUT_6_3, XU_ORC_LAYOUT_6_4,
    };
    struct crafted c;
    size_t i;

    (void)state;
    for (i = 0; i < 3; i++) {
        struct xu_orc_table *t;
        struct xu_orc_entry e;
        uint64_t start;

        kernel_entries(&c);
        t = table_of(&c, all[i], 0);
        expect_entry(t, F_ROOT + 0x10, XU_ORC_TYPE_END_OF_STACK, 0, 0);
        expect_entry(t, F_LEAF + 0xff, XU_ORC_TYPE_CALL, XU_ORC_REG_SP, 8);
        expect_entry(t, F_SYSCALL + 3, XU_ORC_TYPE_REGS, XU_ORC_REG_SP, 0);
        expect_entry(t, F_IRET, XU_ORC_TYPE_REGS_PARTIAL, XU_ORC_REG_SP, 8);
        expect_entry(t, F_SWITCH, XU_ORC_TYPE_CALL, XU_ORC_REG_SP_INDIRECT, 16);
        expect_entry(t, F_UNDEF + 1, XU_ORC_TYPE_UNDEFINED, 0, 0);
        assert_true(xu_orc_lookup(t, F_PUSHER + 0x20, &e, &start));
        assert_int_equal(start, F_PUSHER + 1);
        assert_int_equal(e.bp_reg, XU_ORC_REG_PREV_SP);
        assert_int_equal(e.bp_offset, -16);
        /* interrupt frames leave exact PCs in every layout */
        assert_true(xu_orc_lookup(t, F_SYSCALL, &e, NULL));
        assert_int_equal(e.signal, 1);
        assert_false(xu_orc_lookup(t, TEXT - 1, &e, NULL));
        assert_false(xu_orc_lookup(t, TEXT_END, &e, NULL));
        xu_orc_free(t);
    }
}

/* The layout from the header's hash, from the version, from the entries. */
static void test_layout_choice(void **state)
{
    struct crafted c;
    struct xu_orc_sections s;
    struct xu_orc_table *t;
    struct xu_orc_stats st;
    uint8_t bad_hash[20];

    (void)state;
    kernel_entries(&c);
    encode(&c, XU_ORC_LAYOUT_6_4, TEXT_END, &s);
    s.header = hash_6_4;
    s.header_len = 20;
    s.version = 6 << 8 | 1;            /* the header decides */
    assert_int_equal(xu_orc_from_sections(&s, &t, NULL, 0), 0);
    xu_orc_get_stats(t, &st);
    assert_int_equal(st.layout, XU_ORC_LAYOUT_6_4);
    assert_int_equal(st.source, XU_ORC_FROM_HEADER);
    xu_orc_free(t);

    memcpy(bad_hash, hash_6_4, 20);
    bad_hash[0] ^= 1;
    s.header = bad_hash;
    assert_int_equal(xu_orc_from_sections(&s, &t, NULL, 0), -ENOTSUP);
    assert_null(t);

    /* no header: 6.1's version gives the old layout, whose flags 6.4's
     * CALL entries (type 2) do not fit */
    s.header = NULL;
    s.version = 6 << 8 | 1;
    assert_int_equal(xu_orc_from_sections(&s, &t, NULL, 0), -EBADMSG);
    encode(&c, XU_ORC_LAYOUT_4_14, TEXT_END, &s);
    s.version = 6 << 8 | 1;
    assert_int_equal(xu_orc_from_sections(&s, &t, NULL, 0), 0);
    xu_orc_get_stats(t, &st);
    assert_int_equal(st.layout, XU_ORC_LAYOUT_4_14);
    assert_int_equal(st.source, XU_ORC_FROM_VERSION);
    assert_false(st.sp_indirect_before_5_12);
    xu_orc_free(t);
    s.version = 5 << 8 | 10;
    assert_int_equal(xu_orc_from_sections(&s, &t, NULL, 0), 0);
    xu_orc_get_stats(t, &st);
    assert_true(st.sp_indirect_before_5_12);
    xu_orc_free(t);

    /* no version either: the entries tell */
    s.version = 0;
    assert_int_equal(xu_orc_from_sections(&s, &t, NULL, 0), 0);
    xu_orc_get_stats(t, &st);
    assert_int_equal(st.layout, XU_ORC_LAYOUT_4_14);
    assert_int_equal(st.source, XU_ORC_FROM_ENTRIES);
    xu_orc_free(t);
    encode(&c, XU_ORC_LAYOUT_6_3, TEXT_END, &s);
    assert_int_equal(xu_orc_from_sections(&s, &t, NULL, 0), 0);
    xu_orc_get_stats(t, &st);
    assert_int_equal(st.layout, XU_ORC_LAYOUT_6_3);
    xu_orc_free(t);
    encode(&c, XU_ORC_LAYOUT_6_4, TEXT_END, &s);
    assert_int_equal(xu_orc_from_sections(&s, &t, NULL, 0), 0);
    xu_orc_get_stats(t, &st);
    assert_int_equal(st.layout, XU_ORC_LAYOUT_6_4);
    xu_orc_free(t);
}

/* The same table with drop_outside (a module's): the entries past the text are
 * left out and counted, the rest kept; with none in the text, no table. */
static void test_drop_outside(struct xu_orc_sections *s)
{
    struct xu_orc_table *t = NULL;
    struct xu_orc_stats st;
    struct xu_orc_entry e;
    uint64_t text_start = s->text_start, text_end = s->text_end;

    s->drop_outside = true;
    assert_int_equal(xu_orc_from_sections(s, &t, NULL, 0), 0);
    xu_orc_get_stats(t, &st);
    assert_true(st.outside > 0);
    assert_true(st.outside < st.raw_entries);
    assert_false(xu_orc_lookup(t, text_end, &e, NULL));
    xu_orc_free(t);
    s->text_start = s->text_end = TEXT - 16;   /* below every entry */
    assert_int_equal(xu_orc_from_sections(s, &t, NULL, 0), -ENODATA);
    s->text_start = text_start;
    s->text_end = text_end;
    s->drop_outside = false;
}

/* Tables that do not check out are refused whole. */
static void test_hostile_tables(void **state)
{
    struct crafted c;
    struct xu_orc_sections s;
    struct xu_orc_table *t;
    char err[160];

    (void)state;
    kernel_entries(&c);
    encode(&c, XU_ORC_LAYOUT_4_14, TEXT_END, &s);
    s.layout_given = true;
    s.layout = XU_ORC_LAYOUT_4_14;

    s.orc_len -= 6;                     /* one entry short */
    assert_int_equal(xu_orc_from_sections(&s, &t, err, sizeof(err)), -EBADMSG);
    s.orc_len += 6;
    s.ip_len = 3;
    assert_int_equal(xu_orc_from_sections(&s, &t, err, sizeof(err)), -EBADMSG);
    s.ip_len = 4 * c.n;
    c.orc[6 * 2 + 5] |= 0x08;           /* bit 11: reserved before 6.3 */
    assert_int_equal(xu_orc_from_sections(&s, &t, err, sizeof(err)), -EBADMSG);
    assert_non_null(strstr(err, "entry 2"));
    c.orc[6 * 2 + 5] &= (uint8_t)~0x08;
    c.orc[6 * 2 + 5] |= 0x03;           /* type 3: none before 6.4 */
    assert_int_equal(xu_orc_from_sections(&s, &t, err, sizeof(err)), -EBADMSG);
    c.orc[6 * 2 + 5] &= (uint8_t)~0x03;
    s.text_end = F_SWITCH;              /* entries past the text */
    assert_int_equal(xu_orc_from_sections(&s, &t, err, sizeof(err)), -EBADMSG);
    assert_non_null(strstr(err, "outside"));
    test_drop_outside(&s);
    s.text_end = TEXT_END;
    s.ip = NULL;
    assert_int_equal(xu_orc_from_sections(&s, &t, err, sizeof(err)), -ENODATA);
    s.ip = c.ip;
    assert_int_equal(xu_orc_from_sections(&s, &t, err, sizeof(err)), 0);
    xu_orc_free(t);
}

/* Unsorted (vmlinux before 5.6) is sorted; of two entries at one address
 * the real one wins over the terminator, whatever their order; runs of
 * equal entries are merged. */
static void test_sort_and_ties(void **state)
{
    struct crafted c;
    struct xu_orc_sections s;
    struct xu_orc_table *t;
    struct xu_orc_stats st;
    uint64_t start;
    struct xu_orc_entry e;

    (void)state;
    memset(&c, 0, sizeof(c));
    add(&c, F_LEAF, XU_ORC_REG_SP, 8, 0, 0, XU_ORC_TYPE_CALL);
    add(&c, F_ROOT, 0, 0, 0, 0, XU_ORC_TYPE_END_OF_STACK);
    add(&c, F_PUSHER, XU_ORC_REG_SP, 16, 0, 0, XU_ORC_TYPE_CALL);
    add(&c, F_PUSHER, 0, 0, 0, 0, XU_ORC_TYPE_UNDEFINED);      /* terminator after */
    add(&c, F_FRAMED, 0, 0, 0, 0, XU_ORC_TYPE_UNDEFINED);      /* terminator before */
    add(&c, F_FRAMED, XU_ORC_REG_SP, 24, 0, 0, XU_ORC_TYPE_CALL);
    add(&c, F_FRAMED + 8, XU_ORC_REG_SP, 24, 0, 0, XU_ORC_TYPE_CALL);   /* equal: merged */
    encode(&c, XU_ORC_LAYOUT_6_4, TEXT_END, &s);
    s.layout_given = true;
    s.layout = XU_ORC_LAYOUT_6_4;
    assert_int_equal(xu_orc_from_sections(&s, &t, NULL, 0), 0);
    expect_entry(t, F_ROOT, XU_ORC_TYPE_END_OF_STACK, 0, 0);
    expect_entry(t, F_LEAF + 4, XU_ORC_TYPE_CALL, XU_ORC_REG_SP, 8);
    expect_entry(t, F_PUSHER + 4, XU_ORC_TYPE_CALL, XU_ORC_REG_SP, 16);
    expect_entry(t, F_FRAMED + 4, XU_ORC_TYPE_CALL, XU_ORC_REG_SP, 24);
    assert_true(xu_orc_lookup(t, F_FRAMED + 12, &e, &start));
    assert_int_equal(start, F_FRAMED);
    xu_orc_get_stats(t, &st);
    assert_int_equal(st.raw_entries, 7);
    assert_int_equal(st.entries, 4);
    xu_orc_free(t);
}

/* XU_ORC_CORPUS=DIR: the file also becomes fuzz_orc's seed DIR/name. */
static void keep_for_corpus(const char *path, const char *name)
{
    const char *dir = getenv("XU_ORC_CORPUS");
    char dst[512];
    uint8_t buf[4096];
    FILE *in, *out;
    size_t n;

    if (!dir)
        return;
    snprintf(dst, sizeof(dst), "%s/%s", dir, name);
    in = fopen(path, "rb");
    out = fopen(dst, "wb");
    assert_non_null(in);
    assert_non_null(out);
    while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
        assert_int_equal(fwrite(buf, 1, n, out), n);
    fclose(in);
    assert_int_equal(fclose(out), 0);
}

/* The tables found in an ELF: sections by name, the version from its
 * banner, the text from its executable sections. */
static void test_from_elf(void **state)
{
    struct crafted c;
    struct xu_orc_sections s;
    const uint64_t ip_at = TEXT_END + 0x1000, orc_at = TEXT_END + 0x2000,
                   ro_at = TEXT_END + 0x3000;
    static const char banner[] = "Linux version 5.10.0-9-amd64 (debian-kernel@lists...)";
    const struct mkelf_section secs[] = {
        { ".text", TEXT, 0x1000, false },
        { ".orc_unwind_ip", ip_at, 0, true },
        { ".orc_unwind", orc_at, 0, true },
        { ".rodata", ro_at, sizeof(banner), true },
    };
    struct mkelf_section with[4];
    struct mkelf_patch patches[3];
    char path[] = "/tmp/test_orc_XXXXXX";
    struct xu_orc_table *t = NULL;
    struct xu_orc_stats st;
    int fd = mkstemp(path);

    (void)state;
    assert_true(fd >= 0);
    close(fd);
    kernel_entries(&c);
    encode(&c, XU_ORC_LAYOUT_4_14, ip_at, &s);
    memcpy(with, secs, sizeof(secs));
    with[1].size = s.ip_len;
    with[2].size = s.orc_len;
    patches[0] = (struct mkelf_patch){ ip_at, c.ip, s.ip_len };
    patches[1] = (struct mkelf_patch){ orc_at, c.orc, s.orc_len };
    patches[2] = (struct mkelf_patch){ ro_at, (const uint8_t *)banner, sizeof(banner) };
    assert_int_equal(mkelf_write_patched(path, with, 4, patches, 3, NULL, 0, 0), 0);
    keep_for_corpus(path, "vmlinux_5_10");
    assert_int_equal(xu_orc_open(path, NULL, &t), 0);
    xu_orc_get_stats(t, &st);
    assert_int_equal(st.version, 5 << 8 | 10);
    assert_int_equal(st.source, XU_ORC_FROM_VERSION);
    assert_int_equal(st.layout, XU_ORC_LAYOUT_4_14);
    assert_true(st.sp_indirect_before_5_12);
    expect_entry(t, F_IRET + 1, XU_ORC_TYPE_REGS_PARTIAL, XU_ORC_REG_SP, 8);
    xu_orc_free(t);

    /* the same ELF without its ORC sections */
    assert_int_equal(mkelf_write_patched(path, secs, 1, NULL, 0, NULL, 0, 0), 0);
    assert_int_equal(xu_orc_open(path, NULL, &t), -ENODATA);
    assert_null(t);
    unlink(path);
}

/* ------------------------------------------------------------------ walks */

struct fixture {
    struct sim_guest g;
    struct xu_target t;
    struct xu_mem *m;
    struct crafted c;
    struct xu_orc_table *orc;
};

static int setup(void **state)
{
    static struct fixture f;

    memset(&f, 0, sizeof(f));
    assert_int_equal(sim_guest_init(&f.g, XU_GUEST_PVH, 1, 0), 0);
    assert_int_equal(xu_sim_map_range(f.g.sim, f.g.root, TASK_STACK, STACK_BYTES), 0);
    assert_int_equal(xu_sim_map_range(f.g.sim, f.g.root, IRQ_STACK, STACK_BYTES), 0);
    assert_int_equal(xu_sim_target_open(f.g.sim, &f.t, NULL), 0);
    f.m = xu_mem_new(&f.t, NULL);
    assert_non_null(f.m);
    kernel_entries(&f.c);
    f.orc = table_of(&f.c, XU_ORC_LAYOUT_6_4, 0);
    *state = &f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;

    if (!f)
        return 0;
    xu_orc_free(f->orc);
    xu_mem_free(f->m);
    xu_target_close(&f->t);
    sim_guest_fini(&f->g);
    return 0;
}

struct stk {
    struct fixture *f;
    uint64_t sp;
};

static void push(struct stk *s, uint64_t v)
{
    s->sp -= 8;
    assert_int_equal(xu_sim_write_u64(s->f->g.sim, s->f->g.root, s->sp, v), 0);
}

/* A pt_regs pushed by entry code: ip, cs, sp and bp, r10 as given. */
static uint64_t push_regs(struct stk *s, uint64_t ip, uint64_t cs, uint64_t sp, uint64_t bp,
                          uint64_t r10)
{
    uint64_t w[PT_WORDS] = { 0 };
    int i;

    w[PT_IP] = ip;
    w[PT_CS] = cs;
    w[PT_SP] = sp;
    w[PT_BP] = bp;
    w[PT_R10] = r10;
    for (i = PT_WORDS - 1; i >= 0; i--)
        push(s, w[i]);
    return s->sp;
}

static void regs_at(struct fixture *f, struct xu_vcpu_regs *regs, uint64_t ip, uint64_t sp,
                    uint64_t bp)
{
    memset(regs, 0, sizeof(*regs));
    regs->online = true;
    regs->kernel_mode = true;
    regs->mmu.paging = XU_PAGING_LONG4;
    regs->mmu.root = f->g.root;
    regs->ip = ip;
    regs->sp = sp;
    regs->fp = bp;
}

static enum xu_orc_stop walk(struct fixture *f, const struct xu_orc_table *t,
                             const struct xu_vcpu_regs *regs, uint64_t *pcs, unsigned int max,
                             struct xu_unwind_result *res)
{
    enum xu_orc_stop why;

    xu_mem_begin(f->m);
    xu_mem_set_context(f->m, regs);
    xu_orc_walk(t, f->m, regs, pcs, max, res, &why);
    return why;
}

/*
 * ret_from_fork -> framed (rbp frame) -> pusher (saves rbp) -> leaf: the
 * leaf's caller found from sp, pusher's from sp with rbp restored from
 * its save slot, framed's from that rbp, then the end of stack.
 */
static uint64_t build_call_chain(struct fixture *f, uint64_t *sp)
{
    struct stk s = { f, TASK_STACK + STACK_BYTES - 64 };
    uint64_t framed_bp;

    push(&s, F_ROOT + 0x20);                /* ret_from_fork: call framed */
    push(&s, 0);                            /* framed: push %rbp */
    framed_bp = s.sp;                       /* mov %rsp,%rbp */
    s.sp -= 40;                             /* locals */
    push(&s, F_FRAMED + 0x40);              /* call pusher */
    push(&s, framed_bp);                    /* pusher: push %rbp */
    s.sp -= 8;
    push(&s, F_PUSHER + 0x30);              /* call leaf */
    *sp = s.sp;
    return framed_bp;
}

static void test_walk_calls(void **state)
{
    struct fixture *f = *state;
    struct xu_vcpu_regs regs;
    struct xu_unwind_result res;
    uint64_t pcs[16], sp;
    const uint64_t want[] = { F_LEAF + 0x10, F_PUSHER + 0x30, F_FRAMED + 0x40, F_ROOT + 0x20 };

    build_call_chain(f, &sp);
    /* rbp holds data in the leaf: only pusher's save slot gives it back */
    regs_at(f, &regs, F_LEAF + 0x10, sp, 0x5555);
    assert_int_equal(walk(f, f->orc, &regs, pcs, 16, &res), XU_ORC_STOP_END_OF_STACK);
    expect_chain(pcs, &res, XU_WALK_CFI_ROOT, want, 4);

    /* through the seam, with the table in the env */
    {
        const struct xu_unwind_env env = { .orc = f->orc };

        xu_mem_begin(f->m);
        xu_unwind_orc_ops.walk(&env, f->m, &regs, pcs, 16, &res);
        expect_chain(pcs, &res, XU_WALK_CFI_ROOT, want, 4);
    }
    /* bounded by max_depth */
    assert_int_equal(walk(f, f->orc, &regs, pcs, 2, &res), XU_ORC_STOP_DEPTH);
    expect_chain(pcs, &res, XU_WALK_DEPTH, want, 2);
    /* a save slot that lies: framed's CFA from the wrong rbp goes nowhere */
    assert_int_equal(xu_sim_write_u64(f->g.sim, f->g.root, sp + 16, 0x10), 0);
    assert_int_equal(walk(f, f->orc, &regs, pcs, 16, &res), XU_ORC_STOP_BAD_STACK);
    expect_chain(pcs, &res, XU_WALK_BAD_FRAME, want, 3);
}

/* A syscall from user space: the handler's caller is entry code whose
 * pt_regs hold user registers, where the kernel's chain ends. */
static void test_walk_user_regs(void **state)
{
    struct fixture *f = *state;
    struct stk s = { f, TASK_STACK + STACK_BYTES - 64 };
    struct xu_vcpu_regs regs;
    struct xu_unwind_result res;
    uint64_t pcs[16];
    const uint64_t want[] = { F_LEAF + 0x8, F_SYSCALL + 0x10 };

    push_regs(&s, 0x401000, USER_CS, 0x7ffc0000, 0, 0);
    push(&s, F_SYSCALL + 0x10);             /* call the handler, a leaf here */
    regs_at(f, &regs, F_LEAF + 0x8, s.sp, 0);
    assert_int_equal(walk(f, f->orc, &regs, pcs, 16, &res), XU_ORC_STOP_USER_REGS);
    expect_chain(pcs, &res, XU_WALK_CFI_ROOT, want, 2);

    /* a vCPU in user mode has no kernel stack to walk */
    regs.kernel_mode = false;
    regs.ip = 0x401000;
    assert_int_equal(walk(f, f->orc, &regs, pcs, 16, &res), XU_ORC_STOP_USER_MODE);
    assert_int_equal(res.depth, 1);
    assert_int_equal(res.end, XU_WALK_CFI_ROOT);
}

/*
 * An interrupt in kernel mode: the handler's chain, the upcall marker,
 * the interrupted PC (exact: it is looked up as is) on the task stack,
 * with rbp from the pt_regs (framed's CFA is rbp-based), then its callers.
 */
static void test_walk_interrupt(void **state)
{
    struct fixture *f = *state;
    struct stk task = { f, TASK_STACK + STACK_BYTES - 64 };
    struct stk irq = { f, IRQ_STACK + STACK_BYTES - 64 };
    struct xu_vcpu_regs regs;
    struct xu_unwind_result res;
    uint64_t pcs[16], framed_bp, interrupted_sp;
    const uint64_t want[] = { F_LEAF + 0x8, F_SYSCALL + 0x10, XU_PC_UPCALL, F_FRAMED + 4,
                              F_ROOT + 0x20 };
    const uint64_t want_iret[] = { F_LEAF + 0x8, F_IRET + 0x10, XU_PC_UPCALL, F_PUSHER + 1,
                                   F_FRAMED + 0x40, F_ROOT + 0x20 };

    push(&task, F_ROOT + 0x20);
    push(&task, 0);
    framed_bp = task.sp;                    /* framed, interrupted just after its mov */
    interrupted_sp = task.sp;
    push_regs(&irq, F_FRAMED + 4, KERNEL_CS, interrupted_sp, framed_bp, 0);
    push(&irq, F_SYSCALL + 0x10);
    regs_at(f, &regs, F_LEAF + 0x8, irq.sp, 0x5555);
    assert_int_equal(walk(f, f->orc, &regs, pcs, 16, &res), XU_ORC_STOP_END_OF_STACK);
    expect_chain(pcs, &res, XU_WALK_CFI_ROOT, want, 5);

    /* an iret frame only (REGS_PARTIAL, 8 bytes above the return): pusher
     * interrupted after its push, so its frame is sp+24 with rbp saved */
    task.sp = framed_bp - 40;
    push(&task, F_FRAMED + 0x40);
    push(&task, framed_bp);
    task.sp -= 8;
    irq.sp = IRQ_STACK + STACK_BYTES - 64;
    push(&irq, 0x18);                       /* ss */
    push(&irq, task.sp);                    /* rsp */
    push(&irq, 0x246);                      /* rflags */
    push(&irq, KERNEL_CS);
    push(&irq, F_PUSHER + 1);               /* rip */
    push(&irq, 0);                          /* an error code */
    push(&irq, F_IRET + 0x10);
    regs_at(f, &regs, F_LEAF + 0x8, irq.sp, 0x5555);
    assert_int_equal(walk(f, f->orc, &regs, pcs, 16, &res), XU_ORC_STOP_END_OF_STACK);
    expect_chain(pcs, &res, XU_WALK_CFI_ROOT, want_iret, 6);

    /* the marker and the interrupted PC need two slots */
    assert_int_equal(walk(f, f->orc, &regs, pcs, 3, &res), XU_ORC_STOP_DEPTH);
    expect_chain(pcs, &res, XU_WALK_DEPTH, want_iret, 3);
}

/* The IRQ-stack switch: the task's stack pointer saved at the top of the
 * IRQ stack, the caller's sp [sp] + 16 (5.12 on) or [sp + 16] (before). */
static void test_walk_irq_stack(void **state)
{
    struct fixture *f = *state;
    struct stk task = { f, TASK_STACK + STACK_BYTES - 64 };
    struct stk irq = { f, IRQ_STACK + STACK_BYTES - 64 };
    struct xu_vcpu_regs regs;
    struct xu_unwind_result res;
    struct xu_orc_table *old;
    uint64_t pcs[16], switch_sp;
    const uint64_t want[] = { F_LEAF + 0x8, F_SWITCH + 0x20, F_ROOT + 0x20 };

    push(&task, F_ROOT + 0x20);             /* call switch */
    task.sp -= 8;                           /* switch's own push */
    switch_sp = task.sp;                    /* saved: caller's sp = it + 16 */
    push(&irq, switch_sp);                  /* movq %rsp, (top) */
    push(&irq, F_SWITCH + 0x20);            /* call the handler on the IRQ stack */
    regs_at(f, &regs, F_LEAF + 0x8, irq.sp, 0);
    assert_int_equal(walk(f, f->orc, &regs, pcs, 16, &res), XU_ORC_STOP_END_OF_STACK);
    expect_chain(pcs, &res, XU_WALK_CFI_ROOT, want, 3);

    /* before 5.12 the offset is inside: [sp + 16] */
    old = table_of(&f->c, XU_ORC_LAYOUT_4_14, 5 << 8 | 10);
    assert_int_equal(xu_sim_write_u64(f->g.sim, f->g.root, irq.sp + 8 + 16, switch_sp + 16), 0);
    assert_int_equal(walk(f, old, &regs, pcs, 16, &res), XU_ORC_STOP_END_OF_STACK);
    expect_chain(pcs, &res, XU_WALK_CFI_ROOT, want, 3);
    xu_orc_free(old);
}

/* r10 is known from a full pt_regs only; without one the walk stops. */
static void test_walk_registers(void **state)
{
    struct fixture *f = *state;
    struct stk task = { f, TASK_STACK + STACK_BYTES - 64 };
    struct stk irq = { f, IRQ_STACK + STACK_BYTES - 64 };
    struct xu_vcpu_regs regs;
    struct xu_unwind_result res;
    uint64_t pcs[16], drap;
    const uint64_t want[] = { F_LEAF + 0x8, F_SYSCALL + 0x10, XU_PC_UPCALL, F_DRAP + 0x10,
                              F_ROOT + 0x20 };

    push(&task, F_ROOT + 0x20);
    drap = task.sp + 8;                     /* lea 0x8(%rsp),%r10 */
    task.sp -= 64;                          /* realigned, pushes */
    push_regs(&irq, F_DRAP + 0x10, KERNEL_CS, task.sp, 0, drap);
    push(&irq, F_SYSCALL + 0x10);
    regs_at(f, &regs, F_LEAF + 0x8, irq.sp, 0);
    assert_int_equal(walk(f, f->orc, &regs, pcs, 16, &res), XU_ORC_STOP_END_OF_STACK);
    expect_chain(pcs, &res, XU_WALK_CFI_ROOT, want, 5);

    /* stopped in it directly: the vCPU's registers hold no r10 for us */
    regs_at(f, &regs, F_DRAP + 0x10, task.sp, 0);
    assert_int_equal(walk(f, f->orc, &regs, pcs, 16, &res), XU_ORC_STOP_NO_REGISTER);
    assert_int_equal(res.end, XU_WALK_BAD_FRAME);
    assert_int_equal(res.depth, 1);
}

/* What cannot be unwound ends the walk, and says why. */
static void test_walk_ends(void **state)
{
    struct fixture *f = *state;
    struct stk s = { f, TASK_STACK + STACK_BYTES - 64 };
    struct xu_vcpu_regs regs;
    struct xu_unwind_result res;
    uint64_t pcs[16];

    push(&s, F_UNDEF + 0x10);
    regs_at(f, &regs, F_LEAF + 0x8, s.sp, 0);
    assert_int_equal(walk(f, f->orc, &regs, pcs, 16, &res), XU_ORC_STOP_UNDEFINED);
    assert_int_equal(res.end, XU_WALK_BAD_FRAME);
    assert_int_equal(res.depth, 2);

    /* a module's address: no entry */
    assert_int_equal(xu_sim_write_u64(f->g.sim, f->g.root, s.sp, 0xffffffffc0001234ULL), 0);
    assert_int_equal(walk(f, f->orc, &regs, pcs, 16, &res), XU_ORC_STOP_NO_ENTRY);
    assert_int_equal(res.depth, 2);

    /* a stack pointer off the mapped stack */
    regs_at(f, &regs, F_LEAF + 0x8, TASK_STACK + STACK_BYTES, 0);
    assert_int_equal(walk(f, f->orc, &regs, pcs, 16, &res), XU_ORC_STOP_FAULT);
    assert_int_equal(res.end, XU_WALK_UNMAPPED);
    assert_int_equal(res.depth, 1);

    /* no table */
    regs_at(f, &regs, F_LEAF + 0x8, s.sp, 0);
    assert_int_equal(walk(f, NULL, &regs, pcs, 16, &res), XU_ORC_STOP_NO_TABLE);
    assert_int_equal(res.depth, 1);
    assert_int_equal(walk(f, f->orc, &regs, pcs, 0, &res), XU_ORC_STOP_DEPTH);
    assert_int_equal(res.depth, 0);
}

/*
 * An end-of-stack entry is a root only where the stack ends.  Before 6.4
 * one hint made both that mark and "undefined here", and the retpoline
 * thunks, called in mid-stack, carry it.
 */
static void test_walk_end_mid_stack(void **state)
{
    struct fixture *f = *state;
    const uint64_t top = TASK_STACK + 0x4000;   /* a 16 KiB boundary */
    struct stk s = { f, TASK_STACK + 0x2000 };
    struct stk irq = { f, IRQ_STACK + STACK_BYTES - 64 };
    struct xu_vcpu_regs regs;
    struct xu_unwind_result res;
    uint64_t pcs[16];

    /* stopped in the thunk, its caller's frame 2 KiB below a top */
    regs_at(f, &regs, F_ROOT + 0x10, top - 0x800, 0);
    assert_int_equal(walk(f, f->orc, &regs, pcs, 16, &res), XU_ORC_STOP_END_MID_STACK);
    assert_int_equal(res.end, XU_WALK_NOT_ROOT);
    assert_int_equal(res.depth, 1);
    assert_string_equal(xu_orc_stop_name(XU_ORC_STOP_END_MID_STACK),
                        "end-of-stack mark in mid-stack");

    /* the same mark with a pt_regs (168 bytes) left above sp: a root */
    regs_at(f, &regs, F_ROOT + 0x10, top - 168, 0);
    assert_int_equal(walk(f, f->orc, &regs, pcs, 16, &res), XU_ORC_STOP_END_OF_STACK);
    assert_int_equal(res.end, XU_WALK_CFI_ROOT);
    regs_at(f, &regs, F_ROOT + 0x10, top - XU_ORC_ROOT_SLACK - 8, 0);
    assert_int_equal(walk(f, f->orc, &regs, pcs, 16, &res), XU_ORC_STOP_END_MID_STACK);

    /* near the top of an IRQ stack, but just called: a return address at sp */
    assert_int_equal(xu_sim_write_u64(f->g.sim, f->g.root, top - 24, F_LEAF + 0x20), 0);
    regs_at(f, &regs, F_ROOT + 0x10, top - 24, 0);
    assert_int_equal(walk(f, f->orc, &regs, pcs, 16, &res), XU_ORC_STOP_END_MID_STACK);
    /* a user register saved there (rcx of a PV bounce frame): a root */
    assert_int_equal(xu_sim_write_u64(f->g.sim, f->g.root, top - 24, 0x401000), 0);
    assert_int_equal(walk(f, f->orc, &regs, pcs, 16, &res), XU_ORC_STOP_END_OF_STACK);

    /* the way back to user mode, on the CPU's entry stack: a root at its
     * top, not 2 KiB below */
    regs_at(f, &regs, F_ROOT + 0x10, 0xfffffe0000003000ULL - 48, 0);
    assert_int_equal(walk(f, f->orc, &regs, pcs, 16, &res), XU_ORC_STOP_END_OF_STACK);
    regs_at(f, &regs, F_ROOT + 0x10, 0xfffffe0000003000ULL - 0x800, 0);
    assert_int_equal(walk(f, f->orc, &regs, pcs, 16, &res), XU_ORC_STOP_END_MID_STACK);
    regs_at(f, &regs, F_ROOT + 0x10, 0xffffc90000003000ULL - 48, 0);
    assert_int_equal(walk(f, f->orc, &regs, pcs, 16, &res), XU_ORC_STOP_END_MID_STACK);

    /* entry code before its stack switch: user mode's sp, a root */
    regs_at(f, &regs, F_ROOT + 0x10, 0x7ffc0000, 0);
    assert_int_equal(walk(f, f->orc, &regs, pcs, 16, &res), XU_ORC_STOP_END_OF_STACK);
    assert_int_equal(res.end, XU_WALK_CFI_ROOT);

    /* reached from a callee mid-stack: not a root, and the chain is kept */
    push(&s, F_ROOT + 0x20);
    regs_at(f, &regs, F_LEAF + 0x8, s.sp, 0);
    assert_int_equal(walk(f, f->orc, &regs, pcs, 16, &res), XU_ORC_STOP_END_MID_STACK);
    assert_int_equal(res.end, XU_WALK_NOT_ROOT);
    assert_int_equal(res.depth, 2);
    assert_int_equal(pcs[1], F_ROOT + 0x20);

    /* a kernel-mode interrupt frame whose sp is in the user half: only the
     * vCPU's own sp may be user mode's */
    push_regs(&irq, F_ROOT + 0x10, KERNEL_CS, 0x7ffc0000, 0, 0);
    push(&irq, F_SYSCALL + 0x10);
    regs_at(f, &regs, F_LEAF + 0x8, irq.sp, 0);
    assert_int_equal(walk(f, f->orc, &regs, pcs, 16, &res), XU_ORC_STOP_END_MID_STACK);
    assert_int_equal(res.depth, 4);
}

/* Code bytes at addr (a text page the walk reads), int3 after them to the
 * end of their last 8-byte word and of the next one. */
static void put_code(struct fixture *f, uint64_t addr, const uint8_t *code, size_t n)
{
    size_t i, at;

    for (at = 0; at <= n; at += 8) {
        uint64_t w = 0;

        for (i = 0; i < 8; i++)
            w |= (uint64_t)(at + i < n ? code[at + i] : 0xcc) << (8 * i);
        assert_int_equal(xu_sim_write_u64(f->g.sim, f->g.root, addr + at, w), 0);
    }
}

/*
 * Stopped in a thunk (the tables' end-of-stack mark, called in mid-stack)
 * before its branch: the caller's return address is at sp, and the walk
 * goes on from it when the code at the PC is that branch.
 */
static void test_walk_thunk(void **state)
{
    struct fixture *f = *state;
    const uint64_t top = TASK_STACK + 0x4000, thunk = F_ROOT + 0x40;
    struct stk s = { f, top - 168 };
    struct xu_vcpu_regs regs;
    struct xu_unwind_result res;
    uint64_t pcs[16];
    const uint64_t want[] = { thunk, F_LEAF + 0x20, F_ROOT + 0x20 };
    const uint8_t lfence_jmp[] = { 0x0f, 0xae, 0xe8, 0xff, 0xe0 };     /* lfence; jmp *%rax */
    const uint8_t jmp_r11[] = { 0x41, 0xff, 0xe3 };                    /* jmp *%r11 */
    const uint8_t retpoline[] = { 0xe8, 0x06, 0x00, 0x00, 0x00 };      /* call .Ldo_rop */
    const uint8_t nops[] = { 0x90, 0x90, 0x90, 0x90, 0x90 };
    const uint8_t far_call[] = { 0xe8, 0x00, 0x10, 0x00, 0x00 };

    assert_int_equal(xu_sim_map_range(f->g.sim, f->g.root, TEXT, 0x1000), 0);
    push(&s, F_ROOT + 0x20);                /* ret_from_fork called the leaf */
    push(&s, F_LEAF + 0x20);                /* which called the thunk */
    regs_at(f, &regs, thunk, s.sp, 0);

    put_code(f, thunk, lfence_jmp, sizeof(lfence_jmp));
    assert_int_equal(walk(f, f->orc, &regs, pcs, 16, &res), XU_ORC_STOP_END_OF_STACK);
    expect_chain(pcs, &res, XU_WALK_CFI_ROOT, want, 3);
    put_code(f, thunk, jmp_r11, sizeof(jmp_r11));
    assert_int_equal(walk(f, f->orc, &regs, pcs, 16, &res), XU_ORC_STOP_END_OF_STACK);
    expect_chain(pcs, &res, XU_WALK_CFI_ROOT, want, 3);
    put_code(f, thunk, retpoline, sizeof(retpoline));
    assert_int_equal(walk(f, f->orc, &regs, pcs, 16, &res), XU_ORC_STOP_END_OF_STACK);
    expect_chain(pcs, &res, XU_WALK_CFI_ROOT, want, 3);
    /* bounded: one frame only, the thunk's caller's past it */
    assert_int_equal(walk(f, f->orc, &regs, pcs, 1, &res), XU_ORC_STOP_DEPTH);
    assert_int_equal(res.depth, 1);

    /* other code there: the mark stands, and with a return address at sp
     * it is not a root */
    put_code(f, thunk, nops, sizeof(nops));
    assert_int_equal(walk(f, f->orc, &regs, pcs, 16, &res), XU_ORC_STOP_END_MID_STACK);
    assert_int_equal(res.depth, 1);
    put_code(f, thunk, far_call, sizeof(far_call));
    assert_int_equal(walk(f, f->orc, &regs, pcs, 16, &res), XU_ORC_STOP_END_MID_STACK);

    /* the branch, but no return address at sp (in mid-stack): nothing to
     * step to, and no root */
    put_code(f, thunk, lfence_jmp, sizeof(lfence_jmp));
    assert_int_equal(xu_sim_write_u64(f->g.sim, f->g.root, top - 0x800, 0x401000), 0);
    regs_at(f, &regs, thunk, top - 0x800, 0);
    assert_int_equal(walk(f, f->orc, &regs, pcs, 16, &res), XU_ORC_STOP_END_MID_STACK);
    assert_int_equal(res.depth, 1);
}

/* The iret frame the CPU, or Xen's bounce, leaves: rip at the returned sp. */
static void push_iret(struct stk *s, uint64_t rip, uint64_t cs, uint64_t rsp)
{
    push(s, (cs & 3) ? 0xe02b : 0);         /* ss */
    push(s, rsp);
    push(s, 0x246);                         /* rflags */
    push(s, cs);
    push(s, rip);
}

/* Xen's bounce frame for an exception into a PV stub: rcx and r11 above
 * the error code and the iret frame; the bounce's sp. */
static uint64_t push_bounce(struct stk *s, uint64_t rip, uint64_t cs, uint64_t rsp)
{
    push_iret(s, rip, cs, rsp);
    push(s, 0);                             /* error code */
    push(s, 0x11);                          /* r11 */
    push(s, 0x22);                          /* rcx */
    return s->sp;
}

static void expect_user_root(struct fixture *f, uint64_t pc, uint64_t sp)
{
    struct xu_vcpu_regs regs;
    struct xu_unwind_result res;
    uint64_t pcs[16];

    regs_at(f, &regs, pc, sp, 0);
    assert_int_equal(walk(f, f->orc, &regs, pcs, 16, &res), XU_ORC_STOP_USER_REGS);
    assert_int_equal(res.depth, 1);
    assert_int_equal(res.end, XU_WALK_CFI_ROOT);
}

/*
 * Stopped in Xen PV's exception stub (pop %rcx; pop %r11; jmp to the
 * native entry, which takes an error code and an iret frame: F_IRET here)
 * or in its iret (four pushes, then HYPERVISOR_iret), both end-of-stack in
 * the tables: from user mode the walk ends at the frame Xen left, from
 * kernel mode it goes on into the interrupted code, at every instruction.
 */
static void test_walk_pv_stubs(void **state)
{
    struct fixture *f = *state;
    const uint64_t trap = F_ROOT + 0x80, iret = F_ROOT + 0xc0;
    struct stk task = { f, TASK_STACK + STACK_BYTES - 64 }, s;
    struct xu_vcpu_regs regs;
    struct xu_unwind_result res;
    uint64_t pcs[16], sp, user_sp;
    uint8_t trap_code[8] = { 0x59, 0x41, 0x5b, 0xe9 };
    const uint8_t iret_code[] = { 0x6a, 0x00, 0x51, 0x41, 0x53, 0x50, 0xb8, 0x17, 0x00, 0x00,
                                  0x00, 0x0f, 0x05 };
    const uint64_t want_trap[] = { trap, XU_PC_UPCALL, F_LEAF + 0x8, F_ROOT + 0x20 };
    const uint64_t want_iret[] = { iret + 5, XU_PC_UPCALL, F_LEAF + 0x8, F_ROOT + 0x20 };
    uint8_t other[sizeof(iret_code)];
    int32_t rel = (int32_t)(F_IRET - (trap + 8));

    memcpy(trap_code + 4, &rel, 4);
    assert_int_equal(xu_sim_map_range(f->g.sim, f->g.root, TEXT, 0x1000), 0);
    put_code(f, trap, trap_code, sizeof(trap_code));
    put_code(f, iret, iret_code, sizeof(iret_code));
    push(&task, F_ROOT + 0x20);             /* ret_from_fork called the leaf */

    /* the trap from user mode, before each pop and at the jump */
    s = (struct stk){ f, task.sp - 512 };
    user_sp = push_bounce(&s, 0x401000, USER_CS, 0x7ffc0000);
    expect_user_root(f, trap, user_sp);
    expect_user_root(f, trap + 1, user_sp + 8);
    expect_user_root(f, trap + 3, user_sp + 16);
    /* from kernel mode: the leaf it interrupted, and on */
    s = (struct stk){ f, task.sp - 64 };
    sp = push_bounce(&s, F_LEAF + 0x8, KERNEL_CS, task.sp);
    regs_at(f, &regs, trap, sp, 0);
    assert_int_equal(walk(f, f->orc, &regs, pcs, 16, &res), XU_ORC_STOP_END_OF_STACK);
    expect_chain(pcs, &res, XU_WALK_CFI_ROOT, want_trap, 4);
    regs_at(f, &regs, trap + 1, sp + 8, 0);
    assert_int_equal(walk(f, f->orc, &regs, pcs, 16, &res), XU_ORC_STOP_END_OF_STACK);
    assert_true(pcs[0] == trap + 1);
    expect_chain(pcs + 1, &(struct xu_unwind_result){ .depth = res.depth - 1, .end = res.end },
                 XU_WALK_CFI_ROOT, want_trap + 1, 3);
    /* the marker and the interrupted PC need two slots */
    regs_at(f, &regs, trap, sp, 0);
    assert_int_equal(walk(f, f->orc, &regs, pcs, 3, &res), XU_ORC_STOP_DEPTH);
    expect_chain(pcs, &res, XU_WALK_DEPTH, want_trap, 3);
    /* a jump to code that takes no interrupt frame: the mark stands (in
     * mid-stack) */
    rel = (int32_t)(F_LEAF - (trap + 8));
    memcpy(trap_code + 4, &rel, 4);
    put_code(f, trap, trap_code, sizeof(trap_code));
    regs_at(f, &regs, trap, user_sp, 0);
    assert_int_equal(walk(f, f->orc, &regs, pcs, 16, &res), XU_ORC_STOP_END_MID_STACK);
    assert_int_equal(res.depth, 1);

    /* the iret to user mode, before each push and at the hypercall's
     * number */
    s = (struct stk){ f, task.sp - 512 };
    push_iret(&s, 0x401000, USER_CS, 0x7ffc0000);
    user_sp = s.sp;
    expect_user_root(f, iret, s.sp);
    expect_user_root(f, iret + 2, s.sp - 8);
    expect_user_root(f, iret + 3, s.sp - 16);
    expect_user_root(f, iret + 5, s.sp - 24);
    expect_user_root(f, iret + 6, s.sp - 32);
    /* to kernel mode: the interrupted leaf, and on */
    s = (struct stk){ f, task.sp - 64 };
    push_iret(&s, F_LEAF + 0x8, KERNEL_CS, task.sp);
    regs_at(f, &regs, iret + 5, s.sp - 24, 0);
    assert_int_equal(walk(f, f->orc, &regs, pcs, 16, &res), XU_ORC_STOP_END_OF_STACK);
    expect_chain(pcs, &res, XU_WALK_CFI_ROOT, want_iret, 4);
    /* not the iret hypercall's number: the mark stands (in mid-stack) */
    memcpy(other, iret_code, sizeof(other));
    other[7] = 0x18;
    put_code(f, iret, other, sizeof(other));
    regs_at(f, &regs, iret, user_sp, 0);
    assert_int_equal(walk(f, f->orc, &regs, pcs, 16, &res), XU_ORC_STOP_END_MID_STACK);
    assert_int_equal(res.depth, 1);
}

/* Two stacks whose saved pointers name each other: every step switches,
 * and the switches are bounded. */
static void test_walk_switch_loop(void **state)
{
    struct fixture *f = *state;
    const uint64_t a = TASK_STACK + 0x1000, b = IRQ_STACK + 0x1000;
    struct xu_vcpu_regs regs;
    struct xu_unwind_result res;
    uint64_t pcs[64];

    /* [a] + 16 = b, [b] + 16 = a; the return addresses below them switch again */
    assert_int_equal(xu_sim_write_u64(f->g.sim, f->g.root, a, b - 16), 0);
    assert_int_equal(xu_sim_write_u64(f->g.sim, f->g.root, b, a - 16), 0);
    assert_int_equal(xu_sim_write_u64(f->g.sim, f->g.root, a - 8, F_SWITCH + 0x21), 0);
    assert_int_equal(xu_sim_write_u64(f->g.sim, f->g.root, b - 8, F_SWITCH + 0x21), 0);
    regs_at(f, &regs, F_SWITCH + 0x20, a, 0);
    assert_int_equal(walk(f, f->orc, &regs, pcs, 64, &res), XU_ORC_STOP_BAD_STACK);
    assert_int_equal(res.end, XU_WALK_BAD_FRAME);
    assert_true(res.depth <= 2 + XU_ORC_MAX_SWITCHES);
}

/* ------------------------------------------------- Debian's own kernel */

/* The address of a text symbol of System.map, 0 when absent. */
static uint64_t map_addr(const char *map, const char *name)
{
    FILE *fp = fopen(map, "r");
    char line[512], type, sym[256];
    unsigned long long addr;
    uint64_t found = 0;

    if (!fp)
        return 0;
    while (!found && fgets(line, sizeof(line), fp))
        if (sscanf(line, "%llx %c %255s", &addr, &type, sym) == 3 &&
            (type == 't' || type == 'T') && strcmp(sym, name) == 0)
            found = addr;
    fclose(fp);
    return found;
}

/* The next text symbol's address after addr in System.map (a function's
 * end), 0 when none. */
static uint64_t map_next(const char *map, uint64_t addr)
{
    FILE *fp = fopen(map, "r");
    char line[512], type, sym[256];
    unsigned long long a;
    uint64_t next = 0;

    if (!fp)
        return 0;
    while (fgets(line, sizeof(line), fp))
        if (sscanf(line, "%llx %c %255s", &a, &type, sym) == 3 && a > addr &&
            (type == 't' || type == 'T') && (!next || a < next))
            next = a;
    fclose(fp);
    return next;
}

/* The bytes of the vmlinux at virtual address addr, len of them, or NULL. */
static const uint8_t *text_at(Elf *elf, const uint8_t *image, size_t size, uint64_t addr,
                              size_t len)
{
    Elf_Scn *scn = NULL;

    while ((scn = elf_nextscn(elf, scn))) {
        GElf_Shdr sh;

        if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_PROGBITS && addr >= sh.sh_addr &&
            addr + len <= sh.sh_addr + sh.sh_size && sh.sh_offset + sh.sh_size <= size)
            return image + sh.sh_offset + (addr - sh.sh_addr);
    }
    return NULL;
}

/* The return address of the first direct call from [from, to) to target. */
static uint64_t call_site(Elf *elf, const uint8_t *image, size_t size, uint64_t from,
                          uint64_t to, uint64_t target)
{
    const uint8_t *b = text_at(elf, image, size, from, (size_t)(to - from));
    size_t i;

    assert_non_null(b);
    for (i = 0; i + 5 <= to - from; i++) {
        int32_t rel;

        memcpy(&rel, b + i + 1, 4);
        if (b[i] == 0xe8 && from + i + 5 + (uint64_t)(int64_t)rel == target)
            return from + i + 5;
    }
    return 0;
}

/* A vCPU stopped on do_syscall_64's first instruction, called by the
 * syscall entry from user mode: the real entries walk it to the user
 * registers. */
static void debian_syscall_walk(const struct xu_orc_table *t, uint64_t handler, uint64_t ret)
{
    void *state = NULL;
    struct fixture *f;
    struct stk s;
    struct xu_vcpu_regs regs;
    struct xu_unwind_result res;
    uint64_t pcs[8];
    const uint64_t want[] = { handler, ret };

    assert_int_equal(setup(&state), 0);
    f = state;
    s = (struct stk){ f, TASK_STACK + STACK_BYTES - 64 };
    push_regs(&s, 0x401000, USER_CS, 0x7ffc0000, 0, 0);
    push(&s, ret);
    regs_at(f, &regs, handler, s.sp, 0);
    assert_int_equal(walk(f, t, &regs, pcs, 8, &res), XU_ORC_STOP_USER_REGS);
    expect_chain(pcs, &res, XU_WALK_CFI_ROOT, want, 2);
    teardown(&state);
}

/*
 * Where the real table is read at a return address, not a symbol: the
 * syscall entry's call of do_syscall_64 (after the label Xen PV's entry
 * jumps to) returns onto a full pt_regs, and
 * common_interrupt calls its handler on the IRQ stack (SP_INDIRECT).
 */
static void debian_call_sites(const struct xu_orc_table *t, const uint8_t *vmlinux,
                              size_t vlen, const char *map)
{
    Elf *elf;
    uint64_t entry = map_addr(map, "entry_SYSCALL_64_after_hwframe");
    uint64_t handler = map_addr(map, "do_syscall_64");
    uint64_t ci = map_addr(map, "common_interrupt"), ret, a;
    struct xu_orc_entry e;
    bool indirect = false;

    elf_version(EV_CURRENT);
    elf = elf_memory((char *)vmlinux, vlen);
    assert_non_null(elf);
    ret = call_site(elf, vmlinux, vlen, entry, map_next(map, entry), handler);
    assert_true(ret != 0);
    expect_entry(t, ret - 1, XU_ORC_TYPE_REGS, XU_ORC_REG_SP, 0);
    debian_syscall_walk(t, handler, ret);
    assert_true(ci != 0);
    for (a = ci; a < map_next(map, ci) && !indirect; a++)
        indirect = xu_orc_lookup(t, a, &e, NULL) && e.sp_reg == XU_ORC_REG_SP_INDIRECT &&
                   e.type == XU_ORC_TYPE_CALL;
    assert_true(indirect);
    elf_end(elf);
}

/*
 * The lab's Debian 6.1 kernel: its bzImage decompressed, its 384,849 ORC
 * entries read in the old layout its version names, and the entries of
 * functions the kernel's own sources annotate: the entry code that begins
 * a stack (END_OF_STACK), the interrupt entries (an iret frame, with the
 * error code above it for a page fault), C functions (CALL, sp + 8 at
 * their first byte), and two return addresses (debian_call_sites()).
 */
static void test_debian_kernel(void **state)
{
    char map[512], err[256];
    uint8_t *vmlinux;
    size_t vlen = 0;
    struct xu_orc_table *t = NULL;
    struct xu_orc_stats st;
    uint64_t a;
    int rc;

    (void)state;
    lab_kernel_map_path(map, sizeof(map));
    if (access(map, R_OK) != 0) {
        print_message("skipped: no Debian 6.1.0-56 System.map in the cache (%s)\n", map);
        skip();
    }
    vmlinux = lab_kernel_vmlinux(&vlen, err, sizeof(err));
    if (!vmlinux) {
        print_message("skipped: %s\n", err);
        skip();
    }
    rc = xu_orc_from_memory(vmlinux, vlen, &t, err, sizeof(err));
    if (rc < 0)
        fail_msg("Debian's kernel: %s", err);
    debian_call_sites(t, vmlinux, vlen, map);
    free(vmlinux);
    xu_orc_get_stats(t, &st);
    print_message("Debian 6.1.0-56: %zu ORC entries, %zu kept, layout %s, version %u.%u\n",
                  st.raw_entries, st.entries, xu_orc_layout_name(st.layout), st.version >> 8,
                  st.version & 0xff);
    assert_int_equal(st.raw_entries, 384849);
    assert_int_equal(st.version, 6 << 8 | 1);
    assert_int_equal(st.source, XU_ORC_FROM_VERSION);
    assert_int_equal(st.layout, XU_ORC_LAYOUT_4_14);
    assert_false(st.sp_indirect_before_5_12);

    a = map_addr(map, "ret_from_fork");
    assert_true(a != 0);
    expect_entry(t, a, XU_ORC_TYPE_END_OF_STACK, 0, 0);
    a = map_addr(map, "entry_SYSCALL_64");
    assert_true(a != 0);
    expect_entry(t, a, XU_ORC_TYPE_END_OF_STACK, 0, 0);
    a = map_addr(map, "asm_exc_page_fault");
    assert_true(a != 0);
    expect_entry(t, a, XU_ORC_TYPE_REGS_PARTIAL, XU_ORC_REG_SP, 8);
    a = map_addr(map, "asm_common_interrupt");
    assert_true(a != 0);
    expect_entry(t, a, XU_ORC_TYPE_REGS_PARTIAL, XU_ORC_REG_SP, 8);
    a = map_addr(map, "schedule");
    assert_true(a != 0);
    expect_entry(t, a, XU_ORC_TYPE_CALL, XU_ORC_REG_SP, 8);
    a = map_addr(map, "do_syscall_64");
    assert_true(a != 0);
    expect_entry(t, a, XU_ORC_TYPE_CALL, XU_ORC_REG_SP, 8);
    xu_orc_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layouts),
        cmocka_unit_test(test_layout_choice),
        cmocka_unit_test(test_hostile_tables),
        cmocka_unit_test(test_sort_and_ties),
        cmocka_unit_test(test_from_elf),
        cmocka_unit_test_setup_teardown(test_walk_calls, setup, teardown),
        cmocka_unit_test_setup_teardown(test_walk_user_regs, setup, teardown),
        cmocka_unit_test_setup_teardown(test_walk_interrupt, setup, teardown),
        cmocka_unit_test_setup_teardown(test_walk_irq_stack, setup, teardown),
        cmocka_unit_test_setup_teardown(test_walk_registers, setup, teardown),
        cmocka_unit_test_setup_teardown(test_walk_ends, setup, teardown),
        cmocka_unit_test_setup_teardown(test_walk_end_mid_stack, setup, teardown),
        cmocka_unit_test_setup_teardown(test_walk_thunk, setup, teardown),
        cmocka_unit_test_setup_teardown(test_walk_pv_stubs, setup, teardown),
        cmocka_unit_test_setup_teardown(test_walk_switch_loop, setup, teardown),
        cmocka_unit_test(test_debian_kernel),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
