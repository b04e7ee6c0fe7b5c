/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * inline_fixture.c - a program whose functions are inlined into each
 * other, compiled with -O2 -g at `make check` (Makefile.am) into
 * inline_fixture.elf for test_inline.c: fx_leaf is inlined into fx_middle,
 * which is inlined into fx_outer, which calls fx_callee from inside
 * fx_middle's inlined code.
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

void fx_entry(void)
{
    fx_outer(7); FX_LINE_IS(FX_LINE_ENTRY_CALLS_OUTER);
    FX_MARK();
    for (;;)
        ;
}
