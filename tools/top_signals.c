/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * top_signals.c - `xen-uniprof top`'s signals (see top_view.h).  Handlers
 * only set flags; everything they cause happens between ticks, with the
 * guest running:
 *   SIGINT, SIGTERM, SIGHUP  end sampling after the current tick (the
 *                            pause module unpauses), exit 0;
 *   SIGTSTP (Ctrl-Z)         the process stops itself at the view's next
 *                            poll, never inside a paused window, and goes
 *                            on after SIGCONT;
 *   SIGWINCH                 the full-screen view redraws at its new size.
 */
#include "config.h"

#include <signal.h>
#include <string.h>

#include "top_view.h"

static volatile sig_atomic_t stop_requested, suspend_requested, resized;

static void on_stop(int sig)
{
    stop_requested = sig;
}

static void on_suspend(int sig)
{
    (void)sig;
    suspend_requested = 1;
}

static void on_resize(int sig)
{
    (void)sig;
    resized = 1;
}

static void catch_signal(int sig, void (*handler)(int))
{
    struct sigaction sa;

    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = handler;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, NULL);      /* no SA_RESTART: the sampler's sleep returns */
}

volatile sig_atomic_t *xu_top_signals_install(void)
{
    catch_signal(SIGINT, on_stop);
    catch_signal(SIGTERM, on_stop);
    catch_signal(SIGHUP, on_stop);
    catch_signal(SIGTSTP, on_suspend);
    catch_signal(SIGWINCH, on_resize);
    signal(SIGPIPE, SIG_IGN);       /* a closed stdout is a write error */
    return &stop_requested;
}

bool xu_top_resized(void)
{
    bool r = resized != 0;

    resized = 0;
    return r;
}

void xu_top_suspend_if_asked(void (*before)(void *), void (*after)(void *), void *ctx)
{
    if (!suspend_requested)
        return;
    suspend_requested = 0;
    if (before)
        before(ctx);
    /* Stop for real, here, between ticks: the guest runs meanwhile. */
    signal(SIGTSTP, SIG_DFL);
    raise(SIGTSTP);
    /* SIGCONT: on again */
    catch_signal(SIGTSTP, on_suspend);
    if (after)
        after(ctx);
}
