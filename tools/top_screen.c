/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * top_screen.c - `xen-uniprof top`'s full-screen view.  This build has no
 * ncurses: the plain text snapshots are the only view.
 */
#include "config.h"

#include "exit_codes.h"
#include "top_view.h"

bool xu_top_screen_usable(void)
{
    return false;
}

int xu_top_screen_run(const struct xu_top_config *cfg, struct xu_record_env *env,
                      int verbose, bool quiet)
{
    (void)cfg;
    (void)env;
    (void)verbose;
    (void)quiet;
    return XU_EXIT_FAILURE;
}
