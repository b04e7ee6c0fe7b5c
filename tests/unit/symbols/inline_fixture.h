/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * inline_fixture.h - the source lines test_inline.c expects of
 * inline_fixture.c; the fixture checks each against its own __LINE__ when
 * it is compiled, so the two cannot drift apart.
 */
#ifndef INLINE_FIXTURE_H
#define INLINE_FIXTURE_H

#define FX_LINE_CALLEE 35               /* fx_callee's one statement */
#define FX_LINE_LEAF 42                 /* in fx_leaf, at FX_MARK_LEAF */
#define FX_LINE_MIDDLE_CALLS_LEAF 49
#define FX_LINE_MIDDLE_CALLS_CALLEE 50
#define FX_LINE_OUTER_CALLS_MIDDLE 57
#define FX_LINE_ENTRY_CALLS_OUTER 81
#define FX_LINE_DEEP_LEAF 65            /* in fx_deep_39, at FX_MARK_DEEP */
#define FX_LINE_DEEP_CHAIN 72           /* every fx_deep_N's call of the next */

/* The marks of .fx_marks, in order: code addresses the test samples. */
enum {
    FX_MARK_LEAF,               /* inside fx_leaf inlined in fx_middle in fx_outer */
    FX_MARK_AFTER_CALLEE,       /* return address of fx_middle's call of fx_callee */
    FX_MARK_DEEP,               /* inside fx_deep_39, 40 inlined calls deep */
    FX_MARK_AFTER_OUTER,        /* return address of fx_entry's call of fx_outer */
    FX_NR_MARKS,
};

#endif
