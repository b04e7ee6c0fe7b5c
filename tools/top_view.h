/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * top_view.h - between `xen-uniprof top`'s command (cmd_top.c), its
 * signals (top_signals.c) and its full-screen view (top_screen.c, ncurses
 * when configure found it).
 */
#ifndef XU_TOP_VIEW_H
#define XU_TOP_VIEW_H

#include <signal.h>
#include <stdbool.h>

#include "top/xu_top.h"
#include "top/xu_top_all.h"

#ifdef HAVE_NCURSES
#define XU_TOP_SCREEN_NOTE "keys: h for help"
#else
#define XU_TOP_SCREEN_NOTE "not in this build: no ncurses"
#endif

/* Built with ncurses, stdin and stdout terminals, a terminal type ncurses
 * knows: the full-screen view can run. */
bool xu_top_screen_usable(void);
/* The full-screen view until q, the iterations, a signal or the domain's
 * end; restores the terminal on every way out.  The run's messages at
 * log's level are shown on its last line while it runs, and written
 * through log once the terminal is restored. */
enum xu_record_result xu_top_screen_run(const struct xu_top_config *cfg,
                                        struct xu_record_env *env, struct xu_log *log);
/* The same for every guest (top --all): the merged snapshots, a domain's
 * end on the last line; callers and callees and the frequency keys are
 * for one domain's view only.  The domains' own messages stay in their
 * processes (the reason a domain has no symbols is shown). */
enum xu_record_result xu_top_screen_run_all(const struct xu_top_all_config *cfg,
                                            struct xu_record_env *env, struct xu_log *log);

/* top_signals.c: the handlers (the stop flag for env->stop is returned). */
volatile sig_atomic_t *xu_top_signals_install(void);
/* A resize since the last call. */
bool xu_top_resized(void);
/* Ctrl-Z was pressed: stop the process now (between ticks, the guest
 * running), with before() and after() around it (the terminal's modes). */
void xu_top_suspend_if_asked(void (*before)(void *), void (*after)(void *), void *ctx);

#endif
