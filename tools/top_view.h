/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * top_view.h - between `xen-uniprof top`'s command (cmd_top.c) and its
 * full-screen view (top_screen.c, ncurses when configure found it).
 */
#ifndef XU_TOP_VIEW_H
#define XU_TOP_VIEW_H

#include <stdbool.h>

#include "top/xu_top.h"

#ifdef HAVE_NCURSES
#define XU_TOP_SCREEN_NOTE "keys: h for help"
#else
#define XU_TOP_SCREEN_NOTE "not in this build: no ncurses"
#endif

/* Built with ncurses, stdin and stdout terminals, a terminal type ncurses
 * knows: the full-screen view can run. */
bool xu_top_screen_usable(void);
/* The full-screen view until q, the iterations, a signal or the domain's
 * end; restores the terminal on every way out.  An exit status. */
int xu_top_screen_run(const struct xu_top_config *cfg, struct xu_record_env *env,
                      int verbose, bool quiet);

/* cmd_top.c's signal flags, for the views.  A resize since the last call. */
bool xu_top_resized(void);
/* Ctrl-Z was pressed: stop the process now (between ticks, the guest
 * running), with before() and after() around it (the terminal's modes). */
void xu_top_suspend_if_asked(void (*before)(void *), void (*after)(void *), void *ctx);

#endif
