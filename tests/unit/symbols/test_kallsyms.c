/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_kallsyms.c - the kallsyms reader on tables made by mkkallsyms in
 * every layout it knows, damaged ones that must be refused without a crash,
 * and the symbol source that feeds a vmlinux's kallsyms to xu_symtab.
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
#include "mkkallsyms.h"
#include "symbols/xu_kallsyms.h"
#include "symbols/xu_symbols.h"

#define TEXT 0xffffffff81000000ULL
#define NSYMS 700                       /* three markers */

static struct mkks_sym syms[NSYMS];
static char names[NSYMS][600];

/* Percpu data first (small addresses), then text with data between. */
static size_t make_syms(int percpu, int long_name)
{
    size_t i, n = 0;

    if (percpu) {
        for (i = 0; i < 3; i++) {
            snprintf(names[n], sizeof(names[n]), "percpu_var%zu", i);
            syms[n] = (struct mkks_sym){ names[n], 0x1000 * i, 'A' };
            n++;
        }
    }
    for (i = 0; n < NSYMS; i++) {
        char type = i % 11 == 10 ? 'W' : i % 5 == 0 && i % 7 ? 'd' : i % 3 ? 'T' : 't';
        const char *stem = i % 7 == 0 ? "__sched_stem" : type == 'd' ? "data_" : "func_";

        snprintf(names[n], sizeof(names[n]), "%s%zu", stem, i);
        if (long_name && i == 300) {    /* over 127 bytes: a two-byte length */
            memset(names[n], 'L', 300);
            names[n][300] = '\0';
        }
        syms[n] = (struct mkks_sym){ names[n], TEXT + 0x40 * i, type };
        n++;
    }
    return n;
}

static void check_decoded(const struct xu_kallsyms *k, size_t n)
{
    size_t i;

    assert_int_equal(k->n, n);
    for (i = 0; i < n; i++) {
        assert_int_equal(k->syms[i].addr, syms[i].addr);
        assert_int_equal(k->syms[i].type, syms[i].type);
        assert_string_equal(k->pool + k->syms[i].name, syms[i].name);
    }
}

static void decode(unsigned int flags, int percpu, int long_name)
{
    size_t n = make_syms(percpu, long_name), len;
    uint8_t *blob = mkkallsyms(syms, n, flags, 4096, &len, NULL);
    struct xu_kallsyms k;
    char err[128];

    assert_non_null(blob);
    assert_int_equal(xu_kallsyms_read(blob, len, &k, err, sizeof(err)), 0);
    check_decoded(&k, n);
    assert_non_null(k.layout);
    xu_kallsyms_dispose(&k);
    free(blob);
}

static void test_offsets_before(void **state)
{
    (void)state;
    decode(MKKS_PERCPU, 1, 0);
    decode(0, 0, 0);
}

static void test_seqs_of_names(void **state)
{
    (void)state;
    decode(MKKS_SEQS | MKKS_PERCPU, 1, 1);
}

static void test_offsets_after(void **state)
{
    (void)state;
    decode(MKKS_SEQS | MKKS_OFFSETS_AFTER, 0, 0);
}

static void test_absolute_addresses(void **state)
{
    (void)state;
    decode(MKKS_ABSOLUTE, 0, 0);
    decode(MKKS_ABSOLUTE | MKKS_SEQS, 0, 1);
}

static void test_few_symbols(void **state)
{
    static const struct mkks_sym few[] = {
        { "a", TEXT, 'T' }, { "b", TEXT + 0x10, 't' }, { "_etext", TEXT + 0x20, 'T' },
    };
    struct xu_kallsyms k;
    size_t len;
    uint8_t *blob = mkkallsyms(few, 3, MKKS_SEQS, 8, &len, NULL);

    (void)state;
    assert_int_equal(xu_kallsyms_read(blob, len, &k, NULL, 0), 0);
    assert_int_equal(k.n, 3);
    assert_string_equal(k.pool + k.syms[2].name, "_etext");
    xu_kallsyms_dispose(&k);
    free(blob);
}

/* Every damage must give -ENODATA (never a crash, never garbage). */
static void refused(uint8_t *blob, size_t len)
{
    struct xu_kallsyms k;
    char err[128];

    assert_int_equal(xu_kallsyms_read(blob, len, &k, err, sizeof(err)), -ENODATA);
    assert_true(err[0] != '\0');
    assert_null(k.syms);
}

static void test_damaged(void **state)
{
    size_t n = make_syms(1, 0), len, cut;
    struct mkks_layout L;
    uint8_t *blob = mkkallsyms(syms, n, MKKS_SEQS | MKKS_PERCPU, 64, &len, &L), *copy;

    (void)state;
    copy = malloc(len);
    assert_non_null(copy);
    /* cut anywhere before the end of the token index */
    for (cut = 0; cut < L.index + 512; cut += 97) {
        memcpy(copy, blob, cut);
        refused(copy, cut);
    }
    /* a token index that disagrees with its table */
    memcpy(copy, blob, len);
    copy[L.index + 2 * 0x41] ^= 1;
    refused(copy, len);
    /* a marker off by one */
    memcpy(copy, blob, len);
    copy[L.markers + 4] ^= 1;
    refused(copy, len);
    /* a name length that runs past the markers */
    memcpy(copy, blob, len);
    copy[L.names] = 0x7f;
    refused(copy, len);
    /* num_syms past the table */
    memcpy(copy, blob, len);
    copy[L.num_syms + 3] = 0x7f;
    refused(copy, len);
    /* addresses out of order */
    memcpy(copy, blob, len);
    memcpy(copy + L.addrs + 4 * 10, copy + L.addrs + 4 * 400, 4);
    refused(copy, len);
    /* noise: no tables at all */
    memset(copy, 0xa5, len);
    refused(copy, len);
    free(copy);
    free(blob);
}

/* A stripped vmlinux at path: .text of text_size bytes, and .rodata holding
 * the kallsyms tables of syms; its symbol table, opened. */
static struct xu_symtab *open_stripped(char *path, const struct mkks_sym *ks, size_t n,
                                       unsigned int flags, uint64_t text_size)
{
    size_t len;
    uint8_t *blob = mkkallsyms(ks, n, flags, 64, &len, NULL);
    const uint64_t rodata = 0xffffffff82000000ULL;
    struct mkelf_section secs[] = {
        { ".text", TEXT, text_size, false },
        { ".rodata", rodata, 0, true },
    };
    struct mkelf_patch patch = { rodata, blob, len };
    struct xu_symtab *st = NULL;
    int fd = mkstemp(path);

    assert_non_null(blob);
    assert_true(fd >= 0);
    close(fd);
    secs[1].size = len;
    assert_int_equal(mkelf_write_patched(path, secs, 2, &patch, 1, NULL, 0, MKELF_STRIPPED), 0);
    assert_int_equal(xu_symtab_open_flags(path, EM_X86_64, XU_SYMTAB_ELF_ONLY, NULL, &st),
                     -ENODATA);
    assert_int_equal(xu_symtab_open(path, NULL, &st), 0);
    assert_string_equal(xu_symtab_origin(st), "kallsyms");
    free(blob);
    return st;
}

static void test_symtab_source(void **state)
{
    size_t n = make_syms(1, 0);
    char path[] = "/tmp/xu-kallsyms-XXXXXX";
    struct xu_symtab *st = open_stripped(path, syms, n, MKKS_SEQS | MKKS_PERCPU, 0x40 * NSYMS);
    const struct xu_symbol *sym;

    (void)state;
    /* func_1 (T) spans up to func_2; data_5 is no function, but it ends func_4 */
    sym = xu_symtab_lookup(st, TEXT + 0x40 + 0x3f);
    assert_non_null(sym);
    assert_string_equal(sym->name, "func_1");
    assert_int_equal(sym->size, 0x40);
    assert_null(xu_symtab_lookup(st, TEXT + 0x40 * 5 + 8));
    assert_string_equal(xu_symtab_lookup(st, TEXT + 0x40 * 7)->name, "__sched_stem7");
    assert_string_equal(xu_symtab_lookup(st, TEXT + 0x40 * 10)->name, "func_10");
    assert_null(xu_symtab_find(st, "percpu_var1"));
    xu_symtab_free(st);
    unlink(path);
}

/* Names at one address (Debian's 6.1, in its kallsyms order): the kernel's
 * build lists first the name its backtraces print, the linker's section
 * markers last, and that is the name a frame gets, not the first by
 * spelling. */
static void test_symtab_source_aliases(void **state)
{
    static const struct mkks_sym aliased[] = {
        { "startup_64", TEXT, 'T' },
        { "common_interrupt_return", TEXT + 0x100, 't' },
        { "swapgs_restore_regs_and_return_to_usermode", TEXT + 0x100, 'T' },
        { "__irqentry_text_end", TEXT + 0x100, 'T' },
        { "__x86_indirect_thunk_array", TEXT + 0x200, 'T' },
        { "__x86_indirect_thunk_rax", TEXT + 0x200, 'T' },
        { "__indirect_thunk_start", TEXT + 0x200, 'T' },
        { "__static_call_text_end", TEXT + 0x200, 'T' },
        { "_etext", TEXT + 0x300, 'T' },
    };
    char path[] = "/tmp/xu-kallsyms-XXXXXX";
    struct xu_symtab *st = open_stripped(path, aliased, sizeof(aliased) / sizeof(aliased[0]),
                                         MKKS_SEQS, 0x400);
    const struct xu_symbol *sym;

    (void)state;
    sym = xu_symtab_lookup(st, TEXT + 0x123);
    assert_non_null(sym);
    assert_string_equal(sym->name, "common_interrupt_return");
    assert_int_equal(sym->size, 0x100);
    assert_string_equal(xu_symtab_lookup(st, TEXT + 0x200)->name, "__x86_indirect_thunk_array");
    /* the other names still find their address */
    sym = xu_symtab_find(st, "startup_64");
    assert_non_null(sym);
    assert_string_equal(xu_symtab_lookup(st, TEXT)->name, "startup_64");
    xu_symtab_free(st);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_offsets_before),
        cmocka_unit_test(test_seqs_of_names),
        cmocka_unit_test(test_offsets_after),
        cmocka_unit_test(test_absolute_addresses),
        cmocka_unit_test(test_few_symbols),
        cmocka_unit_test(test_damaged),
        cmocka_unit_test(test_symtab_source),
        cmocka_unit_test(test_symtab_source_aliases),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
