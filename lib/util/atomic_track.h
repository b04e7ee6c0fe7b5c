/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * atomic_track.h - the table of temporary files that a signal handler
 * removes (internal to atomic_file.c and atomic_signals.c).
 */
#ifndef XU_ATOMIC_TRACK_H
#define XU_ATOMIC_TRACK_H

/* At most this many temporary files are open at once in one process; more
 * are still written, only not removed by a signal. */
#define XU_ATOMIC_MAX_TRACKED 32

/* Remember path (copied): its slot, or -1 when the table is full. */
int xu_atomic_track(const char *path);
/* Forget the slot's path (after the file was renamed or removed). */
void xu_atomic_untrack(int slot);

#endif
