/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_linux_alternatives.c - the calls an x86 Linux kernel patches into its own code
 * at boot, read from .altinstructions: each of struct alt_instr's three layouts, a
 * kernel relocated at boot, the tables no layout fits and the replacements that are
 * not calls; a walk through such a site vouched complete; and the sites of the lab's
 * Debian 6.1 kernel when the download cache holds it.
 */
#include "config.h"

#include <elf.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "lab_kernel.h"
#include "mkelf.h"
#include "symbols/xu_elf_code.h"
#include "symbols/xu_symbols.h"
#include "symbols/xu_vouch.h"

#define TEXT    0xffffffff81000000ULL
#define SITE    (TEXT + 0x100)          /* "rep stosb; nop; nop; nop" in the file */
#define REPL    0xffffffff82000000ULL   /* .altinstr_replacement */
#define TABLE   0xffffffff83000000ULL   /* .altinstructions */
#define MAX_ENTRIES 12
#define RET_IN_ROOT (TEXT + 0x810)      /* in ret_from_fork, after a call */

static const uint8_t rep_stos[5] = { 0xf3, 0xaa, 0x90, 0x90, 0x90 };
static const uint8_t call_rel32[5] = { 0xe8, 0x00, 0x10, 0x00, 0x00 };
static const uint8_t nop5[5] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };

static void put_s32(uint8_t *p, int64_t v)
{
    uint32_t u = (uint32_t)(int32_t)v;

    p[0] = (uint8_t)u;
    p[1] = (uint8_t)(u >> 8);
    p[2] = (uint8_t)(u >> 16);
    p[3] = (uint8_t)(u >> 24);
}

/* One struct alt_instr of the given size (12, 13 or 14) at TABLE + at. */
static void alt_entry(uint8_t *e, size_t size, uint64_t at, uint64_t site, uint64_t repl,
                      uint8_t site_len, uint8_t repl_len)
{
    size_t lens = size == 14 ? 12 : 10;

    memset(e, 0, size);
    put_s32(e, (int64_t)(site - (TABLE + at)));
    put_s32(e + 4, (int64_t)(repl - (TABLE + at + 4)));
    e[lens] = site_len;
    e[lens + 1] = repl_len;
}

/* An image at path with one site and the given replacement bytes, and count entries
 * of size bytes each for it (every other one to a second replacement, a NOP). */
static void write_image(const char *path, size_t size, const uint8_t *repl, uint64_t site,
                        size_t count)
{
    static const struct mkelf_section secs[] = {
        { ".text", TEXT, 0x1000, false },
        { ".altinstr_replacement", REPL, 0x100, false },
        { ".altinstructions", TABLE, 0x100, true },
    };
    static const struct mkelf_sym syms[] = {
        { "read_zero", TEXT + 0x80, 0x100, STT_FUNC, STB_GLOBAL, 0 },
        { "clear_user_erms", TEXT + 0x400, 0x40, STT_FUNC, STB_GLOBAL, 0 },
        { "ret_from_fork", TEXT + 0x800, 0x40, STT_FUNC, STB_GLOBAL, 0 },
    };
    uint8_t table[MAX_ENTRIES * 14];
    struct mkelf_patch patches[] = {
        { RET_IN_ROOT - 5, call_rel32, sizeof(call_rel32) },
        { SITE, rep_stos, sizeof(rep_stos) },
        { REPL, repl, 5 },
        { REPL + 5, nop5, sizeof(nop5) },
        { TABLE, table, count * size },
    };
    struct mkelf_section s[3];
    size_t i;

    assert_true(count <= MAX_ENTRIES);
    memcpy(s, secs, sizeof(s));
    s[2].size = count * size;                   /* the table is all the section holds */
    for (i = 0; i < count; i++)
        alt_entry(table + i * size, size, i * size, site, REPL + (i % 2) * 5, 5, 5);
    assert_int_equal(mkelf_write_patched(path, s, count ? 3 : 2, patches, 5, syms, 3, 0), 0);
}

/* write_image's code opened (and its symbols, with st). */
static struct xu_elf_code *image(size_t size, const uint8_t *repl, uint64_t site, size_t count,
                                 struct xu_symtab **st)
{
    char path[] = "/tmp/test_linux_alternatives.XXXXXX";
    struct xu_elf_code *code = NULL;
    int fd = mkstemp(path);

    assert_true(fd >= 0);
    close(fd);
    write_image(path, size, repl, site, count);
    assert_int_equal(xu_elf_code_open(path, NULL, &code), 0);
    if (st)
        assert_int_equal(xu_symtab_open(path, NULL, st), 0);
    unlink(path);
    return code;
}

/* 12 entries: a table of 13-byte entries is 12 of 12 bytes too, which must not fit. */
static void check_layout(size_t size)
{
    struct xu_elf_code *code = image(size, call_rel32, SITE, MAX_ENTRIES, NULL);

    assert_true(xu_elf_code_patched_call(code, SITE + 5));
    assert_false(xu_elf_code_patched_call(code, SITE + 4));
    assert_false(xu_elf_code_patched_call(code, SITE));
    assert_false(xu_elf_code_patched_call(code, REPL + 5));
    xu_elf_code_free(code);
}

static void test_layout_12(void **state)
{
    (void)state;
    check_layout(12);
}

static void test_layout_13(void **state)
{
    (void)state;
    check_layout(13);
}

static void test_layout_14(void **state)
{
    (void)state;
    check_layout(14);
}

/* KASLR: the patched returns move with the code. */
static void test_relocated(void **state)
{
    struct xu_elf_code *code = image(12, call_rel32, SITE, 1, NULL);

    (void)state;
    assert_int_equal(xu_elf_code_relocate(code, 0xa800000), 0);
    assert_true(xu_elf_code_patched_call(code, SITE + 5 + 0xa800000));
    assert_false(xu_elf_code_patched_call(code, SITE + 5));
    xu_elf_code_free(code);
}

/* A replacement that is no call puts none in. */
static void test_not_a_call(void **state)
{
    struct xu_elf_code *code = image(12, nop5, SITE, 1, NULL);

    (void)state;
    assert_false(xu_elf_code_patched_call(code, SITE + 5));
    xu_elf_code_free(code);
}

/* A site outside the code: no layout fits, and the whole table is refused. */
static void test_site_outside_code(void **state)
{
    struct xu_elf_code *code = image(12, call_rel32, TEXT + 0x2000, 1, NULL);

    (void)state;
    assert_false(xu_elf_code_patched_call(code, TEXT + 0x2005));
    assert_false(xu_elf_code_patched_call(code, SITE + 5));
    xu_elf_code_free(code);
}

static enum xu_walk_end vouched(size_t entries)
{
    const uint64_t pcs[] = { TEXT + 0x403, SITE + 5, RET_IN_ROOT };
    struct xu_symtab *st = NULL;
    struct xu_elf_code *code = image(12, call_rel32, SITE, entries, &st);
    const struct xu_vouch v = { st, code, &xu_arch_x86_64, NULL };
    struct xu_profile *p = xu_profile_new(0);
    enum xu_walk_end end;

    assert_non_null(p);
    assert_int_equal(xu_profile_add(p, 0, pcs, 3, XU_WALK_COMPLETE, 1), 0);
    xu_vouch_profile(p, &v);
    end = xu_profile_stack(p, 0)->end;
    xu_profile_free(p);
    xu_elf_code_free(code);
    xu_symtab_free(st);
    return end;
}

/* A walk through read_zero's patched call reaches ret_from_fork: complete with the
 * table, not after a call without it (the file's bytes are "rep stosb"). */
static void test_walk_vouched(void **state)
{
    (void)state;
    assert_int_equal(vouched(1), XU_WALK_COMPLETE);
    assert_int_equal(vouched(0), XU_WALK_NOT_CALL);
}

/* No table at all, and no code object. */
static void test_none(void **state)
{
    static const struct mkelf_sym syms[] = { { "f", TEXT, 0x10, STT_FUNC, STB_GLOBAL, 0 } };
    char path[] = "/tmp/test_linux_alternatives.XXXXXX";
    struct xu_elf_code *code = NULL;
    int fd = mkstemp(path);

    (void)state;
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(mkelf_write(path, TEXT, 0x1000, syms, 1, 0), 0);
    assert_int_equal(xu_elf_code_open(path, NULL, &code), 0);
    unlink(path);
    assert_false(xu_elf_code_patched_call(code, SITE + 5));
    assert_false(xu_elf_code_patched_call(NULL, SITE + 5));
    xu_elf_code_free(code);
}

/*
 * Debian's 6.1: read_zero's clear_user is "rep stosb" and three NOPs at
 * 0xffffffff816b7c48 in the file, and "call clear_user_erms" (or another of its
 * alternatives' calls) in the running kernel.
 */
static void test_debian_kernel(void **state)
{
    char path[] = "/tmp/xu-test-alternatives-XXXXXX", why[256];
    struct xu_elf_code *code = NULL;
    const uint8_t *b;
    int rc;

    (void)state;
    if (lab_kernel_file(path, why, sizeof(why)) < 0) {
        print_message("skipped: %s\n", why);
        skip();
    }
    rc = xu_elf_code_open(path, NULL, &code);
    unlink(path);
    assert_int_equal(rc, 0);
    b = xu_elf_code_before(code, 0xffffffff816b7c4dULL, 5);
    assert_non_null(b);
    assert_memory_equal(b, rep_stos, sizeof(rep_stos));
    assert_true(xu_elf_code_patched_call(code, 0xffffffff816b7c4dULL));
    assert_false(xu_elf_code_patched_call(code, 0xffffffff816b7c4cULL));
    xu_elf_code_free(code);
}

/* With XU_ALT_CORPUS=DIR, the seeds of tests/fuzz/corpus/fuzz_elf/ that reach the
 * table: the image in the 12- and 13-byte layouts. */
static void test_write_corpus(void **state)
{
    const char *dir = getenv("XU_ALT_CORPUS");
    char path[512];

    (void)state;
    if (!dir)
        skip();
    snprintf(path, sizeof(path), "%s/alternatives_12", dir);
    write_image(path, 12, call_rel32, SITE, MAX_ENTRIES);
    snprintf(path, sizeof(path), "%s/alternatives_13", dir);
    write_image(path, 13, call_rel32, SITE, MAX_ENTRIES);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layout_12),
        cmocka_unit_test(test_layout_13),
        cmocka_unit_test(test_layout_14),
        cmocka_unit_test(test_relocated),
        cmocka_unit_test(test_not_a_call),
        cmocka_unit_test(test_site_outside_code),
        cmocka_unit_test(test_walk_vouched),
        cmocka_unit_test(test_none),
        cmocka_unit_test(test_debian_kernel),
        cmocka_unit_test(test_write_corpus),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
