/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_demangle.c - readable names: C++ as c++filt prints them, Rust as
 * rustfilt does (no hash, no crate disambiguator), OCaml decoded here;
 * names that are not mangled, and damaged or oversized ones, kept (NULL);
 * the symboliser demangling once per symbol, or not at all when asked.
 */
#include "config.h"

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
#include "symbols/xu_demangle.h"
#include "symbols/xu_symbols.h"

struct pair {
    const char *mangled, *readable;
};

/* name demangles to want; want NULL: kept */
static void check(const char *name, unsigned int flags, const char *want)
{
    char *got = xu_demangle(name, flags);

    if (!want) {
        if (got)
            fail_msg("'%s' demangled to '%s', expected it kept", name, got);
        return;
    }
    if (!got)
        fail_msg("'%s' kept, expected '%s'", name, want);
    if (strcmp(got, want) != 0)
        fail_msg("'%s' demangled to '%s', expected '%s'", name, got, want);
    free(got);
}

/* Without libiberty, C++ and Rust names are kept: the tests say so. */
static void check_cxx(const char *name, const char *want)
{
    check(name, XU_DEMANGLE_ALL, xu_demangle_have_libiberty() ? want : NULL);
}

static void test_cxx_as_cxxfilt(void **state)
{
    /* what c++filt (binutils 2.40) printed for each, once */
    static const struct pair names[] = {
        { "_ZN3foo3barEv", "foo::bar()" },
        { "_ZN3foo3BarIiE3getEv", "foo::Bar<int>::get()" },
        { "_Z3maxIiET_S0_S0_", "int max<int>(int, int)" },
        { "_ZN3fooplERKS_", "foo::operator+(foo const&)" },
        { "_ZN3FooC2Ev", "Foo::Foo()" },
        { "_ZN3FooD1Ev", "Foo::~Foo()" },
        { "_ZNK3Foo3getEi", "Foo::get(int) const" },
        { "_ZNSt6vectorIiSaIiEE9push_backERKi",
          "std::vector<int, std::allocator<int> >::push_back(int const&)" },
        { "_ZN5arrayIA16_hE3getEv", "array<unsigned char [16]>::get()" },
        { "_ZN3foo3barEv.cold", "foo::bar() [clone .cold]" },
    };
    size_t i;

    (void)state;
    for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        check_cxx(names[i].mangled, names[i].readable);
    /* c++filt spells std::string out (its verbose form); we keep it short */
    check_cxx("_ZNKSs4sizeEv", "std::string::size() const");
    /* only the C++ scheme asked for: OCaml's flag alone leaves it */
    check("_ZN3foo3barEv", XU_DEMANGLE_OCAML, NULL);
}

static void test_rust(void **state)
{
    static const struct pair names[] = {
        /* legacy: the hash is dropped, as rustfilt shows it */
        { "_ZN4core3ptr13drop_in_place17h0123456789abcdefE", "core::ptr::drop_in_place" },
        { "_ZN66_$LT$alloc..vec..Vec$LT$T$GT$$u20$as$u20$core..ops..drop..Drop$GT$"
          "4drop17h5c0b55aa67d5bc1dE",
          "<alloc::vec::Vec<T> as core::ops::drop::Drop>::drop" },
        { "_ZN4core5array71_$LT$impl$u20$core..fmt..Debug$u20$for$u20$$u5b$u8$u3b$"
          "$u20$16$u5d$$GT$3fmt17h0123456789abcdefE",
          "core::array::<impl core::fmt::Debug for [u8; 16]>::fmt" },
        /* v0, written from the grammar: no crate disambiguator */
        { "_RNvCs1234_7mycrate3foo", "mycrate::foo" },
        { "_RINvCs1234_7mycrate3fooAhj10_E", "mycrate::foo::<[u8; 16]>" },
        { "_RNvXCs1234_7mycrateNtB2_3FooNtNtCs5678_4core3fmt5Debug3fmt",
          "<mycrate::Foo as core::fmt::Debug>::fmt" },
        { "_RNvCs1234_7mycrate3foo.llvm.1234", "mycrate::foo" },
    };
    size_t i;

    (void)state;
    for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        check_cxx(names[i].mangled, names[i].readable);
}

static void test_ocaml(void **state)
{
    static const struct pair names[] = {
        { "camlModule__function_1234", "Module.function" },
        { "camlStdlib__List__map_279", "Stdlib.List.map" },
        { "camlStdlib__$2a$2a_123", "Stdlib.**" },
        { "camlStdlib__$3e$3e$3d_42", "Stdlib.>>=" },
        { "camlFoo__bar_baz_12", "Foo.bar_baz" },
        { "camlFoo__entry", "Foo.entry" },
        { "camlFoo__fun_1527", "Foo.fun" },
        /* OCaml 5.1 on */
        { "camlFib.fib_269", "Fib.fib" },
        { "camlStdlib.List.iter_356", "Stdlib.List.iter" },
        { "camlFib.code_begin", "Fib.code_begin" },
    };
    size_t i;

    (void)state;
    for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        check(names[i].mangled, XU_DEMANGLE_OCAML, names[i].readable);
    /* and with every scheme on, as the symboliser asks */
    check("camlModule__function_1234", XU_DEMANGLE_ALL, "Module.function");
    check("camlModule__function_1234", XU_DEMANGLE_CXX, NULL);
    /* the runtime's C functions, and marks that are not ocamlopt's */
    check("caml_alloc_small", XU_DEMANGLE_ALL, NULL);
    check("caml_system__code_begin", XU_DEMANGLE_ALL, NULL);
    check("caml", XU_DEMANGLE_ALL, NULL);
    check("camlfoo_12", XU_DEMANGLE_ALL, NULL);
    check("camlFoo__", XU_DEMANGLE_ALL, NULL);
}

static void test_plain_names_kept(void **state)
{
    static const char *const names[] = {
        "main", "_start", "hypercall_page", "schedule", "__memcpy", "do_IRQ",
        "_", "_Z", "_R", "", "foo.cold", "Z3foov",
    };
    size_t i;

    (void)state;
    for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        check(names[i], XU_DEMANGLE_ALL, NULL);
    assert_null(xu_demangle(NULL, XU_DEMANGLE_ALL));
    check("_ZN3foo3barEv", 0, NULL);
}

/* What xu_demangle makes of f(X<int, int>, X<S0, S0>, X<S1, S1>, ...):
 * each level is twice the text of the last. */
static char *doubling(unsigned int levels)
{
    static const char digits[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    char name[1024] = "_Z1f1XIiiE";
    unsigned int k;

    assert_true(levels < 36 * 36 && levels * 16 + 16 < sizeof(name));
    for (k = 0; k < levels; k++) {
        char level[24];

        if (k < 36)
            snprintf(level, sizeof(level), "S_IS%c_S%c_E", digits[k], digits[k]);
        else
            snprintf(level, sizeof(level), "S_IS%c%c_S%c%c_E", digits[k / 36],
                     digits[k % 36], digits[k / 36], digits[k % 36]);
        strcat(name, level);
    }
    return xu_demangle(name, XU_DEMANGLE_ALL);
}

static void test_hostile_names(void **state)
{
    static const char *const names[] = {
        /* truncated and damaged mangling */
        "_ZN3foo", "_ZN3foo3bar", "_ZN999999999999foo3barEv", "_Z3fooILi", "_ZSt",
        "_ZN4core3ptr13drop_in_place17h0123456789abcdE", "_RNvC", "_RNvCs1234_7myc",
        "_RB999999999_", "_ZZZZZZZZ",
        /* OCaml escapes that are not two hex digits of a printable byte */
        "camlFoo__$2", "camlFoo__$zz_1", "camlFoo__$0a_1", "camlFoo__$20_1",
        "camlFoo__$7f_1", "camlFoo__$", "camlFoo bar", "camlFoo__\xff_1",
    };
    char *big = malloc(XU_DEMANGLE_MAX_IN + 64), *deep = malloc(XU_DEMANGLE_MAX_IN + 1);
    size_t i;

    (void)state;
    assert_non_null(big);
    assert_non_null(deep);
    for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        check(names[i], XU_DEMANGLE_ALL, NULL);

    /* a valid name, but past the bound: kept without a look */
    memcpy(big, "camlFoo__", 9);
    memset(big + 9, 'a', XU_DEMANGLE_MAX_IN + 64 - 9 - 1);
    big[XU_DEMANGLE_MAX_IN + 63] = '\0';
    check(big, XU_DEMANGLE_ALL, NULL);
    /* exactly at the bound it is read */
    big[XU_DEMANGLE_MAX_IN] = '\0';
    {
        char *got = xu_demangle(big, XU_DEMANGLE_ALL);

        assert_non_null(got);
        assert_int_equal(strlen(got), XU_DEMANGLE_MAX_IN - 4 - 1);
        assert_memory_equal(got, "Foo.aaa", 7);
        free(got);
    }
    /* deep nesting within the bound: libiberty's own limits, never a crash */
    memcpy(deep, "_Z1f", 4);
    for (i = 4; i + 2 < XU_DEMANGLE_MAX_IN; i += 2)
        memcpy(deep + i, "PA", 2);
    deep[i] = '\0';
    free(xu_demangle(deep, XU_DEMANGLE_ALL));
    memcpy(deep, "_RNv", 4);
    for (i = 4; i + 2 < XU_DEMANGLE_MAX_IN; i += 2)
        memcpy(deep + i, "Nv", 2);
    deep[i] = '\0';
    free(xu_demangle(deep, XU_DEMANGLE_ALL));
    /* substitutions that double the text at each level: 8 levels fit the
     * output bound, 60 stand for petabytes and must be cut short at once
     * (libiberty alone would print for ever) */
    if (xu_demangle_have_libiberty()) {
        char *got = doubling(8);

        assert_non_null(got);
        assert_true(strlen(got) > XU_DEMANGLE_MAX_OUT / 2 && strlen(got) <= XU_DEMANGLE_MAX_OUT);
        free(got);
        assert_null(doubling(9));
        assert_null(doubling(60));
    }
    free(big);
    free(deep);
}

/* The symboliser: readable names for every address, one demangling per
 * symbol; the raw name stays on the symbol; XU_SYMBOLIZER_RAW_NAMES keeps
 * names as they are. */
static void test_symbolizer_names(void **state)
{
    static const struct mkelf_sym syms[] = {
        { "_ZN3foo3barEv", 0x401000, 0x100, STT_FUNC, STB_GLOBAL, 0 },
        { "camlModule__function_1234", 0x401100, 0x100, STT_FUNC, STB_GLOBAL, 0 },
        { "plain", 0x401200, 0x100, STT_FUNC, STB_GLOBAL, 0 },
    };
    const uint64_t addrs[] = { 0x401000, 0x401010, 0x401150, 0x401210, 0x402000 };
    char path[] = "/tmp/xu-demangle-XXXXXX";
    const struct xu_symbol *sym_a, *sym_b;
    struct xu_symtab *st = NULL;
    struct xu_symbolizer *sz;
    const char *a, *b;
    int fd;

    (void)state;
    fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(mkelf_write(path, 0x401000, 0x1000, syms, 3, 0), 0);
    assert_int_equal(xu_symtab_open(path, NULL, &st), 0);
    unlink(path);

    sz = xu_symbolizer_new(st, addrs, 5);
    assert_non_null(sz);
    a = xu_symbolizer_name(sz, 0x401000, &sym_a);
    b = xu_symbolizer_name(sz, 0x401010, &sym_b);
    assert_string_equal(a, xu_demangle_have_libiberty() ? "foo::bar()" : "_ZN3foo3barEv");
    /* two addresses of one function: one name, demangled once */
    assert_ptr_equal(a, b);
    assert_ptr_equal(sym_a, sym_b);
    assert_string_equal(sym_a->name, "_ZN3foo3barEv");
    assert_string_equal(xu_symbolizer_name(sz, 0x401150, NULL), "Module.function");
    assert_string_equal(xu_symbolizer_name(sz, 0x401210, NULL), "plain");
    assert_string_equal(xu_symbolizer_name(sz, 0x402000, NULL), "0x402000");
    xu_symbolizer_free(sz);

    sz = xu_symbolizer_new_flags(st, addrs, 5, XU_SYMBOLIZER_RAW_NAMES);
    assert_non_null(sz);
    assert_string_equal(xu_symbolizer_name(sz, 0x401010, NULL), "_ZN3foo3barEv");
    assert_string_equal(xu_symbolizer_name(sz, 0x401150, NULL), "camlModule__function_1234");
    assert_string_equal(xu_symbolizer_name(sz, 0x402000, NULL), "0x402000");
    xu_symbolizer_free(sz);
    xu_symtab_free(st);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cxx_as_cxxfilt),
        cmocka_unit_test(test_rust),
        cmocka_unit_test(test_ocaml),
        cmocka_unit_test(test_plain_names_kept),
        cmocka_unit_test(test_hostile_names),
        cmocka_unit_test(test_symbolizer_names),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
