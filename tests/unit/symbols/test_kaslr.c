/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_kaslr.c - a kernel relocated at boot, on the simulated guest: the
 * slide read from the vCPU (MSR_LSTAR, the IDT's divide-error gate),
 * checked for alignment and range (kaslr.c), confirmed against guest
 * memory by the ELF check (elf_match.c); hostile registers, memory that
 * does not confirm, and a kernel that did not move.
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "mkelf.h"
#include "mem/xu_mem.h"
#include "symbols/xu_elf_find.h"
#include "symbols/xu_kaslr.h"
#include "symbols/xu_symbols.h"
#include "xu_sim.h"

#define K 0xffffffff81000000ULL     /* where x86-64 Linux links its text */
#define K_SIZE 0x4000ULL
#define SYSCALL (K + 0x1000)
#define DIVIDE (K + 0x1800)
#define SLIDE 0x2a00000LL           /* 21 x 2 MiB */
#define IDT 0xfffffe0000000000ULL   /* Linux's read-only IDT in the CPU entry area */

static const struct mkelf_sym syms[] = {
    { "startup_64", K, 0x100, STT_FUNC, STB_GLOBAL, 0 },
    { "entry_SYSCALL_64", SYSCALL, 0x100, STT_FUNC, STB_GLOBAL, 0 },
    { "asm_exc_divide_error", DIVIDE, 0x40, STT_FUNC, STB_GLOBAL, 0 },
    { "work", K + 0x2000, 0x800, STT_FUNC, STB_GLOBAL, 0 },
    { "more", K + 0x3000, 0x400, STT_FUNC, STB_GLOBAL, 0 },
};

/* Code bytes as a function of the link-time address (seed 0: the build). */
static uint8_t code_byte(uint64_t link_va, unsigned int seed)
{
    uint64_t x = (link_va + seed * 0x9e3779b97f4a7c15ULL) * 0xff51afd7ed558ccdULL;

    return (uint8_t)(x >> 40) ^ (uint8_t)(seed ? 0x5a : 0);
}

static uint8_t text[K_SIZE];

struct fixture {
    char path[64];
    struct xu_sim *sim;
    struct xu_target t;
    struct xu_mem *m;
    uint64_t root;
    struct xu_vcpu_regs regs;
};

static int setup(void **state)
{
    static struct fixture f;
    const struct mkelf_section sec = { ".text", K, K_SIZE, false };
    struct mkelf_patch p = { K, text, sizeof(text) };
    uint64_t i;
    int fd;

    memset(&f, 0, sizeof(f));
    for (i = 0; i < K_SIZE; i++)
        text[i] = code_byte(K + i, 0);
    strcpy(f.path, "/tmp/xu-kaslr-XXXXXX");
    fd = mkstemp(f.path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(mkelf_write_patched(f.path, &sec, 1, &p, 1, syms, 5, 0), 0);
    f.sim = xu_sim_new(XU_GUEST_HVM, 512, 1);
    assert_non_null(f.sim);
    assert_int_equal(xu_sim_target_open(f.sim, &f.t, NULL), 0);
    f.root = xu_sim_new_root(f.sim);
    f.m = xu_mem_new(&f.t, NULL);
    assert_non_null(f.m);
    f.regs.online = true;
    f.regs.kernel_mode = true;
    f.regs.mmu.paging = XU_PAGING_LONG4;
    f.regs.mmu.root = f.root;
    *state = &f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;
    struct xu_sim_counters c;

    xu_sim_get_counters(f->sim, &c);
    assert_int_equal(c.pause_depth, 0);     /* never left paused */
    xu_mem_free(f->m);
    xu_target_close(&f->t);
    xu_sim_free(f->sim);
    unlink(f->path);
    return 0;
}

/* The kernel's text in the guest at K + slide, built with seed. */
static void load_kernel(struct fixture *f, int64_t slide, unsigned int seed)
{
    uint8_t buf[K_SIZE];
    uint64_t i;

    for (i = 0; i < K_SIZE; i++)
        buf[i] = code_byte(K + i, seed);
    assert_int_equal(xu_sim_map_range(f->sim, f->root, K + (uint64_t)slide, K_SIZE), 0);
    assert_int_equal(xu_sim_write(f->sim, f->root, K + (uint64_t)slide, buf, sizeof(buf)), 0);
}

/* An IDT whose divide-error gate (vector 0) names handler, with type_attr. */
static void load_idt(struct fixture *f, uint64_t handler, uint8_t type_attr)
{
    uint8_t g[16] = { 0 };

    g[0] = (uint8_t)handler;
    g[1] = (uint8_t)(handler >> 8);
    g[2] = 0x10;                        /* __KERNEL_CS */
    g[5] = type_attr;
    g[6] = (uint8_t)(handler >> 16);
    g[7] = (uint8_t)(handler >> 24);
    g[8] = (uint8_t)(handler >> 32);
    g[9] = (uint8_t)(handler >> 40);
    g[10] = (uint8_t)(handler >> 48);
    g[11] = (uint8_t)(handler >> 56);
    assert_int_equal(xu_sim_map_range(f->sim, f->root, IDT, 4096), 0);
    assert_int_equal(xu_sim_write(f->sim, f->root, IDT, g, sizeof(g)), 0);
    f->regs.idt_base = IDT;
}

static void match(struct fixture *f, struct xu_elf_match *r)
{
    assert_int_equal(xu_sim_push_state(f->sim, 0, &f->regs), 0);
    assert_int_equal(xu_elf_match_guest(f->path, NULL, &f->t, f->m, NULL, NULL, r), 0);
}

/* MSR_LSTAR holds entry_SYSCALL_64's runtime address: slide found, and
 * confirmed by the text there. */
static void test_found_from_syscall_entry(void **state)
{
    struct fixture *f = *state;
    struct xu_elf_match r;

    load_kernel(f, SLIDE, 0);
    f->regs.syscall_entry = SYSCALL + SLIDE;
    match(f, &r);
    assert_int_equal(r.verdict, XU_ELF_MATCH);
    assert_int_equal(r.slide, SLIDE);
    assert_int_equal(r.slide_source, XU_KASLR_FROM_SYSCALL);
    assert_int_equal(r.slide_runtime, SYSCALL + SLIDE);
    assert_int_equal(r.slide_candidates, 1);
    assert_int_equal(r.slide_rejected, 0);
    assert_true(r.kaslr_anchors);
    assert_true(r.chunks >= 3);
    assert_int_equal(r.agreeing, r.chunks);
}

/* Without LSTAR (0): the IDT's divide-error gate. */
static void test_found_from_idt(void **state)
{
    struct fixture *f = *state;
    struct xu_elf_match r;

    load_kernel(f, SLIDE, 0);
    load_idt(f, DIVIDE + SLIDE, 0x8e);
    match(f, &r);
    assert_int_equal(r.verdict, XU_ELF_MATCH);
    assert_int_equal(r.slide, SLIDE);
    assert_int_equal(r.slide_source, XU_KASLR_FROM_IDT);
}

/* Registers that point where no slide can put the kernel are rejected
 * without a read; the other register still finds it. */
static void test_hostile_syscall_entry(void **state)
{
    struct fixture *f = *state;
    static const uint64_t hostile[] = {
        SYSCALL + SLIDE + 0x1000,           /* not a multiple of 2 MiB */
        0x4141414141414141ULL,              /* not even the kernel half */
        SYSCALL + 0x3f000000ULL,            /* aligned, but the text would leave the window */
        SYSCALL - 0x1200000ULL,             /* below it */
    };
    struct xu_elf_match r;
    unsigned int i;

    load_kernel(f, SLIDE, 0);
    for (i = 0; i < sizeof(hostile) / sizeof(hostile[0]); i++) {
        f->regs.syscall_entry = hostile[i];
        f->regs.idt_base = 0;
        match(f, &r);
        assert_int_equal(r.slide_rejected, 1);
        assert_int_equal(r.slide_candidates, 0);
        assert_int_equal(r.slide, 0);
        /* nothing where the file says: unknown, never a match */
        assert_int_equal(r.verdict, XU_ELF_UNKNOWN);
    }
    /* the IDT still says where it is */
    load_idt(f, DIVIDE + SLIDE, 0x8f);
    match(f, &r);
    assert_int_equal(r.verdict, XU_ELF_MATCH);
    assert_int_equal(r.slide, SLIDE);
    assert_int_equal(r.slide_source, XU_KASLR_FROM_IDT);
    assert_int_equal(r.slide_rejected, 1);
}

/* A gate that is not present, or not an interrupt or trap gate, names nothing. */
static void test_idt_not_a_gate(void **state)
{
    struct fixture *f = *state;
    struct xu_elf_match r;

    load_kernel(f, SLIDE, 0);
    load_idt(f, DIVIDE + SLIDE, 0x0e);      /* not present */
    match(f, &r);
    assert_int_equal(r.slide_candidates, 0);
    assert_int_not_equal(r.verdict, XU_ELF_MATCH);
    load_idt(f, DIVIDE + SLIDE, 0x85);      /* a task gate */
    match(f, &r);
    assert_int_equal(r.slide_candidates, 0);
    /* an IDT the guest does not map */
    f->regs.idt_base = IDT + 0x100000;
    match(f, &r);
    assert_int_equal(r.slide_candidates, 0);
}

/* A slide the registers agree on, but another kernel's bytes there: the
 * image is refused (a mismatch, the ELF check's warning), no slide taken. */
static void test_memory_does_not_confirm(void **state)
{
    struct fixture *f = *state;
    struct xu_elf_match r;

    load_kernel(f, SLIDE, 1);
    f->regs.syscall_entry = SYSCALL + SLIDE;
    load_idt(f, DIVIDE + SLIDE, 0x8e);
    match(f, &r);
    assert_int_equal(r.verdict, XU_ELF_MISMATCH);
    assert_int_equal(r.slide_candidates, 1);    /* both registers, one slide */
    assert_int_equal(r.agreeing, 0);
    assert_true(r.first_diff_va >= K + SLIDE);     /* a guest address */

    /* a valid slide with nothing mapped there: unknown */
    f->regs.syscall_entry = SYSCALL + 2 * SLIDE;
    f->regs.idt_base = 0;
    match(f, &r);
    assert_int_equal(r.slide_candidates, 1);
    assert_int_equal(r.verdict, XU_ELF_UNKNOWN);
}

/* A kernel where it was linked: slide 0, confirmed, with or without a
 * register saying so; a PV vCPU holds neither register. */
static void test_no_slide(void **state)
{
    struct fixture *f = *state;
    struct xu_elf_match r;

    load_kernel(f, 0, 0);
    f->regs.syscall_entry = SYSCALL;
    match(f, &r);
    assert_int_equal(r.verdict, XU_ELF_MATCH);
    assert_int_equal(r.slide, 0);
    assert_int_equal(r.slide_source, XU_KASLR_FROM_SYSCALL);
    assert_int_equal(r.slide_candidates, 1);
    f->regs.syscall_entry = 0;
    match(f, &r);
    assert_int_equal(r.verdict, XU_ELF_MATCH);
    assert_int_equal(r.slide, 0);
    assert_int_equal(r.slide_source, XU_KASLR_NONE);
    assert_int_equal(r.slide_candidates, 0);
    /* a register pointing elsewhere, where nothing is: the file's own
     * addresses still match */
    f->regs.syscall_entry = SYSCALL + SLIDE;
    match(f, &r);
    assert_int_equal(r.verdict, XU_ELF_MATCH);
    assert_int_equal(r.slide, 0);
    assert_int_equal(r.slide_candidates, 1);
}

/* The range rule on its own: aligned, and the whole text in the window. */
static void test_slide_valid(void **state)
{
    struct xu_kaslr_anchors a = { .syscall_entry = SYSCALL, .text_lo = K,
                                  .text_hi = K + K_SIZE };

    (void)state;
    assert_true(xu_kaslr_slide_valid(&a, 0));
    assert_true(xu_kaslr_slide_valid(&a, SLIDE));
    assert_true(xu_kaslr_slide_valid(&a, -0x1000000LL));    /* down to the window's start */
    assert_false(xu_kaslr_slide_valid(&a, -0x1200000LL));
    assert_false(xu_kaslr_slide_valid(&a, SLIDE + 4096));
    assert_false(xu_kaslr_slide_valid(&a, 0x3f000000LL - 0));
    assert_false(xu_kaslr_slide_valid(&a, INT64_MIN));
    a.text_lo = 0x400000;       /* a user-space or unikernel image: never moved by this */
    a.text_hi = 0x500000;
    assert_false(xu_kaslr_slide_valid(&a, 0));
    assert_false(xu_kaslr_has_anchors(&(struct xu_kaslr_anchors){ 0 }));
}

/* The symbols, moved, answer at the runtime addresses only. */
static void test_symtab_relocate(void **state)
{
    struct fixture *f = *state;
    struct xu_symtab *st;
    const struct xu_symbol *s;

    assert_int_equal(xu_symtab_open(f->path, NULL, &st), 0);
    assert_int_equal(xu_symtab_relocate(st, SLIDE), 0);
    s = xu_symtab_lookup(st, K + SLIDE + 0x2010);
    assert_non_null(s);
    assert_string_equal(s->name, "work");
    assert_int_equal(s->start, K + 0x2000 + SLIDE);
    assert_null(xu_symtab_lookup(st, K + 0x2010));
    assert_int_equal(xu_symtab_find(st, "entry_SYSCALL_64")->start, SYSCALL + SLIDE);
    /* one that would wrap moves nothing */
    assert_int_equal(xu_symtab_relocate(st, 0x7f000000000LL), -ERANGE);
    assert_int_equal(xu_symtab_find(st, "work")->start, K + 0x2000 + SLIDE);
    assert_int_equal(xu_symtab_relocate(st, -SLIDE), 0);
    assert_string_equal(xu_symtab_lookup(st, K + 0x2010)->name, "work");
    xu_symtab_free(st);
}

/*
 * With XU_KASLR_CORPUS=DIR, the seed of tests/fuzz/corpus/fuzz_elf/ that
 * reaches the slides: this kernel, then the 24 bytes fuzz_elf reads as the
 * vCPU's MSR_LSTAR and divide-error gate, both at SLIDE.
 */
static void test_write_corpus(void **state)
{
    struct fixture *f = *state;
    const char *dir = getenv("XU_KASLR_CORPUS");
    uint8_t tail[24] = { 0 };
    uint64_t lstar = SYSCALL + SLIDE, h = DIVIDE + SLIDE;
    char cmd[512];
    FILE *out;
    unsigned int i;

    if (!dir)
        skip();
    for (i = 0; i < 8; i++)
        tail[i] = (uint8_t)(lstar >> (8 * i));
    tail[8] = (uint8_t)h;
    tail[9] = (uint8_t)(h >> 8);
    tail[10] = 0x10;
    tail[13] = 0x8e;
    for (i = 0; i < 6; i++)
        tail[14 + i] = (uint8_t)(h >> (16 + 8 * i));
    snprintf(cmd, sizeof(cmd), "cp %s %s/kaslr_kernel", f->path, dir);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof(cmd), "%s/kaslr_kernel", dir);
    out = fopen(cmd, "ab");
    assert_non_null(out);
    assert_int_equal(fwrite(tail, 1, sizeof(tail), out), sizeof(tail));
    fclose(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_found_from_syscall_entry, setup, teardown),
        cmocka_unit_test_setup_teardown(test_found_from_idt, setup, teardown),
        cmocka_unit_test_setup_teardown(test_hostile_syscall_entry, setup, teardown),
        cmocka_unit_test_setup_teardown(test_idt_not_a_gate, setup, teardown),
        cmocka_unit_test_setup_teardown(test_memory_does_not_confirm, setup, teardown),
        cmocka_unit_test_setup_teardown(test_no_slide, setup, teardown),
        cmocka_unit_test(test_slide_valid),
        cmocka_unit_test_setup_teardown(test_symtab_relocate, setup, teardown),
        cmocka_unit_test_setup_teardown(test_write_corpus, setup, teardown),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
