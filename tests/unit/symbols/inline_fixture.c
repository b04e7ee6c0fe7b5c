/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * inline_fixture.c - a program whose functions are inlined into each
 * other, compiled with -O2 -g at `make check` (Makefile.am) into
 * inline_fixture.elf for test_inline.c: fx_leaf is inlined into fx_middle,
 * which is inlined into fx_outer, which calls fx_callee from inside
 * fx_middle's inlined code; and fx_deep_0 ... fx_deep_39, each inlined
 * into the one before, in fx_deep_root: a chain deeper than the
 * symboliser keeps.
 *
 * The test needs code addresses inside the inlined code.  A label there
 * would be a symbol, and the symbol table would name the code after it, so
 * each address is written as data into the section .fx_marks instead (in
 * the order of inline_fixture.h's FX_MARK_*), through a local label the
 * symbol table never sees.  The asm statements are volatile: the compiler
 * keeps them in order with the volatile stores around them.
 */
#include "inline_fixture.h"

#define FX_MARK()                                                       \
    __asm__ volatile(".pushsection .fx_marks,\"a\"\n"                   \
                     ".balign 8\n"                                      \
                     ".quad 1f\n"                                       \
                     ".popsection\n"                                    \
                     "1:")

#define FX_LINE_IS(n) _Static_assert(__LINE__ == (n), "inline_fixture.h's " #n " is wrong")

volatile int fx_sink;

void fx_entry(void);

__attribute__((noinline)) void fx_callee(void)
{
    fx_sink = 1; FX_LINE_IS(FX_LINE_CALLEE);
}

static inline __attribute__((always_inline)) void fx_leaf(int x)
{
    fx_sink = x;
    FX_MARK();
    fx_sink = x + 1; FX_LINE_IS(FX_LINE_LEAF);
    fx_sink = x + 2;
}

static inline __attribute__((always_inline)) void fx_middle(int x)
{
    fx_sink = x;
    fx_leaf(x); FX_LINE_IS(FX_LINE_MIDDLE_CALLS_LEAF);
    fx_callee(); FX_LINE_IS(FX_LINE_MIDDLE_CALLS_CALLEE);
    FX_MARK();
    fx_sink = 3;
}

__attribute__((noinline)) void fx_outer(int x)
{
    fx_middle(x); FX_LINE_IS(FX_LINE_OUTER_CALLS_MIDDLE);
    fx_sink = 4;
}

static inline __attribute__((always_inline)) void fx_deep_39(int x)
{
    fx_sink = x;
    FX_MARK();
    fx_sink = x + 1; FX_LINE_IS(FX_LINE_DEEP_LEAF);
}

/* fx_deep_N calls fx_deep_N+1, each call on this one line */
#define FX_DEEP(n, next)                                                 \
    static inline __attribute__((always_inline)) void fx_deep_##n(int x) \
    { fx_deep_##next(x + 1); }
FX_DEEP(38, 39) FX_DEEP(37, 38) FX_DEEP(36, 37) FX_DEEP(35, 36) FX_DEEP(34, 35) FX_DEEP(33, 34) FX_DEEP(32, 33) FX_DEEP(31, 32) FX_DEEP(30, 31) FX_DEEP(29, 30) FX_DEEP(28, 29) FX_DEEP(27, 28) FX_DEEP(26, 27) FX_DEEP(25, 26) FX_DEEP(24, 25) FX_DEEP(23, 24) FX_DEEP(22, 23) FX_DEEP(21, 22) FX_DEEP(20, 21) FX_DEEP(19, 20) FX_DEEP(18, 19) FX_DEEP(17, 18) FX_DEEP(16, 17) FX_DEEP(15, 16) FX_DEEP(14, 15) FX_DEEP(13, 14) FX_DEEP(12, 13) FX_DEEP(11, 12) FX_DEEP(10, 11) FX_DEEP(9, 10) FX_DEEP(8, 9) FX_DEEP(7, 8) FX_DEEP(6, 7) FX_DEEP(5, 6) FX_DEEP(4, 5) FX_DEEP(3, 4) FX_DEEP(2, 3) FX_DEEP(1, 2) FX_DEEP(0, 1) FX_LINE_IS(FX_LINE_DEEP_CHAIN);

__attribute__((noinline)) void fx_deep_root(int x)
{
    fx_deep_0(x);
}

void fx_entry(void)
{
    fx_outer(7); FX_LINE_IS(FX_LINE_ENTRY_CALLS_OUTER);
    FX_MARK();
    fx_deep_root(1);
    for (;;)
        ;
}
