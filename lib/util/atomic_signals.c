/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * atomic_signals.c - temporary files removed when a signal kills the
 * process (see xu_atomic_file.h).
 *
 * The table holds malloc'ed copies of the temporary paths in atomic
 * pointers: the handler only loads them and calls unlink(2), both
 * async-signal-safe.  A slot is emptied (exchanged with NULL) before its
 * string is freed, so a handler that interrupts the owner sees either the
 * whole path or nothing.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/atomic_track.h"
#include "util/xu_atomic_file.h"

static char *_Atomic tracked[XU_ATOMIC_MAX_TRACKED];

int xu_atomic_track(const char *path)
{
    char *copy = strdup(path);
    int i;

    if (!copy)
        return -1;
    for (i = 0; i < XU_ATOMIC_MAX_TRACKED; i++) {
        char *expected = NULL;

        if (atomic_compare_exchange_strong(&tracked[i], &expected, copy))
            return i;
    }
    free(copy);
    return -1;
}

void xu_atomic_untrack(int slot)
{
    if (slot < 0 || slot >= XU_ATOMIC_MAX_TRACKED)
        return;
    free(atomic_exchange(&tracked[slot], NULL));
}

void xu_atomic_remove_temporaries(void)
{
    int saved = errno, i;

    for (i = 0; i < XU_ATOMIC_MAX_TRACKED; i++) {
        char *p = atomic_load(&tracked[i]);

        if (p)
            unlink(p);
    }
    errno = saved;
}

static void on_fatal_signal(int sig)
{
    xu_atomic_remove_temporaries();
    /* die of the signal, so the exit status says what happened */
    signal(sig, SIG_DFL);
    raise(sig);
}

int xu_atomic_cleanup_on_signals(void)
{
    static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
    struct sigaction sa, old;
    size_t i;

    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_fatal_signal;
    sigemptyset(&sa.sa_mask);
    for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
        sigaddset(&sa.sa_mask, sigs[i]);
    for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
        if (sigaction(sigs[i], NULL, &old) < 0)
            return -errno;
        if (old.sa_handler == SIG_IGN)
            continue;
        if (sigaction(sigs[i], &sa, NULL) < 0)
            return -errno;
    }
    return 0;
}
