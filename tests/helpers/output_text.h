/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * output_text.h - the output tests' one way to run a writer: what ops
 * writes for ctx, in memory, as a malloc'ed buffer (NUL-terminated; its
 * length in *len unless len is NULL).  Include after <cmocka.h>.
 */
#ifndef OUTPUT_TEXT_H
#define OUTPUT_TEXT_H

#include <stdio.h>

#include "output/xu_output.h"

static inline char *output_text(const struct xu_output_ops *ops, const struct xu_output_ctx *ctx,
                                size_t *len)
{
    char *text = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&text, &n);

    assert_non_null(f);
    assert_int_equal(ops->write(f, ctx), 0);
    assert_int_equal(fclose(f), 0);
    if (len)
        *len = n;
    return text;
}

#endif
