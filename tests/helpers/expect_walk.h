/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * expect_walk.h - the unwinder tests' one check of a walk: it ended as
 * expected, at the expected depth, with the expected PCs; on a mismatch
 * the PCs it did produce are printed first.  Include after <cmocka.h>.
 */
#ifndef EXPECT_WALK_H
#define EXPECT_WALK_H

#include <stdint.h>

#include "unwind/xu_unwind.h"

static inline void expect_chain(const uint64_t *pcs, const struct xu_unwind_result *res,
                                enum xu_walk_end end, const uint64_t *want, unsigned int n)
{
    unsigned int i;

    if (res->end != end || res->depth != n) {
        for (i = 0; i < res->depth; i++)
            print_message("  pcs[%u] = %#llx\n", i, (unsigned long long)pcs[i]);
        fail_msg("walk ended %s at depth %u, expected %s at depth %u",
                 xu_walk_end_name(res->end), res->depth, xu_walk_end_name(end), n);
    }
    for (i = 0; i < n; i++)
        if (pcs[i] != want[i])
            fail_msg("pcs[%u] = %#llx, expected %#llx", i, (unsigned long long)pcs[i],
                     (unsigned long long)want[i]);
}

#endif
