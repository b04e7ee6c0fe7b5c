/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_linux_modules.c - a Linux guest's module list read from a simulated
 * guest (struct module, mod_kallsyms and Elf64_Sym laid out at a test
 * layout's offsets), named through the chained symbol table; the hostile
 * lists (cycles, huge counts, unterminated names, pointers outside the
 * kernel half); and the layout found in the lab's Debian 6.1 kernel when
 * the download cache holds it.
 */
#include "config.h"

#include <elf.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <gelf.h>
#include <libelf.h>

#include "lab_kernel.h"
#include "sim_guest.h"
#include "symbols/xu_linux_image.h"
#include "unwind/xu_orc.h"

#define HEAD   0xffff888000200000ULL        /* the list head `modules` */
#define MODS   0xffff888000201000ULL        /* struct module k at MODS + k * 0x1000 */
#define TEXT   0xffffffffc0000000ULL        /* module k's text at TEXT + k * 0x10000 */
#define ORCS   0xffffffffc0800000ULL        /* module k's ORC tables at ORCS + k * 0x200 */

/* struct module and struct mod_kallsyms as the test lays them out */
static const struct xu_linux_module_layout layout = {
    .modules = HEAD, .list_offset = 8, .name_offset = 24, .name_size = 56,
    .text_base = { 0x100, 0x110 }, .text_size = { 0x108, 0x118 }, .text_size_bytes = 4,
    .kallsyms_offset = 0x120, .ks_symtab = 0, .ks_num = 8, .ks_num_bytes = 4, .ks_strtab = 16,
    .text_from = "core_layout",
    .has_orc = true, .orc_num = 0x128, .orc_ip = 0x130, .orc_unwind = 0x138,
};

struct fixture {
    struct sim_guest g;
    struct xu_target t;
    struct xu_mem *m;
    struct xu_vcpu_regs r;
};

static int setup(void **state)
{
    static struct fixture f;
    static const uint64_t chain[] = { SIM_TEXT_BASE + 0x1010, SIM_TEXT_BASE + 0x10 };

    memset(&f, 0, sizeof(f));
    assert_int_equal(sim_guest_init(&f.g, XU_GUEST_PVH, 1, 0), 0);
    assert_int_equal(xu_sim_map_range(f.g.sim, f.g.root, HEAD, 0x10000), 0);
    assert_int_equal(xu_sim_map_range(f.g.sim, f.g.root, ORCS, 0x1000), 0);
    assert_int_equal(xu_sim_target_open(f.g.sim, &f.t, NULL), 0);
    f.m = xu_mem_new(&f.t, NULL);
    assert_non_null(f.m);
    assert_int_equal(sim_guest_chain(&f.g, 0, chain, 2, &f.r), 0);
    *state = &f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;

    xu_mem_free(f->m);
    xu_target_close(&f->t);
    sim_guest_fini(&f->g);
    return 0;
}

static void put(struct fixture *f, uint64_t va, const void *p, size_t len)
{
    assert_int_equal(xu_sim_write(f->g.sim, f->g.root, va, p, len), 0);
}

static void put64(struct fixture *f, uint64_t va, uint64_t v)
{
    assert_int_equal(xu_sim_write_u64(f->g.sim, f->g.root, va, v), 0);
}

static void put32(struct fixture *f, uint64_t va, uint32_t v)
{
    put(f, va, &v, sizeof(v));
}

static uint64_t mod_at(unsigned int k)
{
    return MODS + (uint64_t)k * 0x1000;
}

/* Module k named name with a text of size bytes, linked after the head
 * by links (set by link_all). */
static void put_module(struct fixture *f, unsigned int k, const char *name, uint32_t size)
{
    char buf[56];

    memset(buf, 0, sizeof(buf));
    memcpy(buf, name, strnlen(name, sizeof(buf)));
    put(f, mod_at(k) + 24, buf, sizeof(buf));
    put64(f, mod_at(k) + 0x100, TEXT + (uint64_t)k * 0x10000);
    put32(f, mod_at(k) + 0x108, size);
    put64(f, mod_at(k) + 0x110, 0);
    put32(f, mod_at(k) + 0x118, 0);
    put64(f, mod_at(k) + 0x120, 0);
}

/* The list: head -> modules 0..n-1 -> head. */
static void link_all(struct fixture *f, unsigned int n)
{
    unsigned int k;

    put64(f, HEAD, n ? mod_at(0) + 8 : HEAD);
    for (k = 0; k < n; k++)
        put64(f, mod_at(k) + 8, k + 1 < n ? mod_at(k + 1) + 8 : HEAD);
}

/* Module k's kallsyms: n symbols (name, offset into its text, size, type). */
struct tsym {
    const char *name;
    uint64_t off, size;
    unsigned char type;
};

static void put_kallsyms(struct fixture *f, unsigned int k, const struct tsym *s, uint32_t n)
{
    uint64_t ks = mod_at(k) + 0x800, symtab = mod_at(k) + 0x840, strtab = mod_at(k) + 0xc00;
    uint32_t i, at = 1;

    put64(f, mod_at(k) + 0x120, ks);
    put64(f, ks, symtab);
    put32(f, ks + 8, n);
    put64(f, ks + 16, strtab);
    put(f, strtab, "", 1);
    for (i = 0; i < n; i++) {
        Elf64_Sym e = { .st_name = at, .st_info = ELF64_ST_INFO(STB_LOCAL, s[i].type),
                        .st_value = TEXT + (uint64_t)k * 0x10000 + s[i].off,
                        .st_size = s[i].size };

        put(f, symtab + i * sizeof(e), &e, sizeof(e));
        put(f, strtab + at, s[i].name, strlen(s[i].name) + 1);
        at += (uint32_t)strlen(s[i].name) + 1;
    }
}

static int read_list(struct fixture *f, struct xu_symtab **st, struct xu_linux_modules_stats *s)
{
    xu_mem_begin(f->m);
    xu_mem_set_context(f->m, &f->r);
    return xu_linux_modules_read(f->m, &layout, EM_X86_64, st, s);
}

static const char *name_at(const struct xu_symtab *st, uint64_t a)
{
    const struct xu_symbol *s = xu_symtab_lookup(st, a);

    return s ? s->name : "(none)";
}

static void test_named(void **state)
{
    static const struct tsym syms[] = {
        { "bf_enc", 0x100, 0x80, STT_FUNC }, { "bf_dec", 0x180, 0, STT_FUNC },
        { "bf_table", 0x300, 0x40, STT_OBJECT }, { "bf_setkey", 0x400, 0x10, STT_FUNC },
    };
    struct fixture *f = *state;
    struct xu_linux_modules_stats s;
    struct xu_symtab *st = NULL, *kernel = NULL;
    const struct xu_symbol ks = { .name = "schedule", .start = 0xffffffff81000000ULL,
                                  .size = 0x100, .function = true };

    put_module(f, 0, "blowfish", 0x1000);
    put_kallsyms(f, 0, syms, 4);
    put_module(f, 1, "no;syms here", 0x800);
    link_all(f, 2);
    assert_int_equal(read_list(f, &st, &s), 0);
    assert_non_null(st);
    assert_int_equal(s.modules, 2);
    assert_int_equal(s.without_symbols, 1);
    assert_int_equal(s.symbols, 3);
    assert_null(s.stopped);
    assert_string_equal(name_at(st, TEXT + 0x100), "blowfish:bf_enc");
    assert_string_equal(name_at(st, TEXT + 0x17f), "blowfish:bf_enc");
    /* a symbol of size 0 reaches the next one */
    assert_string_equal(name_at(st, TEXT + 0x3ff), "blowfish:bf_dec");
    assert_string_equal(name_at(st, TEXT + 0x40f), "blowfish:bf_setkey");
    assert_string_equal(name_at(st, TEXT + 0x410), "[module blowfish]");
    assert_string_equal(name_at(st, TEXT + 0x10), "[module blowfish]");
    assert_string_equal(name_at(st, TEXT + 0xfff), "[module blowfish]");
    assert_string_equal(name_at(st, TEXT + 0x1000), "(none)");
    assert_string_equal(name_at(st, TEXT + 0x10000), "[module no_syms_here]");
    assert_string_equal(name_at(st, TEXT + 0x107ff), "[module no_syms_here]");

    /* chained after the kernel's own table: both answer through it */
    assert_int_equal(xu_symtab_from_symbols(&ks, 1, EM_X86_64, &kernel), 0);
    xu_symtab_chain(kernel, st);
    assert_string_equal(name_at(kernel, 0xffffffff81000010ULL), "schedule");
    assert_string_equal(name_at(kernel, TEXT + 0x180), "blowfish:bf_dec");
    assert_string_equal(name_at(kernel, 0xffffffff82000000ULL), "(none)");
    xu_symtab_free(kernel);
}

static void test_empty_and_unreadable(void **state)
{
    struct fixture *f = *state;
    struct xu_linux_modules_stats s;
    struct xu_symtab *st = NULL;
    struct xu_linux_module_layout bad = layout;

    link_all(f, 0);
    assert_int_equal(read_list(f, &st, &s), 0);
    assert_null(st);
    assert_int_equal(s.modules, 0);
    bad.modules = 0xffff888000800000ULL;     /* unmapped */
    xu_mem_begin(f->m);
    xu_mem_set_context(f->m, &f->r);
    assert_int_equal(xu_linux_modules_read(f->m, &bad, EM_X86_64, &st, &s), -ENOENT);
    assert_null(st);
}

/* A list that never comes back to its head ends at the bound. */
static void test_cycle(void **state)
{
    struct fixture *f = *state;
    struct xu_linux_modules_stats s;
    struct xu_symtab *st = NULL;

    put_module(f, 0, "a", 0x100);
    put_module(f, 1, "b", 0x100);
    link_all(f, 2);
    put64(f, mod_at(1) + 8, mod_at(0) + 8);     /* b -> a -> b ... */
    assert_int_equal(read_list(f, &st, &s), 0);
    assert_non_null(st);
    assert_int_equal(s.modules, 2);             /* each text once: the rest overlap */
    assert_int_equal(s.skipped, XU_MODULES_MAX - 2);
    assert_non_null(s.stopped);
    assert_string_equal(name_at(st, TEXT + 0x10010), "[module b]");
    xu_symtab_free(st);
}

static void test_hostile(void **state)
{
    static const struct tsym syms[] = { { "f", 0x10, 0x10, STT_FUNC } };
    struct fixture *f = *state;
    struct xu_linux_modules_stats s;
    struct xu_symtab *st = NULL;
    char long_name[56];

    /* module 0: a name without its NUL; 1: a text outside the kernel half;
     * 2: a count of symbols beyond any bound, a symbol's name unterminated
     * until the bound; 3: a text too large */
    memset(long_name, 'x', sizeof(long_name));
    put_module(f, 0, "", 0x100);
    put(f, mod_at(0) + 24, long_name, sizeof(long_name));
    put_module(f, 1, "user", 0x100);
    put64(f, mod_at(1) + 0x100, 0x400000);
    put_module(f, 2, "huge", 0x100);
    put_kallsyms(f, 2, syms, 1);
    put32(f, mod_at(2) + 0x800 + 8, 0xffffffffu);
    put_module(f, 3, "big", 0x100);
    put32(f, mod_at(3) + 0x108, 0xfffffff0u);
    link_all(f, 4);
    assert_int_equal(read_list(f, &st, &s), 0);
    assert_non_null(st);
    assert_int_equal(s.modules, 1);
    assert_int_equal(s.skipped, 3);
    assert_int_equal(s.symbols, 1);
    assert_string_equal(name_at(st, TEXT + 0x20010), "huge:f");
    xu_symtab_free(st);

    /* a list pointer into user space ends the walk there */
    put_module(f, 0, "ok", 0x100);
    link_all(f, 2);
    put64(f, mod_at(0) + 8, 0x1000);
    assert_int_equal(read_list(f, &st, &s), 0);
    assert_int_equal(s.modules, 1);
    assert_string_equal(s.stopped, "a list pointer outside the kernel half");
    xu_symtab_free(st);
}

/* A symbol name longer than the bound is cut there, and an unterminated
 * one at the end of the mapping is dropped. */
static void test_long_symbol(void **state)
{
    struct fixture *f = *state;
    struct xu_linux_modules_stats s;
    struct xu_symtab *st = NULL;
    char longname[300];
    struct tsym syms[] = { { longname, 0x10, 0x10, STT_FUNC } };
    const char *n;

    memset(longname, 'a', sizeof(longname) - 1);
    longname[sizeof(longname) - 1] = '\0';
    put_module(f, 0, "m", 0x100);
    put_kallsyms(f, 0, syms, 1);
    link_all(f, 1);
    assert_int_equal(read_list(f, &st, &s), 0);
    n = name_at(st, TEXT + 0x10);
    assert_int_equal(strlen(n), 2 + XU_MODULE_SYM_NAME_MAX - 1);
    xu_symtab_free(st);
}

/* ---- the modules' own ORC tables ---- */

/* Module k's ORC tables: n entries, entry i "CALL, caller's sp at sp + 8 + 8 i" at its
 * address (absolute), the ips relative to their own place as the kernel keeps them. */
static void put_orc_at(struct fixture *f, unsigned int k, const uint64_t *at, uint32_t n,
                       uint64_t ip)
{
    uint64_t orc = ip + 0x100;
    uint8_t call[6] = { 8, 0, 0, 0, XU_ORC_REG_SP, 0 };
    uint32_t i;

    put32(f, mod_at(k) + 0x128, n);
    put64(f, mod_at(k) + 0x130, ip);
    put64(f, mod_at(k) + 0x138, orc);
    for (i = 0; i < n; i++) {
        put32(f, ip + 4 * i, (uint32_t)(at[i] - (ip + 4 * i)));
        call[0] = (uint8_t)(8 + 8 * i);
        put(f, orc + 6 * i, call, sizeof(call));
    }
}

/* ... at ORCS, within 2 GiB of the modules' text as the kernel allocates them. */
static void put_orc(struct fixture *f, unsigned int k, const uint64_t *at, uint32_t n)
{
    put_orc_at(f, k, at, n, ORCS + k * 0x200ULL);
}

/* The kernel's own table: one entry at the start of its text. */
static struct xu_orc_table *kernel_orc(void)
{
    static const uint8_t ip[4] = { 0 }, orc[6] = { 16, 0, 0, 0, XU_ORC_REG_SP, 0 };
    const struct xu_orc_sections sec = {
        .ip = ip, .ip_len = 4, .ip_addr = 0xffffffff81000000ULL, .orc = orc, .orc_len = 6,
        .text_start = 0xffffffff81000000ULL, .text_end = 0xffffffff81001000ULL,
        .layout_given = true, .layout = XU_ORC_LAYOUT_4_14,
    };
    struct xu_orc_table *t = NULL;

    assert_int_equal(xu_orc_from_sections(&sec, &t, NULL, 0), 0);
    return t;
}

static int read_orc(struct fixture *f, const struct xu_linux_module_layout *l,
                    struct xu_orc_table *kernel, struct xu_linux_modules_stats *s)
{
    xu_mem_begin(f->m);
    xu_mem_set_context(f->m, &f->r);
    return xu_linux_modules_read_orc(f->m, l, kernel, s);
}

/* A module's entries in its text are found through the kernel's table; one
 * outside it (init text the module freed) is left out; a module whose count
 * or pointers are out of bounds keeps none. */
static void test_orc(void **state)
{
    const uint64_t at[] = { TEXT + 0x10, TEXT + 0x40, TEXT + 0x20000 };
    const uint64_t at1[] = { TEXT + 0x10000 + 0x10 };
    struct fixture *f = *state;
    struct xu_linux_modules_stats s;
    struct xu_linux_module_layout no_orc = layout;
    struct xu_orc_table *k = kernel_orc();
    struct xu_orc_entry e;
    uint64_t start;

    put_module(f, 0, "zram", 0x1000);
    put_orc_at(f, 0, at, 3, ORCS + 0x402);     /* a module's sections are byte-aligned */
    put_module(f, 1, "huge", 0x1000);
    put_orc(f, 1, at1, 1);
    put32(f, mod_at(1) + 0x128, 0xffffffffu);
    link_all(f, 2);
    assert_int_equal(read_orc(f, &layout, k, &s), 0);
    assert_int_equal(s.modules, 2);
    assert_int_equal(s.orc_tables, 1);
    assert_int_equal(s.orc_modules, 1);
    assert_int_equal(s.orc_entries, 2);
    assert_true(xu_orc_lookup(k, TEXT + 0x18, &e, &start));
    assert_int_equal(start, TEXT + 0x10);
    assert_int_equal(e.type, XU_ORC_TYPE_CALL);
    assert_int_equal(e.sp_offset, 8);
    assert_true(xu_orc_lookup(k, TEXT + 0xfff, &e, &start));
    assert_int_equal(start, TEXT + 0x40);
    assert_int_equal(e.sp_offset, 16);
    assert_false(xu_orc_lookup(k, TEXT + 0x1000, &e, NULL));
    assert_false(xu_orc_lookup(k, TEXT + 0x10010, &e, NULL));
    /* the kernel's own entries still answer */
    assert_true(xu_orc_lookup(k, 0xffffffff81000010ULL, &e, NULL));
    assert_int_equal(e.sp_offset, 16);
    xu_orc_free(k);

    /* a pointer outside the kernel half, and a kernel without the members */
    k = kernel_orc();
    put64(f, mod_at(0) + 0x130, 0x1000);
    assert_int_equal(read_orc(f, &layout, k, &s), 0);
    assert_int_equal(s.orc_tables, 0);
    no_orc.has_orc = false;
    assert_int_equal(read_orc(f, &no_orc, k, &s), 0);
    assert_int_equal(s.orc_tables, 0);
    assert_false(xu_orc_lookup(k, TEXT + 0x18, &e, NULL));
    xu_orc_free(k);
}

/* ---- seeds for tests/fuzz/fuzz_modules ---- */

/* The harness's input: its header (the layout), then the region at HEAD. */
static void write_seed(struct fixture *f, const char *dir, const char *name)
{
    const uint16_t hdr[12] = { 0, 8, 24, 56, 0x100, 0x110, 0x108, 0x118, 0x120, 0, 8, 16 };
    const uint8_t widths[4] = { 0, 0, 0, 0 };   /* 4-byte sizes and count */
    static uint8_t region[0x10000];
    char path[512];
    FILE *fp;

    xu_mem_begin(f->m);
    xu_mem_set_context(f->m, &f->r);
    assert_int_equal(xu_mem_read(f->m, HEAD, region, sizeof(region)), 0);
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    fp = fopen(path, "wb");
    assert_non_null(fp);
    assert_int_equal(fwrite(hdr, sizeof(hdr), 1, fp), 1);
    assert_int_equal(fwrite(widths, sizeof(widths), 1, fp), 1);
    /* the modules end at MODS + 0x2000: the rest of the region is zeros */
    assert_int_equal(fwrite(region, 0x3000, 1, fp), 1);
    fclose(fp);
}

static void test_write_corpus(void **state)
{
    static const struct tsym syms[] = {
        { "bf_enc", 0x100, 0x80, STT_FUNC }, { "bf_dec", 0x180, 0, STT_FUNC },
        { "bf_setkey", 0x400, 0x10, STT_FUNC },
    };
    struct fixture *f = *state;
    const char *dir = getenv("XU_MODULES_CORPUS");
    const uint64_t at[] = { HEAD + 0x8100, HEAD + 0x8180, HEAD + 0x20000 };

    if (!dir)
        skip();
    put_module(f, 0, "blowfish", 0x1000);
    put_kallsyms(f, 0, syms, 3);
    put_module(f, 1, "nosyms", 0x800);
    link_all(f, 2);
    write_seed(f, dir, "two_modules");
    /* the harness maps the region alone: blowfish's text and ORC tables in it */
    put64(f, mod_at(0) + 0x100, HEAD + 0x8000);
    put_orc_at(f, 0, at, 3, mod_at(1) + 0x800);
    write_seed(f, dir, "orc");
    put64(f, mod_at(1) + 8, mod_at(0) + 8);
    write_seed(f, dir, "cycle");
}

/* ---- the lab's Debian kernel ---- */

/* The layout from the decompressed image, written to a file as the record
 * run's memfd is. */
static void test_debian_kernel(void **state)
{
    char path[] = "/tmp/xu-test-modules-XXXXXX", err[256];
    struct xu_linux_module_layout l;
    struct xu_linux_image img;
    int rc;

    (void)state;
    if (lab_kernel_file(path, err, sizeof(err)) < 0) {
        print_message("skipped: %s\n", err);
        skip();
    }
    rc = xu_linux_image_open(path, &img);
    unlink(path);
    if (rc < 0 || img.modules_rc < 0)
        fail_msg("Debian's kernel: %s", img.modules_err);
    assert_int_equal(img.task_rc, 0);       /* the same read gives the task layout */
    l = img.modules;
    print_message("Debian 6.1: ORC: num_orcs at %u, orc_unwind_ip at %u, orc_unwind at %u\n",
                  img.modules.orc_num, img.modules.orc_ip, img.modules.orc_unwind);
    print_message("Debian 6.1: modules at %#llx; struct module list at %u, name at %u (%u), "
                  "%s base at %u, text_size at %u, kallsyms at %u\n",
                  (unsigned long long)l.modules, l.list_offset, l.name_offset, l.name_size,
                  l.text_from, l.text_base[0], l.text_size[0], l.kallsyms_offset);
    assert_true((int64_t)l.modules < 0);
    assert_int_equal(l.list_offset, 8);
    assert_int_equal(l.name_offset, 24);
    assert_int_equal(l.name_size, 56);
    assert_string_equal(l.text_from, "core_layout");
    assert_int_equal(l.text_size_bytes, 4);
    assert_true(l.has_orc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_named, setup, teardown),
        cmocka_unit_test_setup_teardown(test_orc, setup, teardown),
        cmocka_unit_test_setup_teardown(test_empty_and_unreadable, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cycle, setup, teardown),
        cmocka_unit_test_setup_teardown(test_hostile, setup, teardown),
        cmocka_unit_test_setup_teardown(test_long_symbol, setup, teardown),
        cmocka_unit_test(test_debian_kernel),
        cmocka_unit_test_setup_teardown(test_write_corpus, setup, teardown),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
